//! Duplicate keys: by default the last value wins at the position of the first occurrence;
//! `reject_duplicate_keys(true)` refuses them. Detection is linear in the object's size,
//! whether the keys are few, many, or made to look alike.

use httptool::json::{self, ErrorKind, Json, Map, ParseOptions};

fn strict() -> ParseOptions {
    ParseOptions::new().reject_duplicate_keys(true)
}

fn keys(value: &Json) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn the_last_value_wins_at_the_first_position() {
    let table: &[(&str, &str, &str)] = &[
        ("two", r#"{"a":1,"a":2}"#, r#"{"a":2}"#),
        (
            "first position kept",
            r#"{"a":1,"b":2,"a":3}"#,
            r#"{"a":3,"b":2}"#,
        ),
        (
            "three times",
            r#"{"a":1,"b":2,"a":3,"c":4,"a":5}"#,
            r#"{"a":5,"b":2,"c":4}"#,
        ),
        (
            "container replaced",
            r#"{"a":[1,{"x":2}],"a":{}}"#,
            r#"{"a":{}}"#,
        ),
        (
            "inner object alone",
            r#"{"a":{"a":1,"a":2},"a":3}"#,
            r#"{"a":3}"#,
        ),
        (
            "sibling objects are separate",
            r#"[{"a":1},{"a":2}]"#,
            r#"[{"a":1},{"a":2}]"#,
        ),
        (
            "nested same key is no duplicate",
            r#"{"a":{"a":{"a":1}}}"#,
            r#"{"a":{"a":{"a":1}}}"#,
        ),
        (
            "escaped spelling is the same key",
            r#"{"a":1,"\u0061":2}"#,
            r#"{"a":2}"#,
        ),
        ("case matters", r#"{"a":1,"A":2}"#, r#"{"a":1,"A":2}"#),
    ];
    for &(name, input, written) in table {
        let value = json::parse(input).unwrap();
        assert_eq!(value.to_string(), written, "{name}");
    }
}

#[test]
fn reject_duplicate_keys_refuses_the_second_occurrence() {
    let table: &[(&str, &str, &str)] = &[
        ("two", r#"{"a":1,"a":2}"#, "duplicate object key at 1:8"),
        (
            "escaped",
            "{\"a\":1,\n \"\\u0061\":2}",
            "duplicate object key at 2:2",
        ),
        (
            "nested",
            r#"[{"x":{"k":1,"k":2}}]"#,
            "duplicate object key at 1:14",
        ),
        (
            "after multi-byte keys",
            r#"{"éé":1,"éé":2}"#,
            "duplicate object key at 1:9",
        ),
    ];
    for &(name, input, message) in table {
        let err = strict().parse(input).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DuplicateKey, "{name}");
        assert_eq!(err.to_string(), message, "{name}");
    }
    // The column counts characters, the offset bytes.
    assert_eq!(
        strict().parse(r#"{"éé":1,"éé":2}"#).unwrap_err().offset(),
        10
    );
    // Distinct keys, also in sibling and nested objects, are fine.
    let ok = strict()
        .parse(r#"{"a":{"a":1,"b":2},"b":[{"a":1},{"a":1}]}"#)
        .unwrap();
    assert_eq!(keys(&ok), ["a", "b"]);
}

/// `{"k0":0,"k1":1,...}` with `n` keys, and `extra` appended inside.
fn big_object(n: usize, extra: &str) -> String {
    let mut text = String::from("{");
    for i in 0..n {
        text.push_str(&format!("\"k{i}\":{i},"));
    }
    text.push_str(extra);
    text.pop_if_comma();
    text.push('}');
    text
}

trait PopIfComma {
    fn pop_if_comma(&mut self);
}

impl PopIfComma for String {
    fn pop_if_comma(&mut self) {
        if self.ends_with(',') {
            self.pop();
        }
    }
}

#[test]
fn two_hundred_thousand_distinct_keys() {
    const N: usize = 200_000;
    let text = big_object(N, "");
    for options in [ParseOptions::new(), strict()] {
        let value = options.parse(&text).unwrap();
        let map = value.as_object().unwrap();
        assert_eq!(map.len(), N);
        for (i, (key, value)) in map.iter().enumerate() {
            assert_eq!(key, &format!("k{i}"));
            assert_eq!(value.as_u64(), Some(i as u64));
        }
        assert_eq!(value.to_string(), text);
    }
}

#[test]
fn duplicates_in_large_objects_are_found() {
    // Small objects use a Bloom filter, objects past 128 keys a hash index: test both sides.
    for n in [5, 127, 128, 129, 1_000, 50_000] {
        let text = big_object(n, "\"k3\":\"again\"");
        let err = strict().parse(&text).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DuplicateKey, "{n} keys");
        assert_eq!(err.offset(), text.rfind("\"k3\"").unwrap(), "{n} keys");

        let value = json::parse(&text).unwrap();
        let map = value.as_object().unwrap();
        assert_eq!(map.len(), n, "{n} keys");
        assert_eq!(map.get("k3").and_then(Json::as_str), Some("again"));
        assert_eq!(map.keys().nth(3).map(String::as_str), Some("k3"));
    }
}

#[test]
fn keys_that_look_alike_are_told_apart() {
    // Same length, same first and last eight bytes: the Bloom filter's cheap hash cannot
    // tell them apart, so every lookup falls back to comparing keys.
    let key = |i: usize| format!("prefix--{i:06}--suffix");
    let mut text = String::from("{");
    for i in 0..3_000 {
        text.push_str(&format!("\"{}\":{i},", key(i)));
    }
    text.push_str(&format!("\"{}\":\"dup\"}}", key(100)));
    let value = json::parse(&text).unwrap();
    let map = value.as_object().unwrap();
    assert_eq!(map.len(), 3_000);
    assert_eq!(map.get(&key(100)).and_then(Json::as_str), Some("dup"));
    assert_eq!(map.get(&key(2_999)).and_then(Json::as_u64), Some(2_999));
    assert_eq!(
        strict().parse(&text).unwrap_err().kind(),
        ErrorKind::DuplicateKey
    );
}

#[test]
fn maps_built_in_code_follow_the_same_rule() {
    let map: Map = vec![("a", 1), ("b", 2), ("a", 3)].into_iter().collect();
    assert_eq!(Json::from(map).to_string(), r#"{"a":3,"b":2}"#);

    // Collecting many entries is linear too (a hash index past 128 entries).
    let mut map: Map = (0..200_000).map(|i| (format!("k{i}"), i)).collect();
    map.extend((0..200_000).rev().map(|i| (format!("k{i}"), -i)));
    assert_eq!(map.len(), 200_000);
    assert_eq!(map.keys().next().map(String::as_str), Some("k0"));
    assert_eq!(map.get("k7").and_then(Json::as_i64), Some(-7));
    assert_eq!(
        map.values().next_back().and_then(Json::as_i64),
        Some(-199_999)
    );
}
