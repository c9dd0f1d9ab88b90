//! The request head as it goes on the wire (RFC 9112 sections 3 and 5). Pure code: the same
//! function writes what is sent and what a dry run shows.

use super::super::error::{Error, ErrorKind};
use super::super::headers::{all_value_bytes, Headers};
use super::super::method::Method;
use crate::quote::MASK;

/// Headers the client writes itself: a caller-supplied one could contradict the URL or the
/// body's real length (request smuggling), so setting one is an error.
const MANAGED: [&str; 3] = ["host", "content-length", "transfer-encoding"];

/// Everything that goes into a request head.
pub(crate) struct RequestHead<'a> {
    pub method: Method,
    /// Origin form (`/path?query`), or absolute form through a proxy.
    pub target: &'a str,
    /// `host[:port]` for the `Host` header.
    pub host: &'a str,
    /// Sent when `headers` has no `User-Agent`.
    pub user_agent: Option<&'a str>,
    pub headers: &'a Headers,
    /// The proxy's credentials, through a proxy.
    pub proxy_authorization: Option<&'a str>,
    /// The body's length, when a `Content-Length` is sent.
    pub content_length: Option<usize>,
}

/// Refuses what must not be sent: headers the client manages, an unusable `User-Agent`.
pub(crate) fn check(head: &RequestHead<'_>) -> Result<(), Error> {
    for (name, _) in head.headers.iter() {
        if MANAGED.iter().any(|m| m.eq_ignore_ascii_case(name)) {
            return Err(Error::new(ErrorKind::ManagedHeader).with_detail(format!("'{name}'")));
        }
    }
    if let Some(agent) = head.user_agent {
        if !all_value_bytes(agent.as_bytes()) {
            return Err(Error::new(ErrorKind::InvalidHeaderValue).with_detail("\"User-Agent\""));
        }
    }
    Ok(())
}

fn field(out: &mut Vec<u8>, name: &str, value: &str) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b": ");
    out.extend_from_slice(value.as_bytes());
    out.extend_from_slice(b"\r\n");
}

