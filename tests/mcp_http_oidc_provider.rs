//! The MCP server as an OAuth 2.1 resource server against a real authorization server
//! nobody here wrote: node-oidc-provider (npm `oidc-provider`), started by
//! `tests/oauth_mock/oidc_provider.mjs` with token introspection (RFC 7662), resource
//! indicators (RFC 8707: the `resource` a client asks a token for becomes its `aud`) and
//! revocation (RFC 7009). The tokens are opaque: only introspection can tell what they are.
//!
//! `.ci/run` installs and starts it and runs `HTTPTOOL_OIDC_PROVIDER=ISSUER cargo test --test
//! integration mcp_http_oidc_provider:: -- --ignored`. The tests are `#[ignore]`d so that
//! without the server they neither run nor count as passes.

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use httptool::http::{basic_auth, Client, HttpServer, Request, Response, ServerConfig, Transport};
use httptool::json;
use httptool::json::Map;
use httptool::mcp::{HttpTransport, OAuth, Server, CONTEXT_CLIENT_ID, CONTEXT_SCOPES};
use httptool::plugin::{Endpoint, HttpPlugin};
use httptool::tool::{CallContext, ToolRegistry, ToolSpec};

const MODERN: &str = "2026-07-28";

fn issuer() -> String {
    std::env::var("HTTPTOOL_OIDC_PROVIDER")
        .expect("HTTPTOOL_OIDC_PROVIDER holds oidc-provider's issuer url (.ci/run sets it)")
}

/// A token from the provider's token endpoint for `client` (client_credentials), for
/// `resource` with `scope`.
fn token(client: &str, resource: &str, scope: &str) -> String {
    let body = httptool::url::form_urlencoded([
        ("grant_type", "client_credentials"),
        ("resource", resource),
        ("scope", scope),
    ]);
    let request = Request::post(&format!("{}/token", issuer()))
        .unwrap()
        .with_header("Content-Type", "application/x-www-form-urlencoded")
        .unwrap()
        .with_header(
            "Authorization",
            &basic_auth(client, &format!("{}-secret", client)),
        )
        .unwrap()
        .with_body(body.into_bytes());
    let response = Client::new().send(&request).unwrap();
    let answer = json::parse_bytes(response.body()).unwrap();
    assert_eq!(response.status(), 200, "{}", answer);
    answer["access_token"].as_str().unwrap().to_string()
}

/// Revokes `token` at the provider (RFC 7009), as its client.
fn revoke(client: &str, token: &str) {
    let request = Request::post(&format!("{}/token/revocation", issuer()))
        .unwrap()
        .with_header("Content-Type", "application/x-www-form-urlencoded")
        .unwrap()
        .with_header(
            "Authorization",
            &basic_auth(client, &format!("{}-secret", client)),
        )
        .unwrap()
        .with_body(httptool::url::form_urlencoded([("token", token)]).into_bytes());
    assert_eq!(Client::new().send(&request).unwrap().status(), 200);
}

/// An MCP server protected by the provider's introspection, with `secret` as its own
/// client secret; its address and resource URI.
fn start(api: &crate::support::Server, secret: &str) -> (SocketAddr, String) {
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
                "{}|{}",
                context.get(CONTEXT_CLIENT_ID).unwrap_or("-"),
                context.get(CONTEXT_SCOPES).unwrap_or("-")
            )
        })
        .unwrap();
    let server = HttpServer::bind("127.0.0.1:0", ServerConfig::new()).unwrap();
    let addr = server.local_addr().unwrap();
    let resource = format!("http://{}/mcp", addr);
    let oauth = OAuth::new(
        resource.as_str(),
        format!("{}/token/introspection", issuer()),
    )
    .authorization_server(issuer())
    .client_credentials("mcp-server", secret)
    .required_scope("tools");
    let transport = HttpTransport::new(Server::new().stateless(Arc::new(registry))).oauth(oauth);
    thread::spawn(move || transport.serve(&server));
    (addr, resource)
}

