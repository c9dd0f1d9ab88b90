//! HAR 1.2 recordings imported and called against a loopback server: the request each tool
//! sends for the recorded arguments, endpoints grouped by path template, parameters
//! inferred across calls, what is left out, recorded secrets kept out of the plugin file,
//! and hostile recordings that end in clear errors.

use crate::support::Server;
use httptool::har::{self, ErrorKind, ImportOptions};
use httptool::json::{self, Json};
use httptool::plugin::{Auth, HttpPlugin, Location, ParamType};
use httptool::tool::{ToolCall, ToolRegistry};

const TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXZhbHVl";
const COOKIE: &str = "session=s3ss10n-value";

fn entry(
    resource: &str,
    method: &str,
    url: &str,
    headers: &str,
    post: &str,
    mime: &str,
    text: &str,
) -> String {
    format!(
        r#"{{"_resourceType": "{resource}", "request": {{"method": "{method}", "url": "{url}",
            "headers": [{headers}]{post}}},
            "response": {{"status": 200, "content": {{"mimeType": "{mime}", "text": {text}}}}}}}"#,
        text = Json::from(text)
    )
}

fn auth_headers() -> String {
    format!(
        r#"{{"name": "Authorization", "value": "Bearer {TOKEN}"}}, {{"name": "Cookie", "value": "{COOKIE}"}},
           {{"name": "User-Agent", "value": "Mozilla/5.0"}}, {{"name": "sec-fetch-mode", "value": "cors"}}"#
    )
}

/// A recording of a web app at `base` (the loopback server) and of assets and analytics.
fn recording(base: &str) -> String {
    let auth = auth_headers();
    let entries = [
        entry(
            "document",
            "GET",
            &format!("{base}/"),
            "",
            "",
            "text/html",
            "<html></html>",
        ),
        entry(
            "script",
            "GET",
            &format!("{base}/app.js"),
            "",
            "",
            "application/javascript",
            "",
        ),
        entry(
            "image",
            "GET",
            &format!("{base}/logo.png"),
            "",
            "",
            "image/png",
            "",
        ),
        entry(
            "xhr",
            "GET",
            &format!("{base}/config.json"),
            "",
            "",
            "application/json",
            "{}",
        ),
        entry(
            "xhr",
            "GET",
            &format!("{base}/api/users/17?expand=team&_=1700000000123"),
            &auth,
            "",
            "application/json",
            r#"{"id": 17, "name": "Ann", "api_token": "leaked-in-answer"}"#,
        ),
        entry(
            "xhr",
            "GET",
            &format!("{base}/api/users/42?expand=orders&_=1700000000999"),
            &auth,
            "",
            "application/json",
            r#"{"id": 42, "name": "Bob"}"#,
        ),
        entry(
            "xhr",
            "GET",
            &format!("{base}/api/users/7?expand=team"),
            &auth,
            "",
            "application/json",
            r#"{"id": 7, "name": "Cy"}"#,
        ),
        entry(
            "fetch",
            "POST",
            &format!("{base}/api/orders"),
            &auth,
            r#", "postData": {"mimeType": "application/json", "text": "{\"sku\": \"A-1\", \"qty\": 2, \"note\": \"x\"}"}"#,
            "application/json",
            r#"{"id": 9}"#,
        ),
        entry(
            "fetch",
            "POST",
            &format!("{base}/api/orders"),
            &auth,
            r#", "postData": {"mimeType": "application/json", "text": "{\"sku\": \"B-2\", \"qty\": 1}"}"#,
            "application/json",
            r#"{"id": 10}"#,
        ),
        entry(
            "xhr",
            "GET",
            &format!("{base}/api/teams/alpha/members"),
            &auth,
            "",
            "application/json",
            "[]",
        ),
        entry(
            "xhr",
            "GET",
            &format!("{base}/api/teams/beta/members"),
            &auth,
            "",
            "application/json",
            "[]",
        ),
        entry(
            "xhr",
            "OPTIONS",
            &format!("{base}/api/orders"),
            "",
            "",
            "",
            "",
        ),
        entry(
            "",
            "POST",
            "https://www.google-analytics.com/collect",
            "",
            "",
            "image/gif",
            "",
        ),
        entry(
            "xhr",
            "GET",
            "https://cdn.other.test/api/thing",
            "",
            "",
            "application/json",
            "{}",
        ),
    ];
    format!(
        r#"{{"log": {{"version": "1.2", "entries": [{}]}}}}"#,
        entries.join(",")
    )
}

fn import(text: &str, options: &ImportOptions) -> har::Import {
    let value = json::parse(text).unwrap_or_else(|e| panic!("fixture: {}", e));
    har::import_with(&value, options).unwrap_or_else(|e| panic!("import: {}", e))
}

