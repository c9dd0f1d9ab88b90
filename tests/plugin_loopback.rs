//! Plugins over a real loopback server (std `TcpListener` on 127.0.0.1): the closed loop from
//! a model's tool call to the wire and back, retries, redirects, limits, per-user context,
//! the shared connection pool and the observer.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use httptool::http::Method;
use httptool::json;
use httptool::plugin::{Exchange, HttpPlugin};
use httptool::tool::{openai, CallContext, ErrorKind, ToolCall, ToolRegistry};

use crate::support::plugin::{call, call_with, single, Server};

const WEATHER_BODY: &str = r#"{"city":"杭州","temp_c":21.5,"condition":"cloudy"}"#;

fn weather_plugin(base: &str) -> HttpPlugin {
    HttpPlugin::from_json(&format!(
        r#"{{
          "name": "weather",
          "base_url": "{}",
          "headers": {{ "Authorization": "Bearer demo-token-123" }},
          "endpoints": [{{
            "name": "getWeather",
            "description": "Current weather for a city",
            "method": "GET",
            "path": "/v1/weather",
            "params": [{{ "name": "city", "wire_name": "q", "in": "query", "required": true,
                          "description": "City name" }}]
          }}]
        }}"#,
        base
    ))
    .unwrap()
}

#[test]
fn closed_loop_from_an_openai_tool_call_to_the_wire_and_back() {
    let server = Server::json(WEATHER_BODY);
    let mut registry = ToolRegistry::new();
    registry
        .add_plugin(&weather_plugin(&server.base()))
        .unwrap();

    let completion = json::parse(
        r#"{"choices": [{"message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "call_abc", "type": "function",
              "function": {"name": "getWeather", "arguments": "{\"city\":\"杭州\"}"}}]}}]}"#,
    )
    .unwrap();
    let calls = openai::chat_calls(&completion).unwrap();
    assert_eq!(calls.len(), 1);
    let output = registry.call(&calls[0]);

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let request_line = requests[0].head.split("\r\n").next().unwrap();
    assert_eq!(
        request_line,
        "GET /v1/weather?q=%E6%9D%AD%E5%B7%9E HTTP/1.1"
    );
    assert_eq!(
        requests[0].header("authorization").as_deref(),
        Some("Bearer demo-token-123")
    );
    assert!(requests[0].body.is_empty());

    assert!(!output.is_error(), "{}", output.text());
    assert_eq!(output.text(), WEATHER_BODY);
    let message = openai::chat_result(&calls[0], &output);
    assert_eq!(message["role"], json!("tool"));
    assert_eq!(message["tool_call_id"], json!("call_abc"));
    assert_eq!(message["content"], json!(WEATHER_BODY));
}

/// The first connection is reset after the request arrives, before any response byte; the
/// rest are served.
fn reset_first_connection() -> Server {
    Server::start(|mut peer| {
        if peer.index == 0 {
            peer.reset();
            return;
        }
        while let Some(request) = peer.read_request() {
            let body = format!("{} ok", request.method);
            peer.respond("200 OK", "Content-Type: text/plain\r\n", body.as_bytes());
        }
    })
}

fn endpoint_on(server: &Server, method: &str) -> HttpPlugin {
    HttpPlugin::from_json(&single(
        &server.base(),
        &format!(
            r#""name": "op", "method": "{}", "path": "/x", "params": [{{"name": "a"}}]"#,
            method
        ),
    ))
    .unwrap()
}

