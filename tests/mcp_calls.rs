//! `tools/call` through the server against a loopback API: results, errors, progress,
//! cancellation, concurrency and shutdown.

use std::sync::mpsc;
use std::sync::Mutex;
use std::time::Duration;

use httptool::json;
use httptool::json::Json;
use httptool::mcp::Server;
use httptool::plugin::HttpPlugin;
use httptool::tool::ToolRegistry;

use crate::support::mcp::{code, Gate, Session};
use crate::support::Server as Api;

/// A loopback API: `/slow` waits at `gate`; `/weather` answers JSON for the `q` it got;
/// `/list` a JSON array; `/missing` 404; `/image` PNG bytes.
fn api(gate: Gate) -> Api {
    Api::responding(move |request| {
        let path = request.target.split('?').next().unwrap_or("").to_string();
        let json = String::from("Content-Type: application/json\r\n");
        match path.as_str() {
            "/slow" => {
                gate.wait();
                (String::from("200 OK"), json, br#"{"slow":true}"#.to_vec())
            }
            "/weather" => {
                let city = request.target.split("q=").nth(1).unwrap_or("").to_string();
                let body = format!(r#"{{"city":"{}","temp":21}}"#, city);
                (String::from("200 OK"), json, body.into_bytes())
            }
            "/list" => (String::from("200 OK"), json, b"[1,2,3]".to_vec()),
            "/text" => (
                String::from("200 OK"),
                String::from("Content-Type: text/plain\r\n"),
                b"OK".to_vec(),
            ),
            "/missing" => (
                String::from("404 Not Found"),
                json,
                br#"{"error":"no such city"}"#.to_vec(),
            ),
            "/image" => (
                String::from("200 OK"),
                String::from("Content-Type: image/png\r\n"),
                vec![0x89, b'P', b'N', b'G', 0, 1, 2, 3],
            ),
            _ => (String::from("500 Oops"), String::new(), Vec::new()),
        }
    })
}

fn registry(api: &Api) -> ToolRegistry {
    let plugin = HttpPlugin::from_json(&format!(
        r#"{{"name": "w", "base_url": "{}", "endpoints": [
            {{"name": "weather", "path": "/weather",
              "output_schema": {{"type": "object", "properties": {{"city": {{"type": "string"}}}}}},
              "params": [{{"name": "city", "wire_name": "q", "in": "query", "required": true}},
                         {{"name": "days", "in": "query", "type": "integer"}}]}},
            {{"name": "slow", "path": "/slow"}},
            {{"name": "promised", "path": "/text",
              "output_schema": {{"type": "object", "properties": {{"ok": {{"type": "boolean"}}}}}}}},
            {{"name": "list", "path": "/list"}},
            {{"name": "missing", "path": "/missing"}},
            {{"name": "image", "path": "/image"}}]}}"#,
        api.base()
    ))
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    registry
}

fn start(server: Server) -> (Session, Gate, Api) {
    let gate = Gate::new();
    let api = api(gate.clone());
    let session = Session::ready(server, registry(&api));
    (session, gate, api)
}

#[test]
fn a_json_object_result_is_structured_content_and_text() {
    let (mut session, gate, _api) = start(Server::new());
    let answer = session.call(Json::from(1), "weather", json!({"city": "Paris"}));
    assert_eq!(
        answer["result"],
        json!({
            "content": [{"type": "text", "text": "{\"city\":\"Paris\",\"temp\":21}"}],
            "structuredContent": {"city": "Paris", "temp": 21},
            "isError": false
        })
    );
    gate.open();
}

#[test]
fn a_text_answer_from_a_tool_with_an_output_schema_is_an_error_result_keeping_the_text() {
    // MCP clients refuse a success without structuredContent from a tool that declares an
    // outputSchema (they skip the check on errors), so the broken promise is an error.
    let (mut session, gate, _api) = start(Server::new());
    let answer = session.call(Json::from(1), "promised", json!({}));
    assert_eq!(
        answer["result"],
        json!({
            "content": [{"type": "text", "text": "OK"},
                        {"type": "text", "text": httptool::tool::mcp::UNSTRUCTURED_NOTE}],
            "isError": true
        })
    );
    gate.open();
}

