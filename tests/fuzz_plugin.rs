//! Deterministic fuzzing of the plugin pipeline: random argument objects (random keys, types,
//! and strings full of CR, LF, NUL, dots, slashes, percent signs, overlong UTF-8 escapes and
//! Unicode) and random call contexts, fixed seeds, no dependencies. Nothing is sent: requests
//! are built with `HttpTool::prepare` and rendered as a dry run.
//!
//! Asserted for every call: no panic; a refusal is an `is_error` output whose text is short,
//! holds no control character and no secret; a request that is built has the declared scheme,
//! host and port, a path that starts with the declared prefix and has exactly the declared
//! number of segments (none of them `.` or `..`, however often decoded), no CR, LF or NUL
//! anywhere in its head (nor in the part headers of a multipart body), and no secret in its
//! masked rendering or its `Debug`.

use std::sync::Arc;

use httptool::http::{Secrets, Transport};
use httptool::json::{self, Json, Map};
use httptool::plugin::{FilePart, FileResolver, HttpPlugin, HttpTool};
use httptool::tool::{CallContext, ToolCall, ToolRegistry};
use httptool::url::percent_decode;

use crate::support::rng::Rng;

/// What secrets look like in these tests: none may show in a masked rendering or a message.
const SECRET: &str = "S3CRET";

const PLUGIN: &str = r#"{
  "name": "fuzz",
  "base_url": "https://api.example.com:8443/base",
  "headers": { "Accept": "application/json", "X-Tenant": {"context": "tenant"} },
  "query": { "api_version": "2" },
  "auth": { "type": "bearer", "token": {"context": "token"} },
  "endpoints": [
    {
      "name": "getFile", "method": "GET", "path": "/v1/users/{id}/files/{name}.json",
      "params": [
        { "name": "id", "in": "path" },
        { "name": "name", "in": "path" },
        { "name": "q", "in": "query" },
        { "name": "tags", "in": "query", "type": "array", "items": {"type": "string"}, "array_style": "comma" },
        { "name": "page", "in": "query", "type": "integer" },
        { "name": "flag", "in": "query", "type": "boolean" },
        { "name": "note" },
        { "name": "trace", "wire_name": "X-Trace", "in": "header" },
        { "name": "list", "wire_name": "X-List", "in": "header", "type": "array", "items": {"type": "string"} },
        { "name": "session", "wire_name": "X-Session", "in": "header", "secret": true },
        { "name": "account", "in": "query", "hidden": true, "context": "account" }
      ]
    },
    {
      "name": "createItem", "method": "POST", "path": "/v1/items/{item}",
      "params": [
        { "name": "item", "in": "path", "type": "integer" },
        { "name": "title", "required": true },
        { "name": "meta", "type": "object" },
        { "name": "labels", "type": "array", "items": {"type": "string"} },
        { "name": "ct", "wire_name": "Content-Type", "in": "header" }
      ]
    },
    {
      "name": "upload", "method": "POST", "path": "/upload/{slot}", "body_encoding": "multipart",
      "params": [
        { "name": "slot", "in": "path" },
        { "name": "caption", "in": "form" },
        { "name": "doc", "in": "form", "file": true }
      ]
    },
    {
      "name": "update", "method": "PUT", "path": "/forms/{key}", "body_encoding": "form",
      "params": [
        { "name": "key", "in": "path" },
        { "name": "value", "in": "form", "type": "array", "items": {"type": "string"} }
      ]
    }
  ]
}"#;

/// The declared path of each endpoint: the literal segments, `None` where a value goes.
fn declared(tool: &str) -> &'static [Option<&'static str>] {
    match tool {
        "getFile" => &[
            Some("base"),
            Some("v1"),
            Some("users"),
            None,
            Some("files"),
            None,
        ],
        "createItem" => &[Some("base"), Some("v1"), Some("items"), None],
        "upload" => &[Some("base"), Some("upload"), None],
        _ => &[Some("base"), Some("forms"), None],
    }
}

