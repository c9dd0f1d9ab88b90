//! The HTTP/1.1 response reader on arbitrary bytes: status line, fields, framing
//! (`Content-Length`, chunked with extensions and trailers, read to close), interim 1xx heads.
//!
//! The bytes go through `http::read_response`, which runs the client's own reader over a
//! stream in memory: the same code that reads a socket, without one.
//!
//! The first byte picks the request method (GET or HEAD) and the limits (the defaults, or
//! small ones so every limit's edge is in reach); the rest is the response.
//!
//! Invariants: no panic, no hang; a response that is read has a three-digit final status
//! (not an interim one but 101), a body within `max_response_bytes` (none for HEAD, 204 and 304),
//! header names that are tokens and values without CR, LF or NUL, and does not depend on
//! bytes after the ones it consumed (reading only those gives the same response).

#![no_main]

use httptool::http::{read_response, Config, Request, Response};
use libfuzzer_sys::fuzz_target;

const URL: &str = "http://api.example.com/v1/items";

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn summary(r: &Response) -> (u16, String, Vec<(String, String)>, Vec<u8>) {
    let headers = r
        .headers()
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    (
        r.status(),
        r.reason().to_string(),
        headers,
        r.body().to_vec(),
    )
}

fuzz_target!(|data: &[u8]| {
    let (first, bytes) = match data.split_first() {
        Some((first, rest)) => (*first, rest),
        None => return,
    };
    let head_request = first & 1 == 1;
    let small = first & 2 == 2;
    let config = if small {
        Config::default()
            .max_response_bytes(512)
            .max_head(1024)
            .max_headers(8)
            .max_status_line(64)
            .max_chunk_line(16)
    } else {
        Config::default()
    };
    let max_body = if small {
        512
    } else {
        httptool::http::DEFAULT_MAX_RESPONSE_BYTES
    };
    let request = if head_request {
        Request::head(URL)
    } else {
        Request::get(URL)
    }
    .expect("a valid URL");

    let response = match read_response(&request, bytes, &config) {
        Ok(response) => response,
        Err(e) => {
            let message = e.to_string();
            assert!(!message.is_empty());
            return;
        }
    };
    let status = response.status();
    assert!((100..=999).contains(&status), "status {status}");
    assert!(
        status == 101 || !(100..200).contains(&status),
        "interim status {status} returned"
    );
    assert!(response.body().len() <= max_body, "body over max_body");
    if head_request || status == 204 || status == 304 {
        assert!(response.body().is_empty(), "a body where none may be");
    }
    for (name, value) in response.headers().iter() {
        assert!(
            !name.is_empty() && name.bytes().all(is_tchar),
            "header name {name:?}"
        );
        assert!(
            !value.contains(['\r', '\n', '\0']),
            "header value {value:?}"
        );
    }
    let used = response.bytes_read();
    assert!(
        used <= bytes.len() as u64,
        "read {used} of {} bytes",
        bytes.len()
    );
    if used < bytes.len() as u64 {
        let prefix = &bytes[..used as usize];
        let again = read_response(&request, prefix, &config)
            .unwrap_or_else(|e| panic!("the bytes consumed alone do not read: {e}"));
        assert!(
            summary(&again) == summary(&response),
            "the response depends on later bytes"
        );
    }
});
