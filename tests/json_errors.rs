//! Parse errors: the exact message of each kind, its position (line and column, 1-based,
//! the column counting characters; offset in bytes), and the traits callers rely on.

use httptool::json::{self, Error, ErrorKind, Number, ParseOptions};

/// (case, input, kind, message): one row for every message the parser has.
#[rustfmt::skip]
const MESSAGES: &[(&str, &str, ErrorKind, &str)] = &[
    ("object member", "{\n  \"a\": 1,\n  \"name\": \"Ada\" \"x\": 1\n}", ErrorKind::Syntax, "expected ',' or '}' after object member at 3:17"),
    ("array element", "[1 2]", ErrorKind::Syntax, "expected ',' or ']' after array element at 1:4"),
    ("value", "[1,]", ErrorKind::Syntax, "expected a value at 1:4"),
    ("stray character", "@", ErrorKind::Syntax, "expected a value at 1:1"),
    ("key", "{\"a\":1,}", ErrorKind::Syntax, "expected '\"' to start an object key at 1:8"),
    ("single-quoted key", "{'a':1}", ErrorKind::Syntax, "expected '\"' to start an object key at 1:2"),
    ("colon", "{\"a\" 1}", ErrorKind::Syntax, "expected ':' after object key at 1:6"),
    ("true", "trUe", ErrorKind::Syntax, "expected 'true' at 1:1"),
    ("false", "[falsy]", ErrorKind::Syntax, "expected 'false' at 1:2"),
    ("null", "nil", ErrorKind::Syntax, "expected 'null' at 1:1"),
    ("trailing data", "{} {}", ErrorKind::Syntax, "expected end of input after the value at 1:4"),
    ("byte order mark", "\u{feff}{}", ErrorKind::Syntax, "unexpected byte order mark (JSON text must not start with U+FEFF) at 1:1"),
    ("empty", "", ErrorKind::Eof, "unexpected end of input; expected a value at 1:1"),
    ("only whitespace", " \n ", ErrorKind::Eof, "unexpected end of input; expected a value at 2:2"),
    ("open array", "[1,", ErrorKind::Eof, "unexpected end of input; expected a value at 1:4"),
    ("open object", "{\"a\":1", ErrorKind::Eof, "unexpected end of input; expected ',' or '}' after object member at 1:7"),
    ("truncated literal", "[tru", ErrorKind::Eof, "unexpected end of input; expected 'true' at 1:2"),
    ("unclosed string", "\"abc", ErrorKind::Eof, "unexpected end of input in string; expected closing '\"' at 1:5"),
    ("unclosed escape", "\"abc\\", ErrorKind::Eof, "unexpected end of input in string; expected closing '\"' at 1:6"),
    ("truncated surrogate pair", "\"\\uD834\\", ErrorKind::Eof, "unexpected end of input in string; expected closing '\"' at 1:9"),
    ("minus alone", "-", ErrorKind::Eof, "unexpected end of input; expected a digit after '-' at 1:2"),
    ("digit after minus", "[-x]", ErrorKind::Number, "expected a digit after '-' at 1:3"),
    ("digit after point", "1.e3", ErrorKind::Number, "expected a digit after the decimal point at 1:3"),
    ("digit in exponent", "[1e+]", ErrorKind::Number, "expected a digit in the exponent at 1:5"),
    ("leading zero", "[01]", ErrorKind::Number, "leading zeros are not allowed in numbers at 1:3"),
    ("invalid escape", "[\"a\\x\"]", ErrorKind::Escape, "invalid escape; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX at 1:4"),
    ("short unicode escape", "\"\\u12x4\"", ErrorKind::Escape, "expected 4 hex digits after \\u at 1:2"),
    ("lone low surrogate", "\"\\uDC00\"", ErrorKind::Escape, "unpaired UTF-16 surrogate in \\u escape at 1:2"),
    ("high surrogate then letter", "\"\\uD800x\"", ErrorKind::Escape, "unpaired UTF-16 surrogate in \\u escape at 1:2"),
    ("control character", "\"a\tb\"", ErrorKind::ControlCharacter, "control character in string must be escaped (as \\n, \\t or \\u00XX) at 1:3"),
    ("too deep", "[[[]]]", ErrorKind::Depth, "arrays and objects nested deeper than 2 levels at 1:3"),
    ("duplicate key", "{\"a\":1,\"a\":2}", ErrorKind::DuplicateKey, "duplicate object key at 1:8"),
];

fn options() -> ParseOptions {
    ParseOptions::new().max_depth(2).reject_duplicate_keys(true)
}

