//! `httptool serve`: the command line of the MCP server.

use httptool::json::{self, Json};

use crate::support::cli::{httptool, mcp_answers, mcp_session, status, stderr, stdout, TempDir};
use crate::support::Server as Api;

#[test]
fn help_gives_the_client_configuration() {
    let out = httptool(&["serve", "--help"], None, &[]);
    assert_eq!(status(&out), 0);
    let help = stdout(&out);
    assert!(
        help.starts_with("usage: httptool serve PLUGIN.json..."),
        "{}",
        help
    );
    // The configuration entry in the help is JSON a client reads.
    let start = help.find("  {\n").unwrap();
    let entry = json::parse(&help[start..]).unwrap();
    assert_eq!(
        entry["mcpServers"]["weather"]["args"],
        httptool::json!(["serve", "/home/me/weather.json"])
    );
}

#[test]
fn command_line_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["serve"],
            "httptool: serve needs at least one plugin file or OpenAPI document\n",
        ),
        (
            &["serve", "x.json", "--max-concurrency", "0"],
            "httptool: --max-concurrency takes a whole number of 1 or more, got '0'\n",
        ),
        (
            &["serve", "x.json", "--page-size", "ten"],
            "httptool: --page-size takes a whole number of 0 or more, got 'ten'\n",
        ),
        (
            &["serve", "x.json", "--context", "=v"],
            "httptool: --context takes KEY=VALUE (the value may be empty, the key may not)\n",
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
        assert_eq!(stdout(&out), "");
    }
    let out = httptool(&["serve", "/nonexistent/plugin.json"], None, &[]);
    assert_eq!(status(&out), 1);
    assert!(stderr(&out).starts_with("httptool: cannot read /nonexistent/plugin.json: "));
}

#[test]
fn serves_every_tool_of_every_file_on_stdio() {
    let api = Api::json(r#"{"temp":21}"#);
    let dir = TempDir::new("serve");
    let weather = dir.file(
        "weather.json",
        &format!(
            r#"{{"name": "weather", "description": "City weather", "base_url": "{}",
                "endpoints": [{{"name": "getWeather", "path": "/w",
                  "params": [{{"name": "city", "in": "query", "required": true}},
                             {{"name": "tenant", "in": "query", "hidden": true}}]}}]}}"#,
            api.base()
        ),
    );
    let other = dir.file(
        "other.json",
        r#"{"name": "other", "base_url": "https://api.example.com",
            "endpoints": [{"name": "other_tool", "method": "POST", "path": "/o"}]}"#,
    );
    let input = mcp_session(&[
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"getWeather","arguments":{"city":"Oslo"}}}"#,
    ]);
    let out = httptool(
        &[
            "serve",
            &weather,
            &other,
            "--context",
            "tenant=acme",
            "--max-concurrency",
            "2",
        ],
        Some(&input),
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let answers = mcp_answers(&out);
    assert_eq!(answers.len(), 3, "{:?}", answers);
    assert_eq!(
        answers[0]["result"]["protocolVersion"],
        Json::from("2025-06-18")
    );
    assert_eq!(
        answers[0]["result"]["instructions"],
        Json::from("Tools of these APIs:\n- weather: City weather")
    );
    let names: Vec<&str> = answers[1]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["getWeather", "other_tool"]);
    assert_eq!(
        answers[2]["result"]["structuredContent"],
        httptool::json!({"temp": 21})
    );
    let sent = api.requests();
    assert_eq!(sent[0].target, "/w?city=Oslo&tenant=acme");
}

#[test]
fn a_name_in_two_files_is_an_error_before_serving() {
    let dir = TempDir::new("serve-dup");
    let a = dir.file(
        "a.json",
        r#"{"name": "a", "base_url": "https://api.example.com", "endpoints": [{"name": "t", "path": "/t"}]}"#,
    );
    let out = httptool(&["serve", &a, &a], None, &[]);
    assert_eq!(status(&out), 1);
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("a tool named 't' is already registered"),
        "{}",
        stderr(&out)
    );
}
