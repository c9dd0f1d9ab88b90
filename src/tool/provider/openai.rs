//! OpenAI: Chat Completions and Responses API tools, their strict (Structured Outputs) form,
//! reading the model's calls and writing results back.
//!
//! | | Chat Completions | Responses API |
//! | --- | --- | --- |
//! | tool | [`chat_tool`], [`chat_tool_strict`] | [`responses_tool`], [`responses_tool_strict`] |
//! | calls | [`chat_calls`]: `choices[0].message.tool_calls` | [`responses_calls`]: `output[]` items of type `function_call` |
//! | result | [`chat_result`]: a `role: tool` message | [`responses_result`]: a `function_call_output` item |
//!
//! A spec's title, annotations and output schema are MCP's and are not sent: OpenAI tools have no
//! such fields.
//!
//! `parameters` is JSON Schema and is sent as the spec has it, `$defs` and local `$ref`s
//! included (as [`compact_spec`](crate::tool::compact_spec) writes subschemas repeated within
//! a tool); strict mode takes them too, each `$defs` entry rewritten like any subschema and an
//! optional `$ref` property made nullable with `anyOf`.
//!
//! # Strict mode
//!
//! With `"strict": true` OpenAI constrains the model's arguments to the schema, but accepts
//! only a subset of JSON Schema. [`strict_schema`] rewrites a schema into that subset:
//!
//! - every object gets `"additionalProperties": false` and lists all its properties in
//!   `required`; a property that was optional becomes nullable (`"type": ["integer",
//!   "null"]`, `null` added to an `enum`, or `anyOf` with `{"type": "null"}`), so the model
//!   sends `null` where it would have left the property out;
//! - `oneOf` becomes `anyOf`;
//! - `default` is dropped and its value added to the description (`Default: 1.`), so the
//!   model knows what `null` stands for;
//! - keywords that only narrow values and that strict mode does not take are dropped
//!   (`minLength`, `maxLength`, `minProperties`, `maxProperties`, `uniqueItems`, `examples`,
//!   a `format` other than `date-time`, `time`, `date`, `duration`, `email`, `hostname`,
//!   `ipv4`, `ipv6` and `uuid`, ...): the tool still checks the values it receives;
//! - keywords that change which shapes are valid cannot be dropped without changing the
//!   tool, so they are an [`ErrorKind::StrictUnsupported`] error: a free-form object (no
//!   `properties`, or `additionalProperties` other than `false`), `allOf`, `not`,
//!   `if`/`then`/`else`, `patternProperties`, tuple `items`/`prefixItems`, an array without
//!   `items`. Send such a tool with [`chat_tool`] or [`responses_tool`] instead.
//!
//! OpenAI's limits on size (properties, nesting, enum values) are not checked here.

use super::{is_model_image, is_pdf, object, optional_array, pointer_join, At};
use crate::json::{Json, Map, DEFAULT_MAX_DEPTH};
use crate::tool::error::{Error, ErrorKind};
use crate::tool::small_set::SmallSet;
use crate::tool::{ToolCall, ToolOutput, ToolSpec};

/// The `format` values strict mode accepts on strings.
const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Keywords strict mode refuses and that change which values are valid.
const STRICT_REFUSED: &[&str] = &[
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "patternProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "prefixItems",
    "contains",
];

/// Keywords copied as they are.
const STRICT_KEPT: &[&str] = &[
    "type",
    "title",
    "description",
    "enum",
    "const",
    "$ref",
    "pattern",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
];

/// A Chat Completions tool: `{"type": "function", "function": {"name", "description",
/// "parameters"}}`.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{openai, ToolSpec};
///
/// let spec = ToolSpec::new("ping", "Checks liveness", json!({"type": "object"}))?;
/// assert_eq!(
///     openai::chat_tool(&spec),
///     json!({"type": "function", "function": {
///         "name": "ping", "description": "Checks liveness", "parameters": {"type": "object"}
///     }})
/// );
/// # Ok::<(), httptool::tool::Error>(())
/// ```
pub fn chat_tool(spec: &ToolSpec) -> Json {
    let function = object([
        ("name", Json::from(spec.name())),
        ("description", Json::from(spec.description())),
        ("parameters", spec.parameters().clone()),
    ]);
    object([("type", Json::from("function")), ("function", function)])
}

