//! What a pooled connection is reused for, and what is sent again: a stray response waiting
//! on a reused connection is never handed to the next call (the connection is dropped), an
//! upload the server refused early or cut off is sent once, and a GET on a stale pooled
//! connection is still retried.

use std::io::Read;
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use httptool::http::{Client, ErrorKind, Request, Transport};
use httptool::plugin::HttpPlugin;
use httptool::tool::{ToolCall, ToolRegistry};

use crate::support::steps::{steps, Test};
use crate::support::{Peer, Server};

const STRAY: &str = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 19\r\n\r\n{\"balance\":999999}\n";
const REAL_BALANCE: &str = r#"{"balance":100}"#;

/// Answers `DELETE` with 204 and then, on the same connection, writes a second response
/// nobody asked for, once the client has read the 204 (the steps); answers `GET /balance`
/// with the real balance.
fn server_with_a_late_stray_response() -> (Server, Test) {
    let (steps, test) = steps();
    let server = Server::start(move |mut peer: Peer| {
        // The stray bytes leave when written, not when the 204 is acknowledged.
        peer.stream.set_nodelay(true).unwrap();
        while let Some(request) = peer.read_request() {
            if request.method == "DELETE" {
                peer.send("HTTP/1.1 204 No Content\r\n\r\n");
                steps.on_go(|| peer.send(STRAY));
            } else {
                peer.respond(
                    "200 OK",
                    "Content-Type: application/json\r\n",
                    REAL_BALANCE.as_bytes(),
                );
            }
        }
    });
    (server, test)
}

#[test]
fn a_stray_response_on_a_reused_connection_is_not_handed_to_the_next_call() {
    let (server, mut test) = server_with_a_late_stray_response();
    let client = Client::new();
    let deleted = client
        .send(&Request::delete(&server.url("/things/1")).unwrap())
        .unwrap();
    assert_eq!(deleted.status(), 204);
    test.go_and_wait();
    let balance = client
        .send(&Request::get(&server.url("/balance")).unwrap())
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(balance.body()),
        REAL_BALANCE,
        "the stray bytes were read as the answer"
    );
    // The connection holding the stray bytes was closed; the GET went on a new one.
    assert_eq!(server.connections(), 2);
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[1].connection, 1);
}

#[test]
fn a_stray_response_on_a_reused_connection_is_not_handed_to_the_next_tool_call() {
    // The issue's report: a plugin's deleteThing got 204, the server wrote a 200 with
    // another balance 30 ms later, and the next getBalance returned it as success.
    let (server, mut test) = server_with_a_late_stray_response();
    let plugin = HttpPlugin::from_json(&format!(
        r#"{{"name": "bank", "base_url": "{}", "endpoints": [
            {{"name": "deleteThing", "method": "DELETE", "path": "/things/{{id}}",
              "params": [{{"name": "id", "in": "path", "required": true}}]}},
            {{"name": "getBalance", "method": "GET", "path": "/balance"}}]}}"#,
        server.base()
    ))
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let deleted = registry.call(&ToolCall::new("call_1", "deleteThing", r#"{"id":"7"}"#));
    assert!(!deleted.is_error(), "{}", deleted.text());
    test.go_and_wait();
    let balance = registry.call(&ToolCall::new("call_2", "getBalance", "{}"));
    assert!(!balance.is_error(), "{}", balance.text());
    assert_eq!(balance.text(), REAL_BALANCE);
    assert_eq!(server.connections(), 2);
}

#[test]
fn a_head_response_followed_by_body_bytes_closes_the_connection() {
    // RFC 9110 section 9.3.2: a response to HEAD has no content. Bytes after its head are
    // framing garbage; a connection holding them is never reused.
    let (steps, mut test) = steps();
    let server = Server::start(move |mut peer: Peer| {
        peer.stream.set_nodelay(true).unwrap();
        while let Some(request) = peer.read_request() {
            if request.method == "HEAD" {
                peer.send("HTTP/1.1 200 OK\r\nContent-Length: 19\r\n\r\n");
                steps.on_go(|| peer.send("{\"balance\":999999}\n"));
            } else {
                peer.respond("200 OK", "", REAL_BALANCE.as_bytes());
            }
        }
    });
    let client = Client::new();
    let head = client
        .send(&Request::head(&server.url("/balance")).unwrap())
        .unwrap();
    assert_eq!((head.status(), head.body().len()), (200, 0));
    test.go_and_wait();
    let got = client
        .send(&Request::get(&server.url("/balance")).unwrap())
        .unwrap();
    assert_eq!(String::from_utf8_lossy(got.body()), REAL_BALANCE);
    assert_eq!(server.connections(), 2);
}

#[test]
fn a_stray_response_is_not_handed_to_the_next_non_idempotent_call() {
    // POST was always probed; the same rule holds for it, whatever the method.
    let (server, mut test) = server_with_a_late_stray_response();
    let client = Client::new();
    client
        .send(&Request::delete(&server.url("/things/1")).unwrap())
        .unwrap();
    test.go_and_wait();
    let posted = client
        .send(
            &Request::post(&server.url("/balance"))
                .unwrap()
                .with_body("x"),
        )
        .unwrap();
    assert_eq!(String::from_utf8_lossy(posted.body()), REAL_BALANCE);
    assert_eq!(server.connections(), 2);
}

/// 32 MiB: far more than the socket buffers of both ends hold, so the client is still
/// writing when the server gives up.
const UPLOAD: usize = 32 << 20;

/// Reads the request head (and whatever body bytes came with it) off the raw stream.
fn read_head(stream: &mut TcpStream) -> Vec<u8> {
    let mut seen = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.extend_from_slice(&chunk[..n]),
        }
    }
    seen
}

