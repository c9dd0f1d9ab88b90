//! The MCP server's message reader on arbitrary input.
//!
//! The bytes are the client's side of the stdio transport, served over a registry holding one
//! plain Rust tool (nothing leaves the process). Invariants: no panic, no hang; every line
//! the server writes is one JSON-RPC 2.0 message: an object with `"jsonrpc": "2.0"` that is
//! either a response (an `id`, and exactly one of `result` and `error`, an error with an
//! integer `code` and a string `message`) or a notification (a `method` and no `id`).

#![no_main]

use httptool::json::{self, Json, Map};
use httptool::tool::{CallContext, FnTool, ToolRegistry, ToolSpec};
use libfuzzer_sys::fuzz_target;

fn registry() -> ToolRegistry {
    let spec = ToolSpec::new(
        "echo",
        "Returns its text",
        json::parse(
            r#"{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}"#,
        )
        .expect("a fixed schema"),
    )
    .expect("a fixed spec");
    let echo = FnTool::new(spec, |mut arguments: Map, _: &CallContext| {
        let text = arguments.remove("text").and_then(Json::into_string);
        text.ok_or("missing parameter 'text'")
    });
    let mut registry = ToolRegistry::new();
    registry.add(echo).expect("one tool");
    registry
}

fuzz_target!(|data: &[u8]| {
    let mut output = Vec::new();
    // Reading or writing may fail (bytes that are not text); what was written must still be
    // well-formed.
    let _ = httptool::mcp::serve(&registry(), data, &mut output);
    assert!(
        output.is_empty() || output.ends_with(b"\n"),
        "the last message is not ended"
    );
    for line in output
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
    {
        let text = std::str::from_utf8(line).expect("the server writes text");
        let message =
            json::parse(text).unwrap_or_else(|e| panic!("a line is not JSON: {e}\n{text}"));
        let object = message
            .as_object()
            .unwrap_or_else(|| panic!("a message is not an object: {text}"));
        assert_eq!(
            object.get("jsonrpc").and_then(Json::as_str),
            Some("2.0"),
            "{text}"
        );
        match object.get("id") {
            Some(id) => {
                assert!(
                    matches!(id, Json::Null | Json::String(_) | Json::Number(_)),
                    "a bad id: {text}"
                );
                let result = object.get("result").is_some();
                let error = object.get("error");
                assert!(result != error.is_some(), "result xor error: {text}");
                if let Some(error) = error {
                    assert!(
                        error.get("code").and_then(Json::as_i64).is_some(),
                        "an error without an integer code: {text}"
                    );
                    assert!(
                        error.get("message").and_then(Json::as_str).is_some(),
                        "an error without a message: {text}"
                    );
                }
            }
            None => assert!(
                object.get("method").and_then(Json::as_str).is_some(),
                "neither a response nor a notification: {text}"
            ),
        }
    }
});