/// The parameters the model may set, with their types: `s`tring, `i`nteger, `b`oolean,
/// `a`rray of strings, `o`bject.
fn params(tool: &str) -> &'static [(&'static str, char)] {
    match tool {
        "getFile" => &[
            ("id", 's'),
            ("name", 's'),
            ("q", 's'),
            ("tags", 'a'),
            ("page", 'i'),
            ("flag", 'b'),
            ("note", 's'),
            ("trace", 's'),
            ("list", 'a'),
            ("session", 's'),
        ],
        "createItem" => &[
            ("item", 'i'),
            ("title", 's'),
            ("meta", 'o'),
            ("labels", 'a'),
            ("ct", 's'),
        ],
        "upload" => &[("slot", 's'), ("caption", 's'), ("doc", 's')],
        _ => &[("key", 's'), ("value", 'a')],
    }
}

/// A resolver that trusts the handle as the file name, as a careless application might.
struct EchoResolver;

impl FileResolver for EchoResolver {
    fn resolve(
        &self,
        handle: &str,
        _context: &CallContext,
    ) -> Result<FilePart, Box<dyn std::error::Error + Send + Sync>> {
        if handle.contains("missing") {
            return Err("no such upload; use an id from the list".into());
        }
        Ok(FilePart::new(handle, handle, handle.as_bytes().to_vec()))
    }
}

fn plugin() -> HttpPlugin {
    HttpPlugin::from_json(PLUGIN)
        .expect("the fuzz plugin is valid")
        .with_file_resolver(Arc::new(EchoResolver))
}

#[rustfmt::skip]
const PIECES: &[&str] = &[
    "a", "Z", "0", "42", "-1", "1e3", "true", "yes", ".", "..", "...", "/", "\\", "%", "%2e",
    "%2E%2e", "%252e", "%25252e", "%2f", "%5c", "%c0%ae", "%c0%af", "%e0%80%ae", "%00", ";",
    "..;", ";jsessionid=1", "?", "#", "&", "=", "+", " ", "\t", "\r", "\n", "\r\n", "\0", "\u{7f}",
    "\u{85}", "\u{2028}", "\u{202e}", "\u{ff0e}", "é", "杭州", "\u{1f600}", "\"", "'", "<", ">",
    "{", "}", "[", "]", ":", "@", "Host: evil", "Set-Cookie: x=1",
];

fn random_text(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(6) {
        s.push_str(rng.pick(PIECES));
    }
    s
}

fn random_value(rng: &mut Rng, depth: usize) -> Json {
    match rng.below(if depth > 2 { 6 } else { 9 }) {
        0..=2 => Json::from(random_text(rng)),
        3 => Json::from(rng.next() as i64 % 1000),
        4 => Json::from(rng.chance(2)),
        5 => Json::Null,
        6 => Json::from(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth + 1))
                .collect::<Vec<_>>(),
        ),
        7 => {
            let mut map = Map::new();
            for _ in 0..rng.below(3) {
                map.insert(random_text(rng), random_value(rng, depth + 1));
            }
            Json::from(map)
        }
        // A JSON-encoded container, which coercion reads as one.
        _ => Json::from(random_value(rng, depth + 1).to_string()),
    }
}

/// A value of type `ty` most of the time (its strings hostile), anything now and then.
fn typed_value(rng: &mut Rng, ty: char) -> Json {
    if rng.chance(6) {
        return random_value(rng, 0);
    }
    let text = |rng: &mut Rng| {
        let t = random_text(rng);
        if t.is_empty() {
            String::from("x")
        } else {
            t
        }
    };
    match ty {
        'i' => match rng.below(3) {
            0 => Json::from(rng.next() as i64),
            1 => Json::from((rng.next() % 1000).to_string()),
            _ => Json::from(rng.pick(&["1e2", " 7 ", "3.0", "-0"])),
        },
        'b' => Json::from(rng.pick(&["true", "no", "1", "YES"])),
        'a' => Json::from((0..rng.below(4)).map(|_| text(rng)).collect::<Vec<_>>()),
        'o' => {
            let mut map = Map::new();
            map.insert(text(rng), text(rng));
            Json::from(map)
        }
        _ => Json::from(text(rng)),
    }
}