fn call(plugin: &HttpPlugin, tool: &str, arguments: &str) {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    let out = registry.call(&ToolCall::new("c1", tool, arguments));
    assert!(!out.is_error(), "{}: {}", tool, out.text());
}

#[test]
fn calls_are_grouped_by_method_and_path_template() {
    let server = Server::json("{}");
    let import = import(&recording(&server.base()), &ImportOptions::new());
    let plugin = import.plugin();
    let endpoints: Vec<(&str, String, &str)> = plugin
        .endpoints()
        .map(|e| (e.name(), e.method().to_string(), e.path()))
        .collect();
    assert_eq!(
        endpoints,
        [
            ("get_user", "GET".to_string(), "/api/users/{user_id}"),
            ("create_order", "POST".to_string(), "/api/orders"),
            (
                "list_members",
                "GET".to_string(),
                "/api/teams/{team_id}/members"
            ),
        ]
    );
    assert_eq!(plugin.base_url().as_str(), format!("{}/", server.base()));
}

#[test]
fn the_recorded_request_is_sent_again() {
    let server = Server::json("{}");
    let import = import(&recording(&server.base()), &ImportOptions::new());
    call(
        import.plugin(),
        "get_user",
        r#"{"user_id": 42, "expand": "orders"}"#,
    );
    call(
        import.plugin(),
        "create_order",
        r#"{"sku": "B-2", "qty": 1}"#,
    );
    let sent = server.requests();
    assert_eq!(sent[0].method, "GET");
    assert_eq!(sent[0].target, "/api/users/42?expand=orders");
    assert_eq!(
        sent[0].header("authorization"),
        Some(format!("Bearer {}", TOKEN))
    );
    assert_eq!(sent[0].header("cookie").as_deref(), Some(COOKIE));
    assert_eq!(sent[0].header("sec-fetch-mode"), None);
    assert_eq!(sent[1].method, "POST");
    assert_eq!(sent[1].target, "/api/orders");
    assert_eq!(
        json::parse_bytes(&sent[1].body).unwrap(),
        json::parse(r#"{"sku": "B-2", "qty": 1}"#).unwrap()
    );
}

#[test]
fn parameters_are_inferred_across_calls() {
    let server = Server::json("{}");
    let import = import(&recording(&server.base()), &ImportOptions::new());
    let plugin = import.plugin();
    let user = plugin.endpoint("get_user").unwrap();
    let id = user.param("user_id").unwrap();
    assert_eq!(
        (id.location(), id.ty()),
        (Location::Path, &ParamType::Integer)
    );
    let expand = user.param("expand").unwrap();
    assert!(expand.is_required());
    assert_eq!(
        expand.enum_values(),
        [Json::from("team"), Json::from("orders")]
    );
    assert!(user.param("_").is_none(), "cache busters are dropped");
    let order = plugin.endpoint("create_order").unwrap();
    assert!(order.param("sku").unwrap().is_required());
    assert_eq!(order.param("qty").unwrap().ty(), &ParamType::Integer);
    assert!(!order.param("note").unwrap().is_required());
}

#[test]
fn recorded_secrets_never_reach_the_plugin_file() {
    let server = Server::json("{}");
    let import = import(&recording(&server.base()), &ImportOptions::new());
    let file = import.plugin().to_json().to_string();
    for secret in [TOKEN, "s3ss10n-value", "leaked-in-answer", "Ann", "Mozilla"] {
        assert!(!file.contains(secret), "{} in {}", secret, file);
    }
    assert!(matches!(import.plugin().auth(), Some(Auth::Bearer { .. })));
    let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    assert_eq!(names.len(), 2, "{:?}", names);
    // The output schema keeps the shape of the answer only.
    let schema = import
        .plugin()
        .endpoint("get_user")
        .unwrap()
        .output_schema()
        .unwrap();
    assert!(schema
        .to_string()
        .contains(r#""api_token":{"type":"string"}"#));
    // The file loads back with its variables set and sends them.
    let loaded = HttpPlugin::from_json_with(&file, |name| {
        Some(if name.ends_with("TOKEN") { "t2" } else { "c=2" }.to_string())
    })
    .unwrap();
    call(&loaded, "list_members", r#"{"team_id": "alpha"}"#);
    let sent = server.requests();
    assert_eq!(
        sent[0].header("authorization").as_deref(),
        Some("Bearer t2")
    );
    assert_eq!(sent[0].target, "/api/teams/alpha/members");
}

#[test]
fn what_is_left_out_is_counted() {
    let server = Server::json("{}");
    let import = import(&recording(&server.base()), &ImportOptions::new());
    let reasons: Vec<(&str, usize)> = import
        .skipped_by_reason()
        .iter()
        .map(|(r, n)| (r.as_str(), *n))
        .collect();
    assert_eq!(
        reasons,
        [
            ("document", 1),
            ("script", 1),
            ("image", 1),
            ("static .json file", 1),
            ("preflight", 1),
            ("analytics", 1),
            ("other host", 1),
        ]
    );
    assert_eq!(import.skipped(), 7);
}

#[test]
fn a_host_can_be_chosen() {
    let server = Server::json("{}");
    let text = recording(&server.base());
    let import = import(&text, &ImportOptions::new().host("cdn.other.test"));
    let names: Vec<&str> = import.plugin().endpoints().map(|e| e.name()).collect();
    assert_eq!(names, ["get_thing"]);
    let port = format!("127.0.0.1:{}", server.port());
    let both = import_both(&text, &port);
    assert_eq!(both.plugin().endpoints().count(), 4);
    assert_eq!(both.skipped(), 6);
    let thing = both.plugin().endpoint("get_thing").unwrap();
    assert_eq!(thing.base_url(), Some("https://cdn.other.test"));
}

fn import_both(text: &str, port: &str) -> har::Import {
    import(
        text,
        &ImportOptions::new().host(port).host("cdn.other.test"),
    )
}

// ------------------------------------------------------------- hostile recordings

fn error(text: &str) -> har::Error {
    let value = json::parse(text).unwrap();
    match har::import(&value) {
        Ok(_) => panic!("imported: {}", text),
        Err(err) => err,
    }
}

#[test]
fn wrong_types_are_errors_naming_the_entry() {
    let cases = [
        (r#"{}"#, ErrorKind::NotAHar, "no `log.entries`"),
        (
            r#"{"log": {"entries": {}}}"#,
            ErrorKind::Invalid,
            "log.entries: expected a list",
        ),
        (
            r#"{"log": {"entries": [1]}}"#,
            ErrorKind::Invalid,
            "log.entries[0].request: expected an object",
        ),
        (
            r#"{"log": {"entries": [{"request": {"method": "GET", "url": 7}}]}}"#,
            ErrorKind::Invalid,
            "log.entries[0].request.url: expected a string",
        ),
        (
            r#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.test/x", "headers": [{"value": 1}]}}]}}"#,
            ErrorKind::Invalid,
            "log.entries[0].request.headers[0]",
        ),
        (
            r#"{"log": {"entries": [{"request": {"method": "G T", "url": "https://a.test/x"}}]}}"#,
            ErrorKind::Invalid,
            "log.entries[0].request.method: not an HTTP method",
        ),
        (
            r#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.test/"}, "response": {"content": {"mimeType": "text/html"}}}]}}"#,
            ErrorKind::NoApiCalls,
            "no API call",
        ),
    ];
    for (text, kind, message) in cases {
        let err = error(text);
        assert_eq!(err.kind(), kind, "{}: {}", text, err);
        assert!(err.to_string().contains(message), "{}: {}", text, err);
        // Only a field at fault has a place, and the message starts with it.
        assert_eq!(err.at().is_some(), kind == ErrorKind::Invalid, "{}", err);
        if let Some(at) = err.at() {
            assert!(err.to_string().starts_with(&format!("{}: ", at)), "{}", err);
        }
    }
}

#[test]
fn too_many_entries_is_an_error() {
    let one = entry(
        "xhr",
        "GET",
        "https://a.test/api/x",
        "",
        "",
        "application/json",
        "{}",
    );
    let text = format!(r#"{{"log": {{"entries": [{}]}}}}"#, vec![one; 6].join(","));
    let value = json::parse(&text).unwrap();
    let err = har::import_with(&value, &ImportOptions::new().max_entries(5)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooManyEntries);
    assert_eq!(
        err.to_string(),
        "the recording holds more than 5 entries; raise the limit to import it"
    );
    assert!(har::import_with(&value, &ImportOptions::new().max_entries(6)).is_ok());
}

#[test]
fn deep_and_large_bodies_are_bounded() {
    // A JSON response nested far deeper than an output schema describes, and many calls.
    let deep = format!("{}1{}", "{\"a\":".repeat(100), "}".repeat(100));
    let mut entries = Vec::new();
    for i in 0..2_000 {
        entries.push(entry(
            "xhr",
            "GET",
            &format!("https://a.test/api/items/{}?page={}", i, i % 7),
            "",
            "",
            "application/json",
            &deep,
        ));
    }
    let text = format!(r#"{{"log": {{"entries": [{}]}}}}"#, entries.join(","));
    let import = import(&text, &ImportOptions::new());
    let endpoint = import.plugin().endpoint("get_item").unwrap();
    assert_eq!(endpoint.path(), "/api/items/{item_id}");
    assert_eq!(endpoint.param("page").unwrap().ty(), &ParamType::Integer);
    assert_eq!(import.plugin().endpoints().count(), 1);
}