#[test]
fn a_json_array_result_is_wrapped() {
    let (mut session, gate, _api) = start(Server::new());
    let answer = session.call(Json::from("a"), "list", json!({}));
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({"result": [1, 2, 3]})
    );
    assert_eq!(
        answer["result"]["content"][0]["text"],
        Json::from("[1,2,3]")
    );
    gate.open();
}

#[test]
fn an_http_error_is_an_error_result_with_the_body() {
    let (mut session, gate, _api) = start(Server::new());
    let answer = session.call(Json::from(1), "missing", json!({}));
    assert_eq!(
        answer["result"],
        json!({
            "content": [{"type": "text",
                "text": "the API answered 404 Not Found: {\"error\":\"no such city\"}"}],
            "isError": true
        })
    );
    gate.open();
}

#[test]
fn an_image_body_is_image_content_beside_its_summary() {
    let (mut session, gate, _api) = start(Server::new());
    let answer = session.call(Json::from(1), "image", json!({}));
    assert_eq!(
        answer["result"],
        json!({
            "content": [{"type": "text",
                "text": "binary response (image/png, 8 bytes, SHA-256 a2f1fd24269194c781385faedf255eead2ddc66f0a8200d04bdaa040d42e2a22)"},
                {"type": "image", "data": "iVBORwABAgM=", "mimeType": "image/png"}],
            "isError": false
        })
    );
    gate.open();
}

