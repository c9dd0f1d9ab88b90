//! JSON-RPC batches (JSON-RPC 2.0, section 6): answered as one array when the session
//! negotiated MCP 2025-03-26, the one revision that takes them; refused otherwise.

use httptool::json::{Json, Map};
use httptool::mcp::Server;
use httptool::tool::{CallContext, ToolRegistry, ToolSpec};

use crate::support::mcp::{code, Gate, Session};

/// `hello` answers at once; `slow` waits at `gate`.
fn registry(gate: Gate) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    let hello = ToolSpec::without_parameters("hello", "Says hello").unwrap();
    registry
        .add_fn(hello, |_: Map, _: &CallContext| "hi")
        .unwrap();
    let slow = ToolSpec::without_parameters("slow", "Waits at the gate").unwrap();
    registry
        .add_fn(slow, move |_: Map, _: &CallContext| {
            gate.wait();
            "slow"
        })
        .unwrap();
    registry
}

/// A session that negotiated `version`.
fn session_at(server: Server, gate: Gate, version: &str) -> Session {
    let mut session = Session::start(server, registry(gate));
    let answer = session.initialize(version);
    assert_eq!(answer["result"]["protocolVersion"], Json::from(version));
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    session
}

/// The elements of a batch answer, by the text of their id.
fn by_id(answer: &Json) -> Vec<(String, Json)> {
    let elements = answer
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {}", answer));
    let mut elements: Vec<(String, Json)> = elements
        .iter()
        .map(|e| (e["id"].to_string(), e.clone()))
        .collect();
    elements.sort_by(|a, b| a.0.cmp(&b.0));
    elements
}

fn close_clean(session: Session) {
    let (result, rest) = session.close();
    assert!(result.is_ok());
    assert!(rest.is_empty(), "{:?}", rest);
}

#[test]
fn a_batch_under_2025_03_26_is_answered_with_one_array() {
    let mut session = session_at(Server::new(), Gate::new(), "2025-03-26");
    session.send(concat!(
        "[",
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"},"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"},"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"},"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hello"}},"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"nope"}"#,
        "]"
    ));
    let answer = session.next();
    let elements = by_id(&answer);
    let ids: Vec<&str> = elements.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["1", "2", "3", "4"], "{}", answer);
    assert_eq!(elements[0].1["result"], httptool::json!({}));
    assert_eq!(
        elements[1].1["result"]["tools"].as_array().map(Vec::len),
        Some(2)
    );
    assert_eq!(
        elements[2].1["result"]["content"][0]["text"],
        Json::from("hi")
    );
    assert_eq!(code(&elements[3].1), -32601);
    session.ping("after");
    close_clean(session);
}

