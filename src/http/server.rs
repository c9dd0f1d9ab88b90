//! A small HTTP/1.1 server on `std::net`, hardened for clients that misbehave: what the
//! MCP Streamable HTTP transport listens with.
//!
//! Every size it reads is bounded by the client's own limits (a head of
//! [`DEFAULT_MAX_HEAD`], [`DEFAULT_MAX_HEADERS`]
//! fields, a target of [`DEFAULT_MAX_REQUEST_TARGET`],
//! a chunk line of [`DEFAULT_MAX_CHUNK_LINE`]) plus a body
//! limit, and every wait by a deadline, so a slow client holds its connection only until
//! then. Connections are bounded too: one more than
//! [`max_connections`](ServerConfig::max_connections) is answered `503` and closed at once.
//!
//! What each hostile input gets is on [`HttpServer`].

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::config::{
    DEFAULT_MAX_CHUNK_LINE, DEFAULT_MAX_HEAD, DEFAULT_MAX_HEADERS, DEFAULT_MAX_REQUEST_TARGET,
};
use super::headers::{all_tchars, all_value_bytes, Headers};
use super::response::Version;
use super::wire::chunked::parse_chunk_size;
use super::wire::head::find_head_end;
use super::wire::request::{parse_request_head, BodyFraming, HeadProblem, RequestHead};

/// Connections served at once; one more is answered `503` and closed. Defaults to 512.
pub const DEFAULT_SERVER_MAX_CONNECTIONS: usize = 512;
/// Bytes of a request body. Defaults to 4 MiB.
pub const DEFAULT_SERVER_MAX_BODY: usize = 4 * 1024 * 1024;
/// How long a request's head may take to arrive, from its first byte (from the connection's
/// start for the first request). Defaults to 10 seconds.
pub const DEFAULT_SERVER_TIMEOUT_HEAD: Duration = Duration::from_secs(10);
/// How long a request's body may take to arrive, once its head is in. Defaults to 30
/// seconds.
pub const DEFAULT_SERVER_TIMEOUT_BODY: Duration = Duration::from_secs(30);
/// How long a kept-alive connection waits for the next request. Defaults to 15 seconds.
pub const DEFAULT_SERVER_TIMEOUT_IDLE: Duration = Duration::from_secs(15);
/// Each wait to send response bytes. Defaults to 30 seconds.
pub const DEFAULT_SERVER_TIMEOUT_WRITE: Duration = Duration::from_secs(30);

/// The limits and timeouts of an [`HttpServer`], every default a public constant.
///
/// # Examples
///
/// ```
/// use httptool::http::ServerConfig;
/// use std::time::Duration;
///
/// let config = ServerConfig::new()
///     .max_connections(64)
///     .max_body(1024 * 1024)
///     .timeout_head(Duration::from_secs(5));
/// # drop(config);
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct ServerConfig {
    max_connections: usize,
    max_head: usize,
    max_headers: usize,
    max_request_target: usize,
    max_chunk_line: usize,
    max_body: usize,
    timeout_head: Duration,
    timeout_body: Duration,
    timeout_idle: Duration,
    timeout_write: Duration,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            max_connections: DEFAULT_SERVER_MAX_CONNECTIONS,
            max_head: DEFAULT_MAX_HEAD,
            max_headers: DEFAULT_MAX_HEADERS,
            max_request_target: DEFAULT_MAX_REQUEST_TARGET,
            max_chunk_line: DEFAULT_MAX_CHUNK_LINE,
            max_body: DEFAULT_SERVER_MAX_BODY,
            timeout_head: DEFAULT_SERVER_TIMEOUT_HEAD,
            timeout_body: DEFAULT_SERVER_TIMEOUT_BODY,
            timeout_idle: DEFAULT_SERVER_TIMEOUT_IDLE,
            timeout_write: DEFAULT_SERVER_TIMEOUT_WRITE,
        }
    }
}

impl ServerConfig {
    /// Every default.
    pub fn new() -> ServerConfig {
        ServerConfig::default()
    }

