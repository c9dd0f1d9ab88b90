//! The `httptool` binary: demo, tools and call, run as a user runs them.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Output;
use std::thread;

use httptool::json::{self, Json};

use crate::support::cli::{stderr, stdout, TempDir};
use crate::support::weather;

/// Runs the binary with `args` and nothing on standard input.
fn httptool(args: &[&str]) -> Output {
    crate::support::cli::httptool(args, None, &[])
}

/// Answers one connection with `status` and `body`, and hands back the request head it read.
fn serve_once(status: &'static str, body: &'static str) -> (String, thread::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            if stream.read(&mut byte).unwrap() == 0 {
                break;
            }
            head.push(byte[0]);
        }
        let reply = format!(
            "HTTP/1.1 {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
            status,
            body.len(),
            body
        );
        stream.write_all(reply.as_bytes()).unwrap();
        String::from_utf8(head).unwrap()
    });
    (base, server)
}

#[test]
fn demo_runs_the_main_job_end_to_end() {
    let out = httptool(&["demo"]);
    let text = stdout(&out);
    assert!(out.status.success(), "stderr: {}", stderr(&out));
    assert!(text.contains("\"token\": \"${WEATHER_TOKEN}\""));
    assert!(text.contains("GET /v1/weather?q=%E6%9D%AD%E5%B7%9E&days=2 HTTP/1.1\nHost: 127.0.0.1:"));
    assert!(text.contains("Authorization: ***"));
    assert!(!text.contains("demo-token"), "the token never shows");
    assert!(text.contains("(bearer token correct)"));
    assert!(text.contains("\"tool_call_id\": \"call_1\""));
    assert!(text.contains("unknown parameter 'ctiy'; did you mean 'city'? accepted: city, days"));
    assert!(text.ends_with("API received: nothing\n"));
}

#[test]
fn tools_prints_each_provider_format() {
    let dir = TempDir::new("tools_prints_each_provider_format");
    let path = &dir.file("weather.json", &weather::plugin("https://api.example.com"));
    let cases: &[(&str, &str)] = &[
        ("openai", "/0/function/name"),
        ("openai-strict", "/0/function/name"),
        ("responses", "/0/name"),
        ("anthropic", "/0/name"),
        ("gemini", "/0/functionDeclarations/0/name"),
        ("mcp", "/tools/0/name"),
    ];
    for (format, pointer) in cases {
        let out = httptool(&["tools", path, "--format", format]);
        assert!(out.status.success(), "{}: {}", format, stderr(&out));
        let specs = json::parse(&stdout(&out)).unwrap();
        assert_eq!(
            specs.pointer(pointer),
            Some(&Json::from("getWeather")),
            "{}",
            format
        );
    }
    let default = httptool(&["tools", path]);
    assert_eq!(
        json::parse(&stdout(&default)).unwrap().pointer("/0/type"),
        Some(&Json::from("function"))
    );
}

