//! MCP's Streamable HTTP transport, without sessions: each POST is one message answered on
//! its own (MCP 2026-07-28, "Transports", "Streamable HTTP"), so any copy of a server can
//! answer any request.

use std::io::{self, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

use super::consent::{Elicit, Waiting};
use super::http_oauth::{OAuth, Verdict};
use super::rpc::{self, Incoming};
use super::server::{Reply, Sink, Stateless, LATEST_PROTOCOL_VERSION};
use crate::http::{HttpServer, RequestHandler, ServerRequest, ServerResponse};
use crate::json::{Json, ParseOptions};
use crate::tool::CallContext;

/// The path of the MCP endpoint unless told otherwise: `/mcp`.
pub const DEFAULT_HTTP_PATH: &str = "/mcp";

/// The path answered `200 ok` to `GET` for load balancers' health checks: `/healthz`. It
/// needs no token and tells nothing but that the process serves.
pub const HEALTH_PATH: &str = "/healthz";

/// The revision of a request that names none, neither in `_meta` nor in the
/// `MCP-Protocol-Version` header: 2025-03-26, as MCP 2025-06-18 and later say a server may
/// assume for clients older than the header.
const REVISION_WITHOUT_HEADER: &str = "2025-03-26";

/// MCP's Streamable HTTP transport: a [`RequestHandler`] for an
/// [`HttpServer`] that serves a [`Stateless`] at one path
/// (default [`DEFAULT_HTTP_PATH`]), for revision 2026-07-28 and for the clients of
/// 2025-11-25 and before (through `initialize`; no `Mcp-Session-Id` is issued, so none is
/// needed on any later request). Built with the `mcp` and `server` features.
///
/// | request | answer |
/// | --- | --- |
/// | a `Host` that is not the address the connection came in on (or `localhost` on loopback), nor one [`allow_host`](HttpTransport::allow_host) names | `403` |
/// | an `Origin` that [`allow_origin`](HttpTransport::allow_origin) does not name | `403` (DNS rebinding) |
/// | `OPTIONS` (a CORS preflight) from an allowed `Origin` | `204` with the `Access-Control-Allow-*` fields (no token needed) |
/// | no `Authorization: Bearer` with the [`bearer_token`](HttpTransport::bearer_token), when one is set | `401`, `WWW-Authenticate: Bearer` |
/// | with [`oauth`](HttpTransport::oauth): no token, or one the authorization server does not vouch for this resource | `401`, `403` or `503`, as [`OAuth`] says |
/// | `GET` [`HEALTH_PATH`] | `200`, `ok` (no token needed) |
/// | `GET` the Protected Resource Metadata, with [`oauth`](HttpTransport::oauth) | `200`, as [`OAuth::metadata`] (no token needed) |
/// | another path | `404` |
/// | `GET`, `DELETE` or any other method than `POST` at the path | `405`, `Allow: POST` (no stream, no session to end) |
/// | a body that is not `application/json`; an `Accept` that takes neither JSON nor an event stream | `415`; `406` |
/// | not JSON, not one message (a batch) | `400`, -32700 or -32600 |
/// | a 2026-07-28 request whose `MCP-Protocol-Version`, `Mcp-Method` or (for `tools/call`) `Mcp-Name` header is missing or differs from the body | `400`, -32020 (`HeaderMismatch`) |
/// | a revision not spoken | `400`, -32022 |
/// | a 2026-07-28 method not offered | `404`, -32601 |
/// | a notification, or a response | `202`, no body |
/// | a response (the client's answer to `elicitation/create`) | `202`, no body; handed to the call waiting for it in this process |
/// | a `tools/call` before 2026-07-28 from a client that takes a stream | `200`, `text/event-stream` as soon as the call sends something (progress, or `elicitation/create` when it needs the user's approval), each message an event as it is made, the result last; `application/json` when it sends nothing |
/// | any other request | `200`, `application/json`; `text/event-stream` when a call sent progress and the client takes a stream |
///
/// # Security
///
/// The checks above run in that order, before the body is read as JSON. The token is
/// compared in constant time (or checked by introspection) and never reaches a tool: a
/// plugin's upstream credentials are its own (MCP "Authorization" forbids passing the
/// client's token through). A response to an allowed `Origin` carries
/// `Access-Control-Allow-Origin` with that origin (and `Vary: Origin`), never `*`.
///
/// # Examples
///
/// ```no_run
/// use std::sync::Arc;
/// use httptool::http::{HttpServer, ServerConfig};
/// use httptool::mcp::{HttpTransport, Server};
/// use httptool::tool::ToolRegistry;
///
/// let registry = Arc::new(ToolRegistry::new());
/// let transport = HttpTransport::new(Server::new().stateless(registry))
///     .bearer_token("s3cret-from-the-environment");
/// let server = HttpServer::bind("127.0.0.1:8080", ServerConfig::new())?;
/// transport.serve(&server)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone)]
pub struct HttpTransport {
    stateless: Stateless,
    path: String,
    allowed_hosts: Vec<String>,
    allowed_origins: Vec<String>,
    token: Option<String>,
    oauth: Option<Arc<OAuth>>,
    /// Calls waiting for the client's answer to a request sent on their event stream.
    waiting: Arc<Waiting>,
}

impl std::fmt::Debug for HttpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpTransport")
            .field("path", &self.path)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("token", &self.token.as_ref().map(|_| crate::quote::MASK))
            .field("oauth", &self.oauth)
            .finish()
    }
}

