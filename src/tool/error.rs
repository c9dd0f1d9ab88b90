//! The tool layer's error type and the error kinds a [`ToolOutput`](super::ToolOutput) carries.

use std::fmt;

/// What went wrong, as a stable value callers can match.
///
/// One enum serves two purposes so that a failure has one name wherever it shows up:
/// [`Error::kind`] (a Rust caller's mistake: a bad tool name, a duplicate, a malformed provider
/// payload) and [`ToolOutput::error_kind`](super::ToolOutput::error_kind) (a call that failed
/// and whose message went back to the model).
///
/// New kinds may be added in minor releases, so a `match` needs a wildcard arm.
///
/// `#[non_exhaustive]`: new kinds will be added as failures are told apart more finely; match with
/// a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    // Registering tools.
    /// A tool name that is not `^[a-zA-Z0-9_-]{1,64}$`.
    InvalidName,
    /// A second tool with a name the registry already holds.
    DuplicateName,
    /// A parameters schema that is not a JSON Schema object of type `"object"`, or that nests
    /// deeper than [`json::DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH).
    InvalidSchema,
    /// A schema OpenAI's strict mode cannot express (a free-form object, `allOf`, ...).
    StrictUnsupported,
    /// A provider payload (a model response, an MCP request) without the expected shape.
    MalformedPayload,

    // Calls: the arguments.
    /// The model called a tool the registry does not hold.
    UnknownTool,
    /// The arguments are not JSON, not a JSON object, or larger than the limit.
    InvalidArguments,
    /// An argument the tool does not accept.
    UnknownParameter,
    /// A required argument is absent.
    MissingParameter,
    /// An argument whose value the tool cannot use (wrong type, not in the enum, ...).
    InvalidParameter,

    // Calls: running the tool.
    /// The tool ran and reported a failure of its own.
    ToolFailed,
    /// An HTTP response with a status of 400 or more.
    HttpStatus,
    /// A redirect the tool's policy did not allow it to follow.
    RedirectNotFollowed,
    /// A deadline passed (connect, read, write or the whole call).
    Timeout,
    /// A connection or transport failure (refused, reset, DNS, TLS, malformed HTTP).
    Transport,
    /// A limit was exceeded (response body size, header count, ...).
    LimitExceeded,
    /// The address policy refused the destination (loopback, private ranges, a host not
    /// allowed).
    AddressRefused,
    /// The tool could not get a credential: an OAuth 2.0 token endpoint refused the client
    /// or the grant (`invalid_client`, `invalid_grant`, ...) or answered something unusable.
    AuthFailed,
    /// The call needs the user's approval and did not get it (declined, dismissed, not
    /// answered in time, or nobody could be asked); nothing was sent.
    NotApproved,
    /// A bug or an unexpected state, such as a tool that panicked.
    Internal,
}

impl ErrorKind {
    /// A short, stable, snake_case name for logs and metrics (`"unknown_tool"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidName => "invalid_name",
            ErrorKind::DuplicateName => "duplicate_name",
            ErrorKind::InvalidSchema => "invalid_schema",
            ErrorKind::StrictUnsupported => "strict_unsupported",
            ErrorKind::MalformedPayload => "malformed_payload",
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::InvalidArguments => "invalid_arguments",
            ErrorKind::UnknownParameter => "unknown_parameter",
            ErrorKind::MissingParameter => "missing_parameter",
            ErrorKind::InvalidParameter => "invalid_parameter",
            ErrorKind::ToolFailed => "tool_failed",
            ErrorKind::HttpStatus => "http_status",
            ErrorKind::RedirectNotFollowed => "redirect_not_followed",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Transport => "transport",
            ErrorKind::LimitExceeded => "limit_exceeded",
            ErrorKind::AddressRefused => "address_refused",
            ErrorKind::AuthFailed => "auth_failed",
            ErrorKind::NotApproved => "not_approved",
            ErrorKind::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error from the tool layer: registering a tool, reading a provider payload, or reading a
/// call's arguments.
///
/// The message is lowercase, names what was wrong and where, and never holds a secret. A
/// failed call reaches the model as a [`ToolOutput`](super::ToolOutput) instead (and an
/// `Error` converts into one with `From`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// What went wrong, for code to match.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, as `Display` writes it.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
