//! `ImportOptions::threads`: the plugin an import builds compiles its endpoints on several
//! threads when it has enough of them, and the import is the same for every thread count:
//! the same plugin file, the same tool specs in every provider format, the same warnings,
//! and the same error. Checked on the real documents in `../shared/data/openapi/`, on the
//! benchmark's generated document, and on documents with operations the plugin refuses
//! (the importer drops each with a warning and builds the plugin again).

use std::sync::Arc;

use httptool::json::{Json, Map, ParseOptions};
use httptool::openapi::{self, ImportOptions};
use httptool::tool::{anthropic, gemini, mcp, openai, ToolSpec};

use crate::support::openapi::{dir, read, Folder};
use crate::support::openapi_document;

/// The thread counts compared: one (the sequential loop), two, and three (more chunks than
/// this machine has cores).
const THREADS: [usize; 3] = [1, 2, 3];

/// A spec as every provider reads it, and as the spec itself.
fn rendered(spec: &ToolSpec) -> String {
    format!(
        "{:?}\n{}\n{:?}\n{}\n{:?}\n{}\n{}\n{}",
        spec,
        openai::chat_tool(spec),
        openai::chat_tool_strict(spec).map(|tool| tool.to_string()),
        openai::responses_tool(spec),
        openai::responses_tool_strict(spec).map(|tool| tool.to_string()),
        anthropic::tool(spec),
        gemini::function_declaration(spec),
        mcp::tool(spec)
    )
}

/// Everything an import gives, as text: the plugin file, each tool spec in every provider
/// format, the warnings, the figures and variables; or the error.
fn outcome(doc: &Json, options: &ImportOptions) -> Result<Vec<String>, String> {
    let import =
        openapi::import_with(doc, options).map_err(|e| format!("{:?}: {}", e.kind(), e))?;
    let plugin = import.plugin();
    let mut out = vec![
        plugin.to_json().to_string(),
        format!("{:?}", import.warnings()),
        format!("{:?}", import.tools()),
        format!("{:?}", import.variables()),
    ];
    out.extend(plugin.specs().iter().map(rendered));
    Ok(out)
}

/// Imports `doc` with each of [`THREADS`] and asserts the outcomes are equal; returns the
/// outcome.
fn same_on_every_thread_count(
    name: &str,
    doc: &Json,
    options: &ImportOptions,
) -> Result<Vec<String>, String> {
    let one = outcome(doc, &options.clone().threads(1));
    for threads in &THREADS[1..] {
        let more = outcome(doc, &options.clone().threads(*threads));
        // Compared piece by piece first: a difference names its tool.
        if let (Ok(one), Ok(more)) = (&one, &more) {
            for (a, b) in one.iter().zip(more) {
                assert!(a == b, "{}, {} threads:\n{}\n---\n{}", name, threads, a, b);
            }
        }
        assert!(one == more, "{}: {} threads", name, threads);
    }
    one
}

/// The option sets every document is imported with: the defaults, and everything imported
/// that can be.
fn option_sets(base: ImportOptions) -> [ImportOptions; 2] {
    [
        base.clone(),
        base.include_deprecated(true).skip_failing_operations(true),
    ]
}

