//! MCP over Streamable HTTP as an OAuth 2.1 resource server: `mcp::OAuth` on an
//! `HttpTransport`, against a loopback token introspection endpoint (RFC 7662) that knows a
//! handful of tokens. The metadata (RFC 9728), each refusal's status and challenge, the
//! caller in the call's context, the cache, and the client's token kept from the upstream API.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use httptool::http::{basic_auth, Client, HttpServer, Request, Response, ServerConfig, Transport};
use httptool::json;
use httptool::json::{Json, Map};
use httptool::mcp::{HttpTransport, OAuth, Server, CONTEXT_SCOPES, CONTEXT_SUBJECT};
use httptool::plugin::{Endpoint, HttpPlugin};
use httptool::tool::{CallContext, ToolRegistry, ToolSpec};

const MODERN: &str = "2026-07-28";
const CLIENT_ID: &str = "mcp-server";
const CLIENT_SECRET: &str = "introspection secret";

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A loopback introspection endpoint: each token's answer, for `resource`; client
/// authentication required; the number of questions asked.
struct Introspection {
    server: crate::support::Server,
    asked: Arc<AtomicUsize>,
}

impl Introspection {
    fn start(resource: String) -> Introspection {
        let asked = Arc::new(AtomicUsize::new(0));
        let counter = asked.clone();
        let born = now();
        let expected = basic_auth(CLIENT_ID, "introspection+secret");
        let server = crate::support::Server::responding(move |request| {
            counter.fetch_add(1, Ordering::SeqCst);
            if request.header("authorization").as_deref() != Some(expected.as_str()) {
                return (
                    "401 Unauthorized".to_string(),
                    String::new(),
                    br#"{"error":"invalid_client"}"#.to_vec(),
                );
            }
            let body = String::from_utf8_lossy(&request.body).to_string();
            let token = body
                .split('&')
                .find_map(|pair| pair.strip_prefix("token="))
                .unwrap_or("")
                .to_string();
            let later = now() + 3600;
            let answer = match token.as_str() {
                "alice-token" => json!({"active": true, "sub": "alice", "scope": "tools read",
                    "client_id": "claude", "aud": resource.as_str(), "exp": later}),
                "array-aud" => json!({"active": true, "sub": "bob", "scope": "tools",
                    "aud": ["https://other.example.com", resource.as_str()], "exp": later}),
                "read-only" => json!({"active": true, "sub": "carol", "scope": "read",
                    "aud": resource.as_str(), "exp": later}),
                "expired" => json!({"active": true, "sub": "dave", "scope": "tools",
                    "aud": resource.as_str(), "exp": now() - 5}),
                "not-yet" => json!({"active": true, "sub": "erin", "scope": "tools",
                    "aud": resource.as_str(), "nbf": now() + 600}),
                "other-audience" => json!({"active": true, "sub": "frank", "scope": "tools",
                    "aud": "http://127.0.0.1:1/mcp", "exp": later}),
                "no-audience" => json!({"active": true, "sub": "grace", "scope": "tools"}),
                // Lives two seconds from the server's start: cached no longer than that.
                "short-lived" => json!({"active": true, "sub": "heidi", "scope": "tools",
                    "aud": resource.as_str(), "exp": born + 2}),
                "broken" => {
                    return (
                        "500 Internal Server Error".to_string(),
                        String::new(),
                        b"oops".to_vec(),
                    )
                }
                _ => json!({"active": false}),
            };
            (
                "200 OK".to_string(),
                "Content-Type: application/json\r\n".to_string(),
                answer.to_string().into_bytes(),
            )
        });
        Introspection { server, asked }
    }

    fn asked(&self) -> usize {
        self.asked.load(Ordering::SeqCst)
    }
}

/// The upstream API, a plugin tool against it, and a tool that tells its context.
fn registry(api: &crate::support::Server) -> ToolRegistry {
    let plugin = HttpPlugin::builder("weather", api.base())
        .endpoint(Endpoint::get("get_weather", "/v1/weather"))
        .build()
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let whoami = ToolSpec::without_parameters("whoami", "Tells who calls").unwrap();
    registry
        .add_fn(whoami, |_: Map, context: &CallContext| {
            format!(
                "{}|{}|{}",
                context.get(CONTEXT_SUBJECT).unwrap_or("-"),
                context.get(CONTEXT_SCOPES).unwrap_or("-"),
                context.get("tenant").unwrap_or("-")
            )
        })
        .unwrap();
    registry
}

/// An OAuth-protected transport on a free loopback port, with its introspection endpoint
/// (or `introspection_url` instead, when given).
struct Protected {
    addr: SocketAddr,
    resource: String,
    introspection: Introspection,
}

