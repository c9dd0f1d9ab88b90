//! The user's approval before a call that changes things: which calls need it
//! ([`Confirm`]), what the user is shown ([`ApprovalRequest`]), who asks ([`Approver`]) and
//! what they answered ([`Approval`]).

use std::fmt;

use super::spec::ToolAnnotations;
use crate::json::{Json, Map};

/// Which calls need the user's approval before they are sent.
///
/// A plugin declares one for all its endpoints and may override it per endpoint
/// (`"confirm"` in the plugin file); a host adds one for every tool it serves with
/// [`CallContext::with_confirm`](super::CallContext::with_confirm) (`httptool serve
/// --confirm`). A call needs approval when either says so.
///
/// # Examples
///
/// ```
/// use httptool::tool::{Confirm, ToolAnnotations};
///
/// let hints = ToolAnnotations::default();
/// assert!(Confirm::Destructive.applies("deleteRepo", Some("DELETE"), &hints));
/// assert!(!Confirm::Destructive.applies("createRepo", Some("POST"), &hints));
/// assert!(Confirm::Writes.applies("createRepo", Some("POST"), &hints));
/// assert!(!Confirm::Writes.applies("getRepo", Some("GET"), &hints));
/// assert_eq!(Confirm::parse("writes"), Some(Confirm::Writes));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Confirm {
    /// No call needs approval (the default: nothing changes for a plugin that says nothing).
    #[default]
    Never,
    /// `DELETE`, and tools annotated destructive (`"annotations": {"destructive": true}`,
    /// which `PUT` and `PATCH` endpoints are unless they say otherwise).
    Destructive,
    /// Every method that is not safe (RFC 9110, section 9.2.1: all but `GET`, `HEAD`,
    /// `OPTIONS` and `TRACE`); a tool that is not an HTTP operation unless annotated
    /// read-only.
    Writes,
    /// Every call.
    Always,
    /// The tools named.
    Tools(Vec<String>),
}

impl Confirm {
    /// Reads a policy word: `never`, `destructive`, `writes`, `always`.
    pub fn parse(word: &str) -> Option<Confirm> {
        match word {
            "never" => Some(Confirm::Never),
            "destructive" => Some(Confirm::Destructive),
            "writes" => Some(Confirm::Writes),
            "always" => Some(Confirm::Always),
            _ => None,
        }
    }

    /// The word of a policy (`"tools"` for a list of names).
    pub fn as_str(&self) -> &'static str {
        match self {
            Confirm::Never => "never",
            Confirm::Destructive => "destructive",
            Confirm::Writes => "writes",
            Confirm::Always => "always",
            Confirm::Tools(_) => "tools",
        }
    }

    /// Whether a call of the tool `name`, sending `method` (upper case; `None` for a tool
    /// that sends no HTTP request) with these behaviour hints, needs approval.
    pub fn applies(&self, name: &str, method: Option<&str>, hints: &ToolAnnotations) -> bool {
        match self {
            Confirm::Never => false,
            Confirm::Always => true,
            Confirm::Tools(names) => names.iter().any(|n| n == name),
            Confirm::Destructive => method == Some("DELETE") || hints.destructive == Some(true),
            Confirm::Writes => match method {
                Some(method) => !matches!(method, "GET" | "HEAD" | "OPTIONS" | "TRACE"),
                None => hints.read_only != Some(true),
            },
        }
    }
}

impl fmt::Display for Confirm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Confirm::Tools(names) => write!(f, "tools {}", names.join(", ")),
            other => f.write_str(other.as_str()),
        }
    }
}

/// What the user is asked to approve: the tool, the request it would send (method, URL
/// with every secret as `***`, a summary of the body) and the arguments the model gave.
///
/// [`message`](ApprovalRequest::message) is the text shown. Everything that came from the
/// model or the API is quoted there as a JSON string, with line breaks, control and
/// bidirectional characters escaped, so an argument value cannot pose as the server's own
/// words (`"\n\nThe server checked this call: it is safe"` stays one quoted line).
#[derive(Clone, Debug, PartialEq)]
pub struct ApprovalRequest {
    tool: String,
    method: Option<String>,
    url: Option<String>,
    arguments: Map,
    body: Option<BodySummary>,
}

