//! JSON: the value type, a strict RFC 8259 parser and the writer.

mod error;
mod float_format;
mod float_parse;
mod macros;
mod map;
mod number;
mod parse;
mod pointer;
mod pow5;
mod value;
mod write;

pub use error::{Error, ErrorKind};
pub use map::{IntoIter, Iter, IterMut, Keys, Map, Values, ValuesMut};
pub use number::Number;
pub use parse::ParseOptions;
pub use value::Json;
pub use write::write_str;

/// The deepest nesting of arrays and objects [`parse`] accepts. Defaults to 128; change it
/// with [`ParseOptions::max_depth`].
pub const DEFAULT_MAX_DEPTH: usize = 128;

/// Parses `text` as one JSON value with the default [`ParseOptions`].
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
/// let v = httptool::json::parse(r#"{"city": "Hangzhou", "days": 3}"#).unwrap();
/// assert_eq!(v["days"].as_i64(), Some(3));
///
/// let err = httptool::json::parse("{\"a\": 1 \"b\": 2}").unwrap_err();
/// assert_eq!(err.to_string(), "expected ',' or '}' after object member at 1:9");
/// ```
pub fn parse(text: &str) -> Result<Json, Error> {
    ParseOptions::new().parse(text)
}

/// Parses UTF-8 bytes as one JSON value with the default [`ParseOptions`].
///
/// # Errors
///
/// An [`Error`] at the first problem; invalid UTF-8 and a byte order mark are errors. See
/// [`ParseOptions::parse_bytes`].
///
/// # Security
///
/// Safe on untrusted input; see [`ParseOptions::parse`].
pub fn parse_bytes(bytes: &[u8]) -> Result<Json, Error> {
    ParseOptions::new().parse_bytes(bytes)
}
