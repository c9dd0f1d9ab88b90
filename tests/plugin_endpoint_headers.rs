//! An endpoint's own static headers (`"headers"` on an endpoint, `endpoint_header` in Rust):
//! sent with that endpoint's calls only, over the plugin's headers, checked as the plugin's
//! are, secret where they come from the environment, and written back by `to_json`.

use crate::support::Server;
use httptool::plugin::{Auth, ConfigValue, Endpoint, ErrorKind, HttpPlugin, Param};
use httptool::tool::{CallContext, ToolCall, ToolRegistry};

const SESSION: &str = "session=4f9c2a7d81e3b6055c1d";

fn file(base: &str, endpoint_headers: &str) -> String {
    format!(
        r#"{{"name": "app", "base_url": "{base}",
            "headers": {{"Accept": "application/json", "X-Tenant": "plugin"}},
            "endpoints": [
              {{"name": "list_orders", "path": "/orders", "headers": {endpoint_headers}}},
              {{"name": "get_status", "path": "/status"}}]}}"#
    )
}

fn lookup(name: &str) -> Option<String> {
    match name {
        "APP_COOKIE" => Some(SESSION.to_string()),
        _ => None,
    }
}

fn call_all(plugin: &HttpPlugin, tools: &[&str]) {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    for tool in tools {
        let out = registry.call(&ToolCall::new("1", *tool, "{}"));
        assert!(!out.is_error(), "{}: {}", tool, out.text());
    }
}

#[test]
fn an_endpoint_header_goes_with_that_endpoint_only_and_wins_over_the_plugins() {
    let server = Server::json("{}");
    let text = file(
        &server.base(),
        r#"{"Cookie": "${APP_COOKIE}", "x-tenant": "orders"}"#,
    );
    let plugin = HttpPlugin::from_json_with(&text, lookup).unwrap();
    call_all(&plugin, &["list_orders", "get_status"]);
    let sent = server.requests();
    assert_eq!(sent[0].header("cookie").as_deref(), Some(SESSION));
    assert_eq!(sent[0].header("x-tenant").as_deref(), Some("orders"));
    assert_eq!(
        sent[0].header("accept").as_deref(),
        Some("application/json")
    );
    assert_eq!(
        sent[0]
            .head
            .to_ascii_lowercase()
            .matches("x-tenant:")
            .count(),
        1,
        "the plugin's header is replaced, not repeated: {}",
        sent[0].head
    );
    assert_eq!(sent[1].header("cookie"), None);
    assert_eq!(sent[1].header("x-tenant").as_deref(), Some("plugin"));
}

#[test]
fn the_file_round_trips_with_the_variable_never_the_value() {
    let text = file(
        "https://app.example.com",
        r#"{"Cookie": "${APP_COOKIE}", "X-Trace": "on", "X-User": {"context": "user"}}"#,
    );
    let plugin = HttpPlugin::from_json_with(&text, lookup).unwrap();
    let written = plugin.to_json();
    let headers = written
        .pointer("/endpoints/0/headers")
        .expect("the endpoint's headers are written");
    assert_eq!(
        headers.to_string(),
        r#"{"Cookie":"${APP_COOKIE}","X-Trace":"on","X-User":{"context":"user"}}"#
    );
    assert!(written.pointer("/endpoints/1/headers").is_none());
    assert!(!written.to_string().contains(SESSION));
    let again = HttpPlugin::from_json_with(&written.to_string(), lookup).unwrap();
    assert_eq!(again.to_json(), written);
    let endpoint = again.endpoint("list_orders").unwrap();
    let names: Vec<&str> = endpoint
        .endpoint_headers()
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(names, ["Cookie", "X-Trace", "X-User"]);
}

#[test]
fn secret_values_are_masked_in_dry_runs_debug_and_curl() {
    let text = file(
        "https://app.example.com",
        r#"{"Cookie": "${APP_COOKIE}", "X-Api-Key": "k-20f4c9e1d7a3b5"}"#,
    );
    let plugin = HttpPlugin::from_json_with(&text, lookup).unwrap();
    let dry = plugin
        .dry_run("list_orders", "{}", &CallContext::new())
        .unwrap();
    let shown = dry.to_string();
    assert!(shown.contains("Cookie: ***"), "{}", shown);
    assert!(shown.contains("X-Api-Key: ***"), "{}", shown);
    assert!(!shown.contains(SESSION) && !shown.contains("k-20f4c9e1d7a3b5"));
    let debug = format!("{:?}", plugin);
    assert!(!debug.contains(SESSION) && !debug.contains("k-20f4c9e1d7a3b5"));
    let curl = httptool::curl::to_curl(&plugin, "list_orders").unwrap();
    assert!(curl.contains("Cookie: ***"), "{}", curl);
    assert!(!curl.contains(SESSION), "{}", curl);
}

