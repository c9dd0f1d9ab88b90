//! From a response to what the model reads (`httptool::design::endpoints`, "Results"),
//! through a recording transport that answers with canned responses.

use httptool::http::{Headers, Response};
use httptool::json;
use httptool::plugin::HttpPlugin;
use httptool::tool::{CallContext, ErrorKind, Tool};

use crate::support::plugin::{call, plugin, response, single, Recorder};

fn answering(status: u16, content_type: Option<&'static str>, body: &'static [u8]) -> HttpPlugin {
    answering_with(status, content_type, body, r#""name": "get", "path": "/x""#)
}

fn answering_with(
    status: u16,
    content_type: Option<&'static str>,
    body: &'static [u8],
    endpoint: &str,
) -> HttpPlugin {
    let recorder = Recorder::replying(move |r| response(r, status, content_type, body));
    plugin(&single("https://api.example.com", endpoint), &recorder)
}

#[test]
fn success_text_is_as_sent_and_json_is_parsed() {
    let body = b"{ \"temp_c\": 21.5,\n  \"sky\": \"clear\" }";
    let out = call(&answering(200, Some("application/json"), body), "get", "{}");
    assert!(!out.is_error());
    assert_eq!(out.text().as_bytes(), body);
    assert_eq!(
        out.structured(),
        Some(&json!({"temp_c": 21.5, "sky": "clear"}))
    );
    assert_eq!(out.status(), Some(200));
}

#[test]
fn json_without_content_type_is_parsed_too() {
    let out = call(&answering(201, None, b"[1,2]"), "get", "{}");
    assert_eq!((out.text(), out.is_error()), ("[1,2]", false));
    assert_eq!(out.structured(), Some(&json!([1, 2])));
}

#[test]
fn text_json_is_parsed_like_application_json() {
    // Regression: the result refused `text/json` as JSON while the curl importer accepted it;
    // both now ask `http::media::is_json` (the WHATWG "JSON MIME type", which keeps it).
    let out = call(
        &answering(200, Some("text/json; charset=utf-8"), b"{\"a\": 1}"),
        "get",
        "{}",
    );
    assert_eq!(out.structured(), Some(&json!({"a": 1})));
    let out = call(
        &answering(200, Some("text/json5"), b"{\"a\": 1}"),
        "get",
        "{}",
    );
    assert_eq!(out.structured(), None);
}

#[test]
fn plain_text_has_no_structured_result() {
    let out = call(
        &answering(200, Some("text/plain"), b"{not json"),
        "get",
        "{}",
    );
    assert_eq!(out.text(), "{not json");
    assert_eq!(out.structured(), None);
}

#[test]
fn no_content_is_an_empty_success() {
    let out = call(&answering(204, None, b""), "get", "{}");
    assert_eq!(
        (out.text(), out.is_error(), out.status()),
        ("", false, Some(204))
    );
}

#[test]
fn binary_body_is_a_one_line_summary() {
    let recorder = Recorder::replying(|r| {
        let mut headers = Headers::new();
        headers.append("Content-Type", "application/pdf").unwrap();
        headers
            .append(
                "Content-Disposition",
                "attachment; filename=\"q3 report.pdf\"",
            )
            .unwrap();
        Response::new(200, r.url().clone())
            .with_headers(headers)
            .with_body(b"%PDF-1.7 binary".to_vec())
    });
    let p = plugin(
        &single("https://api.example.com", r#""name": "get", "path": "/x""#),
        &recorder,
    );
    let out = call(&p, "get", "{}");
    assert!(!out.is_error());
    assert_eq!(
        out.text(),
        "binary response (application/pdf, 15 bytes, SHA-256 fa317da2357ae39da4b5593519dc5d383d8c7180e3156e3fbb747395df6b9c7c, file name 'q3 report.pdf')"
    );
    let attached = &out.attachments()[0];
    assert_eq!(attached.bytes(), b"%PDF-1.7 binary");
    assert_eq!(attached.name(), Some("q3 report.pdf"));
}

#[test]
fn body_that_is_not_utf8_is_summarized() {
    let out = call(&answering(200, None, b"\x89PNG\r\n\x1a\n\xff"), "get", "{}");
    assert_eq!(
        out.text(),
        "binary response (image/png, 9 bytes, SHA-256 155ebeb6a8689c7aef710d099488549c6bc433d1ea8608307985ee05b8f81cfe)"
    );
}

#[test]
fn error_status_is_an_error_that_keeps_the_body() {
    let recorder = Recorder::replying(|r| {
        response(
            r,
            422,
            Some("application/json"),
            br#"{"error":"days must be <= 14"}"#,
        )
        .with_reason("Unprocessable Entity")
    });
    let p = plugin(
        &single("https://api.example.com", r#""name": "get", "path": "/x""#),
        &recorder,
    );
    let out = call(&p, "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::HttpStatus));
    assert_eq!(
        out.text(),
        r#"the API answered 422 Unprocessable Entity: {"error":"days must be <= 14"}"#
    );
    assert_eq!(out.status(), Some(422));
    assert_eq!(
        out.structured(),
        Some(&json!({"error": "days must be <= 14"}))
    );
}

#[test]
fn error_status_with_an_empty_body() {
    let out = call(&answering(503, None, b""), "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::HttpStatus));
    assert_eq!(out.text(), "the API answered 503 with an empty body");
}

#[test]
fn error_body_is_capped() {
    let body: &'static [u8] = Box::leak(vec![b'e'; 5000].into_boxed_slice());
    let p = answering_with(
        500,
        Some("text/plain"),
        body,
        r#""name": "get", "path": "/x", "max_output_bytes": 200"#,
    );
    let out = call(&p, "get", "{}");
    assert!(out.text().len() <= 200);
    assert!(out.text().starts_with("the API answered 500: eee"));
    assert!(out.text().ends_with(" more bytes]"));
}

#[test]
fn output_is_capped_with_the_explicit_marker() {
    let body: &'static [u8] = Box::leak(vec![b'x'; 1000].into_boxed_slice());
    let p = answering_with(
        200,
        Some("text/plain"),
        body,
        r#""name": "get", "path": "/x", "max_output_bytes": 100"#,
    );
    let out = call(&p, "get", "{}");
    assert_eq!(
        out.text(),
        format!(
            "{}\n... [truncated: {} more bytes]",
            "x".repeat(67),
            1000 - 67
        )
    );
    let fits = answering_with(
        200,
        Some("text/plain"),
        &body[..100],
        r#""name": "get", "path": "/x", "max_output_bytes": 100"#,
    );
    assert_eq!(call(&fits, "get", "{}").text(), "x".repeat(100));
}

#[test]
fn response_pointer_keeps_part_of_a_json_response() {
    let body = br#"{"meta":{"page":1},"data":{"items":[{"id":1}],"note":"fine"}}"#;
    let p = answering_with(
        200,
        Some("application/json"),
        body,
        r#""name": "get", "path": "/x", "response_pointer": "/data/items""#,
    );
    let out = call(&p, "get", "{}");
    assert_eq!(out.text(), r#"[{"id":1}]"#);
    assert_eq!(out.structured(), Some(&json!([{"id": 1}])));
    let p = answering_with(
        200,
        Some("application/json"),
        body,
        r#""name": "get", "path": "/x", "response_pointer": "/data/note""#,
    );
    assert_eq!(call(&p, "get", "{}").text(), "fine");
}

#[test]
fn response_pointer_that_finds_nothing_is_an_error() {
    let p = answering_with(
        200,
        Some("application/json"),
        br#"{"data":{}}"#,
        r#""name": "get", "path": "/x", "response_pointer": "/data/items""#,
    );
    let out = call(&p, "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::ToolFailed));
    assert_eq!(
        out.text(),
        r#"the response has no value at '/data/items' (the endpoint's response_pointer); the response was: {"data":{}}"#
    );
    let p = answering_with(
        200,
        Some("text/plain"),
        b"hello",
        r#""name": "get", "path": "/x", "response_pointer": "/a""#,
    );
    assert_eq!(
        call(&p, "get", "{}").text(),
        "the response is not JSON, so it has no value at '/a' (the endpoint's response_pointer); the response was: hello"
    );
}

#[test]
fn redirect_without_location_is_an_error() {
    let out = call(&answering(302, None, b""), "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::RedirectNotFollowed));
    assert_eq!(
        out.text(),
        "the API answered 302 without a Location header; this is not caused by the arguments"
    );
}

#[test]
fn send_gives_rust_callers_the_whole_response() {
    let recorder = Recorder::replying(|r| {
        response(
            r,
            404,
            Some("application/json"),
            br#"{"error":"no such city"}"#,
        )
        .with_reason("Not Found")
    });
    let p = plugin(
        &single("https://api.example.com", r#""name": "get", "path": "/x""#),
        &recorder,
    );
    let tool = p.tool("get").unwrap();
    let reply = tool.send(json::Map::new(), &CallContext::new()).unwrap();
    assert_eq!((reply.status(), reply.reason()), (404, "Not Found"));
    assert_eq!(reply.url().as_str(), "https://api.example.com/x");
    assert_eq!(
        reply.headers().get("content-type"),
        Some("application/json")
    );
    assert_eq!(reply.text(), Some(r#"{"error":"no such city"}"#));
    assert_eq!(reply.data(), Some(&json!({"error": "no such city"})));
    let out = tool.output(reply);
    assert_eq!(
        out.text(),
        tool.call(json::Map::new(), &CallContext::new()).text()
    );
    assert_eq!(out.error_kind(), Some(ErrorKind::HttpStatus));
}

#[test]
fn argument_errors_reach_send_callers_as_outputs() {
    let p = plugin(
        &single(
            "https://api.example.com",
            r#""name": "get", "path": "/x", "params": [{"name": "a", "in": "query", "required": true}]"#,
        ),
        &Recorder::new(),
    );
    let err = p
        .tool("get")
        .unwrap()
        .send(json::Map::new(), &CallContext::new())
        .unwrap_err();
    assert_eq!(err.error_kind(), Some(ErrorKind::MissingParameter));
}
