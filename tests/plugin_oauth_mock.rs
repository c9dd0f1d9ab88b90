//! OAuth 2.0 auth of plugins against a real OAuth 2.0 server nobody here wrote:
//! npm `oauth2-mock-server`, which issues signed JWT access tokens, started by
//! `tests/oauth_mock/server.mjs` (its hooks add what the mock lacks: a secret check that
//! refuses clients with `invalid_client`, `expires_in: 0` for clients named `short-...`, and
//! refresh tokens that work once; see the script). The API is a loopback server in the test
//! that accepts a token only when it is a JWT from that issuer, unexpired, for the client the
//! test expects, and not revoked by the test; it counts the distinct tokens (`jti`) it saw.
//! The mock's control server counts token requests per client.
//!
//! The server is not part of the build: `.ci/run` installs it, starts it and runs
//! `HTTPTOOL_OAUTH_MOCK=ISSUER HTTPTOOL_OAUTH_MOCK_CONTROL=URL cargo test --test integration
//! plugin_oauth_mock:: -- --ignored`. The tests are `#[ignore]`d so that without the server
//! they neither run nor count as passes; run with `--ignored` and without the variables they
//! fail. The JWT signature is not verified here (this crate has no cryptography); the
//! issuer, expiry and client claims are. Each test uses client ids of its own, so the tests
//! run in parallel against one server.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Barrier, Mutex};
use std::thread;
use std::time::{SystemTime, UNIX_EPOCH};

use httptool::json::{self, Json};
use httptool::plugin::{HttpPlugin, RotatedToken};
use httptool::tool::{CallContext, ErrorKind, ToolCall, ToolOutput, ToolRegistry};

use crate::support::plugin::Server;

fn issuer() -> String {
    std::env::var("HTTPTOOL_OAUTH_MOCK")
        .expect("HTTPTOOL_OAUTH_MOCK holds the mock's issuer url (.ci/run sets it)")
}

/// Token requests `client` made, as the mock's control server counted them.
fn token_requests(client: &str) -> usize {
    let control = std::env::var("HTTPTOOL_OAUTH_MOCK_CONTROL")
        .expect("HTTPTOOL_OAUTH_MOCK_CONTROL holds the control server's url");
    let authority = control.trim_start_matches("http://");
    let mut stream = TcpStream::connect(authority).unwrap();
    write!(
        stream,
        "GET /count/{} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        client, authority
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let body = reply.split("\r\n\r\n").nth(1).unwrap();
    body.trim().parse().unwrap()
}

/// The claims of a JWT (RFC 7519), unverified.
fn claims(token: &str) -> Option<Json> {
    let payload = token.split('.').nth(1)?;
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut bytes = Vec::new();
    let (mut buffer, mut bits) = (0u32, 0);
    for b in payload.bytes() {
        buffer = (buffer << 6) | ALPHABET.iter().position(|&a| a == b)? as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    json::parse_bytes(&bytes).ok()
}

/// The API: `GET /c/CLIENT` answers `{"ok":true}` for a valid token of CLIENT, else 401.
struct Api {
    server: Server,
    seen: Arc<Mutex<Vec<String>>>,
    revoked: Arc<Mutex<HashSet<String>>>,
}

impl Api {
    fn start() -> Api {
        let seen: Arc<Mutex<Vec<String>>> = Arc::default();
        let revoked: Arc<Mutex<HashSet<String>>> = Arc::default();
        let (log, refused) = (seen.clone(), revoked.clone());
        let issuer = issuer();
        let server = Server::responding(move |request| {
            let client = request.target.trim_start_matches("/c/").to_string();
            let token = request
                .header("authorization")
                .and_then(|v| v.strip_prefix("Bearer ").map(str::to_string))
                .unwrap_or_default();
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_secs();
            let valid = claims(&token).and_then(|c| {
                let jti = c["jti"].as_str()?.to_string();
                let fine = c["iss"].as_str() == Some(issuer.as_str())
                    && c["exp"].as_u64().map_or(false, |exp| exp > now)
                    && c["client_id"].as_str() == Some(client.as_str())
                    && !refused.lock().unwrap().contains(&jti);
                fine.then_some(jti)
            });
            match valid {
                Some(jti) => {
                    log.lock().unwrap().push(jti);
                    (
                        String::from("200 OK"),
                        String::from("Content-Type: application/json\r\n"),
                        b"{\"ok\":true}".to_vec(),
                    )
                }
                None => (String::from("401 Unauthorized"), String::new(), Vec::new()),
            }
        });
        Api {
            server,
            seen,
            revoked,
        }
    }

    fn distinct_tokens(&self) -> usize {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .collect::<HashSet<_>>()
            .len()
    }

    fn revoke_all_seen(&self) {
        let seen = self.seen.lock().unwrap().clone();
        self.revoked.lock().unwrap().extend(seen);
    }
}

fn plugin(api: &Api, client: &str, auth: &str) -> HttpPlugin {
    let text = format!(
        r#"{{"name": "mocked", "base_url": "{}", "auth": {},
            "endpoints": [
              {{"name": "read", "method": "GET", "path": "/c/{}"}},
              {{"name": "write", "method": "POST", "path": "/c/{}",
                "params": [{{"name": "x", "in": "body"}}]}}
            ]}}"#,
        api.server.base(),
        auth,
        client,
        client
    );
    HttpPlugin::from_json(&text).unwrap()
}