fn start(
    api: &crate::support::Server,
    configure: impl FnOnce(OAuth) -> OAuth,
    introspection_url: Option<String>,
) -> Protected {
    let server = HttpServer::bind("127.0.0.1:0", ServerConfig::new()).unwrap();
    let addr = server.local_addr().unwrap();
    let resource = format!("http://{}/mcp", addr);
    let introspection = Introspection::start(resource.clone());
    let url = introspection_url.unwrap_or_else(|| introspection.server.url("/introspect"));
    let oauth = OAuth::new(resource.as_str(), url)
        .authorization_server("https://auth.example.com")
        .client_credentials(CLIENT_ID, CLIENT_SECRET);
    let stateless = Server::new()
        .context(CallContext::new().with("tenant", "acme"))
        .stateless(Arc::new(registry(api)));
    let transport = HttpTransport::new(stateless).oauth(configure(oauth));
    thread::spawn(move || transport.serve(&server));
    Protected {
        addr,
        resource,
        introspection,
    }
}

/// A 2026-07-28 `tools/call` of `tool`, with `token` when given.
fn call(addr: SocketAddr, tool: &str, token: Option<&str>) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": {},
            "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}});
    let mut request = Request::post(&format!("http://{}/mcp", addr))
        .unwrap()
        .with_header("Content-Type", "application/json")
        .unwrap()
        .with_header("Accept", "application/json, text/event-stream")
        .unwrap()
        .with_header("MCP-Protocol-Version", MODERN)
        .unwrap()
        .with_header("Mcp-Method", "tools/call")
        .unwrap()
        .with_header("Mcp-Name", tool)
        .unwrap()
        .with_body(body.to_string().into_bytes());
    if let Some(token) = token {
        request = request
            .with_header("Authorization", &format!("Bearer {}", token))
            .unwrap();
    }
    Client::new().send(&request).unwrap()
}

fn text(response: &Response) -> String {
    let answer = json::parse_bytes(response.body())
        .unwrap_or_else(|e| panic!("{}: {:?}", e, String::from_utf8_lossy(response.body())));
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {}", answer))
        .to_string()
}

fn get(url: &str) -> Response {
    Client::new().send(&Request::get(url).unwrap()).unwrap()
}

#[test]
fn the_protected_resource_metadata_is_served_and_named_in_the_challenge() {
    let api = crate::support::Server::json("{}");
    let protected = start(&api, |o| o.required_scope("tools"), None);
    let addr = protected.addr;
    let response = call(addr, "whoami", None);
    assert_eq!(response.status(), 401);
    let challenge = response.header("www-authenticate").unwrap().to_string();
    let metadata_url = format!("http://{}/.well-known/oauth-protected-resource/mcp", addr);
    assert_eq!(
        challenge,
        format!(
            "Bearer scope=\"tools\", resource_metadata=\"{}\"",
            metadata_url
        )
    );
    // RFC 9728 section 3: at the path-suffixed URL and at the bare well-known path.
    for url in [
        metadata_url,
        format!("http://{}/.well-known/oauth-protected-resource", addr),
    ] {
        let metadata = get(&url);
        assert_eq!(metadata.status(), 200, "{}", url);
        assert_eq!(metadata.header("content-type"), Some("application/json"));
        let doc = json::parse_bytes(metadata.body()).unwrap();
        assert_eq!(doc["resource"], Json::from(protected.resource.as_str()));
        assert_eq!(
            doc["authorization_servers"],
            json!(["https://auth.example.com"])
        );
        assert_eq!(doc["scopes_supported"], json!(["tools"]));
        assert_eq!(doc["bearer_methods_supported"], json!(["header"]));
    }
    let elsewhere = format!("http://{}/.well-known/oauth-protected-resource/other", addr);
    assert_eq!(get(&elsewhere).status(), 404);
    // Nothing was asked of the authorization server for a request without a token.
    assert_eq!(protected.introspection.asked(), 0);
}