impl HttpTransport {
    /// Serves `stateless` at [`DEFAULT_HTTP_PATH`], with no extra host, no origin and no
    /// token.
    #[must_use]
    pub fn new(stateless: Stateless) -> HttpTransport {
        HttpTransport {
            stateless,
            path: DEFAULT_HTTP_PATH.to_string(),
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            token: None,
            oauth: None,
            waiting: Arc::new(Waiting::default()),
        }
    }

    /// The MCP endpoint's path. Defaults to [`DEFAULT_HTTP_PATH`] (`/mcp`).
    #[must_use]
    pub fn path(mut self, path: impl Into<String>) -> HttpTransport {
        self.path = path.into();
        self
    }

    /// A `Host` to accept besides the address the connection came in on: `name:port`, or
    /// `name` for any port (the name a load balancer or proxy sends). Repeatable. Defaults
    /// to none.
    #[must_use]
    pub fn allow_host(mut self, host: impl Into<String>) -> HttpTransport {
        self.allowed_hosts.push(host.into().to_ascii_lowercase());
        self
    }

    /// An `Origin` to accept (`https://app.example.com`); a request with any other `Origin`
    /// is refused. Repeatable. Defaults to none: requests from web pages are refused, those
    /// without `Origin` (every non-browser client) accepted.
    #[must_use]
    pub fn allow_origin(mut self, origin: impl Into<String>) -> HttpTransport {
        let origin = origin.into();
        self.allowed_origins
            .push(origin.trim_end_matches('/').to_ascii_lowercase());
        self
    }

    /// The token every request must carry as `Authorization: Bearer TOKEN`. Defaults to
    /// none (no authentication: only for a server that loopback alone reaches).
    #[must_use]
    pub fn bearer_token(mut self, token: impl Into<String>) -> HttpTransport {
        self.token = Some(token.into());
        self
    }

    /// Protects the endpoint as an OAuth 2.1 resource server: tokens checked by
    /// introspection, metadata served, the caller's identity in each call's context (see
    /// [`OAuth`]). Replaces the [`bearer_token`](HttpTransport::bearer_token). Defaults to
    /// none.
    #[must_use]
    pub fn oauth(mut self, oauth: OAuth) -> HttpTransport {
        self.oauth = Some(Arc::new(oauth));
        self
    }

    /// Serves on `server` until its listening socket fails.
    ///
    /// # Errors
    ///
    /// As [`HttpServer::serve`].
    pub fn serve(self, server: &HttpServer) -> io::Result<()> {
        server.serve_shared(Arc::new(self))
    }