    /// Connections served at once (at least 1). Defaults to
    /// [`DEFAULT_SERVER_MAX_CONNECTIONS`] (512).
    pub fn max_connections(mut self, connections: usize) -> ServerConfig {
        self.max_connections = connections.max(1);
        self
    }

    /// Bytes of a request head, request line and fields with their line endings; over it is
    /// `431`. Defaults to [`DEFAULT_MAX_HEAD`] (64 KiB).
    pub fn max_head(mut self, bytes: usize) -> ServerConfig {
        self.max_head = bytes;
        self
    }

    /// Header fields of a request; over it is `431`. Defaults to
    /// [`DEFAULT_MAX_HEADERS`] (100).
    pub fn max_headers(mut self, fields: usize) -> ServerConfig {
        self.max_headers = fields;
        self
    }

    /// Bytes of a request target; over it is `414`. Defaults to
    /// [`DEFAULT_MAX_REQUEST_TARGET`] (8 KiB).
    pub fn max_request_target(mut self, bytes: usize) -> ServerConfig {
        self.max_request_target = bytes;
        self
    }

    /// Bytes of a chunk-size line, and of each trailer line; over it is `400`. Defaults to
    /// [`DEFAULT_MAX_CHUNK_LINE`] (1 KiB).
    pub fn max_chunk_line(mut self, bytes: usize) -> ServerConfig {
        self.max_chunk_line = bytes;
        self
    }

    /// Bytes of a request body; over it is `413`. Defaults to [`DEFAULT_SERVER_MAX_BODY`]
    /// (4 MiB).
    pub fn max_body(mut self, bytes: usize) -> ServerConfig {
        self.max_body = bytes;
        self
    }

    /// How long a head may take; then `408`. Defaults to [`DEFAULT_SERVER_TIMEOUT_HEAD`]
    /// (10 s).
    pub fn timeout_head(mut self, timeout: Duration) -> ServerConfig {
        self.timeout_head = timeout;
        self
    }

    /// How long a body may take once the head is in; then `408`. Defaults to
    /// [`DEFAULT_SERVER_TIMEOUT_BODY`] (30 s).
    pub fn timeout_body(mut self, timeout: Duration) -> ServerConfig {
        self.timeout_body = timeout;
        self
    }

    /// How long a kept-alive connection waits for its next request. Defaults to
    /// [`DEFAULT_SERVER_TIMEOUT_IDLE`] (15 s).
    pub fn timeout_idle(mut self, timeout: Duration) -> ServerConfig {
        self.timeout_idle = timeout;
        self
    }

    /// Each wait to send response bytes. Defaults to [`DEFAULT_SERVER_TIMEOUT_WRITE`]
    /// (30 s).
    pub fn timeout_write(mut self, timeout: Duration) -> ServerConfig {
        self.timeout_write = timeout;
        self
    }
}

/// A request as the server read it: whole, its framing checked, its body de-chunked.
#[derive(Clone, Debug)]
pub struct ServerRequest {
    method: String,
    target: String,
    version: Version,
    headers: Headers,
    body: Vec<u8>,
    peer: Option<SocketAddr>,
    local: Option<SocketAddr>,
}

impl ServerRequest {
    /// The method, as sent (methods are case-sensitive).
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The request target: `/path?query`, or `*`.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The target's path: what comes before `?`.
    pub fn path(&self) -> &str {
        match self.target.split_once('?') {
            Some((path, _)) => path,
            None => &self.target,
        }
    }

    /// The HTTP version.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The header fields, in order.
    pub fn headers(&self) -> &Headers {
        &self.headers
    }

    /// The first value of a header field, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name)
    }

    /// The body (empty when none was sent).
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The client's address (`None` for a request read from memory).
    pub fn peer_addr(&self) -> Option<SocketAddr> {
        self.peer
    }

    /// The address the connection came in on (`None` for a request read from memory).
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.local
    }
}

