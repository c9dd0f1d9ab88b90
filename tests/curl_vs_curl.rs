//! The real `curl` against the converted tool, on one loopback server.
//!
//! For each command: `/usr/bin/curl` runs it (argv from httptool's own shell reader, never a
//! shell), the converted tool is called through a `ToolRegistry` with the arguments that
//! replay the sample, and `curl` runs the command `to_curl_call` writes for that call. The
//! server records the three requests:
//!
//! - the tool's request must match curl's but for the differences the `curl` module docs
//!   list ("What differs from curl's own request"): curl's own `Accept: */*` and
//!   `User-Agent`, headers the conversion left out (its notes say which), bodies compared
//!   as JSON values, decoded form pairs or multipart parts;
//! - the exported command's request must be the tool's, byte for byte in the body and
//!   header for header, but curl's `Accept: */*` (and a multipart boundary).
//!
//! Under `CI=true` a missing curl fails the test; elsewhere the test says so and passes.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use httptool::curl::{self, ImportOptions};
use httptool::json::{self, Json};
use httptool::plugin::{FilePart, FileResolver};
use httptool::tool::{CallContext, ToolCall, ToolRegistry};
use httptool::url;

use crate::support::{ok, Received, Server};

const CURL: &str = "/usr/bin/curl";

/// Whether curl is there; under CI its absence is a failure.
fn have_curl() -> bool {
    if Path::new(CURL).exists() {
        return true;
    }
    let ci = std::env::var("CI").map_or(false, |v| v == "true");
    assert!(
        !ci,
        "{} is missing; CI must have curl for these tests",
        CURL
    );
    eprintln!("skipped: {} is not installed", CURL);
    false
}

/// How bodies are compared between curl's request and the tool's.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Body {
    None,
    Json,
    Form,
    Multipart,
}

