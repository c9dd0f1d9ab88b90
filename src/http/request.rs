//! The request: method, URL, headers, body, which query parameters are secret, and the
//! per-request overrides of the client's settings.

use std::fmt;
use std::sync::Arc;

use super::config::{Config, Limits, RequestOptions, Settings};
use super::error::{Error, Limit};
use super::headers::Headers;
use super::method::Method;
use super::proxy::Proxy;
use super::wire::write::{check, write_head, RequestHead};
use crate::url::{Scheme, Url};

/// Whether a rendered request shows its secrets.
///
/// Not `#[non_exhaustive]`: secrets are shown or not; there is no third way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Secrets {
    /// Sensitive header values and secret query values written as `***`.
    Mask,
    /// Everything as it is sent.
    Reveal,
}

/// An HTTP request: what [`Transport::send`](super::Transport::send) sends.
///
/// The URL is parsed and checked when the request is made; header names and values when they
/// are added; the rest (headers the client writes itself, the request target's length, the
/// address policy) when it is sent, before any byte leaves.
///
/// `Display` shows the method and the URL with secret query values masked; `Debug` also the
/// headers, sensitive values masked, and the body's size.
///
/// # Examples
///
/// ```
/// use httptool::http::{Method, Request, Secrets};
///
/// let mut request = Request::new(Method::Post, "https://api.example.com/v1/items")?
///     .with_header("Content-Type", "application/json")?
///     .with_sensitive_header("X-Api-Key", "s3cret")?
///     .with_body(r#"{"name":"x"}"#);
/// request.url_mut().append_query_pair("api_key", "s3cret2");
/// request.mark_query_secret("api_key");
///
/// assert_eq!(request.to_string(), "POST https://api.example.com/v1/items?api_key=***");
/// let shown = String::from_utf8(request.render(Secrets::Mask)?).unwrap();
/// assert!(shown.starts_with("POST /v1/items?api_key=*** HTTP/1.1\r\nHost: api.example.com\r\n"));
/// assert!(shown.contains("X-Api-Key: ***\r\n"));
/// assert!(!shown.contains("s3cret"));
/// # Ok::<(), httptool::http::Error>(())
/// ```
#[derive(Clone)]
pub struct Request {
    method: Method,
    url: Url,
    headers: Headers,
    body: Vec<u8>,
    secret_query: Vec<String>,
    options: RequestOptions,
    /// The `Host` header when it is not the URL's authority.
    host: Option<String>,
    on_head: Option<HeadHook>,
    body_stream: Option<Arc<dyn BodyStream>>,
}

/// A callback told the status of each response head as it is read, before its body (see
/// [`Request::on_head`]).
pub type HeadHook = Arc<dyn Fn(u16) + Send + Sync>;

/// Takes a response body as it arrives instead of the body being kept whole: for answers
/// that are streams (server-sent events), read within budgets of their own (see
/// [`Request::stream_body`]).
pub trait BodyStream: Send + Sync {
    /// Whether the body of the final response with this status and header fields goes to
    /// [`write`](BodyStream::write); `false` reads it whole, as without a stream.
    fn accepts(&self, status: u16, headers: &Headers) -> bool;

    /// How long the body may be read from when its head arrived, within the call's own
    /// deadline (`None`: until the call's deadline). When it runs out the read ends with
    /// the call's [`Timeout`](super::ErrorKind::Timeout) error.
    fn timeout(&self) -> Option<std::time::Duration>;

    /// The next bytes of the body, as they arrive (after the chunked framing is taken
    /// off); return `false` to stop reading. The connection is then closed, never reused.
    fn write(&self, bytes: &[u8]) -> bool;
}

impl Request {
    /// A request with no headers and no body.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidUrl`](super::ErrorKind::InvalidUrl) when [`Url::parse`] refuses
    /// `url`.
    pub fn new(method: Method, url: &str) -> Result<Request, Error> {
        Ok(Request::from_url(method, Url::parse(url)?))
    }

    /// A request to a URL already parsed.
    pub fn from_url(method: Method, url: Url) -> Request {
        Request {
            method,
            url,
            headers: Headers::new(),
            body: Vec::new(),
            secret_query: Vec::new(),
            options: RequestOptions::default(),
            host: None,
            on_head: None,
            body_stream: None,
        }
    }

