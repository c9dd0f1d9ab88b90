//! What curl would send for a command, worked out from the [`CurlCommand`] as its docs
//! describe: the data joined into one body, the headers it adds, the credentials in the
//! URL. Pure: no file is read (file parts are left out), nothing is sent.

use super::command::{CurlCommand, DataKind, DataSource};
use crate::url::{self, encode};

/// The data parts joined as curl joins them (see [`CurlCommand`]): `&` between parts but
/// before `--json` parts, `--data-urlencode` content encoded. File parts are left out.
pub(crate) fn joined_data(cmd: &CurlCommand) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, part) in cmd.data().iter().enumerate() {
        let bytes = match part.source() {
            DataSource::Inline(bytes) => bytes,
            DataSource::File(_) => continue,
        };
        if i > 0 && part.kind() != DataKind::Json {
            out.push(b'&');
        }
        if part.kind() == DataKind::UrlEncode {
            if let Some(name) = part.name() {
                out.extend_from_slice(name.as_bytes());
                out.push(b'=');
            }
            curl_urlencode(&mut out, bytes);
        } else {
            out.extend_from_slice(bytes);
        }
    }
    out
}

/// curl's `--data-urlencode`: every byte but `A-Z a-z 0-9 - . _ ~` as `%XX`, a space as `+`.
pub(crate) fn curl_urlencode(out: &mut Vec<u8>, bytes: &[u8]) {
    encode::encode_bytes_into(out, bytes, &encode::UNRESERVED_SPACE_AS_PLUS);
}

/// curl's `--url-query` (`curl_easy_escape`): every byte but `A-Z a-z 0-9 - . _ ~` as
/// `%XX`, a space too.
pub(crate) fn curl_escape(out: &mut Vec<u8>, bytes: &[u8]) {
    encode::encode_bytes_into(out, bytes, &encode::UNRESERVED);
}

/// `name=value&...` decoded as a form (`+` is a space), empty pieces skipped, bytes that
/// are not UTF-8 replaced.
pub(crate) fn decode_pairs(bytes: &[u8]) -> Vec<(String, String)> {
    let decoded = |s: &str| String::from_utf8_lossy(&url::form_decode(s)).into_owned();
    let mut pairs = Vec::new();
    for piece in String::from_utf8_lossy(bytes).split('&') {
        if !piece.is_empty() {
            let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
            pairs.push((decoded(name), decoded(value)));
        }
    }
    pairs
}

/// Whether `name=value&...` decodes to text: UTF-8, and UTF-8 once percent-decoded (else
/// [`decode_pairs`] replaces bytes).
pub(crate) fn pairs_are_text(bytes: &[u8]) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(text) => text
            .split(['&', '='])
            .all(|part| std::str::from_utf8(&url::form_decode(part)).is_ok()),
        Err(_) => false,
    }
}

/// A header curl would send.
pub(crate) struct SentHeader {
    pub(crate) name: String,
    pub(crate) value: String,
    /// The argument that gave it; 0 for `-A`, `-e` and `-b`, whose index is not kept.
    pub(crate) arg_index: usize,
    /// curl adds it on its own (the `Content-Type` of data): no one wrote it.
    pub(crate) implied: bool,
}

/// The headers curl sends but its own defaults (`Accept: */*`, its `User-Agent`), in
/// order: `-H` headers, then what `-A`, `-e`, `-b` and data would add when no `-H` gives
/// (or removes) them. `-u` and `--oauth2-bearer` are left to the caller.
pub(crate) fn effective_headers(cmd: &CurlCommand) -> Vec<SentHeader> {
    let mut headers = Vec::with_capacity(cmd.headers().len() + 4);
    for header in cmd.headers() {
        headers.push(SentHeader {
            name: header.name().to_string(),
            value: header.value().to_string(),
            arg_index: header.arg_index(),
            implied: false,
        });
    }
    let given = |name: &str| {
        cmd.header(name).is_some()
            || cmd
                .removed_headers()
                .iter()
                .any(|r| r.eq_ignore_ascii_case(name))
    };
    let mut add = |name: &str, value: String, arg_index: usize, implied: bool| {
        if !given(name) {
            let name = name.to_string();
            headers.push(SentHeader {
                name,
                value,
                arg_index,
                implied,
            });
        }
    };
    if let Some(agent) = cmd.user_agent().filter(|a| !a.is_empty()) {
        add("User-Agent", agent.to_string(), 0, false);
    }
    if let Some(referer) = cmd.referer() {
        add("Referer", referer.to_string(), 0, false);
    }
    if !cmd.cookies().is_empty() {
        add("Cookie", cmd.cookies().join(";"), 0, false);
    }
    let body_data = cmd
        .data()
        .first()
        .filter(|_| !cmd.get() && cmd.form().is_empty());
    if let Some(part) = body_data {
        let form = "application/x-www-form-urlencoded".to_string();
        add("Content-Type", form, part.arg_index(), true);
    }
    headers
}

/// Where the authority of `url` is: `(start, end)` byte offsets.
fn authority_range(url: &str) -> (usize, usize) {
    let start = url.find("://").map_or(0, |at| at + 3);
    let len = url[start..]
        .find(['/', '?', '#'])
        .unwrap_or(url.len() - start);
    (start, start + len)
}

pub(crate) fn without_userinfo(url: &str) -> String {
    let (start, end) = authority_range(url);
    match url[start..end].rfind('@') {
        Some(at) => format!("{}{}", &url[..start], &url[start + at + 1..]),
        None => url.to_string(),
    }
}

/// The user name and password in the URL, percent-decoded (curl sends them as basic auth).
pub(crate) fn userinfo(url: &str) -> Option<(String, String)> {
    let (start, end) = authority_range(url);
    let authority = &url[start..end];
    let info = &authority[..authority.rfind('@')?];
    let (user, password) = info.split_once(':').unwrap_or((info, ""));
    Some((decode(user), decode(password)))
}

/// Percent-decodes, replacing bytes that are not UTF-8.
pub(crate) fn decode(text: &str) -> String {
    String::from_utf8_lossy(&url::percent_decode(text)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn urlencode_as_curl() {
        let mut out = Vec::new();
        curl_urlencode(&mut out, "a b&c=é~".as_bytes());
        assert_eq!(out, b"a+b%26c%3D%C3%A9~");
    }

    #[test]
    fn pairs_that_are_not_text() {
        assert!(pairs_are_text(b"a=1&b=%C3%A9"));
        assert!(!pairs_are_text(b"a=%FF"));
        assert!(!pairs_are_text(b"a=\xff"));
    }

    #[test]
    fn pairs_decode_as_forms() {
        assert_eq!(
            decode_pairs(b"a=1+2&&b&c=%26"),
            vec![
                ("a".to_string(), "1 2".to_string()),
                ("b".to_string(), String::new()),
                ("c".to_string(), "&".to_string())
            ]
        );
    }

    #[test]
    fn userinfo_is_split_and_decoded() {
        assert_eq!(
            userinfo("https://u%40x:p%3Aw@h.test/a@b"),
            Some(("u@x".to_string(), "p:w".to_string()))
        );
        assert_eq!(userinfo("https://h.test/a@b"), None);
        assert_eq!(
            without_userinfo("https://u:p@h.test/x?a=@"),
            "https://h.test/x?a=@"
        );
    }
}
