//! OAuth 2.0 auth of plugins on the wire: a token server and an API server on
//! loopback inside each test, both counting what they receive. The token server checks the
//! client (Basic or body credentials, RFC 6749 section 2.3.1), issues `tok-N` tokens with the
//! `expires_in` the test asks for, refuses unknown clients with `invalid_client` (section 5.2)
//! and rotates refresh tokens (section 6); the API accepts only tokens the token server
//! issued and has not revoked. The same behaviour against a real OAuth 2.0 server is in
//! `tests/plugin_oauth_mock.rs`.

use std::collections::{HashMap, HashSet};
use std::sync::mpsc;
use std::sync::{Arc, Barrier, Mutex};
use std::thread;

use httptool::curl;
use httptool::http::{self, AddressPolicy, Config};
use httptool::json;
use httptool::openapi;
use httptool::plugin::{Auth, ClientAuth, Exchange, HttpPlugin, OAuth2, RotatedToken};
use httptool::tool::{CallContext, ErrorKind, Tool, ToolCall, ToolRegistry};

use crate::support::plugin::{Received, Server};

/// What the token server knows and has done.
#[derive(Default)]
struct Issuer {
    /// Client id to secret.
    clients: HashMap<String, String>,
    /// The refresh token that works now (each use rotates it, when `rotate`).
    refresh: Option<String>,
    rotate: bool,
    expires_in: Option<u64>,
    issued: Vec<String>,
    /// Token requests seen, with the client id they authenticated as.
    requests: Vec<String>,
    /// Tokens the API refuses from now on.
    revoked: HashSet<String>,
}

type Shared = Arc<Mutex<Issuer>>;

