//! One small document per construct, asserting the exact plugin (endpoint) that results.

use httptool::json::{self, Json};
use httptool::openapi::{self, ErrorKind, ImportOptions};
use httptool::plugin::HttpPlugin;

/// An OpenAPI 3.0 document with these paths and components.
fn doc(paths: &str, components: &str) -> Json {
    json::parse(&format!(
        r#"{{"openapi": "3.0.3", "info": {{"title": "T", "version": "1"}},
            "servers": [{{"url": "https://api.example.com/v1"}}],
            "paths": {}, "components": {}}}"#,
        paths, components
    ))
    .unwrap()
}

fn import(doc: &Json) -> openapi::Import {
    let import = openapi::import_with(doc, &ImportOptions::new()).unwrap();
    let file = import.plugin().to_json();
    let again = HttpPlugin::from_json_with(&file.to_string(), |_| Some(String::new())).unwrap();
    assert_eq!(again.to_json(), file, "the plugin file round-trips");
    import
}

/// The first endpoint of the imported plugin file.
fn endpoint(paths: &str, components: &str) -> Json {
    let import = import(&doc(paths, components));
    import.plugin().to_json()["endpoints"][0].clone()
}

fn warnings(import: &openapi::Import) -> Vec<String> {
    import.warnings().iter().map(|w| w.to_string()).collect()
}

fn same(got: Json, expected: &str) {
    let expected = json::parse(expected).unwrap();
    assert_eq!(got, expected, "got {}", got.to_pretty());
}

// ---------------------------------------------------------------- base urls

#[test]
fn server_variables_take_their_defaults_or_the_options() {
    let d = json::parse(
        r#"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
        "servers": [{"url": "https://{region}.example.com/{v}", "variables": {
            "region": {"default": "eu", "enum": ["eu", "us"]}, "v": {"default": "v2"}}},
            {"url": "https://backup.example.com"}],
        "paths": {"/x": {"get": {}}}}"#,
    )
    .unwrap();
    let base = |o: ImportOptions| {
        openapi::import_with(&d, &o).unwrap().plugin().to_json()["base_url"].clone()
    };
    assert_eq!(
        base(ImportOptions::new()),
        Json::from("https://eu.example.com/v2")
    );
    assert_eq!(
        base(ImportOptions::new().server_variable("region", "us")),
        Json::from("https://us.example.com/v2")
    );
    assert_eq!(
        base(ImportOptions::new().server(1)),
        Json::from("https://backup.example.com")
    );
    assert_eq!(
        base(ImportOptions::new().base_url("http://127.0.0.1:4010/")),
        Json::from("http://127.0.0.1:4010")
    );
    let err = openapi::import_with(&d, &ImportOptions::new().server(5)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "/servers: server 5 was asked for, and the document has 2 (0 to 1)"
    );
    assert_eq!(err.kind(), ErrorKind::InvalidDocument);
}

#[test]
fn a_relative_server_is_resolved_against_the_option() {
    let d = json::parse(
        r#"{"openapi": "3.0.0", "info": {"title": "T", "version": "1"},
        "servers": [{"url": "/api/v3"}], "paths": {"/x": {"get": {}}}}"#,
    )
    .unwrap();
    let o = ImportOptions::new().relative_to("https://petstore.example.com/openapi.json");
    let with = openapi::import_with(&d, &o).unwrap();
    assert_eq!(
        with.plugin().to_json()["base_url"],
        Json::from("https://petstore.example.com/api/v3")
    );
    let without = openapi::import(&d).unwrap();
    assert_eq!(
        without.plugin().to_json()["base_url"],
        Json::from("https://api.example.invalid/api/v3")
    );
    assert_eq!(warnings(&without), ["/servers/0: the server url '/api/v3' is relative: the base url is https://api.example.invalid until one is given (base_url or relative_to)"]);
}

#[test]
fn swagger_host_base_path_and_https_first() {
    let d = json::parse(
        r#"{"swagger": "2.0", "info": {"title": "T", "version": "1"},
        "host": "api.example.com", "basePath": "/v2/", "schemes": ["http", "https"],
        "paths": {"/x": {"get": {}}}}"#,
    )
    .unwrap();
    assert_eq!(
        import(&d).plugin().to_json()["base_url"],
        Json::from("https://api.example.com/v2")
    );
    let none = json::parse(r#"{"swagger": "2.0", "info": {"title": "T", "version": "1"}, "paths": {"/x": {"get": {}}}}"#).unwrap();
    let i = import(&none);
    assert_eq!(
        i.plugin().to_json()["base_url"],
        Json::from("https://api.example.invalid")
    );
    assert_eq!(warnings(&i), ["/host: the document names no host: the base url is https://api.example.invalid until one is given (base_url)"]);
}

#[test]
fn operation_servers_become_the_endpoints_base_url() {
    let e = endpoint(
        r#"{"/files": {"servers": [{"url": "https://upload.example.com/api"}],
        "post": {"operationId": "upload"}, "get": {"operationId": "list", "servers": [{"url": "https://api.example.com/v1"}]}}}"#,
        "{}",
    );
    same(
        e,
        r#"{"name": "upload", "method": "POST", "path": "/files", "base_url": "https://upload.example.com/api", "params": []}"#,
    );
}

/// An operation skipped for a server without a url keeps the warnings of the operations
/// before it (they were dropped with the error).
#[test]
fn a_skipped_operation_with_a_broken_server_keeps_the_earlier_warnings() {
    let d = doc(
        r#"{"/a": {"get": {"operationId": "a b"}},
            "/b": {"get": {"operationId": "b", "servers": [{}]}}}"#,
        "{}",
    );
    let err = openapi::import_with(&d, &ImportOptions::new().strict(true)).unwrap_err();
    assert_eq!(
        (err.kind(), err.to_string()),
        (
            ErrorKind::InvalidDocument,
            String::from("/paths/~1b/get/servers/0: a server needs a 'url' string")
        )
    );
    let skipping = ImportOptions::new().skip_failing_operations(true);
    let i = openapi::import_with(&d, &skipping).unwrap();
    assert_eq!(
        warnings(&i),
        [
            "/paths/~1a/get/operationId: operationId 'a b' is not a valid tool name: named 'a_b'",
            "/paths/~1b/get: GET /b (b) not imported: /paths/~1b/get/servers/0: a server needs a 'url' string",
        ]
    );
}

// ---------------------------------------------------------------- parameters

#[test]
fn parameters_in_every_location_merged_with_the_path_items() {
    let e = endpoint(
        r##"{"/users/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                           {"name": "verbose", "in": "query", "schema": {"type": "boolean"}}],
            "get": {"operationId": "getUser", "summary": "One user", "description": "By id.",
              "parameters": [{"$ref": "#/components/parameters/Verbose"},
                {"name": "X-Request-Id", "in": "header", "schema": {"type": "string", "format": "uuid"}},
                {"name": "session", "in": "cookie", "required": true, "schema": {"type": "string"}},
                {"name": "Accept", "in": "header", "schema": {"type": "string"}}]}}}"##,
        r#"{"parameters": {"Verbose": {"name": "verbose", "in": "query", "description": "More detail", "schema": {"type": "integer", "enum": [0, 1]}}}}"#,
    );
    same(
        e,
        r#"{"name": "getUser", "title": "One user", "description": "One user.\n\nBy id.", "method": "GET", "path": "/users/{id}", "params": [
        {"name": "id", "in": "path", "type": "string", "required": true},
        {"name": "verbose", "in": "query", "type": "integer", "description": "More detail", "schema": {"type": "integer", "enum": [0, 1]}},
        {"name": "X-Request-Id", "in": "header", "type": "string", "schema": {"type": "string", "format": "uuid"}},
        {"name": "session", "in": "cookie", "type": "string", "required": true}]}"#,
    );
}

