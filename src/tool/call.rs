//! `ToolCall`: one call a model asked for, and the rules for reading its arguments.

use std::borrow::Cow;

use super::error::{Error, ErrorKind};
use crate::json::{Json, Map, ParseOptions};

/// The largest arguments text, in bytes, the registry parses. Defaults to 1 MiB
/// ([limits](crate::design::endpoints#limits)); set it with
/// [`ToolRegistry::max_argument_bytes`](super::ToolRegistry::max_argument_bytes).
pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1024 * 1024;

/// A call's arguments as they arrived.
///
/// Not `#[non_exhaustive]`: arguments arrive either as JSON text or already parsed; every provider
/// sends one of the two.
#[derive(Clone, Debug, PartialEq)]
pub enum Arguments {
    /// The JSON text the model sent (OpenAI's `arguments` string), not parsed yet.
    Text(String),
    /// Arguments that arrived already parsed (Anthropic's `input`, Gemini's `args`, MCP's
    /// `arguments`), kept as they are to save a serialize-and-parse round trip.
    Object(Map),
}

/// One call a model asked for: an id to answer with, the tool's name and the arguments.
///
/// # Examples
///
/// ```
/// use httptool::tool::ToolCall;
///
/// let call = ToolCall::new("call_1", "get_weather", r#"{"city":"Paris"}"#);
/// assert_eq!(call.name(), "get_weather");
/// assert_eq!(call.arguments_text(), r#"{"city":"Paris"}"#);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    id: String,
    name: String,
    arguments: Arguments,
}

impl ToolCall {
    /// A call whose arguments are the JSON text the model sent.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: Arguments::Text(arguments.into()),
        }
    }

    /// A call whose arguments arrived already parsed.
    pub fn with_object(id: impl Into<String>, name: impl Into<String>, arguments: Map) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: Arguments::Object(arguments),
        }
    }

    /// The id the result must carry back (OpenAI `tool_call_id`, Anthropic `tool_use_id`,
    /// ...).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The name of the tool the model called.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The arguments as they arrived.
    pub fn arguments(&self) -> &Arguments {
        &self.arguments
    }

    /// The arguments as JSON text: as sent, or the compact form of parsed arguments.
    pub fn arguments_text(&self) -> Cow<'_, str> {
        match &self.arguments {
            Arguments::Text(text) => Cow::Borrowed(text),
            Arguments::Object(map) => Cow::Owned(Json::Object(map.clone()).to_string()),
        }
    }

    /// Reads the arguments by the rules of [`parse_arguments`], without consuming the call
    /// (parsed arguments are cloned).
    ///
    /// # Errors
    ///
    /// As [`parse_arguments`].
    pub fn parse_arguments(&self, max_bytes: usize) -> Result<Map, Error> {
        match &self.arguments {
            Arguments::Text(text) => parse_arguments(text, max_bytes),
            Arguments::Object(map) => {
                let value = Json::Object(map.clone());
                check_object_size(&value, max_bytes)?;
                Ok(value.into_object().unwrap_or_default())
            }
        }
    }

    /// Reads the arguments by the rules of [`parse_arguments`], moving parsed arguments out
    /// without a copy.
    ///
    /// # Errors
    ///
    /// As [`parse_arguments`].
    pub fn into_arguments(self, max_bytes: usize) -> Result<Map, Error> {
        match self.arguments {
            Arguments::Text(text) => parse_arguments(&text, max_bytes),
            Arguments::Object(map) => {
                let value = Json::Object(map);
                check_object_size(&value, max_bytes)?;
                Ok(value.into_object().unwrap_or_default())
            }
        }
    }
}

/// Reads a model's arguments text into an object, the way the registry does before every
/// call.
///
/// - Text longer than `max_bytes` is refused before parsing.
/// - Empty text (or only whitespace) and `null` read as `{}`: models send both for tools
///   without parameters.
/// - The JSON is parsed strictly: a duplicate key is an error, since nobody can know which
///   value the model meant.
/// - A JSON string that holds an object is read as that object (some models encode the
///   arguments twice); only one level is undone.
/// - Anything else that is not an object is refused.
///
/// Arguments that arrive already parsed ([`Arguments::Object`]) skip these rules but the
/// first: their size is the length of their compact JSON, so a 2 MiB argument is refused
/// whichever way it came.
///
/// # Errors
///
/// [`ErrorKind::InvalidArguments`] with a message written for the model: too large, not
/// JSON (with the position), a duplicate key, or not an object.
///
/// # Security
///
/// The input is model output: its size is checked first and nesting is bounded by
/// [`json::DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH).
///
/// # Examples
///
/// ```
/// use httptool::tool::{parse_arguments, DEFAULT_MAX_ARGUMENT_BYTES};
///
/// let args = parse_arguments(r#""{\"city\":\"Paris\"}""#, DEFAULT_MAX_ARGUMENT_BYTES)?;
/// assert_eq!(args.get("city").and_then(|v| v.as_str()), Some("Paris"));
/// assert!(parse_arguments("", DEFAULT_MAX_ARGUMENT_BYTES)?.is_empty());
/// assert!(parse_arguments("[1, 2]", DEFAULT_MAX_ARGUMENT_BYTES).is_err());
/// # Ok::<(), httptool::tool::Error>(())
/// ```
pub fn parse_arguments(text: &str, max_bytes: usize) -> Result<Map, Error> {
    if text.len() > max_bytes {
        return Err(invalid(format!(
            "arguments are {} bytes, over the limit of {} bytes; send shorter values",
            text.len(),
            max_bytes
        )));
    }
    let outer = parse_strict(text, "")?;
    let value = if outer.is_string() {
        let inner = outer.into_string().unwrap_or_default();
        parse_strict(&inner, "a JSON string whose content is ")?
    } else {
        outer
    };
    let type_name = value.type_name();
    value.into_object().ok_or_else(|| not_an_object(type_name))
}

