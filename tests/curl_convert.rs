//! Every rule of `curl::to_plugin`: one test a rule, named for it. The request a converted
//! tool sends is checked with the plugin's own dry run.

use httptool::curl::{self, ErrorKind, Import, ImportOptions};
use httptool::http::{Method, Request};
use httptool::json::{self, Json};
use httptool::plugin::{Auth, BodyEncoding, Endpoint, Location, Param, ParamType, Property};
use httptool::tool::{CallContext, Tool};

fn import_with(command: &str, options: &ImportOptions) -> Import {
    let cmd = curl::parse(command).unwrap_or_else(|e| panic!("{}: {}", command, e));
    curl::to_plugin_with(&cmd, options).unwrap_or_else(|e| panic!("{}: {}", command, e))
}

fn import(command: &str) -> Import {
    import_with(command, &ImportOptions::new())
}

fn error(command: &str, options: &ImportOptions) -> curl::Error {
    let cmd = curl::parse(command).unwrap_or_else(|e| panic!("{}: {}", command, e));
    match curl::to_plugin_with(&cmd, options) {
        Ok(import) => panic!("{} converted: {:?}", command, import.plugin()),
        Err(err) => err,
    }
}

fn endpoint(import: &Import) -> &Endpoint {
    import.plugin().endpoints().next().expect("one endpoint")
}

fn param<'a>(import: &'a Import, name: &str) -> &'a Param {
    endpoint(import)
        .param(name)
        .unwrap_or_else(|| panic!("no parameter {}", name))
}

fn names(import: &Import) -> Vec<&str> {
    endpoint(import).params().iter().map(Param::name).collect()
}

/// The request a call with `arguments` sends.
fn request(import: &Import, arguments: &str) -> Request {
    import
        .plugin()
        .dry_run(import.tool_name(), arguments, &CallContext::new())
        .unwrap_or_else(|output| panic!("{}", output.text()))
        .into_request()
}

/// The request the sample arguments send.
fn replay(import: &Import) -> Request {
    let arguments = Json::Object(import.sample_arguments().clone()).to_string();
    request(import, &arguments)
}

fn notes(import: &Import) -> Vec<String> {
    import.notes().iter().map(|n| n.to_string()).collect()
}

fn has_note(import: &Import, text: &str) -> bool {
    import.notes().iter().any(|n| n.message().contains(text))
}

fn file(import: &Import) -> String {
    import.plugin().to_json().to_string()
}

fn header<'a>(request: &'a Request, name: &str) -> Option<&'a str> {
    request.headers().get(name)
}

fn body_json(request: &Request) -> Json {
    json::parse_bytes(request.body()).expect("a JSON body")
}

// ----------------------------------------------------------------- URL, path and names

#[test]
fn version_segments_go_to_the_base_url() {
    let import = import("curl https://api.example.com/api/v2/users");
    assert_eq!(
        import.plugin().base_url().as_str(),
        "https://api.example.com/api/v2"
    );
    assert_eq!(endpoint(&import).path(), "/users");
}

#[test]
fn a_path_that_is_only_a_version_stays_the_endpoint_path() {
    let import = import("curl https://api.example.com/v1");
    assert_eq!(
        import.plugin().base_url().as_str(),
        "https://api.example.com/"
    );
    assert_eq!(endpoint(&import).path(), "/v1");
}

#[test]
fn an_empty_path_is_the_root() {
    let import = import("curl http://api.example.com:8080");
    assert_eq!(endpoint(&import).path(), "/");
    assert_eq!(import.tool_name(), "get_example");
    assert_eq!(
        replay(&import).url().as_str(),
        "http://api.example.com:8080/"
    );
}

#[test]
fn a_trailing_slash_is_kept() {
    let import = import("curl https://api.example.com/v1/users/");
    assert_eq!(endpoint(&import).path(), "/users/");
    assert_eq!(
        replay(&import).url().as_str(),
        "https://api.example.com/v1/users/"
    );
}

#[test]
fn the_path_is_kept_percent_encoded() {
    let import = import("curl 'https://x.example.com/files/a%20b/report%20final.pdf'");
    assert_eq!(endpoint(&import).path(), "/files/a%20b/report%20final.pdf");
    assert_eq!(import.tool_name(), "get_report_final");
    assert_eq!(
        replay(&import).url().as_str(),
        "https://x.example.com/files/a%20b/report%20final.pdf"
    );
}

#[test]
fn the_plugin_is_named_after_the_host_or_as_given() {
    assert_eq!(
        import("curl https://api.github.com/user").plugin().name(),
        "github"
    );
    let options = ImportOptions::new().plugin_name("gh");
    assert_eq!(
        import_with("curl https://api.github.com/user", &options)
            .plugin()
            .name(),
        "gh"
    );
    let err = error(
        "curl https://x.example.com/",
        &ImportOptions::new().plugin_name("a b"),
    );
    assert_eq!(err.kind(), ErrorKind::InvalidName);
}

#[test]
fn the_tool_is_named_after_method_and_path_or_as_given() {
    let cases = [
        ("curl https://x.example.com/v1/users", "list_users"),
        ("curl https://x.example.com/v1/users/42", "get_user"),
        (
            "curl -X POST https://x.example.com/v1/tickets",
            "create_ticket",
        ),
        (
            "curl -X PATCH https://x.example.com/v1/users/42",
            "update_user",
        ),
        (
            "curl -X DELETE https://x.example.com/v1/users/42",
            "delete_user",
        ),
        (
            "curl https://x.example.com/v1/weather?q=Paris",
            "get_weather",
        ),
        (
            "curl -d x=1 https://x.example.com/payments/7/refund",
            "refund_payment",
        ),
        (
            "curl https://slack.example.com/api/conversations.list",
            "conversations_list",
        ),
    ];
    for (command, name) in cases {
        assert_eq!(import(command).tool_name(), name, "{}", command);
    }
    let options = ImportOptions::new().tool_name("fetch_things");
    assert_eq!(
        import_with("curl https://x.example.com/a", &options).tool_name(),
        "fetch_things"
    );
    let err = error(
        "curl https://x.example.com/",
        &ImportOptions::new().tool_name("get weather"),
    );
    assert_eq!(err.kind(), ErrorKind::InvalidName);
    assert_eq!(
        err.to_string(),
        "the tool name given cannot be used: tool name 'get weather' holds ' ' at byte 3; use only a-z, A-Z, 0-9, '_' and '-'"
    );
}

