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

/// A named set of bytes an encoder writes as they are; every other byte becomes `%XX`
/// (upper-case hex, as RFC 3986 section 2.1 recommends). Each encoder in the crate (query,
/// path, form, cookie, multipart names, curl's own) is one of the sets below, so they share
/// one loop and differ only in what they keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ByteSet {
    /// Bit `b` set: the ASCII byte `b` is kept.
    ascii: u128,
    /// Bytes 0x80 and above (UTF-8 sequences, whole) are kept.
    non_ascii: bool,
    /// A space is written `+` (forms) rather than `%20`.
    space_as_plus: bool,
    /// A `%` that starts a valid `%XX` escape is kept, so text already encoded stays as it is.
    escapes: bool,
}

impl ByteSet {
    /// No byte kept.
    const NONE: ByteSet = ByteSet {
        ascii: 0,
        non_ascii: false,
        space_as_plus: false,
        escapes: false,
    };

    /// This set, keeping every byte of `bytes` (ASCII) as well.
    const fn and(mut self, bytes: &[u8]) -> ByteSet {
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] < 0x80 {
                self.ascii |= 1 << bytes[i];
            }
            i += 1;
        }
        self
    }

    /// This set, keeping the ASCII bytes `from..=to` as well.
    const fn and_range(mut self, from: u8, to: u8) -> ByteSet {
        let mut b = from;
        while b <= to && b < 0x80 {
            self.ascii |= 1 << b;
            b += 1;
        }
        self
    }

    /// This set, without the ASCII byte `b`.
    const fn without(mut self, b: u8) -> ByteSet {
        if b < 0x80 {
            self.ascii &= !(1 << b);
        }
        self
    }

    const fn and_alphanumeric(self) -> ByteSet {
        self.and_range(b'0', b'9')
            .and_range(b'A', b'Z')
            .and_range(b'a', b'z')
    }

    /// Whether the byte `b` is kept as it is (not counting a kept escape).
    pub(crate) fn keeps(&self, b: u8) -> bool {
        if b >= 0x80 {
            self.non_ascii
        } else {
            self.ascii & (1 << b) != 0
        }
    }
}

/// RFC 3986 section 2.3: `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`. One path
/// segment, a query name or value, and curl's `--url-query` (`curl_easy_escape`).
pub(crate) const UNRESERVED: ByteSet = ByteSet::NONE.and_alphanumeric().and(b"-._~");

/// The unreserved characters, a space as `+`: curl's `--data-urlencode`.
pub(crate) const UNRESERVED_SPACE_AS_PLUS: ByteSet = ByteSet {
    space_as_plus: true,
    ..UNRESERVED
};

/// WHATWG URL section 5.2, the `application/x-www-form-urlencoded` percent-encode set:
/// everything but `A-Z a-z 0-9 * - . _` is encoded, a space as `+`.
pub(crate) const FORM: ByteSet = ByteSet {
    space_as_plus: true,
    ..ByteSet::NONE.and_alphanumeric().and(b"*-._")
};

/// RFC 3986 section 3.3: `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"`, and
/// `/`: a whole path, valid escapes kept.
pub(crate) const PATH: ByteSet = ByteSet {
    escapes: true,
    ..UNRESERVED.and(b"!$&'()*+,;=:@/")
};

/// RFC 3986 section 3.4: `query = *( pchar / "/" / "?" )`, valid escapes kept.
pub(crate) const QUERY: ByteSet = PATH.and(b"?");

/// RFC 6265 section 4.1.1 `cookie-octet` (no controls, space, `"`, `,`, `;`, `\` or
/// non-ASCII), without `%` itself, so a server that percent-decodes reads the value back.
pub(crate) const COOKIE_VALUE: ByteSet = ByteSet::NONE
    .and(b"!")
    .and_range(0x23, 0x2b)
    .and_range(0x2d, 0x3a)
    .and_range(0x3c, 0x5b)
    .and_range(0x5d, 0x7e)
    .without(b'%');

