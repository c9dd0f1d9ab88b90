//! The plugin fields the OpenAPI importer needs, through the plugin file: cookies, array and
//! object styles, raw bodies, per-endpoint base URLs and declared schemas. Each case checks
//! the request a dry run builds, and that the file round-trips.

use httptool::http::Secrets;
use httptool::plugin::HttpPlugin;
use httptool::tool::{CallContext, ErrorKind, ToolRegistry};

fn plugin(endpoint: &str) -> HttpPlugin {
    let text = format!(
        r#"{{"name": "t", "base_url": "https://api.example.com/v1", "endpoints": [{}]}}"#,
        endpoint
    );
    let plugin = HttpPlugin::from_json(&text).unwrap();
    let again = HttpPlugin::from_json(&plugin.to_json().to_string()).unwrap();
    assert_eq!(again.to_json(), plugin.to_json(), "the file round-trips");
    plugin
}

fn request(plugin: &HttpPlugin, args: &str) -> String {
    let dry = plugin.dry_run("op", args, &CallContext::new()).unwrap();
    String::from_utf8(dry.render(Secrets::Reveal).unwrap()).unwrap()
}

fn refused(plugin: &HttpPlugin, args: &str) -> (ErrorKind, String) {
    let out = plugin.dry_run("op", args, &CallContext::new()).unwrap_err();
    (out.error_kind().unwrap(), out.text().to_string())
}

#[test]
fn cookies_go_in_one_header_encoded_per_rfc_6265() {
    let p = plugin(
        r#"{"name": "op", "path": "/x", "params": [
            {"name": "session", "in": "cookie"},
            {"name": "theme", "wire_name": "th", "in": "cookie"}]}"#,
    );
    let shown = request(&p, r#"{"session": "a b;c", "theme": "dark"}"#);
    assert!(
        shown.contains("\r\nCookie: session=a%20b%3Bc; th=dark\r\n"),
        "{shown}"
    );
    assert!(!request(&p, "{}").contains("Cookie"));
}

#[test]
fn secret_cookies_are_masked() {
    let text = r#"{"name": "t", "base_url": "https://api.example.com", "endpoints": [{"name": "op", "path": "/x",
        "params": [{"name": "sid", "in": "cookie", "secret": true, "default": "${SID}"}]}]}"#;
    let p = HttpPlugin::from_json_with(text, |_| Some("s3cret".to_string())).unwrap();
    let dry = p.dry_run("op", "{}", &CallContext::new()).unwrap();
    let shown = String::from_utf8(dry.render(Secrets::Mask).unwrap()).unwrap();
    assert!(shown.contains("\r\nCookie: ***\r\n"), "{shown}");
    let unmasked = p.dry_run("op", "{}", &CallContext::new()).unwrap();
    assert_eq!(
        unmasked.request().headers().get("cookie"),
        Some("sid=s3cret")
    );
}

#[test]
fn a_cookie_name_must_be_a_token() {
    let text = r#"{"name": "t", "base_url": "https://api.example.com", "endpoints": [{"name": "op", "path": "/x",
        "params": [{"name": "sid", "wire_name": "a b", "in": "cookie"}]}]}"#;
    let err = HttpPlugin::from_json(text).unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].params[0].wire_name: 'a b' is not a cookie name: use letters, digits and !#$%&'*+-.^_`|~"
    );
}

#[test]
fn query_styles() {
    let p = plugin(
        r#"{"name": "op", "path": "/x", "params": [
            {"name": "a", "in": "query", "type": "array", "items": {"type": "string"}, "array_style": "space"},
            {"name": "b", "in": "query", "type": "array", "items": {"type": "string"}, "array_style": "pipe"},
            {"name": "filter", "in": "query", "type": "object", "array_style": "deep_object"},
            {"name": "page", "in": "query", "type": "object", "array_style": "spread"},
            {"name": "c", "in": "query", "type": "object", "array_style": "comma"}]}"#,
    );
    let shown = request(
        &p,
        r#"{"a": ["x", "y"], "b": ["x", "y"], "filter": {"status": "open"}, "page": {"size": 2, "n": 1}, "c": {"k": "v"}}"#,
    );
    // A comma-style object keeps its commas literal, as an array does (OpenAPI `form`
    // without explode: `c=k,v`); it was `c=k%2Cv` before the query's two joins became one.
    assert!(
        shown.starts_with(
            "GET /v1/x?a=x%20y&b=x%7Cy&filter%5Bstatus%5D=open&size=2&n=1&c=k,v HTTP/1.1\r\n"
        ),
        "{shown}"
    );
}

