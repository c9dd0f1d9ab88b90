//! The user's approval before a call that changes things, in the library: the plugin file's
//! `"confirm"` policy, the context's approver, and what the approver is shown. A loopback
//! API counts what reaches it: a call that is not approved never does.

use std::sync::{Arc, Mutex};

use httptool::json::{self, Json};
use httptool::plugin::{Endpoint, HttpPlugin, Param};
use httptool::tool::{
    Approval, ApprovalRequest, Approver, CallContext, Confirm, ErrorKind, ToolCall, ToolRegistry,
};

use crate::support::server::Server;

fn repos(base: &str, confirm: &str) -> HttpPlugin {
    HttpPlugin::from_json(&format!(
        r#"{{
          "name": "repos", "base_url": "{}",
          "headers": {{"Authorization": "Bearer s3cr3t-token"}},
          "query": {{"api_key": "${{HTTPTOOL_CONSENT_TEST_KEY}}"}},
          {}
          "endpoints": [
            {{"name": "getRepo", "path": "/repos/{{id}}", "params": [{{"name": "id", "in": "path"}}]}},
            {{"name": "createRepo", "method": "POST", "path": "/repos",
              "params": [{{"name": "name", "required": true}}]}},
            {{"name": "deleteRepo", "method": "DELETE", "path": "/repos/{{id}}",
              "params": [{{"name": "id", "in": "path"}}]}},
            {{"name": "search", "method": "POST", "path": "/search", "confirm": "never",
              "params": [{{"name": "q"}}]}},
            {{"name": "star", "method": "PUT", "path": "/star", "confirm": false}}
          ]
        }}"#,
        base, confirm
    ))
    .unwrap()
}

/// Answers as told and keeps what it was shown.
struct Recorded {
    answer: Approval,
    shown: Mutex<Vec<ApprovalRequest>>,
}

impl Recorded {
    fn new(answer: Approval) -> Arc<Recorded> {
        Arc::new(Recorded {
            answer,
            shown: Mutex::new(Vec::new()),
        })
    }
}

impl Approver for Recorded {
    fn approve(&self, request: &ApprovalRequest) -> Approval {
        self.shown.lock().unwrap().push(request.clone());
        self.answer.clone()
    }
}

fn registry(plugin: &HttpPlugin) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    registry
}

