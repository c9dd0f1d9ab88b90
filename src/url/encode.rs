//! Percent-encoding and decoding (RFC 3986 section 2.1, WHATWG URL "percent-encoded bytes"
//! and "application/x-www-form-urlencoded").
//!
//! Pure functions over strings: no allocation beyond the returned value.

use super::error::{Error, ErrorKind};

/// Which characters [`percent_encode`] leaves as they are.
///
/// `#[non_exhaustive]`: sets will be added as more URL components and body formats are encoded
/// here, one encoder for every layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeSet {
    /// One path segment: everything but the RFC 3986 unreserved characters
    /// (`A-Z a-z 0-9 - . _ ~`) is encoded, so `a/b` becomes `a%2Fb` and a value cannot add
    /// segments to a path.
    PathSegment,
    /// A query name or value: everything but the unreserved characters is encoded, a space
    /// as `%20`, so `&`, `=`, `+` and `#` in a value cannot split or end it.
    QueryComponent,
    /// A name or value of an `application/x-www-form-urlencoded` body (WHATWG URL, section 5.2):
    /// everything but `A-Z a-z 0-9 * - . _` is encoded, a space as `+`.
    FormComponent,
}

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// RFC 3986 section 2.3: `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`.
pub(crate) fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn keeps(set: EncodeSet, b: u8) -> bool {
    match set {
        EncodeSet::PathSegment | EncodeSet::QueryComponent => is_unreserved(b),
        EncodeSet::FormComponent => {
            b.is_ascii_alphanumeric() || matches!(b, b'*' | b'-' | b'.' | b'_')
        }
    }
}

/// Appends `%XX` (upper-case hex, as RFC 3986 section 2.1 recommends) for one byte.
pub(crate) fn push_escaped(out: &mut String, b: u8) {
    out.push('%');
    out.push(char::from(HEX_UPPER[usize::from(b >> 4)]));
    out.push(char::from(HEX_UPPER[usize::from(b & 0x0f)]));
}

/// Percent-encodes `input` (as UTF-8) with `set`, appending to `out`.
///
/// # Examples
///
/// ```
/// use httptool::url::{percent_encode_into, EncodeSet};
/// let mut s = String::from("/users/");
/// percent_encode_into(&mut s, "a/b c", EncodeSet::PathSegment);
/// assert_eq!(s, "/users/a%2Fb%20c");
/// ```
pub fn percent_encode_into(out: &mut String, input: &str, set: EncodeSet) {
    out.reserve(input.len());
    for &b in input.as_bytes() {
        if keeps(set, b) {
            out.push(char::from(b));
        } else if b == b' ' && set == EncodeSet::FormComponent {
            out.push('+');
        } else {
            push_escaped(out, b);
        }
    }
}

/// Percent-encodes `input` (as UTF-8) with `set`.
///
/// # Examples
///
/// ```
/// use httptool::url::{percent_encode, EncodeSet};
/// assert_eq!(percent_encode("café & co", EncodeSet::QueryComponent), "caf%C3%A9%20%26%20co");
/// assert_eq!(percent_encode("café & co", EncodeSet::FormComponent), "caf%C3%A9+%26+co");
/// ```
pub fn percent_encode(input: &str, set: EncodeSet) -> String {
    let mut out = String::with_capacity(input.len());
    percent_encode_into(&mut out, input, set);
    out
}

/// Encodes one path segment: everything but the unreserved characters, so `a/b` becomes
/// `a%2Fb` ([path values](crate::design::endpoints#path-values)).
///
/// ```
/// assert_eq!(httptool::url::encode_path_segment("a/b?c"), "a%2Fb%3Fc");
/// ```
pub fn encode_path_segment(input: &str) -> String {
    percent_encode(input, EncodeSet::PathSegment)
}

/// Encodes a query name or value: everything but the unreserved characters, a space as `%20`
/// ([query strings](crate::design::endpoints#query-strings-and-forms)).
///
/// ```
/// assert_eq!(httptool::url::encode_query_component("a b&c=d"), "a%20b%26c%3Dd");
/// ```
pub fn encode_query_component(input: &str) -> String {
    percent_encode(input, EncodeSet::QueryComponent)
}

/// Encodes a name or value of an `application/x-www-form-urlencoded` body: a space as `+`.
///
/// ```
/// assert_eq!(httptool::url::encode_form_component("a b+c"), "a+b%2Bc");
/// ```
pub fn encode_form_component(input: &str) -> String {
    percent_encode(input, EncodeSet::FormComponent)
}