/// Imports the document at `path` (under the data folder) with every option set and thread
/// count; returns how many option sets imported it.
fn check_document(path: &str, base: ImportOptions) -> usize {
    let doc = read(&dir().join(path));
    option_sets(base)
        .iter()
        .filter(|options| same_on_every_thread_count(path, &doc, options).is_ok())
        .count()
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn box_platform_imports_the_same_on_every_thread_count() {
    assert_eq!(
        check_document("box-platform.openapi.json", ImportOptions::new()),
        2
    );
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn discord_imports_the_same_on_every_thread_count() {
    assert_eq!(
        check_document("discord-api.openapi.json", ImportOptions::new()),
        2
    );
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn kubernetes_imports_the_same_on_every_thread_count() {
    assert_eq!(
        check_document("kubernetes-v1.36.swagger.json", ImportOptions::new()),
        2
    );
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn figma_imports_the_same_on_every_thread_count() {
    assert_eq!(
        check_document("figma-rest-api.openapi.yaml", ImportOptions::new()),
        2
    );
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn pinterest_imports_the_same_on_every_thread_count() {
    assert_eq!(
        check_document("pinterest-v5.openapi.yaml", ImportOptions::new()),
        2
    );
}

/// 49 operations: under the threshold for two threads, so the plugin stays on one.
#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn spotify_below_the_threshold_imports_the_same_on_every_thread_count() {
    assert_eq!(
        check_document("spotify-web-api.fixed.openapi.yaml", ImportOptions::new()),
        2
    );
}

/// DigitalOcean's operations, parameters and schemas are in other files: the same plugin
/// on every thread count.
#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn digitalocean_imports_the_same_on_every_thread_count() {
    let folder = dir().join("digitalocean/specification");
    let resolver = ImportOptions::new().resolver(Arc::new(Folder(folder)));
    let checked = check_document(
        "digitalocean/specification/DigitalOcean-public.v2.yaml",
        resolver,
    );
    assert_eq!(checked, 2);
}

/// The documents the tests above import: a document added to the folder gets one.
#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn every_document_of_the_folder_is_checked() {
    assert_eq!(
        crate::support::openapi::documents_found(),
        crate::support::openapi::DOCUMENTS
    );
}

/// The benchmark's document, 13 MB and 1,450 operations whose schemas share components.
#[test]
fn the_benchmark_document_imports_the_same_on_every_thread_count() {
    let text = openapi_document::document(openapi_document::TARGET_BYTES);
    let doc = ParseOptions::new().parse(&text).unwrap();
    drop(text);
    for options in option_sets(ImportOptions::new()) {
        let outcome = same_on_every_thread_count("the benchmark document", &doc, &options);
        let tools = outcome.map(|o| o.len() - 4);
        // Deprecated or not, every generated operation is imported.
        assert_eq!(tools, Ok(openapi_document::PATHS * 5));
    }
}

/// The text that tells a refused operation's warning.
const REFUSED: &str = "not imported: the plugin refused it";

/// A document of `count` operations, `GET /items{i}/{id}`, those at `refused` with a path
/// the importer takes and the plugin refuses (a `..` segment).
fn with_refused(count: usize, refused: &[usize]) -> Json {
    let mut paths = Map::new();
    for i in 0..count {
        let path = if refused.contains(&i) {
            format!("/items{}/../up/{{id}}", i)
        } else {
            format!("/items{}/{{id}}", i)
        };
        let operation = httptool::json!({
            "operationId": format!("get{}", i),
            "summary": format!("Item {} of the collection.", i),
            "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}}
            ],
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "object", "properties": {"id": {"type": "string"}}}
            }}}}
        });
        let mut item = Map::new();
        item.insert("get", operation);
        paths.insert(path, Json::Object(item));
    }
    httptool::json!({
        "openapi": "3.0.3",
        "info": {"title": "Refusals", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": Json::Object(paths)
    })
}

/// Operations refused in every chunk of two and three threads (150 endpoints at first:
/// chunks from 0 and 75, from 0, 50 and 100): each dropped with the same warning, in the
/// same order, on every thread count, and the rest imported.
#[test]
fn refused_operations_give_the_same_warnings_on_every_thread_count() {
    let refused = [3, 60, 74, 75, 120, 149];
    let doc = with_refused(150, &refused);
    for options in option_sets(ImportOptions::new()) {
        let outcome = same_on_every_thread_count("refusals", &doc, &options).unwrap();
        let warnings = &outcome[1];
        assert_eq!(
            warnings.matches(REFUSED).count(),
            refused.len(),
            "{}",
            warnings
        );
        for i in refused {
            assert!(warnings.contains(&format!("/paths/~1items{}~1..~1up", i)));
        }
        assert_eq!(outcome.len() - 4, 150 - refused.len());
    }
}

/// A quarter of the operations refused (38, more than the 32 the importer once dropped
/// before it gave up): each left out with its warning, the rest imported, the same on
/// every thread count; with `strict`, the first refusal is the error.
#[test]
fn many_refused_operations_are_each_left_out_the_same_on_every_thread_count() {
    let refused: Vec<usize> = (0..150).filter(|i| i % 4 == 1).collect();
    let doc = with_refused(150, &refused);
    for options in option_sets(ImportOptions::new()) {
        let outcome = same_on_every_thread_count("many refusals", &doc, &options).unwrap();
        assert_eq!(outcome[1].matches(REFUSED).count(), refused.len());
        assert_eq!(outcome.len() - 4, 150 - refused.len());
    }
    let strict = ImportOptions::new().strict(true);
    let error = same_on_every_thread_count("strict", &doc, &strict).unwrap_err();
    assert!(
        error.starts_with("Plugin: /paths/~1items1~1..~1up~1{id}/get: the plugin refused the import: endpoints[1].path: "),
        "{}",
        error
    );
}

/// One operation, refused: no operation is left, so the import fails with the refusal, the
/// same on every thread count (a plugin far under the threshold, and fewer endpoints than
/// threads).
#[test]
fn a_lone_refused_operation_fails_the_same_on_every_thread_count() {
    let doc = with_refused(1, &[0]);
    let error = same_on_every_thread_count("one refusal", &doc, &ImportOptions::new()).unwrap_err();
    assert!(
        error.starts_with("Plugin: /paths/~1items0~1..~1up~1{id}/get: the plugin refused every operation; the first: endpoints[0].path: "),
        "{}",
        error
    );
}

/// A plugin under the threshold for a second thread (five operations), one refused.
#[test]
fn a_small_plugin_imports_the_same_on_every_thread_count() {
    let doc = with_refused(5, &[2]);
    let outcome = same_on_every_thread_count("small", &doc, &ImportOptions::new()).unwrap();
    assert_eq!(outcome[1].matches(REFUSED).count(), 1);
    assert_eq!(outcome.len() - 4, 4);
}
