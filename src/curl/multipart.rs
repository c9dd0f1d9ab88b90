//! Reading a `multipart/form-data` body back into its parts (RFC 7578): for the raw
//! multipart data a browser's "Copy as cURL" writes, and for exporting file parts as `-F`.
//!
//! Only what form data uses is read: each part's `Content-Disposition` name and file name
//! and its `Content-Type`. Names are quoted as browsers write them (`"` as `%22`, CR as
//! `%0D`, LF as `%0A`; WHATWG HTML, "multipart/form-data encoding algorithm"). Pure and
//! linear in the body's length times the boundary's.

use crate::http::media;

/// One part of a form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub(crate) name: String,
    pub(crate) filename: Option<String>,
    pub(crate) content_type: Option<String>,
    pub(crate) content: Vec<u8>,
}

/// The `boundary` parameter of a `multipart/form-data` media type.
pub(crate) fn boundary(content_type: &str) -> Option<&str> {
    if !media::essence(content_type).eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    let value = media::parameter(content_type, "boundary")?;
    // RFC 2046 section 5.1.1: 1 to 70 characters.
    (!value.is_empty() && value.len() <= 70).then_some(value)
}

/// The parts of `body`, or `None` when it is not a well-formed multipart body with this
/// boundary (text before the first delimiter and after the last is ignored, as RFC 2046
/// says).
pub(crate) fn parse(body: &[u8], boundary: &str) -> Option<Vec<Part>> {
    let delimiter = format!("--{}", boundary);
    let delimiter = delimiter.as_bytes();
    let mut rest = &body[find(body, delimiter)? + delimiter.len()..];
    let mut parts = Vec::new();
    loop {
        if rest.starts_with(b"--") {
            return Some(parts);
        }
        rest = rest.strip_prefix(b"\r\n")?;
        let head_end = find(rest, b"\r\n\r\n")?;
        let head = std::str::from_utf8(&rest[..head_end]).ok()?;
        let after_head = &rest[head_end + 4..];
        let mut close = Vec::with_capacity(delimiter.len() + 2);
        close.extend_from_slice(b"\r\n");
        close.extend_from_slice(delimiter);
        let end = find(after_head, &close)?;
        parts.push(part(head, &after_head[..end])?);
        rest = &after_head[end + close.len()..];
    }
}

fn part(head: &str, content: &[u8]) -> Option<Part> {
    let mut part = Part {
        name: String::new(),
        filename: None,
        content_type: None,
        content: content.to_vec(),
    };
    let mut named = false;
    for line in head.split("\r\n") {
        let (field, value) = line.split_once(':')?;
        let field = field.trim();
        if field.eq_ignore_ascii_case("content-type") {
            part.content_type = Some(value.trim().to_string());
        } else if field.eq_ignore_ascii_case("content-disposition") {
            let (kind, params) = value.split_once(';').unwrap_or((value, ""));
            if !kind.trim().eq_ignore_ascii_case("form-data") {
                return None;
            }
            for (key, value) in params_of(params)? {
                match key.to_ascii_lowercase().as_str() {
                    "name" => {
                        part.name = value;
                        named = true;
                    }
                    "filename" => part.filename = Some(value),
                    _ => {}
                }
            }
        }
    }
    named.then_some(part)
}

/// `; key=value; key="quoted; value"` pairs: a quoted value runs to the next `"` (browsers
/// write a quote inside as `%22`, with no backslash escapes), and its escapes are undone.
fn params_of(mut rest: &str) -> Option<Vec<(String, String)>> {
    let mut params = Vec::new();
    loop {
        rest = rest.trim_start_matches([' ', '\t', ';']);
        if rest.is_empty() {
            return Some(params);
        }
        let (key, after) = rest.split_once('=')?;
        let after = after.trim_start();
        let (value, tail) = match after.strip_prefix('"') {
            Some(quoted) => {
                let end = quoted.find('"')?;
                (unescape(&quoted[..end]), &quoted[end + 1..])
            }
            None => {
                let end = after.find(';').unwrap_or(after.len());
                (after[..end].trim().to_string(), &after[end..])
            }
        };
        params.push((key.trim().to_string(), value));
        rest = tail;
    }
}

fn unescape(value: &str) -> String {
    value
        .replace("%22", "\"")
        .replace("%0D", "\r")
        .replace("%0A", "\n")
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    let first = needle[0];
    let mut from = 0;
    while let Some(offset) = hay[from..=hay.len() - needle.len()]
        .iter()
        .position(|&b| b == first)
    {
        let at = from + offset;
        if hay[at..].starts_with(needle) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries() {
        assert_eq!(boundary("multipart/form-data; boundary=abc"), Some("abc"));
        assert_eq!(
            boundary("Multipart/Form-Data;boundary=\"a b\""),
            Some("a b")
        );
        assert_eq!(boundary("multipart/mixed; boundary=abc"), None);
        assert_eq!(boundary("multipart/form-data"), None);
        assert_eq!(boundary("multipart/form-data; boundary="), None);
    }

    #[test]
    fn browser_body() {
        let body = b"------WebKitFormBoundaryq1\r\n\
Content-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\nthere\r\n\
------WebKitFormBoundaryq1\r\n\
Content-Disposition: form-data; name=\"doc\"; filename=\"a%22b.txt\"\r\n\
Content-Type: text/plain\r\n\r\n\r\n\
------WebKitFormBoundaryq1--\r\n";
        let parts = parse(body, "----WebKitFormBoundaryq1").unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].name, "title");
        assert_eq!(parts[0].content, b"Hello\r\nthere");
        assert_eq!(parts[0].filename, None);
        assert_eq!(parts[1].name, "doc");
        assert_eq!(parts[1].filename.as_deref(), Some("a\"b.txt"));
        assert_eq!(parts[1].content_type.as_deref(), Some("text/plain"));
        assert_eq!(parts[1].content, b"");
    }

    #[test]
    fn quoted_values_may_hold_semicolons() {
        let body = b"--b\r\nContent-Disposition: form-data; name=\"a;b\"; filename=\"x; y=z.txt\"\r\n\r\nv\r\n--b--";
        let parts = parse(body, "b").unwrap();
        assert_eq!(parts[0].name, "a;b");
        assert_eq!(parts[0].filename.as_deref(), Some("x; y=z.txt"));
        assert_eq!(
            params_of("name=plain; x=\"q\""),
            Some(vec![
                ("name".to_string(), "plain".to_string()),
                ("x".to_string(), "q".to_string()),
            ])
        );
        assert_eq!(params_of("name=\"open"), None);
    }

    #[test]
    fn malformed_bodies() {
        assert_eq!(parse(b"no delimiter", "b"), None);
        assert_eq!(
            parse(
                b"--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx",
                "b"
            ),
            None
        );
        assert_eq!(parse(b"--b\r\nX: y\r\n\r\nx\r\n--b--", "b"), None);
        assert_eq!(parse(b"--bxx", "b"), None);
        assert_eq!(parse(b"--b--", "b"), Some(Vec::new()));
    }
}