/// A Chat Completions tool in strict mode: the schema rewritten by [`strict_schema`] and
/// `"strict": true`.
///
/// # Errors
///
/// [`ErrorKind::StrictUnsupported`] when the schema uses what strict mode cannot express
/// (see the [module documentation](self)).
pub fn chat_tool_strict(spec: &ToolSpec) -> Result<Json, Error> {
    let function = object([
        ("name", Json::from(spec.name())),
        ("description", Json::from(spec.description())),
        ("parameters", strict_parameters(spec)?),
        ("strict", Json::from(true)),
    ]);
    Ok(object([
        ("type", Json::from("function")),
        ("function", function),
    ]))
}

/// A Responses API tool: `{"type": "function", "name", "description", "parameters",
/// "strict": false}`.
///
/// `strict` is written out because the Responses API turns strict mode on when it is left
/// out.
pub fn responses_tool(spec: &ToolSpec) -> Json {
    object([
        ("type", Json::from("function")),
        ("name", Json::from(spec.name())),
        ("description", Json::from(spec.description())),
        ("parameters", spec.parameters().clone()),
        ("strict", Json::from(false)),
    ])
}

/// A Responses API tool in strict mode (`"strict": true`, schema from [`strict_schema`]).
///
/// # Errors
///
/// As [`chat_tool_strict`].
pub fn responses_tool_strict(spec: &ToolSpec) -> Result<Json, Error> {
    Ok(object([
        ("type", Json::from("function")),
        ("name", Json::from(spec.name())),
        ("description", Json::from(spec.description())),
        ("parameters", strict_parameters(spec)?),
        ("strict", Json::from(true)),
    ]))
}

fn strict_parameters(spec: &ToolSpec) -> Result<Json, Error> {
    strict_schema(spec.parameters()).map_err(|err| {
        Error::new(
            err.kind(),
            format!("tool '{}': {}", spec.name(), err.message()),
        )
    })
}

/// Rewrites a JSON Schema into the subset OpenAI's strict mode accepts; the rules are in the
/// [module documentation](self).
///
/// # Errors
///
/// [`ErrorKind::StrictUnsupported`] naming the keyword and where it is (a JSON Pointer), when
/// the schema uses what strict mode cannot express; [`ErrorKind::InvalidSchema`] when a
/// subschema is not an object or the schema nests deeper than
/// [`json::DEFAULT_MAX_DEPTH`](DEFAULT_MAX_DEPTH).
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::openai::strict_schema;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "city": { "type": "string", "minLength": 1 },
///         "days": { "type": "integer", "default": 1 }
///     },
///     "required": ["city"]
/// });
/// assert_eq!(
///     strict_schema(&schema)?,
///     json!({
///         "type": "object",
///         "properties": {
///             "city": { "type": "string" },
///             "days": { "type": ["integer", "null"], "description": "Default: 1." }
///         },
///         "required": ["city", "days"],
///         "additionalProperties": false
///     })
/// );
/// # Ok::<(), httptool::tool::Error>(())
/// ```
pub fn strict_schema(schema: &Json) -> Result<Json, Error> {
    strict_node(schema, "", 1)
}

/// A JSON Pointer for messages: the root has an empty pointer.
fn place(pointer: &str) -> &str {
    if pointer.is_empty() {
        "the root"
    } else {
        pointer
    }
}

fn strict_error(pointer: &str, message: String) -> Error {
    Error::new(
        ErrorKind::StrictUnsupported,
        format!("openai strict mode: {} (at {})", message, place(pointer)),
    )
}

fn strict_node(node: &Json, pointer: &str, depth: usize) -> Result<Json, Error> {
    if depth > DEFAULT_MAX_DEPTH {
        return Err(Error::new(
            ErrorKind::InvalidSchema,
            format!("schema nests deeper than {} levels", DEFAULT_MAX_DEPTH),
        ));
    }
    let schema = node.as_object().ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidSchema,
            format!(
                "a subschema must be an object, got {} at {}",
                node.type_name(),
                place(pointer)
            ),
        )
    })?;
    let mut out = Map::with_capacity(schema.len() + 2);
    for (key, value) in schema {
        strict_keyword(key, value, pointer, depth, &mut out)?;
    }
    if has_type(schema, "object") || schema.contains_key("properties") {
        close_object(schema, &mut out, pointer, depth)?;
    }
    if has_type(schema, "array") && !schema.contains_key("items") {
        return Err(strict_error(
            pointer,
            String::from("an array needs 'items'"),
        ));
    }
    if let Some(default) = schema.get("default") {
        note_in_description(&mut out, &format!("Default: {}.", default));
    }
    Ok(Json::Object(out))
}