#[test]
fn retry_once_on_reset_for_get() {
    let server = reset_first_connection();
    let out = call(&endpoint_on(&server, "GET"), "op", r#"{"a":"1"}"#);
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(out.text(), "GET ok");
    assert_eq!(server.connections(), 2);
    assert_eq!(
        server.requests().len(),
        1,
        "the reset request was never read"
    );
}

#[test]
fn failure_result_for_post() {
    let server = reset_first_connection();
    let out = call(&endpoint_on(&server, "POST"), "op", r#"{"a":"1"}"#);
    assert_eq!(out.error_kind(), Some(ErrorKind::Transport));
    assert!(
        out.text()
            .starts_with("could not get a response from the API: "),
        "{}",
        out.text()
    );
    assert!(out
        .text()
        .ends_with("; this is not caused by the arguments, and trying again later may work"));
    assert_eq!(server.connections(), 1, "a POST is never retried");
}

#[test]
fn patch_on_reset_is_not_retried_either() {
    let server = reset_first_connection();
    let out = call(&endpoint_on(&server, "PATCH"), "op", r#"{"a":"1"}"#);
    assert_eq!(out.error_kind(), Some(ErrorKind::Transport));
    assert_eq!(server.connections(), 1);
}

#[test]
fn two_users_through_one_registry_each_carry_their_own_token() {
    let server = Server::responding(|request| {
        // Reversed: the token itself would come back as `***` (an echoed secret).
        let who: String = request
            .header("authorization")
            .unwrap_or_default()
            .chars()
            .rev()
            .collect();
        (String::from("200 OK"), String::new(), who.into_bytes())
    });
    let plugin = HttpPlugin::from_json(&format!(
        r#"{{"name": "mail", "base_url": "{}",
            "auth": {{"type": "bearer", "token": {{"context": "user_token"}}}},
            "endpoints": [{{"name": "inbox", "path": "/inbox"}}]}}"#,
        server.base()
    ))
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let registry = Arc::new(registry);

    let users = [("ann", "token-ann"), ("bob", "token-bob")];
    let handles: Vec<_> = users
        .iter()
        .map(|&(user, token)| {
            let registry = registry.clone();
            thread::spawn(move || {
                let context = CallContext::new().with("user_token", token);
                let out = registry.call_with(&ToolCall::new(user, "inbox", "{}"), &context);
                (user, out.text().to_string())
            })
        })
        .collect();
    let mut answers: Vec<(&str, String)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    answers.sort();
    assert_eq!(
        answers,
        [
            ("ann", String::from("nna-nekot reraeB")),
            ("bob", String::from("bob-nekot reraeB"))
        ]
    );
    let mut seen: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.header("authorization").unwrap())
        .collect();
    seen.sort();
    assert_eq!(seen, ["Bearer token-ann", "Bearer token-bob"]);
}

fn redirecting_to(location: String) -> Server {
    Server::responding(move |request| {
        if request.target == "/moved" {
            (String::from("200 OK"), String::new(), b"arrived".to_vec())
        } else {
            (
                String::from("302 Found"),
                format!("Location: {}\r\n", location),
                Vec::new(),
            )
        }
    })
}

