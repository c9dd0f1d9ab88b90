//! Recordings that reach several hosts (`--host` repeated) and send credentials to some
//! calls only: each endpoint keeps its host as its own base URL and sends the credential
//! its calls were recorded with, another host's token included, or none.

use crate::support::Server;
use httptool::har::{self, ImportOptions};
use httptool::json::{self, Json};
use httptool::plugin::{Auth, EndpointAuth, HttpPlugin};
use httptool::tool::{ToolCall, ToolRegistry};

const API_TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhcGkifQ.YXBpLXNpZ25hdHVyZQ";
const FILES_TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmaWxlcyJ9.ZmlsZXMtc2lnbmF0dXJl";

fn entry(method: &str, url: &str, token: Option<&str>, answer: &str) -> String {
    let headers = match token {
        Some(token) => format!(
            r#"{{"name": "Authorization", "value": "Bearer {}"}}"#,
            token
        ),
        None => String::new(),
    };
    format!(
        r#"{{"_resourceType": "xhr", "request": {{"method": "{method}", "url": "{url}",
            "headers": [{headers}]}},
            "response": {{"status": 200, "content": {{"mimeType": "application/json", "text": {text}}}}}}}"#,
        text = Json::from(answer)
    )
}

/// An app at `api` calling its API with a token, a public status call without one, and a
/// file store at `files` with a token of its own; a metrics host with the API's token.
fn recording(api: &str, files: &str, metrics: &str) -> Json {
    let entries = [
        entry("GET", &format!("{api}/api/projects"), Some(API_TOKEN), "[]"),
        entry("GET", &format!("{api}/api/projects"), Some(API_TOKEN), "[]"),
        entry("GET", &format!("{api}/api/status"), None, r#"{"ok": true}"#),
        entry("GET", &format!("{files}/v1/files"), Some(FILES_TOKEN), "[]"),
        entry("GET", &format!("{metrics}/v1/usage"), Some(API_TOKEN), "{}"),
    ];
    let text = format!(r#"{{"log": {{"entries": [{}]}}}}"#, entries.join(","));
    json::parse(&text).unwrap()
}

fn hosts(servers: &[&Server]) -> ImportOptions {
    let mut options = ImportOptions::new();
    for server in servers {
        options = options.host(format!("127.0.0.1:{}", server.port()));
    }
    options
}

#[test]
fn each_host_and_credential_is_kept_per_endpoint() {
    let api = Server::json("{}");
    let files = Server::json("[]");
    let metrics = Server::json("{}");
    let recording = recording(&api.base(), &files.base(), &metrics.base());
    let import = har::import_with(&recording, &hosts(&[&api, &files, &metrics])).unwrap();
    let plugin = import.plugin();
    assert!(matches!(plugin.auth(), Some(Auth::Bearer { .. })));
    let endpoint = |name: &str| plugin.endpoint(name).unwrap_or_else(|| panic!("{}", name));
    assert_eq!(endpoint("list_projects").auth(), None);
    assert_eq!(endpoint("get_status").auth(), Some(&EndpointAuth::None));
    assert!(matches!(
        endpoint("list_files").auth(),
        Some(EndpointAuth::Auth(Auth::Bearer { .. }))
    ));
    assert_eq!(
        endpoint("list_files").base_url(),
        Some(files.base().as_str())
    );
    assert_eq!(endpoint("get_usage").auth(), None);
    assert_eq!(
        endpoint("get_usage").base_url(),
        Some(metrics.base().as_str())
    );
    // Two tokens, two variables; neither value is in the file.
    let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    assert_eq!(names.len(), 2, "{:?}", names);
    let file = plugin.to_json().to_string();
    assert!(!file.contains(API_TOKEN) && !file.contains(FILES_TOKEN));

    // Loaded with the recorded values, each call is sent as it was recorded.
    let plugin = HttpPlugin::from_json_with(&file, |name| {
        if name == names[0] {
            Some(API_TOKEN.to_string())
        } else if name == names[1] {
            Some(FILES_TOKEN.to_string())
        } else {
            None
        }
    })
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    for tool in ["list_projects", "get_status", "list_files", "get_usage"] {
        let out = registry.call(&ToolCall::new("1", tool, "{}"));
        assert!(!out.is_error(), "{}: {}", tool, out.text());
    }
    let bearer = |token: &str| Some(format!("Bearer {}", token));
    let sent = api.requests();
    assert_eq!(sent[0].header("authorization"), bearer(API_TOKEN));
    assert!(sent[1].head.starts_with("GET /api/status HTTP/1.1\r\n"));
    assert_eq!(sent[1].header("authorization"), None);
    assert_eq!(
        files.requests()[0].header("authorization"),
        bearer(FILES_TOKEN)
    );
    assert_eq!(
        metrics.requests()[0].header("authorization"),
        bearer(API_TOKEN)
    );
}
