//! How a plugin writes values into requests and reads answers as text: integers in plain
//! digits (never in exponent form), path values some servers read as dot segments refused,
//! binary bodies without a Content-Type, Latin-1 text, and `cap_text` below its marker's
//! length.

use httptool::json::{self, Json};
use httptool::plugin::HttpPlugin;

use crate::support::plugin::{call, plugin, Recorder};

// ---------------------------------------------------------------- integers

fn integers_plugin(recorder: &std::sync::Arc<Recorder>) -> HttpPlugin {
    plugin(
        r#"{"name": "ints", "base_url": "https://api.example.com", "endpoints": [
            {"name": "get", "path": "/n", "params": [
              {"name": "n", "in": "query", "type": "integer"},
              {"name": "small", "in": "query", "type": "integer", "format": "int32"},
              {"name": "big", "in": "query", "type": "integer", "format": "int64"}]},
            {"name": "post", "method": "POST", "path": "/n", "params": [
              {"name": "n", "type": "integer"},
              {"name": "ids", "type": "array", "items": {"type": "integer"}},
              {"name": "three", "type": "integer", "default": 3.0}]}]}"#,
        recorder,
    )
}

/// The query a GET sends for `arguments`, or the error the model reads.
fn integer_query(arguments: &str) -> Result<String, String> {
    let recorder = Recorder::new();
    let plugin = integers_plugin(&recorder);
    let out = call(&plugin, "get", arguments);
    if out.is_error() {
        assert_eq!(recorder.count(), 0, "an argument error sends nothing");
        return Err(out.text().to_string());
    }
    Ok(recorder.only().url().query().unwrap_or("").to_string())
}

fn owned(expected: Result<&str, &str>) -> Result<String, String> {
    expected.map(String::from).map_err(String::from)
}

macro_rules! integers {
    ($($name:ident: $arguments:expr => $expected:expr;)*) => {$(
        #[test]
        fn $name() {
            // Owned in the statement that builds it: some messages are formatted in place.
            let expected = owned($expected);
            assert_eq!(integer_query($arguments), expected);
        }
    )*};
}

const BEYOND_2_53: &str = "must be an integer in plain digits (from 2^53 on, a fraction or exponent may not hold the integer meant)";

integers! {
    integer_plain_digits_pass: r#"{"n": 42}"# => Ok("n=42");
    integer_exponent_beyond_2_53_is_refused: r#"{"n": 1e20}"# => Err(&*format!("parameter 'n' {}; got 1e20", BEYOND_2_53));
    integer_rounded_double_is_refused_not_sent_rounded: r#"{"n": 9.007199254740993e15}"# => Err(&*format!("parameter 'n' {}; got 9007199254740992.0", BEYOND_2_53));
    integer_exponent_beyond_f64_in_a_string_is_refused: r#"{"n": "1e400"}"# => Err("parameter 'n' must be an integer in plain digits (an exponent is not sent); got \"1e400\"");
    integer_exponent_beyond_f64_is_refused: r#"{"n": 1e400}"# => Err("parameter 'n' must be an integer in plain digits (an exponent is not sent); got 1e400");
    integer_whole_float_is_its_integer: r#"{"n": 3.0}"# => Ok("n=3");
    integer_exponent_within_2_53_is_its_digits: r#"{"n": 1e3}"# => Ok("n=1000");
    integer_just_below_2_53_is_exact: r#"{"n": 9007199254740991.0}"# => Ok("n=9007199254740991");
    integer_two_to_the_53_written_as_a_float_is_refused: r#"{"n": 9007199254740992.0}"# => Err(&*format!("parameter 'n' {}; got 9007199254740992.0", BEYOND_2_53));
    integer_two_to_the_53_in_digits_passes: r#"{"n": 9007199254740993}"# => Ok("n=9007199254740993");
    integer_negative_zero_is_zero: r#"{"n": -0.0}"# => Ok("n=0");
    integer_string_digits_are_the_integer: r#"{"n": " 42 "}"# => Ok("n=42");
    integer_string_exponent_within_2_53: r#"{"n": "1e3"}"# => Ok("n=1000");
    integer_big_digits_without_format_pass_as_written: r#"{"n": 123456789012345678901}"# => Ok("n=123456789012345678901");
    integer_big_digits_in_a_string_pass_as_written: r#"{"n": "-123456789012345678901"}"# => Ok("n=-123456789012345678901");
    integer_fraction_is_not_an_integer: r#"{"n": 2.5}"# => Err("parameter 'n' must be an integer; got 2.5");
    integer_tiny_exponent_is_not_an_integer: r#"{"n": 1e-400}"# => Err("parameter 'n' must be an integer; got 1e-400");
    integer_int32_max_fits: r#"{"small": 2147483647}"# => Ok("small=2147483647");
    integer_int32_min_fits: r#"{"small": -2147483648}"# => Ok("small=-2147483648");
    integer_int32_overflow_is_refused: r#"{"small": 2147483648}"# => Err("parameter 'small' must fit int32 (-2147483648 to 2147483647); got 2147483648");
    integer_int64_max_fits: r#"{"big": "9223372036854775807"}"# => Ok("big=9223372036854775807");
    integer_int64_overflow_is_refused: r#"{"big": 9223372036854775808}"# => Err("parameter 'big' must fit int64 (-9223372036854775808 to 9223372036854775807); got 9223372036854775808");
}

