//! Benchmarks of the MCP server: `tools/call` round trips through the server against a
//! loopback API (one client in order, and 8 calls in flight), and `tools/list` of 1,000
//! tools. The server runs in process on an in-memory reader and writer, so what is measured
//! is the server and the HTTP call, not a pipe.
//!
//! `cargo bench --bench mcp` runs everything; `cargo bench --bench mcp -- list` runs the
//! measurements whose name contains `list`. Each prints its name, the median over samples,
//! and the spread (lowest and highest sample). `../shared/peers/mcp/fastmcp_calls.py`
//! measures the binary over stdio side by side with FastMCP.

use std::io::{self, BufRead, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Instant;

use httptool::json::{Json, Map};
use httptool::mcp::Server;
use httptool::plugin::HttpPlugin;
use httptool::tool::{CallContext, ToolRegistry, ToolSpec};

type Measurement = (&'static str, fn() -> Sample);

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let measurements: &[Measurement] = &[
        ("mcp/tools_call/sequential", || calls(1)),
        ("mcp/tools_call/8_in_flight", || calls(8)),
        ("mcp/tools_list/1000_tools", list_warm),
        ("mcp/tools_list/1000_tools_first", list_cold),
    ];
    for (name, run) in measurements {
        if filter.as_deref().map_or(true, |f| name.contains(f)) {
            let s = run();
            println!(
                "{:<36} {:>12.1} {} (min {:.1}, max {:.1}, {} samples; sink {})",
                name, s.median, s.unit, s.min, s.max, s.samples, s.sink
            );
        }
    }
}

struct Sample {
    median: f64,
    min: f64,
    max: f64,
    samples: usize,
    unit: &'static str,
    sink: usize,
}

fn summarize(mut values: Vec<f64>, unit: &'static str, sink: usize) -> Sample {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    Sample {
        median: values[values.len() / 2],
        min: values[0],
        max: values[values.len() - 1],
        samples: values.len(),
        unit,
        sink,
    }
}

// ---------------------------------------------------------------- an in-memory session

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

struct Output {
    partial: Vec<u8>,
    lines: Sender<Vec<u8>>,
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut rest = bytes;
        while let Some(at) = rest.iter().position(|&b| b == b'\n') {
            self.partial.extend_from_slice(&rest[..at]);
            let _ = self.lines.send(std::mem::take(&mut self.partial));
            rest = &rest[at + 1..];
        }
        self.partial.extend_from_slice(rest);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Session {
    input: Sender<Vec<u8>>,
    lines: Receiver<Vec<u8>>,
}

impl Session {
    fn start(server: Server, registry: ToolRegistry) -> Session {
        let (input, chunks) = mpsc::channel();
        let (lines_out, lines) = mpsc::channel();
        thread::spawn(move || {
            let reader = Input {
                chunks,
                current: Vec::new(),
                at: 0,
            };
            let writer = Output {
                partial: Vec::new(),
                lines: lines_out,
            };
            server.serve(&registry, reader, writer).expect("serve");
        });
        let session = Session { input, lines };
        session.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#);
        session.recv();
        session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        session
    }

    fn send(&self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.input.send(bytes).expect("server reading");
    }

    fn recv(&self) -> Vec<u8> {
        self.lines.recv().expect("server answering")
    }
}

// ---------------------------------------------------------------- tools/call

const BODY: &str = r#"{"city":"Hangzhou","temp_c":21.5,"condition":"cloudy","days":3}"#;

/// Answers every request on a keep-alive connection with the same JSON response.
fn api(mut stream: TcpStream) {
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        BODY.len(),
        BODY
    );
    let _ = stream.set_nodelay(true);
    let mut buf = vec![0u8; 8192];
    let mut pending = Vec::new();
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        pending.extend_from_slice(&buf[..n]);
        while let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
            pending.drain(..end + 4);
            if stream.write_all(response.as_bytes()).is_err() {
                return;
            }
        }
    }
}

fn weather_registry() -> ToolRegistry {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            thread::spawn(move || api(stream));
        }
    });
    let plugin = HttpPlugin::from_json(&format!(
        r#"{{"name": "weather", "base_url": "{}", "endpoints": [{{
            "name": "get_weather", "path": "/v1/weather",
            "params": [{{"name": "city", "wire_name": "q", "in": "query", "required": true}},
                       {{"name": "days", "in": "query", "type": "integer", "default": 1}}]}}]}}"#,
        base
    ))
    .expect("valid");
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).expect("unique");
    registry
}

fn call_line(id: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"get_weather","arguments":{{"city":"Hangzhou","days":3}}}}}}"#,
        id
    )
}

/// Calls per second with `in_flight` calls outstanding, in samples of 500 calls.
fn calls(in_flight: usize) -> Sample {
    let session = Session::start(Server::new(), weather_registry());
    let mut next_id = 1;
    let mut sink = 0;
    let mut rates = Vec::new();
    let started = Instant::now();
    // One warm-up sample, then samples for about 3 s (at least 5).
    let mut round = 0;
    while round < 6 || (started.elapsed().as_secs() < 3 && round < 100) {
        let per_sample = 500;
        let sample_start = Instant::now();
        let mut sent = 0;
        let mut answered = 0;
        while sent < in_flight.min(per_sample) {
            session.send(&call_line(next_id));
            next_id += 1;
            sent += 1;
        }
        while answered < per_sample {
            let line = session.recv();
            let ok = br#""isError":false"#;
            assert!(
                line.windows(ok.len()).any(|w| w == ok),
                "{}",
                String::from_utf8_lossy(&line)
            );
            sink += line.len();
            answered += 1;
            if sent < per_sample {
                session.send(&call_line(next_id));
                next_id += 1;
                sent += 1;
            }
        }
        if round > 0 {
            rates.push(per_sample as f64 / sample_start.elapsed().as_secs_f64());
        }
        round += 1;
    }
    summarize(rates, "calls/s", sink)
}

// ---------------------------------------------------------------- tools/list

fn thousand_tools() -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    for i in 0..1_000 {
        let schema = httptool::json!({
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": "The id of the thing"},
                "limit": {"type": "integer", "default": 10},
                "tags": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["id"],
            "additionalProperties": false
        });
        let spec = ToolSpec::new(
            format!("tool_{:04}", i),
            "Does one thing to a thing",
            schema,
        )
        .expect("valid");
        registry
            .add_fn(spec, |_: Map, _: &CallContext| Json::Null)
            .expect("unique");
    }
    registry
}

const LIST: &str = r#"{"jsonrpc":"2.0","id":"l","method":"tools/list"}"#;

/// `tools/list` of 1,000 tools on one page, again and again on one session.
fn list_warm() -> Sample {
    let session = Session::start(Server::new().page_size(0), thousand_tools());
    session.send(LIST);
    let mut sink = session.recv().len();
    let mut times = Vec::new();
    for _ in 0..200 {
        let start = Instant::now();
        session.send(LIST);
        sink += session.recv().len();
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    summarize(times, "us", sink)
}

/// The first `tools/list` of a session (every tool rendered then), 1,000 tools.
fn list_cold() -> Sample {
    let registry = thousand_tools();
    let mut sink = 0;
    let mut times = Vec::new();
    for _ in 0..30 {
        let session = Session::start(Server::new().page_size(0), registry.clone());
        let start = Instant::now();
        session.send(LIST);
        sink += session.recv().len();
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    summarize(times, "us", sink)
}
