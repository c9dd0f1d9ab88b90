//! JSON-RPC 2.0 messages as MCP uses them: reading one, and writing responses, errors and
//! notifications. Pure: values in, values or text out.

use crate::json::{Json, Map, ParseOptions};

/// JSON-RPC 2.0, section 5.1: the error codes the protocol defines.
pub(crate) const PARSE_ERROR: i64 = -32700;
pub(crate) const INVALID_REQUEST: i64 = -32600;
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
pub(crate) const INVALID_PARAMS: i64 = -32602;
pub(crate) const INTERNAL_ERROR: i64 = -32603;
/// A server error (the range -32000 to -32099 is the implementation's): too many calls in
/// flight.
pub(crate) const SERVER_BUSY: i64 = -32000;
/// MCP 2026-07-28, "Basic", "Error Codes": `UnsupportedProtocolVersionError`, in the range
/// -32020 to -32099 that the specification keeps for itself (this server's own codes stay
/// in -32000 to -32019).
pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// MCP 2026-07-28, "Streamable HTTP", "Server Validation": `HeaderMismatch`, the HTTP
/// headers do not mirror the body, or one it needs is missing.
#[cfg(feature = "server")]
pub(crate) const HEADER_MISMATCH: i64 = -32020;

/// One message from the client.
pub(crate) enum Incoming {
    /// A request: it gets exactly one response with its `id`.
    Request {
        id: Json,
        method: String,
        params: Option<Json>,
    },
    /// A notification: never answered.
    Notification {
        method: String,
        params: Option<Json>,
    },
    /// A response to a request of ours (`elicitation/create`): its id, and its result or
    /// the error's message.
    Response {
        id: Json,
        answer: Result<Json, String>,
    },
    /// A JSON array: a JSON-RPC batch (JSON-RPC 2.0, section 6), its elements unread. The
    /// session decides whether the negotiated revision takes batches.
    Batch(Vec<Json>),
    /// Not a message this server can take: the error response to send.
    Invalid(String),
}

/// Reads one line.
///
/// The whole message is parsed strictly (a duplicate key is a parse error), since tool
/// arguments sit inside it and the server cannot know which value a client meant
/// ([reading the arguments](crate::design::endpoints#reading-the-arguments)).
pub(crate) fn read(line: &[u8]) -> Incoming {
    let value = match ParseOptions::new()
        .reject_duplicate_keys(true)
        .parse_bytes(line)
    {
        Ok(value) => value,
        Err(e) => {
            return Incoming::Invalid(error(
                &Json::Null,
                PARSE_ERROR,
                &format!("parse error: the message is not JSON: {}", e),
            ))
        }
    };
    if value.is_array() {
        return Incoming::Batch(value.into_array().unwrap_or_default());
    }
    message(value)
}

/// Reads one message already parsed: a whole line, or one element of a batch.
pub(crate) fn message(value: Json) -> Incoming {
    let type_name = value.type_name();
    let mut map = match value.into_object() {
        Some(map) => map,
        None => {
            return Incoming::Invalid(error(
                &Json::Null,
                INVALID_REQUEST,
                &format!(
                    "invalid request: a message is a JSON object, got {}",
                    type_name
                ),
            ))
        }
    };
    // An id that is not a string or an integer cannot be answered with itself (MCP: "MUST
    // be a string or integer", "MUST NOT be null").
    let id = match map.remove("id") {
        None => None,
        Some(id @ Json::String(_)) => Some(id),
        Some(id @ Json::Number(_)) if id.as_i64().is_some() || id.as_u64().is_some() => Some(id),
        Some(other) => {
            return Incoming::Invalid(error(
                &Json::Null,
                INVALID_REQUEST,
                &format!(
                    "invalid request: the id must be a string or an integer, got {}",
                    other.type_name()
                ),
            ))
        }
    };
    let answer_to = id.clone().unwrap_or(Json::Null);
    if map.get("jsonrpc").and_then(Json::as_str) != Some("2.0") {
        return Incoming::Invalid(error(
            &answer_to,
            INVALID_REQUEST,
            "invalid request: \"jsonrpc\" must be \"2.0\"",
        ));
    }
    let method = match map.remove("method") {
        Some(method) => match method.into_string() {
            Some(method) => method,
            None => {
                return Incoming::Invalid(error(
                    &answer_to,
                    INVALID_REQUEST,
                    "invalid request: \"method\" must be a string",
                ))
            }
        },
        None if id.is_some() && (map.contains_key("result") || map.contains_key("error")) => {
            let answer = match map.remove("result") {
                Some(result) => Ok(result),
                None => Err(map
                    .get("error")
                    .and_then(|e| e.get("message"))
                    .and_then(Json::as_str)
                    .map_or_else(
                        || String::from("no message"),
                        |m| crate::tool::quote(m).to_string(),
                    )),
            };
            return Incoming::Response {
                id: id.unwrap_or(Json::Null),
                answer,
            };
        }
        None => {
            return Incoming::Invalid(error(
                &answer_to,
                INVALID_REQUEST,
                "invalid request: a request needs a \"method\"",
            ))
        }
    };
    let params = map.remove("params");
    match id {
        Some(id) => Incoming::Request { id, method, params },
        None => Incoming::Notification { method, params },
    }
}