/// Copies, converts, drops or refuses one keyword of a schema object.
fn strict_keyword(
    key: &str,
    value: &Json,
    pointer: &str,
    depth: usize,
    out: &mut Map,
) -> Result<(), Error> {
    if STRICT_REFUSED.contains(&key) {
        return Err(strict_error(
            pointer,
            format!(
                "'{}' is not supported; send this tool without strict mode",
                key
            ),
        ));
    }
    let here = || pointer_join(pointer, key);
    match key {
        _ if STRICT_KEPT.contains(&key) => {
            out.insert(key, value.clone());
        }
        "format"
            if value
                .as_str()
                .map_or(false, |f| STRICT_FORMATS.contains(&f)) =>
        {
            out.insert(key, value.clone());
        }
        "items" if value.is_array() => {
            return Err(strict_error(
                pointer,
                String::from("tuple 'items' (an array of schemas) is not supported"),
            ));
        }
        "items" => {
            out.insert(key, strict_node(value, &here(), depth + 1)?);
        }
        "anyOf" | "oneOf" if out.contains_key("anyOf") => {
            return Err(strict_error(
                pointer,
                String::from("'anyOf' and 'oneOf' together are not supported"),
            ));
        }
        "anyOf" | "oneOf" => {
            out.insert("anyOf", strict_list(value, &here(), depth)?);
        }
        "$defs" | "definitions" => {
            let defs = value
                .as_object()
                .ok_or_else(|| strict_error(pointer, format!("'{}' must be an object", key)))?;
            // The names are a map's keys, so unique: the converted entries make a map as
            // they are, in linear time however many definitions.
            let defs_pointer = here();
            let mut converted = Vec::with_capacity(defs.len());
            for (name, def) in defs {
                let at = pointer_join(&defs_pointer, name);
                converted.push((name.clone(), strict_node(def, &at, depth + 2)?));
            }
            out.insert(key, Json::Object(Map::from_unique_entries(converted)));
        }
        // `properties`, `required` and `additionalProperties` are rewritten by
        // `close_object`; `default` becomes a note in the description. Everything else only
        // narrows or annotates values (minLength, examples, ...): strict mode does not take
        // it, and the tool checks values anyway.
        _ => {}
    }
    Ok(())
}

fn strict_list(value: &Json, pointer: &str, depth: usize) -> Result<Json, Error> {
    let branches = value
        .as_array()
        .ok_or_else(|| strict_error(pointer, String::from("expected an array of schemas")))?;
    let mut converted = Vec::with_capacity(branches.len());
    for (index, branch) in branches.iter().enumerate() {
        let at = format!("{}/{}", pointer, index);
        converted.push(strict_node(branch, &at, depth + 2)?);
    }
    Ok(Json::Array(converted))
}

/// Every property required, optional ones nullable, no additional properties.
fn close_object(schema: &Map, out: &mut Map, pointer: &str, depth: usize) -> Result<(), Error> {
    let additional = schema.get("additionalProperties");
    if additional.map_or(false, |v| v != &Json::Bool(false)) {
        return Err(strict_error(
            pointer,
            String::from(
                "'additionalProperties' other than false (a free-form map) is not supported",
            ),
        ));
    }
    let empty = Map::new();
    let properties = match schema.get("properties") {
        Some(Json::Object(properties)) => properties,
        // `{"type": "object", "additionalProperties": false}`: the empty object.
        None if additional.is_some() => &empty,
        None => {
            return Err(strict_error(
                pointer,
                String::from(
                    "an object without 'properties' (a free-form object) is not supported",
                ),
            ))
        }
        Some(other) => {
            return Err(strict_error(
                pointer,
                format!("'properties' must be an object, got {}", other.type_name()),
            ))
        }
    };
    let required: SmallSet<&str> = schema
        .get("required")
        .and_then(Json::as_array)
        .map(|names| names.iter().filter_map(Json::as_str).collect())
        .unwrap_or_else(SmallSet::new);
    let properties_pointer = pointer_join(pointer, "properties");
    let mut names = Vec::with_capacity(properties.len());
    // The names are a map's keys, so unique: the converted entries make a map as they are,
    // in linear time however many properties.
    let mut converted = Vec::with_capacity(properties.len());
    for (name, property) in properties {
        let at = pointer_join(&properties_pointer, name);
        let mut property = strict_node(property, &at, depth + 2)?;
        if !required.contains(name.as_str()) {
            property = make_nullable(property);
        }
        names.push(Json::from(name.as_str()));
        converted.push((name.clone(), property));
    }
    out.insert(
        "properties",
        Json::Object(Map::from_unique_entries(converted)),
    );
    out.insert("required", Json::Array(names));
    out.insert("additionalProperties", false);
    Ok(())
}

