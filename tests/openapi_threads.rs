//! The import on several threads (`ImportOptions::threads`) gives exactly what it gives on
//! one: the same plugin file, warnings in the same order, figures and errors, for the real
//! documents, the benchmark's document and documents made to catch the places where a
//! converter's cache shows (warnings of shared schemas, node budgets, external documents).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use httptool::json::{self, Json, Map, ParseOptions};
use httptool::openapi::{self, Error, ErrorKind, ImportOptions, RefResolver, ToolFigure, Warning};

use crate::support::openapi::{dir, read, Folder};
use crate::support::openapi_document;

/// Operations enough for three threads with room to spare: the importer starts a thread for
/// every 32.
const MANY: usize = 200;

/// What an import gives, all of it comparable.
type Outcome = Result<
    (
        openapi::Version,
        String,
        Vec<Warning>,
        Vec<ToolFigure>,
        Vec<String>,
        usize,
    ),
    Error,
>;

fn outcome(doc: &Json, options: &ImportOptions) -> Outcome {
    let import = openapi::import_with(doc, options)?;
    Ok((
        import.version(),
        import.plugin().to_json().to_string(),
        import.warnings().to_vec(),
        import.tools().to_vec(),
        import.variables().to_vec(),
        import.operations_in_document(),
    ))
}

/// Asserts that 2 and 3 threads give what 1 gives, and returns that.
fn same_for_threads(doc: &Json, options: &ImportOptions, what: &str) -> Outcome {
    let one = outcome(doc, &options.clone().threads(1));
    for threads in [2, 3] {
        let more = outcome(doc, &options.clone().threads(threads));
        assert!(more == one, "{}: {} threads differ from one", what, threads);
    }
    one
}

/// Both ways the real documents are imported: the defaults, and everything that can be.
fn same_for_threads_both_ways(doc: &Json, what: &str) {
    let default = same_for_threads(doc, &ImportOptions::new(), what);
    let all = ImportOptions::new()
        .include_deprecated(true)
        .skip_failing_operations(true);
    let everything = same_for_threads(doc, &all, what);
    assert!(everything.is_ok(), "{}: {:?}", what, everything.err());
    let operations = everything.map(|o| o.5).unwrap_or_default();
    eprintln!(
        "{}: {} operations; the defaults: {}",
        what,
        operations,
        match default {
            Ok(o) => format!("{} warnings", o.2.len()),
            Err(e) => e.to_string(),
        }
    );
}

