//! Gemini shapes: function declarations in its OpenAPI-subset schema, `functionCall` parts,
//! `functionResponse` parts.
//!
//! The payloads are written after the examples in Google's Gemini function-calling guide.

use httptool::json;
use httptool::json::{Json, Map};
use httptool::tool::{
    gemini, CallContext, ErrorKind, ToolCall, ToolOutput, ToolRegistry, ToolSpec,
};

/// Every field Gemini's `Schema` takes.
const SCHEMA_FIELDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// Asserts that every schema node in `schema` uses only fields Gemini knows, walking
/// `properties`, `items` and `anyOf`.
fn assert_only_gemini_fields(schema: &Json) {
    let mut stack = vec![(schema, String::from(""))];
    while let Some((node, at)) = stack.pop() {
        let map = node
            .as_object()
            .unwrap_or_else(|| panic!("not an object at {}", at));
        for (key, value) in map {
            assert!(
                SCHEMA_FIELDS.contains(&key.as_str()),
                "'{}' sent at {}",
                key,
                at
            );
            match key.as_str() {
                "properties" => {
                    for (name, property) in value.as_object().unwrap() {
                        stack.push((property, format!("{}/properties/{}", at, name)));
                    }
                }
                "items" => stack.push((value, format!("{}/items", at))),
                "anyOf" => {
                    for (index, branch) in value.as_array().unwrap().iter().enumerate() {
                        stack.push((branch, format!("{}/anyOf/{}", at, index)));
                    }
                }
                "type" => {
                    let kind = value.as_str().unwrap();
                    assert_eq!(kind, kind.to_uppercase(), "type at {}", at);
                }
                _ => {}
            }
        }
    }
}

fn lights_spec() -> ToolSpec {
    ToolSpec::new(
        "set_light_values",
        "Sets the brightness and color temperature of a light.",
        json!({
            "type": "object",
            "properties": {
                "brightness": {
                    "type": "integer",
                    "description": "Light level from 0 to 100. Zero is off and 100 is full brightness"
                },
                "color_temp": {
                    "type": "string",
                    "enum": ["daylight", "cool", "warm"],
                    "description": "Color temperature of the light fixture, which can be `daylight`, `cool` or `warm`."
                }
            },
            "required": ["brightness", "color_temp"],
            "additionalProperties": false
        }),
    )
    .unwrap()
}

#[test]
fn declaration_shape() {
    assert_eq!(
        gemini::function_declaration(&lights_spec()),
        json!({
            "name": "set_light_values",
            "description": "Sets the brightness and color temperature of a light.",
            "parameters": {
                "type": "OBJECT",
                "properties": {
                    "brightness": {
                        "type": "INTEGER",
                        "description": "Light level from 0 to 100. Zero is off and 100 is full brightness"
                    },
                    "color_temp": {
                        "type": "STRING",
                        "format": "enum",
                        "enum": ["daylight", "cool", "warm"],
                        "description": "Color temperature of the light fixture, which can be `daylight`, `cool` or `warm`."
                    }
                },
                "required": ["brightness", "color_temp"]
            }
        })
    );
}

#[test]
fn tool_entry_holds_every_declaration() {
    let specs = [
        lights_spec(),
        ToolSpec::without_parameters("ping", "").unwrap(),
    ];
    let tool = gemini::tool(specs.iter());
    assert_eq!(tool["functionDeclarations"].as_array().unwrap().len(), 2);
}

#[test]
fn declaration_without_parameters_leaves_them_out() {
    let spec = ToolSpec::without_parameters("ping", "Checks liveness").unwrap();
    assert_eq!(
        gemini::function_declaration(&spec),
        json!({ "name": "ping", "description": "Checks liveness" })
    );
}

#[test]
fn schema_rewrites_nullable_unions() {
    assert_eq!(
        gemini::schema(&json!({ "type": ["string", "null"], "description": "d" })),
        json!({ "type": "STRING", "description": "d", "nullable": true })
    );
    assert_eq!(
        gemini::schema(
            &json!({ "anyOf": [{ "type": "integer" }, { "type": "null" }], "description": "d" })
        ),
        json!({ "description": "d", "type": "INTEGER", "nullable": true })
    );
    assert_eq!(
        gemini::schema(&json!({ "type": "string", "enum": ["a", null] })),
        json!({ "type": "STRING", "format": "enum", "enum": ["a"], "nullable": true })
    );
}