#[test]
fn every_message_says_what_was_expected_where() {
    for &(case, input, kind, message) in MESSAGES {
        let err = options().parse(input).unwrap_err();
        assert_eq!(err.to_string(), message, "{case}");
        assert_eq!(err.kind(), kind, "{case}");
        // parse_bytes reports valid UTF-8 the same way.
        assert_eq!(options().parse_bytes(input.as_bytes()), Err(err), "{case}");
    }
}

#[test]
fn invalid_utf8_is_reported_at_the_first_bad_byte() {
    let table: &[(&str, &[u8], &str, usize)] = &[
        ("latin-1", b"[\"caf\xe9\"]", "invalid UTF-8 at 1:6", 5),
        ("second line", b"{\n\"\xff\": 1}", "invalid UTF-8 at 2:2", 3),
        (
            "after multi-byte",
            "[\"日本".as_bytes(),
            "invalid UTF-8 at 1:5",
            8,
        ),
        ("truncated", b"[\"\xe6\x97", "invalid UTF-8 at 1:3", 2),
        (
            "encoded surrogate",
            b"\"\xed\xa0\x80\"",
            "invalid UTF-8 at 1:2",
            1,
        ),
    ];
    for &(case, input, message, offset) in table {
        let mut bytes = input.to_vec();
        if case == "after multi-byte" {
            bytes.extend_from_slice(b"\xc0\"]");
        }
        let err = json::parse_bytes(&bytes).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Utf8, "{case}");
        assert_eq!(err.to_string(), message, "{case}");
        assert_eq!(err.offset(), offset, "{case}");
    }
    // A byte order mark is refused as such, even when invalid UTF-8 follows.
    let err = json::parse_bytes(b"\xef\xbb\xbf[\"\xff\"]").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Syntax);
    assert_eq!(err.offset(), 0);
}

#[test]
fn columns_count_characters_and_offsets_count_bytes() {
    // (case, input, line, column, offset)
    let table: &[(&str, &str, usize, usize, usize)] = &[
        ("ascii", "[1, x]", 1, 5, 4),
        ("after CJK", "[\"日本\", x]", 1, 8, 11),
        ("after an emoji", "[\"😀\", x]", 1, 7, 9),
        ("tab is one column", "[\t\tx]", 1, 4, 3),
        ("third line", "[\n1,\n  x]", 3, 3, 7),
        ("CRLF ends a line at LF", "[\r\n x]", 2, 2, 4),
        ("multi-byte on an earlier line", "[\"é\",\n x]", 2, 2, 8),
    ];
    for &(case, input, line, column, offset) in table {
        let err = json::parse(input).unwrap_err();
        assert_eq!(
            (err.line(), err.column(), err.offset()),
            (line, column, offset),
            "{case}"
        );
        assert!(
            err.to_string().ends_with(&format!(" at {line}:{column}")),
            "{case}"
        );
    }
}

#[test]
fn number_from_str_errors() {
    let table: &[(&str, &str)] = &[
        ("x", "expected a number at 1:1"),
        ("", "unexpected end of input; expected a number at 1:1"),
        (" 1", "expected a number at 1:1"),
        ("1 ", "expected end of input after the value at 1:2"),
        ("01", "leading zeros are not allowed in numbers at 1:2"),
        (
            "-",
            "unexpected end of input; expected a digit after '-' at 1:2",
        ),
    ];
    for &(input, message) in table {
        let err = input.parse::<Number>().unwrap_err();
        assert_eq!(err.to_string(), message, "{input:?}");
    }
}

#[test]
fn errors_are_ordinary_values() {
    fn assert_traits<T: std::error::Error + Clone + PartialEq + Send + Sync + 'static>() {}
    assert_traits::<Error>();
    let err = json::parse("[").unwrap_err();
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(err.clone());
    assert_eq!(boxed.to_string(), err.to_string());
    assert!(format!("{err:?}").contains("Error"));
}

#[test]
fn messages_never_quote_the_input() {
    let secret = "sk-live-abcdef123456";
    let inputs = [
        format!("{{\"token\": \"{secret}\" x}}"),
        format!("[\"{secret}\\q\"]"),
        secret.to_string(),
        format!("{{\"{secret}\":1,\"{secret}\":2}}"),
    ];
    for input in inputs {
        let err = options().parse(&input).unwrap_err();
        assert!(!err.to_string().contains("sk-live"), "{err}");
        assert!(!format!("{err:?}").contains("sk-live"), "{err:?}");
    }
}
