//! Secrets a call sent never come back to the model or to an observer: a server that echoes
//! them (in a body, a reason phrase, a redirect, a header the output quotes) gets `***` in
//! their place, and a redirect whose `Location` cannot be parsed is quoted without its query,
//! userinfo or anything after a control character. `ApiResponse` keeps the raw bytes.

use std::sync::{Arc, Mutex};

use httptool::json::Map;
use httptool::plugin::{Exchange, HttpPlugin};
use httptool::tool::{CallContext, ErrorKind, ToolOutput};

use crate::support::plugin::{call, call_with, Server};

const SECRET: &str = "s3cr3t-K3Y-value";

/// A server answering every request with the raw bytes `reply(target)` makes.
fn raw_server<F>(reply: F) -> Server
where
    F: Fn(&str) -> String + Send + Sync + 'static,
{
    Server::replying(move |request| reply(&request.target).into_bytes())
}

/// A plugin whose every call sends `api_key=SECRET` in the query (a `${KEY}` value).
fn query_key_plugin(server: &Server) -> HttpPlugin {
    let file = format!(
        r#"{{"name": "p", "base_url": "{}", "query": {{"api_key": "${{KEY}}"}},
            "endpoints": [{{"name": "get", "path": "/x"}}]}}"#,
        server.base()
    );
    HttpPlugin::from_json_with(&file, |name| (name == "KEY").then(|| SECRET.to_string())).unwrap()
}

fn assert_no_secret(out: &ToolOutput, secrets: &[&str]) {
    for secret in secrets {
        assert!(!out.text().contains(secret), "{secret} in {}", out.text());
        if let Some(data) = out.structured() {
            let data = data.to_string();
            assert!(!data.contains(secret), "{secret} in {data}");
        }
    }
}

// ------------------------------------------------------------------- defect 2

#[test]
fn regression_unparsable_redirect_location_never_quotes_the_secret() {
    // Defect 2: a Location that cannot be parsed was quoted whole, query included, so a
    // server echoing `api_key` in it handed the key to the model.
    let forms = [
        // A space: not a valid URL.
        (
            format!("http://127.0.0.1:1/a b?api_key={SECRET}"),
            "'http://127.0.0.1:1/a b'",
        ),
        // Userinfo: refused by the URL parser.
        (
            format!("http://u:{SECRET}@127.0.0.1:1/next?api_key={SECRET}"),
            "'http://127.0.0.1:1/next'",
        ),
        // Backslashes: refused by the URL parser.
        (
            format!("http:\\\\127.0.0.1:1\\next?api_key={SECRET}"),
            "'http:\\\\127.0.0.1:1\\next'",
        ),
        // A control character (tab, which a header value may hold) and the secret after it.
        (
            format!("http://127.0.0.1:1/p\tq/{SECRET}"),
            "'http://127.0.0.1:1/p'",
        ),
    ];
    for (location, shown) in forms {
        let reply =
            format!("HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n");
        let server = Server::fixed(&reply);
        let out = call(&query_key_plugin(&server), "get", "{}");
        assert_eq!(
            out.error_kind(),
            Some(ErrorKind::RedirectNotFollowed),
            "{location}: {out:?}"
        );
        assert_no_secret(&out, &[SECRET, "api_key"]);
        assert!(
            out.text()
                .starts_with(&format!("the API redirected (302) to {shown}")),
            "{location}: {}",
            out.text()
        );
    }
}

