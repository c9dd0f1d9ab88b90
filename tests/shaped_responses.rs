//! Shaped responses: `response_fields` projects a JSON response before the model reads it,
//! the `fields` argument lets the model choose (documented in its schema, checked like any
//! argument), JSON over the output cap is cut into valid JSON, and MCP's `structuredContent`
//! is the shaped value.

use httptool::json::{self, Json};
use httptool::mcp::Server;
use httptool::plugin::HttpPlugin;
use httptool::tool::{ErrorKind, ToolRegistry};

use crate::support::plugin::{call, plugin, response, single, Recorder};

/// A list of issues as GitHub's REST API returns them (`GET /repos/{owner}/{repo}/issues`):
/// every issue with its URLs, user, labels and body.
fn github_issues(n: usize) -> Json {
    let issues: Vec<Json> = (1..=n)
        .map(|i| {
            let url = format!("https://api.github.com/repos/octo/hello/issues/{}", i);
            httptool::json!({
                "url": url.clone(), "repository_url": "https://api.github.com/repos/octo/hello",
                "labels_url": format!("{}/labels{{/name}}", url), "comments_url": format!("{}/comments", url),
                "events_url": format!("{}/events", url), "html_url": format!("https://github.com/octo/hello/issues/{}", i),
                "id": 1_000_000 + i, "node_id": format!("MDU6SXNzdWUx{:08}", i), "number": i,
                "title": format!("Crash when opening file number {}", i),
                "user": {"login": "octocat", "id": 1, "node_id": "MDQ6VXNlcjE=",
                         "avatar_url": "https://github.com/images/error/octocat_happy.gif",
                         "url": "https://api.github.com/users/octocat", "html_url": "https://github.com/octocat",
                         "type": "User", "site_admin": false},
                "labels": [{"id": 208045946, "node_id": "MDU6TGFiZWwyMDgwNDU5NDY=", "url": "https://api.github.com/repos/octo/hello/labels/bug",
                            "name": "bug", "description": "Something isn't working", "color": "f29513", "default": true}],
                "state": if i % 3 == 0 { "closed" } else { "open" }, "locked": false, "assignee": null, "assignees": [],
                "milestone": null, "comments": i % 7, "created_at": "2011-04-22T13:33:48Z",
                "updated_at": "2011-04-22T13:33:48Z", "closed_at": null, "author_association": "COLLABORATOR",
                "body": "I'm having a problem with this. Steps to reproduce: open the file, wait, and watch it crash. Expected: no crash."
            })
        })
        .collect();
    Json::from(issues)
}

fn replying_json(value: Json) -> std::sync::Arc<Recorder> {
    let body = value.to_string();
    Recorder::replying(move |request| {
        response(request, 200, Some("application/json"), body.as_bytes())
    })
}

#[test]
fn response_fields_project_a_github_style_issue_list() {
    let raw = github_issues(30);
    let recorder = replying_json(raw.clone());
    let p = plugin(
        &single(
            "https://api.github.com",
            r#""name": "list_issues", "path": "/repos/octo/hello/issues",
               "response_fields": ["/*/number", "*/title", "*.state", "*/user/login"]"#,
        ),
        &recorder,
    );
    let out = call(&p, "list_issues", "{}");
    assert!(!out.is_error(), "{}", out.text());
    let shaped = json::parse(out.text()).unwrap();
    let items = shaped.as_array().unwrap();
    assert_eq!(items.len(), 30);
    assert_eq!(
        items[2],
        httptool::json!({"number": 3, "title": "Crash when opening file number 3", "user": {"login": "octocat"}, "state": "closed"})
    );
    assert_eq!(out.structured(), Some(&shaped));
    let (raw_bytes, shaped_bytes) = (raw.to_string().len(), out.text().len());
    eprintln!(
        "github issues: raw {} bytes, shaped {} bytes",
        raw_bytes, shaped_bytes
    );
    assert!(
        shaped_bytes * 10 < raw_bytes,
        "{} vs {}",
        shaped_bytes,
        raw_bytes
    );
}

fn search_plugin(recorder: &std::sync::Arc<Recorder>) -> HttpPlugin {
    plugin(
        &single(
            "https://api.github.com",
            r#""name": "search_issues", "path": "/search/issues", "fields_argument": true,
               "params": [{"name": "q", "in": "query", "required": true}]"#,
        ),
        recorder,
    )
}

fn search_result() -> Json {
    httptool::json!({"total_count": 30, "incomplete_results": false, "items": github_issues(30)})
}

