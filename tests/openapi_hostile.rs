//! Hostile documents: `$ref` loops, missing targets, references fanning out exponentially,
//! 10,000-deep nesting, 100 MB strings, names colliding after sanitising. Each ends in a
//! clear error or warning, never a panic, with bounded work.

use httptool::json::{self, Json, Map};
use httptool::openapi::{self, ErrorKind, ImportOptions};

fn doc_with(schemas: Map, body_ref: &str) -> Json {
    let mut d = json::parse(&format!(
        r##"{{"openapi": "3.1.0", "info": {{"title": "T", "version": "1"}}, "servers": [{{"url": "https://a.example.com"}}],
            "paths": {{"/x": {{"post": {{"operationId": "x", "requestBody": {{"content": {{"application/json": {{"schema": {{"$ref": "{}"}}}}}}}}}}}}}}}}"##,
        body_ref
    ))
    .unwrap();
    let mut components = Map::new();
    components.insert("schemas", schemas);
    d.as_object_mut().unwrap().insert("components", components);
    d
}

#[test]
fn ref_loops_stay_refs_and_alias_cycles_read_as_any_value() {
    let mut schemas = Map::new();
    schemas.insert("A", httptool::json!({"$ref": "#/components/schemas/B"}));
    schemas.insert("B", httptool::json!({"$ref": "#/components/schemas/A"}));
    schemas.insert("Self", httptool::json!({"type": "object", "properties": {"me": {"$ref": "#/components/schemas/Self"}, "a": {"$ref": "#/components/schemas/A"}}}));
    let import = openapi::import(&doc_with(schemas, "#/components/schemas/Self")).unwrap();
    let file = import.plugin().to_json();
    let self_schema = httptool::json!({"type": "object", "properties": {"me": {"$ref": "#/$defs/Self"}, "a": {}}});
    assert_eq!(
        file["endpoints"][0]["params"],
        httptool::json!([
        {"name": "me", "in": "body", "type": "object", "schema": {"$ref": "#/$defs/Self", "type": "object"}},
        {"name": "a", "in": "body", "type": "any"}])
    );
    assert_eq!(file["$defs"], httptool::json!({"Self": self_schema}));
    assert!(import
        .warnings()
        .iter()
        .any(|w| w.message() == "a cycle of $refs that names no schema: read as any value"));
}

#[test]
fn a_missing_target_is_an_error_or_a_skipped_operation() {
    let d = doc_with(Map::new(), "#/components/schemas/Gone");
    let err = openapi::import_with(&d, &ImportOptions::new().strict(true)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnresolvedRef);
    assert_eq!(
        err.to_string(),
        "/paths/~1x/post/requestBody/content/application~1json/schema/$ref: $ref '#/components/schemas/Gone' points to nothing in the document"
    );
    // By default the operation is left out with a warning; nothing else is left: the
    // import fails with the reason the operation was left out.
    let err = openapi::import(&d).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnresolvedRef);
    let mut two = d.clone();
    two.pointer_mut("/paths")
        .and_then(Json::as_object_mut)
        .unwrap()
        .insert("/y", httptool::json!({"get": {"operationId": "y"}}));
    let import =
        openapi::import_with(&two, &ImportOptions::new().skip_failing_operations(true)).unwrap();
    assert_eq!(import.tools().len(), 1);
    assert_eq!(
        import.warnings()[0].to_string(),
        "/paths/~1x/post: POST /x (x) not imported: /paths/~1x/post/requestBody/content/application~1json/schema/$ref: $ref '#/components/schemas/Gone' points to nothing in the document"
    );
}

#[test]
fn exponential_fan_out_costs_its_size() {
    // L0 holds two L1s, each two L2s, ...: 2^40 nodes once inlined, 41 entries as `$defs`.
    let mut schemas = Map::new();
    for i in 0..40 {
        let next = format!("#/components/schemas/L{}", i + 1);
        schemas.insert(
            format!("L{}", i),
            httptool::json!({"type": "object", "properties": {"a": {"$ref": next.clone()}, "b": {"$ref": next}}}),
        );
    }
    schemas.insert("L40", httptool::json!({"type": "string"}));
    let import = openapi::import(&doc_with(schemas, "#/components/schemas/L0")).unwrap();
    let file = import.plugin().to_json();
    assert_eq!(file["$defs"].as_object().unwrap().len(), 40);
    let spec = &import.plugin().specs()[0];
    assert_eq!(spec.parameters()["$defs"].as_object().unwrap().len(), 40);
    assert!(spec.parameters().to_string().len() < 10_000);
}

