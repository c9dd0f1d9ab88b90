//! The URL parser and reference resolution (RFC 3986 section 5.2) on arbitrary text.
//!
//! The input is a base URL, a newline, and a reference (a `Location` value); without a
//! newline it is one URL. A third line, when there is one, is a path for `set_path`.
//!
//! Invariants: no panic; a parsed URL is in normal form (it parses back to itself), its parts
//! are slices of its text in order, it holds no whitespace, control character or backslash,
//! and it is same-origin with itself; a resolved reference is a URL with the same
//! invariants, resolving it again (as an absolute reference) gives itself, and a resolution
//! that keeps the origin keeps it exactly; `set_path` keeps scheme, host, port and query.

#![no_main]

use httptool::url::Url;
use libfuzzer_sys::fuzz_target;

fn check(url: &Url, what: &str) {
    let text = url.as_str();
    let again =
        Url::parse(text).unwrap_or_else(|e| panic!("{what} {text:?} does not reparse: {e}"));
    assert_eq!(again.as_str(), text, "{what} is not in normal form");
    assert!(again == *url, "{what} reparses to another value");
    assert!(
        !text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '\\'),
        "{what} {text:?} holds whitespace, a control character or a backslash"
    );
    assert!(
        text.starts_with(url.scheme().as_str()),
        "{what} {text:?}: scheme"
    );
    assert!(
        text.ends_with(url.path_and_query()),
        "{what} {text:?}: path and query"
    );
    assert!(url.path().starts_with('/'), "{what} {text:?}: path");
    assert!(
        url.authority().starts_with(url.host_str()),
        "{what} {text:?}: authority"
    );
    assert!(url.same_origin(url));
    if let Some(query) = url.query() {
        assert!(text.ends_with(query));
    }
}

fuzz_target!(|data: &[u8]| {
    let text = match std::str::from_utf8(data) {
        Ok(text) => text,
        Err(_) => return,
    };
    let mut lines = text.splitn(3, '\n');
    let base_text = lines.next().unwrap_or("");
    let base = match Url::parse(base_text) {
        Ok(url) => url,
        Err(e) => {
            // The message never repeats the input. Messages are lower-case, so an input with
            // an upper-case letter cannot match one by chance (` url: percent-encode` did).
            let message = e.to_string();
            if base_text.len() > 12 && base_text.bytes().any(|b| b.is_ascii_uppercase()) {
                assert!(!message.contains(base_text), "the error repeats the input");
            }
            return;
        }
    };
    check(&base, "base");
    let reference = match lines.next() {
        Some(reference) => reference,
        None => return,
    };
    if let Ok(joined) = base.join(reference) {
        check(&joined, "joined");
        let again = base
            .join(joined.as_str())
            .unwrap_or_else(|e| panic!("{:?} does not resolve to itself: {e}", joined.as_str()));
        assert_eq!(
            again.as_str(),
            joined.as_str(),
            "an absolute reference moved"
        );
        if reference.starts_with('/') && !reference.starts_with("//") {
            assert!(
                joined.same_origin(&base),
                "an absolute-path reference left the origin"
            );
        }
    }
    if let Some(path) = lines.next() {
        let mut moved = base.clone();
        if moved.set_path(path).is_ok() {
            check(&moved, "set_path");
            assert!(moved.same_origin(&base), "set_path changed the origin");
            assert_eq!(moved.query(), base.query(), "set_path changed the query");
        } else {
            assert!(moved == base, "a refused set_path changed the URL");
        }
    }
});
