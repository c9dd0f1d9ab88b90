//! Deterministic fuzzing of the HTTP/1.1 response reader through a loopback server: random
//! and mutated responses (fixed seeds, no dependencies), each served on a fresh connection
//! that the server closes once it has written.
//!
//! Asserted for every response: the client never panics and never hangs (each call ends well
//! within its `timeout_call`); when it returns a response, an independent reading of the same
//! bytes by the rules of RFC 9112 (as this crate applies them: bare LF accepted, obs-fold,
//! conflicting or malformed framing refused) gives the same status and the same body, and the
//! body is within `max_response_bytes`. Responses generated well-formed (before mutation) must be read
//! exactly.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use httptool::http::{Client, Config, ErrorKind, ManualTime, Method, Request, Timeout, Transport};

use crate::support::rng::Rng;

const MAX_BODY: usize = 4096;

// ------------------------------------------------------------------ the reference reading

/// RFC 9110 section 5.6.2.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// RFC 9110 section 5.5: no control character but HTAB.
fn is_value_byte(b: u8) -> bool {
    b == b'\t' || (b >= 0x20 && b != 0x7f)
}

fn trim_ows(mut v: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = v {
        v = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = v {
        v = rest;
    }
    v
}

/// One line ending in LF (a CR before it removed), and the rest.
fn line(data: &[u8]) -> Option<(&[u8], &[u8])> {
    let nl = data.iter().position(|&b| b == b'\n')?;
    let l = &data[..nl];
    Some((l.strip_suffix(b"\r").unwrap_or(l), &data[nl + 1..]))
}

fn field(l: &[u8]) -> Option<(String, &[u8])> {
    if matches!(l.first(), Some(b' ' | b'\t')) {
        return None;
    }
    let colon = l.iter().position(|&b| b == b':')?;
    let name = &l[..colon];
    if name.is_empty() || !name.iter().all(|&b| is_tchar(b)) {
        return None;
    }
    let value = trim_ows(&l[colon + 1..]);
    if !value.iter().all(|&b| is_value_byte(b)) {
        return None;
    }
    Some((String::from_utf8(name.to_vec()).ok()?, value))
}

#[derive(Debug, PartialEq)]
enum Framing {
    None,
    Length(u64),
    Chunked,
    Close,
}

/// One head: status and framing, and the bytes after it. `None` for anything malformed.
fn head(data: &[u8], head_request: bool) -> Option<(u16, Framing, &[u8])> {
    let (status_line, mut rest) = line(data)?;
    let version = status_line.get(..8)?;
    let ok_version =
        version == b"HTTP/1.0" || (version.starts_with(b"HTTP/1.") && version[7].is_ascii_digit());
    if !ok_version {
        return None;
    }
    let code = match &status_line[8..] {
        [b' ', a, b, c, ..] if [a, b, c].iter().all(|d| d.is_ascii_digit()) => {
            u16::from(a - b'0') * 100 + u16::from(b - b'0') * 10 + u16::from(c - b'0')
        }
        _ => return None,
    };
    if !(100..=599).contains(&code) {
        return None;
    }
    match &status_line[12..] {
        [] => {}
        [b' ', reason @ ..] if reason.iter().all(|&b| is_value_byte(b)) => {}
        _ => return None,
    }
    let mut lengths: Vec<Option<u64>> = Vec::new();
    let mut codings: Vec<Vec<u8>> = Vec::new();
    let mut te_seen = false;
    loop {
        let (l, tail) = line(rest)?;
        rest = tail;
        if l.is_empty() {
            break;
        }
        let (name, value) = field(l)?;
        let elements = value
            .split(|&b| b == b',')
            .map(trim_ows)
            .filter(|e| !e.is_empty());
        if name.eq_ignore_ascii_case("content-length") {
            let mut any = false;
            for e in elements {
                any = true;
                let n = if e.iter().all(u8::is_ascii_digit) {
                    Some(e.iter().fold(0u64, |n, &d| {
                        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                    }))
                } else {
                    None
                };
                lengths.push(n);
            }
            if !any {
                lengths.push(None);
            }
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            te_seen = true;
            codings.extend(elements.map(<[u8]>::to_vec));
        }
    }
    if head_request || (100..200).contains(&code) || code == 204 || code == 304 {
        return Some((code, Framing::None, rest));
    }
    let framing = match (te_seen, lengths.is_empty()) {
        (true, false) => return None,
        (true, true) => {
            if codings.len() == 1 && codings[0].eq_ignore_ascii_case(b"chunked") {
                Framing::Chunked
            } else {
                return None;
            }
        }
        (false, true) => Framing::Close,
        (false, false) => {
            let first = lengths[0]?;
            if lengths.iter().any(|l| *l != Some(first)) {
                return None;
            }
            Framing::Length(first)
        }
    };
    Some((code, framing, rest))
}

fn chunk_size(l: &[u8]) -> Option<u64> {
    let digits = l.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if digits == 0 {
        return None;
    }
    let size = l[..digits].iter().fold(0u64, |n, &d| {
        let v = (d as char).to_digit(16).unwrap_or(0);
        n.checked_mul(16)
            .and_then(|n| n.checked_add(u64::from(v)))
            .unwrap_or(u64::MAX)
    });
    let mut rest = &l[digits..];
    while let [b' ' | b'\t', tail @ ..] = rest {
        rest = tail;
    }
    match rest {
        [] => Some(size),
        [b';', ext @ ..] if ext.iter().all(|&b| is_value_byte(b)) => Some(size),
        _ => None,
    }
}

fn chunked(mut data: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let (l, rest) = line(data)?;
        let size = chunk_size(l)?;
        data = rest;
        if size == 0 {
            loop {
                let (l, rest) = line(data)?;
                data = rest;
                if l.is_empty() {
                    return Some(body);
                }
                field(l)?;
            }
        }
        let size = usize::try_from(size).ok()?;
        body.extend_from_slice(data.get(..size)?);
        data = &data[size..];
        let (l, rest) = line(data)?;
        if !l.is_empty() {
            return None;
        }
        data = rest;
    }
}

