//! `curl::to_curl`, `to_curl_call` and `to_curl_with`: the command for a call, written from
//! the request the plugin layer builds. Each rule of the module docs ("Converting back to
//! curl") has a test; every command must read back with `curl::parse` as the same request.

use std::process::Command;
use std::sync::Arc;

use httptool::curl::{self, ErrorKind, ExportOptions};
use httptool::http::{Client, Config, Method, Request, DEFAULT_USER_AGENT};
use httptool::plugin::{Auth, ConfigValue, Endpoint, HttpPlugin, Param, ParamType, Property};
use httptool::tool::CallContext;

fn ua() -> String {
    format!("-H 'User-Agent: {}'", DEFAULT_USER_AGENT)
}

fn one(endpoint: impl Into<Endpoint>) -> HttpPlugin {
    HttpPlugin::builder("t", "https://api.example.com/v1")
        .endpoint(endpoint)
        .build()
        .expect("a valid plugin")
}

fn call(plugin: &HttpPlugin, arguments: &str) -> String {
    curl::to_curl_call(plugin, None, arguments).unwrap_or_else(|e| panic!("{}", e))
}

fn revealed(plugin: &HttpPlugin, arguments: Option<&str>, context: CallContext) -> String {
    let options = ExportOptions::new().reveal_secrets(true).context(context);
    curl::to_curl_with(plugin, None, arguments, &options).unwrap_or_else(|e| panic!("{}", e))
}

/// The command reads back as exactly the request a call sends.
fn assert_reads_back(plugin: &HttpPlugin, arguments: &str, context: &CallContext) {
    let options = ExportOptions::new()
        .reveal_secrets(true)
        .context(context.clone());
    let command = curl::to_curl_with(plugin, None, Some(arguments), &options).unwrap();
    let cmd = curl::parse(&command).unwrap_or_else(|e| panic!("{}: {}", command, e));
    let tool = plugin.endpoints().next().unwrap().name().to_string();
    let request = plugin
        .dry_run(&tool, arguments, context)
        .unwrap_or_else(|o| panic!("{}", o.text()))
        .into_request();
    assert_eq!(cmd.method(), request.method().as_str(), "{}", command);
    assert_eq!(cmd.url(), request.url().as_str(), "{}", command);
    let mut expected: Vec<(String, String)> =
        vec![("User-Agent".to_string(), DEFAULT_USER_AGENT.to_string())];
    expected.extend(
        request
            .headers()
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string())),
    );
    let got: Vec<(String, String)> = cmd
        .headers()
        .iter()
        .map(|h| (h.name().to_string(), h.value().to_string()))
        .collect();
    assert_eq!(got, expected, "{}", command);
    let body: Vec<u8> = cmd
        .data()
        .iter()
        .flat_map(|d| d.inline().unwrap_or_default().to_vec())
        .collect();
    assert_eq!(body, request.body(), "{}", command);
}

// ----------------------------------------------------------------- choosing the endpoint

#[test]
fn the_only_endpoint_needs_no_name() {
    let plugin = one(Endpoint::get("ping", "/ping"));
    let expected = format!("curl https://api.example.com/v1/ping {}", ua());
    assert_eq!(curl::to_curl(&plugin, None).unwrap(), expected);
    assert_eq!(curl::to_curl(&plugin, "ping").unwrap(), expected);
}

#[test]
fn several_endpoints_need_a_name() {
    let plugin = HttpPlugin::builder("t", "https://api.example.com")
        .endpoint(Endpoint::get("list_notes", "/notes"))
        .endpoint(Endpoint::post("create_note", "/notes"))
        .build()
        .unwrap();
    let err = curl::to_curl(&plugin, None).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::EndpointRequired);
    assert_eq!(
        err.to_string(),
        "the plugin has 2 tools; name the one to export: list_notes, create_note"
    );
    let err = curl::to_curl(&plugin, "list_note").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownEndpoint);
    assert_eq!(
        err.to_string(),
        "unknown tool 'list_note'; did you mean 'list_notes'? accepted: list_notes, create_note"
    );
    assert!(curl::to_curl(&plugin, "create_note").is_ok());
}

// ----------------------------------------------------------------- method and body

