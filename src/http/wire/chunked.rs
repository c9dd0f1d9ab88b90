//! The chunk-size line of the chunked transfer coding (RFC 9112 section 7.1). Pure code.

use super::super::error::{Error, Malformed};
use super::super::headers::all_value_bytes;

/// RFC 9112 section 7.1:
///
/// ```text
/// chunk      = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
/// chunk-size = 1*HEXDIG
/// chunk-ext  = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
/// ```
///
/// Extensions are skipped (section 7.1.1: a recipient must ignore those it does not
/// understand) but may hold no control character. A size beyond `u64` saturates: it is over
/// any body limit anyway. `line` is without its line ending.
pub(crate) fn parse_chunk_size(line: &[u8]) -> Result<u64, Error> {
    let bad = || Error::malformed(Malformed::ChunkSize);
    // A loop, not take_while and fold: their closures compiled the iterator code twice
    // (build cost, see `design::performance`).
    let mut size = 0u64;
    let mut digits = 0;
    for &d in line {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => break,
        };
        size = size
            .checked_mul(16)
            .and_then(|n| n.checked_add(u64::from(v)))
            .unwrap_or(u64::MAX);
        digits += 1;
    }
    if digits == 0 {
        return Err(bad());
    }
    let mut rest = line.get(digits..).unwrap_or_default();
    while let [b' ' | b'\t', tail @ ..] = rest {
        rest = tail;
    }
    match rest {
        [] => Ok(size),
        [b';', ext @ ..] if all_value_bytes(ext) => Ok(size),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let cases: [(&[u8], Option<u64>); 16] = [
            (b"0", Some(0)),
            (b"1a", Some(26)),
            (b"1A", Some(26)),
            (b"000000000000000000000010", Some(16)),
            (b"ffffffffffffffff", Some(u64::MAX)),
            (b"10000000000000000", Some(u64::MAX)),
            (b"5;name=value", Some(5)),
            (b"5 ; name=\"quoted; value\"", Some(5)),
            (b"5\t;a;b=c", Some(5)),
            (b"", None),
            (b";ext", None),
            (b"-5", None),
            (b"0x5", None),
            (b"5 6", None),
            (b"5;a\x00b", None),
            (b"g", None),
        ];
        for (line, want) in cases {
            assert_eq!(
                parse_chunk_size(line).ok(),
                want,
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn fuzz_chunk_size_lines() {
        const BYTES: &[u8] = b"0123456789abcdefABCDEFgx ;=\"\t\r\n\0\x7f\xff-+";
        let mut rng = crate::test_rng::Rng::from_state(0xc4c4_0001);
        let mut next = || rng.next();
        for _ in 0..20_000 {
            let len = (next() % 40) as usize;
            let line: Vec<u8> = (0..len)
                .map(|_| BYTES[(next() % BYTES.len() as u64) as usize])
                .collect();
            if let Ok(size) = parse_chunk_size(&line) {
                let digits = line.iter().take_while(|b| b.is_ascii_hexdigit()).count();
                assert!(digits > 0, "{line:?}");
                if digits <= 16 {
                    let text = std::str::from_utf8(&line[..digits]).unwrap();
                    assert_eq!(u64::from_str_radix(text, 16).ok(), Some(size));
                } else if line[..digits].iter().any(|&b| b != b'0') {
                    assert!(size > 0);
                }
                assert!(!line.iter().any(|&b| b < 0x20 && b != b'\t'), "{line:?}");
            }
        }
    }
}
