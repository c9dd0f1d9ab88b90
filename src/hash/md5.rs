//! MD5 (RFC 1321), only because HTTP Digest (RFC 7616 section 3.3) names it as its legacy
//! algorithm, the one most servers still challenge with. It is broken as a hash: use it for
//! nothing else.

/// The length of an MD5 digest, in bytes.
pub(crate) const DIGEST_LEN: usize = 16;

const BLOCK_LEN: usize = 64;

/// RFC 1321 section 3.4: the per-round shift amounts.
const S: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9,
    14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15,
    21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

/// RFC 1321 section 3.4: `T[i]`, the integer part of 2^32 times abs(sin(i + 1)).
const T: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// The MD5 digest of `data` (RFC 1321 section 3).
pub(crate) fn md5_legacy(data: &[u8]) -> [u8; DIGEST_LEN] {
    let mut state: [u32; 4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
    let mut blocks = data.chunks_exact(BLOCK_LEN);
    for block in &mut blocks {
        compress(&mut state, block);
    }
    // Section 3.1 and 3.2: a 1 bit, zeros to 56 mod 64, then the bit length, little-endian.
    let rest = blocks.remainder();
    let mut tail = [0u8; 2 * BLOCK_LEN];
    tail[..rest.len()].copy_from_slice(rest);
    tail[rest.len()] = 0x80;
    let tail_len = if rest.len() < 56 {
        BLOCK_LEN
    } else {
        2 * BLOCK_LEN
    };
    let bits = (data.len() as u64).wrapping_mul(8);
    tail[tail_len - 8..tail_len].copy_from_slice(&bits.to_le_bytes());
    for block in tail[..tail_len].chunks_exact(BLOCK_LEN) {
        compress(&mut state, block);
    }
    let mut digest = [0u8; DIGEST_LEN];
    for (out, word) in digest.chunks_exact_mut(4).zip(state.iter()) {
        out.copy_from_slice(&word.to_le_bytes());
    }
    digest
}

/// One 64-byte block into the state (RFC 1321 section 3.4).
fn compress(state: &mut [u32; 4], block: &[u8]) {
    let mut x = [0u32; 16];
    for (word, bytes) in x.iter_mut().zip(block.chunks_exact(4)) {
        *word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    }
    let [mut a, mut b, mut c, mut d] = *state;
    for i in 0..64 {
        let (f, g) = match i / 16 {
            0 => ((b & c) | (!b & d), i),
            1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
            2 => (b ^ c ^ d, (3 * i + 5) % 16),
            _ => (c ^ (b | !d), (7 * i) % 16),
        };
        let sum = a.wrapping_add(f).wrapping_add(T[i]).wrapping_add(x[g]);
        a = d;
        d = c;
        c = b;
        b = b.wrapping_add(sum.rotate_left(S[i]));
    }
    for (word, add) in state.iter_mut().zip([a, b, c, d]) {
        *word = word.wrapping_add(add);
    }
}
