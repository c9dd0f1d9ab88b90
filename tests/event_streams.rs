//! `text/event-stream` answers read as server-sent events within a count, byte and time
//! budget, against loopback servers that stream OpenAI-style chunks, never stop, or send
//! 100 MB: every budget ends the read with what it had and a note that says so.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use httptool::json;
use httptool::json::Json;
use httptool::mcp::Server;
use httptool::plugin::HttpPlugin;
use httptool::tool::{ToolCall, ToolOutput, ToolRegistry};

use crate::support::mcp::Session;
use crate::support::server::Peer;
use crate::support::Server as Api;

const SSE_HEAD: &str =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n";

/// Writes `data` as one chunk of a chunked body.
fn chunk(peer: &mut Peer, data: &[u8]) -> bool {
    let mut out = format!("{:x}\r\n", data.len()).into_bytes();
    out.extend_from_slice(data);
    out.extend_from_slice(b"\r\n");
    peer.stream.write_all(&out).is_ok()
}

/// OpenAI-style: three `chat.completion.chunk` events, a comment, then `[DONE]`, chunked,
/// lines ending in CRLF in one event and LF in the others.
fn openai(peer: &mut Peer) {
    peer.send(&format!("{}Transfer-Encoding: chunked\r\n\r\n", SSE_HEAD));
    for (i, word) in ["Hel", "lo", "!"].iter().enumerate() {
        let event = format!(
            "data: {{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"{}\"}}}}]}}{}",
            word,
            if i == 1 { "\r\n\r\n" } else { "\n\n" }
        );
        chunk(peer, event.as_bytes());
    }
    chunk(peer, b": keep-alive\n\n");
    chunk(peer, b"data: [DONE]\n\n");
    chunk(peer, b"");
}

fn api(written: Arc<AtomicUsize>) -> Api {
    Api::start(move |mut peer| {
        let request = match peer.read_request() {
            Some(r) => r,
            None => return,
        };
        let path = request.target.split('?').next().unwrap_or("").to_string();
        match path.as_str() {
            "/openai" => openai(&mut peer),
            "/forever" => {
                // An event every 5 ms, never an end.
                peer.send(&format!("{}Transfer-Encoding: chunked\r\n\r\n", SSE_HEAD));
                let mut n = 0;
                while chunk(
                    &mut peer,
                    format!("event: tick\nid: {n}\ndata: {n}\n\n").as_bytes(),
                ) {
                    n += 1;
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            "/silent" => {
                // The head, one event, then nothing, the connection held open.
                peer.send(&format!("{}\r\ndata: first\n\n", SSE_HEAD));
                peer.wait_for_close();
            }
            "/huge" => {
                // 100 MB of events until the client stops reading, ended by closing.
                peer.send(&format!("{}Connection: close\r\n\r\n", SSE_HEAD));
                let event = format!("data: {}\n\n", "x".repeat(1000));
                for _ in 0..100_000 {
                    if peer.stream.write_all(event.as_bytes()).is_err() {
                        return;
                    }
                    written.fetch_add(event.len(), Ordering::SeqCst);
                }
            }
            "/count" => {
                let n: usize = request
                    .target
                    .split("n=")
                    .nth(1)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                let body: String = (0..n).map(|i| format!("data: {}\n\n", i)).collect();
                peer.respond(
                    "200 OK",
                    "Content-Type: text/event-stream\r\n",
                    body.as_bytes(),
                );
            }
            "/broken" => {
                peer.send(&format!(
                    "{}Content-Length: 1000\r\n\r\ndata: one\n\ndata: tw",
                    SSE_HEAD
                ));
            }
            "/echo" => {
                let key = request.header("x-api-key").unwrap_or_default();
                let body = format!("data: {{\"echo\":\"{}\"}}\n\n", key);
                peer.respond(
                    "200 OK",
                    "Content-Type: text/event-stream\r\n",
                    body.as_bytes(),
                );
            }
            _ => peer.respond("404 Not Found", "", b""),
        }
    })
}

fn plugin(api: &Api, options: &str) -> HttpPlugin {
    HttpPlugin::from_json(&format!(
        r#"{{"name": "s", "base_url": "{}", {}
            "auth": {{"type": "header", "name": "X-Api-Key", "value": "k-0123456789"}},
            "endpoints": [
            {{"name": "openai", "method": "POST", "path": "/openai"}},
            {{"name": "forever", "path": "/forever"}},
            {{"name": "silent", "path": "/silent"}},
            {{"name": "huge", "path": "/huge"}},
            {{"name": "count", "path": "/count", "params": [{{"name": "n", "in": "query", "type": "integer"}}]}},
            {{"name": "broken", "path": "/broken"}},
            {{"name": "echo", "path": "/echo"}}]}}"#,
        api.base(),
        options
    ))
    .unwrap()
}

