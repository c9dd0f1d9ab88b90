//! The real documents in `../shared/data/openapi/`: each imports with one tool per
//! operation (counted here independently of the importer), and its plugin file round-trips.
//!
//! JSON documents only for now: the YAML ones join when YAML reading is wired in.

use std::path::{Path, PathBuf};

use httptool::json::{self, Json, ParseOptions};
use httptool::openapi::{self, ImportOptions};
use httptool::plugin::HttpPlugin;

const METHODS: [&str; 7] = ["get", "put", "post", "delete", "options", "head", "patch"];

fn documents() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/openapi");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {}", dir.display(), e))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().map_or(false, |x| x == "json"))
        .collect();
    found.sort();
    assert!(
        found.len() >= 3,
        "expected the JSON documents in {}",
        dir.display()
    );
    found
}

fn read(path: &Path) -> Json {
    let text = std::fs::read_to_string(path).unwrap();
    ParseOptions::new().parse(&text).unwrap()
}

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

#[test]
fn every_operation_becomes_one_tool_and_the_file_round_trips() {
    for path in documents() {
        let doc = read(&path);
        let expected = count_operations(&doc);
        let options = ImportOptions::new().include_deprecated(true);
        let import = openapi::import_with(&doc, &options)
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), e));
        let plugin = import.plugin();
        assert_eq!(
            plugin.endpoints().count(),
            expected,
            "{}: one tool per operation; warnings: {:#?}",
            path.display(),
            import
                .warnings()
                .iter()
                .filter(|w| w.message().contains("not imported"))
                .collect::<Vec<_>>()
        );
        assert_eq!(import.tools().len(), expected);
        let file = plugin.to_json();
        let again = HttpPlugin::from_json_with(&file.to_string(), |_| Some(String::from("x")))
            .unwrap_or_else(|e| panic!("{}: the plugin file reads back: {}", path.display(), e));
        assert_eq!(
            again.to_json(),
            file,
            "{}: the file round-trips",
            path.display()
        );
        let total: usize = import.tools().iter().map(|t| t.schema_bytes).sum();
        eprintln!(
            "{}: {} tools, {} schema bytes, {} warnings",
            path.file_name().unwrap().to_string_lossy(),
            expected,
            total,
            import.warnings().len()
        );
    }
}

#[test]
fn importing_twice_gives_the_same_plugin() {
    for path in documents() {
        let doc = read(&path);
        let options = ImportOptions::new().include_deprecated(true);
        let a = openapi::import_with(&doc, &options)
            .unwrap()
            .plugin()
            .to_json();
        let b = openapi::import_with(&doc, &options)
            .unwrap()
            .plugin()
            .to_json();
        assert_eq!(
            json::Json::to_string(&a),
            b.to_string(),
            "{}",
            path.display()
        );
    }
}
