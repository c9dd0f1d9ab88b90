//! OpenAI shapes: chat and Responses tools, strict mode, reading calls, writing results.
//!
//! The payloads are written after the examples in OpenAI's function-calling guide and API
//! reference (Chat Completions `tool_calls`, Responses `function_call` items).

use httptool::json;
use httptool::json::{Json, Map};
use httptool::tool::{
    openai, Arguments, CallContext, ErrorKind, ToolCall, ToolOutput, ToolRegistry, ToolSpec,
};

use crate::support::weather;

fn spec_with(parameters: Json) -> ToolSpec {
    ToolSpec::new("t", "d", parameters).unwrap()
}

fn strict_error(parameters: Json) -> String {
    let err = openai::chat_tool_strict(&spec_with(parameters)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::StrictUnsupported);
    err.to_string()
}

#[test]
fn chat_tool_shape() {
    assert_eq!(
        openai::chat_tool(&weather::spec("get_weather")),
        json!({
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather for a city",
                "parameters": weather::spec("get_weather").parameters().clone()
            }
        })
    );
}

#[test]
fn responses_tool_is_flat_and_says_strict_false() {
    assert_eq!(
        openai::responses_tool(&weather::spec("get_weather")),
        json!({
            "type": "function",
            "name": "get_weather",
            "description": "Current weather for a city",
            "parameters": weather::spec("get_weather").parameters().clone(),
            "strict": false
        })
    );
}

#[test]
fn strict_chat_tool_makes_optional_nullable_and_everything_required() {
    assert_eq!(
        openai::chat_tool_strict(&weather::spec("get_weather")).unwrap(),
        json!({
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather for a city",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "city": { "type": "string", "description": "City name" },
                        "days": { "type": ["integer", "null"], "description": "Default: 1." }
                    },
                    "required": ["city", "days"],
                    "additionalProperties": false
                },
                "strict": true
            }
        })
    );
}

#[test]
fn strict_responses_tool() {
    let tool = openai::responses_tool_strict(&weather::spec("get_weather")).unwrap();
    assert_eq!(tool["strict"], json!(true));
    assert_eq!(tool["name"], json!("get_weather"));
    assert_eq!(tool["parameters"]["required"], json!(["city", "days"]));
}

#[test]
fn strict_closes_nested_objects_and_array_items() {
    let schema = json!({
        "type": "object",
        "properties": {
            "address": {
                "type": "object",
                "properties": { "street": { "type": "string" }, "zip": { "type": "string" } },
                "required": ["street"]
            },
            "tags": {
                "type": "array",
                "items": { "type": "object", "properties": { "k": { "type": "string" } } }
            }
        },
        "required": ["tags"]
    });
    assert_eq!(
        openai::strict_schema(&schema).unwrap(),
        json!({
            "type": "object",
            "properties": {
                "address": {
                    "type": ["object", "null"],
                    "properties": {
                        "street": { "type": "string" },
                        "zip": { "type": ["string", "null"] }
                    },
                    "required": ["street", "zip"],
                    "additionalProperties": false
                },
                "tags": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": { "k": { "type": ["string", "null"] } },
                        "required": ["k"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["address", "tags"],
            "additionalProperties": false
        })
    );
}

#[test]
fn strict_optional_enum_gains_null() {
    let schema = json!({
        "type": "object",
        "properties": { "unit": { "type": "string", "enum": ["c", "f"] } }
    });
    assert_eq!(
        openai::strict_schema(&schema).unwrap()["properties"]["unit"],
        json!({ "type": ["string", "null"], "enum": ["c", "f", null] })
    );
}

#[test]
fn strict_optional_ref_and_const_are_wrapped_in_any_of() {
    let schema = json!({
        "type": "object",
        "properties": {
            "home": { "$ref": "#/$defs/place" },
            "mode": { "const": "fast" }
        },
        "$defs": { "place": { "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] } }
    });
    let strict = openai::strict_schema(&schema).unwrap();
    assert_eq!(
        strict["properties"]["home"],
        json!({ "anyOf": [{ "$ref": "#/$defs/place" }, { "type": "null" }] })
    );
    assert_eq!(
        strict["properties"]["mode"],
        json!({ "anyOf": [{ "const": "fast" }, { "type": "null" }] })
    );
    assert_eq!(
        strict["$defs"]["place"]["additionalProperties"],
        json!(false),
        "definitions are made strict too"
    );
}

#[test]
fn strict_one_of_becomes_any_of_and_gains_null_when_optional() {
    let schema = json!({
        "type": "object",
        "properties": { "id": { "oneOf": [{ "type": "string" }, { "type": "integer" }] } }
    });
    assert_eq!(
        openai::strict_schema(&schema).unwrap()["properties"]["id"],
        json!({ "anyOf": [{ "type": "string" }, { "type": "integer" }, { "type": "null" }] })
    );
}

#[test]
fn strict_already_nullable_is_left_alone() {
    let schema = json!({
        "type": "object",
        "properties": { "note": { "type": ["string", "null"] } }
    });
    assert_eq!(
        openai::strict_schema(&schema).unwrap()["properties"]["note"],
        json!({ "type": ["string", "null"] })
    );
}

#[test]
fn strict_drops_unsupported_narrowing_keywords() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "name": { "type": "string", "minLength": 1, "maxLength": 9, "pattern": "^[a-z]+$" },
            "site": { "type": "string", "format": "uri" },
            "when": { "type": "string", "format": "date-time" },
            "n": { "type": "integer", "minimum": 1, "maximum": 9, "examples": [3] },
            "list": { "type": "array", "items": { "type": "string" }, "uniqueItems": true, "maxItems": 3 }
        },
        "required": ["name", "site", "when", "n", "list"]
    });
    assert_eq!(
        openai::strict_schema(&schema).unwrap(),
        json!({
            "type": "object",
            "properties": {
                "name": { "type": "string", "pattern": "^[a-z]+$" },
                "site": { "type": "string" },
                "when": { "type": "string", "format": "date-time" },
                "n": { "type": "integer", "minimum": 1, "maximum": 9 },
                "list": { "type": "array", "items": { "type": "string" }, "maxItems": 3 }
            },
            "required": ["name", "site", "when", "n", "list"],
            "additionalProperties": false
        })
    );
}

