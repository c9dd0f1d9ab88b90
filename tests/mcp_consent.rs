//! The user's approval through the MCP client: `elicitation/create` on a 2025-11-25
//! session, the multi round-trip pattern at 2026-07-28 (a signed `requestState`), a client
//! that cannot ask, and a hostile model or client that tries to get a write through. A
//! loopback API counts what reaches it.

use std::sync::Arc;
use std::time::Duration;

use httptool::json::{self, Json};
use httptool::mcp::Server;
use httptool::plugin::HttpPlugin;
use httptool::tool::{CallContext, Confirm, ToolRegistry};

use crate::support::mcp::Session;
use crate::support::server::Server as Api;

const MODERN: &str = "2026-07-28";

fn registry(base: &str) -> ToolRegistry {
    let plugin = HttpPlugin::from_json(&format!(
        r#"{{"name": "repos", "base_url": "{}", "confirm": "destructive",
            "endpoints": [
              {{"name": "getRepo", "path": "/repos/{{id}}", "params": [{{"name": "id", "in": "path"}}]}},
              {{"name": "deleteRepo", "method": "DELETE", "path": "/repos/{{id}}",
                "params": [{{"name": "id", "in": "path"}}]}}
            ]}}"#,
        base
    ))
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    registry
}

/// A session initialized at `version` with these client capabilities.
fn session(server: Server, api: &Api, version: &str, capabilities: Json) -> Session {
    let mut session = Session::start(server, registry(&api.base()));
    let answer = session.request(
        Json::from("init"),
        "initialize",
        httptool::json!({"protocolVersion": version, "capabilities": capabilities,
                     "clientInfo": {"name": "test", "version": "1"}}),
    );
    assert_eq!(answer["result"]["protocolVersion"], Json::from(version));
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    session
}