fn form(body: &[u8]) -> HashMap<String, String> {
    let text = String::from_utf8_lossy(body);
    text.split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

fn decode(text: &str) -> String {
    let bytes = httptool::url::form_decode(text);
    String::from_utf8(bytes).unwrap()
}

/// The client of a token request: Basic credentials (form-decoded, section 2.3.1), else the
/// body's `client_id` and `client_secret`.
fn client_of(request: &Received, fields: &HashMap<String, String>) -> (String, String) {
    if let Some(basic) = request.header("authorization") {
        let encoded = basic.strip_prefix("Basic ").unwrap();
        let decoded = String::from_utf8(base64_decode(encoded)).unwrap();
        let (id, secret) = decoded.split_once(':').unwrap();
        return (decode(id), decode(secret));
    }
    let get = |k: &str| fields.get(k).cloned().unwrap_or_default();
    (get("client_id"), get("client_secret"))
}

fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut buffer, mut bits) = (0u32, 0);
    for b in text.trim_end_matches('=').bytes() {
        let value = ALPHABET.iter().position(|&a| a == b).unwrap() as u32;
        buffer = (buffer << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    out
}

fn json_reply(status: &str, body: String) -> (String, String, Vec<u8>) {
    (
        status.to_string(),
        String::from("Content-Type: application/json\r\nCache-Control: no-store\r\n"),
        body.into_bytes(),
    )
}

/// A token server for `issuer`, optionally held until `gate` says go.
fn token_server(issuer: Shared, gate: Option<Arc<Mutex<mpsc::Receiver<()>>>>) -> Server {
    Server::responding(move |request| {
        if let Some(gate) = &gate {
            let _ = gate.lock().unwrap().recv();
        }
        let fields = form(&request.body);
        let (id, secret) = client_of(request, &fields);
        let mut issuer = issuer.lock().unwrap();
        issuer.requests.push(id.clone());
        if issuer.clients.get(&id) != Some(&secret) {
            return json_reply(
                "401 Unauthorized",
                String::from(
                    r#"{"error":"invalid_client","error_description":"Client authentication failed."}"#,
                ),
            );
        }
        let mut extra = String::new();
        if fields.get("grant_type").map(String::as_str) == Some("refresh_token") {
            if fields.get("refresh_token") != issuer.refresh.as_ref() {
                return json_reply(
                    "400 Bad Request",
                    String::from(r#"{"error":"invalid_grant"}"#),
                );
            }
            if issuer.rotate {
                let next = format!("rt-{}", issuer.requests.len());
                extra = format!(r#","refresh_token":"{}""#, next);
                issuer.refresh = Some(next);
            }
        } else {
            assert_eq!(fields.get("grant_type").unwrap(), "client_credentials");
        }
        let token = format!("tok-{}-{}", id, issuer.issued.len() + 1);
        issuer.issued.push(token.clone());
        let expires = match issuer.expires_in {
            Some(seconds) => format!(r#","expires_in":{}"#, seconds),
            None => String::new(),
        };
        json_reply(
            "200 OK",
            format!(
                r#"{{"access_token":"{}","token_type":"Bearer"{}{}}}"#,
                token, expires, extra
            ),
        )
    })
}

/// An API answering `{"ok":true}` to an issued, unrevoked token, else 401.
fn api_server(issuer: Shared) -> Server {
    Server::responding(move |request| {
        let issuer = issuer.lock().unwrap();
        let token = request
            .header("authorization")
            .and_then(|v| v.strip_prefix("Bearer ").map(str::to_string))
            .unwrap_or_default();
        let issued = issuer.issued.iter().position(|t| *t == token);
        if let (Some(n), false) = (issued, issuer.revoked.contains(&token)) {
            // `echo` sends the token back: the model must get `***` instead.
            let echo = if request.target.contains("echo") {
                token.as_str()
            } else {
                ""
            };
            json_reply(
                "200 OK",
                format!(r#"{{"ok":true,"issued":{},"echo":"{}"}}"#, n + 1, echo),
            )
        } else {
            (
                String::from("401 Unauthorized"),
                String::from("WWW-Authenticate: Bearer error=\"invalid_token\"\r\n"),
                b"{\"error\":\"invalid_token\"}".to_vec(),
            )
        }
    })
}

fn issuer_with(clients: &[(&str, &str)], expires_in: Option<u64>) -> Shared {
    Arc::new(Mutex::new(Issuer {
        clients: clients
            .iter()
            .map(|(id, secret)| (id.to_string(), secret.to_string()))
            .collect(),
        expires_in,
        ..Issuer::default()
    }))
}

/// A plugin file for `api` whose auth is `auth` (a JSON object), with a GET and a POST.
fn plugin_file(api: &Server, auth: &str) -> String {
    format!(
        r#"{{"name": "crm", "base_url": "{}", "auth": {},
            "endpoints": [
              {{"name": "list_contacts", "method": "GET", "path": "/contacts"}},
              {{"name": "echo", "method": "GET", "path": "/echo"}},
              {{"name": "create_contact", "method": "POST", "path": "/contacts",
                "params": [{{"name": "name", "in": "body"}}]}}
            ]}}"#,
        api.base(),
        auth
    )
}

fn client_credentials(tokens: &Server, extra: &str) -> String {
    format!(
        r#"{{"type": "oauth2_client_credentials", "token_url": "{}",
            "client_id": "svc", "client_secret": "s3cret-value", "scope": "contacts:read"{}}}"#,
        tokens.url("/oauth/token"),
        extra
    )
}

/// An issuer knowing client `svc` (secret `s3cret-value`) whose tokens last `expires_in`
/// seconds, its token server, and the API checking its tokens: what most tests start from.
fn svc_servers(expires_in: Option<u64>) -> (Shared, Server, Server) {
    let issuer = issuer_with(&[("svc", "s3cret-value")], expires_in);
    let tokens = token_server(issuer.clone(), None);
    let api = api_server(issuer.clone());
    (issuer, tokens, api)
}

/// The plugin for `api` whose auth gets tokens from `tokens` as client `svc`.
fn svc_plugin(api: &Server, tokens: &Server) -> HttpPlugin {
    HttpPlugin::from_json(&plugin_file(api, &client_credentials(tokens, ""))).unwrap()
}

fn call(plugin: &HttpPlugin, tool: &str, context: &CallContext) -> httptool::tool::ToolOutput {
    let arguments = if tool == "create_contact" {
        r#"{"name":"Ann"}"#
    } else {
        "{}"
    };
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    registry.call_with(&ToolCall::new("c", tool, arguments), context)
}

#[test]
fn the_first_call_fetches_a_token_with_a_form_post_and_sends_it_as_bearer() {
    let (_, tokens, api) = svc_servers(Some(3600));
    let plugin = svc_plugin(&api, &tokens);
    let out = call(&plugin, "list_contacts", &CallContext::new());
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(out.text(), r#"{"ok":true,"issued":1,"echo":""}"#);

    let sent = tokens.requests();
    assert_eq!(sent.len(), 1);
    let request = &sent[0];
    assert_eq!(
        (request.method.as_str(), request.target.as_str()),
        ("POST", "/oauth/token")
    );
    assert_eq!(
        request.header("content-type").as_deref(),
        Some("application/x-www-form-urlencoded")
    );
    // client_secret_basic by default: the secret is not in the body.
    assert_eq!(
        request.header("authorization"),
        Some(http::basic_auth("svc", "s3cret-value"))
    );
    assert_eq!(
        String::from_utf8_lossy(&request.body),
        "grant_type=client_credentials&scope=contacts%3Aread"
    );
    assert_eq!(
        api.requests()[0].header("authorization").as_deref(),
        Some("Bearer tok-svc-1")
    );
    // An API echoing the access token: the model reads `***`.
    let out = call(&plugin, "echo", &CallContext::new());
    assert_eq!(out.text(), r#"{"ok":true,"issued":1,"echo":"***"}"#);
}

#[test]
fn client_auth_body_sends_the_credentials_in_the_form() {
    let (_, tokens, api) = svc_servers(Some(3600));
    let auth = client_credentials(
        &tokens,
        r#", "client_auth": "body", "audience": "https://api""#,
    );
    let plugin = HttpPlugin::from_json(&plugin_file(&api, &auth)).unwrap();
    assert!(!call(&plugin, "list_contacts", &CallContext::new()).is_error());
    let request = &tokens.requests()[0];
    assert_eq!(request.header("authorization"), None);
    assert_eq!(
        String::from_utf8_lossy(&request.body),
        "grant_type=client_credentials&scope=contacts%3Aread&audience=https%3A%2F%2Fapi&client_id=svc&client_secret=s3cret-value"
    );
}

#[test]
fn one_token_request_serves_100_calls() {
    let (_, tokens, api) = svc_servers(Some(3600));
    let plugin = svc_plugin(&api, &tokens);
    for _ in 0..100 {
        let out = call(&plugin, "list_contacts", &CallContext::new());
        assert!(!out.is_error(), "{}", out.text());
    }
    assert_eq!(tokens.requests().len(), 1);
    assert_eq!(api.requests().len(), 100);
}

#[test]
fn an_expired_token_is_renewed() {
    // `expires_in: 0`: each token is stale once its call is done, so each call renews it
    // (the margin rule itself is a unit test in `token.rs`).
    let (_, tokens, api) = svc_servers(Some(0));
    let plugin = svc_plugin(&api, &tokens);
    for n in 1..=3 {
        let out = call(&plugin, "list_contacts", &CallContext::new());
        assert_eq!(
            out.text(),
            format!(r#"{{"ok":true,"issued":{},"echo":""}}"#, n)
        );
    }
    assert_eq!(tokens.requests().len(), 3);
}

#[test]
fn a_401_for_a_cached_token_refetches_once_and_retries_a_get_once() {
    let (issuer, tokens, api) = svc_servers(Some(3600));
    let plugin = svc_plugin(&api, &tokens);
    assert!(!call(&plugin, "list_contacts", &CallContext::new()).is_error());
    issuer
        .lock()
        .unwrap()
        .revoked
        .insert(String::from("tok-svc-1"));
    let out = call(&plugin, "list_contacts", &CallContext::new());
    assert_eq!(out.text(), r#"{"ok":true,"issued":2,"echo":""}"#);
    assert_eq!(tokens.requests().len(), 2);
    assert_eq!(api.requests().len(), 3);
}

#[test]
fn a_401_for_a_post_is_never_sent_twice_and_says_the_token_was_refused() {
    let (issuer, tokens, api) = svc_servers(Some(3600));
    let plugin = svc_plugin(&api, &tokens);
    assert!(!call(&plugin, "list_contacts", &CallContext::new()).is_error());
    issuer
        .lock()
        .unwrap()
        .revoked
        .insert(String::from("tok-svc-1"));
    let out = call(&plugin, "create_contact", &CallContext::new());
    assert_eq!(out.error_kind(), Some(ErrorKind::HttpStatus));
    assert_eq!(out.status(), Some(401));
    assert!(
        out.text().starts_with(
            "the API refused the cached access token (HTTP 401); the POST request was not repeated because it is not idempotent, and the next call gets a new token; "
        ),
        "{}",
        out.text()
    );
    let posts = api.requests().iter().filter(|r| r.method == "POST").count();
    assert_eq!(posts, 1);
    assert_eq!(tokens.requests().len(), 1);
    // The refused token was dropped: the next call fetches a new one.
    let out = call(&plugin, "create_contact", &CallContext::new());
    assert_eq!(out.text(), r#"{"ok":true,"issued":2,"echo":""}"#);
}

#[test]
fn a_401_for_a_token_just_issued_is_not_retried() {
    let issuer = issuer_with(&[("svc", "s3cret-value")], Some(3600));
    let tokens = token_server(issuer.clone(), None);
    // An API that refuses every token.
    let api = Server::responding(|_| (String::from("401 Unauthorized"), String::new(), Vec::new()));
    let plugin = svc_plugin(&api, &tokens);
    let out = call(&plugin, "list_contacts", &CallContext::new());
    assert_eq!(out.error_kind(), Some(ErrorKind::HttpStatus));
    assert!(
        out.text().starts_with("the API refused the access token the token endpoint had just issued (HTTP 401): check the scope and audience the plugin asks for; "),
        "{}",
        out.text()
    );
    assert_eq!((tokens.requests().len(), api.requests().len()), (1, 1));
}

#[test]
fn an_invalid_client_is_a_clear_error_without_the_secret() {
    let issuer = issuer_with(&[("svc", "another-secret")], Some(3600));
    let tokens = token_server(issuer.clone(), None);
    let api = api_server(issuer.clone());
    let plugin = svc_plugin(&api, &tokens);
    let out = call(&plugin, "list_contacts", &CallContext::new());
    assert_eq!(out.error_kind(), Some(ErrorKind::AuthFailed));
    assert_eq!(out.status(), Some(401));
    assert_eq!(
        out.text(),
        "could not get an access token: the token endpoint answered HTTP 401 with OAuth error 'invalid_client' (client authentication failed: an unknown client, a wrong secret, or a client authentication method the server does not accept): Client authentication failed.; this is not caused by the arguments"
    );
    assert!(!out.text().contains("s3cret"));
    assert_eq!(api.requests().len(), 0);
}

#[test]
fn a_token_endpoint_echoing_the_secret_is_masked() {
    let tokens = Server::responding(|request| {
        let body = format!(
            r#"{{"error":"invalid_scope","error_description":"scope refused for {}"}}"#,
            String::from_utf8_lossy(&request.body)
        );
        json_reply("400 Bad Request", body)
    });
    let api = Server::json("{}");
    let auth = client_credentials(&tokens, r#", "client_auth": "body""#);
    let plugin = HttpPlugin::from_json(&plugin_file(&api, &auth)).unwrap();
    let out = call(&plugin, "list_contacts", &CallContext::new());
    assert_eq!(out.error_kind(), Some(ErrorKind::AuthFailed));
    assert!(
        out.text()
            .contains("OAuth error 'invalid_scope' (the scope asked for is invalid"),
        "{}",
        out.text()
    );
    assert!(out.text().contains("client_secret=***"), "{}", out.text());
    assert!(!out.text().contains("s3cret-value"), "{}", out.text());
}

#[test]
fn a_rotated_refresh_token_replaces_the_old_one_and_the_host_is_told() {
    let issuer = issuer_with(&[("app", "")], Some(0));
    {
        let mut issuer = issuer.lock().unwrap();
        issuer.refresh = Some(String::from("rt-first"));
        issuer.rotate = true;
    }
    let tokens = token_server(issuer.clone(), None);
    let api = api_server(issuer.clone());
    let auth = format!(
        r#"{{"type": "oauth2_refresh_token", "token_url": "{}", "client_id": "app",
            "client_secret": "", "refresh_token": "rt-first"}}"#,
        tokens.url("/token")
    );
    let told: Arc<Mutex<Vec<String>>> = Arc::default();
    let heard = told.clone();
    let plugin = HttpPlugin::from_json(&plugin_file(&api, &auth))
        .unwrap()
        .with_token_listener(Arc::new(move |rotated: &RotatedToken<'_>| {
            assert!(!format!("{:?}", rotated).contains(rotated.refresh_token));
            heard
                .lock()
                .unwrap()
                .push(rotated.refresh_token.to_string())
        }));
    // Each call renews (expires_in 0) with the refresh token the last answer rotated to:
    // the server accepts only the current one.
    for _ in 0..3 {
        let out = call(&plugin, "list_contacts", &CallContext::new());
        assert!(!out.is_error(), "{}", out.text());
    }
    let sent: Vec<String> = tokens
        .requests()
        .iter()
        .map(|r| form(&r.body)["refresh_token"].clone())
        .collect();
    assert_eq!(sent, ["rt-first", "rt-1", "rt-2"]);
    assert_eq!(*told.lock().unwrap(), ["rt-1", "rt-2", "rt-3"]);
}

#[test]
fn eight_threads_sharing_one_plugin_share_one_token_fetch() {
    let issuer = issuer_with(&[("svc", "s3cret-value")], Some(3600));
    // The token server answers only once every thread has started its call, so the calls
    // overlap the fetch.
    let (go, gate) = mpsc::channel();
    let tokens = token_server(issuer.clone(), Some(Arc::new(Mutex::new(gate))));
    let api = api_server(issuer.clone());
    let plugin = svc_plugin(&api, &tokens);
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let registry = Arc::new(registry);
    let started = Arc::new(Barrier::new(9));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let registry = registry.clone();
            let started = started.clone();
            thread::spawn(move || {
                started.wait();
                registry.call(&ToolCall::new("c", "list_contacts", "{}"))
            })
        })
        .collect();
    started.wait();
    go.send(()).unwrap();
    // A second token request (a stampede) would find the gate open, not hang the test.
    drop(go);
    for thread in threads {
        let out = thread.join().unwrap();
        assert_eq!(out.text(), r#"{"ok":true,"issued":1,"echo":""}"#);
    }
    assert_eq!(tokens.requests().len(), 1);
    assert_eq!(api.requests().len(), 8);
}

/// `threads` calls at once on a plugin whose tokens expire at once (`expires_in: 0`): the
/// token server holds its first answer until every call is waiting for it. Returns how many
/// token requests it got.
fn concurrent_calls_with_expiring_tokens(threads: usize) -> usize {
    let issuer = issuer_with(&[("svc", "s3cret-value")], Some(0));
    let (go, gate) = mpsc::channel();
    let tokens = token_server(issuer.clone(), Some(Arc::new(Mutex::new(gate))));
    let api = api_server(issuer.clone());
    let plugin = svc_plugin(&api, &tokens);
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let registry = Arc::new(registry);
    let started = Arc::new(Barrier::new(threads + 1));
    let calls: Vec<_> = (0..threads)
        .map(|_| {
            let registry = registry.clone();
            let started = started.clone();
            thread::spawn(move || {
                started.wait();
                registry.call(&ToolCall::new("c", "list_contacts", "{}"))
            })
        })
        .collect();
    started.wait();
    // Time for every call to reach the token cache and wait on the one fetch.
    thread::sleep(std::time::Duration::from_millis(500));
    go.send(()).unwrap();
    drop(go);
    for call in calls {
        let out = call.join().unwrap();
        assert_eq!(out.text(), r#"{"ok":true,"issued":1,"echo":""}"#);
    }
    assert_eq!(api.requests().len(), threads);
    tokens.requests().len()
}

#[test]
fn a_token_fetched_while_8_calls_wait_serves_them_all_even_if_it_expires_at_once() {
    assert_eq!(concurrent_calls_with_expiring_tokens(8), 1);
}

#[test]
fn a_token_fetched_while_16_calls_wait_serves_them_all_even_if_it_expires_at_once() {
    assert_eq!(concurrent_calls_with_expiring_tokens(16), 1);
}

#[test]
fn two_tenants_through_the_context_get_two_tokens() {
    let issuer = issuer_with(
        &[("acme", "acme-secret"), ("globex", "globex-secret")],
        Some(3600),
    );
    let tokens = token_server(issuer.clone(), None);
    let api = api_server(issuer.clone());
    let auth = r#"{"type": "oauth2_client_credentials", "token_url": {"context": "token_url"},
        "client_id": {"context": "client_id"}, "client_secret": {"context": "client_secret"}}"#;
    let plugin = HttpPlugin::from_json(&plugin_file(&api, auth)).unwrap();
    let tenant = |id: &str| {
        CallContext::new()
            .with("token_url", tokens.url("/token"))
            .with("client_id", id)
            .with("client_secret", format!("{}-secret", id))
    };
    for _ in 0..3 {
        for (id, n) in [("acme", 1), ("globex", 2)] {
            let out = call(&plugin, "list_contacts", &tenant(id));
            assert_eq!(
                out.text(),
                format!(r#"{{"ok":true,"issued":{},"echo":""}}"#, n)
            );
        }
    }
    assert_eq!(
        issuer.lock().unwrap().requests,
        ["acme", "globex"],
        "one token request per tenant"
    );
    // A tenant whose secret is wrong gets its own error, and no other tenant's token.
    let wrong = tenant("acme").with("client_secret", "guess");
    let out = call(&plugin, "list_contacts", &wrong);
    assert_eq!(out.error_kind(), Some(ErrorKind::AuthFailed));
    let missing = call(&plugin, "list_contacts", &CallContext::new());
    assert_eq!(missing.error_kind(), Some(ErrorKind::MissingParameter));
}

#[test]
fn the_token_endpoint_obeys_the_address_policy() {
    let (_, tokens, api) = svc_servers(Some(3600));
    // A client refusing loopback, except for the API's address: the token endpoint on the
    // same address but another port is still loopback, and refused like any address.
    let client = Client::with_config(
        Config::new().address_policy(
            AddressPolicy::strict()
                .allow_host("127.0.0.1")
                .allow_host("localhost"),
        ),
    );
    let text = plugin_file(&api, &client_credentials(&tokens, "")).replace(
        &format!("\"token_url\": \"{}", tokens.base()),
        &format!("\"token_url\": \"http://localhost:{}", tokens.port()),
    );
    let plugin = HttpPlugin::from_json(&text).unwrap().with_client(client);
    let out = call(&plugin, "list_contacts", &CallContext::new());
    assert_eq!(
        out.error_kind(),
        Some(ErrorKind::AddressRefused),
        "{}",
        out.text()
    );
    assert!(
        out.text().starts_with(
            "could not get an access token from the token endpoint: the API's address is refused"
        ),
        "{}",
        out.text()
    );
    assert_eq!(tokens.requests().len(), 0);
}

use httptool::http::Client;

#[test]
fn a_token_url_over_http_off_loopback_is_refused_unless_allowed() {
    let file = |extra: &str| {
        format!(
            r#"{{"name": "crm", "base_url": "https://api.example.com",
                "auth": {{"type": "oauth2_client_credentials", "token_url": "http://login.example.com/token",
                          "client_id": "svc", "client_secret": "x"{}}},
                "endpoints": [{{"name": "list", "path": "/x"}}]}}"#,
            extra
        )
    };
    let err = HttpPlugin::from_json(&file("")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "auth.token_url: the token url http://login.example.com is not https and not loopback: the client secret would cross the network in clear (set allow_http to allow it)"
    );
    assert!(HttpPlugin::from_json(&file(r#", "allow_http": true"#)).is_ok());
    // From the context, it is checked at call time, before anything is sent.
    let plugin = HttpPlugin::from_json(
        r#"{"name": "crm", "base_url": "https://api.example.com",
            "auth": {"type": "oauth2_client_credentials", "token_url": {"context": "url"},
                     "client_id": "svc", "client_secret": "x"},
            "endpoints": [{"name": "list", "path": "/x"}]}"#,
    )
    .unwrap();
    let context = CallContext::new().with("url", "http://login.example.com/token");
    let out = plugin
        .tool("list")
        .unwrap()
        .call(json::Map::new(), &context);
    assert_eq!(out.error_kind(), Some(ErrorKind::AddressRefused));
    assert!(
        out.text().contains("is not https and not loopback"),
        "{}",
        out.text()
    );
}

#[test]
fn secrets_are_masked_in_debug_dry_runs_curl_and_observers() {
    let (_, tokens, api) = svc_servers(Some(3600));
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = seen.clone();
    let plugin = svc_plugin(&api, &tokens).with_observer(Arc::new(move |e: &Exchange<'_>| {
        log.lock()
            .unwrap()
            .push(format!("{} {} {:?}", e.method, e.url, e.status))
    }));
    assert!(!call(&plugin, "list_contacts", &CallContext::new()).is_error());
    let debug = format!("{:?}", plugin);
    assert!(!debug.contains("s3cret-value"), "{}", debug);
    assert!(
        debug.contains("OAuth2 { grant: \"oauth2_client_credentials\""),
        "{}",
        debug
    );
    // The observer sees the token request and the call, without a secret.
    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            format!("POST {} Some(200)", tokens.url("/oauth/token")),
            format!("GET {} Some(200)", api.url("/contacts")),
        ]
    );
    // A dry run fetches nothing and shows no token.
    let dry = plugin
        .dry_run("list_contacts", "{}", &CallContext::new())
        .unwrap();
    let shown = dry.to_string();
    assert!(shown.contains("Authorization: ***\r\n"), "{}", shown);
    assert!(!shown.contains("tok-svc"), "{}", shown);
    assert_eq!(tokens.requests().len(), 1);
    let command = curl::to_curl(&plugin, "list_contacts").unwrap();
    assert_eq!(
        command,
        format!(
            "# the access token is fetched at run time (OAuth 2.0 client credentials grant, RFC 6749 section 4.4) from {}: put it in place of ***\n\
             curl {} -H 'User-Agent: {}' -H 'Authorization: Bearer ***'",
            tokens.url("/oauth/token"),
            api.url("/contacts"),
            http::DEFAULT_USER_AGENT
        )
    );
    let revealed = curl::to_curl_with(
        &plugin,
        "list_contacts",
        None,
        &curl::ExportOptions::new().reveal_secrets(true),
    )
    .unwrap();
    assert!(
        revealed.ends_with("-H 'Authorization: Bearer ***'"),
        "{}",
        revealed
    );
}

#[test]
fn oauth_auth_round_trips_through_the_plugin_file() {
    let text = r#"{"name": "crm", "base_url": "https://api.example.com",
        "auth": {"type": "oauth2_refresh_token", "token_url": "https://login.example.com/token",
                 "client_id": {"context": "client"}, "client_secret": "${SECRET}",
                 "refresh_token": {"context": "refresh"}, "scope": "a b",
                 "audience": "https://api.example.com", "client_auth": "body"},
        "endpoints": [{"name": "list", "path": "/x"}]}"#;
    let plugin = HttpPlugin::from_json_with(text, |_| Some(String::from("v"))).unwrap();
    let written = plugin.to_json().to_string();
    let again = HttpPlugin::from_json_with(&written, |_| Some(String::from("v"))).unwrap();
    assert_eq!(plugin.auth(), again.auth());
    let auth = json::parse(&written).unwrap()["auth"].clone();
    assert_eq!(auth["client_secret"].as_str(), Some("${SECRET}"));
    assert_eq!(auth["client_auth"].as_str(), Some("body"));
    match plugin.auth() {
        Some(Auth::OAuth2(oauth)) => {
            assert_eq!(oauth.scope(), Some("a b"));
            assert_eq!(oauth.client_auth(), ClientAuth::Body);
        }
        other => panic!("{:?}", other),
    }
    let unknown = text.replace("\"scope\"", "\"scopes\"");
    assert!(HttpPlugin::from_json_with(&unknown, |_| Some(String::new())).is_err());
    let built = HttpPlugin::builder("crm", "https://api.example.com")
        .auth(OAuth2::client_credentials("https://login.example.com/t", "id", "s").into())
        .endpoint(httptool::plugin::Endpoint::get("list", "/x"))
        .build()
        .unwrap();
    assert_eq!(
        built.auth().map(Auth::type_name),
        Some("oauth2_client_credentials")
    );
}

