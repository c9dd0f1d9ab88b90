//! Nesting: the default limit sits exactly at 128 levels, and with a raised limit values
//! 100,000 levels deep parse, write, compare, clone and drop on a thread with a 256 KiB stack,
//! which a recursive implementation would overflow.

use httptool::json::{self, ErrorKind, Json, Map, ParseOptions, DEFAULT_MAX_DEPTH};

const DEEP: usize = 100_000;
const SMALL_STACK: usize = 256 * 1024;

/// Runs `f` on a thread with a 256 KiB stack and returns what it returns.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .unwrap()
        .join()
        .expect("panicked or overflowed the stack")
}

fn nested_arrays(depth: usize) -> String {
    "[".repeat(depth) + &"]".repeat(depth)
}

fn nested_objects(depth: usize) -> String {
    "{\"a\":".repeat(depth) + "null" + &"}".repeat(depth)
}

/// Arrays and objects in turn, with a scalar beside each level: `[1,{"k":[1,{"k":null}]}]`.
fn nested_mixed(depth: usize) -> String {
    let mut open = String::new();
    let mut close = String::new();
    for level in 0..depth {
        if level % 2 == 0 {
            open.push_str("[1,");
            close.push(']');
        } else {
            open.push_str("{\"k\":");
            close.push('}');
        }
    }
    open + "null" + &close.chars().rev().collect::<String>()
}

/// Everything a deep value goes through, on a small stack.
fn check_deep(text: String) {
    on_small_stack(move || {
        let options = ParseOptions::new().max_depth(DEEP);
        let value = options.parse(&text).unwrap();

        let compact = value.to_string();
        assert_eq!(compact, text);
        let mut appended = String::new();
        value.write_to(&mut appended);
        assert_eq!(appended, text);
        assert_eq!(format!("{value:?}"), text);

        let reparsed = options.parse(&compact).unwrap();
        assert!(reparsed == value);
        let copy = value.clone();
        assert!(copy == value);
        // Differ only at the bottom: equality must walk all the way down.
        let other = options.parse(&text.replacen("null", "0", 1)).unwrap();
        assert!(other != value || !text.contains("null"));
        drop((value, reparsed, copy, other));
    });
}

#[test]
fn a_hundred_thousand_nested_arrays() {
    check_deep(nested_arrays(DEEP));
}

#[test]
fn a_hundred_thousand_nested_objects() {
    check_deep(nested_objects(DEEP));
}

#[test]
fn a_hundred_thousand_levels_of_arrays_and_objects() {
    check_deep(nested_mixed(DEEP));
}

#[test]
fn pretty_output_of_deep_values() {
    // Pretty output of n levels holds about n^2 bytes of indentation (20 GB for 100,000
    // levels), so this writes 3,000 levels (18 MB) on a 64 KiB stack: still far more levels
    // than a recursive writer could fit there.
    const LEVELS: usize = 3_000;
    let text = nested_mixed(LEVELS);
    let pretty = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || {
            let value = ParseOptions::new().max_depth(LEVELS).parse(&text).unwrap();
            (value.to_pretty(), format!("{value:#?}"), value)
        })
        .unwrap()
        .join()
        .expect("panicked or overflowed the stack");
    let (pretty, debug, value) = pretty;
    assert_eq!(pretty, debug);
    let last_line = pretty.lines().last().unwrap();
    assert_eq!(last_line, "]");
    let innermost = format!("\n{}\"k\": null\n", " ".repeat(2 * LEVELS));
    assert!(pretty.contains(&innermost));
    let back = ParseOptions::new()
        .max_depth(LEVELS)
        .parse(&pretty)
        .unwrap();
    assert!(back == value);
}

#[test]
fn deep_values_built_in_code_drop_and_compare_without_recursion() {
    on_small_stack(|| {
        let mut array = Json::Null;
        let mut object = Json::Null;
        for _ in 0..DEEP * 2 {
            array = Json::Array(vec![Json::from(1), array]);
            let mut map = Map::new();
            map.insert("k", object);
            object = Json::Object(map);
        }
        let copy = array.clone();
        assert!(copy == array);
        assert!(object != array);
        assert_eq!(object.clone(), object);
        drop((array, copy, object));
    });
}

#[test]
fn deep_values_that_share_their_insides_drop_without_recursion() {
    // A clone shares its objects with the original (copy on write): whichever is dropped
    // first only lets go of them, and the last owner takes all 100,000 levels apart.
    for original_first in [true, false] {
        on_small_stack(move || {
            let value = ParseOptions::new()
                .max_depth(DEEP)
                .parse(&nested_objects(DEEP))
                .unwrap();
            let mut copy = value.clone();
            copy.as_object_mut().unwrap().insert("b", 1);
            assert!(copy != value);
            if original_first {
                drop(value);
                drop(copy);
            } else {
                drop(copy);
                drop(value);
            }
        });
    }
}

#[test]
fn the_default_limit_is_128_levels() {
    assert_eq!(DEFAULT_MAX_DEPTH, 128);
    for text in [nested_arrays(128), nested_objects(128), nested_mixed(128)] {
        assert!(json::parse(&text).is_ok(), "{text}");
    }
    let table: &[(&str, String, &str)] = &[
        (
            "arrays",
            nested_arrays(129),
            "arrays and objects nested deeper than 128 levels at 1:129",
        ),
        (
            "objects",
            nested_objects(129),
            "arrays and objects nested deeper than 128 levels at 1:641",
        ),
        (
            "inside a long array",
            format!("[{}]", ["0"; 10].join(",") + "," + &nested_arrays(128)),
            "arrays and objects nested deeper than 128 levels at 1:149",
        ),
    ];
    for (name, text, message) in table {
        let err = json::parse(text).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Depth, "{name}");
        assert_eq!(err.to_string(), *message, "{name}");
    }
}

#[test]
fn the_limit_counts_containers_not_scalars() {
    let options = ParseOptions::new().max_depth(1);
    assert!(options.parse("[1, \"two\", null]").is_ok());
    assert!(options.parse("{\"a\": 1}").is_ok());
    assert!(options.parse("[]").is_ok());
    assert_eq!(options.parse("[[]]").unwrap_err().kind(), ErrorKind::Depth);
    assert_eq!(options.parse("[{}]").unwrap_err().kind(), ErrorKind::Depth);

    let none = ParseOptions::new().max_depth(0);
    assert!(none.parse("\"scalar\"").is_ok());
    assert_eq!(
        none.parse("[]").unwrap_err().to_string(),
        "arrays and objects nested deeper than 0 levels at 1:1"
    );
}
