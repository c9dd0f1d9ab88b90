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