#[test]
fn regression_unparsable_redirect_location_with_nothing_left_is_not_quoted() {
    // Defect 2: a Location that is nothing but a query is not quoted.
    let reply = format!(
        "HTTP/1.1 302 Found\r\nLocation: ?x y&api_key={SECRET}\r\nContent-Length: 0\r\n\r\n"
    );
    let server = Server::fixed(&reply);
    let out = call(&query_key_plugin(&server), "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::RedirectNotFollowed));
    assert_no_secret(&out, &[SECRET]);
    assert!(
        out.text()
            .starts_with("the API redirected (302) to a location that could not be read"),
        "{}",
        out.text()
    );
}

// ------------------------------------------------------------------- defect 3

/// Every way a server can hand a secret back, for one plugin and context.
fn assert_echoes_are_redacted(
    plugin_json: &dyn Fn(&str) -> String,
    env: &dyn Fn(&str) -> Option<String>,
    context: &CallContext,
    arguments: &str,
    secrets: &[&str],
) {
    // The echoed value: every secret as sent, and percent-encoded (lower-case hex too).
    let echoed: String = secrets
        .iter()
        .map(|s| {
            let encoded: String = s
                .bytes()
                .map(|b| {
                    if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                        (b as char).to_string()
                    } else {
                        format!("%{:02x}", b)
                    }
                })
                .collect();
            format!("{s} {encoded} ")
        })
        .collect();
    let echo = echoed.clone();
    let first = secrets[0].to_string();
    let server = raw_server(move |target| {
        let json = format!(r#"{{"you sent":"{}","list":["{}"]}}"#, echo, echo);
        match target {
            t if t.starts_with("/ok") => format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
                json.len(),
                json
            ),
            t if t.starts_with("/unauthorized") => format!(
                "HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{}",
                echo.len(),
                echo
            ),
            t if t.starts_with("/reason") => format!(
                "HTTP/1.1 400 Bad key {first}\r\nContent-Length: 0\r\n\r\n"
            ),
            t if t.starts_with("/redirect") => format!(
                "HTTP/1.1 302 Found\r\nLocation: http://192.0.2.1/{first}/next\r\nContent-Length: 0\r\n\r\n"
            ),
            _ => format!(
                "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Disposition: attachment; filename=\"{first}.png\"\r\nContent-Length: 1\r\n\r\nx"
            ),
        }
    });
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = seen.clone();
    let plugin = HttpPlugin::from_json_with(&plugin_json(&server.base()), env)
        .unwrap()
        .with_observer(Arc::new(move |e: &Exchange<'_>| {
            log.lock().unwrap().push(format!("{} {:?}", e.url, e.error));
        }));
    for tool in ["ok", "unauthorized", "reason", "redirect", "binary"] {
        let out = call_with(&plugin, tool, arguments, context);
        assert_no_secret(&out, secrets);
        assert!(out.text().contains("***"), "{tool}: {}", out.text());
        if tool == "ok" {
            // The parsed view is redacted inside its strings, and still parses.
            let data = out.structured().expect("parsed body");
            assert!(data["you sent"].as_str().unwrap().starts_with("*** *** "));
            assert!(data["list"][0].as_str().unwrap().starts_with("*** *** "));
            // Rust callers get the raw bytes.
            let tool = plugin.tool("ok").unwrap();
            let arguments: Map = httptool::json::parse(arguments)
                .unwrap()
                .into_object()
                .unwrap();
            let response = tool.send(arguments, context).unwrap();
            let body = String::from_utf8_lossy(response.body()).into_owned();
            assert!(body.contains(secrets[0]), "{body}");
            assert_no_secret(&tool.output(response), secrets);
        }
    }
    for line in seen.lock().unwrap().iter() {
        for secret in secrets {
            assert!(!line.contains(secret), "observer saw {secret}: {line}");
        }
    }
}

/// A plugin file with the five endpoints of [`assert_echoes_are_redacted`] and `extra`
/// (fields of the plugin, each followed by a comma) and `params` (each endpoint's).
fn echo_plugin(base: &str, extra: &str, params: &str) -> String {
    let endpoints: Vec<String> = ["ok", "unauthorized", "reason", "redirect", "binary"]
        .iter()
        .map(|name| format!(r#"{{"name": "{name}", "path": "/{name}", "params": [{params}]}}"#))
        .collect();
    format!(
        r#"{{"name": "p", "base_url": "{base}", {extra} "endpoints": [{}]}}"#,
        endpoints.join(",")
    )
}

fn no_env(_: &str) -> Option<String> {
    None
}

#[test]
fn regression_echoed_bearer_token_is_redacted() {
    // Defect 3: a 401 body, a 200 body, a reason phrase, a redirect path or a header the
    // output quotes that held the bearer token went to the model with the token in it.
    let secret = "tok/en+with=odd&chars";
    assert_echoes_are_redacted(
        &|base| {
            echo_plugin(
                base,
                r#""auth": {"type": "bearer", "token": "${TOKEN}"},"#,
                "",
            )
        },
        &|name| (name == "TOKEN").then(|| secret.to_string()),
        &CallContext::new(),
        "{}",
        &[secret],
    );
}

#[test]
fn regression_echoed_basic_credentials_are_redacted() {
    // Defect 3: the password, and the base64 of `user:password`.
    let password = "open sesame!";
    assert_echoes_are_redacted(
        &|base| {
            echo_plugin(
                base,
                r#""auth": {"type": "basic", "username": "Aladdin", "password": "${PASSWORD}"},"#,
                "",
            )
        },
        &|name| (name == "PASSWORD").then(|| password.to_string()),
        &CallContext::new(),
        "{}",
        &[password, "QWxhZGRpbjpvcGVuIHNlc2FtZSE="],
    );
}

#[test]
fn regression_echoed_header_and_query_keys_are_redacted() {
    // Defect 3: an API key in a header auth, a secret static header, a secret query value.
    assert_echoes_are_redacted(
        &|base| {
            echo_plugin(
                base,
                r#""auth": {"type": "header", "name": "X-Api-Key", "value": "${KEY}"},
                   "headers": {"X-Extra": "${EXTRA}"},
                   "query": {"access_key": "literal-signature"},"#,
                "",
            )
        },
        &|name| match name {
            "KEY" => Some(String::from("header-key-0001")),
            "EXTRA" => Some(String::from("extra-header-0002")),
            _ => None,
        },
        &CallContext::new(),
        "{}",
        &["header-key-0001", "extra-header-0002", "literal-signature"],
    );
}

#[test]
fn regression_echoed_query_auth_is_redacted() {
    // Defect 3: an API key in a query auth.
    assert_echoes_are_redacted(
        &|base| {
            echo_plugin(
                base,
                r#""auth": {"type": "query", "name": "key", "value": "${KEY}"},"#,
                "",
            )
        },
        &|name| (name == "KEY").then(|| String::from("q uery/key")),
        &CallContext::new(),
        "{}",
        &["q uery/key"],
    );
}

#[test]
fn regression_echoed_context_values_are_redacted() {
    // Defect 3: auth from the call context, and hidden parameters filled from it (in the
    // path, the query and a header), which the observer's URL must not show either.
    let context = CallContext::new()
        .with("user_token", "user-token-4711")
        .with("tenant", "tenant-acme-01")
        .with("account", "account-9876")
        .with("trace", "trace-secret-55");
    let plugin = |base: &str| {
        let endpoints: Vec<String> = ["ok", "unauthorized", "reason", "redirect", "binary"]
            .iter()
            .map(|name| {
                format!(
                    r#"{{"name": "{name}", "path": "/{name}/{{tenant}}", "params": [
                        {{"name": "tenant", "in": "path", "hidden": true}},
                        {{"name": "account", "in": "query", "hidden": true}},
                        {{"name": "trace", "wire_name": "X-Trace", "in": "header", "hidden": true}}]}}"#
                )
            })
            .collect();
        format!(
            r#"{{"name": "p", "base_url": "{base}",
                "auth": {{"type": "bearer", "token": {{"context": "user_token"}}}},
                "endpoints": [{}]}}"#,
            endpoints.join(",")
        )
    };
    assert_echoes_are_redacted(
        &plugin,
        &no_env,
        &context,
        "{}",
        &[
            "user-token-4711",
            "tenant-acme-01",
            "account-9876",
            "trace-secret-55",
        ],
    );
}