    /// A `GET` request.
    ///
    /// # Errors
    ///
    /// As [`Request::new`].
    pub fn get(url: &str) -> Result<Request, Error> {
        Request::new(Method::Get, url)
    }

    /// A `HEAD` request.
    ///
    /// # Errors
    ///
    /// As [`Request::new`].
    pub fn head(url: &str) -> Result<Request, Error> {
        Request::new(Method::Head, url)
    }

    /// A `POST` request.
    ///
    /// # Errors
    ///
    /// As [`Request::new`].
    pub fn post(url: &str) -> Result<Request, Error> {
        Request::new(Method::Post, url)
    }

    /// A `PUT` request.
    ///
    /// # Errors
    ///
    /// As [`Request::new`].
    pub fn put(url: &str) -> Result<Request, Error> {
        Request::new(Method::Put, url)
    }

    /// A `PATCH` request.
    ///
    /// # Errors
    ///
    /// As [`Request::new`].
    pub fn patch(url: &str) -> Result<Request, Error> {
        Request::new(Method::Patch, url)
    }

    /// A `DELETE` request.
    ///
    /// # Errors
    ///
    /// As [`Request::new`].
    pub fn delete(url: &str) -> Result<Request, Error> {
        Request::new(Method::Delete, url)
    }

    /// The method.
    pub fn method(&self) -> Method {
        self.method
    }

    /// Changes the method.
    pub fn set_method(&mut self, method: Method) {
        self.method = method;
    }

    /// The URL.
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// The URL, to change (add query pairs, replace the path).
    pub fn url_mut(&mut self) -> &mut Url {
        &mut self.url
    }

    /// The headers, in the order they are sent.
    pub fn headers(&self) -> &Headers {
        &self.headers
    }

    /// The headers, to change.
    pub fn headers_mut(&mut self) -> &mut Headers {
        &mut self.headers
    }

    /// Adds a header (see [`Headers::append`]).
    ///
    /// # Errors
    ///
    /// As [`Headers::append`].
    pub fn with_header(mut self, name: &str, value: &str) -> Result<Request, Error> {
        self.headers.append(name, value)?;
        Ok(self)
    }

    /// Adds a header whose value is secret (see [`Headers::append_sensitive`]).
    ///
    /// # Errors
    ///
    /// As [`Headers::append`].
    pub fn with_sensitive_header(mut self, name: &str, value: &str) -> Result<Request, Error> {
        self.headers.append_sensitive(name, value)?;
        Ok(self)
    }

    /// Sends `host` as the `Host` header instead of the URL's authority, as
    /// `curl -H 'Host: ...'` does for a virtual host behind an address: the connection (and
    /// TLS's server name) still goes to the URL's host. A redirect to another origin drops it.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidHeaderValue`](super::ErrorKind::InvalidHeaderValue) unless `host`
    /// is `uri-host [ ":" port ]` (RFC 9110 section 7.2): an IP literal, an IPv4 address or
    /// a reg-name, so no space, CR, LF or other byte can end the header.
    ///
    /// # Examples
    ///
    /// ```
    /// use httptool::http::{Request, Secrets};
    ///
    /// let mut request = Request::get("http://127.0.0.1:8080/status")?;
    /// request.set_host("api.internal:8080")?;
    /// let shown = String::from_utf8(request.render(Secrets::Mask)?).unwrap();
    /// assert!(shown.starts_with("GET /status HTTP/1.1\r\nHost: api.internal:8080\r\n"));
    /// assert!(request.set_host("a\r\nX-Injected: 1").is_err());
    /// # Ok::<(), httptool::http::Error>(())
    /// ```
    pub fn set_host(&mut self, host: &str) -> Result<(), Error> {
        if !is_host(host) {
            return Err(Error::new(super::ErrorKind::InvalidHeaderValue).with_detail("\"Host\""));
        }
        self.host = Some(host.to_string());
        Ok(())
    }

