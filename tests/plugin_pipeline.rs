//! The argument pipeline and request placement, seen through a recording transport: one test
//! per behaviour (the seeds' list, then the sections of `httptool::design::endpoints` from
//! "Value order" to "Headers", "Secrets" and "Call context").

use std::sync::Arc;

use httptool::http::{Method, Secrets};
use httptool::plugin::{FilePart, FileResolver, HttpPlugin};
use httptool::tool::{CallContext, ErrorKind};

use crate::support::plugin::{body_text, call, call_with, plugin, single, Recorder};

const WEATHER: &str = r#"{
  "name": "weather",
  "description": "City weather",
  "base_url": "https://api.example.com",
  "headers": { "Accept": "application/json" },
  "endpoints": [
    {
      "name": "getWeather",
      "description": "Current weather for a city",
      "method": "GET",
      "path": "/v1/weather",
      "params": [
        { "name": "city", "wire_name": "q", "in": "query", "type": "string",
          "description": "City name", "required": true },
        { "name": "days", "in": "query", "type": "integer", "default": 1 }
      ]
    }
  ]
}"#;

const BASE: &str = "https://api.example.com";

fn endpoint(recorder: &Arc<Recorder>, endpoint: &str) -> HttpPlugin {
    plugin(&single(BASE, endpoint), recorder)
}

// ---------------------------------------------------------------- the seeds' list

#[test]
fn query_params() {
    let recorder = Recorder::new();
    let weather = plugin(WEATHER, &recorder);
    let out = call(&weather, "getWeather", r#"{"city":"Paris","days":3}"#);
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(
        recorder.only().url().as_str(),
        "https://api.example.com/v1/weather?q=Paris&days=3"
    );
}

#[test]
fn path_substitution() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "repos", "path": "/users/{user}/repos/{n}",
           "params": [{"name": "user", "in": "path"},
                      {"name": "n", "in": "path", "type": "integer"}]"#,
    );
    call(&p, "repos", r#"{"user":"octo","n":"7"}"#);
    assert_eq!(recorder.only().url().path(), "/users/octo/repos/7");
}

#[test]
fn json_body_for_post() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "createIssue", "method": "POST", "path": "/issues",
           "params": [{"name": "title", "required": true},
                      {"name": "priority", "type": "integer"}]"#,
    );
    call(
        &p,
        "createIssue",
        r#"{"title":"Printer on fire","priority":1}"#,
    );
    let request = recorder.only();
    assert_eq!(request.method(), Method::Post);
    assert_eq!(
        request.headers().get("content-type"),
        Some("application/json")
    );
    assert_eq!(
        body_text(&request),
        r#"{"title":"Printer on fire","priority":1}"#
    );
}

#[test]
fn array_and_object_coercion() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "search", "method": "POST", "path": "/search",
           "params": [
             {"name": "ids", "type": "array", "items": {"type": "integer"}},
             {"name": "filter", "type": "object",
              "properties": {"limit": {"type": "integer"}, "open": {"type": "boolean"}}}
           ]"#,
    );
    let out = call(
        &p,
        "search",
        r#"{"ids":["1",2],"filter":{"limit":"5","open":"yes"}}"#,
    );
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(
        body_text(&recorder.only()),
        r#"{"ids":[1,2],"filter":{"limit":5,"open":true}}"#
    );
}

#[test]
fn json_encoded_array_strings() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "tag", "method": "POST", "path": "/tags",
           "params": [{"name": "tags", "type": "array", "items": {"type": "string"}},
                      {"name": "meta", "type": "object"}]"#,
    );
    let out = call(&p, "tag", r#"{"tags":"[\"a\",\"b\"]","meta":"{\"k\":1}"}"#);
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(
        body_text(&recorder.only()),
        r#"{"tags":["a","b"],"meta":{"k":1}}"#
    );
}

#[test]
fn static_plus_dynamic_headers() {
    let recorder = Recorder::new();
    let p = plugin(
        r#"{"name": "t", "base_url": "https://api.example.com",
            "headers": {"Accept": "application/json", "X-Client": "httptool-test"},
            "endpoints": [{"name": "get", "path": "/x",
              "params": [{"name": "trace", "wire_name": "X-Trace-Id", "in": "header"}]}]}"#,
        &recorder,
    );
    call(&p, "get", r#"{"trace":"abc-123"}"#);
    let headers: Vec<(String, String)> = recorder
        .only()
        .headers()
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    assert_eq!(
        headers,
        [
            ("Accept".to_string(), "application/json".to_string()),
            ("X-Client".to_string(), "httptool-test".to_string()),
            ("X-Trace-Id".to_string(), "abc-123".to_string()),
        ]
    );
}

