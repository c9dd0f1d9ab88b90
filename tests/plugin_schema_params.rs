//! A parameter declared with a `schema` is checked as the schema the model reads says: its
//! type comes from the schema when the file gives none, and a type that refuses what the
//! schema accepts is a build error.

use httptool::json;
use httptool::plugin::{HttpPlugin, Param, ParamType};
use httptool::tool::{ErrorKind, ToolCall, ToolRegistry};

use crate::support::Server;

fn registry(api: &Server, param: &str) -> Result<ToolRegistry, httptool::plugin::Error> {
    let plugin = HttpPlugin::from_json(&format!(
        r#"{{"name": "p", "base_url": "{}", "endpoints": [
            {{"name": "put", "method": "POST", "path": "/things", "params": [{}]}}]}}"#,
        api.base(),
        param
    ))?;
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    Ok(registry)
}

const EITHER: &str = r#"{"name": "value", "required": true,
    "schema": {"oneOf": [{"type": "string"}, {"type": "object"}]}}"#;

#[test]
fn a_schema_without_a_type_accepts_every_shape_it_names() {
    // Regression: the parameter was checked as a string (the file's default type), so the
    // object the model read as valid was refused.
    let api = Server::json(r#"{"ok":true}"#);
    let registry = registry(&api, EITHER).unwrap();
    let spec = registry.specs().remove(0);
    assert_eq!(
        spec.parameters()["properties"]["value"],
        json!({"oneOf": [{"type": "string"}, {"type": "object"}]})
    );
    for value in [json!({"a": 1}), json!("text")] {
        let arguments = json!({ "value": value.clone() }).to_string();
        let out = registry.call(&ToolCall::new("1", "put", arguments));
        assert!(!out.is_error(), "{}", out.text());
        let sent = api.requests().pop().unwrap();
        assert_eq!(
            json::parse_bytes(&sent.body).unwrap(),
            json!({ "value": value })
        );
    }
    // What the schema refuses is refused, naming what it accepts.
    let sent_before = api.requests().len();
    let out = registry.call(&ToolCall::new("2", "put", r#"{"value": 5}"#));
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidParameter));
    assert!(
        out.text().contains("matches none of the 2 accepted shapes"),
        "{}",
        out.text()
    );
    assert_eq!(api.requests().len(), sent_before, "nothing is sent");
}

#[test]
fn a_schema_without_a_type_gives_a_scalar_type_with_its_coercion() {
    let api = Server::json(r#"{"ok":true}"#);
    let param = r#"{"name": "count", "schema": {"type": "integer", "minimum": 1}}"#;
    let registry = registry(&api, param).unwrap();
    let out = registry.call(&ToolCall::new("1", "put", r#"{"count": "42"}"#));
    assert!(!out.is_error(), "{}", out.text());
    let sent = api.requests().pop().unwrap();
    assert_eq!(json::parse_bytes(&sent.body).unwrap(), json!({"count": 42}));
    let out = registry.call(&ToolCall::new("2", "put", r#"{"count": 0}"#));
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidParameter));
}

#[test]
fn a_type_that_refuses_what_its_schema_accepts_is_a_build_error() {
    let api = Server::json("{}");
    let typed = r#"{"name": "value", "type": "string",
        "schema": {"oneOf": [{"type": "string"}, {"type": "object"}]}}"#;
    let err = registry(&api, typed).expect_err("refused");
    assert_eq!(
        err.to_string(),
        "endpoints[0].params[0].schema: the schema accepts object values, which the parameter's type 'string' refuses; leave 'type' out to take it from the schema, or write \"type\": \"any\""
    );
    let integer = r#"{"name": "n", "type": "integer", "schema": {"type": "number"}}"#;
    assert!(registry(&api, integer).is_err());
    // Types that take every value the schema names are accepted.
    for fine in [
        r#"{"name": "n", "type": "number", "schema": {"type": ["integer", "null"]}}"#,
        r#"{"name": "v", "type": "any", "schema": {"oneOf": [{"type": "string"}, {"type": "object"}]}}"#,
        r#"{"name": "s", "type": "string", "schema": {"pattern": "^[a-z]+$"}}"#,
    ] {
        assert!(registry(&api, fine).is_ok(), "{}", fine);
    }
}

#[test]
fn the_builder_takes_the_type_from_the_schema_too() {
    let schema =
        json!({"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]});
    let param: Param = Param::body("ids").schema(schema.clone()).into();
    assert_eq!(param.ty(), &ParamType::Any);
    let typed: Param = Param::body("ids")
        .schema(json!({"type": "array", "items": {"type": "integer"}}))
        .into();
    assert_eq!(typed.ty(), &ParamType::array(ParamType::Integer));
    let chosen: Param = Param::body("ids").ty(ParamType::Any).schema(schema).into();
    assert_eq!(chosen.ty(), &ParamType::Any);
    let plain: Param = Param::body("name").into();
    assert_eq!(plain.ty(), &ParamType::String);
}