fn client_credentials(client: &str, secret: &str) -> String {
    format!(
        r#"{{"type": "oauth2_client_credentials", "token_url": "{}/token",
            "client_id": "{}", "client_secret": "{}", "scope": "crm:read"}}"#,
        issuer(),
        client,
        secret
    )
}

fn call(plugin: &HttpPlugin, tool: &str, context: &CallContext) -> ToolOutput {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    let arguments = if tool == "write" { r#"{"x":1}"# } else { "{}" };
    registry.call_with(&ToolCall::new("c", tool, arguments), context)
}

#[test]
#[ignore = "needs oauth2-mock-server: .ci/run starts it and sets HTTPTOOL_OAUTH_MOCK"]
fn mock_first_fetch_and_one_token_request_for_100_calls() {
    let api = Api::start();
    let plugin = plugin(&api, "cache", &client_credentials("cache", "cache-secret"));
    for _ in 0..100 {
        let out = call(&plugin, "read", &CallContext::new());
        assert_eq!(out.text(), r#"{"ok":true}"#);
    }
    assert_eq!(token_requests("cache"), 1);
    assert_eq!(api.distinct_tokens(), 1);
}

#[test]
#[ignore = "needs oauth2-mock-server: .ci/run starts it and sets HTTPTOOL_OAUTH_MOCK"]
fn mock_expired_tokens_are_renewed() {
    let api = Api::start();
    let client = "short-renew";
    let plugin = plugin(
        &api,
        client,
        &client_credentials(client, "short-renew-secret"),
    );
    for _ in 0..3 {
        assert!(!call(&plugin, "read", &CallContext::new()).is_error());
    }
    assert_eq!(token_requests(client), 3);
    assert_eq!(api.distinct_tokens(), 3);
}

#[test]
#[ignore = "needs oauth2-mock-server: .ci/run starts it and sets HTTPTOOL_OAUTH_MOCK"]
fn mock_a_401_refetches_and_retries_a_get_once_but_never_a_post() {
    let api = Api::start();
    let plugin = plugin(
        &api,
        "revoked",
        &client_credentials("revoked", "revoked-secret"),
    );
    assert!(!call(&plugin, "read", &CallContext::new()).is_error());
    api.revoke_all_seen();
    let out = call(&plugin, "read", &CallContext::new());
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(token_requests("revoked"), 2);
    api.revoke_all_seen();
    let out = call(&plugin, "write", &CallContext::new());
    assert_eq!(out.error_kind(), Some(ErrorKind::HttpStatus));
    assert!(out
        .text()
        .starts_with("the API refused the cached access token (HTTP 401)"));
    assert_eq!(token_requests("revoked"), 2);
    let posts = api
        .server
        .requests()
        .iter()
        .filter(|r| r.method == "POST")
        .count();
    assert_eq!(posts, 1);
}

#[test]
#[ignore = "needs oauth2-mock-server: .ci/run starts it and sets HTTPTOOL_OAUTH_MOCK"]
fn mock_an_invalid_client_is_a_clear_error() {
    let api = Api::start();
    let plugin = plugin(
        &api,
        "intruder",
        &client_credentials("intruder", "guessed-secret"),
    );
    let out = call(&plugin, "read", &CallContext::new());
    assert_eq!(out.error_kind(), Some(ErrorKind::AuthFailed));
    assert!(
        out.text().starts_with("could not get an access token: the token endpoint answered HTTP 401 with OAuth error 'invalid_client'"),
        "{}",
        out.text()
    );
    assert!(!out.text().contains("guessed-secret"));
    assert!(api.server.requests().is_empty());
}

#[test]
#[ignore = "needs oauth2-mock-server: .ci/run starts it and sets HTTPTOOL_OAUTH_MOCK"]
fn mock_a_rotated_refresh_token_replaces_the_old_one() {
    let api = Api::start();
    let client = "short-rotate";
    let auth = format!(
        r#"{{"type": "oauth2_refresh_token", "token_url": "{}/token", "client_id": "{}",
            "client_secret": "{}-secret", "refresh_token": "rt-seed-{}", "client_auth": "body"}}"#,
        issuer(),
        client,
        client,
        client
    );
    let told: Arc<Mutex<Vec<String>>> = Arc::default();
    let heard = told.clone();
    let plugin = plugin(&api, client, &auth).with_token_listener(Arc::new(
        move |rotated: &RotatedToken<'_>| heard.lock().unwrap().push(rotated.refresh_token.into()),
    ));
    // The server accepts each refresh token once: every call after the first works only
    // with the token the previous answer rotated to.
    for _ in 0..3 {
        let out = call(&plugin, "read", &CallContext::new());
        assert!(!out.is_error(), "{}", out.text());
    }
    let told = told.lock().unwrap().clone();
    assert_eq!(told.len(), 3);
    assert_eq!(told.iter().collect::<HashSet<_>>().len(), 3);
    assert_eq!(token_requests(client), 3);
}