#[test]
fn strict_refuses_free_form_objects() {
    assert_eq!(
        strict_error(json!({
            "type": "object",
            "properties": { "meta": { "type": "object" } },
            "required": ["meta"]
        })),
        "tool 't': openai strict mode: an object without 'properties' (a free-form object) \
         is not supported (at /properties/meta)"
    );
    assert_eq!(
        strict_error(json!({
            "type": "object",
            "properties": {},
            "additionalProperties": { "type": "string" }
        })),
        "tool 't': openai strict mode: 'additionalProperties' other than false (a free-form map) \
         is not supported (at the root)"
    );
}

#[test]
fn strict_refuses_keywords_that_change_the_shape() {
    assert_eq!(
        strict_error(json!({
            "type": "object",
            "properties": { "a": { "allOf": [{ "type": "string" }] } },
            "required": ["a"]
        })),
        "tool 't': openai strict mode: 'allOf' is not supported; send this tool without strict \
         mode (at /properties/a)"
    );
    assert_eq!(
        strict_error(json!({
            "type": "object",
            "properties": { "a": { "type": "array" } },
            "required": ["a"]
        })),
        "tool 't': openai strict mode: an array needs 'items' (at /properties/a)"
    );
    assert_eq!(
        strict_error(json!({
            "type": "object",
            "properties": { "a": { "type": "array", "items": [{ "type": "string" }] } },
            "required": ["a"]
        })),
        "tool 't': openai strict mode: tuple 'items' (an array of schemas) is not supported \
         (at /properties/a)"
    );
}

#[test]
fn strict_refuses_a_subschema_that_is_not_an_object() {
    let err = openai::chat_tool_strict(&spec_with(json!({
        "type": "object",
        "properties": { "a": true }
    })))
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidSchema);
    assert_eq!(
        err.to_string(),
        "tool 't': a subschema must be an object, got boolean at /properties/a"
    );
}

#[test]
fn strict_tool_without_parameters() {
    let spec = ToolSpec::without_parameters("ping", "Checks liveness").unwrap();
    assert_eq!(
        openai::chat_tool_strict(&spec).unwrap()["function"]["parameters"],
        json!({ "type": "object", "properties": {}, "required": [], "additionalProperties": false })
    );
}