    /// The `Host` header set with [`set_host`](Request::set_host), if any.
    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }

    /// The body; empty for none.
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// Sets the body. It is sent with a `Content-Length`; set `Content-Type` yourself.
    pub fn set_body(&mut self, body: impl Into<Vec<u8>>) {
        self.body = body.into();
    }

    /// Sets the body (see [`set_body`](Request::set_body)).
    #[must_use]
    pub fn with_body(mut self, body: impl Into<Vec<u8>>) -> Request {
        self.body = body.into();
        self
    }

    /// Marks the query parameter `name` (as decoded) secret: its value is shown as `***` by
    /// `Display`, `Debug` and masked renderings, and it is dropped when a redirect leaves the
    /// origin.
    pub fn mark_query_secret(&mut self, name: &str) {
        // A loop, not a closure given to `any`, which compiled its own copy of the iterator
        // code (build cost, see `design::performance`).
        for marked in &self.secret_query {
            if marked == name {
                return;
            }
        }
        self.secret_query.push(name.to_string());
    }

    /// Marks a query parameter secret (see [`mark_query_secret`](Request::mark_query_secret)).
    #[must_use]
    pub fn with_secret_query(mut self, name: &str) -> Request {
        self.mark_query_secret(name);
        self
    }

    /// The names of the query parameters marked secret.
    pub fn secret_query_params(&self) -> &[String] {
        &self.secret_query
    }

    /// The URL with secret query values as `***`: for messages and logs.
    pub fn redacted_url(&self) -> String {
        self.url.redacted(&self.secret_query)
    }

    /// The per-request overrides of the client's settings.
    pub fn options(&self) -> &RequestOptions {
        &self.options
    }

    /// Replaces the per-request overrides.
    pub fn set_options(&mut self, options: RequestOptions) {
        self.options = options;
    }

    /// Replaces the per-request overrides (see [`RequestOptions`]).
    #[must_use]
    pub fn with_options(mut self, options: RequestOptions) -> Request {
        self.options = options;
        self
    }

    /// Calls `hook` with the status of every final (not 1xx) response head [`Client`]
    /// reads for this request, as soon as the status line and headers are parsed and before
    /// the body is read: to tell a user the answer has started while a large or slow body
    /// is still arriving. A followed redirect or a retried response calls it once more, for
    /// that response. Other [`Transport`](super::Transport)s may never call it, so a caller
    /// still learns the status from the response. The hook runs on the sending thread,
    /// while the connection is held: keep it short. A request without one costs nothing.
    ///
    /// [`Client`]: super::Client
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU16, Ordering};
    /// use std::sync::Arc;
    /// use httptool::http::Request;
    ///
    /// let seen = Arc::new(AtomicU16::new(0));
    /// let mut request = Request::get("http://127.0.0.1:9/")?;
    /// let hook_seen = seen.clone();
    /// request.on_head(Arc::new(move |status| hook_seen.store(status, Ordering::SeqCst)));
    /// assert!(request.head_hook().is_some());
    /// # Ok::<(), httptool::http::Error>(())
    /// ```
    pub fn on_head(&mut self, hook: HeadHook) {
        self.on_head = Some(hook);
    }

    /// The hook set with [`on_head`](Request::on_head), if any.
    pub fn head_hook(&self) -> Option<&HeadHook> {
        self.on_head.as_ref()
    }

    /// Hands the body of a final response that `stream` accepts to it as it arrives, instead
    /// of keeping it: the [`Response`](super::Response)'s body is then empty, and neither
    /// [`max_response_bytes`](super::Config::max_response_bytes) nor anything else caps what
    /// the stream is given; the stream stops the read itself, or its
    /// [`timeout`](BodyStream::timeout) does. A [`Client`](super::Client) honours it; other
    /// [`Transport`](super::Transport)s may read the body whole as usual.
    pub fn stream_body(&mut self, stream: Arc<dyn BodyStream>) {
        self.body_stream = Some(stream);
    }

    /// The stream set with [`stream_body`](Request::stream_body), if any.
    pub fn body_stream(&self) -> Option<&Arc<dyn BodyStream>> {
        self.body_stream.as_ref()
    }

    /// The exact bytes a default [`Client`](super::Client) would write for this request
    /// (request line, `Host`, headers in order, `Content-Length`, body), without sending it:
    /// for dry runs. [`Client::render`](super::Client::render) does the same with a client's
    /// settings (its `User-Agent`, its proxy). With [`Secrets::Mask`], sensitive header values
    /// and secret query values are `***`; the body is shown as it is.
    ///
    /// # Errors
    ///
    /// What sending would refuse before connecting: a header the client writes itself, a
    /// request target over `max_request_target` (the request's own, when its options set
    /// one).
    pub fn render(&self, secrets: Secrets) -> Result<Vec<u8>, Error> {
        render(self, &Config::default(), secrets)
    }
}