fn text(answer: &Json) -> String {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn is_error(answer: &Json) -> bool {
    answer["result"]["isError"] == Json::from(true)
}

/// Sends a call and returns the `elicitation/create` request the server sends before it.
fn asked(session: &mut Session, id: i64, tool: &str, arguments: Json) -> Json {
    session.send_request(
        Json::from(id),
        "tools/call",
        httptool::json!({"name": tool, "arguments": arguments}),
    );
    let request = session.next();
    assert_eq!(
        request["method"],
        Json::from("elicitation/create"),
        "{}",
        request
    );
    request
}

fn reply(session: &Session, request: &Json, result: Json) {
    let message =
        httptool::json!({"jsonrpc": "2.0", "id": request["id"].clone(), "result": result});
    session.send(&message.to_string());
}

#[test]
fn a_session_asks_with_a_form_and_sends_only_on_accept() {
    let api = Api::json(r#"{"deleted":true}"#);
    let capabilities = httptool::json!({"elicitation": {"form": {}}});
    let mut session = session(Server::new(), &api, "2025-11-25", capabilities);

    let request = asked(
        &mut session,
        1,
        "deleteRepo",
        httptool::json!({"id": "a/b"}),
    );
    let params = &request["params"];
    assert_eq!(params["mode"], Json::from("form"));
    let message = params["message"].as_str().unwrap();
    assert!(message.contains("DELETE \""), "{}", message);
    assert!(message.contains("/repos/a%2Fb\""), "{}", message);
    assert!(message.contains("- \"id\": \"a/b\""), "{}", message);
    assert_eq!(
        params["requestedSchema"]["properties"]["approve"]["type"],
        Json::from("boolean")
    );
    assert_eq!(
        params["requestedSchema"]["required"],
        httptool::json!(["approve"])
    );
    assert!(
        api.requests().is_empty(),
        "nothing is sent while the user thinks"
    );
    reply(
        &session,
        &request,
        httptool::json!({"action": "accept", "content": {"approve": true}}),
    );
    let answer = session.answer(&Json::from(1));
    assert!(!is_error(&answer), "{}", answer);
    assert_eq!(api.requests().len(), 1);

    let refusals = [
        (httptool::json!({"action": "decline"}), "declined"),
        (httptool::json!({"action": "cancel"}), "dismissed"),
        // Accepted with the box left unticked is no approval.
        (
            httptool::json!({"action": "accept", "content": {"approve": false}}),
            "declined",
        ),
    ];
    for (i, (result, says)) in refusals.into_iter().enumerate() {
        let id = 10 + i as i64;
        let request = asked(&mut session, id, "deleteRepo", httptool::json!({"id": "x"}));
        reply(&session, &request, result);
        let answer = session.answer(&Json::from(id));
        assert!(is_error(&answer), "{}", answer);
        assert!(text(&answer).contains(says), "{}", answer);
        assert!(
            text(&answer).contains("the user did not approve"),
            "{}",
            answer
        );
    }
    // An error from the client is no approval either.
    let request = asked(&mut session, 20, "deleteRepo", httptool::json!({"id": "x"}));
    let error = httptool::json!({"jsonrpc": "2.0", "id": request["id"].clone(),
                             "error": {"code": -32601, "message": "no elicitation here"}});
    session.send(&error.to_string());
    let answer = session.answer(&Json::from(20));
    assert!(
        is_error(&answer) && text(&answer).contains("answered the approval question with an error"),
        "{}",
        answer
    );
    // A call the policy does not name is not asked about.
    let answer = session.call(Json::from(30), "getRepo", httptool::json!({"id": "x"}));
    assert!(!is_error(&answer), "{}", answer);
    assert_eq!(api.requests().len(), 2);
    session.ping("alive");
}

#[test]
fn no_answer_in_time_is_no_approval() {
    let api = Api::json("{}");
    let server = Server::new().elicitation_timeout(Duration::from_millis(200));
    let mut session = session(
        server,
        &api,
        "2025-11-25",
        httptool::json!({"elicitation": {}}),
    );
    let request = asked(&mut session, 1, "deleteRepo", httptool::json!({"id": "x"}));
    // 2025-11-25 with an empty elicitation capability: form mode.
    assert_eq!(request["params"]["mode"], Json::from("form"));
    let answer = session.answer(&Json::from(1));
    assert!(is_error(&answer), "{}", answer);
    assert!(
        text(&answer).contains("no answer came within"),
        "{}",
        answer
    );
    // The answer that comes late is dropped.
    reply(
        &session,
        &request,
        httptool::json!({"action": "accept", "content": {"approve": true}}),
    );
    session.ping("alive");
    assert!(api.requests().is_empty());
}

#[test]
fn a_client_that_cannot_ask_is_refused_and_nothing_is_sent() {
    let api = Api::json("{}");
    for capabilities in [
        httptool::json!({}),
        httptool::json!({"elicitation": {"url": {}}}),
    ] {
        let mut session = session(Server::new(), &api, "2025-11-25", capabilities);
        let answer = session.call(Json::from(1), "deleteRepo", httptool::json!({"id": "x"}));
        assert!(is_error(&answer), "{}", answer);
        assert!(
            text(&answer).contains("needs the user's approval, and this MCP client cannot ask"),
            "{}",
            answer
        );
    }
    // Revision 2026-07-28 without the capability in _meta: the same.
    let mut session = Session::start(Server::new(), registry(&api.base()));
    let answer = session.request(
        Json::from(1),
        "tools/call",
        modern_call(
            "deleteRepo",
            httptool::json!({"id": "x"}),
            httptool::json!({}),
            None,
        ),
    );
    assert!(is_error(&answer), "{}", answer);
    assert!(text(&answer).contains("cannot ask"), "{}", answer);
    assert!(api.requests().is_empty());
}

#[test]
fn serve_confirm_adds_to_the_plugins_policy() {
    let api = Api::json("{}");
    let server = Server::new().context(CallContext::new().with_confirm(Confirm::Always));
    let mut session = session(server, &api, "2025-11-25", httptool::json!({}));
    let answer = session.call(Json::from(1), "getRepo", httptool::json!({"id": "x"}));
    assert!(
        is_error(&answer) && text(&answer).contains("cannot ask"),
        "{}",
        answer
    );
    assert!(api.requests().is_empty());
}

fn modern_call(
    tool: &str,
    arguments: Json,
    capabilities: Json,
    retry: Option<(Json, Json)>,
) -> Json {
    let mut params = httptool::json!({
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        }
    });
    if let (Some((state, responses)), Json::Object(map)) = (retry, &mut params) {
        map.insert("requestState", state);
        map.insert("inputResponses", responses);
    }
    params
}

fn accept() -> Json {
    httptool::json!({"approval": {"action": "accept", "content": {"approve": true}}})
}

/// The first call's `InputRequiredResult`.
fn input_required(server: &httptool::mcp::Stateless, tool: &str, arguments: Json) -> Json {
    let message = httptool::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": modern_call(tool, arguments, httptool::json!({"elicitation": {"form": {}}}), None)});
    let reply = server.answer(message, "2025-11-25");
    let answer = json::parse(reply.text().unwrap()).unwrap();
    let result = &answer["result"];
    assert_eq!(
        result["resultType"],
        Json::from("input_required"),
        "{}",
        answer
    );
    result.clone()
}

fn retry(
    server: &httptool::mcp::Stateless,
    tool: &str,
    arguments: Json,
    state: &Json,
    responses: Json,
) -> Json {
    let message = httptool::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": modern_call(tool, arguments, httptool::json!({"elicitation": {"form": {}}}),
                              Some((state.clone(), responses)))});
    json::parse(server.answer(message, "2025-11-25").text().unwrap()).unwrap()
}

