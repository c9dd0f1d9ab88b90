//! Model Context Protocol (revision 2025-11-25): tools for `tools/list`, calls from
//! `tools/call`, and `CallToolResult`.
//!
//! This module only shapes the JSON; the server that speaks JSON-RPC over stdio lives in its
//! own layer. Schemas are JSON Schema 2020-12, MCP's default dialect, and go as the spec has
//! them, `$defs` and local `$ref`s included.
//!
//! - [`tool`] renders `{"name", "title", "description", "inputSchema", "outputSchema",
//!   "annotations"}` (`title`, `outputSchema` and `annotations` only when the spec has them);
//!   [`list_tools_result`] wraps tools into a `tools/list` result.
//! - [`call_from_params`] reads `tools/call` params (`{"name", "arguments"}`);
//!   [`call_from_request`] reads a whole JSON-RPC request and takes its `id` as the call id.
//! - [`call_tool_result`] and [`call_tool_result_for`] write `{"content": [{"type": "text",
//!   "text"}], "structuredContent", "isError"}`.
//!
//! # Attachments
//!
//! A successful output's [attachments](ToolOutput::attachments) follow its text block: an
//! image as `ImageContent` (`{"type": "image", "data", "mimeType"}`), a sound as
//! `AudioContent` (`{"type": "audio", ...}`), anything else as an embedded resource
//! (`{"type": "resource", "resource": {"uri", "mimeType", "blob"}}`), the bytes in Base64.
//! The text block says what they are (media type, size, SHA-256), for clients that read
//! text only. A success with attachments and no structured value from a tool with an
//! output schema has `structuredContent` `{}`, as an empty success does.
//!
//! # Structured results
//!
//! MCP requires `structuredContent` and `outputSchema` to be objects ("Structured Content",
//! "Output Schema"). A successful output's structured value goes out as it is when it is an
//! object, and as `{"result": value}` when it is an array, a string, a number, a boolean or
//! null ([`RESULT_KEY`]). A spec's output schema whose root is not `"type": "object"` is
//! rendered as the schema of that wrapper, `{"type": "object", "properties": {"result":
//! schema}}` (the schema's `$defs`, if any, at the wrapper's root, where its references
//! point), and the results of such a tool are always wrapped, so `structuredContent` matches
//! the `outputSchema` the client was given. The text block holds the same JSON (as the tool
//! produced it), for clients that read only `content`. An error result carries its text
//! only: an output schema describes successes.
//!
//! A tool with an output schema promises structured content on every success, and clients
//! hold it to that (the Python and TypeScript SDKs refuse a successful result without
//! `structuredContent` from such a tool, and skip the check on errors). So:
//!
//! - A success with nothing in it (an empty text and no structured value: an API's 204) is a
//!   success whose `structuredContent` is the empty object `{}`: the wrapper above accepts
//!   it (its `result` may be absent), and a tool whose object schema may answer empty must
//!   accept it too (plugin tools advertise schemas that do).
//! - When the output has no structured value but has text (the API answered text or HTML
//!   where its description promised JSON), [`call_tool_result_for`] reports an error
//!   result: the answer's text as it came, then a second text block ([`UNSTRUCTURED_NOTE`])
//!   saying why it is an error.
//! - The structured value is whole or absent, never cut. When the text was cut to a cap
//!   ([`ToolOutput::is_truncated`]), a tool with an output schema still sends the whole
//!   value as `structuredContent` (clients require it, and a cut one would not match the
//!   schema); a tool without one sends the cut text alone, so clients that show
//!   `structuredContent` to a model do not bypass the cap.

use super::{object, At};
use crate::json::{Json, Map};
use crate::tool::error::Error;
use crate::tool::{Attachment, AttachmentKind, ToolAnnotations, ToolCall, ToolOutput, ToolSpec};

/// The MCP revision these shapes follow.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// The member that holds a structured value that is not an object: `{"result": [...]}`.
pub const RESULT_KEY: &str = "result";

