//! The request head a server reads: the request line, the fields, and how the body is
//! framed (RFC 9112 sections 3, 5 and 6.3). Pure code over bytes; the field rules are the
//! response reader's ([`head`](super::head)).

use super::super::error::Malformed;
use super::super::headers::Headers;
use super::super::response::Version;
use super::head::{next_line, parse_field_line, Coding, FieldCount, Notes};

/// How a request's body is delimited (RFC 9112 section 6.3): a request without
/// `Content-Length` or `Transfer-Encoding` has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyFraming {
    /// `Content-Length` bytes (0 when neither field was sent).
    Length(u64),
    /// The chunked transfer coding.
    Chunked,
}

/// A parsed request head.
#[derive(Debug)]
pub(crate) struct RequestHead {
    pub method: String,
    pub target: String,
    pub version: Version,
    pub headers: Headers,
    pub framing: BodyFraming,
    /// Whether the connection may carry another request after this one (RFC 9112 section
    /// 9.3).
    pub persists: bool,
}

/// Why a head is refused, with the status the server answers (the connection is closed
/// after each: what follows a bad head cannot be framed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HeadProblem {
    /// 400: the request line or a field is not HTTP/1.1 syntax, `Host` is missing or
    /// repeated, or the framing fields contradict each other.
    Malformed(&'static str),
    /// 414: the request target is over its limit.
    TargetTooLong,
    /// 431: more fields than the limit.
    TooManyHeaders,
    /// 501: a transfer coding other than `chunked`.
    UnknownCoding,
    /// 505: an HTTP version other than 1.0 and 1.1.
    Version,
}

/// RFC 9112 section 3: `request-line = method SP request-target SP HTTP-version`, with the
/// method a token, the target in origin form (`/path?query`) or `*`, of visible ASCII
/// only; then the fields (section 5), at most `max_headers`, each checked as the client
/// checks a response's.
pub(crate) fn parse_request_head(
    head: &[u8],
    max_target: usize,
    max_headers: usize,
) -> Result<RequestHead, HeadProblem> {
    let (line, mut rest) =
        next_line(head).ok_or(HeadProblem::Malformed("the request line is missing"))?;
    let (method, target, version) = parse_request_line(line, max_target)?;
    let mut headers = Headers::with_capacity(head.len(), 16);
    let mut notes = Notes::default();
    let mut fields = FieldCount::new(max_headers);
    let mut hosts = 0usize;
    while let Some((line, tail)) = next_line(rest) {
        rest = tail;
        if line.is_empty() {
            break;
        }
        fields.add().map_err(|_| HeadProblem::TooManyHeaders)?;
        let (name, value) = parse_field_line(line, Malformed::HeaderLine)
            .map_err(|_| HeadProblem::Malformed("a header field is not valid"))?;
        notes.note(name, value);
        if name.eq_ignore_ascii_case("host") {
            hosts += 1;
        }
        let value = String::from_utf8_lossy(value);
        headers.push(name, &value, false);
    }
    // RFC 9112 section 3.2: a server responds 400 to an HTTP/1.1 request without a Host
    // field, or with more than one.
    if hosts > 1 || (hosts == 0 && version == Version::Http11) {
        return Err(HeadProblem::Malformed(
            "a request has exactly one Host field",
        ));
    }
    let framing = match (notes.coding, notes.content_length) {
        (Coding::Absent, None) => BodyFraming::Length(0),
        (Coding::Absent, Some(Ok(n))) => BodyFraming::Length(n),
        (Coding::Absent, Some(Err(_))) => {
            return Err(HeadProblem::Malformed("Content-Length is not one number"))
        }
        // Section 6.1: both fields is a smuggling attempt or a broken client; section 6.3:
        // either way the connection is closed.
        (_, Some(_)) => {
            return Err(HeadProblem::Malformed(
                "Transfer-Encoding and Content-Length together",
            ))
        }
        // Section 6.1: an HTTP/1.0 message with Transfer-Encoding has faulty framing.
        (Coding::Chunked, None) if version == Version::Http10 => {
            return Err(HeadProblem::Malformed("Transfer-Encoding in HTTP/1.0"))
        }
        (Coding::Chunked, None) => BodyFraming::Chunked,
        (Coding::Other, None) => return Err(HeadProblem::UnknownCoding),
    };
    let persists = match version {
        Version::Http11 => !notes.close,
        Version::Http10 => notes.keep_alive && !notes.close,
    };
    Ok(RequestHead {
        method,
        target,
        version,
        headers,
        framing,
        persists,
    })
}