/// The final response's status and body, as RFC 9112 reads `raw`; `None` when it is
/// malformed or incomplete.
fn reference(raw: &[u8], head_request: bool) -> Option<(u16, Vec<u8>)> {
    let mut data = raw;
    loop {
        let (code, framing, rest) = head(data, head_request)?;
        if (100..200).contains(&code) && code != 101 {
            data = rest;
            continue;
        }
        let body = match framing {
            Framing::None => Vec::new(),
            Framing::Length(n) => rest.get(..usize::try_from(n).ok()?)?.to_vec(),
            Framing::Close => rest.to_vec(),
            Framing::Chunked => chunked(rest)?,
        };
        return Some((code, body));
    }
}

// ------------------------------------------------------------------ generated responses

const STATUS_LINES: &[&str] = &[
    "HTTP/1.1 200 OK",
    "HTTP/1.1 200",
    "HTTP/1.1 200 ",
    "HTTP/1.0 200 OK",
    "HTTP/1.1 404 Not Found",
    "HTTP/1.1 204 No Content",
    "HTTP/1.1 304 Not Modified",
    "HTTP/1.1 500 Server \u{e9}rror",
    "HTTP/1.1 599 X",
    "HTTP/1.9 201 Created",
];

const EXTRA_FIELDS: &[&str] = &[
    "Content-Type: text/plain",
    "X-Empty:",
    "X-Pad:   padded \t",
    "Connection: close",
    "Connection: keep-alive",
    "Set-Cookie: a=b",
    "Server: fuzz",
];

/// A chunked body of `body`, with random chunk sizes, extensions and trailers.
fn chunk(rng: &mut Rng, body: &[u8], eol: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let n = (1 + rng.below(40)).min(rest.len());
        let size = if rng.chance(2) {
            format!("{n:x}")
        } else {
            format!("{n:06X}")
        };
        out.extend_from_slice(size.as_bytes());
        if rng.chance(4) {
            out.extend_from_slice(rng.pick(&[b";a=b" as &[u8], b" ; q=\"x;y\"", b"\t;e"]));
        }
        out.extend_from_slice(eol.as_bytes());
        out.extend_from_slice(&rest[..n]);
        out.extend_from_slice(eol.as_bytes());
        rest = &rest[n..];
    }
    out.extend_from_slice(format!("0{eol}").as_bytes());
    if rng.chance(3) {
        out.extend_from_slice(format!("Trailer-Field: v{eol}").as_bytes());
    }
    out.extend_from_slice(eol.as_bytes());
    out
}

/// A well-formed response: its bytes, its status and its body.
fn well_formed(rng: &mut Rng) -> (Vec<u8>, u16, Vec<u8>) {
    let eol = if rng.chance(5) { "\n" } else { "\r\n" };
    let mut raw = Vec::new();
    if rng.chance(6) {
        raw.extend_from_slice(format!("HTTP/1.1 100 Continue{eol}{eol}").as_bytes());
    }
    let status_line = rng.pick(STATUS_LINES);
    let status: u16 = status_line[9..12].parse().unwrap();
    raw.extend_from_slice(status_line.as_bytes());
    raw.extend_from_slice(eol.as_bytes());
    for _ in 0..rng.below(4) {
        raw.extend_from_slice(rng.pick(EXTRA_FIELDS).as_bytes());
        raw.extend_from_slice(eol.as_bytes());
    }
    let len = rng.below(300);
    let body: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
    let no_body = status == 204 || status == 304;
    let framing = rng.below(3);
    let wire_body = match framing {
        0 => {
            raw.extend_from_slice(format!("Content-Length: {}{eol}", body.len()).as_bytes());
            body.clone()
        }
        1 => {
            raw.extend_from_slice(format!("Transfer-Encoding: chunked{eol}").as_bytes());
            chunk(rng, &body, eol)
        }
        _ => body.clone(),
    };
    raw.extend_from_slice(eol.as_bytes());
    if no_body {
        return (raw, status, Vec::new());
    }
    raw.extend_from_slice(&wire_body);
    (raw, status, body)
}

