//! Collections that mix auths and hosts: each request keeps the auth it is sent with (its
//! own, its folder's, the collection's, or none) and the host it goes to (`{{authUrl}}`
//! beside `{{apiUrl}}`), on the wire and in the plugin file.

use crate::support::Server;
use httptool::json::{self, Json};
use httptool::plugin::{Auth, EndpointAuth, HttpPlugin};
use httptool::postman;
use httptool::tool::{ErrorKind, ToolCall, ToolRegistry};

/// Bearer on the collection; a folder with basic auth whose requests inherit it, one of them
/// with an API key of its own; a health check with `noauth`; a token call on `{{authUrl}}`;
/// a report on `{{reportsUrl}}`, which has no value.
fn mixed(api: &str, auth: &str) -> Json {
    let text = format!(
        r#"{{
  "info": {{"name": "Mixed", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
  "variable": [
    {{"key": "apiUrl", "value": "{api}"}},
    {{"key": "authUrl", "value": "{auth}/oauth"}},
    {{"key": "reportsUrl", "value": ""}},
    {{"key": "token", "value": "t0ken-value-1"}}
  ],
  "auth": {{"type": "bearer", "bearer": [{{"key": "token", "value": "{{{{token}}}}"}}]}},
  "item": [
    {{"name": "List users", "request": {{"method": "GET", "url": "{{{{apiUrl}}}}/users"}}}},
    {{"name": "Get user", "request": {{"method": "GET", "url": "{{{{apiUrl}}}}/users/:id"}}}},
    {{"name": "Health", "request": {{"method": "GET", "auth": {{"type": "noauth"}},
      "url": "{{{{apiUrl}}}}/health"}}}},
    {{"name": "Admin", "auth": {{"type": "basic", "basic": [
        {{"key": "username", "value": "admin"}}, {{"key": "password", "value": "{{{{adminPassword}}}}"}}]}},
      "item": [
        {{"name": "Stats", "request": {{"method": "GET", "url": "{{{{apiUrl}}}}/admin/stats"}}}},
        {{"name": "Export", "request": {{"method": "GET",
          "auth": {{"type": "apikey", "apikey": [{{"key": "key", "value": "X-Export-Key"}},
            {{"key": "value", "value": "{{{{exportKey}}}}"}}, {{"key": "in", "value": "header"}}]}},
          "url": "{{{{apiUrl}}}}/admin/export"}}}}
    ]}},
    {{"name": "Get token", "request": {{"method": "POST", "auth": {{"type": "noauth"}},
      "body": {{"mode": "urlencoded", "urlencoded": [{{"key": "grant_type", "value": "client_credentials"}}]}},
      "url": "{{{{authUrl}}}}/token"}}}},
    {{"name": "Report", "request": {{"method": "GET", "url": "{{{{reportsUrl}}}}/daily"}}}}
  ]
}}"#
    );
    json::parse(&text).unwrap()
}

fn import(api: &str, auth: &str) -> postman::Import {
    postman::import(&mixed(api, auth)).unwrap_or_else(|e| panic!("import: {}", e))
}

fn lookup(name: &str) -> Option<String> {
    match name {
        "TOKEN" => Some("t0ken-value-1".to_string()),
        "ADMIN_PASSWORD" => Some("adm1n-pass".to_string()),
        "MIXED_USERNAME" => Some("admin".to_string()),
        "EXPORT_KEY" => Some("exp0rt-key-9".to_string()),
        _ => None,
    }
}

#[test]
fn each_request_keeps_its_auth_in_the_plugin() {
    let import = import("https://api.example.com", "https://auth.example.com");
    let plugin = import.plugin();
    assert!(matches!(plugin.auth(), Some(Auth::Bearer { .. })));
    let own = |name: &str| plugin.endpoint(name).unwrap().auth().cloned();
    assert_eq!(own("list_users"), None);
    assert_eq!(own("get_user"), None);
    assert_eq!(own("health"), Some(EndpointAuth::None));
    assert_eq!(own("get_token"), Some(EndpointAuth::None));
    assert!(matches!(
        own("stats"),
        Some(EndpointAuth::Auth(Auth::Basic { .. }))
    ));
    assert!(matches!(
        own("export"),
        Some(EndpointAuth::Auth(Auth::Header { ref name, .. })) if name == "X-Export-Key"
    ));
    // No warning says a request's auth was replaced by the plugin's.
    assert!(
        import.warnings().iter().all(|w| !w.contains("auth where")),
        "{:?}",
        import.warnings()
    );
    // The variables printed at import cover every auth and every base.
    let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    for name in ["TOKEN", "ADMIN_PASSWORD", "EXPORT_KEY", "REPORTS_URL"] {
        assert!(names.contains(&name), "{} not in {:?}", name, names);
    }
}