#[test]
fn an_invalid_element_gets_its_own_error_in_the_array() {
    let mut session = session_at(Server::new(), Gate::new(), "2025-03-26");
    session.send(r#"[1,{"jsonrpc":"1.0","id":"v","method":"ping"},[],{"jsonrpc":"2.0","id":"ok","method":"ping"}]"#);
    let answer = session.next();
    let elements = by_id(&answer);
    assert_eq!(elements.len(), 4, "{}", answer);
    // Sorted by id text: "\"ok\"", "\"v\"", then the two answered with null.
    assert_eq!(elements[0].0, "\"ok\"");
    assert_eq!(elements[0].1["result"], httptool::json!({}));
    assert_eq!(elements[1].0, "\"v\"");
    assert_eq!(code(&elements[1].1), -32600);
    // The two answered with null, in the order they were read (the sort is stable).
    for ((id, element), got) in elements[2..].iter().zip(["number", "array"]) {
        assert_eq!((id.as_str(), code(element)), ("null", -32600));
        assert_eq!(
            element["error"]["message"],
            Json::from(format!(
                "invalid request: a message is a JSON object, got {}",
                got
            ))
        );
    }
    close_clean(session);
}

#[test]
fn a_batch_of_notifications_only_writes_nothing() {
    let mut session = session_at(Server::new(), Gate::new(), "2025-03-26");
    session.send(concat!(
        "[",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"},"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#,
        "]"
    ));
    // The next line written is the ping's answer: the batch got none.
    session.send(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    let next = session.next();
    assert_eq!(next["id"], Json::from("p"), "{}", next);
    close_clean(session);
}

#[test]
fn an_empty_batch_is_one_invalid_request() {
    let mut session = session_at(Server::new(), Gate::new(), "2025-03-26");
    session.send("[]");
    let answer = session.next();
    assert_eq!(answer["id"], Json::Null, "{}", answer);
    assert_eq!(code(&answer), -32600);
    assert_eq!(
        answer["error"]["message"],
        Json::from("invalid request: the batch is empty; a batch holds at least one message")
    );
    session.ping("after");
    close_clean(session);
}

#[test]
fn initialize_inside_a_batch_is_refused() {
    let mut session = session_at(Server::new(), Gate::new(), "2025-03-26");
    session.send(concat!(
        "[",
        r#"{"jsonrpc":"2.0","id":"again","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}},"#,
        r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#,
        "]"
    ));
    let answer = session.next();
    let elements = by_id(&answer);
    assert_eq!(elements.len(), 2, "{}", answer);
    assert_eq!(elements[0].0, "\"again\"");
    assert_eq!(code(&elements[0].1), -32600);
    assert_eq!(
        elements[0].1["error"]["message"],
        Json::from("invalid request: initialize must not be part of a batch")
    );
    assert_eq!(elements[1].1["result"], httptool::json!({}));
    // The session still speaks 2025-03-26: a batch is still answered.
    session.send(r#"[{"jsonrpc":"2.0","id":"q","method":"ping"}]"#);
    assert_eq!(by_id(&session.next())[0].0, "\"q\"");
    close_clean(session);
}

#[test]
fn batches_are_refused_under_other_revisions_and_before_initialize() {
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#;
    let refused = |answer: &Json| {
        assert_eq!(answer["id"], Json::Null, "{}", answer);
        assert_eq!(code(answer), -32600);
        assert_eq!(
            answer["error"]["message"],
            Json::from("invalid request: batches (JSON arrays of messages) are accepted only under protocol revision 2025-03-26; send one message a line")
        );
    };
    for version in ["2025-11-25", "2025-06-18", "2024-11-05"] {
        let mut session = session_at(Server::new(), Gate::new(), version);
        session.send(batch);
        refused(&session.next());
        session.ping("after");
        close_clean(session);
    }
    let mut session = Session::start(Server::new(), registry(Gate::new()));
    session.send(batch);
    refused(&session.next());
    // Refused before initialize, and the session can still be started.
    let answer = session.initialize("2025-03-26");
    assert_eq!(
        answer["result"]["protocolVersion"],
        Json::from("2025-03-26")
    );
    close_clean(session);
}

#[test]
fn calls_in_a_batch_run_concurrently_and_answer_together() {
    let gate = Gate::new();
    let mut session = session_at(Server::new().max_concurrency(2), gate.clone(), "2025-03-26");
    session.send(concat!(
        "[",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}},"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}},"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hello"}}"#,
        "]"
    ));
    // Both slow calls are running at once, on two workers.
    gate.until_waiting(2);
    // The batch waits for them; a line of its own does not.
    session.ping("while-held");
    assert_eq!(
        session.stashed(),
        0,
        "the batch was answered before its calls"
    );
    gate.open();
    let answer = session.next();
    let elements = by_id(&answer);
    let ids: Vec<&str> = elements.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["1", "2", "3"], "{}", answer);
    assert_eq!(
        elements[0].1["result"]["content"][0]["text"],
        Json::from("slow")
    );
    assert_eq!(
        elements[2].1["result"]["content"][0]["text"],
        Json::from("hi")
    );
    close_clean(session);
}

#[test]
fn a_cancelled_call_in_a_batch_gets_no_element() {
    let gate = Gate::new();
    let mut session = session_at(Server::new(), gate.clone(), "2025-03-26");
    session.send(concat!(
        "[",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}},"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hello"}}"#,
        "]"
    ));
    gate.until_waiting(1);
    session
        .send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#);
    // The batch no longer waits for the cancelled call: it is written while that call is
    // still held at the gate.
    let answer = session.next();
    let elements = by_id(&answer);
    let ids: Vec<&str> = elements.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["2"], "{}", answer);
    gate.open();
    session.ping("after");
    // Nothing more comes for the cancelled call.
    close_clean(session);
}
