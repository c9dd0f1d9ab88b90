//! `HttpPlugin::from_json_deferred`: a plugin whose `${NAME}`s are not set gives its specs
//! and dry runs, and refuses real calls; `from_json` refuses an empty variable; and
//! `ApiResponse::head_text` keeps secrets out of a verbose log.

use httptool::http::Secrets;
use httptool::plugin::{ErrorKind, HttpPlugin};
use httptool::tool::{self, CallContext, ToolCall, ToolRegistry};

use crate::support::Server;

/// Every variable is named for one test, so tests setting them cannot meet.
fn plugin_text(base_url: &str, token: &str, tenant: &str) -> String {
    format!(
        r#"{{"name": "t", "base_url": "{base_url}",
            "auth": {{"type": "bearer", "token": "${{{token}}}"}},
            "endpoints": [
              {{"name": "plain", "path": "/plain"}},
              {{"name": "scoped", "path": "/scoped", "params": [
                {{"name": "tenant", "in": "query", "hidden": true, "default": "${{{tenant}}}"}}]}}
            ]}}"#
    )
}

#[test]
fn specs_and_dry_runs_need_no_variable_and_show_a_placeholder() {
    let text = plugin_text(
        "https://api.example.com",
        "DEFERRED_T1_TOKEN",
        "DEFERRED_T1_TENANT",
    );
    let plugin = HttpPlugin::from_json_deferred(&text).unwrap();
    assert_eq!(
        plugin.unset_variables(),
        ["DEFERRED_T1_TOKEN", "DEFERRED_T1_TENANT"]
    );
    assert_eq!(plugin.specs().len(), 2);
    let dry = plugin.dry_run("scoped", "{}", &CallContext::new()).unwrap();
    let shown = String::from_utf8(dry.render(Secrets::Reveal).unwrap()).unwrap();
    assert!(
        shown.starts_with(
            "GET /scoped?tenant=%24%7BDEFERRED_T1_TENANT%7D%20%28not%20set%29 HTTP/1.1\r\n"
        ),
        "{}",
        shown
    );
    assert!(
        shown.contains("Authorization: Bearer ${DEFERRED_T1_TOKEN} (not set)\r\n"),
        "{}",
        shown
    );
    let masked = String::from_utf8(dry.render(Secrets::Mask).unwrap()).unwrap();
    assert!(masked.contains("Authorization: ***\r\n"), "{}", masked);
    // The file written back still names the variables.
    assert!(plugin
        .to_json()
        .to_string()
        .contains(r#""token":"${DEFERRED_T1_TOKEN}""#));
}

#[test]
fn a_real_call_that_needs_an_unset_variable_is_refused_before_sending() {
    let api = Server::json("{}");
    let text = plugin_text(&api.base(), "DEFERRED_T2_TOKEN", "DEFERRED_T2_TENANT");
    let plugin = HttpPlugin::from_json_deferred(&text).unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let out = registry.call(&ToolCall::new("1", "plain", "{}"));
    assert!(out.is_error());
    assert_eq!(out.error_kind(), Some(tool::ErrorKind::MissingParameter));
    assert_eq!(
        out.text(),
        "this tool needs the variable 'DEFERRED_T2_TOKEN' of its plugin file, which was not set when the plugin was loaded; this is not caused by the arguments"
    );
    let tool = plugin.tool("plain").unwrap();
    assert!(tool
        .prepare(httptool::json::Map::new(), &CallContext::new())
        .is_err());
    assert!(api.requests().is_empty(), "the placeholder never leaves");
}

#[test]
fn an_endpoint_variable_only_holds_back_its_own_endpoint() {
    std::env::set_var("DEFERRED_T3_TOKEN", "tok3n-value");
    let api = Server::json("{}");
    let text = plugin_text(&api.base(), "DEFERRED_T3_TOKEN", "DEFERRED_T3_TENANT");
    let plugin = HttpPlugin::from_json_deferred(&text).unwrap();
    assert_eq!(plugin.unset_variables(), ["DEFERRED_T3_TENANT"]);
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let plain = registry.call(&ToolCall::new("1", "plain", "{}"));
    assert!(!plain.is_error(), "{}", plain.text());
    let scoped = registry.call(&ToolCall::new("2", "scoped", "{}"));
    assert!(
        scoped.text().contains("'DEFERRED_T3_TENANT'"),
        "{}",
        scoped.text()
    );
    let requests = api.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].target, "/plain");
}

#[test]
fn a_variable_in_the_base_url_must_be_set_even_when_deferred() {
    let text = plugin_text(
        "https://${DEFERRED_T4_HOST}",
        "DEFERRED_T4_TOKEN",
        "DEFERRED_T4_TENANT",
    );
    let err = HttpPlugin::from_json_deferred(&text).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MissingVariable);
    assert_eq!(
        err.to_string(),
        "base_url: environment variable 'DEFERRED_T4_HOST' is not set"
    );
}

#[test]
fn from_json_refuses_an_empty_environment_variable() {
    std::env::set_var("DEFERRED_T5_TOKEN", "");
    std::env::set_var("DEFERRED_T5_TENANT", "acme");
    let text = plugin_text(
        "https://api.example.com",
        "DEFERRED_T5_TOKEN",
        "DEFERRED_T5_TENANT",
    );
    let err = HttpPlugin::from_json(&text).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MissingVariable);
    assert_eq!(
        err.to_string(),
        "auth.token: environment variable 'DEFERRED_T5_TOKEN' is empty"
    );
    // Deferred, an empty value is left unresolved like an unset one.
    let plugin = HttpPlugin::from_json_deferred(&text).unwrap();
    assert_eq!(plugin.unset_variables(), ["DEFERRED_T5_TOKEN"]);
    // A lookup's empty value is the host's decision, taken as it is.
    let plugin = HttpPlugin::from_json_with(&text, |_| Some(String::new())).unwrap();
    assert!(plugin.unset_variables().is_empty());
}

#[test]
fn head_text_masks_echoed_secrets_and_cookies() {
    let api = Server::responding(|_| {
        (
            "200 Fine".to_string(),
            "X-Echo: Bearer t0ken-value\r\nSet-Cookie: session=abcdef\r\nX-Plain: yes\r\n"
                .to_string(),
            b"{}".to_vec(),
        )
    });
    let text = format!(
        r#"{{"name": "h", "base_url": "{}", "auth": {{"type": "bearer", "token": "t0ken-value"}},
            "endpoints": [{{"name": "get", "path": "/"}}]}}"#,
        api.base()
    );
    let plugin = HttpPlugin::from_json(&text).unwrap();
    let tool = plugin.tool("get").unwrap();
    let response = tool
        .send(httptool::json::Map::new(), &CallContext::new())
        .unwrap();
    assert_eq!(
        response.head_text(),
        "HTTP/1.1 200 Fine\nX-Echo: ***\nSet-Cookie: ***\nX-Plain: yes\nContent-Length: 2"
    );
}