#[test]
fn ten_thousand_levels_of_nesting_are_cut() {
    let mut schema = httptool::json!({"type": "string"});
    for _ in 0..10_000 {
        let mut props = Map::new();
        props.insert("n", schema);
        let mut object = Map::new();
        object.insert("type", "object");
        object.insert("properties", props);
        schema = Json::Object(object);
    }
    let mut schemas = Map::new();
    schemas.insert("Deep", schema);
    let import = openapi::import(&doc_with(schemas, "#/components/schemas/Deep")).unwrap();
    assert!(import
        .warnings()
        .iter()
        .any(|w| w.message() == "schema nested deeper than 24 levels: cut there"));
    let text = import.plugin().to_json().to_string();
    assert!(text.contains("(nested deeper than 24 levels; not described further)"));
}

#[test]
fn hundred_megabyte_strings_are_capped() {
    let huge = "x".repeat(100 * 1024 * 1024);
    let mut d = json::parse(r#"{"openapi": "3.0.0", "info": {"title": "T", "version": "1"}, "servers": [{"url": "https://a.example.com"}],
        "paths": {"/x": {"get": {"parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}]}}}}"#).unwrap();
    {
        let map = d
            .pointer_mut("/paths/~1x/get")
            .and_then(Json::as_object_mut)
            .unwrap();
        map.insert("operationId", huge.as_str());
        map.insert("description", huge.as_str());
    }
    d.pointer_mut("/paths/~1x/get/parameters/0")
        .and_then(Json::as_object_mut)
        .unwrap()
        .insert("description", huge.as_str());
    drop(huge);
    let import = openapi::import(&d).unwrap();
    let figure = &import.tools()[0];
    assert_eq!(figure.name.len(), 64);
    assert!(figure.description_bytes <= 1024);
    assert!(figure.schema_bytes < 1024, "{}", figure.schema_bytes);
    // The warning quotes the operationId cut short, not whole.
    assert!(import.warnings().iter().all(|w| w.message().len() < 400));
}

#[test]
fn names_colliding_after_sanitising_stay_apart() {
    let d = json::parse(r#"{"openapi": "3.0.0", "info": {"title": "T", "version": "1"}, "servers": [{"url": "https://a.example.com"}],
        "paths": {"/a": {"get": {"operationId": "get.a"}, "put": {"operationId": "get a"}, "post": {"operationId": "get/a"},
                          "delete": {"operationId": "get_a", "parameters": [
                            {"name": "id[]", "in": "query"}, {"name": "id()", "in": "query"}, {"name": "id", "in": "header"}]}}}}"#).unwrap();
    let import = openapi::import(&d).unwrap();
    let names: Vec<&str> = import.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["get_a", "get_a_2", "get_a_3", "get_a_4"]);
    let params = import.plugin().to_json()["endpoints"][3]["params"].clone();
    let pairs: Vec<(String, String)> = params
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p.get("wire_name")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [
            (String::from("id"), String::from("id[]")),
            (String::from("id_query"), String::from("id()")),
            (String::from("id_header"), String::from("id")),
        ]
    );
}

#[test]
fn not_an_object_anywhere_is_no_panic() {
    for text in [
        "null",
        "[]",
        r#"{"openapi": 3}"#,
        r#"{"openapi": "3.0.0", "paths": []}"#,
        r#"{"openapi": "3.0.0", "paths": {"/x": 1}}"#,
        r#"{"openapi": "3.0.0", "paths": {"/x": {"get": 1}}}"#,
        r#"{"openapi": "3.0.0", "paths": {"/x": {"get": {"parameters": 1, "requestBody": []}}}}"#,
        r#"{"openapi": "3.0.0", "paths": {"/x": {"get": {"parameters": [1, {"$ref": 2}, {"in": "query"}]}}}}"#,
        r#"{"openapi": "3.0.0", "servers": [{"url": "{a"}], "paths": {"/x": {"get": {}}}}"#,
        r#"{"openapi": "3.0.0", "paths": {"/{a}/{a}": {"get": {}}}}"#,
        r##"{"openapi": "3.0.0", "paths": {"x y/../z": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#"}}}}}}}}"##,
    ] {
        let d = json::parse(text).unwrap();
        let _ = openapi::import(&d).map(|i| i.plugin().to_json());
    }
}

/// A request body schema of `n` string properties `p0`..., the even ones required.
fn wide_body_doc(n: usize) -> Json {
    // Collected, not inserted one by one: `Map::insert` scans the keys.
    let properties: Map = (0..n)
        .map(|i| (format!("p{}", i), httptool::json!({"type": "string"})))
        .collect();
    let required: Vec<Json> = (0..n)
        .step_by(2)
        .map(|i| Json::from(format!("p{}", i)))
        .collect();
    let mut schemas = Map::new();
    schemas.insert(
        "Wide",
        httptool::json!({"type": "object", "properties": properties, "required": required}),
    );
    let mut d = doc_with(schemas, "#/components/schemas/Wide");
    d.pointer_mut("/paths/~1x/post/requestBody")
        .and_then(Json::as_object_mut)
        .unwrap()
        .insert("required", true);
    d
}

#[test]
fn an_object_with_ten_thousand_properties_imports_in_linear_time() {
    // Each property (and each required name, and each parameter name) was looked up with a
    // scan of those before it: quadratic, 20,000 took 2 s in release and grew fourfold.
    let n = 10_000;
    let import = openapi::import(&wide_body_doc(n)).unwrap();
    let endpoint = import.plugin().endpoint("x").unwrap();
    let params = endpoint.params();
    assert_eq!(params.len(), n);
    for (i, p) in params.iter().enumerate() {
        assert_eq!(p.name(), format!("p{}", i));
        assert_eq!(p.is_required(), i % 2 == 0, "{}", p.name());
    }
}

#[test]
fn ten_thousand_parameters_import_in_linear_time_and_the_operation_wins() {
    // Each parameter removed any earlier one of its name and location with a pass over the
    // list: quadratic, 8,000 took 9 s in release.
    let n = 10_000;
    let list = |prefix: &str, description: &str| -> Vec<Json> {
        (0..n)
            .map(|i| {
                httptool::json!({"name": format!("{}{}", prefix, i), "in": "query",
                    "description": description, "schema": {"type": "string"}})
            })
            .collect()
    };
    let mut item_params = list("q", "path item");
    item_params.push(httptool::json!({"name": "shared", "in": "query", "description": "path item", "schema": {"type": "string"}}));
    let mut op_params = list("r", "operation");
    op_params.push(httptool::json!({"name": "shared", "in": "query", "description": "operation", "schema": {"type": "string"}}));
    let d = httptool::json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "servers": [{"url": "https://a.example.com"}],
        "paths": {"/x": {"parameters": item_params,
            "get": {"operationId": "x", "parameters": op_params}}}});
    let import = openapi::import(&d).unwrap();
    let params = import.plugin().endpoint("x").unwrap().params();
    assert_eq!(params.len(), 2 * n + 1);
    for i in 0..n {
        assert_eq!(params[i].name(), format!("q{}", i));
        assert_eq!(params[n + i].name(), format!("r{}", i));
    }
    // The operation's `shared` replaced the path item's and took the last place.
    assert_eq!(params[2 * n].name(), "shared");
    assert_eq!(params[2 * n].description(), "operation");
}

