//! https through the `tls` feature against a rustls server on 127.0.0.1: trust, hostname
//! and validity checks with the exact messages, keep-alive, handshake failures, redirects.

use std::io::Read;
use std::net::TcpListener;
use std::thread;
use std::time::Duration;

use httptool::http::{
    CertificateProblem, Client, Config, ErrorKind, RedirectStop, Request, Timeout, Transport,
};

use crate::support::steps::steps;
use crate::support::tls::{TlsServer, CA, EXPIRED, LOCALHOST, OTHER_HOST, SELF_SIGNED};

/// A client trusting the test root only.
fn trusting_test_root() -> Client {
    Client::with_config(
        Config::new()
            .add_root_certificates_pem(CA)
            .unwrap()
            .webpki_roots(false),
    )
}

fn get(client: &Client, url: &str) -> Result<httptool::http::Response, httptool::http::Error> {
    client.send(&Request::get(url).unwrap())
}

#[test]
fn request_succeeds_when_the_test_root_is_added() {
    let server = TlsServer::ok(LOCALHOST, "hello over tls");
    let response = get(&trusting_test_root(), &server.url("/hello?q=1")).unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.body(), b"hello over tls");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].target, "/hello?q=1");
    assert_eq!(
        requests[0].header("host").as_deref(),
        Some(format!("localhost:{}", server.port()).as_str())
    );
    assert_eq!(requests[0].sni.as_deref(), Some("localhost"));
    assert_eq!(requests[0].alpn.as_deref(), Some(&b"http/1.1"[..]));
}

#[test]
fn the_test_root_works_beside_the_webpki_roots() {
    let server = TlsServer::ok(LOCALHOST, "ok");
    let client = Client::with_config(Config::new().add_root_certificates_pem(CA).unwrap());
    assert_eq!(get(&client, &server.url("/")).unwrap().body(), b"ok");
}

#[test]
fn ip_address_hosts_are_checked_against_ip_sans_and_get_no_sni() {
    let server = TlsServer::ok(LOCALHOST, "by address");
    let url = format!("https://127.0.0.1:{}/", server.port());
    assert_eq!(
        get(&trusting_test_root(), &url).unwrap().body(),
        b"by address"
    );
    // RFC 6066 section 3: no SNI for an address.
    assert_eq!(server.requests()[0].sni, None);
}

#[test]
fn self_signed_certificate_is_refused_without_it_added() {
    let server = TlsServer::ok(SELF_SIGNED, "never");
    let err = get(&Client::new(), &server.url("/")).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Certificate(CertificateProblem::UnknownIssuer)
    );
    assert_eq!(
        err.to_string(),
        format!(
            "certificate not trusted: it is self-signed or its issuer is not a trusted root \
             (add a private ca with `Config::add_root_certificates_pem`) (https://localhost:{}/)",
            server.port()
        )
    );
    assert!(server.requests().is_empty());
}

#[test]
fn self_signed_certificate_is_accepted_once_added_as_a_root() {
    let server = TlsServer::ok(SELF_SIGNED, "self-signed but trusted");
    let client = Client::with_config(
        Config::new()
            .add_root_certificates_pem(SELF_SIGNED)
            .unwrap()
            .webpki_roots(false),
    );
    assert_eq!(
        get(&client, &server.url("/")).unwrap().body(),
        b"self-signed but trusted"
    );
}

#[test]
fn certificate_from_the_test_root_is_refused_when_the_root_is_not_added() {
    let server = TlsServer::ok(LOCALHOST, "never");
    let err = get(&Client::new(), &server.url("/")).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Certificate(CertificateProblem::UnknownIssuer)
    );
    // The client told the server why.
    let seen = server.wait_for_handshake_error();
    assert!(seen[0].contains("UnknownCA"), "{seen:?}");
}

#[test]
fn hostname_mismatch_is_refused() {
    let server = TlsServer::ok(OTHER_HOST, "never");
    let err = get(&trusting_test_root(), &server.url("/")).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Certificate(CertificateProblem::HostnameMismatch)
    );
    assert_eq!(
        err.to_string(),
        format!(
            "certificate hostname mismatch: the server's certificate is not valid for the host \
             in the url (https://localhost:{}/)",
            server.port()
        )
    );
}