fn random_arguments(rng: &mut Rng, tool: &str) -> Map {
    let mut map = Map::new();
    for &(name, ty) in params(tool) {
        if !rng.chance(8) {
            map.insert(name, typed_value(rng, ty));
        }
    }
    if rng.chance(8) {
        let junk = rng.pick(&["account", "ctiy", "", "id ", "ID", "\u{0}", "x\ny"]);
        map.insert(junk, random_value(rng, 0));
    }
    map
}

fn random_context(rng: &mut Rng, n: usize) -> CallContext {
    let mut context = CallContext::new();
    let secret = |rng: &mut Rng| {
        let mut v = format!("{SECRET}-{n}");
        if rng.chance(20) {
            v.push_str(rng.pick(&["\r\nX-Injected: 1", "\n", "\0", "\r"]));
        }
        v
    };
    if !rng.chance(30) {
        context.insert("token", secret(rng));
    }
    if !rng.chance(30) {
        context.insert("tenant", secret(rng));
    }
    if !rng.chance(3) {
        context.insert("account", secret(rng));
    }
    context
}

/// A path segment decoded as often as a server might, overlong UTF-8 forms of `.`, `/` and
/// `\` read as those characters (as old servers do).
fn decoded(segment: &str) -> Vec<u8> {
    let mut bytes = segment.as_bytes().to_vec();
    for _ in 0..4 {
        bytes = percent_decode(&String::from_utf8_lossy(&bytes));
    }
    const OVERLONG: &[(&[u8], u8)] = &[
        (&[0xc0, 0xae], b'.'),
        (&[0xe0, 0x80, 0xae], b'.'),
        (&[0xf0, 0x80, 0x80, 0xae], b'.'),
        (&[0xc0, 0xaf], b'/'),
        (&[0xe0, 0x80, 0xaf], b'/'),
        (&[0xc1, 0x9c], b'\\'),
    ];
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = &bytes[..];
    'next: while let Some(&b) = rest.first() {
        for (form, ascii) in OVERLONG {
            if rest.starts_with(form) {
                out.push(*ascii);
                rest = &rest[form.len()..];
                continue 'next;
            }
        }
        out.push(b);
        rest = &rest[1..];
    }
    out
}

/// Whether a decoded segment is, or holds, a dot segment: split on `/` and `\`, each piece
/// read up to a `;` (a path parameter, which servers such as Tomcat drop) or a NUL.
fn holds_dot_segment(plain: &[u8]) -> bool {
    plain.split(|&b| b == b'/' || b == b'\\').any(|piece| {
        let end = piece
            .iter()
            .position(|&b| b == b';' || b == 0)
            .unwrap_or(piece.len());
        matches!(&piece[..end], b"." | b"..")
    })
}

fn check_refusal(text: &str, context: &str) {
    assert!(text.len() < 2048, "{context}: a long message: {text:?}");
    assert!(!text.contains(SECRET), "{context}: a secret in {text:?}");
    assert!(
        !text.chars().any(char::is_control),
        "{context}: a control character in {text:?}"
    );
}

/// The lines of a head (up to the empty line), with no stray CR, LF or NUL.
fn check_head(head: &[u8], context: &str) -> Vec<String> {
    let text = String::from_utf8_lossy(head).into_owned();
    let end = text
        .find("\r\n\r\n")
        .unwrap_or_else(|| panic!("{context}: no head end"));
    let lines: Vec<String> = text[..end].split("\r\n").map(str::to_string).collect();
    for line in &lines {
        assert!(
            !line.contains(['\r', '\n', '\0']),
            "{context}: {line:?} holds CR, LF or NUL"
        );
    }
    lines
}

