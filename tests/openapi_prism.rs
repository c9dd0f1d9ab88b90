//! End to end against Stoplight Prism (`prism mock DOC --errors`), which validates every
//! request against the document and answers 422 (or 401 for missing credentials) when it
//! is wrong: a spread of operations of each real document, with arguments generated from
//! the tool's schema (required parameters, enums, formats), sent through the plugin.
//!
//! Prism is not part of the build: `.ci/run` installs it and runs
//! `HTTPTOOL_PRISM=path/to/prism cargo test --test integration openapi_prism:: -- --ignored`. The test is
//! `#[ignore]`d so that without Prism it neither runs nor counts as a pass; with the variable
//! set, anything wrong (Prism not starting, fewer than 98% of the requests accepted) fails it.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use httptool::json::{Json, Map, ParseOptions};
use httptool::openapi::{self, ImportOptions};
use httptool::plugin::{FilePart, FileResolver, HttpPlugin};
use httptool::tool::{inline_refs, CallContext, Tool};

/// Operations sampled per document, spread evenly over it.
const SAMPLE: usize = 120;

/// Prism's request errors (its `type` URLs end with these): a request it refused.
const REFUSALS: [&str; 6] = [
    "UNPROCESSABLE_ENTITY",
    "UNAUTHORIZED",
    "NO_PATH_MATCHED_ERROR",
    "NO_METHOD_MATCHED_ERROR",
    "NO_SERVER_MATCHED_ERROR",
    "INVALID_CONTENT_TYPE",
];

struct Prism(Child);

