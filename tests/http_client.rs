//! The client on the wire: what it writes, what it reads, and connection reuse.

use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use httptool::http::{
    Client, Config, ErrorKind, ManualTime, Method, Request, Secrets, Transport, Version,
    DEFAULT_USER_AGENT,
};

use crate::support::{ok, Server};

#[test]
fn get_writes_request_line_host_and_user_agent() {
    let server = Server::fixed(&ok("hi"));
    let client = Client::new();
    let response = client
        .send(&Request::get(&server.url("/a/b?x=1")).unwrap())
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.reason(), "OK");
    assert_eq!(response.version(), Version::Http11);
    assert_eq!(response.body(), b"hi");
    let sent = &server.requests()[0];
    assert_eq!(
        sent.head,
        format!(
            "GET /a/b?x=1 HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nUser-Agent: {DEFAULT_USER_AGENT}\r\n\r\n",
            server.port()
        )
    );
}

#[test]
fn post_sends_headers_in_order_and_content_length_body() {
    let server = Server::fixed(&ok("{}"));
    let request = Request::post(&server.url("/items"))
        .unwrap()
        .with_header("Content-Type", "application/json")
        .unwrap()
        .with_header("X-Two", "2")
        .unwrap()
        .with_body(r#"{"a":1}"#);
    Client::new().send(&request).unwrap();
    let sent = &server.requests()[0];
    assert!(
        sent.head.starts_with("POST /items HTTP/1.1\r\n"),
        "{}",
        sent.head
    );
    assert!(sent
        .head
        .ends_with("Content-Type: application/json\r\nX-Two: 2\r\nContent-Length: 7\r\n\r\n"));
    assert_eq!(sent.body, br#"{"a":1}"#);
}

#[test]
fn empty_post_sends_content_length_zero_and_get_sends_none() {
    let server = Server::fixed(&ok(""));
    let client = Client::new();
    client
        .send(&Request::post(&server.url("/")).unwrap())
        .unwrap();
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    let sent = server.requests();
    assert_eq!(sent[0].header("content-length").as_deref(), Some("0"));
    assert_eq!(sent[1].header("content-length"), None);
}

#[test]
fn own_user_agent_replaces_the_default_and_none_sends_none() {
    let server = Server::fixed(&ok(""));
    let request = Request::get(&server.url("/"))
        .unwrap()
        .with_header("User-Agent", "mine/1")
        .unwrap();
    Client::new().send(&request).unwrap();
    let quiet = Client::with_config(Config::new().user_agent(None));
    quiet
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    let sent = server.requests();
    assert_eq!(sent[0].header("user-agent").as_deref(), Some("mine/1"));
    assert_eq!(
        sent[0].head.matches("User-Agent").count() + sent[0].head.matches("user-agent").count(),
        1
    );
    assert_eq!(sent[1].header("user-agent"), None);
}

#[test]
fn keep_alive_reuses_one_connection() {
    let server = Server::fixed(&ok("x"));
    let client = Client::new();
    for _ in 0..5 {
        let response = client
            .send(&Request::get(&server.url("/")).unwrap())
            .unwrap();
        assert_eq!(response.body(), b"x");
    }
    assert_eq!(server.connections(), 1);
    assert_eq!(client.idle_connections(), 1);
}

#[test]
fn connection_close_is_not_reused() {
    let server =
        Server::fixed("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx");
    let client = Client::new();
    for _ in 0..3 {
        client
            .send(&Request::get(&server.url("/")).unwrap())
            .unwrap();
    }
    assert_eq!(server.connections(), 3);
    assert_eq!(client.idle_connections(), 0);
}

#[test]
fn request_connection_close_is_honoured() {
    let server = Server::fixed(&ok("x"));
    let client = Client::new();
    let request = Request::get(&server.url("/"))
        .unwrap()
        .with_header("Connection", "close")
        .unwrap();
    client.send(&request).unwrap();
    assert_eq!(client.idle_connections(), 0);
}

#[test]
fn pooling_can_be_turned_off() {
    let server = Server::fixed(&ok("x"));
    let client = Client::with_config(Config::new().max_idle_per_origin(0));
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(server.connections(), 2);
}

#[test]
fn idle_connections_expire() {
    // On the client's time: reused just under max_idle_age, not at it.
    let server = Server::fixed(&ok("x"));
    let time = ManualTime::new();
    let max_age = Duration::from_secs(15);
    let client = Client::with_config(
        Config::new()
            .max_idle_age(max_age)
            .time_source(time.clone()),
    );
    let get = || {
        client
            .send(&Request::get(&server.url("/")).unwrap())
            .unwrap()
    };
    get();
    time.advance(max_age - Duration::from_millis(1));
    get();
    assert_eq!(server.connections(), 1);
    time.advance(max_age);
    get();
    assert_eq!(server.connections(), 2);
}

#[test]
fn pool_keeps_at_most_max_idle_per_origin() {
    use std::sync::{Arc, Barrier};
    // Four requests in flight at once open four connections; two are kept.
    let barrier = Arc::new(Barrier::new(4));
    let server_barrier = barrier.clone();
    let server = Server::start(move |mut peer| {
        let mut first = true;
        while peer.read_request().is_some() {
            if first {
                server_barrier.wait();
                first = false;
            }
            peer.respond("200 OK", "", b"x");
        }
    });
    let client = Client::with_config(Config::new().max_idle_per_origin(2));
    let url = server.url("/");
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| client.send(&Request::get(&url).unwrap()).unwrap());
        }
    });
    assert_eq!(server.connections(), 4);
    assert_eq!(client.idle_connections(), 2);
}

