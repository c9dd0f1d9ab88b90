//! A load generator for MCP over Streamable HTTP: `tools/call` at revision 2026-07-28 through
//! `mcp::HttpTransport` on `http::HttpServer` against a loopback API, with 1, 16 and 64
//! keep-alive connections each sending one call after another for a fixed time. Prints calls
//! a second, the median and p99 latency, and the process's resident memory after each run;
//! first the floor: the same client against the API alone.
//!
//! With `HTTPTOOL_BENCH_FASTMCP` naming a Python that has FastMCP (the peers' venv,
//! `/tmp/fastmcp-venv/bin/python`), the same load goes in the same run to FastMCP serving the
//! same loopback API over its own Streamable HTTP (stateless, JSON answers:
//! `benches/support/fastmcp_http.py`, a process of its own, whose resident memory is printed).
//! Ours is measured twice: served in this process (`mcp_http`, whose `rss` also holds the load
//! generator and the API) and as `httptool serve --http` in a process of its own
//! (`serve_http`, built with the `cli` feature; its `rss` is the server's alone).
//!
//! `cargo bench --bench mcp_http` runs everything; `cargo bench --bench mcp_http -- 64` runs
//! the measurements whose name contains `64`. `HTTPTOOL_BENCH_SECONDS` sets each run's
//! length (default 3).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
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
    let call_to = |addr: SocketAddr| {
        format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: get_weather\r\nContent-Length: {}\r\n\r\n{}",
            addr,
            body.len(),
            body
        )
        .into_bytes()
    };
    let call = call_to(mcp);
    let process = option_env!("CARGO_BIN_EXE_httptool").map(|bin| Peer::serve(bin, api));
    let process_call = process.as_ref().map(|peer| call_to(peer.addr));
    let fastmcp = std::env::var("HTTPTOOL_BENCH_FASTMCP")
        .ok()
        .map(|python| Peer::start(&python, api));
    let fastmcp_call = fastmcp.as_ref().map(|peer| call_to(peer.addr));
    let peers: Vec<(&str, &Peer, &Vec<u8>)> = [
        ("fastmcp_http", fastmcp.as_ref(), fastmcp_call.as_ref()),
        ("serve_http", process.as_ref(), process_call.as_ref()),
    ]
    .into_iter()
    .filter_map(|(name, peer, call)| Some((name, peer?, call?)))
    .collect();
    let probes = std::iter::once((mcp, &call)).chain(peers.iter().map(|(_, p, c)| (p.addr, *c)));
    for (addr, request) in probes {
        let answer = exchange_once(addr, request);
        assert!(
            answer.contains("Oslo") && !answer.contains("\"isError\":true"),
            "{}",
            answer
        );
    }
    for connections in [1usize, 16, 64] {
        for (peer_name, peer, request) in &peers {
            let name = format!("{}/tools_call/{}_connections", peer_name, connections);
            if filter.as_deref().map_or(true, |f| name.contains(f)) {
                let (rate, p50, p99) = load(
                    peer.addr,
                    request,
                    connections,
                    Duration::from_secs(seconds),
                );
                println!(
                    "{:<40} {:>10.0} calls/s  p50 {:>7.3} ms  p99 {:>7.3} ms  rss {} KiB",
                    name,
                    rate,
                    p50.as_secs_f64() * 1e3,
                    p99.as_secs_f64() * 1e3,
                    peer.rss_kib()
                );
            }
        }
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

/// FastMCP over Streamable HTTP in a process of its own.
struct Peer {
    child: Child,
    addr: SocketAddr,
    /// A file to remove when the peer stops.
    file: Option<std::path::PathBuf>,
}

impl Peer {
    fn start(python: &str, api: SocketAddr) -> Peer {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benches/support/fastmcp_http.py"
        );
        let child = Command::new(python)
            .args([script, &format!("http://{}", api), &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("run HTTPTOOL_BENCH_FASTMCP");
        let addr: SocketAddr = format!("127.0.0.1:{}", port).parse().unwrap();
        let until = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(addr).is_err() {
            assert!(Instant::now() < until, "FastMCP did not listen");
            thread::sleep(Duration::from_millis(100));
        }
        Peer {
            child,
            addr,
            file: None,
        }
    }

    /// `httptool serve PLUGIN --http PORT` with a plugin of `api`'s weather endpoint.
    fn serve(bin: &str, api: SocketAddr) -> Peer {
        let plugin =
            std::env::temp_dir().join(format!("httptool-bench-{}.json", std::process::id()));
        std::fs::write(&plugin, plugin_json(api)).unwrap();
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(bin)
            .args([
                "serve",
                plugin.to_str().unwrap(),
                "--http",
                &port.to_string(),
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .env_remove("HTTPTOOL_MCP_TOKEN")
            .spawn()
            .expect("run httptool serve --http");
        let addr: SocketAddr = format!("127.0.0.1:{}", port).parse().unwrap();
        let until = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(addr).is_err() {
            assert!(
                Instant::now() < until,
                "httptool serve --http did not listen"
            );
            thread::sleep(Duration::from_millis(20));
        }
        Peer {
            child,
            addr,
            file: Some(plugin),
        }
    }

    fn rss_kib(&self) -> u64 {
        status_rss(&format!("/proc/{}/status", self.child.id()))
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(file) = &self.file {
            let _ = std::fs::remove_file(file);
        }
    }
}

/// One request on a connection of its own: the whole answer, as text.
fn exchange_once(addr: SocketAddr, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.write_all(request).unwrap();
    let mut buf = Vec::new();
    read_response(&mut stream, &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
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

fn plugin_json(api: SocketAddr) -> String {
    format!(
        r#"{{"name":"weather","base_url":"http://{}","endpoints":[{{"name":"get_weather","path":"/v1/weather","params":[{{"name":"city","wire_name":"q","in":"query","required":true}}]}}]}}"#,
        api
    )
}

fn start_mcp(api: SocketAddr) -> SocketAddr {
    let plugin = HttpPlugin::from_json(&plugin_json(api)).unwrap();
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
    status_rss("/proc/self/status")
}

/// `VmRSS` of a `/proc/PID/status` file, in KiB, or 0.
fn status_rss(path: &str) -> u64 {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
