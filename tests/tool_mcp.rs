//! MCP 2025-11-25 shapes: tools for `tools/list`, `tools/call`, `CallToolResult`.
//!
//! The payloads are written after the examples in the MCP specification's tools page.

use httptool::json;
use httptool::json::{Json, Map};
use httptool::tool::{
    mcp, CallContext, ErrorKind, ToolAnnotations, ToolOutput, ToolRegistry, ToolSpec,
};

/// The weather tool of the MCP specification's `tools/list` example.
fn documented_example() -> ToolSpec {
    ToolSpec::new(
        "get_weather",
        "Get current weather information for a location",
        json!({
            "type": "object",
            "properties": {
                "location": { "type": "string", "description": "City name or zip code" }
            },
            "required": ["location"]
        }),
    )
    .unwrap()
    .with_title("Weather Information Provider")
}

#[test]
fn tool_shape_with_and_without_title() {
    assert_eq!(
        mcp::tool(&documented_example()),
        json!({
            "name": "get_weather",
            "title": "Weather Information Provider",
            "description": "Get current weather information for a location",
            "inputSchema": documented_example().parameters().clone()
        })
    );
    let untitled = ToolSpec::without_parameters("ping", "Checks liveness").unwrap();
    assert_eq!(
        mcp::tool(&untitled),
        json!({
            "name": "ping",
            "description": "Checks liveness",
            "inputSchema": { "type": "object", "properties": {}, "additionalProperties": false }
        })
    );
}

#[test]
fn list_tools_result_keeps_order() {
    let specs = [
        documented_example(),
        ToolSpec::without_parameters("ping", "").unwrap(),
    ];
    let result = mcp::list_tools_result(specs.iter());
    assert_eq!(result["tools"][0]["name"], json!("get_weather"));
    assert_eq!(result["tools"][1]["name"], json!("ping"));
}

const REQUEST: &str = r#"{
  "jsonrpc": "2.0",
  "id": 2,
  "method": "tools/call",
  "params": {
    "name": "get_weather",
    "arguments": { "location": "New York" }
  }
}"#;

#[test]
fn call_from_request_and_params() {
    let request = json::parse(REQUEST).unwrap();
    let call = mcp::call_from_request(&request).unwrap();
    assert_eq!(call.id(), "2");
    assert_eq!(call.name(), "get_weather");
    assert_eq!(call.arguments_text(), r#"{"location":"New York"}"#);

    let by_params = mcp::call_from_params("2", &request["params"]).unwrap();
    assert_eq!(by_params, call);

    let string_id = json!({ "jsonrpc": "2.0", "id": "abc", "method": "tools/call",
        "params": { "name": "ping" } });
    let call = mcp::call_from_request(&string_id).unwrap();
    assert_eq!(call.id(), "abc");
    assert_eq!(call.arguments_text(), "{}", "absent arguments read as none");
}

fn malformed_request(request: Json) -> String {
    let err = mcp::call_from_request(&request).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MalformedPayload);
    err.to_string()
}

#[test]
fn malformed_requests_name_the_place() {
    assert_eq!(
        malformed_request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" })),
        "mcp tools/call request: expected \"tools/call\" at /method, got string"
    );
    assert_eq!(
        malformed_request(
            json!({ "jsonrpc": "2.0", "id": null, "method": "tools/call", "params": {} })
        ),
        "mcp tools/call request: expected a string or a number at /id, got null"
    );
    assert_eq!(
        malformed_request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call" })),
        "mcp tools/call request: expected an object at /params, got nothing"
    );
    assert_eq!(
        malformed_request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": "f", "arguments": [1] } })),
        "mcp tools/call request: expected an object at /params/arguments, got array"
    );
    let err = mcp::call_from_params("1", &json!({ "arguments": {} })).unwrap_err();
    assert_eq!(
        err.to_string(),
        "mcp tools/call params: expected a string at /name, got nothing"
    );
}

#[test]
fn call_tool_result_shapes() {
    assert_eq!(
        mcp::call_tool_result(&ToolOutput::success(
            "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy"
        )),
        json!({
            "content": [{ "type": "text",
                "text": "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy" }],
            "isError": false
        })
    );
    let failed = ToolOutput::error(
        ErrorKind::HttpStatus,
        "Invalid departure date: must be in the future",
    )
    .with_status(400);
    assert_eq!(
        mcp::call_tool_result(&failed),
        json!({
            "content": [{ "type": "text", "text": "Invalid departure date: must be in the future" }],
            "isError": true
        })
    );
    let structured =
        ToolOutput::json(json!({ "temperature": 22.5, "conditions": "Partly cloudy" }));
    assert_eq!(
        mcp::call_tool_result(&structured),
        json!({
            "content": [{ "type": "text", "text": "{\"temperature\":22.5,\"conditions\":\"Partly cloudy\"}" }],
            "structuredContent": { "temperature": 22.5, "conditions": "Partly cloudy" },
            "isError": false
        })
    );
    // MCP requires an object: anything else is wrapped.
    let array = ToolOutput::json(json!([1, 2]));
    assert_eq!(
        mcp::call_tool_result(&array)["structuredContent"],
        json!({ "result": [1, 2] })
    );
    // An error result carries its text only.
    let failed_json = ToolOutput::error(ErrorKind::HttpStatus, "the API answered 404")
        .with_structured(json!({ "error": "not found" }));
    assert!(mcp::call_tool_result(&failed_json)
        .get("structuredContent")
        .is_none());
}

