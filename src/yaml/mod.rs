//! YAML 1.2 documents into [`Json`]: OpenAPI documents and plugin files written in YAML.
//!
//! ```
//! use httptool::yaml;
//!
//! let doc = yaml::parse("
//! openapi: 3.0.0
//! info: {title: Petstore, version: '1.0'}
//! paths:
//!   /pets:
//!     get:
//!       responses:
//!         200:
//!           description: A list of pets
//! ")?;
//! assert_eq!(doc["info"]["version"].as_str(), Some("1.0"));
//! let ok = &doc["paths"]["/pets"]["get"]["responses"]["200"];
//! assert_eq!(ok["description"].as_str(), Some("A list of pets"));
//! # Ok::<(), yaml::Error>(())
//! ```
//!
//! # What it reads
//!
//! One YAML 1.2.2 document (or the first of several, or all of them, see [`ParseOptions`]):
//! block and flow mappings and sequences; every scalar style (plain, also over several lines;
//! single- and double-quoted with every escape of section 5.7, `\x`, `\u`, `\U`, `\N`, `\_`,
//! `\L`, `\P` included, and line folding; literal `|` and folded `>` with chomping `+`/`-` and
//! an indentation indicator); comments; explicit `?` keys whose key is a scalar; `---` and
//! `...`; the `%YAML` and `%TAG` directives; anchors and aliases; and the merge key `<<`
//! (a mapping, or a sequence of mappings; the mapping's own keys win over merged ones, and
//! earlier merged mappings over later ones). A UTF-8 byte order mark may start the text.
//!
//! Tags: `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`, `!!map` and `!!seq` (the core
//! schema's, also written `!<tag:yaml.org,2002:str>` or through a `%TAG` handle) are
//! honoured: `!!str 12` is the string `"12"`, and a value that does not fit its tag
//! (`!!int abc`) is an error ([`ErrorKind::Value`]). The non-specific tag `!` makes a plain
//! scalar a string. Any other tag (`!custom`, `!!binary`, `!!timestamp`) is read as if it
//! were absent, unless [`ParseOptions::strict_tags`] asks for an error.
//!
//! # Scalars: the YAML 1.2 core schema
//!
//! Quoted and block scalars are strings. A plain scalar with no tag resolves by the core
//! schema (section 10.3.2), not by YAML 1.1's rules: `yes`, `no`, `on` and `off` are strings,
//! and `0755` is the decimal 755.
//!
//! | plain scalar | value |
//! | --- | --- |
//! | empty, `~`, `null`, `Null`, `NULL` | `null` |
//! | `true`, `True`, `TRUE`, `false`, `False`, `FALSE` | a boolean |
//! | `[-+]?[0-9]+` (`42`, `-7`, `+3`, `0755`) | an integer, leading zeros dropped |
//! | `0o[0-7]+`, `0x[0-9a-fA-F]+` (`0o17`, `0x1F`) | an integer (up to `u64::MAX`; larger is an error) |
//! | `[-+]?(\.[0-9]+\|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` (`1.5`, `1e3`, `.5`, `1.`) | a number |
//! | `[-+]?(\.inf\|\.Inf\|\.INF)`, `\.nan\|\.NaN\|\.NAN` | an error ([`ErrorKind::Value`]): JSON has no infinity or NaN; quote it to get a string |
//! | anything else | a string |
//!
//! Numbers follow the JSON module's rules ([`Number`](crate::json::Number)): integers beyond
//! `i64`/`u64` and numbers beyond `f64`'s range are kept exactly as written, other numbers
//! become the nearest double, written back in its shortest form.
//!
//! **Keys** that are not strings are written as the JSON text of their value: `200:` is the
//! key `"200"`, `true:` is `"true"`, `~:` (or an empty key) is `"null"`, `1.50:` is `"1.5"`.
//! A mapping or a sequence used as a key becomes its compact JSON text. A key
//! that appears twice in one mapping, after that conversion (`1:` and `"1":`), is an error
//! ([`ErrorKind::DuplicateKey`]); keys brought in by a merge never are.
//!
//! # Limits and untrusted input
//!
//! - Nesting deeper than [`DEFAULT_MAX_DEPTH`] (128) sequences and mappings is an error
//!   ([`ErrorKind::Depth`]). Nothing recurses on the nesting: the scanner, the parser and
//!   the tree builder keep explicit stacks, so 100,000 `[` are safe on a small thread stack.
//! - Aliases are copies, and a "billion laughs" document (each anchor aliasing the one
//!   before it ten times) would copy exponentially many nodes: anchors and aliases together
//!   may copy at most [`DEFAULT_MAX_ALIAS_NODES`] nodes (each 64 bytes of string counting as
//!   one more), then it is an error ([`ErrorKind::AliasLimit`]), found after copying at
//!   most that much. An anchor is copied only when its name follows a `*` somewhere in the
//!   text, so anchors nested in anchors that no alias names copy nothing.
//! - Merge keys (`<<`) and `%TAG` directives take linear time: a repeated key is found
//!   through the hash set, a tag handle through a map, and a `%TAG` prefix is not copied
//!   into the tags that name it unless the tag could be a core one.
//! - A key that is a sequence or a mapping is copied too, as its JSON text, and a key
//!   inside such a key is escaped again at each level: nested 30 deep, a kilobyte of
//!   input would ask for gigabytes. That text counts against the same budget, measured
//!   before it is written.
//! - Time is linear in the input: long plain scalars, many keys (large mappings check
//!   duplicates through a keyed hash set), many aliases. Memory is about twice the text for
//!   typical documents. There is no limit on the input size: bound it before parsing.
//! - Nothing panics on any input. Errors ([`Error`]) say what was expected and where
//!   (`expected a mapping value after key at 12:5`) and never quote the input.
//!
//! # The YAML test suite
//!
//! `tests/yaml_conformance.rs` runs the official YAML test suite (data release 2022-01-17,
//! 402 cases): every one of the 308 cases that must load does (and gives its `in.json`
//! where it has one, and the same value from its `out.yaml`), every one of the 94 cases
//! marked as an error is refused, and none panics or needs a deep stack, except these two,
//! which the test lists so the list cannot grow unseen:
//!
//! | case | why it is refused |
//! | --- | --- |
//! | `2JQS` (two `:` lines with empty keys) | both keys are `"null"`: a duplicate key |
//! | `X38W` (`{ &a [a, &b b]: *b, *a : [c, *b, d]}`) | `*a` is the key `["a","b"]` again: a duplicate key |
//!
//! Sequences and mappings used as keys are read: the key is their compact JSON text
//! (`[a, b]: x` gives the key `["a","b"]`).

