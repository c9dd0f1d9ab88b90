//! Keywords a document copies into tool schemas are capped as descriptions are: an `enum`,
//! `const`, `default` or `pattern` whose JSON is over 4 KiB is left out with a warning, a
//! `title` is cut like a description. A 300 KB `enum` made a 990 KB tool schema.

use httptool::json::{self, Json, Map};
use httptool::openapi;

/// A document whose one operation takes query parameter `p` with `schema`.
fn doc(schema: Json) -> Json {
    let mut d = json::parse(
        r#"{"openapi": "3.0.3", "info": {"title": "Caps", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": {"/a": {"get": {"operationId": "a",
          "parameters": [{"name": "p", "in": "query", "schema": {}}]}}}}"#,
    )
    .unwrap();
    *d.pointer_mut("/paths/~1a/get/parameters/0/schema").unwrap() = schema;
    d
}

/// An enum of `n` distinct ten-byte strings: `n * 13 + 1` bytes of compact JSON.
fn values(n: usize) -> Json {
    Json::Array(
        (0..n)
            .map(|i| Json::from(format!("value{:05}", i)))
            .collect(),
    )
}

fn schema_of_p(import: &openapi::Import) -> Json {
    import.plugin().specs()[0].parameters()["properties"]["p"].clone()
}

fn warnings(import: &openapi::Import) -> Vec<String> {
    import.warnings().iter().map(|w| w.to_string()).collect()
}

#[test]
fn a_huge_enum_is_left_out_with_a_warning() {
    // 300 KB of enum.
    let mut schema = Map::new();
    schema.insert("type", "string");
    schema.insert("enum", values(23_000));
    let import = openapi::import(&doc(Json::Object(schema))).unwrap();
    assert_eq!(
        schema_of_p(&import),
        json::parse(r#"{"type": "string"}"#).unwrap()
    );
    assert_eq!(
        warnings(&import),
        ["/paths/~1a/get/parameters/0/schema/enum: 'enum' is over 4096 bytes: left out of the tool schema"]
    );
    let total = import.plugin().specs()[0].parameters().to_string().len();
    assert!(total < 1024, "{}", total);
}

#[test]
fn an_enum_just_under_the_cap_is_kept() {
    // 315 * 13 + 1 = 4096 bytes: kept; 316 values: 4109, left out.
    for (n, kept) in [(315, true), (316, false)] {
        let mut schema = Map::new();
        schema.insert("type", "string");
        schema.insert("enum", values(n));
        assert_eq!(values(n).to_string().len(), n * 13 + 1);
        let import = openapi::import(&doc(Json::Object(schema))).unwrap();
        let has_enum = schema_of_p(&import).get("enum").is_some();
        assert_eq!(has_enum, kept, "{} values", n);
        assert_eq!(warnings(&import).is_empty(), kept, "{} values", n);
    }
}

#[test]
fn const_default_and_pattern_over_the_cap_are_left_out() {
    let long = "x".repeat(5000);
    let mut schema = Map::new();
    schema.insert("type", "string");
    schema.insert("pattern", format!("^{}$", long));
    schema.insert("default", long.as_str());
    schema.insert("const", long.as_str());
    schema.insert("maxLength", 9000);
    let import = openapi::import(&doc(Json::Object(schema))).unwrap();
    assert_eq!(
        schema_of_p(&import),
        json::parse(r#"{"type": "string", "maxLength": 9000}"#).unwrap()
    );
    let mut got = warnings(&import);
    got.sort();
    assert_eq!(
        got,
        [
            "/paths/~1a/get/parameters/0/schema/const: 'const' is over 4096 bytes: left out of the tool schema",
            "/paths/~1a/get/parameters/0/schema/default: 'default' is over 4096 bytes: left out of the tool schema",
            "/paths/~1a/get/parameters/0/schema/pattern: 'pattern' is over 4096 bytes: left out of the tool schema",
        ]
    );
}

#[test]
fn a_long_title_is_cut_like_a_description() {
    let mut schema = Map::new();
    schema.insert("type", "string");
    schema.insert("title", "t".repeat(100_000));
    let import = openapi::import(&doc(Json::Object(schema))).unwrap();
    let title = schema_of_p(&import)["title"].as_str().unwrap().to_string();
    assert!(
        title.len() <= openapi::DEFAULT_MAX_PARAM_DESCRIPTION_BYTES,
        "{}",
        title.len()
    );
    assert!(title.starts_with("ttt"));
}

#[test]
fn a_huge_default_beside_a_ref_is_left_out_too() {
    let mut d = doc(json::parse(r##"{"$ref": "#/components/schemas/S"}"##).unwrap());
    let mut components = Map::new();
    let mut schemas = Map::new();
    schemas.insert(
        "S",
        json::parse(r#"{"type": "array", "items": {"type": "string"}}"#).unwrap(),
    );
    components.insert("schemas", Json::Object(schemas));
    d.as_object_mut()
        .unwrap()
        .insert("components", Json::Object(components));
    d.pointer_mut("/paths/~1a/get/parameters/0/schema")
        .unwrap()
        .as_object_mut()
        .unwrap()
        .insert("default", values(1000));
    let import = openapi::import(&d).unwrap();
    assert_eq!(schema_of_p(&import).get("default"), None);
    assert_eq!(
        warnings(&import),
        ["/paths/~1a/get/parameters/0/schema/default: 'default' is over 4096 bytes: left out of the tool schema"]
    );
}
