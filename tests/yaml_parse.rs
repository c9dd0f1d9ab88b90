//! `httptool::yaml`: scalars by the core schema, every style, anchors and merges, the limits,
//! and the exact message of each error kind.

use httptool::json::{self, Json};
use httptool::yaml::{self, ErrorKind, ParseOptions};

fn y(text: &str) -> Json {
    match yaml::parse(text) {
        Ok(v) => v,
        Err(e) => panic!("{text:?} did not parse: {e}"),
    }
}

fn j(text: &str) -> Json {
    json::parse(text).expect("test JSON")
}

fn err(text: &str) -> yaml::Error {
    match yaml::parse(text) {
        Ok(v) => panic!("{text:?} parsed as {v}"),
        Err(e) => e,
    }
}

#[test]
fn core_schema_table() {
    let rows: &[(&str, &str)] = &[
        ("", "null"),
        ("~", "null"),
        ("null", "null"),
        ("Null", "null"),
        ("NULL", "null"),
        ("nULL", "\"nULL\""),
        ("true", "true"),
        ("True", "true"),
        ("TRUE", "true"),
        ("false", "false"),
        ("FALSE", "false"),
        ("yes", "\"yes\""),
        ("no", "\"no\""),
        ("on", "\"on\""),
        ("off", "\"off\""),
        ("y", "\"y\""),
        ("42", "42"),
        ("-7", "-7"),
        ("+3", "3"),
        ("0755", "755"),
        ("-0", "0"),
        ("0o17", "15"),
        ("0x1F", "31"),
        ("0x", "\"0x\""),
        ("0b101", "\"0b101\""),
        ("1_000", "\"1_000\""),
        ("1.5", "1.5"),
        ("1e3", "1000.0"),
        ("-1.5E-2", "-0.015"),
        (".5", "0.5"),
        ("1.", "1.0"),
        ("+.5e1", "5.0"),
        ("12345678901234567890123", "12345678901234567890123"),
        ("1e400", "1e400"),
        ("0.1.2", "\"0.1.2\""),
        ("2001-12-14", "\"2001-12-14\""),
        ("1:20", "\"1:20\""),
        ("- x", "[\"x\"]"),
    ];
    for (yaml_text, expected) in rows {
        assert_eq!(y(yaml_text), j(expected), "plain scalar {yaml_text:?}");
        // Quoted, every one is a string.
        let quoted = format!("'{yaml_text}'");
        if !yaml_text.starts_with('-') {
            assert_eq!(y(&quoted), Json::from(*yaml_text), "{quoted}");
        }
    }
}

#[test]
fn infinity_and_nan_are_errors() {
    for text in [".inf", "-.Inf", "+.INF", ".nan", ".NaN", "x: .NAN"] {
        let e = err(text);
        assert_eq!(e.kind(), ErrorKind::Value, "{text}");
    }
    assert_eq!(
        err("a: .inf").to_string(),
        ".inf and .nan cannot be written in JSON (quote them to read a string) at 1:4"
    );
    assert_eq!(y("a: '.inf'")["a"].as_str(), Some(".inf"));
    // `-.nan` is not in the schema: a string.
    assert_eq!(y("-.nan").as_str(), Some("-.nan"));
}

