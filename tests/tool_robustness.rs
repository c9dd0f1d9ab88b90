//! Arbitrary payloads and schemas never make a reader or a renderer panic.
//!
//! A small deterministic generator builds JSON values from the keys and strings the readers
//! and renderers look for, so most values come close to a valid shape and go wrong in varied
//! places. Every reader and renderer must return (an error is fine), the same way twice.

use httptool::json::{Json, Map};
use httptool::tool::{anthropic, gemini, mcp, openai, ToolSpec};

use crate::support::rng::Rng;

const KEYS: &[&str] = &[
    "choices",
    "message",
    "tool_calls",
    "function",
    "name",
    "arguments",
    "output",
    "type",
    "call_id",
    "content",
    "id",
    "input",
    "candidates",
    "parts",
    "functionCall",
    "args",
    "params",
    "method",
    "properties",
    "items",
    "anyOf",
    "oneOf",
    "allOf",
    "enum",
    "const",
    "required",
    "additionalProperties",
    "default",
    "$ref",
    "$defs",
    "format",
    "nullable",
    "role",
    "description",
];

const STRINGS: &[&str] = &[
    "function",
    "function_call",
    "tool_use",
    "tools/call",
    "object",
    "array",
    "string",
    "integer",
    "null",
    "number",
    "boolean",
    "date-time",
    "uri",
    "{}",
    "{\"a\":1}",
    "",
    "x/y~z",
];

/// A random value up to `depth` levels deep, of the keys and strings above.
fn value(rng: &mut Rng, depth: usize) -> Json {
    let leaf = depth == 0 || rng.below(3) == 0;
    match if leaf { rng.below(4) } else { 4 + rng.below(2) } {
        0 => Json::Null,
        1 => Json::Bool(rng.below(2) == 0),
        2 => Json::from(rng.below(5) as i64 - 1),
        3 => Json::from(rng.pick(STRINGS)),
        4 => Json::Array((0..rng.below(4)).map(|_| value(rng, depth - 1)).collect()),
        _ => {
            let mut map = Map::new();
            for _ in 0..rng.below(5) {
                let key = rng.pick(KEYS);
                map.insert(key, value(rng, depth - 1));
            }
            Json::Object(map)
        }
    }
}

#[test]
fn readers_never_panic_and_are_deterministic() {
    let mut rng = Rng::new(1);
    let mut accepted = 0;
    for _ in 0..20_000 {
        let payload = value(&mut rng, 6);
        let results = [
            openai::chat_calls(&payload).map(|c| c.len()),
            openai::responses_calls(&payload).map(|c| c.len()),
            anthropic::calls(&payload).map(|c| c.len()),
            gemini::calls(&payload).map(|c| c.len()),
            mcp::call_from_request(&payload).map(|_| 1),
            mcp::call_from_params("1", &payload).map(|_| 1),
        ];
        let again = [
            openai::chat_calls(&payload).map(|c| c.len()),
            openai::responses_calls(&payload).map(|c| c.len()),
            anthropic::calls(&payload).map(|c| c.len()),
            gemini::calls(&payload).map(|c| c.len()),
            mcp::call_from_request(&payload).map(|_| 1),
            mcp::call_from_params("1", &payload).map(|_| 1),
        ];
        assert_eq!(results, again);
        accepted += results.iter().filter(|r| r.is_ok()).count();
    }
    assert!(accepted > 0, "the generator reaches valid shapes too");
}

#[test]
fn renderers_never_panic_on_odd_schemas() {
    let mut rng = Rng::new(2);
    let mut rendered = 0;
    for index in 0..5_000 {
        let mut properties = Map::new();
        properties.insert("p", value(&mut rng, 5));
        properties.insert("q", value(&mut rng, 5));
        let mut parameters = Map::new();
        parameters.insert("type", "object");
        parameters.insert("properties", properties);
        if rng.below(2) == 0 {
            parameters.insert("required", Json::Array(vec![Json::from("p")]));
        }
        let spec = match ToolSpec::new(format!("t{}", index), "d", Json::Object(parameters)) {
            Ok(spec) => spec,
            Err(_) => continue,
        };
        assert!(openai::chat_tool(&spec).is_object());
        assert!(openai::responses_tool(&spec).is_object());
        let strict = openai::chat_tool_strict(&spec);
        assert_eq!(strict, openai::chat_tool_strict(&spec));
        let _ = openai::responses_tool_strict(&spec);
        assert!(anthropic::tool(&spec).is_object());
        assert!(mcp::tool(&spec).is_object());
        let declaration = gemini::function_declaration(&spec);
        assert_eq!(declaration, gemini::function_declaration(&spec));
        rendered += 1;
    }
    assert!(rendered > 100, "most generated schemas make a valid spec");
}
