//! Security requirements as the plugin sends them: schemes that put a credential in the
//! same place are one credential (Google's two OAuth 2.0 flows, both `Authorization:
//! Bearer`), alternatives are the first the plugin can send with the others named in a
//! warning, and a document parameter in the credential's place is the credential's slot.

use crate::support::Server;
use httptool::json::{self, Json};
use httptool::openapi::{self, ImportOptions};
use httptool::tool::{ToolCall, ToolRegistry};

/// A document on `base` with `schemes`, the document-level `security`, and operations.
fn doc(base: &str, schemes: &str, security: &str, paths: &str) -> Json {
    json::parse(&format!(
        r#"{{"openapi": "3.0.3", "info": {{"title": "Google-like", "version": "1"}},
        "servers": [{{"url": "{}"}}],
        "components": {{"securitySchemes": {}}},
        "security": {},
        "paths": {}}}"#,
        base, schemes, security, paths
    ))
    .unwrap()
}

/// Google's: an implicit and an authorization-code flow, both in one requirement.
const TWO_FLOWS: &str = r#"{
  "Oauth2": {"type": "oauth2", "flows": {"implicit": {
    "authorizationUrl": "https://accounts.example.com/o/oauth2/auth", "scopes": {"a": "A"}}}},
  "Oauth2c": {"type": "oauth2", "flows": {"authorizationCode": {
    "authorizationUrl": "https://accounts.example.com/o/oauth2/auth",
    "tokenUrl": "https://accounts.example.com/token", "scopes": {"a": "A"}}}}}"#;

fn call(import: &openapi::Import, tool: &str) {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(import.plugin()).unwrap();
    let out = registry.call(&ToolCall::new("c", tool, "{}"));
    assert!(!out.is_error(), "{}: {}", tool, out.text());
}

fn warnings(import: &openapi::Import) -> Vec<String> {
    import.warnings().iter().map(|w| w.to_string()).collect()
}

#[test]
fn two_oauth2_flows_in_one_requirement_are_one_bearer_token() {
    let server = Server::json("{}");
    let base = server.base();
    let d = doc(
        &base,
        TWO_FLOWS,
        r#"[{"Oauth2": ["a"], "Oauth2c": ["a"]}]"#,
        r#"{"/items": {"get": {"operationId": "list"}}, "/items/{id}": {"get": {"operationId": "get",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}]}}}"#,
    );
    let variable = format!("HTTPTOOL_127_0_0_1_{}___OAUTH2", server.port());
    let options = ImportOptions::new().variable(variable.as_str(), "t-1");
    let import = openapi::import_with(&d, &options).unwrap();
    assert_eq!(import.tools().len(), 2);
    assert_eq!(import.variables(), [variable.as_str()]);
    assert_eq!(
        import.plugin().to_json()["auth"],
        json::parse(&format!(
            r#"{{"type": "bearer", "token": "${{{}}}"}}"#,
            variable
        ))
        .unwrap()
    );
    call(&import, "list");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        requests[0].header("Authorization").as_deref(),
        Some("Bearer t-1")
    );
    assert_eq!(requests[0].head.matches("Authorization").count(), 1);
}

#[test]
fn bearer_and_oauth2_on_one_operation_are_one_secret_parameter() {
    let d = doc(
        "https://api.example.com",
        r#"{"bearer": {"type": "http", "scheme": "bearer"},
            "oauth": {"type": "oauth2", "flows": {"implicit": {
              "authorizationUrl": "https://a.example.com/auth", "scopes": {}}}},
            "key": {"type": "apiKey", "in": "query", "name": "key"}}"#,
        "[]",
        r#"{"/a": {"get": {"operationId": "a", "security": [{"bearer": [], "oauth": []}]}},
            "/b": {"get": {"operationId": "b", "security": [{"key": []}]}}}"#,
    );
    let import = openapi::import(&d).unwrap();
    let file = import.plugin().to_json();
    assert_eq!(
        file["endpoints"][0]["params"],
        json::parse(
            r#"[{"name": "auth_bearer", "wire_name": "Authorization", "in": "header", "type": "string",
                 "default": "Bearer ${HTTPTOOL_API_EXAMPLE_COM___BEARER}", "secret": true}]"#
        )
        .unwrap()
    );
    assert_eq!(
        import.variables(),
        [
            "HTTPTOOL_API_EXAMPLE_COM___BEARER",
            "HTTPTOOL_API_EXAMPLE_COM___KEY"
        ]
    );
    assert_eq!(
        warnings(&import),
        ["/components/securitySchemes/oauth: oauth2 scheme: a bearer token slot; the token is not fetched, set its variable yourself"]
    );
}