#[test]
fn a_header_from_the_context_is_filled_per_call() {
    let server = Server::json("{}");
    let text = file(&server.base(), r#"{"X-User": {"context": "user"}}"#);
    let plugin = HttpPlugin::from_json(&text).unwrap();
    let context = CallContext::new().with("user", "u-17");
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let out = registry.call_with(&ToolCall::new("1", "list_orders", "{}"), &context);
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(
        server.requests()[0].header("x-user").as_deref(),
        Some("u-17")
    );
    let out = registry.call(&ToolCall::new("2", "list_orders", "{}"));
    assert!(out.is_error());
    assert_eq!(server.requests().len(), 1, "nothing is sent without it");
}

#[test]
fn an_unset_variable_refuses_that_endpoints_calls_only() {
    let server = Server::json("{}");
    let text = file(
        &server.base(),
        r#"{"Cookie": "${HTTPTOOL_TEST_UNSET_COOKIE}"}"#,
    );
    let missing = HttpPlugin::from_json_with(&text, |_| None).unwrap_err();
    assert_eq!(missing.kind(), ErrorKind::MissingVariable);
    assert_eq!(missing.path(), "endpoints[0].headers.Cookie");
    let plugin = HttpPlugin::from_json_deferred(&text).unwrap();
    assert_eq!(plugin.unset_variables(), ["HTTPTOOL_TEST_UNSET_COOKIE"]);
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let out = registry.call(&ToolCall::new("1", "list_orders", "{}"));
    assert!(out.is_error());
    assert!(
        out.text().contains("HTTPTOOL_TEST_UNSET_COOKIE"),
        "{}",
        out.text()
    );
    let out = registry.call(&ToolCall::new("2", "get_status", "{}"));
    assert!(!out.is_error(), "{}", out.text());
    let sent = server.requests();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].head.starts_with("GET /status "));
}

#[test]
fn endpoint_headers_are_checked_as_the_plugins_are() {
    let cases: [(&str, &str, ErrorKind, &str); 5] = [
        (
            "a control character",
            r#"{"X-Note": "a\r\nX-Evil: 1"}"#,
            ErrorKind::InvalidHeader,
            "endpoints[0].headers.X-Note",
        ),
        (
            "not a token",
            r#"{"X Note": "a"}"#,
            ErrorKind::InvalidHeader,
            "endpoints[0].headers.X Note",
        ),
        (
            "written by the client",
            r#"{"Content-Length": "3"}"#,
            ErrorKind::InvalidHeader,
            "endpoints[0].headers.Content-Length",
        ),
        (
            "the plugin's virtual host",
            r#"{"Host": "other.example.com"}"#,
            ErrorKind::InvalidHeader,
            "endpoints[0].headers.Host",
        ),
        (
            "declared twice",
            r#"{"X-Note": "a", "x-note": "b"}"#,
            ErrorKind::DuplicateName,
            "endpoints[0].headers.x-note",
        ),
    ];
    for (why, headers, kind, path) in cases {
        let err = HttpPlugin::from_json(&file("https://app.example.com", headers)).unwrap_err();
        assert_eq!((err.kind(), err.path()), (kind, path), "{}: {}", why, err);
        assert!(!err.to_string().contains("X-Evil"), "{}", err);
    }
}

#[test]
fn an_endpoint_header_cannot_take_the_place_of_auth_or_be_shadowed() {
    let build = |endpoint: Endpoint| {
        HttpPlugin::builder("app", "https://app.example.com")
            .auth(Auth::bearer("t0k3n-0123456789"))
            .endpoint(endpoint)
            .build()
    };
    let err = build(
        Endpoint::get("a", "/a")
            .endpoint_header("authorization", "Bearer x")
            .into(),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidHeader);
    assert_eq!(err.path(), "endpoints[0].headers.authorization");
    // Without the plugin's auth on that endpoint, it is that endpoint's credential.
    let plugin = build(
        Endpoint::get("a", "/a")
            .no_auth()
            .endpoint_header("Authorization", ConfigValue::context("token"))
            .into(),
    )
    .unwrap();
    assert_eq!(plugin.endpoint("a").unwrap().endpoint_headers().len(), 1);
    let err = build(
        Endpoint::get("a", "/a")
            .endpoint_header("X-Api-Key", "k")
            .param(Param::header("key").wire_name("x-api-key"))
            .into(),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidHeader);
    assert!(err.to_string().contains("shadow"), "{}", err);
}
