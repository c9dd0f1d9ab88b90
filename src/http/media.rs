//! Media types (`Content-Type`) and the file name of a `Content-Disposition`: the one place
//! that says what counts as JSON, a form or a file name, for every layer above `http`
//! (plugin results, the curl and OpenAPI importers). Pure: text in, values out.

/// The essence of a media type: the `type/subtype` before any parameter, trimmed, in the
/// case it was written (RFC 9110 section 8.3.1: compare it case-insensitively).
///
/// # Examples
///
/// ```
/// use httptool::http::media;
///
/// assert_eq!(media::essence("Application/JSON; charset=utf-8"), "Application/JSON");
/// ```
pub fn essence(media_type: &str) -> &str {
    media_type.split(';').next().unwrap_or("").trim()
}

/// The value of the parameter `name` (compared case-insensitively) of a media type, trimmed,
/// without the pair of quotes around a quoted string (RFC 9110 section 5.6.4); `None` when it
/// is absent.
///
/// # Examples
///
/// ```
/// use httptool::http::media;
///
/// assert_eq!(media::parameter("text/plain; Charset=\"latin1\"", "charset"), Some("latin1"));
/// assert_eq!(media::parameter("text/plain", "charset"), None);
/// ```
pub fn parameter<'a>(media_type: &'a str, name: &str) -> Option<&'a str> {
    let mut params = media_type.split(';');
    params.next();
    // A loop, not a closure given to `find_map`, which compiled its own copy of the iterator
    // code (build cost, see `design::performance`).
    for param in params {
        if let Some((key, value)) = param.split_once('=') {
            if key.trim().eq_ignore_ascii_case(name) {
                return Some(unquote(value.trim()));
            }
        }
    }
    None
}

/// `text` without one pair of surrounding double quotes, when it has them.
fn unquote(text: &str) -> &str {
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text)
}

/// Whether a media type is JSON, parameters ignored: `application/json`, `text/json`, or a
/// `type/name+json` type (`application/problem+json`, `application/vnd.api+json`).
///
/// This is the WHATWG MIME Sniffing Standard's "JSON MIME type" (section 4.6), which keeps
/// `text/json`: it is not registered, but older servers still send it for JSON bodies. The
/// `+json` suffix is RFC 6839 section 3.1's, and it needs a name before it (`application/+json`
/// and `+json` are not JSON).
///
/// # Examples
///
/// ```
/// use httptool::http::media;
///
/// assert!(media::is_json("application/json; charset=utf-8"));
/// assert!(media::is_json("text/json"));
/// assert!(media::is_json("application/merge-patch+json"));
/// assert!(!media::is_json("application/jsonl"));
/// ```
pub fn is_json(media_type: &str) -> bool {
    let essence = essence(media_type);
    let (kind, subtype) = match essence.split_once('/') {
        Some(parts) => parts,
        None => return false,
    };
    let suffixed = subtype.len() > "+json".len()
        && subtype
            .get(subtype.len() - "+json".len()..)
            .map_or(false, |s| s.eq_ignore_ascii_case("+json"));
    essence.eq_ignore_ascii_case("application/json")
        || essence.eq_ignore_ascii_case("text/json")
        || (!kind.is_empty() && suffixed)
}

/// Whether a media type is `application/x-www-form-urlencoded`, parameters ignored.
///
/// # Examples
///
/// ```
/// use httptool::http::media;
///
/// assert!(media::is_form("Application/X-WWW-Form-Urlencoded; charset=utf-8"));
/// assert!(!media::is_form("multipart/form-data"));
/// ```
pub fn is_form(media_type: &str) -> bool {
    essence(media_type).eq_ignore_ascii_case("application/x-www-form-urlencoded")
}

