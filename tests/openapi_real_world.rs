//! The real documents in `../shared/data/openapi/`, JSON and YAML: each imports with one
//! tool per operation (counted here independently of the importer), its plugin file
//! round-trips, the same document written as JSON text imports to the same plugin (for a
//! YAML document: its JSON conversion; for a JSON one: determinism and the writer), and its
//! output schemas assert nothing a real answer could break.
//!
//! Each document is read once and imported twice, in its own test (the debug build is slow
//! on the largest ones, and the tests run in parallel).

use httptool::json::{self, Json};
use httptool::openapi::{self, ImportOptions};
use httptool::plugin::HttpPlugin;

use crate::support::openapi::{dir, read, Folder};

const METHODS: [&str; 7] = ["get", "put", "post", "delete", "options", "head", "patch"];

/// Path × method, path items that are `$ref`s followed.
fn count_operations(doc: &Json) -> usize {
    let paths = doc.get("paths").and_then(Json::as_object).unwrap();
    paths
        .iter()
        .map(|(_, item)| {
            let item = match item.get("$ref").and_then(Json::as_str) {
                Some(r) => doc.pointer(r.trim_start_matches('#')).unwrap(),
                None => item,
            };
            METHODS.iter().filter(|m| item.get(m).is_some()).count()
        })
        .sum()
}

/// Keywords an imported output schema may hold: annotations and applicators, no
/// assertion (`type` only as `"object"` at the root).
const DESCRIPTIVE: [&str; 13] = [
    "properties",
    "items",
    "additionalProperties",
    "anyOf",
    "allOf",
    "description",
    "title",
    "format",
    "examples",
    "contentMediaType",
    "contentEncoding",
    // A shared or recursive component: an entry of the root's `$defs`, itself descriptive.
    "$ref",
    "$defs",
];

/// Asserts that `schema` validates any value (below a root object): walked here
/// independently of the importer.
fn assert_descriptive(schema: &Json, at_root: bool, name: &str) {
    let map = schema
        .as_object()
        .unwrap_or_else(|| panic!("{}: a schema that is not an object: {}", name, schema));
    for (key, value) in map.iter() {
        if key == "type" && at_root {
            assert_eq!(value, &Json::from("object"), "{}", name);
            continue;
        }
        assert!(
            DESCRIPTIVE.contains(&key.as_str()),
            "{}: '{}' asserts something",
            name,
            key
        );
        match key.as_str() {
            "properties" => {
                for (_, s) in value.as_object().unwrap().iter() {
                    assert_descriptive(s, false, name);
                }
            }
            "items" | "additionalProperties" => assert_descriptive(value, false, name),
            "$defs" => {
                for (_, s) in value.as_object().unwrap().iter() {
                    assert_descriptive(s, false, name);
                }
            }
            "anyOf" | "allOf" => {
                for s in value.as_array().unwrap() {
                    assert_descriptive(s, false, name);
                }
            }
            _ => {}
        }
    }
}

/// Imports `file` (and its JSON text), checking everything in the module docs.
fn check(file: &str) {
    let path = dir().join(file);
    let doc = read(&path);
    let expected = count_operations(&doc);
    let options = ImportOptions::new().include_deprecated(true);
    let import = openapi::import_with(&doc, &options).unwrap_or_else(|e| panic!("{}: {}", file, e));
    let plugin = import.plugin();
    assert_eq!(
        plugin.endpoints().count(),
        expected,
        "{}: one tool per operation; warnings: {:#?}",
        file,
        import
            .warnings()
            .iter()
            .filter(|w| w.message().contains("not imported"))
            .collect::<Vec<_>>()
    );
    assert_eq!(import.tools().len(), expected);
    let plugin_file = plugin.to_json();
    let again = HttpPlugin::from_json_with(&plugin_file.to_string(), |_| Some(String::from("x")))
        .unwrap_or_else(|e| panic!("{}: the plugin file reads back: {}", file, e));
    assert_eq!(
        again.to_json(),
        plugin_file,
        "{}: the file round-trips",
        file
    );
    let mut with_output = 0;
    for endpoint in plugin.endpoints() {
        if let Some(schema) = endpoint.output_schema() {
            with_output += 1;
            assert!(schema.to_string().len() <= 16 * 1024, "{}", endpoint.name());
            assert_descriptive(schema, true, endpoint.name());
        }
    }
    // The same document as JSON text: the same plugin.
    let as_json = json::parse(&doc.to_string()).unwrap();
    let b = openapi::import_with(&as_json, &options)
        .unwrap()
        .plugin()
        .to_json();
    assert_eq!(
        plugin_file.to_string(),
        b.to_string(),
        "{}: the document as JSON imports to the same plugin",
        file
    );
    let total: usize = import.tools().iter().map(|t| t.schema_bytes).sum();
    eprintln!(
        "{}: {} tools ({} with an output schema), {} schema bytes, {} warnings",
        file,
        expected,
        with_output,
        total,
        import.warnings().len()
    );
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn the_documents_are_all_covered() {
    assert_eq!(
        crate::support::openapi::documents_found(),
        crate::support::openapi::DOCUMENTS,
        "a document added to the folder gets a test here"
    );
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn box_platform_json() {
    check("box-platform.openapi.json");
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn discord_json() {
    check("discord-api.openapi.json");
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn kubernetes_swagger_json() {
    check("kubernetes-v1.36.swagger.json");
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn figma_yaml() {
    check("figma-rest-api.openapi.yaml");
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn pinterest_yaml() {
    check("pinterest-v5.openapi.yaml");
}

/// Spotify in YAML and its JSON conversion import to the same plugin (checked by `check`
/// for every document; named here for the YAML reader).
#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn spotify_yaml_and_its_json_conversion_import_to_the_same_plugin() {
    check("spotify-web-api.fixed.openapi.yaml");
}

/// DigitalOcean's document is many files whose operations are `$ref`s to other files
/// (OpenAPI allows a reference only for a path item; bundlers follow them anyway), and
/// whose parameters, responses and schemas are in further files, named relative to the file
/// that holds the `$ref`: every operation imports but the deprecated ones and one the plugin refuses.
#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn digitalocean_operations_in_other_files_import() {
    let folder = dir().join("digitalocean/specification");
    let doc = read(&folder.join("DigitalOcean-public.v2.yaml"));
    let options = ImportOptions::new().resolver(std::sync::Arc::new(Folder(folder)));
    let import = openapi::import_with(&doc, &options).unwrap();
    let operations = import.operations_in_document();
    assert!(operations > 600, "{}", operations);
    // Deprecated operations, and one whose server is a template with no host.
    let left_out = import
        .warnings()
        .iter()
        .filter(|w| {
            w.message().starts_with("deprecated") || w.message().contains(") not imported: ")
        })
        .count();
    assert!(left_out < 30, "{}", left_out);
    assert_eq!(import.plugin().specs().len(), operations - left_out);
    let json = import.plugin().to_json();
    let list = json["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == httptool::json::Json::from("oneClicks_list"))
        .unwrap();
    // `parameters.yml#/oneClicks_type`, beside the operation's file.
    assert_eq!(
        list["params"][0]["name"],
        httptool::json::Json::from("type")
    );
}
