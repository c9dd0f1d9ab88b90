//! Clients that push on the server's limits: arguments over the cap sent as an object, a
//! client that never reads its answers, cursors made up from tool names, one numeric id
//! written two ways, and a search query of a million words.

use std::io::{self, BufReader, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use httptool::json::{Json, Map};
use httptool::mcp::Server;
use httptool::tool::{CallContext, Catalog, ToolRegistry, ToolSpec};

use crate::support::mcp::{code, Gate, Session};

#[test]
fn object_arguments_over_the_limit_do_not_run_the_tool() {
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = runs.clone();
    let spec = ToolSpec::new(
        "echo",
        "Echoes",
        httptool::json!({"type": "object", "properties": {"v": {"type": "string"}}}),
    )
    .unwrap();
    let mut registry = ToolRegistry::new().max_argument_bytes(1024);
    registry
        .add_fn(spec, move |_: Map, _: &CallContext| {
            counted.fetch_add(1, Ordering::SeqCst);
            "ran"
        })
        .unwrap();
    let mut session = Session::ready(Server::new(), registry);
    // Just under the cap: `{"v":"..."}` is 8 bytes around the value.
    let answer = session.call(
        Json::from(1),
        "echo",
        httptool::json!({"v": "x".repeat(1016)}),
    );
    assert_eq!(answer["result"]["content"][0]["text"], Json::from("ran"));
    let answer = session.call(
        Json::from(2),
        "echo",
        httptool::json!({"v": "x".repeat(1017)}),
    );
    assert_eq!(answer["result"]["isError"], Json::from(true), "{}", answer);
    assert_eq!(
        answer["result"]["content"][0]["text"]
            .as_str()
            .map(|t| t.contains("arguments are over the limit of 1024 bytes")),
        Some(true),
        "{}",
        answer
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

/// Input that hands out `total` copies of a line, counting what it handed out.
struct Repeat {
    line: Vec<u8>,
    total: usize,
    served: Arc<AtomicUsize>,
    at: usize,
}

impl Read for Repeat {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.line.len() {
            if self.served.load(Ordering::SeqCst) == self.total {
                return Ok(0);
            }
            self.served.fetch_add(1, Ordering::SeqCst);
            self.at = 0;
        }
        let rest = &self.line[self.at..];
        let n = rest.len().min(out.len());
        out[..n].copy_from_slice(&rest[..n]);
        self.at += n;
        Ok(n)
    }
}

/// Output nobody reads until the test lets it through; counts the bytes it took.
#[derive(Clone)]
struct Stuck {
    open: Arc<(Mutex<bool>, Condvar)>,
    bytes: Arc<AtomicUsize>,
}

impl Write for Stuck {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let (lock, signal) = &*self.open;
        let mut open = lock.lock().unwrap();
        while !*open {
            open = signal.wait(open).unwrap();
        }
        self.bytes.fetch_add(bytes.len(), Ordering::SeqCst);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_client_that_does_not_read_stops_being_read() {
    let mut registry = ToolRegistry::new();
    for i in 0..40 {
        let spec = ToolSpec::without_parameters(format!("tool_{}", i), "d".repeat(1000)).unwrap();
        registry.add_fn(spec, |_: Map, _: &CallContext| "").unwrap();
    }
    let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}
"#
    .to_vec();
    let served = Arc::new(AtomicUsize::new(0));
    let input = Repeat {
        line,
        total: 3000,
        served: served.clone(),
        at: 0,
    };
    let output = Stuck {
        open: Arc::new((Mutex::new(false), Condvar::new())),
        bytes: Arc::new(AtomicUsize::new(0)),
    };
    let writer = output.clone();
    let server = Server::new().max_unwritten_bytes(256 * 1024);
    let running = thread::spawn(move || server.serve(&registry, BufReader::new(input), writer));
    // Each answer is about 45 KB: 256 KiB of them, plus the writer's buffer, is a handful.
    // Wait until the reader stands still (or has clearly read on without bound).
    let mut last = usize::MAX;
    let mut still = 0;
    let started = Instant::now();
    while still < 10 && started.elapsed() < Duration::from_secs(30) {
        thread::sleep(Duration::from_millis(50));
        let now = served.load(Ordering::SeqCst);
        if now == last {
            still += 1;
        } else {
            still = 0;
            last = now;
        }
        if now > 100 {
            break;
        }
    }
    let read = served.load(Ordering::SeqCst);
    assert!(
        read <= 20,
        "{} requests read while no answer was taken",
        read
    );
    let (lock, signal) = &*output.open;
    *lock.lock().unwrap() = true;
    signal.notify_all();
    running.join().unwrap().unwrap();
    assert_eq!(served.load(Ordering::SeqCst), 3000);
    assert!(output.bytes.load(Ordering::SeqCst) > 3000 * 40 * 1000);
}

/// FNV-1a, 32 bits, of a tool name: what cursors were once made of.
fn fnv(text: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in text.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

#[test]
fn a_cursor_made_from_tool_names_is_refused() {
    let mut registry = ToolRegistry::new();
    for name in ["fast", "slow", "other"] {
        let spec = ToolSpec::without_parameters(name, "A tool").unwrap();
        registry.add_fn(spec, |_: Map, _: &CallContext| "").unwrap();
    }
    let mut session = Session::ready(Server::new().page_size(1), registry);
    let first = session.request(Json::from(1), "tools/list", Json::Null);
    let issued = first["result"]["nextCursor"].as_str().unwrap().to_string();
    let second = session.request(
        Json::from(2),
        "tools/list",
        httptool::json!({"cursor": issued.as_str()}),
    );
    assert_eq!(second["result"]["tools"][0]["name"], Json::from("slow"));
    let issued_tag = issued.split_once('.').unwrap().1.to_string();
    let forged = [
        format!("1.{:08x}", fnv("slow")),
        format!("+2.{:08x}", fnv("other")),
        format!("+1.{}", issued_tag),
        format!("01.{}", issued_tag),
        format!("2.{}", issued_tag),
        issued.to_uppercase(),
    ];
    for (i, cursor) in forged.iter().enumerate() {
        let answer = session.request(
            Json::from(10 + i as i64),
            "tools/list",
            httptool::json!({"cursor": cursor.as_str()}),
        );
        assert_eq!(code(&answer), -32602, "{}: {}", cursor, answer);
    }
}

#[test]
fn one_and_one_point_zero_are_one_id() {
    let gate = Gate::new();
    let waiting = gate.clone();
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::without_parameters("slow", "Waits").unwrap();
    registry
        .add_fn(spec, move |_: Map, _: &CallContext| {
            waiting.wait();
            "done"
        })
        .unwrap();
    let mut session = Session::ready(Server::new(), registry);
    session.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}"#);
    gate.until_waiting(1);
    // The same JSON number: refused as an id still in flight, not run a second time.
    session.send(r#"{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"slow"}}"#);
    let answer = session.next();
    assert_eq!(code(&answer), -32600, "{}", answer);
    assert_eq!(answer["id"].as_f64(), Some(1.0));
    // Cancelling 1e0 cancels the call sent as 1: it is never answered.
    session
        .send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1e0}}"#);
    // The ping's answer shows the cancellation was read before the call is let go.
    session.ping("read");
    gate.open();
    let (ended, rest) = session.close();
    assert!(ended.is_ok());
    assert!(rest.is_empty(), "{:?}", rest);
}

#[test]
fn a_search_query_of_many_words_costs_its_length() {
    let mut registry = ToolRegistry::new();
    for name in ["listPets", "showPetById", "createPet"] {
        let spec = ToolSpec::without_parameters(name, "Pets").unwrap();
        registry.add_fn(spec, |_: Map, _: &CallContext| "").unwrap();
    }
    let catalog = Catalog::new(registry);
    // 120,000 distinct words of letters (about 700 KB): scanning the words before each one
    // to drop repeats took minutes.
    let mut query = String::new();
    for i in 0..120_000u32 {
        let mut n = i;
        query.push(' ');
        for _ in 0..5 {
            query.push(char::from(b'a' + (n % 26) as u8));
            n /= 26;
        }
    }
    query.push_str(" pets");
    let started = Instant::now();
    let hits = catalog.search(&query, 10);
    let took = started.elapsed();
    assert!(hits.is_empty(), "{} hits", hits.len());
    // A guard far above the linear cost (tens of milliseconds), far below the quadratic one.
    assert!(took < Duration::from_secs(10), "{:?}", took);
}
