//! One name per option in every layer: the plugin file's field names (`max_response_bytes`,
//! `overload_retries`, `redirect_hosts`, ...) are the names of the `http` settings too.

use std::time::Duration;

use httptool::http::{
    self, AddressPolicy, Client, Limit, RedirectPolicy, Request, RequestOptions, RetryPolicy,
    Transport,
};
use httptool::plugin::{AddressMode, Endpoint, HttpPlugin, Options};
use httptool::tool::CallContext;

use crate::support::Server;

fn body_of(len: usize) -> Server {
    Server::responding(move |_| (String::from("200 OK"), String::new(), vec![b'a'; len]))
}

#[test]
fn the_body_limit_error_names_the_setting_as_the_plugin_file_does() {
    assert_eq!(http::DEFAULT_MAX_RESPONSE_BYTES, 10 * 1024 * 1024);
    assert_eq!(Limit::Body.setting(), "max_response_bytes");
    let server = body_of(11);
    let request = Request::get(&server.url("/x"))
        .unwrap()
        .with_options(RequestOptions::new().max_response_bytes(10));
    let err = Client::new().send(&request).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the response body exceeds max_response_bytes of 10 bytes: 11 bytes seen ({})",
            server.url("/x")
        )
    );
}

/// Each option of the plugin file becomes the `http` setting of the same name, in one place:
/// the request a call would send carries exactly these options.
#[test]
fn every_plugin_file_option_becomes_the_http_option_of_the_same_name() {
    let plugin = HttpPlugin::from_json(
        r#"{"name": "p", "base_url": "https://api.example.com",
            "timeout_connect_ms": 1000, "timeout_read_ms": 2000, "timeout_write_ms": 3000,
            "timeout_call_ms": 4000, "max_response_bytes": 5000,
            "max_redirects": 2, "redirect_hosts": ["cdn.example.com"],
            "address_policy": "strict", "overload_retries": 1,
            "endpoints": [{"name": "get", "path": "/x"}]}"#,
    )
    .unwrap();
    let dry = plugin.dry_run("get", "{}", &CallContext::new()).unwrap();
    let expected = RequestOptions::new()
        .timeout_connect(Duration::from_millis(1000))
        .timeout_read(Duration::from_millis(2000))
        .timeout_write(Duration::from_millis(3000))
        .timeout_call(Duration::from_millis(4000))
        .max_response_bytes(5000)
        .redirect(RedirectPolicy::redirect_hosts(["cdn.example.com"]).max_redirects(2))
        .address_policy(AddressPolicy::strict())
        .retry(RetryPolicy::overload_retries(1));
    assert_eq!(dry.request().options(), &expected);
}

/// The same options set in Rust, with the setters named after the file's fields, build the
/// same request.
#[test]
fn plugin_options_set_in_rust_match_the_file() {
    let options = Options::new()
        .timeout_connect(Duration::from_millis(1000))
        .timeout_read(Duration::from_millis(2000))
        .timeout_write(Duration::from_millis(3000))
        .timeout_call(Duration::from_millis(4000))
        .max_response_bytes(5000)
        .max_redirects(2)
        .redirect_hosts(["cdn.example.com"])
        .address_policy(AddressMode::Strict)
        .overload_retries(1);
    let built = HttpPlugin::builder("p", "https://api.example.com")
        .options(options)
        .endpoint(Endpoint::get("get", "/x"))
        .build()
        .unwrap();
    let read = HttpPlugin::from_json(&built.to_json().to_string()).unwrap();
    let context = CallContext::new();
    let a = built.dry_run("get", "{}", &context).unwrap();
    let b = read.dry_run("get", "{}", &context).unwrap();
    assert_eq!(a.request().options(), b.request().options());
    assert_eq!(
        a.request().options(),
        &RequestOptions::new()
            .timeout_connect(Duration::from_millis(1000))
            .timeout_read(Duration::from_millis(2000))
            .timeout_write(Duration::from_millis(3000))
            .timeout_call(Duration::from_millis(4000))
            .max_response_bytes(5000)
            .redirect(RedirectPolicy::redirect_hosts(["cdn.example.com"]).max_redirects(2))
            .address_policy(AddressPolicy::strict())
            .retry(RetryPolicy::overload_retries(1))
    );
}

/// The plugin's own client keeps the defaults; a plugin's `max_response_bytes` reaches the
/// wire with the request.
#[test]
fn a_plugins_max_response_bytes_limits_its_own_client() {
    let server = body_of(101);
    let plugin = |limit: usize| {
        HttpPlugin::builder("p", server.base())
            .options(Options::new().max_response_bytes(limit))
            .endpoint(Endpoint::get("get", "/x"))
            .build()
            .unwrap()
    };
    let tool = plugin(100).tool("get").unwrap();
    let err = tool
        .send(Default::default(), &CallContext::new())
        .unwrap_err();
    assert_eq!(
        err.error_kind(),
        Some(httptool::tool::ErrorKind::LimitExceeded)
    );
    let tool = plugin(101).tool("get").unwrap();
    let response = tool.send(Default::default(), &CallContext::new()).unwrap();
    assert_eq!(response.body().len(), 101);
}