#[test]
fn id_segments_stay_literal_unless_path_inference_is_asked() {
    let command = "curl https://x.example.com/users/42/orders/7f3c9a12";
    let plain = import(command);
    assert_eq!(endpoint(&plain).path(), "/users/42/orders/7f3c9a12");
    assert!(endpoint(&plain).params().is_empty());

    let inferred = import_with(command, &ImportOptions::new().infer_path_params(true));
    assert_eq!(
        endpoint(&inferred).path(),
        "/users/{user_id}/orders/{order_id}"
    );
    assert_eq!(param(&inferred, "user_id").ty(), &ParamType::Integer);
    assert_eq!(param(&inferred, "order_id").ty(), &ParamType::String);
    assert_eq!(param(&inferred, "order_id").default(), None);
    assert_eq!(
        inferred.sample_arguments().get("user_id"),
        Some(&httptool::json!(42))
    );
    assert_eq!(
        replay(&inferred).url().as_str(),
        "https://x.example.com/users/42/orders/7f3c9a12"
    );
    let other = request(&inferred, r#"{"user_id": 7, "order_id": "a/b"}"#);
    assert_eq!(
        other.url().as_str(),
        "https://x.example.com/users/7/orders/a%2Fb"
    );
}

#[test]
fn inferred_path_parameters_take_the_sample_as_default_when_asked() {
    let options = ImportOptions::new()
        .infer_path_params(true)
        .sample_defaults(true);
    let import = import_with(
        "curl https://x.example.com/42/items/123e4567-e89b-12d3-a456-426614174000",
        &options,
    );
    assert_eq!(endpoint(&import).path(), "/{id}/items/{item_id}");
    assert_eq!(param(&import, "id").default(), Some(&httptool::json!(42)));
    let url = request(&import, "{}").url().as_str().to_string();
    assert_eq!(
        url,
        "https://x.example.com/42/items/123e4567-e89b-12d3-a456-426614174000"
    );
}

#[test]
fn credentials_in_the_url_become_basic_auth() {
    let import = import("curl https://ann:s%40cret@x.example.com/v1/me");
    assert!(matches!(import.plugin().auth(), Some(Auth::Basic { .. })));
    assert_eq!(
        import.plugin().base_url().as_str(),
        "https://x.example.com/v1"
    );
    let request = replay(&import);
    // base64("ann:s@cret")
    assert_eq!(
        header(&request, "authorization"),
        Some("Basic YW5uOnNAY3JldA==")
    );
    assert!(!file(&import).contains("s@cret"));
}

#[test]
fn an_ipv6_host_is_kept() {
    let import = import("curl 'http://[::1]:8080/v1/ping'");
    assert_eq!(import.plugin().base_url().as_str(), "http://[::1]:8080/v1");
    assert_eq!(import.plugin().name(), "api");
}

#[test]
fn a_url_httptool_refuses_is_an_error() {
    let err = error("curl 'http://x.example.com/a b'", &ImportOptions::new());
    assert_eq!(err.kind(), ErrorKind::InvalidUrl);
    assert_eq!(err.arg_index(), Some(1));
    assert_eq!(
        err.to_string(),
        "the URL at argument 1 cannot be used: invalid url: whitespace is not accepted in a url: percent-encode it (at byte 22)"
    );
}

// ----------------------------------------------------------------- query

#[test]
fn query_pairs_become_typed_query_parameters() {
    let import = import("curl 'https://x.example.com/v1/search?q=rust+http&limit=20&exact=true&ratio=0.5&zip=00501&page='");
    assert_eq!(
        names(&import),
        ["q", "limit", "exact", "ratio", "zip", "page"]
    );
    assert_eq!(param(&import, "q").ty(), &ParamType::String);
    assert_eq!(param(&import, "limit").ty(), &ParamType::Integer);
    assert_eq!(param(&import, "exact").ty(), &ParamType::Boolean);
    assert_eq!(param(&import, "ratio").ty(), &ParamType::Number);
    assert_eq!(param(&import, "zip").ty(), &ParamType::String);
    assert!(param(&import, "q").is_required());
    assert_eq!(param(&import, "q").location(), Location::Query);
    // An empty sample is a default: an empty argument would count as absent.
    assert!(!param(&import, "page").is_required());
    assert_eq!(param(&import, "page").default(), Some(&httptool::json!("")));
    assert_eq!(
        replay(&import).url().as_str(),
        "https://x.example.com/v1/search?q=rust%20http&limit=20&exact=true&ratio=0.5&zip=00501&page="
    );
}

#[test]
fn sample_defaults_make_parameters_optional() {
    let import = import_with(
        "curl 'https://x.example.com/v1/search?q=rust&limit=20'",
        &ImportOptions::new().sample_defaults(true),
    );
    assert!(!param(&import, "q").is_required());
    assert_eq!(
        param(&import, "limit").default(),
        Some(&httptool::json!(20))
    );
    assert_eq!(
        request(&import, "{}").url().as_str(),
        "https://x.example.com/v1/search?q=rust&limit=20"
    );
    assert_eq!(
        request(&import, r#"{"q": "go"}"#).url().as_str(),
        "https://x.example.com/v1/search?q=go&limit=20"
    );
}

#[test]
fn a_repeated_query_name_is_an_array() {
    let import = import("curl 'https://x.example.com/items?tag=a&id=1&tag=b&id=2'");
    assert_eq!(
        param(&import, "tag").ty(),
        &ParamType::array(ParamType::String)
    );
    assert_eq!(
        param(&import, "id").ty(),
        &ParamType::array(ParamType::Integer)
    );
    assert_eq!(
        replay(&import).url().as_str(),
        "https://x.example.com/items?tag=a&tag=b&id=1&id=2"
    );
}

#[test]
fn get_data_goes_to_the_query() {
    let import = import("curl -G 'https://x.example.com/search?lang=en' -d q=a+b --data-urlencode 'scope=title & body'");
    assert_eq!(names(&import), ["lang", "q", "scope"]);
    assert_eq!(endpoint(&import).method(), Method::Get);
    assert_eq!(
        replay(&import).url().as_str(),
        "https://x.example.com/search?lang=en&q=a%20b&scope=title%20%26%20body"
    );
    assert!(replay(&import).body().is_empty());
}

#[test]
fn get_data_from_a_file_is_an_error() {
    let err = error(
        "curl -G https://x.example.com/search -d @query.txt",
        &ImportOptions::new(),
    );
    assert_eq!(err.kind(), ErrorKind::UnsupportedBody);
    assert_eq!(err.arg_index(), Some(3));
}

#[test]
fn names_a_provider_refuses_keep_their_wire_name() {
    let import =
        import("curl 'https://x.example.com/items?filter%5Bname%5D=x&%24top=5&user.email=a%40b'");
    assert_eq!(names(&import), ["filter_name", "top", "user_email"]);
    assert_eq!(param(&import, "filter_name").wire_name(), "filter[name]");
    assert_eq!(param(&import, "top").wire_name(), "$top");
    assert_eq!(
        replay(&import).url().as_str(),
        "https://x.example.com/items?filter%5Bname%5D=x&%24top=5&user.email=a%40b"
    );
}

#[test]
fn an_api_key_in_the_query_is_secret_auth() {
    let import =
        import("curl 'https://x.example.com/v1/geo?address=Paris&api_key=s3cr3t&access_token=t0k'");
    assert_eq!(names(&import), ["address", "access_token"]);
    assert!(matches!(import.plugin().auth(), Some(Auth::Query { name, .. }) if name == "api_key"));
    assert!(param(&import, "access_token").is_secret());
    let spec = import.plugin().specs()[0].parameters().to_string();
    assert!(
        !spec.contains("api_key") && !spec.contains("access_token"),
        "{}",
        spec
    );
    let request = replay(&import);
    assert_eq!(
        request.url().as_str(),
        "https://x.example.com/v1/geo?address=Paris&access_token=t0k&api_key=s3cr3t"
    );
    assert_eq!(
        request.redacted_url(),
        "https://x.example.com/v1/geo?address=Paris&access_token=***&api_key=***"
    );
    let file = file(&import);
    assert!(
        file.contains("${EXAMPLE_API_KEY}") && file.contains("${EXAMPLE_ACCESS_TOKEN}"),
        "{}",
        file
    );
    assert!(
        !file.contains("s3cr3t") && !file.contains("t0k"),
        "{}",
        file
    );
}

#[test]
fn a_key_looking_value_is_secret_whatever_its_name() {
    let import = import("curl 'https://x.example.com/v1/q?k=sk_live_4eC39HqLyjWDarjtT1zdp7dc'");
    assert!(matches!(import.plugin().auth(), Some(Auth::Query { name, .. }) if name == "k"));
}

// ----------------------------------------------------------------- headers

#[test]
fn headers_become_static_headers_in_order() {
    let import = import("curl https://x.example.com/a -H 'Accept: application/json' -H 'X-Trace: 1' -A 'my-agent/2' -e https://x.example.com/home");
    let headers: Vec<(&str, Option<&str>)> = import
        .plugin()
        .headers()
        .map(|(n, v)| (n, v.value()))
        .collect();
    assert_eq!(
        headers,
        [
            ("Accept", Some("application/json")),
            ("X-Trace", Some("1")),
            ("User-Agent", Some("my-agent/2")),
            ("Referer", Some("https://x.example.com/home")),
        ]
    );
    assert_eq!(header(&replay(&import), "user-agent"), Some("my-agent/2"));
}

#[test]
fn a_repeated_header_is_joined() {
    let import =
        import("curl https://x.example.com/a -H 'Accept: text/html' -H 'accept: application/json'");
    assert_eq!(
        header(&replay(&import), "accept"),
        Some("text/html, application/json")
    );
    assert!(has_note(
        &import,
        "header `accept` is repeated; its values are joined"
    ));
}

#[test]
fn headers_the_client_writes_are_left_out_with_a_note() {
    let import = import("curl https://x.example.com/a -H 'Host: x.example.com' -H 'Content-Length: 5' -H 'Connection: close' -H 'Expect: 100-continue' -H 'Accept-Encoding: gzip' -H 'Proxy-Authorization: Basic eA=='");
    assert_eq!(import.plugin().headers().count(), 0);
    assert!(import.plugin().auth().is_none());
    assert_eq!(
        notes(&import),
        [
            "argument 2: header `Host` is left out: it names the URL's own host",
            "argument 4: header `Content-Length` is left out: the client writes it",
            "argument 6: header `Connection` is left out: the client writes it",
            "argument 8: header `Expect` is left out: the client does not wait for 100 Continue",
            "argument 10: header `Accept-Encoding` is left out: httptool does not decompress responses, so it asks for none",
            "argument 12: header `Proxy-Authorization` is left out: it is for a proxy, which is not carried over",
        ]
    );
}

#[test]
fn browser_headers_are_left_out_unless_kept() {
    let command = "curl https://x.example.com/a -H 'sec-ch-ua: \"Chromium\"' -H 'sec-fetch-site: same-origin' -H 'priority: u=1, i' -H 'origin: https://x.example.com' -H 'accept-language: fr'";
    let dropped = import(command);
    let kept: Vec<&str> = dropped.plugin().headers().map(|(n, _)| n).collect();
    assert_eq!(kept, ["origin", "accept-language"]);
    assert_eq!(
        notes(&dropped),
        [
            "argument 2: header `sec-ch-ua` is left out: a browser adds it and the API does not need it",
            "argument 4: header `sec-fetch-site` is left out: a browser adds it and the API does not need it",
            "argument 6: header `priority` is left out: a browser adds it and the API does not need it",
        ]
    );
    let all = import_with(command, &ImportOptions::new().keep_browser_headers(true));
    assert_eq!(all.plugin().headers().count(), 5);
    assert!(all.notes().is_empty());
}

#[test]
fn removing_a_header_curl_adds_leaves_a_note() {
    let import = import("curl https://x.example.com/a -H 'User-Agent:' -H 'Accept:'");
    assert_eq!(
        notes(&import),
        ["-H 'User-Agent:' removes curl's User-Agent; httptool sends its own"]
    );
    let import2 = import_with("curl https://x.example.com/a -A ''", &ImportOptions::new());
    assert!(has_note(&import2, "-A '' removes curl's User-Agent"));
}

// ----------------------------------------------------------------- credentials

#[test]
fn a_bearer_header_is_bearer_auth_from_a_variable() {
    let import = import("curl https://api.github.com/user -H 'Authorization: Bearer ghp_x1y2z3'");
    assert!(matches!(import.plugin().auth(), Some(Auth::Bearer { .. })));
    let variables: Vec<String> = import.variables().iter().map(|v| v.to_string()).collect();
    assert_eq!(variables, ["GITHUB_TOKEN: the bearer token"]);
    assert!(file(&import).contains(r#""auth":{"type":"bearer","token":"${GITHUB_TOKEN}"}"#));
    assert_eq!(
        header(&replay(&import), "authorization"),
        Some("Bearer ghp_x1y2z3")
    );
    assert!(replay(&import).headers().is_sensitive("authorization"));
}

#[test]
fn keep_secrets_writes_the_values() {
    let options = ImportOptions::new().keep_secrets(true);
    let import = import_with("curl https://api.github.com/user -H 'Authorization: Bearer ghp_x1y2z3' -H 'X-Api-Key: k1' -H 'X-Other-Key: k2'", &options);
    assert!(import.variables().is_empty());
    let file = file(&import);
    assert!(file.contains(r#""token":"ghp_x1y2z3""#), "{}", file);
    assert!(
        file.contains(r#""secret":true,"default":"k2""#) || file.contains(r#""default":"k2""#),
        "{}",
        file
    );
    // Kept or not, a secret is never shown in a dry run.
    let dry = import
        .plugin()
        .dry_run(import.tool_name(), "{}", &CallContext::new())
        .unwrap();
    let shown = dry.to_string();
    assert!(
        !shown.contains("ghp_") && !shown.contains("k1") && !shown.contains("k2"),
        "{}",
        shown
    );
}

#[test]
fn a_basic_header_is_decoded_into_basic_auth() {
    let import = import(
        "curl https://x.example.com/a -H 'Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=='",
    );
    assert!(matches!(import.plugin().auth(), Some(Auth::Basic { .. })));
    let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    assert_eq!(names, ["EXAMPLE_USERNAME", "EXAMPLE_PASSWORD"]);
    assert_eq!(
        header(&replay(&import), "authorization"),
        Some("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    );
}

#[test]
fn another_scheme_keeps_its_name_in_the_template() {
    let import = import("curl https://x.example.com/a -H 'Authorization: Token abc123'");
    assert!(
        matches!(import.plugin().auth(), Some(Auth::Header { name, .. }) if name == "Authorization")
    );
    assert!(
        file(&import).contains(r#""value":"Token ${EXAMPLE_AUTHORIZATION}""#),
        "{}",
        file(&import)
    );
    assert_eq!(
        header(&replay(&import), "authorization"),
        Some("Token abc123")
    );
}

#[test]
fn the_last_authorization_header_is_kept() {
    let token =
        import("curl https://x.example.com/a -H 'Authorization;' -H 'Authorization: Token x'");
    assert_eq!(header(&replay(&token), "authorization"), Some("Token x"));
    assert!(has_note(
        &token,
        "the Authorization header is repeated; only the last is kept"
    ));
    let empty =
        import("curl https://x.example.com/a -H 'Authorization: Token x' -H 'Authorization;'");
    assert!(empty.plugin().auth().is_none());
    assert_eq!(header(&replay(&empty), "authorization"), Some(""));
}

#[test]
fn user_and_bearer_options_fill_the_auth_slot() {
    let basic = import("curl -u ann:pw https://x.example.com/a");
    assert_eq!(
        header(&replay(&basic), "authorization"),
        Some("Basic YW5uOnB3")
    );
    let bearer = import("curl --oauth2-bearer t0k https://x.example.com/a");
    assert_eq!(
        header(&replay(&bearer), "authorization"),
        Some("Bearer t0k")
    );
    let no_password = import("curl -u ann https://x.example.com/a");
    assert!(has_note(&no_password, "-u/--user has no password"));
    assert_eq!(
        header(&replay(&no_password), "authorization"),
        Some("Basic YW5uOg==")
    );
    let stripe = import("curl -u sk_test_abc: https://api.stripe.com/v1/charges");
    let names: Vec<&str> = stripe.variables().iter().map(|v| v.name()).collect();
    assert_eq!(names, ["STRIPE_USERNAME"], "an empty password is no secret");
}

#[test]
fn an_authorization_header_wins_over_user() {
    let import = import("curl -u ann:pw https://x.example.com/a -H 'Authorization: Bearer t'");
    assert_eq!(header(&replay(&import), "authorization"), Some("Bearer t"));
    assert!(has_note(
        &import,
        "the Authorization header wins, as in curl"
    ));
}

#[test]
fn api_key_headers_take_the_slot_then_become_secret_parameters() {
    let import = import(
        "curl https://x.example.com/a -H 'X-Api-Key: k1' -H 'X-Auth-Token: k2' -H 'X-Api-Key: k3'",
    );
    assert!(
        matches!(import.plugin().auth(), Some(Auth::Header { name, .. }) if name == "X-Api-Key")
    );
    let secret = param(&import, "X-Auth-Token");
    assert!(secret.is_secret() && secret.location() == Location::Header);
    assert!(import.sample_arguments().is_empty());
    let request = replay(&import);
    assert_eq!(header(&request, "x-api-key"), Some("k1"));
    assert_eq!(header(&request, "x-auth-token"), Some("k2"));
    assert!(request.headers().is_sensitive("x-auth-token"));
    assert!(has_note(
        &import,
        "header `X-Api-Key` is repeated; only its first value is kept"
    ));
    let spec = import.plugin().specs()[0].parameters().to_string();
    assert!(!spec.contains("Token"), "{}", spec);
}

#[test]
fn cookies_are_one_secret_cookie_header() {
    let import = import("curl https://x.example.com/a -b 'sid=abc; theme=dark' -b lang=en");
    let (name, value) = import.plugin().headers().next().unwrap();
    assert_eq!(name, "Cookie");
    assert_eq!(value.template(), Some("${EXAMPLE_COOKIE}"));
    let request = replay(&import);
    assert_eq!(
        header(&request, "cookie"),
        Some("sid=abc; theme=dark;lang=en")
    );
    assert!(request.headers().is_sensitive("cookie"));
}

#[test]
fn variable_names_are_unique() {
    let import = import("curl 'https://x.example.com/a?key=1' -H 'Key: 2' -H 'X-Key: 3' -u u:p");
    let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    assert_eq!(
        names,
        [
            "EXAMPLE_USERNAME",
            "EXAMPLE_PASSWORD",
            "EXAMPLE_KEY",
            "EXAMPLE_X_KEY",
            "EXAMPLE_KEY_2"
        ]
    );
}

#[test]
fn the_plugin_file_loads_back_with_its_variables() {
    let import = import("curl -X POST 'https://x.example.com/v1/notes?sig=abc' -H 'Authorization: Bearer t0k' -H 'X-Api-Key: k1' --json '{\"text\": \"hi\"}'");
    let text = import.plugin().to_json().to_pretty();
    let values = [
        ("EXAMPLE_TOKEN", "t0k"),
        ("EXAMPLE_X_API_KEY", "k1"),
        ("EXAMPLE_SIG", "abc"),
    ];
    let loaded = httptool::plugin::HttpPlugin::from_json_with(&text, |name| {
        values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.to_string())
    })
    .expect("the file loads");
    let arguments = Json::Object(import.sample_arguments().clone()).to_string();
    let again = loaded
        .dry_run(import.tool_name(), &arguments, &CallContext::new())
        .unwrap()
        .into_request();
    let original = replay(&import);
    assert_eq!(again.url(), original.url());
    assert_eq!(again.body(), original.body());
    let headers = |r: &Request| {
        r.headers()
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(headers(&again), headers(&original));
    let missing = httptool::plugin::HttpPlugin::from_json_with(&text, |_| None).unwrap_err();
    assert_eq!(
        missing.to_string(),
        "auth.token: variable 'EXAMPLE_TOKEN' is not set"
    );
}

// ----------------------------------------------------------------- body

#[test]
fn json_members_become_typed_body_parameters() {
    let import = import(
        r#"curl https://x.example.com/v1/tickets --json '{"title": "Fire", "priority": 2, "ratio": 0.5, "urgent": true, "tags": ["hw"], "meta": {"floor": 3, "names": ["a"]}, "items": [{"sku": "A", "qty": 1}, {"sku": "B", "gift": true}]}'"#,
    );
    assert_eq!(param(&import, "title").ty(), &ParamType::String);
    assert_eq!(param(&import, "priority").ty(), &ParamType::Integer);
    assert_eq!(param(&import, "ratio").ty(), &ParamType::Number);
    assert_eq!(param(&import, "urgent").ty(), &ParamType::Boolean);
    assert_eq!(
        param(&import, "tags").ty(),
        &ParamType::array(ParamType::String)
    );
    assert_eq!(
        param(&import, "meta").ty(),
        &ParamType::object([
            Property::new("floor", ParamType::Integer),
            Property::new("names", ParamType::array(ParamType::String)),
        ])
    );
    assert_eq!(
        param(&import, "items").ty(),
        &ParamType::array(ParamType::object([
            Property::new("sku", ParamType::String),
            Property::new("qty", ParamType::Integer),
            Property::new("gift", ParamType::Boolean),
        ]))
    );
    assert!(endpoint(&import)
        .params()
        .iter()
        .all(|p| p.location() == Location::Body));
    let request = replay(&import);
    assert_eq!(header(&request, "content-type"), Some("application/json"));
    assert_eq!(
        body_json(&request),
        json::parse(r#"{"title": "Fire", "priority": 2, "ratio": 0.5, "urgent": true, "tags": ["hw"], "meta": {"floor": 3, "names": ["a"]}, "items": [{"sku": "A", "qty": 1}, {"sku": "B", "gift": true}]}"#).unwrap()
    );
}

#[test]
fn a_json_array_or_scalar_body_is_one_whole_body_parameter() {
    let array = import("curl https://x.example.com/batch --json '[1, 2, 3]'");
    let body = param(&array, "body");
    assert!(body.is_whole_body());
    assert_eq!(body.ty(), &ParamType::array(ParamType::Integer));
    assert_eq!(replay(&array).body(), b"[1,2,3]");
    let scalar = import("curl https://x.example.com/echo --json '\"hi\"'");
    assert_eq!(replay(&scalar).body(), b"\"hi\"");
}

#[test]
fn an_empty_object_body_is_an_optional_body() {
    let import = import("curl -X POST https://x.example.com/v1/jobs --json '{}'");
    let body = param(&import, "body");
    assert!(!body.is_required());
    assert_eq!(body.default(), Some(&httptool::json!({})));
    assert_eq!(request(&import, "{}").body(), b"{}");
}

#[test]
fn a_null_member_is_an_optional_string() {
    let import =
        import(r#"curl https://x.example.com/v1/users --json '{"name": "Ann", "manager": null}'"#);
    assert!(!param(&import, "manager").is_required());
    assert!(has_note(&import, "body member `manager` is null"));
    assert_eq!(
        body_json(&replay(&import)),
        httptool::json!({"name": "Ann"})
    );
}

#[test]
fn a_member_mixing_types_makes_the_body_one_object_parameter() {
    let import =
        import(r#"curl https://x.example.com/v1/rows --json '{"row": [1, "a", true], "id": 7}'"#);
    assert_eq!(names(&import), ["body"]);
    assert_eq!(param(&import, "body").ty(), &ParamType::object([]));
    assert!(has_note(
        &import,
        "the JSON body holds a member no parameter can stand for"
    ));
    assert_eq!(
        body_json(&replay(&import)),
        httptool::json!({"row": [1, "a", true], "id": 7})
    );
}

#[test]
fn a_nested_member_no_type_describes_is_any_object() {
    let import = import(
        r#"curl https://x.example.com/v1/rows --json '{"meta": {"a": null, "b": [1, "x"]}, "id": 7}'"#,
    );
    assert_eq!(param(&import, "meta").ty(), &ParamType::object([]));
    assert!(has_note(
        &import,
        "body member `meta` holds values no type describes"
    ));
    assert_eq!(
        body_json(&replay(&import)),
        httptool::json!({"meta": {"a": null, "b": [1, "x"]}, "id": 7})
    );
}

#[test]
fn json_data_without_a_content_type_keeps_curls_form_type() {
    let import = import(r#"curl https://x.example.com/v1/issues -d '{"title": "Bug"}'"#);
    assert_eq!(param(&import, "title").location(), Location::Body);
    let request = replay(&import);
    assert_eq!(
        header(&request, "content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(request.body(), br#"{"title":"Bug"}"#);
    assert!(has_note(
        &import,
        "the data is JSON but curl sends it as application/x-www-form-urlencoded"
    ));
}

#[test]
fn a_json_content_type_makes_data_json() {
    let import = import(
        r#"curl https://x.example.com/v1/issues -H 'Content-Type: application/vnd.api+json; charset=utf-8' -d '{"title": "Bug"}'"#,
    );
    let request = replay(&import);
    assert_eq!(
        header(&request, "content-type"),
        Some("application/vnd.api+json; charset=utf-8")
    );
    assert_eq!(request.body(), br#"{"title":"Bug"}"#);
    assert!(import.notes().is_empty());
}

#[test]
fn a_text_json_content_type_makes_data_json_and_json5_does_not() {
    // `text/json` is JSON here as in a tool's result: one rule, `http::media::is_json`.
    let import = import(
        r#"curl https://x.example.com/v1/issues -H 'Content-Type: text/json' -d '{"title": "Bug"}'"#,
    );
    assert_eq!(names(&import), ["title"]);
    assert_eq!(replay(&import).body(), br#"{"title":"Bug"}"#);
    let err = error(
        r#"curl https://x.example.com/v1/issues -H 'Content-Type: text/json5' -d '{"title": "Bug"}'"#,
        &ImportOptions::new(),
    );
    assert_eq!(err.kind(), ErrorKind::UnsupportedBody);
}

#[test]
fn json_data_that_does_not_parse_is_an_error() {
    let err = error(
        "curl https://x.example.com/a --json '{\"a\": 1,}'",
        &ImportOptions::new(),
    );
    assert_eq!(err.kind(), ErrorKind::InvalidJson);
    assert_eq!(err.arg_index(), Some(2));
    assert_eq!(
        err.to_string(),
        "the data at argument 2 is sent as JSON but is not valid JSON (expected '\"' to start an object key at 1:9); fix the data, or send it with another Content-Type"
    );
}

#[test]
fn form_data_become_typed_form_parameters() {
    let import = import("curl https://x.example.com/v1/charges -d amount=2000 -d 'currency=usd&capture=false' -d 'metadata[order_id]=6735' --data-urlencode 'description=Tea & cake'");
    assert_eq!(
        names(&import),
        [
            "amount",
            "currency",
            "capture",
            "metadata_order_id",
            "description"
        ]
    );
    assert_eq!(param(&import, "amount").ty(), &ParamType::Integer);
    assert_eq!(param(&import, "capture").ty(), &ParamType::Boolean);
    assert_eq!(param(&import, "amount").location(), Location::Form);
    assert_eq!(endpoint(&import).body_encoding(), BodyEncoding::Form);
    let request = replay(&import);
    assert_eq!(
        header(&request, "content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        request.body(),
        b"amount=2000&currency=usd&capture=false&metadata%5Border_id%5D=6735&description=Tea+%26+cake"
    );
    assert!(import.notes().is_empty(), "{:?}", notes(&import));
}

#[test]
fn a_repeated_form_name_is_an_array() {
    let import = import("curl -X PATCH https://x.example.com/v1/me -d 'role=admin&role=owner'");
    assert_eq!(
        param(&import, "role").ty(),
        &ParamType::array(ParamType::String)
    );
    assert_eq!(replay(&import).body(), b"role=admin&role=owner");
}

#[test]
fn a_form_type_with_parameters_is_kept() {
    let import = import("curl https://x.example.com/v1/a -H 'Content-Type: application/x-www-form-urlencoded; charset=UTF-8' -d a=1");
    assert_eq!(
        header(&replay(&import), "content-type"),
        Some("application/x-www-form-urlencoded; charset=UTF-8")
    );
}

#[test]
fn the_last_content_type_decides() {
    let import = import(
        r#"curl https://x.example.com/a -H 'Content-Type: text/plain' -H 'Content-Type: application/json' -d '{"a": 1}'"#,
    );
    assert_eq!(
        header(&replay(&import), "content-type"),
        Some("application/json")
    );
    assert!(has_note(
        &import,
        "the Content-Type header is repeated; only the last is kept"
    ));
    // A removal before a value leaves the value.
    let err = error(
        "curl https://x.example.com/a -H 'Content-Type:' -H 'Content-Type: text/plain' -d a=1",
        &ImportOptions::new(),
    );
    assert_eq!(err.kind(), ErrorKind::UnsupportedBody);
}

#[test]
fn empty_data_is_no_body() {
    let import = import("curl -X POST https://x.example.com/v1/jobs -d ''");
    assert!(endpoint(&import).params().is_empty());
    let request = replay(&import);
    assert!(request.body().is_empty());
    // curl labels the empty body with its form type all the same.
    assert_eq!(
        header(&request, "content-type"),
        Some("application/x-www-form-urlencoded")
    );
}

#[test]
fn a_text_body_is_an_error() {
    let err = error(
        "curl https://x.example.com/a -H 'Content-Type: text/plain' -d hello",
        &ImportOptions::new(),
    );
    assert_eq!(err.kind(), ErrorKind::UnsupportedBody);
    assert_eq!(
        err.to_string(),
        "the request body (argument 4) cannot become parameters: it is `text/plain` data; a plugin sends JSON, urlencoded or multipart bodies"
    );
}

#[test]
fn a_json_body_from_a_file_is_one_required_body_parameter() {
    let import = import(
        "curl https://x.example.com/v1/a -H 'Content-Type: application/json' -d @payload.json",
    );
    let body = param(&import, "body");
    assert!(body.is_whole_body() && body.is_required());
    assert!(has_note(
        &import,
        "curl would read the JSON body from a file"
    ));
    assert_eq!(
        request(&import, r#"{"body": {"a": 1}}"#).body(),
        br#"{"a":1}"#
    );
    let err = error(
        "curl https://x.example.com/v1/a -d @payload.txt",
        &ImportOptions::new(),
    );
    assert_eq!(err.kind(), ErrorKind::UnsupportedBody);
}

#[test]
fn form_data_on_get_stays_in_the_body_as_curl_sends_it() {
    let body = import("curl -X GET https://x.example.com/v1/search -d q=tea");
    assert_eq!(param(&body, "q").location(), Location::Form);
    assert!(endpoint(&body).allow_get_body());
    let request = replay(&body);
    assert_eq!(request.method(), Method::Get);
    assert_eq!(request.url().as_str(), "https://x.example.com/v1/search");
    assert_eq!(request.body(), b"q=tea");
    assert_eq!(
        request.headers().get("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert!(has_note(&body, "a GET with a form body"));
    // With -G the pairs go to the query, as curl sends them.
    let query = import("curl -G https://x.example.com/v1/search -d q=tea");
    assert_eq!(
        replay(&query).url().as_str(),
        "https://x.example.com/v1/search?q=tea"
    );
}

#[test]
fn credentials_in_get_form_data_stay_secret() {
    let import = import("curl -X GET https://x.example.com/v1/geo -d q=Paris -d api_key=s3cr3t");
    assert!(!param(&import, "q").is_hidden());
    assert!(param(&import, "api_key").is_hidden());
    let file = import.plugin().to_json().to_string();
    assert!(!file.contains("s3cr3t"), "{}", file);
    let request = replay(&import);
    assert_eq!(request.body(), b"q=Paris&api_key=s3cr3t");
}

#[test]
fn a_name_with_one_secret_looking_value_is_secret() {
    let import =
        import("curl 'https://x.example.com/a?x=plain&x=sk_live_4eC39HqLyjWDarjtT1zdp7dc&y=1'");
    assert_eq!(names(&import), ["y"]);
    assert!(matches!(import.plugin().auth(), Some(Auth::Query { name, .. }) if name == "x"));
    assert!(has_note(
        &import,
        "query parameter `x` is repeated; only its first value is kept"
    ));
}

#[test]
fn a_header_repeated_with_a_credential_keeps_its_first_value() {
    for command in [
        "curl https://x.example.com/a -H 'X-Custom: plain' -H 'X-Custom: sk_live_4eC39HqLyjWDarjtT1zdp7dc'",
        "curl https://x.example.com/a -H 'X-Custom: sk_live_4eC39HqLyjWDarjtT1zdp7dc' -H 'X-Custom: plain'",
    ] {
        let import = import(command);
        assert!(has_note(&import, "header `X-Custom` is repeated; only its first value is kept"), "{}", command);
        assert!(!file(&import).contains("sk_live"), "{}", command);
        assert_eq!(replay(&import).headers().get_all("x-custom").count(), 1);
    }
}

#[test]
fn a_credential_in_the_body_is_a_hidden_variable() {
    // Changed on purpose: a credential in a body was a parameter the
    // model filled; it is now hidden, with a `${NAME}` default, as in the query and headers.
    let options = ImportOptions::new().sample_defaults(true);
    let form = import_with(
        "curl https://x.example.com/login -d user=ann -d password=hunter2",
        &options,
    );
    assert_eq!(
        param(&form, "user").default(),
        Some(&httptool::json!("ann"))
    );
    assert!(param(&form, "password").is_hidden());
    assert!(!file(&form).contains("hunter2"));
    assert!(
        file(&form).contains(r#""default":"${EXAMPLE_PASSWORD}""#),
        "{}",
        file(&form)
    );
    assert_eq!(replay(&form).body(), b"user=ann&password=hunter2");
    let json = import_with(
        r#"curl https://x.example.com/keys --json '{"name": "ci", "value": "ghp_16C7e42F292c6912E7710c838347Ae178B4a"}'"#,
        &options,
    );
    assert!(param(&json, "value").is_hidden());
    assert!(!file(&json).contains("ghp_"));
    // A credential that is not a string cannot be a hidden default.
    let pin =
        import(r#"curl https://x.example.com/unlock --json '{"door": "a", "password": 1234}'"#);
    assert!(!param(&pin, "password").is_hidden());
    assert_eq!(param(&pin, "password").default(), None);
    assert!(has_note(
        &pin,
        "body field `password` looks like a credential but is not a string"
    ));
}

#[test]
fn regression_client_secret_in_a_body_becomes_a_hidden_variable() {
    // Once, `client_secret` in an OAuth token request (form or JSON) was a
    // parameter the model saw and filled; dry runs and exported curl printed it.
    let commands = [
        "curl https://auth.example.com/oauth/token -d grant_type=client_credentials -d client_id=app-1 -d client_secret=cs-9f8e7d6c5b4a",
        r#"curl https://auth.example.com/oauth/token --json '{"grant_type": "client_credentials", "client_id": "app-1", "client_secret": "cs-9f8e7d6c5b4a"}'"#,
    ];
    for command in commands {
        let import = import(command);
        let secret = param(&import, "client_secret");
        assert!(secret.is_hidden(), "{}", command);
        let spec = import
            .plugin()
            .tool(import.tool_name())
            .unwrap()
            .spec()
            .parameters()
            .to_string();
        assert!(!spec.contains("client_secret"), "{}", spec);
        assert!(
            spec.contains("client_id") && spec.contains("grant_type"),
            "{}",
            spec
        );
        let file = file(&import);
        assert!(!file.contains("cs-9f8e7d6c5b4a"), "{}", file);
        assert!(
            file.contains(r#""default":"${EXAMPLE_CLIENT_SECRET}""#),
            "{}",
            file
        );
        let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
        assert_eq!(names, ["EXAMPLE_CLIENT_SECRET"], "{}", command);
        // Sent as it was, shown as *** in dry runs and exported curl.
        let sent = replay(&import);
        assert!(String::from_utf8_lossy(sent.body()).contains("cs-9f8e7d6c5b4a"));
        let arguments = Json::Object(import.sample_arguments().clone()).to_string();
        let dry = import
            .plugin()
            .dry_run(import.tool_name(), &arguments, &CallContext::new())
            .unwrap()
            .to_string();
        assert!(dry.contains("app-1"), "{}", dry);
        assert!(
            !dry.contains("cs-9f8e7d6c5b4a") && dry.contains("***"),
            "{}",
            dry
        );
        let exported = curl::to_curl(import.plugin(), import.tool_name()).unwrap();
        assert!(
            !exported.contains("cs-9f8e7d6c5b4a") && exported.contains("***"),
            "{}",
            exported
        );
    }
}

#[test]
fn regression_names_that_contain_a_credential_word_stay_visible() {
    // Once, `?author=tolkien` was hidden from the model as a secret, and so
    // were `keyword`, `monkey` and an `Idempotency-Key` header.
    let import = import(
        "curl 'https://openlibrary.org/search.json?author=tolkien&keyword=ring&monkey=1' -H 'Idempotency-Key: 8e03978e-40d5-43e8-bc93-6894a57f9324'",
    );
    assert!(
        import.plugin().auth().is_none(),
        "{:?}",
        import.plugin().auth()
    );
    for name in ["author", "keyword", "monkey"] {
        let p = param(&import, name);
        assert!(!p.is_hidden() && !p.is_secret(), "{}", name);
    }
    assert!(import.variables().is_empty());
    let dry = import
        .plugin()
        .dry_run(
            import.tool_name(),
            r#"{"author":"tolkien","keyword":"ring","monkey":1}"#,
            &CallContext::new(),
        )
        .unwrap()
        .to_string();
    assert!(dry.contains("author=tolkien"), "{}", dry);
    assert!(dry.contains("Idempotency-Key: 8e03978e"), "{}", dry);
}

#[test]
fn regression_credentials_without_a_credential_substring_are_secret() {
    // Once, `appid` (OpenWeatherMap), `sig` (Azure SAS), `jwt`, `hmac` and
    // `pass`, and `X-Jwt` and `X-Hmac` headers, passed as plain values the model saw.
    let import = import(
        "curl 'https://api.openweathermap.org/data/2.5/weather?q=London&appid=0123456789abcdef&sig=sas-sig-value&jwt=jwt-value-1&hmac=hmac-value-1&pass=pass-value-1' -H 'X-Jwt: jwt-header-1' -H 'X-Hmac: hmac-header-1'",
    );
    assert!(!param(&import, "q").is_hidden());
    let file = file(&import);
    for value in [
        "0123456789abcdef",
        "sas-sig-value",
        "jwt-value-1",
        "hmac-value-1",
        "pass-value-1",
        "jwt-header-1",
        "hmac-header-1",
    ] {
        assert!(!file.contains(value), "{} in {}", value, file);
    }
    let spec = import
        .plugin()
        .tool(import.tool_name())
        .unwrap()
        .spec()
        .parameters()
        .to_string();
    for name in ["appid", "sig", "jwt", "hmac", "pass"] {
        assert!(
            !spec.contains(&format!("\"{}\"", name)),
            "{} in {}",
            name,
            spec
        );
    }
}

#[test]
fn json_on_get_sets_allow_get_body() {
    let import = import("curl -X GET https://x.example.com/_search -H 'Content-Type: application/json' -d '{\"query\": {\"match\": 1}}'");
    assert!(endpoint(&import).allow_get_body());
    let request = replay(&import);
    assert_eq!(request.method(), Method::Get);
    assert_eq!(request.body(), br#"{"query":{"match":1}}"#);
    assert_eq!(request.url().query(), None);
}

#[test]
fn json_on_head_is_an_error() {
    let err = error("curl -X OPTIONS https://x.example.com/_search -H 'Content-Type: application/json' -d '{\"query\": {}}'", &ImportOptions::new());
    assert_eq!(err.kind(), ErrorKind::UnsupportedBody);
    assert!(
        err.to_string().contains("use POST if the API accepts it"),
        "{}",
        err
    );
}

#[test]
fn delete_with_a_body_keeps_the_body() {
    let import = import("curl -X DELETE https://x.example.com/v1/items --json '{\"ids\": [1, 2]}'");
    assert!(endpoint(&import).allow_delete_body());
    assert_eq!(replay(&import).body(), br#"{"ids":[1,2]}"#);
}

#[test]
fn form_parts_become_multipart_parameters() {
    let import = import("curl https://x.example.com/v1/files -F title=Report -F 'doc=@report.pdf;type=application/pdf' -F 'note=<note.txt' -F n=3 -F n=4");
    assert_eq!(names(&import), ["title", "doc", "note", "n"]);
    assert_eq!(endpoint(&import).body_encoding(), BodyEncoding::Multipart);
    let doc = param(&import, "doc");
    assert!(doc.is_file() && doc.is_required());
    assert_eq!(
        import.sample_arguments().get("doc"),
        Some(&httptool::json!("report.pdf"))
    );
    assert!(import.sample_arguments().get("note").is_none());
    assert_eq!(
        param(&import, "n").ty(),
        &ParamType::array(ParamType::Integer)
    );
    assert!(has_note(
        &import,
        "form part `doc`: its type= (text fields carry none"
    ));
    assert!(has_note(
        &import,
        "form part `note` would be read from a file"
    ));
}

#[test]
fn browser_multipart_data_is_read_into_parts() {
    let import = import("curl 'https://x.example.com/submit' -H 'content-type: multipart/form-data; boundary=----B1' --data-raw $'------B1\\r\\nContent-Disposition: form-data; name=\"title\"\\r\\n\\r\\nHello\\r\\n------B1\\r\\nContent-Disposition: form-data; name=\"pic\"; filename=\"cat.png\"\\r\\nContent-Type: image/png\\r\\n\\r\\n\\r\\n------B1--\\r\\n'");
    assert_eq!(names(&import), ["title", "pic"]);
    assert!(param(&import, "pic").is_file());
    assert_eq!(endpoint(&import).body_encoding(), BodyEncoding::Multipart);
    assert!(has_note(
        &import,
        "the multipart data is read into its parts"
    ));
    assert!(has_note(&import, "header `content-type` is left out"));
}

#[test]
fn a_body_member_with_an_odd_name_keeps_its_wire_name() {
    let import = import(
        r#"curl https://x.example.com/v1/a --json '{"@type": "x", "first name": "Ann", "id": 1, "id!": 2}'"#,
    );
    assert_eq!(names(&import), ["type", "first_name", "id", "id_2"]);
    assert_eq!(param(&import, "id_2").wire_name(), "id!");
    assert_eq!(
        body_json(&replay(&import)),
        httptool::json!({"@type": "x", "first name": "Ann", "id": 1, "id!": 2})
    );
}

// ----------------------------------------------------------------- options and method

#[test]
fn timeouts_and_redirects_become_options() {
    let import =
        import("curl -L --max-redirs 2 -m 2.5 --connect-timeout 0.0001 https://x.example.com/a");
    let file = import.plugin().to_json();
    assert_eq!(file["timeout_call_ms"], httptool::json!(2500));
    assert_eq!(file["timeout_connect_ms"], httptool::json!(1));
    assert_eq!(file["max_redirects"], httptool::json!(2));
    assert!(has_note(
        &import,
        "-L: the tool follows redirects to the same origin only"
    ));
}

#[test]
fn what_httptool_does_its_own_way_leaves_notes() {
    let import = import(
        "curl -k --compressed -x http://proxy.example.com:3128 https://x.example.com/a -o out.json",
    );
    assert_eq!(
        notes(&import),
        [
            "-k/--insecure is not carried over: httptool always verifies certificates",
            "--compressed is not carried over: httptool asks for uncompressed responses",
            "-x/--proxy is not carried over: a proxy is the application's client setting",
            "argument 6: -o/--output: curl would write a file here; httptool hands the response to the caller",
        ]
    );
}

#[test]
fn methods_map_to_httptool_methods() {
    assert_eq!(
        endpoint(&import("curl -I https://x.example.com/a")).method(),
        Method::Head
    );
    assert_eq!(
        endpoint(&import("curl -X OPTIONS https://x.example.com/a")).method(),
        Method::Options
    );
    let lower = import("curl -X put https://x.example.com/a");
    assert_eq!(endpoint(&lower).method(), Method::Put);
    assert!(has_note(
        &lower,
        "curl sends the method as written; httptool sends `PUT`"
    ));
    let purge = import("curl -X PURGE https://x.example.com/a");
    assert_eq!(endpoint(&purge).method().as_str(), "PURGE");
    let long = "A".repeat(33);
    let err = error(
        &format!("curl -X {} https://x.example.com/a", long),
        &ImportOptions::new(),
    );
    assert_eq!(err.kind(), ErrorKind::UnsupportedMethod);
    assert_eq!(
        err.to_string(),
        format!(
            "method `{}` is not supported: a plugin endpoint's method is a token of at most 32 characters",
            &long[..32]
        )
    );
}

// ----------------------------------------------------------------- the result

#[test]
fn to_plugin_is_to_plugin_with_the_defaults() {
    let cmd = curl::parse("curl https://x.example.com/v1/a?b=1").unwrap();
    let plain = curl::to_plugin(&cmd).unwrap();
    let with = curl::to_plugin_with(&cmd, &ImportOptions::new()).unwrap();
    assert_eq!(plain.to_json(), with.plugin().to_json());
}

#[test]
fn parser_notes_and_conversion_notes_come_in_argument_order() {
    let import = import("curl --retry 3 https://x.example.com/a -H 'sec-fetch-mode: cors' -L");
    let indexes: Vec<usize> = import.notes().iter().map(|n| n.arg_index()).collect();
    let mut sorted = indexes.clone();
    sorted.sort_unstable();
    assert_eq!(indexes, sorted);
    assert_eq!(import.notes().len(), 3);
}

#[test]
fn a_webhook_token_in_the_path_leaves_a_note() {
    let import = import("curl -X POST https://hooks.example.com/services/T00000001/B00000002/aB3dE5fG7hJ9kL1mN3pQ5rS7 --json '{\"text\": \"hi\"}'");
    assert!(has_note(
        &import,
        "a path segment looks like a secret token"
    ));
    assert_eq!(import.tool_name(), "post_service");
}

#[test]
fn debug_output_shows_no_secret() {
    let import = import("curl 'https://x.example.com/a?api_key=s3cr3t' -H 'Authorization: Bearer t0k3n' -H 'X-Session: sess1' -b 'sid=c00k'");
    let debug = format!("{:?}", import);
    for secret in ["s3cr3t", "t0k3n", "sess1", "c00k"] {
        assert!(!debug.contains(secret), "{} in {}", secret, debug);
    }
}

#[test]
fn empty_data_is_sent_with_curls_form_type() {
    let empty = import("curl --data-binary '' https://x.example.com/v1/ping");
    let request = replay(&empty);
    assert_eq!(request.method(), Method::Post);
    assert!(request.body().is_empty());
    assert_eq!(
        header(&request, "content-type"),
        Some("application/x-www-form-urlencoded")
    );
    // With a type of its own, that one.
    let typed = import("curl -d '' -H 'Content-Type: text/plain' https://x.example.com/v1/ping");
    assert_eq!(header(&replay(&typed), "content-type"), Some("text/plain"));
}

#[test]
fn digest_beside_a_bearer_token_answers_the_challenge() {
    let digest =
        import("curl --oauth2-bearer t0ken-abc --digest -u ann:pw https://x.example.com/v1/cam");
    assert!(matches!(digest.plugin().auth(), Some(Auth::Digest { .. })));
    assert!(has_note(&digest, "--oauth2-bearer is not sent"));
    // A dry run goes without credentials, as curl's first request does.
    assert_eq!(header(&replay(&digest), "authorization"), None);
    // Without --digest the token wins over -u, as in curl.
    let bearer = import("curl --oauth2-bearer t0ken-abc -u ann:pw https://x.example.com/v1/cam");
    assert!(matches!(bearer.plugin().auth(), Some(Auth::Bearer { .. })));
}

#[test]
fn a_script_of_curl_commands_reads_the_first_with_a_note() {
    let script = "# list, then create\ncurl https://x.example.com/v1/items\n\ncurl -X POST https://x.example.com/v1/items -d name=a\n";
    let first = import(script);
    assert_eq!(endpoint(&first).method(), Method::Get);
    assert!(has_note(
        &first,
        "the text holds more curl commands, the next on line 4"
    ));
    // A continued line whose backslash is missing is still an error.
    let err = curl::parse("curl https://x.example.com/v1/items\n  -H 'A: b'").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SecondCommand);
}