mod compose;
mod error;
mod parser;
mod resolve;
mod scanner;

pub use error::{Error, ErrorKind};

use crate::json::Json;
use error::Reason;

/// The deepest nesting of sequences and mappings [`parse`] accepts. Defaults to 128, like
/// JSON's ([`json::DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH)); change it with
/// [`ParseOptions::max_depth`].
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// How many nodes anchors and aliases may copy in one document. Defaults to 1,000,000 (each
/// 64 bytes of string counts as one more node, so about 64 MB of copied text at most);
/// change it with [`ParseOptions::max_alias_nodes`].
pub const DEFAULT_MAX_ALIAS_NODES: usize = 1_000_000;

/// How to read: limits, which documents, and what to do with tags outside the core schema.
///
/// # Examples
///
/// ```
/// use httptool::yaml::{ErrorKind, ParseOptions};
///
/// let stream = "--- {a: 1}\n--- {b: 2}\n";
/// assert_eq!(httptool::yaml::parse(stream).unwrap_err().kind(), ErrorKind::Documents);
/// let first = ParseOptions::new().first_document_only(true).parse(stream)?;
/// assert_eq!(first["a"].as_i64(), Some(1));
/// assert_eq!(ParseOptions::new().parse_all(stream)?.len(), 2);
///
/// let strict = ParseOptions::new().strict_tags(true);
/// assert_eq!(strict.parse("!color red").unwrap_err().kind(), ErrorKind::Unsupported);
/// assert_eq!(httptool::yaml::parse("!color red")?.as_str(), Some("red"));
/// # Ok::<(), httptool::yaml::Error>(())
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct ParseOptions {
    max_depth: usize,
    max_alias_nodes: usize,
    first_document_only: bool,
    strict_tags: bool,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            max_alias_nodes: DEFAULT_MAX_ALIAS_NODES,
            first_document_only: false,
            strict_tags: false,
        }
    }
}

