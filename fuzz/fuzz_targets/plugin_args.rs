//! The argument pipeline: arbitrary tool arguments (the model's JSON text) against fixed
//! plugins, through a registry, with a transport that records what would be sent.
//!
//! The first byte picks the tool and the canned reply, the second the call context (which
//! values it has, and whether they hold CR/LF), the rest is the arguments text.
//!
//! Invariants for every request that reaches the transport: the scheme, host and port are
//! the base URL's; the path starts with the base URL's path and has the declared segments
//! (literals as declared; no value segment empty, `.` or `..` however often it is
//! percent-decoded, split on `/` or `\`); the URL is in normal form; no header name or value
//! holds CR, LF or NUL, every name is a token, and the rendered head has one `Host` and one
//! `Authorization`; every required parameter was given. A call that sends nothing is an
//! error, and a call sends at most one request. The output never holds a secret of the
//! context (the canned replies echo nothing).

#![no_main]

use std::sync::{Arc, Mutex, OnceLock};

use httptool::http::{Error, Headers, Request, Response, Secrets, Transport};
use httptool::json::{self, Json};
use httptool::plugin::HttpPlugin;
use httptool::tool::{CallContext, ToolCall, ToolRegistry};
use httptool::url::percent_decode;
use libfuzzer_sys::fuzz_target;

const SECRET: &str = "S3CRET";

const ITEMS: &str = r#"{
  "name": "items",
  "base_url": "https://api.example.com:8443/base/v2",
  "headers": { "Accept": "application/json", "X-Tenant": {"context": "tenant"} },
  "query": { "api_version": "2" },
  "auth": { "type": "bearer", "token": {"context": "token"} },
  "endpoints": [
    {
      "name": "getPart", "method": "GET", "path": "/items/{id}/parts/{part}.json",
      "params": [
        { "name": "id", "in": "path", "required": true },
        { "name": "part", "in": "path", "type": "integer", "required": true },
        { "name": "q", "wire_name": "query", "in": "query", "required": true },
        { "name": "n", "in": "query", "type": "integer" },
        { "name": "x", "in": "query", "type": "number" },
        { "name": "flag", "in": "query", "type": "boolean" },
        { "name": "tags", "in": "query", "type": "array", "items": {"type": "string"} },
        { "name": "mode", "in": "query", "enum": ["fast", "slow"] },
        { "name": "trace", "wire_name": "X-Trace", "in": "header" },
        { "name": "account", "in": "query", "hidden": true, "context": "account" },
        { "name": "note" }
      ]
    },
    {
      "name": "createItem", "method": "POST", "path": "/items",
      "params": [
        { "name": "title", "required": true },
        { "name": "count", "type": "integer", "default": 1 },
        { "name": "meta", "type": "object",
          "properties": { "color": {"type": "string"}, "size": {"type": "integer"} } },
        { "name": "labels", "type": "array", "items": {"type": "string"} },
        { "name": "lang", "wire_name": "Accept-Language", "in": "header" }
      ]
    },
    {
      "name": "updateForm", "method": "PUT", "path": "/forms/{key}", "body_encoding": "form",
      "params": [
        { "name": "key", "in": "path", "required": true },
        { "name": "value", "in": "form", "type": "array", "items": {"type": "string"} },
        { "name": "ok", "in": "form", "type": "boolean" }
      ]
    }
  ]
}"#;

const ROOT: &str = r#"{
  "name": "root",
  "base_url": "http://10.1.2.3:9200",
  "auth": { "type": "query", "name": "key", "value": {"context": "token"} },
  "endpoints": [
    {
      "name": "deleteDoc", "method": "DELETE", "path": "/{index}/_doc/{doc}",
      "params": [
        { "name": "index", "in": "path", "required": true },
        { "name": "doc", "in": "path", "required": true },
        { "name": "refresh", "in": "query", "type": "boolean" }
      ]
    }
  ]
}"#;

/// Per tool: the base URL's origin and path, the declared segments after it (`None` where a
/// value goes), and the required parameters.
struct Shape {
    tool: &'static str,
    origin: (&'static str, &'static str, u16),
    prefix: &'static [&'static str],
    segments: &'static [Option<&'static str>],
    required: &'static [&'static str],
    auth_header: bool,
}

