//! The plugin layer's error: a declaration that cannot become tools, and where it went wrong.

use std::fmt;

use crate::json::Json;

/// What was wrong with a plugin declaration, for code to match.
///
/// New kinds may be added in minor releases, so a `match` needs a wildcard arm.
///
/// `#[non_exhaustive]`: new kinds will be added as failures are told apart more finely; match with
/// a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The plugin file is not JSON (the message has the line and column).
    Syntax,
    /// A required field is absent.
    MissingField,
    /// A field the format does not know (a typo, most of the time).
    UnknownField,
    /// A field holds the wrong JSON type, or a word the field does not accept.
    InvalidField,
    /// `${NAME}` names an environment variable (or property) that is not set.
    MissingVariable,
    /// A `${` that does not start a well-formed `${NAME}`.
    InvalidTemplate,
    /// The base URL is not an absolute `http` or `https` URL with a host, or carries a query
    /// or fragment.
    InvalidBaseUrl,
    /// A path template that is malformed, or whose `{name}` placeholders and path parameters
    /// do not match both ways.
    InvalidPath,
    /// A tool or parameter name that some provider would refuse.
    InvalidName,
    /// Two tools, two parameters, or two wire names in one location share a name.
    DuplicateName,
    /// A `default` or `enum` value that does not fit the parameter's type (or enum).
    InvalidDefault,
    /// A header name that is not a token, a value with a control character, a header the
    /// client writes itself, or a header parameter that would shadow a static or auth header.
    InvalidHeader,
    /// Settings that cannot go together (a whole-body parameter beside other body
    /// parameters, a secret body parameter, a file part without multipart, ...).
    Conflict,
    /// A tool name the plugin does not declare.
    UnknownTool,
    /// A plugin provider was not configured correctly.
    Provider,
}

impl ErrorKind {
    /// A short, stable, snake_case name for logs (`"missing_variable"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::MissingField => "missing_field",
            ErrorKind::UnknownField => "unknown_field",
            ErrorKind::InvalidField => "invalid_field",
            ErrorKind::MissingVariable => "missing_variable",
            ErrorKind::InvalidTemplate => "invalid_template",
            ErrorKind::InvalidBaseUrl => "invalid_base_url",
            ErrorKind::InvalidPath => "invalid_path",
            ErrorKind::InvalidName => "invalid_name",
            ErrorKind::DuplicateName => "duplicate_name",
            ErrorKind::InvalidDefault => "invalid_default",
            ErrorKind::InvalidHeader => "invalid_header",
            ErrorKind::Conflict => "conflict",
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::Provider => "provider",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error in a plugin declaration: the file or the builders.
///
/// It points at the field, written as a path into the plugin file
/// (`endpoints[2].params[0].in`), whether the plugin came from a file or from the builders
/// (which number endpoints and parameters in the order they were added). `Display` writes
/// `path: message`. Messages are lowercase and never repeat a header value, a secret or a
/// value read from the environment.
///
/// # Examples
///
/// ```
/// use httptool::plugin::{ErrorKind, HttpPlugin};
///
/// let err = HttpPlugin::from_json(r#"{"name": "w", "base_url": "https://api.example.com",
///     "endpoints": [{"name": "get", "path": "/x", "params": [{"name": "q", "in": "matrix"}]}]}"#)
///     .unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidField);
/// assert_eq!(err.path(), "endpoints[0].params[0].in");
/// assert_eq!(
///     err.to_string(),
///     "endpoints[0].params[0].in: expected one of query, path, header, body, form, cookie; got 'matrix'"
/// );
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    path: String,
    message: String,
}

impl Error {
    pub(crate) fn new(
        kind: ErrorKind,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Error {
        Error {
            kind,
            // A path names fields by the keys written in the file (`headers.X-Api-Key`).
            path: crate::quote::escape_controls(path.into()),
            message: message.into(),
        }
    }

    /// What was wrong, for code to match.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Where: the path of the field in the plugin file (`endpoints[0].path`), or `""` for the
    /// document as a whole.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was wrong, without the path.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.kind)
            .field("path", &self.path)
            .field("message", &self.message)
            .finish()
    }
}

impl std::error::Error for Error {}

/// Quotes a name or value for a message: the crate's one rule (`crate::quote`).
pub(crate) use crate::quote::quote;

/// A value for a message: its type for an array or object, else compact JSON (a string in
/// its double quotes) cut and escaped by the crate's one quoting rule, so a model's or a
/// file's value can neither make the message huge nor break its line (JSON escapes C0
/// controls only, not DEL or C1 such as NEL).
pub(crate) fn short_value(value: &Json) -> String {
    match value {
        Json::Array(_) => String::from("an array"),
        Json::Object(_) => String::from("an object"),
        scalar => crate::quote::excerpt(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_with_and_without_path() {
        let err = Error::new(
            ErrorKind::MissingField,
            "endpoints[1]",
            "missing field 'path'",
        );
        assert_eq!(err.to_string(), "endpoints[1]: missing field 'path'");
        let err = Error::new(ErrorKind::Syntax, "", "not json");
        assert_eq!(err.to_string(), "not json");
    }

    #[test]
    fn control_characters_in_error_paths_are_escaped() {
        // Regression: a header name holding CR and LF went into the error's path as it was,
        // so `Display` wrote a line break taken from the plugin file.
        let err = Error::new(ErrorKind::InvalidHeader, "headers.X\r\nY\u{85}", "bad");
        assert_eq!(err.path(), "headers.X\\r\\nY\\u{85}");
        assert_eq!(err.to_string(), "headers.X\\r\\nY\\u{85}: bad");
    }
}
