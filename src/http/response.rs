//! The response a call ends with.

use std::borrow::Cow;
use std::fmt;

use super::headers::Headers;
use super::redirect::RedirectStop;
use crate::url::Url;

/// The HTTP version of a response.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    /// HTTP/1.0.
    Http10,
    /// HTTP/1.1 (and any later HTTP/1.x, read as 1.1).
    Http11,
}

/// A response: status, reason, headers, the whole body, and the URL it came from.
///
/// A custom [`Transport`](super::Transport) builds one with [`Response::new`] and the `with_*`
/// methods.
///
/// ```
/// use httptool::http::{Headers, Response};
/// use httptool::url::Url;
/// let mut headers = Headers::new();
/// headers.append("Content-Type", "application/json")?;
/// let response = Response::new(200, Url::parse("https://api.example.com/v1/x")?)
///     .with_headers(headers)
///     .with_body(br#"{"ok":true}"#.to_vec());
/// assert_eq!(response.status(), 200);
/// assert_eq!(response.header("content-type"), Some("application/json"));
/// assert_eq!(response.body(), br#"{"ok":true}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Response {
    status: u16,
    reason: Cow<'static, str>,
    version: Version,
    headers: Headers,
    body: Vec<u8>,
    url: Url,
    bytes_read: u64,
    redirect_stop: Option<RedirectStop>,
}

impl Response {
    /// A response with `status`, from `url`, with no headers and an empty body.
    pub fn new(status: u16, url: Url) -> Response {
        Response {
            status,
            reason: Cow::Borrowed(""),
            version: Version::Http11,
            headers: Headers::new(),
            body: Vec::new(),
            url,
            bytes_read: 0,
            redirect_stop: None,
        }
    }

    pub(crate) fn from_parts(
        status: u16,
        reason: Cow<'static, str>,
        version: Version,
        headers: Headers,
        body: Vec<u8>,
        url: Url,
        bytes_read: u64,
    ) -> Response {
        Response {
            status,
            reason,
            version,
            headers,
            body,
            url,
            bytes_read,
            redirect_stop: None,
        }
    }

    /// Sets the reason phrase.
    #[must_use]
    pub fn with_reason(mut self, reason: &str) -> Response {
        self.reason = Cow::Owned(reason.to_string());
        self
    }

    /// Sets the headers.
    #[must_use]
    pub fn with_headers(mut self, headers: Headers) -> Response {
        self.headers = headers;
        self
    }

    /// Sets the body.
    #[must_use]
    pub fn with_body(mut self, body: Vec<u8>) -> Response {
        self.body = body;
        self
    }

    /// Sets the HTTP version.
    #[must_use]
    pub fn with_version(mut self, version: Version) -> Response {
        self.version = version;
        self
    }

    /// Records why a redirect was not followed.
    #[must_use]
    pub fn with_redirect_stop(mut self, stop: RedirectStop) -> Response {
        self.redirect_stop = Some(stop);
        self
    }

    /// The status code.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The reason phrase as sent (often empty, never to be relied on).
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The HTTP version.
    pub fn version(&self) -> Version {
        self.version
    }

    /// Whether the status is 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The header fields.
    pub fn headers(&self) -> &Headers {
        &self.headers
    }

    /// The first value of header `name`, ignoring ASCII case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name)
    }

    /// The body, whole (its size bounded by `max_response_bytes`).
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The body, taken out of the response.
    pub fn into_body(self) -> Vec<u8> {
        self.body
    }

    /// The body as text, when it is UTF-8.
    ///
    /// # Errors
    ///
    /// When the body is not valid UTF-8.
    pub fn text(&self) -> Result<&str, std::str::Utf8Error> {
        std::str::from_utf8(&self.body)
    }

    /// The URL of this response: the request's, or the last one redirected to.
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// Bytes read from the connection for this response: heads (interim ones included) and
    /// body with its framing. 0 for responses not read from a socket.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Why this 3xx response was returned instead of followed, when a redirect policy said
    /// no. Its `Location` header says where it pointed.
    pub fn redirect_stop(&self) -> Option<RedirectStop> {
        self.redirect_stop
    }
}

impl fmt::Debug for Response {
    /// Status, reason, URL without its query, headers (sensitive values masked) and body size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Response")
            .field("status", &self.status)
            .field("reason", &self.reason)
            .field("version", &self.version)
            .field("url", &self.url.without_query())
            .field("headers", &self.headers)
            .field("body_len", &self.body.len())
            .field("redirect_stop", &self.redirect_stop)
            .finish()
    }
}