/// The body of a request to approve: its type, size and beginning (secrets as `***`).
#[derive(Clone, Debug, PartialEq)]
struct BodySummary {
    content_type: String,
    bytes: usize,
    start: String,
}

/// The characters of a body shown in an approval message.
const BODY_SHOWN: usize = 400;
/// The characters of one argument value shown in an approval message.
const VALUE_SHOWN: usize = 300;

impl ApprovalRequest {
    /// A call of `tool` with `arguments` (as the model sent them).
    pub fn new(tool: impl Into<String>, arguments: Map) -> ApprovalRequest {
        ApprovalRequest {
            tool: tool.into(),
            method: None,
            url: None,
            arguments,
            body: None,
        }
    }

    /// The request the call sends: `method` and `url` (with secrets already masked).
    #[must_use]
    pub fn request(mut self, method: impl Into<String>, url: impl Into<String>) -> ApprovalRequest {
        self.method = Some(method.into());
        self.url = Some(url.into());
        self
    }

    /// The body the call sends (secrets already masked); an empty body is none.
    #[must_use]
    pub fn body(mut self, content_type: &str, body: &[u8]) -> ApprovalRequest {
        if body.is_empty() {
            return self;
        }
        let text = String::from_utf8_lossy(body);
        self.body = Some(BodySummary {
            content_type: content_type.to_string(),
            bytes: body.len(),
            start: text.chars().take(BODY_SHOWN).collect(),
        });
        self
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The method, when the tool sends an HTTP request.
    pub fn method(&self) -> Option<&str> {
        self.method.as_deref()
    }

    /// The URL with secrets as `***`, when the tool sends an HTTP request.
    pub fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// The arguments as the model sent them.
    pub fn arguments(&self) -> &Map {
        &self.arguments
    }

    /// The text to show the user: one line a fact, every value from the model or the API
    /// quoted (see the type's docs).
    ///
    /// # Examples
    ///
    /// ```
    /// use httptool::json;
    /// use httptool::tool::ApprovalRequest;
    ///
    /// let arguments = json!({"id": "a/b\nApproved by the server."}).into_object().unwrap();
    /// let request = ApprovalRequest::new("deleteRepo", arguments)
    ///     .request("DELETE", "https://api.example.com/repos/a%2Fb");
    /// assert_eq!(
    ///     request.message(),
    ///     "The tool \"deleteRepo\" wants to send this request:\n\
    ///      DELETE \"https://api.example.com/repos/a%2Fb\"\n\
    ///      Arguments from the model:\n\
    ///      - \"id\": \"a/b\\nApproved by the server.\"\n\
    ///      Approve it?"
    /// );
    /// ```
    pub fn message(&self) -> String {
        let mut text = String::with_capacity(256);
        text.push_str("The tool ");
        push_quoted(&mut text, &self.tool, VALUE_SHOWN);
        match (&self.method, &self.url) {
            (Some(method), Some(url)) => {
                text.push_str(" wants to send this request:\n");
                // A method is a token: nothing in it can break the line.
                text.push_str(method);
                text.push(' ');
                push_quoted(&mut text, url, usize::MAX);
                text.push('\n');
            }
            _ => text.push_str(" wants to run.\n"),
        }
        if self.arguments.is_empty() {
            text.push_str("Arguments from the model: none\n");
        } else {
            text.push_str("Arguments from the model:\n");
            for (key, value) in self.arguments.iter() {
                text.push_str("- ");
                push_quoted(&mut text, key, VALUE_SHOWN);
                text.push_str(": ");
                let shown = match value {
                    Json::String(s) => s.clone(),
                    other => other.to_string(),
                };
                push_quoted(&mut text, &shown, VALUE_SHOWN);
                text.push('\n');
            }
        }
        if let Some(body) = &self.body {
            text.push_str("Body (");
            push_quoted(&mut text, &body.content_type, 100);
            text.push_str(&format!(", {} bytes): ", body.bytes));
            push_quoted(&mut text, &body.start, BODY_SHOWN);
            text.push('\n');
        }
        text.push_str("Approve it?");
        text
    }
}

/// Writes `value` as a JSON string on one line: quotes, backslashes, control characters,
/// line and paragraph separators, bidirectional controls and other invisible format
/// characters escaped as `\uXXXX`, cut after `max` characters with `...` after the quote.
fn push_quoted(out: &mut String, value: &str, max: usize) {
    out.push('"');
    let mut cut = false;
    for (i, c) in value.chars().enumerate() {
        if i >= max {
            cut = true;
            break;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || is_invisible(c) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{:04x}", unit));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    if cut {
        out.push_str("...");
    }
}

/// Characters that change how text around them reads without showing: bidirectional
/// controls, zero-width characters, line and paragraph separators, the byte order mark.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{2069}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
}

/// What the user answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Approval {
    /// The user approved this call: it is sent.
    Approved,
    /// The user said no.
    Declined,
    /// The user dismissed the question without choosing.
    Cancelled,
    /// No answer came: a timeout, or an error while asking; the reason, for the model.
    Unanswered(String),
    /// The user cannot be asked here (a client without the means, a terminal-less run); the
    /// reason, for the model.
    CannotAsk(String),
}

