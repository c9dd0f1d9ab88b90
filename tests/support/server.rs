//! A loopback HTTP/1.1 test server on `std::net::TcpListener` that does what each test tells
//! it, including misbehaving on purpose.
//!
//! `Server::start(handler)` binds 127.0.0.1 on a free port and runs `handler` on its own thread
//! for each accepted connection. The handler reads requests with [`Peer::read_request`] and
//! writes whatever bytes the test wants. Every request read is recorded.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// A request as the server read it.
#[derive(Clone, Debug)]
pub struct Received {
    pub method: String,
    pub target: String,
    /// The head, request line and fields, as sent.
    pub head: String,
    pub body: Vec<u8>,
    /// Which connection it came on (0 for the first accepted).
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

    /// The head and body, as sent.
    pub fn raw(&self) -> Vec<u8> {
        let mut raw = self.head.clone().into_bytes();
        raw.extend_from_slice(&self.body);
        raw
    }
}

#[derive(Default)]
struct Shared {
    requests: Mutex<Vec<Received>>,
    connections: AtomicUsize,
    stop: AtomicBool,
}

/// One accepted connection, handed to the handler.
pub struct Peer {
    pub stream: TcpStream,
    pub index: usize,
    buf: Vec<u8>,
    shared: Arc<Shared>,
}

impl Peer {
    /// Reads one request (head, and a `Content-Length` body); `None` when the client closed
    /// the connection or sent something unreadable.
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
        let mut chunk = [0u8; 8192];
        match self.stream.read(&mut chunk) {
            Ok(0) | Err(_) => false,
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                true
            }
        }
    }

    /// Writes bytes, ignoring errors (the client may have gone).
    pub fn write(&mut self, bytes: &[u8]) {
        let _ = self.stream.write_all(bytes);
        let _ = self.stream.flush();
    }

    /// Writes a string.
    pub fn send(&mut self, text: &str) {
        self.write(text.as_bytes());
    }

    /// Reads (and drops) whatever comes until the client closes the connection: keeps it open
    /// exactly as long as the client does, where a sleep would guess how long that is.
    pub fn wait_for_close(mut self) {
        while self.fill() {
            self.buf.clear();
        }
    }

    /// Waits until the client has sent something, then closes without reading it: the
    /// kernel answers with a reset, before any response byte.
    pub fn reset(self) {
        let mut byte = [0u8; 1];
        let _ = self.stream.peek(&mut byte);
        drop(self.stream);
    }

    /// Writes a response with a `Content-Length` body.
    pub fn respond(&mut self, status: &str, extra_headers: &str, body: &[u8]) {
        let head = format!(
            "HTTP/1.1 {status}\r\n{extra_headers}Content-Length: {}\r\n\r\n",
            body.len()
        );
        let mut out = head.into_bytes();
        out.extend_from_slice(body);
        self.write(&out);
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A test server; stops accepting when dropped.
pub struct Server {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Server {
    /// Starts a server that runs `handler` for each connection.
    pub fn start<F>(handler: F) -> Server
    where
        F: Fn(Peer) + Send + Sync + 'static,
    {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared::default());
        let handler = Arc::new(handler);
        let accept_shared = shared.clone();
        thread::spawn(move || {
            for stream in listener.incoming() {
                if accept_shared.stop.load(Ordering::SeqCst) {
                    break;
                }
                let stream = match stream {
                    Ok(s) => s,
                    Err(_) => continue,
                };
                let index = accept_shared.connections.fetch_add(1, Ordering::SeqCst);
                let peer = Peer {
                    stream,
                    index,
                    buf: Vec::new(),
                    shared: accept_shared.clone(),
                };
                let handler = handler.clone();
                thread::spawn(move || handler(peer));
            }
        });
        Server { addr, shared }
    }

    /// A keep-alive server answering every request with `respond(request)`'s bytes.
    pub fn replying<F>(respond: F) -> Server
    where
        F: Fn(&Received) -> Vec<u8> + Send + Sync + 'static,
    {
        Server::start(move |mut peer| {
            while let Some(request) = peer.read_request() {
                let reply = respond(&request);
                peer.write(&reply);
            }
        })
    }

    /// A keep-alive server answering each request with `reply(request)`: status (`200 OK`),
    /// extra header lines (each ending in CRLF), body; `Content-Length` is added.
    pub fn responding<F>(reply: F) -> Server
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
        Server::responding(move |_| {
            (
                String::from("200 OK"),
                String::from("Content-Type: application/json\r\n"),
                body.as_bytes().to_vec(),
            )
        })
    }

    /// A keep-alive server answering every request with the same bytes.
    pub fn fixed(reply: &str) -> Server {
        let reply = reply.as_bytes().to_vec();
        Server::replying(move |_| reply.clone())
    }

    /// `http://127.0.0.1:port`.
    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `http://127.0.0.1:port` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
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
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}

/// A `200 OK` with a `Content-Length` body.
pub fn ok(body: &str) -> String {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}