const SHAPES: &[Shape] = &[
    Shape {
        tool: "getPart",
        origin: ("https", "api.example.com", 8443),
        prefix: &["base", "v2"],
        segments: &[Some("items"), None, Some("parts"), None],
        required: &["id", "part", "q"],
        auth_header: true,
    },
    Shape {
        tool: "createItem",
        origin: ("https", "api.example.com", 8443),
        prefix: &["base", "v2"],
        segments: &[Some("items")],
        required: &["title"],
        auth_header: true,
    },
    Shape {
        tool: "updateForm",
        origin: ("https", "api.example.com", 8443),
        prefix: &["base", "v2"],
        segments: &[Some("forms"), None],
        required: &["key"],
        auth_header: true,
    },
    Shape {
        tool: "deleteDoc",
        origin: ("http", "10.1.2.3", 9200),
        prefix: &[],
        segments: &[None, Some("_doc"), None],
        required: &["index", "doc"],
        auth_header: false,
    },
];

/// Canned replies: none echoes the request.
const REPLIES: &[(u16, Option<&str>, &[u8])] = &[
    (
        200,
        Some("application/json"),
        br#"{"ok":true,"items":[1,2,3]}"#,
    ),
    (204, None, b""),
    (404, Some("text/plain"), b"no such item"),
    (200, Some("application/octet-stream"), b"\x00\x01\x02binary"),
];

struct Recorder {
    requests: Mutex<Vec<Request>>,
    reply: Mutex<usize>,
}

impl Transport for Recorder {
    fn send(&self, request: &Request) -> Result<Response, Error> {
        self.requests.lock().unwrap().push(request.clone());
        let (status, content_type, body) = REPLIES[*self.reply.lock().unwrap() % REPLIES.len()];
        let mut headers = Headers::new();
        if let Some(content_type) = content_type {
            headers.append("Content-Type", content_type)?;
        }
        Ok(Response::new(status, request.url().clone())
            .with_headers(headers)
            .with_body(body.to_vec()))
    }
}

struct Fixture {
    recorder: Arc<Recorder>,
    registry: ToolRegistry,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let recorder = Arc::new(Recorder {
            requests: Mutex::new(Vec::new()),
            reply: Mutex::new(0),
        });
        let mut registry = ToolRegistry::new();
        for text in [ITEMS, ROOT] {
            let plugin = HttpPlugin::from_json(text)
                .expect("the fixed plugins are valid")
                .with_transport(recorder.clone());
            registry
                .add_plugin(&plugin)
                .expect("no duplicate tool names");
        }
        Fixture { recorder, registry }
    })
}