    fn host_allowed(&self, request: &ServerRequest) -> bool {
        let host = match request.header("host") {
            Some(host) => host.to_ascii_lowercase(),
            // HTTP/1.0 without Host: nothing to rebind.
            None => return true,
        };
        let (name, port) = split_host(&host);
        for allowed in &self.allowed_hosts {
            if *allowed == host || (!allowed.contains(':') && *allowed == name) {
                return true;
            }
            if allowed.starts_with('[') && !allowed.contains("]:") && *allowed == name {
                return true;
            }
        }
        let local = match request.local_addr() {
            Some(local) => local,
            None => return false,
        };
        if port != Some(local.port()) {
            return false;
        }
        let ip = local.ip();
        let literal = match ip {
            std::net::IpAddr::V4(v4) => v4.to_string(),
            std::net::IpAddr::V6(v6) => format!("[{}]", v6),
        };
        if name == literal {
            return true;
        }
        let loopback = match ip {
            std::net::IpAddr::V4(v4) => v4.is_loopback(),
            std::net::IpAddr::V6(v6) => {
                v6.is_loopback() || v6.to_ipv4_mapped().map_or(false, |v4| v4.is_loopback())
            }
        };
        loopback && matches!(name, "localhost" | "127.0.0.1" | "[::1]")
    }

    fn origin_allowed(&self, request: &ServerRequest) -> bool {
        match request.header("origin") {
            None => true,
            Some(origin) => {
                let origin = origin.trim_end_matches('/').to_ascii_lowercase();
                self.allowed_origins.contains(&origin)
            }
        }
    }

    /// Who calls, when the request may go on: the context of its call (`None`: the
    /// server's own); else the refusal.
    fn authorized(&self, request: &ServerRequest) -> Result<Option<CallContext>, ServerResponse> {
        let given = bearer(request);
        if let Some(oauth) = &self.oauth {
            return match oauth.check(given) {
                Verdict::Valid(caller) => Ok(Some(
                    caller.context(self.stateless.server().call_context()),
                )),
                // RFC 6750 section 3.1: no credentials, no error code.
                Verdict::Missing => Err(plain(
                    401,
                    "this server needs an OAuth access token (Authorization: Bearer ...); see WWW-Authenticate\n",
                )
                .header("WWW-Authenticate", &oauth.challenge(None))),
                Verdict::Invalid(why) => Err(plain(401, &format!("{}\n", why)).header(
                    "WWW-Authenticate",
                    &oauth.challenge(Some(("invalid_token", why))),
                )),
                Verdict::InsufficientScope => Err(plain(
                    403,
                    "the token lacks a scope this server requires; see WWW-Authenticate\n",
                )
                .header(
                    "WWW-Authenticate",
                    &oauth.challenge(Some((
                        "insufficient_scope",
                        "the token lacks a required scope",
                    ))),
                )),
                // Not the client's fault: a 401 would send it to log in again for nothing.
                Verdict::Unavailable(why) => Err(plain(
                    503,
                    &format!("cannot check the token now ({}); try again shortly\n", why),
                )
                .header("Retry-After", "5")),
            };
        }
        let token = match &self.token {
            Some(token) => token,
            None => return Ok(None),
        };
        match given {
            Some(given) if constant_time_eq(given.as_bytes(), token.as_bytes()) => Ok(None),
            // RFC 6750 section 3: no credentials, no error code; wrong ones, invalid_token.
            Some(_) => Err(plain(401, "the bearer token is not valid\n").header(
                "WWW-Authenticate",
                "Bearer realm=\"mcp\", error=\"invalid_token\"",
            )),
            None => Err(plain(
                401,
                "this server needs a bearer token (Authorization: Bearer ...)\n",
            )
            .header("WWW-Authenticate", "Bearer realm=\"mcp\"")),
        }
    }

