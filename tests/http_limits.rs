//! Every limit just under and just over, asserting the exact error kind, with the limit set per
//! request and on the client.

use httptool::http::{
    Client, Config, Error, ErrorKind, Limit, Method, Request, RequestOptions, Response, Secrets,
    Transport,
};

use crate::support::Server;

fn get(server: &Server, path: &str, options: RequestOptions) -> Result<Response, Error> {
    let request = Request::get(&server.url(path))
        .unwrap()
        .with_options(options);
    Client::new().send(&request)
}

fn exceeded(result: Result<Response, Error>) -> (Limit, u64, u64) {
    match result {
        Ok(r) => panic!(
            "succeeded with status {} and {} body bytes",
            r.status(),
            r.body().len()
        ),
        Err(e) => match e.kind() {
            ErrorKind::LimitExceeded { which, max, seen } => (which, max, seen),
            other => panic!("{other:?}: {e}"),
        },
    }
}

fn with_length(body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn chunked(body: &[u8], chunk: usize) -> Vec<u8> {
    let mut out = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for piece in body.chunks(chunk) {
        out.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        out.extend_from_slice(piece);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

#[test]
fn max_body_with_content_length() {
    let server = Server::replying(|r| with_length(&vec![b'a'; r.target[1..].parse().unwrap()]));
    let limit = || RequestOptions::new().max_response_bytes(1000);
    assert_eq!(get(&server, "/1000", limit()).unwrap().body().len(), 1000);
    assert_eq!(
        exceeded(get(&server, "/1001", limit())),
        (Limit::Body, 1000, 1001)
    );
}

#[test]
fn max_body_is_checked_before_reading_a_declared_length() {
    // The server declares a huge body and sends nothing: the limit fires at once, nothing is
    // allocated for it, and no partial body is returned.
    let server = Server::fixed("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n");
    assert_eq!(
        exceeded(get(&server, "/", RequestOptions::new())),
        (
            Limit::Body,
            httptool::http::DEFAULT_MAX_RESPONSE_BYTES as u64,
            u64::MAX
        )
    );
    let server = Server::fixed("HTTP/1.1 200 OK\r\nContent-Length: 10485761\r\n\r\n");
    assert_eq!(
        exceeded(get(&server, "/", RequestOptions::new())).2,
        10_485_761
    );
}

#[test]
fn max_body_with_chunked() {
    let server = Server::replying(|r| chunked(&vec![b'a'; r.target[1..].parse().unwrap()], 300));
    let limit = || RequestOptions::new().max_response_bytes(1000);
    assert_eq!(get(&server, "/1000", limit()).unwrap().body().len(), 1000);
    assert_eq!(
        exceeded(get(&server, "/1001", limit())),
        (Limit::Body, 1000, 1001)
    );
}

#[test]
fn max_body_read_to_close() {
    let server = Server::start(|mut peer| {
        let r = peer.read_request().unwrap();
        let n: usize = r.target[1..].parse().unwrap();
        peer.send("HTTP/1.0 200 OK\r\n\r\n");
        peer.write(&vec![b'a'; n]);
    });
    let limit = || RequestOptions::new().max_response_bytes(1000);
    assert_eq!(get(&server, "/1000", limit()).unwrap().body().len(), 1000);
    let (which, max, seen) = exceeded(get(&server, "/1001", limit()));
    assert_eq!((which, max), (Limit::Body, 1000));
    assert!(seen > 1000);
}

#[test]
fn endless_chunked_body_hits_max_body() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        let chunk = format!("400\r\n{}\r\n", "z".repeat(1024));
        // Until the client hangs up.
        while peer.stream_write(chunk.as_bytes()) {}
    });
    let options = RequestOptions::new().max_response_bytes(64 * 1024);
    let (which, max, seen) = exceeded(get(&server, "/", options));
    assert_eq!((which, max), (Limit::Body, 64 * 1024));
    assert_eq!(seen, 64 * 1024 + 1024);
}

/// `Peer::write` ignores errors; this one reports them so a server loop can end.
trait StreamWrite {
    fn stream_write(&mut self, bytes: &[u8]) -> bool;
}

impl StreamWrite for crate::support::Peer {
    fn stream_write(&mut self, bytes: &[u8]) -> bool {
        use std::io::Write;
        self.stream.write_all(bytes).is_ok()
    }
}

#[test]
fn max_head() {
    // A head of exactly n bytes: status line, one padding field, the empty line.
    let server = Server::replying(|r| {
        let n: usize = r.target[1..].parse().unwrap();
        let fixed = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: \r\n\r\n".len();
        format!(
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: {}\r\n\r\n",
            "p".repeat(n - fixed)
        )
        .into_bytes()
    });
    let limit = || RequestOptions::new().max_head(2000);
    assert!(get(&server, "/2000", limit()).is_ok());
    assert_eq!(
        exceeded(get(&server, "/2001", limit())),
        (Limit::Head, 2000, 2001)
    );
}

#[test]
fn oversized_header_block_that_never_ends() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.send("HTTP/1.1 200 OK\r\n");
        let field = format!("X-Flood: {}\r\n", "f".repeat(1000));
        while peer.stream_write(field.as_bytes()) {}
    });
    let (which, max, seen) = exceeded(get(&server, "/", RequestOptions::new()));
    assert_eq!((which, max), (Limit::Head, 64 * 1024));
    assert!(seen > 64 * 1024);
}