#[test]
fn styles_and_explode() {
    let e = endpoint(
        r#"{"/search": {"get": {"operationId": "search", "parameters": [
            {"name": "ids", "in": "query", "explode": false, "schema": {"type": "array", "items": {"type": "integer"}}},
            {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
            {"name": "words", "in": "query", "style": "spaceDelimited", "explode": false, "schema": {"type": "array", "items": {"type": "string"}}},
            {"name": "codes", "in": "query", "style": "pipeDelimited", "explode": false, "schema": {"type": "array", "items": {"type": "string"}}},
            {"name": "filter", "in": "query", "style": "deepObject", "explode": true, "schema": {"type": "object", "properties": {"status": {"type": "string"}}}},
            {"name": "page", "in": "query", "schema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
            {"name": "X-Ids", "in": "header", "schema": {"type": "array", "items": {"type": "string"}}}]}}}"#,
        "{}",
    );
    let styles: Vec<Json> = e["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.get("array_style").cloned().unwrap_or(Json::Null))
        .collect();
    assert_eq!(
        Json::Array(styles),
        httptool::json!([
            "comma",
            null,
            "space",
            "pipe",
            "deep_object",
            "spread",
            "comma"
        ])
    );
    let i = import(&doc(
        r#"{"/a/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true, "style": "label", "schema": {"type": "string"}}]}}}"#,
        "{}",
    ));
    assert_eq!(warnings(&i), ["/paths/~1a~1{id}/get/parameters/0/style: path style 'label' is not supported: the value is sent as a plain segment"]);
}

#[test]
fn parameter_names_are_made_valid_and_the_wire_name_kept() {
    let e = endpoint(
        r#"{"/x": {"get": {"operationId": "x", "parameters": [
        {"name": "page[size]", "in": "query", "schema": {"type": "integer"}}]}}}"#,
        "{}",
    );
    same(
        e["params"][0].clone(),
        r#"{"name": "page_size", "wire_name": "page[size]", "in": "query", "type": "integer"}"#,
    );
}

// ---------------------------------------------------------------- bodies

#[test]
fn json_object_bodies_are_flattened_and_clashes_keep_the_wire_name() {
    let e = endpoint(
        r##"{"/items": {"post": {"operationId": "create", "parameters": [{"name": "id", "in": "query", "schema": {"type": "string"}}],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}}}}"##,
        r#"{"schemas": {"Item": {"type": "object", "required": ["name", "created"], "properties": {
            "id": {"type": "integer"}, "name": {"type": "string", "maxLength": 10},
            "created": {"type": "string", "readOnly": true}}}}}"#,
    );
    same(
        e,
        r#"{"name": "create", "method": "POST", "path": "/items", "params": [
        {"name": "id", "in": "query", "type": "string"},
        {"name": "id_body", "wire_name": "id", "in": "body", "type": "integer"},
        {"name": "name", "in": "body", "type": "string", "required": true, "schema": {"type": "string", "maxLength": 10}}]}"#,
    );
}

#[test]
fn a_required_body_of_optional_properties_is_one_parameter() {
    // Flattened, a call giving none of the properties would send no body at all.
    let e = endpoint(
        r#"{"/items": {"put": {"operationId": "put", "requestBody": {"required": true, "content": {"application/json": {"schema":
        {"type": "object", "properties": {"name": {"type": "string"}}}}}}}}}"#,
        "{}",
    );
    same(
        e["params"].clone(),
        r#"[{"name": "body", "in": "body", "type": "object", "required": true, "whole_body": true,
        "schema": {"type": "object", "properties": {"name": {"type": "string"}}}}]"#,
    );
}

#[test]
fn optional_bodies_stay_optional() {
    let e = endpoint(
        r#"{"/items": {"patch": {"operationId": "patch", "requestBody": {"content": {"application/json": {"schema":
        {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}}}}}"#,
        "{}",
    );
    same(
        e["params"].clone(),
        r#"[{"name": "name", "in": "body", "type": "string"}]"#,
    );
}

#[test]
fn a_non_object_json_body_is_one_whole_body_parameter() {
    let e = endpoint(
        r#"{"/batch": {"post": {"operationId": "batch", "requestBody": {"required": true, "content": {"application/merge-patch+json": {"schema":
        {"type": "array", "items": {"type": "string"}}}}}}}}"#,
        "{}",
    );
    same(
        e,
        r#"{"name": "batch", "method": "POST", "path": "/batch", "content_type": "application/merge-patch+json", "params": [
        {"name": "body", "in": "body", "type": "array", "items": {"type": "string"}, "required": true, "whole_body": true, "schema": {"type": "array", "items": {"type": "string"}}}]}"#,
    );
}

#[test]
fn form_bodies_keep_their_encoding_styles() {
    let e = endpoint(
        r#"{"/v1/charges": {"post": {"operationId": "PostCharges", "requestBody": {"content": {"application/x-www-form-urlencoded": {
        "schema": {"type": "object", "properties": {"amount": {"type": "integer"},
            "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
            "expand": {"type": "array", "items": {"type": "string"}}}},
        "encoding": {"metadata": {"style": "deepObject", "explode": true}, "expand": {"style": "deepObject", "explode": true}}}}}}}}"#,
        "{}",
    );
    same(
        e,
        r#"{"name": "PostCharges", "method": "POST", "path": "/v1/charges", "body_encoding": "form", "params": [
        {"name": "amount", "in": "form", "type": "integer"},
        {"name": "metadata", "in": "form", "type": "object", "array_style": "deep_object", "schema": {"type": "object", "additionalProperties": {"type": "string"}}},
        {"name": "expand", "in": "form", "type": "array", "items": {"type": "string"}, "array_style": "deep_object", "schema": {"type": "array", "items": {"type": "string"}}}]}"#,
    );
    let plugin = import(&doc(r#"{"/v1/charges": {"post": {"operationId": "PostCharges", "requestBody": {"content": {"application/x-www-form-urlencoded": {
        "schema": {"type": "object", "properties": {"metadata": {"type": "object"}, "expand": {"type": "array", "items": {"type": "string"}}}},
        "encoding": {"metadata": {"style": "deepObject", "explode": true}, "expand": {"style": "deepObject", "explode": true}}}}}}}}"#, "{}")).into_plugin();
    let dry = plugin
        .dry_run(
            "PostCharges",
            r#"{"metadata": {"order": 7}, "expand": ["customer"]}"#,
            &Default::default(),
        )
        .unwrap();
    assert_eq!(
        dry.request().body(),
        b"metadata%5Border%5D=7&expand%5B0%5D=customer"
    );
}