/// Fields that break framing or syntax, the way attacks and broken servers do.
const HOSTILE_FIELDS: &[&str] = &[
    "Content-Length: 5\r\nContent-Length: 6",
    "Content-Length: 5, 6",
    "Content-Length: 5, 5",
    "Content-Length: +5",
    "Content-Length: -5",
    "Content-Length:  5 ",
    "Content-Length: 0x5",
    "Content-Length: 5 5",
    "Content-Length:",
    "Content-Length: 99999999999999999999999999",
    "Content-Length: 18446744073709551615",
    "Transfer-Encoding: chunked\r\nContent-Length: 5",
    "Transfer-Encoding: gzip, chunked",
    "Transfer-Encoding: chunked, chunked",
    "Transfer-Encoding: identity",
    "Transfer-Encoding:",
    "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
    "Transfer-Encoding : chunked",
    " Transfer-Encoding: chunked",
    "X: a\r\n b",
    "X: a\r\n\tb",
    "X: a\0b",
    "X: a\rb",
    "X\0: b",
    ": empty name",
    "NoColon",
    "X: \u{7f}",
];

const HOSTILE_CHUNKS: &[&str] = &[
    "ffffffffffffffffff\r\n",
    "10000000000000000\r\n",
    "-1\r\n",
    "0x5\r\n",
    "5\r5\r\n",
    "5 ;\0\r\n",
    "\r\n",
    "5\r\nhello",
    "5\r\nhelloXX\r\n",
    "5\r\nhello\r\r\n",
    "0\r\nBad Trailer\r\n\r\n",
    "0\r\n X: folded\r\n\r\n",
    "0\r\n",
    "3\nabc\n0\n\n",
];

fn hostile(rng: &mut Rng) -> Vec<u8> {
    let mut raw = String::from(rng.pick(STATUS_LINES));
    raw.push_str("\r\n");
    for _ in 0..1 + rng.below(3) {
        raw.push_str(rng.pick(HOSTILE_FIELDS));
        raw.push_str("\r\n");
    }
    if rng.chance(2) {
        raw.push_str("Transfer-Encoding: chunked\r\n");
    }
    raw.push_str("\r\n");
    for _ in 0..rng.below(3) {
        raw.push_str(rng.pick(HOSTILE_CHUNKS));
    }
    if rng.chance(2) {
        raw.push_str("hello world");
    }
    raw.into_bytes()
}

/// `raw` with a few bytes changed, inserted or removed.
fn mutate(rng: &mut Rng, mut raw: Vec<u8>) -> Vec<u8> {
    const BYTES: &[u8] = b"\r\n\0\t :;,0159aAfFxX-+\"\x7f\xff";
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(raw.len() + 1);
        match rng.below(4) {
            0 if at < raw.len() => {
                raw.remove(at);
            }
            1 if at < raw.len() => raw[at] = rng.pick(BYTES),
            2 => raw.insert(at, rng.pick(BYTES)),
            _ => raw.truncate(at),
        }
    }
    raw
}

// ------------------------------------------------------------------ the loopback server

/// Serves `current` to every connection: reads the request head, writes the bytes, closes.
struct Server {
    port: u16,
    current: Arc<Mutex<Vec<u8>>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().unwrap().port();
        let current = Arc::new(Mutex::new(Vec::new()));
        let shared = current.clone();
        thread::spawn(move || {
            for stream in listener.incoming() {
                let mut stream = match stream {
                    Ok(s) => s,
                    Err(_) => continue,
                };
                let reply = shared.lock().unwrap().clone();
                serve(&mut stream, &reply);
            }
        });
        Server { port, current }
    }

    fn set(&self, bytes: Vec<u8>) {
        *self.current.lock().unwrap() = bytes;
    }
}

fn serve(stream: &mut TcpStream, reply: &[u8]) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut head = Vec::new();
    let mut byte = [0u8; 512];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&byte[..n]),
        }
    }
    let _ = stream.write_all(reply);
    let _ = stream.shutdown(Shutdown::Write);
    // Let the client read to the end before the socket goes away.
    let _ = stream.read(&mut byte);
}