// ------------------------------------------------------------------- defect 5

#[test]
fn regression_plugin_credential_names_are_judged_on_tokens() {
    // Once, a literal `sig` query value and an `X-Jwt` header were printed in
    // dry runs, while `author` was masked and an `Idempotency-Key` header was `***`.
    let server = Server::fixed("HTTP/1.1 204 No Content\r\n\r\n");
    let file = format!(
        r#"{{"name": "p", "base_url": "{}",
            "query": {{"sig": "sas-signature-1", "author": "tolkien"}},
            "headers": {{"X-Jwt": "jwt-header-1", "Idempotency-Key": "idem-1234"}},
            "endpoints": [{{"name": "get", "path": "/x"}}]}}"#,
        server.base()
    );
    let plugin = HttpPlugin::from_json(&file).unwrap();
    let dry = plugin
        .dry_run("get", "{}", &CallContext::new())
        .unwrap()
        .to_string();
    assert!(
        dry.starts_with("GET /x?sig=***&author=tolkien HTTP/1.1\r\n"),
        "{dry}"
    );
    assert!(dry.contains("X-Jwt: ***\r\n"), "{dry}");
    assert!(dry.contains("Idempotency-Key: idem-1234\r\n"), "{dry}");
    assert!(!dry.contains("sas-signature-1") && !dry.contains("jwt-header-1"));
}

#[test]
fn dry_runs_mask_hidden_context_values_wherever_they_go() {
    // A value from the call context is a secret in the path and the body too, not only in
    // the query and headers.
    let plugin = HttpPlugin::from_json(
        r#"{"name": "p", "base_url": "https://api.example.com",
            "endpoints": [{"name": "put", "method": "PUT", "path": "/tenants/{tenant}",
              "params": [{"name": "tenant", "in": "path", "hidden": true},
                         {"name": "owner", "in": "body", "hidden": true},
                         {"name": "note", "in": "body"}]}]}"#,
    )
    .unwrap();
    let context = CallContext::new()
        .with("tenant", "tenant-acme-01")
        .with("owner", "owner-secret-2");
    let dry = plugin.dry_run("put", r#"{"note":"hi"}"#, &context).unwrap();
    let shown = dry.to_string();
    assert!(
        shown.starts_with("PUT /tenants/*** HTTP/1.1\r\n"),
        "{shown}"
    );
    assert!(shown.ends_with(r#"{"owner":"***","note":"hi"}"#), "{shown}");
    // The request itself is unchanged.
    assert_eq!(dry.request().url().path(), "/tenants/tenant-acme-01");
    let raw = dry.render(httptool::http::Secrets::Reveal).unwrap();
    assert!(String::from_utf8_lossy(&raw).contains("owner-secret-2"));
}
