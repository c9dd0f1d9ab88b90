//! JSON (RFC 8259): the [`Json`] value, a strict parser and the writer.
//!
//! ```
//! use httptool::json::{self, Json};
//!
//! // Parse (strict RFC 8259), read with indexing, `get`, pointers and `as_*`.
//! let v = json::parse(r#"{"city": "Hangzhou", "days": [1, 2], "id": 12345678901234567890123}"#)?;
//! assert_eq!(v["city"].as_str(), Some("Hangzhou"));
//! assert_eq!(v.pointer("/days/1").and_then(Json::as_i64), Some(2));
//! assert!(v["missing"][0].is_null()); // indexing never panics
//!
//! // Build with `json!` and `From`, write compact (`Display`) or pretty.
//! let reply = httptool::json!({"ok": true, "echo": v["id"].clone(), "tags": ["a", 1.5]});
//! assert_eq!(reply.to_string(), r#"{"ok":true,"echo":12345678901234567890123,"tags":["a",1.5]}"#);
//! assert_eq!(json::parse(&reply.to_pretty())?, reply);
//! # Ok::<(), json::Error>(())
//! ```
//!
//! # The model
//!
//! - **Values.** [`Json`] has six variants: `Null`, `Bool`, `Number`, `String`, `Array` and
//!   `Object`. It is 32 bytes or less on 64-bit targets (strings, arrays and objects live on
//!   the heap).
//! - **Objects** ([`Map`]) keep their members in insertion order, and the writer keeps that
//!   order, so a document is written back as it was read. Equality ignores the order
//!   (`{"a":1,"b":2}` equals `{"b":2,"a":1}`).
//! - **Duplicate keys** (RFC 8259 section 4 leaves them to the implementation): by default the
//!   last value wins, at the position of the first occurrence, so `{"a":1,"b":2,"a":3}`
//!   reads as `{"a":3,"b":2}`. [`ParseOptions::reject_duplicate_keys`] makes them an error
//!   instead ([`ErrorKind::DuplicateKey`]), which is what tool arguments from a model want.
//! - **Numbers** ([`Number`]) round-trip: integers that fit `i64` or `u64` exactly, other
//!   numbers as the nearest `f64`, written back in its shortest form (`2.50` becomes `2.5`,
//!   `1E6` becomes `1000000.0`), and numbers beyond both ranges (`12345678901234567890123`,
//!   `1e400`, `1e-400`) kept exactly as written. `-0` reads as the double `-0.0` (written
//!   `-0.0`). NaN and the infinities cannot be written in JSON; `Json::from(f64::NAN)` is
//!   `null`.
//! - **Strings** hold Unicode scalar values. `\u` escapes are decoded, a UTF-16 surrogate pair
//!   written as two escapes becomes one character, and a lone surrogate (`"\uD800"`) is an
//!   error ([`ErrorKind::Escape`]), since a Rust `String` cannot hold it. Nothing is
//!   normalized: `"é"` and `"e\u0301"` are different keys.
//!
//! # Limits and untrusted input
//!
//! - Nesting deeper than [`DEFAULT_MAX_DEPTH`] (128) arrays and objects is an error
//!   ([`ErrorKind::Depth`]); [`ParseOptions::max_depth`] changes it. Nothing recurses on the
//!   nesting: parsing, writing (compact and pretty), `==`, `clone` and `drop` use explicit
//!   stacks on the heap, so a value 100,000 levels deep is safe on a small thread stack.
//! - Parsing takes time linear in the input, duplicate-key detection included (small objects
//!   use a Bloom filter, large ones a keyed SipHash index), and memory about proportional to
//!   it. There is no limit on the input size: bound it before parsing (a response body cap,
//!   the tool argument limit).
//! - Nothing panics on any input. Errors ([`Error`]) say what was expected and where
//!   (`expected ',' or '}' after object member at 3:17`: 1-based line and column, the column
//!   counting characters) and never quote the input, so they are safe to log or to hand to a
//!   model.
//!
//! # Writing
//!
//! - Compact (`to_string()`, `Display`, [`Json::write_to`]): no whitespace at all.
//!   Pretty ([`Json::to_pretty`]): two-space indent, one element or member a line,
//!   `"key": value`, `[]` and `{}` for empty containers. Pretty output of a value nested
//!   `n` levels deep holds about `n²` bytes of indentation. [`Json::write_pretty_io`] writes
//!   to any `io::Write` in chunks, [`Json::write_pretty_io_threaded`] (with the `cli`
//!   feature) formats a large document's endpoints on several threads, with the same bytes.
//! - Strings ([`write_str`]): `"` and `\` are escaped; so are the control characters U+0000 to
//!   U+001F, as `\b \f \n \r \t` where RFC 8259 has a short form and `\u00XX` (lowercase hex)
//!   otherwise; U+2028 and U+2029 become `\u2028` and `\u2029`, so the output can be pasted
//!   into JavaScript source. `/` and DEL (U+007F) are not escaped, and every other
//!   character is written as UTF-8, unescaped.
//! - Numbers as [`Number`] describes; whatever the writer produces parses back to an equal
//!   value.
//!
//! # Literals: `httptool::json!`
//!
//! The `json!` macro (exported at the crate root) builds a [`Json`] from a JSON-like literal:
//! `null`, `true`, numbers, strings, `[...]` and `{...}` nest as in JSON, any expression that
//! implements `Into<Json>` can stand for a value and any `Into<String>` expression for a key,
//! and trailing commas are allowed. Keys keep the order written; a repeated key keeps its
//! first position and its last value.
//!
//! ```
//! use httptool::json;
//!
//! let city = "Hangzhou";
//! let key = String::from("days");
//! let v = json!({"city": city, key: 3, "tags": ["a", 1.5, null, [], {}], "ok": city.len() > 3});
//! assert_eq!(v.to_string(), r#"{"city":"Hangzhou","days":3,"tags":["a",1.5,null,[],{}],"ok":true}"#);
//! ```
//!
//! # What the parser does where RFC 8259 lets it choose
//!
//! The `i_` files of JSONTestSuite test the inputs a parser may accept or refuse. Here is what
//! this one does, by kind of input (`tests/json_conformance.rs` checks each of the 35 files
//! against a per-file version of this table, and the example below runs one input of each
//! row):
//!
//! | input | files | result |
//! | --- | --- | --- |
//! | integers beyond `i64`/`u64` (`100000000000000000000`, `-123123123123123123123123123123`) | 3 | accepted, kept exactly as written |
//! | numbers beyond `f64`'s range (`1.5e+9999`, `-123123e100000`, `123e-10000000`, `123.456e-789`, `0.4e00669999...`) | 7 | accepted, kept exactly as written (`as_f64` is `None` for overflow, `0.0` for underflow) |
//! | a lone or unpaired UTF-16 surrogate in a `\u` escape (`"\uD800"`, `"\uDd1e\uD834"`) | 10 | refused, [`ErrorKind::Escape`] |
//! | invalid UTF-8 in [`parse_bytes`] (Latin-1, overlong forms, encoded surrogates, truncated sequences, beyond U+10FFFF) | 10 | refused, [`ErrorKind::Utf8`] |
//! | UTF-16 text, with or without a byte order mark | 3 | refused, [`ErrorKind::Utf8`] (JSON between systems is UTF-8, RFC 8259 section 8.1) |
//! | a UTF-8 byte order mark before the value | 1 | refused, [`ErrorKind::Syntax`] (section 8.1: "MUST NOT add a byte order mark") |
//! | 500 nested arrays | 1 | refused by default ([`ErrorKind::Depth`]); accepted with `max_depth(500)` or more |
//!
//! ```
//! use httptool::json::{self, ErrorKind, ParseOptions};
//!
//! assert_eq!(json::parse("[-123123123123123123123123123123]")?.to_string(), "[-123123123123123123123123123123]");
//! assert_eq!(json::parse("[123.456e-789]")?[0].as_f64(), Some(0.0));
//! assert_eq!(json::parse(r#"["\uD800"]"#).unwrap_err().kind(), ErrorKind::Escape);
//! assert_eq!(json::parse_bytes(b"[\"\xE9\"]").unwrap_err().kind(), ErrorKind::Utf8);
//! assert_eq!(json::parse_bytes(b"\xEF\xBB\xBF{}").unwrap_err().kind(), ErrorKind::Syntax);
//! let deep = "[".repeat(500) + &"]".repeat(500);
//! assert_eq!(json::parse(&deep).unwrap_err().kind(), ErrorKind::Depth);
//! assert!(ParseOptions::new().max_depth(500).parse(&deep).is_ok());
//! # Ok::<(), json::Error>(())
//! ```

mod error;
mod float_format;
mod float_parse;
mod macros;
mod map;
mod number;
mod parse;
mod pointer;
mod pow5;
mod scan;
mod value;
mod write;
// Only the command line writes on threads; the small builds leave it out (build cost,
// design::performance).
#[cfg(feature = "cli")]
mod write_threads;

pub(crate) use error::line_column;
pub use error::{Error, ErrorKind};
#[cfg(feature = "yaml")]
pub(crate) use map::KeyFinder;
pub use map::{IntoIter, Iter, IterMut, Keys, Map, Values, ValuesMut};
pub use number::Number;
pub use parse::ParseOptions;
pub use value::Json;
pub use write::write_str;

/// The deepest nesting of arrays and objects [`parse`](fn@parse) accepts. Defaults to 128; change it
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
