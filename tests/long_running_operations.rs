//! Long-running operations: a `202 Accepted` naming its status URL (`Location`,
//! `Operation-Location`) is asked again with GET, after its `Retry-After`, until done, within
//! the call's deadline and on the same origin; past the deadline the model gets the status and
//! the URL to ask again with.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use httptool::http::{Client, Config, ManualTime};
use httptool::json;
use httptool::plugin::HttpPlugin;
use httptool::tool::{ToolCall, ToolOutput, ToolRegistry};

use crate::support::Server as Api;

fn api(asks: Arc<AtomicUsize>, elsewhere: String) -> Api {
    Api::responding(move |request| {
        let path = request.target.split('?').next().unwrap_or("").to_string();
        let json = String::from("Content-Type: application/json\r\n");
        match path.as_str() {
            "/jobs" => (
                String::from("202 Accepted"),
                String::from("Location: /jobs/1\r\nRetry-After: 0\r\n"),
                Vec::new(),
            ),
            "/jobs/1" => {
                // Running for two asks, then the result.
                if asks.fetch_add(1, Ordering::SeqCst) < 2 {
                    (
                        String::from("202 Accepted"),
                        String::from("Retry-After: 0\r\n"),
                        Vec::new(),
                    )
                } else {
                    (
                        String::from("200 OK"),
                        json,
                        br#"{"id":1,"state":"done"}"#.to_vec(),
                    )
                }
            }
            "/analyze" => (
                String::from("202 Accepted"),
                format!(
                    "Operation-Location: http://{}/ops/9\r\nRetry-After: 0\r\n",
                    request.header("host").unwrap_or_default()
                ),
                Vec::new(),
            ),
            "/ops/9" => {
                let body: &[u8] = if asks.fetch_add(1, Ordering::SeqCst) < 1 {
                    br#"{"status":"running"}"#
                } else {
                    br#"{"status":"succeeded","result":{"pages":3}}"#
                };
                (
                    String::from("200 OK"),
                    format!("{}Retry-After: 0\r\n", json),
                    body.to_vec(),
                )
            }
            "/slow" | "/slow/status" => (
                String::from("202 Accepted"),
                String::from("Location: /slow/status\r\nRetry-After: 10\r\n"),
                Vec::new(),
            ),
            "/leaves" => (
                String::from("202 Accepted"),
                format!("Location: {}/jobs/1\r\n", elsewhere),
                Vec::new(),
            ),
            _ => (String::from("404 Not Found"), String::new(), Vec::new()),
        }
    })
}

fn plugin(api: &Api) -> HttpPlugin {
    HttpPlugin::from_json(&format!(
        r#"{{"name": "ops", "base_url": "{}",
            "auth": {{"type": "bearer", "token": "t-0123456789"}},
            "endpoints": [
            {{"name": "start", "method": "POST", "path": "/jobs", "params": [{{"name": "input"}}]}},
            {{"name": "analyze", "method": "POST", "path": "/analyze"}},
            {{"name": "slow", "method": "POST", "path": "/slow"}},
            {{"name": "leaves", "method": "POST", "path": "/leaves"}}]}}"#,
        api.base()
    ))
    .unwrap()
}

fn call(plugin: &HttpPlugin, tool: &str, arguments: &str) -> ToolOutput {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    registry.call(&ToolCall::new("c1", tool, arguments))
}

#[test]
fn a_202_is_asked_again_until_done_and_the_result_is_the_answer() {
    let api = api(Arc::default(), String::new());
    let out = call(&plugin(&api), "start", r#"{"input": "x"}"#);
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(out.structured(), Some(&json!({"id": 1, "state": "done"})));
    assert_eq!(out.status(), Some(200));
    let requests = api.requests();
    let lines: Vec<String> = requests
        .iter()
        .map(|r| format!("{} {}", r.method, r.target))
        .collect();
    assert_eq!(
        lines,
        ["POST /jobs", "GET /jobs/1", "GET /jobs/1", "GET /jobs/1"]
    );
    // Each ask carries the credential and no body.
    for ask in &requests[1..] {
        assert_eq!(
            ask.header("authorization").as_deref(),
            Some("Bearer t-0123456789")
        );
        assert!(ask.body.is_empty());
        assert_eq!(ask.header("content-type"), None);
    }
}

#[test]
fn an_operation_location_is_asked_until_its_status_is_done() {
    let api = api(Arc::default(), String::new());
    let out = call(&plugin(&api), "analyze", "{}");
    assert_eq!(
        out.structured(),
        Some(&json!({"status": "succeeded", "result": {"pages": 3}}))
    );
    assert_eq!(api.requests().len(), 3);
}

#[test]
fn past_the_deadline_the_model_gets_the_status_url() {
    let api = api(Arc::default(), String::new());
    // Manual time: each Retry-After of 10 s passes at once, the 60 s deadline is exact.
    let time = ManualTime::new();
    let client = Client::with_config(Config::new().time_source(time.clone()));
    let plugin = plugin(&api).with_client(client);
    let out = call(&plugin, "slow", "{}");
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(out.status(), Some(202));
    assert!(
        out.text().starts_with("the operation is still running after 50000 ms (HTTP 202, the call's deadline came first); its status is at http://127.0.0.1:"),
        "{}",
        out.text()
    );
    assert!(out.text().contains("/slow/status: call again later"));
    // Asked at 10, 20, 30, 40 and 50 s; the next ask would pass the deadline.
    assert_eq!(api.requests().len(), 6);
    assert_eq!(time.sleeps().len(), 5);
}

#[test]
fn a_status_url_on_another_origin_is_not_asked() {
    let elsewhere = Api::json("{}");
    let api = api(Arc::default(), elsewhere.base());
    let out = call(&plugin(&api), "leaves", "{}");
    assert_eq!(out.status(), Some(202));
    assert!(!out.is_error());
    assert_eq!(api.requests().len(), 1);
    assert_eq!(elsewhere.requests().len(), 0);
}
