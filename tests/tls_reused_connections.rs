//! Connection reuse over https: a pooled TLS connection with anything waiting
//! on it (decrypted bytes, or a record not yet whole) is not reused.

use std::io::Write;

use httptool::http::{Client, Config, Request, Transport};

use crate::support::steps::{steps, Test};
use crate::support::tls::{TlsPeer, TlsServer, CA, LOCALHOST};

const REAL_BALANCE: &str = r#"{"balance":100}"#;

fn trusting_test_root() -> Client {
    Client::with_config(
        Config::new()
            .add_root_certificates_pem(CA)
            .unwrap()
            .webpki_roots(false),
    )
}

/// Answers `DELETE` with 204, then (once the test says go) runs `stray` on the same
/// connection; answers anything else with the real balance.
fn server<F>(stray: F) -> (TlsServer, Test)
where
    F: Fn(&mut TlsPeer) + Send + Sync + 'static,
{
    let (steps, test) = steps();
    let server = TlsServer::start(LOCALHOST, move |mut peer| {
        // The stray bytes leave when written, not when the 204 is acknowledged.
        peer.stream.sock.set_nodelay(true).unwrap();
        while let Some(request) = peer.read_request() {
            if request.method == "DELETE" {
                peer.respond("204 No Content", "", "");
                steps.on_go(|| stray(&mut peer));
            } else {
                peer.respond("200 OK", "", REAL_BALANCE);
            }
        }
    });
    (server, test)
}

/// DELETE, the stray bytes, then GET: the GET must get the real answer.
fn delete_then_get(server: &TlsServer, test: &mut Test) {
    let client = trusting_test_root();
    let deleted = client
        .send(&Request::delete(&server.url("/things/1")).unwrap())
        .unwrap();
    assert_eq!(deleted.status(), 204);
    test.go_and_wait();
    let balance = client
        .send(&Request::get(&server.url("/balance")).unwrap())
        .unwrap();
    assert_eq!(String::from_utf8_lossy(balance.body()), REAL_BALANCE);
    // Sent once, on a new connection: the old one was not tried first.
    let gets: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.method == "GET")
        .collect();
    assert_eq!(
        gets.len(),
        1,
        "the GET went out on the stale connection first"
    );
    assert_eq!(gets[0].connection, 1);
    assert_eq!(server.connections(), 2);
}

#[test]
fn a_stray_response_on_a_reused_tls_connection_is_not_handed_to_the_next_call() {
    let (server, mut test) = server(|peer| {
        peer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 18\r\n\r\n{\"balance\":999999}");
    });
    delete_then_get(&server, &mut test);
}

#[test]
fn a_partial_tls_record_on_an_idle_connection_is_not_reused() {
    // The header of an application-data record announcing 64 bytes, and 10 of them: rustls
    // holds it, undecrypted, until the rest comes. The next response read on the connection
    // would begin with it.
    let (server, mut test) = server(|peer| {
        let mut record = vec![0x17, 0x03, 0x03, 0x00, 0x40];
        record.extend_from_slice(&[0u8; 10]);
        let _ = peer.stream.sock.write_all(&record);
    });
    delete_then_get(&server, &mut test);
}

#[test]
fn a_tls_record_header_alone_on_an_idle_connection_is_not_reused() {
    // Three bytes of a record header: not even its length is known yet.
    let (server, mut test) = server(|peer| {
        let _ = peer.stream.sock.write_all(&[0x17, 0x03, 0x03]);
    });
    delete_then_get(&server, &mut test);
}
