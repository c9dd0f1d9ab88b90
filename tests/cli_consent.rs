//! `httptool call` before a call the plugin's `"confirm"` names: `--yes` approves, and
//! without a terminal to ask on the call is refused, never sent; `httptool serve --confirm`
//! asks about calls the plugin does not name.

use crate::support::cli::{httptool, mcp_answers, status, stdout, TempDir};
use crate::support::server::Server;

fn plugin(dir: &TempDir, base: &str, confirm: &str) -> String {
    dir.file(
        "repos.json",
        &format!(
            r#"{{"name": "repos", "base_url": "{}", "confirm": "{}",
                "endpoints": [{{"name": "deleteRepo", "method": "DELETE", "path": "/repos/{{id}}",
                                "params": [{{"name": "id", "in": "path"}}]}},
                              {{"name": "getRepo", "path": "/repos/{{id}}",
                                "params": [{{"name": "id", "in": "path"}}]}}]}}"#,
            base, confirm
        ),
    )
}

#[test]
fn call_needs_yes_without_a_terminal() {
    let api = Server::json(r#"{"deleted":true}"#);
    let dir = TempDir::new("consent-call");
    let path = plugin(&dir, &api.base(), "destructive");
    let refused = httptool(
        &["call", &path, "deleteRepo", r#"{"id":"a"}"#],
        Some(""),
        &[],
    );
    assert_eq!(status(&refused), 1);
    let text = stdout(&refused);
    assert!(text.contains("needs the user's approval"), "{}", text);
    assert!(text.contains("pass --yes"), "{}", text);
    assert!(api.requests().is_empty());

    let approved = httptool(
        &["call", &path, "deleteRepo", r#"{"id":"a"}"#, "--yes"],
        Some(""),
        &[],
    );
    assert_eq!(status(&approved), 0, "{}", stdout(&approved));
    assert_eq!(api.requests().len(), 1);
    // --verbose sends through another path: it asks all the same.
    let verbose = httptool(
        &["call", &path, "deleteRepo", r#"{"id":"a"}"#, "-v"],
        Some(""),
        &[],
    );
    assert_eq!(status(&verbose), 1);
    assert_eq!(api.requests().len(), 1);
}

#[test]
fn serve_confirm_names_more_calls() {
    let api = Server::json("{}");
    let dir = TempDir::new("consent-serve");
    let path = plugin(&dir, &api.base(), "never");
    let session = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deleteRepo","arguments":{"id":"a"}}}"#,
        "\n"
    );
    let output = httptool(
        &["serve", &path, "--confirm", "destructive"],
        Some(session),
        &[],
    );
    let answers = mcp_answers(&output);
    let result = &answers[1]["result"];
    assert_eq!(
        result["isError"],
        httptool::json::Json::from(true),
        "{:?}",
        answers
    );
    assert!(api.requests().is_empty());

    let bad = httptool(&["serve", &path, "--confirm", "sometimes"], Some(""), &[]);
    assert_eq!(status(&bad), 2);
    let keyless = httptool(
        &[
            "serve",
            &path,
            "--confirm-key-env",
            "HTTPTOOL_TEST_NO_SUCH_KEY",
        ],
        Some(""),
        &[],
    );
    assert_eq!(status(&keyless), 1);
}