#[test]
fn tools_refuses_an_unknown_format_with_usage_status() {
    let dir = TempDir::new("tools_refuses_an_unknown_format_with_usage_status");
    let path = &dir.file("weather.json", &weather::plugin("https://api.example.com"));
    let out = httptool(&["tools", path, "--format", "cohere"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with(
        "httptool: unknown format 'cohere'; the formats are openai, openai-strict, responses, anthropic, gemini, mcp\n"
    ));
}

#[test]
fn tools_refuses_duplicate_names_across_files() {
    let dir = TempDir::new("tools_refuses_duplicate_names_across_files");
    let a = &dir.file("a.json", &weather::plugin("https://a.example.com"));
    let b = &dir.file("b.json", &weather::plugin("https://b.example.com"));
    let out = httptool(&["tools", a, b]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("getWeather"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_plugin_file_that_does_not_load_names_the_file_and_field() {
    let dir = TempDir::new("a_plugin_file_that_does_not_load_names_the_file_and_field");
    let path = &dir.file(
        "bad.json",
        r#"{"name": "x", "base_url": "ftp://example.com", "endpoints": []}"#,
    );
    let out = httptool(&["tools", path]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("httptool: {}: base_url", path)),
        "{}",
        err
    );
}

#[test]
fn a_missing_file_is_a_failure() {
    let out = httptool(&["tools", "/nonexistent/plugin.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("httptool: cannot read /nonexistent/plugin.json: "));
}

#[test]
fn call_dry_run_prints_the_request_with_secrets_masked() {
    let dir = TempDir::new("call_dry_run_prints_the_request_with_secrets_masked");
    let path = &dir.file("weather.json", &weather::plugin("https://api.example.com"));
    let out = httptool(&[
        "call",
        path,
        "getWeather",
        r#"{"city":"São Paulo"}"#,
        "--dry-run",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with(
        "GET /v1/weather?q=S%C3%A3o%20Paulo&days=1 HTTP/1.1\r\nHost: api.example.com\r\n"
    ));
    assert!(text.contains("Authorization: ***\r\n"));
    assert!(!text.contains("s3cret"));

    let revealed = httptool(&[
        "call",
        path,
        "getWeather",
        r#"{"city":"x"}"#,
        "--dry-run",
        "--reveal-secrets",
    ]);
    assert!(stdout(&revealed).contains("Authorization: Bearer s3cret-token\r\n"));
}

#[test]
fn call_dry_run_with_bad_arguments_is_an_error_result() {
    let dir = TempDir::new("call_dry_run_with_bad_arguments_is_an_error_result");
    let path = &dir.file("weather.json", &weather::plugin("https://api.example.com"));
    let out = httptool(&["call", path, "getWeather", r#"{"ctiy":"x"}"#, "--dry-run"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "unknown parameter 'ctiy'; did you mean 'city'? accepted: city, days\n"
    );
    assert_eq!(
        stderr(&out),
        "httptool: the call failed: unknown_parameter\n"
    );
}

#[test]
fn call_sends_the_request_and_prints_what_the_model_gets() {
    let (base, server) = serve_once("200 OK", r#"{"temp_c":21.5}"#);
    let dir = TempDir::new("call_sends_the_request_and_prints_what_the_model_gets");
    let path = &dir.file("weather.json", &weather::plugin(&base));
    let out = httptool(&["call", path, "getWeather", r#"{"city":"Oslo","days":"3"}"#]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "{\"temp_c\":21.5}\n");
    let head = server.join().unwrap();
    assert!(
        head.starts_with("GET /v1/weather?q=Oslo&days=3 HTTP/1.1\r\n"),
        "{}",
        head
    );
    assert!(head.contains("Authorization: Bearer s3cret-token\r\n"));
}

#[test]
fn call_with_an_error_status_exits_non_zero_and_keeps_the_body() {
    let (base, server) = serve_once("404 Not Found", r#"{"error":"no such city"}"#);
    let dir = TempDir::new("call_with_an_error_status_exits_non_zero_and_keeps_the_body");
    let path = &dir.file("weather.json", &weather::plugin(&base));
    let out = httptool(&["call", path, "getWeather", r#"{"city":"Atlantis"}"#]);
    server.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("{\"error\":\"no such city\"}"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        stderr(&out),
        "httptool: the call failed: http_status (HTTP status 404)\n"
    );
}

#[test]
fn call_reads_arguments_from_stdin_and_context_from_options() {
    let plugin = r#"{
  "name": "tenants",
  "base_url": "https://api.example.com",
  "endpoints": [{
    "name": "listUsers",
    "path": "/v1/users",
    "params": [
      { "name": "tenant", "in": "header", "wire_name": "X-Tenant", "hidden": true },
      { "name": "limit", "in": "query", "type": "integer" }
    ]
  }]
}"#;
    let dir = TempDir::new("call_reads_arguments_from_stdin_and_context_from_options");
    let path = &dir.file("tenants.json", plugin);
    let out = crate::support::cli::httptool(
        &[
            "call",
            path,
            "listUsers",
            "-",
            "--dry-run",
            "--context",
            "tenant=acme",
        ],
        Some(r#"{"limit": 5}"#),
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("GET /v1/users?limit=5 HTTP/1.1\r\n"),
        "{}",
        text
    );
    assert!(text.contains("X-Tenant: ***\r\n"), "{}", text);
}

#[test]
fn usage_errors_exit_with_status_two() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "httptool: a command is needed\n"),
        (&["frobnicate"], "httptool: unknown command 'frobnicate'; the commands are demo, tools, call, import, export, serve\n"),
        (&["tools"], "httptool: tools needs at least one plugin file\n"),
        (&["call"], "httptool: call needs PLUGIN.json, then TOOL (unless the plugin has one tool) and, optionally, ARGS-JSON\n"),
        (&["call", "p.json", "t", "--dryrun"], "httptool: unknown option '--dryrun'; did you mean '--dry-run'? (run `httptool call --help` for its options)\n"),
        (&["call", "p.json", "t", "--reveal-secrets"], "httptool: --reveal-secrets only goes with --dry-run\n"),
        (&["call", "p.json", "t", "--context", "=x"], "httptool: --context takes KEY=VALUE (the value may be empty, the key may not)\n"),
        (&["demo", "extra"], "httptool: demo takes no arguments, got 'extra'\n"),
    ];
    for (args, message) in cases {
        let out = httptool(args);
        assert_eq!(out.status.code(), Some(2), "{:?}", args);
        let err = stderr(&out);
        assert!(err.starts_with(message), "{:?}: {}", args, err);
        assert!(
            err.ends_with("Run `httptool --help` for usage.\n"),
            "{:?}",
            args
        );
    }
}

#[test]
fn every_command_has_help() {
    for command in ["demo", "tools", "call"] {
        let out = httptool(&[command, "--help"]);
        assert!(out.status.success(), "{}", command);
        assert!(
            stdout(&out).starts_with(&format!("usage: httptool {}", command)),
            "{}",
            command
        );
    }
    let out = httptool(&["--help"]);
    assert!(stdout(&out).starts_with("httptool: turn HTTP/REST APIs into tools"));
    let out = httptool(&["--version"]);
    // The rest of the line says whether https is built in (tests/cli_network.rs).
    assert!(stdout(&out).starts_with(&format!("httptool {} (", env!("CARGO_PKG_VERSION"))));
}
