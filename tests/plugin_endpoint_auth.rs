//! An endpoint's own `auth` (an auth object, or `"none"`) and its own `base_url` reading
//! `${NAME}`, on the wire: what each loopback server receives, what the file writes back,
//! and the exported curl command.

use httptool::curl;
use httptool::plugin::{Auth, Endpoint, EndpointAuth, HttpPlugin};
use httptool::tool::{CallContext, ErrorKind, ToolCall, ToolRegistry};

use crate::support::plugin::Server;

/// A plugin with bearer auth: `me` inherits it, `health` sends none, `token` sends basic,
/// `key` an API key in the query; `login` goes to `${AUTH_URL}`.
fn mixed(api: &str) -> String {
    format!(
        r#"{{"name": "shop", "base_url": "{api}",
            "auth": {{"type": "bearer", "token": "${{API_TOKEN}}"}},
            "endpoints": [
              {{"name": "me", "path": "/me"}},
              {{"name": "health", "path": "/health", "auth": "none"}},
              {{"name": "token", "method": "POST", "path": "/token",
                "auth": {{"type": "basic", "username": "${{CLIENT_ID}}", "password": "${{CLIENT_SECRET}}"}}}},
              {{"name": "key", "path": "/key",
                "auth": {{"type": "query", "name": "api_key", "value": "${{API_KEY}}"}}}},
              {{"name": "login", "method": "POST", "path": "/login", "base_url": "${{AUTH_URL}}/v2",
                "auth": "none"}}
            ]}}"#
    )
}

fn lookup(auth_url: Option<String>) -> impl Fn(&str) -> Option<String> {
    move |name: &str| match name {
        "API_TOKEN" => Some("tok-123456".to_string()),
        "CLIENT_ID" => Some("client".to_string()),
        "CLIENT_SECRET" => Some("s3cret-pass".to_string()),
        "API_KEY" => Some("key-987654".to_string()),
        "AUTH_URL" => auth_url.clone(),
        _ => None,
    }
}

fn registry(plugin: &HttpPlugin) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    registry
}

#[test]
fn each_endpoint_sends_its_own_auth_or_none() {
    let api = Server::json("{}");
    let auth = Server::json("{}");
    let text = mixed(&api.base());
    let plugin = HttpPlugin::from_json_with(&text, lookup(Some(auth.base()))).unwrap();
    let registry = registry(&plugin);
    for tool in ["me", "health", "token", "key", "login"] {
        let out = registry.call(&ToolCall::new("1", tool, "{}"));
        assert!(!out.is_error(), "{}: {}", tool, out.text());
    }
    let sent = api.requests();
    assert_eq!(sent.len(), 4);
    let line = |i: usize| sent[i].head.split("\r\n").next().unwrap().to_string();
    assert_eq!(line(0), "GET /me HTTP/1.1");
    assert_eq!(
        sent[0].header("authorization").as_deref(),
        Some("Bearer tok-123456")
    );
    assert_eq!(line(1), "GET /health HTTP/1.1");
    assert_eq!(sent[1].header("authorization"), None);
    assert_eq!(line(2), "POST /token HTTP/1.1");
    assert_eq!(
        sent[2].header("authorization").as_deref(),
        Some("Basic Y2xpZW50OnMzY3JldC1wYXNz")
    );
    assert_eq!(line(3), "GET /key?api_key=key-987654 HTTP/1.1");
    assert_eq!(sent[3].header("authorization"), None);
    // The endpoint's own base URL, from the variable, with no credential.
    let other = auth.requests();
    assert_eq!(other.len(), 1);
    assert!(other[0].head.starts_with("POST /v2/login HTTP/1.1\r\n"));
    assert_eq!(other[0].header("authorization"), None);
}

