//! The value API other layers code against: accessors, indexing, pointers, conversions,
//! `Map`, equality, the writer's layout, and the size of `Json`.

use std::borrow::Cow;

use httptool::json::{self, Json, Map, Number};

#[test]
fn a_value_is_at_most_32_bytes() {
    assert!(
        std::mem::size_of::<Json>() <= 32,
        "{}",
        std::mem::size_of::<Json>()
    );
}

#[test]
fn values_cross_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Json>();
    assert_send_sync::<Map>();
    assert_send_sync::<Number>();
    assert_send_sync::<json::ParseOptions>();
}

fn sample() -> Json {
    json::parse(
        r#"{"s": "text", "n": -3, "u": 18446744073709551615, "f": 1.5, "b": true,
            "z": null, "a": [10, {"deep": "x"}], "o": {"k": "v"}}"#,
    )
    .unwrap()
}

#[test]
fn accessors_answer_only_for_their_type() {
    let v = sample();
    assert_eq!(v["s"].as_str(), Some("text"));
    assert_eq!(v["n"].as_i64(), Some(-3));
    assert_eq!(v["n"].as_u64(), None);
    assert_eq!(v["u"].as_u64(), Some(u64::MAX));
    assert_eq!(v["u"].as_i64(), None);
    assert_eq!(v["f"].as_f64(), Some(1.5));
    assert_eq!(v["f"].as_i64(), None);
    assert_eq!(v["b"].as_bool(), Some(true));
    assert_eq!(v["a"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["o"].as_object().map(Map::len), Some(1));
    assert_eq!(v["n"].as_number(), Some(&Number::from(-3)));
    for key in ["s", "n", "f", "b", "z", "a", "o"] {
        let x = &v[key];
        let answers = [
            x.as_str().is_some(),
            x.as_f64().is_some(),
            x.as_bool().is_some(),
            x.as_array().is_some(),
            x.as_object().is_some(),
            x.is_null(),
        ];
        assert_eq!(answers.iter().filter(|&&a| a).count(), 1, "{key}");
        let predicates = [
            x.is_string(),
            x.is_number(),
            x.is_bool(),
            x.is_array(),
            x.is_object(),
            x.is_null(),
        ];
        assert_eq!(answers, predicates, "{key}");
    }
    let names: Vec<&str> = ["z", "b", "n", "s", "a", "o"]
        .iter()
        .map(|k| v[*k].type_name())
        .collect();
    assert_eq!(
        names,
        ["null", "boolean", "number", "string", "array", "object"]
    );
}

#[test]
fn lookups_and_indexing_never_panic() {
    let v = sample();
    assert_eq!(v.get("s").and_then(Json::as_str), Some("text"));
    assert!(v.get("missing").is_none());
    assert!(v["s"].get("x").is_none()); // not an object
    assert_eq!(v["a"].at(0).and_then(Json::as_i64), Some(10));
    assert!(v["a"].at(2).is_none());
    assert!(v.at(0).is_none()); // not an array
    assert_eq!(v["a"][1]["deep"].as_str(), Some("x"));
    assert!(v["missing"]["more"][7]["x"].is_null());
    assert!(v["a"][usize::MAX].is_null());
    assert!(Json::Null["x"][0].is_null());
    assert_eq!(v.pointer("/a/1/deep").and_then(Json::as_str), Some("x"));
    assert_eq!(v.pointer(""), Some(&v));
    assert!(v.pointer("/a/2").is_none());
    assert!(v.pointer("a").is_none());
}

#[test]
fn mutation() {
    let mut v = sample();
    *v.get_mut("s").unwrap() = Json::from("changed");
    assert!(v.as_array_mut().is_none());
    v.get_mut("a")
        .unwrap()
        .as_array_mut()
        .unwrap()
        .push(Json::from(3));
    v.as_object_mut()
        .unwrap()
        .insert("new", json::Json::from(vec![1, 2]));
    *v.pointer_mut("/o/k").unwrap() = Json::from(false);
    assert!(v.pointer_mut("/o/missing").is_none());
    let taken = v.get_mut("b").unwrap().take();
    assert_eq!(taken, Json::Bool(true));
    assert!(v["b"].is_null());
    assert_eq!(
        v.to_string(),
        r#"{"s":"changed","n":-3,"u":18446744073709551615,"f":1.5,"b":null,"z":null,"a":[10,{"deep":"x"},3],"o":{"k":false},"new":[1,2]}"#
    );
    assert_eq!(v["a"].clone().into_array().map(|a| a.len()), Some(3));
    assert_eq!(v["o"].clone().into_object().map(|m| m.len()), Some(1));
    assert_eq!(v["s"].clone().into_string().as_deref(), Some("changed"));
    assert_eq!(Json::Null.into_string(), None);
}

#[test]
fn conversions_from_rust_values() {
    let table: Vec<(&str, Json, &str)> = vec![
        ("bool", Json::from(false), "false"),
        ("i8", Json::from(-8i8), "-8"),
        ("i16", Json::from(-16i16), "-16"),
        ("i32", Json::from(-32i32), "-32"),
        ("i64", Json::from(i64::MIN), "-9223372036854775808"),
        ("isize", Json::from(-1isize), "-1"),
        ("u8", Json::from(8u8), "8"),
        ("u16", Json::from(16u16), "16"),
        ("u32", Json::from(32u32), "32"),
        ("u64", Json::from(u64::MAX), "18446744073709551615"),
        ("usize", Json::from(7usize), "7"),
        ("f32", Json::from(1.5f32), "1.5"),
        ("f64", Json::from(-0.25), "-0.25"),
        ("nan", Json::from(f64::NAN), "null"),
        ("&str", Json::from("a\"b"), r#""a\"b""#),
        ("String", Json::from(String::from("s")), r#""s""#),
        ("&String", Json::from(&String::from("s")), r#""s""#),
        ("Cow", Json::from(Cow::Borrowed("c")), r#""c""#),
        ("Number", Json::from(Number::from(5u8)), "5"),
        ("Map", Json::from(Map::new()), "{}"),
        ("Vec", Json::from(vec![Some(1), None]), "[1,null]"),
        ("slice", Json::from(&["x", "y"][..]), r#"["x","y"]"#),
        ("Option", Json::from(None::<bool>), "null"),
        ("unit", Json::from(()), "null"),
        ("collect", (1..=3).collect::<Json>(), "[1,2,3]"),
        ("default", Json::default(), "null"),
        ("from_str", "[1]".parse::<Json>().unwrap(), "[1]"),
    ];
    for (case, value, written) in table {
        assert_eq!(value.to_string(), written, "{case}");
    }
}

#[test]
fn map_keeps_insertion_order() {
    let mut map = Map::with_capacity(4);
    assert!(map.is_empty());
    assert_eq!(map.insert("b", 1), None);
    assert_eq!(map.insert("a", 2), None);
    assert_eq!(map.insert("c", 3), None);
    assert_eq!(map.insert("b", 4), Some(Json::from(1))); // replaced in place
    assert_eq!(map.keys().collect::<Vec<_>>(), ["b", "a", "c"]);
    assert_eq!(
        map.values()
            .map(|v| v.as_i64().unwrap())
            .collect::<Vec<_>>(),
        [4, 2, 3]
    );
    assert_eq!(map.remove("a"), Some(Json::from(2)));
    assert_eq!(map.remove("a"), None);
    assert_eq!(map.keys().collect::<Vec<_>>(), ["b", "c"]);
    assert!(map.contains_key("c") && !map.contains_key("a"));
    assert_eq!(map.len(), 2);
    assert_eq!(map["c"], Json::from(3));
    assert!(map["missing"].is_null());
    *map.get_mut("c").unwrap() = Json::from("three");
    for (_, value) in map.iter_mut() {
        if value.is_number() {
            *value = Json::from(40);
        }
    }
    for value in map.values_mut() {
        if value.is_string() {
            *value = Json::from(30);
        }
    }
    let borrowed: Vec<(&String, &Json)> = (&map).into_iter().collect();
    assert_eq!(borrowed.len(), 2);
    assert_eq!(map.iter().next_back().map(|(k, _)| k.as_str()), Some("c"));
    assert_eq!(map.iter().len(), 2);
    let owned: Vec<(String, Json)> = map.clone().into_iter().collect();
    assert_eq!(
        owned,
        [
            ("b".to_string(), Json::from(40)),
            ("c".to_string(), Json::from(30))
        ]
    );
    map.extend(vec![("d", 5)]);
    assert_eq!(format!("{map:?}"), r#"{"b":40,"c":30,"d":5}"#);
    assert_eq!(
        format!("{map:#?}"),
        "{\n  \"b\": 40,\n  \"c\": 30,\n  \"d\": 5\n}"
    );
    assert_eq!(Map::default(), Map::new());
}

#[test]
fn equality_ignores_key_order_but_not_array_order() {
    let a = json::parse(r#"{"x": 1, "y": [1, 2], "z": {"p": true, "q": null}}"#).unwrap();
    let b = json::parse(r#"{"z": {"q": null, "p": true}, "y": [1, 2.0], "x": 1}"#).unwrap();
    assert_eq!(a, b);
    let c = json::parse(r#"{"x": 1, "y": [2, 1], "z": {"p": true, "q": null}}"#).unwrap();
    assert_ne!(a, c);
    assert_ne!(
        json::parse(r#"{"x":1}"#).unwrap(),
        json::parse(r#"{"x":1,"y":2}"#).unwrap()
    );
    assert_ne!(
        json::parse(r#"{"x":1}"#).unwrap(),
        json::parse(r#"{"y":1}"#).unwrap()
    );
    assert_ne!(Json::from(1), Json::from("1"));
    assert_ne!(Json::Null, Json::from(false));
    // Large objects compare through an index; order still does not matter.
    let forward: Map = (0..1_000).map(|i| (format!("k{i}"), i)).collect();
    let backward: Map = (0..1_000).rev().map(|i| (format!("k{i}"), i)).collect();
    assert_eq!(forward, backward);
    let mut changed = backward.clone();
    changed.insert("k500", -1);
    assert_ne!(forward, changed);
}

#[test]
fn compact_and_pretty_layout() {
    let v = httptool::json!({"a": [1, [], {}, {"b": null}], "c": "d", "e": {}});
    assert_eq!(
        v.to_string(),
        r#"{"a":[1,[],{},{"b":null}],"c":"d","e":{}}"#
    );
    assert_eq!(format!("{v}"), v.to_string());
    assert_eq!(format!("{v:?}"), v.to_string());
    let pretty = "{\n  \"a\": [\n    1,\n    [],\n    {},\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": \"d\",\n  \"e\": {}\n}";
    assert_eq!(v.to_pretty(), pretty);
    assert_eq!(format!("{v:#?}"), pretty);
    assert_eq!(Json::from(1).to_pretty(), "1");
    assert_eq!(httptool::json!([]).to_pretty(), "[]");
    let mut out = String::from("x=");
    v["a"].write_to(&mut out);
    assert_eq!(out, r#"x=[1,[],{},{"b":null}]"#);
}

#[test]
fn write_str_escapes_what_json_requires() {
    let table: &[(&str, &str, &str)] = &[
        ("plain", "abc", r#""abc""#),
        ("quote and backslash", "\"\\", r#""\"\\""#),
        ("short forms", "\u{8}\u{c}\n\r\t", r#""\b\f\n\r\t""#),
        ("other controls", "\u{0}\u{1f}", r#""\u0000\u001f""#),
        ("slash and DEL kept", "/\u{7f}", "\"/\u{7f}\""),
        (
            "line and paragraph separators",
            "\u{2028}\u{2029}",
            r#""\u2028\u2029""#,
        ),
        ("non-ASCII kept", "é日😀", "\"é日😀\""),
    ];
    for &(case, input, written) in table {
        let mut out = String::from(">");
        json::write_str(&mut out, input);
        assert_eq!(out, format!(">{written}"), "{case}");
        assert_eq!(
            json::parse(written).unwrap().as_str(),
            Some(input),
            "{case}"
        );
    }
}

#[test]
fn the_json_macro() {
    let name = "Ada";
    let key = String::from("k");
    let list = vec![1, 2];
    let v = httptool::json!({
        "name": name,
        key: list,
        ("comp".to_string() + "uted"): 1 + 1,
        "nested": [null, true, -1.5, {"x": [{}]}, name.len()],
        "opt": None::<i32>,
        "dup": 1,
        "dup": 2,
    });
    assert_eq!(
        v.to_string(),
        r#"{"name":"Ada","k":[1,2],"computed":2,"nested":[null,true,-1.5,{"x":[{}]},3],"opt":null,"dup":2}"#
    );
    assert_eq!(httptool::json!(null), Json::Null);
    assert_eq!(httptool::json!([1, "a",]).to_string(), r#"[1,"a"]"#);
    assert_eq!(httptool::json!({}).to_string(), "{}");
    assert_eq!(httptool::json!(-0.0).to_string(), "-0.0");
}

/// Large maps (built through `collect`, `extend` and the parser with a hash index of their
/// keys): insert, replace, get, remove and equality agree on every key, in order.
#[test]
fn large_map_index_stays_consistent_through_insert_and_remove() {
    let mut map = Map::new();
    for i in 0..1_000 {
        assert_eq!(map.insert(format!("k{}", i), i), None);
    }
    assert_eq!(map.insert("k500", "again"), Some(Json::from(500)));
    assert_eq!(map.len(), 1_000);
    assert_eq!(map.get("k500"), Some(&Json::from("again")));
    assert_eq!(map.get("k999"), Some(&Json::from(999)));
    assert_eq!(map.get("k1000"), None);
    // Removing shifts the later entries: every lookup after it still finds its own key.
    assert_eq!(map.remove("k10"), Some(Json::from(10)));
    assert_eq!(map.remove("k10"), None);
    for i in (0..1_000).filter(|&i| i != 10 && i != 500) {
        assert_eq!(map.get(&format!("k{}", i)), Some(&Json::from(i)), "k{}", i);
    }
    // Down to below the index's threshold and back up.
    for i in 0..950 {
        map.remove(&format!("k{}", i));
    }
    assert_eq!(map.len(), 50);
    for i in 0..200 {
        map.insert(format!("n{}", i), i);
    }
    assert_eq!(map.get("n199"), Some(&Json::from(199)));
    assert_eq!(map.get("k975"), Some(&Json::from(975)));
    let keys: Vec<&String> = map.keys().collect();
    assert_eq!(keys[0], "k950");
    assert_eq!(keys[50], "n0");
    // A parsed copy (its index built by the parser) equals it and finds the same keys.
    let parsed = json::parse(&Json::from(map.clone()).to_string()).unwrap();
    assert_eq!(parsed.as_object(), Some(&map));
    assert_eq!(parsed["n150"], Json::from(150));
    let mut reversed: Map = map
        .iter()
        .rev()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    assert_eq!(reversed, map);
    reversed.insert("extra", 1);
    assert_ne!(reversed, map);
    // Same size, one key renamed: the other side's index has no match for it.
    let mut renamed = map.clone();
    renamed.remove("n0");
    renamed.insert("n0x", 0);
    assert_ne!(renamed, map);
    assert_ne!(map, renamed);
}

#[test]
fn a_changed_clone_leaves_the_original_as_it_was() {
    // Objects are shared by clones until one changes (copy on write): a change deep in one
    // is never seen in the other.
    let original = httptool::json!({"a": {"b": {"c": 1}, "list": [{"d": 2}]}, "e": "x"});
    let mut copy = original.clone();
    assert_eq!(copy, original);
    let a = copy.get_mut("a").unwrap();
    a.get_mut("b")
        .unwrap()
        .as_object_mut()
        .unwrap()
        .insert("c", 2);
    let first = a.get_mut("list").unwrap().at_mut(0).unwrap();
    first.as_object_mut().unwrap().remove("d");
    for (_, v) in copy.as_object_mut().unwrap().iter_mut() {
        if v.is_string() {
            *v = Json::from("y");
        }
    }
    assert_eq!(
        copy,
        httptool::json!({"a": {"b": {"c": 2}, "list": [{}]}, "e": "y"})
    );
    assert_eq!(
        original,
        httptool::json!({"a": {"b": {"c": 1}, "list": [{"d": 2}]}, "e": "x"})
    );
    let map: Map = original.as_object().unwrap().clone();
    let back: Vec<(String, Json)> = map.into_iter().collect();
    assert_eq!(back.len(), 2);
    assert_eq!(original["a"]["b"]["c"], Json::from(1));
}

/// A value whose pretty text is several of the writer's 16 KiB chunks, with escapes, long
/// strings, numbers and empty containers between them.
fn large_value() -> Json {
    let mut items = Vec::new();
    for i in 0..2000 {
        items.push(httptool::json!({
            "id": i,
            "name": format!("item \"{}\"\n\u{e9}", i),
            "long": "x".repeat(i % 300),
            "tags": [],
            "meta": {},
            "ratio": i as f64 / 7.0,
            "nested": {"a": [1, 2, {"b": null}]},
        }));
    }
    Json::Array(items)
}

#[test]
fn write_pretty_io_writes_what_to_pretty_returns() {
    for value in [
        large_value(),
        Json::Null,
        json::parse("[]").unwrap(),
        json::parse("{}").unwrap(),
        json::parse(r#"{"a":{"b":[1,"\u2028",{}]}}"#).unwrap(),
    ] {
        let mut out: Vec<u8> = Vec::new();
        value.write_pretty_io(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), value.to_pretty());
        assert_eq!(format!("{:#?}", value), value.to_pretty());
    }
}

/// A byte stream that takes `room` bytes, then fails.
struct Full {
    room: usize,
    written: Vec<u8>,
    calls_after_error: usize,
}

impl std::io::Write for Full {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.room == 0 {
            self.calls_after_error += 1;
            return Err(std::io::Error::new(
                std::io::ErrorKind::WriteZero,
                "disk full",
            ));
        }
        let n = bytes.len().min(self.room);
        self.room -= n;
        self.written.extend_from_slice(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn write_pretty_io_returns_the_streams_first_error_and_stops() {
    let value = large_value();
    let mut full = Full {
        room: 20_000,
        written: Vec::new(),
        calls_after_error: 0,
    };
    let error = value.write_pretty_io(&mut full).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::WriteZero);
    assert_eq!(error.to_string(), "disk full");
    // One failed call, none after it, and what was written is the start of the text.
    assert_eq!(full.calls_after_error, 1);
    assert_eq!(full.written.len(), 20_000);
    assert!(value.to_pretty().as_bytes().starts_with(&full.written));
}

#[test]
fn a_maps_debug_is_its_json() {
    // An empty map was written as nothing at all: its `{}` stayed in the staging area.
    assert_eq!(format!("{:?}", Map::new()), "{}");
    assert_eq!(format!("{:#?}", Map::new()), "{}");
    let map: Map = (0..3_000).map(|i| (format!("key {i}"), i)).collect();
    let value = Json::from(map.clone());
    assert_eq!(format!("{:?}", map), value.to_string());
    assert_eq!(format!("{:#?}", map), value.to_pretty());
}

/// Strings around the writer's 64-byte limit for staging, plain or with one character that
/// needs escaping or is not ASCII, at the start, the middle and the end.
fn strings_around_the_staging_limit() -> Vec<String> {
    let mut cases = Vec::new();
    for len in [0, 1, 7, 8, 9, 62, 63, 64, 65, 66, 200] {
        let plain: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        cases.push(plain.clone());
        for special in [
            "\"", "\\", "\n", "\u{1}", "\u{7f}", "\u{e9}", "\u{2028}", "\u{65e5}",
        ] {
            for at in [0, len / 2, len] {
                let mut s = plain.clone();
                s.insert_str(at, special);
                cases.push(s);
            }
        }
    }
    cases
}

#[test]
fn pretty_strings_are_written_as_compact_ones() {
    // Pretty output stages short plain values where compact output writes them directly:
    // both must give the same quoted text, as keys and as values.
    for s in strings_around_the_staging_limit() {
        let value = httptool::json!([s.clone(), {s.clone(): s.clone(), "n": 1}]);
        let quoted = Json::from(s.as_str()).to_string();
        let expected = format!(
            "[\n  {q},\n  {{\n    {q}: {q},\n    \"n\": 1\n  }}\n]",
            q = quoted
        );
        assert_eq!(value.to_pretty(), expected, "{:?}", s);
        let mut out: Vec<u8> = Vec::new();
        value.write_pretty_io(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), expected, "{:?}", s);
    }
}

#[test]
fn pretty_indentation_deeper_than_one_run_of_spaces() {
    // 40 levels: 80 spaces of indentation, more than the writer copies at once.
    let mut value = Json::from("x");
    for _ in 0..40 {
        value = Json::Array(vec![value]);
    }
    let mut expected = String::new();
    for depth in 0..40 {
        expected.push_str(&" ".repeat(depth * 2));
        expected.push_str("[\n");
    }
    expected.push_str(&" ".repeat(80));
    expected.push_str("\"x\"\n");
    for depth in (0..40).rev() {
        expected.push_str(&" ".repeat(depth * 2));
        expected.push(']');
        if depth > 0 {
            expected.push('\n');
        }
    }
    assert_eq!(value.to_pretty(), expected);
    assert_eq!(format!("{:#?}", value), expected);
    assert_eq!(
        value.to_string(),
        format!("{}\"x\"{}", "[".repeat(40), "]".repeat(40))
    );
}

/// A byte stream that records the length of each write.
#[derive(Default)]
struct Recorder {
    bytes: Vec<u8>,
    writes: Vec<usize>,
}

impl std::io::Write for Recorder {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.writes.push(bytes.len());
        self.bytes.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn write_pretty_io_hands_over_chunks_of_bounded_size() {
    // The writer hands its text over in chunks of about 16 KiB: one may run past that by
    // the string that crossed the mark and a kilobyte of punctuation, never much more.
    let value = large_value();
    let mut out = Recorder::default();
    value.write_pretty_io(&mut out).unwrap();
    assert_eq!(String::from_utf8(out.bytes).unwrap(), value.to_pretty());
    assert!(out.writes.len() > 10, "{:?}", out.writes);
    let longest_string = 300 + 20;
    for &n in &out.writes {
        assert!(n <= 16 * 1024 + longest_string + 1024, "{:?}", out.writes);
    }
    // A lone string larger than a chunk is one piece of text, written whole.
    let big = Json::from("y".repeat(100_000));
    let mut out = Recorder::default();
    big.write_pretty_io(&mut out).unwrap();
    assert_eq!(String::from_utf8(out.bytes).unwrap(), big.to_string());
}