#[test]
fn defaults() {
    let recorder = Recorder::new();
    let weather = plugin(WEATHER, &recorder);
    call(&weather, "getWeather", r#"{"city":"Paris"}"#);
    assert_eq!(recorder.only().url().query(), Some("q=Paris&days=1"));
}

#[test]
fn missing_required() {
    let recorder = Recorder::new();
    let weather = plugin(WEATHER, &recorder);
    let out = call(&weather, "getWeather", r#"{"days":2}"#);
    assert_eq!(out.error_kind(), Some(ErrorKind::MissingParameter));
    assert_eq!(
        out.text(),
        "missing required parameter 'city' (a string); null and \"\" count as missing"
    );
    assert_eq!(recorder.count(), 0);
}

#[test]
fn no_body_for_get() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "find", "method": "GET", "path": "/find",
           "params": [{"name": "term"}, {"name": "page", "type": "integer"}]"#,
    );
    call(&p, "find", r#"{"term":"rust","page":2}"#);
    let request = recorder.only();
    assert!(request.body().is_empty());
    assert!(!request.headers().contains("content-type"));
    assert_eq!(request.url().query(), Some("term=rust&page=2"));
}

// ---------------------------------------------------------------- design, endpoints: value order

#[test]
fn model_value_overrides_default() {
    let recorder = Recorder::new();
    call(
        &plugin(WEATHER, &recorder),
        "getWeather",
        r#"{"city":"x","days":5}"#,
    );
    assert_eq!(recorder.only().url().query(), Some("q=x&days=5"));
}

#[test]
fn null_and_empty_string_do_not_override_default() {
    let recorder = Recorder::new();
    let weather = plugin(WEATHER, &recorder);
    call(&weather, "getWeather", r#"{"city":"x","days":null}"#);
    call(&weather, "getWeather", r#"{"city":"x","days":""}"#);
    let queries: Vec<String> = recorder
        .requests()
        .iter()
        .map(|r| r.url().query().unwrap().to_string())
        .collect();
    assert_eq!(queries, ["q=x&days=1", "q=x&days=1"]);
}

#[test]
fn absent_optional_params_are_left_out() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "get", "path": "/x",
           "params": [{"name": "q", "in": "query"},
                      {"name": "lang", "in": "query"},
                      {"name": "trace", "wire_name": "X-Trace", "in": "header"}]"#,
    );
    call(&p, "get", r#"{"q":"a","lang":null,"trace":""}"#);
    let request = recorder.only();
    assert_eq!(request.url().query(), Some("q=a"));
    assert!(!request.headers().contains("x-trace"));
}

#[test]
fn patch_body_holds_only_given_values() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "update", "method": "PATCH", "path": "/items/{id}",
           "params": [{"name": "id", "in": "path"},
                      {"name": "name"}, {"name": "color"}, {"name": "size", "type": "integer"}]"#,
    );
    call(&p, "update", r#"{"id":"7","color":"red"}"#);
    assert_eq!(body_text(&recorder.only()), r#"{"color":"red"}"#);
}

// ---------------------------------------------------------------- design, endpoints: coercion

#[test]
fn strings_become_numbers_and_booleans() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "set", "method": "POST", "path": "/set",
           "params": [{"name": "n", "type": "integer"}, {"name": "x", "type": "number"},
                      {"name": "a", "type": "boolean"}, {"name": "b", "type": "boolean"},
                      {"name": "c", "type": "boolean"}, {"name": "s", "type": "string"}]"#,
    );
    call(
        &p,
        "set",
        r#"{"n":"42","x":"2.5","a":"true","b":"no","c":"1","s":7}"#,
    );
    assert_eq!(
        body_text(&recorder.only()),
        r#"{"n":42,"x":2.5,"a":true,"b":false,"c":true,"s":"7"}"#
    );
}

#[test]
fn uncoercible_value_names_parameter_and_type() {
    let recorder = Recorder::new();
    let out = call(
        &plugin(WEATHER, &recorder),
        "getWeather",
        r#"{"city":"x","days":"soon"}"#,
    );
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidParameter));
    assert_eq!(
        out.text(),
        "parameter 'days' must be an integer; got \"soon\""
    );
    assert_eq!(recorder.count(), 0);
}