#[test]
fn multipart_binary_properties_are_file_parts() {
    let e = endpoint(
        r#"{"/upload": {"post": {"operationId": "upload", "requestBody": {"required": true, "content": {"multipart/form-data": {
        "schema": {"type": "object", "required": ["file"], "properties": {"file": {"type": "string", "format": "binary", "description": "The file"}, "title": {"type": "string"}}}}}}}}}"#,
        "{}",
    );
    same(
        e["params"].clone(),
        r#"[{"name": "file", "in": "form", "type": "string", "description": "The file", "required": true, "file": true},
        {"name": "title", "in": "form", "type": "string"}]"#,
    );
    assert_eq!(e["body_encoding"], Json::from("multipart"));
}

#[test]
fn other_media_types_are_raw_bodies() {
    let text = endpoint(
        r#"{"/note": {"put": {"operationId": "note", "requestBody": {"required": true, "content": {"text/plain": {"schema": {"type": "string"}}}}}}}"#,
        "{}",
    );
    same(
        text,
        r#"{"name": "note", "method": "PUT", "path": "/note", "body_encoding": "raw", "content_type": "text/plain", "params": [
        {"name": "body", "in": "body", "type": "string", "required": true}]}"#,
    );
    let bytes = endpoint(
        r#"{"/img": {"put": {"operationId": "img", "requestBody": {"content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}}}}}"#,
        "{}",
    );
    same(
        bytes["params"].clone(),
        r#"[{"name": "body", "in": "body", "type": "string", "description": "A handle of the file to send as image/jpeg.", "file": true}]"#,
    );
}

#[test]
fn json_is_preferred_and_the_others_named() {
    let i = import(&doc(
        r#"{"/x": {"post": {"operationId": "x", "requestBody": {"content": {
        "application/xml": {"schema": {"type": "string"}}, "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {"a": {"type": "string"}}}},
        "application/json": {"schema": {"type": "object", "properties": {"a": {"type": "string"}}}}}}}}}"#,
        "{}",
    ));
    assert_eq!(warnings(&i), ["/paths/~1x/post/requestBody/content: the body is sent as application/json; not offered: application/xml, application/x-www-form-urlencoded"]);
    assert!(i.plugin().to_json()["endpoints"][0]
        .get("body_encoding")
        .is_none());
}

// ---------------------------------------------------------------- schemas

#[test]
fn schemas_as_the_model_reads_them() {
    let (paths, components) = (
        r##"{"/x": {"post": {"operationId": "x", "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
            "pet": {"allOf": [{"$ref": "#/components/schemas/Named"}, {"type": "object", "required": ["age"], "properties": {"age": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}}}]},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer"}], "discriminator": {"propertyName": "x"}},
            "note": {"type": "string", "nullable": true, "example": "hi", "x-internal": true},
            "tree": {"$ref": "#/components/schemas/Tree"}}}}}}}}}"##,
        r##"{"schemas": {"Named": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"}}},
            "Tree": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/components/schemas/Tree"}}}}}}"##,
    );
    let e = endpoint(paths, components);
    same(
        e["params"].clone(),
        r##"[
        {"name": "pet", "in": "body", "type": "object", "schema": {"type": "object", "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"}, "age": {"type": "integer", "exclusiveMinimum": 0}}, "required": ["name", "age"]}},
        {"name": "either", "in": "body", "type": "any", "schema": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
        {"name": "note", "in": "body", "type": "string", "schema": {"type": ["string", "null"], "examples": ["hi"]}},
        {"name": "tree", "in": "body", "type": "object", "schema": {"$ref": "#/$defs/Tree", "type": "object"}}]"##,
    );
    // A recursive component stays a `$ref`, written once for the plugin.
    let file = import(&doc(paths, components)).plugin().to_json();
    same(
        file["$defs"].clone(),
        r##"{"Tree": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}}}"##,
    );
}

#[test]
fn every_keyword_copied_is_kept_and_every_one_not_passed_on_is_a_warning() {
    let d = doc(
        r##"{"/x": {"post": {"operationId": "x", "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
            "s": {"x-note": 1, "contentEncoding": "base64", "contentMediaType": "text/plain", "title": "S", "const": "QQ==", "default": "QQ==",
                  "maxLength": 8, "minLength": 4, "pattern": "^[A-Z=]+$", "format": "byte", "type": "string", "not": {"type": "integer"}, "if": {}},
            "n": {"multipleOf": 0.5, "exclusiveMaximum": true, "maximum": 9, "minimum": 1, "type": "number", "enum": [1, 2], "nullable": true},
            "a": {"uniqueItems": true, "maxItems": 3, "minItems": 1, "items": {"type": "integer"}, "type": "array", "prefixItems": [{}]},
            "o": {"maxProperties": 2, "minProperties": 1, "type": "object", "patternProperties": {}, "dependentSchemas": {},
                  "additionalProperties": {"type": "string"}}}}}}}}}}"##,
        "{}",
    );
    let import = import(&d);
    same(
        import.plugin().to_json()["endpoints"][0]["params"].clone(),
        r#"[
        {"name": "s", "in": "body", "type": "string", "schema": {"type": "string", "format": "byte", "pattern": "^[A-Z=]+$",
            "minLength": 4, "maxLength": 8, "const": "QQ==", "title": "S", "contentMediaType": "text/plain",
            "contentEncoding": "base64", "default": "QQ=="}},
        {"name": "n", "in": "body", "type": "number", "schema": {"type": ["number", "null"], "minimum": 1,
            "multipleOf": 0.5, "enum": [1, 2, null], "exclusiveMaximum": 9}},
        {"name": "a", "in": "body", "type": "array", "items": {"type": "integer"}, "schema": {"type": "array", "minItems": 1,
            "maxItems": 3, "uniqueItems": true, "items": {"type": "integer"}}},
        {"name": "o", "in": "body", "type": "object", "schema": {"type": "object", "minProperties": 1,
            "maxProperties": 2, "additionalProperties": {"type": "string"}}}]"#,
    );
    let base = "/paths/~1x/post/requestBody/content/application~1json/schema/properties";
    let not_passed_on: Vec<String> = warnings(&import)
        .into_iter()
        .filter(|w| w.contains("is not passed on"))
        .collect();
    assert_eq!(
        not_passed_on,
        [
            format!("{}/s/not: 'not' is not passed on to the model", base),
            format!("{}/s/if: 'if' is not passed on to the model", base),
            format!(
                "{}/a/prefixItems: 'prefixItems' is not passed on to the model",
                base
            ),
            format!(
                "{}/o/patternProperties: 'patternProperties' is not passed on to the model",
                base
            ),
            format!(
                "{}/o/dependentSchemas: 'dependentSchemas' is not passed on to the model",
                base
            ),
        ]
    );
}

