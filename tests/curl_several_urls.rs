//! A curl command with several URLs: curl sends the same request to each in turn, so each
//! is an endpoint of one plugin, and each tool sends what curl sends to its URL.

use httptool::curl::{self, ErrorKind};
use httptool::plugin::HttpPlugin;
use httptool::tool::{ToolCall, ToolRegistry};

use crate::support::Server;

fn registry(plugin: &HttpPlugin) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    registry
}

#[test]
fn each_url_is_an_endpoint_sent_the_same_request() {
    let first = Server::json("{}");
    let second = Server::json("{}");
    let command = format!(
        "curl -H 'X-Team: blue' --json '{{\"name\": \"a\"}}' {}/v1/items {}/v1/items?dry=1 {}/v1/tags",
        first.base(),
        second.base(),
        first.base()
    );
    let cmd = curl::parse(&command).unwrap();
    let import = curl::to_plugin_with(&cmd, &curl::ImportOptions::new()).unwrap();
    let plugin = import.plugin();
    let names: Vec<&str> = plugin.endpoints().map(|e| e.name()).collect();
    assert_eq!(names, ["create_item", "create_item_2", "create_tag"]);
    assert_eq!(import.tool_name(), "create_item");
    // The first URL's base is the plugin's; the other host's endpoint has its own.
    assert_eq!(
        plugin.base_url().as_str(),
        format!("{}/v1", first.base()).as_str()
    );
    assert_eq!(plugin.endpoint("create_item").unwrap().base_url(), None);
    let own = format!("{}/v1", second.base());
    assert_eq!(
        plugin.endpoint("create_item_2").unwrap().base_url(),
        Some(own.as_str())
    );
    let registry = registry(plugin);
    let calls = [
        ("create_item", r#"{"name": "a"}"#),
        ("create_item_2", r#"{"name": "a", "dry": 1}"#),
        ("create_tag", r#"{"name": "a"}"#),
    ];
    for (tool, arguments) in calls {
        let out = registry.call(&ToolCall::new("1", tool, arguments));
        assert!(!out.is_error(), "{}: {}", tool, out.text());
    }
    let at_first = first.requests();
    assert_eq!(at_first.len(), 2);
    assert!(at_first[0].head.starts_with("POST /v1/items HTTP/1.1\r\n"));
    assert!(at_first[1].head.starts_with("POST /v1/tags HTTP/1.1\r\n"));
    let at_second = second.requests();
    assert!(at_second[0]
        .head
        .starts_with("POST /v1/items?dry=1 HTTP/1.1\r\n"));
    for received in at_first.iter().chain(&at_second) {
        assert_eq!(received.header("x-team").as_deref(), Some("blue"));
        assert_eq!(received.body, br#"{"name":"a"}"#);
    }
}

#[test]
fn credentials_and_notes_are_given_once() {
    let cmd = curl::parse(
        "curl -u ann:s3cret-pass -o out.json https://api.example.com/a https://api.example.com/b",
    )
    .unwrap();
    let import = curl::to_plugin_with(&cmd, &curl::ImportOptions::new()).unwrap();
    assert_eq!(import.plugin().endpoints().count(), 2);
    let variables: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    let mut unique = variables.clone();
    unique.dedup();
    assert_eq!(variables, unique);
    let notes: Vec<String> = import.notes().iter().map(|n| n.to_string()).collect();
    let mut once = notes.clone();
    once.dedup();
    assert_eq!(notes, once);
    assert!(!import
        .plugin()
        .to_json()
        .to_string()
        .contains("s3cret-pass"));
}

#[test]
fn more_urls_than_the_limit_is_an_error_naming_them() {
    let urls: Vec<String> = (0..65).map(|i| format!("https://a.test/{}", i)).collect();
    let err = curl::parse(&format!("curl {}", urls.join(" "))).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SeveralUrls);
    assert_eq!(
        err.to_string(),
        "too many URLs (arguments 1 to 65): httptool makes an endpoint of each of at most 64; split the command"
    );
}