/// A request as the server read it, taken apart.
#[derive(Debug)]
struct Seen {
    method: String,
    path: Vec<u8>,
    query: Vec<(String, String)>,
    /// Lower-case names, values as sent, in order.
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Seen {
    fn new(received: &Received) -> Seen {
        let (path, query) = match received.target.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (received.target.as_str(), None),
        };
        let query = query.map_or_else(Vec::new, |q| {
            url::Url::parse(&format!("http://x/?{}", q))
                .map(|u| u.query_pairs().collect())
                .unwrap_or_else(|_| vec![("<unparsable query>".to_string(), q.to_string())])
        });
        let headers = received
            .head
            .split("\r\n")
            .skip(1)
            .filter(|line| !line.is_empty())
            .map(|line| {
                let (name, value) = line.split_once(':').unwrap_or((line, ""));
                (name.to_ascii_lowercase(), value.trim().to_string())
            })
            .collect();
        Seen {
            method: received.method.clone(),
            path: url::percent_decode(path),
            query,
            headers,
            body: received.body.clone(),
        }
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Headers but `skip`, a repeated name's values joined with `, ` (RFC 9110 section
    /// 5.3), sorted by name (the two clients order them differently).
    fn headers_without(&self, skip: &[&str]) -> Vec<(String, String)> {
        let mut headers: Vec<(String, String)> = Vec::new();
        for (name, value) in &self.headers {
            if skip.contains(&name.as_str()) {
                continue;
            }
            match headers.iter_mut().find(|(n, _)| n == name) {
                Some((_, joined)) => {
                    joined.push_str(", ");
                    joined.push_str(value);
                }
                None => headers.push((name.clone(), value.clone())),
            }
        }
        headers.sort();
        headers
    }
}

/// Runs curl with these arguments (argv[0] is dropped) and returns what the server read.
fn run_curl(words: &[Vec<u8>], server: &Server, before: usize) -> Seen {
    let args: Vec<OsString> = words[1..]
        .iter()
        .map(|w| OsString::from_vec(w.clone()))
        .collect();
    let output = Command::new(CURL)
        .args(&args)
        .args(["-sS", "--max-time", "20"])
        .stdin(Stdio::null())
        .output()
        .expect("run curl");
    assert!(
        output.status.success(),
        "curl failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    next_request(server, before)
}

/// The request after the first `before` ones. Called once its response came back: the
/// server records a request before it answers, so there is nothing to wait for.
fn next_request(server: &Server, before: usize) -> Seen {
    let requests = server.requests();
    let received = requests.get(before).expect("the request was recorded");
    Seen::new(received)
}

/// Files for multipart calls: the handle is a path the test wrote; the part's type is what
/// curl guesses for a `.txt` file.
struct TestFiles;

impl FileResolver for TestFiles {
    fn resolve(
        &self,
        handle: &str,
        _context: &CallContext,
    ) -> Result<FilePart, Box<dyn std::error::Error + Send + Sync>> {
        let bytes = std::fs::read(handle)?;
        let name = Path::new(handle)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(FilePart::new(name, "text/plain", bytes))
    }
}

/// One comparison: curl, the tool, then curl with the exported command.
struct Case {
    command: String,
    options: ImportOptions,
    body: Body,
}

impl Case {
    fn new(command: &str, server: &Server, body: Body) -> Case {
        Case {
            command: command.replace("PORT", &server.port().to_string()),
            options: ImportOptions::new(),
            body,
        }
    }

    fn options(mut self, options: ImportOptions) -> Case {
        self.options = options;
        self
    }

    fn run(self, server: &Server) {
        let words: Vec<Vec<u8>> = curl::shell_words(&self.command).expect("the command splits");
        let cmd = curl::parse(&self.command).expect("the command parses");
        let import = curl::to_plugin_with(&cmd, &self.options).expect("the command converts");
        let plugin = import
            .plugin()
            .clone()
            .with_file_resolver(Arc::new(TestFiles));
        let left_out = left_out_headers(&import);
        let arguments = Json::Object(import.sample_arguments().clone()).to_string();

        let before = server.requests().len();
        let by_curl = run_curl(&words, server, before);

        let mut registry = ToolRegistry::new();
        registry.add_plugin(&plugin).expect("register the tool");
        let call = ToolCall::new("call_1", import.tool_name(), arguments.as_str());
        let output = registry.call(&call);
        assert!(!output.is_error(), "{}: {}", self.command, output.text());
        let by_tool = next_request(server, before + 1);
        let secret_query = secret_query_names(&plugin);
        assert_like_curl(
            &self.command,
            &cmd,
            &by_curl,
            &by_tool,
            self.body,
            &left_out,
            &secret_query,
        );

        let options = curl::ExportOptions::new().reveal_secrets(true);
        let exported = curl::to_curl_with(&plugin, None, Some(&arguments), &options)
            .expect("the call exports");
        let exported_words = curl::shell_words(&exported).expect("the export splits");
        let by_export = run_curl(&exported_words, server, before + 2);
        assert_export_sends_the_same(&exported, &by_tool, &by_export, self.body);
    }
}

/// The query names the plugin sends as credentials: its auth's and secret parameters'.
fn secret_query_names(plugin: &httptool::plugin::HttpPlugin) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(httptool::plugin::Auth::Query { name, .. }) = plugin.auth() {
        names.push(name.clone());
    }
    for endpoint in plugin.endpoints() {
        let secret = endpoint.params().iter().filter(|p| p.is_secret());
        names.extend(secret.map(|p| p.wire_name().to_string()));
    }
    names
}

/// The lower-case names of the headers the conversion left out, from its notes.
fn left_out_headers(import: &curl::Import) -> Vec<String> {
    import
        .notes()
        .iter()
        .filter_map(|note| {
            let rest = note.message().strip_prefix("header `")?;
            let (name, tail) = rest.split_once('`')?;
            tail.starts_with(" is left out")
                .then(|| name.to_ascii_lowercase())
        })
        .collect()
}

fn assert_like_curl(
    command: &str,
    cmd: &curl::CurlCommand,
    by_curl: &Seen,
    by_tool: &Seen,
    body: Body,
    left_out: &[String],
    secret_query: &[String],
) {
    assert_eq!(by_tool.method, by_curl.method, "{}", command);
    assert_eq!(by_tool.path, by_curl.path, "{}", command);
    // Credentials in the query come after the parameters.
    let mut query = by_curl.query.clone();
    let secret = |name: &str| secret_query.iter().any(|s| s == name);
    query.sort_by_key(|(name, _)| secret(name));
    assert_eq!(by_tool.query, query, "{}", command);
    // Documented differences: curl's own Accept and User-Agent, the headers left out, and
    // the framing headers of a body written another way.
    let mut skip: Vec<&str> = left_out.iter().map(String::as_str).collect();
    if cmd.compressed() {
        skip.push("accept-encoding");
    }
    if cmd.header("accept").is_none() {
        assert_eq!(by_curl.header("accept"), Some("*/*"), "{}", command);
        assert_eq!(by_tool.header("accept"), None, "{}", command);
        skip.push("accept");
    }
    if cmd.header("user-agent").is_none() && cmd.user_agent().is_none() {
        skip.push("user-agent");
    }
    if body != Body::None {
        skip.push("content-length");
    }
    // A POST, PUT or PATCH without a body: `Content-Length: 0` (RFC 9110 section 8.6),
    // where `curl -X POST` sends none.
    if body == Body::None && by_curl.header("content-length").is_none() {
        let method = by_tool.method.as_str();
        if matches!(method, "POST" | "PUT" | "PATCH") {
            assert_eq!(by_tool.header("content-length"), Some("0"), "{}", command);
            skip.push("content-length");
        }
    }
    if body == Body::Multipart {
        skip.push("content-type");
        let essence = |s: &Seen| {
            s.header("content-type")
                .map(|v| v.split(';').next().unwrap_or("").to_string())
        };
        assert_eq!(essence(by_tool), essence(by_curl), "{}", command);
    }
    assert_eq!(
        by_tool.headers_without(&skip),
        by_curl.headers_without(&skip),
        "{}",
        command
    );
    assert_same_body(command, by_curl, by_tool, body);
}

fn assert_same_body(command: &str, expected: &Seen, actual: &Seen, body: Body) {
    match body {
        Body::None => {
            assert!(
                expected.body.is_empty() && actual.body.is_empty(),
                "{}",
                command
            )
        }
        Body::Json => assert_eq!(
            json::parse_bytes(&actual.body).ok(),
            Some(json::parse_bytes(&expected.body).expect("curl sent JSON")),
            "{}",
            command
        ),
        Body::Form => assert_eq!(
            form_pairs(&actual.body),
            form_pairs(&expected.body),
            "{}",
            command
        ),
        Body::Multipart => assert_eq!(parts(actual), parts(expected), "{}", command),
    }
}

fn form_pairs(body: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(body);
    text.split('&')
        .filter(|p| !p.is_empty())
        .map(|piece| {
            let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
            let decode = |s: &str| String::from_utf8_lossy(&url::form_decode(s)).into_owned();
            (decode(name), decode(value))
        })
        .collect()
}

/// `(name, filename, content)` of each multipart part, in order.
fn parts(seen: &Seen) -> Vec<(String, Option<String>, Vec<u8>)> {
    let content_type = seen.header("content-type").unwrap_or("");
    let boundary = content_type
        .split(';')
        .find_map(|p| p.trim().strip_prefix("boundary="))
        .expect("a multipart boundary");
    let delimiter = format!("--{}", boundary);
    let body = seen.body.as_slice();
    let mut out = Vec::new();
    let mut pieces = split_bytes(body, delimiter.as_bytes());
    pieces.remove(0); // the preamble
    for piece in pieces {
        if piece.starts_with(b"--") {
            break;
        }
        let piece = piece
            .strip_prefix(b"\r\n")
            .expect("a CRLF after the delimiter");
        let piece = piece
            .strip_suffix(b"\r\n")
            .expect("a CRLF before the delimiter");
        let split = find(piece, b"\r\n\r\n").expect("a part head");
        let head = String::from_utf8_lossy(&piece[..split]).into_owned();
        let content = piece[split + 4..].to_vec();
        let disposition = head.split("\r\n").next().unwrap_or("");
        let param = |key: &str| {
            disposition.split("; ").find_map(|p| {
                let value = p.strip_prefix(key)?.strip_prefix("=\"")?;
                Some(value.trim_end_matches('"').to_string())
            })
        };
        let name = param("name").expect("a part name");
        let filename = param("filename");
        out.push((name, filename, content));
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn split_bytes<'a>(mut hay: &'a [u8], needle: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    while let Some(at) = find(hay, needle) {
        out.push(&hay[..at]);
        hay = &hay[at + needle.len()..];
    }
    out.push(hay);
    out
}

fn assert_export_sends_the_same(exported: &str, by_tool: &Seen, by_export: &Seen, body: Body) {
    assert_eq!(by_export.method, by_tool.method, "{}", exported);
    assert_eq!(by_export.path, by_tool.path, "{}", exported);
    assert_eq!(by_export.query, by_tool.query, "{}", exported);
    // curl adds its Accept when the request has none; a multipart body has its boundary.
    let mut skip = vec![];
    if by_tool.header("accept").is_none() {
        assert_eq!(by_export.header("accept"), Some("*/*"), "{}", exported);
        skip.push("accept");
    }
    if body == Body::Multipart {
        skip.extend(["content-type", "content-length"]);
        assert_eq!(parts(by_export), parts(by_tool), "{}", exported);
    } else {
        assert_eq!(by_export.body, by_tool.body, "{}", exported);
    }
    assert_eq!(
        by_export.headers_without(&skip),
        by_tool.headers_without(&skip),
        "{}",
        exported
    );
}

fn server() -> Server {
    Server::replying(|_| ok("{}").into_bytes())
}

#[test]
fn get_with_query_and_browser_headers() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl 'http://127.0.0.1:PORT/api/v2/stories?page=2&per_page=30&q=rust+http&tag=a&tag=b' \\\n  -H 'accept: application/json' \\\n  -H 'accept-language: en-US,en;q=0.9' \\\n  -H 'sec-fetch-mode: cors' \\\n  -H 'user-agent: Mozilla/5.0 (X11; Linux x86_64)' \\\n  --compressed",
        &server,
        Body::None,
    )
    .run(&server);
}