#[test]
fn enum_is_enforced() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "get", "path": "/x",
           "params": [{"name": "unit", "in": "query", "enum": ["c", "f"]}]"#,
    );
    let out = call(&p, "get", r#"{"unit":"k"}"#);
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidParameter));
    assert_eq!(
        out.text(),
        "parameter 'unit' must be one of \"c\", \"f\"; got \"k\""
    );
    call(&p, "get", r#"{"unit":"f"}"#);
    assert_eq!(recorder.only().url().query(), Some("unit=f"));
}

#[test]
fn object_property_errors_name_the_property() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "s", "method": "POST", "path": "/s",
           "params": [{"name": "filter", "type": "object",
             "properties": {"city": {"type": "string", "required": true}}}]"#,
    );
    let unknown = call(&p, "s", r#"{"filter":{"ctiy":"x"}}"#);
    assert_eq!(
        unknown.text(),
        "parameter 'filter' has an unknown property 'ctiy'; did you mean 'city'? accepted: city"
    );
    let missing = call(&p, "s", r#"{"filter":{}}"#);
    assert_eq!(
        missing.text(),
        "parameter 'filter' lacks required property 'city' (a string)"
    );
    assert_eq!(recorder.count(), 0);
}

// ---------------------------------------------------------------- design, endpoints: unknown names

#[test]
fn unknown_argument_suggests_closest_and_lists_accepted() {
    let recorder = Recorder::new();
    let out = call(
        &plugin(WEATHER, &recorder),
        "getWeather",
        r#"{"ctiy":"Paris"}"#,
    );
    assert_eq!(out.error_kind(), Some(ErrorKind::UnknownParameter));
    assert_eq!(
        out.text(),
        "unknown parameter 'ctiy'; did you mean 'city'? accepted: city, days"
    );
    assert_eq!(recorder.count(), 0);
}

#[test]
fn allow_unknown_arguments_ignores_them() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "get", "path": "/x", "allow_unknown_arguments": true,
           "params": [{"name": "q", "in": "query"}]"#,
    );
    let out = call(&p, "get", r#"{"q":"a","extra":1}"#);
    assert!(!out.is_error());
    assert_eq!(recorder.only().url().query(), Some("q=a"));
}

// ---------------------------------------------------------------- design, endpoints: bodies

#[test]
fn body_params_go_to_the_query_on_get_head_options_delete() {
    for method in ["GET", "HEAD", "OPTIONS", "DELETE"] {
        let recorder = Recorder::new();
        let p = endpoint(
            &recorder,
            &format!(
                r#""name": "op", "method": "{}", "path": "/x",
                   "params": [{{"name": "a"}}, {{"name": "b", "in": "form"}}]"#,
                method
            ),
        );
        call(&p, "op", r#"{"a":"1","b":"2"}"#);
        let request = recorder.only();
        assert_eq!(request.url().query(), Some("a=1&b=2"), "{}", method);
        assert!(request.body().is_empty(), "{}", method);
    }
}

#[test]
fn delete_may_opt_in_to_a_json_body() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "purge", "method": "DELETE", "path": "/items", "allow_delete_body": true,
           "params": [{"name": "ids", "type": "array", "items": {"type": "integer"}}]"#,
    );
    call(&p, "purge", r#"{"ids":[1,2]}"#);
    let request = recorder.only();
    assert_eq!(request.url().query(), None);
    assert_eq!(body_text(&request), r#"{"ids":[1,2]}"#);
}

#[test]
fn post_without_body_values_sends_no_body() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "ping", "method": "POST", "path": "/ping",
           "params": [{"name": "note"}]"#,
    );
    call(&p, "ping", "{}");
    let request = recorder.only();
    assert!(request.body().is_empty());
    assert!(!request.headers().contains("content-type"));
}

#[test]
fn form_params_make_an_urlencoded_body() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "login", "method": "POST", "path": "/login",
           "params": [{"name": "user", "in": "form"}, {"name": "note", "in": "FORM"},
                      {"name": "tags", "in": "form", "type": "array", "items": {"type": "string"}}]"#,
    );
    call(
        &p,
        "login",
        r#"{"user":"ann lee","note":"a&b=c+d","tags":["x","y"]}"#,
    );
    let request = recorder.only();
    assert_eq!(
        request.headers().get("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        body_text(&request),
        "user=ann+lee&note=a%26b%3Dc%2Bd&tags=x&tags=y"
    );
}

struct Uploads;