#[test]
fn five_thousand_operations_sharing_one_operation_id_are_named_in_linear_time() {
    // Each collision tried `_2`, `_3`, ... from the start: quadratic, 8,000 took 26 s.
    let n = 5_000;
    let mut paths: Vec<(String, Json)> = vec![(
        String::from("/first"),
        httptool::json!({"get": {"operationId": "op_3"}}),
    )];
    paths.extend((0..n).map(|i| {
        (
            format!("/x{}", i),
            httptool::json!({"get": {"operationId": "op"}}),
        )
    }));
    let paths: Map = paths.into_iter().collect();
    let d = httptool::json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "servers": [{"url": "https://a.example.com"}], "paths": paths});
    let import = openapi::import(&d).unwrap();
    let names: Vec<&str> = import.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names.len(), n + 1);
    // `op_3` was taken first, so the colliding ones skip it; no name is used twice.
    assert_eq!(names[..5], ["op_3", "op", "op_2", "op_4", "op_5"]);
    assert_eq!(names[n], format!("op_{}", n + 1));
    let distinct: std::collections::HashSet<&str> = names.iter().copied().collect();
    assert_eq!(distinct.len(), n + 1);
}

#[test]
fn ten_thousand_all_of_branches_merge_in_linear_time() {
    // Each branch's properties and required names were merged with a scan of everything the
    // earlier branches gave: quadratic.
    let n = 10_000;
    let mut branches: Vec<Json> = (0..n)
        .map(|i| {
            httptool::json!({"type": "object", "properties": {(format!("p{}", i)): {"type": "string"}},
                "required": [(format!("p{}", i)), "p0"]})
        })
        .collect();
    // A later branch's `p1` replaces the first one's in its place.
    branches.push(httptool::json!({"properties": {"p1": {"type": "integer"}}}));
    let mut schemas = Map::new();
    schemas.insert("All", httptool::json!({"allOf": branches}));
    let mut d = doc_with(schemas, "#/components/schemas/All");
    d.pointer_mut("/paths/~1x/post/requestBody")
        .and_then(Json::as_object_mut)
        .unwrap()
        .insert("required", true);
    let import = openapi::import(&d).unwrap();
    let params = import.plugin().endpoint("x").unwrap().params();
    assert_eq!(params.len(), n);
    for (i, p) in params.iter().enumerate() {
        assert_eq!(p.name(), format!("p{}", i));
        assert!(p.is_required(), "{}", p.name());
    }
    assert_eq!(
        import.plugin().to_json()["endpoints"][0]["params"][1]["type"].as_str(),
        Some("integer")
    );
}

