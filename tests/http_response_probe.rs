//! A probe of the response reader against a misbehaving loopback server: each case is a clear
//! error or the right result, never a hang (short timeouts), and never one response's bytes
//! given to the next call on a reused connection. Cases already covered elsewhere (malformed
//! lines in `http_malformed`, limits in `http_limits`, late stray responses in
//! `http_reused_connections`, timeouts in `http_timeouts`) are not repeated.

use std::time::Duration;

use httptool::http::{
    Client, Config, Error, ErrorKind, Limit, Request, Response, Timeout, Transport,
};

use crate::support::Server;

const SHORT: Duration = Duration::from_millis(300);

/// A client whose every wait is short, so a case that would hang fails fast instead.
fn client() -> Client {
    Client::with_config(
        Config::new()
            .timeout_read(SHORT)
            .timeout_call(Duration::from_secs(5)),
    )
}

fn get(client: &Client, server: &Server, path: &str) -> Result<Response, Error> {
    client.send(&Request::get(&server.url(path)).unwrap())
}

/// Answers `/first` with `reply` (raw bytes, on a keep-alive connection) and anything else
/// with `200 fine`, so a second response read from the first one's leftovers is seen.
fn first_then_fine(reply: &'static [u8]) -> Server {
    Server::start(move |mut peer| {
        while let Some(request) = peer.read_request() {
            if request.target == "/first" {
                peer.write(reply);
            } else {
                peer.respond("200 OK", "", b"fine");
            }
        }
    })
}

/// The second call gets its own answer, whatever the first left on its connection.
fn second_is_fine(client: &Client, server: &Server) {
    let next = get(client, server, "/second").unwrap();
    assert_eq!(next.status(), 200);
    assert_eq!(next.body(), b"fine");
}

#[test]
fn interim_responses_with_headers_are_skipped_and_the_connection_reused() {
    let server = first_then_fine(
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n\
          HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
    );
    let client = client();
    let first = get(&client, &server, "/first").unwrap();
    assert_eq!((first.status(), first.body()), (200, &b"ok"[..]));
    assert_eq!(
        first.header("link"),
        None,
        "an interim head's fields leaked"
    );
    second_is_fine(&client, &server);
    assert_eq!(server.connections(), 1);
}

#[test]
fn a_body_longer_than_content_length_is_not_given_to_the_next_call() {
    let server = first_then_fine(
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok\
          HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nforged",
    );
    let client = client();
    assert_eq!(get(&client, &server, "/first").unwrap().body(), b"ok");
    second_is_fine(&client, &server);
    assert_eq!(server.connections(), 2);
}

#[test]
fn a_no_content_response_with_a_body_is_not_given_to_the_next_call() {
    for reply in [
        &b"HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nhello"[..],
        &b"HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
            [..],
    ] {
        let reply: &'static [u8] = reply;
        let server = first_then_fine(reply);
        let client = client();
        let first = get(&client, &server, "/first").unwrap();
        assert!(first.body().is_empty());
        second_is_fine(&client, &server);
        assert_eq!(server.connections(), 2);
    }
}

#[test]
fn a_response_without_a_length_is_read_to_the_close_and_its_connection_not_reused() {
    let server = Server::start(|mut peer| {
        while let Some(request) = peer.read_request() {
            if request.target == "/first" {
                peer.send("HTTP/1.1 200 OK\r\n\r\nuntil the close");
                return;
            }
            peer.respond("200 OK", "", b"fine");
        }
    });
    let client = client();
    let first = get(&client, &server, "/first").unwrap();
    assert_eq!(first.body(), b"until the close");
    assert_eq!(client.idle_connections(), 0);
    second_is_fine(&client, &server);
    assert_eq!(server.connections(), 2);
}

#[test]
fn a_response_without_a_length_on_a_connection_left_open_is_a_timeout_not_a_hang() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.send("HTTP/1.1 200 OK\r\n\r\nand the server never closes");
        peer.wait_for_close();
    });
    let err = get(&client(), &server, "/").unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Timeout {
            which: Timeout::Read,
            after: SHORT
        }
    );
}

#[test]
fn a_body_shorter_than_content_length_on_a_connection_left_open_is_a_timeout() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.send("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
        peer.wait_for_close();
    });
    let err = get(&client(), &server, "/").unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Timeout {
            which: Timeout::Read,
            after: SHORT
        }
    );
}

#[test]
fn a_length_framed_body_ends_at_its_length_without_waiting_for_the_close() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.send("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 4\r\n\r\ndone");
        peer.wait_for_close();
    });
    let response = get(&client(), &server, "/").unwrap();
    assert_eq!(response.body(), b"done");
}

#[test]
fn chunk_extensions_and_trailers_are_dropped_and_the_connection_reused() {
    let server = first_then_fine(
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
          3;name=\"x; y\"\r\nabc\r\n2\nde\n0\nExpires: never\r\nX-Checksum: 1\n\r\n",
    );
    let client = client();
    let first = get(&client, &server, "/first").unwrap();
    assert_eq!(first.body(), b"abcde");
    assert_eq!(first.header("expires"), None, "a trailer became a header");
    second_is_fine(&client, &server);
    assert_eq!(server.connections(), 1);
}

#[test]
fn one_header_line_longer_than_max_head_is_a_limit_error() {
    let mut reply = b"HTTP/1.1 200 OK\r\nX-Long: ".to_vec();
    reply.extend(std::iter::repeat(b'a').take(100_000));
    reply.extend_from_slice(b"\r\nContent-Length: 0\r\n\r\n");
    let reply: &'static [u8] = Box::leak(reply.into_boxed_slice());
    let server = first_then_fine(reply);
    let client = client();
    let err = get(&client, &server, "/first").unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::LimitExceeded {
                which: Limit::Head,
                ..
            }
        ),
        "{err}"
    );
    second_is_fine(&client, &server);
}

#[test]
fn switching_protocols_to_a_plain_request_is_final_and_its_connection_not_reused() {
    let server = first_then_fine(
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n\
          \x81\x05hello",
    );
    let client = client();
    let first = get(&client, &server, "/first").unwrap();
    assert_eq!(first.status(), 101);
    assert!(first.body().is_empty());
    second_is_fine(&client, &server);
    assert_eq!(server.connections(), 2);
}

#[test]
fn an_http10_keep_alive_response_with_a_length_is_reused() {
    let server = Server::start(|mut peer| {
        while peer.read_request().is_some() {
            peer.send("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 4\r\n\r\nfine");
        }
    });
    let client = client();
    assert_eq!(get(&client, &server, "/a").unwrap().body(), b"fine");
    assert_eq!(get(&client, &server, "/b").unwrap().body(), b"fine");
    assert_eq!(server.connections(), 1);
}