#[test]
fn refs_into_a_large_components_object_find_their_target_or_say_it_is_missing() {
    // Forty schemas: the components object is looked up through an index of its members.
    let mut schemas: Vec<String> = (0..40)
        .map(|i| format!(r#""S{}": {{"type": "integer", "maximum": {}}}"#, i, i))
        .collect();
    schemas.push(r#""a/b": {"type": "string", "format": "slashed"}"#.to_string());
    schemas.push(r#""c~d": {"type": "boolean", "description": "tilde"}"#.to_string());
    let components = format!(r#"{{"schemas": {{{}}}}}"#, schemas.join(", "));
    let body = |refs: &[&str]| {
        let properties: Vec<String> = refs
            .iter()
            .enumerate()
            .map(|(i, r)| format!(r##""p{}": {{"$ref": "#/components/schemas/{}"}}"##, i, r))
            .collect();
        format!(
            r#"{{"/x": {{"post": {{"operationId": "x", "requestBody": {{"content": {{"application/json": {{"schema": {{"type": "object", "properties": {{{}}}}}}}}}}}}}}}}}"#,
            properties.join(", ")
        )
    };
    let e = endpoint(&body(&["S39", "S0", "a~1b", "c~0d", "S7"]), &components);
    same(
        e["params"].clone(),
        r#"[
        {"name": "p0", "in": "body", "type": "integer", "schema": {"type": "integer", "maximum": 39}},
        {"name": "p1", "in": "body", "type": "integer", "schema": {"type": "integer", "maximum": 0}},
        {"name": "p2", "in": "body", "type": "string", "schema": {"type": "string", "format": "slashed"}},
        {"name": "p3", "in": "body", "type": "boolean", "description": "tilde"},
        {"name": "p4", "in": "body", "type": "integer", "schema": {"type": "integer", "maximum": 7}}]"#,
    );
    let err = openapi::import(&doc(&body(&["S1", "S40"]), &components)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnresolvedRef);
    assert_eq!(
        err.to_string(),
        "/paths/~1x/post/requestBody/content/application~1json/schema/properties/p1/$ref: $ref '#/components/schemas/S40' points to nothing in the document"
    );
}

#[test]
fn a_warning_deep_in_a_schema_points_there_with_names_escaped() {
    let d = doc(
        r##"{"/x": {"post": {"operationId": "x", "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
            "a/b~c": {"oneOf": [{"type": "string"}, {"allOf": [{"type": "object"}, {"not": {}}]}]},
            "d": {"type": "array", "items": {"additionalProperties": {"if": {}}}},
            "e": {"$ref": "#/components/schemas/E"}}}}}}}}}"##,
        r#"{"schemas": {"E": {"type": "object", "properties": {"f": {"prefixItems": []}}}}}"#,
    );
    let base = "/paths/~1x/post/requestBody/content/application~1json/schema/properties";
    assert_eq!(
        warnings(&import(&d)),
        [
            format!(
                "{}/a~1b~0c/oneOf/1/allOf/1/not: 'not' is not passed on to the model",
                base
            ),
            format!(
                "{}/d/items/additionalProperties/if: 'if' is not passed on to the model",
                base
            ),
            "/components/schemas/E/properties/f/prefixItems: 'prefixItems' is not passed on to the model"
                .to_string(),
        ]
    );
}

// ---------------------------------------------------------------- security

#[test]
fn one_scheme_for_every_operation_is_the_plugins_auth() {
    let d = json::parse(r#"{"openapi": "3.0.3", "info": {"title": "Box", "version": "1"}, "servers": [{"url": "https://api.example.com"}],
        "components": {"securitySchemes": {"OAuth2Security": {"type": "oauth2", "flows": {}}}},
        "security": [{"OAuth2Security": []}], "paths": {"/a": {"get": {}}, "/b": {"get": {}}}}"#).unwrap();
    let i = import(&d);
    assert_eq!(
        i.plugin().to_json()["auth"],
        httptool::json!({"type": "bearer", "token": "${HTTPTOOL_API_EXAMPLE_COM___OAUTH2SECURITY}"})
    );
    assert_eq!(i.variables(), ["HTTPTOOL_API_EXAMPLE_COM___OAUTH2SECURITY"]);
    assert_eq!(warnings(&i), ["/components/securitySchemes/OAuth2Security: oauth2 scheme: a bearer token slot; the token is not fetched, set its variable yourself"]);
}

#[test]
fn schemes_that_differ_per_operation_are_secret_parameters() {
    let d = json::parse(r#"{"openapi": "3.0.3", "info": {"title": "Shop", "version": "1"}, "servers": [{"url": "https://api.example.com"}],
        "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "query", "name": "api_key"},
            "token": {"type": "http", "scheme": "bearer"}, "sid": {"type": "apiKey", "in": "cookie", "name": "SID"}}},
        "security": [{"key": []}],
        "paths": {"/a": {"get": {"operationId": "a"}}, "/b": {"get": {"operationId": "b", "security": [{"token": []}]}},
                  "/c": {"get": {"operationId": "c", "security": []}}, "/d": {"get": {"operationId": "d", "security": [{"sid": []}]}}}}"#).unwrap();
    let i = openapi::import_with(
        &d,
        &ImportOptions::new().variable("HTTPTOOL_API_EXAMPLE_COM___TOKEN", "t-1"),
    )
    .unwrap();
    let file = i.plugin().to_json();
    assert!(file.get("auth").is_none());
    let params: Vec<Json> = file["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["params"].clone())
        .collect();
    assert_eq!(
        Json::Array(params),
        httptool::json!([
        [{"name": "auth_key", "wire_name": "api_key", "in": "query", "type": "string", "default": "${HTTPTOOL_API_EXAMPLE_COM___KEY}", "secret": true}],
        [{"name": "auth_token", "wire_name": "Authorization", "in": "header", "type": "string", "default": "Bearer ${HTTPTOOL_API_EXAMPLE_COM___TOKEN}", "secret": true}],
        [],
        [{"name": "auth_sid", "wire_name": "SID", "in": "cookie", "type": "string", "default": "${HTTPTOOL_API_EXAMPLE_COM___SID}", "secret": true}]])
    );
    assert_eq!(
        i.variables(),
        [
            "HTTPTOOL_API_EXAMPLE_COM___KEY",
            "HTTPTOOL_API_EXAMPLE_COM___TOKEN",
            "HTTPTOOL_API_EXAMPLE_COM___SID"
        ]
    );
    let dry = i.plugin().dry_run("b", "{}", &Default::default()).unwrap();
    assert_eq!(
        dry.request().headers().get("authorization"),
        Some("Bearer t-1")
    );
    let none = i.plugin().dry_run("c", "{}", &Default::default()).unwrap();
    assert_eq!(none.request().headers().get("authorization"), None);
}

// ---------------------------------------------------------------- names and descriptions

#[test]
fn tool_names_are_valid_unique_and_stable() {
    let long = "x".repeat(80);
    let i = import(&doc(
        &format!(
            r#"{{"/a": {{"get": {{"operationId": "pets.list"}}, "post": {{"operationId": "pets list"}}}},
        "/b/{{id}}": {{"get": {{"parameters": [{{"name": "id", "in": "path", "required": true}}]}}, "put": {{"operationId": "{}"}}}}}}"#,
            long
        ),
        "{}",
    ));
    let names: Vec<String> = i.tools().iter().map(|t| t.name.clone()).collect();
    assert_eq!(names[..3], ["pets_list", "pets_list_2", "get_b_id"]);
    assert_eq!(names[3].len(), 64);
    assert!(names[3].starts_with(&"x".repeat(55)));
    assert_eq!(warnings(&i), [
        "/paths/~1a/get/operationId: operationId 'pets.list' is not a valid tool name: named 'pets_list'".to_string(),
        "/paths/~1a/post/operationId: operationId 'pets list' is not a valid tool name: named 'pets_list'".to_string(),
        "/paths/~1b~1{id}/put: {id} in the path has no parameter: imported as a required string".to_string(),
        // Quoted by the crate's one rule: 64 characters, then `...`.
        format!("/paths/~1b~1{{id}}/put/operationId: operationId '{}...' is not a valid tool name: named '{}'", &long[..64], names[3]),
        "/paths/~1a/post: tool name 'pets_list' is already taken: named 'pets_list_2'".to_string(),
    ]);
}