#[test]
fn each_request_is_sent_with_its_auth_to_its_host() {
    let api = Server::json("{}");
    let auth = Server::json(r#"{"access_token": "x"}"#);
    let import = import(&api.base(), &auth.base());
    let file = import.plugin().to_json().to_string();
    let plugin = HttpPlugin::from_json_with(&file, |name| match name {
        "REPORTS_URL" => Some("https://reports.example.com".to_string()),
        other => lookup(other),
    })
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let calls = [
        ("list_users", "{}"),
        ("get_user", r#"{"id": "7"}"#),
        ("health", "{}"),
        ("stats", "{}"),
        ("export", "{}"),
        ("get_token", r#"{"grant_type": "client_credentials"}"#),
    ];
    for (tool, arguments) in calls {
        let out = registry.call(&ToolCall::new("1", tool, arguments));
        assert!(!out.is_error(), "{}: {}", tool, out.text());
    }
    let sent = api.requests();
    assert_eq!(sent.len(), 5);
    let authorization = |i: usize| sent[i].header("authorization");
    assert_eq!(authorization(0).as_deref(), Some("Bearer t0ken-value-1"));
    assert!(sent[1].head.starts_with("GET /users/7 HTTP/1.1\r\n"));
    assert_eq!(authorization(1).as_deref(), Some("Bearer t0ken-value-1"));
    assert!(sent[2].head.starts_with("GET /health HTTP/1.1\r\n"));
    assert_eq!(authorization(2), None);
    // The folder's basic auth: admin:adm1n-pass.
    assert_eq!(
        authorization(3).as_deref(),
        Some("Basic YWRtaW46YWRtMW4tcGFzcw==")
    );
    assert_eq!(authorization(4), None);
    assert_eq!(
        sent[4].header("x-export-key").as_deref(),
        Some("exp0rt-key-9")
    );
    let token = auth.requests();
    assert_eq!(token.len(), 1);
    assert!(token[0].head.starts_with("POST /oauth/token HTTP/1.1\r\n"));
    assert_eq!(token[0].header("authorization"), None);
}

#[test]
fn a_host_variable_without_a_value_refuses_its_calls_by_name() {
    let api = Server::json("{}");
    let import = import(&api.base(), "https://auth.example.com");
    let report = import.plugin().endpoint("report").unwrap();
    assert_eq!(report.base_url_template(), Some("${REPORTS_URL}"));
    let mut registry = ToolRegistry::new();
    registry.add_plugin(import.plugin()).unwrap();
    let out = registry.call(&ToolCall::new("1", "report", "{}"));
    assert!(out.is_error());
    assert_eq!(out.error_kind(), Some(ErrorKind::MissingParameter));
    assert!(out.text().contains("'REPORTS_URL'"), "{}", out.text());
    assert!(api.requests().is_empty(), "nothing was sent");
    // Loaded from its file with the variable set, it goes there.
    let file = import.plugin().to_json().to_string();
    let reports = Server::json("[]");
    let base = reports.base();
    let plugin = HttpPlugin::from_json_with(&file, |name| match name {
        "REPORTS_URL" => Some(base.clone()),
        other => lookup(other),
    })
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let out = registry.call(&ToolCall::new("2", "report", "{}"));
    assert!(!out.is_error(), "{}", out.text());
    assert!(reports.requests()[0]
        .head
        .starts_with("GET /daily HTTP/1.1\r\n"));
}

#[test]
fn a_request_with_an_unsupported_auth_sends_no_credential() {
    let text = r#"{
      "info": {"name": "Legacy", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
      "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}"}]},
      "item": [
        {"name": "One", "request": {"method": "GET", "url": "https://api.example.com/one"}},
        {"name": "Two", "request": {"method": "GET", "url": "https://api.example.com/two"}},
        {"name": "Signed", "request": {"method": "GET", "url": "https://api.example.com/signed",
          "auth": {"type": "oauth1", "oauth1": [{"key": "consumerSecret", "value": "c0nsumer-secret"}]}}}
      ]
    }"#;
    let import = postman::import(&json::parse(text).unwrap()).unwrap();
    let warning = import
        .warnings()
        .iter()
        .find(|w| w.contains("oauth1"))
        .expect("a warning");
    assert!(warning.contains("Signed"), "{}", warning);
    assert!(!warning.contains("c0nsumer-secret"));
    let signed = import.plugin().endpoint("signed").unwrap();
    assert_eq!(signed.auth(), Some(&EndpointAuth::None));
}
