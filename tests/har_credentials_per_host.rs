//! A recording of several hosts: each host's cookie and API key go to that host's endpoints
//! only, as `${NAME}` variables of their own, in the import and in the file written from it.

use crate::support::Server;
use httptool::har::{self, ImportOptions};
use httptool::json::{self, Json};
use httptool::plugin::HttpPlugin;
use httptool::tool::{ToolCall, ToolRegistry};

const API_COOKIE: &str = "sid=api-5f0c1e2d3b4a69788796";
const API_KEY: &str = "ak_live_51HqLyjWDarjtT1zdp7dc";
const FILES_COOKIE: &str = "sid=files-0a1b2c3d4e5f60718293";
const FILES_KEY: &str = "ak_live_99ZxQwErTyUiOp12345ab";
const FILES_CSRF: &str = "csrf-7d1e0b9a2c4f";

fn entry(url: &str, headers: &[(&str, &str)]) -> String {
    let headers: Vec<String> = headers
        .iter()
        .map(|(n, v)| format!(r#"{{"name": "{}", "value": "{}"}}"#, n, v))
        .collect();
    format!(
        r#"{{"_resourceType": "xhr", "request": {{"method": "GET", "url": "{url}",
            "headers": [{headers}]}},
            "response": {{"status": 200, "content": {{"mimeType": "application/json", "text": "{{}}"}}}}}}"#,
        headers = headers.join(",")
    )
}