#[test]
fn descriptions_are_capped() {
    let d = doc(
        &format!(
            r#"{{"/a": {{"get": {{"operationId": "a", "summary": "{}"}}}}}}"#,
            "word ".repeat(100)
        ),
        "{}",
    );
    let i = openapi::import_with(&d, &ImportOptions::new().max_description_bytes(20)).unwrap();
    assert_eq!(
        i.plugin().to_json()["endpoints"][0]["description"],
        Json::from("word word word wo...")
    );
}

/// A document whose operation summary and parameter description are `text`.
fn described(text: &str) -> Json {
    doc(
        &format!(
            r#"{{"/a": {{"get": {{"operationId": "a", "summary": "{0}",
                "parameters": [{{"name": "q", "in": "query", "description": "{0}",
                                 "schema": {{"type": "string"}}}}]}}}}}}"#,
            text
        ),
        "{}",
    )
}

/// (tool description, parameter description) of the imported plugin.
fn descriptions(d: &Json, options: &ImportOptions) -> (String, String) {
    let file = openapi::import_with(d, options).unwrap().plugin().to_json();
    let endpoint = &file["endpoints"][0];
    let text = |v: &Json| v.as_str().unwrap().to_string();
    (
        text(&endpoint["description"]),
        text(&endpoint["params"][0]["description"]),
    )
}

#[test]
fn description_caps_count_bytes_as_the_plugin_options_do() {
    // 12 characters, 24 bytes: a cap of 12 characters would keep it whole.
    let d = described(&"é".repeat(12));
    let options = ImportOptions::new()
        .max_description_bytes(12)
        .max_param_description_bytes(9);
    let (tool, param) = descriptions(&d, &options);
    assert_eq!((tool.as_str(), param.as_str()), ("éééé...", "ééé..."));
    assert!(tool.len() <= 12 && param.len() <= 9);
    // At the cap exactly, nothing is cut.
    let whole = ImportOptions::new()
        .max_description_bytes(24)
        .max_param_description_bytes(24);
    assert_eq!(descriptions(&d, &whole), ("é".repeat(12), "é".repeat(12)));
    assert_eq!(
        (
            openapi::DEFAULT_MAX_DESCRIPTION_BYTES,
            openapi::DEFAULT_MAX_PARAM_DESCRIPTION_BYTES
        ),
        (1024, 512)
    );
}

// ---------------------------------------------------------------- selection and reports

#[test]
fn selection_by_tag_operation_path_and_method() {
    let d = doc(
        r#"{"/pets": {"get": {"operationId": "list", "tags": ["pets"]}, "post": {"operationId": "add", "tags": ["admin"]}},
        "/users": {"get": {"operationId": "users", "tags": ["admin"]}, "delete": {"operationId": "old", "deprecated": true}}}"#,
        "{}",
    );
    let names = |o: ImportOptions| -> Vec<String> {
        openapi::import_with(&d, &o)
            .unwrap()
            .tools()
            .iter()
            .map(|t| t.name.clone())
            .collect()
    };
    assert_eq!(names(ImportOptions::new()), ["list", "add", "users"]);
    assert_eq!(
        names(ImportOptions::new().include_tag("admin")),
        ["add", "users"]
    );
    assert_eq!(names(ImportOptions::new().exclude_tag("admin")), ["list"]);
    assert_eq!(
        names(ImportOptions::new().include_operation("users")),
        ["users"]
    );
    assert_eq!(
        names(ImportOptions::new().exclude_operation("list")),
        ["add", "users"]
    );
    assert_eq!(names(ImportOptions::new().path("/u*")), ["users"]);
    assert_eq!(names(ImportOptions::new().method("post")), ["add"]);
    assert_eq!(
        names(ImportOptions::new().include_deprecated(true)),
        ["list", "add", "users", "old"]
    );
}

#[test]
fn webhooks_and_callbacks_are_reported() {
    let d = json::parse(r#"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "servers": [{"url": "https://api.example.com"}],
        "webhooks": {"newPet": {"post": {}}},
        "paths": {"/s": {"post": {"operationId": "s", "callbacks": {"onEvent": {}}}, "trace": {}}}}"#).unwrap();
    let i = import(&d);
    assert_eq!(warnings(&i), [
        "/webhooks/newPet: webhooks are requests the API sends, not operations to call: not imported",
        "/paths/~1s/trace: 'trace' is not an operation this importer reads: not imported",
        "/paths/~1s/post/callbacks/onEvent: callbacks are requests the API sends: not imported",
    ]);
}