impl Drop for Prism {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts Prism on `doc` and waits (up to three minutes: large documents take a while to
/// load) until it accepts connections.
fn start(prism: &str, doc: &Path, port: u16) -> Prism {
    try_start(prism, doc, port, Duration::from_secs(180))
        .unwrap_or_else(|why| panic!("{} on {}", why, doc.display()))
}

/// Starts Prism on `doc` and waits up to `wait` until it accepts connections; why not, when
/// it exits first or does not listen in time.
fn try_start(prism: &str, doc: &Path, port: u16, wait: Duration) -> Result<Prism, String> {
    let child = Command::new(prism)
        .arg("mock")
        .arg(doc)
        .arg("--errors")
        .arg("-p")
        .arg(port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {}", prism, e));
    let mut prism_child = Prism(child);
    let deadline = Instant::now() + wait;
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = prism_child.0.try_wait() {
            return Err(format!("prism exited before listening: {}", status));
        }
        if Instant::now() >= deadline {
            return Err(format!("prism did not listen within {} s", wait.as_secs()));
        }
        // Polling for a child process to bind: there is nothing to synchronise on.
        std::thread::sleep(Duration::from_millis(200));
    }
    Ok(prism_child)
}

/// Small bytes for every file parameter.
struct Files;

impl FileResolver for Files {
    fn resolve(
        &self,
        handle: &str,
        _context: &CallContext,
    ) -> Result<FilePart, Box<dyn std::error::Error + Send + Sync>> {
        Ok(FilePart::new(
            handle,
            "application/octet-stream",
            b"hello".to_vec(),
        ))
    }
}

/// A value that fits `schema`: its enum's first value, its const, an example-like value of
/// its format, or the least value its bounds allow; objects with their required properties.
fn sample(schema: &Json, depth: usize) -> Json {
    if depth > 12 {
        return Json::Null;
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Json::as_array)
        .and_then(|e| e.iter().find(|v| !v.is_null()))
    {
        return first.clone();
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    if let Some(example) = schema
        .get("examples")
        .and_then(Json::as_array)
        .and_then(|e| e.first())
    {
        return example.clone();
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(first) = schema
            .get(key)
            .and_then(Json::as_array)
            .and_then(|b| b.first())
        {
            return sample(first, depth + 1);
        }
    }
    if let Some(all) = schema.get("allOf").and_then(Json::as_array) {
        let mut merged = Map::new();
        for branch in all {
            if let Some(m) = sample(branch, depth + 1).into_object() {
                for (k, v) in m.iter() {
                    merged.insert(k.clone(), v.clone());
                }
            }
        }
        return Json::Object(merged);
    }
    let ty = match schema.get("type") {
        Some(Json::String(t)) => t.as_str(),
        Some(Json::Array(list)) => list
            .iter()
            .filter_map(Json::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ if schema.get("properties").is_some() => "object",
        _ if schema.get("items").is_some() => "array",
        _ => "string",
    };
    match ty {
        "integer" | "number" => {
            let min = schema
                .get("minimum")
                .and_then(Json::as_f64)
                .unwrap_or(1.0)
                .max(
                    schema
                        .get("exclusiveMinimum")
                        .and_then(Json::as_f64)
                        .map_or(1.0, |m| m + 1.0),
                );
            let max = schema
                .get("maximum")
                .and_then(Json::as_f64)
                .unwrap_or(f64::MAX);
            let v = if min > max { max } else { min };
            Json::from(v.ceil() as i64)
        }
        "boolean" => Json::Bool(true),
        "array" => {
            let item = schema
                .get("items")
                .map_or(Json::from("x"), |i| sample(i, depth + 1));
            let n = schema
                .get("minItems")
                .and_then(Json::as_u64)
                .unwrap_or(1)
                .max(1) as usize;
            Json::Array(vec![item; n])
        }
        "object" => {
            let mut out = Map::new();
            let props = schema.get("properties").and_then(Json::as_object);
            for name in schema
                .get("required")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
            {
                if let (Some(name), Some(props)) = (name.as_str(), props) {
                    if let Some(p) = props.get(name) {
                        out.insert(name, sample(p, depth + 1));
                    }
                }
            }
            Json::Object(out)
        }
        _ => {
            let format = schema.get("format").and_then(Json::as_str).unwrap_or("");
            let patterned = schema
                .get("pattern")
                .and_then(Json::as_str)
                .and_then(matching);
            let text = match format {
                "date-time" => "2024-01-02T03:04:05Z".to_string(),
                "date" => "2024-01-02".to_string(),
                "time" => "03:04:05Z".to_string(),
                "uuid" => "123e4567-e89b-12d3-a456-426614174000".to_string(),
                "email" => "someone@example.com".to_string(),
                "uri" | "url" | "uri-reference" => "https://example.com/x".to_string(),
                "ipv4" => "192.0.2.1".to_string(),
                "ipv6" => "2001:db8::1".to_string(),
                "hostname" => "example.com".to_string(),
                "byte" => "aGVsbG8=".to_string(),
                "int64" | "int32" | "int-or-string" | "snowflake" => "1".to_string(),
                _ if patterned.is_some() => patterned.unwrap_or_default(),
                _ => {
                    let min = schema
                        .get("minLength")
                        .and_then(Json::as_u64)
                        .unwrap_or(1)
                        .max(1) as usize;
                    let max = schema
                        .get("maxLength")
                        .and_then(Json::as_u64)
                        .unwrap_or(u64::MAX) as usize;
                    "a".repeat(min.min(max).max(1))
                }
            };
            Json::from(text)
        }
    }
}

/// A string that matches an anchored `pattern` of the simple kind (`^VA[0-9a-fA-F]{32}$`):
/// literal characters, classes (their first character), `\d`, `\w`, `.`, and the
/// quantifiers `{n}`, `{n,m}`, `+`, `*`, `?` (each at its least count); `None` for another
/// (groups, alternatives, negated classes), which gets the plain sample.
fn matching(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let anchored = chars.first() == Some(&'^');
    if anchored {
        i = 1;
    }
    while i < chars.len() {
        let c = chars[i];
        let atom: char = match c {
            '$' if i + 1 == chars.len() => break,
            '(' | ')' | '|' => return None,
            '[' => {
                let end = chars[i..].iter().position(|&x| x == ']')? + i;
                let first = *chars.get(i + 1)?;
                if first == '^' || first == '\\' {
                    return None;
                }
                i = end;
                first
            }
            '\\' => {
                i += 1;
                match chars.get(i)? {
                    'd' => '1',
                    'w' => 'a',
                    other if other.is_ascii_alphanumeric() => return None,
                    other => *other,
                }
            }
            '.' => 'a',
            other => other,
        };
        i += 1;
        let mut count = 1;
        match chars.get(i) {
            Some('{') => {
                let end = chars[i..].iter().position(|&x| x == '}')? + i;
                let inside: String = chars[i + 1..end].iter().collect();
                count = inside.split(',').next()?.trim().parse().ok()?;
                i = end + 1;
            }
            Some('+') | Some('*') | Some('?') => {
                count = if chars[i] == '+' { 1 } else { 0 };
                i += 1;
            }
            _ => {}
        }
        for _ in 0..count {
            out.push(atom);
        }
    }
    if !anchored || out.is_empty() {
        return None;
    }
    Some(out)
}

/// Arguments for a tool: a value for each required parameter. A compact schema writes a
/// subschema it repeats once under `$defs` and points to it with `$ref`; a model follows the
/// references, so the sampler reads the schema with them put back in place.
fn arguments(parameters: &Json) -> Map {
    sample(&inline_refs(parameters), 0)
        .into_object()
        .unwrap_or_default()
}

/// `scheme://authority` of a URL.
fn origin(url: &str) -> String {
    let after = url.find("://").map_or(0, |i| i + 3);
    match url[after..].find('/') {
        Some(i) => url[..after + i].to_string(),
        None => url.to_string(),
    }
}

fn plugin_for(doc: &Json, port: u16) -> HttpPlugin {
    let options = ImportOptions::new().include_deprecated(true);
    local_plugin(openapi::import_with(doc, &options).unwrap().plugin(), port)
}

/// `plugin` with every request sent to Prism on `port`.
fn local_plugin(plugin: &HttpPlugin, port: u16) -> HttpPlugin {
    let import = plugin;
    let mut file = import.to_json();
    // Prism matches paths without the servers' base paths: every base url is its origin.
    let local = format!("http://127.0.0.1:{}", port);
    if let Some(map) = file.as_object_mut() {
        map.insert("base_url", local.as_str());
    }
    for endpoint in file
        .get_mut("endpoints")
        .and_then(Json::as_array_mut)
        .into_iter()
        .flatten()
    {
        if let Some(map) = endpoint.as_object_mut() {
            map.remove("base_url");
        }
    }
    let _ = origin;
    HttpPlugin::from_json_with(&file.to_string(), |_| Some(String::from("token-1")))
        .unwrap()
        .with_file_resolver(Arc::new(Files))
}

/// Sends `count` operations of `plugin`, spread evenly over it, each with arguments made from
/// its schema; each refused one is a line in `refused`. The requests sent.
fn send_sample(plugin: &HttpPlugin, count: usize, name: &str, refused: &mut Vec<String>) -> usize {
    let tools = plugin.tools();
    let stride = (tools.len() / count).max(1);
    let mut sent = 0;
    let mut doc_refused = 0;
    for tool in tools.iter().step_by(stride) {
        let args = arguments(tool.spec().parameters());
        sent += 1;
        let why = match tool.send(args.clone(), &CallContext::new()) {
            Ok(response) => {
                refusal(response.body()).map(|r| format!("{} {}", response.status(), r))
            }
            Err(output) => Some(format!("not sent: {}", output.text())),
        };
        if let Some(why) = why {
            doc_refused += 1;
            refused.push(format!(
                "{} {} {}: {}",
                name,
                tool.spec().name(),
                Json::Object(args),
                why
            ));
        }
    }
    eprintln!(
        "{}: {} of {} sampled operations accepted",
        name,
        sent - doc_refused,
        sent
    );
    sent
}

/// Prism's refusal kind in a response body, if it is one.
fn refusal(body: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    REFUSALS
        .iter()
        .find(|kind| text.contains(&format!("prism/errors#{}", kind)))
        .map(|kind| {
            let detail = Json::to_string(
                &ParseOptions::new()
                    .parse(&text)
                    .ok()
                    .and_then(|v| v.get("validation").cloned())
                    .unwrap_or(Json::Null),
            );
            format!("{} {}", kind, detail.chars().take(400).collect::<String>())
        })
}

#[test]
#[ignore = "needs Stoplight Prism: set HTTPTOOL_PRISM and run with --ignored (.ci/run does)"]
fn prism_accepts_the_requests() {
    let prism = std::env::var("HTTPTOOL_PRISM").expect("HTTPTOOL_PRISM names the prism executable");
    // HTTPTOOL_PRISM_DIR=/some/folder runs the JSON documents of another folder instead (a
    // description too large or not licensed to keep in ../shared, such as GitHub's).
    let dir = match std::env::var_os("HTTPTOOL_PRISM_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/openapi"),
    };
    let mut docs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().map_or(false, |x| x == "json"))
        .collect();
    docs.sort();
    // HTTPTOOL_PRISM_ONLY=discord runs the documents whose name holds it (for a quick look).
    if let Ok(only) = std::env::var("HTTPTOOL_PRISM_ONLY") {
        docs.retain(|p| p.to_string_lossy().contains(&only));
    }
    assert!(!docs.is_empty());
    let (mut sent, mut refused) = (0usize, Vec::new());
    for path in &docs {
        let text = std::fs::read_to_string(path).unwrap();
        let doc = ParseOptions::new().parse(&text).unwrap();
        let port = free_port();
        let _prism = start(&prism, path, port);
        let plugin = plugin_for(&doc, port);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        sent += send_sample(&plugin, SAMPLE, &name, &mut refused);
    }
    for line in &refused {
        eprintln!("refused: {}", line);
    }
    let accepted = sent - refused.len();
    eprintln!("prism accepted {} of {} requests", accepted, sent);
    assert!(
        accepted * 100 >= sent * 98,
        "prism accepted {} of {} requests (98% needed)",
        accepted,
        sent
    );
}

/// Documents of the APIs-guru directory in the sample, and operations sent per document.
const DIRECTORY_DOCUMENTS: usize = 30;
const DIRECTORY_OPERATIONS: usize = 4;
/// Documents in the sample whose path items or operations carry their own `servers`.
const DIRECTORY_PER_PATH_SERVERS: usize = 4;

/// The APIs-guru directory's documents, in a fixed pseudo-random order (a seeded
/// xorshift over the sorted names), so the sample is the same on every run.
fn directory_order(dir: &Path) -> Vec<PathBuf> {
    let mut docs = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().map_or(false, |x| x == "json")
                && !path.to_string_lossy().contains("_index")
            {
                docs.push(path);
            }
        }
    }
    docs.sort();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in (1..docs.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        docs.swap(i, (state % (i as u64 + 1)) as usize);
    }
    docs
}

