//! `httptool serve --http`: the command line of MCP over Streamable HTTP, and its safe
//! defaults (loopback, a token off loopback, the Host and Origin checks).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::support::cli::{httptool, status, stderr, TempDir};
use crate::support::Server as Api;
use httptool::http::{Client, Request, Response, Transport};
use httptool::json::{self, Json};

const TOKEN: &str = "cli-token-0123456789abcdef";

fn plugin_file(dir: &TempDir, api: &Api) -> String {
    dir.file(
        "weather.json",
        &format!(
            r#"{{"name":"weather","description":"City weather","base_url":"{}","endpoints":[{{"name":"get_weather","path":"/v1/weather"}}]}}"#,
            api.base()
        ),
    )
}

/// A running `serve --http` and the URL it printed.
struct Running {
    child: Child,
    url: String,
    first_line: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn(args: &[&str], env: &[(&str, &str)]) -> Running {
    let mut command = Command::new(env!("CARGO_BIN_EXE_httptool"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .env_remove("HTTPTOOL_MCP_TOKEN");
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("run httptool");
    let mut reader = BufReader::new(child.stderr.take().expect("stderr"));
    let mut lines = Vec::new();
    let mut url = String::new();
    for _ in 0..3 {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        if let Some(rest) = line.split("serving MCP at ").nth(1) {
            url = rest.split(' ').next().unwrap_or("").to_string();
            lines.push(line);
            break;
        }
        lines.push(line);
    }
    assert!(!url.is_empty(), "no address printed: {:?}", lines);
    Running {
        child,
        url,
        first_line: lines.join(""),
    }
}

fn discover(url: &str, token: Option<&str>) -> Response {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    let mut request = Request::post(url)
        .unwrap()
        .with_header("Content-Type", "application/json")
        .unwrap()
        .with_header("Accept", "application/json, text/event-stream")
        .unwrap()
        .with_header("MCP-Protocol-Version", "2026-07-28")
        .unwrap()
        .with_header("Mcp-Method", "server/discover")
        .unwrap()
        .with_body(body.as_bytes().to_vec());
    if let Some(token) = token {
        request = request
            .with_header("Authorization", &format!("Bearer {}", token))
            .unwrap();
    }
    Client::new().send(&request).unwrap()
}

#[test]
fn loopback_with_a_token_from_the_environment() {
    let api = Api::json(r#"{"ok":true}"#);
    let dir = TempDir::new("mcp_http_cli_token");
    let plugin = plugin_file(&dir, &api);
    let running = spawn(
        &["serve", &plugin, "--http", "0", "--token-env", "MY_TOKEN"],
        &[("MY_TOKEN", TOKEN)],
    );
    assert!(
        running.url.starts_with("http://127.0.0.1:"),
        "{}",
        running.url
    );
    assert!(running.url.ends_with("/mcp"), "{}", running.url);
    assert!(running.first_line.contains("bearer token required"));
    assert_eq!(discover(&running.url, None).status(), 401);
    assert_eq!(discover(&running.url, Some("wrong")).status(), 401);
    let response = discover(&running.url, Some(TOKEN));
    assert_eq!(response.status(), 200);
    let answer = json::parse_bytes(response.body()).unwrap();
    assert_eq!(
        answer["result"]["instructions"],
        Json::from("Tools of these APIs:\n- weather: City weather")
    );
}

#[test]
fn loopback_without_a_token_and_another_path() {
    let api = Api::json(r#"{"ok":true}"#);
    let dir = TempDir::new("mcp_http_cli_path");
    let plugin = plugin_file(&dir, &api);
    let running = spawn(
        &[
            "serve",
            &plugin,
            "--http",
            "127.0.0.1:0",
            "--path",
            "/tools/mcp",
            "--allow-origin",
            "https://app.example.com",
        ],
        &[],
    );
    assert!(running.url.ends_with("/tools/mcp"), "{}", running.url);
    assert!(running.first_line.contains("no authentication"));
    assert_eq!(discover(&running.url, None).status(), 200);
    let origin = Request::post(&running.url)
        .unwrap()
        .with_header("Content-Type", "application/json")
        .unwrap()
        .with_header("Origin", "http://evil.example")
        .unwrap()
        .with_body(b"{}".to_vec());
    assert_eq!(Client::new().send(&origin).unwrap().status(), 403);
    let health = running.url.replace("/tools/mcp", "/healthz");
    let response = Client::new().send(&Request::get(&health).unwrap()).unwrap();
    assert_eq!(response.status(), 200);
}

#[test]
fn a_public_address_needs_a_token_or_an_explicit_no_auth() {
    let api = Api::json(r#"{"ok":true}"#);
    let dir = TempDir::new("mcp_http_cli_public");
    let plugin = plugin_file(&dir, &api);
    let out = httptool(&["serve", &plugin, "--http", "0.0.0.0:0"], None, &[]);
    assert_eq!(status(&out), 1);
    assert!(
        stderr(&out).starts_with("httptool: refusing to serve 0.0.0.0:0 without authentication"),
        "{}",
        stderr(&out)
    );
    let running = spawn(&["serve", &plugin, "--http", "0.0.0.0:0", "--no-auth"], &[]);
    assert!(
        running
            .first_line
            .contains("WARNING: serving 0.0.0.0:0 with --no-auth"),
        "{}",
        running.first_line
    );
    // Reached through loopback, the Host is the address the connection came in on.
    let port = running
        .url
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches("/mcp");
    let response = discover(&format!("http://127.0.0.1:{}/mcp", port), None);
    assert_eq!(response.status(), 200);
}

#[test]
fn command_line_errors() {
    let api = Api::json(r#"{"ok":true}"#);
    let dir = TempDir::new("mcp_http_cli_errors");
    let plugin = plugin_file(&dir, &api);
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["--http", "nowhere"],
            2,
            "httptool: --http takes [ADDR:]PORT, such as 8080, 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080; got 'nowhere'\n",
        ),
        (
            &["--allow-host", "example.com"],
            2,
            "httptool: --token-env, --no-auth, --allow-host, --allow-origin, --path, --max-connections and --introspection-url go with --http ADDR:PORT\n",
        ),
        (
            &["--http", "0", "--token-env", "T", "--no-auth"],
            2,
            "httptool: --token-env and --no-auth contradict each other; give one\n",
        ),
        (
            &["--http", "0", "--token-env", "UNSET_TOKEN_VARIABLE"],
            1,
            "httptool: --token-env UNSET_TOKEN_VARIABLE: the variable is not set or is empty; set it to the token clients must send\n",
        ),
        (
            &["--http", "0", "--path", "mcp"],
            2,
            "httptool: --path takes a path such as /mcp (not /healthz), got 'mcp'\n",
        ),
        (
            &["--http", "0", "--max-connections", "0"],
            2,
            "httptool: --max-connections takes a whole number of 1 or more, got '0'\n",
        ),
        (
            &["--http", "0", "--resource", "http://mcp.test/mcp"],
            2,
            "httptool: --authorization-server, --resource and --required-scope go with --introspection-url URL\n",
        ),
        (
            &["--http", "0", "--introspection-url", "http://127.0.0.1:9/introspect"],
            2,
            "httptool: --introspection-url needs at least one --authorization-server URL for clients to log in with\n",
        ),
        (
            &["--http", "0", "--introspection-url", "http://127.0.0.1:9/i", "--authorization-server", "http://127.0.0.1:9", "--no-auth"],
            2,
            "httptool: --introspection-url authenticates with OAuth; leave out --token-env and --no-auth\n",
        ),
        (
            &["--http", "0", "--introspection-url", "not a url", "--authorization-server", "http://127.0.0.1:9"],
            2,
            "httptool: 'not a url' is not an absolute http or https URL\n",
        ),
        (
            &["--http", "0", "--introspection-url", "http://127.0.0.1:9/i", "--authorization-server", "http://127.0.0.1:9"],
            1,
            "httptool: --introspection-url: set HTTPTOOL_INTROSPECTION_CLIENT_ID and HTTPTOOL_INTROSPECTION_CLIENT_SECRET",
        ),
    ];
    for (extra, code, message) in cases {
        let mut args = vec!["serve", plugin.as_str()];
        args.extend_from_slice(extra);
        let out = httptool(&args, None, &[]);
        assert_eq!(status(&out), *code, "{:?}", extra);
        assert!(
            stderr(&out).starts_with(message),
            "{:?}: {}",
            extra,
            stderr(&out)
        );
    }
}

#[test]
fn oauth_from_the_command_line_checks_tokens_by_introspection() {
    let api = Api::json(r#"{"ok":true}"#);
    let dir = TempDir::new("mcp_http_cli_oauth");
    let plugin = plugin_file(&dir, &api);
    let resource = "http://mcp.test/mcp";
    let expected = httptool::http::basic_auth("cli-client", "cli-secret");
    let introspection = Api::responding(move |request| {
        let body = String::from_utf8_lossy(&request.body).to_string();
        let good = request.header("authorization").as_deref() == Some(expected.as_str())
            && body.starts_with("token=good-token&");
        let answer = if good {
            format!(
                r#"{{"active":true,"sub":"alice","scope":"tools","aud":"{}"}}"#,
                resource
            )
        } else {
            r#"{"active":false}"#.to_string()
        };
        (
            "200 OK".to_string(),
            "Content-Type: application/json\r\n".to_string(),
            answer.into_bytes(),
        )
    });
    let introspection_url = introspection.url("/introspect");
    let running = spawn(
        &[
            "serve",
            &plugin,
            "--http",
            "0",
            "--introspection-url",
            &introspection_url,
            "--authorization-server",
            "https://auth.example.com",
            "--resource",
            resource,
            "--required-scope",
            "tools",
        ],
        &[
            ("HTTPTOOL_INTROSPECTION_CLIENT_ID", "cli-client"),
            ("HTTPTOOL_INTROSPECTION_CLIENT_SECRET", "cli-secret"),
        ],
    );
    assert!(
        running
            .first_line
            .contains("OAuth access tokens for http://mcp.test/mcp required"),
        "{}",
        running.first_line
    );
    let refused = discover(&running.url, None);
    assert_eq!(refused.status(), 401);
    assert_eq!(
        refused.header("www-authenticate"),
        Some("Bearer scope=\"tools\", resource_metadata=\"http://mcp.test/.well-known/oauth-protected-resource/mcp\"")
    );
    let metadata_url = running
        .url
        .replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    let metadata = Client::new()
        .send(&Request::get(&metadata_url).unwrap())
        .unwrap();
    let doc = json::parse_bytes(metadata.body()).unwrap();
    assert_eq!(doc["resource"], Json::from(resource));
    assert_eq!(discover(&running.url, Some("bad-token")).status(), 401);
    assert_eq!(discover(&running.url, Some("good-token")).status(), 200);
}

/// The resident memory of process `pid`, in KiB (`VmRSS` of `/proc/PID/status`).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid)).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// This process's soft limit of open files, raised to the hard limit with util-linux's
/// `prlimit` when it is under `wanted` (std has no setrlimit; the binary may be missing).
fn open_files_limit(wanted: u64) -> u64 {
    let read = || {
        let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
        limits
            .lines()
            .find(|line| line.starts_with("Max open files"))
            .and_then(|line| line.split_whitespace().nth(3))
            .and_then(|soft| soft.parse::<u64>().ok())
            .unwrap_or(1024)
    };
    // The soft limit alone, then (for root) the hard one too.
    for value in [format!("{}:", wanted), format!("{}:{}", wanted, wanted)] {
        if read() >= wanted {
            break;
        }
        let _ = Command::new("prlimit")
            .arg(format!("--pid={}", std::process::id()))
            .arg(format!("--nofile={}", value))
            .stderr(Stdio::null())
            .status();
    }
    read()
}

fn raw_exchange(addr: &str, bytes: &[u8]) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .unwrap();
    let _ = stream.write_all(bytes);
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn ten_thousand_connections_at_once_get_503_past_the_bound_and_memory_stays_bounded() {
    use std::io::Read;
    use std::time::{Duration, Instant};
    let api = Api::json(r#"{"ok":true}"#);
    let dir = TempDir::new("mcp_http_cli_many");
    let plugin = plugin_file(&dir, &api);
    let running = spawn(
        &["serve", &plugin, "--http", "0", "--max-connections", "64"],
        &[],
    );
    assert_eq!(discover(&running.url, None).status(), 200);
    let pid = running.child.id();
    let before = rss_kib(pid);
    let authority = running
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_string();
    // Room for 10,000 and what the other tests of this process hold.
    let limit = open_files_limit(10_000 + 1_024);
    let wanted = 10_000.min(limit.saturating_sub(1_024)) as usize;
    assert!(wanted >= 2_000, "only {} files may be open", limit);
    let flood = Instant::now();
    let started = Instant::now();
    let mut held = Vec::with_capacity(wanted);
    for _ in 0..wanted {
        held.push(std::net::TcpStream::connect(authority.as_str()).unwrap());
    }
    let opened_in = started.elapsed();
    // The next client, while all are held: refused at once, not left waiting. The held
    // connections keep their slots until the head deadline (10 s) answers them 408, so a
    // flood slower than that (a loaded machine) may find a slot free: then the probe is
    // served, and refused for its Host.
    let started = Instant::now();
    let slots_may_be_free = flood.elapsed() >= Duration::from_secs(9);
    let answer = raw_exchange(&authority, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    if answer.starts_with("HTTP/1.1 503 ") {
        assert!(answer.contains("Retry-After: 1"), "{}", answer);
    } else {
        assert!(
            slots_may_be_free && answer.starts_with("HTTP/1.1 403 "),
            "opened in {:?}: {}",
            opened_in,
            answer
        );
    }
    assert!(started.elapsed() < Duration::from_secs(2));
    let peak = rss_kib(pid);
    // Every connection but the 64 served was answered 503 and closed. A connection the
    // kernel's listen queue (128) had no room for yet is taken when TCP retries it: each
    // is waited for until a deadline.
    let mut waiting: Vec<&mut std::net::TcpStream> = held.iter_mut().collect();
    // The 64 served ones send no head: at the head deadline (10 s) they get 408.
    let (mut refused, mut timed_out) = (0, 0);
    let deadline = Instant::now() + Duration::from_secs(20);
    for pass in 0.. {
        let timeout = Duration::from_millis(if pass == 0 { 5 } else { 200 });
        let mut unanswered = Vec::new();
        for stream in waiting {
            stream.set_read_timeout(Some(timeout)).unwrap();
            let mut head = [0u8; 12];
            match stream.read_exact(&mut head) {
                Ok(()) if &head == b"HTTP/1.1 503" => refused += 1,
                Ok(()) if &head == b"HTTP/1.1 408" => timed_out += 1,
                Ok(()) => panic!("{}", String::from_utf8_lossy(&head)),
                Err(_) => unanswered.push(stream),
            }
        }
        waiting = unanswered;
        if waiting.len() + timed_out <= 64 || Instant::now() > deadline {
            break;
        }
    }
    // Each 408 frees a slot for a connection still queued, so a flood longer than the head
    // deadline has 64 served for each 10 s it lasted; every other one is a 503.
    let served = waiting.len() + timed_out;
    let generations = 1 + flood.elapsed().as_secs() as usize / 10;
    assert_eq!(refused + served, wanted, "opened in {:?}", opened_in);
    assert!(
        served >= 64 && served <= 64 * generations,
        "{} served at once of {} (opened in {:?}, {} refused)",
        served,
        wanted,
        opened_in,
        refused
    );
    drop(held);
    // Then served again, as soon as the held connections are gone.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let request = format!(
            "GET /healthz HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            authority
        );
        let answer = raw_exchange(&authority, request.as_bytes());
        if answer.starts_with("HTTP/1.1 200 ") {
            break;
        }
        assert!(Instant::now() < deadline, "never served again: {}", answer);
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(discover(&running.url, None).status(), 200);
    // 64 connection threads and their buffers; nothing a connection per refused client.
    assert!(
        peak < before + 32 * 1024,
        "resident memory grew from {} KiB to {} KiB",
        before,
        peak
    );
}

#[test]
fn a_100_mb_body_and_a_100_kb_header_are_refused_unread_and_memory_stays_bounded() {
    use std::io::{Read, Write};
    use std::time::Duration;
    let api = Api::json(r#"{"ok":true}"#);
    let dir = TempDir::new("mcp_http_cli_big");
    let plugin = plugin_file(&dir, &api);
    let running = spawn(&["serve", &plugin, "--http", "0"], &[]);
    assert_eq!(discover(&running.url, None).status(), 200);
    let pid = running.child.id();
    let before = rss_kib(pid);
    let authority = running
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_string();
    const HUNDRED_MB: usize = 100 * 1024 * 1024;
    let heads: [&[u8]; 2] = [
        b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n",
        b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    ];
    for (i, head) in heads.iter().enumerate() {
        let stream = std::net::TcpStream::connect(authority.as_str()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
            .set_write_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        // The answer is read as it comes, while the body is still being sent.
        let mut reader = stream.try_clone().unwrap();
        let answer = std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = reader.read_to_end(&mut out);
            String::from_utf8_lossy(&out).into_owned()
        });
        let mut writer = stream;
        writer.write_all(head).unwrap();
        let chunk = vec![b'{'; 64 * 1024];
        let mut sent = 0;
        while sent < HUNDRED_MB {
            let written = if i == 0 {
                writer.write_all(&chunk)
            } else {
                writer
                    .write_all(b"10000\r\n")
                    .and_then(|_| writer.write_all(&chunk))
                    .and_then(|_| writer.write_all(b"\r\n"))
            };
            if written.is_err() {
                break;
            }
            sent += chunk.len();
        }
        let answer = answer.join().unwrap();
        assert!(answer.starts_with("HTTP/1.1 413 "), "{}", answer);
        assert!(
            sent < HUNDRED_MB / 4,
            "the server took {} bytes of a body it refused",
            sent
        );
    }
    // 100 KB of one header field.
    let mut big = b"POST /mcp HTTP/1.1\r\nHost: x\r\nX-Big: ".to_vec();
    big.extend(std::iter::repeat(b'a').take(100 * 1024));
    big.extend_from_slice(b"\r\n\r\n");
    let answer = raw_exchange(&authority, &big);
    assert!(answer.starts_with("HTTP/1.1 431 "), "{}", answer);
    // The next client is served, and the process did not grow by what it was sent.
    assert_eq!(discover(&running.url, None).status(), 200);
    let after = rss_kib(pid);
    assert!(
        after < before + 16 * 1024,
        "resident memory grew from {} KiB to {} KiB",
        before,
        after
    );
}