    fn post(&self, request: &ServerRequest, context: Option<CallContext>) -> ServerResponse {
        let content_type = request.header("content-type").unwrap_or("");
        if !media_is(content_type, "application/json") {
            return plain(
                415,
                "the body must be application/json: one JSON-RPC message\n",
            );
        }
        let accept = request.header("accept");
        let stream_ok = accept.map_or(false, |a| accepts(a, "text/event-stream"));
        if let Some(accept) = accept {
            if !accepts(accept, "application/json") && !stream_ok {
                return plain(
                    406,
                    "the answer is application/json or text/event-stream; Accept takes neither\n",
                );
            }
        }
        let message = match ParseOptions::new()
            .reject_duplicate_keys(true)
            .parse_bytes(request.body())
        {
            Ok(message) => message,
            Err(e) => {
                return rpc_error(
                    400,
                    rpc::PARSE_ERROR,
                    &format!("parse error: the message is not JSON: {}", e),
                )
            }
        };
        if message.is_array() {
            return rpc_error(
                400,
                rpc::INVALID_REQUEST,
                "invalid request: one message a POST; batches are not taken over HTTP",
            );
        }
        let header_version = request.header("mcp-protocol-version");
        let method = message.get("method").and_then(Json::as_str);
        let meta_version = message
            .get("params")
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
            .and_then(Json::as_str);
        let modern = meta_version.is_some() && method != Some("initialize");
        if modern {
            if let Err(mismatch) = check_headers(request, &message, header_version, meta_version) {
                return rpc_error(400, rpc::HEADER_MISMATCH, &mismatch);
            }
        } else if method.is_some()
            && method != Some("initialize")
            && message.get("id").is_some()
            && header_version == Some(LATEST_PROTOCOL_VERSION)
        {
            return rpc_error(
                400,
                rpc::HEADER_MISMATCH,
                "header mismatch: MCP-Protocol-Version is 2026-07-28 but _meta names no \"io.modelcontextprotocol/protocolVersion\"",
            );
        }
        let revision = header_version.unwrap_or(REVISION_WITHOUT_HEADER);
        if method.is_none() && message.get("id").is_some() {
            // The client's answer to a request of ours, sent on a call's event stream.
            if let Incoming::Response { id, answer } = rpc::message(message) {
                self.waiting.deliver(&id, answer);
            }
            return ServerResponse::new(202);
        }
        if stream_ok && !modern && method == Some("tools/call") {
            return self.call_streaming(message, revision, context);
        }
        let reply = self.stateless.answer_with(message, revision, context);
        self.respond(reply, modern, stream_ok)
    }

    /// A `tools/call` before revision 2026-07-28 from a client that takes an event stream:
    /// run on a thread of its own, so that the first message it sends the client (a
    /// progress notification, or `elicitation/create` when the call needs the user's
    /// approval) opens a `text/event-stream` answer, on which every later message and the
    /// result follow (MCP 2025-11-25, "Streamable HTTP", "Sending Messages to the Server").
    /// The client's answer to `elicitation/create` arrives as a POST of its own and is handed
    /// to the waiting call (in this process: behind a load balancer, route a client to one
    /// process, or use 2026-07-28). A call that sends nothing gets a plain JSON answer.
    fn call_streaming(
        &self,
        message: Json,
        revision: &str,
        context: Option<CallContext>,
    ) -> ServerResponse {
        enum Event {
            Line(String),
            Done(Reply),
        }
        let (events, received) = mpsc::channel::<Event>();
        let stateless = self.stateless.clone();
        let waiting = self.waiting.clone();
        let revision_owned = revision.to_string();
        let sender = Mutex::new(events.clone());
        let sink: Sink = Arc::new(move |line: String| {
            let _ = sender
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .send(Event::Line(line));
        });
        let started = thread::Builder::new()
            .name(String::from("httptool-mcp-call"))
            .spawn(move || {
                let server = stateless.server();
                let ask = sink.clone();
                let elicit = Elicit {
                    send: Mutex::new(Box::new(move |line| ask(line))),
                    waiting,
                    timeout: server.elicitation_wait(),
                    with_mode: revision_owned == "2025-11-25",
                };
                let context = context
                    .unwrap_or_else(|| server.call_context().clone())
                    .with_approver(Arc::new(elicit));
                let reply =
                    stateless.answer_live(message, &revision_owned, Some(context), Some(sink));
                let _ = events.send(Event::Done(reply));
            });
        if started.is_err() {
            return rpc_error(
                500,
                rpc::INTERNAL_ERROR,
                "internal error: the server could not start a thread for the call",
            );
        }
        let first = match received.recv() {
            Ok(Event::Done(reply)) => return self.respond(reply, false, true),
            Ok(Event::Line(line)) => line,
            Err(_) => {
                return rpc_error(
                    500,
                    rpc::INTERNAL_ERROR,
                    "internal error: the call ended unanswered",
                )
            }
        };
        let write = move |out: &mut dyn Write| -> io::Result<()> {
            write_event(out, &first)?;
            for event in received {
                match event {
                    Event::Line(line) => write_event(out, &line)?,
                    Event::Done(reply) => {
                        for line in reply.notifications() {
                            write_event(out, line)?;
                        }
                        if let Some(text) = reply.text() {
                            write_event(out, text)?;
                        }
                        return Ok(());
                    }
                }
            }
            Ok(())
        };
        ServerResponse::streaming(200, "text/event-stream", Box::new(write))
            .header("Cache-Control", "no-cache")
            .header("X-Accel-Buffering", "no")
    }