/// The second text block of a successful output that has no structured value from a tool
/// whose spec has an output schema: [`call_tool_result_for`] makes such a result an error,
/// since a client must not be given a success without the structured content it was promised.
pub const UNSTRUCTURED_NOTE: &str =
    "the answer is not the JSON this tool's output schema describes (its text is above)";

/// An MCP tool definition: `{"name", "title"?, "description", "inputSchema",
/// "outputSchema"?, "annotations"?}`.
///
/// `annotations` holds the hints that are known, named as MCP names them (`readOnlyHint`,
/// `destructiveHint`, `idempotentHint`, `openWorldHint`); it is left out when none is.
/// An output schema whose root is not an object schema is wrapped (see the module docs).
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{mcp, ToolSpec};
///
/// let spec = ToolSpec::new("ping", "Checks liveness", json!({"type": "object"}))?
///     .with_title("Ping");
/// assert_eq!(
///     mcp::tool(&spec),
///     json!({"name": "ping", "title": "Ping", "description": "Checks liveness",
///            "inputSchema": {"type": "object"}})
/// );
/// # Ok::<(), httptool::tool::Error>(())
/// ```
pub fn tool(spec: &ToolSpec) -> Json {
    let mut map = Map::with_capacity(4);
    map.insert("name", spec.name());
    if let Some(title) = spec.title() {
        map.insert("title", title);
    }
    map.insert("description", spec.description());
    map.insert("inputSchema", spec.parameters().clone());
    if let Some(schema) = spec.output_schema() {
        let schema = if wraps_results(spec) {
            wrapped(schema)
        } else {
            schema.clone()
        };
        map.insert("outputSchema", schema);
    }
    if let Some(annotations) = annotations(spec.annotations()) {
        map.insert("annotations", annotations);
    }
    Json::Object(map)
}

/// The output schema of `{"result": value}` for a schema whose root is not an object. The
/// schema's `$defs` move to the wrapper's root, where its `#/$defs/...` references point
/// (JSON Schema 2020-12, Core, section 8.2.4: a `$ref`'s `#` is the document's root).
fn wrapped(schema: &Json) -> Json {
    let mut inner = schema.clone();
    let defs = inner.as_object_mut().and_then(|map| map.remove("$defs"));
    let mut map = Map::with_capacity(4);
    map.insert("type", "object");
    // No `required`: an empty answer is `{}`.
    map.insert("properties", object([(RESULT_KEY, inner)]));
    if let Some(defs) = defs {
        map.insert("$defs", defs);
    }
    Json::Object(map)
}

/// MCP's `ToolAnnotations` object, or `None` when nothing is known.
fn annotations(hints: &ToolAnnotations) -> Option<Json> {
    if hints.is_empty() {
        return None;
    }
    let mut map = Map::with_capacity(4);
    let named = [
        ("readOnlyHint", hints.read_only),
        ("destructiveHint", hints.destructive),
        ("idempotentHint", hints.idempotent),
        ("openWorldHint", hints.open_world),
    ];
    for (key, hint) in named {
        if let Some(hint) = hint {
            map.insert(key, hint);
        }
    }
    Some(Json::Object(map))
}

/// Whether the tool's structured results go out wrapped as `{"result": ...}` whatever they
/// are: when its output schema's root is not an object schema.
fn wraps_results(spec: &ToolSpec) -> bool {
    match spec.output_schema() {
        Some(schema) => schema.get("type").and_then(Json::as_str) != Some("object"),
        None => false,
    }
}

/// The result of `tools/list`: `{"tools": [...]}`, in the order given.
pub fn list_tools_result<'a, I>(specs: I) -> Json
where
    I: IntoIterator<Item = &'a ToolSpec>,
{
    let tools: Vec<Json> = specs.into_iter().map(tool).collect();
    object([("tools", Json::Array(tools))])
}

/// Reads the params of a `tools/call` request: `{"name": ..., "arguments": {...}}`.
///
/// `id` is the id the result will answer (the JSON-RPC request id, as text). Absent or
/// `null` arguments read as none.
///
/// # Errors
///
/// [`ErrorKind::MalformedPayload`](crate::tool::ErrorKind::MalformedPayload) when params is
/// not an object, `name` is not a string, or `arguments` is not an object.
pub fn call_from_params(id: impl Into<String>, params: &Json) -> Result<ToolCall, Error> {
    read_params(id.into(), params, At::root("mcp tools/call params"))
}

