//! Deterministic fuzzing of the MCP server's message reader: valid messages mutated byte by
//! byte (flips, cuts, splices, repeated fragments, CR, NUL, invalid UTF-8, huge ids), fixed
//! seeds, no dependencies. Everything is fed to one session through its reader.
//!
//! Asserted: no panic and the session ends cleanly; every line written is a JSON-RPC 2.0
//! object, either a response with exactly one of `result` and `error` or a progress
//! notification; and the ping sent after all the noise is answered.

use httptool::json::{self, Json, Map};
use httptool::mcp::Server;
use httptool::tool::{CallContext, ToolRegistry, ToolSpec};

use crate::support::rng::Rng;

const SEEDS: [&str; 8] = [
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"1.811c9dc5"}}"#,
    r#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"progressToken":5}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}}"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
    r#"[{"jsonrpc":"2.0","id":4,"method":"ping"}]"#,
    r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
];

const FRAGMENTS: [&str; 12] = [
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\\u0000",
    "\r",
    "\u{0}",
    "é",
    "99999999999999999999999",
];

fn mutate(rng: &mut Rng, seed: &str) -> Vec<u8> {
    let mut bytes = seed.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = if bytes.is_empty() {
            0
        } else {
            rng.below(bytes.len())
        };
        match rng.below(6) {
            0 if !bytes.is_empty() => bytes[at] ^= 1 << rng.below(8),
            1 => bytes.truncate(at),
            2 => {
                let fragment = rng.pick(&FRAGMENTS).as_bytes().to_vec();
                bytes.splice(at..at, fragment);
            }
            3 => bytes.insert(at, rng.pick(&[0xff, 0xc0, 0x80, b'\r', 0])),
            4 => {
                let other = rng.pick(&SEEDS).as_bytes();
                let from = rng.below(other.len());
                bytes.splice(at..at, other[from..].iter().copied());
            }
            _ => {
                let end = (at + rng.below(16)).min(bytes.len());
                let piece: Vec<u8> = bytes[at..end].to_vec();
                for _ in 0..rng.below(8) {
                    bytes.splice(at..at, piece.iter().copied());
                }
            }
        }
    }
    // A message is one line: a newline inside would make two, which is fine too, but keep
    // the count of lines predictable.
    bytes.retain(|&b| b != b'\n');
    bytes
}

fn registry() -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    for name in ["echo", "other"] {
        let spec = ToolSpec::new(
            name,
            "Echoes",
            httptool::json!({"type": "object", "properties": {"text": {"type": "string"}}}),
        )
        .unwrap();
        registry
            .add_fn(spec, |args: Map, _: &CallContext| {
                args.get("text")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string()
            })
            .unwrap();
    }
    registry
}

#[test]
fn mutated_messages_never_break_the_session() {
    let mut rng = Rng::new(13);
    for round in 0..40 {
        let mut input = Vec::new();
        // Start most rounds initialized, so the mutations reach every method.
        if round % 4 != 0 {
            input.extend_from_slice(SEEDS[0].as_bytes());
            input.push(b'\n');
        }
        for _ in 0..200 {
            let seed = rng.pick(&SEEDS);
            let line = if rng.chance(5) {
                seed.as_bytes().to_vec()
            } else {
                mutate(&mut rng, seed)
            };
            input.extend_from_slice(&line);
            input.push(b'\n');
        }
        input.extend_from_slice(br#"{"jsonrpc":"2.0","id":"final-ping","method":"ping"}"#);
        input.push(b'\n');
        let mut output = Vec::new();
        Server::new()
            .page_size(1)
            .max_line_bytes(4096)
            .serve(&registry(), &input[..], &mut output)
            .unwrap();
        let mut final_ping = false;
        for line in output.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let message = json::parse_bytes(line).unwrap_or_else(|e| {
                panic!(
                    "round {}: not JSON ({}): {:?}",
                    round,
                    e,
                    String::from_utf8_lossy(line)
                )
            });
            assert_eq!(message["jsonrpc"], Json::from("2.0"), "{}", message);
            match message.get("id") {
                Some(id) => {
                    assert!(
                        message.get("result").is_some() != message.get("error").is_some(),
                        "{}",
                        message
                    );
                    if id == &Json::from("final-ping") {
                        final_ping = message["result"] == httptool::json!({});
                    }
                }
                None => assert_eq!(
                    message["method"],
                    Json::from("notifications/progress"),
                    "{}",
                    message
                ),
            }
        }
        assert!(
            final_ping,
            "round {}: the final ping was not answered",
            round
        );
    }
}