fn check_request(tool: &str, http_tool: &HttpTool, arguments: Map, context: &CallContext) {
    let shown = format!("{tool} {}", json::Json::from(arguments.clone()));
    let request = match http_tool.prepare(arguments, context) {
        Ok(request) => request,
        Err(output) => {
            assert!(output.is_error(), "{shown}");
            check_refusal(output.text(), &shown);
            return;
        }
    };
    let url = request.url();
    assert_eq!(url.scheme().as_str(), "https", "{shown}");
    assert_eq!(url.host_str(), "api.example.com", "{shown}");
    assert_eq!(url.port(), Some(8443), "{shown}");
    let segments: Vec<&str> = url.path().split('/').skip(1).collect();
    let want = declared(tool);
    assert_eq!(segments.len(), want.len(), "{shown}: {}", url.path());
    for (segment, literal) in segments.iter().zip(want) {
        if let Some(literal) = literal {
            assert_eq!(segment, literal, "{shown}: {}", url.path());
        }
        let plain = decoded(segment);
        assert!(!plain.is_empty(), "{shown}: an empty segment");
        assert!(!holds_dot_segment(&plain), "{shown}: {}", url.path());
    }
    let raw = request.render(Secrets::Reveal).expect("renders");
    let lines = check_head(&raw, &shown);
    let request_line: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(request_line.len(), 3, "{shown}: {:?}", lines[0]);
    for line in &lines[1..] {
        let (name, _) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("{shown}: not a field line: {line:?}"));
        assert!(
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic() && b != b':'),
            "{shown}: {line:?}"
        );
    }
    let hosts = lines.iter().filter(|l| l.starts_with("Host: ")).count();
    assert_eq!(hosts, 1, "{shown}");
    let auths = lines
        .iter()
        .filter(|l| l.starts_with("Authorization: "))
        .count();
    assert_eq!(auths, 1, "{shown}");
    if tool == "upload" {
        check_multipart(&raw, &shown);
    }
    let masked =
        String::from_utf8_lossy(&request.render(Secrets::Mask).expect("renders")).into_owned();
    let masked_head = &masked[..masked.find("\r\n\r\n").unwrap_or(masked.len())];
    assert!(!masked_head.contains(SECRET), "{shown}: {masked_head}");
    let debug = format!("{request:?} {request}");
    assert!(!debug.contains(SECRET), "{shown}: {debug}");
}

/// The part headers of a multipart body: no stray CR, LF or NUL, and a boundary that is
/// in no part.
fn check_multipart(raw: &[u8], context: &str) {
    let text = String::from_utf8_lossy(raw).into_owned();
    let boundary = match text.split("boundary=").nth(1) {
        Some(rest) => rest.split("\r\n").next().unwrap_or("").to_string(),
        None => return, // no body was sent
    };
    let delimiter = format!("\r\n--{boundary}");
    let body = &text[text.find("\r\n\r\n").unwrap() + 2..];
    let parts: Vec<&str> = body.split(&delimiter).collect();
    // The parts, the preamble-less first one and the closing `--`.
    for part in &parts[1..parts.len() - 1] {
        let head_end = part.find("\r\n\r\n").unwrap_or_else(|| {
            panic!("{context}: a part without a head: {part:?}");
        });
        for line in part[2..head_end].split("\r\n") {
            assert!(
                !line.contains(['\r', '\n', '\0']),
                "{context}: part header {line:?}"
            );
            assert!(
                line.starts_with("Content-Disposition: form-data; name=\"")
                    || line.starts_with("Content-Type: "),
                "{context}: part header {line:?}"
            );
        }
    }
    assert_eq!(parts.last().map(|p| p.trim_end()), Some("--"), "{context}");
}

