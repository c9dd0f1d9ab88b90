//! The YAML reader on arbitrary bytes.
//!
//! Invariants: no panic; `parse` on text and `parse_bytes` on its bytes agree; a document that
//! reads writes (compact and pretty) as JSON text that parses back to an equal value; the
//! error for a document that does not read is one line.

#![no_main]

use httptool::{json, yaml};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let parsed = yaml::parse_bytes(data);
    if let Ok(text) = std::str::from_utf8(data) {
        let from_text = yaml::parse(text);
        match (&parsed, &from_text) {
            (Ok(a), Ok(b)) => assert!(a == b, "parse and parse_bytes disagree"),
            (Err(_), Err(_)) => {}
            _ => panic!("parse and parse_bytes disagree on success"),
        }
    }
    let value = match parsed {
        Ok(value) => value,
        Err(e) => {
            let message = e.to_string();
            assert!(!message.contains('\n'), "a multi-line error: {message}");
            return;
        }
    };
    for text in [value.to_string(), value.to_pretty()] {
        let again = json::parse(&text).unwrap_or_else(|e| {
            panic!("the value writes to JSON that does not parse: {e}\n{text}")
        });
        assert!(again == value, "the value changed through JSON:\n{text}");
    }
});
