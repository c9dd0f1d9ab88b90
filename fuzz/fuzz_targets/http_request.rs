//! The HTTP/1.1 request reader of the server (`http::HttpServer`) on arbitrary bytes:
//! request line, fields, framing (`Content-Length`, chunked with extensions and trailers).
//!
//! The bytes go through `http::read_request`, the server's own reader over a stream in
//! memory: the code that reads a socket, without one.
//!
//! The first byte picks the limits (the defaults, or small ones so every limit's edge is in
//! reach); the rest is the request.
//!
//! Invariants: no panic, no hang; a refusal carries one of the statuses the server answers
//! (or 0: the bytes ended first); a request that is read has a method that is a token, a
//! target in origin form or `*`, header names that are tokens and values without CR, LF or
//! NUL, and a body within `max_body`.

#![no_main]

use httptool::http::{read_request, ServerConfig};
use libfuzzer_sys::fuzz_target;

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fuzz_target!(|data: &[u8]| {
    let (first, bytes) = match data.split_first() {
        Some((first, rest)) => (*first, rest),
        None => return,
    };
    let small = first & 1 == 1;
    let config = if small {
        ServerConfig::new()
            .max_body(512)
            .max_head(1024)
            .max_headers(8)
            .max_request_target(64)
            .max_chunk_line(16)
    } else {
        ServerConfig::new()
    };
    let max_body = if small {
        512
    } else {
        httptool::http::DEFAULT_SERVER_MAX_BODY
    };
    let request = match read_request(bytes, &config) {
        Ok(request) => request,
        Err(e) => {
            assert!(
                [0, 400, 408, 413, 414, 431, 501, 505].contains(&e.status()),
                "status {}",
                e.status()
            );
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    assert!(!request.method().is_empty() && request.method().bytes().all(is_tchar));
    let target = request.target();
    assert!(
        target == "*" || target.starts_with('/'),
        "target {target:?}"
    );
    assert!(target.bytes().all(|b| (0x21..=0x7e).contains(&b)));
    assert!(request.body().len() <= max_body, "body over max_body");
    for (name, value) in request.headers().iter() {
        assert!(
            !name.is_empty() && name.bytes().all(is_tchar),
            "header name {name:?}"
        );
        assert!(
            !value.contains(['\r', '\n', '\0']),
            "header value {value:?}"
        );
    }
});
