//! JSONTestSuite (`../shared/conformance/JSONTestSuite`, beside the project): every `y_` file
//! is accepted, every `n_` file refused, every `i_` file does what the table below (and the
//! module docs of `httptool::json`) says, and every `test_transform` file parses, writes and
//! parses back to an equal value.
//!
//! Files are read as bytes and given to `parse_bytes`: some hold invalid UTF-8, UTF-16 or a
//! byte order mark. Each file is parsed on a thread with a 256 KiB stack, so a parser that
//! recursed on nesting would crash the test (`n_structure_100000_opening_arrays.json`).
//!
//! The tests are ignored by default: they need the suite beside the project (tests/README.md
//! says how to get it and how to run them).

use std::path::{Path, PathBuf};

use httptool::json::{self, ErrorKind, Json, ParseOptions};

/// What an `i_` file does, and why.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    /// Accepted; the written value is the given text.
    Accepted(&'static str),
    /// Refused with this kind.
    Refused(ErrorKind),
}

use Outcome::{Accepted, Refused};

const SURROGATE: &str = "a lone or unpaired UTF-16 surrogate in a \\u escape";
const UTF8: &str = "invalid UTF-8 (RFC 8259 section 8.1: JSON text is UTF-8)";
const UTF16: &str = "UTF-16 is not UTF-8 (RFC 8259 section 8.1)";
const BIG_INT: &str = "an integer beyond i64/u64: kept exactly as written";
const BIG_FLOAT: &str = "a number beyond f64's range: kept exactly as written";

/// Every `i_` file of the suite: what the parser does with it, and why.
const IMPLEMENTATION_DEFINED: &[(&str, Outcome, &str)] = &[
    ("i_number_double_huge_neg_exp.json", Accepted("[123.456e-789]"), BIG_FLOAT),
    ("i_number_huge_exp.json", Accepted("[0.4e00669999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999969999999006]"), BIG_FLOAT),
    ("i_number_neg_int_huge_exp.json", Accepted("[-1e+9999]"), BIG_FLOAT),
    ("i_number_pos_double_huge_exp.json", Accepted("[1.5e+9999]"), BIG_FLOAT),
    ("i_number_real_neg_overflow.json", Accepted("[-123123e100000]"), BIG_FLOAT),
    ("i_number_real_pos_overflow.json", Accepted("[123123e100000]"), BIG_FLOAT),
    ("i_number_real_underflow.json", Accepted("[123e-10000000]"), BIG_FLOAT),
    ("i_number_too_big_neg_int.json", Accepted("[-123123123123123123123123123123]"), BIG_INT),
    ("i_number_too_big_pos_int.json", Accepted("[100000000000000000000]"), BIG_INT),
    ("i_number_very_big_negative_int.json", Accepted("[-237462374673276894279832749832423479823246327846]"), BIG_INT),
    ("i_object_key_lone_2nd_surrogate.json", Refused(ErrorKind::Escape), SURROGATE),
    ("i_string_1st_surrogate_but_2nd_missing.json", Refused(ErrorKind::Escape), SURROGATE),
    ("i_string_1st_valid_surrogate_2nd_invalid.json", Refused(ErrorKind::Escape), SURROGATE),
    ("i_string_UTF-16LE_with_BOM.json", Refused(ErrorKind::Utf8), UTF16),
    ("i_string_UTF-8_invalid_sequence.json", Refused(ErrorKind::Utf8), UTF8),
    ("i_string_UTF8_surrogate_U+D800.json", Refused(ErrorKind::Utf8), UTF8),
    ("i_string_incomplete_surrogate_and_escape_valid.json", Refused(ErrorKind::Escape), SURROGATE),
    ("i_string_incomplete_surrogate_pair.json", Refused(ErrorKind::Escape), SURROGATE),
    ("i_string_incomplete_surrogates_escape_valid.json", Refused(ErrorKind::Escape), SURROGATE),
    ("i_string_invalid_lonely_surrogate.json", Refused(ErrorKind::Escape), SURROGATE),
    ("i_string_invalid_surrogate.json", Refused(ErrorKind::Escape), SURROGATE),
    ("i_string_invalid_utf-8.json", Refused(ErrorKind::Utf8), UTF8),
    ("i_string_inverted_surrogates_U+1D11E.json", Refused(ErrorKind::Escape), SURROGATE),
    ("i_string_iso_latin_1.json", Refused(ErrorKind::Utf8), UTF8),
    ("i_string_lone_second_surrogate.json", Refused(ErrorKind::Escape), SURROGATE),
    ("i_string_lone_utf8_continuation_byte.json", Refused(ErrorKind::Utf8), UTF8),
    ("i_string_not_in_unicode_range.json", Refused(ErrorKind::Utf8), UTF8),
    ("i_string_overlong_sequence_2_bytes.json", Refused(ErrorKind::Utf8), UTF8),
    ("i_string_overlong_sequence_6_bytes.json", Refused(ErrorKind::Utf8), UTF8),
    ("i_string_overlong_sequence_6_bytes_null.json", Refused(ErrorKind::Utf8), UTF8),
    ("i_string_truncated-utf-8.json", Refused(ErrorKind::Utf8), UTF8),
    ("i_string_utf16BE_no_BOM.json", Refused(ErrorKind::Utf8), UTF16),
    ("i_string_utf16LE_no_BOM.json", Refused(ErrorKind::Utf8), UTF16),
    ("i_structure_500_nested_arrays.json", Refused(ErrorKind::Depth), "deeper than DEFAULT_MAX_DEPTH (128); accepted with max_depth(500)"),
    ("i_structure_UTF-8_BOM_empty_object.json", Refused(ErrorKind::Syntax), "a byte order mark (RFC 8259 section 8.1: MUST NOT be added)"),
];

