//! Hashes of our own, for the auth schemes that sign requests: SHA-256 and HMAC-SHA256 (AWS
//! Signature Version 4, HTTP Digest's `SHA-256`), and MD5, only as HTTP Digest's legacy
//! algorithm; and FNV-1a, for names and boundaries derived from content. No dependency: each
//! is a few dozen lines checked against its published test vectors.
//!
//! Internal: the crate signs with them and offers no hashing API.

mod fnv;
mod md5;
mod sha256;

pub(crate) use self::fnv::{fnv1a_32, Fnv1a64};
pub(crate) use self::md5::md5_legacy;
pub(crate) use self::sha256::{sha256, Sha256};

use self::sha256::{BLOCK_LEN, DIGEST_LEN};

/// HMAC-SHA256 of `message` under `key` (RFC 2104, with SHA-256 as RFC 4231 uses it).
pub(crate) fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; DIGEST_LEN] {
    let mut block_key = [0u8; BLOCK_LEN];
    if key.len() > BLOCK_LEN {
        block_key[..DIGEST_LEN].copy_from_slice(&sha256(key));
    } else {
        block_key[..key.len()].copy_from_slice(key);
    }
    let mut pad = [0u8; BLOCK_LEN];
    for (out, byte) in pad.iter_mut().zip(block_key.iter()) {
        *out = byte ^ 0x36;
    }
    let mut inner = Sha256::new();
    inner.update(&pad);
    inner.update(message);
    let inner = inner.finish();
    for (out, byte) in pad.iter_mut().zip(block_key.iter()) {
        *out = byte ^ 0x5c;
    }
    let mut outer = Sha256::new();
    outer.update(&pad);
    outer.update(&inner);
    outer.finish()
}

/// `bytes` as lowercase hexadecimal, as SigV4 and Digest write digests.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 15)]));
    }
    text
}

/// Whether `a` and `b` are equal, taking the same time wherever they differ: for comparing a
/// value derived from a secret (a server's Digest `rspauth`), so timing tells an attacker
/// nothing about how much of a guess was right. The lengths are not secret.
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    // No early exit: every byte is read and folded in, equal or not.
    let difference = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    difference == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unhex(text: &str) -> Vec<u8> {
        let clean: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        clean
            .chunks(2)
            .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
            .collect()
    }

    macro_rules! sha256_vectors {
        ($($name:ident: $input:expr => $digest:expr;)*) => {$(
            #[test]
            fn $name() {
                let input: Vec<u8> = $input;
                assert_eq!(hex(&sha256(&input)), $digest);
                // The same bytes fed in uneven pieces.
                for piece in [1, 3, 63, 64, 65] {
                    let mut hasher = Sha256::new();
                    for chunk in input.chunks(piece) {
                        hasher.update(chunk);
                    }
                    assert_eq!(hex(&hasher.finish()), $digest, "pieces of {}", piece);
                }
            }
        )*};
    }

    // FIPS 180-2 appendix B and NIST's "SHA256.pdf" examples, plus the padding boundaries.
    sha256_vectors! {
        sha256_nist_empty: Vec::new() =>
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        sha256_nist_one_block_abc: b"abc".to_vec() =>
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        sha256_nist_two_block: b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".to_vec() =>
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
        sha256_nist_896_bits: b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".to_vec() =>
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1";
        sha256_nist_million_a: vec![b'a'; 1_000_000] =>
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
        sha256_55_bytes_fit_one_block: vec![b'a'; 55] =>
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318";
        sha256_56_bytes_need_two_blocks: vec![b'a'; 56] =>
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a";
        sha256_64_bytes: vec![b'a'; 64] =>
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb";
    }

    macro_rules! hmac_vectors {
        ($($name:ident: $key:expr, $data:expr => $mac:expr;)*) => {$(
            #[test]
            fn $name() {
                let (key, data): (Vec<u8>, Vec<u8>) = ($key, $data);
                let mac = hex(&hmac_sha256(&key, &data));
                assert!(mac.starts_with($mac), "{}", mac);
            }
        )*};
    }

    // RFC 4231 section 4, HMAC-SHA-256 rows (test case 5 is truncated to 128 bits there).
    hmac_vectors! {
        hmac_rfc4231_case_1: vec![0x0b; 20], b"Hi There".to_vec() =>
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7";
        hmac_rfc4231_case_2: b"Jefe".to_vec(), b"what do ya want for nothing?".to_vec() =>
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
        hmac_rfc4231_case_3: vec![0xaa; 20], vec![0xdd; 50] =>
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe";
        hmac_rfc4231_case_4: unhex("0102030405060708090a0b0c0d0e0f10111213141516171819"), vec![0xcd; 50] =>
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b";
        hmac_rfc4231_case_5_truncated: vec![0x0c; 20], b"Test With Truncation".to_vec() =>
            "a3b6167473100ee06e0c796c2955552b";
        hmac_rfc4231_case_6_key_longer_than_block: vec![0xaa; 131],
            b"Test Using Larger Than Block-Size Key - Hash Key First".to_vec() =>
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54";
        hmac_rfc4231_case_7_key_and_data_longer_than_block: vec![0xaa; 131],
            b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".to_vec() =>
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2";
    }

    macro_rules! md5_vectors {
        ($($name:ident: $input:expr => $digest:expr;)*) => {$(
            #[test]
            fn $name() {
                assert_eq!(hex(&md5_legacy($input)), $digest);
            }
        )*};
    }

    // RFC 1321 appendix A.5, the test suite.
    md5_vectors! {
        md5_rfc1321_empty: b"" => "d41d8cd98f00b204e9800998ecf8427e";
        md5_rfc1321_a: b"a" => "0cc175b9c0f1b6a831c399e269772661";
        md5_rfc1321_abc: b"abc" => "900150983cd24fb0d6963f7d28e17f72";
        md5_rfc1321_message_digest: b"message digest" => "f96b697d7cb7938d525a2f31aaf161d0";
        md5_rfc1321_alphabet: b"abcdefghijklmnopqrstuvwxyz" => "c3fcd3d76192e4007dfb496cca67e13b";
        md5_rfc1321_alphanumeric: b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" =>
            "d174ab98d277d9f5a5611c2c9f419d9f";
        md5_rfc1321_digits: b"12345678901234567890123456789012345678901234567890123456789012345678901234567890" =>
            "57edf4a22be3c955ac49da2e2107b67a";
    }

    #[test]
    fn constant_time_eq_compares_every_byte() {
        assert!(constant_time_eq(b"", b""));
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"xbc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abcd"));
    }
}