    /// The HTTP answer of a reply: its status, and an event stream when it holds
    /// notifications and the client takes one.
    fn respond(&self, reply: Reply, modern: bool, stream_ok: bool) -> ServerResponse {
        let code = reply.error_code();
        let notifications = reply.notifications().to_vec();
        let text = match reply.into_text() {
            Some(text) => text,
            // MCP: a notification or response accepted is 202 with no body.
            None => return ServerResponse::new(202),
        };
        let status = match code {
            Some(rpc::PARSE_ERROR)
            | Some(rpc::INVALID_REQUEST)
            | Some(rpc::UNSUPPORTED_PROTOCOL_VERSION)
            | Some(rpc::HEADER_MISMATCH) => 400,
            Some(rpc::METHOD_NOT_FOUND) if modern => 404,
            _ => 200,
        };
        if !notifications.is_empty() && stream_ok && status == 200 {
            // Server-Sent Events: the call's notifications, then its answer.
            let mut body = String::with_capacity(text.len() + 64);
            for line in notifications.iter().chain(std::iter::once(&text)) {
                body.push_str("event: message\ndata: ");
                body.push_str(line);
                body.push_str("\n\n");
            }
            return ServerResponse::with_content(200, "text/event-stream", body.into_bytes())
                .header("Cache-Control", "no-cache")
                .header("X-Accel-Buffering", "no");
        }
        ServerResponse::with_content(status, "application/json", text.into_bytes())
    }
}

impl RequestHandler for HttpTransport {
    fn handle(&self, request: &ServerRequest) -> ServerResponse {
        let response = self.route(request);
        // CORS (Fetch standard, "HTTP responses"): an allowed page may read the answer.
        match request.header("origin") {
            Some(origin) if self.origin_allowed(request) => response
                .header("Access-Control-Allow-Origin", origin)
                .header(
                    "Access-Control-Expose-Headers",
                    "WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version",
                )
                .header("Vary", "Origin"),
            _ => response,
        }
    }
}