#[test]
fn a_valid_token_reaches_the_tools_as_context_and_never_the_upstream_api() {
    let api = crate::support::Server::json(r#"{"city":"Oslo"}"#);
    let protected = start(&api, |o| o.required_scope("tools"), None);
    let response = call(protected.addr, "whoami", Some("alice-token"));
    assert_eq!(response.status(), 200);
    // The caller over the server's own context.
    assert_eq!(text(&response), "alice|tools read|acme");
    // An audience among several.
    let response = call(protected.addr, "whoami", Some("array-aud"));
    assert_eq!(text(&response), "bob|tools|acme");
    // The plugin's call upstream carries nothing of the client's token.
    let response = call(protected.addr, "get_weather", Some("alice-token"));
    assert_eq!(response.status(), 200);
    assert!(text(&response).contains("Oslo"));
    let upstream = api.requests();
    assert_eq!(upstream.len(), 1);
    let raw = String::from_utf8_lossy(&upstream[0].raw()).to_string();
    assert!(!raw.contains("alice-token"), "{}", raw);
    assert_eq!(upstream[0].header("authorization"), None);
}

#[test]
fn bad_tokens_get_401_invalid_token_and_a_missing_scope_403() {
    let api = crate::support::Server::json("{}");
    let protected = start(&api, |o| o.required_scope("tools"), None);
    for (token, why) in [
        ("unknown", "the token is not active"),
        ("expired", "the token has expired"),
        ("not-yet", "the token is not valid yet"),
        (
            "other-audience",
            "the token was not issued for this resource",
        ),
        ("no-audience", "the token was not issued for this resource"),
    ] {
        let response = call(protected.addr, "whoami", Some(token));
        assert_eq!(response.status(), 401, "{}", token);
        assert_eq!(
            response.header("www-authenticate").unwrap(),
            format!(
                "Bearer error=\"invalid_token\", error_description=\"{}\", scope=\"tools\", resource_metadata=\"http://{}/.well-known/oauth-protected-resource/mcp\"",
                why, protected.addr
            ),
            "{}",
            token
        );
    }
    let response = call(protected.addr, "whoami", Some("read-only"));
    assert_eq!(response.status(), 403);
    let challenge = response.header("www-authenticate").unwrap();
    assert!(
        challenge.starts_with("Bearer error=\"insufficient_scope\""),
        "{}",
        challenge
    );
    assert!(challenge.contains("scope=\"tools\""), "{}", challenge);
    // Refusals are not cached: each bad token was asked about each time.
    let before = protected.introspection.asked();
    assert_eq!(
        call(protected.addr, "whoami", Some("expired")).status(),
        401
    );
    assert_eq!(protected.introspection.asked(), before + 1);
}

#[test]
fn an_answer_is_cached_no_longer_than_the_token_lives() {
    let api = crate::support::Server::json("{}");
    let protected = start(&api, |o| o, None);
    for _ in 0..3 {
        assert_eq!(
            call(protected.addr, "whoami", Some("alice-token")).status(),
            200
        );
    }
    assert_eq!(protected.introspection.asked(), 1);
    // Lives until two seconds after the introspection server started.
    assert_eq!(
        call(protected.addr, "whoami", Some("short-lived")).status(),
        200
    );
    assert_eq!(
        call(protected.addr, "whoami", Some("short-lived")).status(),
        200
    );
    assert_eq!(protected.introspection.asked(), 2);
    thread::sleep(Duration::from_millis(3100));
    let response = call(protected.addr, "whoami", Some("short-lived"));
    assert_eq!(response.status(), 401);
    assert!(response
        .header("www-authenticate")
        .unwrap()
        .contains("the token has expired"));
    assert_eq!(protected.introspection.asked(), 3);
    // The long-lived token is still cached.
    assert_eq!(
        call(protected.addr, "whoami", Some("alice-token")).status(),
        200
    );
    assert_eq!(protected.introspection.asked(), 3);
}

#[test]
fn a_cache_capped_at_zero_asks_every_time() {
    let api = crate::support::Server::json("{}");
    let protected = start(&api, |o| o.max_cache_ttl(Duration::ZERO), None);
    for _ in 0..3 {
        assert_eq!(
            call(protected.addr, "whoami", Some("alice-token")).status(),
            200
        );
    }
    assert_eq!(protected.introspection.asked(), 3);
    let protected = start(&api, |o| o.max_cache_entries(1), None);
    call(protected.addr, "whoami", Some("alice-token"));
    call(protected.addr, "whoami", Some("array-aud"));
    call(protected.addr, "whoami", Some("alice-token"));
    assert_eq!(protected.introspection.asked(), 3);
}

#[test]
fn an_introspection_endpoint_down_or_failing_is_503_not_401() {
    let api = crate::support::Server::json("{}");
    // A port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/introspect", closed.local_addr().unwrap());
    drop(closed);
    let protected = start(&api, |o| o, Some(url));
    let response = call(protected.addr, "whoami", Some("alice-token"));
    assert_eq!(response.status(), 503);
    assert_eq!(response.header("retry-after"), Some("5"));
    assert_eq!(response.header("www-authenticate"), None);
    // The caller is told what failed, not where the authorization server lives.
    let text = String::from_utf8_lossy(response.body()).to_string();
    assert!(
        text.contains("token introspection failed (Connect)"),
        "{}",
        text
    );
    assert!(!text.contains("127.0.0.1"), "{}", text);
    // An endpoint that answers 500.
    let protected = start(&api, |o| o, None);
    assert_eq!(call(protected.addr, "whoami", Some("broken")).status(), 503);
    // Wrong client credentials: the endpoint refuses this server, not the token.
    let protected = start(&api, |o| o.client_credentials(CLIENT_ID, "wrong"), None);
    let response = call(protected.addr, "whoami", Some("alice-token"));
    assert_eq!(response.status(), 503);
    assert!(String::from_utf8_lossy(response.body()).contains("answered 401"));
    // Still serving the next request.
    let protected = start(&api, |o| o, None);
    assert_eq!(
        call(protected.addr, "whoami", Some("alice-token")).status(),
        200
    );
}
