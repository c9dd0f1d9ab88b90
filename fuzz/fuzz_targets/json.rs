//! The JSON parser and writer on arbitrary bytes.
//!
//! Invariants: no panic; a value that parses writes (compact and pretty) to text that parses
//! back to an equal value, and writing is stable (the compact text of the reparsed value is
//! the same text); `parse` on text and `parse_bytes` on its bytes agree; a value the strict
//! reading (duplicate keys refused, as for tool arguments) accepts is the value the default
//! reading gives; `tool::cap_json` of the value at a cap taken from the input is valid JSON
//! within the cap, or `None` only when the value fits, is a scalar, or the cap is under 100.

#![no_main]

use httptool::json::{self, ParseOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let parsed = json::parse_bytes(data);
    if let Ok(text) = std::str::from_utf8(data) {
        let from_text = json::parse(text);
        match (&parsed, &from_text) {
            (Ok(a), Ok(b)) => assert!(a == b, "parse and parse_bytes disagree"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("parse and parse_bytes disagree on success"),
        }
    }
    let strict = ParseOptions::new()
        .reject_duplicate_keys(true)
        .parse_bytes(data);
    let value = match parsed {
        Ok(value) => value,
        Err(e) => {
            assert!(
                strict.is_err(),
                "strict reading accepts what the default refuses"
            );
            // Display must not panic, and stays one line.
            assert!(!e.to_string().contains('\n'));
            return;
        }
    };
    if let Ok(strict) = strict {
        assert!(strict == value, "strict and default readings differ");
    }

    let compact = value.to_string();
    let again = json::parse(&compact)
        .unwrap_or_else(|e| panic!("written text does not parse: {e}: {compact}"));
    assert!(
        again == value,
        "compact round trip changed the value: {compact}"
    );
    assert_eq!(again.to_string(), compact, "writing is not stable");

    let pretty = value.to_pretty();
    let again = json::parse(&pretty)
        .unwrap_or_else(|e| panic!("pretty text does not parse: {e}: {pretty}"));
    assert!(
        again == value,
        "pretty round trip changed the value: {pretty}"
    );

    // JSON-aware truncation, at a cap from the input's first bytes.
    let cap = 100 + usize::from(data.first().copied().unwrap_or(0)) * 8;
    match httptool::tool::cap_json(&value, cap) {
        Some(cut) => {
            assert!(
                cut.len() <= cap,
                "cut past the cap: {} > {}",
                cut.len(),
                cap
            );
            json::parse(&cut).unwrap_or_else(|e| panic!("cut is not JSON: {e}: {cut}"));
        }
        None => assert!(
            compact.len() <= cap || !(value.is_array() || value.is_object()),
            "a container over the cap was not cut"
        ),
    }
});