fn has_type(schema: &Map, wanted: &str) -> bool {
    match schema.get("type") {
        Some(Json::String(t)) => t == wanted,
        Some(Json::Array(types)) => types.iter().any(|t| t.as_str() == Some(wanted)),
        _ => false,
    }
}

/// Lets a schema accept `null` as well, the way strict mode expresses an optional property.
fn make_nullable(schema: Json) -> Json {
    let null = Json::from("null");
    if !schema.is_object() {
        return schema;
    }
    let mut map = schema.into_object().unwrap_or_default();
    if map.contains_key("const") || !(map.contains_key("type") || map.contains_key("anyOf")) {
        // A `const`, a `$ref` or a schema without a type: wrap it.
        let mut null_schema = Map::with_capacity(1);
        null_schema.insert("type", "null");
        let mut wrapper = Map::with_capacity(1);
        wrapper.insert("anyOf", vec![Json::Object(map), Json::Object(null_schema)]);
        return Json::Object(wrapper);
    }
    if let Some(kind) = map.get_mut("type") {
        let already = match kind {
            Json::String(t) => t == "null",
            Json::Array(types) => types.contains(&null),
            _ => true,
        };
        if !already {
            match kind {
                Json::Array(types) => types.push(null.clone()),
                other => {
                    let single = other.take();
                    *other = Json::Array(vec![single, null.clone()]);
                }
            }
        }
    } else if let Some(Json::Array(branches)) = map.get_mut("anyOf") {
        let has_null = branches
            .iter()
            .any(|b| b.get("type").and_then(Json::as_str) == Some("null"));
        if !has_null {
            let mut null_schema = Map::with_capacity(1);
            null_schema.insert("type", "null");
            branches.push(Json::Object(null_schema));
        }
    }
    if let Some(Json::Array(values)) = map.get_mut("enum") {
        if !values.contains(&Json::Null) {
            values.push(Json::Null);
        }
    }
    Json::Object(map)
}

/// Appends a sentence to a schema's description (or starts one).
pub(crate) fn note_in_description(out: &mut Map, note: &str) {
    match out.get_mut("description") {
        Some(Json::String(description)) if !description.is_empty() => {
            if !description.ends_with(' ') {
                description.push(' ');
            }
            description.push_str(note);
        }
        _ => {
            out.insert("description", note);
        }
    }
}

/// Reads the tool calls of a Chat Completions answer, in order.
///
/// Takes the whole response (`{"choices": [{"message": {...}}]}`, reading the first choice)
/// or one assistant message (`{"role": "assistant", "tool_calls": [...]}`). A message without
/// `tool_calls` has no calls: the result is empty. Arguments are the JSON text the model
/// wrote (an `arguments` object, as some OpenAI-compatible servers send, is taken as parsed
/// arguments).
///
/// # Errors
///
/// [`ErrorKind::MalformedPayload`] naming the JSON Pointer of what was missing or of the
/// wrong type, or a tool call of a type other than `function`.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::openai;
///
/// let response = json::parse(r#"{"choices": [{"index": 0, "message": {
///     "role": "assistant", "content": null,
///     "tool_calls": [{"id": "call_1", "type": "function",
///         "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]
/// }}]}"#)?;
/// let calls = openai::chat_calls(&response)?;
/// assert_eq!(calls[0].id(), "call_1");
/// assert_eq!(calls[0].arguments_text(), r#"{"city":"Paris"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn chat_calls(response: &Json) -> Result<Vec<ToolCall>, Error> {
    let at = At::root("openai chat response");
    let root = at.object(response)?;
    let (message, at) = match root.get("choices") {
        Some(choices) => {
            let choices_at = at.key("choices");
            let first = choices_at.array(choices)?.first();
            let choice_at = choices_at.index(0);
            let choice =
                choice_at.object(first.ok_or_else(|| choice_at.error("a choice", None))?)?;
            let message_at = choice_at.key("message");
            let message = choice.get("message");
            let message =
                message_at.object(message.ok_or_else(|| message_at.error("an object", None))?)?;
            (message, message_at)
        }
        None => (root, at),
    };
    let tool_calls_at = at.key("tool_calls");
    let items = optional_array(&at, message, "tool_calls")?;
    let mut calls = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let item_at = tool_calls_at.index(index);
        let item = item_at.object(item)?;
        if let Some(kind) = item.get("type") {
            if kind.as_str() != Some("function") {
                return Err(item_at.key("type").error("\"function\"", Some(kind)));
            }
        }
        let id = item_at.str_member(item, "id")?;
        let function_at = item_at.key("function");
        let function = item.get("function");
        let function =
            function_at.object(function.ok_or_else(|| function_at.error("an object", None))?)?;
        let name = function_at.str_member(function, "name")?;
        calls.push(match function.get("arguments") {
            Some(Json::String(text)) => ToolCall::new(id, name, text.as_str()),
            Some(Json::Object(map)) => ToolCall::with_object(id, name, map.clone()),
            other => return Err(function_at.key("arguments").error("a JSON string", other)),
        });
    }
    Ok(calls)
}