#[test]
fn a_path_with_twenty_thousand_placeholders_imports_in_linear_time() {
    // Each placeholder was looked up in the parameter list and each parameter in the list
    // of placeholders, and each missing one got a warning holding the operation's pointer,
    // which holds the whole path: quadratic, 8,000 took 2.5 s in release.
    let n = 20_000;
    let path: String = (0..n).map(|i| format!("/{{p{}}}", i)).collect();
    let mut paths = Map::new();
    paths.insert(
        path.as_str(),
        httptool::json!({"get": {"operationId": "x", "parameters": [
            {"name": "p0", "in": "path", "required": true, "schema": {"type": "integer"}},
            {"name": "gone", "in": "path", "required": true, "schema": {"type": "string"}},
            {"name": "also_gone", "in": "path", "required": true, "schema": {"type": "string"}}
        ]}}),
    );
    let d = httptool::json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "servers": [{"url": "https://a.example.com"}], "paths": paths});
    let import = openapi::import(&d).unwrap();
    let params = import.plugin().endpoint("x").unwrap().params();
    assert_eq!(params.len(), n);
    for (i, p) in params.iter().enumerate() {
        assert_eq!(p.name(), format!("p{}", i));
        assert!(p.is_required(), "{}", p.name());
    }
    // The declared one keeps its type; the added ones are strings.
    let json = import.plugin().to_json();
    assert_eq!(
        json["endpoints"][0]["params"][0]["type"].as_str(),
        Some("integer")
    );
    assert_eq!(
        json["endpoints"][0]["params"][1]["type"].as_str(),
        Some("string")
    );
    // One warning of each kind for the operation, not one a placeholder.
    let messages: Vec<&str> = import.warnings().iter().map(|w| w.message()).collect();
    assert_eq!(
        messages.len(),
        2,
        "{:?}",
        &messages[..messages.len().min(3)]
    );
    assert_eq!(
        messages[0],
        "path parameters 'gone', 'also_gone' have no placeholder in the path: not imported"
    );
    assert!(
        messages[1].starts_with("{p1}, {p2}, {p3}, "),
        "{}",
        &messages[1][..40]
    );
    assert!(
        messages[1]
            .ends_with(", {p19999} in the path have no parameter: imported as required strings"),
        "{}",
        &messages[1][messages[1].len() - 80..]
    );
}

