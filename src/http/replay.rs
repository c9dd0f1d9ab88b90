//! Reading a response held in memory with the client's own reader.
//!
//! The bytes go through the same code that reads a connection (`exchange.rs` over a
//! [`Conn`]), on a stream that holds them and then ends, so there is one reader to trust: a
//! second parser written for bytes in memory could disagree with the one on the wire.

use std::io::Cursor;
use std::net::{Ipv4Addr, SocketAddr};

use super::clock::Clock;
use super::config::{Config, Settings};
use super::conn::{Conn, Origin};
use super::error::Error;
use super::exchange::exchange;
use super::net::Stream;
use super::request::Request;
use super::response::Response;

/// Reads the response to `request` from `bytes`, exactly as a [`Client`](super::Client) with
/// `config` reads it from a connection the server closes after writing them: interim `1xx`
/// heads skipped, the body framed by the head (`Content-Length`, chunked with trailers, or up
/// to the end of `bytes`; none for `HEAD`, `204` and `304`), under `config`'s limits merged
/// with the request's options. Nothing is sent and no redirect is followed; bytes after the
/// response are not part of it (a client would close such a connection).
///
/// For a [`Transport`](super::Transport) that gets a response's bytes some other way (a
/// recording replayed in tests, another I/O layer), and for fuzzing the reader.
///
/// # Errors
///
/// What reading a connection would give: [`ErrorKind::Malformed`](super::ErrorKind::Malformed)
/// for bad syntax or framing, [`ErrorKind::LimitExceeded`](super::ErrorKind::LimitExceeded)
/// for a head, header count, line or body over its limit,
/// [`ErrorKind::IncompleteBody`](super::ErrorKind::IncompleteBody) when `bytes` end inside the
/// body, and [`ErrorKind::ConnectionClosed`](super::ErrorKind::ConnectionClosed) when they are
/// empty.
///
/// # Security
///
/// `bytes` may be anything: every size read is bounded by the limits, as on a connection.
///
/// # Examples
///
/// ```
/// use httptool::http::{read_response, Config, Request};
///
/// let request = Request::get("http://api.example.com/v1/items")?;
/// let bytes = b"HTTP/1.1 100 Continue\r\n\r\n\
///               HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
///               5\r\nhello\r\n0\r\nX-Trailer: 1\r\n\r\n";
/// let response = read_response(&request, bytes, &Config::default())?;
/// assert_eq!(response.status(), 200);
/// assert_eq!(response.body(), b"hello");
/// # Ok::<(), httptool::http::Error>(())
/// ```
pub fn read_response(request: &Request, bytes: &[u8], config: &Config) -> Result<Response, Error> {
    let settings = Settings::new(config, request.options());
    let clock = Clock::start(&config.time_source, settings.timeouts);
    let url = request.url();
    let origin = Origin {
        scheme: url.scheme(),
        host: url.host_str().to_string(),
        port: url.port_or_default(),
    };
    // No peer: nothing was connected to.
    let peer = SocketAddr::from((Ipv4Addr::UNSPECIFIED, 0));
    let stream = Stream::Memory(Cursor::new(bytes.to_vec()));
    let mut conn = Conn::new(stream, peer, origin);
    let reply = exchange(
        &mut conn,
        request.method(),
        &[],
        &settings.limits,
        &clock,
        None,
        None,
    )
    .map_err(|failure| failure.error)?;
    Ok(reply.into_response(url.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::{ErrorKind, Limit, Malformed, Method};

    fn read(method: Method, bytes: &[u8]) -> Result<Response, Error> {
        let request = Request::new(method, "http://api.example.com/x").unwrap();
        read_response(&request, bytes, &Config::default())
    }

    #[test]
    fn length_framed_body_stops_at_its_length() {
        let bytes = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n\r\n";
        let response = read(Method::Get, bytes).unwrap();
        assert_eq!(response.body(), b"ok");
        assert_eq!(response.bytes_read(), 40);
        assert_eq!(response.url().as_str(), "http://api.example.com/x");
    }

    #[test]
    fn unframed_body_runs_to_the_end_of_the_bytes() {
        let response = read(Method::Get, b"HTTP/1.0 200 OK\r\n\r\nall of it").unwrap();
        assert_eq!(response.body(), b"all of it");
    }

    #[test]
    fn head_has_no_body() {
        let bytes = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n";
        let response = read(Method::Head, bytes).unwrap();
        assert_eq!(response.header("content-length"), Some("5"));
        assert!(response.body().is_empty());
    }

    #[test]
    fn errors_are_those_of_a_connection() {
        let kind = |bytes: &[u8]| read(Method::Get, bytes).unwrap_err().kind();
        assert_eq!(kind(b""), ErrorKind::ConnectionClosed);
        assert_eq!(
            kind(b"HTTP/1.1 200"),
            ErrorKind::Malformed(Malformed::TruncatedHead)
        );
        assert_eq!(
            kind(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort"),
            ErrorKind::IncompleteBody {
                expected: Some(9),
                received: 5
            }
        );
        assert!(matches!(
            kind(b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n"),
            ErrorKind::LimitExceeded {
                which: Limit::Body,
                ..
            }
        ));
    }

    #[test]
    fn the_requests_options_set_the_limits() {
        use crate::http::RequestOptions;
        let request = Request::get("http://api.example.com/x")
            .unwrap()
            .with_options(RequestOptions::new().max_response_bytes(3));
        let bytes = b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nfour";
        let err = read_response(&request, bytes, &Config::default()).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::LimitExceeded {
                which: Limit::Body,
                ..
            }
        ));
    }
}