#[test]
fn openapi_client_credentials_flows_become_oauth_auth() {
    let doc = json::parse(
        r#"{"openapi": "3.0.3", "info": {"title": "CRM", "version": "1"},
            "servers": [{"url": "https://api.example.com"}],
            "components": {"securitySchemes": {"cc": {"type": "oauth2", "flows": {
                "clientCredentials": {"tokenUrl": "https://login.example.com/oauth/token",
                    "scopes": {"contacts:read": "read", "contacts:write": "write"}}}}}},
            "security": [{"cc": ["contacts:read"]}],
            "paths": {"/contacts": {"get": {"operationId": "listContacts",
                "responses": {"200": {"description": "ok"}}}}}}"#,
    )
    .unwrap();
    let import = openapi::import(&doc).unwrap();
    let written = import.plugin().to_json();
    let auth = &written["auth"];
    assert_eq!(auth["type"].as_str(), Some("oauth2_client_credentials"));
    assert_eq!(
        auth["token_url"].as_str(),
        Some("https://login.example.com/oauth/token")
    );
    // Named by the host the id and secret go to: the token URL's.
    assert_eq!(
        auth["client_id"].as_str(),
        Some("${HTTPTOOL_LOGIN_EXAMPLE_COM___CC_CLIENT_ID}")
    );
    assert_eq!(
        auth["client_secret"].as_str(),
        Some("${HTTPTOOL_LOGIN_EXAMPLE_COM___CC_CLIENT_SECRET}")
    );
    assert_eq!(auth["scope"].as_str(), Some("contacts:read"));
    assert_eq!(
        import.variables(),
        [
            "HTTPTOOL_LOGIN_EXAMPLE_COM___CC_CLIENT_ID",
            "HTTPTOOL_LOGIN_EXAMPLE_COM___CC_CLIENT_SECRET"
        ]
    );
}