/// Refuses arguments that arrived parsed when their compact JSON is over `max_bytes`,
/// counting as they are written and stopping at the limit, so the check costs at most
/// `max_bytes` of writing and no allocation.
fn check_object_size(value: &Json, max_bytes: usize) -> Result<(), Error> {
    struct Count {
        bytes: usize,
        max: usize,
    }
    impl std::fmt::Write for Count {
        fn write_str(&mut self, text: &str) -> std::fmt::Result {
            self.bytes = self.bytes.saturating_add(text.len());
            if self.bytes > self.max {
                return Err(std::fmt::Error);
            }
            Ok(())
        }
    }
    let mut count = Count {
        bytes: 0,
        max: max_bytes,
    };
    if std::fmt::Write::write_fmt(&mut count, format_args!("{}", value)).is_ok() {
        return Ok(());
    }
    Err(invalid(format!(
        "arguments are over the limit of {} bytes; send shorter values",
        max_bytes
    )))
}

/// Parses arguments text strictly; empty text and `null` read as `{}`.
fn parse_strict(text: &str, what: &str) -> Result<Json, Error> {
    let trimmed = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
    if trimmed.is_empty() || trimmed == "null" {
        return Ok(Json::Object(Map::new()));
    }
    ParseOptions::new()
        .reject_duplicate_keys(true)
        .parse(text)
        .map_err(|err| {
            invalid(format!(
                "arguments are {}not valid JSON: {}; send one JSON object such as {{\"name\": \"value\"}}",
                what, err
            ))
        })
}

fn not_an_object(type_name: &str) -> Error {
    invalid(format!(
        "arguments must be a JSON object, got {}; send one JSON object such as {{\"name\": \"value\"}}",
        type_name
    ))
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidArguments, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    macro_rules! parse_ok_cases {
        ($($name:ident: $text:expr => $expected:expr;)*) => {$(
            #[test]
            fn $name() {
                let map = parse_arguments($text, DEFAULT_MAX_ARGUMENT_BYTES).unwrap();
                assert_eq!(Json::Object(map), $expected);
            }
        )*};
    }

    parse_ok_cases! {
        args_object: r#"{"city":"Paris","days":3}"# => json!({"city": "Paris", "days": 3});
        args_empty_text: "" => json!({});
        args_whitespace: " \n\t" => json!({});
        args_null: "null" => json!({});
        args_padded_null: " null " => json!({});
        args_empty_object: "{}" => json!({});
        args_double_encoded: r#""{\"city\":\"Paris\"}""# => json!({"city": "Paris"});
        args_double_encoded_empty: r#""""# => json!({});
    }

    macro_rules! parse_err_cases {
        ($($name:ident: $text:expr => $message:expr;)*) => {$(
            #[test]
            fn $name() {
                let err = parse_arguments($text, DEFAULT_MAX_ARGUMENT_BYTES).unwrap_err();
                assert_eq!(err.kind(), ErrorKind::InvalidArguments);
                let message = err.to_string();
                assert!(message.starts_with($message), "{}", message);
            }
        )*};
    }

    parse_err_cases! {
        args_array: "[1]" => "arguments must be a JSON object, got array;";
        args_number: "42" => "arguments must be a JSON object, got number;";
        args_true: "true" => "arguments must be a JSON object, got boolean;";
        args_not_json: "{city: Paris}" => "arguments are not valid JSON: ";
        args_truncated: r#"{"city":"Par"# => "arguments are not valid JSON: ";
        args_duplicate_key: r#"{"a":1,"a":2}"# => "arguments are not valid JSON: ";
        args_triple_encoded: r#""\"{}\"""# => "arguments must be a JSON object, got string;";
        args_double_encoded_array: r#""[1]""# => "arguments must be a JSON object, got array;";
        args_double_encoded_garbage: r#""{x""# => "arguments are a JSON string whose content is not valid JSON: ";
    }

    #[test]
    fn args_size_limit_on_both_sides() {
        let body = format!(r#"{{"a":"{}"}}"#, "x".repeat(100));
        assert!(parse_arguments(&body, body.len()).is_ok());
        let err = parse_arguments(&body, body.len() - 1).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArguments);
        assert_eq!(
            err.to_string(),
            format!(
                "arguments are {} bytes, over the limit of {} bytes; send shorter values",
                body.len(),
                body.len() - 1
            )
        );
    }

    #[test]
    fn not_object_message() {
        let err = parse_arguments("[1]", 100).unwrap_err();
        assert_eq!(
            err.to_string(),
            "arguments must be a JSON object, got array; send one JSON object such as {\"name\": \"value\"}"
        );
    }

    #[test]
    fn object_arguments_pass_through() {
        let mut map = Map::new();
        map.insert("city", "Paris");
        let call = ToolCall::with_object("id", "t", map.clone());
        assert_eq!(call.arguments_text(), r#"{"city":"Paris"}"#);
        assert_eq!(call.parse_arguments(16).unwrap(), map);
        assert_eq!(call.into_arguments(16).unwrap(), map);
        // Parsed arguments are held to the same limit as text: their compact JSON's length.
        let call = ToolCall::with_object("id", "t", map.clone());
        let err = call.parse_arguments(15).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArguments);
        assert_eq!(
            err.to_string(),
            "arguments are over the limit of 15 bytes; send shorter values"
        );
        assert!(call.into_arguments(15).is_err());
    }
}