#[test]
fn the_fields_argument_is_in_the_schema_and_shapes_the_answer() {
    let recorder = replying_json(search_result());
    let p = search_plugin(&recorder);
    let spec = p.specs().remove(0);
    let fields = &spec.parameters()["properties"]["fields"];
    assert_eq!(fields["type"], httptool::json!("array"));
    assert_eq!(fields["items"], httptool::json!({"type": "string"}));
    assert!(fields["description"]
        .as_str()
        .unwrap()
        .contains("items/*/title"));
    assert_eq!(spec.parameters()["required"], httptool::json!(["q"]));

    let out = call(
        &p,
        "search_issues",
        r#"{"q": "crash", "fields": ["items/*/title", "total_count"]}"#,
    );
    assert!(!out.is_error(), "{}", out.text());
    let shaped = json::parse(out.text()).unwrap();
    assert_eq!(shaped["total_count"], httptool::json!(30));
    assert_eq!(
        shaped["items"][0],
        httptool::json!({"title": "Crash when opening file number 1"})
    );
    assert_eq!(shaped.as_object().unwrap().len(), 2);
    // The argument shapes the answer; it is not sent.
    assert_eq!(
        recorder.only().url().as_str(),
        "https://api.github.com/search/issues?q=crash"
    );

    // A JSON-encoded list is read as the list, as for other array arguments.
    let out = call(
        &p,
        "search_issues",
        r#"{"q": "x", "fields": "[\"total_count\"]"}"#,
    );
    assert_eq!(out.text(), r#"{"total_count":30}"#);
    // Without it, the whole answer.
    let out = call(&p, "search_issues", r#"{"q": "x"}"#);
    assert_eq!(json::parse(out.text()).unwrap(), search_result());
}

#[test]
fn a_fields_argument_that_is_not_a_list_of_paths_is_an_argument_error() {
    let recorder = replying_json(search_result());
    let p = search_plugin(&recorder);
    let out = call(&p, "search_issues", r#"{"q": "x", "fields": 5}"#);
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidParameter));
    assert_eq!(
        out.text(),
        "argument 'fields': expected an array of field paths such as [\"items/*/title\", \"total_count\"], got number"
    );
    let out = call(
        &p,
        "search_issues",
        r#"{"q": "x", "fields": ["total_count", ""]}"#,
    );
    assert_eq!(
        out.text(),
        "argument 'fields': item 1: a field path is empty"
    );
    let many: Vec<String> = (0..65).map(|i| format!("\"f{}\"", i)).collect();
    let out = call(
        &p,
        "search_issues",
        &format!(r#"{{"q": "x", "fields": [{}]}}"#, many.join(",")),
    );
    assert_eq!(
        out.text(),
        "argument 'fields': 65 field paths given, over the limit of 64"
    );
    assert_eq!(recorder.count(), 0, "nothing is sent for an argument error");
}

#[test]
fn fields_that_name_nothing_list_what_the_response_has() {
    let recorder = replying_json(search_result());
    let p = search_plugin(&recorder);
    let out = call(&p, "search_issues", r#"{"q": "x", "fields": ["totals"]}"#);
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidArguments));
    assert_eq!(
        out.text(),
        "argument 'fields': none of the field paths is in the response; its fields include: total_count, incomplete_results, items"
    );
}

#[test]
fn fields_is_unknown_where_the_endpoint_does_not_allow_it() {
    let recorder = replying_json(search_result());
    let p = plugin(
        &single("https://api.github.com", r#""name": "s", "path": "/s""#),
        &recorder,
    );
    assert!(p.specs()[0].parameters()["properties"]
        .get("fields")
        .is_none());
    let out = call(&p, "s", r#"{"fields": ["total_count"]}"#);
    assert_eq!(
        out.error_kind(),
        Some(ErrorKind::UnknownParameter),
        "{}",
        out.text()
    );
}

#[test]
fn declaration_errors_name_their_field() {
    let err = HttpPlugin::from_json(&single(
        "https://a.example",
        r#""name": "s", "path": "/s", "fields_argument": true, "params": [{"name": "fields", "in": "query"}]"#,
    ))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].fields_argument: a parameter is already named 'fields'; rename it (its wire_name can stay) to let the model choose the response's fields"
    );
    let err = HttpPlugin::from_json(&single(
        "https://a.example",
        r#""name": "s", "path": "/s", "response_fields": ["a", ""]"#,
    ))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].response_fields[1]: a field path is empty"
    );
    let err = HttpPlugin::from_json(&single(
        "https://a.example",
        r#""name": "s", "path": "/s", "response_fields": "a""#,
    ))
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("endpoints[0].response_fields: "),
        "{}",
        err
    );
}