#[test]
fn alternatives_are_the_first_that_can_be_sent_and_the_others_are_named() {
    let server = Server::json("{}");
    let d = doc(
        &server.base(),
        r#"{"digest": {"type": "http", "scheme": "digest"},
            "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
            "token": {"type": "http", "scheme": "bearer"}}"#,
        r#"[{"digest": []}, {"key": []}, {"token": []}]"#,
        r#"{"/a": {"get": {"operationId": "a"}}}"#,
    );
    let variable = format!("HTTPTOOL_127_0_0_1_{}___KEY", server.port());
    let options = ImportOptions::new().variable(variable.as_str(), "k-1");
    let import = openapi::import_with(&d, &options).unwrap();
    assert_eq!(
        warnings(&import),
        [
            "/components/securitySchemes/digest: http scheme 'digest' is not supported: not imported",
            "/security: security: 'key' is sent; the alternatives 'digest', 'token' are not (any one requirement satisfies)",
        ]
    );
    call(&import, "a");
    let requests = server.requests();
    assert_eq!(requests[0].header("X-Key").as_deref(), Some("k-1"));
    assert_eq!(requests[0].header("Authorization"), None);
}

#[test]
fn basic_and_bearer_in_one_requirement_send_the_first_with_a_warning() {
    let d = doc(
        "https://api.example.com",
        r#"{"basic": {"type": "http", "scheme": "basic"},
            "bearer": {"type": "http", "scheme": "bearer"}}"#,
        r#"[{"basic": [], "bearer": []}]"#,
        r#"{"/a": {"get": {"operationId": "a"}}}"#,
    );
    let import = openapi::import(&d).unwrap();
    assert_eq!(
        import.plugin().to_json()["auth"]["type"],
        Json::from("basic")
    );
    assert_eq!(
        warnings(&import),
        ["/security: security schemes 'basic' and 'bearer' both put a credential in header 'authorization': 'basic' is sent"]
    );
}

#[test]
fn a_document_parameter_in_the_credentials_place_is_the_credentials_slot() {
    let server = Server::json("{}");
    let d = doc(
        &server.base(),
        r#"{"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}"#,
        r#"[{"key": []}]"#,
        r#"{"/a": {"get": {"operationId": "a", "parameters": [
            {"name": "x-key", "in": "header", "required": true, "schema": {"type": "string"}},
            {"name": "q", "in": "query", "schema": {"type": "string"}}]}}}"#,
    );
    let variable = format!("HTTPTOOL_127_0_0_1_{}___KEY", server.port());
    let options = ImportOptions::new().variable(variable.as_str(), "k-2");
    let import = openapi::import_with(&d, &options).unwrap();
    let params = import.plugin().to_json()["endpoints"][0]["params"].clone();
    assert_eq!(
        params,
        json::parse(r#"[{"name": "q", "in": "query", "type": "string"}]"#).unwrap()
    );
    assert_eq!(
        warnings(&import),
        ["/paths/~1a/get: header 'x-key' is where the security scheme's credential goes: filled from its variable, not a parameter"]
    );
    call(&import, "a");
    assert_eq!(server.requests()[0].header("X-Key").as_deref(), Some("k-2"));
}
