//! Hostile arguments against a real loopback server: each is a clear `is_error` output and
//! the server sees no request; values that look like URL syntax stay inside their segment.

use httptool::plugin::HttpPlugin;
use httptool::tool::{ErrorKind, ToolCall, ToolOutput, ToolRegistry, DEFAULT_MAX_ARGUMENT_BYTES};

use crate::support::plugin::Server;

fn setup() -> (Server, ToolRegistry) {
    let server = Server::responding(|request| {
        (
            String::from("200 OK"),
            String::new(),
            request.target.clone().into_bytes(),
        )
    });
    let plugin = HttpPlugin::from_json(&format!(
        r#"{{"name": "files", "base_url": "{}/api",
            "endpoints": [
              {{"name": "getFile", "path": "/files/{{id}}/meta",
                "params": [{{"name": "id", "in": "path"}},
                           {{"name": "trace", "wire_name": "X-Trace", "in": "header"}},
                           {{"name": "limit", "in": "query", "type": "integer"}},
                           {{"name": "q", "in": "query"}},
                           {{"name": "tags", "in": "query", "type": "array", "items": {{"type": "string"}}}}]}}
            ]}}"#,
        server.base()
    ))
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    (server, registry)
}

fn run(registry: &ToolRegistry, arguments: &str) -> ToolOutput {
    registry.call(&ToolCall::new("call_1", "getFile", arguments))
}