#[test]
fn an_upload_the_server_refused_early_is_sent_once_and_its_answer_returned() {
    // The server answers 413 after the head and closes without reading the body: the close
    // resets the connection, and the client's write fails with the 413 already received.
    let heads = Arc::new(AtomicUsize::new(0));
    let seen = heads.clone();
    let server = Server::start(move |mut peer: Peer| {
        let head = read_head(&mut peer.stream);
        if head.starts_with(b"PUT ") {
            seen.fetch_add(1, Ordering::SeqCst);
        }
        peer.send("HTTP/1.1 413 Content Too Large\r\nContent-Length: 13\r\n\r\nbody too big\n");
        // Dropped with the body unread: the kernel answers the client with a reset.
    });
    let request = Request::put(&server.url("/upload"))
        .unwrap()
        .with_body(vec![b'x'; UPLOAD]);
    let response = Client::new().send(&request).unwrap();
    assert_eq!(response.status(), 413);
    assert_eq!(response.body(), b"body too big\n");
    assert_eq!(heads.load(Ordering::SeqCst), 1);
    assert_eq!(server.connections(), 1, "the upload was sent again");
}

#[test]
fn an_upload_cut_off_mid_body_is_not_sent_again() {
    // The server reads the head and part of the body, then resets the connection without
    // answering: the request may have been acted on, so it is an error, never a retry.
    let server = Server::start(|mut peer: Peer| {
        let mut taken = read_head(&mut peer.stream).len();
        let mut chunk = [0u8; 16 * 1024];
        while taken < 256 * 1024 {
            match peer.stream.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => taken += n,
            }
        }
        // Dropped with most of the body unread: a reset.
    });
    let request = Request::put(&server.url("/upload"))
        .unwrap()
        .with_body(vec![b'x'; UPLOAD]);
    let err = Client::new().send(&request).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ConnectionClosed, "{err}");
    assert_eq!(server.connections(), 1, "the upload was sent again");
}

#[test]
fn a_stale_pooled_connection_is_still_retried_for_get() {
    // The server reads the second request on the pooled connection and closes it without a
    // response byte (an idle timeout racing the request): nothing was answered, so GET
    // goes once more on a new connection.
    let server = Server::start(|mut peer: Peer| {
        let mut served = 0;
        while peer.read_request().is_some() {
            served += 1;
            if peer.index == 0 && served == 2 {
                return;
            }
            peer.respond("200 OK", "", b"ok");
        }
    });
    let client = Client::new();
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    let again = client
        .send(&Request::get(&server.url("/again")).unwrap())
        .unwrap();
    assert_eq!(again.body(), b"ok");
    assert_eq!(server.connections(), 2);
}