#[test]
fn integers_in_a_json_body_are_plain_digits_defaults_included() {
    let recorder = Recorder::new();
    let plugin = integers_plugin(&recorder);
    let out = call(&plugin, "post", r#"{"n": 1e3, "ids": [2.0, "7", 1e2]}"#);
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(
        crate::support::plugin::body_text(&recorder.only()),
        r#"{"n":1000,"ids":[2,7,100],"three":3}"#
    );
    let out = call(&plugin, "post", r#"{"ids": [1, 1e300]}"#);
    assert_eq!(
        out.text(),
        format!("parameter 'ids[1]' {}; got 1e300", BEYOND_2_53)
    );
}

#[test]
fn integer_integer_defaults_and_enums_follow_the_same_rule_and_format_round_trips() {
    let file = |param: &str| {
        format!(
            r#"{{"name": "d", "base_url": "https://api.example.com", "endpoints": [
                {{"name": "get", "path": "/", "params": [{}]}}]}}"#,
            param
        )
    };
    let err = HttpPlugin::from_json(&file(
        r#"{"name": "n", "in": "query", "type": "integer", "default": 1e20}"#,
    ))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].params[0].default: default 1e20 is not of type integer"
    );
    let err = HttpPlugin::from_json(&file(r#"{"name": "n", "in": "query", "type": "integer", "format": "int32", "enum": [1, 4294967296]}"#)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].params[0].enum[1]: enum value must fit int32 (-2147483648 to 2147483647); got 4294967296"
    );
    let plugin = HttpPlugin::from_json(&file(
        r#"{"name": "n", "in": "query", "type": "integer", "format": "int64"}"#,
    ))
    .unwrap();
    let written = plugin.to_json();
    assert_eq!(
        written["endpoints"][0]["params"][0]["format"],
        Json::from("int64")
    );
    assert_eq!(
        plugin.endpoints().next().unwrap().params()[0].format(),
        Some("int64")
    );
    let spec = &plugin.specs()[0];
    assert_eq!(
        spec.parameters()["properties"]["n"]["format"],
        Json::from("int64")
    );
}

// ---------------------------------------------------------------- path values