impl ParseOptions {
    /// The defaults: [`DEFAULT_MAX_DEPTH`], [`DEFAULT_MAX_ALIAS_NODES`], one document, other
    /// tags read as if absent.
    pub fn new() -> ParseOptions {
        ParseOptions::default()
    }

    /// The deepest nesting of sequences and mappings: `[[1]]` has depth 2 and a scalar
    /// depth 0. Deeper input fails with [`ErrorKind::Depth`]. Defaults to
    /// [`DEFAULT_MAX_DEPTH`] (128).
    pub fn max_depth(mut self, depth: usize) -> ParseOptions {
        self.max_depth = depth;
        self
    }

    /// How many nodes anchors and aliases may copy in one document (a scalar is one node,
    /// plus one for each 64 bytes of its text; a collection is one plus its contents). A key
    /// that is a sequence or a mapping becomes its JSON text, a copy too: one node, plus one
    /// for each 64 bytes of that text. More fails with [`ErrorKind::AliasLimit`]. Defaults
    /// to [`DEFAULT_MAX_ALIAS_NODES`].
    pub fn max_alias_nodes(mut self, nodes: usize) -> ParseOptions {
        self.max_alias_nodes = nodes;
        self
    }

    /// Whether a stream of several documents gives its first one (the rest is not read, so
    /// errors after it are not seen). Defaults to `false`: a second document is an error
    /// ([`ErrorKind::Documents`]). [`parse_all`](ParseOptions::parse_all) reads them all.
    pub fn first_document_only(mut self, yes: bool) -> ParseOptions {
        self.first_document_only = yes;
        self
    }

    /// Whether a tag outside the core schema (`!custom`, `!!binary`) is an error
    /// ([`ErrorKind::Unsupported`]). Defaults to `false`: the value is read as if the tag
    /// were absent.
    pub fn strict_tags(mut self, yes: bool) -> ParseOptions {
        self.strict_tags = yes;
        self
    }

    /// Reads `text` as one YAML document. A stream with no document (empty, or comments
    /// only) is `null`.
    ///
    /// # Errors
    ///
    /// An [`Error`] at the first problem: anything YAML 1.2 does not allow, a control
    /// character, what the [module docs](self) list as outside this reader, a second
    /// document unless [`first_document_only`](ParseOptions::first_document_only), and the
    /// limits.
    ///
    /// # Security
    ///
    /// Safe on untrusted input: it never panics, never recurses on nesting, bounds what
    /// aliases copy, and takes linear time. Memory is proportional to the input; limit the
    /// input size before parsing.
    pub fn parse(&self, text: &str) -> Result<Json, Error> {
        check_characters(text)?;
        let composer = compose::Composer::new(text, self.limits());
        let docs = composer.documents(self.first_document_only, !self.first_document_only)?;
        Ok(docs.into_iter().next().unwrap_or(Json::Null))
    }

    /// Reads every document of the stream, in order (none for an empty stream).
    ///
    /// # Errors
    ///
    /// As [`parse`](ParseOptions::parse), for any of the documents; the limits apply to
    /// each document.
    ///
    /// # Security
    ///
    /// As [`parse`](ParseOptions::parse).
    pub fn parse_all(&self, text: &str) -> Result<Vec<Json>, Error> {
        check_characters(text)?;
        compose::Composer::new(text, self.limits()).documents(false, false)
    }

