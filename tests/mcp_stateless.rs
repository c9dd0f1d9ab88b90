//! MCP revision 2026-07-28 (no handshake: each request names its revision in `_meta`) beside
//! the revisions reached through `initialize`, on one input; and what each revision gets.

use httptool::json;
use httptool::json::{Json, Map};
use httptool::mcp::{Server, PROTOCOL_VERSIONS};
use httptool::tool::{CallContext, ToolAnnotations, ToolRegistry, ToolSpec};

use crate::support::mcp::{code, Session};

const MODERN: &str = "2026-07-28";

/// A tool with everything a revision may leave out: a title, annotations, an output schema
/// and a JSON result.
fn registry() -> ToolRegistry {
    let spec = ToolSpec::without_parameters("weather", "Current weather")
        .unwrap()
        .with_title("Weather")
        .with_annotations(ToolAnnotations {
            read_only: Some(true),
            ..ToolAnnotations::default()
        })
        .with_output_schema(json!({"type": "object", "properties": {"temp": {"type": "number"}}}))
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry
        .add_fn(spec, |_: Map, _: &CallContext| json!({"temp": 21.5}))
        .unwrap();
    let plain = ToolSpec::without_parameters("plain", "No extras").unwrap();
    registry
        .add_fn(plain, |_: Map, _: &CallContext| "ok")
        .unwrap();
    registry
}

/// The `_meta` a 2026-07-28 client puts on every request.
fn meta(version: &str) -> Json {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"}
    })
}

fn server() -> Server {
    Server::new()
        .server_name("weather-server")
        .server_version("9.9")
        .instructions("Use weather.")
}

fn server_meta() -> Json {
    json!({"io.modelcontextprotocol/serverInfo": {"name": "weather-server", "version": "9.9"}})
}

#[test]
fn discover_without_initialize() {
    let mut session = Session::start(server(), registry());
    let answer = session.request(
        Json::from("d"),
        "server/discover",
        json!({"_meta": meta(MODERN)}),
    );
    assert_eq!(
        answer["result"],
        json!({
            "resultType": "complete",
            "supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
            "capabilities": {"tools": {}},
            "instructions": "Use weather.",
            "ttlMs": 86_400_000,
            "cacheScope": "private",
            "_meta": server_meta()
        })
    );
    assert_eq!(PROTOCOL_VERSIONS[0], MODERN);
}

#[test]
fn list_and_call_without_initialize() {
    let mut session = Session::start(server(), registry());
    let list = session.request(Json::from(1), "tools/list", json!({"_meta": meta(MODERN)}));
    let result = &list["result"];
    assert_eq!(result["resultType"], Json::from("complete"));
    assert_eq!(result["ttlMs"], Json::from(86_400_000));
    assert_eq!(result["cacheScope"], Json::from("private"));
    assert_eq!(result["_meta"], server_meta());
    assert!(result.get("nextCursor").is_none());
    let tools = result["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 2);
    assert_eq!(tools[0]["title"], Json::from("Weather"));
    assert!(tools[0].get("outputSchema").is_some());

    let call = session.request(
        Json::from(2),
        "tools/call",
        json!({"name": "weather", "arguments": {}, "_meta": meta(MODERN)}),
    );
    let result = &call["result"];
    assert_eq!(result["resultType"], Json::from("complete"));
    assert_eq!(result["_meta"], server_meta());
    assert_eq!(result["structuredContent"], json!({"temp": 21.5}));
    assert_eq!(result["isError"], Json::from(false));
    let (ended, rest) = session.close();
    assert!(ended.is_ok());
    assert!(rest.is_empty(), "{:?}", rest);
}

#[test]
fn an_unsupported_revision_lists_the_supported_ones() {
    let mut session = Session::start(server(), registry());
    for (i, version) in ["1900-01-01", "2025-11-25"].iter().enumerate() {
        let answer = session.request(
            Json::from(i as i64),
            "tools/list",
            json!({"_meta": meta(version)}),
        );
        assert_eq!(code(&answer), -32022, "{}", answer);
        assert_eq!(
            answer["error"]["data"],
            json!({
                "supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
                "requested": *version
            })
        );
    }
    let answer = session.request(
        Json::from(9),
        "tools/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": 2026}}),
    );
    assert_eq!(code(&answer), -32602);
}