fn real(file: &str) {
    same_for_threads_both_ways(&read(&dir().join(file)), file);
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn box_platform_json() {
    real("box-platform.openapi.json");
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn discord_json() {
    real("discord-api.openapi.json");
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn kubernetes_swagger_json() {
    real("kubernetes-v1.36.swagger.json");
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn figma_yaml() {
    real("figma-rest-api.openapi.yaml");
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn pinterest_yaml() {
    real("pinterest-v5.openapi.yaml");
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn spotify_yaml() {
    real("spotify-web-api.fixed.openapi.yaml");
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn digitalocean_with_its_folder() {
    let folder = dir().join("digitalocean/specification");
    let doc = read(&folder.join("DigitalOcean-public.v2.yaml"));
    let options = ImportOptions::new().resolver(Arc::new(Folder(folder)));
    let (.., tools, _, _) = same_for_threads(&doc, &options, "digitalocean").unwrap();
    assert!(tools.len() > 600, "{}", tools.len());
    let deprecated = options.include_deprecated(true);
    let (.., all, _, _) = same_for_threads(&doc, &deprecated, "digitalocean, deprecated").unwrap();
    assert!(all.len() > tools.len(), "{} {}", all.len(), tools.len());
}

#[test]
fn the_benchmark_document() {
    let text = openapi_document::document(openapi_document::TARGET_BYTES);
    let doc = ParseOptions::new().parse(&text).unwrap();
    same_for_threads_both_ways(&doc, "the benchmark document");
}

/// An OpenAPI 3.0 document with these paths and schemas.
fn doc(paths: Map, schemas: Json) -> Json {
    let mut d = httptool::json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
        "servers": [{"url": "https://api.example.com"}]});
    let top = d.as_object_mut().unwrap();
    top.insert("paths", paths);
    top.insert("components", httptool::json!({ "schemas": schemas }));
    d
}

/// `n` operations `/op{i}` whose request and response bodies are `schema`, and whose
/// request body holds the properties of `extra` (by index) too.
fn operations(n: usize, schema: &Json, extra: &[(usize, Json)]) -> Map {
    let mut paths = Map::new();
    for i in 0..n {
        let mut properties = httptool::json!({ "shared": schema.clone() });
        if let Some((_, more)) = extra.iter().find(|(at, _)| *at == i) {
            for (k, v) in more.as_object().unwrap().iter() {
                properties
                    .as_object_mut()
                    .unwrap()
                    .insert(k.as_str(), v.clone());
            }
        }
        let body = httptool::json!({"type": "object", "properties": properties});
        paths.insert(
            format!("/op{}", i),
            httptool::json!({"post": {"operationId": format!("op{}", i),
                "requestBody": {"content": {"application/json": {"schema": body}}},
                "responses": {"200": {"description": "ok",
                    "content": {"application/json": {"schema": schema.clone()}}}}}}),
        );
    }
    paths
}

fn r(name: &str) -> Json {
    httptool::json!({ "$ref": format!("#/components/schemas/{}", name) })
}

/// A component every operation uses warns once, where it is, whichever thread met it
/// first; the order of the warnings is the document's.
#[test]
fn warnings_of_shared_schemas_are_given_once_in_document_order() {
    let schemas = httptool::json!({
        "Shared": {"type": "object", "properties": {
            "id": {"type": "string", "readOnly": true},
            "secret": {"type": "string", "writeOnly": true},
            "inner": {"$ref": "#/components/schemas/Inner"}}},
        "Inner": {"type": "object", "not": {"type": "string"}, "properties": {"a": {"type": "integer"}}},
        "Late": {"type": "object", "if": {"type": "object"}}
    });
    // The last operation meets a schema nobody met before: its warning comes last.
    let paths = operations(
        MANY,
        &r("Shared"),
        &[(MANY - 1, httptool::json!({"late": r("Late")}))],
    );
    let (.., warnings, tools, _, operations) =
        same_for_threads(&doc(paths, schemas), &ImportOptions::new(), "shared").unwrap();
    assert_eq!((tools.len(), operations), (MANY, MANY));
    let texts: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        texts,
        [
            "/components/schemas/Inner/not: 'not' is not passed on to the model",
            "/components/schemas/Late/if: 'if' is not passed on to the model",
        ]
    );
}

/// `L0` holds two `L1`s, each two `L2`s, ... to `L{levels}`: `2^(levels + 1)` nodes about.
fn fan_out(levels: usize) -> Map {
    let mut schemas = Map::new();
    for i in 0..levels {
        let next = r(&format!("L{}", i + 1));
        schemas.insert(
            format!("L{}", i),
            httptool::json!({"type": "object", "properties": {"a": next.clone(), "b": next}}),
        );
    }
    schemas.insert(format!("L{}", levels), httptool::json!({"type": "string"}));
    schemas
}

/// A budget exceeded where a converter had cached a schema (one thread) and where one had
/// not (the thread of the later operations) gives the same error at the same place, and
/// skipped, the same warnings.
#[test]
fn a_node_budget_exceeded_gives_the_same_error_and_warnings() {
    // The shared components are converted once, by whichever operation (on whichever
    // thread) needs them first: that one counts their nodes, and with a budget this small it
    // is over. One thread or several, the same operations fail, with the same errors.
    let mut schemas = fan_out(15);
    schemas.insert(
        "Small",
        httptool::json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
    );
    let schemas = Json::Object(schemas);
    let paths = operations(
        MANY,
        &r("Small"),
        &[
            (60, httptool::json!({"big": r("L0")})),
            (
                134,
                httptool::json!({"w": r("L1"), "x": r("L1"), "y": r("L0")}),
            ),
        ],
    );
    let d = doc(paths, schemas);
    let small = ImportOptions::new().max_tool_nodes(20).strict(true);
    let err = same_for_threads(&d, &small, "fan out").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooLarge);
    // Where the count ran out: inside the first shared component op60 converts.
    assert!(
        err.to_string().starts_with("/components/schemas/L"),
        "{}",
        err
    );
    assert!(err.to_string().ends_with("the schemas of this operation expand to more than 20 nodes once their $refs are inlined"), "{}", err);
    let skipping = small.strict(false);
    let (.., warnings, tools, _, _) = same_for_threads(&d, &skipping, "fan out, skipped").unwrap();
    assert!(!warnings.is_empty());
    assert_eq!(tools.len(), MANY - warnings.len());
    assert!(warnings[0]
        .to_string()
        .starts_with("/paths/~1op60/post: POST /op60 (op60) not imported: "));
}

/// The import's budget, counted by each thread from zero, is the whole import's: threads
/// that each stay under it but together do not give the error one thread gives.
#[test]
fn the_budget_of_the_whole_import_is_shared_by_the_threads() {
    // Each operation's body written in place: each costs the same (a shared component
    // would cost only the first that converts it).
    let schemas = Json::Object(fan_out(6));
    let body = httptool::json!({"type": "object", "properties": {
        "a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "array", "items": {"type": "string"}}}});
    let paths = operations(MANY, &body, &[]);
    let d = doc(paths, schemas);
    let per_operation = {
        let one = ImportOptions::new().include_operation("op0");
        let mut counted = 0;
        // The smallest budget op0 alone fits in, its output schema included.
        while !openapi::import_with(&d, &one.clone().max_total_nodes(counted))
            .map_or(false, |i| i.warnings().is_empty())
        {
            counted += 1;
        }
        counted
    };
    // Three quarters of the operations fit: more than any one thread's share.
    let options = ImportOptions::new()
        .max_total_nodes(per_operation * MANY * 3 / 4)
        .strict(true);
    let err = same_for_threads(&d, &options, "total budget").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooLarge);
    assert!(err.to_string().contains("/paths/~1op150/post/"), "{}", err);
    let skipping = options.skip_failing_operations(true);
    let (.., warnings, tools, _, _) =
        same_for_threads(&d, &skipping, "total budget, skipped").unwrap();
    assert_eq!(tools.len(), MANY * 3 / 4);
    assert_eq!(warnings.len(), MANY / 4);
}

/// Errors that end the import: the first in document order, whichever thread met it.
#[test]
fn the_first_error_in_document_order_ends_the_import() {
    let paths = |failing: &[usize]| {
        let extra: Vec<(usize, Json)> = failing
            .iter()
            .map(|at| (*at, httptool::json!({"gone": r("Gone")})))
            .collect();
        operations(MANY, &r("Small"), &extra)
    };
    let schemas =
        httptool::json!({"Small": {"type": "object", "properties": {"n": {"type": "integer"}}}});
    for (failing, first) in [(vec![150], 150), (vec![50, 150], 50), (vec![199], 199)] {
        let d = doc(paths(&failing), schemas.clone());
        let strict = ImportOptions::new().strict(true);
        let err = same_for_threads(&d, &strict, "errors").unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("/paths/~1op{}/post/requestBody/content/application~1json/schema/properties/gone/$ref: $ref '#/components/schemas/Gone' points to nothing in the document", first)
        );
        let skipping = ImportOptions::new().skip_failing_operations(true);
        let (.., warnings, tools, _, _) =
            same_for_threads(&d, &skipping, "errors, skipped").unwrap();
        assert_eq!(
            (tools.len(), warnings.len()),
            (MANY - failing.len(), failing.len())
        );
    }
}

#[test]
fn a_document_with_few_operations_imports_the_same() {
    let schemas = httptool::json!({"Small": {"type": "object", "not": {}, "properties": {"n": {"type": "integer"}}}});
    let d = doc(operations(3, &r("Small"), &[]), schemas);
    let (.., warnings, tools, _, _) = same_for_threads(&d, &ImportOptions::new(), "few").unwrap();
    assert_eq!((tools.len(), warnings.len()), (3, 1));
}

/// Answers `common.json` with a `Pet` schema, counting the times it is asked for it.
struct Counting(AtomicUsize);

impl RefResolver for Counting {
    fn resolve(&self, location: &str) -> Result<Json, String> {
        match location {
            "common.json" => {
                self.0.fetch_add(1, Ordering::Relaxed);
                Ok(
                    httptool::json!({"Pet": {"type": "object", "not": {"type": "string"},
                    "properties": {"name": {"type": "string"}, "tag": {"$ref": "#/Tag"}}},
                    "Tag": {"type": "string", "enum": ["a", "b"]}}),
                )
            }
            other => Err(format!("no document {}", other)),
        }
    }
}

/// External `$ref`s through a resolver: the same import (warnings with the document's
/// location) on any number of threads, the resolver asked once for a document, before the
/// threads start.
#[test]
fn a_resolver_is_asked_once_for_the_same_result() {
    let pet = httptool::json!({"$ref": "common.json#/Pet"});
    let paths = operations(
        MANY,
        &pet,
        &[(120, httptool::json!({"lost": {"$ref": "missing.json#/X"}}))],
    );
    let d = doc(paths, httptool::json!({}));
    for skip in [false, true] {
        let mut outcomes = Vec::new();
        for threads in [1, 2, 3] {
            let resolver = Arc::new(Counting(AtomicUsize::new(0)));
            let options = ImportOptions::new()
                .resolver(resolver.clone())
                .skip_failing_operations(skip)
                .threads(threads);
            outcomes.push(outcome(&d, &options));
            let asked = resolver.0.load(Ordering::Relaxed);
            assert_eq!(asked, 1, "{} threads", threads);
        }
        assert!(outcomes.iter().all(|o| *o == outcomes[0]), "skip {}", skip);
        match &outcomes[0] {
            Ok((.., warnings, tools, _, _)) => {
                assert!(skip);
                assert_eq!(tools.len(), MANY - 1);
                let texts: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
                assert_eq!(texts, [
                    "common.json#/Pet/not: 'not' is not passed on to the model",
                    "/paths/~1op120/post: POST /op120 (op120) not imported: /paths/~1op120/post/requestBody/content/application~1json/schema/properties/lost/$ref: $ref 'missing.json#/X' could not be read: no document missing.json",
                ]);
            }
            Err(e) => {
                assert!(!skip);
                assert_eq!(e.kind(), ErrorKind::UnresolvedRef);
            }
        }
    }
    // The document parses as JSON text too (the test's own check of its input).
    assert!(json::parse(&d.to_string()).is_ok());
}
