//! The YAML error: what was expected, where (line, column, byte offset), and a kind to match.

use std::fmt;

/// What kind of problem stopped the reader; match on it, and use [`Error`]'s `Display` for people.
///
/// `#[non_exhaustive]`: new kinds will be added as failures are told apart more finely; match with
/// a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text breaks the YAML grammar: a missing `:`, bad indentation, a tab used for
    /// indentation, a stray character, an unknown escape.
    Syntax,
    /// The text ended before the document was complete (an unclosed quote or bracket).
    Eof,
    /// The bytes are not UTF-8 (invalid sequences, or UTF-16/UTF-32 text), or the text holds
    /// a character YAML does not allow (a control character other than tab and line breaks).
    Encoding,
    /// Sequences and mappings nest deeper than [`ParseOptions::max_depth`](super::ParseOptions::max_depth).
    Depth,
    /// A mapping holds the same key twice (after keys that are not strings are written as
    /// strings).
    DuplicateKey,
    /// An alias names no anchor defined before it.
    UnknownAlias,
    /// Anchors and aliases copy more than [`ParseOptions::max_alias_nodes`](super::ParseOptions::max_alias_nodes),
    /// keys that are sequences or mappings (written as their JSON text) counted with them.
    AliasLimit,
    /// The stream holds more than one document and
    /// [`ParseOptions::first_document_only`](super::ParseOptions::first_document_only) is off.
    Documents,
    /// A tag outside the core schema when
    /// [`ParseOptions::strict_tags`](super::ParseOptions::strict_tags) is on.
    Unsupported,
    /// A value that JSON cannot hold or that contradicts its tag: `.inf`, `.nan`, an integer
    /// too large to write, `!!int abc`, a bad merge key value.
    Value,
}

/// The specific message; private so the wording can improve without breaking callers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    InvalidUtf8,
    Utf16,
    Utf32,
    NonPrintable,
    TabIndent,
    ExpectedValueAfterKey,
    ExpectedKey,
    ExpectedNode,
    ExpectedSeqEntry,
    ExpectedFlowSeqEnd,
    ExpectedFlowMapEnd,
    ExpectedDocumentStart,
    ExpectedDocumentEnd,
    UnexpectedFlowEnd,
    BlockEntryNotAllowed,
    KeyNotAllowed,
    ValueNotAllowed,
    BlockInFlow,
    BadIndentation,
    UnexpectedCharacter,
    CommentWithoutSpace,
    TrailingContent,
    DocumentMarkerInScalar,
    UnclosedQuote,
    UnclosedFlow,
    InvalidEscape,
    InvalidCodePoint,
    BlockScalarHeader,
    BlockScalarIndent,
    BadDirective,
    DuplicateDirective,
    UnknownTagHandle,
    BadTag,
    BadAnchor,
    TwoAnchors,
    TwoTags,
    AnchorBeforeAlias,
    TooDeep,
    DuplicateKey,
    UnknownAlias,
    AliasLimit,
    KeyCopyLimit,
    SeveralDocuments,
    StrictTag,
    NotJsonNumber,
    IntegerTooLarge,
    TagMismatch,
    BadMerge,
}

impl Reason {
    pub(crate) fn kind(self) -> ErrorKind {
        match self {
            Reason::InvalidUtf8 | Reason::Utf16 | Reason::Utf32 | Reason::NonPrintable => {
                ErrorKind::Encoding
            }
            Reason::UnclosedQuote | Reason::UnclosedFlow => ErrorKind::Eof,
            Reason::TooDeep => ErrorKind::Depth,
            Reason::DuplicateKey => ErrorKind::DuplicateKey,
            Reason::UnknownAlias => ErrorKind::UnknownAlias,
            Reason::AliasLimit | Reason::KeyCopyLimit => ErrorKind::AliasLimit,
            Reason::SeveralDocuments => ErrorKind::Documents,
            Reason::StrictTag => ErrorKind::Unsupported,
            Reason::NotJsonNumber
            | Reason::IntegerTooLarge
            | Reason::TagMismatch
            | Reason::BadMerge => ErrorKind::Value,
            _ => ErrorKind::Syntax,
        }
    }

