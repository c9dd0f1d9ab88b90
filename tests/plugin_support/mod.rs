//! Test helpers for the plugin layer: a recording transport (for what the plugin builds),
//! and a loopback HTTP/1.1 server on `std::net::TcpListener` (for what goes on the wire).

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

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

/// A request as the server read it.
#[derive(Clone, Debug)]
pub struct Received {
    pub method: String,
    pub target: String,
    pub head: String,
    pub body: Vec<u8>,
    pub connection: usize,
}

impl Received {
    /// The first value of header `name`.
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.split("\r\n").skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }
}

#[derive(Default)]
struct Shared {
    requests: Mutex<Vec<Received>>,
    connections: AtomicUsize,
    stop: AtomicBool,
}

/// One accepted connection.
pub struct Peer {
    pub stream: TcpStream,
    pub index: usize,
    buf: Vec<u8>,
    shared: Arc<Shared>,
}

impl Peer {
    /// Reads one request (head and `Content-Length` body); `None` when the client closed.
    pub fn read_request(&mut self) -> Option<Received> {
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i + 4;
            }
            if !self.fill() {
                return None;
            }
        };
        let head = String::from_utf8(self.buf[..head_end].to_vec()).ok()?;
        let mut line = head.split("\r\n").next()?.split(' ');
        let method = line.next()?.to_string();
        let target = line.next()?.to_string();
        let mut received = Received {
            method,
            target,
            head,
            body: Vec::new(),
            connection: self.index,
        };
        let length: usize = received
            .header("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        while self.buf.len() < head_end + length {
            if !self.fill() {
                return None;
            }
        }
        received.body = self.buf[head_end..head_end + length].to_vec();
        self.buf.drain(..head_end + length);
        self.shared.requests.lock().unwrap().push(received.clone());
        Some(received)
    }

    fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 16384];
        match self.stream.read(&mut chunk) {
            Ok(0) | Err(_) => false,
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                true
            }
        }
    }

    /// Writes a response with a `Content-Length` body.
    pub fn respond(&mut self, status: &str, headers: &str, body: &[u8]) {
        let mut out = format!(
            "HTTP/1.1 {}\r\n{}Content-Length: {}\r\n\r\n",
            status,
            headers,
            body.len()
        )
        .into_bytes();
        out.extend_from_slice(body);
        let _ = self.stream.write_all(&out);
    }

    /// Waits until the client has sent something, then closes without reading it: the
    /// kernel answers with a reset, before any response byte.
    pub fn reset(self) {
        let mut byte = [0u8; 1];
        let _ = self.stream.peek(&mut byte);
        drop(self.stream);
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A loopback server; stops accepting when dropped.
pub struct Server {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Server {
    /// Runs `handler` on its own thread for each accepted connection.
    pub fn start<F>(handler: F) -> Server
    where
        F: Fn(Peer) + Send + Sync + 'static,
    {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared::default());
        let handler = Arc::new(handler);
        let accept = shared.clone();
        thread::spawn(move || {
            for stream in listener.incoming() {
                if accept.stop.load(Ordering::SeqCst) {
                    break;
                }
                let stream = match stream {
                    Ok(s) => s,
                    Err(_) => continue,
                };
                let index = accept.connections.fetch_add(1, Ordering::SeqCst);
                let peer = Peer {
                    stream,
                    index,
                    buf: Vec::new(),
                    shared: accept.clone(),
                };
                let handler = handler.clone();
                thread::spawn(move || handler(peer));
            }
        });
        Server { addr, shared }
    }

    /// A keep-alive server answering each request with `reply(request)`: status line,
    /// extra header lines, body.
    pub fn replying<F>(reply: F) -> Server
    where
        F: Fn(&Received) -> (String, String, Vec<u8>) + Send + Sync + 'static,
    {
        Server::start(move |mut peer| {
            while let Some(request) = peer.read_request() {
                let (status, headers, body) = reply(&request);
                peer.respond(&status, &headers, &body);
            }
        })
    }

    /// A keep-alive server answering every request `200 OK` with a JSON body.
    pub fn json(body: &'static str) -> Server {
        Server::replying(move |_| {
            (
                String::from("200 OK"),
                String::from("Content-Type: application/json\r\n"),
                body.as_bytes().to_vec(),
            )
        })
    }

    /// `http://127.0.0.1:port`.
    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The requests read so far.
    pub fn requests(&self) -> Vec<Received> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}
