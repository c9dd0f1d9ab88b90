//! `httptool tools --catalog` and `httptool serve --catalog`: the catalog on the command
//! line and over MCP (tools/list shows three tools, call_operation reaches the API, an
//! argument error carries the schema).

use httptool::json::{self, Json};

use crate::support::cli::{httptool, mcp_answers, mcp_session, status, stderr, stdout, TempDir};
use crate::support::Server as Api;

fn plugin_file(dir: &TempDir, base: &str) -> String {
    dir.file(
        "weather.json",
        &format!(
            r#"{{"name": "weather", "base_url": "{}",
                "endpoints": [
                  {{"name": "getWeather", "description": "Current weather for a city", "path": "/w",
                    "params": [{{"name": "city", "in": "query", "required": true}}]}},
                  {{"name": "getForecast", "description": "Forecast for the coming days", "path": "/f",
                    "params": [{{"name": "days", "in": "query", "type": "integer"}}]}}]}}"#,
            base
        ),
    )
}

fn names(tools: &Json) -> Vec<String> {
    tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn tools_catalog_prints_three_tools() {
    let dir = TempDir::new("catalog-tools");
    let file = plugin_file(&dir, "https://api.example.com");
    let cases: [(&[&str], &[&str]); 5] = [
        (&[], &["getWeather", "getForecast"]),
        (
            &["--catalog"],
            &["search_operations", "describe_operation", "call_operation"],
        ),
        (&["--catalog", "auto"], &["getWeather", "getForecast"]),
        (
            &["--catalog=auto", "--catalog-max-tools", "1"],
            &["search_operations", "describe_operation", "call_operation"],
        ),
        (
            &["--catalog", "auto", "--catalog-max-bytes", "100"],
            &["search_operations", "describe_operation", "call_operation"],
        ),
    ];
    for (options, expected) in cases {
        let mut args = vec!["tools", file.as_str(), "--format", "mcp"];
        args.extend_from_slice(options);
        let out = httptool(&args, None, &[]);
        assert_eq!(status(&out), 0, "{:?}: {}", options, stderr(&out));
        let value = json::parse(&stdout(&out)).unwrap();
        assert_eq!(names(&value["tools"]), expected, "{:?}", options);
    }
    let out = httptool(&["tools", &file, "--catalog"], None, &[]);
    let value = json::parse(&stdout(&out)).unwrap();
    let description = value[0]["function"]["description"].as_str().unwrap();
    assert!(
        description.starts_with("Finds operations of the weather API (2 in all)"),
        "{}",
        description
    );
}

#[test]
fn catalog_command_line_errors() {
    let dir = TempDir::new("catalog-errors");
    let file = plugin_file(&dir, "https://api.example.com");
    let cases: [(&[&str], &str); 3] = [
        (
            &["tools", &file, "--catalog=sometimes"],
            "httptool: --catalog takes auto, always or never, got 'sometimes'\n",
        ),
        (
            &["tools", &file, "--catalog-max-tools", "5"],
            "httptool: --catalog-max-tools and --catalog-max-bytes go with --catalog auto\n",
        ),
        (
            &[
                "serve",
                &file,
                "--catalog",
                "auto",
                "--catalog-max-bytes",
                "lots",
            ],
            "httptool: --catalog-max-bytes takes a whole number, got 'lots'\n",
        ),
    ];
    for (args, message) in cases {
        let out = httptool(args, None, &[]);
        assert_eq!(status(&out), 2, "{:?}", args);
        assert!(
            stderr(&out).starts_with(message),
            "{:?}: {}",
            args,
            stderr(&out)
        );
    }
    let out = httptool(&["serve", "--help"], None, &[]);
    assert!(stdout(&out).contains("  --catalog [auto]"));
}

#[test]
fn serve_catalog_over_mcp() {
    let api = Api::json(r#"{"temp":21}"#);
    let dir = TempDir::new("catalog-serve");
    let file = plugin_file(&dir, &api.base());
    let input = mcp_session(&[
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_operations","arguments":{"query":"the forecast for the coming week","limit":1}}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"call_operation","arguments":{"name":"getWeather","arguments":{"city":"Oslo"}}}}"#,
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"call_operation","arguments":{"name":"getWeather","arguments":{"town":"Oslo"}}}}"#,
    ]);
    // One call at a time, so the answers come in order.
    let out = httptool(
        &["serve", &file, "--catalog", "--max-concurrency", "1"],
        Some(&input),
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let answers = mcp_answers(&out);
    assert_eq!(answers.len(), 5, "{:?}", answers);
    assert_eq!(
        names(&answers[1]["result"]["tools"]),
        ["search_operations", "describe_operation", "call_operation"]
    );
    assert_eq!(
        answers[2]["result"]["structuredContent"]["operations"][0]["name"],
        Json::from("getForecast")
    );
    assert_eq!(
        answers[3]["result"]["structuredContent"],
        httptool::json!({"temp": 21})
    );
    assert_eq!(answers[3]["result"]["isError"], Json::from(false));
    assert_eq!(api.requests()[0].target, "/w?city=Oslo");
    let error = &answers[4]["result"];
    assert_eq!(error["isError"], Json::from(true));
    let text = error["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("unknown parameter 'town'"), "{}", text);
    assert!(
        text.contains(
            r#"follow this JSON Schema; call again with arguments that match it:
{"type":"object","properties":{"city":"#
        ),
        "{}",
        text
    );
    assert_eq!(api.requests().len(), 1);
}