impl FileResolver for Uploads {
    fn resolve(
        &self,
        handle: &str,
        _context: &CallContext,
    ) -> Result<FilePart, Box<dyn std::error::Error + Send + Sync>> {
        match handle {
            "upload-1" => Ok(FilePart::new("notes.txt", "text/plain", b"hello".to_vec())),
            _ => Err("no upload has this id; use an id from the uploads list".into()),
        }
    }
}

const UPLOAD: &str = r#""name": "upload", "method": "POST", "path": "/files",
    "body_encoding": "multipart",
    "params": [{"name": "title", "in": "form"},
               {"name": "doc", "in": "form", "file": true, "required": true}]"#;

#[test]
fn multipart_file_parts_come_from_the_host_resolver() {
    let recorder = Recorder::new();
    let p = endpoint(&recorder, UPLOAD).with_file_resolver(Arc::new(Uploads));
    let out = call(&p, "upload", r#"{"title":"Q3","doc":"upload-1"}"#);
    assert!(!out.is_error(), "{}", out.text());
    let request = recorder.only();
    let content_type = request.headers().get("content-type").unwrap().to_string();
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap();
    assert_eq!(
        body_text(&request),
        format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nQ3\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"notes.txt\"\r\n\
             Content-Type: text/plain\r\n\r\nhello\r\n--{b}--\r\n",
            b = boundary
        )
    );
}

#[test]
fn file_part_without_a_resolver_is_an_error() {
    let recorder = Recorder::new();
    let out = call(
        &endpoint(&recorder, UPLOAD),
        "upload",
        r#"{"doc":"/etc/passwd"}"#,
    );
    assert_eq!(out.error_kind(), Some(ErrorKind::ToolFailed));
    assert_eq!(
        out.text(),
        "parameter 'doc' is a file, and this application installed no file resolver, so files cannot be sent; this is not caused by the arguments"
    );
    assert_eq!(recorder.count(), 0);
}

#[test]
fn file_resolver_refusal_reaches_the_model() {
    let recorder = Recorder::new();
    let p = endpoint(&recorder, UPLOAD).with_file_resolver(Arc::new(Uploads));
    let out = call(&p, "upload", r#"{"doc":"../secret"}"#);
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidParameter));
    assert_eq!(
        out.text(),
        "parameter 'doc': file '../secret' could not be resolved: no upload has this id; use an id from the uploads list"
    );
    assert_eq!(recorder.count(), 0);
}

#[test]
fn whole_body_param_is_the_body() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "bulk", "method": "PUT", "path": "/bulk",
           "params": [{"name": "items", "whole_body": true, "required": true,
                       "type": "array", "items": {"type": "integer"}}]"#,
    );
    call(&p, "bulk", r#"{"items":["1",2,3]}"#);
    let request = recorder.only();
    assert_eq!(body_text(&request), "[1,2,3]");
    assert_eq!(
        request.headers().get("content-type"),
        Some("application/json")
    );
}

#[test]
fn declared_content_type_is_kept() {
    let recorder = Recorder::new();
    let p = plugin(
        r#"{"name": "t", "base_url": "https://api.example.com",
            "headers": {"Content-Type": "application/vnd.api+json"},
            "endpoints": [{"name": "post", "method": "POST", "path": "/x",
              "params": [{"name": "a"}]}]}"#,
        &recorder,
    );
    call(&p, "post", r#"{"a":"1"}"#);
    let request = recorder.only();
    let types: Vec<&str> = request.headers().get_all("content-type").collect();
    assert_eq!(types, ["application/vnd.api+json"]);
}

#[test]
fn content_type_param_replaces_the_bodys() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "post", "method": "POST", "path": "/x",
           "params": [{"name": "a"},
                      {"name": "type", "wire_name": "Content-Type", "in": "header"}]"#,
    );
    call(
        &p,
        "post",
        r#"{"a":"1","type":"application/merge-patch+json"}"#,
    );
    call(&p, "post", r#"{"a":"1"}"#);
    let types: Vec<Vec<String>> = recorder
        .requests()
        .iter()
        .map(|r| {
            r.headers()
                .get_all("content-type")
                .map(str::to_string)
                .collect()
        })
        .collect();
    assert_eq!(
        types,
        [
            vec![String::from("application/merge-patch+json")],
            vec![String::from("application/json")]
        ]
    );
}

// ---------------------------------------------------------------- design, endpoints: path values