/// Serializes name/value pairs as an `application/x-www-form-urlencoded` body
/// (`name=value&name2=value2`, WHATWG URL section 5.2).
///
/// # Examples
///
/// ```
/// let body = httptool::url::form_urlencoded([("q", "rust http"), ("lang", "en&fr")]);
/// assert_eq!(body, "q=rust+http&lang=en%26fr");
/// ```
pub fn form_urlencoded<I, K, V>(pairs: I) -> String
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: AsRef<str>,
{
    let mut out = String::new();
    for (name, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        percent_encode_into(&mut out, name.as_ref(), EncodeSet::FormComponent);
        out.push('=');
        percent_encode_into(&mut out, value.as_ref(), EncodeSet::FormComponent);
    }
    out
}

pub(crate) fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The byte a `%XX` escape at `bytes[i]` stands for, if there is a valid one there.
pub(crate) fn escape_at(bytes: &[u8], i: usize) -> Option<u8> {
    if bytes.get(i) != Some(&b'%') {
        return None;
    }
    let hi = hex_value(*bytes.get(i + 1)?)?;
    let lo = hex_value(*bytes.get(i + 2)?)?;
    Some(hi << 4 | lo)
}

fn decode(input: &str, plus_is_space: bool) -> Vec<u8> {
    let bytes = input.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if let Some(decoded) = escape_at(bytes, i) {
            out.push(decoded);
            i += 3;
            continue;
        }
        out.push(if plus_is_space && b == b'+' { b' ' } else { b });
        i += 1;
    }
    out
}

/// Percent-decodes `input` into bytes. A `%` not followed by two hex digits is kept as it is
/// (WHATWG URL, "percent-decode"), so decoding never fails; `+` stays `+`.
///
/// # Security
///
/// Check the decoded form, not the encoded one, when looking for things like `..` segments:
/// `%2e%2e` decodes to `..`.
///
/// ```
/// assert_eq!(httptool::url::percent_decode("%2e%2E/a%2Fb%zz"), b"../a/b%zz");
/// ```
pub fn percent_decode(input: &str) -> Vec<u8> {
    decode(input, false)
}

/// Percent-decodes `input` and requires the result to be UTF-8.
///
/// # Errors
///
/// [`ErrorKind::InvalidUtf8`] when the decoded bytes are not UTF-8 (the offset is the first
/// byte of the decoded output that is not).
///
/// ```
/// assert_eq!(httptool::url::percent_decode_utf8("caf%C3%A9").unwrap(), "café");
/// assert!(httptool::url::percent_decode_utf8("%FF").is_err());
/// ```
pub fn percent_decode_utf8(input: &str) -> Result<String, Error> {
    String::from_utf8(decode(input, false))
        .map_err(|e| Error::new(ErrorKind::InvalidUtf8, e.utf8_error().valid_up_to()))
}

/// Decodes an `application/x-www-form-urlencoded` name or value: `+` is a space, then
/// percent-decoding as [`percent_decode`].
///
/// ```
/// assert_eq!(httptool::url::form_decode("a+b%2Bc"), b"a b+c");
/// ```
pub fn form_decode(input: &str) -> Vec<u8> {
    decode(input, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_segment_encodes_everything_but_unreserved() {
        let all: String = (0x20u8..0x7f).map(char::from).collect();
        let enc = encode_path_segment(&all);
        let kept: String = enc
            .split('%')
            .map(|p| if p.len() > 2 { &p[2..] } else { "" })
            .collect();
        assert_eq!(
            kept,
            "-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
        );
        assert_eq!(encode_path_segment("a/b"), "a%2Fb");
        assert_eq!(encode_path_segment(".."), "..");
    }

    #[test]
    fn query_component_encodes_space_as_percent_20() {
        assert_eq!(
            encode_query_component("a b+c&d=e#f"),
            "a%20b%2Bc%26d%3De%23f"
        );
    }

    #[test]
    fn form_component_keeps_star_and_encodes_tilde() {
        assert_eq!(encode_form_component("*~ "), "*%7E+");
    }

    #[test]
    fn non_ascii_is_encoded_as_utf8_bytes() {
        assert_eq!(encode_path_segment("é€"), "%C3%A9%E2%82%AC");
    }

    #[test]
    fn decode_keeps_invalid_escapes() {
        assert_eq!(percent_decode("%"), b"%");
        assert_eq!(percent_decode("%4"), b"%4");
        assert_eq!(percent_decode("%4g%41"), b"%4gA");
        assert_eq!(percent_decode("a+b"), b"a+b");
    }

    #[test]
    fn decode_utf8_reports_offset() {
        let err = percent_decode_utf8("ab%FF").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidUtf8);
        assert_eq!(err.offset(), 2);
    }

    #[test]
    fn round_trip_all_bytes() {
        let s: String = (1u32..0x250).filter_map(char::from_u32).collect();
        for set in [EncodeSet::PathSegment, EncodeSet::QueryComponent] {
            assert_eq!(percent_decode(&percent_encode(&s, set)), s.as_bytes());
        }
        assert_eq!(form_decode(&encode_form_component(&s)), s.as_bytes());
    }
}