#[test]
fn ping_and_set_level_are_gone_at_2026_07_28() {
    let mut session = Session::start(server(), registry());
    for method in ["ping", "logging/setLevel"] {
        let answer = session.request(
            Json::from(method),
            method,
            json!({"level": "info", "_meta": meta(MODERN)}),
        );
        assert_eq!(code(&answer), -32601, "{}", answer);
    }
    // A log level is accepted per request; the server logs nothing, so nothing comes but
    // the answer.
    let mut with_level = meta(MODERN);
    if let Json::Object(map) = &mut with_level {
        map.insert("io.modelcontextprotocol/logLevel", "debug");
    }
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#);
    let answer = session.request(
        Json::from(3),
        "tools/call",
        json!({"name": "plain", "_meta": with_level.clone()}),
    );
    assert_eq!(answer["result"]["content"][0]["text"], Json::from("ok"));
    if let Json::Object(map) = &mut with_level {
        map.insert("io.modelcontextprotocol/logLevel", "loud");
    }
    let answer = session.request(Json::from(4), "tools/list", json!({"_meta": with_level}));
    assert_eq!(code(&answer), -32602);
    let (_, rest) = session.close();
    assert!(rest.is_empty(), "{:?}", rest);
}

#[test]
fn both_eras_on_one_input() {
    let mut session = Session::start(server(), registry());
    let modern = session.request(Json::from(1), "tools/list", json!({"_meta": meta(MODERN)}));
    assert_eq!(modern["result"]["resultType"], Json::from("complete"));
    let init = session.initialize("2025-06-18");
    assert_eq!(init["result"]["protocolVersion"], Json::from("2025-06-18"));
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let legacy = session.request(Json::from(2), "tools/list", Json::Null);
    assert!(legacy["result"].get("resultType").is_none());
    assert!(legacy["result"].get("_meta").is_none());
    assert_eq!(legacy["result"]["tools"], modern["result"]["tools"]);
    let call = session.call(Json::from(3), "weather", json!({}));
    assert!(call["result"].get("resultType").is_none());
    session.ping("legacy ping");
    // A modern request after the handshake is still served at its own revision.
    let again = session.request(
        Json::from(4),
        "tools/call",
        json!({"name": "weather", "_meta": meta(MODERN)}),
    );
    assert_eq!(again["result"]["resultType"], Json::from("complete"));
}

#[test]
fn a_handshake_asking_for_2026_07_28_gets_2025_11_25() {
    let mut session = Session::start(server(), registry());
    let init = session.initialize(MODERN);
    assert_eq!(init["result"]["protocolVersion"], Json::from("2025-11-25"));
}

/// The first tool of `tools/list` and the result of calling it, in a session of `version`.
fn listed_and_called(version: &str) -> (Json, Json) {
    let mut session = Session::start(server(), registry());
    session.initialize(version);
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let list = session.request(Json::from(1), "tools/list", Json::Null);
    let call = session.call(Json::from(2), "weather", json!({}));
    (list["result"]["tools"][0].clone(), call["result"].clone())
}

#[test]
fn each_revision_gets_only_what_it_defines() {
    let (tool, result) = listed_and_called("2024-11-05");
    assert_eq!(
        tool,
        json!({"name": "weather", "description": "Current weather",
               "inputSchema": tool["inputSchema"].clone()})
    );
    assert!(result.get("structuredContent").is_none(), "{}", result);
    assert_eq!(result["content"][0]["text"], Json::from(r#"{"temp":21.5}"#));

    let (tool, result) = listed_and_called("2025-03-26");
    assert!(tool.get("title").is_none() && tool.get("outputSchema").is_none());
    assert_eq!(tool["annotations"]["readOnlyHint"], Json::from(true));
    assert!(result.get("structuredContent").is_none(), "{}", result);

    for version in ["2025-06-18", "2025-11-25"] {
        let (tool, result) = listed_and_called(version);
        assert_eq!(tool["title"], Json::from("Weather"));
        assert!(tool.get("outputSchema").is_some());
        assert_eq!(tool["annotations"]["readOnlyHint"], Json::from(true));
        assert_eq!(result["structuredContent"], json!({"temp": 21.5}));
    }
}