    fn message(self) -> &'static str {
        match self {
            Reason::InvalidUtf8 => "invalid UTF-8",
            Reason::Utf16 => "the text is UTF-16; only UTF-8 is read",
            Reason::Utf32 => "the text is UTF-32; only UTF-8 is read",
            Reason::NonPrintable => "control character not allowed in YAML text",
            Reason::TabIndent => "tab used for indentation",
            Reason::ExpectedValueAfterKey => "expected a mapping value after key",
            Reason::ExpectedKey => "expected a mapping key or the end of the mapping",
            Reason::ExpectedNode => "expected a value",
            Reason::ExpectedSeqEntry => "expected '-' or the end of the block sequence",
            Reason::ExpectedFlowSeqEnd => "expected ',' or ']' in flow sequence",
            Reason::ExpectedFlowMapEnd => "expected ',' or '}' in flow mapping",
            Reason::ExpectedDocumentStart => "expected '---' to start a document",
            Reason::ExpectedDocumentEnd => "expected '...' before a directive",
            Reason::UnexpectedFlowEnd => "unexpected end of a flow collection",
            Reason::BlockEntryNotAllowed => "block sequence entry not allowed here",
            Reason::KeyNotAllowed => "mapping key not allowed here",
            Reason::ValueNotAllowed => "mapping value not allowed here",
            Reason::BlockInFlow => "block indicator inside a flow collection",
            Reason::BadIndentation => "wrong indentation",
            Reason::UnexpectedCharacter => "unexpected character",
            Reason::CommentWithoutSpace => "'#' must follow a space to start a comment",
            Reason::TrailingContent => "unexpected content after the value",
            Reason::DocumentMarkerInScalar => "document marker inside a quoted scalar",
            Reason::UnclosedQuote => "unexpected end of input in quoted scalar",
            Reason::UnclosedFlow => "unexpected end of input in flow collection",
            Reason::InvalidEscape => "invalid escape in double-quoted scalar",
            Reason::InvalidCodePoint => "escape names no Unicode scalar value",
            Reason::BlockScalarHeader => "invalid block scalar header",
            Reason::BlockScalarIndent => {
                "block scalar line less indented than its leading empty lines"
            }
            Reason::BadDirective => "invalid directive",
            Reason::DuplicateDirective => "directive repeated in one document",
            Reason::UnknownTagHandle => "tag handle not declared by a %TAG directive",
            Reason::BadTag => "invalid tag",
            Reason::BadAnchor => "anchor or alias without a name",
            Reason::TwoAnchors => "a node may have only one anchor",
            Reason::TwoTags => "a node may have only one tag",
            Reason::AnchorBeforeAlias => "an alias cannot have an anchor or a tag",
            Reason::TooDeep => "sequences and mappings nested deeper than",
            Reason::DuplicateKey => "duplicate mapping key",
            Reason::UnknownAlias => "alias to an undefined anchor",
            Reason::AliasLimit => "anchors and aliases copy more than",
            Reason::KeyCopyLimit => {
                "anchors, aliases and keys that are sequences or mappings (written as JSON text) copy more than"
            }
            Reason::SeveralDocuments => {
                "more than one document in the stream (ask for the first document only to read it)"
            }
            Reason::StrictTag => "tag outside the YAML core schema",
            Reason::NotJsonNumber => {
                ".inf and .nan cannot be written in JSON (quote them to read a string)"
            }
            Reason::IntegerTooLarge => "hexadecimal or octal integer too large",
            Reason::TagMismatch => "value does not match its tag",
            Reason::BadMerge => "merge key '<<' needs a mapping or a sequence of mappings",
        }
    }
}

/// Why and where reading failed.
///
/// `Display` gives one lowercase line saying what was expected and where, for example
/// `expected a mapping value after key at 12:5`. Positions are 1-based; the column counts
/// characters from the start of the line, lines end at `\n` (or a lone `\r`), and
/// [`offset`](Error::offset) is the 0-based byte offset. Messages never quote the input, so
/// they are safe to log and to hand to a model.
///
/// # Examples
///
/// ```
/// use httptool::yaml::{self, ErrorKind};
///
/// let err = yaml::parse("name: x\n\tdays: 3\n").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Syntax);
/// assert_eq!(err.to_string(), "tab used for indentation at 2:1");
/// assert_eq!((err.line(), err.column(), err.offset()), (2, 1, 8));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    reason: Reason,
    eof: bool,
    limit: usize,
    line: usize,
    column: usize,
    offset: usize,
}

impl Error {
    /// The error for `reason` at byte `offset` of `text` (positions computed from the prefix,
    /// once, when the error is made).
    pub(crate) fn new(reason: Reason, text: &str, offset: usize) -> Error {
        let offset = offset.min(text.len());
        let (line, column) = crate::json::line_column(text, offset, true);
        // A grammar error at the very end means the text stopped short.
        let eof = (offset == text.len() && reason.kind() == ErrorKind::Syntax)
            || reason.kind() == ErrorKind::Eof;
        Error {
            reason,
            eof,
            limit: 0,
            line,
            column,
            offset,
        }
    }

    /// Attaches the limit that was exceeded (shown in the message).
    pub(crate) fn with_limit(mut self, limit: usize) -> Error {
        self.limit = limit;
        self
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> ErrorKind {
        if self.eof {
            ErrorKind::Eof
        } else {
            self.reason.kind()
        }
    }

    /// The 1-based line of the problem.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column of the problem, in characters from the start of its line.
    pub fn column(&self) -> usize {
        self.column
    }

    /// The 0-based byte offset of the problem in the input.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.eof && self.reason.kind() != ErrorKind::Eof {
            f.write_str("unexpected end of input; ")?;
        }
        f.write_str(self.reason.message())?;
        match self.reason {
            Reason::TooDeep => write!(f, " {} levels", self.limit)?,
            Reason::AliasLimit | Reason::KeyCopyLimit => write!(f, " {} nodes", self.limit)?,
            _ => {}
        }
        write!(f, " at {}:{}", self.line, self.column)
    }
}

impl std::error::Error for Error {}