#[test]
fn core_tags_are_honoured() {
    assert_eq!(y("!!str 12"), Json::from("12"));
    assert_eq!(y("!!int '12'"), j("12"));
    assert_eq!(y("!!float 3"), j("3.0"));
    assert_eq!(y("!!bool 'true'"), j("true"));
    assert_eq!(y("!!null ''"), j("null"));
    assert_eq!(y("!<tag:yaml.org,2002:str> 1"), Json::from("1"));
    assert_eq!(
        y("%TAG !e! tag:yaml.org,2002:\n---\n!e!str 1"),
        Json::from("1")
    );
    assert_eq!(y("! 12"), Json::from("12"));
    assert_eq!(y("!!map {a: 1}"), j(r#"{"a":1}"#));
    assert_eq!(y("!!seq [1]"), j("[1]"));
    // Other tags: the value as written.
    assert_eq!(y("!custom 12"), j("12"));
    assert_eq!(y("!!binary aGk="), Json::from("aGk="));
    assert_eq!(y("!thing {a: 1}"), j(r#"{"a":1}"#));
    for bad in [
        "!!int abc",
        "!!bool yes",
        "!!null 0",
        "!!map [1]",
        "!!seq {a: 1}",
        "!!str [1]",
    ] {
        assert_eq!(err(bad).kind(), ErrorKind::Value, "{bad}");
    }
    let strict = ParseOptions::new().strict_tags(true);
    assert!(strict.parse("!!str 1").is_ok());
    for bad in ["!custom 1", "!!binary aGk=", "!x [1]"] {
        assert_eq!(
            strict.parse(bad).unwrap_err().kind(),
            ErrorKind::Unsupported,
            "{bad}"
        );
    }
}

#[test]
fn keys_that_are_not_strings_become_their_json_text() {
    let v = y("200: ok\ntrue: t\n~: n\n1.50: f\n0x10: h\n[a, b]: s\n{c: 1}: m\n");
    assert_eq!(
        v,
        j(
            r#"{"200":"ok","true":"t","null":"n","1.5":"f","16":"h","[\"a\",\"b\"]":"s","{\"c\":1}":"m"}"#
        )
    );
}

/// `{{{a: 1}: 1}: 1}`: a mapping used as a key, `depth` levels deep, in flow style.
fn nested_keys(depth: usize) -> String {
    let mut text = String::from("a");
    for _ in 0..depth {
        text = format!("{{{}: 1}}", text);
    }
    format!("{}: 1\n", text)
}

#[test]
fn keys_inside_keys_are_copies_under_the_alias_budget() {
    // Each level escapes the text of the one inside it again, so the outer key's text
    // about doubles with each: 40 levels in 300 bytes would be terabytes of key. (The
    // default budget stops it at about 64 MB of text; a smaller one keeps this test fast.)
    let e = ParseOptions::new()
        .max_alias_nodes(10_000)
        .parse(&nested_keys(40))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::AliasLimit);
    assert!(
        e.to_string().starts_with(
            "anchors, aliases and keys that are sequences or mappings (written as JSON text) copy more than 10000 nodes at 1:"
        ),
        "{e}"
    );
    // Under the budget they are read, whatever their depth: a few levels, ...
    let v = y(&nested_keys(2));
    assert_eq!(v, j(r#"{"{\"{\\\"a\\\":1}\":1}":1}"#));
    // ... and as many as a budget set by the caller allows: each key costs one node and
    // one more for each 64 bytes of its text, which is `{KEY:1}` with the key inside it
    // written as a JSON string.
    let mut key = String::from("{\"a\":1}");
    let mut cost = 0;
    for _ in 0..6 {
        cost += 1 + key.len() / 64;
        key = format!("{{{}:1}}", Json::from(key.as_str()));
    }
    assert!(cost > 6, "the deepest keys are over 64 bytes");
    assert!(ParseOptions::new()
        .max_alias_nodes(cost)
        .parse(&nested_keys(6))
        .is_ok());
    let e = ParseOptions::new()
        .max_alias_nodes(cost - 1)
        .parse(&nested_keys(6))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::AliasLimit);
    // A key that is a scalar other than a string is no copy: any number of them.
    let many: String = (0..5_000).map(|i| format!("{}: x\n", i)).collect();
    assert!(ParseOptions::new().max_alias_nodes(1).parse(&many).is_ok());
}

#[test]
fn duplicate_keys_are_errors_after_conversion() {
    let e = err("a: 1\nb: 2\na: 3\n");
    assert_eq!(e.kind(), ErrorKind::DuplicateKey);
    assert_eq!(e.to_string(), "duplicate mapping key at 3:1");
    assert_eq!(err("1: a\n'1': b\n").kind(), ErrorKind::DuplicateKey);
    assert_eq!(err("{a: 1, a: 2}").kind(), ErrorKind::DuplicateKey);
    // A large mapping uses the hash set; the duplicate is still found, at its place.
    let mut text: String = (0..5000).map(|i| format!("k{i}: {i}\n")).collect();
    text.push_str("k4321: again\n");
    let e = err(&text);
    assert_eq!((e.kind(), e.line()), (ErrorKind::DuplicateKey, 5001));
    assert_eq!(
        y(&text[..text.len() - 13]).as_object().map(|m| m.len()),
        Some(5000)
    );
}

#[test]
fn scalar_styles() {
    let v = y(r#"
plain: a
  multi line
   plain
single: 'it''s
  folded

  here'
double: "tab\there \x41\u00e9\U0001F600 \N\_\L\P \
  joined \/ \" \\ \0 \a \b \e \f \r \v"
literal: |
  line 1
   indented
  line 3

folded: >
  folded
  text

  para
   kept
  end
strip: |-
  x

keep: |+
  y

indicator: |2
    two more
"#);
    assert_eq!(v["plain"].as_str(), Some("a multi line plain"));
    assert_eq!(v["single"].as_str(), Some("it's folded\nhere"));
    assert_eq!(
        v["double"].as_str(),
        Some("tab\there A\u{e9}\u{1F600} \u{85}\u{a0}\u{2028}\u{2029} joined / \" \\ \0 \u{7} \u{8} \u{1b} \u{c} \r \u{b}")
    );
    assert_eq!(v["literal"].as_str(), Some("line 1\n indented\nline 3\n"));
    assert_eq!(
        v["folded"].as_str(),
        Some("folded text\npara\n kept\nend\n")
    );
    assert_eq!(v["strip"].as_str(), Some("x"));
    assert_eq!(v["keep"].as_str(), Some("y\n\n"));
    assert_eq!(v["indicator"].as_str(), Some("  two more\n"));
}

#[test]
fn comments_markers_directives_and_explicit_keys() {
    let v = y("%YAML 1.2\n# comment\n--- # doc\n? key # explicit\n: value\n? only\nlist: [1, 2] # trailing\n...\n");
    assert_eq!(v, j(r#"{"key":"value","only":null,"list":[1,2]}"#));
    assert_eq!(y(""), Json::Null);
    assert_eq!(y("# only a comment\n"), Json::Null);
    assert_eq!(y("\u{FEFF}a: 1"), j(r#"{"a":1}"#));
}

#[test]
fn several_documents() {
    let stream = "a: 1\n---\nb: 2\n";
    let e = err(stream);
    assert_eq!(e.kind(), ErrorKind::Documents);
    assert_eq!(
        e.to_string(),
        "more than one document in the stream (ask for the first document only to read it) at 2:1"
    );
    let first = ParseOptions::new().first_document_only(true);
    assert_eq!(first.parse(stream).unwrap(), j(r#"{"a":1}"#));
    // The rest is not read.
    assert_eq!(first.parse("a: 1\n--- [\n").unwrap(), j(r#"{"a":1}"#));
    let all = ParseOptions::new().parse_all(stream).unwrap();
    assert_eq!(all, vec![j(r#"{"a":1}"#), j(r#"{"b":2}"#)]);
}

#[test]
fn anchors_aliases_and_merge_keys() {
    let v = y("
base: &base {a: 1, b: 2}
list: &list [x, y]
copy: *base
again: *list
merged:
  <<: *base
  b: 3
multi:
  <<: [{a: 1}, {a: 2, c: 3}]
  d: 4
quoted:
  '<<': literal
");
    assert_eq!(v["copy"], v["base"]);
    assert_eq!(v["again"], j(r#"["x","y"]"#));
    // Explicit keys win over merged ones; earlier merged mappings over later ones.
    assert_eq!(v["merged"], j(r#"{"a":1,"b":3}"#));
    assert_eq!(v["multi"], j(r#"{"a":1,"c":3,"d":4}"#));
    assert_eq!(v["quoted"], j(r#"{"<<":"literal"}"#));
    let e = err("a: *nothing\n");
    assert_eq!(e.kind(), ErrorKind::UnknownAlias);
    assert_eq!(e.to_string(), "alias to an undefined anchor at 1:4");
    let e = err("a: {<<: 1}\n");
    assert_eq!(e.kind(), ErrorKind::Value);
    assert_eq!(
        e.to_string(),
        "merge key '<<' needs a mapping or a sequence of mappings at 1:5"
    );
}

#[test]
fn billion_laughs_is_refused_under_the_alias_budget() {
    let mut text = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let prev = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
        ));
    }
    let e = err(&text);
    assert_eq!(e.kind(), ErrorKind::AliasLimit);
    assert!(
        e.to_string()
            .starts_with("anchors and aliases copy more than 1000000 nodes at "),
        "{e}"
    );
    // A long string copied many times counts for its size.
    let long = "x".repeat(64 * 1024);
    let mut text = format!("s: &s {long}\nl: [");
    for _ in 0..20_000 {
        text.push_str("*s, ");
    }
    text.push_str("]\n");
    assert_eq!(err(&text).kind(), ErrorKind::AliasLimit);
    // A budget set by the caller.
    let small = ParseOptions::new().max_alias_nodes(10);
    let e = small
        .parse("a: &a [1, 2, 3]\nb: [*a, *a, *a]\n")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "anchors and aliases copy more than 10 nodes at 2:9"
    );
    assert!(ParseOptions::new()
        .max_alias_nodes(100)
        .parse("a: &a [1, 2, 3]\nb: [*a, *a, *a]\n")
        .is_ok());
}

#[test]
fn depth_limit_on_both_sides() {
    let at = |n: usize| "[".repeat(n) + &"]".repeat(n);
    assert!(yaml::parse(&at(128)).is_ok());
    let e = err(&at(129));
    assert_eq!(e.kind(), ErrorKind::Depth);
    assert_eq!(
        e.to_string(),
        "sequences and mappings nested deeper than 128 levels at 1:129"
    );
    assert!(ParseOptions::new().max_depth(300).parse(&at(300)).is_ok());
    // Block nesting counts the same way.
    let mut block = String::new();
    for i in 0..129 {
        block.push_str(&" ".repeat(i));
        block.push_str("k:\n");
    }
    assert_eq!(err(&block).kind(), ErrorKind::Depth);
}

#[test]
fn deep_input_on_a_small_stack() {
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let flow = "[".repeat(100_000);
            let e1 = yaml::parse(&flow).unwrap_err().kind();
            let deep = ParseOptions::new().max_depth(200_000);
            let closed = "[".repeat(100_000) + &"]".repeat(100_000);
            let ok = deep.parse(&closed).is_ok();
            let maps = "{a: ".repeat(100_000) + &"}".repeat(100_000);
            let e2 = deep.parse(&maps).map(|_| ());
            let blocks = "- ".repeat(50_000) + "x\n";
            let e3 = deep.parse(&blocks).is_ok();
            (e1, ok, e2.is_ok(), e3)
        })
        .expect("spawn");
    assert_eq!(
        handle.join().expect("no stack overflow"),
        (ErrorKind::Depth, true, true, true)
    );
}

#[test]
fn long_and_many_inputs_parse() {
    // Not timed: these would take minutes if any path were quadratic.
    let long_plain = "a".repeat(4_000_000);
    assert_eq!(y(&long_plain).as_str().map(str::len), Some(4_000_000));
    let long_lines: String = (0..200_000).map(|_| "word ").collect::<String>();
    assert!(y(&format!("k: {long_lines}\n"))["k"].is_string());
    let many: String = (0..200_000).map(|i| format!("key{i}: *a\n")).collect();
    let v = y(&format!("x: &a 1\n{many}"));
    assert_eq!(v.as_object().map(|m| m.len()), Some(200_001));
    let flow_keys: String = (0..200_000).map(|i| format!("k{i}: {i}, ")).collect();
    assert!(y(&format!("{{{flow_keys}}}")).is_object());
}

#[test]
fn encodings() {
    assert_eq!(yaml::parse_bytes(b"a: 1").unwrap(), j(r#"{"a":1}"#));
    assert_eq!(
        yaml::parse_bytes(b"\xEF\xBB\xBFa: 1").unwrap(),
        j(r#"{"a":1}"#)
    );
    let cases: &[(&[u8], &str)] = &[
        (
            b"\xFE\xFF\x00a",
            "the text is UTF-16; only UTF-8 is read at 1:1",
        ),
        (
            b"a\x00:\x00",
            "the text is UTF-16; only UTF-8 is read at 1:1",
        ),
        (
            b"\x00a\x00:",
            "the text is UTF-16; only UTF-8 is read at 1:1",
        ),
        (
            b"\x00\x00\xFE\xFFa",
            "the text is UTF-32; only UTF-8 is read at 1:1",
        ),
        (
            b"a\x00\x00\x00",
            "the text is UTF-32; only UTF-8 is read at 1:1",
        ),
        (b"a: \"\xE9\"", "invalid UTF-8 at 1:5"),
    ];
    for (bytes, message) in cases {
        let e = yaml::parse_bytes(bytes).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Encoding);
        assert_eq!(e.to_string(), *message);
    }
    let e = err("a: \"x\u{1}\"");
    assert_eq!(e.kind(), ErrorKind::Encoding);
    assert_eq!(
        e.to_string(),
        "control character not allowed in YAML text at 1:6"
    );
}

#[test]
fn error_messages_name_what_was_expected_and_where() {
    let rows: &[(&str, ErrorKind, &str)] = &[
        (
            "a: 1\n\tb: 2\n",
            ErrorKind::Syntax,
            "tab used for indentation at 2:1",
        ),
        (
            "a: 1\nb\nc: 2\n",
            ErrorKind::Syntax,
            "expected a mapping value after key at 2:1",
        ),
        (
            "a: [1, 2\n",
            ErrorKind::Eof,
            "unexpected end of input in flow collection at 2:1",
        ),
        (
            "a: 'x\n",
            ErrorKind::Eof,
            "unexpected end of input in quoted scalar at 1:4",
        ),
        (
            "a: \"\\q\"",
            ErrorKind::Syntax,
            "invalid escape in double-quoted scalar at 1:5",
        ),
        (
            "a: \"\\uD800\"",
            ErrorKind::Syntax,
            "escape names no Unicode scalar value at 1:5",
        ),
        (
            "[a, b}",
            ErrorKind::Syntax,
            "expected ',' or ']' in flow sequence at 1:6",
        ),
        (
            "{a: 1, b: [c] d}",
            ErrorKind::Syntax,
            "expected ',' or '}' in flow mapping at 1:15",
        ),
        (
            "a: b: c",
            ErrorKind::Syntax,
            "mapping value not allowed here at 1:5",
        ),
        (
            "- a\nb: 1\n",
            ErrorKind::Syntax,
            "expected '-' or the end of the block sequence at 2:1",
        ),
        (
            "a: 1\n- b\n",
            ErrorKind::Syntax,
            "expected a mapping key or the end of the mapping at 2:1",
        ),
        (
            "a: |0\n x",
            ErrorKind::Syntax,
            "invalid block scalar header at 1:5",
        ),
        (
            "a: &x &y 1",
            ErrorKind::Syntax,
            "a node may have only one anchor at 1:7",
        ),
        (
            "a: !!str !!int 1",
            ErrorKind::Syntax,
            "a node may have only one tag at 1:10",
        ),
        (
            "a: !e!x 1",
            ErrorKind::Syntax,
            "tag handle not declared by a %TAG directive at 1:4",
        ),
        (
            "a: 1 #c\nb: x#y\nc: 'q'#z",
            ErrorKind::Syntax,
            "'#' must follow a space to start a comment at 3:7",
        ),
        (
            "%YAML 1.2\n%YAML 1.2\n---\n",
            ErrorKind::Syntax,
            "directive repeated in one document at 2:1",
        ),
        (
            "a: ]",
            ErrorKind::Syntax,
            "unexpected end of a flow collection at 1:4",
        ),
        (
            "key: \"a\n--- b\"",
            ErrorKind::Syntax,
            "document marker inside a quoted scalar at 2:1",
        ),
        (
            "a:\n  - 1\n - 2\n",
            ErrorKind::Syntax,
            "expected a mapping key or the end of the mapping at 3:2",
        ),
        (
            "a: 0x10000000000000000",
            ErrorKind::Value,
            "hexadecimal or octal integer too large at 1:4",
        ),
        (
            "a: !!int x",
            ErrorKind::Value,
            "value does not match its tag at 1:4",
        ),
    ];
    let mut wrong = Vec::new();
    for (text, kind, message) in rows {
        let e = err(text);
        if (e.kind(), e.to_string().as_str()) != (*kind, *message) {
            wrong.push(format!("{text:?}: {:?} {e}", e.kind()));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn a_real_document_reads_the_same_as_yaml_and_as_json() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/openapi");
    let spotify =
        std::fs::read_to_string(dir.join("spotify-web-api.fixed.openapi.yaml")).expect("spotify");
    let v = y(&spotify);
    assert!(v["openapi"].is_string());
    assert!(v["paths"].as_object().map_or(0, |m| m.len()) > 10);
    // JSON is YAML: the compact and pretty JSON of the value read back as YAML unchanged.
    assert_eq!(y(&v.to_string()), v);
    assert_eq!(y(&v.to_pretty()), v);
}