impl HttpTransport {
    fn route(&self, request: &ServerRequest) -> ServerResponse {
        if !self.host_allowed(request) {
            return plain(
                403,
                "this server does not answer to that Host; add it with --allow-host\n",
            );
        }
        let path = request.path();
        if path == HEALTH_PATH && matches!(request.method(), "GET" | "HEAD") {
            return plain(200, "ok\n");
        }
        let metadata = match &self.oauth {
            Some(oauth) if oauth.is_metadata_path(path, &self.path) => Some(oauth),
            _ => None,
        };
        if path != self.path && metadata.is_none() {
            return plain(404, "not found\n");
        }
        if !self.origin_allowed(request) {
            // MCP "Streamable HTTP", "Security": an invalid Origin is 403, its body may be a
            // JSON-RPC error without an id.
            return rpc_error(
                403,
                rpc::INVALID_REQUEST,
                "forbidden: this server does not answer pages of that Origin",
            );
        }
        if request.method() == "OPTIONS" && request.header("origin").is_some() {
            return preflight(metadata.is_some());
        }
        if let Some(oauth) = metadata {
            if !matches!(request.method(), "GET" | "HEAD") {
                return plain(405, "the metadata is read with GET\n").header("Allow", "GET");
            }
            return ServerResponse::with_content(
                200,
                "application/json",
                oauth.metadata().to_string().into_bytes(),
            )
            .header("Cache-Control", "max-age=300");
        }
        let context = match self.authorized(request) {
            Ok(context) => context,
            Err(refused) => return refused,
        };
        if request.method() != "POST" {
            // No stream to open with GET, no session to end with DELETE.
            return plain(405, "the MCP endpoint takes POST\n").header("Allow", "POST");
        }
        self.post(request, context)
    }
}

/// The answer to a CORS preflight from an allowed origin: what the page may send.
fn preflight(metadata: bool) -> ServerResponse {
    let methods = if metadata { "GET" } else { "POST" };
    ServerResponse::new(204)
        .header("Access-Control-Allow-Methods", methods)
        .header(
            "Access-Control-Allow-Headers",
            "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID",
        )
        .header("Access-Control-Max-Age", "600")
}

/// The token of `Authorization: Bearer TOKEN` (RFC 6750 section 2.1), if there is one.
fn bearer(request: &ServerRequest) -> Option<&str> {
    request
        .headers()
        .get_all("authorization")
        .find_map(|value| {
            let (scheme, rest) = value.split_once(' ')?;
            if scheme.eq_ignore_ascii_case("bearer") {
                Some(rest.trim())
            } else {
                None
            }
        })
}

/// One Server-Sent Event of type `message` holding one JSON-RPC message (a message is one
/// line of JSON: no line break can end the event early).
fn write_event(out: &mut dyn Write, line: &str) -> io::Result<()> {
    let mut event = String::with_capacity(line.len() + 24);
    event.push_str("event: message\ndata: ");
    event.push_str(line);
    event.push_str("\n\n");
    out.write_all(event.as_bytes())
}

/// MCP 2026-07-28, "Streamable HTTP", "Server Validation": the headers mirror the body.
fn check_headers(
    request: &ServerRequest,
    message: &Json,
    header_version: Option<&str>,
    meta_version: Option<&str>,
) -> Result<(), String> {
    match header_version {
        None => return Err("header mismatch: MCP-Protocol-Version is missing".to_string()),
        Some(v) if Some(v) != meta_version => {
            return Err(
                "header mismatch: MCP-Protocol-Version differs from _meta \"io.modelcontextprotocol/protocolVersion\""
                    .to_string(),
            )
        }
        Some(_) => {}
    }
    let method = message.get("method").and_then(Json::as_str).unwrap_or("");
    match request.header("mcp-method") {
        None => return Err("header mismatch: Mcp-Method is missing".to_string()),
        Some(m) if m != method => {
            return Err("header mismatch: Mcp-Method differs from the body's method".to_string())
        }
        Some(_) => {}
    }
    if method == "tools/call" {
        let name = message
            .get("params")
            .and_then(|p| p.get("name"))
            .and_then(Json::as_str);
        let header = request.header("mcp-name").map(decode_header_value);
        match (header, name) {
            (None, _) => return Err("header mismatch: Mcp-Name is missing".to_string()),
            (Some(None), _) => {
                return Err("header mismatch: Mcp-Name is not valid base64".to_string())
            }
            (Some(Some(h)), Some(n)) if h == n => {}
            (Some(Some(_)), _) => {
                return Err("header mismatch: Mcp-Name differs from the body's name".to_string())
            }
        }
    }
    Ok(())
}

