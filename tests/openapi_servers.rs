//! Where an imported plugin's requests go: a base URL given to the import replaces the
//! servers of every level (document, path item, operation), `server` and `server_variable`
//! apply at every level, and per-path servers are kept only when no base URL is given.

use crate::support::Server;
use httptool::json::{self, Json};
use httptool::openapi::{self, ImportOptions};
use httptool::tool::{ToolCall, ToolRegistry};

/// Twilio's shape: the document's server, and nearly every path (and one operation) with
/// servers of its own, on other hosts.
const TWILIO_LIKE: &str = r#"{"openapi": "3.0.3", "info": {"title": "Twilio-like", "version": "1"},
 "servers": [{"url": "https://api.twilio.example"}],
 "paths": {
   "/v1/Accounts": {"servers": [{"url": "https://accounts.twilio.example"}],
     "get": {"operationId": "listAccounts"}},
   "/v1/Calls": {"servers": [{"url": "https://voice.twilio.example"}],
     "get": {"operationId": "listCalls"},
     "post": {"operationId": "createCall",
       "servers": [{"url": "https://calls.twilio.example"}]}},
   "/v1/Messages": {"get": {"operationId": "listMessages"}}}}"#;

fn import(text: &str, options: &ImportOptions) -> openapi::Import {
    openapi::import_with(&json::parse(text).unwrap(), options).unwrap()
}

fn endpoint_bases(import: &openapi::Import) -> Vec<(String, Json)> {
    let file = import.plugin().to_json();
    file["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_string(),
                e["base_url"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_base_url_sends_every_endpoint_of_per_path_servers_to_it() {
    let server = Server::json("{}");
    let import = import(TWILIO_LIKE, &ImportOptions::new().base_url(server.base()));
    // No endpoint keeps a base of its own, and every figure says where it goes.
    for (name, base) in endpoint_bases(&import) {
        assert_eq!(base, Json::Null, "{}", name);
    }
    for tool in import.tools() {
        assert_eq!(tool.base_url, server.base(), "{}", tool.name);
    }
    let mut registry = ToolRegistry::new();
    registry.add_plugin(import.plugin()).unwrap();
    for name in ["listAccounts", "listCalls", "createCall", "listMessages"] {
        let out = registry.call(&ToolCall::new("c", name, "{}"));
        assert!(!out.is_error(), "{}: {}", name, out.text());
    }
    let targets: Vec<String> = server
        .requests()
        .iter()
        .map(|r| format!("{} {}", r.method, r.target))
        .collect();
    assert_eq!(
        targets,
        [
            "GET /v1/Accounts",
            "GET /v1/Calls",
            "POST /v1/Calls",
            "GET /v1/Messages"
        ]
    );
}

#[test]
fn without_a_base_url_per_path_and_per_operation_servers_are_kept() {
    let import = import(TWILIO_LIKE, &ImportOptions::new());
    assert_eq!(
        endpoint_bases(&import),
        [
            (
                String::from("listAccounts"),
                Json::from("https://accounts.twilio.example")
            ),
            (
                String::from("listCalls"),
                Json::from("https://voice.twilio.example")
            ),
            (
                String::from("createCall"),
                Json::from("https://calls.twilio.example")
            ),
            (String::from("listMessages"), Json::Null),
        ]
    );
    let bases: Vec<&str> = import.tools().iter().map(|t| t.base_url.as_str()).collect();
    assert_eq!(
        bases,
        [
            "https://accounts.twilio.example",
            "https://voice.twilio.example",
            "https://calls.twilio.example",
            "https://api.twilio.example"
        ]
    );
}

const LEVELS: &str = r#"{"openapi": "3.0.3", "info": {"title": "Levels", "version": "1"},
 "servers": [{"url": "https://{region}.api.example", "variables": {"region": {"default": "us"}}},
             {"url": "https://sandbox.api.example"}],
 "paths": {
   "/a": {"servers": [
       {"url": "https://{region}.a.example", "variables": {"region": {"default": "us"}}},
       {"url": "https://sandbox.a.example"}],
     "get": {"operationId": "a"}},
   "/b": {"get": {"operationId": "b", "servers": [{"url": "https://only.b.example"}]}}}}"#;

#[test]
fn server_and_variables_apply_at_every_level() {
    let bases = |options: &ImportOptions| -> Vec<String> {
        import(LEVELS, options)
            .tools()
            .iter()
            .map(|t| t.base_url.clone())
            .collect()
    };
    assert_eq!(
        bases(&ImportOptions::new()),
        ["https://us.a.example", "https://only.b.example"]
    );
    // The variable's value in the path item's server too.
    assert_eq!(
        bases(&ImportOptions::new().server_variable("region", "eu")),
        ["https://eu.a.example", "https://only.b.example"]
    );
    // The second server of each list that has one; a list of one keeps its first.
    let second = import(LEVELS, &ImportOptions::new().server(1));
    assert_eq!(
        second.plugin().base_url().as_str(),
        "https://sandbox.api.example/"
    );
    let bases: Vec<&str> = second.tools().iter().map(|t| t.base_url.as_str()).collect();
    assert_eq!(
        bases,
        ["https://sandbox.a.example", "https://only.b.example"]
    );
}

/// `httptool import openapi` says which endpoints got which base.
#[cfg(feature = "cli")]
#[test]
fn import_says_which_endpoints_go_to_which_base() {
    use crate::support::cli::{httptool, status, stderr, TempDir};
    let dir = TempDir::new("openapi-servers-bases");
    let doc = dir.file("twilio.json", TWILIO_LIKE);
    let out = httptool(&["import", "openapi", &doc], None, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    for line in [
        "base url https://accounts.twilio.example: 1 endpoints: listAccounts\n",
        "base url https://voice.twilio.example: 1 endpoints: listCalls\n",
        "base url https://calls.twilio.example: 1 endpoints: createCall\n",
        "base url https://api.twilio.example: 1 endpoints: listMessages\n",
    ] {
        assert!(err.contains(line), "{}\n{}", line, err);
    }
    let out = httptool(
        &[
            "import",
            "openapi",
            &doc,
            "--base-url",
            "http://127.0.0.1:4010",
        ],
        None,
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("base url http://127.0.0.1:4010: all 4 endpoints\n"),
        "{}",
        stderr(&out)
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("twilio.example\""));
}
