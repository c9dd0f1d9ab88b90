//! The HTTP/1.1 server against hostile clients on real loopback sockets: oversized heads and
//! bodies, slow clients, bad framing, pipelining, too many connections. Each is refused with
//! its status and the connection closed, and the server goes on serving the next client.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use httptool::http::{read_request, HttpServer, ServerConfig, ServerRequest, ServerResponse};

use crate::support::rng::Rng;

/// A server on a free loopback port that echoes the method, path and body length.
fn start(config: ServerConfig) -> SocketAddr {
    let server = HttpServer::bind("127.0.0.1:0", config).unwrap();
    let addr = server.local_addr().unwrap();
    thread::spawn(move || {
        server.serve(|request: &ServerRequest| {
            let text = format!(
                "{} {} {}",
                request.method(),
                request.path(),
                request.body().len()
            );
            ServerResponse::with_content(200, "text/plain", text.into_bytes())
        })
    });
    addr
}

/// Writes `bytes`, then reads until the server closes (or 5 s pass).
fn exchange(addr: SocketAddr, bytes: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let _ = stream.write_all(bytes);
    read_to_close(&mut stream)
}

fn read_to_close(stream: &mut TcpStream) -> String {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn status(answer: &str) -> u16 {
    answer
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {:?}", answer))
}

/// The server still answers a well-formed request.
fn still_serves(addr: SocketAddr) {
    let answer = exchange(
        addr,
        b"POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
    );
    assert_eq!(status(&answer), 200, "{}", answer);
    assert!(answer.ends_with("POST /ok 3"), "{}", answer);
}

#[test]
fn a_request_is_answered_and_the_connection_kept_alive() {
    let addr = start(ServerConfig::new());
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    for i in 0..3 {
        stream
            .write_all(b"GET /a?b=c HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let mut buf = [0u8; 1024];
        let n = stream.read(&mut buf).unwrap();
        let answer = String::from_utf8_lossy(&buf[..n]);
        assert!(
            answer.starts_with("HTTP/1.1 200 OK\r\n") && answer.ends_with("\r\n\r\nGET /a 0"),
            "request {}: {}",
            i,
            answer
        );
        assert!(!answer.contains("Connection: close"), "{}", answer);
    }
}

#[test]
fn a_chunked_body_is_read_whole() {
    let addr = start(ServerConfig::new());
    let answer = exchange(
        addr,
        b"POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\
          3;ext=1\r\nabc\r\n4\r\ndefg\r\n0\r\nTrailer: t\r\n\r\n",
    );
    assert!(answer.ends_with("POST /c 7"), "{}", answer);
}

#[test]
fn an_oversized_head_is_431_and_the_next_client_is_served() {
    let addr = start(ServerConfig::new());
    let mut request = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ".to_vec();
    request.extend(std::iter::repeat(b'a').take(100 * 1024));
    request.extend_from_slice(b"\r\n\r\n");
    let answer = exchange(addr, &request);
    assert_eq!(status(&answer), 431, "{}", answer);
    assert!(answer.contains("Connection: close"), "{}", answer);
    let mut many = b"GET / HTTP/1.1\r\nHost: x\r\n".to_vec();
    for i in 0..101 {
        many.extend_from_slice(format!("X-{}: 1\r\n", i).as_bytes());
    }
    many.extend_from_slice(b"\r\n");
    assert_eq!(status(&exchange(addr, &many)), 431);
    still_serves(addr);
}

#[test]
fn a_body_over_the_limit_is_413_without_being_read() {
    let addr = start(ServerConfig::new().max_body(1024));
    let started = Instant::now();
    // 100 MB declared, none sent: refused from the head alone.
    let answer = exchange(
        addr,
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\n\r\n",
    );
    assert_eq!(status(&answer), 413, "{}", answer);
    assert!(started.elapsed() < Duration::from_secs(2));
    // Under Expect: 100-continue, no 100 is sent for a body that will be refused.
    let answer = exchange(
        addr,
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\nExpect: 100-continue\r\n\r\n",
    );
    assert_eq!(status(&answer), 413, "{}", answer);
    let mut chunked = b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for _ in 0..3 {
        chunked.extend_from_slice(b"200\r\n");
        chunked.extend(std::iter::repeat(b'z').take(512));
        chunked.extend_from_slice(b"\r\n");
    }
    assert_eq!(status(&exchange(addr, &chunked)), 413);
    // Just at the limit is read.
    let mut at_limit =
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\nConnection: close\r\n\r\n".to_vec();
    at_limit.extend(std::iter::repeat(b'y').take(1024));
    assert!(exchange(addr, &at_limit).ends_with("POST / 1024"));
    still_serves(addr);
}

#[test]
fn malformed_framing_is_refused_with_its_status() {
    let addr = start(ServerConfig::new());
    let cases: [(&[u8], u16); 9] = [
        (b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXY0\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        (b"GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        (b"GET / HTTP/1.1\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: x\r\n folded: y\r\n\r\n", 400),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400),
    ];
    for (request, want) in cases {
        let answer = exchange(addr, request);
        assert_eq!(
            status(&answer),
            want,
            "{:?}: {}",
            String::from_utf8_lossy(request),
            answer
        );
        assert!(answer.contains("Connection: close"), "{}", answer);
    }
    let mut long_target = b"GET /".to_vec();
    long_target.extend(std::iter::repeat(b'a').take(9000));
    long_target.extend_from_slice(b" HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(status(&exchange(addr, &long_target)), 414);
    still_serves(addr);
}

#[test]
fn a_slow_client_gets_408_at_its_deadline() {
    let addr = start(
        ServerConfig::new()
            .timeout_head(Duration::from_millis(300))
            .timeout_body(Duration::from_millis(300)),
    );
    // Slowloris: a byte of head every 100 ms, never the end; the answer is read as it comes.
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut writer = stream.try_clone().unwrap();
    let started = Instant::now();
    thread::spawn(move || {
        for &b in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaa" {
            if writer.write_all(&[b]).is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(100));
        }
    });
    let answer = read_to_close(&mut stream);
    assert_eq!(status(&answer), 408, "{}", answer);
    assert!(started.elapsed() < Duration::from_secs(3));
    // A body that stops arriving.
    let started = Instant::now();
    let answer = exchange(
        addr,
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc",
    );
    assert_eq!(status(&answer), 408, "{}", answer);
    assert!(started.elapsed() < Duration::from_secs(2));
    still_serves(addr);
}

#[test]
fn a_slow_client_holds_its_slot_only_until_its_deadline() {
    let addr = start(
        ServerConfig::new()
            .max_connections(1)
            .timeout_head(Duration::from_millis(500)),
    );
    // Slowloris on the only slot: a byte of head every 50 ms.
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut writer = stream.try_clone().unwrap();
    thread::spawn(move || {
        for &b in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" {
            if writer.write_all(&[b]).is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(50));
        }
    });
    thread::sleep(Duration::from_millis(100));
    // Meanwhile the next client is refused at once, not left waiting.
    let answer = exchange(addr, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(status(&answer), 503, "{}", answer);
    let answer = read_to_close(&mut stream);
    assert_eq!(status(&answer), 408, "{}", answer);
    // The slot is free again.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let answer = exchange(
            addr,
            b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        if status(&answer) == 200 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the slot was never freed: {}",
            answer
        );
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_idle_connection_is_closed_without_an_answer() {
    let addr = start(ServerConfig::new().timeout_idle(Duration::from_millis(200)));
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let started = Instant::now();
    let answer = read_to_close(&mut stream);
    assert_eq!(answer.matches("HTTP/1.1 200").count(), 1, "{}", answer);
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn pipelined_requests_get_one_answer_and_a_close() {
    let addr = start(ServerConfig::new());
    let answer = exchange(
        addr,
        b"GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    assert_eq!(answer.matches("HTTP/1.1 ").count(), 1, "{}", answer);
    assert!(answer.contains("Connection: close"), "{}", answer);
    assert!(answer.ends_with("GET /one 0"), "{}", answer);
}

#[test]
fn connections_over_the_limit_get_503_and_the_server_recovers() {
    let addr = start(ServerConfig::new().max_connections(2));
    let held: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
    // Let the server take both before the third arrives.
    thread::sleep(Duration::from_millis(100));
    let answer = exchange(addr, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(status(&answer), 503, "{}", answer);
    assert!(answer.contains("Retry-After: 1"), "{}", answer);
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let answer = exchange(
            addr,
            b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        if status(&answer) == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "never served again: {}", answer);
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn many_connections_at_once_leave_the_server_serving() {
    let addr = start(ServerConfig::new().max_connections(64));
    let mut held = Vec::new();
    for _ in 0..1000 {
        match TcpStream::connect(addr) {
            Ok(stream) => held.push(stream),
            Err(_) => break,
        }
    }
    assert!(held.len() >= 500, "only {} connected", held.len());
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answer = exchange(
            addr,
            b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        if answer.len() > 12 && status(&answer) == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "never served again: {}", answer);
        thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn read_request_never_panics_on_mutated_requests() {
    const SEED: &[u8] =
        b"POST /mcp HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
    const BYTES: &[u8] = b"\r\n\n\0\t :;0123456789abcdefGHPOST/ HTTP1.,-\x7f\xff";
    let config = ServerConfig::new()
        .max_body(64)
        .max_head(128)
        .max_headers(4);
    let mut rng = Rng::new(0x5e7e_0001);
    let mut read = 0;
    for _ in 0..20_000 {
        let mut bytes = SEED.to_vec();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(bytes.len() + 1);
            let byte = rng.pick(BYTES);
            match rng.below(3) {
                0 if at < bytes.len() => bytes[at] = byte,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, byte),
            }
        }
        match read_request(&bytes, &config) {
            Ok(request) => {
                read += 1;
                assert!(request.body().len() <= 64);
                assert!(request.target() == "*" || request.target().starts_with('/'));
                for (name, value) in request.headers().iter() {
                    assert!(!name.is_empty() && !value.contains(['\r', '\n', '\0']));
                }
            }
            Err(e) => assert!(
                [0, 400, 408, 413, 414, 431, 501, 505].contains(&e.status()),
                "{}",
                e
            ),
        }
    }
    assert!(read > 100, "only {} read", read);
}

#[test]
fn a_streamed_body_goes_out_in_chunks_as_it_is_written_and_the_connection_stays_open() {
    let server = HttpServer::bind("127.0.0.1:0", ServerConfig::new()).unwrap();
    let addr = server.local_addr().unwrap();
    thread::spawn(move || {
        server.serve(|request: &ServerRequest| {
            if request.path() == "/plain" {
                return ServerResponse::with_content(200, "text/plain", b"done".to_vec());
            }
            ServerResponse::streaming(
                200,
                "text/event-stream",
                Box::new(|out: &mut dyn Write| {
                    out.write_all(b"data: one\n\n")?;
                    thread::sleep(Duration::from_millis(50));
                    out.write_all(b"data: two\n\n")
                }),
            )
        })
    });
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream
        .write_all(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    while !seen.ends_with(b"0\r\n\r\n") {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "{}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8(seen).unwrap();
    assert!(text.contains("Transfer-Encoding: chunked\r\n"), "{}", text);
    assert!(!text.contains("Content-Length"), "{}", text);
    assert!(
        text.ends_with("\r\n\r\nb\r\ndata: one\n\n\r\nb\r\ndata: two\n\n\r\n0\r\n\r\n"),
        "{}",
        text
    );
    // The same connection takes the next request.
    stream
        .write_all(b"GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut next = Vec::new();
    while !next.ends_with(b"done") {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0);
        next.extend_from_slice(&buf[..n]);
    }
    assert!(next.starts_with(b"HTTP/1.1 200"));
}