#[test]
fn form_bodies_with_deep_objects() {
    let p = plugin(
        r#"{"name": "op", "method": "POST", "path": "/charges", "params": [
            {"name": "amount", "in": "form", "type": "integer"},
            {"name": "metadata", "in": "form", "type": "object", "array_style": "deep_object"},
            {"name": "expand", "in": "form", "type": "array", "items": {"type": "string"}, "array_style": "deep_object"}]}"#,
    );
    let shown = request(
        &p,
        r#"{"amount": 7, "metadata": {"order": 7}, "expand": ["customer", "invoice"]}"#,
    );
    assert!(
        shown.ends_with(
            "\r\n\r\namount=7&metadata%5Border%5D=7&expand%5B0%5D=customer&expand%5B1%5D=invoice"
        ),
        "{shown}"
    );
}

#[test]
fn style_that_does_not_fit_the_type_is_refused() {
    let text = r#"{"name": "t", "base_url": "https://api.example.com", "endpoints": [{"name": "op", "path": "/x",
        "params": [{"name": "a", "in": "query", "type": "array", "items": {"type": "string"}, "array_style": "spread"}]}]}"#;
    let err = HttpPlugin::from_json(text).unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].params[0].array_style: array_style spread applies to object parameters only"
    );
}

#[test]
fn raw_text_body_with_its_content_type() {
    let p = plugin(
        r#"{"name": "op", "method": "PUT", "path": "/doc", "body_encoding": "raw",
            "content_type": "application/xml", "params": [{"name": "body", "required": true}]}"#,
    );
    let shown = request(&p, r#"{"body": "<a>1</a>"}"#);
    assert!(
        shown.contains("\r\nContent-Type: application/xml\r\n"),
        "{shown}"
    );
    assert!(shown.ends_with("\r\n\r\n<a>1</a>"), "{shown}");
}

#[test]
fn raw_body_needs_a_string_and_a_method_with_a_body() {
    let text = r#"{"name": "t", "base_url": "https://api.example.com", "endpoints": [{"name": "op", "path": "/x",
        "method": "POST", "body_encoding": "raw", "params": [{"name": "n", "type": "integer"}]}]}"#;
    let err = HttpPlugin::from_json(text).unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].params[0].type: a raw body parameter is a string (the text, or a file handle with \"file\": true)"
    );
}

#[test]
fn an_endpoint_may_have_its_own_base_url() {
    let p = plugin(
        r#"{"name": "op", "method": "POST", "path": "/files", "base_url": "https://upload.example.com/api/2.0"}"#,
    );
    let dry = p.dry_run("op", "{}", &CallContext::new()).unwrap();
    assert_eq!(
        dry.request().url().as_str(),
        "https://upload.example.com/api/2.0/files"
    );
}

#[test]
fn declared_schemas_reach_the_model_and_are_checked() {
    let p = plugin(
        r#"{"name": "op", "path": "/x", "params": [
            {"name": "limit", "in": "query", "type": "integer", "description": "Page size",
             "schema": {"type": "integer", "minimum": 1, "maximum": 100, "format": "int32"}},
            {"name": "id", "in": "query", "type": "any",
             "schema": {"oneOf": [{"type": "string", "pattern": "^[a-z]+$"}, {"type": "integer"}]}}]}"#,
    );
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&p).unwrap();
    let spec = &registry.specs()[0];
    assert_eq!(
        spec.parameters().to_string(),
        r#"{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":100,"format":"int32","description":"Page size"},"id":{"oneOf":[{"type":"string","pattern":"^[a-z]+$"},{"type":"integer"}]}},"additionalProperties":false}"#
    );
    assert!(request(&p, r#"{"limit": "5", "id": 3}"#).starts_with("GET /v1/x?limit=5&id=3 "));
    assert_eq!(
        refused(&p, r#"{"limit": 500}"#),
        (
            ErrorKind::InvalidParameter,
            String::from("parameter 'limit' must be 100 or less (maximum)")
        )
    );
    assert_eq!(
        refused(&p, r#"{"id": true}"#),
        (
            ErrorKind::InvalidParameter,
            String::from("parameter 'id' matches none of the 2 accepted shapes (first: must be of type string; got true)")
        )
    );
}