#[test]
fn path_value_is_one_encoded_segment() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "get", "path": "/files/{id}", "params": [{"name": "id", "in": "path"}]"#,
    );
    for value in ["a/b", "?x=1", "#", "a b", "é", "..."] {
        call(&p, "get", &format!(r#"{{"id":"{}"}}"#, value));
    }
    let paths: Vec<String> = recorder
        .requests()
        .iter()
        .map(|r| r.url().path_and_query().to_string())
        .collect();
    assert_eq!(
        paths,
        [
            "/files/a%2Fb",
            "/files/%3Fx%3D1",
            "/files/%23",
            "/files/a%20b",
            "/files/%C3%A9",
            "/files/...",
        ]
    );
}

#[test]
fn base_url_path_prefixes_endpoint_paths() {
    let recorder = Recorder::new();
    let p = plugin(
        &single(
            "https://api.example.com/v2/",
            r#""name": "me", "path": "/me""#,
        ),
        &recorder,
    );
    call(&p, "me", "{}");
    assert_eq!(
        recorder.only().url().as_str(),
        "https://api.example.com/v2/me"
    );
}

// ---------------------------------------------------------------- design, endpoints: query strings

#[test]
fn query_values_are_percent_encoded_with_space_as_percent_20() {
    let recorder = Recorder::new();
    call(
        &plugin(WEATHER, &recorder),
        "getWeather",
        r#"{"city":"São Paulo & Co/100% ü+é=1?#x"}"#,
    );
    assert_eq!(
        recorder.only().url().query(),
        Some("q=S%C3%A3o%20Paulo%20%26%20Co%2F100%25%20%C3%BC%2B%C3%A9%3D1%3F%23x&days=1")
    );
}

#[test]
fn arrays_repeat_the_key_or_join_with_commas() {
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "get", "path": "/x",
           "params": [{"name": "ids", "in": "query", "type": "array", "items": {"type": "integer"}},
                      {"name": "tags", "in": "query", "type": "array", "items": {"type": "string"},
                       "array_style": "comma"}]"#,
    );
    call(&p, "get", r#"{"ids":[1,2],"tags":["a,b","c d"]}"#);
    assert_eq!(
        recorder.only().url().query(),
        Some("ids=1&ids=2&tags=a%2Cb,c%20d")
    );
}

#[test]
fn objects_joined_with_commas_keep_literal_commas_in_the_query_and_join_in_headers() {
    // Regression: the query joined an array's items with literal commas but an object's
    // keys and values with `%2C`, and a header sent a comma-style object as JSON; one
    // function joins both now (OpenAPI's `form`/`simple` styles: `R,100,G,200`).
    let recorder = Recorder::new();
    let p = endpoint(
        &recorder,
        r#""name": "get", "path": "/x",
           "params": [{"name": "filter", "in": "query", "type": "object", "array_style": "comma"},
                      {"name": "X-Pick", "in": "header", "type": "object", "array_style": "comma"},
                      {"name": "X-Ids", "in": "header", "type": "array", "items": {"type": "string"},
                       "array_style": "comma"}]"#,
    );
    call(
        &p,
        "get",
        r#"{"filter":{"status":"open,closed","page":2},"X-Pick":{"a":"1","b":[2]},"X-Ids":["a b","c"]}"#,
    );
    let request = recorder.only();
    assert_eq!(
        request.url().query(),
        Some("filter=status,open%2Cclosed,page,2")
    );
    assert_eq!(request.headers().get("x-pick"), Some("a,1,b,[2]"));
    assert_eq!(request.headers().get("x-ids"), Some("a b,c"));
}

// ---------------------------------------------------------------- design, endpoints: secrets

#[test]
fn bearer_token_is_sent_and_masked() {
    let recorder = Recorder::new();
    let p = HttpPlugin::from_json_with(
        r#"{"name": "t", "base_url": "https://api.example.com",
            "auth": {"type": "bearer", "token": "${TOKEN}"},
            "endpoints": [{"name": "get", "path": "/x"}]}"#,
        |_| Some(String::from("s3cr3t-token")),
    )
    .unwrap()
    .with_transport(recorder.clone());
    call(&p, "get", "{}");
    let request = recorder.only();
    assert_eq!(
        request.headers().get("authorization"),
        Some("Bearer s3cr3t-token")
    );
    let dry = p
        .dry_run("get", "{}", &CallContext::new())
        .unwrap()
        .to_string();
    assert!(dry.contains("Authorization: ***\r\n"), "{}", dry);
    assert!(!dry.contains("s3cr3t"));
    assert!(!format!("{:?}", p).contains("s3cr3t"));
    assert!(!format!("{:?}", request).contains("s3cr3t"));
}

