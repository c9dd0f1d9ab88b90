//! The path-value rule on both of its sides (one owner per rule): a path
//! parameter's default is checked when the plugin is built, and a model's value when a call
//! is built, by the one rule the url layer owns (`url::reads_as_dot_segment`, plus "not
//! empty"). A value one side refuses the other refuses too; a value one side lets through
//! the other sends.

use httptool::json::Json;
use httptool::plugin::{ErrorKind as PluginErrorKind, HttpPlugin};
use httptool::tool::{ErrorKind, ToolCall, ToolRegistry};

use crate::support::plugin::Server;

/// Values that could walk up a server's path: refused on both sides.
const REFUSED: &[&str] = &[
    ".",
    "..",
    "%2e%2E",
    "%2E.",
    "a/../b",
    "a\\\\..\\\\b",
    "..;x",
    ".. ",
    "%252e%252e",
    "\u{ff0e}\u{ff0e}",
];

/// Names with dots that are not dot segments: sent on both sides, one encoded segment.
const SENT: &[(&str, &str)] = &[
    ("...", "/api/files/.../meta"),
    (".hidden", "/api/files/.hidden/meta"),
    ("a..b", "/api/files/a..b/meta"),
    ("v1.2", "/api/files/v1.2/meta"),
    ("a/b", "/api/files/a%2Fb/meta"),
];

fn echo() -> Server {
    Server::responding(|request| {
        (
            String::from("200 OK"),
            String::new(),
            request.target.clone().into_bytes(),
        )
    })
}

/// The plugin file of one GET `/files/{id}/meta`; `default` is the JSON of the path
/// parameter's default, if any.
fn file(base: &str, default: Option<&str>) -> String {
    let default = default.map_or(String::new(), |d| format!(r#", "default": {}"#, d));
    format!(
        r#"{{"name": "files", "base_url": "{}/api", "endpoints": [
            {{"name": "getFile", "path": "/files/{{id}}/meta",
              "params": [{{"name": "id", "in": "path"{}}}]}}]}}"#,
        base, default
    )
}

fn registry(plugin: &HttpPlugin) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    registry
}

#[test]
fn a_dot_segment_is_refused_as_a_default_and_as_a_value() {
    let server = echo();
    let plugin = HttpPlugin::from_json(&file(&server.base(), None)).unwrap();
    let registry = registry(&plugin);
    for value in REFUSED {
        let quoted = Json::from(*value).to_string();
        let err = HttpPlugin::from_json(&file(&server.base(), Some(&quoted))).unwrap_err();
        assert_eq!(err.kind(), PluginErrorKind::InvalidDefault, "{}", value);
        assert_eq!(
            err.to_string(),
            "endpoints[0].params[0].default: a path default cannot be empty or hold a '.' or '..' segment",
            "{}",
            value
        );
        let arguments = format!(r#"{{"id": {}}}"#, quoted);
        let out = registry.call(&ToolCall::new("call_1", "getFile", &arguments));
        assert_eq!(
            out.error_kind(),
            Some(ErrorKind::InvalidParameter),
            "{}",
            value
        );
    }
    assert!(server.requests().is_empty());
    assert_eq!(server.connections(), 0);
}

#[test]
fn an_empty_path_value_is_refused_as_a_default_and_as_a_value() {
    let server = echo();
    let err = HttpPlugin::from_json(&file(&server.base(), Some(r#""""#))).unwrap_err();
    assert_eq!(err.kind(), PluginErrorKind::InvalidDefault);
    let plugin = HttpPlugin::from_json(&file(&server.base(), None)).unwrap();
    let out = registry(&plugin).call(&ToolCall::new("call_1", "getFile", r#"{"id": ""}"#));
    assert_eq!(out.error_kind(), Some(ErrorKind::MissingParameter));
    assert_eq!(server.connections(), 0);
}

#[test]
fn a_name_with_dots_is_sent_as_a_default_and_as_a_value() {
    let server = echo();
    let plugin = HttpPlugin::from_json(&file(&server.base(), None)).unwrap();
    let by_value = registry(&plugin);
    let mut expected = Vec::new();
    for (value, target) in SENT {
        let quoted = Json::from(*value).to_string();
        let arguments = format!(r#"{{"id": {}}}"#, quoted);
        let out = by_value.call(&ToolCall::new("call_1", "getFile", &arguments));
        assert_eq!(out.text(), *target, "{}", value);
        let with_default = HttpPlugin::from_json(&file(&server.base(), Some(&quoted)))
            .unwrap_or_else(|e| panic!("{}: {}", value, e));
        let out = registry(&with_default).call(&ToolCall::new("call_1", "getFile", "{}"));
        assert_eq!(out.text(), *target, "default {}", value);
        expected.push(target.to_string());
        expected.push(target.to_string());
    }
    let seen: Vec<String> = server.requests().into_iter().map(|r| r.target).collect();
    assert_eq!(seen, expected);
}
