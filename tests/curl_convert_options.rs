//! The curl options and headers carried over: `--url-query`, `-r/--range`, any
//! token method, abbreviated long options, a virtual `Host`, a GET with a body,
//! `Cache-Control` and `Pragma`. Each is read, converted, written back to a plugin file and
//! read again, exported to curl, and (for what goes on the wire) sent to a loopback server.

use httptool::curl::{self, ErrorKind, Import, ImportOptions};
use httptool::http::{Method, Request};
use httptool::plugin::HttpPlugin;
use httptool::tool::{CallContext, ToolCall, ToolRegistry};

use crate::support::Server;

fn parse(command: &str) -> curl::CurlCommand {
    curl::parse(command).unwrap_or_else(|e| panic!("{}: {}", command, e))
}

fn import(command: &str) -> Import {
    curl::to_plugin_with(&parse(command), &ImportOptions::new())
        .unwrap_or_else(|e| panic!("{}: {}", command, e))
}

fn replay(import: &Import) -> Request {
    let arguments = httptool::json::Json::Object(import.sample_arguments().clone()).to_string();
    import
        .plugin()
        .dry_run(import.tool_name(), &arguments, &CallContext::new())
        .unwrap_or_else(|output| panic!("{}", output.text()))
        .into_request()
}

/// curl -> plugin -> file -> plugin: the file reads back to itself.
fn round_trip(import: &Import) -> HttpPlugin {
    let text = import.plugin().to_json().to_string();
    let again =
        HttpPlugin::from_json_with(&text, |_| None).unwrap_or_else(|e| panic!("{}: {}", text, e));
    assert_eq!(again.to_json().to_string(), text);
    again
}

// ------------------------------------------------------------------ --url-query

#[test]
fn url_query_name_value_is_encoded_and_added() {
    let cmd = parse("curl https://api.example.com/v1/search?a=1 --url-query 'q=hello world&x'");
    assert_eq!(
        cmd.url(),
        "https://api.example.com/v1/search?a=1&q=hello%20world%26x"
    );
    let import = import("curl https://api.example.com/v1/search --url-query 'q=hello world'");
    assert_eq!(
        replay(&import).url().as_str(),
        "https://api.example.com/v1/search?q=hello%20world"
    );
}

#[test]
fn url_query_without_name_and_with_equals() {
    let cmd = parse("curl x.example/p --url-query 'a b' --url-query '=c&d'");
    assert_eq!(cmd.url(), "http://x.example/p?a%20b&c%26d");
}

#[test]
fn url_query_plus_prefix_is_not_encoded() {
    let cmd = parse("curl 'x.example/p?' --url-query '+a=b%20c&d=e' --url-query 'f=g'");
    assert_eq!(cmd.url(), "http://x.example/p?a=b%20c&d=e&f=g");
}

#[test]
fn url_query_goes_before_the_fragment() {
    let cmd = parse("curl 'x.example/p#frag' --url-query a=1");
    assert_eq!(cmd.url(), "http://x.example/p?a=1#frag");
}

#[test]
fn url_query_from_a_file_is_refused() {
    for arg in ["a@f.txt", "@f.txt"] {
        let err = curl::parse(&format!("curl x.example --url-query {}", arg)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unsupported, "{}", arg);
    }
}

#[test]
fn url_query_becomes_a_parameter_and_exports() {
    let import = import("curl https://api.example.com/v1/items --url-query limit=10");
    let plugin = round_trip(&import);
    let endpoint = plugin.endpoints().next().expect("one endpoint");
    assert!(endpoint.param("limit").is_some());
    let line = curl::to_curl(&plugin, import.tool_name()).expect("exports");
    assert!(line.contains("items?limit=<limit>"), "{}", line);
}

// ------------------------------------------------------------------ -r/--range