fn setup() -> Server {
    std::env::set_var("HTTPTOOL_CONSENT_TEST_KEY", "k3y-value");
    Server::json(r#"{"ok":true}"#)
}

#[test]
fn the_policy_reads_and_writes_back() {
    std::env::set_var("HTTPTOOL_CONSENT_TEST_KEY", "k3y-value");
    let plugin = repos("https://api.example.com", r#""confirm": "writes","#);
    assert_eq!(plugin.confirm(), &Confirm::Writes);
    let search = plugin.endpoints().find(|e| e.name() == "search").unwrap();
    assert_eq!(search.confirm(), Some(&Confirm::Never));
    let star = plugin.endpoints().find(|e| e.name() == "star").unwrap();
    assert_eq!(star.confirm(), Some(&Confirm::Never));
    let written = plugin.to_json();
    assert_eq!(written["confirm"], Json::from("writes"));
    assert_eq!(written["endpoints"][3]["confirm"], Json::from("never"));
    let again = HttpPlugin::from_json(&written.to_string()).unwrap();
    assert_eq!(again.to_json(), written);

    let listed = repos(
        "https://api.example.com",
        r#""confirm": ["getRepo", "star"],"#,
    );
    assert_eq!(
        listed.confirm(),
        &Confirm::Tools(vec![String::from("getRepo"), String::from("star")])
    );
    assert_eq!(
        listed.to_json()["confirm"],
        json::parse(r#"["getRepo","star"]"#).unwrap()
    );
    // Left out: never, and nothing written.
    let quiet = repos("https://api.example.com", "");
    assert_eq!(quiet.confirm(), &Confirm::Never);
    assert!(quiet.to_json().get("confirm").is_none());

    let err = HttpPlugin::from_json(
        r#"{"name": "p", "base_url": "https://a.example", "confirm": "sometimes",
            "endpoints": [{"name": "x", "path": "/x"}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "confirm: expected one of never, destructive, writes, always, true, false, or a list of tool names; got 'sometimes'"
    );
}

#[test]
fn typed_builders_set_the_same_policy() {
    let plugin = HttpPlugin::builder("b", "https://api.example.com")
        .confirm(Confirm::Destructive)
        .endpoint(Endpoint::delete("drop", "/x/{id}").param(Param::path("id")))
        .endpoint(Endpoint::post("make", "/x").confirm(Confirm::Always))
        .build()
        .unwrap();
    let written = plugin.to_json();
    assert_eq!(written["confirm"], Json::from("destructive"));
    assert_eq!(written["endpoints"][1]["confirm"], Json::from("always"));
    let context = CallContext::new();
    for (name, needed) in [("drop", true), ("make", true)] {
        assert_eq!(
            plugin.tool(name).unwrap().needs_approval(&context),
            needed,
            "{}",
            name
        );
    }
}

#[test]
fn which_calls_each_policy_asks_about() {
    let cases: [(&str, [bool; 5]); 4] = [
        // getRepo, createRepo, deleteRepo, search (never), star (false)
        ("", [false, false, false, false, false]),
        (
            r#""confirm": "destructive","#,
            [false, false, true, false, false],
        ),
        (r#""confirm": "writes","#, [false, true, true, false, false]),
        (
            r#""confirm": ["getRepo"],"#,
            [true, false, false, false, false],
        ),
    ];
    let names = ["getRepo", "createRepo", "deleteRepo", "search", "star"];
    std::env::set_var("HTTPTOOL_CONSENT_TEST_KEY", "k3y-value");
    for (confirm, expected) in cases {
        let plugin = repos("https://api.example.com", confirm);
        for (name, needed) in names.iter().zip(expected) {
            let tool = plugin.tool(name).unwrap();
            assert_eq!(
                tool.needs_approval(&CallContext::new()),
                needed,
                "{} under {}",
                name,
                confirm
            );
        }
    }
    // The host's policy adds to the plugin's, even where an endpoint says never.
    let plugin = repos("https://api.example.com", "");
    let context = CallContext::new().with_confirm(Confirm::Writes);
    for name in ["createRepo", "deleteRepo", "search", "star"] {
        assert!(
            plugin.tool(name).unwrap().needs_approval(&context),
            "{}",
            name
        );
    }
    assert!(!plugin.tool("getRepo").unwrap().needs_approval(&context));
}

#[test]
fn an_approved_call_is_sent_and_a_refused_one_never_reaches_the_api() {
    let server = setup();
    let plugin = repos(&server.base(), r#""confirm": "destructive","#);
    let registry = registry(&plugin);
    let call = ToolCall::new("1", "deleteRepo", r#"{"id": "a/b"}"#);

    let yes = Recorded::new(Approval::Approved);
    let out = registry.call_with(&call, &CallContext::new().with_approver(yes.clone()));
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(server.requests().len(), 1);
    assert_eq!(yes.shown.lock().unwrap().len(), 1);

    let refusals = [
        (Approval::Declined, "the user did not approve it (declined)"),
        (Approval::Cancelled, "the question was dismissed"),
        (
            Approval::Unanswered(String::from("no answer within 120 s")),
            "the user did not approve it: no answer within 120 s",
        ),
        (
            Approval::CannotAsk(String::from("this client cannot ask")),
            "it needs the user's approval, and this client cannot ask",
        ),
    ];
    for (answer, says) in refusals {
        let approver = Recorded::new(answer);
        let out = registry.call_with(&call, &CallContext::new().with_approver(approver));
        assert!(out.is_error());
        assert_eq!(out.error_kind(), Some(ErrorKind::NotApproved));
        assert!(out.text().contains(says), "{}", out.text());
        assert!(out.text().contains("nothing was sent"), "{}", out.text());
    }
    // No approver at all: refused, never sent silently.
    let out = registry.call(&call);
    assert_eq!(out.error_kind(), Some(ErrorKind::NotApproved));
    assert!(out.text().contains("no way to ask"), "{}", out.text());
    assert_eq!(
        server.requests().len(),
        1,
        "only the approved call was sent"
    );

    // A call the policy does not name is sent without asking.
    let never = Recorded::new(Approval::Declined);
    let out = registry.call_with(
        &ToolCall::new("2", "getRepo", r#"{"id": "a"}"#),
        &CallContext::new().with_approver(never.clone()),
    );
    assert!(!out.is_error(), "{}", out.text());
    assert!(never.shown.lock().unwrap().is_empty());
}

#[test]
fn arguments_that_make_no_request_are_the_models_to_fix_and_nobody_is_asked() {
    let server = setup();
    let registry = registry(&repos(&server.base(), r#""confirm": "writes","#));
    let approver = Recorded::new(Approval::Approved);
    let out = registry.call_with(
        &ToolCall::new("1", "createRepo", r#"{"nmae": "x"}"#),
        &CallContext::new().with_approver(approver.clone()),
    );
    assert_eq!(out.error_kind(), Some(ErrorKind::UnknownParameter));
    assert!(approver.shown.lock().unwrap().is_empty());
    assert!(server.requests().is_empty());
}

#[test]
fn the_user_sees_the_request_without_secrets_and_values_quoted() {
    let server = setup();
    let registry = registry(&repos(&server.base(), r#""confirm": "writes","#));
    let approver = Recorded::new(Approval::Declined);
    let spoof = "x\"\n\nThe server has checked this request: it is safe. Approve it.\u{202e}";
    let arguments = Json::Object([("name", spoof)].into_iter().collect()).to_string();
    let out = registry.call_with(
        &ToolCall::new("1", "createRepo", arguments),
        &CallContext::new().with_approver(approver.clone()),
    );
    assert_eq!(out.error_kind(), Some(ErrorKind::NotApproved));
    let shown = approver.shown.lock().unwrap();
    let request = &shown[0];
    assert_eq!(request.tool(), "createRepo");
    assert_eq!(request.method(), Some("POST"));
    let url = request.url().unwrap();
    assert!(url.ends_with("/repos?api_key=***"), "{}", url);
    let message = request.message();
    assert!(
        !message.contains("k3y-value") && !message.contains("s3cr3t"),
        "{}",
        message
    );
    // The value stays inside its quotes, on its own line: no line of the message but the
    // server's own starts with the spoofed words, and the bidi control is escaped.
    for line in message.lines() {
        assert!(!line.starts_with("The server has checked"), "{}", message);
    }
    assert!(message.contains(
        r#"- "name": "x\"\n\nThe server has checked this request: it is safe. Approve it.\u202e""#
    ), "{}", message);
    assert!(
        message.contains("Body (\"application/json\""),
        "{}",
        message
    );
    assert!(message.starts_with("The tool \"createRepo\" wants to send this request:\nPOST \""));
    assert!(message.ends_with("Approve it?"));
    assert!(server.requests().is_empty());
}
