//! Unsigned decimal numbers in text (a port, a prefix length, a date's fields, a delay, a
//! `Content-Length`): plain loops for the url and http layers.
//!
//! `str::parse` compiles the standard library's integer parser again for each integer type
//! it reads (`design::performance`, "Build cost"), and each `all` or `fold` over digits with a
//! closure of its own compiled the iterator code again; the callers here read the value as a `u64`
//! and narrow it.

/// Whether `text` is one or more ASCII digits and nothing else.
pub(crate) fn is_digits(text: &[u8]) -> bool {
    if text.is_empty() {
        return false;
    }
    for byte in text {
        if !byte.is_ascii_digit() {
            return false;
        }
    }
    true
}

/// `text` read as a decimal number when it [is digits](is_digits); a value beyond `u64`
/// saturates (it is over any limit the caller has anyway).
pub(crate) fn parse_saturating(text: &[u8]) -> Option<u64> {
    if !is_digits(text) {
        return None;
    }
    Some(parse(text).unwrap_or(u64::MAX))
}

/// `text` read as a decimal number: one or more ASCII digits and nothing else (no sign, no
/// space), or `None`, also when the value does not fit in a `u64`.
pub(crate) fn parse(text: &[u8]) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for &byte in text {
        if !byte.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(u64::from(byte - b'0'))?;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::{is_digits, parse, parse_saturating};

    #[test]
    fn digits_only() {
        // (text, is_digits, parse)
        let cases: [(&str, bool, Option<u64>); 12] = [
            ("0", true, Some(0)),
            ("7", true, Some(7)),
            ("0080", true, Some(80)),
            ("65535", true, Some(65535)),
            ("18446744073709551615", true, Some(u64::MAX)),
            ("18446744073709551616", true, None),
            ("99999999999999999999", true, None),
            ("", false, None),
            ("+1", false, None),
            ("-1", false, None),
            (" 1", false, None),
            ("1a", false, None),
        ];
        for (text, digits, value) in cases {
            assert_eq!(is_digits(text.as_bytes()), digits, "{text:?}");
            assert_eq!(parse(text.as_bytes()), value, "{text:?}");
        }
    }

    #[test]
    fn saturating() {
        assert_eq!(parse_saturating(b"12"), Some(12));
        assert_eq!(parse_saturating(b"18446744073709551616"), Some(u64::MAX));
        assert_eq!(parse_saturating(b"99999999999999999999999"), Some(u64::MAX));
        assert_eq!(parse_saturating(b""), None);
        assert_eq!(parse_saturating(b"1 "), None);
        assert_eq!(parse_saturating(b"+1"), None);
    }

    #[test]
    fn agrees_with_the_standard_parser_on_digits() {
        for text in [
            "1",
            "42",
            "255",
            "256",
            "4294967295",
            "4294967296",
            "000000000000000000001",
        ] {
            assert_eq!(parse(text.as_bytes()), text.parse::<u64>().ok(), "{text:?}");
        }
    }
}
