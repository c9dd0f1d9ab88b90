//! The MCP lifecycle and `tools/list`, through the server's reader and writer.

use httptool::json;
use httptool::json::{Json, Map};
use httptool::mcp::{Server, HANDSHAKE_PROTOCOL_VERSIONS};
use httptool::plugin::HttpPlugin;
use httptool::tool::{CallContext, ToolRegistry, ToolSpec};

use crate::support::mcp::{code, Session};

fn registry_of(count: usize) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    for i in 0..count {
        let spec = ToolSpec::without_parameters(format!("tool_{:03}", i), "A tool").unwrap();
        registry
            .add_fn(spec, move |_: Map, _: &CallContext| format!("tool {}", i))
            .unwrap();
    }
    registry
}

#[test]
fn handshake_with_each_revision() {
    for version in HANDSHAKE_PROTOCOL_VERSIONS {
        let mut session = Session::start(
            Server::new()
                .server_name("weather")
                .server_version("9.9")
                .instructions("Use getWeather for the weather."),
            registry_of(1),
        );
        let answer = session.initialize(version);
        assert_eq!(
            answer["result"],
            json!({
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": {"name": "weather", "version": "9.9"},
                "instructions": "Use getWeather for the weather."
            }),
            "{}",
            version
        );
        session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        session.ping("after");
        let (result, rest) = session.close();
        assert!(result.is_ok());
        assert!(rest.is_empty(), "{:?}", rest);
    }
}

#[test]
fn an_unknown_revision_is_answered_with_the_latest() {
    let mut session = Session::start(Server::new(), registry_of(1));
    let answer = session.initialize("2099-01-01");
    assert_eq!(
        answer["result"]["protocolVersion"],
        Json::from("2025-11-25")
    );
    assert!(answer["result"].get("instructions").is_none());
}

#[test]
fn ping_before_initialize_is_answered_and_other_requests_are_refused() {
    let mut session = Session::start(Server::new(), registry_of(1));
    session.ping("early");
    let answer = session.request(Json::from(1), "tools/list", Json::Null);
    assert_eq!(code(&answer), -32600);
    assert_eq!(
        answer["error"]["message"],
        Json::from("invalid request: the session is not initialized; send initialize first, or name revision 2026-07-28 in _meta \"io.modelcontextprotocol/protocolVersion\"")
    );
    let answer = session.initialize("2025-06-18");
    assert_eq!(
        answer["result"]["protocolVersion"],
        Json::from("2025-06-18")
    );
    let again = session.initialize("2025-06-18");
    assert_eq!(code(&again), -32600);
    assert_eq!(
        again["error"]["message"],
        Json::from("invalid request: the session is already initialized")
    );
    let answer = session.request(Json::from(2), "tools/list", Json::Null);
    assert_eq!(answer["result"]["tools"][0]["name"], Json::from("tool_000"));
}

#[test]
fn initialize_without_a_version_is_invalid_params() {
    let mut session = Session::start(Server::new(), registry_of(1));
    let answer = session.request(Json::from(1), "initialize", json!({"capabilities": {}}));
    assert_eq!(code(&answer), -32602);
    assert_eq!(
        answer["error"]["message"],
        Json::from("invalid params: initialize needs \"protocolVersion\", a string")
    );
}

#[test]
fn unknown_methods_are_method_not_found() {
    let mut session = Session::ready(Server::new(), registry_of(1));
    let answer = session.request(Json::from(1), "resources/list", Json::Null);
    assert_eq!(code(&answer), -32601);
    assert_eq!(
        answer["error"]["message"],
        Json::from("method not found: 'resources/list'; this server offers initialize, ping, tools/list and tools/call")
    );
}