/// A name or file name between quotes in a multipart part header, as browsers write it
/// (WHATWG HTML, "multipart/form-data encoding algorithm": `"` as `%22`, CR as `%0D`, LF as
/// `%0A`), and beyond what browsers do every other control character but tab, NUL above all,
/// since a part header is a header field (RFC 7578 section 4.2, RFC 9110 section 5.5).
/// Non-ASCII text is kept.
pub(crate) const QUOTED_NAME: ByteSet = ByteSet {
    non_ascii: true,
    ..ByteSet::NONE.and(b"\t").and_range(0x20, 0x7e).without(b'"')
};

/// What the one encoding loop writes next.
enum Piece {
    /// `input[from..to]`, kept as it is.
    Kept(usize, usize),
    /// A space as `+`.
    Plus,
    /// One byte as `%XX`.
    Escaped(u8),
}

/// The encoding loop every encoder shares: runs of kept bytes, then one piece for each
/// other byte. A run ends only at an ASCII byte or the end, so for UTF-8 input it ends on a
/// character boundary.
fn pieces(input: &[u8], set: &ByteSet, mut emit: impl FnMut(Piece)) {
    let mut run = 0;
    for (i, &b) in input.iter().enumerate() {
        let kept = set.keeps(b) || (set.escapes && b == b'%' && escape_at(input, i).is_some());
        if kept {
            continue;
        }
        if run < i {
            emit(Piece::Kept(run, i));
        }
        run = i + 1;
        emit(if b == b' ' && set.space_as_plus {
            Piece::Plus
        } else {
            Piece::Escaped(b)
        });
    }
    if run < input.len() {
        emit(Piece::Kept(run, input.len()));
    }
}

/// Appends `input` to `out`, every byte `set` does not keep percent-encoded.
pub(crate) fn encode_str_into(out: &mut String, input: &str, set: &ByteSet) {
    out.reserve(input.len());
    pieces(input.as_bytes(), set, |piece| match piece {
        // Runs end on character boundaries (see `pieces`), so `get` always finds them.
        Piece::Kept(from, to) => out.push_str(input.get(from..to).unwrap_or("")),
        Piece::Plus => out.push('+'),
        Piece::Escaped(b) => push_escaped(out, b),
    });
}

/// Appends `input` (any bytes, UTF-8 or not) to `out`, every byte `set` does not keep
/// percent-encoded.
pub(crate) fn encode_bytes_into(out: &mut Vec<u8>, input: &[u8], set: &ByteSet) {
    out.reserve(input.len());
    pieces(input, set, |piece| match piece {
        Piece::Kept(from, to) => out.extend_from_slice(input.get(from..to).unwrap_or(&[])),
        Piece::Plus => out.push(b'+'),
        Piece::Escaped(b) => out.extend_from_slice(&[
            b'%',
            HEX_UPPER[usize::from(b >> 4)],
            HEX_UPPER[usize::from(b & 0x0f)],
        ]),
    });
}

impl EncodeSet {
    fn bytes(self) -> &'static ByteSet {
        match self {
            EncodeSet::PathSegment | EncodeSet::QueryComponent => &UNRESERVED,
            EncodeSet::FormComponent => &FORM,
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
    encode_str_into(out, input, set.bytes());
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
        push_form_pair(&mut out, name.as_ref(), value.as_ref());
    }
    out
}