/// `{"jsonrpc": "2.0", "id": id, "result": result}` as one line of text.
pub(crate) fn response(id: &Json, result: Json) -> String {
    let mut map = Map::with_capacity(3);
    map.insert("jsonrpc", "2.0");
    map.insert("id", id.clone());
    map.insert("result", result);
    Json::Object(map).to_string()
}

/// The start of a response whose result the caller writes as text: close it with `}`.
pub(crate) fn response_head(id: &Json) -> String {
    let mut text = String::from("{\"jsonrpc\":\"2.0\",\"id\":");
    id.write_to(&mut text);
    text.push_str(",\"result\":");
    text
}

/// `{"jsonrpc": "2.0", "id": id, "error": {"code", "message"}}` as one line of text.
pub(crate) fn error(id: &Json, code: i64, message: &str) -> String {
    error_with(id, code, message, None)
}

/// An error with its `data`, when there is one.
pub(crate) fn error_with(id: &Json, code: i64, message: &str, data: Option<Json>) -> String {
    let mut error = Map::with_capacity(3);
    error.insert("code", code);
    error.insert("message", message);
    if let Some(data) = data {
        error.insert("data", data);
    }
    let mut map = Map::with_capacity(3);
    map.insert("jsonrpc", "2.0");
    map.insert("id", id.clone());
    map.insert("error", error);
    Json::Object(map).to_string()
}

/// `{"jsonrpc": "2.0", "id": id, "method": method, "params": params}`: a request of ours.
pub(crate) fn request(id: &Json, method: &str, params: Json) -> String {
    let mut map = Map::with_capacity(4);
    map.insert("jsonrpc", "2.0");
    map.insert("id", id.clone());
    map.insert("method", method);
    map.insert("params", params);
    Json::Object(map).to_string()
}

/// `{"jsonrpc": "2.0", "method": method, "params": params}` as one line of text.
pub(crate) fn notification(method: &str, params: Json) -> String {
    let mut map = Map::with_capacity(3);
    map.insert("jsonrpc", "2.0");
    map.insert("method", method);
    map.insert("params", params);
    Json::Object(map).to_string()
}

/// The key of an id in the table of calls in flight: a string's JSON text, a number's
/// integer value, so `1` and `"1"` differ while `1`, `1.0` and `1e0` (one JSON number) are
/// one id.
pub(crate) fn id_key(id: &Json) -> String {
    if let Some(n) = id.as_i64() {
        return n.to_string();
    }
    if let Some(n) = id.as_u64() {
        return n.to_string();
    }
    id.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid(line: &str) -> String {
        match read(line.as_bytes()) {
            Incoming::Invalid(text) => text,
            _ => panic!("{} was read as a message", line),
        }
    }

    #[test]
    fn error_messages() {
        assert_eq!(
            invalid("nope"),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the message is not JSON: expected 'null' at 1:1"}}"#
        );
        assert_eq!(
            invalid(r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#),
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}"#
        );
        assert_eq!(
            invalid(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the id must be a string or an integer, got null"}}"#
        );
        assert_eq!(
            invalid(r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the message is not JSON: duplicate object key at 1:25"}}"#
        );
        assert_eq!(
            invalid(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the id must be a string or an integer, got number"}}"#
        );
        assert_eq!(
            invalid(r#"{"jsonrpc":"2.0","id":"a"}"#),
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"invalid request: a request needs a \"method\""}}"#
        );
    }

    #[test]
    fn kinds_of_message() {
        assert!(matches!(
            read(br#"{"jsonrpc":"2.0","id":"x","method":"ping"}"#),
            Incoming::Request { ref method, .. } if method == "ping"
        ));
        assert!(matches!(
            read(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Incoming::Notification { .. }
        ));
        assert!(matches!(
            read(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Incoming::Response { answer: Ok(_), .. }
        ));
        assert!(matches!(
            read(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},1]"#),
            Incoming::Batch(ref elements) if elements.len() == 2
        ));
        // An array inside a batch is an element that is not a message, not a nested batch.
        assert!(matches!(
            message(Json::Array(Vec::new())),
            Incoming::Invalid(ref text) if text.contains("a message is a JSON object, got array")
        ));
        assert_eq!(id_key(&Json::from(1)), "1");
        assert_eq!(id_key(&Json::from("1")), "\"1\"");
        for same in ["1.0", "1e0", "10e-1", "1"] {
            let id = crate::json::parse(same).unwrap();
            assert_eq!(id_key(&id), "1", "{}", same);
        }
    }
}