#[test]
fn schema_splits_several_types_into_any_of() {
    assert_eq!(
        gemini::schema(&json!({
            "type": ["string", "array", "null"],
            "description": "one or many",
            "items": { "type": "string" },
            "maxLength": 5
        })),
        json!({
            "description": "one or many",
            "anyOf": [
                { "type": "STRING", "maxLength": 5 },
                { "type": "ARRAY", "items": { "type": "STRING" } }
            ],
            "nullable": true
        })
    );
}

#[test]
fn schema_rewrites_const_and_non_string_enums() {
    assert_eq!(
        gemini::schema(&json!({ "const": "fast" })),
        json!({ "type": "STRING", "format": "enum", "enum": ["fast"] })
    );
    assert_eq!(
        gemini::schema(&json!({ "type": "integer", "enum": [1, 2, 3], "description": "Level." })),
        json!({ "type": "INTEGER", "description": "Level. Allowed values: 1, 2, 3." })
    );
}

#[test]
fn schema_keeps_only_formats_gemini_accepts() {
    let schema = json!({
        "type": "object",
        "properties": {
            "when": { "type": "string", "format": "date-time" },
            "site": { "type": "string", "format": "uri" },
            "count": { "type": "integer", "format": "int64" },
            "ratio": { "type": "number", "format": "float" },
            "bad": { "type": "integer", "format": "float" }
        }
    });
    assert_eq!(
        gemini::schema(&schema)["properties"],
        json!({
            "when": { "type": "STRING", "format": "date-time" },
            "site": { "type": "STRING" },
            "count": { "type": "INTEGER", "format": "int64" },
            "ratio": { "type": "NUMBER", "format": "float" },
            "bad": { "type": "INTEGER" }
        })
    );
}

#[test]
fn schema_filters_required_and_keywords_by_type() {
    assert_eq!(
        gemini::schema(&json!({
            "type": "object",
            "properties": { "a": { "type": "string", "properties": { "x": {} }, "minimum": 1 } },
            "required": ["a", "ghost"]
        })),
        json!({
            "type": "OBJECT",
            "properties": { "a": { "type": "STRING" } },
            "required": ["a"]
        })
    );
}

#[test]
fn schema_never_sends_unsupported_fields() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/args",
        "type": "object",
        "additionalProperties": false,
        "$defs": { "x": { "type": "string" } },
        "properties": {
            "ref": { "$ref": "#/$defs/x" },
            "n": { "type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5, "minimum": 1 },
            "list": { "type": "array", "uniqueItems": true, "items": { "type": "object",
                "additionalProperties": { "type": "string" }, "patternProperties": {} } },
            "either": { "oneOf": [{ "type": "string" }, { "type": "integer", "not": { "const": 3 } }] },
            "all": { "allOf": [{ "type": "string" }], "examples": ["a"], "deprecated": true },
            "maybe": { "type": ["object", "null"], "properties": { "k": { "type": "boolean" } },
                "required": ["k"], "additionalProperties": false },
            "any": true
        },
        "required": ["n"]
    });
    let converted = gemini::schema(&schema);
    assert_only_gemini_fields(&converted);
    assert_eq!(
        converted["properties"]["maybe"],
        json!({ "type": "OBJECT", "properties": { "k": { "type": "BOOLEAN" } },
            "required": ["k"], "nullable": true })
    );
    assert_eq!(
        converted["properties"]["either"],
        json!({ "anyOf": [{ "type": "STRING" }, { "type": "INTEGER" }] })
    );
}

// A generateContent response with two parallel function calls, one with an id.
const RESPONSE: &str = r#"{
  "candidates": [
    {
      "content": {
        "role": "model",
        "parts": [
          { "text": "Setting both lights." },
          { "functionCall": { "name": "set_light_values", "args": { "brightness": 25, "color_temp": "warm" } } },
          { "functionCall": { "id": "fc-7f3a", "name": "set_light_values", "args": { "brightness": 80, "color_temp": "cool" } } }
        ]
      },
      "finishReason": "STOP",
      "index": 0
    }
  ],
  "usageMetadata": { "promptTokenCount": 120, "candidatesTokenCount": 30, "totalTokenCount": 150 }
}"#;

#[test]
fn calls_read_function_call_parts_in_order() {
    let calls = gemini::calls(&json::parse(RESPONSE).unwrap()).unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        calls[0].id(),
        "gemini-call-0",
        "synthesized: no id was sent"
    );
    assert_eq!(
        calls[0].arguments_text(),
        r#"{"brightness":25,"color_temp":"warm"}"#
    );
    assert_eq!(calls[1].id(), "fc-7f3a", "the model's own id is kept");
}

