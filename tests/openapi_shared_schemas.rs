//! Shared and recursive components: each converted once, kept a `$ref` into `$defs` (JSON
//! Schema 2020-12), written once in the plugin file, and in each tool's schema only as far as
//! the tool reaches. Chains of 10,000 `$ref`s import on a 2 MiB thread; cost grows linearly
//! with operations; providers that cannot follow a `$ref` get none.

use std::time::Instant;

use httptool::json::{self, Json, Map};
use httptool::openapi::{self, ImportOptions};
use httptool::plugin::HttpPlugin;
use httptool::tool::{gemini, ToolCall, ToolRegistry};

/// A document with `schemas` as its components and `paths` as they are.
fn document(schemas: Map, paths: Json) -> Json {
    let mut doc = httptool::json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
        "servers": [{"url": "https://a.example.com"}]});
    let mut components = Map::new();
    components.insert("schemas", schemas);
    let map = doc.as_object_mut().unwrap();
    map.insert("paths", paths);
    map.insert("components", components);
    doc
}

/// `POST /{name}` with a JSON body of `body`, answering 200 with `answer` when given.
fn post(name: &str, body: Json, answer: Option<Json>) -> (String, Json) {
    let mut op = httptool::json!({"operationId": name,
        "requestBody": {"content": {"application/json": {"schema": body}}}});
    if let Some(answer) = answer {
        op.as_object_mut().unwrap().insert(
            "responses",
            httptool::json!({"200": {"description": "ok", "content": {"application/json": {"schema": answer}}}}),
        );
    }
    let mut item = Map::new();
    item.insert("post", op);
    (format!("/{}", name), Json::Object(item))
}

fn paths(items: Vec<(String, Json)>) -> Json {
    Json::Object(items.into_iter().collect())
}

fn reference(name: &str) -> Json {
    httptool::json!({"$ref": format!("#/components/schemas/{}", name)})
}

/// Every `$ref` in `value`, walked with a stack.
fn refs_in(value: &Json) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Json::Object(map) => {
                if let Some(r) = map.get("$ref").and_then(Json::as_str) {
                    found.push(r.to_string());
                }
                stack.extend(map.values());
            }
            Json::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
    found
}