/// The path a call sends for the path value `id`, or `None` when the call is refused (and
/// nothing is sent).
fn path_sent(id: &str) -> Option<String> {
    let recorder = Recorder::new();
    let plugin = plugin(
        r#"{"name": "files", "base_url": "https://api.example.com/api", "endpoints": [
            {"name": "getFile", "path": "/files/{id}/meta", "params": [{"name": "id", "in": "path"}]}]}"#,
        &recorder,
    );
    let arguments = Json::from(json::Map::from_iter([("id", id)])).to_string();
    let out = call(&plugin, "getFile", &arguments);
    if out.is_error() {
        assert_eq!(recorder.count(), 0);
        assert!(
            out.text().contains("cannot be '.' or '..'"),
            "{}",
            out.text()
        );
        return None;
    }
    Some(recorder.only().url().path().to_string())
}

macro_rules! path_values {
    ($($name:ident: $value:expr => $sent:expr;)*) => {$(
        #[test]
        fn $name() {
            let sent: Option<&str> = $sent;
            assert_eq!(path_sent($value), sent.map(String::from), "{:?}", $value);
        }
    )*};
}

path_values! {
    path_value_trailing_space_is_refused: ".. " => None;
    path_value_trailing_tab_is_refused: "..\t" => None;
    path_value_encoded_space_is_refused: "..%20" => None;
    path_value_fullwidth_full_stops_are_refused: "\u{ff0e}\u{ff0e}" => None;
    path_value_two_dot_leader_is_refused: "\u{2025}" => None;
    path_value_vertical_two_dot_leader_is_refused: "\u{fe30}" => None;
    path_value_one_dot_leaders_are_refused: "\u{2024}\u{2024}" => None;
    path_value_small_full_stop_is_refused: "\u{fe52}" => None;
    path_value_four_times_encoded_is_refused: "%2525252e" => None;
    path_value_fullwidth_then_admin_is_refused: "\u{ff0e}\u{ff0e}/admin" => None;
    path_value_three_dots_pass: "..." => Some("/api/files/.../meta");
    path_value_hidden_name_passes: ".hidden" => Some("/api/files/.hidden/meta");
    path_value_dots_inside_a_name_pass: "a..b" => Some("/api/files/a..b/meta");
    path_value_version_passes: "v1.2" => Some("/api/files/v1.2/meta");
    path_value_ellipsis_passes: "\u{2026}" => Some("/api/files/%E2%80%A6/meta");
    path_value_ideographic_full_stop_passes: "\u{3002}" => Some("/api/files/%E3%80%82/meta");
    path_value_spaced_dots_pass: ". ." => Some("/api/files/.%20./meta");
}

#[test]
fn path_defaults_follow_the_same_rule() {
    let err = HttpPlugin::from_json(
        r#"{"name": "files", "base_url": "https://api.example.com", "endpoints": [
            {"name": "get", "path": "/files/{id}", "params": [{"name": "id", "in": "path", "default": "\uff0e\uff0e"}]}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].params[0].default: a path default cannot be empty or hold a '.' or '..' segment"
    );
}

// ---------------------------------------------------------------- answers as text

/// The output of a GET whose response has `content_type` and `body`.
fn answer(content_type: Option<&'static str>, body: &'static [u8]) -> httptool::tool::ToolOutput {
    let recorder = Recorder::replying(move |request| {
        crate::support::plugin::response(request, 200, content_type, body)
    });
    let plugin = plugin(
        &crate::support::plugin::single(
            "https://api.example.com",
            r#""name": "get", "path": "/x""#,
        ),
        &recorder,
    );
    call(&plugin, "get", "{}")
}

#[test]
fn body_without_content_type_holding_control_bytes_is_binary() {
    // A GIF header: valid UTF-8, but NUL and SOH bytes are no text.
    // Its first bytes name its type.
    let out = answer(None, b"GIF89a\x01\x00\x01\x00\x00\x00\x00");
    assert!(!out.is_error());
    assert_eq!(
        out.text(),
        "binary response (image/gif, 13 bytes, SHA-256 e166f869cdc0a87f67fc5841ad08082c87d0ffa3c1d677956415ea3110e1fd3f)"
    );
    assert_eq!(out.attachments()[0].media_type(), "image/gif");
    let out = answer(None, b"\x1b[31mred\x1b[0m");
    assert!(
        out.text().starts_with("binary response (no content type, "),
        "{}",
        out.text()
    );
    let out = answer(None, b"DEL\x7f");
    assert!(out.text().starts_with("binary response"), "{}", out.text());
    // Tabs, line ends and form feeds are text.
    let out = answer(None, b"a\tb\r\nc\x0cd");
    assert_eq!(out.text(), "a\tb\r\nc\x0cd");
}