#[test]
fn the_tool_trait_call_path_uses_the_cache_too() {
    let (_, tokens, api) = svc_servers(Some(3600));
    let plugin = svc_plugin(&api, &tokens);
    let tool = plugin.tool("list_contacts").unwrap();
    let sent = tool.send(json::Map::new(), &CallContext::new()).unwrap();
    assert_eq!(sent.status(), 200);
    // Another tool of a clone of the plugin shares the cache.
    let other = plugin.clone().tool("list_contacts").unwrap();
    assert!(!other.call(json::Map::new(), &CallContext::new()).is_error());
    assert_eq!(tokens.requests().len(), 1);
}

#[test]
fn unusable_token_responses_are_each_named() {
    let cases = [
        (
            "200 OK",
            "not json",
            "could not get an access token: the token endpoint's answer is not JSON (RFC 6749 section 5.1); this is not caused by the arguments",
        ),
        (
            "200 OK",
            r#"{"token_type":"Bearer"}"#,
            "could not get an access token: the token endpoint's answer has no access_token (RFC 6749 section 5.1); this is not caused by the arguments",
        ),
        (
            "200 OK",
            r#"{"access_token":"abcd","token_type":"mac"}"#,
            "could not get an access token: the token endpoint's answer has token_type 'mac', and only bearer tokens are supported (RFC 6750) (RFC 6749 section 5.1); this is not caused by the arguments",
        ),
        (
            "200 OK",
            r#"{"access_token":"abcd","expires_in":"soon"}"#,
            "could not get an access token: the token endpoint's answer has an expires_in that is not a number of seconds (RFC 6749 section 5.1); this is not caused by the arguments",
        ),
        (
            "503 Service Unavailable",
            "down for maintenance",
            "could not get an access token: the token endpoint answered HTTP 503 without an OAuth error: down for maintenance; this is not caused by the arguments",
        ),
    ];
    for (status, body, expected) in cases {
        let tokens = Server::responding(move |_| json_reply(status, body.to_string()));
        let api = Server::json("{}");
        let plugin = svc_plugin(&api, &tokens);
        let out = call(&plugin, "list_contacts", &CallContext::new());
        assert_eq!(out.error_kind(), Some(ErrorKind::AuthFailed), "{}", body);
        assert_eq!(out.text(), expected);
        assert!(api.requests().is_empty());
    }
}

