//! Credentials in header form: `Basic` user and password (RFC 7617).

/// The value of an `Authorization` (or `Proxy-Authorization`) header carrying `username`
/// and `password` in the `Basic` scheme: `Basic base64(user-id ":" password)`, RFC 7617
/// section 2.
///
/// # Security
///
/// The result holds the password, merely encoded: send it in a sensitive header (see
/// [`Headers::append_sensitive`](super::Headers::append_sensitive)) and over https.
///
/// # Examples
///
/// ```
/// assert_eq!(
///     httptool::http::basic_auth("Aladdin", "open sesame"),
///     "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="
/// );
/// ```
pub fn basic_auth(username: &str, password: &str) -> String {
    let mut credentials = Vec::with_capacity(username.len() + password.len() + 1);
    credentials.extend_from_slice(username.as_bytes());
    credentials.push(b':');
    credentials.extend_from_slice(password.as_bytes());
    format!("Basic {}", base64(&credentials))
}

/// RFC 4648 section 4, with padding.
fn base64(input: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity((input.len() + 2) / 3 * 4);
    for chunk in input.chunks(3) {
        let byte = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (byte(0) << 16) | (byte(1) << 8) | byte(2);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Standard Base64 with optional padding (RFC 4648 section 4); `None` for anything else.
pub(crate) fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut buffer = 0u32;
    let mut bits = 0;
    for b in text.bytes() {
        let value = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        buffer = (buffer << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_rfc4648_vectors() {
        // RFC 4648 section 10.
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (input, want) in cases {
            assert_eq!(base64(input.as_bytes()), want, "{:?}", input);
        }
    }

    #[test]
    fn basic_auth_keeps_colons_and_utf8_in_the_password() {
        assert_eq!(basic_auth("user", "pa:ss"), "Basic dXNlcjpwYTpzcw==");
        assert_eq!(basic_auth("test", "123£"), "Basic dGVzdDoxMjPCow==");
    }

    #[test]
    fn base64_decodes_rfc4648_vectors() {
        let cases = [
            ("", ""),
            ("Zg==", "f"),
            ("Zm8=", "fo"),
            ("Zm9v", "foo"),
            ("Zm9vYg==", "foob"),
            ("Zm9vYmE=", "fooba"),
            ("Zm9vYmFy", "foobar"),
            ("QWxhZGRpbjpvcGVuIHNlc2FtZQ==", "Aladdin:open sesame"),
        ];
        for (text, expected) in cases {
            assert_eq!(
                base64_decode(text),
                Some(expected.as_bytes().to_vec()),
                "{}",
                text
            );
        }
        assert_eq!(base64_decode("a b"), None);
    }
}