#[test]
fn versions() {
    let v = |text: &str| {
        json::parse(&format!(r#"{{{}, "info": {{"title": "T", "version": "1"}}, "servers": [{{"url": "https://a.example.com"}}], "paths": {{"/x": {{"get": {{}}}}}}}}"#, text)).unwrap()
    };
    assert_eq!(
        openapi::import(&v(r#""openapi": "3.1.0""#))
            .unwrap()
            .version(),
        openapi::Version::V3_1
    );
    let next = openapi::import(&v(r#""openapi": "3.2.0""#)).unwrap();
    assert_eq!(
        warnings(&next),
        ["/openapi: openapi 3.2.0 is read as 3.1: constructs newer than 3.1 are not imported"]
    );
    let old = openapi::import(&v(r#""swagger": "1.2""#)).unwrap_err();
    assert_eq!(
        (old.kind(), old.to_string()),
        (
            ErrorKind::UnsupportedVersion,
            String::from("/swagger: swagger \"1.2\" is not read; 2.0 is")
        )
    );
    let four = openapi::import(&v(r#""openapi": "4.0.0""#)).unwrap_err();
    assert_eq!(
        four.to_string(),
        "/openapi: openapi \"4.0.0\" is not read; 3.0, 3.1 and swagger 2.0 are"
    );
    let plugin_file = openapi::import(&json::parse(r#"{"name": "w"}"#).unwrap()).unwrap_err();
    assert_eq!(
        (plugin_file.kind(), plugin_file.to_string()),
        (
            ErrorKind::NotOpenApi,
            String::from(
                "not an openapi document: expected an object with an 'openapi' or 'swagger' field"
            )
        )
    );
    let empty =
        openapi::import(&json::parse(r#"{"openapi": "3.0.0", "paths": {}}"#).unwrap()).unwrap_err();
    assert_eq!(
        (empty.kind(), empty.to_string()),
        (
            ErrorKind::NoOperations,
            String::from("/paths: the document has no operations")
        )
    );
}

#[test]
fn swagger_parameters_and_bodies() {
    let d = json::parse(r##"{"swagger": "2.0", "info": {"title": "T", "version": "1"}, "host": "api.example.com",
        "paths": {"/pets": {"post": {"operationId": "add", "consumes": ["application/json"], "parameters": [
            {"name": "ids", "in": "query", "type": "array", "items": {"type": "integer"}, "collectionFormat": "pipes"},
            {"name": "body", "in": "body", "required": true, "schema": {"$ref": "#/definitions/Pet"}}]}},
          "/photo": {"post": {"operationId": "photo", "consumes": ["multipart/form-data"], "parameters": [
            {"name": "file", "in": "formData", "type": "file", "required": true},
            {"name": "note", "in": "formData", "type": "string", "maxLength": 5}]}}},
        "definitions": {"Pet": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}"##).unwrap();
    let file = import(&d).plugin().to_json();
    same(
        file["endpoints"].clone(),
        r#"[
        {"name": "add", "method": "POST", "path": "/pets", "params": [
            {"name": "ids", "in": "query", "type": "array", "items": {"type": "integer"}, "array_style": "pipe", "schema": {"type": "array", "items": {"type": "integer"}}},
            {"name": "name", "in": "body", "type": "string", "required": true}]},
        {"name": "photo", "method": "POST", "path": "/photo", "body_encoding": "multipart", "params": [
            {"name": "file", "in": "form", "type": "string", "required": true, "file": true},
            {"name": "note", "in": "form", "type": "string", "schema": {"type": "string", "maxLength": 5}}]}]"#,
    );
}

#[test]
fn external_refs_need_a_resolver() {
    let d = doc(
        r#"{"/x": {"post": {"operationId": "x", "requestBody": {"content": {"application/json": {"schema": {"$ref": "pet.json#/Pet"}}}}}}}"#,
        "{}",
    );
    let err = openapi::import(&d).unwrap_err();
    assert_eq!((err.kind(), err.to_string()), (ErrorKind::UnresolvedRef,
        String::from("/paths/~1x/post/requestBody/content/application~1json/schema/$ref: $ref 'pet.json#/Pet' points to another document, and no resolver for external references was installed")));
    struct One;
    impl openapi::RefResolver for One {
        fn resolve(&self, location: &str) -> Result<Json, String> {
            assert_eq!(location, "pet.json");
            Ok(
                httptool::json!({"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}}),
            )
        }
    }
    let i =
        openapi::import_with(&d, &ImportOptions::new().resolver(std::sync::Arc::new(One))).unwrap();
    same(
        i.plugin().to_json()["endpoints"][0]["params"].clone(),
        r#"[{"name": "name", "in": "body", "type": "string"}]"#,
    );
    let remote = doc(
        r#"{"/x": {"post": {"operationId": "x", "requestBody": {"content": {"application/json": {"schema": {"$ref": "https://example.com/pet.json#/Pet"}}}}}}}"#,
        "{}",
    );
    let err = openapi::import_with(
        &remote,
        &ImportOptions::new().resolver(std::sync::Arc::new(One)),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RemoteRef);
    assert!(err.to_string().ends_with("$ref 'https://example.com/pet.json#/Pet' points to a url; urls are never fetched (save the document and give a resolver)"));
}

/// A path item and a parameter in other documents are read through the resolver, each
/// document once under its canonical name however it is spelled, and a name that leads
/// back to the root document reads the root.
#[test]
fn path_items_and_parameters_in_other_documents_are_read_once_by_their_canonical_name() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let d = doc(
        r##"{"/a": {"$ref": "items.json#/A"}, "/b": {"$ref": "./x/../items.json#/B"}}"##,
        r#"{"parameters": {"Limit": {"name": "limit", "in": "query", "schema": {"type": "integer"}}}}"#,
    );
    struct Files(AtomicUsize);
    impl openapi::RefResolver for Files {
        fn canonical(&self, location: &str) -> Result<String, String> {
            match location {
                "root.json" => Ok(String::new()),
                "items.json" | "x/items.json" => Ok("items.json".to_string()),
                other => Err(format!("no {}", other)),
            }
        }
        fn resolve(&self, location: &str) -> Result<Json, String> {
            assert_eq!(location, "items.json");
            self.0.fetch_add(1, Ordering::Relaxed);
            json::parse(
                r##"{"A": {"get": {"operationId": "getA", "parameters": [{"$ref": "root.json#/components/parameters/Limit"}]}},
                     "B": {"get": {"operationId": "getB", "parameters": [{"$ref": "#/P"}]}},
                     "P": {"name": "page", "in": "query", "schema": {"type": "string"}}}"##,
            )
            .map_err(|e| e.to_string())
        }
    }
    let files = std::sync::Arc::new(Files(AtomicUsize::new(0)));
    let i = openapi::import_with(&d, &ImportOptions::new().resolver(files.clone())).unwrap();
    assert_eq!(files.0.load(Ordering::Relaxed), 1);
    let plugin = i.plugin().to_json();
    same(
        plugin["endpoints"][0]["params"].clone(),
        r#"[{"name": "limit", "in": "query", "type": "integer"}]"#,
    );
    same(
        plugin["endpoints"][1]["params"].clone(),
        r#"[{"name": "page", "in": "query", "type": "string"}]"#,
    );
}

// ---------------------------------------------------------------- output schemas and titles

#[test]
fn the_first_json_success_response_is_the_output_schema_without_assertions() {
    let d = doc(
        r##"{"/pets/{id}": {"get": {"operationId": "getPet", "summary": "  Find\n   a pet  ",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {
              "404": {"description": "no", "content": {"application/json": {"schema": {"type": "string"}}}},
              "201": {"$ref": "#/components/responses/Created"},
              "200": {"description": "ok", "content": {
                "application/xml": {"schema": {"type": "string"}},
                "application/json; charset=utf-8": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}}"##,
        r##"{"responses": {"Created": {"description": "made", "content": {"application/hal+json": {"schema": {"type": "object"}}}}},
            "schemas": {"Pet": {"type": "object", "required": ["id", "name"], "additionalProperties": false,
              "properties": {
                "id": {"type": "integer", "format": "int64", "minimum": 1, "readOnly": true},
                "name": {"type": "string", "description": "Its name", "pattern": "^[a-z]+$", "maxLength": 9},
                "password": {"type": "string", "writeOnly": true},
                "status": {"type": "string", "enum": ["sold", "free"], "nullable": true},
                "owner": {"oneOf": [{"$ref": "#/components/schemas/Owner"}, {"type": "string"}]},
                "tags": {"type": "array", "items": {"type": "string", "const": "x"}, "minItems": 1, "example": ["a"]}}},
              "Owner": {"type": "object", "required": ["pet"], "properties": {"pet": {"$ref": "#/components/schemas/Pet"}}}}}"##,
    );
    let i = import(&d);
    let e = i.plugin().to_json()["endpoints"][0].clone();
    assert_eq!(e["title"], Json::from("Find a pet"));
    same(
        e["output_schema"].clone(),
        r##"{"type": "object", "properties": {
            "id": {},
            "name": {"description": "Its name"},
            "status": {},
            "owner": {"anyOf": [{"properties": {"pet": {"$ref": "#/$defs/Pet"}}}, {}]},
            "tags": {"examples": [["a"]], "items": {}}},
            "$defs": {"Pet": {"properties": {"id": {}, "name": {"description": "Its name"}, "status": {},
              "owner": {"anyOf": [{"properties": {"pet": {"$ref": "#/$defs/Pet"}}}, {}]},
              "tags": {"examples": [["a"]], "items": {}}}}}}"##,
    );
    // The request side still leaves readOnly out and keeps writeOnly (and its cache is apart).
    let post = doc(
        r##"{"/pets": {"post": {"operationId": "add", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}}"##,
        r#"{"schemas": {"Pet": {"type": "object", "properties": {"id": {"type": "integer", "readOnly": true}, "password": {"type": "string", "writeOnly": true}}}}}"#,
    );
    let e = import(&post).plugin().to_json()["endpoints"][0].clone();
    same(
        e["params"].clone(),
        r#"[{"name": "password", "in": "body", "type": "string"}]"#,
    );
    same(
        e["output_schema"].clone(),
        r#"{"type": "object", "properties": {"id": {}}}"#,
    );
}

#[test]
fn a_text_json_success_response_is_an_output_schema() {
    // Regression: the response reader did not count `text/json` as JSON while the request
    // body reader did, so a document answering only `text/json` (as ASP.NET documents list
    // beside `application/json`) got no output schema. Both ask `http::media::is_json` now.
    let d = doc(
        r#"{"/x": {"get": {"operationId": "x", "responses": {"200": {"description": "ok",
            "content": {"text/plain": {"schema": {"type": "string"}},
                        "text/json": {"schema": {"type": "object"}}}}}}}}"#,
        "{}",
    );
    same(
        import(&d).plugin().to_json()["endpoints"][0]["output_schema"].clone(),
        r#"{"type": "object"}"#,
    );
}

#[test]
fn no_output_schema_without_a_json_body_for_every_success() {
    let responses = |r: &str| {
        doc(
            &format!(
                r#"{{"/x": {{"get": {{"operationId": "x", "responses": {}}}}}}}"#,
                r
            ),
            "{}",
        )
    };
    let object =
        r#"{"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}"#;
    for r in [
        format!(r#"{{"200": {}, "204": {{"description": "none"}}}}"#, object),
        String::from(
            r#"{"200": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}}}"#,
        ),
        String::from(r#"{"200": {"description": "ok", "content": {"application/json": {}}}}"#),
        format!(r#"{{"default": {}}}"#, object),
        String::from(r#"{"200": {"description": "ok"}}"#),
    ] {
        let e = import(&responses(&r)).plugin().to_json()["endpoints"][0].clone();
        assert_eq!(e.get("output_schema"), None, "{}", r);
    }
    // An array root is kept without its type: the MCP provider wraps it as {"result": ...}.
    let array = r#"{"2XX": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "integer"}}}}}}"#;
    let i = import(&responses(array));
    same(
        i.plugin().to_json()["endpoints"][0]["output_schema"].clone(),
        r#"{"items": {}}"#,
    );
    // The switch turns them off.
    let d = responses(&format!(r#"{{"200": {}}}"#, object));
    let off = openapi::import_with(&d, &ImportOptions::new().output_schemas(false)).unwrap();
    assert_eq!(
        off.plugin().to_json()["endpoints"][0].get("output_schema"),
        None
    );
    let on = import(&d);
    same(
        on.plugin().to_json()["endpoints"][0]["output_schema"].clone(),
        r#"{"type": "object"}"#,
    );
}

#[test]
fn a_large_response_schema_is_dropped_with_a_warning() {
    let props: Vec<String> = (0..400)
        .map(|i| format!(r#""field_number_{}": {{"description": "a property with a description long enough"}}"#, i))
        .collect();
    let d = doc(
        &format!(
            r#"{{"/x": {{"get": {{"operationId": "x", "responses": {{"200": {{"description": "ok", "content": {{"application/json": {{"schema": {{"type": "object", "properties": {{{}}}}}}}}}}}}}}}}}}}"#,
            props.join(",")
        ),
        "{}",
    );
    let i = import(&d);
    assert_eq!(
        i.plugin().to_json()["endpoints"][0].get("output_schema"),
        None
    );
    let w = warnings(&i);
    assert!(
        w.iter().any(|w| w == "/paths/~1x/get/responses/200/content/application~1json/schema: no output schema: the response schema is over the limit of 16384 bytes"),
        "{:?}",
        w
    );
}

#[test]
fn swagger_response_schemas_follow_produces() {
    let d = |produces: &str| {
        json::parse(&format!(r##"{{"swagger": "2.0", "info": {{"title": "T", "version": "1"}}, "host": "api.example.com", {}
        "paths": {{"/pets": {{"get": {{"operationId": "list", "summary": "List pets",
            "responses": {{"200": {{"description": "ok", "schema": {{"type": "array", "items": {{"$ref": "#/definitions/Pet"}}}}}}}}}}}}}},
        "definitions": {{"Pet": {{"type": "object", "required": ["name"], "properties": {{"name": {{"type": "string"}}, "secret": {{"type": "string", "writeOnly": true}}}}}}}}}}"##, produces)).unwrap()
    };
    let e = import(&d("")).plugin().to_json()["endpoints"][0].clone();
    assert_eq!(e["title"], Json::from("List pets"));
    same(
        e["output_schema"].clone(),
        r#"{"items": {"properties": {"name": {}}}}"#,
    );
    let json = import(&d(r#""produces": ["application/json"],"#));
    assert_eq!(
        json.plugin().to_json()["endpoints"][0]["output_schema"],
        e["output_schema"]
    );
    let xml = import(&d(r#""produces": ["application/xml"],"#));
    assert_eq!(
        xml.plugin().to_json()["endpoints"][0].get("output_schema"),
        None
    );
}

#[test]
fn long_summaries_make_capped_titles() {
    let d = doc(
        &format!(
            r#"{{"/x": {{"get": {{"operationId": "x", "summary": "{}"}}}}, "/y": {{"get": {{"operationId": "y", "summary": "   "}}}}}}"#,
            "word ".repeat(40)
        ),
        "{}",
    );
    let file = import(&d).plugin().to_json();
    let title = file["endpoints"][0]["title"].as_str().unwrap().to_string();
    assert_eq!(title.chars().count(), 80);
    assert!(title.ends_with("..."), "{}", title);
    assert_eq!(file["endpoints"][1].get("title"), None);
}

#[test]
fn operations_answering_with_one_component_share_its_output_schema_and_its_warning() {
    // The output schema of a `$ref` response is made once and reused: each operation must
    // still get it (or, when it is too large, its own warning).
    let long = "word ".repeat(100);
    let big_props: Vec<String> = (0..60)
        .map(|i| {
            format!(
                r#""f{}": {{"type": "string", "description": "{}"}}"#,
                i, long
            )
        })
        .collect();
    let components = format!(
        r#"{{"schemas": {{
            "Small": {{"type": "object", "properties": {{"id": {{"type": "string"}}}}}},
            "Big": {{"type": "object", "properties": {{{}}}}}
        }}}}"#,
        big_props.join(",")
    );
    let answer = |name: &str| {
        format!(
            r##"{{"200": {{"description": "ok", "content": {{"application/json": {{"schema": {{"$ref": "#/components/schemas/{}"}}}}}}}}}}"##,
            name
        )
    };
    let paths = format!(
        r#"{{"/a": {{"get": {{"operationId": "a", "responses": {small}}},
                   "put": {{"operationId": "b", "responses": {small}}}}},
            "/c": {{"get": {{"operationId": "c", "responses": {big}}},
                   "put": {{"operationId": "d", "responses": {big}}}}}}}"#,
        small = answer("Small"),
        big = answer("Big")
    );
    let i = import(&doc(&paths, &components));
    let file = i.plugin().to_json();
    let expected = r#"{"type": "object", "properties": {"id": {}}}"#;
    same(file["endpoints"][0]["output_schema"].clone(), expected);
    same(file["endpoints"][1]["output_schema"].clone(), expected);
    assert_eq!(file["endpoints"][2].get("output_schema"), None);
    assert_eq!(file["endpoints"][3].get("output_schema"), None);
    let too_large: Vec<String> = warnings(&i)
        .into_iter()
        .filter(|w| w.contains("over the limit of 16384"))
        .collect();
    assert_eq!(too_large.len(), 2, "{:?}", too_large);
    assert!(
        too_large[0].starts_with("/paths/~1c/get/responses/200"),
        "{:?}",
        too_large
    );
    assert!(
        too_large[1].starts_with("/paths/~1c/put/responses/200"),
        "{:?}",
        too_large
    );
}

#[test]
fn shared_components_compact_as_each_tool_alone() {
    // Every tool that refers to a component holds one shared copy of it, made compact once
    // for all of them; each must read exactly as the same tool loaded on its own from the
    // plugin file (where nothing is shared): Owner is met as array items among the
    // parameters (full descriptions) and two levels down in the body (half), and under
    // names its title repeats (left out) or does not (kept).
    let long = "Words about the thing. ".repeat(20);
    let pet = format!(
        r##"{{"type": "object", "title": "Pet", "description": "{long}",
             "properties": {{
               "name": {{"type": "string", "title": "name", "description": "{long}"}},
               "owner": {{"$ref": "#/components/schemas/Owner"}},
               "tags": {{"type": "array", "items": {{"$ref": "#/components/schemas/Owner"}}}}}}}}"##
    );
    let owner = format!(
        r#"{{"type": "object", "title": "Owner", "description": "{long}",
             "properties": {{"id": {{"type": "integer", "title": "Id", "description": "{long}"}}}}}}"#
    );
    let body = r##"{"required": true, "content": {"application/json":
                     {"schema": {"$ref": "#/components/schemas/Pet"}}}}"##;
    let ok = r##"{"200": {"description": "ok", "content": {"application/json":
                     {"schema": {"$ref": "#/components/schemas/Pet"}}}}}"##;
    let owners = r##"{"content": {"application/json": {"schema": {"type": "object",
                     "properties": {"keeper": {"$ref": "#/components/schemas/Owner"},
                                    "Owner": {"$ref": "#/components/schemas/Owner"},
                                    "pet": {"$ref": "#/components/schemas/Pet"}}}}}}"##;
    let paths = r##"{"/pets": {"post": {"operationId": "addPet", "requestBody": BODY, "responses": OK,
                                       "parameters": [{"name": "who", "in": "query", "style": "deepObject",
                                                       "schema": {"$ref": "#/components/schemas/Owner"}},
                                                      {"name": "owners", "in": "query",
                                                       "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Owner"}}}]},
                              "put": {"operationId": "putPet", "requestBody": BODY, "responses": OK}},
                    "/owners": {"post": {"operationId": "addOwner", "requestBody": OWNERS, "responses": OK}}}"##
        .replace("BODY", body)
        .replace("OWNERS", owners)
        .replace("OK", ok);
    let components = format!(r#"{{"schemas": {{"Pet": {pet}, "Owner": {owner}}}}}"#);
    let imported = import(&doc(&paths, &components));
    let file = imported.plugin().to_json().to_string();
    let alone = HttpPlugin::from_json_with(&file, |_| Some(String::new())).unwrap();
    let (shared, alone) = (imported.plugin().specs(), alone.specs());
    assert_eq!(shared.len(), 3);
    for (a, b) in shared.iter().zip(&alone) {
        assert_eq!(a.parameters(), b.parameters(), "{}", a.name());
        assert_eq!(a.output_schema(), b.output_schema(), "{}", a.name());
    }
    // The component was made compact: its description is cut.
    let text = shared[0].parameters().to_string();
    assert!(text.contains("owner") && !text.contains(&long), "{}", text);
}