#[test]
fn json_post_with_a_bearer_token() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        r#"curl http://127.0.0.1:PORT/v1/tickets -H 'Authorization: Bearer t0ken-123' --json '{"title": "Printer on fire", "priority": 2, "ratio": 0.5, "urgent": true, "tags": ["hw", "urgent"], "meta": {"floor": 3, "remote": false, "names": ["Zoë", "杭州"]}}'"#,
        &server,
        Body::Json,
    )
    .run(&server);
}

#[test]
fn form_post_with_basic_auth() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl http://127.0.0.1:PORT/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dc: -d amount=2000 -d currency=usd -d 'description=My First Test Charge' -d 'metadata[order_id]=6735'",
        &server,
        Body::Form,
    )
    .run(&server);
}

#[test]
fn urlencoded_data_with_credentials_in_the_url() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl -X POST 'http://AC0123:t%40k3n@127.0.0.1:PORT/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json' --data-urlencode 'Body=Hello from Twilio & co' --data-urlencode 'From=+15017122661' --data-urlencode 'To=+15558675310'",
        &server,
        Body::Form,
    )
    .run(&server);
}

#[test]
fn get_data_goes_to_the_query_with_an_api_key_header() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl -G http://127.0.0.1:PORT/search?lang=en -d q=rust+http --data-urlencode 'scope=title & body' -H 'X-Api-Key: k3y-123'",
        &server,
        Body::None,
    )
    .run(&server);
}

