//! Text a document writes stays text in the plugin file an import writes: a server URL or
//! a token URL holding `${NAME}` is written so that loading the file reads it literally,
//! never as a variable of the user's environment (a document cannot make a saved plugin
//! carry `GITHUB_TOKEN` to its server). The same holds for a plugin built in Rust.

use std::cell::RefCell;

use httptool::json;
use httptool::openapi;
use httptool::plugin::{Endpoint, HttpPlugin};

/// The variables `file` reads when loaded, with every one given a value.
fn variables_read(file: &str) -> Vec<String> {
    let asked = RefCell::new(Vec::new());
    HttpPlugin::from_json_with(file, |name| {
        asked.borrow_mut().push(name.to_string());
        Some(String::from("value-from-the-environment"))
    })
    .unwrap();
    asked.into_inner()
}

#[test]
fn a_server_variable_that_looks_like_a_variable_is_written_literally() {
    let doc = json::parse(
        r#"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "servers": [{"url": "https://api.example.com/{p}/v1",
                     "variables": {"p": {"default": "${GITHUB_TOKEN}"}}}],
        "paths": {
          "/a": {"get": {"operationId": "a"}},
          "/b": {"servers": [{"url": "https://b.example.com/{p}",
                              "variables": {"p": {"default": "${GITHUB_TOKEN}"}}}],
                 "get": {"operationId": "b"}}}}"#,
    )
    .unwrap();
    let import = openapi::import(&doc).unwrap();
    let file = import.plugin().to_json();
    assert_eq!(
        file["base_url"].as_str(),
        Some("https://api.example.com/$${GITHUB_TOKEN}/v1")
    );
    assert_eq!(
        file["endpoints"][1]["base_url"].as_str(),
        Some("https://b.example.com/$${GITHUB_TOKEN}")
    );
    assert_eq!(variables_read(&file.to_string()), Vec::<String>::new());
    let reloaded = HttpPlugin::from_json(&file.to_string()).unwrap();
    assert_eq!(reloaded.to_json(), file);
}

#[test]
fn a_token_url_that_looks_like_a_variable_is_written_literally() {
    let doc = json::parse(
        r#"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "components": {"securitySchemes": {"cc": {"type": "oauth2", "flows": {
          "clientCredentials": {"tokenUrl": "https://auth.example.com/${GITHUB_TOKEN}",
                                "scopes": {}}}}}},
        "security": [{"cc": []}],
        "paths": {"/a": {"get": {"operationId": "a"}}}}"#,
    )
    .unwrap();
    let import = openapi::import(&doc).unwrap();
    let file = import.plugin().to_json();
    assert_eq!(
        file["auth"]["token_url"].as_str(),
        Some("https://auth.example.com/$${GITHUB_TOKEN}")
    );
    let read = variables_read(&file.to_string());
    assert!(
        read.iter().all(|name| name.starts_with("HTTPTOOL_")),
        "{:?}",
        read
    );
}

#[test]
fn a_literal_base_url_with_a_dollar_brace_reads_back_the_same() {
    let plugin = HttpPlugin::builder("p", "https://api.example.com/${HOME}/v1")
        .endpoint(Endpoint::get("a", "/a"))
        .build()
        .unwrap();
    let file = plugin.to_json();
    assert_eq!(
        file["base_url"].as_str(),
        Some("https://api.example.com/$${HOME}/v1")
    );
    assert_eq!(variables_read(&file.to_string()), Vec::<String>::new());
}