/// Every page of `tools/list`, in order, with the page size the server uses.
fn pages(session: &mut Session) -> Vec<Vec<String>> {
    let mut pages = Vec::new();
    let mut cursor = Json::Null;
    for i in 0.. {
        let params = if cursor.is_null() {
            json!({})
        } else {
            json!({"cursor": cursor.clone()})
        };
        let answer = session.request(Json::from(format!("list{}", i)), "tools/list", params);
        let names = answer["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect();
        pages.push(names);
        match answer["result"].get("nextCursor") {
            Some(next) => cursor = next.clone(),
            None => return pages,
        }
    }
    unreachable!()
}

#[test]
fn pagination_is_deterministic_and_complete() {
    let mut session = Session::ready(Server::new().page_size(10), registry_of(25));
    let first = pages(&mut session);
    assert_eq!(first.iter().map(Vec::len).collect::<Vec<_>>(), [10, 10, 5]);
    let all: Vec<String> = first.concat();
    let expected: Vec<String> = (0..25).map(|i| format!("tool_{:03}", i)).collect();
    assert_eq!(all, expected);
    // The same walk again gives the same pages: the cursors are stable.
    assert_eq!(pages(&mut session), first);
}

#[test]
fn one_page_when_it_fits_or_the_page_size_is_zero() {
    let mut session = Session::ready(Server::new().page_size(0), registry_of(30));
    assert_eq!(pages(&mut session).len(), 1);
    let mut session = Session::ready(Server::new().page_size(30), registry_of(30));
    assert_eq!(
        pages(&mut session),
        [(0..30)
            .map(|i| format!("tool_{:03}", i))
            .collect::<Vec<_>>()]
    );
    let mut session = Session::ready(Server::new(), ToolRegistry::new());
    assert_eq!(pages(&mut session), [Vec::<String>::new()]);
}

#[test]
fn a_bad_cursor_is_invalid_params() {
    let mut session = Session::ready(Server::new().page_size(10), registry_of(25));
    let good =
        session.request(Json::from(1), "tools/list", Json::Null)["result"]["nextCursor"].clone();
    let good = good.as_str().unwrap().to_string();
    let mut forged: Vec<String> = vec![
        String::from("nope"),
        String::new(),
        String::from("ffffffffffffffff.00000000"),
        String::from("0.00000000"),
        String::from("-1.0000000a"),
    ];
    // The right index with another tool's hash, and a hash off by one digit.
    let (index, hash) = good.split_once('.').unwrap();
    forged.push(format!(
        "{}.{:016x}",
        index,
        u64::from_str_radix(hash, 16).unwrap() ^ 1
    ));
    forged.push(format!("{:x}.{}", 11, hash));
    for (i, cursor) in forged.iter().enumerate() {
        let answer = session.request(
            Json::from(100 + i as i64),
            "tools/list",
            json!({"cursor": cursor.as_str()}),
        );
        assert_eq!(code(&answer), -32602, "{:?}: {}", cursor, answer);
        assert_eq!(
            answer["error"]["message"],
            Json::from("invalid params: the cursor is not one this server gave")
        );
    }
    let answer = session.request(Json::from(200), "tools/list", json!({"cursor": 10}));
    assert_eq!(
        answer["error"]["message"],
        Json::from("invalid params: the cursor must be a string, got number")
    );
    session.ping("still");
}

#[test]
fn listed_plugin_tools_carry_title_annotations_and_output_schema() {
    let plugin = HttpPlugin::from_json(
        r#"{"name": "p", "description": "Projects", "base_url": "https://api.example.com", "endpoints": [
            {"name": "listProjects", "title": "List projects", "path": "/projects",
             "output_schema": {"type": "array", "items": {"type": "object"}}},
            {"name": "deleteProject", "method": "DELETE", "path": "/projects/{id}",
             "params": [{"name": "id", "in": "path"}]}]}"#,
    )
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let server = Server::new().instructions(httptool::mcp::plugin_instructions(&[plugin]).unwrap());
    let mut session = Session::start(server, registry);
    let init = session.initialize("2025-11-25");
    assert_eq!(
        init["result"]["instructions"],
        Json::from("Tools of these APIs:\n- p: Projects")
    );
    let tools = session.request(Json::from(1), "tools/list", Json::Null)["result"]["tools"].clone();
    assert_eq!(tools[0]["title"], Json::from("List projects"));
    assert_eq!(
        tools[0]["annotations"],
        json!({"readOnlyHint": true, "idempotentHint": true, "openWorldHint": true})
    );
    assert_eq!(
        tools[0]["outputSchema"],
        json!({"type": "object",
               "properties": {"result": {"type": "array", "items": {"type": "object"}}}})
    );
    assert_eq!(
        tools[1]["annotations"],
        json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true})
    );
    assert!(tools[1].get("outputSchema").is_none());
}