    /// Reads UTF-8 bytes (an optional byte order mark first) as [`parse`](ParseOptions::parse)
    /// does.
    ///
    /// # Errors
    ///
    /// As [`parse`](ParseOptions::parse), and [`ErrorKind::Encoding`] for bytes that are not
    /// UTF-8: UTF-16 and UTF-32 (found by their byte order mark or by the NUL bytes an ASCII
    /// first character leaves, YAML 1.2.2 section 5.2) get a message naming them.
    pub fn parse_bytes(&self, bytes: &[u8]) -> Result<Json, Error> {
        self.parse(decode(bytes)?)
    }

    fn limits(&self) -> compose::Limits {
        compose::Limits {
            max_depth: self.max_depth,
            max_alias_nodes: self.max_alias_nodes,
            strict_tags: self.strict_tags,
        }
    }
}

/// Reads `text` as one YAML document with the default [`ParseOptions`].
///
/// # Errors
///
/// An [`Error`] at the first problem; see [`ParseOptions::parse`].
///
/// # Security
///
/// Safe on untrusted input; see [`ParseOptions::parse`].
///
/// # Examples
///
/// ```
/// let v = httptool::yaml::parse("city: Hangzhou\ndays: 3\ntags: [a, 'b']\n").unwrap();
/// assert_eq!(v.to_string(), r#"{"city":"Hangzhou","days":3,"tags":["a","b"]}"#);
///
/// let err = httptool::yaml::parse("city: Hangzhou\ndays 3\n").unwrap_err();
/// assert_eq!(err.to_string(), "expected a mapping value after key at 2:1");
/// ```
pub fn parse(text: &str) -> Result<Json, Error> {
    ParseOptions::new().parse(text)
}

/// Reads UTF-8 bytes (an optional byte order mark first) as one YAML document with the
/// default [`ParseOptions`].
///
/// # Errors
///
/// See [`ParseOptions::parse_bytes`].
///
/// # Security
///
/// Safe on untrusted input; see [`ParseOptions::parse`].
///
/// # Examples
///
/// ```
/// use httptool::yaml::{self, ErrorKind};
///
/// assert_eq!(yaml::parse_bytes(b"\xEF\xBB\xBFa: 1\n").unwrap()["a"].as_i64(), Some(1));
/// let err = yaml::parse_bytes(b"\xFF\xFEa\x00:\x00").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Encoding);
/// assert_eq!(err.to_string(), "the text is UTF-16; only UTF-8 is read at 1:1");
/// ```
pub fn parse_bytes(bytes: &[u8]) -> Result<Json, Error> {
    ParseOptions::new().parse_bytes(bytes)
}

/// The UTF-8 text of `bytes`, or the encoding error (section 5.2's detection table).
fn decode(bytes: &[u8]) -> Result<&str, Error> {
    let reason = match bytes {
        [0, 0, 0xFE, 0xFF, ..] | [0xFF, 0xFE, 0, 0, ..] => Some(Reason::Utf32),
        [0, 0, 0, _, ..] | [_, 0, 0, 0, ..] => Some(Reason::Utf32),
        [0xFE, 0xFF, ..] | [0xFF, 0xFE, ..] => Some(Reason::Utf16),
        [0, _, ..] | [_, 0, ..] => Some(Reason::Utf16),
        _ => None,
    };
    if let Some(reason) = reason {
        return Err(Error::new(reason, "", 0));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = bytes.get(..e.valid_up_to()).unwrap_or_default();
        let prefix = std::str::from_utf8(valid).unwrap_or_default();
        Error::new(Reason::InvalidUtf8, prefix, prefix.len())
    })
}

/// Section 5.1: C0 control characters other than tab and the line breaks are not allowed
/// anywhere, not even escaped-free inside quotes.
fn check_characters(text: &str) -> Result<(), Error> {
    match text
        .bytes()
        .position(|b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r'))
    {
        Some(at) => Err(Error::new(Reason::NonPrintable, text, at)),
        None => Ok(()),
    }
}