#[test]
fn basic_auth_is_base64_of_user_and_password() {
    let recorder = Recorder::new();
    let p = plugin(
        r#"{"name": "t", "base_url": "https://api.example.com",
            "auth": {"type": "basic", "username": "Aladdin", "password": "open sesame"},
            "endpoints": [{"name": "get", "path": "/x"}]}"#,
        &recorder,
    );
    call(&p, "get", "{}");
    assert_eq!(
        recorder.only().headers().get("authorization"),
        Some("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    );
}

#[test]
fn api_key_header_is_sensitive() {
    let recorder = Recorder::new();
    let p = plugin(
        r#"{"name": "t", "base_url": "https://api.example.com",
            "auth": {"type": "header", "name": "X-Api-Key", "value": "k-123"},
            "endpoints": [{"name": "get", "path": "/x"}]}"#,
        &recorder,
    );
    call(&p, "get", "{}");
    let request = recorder.only();
    assert_eq!(request.headers().get("x-api-key"), Some("k-123"));
    assert!(request.headers().is_sensitive("x-api-key"));
}

#[test]
fn api_key_in_query_is_masked() {
    let recorder = Recorder::new();
    let p = plugin(
        r#"{"name": "t", "base_url": "https://api.example.com",
            "query": {"format": "json"},
            "auth": {"type": "query", "name": "api_key", "value": "k-123"},
            "endpoints": [{"name": "get", "path": "/x", "params": [{"name": "q", "in": "query"}]}]}"#,
        &recorder,
    );
    call(&p, "get", r#"{"q":"a"}"#);
    let request = recorder.only();
    assert_eq!(request.url().query(), Some("q=a&format=json&api_key=k-123"));
    assert_eq!(
        request.to_string(),
        "GET https://api.example.com/x?q=a&format=json&api_key=***"
    );
}

#[test]
fn literal_credentials_in_static_headers_and_query_are_masked() {
    // Written in the plugin file as plain text, not `${NAME}`: still secret by their names.
    let recorder = Recorder::new();
    let p = plugin(
        r#"{"name": "t", "base_url": "https://api.example.com",
            "headers": {"X-Auth-Token": "t-123", "Accept": "application/json"},
            "query": {"access_token": "q-456", "format": "json"},
            "endpoints": [{"name": "get", "path": "/x"}]}"#,
        &recorder,
    );
    call(&p, "get", "{}");
    let request = recorder.only();
    assert_eq!(
        request.url().query(),
        Some("access_token=q-456&format=json")
    );
    assert_eq!(
        request.redacted_url(),
        "https://api.example.com/x?access_token=***&format=json"
    );
    assert!(request.headers().is_sensitive("x-auth-token"));
    assert!(!request.headers().is_sensitive("accept"));
    let dry = p
        .dry_run("get", "{}", &CallContext::new())
        .unwrap()
        .to_string();
    assert!(dry.contains("X-Auth-Token: ***\r\n"), "{}", dry);
    assert!(dry.contains("Accept: application/json\r\n"), "{}", dry);
    assert!(!dry.contains("t-123") && !dry.contains("q-456"), "{}", dry);
}

#[test]
fn secret_query_param_is_hidden_and_masked() {
    let recorder = Recorder::new();
    let p = HttpPlugin::from_json_with(
        r#"{"name": "t", "base_url": "https://api.example.com",
            "endpoints": [{"name": "get", "path": "/x",
              "params": [{"name": "sig", "in": "query", "secret": true, "default": "${SIG}"}]}]}"#,
        |_| Some(String::from("abc")),
    )
    .unwrap()
    .with_transport(recorder.clone());
    assert_eq!(
        p.specs()[0].parameters().to_string(),
        r#"{"type":"object","properties":{},"additionalProperties":false}"#
    );
    call(&p, "get", "{}");
    let request = recorder.only();
    assert_eq!(request.url().query(), Some("sig=abc"));
    assert_eq!(request.redacted_url(), "https://api.example.com/x?sig=***");
}

// ---------------------------------------------------------------- design, endpoints: call context

const TENANT: &str = r#"{"name": "t", "base_url": "https://api.example.com",
    "endpoints": [{"name": "get", "path": "/x",
      "params": [{"name": "q", "in": "query"},
                 {"name": "tenant", "wire_name": "X-Tenant", "in": "header", "hidden": true,
                  "required": true},
                 {"name": "region", "in": "query", "hidden": true, "context": "user_region",
                  "default": "eu"},
                 {"name": "limit", "in": "query", "type": "integer", "hidden": true}]}]}"#;