/// Appends one `name=value` pair to an `application/x-www-form-urlencoded` body being
/// written, after a `&` unless it is the first: the serializer of [`form_urlencoded`], for
/// callers that produce pairs one at a time.
pub(crate) fn push_form_pair(out: &mut String, name: &str, value: &str) {
    if !out.is_empty() {
        out.push('&');
    }
    encode_str_into(out, name, &FORM);
    out.push('=');
    encode_str_into(out, value, &FORM);
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

    /// Every ASCII byte `set` keeps, in order.
    fn kept(set: &ByteSet) -> String {
        (0u8..0x80)
            .filter(|&b| set.keeps(b))
            .map(char::from)
            .collect()
    }

    const ALNUM: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    #[test]
    fn named_sets_keep_exactly_their_bytes() {
        let sorted = |extra: &str| {
            let mut all: Vec<char> = ALNUM.chars().chain(extra.chars()).collect();
            all.sort_unstable();
            all.into_iter().collect::<String>()
        };
        assert_eq!(kept(&UNRESERVED), sorted("-._~"));
        assert_eq!(kept(&UNRESERVED_SPACE_AS_PLUS), sorted("-._~"));
        assert_eq!(kept(&FORM), sorted("*-._"));
        assert_eq!(kept(&PATH), sorted("-._~!$&'()*+,;=:@/"));
        assert_eq!(kept(&QUERY), sorted("-._~!$&'()*+,;=:@/?"));
        let cookie: String = (0x21u8..0x7f)
            .filter(|b| !b"\",;\\%".contains(b))
            .map(char::from)
            .collect();
        assert_eq!(kept(&COOKIE_VALUE), cookie);
        let quoted: String = std::iter::once('\t')
            .chain((0x20u8..0x7f).filter(|&b| b != b'"').map(char::from))
            .collect();
        assert_eq!(kept(&QUOTED_NAME), quoted);
        for set in [UNRESERVED, FORM, PATH, QUERY, COOKIE_VALUE] {
            assert!(!set.keeps(0x80) && !set.keeps(0xff));
        }
        assert!(QUOTED_NAME.keeps(0x80) && QUOTED_NAME.keeps(0xff));
    }

    #[test]
    fn one_loop_for_every_set() {
        let encode = |input: &str, set: &ByteSet| {
            let mut out = String::new();
            encode_str_into(&mut out, input, set);
            out
        };
        assert_eq!(encode("a b~*", &UNRESERVED), "a%20b~%2A");
        assert_eq!(encode("a b~*", &UNRESERVED_SPACE_AS_PLUS), "a+b~%2A");
        assert_eq!(encode("a b~*", &FORM), "a+b%7E*");
        // Valid escapes are kept by the path and query sets, a stray `%` is encoded.
        assert_eq!(encode("/a b/%2F/%zz/é", &PATH), "/a%20b/%2F/%25zz/%C3%A9");
        assert_eq!(encode("?x=1%", &QUERY), "?x=1%25");
        assert_eq!(
            encode("a b;c,\"d\\%é=", &COOKIE_VALUE),
            "a%20b%3Bc%2C%22d%5C%25%C3%A9="
        );
        assert_eq!(
            encode("é \"\r\n\t\0\x7f", &QUOTED_NAME),
            "é %22%0D%0A\t%00%7F"
        );
        assert_eq!(encode("", &UNRESERVED), "");
        let mut bytes = Vec::new();
        encode_bytes_into(&mut bytes, b"a\xff b", &UNRESERVED_SPACE_AS_PLUS);
        assert_eq!(bytes, b"a%FF+b");
        let mut bytes = Vec::new();
        encode_bytes_into(&mut bytes, b"\xc3\xa9\xff\"", &QUOTED_NAME);
        assert_eq!(bytes, b"\xc3\xa9\xff%22");
    }

    #[test]
    fn pairs_one_at_a_time_serialize_as_the_whole_form() {
        let pairs = [("q", "rust http"), ("a&b", "=~*"), ("", "")];
        let mut one_by_one = String::new();
        for (name, value) in pairs {
            push_form_pair(&mut one_by_one, name, value);
        }
        assert_eq!(one_by_one, form_urlencoded(pairs));
        assert_eq!(one_by_one, "q=rust+http&a%26b=%3D%7E*&=");
        assert_eq!(form_urlencoded(Vec::<(&str, &str)>::new()), "");
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
