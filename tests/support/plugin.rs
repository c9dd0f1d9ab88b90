//! Test helpers for the plugin layer: a recording transport (for what the plugin builds),
//! and the loopback HTTP/1.1 server of `support::server` (for what goes on the wire).

use std::sync::{Arc, Mutex};

use httptool::http::{Error, Headers, Request, Response, Transport};
use httptool::plugin::HttpPlugin;
use httptool::tool::{CallContext, ToolCall, ToolOutput, ToolRegistry};

// ---------------------------------------------------------------- recording transport

type Reply = Box<dyn Fn(&Request) -> Response + Send + Sync>;

/// A transport that records every request and answers with a canned response.
pub struct Recorder {
    requests: Mutex<Vec<Request>>,
    reply: Reply,
}

impl Recorder {
    /// Answers `200 OK`, `text/plain`, `ok`.
    pub fn new() -> Arc<Recorder> {
        Recorder::replying(|request| response(request, 200, Some("text/plain"), b"ok"))
    }

    /// Answers with `reply(request)`.
    pub fn replying<F>(reply: F) -> Arc<Recorder>
    where
        F: Fn(&Request) -> Response + Send + Sync + 'static,
    {
        Arc::new(Recorder {
            requests: Mutex::new(Vec::new()),
            reply: Box::new(reply),
        })
    }

    /// The requests sent so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }

    /// The only request sent.
    pub fn only(&self) -> Request {
        let requests = self.requests();
        assert_eq!(requests.len(), 1, "expected exactly one request");
        requests.into_iter().next().unwrap()
    }

    pub fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

impl Transport for Recorder {
    fn send(&self, request: &Request) -> Result<Response, Error> {
        self.requests.lock().unwrap().push(request.clone());
        Ok((self.reply)(request))
    }
}

/// A response to `request` with a status, an optional content type and a body.
pub fn response(
    request: &Request,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> Response {
    let mut headers = Headers::new();
    if let Some(content_type) = content_type {
        headers.append("Content-Type", content_type).unwrap();
    }
    Response::new(status, request.url().clone())
        .with_headers(headers)
        .with_body(body.to_vec())
}

/// A plugin from `json`, sending through `recorder`.
pub fn plugin(json: &str, recorder: &Arc<Recorder>) -> HttpPlugin {
    HttpPlugin::from_json(json)
        .unwrap_or_else(|e| panic!("plugin refused: {}", e))
        .with_transport(recorder.clone())
}

/// One call through a registry holding `plugin`.
pub fn call(plugin: &HttpPlugin, tool: &str, arguments: &str) -> ToolOutput {
    call_with(plugin, tool, arguments, &CallContext::new())
}

/// One call with a context.
pub fn call_with(
    plugin: &HttpPlugin,
    tool: &str,
    arguments: &str,
    context: &CallContext,
) -> ToolOutput {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    registry.call_with(&ToolCall::new("call_1", tool, arguments), context)
}

/// A one-endpoint plugin file: `endpoint` is the endpoint's JSON object without its braces.
pub fn single(base_url: &str, endpoint: &str) -> String {
    format!(
        r#"{{"name": "test", "base_url": "{}", "endpoints": [{{ {} }}]}}"#,
        base_url, endpoint
    )
}

/// The body as text.
pub fn body_text(request: &Request) -> String {
    String::from_utf8(request.body().to_vec()).unwrap()
}

// ---------------------------------------------------------------- loopback server

// The same loopback server the http tests use.
pub use super::server::{Peer, Received, Server};