/// Appends `n` in decimal.
fn push_decimal(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Writes the head, in this order: request line, `Host`, `User-Agent` (unless the request has
/// one), the request's headers as given, `Proxy-Authorization` (through a proxy),
/// `Content-Length`, and the empty line. With `mask`, sensitive values are written `***`
/// (the target is masked by the caller).
///
/// RFC 9112 section 3: `request-line = method SP request-target SP HTTP-version`; section 3.2:
/// a client sends `Host` in every HTTP/1.1 request.
pub(crate) fn write_head(out: &mut Vec<u8>, head: &RequestHead<'_>, mask: bool) {
    out.extend_from_slice(head.method.as_str().as_bytes());
    out.push(b' ');
    out.extend_from_slice(head.target.as_bytes());
    out.extend_from_slice(b" HTTP/1.1\r\n");
    field(out, "Host", head.host);
    if let Some(agent) = head.user_agent {
        if !head.headers.contains("user-agent") {
            field(out, "User-Agent", agent);
        }
    }
    for (name, value, sensitive) in head.headers.iter_marked() {
        field(out, name, if mask && sensitive { MASK } else { value });
    }
    if let Some(auth) = head.proxy_authorization {
        field(out, "Proxy-Authorization", if mask { MASK } else { auth });
    }
    if let Some(n) = head.content_length {
        out.extend_from_slice(b"Content-Length: ");
        push_decimal(out, n);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
}

/// Writes the `CONNECT` request asking a proxy for a tunnel to `authority`, `host:port` with
/// the port always written: `Host` (RFC 9110 section 7.2), `User-Agent` when one is
/// configured, and the proxy's credentials. Nothing of the request itself (its headers,
/// its target) goes to the proxy.
///
/// RFC 9110 section 9.3.6; RFC 9112 section 3.2.3: `authority-form = uri-host ":" port`.
#[cfg(feature = "tls")]
pub(crate) fn write_connect(
    out: &mut Vec<u8>,
    authority: &str,
    user_agent: Option<&str>,
    proxy_authorization: Option<&str>,
) {
    out.extend_from_slice(b"CONNECT ");
    out.extend_from_slice(authority.as_bytes());
    out.extend_from_slice(b" HTTP/1.1\r\n");
    field(out, "Host", authority);
    if let Some(agent) = user_agent {
        field(out, "User-Agent", agent);
    }
    if let Some(auth) = proxy_authorization {
        field(out, "Proxy-Authorization", auth);
    }
    out.extend_from_slice(b"\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "tls")]
    #[test]
    fn connect_head() {
        let cases: [(&str, Option<&str>, Option<&str>, &str); 3] = [
            (
                "localhost:8443",
                None,
                None,
                "CONNECT localhost:8443 HTTP/1.1\r\nHost: localhost:8443\r\n\r\n",
            ),
            (
                "[::1]:443",
                Some("agent/1"),
                None,
                "CONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\nUser-Agent: agent/1\r\n\r\n",
            ),
            (
                "api.example.com:443",
                None,
                Some("Basic dTpw"),
                "CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\
                 Proxy-Authorization: Basic dTpw\r\n\r\n",
            ),
        ];
        for (authority, agent, auth, want) in cases {
            let mut out = Vec::new();
            write_connect(&mut out, authority, agent, auth);
            assert_eq!(String::from_utf8(out).unwrap(), want, "{authority}");
        }
    }

    #[test]
    fn decimal() {
        for n in [0usize, 7, 10, 65_535, usize::MAX] {
            let mut out = Vec::new();
            push_decimal(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
        }
    }

    #[test]
    fn head_layout_and_masking() {
        let mut headers = Headers::new();
        headers.append("Accept", "application/json").unwrap();
        headers.append("Authorization", "Bearer t").unwrap();
        headers.append_sensitive("X-Key", "k").unwrap();
        let head = RequestHead {
            method: Method::Post,
            target: "/v1/items?x=1",
            host: "example.com:8080",
            user_agent: Some("agent/1"),
            headers: &headers,
            proxy_authorization: Some("Basic abc"),
            content_length: Some(12),
        };
        check(&head).unwrap();
        let mut out = Vec::new();
        write_head(&mut out, &head, false);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "POST /v1/items?x=1 HTTP/1.1\r\nHost: example.com:8080\r\nUser-Agent: agent/1\r\n\
             Accept: application/json\r\nAuthorization: Bearer t\r\nX-Key: k\r\n\
             Proxy-Authorization: Basic abc\r\nContent-Length: 12\r\n\r\n"
        );
        let mut out = Vec::new();
        write_head(&mut out, &head, true);
        let masked = String::from_utf8(out).unwrap();
        assert!(masked.contains("Authorization: ***\r\nX-Key: ***\r\nProxy-Authorization: ***\r\n"));
        assert!(!masked.contains("Bearer"));
    }

    #[test]
    fn own_user_agent_wins_and_managed_headers_are_refused() {
        let mut headers = Headers::new();
        headers.append("user-agent", "mine").unwrap();
        let head = RequestHead {
            method: Method::Get,
            target: "/",
            host: "h",
            user_agent: Some("default"),
            headers: &headers,
            proxy_authorization: None,
            content_length: None,
        };
        let mut out = Vec::new();
        write_head(&mut out, &head, false);
        assert_eq!(
            out,
            b"GET / HTTP/1.1\r\nHost: h\r\nuser-agent: mine\r\n\r\n"
        );
        for name in ["Host", "content-length", "Transfer-Encoding"] {
            let mut managed = Headers::new();
            managed.append(name, "1").unwrap();
            let with_managed = RequestHead {
                headers: &managed,
                ..head
            };
            assert_eq!(
                check(&with_managed).unwrap_err().kind(),
                ErrorKind::ManagedHeader
            );
        }
        let bad_agent = RequestHead {
            user_agent: Some("bad\r\nX: y"),
            ..head
        };
        assert_eq!(
            check(&bad_agent).unwrap_err().kind(),
            ErrorKind::InvalidHeaderValue
        );
    }
}