fn stateless(api: &Api, key: &[u8]) -> httptool::mcp::Stateless {
    Server::new()
        .approval_key(key.to_vec())
        .stateless(Arc::new(registry(&api.base())))
}

#[test]
fn a_round_trip_asks_first_and_sends_on_the_approved_retry() {
    let api = Api::json(r#"{"deleted":true}"#);
    let one = stateless(&api, b"the key every replica shares!!");
    let result = input_required(&one, "deleteRepo", httptool::json!({"id": "a/b"}));
    let question = &result["inputRequests"]["approval"];
    assert_eq!(question["method"], Json::from("elicitation/create"));
    assert_eq!(question["params"]["mode"], Json::from("form"));
    assert!(question["params"]["message"]
        .as_str()
        .unwrap()
        .contains("/repos/a%2Fb"));
    assert!(result["_meta"]["io.modelcontextprotocol/serverInfo"].is_object());
    let state = result["requestState"].clone();
    assert!(api.requests().is_empty());

    // Another replica with the same key takes the retry.
    let two = stateless(&api, b"the key every replica shares!!");
    let answer = retry(
        &two,
        "deleteRepo",
        httptool::json!({"id": "a/b"}),
        &state,
        accept(),
    );
    assert!(!is_error(&answer), "{}", answer);
    assert_eq!(answer["result"]["resultType"], Json::from("complete"));
    assert_eq!(api.requests().len(), 1);

    // Replayed on the replica that used it: refused.
    let answer = retry(
        &two,
        "deleteRepo",
        httptool::json!({"id": "a/b"}),
        &state,
        accept(),
    );
    assert!(
        is_error(&answer) && text(&answer).contains("already used"),
        "{}",
        answer
    );

    // Declined or cancelled in the retry: not sent.
    for (action, says) in [("decline", "declined"), ("cancel", "dismissed")] {
        let state = input_required(&one, "deleteRepo", httptool::json!({"id": "c"}))
            ["requestState"]
            .clone();
        let responses = httptool::json!({"approval": {"action": action}});
        let answer = retry(
            &one,
            "deleteRepo",
            httptool::json!({"id": "c"}),
            &state,
            responses,
        );
        assert!(
            is_error(&answer) && text(&answer).contains(says),
            "{}",
            answer
        );
    }
    assert_eq!(api.requests().len(), 1);
}

#[test]
fn a_hostile_retry_gets_no_write_through() {
    let api = Api::json("{}");
    let server = stateless(&api, b"0123456789abcdef0123");
    let state = input_required(&server, "deleteRepo", httptool::json!({"id": "harmless"}))
        ["requestState"]
        .clone();

    // The arguments changed between the question and the retry.
    let answer = retry(
        &server,
        "deleteRepo",
        httptool::json!({"id": "production"}),
        &state,
        accept(),
    );
    assert!(
        is_error(&answer) && text(&answer).contains("does not match this call"),
        "{}",
        answer
    );
    // Another tool with the same state.
    let answer = retry(
        &server,
        "getRepo",
        httptool::json!({"id": "harmless"}),
        &state,
        accept(),
    );
    assert!(
        is_error(&answer) && text(&answer).contains("does not match"),
        "{}",
        answer
    );
    // A forged state: the tag changed, or made with another key.
    let forged = state.as_str().unwrap().replacen("a1.", "a1.9", 1);
    let answer = retry(
        &server,
        "deleteRepo",
        httptool::json!({"id": "harmless"}),
        &Json::from(forged),
        accept(),
    );
    assert!(
        is_error(&answer) && text(&answer).contains("does not match"),
        "{}",
        answer
    );
    let elsewhere = stateless(&api, b"some other key entirely");
    let answer = retry(
        &elsewhere,
        "deleteRepo",
        httptool::json!({"id": "harmless"}),
        &state,
        accept(),
    );
    assert!(
        is_error(&answer) && text(&answer).contains("does not match"),
        "{}",
        answer
    );
    // A state that is not a string is a protocol error.
    let message = httptool::json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": modern_call("deleteRepo", httptool::json!({"id": "x"}), httptool::json!({}), Some((Json::from(1), accept())))});
    let reply = server.answer(message, "2025-11-25");
    assert_eq!(reply.error_code(), Some(-32602));
    assert!(api.requests().is_empty());
}

#[test]
fn an_expired_state_approves_nothing() {
    let api = Api::json("{}");
    let server = Server::new()
        .approval_ttl(Duration::from_secs(1))
        .stateless(Arc::new(registry(&api.base())));
    let state =
        input_required(&server, "deleteRepo", httptool::json!({"id": "x"}))["requestState"].clone();
    std::thread::sleep(Duration::from_millis(2100));
    let answer = retry(
        &server,
        "deleteRepo",
        httptool::json!({"id": "x"}),
        &state,
        accept(),
    );
    assert!(
        is_error(&answer) && text(&answer).contains("expired"),
        "{}",
        answer
    );
    assert!(api.requests().is_empty());
}

#[test]
fn a_round_trip_on_stdio_too() {
    let api = Api::json("{}");
    let mut session = Session::start(Server::new(), registry(&api.base()));
    let capabilities = httptool::json!({"elicitation": {"form": {}}});
    let first = session.request(
        Json::from(1),
        "tools/call",
        modern_call(
            "deleteRepo",
            httptool::json!({"id": "x"}),
            capabilities.clone(),
            None,
        ),
    );
    assert_eq!(
        first["result"]["resultType"],
        Json::from("input_required"),
        "{}",
        first
    );
    let state = first["result"]["requestState"].clone();
    let answer = session.request(
        Json::from(2),
        "tools/call",
        modern_call(
            "deleteRepo",
            httptool::json!({"id": "x"}),
            capabilities,
            Some((state, accept())),
        ),
    );
    assert!(!is_error(&answer), "{}", answer);
    assert_eq!(api.requests().len(), 1);
}

#[test]
fn over_http_before_2026_nothing_can_ask() {
    let api = Api::json("{}");
    let server = stateless(&api, b"0123456789abcdef0123");
    let message = httptool::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "deleteRepo", "arguments": {"id": "x"}}});
    let answer = json::parse(server.answer(message, "2025-11-25").text().unwrap()).unwrap();
    assert!(
        is_error(&answer) && text(&answer).contains("cannot ask"),
        "{}",
        answer
    );
    assert!(api.requests().is_empty());
}