#[test]
fn head_response_has_no_body_even_with_content_length() {
    let server = Server::replying(|r| {
        assert_eq!(r.method, "HEAD");
        b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".to_vec()
    });
    let client = Client::new();
    for _ in 0..2 {
        let response = client
            .send(&Request::head(&server.url("/")).unwrap())
            .unwrap();
        assert_eq!(response.header("content-length"), Some("1000"));
        assert!(response.body().is_empty());
    }
    assert_eq!(server.connections(), 1);
}

#[test]
fn no_body_for_204_and_304() {
    let server = Server::replying(|r| match r.target.as_str() {
        "/204" => b"HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n".to_vec(),
        _ => b"HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec(),
    });
    let client = Client::new();
    let r = client
        .send(&Request::get(&server.url("/204")).unwrap())
        .unwrap();
    assert_eq!((r.status(), r.body().len()), (204, 0));
    let r = client
        .send(&Request::get(&server.url("/304")).unwrap())
        .unwrap();
    assert_eq!((r.status(), r.body().len()), (304, 0));
    assert_eq!(server.connections(), 1);
}

#[test]
fn interim_100_responses_are_skipped() {
    let server = Server::fixed(
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\nX-A: 1\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
    );
    let response = Client::new()
        .send(&Request::post(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(response.status(), 201);
    assert_eq!(response.body(), b"ok");
    assert_eq!(response.header("x-a"), None);
}

#[test]
fn the_head_hook_hears_each_final_head_before_its_body() {
    // The hook tells the server each status; the server holds the final body until it hears
    // 200, so the response completes only if the hook ran before the body was read.
    let (heard, statuses) = mpsc::channel::<u16>();
    let statuses = Mutex::new(statuses);
    let server = Server::start(move |mut peer| {
        while let Some(request) = peer.read_request() {
            if request.target == "/a" {
                peer.respond("302 Found", "Location: /b\r\n", b"");
                continue;
            }
            peer.send("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n");
            let statuses = statuses.lock().unwrap();
            // A guard against a hook that never comes, not a timing: the connection then
            // closes short and the send fails.
            while let Ok(status) = statuses.recv_timeout(Duration::from_secs(30)) {
                if status == 200 {
                    peer.send("ok");
                    break;
                }
            }
        }
    });
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut request = Request::get(&server.url("/a")).unwrap();
    let (heard, hook_seen) = (Mutex::new(heard), seen.clone());
    request.on_head(Arc::new(move |status| {
        hook_seen.lock().unwrap().push(status);
        let _ = heard.lock().unwrap().send(status);
    }));
    let response = Client::new().send(&request).unwrap();
    assert_eq!((response.status(), response.body()), (200, &b"ok"[..]));
    // Once per final head, the redirect's included; the 100 is not one.
    assert_eq!(*seen.lock().unwrap(), [302, 200]);
}

#[test]
fn chunked_body_with_extensions_and_trailers() {
    let server = Server::fixed(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
         5;name=value\r\nhello\r\n1 ; a=\"b;c\"\r\n \r\n6\r\nworld!\r\n0\r\nX-Trailer: t\r\nX-Other: 2\r\n\r\n",
    );
    let client = Client::new();
    for _ in 0..2 {
        let response = client
            .send(&Request::get(&server.url("/")).unwrap())
            .unwrap();
        assert_eq!(response.body(), b"hello world!");
    }
    assert_eq!(server.connections(), 1);
}

#[test]
fn chunked_body_arriving_byte_by_byte() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        let reply = b"HTTP/1.1 200 OK\r\nX-Long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\nTransfer-Encoding: chunked\r\n\r\n\
                      3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: tttttttttttttttt\r\n\r\n";
        for b in reply.iter() {
            peer.write(&[*b]);
        }
    });
    let response = Client::new()
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(response.body(), b"abcde");
}