/// A header value as sent, or decoded from `=?base64?...?=` (MCP 2026-07-28, "Value
/// Encoding"); `None` for a sentinel that does not decode to UTF-8.
fn decode_header_value(value: &str) -> Option<String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        Some(encoded) => String::from_utf8(crate::http::base64_decode(encoded)?).ok(),
        None => Some(value.to_string()),
    }
}

/// `host` and its port, from a `Host` value (`[::1]:80`, `name:80`, `name`).
fn split_host(host: &str) -> (&str, Option<u16>) {
    let colon = if host.starts_with('[') {
        host.find("]:").map(|i| i + 1)
    } else {
        host.rfind(':')
    };
    match colon {
        Some(at) => match host[at + 1..].parse() {
            Ok(port) => (&host[..at], Some(port)),
            Err(_) => (host, None),
        },
        None => (host, None),
    }
}

/// Whether a `Content-Type` is `media` (parameters ignored).
fn media_is(value: &str, media: &str) -> bool {
    value
        .split(';')
        .next()
        .map_or(false, |m| m.trim().eq_ignore_ascii_case(media))
}

/// Whether an `Accept` list takes `media` (or `*/*`, or `type/*`), quality 0 excluded.
fn accepts(accept: &str, media: &str) -> bool {
    let kind = media.split('/').next().unwrap_or("");
    accept.split(',').any(|range| {
        let mut parts = range.split(';');
        let name = parts.next().unwrap_or("").trim();
        let refused = parts.any(|p| {
            let p = p.trim();
            p.eq_ignore_ascii_case("q=0") || p == "q=0.0" || p == "q=0.00" || p == "q=0.000"
        });
        let matches = name == "*/*"
            || name.eq_ignore_ascii_case(media)
            || name
                .strip_suffix("/*")
                .map_or(false, |t| t.eq_ignore_ascii_case(kind));
        matches && !refused
    })
}

/// Compares without stopping at the first difference, so the time taken says nothing of
/// how much of a guess was right.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut diff = a.len() ^ b.len();
    for (i, &x) in a.iter().enumerate() {
        let y = b.get(i % b.len().max(1)).copied().unwrap_or(0);
        diff |= usize::from(x ^ y);
    }
    diff == 0
}

fn plain(status: u16, text: &str) -> ServerResponse {
    ServerResponse::with_content(
        status,
        "text/plain; charset=utf-8",
        text.as_bytes().to_vec(),
    )
}

/// A JSON-RPC error without an id, with an HTTP status.
fn rpc_error(status: u16, code: i64, message: &str) -> ServerResponse {
    ServerResponse::with_content(
        status,
        "application/json",
        rpc::error(&Json::Null, code, message).into_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_split() {
        assert_eq!(split_host("localhost:8080"), ("localhost", Some(8080)));
        assert_eq!(split_host("[::1]:9"), ("[::1]", Some(9)));
        assert_eq!(split_host("[::1]"), ("[::1]", None));
        assert_eq!(split_host("example.com"), ("example.com", None));
        assert_eq!(split_host("example.com:x"), ("example.com:x", None));
    }

    #[test]
    fn accept_lists() {
        assert!(accepts(
            "application/json, text/event-stream",
            "text/event-stream"
        ));
        assert!(accepts("*/*", "application/json"));
        assert!(accepts("application/*", "application/json"));
        assert!(!accepts("text/html", "application/json"));
        assert!(!accepts("application/json;q=0", "application/json"));
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"abcd"));
        assert!(!constant_time_eq(b"", b"a"));
        assert!(constant_time_eq(b"", b""));
    }

    #[test]
    fn header_values_decode() {
        assert_eq!(
            decode_header_value("get_weather").as_deref(),
            Some("get_weather")
        );
        assert_eq!(
            decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=").as_deref(),
            Some("Hello, 世界")
        );
        assert_eq!(decode_header_value("=?base64?//79?="), None);
    }
}
