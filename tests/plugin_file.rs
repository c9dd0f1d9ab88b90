//! The plugin file (`httptool::design::endpoints`, "The plugin file"), the checks when a
//! plugin is built, the builders, `${NAME}` templates, `to_json` round trips and plugin
//! providers.

use std::collections::HashMap;
use std::time::Duration;

use httptool::http::Method;
use httptool::json;
use httptool::plugin::{
    AddressMode, ArrayStyle, Auth, BodyEncoding, ConfigValue, Endpoint, ErrorKind, HttpPlugin,
    JsonPluginProvider, Location, Options, Param, ParamType, PluginProvider, Property,
};
use httptool::tool::{ToolRegistry, ToolSpec};

/// The example of `httptool::design::endpoints`, "The plugin file", as written there.
const DESIGN_EXAMPLE: &str = r#"{
  "name": "weather",
  "description": "City weather",
  "base_url": "https://api.example.com",
  "headers": { "Accept": "application/json" },
  "auth": { "type": "bearer", "token": "${WEATHER_TOKEN}" },
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

fn lookup(name: &str) -> Option<String> {
    match name {
        "WEATHER_TOKEN" => Some(String::from("wt-secret-1")),
        "API_HOST" => Some(String::from("api.example.com")),
        "TENANT" => Some(String::from("acme")),
        _ => None,
    }
}

fn load(text: &str) -> HttpPlugin {
    HttpPlugin::from_json_with(text, lookup).unwrap_or_else(|e| panic!("refused: {}", e))
}

#[test]
fn reads_the_design_example() {
    let plugin = load(DESIGN_EXAMPLE);
    assert_eq!(plugin.name(), "weather");
    assert_eq!(plugin.description(), "City weather");
    assert_eq!(plugin.base_url().as_str(), "https://api.example.com/");
    let headers: Vec<(&str, Option<&str>)> =
        plugin.headers().map(|(n, v)| (n, v.value())).collect();
    assert_eq!(headers, [("Accept", Some("application/json"))]);
    assert_eq!(
        plugin.auth(),
        Some(&Auth::Bearer {
            token: match plugin.auth() {
                Some(Auth::Bearer { token }) => token.clone(),
                _ => unreachable!(),
            }
        })
    );
    let endpoint = plugin.endpoint("getWeather").unwrap();
    assert_eq!(
        (endpoint.method(), endpoint.path(), endpoint.description()),
        (Method::Get, "/v1/weather", "Current weather for a city")
    );
    let city = endpoint.param("city").unwrap();
    assert_eq!(
        (
            city.wire_name(),
            city.location(),
            city.ty(),
            city.is_required()
        ),
        ("q", Location::Query, &ParamType::String, true)
    );
    let days = endpoint.param("days").unwrap();
    assert_eq!(days.default(), Some(&json!(1)));
}

#[test]
fn schema_is_what_the_model_reads() {
    let spec: ToolSpec = load(DESIGN_EXAMPLE).specs().remove(0);
    assert_eq!(spec.name(), "getWeather");
    assert_eq!(spec.description(), "Current weather for a city");
    assert_eq!(
        spec.parameters().to_string(),
        // "City name" says nothing the name `city` does not: the model reads the name alone.
        r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","default":1}},"required":["city"],"additionalProperties":false}"#
    );
}

#[test]
fn schema_renders_items_properties_and_enum() {
    let plugin = load(
        r#"{"name": "t", "base_url": "https://api.example.com", "endpoints": [
            {"name": "s", "method": "POST", "path": "/s", "params": [
              {"name": "tags", "type": "array", "items": {"type": "string"}, "required": true},
              {"name": "filter", "type": "object", "description": "What to match",
               "properties": {"city": {"type": "string", "description": "City", "required": true},
                              "ids": {"type": "array", "items": {"type": "integer"}}}},
              {"name": "unit", "enum": ["c", "f"], "default": "c"},
              {"name": "raw", "type": "object"}]}]}"#,
    );
    assert_eq!(
        plugin.specs()[0].parameters(),
        &json!({
            "type": "object",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string"}},
                "filter": {
                    "type": "object",
                    "description": "What to match",
                    "properties": {
                        // "City" says nothing the name does not: left out.
                        "city": {"type": "string"},
                        "ids": {"type": "array", "items": {"type": "integer"}}
                    },
                    "required": ["city"],
                    "additionalProperties": false
                },
                "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
                "raw": {"type": "object"}
            },
            "required": ["tags"],
            "additionalProperties": false
        })
    );
}

#[test]
fn empty_description_becomes_method_and_path() {
    let plugin = load(
        r#"{"name": "t", "base_url": "https://a.example", "endpoints": [{"name": "x", "method": "delete", "path": "/items/{id}", "params": [{"name": "id", "in": "path"}]}]}"#,
    );
    assert_eq!(plugin.specs()[0].description(), "DELETE /items/{id}");
    // Path parameters are always required.
    assert_eq!(plugin.specs()[0].parameters()["required"], json!(["id"]));
}

