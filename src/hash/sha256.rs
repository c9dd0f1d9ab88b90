//! SHA-256 (FIPS 180-4 section 6.2), streaming: what AWS Signature Version 4 hashes and
//! signs with (through HMAC), and HTTP Digest's `SHA-256` algorithm.

/// The length of a SHA-256 digest, in bytes.
pub(crate) const DIGEST_LEN: usize = 32;

/// The length of a SHA-256 block, in bytes (HMAC pads its key to it).
pub(crate) const BLOCK_LEN: usize = 64;

/// FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the cube roots of
/// the first 64 primes.
const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// FIPS 180-4 section 5.3.3: the initial hash value.
const H0: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// A SHA-256 computation fed in pieces: [`update`](Sha256::update) any number of times, then
/// [`finish`](Sha256::finish).
#[derive(Clone)]
pub(crate) struct Sha256 {
    state: [u32; 8],
    /// Bytes of an unfinished block; `buffered` of them are in use.
    block: [u8; BLOCK_LEN],
    buffered: usize,
    /// Bytes hashed so far.
    length: u64,
}

impl Default for Sha256 {
    fn default() -> Sha256 {
        Sha256::new()
    }
}

impl Sha256 {
    /// A computation over no bytes yet.
    pub(crate) fn new() -> Sha256 {
        Sha256 {
            state: H0,
            block: [0; BLOCK_LEN],
            buffered: 0,
            length: 0,
        }
    }

    /// Hashes `data` after what came before.
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        self.length = self.length.wrapping_add(data.len() as u64);
        if self.buffered > 0 {
            let room = BLOCK_LEN - self.buffered;
            let take = room.min(data.len());
            let (head, rest) = data.split_at(take);
            self.block[self.buffered..self.buffered + take].copy_from_slice(head);
            self.buffered += take;
            data = rest;
            if self.buffered < BLOCK_LEN {
                return;
            }
            compress(&mut self.state, &self.block);
            self.buffered = 0;
        }
        let mut blocks = data.chunks_exact(BLOCK_LEN);
        for block in &mut blocks {
            compress(&mut self.state, block);
        }
        let rest = blocks.remainder();
        self.block[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
    }

    /// The digest of everything given (section 5.1.1's padding, then the last blocks).
    pub(crate) fn finish(mut self) -> [u8; DIGEST_LEN] {
        let bits = self.length.wrapping_mul(8);
        let mut padding = [0u8; BLOCK_LEN];
        padding[0] = 0x80;
        // One 0x80 byte, zeros up to 56 mod 64, then the length in bits, big-endian.
        let zeros = (BLOCK_LEN + 55 - self.buffered) % BLOCK_LEN;
        self.update(&padding[..1 + zeros]);
        self.update(&bits.to_be_bytes());
        let mut digest = [0u8; DIGEST_LEN];
        for (out, word) in digest.chunks_exact_mut(4).zip(self.state.iter()) {
            out.copy_from_slice(&word.to_be_bytes());
        }
        digest
    }
}

/// The SHA-256 digest of `data`.
pub(crate) fn sha256(data: &[u8]) -> [u8; DIGEST_LEN] {
    let mut hasher = Sha256::new();
    hasher.update(data);
    hasher.finish()
}

/// One block into the state (FIPS 180-4 section 6.2.2). The message schedule is kept as a
/// ring of 16 words, computed as the rounds need it.
fn compress(state: &mut [u32; 8], block: &[u8]) {
    let mut w = [0u32; 16];
    for (word, bytes) in w.iter_mut().zip(block.chunks_exact(4)) {
        *word = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for (round, k) in K.iter().enumerate() {
        let word = if round < 16 {
            w[round]
        } else {
            let w15 = w[(round + 1) & 15];
            let w2 = w[(round + 14) & 15];
            let s0 = w15.rotate_right(7) ^ w15.rotate_right(18) ^ (w15 >> 3);
            let s1 = w2.rotate_right(17) ^ w2.rotate_right(19) ^ (w2 >> 10);
            let next = w[round & 15]
                .wrapping_add(s0)
                .wrapping_add(w[(round + 9) & 15])
                .wrapping_add(s1);
            w[round & 15] = next;
            next
        };
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let t1 = h
            .wrapping_add(s1)
            .wrapping_add(ch)
            .wrapping_add(*k)
            .wrapping_add(word);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let t2 = s0.wrapping_add(maj);
        h = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    for (word, add) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *word = word.wrapping_add(add);
    }
}