#[test]
fn a_recursive_component_stays_a_ref_into_the_tool_schemas_defs() {
    let mut schemas = Map::new();
    schemas.insert(
        "Node",
        httptool::json!({"type": "object", "properties": {"name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}),
    );
    let body = httptool::json!({"type": "object", "properties": {"root": reference("Node")}});
    let doc = document(schemas, paths(vec![post("tree", body, None)]));
    let import = openapi::import(&doc).unwrap();
    let spec = &import.plugin().specs()[0];
    let node = httptool::json!({"type": "object", "properties": {"name": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}});
    assert_eq!(
        spec.parameters()["$defs"],
        httptool::json!({ "Node": node })
    );
    assert_eq!(
        spec.parameters()["properties"]["root"],
        httptool::json!({"$ref": "#/$defs/Node", "type": "object"})
    );
    // Arguments are checked through the `$ref`, at any depth the value has.
    let mut registry = ToolRegistry::new();
    registry.add_plugin(import.plugin()).unwrap();
    let bad = r#"{"root": {"name": "a", "children": [{"name": "b", "children": [{"name": 3}]}]}}"#;
    let out = registry.call(&ToolCall::new("1", "tree", bad));
    assert!(out.is_error());
    assert!(
        out.text().contains("must be of type string"),
        "{}",
        out.text()
    );
}

#[test]
fn a_shared_component_is_converted_once_and_written_once() {
    let mut schemas = Map::new();
    schemas.insert(
        "Address",
        httptool::json!({"type": "object", "properties": {"street": {"type": "string"},
            "city": {"type": "string", "description": "The city."}}, "required": ["city"]}),
    );
    schemas.insert(
        "Unused",
        httptool::json!({"type": "object", "properties": {"x": {"type": "integer"}}}),
    );
    let both = httptool::json!({"type": "object", "properties": {
        "billing": reference("Address"), "shipping": reference("Address")}});
    let one = httptool::json!({"type": "object", "properties": {"home": reference("Address")}});
    let plain = httptool::json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    let doc = document(
        schemas,
        paths(vec![
            post("order", both, None),
            post("move", one, None),
            post("count", plain, None),
        ]),
    );
    let import = openapi::import(&doc).unwrap();
    let file = import.plugin().to_json();
    let address = httptool::json!({"type": "object", "properties": {"street": {"type": "string"},
        "city": {"type": "string", "description": "The city."}}, "required": ["city"]});
    // Once in the file, for every tool.
    assert_eq!(
        file["$defs"],
        httptool::json!({ "Address": address.clone() })
    );
    let specs = import.plugin().specs();
    // What the model reads is compact: an entry keeps no description (it is met at any
    // depth), and every name, type and required list.
    let compact = httptool::json!({"type": "object", "properties": {"street": {"type": "string"},
        "city": {"type": "string"}}, "required": ["city"]});
    assert_eq!(
        specs[0].parameters()["$defs"],
        httptool::json!({ "Address": compact.clone() })
    );
    assert!(refs_in(specs[0].parameters())
        .iter()
        .all(|r| r == "#/$defs/Address"));
    // A tool that uses the entry once reads it in place.
    assert!(specs[1].parameters().get("$defs").is_none());
    assert_eq!(specs[1].parameters()["properties"]["home"], compact);
    // A tool that reaches no entry gets none.
    assert!(specs[2].parameters().get("$defs").is_none());
    // The plugin file reads back the same.
    let again = HttpPlugin::from_json(&file.to_string()).unwrap();
    assert_eq!(again.to_json(), file);
    let specs_again = again.specs();
    assert_eq!(specs_again[0].parameters(), specs[0].parameters());
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&again).unwrap();
    let out = registry.call(&ToolCall::new(
        "1",
        "order",
        r#"{"billing": {"street": "x"}}"#,
    ));
    assert!(out.is_error());
    assert!(out.text().contains("city"), "{}", out.text());
}

/// A chain of `n` components, each leading to the next as `link` writes it, ending in an
/// object with one string property.
fn chain(n: usize, link: &dyn Fn(&str) -> Json) -> Map {
    let mut schemas = Map::new();
    for i in 0..n {
        schemas.insert(
            format!("C{}", i),
            link(&format!("#/components/schemas/C{}", i + 1)),
        );
    }
    schemas.insert(
        format!("C{}", n),
        httptool::json!({"type": "object", "properties": {"end": {"type": "string"}}}),
    );
    schemas
}

/// Imports `doc` and renders every tool for every provider on a thread with a 2 MiB stack.
fn import_on_small_stack(doc: Json) -> (usize, usize) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let import = openapi::import_with(&doc, &ImportOptions::new()).unwrap();
            let plugin = import.plugin();
            let text = plugin.to_json().to_string();
            let again = HttpPlugin::from_json(&text).unwrap();
            let specs = again.specs();
            for spec in &specs {
                let declaration = gemini::function_declaration(spec);
                assert!(refs_in(&declaration).is_empty());
                let _ = httptool::tool::mcp::tool(spec).to_string();
            }
            let mut registry = ToolRegistry::new();
            registry.add_plugin(&again).unwrap();
            let out = registry.call(&ToolCall::new("1", "op", r#"{"body": {"end": 1}}"#));
            let _ = out.text().len();
            (specs.len(), text.len())
        })
        .unwrap()
        .join()
        .unwrap()
}

const LINKS: usize = 10_000;

#[test]
fn ten_thousand_refs_in_a_chain_import_on_a_small_stack() {
    let schemas = chain(LINKS, &|next| httptool::json!({ "$ref": next }));
    let body = httptool::json!({"type": "object", "properties": {"body": reference("C0")}});
    let (tools, bytes) =
        import_on_small_stack(document(schemas, paths(vec![post("op", body, None)])));
    assert_eq!(tools, 1);
    assert!(bytes < 10_000, "{} bytes", bytes);
}

#[test]
fn ten_thousand_refs_with_a_sibling_keyword_import_on_a_small_stack() {
    let schemas = chain(
        LINKS,
        &|next| httptool::json!({"$ref": next, "description": "a link"}),
    );
    let body = httptool::json!({"type": "object", "properties": {"body": reference("C0")}});
    let (tools, _) = import_on_small_stack(document(schemas, paths(vec![post("op", body, None)])));
    assert_eq!(tools, 1);
}

#[test]
fn ten_thousand_all_of_refs_in_a_chain_import_on_a_small_stack() {
    let schemas = chain(
        LINKS,
        &|next| httptool::json!({"allOf": [{ "$ref": next }], "description": "a link"}),
    );
    let body = httptool::json!({"type": "object", "properties": {"body": reference("C0")}});
    let (tools, _) = import_on_small_stack(document(schemas, paths(vec![post("op", body, None)])));
    assert_eq!(tools, 1);
}

#[test]
fn ten_thousand_nested_refs_in_a_chain_import_on_a_small_stack() {
    // Each link an object whose property is the next link: depth of data, not of aliases.
    let schemas = chain(
        LINKS,
        &|next| httptool::json!({"type": "object", "properties": {"next": { "$ref": next }}}),
    );
    let body = httptool::json!({"type": "object", "properties": {"body": reference("C0")}});
    let (tools, _) = import_on_small_stack(document(schemas, paths(vec![post("op", body, None)])));
    assert_eq!(tools, 1);
}

#[test]
fn ten_thousand_refs_in_a_response_schema_import_on_a_small_stack() {
    let schemas = chain(
        LINKS,
        &|next| httptool::json!({"allOf": [{ "$ref": next }, {"properties": {"x": {"$ref": next}}}]}),
    );
    let body = httptool::json!({"type": "object", "properties": {"body": {"type": "object"}}});
    let doc = document(
        schemas,
        paths(vec![post("op", body, Some(reference("C0")))]),
    );
    let (tools, _) = import_on_small_stack(doc);
    assert_eq!(tools, 1);
}

/// `n` operations whose bodies hold one shared schema of `properties` properties (and
/// answer with it), as the plugin file's text.
fn shared_by(n: usize, properties: usize) -> Json {
    let mut big = Map::new();
    for i in 0..properties {
        big.insert(
            format!("field_{}", i),
            httptool::json!({"type": "string", "description": "One of many fields of the shared schema."}),
        );
    }
    let mut schemas = Map::new();
    schemas.insert(
        "Big",
        httptool::json!({"type": "object", "properties": Json::Object(big)}),
    );
    let items = (0..n)
        .map(|i| {
            let body = httptool::json!({"type": "object", "properties": {
                "payload": reference("Big"), "note": {"type": "string"}}});
            post(&format!("op{}", i), body, Some(reference("Big")))
        })
        .collect();
    document(schemas, paths(items))
}

#[test]
fn operations_sharing_one_large_schema_cost_linear_time_and_output() {
    let measure = |n: usize| {
        let doc = shared_by(n, 2_000);
        let started = Instant::now();
        let import = openapi::import(&doc).unwrap();
        let text = import.plugin().to_json().to_string();
        (started.elapsed(), text.len(), json::parse(&text).is_ok())
    };
    let (small_time, small, ok_small) = measure(400);
    let (large_time, large, ok_large) = measure(800);
    assert!(ok_small && ok_large);
    let ratio = large as f64 / small as f64;
    assert!(ratio < 2.5, "output {} then {} bytes", small, large);
    // The shared schema is written once: the file is far smaller than 400 copies of it.
    assert!(small < 2_000 * 60 * 4, "{} bytes", small);
    let time_ratio = large_time.as_secs_f64() / small_time.as_secs_f64().max(1e-3);
    assert!(time_ratio < 4.0, "{:?} then {:?}", small_time, large_time);
}

#[test]
fn gemini_declarations_have_no_ref_and_say_where_a_recursive_one_was_cut() {
    let mut schemas = Map::new();
    schemas.insert(
        "Node",
        httptool::json!({"type": "object", "properties": {"name": {"type": "string"},
            "next": {"$ref": "#/components/schemas/Node"}}}),
    );
    schemas.insert(
        "Tag",
        httptool::json!({"type": "object", "properties": {"label": {"type": "string"}}}),
    );
    let body = httptool::json!({"type": "object", "properties": {"node": reference("Node"),
        "a": reference("Tag"), "b": reference("Tag")}});
    let doc = document(schemas, paths(vec![post("op", body, None)]));
    let import = openapi::import(&doc).unwrap();
    let spec = &import.plugin().specs()[0];
    assert!(!refs_in(spec.parameters()).is_empty());
    let declaration = gemini::function_declaration(spec);
    assert!(refs_in(&declaration).is_empty(), "{}", declaration);
    assert!(declaration
        .get("parameters")
        .unwrap()
        .get("$defs")
        .is_none());
    let parameters = &declaration["parameters"]["properties"];
    assert_eq!(
        parameters["a"]["properties"]["label"]["type"],
        httptool::json!("STRING")
    );
    assert!(
        declaration.to_string().contains("another Node"),
        "{}",
        declaration
    );
}

#[test]
fn an_import_that_takes_the_document_makes_what_one_that_borrows_it_makes() {
    // Enough operations for several threads, a component shared by all, and warnings.
    let mut doc = shared_by(200, 40);
    let paths = doc.get_mut("paths").and_then(Json::as_object_mut).unwrap();
    paths.insert(
        "/odd",
        httptool::json!({"get": {"operationId": "odd/name", "deprecated": true}}),
    );
    for threads in [1, 2, 4] {
        let options = ImportOptions::new()
            .threads(threads)
            .include_deprecated(true);
        let borrowed = openapi::import_with(&doc, &options).unwrap();
        let owned = openapi::import_owned(doc.clone(), &options).unwrap();
        assert!(!borrowed.warnings().is_empty());
        assert_eq!(owned.warnings(), borrowed.warnings());
        assert_eq!(owned.tools(), borrowed.tools());
        assert_eq!(owned.variables(), borrowed.variables());
        assert_eq!(
            owned.operations_in_document(),
            borrowed.operations_in_document()
        );
        assert_eq!(
            owned.plugin().to_json().to_string(),
            borrowed.plugin().to_json().to_string()
        );
    }
    let refused = openapi::import_owned(httptool::json!({"swagger": "1.2"}), &ImportOptions::new());
    let borrowed = openapi::import(&httptool::json!({"swagger": "1.2"}));
    assert_eq!(
        refused.map(|_| ()).unwrap_err().to_string(),
        borrowed.map(|_| ()).unwrap_err().to_string()
    );
}