// A Chat Completions response with two parallel calls, after the API reference example.
const CHAT_RESPONSE: &str = r#"{
  "id": "chatcmpl-abc123",
  "object": "chat.completion",
  "created": 1699896916,
  "model": "gpt-4o-mini",
  "choices": [
    {
      "index": 0,
      "message": {
        "role": "assistant",
        "content": null,
        "tool_calls": [
          {
            "id": "call_abc123",
            "type": "function",
            "function": { "name": "get_weather", "arguments": "{\n\"city\": \"Boston\"\n}" }
          },
          {
            "id": "call_def456",
            "type": "function",
            "function": { "name": "get_weather", "arguments": "{\"city\": \"Paris\", \"days\": 2}" }
          }
        ]
      },
      "logprobs": null,
      "finish_reason": "tool_calls"
    }
  ],
  "usage": { "prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99 }
}"#;

#[test]
fn chat_calls_read_in_order() {
    let calls = openai::chat_calls(&json::parse(CHAT_RESPONSE).unwrap()).unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        calls[0],
        ToolCall::new("call_abc123", "get_weather", "{\n\"city\": \"Boston\"\n}")
    );
    assert_eq!(calls[1].id(), "call_def456");
    assert_eq!(
        calls[1].arguments_text(),
        "{\"city\": \"Paris\", \"days\": 2}"
    );
}

#[test]
fn chat_calls_from_a_message_and_without_calls() {
    let message = json!({
        "role": "assistant",
        "tool_calls": [{ "id": "c", "type": "function", "function": { "name": "f", "arguments": "{}" } }]
    });
    assert_eq!(openai::chat_calls(&message).unwrap().len(), 1);
    let text_only = json!({ "choices": [{ "message": { "role": "assistant", "content": "Hi" } }] });
    assert!(openai::chat_calls(&text_only).unwrap().is_empty());
    let null_calls = json!({ "role": "assistant", "content": "Hi", "tool_calls": null });
    assert!(openai::chat_calls(&null_calls).unwrap().is_empty());
}

#[test]
fn chat_calls_accept_object_arguments() {
    let message = json!({
        "role": "assistant",
        "tool_calls": [{ "id": "c", "type": "function", "function": { "name": "f", "arguments": { "a": 1 } } }]
    });
    let calls = openai::chat_calls(&message).unwrap();
    let mut expected = Map::new();
    expected.insert("a", 1);
    assert_eq!(calls[0].arguments(), &Arguments::Object(expected));
}

fn chat_error(payload: Json) -> String {
    let err = openai::chat_calls(&payload).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MalformedPayload);
    err.to_string()
}

#[test]
fn malformed_chat_payloads_name_the_place() {
    assert_eq!(
        chat_error(json!({ "choices": [] })),
        "openai chat response: expected a choice at /choices/0, got nothing"
    );
    assert_eq!(
        chat_error(json!({ "choices": [{ "message": { "tool_calls": {} } }] })),
        "openai chat response: expected an array at /choices/0/message/tool_calls, got object"
    );
    assert_eq!(
        chat_error(
            json!({ "role": "assistant", "tool_calls": [{ "id": "c", "function": { "name": 7, "arguments": "{}" } }] })
        ),
        "openai chat response: expected a string at /tool_calls/0/function/name, got number"
    );
    assert_eq!(
        chat_error(json!({ "role": "assistant", "tool_calls": [{ "id": "c", "function": { "name": "f" } }] })),
        "openai chat response: expected a JSON string at /tool_calls/0/function/arguments, got nothing"
    );
    assert_eq!(
        chat_error(
            json!({ "role": "assistant", "tool_calls": [{ "id": "c", "type": "custom", "custom": {} }] })
        ),
        "openai chat response: expected \"function\" at /tool_calls/0/type, got string"
    );
    assert_eq!(
        chat_error(json!("hello")),
        "openai chat response: expected an object at the root, got string"
    );
}

// A Responses API output with reasoning, a message and two function calls.
const RESPONSES_OUTPUT: &str = r#"{
  "id": "resp_67ccd2bed1ec8190",
  "object": "response",
  "status": "completed",
  "output": [
    { "type": "reasoning", "id": "rs_1", "summary": [] },
    {
      "type": "function_call",
      "id": "fc_12345xyz",
      "call_id": "call_12345xyz",
      "name": "get_weather",
      "arguments": "{\"city\":\"Paris\"}",
      "status": "completed"
    },
    {
      "type": "function_call",
      "id": "fc_67890abc",
      "call_id": "call_67890abc",
      "name": "get_weather",
      "arguments": "{\"city\":\"Bogotá\"}",
      "status": "completed"
    }
  ]
}"#;