#[test]
fn in_is_case_insensitive_and_defaults_to_body() {
    let plugin = load(
        r#"{"name": "t", "base_url": "https://a.example", "endpoints": [{"name": "x", "path": "/x", "params": [{"name": "a", "in": "QUERY"}, {"name": "b", "in": "Header"}, {"name": "c"}]}]}"#,
    );
    let endpoint = plugin.endpoint("x").unwrap();
    let locations: Vec<Location> = endpoint.params().iter().map(|p| p.location()).collect();
    assert_eq!(
        locations,
        [Location::Query, Location::Header, Location::Body]
    );
    assert_eq!(endpoint.method(), Method::Get, "method defaults to GET");
    assert_eq!(
        endpoint.params()[2].wire_name(),
        "c",
        "wire_name defaults to name"
    );
}

#[test]
fn environment_variables_are_read_on_load() {
    std::env::set_var("HTTPTOOL_PLUGIN_FILE_TEST_TOKEN", "from-env");
    let plugin = HttpPlugin::from_json(
        r#"{"name": "t", "base_url": "https://a.example",
            "auth": {"type": "bearer", "token": "${HTTPTOOL_PLUGIN_FILE_TEST_TOKEN}"},
            "endpoints": [{"name": "x", "path": "/x"}]}"#,
    )
    .unwrap();
    match plugin.auth() {
        Some(Auth::Bearer { token }) => {
            assert_eq!(token.value(), Some("from-env"));
            assert_eq!(token.template(), Some("${HTTPTOOL_PLUGIN_FILE_TEST_TOKEN}"));
            assert!(token.is_external());
        }
        other => panic!("{:?}", other),
    }
}

#[test]
fn to_json_writes_templates_back_never_values() {
    let plugin = load(DESIGN_EXAMPLE);
    let written = plugin.to_json().to_string();
    assert!(
        written.contains(r#""token":"${WEATHER_TOKEN}""#),
        "{}",
        written
    );
    assert!(!written.contains("wt-secret-1"));
    assert!(!format!("{:?}", plugin).contains("wt-secret-1"));
}

/// A file that uses every field of the format.
const EVERYTHING: &str = r#"{
  "name": "everything",
  "description": "Every field",
  "base_url": "https://${API_HOST}/v1",
  "headers": {"Accept": "application/json", "X-Org": {"context": "org"}, "X-Lit": "cost $${5}"},
  "query": {"format": "json", "tenant": "${TENANT}"},
  "auth": {"type": "header", "name": "X-Api-Key", "value": {"context": "api_key"}},
  "timeout_connect_ms": 1000, "timeout_read_ms": 2000, "timeout_write_ms": 3000,
  "timeout_call_ms": 4000, "max_response_bytes": 5000, "max_output_bytes": 6000,
  "max_redirects": 2, "redirect_hosts": ["cdn.example.com"], "address_policy": "strict",
  "overload_retries": 1,
  "endpoints": [
    {"name": "upload", "description": "Uploads", "method": "POST", "path": "/files/{folder}",
     "body_encoding": "multipart", "response_pointer": "/data", "allow_unknown_arguments": true,
     "timeout_call_ms": 9000, "address_policy": "allow_all",
     "params": [
       {"name": "folder", "in": "path", "description": "Folder"},
       {"name": "doc", "in": "form", "file": true, "required": true},
       {"name": "tags", "in": "query", "type": "array", "items": {"type": "string"},
        "array_style": "comma"},
       {"name": "meta", "in": "form", "type": "object",
        "properties": {"n": {"type": "integer", "description": "Count", "required": true}}},
       {"name": "tenant_id", "wire_name": "X-Tenant", "in": "header", "hidden": true,
        "context": "tenant", "default": "${TENANT}"},
       {"name": "sig", "in": "query", "secret": true, "default": "literal $${x}"},
       {"name": "mode", "in": "query", "enum": ["a", "b"], "default": "a"}
     ]},
    {"name": "purge", "method": "DELETE", "path": "/items", "allow_delete_body": true,
     "params": [{"name": "ids", "type": "array", "items": {"type": "integer"},
                 "whole_body": true}]}
  ]
}"#;

#[test]
fn every_field_round_trips_through_to_json() {
    let plugin = load(EVERYTHING);
    let written = plugin.to_json();
    let again = load(&written.to_string());
    assert_eq!(again.to_json(), written);
    assert_eq!(written, json::parse(EVERYTHING).map(normalize).unwrap());
}

/// The file as `to_json` writes it: method upper-case, defaults of flags left out, the same
/// values otherwise.
fn normalize(mut file: json::Json) -> json::Json {
    if let Some(endpoints) = file["endpoints"].as_array().cloned() {
        let endpoints: Vec<json::Json> = endpoints
            .into_iter()
            .map(|mut e| {
                if let Some(params) = e.get_mut("params").and_then(|p| p.as_array_mut()) {
                    for p in params.iter_mut() {
                        let map = p.as_object_mut().unwrap();
                        if !map.contains_key("in") {
                            map.insert("in", "body");
                        }
                        if !map.contains_key("type") {
                            map.insert("type", "string");
                        }
                    }
                }
                e
            })
            .collect();
        file.as_object_mut().unwrap().insert("endpoints", endpoints);
    }
    file
}