#[test]
fn large_bodies_of_each_framing() {
    let big: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    let body = big.clone();
    let server = Server::replying(move |r| {
        let mut out = Vec::new();
        match r.target.as_str() {
            "/length" => {
                out.extend_from_slice(
                    format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len()).as_bytes(),
                );
                out.extend_from_slice(&body);
            }
            _ => {
                out.extend_from_slice(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
                // A chunk larger than the client's buffer, then small ones.
                for piece in [&body[..100_000], &body[100_000..100_010], &body[100_010..]] {
                    out.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
                    out.extend_from_slice(piece);
                    out.extend_from_slice(b"\r\n");
                }
                out.extend_from_slice(b"0\r\n\r\n");
            }
        }
        out
    });
    let client = Client::new();
    for path in ["/length", "/chunked", "/length"] {
        let response = client
            .send(&Request::get(&server.url(path)).unwrap())
            .unwrap();
        assert!(response.body() == &big[..], "{path}");
    }
    assert_eq!(server.connections(), 1);
}

#[test]
fn http_1_0_body_is_read_to_close() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.send("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nall of this");
    });
    let client = Client::new();
    let response = client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(response.version(), Version::Http10);
    assert_eq!(response.body(), b"all of this");
    assert_eq!(client.idle_connections(), 0);
}

#[test]
fn http_1_0_keep_alive_with_length_is_reused() {
    let server =
        Server::fixed("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx");
    let client = Client::new();
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(server.connections(), 1);
}

#[test]
fn bare_lf_line_endings_are_read() {
    let server = Server::fixed("HTTP/1.1 200 OK\nContent-Length: 2\nX-A: b\n\nok");
    let response = Client::new()
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(response.body(), b"ok");
    assert_eq!(response.header("x-a"), Some("b"));
}

#[test]
fn non_2xx_is_a_response_with_its_body() {
    let server = Server::fixed("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found");
    let response = Client::new()
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(response.status(), 404);
    assert!(!response.is_success());
    assert_eq!(response.text().unwrap(), "not found");
}

#[test]
fn response_knows_its_url_and_bytes_read() {
    let reply = ok("12345");
    let server = Server::fixed(&reply);
    let url = server.url("/p?q=1");
    let response = Client::new().send(&Request::get(&url).unwrap()).unwrap();
    assert_eq!(response.url().as_str(), url);
    assert_eq!(response.bytes_read(), reply.len() as u64);
}

#[test]
fn header_injection_is_refused_before_anything_is_sent() {
    let server = Server::fixed(&ok(""));
    let mut request = Request::get(&server.url("/")).unwrap();
    for (name, value) in [
        ("X-A", "1\r\nX-Injected: 1"),
        ("X-A", "a\nb"),
        ("X-A", "a\0b"),
        ("X-A\r\nB", "1"),
        ("X A", "1"),
        ("", "1"),
    ] {
        let err = request.headers_mut().append(name, value).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::InvalidHeaderName | ErrorKind::InvalidHeaderValue
        ));
    }
    assert!(Request::get(&server.url("/"))
        .unwrap()
        .with_header("X", "a\rb")
        .is_err());
    // Nothing was added, so the request goes out clean.
    Client::new().send(&request).unwrap();
    assert!(!server.requests()[0].head.contains("Injected"));
    assert_eq!(server.connections(), 1);
}

