//! The chunk-size line of the chunked transfer coding (RFC 9112 section 7.1). Pure code.

use super::super::error::{Error, Malformed};
use super::super::headers::is_value_byte;

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
    let digits = line.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if digits == 0 {
        return Err(bad());
    }
    let size = line[..digits].iter().fold(0u64, |n, &d| {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            _ => d - b'A' + 10,
        };
        n.checked_mul(16)
            .and_then(|n| n.checked_add(u64::from(v)))
            .unwrap_or(u64::MAX)
    });
    let mut rest = &line[digits..];
    while let [b' ' | b'\t', tail @ ..] = rest {
        rest = tail;
    }
    match rest {
        [] => Ok(size),
        [b';', ext @ ..] if ext.iter().all(|&b| is_value_byte(b)) => Ok(size),
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
}
