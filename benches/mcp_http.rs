//! A load generator for MCP over Streamable HTTP: `tools/call` at revision 2026-07-28 through
//! `mcp::HttpTransport` on `http::HttpServer` against a loopback API, with 1, 16 and 64
//! keep-alive connections each sending one call after another for a fixed time. Prints calls
//! a second, the median and p99 latency, and the process's resident memory after each run;
//! first the floor: the same client against the API alone.
//!
//! `cargo bench --bench mcp_http` runs everything; `cargo bench --bench mcp_http -- 64` runs
//! the measurements whose name contains `64`. `HTTPTOOL_BENCH_SECONDS` sets each run's
//! length (default 3).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use httptool::http::{HttpServer, ServerConfig};
use httptool::mcp::{HttpTransport, Server};
use httptool::plugin::HttpPlugin;
use httptool::tool::ToolRegistry;

const BODY: &str = r#"{"city":"Oslo","temp_c":4.5,"wind":{"speed":3.1,"dir":"NW"}}"#;

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let seconds: u64 = std::env::var("HTTPTOOL_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let api = start_api();
    let mcp = start_mcp(api);
    let direct = format!("GET /v1/weather?q=Oslo HTTP/1.1\r\nHost: {}\r\n\r\n", api).into_bytes();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let call = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: get_weather\r\nContent-Length: {}\r\n\r\n{}",
        mcp,
        body.len(),
        body
    )
    .into_bytes();
    for connections in [1usize, 16, 64] {
        let runs: [(String, SocketAddr, &[u8]); 2] = [
            (
                format!("api_alone/{}_connections", connections),
                api,
                &direct,
            ),
            (
                format!("mcp_http/tools_call/{}_connections", connections),
                mcp,
                &call,
            ),
        ];
        for (name, addr, request) in runs {
            if filter.as_deref().map_or(true, |f| name.contains(f)) {
                let (rate, p50, p99) =
                    load(addr, request, connections, Duration::from_secs(seconds));
                println!(
                    "{:<40} {:>10.0} calls/s  p50 {:>7.3} ms  p99 {:>7.3} ms  rss {} KiB",
                    name,
                    rate,
                    p50.as_secs_f64() * 1e3,
                    p99.as_secs_f64() * 1e3,
                    rss_kib()
                );
            }
        }
    }
}

/// A keep-alive loopback API answering every request with [`BODY`].
fn start_api() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        BODY.len(),
        BODY
    );
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let response = response.clone();
            thread::spawn(move || serve_api(stream, response.as_bytes()));
        }
    });
    addr
}

fn serve_api(mut stream: TcpStream, response: &[u8]) {
    let _ = stream.set_nodelay(true);
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    loop {
        // Requests without bodies: each ends with an empty line.
        while let Some(end) = find(&buf, b"\r\n\r\n") {
            buf.drain(..end + 4);
            if stream.write_all(response).is_err() {
                return;
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
}

fn start_mcp(api: SocketAddr) -> SocketAddr {
    let plugin = HttpPlugin::from_json(&format!(
        r#"{{"name":"weather","base_url":"http://{}","endpoints":[{{"name":"get_weather","path":"/v1/weather","params":[{{"name":"city","wire_name":"q","in":"query","required":true}}]}}]}}"#,
        api
    ))
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let transport = HttpTransport::new(Server::new().stateless(Arc::new(registry)));
    let server = HttpServer::bind("127.0.0.1:0", ServerConfig::new()).unwrap();
    let addr = server.local_addr().unwrap();
    thread::spawn(move || transport.serve(&server));
    addr
}

/// `connections` clients, each sending `request` and reading its whole answer, one after
/// another, for `time`: calls a second, median and p99 latency.
fn load(
    addr: SocketAddr,
    request: &[u8],
    connections: usize,
    time: Duration,
) -> (f64, Duration, Duration) {
    let request = Arc::new(request.to_vec());
    let start = Instant::now();
    let until = start + time;
    let workers: Vec<_> = (0..connections)
        .map(|_| {
            let request = request.clone();
            thread::spawn(move || {
                let mut stream = TcpStream::connect(addr).unwrap();
                stream.set_nodelay(true).unwrap();
                let mut latencies = Vec::new();
                let mut buf = Vec::with_capacity(8192);
                while Instant::now() < until {
                    let sent = Instant::now();
                    stream.write_all(&request).unwrap();
                    read_response(&mut stream, &mut buf);
                    latencies.push(sent.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut latencies: Vec<Duration> = workers
        .into_iter()
        .flat_map(|w| w.join().unwrap())
        .collect();
    let elapsed = start.elapsed();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 - 1.0) * q) as usize];
    (
        latencies.len() as f64 / elapsed.as_secs_f64(),
        at(0.5),
        at(0.99),
    )
}

/// Reads one response framed by `Content-Length`, asserting a 200.
fn read_response(stream: &mut TcpStream, buf: &mut Vec<u8>) {
    buf.clear();
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = find(buf, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            assert!(head.starts_with("http/1.1 200"), "{}", head);
            let length: usize = head
                .split("\r\n")
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            while buf.len() < end + 4 + length {
                let n = stream.read(&mut chunk).unwrap();
                assert!(n > 0, "closed mid-body");
                buf.extend_from_slice(&chunk[..n]);
            }
            return;
        }
        let n = stream.read(&mut chunk).unwrap();
        assert!(n > 0, "closed mid-head");
        buf.extend_from_slice(&chunk[..n]);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The process's resident memory (Linux), or 0.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