#[test]
fn shaping_fields_round_trip_through_the_plugin_file() {
    let p = HttpPlugin::from_json(&single(
        "https://a.example",
        r#""name": "s", "path": "/s", "response_fields": ["/items", "total_count"], "fields_argument": true"#,
    ))
    .unwrap();
    let file = p.to_json();
    assert_eq!(
        file["endpoints"][0]["response_fields"],
        httptool::json!(["/items", "total_count"])
    );
    assert_eq!(
        file["endpoints"][0]["fields_argument"],
        httptool::json!(true)
    );
    let again = HttpPlugin::from_json(&file.to_string()).unwrap();
    assert_eq!(again.to_json(), file);
    let endpoint = again.endpoint("s").unwrap();
    assert_eq!(endpoint.response_fields(), ["/items", "total_count"]);
    assert!(endpoint.fields_argument());
}

#[test]
fn json_over_the_output_cap_is_cut_into_valid_json() {
    let raw = github_issues(100);
    let recorder = replying_json(raw.clone());
    let p = plugin(
        &single(
            "https://api.github.com",
            r#""name": "list", "path": "/issues", "max_output_bytes": 4000"#,
        ),
        &recorder,
    );
    let out = call(&p, "list", "{}");
    assert!(!out.is_error());
    assert!(out.text().len() <= 4000, "{}", out.text().len());
    let cut = json::parse(out.text()).expect("the cut text is JSON");
    let items = cut.as_array().unwrap();
    let kept = items.len() - 1;
    assert!(kept >= 1);
    assert_eq!(items[0], raw[0]);
    let marker = items[kept].as_str().unwrap();
    assert!(
        marker.starts_with(&format!("[truncated: {} more items, ", 100 - kept)),
        "{}",
        marker
    );
    // The structured value is never cut (a cut one breaks the output schema a client checks
    // it against); the output says its text was cut.
    assert!(out.is_truncated());
    assert_eq!(out.structured(), Some(&raw));
}

#[test]
fn plain_text_over_the_cap_keeps_the_text_marker() {
    let body = "word ".repeat(2000);
    let recorder =
        Recorder::replying(move |r| response(r, 200, Some("text/plain"), body.as_bytes()));
    let p = plugin(
        &single(
            "https://a.example",
            r#""name": "t", "path": "/t", "max_output_bytes": 500"#,
        ),
        &recorder,
    );
    let out = call(&p, "t", "{}");
    assert!(out.text().len() <= 500);
    assert!(out.text().ends_with(" more bytes]"), "{}", out.text());
}

#[test]
fn mcp_serves_the_fields_argument_and_the_shaped_value() {
    let recorder = replying_json(search_result());
    let p = search_plugin(&recorder);
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&p).unwrap();
    let mut session = crate::support::mcp::Session::ready(Server::new(), registry);
    let list = session.request(Json::from(1), "tools/list", httptool::json!({}));
    let schema = &list["result"]["tools"][0]["inputSchema"];
    assert_eq!(
        schema["properties"]["fields"]["type"],
        httptool::json!("array")
    );
    let answer = session.call(
        Json::from(2),
        "search_issues",
        httptool::json!({"q": "x", "fields": ["items/0/number", "total_count"]}),
    );
    let result = &answer["result"];
    assert_eq!(result["isError"], httptool::json!(false), "{}", answer);
    let expected = httptool::json!({"total_count": 30, "items": [{"number": 1}]});
    assert_eq!(result["structuredContent"], expected);
    assert_eq!(
        result["content"][0]["text"],
        Json::from(expected.to_string())
    );
    let (closed, _) = session.close();
    assert!(closed.is_ok());
}

#[test]
fn cli_shows_the_fields_argument_and_checks_it_in_a_dry_run() {
    use crate::support::cli::{httptool, status, stderr, stdout, TempDir};
    let dir = TempDir::new("shaped-fields");
    let file = dir.file(
        "p.json",
        &single(
            "https://api.github.com",
            r#""name": "search_issues", "path": "/search/issues", "fields_argument": true,
               "params": [{"name": "q", "in": "query", "required": true}]"#,
        ),
    );
    let out = httptool(&["tools", &file, "--format", "mcp"], None, &[]);
    let listed = json::parse(&stdout(&out)).unwrap();
    assert_eq!(
        listed["tools"][0]["inputSchema"]["properties"]["fields"]["type"],
        httptool::json!("array")
    );

    let out = httptool(
        &[
            "call",
            &file,
            "search_issues",
            r#"{"q": "x", "fields": ["total_count"]}"#,
            "--dry-run",
        ],
        None,
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("GET /search/issues?q=x HTTP/1.1"),
        "{}",
        stdout(&out)
    );

    let out = httptool(
        &[
            "call",
            &file,
            "search_issues",
            r#"{"q": "x", "fields": 3}"#,
            "--dry-run",
        ],
        None,
        &[],
    );
    assert_eq!(status(&out), 1);
    assert!(
        stdout(&out).contains("argument 'fields': expected an array of field paths"),
        "{}",
        stdout(&out)
    );
}
