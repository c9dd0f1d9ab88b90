//! Anthropic shapes: tools, `tool_use` blocks, `tool_result` blocks.
//!
//! The payloads are written after the examples in Anthropic's tool-use guide.

use httptool::json;
use httptool::json::{Json, Map};
use httptool::tool::{
    anthropic, CallContext, ErrorKind, ToolCall, ToolOutput, ToolRegistry, ToolSpec,
};

/// The weather tool of Anthropic's tool-use documentation.
fn documented_example() -> ToolSpec {
    ToolSpec::new(
        "get_weather",
        "Get the current weather in a given location",
        json!({
            "type": "object",
            "properties": {
                "location": { "type": "string", "description": "The city and state, e.g. San Francisco, CA" },
                "unit": { "type": "string", "enum": ["celsius", "fahrenheit"] }
            },
            "required": ["location"]
        }),
    )
    .unwrap()
}

#[test]
fn tool_shape() {
    assert_eq!(
        anthropic::tool(&documented_example()),
        json!({
            "name": "get_weather",
            "description": "Get the current weather in a given location",
            "input_schema": documented_example().parameters().clone()
        })
    );
}

// A Messages API response: text, then two tool_use blocks.
const MESSAGE: &str = r#"{
  "id": "msg_01Aq9w938a90dw8q",
  "type": "message",
  "model": "claude-sonnet-4-5",
  "stop_reason": "tool_use",
  "role": "assistant",
  "content": [
    { "type": "text", "text": "I'll check the weather in both cities." },
    {
      "type": "tool_use",
      "id": "toolu_01A09q90qw90lq917835lq9",
      "name": "get_weather",
      "input": { "location": "San Francisco, CA", "unit": "celsius" }
    },
    {
      "type": "tool_use",
      "id": "toolu_02B19r01rx01mr028946mr0",
      "name": "get_weather",
      "input": { "location": "New York, NY" }
    }
  ]
}"#;

#[test]
fn calls_read_tool_use_blocks_in_order() {
    let calls = anthropic::calls(&json::parse(MESSAGE).unwrap()).unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].id(), "toolu_01A09q90qw90lq917835lq9");
    assert_eq!(calls[0].name(), "get_weather");
    assert_eq!(
        calls[0].arguments_text(),
        r#"{"location":"San Francisco, CA","unit":"celsius"}"#
    );
    assert_eq!(calls[1].id(), "toolu_02B19r01rx01mr028946mr0");
}

#[test]
fn calls_from_a_content_array_and_without_tool_use() {
    let message = json::parse(MESSAGE).unwrap();
    let content = message["content"].clone();
    assert_eq!(anthropic::calls(&content).unwrap().len(), 2);
    let text_only = json!({ "role": "assistant", "content": [{ "type": "text", "text": "Hi" }] });
    assert!(anthropic::calls(&text_only).unwrap().is_empty());
}

fn malformed(payload: Json) -> String {
    let err = anthropic::calls(&payload).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MalformedPayload);
    err.to_string()
}

#[test]
fn malformed_messages_name_the_place() {
    assert_eq!(
        malformed(
            json!({ "content": [{ "type": "tool_use", "id": "t", "name": "f", "input": "{}" }] })
        ),
        "anthropic message: expected an object at /content/0/input, got string"
    );
    assert_eq!(
        malformed(json!({ "content": [{ "type": "tool_use", "name": "f", "input": {} }] })),
        "anthropic message: expected a string at /content/0/id, got nothing"
    );
    assert_eq!(
        malformed(json!({ "role": "assistant" })),
        "anthropic message: expected an array at /content, got nothing"
    );
    assert_eq!(
        malformed(json!(3)),
        "anthropic message: expected a message object or a content array at the root, got number"
    );
}

#[test]
fn tool_result_blocks() {
    let call = ToolCall::new("toolu_01A09q90qw90lq917835lq9", "get_weather", "{}");
    assert_eq!(
        anthropic::tool_result(&call, &ToolOutput::success("15 degrees")),
        json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
            "content": "15 degrees",
            "is_error": false
        })
    );
    let failed = ToolOutput::error(ErrorKind::Timeout, "the weather API did not answer in 30 s");
    assert_eq!(
        anthropic::tool_result(&call, &failed),
        json!({
            "type": "tool_result",
            "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
            "content": "the weather API did not answer in 30 s",
            "is_error": true
        })
    );
    assert_eq!(
        anthropic::tool_result(&call, &ToolOutput::success("")),
        json!({ "type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "is_error": false }),
        "an empty result is sent without content"
    );
}

#[test]
fn round_trip() {
    let mut registry = ToolRegistry::new();
    registry
        .add_fn(documented_example(), |args: Map, _: &CallContext| {
            let location = args.get("location").and_then(Json::as_str).unwrap_or("?");
            format!("{}: 15 degrees", location)
        })
        .unwrap();
    let tools: Vec<Json> = registry.iter_specs().map(anthropic::tool).collect();
    assert_eq!(tools[0]["input_schema"]["required"], json!(["location"]));

    let message = json::parse(MESSAGE).unwrap();
    let calls = anthropic::calls(&message).unwrap();
    let outputs: Vec<ToolOutput> = calls.iter().map(|call| registry.call(call)).collect();
    let reply = anthropic::results_message(calls.iter().zip(outputs.iter()));
    assert_eq!(
        reply,
        json!({
            "role": "user",
            "content": [
                { "type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
                  "content": "San Francisco, CA: 15 degrees", "is_error": false },
                { "type": "tool_result", "tool_use_id": "toolu_02B19r01rx01mr028946mr0",
                  "content": "New York, NY: 15 degrees", "is_error": false }
            ]
        })
    );
}