#[test]
fn max_head_counts_interim_responses() {
    let server =
        Server::fixed("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    let total = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".len();
    assert!(get(&server, "/", RequestOptions::new().max_head(total)).is_ok());
    let (which, max, _) = exceeded(get(&server, "/", RequestOptions::new().max_head(total - 1)));
    assert_eq!((which, max), (Limit::Head, total as u64 - 1));
}

#[test]
fn max_headers() {
    let server = Server::replying(|r| {
        let n: usize = r.target[1..].parse().unwrap();
        let mut head = String::from("HTTP/1.1 200 OK\r\n");
        for i in 1..n {
            head.push_str(&format!("X-{i}: v\r\n"));
        }
        head.push_str("Content-Length: 0\r\n\r\n");
        head.into_bytes()
    });
    assert_eq!(
        get(&server, "/100", RequestOptions::new())
            .unwrap()
            .headers()
            .len(),
        100
    );
    assert_eq!(
        exceeded(get(&server, "/101", RequestOptions::new())),
        (Limit::Headers, 100, 101)
    );
    let limit = || RequestOptions::new().max_headers(3);
    assert!(get(&server, "/3", limit()).is_ok());
    assert_eq!(
        exceeded(get(&server, "/4", limit())),
        (Limit::Headers, 3, 4)
    );
}

#[test]
fn max_status_line() {
    // A status line of exactly n bytes (without CRLF).
    let server = Server::replying(|r| {
        let n: usize = r.target[1..].parse().unwrap();
        let reason = "r".repeat(n - "HTTP/1.1 200 ".len());
        format!("HTTP/1.1 200 {reason}\r\nContent-Length: 0\r\n\r\n").into_bytes()
    });
    let limit = || RequestOptions::new().max_status_line(100);
    assert!(get(&server, "/100", limit()).is_ok());
    assert_eq!(
        exceeded(get(&server, "/101", limit())),
        (Limit::StatusLine, 100, 101)
    );
    assert!(get(&server, "/8192", RequestOptions::new()).is_ok());
    assert_eq!(
        exceeded(get(&server, "/8193", RequestOptions::new())).0,
        Limit::StatusLine
    );
}

#[test]
fn status_line_that_never_ends() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.send("HTTP/1.1 200 ");
        while peer.stream_write(&[b'x'; 512]) {}
    });
    let (which, max, seen) = exceeded(get(
        &server,
        "/",
        RequestOptions::new().max_status_line(1000),
    ));
    assert_eq!((which, max), (Limit::StatusLine, 1000));
    assert!(seen > 1000);
}

#[test]
fn max_chunk_line() {
    // A chunk-size line of exactly n bytes: "1;" and an extension.
    let server = Server::replying(|r| {
        let n: usize = r.target[1..].parse().unwrap();
        let ext = "e".repeat(n - 2);
        format!("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;{ext}\r\nx\r\n0\r\n\r\n")
            .into_bytes()
    });
    let limit = || RequestOptions::new().max_chunk_line(64);
    assert_eq!(get(&server, "/64", limit()).unwrap().body(), b"x");
    assert_eq!(
        exceeded(get(&server, "/65", limit())),
        (Limit::ChunkLine, 64, 65)
    );
    assert!(get(&server, "/1024", RequestOptions::new()).is_ok());
    assert_eq!(
        exceeded(get(&server, "/1025", RequestOptions::new())),
        (Limit::ChunkLine, 1024, 1025)
    );
}

#[test]
fn max_request_target_is_checked_before_sending() {
    let server = Server::fixed(&crate::support::ok(""));
    // "/" and 99 more bytes: a target of exactly 100.
    let at = server.url(&format!("/{}", "a".repeat(99)));
    let over = server.url(&format!("/{}", "a".repeat(100)));
    let options = RequestOptions::new().max_request_target(100);
    let client = Client::new();
    assert!(client
        .send(&Request::get(&at).unwrap().with_options(options.clone()))
        .is_ok());
    let err = client
        .send(&Request::get(&over).unwrap().with_options(options))
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::LimitExceeded {
            which: Limit::RequestTarget,
            max: 100,
            seen: 101
        }
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn limits_set_on_the_client_apply_and_requests_override_them() {
    let server = Server::fixed(&String::from_utf8(with_length(&[b'a'; 500])).unwrap());
    let client = Client::with_config(Config::new().max_response_bytes(499));
    let err = client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::LimitExceeded {
            which: Limit::Body,
            max: 499,
            seen: 500
        }
    );
    let request = Request::get(&server.url("/"))
        .unwrap()
        .with_options(RequestOptions::new().max_response_bytes(500));
    assert_eq!(client.send(&request).unwrap().body().len(), 500);
}

#[test]
fn limit_error_names_the_setting_and_what_was_seen() {
    let server = Server::fixed(&String::from_utf8(with_length(&[b'a'; 11])).unwrap());
    let err = get(
        &server,
        "/x?secret=1",
        RequestOptions::new().max_response_bytes(10),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the response body exceeds max_response_bytes of 10 bytes: 11 bytes seen ({})",
            server.url("/x")
        )
    );
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