impl Approval {
    /// The message the model reads when the call was not sent; `None` for
    /// [`Approval::Approved`].
    pub fn refusal(&self, tool: &str) -> Option<String> {
        let why = match self {
            Approval::Approved => return None,
            Approval::Declined => String::from("the user did not approve it (declined)"),
            Approval::Cancelled => {
                String::from("the user did not approve it (the question was dismissed)")
            }
            Approval::Unanswered(reason) => format!("the user did not approve it: {}", reason),
            Approval::CannotAsk(reason) => {
                format!("it needs the user's approval, and {}", reason)
            }
        };
        Some(format!(
            "the call of tool {} was not sent: {}; nothing was sent to the API. Do not try to get around this; tell the user what you wanted to do",
            super::quote(tool),
            why
        ))
    }
}

/// Asks the user whether a call may be sent: a host's own dialog, a terminal prompt, an MCP
/// client's elicitation. Installed with
/// [`CallContext::with_approver`](super::CallContext::with_approver).
///
/// Called on the calling thread, before anything is sent; it may block while the user
/// thinks (bound it with a timeout of your own).
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use httptool::tool::{Approval, ApprovalRequest, Approver, CallContext};
///
/// struct Never;
/// impl Approver for Never {
///     fn approve(&self, _: &ApprovalRequest) -> Approval {
///         Approval::Declined
///     }
/// }
/// let context = CallContext::new().with_approver(Arc::new(Never));
/// assert!(context.approver().is_some());
/// ```
pub trait Approver: Send + Sync {
    /// The user's answer about `request`.
    fn approve(&self, request: &ApprovalRequest) -> Approval;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(value: &str) -> String {
        let mut out = String::new();
        push_quoted(&mut out, value, 10);
        out
    }

    #[test]
    fn values_stay_on_their_line() {
        assert_eq!(quoted("a\nb"), "\"a\\nb\"");
        assert_eq!(quoted("say \"hi\""), "\"say \\\"hi\\\"\"");
        assert_eq!(quoted("\u{202E}txt"), "\"\\u202etxt\"");
        assert_eq!(quoted("a\u{2028}b"), "\"a\\u2028b\"");
        assert_eq!(quoted("0123456789abc"), "\"0123456789\"...");
    }

    #[test]
    fn policies_read_the_method_first() {
        let hints = ToolAnnotations {
            destructive: Some(true),
            ..ToolAnnotations::default()
        };
        assert!(Confirm::Destructive.applies("put", Some("PUT"), &hints));
        assert!(Confirm::Writes.applies("fn", None, &ToolAnnotations::default()));
        let read_only = ToolAnnotations {
            read_only: Some(true),
            ..ToolAnnotations::default()
        };
        assert!(!Confirm::Writes.applies("fn", None, &read_only));
        let named = Confirm::Tools(vec![String::from("a")]);
        assert!(named.applies("a", Some("GET"), &read_only));
        assert!(!named.applies("b", Some("DELETE"), &read_only));
        assert_eq!(Confirm::parse("sometimes"), None);
    }
}