#[test]
fn synthesized_ids_are_deterministic() {
    let response = json::parse(RESPONSE).unwrap();
    assert_eq!(
        gemini::calls(&response).unwrap(),
        gemini::calls(&response).unwrap()
    );
}

#[test]
fn calls_from_content_parts_and_empty_answers() {
    let response = json::parse(RESPONSE).unwrap();
    let content = response["candidates"][0]["content"].clone();
    assert_eq!(gemini::calls(&content).unwrap().len(), 2);
    let parts = content["parts"].clone();
    assert_eq!(gemini::calls(&parts).unwrap().len(), 2);
    let no_args = json!([{ "functionCall": { "name": "ping" } }]);
    assert_eq!(gemini::calls(&no_args).unwrap()[0].arguments_text(), "{}");
    let blocked = json!({ "candidates": [{ "finishReason": "SAFETY" }] });
    assert!(gemini::calls(&blocked).unwrap().is_empty());
    let no_candidates = json!({ "candidates": [], "promptFeedback": { "blockReason": "SAFETY" } });
    assert!(gemini::calls(&no_candidates).unwrap().is_empty());
}

fn malformed(payload: Json) -> String {
    let err = gemini::calls(&payload).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MalformedPayload);
    err.to_string()
}

#[test]
fn malformed_responses_name_the_place() {
    assert_eq!(
        malformed(json!({ "candidates": [{ "content": { "parts": [{ "functionCall": { "args": {} } }] } }] })),
        "gemini response: expected a string at /candidates/0/content/parts/0/functionCall/name, got nothing"
    );
    assert_eq!(
        malformed(json!([{ "functionCall": { "name": "f", "args": "{}" } }])),
        "gemini response: expected an object at /0/functionCall/args, got string"
    );
    assert_eq!(
        malformed(json!({ "candidates": {} })),
        "gemini response: expected an array at /candidates, got object"
    );
    assert_eq!(
        malformed(json!({ "usageMetadata": {} })),
        "gemini response: expected \"candidates\", \"content\" or \"parts\" at the root, got object"
    );
}

#[test]
fn function_responses() {
    let synthesized = ToolCall::new("gemini-call-0", "set_light_values", "{}");
    let with_id = ToolCall::new("fc-7f3a", "set_light_values", "{}");
    let ok = ToolOutput::json(json!({ "brightness": 25, "colorTemperature": "warm" }));
    assert_eq!(
        gemini::function_response(&synthesized, &ok),
        json!({ "functionResponse": { "name": "set_light_values",
            "response": { "output": { "brightness": 25, "colorTemperature": "warm" } } } })
    );
    assert_eq!(
        gemini::function_response(&with_id, &ToolOutput::success("done")),
        json!({ "functionResponse": { "id": "fc-7f3a", "name": "set_light_values",
            "response": { "output": "done" } } })
    );
    let failed = ToolOutput::error(ErrorKind::InvalidParameter, "brightness must be 0 to 100");
    assert_eq!(
        gemini::function_response(&with_id, &failed),
        json!({ "functionResponse": { "id": "fc-7f3a", "name": "set_light_values",
            "response": { "error": "brightness must be 0 to 100" } } })
    );
}

#[test]
fn round_trip() {
    let mut registry = ToolRegistry::new();
    registry
        .add_fn(lights_spec(), |args: Map, _: &CallContext| {
            let brightness = args.get("brightness").and_then(Json::as_i64).unwrap_or(-1);
            json!({ "brightness": brightness })
        })
        .unwrap();
    let tool = gemini::tool(registry.iter_specs());
    assert_only_gemini_fields(&tool["functionDeclarations"][0]["parameters"]);

    let calls = gemini::calls(&json::parse(RESPONSE).unwrap()).unwrap();
    let outputs: Vec<ToolOutput> = calls.iter().map(|call| registry.call(call)).collect();
    assert_eq!(
        gemini::results_content(calls.iter().zip(outputs.iter())),
        json!({
            "role": "user",
            "parts": [
                { "functionResponse": { "name": "set_light_values",
                    "response": { "output": { "brightness": 25 } } } },
                { "functionResponse": { "id": "fc-7f3a", "name": "set_light_values",
                    "response": { "output": { "brightness": 80 } } } }
            ]
        })
    );
}