fn client() -> Client {
    Client::with_config(
        Config::new()
            .max_idle_per_origin(0)
            .max_response_bytes(MAX_BODY)
            .max_head(8 * 1024)
            .max_headers(32)
            .timeout_read(Duration::from_secs(3))
            .timeout_call(Duration::from_secs(4)),
    )
}

/// Serves `raw`, reads it, and checks the outcome against the reference.
fn check(server: &Server, client: &Client, raw: Vec<u8>, head_request: bool) -> bool {
    server.set(raw.clone());
    let method = if head_request {
        Method::Head
    } else {
        Method::Get
    };
    let request = Request::new(method, &format!("http://127.0.0.1:{}/fuzz", server.port)).unwrap();
    let start = Instant::now();
    let result = client.send(&request);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "the call took {:?} for {:?}",
        start.elapsed(),
        String::from_utf8_lossy(&raw)
    );
    let response = match result {
        Ok(response) => response,
        Err(_) => return false,
    };
    assert!(response.body().len() <= MAX_BODY);
    let want = reference(&raw, head_request).unwrap_or_else(|| {
        panic!(
            "read {} with a {}-byte body, but the response is malformed: {:?}",
            response.status(),
            response.body().len(),
            String::from_utf8_lossy(&raw)
        )
    });
    assert_eq!(
        (response.status(), response.body()),
        (want.0, &want.1[..]),
        "{:?}",
        String::from_utf8_lossy(&raw)
    );
    true
}

#[test]
fn well_formed_responses_are_read_exactly() {
    let server = Server::start();
    let client = client();
    let mut rng = Rng::new(0xb0d1_0001);
    for _ in 0..150 {
        let (raw, status, body) = well_formed(&mut rng);
        let head_request = rng.chance(8);
        assert_eq!(
            reference(&raw, head_request).map(|r| r.0),
            Some(status),
            "the generator made a malformed response: {:?}",
            String::from_utf8_lossy(&raw)
        );
        server.set(raw.clone());
        let method = if head_request {
            Method::Head
        } else {
            Method::Get
        };
        let url = format!("http://127.0.0.1:{}/fuzz", server.port);
        let response = client
            .send(&Request::new(method, &url).unwrap())
            .unwrap_or_else(|e| panic!("{e} for {:?}", String::from_utf8_lossy(&raw)));
        assert_eq!(response.status(), status);
        let want: &[u8] = if head_request { b"" } else { &body };
        assert_eq!(response.body(), want, "{:?}", String::from_utf8_lossy(&raw));
    }
}

#[test]
fn mutated_responses_are_refused_or_read_as_framed() {
    let server = Server::start();
    let client = client();
    let mut rng = Rng::new(0xb0d1_0002);
    let mut read = 0;
    for _ in 0..400 {
        let (raw, _, _) = well_formed(&mut rng);
        let raw = mutate(&mut rng, raw);
        if check(&server, &client, raw, rng.chance(8)) {
            read += 1;
        }
    }
    // Mutations leave many responses readable: the comparison above did happen.
    assert!(read > 40, "only {read} responses were read");
}

#[test]
fn hostile_framing_is_refused_or_read_as_framed() {
    let server = Server::start();
    let client = client();
    let mut rng = Rng::new(0xb0d1_0003);
    for _ in 0..300 {
        let mut raw = hostile(&mut rng);
        if rng.chance(3) {
            raw = mutate(&mut rng, raw);
        }
        check(&server, &client, raw, false);
    }
}

#[test]
fn a_trickling_server_is_cut_by_timeout_call() {
    // One byte at a time: each read is quick, the call is not. The client's time is a
    // ManualTime the server moves 50 ms a byte, so timeout_call passes mid-body without
    // real waiting, whatever the machine's speed.
    let time = ManualTime::new();
    let server_time = time.clone();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        for stream in listener.incoming().take(3) {
            let mut stream = match stream {
                Ok(s) => s,
                Err(_) => continue,
            };
            let server_time = server_time.clone();
            thread::spawn(move || {
                let mut buf = [0u8; 1024];
                let _ = stream.read(&mut buf);
                let _ = stream.set_nodelay(true);
                let head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
                let chunks = b"1\r\nx\r\n".iter().cycle().take(400);
                for &b in head.iter().chain(chunks) {
                    if stream.write_all(&[b]).is_err() {
                        return;
                    }
                    server_time.advance(Duration::from_millis(50));
                }
                // Hold the connection until the client closes it (10 s at most).
                let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
                let _ = stream.read_to_end(&mut Vec::new());
            });
        }
    });
    let client = Client::with_config(
        Config::new()
            .timeout_read(Duration::from_secs(5))
            .timeout_call(Duration::from_millis(600))
            .time_source(time),
    );
    let err = client
        .send(&Request::get(&format!("http://127.0.0.1:{port}/")).unwrap())
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Timeout {
            which: Timeout::Call,
            after: Duration::from_millis(600)
        },
        "{err}"
    );
}
