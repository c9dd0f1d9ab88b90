//! Word-at-a-time tests of string content for the writer: eight bytes are tested with a few
//! operations on a `u64` (SWAR), which safe Rust compiles well.
//!
//! The writer's scan first runs a cheap test that stops at any byte other than plain
//! printable ASCII, two words a step (which the compiler turns into SSE2 on x86-64), then
//! finishes with the exact test of its stop set. Most string content (descriptions, names,
//! URLs) is plain ASCII and only ever sees the cheap test.
//!
//! The parser keeps its own scan (`parse::skip_unescaped`, the exact test a word at a
//! time): built from these functions it was slower on documents whose strings are mostly
//! short keys (measured, `design::performance`).

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The first eight bytes of `chunk` (at least eight long) as a little-endian word.
#[inline]
pub(super) fn word(chunk: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    if let Some(src) = chunk.get(..8) {
        word.copy_from_slice(src);
    }
    u64::from_le_bytes(word)
}

/// The eight bytes of `bytes` at `i` as a little-endian word, if there are eight.
#[inline]
pub(super) fn word_at(bytes: &[u8], i: usize) -> Option<u64> {
    bytes.get(i..i.checked_add(8)?).map(word)
}

/// The high bit of each byte of `x` that is zero, and maybe of bytes above one that is (the
/// borrow of the subtraction runs upwards), never below: exact as an "any", and the lowest
/// flag is the first zero byte.
#[inline]
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// Flags, as [`zero_bytes`] does, the bytes of `x` equal to `b`.
#[inline]
pub(super) fn bytes_equal(x: u64, b: u8) -> u64 {
    zero_bytes(x ^ (ONES * u64::from(b)))
}

/// Flags, as [`zero_bytes`] does, the bytes of `x` that end a run of string content in
/// every context: `"`, `\` and the control characters (below 0x20).
#[inline]
pub(super) fn string_ends(x: u64) -> u64 {
    bytes_equal(x, b'"') | bytes_equal(x, b'\\') | (x.wrapping_sub(ONES * 0x20) & !x & HIGHS)
}

/// Flags, as [`zero_bytes`] does, the bytes of `x` that are [`string_ends`] or above 0x7F:
/// no flag means eight bytes of printable ASCII other than `"` and `\`. Cheaper than
/// [`string_ends`]: once no byte has its high bit set, no `& !x` is needed to keep bytes
/// above 0x7F from flagging, and those are flagged anyway.
#[inline]
pub(super) fn not_plain_ascii(x: u64) -> u64 {
    ((x ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES)
        | (x ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES)
        | x.wrapping_sub(ONES * 0x20)
        | x)
        & HIGHS
}

/// The index of the first word of `bytes` from `i` on (stepping eight bytes) that holds a
/// byte other than plain printable ASCII, or of the last bytes, fewer than eight. Every
/// byte before it is plain ASCII other than `"` and `\`.
#[inline]
pub(super) fn skip_plain_ascii(bytes: &[u8], i: usize) -> usize {
    let rest = bytes.get(i..).unwrap_or_default();
    let mut skipped = 0;
    // Two words a step: one branch for sixteen bytes.
    for pair in rest.chunks_exact(16) {
        let (a, b) = pair.split_at(8);
        if not_plain_ascii(word(a)) | not_plain_ascii(word(b)) != 0 {
            break;
        }
        skipped += 16;
    }
    if let Some(a) = rest.get(skipped..skipped + 8) {
        if not_plain_ascii(word(a)) == 0 {
            skipped += 8;
        }
    }
    i + skipped
}

/// The index of the lowest byte flagged in `flags` (not zero), in a word at `i`.
#[inline]
pub(super) fn first_flagged(i: usize, flags: u64) -> usize {
    i + (flags.trailing_zeros() / 8) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every position of a word, against the byte-wise definitions.
    #[test]
    fn word_tests_agree_with_the_bytes() {
        for b in 0..=255u8 {
            for pos in 0..8 {
                let mut word = *b"abcdefgh";
                word[pos] = b;
                let x = u64::from_le_bytes(word);
                let ends = b == b'"' || b == b'\\' || b < 0x20;
                let first = |flags: u64| (flags != 0).then(|| first_flagged(0, flags));
                assert_eq!(
                    first(string_ends(x)),
                    ends.then_some(pos),
                    "{b:#x} at {pos}"
                );
                assert_eq!(
                    first(not_plain_ascii(x)),
                    (ends || b > 0x7F).then_some(pos),
                    "{b:#x} at {pos}"
                );
                assert_eq!(first(bytes_equal(x, 0xE2)), (b == 0xE2).then_some(pos));
            }
        }
    }

    #[test]
    fn plain_ascii_is_skipped_a_word_at_a_time() {
        for len in 0..40 {
            let plain = vec![b'a'; len];
            // Whole words are skipped; fewer than eight bytes are left to the caller.
            assert_eq!(skip_plain_ascii(&plain, 0), len - len % 8, "{len}");
            assert_eq!(
                skip_plain_ascii(&plain, 3),
                len.max(3) - (len.max(3) - 3) % 8
            );
            for pos in 0..len {
                for stop in [b'"', b'\\', b'\n', 0, 0x1F, 0x80, 0xC3, 0xE2, 0xFF] {
                    let mut bytes = plain.clone();
                    bytes[pos] = stop;
                    // It stops at the word that holds the byte.
                    let at = skip_plain_ascii(&bytes, 0);
                    assert_eq!(at % 8, 0, "{len} {pos} {stop}");
                    assert!(at <= pos && pos < at + 8, "{len} {pos} {stop} {at}");
                }
            }
        }
        assert_eq!(skip_plain_ascii(b" !#[]~\x7f.", 0), 8);
        assert_eq!(skip_plain_ascii(b"abc", 7), 7);
        assert_eq!(skip_plain_ascii(b"", usize::MAX - 3), usize::MAX - 3);
    }
}