#[test]
fn hidden_params_are_filled_from_the_context_or_their_default() {
    let recorder = Recorder::new();
    let p = plugin(TENANT, &recorder);
    let context = CallContext::new().with("tenant", "acme");
    let out = call_with(&p, "get", r#"{"q":"a"}"#, &context);
    assert!(!out.is_error(), "{}", out.text());
    let context = CallContext::new()
        .with("tenant", "globex")
        .with("user_region", "us")
        .with("limit", "10");
    call_with(&p, "get", r#"{"q":"b"}"#, &context);
    let requests = recorder.requests();
    assert_eq!(requests[0].url().query(), Some("q=a&region=eu"));
    assert_eq!(requests[0].headers().get("x-tenant"), Some("acme"));
    assert_eq!(requests[1].url().query(), Some("q=b&region=us&limit=10"));
    assert_eq!(requests[1].headers().get("x-tenant"), Some("globex"));
    assert!(requests[1].headers().is_sensitive("x-tenant"));
    assert_eq!(
        requests[1].redacted_url(),
        "https://api.example.com/x?q=b&region=***&limit=***"
    );
}

#[test]
fn hidden_params_are_not_in_the_schema() {
    let p = plugin(TENANT, &Recorder::new());
    assert_eq!(
        p.specs()[0].parameters().to_string(),
        r#"{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}"#
    );
}

#[test]
fn model_cannot_set_a_hidden_param() {
    let recorder = Recorder::new();
    let context = CallContext::new().with("tenant", "acme");
    let out = call_with(
        &plugin(TENANT, &recorder),
        "get",
        r#"{"tenant":"evil"}"#,
        &context,
    );
    assert_eq!(out.error_kind(), Some(ErrorKind::UnknownParameter));
    assert_eq!(out.text(), "unknown parameter 'tenant'; accepted: q");
    assert_eq!(recorder.count(), 0);
}

#[test]
fn missing_context_value_is_not_the_models_fault() {
    let recorder = Recorder::new();
    let out = call(&plugin(TENANT, &recorder), "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::MissingParameter));
    assert_eq!(
        out.text(),
        "this tool needs 'tenant' from the application's call context, and the application did not provide it; this is not caused by the arguments"
    );
    assert_eq!(recorder.count(), 0);
}

#[test]
fn unusable_context_value_is_not_repeated() {
    let recorder = Recorder::new();
    let context = CallContext::new()
        .with("tenant", "acme")
        .with("limit", "lots-secret");
    let out = call_with(&plugin(TENANT, &recorder), "get", "{}", &context);
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidParameter));
    assert_eq!(
        out.text(),
        "the application's call context value 'limit' is not a valid integer for this tool; this is not caused by the arguments"
    );
}

#[test]
fn context_value_with_a_line_break_cannot_go_in_a_header() {
    let recorder = Recorder::new();
    let context = CallContext::new().with("tenant", "acme\r\nX-Admin: 1");
    let out = call_with(&plugin(TENANT, &recorder), "get", "{}", &context);
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidParameter));
    assert_eq!(
        out.text(),
        "the application's call context value 'tenant' cannot go in a header (it holds a control character); this is not caused by the arguments"
    );
    assert_eq!(recorder.count(), 0);
}

