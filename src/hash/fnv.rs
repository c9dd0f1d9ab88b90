//! FNV-1a (Fowler, Noll, Vo; draft-eastlake-fnv): a short hash that is the same on every
//! machine, every run and every release, for names and boundaries derived from content. Not
//! for anything an attacker may steer to collide on purpose, and never for secrets.

const OFFSET_32: u32 = 0x811c_9dc5;
const PRIME_32: u32 = 0x0100_0193;
const OFFSET_64: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME_64: u64 = 0x0100_0000_01b3;

/// FNV-1a, 32 bits, of `bytes`.
pub(crate) fn fnv1a_32(bytes: &[u8]) -> u32 {
    let mut hash = OFFSET_32;
    for &b in bytes {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(PRIME_32);
    }
    hash
}

/// FNV-1a, 64 bits, fed in pieces.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv1a64(u64);

impl Fnv1a64 {
    pub(crate) fn new() -> Fnv1a64 {
        Fnv1a64(OFFSET_64)
    }

    pub(crate) fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(PRIME_64);
        }
    }

    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published test vectors of FNV-1a.
    #[test]
    fn published_vectors() {
        let cases: [(&[u8], u32, u64); 3] = [
            (b"", 0x811c_9dc5, 0xcbf2_9ce4_8422_2325),
            (b"a", 0xe40c_292c, 0xaf63_dc4c_8601_ec8c),
            (b"foobar", 0xbf9c_f968, 0x8594_4171_f739_67e8),
        ];
        for (input, want_32, want_64) in cases {
            assert_eq!(fnv1a_32(input), want_32, "{:?}", input);
            let mut hash = Fnv1a64::new();
            hash.update(input);
            assert_eq!(hash.finish(), want_64, "{:?}", input);
        }
    }

    #[test]
    fn pieces_hash_as_the_whole() {
        let mut pieces = Fnv1a64::new();
        pieces.update(b"foo");
        pieces.update(b"bar");
        let mut whole = Fnv1a64::new();
        whole.update(b"foobar");
        assert_eq!(pieces.finish(), whole.finish());
    }
}