#[test]
fn latin1_text_is_decoded_with_the_charset_it_names() {
    let out = answer(Some("text/plain; charset=iso-8859-1"), b"caf\xe9 \xa3 5");
    assert_eq!(out.text(), "café £ 5");
    let out = answer(Some("text/plain; Charset=\"ISO-8859-1\""), b"\xfc");
    assert_eq!(out.text(), "ü");
    let out = answer(Some("text/plain; charset=latin1"), b"\x80");
    assert_eq!(out.text(), "\u{80}");
    let out = answer(
        Some("text/csv; charset=windows-1252"),
        b"\x80 5,\x93q\x94,\x81",
    );
    assert_eq!(out.text(), "€ 5,\u{201c}q\u{201d},\u{81}");
    let out = answer(Some("text/plain; charset=us-ascii"), b"plain");
    assert_eq!(out.text(), "plain");
    let out = answer(
        Some("application/json; charset=iso-8859-1"),
        b"{\"city\":\"K\xf6ln\"}",
    );
    assert_eq!(out.text(), "{\"city\":\"Köln\"}");
    assert_eq!(out.structured().unwrap()["city"], Json::from("Köln"));
    // A charset not decoded here: named in the summary, unless the body is UTF-8 anyway.
    let out = answer(Some("text/plain; charset=shift_jis"), b"\x82\xa0\x82\xa2");
    assert_eq!(
        out.text(),
        "text in charset 'shift_jis', which is not decoded: response (text/plain; charset=shift_jis, 4 bytes, SHA-256 76abfec101af50529a04704db28332f8edece7be044d9037ac7fa1dc94f7d092); the content is not shown"
    );
    let out = answer(Some("text/plain; charset=shift_jis"), b"ascii only");
    assert_eq!(out.text(), "ascii only");
    // UTF-8 that is not UTF-8 stays a summary.
    let out = answer(Some("text/plain; charset=utf-8"), b"caf\xe9");
    assert!(out
        .text()
        .starts_with("binary response (text/plain; charset=utf-8, 4 bytes, SHA-256 "));
}

#[test]
fn cap_text_never_exceeds_a_cap_smaller_than_its_marker() {
    use httptool::tool::cap_text;
    let original = "x".repeat(100);
    // "\n... [truncated: " + "100" + " more bytes]": the marker for this text.
    let marker = "\n... [truncated: 100 more bytes]".len();
    let cases: [(usize, &str); 8] = [
        (0, ""),
        (1, "["),
        (10, "[truncated"),
        (11, "[truncated]"),
        (marker - 1, "[truncated]"),
        (marker, "\n... [truncated: 100 more bytes]"),
        (marker + 1, "x\n... [truncated: 99 more bytes]"),
        (marker + 10, "xxxxxxxxxx\n... [truncated: 90 more bytes]"),
    ];
    for (cap, expected) in cases {
        let mut text = original.clone();
        let left_out = cap_text(&mut text, cap);
        assert_eq!(text, expected, "cap {}", cap);
        assert!(text.len() <= cap, "cap {}: {} bytes", cap, text.len());
        assert_eq!(left_out, 100 - text.bytes().filter(|&b| b == b'x').count());
    }
    for cap in 0..=120 {
        let mut text = "é".repeat(60);
        cap_text(&mut text, cap);
        assert!(text.len() <= cap, "cap {}: {} bytes", cap, text.len());
    }
}