#[test]
fn random_arguments_never_steer_the_request() {
    let plugin = plugin();
    let mut rng = Rng::new(0x9105_0001);
    let tools: Vec<(String, HttpTool)> = ["getFile", "createItem", "upload", "update"]
        .iter()
        .map(|n| (n.to_string(), plugin.tool(n).unwrap()))
        .collect();
    for n in 0..3_000 {
        let (name, tool) = &tools[rng.below(tools.len())];
        let arguments = random_arguments(&mut rng, name);
        let context = random_context(&mut rng, n);
        check_request(name, tool, arguments, &context);
    }
}

#[test]
fn random_argument_text_through_the_registry_never_panics() {
    // Nothing can be sent: the plugin's transport fails every request.
    struct Refuse;
    impl Transport for Refuse {
        fn send(
            &self,
            _request: &httptool::http::Request,
        ) -> Result<httptool::http::Response, httptool::http::Error> {
            Err(httptool::url::Url::parse("").unwrap_err().into())
        }
    }
    let mut registry = ToolRegistry::new();
    registry
        .add_plugin(&plugin().with_transport(Arc::new(Refuse)))
        .unwrap();
    let mut rng = Rng::new(0x9105_0002);
    for n in 0..1_500 {
        let tool = rng.pick(&[
            "getFile",
            "createItem",
            "upload",
            "update",
            "nope",
            "getfile",
        ]);
        let mut text = json::Json::from(random_arguments(&mut rng, tool)).to_string();
        if rng.chance(4) {
            // Broken JSON, doubly encoded JSON, or something else entirely.
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            match rng.below(3) {
                0 => text.truncate(at),
                1 => text = json::Json::from(text).to_string(),
                _ => text.insert_str(at, rng.pick(PIECES)),
            }
        }
        let context = random_context(&mut rng, n);
        let out = registry.call_with(&ToolCall::new("id", tool, text.as_str()), &context);
        assert!(out.is_error(), "nothing is sent, so every call fails");
        check_refusal(out.text(), &text);
    }
}

#[test]
fn mutated_plugin_files_never_panic() {
    let mut rng = Rng::new(0x9105_0003);
    #[rustfmt::skip]
    const SNIPPETS: &[&str] = &[
        "{", "}", "[", "]", "\"", ",", ":", "null", "0", "-1", "1e999", "\"..\"", "\"{x}\"",
        "\"/a/{id}\"", "\"in\": \"path\"", "\"${X}\"", "\"$${X}\"", "\"\\u0000\"", "\"\\r\\n\"",
        "\"http://u@h\"", "\"strict\"", "\"multipart\"", "true",
    ];
    let text: Vec<char> = PLUGIN.chars().collect();
    let mut built = 0;
    for _ in 0..800 {
        let mut chars = text.clone();
        for _ in 0..1 + rng.below(2) {
            let at = rng.below(chars.len() + 1);
            match rng.below(3) {
                0 if at < chars.len() => {
                    let end = (at + 1 + rng.below(8)).min(chars.len());
                    chars.drain(at..end);
                }
                1 => {
                    let snippet: Vec<char> = rng.pick(SNIPPETS).chars().collect();
                    chars.splice(at..at, snippet);
                }
                _ => chars.insert(at, char::from(rng.below(128) as u8)),
            }
        }
        let file: String = chars.into_iter().collect();
        let plugin = match HttpPlugin::from_json_with(&file, |_| Some(String::from("v"))) {
            Ok(plugin) => plugin,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                continue;
            }
        };
        built += 1;
        for endpoint in plugin
            .endpoints()
            .map(|e| e.name().to_string())
            .collect::<Vec<_>>()
        {
            let context = CallContext::new()
                .with("token", "t")
                .with("tenant", "x")
                .with("account", "a");
            if let Ok(dry) = plugin.dry_run(&endpoint, r#"{"id":"a","title":"t"}"#, &context) {
                check_head(&dry.render(Secrets::Reveal).expect("renders"), &file);
            }
        }
    }
    assert!(built > 40, "only {built} mutated files were plugins");
}