#[test]
fn parameter_content_is_json_by_the_http_media_rule() {
    let with = |media: &str| {
        let d = doc(
            &format!(
                r#"{{"/a": {{"get": {{"operationId": "a", "parameters": [{{"name": "f",
                    "in": "query", "content": {{"{}": {{"schema": {{"type": "object"}}}}}}}}]}}}}}}"#,
                media
            ),
            "{}",
        );
        let import = openapi::import(&d).unwrap();
        import
            .warnings()
            .iter()
            .map(|w| w.message().to_string())
            .collect::<Vec<_>>()
    };
    // JSON, as `http::media::is_json` reads it: no warning.
    for media in ["application/json", "application/problem+json", "text/json"] {
        assert!(with(media).is_empty(), "{}: {:?}", media, with(media));
    }
    // Names that hold "json" but are not one JSON document are sent as JSON text, said so.
    for media in ["application/x-ndjson", "application/jsonl"] {
        assert_eq!(
            with(media),
            [format!(
                "parameter content '{}' is sent as JSON text",
                media
            )],
            "{}",
            media
        );
    }
}

#[test]
fn a_component_holding_a_read_only_one_differs_between_request_and_response() {
    // A component converted for requests is reused for responses only when no `readOnly` or
    // `writeOnly` property is met inside it, also through a component already converted
    // (Inner is met first alone, then again, from the cache, inside Outer).
    let d = doc(
        r##"{"/inner": {"post": {"operationId": "addInner", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Inner"}}}},
                "responses": {"204": {"description": "ok"}}}},
            "/outer": {"post": {"operationId": "addOuter", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Outer"}}}},
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Outer"}}}}}}}}"##,
        r##"{"schemas": {
            "Inner": {"type": "object", "properties": {"id": {"type": "string", "readOnly": true}, "name": {"type": "string"}}},
            "Outer": {"type": "object", "properties": {"inner": {"$ref": "#/components/schemas/Inner"}, "note": {"type": "string"}}}}}"##,
    );
    let file = import(&d).plugin().to_json();
    let e = file["endpoints"][1].clone();
    assert_eq!(e["name"], Json::from("addOuter"));
    // Inner is shared: a `$ref` into the plugin's `$defs` (the request's side).
    let inner = file["$defs"]["Inner"].clone();
    assert!(
        inner.pointer("/properties/name").is_some() && inner.pointer("/properties/id").is_none(),
        "the request leaves id out: {}",
        inner
    );
    let output = &e["output_schema"];
    assert_eq!(
        output.pointer("/properties/inner/$ref"),
        Some(&Json::from("#/$defs/Inner"))
    );
    assert!(
        output.pointer("/$defs/Inner/properties/id").is_some(),
        "the response keeps id: {}",
        output
    );
}
