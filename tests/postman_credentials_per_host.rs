//! A collection whose requests carry credentials as plain headers (an API key, a cookie),
//! different on each host: each request's go to its endpoint only, each distinct value a
//! `${NAME}` variable of its own.

use crate::support::Server;
use httptool::json;
use httptool::plugin::HttpPlugin;
use httptool::postman;
use httptool::tool::{ToolCall, ToolRegistry};

const API_KEY: &str = "pk_live_6f1e2d3c4b5a69788796a5b4";
const API_COOKIE: &str = "sid=7e6d5c4b3a2918";
const FILES_KEY: &str = "pk_live_0a9b8c7d6e5f40312233c4d5";

fn request(name: &str, url: &str, headers: &[(&str, &str)]) -> String {
    let headers: Vec<String> = headers
        .iter()
        .map(|(k, v)| format!(r#"{{"key": "{}", "value": "{}"}}"#, k, v))
        .collect();
    format!(
        r#"{{"name": "{name}", "request": {{"method": "GET", "url": "{url}",
            "header": [{}]}}}}"#,
        headers.join(",")
    )
}

fn collection(api: &str, files: &str) -> String {
    let api_headers = [
        ("X-Api-Key", API_KEY),
        ("Cookie", API_COOKIE),
        ("X-Client", "web"),
    ];
    let items = [
        request(
            "List projects",
            &format!("{api}/api/projects"),
            &api_headers,
        ),
        request("List teams", &format!("{api}/api/teams"), &api_headers),
        request("Status", &format!("{api}/api/status"), &[]),
        request(
            "List files",
            &format!("{files}/v1/files"),
            &[("X-Api-Key", FILES_KEY)],
        ),
    ];
    format!(
        r#"{{"info": {{"name": "App", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
            "item": [{}]}}"#,
        items.join(",")
    )
}

fn call_all(plugin: &HttpPlugin) {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    for tool in ["list_projects", "list_teams", "status", "list_files"] {
        let out = registry.call(&ToolCall::new("1", tool, "{}"));
        assert!(!out.is_error(), "{}: {}", tool, out.text());
    }
}

fn check_sent(api: &Server, files: &Server) {
    let sent = |server: &Server, name: &str| -> Vec<Option<String>> {
        server.requests().iter().map(|r| r.header(name)).collect()
    };
    let some = |v: &str| Some(v.to_string());
    assert_eq!(sent(api, "x-api-key"), [some(API_KEY), some(API_KEY), None]);
    assert_eq!(
        sent(api, "cookie"),
        [some(API_COOKIE), some(API_COOKIE), None]
    );
    assert_eq!(sent(api, "x-client"), [some("web"), some("web"), None]);
    assert_eq!(sent(files, "x-api-key"), [some(FILES_KEY)]);
    assert_eq!(sent(files, "cookie"), [None]);
}

#[test]
fn each_requests_credential_headers_go_to_its_endpoint_only() {
    let (api, files) = (Server::json("{}"), Server::json("{}"));
    let text = collection(&api.base(), &files.base());
    let import = postman::import(&json::parse(&text).unwrap()).unwrap();
    let plugin = import.plugin();
    assert_eq!(plugin.headers().count(), 0);
    let own: Vec<&str> = plugin
        .endpoint("list_projects")
        .unwrap()
        .endpoint_headers()
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(own, ["X-Api-Key", "Cookie"]);
    // A header that is no credential stays a hidden parameter with its value.
    let client = plugin.endpoint("list_projects").unwrap().param("X-Client");
    assert!(client.map_or(false, |p| p.is_hidden()), "{:?}", client);
    call_all(plugin);
    check_sent(&api, &files);

    // Two keys, two variables; loaded from the file, each endpoint sends its own again.
    let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    assert_eq!(names.len(), 3, "{:?}", names);
    let file = plugin.to_json().to_string();
    for value in [API_KEY, API_COOKIE, FILES_KEY] {
        assert!(!file.contains(value), "{} in {}", value, file);
    }
    let recorded = [API_KEY, API_COOKIE, FILES_KEY];
    let value_of = |name: &str| {
        let i = names.iter().position(|n| *n == name)?;
        recorded.get(i).map(|v| v.to_string())
    };
    let (api2, files2) = (Server::json("{}"), Server::json("{}"));
    let moved = file
        .replace(&api.base(), &api2.base())
        .replace(&files.base(), &files2.base());
    let loaded = HttpPlugin::from_json_with(&moved, value_of).unwrap();
    call_all(&loaded);
    check_sent(&api2, &files2);
}