#[test]
fn put_json_with_inferred_path_parameters_and_defaults() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        r#"curl -X PUT http://127.0.0.1:PORT/users/42/orders/7f3c9a12 -H 'Content-Type: application/json; charset=utf-8' -d '{"status": "shipped", "items": [{"sku": "A-1", "qty": 2}, {"sku": "B-2", "qty": 1, "gift": true}]}'"#,
        &server,
        Body::Json,
    )
    .options(
        ImportOptions::new()
            .infer_path_params(true)
            .sample_defaults(true),
    )
    .run(&server);
}

#[test]
fn delete_with_an_api_key_in_the_query() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl -X DELETE 'http://127.0.0.1:PORT/v1/files/9?api_key=s3cr3t&force=true'",
        &server,
        Body::None,
    )
    .run(&server);
}

#[test]
fn cookies_referer_and_user_agent_options() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl http://127.0.0.1:PORT/me -b 'sid=abc123; theme=dark' -b lang=en -e http://127.0.0.1:PORT/home -A 'Mozilla/5.0 (test)'",
        &server,
        Body::None,
    )
    .run(&server);
}

#[test]
fn multipart_with_text_and_a_file() {
    if !have_curl() {
        return;
    }
    let dir = TempDir::new();
    let file = dir.0.join("note.txt");
    std::fs::write(&file, b"line one\r\nline two\n\xe2\x82\xac").expect("write the file");
    let server = server();
    let command = format!(
        "curl -F title=Report -F n=3 -F 'doc=@{}' -F 'tag=a' -F 'tag=b' http://127.0.0.1:PORT/v1/files",
        file.display()
    );
    Case::new(&command, &server, Body::Multipart).run(&server);
}