#[test]
fn the_file_written_back_keeps_each_endpoints_auth_and_base_template() {
    let text = mixed("https://api.example.com");
    let plugin =
        HttpPlugin::from_json_with(&text, lookup(Some("https://auth.example.com".into()))).unwrap();
    let file = plugin.to_json();
    let endpoints = file["endpoints"].as_array().unwrap();
    assert_eq!(endpoints[0].get("auth"), None);
    assert_eq!(endpoints[1]["auth"].as_str(), Some("none"));
    assert_eq!(
        endpoints[2]["auth"].to_string(),
        r#"{"type":"basic","username":"${CLIENT_ID}","password":"${CLIENT_SECRET}"}"#
    );
    assert_eq!(endpoints[4]["base_url"].as_str(), Some("${AUTH_URL}/v2"));
    // No value read from the variables is written.
    let written = file.to_string();
    for secret in [
        "tok-123456",
        "s3cret-pass",
        "key-987654",
        "auth.example.com",
    ] {
        assert!(!written.contains(secret), "{} in {}", secret, written);
    }
    // Read back, it is the same declaration.
    let again =
        HttpPlugin::from_json_with(&written, lookup(Some("https://auth.example.com".into())))
            .unwrap();
    assert!(again.to_json() == file);
    assert_eq!(
        again.endpoint("login").unwrap().base_url(),
        Some("https://auth.example.com/v2")
    );
}

#[test]
fn an_endpoint_base_whose_variable_is_unset_sends_nothing() {
    let api = Server::json("{}");
    let text = mixed(&api.base());
    // Read with every other variable set: loading fails, naming the field.
    let err = HttpPlugin::from_json_with(&text, lookup(None)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[4].base_url: variable 'AUTH_URL' is not set"
    );
    // Deferred: the plugin loads, the other tools work, this one is refused by name.
    std::env::remove_var("HTTPTOOL_TEST_UNSET_AUTH_URL");
    let deferred = text.replace("${AUTH_URL}", "${HTTPTOOL_TEST_UNSET_AUTH_URL}");
    let deferred = deferred
        .replace("${API_TOKEN}", "t")
        .replace("${CLIENT_ID}", "c")
        .replace("${CLIENT_SECRET}", "s")
        .replace("${API_KEY}", "k");
    let plugin = HttpPlugin::from_json_deferred(&deferred).unwrap();
    assert_eq!(plugin.unset_variables(), ["HTTPTOOL_TEST_UNSET_AUTH_URL"]);
    let registry = registry(&plugin);
    let out = registry.call(&ToolCall::new("1", "login", "{}"));
    assert!(out.is_error());
    assert_eq!(out.error_kind(), Some(ErrorKind::MissingParameter));
    assert!(
        out.text().contains("'HTTPTOOL_TEST_UNSET_AUTH_URL'"),
        "{}",
        out.text()
    );
    // A dry run is refused as clearly, rather than showing another base.
    let dry = plugin
        .dry_run("login", "{}", &CallContext::new())
        .unwrap_err();
    assert!(dry.text().contains("base URL"), "{}", dry.text());
    assert!(api.requests().is_empty(), "nothing was sent");
    let out = registry.call(&ToolCall::new("2", "health", "{}"));
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(api.requests().len(), 1);
}

#[test]
fn an_endpoint_base_from_a_variable_is_checked_like_the_plugins() {
    let text = mixed("https://api.example.com");
    let err = HttpPlugin::from_json_with(&text, lookup(Some("ftp://auth.example.com".into())))
        .unwrap_err();
    assert_eq!(err.path(), "endpoints[4].base_url");
    let err = HttpPlugin::from_json_with(&text, lookup(Some("https://a.example.com?x=1".into())))
        .unwrap_err();
    assert_eq!(err.path(), "endpoints[4].base_url");
}

#[test]
fn endpoint_auth_errors_name_the_endpoint() {
    let bad_word = r#"{"name": "p", "base_url": "https://api.example.com",
        "endpoints": [{"name": "a", "path": "/a", "auth": "off"}]}"#;
    let err = HttpPlugin::from_json(bad_word).unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].auth: expected one of an auth object, none; got 'off'"
    );
    let missing = r#"{"name": "p", "base_url": "https://api.example.com",
        "endpoints": [{"name": "a", "path": "/a", "auth": {"type": "bearer"}}]}"#;
    let err = HttpPlugin::from_json(missing).unwrap_err();
    assert_eq!(err.to_string(), "endpoints[0].auth: missing field 'token'");
    let colon = r#"{"name": "p", "base_url": "https://api.example.com",
        "endpoints": [{"name": "a", "path": "/a",
          "auth": {"type": "basic", "username": "a:b", "password": "p"}}]}"#;
    let err = HttpPlugin::from_json(colon).unwrap_err();
    assert_eq!(err.path(), "endpoints[0].auth.username");
}