/// A response a handler gives: status, header fields and body. `Content-Length` and
/// `Connection` are the server's to write.
#[derive(Clone, Debug)]
#[must_use]
pub struct ServerResponse {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    close: bool,
    stream: Option<BodyStream>,
}

/// What writes a body as it is made (see [`ServerResponse::streaming`]).
pub type StreamFn = Box<dyn FnOnce(&mut dyn Write) -> io::Result<()> + Send>;

/// A body written as it is made, taken once.
#[derive(Clone)]
struct BodyStream(Arc<std::sync::Mutex<Option<StreamFn>>>);

impl std::fmt::Debug for BodyStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BodyStream")
    }
}

/// Writes each write as one chunk (RFC 9112, section 7.1), flushed, so every event of a
/// stream reaches the client when it is written.
struct Chunked<'a, W: Write> {
    inner: &'a mut W,
}

impl<W: Write> Write for Chunked<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if bytes.is_empty() {
            return Ok(0);
        }
        let mut chunk = Vec::with_capacity(bytes.len() + 16);
        chunk.extend_from_slice(format!("{:x}\r\n", bytes.len()).as_bytes());
        chunk.extend_from_slice(bytes);
        chunk.extend_from_slice(b"\r\n");
        self.inner.write_all(&chunk)?;
        self.inner.flush()?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl ServerResponse {
    /// A response with `status` (100 to 599; another is sent as 500), no fields and no
    /// body.
    pub fn new(status: u16) -> ServerResponse {
        ServerResponse {
            status: if (100..=599).contains(&status) {
                status
            } else {
                500
            },
            headers: Vec::new(),
            body: Vec::new(),
            close: false,
            stream: None,
        }
    }

    /// `status` with a body of `content_type` that `write` writes as it is made (Server-Sent
    /// Events): sent with `Transfer-Encoding: chunked`, each write one chunk, flushed; for
    /// an HTTP/1.0 request, until the connection closes. The connection's thread runs
    /// `write`, after the head is sent.
    pub fn streaming(status: u16, content_type: &str, write: StreamFn) -> ServerResponse {
        let mut response = ServerResponse::new(status).header("Content-Type", content_type);
        response.stream = Some(BodyStream(Arc::new(std::sync::Mutex::new(Some(write)))));
        response
    }

    /// `status` with a body of `content_type`.
    pub fn with_content(status: u16, content_type: &str, body: Vec<u8>) -> ServerResponse {
        ServerResponse::new(status)
            .header("Content-Type", content_type)
            .body(body)
    }

    /// Adds a header field. A name that is not a token, a value with a control character,
    /// or a field the server writes itself (`Content-Length`, `Transfer-Encoding`,
    /// `Connection`) turns the response into a `500`: a handler's bug is never sent as a
    /// split or smuggled response.
    pub fn header(mut self, name: &str, value: &str) -> ServerResponse {
        let managed = ["content-length", "transfer-encoding", "connection"]
            .iter()
            .any(|m| m.eq_ignore_ascii_case(name));
        if name.is_empty()
            || !all_tchars(name.as_bytes())
            || !all_value_bytes(value.as_bytes())
            || managed
        {
            return ServerResponse::new(500);
        }
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// The body.
    pub fn body(mut self, body: Vec<u8>) -> ServerResponse {
        self.body = body;
        self
    }

    /// Closes the connection after this response.
    pub fn close(mut self) -> ServerResponse {
        self.close = true;
        self
    }

    /// The status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The first value of a field set with [`header`](ServerResponse::header).
    pub fn header_value(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body.
    pub fn body_bytes(&self) -> &[u8] {
        &self.body
    }

    /// The whole response as it goes on the wire; `close` adds `Connection: close`;
    /// `head` leaves the body out (a response to HEAD).
    fn encode(&self, close: bool, head: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(128 + self.body.len());
        out.extend_from_slice(b"HTTP/1.1 ");
        out.extend_from_slice(self.status.to_string().as_bytes());
        out.push(b' ');
        out.extend_from_slice(
            super::wire::head::canonical_reason(self.status)
                .unwrap_or("Status")
                .as_bytes(),
        );
        out.extend_from_slice(b"\r\n");
        for (name, value) in &self.headers {
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(value.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        // RFC 9110 section 8.6: no Content-Length in a 1xx or 204.
        if self.stream.is_none() && !(self.status < 200 || self.status == 204) {
            out.extend_from_slice(b"Content-Length: ");
            out.extend_from_slice(self.body.len().to_string().as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        if close {
            out.extend_from_slice(b"Connection: close\r\n");
        }
        out.extend_from_slice(b"\r\n");
        if !head && self.status >= 200 && !matches!(self.status, 204 | 304) {
            out.extend_from_slice(&self.body);
        }
        out
    }
}

/// What answers requests: called once for each whole request, on the connection's thread.
pub trait RequestHandler: Send + Sync {
    /// The response to `request`.
    fn handle(&self, request: &ServerRequest) -> ServerResponse;
}

impl<F> RequestHandler for F
where
    F: Fn(&ServerRequest) -> ServerResponse + Send + Sync,
{
    fn handle(&self, request: &ServerRequest) -> ServerResponse {
        self(request)
    }
}

/// Why a request could not be read: the status the server answers, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestError {
    status: u16,
    message: String,
}

impl RequestError {
    fn new(status: u16, message: impl Into<String>) -> RequestError {
        RequestError {
            status,
            message: message.into(),
        }
    }

    /// The status answered: 400, 408, 413, 414, 431, 501 or 505; 0 when the client went
    /// away or sent nothing (no answer is sent).
    pub fn status(&self) -> u16 {
        self.status
    }
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RequestError {}

/// Reads one request from bytes in memory, with the limits of `config`: the server's own
/// reader, without a socket (what the fuzz target drives).
///
/// # Errors
///
/// A [`RequestError`] with the status the server would answer; status 0 when the bytes end
/// before a whole request.
///
/// # Examples
///
/// ```
/// use httptool::http::{read_request, ServerConfig};
///
/// let bytes = b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n";
/// let request = read_request(bytes, &ServerConfig::new())?;
/// assert_eq!(request.path(), "/mcp");
/// assert_eq!(request.body(), b"{}");
/// let refused = read_request(b"GET / HTTP/1.1\r\n\r\n", &ServerConfig::new()).unwrap_err();
/// assert_eq!(refused.status(), 400);
/// # Ok::<(), httptool::http::RequestError>(())
/// ```
pub fn read_request(bytes: &[u8], config: &ServerConfig) -> Result<ServerRequest, RequestError> {
    let mut reader = Reader::new(Memory(bytes));
    let (request, _) = reader.next_request(config, true)?;
    Ok(request)
}

/// Where requests are read from: a socket with deadlines, or bytes in memory.
trait Source: Read + Write {
    /// Bounds each read by `timeout` (not zero).
    fn read_timeout(&mut self, timeout: Duration) -> io::Result<()>;
}

impl Source for TcpStream {
    fn read_timeout(&mut self, timeout: Duration) -> io::Result<()> {
        self.set_read_timeout(Some(timeout))
    }
}

/// How far a socket's read timeout may be from the time left before a deadline and still be
/// kept: a read then ends at most this much early or late. A kept-alive connection's idle
/// waits are all the same length, so each request after the first costs no `setsockopt`.
const TIMEOUT_SLACK: Duration = Duration::from_millis(10);

/// Bytes in memory: no waits; writes (a `100 Continue`) go nowhere.
struct Memory<'a>(&'a [u8]);

impl Source for Memory<'_> {
    fn read_timeout(&mut self, _timeout: Duration) -> io::Result<()> {
        Ok(())
    }
}

impl Read for Memory<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl Write for Memory<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Bytes asked of the socket at a time while a head comes in: a whole MCP request (head and a
/// small body) in one read, while an idle connection holds a buffer of this size, not of the
/// head limit (64 connections waiting cost 512 KiB, not 4 MiB). A longer head takes more
/// reads, up to the limit.
const HEAD_READ: usize = 8 * 1024;

/// A connection's read side: its buffer, and the requests taken from it.
struct Reader<S> {
    source: S,
    buf: Vec<u8>,
    /// Bytes read and not yet consumed are `buf[start..end]`.
    start: usize,
    end: usize,
    peer: Option<SocketAddr>,
    local: Option<SocketAddr>,
    /// The read timeout last set on the source.
    timeout: Option<Duration>,
}

/// What one read brought.
enum Got {
    Bytes,
    Eof,
    TimedOut,
}

impl<S: Source> Reader<S> {
    fn new(source: S) -> Reader<S> {
        Reader {
            source,
            buf: Vec::new(),
            start: 0,
            end: 0,
            peer: None,
            local: None,
            timeout: None,
        }
    }

    fn buffered(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    fn consume(&mut self, n: usize) {
        self.start = (self.start + n).min(self.end);
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        }
    }

    /// Reads more, at most `room` bytes beyond what is buffered.
    fn fill(&mut self, deadline: Instant, room: usize) -> io::Result<Got> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        let want = room.clamp(1, 64 * 1024);
        if self.buf.len() < self.end + want {
            self.buf.resize(self.end + want, 0);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(Got::TimedOut);
        }
        let kept = self
            .timeout
            .map_or(false, |set| set.max(left) - set.min(left) <= TIMEOUT_SLACK);
        if !kept {
            self.source.read_timeout(left)?;
            self.timeout = Some(left);
        }
        loop {
            match self.source.read(&mut self.buf[self.end..self.end + want]) {
                Ok(0) => return Ok(Got::Eof),
                Ok(n) => {
                    self.end += n;
                    return Ok(Got::Bytes);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    return Ok(Got::TimedOut)
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The next request, and whether the connection may carry another after it. `first`:
    /// the head's deadline runs from now; otherwise the connection may first sit idle.
    fn next_request(
        &mut self,
        config: &ServerConfig,
        first: bool,
    ) -> Result<(ServerRequest, bool), RequestError> {
        let gone = |_| RequestError::new(0, "the connection failed");
        let now = Instant::now();
        if !first && self.end == self.start {
            // Idle: wait for the next request's first byte.
            match self
                .fill(now + config.timeout_idle, HEAD_READ.min(config.max_head))
                .map_err(gone)?
            {
                Got::Bytes => {}
                Got::Eof | Got::TimedOut => return Err(RequestError::new(0, "idle")),
            }
        }
        let deadline = Instant::now() + config.timeout_head;
        let mut scanned = 0;
        let head_len = loop {
            if let Some(end) = find_head_end(self.buffered(), scanned) {
                break end;
            }
            let have = self.end - self.start;
            if have > config.max_head {
                return Err(RequestError::new(
                    431,
                    format!(
                        "the request head is over {} bytes, the most this server reads",
                        config.max_head
                    ),
                ));
            }
            scanned = have.saturating_sub(2);
            // Leading empty lines before a request line are skipped (RFC 9112 section 2.2).
            match self
                .fill(deadline, HEAD_READ.min(config.max_head + 1 - have))
                .map_err(gone)?
            {
                Got::Bytes => {}
                Got::Eof if have == 0 => return Err(RequestError::new(0, "closed")),
                Got::Eof => return Err(RequestError::new(0, "the client closed mid-request")),
                Got::TimedOut => {
                    return Err(RequestError::new(
                        408,
                        "the request head did not arrive in time",
                    ))
                }
            }
        };
        if head_len > config.max_head + 4 {
            return Err(RequestError::new(
                431,
                format!(
                    "the request head is over {} bytes, the most this server reads",
                    config.max_head
                ),
            ));
        }
        let head = {
            let mut bytes = self.buffered().get(..head_len).unwrap_or_default();
            // RFC 9112 section 2.2: at least one empty line before the request line is
            // ignored.
            while let [b'\r', b'\n', rest @ ..] | [b'\n', rest @ ..] = bytes {
                bytes = rest;
            }
            parse_request_head(bytes, config.max_request_target, config.max_headers)
                .map_err(refusal)?
        };
        self.consume(head_len);
        let body = self.body(&head, config)?;
        let RequestHead {
            method,
            target,
            version,
            headers,
            persists,
            ..
        } = head;
        Ok((
            ServerRequest {
                method,
                target,
                version,
                headers,
                body,
                peer: self.peer,
                local: self.local,
            },
            persists,
        ))
    }

    fn body(&mut self, head: &RequestHead, config: &ServerConfig) -> Result<Vec<u8>, RequestError> {
        let too_large = || {
            RequestError::new(
                413,
                format!(
                    "the request body is over {} bytes, the most this server reads",
                    config.max_body
                ),
            )
        };
        if let BodyFraming::Length(n) = head.framing {
            if n > config.max_body as u64 {
                return Err(too_large());
            }
        }
        // RFC 9110 section 10.1.1: a client waiting for 100 (Continue) gets it once the
        // body is known to be wanted.
        let expects = head
            .headers
            .get("expect")
            .map_or(false, |v| v.eq_ignore_ascii_case("100-continue"));
        if expects && head.version == Version::Http11 && self.end == self.start {
            let _ = self.source.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        let deadline = Instant::now() + config.timeout_body;
        match head.framing {
            BodyFraming::Length(n) => {
                let n = n as usize;
                let mut body = Vec::with_capacity(n.min(64 * 1024));
                self.take_exact(&mut body, n, deadline)?;
                Ok(body)
            }
            BodyFraming::Chunked => {
                let mut body = Vec::new();
                loop {
                    let line = self.line(config.max_chunk_line, deadline)?;
                    let size = parse_chunk_size(&line)
                        .map_err(|_| RequestError::new(400, "a chunk-size line is not valid"))?;
                    if size == 0 {
                        break;
                    }
                    if size > (config.max_body - body.len()) as u64 {
                        return Err(too_large());
                    }
                    self.take_exact(&mut body, size as usize, deadline)?;
                    if !self.line(2, deadline)?.is_empty() {
                        return Err(RequestError::new(400, "a chunk does not end with CRLF"));
                    }
                }
                // Trailer fields are read and dropped, within the head's limit.
                let mut trailers = 0usize;
                loop {
                    let line = self.line(config.max_chunk_line, deadline)?;
                    if line.is_empty() {
                        break;
                    }
                    trailers += line.len();
                    if trailers > config.max_head {
                        return Err(RequestError::new(431, "the trailer fields are too large"));
                    }
                }
                Ok(body)
            }
        }
    }

    /// Moves `n` bytes of body into `out`.
    fn take_exact(
        &mut self,
        out: &mut Vec<u8>,
        mut n: usize,
        deadline: Instant,
    ) -> Result<(), RequestError> {
        loop {
            let have = (self.end - self.start).min(n);
            out.extend_from_slice(&self.buf[self.start..self.start + have]);
            self.consume(have);
            n -= have;
            if n == 0 {
                return Ok(());
            }
            self.more(deadline, n)?;
        }
    }

    /// One line of at most `max` bytes (without its line ending).
    fn line(&mut self, max: usize, deadline: Instant) -> Result<Vec<u8>, RequestError> {
        loop {
            let buffered = self.buffered();
            if let Some(at) = super::wire::find_byte(buffered, b'\n') {
                let mut line = buffered[..at].to_vec();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.len() > max {
                    return Err(RequestError::new(400, "a chunk line is too long"));
                }
                self.consume(at + 1);
                return Ok(line);
            }
            if buffered.len() > max + 1 {
                return Err(RequestError::new(400, "a chunk line is too long"));
            }
            self.more(deadline, max + 2)?;
        }
    }

    fn more(&mut self, deadline: Instant, room: usize) -> Result<(), RequestError> {
        match self.fill(deadline, room) {
            Ok(Got::Bytes) => Ok(()),
            Ok(Got::Eof) | Err(_) => Err(RequestError::new(0, "the client closed mid-body")),
            Ok(Got::TimedOut) => Err(RequestError::new(
                408,
                "the request body did not arrive in time",
            )),
        }
    }
}

fn refusal(problem: HeadProblem) -> RequestError {
    match problem {
        HeadProblem::Malformed(what) => RequestError::new(400, what),
        HeadProblem::TargetTooLong => RequestError::new(414, "the request target is too long"),
        HeadProblem::TooManyHeaders => RequestError::new(
            431,
            "the request has more header fields than this server reads",
        ),
        HeadProblem::UnknownCoding => RequestError::new(
            501,
            "a transfer coding other than chunked; this server reads chunked only",
        ),
        HeadProblem::Version => RequestError::new(505, "this server speaks HTTP/1.1 and 1.0"),
    }
}

/// An HTTP/1.1 server: a listening socket, its [`ServerConfig`], and a thread for each
/// connection, at most [`max_connections`](ServerConfig::max_connections) at once.
///
/// # Security
///
/// | what the client does | answer |
/// | --- | --- |
/// | a head over its limit, too many fields | `431`, closed |
/// | a target over its limit | `414`, closed |
/// | a body over its limit (declared or chunked) | `413`, closed, the body never read |
/// | a head or body not in by its deadline (slowloris) | `408`, closed |
/// | a malformed request line or field, no `Host`, `Content-Length` with `Transfer-Encoding`, two different lengths, a bad chunk | `400`, closed |
/// | a transfer coding other than chunked | `501`, closed |
/// | an HTTP version other than 1.0 and 1.1 | `505`, closed |
/// | a second request sent before the first is answered (pipelining) | the first answered, with `Connection: close`, then closed |
/// | nothing more within the keep-alive idle time | closed, without an answer |
/// | one connection more than [`max_connections`](ServerConfig::max_connections) | `503` with `Retry-After: 1`, at once, closed |
///
/// Nothing is guessed at: after any refusal the connection is closed, since what follows a
/// bad message cannot be framed. The handler runs on the connection's own thread and sees
/// only whole, well-framed requests.
///
/// No input can panic the reader. It binds where it is told: bind a loopback address unless the server
/// is meant to be reached from other machines, and authenticate what it serves.
///
/// # Examples
///
/// ```no_run
/// use httptool::http::{HttpServer, ServerConfig, ServerRequest, ServerResponse};
///
/// let server = HttpServer::bind("127.0.0.1:8080", ServerConfig::new())?;
/// server.serve(|request: &ServerRequest| {
///     ServerResponse::with_content(200, "text/plain", request.path().as_bytes().to_vec())
/// })?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct HttpServer {
    listener: TcpListener,
    config: ServerConfig,
}

impl HttpServer {
    /// Listens on `addr`.
    ///
    /// # Errors
    ///
    /// The address cannot be bound (in use, not ours, not allowed).
    pub fn bind(addr: impl ToSocketAddrs, config: ServerConfig) -> io::Result<HttpServer> {
        let listener = TcpListener::bind(addr)?;
        Ok(HttpServer { listener, config })
    }

    /// The address listened on (with the port the system chose for port 0).
    ///
    /// # Errors
    ///
    /// As [`TcpListener::local_addr`].
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves connections until accepting fails for good; each request goes to `handler`.
    ///
    /// # Errors
    ///
    /// Never for one connection's trouble (that connection is closed); only when the
    /// listening socket itself fails.
    pub fn serve<H: RequestHandler + 'static>(&self, handler: H) -> io::Result<()> {
        self.serve_shared(Arc::new(handler))
    }

    /// As [`serve`](HttpServer::serve), with a handler already shared.
    ///
    /// # Errors
    ///
    /// As [`serve`](HttpServer::serve).
    pub fn serve_shared(&self, handler: Arc<dyn RequestHandler>) -> io::Result<()> {
        let open = Arc::new(AtomicUsize::new(0));
        let busy_answer = busy_answer();
        loop {
            let (stream, peer) = match self.listener.accept() {
                Ok(accepted) => accepted,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                // Out of descriptors, a connection reset before it was taken: wait a moment
                // rather than spin, and keep serving.
                Err(_) => {
                    thread::sleep(Duration::from_millis(10));
                    continue;
                }
            };
            if open.load(Ordering::SeqCst) >= self.config.max_connections {
                // A fresh socket's send buffer takes these few bytes without waiting; closing
                // it sends them and a FIN. The accept loop does no more for a refused client
                // (an accept, a write, a close), so a flood drains the listen queue quickly.
                let mut stream = stream;
                let _ = stream.write_all(&busy_answer);
                continue;
            }
            open.fetch_add(1, Ordering::SeqCst);
            let slot = Slot(open.clone());
            let config = self.config.clone();
            let handler = handler.clone();
            let spawned = thread::Builder::new()
                .name(String::from("httptool-http-conn"))
                .spawn(move || {
                    let _slot = slot;
                    connection(stream, peer, &config, &*handler);
                });
            if spawned.is_err() {
                // The closure (and its slot) was dropped with the error.
                thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

/// A connection's place in the count, given back when its thread ends (a handler's panic
/// included).
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What a connection over the limit gets: `503`, then the connection is closed.
fn busy_answer() -> Vec<u8> {
    ServerResponse::with_content(
        503,
        "text/plain",
        b"too many connections; try again shortly\n".to_vec(),
    )
    .header("Retry-After", "1")
    .encode(true, false)
}

fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    config: &ServerConfig,
    handler: &dyn RequestHandler,
) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(config.timeout_write));
    let local = stream.local_addr().ok();
    let mut reader = Reader::new(stream);
    reader.peer = Some(peer);
    reader.local = local;
    let mut first = true;
    loop {
        let (request, persists) = match reader.next_request(config, first) {
            Ok(read) => read,
            Err(e) => {
                if e.status != 0 {
                    let mut body = e.message.into_bytes();
                    body.push(b'\n');
                    let response = ServerResponse::with_content(e.status, "text/plain", body);
                    let _ = reader.source.write_all(&response.encode(true, false));
                }
                break;
            }
        };
        first = false;
        // A request sent before the answer to this one (pipelining) is not guessed at: this
        // one is answered and the connection closed.
        let pipelined = reader.end > reader.start;
        let response = handler.handle(&request);
        let mut close = !persists || pipelined || response.close;
        let stream = response.stream.as_ref().and_then(|s| {
            s.0.lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .take()
        });
        if let Some(write) = stream {
            // HTTP/1.0 has no chunks: the body ends where the connection does.
            let chunked = request.version == Version::Http11;
            close = close || !chunked;
            let mut head = response.encode(close, true);
            // The head ends with its blank line; the framing field goes before it.
            head.truncate(head.len().saturating_sub(2));
            if chunked {
                head.extend_from_slice(b"Transfer-Encoding: chunked\r\n");
            }
            head.extend_from_slice(b"\r\n");
            if reader.source.write_all(&head).is_err() {
                break;
            }
            let written = if chunked {
                write(&mut Chunked {
                    inner: &mut reader.source,
                })
                .and_then(|()| reader.source.write_all(b"0\r\n\r\n"))
            } else {
                write(&mut reader.source)
            };
            if written.is_err() || close {
                break;
            }
            continue;
        }
        let bytes = response.encode(close, request.method == "HEAD");
        if reader.source.write_all(&bytes).is_err() || close {
            break;
        }
    }
    let _ = reader.source.shutdown(Shutdown::Write);
    // Drain what the client still sends for a moment, so the answer is not lost to a reset.
    let _ = reader
        .source
        .set_read_timeout(Some(Duration::from_millis(50)));
    let mut sink = [0u8; 1024];
    for _ in 0..16 {
        match reader.source.read(&mut sink) {
            Ok(n) if n > 0 => {}
            _ => break,
        }
    }
}