#[test]
fn argument_errors_are_error_results_the_model_can_correct() {
    let (mut session, gate, api) = start(Server::new());
    let cases = [
        (
            json!({"ctiy": "Paris"}),
            "unknown parameter 'ctiy'; did you mean 'city'? accepted: city, days",
        ),
        (json!({}), "missing required parameter 'city' (a string)"),
        (
            json!({"city": "Paris", "days": "many"}),
            "parameter 'days' must be an integer; got \"many\"",
        ),
    ];
    for (i, (arguments, expected)) in cases.iter().enumerate() {
        let answer = session.call(Json::from(i as i64), "weather", arguments.clone());
        assert_eq!(answer["result"]["isError"], Json::from(true), "{}", answer);
        let text = answer["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with(expected), "{}", text);
    }
    // Nothing was sent for any of them.
    assert!(api.requests().is_empty());
    gate.open();
}

#[test]
fn an_unknown_tool_and_bad_params_are_protocol_errors() {
    let (mut session, gate, _api) = start(Server::new());
    let answer = session.call(Json::from(1), "wether", json!({}));
    assert_eq!(code(&answer), -32602);
    assert_eq!(
        answer["error"]["message"],
        Json::from("invalid params: unknown tool 'wether'; did you mean 'weather'? accepted: weather, slow, promised, list, missing, image")
    );
    let answer = session.request(
        Json::from(2),
        "tools/call",
        json!({"name": "weather", "arguments": [1]}),
    );
    assert_eq!(code(&answer), -32602);
    assert_eq!(
        answer["error"]["message"],
        Json::from(
            "invalid params: mcp tools/call params: expected an object at /arguments, got array"
        )
    );
    let answer = session.request(Json::from(3), "tools/call", json!({"arguments": {}}));
    assert_eq!(code(&answer), -32602);
    let answer = session.request(Json::from(4), "tools/call", json!([1]));
    assert_eq!(
        answer["error"]["message"],
        Json::from("invalid params: tools/call takes an object, got array")
    );
    let answer = session.request(
        Json::from(5),
        "tools/call",
        json!({"name": "list", "_meta": {"progressToken": 1.5}}),
    );
    assert_eq!(
        answer["error"]["message"],
        Json::from(
            "invalid params: _meta.progressToken must be a string or an integer, got number"
        )
    );
    session.ping("still");
    gate.open();
}

#[test]
fn progress_is_reported_when_the_request_goes_and_when_the_answer_comes() {
    let (mut session, gate, _api) = start(Server::new());
    session.send_request(
        Json::from(1),
        "tools/call",
        json!({"name": "list", "arguments": {}, "_meta": {"progressToken": "tok-1"}}),
    );
    let first = session.next();
    let second = session.next();
    let answer = session.next();
    assert_eq!(
        first,
        json!({"jsonrpc": "2.0", "method": "notifications/progress",
               "params": {"progressToken": "tok-1", "progress": 1, "total": 2,
                          "message": "sending the GET request"}})
    );
    assert_eq!(
        second["params"],
        json!({"progressToken": "tok-1", "progress": 2, "total": 2,
               "message": "the response arrived (HTTP 200)"})
    );
    assert_eq!(answer["id"], Json::from(1));
    assert_eq!(answer["result"]["isError"], Json::from(false));
    gate.open();
}

#[test]
fn progress_is_reported_when_the_response_head_arrives_before_the_body() {
    // The API writes the head, then holds the body until the test has seen the progress.
    let (release, held) = mpsc::channel::<()>();
    let held = Mutex::new(held);
    let api = Api::start(move |mut peer| {
        if peer.read_request().is_none() {
            return;
        }
        let body = br#"{"late":true}"#;
        peer.send(&format!(
            "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        ));
        let _ = held.lock().unwrap().recv();
        peer.write(body);
    });
    let mut session = Session::ready(Server::new(), registry(&api));
    session.send_request(
        Json::from(1),
        "tools/call",
        json!({"name": "list", "_meta": {"progressToken": "head"}}),
    );
    assert_eq!(session.next()["params"]["progress"], Json::from(1));
    // The body has not been written yet: this can only come from the head.
    assert_eq!(
        session.next()["params"],
        json!({"progressToken": "head", "progress": 2, "total": 2,
               "message": "the response arrived (HTTP 201)"})
    );
    release.send(()).unwrap();
    let answer = session.answer(&Json::from(1));
    assert_eq!(answer["result"]["structuredContent"], json!({"late": true}));
    let (result, rest) = session.close();
    assert!(result.is_ok());
    assert!(
        rest.is_empty(),
        "no second report after the body: {:?}",
        rest
    );
}

#[test]
fn progress_for_2024_11_05_clients_has_no_message() {
    let gate = Gate::new();
    let api = api(gate.clone());
    let mut session = Session::start(Server::new(), registry(&api));
    session.initialize("2024-11-05");
    session.send_request(
        Json::from(1),
        "tools/call",
        json!({"name": "list", "_meta": {"progressToken": 7}}),
    );
    assert_eq!(
        session.next()["params"],
        json!({"progressToken": 7, "progress": 1, "total": 2})
    );
    gate.open();
}

#[test]
fn a_cancelled_call_gets_no_answer() {
    // One worker: the call after the cancelled one runs on the same thread once it is done,
    // so an answer to the cancelled call would come before the second call's.
    let (mut session, gate, api) = start(Server::new().max_concurrency(1));
    session.send_request(Json::from(1), "tools/call", json!({"name": "slow"}));
    gate.until_waiting(1);
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}"#);
    session.ping("while-held");
    gate.open();
    let answer = session.call(Json::from(2), "list", json!({}));
    assert_eq!(answer["result"]["isError"], Json::from(false));
    assert_eq!(
        session.stashed(),
        0,
        "an answer to the cancelled call arrived"
    );
    assert_eq!(api.requests().len(), 2);
    let (result, rest) = session.close();
    assert!(result.is_ok());
    assert!(rest.is_empty(), "{:?}", rest);
}

#[test]
fn a_call_cancelled_before_a_worker_takes_it_never_runs() {
    let (mut session, gate, api) = start(Server::new().max_concurrency(1));
    session.send_request(Json::from(1), "tools/call", json!({"name": "slow"}));
    gate.until_waiting(1);
    session.send_request(Json::from(2), "tools/call", json!({"name": "list"}));
    session
        .send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#);
    session.ping("p");
    gate.open();
    let answer = session.answer(&Json::from(1));
    assert_eq!(answer["result"]["structuredContent"], json!({"slow": true}));
    let (result, rest) = session.close();
    assert!(result.is_ok());
    assert!(rest.is_empty(), "{:?}", rest);
    assert_eq!(api.requests().len(), 1, "the cancelled call was sent");
}

#[test]
fn fifty_fast_calls_answer_while_a_slow_one_waits() {
    let (mut session, gate, _api) = start(Server::new());
    session.send_request(Json::from("slow"), "tools/call", json!({"name": "slow"}));
    gate.until_waiting(1);
    for i in 0..50 {
        session.send_request(
            Json::from(i),
            "tools/call",
            json!({"name": "weather", "arguments": {"city": format!("c{}", i)}}),
        );
        if i % 10 == 0 {
            session.send_request(Json::from(format!("ping{}", i)), "ping", Json::Null);
        }
    }
    // Every fast answer arrives while the slow call is still held at the gate.
    let mut seen = Vec::new();
    while seen.len() < 55 {
        let message = session.next();
        assert_ne!(
            message["id"],
            Json::from("slow"),
            "the slow call answered first"
        );
        seen.push(message["id"].clone());
        if let Some(i) = message["id"].as_i64() {
            assert_eq!(
                message["result"]["structuredContent"]["city"],
                Json::from(format!("c{}", i))
            );
        }
    }
    for i in 0..50 {
        assert!(seen.contains(&Json::from(i)), "no answer for {}", i);
    }
    gate.open();
    let slow = session.answer(&Json::from("slow"));
    assert_eq!(slow["result"]["structuredContent"], json!({"slow": true}));
}

#[test]
fn a_duplicate_id_in_flight_is_refused_and_the_first_call_still_answers() {
    let (mut session, gate, _api) = start(Server::new());
    session.send_request(Json::from(7), "tools/call", json!({"name": "slow"}));
    gate.until_waiting(1);
    let duplicate = session.call(Json::from(7), "list", json!({}));
    assert_eq!(code(&duplicate), -32600);
    assert_eq!(
        duplicate["error"]["message"],
        Json::from("invalid request: a call with this id is still in flight; ids must be unique")
    );
    // A string id "7" is another id.
    let other = session.call(Json::from("7"), "list", json!({}));
    assert_eq!(other["result"]["isError"], Json::from(false));
    gate.open();
    let first = session.answer(&Json::from(7));
    assert_eq!(first["result"]["structuredContent"], json!({"slow": true}));
    // Once answered, the id may be used again.
    let again = session.call(Json::from(7), "list", json!({}));
    assert_eq!(again["result"]["isError"], Json::from(false));
}

#[test]
fn too_many_calls_in_flight_are_refused() {
    let (mut session, gate, _api) = start(Server::new().max_calls_in_flight(1));
    session.send_request(Json::from(1), "tools/call", json!({"name": "slow"}));
    gate.until_waiting(1);
    let busy = session.call(Json::from(2), "list", json!({}));
    assert_eq!(code(&busy), -32000);
    assert_eq!(
        busy["error"]["message"],
        Json::from(
            "server busy: 1 calls are in flight, the most this server takes; wait for answers"
        )
    );
    gate.open();
    session.answer(&Json::from(1));
}

#[test]
fn the_end_of_input_waits_for_calls_in_flight() {
    let (session, gate, _api) = start(Server::new());
    session.send_request(Json::from(1), "tools/call", json!({"name": "slow"}));
    gate.until_waiting(1);
    let opener = {
        let gate = gate.clone();
        std::thread::spawn(move || gate.open())
    };
    let (result, rest) = session.close();
    opener.join().unwrap();
    assert!(result.is_ok());
    assert_eq!(rest.len(), 1, "{:?}", rest);
    assert_eq!(
        rest[0]["result"]["structuredContent"],
        json!({"slow": true})
    );
}

#[test]
fn the_shutdown_deadline_ends_the_wait() {
    let (session, gate, _api) = start(Server::new().shutdown_deadline(Duration::from_millis(50)));
    session.send_request(Json::from(1), "tools/call", json!({"name": "slow"}));
    gate.until_waiting(1);
    // The gate stays shut: the server returns at the deadline, without an answer.
    let (result, rest) = session.close();
    assert!(result.is_ok());
    assert!(rest.is_empty(), "{:?}", rest);
    gate.open();
}

#[test]
fn the_context_reaches_every_call() {
    let gate = Gate::new();
    let api = api(gate.clone());
    let plugin = HttpPlugin::from_json(&format!(
        r#"{{"name": "w", "base_url": "{}", "endpoints": [{{"name": "weather", "path": "/weather",
            "params": [{{"name": "city", "wire_name": "q", "in": "query", "hidden": true, "context": "home"}}]}}]}}"#,
        api.base()
    ))
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let context = httptool::tool::CallContext::new().with("home", "Oslo");
    let mut session = Session::ready(Server::new().context(context), registry);
    let answer = session.call(Json::from(1), "weather", json!({}));
    assert_eq!(api.requests()[0].target, "/weather?q=Oslo");
    // A hidden value from the context is a secret: echoed back, it is `***` to the model.
    assert_eq!(
        answer["result"]["structuredContent"]["city"],
        Json::from("***")
    );
    gate.open();
}