/// Posts a 2025-11-25 `tools/call` on a raw socket (the answer is read as it streams).
fn post_call(addr: std::net::SocketAddr, body: &str) -> std::net::TcpStream {
    use std::io::Write;
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\n\r\n{}",
        addr,
        body.len(),
        body
    );
    stream.write_all(request.as_bytes()).unwrap();
    stream
}

/// Reads until `marker` has arrived; returns everything read so far.
fn read_until(stream: &mut std::net::TcpStream, seen: &mut String, marker: &str) {
    use std::io::Read;
    let mut buf = [0u8; 4096];
    while !seen.contains(marker) {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "the stream ended before {:?}: {}", marker, seen);
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
}

#[test]
fn over_http_the_call_streams_its_question_and_the_answer_comes_by_post() {
    use httptool::http::{Client, HttpServer, Request, ServerConfig, Transport};
    use httptool::mcp::HttpTransport;

    let api = Api::json(r#"{"deleted":true}"#);
    let stateless = Server::new().stateless(Arc::new(registry(&api.base())));
    let server = HttpServer::bind("127.0.0.1:0", ServerConfig::new()).unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || HttpTransport::new(stateless).serve(&server));

    for (answer, sent) in [
        (
            httptool::json!({"action": "accept", "content": {"approve": true}}),
            1,
        ),
        (httptool::json!({"action": "decline"}), 0),
    ] {
        let before = api.requests().len();
        let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"deleteRepo","arguments":{"id":"a"}}}"#;
        let mut stream = post_call(addr, call);
        let mut seen = String::new();
        read_until(&mut stream, &mut seen, "\n\n\r\n");
        assert!(seen.starts_with("HTTP/1.1 200"), "{}", seen);
        assert!(
            seen.contains("Content-Type: text/event-stream\r\n"),
            "{}",
            seen
        );
        assert!(seen.contains("Transfer-Encoding: chunked\r\n"), "{}", seen);
        let data = seen
            .split("data: ")
            .nth(1)
            .unwrap()
            .split('\n')
            .next()
            .unwrap();
        let question = json::parse(data).unwrap();
        assert_eq!(
            question["method"],
            Json::from("elicitation/create"),
            "{}",
            seen
        );
        assert_eq!(
            api.requests().len(),
            before,
            "nothing is sent while the user thinks"
        );

        let reply =
            httptool::json!({"jsonrpc": "2.0", "id": question["id"].clone(), "result": answer});
        let posted = Client::new()
            .send(
                &Request::post(&format!("http://{}/mcp", addr))
                    .unwrap()
                    .with_header("Content-Type", "application/json")
                    .unwrap()
                    .with_header("MCP-Protocol-Version", "2025-11-25")
                    .unwrap()
                    .with_body(reply.to_string().into_bytes()),
            )
            .unwrap();
        assert_eq!(posted.status(), 202);
        read_until(&mut stream, &mut seen, "\r\n0\r\n\r\n");
        let last = seen
            .rsplit("data: ")
            .next()
            .unwrap()
            .split('\n')
            .next()
            .unwrap();
        let result = json::parse(last).unwrap();
        assert_eq!(result["id"], Json::from(7));
        assert_eq!(is_error(&result), sent == 0, "{}", result);
        assert_eq!(api.requests().len(), before + sent);
    }

    // A client that takes no event stream cannot be asked over HTTP.
    let refused = Client::new()
        .send(
            &Request::post(&format!("http://{}/mcp", addr))
                .unwrap()
                .with_header("Content-Type", "application/json")
                .unwrap()
                .with_header("Accept", "application/json")
                .unwrap()
                .with_header("MCP-Protocol-Version", "2025-11-25")
                .unwrap()
                .with_body(br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"deleteRepo","arguments":{"id":"a"}}}"#.to_vec()),
        )
        .unwrap();
    let answer = json::parse_bytes(refused.body()).unwrap();
    assert!(
        is_error(&answer) && text(&answer).contains("cannot ask"),
        "{}",
        answer
    );
}