/// A directory of its own, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new() -> TempDir {
        let name = format!("httptool-curl-vs-curl-{}", std::process::id());
        let dir = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn browser_multipart_copied_as_data() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl 'http://127.0.0.1:PORT/submit' \\\n  -H 'content-type: multipart/form-data; boundary=----WebKitFormBoundaryq1w2e3' \\\n  -H 'origin: http://127.0.0.1:PORT' \\\n  --data-raw $'------WebKitFormBoundaryq1w2e3\\r\\nContent-Disposition: form-data; name=\"title\"\\r\\n\\r\\nHello there\\r\\n------WebKitFormBoundaryq1w2e3\\r\\nContent-Disposition: form-data; name=\"count\"\\r\\n\\r\\n7\\r\\n------WebKitFormBoundaryq1w2e3--\\r\\n'",
        &server,
        Body::Multipart,
    )
    .run(&server);
}

#[test]
fn json_array_body_and_unicode_query() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl 'http://127.0.0.1:PORT/v1/batch?city=Hangzhou%20%E6%9D%AD%E5%B7%9E' -H 'Content-Type: application/json' --data-binary '[{\"id\": 1}, {\"id\": 2, \"note\": \"two\"}]'",
        &server,
        Body::Json,
    )
    .run(&server);
}

#[test]
fn head_request() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl -I http://127.0.0.1:PORT/status?verbose=1",
        &server,
        Body::None,
    )
    .run(&server);
}

#[test]
fn patch_form_with_repeated_fields_and_a_custom_header() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl -X PATCH http://127.0.0.1:PORT/v2/profile -H 'X-Request-Id: 7' -H 'X-Request-Id: 8' -d 'role=admin&role=owner' -d 'name=Ann+Lee' -d 'zip=00501'",
        &server,
        Body::Form,
    )
    .run(&server);
}

#[test]
fn json_labelled_as_a_form_by_curl() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        r#"curl -X POST http://127.0.0.1:PORT/repos/octocat/hello/issues -H 'Accept: application/vnd.github+json' -d '{"title":"Found a bug","labels":["bug"],"milestone":1}'"#,
        &server,
        Body::Json,
    )
    .run(&server);
}

#[test]
fn empty_post() {
    if !have_curl() {
        return;
    }
    let server = server();
    Case::new(
        "curl -X POST http://127.0.0.1:PORT/v1/jobs/9/cancel -H 'Authorization: Token abc'",
        &server,
        Body::None,
    )
    .run(&server);
}