#[test]
fn address_missing_from_the_ip_sans_is_a_hostname_mismatch() {
    // other-host.pem names other.test only: 127.0.0.1 is not among its addresses.
    let server = TlsServer::ok(OTHER_HOST, "never");
    let url = format!("https://127.0.0.1:{}/", server.port());
    let err = get(&trusting_test_root(), &url).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Certificate(CertificateProblem::HostnameMismatch)
    );
}

#[test]
fn expired_certificate_is_refused() {
    let server = TlsServer::ok(EXPIRED, "never");
    let err = get(&trusting_test_root(), &server.url("/")).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Certificate(CertificateProblem::Expired)
    );
    assert_eq!(
        err.to_string(),
        format!(
            "certificate expired: the server's certificate is past its validity period \
             (or this machine's clock is wrong) (https://localhost:{}/)",
            server.port()
        )
    );
}

#[test]
fn keep_alive_reuses_one_tls_connection() {
    let server = TlsServer::ok(LOCALHOST, "again");
    let client = trusting_test_root();
    for _ in 0..2 {
        assert_eq!(get(&client, &server.url("/")).unwrap().body(), b"again");
    }
    assert_eq!(server.connections(), 1);
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests.iter().all(|r| r.connection == 0));
    assert_eq!(client.idle_connections(), 1);
}

#[test]
fn a_connection_the_server_closed_while_idle_is_not_reused() {
    // One response per connection, then close_notify (when the test says `go`, and the
    // test goes on once it was sent): the pooled connection is stale.
    let (steps, mut test) = steps();
    let server = TlsServer::start(LOCALHOST, move |mut peer| {
        if peer.read_request().is_some() {
            peer.stream.sock.set_nodelay(true).unwrap();
            peer.respond("200 OK", "", "once");
            steps.on_go(|| peer.close());
        }
    });
    let client = trusting_test_root();
    for _ in 0..2 {
        let response = get(&client, &server.url("/")).unwrap();
        assert_eq!(response.body(), b"once");
        test.go_and_wait();
    }
    assert_eq!(server.connections(), 2);
}

#[test]
fn http_and_https_to_the_same_host_and_port_are_pooled_apart() {
    let server = TlsServer::ok(LOCALHOST, "tls");
    let client = trusting_test_root();
    get(&client, &server.url("/")).unwrap();
    // The pooled TLS connection must not carry a plain http request to the same port.
    let plain = format!("http://localhost:{}/", server.port());
    assert!(get(&client, &plain).is_err());
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_server_that_closes_mid_handshake_is_a_handshake_error() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = thread::spawn(move || {
        for _ in 0..2 {
            let (mut sock, _) = listener.accept().unwrap();
            // Read the ClientHello, then hang up.
            let mut hello = [0u8; 4096];
            let _ = sock.read(&mut hello);
        }
    });
    let url = format!("https://localhost:{port}/");
    let err = get(&trusting_test_root(), &url).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TlsHandshake);
    assert_eq!(
        err.to_string(),
        format!(
            "tls handshake failed: the server closed the connection during the handshake \
             (https://localhost:{port}/)"
        )
    );
    // A second try, to free the server thread.
    let _ = get(&trusting_test_root(), &url);
    server.join().unwrap();
}

#[test]
fn a_server_that_never_answers_the_handshake_times_out_as_connecting() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = thread::spawn(move || {
        let (mut sock, _) = listener.accept().unwrap();
        // Never answer: read the ClientHello and on to the end, which comes when the client
        // gives up and closes (or after 10 s, so a broken test cannot hang).
        sock.set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let _ = sock.read_to_end(&mut Vec::new());
    });
    let client = Client::with_config(
        Config::new()
            .add_root_certificates_pem(CA)
            .unwrap()
            .timeout_connect(Duration::from_millis(300)),
    );
    let err = get(&client, &format!("https://localhost:{port}/")).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Timeout {
            which: Timeout::Connect,
            after: Duration::from_millis(300)
        }
    );
    server.join().unwrap();
}