/// Reads the function calls of a Responses API answer, in order.
///
/// Takes the whole response (`{"output": [...]}`) or its `output` array. Items of type
/// `function_call` become calls, with `call_id` as the id (not the item's own `id`); other
/// items (messages, reasoning, built-in tool calls) are not function calls and are passed
/// over.
///
/// # Errors
///
/// [`ErrorKind::MalformedPayload`] naming the JSON Pointer of what was missing or of the
/// wrong type.
pub fn responses_calls(response: &Json) -> Result<Vec<ToolCall>, Error> {
    let at = At::root("openai responses output");
    let (items, at) = match response {
        Json::Array(items) => (items.as_slice(), at),
        Json::Object(root) => {
            let output_at = at.key("output");
            let output = root.get("output");
            let items =
                output_at.array(output.ok_or_else(|| output_at.error("an array", None))?)?;
            (items, output_at)
        }
        other => return Err(at.error("a response object or an output array", Some(other))),
    };
    let mut calls = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let item_at = at.index(index);
        let item = item_at.object(item)?;
        if item.get("type").and_then(Json::as_str) != Some("function_call") {
            continue;
        }
        let id = item_at.str_member(item, "call_id")?;
        let name = item_at.str_member(item, "name")?;
        let arguments = item_at.str_member(item, "arguments")?;
        calls.push(ToolCall::new(id, name, arguments));
    }
    Ok(calls)
}

/// The Chat Completions message that answers a call:
/// `{"role": "tool", "tool_call_id", "content"}`.
///
/// Chat Completions has no error flag: a failed call's text says what failed. A tool
/// message holds text only, so attachments are left to the text, which says what they are.
pub fn chat_result(call: &ToolCall, output: &ToolOutput) -> Json {
    object([
        ("role", Json::from("tool")),
        ("tool_call_id", Json::from(call.id())),
        ("content", Json::from(output.text())),
    ])
}

/// The Responses API input item that answers a call:
/// `{"type": "function_call_output", "call_id", "output"}`.
///
/// `output` is the text. A success with [attachments](ToolOutput::attachments) the API reads
/// has `output` as an array instead: an `input_text` part, then an `input_image` part
/// (`image_url`, a `data:` URL) for each JPEG, PNG, GIF or WebP image and an `input_file`
/// part (`filename`, `file_data`, a `data:` URL) for each PDF. Other attachments are left to
/// the text, which says what they are.
pub fn responses_result(call: &ToolCall, output: &ToolOutput) -> Json {
    let mut parts = Vec::new();
    if !output.is_error() {
        for (index, attachment) in output.attachments().iter().enumerate() {
            if is_model_image(attachment) {
                parts.push(object([
                    ("type", Json::from("input_image")),
                    ("image_url", Json::from(attachment.data_url())),
                ]));
            } else if is_pdf(attachment) {
                let name = match attachment.name() {
                    Some(name) => name.to_string(),
                    None => format!("attachment-{}.pdf", index + 1),
                };
                parts.push(object([
                    ("type", Json::from("input_file")),
                    ("filename", Json::from(name)),
                    ("file_data", Json::from(attachment.data_url())),
                ]));
            }
        }
    }
    let value = if parts.is_empty() {
        Json::from(output.text())
    } else {
        let text = object([
            ("type", Json::from("input_text")),
            ("text", Json::from(output.text())),
        ]);
        parts.insert(0, text);
        Json::Array(parts)
    };
    object([
        ("type", Json::from("function_call_output")),
        ("call_id", Json::from(call.id())),
        ("output", value),
    ])
}