#[test]
fn range_becomes_the_range_header() {
    let cmd = parse("curl -r 0-499 https://files.example.com/v1/big.bin");
    assert_eq!(cmd.header("range"), Some("bytes=0-499"));
    let import = import("curl --range 500-,-10 https://files.example.com/v1/big.bin");
    let plugin = round_trip(&import);
    assert!(plugin
        .to_json()
        .to_string()
        .contains(r#""Range":"bytes=500-,-10""#));
    let line = curl::to_curl(&plugin, import.tool_name()).expect("exports");
    assert!(line.contains("-H 'Range: bytes=500-,-10'"), "{}", line);
}

#[test]
fn range_without_a_dash_gets_one_with_a_note() {
    let cmd = parse("curl -r 100 https://files.example.com/f");
    assert_eq!(cmd.header("range"), Some("bytes=100-"));
    assert!(cmd
        .notes()
        .iter()
        .any(|n| n.message().contains("read as `100-`")));
}

#[test]
fn explicit_range_header_wins_over_range_option() {
    let cmd = parse("curl -r 0-1 -H 'Range: bytes=5-6' https://files.example.com/f");
    let ranges: Vec<&str> = cmd
        .headers()
        .iter()
        .filter(|h| h.name().eq_ignore_ascii_case("range"))
        .map(|h| h.value())
        .collect();
    assert_eq!(ranges, ["bytes=5-6"]);
}

// ------------------------------------------------------------------ methods

#[test]
fn token_methods_are_kept_as_written() {
    for method in ["PROPFIND", "PURGE", "wHat", "M-SEARCH"] {
        let import = import(&format!(
            "curl -X {} https://dav.example.com/v1/files",
            method
        ));
        let endpoint = import.plugin().endpoints().next().expect("one endpoint");
        assert_eq!(endpoint.method().as_str(), method);
        assert!(matches!(endpoint.method(), Method::Extension(_)));
        assert!(!import
            .notes()
            .iter()
            .any(|n| n.message().contains("sends the method")));
        let plugin = round_trip(&import);
        let line = curl::to_curl(&plugin, import.tool_name()).expect("exports");
        assert!(line.contains(&format!("-X {}", method)), "{}", line);
        assert_eq!(parse(&line).method(), method);
    }
}

#[test]
fn token_methods_get_no_safe_hints() {
    let import = import("curl -X PURGE https://cdn.example.com/v1/assets");
    let hints = import
        .plugin()
        .endpoints()
        .next()
        .expect("one")
        .annotations();
    assert_eq!(hints.read_only, Some(false));
    assert_eq!(hints.idempotent, None);
    let get = import_get();
    assert_eq!(get.read_only, Some(true));
}

fn import_get() -> httptool::tool::ToolAnnotations {
    let import = import("curl https://cdn.example.com/v1/assets");
    let hints = import
        .plugin()
        .endpoints()
        .next()
        .expect("one")
        .annotations();
    hints
}

#[test]
fn lowercase_known_method_is_sent_upper_case_with_a_note() {
    let import = import("curl -X get https://api.example.com/v1/items");
    assert_eq!(
        import.plugin().endpoints().next().expect("one").method(),
        Method::Get
    );
    assert!(import
        .notes()
        .iter()
        .any(|n| n.message().contains("httptool sends `GET`")));
}

#[test]
fn token_method_with_a_json_body_sends_it() {
    let import =
        import("curl -X QUERY https://api.example.com/v1/items --json '{\"filter\": \"open\"}'");
    let request = replay(&import);
    assert_eq!(request.method().as_str(), "QUERY");
    assert_eq!(request.body(), br#"{"filter":"open"}"#);
}

// ------------------------------------------------------------------ abbreviations

#[test]
fn unambiguous_prefixes_read_as_the_option() {
    let cmd = parse("curl --sil --head x.example --user-ag bot/1 --max-ti 5");
    assert!(cmd.head());
    assert_eq!(cmd.user_agent(), Some("bot/1"));
    assert_eq!(cmd.max_time(), Some(std::time::Duration::from_secs(5)));
    // `--req` could be `--request` or `--request-target`.
    let err = curl::parse("curl --req PUT x.example").unwrap_err();
    assert_eq!(
        err.to_string(),
        "ambiguous option --req (argument 1): it may be --request, --request-target; write \
         more of its name"
    );
}

#[test]
fn exact_name_wins_over_longer_names() {
    // `--data` is a prefix of `--data-raw`, `--data-binary`, ...: written out, it is itself.
    let cmd = parse("curl --data a=1 --compressed x.example");
    assert_eq!(cmd.data()[0].text(), Some("a=1"));
    assert!(cmd.compressed());
}

#[test]
fn ambiguous_prefix_lists_every_candidate() {
    let cmd = parse("curl x.example --data-b a=1");
    assert_eq!(cmd.data()[0].text(), Some("a=1"));
    let err = curl::parse("curl x.example --data-b a=1 --http").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AmbiguousOption);
    assert_eq!(err.arg_index(), Some(4));
    assert!(
        err.to_string()
            .contains("it may be --http0.9, --http1.0, --http1.1, --http2"),
        "{}",
        err
    );
}

// ------------------------------------------------------------------ headers

#[test]
fn host_naming_another_host_is_kept() {
    let import = import("curl http://10.0.0.5:8080/v1/status -H 'Host: api.internal'");
    let plugin = round_trip(&import);
    assert!(plugin
        .to_json()
        .to_string()
        .contains(r#""Host":"api.internal""#));
    let request = replay(&import);
    assert_eq!(request.host(), Some("api.internal"));
    assert_eq!(request.headers().get("host"), None);
    let line = curl::to_curl(&plugin, import.tool_name()).expect("exports");
    assert!(line.contains("-H 'Host: api.internal'"), "{}", line);
}

#[test]
fn host_naming_the_url_host_is_dropped() {
    for header in ["Host: api.example.com", "host: API.example.com:443"] {
        let import = import(&format!(
            "curl https://api.example.com/v1/status -H '{}'",
            header
        ));
        assert!(
            !import.plugin().to_json().to_string().contains("Host"),
            "{}",
            header
        );
        let notes: Vec<String> = import.notes().iter().map(|n| n.to_string()).collect();
        assert!(
            notes.iter().any(|n| n.contains("URL's own host")),
            "{}: {:?} {}",
            header,
            notes,
            import.plugin().to_json()
        );
    }
}

#[test]
fn plugin_host_header_cannot_inject_or_be_a_parameter() {
    let base = r#"{"name": "p", "base_url": "http://127.0.0.1:1", "headers": {"Host": HOST},
        "endpoints": [{"name": "t", "path": "/x"}]}"#;
    for bad in [
        r#""a b""#,
        r#""a\r\nX-Evil: 1""#,
        r#""""#,
        r#"{"context": "h"}"#,
    ] {
        let text = base.replace("HOST", bad);
        let err = HttpPlugin::from_json(&text).unwrap_err();
        assert!(
            err.to_string().starts_with("headers.Host: "),
            "{}: {}",
            bad,
            err
        );
    }
    let param = r#"{"name": "p", "base_url": "http://127.0.0.1:1",
        "endpoints": [{"name": "t", "path": "/x", "params": [{"name": "Host", "in": "header"}]}]}"#;
    assert!(HttpPlugin::from_json(param).is_err());
}

#[test]
fn cache_control_and_pragma_are_kept() {
    let import = import(
        "curl https://api.example.com/v1/feed -H 'Cache-Control: no-cache' -H 'Pragma: no-cache' -H 'sec-fetch-mode: cors'",
    );
    let request = replay(&import);
    assert_eq!(request.headers().get("cache-control"), Some("no-cache"));
    assert_eq!(request.headers().get("pragma"), Some("no-cache"));
    assert_eq!(request.headers().get("sec-fetch-mode"), None);
}

// ------------------------------------------------------------------ GET with a body

#[test]
fn get_with_a_body_round_trips() {
    let import = import(
        r#"curl -X GET "https://search.example.com/my-index/_search" -H 'Content-Type: application/json' -d '{"size": 2}'"#,
    );
    let plugin = round_trip(&import);
    assert!(plugin
        .to_json()
        .to_string()
        .contains(r#""allow_get_body":true"#));
    let line = curl::to_curl(&plugin, import.tool_name()).expect("exports");
    assert!(line.contains("-X GET"), "{}", line);
    assert!(line.contains("--data-binary"), "{}", line);
    let again = parse(&line);
    assert_eq!(again.method(), "GET");
}

#[test]
fn get_endpoint_with_body_params_and_no_option_sends_a_query() {
    let text = r#"{"name": "s", "base_url": "https://search.example.com",
        "endpoints": [{"name": "search", "path": "/_search", "params": [{"name": "size", "type": "integer"}]}]}"#;
    let plugin = HttpPlugin::from_json(text).unwrap();
    let request = plugin
        .dry_run("search", r#"{"size": 2}"#, &CallContext::new())
        .unwrap_or_else(|o| panic!("{}", o.text()))
        .into_request();
    assert_eq!(request.url().query(), Some("size=2"));
    assert!(request.body().is_empty());
}

// ------------------------------------------------------------------ on the wire

#[test]
fn imported_requests_go_out_as_written() {
    let server = Server::json(r#"{"ok": true}"#);
    let commands = [
        format!(
            r#"curl -X GET {} -H 'Content-Type: application/json' -d '{{"size": 2}}'"#,
            server.url("/idx/_search")
        ),
        format!("curl -X PROPFIND {}", server.url("/dav/files")),
        format!("curl {} -H 'Host: api.internal'", server.url("/status")),
    ];
    let mut registry = ToolRegistry::new();
    let mut tools = Vec::new();
    for (i, command) in commands.iter().enumerate() {
        let options = ImportOptions::new()
            .plugin_name(format!("p{}", i))
            .tool_name(format!("t{}", i));
        let import = curl::to_plugin_with(&parse(command), &options).expect("converts");
        // Through the file, as a user would.
        let plugin = round_trip(&import);
        registry.add_plugin(&plugin).expect("adds");
        let arguments = httptool::json::Json::Object(import.sample_arguments().clone());
        tools.push((format!("t{}", i), arguments.to_string()));
    }
    for (name, arguments) in &tools {
        let out = registry.call(&ToolCall::new("1", name, arguments));
        assert!(!out.is_error(), "{}: {}", name, out.text());
    }
    let seen = server.requests();
    assert_eq!(seen.len(), 3);
    assert_eq!(seen[0].method, "GET");
    assert_eq!(seen[0].target, "/idx/_search");
    assert_eq!(seen[0].body, br#"{"size":2}"#);
    assert_eq!(seen[0].header("content-length").as_deref(), Some("10"));
    assert_eq!(seen[1].method, "PROPFIND");
    assert_eq!(seen[1].target, "/dav/files");
    assert_eq!(seen[2].header("host").as_deref(), Some("api.internal"));
    assert_eq!(
        seen[2].head.matches("\r\nHost:").count(),
        1,
        "{}",
        seen[2].head
    );
}