#[test]
fn auth_and_static_values_from_the_context() {
    let recorder = Recorder::new();
    let p = plugin(
        r#"{"name": "t", "base_url": "https://api.example.com",
            "headers": {"X-Org": {"context": "org"}},
            "query": {"tenant": {"context": "tenant"}},
            "auth": {"type": "basic", "username": {"context": "user"}, "password": {"context": "pass"}},
            "endpoints": [{"name": "get", "path": "/x"}]}"#,
        &recorder,
    );
    let context = CallContext::new()
        .with("org", "o1")
        .with("tenant", "t1")
        .with("user", "Aladdin")
        .with("pass", "open sesame");
    call_with(&p, "get", "{}", &context);
    let request = recorder.only();
    assert_eq!(request.headers().get("x-org"), Some("o1"));
    assert_eq!(request.url().query(), Some("tenant=t1"));
    assert_eq!(
        request.headers().get("authorization"),
        Some("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    );
    assert_eq!(
        request.redacted_url(),
        "https://api.example.com/x?tenant=***"
    );
    let colon = CallContext::new()
        .with("org", "o1")
        .with("tenant", "t1")
        .with("user", "a:b")
        .with("pass", "p");
    let out = call_with(&p, "get", "{}", &colon);
    assert_eq!(
        out.text(),
        "the application's call context holds a basic auth user name with ':', which RFC 7617 forbids; this is not caused by the arguments"
    );
}

// ---------------------------------------------------------------- dry runs and signing

#[test]
fn dry_run_renders_the_exact_request_with_secrets_masked() {
    let recorder = Recorder::new();
    let p = plugin(
        r#"{"name": "t", "base_url": "https://api.example.com",
            "auth": {"type": "query", "name": "key", "value": "k-1"},
            "endpoints": [{"name": "post", "method": "POST", "path": "/items",
              "params": [{"name": "name"}]}]}"#,
        &recorder,
    );
    let dry = p
        .dry_run("post", r#"{"name":"x"}"#, &CallContext::new())
        .unwrap();
    assert_eq!(
        dry.to_string(),
        format!(
            "POST /items?key=*** HTTP/1.1\r\nHost: api.example.com\r\nUser-Agent: {}\r\n\
             Content-Type: application/json\r\nContent-Length: 12\r\n\r\n{{\"name\":\"x\"}}",
            httptool::http::DEFAULT_USER_AGENT
        )
    );
    let revealed = String::from_utf8(dry.render(Secrets::Reveal).unwrap()).unwrap();
    assert!(revealed.starts_with("POST /items?key=k-1 HTTP/1.1\r\n"));
    assert_eq!(recorder.count(), 0, "a dry run sends nothing");
    let unknown = p.dry_run("psot", "{}", &CallContext::new()).unwrap_err();
    assert_eq!(
        unknown.text(),
        "unknown tool 'psot'; did you mean 'post'? accepted: post"
    );
}

#[test]
fn dry_run_of_a_request_the_client_would_refuse_says_why() {
    let p = endpoint(
        &Recorder::new(),
        r#""name": "get", "path": "/x", "params": [{"name": "q", "in": "query"}]"#,
    );
    let arguments = format!(r#"{{"q":"{}"}}"#, "a".repeat(9000));
    let dry = p.dry_run("get", &arguments, &CallContext::new()).unwrap();
    let shown = dry.to_string();
    assert!(
        shown.starts_with("GET https://api.example.com/x?q=aaa"),
        "{}",
        &shown[..40]
    );
    assert!(
        shown.contains(" (it would not be sent: "),
        "{}",
        &shown[shown.len() - 120..]
    );
    assert!(dry.render(Secrets::Mask).is_err());
}

#[test]
fn signer_runs_last_and_its_failure_is_reported() {
    let recorder = Recorder::new();
    let signer = |request: &mut httptool::http::Request,
                  context: &CallContext|
     -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let key = context.get("key").ok_or("no signing key")?;
        let signature = format!("{}:{}", request.method(), key.len());
        request.url_mut().append_query_pair("sign", &signature);
        request.mark_query_secret("sign");
        Ok(())
    };
    let p = endpoint(&recorder, r#""name": "get", "path": "/x""#).with_signer(Arc::new(signer));
    call_with(&p, "get", "{}", &CallContext::new().with("key", "abc"));
    assert_eq!(recorder.only().url().query(), Some("sign=GET%3A3"));
    let out = call(&p, "get", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::ToolFailed));
    assert_eq!(
        out.text(),
        "signing the request failed: no signing key; this is not caused by the arguments"
    );
    assert_eq!(recorder.count(), 1);
}

#[test]
fn request_options_travel_with_the_request() {
    let recorder = Recorder::new();
    let p = plugin(
        r#"{"name": "t", "base_url": "https://api.example.com", "timeout_call_ms": 5000,
            "endpoints": [{"name": "get", "path": "/x", "max_response_bytes": 1000}]}"#,
        &recorder,
    );
    call(&p, "get", "{}");
    let expected = httptool::http::RequestOptions::new()
        .redirect(httptool::http::RedirectPolicy::same_origin())
        .timeout_call(std::time::Duration::from_millis(5000))
        .max_response_bytes(1000);
    assert_eq!(recorder.only().options(), &expected);
}

#[test]
fn plugin_types_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<HttpPlugin>();
    send_sync::<httptool::plugin::HttpTool>();
    send_sync::<httptool::plugin::DryRun>();
    send_sync::<httptool::plugin::ApiResponse>();
    send_sync::<httptool::plugin::Error>();
}