/// The app's API (cookie and key), its file store (a cookie and key of its own), a
/// metrics host that was sent neither, and a public call of the API without them.
fn recording(api: &str, files: &str, metrics: &str) -> Json {
    let api_creds = [("Cookie", API_COOKIE), ("X-Api-Key", API_KEY)];
    let files_creds = [
        ("Cookie", FILES_COOKIE),
        ("X-Api-Key", FILES_KEY),
        ("X-Csrf-Token", FILES_CSRF),
    ];
    let entries = [
        entry(&format!("{api}/api/projects"), &api_creds),
        entry(&format!("{api}/api/projects"), &api_creds),
        entry(&format!("{api}/api/teams"), &api_creds),
        entry(&format!("{api}/api/status"), &[]),
        entry(&format!("{files}/v1/files"), &files_creds),
        entry(&format!("{metrics}/v1/usage"), &[]),
    ];
    let text = format!(r#"{{"log": {{"entries": [{}]}}}}"#, entries.join(","));
    json::parse(&text).unwrap()
}

const TOOLS: [&str; 5] = [
    "list_projects",
    "list_teams",
    "get_status",
    "list_files",
    "get_usage",
];

fn call_all(plugin: &HttpPlugin) {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    for tool in TOOLS {
        let out = registry.call(&ToolCall::new("1", tool, "{}"));
        assert!(!out.is_error(), "{}: {}", tool, out.text());
    }
}

/// What each server was sent: `(cookie, key)` per request.
fn sent(server: &Server) -> Vec<(Option<String>, Option<String>)> {
    server
        .requests()
        .iter()
        .map(|r| (r.header("cookie"), r.header("x-api-key")))
        .collect()
}

fn check_each_host_got_its_own(api: &Server, files: &Server, metrics: &Server) {
    let own = |cookie: &str, key: &str| (Some(cookie.to_string()), Some(key.to_string()));
    assert_eq!(
        sent(api),
        [
            own(API_COOKIE, API_KEY),
            own(API_COOKIE, API_KEY),
            (None, None)
        ]
    );
    assert_eq!(sent(files), [own(FILES_COOKIE, FILES_KEY)]);
    assert_eq!(sent(metrics), [(None, None)]);
    let csrf = |server: &Server| -> Vec<Option<String>> {
        server
            .requests()
            .iter()
            .map(|r| r.header("x-csrf-token"))
            .collect()
    };
    assert_eq!(csrf(files), [Some(FILES_CSRF.to_string())]);
    assert!(csrf(api).iter().chain(&csrf(metrics)).all(Option::is_none));
}

#[test]
fn a_hosts_cookie_and_key_never_reach_another_host() {
    let (api, files, metrics) = (Server::json("{}"), Server::json("{}"), Server::json("{}"));
    let recording = recording(&api.base(), &files.base(), &metrics.base());
    let options = ImportOptions::new()
        .host(format!("127.0.0.1:{}", api.port()))
        .host(format!("127.0.0.1:{}", files.port()))
        .host(format!("127.0.0.1:{}", metrics.port()));
    let import = har::import_with(&recording, &options).unwrap();
    let plugin = import.plugin();
    assert_eq!(plugin.headers().count(), 0, "no credential is the plugin's");
    call_all(plugin);
    check_each_host_got_its_own(&api, &files, &metrics);

    // The file holds five variables, one a host and credential, and none of the values.
    let file = plugin.to_json().to_string();
    for value in [API_COOKIE, API_KEY, FILES_COOKIE, FILES_KEY, FILES_CSRF] {
        assert!(!file.contains(value), "{} in {}", value, file);
    }
    let variables: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    assert_eq!(variables.len(), 5, "{:?}", variables);
    let files_host = format!("127_0_0_1_{}", files.port()).to_ascii_uppercase();
    assert_eq!(
        variables
            .iter()
            .filter(|name| name.contains(&files_host))
            .count(),
        3,
        "{:?}",
        variables
    );

    // Loaded with each variable's recorded value, every call is sent as recorded again.
    let value_of = |name: &str| -> Option<String> {
        let files = name.contains(&files_host);
        let value = match (files, name.contains("COOKIE"), name.contains("CSRF")) {
            (false, true, _) => API_COOKIE,
            (false, false, _) => API_KEY,
            (true, true, _) => FILES_COOKIE,
            (true, false, true) => FILES_CSRF,
            (true, false, false) => FILES_KEY,
        };
        Some(value.to_string())
    };
    let (api2, files2, metrics2) = (Server::json("{}"), Server::json("{}"), Server::json("{}"));
    // The same file, pointed at fresh servers: the bases are rewritten in the text.
    let moved = file
        .replace(&api.base(), &api2.base())
        .replace(&files.base(), &files2.base())
        .replace(&metrics.base(), &metrics2.base());
    let loaded = HttpPlugin::from_json_with(&moved, value_of).unwrap();
    call_all(&loaded);
    check_each_host_got_its_own(&api2, &files2, &metrics2);
}

#[test]
fn a_single_hosts_cookie_stays_off_the_calls_that_sent_none() {
    let api = Server::json("{}");
    let recording = recording(
        &api.base(),
        "https://files.example.com",
        "https://m.example.com",
    );
    let import = har::import(&recording).unwrap();
    let plugin = import.plugin();
    let project = plugin.endpoint("list_projects").unwrap();
    let names: Vec<&str> = project
        .endpoint_headers()
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    // The key most calls sent is the plugin's auth (`"auth": "none"` where none was sent).
    assert_eq!(names, ["Cookie"]);
    assert!(plugin
        .endpoint("get_status")
        .unwrap()
        .endpoint_headers()
        .is_empty());
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    for tool in ["list_projects", "get_status"] {
        let out = registry.call(&ToolCall::new("1", tool, "{}"));
        assert!(!out.is_error(), "{}: {}", tool, out.text());
    }
    let sent = sent(&api);
    assert_eq!(
        sent[0],
        (Some(API_COOKIE.to_string()), Some(API_KEY.to_string()))
    );
    assert_eq!(sent[1], (None, None));
}

#[test]
fn the_same_path_on_two_hosts_is_two_endpoints_each_with_its_cookie() {
    let (api, files) = (Server::json("{}"), Server::json("{}"));
    let entries = [
        entry(
            &format!("{}/api/projects", api.base()),
            &[("Cookie", API_COOKIE)],
        ),
        entry(
            &format!("{}/api/projects", api.base()),
            &[("Cookie", API_COOKIE)],
        ),
        entry(
            &format!("{}/api/projects", files.base()),
            &[("Cookie", FILES_COOKIE)],
        ),
    ];
    let text = format!(r#"{{"log": {{"entries": [{}]}}}}"#, entries.join(","));
    let options = ImportOptions::new()
        .host(format!("127.0.0.1:{}", api.port()))
        .host(format!("127.0.0.1:{}", files.port()));
    let import = har::import_with(&json::parse(&text).unwrap(), &options).unwrap();
    let plugin = import.plugin();
    let names: Vec<&str> = plugin.endpoints().map(|e| e.name()).collect();
    assert_eq!(names.len(), 2, "{:?}", names);
    call_tools(plugin, &names);
    let cookies = |server: &Server| -> Vec<Option<String>> {
        server
            .requests()
            .iter()
            .map(|r| r.header("cookie"))
            .collect()
    };
    assert_eq!(cookies(&api), [Some(API_COOKIE.to_string())]);
    assert_eq!(cookies(&files), [Some(FILES_COOKIE.to_string())]);
}

fn call_tools(plugin: &HttpPlugin, tools: &[&str]) {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    for tool in tools {
        let out = registry.call(&ToolCall::new("1", *tool, "{}"));
        assert!(!out.is_error(), "{}: {}", tool, out.text());
    }
}