/// The file name a `Content-Disposition` value names (RFC 6266 section 4.3): `filename*`
/// (RFC 8187, percent-encoded UTF-8, invalid sequences replaced) over `filename`; `None`
/// when it names none.
///
/// # Security
///
/// The name is the server's text: it may hold path separators, `..` or control characters.
/// Show it (quoted); never use it as a path.
///
/// # Examples
///
/// ```
/// use httptool::http::media;
///
/// let header = "attachment; filename=\"a.txt\"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt";
/// assert_eq!(media::file_name(header).as_deref(), Some("résumé.txt"));
/// assert_eq!(media::file_name("inline"), None);
/// ```
pub fn file_name(content_disposition: &str) -> Option<String> {
    let mut plain = None;
    for param in content_disposition.split(';').skip(1) {
        let (name, value) = match param.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => continue,
        };
        if name.eq_ignore_ascii_case("filename*") {
            // RFC 8187 section 3.2.1: charset ' [ language ] ' value-chars.
            let encoded = value.splitn(3, '\'').nth(2)?;
            let decoded = crate::url::percent_decode(encoded);
            return Some(String::from_utf8_lossy(&decoded).into_owned());
        }
        if name.eq_ignore_ascii_case("filename") {
            plain = Some(unescape_quotes(value.trim_matches('"')));
        }
    }
    plain
}

/// `text` with each `\"` read as `"` (a quoted string's escaped quote), as
/// `text.replace("\\\"", "\"")` would, without compiling the standard library's substring
/// replacement for it (build cost, see `design::performance`).
fn unescape_quotes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(rest.get(..at).unwrap_or_default());
        let escaped_quote = rest.as_bytes().get(at + 1) == Some(&b'"');
        out.push(if escaped_quote { '"' } else { '\\' });
        rest = rest
            .get(at + 1 + usize::from(escaped_quote)..)
            .unwrap_or_default();
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_media_types() {
        for t in [
            "application/json",
            "Application/JSON; charset=utf-8",
            " application/json ",
            "application/problem+json",
            "application/vnd.api+json",
            "application/merge-patch+JSON",
            "text/json",
            "Text/JSON; charset=utf-8",
        ] {
            assert!(is_json(t), "{}", t);
        }
        for t in [
            "json",
            "+json",
            "application/+json",
            "/x+json",
            "text/json5",
            "application/jsonl",
            "application/x-ndjson",
            "text/plain",
            "application/json-seq",
            "",
        ] {
            assert!(!is_json(t), "{}", t);
        }
    }

    #[test]
    fn form_media_types() {
        assert!(is_form("application/x-www-form-urlencoded"));
        assert!(is_form(" APPLICATION/X-WWW-FORM-URLENCODED ;charset=utf-8"));
        assert!(!is_form("application/x-www-form-urlencoded-x"));
        assert!(!is_form("multipart/form-data"));
    }

    #[test]
    fn parameters() {
        assert_eq!(
            parameter("text/plain; charset=utf-8", "CHARSET"),
            Some("utf-8")
        );
        assert_eq!(
            parameter("text/plain;charset=\"utf-8\"", "charset"),
            Some("utf-8")
        );
        assert_eq!(parameter("text/plain; format=flowed", "charset"), None);
        assert_eq!(parameter("charset=utf-8", "charset"), None);
        // One pair of quotes is a quoted string; a lone quote is part of the value.
        assert_eq!(
            parameter("multipart/x; boundary=\"ab", "boundary"),
            Some("\"ab")
        );
        assert_eq!(
            parameter("multipart/x; boundary=\"\"", "boundary"),
            Some("")
        );
    }

    #[test]
    fn content_disposition_file_names() {
        let cases = [
            ("attachment; filename=\"report.pdf\"", Some("report.pdf")),
            ("attachment; filename=plain.txt", Some("plain.txt")),
            (
                "attachment; filename=\"q\\\"uote.txt\"",
                Some("q\"uote.txt"),
            ),
            (
                "attachment; filename=\"a.txt\"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt",
                Some("résumé.txt"),
            ),
            ("attachment; FILENAME*=utf-8'en'x%20y.txt", Some("x y.txt")),
            ("attachment; filename*=no-quotes", None),
            ("inline", None),
            ("", None),
        ];
        for (header, want) in cases {
            assert_eq!(file_name(header).as_deref(), want, "{}", header);
        }
    }

    #[test]
    fn escaped_quotes_read_as_replace_reads_them() {
        for text in [
            "",
            "\\",
            "\\\\",
            "\"",
            "\\\"",
            "\\\\\"",
            "a\\\"b\\\"c",
            "\\\\\"\"",
            "é\\\"ü\\",
            "trail\\",
        ] {
            assert_eq!(
                unescape_quotes(text),
                text.replace("\\\"", "\""),
                "{:?}",
                text
            );
        }
        assert_eq!(unescape_quotes("a\\\"b\\c"), "a\"b\\c");
    }
}