fn context(flags: u8) -> CallContext {
    let mut context = CallContext::new();
    let value = |name: &str| {
        let mut v = format!("{SECRET}-{name}");
        if flags & 0x80 != 0 {
            v.push_str(["\r\nX-Injected: 1", "\n", "\0", "\r"][(flags as usize >> 5) & 3]);
        }
        v
    };
    if flags & 1 == 0 {
        context.insert("token", value("token"));
    }
    if flags & 2 == 0 {
        context.insert("tenant", value("tenant"));
    }
    if flags & 4 == 0 {
        context.insert("account", value("account"));
    }
    context
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Whether a path segment is, or holds, a dot segment once decoded as often as a server
/// might (four times), split on `/` and `\`.
///
/// The trimmed and normalised forms (`.. `, `..%20`, `．．`) are `url::dots`'s and checked by
/// `tests/plugin_encoding.rs`; this checks the classic forms only.
fn holds_dot_segment(segment: &str) -> bool {
    let mut bytes = segment.as_bytes().to_vec();
    for _ in 0..4 {
        bytes = percent_decode(&String::from_utf8_lossy(&bytes));
    }
    bytes
        .split(|&b| b == b'/' || b == b'\\')
        .any(|piece| piece == b"." || piece == b"..")
}

fn check_request(shape: &Shape, request: &Request, arguments: &Json, shown: &str) {
    let url = request.url();
    let (scheme, host, port) = shape.origin;
    assert_eq!(url.scheme().as_str(), scheme, "{shown}");
    assert_eq!(url.host_str(), host, "{shown}");
    assert_eq!(url.port_or_default(), port, "{shown}");
    let reparsed = httptool::url::Url::parse(url.as_str()).expect("a sent URL parses");
    assert_eq!(
        reparsed.as_str(),
        url.as_str(),
        "{shown}: not in normal form"
    );

    let segments: Vec<&str> = url.path().split('/').skip(1).collect();
    let want = shape.prefix.len() + shape.segments.len();
    assert_eq!(segments.len(), want, "{shown}: {}", url.path());
    for (segment, literal) in segments.iter().zip(shape.prefix) {
        assert_eq!(
            segment,
            literal,
            "{shown}: left the base path: {}",
            url.path()
        );
    }
    for (segment, literal) in segments[shape.prefix.len()..].iter().zip(shape.segments) {
        match literal {
            // `{part}.json`: the literal suffix stays.
            Some(literal) => assert_eq!(segment, literal, "{shown}: {}", url.path()),
            None => {
                assert!(!segment.is_empty(), "{shown}: an empty segment");
                assert!(!holds_dot_segment(segment), "{shown}: {}", url.path());
            }
        }
    }

    for (name, value) in request.headers().iter() {
        assert!(
            !name.is_empty() && name.bytes().all(is_tchar),
            "{shown}: header name {name:?}"
        );
        assert!(
            !value.contains(['\r', '\n', '\0']),
            "{shown}: header {name}: {value:?}"
        );
    }
    let raw = request
        .render(Secrets::Reveal)
        .expect("a sent request renders");
    let text = String::from_utf8_lossy(&raw);
    let head = &text[..text.find("\r\n\r\n").expect("a head end")];
    let lines: Vec<&str> = head.split("\r\n").collect();
    for line in &lines {
        assert!(!line.contains(['\r', '\n', '\0']), "{shown}: {line:?}");
    }
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("Host: ")).count(),
        1,
        "{shown}"
    );
    let auths = lines
        .iter()
        .filter(|l| l.starts_with("Authorization: "))
        .count();
    assert_eq!(auths, usize::from(shape.auth_header), "{shown}");

    // `httptool::design::endpoints`, "Value order": the argument, else the default, else an
    // error. None of these has a default, so each was given.
    let given = match arguments {
        Json::Object(map) => map,
        _ => panic!("{shown}: a request from arguments that are not an object"),
    };
    for name in shape.required {
        match given.get(name) {
            Some(Json::Null) | None => panic!("{shown}: sent without required '{name}'"),
            Some(_) => {}
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let (pick, flags, rest) = match data {
        [pick, flags, rest @ ..] => (*pick, *flags, rest),
        _ => return,
    };
    let fixture = fixture();
    let shape = &SHAPES[pick as usize % SHAPES.len()];
    *fixture.recorder.reply.lock().unwrap() = pick as usize >> 4;
    fixture.recorder.requests.lock().unwrap().clear();
    let context = context(flags);
    let arguments = String::from_utf8_lossy(rest);
    let call = ToolCall::new("call_1", shape.tool, arguments.as_ref());
    let output = fixture.registry.call_with(&call, &context);
    let sent = std::mem::take(&mut *fixture.recorder.requests.lock().unwrap());

    assert!(sent.len() <= 1, "one call sent {} requests", sent.len());
    // A secret the model itself wrote into its arguments (a parameter name, say) may come
    // back in the argument error: the model already holds that text, and nothing was sent.
    assert!(
        model_wrote_secret(&arguments) || !output.text().contains(SECRET),
        "a secret in the output: {:?}",
        output.text()
    );
    let request = match sent.first() {
        Some(request) => request,
        None => {
            assert!(output.is_error(), "a call that sent nothing succeeded");
            return;
        }
    };
    let shown = format!("{} {}", shape.tool, arguments);
    let parsed = json::parse(&arguments).unwrap_or_else(|_| {
        // Empty arguments are read as `{}` by some providers; anything else must parse.
        assert!(
            arguments.trim().is_empty(),
            "{shown}: sent from arguments that do not parse"
        );
        Json::Object(Default::default())
    });
    check_request(shape, request, &parsed, &shown);
});

/// Whether the model's arguments hold the secret themselves, as written or behind JSON
/// escapes (`\u0053`).
fn model_wrote_secret(arguments: &str) -> bool {
    arguments.contains(SECRET)
        || httptool::json::parse(arguments)
            .map_or(false, |value| value.to_string().contains(SECRET))
}
