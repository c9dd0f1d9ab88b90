//! The endpoint fields MCP reads: `title`, `annotations` and `output_schema` in the plugin
//! file, their defaults from the method, and their round trip through `to_json`.

use httptool::json::{self, Json};
use httptool::plugin::{ErrorKind, HttpPlugin, MAX_OUTPUT_SCHEMA_BYTES};
use httptool::tool::{mcp, ToolAnnotations};

fn plugin(endpoints: &str) -> Result<HttpPlugin, httptool::plugin::Error> {
    HttpPlugin::from_json(&format!(
        r#"{{"name": "p", "base_url": "https://api.example.com", "endpoints": [{}]}}"#,
        endpoints
    ))
}

fn hints(
    read_only: Option<bool>,
    destructive: Option<bool>,
    idempotent: Option<bool>,
) -> ToolAnnotations {
    ToolAnnotations {
        read_only,
        destructive,
        idempotent,
        open_world: Some(true),
    }
}

#[test]
fn annotations_default_from_the_method() {
    let p = plugin(
        r#"{"name": "get", "path": "/a"}, {"name": "head", "method": "HEAD", "path": "/a"},
           {"name": "options", "method": "OPTIONS", "path": "/a"},
           {"name": "put", "method": "PUT", "path": "/a"},
           {"name": "delete", "method": "DELETE", "path": "/a"},
           {"name": "patch", "method": "PATCH", "path": "/a"},
           {"name": "post", "method": "POST", "path": "/a"}"#,
    )
    .unwrap();
    let specs = p.specs();
    let got: Vec<(&str, ToolAnnotations)> =
        specs.iter().map(|s| (s.name(), *s.annotations())).collect();
    assert_eq!(
        got,
        [
            ("get", hints(Some(true), None, Some(true))),
            ("head", hints(Some(true), None, Some(true))),
            ("options", hints(Some(true), None, Some(true))),
            ("put", hints(Some(false), Some(true), Some(true))),
            ("delete", hints(Some(false), Some(true), Some(true))),
            ("patch", hints(Some(false), Some(true), None)),
            ("post", hints(Some(false), None, Some(false))),
        ]
    );
    assert_eq!(
        mcp::tool(&specs[3])["annotations"],
        httptool::json!({"readOnlyHint": false, "destructiveHint": true,
                         "idempotentHint": true, "openWorldHint": true})
    );
}

#[test]
fn declared_fields_override_and_round_trip() {
    let text = r#"{"name": "p", "base_url": "https://api.example.com", "endpoints": [{
        "name": "archive", "title": "Archive a project", "method": "POST", "path": "/archive",
        "annotations": {"destructive": false, "idempotent": true, "open_world": false},
        "output_schema": {"type": "object", "properties": {"archived": {"type": "boolean"}}}
    }]}"#;
    let p = HttpPlugin::from_json(text).unwrap();
    let spec = &p.specs()[0];
    assert_eq!(spec.title(), Some("Archive a project"));
    assert_eq!(
        *spec.annotations(),
        ToolAnnotations {
            read_only: Some(false), // from POST
            destructive: Some(false),
            idempotent: Some(true),
            open_world: Some(false),
        }
    );
    assert_eq!(
        spec.output_schema()
            .and_then(|s| s.pointer("/properties/archived/type")),
        Some(&Json::from("boolean"))
    );
    // Only what was declared is written back, and it reads back the same.
    let written = p.to_json();
    let endpoint = &written["endpoints"][0];
    assert_eq!(endpoint["title"], Json::from("Archive a project"));
    assert_eq!(
        endpoint["annotations"],
        httptool::json!({"destructive": false, "idempotent": true, "open_world": false})
    );
    let again = HttpPlugin::from_json(&written.to_string()).unwrap();
    assert_eq!(again.to_json(), written);
    assert_eq!(again.specs(), p.specs());
    // No declaration: nothing written.
    let plain = plugin(r#"{"name": "get", "path": "/a"}"#)
        .unwrap()
        .to_json();
    assert!(plain["endpoints"][0].get("annotations").is_none());
    assert!(plain["endpoints"][0].get("output_schema").is_none());
}

#[test]
fn field_errors_name_the_field() {
    let message = |endpoint: &str| plugin(endpoint).unwrap_err().to_string();
    assert_eq!(
        message(r#"{"name": "a", "path": "/a", "annotations": {"readOnly": true}}"#),
        "endpoints[0].annotations.readOnly: unknown field 'readOnly'; did you mean 'read_only'? accepted: read_only, destructive, idempotent, open_world"
    );
    assert_eq!(
        message(r#"{"name": "a", "path": "/a", "annotations": {"read_only": "yes"}}"#),
        "endpoints[0].annotations.read_only: expected true or false; got string"
    );
    assert_eq!(
        message(r#"{"name": "a", "path": "/a", "output_schema": [1]}"#),
        "endpoints[0].output_schema: expected a JSON Schema object; got array"
    );
    assert_eq!(
        message(r#"{"name": "a", "path": "/a", "title": 5}"#),
        "endpoints[0].title: expected a string; got number"
    );
}

#[test]
fn output_schema_size_limit_on_both_sides() {
    // `{"description":"xxx..."}` is 18 bytes of JSON around the text.
    let schema = |len: usize| format!(r#"{{"description":"{}"}}"#, "x".repeat(len));
    let at_limit = schema(MAX_OUTPUT_SCHEMA_BYTES - 18);
    assert_eq!(
        json::parse(&at_limit).unwrap().to_string().len(),
        MAX_OUTPUT_SCHEMA_BYTES
    );
    let ok = plugin(&format!(
        r#"{{"name": "a", "path": "/a", "output_schema": {}}}"#,
        at_limit
    ));
    assert!(ok.is_ok(), "{:?}", ok.err());
    let err = plugin(&format!(
        r#"{{"name": "a", "path": "/a", "output_schema": {}}}"#,
        schema(MAX_OUTPUT_SCHEMA_BYTES - 17)
    ))
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidField);
    assert_eq!(
        err.to_string(),
        format!(
            "endpoints[0].output_schema: the output schema is {} bytes, over the limit of {}",
            MAX_OUTPUT_SCHEMA_BYTES + 1,
            MAX_OUTPUT_SCHEMA_BYTES
        )
    );
}