#[test]
#[ignore = "needs oauth2-mock-server: .ci/run starts it and sets HTTPTOOL_OAUTH_MOCK"]
fn mock_eight_threads_share_one_token_fetch() {
    let api = Api::start();
    let plugin = plugin(
        &api,
        "threads",
        &client_credentials("threads", "threads-secret"),
    );
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let registry = Arc::new(registry);
    let start = Arc::new(Barrier::new(8));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let (registry, start) = (registry.clone(), start.clone());
            thread::spawn(move || {
                start.wait();
                registry.call(&ToolCall::new("c", "read", "{}"))
            })
        })
        .collect();
    for thread in threads {
        assert!(!thread.join().unwrap().is_error());
    }
    assert_eq!(token_requests("threads"), 1);
    assert_eq!(api.distinct_tokens(), 1);
}

#[test]
#[ignore = "needs oauth2-mock-server: .ci/run starts it and sets HTTPTOOL_OAUTH_MOCK"]
fn mock_two_tenants_through_the_context_get_two_tokens() {
    let api = Api::start();
    let auth = format!(
        r#"{{"type": "oauth2_client_credentials", "token_url": "{}/token",
            "client_id": {{"context": "client"}}, "client_secret": {{"context": "secret"}}}}"#,
        issuer()
    );
    // The API path names the tenant through a hidden parameter filled from the context.
    let text = format!(
        r#"{{"name": "tenants", "base_url": "{}", "auth": {},
            "endpoints": [{{"name": "read", "path": "/c/{{client}}",
              "params": [{{"name": "client", "in": "path", "hidden": true}}]}}]}}"#,
        api.server.base(),
        auth
    );
    let plugin = HttpPlugin::from_json(&text).unwrap();
    let tenant = |id: &str| {
        CallContext::new()
            .with("client", id)
            .with("secret", format!("{}-secret", id))
    };
    for _ in 0..5 {
        for id in ["tenant-a", "tenant-b"] {
            // The API refuses a token whose client is not the path's tenant.
            let out = call(&plugin, "read", &tenant(id));
            assert_eq!(out.text(), r#"{"ok":true}"#);
        }
    }
    assert_eq!(
        (token_requests("tenant-a"), token_requests("tenant-b")),
        (1, 1)
    );
    assert_eq!(api.distinct_tokens(), 2);
}