#[test]
fn the_method_is_named_only_where_curl_would_pick_another() {
    let cases: Vec<(Endpoint, &str, &str)> = vec![
        (
            Endpoint::get("a", "/a").build(),
            "{}",
            "curl https://api.example.com/v1/a",
        ),
        (
            Endpoint::builder("a", Method::Head, "/a").build(),
            "{}",
            "curl -I https://api.example.com/v1/a",
        ),
        (
            Endpoint::builder("a", Method::Options, "/a").build(),
            "{}",
            "curl -X OPTIONS https://api.example.com/v1/a",
        ),
        (
            Endpoint::delete("a", "/a").build(),
            "{}",
            "curl -X DELETE https://api.example.com/v1/a",
        ),
        (
            Endpoint::post("a", "/a").param(Param::body("x")).build(),
            r#"{"x":"1"}"#,
            "curl https://api.example.com/v1/a",
        ),
        (
            Endpoint::put("a", "/a").param(Param::body("x")).build(),
            r#"{"x":"1"}"#,
            "curl -X PUT https://api.example.com/v1/a",
        ),
        (
            Endpoint::delete("a", "/a")
                .allow_delete_body(true)
                .param(Param::body("x"))
                .build(),
            r#"{"x":"1"}"#,
            "curl -X DELETE https://api.example.com/v1/a",
        ),
    ];
    for (endpoint, arguments, start) in cases {
        let plugin = one(endpoint);
        let command = call(&plugin, arguments);
        assert!(command.starts_with(&format!("{} -H", start)), "{}", command);
        assert_reads_back(&plugin, arguments, &CallContext::new());
    }
}

#[test]
fn a_body_is_sent_byte_for_byte() {
    let plugin = one(Endpoint::post("create_ticket", "/tickets")
        .param(Param::body("title").required(true))
        .param(Param::body("tags").ty(ParamType::array(ParamType::String))));
    let command = call(
        &plugin,
        r#"{"title": "It's \"on\" fire", "tags": ["a b", "c"]}"#,
    );
    assert_eq!(
        command,
        format!(
            "curl https://api.example.com/v1/tickets {} -H 'Content-Type: application/json' \
             --data-binary '{{\"title\":\"It'\\''s \\\"on\\\" fire\",\"tags\":[\"a b\",\"c\"]}}'",
            ua()
        )
    );
    assert_reads_back(
        &plugin,
        r#"{"title": "It's \"on\" fire", "tags": ["a b", "c"]}"#,
        &CallContext::new(),
    );
}

#[test]
fn an_empty_post_sends_an_empty_body_without_a_type() {
    let plugin = one(Endpoint::post("cancel", "/jobs/9/cancel").param(Param::body("reason")));
    assert_eq!(
        call(&plugin, "{}"),
        format!(
            "curl https://api.example.com/v1/jobs/9/cancel {} -H Content-Type: --data-binary ''",
            ua()
        )
    );
    let patch = one(Endpoint::patch("touch", "/a"));
    assert!(call(&patch, "{}").starts_with("curl -X PATCH "));
    assert!(call(&patch, "{}").ends_with("--data-binary ''"));
}

#[test]
fn a_form_body_keeps_its_encoding() {
    let plugin = one(Endpoint::post("charge", "/charges")
        .param(Param::form("amount").ty(ParamType::Integer))
        .param(Param::form("metadata_order").wire_name("metadata[order]")));
    let arguments = r#"{"amount": 2000, "metadata_order": "a&b c"}"#;
    let command = call(&plugin, arguments);
    assert!(
        command.ends_with("-H 'Content-Type: application/x-www-form-urlencoded' --data-binary 'amount=2000&metadata%5Border%5D=a%26b+c'"),
        "{}",
        command
    );
    assert_reads_back(&plugin, arguments, &CallContext::new());
}

// ----------------------------------------------------------------- placeholders

#[test]
fn required_parameters_without_a_value_are_placeholders() {
    let plugin = one(Endpoint::post("create_user", "/orgs/{org}/users")
        .param(Param::path("org"))
        .param(Param::query("notify").ty(ParamType::Boolean).required(true))
        .param(
            Param::query("mode")
                .enum_values(["fast", "slow"])
                .required(true),
        )
        .param(Param::body("name").required(true))
        .param(Param::body("age").ty(ParamType::Integer).required(true))
        .param(Param::body("score").ty(ParamType::Number).required(true))
        .param(
            Param::body("tags")
                .ty(ParamType::array(ParamType::String))
                .required(true),
        )
        .param(
            Param::body("address")
                .ty(ParamType::object([
                    Property::new("city", ParamType::String).with_required(true),
                    Property::new("zip", ParamType::Integer),
                ]))
                .required(true),
        )
        .param(Param::body("team").default("core"))
        .param(Param::body("nickname")));
    assert_eq!(
        curl::to_curl(&plugin, None).unwrap(),
        format!(
            "curl 'https://api.example.com/v1/orgs/<org>/users?notify=false&mode=fast' {} \
             -H 'Content-Type: application/json' --data-binary '{{\"name\":\"<name>\",\
             \"age\":<age>,\"score\":<score>,\"tags\":[\"<tags>\"],\"address\":{{\"city\":\
             \"<address.city>\",\"zip\":<address.zip>}},\"team\":\"core\"}}'",
            ua()
        )
    );
}

