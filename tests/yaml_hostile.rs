//! YAML built to make the reader work without bound: nested anchors no alias names, merge
//! keys that repeat the mapping's keys, `%TAG` directives by the thousand and long `%TAG`
//! prefixes. Each input is made here; the work is shown bounded by an error kind, by a large
//! input that parses, or by the time of two sizes compared (never by a fixed time).

use std::time::{Duration, Instant};

use httptool::json::Json;
use httptool::yaml::{self, ErrorKind, ParseOptions};

/// `depth` mappings nested, each anchored (`&aN`) and holding `width` scalars beside the
/// next level: each anchor's content holds every level below it.
fn nested_anchors(depth: usize, width: usize) -> String {
    let mut text = String::new();
    for level in 0..depth {
        let indent = "  ".repeat(level);
        text.push_str(&format!("{indent}n{level}: &a{level}\n"));
        for i in 0..width {
            text.push_str(&format!("{indent}  v{i}: {i}\n"));
        }
    }
    text
}

/// Anchors no alias names are not copied: a document of nested anchors costs nothing
/// against the alias budget, however many levels each anchor holds. (Each anchor copied its
/// content when it closed, and the copies counted against the budget the first alias
/// checked.)
#[test]
fn nested_anchors_that_no_alias_names_copy_nothing() {
    // 100 levels of 200 scalars: the copies would be 100 * 101 / 2 * 200 = 1,010,000 nodes.
    let mut text = nested_anchors(100, 200);
    text.push_str("small: &s 1\nagain: *s\n");
    let value = yaml::parse(&text).unwrap();
    assert_eq!(value["again"], Json::from(1));
    assert_eq!(value["n0"]["n1"]["n2"]["v199"], Json::from(199));
    // A budget of ten nodes is enough: the one alias copies one.
    let tight = ParseOptions::new()
        .max_alias_nodes(10)
        .parse(&text)
        .unwrap();
    assert_eq!(tight, value);
}

/// An anchor the text names after a `*` (here in a comment, which aliases nothing) is
/// copied, and the copy is checked against the budget when it is made.
#[test]
fn anchor_copies_are_checked_against_the_alias_budget() {
    let mut text = String::from("# *a0 *a1 *a2 *a3 *a4 *a5 *a6 *a7 *a8 *a9\n");
    text.push_str(&nested_anchors(10, 100));
    let kind = ParseOptions::new()
        .max_alias_nodes(1000)
        .parse(&text)
        .map(|_| ())
        .map_err(|e| e.kind());
    assert_eq!(kind, Err(ErrorKind::AliasLimit));
    // Named but under the budget: read.
    assert!(ParseOptions::new()
        .max_alias_nodes(100_000)
        .parse(&text)
        .is_ok());
}

/// The least of five runs of `parse` on `text` (the least, so a busy machine shows less).
fn least_time(text: &str, parse: impl Fn(&str) -> Json) -> Duration {
    (0..3)
        .map(|_| {
            let started = Instant::now();
            let value = parse(text);
            let took = started.elapsed();
            drop(value);
            took
        })
        .min()
        .unwrap_or_default()
}

/// Asserts that eight times the input takes well under 64 times the time (linear work
/// takes about 8).
fn assert_linear(small: &str, large: &str, parse: impl Fn(&str) -> Json) {
    let small_time = least_time(small, &parse);
    let large_time = least_time(large, &parse);
    let ratio = large_time.as_secs_f64() / small_time.as_secs_f64().max(1e-6);
    assert!(
        ratio < 24.0,
        "{} bytes took {:?}, {} bytes {:?}: {:.1} times",
        small.len(),
        small_time,
        large.len(),
        large_time,
        ratio
    );
}

/// A mapping of `keys` keys that merges (`<<`) an anchored mapping with the same keys.
fn merge_repeating_keys(keys: usize) -> String {
    let mut text = String::from("base: &base\n");
    for i in 0..keys {
        text.push_str(&format!("  k{i}: {i}\n"));
    }
    text.push_str("copy:\n  <<: *base\n");
    for i in 0..keys {
        text.push_str(&format!("  k{i}: x\n"));
    }
    text
}

/// Merge keys whose mappings repeat the mapping's own keys take time linear in the keys
/// (each repeated key was confirmed by a scan of the mapping's keys).
#[test]
fn merge_keys_that_repeat_the_mappings_keys_are_linear() {
    let small = merge_repeating_keys(5_000);
    let large = merge_repeating_keys(40_000);
    let value = yaml::parse(&large).unwrap();
    assert_eq!(value["copy"]["k39999"], Json::from("x"));
    assert_eq!(value["copy"].as_object().map(|m| m.len()), Some(40_000));
    assert_linear(&small, &large, |t| yaml::parse(t).unwrap());
}

/// `directives` distinct `%TAG` handles, each used once.
fn tag_directives(directives: usize) -> String {
    let mut text = String::new();
    for i in 0..directives {
        text.push_str(&format!("%TAG !h{i}! tag:example.com,2000:{i}/\n"));
    }
    text.push_str("---\n");
    for i in 0..directives {
        text.push_str(&format!("- !h{i}!x {i}\n"));
    }
    text
}

/// Many `%TAG` directives take time linear in their number (each was compared with every
/// one before it, and each tag looked up by a scan).
#[test]
fn many_tag_directives_are_linear() {
    let small = tag_directives(5_000);
    let large = tag_directives(40_000);
    let value = yaml::parse(&large).unwrap();
    assert_eq!(value[39_999], Json::from(39_999));
    assert_linear(&small, &large, |t| yaml::parse(t).unwrap());
}

/// One `%TAG` prefix of `prefix` bytes named by `uses` nodes; or, `in_comment`, a short
/// prefix and a comment as long, so that both texts are the same size.
fn long_tag_prefix(prefix: usize, uses: usize, in_comment: bool) -> String {
    let long = "x".repeat(prefix);
    let mut text = if in_comment {
        format!("%TAG !p! tag:x:\n# {}\n---\n", long)
    } else {
        format!("%TAG !p! tag:{}:\n---\n", long)
    };
    for i in 0..uses {
        text.push_str(&format!("- !p!t {i}\n"));
    }
    text
}

/// A long `%TAG` prefix costs its length once, not once for every node that names it: a
/// 1 MiB prefix named by 16,000 nodes takes about the time of the same text with the
/// prefix in a comment (it took 16 GB of copying, hundreds of times as long). The bound
/// leaves room for a loaded machine running the suite's other tests beside this one.
#[test]
fn a_long_tag_prefix_is_not_copied_for_every_node() {
    let named = long_tag_prefix(1 << 20, 16_000, false);
    let commented = long_tag_prefix(1 << 20, 16_000, true);
    let value = yaml::parse(&named).unwrap();
    assert_eq!(value[15_999], Json::from(15_999));
    let parse = |t: &str| yaml::parse(t).unwrap();
    let commented_time = least_time(&commented, parse);
    let named_time = least_time(&named, parse);
    let ratio = named_time.as_secs_f64() / commented_time.as_secs_f64().max(1e-6);
    assert!(
        ratio < 10.0,
        "in a comment {:?}, named {:?}: {:.1} times",
        commented_time,
        named_time,
        ratio
    );
}