#[test]
fn every_option_is_read() {
    let plugin = load(EVERYTHING);
    let upload = plugin.endpoint("upload").unwrap();
    assert_eq!(upload.body_encoding(), BodyEncoding::Multipart);
    assert_eq!(upload.response_pointer(), Some("/data"));
    assert!(upload.allow_unknown_arguments());
    let tags = upload.param("tags").unwrap();
    assert_eq!(tags.array_style(), ArrayStyle::Comma);
    let tenant = upload.param("tenant_id").unwrap();
    assert_eq!((tenant.is_hidden(), tenant.context_key()), (true, "tenant"));
    assert_eq!(tenant.default(), Some(&json!("acme")));
    let sig = upload.param("sig").unwrap();
    assert_eq!(sig.default(), Some(&json!("literal ${x}")));
    assert!(sig.is_secret() && sig.is_hidden());
    assert!(upload.param("doc").unwrap().is_file());
    let purge = plugin.endpoint("purge").unwrap();
    assert!(purge.allow_delete_body() && purge.params()[0].is_whole_body());
    let literal: Vec<Option<&str>> = plugin.headers().map(|(_, v)| v.value()).collect();
    assert_eq!(literal, [Some("application/json"), None, Some("cost ${5}")]);
    assert_eq!(plugin.base_url().as_str(), "https://api.example.com/v1");
}

#[test]
fn builders_make_the_same_plugin_as_the_file() {
    let built = HttpPlugin::builder("weather", "https://api.example.com")
        .description("City weather")
        .header("Accept", "application/json")
        .auth(Auth::bearer(ConfigValue::context("weather_token")))
        .options(
            Options::new()
                .timeout_call(Duration::from_secs(20))
                .address_policy(AddressMode::Strict),
        )
        .endpoint(
            Endpoint::get("getWeather", "/v1/weather")
                .description("Current weather for a city")
                .param(
                    Param::query("city")
                        .wire_name("q")
                        .description("City name")
                        .required(true),
                )
                .param(Param::query("days").ty(ParamType::Integer).default(1)),
        )
        .build()
        .unwrap();
    let from_file = load(&built.to_json().to_string());
    assert_eq!(from_file.to_json(), built.to_json());
    assert_eq!(
        built.to_json()["auth"],
        json!({"type": "bearer", "token": {"context": "weather_token"}})
    );
    assert_eq!(built.to_json()["timeout_call_ms"], json!(20000));
    assert_eq!(built.specs(), load(DESIGN_EXAMPLE).specs());
}

#[test]
fn error_paths_write_indices_of_several_digits() {
    let mut builder = HttpPlugin::builder("t", "https://a.example");
    for i in 0..12 {
        builder = builder.endpoint(Endpoint::get(format!("e{}", i), format!("/e{}", i)));
    }
    let mut last = Endpoint::post("last", "/last");
    for i in 0..10 {
        last = last.param(Param::body(format!("p{}", i)));
    }
    let err = builder
        .endpoint(last.param(Param::builder("bad name")))
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidName);
    assert_eq!(err.path(), "endpoints[12].params[10].name");
}

/// `{"a": {"a": ... innermost}}`: `levels` objects around `innermost` (the outermost is
/// level 1).
fn nested_objects(levels: usize, innermost: &str) -> String {
    let mut text = innermost.to_string();
    for _ in 0..levels {
        text = format!(r#"{{"a": {}}}"#, text);
    }
    text
}

#[test]
fn a_parameter_schema_may_nest_64_levels_and_not_65() {
    let schema = nested_objects;
    let file = |schema: String| {
        format!(
            r#"{{"name": "t", "base_url": "https://a.example", "endpoints": [{{"name": "x", "method": "POST", "path": "/x",
                "params": [{{"name": "p", "in": "body", "type": "any", "schema": {}}}]}}]}}"#,
            schema
        )
    };
    // A number at level 64, an empty object at level 64: kept.
    load(&file(schema(63, "1")));
    load(&file(schema(63, "{}")));
    // A number at level 65, an empty object at level 65: refused.
    for text in [file(schema(64, "1")), file(schema(64, "{}"))] {
        let err = HttpPlugin::from_json_with(&text, lookup).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidField);
        assert_eq!(
            err.to_string(),
            "endpoints[0].params[0].schema: the schema nests deeper than 64 levels"
        );
    }
}

#[test]
fn a_schema_shared_by_two_parameters_is_checked_for_depth_where_it_sits_deeper() {
    // 64 nested objects: exactly the limit at the root of a parameter's schema.
    let shared = json::parse(&nested_objects(63, "{}")).unwrap();
    let nested = || {
        let mut map = json::Map::new();
        // A clone shares the object: the same allocation in both parameters.
        map.insert("x", shared.clone());
        json::Json::Object(map)
    };
    let plugin = |first: json::Json, second: json::Json| {
        HttpPlugin::builder("t", "https://a.example")
            .endpoint(Endpoint::post("one", "/one").param(Param::body("p").schema(first)))
            .endpoint(Endpoint::post("two", "/two").param(Param::body("q").schema(second)))
            .build()
    };
    // Shallow first, then one level deeper: the second is over the limit all the same.
    let err = plugin(shared.clone(), nested()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[1].params[0].schema: the schema nests deeper than 64 levels"
    );
    let err = plugin(nested(), shared.clone()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].params[0].schema: the schema nests deeper than 64 levels"
    );
    // At the limit in both: kept.
    assert!(plugin(shared.clone(), shared.clone()).is_ok());
}