#[test]
fn responses_calls_use_call_id_and_keep_order() {
    let response = json::parse(RESPONSES_OUTPUT).unwrap();
    let calls = openai::responses_calls(&response).unwrap();
    assert_eq!(
        calls,
        vec![
            ToolCall::new("call_12345xyz", "get_weather", r#"{"city":"Paris"}"#),
            ToolCall::new("call_67890abc", "get_weather", r#"{"city":"Bogotá"}"#),
        ]
    );
    let output_only = response["output"].clone();
    assert_eq!(openai::responses_calls(&output_only).unwrap(), calls);
}

#[test]
fn malformed_responses_payloads_name_the_place() {
    let err = openai::responses_calls(
        &json!({ "output": [{ "type": "function_call", "name": "f", "arguments": "{}" }] }),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MalformedPayload);
    assert_eq!(
        err.to_string(),
        "openai responses output: expected a string at /output/0/call_id, got nothing"
    );
    let err = openai::responses_calls(&json!({ "id": "resp_1" })).unwrap_err();
    assert_eq!(
        err.to_string(),
        "openai responses output: expected an array at /output, got nothing"
    );
}

#[test]
fn results_in_both_shapes() {
    let call = ToolCall::new("call_abc123", "get_weather", "{}");
    let ok = ToolOutput::success("sunny");
    assert_eq!(
        openai::chat_result(&call, &ok),
        json!({ "role": "tool", "tool_call_id": "call_abc123", "content": "sunny" })
    );
    assert_eq!(
        openai::responses_result(&call, &ok),
        json!({ "type": "function_call_output", "call_id": "call_abc123", "output": "sunny" })
    );
    let failed = ToolOutput::error(ErrorKind::HttpStatus, "the API answered 404");
    assert_eq!(
        openai::chat_result(&call, &failed)["content"],
        json!("the API answered 404")
    );
}

fn weather_registry() -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry
        .add_fn(
            weather::spec("get_weather"),
            |args: Map, _: &CallContext| {
                let city = args.get("city").and_then(Json::as_str).unwrap_or("?");
                let days = args.get("days").and_then(Json::as_i64).unwrap_or(1);
                format!("{}: sunny for {} day(s)", city, days)
            },
        )
        .unwrap();
    registry
}

#[test]
fn round_trip_chat() {
    let registry = weather_registry();
    let tools: Vec<Json> = registry.iter_specs().map(openai::chat_tool).collect();
    let name = tools[0]["function"]["name"].as_str().unwrap().to_string();

    let response = json!({ "choices": [{ "message": { "role": "assistant", "content": null,
        "tool_calls": [{ "id": "call_1", "type": "function",
            "function": { "name": name, "arguments": "{\"city\":\"Rome\",\"days\":3}" } }] } }] });
    let messages: Vec<Json> = openai::chat_calls(&response)
        .unwrap()
        .iter()
        .map(|call| openai::chat_result(call, &registry.call(call)))
        .collect();
    assert_eq!(
        messages,
        vec![
            json!({ "role": "tool", "tool_call_id": "call_1", "content": "Rome: sunny for 3 day(s)" })
        ]
    );
}

#[test]
fn round_trip_responses_strict() {
    let registry = weather_registry();
    let tools: Vec<Json> = registry
        .iter_specs()
        .map(|spec| openai::responses_tool_strict(spec).unwrap())
        .collect();
    assert_eq!(tools[0]["strict"], json!(true));

    // In strict mode the model sends null for an optional parameter it leaves out.
    let response = json!({ "output": [{ "type": "function_call", "id": "fc_1", "call_id": "call_9",
        "name": "get_weather", "arguments": "{\"city\":\"Oslo\",\"days\":null}" }] });
    let items: Vec<Json> = openai::responses_calls(&response)
        .unwrap()
        .iter()
        .map(|call| openai::responses_result(call, &registry.call(call)))
        .collect();
    assert_eq!(
        items,
        vec![json!({ "type": "function_call_output", "call_id": "call_9",
            "output": "Oslo: sunny for 1 day(s)" })]
    );
}