#[test]
fn missing_context_values_are_placeholders_and_secret() {
    let plugin = HttpPlugin::builder("t", "https://api.example.com")
        .auth(Auth::bearer(ConfigValue::context("user_token")))
        .header("X-Tenant", ConfigValue::context("tenant"))
        .endpoint(
            Endpoint::get("me", "/me")
                .param(Param::query("region").hidden(true).required(true))
                .param(
                    Param::query("limit")
                        .ty(ParamType::Integer)
                        .hidden(true)
                        .required(true),
                ),
        )
        .build()
        .unwrap();
    let masked = curl::to_curl(&plugin, None).unwrap();
    assert_eq!(
        masked,
        format!(
            "curl 'https://api.example.com/me?region=***&limit=***' {} -H 'X-Tenant: ***' \
             -H 'Authorization: ***'",
            ua()
        )
    );
    assert_eq!(
        revealed(&plugin, None, CallContext::new()),
        format!(
            "curl 'https://api.example.com/me?region=<region>&limit=<limit>' {} \
             -H 'X-Tenant: <tenant>' -H 'Authorization: Bearer <user_token>'",
            ua()
        )
    );
    let context = CallContext::new()
        .with("user_token", "t-1")
        .with("tenant", "acme")
        .with("region", "eu")
        .with("limit", "5");
    assert_eq!(
        revealed(&plugin, None, context.clone()),
        format!(
            "curl 'https://api.example.com/me?region=eu&limit=5' {} -H 'X-Tenant: acme' \
             -H 'Authorization: Bearer t-1'",
            ua()
        )
    );
    assert_reads_back(&plugin, "{}", &context);
}

// ----------------------------------------------------------------- secrets

