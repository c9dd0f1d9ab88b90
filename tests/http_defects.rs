//! Regression tests for the HTTP client defects of issue 10, each named for its defect:
//! a stray response on a reused connection handed to the next call, an upload the server
//! refused early sent twice with its answer lost, and a dry run checking other limits than
//! the send.

use std::io::Read;
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use httptool::http::{
    Client, Config, ErrorKind, Limit, Method, Request, RequestOptions, Secrets, Transport,
};
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

/// Whether a dry run (`Client::render`) and a send of the same request agree, and what
/// they said: `Ok` or the limit error.
fn dry_run_and_send(
    client: &Client,
    server: &Server,
    target_len: usize,
    per_request: Option<usize>,
) -> (Result<(), Limit>, Result<(), Limit>) {
    // "/" followed by 'a's: a target of exactly `target_len` bytes.
    let path = format!("/{}", "a".repeat(target_len - 1));
    let mut request = Request::new(Method::Get, &server.url(&path)).unwrap();
    if let Some(max) = per_request {
        request = request.with_options(RequestOptions::new().max_request_target(max));
    }
    let verdict = |e: httptool::http::Error| match e.kind() {
        ErrorKind::LimitExceeded { which, .. } => which,
        other => panic!("not a limit: {other:?}"),
    };
    let rendered = client
        .render(&request, Secrets::Mask)
        .map(drop)
        .map_err(verdict);
    let sent = client.send(&request).map(drop).map_err(verdict);
    (rendered, sent)
}

#[test]
fn a_dry_run_and_a_send_check_the_same_request_target_limit() {
    let server = Server::fixed(&crate::support::ok("ok"));
    let client = Client::with_config(Config::new().max_request_target(100));
    let over = Err(Limit::RequestTarget);
    // (target length, per-request limit, verdict): both sides of each boundary.
    let cases = [
        (100, None, Ok(())),
        (101, None, over),
        (150, Some(150), Ok(())),
        (151, Some(150), over),
        (50, Some(50), Ok(())),
        (51, Some(50), over),
        (80, Some(50), over),
    ];
    for (len, per_request, want) in cases {
        let (rendered, sent) = dry_run_and_send(&client, &server, len, per_request);
        assert_eq!(
            rendered, want,
            "dry run, target {len}, limit {per_request:?}"
        );
        assert_eq!(sent, want, "send, target {len}, limit {per_request:?}");
    }
    // Only the requests within their limit reached the server.
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn a_request_renders_with_its_own_request_target_limit() {
    // `Request::render` (a default client's dry run) honours the request's options too.
    let url = format!("http://127.0.0.1:9/{}", "a".repeat(199));
    let request = Request::get(&url).unwrap();
    let small = request
        .clone()
        .with_options(RequestOptions::new().max_request_target(199));
    let err = small.render(Secrets::Mask).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::LimitExceeded {
            which: Limit::RequestTarget,
            max: 199,
            seen: 200
        }
    );
    assert!(request.render(Secrets::Mask).is_ok());
}