#[test]
fn headers_the_client_writes_itself_are_refused_before_connecting() {
    let server = Server::fixed(&ok(""));
    for name in ["Host", "Content-Length", "transfer-encoding"] {
        let request = Request::post(&server.url("/"))
            .unwrap()
            .with_header(name, "5")
            .unwrap();
        let err = Client::new().send(&request).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ManagedHeader);
    }
    assert_eq!(server.connections(), 0);
}

#[test]
fn bad_user_agent_setting_is_refused_before_connecting() {
    let server = Server::fixed(&ok(""));
    let client = Client::with_config(Config::new().user_agent(Some("x\r\nInjected: 1")));
    let err = client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidHeaderValue);
    assert_eq!(server.connections(), 0);
}

#[test]
fn render_is_exactly_what_is_sent() {
    let server = Server::fixed(&ok(""));
    let mut request = Request::new(Method::Put, &server.url("/v1/x?api_key=k1&q=a%20b"))
        .unwrap()
        .with_header("Authorization", "Bearer tok")
        .unwrap()
        .with_sensitive_header("X-Api-Key", "k2")
        .unwrap()
        .with_header("Accept", "*/*")
        .unwrap()
        .with_body("payload");
    request.mark_query_secret("api_key");
    let client = Client::new();
    let revealed = client.render(&request, Secrets::Reveal).unwrap();
    client.send(&request).unwrap();
    assert_eq!(revealed, server.requests()[0].raw());
    let masked = String::from_utf8(client.render(&request, Secrets::Mask).unwrap()).unwrap();
    assert_eq!(
        masked,
        format!(
            "PUT /v1/x?api_key=***&q=a%20b HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nUser-Agent: {DEFAULT_USER_AGENT}\r\n\
             Authorization: ***\r\nX-Api-Key: ***\r\nAccept: */*\r\nContent-Length: 7\r\n\r\npayload",
            server.port()
        )
    );
    assert_eq!(request.render(Secrets::Reveal).unwrap(), revealed);
}

#[test]
fn request_display_and_debug_mask_secrets() {
    let request = Request::get("http://h/p?token=t0k&q=1")
        .unwrap()
        .with_secret_query("token")
        .with_header("Cookie", "sid=abc")
        .unwrap()
        .with_sensitive_header("X-Key", "k3y")
        .unwrap()
        .with_body("body-bytes");
    assert_eq!(request.to_string(), "GET http://h/p?token=***&q=1");
    let debug = format!("{request:?}");
    for secret in ["t0k", "abc", "k3y", "body-bytes"] {
        assert!(!debug.contains(secret), "{debug}");
    }
    assert!(debug.contains("body_len: 10"), "{debug}");
}

#[test]
fn custom_transport_can_stand_in_for_the_client() {
    use httptool::http::{Error, Response};
    use std::sync::Mutex;
    struct Recording(Mutex<Vec<String>>);
    impl Transport for Recording {
        fn send(&self, request: &Request) -> Result<Response, Error> {
            self.0.lock().unwrap().push(request.to_string());
            Ok(Response::new(200, request.url().clone()).with_body(b"canned".to_vec()))
        }
    }
    let recording = Recording(Mutex::new(Vec::new()));
    let transport: &dyn Transport = &recording;
    let response = transport
        .send(&Request::get("http://example.test/x").unwrap())
        .unwrap();
    assert_eq!(response.into_body(), b"canned");
    assert_eq!(recording.0.lock().unwrap()[0], "GET http://example.test/x");
    let shared: std::sync::Arc<dyn Transport> =
        std::sync::Arc::new(Recording(Mutex::new(Vec::new())));
    assert_eq!(
        shared
            .send(&Request::get("http://e.test/").unwrap())
            .unwrap()
            .status(),
        200
    );
}

#[cfg(not(feature = "tls"))]
#[test]
fn https_without_tls_names_the_feature() {
    let err = Client::new()
        .send(&Request::get("https://127.0.0.1:1/").unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TlsUnavailable);
    assert!(err.to_string().contains("`tls` feature"), "{err}");
}

#[test]
fn invalid_url_is_an_error_with_the_url_kind() {
    let err = Request::get("http://user@h/").unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::InvalidUrl(httptool::url::ErrorKind::Userinfo)
    );
    assert!(std::error::Error::source(&err).is_some());
}