#[test]
fn builder_errors_point_at_the_field() {
    let err = HttpPlugin::builder("t", "https://a.example")
        .endpoint(Endpoint::get("ok", "/x"))
        .endpoint(
            Endpoint::post("second", "/y")
                .param(Param::body("a"))
                .param(Param::builder("bad name")),
        )
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidName);
    assert_eq!(err.path(), "endpoints[1].params[1].name");
    let err = HttpPlugin::builder("t", "https://a.example")
        .endpoint(
            Endpoint::get("x", "/x").param(Param::query("o").ty(ParamType::object([
                Property::new("a", ParamType::String),
                Property::new("a", ParamType::Integer),
            ]))),
        )
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "endpoints[0].params[0].type: property 'a' is declared twice"
    );
}

#[test]
fn duplicate_tool_names_in_a_registry_are_an_error() {
    let plugin = load(DESIGN_EXAMPLE);
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let err = registry.add_plugin(&plugin).unwrap_err();
    assert_eq!(err.kind(), httptool::tool::ErrorKind::DuplicateName);
    assert_eq!(
        err.to_string(),
        "a tool named 'getWeather' is already registered; tool names must be unique"
    );
    assert_eq!(registry.len(), 1);
}

#[test]
fn debug_of_a_plugin_masks_secrets() {
    let plugin = load(
        r#"{"name": "t", "base_url": "https://a.example",
            "headers": {"Accept": "application/json", "X-Tenant": "${TENANT}", "Cookie": "sid=1"},
            "auth": {"type": "basic", "username": "ann", "password": "pw-9"},
            "endpoints": [{"name": "x", "path": "/x",
              "params": [{"name": "k", "in": "query", "secret": true, "default": "${TENANT}"}]}]}"#,
    );
    let debug = format!("{:?}", plugin);
    assert!(
        debug.contains(r#"("Accept", "application/json")"#),
        "{}",
        debug
    );
    assert!(debug.contains(r#"("X-Tenant", "***")"#), "{}", debug);
    assert!(debug.contains(r#"("Cookie", "***")"#), "{}", debug);
    for secret in ["acme", "pw-9", "ann", "sid=1"] {
        assert!(!debug.contains(secret), "{} in {}", secret, debug);
    }
}

// ---------------------------------------------------------------- providers

#[test]
fn json_provider_fills_variables_from_properties() {
    let mut provider = JsonPluginProvider::new(DESIGN_EXAMPLE);
    assert_eq!(provider.name(), "weather");
    assert_eq!(provider.properties(), ["WEATHER_TOKEN"]);
    let err = provider.check().unwrap_err();
    assert_eq!(
        err.to_string(),
        "auth.token: variable 'WEATHER_TOKEN' is not set"
    );
    let properties: HashMap<String, String> = [("WEATHER_TOKEN".to_string(), "t".to_string())]
        .into_iter()
        .collect();
    provider.configure(&properties).unwrap();
    provider.check().unwrap();
    assert_eq!(provider.plugin().unwrap().name(), "weather");
}

#[test]
fn provider_error_names_the_property() {
    let err = httptool::plugin::Error::provider("api_key");
    assert_eq!(err.kind(), ErrorKind::Provider);
    assert_eq!(err.to_string(), "provider needs the property 'api_key'");
}

/// Errors that carry another layer's message: the part written here is checked, the other
/// layer tests its own words.
#[test]
fn json_and_url_errors_keep_their_layers_words() {
    let err = HttpPlugin::from_json_with("{\"name\": ", lookup).unwrap_err();
    assert_eq!((err.kind(), err.path()), (ErrorKind::Syntax, ""));
    assert!(err
        .message()
        .starts_with("the plugin file is not valid JSON: "));
    assert!(err.message().ends_with(" at 1:10"), "{}", err);
    for url in [
        "ftp://a.example",
        "https://u:p@a.example",
        "https:///x",
        "http://a b/",
    ] {
        let text = format!(
            r#"{{"name": "t", "base_url": "{}", "endpoints": [{{"name": "x", "path": "/x"}}]}}"#,
            url
        );
        let err = HttpPlugin::from_json_with(&text, lookup).unwrap_err();
        assert_eq!(
            (err.kind(), err.path()),
            (ErrorKind::InvalidBaseUrl, "base_url"),
            "{}",
            url
        );
        assert!(
            err.message().ends_with(
                "; expected an absolute http or https url with a host, such as https://api.example.com/v1"
            ),
            "{}",
            err
        );
    }
}

// ---------------------------------------------------------------- errors, each message once

/// A plugin file with one endpoint (its JSON members given) on https://api.example.com.
fn ep(endpoint: &str) -> String {
    format!(
        r#"{{"name": "t", "base_url": "https://api.example.com", "endpoints": [{{{}}}]}}"#,
        endpoint
    )
}

/// A plugin file with extra plugin members and one plain endpoint.
fn pl(members: &str) -> String {
    format!(
        r#"{{"name": "t", "base_url": "https://api.example.com", {}, "endpoints": [{{"name": "x", "path": "/x"}}]}}"#,
        members
    )
}

/// One parameter (its JSON members given) on a POST endpoint.
fn param(members: &str) -> String {
    ep(&format!(
        r#""name": "x", "method": "POST", "path": "/x", "params": [{{{}}}]"#,
        members
    ))
}

macro_rules! refused {
    ($($name:ident: $text:expr => $kind:ident, $path:expr, $message:expr;)*) => {$(
        #[test]
        fn $name() {
            let err = HttpPlugin::from_json_with(&$text, lookup).unwrap_err();
            assert_eq!(
                (err.kind(), err.path(), err.message()),
                (ErrorKind::$kind, $path, &*$message),
                "{}",
                err
            );
        }
    )*};
}

refused! {
    // The file.
    root_not_object: String::from("[]") => InvalidField, "", "expected an object; got array";
    missing_name: String::from(r#"{"base_url": "https://a.example", "endpoints": []}"#) => MissingField, "", "missing field 'name'";
    missing_endpoints: String::from(r#"{"name": "t", "base_url": "https://a.example"}"#) => MissingField, "", "missing field 'endpoints'";
    unknown_field_with_suggestion: ep(r#""name": "x", "path": "/x", "parms": []"#) => UnknownField, "endpoints[0].parms", "unknown field 'parms'; did you mean 'params'? accepted: name, description, method, path, params, body_encoding, response_pointer, allow_unknown_arguments, allow_delete_body, allow_get_body, base_url, auth, content_type, title, tags, annotations, output_schema, response_fields, fields_argument, pagination (and 18 more)";
    wrong_type_string: ep(r#""name": 5, "path": "/x""#) => InvalidField, "endpoints[0].name", "expected a string; got number";
    wrong_type_bool: param(r#""name": "a", "required": "yes""#) => InvalidField, "endpoints[0].params[0].required", "expected true or false; got string";
    wrong_type_number: pl(r#""timeout_call_ms": -1"#) => InvalidField, "timeout_call_ms", "expected a whole number of 0 or more; got number";
    number_too_large: pl(r#""max_redirects": 99999999999"#) => InvalidField, "max_redirects", "99999999999 is too large";
    endpoints_not_array: String::from(r#"{"name": "t", "base_url": "https://a.example", "endpoints": {}}"#) => InvalidField, "endpoints", "expected an array; got object";
    unknown_location: param(r#""name": "q", "in": "matrix""#) => InvalidField, "endpoints[0].params[0].in", "expected one of query, path, header, body, form, cookie; got 'matrix'";
    unknown_method: ep(r#""name": "x", "method": "GET /", "path": "/x""#) => InvalidField, "endpoints[0].method", "expected one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, or another token of at most 32 characters; got 'GET /'";
    unknown_type: param(r#""name": "a", "type": "date""#) => InvalidField, "endpoints[0].params[0].type", "expected one of string, integer, number, boolean, array, object, any; got 'date'";
    array_without_items: param(r#""name": "a", "type": "array""#) => MissingField, "endpoints[0].params[0]", "missing field 'items' (an array needs the type of its items, such as {\"type\": \"string\"})";
    unknown_body_encoding: ep(r#""name": "x", "path": "/x", "body_encoding": "xml""#) => InvalidField, "endpoints[0].body_encoding", "expected one of json, form, multipart, raw; got 'xml'";
    unknown_array_style: param(r#""name": "a", "array_style": "zigzag""#) => InvalidField, "endpoints[0].params[0].array_style", "expected one of repeat, comma, space, pipe, spread, deep_object; got 'zigzag'";
    unknown_address_policy: pl(r#""address_policy": "loose""#) => InvalidField, "address_policy", "expected one of allow_all, strict; got 'loose'";
    unknown_auth_type: pl(r#""auth": {"type": "hawk"}"#) => InvalidField, "auth.type", "expected one of bearer, basic, header, query, oauth2_client_credentials, oauth2_refresh_token, aws_sigv4, digest; got 'hawk'";
    auth_missing_token: pl(r#""auth": {"type": "bearer"}"#) => MissingField, "auth", "missing field 'token'";
    header_value_not_string: pl(r#""headers": {"X-A": [1]}"#) => InvalidField, "headers.X-A", "expected a string or {\"context\": \"key\"}; got array";
    redirect_host_not_string: pl(r#""redirect_hosts": [1]"#) => InvalidField, "redirect_hosts[0]", "expected a string; got number";
    types_too_deep: param(&format!(r#""name": "a", "type": "array", "items": {}"#, "{\"type\": \"array\", \"items\": ".repeat(16) + "{\"type\": \"string\"}" + &"}".repeat(16))) => InvalidField, "endpoints[0].params[0].items.items.items.items.items.items.items.items.items.items.items.items.items.items.items.items", "types nest deeper than 16 levels";
    // Templates.
    missing_variable: pl(r#""auth": {"type": "bearer", "token": "${NOPE}"}"#) => MissingVariable, "auth.token", "variable 'NOPE' is not set";
    malformed_template: pl(r#""headers": {"X-A": "${not valid}"}"#) => InvalidTemplate, "headers.X-A", "'${' starts a variable: write ${NAME} (letters, digits and '_'), or $${ for a literal '${'";
    // The plugin.
    invalid_plugin_name: String::from(r#"{"name": "my plugin", "base_url": "https://a.example", "endpoints": [{"name": "x", "path": "/x"}]}"#) => InvalidName, "name", "'my plugin' is not a valid plugin name: use 1 to 64 of a-z, A-Z, 0-9, '_' and '-'";
    base_url_with_query: String::from(r#"{"name": "t", "base_url": "https://a.example/?k=1", "endpoints": [{"name": "x", "path": "/x"}]}"#) => InvalidBaseUrl, "base_url", "a base url cannot have a query or fragment: put query values in `query`";
    no_endpoints: String::from(r#"{"name": "t", "base_url": "https://a.example", "endpoints": []}"#) => MissingField, "endpoints", "a plugin needs at least one endpoint";
    header_name_not_token: pl(r#""headers": {"X A": "1"}"#) => InvalidHeader, "headers.X A", "'X A' is not a header name: use letters, digits and !#$%&'*+-.^_`|~";
    header_value_control: pl(r#""headers": {"X-A": "1\r\nX-B: 2"}"#) => InvalidHeader, "headers.X-A", "the value of header 'X-A' holds a control character (cr, lf, nul or another)";
    managed_header: pl(r#""headers": {"Content-Length": "5"}"#) => InvalidHeader, "headers.Content-Length", "header 'Content-Length' is written by the client itself and cannot be declared";
    invalid_host_header: pl(r#""headers": {"Host": "a b"}"#) => InvalidHeader, "headers.Host", "a Host header is a host name or address with an optional port, such as api.internal:8080, written out";
    duplicate_static_header: pl(r#""headers": {"Accept": "a", "accept": "b"}"#) => DuplicateName, "headers.accept", "header 'accept' is declared twice";
    empty_context_key: pl(r#""headers": {"X-A": {"context": ""}}"#) => InvalidField, "headers.X-A", "a context key cannot be empty";
    empty_query_name: pl(r#""query": {"": "1"}"#) => InvalidName, "query", "a query name cannot be empty";
    basic_user_with_colon: pl(r#""auth": {"type": "basic", "username": "a:b", "password": "p"}"#) => InvalidField, "auth.username", "a basic auth user name cannot hold ':' (RFC 7617)";
    auth_query_also_in_query: pl(r#""query": {"key": "1"}, "auth": {"type": "query", "name": "key", "value": "2"}"#) => DuplicateName, "auth.name", "query value 'key' is also declared in `query`";
    auth_header_also_static: pl(r#""headers": {"authorization": "x"}, "auth": {"type": "bearer", "token": "t"}"#) => InvalidHeader, "headers.Authorization", "header 'Authorization' is also set by `auth`; declare it in one place";
    zero_timeout: pl(r#""timeout_read_ms": 0"#) => InvalidField, "timeout_read_ms", "a timeout must be at least 1 ms";
    zero_output_cap: ep(r#""name": "x", "path": "/x", "max_output_bytes": 0"#) => InvalidField, "endpoints[0].max_output_bytes", "the output cap must be at least 1 byte";
    bad_redirect_host: pl(r#""redirect_hosts": ["a.example/x"]"#) => InvalidField, "redirect_hosts[0]", "'a.example/x' is not a host name or address";
    // Endpoints.
    invalid_tool_name: ep(r#""name": "get.weather", "path": "/x""#) => InvalidName, "endpoints[0].name", "'get.weather' is not a valid tool name: use 1 to 64 of a-z, A-Z, 0-9, '_' and '-'";
    duplicate_tool_name: String::from(r#"{"name": "t", "base_url": "https://a.example", "endpoints": [{"name": "x", "path": "/a"}, {"name": "x", "path": "/b"}]}"#) => DuplicateName, "endpoints[1].name", "tool name 'x' is already used by endpoints[0]; tool names must be unique";
    bad_response_pointer: ep(r#""name": "x", "path": "/x", "response_pointer": "data""#) => InvalidField, "endpoints[0].response_pointer", "a json pointer is empty or starts with '/' (RFC 6901), such as /data/items";
    // Paths.
    path_without_slash: ep(r#""name": "x", "path": "x""#) => InvalidPath, "endpoints[0].path", "a path starts with '/', such as /v1/users/{id}";
    placeholder_without_param: ep(r#""name": "x", "path": "/users/{id}""#) => InvalidPath, "endpoints[0].path", "placeholder {id} has no path parameter; declare one with \"in\": \"path\"";
    path_param_without_placeholder: ep(r#""name": "x", "path": "/users", "params": [{"name": "id", "in": "path"}]"#) => InvalidPath, "endpoints[0].params[0]", "path parameter 'id' has no {id} placeholder in the path";
    empty_placeholder: ep(r#""name": "x", "path": "/users/{}""#) => InvalidPath, "endpoints[0].path", "a placeholder is a name between braces, such as {id}";
    unbalanced_braces: ep(r#""name": "x", "path": "/users/{id""#) => InvalidPath, "endpoints[0].path", "unbalanced braces: a placeholder is a name between braces, such as {id}";
    path_with_query: ep(r#""name": "x", "path": "/x?a=1""#) => InvalidPath, "endpoints[0].path", "the path must be a plain url path: no '?', '#', spaces, '.' or '..' segments, or characters that need percent-encoding";
    path_with_dot_segment: ep(r#""name": "x", "path": "/a/../admin""#) => InvalidPath, "endpoints[0].path", "the path must be a plain url path: no '?', '#', spaces, '.' or '..' segments, or characters that need percent-encoding";
    // Parameters.
    invalid_param_name: param(r#""name": "a b""#) => InvalidName, "endpoints[0].params[0].name", "'a b' is not a valid parameter name: use 1 to 64 of a-z, A-Z, 0-9, '_' and '-'";
    duplicate_param_name: ep(r#""name": "x", "path": "/x", "params": [{"name": "a", "in": "query"}, {"name": "a", "in": "header"}]"#) => DuplicateName, "endpoints[0].params[1].name", "parameter 'a' is declared twice";
    empty_wire_name: param(r#""name": "a", "wire_name": """#) => InvalidName, "endpoints[0].params[0].wire_name", "a wire name cannot be empty";
    duplicate_wire_name: ep(r#""name": "x", "path": "/x", "params": [{"name": "a", "wire_name": "q", "in": "query"}, {"name": "b", "wire_name": "q", "in": "query"}]"#) => DuplicateName, "endpoints[0].params[1].wire_name", "wire name 'q' is used twice in the query";
    get_body_param_clashes_with_query: ep(r#""name": "x", "path": "/x", "params": [{"name": "a", "in": "query"}, {"name": "b", "wire_name": "a"}]"#) => DuplicateName, "endpoints[0].params[1].wire_name", "wire name 'a' is used twice in the query";
    query_param_clashes_with_plugin_query: String::from(r#"{"name": "t", "base_url": "https://a.example", "query": {"v": "2"}, "endpoints": [{"name": "x", "path": "/x", "params": [{"name": "v", "in": "query"}]}]}"#) => DuplicateName, "endpoints[0].params[0].name", "query name 'v' is also sent by the plugin (`query` or `auth`)";
    header_param_shadows_static_header: String::from(r#"{"name": "t", "base_url": "https://a.example", "headers": {"X-Org": "o"}, "endpoints": [{"name": "x", "path": "/x", "params": [{"name": "org", "wire_name": "x-org", "in": "header"}]}]}"#) => InvalidHeader, "endpoints[0].params[0].wire_name", "header parameter 'x-org' would shadow the plugin's static header";
    header_param_shadows_auth: String::from(r#"{"name": "t", "base_url": "https://a.example", "auth": {"type": "bearer", "token": "t"}, "endpoints": [{"name": "x", "path": "/x", "params": [{"name": "Authorization", "in": "header"}]}]}"#) => InvalidHeader, "endpoints[0].params[0].name", "header parameter 'Authorization' would shadow the plugin's auth header";
    header_param_not_token: param(r#""name": "a", "wire_name": "X:A", "in": "header""#) => InvalidHeader, "endpoints[0].params[0].wire_name", "'X:A' is not a header name: use letters, digits and !#$%&'*+-.^_`|~";
    invalid_property_name: param(r#""name": "a", "type": "object", "properties": {"b c": {}}"#) => InvalidName, "endpoints[0].params[0].type", "'b c' is not a valid property name: use 1 to 64 of a-z, A-Z, 0-9, '_' and '-'";
    secret_body_param: param(r#""name": "a", "secret": true"#) => Conflict, "endpoints[0].params[0].secret", "only query, header and cookie parameters can be secret (a body or path value cannot be masked)";
    context_on_visible_param: param(r#""name": "a", "context": "k""#) => Conflict, "endpoints[0].params[0].context", "a context key applies to hidden or secret parameters only";
    empty_param_context: param(r#""name": "a", "hidden": true, "context": """#) => Conflict, "endpoints[0].params[0].context", "a context key cannot be empty";
    comma_style_on_scalar: param(r#""name": "a", "array_style": "comma""#) => Conflict, "endpoints[0].params[0].array_style", "array_style applies to array and object parameters only";
    whole_body_on_get: ep(r#""name": "x", "path": "/x", "params": [{"name": "a", "whole_body": true}]"#) => Conflict, "endpoints[0].params[0].whole_body", "a whole-body parameter is in `body` on a method with a body (POST, PUT, PATCH, DELETE with allow_delete_body, or GET with allow_get_body)";
    whole_body_with_form: ep(r#""name": "x", "method": "POST", "path": "/x", "body_encoding": "form", "params": [{"name": "a", "whole_body": true}]"#) => Conflict, "endpoints[0].params[0].whole_body", "a whole-body parameter is sent as JSON: body_encoding must be json";
    whole_body_with_others: ep(r#""name": "x", "method": "POST", "path": "/x", "params": [{"name": "a", "whole_body": true}, {"name": "b"}]"#) => Conflict, "endpoints[0].params[0].whole_body", "a whole-body parameter must be the endpoint's only body parameter";
    file_without_multipart: param(r#""name": "a", "in": "form", "file": true"#) => Conflict, "endpoints[0].params[0].file", "a file part needs `\"in\": \"form\"` (or body) and the endpoint's `\"body_encoding\": \"multipart\"` (or raw)";
    file_not_string: ep(r#""name": "x", "method": "POST", "path": "/x", "body_encoding": "multipart", "params": [{"name": "a", "in": "form", "file": true, "type": "integer"}]"#) => Conflict, "endpoints[0].params[0].file", "a file parameter is a string: the handle the host's file resolver reads";
    // Regression: each was silently ignored on another method.
    allow_get_body_on_post_is_refused_not_ignored: ep(r#""name": "x", "method": "POST", "path": "/x", "allow_get_body": true"#) => Conflict, "endpoints[0].allow_get_body", "allow_get_body applies to GET endpoints only";
    allow_delete_body_on_get_is_refused_not_ignored: ep(r#""name": "x", "path": "/x", "allow_delete_body": true"#) => Conflict, "endpoints[0].allow_delete_body", "allow_delete_body applies to DELETE endpoints only";
    file_on_get: ep(r#""name": "x", "path": "/x", "body_encoding": "multipart", "params": [{"name": "a", "in": "form", "file": true}]"#) => Conflict, "endpoints[0].params[0].file", "a file part needs a method with a body (POST, PUT or PATCH)";
    form_param_with_json_body: ep(r#""name": "x", "method": "POST", "path": "/x", "body_encoding": "json", "params": [{"name": "a", "in": "form"}]"#) => Conflict, "endpoints[0].params[0].in", "form parameters need the endpoint's body_encoding to be form or multipart";
    // Defaults and enums.
    default_of_wrong_type: param(r#""name": "a", "type": "integer", "default": "1""#) => InvalidDefault, "endpoints[0].params[0].default", "default \"1\" is not of type integer";
    default_not_in_enum: param(r#""name": "a", "enum": ["x", "y"], "default": "z""#) => InvalidDefault, "endpoints[0].params[0].default", "default is not one of the enum values";
    enum_value_of_wrong_type: param(r#""name": "a", "type": "integer", "enum": [1, "two"]"#) => InvalidDefault, "endpoints[0].params[0].enum[1]", "enum value \"two\" is not of type integer";
    object_default_lacks_property: param(r#""name": "a", "type": "object", "properties": {"k": {"required": true}}, "default": {}"#) => InvalidDefault, "endpoints[0].params[0].default", "default lacks required property 'k'";
    secret_default_not_shown: ep(r#""name": "x", "path": "/x", "params": [{"name": "a", "in": "query", "type": "integer", "secret": true, "default": "${TENANT}"}]"#) => InvalidDefault, "endpoints[0].params[0].default", "default does not fit the parameter's type or enum";
    path_default_with_dots: ep(r#""name": "x", "path": "/{a}", "params": [{"name": "a", "in": "path", "default": ".."}]"#) => InvalidDefault, "endpoints[0].params[0].default", "a path default cannot be empty or hold a '.' or '..' segment";
}

/// Every setter of `Options`, each with a value other than its default.
fn every_option() -> Options {
    Options::new()
        .timeout_connect(Duration::from_millis(1001))
        .timeout_read(Duration::from_millis(1002))
        .timeout_write(Duration::from_millis(1003))
        .timeout_call(Duration::from_millis(1004))
        .max_response_bytes(1005)
        .max_output_bytes(1006)
        .max_redirects(7)
        .redirect_hosts(["cdn.example.com", "img.example.com"])
        .address_policy(AddressMode::Strict)
        .overload_retries(8)
        .full_schemas(true)
        .max_description_bytes(1009)
}

/// The plugin file fields `every_option` writes, with their values.
const EVERY_OPTION_FIELDS: &str = r#"{
  "timeout_connect_ms": 1001, "timeout_read_ms": 1002, "timeout_write_ms": 1003,
  "timeout_call_ms": 1004, "max_response_bytes": 1005, "max_output_bytes": 1006,
  "max_redirects": 7, "redirect_hosts": ["cdn.example.com", "img.example.com"],
  "address_policy": "strict", "overload_retries": 8, "full_schemas": true,
  "max_description_bytes": 1009
}"#;

#[test]
fn every_option_set_round_trips_through_to_json_at_both_levels() {
    let built = HttpPlugin::builder("opts", "https://api.example.com")
        .options(every_option())
        .endpoint(Endpoint::get("get", "/x").options(every_option()))
        .build()
        .unwrap();
    let written = built.to_json();
    let expected = json::parse(EVERY_OPTION_FIELDS).unwrap();
    for (key, value) in expected.as_object().unwrap().iter() {
        assert_eq!(written[key.as_str()], *value, "plugin {}", key);
        assert_eq!(
            written["endpoints"][0][key.as_str()],
            *value,
            "endpoint {}",
            key
        );
    }
    let again = HttpPlugin::from_json(&written.to_string()).unwrap();
    assert_eq!(again.to_json(), written);
    assert_eq!(again.specs(), built.specs());
}

#[test]
fn every_option_field_of_the_file_is_refused_with_a_wrong_type() {
    let expected = json::parse(EVERY_OPTION_FIELDS).unwrap();
    for key in expected.as_object().unwrap().keys() {
        let text = format!(
            r#"{{"name": "p", "base_url": "https://a.example", "{}": {{}},
               "endpoints": [{{"name": "g", "method": "GET", "path": "/"}}]}}"#,
            key
        );
        let err = HttpPlugin::from_json(&text).unwrap_err();
        assert_eq!(
            (err.kind(), err.path()),
            (ErrorKind::InvalidField, key.as_str()),
            "{}",
            err
        );
    }
}