/// Every `test_transform` file: what the value is written as (compact), or why it is refused.
const TRANSFORMS: &[(&str, Result<&str, ErrorKind>)] = &[
    (
        "number_-9223372036854775808.json",
        Ok("[-9223372036854775808]"),
    ),
    (
        "number_-9223372036854775809.json",
        Ok("[-9223372036854775809]"),
    ), // below i64: text
    ("number_1.0.json", Ok("[1.0]")),
    ("number_1.000000000000000005.json", Ok("[1.0]")), // the nearest double
    ("number_1000000000000000.json", Ok("[1000000000000000]")),
    (
        "number_10000000000000000999.json",
        Ok("[10000000000000000999]"),
    ), // above u64: text
    ("number_1e-999.json", Ok("[1E-999]")), // underflows f64: text
    ("number_1e6.json", Ok("[1000000.0]")), // a double, in shortest form
    (
        "number_9223372036854775807.json",
        Ok("[9223372036854775807]"),
    ),
    (
        "number_9223372036854775808.json",
        Ok("[9223372036854775808]"),
    ), // u64
    (
        "object_key_nfc_nfd.json",
        Ok("{\"\u{e9}\":\"NFC\",\"e\u{301}\":\"NFD\"}"),
    ), // no normalization
    (
        "object_key_nfd_nfc.json",
        Ok("{\"e\u{301}\":\"NFD\",\"\u{e9}\":\"NFC\"}"),
    ),
    ("object_same_key_different_values.json", Ok("{\"a\":2}")), // last wins
    ("object_same_key_same_value.json", Ok("{\"a\":1}")),
    ("object_same_key_unclear_values.json", Ok("{\"a\":-0.0}")), // last wins; -0 is -0.0
    (
        "string_1_escaped_invalid_codepoint.json",
        Err(ErrorKind::Escape),
    ), // "\uD800"
    ("string_1_invalid_codepoint.json", Err(ErrorKind::Utf8)),
    (
        "string_2_escaped_invalid_codepoints.json",
        Err(ErrorKind::Escape),
    ),
    ("string_2_invalid_codepoints.json", Err(ErrorKind::Utf8)),
    (
        "string_3_escaped_invalid_codepoints.json",
        Err(ErrorKind::Escape),
    ),
    ("string_3_invalid_codepoints.json", Err(ErrorKind::Utf8)),
    ("string_with_escaped_NULL.json", Ok("[\"A\\u0000B\"]")),
];

/// The suite's folder `sub`; a missing folder fails the test with its path.
fn suite(sub: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/conformance/JSONTestSuite")
        .join(sub);
    assert!(
        dir.is_dir(),
        "JSONTestSuite is missing at {}",
        dir.display()
    );
    dir
}

/// The files of `dir` whose names start with `prefix`, sorted, with their bytes.
fn files(dir: &Path, prefix: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?.to_owned();
            let is_json = name.starts_with(prefix) && name.ends_with(".json");
            is_json.then(|| (name, std::fs::read(&path).unwrap()))
        })
        .collect();
    out.sort();
    out
}