#[test]
fn same_origin_redirects_are_followed() {
    let server = redirecting_to(String::from("/moved"));
    let p =
        HttpPlugin::from_json(&single(&server.base(), r#""name": "get", "path": "/x""#)).unwrap();
    let out = call(&p, "get", "{}");
    assert_eq!(out.text(), "arrived");
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn cross_origin_redirect_is_not_followed_and_says_where() {
    let other = Server::json("{}");
    let server = redirecting_to(format!("{}/moved?token=abc", other.base()));
    let p =
        HttpPlugin::from_json(&single(&server.base(), r#""name": "get", "path": "/x""#)).unwrap();
    let out = call(&p, "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::RedirectNotFollowed));
    assert_eq!(out.status(), Some(302));
    assert_eq!(
        out.text(),
        format!(
            "the API redirected (302) to {}/moved, which was not followed: only same-origin redirects are followed; this is not caused by the arguments",
            other.base()
        )
    );
    assert!(other.requests().is_empty());
}

#[test]
fn redirect_hosts_allow_more_hosts() {
    let other = Server::responding(|_| (String::from("200 OK"), String::new(), b"other".to_vec()));
    let server = redirecting_to(format!("{}/there", other.base()));
    let p = HttpPlugin::from_json(&single(
        &server.base(),
        r#""name": "get", "path": "/x", "redirect_hosts": ["127.0.0.1"]"#,
    ))
    .unwrap();
    assert_eq!(call(&p, "get", "{}").text(), "other");
    assert_eq!(other.requests().len(), 1);
}

#[test]
fn strict_address_policy_refuses_loopback() {
    let server = Server::json("{}");
    let p = HttpPlugin::from_json(&single(
        &server.base(),
        r#""name": "get", "path": "/x", "address_policy": "strict""#,
    ))
    .unwrap();
    let out = call(&p, "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::AddressRefused));
    assert!(out
        .text()
        .starts_with("the API's address is refused by this application's policy: "));
    assert!(out
        .text()
        .ends_with("; this is not caused by the arguments"));
    assert_eq!(server.connections(), 0);
}

#[test]
fn read_timeout_is_a_timeout_for_the_model() {
    let server = Server::start(|mut peer| {
        let _ = peer.read_request();
        peer.wait_for_close();
    });
    let p = HttpPlugin::from_json(&single(
        &server.base(),
        r#""name": "get", "path": "/x", "timeout_read_ms": 200"#,
    ))
    .unwrap();
    let out = call(&p, "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::Timeout));
    assert!(
        out.text().starts_with("the API did not answer in time: "),
        "{}",
        out.text()
    );
    assert!(out.text().ends_with(
        "; the request may or may not have been processed, so check before repeating a change"
    ));
}

#[test]
fn response_over_the_limit_is_an_error_not_a_cut_body() {
    let server = Server::responding(|_| (String::from("200 OK"), String::new(), vec![b'x'; 101]));
    let p = HttpPlugin::from_json(&single(
        &server.base(),
        r#""name": "get", "path": "/x", "max_response_bytes": 100"#,
    ))
    .unwrap();
    let out = call(&p, "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::LimitExceeded));
    assert_eq!(
        out.text(),
        "the response is larger than the limit of 100 bytes; ask for less (a smaller page, fewer fields)"
    );
    let fits = HttpPlugin::from_json(&single(
        &server.base(),
        r#""name": "get", "path": "/x", "max_response_bytes": 101"#,
    ))
    .unwrap();
    assert_eq!(call(&fits, "get", "{}").text(), "x".repeat(101));
}

#[test]
fn other_limits_are_not_the_models_fault() {
    let server = Server::responding(|_| {
        let headers: String = (0..120).map(|i| format!("X-H{}: v\r\n", i)).collect();
        (String::from("200 OK"), headers, Vec::new())
    });
    let p =
        HttpPlugin::from_json(&single(&server.base(), r#""name": "get", "path": "/x""#)).unwrap();
    let out = call(&p, "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::LimitExceeded));
    assert!(out.text().contains("max_headers"), "{}", out.text());
    assert!(out
        .text()
        .ends_with("; this is not caused by the arguments"));
}

#[test]
fn connection_refused_is_a_transport_error() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let p = HttpPlugin::from_json(&single(
        &format!("http://127.0.0.1:{}", port),
        r#""name": "get", "path": "/x""#,
    ))
    .unwrap();
    let out = call(&p, "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::Transport));
    assert!(out
        .text()
        .starts_with("could not get a response from the API: could not connect"));
}

// With the tls feature the same URL fails to connect instead (covered by the test above).
#[cfg(not(feature = "tls"))]
#[test]
fn https_without_tls_is_a_transport_error_that_retrying_cannot_fix() {
    let p = HttpPlugin::from_json(&single(
        "https://127.0.0.1:1",
        r#""name": "get", "path": "/x""#,
    ))
    .unwrap();
    let out = call(&p, "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::Transport));
    assert!(out
        .text()
        .starts_with("could not get a response from the API: https needs tls"));
    assert!(out
        .text()
        .ends_with(" (https://127.0.0.1:1/); this is not caused by the arguments"));
}

#[test]
fn overload_retries_apply_to_get_but_never_to_post() {
    let server = Server::responding({
        let count = Mutex::new(0);
        move |_| {
            let mut n = count.lock().unwrap();
            *n += 1;
            if *n % 2 == 1 {
                (
                    String::from("503 Service Unavailable"),
                    String::from("Retry-After: 0\r\n"),
                    Vec::new(),
                )
            } else {
                (String::from("200 OK"), String::new(), b"done".to_vec())
            }
        }
    });
    let get = HttpPlugin::from_json(&single(
        &server.base(),
        r#""name": "op", "path": "/x", "overload_retries": 2"#,
    ))
    .unwrap();
    assert_eq!(call(&get, "op", "{}").text(), "done");
    assert_eq!(server.requests().len(), 2);
    let post = HttpPlugin::from_json(&single(
        &server.base(),
        r#""name": "op", "method": "POST", "path": "/x", "overload_retries": 2"#,
    ))
    .unwrap();
    let out = call(&post, "op", "{}");
    assert_eq!(out.status(), Some(503));
    assert_eq!(
        out.text(),
        "the API answered 503 Service Unavailable with an empty body"
    );
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn a_plugins_tools_share_one_keep_alive_pool() {
    let server = Server::json("{}");
    let p = HttpPlugin::from_json(&format!(
        r#"{{"name": "t", "base_url": "{}", "endpoints": [
            {{"name": "a", "path": "/a"}}, {{"name": "b", "path": "/b"}}]}}"#,
        server.base()
    ))
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&p).unwrap();
    for name in ["a", "b", "a", "b"] {
        let out = registry.call(&ToolCall::new("1", name, "{}"));
        assert!(!out.is_error(), "{}", out.text());
    }
    assert_eq!(server.requests().len(), 4);
    assert_eq!(server.connections(), 1);
}

#[test]
fn observer_sees_each_request_with_secrets_masked() {
    let server = Server::json(r#"{"ok":true}"#);
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = seen.clone();
    let p = HttpPlugin::from_json(&format!(
        r#"{{"name": "t", "base_url": "{}",
            "auth": {{"type": "query", "name": "key", "value": "k-secret"}},
            "endpoints": [{{"name": "get", "path": "/x", "params": [{{"name": "q", "in": "query"}}]}}]}}"#,
        server.base()
    ))
    .unwrap()
    .with_observer(Arc::new(move |e: &Exchange<'_>| {
        assert!(e.elapsed > Duration::ZERO);
        assert!(e.bytes_sent > 50 && e.bytes_received > 50, "{:?}", e);
        assert!(e.error.is_none());
        sink.lock().unwrap().push(format!(
            "{} {} {} {:?}",
            e.tool, e.method, e.url, e.status
        ));
        assert_eq!(e.method, Method::Get);
    }));
    call(&p, "get", r#"{"q":"a b"}"#);
    assert_eq!(
        *seen.lock().unwrap(),
        [format!(
            "get GET {}/x?q=a%20b&key=*** Some(200)",
            server.base()
        )]
    );
    assert_eq!(server.requests()[0].target, "/x?q=a%20b&key=k-secret");
}

#[test]
fn context_value_from_one_call_never_leaks_into_the_next() {
    let server = Server::responding(|request| {
        let tenant = request
            .header("x-tenant")
            .unwrap_or_else(|| String::from("none"));
        // Upper-cased: the value itself would come back as `***` (an echoed secret).
        let tenant = tenant.to_ascii_uppercase();
        (String::from("200 OK"), String::new(), tenant.into_bytes())
    });
    let p = HttpPlugin::from_json(&single(
        &server.base(),
        r#""name": "get", "path": "/x",
           "params": [{"name": "tenant", "wire_name": "X-Tenant", "in": "header", "hidden": true}]"#,
    ))
    .unwrap();
    let first = call_with(&p, "get", "{}", &CallContext::new().with("tenant", "acme"));
    let second = call(&p, "get", "{}");
    assert_eq!((first.text(), second.text()), ("ACME", "NONE"));
}

#[test]
fn a_dry_run_refuses_exactly_the_request_targets_a_call_refuses() {
    // One owner prepares a request head (http's client): a dry run and a call of the same
    // tool check the same limit, on both sides of it.
    use httptool::http::{Client, Config, Secrets};
    let server = Server::json("{}");
    let client = Client::with_config(Config::new().max_request_target(100));
    let p = HttpPlugin::from_json(&single(
        &server.base(),
        r#""name": "get", "path": "/x", "params": [{"name": "q", "in": "query"}]"#,
    ))
    .unwrap()
    .with_client(client);
    // "/x?q=" is 5 bytes: a value of 95 makes a target of exactly 100.
    for (len, sent) in [(95, true), (96, false)] {
        let arguments = format!(r#"{{"q": "{}"}}"#, "a".repeat(len));
        let dry = p.dry_run("get", &arguments, &CallContext::new()).unwrap();
        assert_eq!(
            dry.render(Secrets::Mask).is_ok(),
            sent,
            "dry run, value {len}"
        );
        let out = call(&p, "get", &arguments);
        let want = if sent {
            None
        } else {
            Some(ErrorKind::LimitExceeded)
        };
        assert_eq!(out.error_kind(), want, "call, value {len}: {}", out.text());
    }
    assert_eq!(server.connections(), 1);
}