fn parse_request_line(
    line: &[u8],
    max_target: usize,
) -> Result<(String, String, Version), HeadProblem> {
    let bad = HeadProblem::Malformed("the request line is not `METHOD TARGET HTTP/1.1`");
    let space = super::find_byte(line, b' ').ok_or(bad)?;
    let method = &line[..space];
    let rest = &line[space + 1..];
    if method.is_empty()
        || method.len() > super::super::MAX_METHOD_LEN
        || !super::super::headers::all_tchars(method)
    {
        return Err(bad);
    }
    // The target ends at the last space: a space inside it is refused below.
    let last = rest.iter().rposition(|&b| b == b' ').ok_or(bad)?;
    let target = &rest[..last];
    let version = match &rest[last + 1..] {
        b"HTTP/1.1" => Version::Http11,
        b"HTTP/1.0" => Version::Http10,
        [b'H', b'T', b'T', b'P', b'/', major, b'.', minor]
            if major.is_ascii_digit() && minor.is_ascii_digit() =>
        {
            return Err(HeadProblem::Version)
        }
        _ => return Err(bad),
    };
    if target.len() > max_target {
        return Err(HeadProblem::TargetTooLong);
    }
    let visible = target.iter().all(|&b| (0x21..=0x7e).contains(&b));
    if !visible || !(target.first() == Some(&b'/') || target == b"*") {
        return Err(bad);
    }
    // Tokens and visible ASCII: both are UTF-8.
    let method = String::from_utf8_lossy(method).into_owned();
    let target = String::from_utf8_lossy(target).into_owned();
    Ok((method, target, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<RequestHead, HeadProblem> {
        parse_request_head(text.as_bytes(), 64, 4)
    }

    #[test]
    fn a_typical_post() {
        let head = parse(
            "POST /mcp?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Length: 7\r\nAccept: */*\r\n\r\n",
        )
        .unwrap();
        assert_eq!(head.method, "POST");
        assert_eq!(head.target, "/mcp?x=1");
        assert_eq!(head.version, Version::Http11);
        assert_eq!(head.headers.get("host"), Some("127.0.0.1:8080"));
        assert_eq!(head.framing, BodyFraming::Length(7));
        assert!(head.persists);
    }

    #[test]
    fn framing_and_persistence() {
        let framing = |fields: &str| {
            parse(&format!("POST / HTTP/1.1\r\nHost: h\r\n{fields}\r\n")).map(|h| h.framing)
        };
        assert_eq!(framing(""), Ok(BodyFraming::Length(0)));
        assert_eq!(
            framing("Transfer-Encoding: chunked\r\n"),
            Ok(BodyFraming::Chunked)
        );
        assert_eq!(
            framing("Content-Length: 5\r\nContent-Length: 5\r\n"),
            Ok(BodyFraming::Length(5))
        );
        assert!(matches!(
            framing("Content-Length: 5\r\nContent-Length: 6\r\n"),
            Err(HeadProblem::Malformed(_))
        ));
        assert!(matches!(
            framing("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n"),
            Err(HeadProblem::Malformed(_))
        ));
        assert_eq!(
            framing("Transfer-Encoding: gzip, chunked\r\n"),
            Err(HeadProblem::UnknownCoding)
        );
        assert!(
            !parse("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
                .unwrap()
                .persists
        );
        assert!(!parse("GET / HTTP/1.0\r\n\r\n").unwrap().persists);
        assert!(
            parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                .unwrap()
                .persists
        );
    }

    #[test]
    fn refusals() {
        let cases: [(&str, HeadProblem); 4] = [
            ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", HeadProblem::Version),
            (
                "GET /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1\r\nHost: h\r\n\r\n",
                HeadProblem::TargetTooLong,
            ),
            (
                "GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n",
                HeadProblem::TooManyHeaders,
            ),
            (
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: identity\r\n\r\n",
                HeadProblem::UnknownCoding,
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text).unwrap_err(), want, "{text:?}");
        }
        for text in [
            "GET / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET /a b HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET http://x/ HTTP/1.1\r\nHost: h\r\n\r\n",
            "G(T / HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n",
            "GET / HTTP/1.1\r\nHost : h\r\n\r\n",
            "GET /\u{e9} HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET / http/1.1\r\nHost: h\r\n\r\n",
            "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            "\r\n\r\n",
        ] {
            assert!(
                matches!(parse(text), Err(HeadProblem::Malformed(_))),
                "{text:?}"
            );
        }
    }
}