#[test]
fn dot_segments_in_path_values_are_refused() {
    let (server, registry) = setup();
    for id in [
        "..",
        ".",
        "../admin",
        "%2e%2e",
        "%2E%2e/admin",
        "..%2f..%2fadmin",
        "..\\\\admin",
        "a/../../b",
        "%252e%252e",
    ] {
        let out = run(&registry, &format!(r#"{{"id":"{}"}}"#, id));
        assert_eq!(
            out.error_kind(),
            Some(ErrorKind::InvalidParameter),
            "{}",
            id
        );
        assert_eq!(
            out.text(),
            "parameter 'id' is one path segment and cannot be '.' or '..' or hold such a segment (percent-encoded, padded with spaces, or in look-alike dots); send the identifier itself",
            "{}",
            id
        );
    }
    assert!(server.requests().is_empty());
    assert_eq!(server.connections(), 0);
}

#[test]
fn empty_path_value_is_refused() {
    let (server, registry) = setup();
    let out = run(&registry, r#"{"id":""}"#);
    assert_eq!(out.error_kind(), Some(ErrorKind::MissingParameter));
    assert_eq!(
        out.text(),
        "missing required parameter 'id' (a string); null and \"\" count as missing"
    );
    assert_eq!(server.connections(), 0);
}

#[test]
fn url_syntax_in_a_path_value_stays_one_encoded_segment() {
    let (server, registry) = setup();
    let cases = [
        ("a/b", "/api/files/a%2Fb/meta"),
        ("?x=1", "/api/files/%3Fx%3D1/meta"),
        ("#", "/api/files/%23/meta"),
        ("//evil.example/x", "/api/files/%2F%2Fevil.example%2Fx/meta"),
        (
            "http://evil.example:81",
            "/api/files/http%3A%2F%2Fevil.example%3A81/meta",
        ),
        ("...", "/api/files/.../meta"),
    ];
    for (id, target) in cases {
        let out = run(&registry, &format!(r#"{{"id":"{}"}}"#, id));
        assert_eq!(out.text(), target, "{}", id);
    }
    let seen: Vec<String> = server.requests().into_iter().map(|r| r.target).collect();
    let expected: Vec<&str> = cases.iter().map(|c| c.1).collect();
    assert_eq!(seen, expected);
}

#[test]
fn query_values_cannot_add_parameters() {
    let (server, registry) = setup();
    let out = run(&registry, r#"{"id":"1","q":"x&admin=true#frag"}"#);
    assert_eq!(out.text(), "/api/files/1/meta?q=x%26admin%3Dtrue%23frag");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn cr_lf_in_header_values_are_refused() {
    let (server, registry) = setup();
    for trace in ["a\\r\\nX-Admin: 1", "a\\nb", "a\\u0000b"] {
        let out = run(&registry, &format!(r#"{{"id":"1","trace":"{}"}}"#, trace));
        assert_eq!(
            out.error_kind(),
            Some(ErrorKind::InvalidParameter),
            "{}",
            trace
        );
        assert_eq!(
            out.text(),
            "parameter 'trace' goes in a header and cannot hold a line break, NUL or other control character; send it on one line"
        );
    }
    assert_eq!(server.connections(), 0);
}

#[test]
fn wrong_types_are_refused() {
    let (server, registry) = setup();
    let cases = [
        (
            r#"{"id":"1","limit":"ten"}"#,
            "parameter 'limit' must be an integer; got \"ten\"",
        ),
        (
            r#"{"id":"1","limit":1.5}"#,
            "parameter 'limit' must be an integer; got 1.5",
        ),
        (
            r#"{"id":{"a":1}}"#,
            "parameter 'id' must be a string; got an object",
        ),
        (
            r#"{"id":"1","tags":"a,b"}"#,
            "parameter 'tags' must be an array of strings; got \"a,b\"",
        ),
        (
            r#"{"id":"1","tags":[["x"]]}"#,
            "parameter 'tags[0]' must be a string; got an array",
        ),
    ];
    for (arguments, message) in cases {
        let out = run(&registry, arguments);
        assert_eq!(
            out.error_kind(),
            Some(ErrorKind::InvalidParameter),
            "{}",
            arguments
        );
        assert_eq!(out.text(), message);
    }
    assert_eq!(server.connections(), 0);
}

#[test]
fn huge_string_over_the_argument_cap_is_refused() {
    let (server, registry) = setup();
    let arguments = format!(r#"{{"id":"{}"}}"#, "x".repeat(DEFAULT_MAX_ARGUMENT_BYTES));
    let out = run(&registry, &arguments);
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidArguments));
    assert_eq!(
        out.text(),
        format!(
            "arguments are {} bytes, over the limit of {} bytes; send shorter values",
            arguments.len(),
            DEFAULT_MAX_ARGUMENT_BYTES
        )
    );
    assert_eq!(server.connections(), 0);
}

#[test]
fn huge_string_under_the_cap_still_cannot_make_a_huge_url() {
    let (server, registry) = setup();
    let out = run(
        &registry,
        &format!(r#"{{"id":"1","q":"{}"}}"#, "y".repeat(9000)),
    );
    assert_eq!(out.error_kind(), Some(ErrorKind::LimitExceeded));
    assert_eq!(
        out.text(),
        format!(
            "the request url would be {} bytes, over the limit of 8192 bytes; send shorter values",
            "/api/files/1/meta?q=".len() + 9000
        )
    );
    assert_eq!(server.connections(), 0);
}

#[test]
fn deep_nesting_is_refused() {
    let (server, registry) = setup();
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let out = run(&registry, &format!(r#"{{"id":"1","tags":{}}}"#, deep));
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidArguments));
    assert!(
        out.text().starts_with("arguments are not valid JSON: "),
        "{}",
        out.text()
    );
    // Within the parser's depth, still not the declared type.
    let nested = format!("{}\"x\"{}", "[".repeat(100), "]".repeat(100));
    let out = run(&registry, &format!(r#"{{"id":"1","tags":{}}}"#, nested));
    assert_eq!(
        out.text(),
        "parameter 'tags[0]' must be a string; got an array"
    );
    // A JSON-encoded string nested past the limit is not decoded.
    let encoded = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let out = run(&registry, &format!(r#"{{"id":"1","tags":"{}"}}"#, encoded));
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidParameter));
    assert!(out
        .text()
        .starts_with("parameter 'tags' must be an array of strings; got \"[[[["));
    assert_eq!(server.connections(), 0);
}

#[test]
fn unknown_tool_and_unknown_parameter_send_nothing() {
    let (server, registry) = setup();
    let out = registry.call(&ToolCall::new("1", "getFlie", r#"{"id":"1"}"#));
    assert_eq!(out.error_kind(), Some(ErrorKind::UnknownTool));
    let out = run(&registry, r#"{"id":"1","host":"evil.example"}"#);
    assert_eq!(
        out.text(),
        "unknown parameter 'host'; accepted: id, trace, limit, q, tags"
    );
    assert_eq!(server.connections(), 0);
}
