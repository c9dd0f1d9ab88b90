//! Unsigned decimal numbers in text (a port, a prefix length, a date's fields, a delay): one
//! plain loop for the url and http layers.
//!
//! `str::parse` compiles the standard library's integer parser again for each integer type
//! it reads, some 350 lines of LLVM IR each (issue 17: `u8`, `u16`, `u32` and `u64` were four
//! of them in the http build); the callers here read the value as a `u64` and narrow it.

/// `text` read as a decimal number: one or more ASCII digits and nothing else (no sign, no
/// space), or `None`, also when the value does not fit in a `u64`.
pub(crate) fn parse(text: &str) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for byte in text.bytes() {
        if !byte.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(u64::from(byte - b'0'))?;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn digits_only() {
        let cases: [(&str, Option<u64>); 12] = [
            ("0", Some(0)),
            ("7", Some(7)),
            ("0080", Some(80)),
            ("65535", Some(65535)),
            ("18446744073709551615", Some(u64::MAX)),
            ("18446744073709551616", None),
            ("99999999999999999999", None),
            ("", None),
            ("+1", None),
            ("-1", None),
            (" 1", None),
            ("1a", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse(text), expected, "{text:?}");
        }
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
            assert_eq!(parse(text), text.parse::<u64>().ok(), "{text:?}");
        }
    }
}