fn read_params(id: String, params: &Json, at: At<'_>) -> Result<ToolCall, Error> {
    let params = at.object(params)?;
    let name = at.str_member(params, "name")?;
    let arguments = match params.get("arguments") {
        None | Some(Json::Null) => Map::new(),
        Some(Json::Object(arguments)) => arguments.clone(),
        Some(other) => return Err(at.key("arguments").error("an object", Some(other))),
    };
    Ok(ToolCall::with_object(id, name, arguments))
}

/// Reads a whole JSON-RPC `tools/call` request; the call id is the request `id` (a string as
/// it is, a number as its JSON text).
///
/// # Errors
///
/// [`ErrorKind::MalformedPayload`](crate::tool::ErrorKind::MalformedPayload) when the
/// request is not an object, its `method` is not `tools/call`, its `id` is not a string or a
/// number, or its params are malformed (see [`call_from_params`]).
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::mcp;
///
/// let request = json::parse(r#"{"jsonrpc": "2.0", "id": 7, "method": "tools/call",
///     "params": {"name": "get_weather", "arguments": {"city": "Paris"}}}"#)?;
/// let call = mcp::call_from_request(&request)?;
/// assert_eq!((call.id(), call.name()), ("7", "get_weather"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn call_from_request(request: &Json) -> Result<ToolCall, Error> {
    let at = At::root("mcp tools/call request");
    let map = at.object(request)?;
    let method = map.get("method");
    if method.and_then(Json::as_str) != Some("tools/call") {
        return Err(at.key("method").error("\"tools/call\"", method));
    }
    let id = match map.get("id") {
        Some(Json::String(id)) => id.clone(),
        Some(Json::Number(number)) => number.to_string(),
        other => return Err(at.key("id").error("a string or a number", other)),
    };
    let params_at = at.key("params");
    match map.get("params") {
        Some(params) => read_params(id, params, params_at),
        None => Err(params_at.error("an object", None)),
    }
}

/// The `CallToolResult` for an output: `{"content": [{"type": "text", "text"}],
/// "structuredContent"?, "isError"}`.
///
/// `structuredContent` is there for a successful output that carries a structured value
/// and whose text was not cut ([`ToolOutput::is_truncated`]): an object as it is, anything
/// else as `{"result": value}`. When the spec of the tool is at hand, use
/// [`call_tool_result_for`], which follows its output schema.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{mcp, ToolOutput};
///
/// let output = ToolOutput::json(json!({"temp": 21}));
/// assert_eq!(
///     mcp::call_tool_result(&output),
///     json!({"content": [{"type": "text", "text": "{\"temp\":21}"}],
///            "structuredContent": {"temp": 21}, "isError": false})
/// );
/// let list = ToolOutput::json(json!([1, 2]));
/// assert_eq!(mcp::call_tool_result(&list)["structuredContent"], json!({"result": [1, 2]}));
/// ```
pub fn call_tool_result(output: &ToolOutput) -> Json {
    result(output, false, false)
}