#[test]
fn redirect_from_https_to_http_is_still_refused() {
    let plain = crate::support::Server::fixed(&crate::support::ok("downgraded"));
    let location = plain.url("/");
    let server = TlsServer::start(LOCALHOST, move |mut peer| {
        while peer.read_request().is_some() {
            peer.respond("302 Found", &format!("Location: {location}\r\n"), "");
        }
    });
    let response = get(&trusting_test_root(), &server.url("/")).unwrap();
    assert_eq!(response.status(), 302);
    assert_eq!(response.redirect_stop(), Some(RedirectStop::Downgrade));
    assert_eq!(plain.connections(), 0);
}

#[test]
fn redirect_from_https_to_https_is_followed() {
    let target = TlsServer::ok(LOCALHOST, "landed");
    let location = target.url("/there");
    let server = TlsServer::start(LOCALHOST, move |mut peer| {
        while peer.read_request().is_some() {
            peer.respond(
                "301 Moved Permanently",
                &format!("Location: {location}\r\n"),
                "",
            );
        }
    });
    let response = get(&trusting_test_root(), &server.url("/here")).unwrap();
    assert_eq!(response.body(), b"landed");
    assert_eq!(response.url().as_str(), target.url("/there"));
}

#[test]
fn bad_root_pem_is_an_error_that_says_why() {
    let cases: [(&str, &[u8], &str); 4] = [
        (
            "not pem",
            b"hello",
            "invalid root certificate: the pem holds no `BEGIN CERTIFICATE` section",
        ),
        (
            "key only",
            crate::support::tls::SERVER_KEY,
            "invalid root certificate: the pem holds no `BEGIN CERTIFICATE` section",
        ),
        (
            "no end line",
            b"-----BEGIN CERTIFICATE-----\nMIIB\n",
            "invalid root certificate: invalid pem: a section has no `END` line",
        ),
        (
            "bad base64",
            b"-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n",
            "invalid root certificate: invalid pem: a section is not valid base64",
        ),
    ];
    for (name, pem, want) in cases {
        let err = Config::new().add_root_certificates_pem(pem).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidRootCertificate, "{name}");
        assert_eq!(err.to_string(), want, "{name}");
    }
}

#[test]
fn a_certificate_that_cannot_be_parsed_is_named_by_its_position() {
    let mut pem = CA.to_vec();
    pem.extend_from_slice(b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    let err = Config::new().add_root_certificates_pem(&pem).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRootCertificate);
    let message = err.to_string();
    assert!(
        message.starts_with(
            "invalid root certificate: certificate 2 of the pem is not a usable root: "
        ),
        "{message}"
    );
}

#[test]
fn config_debug_counts_roots_without_printing_them() {
    let config = Config::new()
        .add_root_certificates_pem(CA)
        .unwrap()
        .add_root_certificates_pem(SELF_SIGNED)
        .unwrap();
    let debug = format!("{config:?}");
    assert!(
        debug.contains("trust: Trust { added_roots: 2, webpki_roots: true }"),
        "{debug}"
    );
}

#[test]
fn a_body_ending_with_the_connection_needs_close_notify() {
    // RFC 9112 section 9.8: without close_notify the end of the body cannot be trusted.
    let clean = TlsServer::start(LOCALHOST, |mut peer| {
        if peer.read_request().is_some() {
            peer.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nwhole");
            peer.close();
        }
    });
    let response = get(&trusting_test_root(), &clean.url("/")).unwrap();
    assert_eq!(response.body(), b"whole");

    let cut = TlsServer::start(LOCALHOST, |mut peer| {
        if peer.read_request().is_some() {
            peer.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nwho");
            // Dropped without close_notify: only the TCP connection ends.
        }
    });
    let err = get(&trusting_test_root(), &cut.url("/")).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::IncompleteBody {
            expected: None,
            received: 3
        }
    );
    assert_eq!(
        err.to_string(),
        format!(
            "the connection ended uncleanly (a reset, or tls without close_notify) after 3 body \
             bytes of a body that ends with the connection: it may be cut short \
             (https://localhost:{}/)",
            cut.port()
        )
    );
}
