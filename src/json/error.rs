//! The parse error: what was expected, where (line, column, byte offset), and a kind to match.

use std::fmt;

/// What kind of problem stopped the parser; match on it, and use [`Error`]'s `Display` for people.
///
/// `#[non_exhaustive]`: new kinds will be added as failures are told apart more finely; match with
/// a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text breaks the JSON grammar: a missing `,` or `:`, a stray character, a bad literal,
    /// data after the value, or a byte order mark.
    Syntax,
    /// The text ended before the value was complete (more input might make it valid).
    Eof,
    /// The bytes are not valid UTF-8 ([`parse_bytes`](super::parse_bytes) only).
    Utf8,
    /// Arrays and objects nest deeper than the limit ([`ParseOptions::max_depth`](super::ParseOptions::max_depth)).
    Depth,
    /// An object holds the same key twice and
    /// [`ParseOptions::reject_duplicate_keys`](super::ParseOptions::reject_duplicate_keys) is on.
    DuplicateKey,
    /// A malformed number: no digit after `-`, `.` or `e`, or a leading zero.
    Number,
    /// A malformed escape in a string: an unknown `\` sequence, a short `\u`, or an unpaired
    /// UTF-16 surrogate.
    Escape,
    /// A control character (U+0000 to U+001F) written raw inside a string (RFC 8259 section 7
    /// requires it to be escaped).
    ControlCharacter,
}

/// The specific message; private so the wording can improve without breaking callers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    ExpectedValue,
    ExpectedNumber,
    ExpectedArrayCommaOrEnd,
    ExpectedObjectCommaOrEnd,
    ExpectedKey,
    ExpectedColon,
    ExpectedTrue,
    ExpectedFalse,
    ExpectedNull,
    TrailingCharacters,
    ByteOrderMark,
    UnclosedString,
    InvalidUtf8,
    TooDeep,
    DuplicateKey,
    DigitAfterMinus,
    DigitAfterPoint,
    DigitInExponent,
    LeadingZero,
    InvalidEscape,
    ShortUnicodeEscape,
    UnpairedSurrogate,
    ControlCharacter,
}

impl Reason {
    /// The kind for this reason when the input did not simply run out.
    fn kind(self) -> ErrorKind {
        match self {
            Reason::ExpectedValue
            | Reason::ExpectedNumber
            | Reason::ExpectedArrayCommaOrEnd
            | Reason::ExpectedObjectCommaOrEnd
            | Reason::ExpectedKey
            | Reason::ExpectedColon
            | Reason::ExpectedTrue
            | Reason::ExpectedFalse
            | Reason::ExpectedNull
            | Reason::TrailingCharacters
            | Reason::ByteOrderMark => ErrorKind::Syntax,
            Reason::UnclosedString => ErrorKind::Eof,
            Reason::InvalidUtf8 => ErrorKind::Utf8,
            Reason::TooDeep => ErrorKind::Depth,
            Reason::DuplicateKey => ErrorKind::DuplicateKey,
            Reason::DigitAfterMinus
            | Reason::DigitAfterPoint
            | Reason::DigitInExponent
            | Reason::LeadingZero => ErrorKind::Number,
            Reason::InvalidEscape | Reason::ShortUnicodeEscape | Reason::UnpairedSurrogate => {
                ErrorKind::Escape
            }
            Reason::ControlCharacter => ErrorKind::ControlCharacter,
        }
    }

    fn message(self) -> &'static str {
        match self {
            Reason::ExpectedValue => "expected a value",
            Reason::ExpectedNumber => "expected a number",
            Reason::ExpectedArrayCommaOrEnd => "expected ',' or ']' after array element",
            Reason::ExpectedObjectCommaOrEnd => "expected ',' or '}' after object member",
            Reason::ExpectedKey => "expected '\"' to start an object key",
            Reason::ExpectedColon => "expected ':' after object key",
            Reason::ExpectedTrue => "expected 'true'",
            Reason::ExpectedFalse => "expected 'false'",
            Reason::ExpectedNull => "expected 'null'",
            Reason::TrailingCharacters => "expected end of input after the value",
            Reason::ByteOrderMark => {
                "unexpected byte order mark (JSON text must not start with U+FEFF)"
            }
            Reason::UnclosedString => "unexpected end of input in string; expected closing '\"'",
            Reason::InvalidUtf8 => "invalid UTF-8",
            Reason::TooDeep => "arrays and objects nested deeper than",
            Reason::DuplicateKey => "duplicate object key",
            Reason::DigitAfterMinus => "expected a digit after '-'",
            Reason::DigitAfterPoint => "expected a digit after the decimal point",
            Reason::DigitInExponent => "expected a digit in the exponent",
            Reason::LeadingZero => "leading zeros are not allowed in numbers",
            Reason::InvalidEscape => {
                "invalid escape; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
            }
            Reason::ShortUnicodeEscape => "expected 4 hex digits after \\u",
            Reason::UnpairedSurrogate => "unpaired UTF-16 surrogate in \\u escape",
            Reason::ControlCharacter => {
                "control character in string must be escaped (as \\n, \\t or \\u00XX)"
            }
        }
    }
}