fn registry(plugin: &HttpPlugin) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    registry
}

fn call(plugin: &HttpPlugin, tool: &str, arguments: &str) -> ToolOutput {
    registry(plugin).call(&ToolCall::new("c1", tool, arguments))
}

/// The text before the note, parsed.
fn events(out: &ToolOutput) -> Vec<Json> {
    let array = out.text().split("\n[").next().unwrap();
    json::parse(array).unwrap().as_array().unwrap().clone()
}

#[test]
fn openai_chunks_are_events_until_done() {
    let api = api(Arc::default());
    let out = call(&plugin(&api, ""), "openai", "{}");
    assert!(!out.is_error(), "{}", out.text());
    let events = events(&out);
    assert_eq!(events.len(), 3, "{}", out.text());
    let words: Vec<&str> = events
        .iter()
        .map(|e| {
            e["data"]["choices"][0]["delta"]["content"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(words.concat(), "Hello!");
    // Read to its end: no note, and the whole array is the structured value.
    assert!(!out.text().contains("\n["), "{}", out.text());
    assert_eq!(out.structured(), Some(&Json::Array(events)));
}

#[test]
fn a_stream_that_never_ends_stops_at_the_time_budget_and_says_so() {
    let api = api(Arc::default());
    let started = Instant::now();
    let out = call(
        &plugin(&api, r#""timeout_stream_ms": 300,"#),
        "forever",
        "{}",
    );
    // A guard against a read that never stops, not a timing assertion.
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(!out.is_error(), "{}", out.text());
    let events = events(&out);
    assert!(!events.is_empty());
    assert_eq!(events[0], json!({"event": "tick", "id": "0", "data": 0}));
    assert!(
        out.text().ends_with(
            "[the stream was closed when its time ran out (300 ms, timeout_stream_ms, or the call's deadline); more events may have followed]"
        ),
        "{}",
        out.text()
    );
}

#[test]
fn a_silent_stream_stops_at_the_time_budget_with_what_it_had() {
    let api = api(Arc::default());
    let out = call(
        &plugin(&api, r#""timeout_stream_ms": 200,"#),
        "silent",
        "{}",
    );
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(events(&out), vec![json!({"data": "first"})]);
    assert!(out.text().contains("time ran out"), "{}", out.text());
}

#[test]
fn a_stream_of_100_mb_stops_at_the_byte_budget() {
    let written = Arc::new(AtomicUsize::new(0));
    let api = api(written.clone());
    let started = Instant::now();
    let out = call(
        &plugin(&api, r#""max_stream_events": 100000,"#),
        "huge",
        "{}",
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(!out.is_error(), "{}", out.text());
    // 1 MiB read: 1,040 events of 1,008 bytes whole, the one cut left out; the structured
    // value holds them all, the text what its cap lets through.
    let all = out.structured().unwrap().as_array().unwrap();
    assert_eq!(all.len(), 1024 * 1024 / 1008);
    assert!(events(&out).len() < all.len());
    assert!(
        out.text().ends_with(
            "[the stream was closed after 1048576 bytes (max_stream_bytes); the event being read then is left out, and more may have followed]"
        ),
        "{}",
        out.text()
    );
    // The text the model reads is capped as any other.
    assert!(out.text().len() <= httptool::tool::DEFAULT_MAX_OUTPUT_BYTES);
    assert!(out.is_truncated());
    // The client closed the connection: the server could write little of its 100 MB (what
    // the sockets' buffers hold beside the budget).
    std::thread::sleep(Duration::from_millis(100));
    assert!(written.load(Ordering::SeqCst) < 20_000_000);
}

#[test]
fn the_event_budget_is_tested_on_both_sides() {
    let api = api(Arc::default());
    let p = plugin(&api, r#""max_stream_events": 5,"#);
    let at = call(&p, "count", r#"{"n": 5}"#);
    assert_eq!(events(&at).len(), 5);
    assert!(!at.text().contains("\n["), "{}", at.text());
    let over = call(&p, "count", r#"{"n": 6}"#);
    assert_eq!(events(&over).len(), 5);
    assert!(over.text().ends_with(
        "[the stream was closed after 5 events (max_stream_events); more events may have followed]"
    ));
}

#[test]
fn a_stream_cut_off_keeps_its_events_and_says_why() {
    let api = api(Arc::default());
    let out = call(&plugin(&api, ""), "broken", "{}");
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(events(&out), vec![json!({"data": "one"})]);
    assert!(
        out.text()
            .contains("[the stream broke off before its end ("),
        "{}",
        out.text()
    );
}

#[test]
fn secrets_echoed_in_events_are_masked() {
    let api = api(Arc::default());
    let out = call(&plugin(&api, ""), "echo", "{}");
    assert_eq!(events(&out), vec![json!({"data": {"echo": "***"}})]);
    assert!(!out.text().contains("k-0123456789"));
}

#[test]
fn each_event_is_a_progress_notification_with_a_token() {
    let api = api(Arc::default());
    let mut session = Session::ready(Server::new(), registry(&plugin(&api, "")));
    let answer = session.request(
        Json::from(1),
        "tools/call",
        json!({"name": "openai", "arguments": {}, "_meta": {"progressToken": "t"}}),
    );
    assert_eq!(answer["result"]["isError"], json!(false));
    assert_eq!(
        answer["result"]["structuredContent"]["result"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let mut notes = Vec::new();
    while session.stashed() > 0 {
        notes.push(session.next());
    }
    let progress: Vec<&Json> = notes.iter().map(|n| &n["params"]["progress"]).collect();
    assert_eq!(
        progress,
        [&json!(1), &json!(2), &json!(3), &json!(4), &json!(5)]
    );
    let message = notes[2]["params"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("event 1: {\"data\":{\"id\":\"c1\""),
        "{}",
        message
    );
}

/// A body stream that keeps what it is given and stops after `stop_after` bytes.
struct Keep {
    bytes: std::sync::Mutex<Vec<u8>>,
    stop_after: usize,
}

impl httptool::http::BodyStream for Keep {
    fn accepts(&self, status: u16, _headers: &httptool::http::Headers) -> bool {
        status == 200
    }

    fn timeout(&self) -> Option<Duration> {
        None
    }

    fn write(&self, bytes: &[u8]) -> bool {
        let mut kept = self.bytes.lock().unwrap();
        kept.extend_from_slice(bytes);
        kept.len() < self.stop_after
    }
}

#[test]
fn the_client_hands_a_body_to_its_stream_and_stops_when_told() {
    use httptool::http::{Client, Request, Transport};
    let api = api(Arc::default());
    let client = Client::new();
    // Read to its end: the chunked framing is taken off, the response's body is empty.
    let keep = Arc::new(Keep {
        bytes: Default::default(),
        stop_after: usize::MAX,
    });
    let mut request = Request::get(&api.url("/openai")).unwrap();
    request.stream_body(keep.clone());
    let response = client.send(&request).unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.body().is_empty());
    let text = String::from_utf8(keep.bytes.lock().unwrap().clone()).unwrap();
    assert!(text.starts_with("data: {\"id\":\"c1\""), "{}", text);
    assert!(text.ends_with("data: [DONE]\n\n"), "{}", text);
    // Stopped early: the read ends there, and the connection is not reused.
    let keep = Arc::new(Keep {
        bytes: Default::default(),
        stop_after: 10,
    });
    let client = Client::new();
    let mut request = Request::get(&api.url("/forever")).unwrap();
    request.stream_body(keep.clone());
    client.send(&request).unwrap();
    assert!(keep.bytes.lock().unwrap().len() >= 10);
    assert_eq!(client.idle_connections(), 0);
}
