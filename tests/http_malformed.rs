//! Servers that break HTTP/1.1: every case is an error of the right kind, never a partial
//! success, and the connection is not reused afterwards.

use httptool::http::{Client, ErrorKind, Malformed, Request, Transport};

use crate::support::Server;

/// Sends `reply` to the first request, then answers the next ones properly, so a reused
/// connection would be noticed.
fn kind_for(reply: &'static str) -> ErrorKind {
    let server = Server::start(move |mut peer| {
        let mut first = peer.index == 0;
        while peer.read_request().is_some() {
            if first {
                peer.send(reply);
                first = false;
            } else {
                peer.respond("200 OK", "", b"fine");
            }
        }
    });
    let client = Client::new();
    let err = client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap_err();
    // The next request works, on a new connection.
    let next = client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(next.body(), b"fine");
    assert_eq!(server.connections(), 2, "the broken connection was reused");
    err.kind()
}

fn malformed(reply: &'static str) -> Malformed {
    match kind_for(reply) {
        ErrorKind::Malformed(m) => m,
        other => panic!("{other:?}"),
    }
}

#[test]
fn malformed_status_lines() {
    assert_eq!(malformed("HTTP/1.1 OK\r\n\r\n"), Malformed::StatusLine);
    assert_eq!(malformed("HTTP/1.1 2000 OK\r\n\r\n"), Malformed::StatusLine);
    assert_eq!(malformed("ICY 200 OK\r\n\r\n"), Malformed::StatusLine);
    assert_eq!(malformed("\r\n\r\n"), Malformed::StatusLine);
    assert_eq!(malformed("HTTP/2 200\r\n\r\n"), Malformed::StatusLine);
    assert_eq!(malformed("HTTP/2.0 200 OK\r\n\r\n"), Malformed::Version);
}

#[test]
fn malformed_header_lines() {
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nBroken\r\n\r\n"),
        Malformed::HeaderLine
    );
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nA : b\r\n\r\n"),
        Malformed::HeaderLine
    );
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n"),
        Malformed::ObsFold
    );
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nA: b\u{1}c\r\n\r\n"),
        Malformed::HeaderValue
    );
}

#[test]
fn malformed_framing() {
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc"),
        Malformed::ConflictingContentLength
    );
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n"),
        Malformed::ContentLength
    );
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n"),
        Malformed::TransferEncodingWithContentLength
    );
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nxx"),
        Malformed::UnknownTransferCoding
    );
}

#[test]
fn bad_chunk_size() {
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"),
        Malformed::ChunkSize
    );
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n\r\n"),
        Malformed::ChunkSize
    );
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n"),
        Malformed::ChunkEnd
    );
    assert_eq!(
        malformed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n"),
        Malformed::Trailer
    );
}

/// Sends `reply` and closes the connection.
fn closing(reply: &'static [u8]) -> ErrorKind {
    let server = Server::start(move |mut peer| {
        peer.read_request();
        peer.write(reply);
    });
    Client::new()
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap_err()
        .kind()
}

#[test]
fn content_length_longer_than_what_arrives() {
    assert_eq!(
        closing(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this"),
        ErrorKind::IncompleteBody {
            expected: Some(100),
            received: 9
        }
    );
}

#[test]
fn connection_closed_mid_chunked_body() {
    assert_eq!(
        closing(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n10\r\nhalf"),
        ErrorKind::IncompleteBody {
            expected: None,
            received: 9
        }
    );
    assert_eq!(
        closing(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"),
        ErrorKind::IncompleteBody {
            expected: None,
            received: 5
        }
    );
    assert_eq!(
        closing(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n"),
        ErrorKind::IncompleteBody {
            expected: None,
            received: 5
        }
    );
}

#[test]
fn connection_closed_mid_head() {
    assert_eq!(
        closing(b"HTTP/1.1 200 OK\r\nContent-Le"),
        ErrorKind::Malformed(Malformed::TruncatedHead)
    );
}

#[test]
fn connection_closed_before_any_response() {
    // Idempotent, so tried twice; both connections are dropped.
    let server = Server::start(|mut peer| {
        peer.read_request();
    });
    let err = Client::new()
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ConnectionClosed);
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn large_body_cut_short_is_an_error_not_a_partial_success() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.send("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n");
        peer.write(&vec![b'a'; 300_000]);
    });
    let err = Client::new()
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::IncompleteBody {
            expected: Some(1_000_000),
            received: 300_000
        }
    );
}
