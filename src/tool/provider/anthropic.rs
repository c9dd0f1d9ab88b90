//! Anthropic Messages API: tools, `tool_use` blocks and `tool_result` blocks.
//!
//! - [`tool`] renders `{"name", "description", "input_schema"}`.
//! - [`calls`] reads the `tool_use` blocks of an assistant message's `content`, in order.
//!   Their `input` is already an object, so calls carry it parsed.
//! - [`tool_result`] writes one `tool_result` block; [`results_message`] wraps the blocks
//!   for every call of one assistant turn into the single `user` message the API expects
//!   next (all results of a turn go in one message, before any other content).
//!
//! A spec's title, annotations and output schema are MCP's and are not sent: Anthropic tools have no
//! such fields.
//!
//! `input_schema` is JSON Schema (draft 2020-12) and is sent as the spec has it, `$defs` and
//! local `$ref`s included (as [`compact_spec`](crate::tool::compact_spec) writes subschemas
//! repeated within a tool), as JSON Schema tools generated from typed models usually carry
//! them. [`inline_refs`](crate::tool::inline_refs) writes them back in place for a gateway
//! that refuses them.

use super::{is_model_image, is_pdf, object, At};
use crate::json::Json;
use crate::tool::error::Error;
use crate::tool::{ToolCall, ToolOutput, ToolSpec};

/// An Anthropic tool: `{"name", "description", "input_schema"}`.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{anthropic, ToolSpec};
///
/// let spec = ToolSpec::new("ping", "Checks liveness", json!({"type": "object"}))?;
/// assert_eq!(
///     anthropic::tool(&spec),
///     json!({"name": "ping", "description": "Checks liveness", "input_schema": {"type": "object"}})
/// );
/// # Ok::<(), httptool::tool::Error>(())
/// ```
pub fn tool(spec: &ToolSpec) -> Json {
    object([
        ("name", Json::from(spec.name())),
        ("description", Json::from(spec.description())),
        ("input_schema", spec.parameters().clone()),
    ])
}

/// Reads the `tool_use` blocks of an assistant message, in order.
///
/// Takes the whole message (`{"role": "assistant", "content": [...]}`, as the Messages API
/// returns it) or its `content` array. Other blocks (`text`, `thinking`, server tool blocks)
/// are not calls and are passed over; a message without `tool_use` blocks gives no calls.
///
/// # Errors
///
/// [`ErrorKind::MalformedPayload`](crate::tool::ErrorKind::MalformedPayload) naming the JSON
/// Pointer of what was missing or of the wrong type (a `tool_use` without `id` or `name`, an
/// `input` that is not an object).
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::anthropic;
///
/// let message = json::parse(r#"{"role": "assistant", "content": [
///     {"type": "text", "text": "Checking."},
///     {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}}
/// ]}"#)?;
/// let calls = anthropic::calls(&message)?;
/// assert_eq!(calls[0].id(), "toolu_01");
/// assert_eq!(calls[0].arguments_text(), r#"{"city":"Paris"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn calls(message: &Json) -> Result<Vec<ToolCall>, Error> {
    let at = At::root("anthropic message");
    let (blocks, at) = match message {
        Json::Array(blocks) => (blocks.as_slice(), at),
        Json::Object(root) => {
            let content_at = at.key("content");
            let content = root.get("content");
            let blocks =
                content_at.array(content.ok_or_else(|| content_at.error("an array", None))?)?;
            (blocks, content_at)
        }
        other => return Err(at.error("a message object or a content array", Some(other))),
    };
    let mut calls = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        let block_at = at.index(index);
        let block = block_at.object(block)?;
        if block.get("type").and_then(Json::as_str) != Some("tool_use") {
            continue;
        }
        let id = block_at.str_member(block, "id")?;
        let name = block_at.str_member(block, "name")?;
        let input = block.get("input");
        let input = match input {
            Some(Json::Object(input)) => input.clone(),
            other => return Err(block_at.key("input").error("an object", other)),
        };
        calls.push(ToolCall::with_object(id, name, input));
    }
    Ok(calls)
}

/// The `tool_result` block that answers a call:
/// `{"type": "tool_result", "tool_use_id", "content", "is_error"}`.
///
/// `content` is the output text; it is left out when the text is empty (an empty success,
/// such as a 204), since the API takes a result without content but may refuse empty text.
/// `is_error` is always written.
///
/// A success with [attachments](ToolOutput::attachments) the API reads has `content` as an
/// array: a `text` block, then an `image` block for each JPEG, PNG, GIF or WebP image and a
/// `document` block for each PDF, each with a `base64` source (`{"type": "base64",
/// "media_type", "data"}`). Other attachments are left to the text, which says what they are.
pub fn tool_result(call: &ToolCall, output: &ToolOutput) -> Json {
    let mut block = object([
        ("type", Json::from("tool_result")),
        ("tool_use_id", Json::from(call.id())),
    ]);
    let blocks = if output.is_error() {
        Vec::new()
    } else {
        attachment_blocks(output)
    };
    if let Some(map) = block.as_object_mut() {
        if !blocks.is_empty() {
            let mut content = Vec::with_capacity(blocks.len() + 1);
            if !output.text().is_empty() {
                content.push(object([
                    ("type", Json::from("text")),
                    ("text", Json::from(output.text())),
                ]));
            }
            content.extend(blocks);
            map.insert("content", content);
        } else if !output.text().is_empty() {
            map.insert("content", output.text());
        }
        map.insert("is_error", output.is_error());
    }
    block
}

/// The `image` and `document` blocks of the attachments the API reads.
fn attachment_blocks(output: &ToolOutput) -> Vec<Json> {
    let mut blocks = Vec::new();
    for attachment in output.attachments() {
        let kind = if is_model_image(attachment) {
            "image"
        } else if is_pdf(attachment) {
            "document"
        } else {
            continue;
        };
        let source = object([
            ("type", Json::from("base64")),
            ("media_type", Json::from(attachment.essence())),
            ("data", Json::from(attachment.base64())),
        ]);
        blocks.push(object([("type", Json::from(kind)), ("source", source)]));
    }
    blocks
}

/// The `user` message that answers every call of one assistant turn:
/// `{"role": "user", "content": [tool_result, ...]}`, blocks in the order given.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{anthropic, ToolCall, ToolOutput};
///
/// let call = ToolCall::new("toolu_01", "get_weather", "{}");
/// let output = ToolOutput::success("sunny");
/// assert_eq!(
///     anthropic::results_message([(&call, &output)]),
///     json!({"role": "user", "content": [
///         {"type": "tool_result", "tool_use_id": "toolu_01", "content": "sunny", "is_error": false}
///     ]})
/// );
/// ```
pub fn results_message<'a, I>(results: I) -> Json
where
    I: IntoIterator<Item = (&'a ToolCall, &'a ToolOutput)>,
{
    let blocks: Vec<Json> = results
        .into_iter()
        .map(|(call, output)| tool_result(call, output))
        .collect();
    object([
        ("role", Json::from("user")),
        ("content", Json::Array(blocks)),
    ])
}