/// Parses on a thread with a 256 KiB stack, so recursion on nesting would overflow it.
fn parse_on_small_stack(options: ParseOptions, bytes: Vec<u8>) -> Result<Json, json::Error> {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || options.parse_bytes(&bytes))
        .unwrap()
        .join()
        .expect("the parser panicked or overflowed its stack")
}

/// What the writer makes of `value` parses back to an equal value, compact and pretty.
fn assert_round_trip(name: &str, value: &Json) {
    let options = ParseOptions::new().max_depth(usize::MAX);
    let compact = value.to_string();
    assert_eq!(
        options.parse(&compact).as_ref(),
        Ok(value),
        "{name}: {compact}"
    );
    let pretty = value.to_pretty();
    assert_eq!(
        options.parse(&pretty).as_ref(),
        Ok(value),
        "{name}: {pretty}"
    );
}

#[test]
#[ignore = "needs ../shared/conformance/JSONTestSuite: see tests/README.md"]
fn every_y_file_is_accepted_and_round_trips() {
    let dir = suite("test_parsing");
    let files = files(&dir, "y_");
    assert_eq!(files.len(), 95, "the suite has 95 y_ files");
    for (name, bytes) in files {
        match parse_on_small_stack(ParseOptions::new(), bytes) {
            Ok(value) => assert_round_trip(&name, &value),
            Err(e) => panic!("{name} refused: {e}"),
        }
    }
}

#[test]
#[ignore = "needs ../shared/conformance/JSONTestSuite: see tests/README.md"]
fn every_n_file_is_refused() {
    let dir = suite("test_parsing");
    let files = files(&dir, "n_");
    assert_eq!(files.len(), 188, "the suite has 188 n_ files");
    for (name, bytes) in files {
        // Even with no depth limit, deep n_ files are refused for what they are.
        for options in [
            ParseOptions::new(),
            ParseOptions::new().max_depth(usize::MAX),
        ] {
            if let Ok(value) = parse_on_small_stack(options, bytes.clone()) {
                panic!("{name} accepted as {value}");
            }
        }
    }
}

#[test]
#[ignore = "needs ../shared/conformance/JSONTestSuite: see tests/README.md"]
fn every_i_file_does_what_the_table_says() {
    let dir = suite("test_parsing");
    let files = files(&dir, "i_");
    let listed: Vec<&str> = IMPLEMENTATION_DEFINED.iter().map(|row| row.0).collect();
    let found: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(found, listed, "the table lists every i_ file, in order");
    for ((name, bytes), &(_, expected, why)) in files.into_iter().zip(IMPLEMENTATION_DEFINED) {
        match (parse_on_small_stack(ParseOptions::new(), bytes), expected) {
            (Ok(value), Accepted(written)) => {
                assert_eq!(value.to_string(), written, "{name} ({why})");
                assert_round_trip(&name, &value);
            }
            (Err(e), Refused(kind)) => assert_eq!(e.kind(), kind, "{name} ({why}): {e}"),
            (got, expected) => panic!("{name}: got {got:?}, expected {expected:?} ({why})"),
        }
    }
}

#[test]
#[ignore = "needs ../shared/conformance/JSONTestSuite: see tests/README.md"]
fn five_hundred_nested_arrays_are_accepted_with_a_raised_limit() {
    let dir = suite("test_parsing");
    let bytes = std::fs::read(dir.join("i_structure_500_nested_arrays.json")).unwrap();
    let value = parse_on_small_stack(ParseOptions::new().max_depth(500), bytes.clone()).unwrap();
    assert_round_trip("500 nested arrays", &value);
    let err = parse_on_small_stack(ParseOptions::new().max_depth(499), bytes).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Depth);
}

#[test]
#[ignore = "needs ../shared/conformance/JSONTestSuite: see tests/README.md"]
fn every_transform_file_round_trips_as_the_table_says() {
    let dir = suite("test_transform");
    let files = files(&dir, "");
    let listed: Vec<&str> = TRANSFORMS.iter().map(|row| row.0).collect();
    let found: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        found, listed,
        "the table lists every transform file, in order"
    );
    for ((name, bytes), &(_, expected)) in files.into_iter().zip(TRANSFORMS) {
        match (json::parse_bytes(&bytes), expected) {
            (Ok(value), Ok(written)) => {
                assert_eq!(value.to_string(), written, "{name}");
                assert_round_trip(&name, &value);
            }
            (Err(e), Err(kind)) => assert_eq!(e.kind(), kind, "{name}: {e}"),
            (got, expected) => panic!("{name}: got {got:?}, expected {expected:?}"),
        }
    }
}
