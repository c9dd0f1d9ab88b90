//! Hostile frames: each gets the right JSON-RPC error (or none, for notifications) and the
//! server keeps serving.

use std::io::{self, BufReader, Read};

use httptool::json::{self, Json, Map};
use httptool::mcp::Server;
use httptool::tool::{CallContext, ToolRegistry, ToolSpec};

use crate::support::mcp::{code, Session};

fn registry() -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::without_parameters("hello", "Says hello").unwrap();
    registry
        .add_fn(spec, |_: Map, _: &CallContext| "hi")
        .unwrap();
    registry
}

/// Sends `line` and returns the one answer it gets, then checks the server still serves.
fn answer_to(line: &[u8]) -> Json {
    let mut session = Session::ready(Server::new(), registry());
    let mut bytes = line.to_vec();
    bytes.push(b'\n');
    session.send_bytes(bytes);
    let answer = session.next();
    session.ping("after");
    let (result, rest) = session.close();
    assert!(result.is_ok());
    assert!(rest.is_empty(), "{:?}", rest);
    answer
}

fn error_of(line: &[u8]) -> (Json, i64, String) {
    let answer = answer_to(line);
    let message = answer["error"]["message"]
        .as_str()
        .unwrap_or("")
        .to_string();
    (answer["id"].clone(), code(&answer), message)
}

#[test]
fn a_line_that_is_not_json() {
    let (id, code, message) = error_of(b"hello there");
    assert_eq!((id, code), (Json::Null, -32700));
    assert!(
        message.starts_with("parse error: the message is not JSON: "),
        "{}",
        message
    );
}

#[test]
fn bytes_that_are_not_utf8() {
    let (id, code, _) = error_of(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}");
    assert_eq!((id, code), (Json::Null, -32700));
}

#[test]
fn a_wrong_jsonrpc_version() {
    let (id, code, message) = error_of(br#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#);
    assert_eq!((id, code), (Json::from(5), -32600));
    assert_eq!(message, "invalid request: \"jsonrpc\" must be \"2.0\"");
    let (_, code, _) = error_of(br#"{"id":5,"method":"ping"}"#);
    assert_eq!(code, -32600);
}

#[test]
fn a_batch_array() {
    let (id, code, message) = error_of(
        br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
    );
    // This session negotiated 2025-11-25, which has no batches (tests/mcp_batch.rs has the
    // exact message and the revision that takes them).
    assert_eq!((id, code), (Json::Null, -32600));
    assert!(
        message.starts_with("invalid request: batches"),
        "{}",
        message
    );
}

#[test]
fn a_message_that_is_not_an_object() {
    for line in [&b"42"[..], b"\"ping\"", b"null", b"true"] {
        let (id, code, _) = error_of(line);
        assert_eq!((id, code), (Json::Null, -32600));
    }
}

#[test]
fn ids_that_are_not_strings_or_integers() {
    for id in ["null", "1.5", "true", "[1]", "{}"] {
        let line = format!(r#"{{"jsonrpc":"2.0","id":{},"method":"ping"}}"#, id);
        let (answered, code, message) = error_of(line.as_bytes());
        assert_eq!((answered, code), (Json::Null, -32600), "{}", id);
        assert!(
            message.starts_with("invalid request: the id must be a string or an integer"),
            "{}",
            message
        );
    }
}

#[test]
fn a_method_that_is_not_a_string_and_a_request_without_one() {
    let (id, code, _) = error_of(br#"{"jsonrpc":"2.0","id":1,"method":7}"#);
    assert_eq!((id, code), (Json::from(1), -32600));
    let (id, code, _) = error_of(br#"{"jsonrpc":"2.0","id":1,"params":{}}"#);
    assert_eq!((id, code), (Json::from(1), -32600));
}

#[test]
fn params_that_are_not_an_object() {
    let (id, code, message) =
        error_of(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[]}"#);
    assert_eq!((id, code), (Json::from(1), -32602));
    assert_eq!(
        message,
        "invalid params: tools/list takes an object, got array"
    );
}

#[test]
fn a_duplicate_key_is_a_parse_error() {
    let (id, code, message) = error_of(
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello","arguments":{"a":1,"a":2}}}"#,
    );
    assert_eq!((id, code), (Json::Null, -32700));
    assert!(
        message.ends_with("duplicate object key at 1:91"),
        "{}",
        message
    );
}

#[test]
fn nesting_ten_thousand_deep() {
    let line = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let (id, code, _) = error_of(line.as_bytes());
    assert_eq!((id, code), (Json::Null, -32700));
}

#[test]
fn notifications_and_client_responses_get_no_answer() {
    let mut session = Session::ready(Server::new(), registry());
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/whatever","params":{"x":1}}"#);
    session.send(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"none"}}"#,
    );
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#);
    session.send(r#"{"jsonrpc":"2.0","id":"srv-1","result":{}}"#);
    session.send("");
    session.send("   \r");
    session.ping("only-this");
    let (result, rest) = session.close();
    assert!(result.is_ok());
    assert!(rest.is_empty(), "{:?}", rest);
}

/// `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"xxxx...` for `len` bytes, then
/// the end of the message, a newline and a ping: produced as it is read, never held whole.
struct Huge {
    len: u64,
    at: u64,
    tail: Vec<u8>,
}

impl Read for Huge {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        const HEAD: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""#;
        let head = HEAD.len() as u64;
        let n = if self.at < head {
            let rest = &HEAD[self.at as usize..];
            let n = rest.len().min(out.len());
            out[..n].copy_from_slice(&rest[..n]);
            n
        } else if self.at < self.len {
            let n = ((self.len - self.at) as usize).min(out.len());
            out[..n].iter_mut().for_each(|b| *b = b'x');
            n
        } else {
            let rest = self
                .tail
                .get((self.at - self.len) as usize..)
                .unwrap_or(&[]);
            let n = rest.len().min(out.len());
            out[..n].copy_from_slice(&rest[..n]);
            n
        };
        self.at += n as u64;
        Ok(n)
    }
}

fn huge_line(len: u64, max_line_bytes: usize) -> Vec<Json> {
    let tail = b"\"}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n".to_vec();
    let reader = BufReader::new(Huge { len, at: 0, tail });
    let mut output = Vec::new();
    Server::new()
        .max_line_bytes(max_line_bytes)
        .serve(&registry(), reader, &mut output)
        .unwrap();
    output
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| json::parse_bytes(line).unwrap())
        .collect()
}

#[test]
fn a_100_mb_line_is_refused_and_the_next_one_served() {
    let answers = huge_line(100 * 1024 * 1024, httptool::mcp::DEFAULT_MAX_LINE_BYTES);
    assert_eq!(answers.len(), 2, "{:?}", answers);
    assert_eq!(code(&answers[0]), -32600);
    assert_eq!(answers[0]["id"], Json::Null);
    assert_eq!(
        answers[0]["error"]["message"],
        Json::from(format!(
            "invalid request: the message is {} bytes, over the limit of {}",
            100 * 1024 * 1024 + 3,
            4 * 1024 * 1024
        ))
    );
    assert_eq!(answers[1]["id"], Json::from(2));
}

#[test]
fn the_line_cap_on_both_sides() {
    // The first message is `len + 3` bytes long.
    let fits = huge_line(997, 1000);
    assert_eq!(fits[0]["id"], Json::from(1), "{:?}", fits);
    // A ping before initialize is answered: the first message was read.
    assert_eq!(fits[0]["result"], httptool::json!({}));
    let over = huge_line(998, 1000);
    assert_eq!(code(&over[0]), -32600);
    assert_eq!(over[1]["id"], Json::from(2));
}