#[test]
fn round_trip() {
    let mut registry = ToolRegistry::new();
    registry
        .add_fn(documented_example(), |args: Map, _: &CallContext| {
            let location = args.get("location").and_then(Json::as_str).unwrap_or("?");
            json!({ "location": location, "temperature": 72 })
        })
        .unwrap();
    let listed = mcp::list_tools_result(registry.iter_specs());
    assert_eq!(
        listed["tools"][0]["inputSchema"]["required"],
        json!(["location"])
    );

    let call = mcp::call_from_request(&json::parse(REQUEST).unwrap()).unwrap();
    let result = mcp::call_tool_result(&registry.call_owned(call, &CallContext::new()));
    assert_eq!(
        result,
        json!({
            "content": [{ "type": "text", "text": "{\"location\":\"New York\",\"temperature\":72}" }],
            "structuredContent": { "location": "New York", "temperature": 72 },
            "isError": false
        })
    );
}

#[test]
fn tool_with_title_annotations_and_output_schema() {
    let hints = ToolAnnotations {
        read_only: Some(true),
        destructive: None,
        idempotent: Some(true),
        open_world: Some(true),
    };
    let spec = documented_example()
        .with_title("Weather")
        .with_annotations(hints)
        .with_output_schema(
            json!({ "type": "object", "properties": { "temp": { "type": "number" } } }),
        )
        .unwrap();
    assert_eq!(
        mcp::tool(&spec)["annotations"],
        json!({ "readOnlyHint": true, "idempotentHint": true,
                "openWorldHint": true })
    );
    assert_eq!(
        mcp::tool(&spec)["outputSchema"],
        json!({ "type": "object", "properties": { "temp": { "type": "number" } } })
    );
    // Unknown hints and no title: no annotations member at all.
    assert!(mcp::tool(&documented_example())
        .get("annotations")
        .is_none());
    assert!(mcp::tool(&documented_example())
        .get("outputSchema")
        .is_none());
}

#[test]
fn an_output_schema_that_is_not_an_object_is_wrapped_and_so_are_its_results() {
    let spec = documented_example()
        .with_output_schema(json!({ "type": "array", "items": { "type": "integer" } }))
        .unwrap();
    assert_eq!(
        mcp::tool(&spec)["outputSchema"],
        json!({ "type": "object",
                "properties": { "result": { "type": "array", "items": { "type": "integer" } } } })
    );
    let result = mcp::call_tool_result_for(&spec, &ToolOutput::json(json!([1, 2])));
    assert_eq!(result["structuredContent"], json!({ "result": [1, 2] }));
    assert_eq!(result["content"][0]["text"], json!("[1,2]"));
    // An object schema: objects go out as they are.
    let spec = documented_example()
        .with_output_schema(json!({ "type": "object" }))
        .unwrap();
    let result = mcp::call_tool_result_for(&spec, &ToolOutput::json(json!({ "a": 1 })));
    assert_eq!(result["structuredContent"], json!({ "a": 1 }));
}

#[test]
fn a_success_without_structured_value_from_a_tool_with_an_output_schema_is_an_error() {
    let spec = documented_example()
        .with_output_schema(json!({ "type": "object" }))
        .unwrap();
    let result = mcp::call_tool_result_for(&spec, &ToolOutput::success("<html>busy</html>"));
    assert_eq!(
        result,
        json!({ "content": [{ "type": "text", "text": "<html>busy</html>" },
                            { "type": "text", "text": mcp::UNSTRUCTURED_NOTE }],
                "isError": true })
    );
    // Without an output schema, or for an error, nothing changes.
    let plain = mcp::call_tool_result_for(&documented_example(), &ToolOutput::success("fine"));
    assert_eq!(plain["isError"], json!(false));
    assert_eq!(plain["content"].as_array().map(Vec::len), Some(1));
    let failed = ToolOutput::error(httptool::tool::ErrorKind::HttpStatus, "503: busy");
    let failed = mcp::call_tool_result_for(&spec, &failed);
    assert_eq!(failed["content"].as_array().map(Vec::len), Some(1));
    assert_eq!(failed["isError"], json!(true));
}