#[test]
fn secrets_are_masked_unless_revealed() {
    let plugin = HttpPlugin::builder("t", "https://api.example.com")
        .auth(Auth::query("api_key", "k-query"))
        .header("Cookie", "sid=c00k")
        .endpoint(
            Endpoint::get("geo", "/geo")
                .param(Param::query("q").required(true))
                .param(
                    Param::header("key")
                        .wire_name("X-Key")
                        .secret(true)
                        .default("k-header"),
                )
                .param(Param::query("sig").secret(true).default("k-sig")),
        )
        .build()
        .unwrap();
    let masked = call(&plugin, r#"{"q": "Paris"}"#);
    assert_eq!(
        masked,
        format!(
            "curl 'https://api.example.com/geo?q=Paris&sig=***&api_key=***' {} \
             -H 'Cookie: ***' -H 'X-Key: ***'",
            ua()
        )
    );
    let shown = revealed(&plugin, Some(r#"{"q": "Paris"}"#), CallContext::new());
    for secret in ["k-query", "c00k", "k-header", "k-sig"] {
        assert!(shown.contains(secret), "{} not in {}", secret, shown);
    }
    assert_reads_back(&plugin, r#"{"q": "Paris"}"#, &CallContext::new());
}

#[test]
fn basic_and_environment_values_are_masked() {
    let text = r#"{"name": "t", "base_url": "https://api.example.com",
        "headers": {"X-Api-Version": "2", "X-Key": "${KEY}"},
        "auth": {"type": "basic", "username": "ann", "password": "${PASSWORD}"},
        "endpoints": [{"name": "me", "path": "/me"}]}"#;
    let plugin = HttpPlugin::from_json_with(text, |name| Some(format!("v-{}", name))).unwrap();
    assert_eq!(
        curl::to_curl(&plugin, None).unwrap(),
        format!(
            "curl https://api.example.com/me {} -H 'X-Api-Version: 2' -H 'X-Key: ***' \
             -H 'Authorization: ***'",
            ua()
        )
    );
}

// ----------------------------------------------------------------- what curl adds itself

#[test]
fn a_request_without_a_user_agent_removes_curls() {
    let client = Client::with_config(Config::new().user_agent(None));
    let plugin = one(Endpoint::get("ping", "/ping")).with_client(client);
    assert_eq!(
        curl::to_curl(&plugin, None).unwrap(),
        "curl https://api.example.com/v1/ping -H User-Agent:"
    );
    let own = HttpPlugin::builder("t", "https://api.example.com")
        .header("User-Agent", "mine/1")
        .endpoint(Endpoint::get("ping", "/ping"))
        .build()
        .unwrap();
    assert_eq!(
        curl::to_curl(&own, None).unwrap(),
        "curl https://api.example.com/ping -H 'User-Agent: mine/1'"
    );
}

#[test]
fn an_ipv6_url_turns_globbing_off() {
    let plugin = HttpPlugin::builder("t", "http://[::1]:8080")
        .endpoint(Endpoint::get("ping", "/ping"))
        .build()
        .unwrap();
    assert_eq!(
        curl::to_curl(&plugin, None).unwrap(),
        format!("curl --globoff 'http://[::1]:8080/ping' {}", ua())
    );
}

#[test]
fn a_signed_body_starting_with_at_is_raw_data() {
    let signer = |request: &mut Request,
                  _: &CallContext|
     -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        request.set_body("@/etc/passwd");
        Ok(())
    };
    let plugin = one(Endpoint::post("a", "/a")).with_signer(Arc::new(signer));
    let command = curl::to_curl(&plugin, None).unwrap();
    assert!(command.ends_with("--data-raw @/etc/passwd"), "{}", command);
    let cmd = curl::parse(&command).unwrap();
    assert_eq!(cmd.data()[0].inline(), Some(&b"@/etc/passwd"[..]));
}

// ----------------------------------------------------------------- multipart

fn upload_plugin() -> HttpPlugin {
    one(Endpoint::post("upload", "/files")
        .body_encoding(httptool::plugin::BodyEncoding::Multipart)
        .param(Param::form("title").required(true))
        .param(Param::form("doc").file(true).required(true))
        .param(Param::form("n").ty(ParamType::array(ParamType::Integer))))
}

#[test]
fn file_parts_are_attached_by_handle() {
    let plugin = upload_plugin();
    assert_eq!(
        call(
            &plugin,
            r#"{"title": "Q3 \"final\"", "doc": "reports/q3;v2.pdf", "n": [1, 2]}"#
        ),
        format!(
            "curl https://api.example.com/v1/files {} --form-string 'title=Q3 \"final\"' \
             -F 'doc=@\"reports/q3;v2.pdf\"' --form-string n=1 --form-string n=2",
            ua()
        )
    );
    assert_eq!(
        curl::to_curl(&plugin, None).unwrap(),
        format!(
            "curl https://api.example.com/v1/files {} --form-string 'title=<title>' \
             -F 'doc=@<doc>'",
            ua()
        )
    );
}

#[test]
fn multipart_text_with_line_breaks_is_an_ansi_c_string() {
    let plugin = one(Endpoint::post("note", "/notes")
        .body_encoding(httptool::plugin::BodyEncoding::Multipart)
        .param(Param::form("text"))
        .param(Param::form("doc").file(true)));
    let command = call(
        &plugin,
        r#"{"text": "line 1\nline\t2 'q'", "doc": "a.txt"}"#,
    );
    assert!(
        command.contains(r"--form-string $'text=line 1\nline\t2 \'q\''"),
        "{}",
        command
    );
    let cmd = curl::parse(&command).unwrap();
    assert_eq!(cmd.form()[0].text(), Some("line 1\nline\t2 'q'"));
}

#[test]
fn a_nul_byte_or_an_odd_field_name_cannot_be_written() {
    let plugin = upload_plugin();
    let err =
        curl::to_curl_call(&plugin, None, r#"{"title": "a\u0000b", "doc": "x"}"#).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unrepresentable);
    assert_eq!(
        err.to_string(),
        "the request cannot be written as a curl command: a multipart field holds a NUL byte, which no command-line argument can"
    );
    let odd = one(Endpoint::post("up", "/up")
        .body_encoding(httptool::plugin::BodyEncoding::Multipart)
        .param(Param::form("a").wire_name("a=b"))
        .param(Param::form("doc").file(true)));
    let err = curl::to_curl_call(&odd, None, r#"{"a": "x", "doc": "f"}"#).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unrepresentable);
}

// ----------------------------------------------------------------- errors

#[test]
fn arguments_that_make_no_request_are_call_errors() {
    let plugin =
        one(Endpoint::get("get_weather", "/weather")
            .param(Param::query("days").ty(ParamType::Integer)));
    let err = curl::to_curl_call(&plugin, None, r#"{"dys": 3}"#).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Call);
    assert_eq!(
        err.to_string(),
        "the call cannot be built (unknown_parameter): unknown parameter 'dys'; did you mean 'days'? accepted: days"
    );
    let err = curl::to_curl_call(&plugin, None, "[1]").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Call);
    let err = curl::to_curl_call(&plugin, None, r#"{"days": "many"}"#).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Call);
    assert!(
        err.to_string()
            .starts_with("the call cannot be built (invalid_parameter): "),
        "{}",
        err
    );
}

#[test]
fn a_request_the_client_would_refuse_is_an_error() {
    let plugin = one(Endpoint::get("search", "/search").param(Param::query("q")));
    let long = format!(r#"{{"q": "{}"}}"#, "x".repeat(9000));
    let err = curl::to_curl_call(&plugin, None, &long).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Request);
    assert_eq!(
        err.to_string(),
        "the request would not be sent: the request target exceeds max_request_target of 8192 \
         bytes: 9013 bytes seen (https://api.example.com/v1/search)"
    );
}

// ----------------------------------------------------------------- layout and shells

#[test]
fn multiline_puts_each_option_on_its_own_line() {
    let plugin = one(Endpoint::put("put", "/a")
        .param(Param::body("x"))
        .param(Param::header("trace").wire_name("X-Trace")));
    let options = ExportOptions::new().multiline(true);
    let command =
        curl::to_curl_with(&plugin, None, Some(r#"{"x": "1", "trace": "t"}"#), &options).unwrap();
    assert_eq!(
        command,
        format!(
            "curl -X PUT https://api.example.com/v1/a \\\n  {} \\\n  -H 'Content-Type: application/json' \\\n  -H 'X-Trace: t' \\\n  --data-binary '{{\"x\":\"1\"}}'",
            ua()
        )
    );
    let single = call(&plugin, r#"{"x": "1", "trace": "t"}"#);
    assert_eq!(
        curl::shell_words(&command).unwrap(),
        curl::shell_words(&single).unwrap()
    );
}

/// bash reads the command into the same words as httptool's shell reader: a `curl`
/// function prints each argument it gets, NUL-terminated.
#[test]
fn bash_passes_the_words_curl_would_get() {
    let bash = std::path::Path::new("/bin/bash");
    if !bash.exists() {
        assert!(std::env::var_os("CI").is_none(), "bash is needed under CI");
        return;
    }
    let plugin = HttpPlugin::builder("t", "https://api.example.com")
        .header("X-Note", "tab\there, $HOME `id` 'q' \"d\" \\")
        .endpoint(
            Endpoint::post("note", "/notes/{id}")
                .body_encoding(httptool::plugin::BodyEncoding::Multipart)
                .param(Param::path("id"))
                .param(Param::form("text"))
                .param(Param::form("doc").file(true)),
        )
        .build()
        .unwrap();
    let arguments = r#"{"id": "a b/é", "text": "x\r\ny\u0001 '$(id)'", "doc": "my file.txt"}"#;
    let command = call(&plugin, arguments);
    let script = format!(
        "curl() {{ for a in \"$@\"; do printf '%s\\0' \"$a\"; done; }}; {}",
        command
    );
    let out = Command::new(bash).arg("-c").arg(&script).output().unwrap();
    let words: Vec<Vec<u8>> = out
        .stdout
        .split(|&b| b == 0)
        .filter(|w| !w.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    let expected = curl::shell_words(&command).unwrap();
    assert_eq!(words, expected[1..].to_vec(), "{}", command);
}

#[test]
fn exports_of_converted_commands_read_back_as_their_requests() {
    let commands = [
        "curl 'https://api.example.com/v1/search?q=rust+http&limit=5' -H 'Accept: application/json' -H 'Authorization: Bearer t0k'",
        r#"curl https://api.example.com/v1/tickets -u ann:pw --json '{"title": "x", "n": [1, 2], "meta": {"a": true}}'"#,
        "curl -X PATCH https://api.example.com/v1/me -d 'name=Ann+Lee&role=a&role=b' -b 'sid=1'",
        "curl -X DELETE 'https://api.example.com/v1/files/9?api_key=k'",
    ];
    for command in commands {
        let cmd = curl::parse(command).unwrap();
        let import = curl::to_plugin_with(&cmd, &curl::ImportOptions::new()).unwrap();
        let arguments = httptool::json::Json::Object(import.sample_arguments().clone()).to_string();
        assert_reads_back(import.plugin(), &arguments, &CallContext::new());
    }
}

/// curl -> plugin -> curl -> plugin: the second plugin's call sends the first one's request
/// (headers compared as a set: the export writes `User-Agent` as a header of its own).
#[test]
fn an_exported_command_converts_back_to_the_same_request() {
    let commands = [
        "curl 'https://api.example.com/v1/search?q=rust+http&tag=a&tag=b&api_key=k1' -H 'Accept: application/json'",
        r#"curl https://api.example.com/v1/tickets -H 'Authorization: Bearer t0k' --json '{"title": "x", "n": [1, 2.5], "meta": {"a": true, "b": null}}'"#,
        r#"curl https://api.example.com/v1/issues -d '{"title": "Bug", "labels": ["a"]}'"#,
        "curl -X PATCH https://api.example.com/v1/me -d 'name=Ann+Lee&role=a&role=b' -b 'sid=1' -e https://x.example.com/",
        "curl -X DELETE 'https://api.example.com/v1/files/9?force=true' -H 'X-Api-Key: k' -H 'X-Auth-Token: t'",
        "curl -X POST https://api.example.com/v1/jobs/9/cancel -H 'Content-Type: application/json'",
        "curl -I https://api.example.com/v1/status -A 'probe/1'",
        "curl https://api.example.com/v1/batch --json '[[1], [2]]'",
        "curl -u 'ann:p@ss:word' https://api.example.com/v1/me -H 'X-Empty;'",
        "curl -X PUT https://api.example.com/v1/users/42 -H 'Authorization: Token abc' -H 'Content-Type: application/merge-patch+json' -d '{\"name\": \"Zoë\"}'",
    ];
    let context = CallContext::new();
    for command in commands {
        let options = curl::ImportOptions::new();
        let first = curl::to_plugin_with(&curl::parse(command).unwrap(), &options).unwrap();
        let arguments = httptool::json::Json::Object(first.sample_arguments().clone()).to_string();
        let tool = first.tool_name().to_string();
        let first = first.into_plugin();
        let before = first
            .dry_run(&tool, &arguments, &context)
            .unwrap()
            .into_request();

        let export = ExportOptions::new().reveal_secrets(true);
        let exported = curl::to_curl_with(&first, None, Some(&arguments), &export).unwrap();
        let again = curl::to_plugin_with(&curl::parse(&exported).unwrap(), &options)
            .unwrap_or_else(|e| panic!("{}: {}", exported, e));
        let arguments = httptool::json::Json::Object(again.sample_arguments().clone()).to_string();
        let after = again
            .plugin()
            .dry_run(again.tool_name(), &arguments, &context)
            .unwrap_or_else(|o| panic!("{}: {}", exported, o.text()))
            .into_request();

        assert_eq!(after.method(), before.method(), "{}", exported);
        assert_eq!(after.url(), before.url(), "{}", exported);
        assert_eq!(after.body(), before.body(), "{}", exported);
        let headers = |r: &Request| {
            let mut all: Vec<(String, String)> = r
                .headers()
                .iter()
                .filter(|(n, _)| !n.eq_ignore_ascii_case("user-agent"))
                .map(|(n, v)| (n.to_ascii_lowercase(), v.to_string()))
                .collect();
            all.sort();
            all
        };
        assert_eq!(headers(&after), headers(&before), "{}", exported);
    }
}

#[test]
fn a_secret_that_spells_part_of_a_header_name_is_masked_in_the_value_only() {
    // The credential's last word, `ation:`, also stands in the header's name and separator.
    let command =
        curl::parse("curl https://api.example.com/v1 -H 'X-Authorization: Key ation:'").unwrap();
    let plugin = curl::to_plugin(&command).unwrap();
    let exported = curl::to_curl(&plugin, None).unwrap();
    assert!(exported.contains("-H 'X-Authorization: "), "{}", exported);
    assert!(!exported.contains("ation:'"), "{}", exported);
    curl::parse(&exported).unwrap();
}
