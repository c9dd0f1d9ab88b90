//! MCP over Streamable HTTP through the library: `mcp::HttpTransport` on an `HttpServer` on
//! loopback, driven by httptool's own client. Both eras without a session, the header checks
//! of revision 2026-07-28, and the refusals (token, Origin, Host, methods, media types).

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread;

use httptool::http::{Client, HttpServer, Request, Response, ServerConfig, Transport};
use httptool::json;
use httptool::json::{Json, Map};
use httptool::mcp::{HttpTransport, Server};
use httptool::plugin::{Endpoint, HttpPlugin};
use httptool::tool::{CallContext, ToolRegistry, ToolSpec};

const MODERN: &str = "2026-07-28";
const TOKEN: &str = "test-token-0123456789";

/// A plugin tool against a loopback API, and a tool that reports progress.
fn registry(api: &crate::support::Server) -> ToolRegistry {
    let plugin = HttpPlugin::builder("weather", api.base())
        .description("City weather")
        .endpoint(Endpoint::get("get_weather", "/v1/weather"))
        .build()
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let slow = ToolSpec::without_parameters("slow", "Reports progress").unwrap();
    registry
        .add_fn(slow, |_: Map, context: &CallContext| {
            context.report_progress(1, Some(2), "half");
            context.report_progress(2, Some(2), "done");
            "finished"
        })
        .unwrap();
    registry
}

/// A transport on a free loopback port.
fn start(
    api: &crate::support::Server,
    configure: impl FnOnce(HttpTransport) -> HttpTransport,
) -> SocketAddr {
    let stateless = Server::new().stateless(Arc::new(registry(api)));
    let transport = configure(HttpTransport::new(stateless));
    let server = HttpServer::bind("127.0.0.1:0", ServerConfig::new()).unwrap();
    let addr = server.local_addr().unwrap();
    thread::spawn(move || transport.serve(&server));
    addr
}