#[test]
fn a_header_parameter_may_not_shadow_the_endpoints_own_auth_header() {
    let text = r#"{"name": "p", "base_url": "https://api.example.com",
        "endpoints": [{"name": "a", "path": "/a",
          "auth": {"type": "header", "name": "X-Key", "value": "k"},
          "params": [{"name": "key", "wire_name": "X-Key", "in": "header"}]}]}"#;
    let err = HttpPlugin::from_json(text).unwrap_err();
    assert_eq!(err.path(), "endpoints[0].params[0].wire_name");
    // With no auth of its own, the endpoint may send an Authorization header of its own.
    let text = r#"{"name": "p", "base_url": "https://api.example.com",
        "auth": {"type": "bearer", "token": "t"},
        "endpoints": [{"name": "a", "path": "/a", "auth": "none",
          "params": [{"name": "authorization", "wire_name": "Authorization", "in": "header",
                      "hidden": true, "default": "Token x"}]}]}"#;
    let plugin = HttpPlugin::from_json(text).unwrap();
    let dry = plugin.dry_run("a", "{}", &CallContext::new()).unwrap();
    let shown = dry.to_string();
    assert!(!shown.contains("Bearer"), "{}", shown);
}

#[test]
fn builders_declare_the_same() {
    let plugin = HttpPlugin::builder("p", "https://api.example.com")
        .auth(Auth::bearer("t"))
        .endpoint(Endpoint::get("health", "/health").no_auth())
        .endpoint(Endpoint::post("token", "/token").auth(Auth::basic("id", "secret")))
        .build()
        .unwrap();
    assert_eq!(
        plugin.endpoint("health").unwrap().auth(),
        Some(&EndpointAuth::None)
    );
    let dry = plugin.dry_run("token", "{}", &CallContext::new()).unwrap();
    assert_eq!(
        dry.request().headers().get("authorization"),
        Some("Basic aWQ6c2VjcmV0")
    );
    let tool = plugin.tool("health").unwrap();
    assert_eq!(tool.auth(), None);
    let file = plugin.to_json().to_string();
    assert!(file.contains(r#""auth":"none""#), "{}", file);
}

#[test]
fn exported_curl_follows_the_endpoints_auth_and_base() {
    let text = mixed("https://api.example.com");
    let plugin =
        HttpPlugin::from_json_with(&text, lookup(Some("https://auth.example.com".into()))).unwrap();
    let health = curl::to_curl(&plugin, "health").unwrap();
    assert!(!health.contains("Authorization"), "{}", health);
    let login = curl::to_curl(&plugin, "login").unwrap();
    assert!(
        login.contains("https://auth.example.com/v2/login"),
        "{}",
        login
    );
    assert!(!login.contains("Authorization"), "{}", login);
    let token = curl::to_curl(&plugin, "token").unwrap();
    assert!(token.contains("'Authorization: ***'"), "{}", token);
    let me = curl::to_curl(&plugin, "me").unwrap();
    assert!(me.contains("'Authorization: ***'"), "{}", me);
    let digest = HttpPlugin::from_json(
        r#"{"name": "p", "base_url": "https://api.example.com",
            "auth": {"type": "bearer", "token": "t"},
            "endpoints": [{"name": "cam", "path": "/cam",
              "auth": {"type": "digest", "username": "admin", "password": "pw"}}]}"#,
    )
    .unwrap();
    let cam = curl::to_curl(&digest, "cam").unwrap();
    assert!(cam.contains("--digest"), "{}", cam);
    assert!(!cam.contains("Bearer"), "{}", cam);
}
