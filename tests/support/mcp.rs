//! Test helpers for the MCP server: a session driven through an in-memory reader and
//! writer, and a gate that holds a loopback endpoint's answer until the test opens it.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use httptool::json::{self, Json};
use httptool::mcp::{self, Server};
use httptool::tool::ToolRegistry;

/// A guard against a test waiting forever on a server bug; never a timing assertion.
const STUCK: Duration = Duration::from_secs(30);

/// The server's input: bytes the test sends, read as they come; the end when the test
/// closes it.
struct Input {
    chunks: Receiver<Vec<u8>>,
    current: Vec<u8>,
    at: usize,
}

impl Read for Input {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at >= self.current.len() {
            match self.chunks.recv() {
                Ok(chunk) => {
                    self.current = chunk;
                    self.at = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.current[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at += n;
    }
}

/// The server's output: every line, as it is completed, to the test.
struct Output {
    partial: Vec<u8>,
    lines: Sender<Vec<u8>>,
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        for &b in bytes {
            if b == b'\n' {
                let line = std::mem::take(&mut self.partial);
                let _ = self.lines.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A server running on its own thread, talked to line by line.
pub struct Session {
    input: Option<Sender<Vec<u8>>>,
    lines: Receiver<Vec<u8>>,
    /// Messages read while waiting for another one.
    stash: VecDeque<Json>,
    handle: Option<JoinHandle<Result<(), mcp::Error>>>,
}

impl Session {
    pub fn start(server: Server, registry: ToolRegistry) -> Session {
        let (input, chunks) = mpsc::channel();
        let (lines_out, lines) = mpsc::channel();
        let handle = thread::spawn(move || {
            let reader = Input {
                chunks,
                current: Vec::new(),
                at: 0,
            };
            let writer = Output {
                partial: Vec::new(),
                lines: lines_out,
            };
            server.serve(&registry, reader, writer)
        });
        Session {
            input: Some(input),
            lines,
            stash: VecDeque::new(),
            handle: Some(handle),
        }
    }

    /// A session already initialized with revision 2025-11-25.
    pub fn ready(server: Server, registry: ToolRegistry) -> Session {
        let mut session = Session::start(server, registry);
        let answer = session.initialize("2025-11-25");
        assert_eq!(
            answer["result"]["protocolVersion"],
            Json::from("2025-11-25")
        );
        session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        session
    }

    /// Sends `initialize` asking for `version` and returns the answer.
    pub fn initialize(&mut self, version: &str) -> Json {
        let params = httptool::json!({
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}
        });
        self.request(Json::from("init"), "initialize", params)
    }

    /// Sends bytes as they are.
    pub fn send_bytes(&self, bytes: Vec<u8>) {
        self.input
            .as_ref()
            .expect("input open")
            .send(bytes)
            .expect("server reading");
    }

    /// Sends one line.
    pub fn send(&self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_bytes(bytes);
    }

    /// Sends a request with `params`.
    pub fn send_request(&self, id: Json, method: &str, params: Json) {
        let message =
            httptool::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(&message.to_string());
    }

    /// The next message the server wrote, whatever it is.
    pub fn next(&mut self) -> Json {
        if let Some(message) = self.stash.pop_front() {
            return message;
        }
        self.read_line()
    }

    fn read_line(&mut self) -> Json {
        let line = self
            .lines
            .recv_timeout(STUCK)
            .expect("the server wrote nothing");
        json::parse_bytes(&line)
            .unwrap_or_else(|e| panic!("not JSON ({}): {}", e, String::from_utf8_lossy(&line)))
    }

    /// The next message that answers `id`; other messages are kept for `next`.
    pub fn answer(&mut self, id: &Json) -> Json {
        if let Some(at) = self.stash.iter().position(|m| m.get("id") == Some(id)) {
            return self.stash.remove(at).unwrap();
        }
        loop {
            let message = self.read_line();
            if message.get("id") == Some(id) {
                return message;
            }
            self.stash.push_back(message);
        }
    }

    /// Sends a request and waits for its answer.
    pub fn request(&mut self, id: Json, method: &str, params: Json) -> Json {
        self.send_request(id.clone(), method, params);
        self.answer(&id)
    }

    /// Calls a tool and returns the answer.
    pub fn call(&mut self, id: Json, tool: &str, arguments: Json) -> Json {
        self.request(
            id,
            "tools/call",
            httptool::json!({"name": tool, "arguments": arguments}),
        )
    }

    /// Pings and checks the answer: proof the server is still serving.
    pub fn ping(&mut self, id: &str) {
        let answer = self.request(Json::from(id), "ping", Json::Null);
        assert_eq!(answer["result"], httptool::json!({}), "{}", answer);
    }

    /// Messages already read and kept.
    pub fn stashed(&self) -> usize {
        self.stash.len()
    }

    /// Ends the input and waits for the server to return.
    pub fn close(mut self) -> (Result<(), mcp::Error>, Vec<Json>) {
        self.input = None;
        let result = self
            .handle
            .take()
            .expect("running")
            .join()
            .expect("the server thread panicked");
        let mut rest: Vec<Json> = self.stash.drain(..).collect();
        while let Ok(line) = self.lines.try_recv() {
            rest.push(json::parse_bytes(&line).expect("JSON"));
        }
        (result, rest)
    }
}

/// The JSON-RPC error code of an answer.
pub fn code(answer: &Json) -> i64 {
    answer["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("not an error: {}", answer))
}

/// A gate a loopback handler waits at until the test opens it.
#[derive(Clone, Default)]
pub struct Gate {
    state: Arc<(Mutex<GateState>, Condvar)>,
}

#[derive(Default)]
struct GateState {
    open: bool,
    waiting: usize,
}

impl Gate {
    pub fn new() -> Gate {
        Gate::default()
    }

    /// Blocks until the gate is open.
    pub fn wait(&self) {
        let (lock, signal) = &*self.state;
        let mut state = lock.lock().unwrap();
        state.waiting += 1;
        signal.notify_all();
        while !state.open {
            state = signal.wait(state).unwrap();
        }
    }

    /// Blocks until `n` handlers are waiting at the gate.
    pub fn until_waiting(&self, n: usize) {
        let (lock, signal) = &*self.state;
        let mut state = lock.lock().unwrap();
        while state.waiting < n {
            let (next, timeout) = signal.wait_timeout(state, STUCK).unwrap();
            assert!(!timeout.timed_out(), "nobody came to the gate");
            state = next;
        }
    }

    pub fn open(&self) {
        let (lock, signal) = &*self.state;
        lock.lock().unwrap().open = true;
        signal.notify_all();
    }
}