fn api() -> crate::support::Server {
    crate::support::Server::json(r#"{"city":"Oslo","temp_c":4}"#)
}

/// A 2026-07-28 request's body and its mirrored headers.
fn modern(method: &str, params: Json) -> (String, Vec<(&'static str, String)>) {
    let mut params = params.into_object().unwrap_or_default();
    params.insert(
        "_meta",
        json!({"io.modelcontextprotocol/protocolVersion": MODERN,
               "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
               "io.modelcontextprotocol/clientCapabilities": {}}),
    );
    let mut headers = vec![
        ("MCP-Protocol-Version", MODERN.to_string()),
        ("Mcp-Method", method.to_string()),
    ];
    if let Some(name) = params.get("name").and_then(Json::as_str) {
        headers.push(("Mcp-Name", name.to_string()));
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    (body.to_string(), headers)
}

fn post(addr: SocketAddr, body: &str, headers: &[(&str, String)]) -> Response {
    let mut request = Request::post(&format!("http://{}/mcp", addr))
        .unwrap()
        .with_header("Content-Type", "application/json")
        .unwrap()
        .with_header("Accept", "application/json, text/event-stream")
        .unwrap()
        .with_body(body.as_bytes().to_vec());
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("host") {
            request.set_host(value).unwrap();
        } else {
            request = request.with_header(name, value).unwrap();
        }
    }
    Client::new().send(&request).unwrap()
}

fn with_token(mut headers: Vec<(&'static str, String)>) -> Vec<(&'static str, String)> {
    headers.push(("Authorization", format!("Bearer {}", TOKEN)));
    headers
}

fn body(response: &Response) -> Json {
    json::parse_bytes(response.body())
        .unwrap_or_else(|e| panic!("{}: {:?}", e, String::from_utf8_lossy(response.body())))
}

#[test]
fn discover_list_and_call_at_2026_07_28_without_a_session() {
    let api = api();
    let addr = start(&api, |t| t);
    let (text, headers) = modern("server/discover", json!({}));
    let response = post(addr, &text, &headers);
    assert_eq!(response.status(), 200);
    assert_eq!(response.header("content-type"), Some("application/json"));
    assert_eq!(response.header("mcp-session-id"), None);
    let answer = body(&response);
    assert_eq!(answer["result"]["supportedVersions"][0], Json::from(MODERN));

    let (text, headers) = modern("tools/list", json!({}));
    let answer = body(&post(addr, &text, &headers));
    let names: Vec<&str> = answer["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["get_weather", "slow"]);

    let (text, headers) = modern(
        "tools/call",
        json!({"name": "get_weather", "arguments": {}}),
    );
    let answer = body(&post(addr, &text, &headers));
    assert_eq!(answer["result"]["isError"], Json::from(false));
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({"city": "Oslo", "temp_c": 4})
    );
    assert_eq!(answer["result"]["resultType"], Json::from("complete"));
    assert_eq!(api.requests()[0].target, "/v1/weather");
}

#[test]
fn older_revisions_through_initialize_and_their_header() {
    let api = api();
    let addr = start(&api, |t| t);
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let response = post(addr, init, &[]);
    assert_eq!(response.status(), 200);
    assert_eq!(response.header("mcp-session-id"), None);
    assert_eq!(
        body(&response)["result"]["protocolVersion"],
        Json::from("2025-11-25")
    );
    let header = |v: &str| vec![("MCP-Protocol-Version", v.to_string())];
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let response = post(addr, initialized, &header("2025-11-25"));
    assert_eq!(response.status(), 202);
    assert!(response.body().is_empty());
    // Any request at any time: no session was set up, and none is needed.
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let answer = body(&post(addr, list, &header("2025-11-25")));
    assert_eq!(answer["result"]["tools"].as_array().unwrap().len(), 2);
    let call = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather"}}"#;
    let answer = body(&post(addr, call, &header("2025-06-18")));
    assert_eq!(
        answer["result"]["structuredContent"]["city"],
        Json::from("Oslo")
    );
    // 2024-11-05 gets what it defines: no structured content.
    let answer = body(&post(addr, call, &header("2024-11-05")));
    assert!(
        answer["result"].get("structuredContent").is_none(),
        "{}",
        answer
    );
    // Without the header: 2025-03-26, as the specification lets a server assume.
    let answer = body(&post(addr, call, &[]));
    assert!(
        answer["result"].get("structuredContent").is_none(),
        "{}",
        answer
    );
    let ping = r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#;
    assert_eq!(
        body(&post(addr, ping, &header("2025-11-25")))["result"],
        json!({})
    );
    // A revision not spoken: 400 and the revisions that are.
    let response = post(addr, list, &header("1999-01-01"));
    assert_eq!(response.status(), 400);
    assert_eq!(body(&response)["error"]["code"], Json::from(-32022));
}

#[test]
fn progress_comes_in_an_event_stream() {
    let api = api();
    let addr = start(&api, |t| t);
    let (text, headers) = modern(
        "tools/call",
        json!({"name": "slow", "_meta": {"progressToken": "p1"}}),
    );
    // `modern` puts its own _meta over the one given: add the token back.
    let mut value = json::parse(&text).unwrap();
    if let Some(Json::Object(meta)) = value.get_mut("params").and_then(|p| p.get_mut("_meta")) {
        meta.insert("progressToken", "p1");
    }
    let response = post(addr, &value.to_string(), &headers);
    assert_eq!(response.status(), 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let stream = String::from_utf8_lossy(response.body()).into_owned();
    let events: Vec<Json> = stream
        .split("\n\n")
        .filter_map(|event| event.strip_prefix("event: message\ndata: "))
        .map(|data| json::parse(data).unwrap())
        .collect();
    assert_eq!(events.len(), 3, "{}", stream);
    assert_eq!(events[0]["method"], Json::from("notifications/progress"));
    assert_eq!(events[1]["params"]["progress"], Json::from(2));
    assert_eq!(
        events[2]["result"]["content"][0]["text"],
        Json::from("finished")
    );
}

#[test]
fn a_token_is_required_when_set() {
    let api = api();
    let addr = start(&api, |t| t.bearer_token(TOKEN));
    let (text, headers) = modern("server/discover", json!({}));
    let response = post(addr, &text, &headers);
    assert_eq!(response.status(), 401);
    assert_eq!(
        response.header("www-authenticate"),
        Some("Bearer realm=\"mcp\"")
    );
    let mut wrong = headers.clone();
    wrong.push(("Authorization", "Bearer test-token-0123456788".to_string()));
    let response = post(addr, &text, &wrong);
    assert_eq!(response.status(), 401);
    assert!(response
        .header("www-authenticate")
        .unwrap()
        .contains("invalid_token"));
    let response = post(addr, &text, &with_token(headers));
    assert_eq!(response.status(), 200);
    // The health check needs no token.
    let health = Client::new()
        .send(&Request::get(&format!("http://{}/healthz", addr)).unwrap())
        .unwrap();
    assert_eq!((health.status(), health.body()), (200, &b"ok\n"[..]));
}

#[test]
fn foreign_origins_and_hosts_are_refused() {
    let api = api();
    let addr = start(&api, |t| {
        t.allow_origin("https://app.example.com/")
            .allow_host("mcp.example.com")
    });
    let (text, headers) = modern("server/discover", json!({}));
    let with = |name: &'static str, value: &str| {
        let mut h = headers.clone();
        h.push((name, value.to_string()));
        post(addr, &text, &h).status()
    };
    assert_eq!(with("Origin", "http://evil.example"), 403);
    assert_eq!(with("Origin", "null"), 403);
    assert_eq!(with("Origin", "https://app.example.com"), 200);
    // DNS rebinding: a name that resolves to loopback, sent as Host.
    assert_eq!(with("Host", &format!("evil.example:{}", addr.port())), 403);
    assert_eq!(with("Host", &format!("localhost:{}", addr.port() ^ 1)), 403);
    assert_eq!(with("Host", &format!("localhost:{}", addr.port())), 200);
    assert_eq!(with("Host", "mcp.example.com"), 200);
    assert_eq!(with("Host", "mcp.example.com:443"), 200);
}

#[test]
fn an_allowed_origin_gets_a_preflight_and_cors_answers() {
    let api = api();
    let addr = start(&api, |t| {
        t.allow_origin("https://app.example.com")
            .bearer_token(TOKEN)
    });
    let preflight = |origin: &str| {
        let request = Request::new(
            httptool::http::Method::Options,
            &format!("http://{}/mcp", addr),
        )
        .unwrap()
        .with_header("Origin", origin)
        .unwrap()
        .with_header("Access-Control-Request-Method", "POST")
        .unwrap()
        .with_header(
            "Access-Control-Request-Headers",
            "authorization, content-type, mcp-protocol-version",
        )
        .unwrap();
        Client::new().send(&request).unwrap()
    };
    // A preflight carries no credentials (Fetch standard): no token needed.
    let response = preflight("https://app.example.com");
    assert_eq!(response.status(), 204);
    assert_eq!(
        response.header("access-control-allow-origin"),
        Some("https://app.example.com")
    );
    assert_eq!(
        response.header("access-control-allow-methods"),
        Some("POST")
    );
    let allowed = response.header("access-control-allow-headers").unwrap();
    for name in [
        "Authorization",
        "Content-Type",
        "MCP-Protocol-Version",
        "Mcp-Method",
    ] {
        assert!(allowed.contains(name), "{}", allowed);
    }
    assert_eq!(response.header("vary"), Some("Origin"));
    assert_eq!(preflight("https://evil.example").status(), 403);
    // The answers to the page, refusals included, say it may read them.
    let (text, headers) = modern("server/discover", json!({}));
    let mut from_page = headers.clone();
    from_page.push(("Origin", "https://app.example.com".to_string()));
    let refused = post(addr, &text, &from_page);
    assert_eq!(refused.status(), 401);
    assert_eq!(
        refused.header("access-control-allow-origin"),
        Some("https://app.example.com")
    );
    assert!(refused
        .header("access-control-expose-headers")
        .unwrap()
        .contains("WWW-Authenticate"));
    let answered = post(addr, &text, &with_token(from_page));
    assert_eq!(answered.status(), 200);
    assert_eq!(
        answered.header("access-control-allow-origin"),
        Some("https://app.example.com")
    );
    // Without an Origin (not a browser), no CORS fields.
    let plain = post(addr, &text, &with_token(headers));
    assert_eq!(plain.header("access-control-allow-origin"), None);
}

#[test]
fn headers_must_mirror_the_body_at_2026_07_28() {
    let api = api();
    let addr = start(&api, |t| t);
    let (text, headers) = modern(
        "tools/call",
        json!({"name": "get_weather", "arguments": {}}),
    );
    let mismatch = |headers: Vec<(&'static str, String)>| {
        let response = post(addr, &text, &headers);
        (response.status(), body(&response)["error"]["code"].as_i64())
    };
    let without = |name: &str| -> Vec<(&'static str, String)> {
        headers
            .iter()
            .filter(|(n, _)| *n != name)
            .cloned()
            .collect()
    };
    let replaced = |name: &'static str, value: &str| {
        let mut h = without(name);
        h.push((name, value.to_string()));
        h
    };
    for case in [
        without("MCP-Protocol-Version"),
        without("Mcp-Method"),
        without("Mcp-Name"),
        replaced("MCP-Protocol-Version", "2025-11-25"),
        replaced("Mcp-Method", "tools/list"),
        replaced("Mcp-Name", "slow"),
    ] {
        assert_eq!(mismatch(case), (400, Some(-32020)));
    }
    // The name may come base64-encoded.
    let encoded = replaced("Mcp-Name", "=?base64?Z2V0X3dlYXRoZXI=?=");
    assert_eq!(post(addr, &text, &encoded).status(), 200);
    // A method this revision does not offer: 404 with -32601.
    let (text, headers) = modern("resources/list", json!({}));
    let response = post(addr, &text, &headers);
    assert_eq!(response.status(), 404);
    assert_eq!(body(&response)["error"]["code"], Json::from(-32601));
}

#[test]
fn the_endpoint_takes_one_json_message_by_post() {
    let api = api();
    let addr = start(&api, |t| t);
    let client = Client::new();
    let url = format!("http://{}/mcp", addr);
    for request in [Request::get(&url).unwrap(), Request::delete(&url).unwrap()] {
        let response = client.send(&request).unwrap();
        assert_eq!(response.status(), 405);
        assert_eq!(response.header("allow"), Some("POST"));
    }
    let other = client
        .send(&Request::get(&format!("http://{}/other", addr)).unwrap())
        .unwrap();
    assert_eq!(other.status(), 404);
    let text_plain = Request::post(&url)
        .unwrap()
        .with_header("Content-Type", "text/plain")
        .unwrap()
        .with_body(b"{}".to_vec());
    assert_eq!(client.send(&text_plain).unwrap().status(), 415);
    let html_only = Request::post(&url)
        .unwrap()
        .with_header("Content-Type", "application/json")
        .unwrap()
        .with_header("Accept", "text/html")
        .unwrap()
        .with_body(b"{}".to_vec());
    assert_eq!(client.send(&html_only).unwrap().status(), 406);
    for (text, code) in [
        ("{not json", -32700),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, -32600),
        (r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, -32600),
    ] {
        let response = post(addr, text, &[]);
        assert_eq!(response.status(), 400, "{}", text);
        assert_eq!(
            body(&response)["error"]["code"],
            Json::from(code),
            "{}",
            text
        );
    }
}