/// Why and where parsing failed.
///
/// `Display` gives one lowercase line saying what was expected and where, for example
/// `expected ',' or '}' after object member at 3:17`. Positions are 1-based; the column counts
/// characters (Unicode scalar values, so a tab or an emoji is one column) from the start of the
/// line, lines end at `\n`, and [`offset`](Error::offset) is the 0-based byte offset. Messages
/// never quote the input, so they are safe to log and to hand to a model.
///
/// # Examples
///
/// ```
/// use httptool::json::{self, ErrorKind};
///
/// let err = json::parse("{\"city\": \"Zürich\",\n \"days\" 3}").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Syntax);
/// assert_eq!(err.to_string(), "expected ':' after object key at 2:9");
/// assert_eq!((err.line(), err.column(), err.offset()), (2, 9, 28)); // "ü" is 2 bytes
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
    /// Builds the error for `reason` at byte `offset` of `text` (the valid prefix of the input
    /// is enough: positions are computed from `text[..offset]`).
    pub(crate) fn new(reason: Reason, text: &str, offset: usize) -> Error {
        let offset = offset.min(text.len());
        let eof = offset == text.len() && reason.kind() != ErrorKind::Utf8;
        Error::at(reason, eof, text, offset)
    }

    /// Like [`Error::new`], for a problem found because the input ended early even though
    /// `offset` points before the end (a truncated literal such as `tru`).
    pub(crate) fn new_eof(reason: Reason, text: &str, offset: usize) -> Error {
        Error::at(reason, true, text, offset.min(text.len()))
    }

    fn at(reason: Reason, eof: bool, text: &str, offset: usize) -> Error {
        let (line, column) = line_column(text, offset, false);
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

    /// The 1-based line of the problem (lines end at `\n`).
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
        if self.eof && self.reason != Reason::UnclosedString {
            f.write_str("unexpected end of input; ")?;
        }
        f.write_str(self.reason.message())?;
        if self.reason == Reason::TooDeep {
            write!(f, " {} levels", self.limit)?;
        }
        write!(f, " at {}:{}", self.line, self.column)
    }
}

impl std::error::Error for Error {}

/// The 1-based line and column of byte `offset` in `text`, for the errors of every parser of
/// text (JSON, YAML). Lines end at `\n`, and at a lone `\r` too when `lone_cr_breaks` (YAML
/// 1.2 section 5.4); the column counts characters: every byte that does not continue a UTF-8
/// sequence.
pub(crate) fn line_column(text: &str, offset: usize, lone_cr_breaks: bool) -> (usize, usize) {
    let prefix = text.as_bytes().get(..offset).unwrap_or_default();
    let mut line = 1;
    let mut line_start = 0;
    for (i, &b) in prefix.iter().enumerate() {
        if b == b'\n' || (lone_cr_breaks && b == b'\r' && prefix.get(i + 1) != Some(&b'\n')) {
            line += 1;
            line_start = i + 1;
        }
    }
    let column = 1 + prefix
        .get(line_start..)
        .unwrap_or_default()
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count();
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::line_column;

    #[test]
    fn positions_count_lines_and_characters() {
        // (text, offset, lone CR breaks a line) => (line, column)
        let cases: [(&str, usize, bool, (usize, usize)); 6] = [
            ("", 0, false, (1, 1)),
            ("ab\ncd", 4, false, (2, 2)),
            ("é\nüx", 5, false, (2, 2)),
            ("a\r\nb", 3, true, (2, 1)),
            ("a\rb", 2, false, (1, 3)),
            ("a\rb", 2, true, (2, 1)),
        ];
        for (text, offset, lone_cr, want) in cases {
            assert_eq!(line_column(text, offset, lone_cr), want, "{:?}", text);
        }
    }
}