impl fmt::Display for Request {
    /// `METHOD url`, secret query values masked.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.method, self.redacted_url())
    }
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Request")
            .field("method", &self.method)
            .field("url", &self.redacted_url())
            .field("headers", &self.headers)
            .field("body_len", &self.body.len())
            .field("secret_query", &self.secret_query)
            .field("options", &self.options)
            .field("on_head", &self.on_head.is_some())
            .field("body_stream", &self.body_stream.is_some())
            .finish()
    }
}

/// RFC 9110 section 7.2: `Host = uri-host [ ":" port ]`; RFC 3986 section 3.2.2:
/// `uri-host = IP-literal / IPv4address / reg-name`, `reg-name = *( unreserved /
/// pct-encoded / sub-delims )`. Only those bytes, `[`, `]` and `:`, at most 261 of them.
pub(crate) fn is_host(text: &str) -> bool {
    let allowed = |b: u8| b.is_ascii_alphanumeric() || b"-._~%!$&'()*+,;=[]:".contains(&b);
    !text.is_empty() && text.len() <= 261 && !text.starts_with(':') && text.bytes().all(allowed)
}

/// The proxy a request is forwarded through in absolute form, with the proxy's credentials:
/// an http URL's proxy. An https request goes through a tunnel, so its proxy sees neither
/// the request nor (inside it) the credentials.
pub(crate) fn forwarding<'p>(url: &Url, proxy: Option<&'p Proxy>) -> Option<&'p Proxy> {
    proxy.filter(|_| url.scheme() == Scheme::Http)
}

/// The head a request is sent with, built and checked in one place for the send and for the
/// dry run ([`render`]), so the two cannot disagree: the request target (absolute form
/// through a forwarding `proxy`) within `limits.max_request_target`, the `Content-Length`,
/// and no header the client writes itself.
#[allow(clippy::too_many_arguments)]
pub(crate) fn prepare<'a>(
    method: Method,
    url: &'a Url,
    host: Option<&'a str>,
    headers: &'a Headers,
    body_len: usize,
    config: &'a Config,
    limits: &Limits,
    proxy: Option<&'a Proxy>,
) -> Result<RequestHead<'a>, Error> {
    let target = if proxy.is_some() {
        url.as_str()
    } else {
        url.path_and_query()
    };
    let max = limits.max_request_target;
    if target.len() > max {
        return Err(Error::limit(Limit::RequestTarget, max, target.len() as u64));
    }
    // RFC 9110 section 8.6: a Content-Length for every body, and 0 for an empty one where the
    // method gives a body meaning.
    let content_length = (body_len > 0 || method.expects_body()).then_some(body_len);
    let head = RequestHead {
        method,
        target,
        host: host.unwrap_or_else(|| url.authority()),
        user_agent: config.user_agent.as_deref(),
        headers,
        proxy_authorization: proxy.and_then(Proxy::authorization),
        content_length,
    };
    check(&head)?;
    Ok(head)
}

/// The bytes `config`'s client would write for `request`, under the request's own options
/// merged over `config`, as a send would.
pub(crate) fn render(
    request: &Request,
    config: &Config,
    secrets: Secrets,
) -> Result<Vec<u8>, Error> {
    let url = request.url();
    let settings = Settings::new(config, request.options());
    let proxy = forwarding(url, config.proxy.for_url(url));
    let body = request.body();
    let masked;
    let mut head = prepare(
        request.method(),
        url,
        request.host(),
        request.headers(),
        body.len(),
        config,
        &settings.limits,
        proxy,
    )
    .map_err(|e| e.with_url(url))?;
    if secrets == Secrets::Mask {
        // Only what is shown changes: the checks above ran on the target as sent. Masking
        // changes only the query, so the path starts where it did.
        masked = url.redacted(request.secret_query_params());
        let prefix = url.as_str().len() - url.path_and_query().len();
        head.target = if proxy.is_some() {
            &masked
        } else {
            &masked[prefix..]
        };
    }
    let mut out = Vec::with_capacity(256 + body.len());
    write_head(&mut out, &head, secrets == Secrets::Mask);
    out.extend_from_slice(body);
    Ok(out)
}