/// The `CallToolResult` for an output of the tool `spec` describes: as [`call_tool_result`],
/// except that a tool whose output schema is not an object schema has every structured
/// result wrapped, so `structuredContent` matches the `outputSchema` [`tool`] rendered; that
/// a tool with an output schema sends its whole structured value beside a cut text; that an
/// empty success from such a tool has `structuredContent` `{}`; and that a success with text
/// but no structured value from it is an error result ending in [`UNSTRUCTURED_NOTE`] (see
/// the [module docs](self#structured-results)).
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{mcp, ToolOutput, ToolSpec};
///
/// let spec = ToolSpec::without_parameters("pick", "Picks one")?
///     .with_output_schema(json!({"oneOf": [{"type": "object"}, {"type": "string"}]}))?;
/// let output = ToolOutput::json(json!({"id": 7}));
/// assert_eq!(
///     mcp::call_tool_result_for(&spec, &output)["structuredContent"],
///     json!({"result": {"id": 7}})
/// );
///
/// // The API answered text where the tool promised JSON: an error result, text kept.
/// let text = mcp::call_tool_result_for(&spec, &ToolOutput::success("OK"));
/// assert_eq!(text["isError"], json!(true));
/// assert_eq!(text["content"][0]["text"], json!("OK"));
/// assert_eq!(text["content"][1]["text"], json!(mcp::UNSTRUCTURED_NOTE));
///
/// // The API answered 204 No Content: a success, with the empty object.
/// let empty = mcp::call_tool_result_for(&spec, &ToolOutput::success(""));
/// assert_eq!(empty["isError"], json!(false));
/// assert_eq!(empty["structuredContent"], json!({}));
/// # Ok::<(), httptool::tool::Error>(())
/// ```
pub fn call_tool_result_for(spec: &ToolSpec, output: &ToolOutput) -> Json {
    let promised = spec.output_schema().is_some();
    let unstructured = promised && !output.is_error() && output.structured().is_none();
    if unstructured && (output.text().trim().is_empty() || !output.attachments().is_empty()) {
        let mut map = Map::with_capacity(3);
        map.insert("content", content(output));
        map.insert("structuredContent", Map::new());
        map.insert("isError", false);
        return Json::Object(map);
    }
    if unstructured {
        let mut map = Map::with_capacity(2);
        map.insert(
            "content",
            vec![text_block(output.text()), text_block(UNSTRUCTURED_NOTE)],
        );
        map.insert("isError", true);
        return Json::Object(map);
    }
    result(output, wraps_results(spec), promised)
}

fn text_block(text: &str) -> Json {
    object([("type", Json::from("text")), ("text", Json::from(text))])
}

/// The text block, then a block for each attachment of a success.
fn content(output: &ToolOutput) -> Vec<Json> {
    let mut blocks = vec![text_block(output.text())];
    if !output.is_error() {
        for (index, attachment) in output.attachments().iter().enumerate() {
            blocks.push(attachment_block(attachment, index));
        }
    }
    blocks
}

/// The block of one attachment (see the [module docs](self#attachments)). An embedded
/// resource needs a URI: the attachment's, else `urn:httptool:attachment:N`.
pub(crate) fn attachment_block(attachment: &Attachment, index: usize) -> Json {
    let media_type = attachment.essence();
    match attachment.kind() {
        AttachmentKind::Image | AttachmentKind::Audio => {
            let kind = match attachment.kind() {
                AttachmentKind::Image => "image",
                _ => "audio",
            };
            object([
                ("type", Json::from(kind)),
                ("data", Json::from(attachment.base64())),
                ("mimeType", Json::from(media_type)),
            ])
        }
        AttachmentKind::File => {
            let uri = match attachment.uri() {
                Some(uri) => uri.to_string(),
                None => format!("urn:httptool:attachment:{}", index + 1),
            };
            let resource = object([
                ("uri", Json::from(uri)),
                ("mimeType", Json::from(media_type)),
                ("blob", Json::from(attachment.base64())),
            ]);
            object([("type", Json::from("resource")), ("resource", resource)])
        }
    }
}

/// `promised`: the tool has an output schema, so a structured value goes out even beside a
/// cut text (see the [module docs](self#structured-results)).
fn result(output: &ToolOutput, always_wrap: bool, promised: bool) -> Json {
    let mut map = Map::with_capacity(3);
    map.insert("content", content(output));
    match output.structured() {
        Some(_) if output.is_error() => {}
        Some(_) if output.is_truncated() && !promised => {}
        Some(structured @ Json::Object(_)) if !always_wrap => {
            map.insert("structuredContent", structured.clone());
        }
        Some(structured) => {
            map.insert(
                "structuredContent",
                object([(RESULT_KEY, structured.clone())]),
            );
        }
        None => {}
    }
    map.insert("isError", output.is_error());
    Json::Object(map)
}
