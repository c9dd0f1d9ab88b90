//! Model Context Protocol (revision 2025-11-25): tools for `tools/list`, calls from
//! `tools/call`, and `CallToolResult`.
//!
//! This module only shapes the JSON; the server that speaks JSON-RPC over stdio lives in its
//! own layer.
//!
//! - [`tool`] renders `{"name", "title", "description", "inputSchema"}` (`title` only when the
//!   spec has one); [`list_tools_result`] wraps tools into a `tools/list` result.
//! - [`call_from_params`] reads `tools/call` params (`{"name", "arguments"}`);
//!   [`call_from_request`] reads a whole JSON-RPC request and takes its `id` as the call id.
//! - [`call_tool_result`] writes `{"content": [{"type": "text", "text"}],
//!   "structuredContent", "isError"}`: `structuredContent` when the output carries a JSON
//!   object (MCP requires an object there; other structured values reach the client as the
//!   text).

use super::{object, At};
use crate::json::{Json, Map};
use crate::tool::error::Error;
use crate::tool::{ToolCall, ToolOutput, ToolSpec};

/// The MCP revision these shapes follow.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// An MCP tool definition: `{"name", "title"?, "description", "inputSchema"}`.
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
    Json::Object(map)
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
/// ```
pub fn call_tool_result(output: &ToolOutput) -> Json {
    let text = object([
        ("type", Json::from("text")),
        ("text", Json::from(output.text())),
    ]);
    let mut map = Map::with_capacity(3);
    map.insert("content", vec![text]);
    if let Some(structured @ Json::Object(_)) = output.structured() {
        map.insert("structuredContent", structured.clone());
    }
    map.insert("isError", output.is_error());
    Json::Object(map)
}