fn call(addr: SocketAddr, tool: &str, token: &str) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": {},
            "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}});
    let request = Request::post(&format!("http://{}/mcp", addr))
        .unwrap()
        .with_header("Content-Type", "application/json")
        .unwrap()
        .with_header("Accept", "application/json")
        .unwrap()
        .with_header("MCP-Protocol-Version", MODERN)
        .unwrap()
        .with_header("Mcp-Method", "tools/call")
        .unwrap()
        .with_header("Mcp-Name", tool)
        .unwrap()
        .with_header("Authorization", &format!("Bearer {}", token))
        .unwrap()
        .with_body(body.to_string().into_bytes());
    Client::new().send(&request).unwrap()
}

fn text(response: &Response) -> String {
    let answer = json::parse_bytes(response.body()).unwrap();
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {}", answer))
        .to_string()
}

fn challenge(response: &Response) -> String {
    response
        .header("www-authenticate")
        .unwrap_or_default()
        .to_string()
}

#[test]
#[ignore = "needs oidc-provider: .ci/run starts it and sets HTTPTOOL_OIDC_PROVIDER"]
fn a_token_issued_for_this_resource_is_accepted_and_kept_from_the_api() {
    let api = crate::support::Server::json(r#"{"city":"Oslo"}"#);
    let (addr, resource) = start(&api, "mcp-server-secret");
    let token = token("agent", &resource, "tools");
    let response = call(addr, "whoami", &token);
    assert_eq!(response.status(), 200, "{}", challenge(&response));
    assert_eq!(text(&response), "agent|tools");
    let response = call(addr, "get_weather", &token);
    assert!(text(&response).contains("Oslo"));
    let upstream = api.requests();
    assert_eq!(upstream.len(), 1);
    assert!(!String::from_utf8_lossy(&upstream[0].raw()).contains(&token));
    assert_eq!(upstream[0].header("authorization"), None);
}

#[test]
#[ignore = "needs oidc-provider: .ci/run starts it and sets HTTPTOOL_OIDC_PROVIDER"]
fn tokens_for_another_resource_without_the_scope_revoked_or_made_up_are_refused() {
    let api = crate::support::Server::json("{}");
    let (addr, resource) = start(&api, "mcp-server-secret");
    let elsewhere = token("agent", "http://127.0.0.1:1/mcp", "tools");
    let response = call(addr, "whoami", &elsewhere);
    assert_eq!(response.status(), 401);
    assert!(challenge(&response)
        .contains("error_description=\"the token was not issued for this resource\""));
    let read_only = token("agent", &resource, "read");
    let response = call(addr, "whoami", &read_only);
    assert_eq!(response.status(), 403);
    assert!(challenge(&response).contains("error=\"insufficient_scope\""));
    let revoked = token("agent", &resource, "tools");
    revoke("agent", &revoked);
    let response = call(addr, "whoami", &revoked);
    assert_eq!(response.status(), 401);
    assert!(challenge(&response).contains("error_description=\"the token is not active\""));
    let response = call(addr, "whoami", "made-up-token");
    assert_eq!(response.status(), 401);
    assert!(challenge(&response).contains("error=\"invalid_token\""));
}

#[test]
#[ignore = "needs oidc-provider: .ci/run starts it and sets HTTPTOOL_OIDC_PROVIDER"]
fn an_expired_token_is_refused_though_it_was_accepted_and_cached() {
    let api = crate::support::Server::json("{}");
    let (addr, resource) = start(&api, "mcp-server-secret");
    // short-agent's tokens live 2 seconds.
    let short = token("short-agent", &resource, "tools");
    assert_eq!(call(addr, "whoami", &short).status(), 200);
    thread::sleep(Duration::from_millis(3500));
    let response = call(addr, "whoami", &short);
    assert_eq!(response.status(), 401);
    assert!(challenge(&response).contains("error=\"invalid_token\""));
}

#[test]
#[ignore = "needs oidc-provider: .ci/run starts it and sets HTTPTOOL_OIDC_PROVIDER"]
fn a_server_whose_own_secret_is_wrong_answers_503() {
    let api = crate::support::Server::json("{}");
    let (addr, resource) = start(&api, "not-the-secret");
    let token = token("agent", &resource, "tools");
    let response = call(addr, "whoami", &token);
    assert_eq!(response.status(), 503);
    assert!(String::from_utf8_lossy(response.body()).contains("answered 401"));
    assert_eq!(response.header("www-authenticate"), None);
}