/// Whether a path item or an operation of `doc` has its own `servers`.
fn per_path_servers(doc: &Json) -> bool {
    doc.get("paths")
        .and_then(Json::as_object)
        .into_iter()
        .flat_map(|paths| paths.iter())
        .any(|(_, item)| {
            item.get("servers").is_some()
                || item.as_object().map_or(false, |ops| {
                    ops.iter().any(|(_, op)| op.get("servers").is_some())
                })
        })
}

#[test]
#[ignore = "needs Stoplight Prism and the APIs-guru directory: set HTTPTOOL_PRISM and HTTPTOOL_PRISM_DIRECTORY (.ci/run does)"]
fn prism_accepts_a_sample_of_the_directory() {
    let prism = std::env::var("HTTPTOOL_PRISM").expect("HTTPTOOL_PRISM names the prism executable");
    let dir = std::env::var_os("HTTPTOOL_PRISM_DIRECTORY")
        .map(PathBuf::from)
        .expect("HTTPTOOL_PRISM_DIRECTORY names the directory's api folder");
    let (mut sent, mut refused) = (0usize, Vec::new());
    let (mut plain, mut servers, mut unloaded) = (0usize, 0usize, Vec::new());
    for path in directory_order(&dir) {
        if plain >= DIRECTORY_DOCUMENTS - DIRECTORY_PER_PATH_SERVERS
            && servers >= DIRECTORY_PER_PATH_SERVERS
        {
            break;
        }
        // Prism takes a minute or more to load the largest; the sample keeps CI short.
        if std::fs::metadata(&path).map_or(true, |m| m.len() > 1_000_000) {
            continue;
        }
        let doc = match ParseOptions::new().parse(&std::fs::read_to_string(&path).unwrap()) {
            Ok(doc) => doc,
            Err(_) => continue,
        };
        let own_servers = per_path_servers(&doc);
        if own_servers && servers >= DIRECTORY_PER_PATH_SERVERS
            || !own_servers && plain >= DIRECTORY_DOCUMENTS - DIRECTORY_PER_PATH_SERVERS
        {
            continue;
        }
        // Documents without operations, or refused for a defect of their own, are the
        // corpus step's to count.
        let options = ImportOptions::new().include_deprecated(true);
        let import = match openapi::import_with(&doc, &options) {
            Ok(import) => import,
            Err(_) => continue,
        };
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        let port = free_port();
        let _prism = match try_start(&prism, &path, port, Duration::from_secs(60)) {
            Ok(prism) => prism,
            // A document Prism cannot load says nothing of the requests.
            Err(why) => {
                unloaded.push(format!("{}: {}", name, why));
                continue;
            }
        };
        let plugin = local_plugin(import.plugin(), port);
        sent += send_sample(&plugin, DIRECTORY_OPERATIONS, &name, &mut refused);
        if own_servers {
            servers += 1;
        } else {
            plain += 1;
        }
    }
    for line in &unloaded {
        eprintln!("not loaded by prism: {}", line);
    }
    for line in &refused {
        eprintln!("refused: {}", line);
    }
    let accepted = sent - refused.len();
    eprintln!(
        "prism accepted {} of {} requests to {} documents ({} with per-path servers)",
        accepted,
        sent,
        plain + servers,
        servers
    );
    assert_eq!(
        plain + servers,
        DIRECTORY_DOCUMENTS,
        "documents in the sample"
    );
    assert!(
        accepted * 100 >= sent * 98,
        "prism accepted {} of {} requests (98% needed)",
        accepted,
        sent
    );
}