#[test]
fn swagger_application_flows_become_oauth_auth_and_other_flows_bearer_slots() {
    let doc = json::parse(
        r#"{"swagger": "2.0", "info": {"title": "Old", "version": "1"}, "host": "api.example.com",
            "schemes": ["https"],
            "securityDefinitions": {"app": {"type": "oauth2", "flow": "application",
                "tokenUrl": "https://login.example.com/token", "scopes": {"read": "r"}}},
            "security": [{"app": ["read"]}],
            "paths": {"/x": {"get": {"operationId": "x", "responses": {"200": {"description": "ok"}}}}}}"#,
    )
    .unwrap();
    let import = openapi::import(&doc).unwrap();
    let auth = import.plugin().to_json()["auth"].clone();
    assert_eq!(auth["type"].as_str(), Some("oauth2_client_credentials"));
    assert_eq!(auth["scope"].as_str(), Some("read"));
    let code_flow = json::parse(
        r#"{"openapi": "3.0.3", "info": {"title": "Code", "version": "1"},
            "servers": [{"url": "https://api.example.com"}],
            "components": {"securitySchemes": {"user": {"type": "oauth2", "flows": {
                "authorizationCode": {"authorizationUrl": "https://login.example.com/a",
                    "tokenUrl": "https://login.example.com/t", "scopes": {}}}}}},
            "security": [{"user": []}],
            "paths": {"/x": {"get": {"operationId": "x", "responses": {"200": {"description": "ok"}}}}}}"#,
    )
    .unwrap();
    let import = openapi::import(&code_flow).unwrap();
    assert_eq!(
        import.plugin().to_json()["auth"]["type"].as_str(),
        Some("bearer")
    );
}