#[test]
fn a_deep_example_in_a_deep_schema_no_longer_makes_the_plugin_refuse_the_import() {
    // Schema depth (at most 28) and example depth (at most 32) were bounded apart, and
    // together they passed the plugin's bound of 64 JSON levels: a 20-level schema with a
    // 32-level example failed the whole import with "the schema nests deeper than 64 levels".
    let nested = |levels: usize| {
        let mut value = Json::from(1);
        for _ in 0..levels {
            value = Json::Array(vec![value]);
        }
        value
    };
    for (levels, example_levels) in [(20, 32), (40, 15), (40, 14)] {
        let example = nested(example_levels);
        let mut schema = httptool::json!({"type": "array", "example": example.clone(), "enum": [example.clone()]});
        for i in 0..levels {
            schema = if i % 2 == 0 {
                httptool::json!({"anyOf": [schema, {"type": "string"}], "example": example.clone()})
            } else {
                let mut props = Map::new();
                props.insert("n", schema);
                httptool::json!({"type": "object", "properties": props, "default": example.clone()})
            };
        }
        let mut schemas = Map::new();
        schemas.insert("Deep", schema);
        let d = doc_with(schemas, "#/components/schemas/Deep");
        let options = ImportOptions::new().max_schema_depth(1_000);
        let import = openapi::import_with(&d, &options)
            .unwrap_or_else(|e| panic!("{} levels, example {}: {}", levels, example_levels, e));
        let text = import.plugin().to_json().to_string();
        httptool::plugin::HttpPlugin::from_json(&text).unwrap();
        // Asking for more than the plugin can hold is held to what it can.
        assert_eq!(
            import
                .warnings()
                .iter()
                .any(|w| w.message() == "schema nested deeper than 24 levels: cut there"),
            levels > 24,
            "{} levels",
            levels
        );
        // An example of 15 levels is kept; a deeper one is left out.
        assert_eq!(
            text.contains(&nested(example_levels).to_string()),
            example_levels <= 15,
            "{} levels, example {}",
            levels,
            example_levels
        );
    }
}

/// Found by `fuzz/` target `openapi` (CI's 15 s smoke run, 2026-12-02): a media-type key
/// holding line breaks (`"appli\n\niojn/son"`, from a YAML flow key) put them into the error's
/// JSON Pointer, and the error's one line became three. A control character in a pointer
/// or a message is now escaped when shown; `pointer()` still gives the RFC 6901 pointer.
#[test]
fn a_line_break_in_a_key_is_escaped_in_the_error_and_the_warnings() {
    let document = httptool::json::parse(
        r##"{"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "paths": {"/pets": {"get": {"operationId": "getPets",
          "responses": {"200": {"description": "ok"}}},
          "put": {"operationId": "putPet",
          "requestBody": {"content": {"appli\n\ncation/json":
            {"schema": {"$ref": "#/components/schemas/Pe\rt"}}}},
          "responses": {"200": {"description": "ok"}}}}}}"##,
    )
    .unwrap();
    let strict = httptool::openapi::ImportOptions::new().strict(true);
    let err = httptool::openapi::import_with(&document, &strict).unwrap_err();
    assert_eq!(
        err.to_string(),
        "/paths/~1pets/put/requestBody/content/appli\\n\\ncation~1json/schema/$ref: \
         $ref '#/components/schemas/Pe\\rt' points to nothing in the document"
    );
    assert!(err.pointer().contains("appli\n\ncation"));
    let skipped = httptool::openapi::import_with(
        &document,
        &httptool::openapi::ImportOptions::new().skip_failing_operations(true),
    );
    let warnings: Vec<String> = skipped
        .unwrap()
        .warnings()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        warnings.iter().any(|w| w.starts_with(
            "/paths/~1pets/put: PUT /pets (putPet) not imported: /paths/~1pets/put/requestBody/content/appli\\n"
        )),
        "{:?}",
        warnings
    );
    assert!(warnings.iter().all(|w| !w.contains('\n')), "{:?}", warnings);
}
