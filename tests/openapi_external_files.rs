//! `httptool import openapi` on documents split into several files: path items, operations,
//! parameters, bodies, responses and schemas in other files, named relative to the file that
//! holds the `$ref`; and the files such a document may name to harm the reader (a FIFO, a
//! file larger than the input limit, one file reached through many symbolic links).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use httptool::json::{self, Json};

use crate::support::cli::{httptool, status, stderr, stdout, TempDir};

/// The folder of a file `TempDir::file` wrote.
fn folder_of(file: &str) -> PathBuf {
    Path::new(file).parent().unwrap().to_path_buf()
}

/// The endpoints of the plugin file an import printed, by name.
fn endpoint<'a>(plugin: &'a Json, name: &str) -> &'a Json {
    plugin["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == Json::from(name))
        .unwrap_or_else(|| panic!("no endpoint {}", name))
}

const SWAGGER: &str = r##"{"swagger": "2.0", "info": {"title": "Shop", "version": "1"},
 "host": "shop.example.com", "schemes": ["https"],
 "paths": {
   "/items": {"get": {"operationId": "listItems",
     "parameters": [{"$ref": "parameters.json#/limit"}, {"$ref": "parameters.json#/page"}],
     "responses": {"200": {"$ref": "responses.json#/Items"}}}},
   "/items/{id}": {"$ref": "paths/item.json"}}}"##;

const SWAGGER_PARAMETERS: &str = r#"{
 "limit": {"name": "limit", "in": "query", "type": "integer", "maximum": 100},
 "page": {"name": "page", "in": "query", "type": "string"},
 "id": {"name": "id", "in": "path", "required": true, "type": "string"}}"#;

const SWAGGER_RESPONSES: &str = r##"{"Items": {"description": "items",
 "schema": {"type": "array", "items": {"$ref": "definitions.json#/Item"}}}}"##;

const SWAGGER_DEFINITIONS: &str = r#"{"Item": {"type": "object",
 "properties": {"name": {"type": "string"}, "price": {"type": "number"}}}}"#;

/// A path item in `paths/`, whose references are relative to `paths/`.
const SWAGGER_ITEM: &str = r##"{"put": {"operationId": "putItem",
 "parameters": [{"$ref": "../parameters.json#/id"},
   {"name": "item", "in": "body", "required": true, "schema": {"$ref": "../definitions.json#/Item"}}],
 "responses": {"200": {"description": "ok"}}}}"##;

/// A Swagger 2.0 document whose parameters, responses, definitions and one path item are in
/// other files imports, each reference read relative to the file that holds it.
#[test]
fn swagger_parameters_responses_and_path_items_in_other_files_import() {
    let dir = TempDir::new("external-swagger");
    let spec = dir.file("shop.json", SWAGGER);
    dir.file("parameters.json", SWAGGER_PARAMETERS);
    dir.file("responses.json", SWAGGER_RESPONSES);
    dir.file("definitions.json", SWAGGER_DEFINITIONS);
    std::fs::create_dir(folder_of(&spec).join("paths")).unwrap();
    dir.file("paths/item.json", SWAGGER_ITEM);
    let out = httptool(&["import", "openapi", &spec], None, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let plugin = json::parse(&stdout(&out)).unwrap();
    let list = endpoint(&plugin, "listItems");
    assert_eq!(
        list["params"],
        httptool::json!([
            {"name": "limit", "in": "query", "type": "integer", "schema": {"type": "integer", "maximum": 100}},
            {"name": "page", "in": "query", "type": "string"}])
    );
    // Output schemas describe without asserting: the properties, without their types. A
    // component of another file stays a `$ref`.
    assert_eq!(
        list["output_schema"],
        httptool::json!({"items": {"$ref": "#/$defs/Item_02dcf030"},
            "$defs": {"Item_02dcf030": {"properties": {"name": {}, "price": {}}}}})
    );
    let put = endpoint(&plugin, "putItem");
    assert_eq!(put["path"], Json::from("/items/{id}"));
    assert_eq!(put["params"][0]["name"], Json::from("id"));
    assert_eq!(
        put["params"][1]["schema"]["properties"]["price"],
        httptool::json!({"type": "number"})
    );
}

const OPENAPI: &str = r##"{"openapi": "3.0.3", "info": {"title": "Notes", "version": "1"},
 "servers": [{"url": "https://notes.example.com"}],
 "paths": {"/notes": {"post": {"$ref": "ops/add.json"}}}}"##;

/// An operation in `ops/`: its body, parameter and response in a YAML file beside it.
const OPENAPI_OP: &str = r##"{"operationId": "addNote",
 "parameters": [{"$ref": "common.yaml#/parameters/Trace"}],
 "requestBody": {"$ref": "common.yaml#/bodies/Note"},
 "responses": {"201": {"$ref": "common.yaml#/responses/Created"}}}"##;

const OPENAPI_COMMON: &str = "
parameters:
  Trace: {name: X-Trace, in: header, schema: {type: string}}
bodies:
  Note:
    required: true
    content:
      application/json:
        schema: {$ref: '#/schemas/Note'}
responses:
  Created:
    description: made
    headers:
      Location: {$ref: '#/headers/Location'}
    content:
      application/json:
        schema: {$ref: '#/schemas/Note'}
headers:
  Location: {schema: {type: string}}
schemas:
  Note:
    type: object
    required: [text]
    properties:
      text: {type: string}
";

/// An OpenAPI 3 operation in another file (as DigitalOcean's document has them), with its
/// parameter, request body, response and headers in a third file, YAML, beside it.
#[test]
fn openapi_operations_bodies_responses_and_headers_in_other_files_import() {
    let dir = TempDir::new("external-openapi");
    let spec = dir.file("notes.json", OPENAPI);
    std::fs::create_dir(folder_of(&spec).join("ops")).unwrap();
    dir.file("ops/add.json", OPENAPI_OP);
    dir.file("ops/common.yaml", OPENAPI_COMMON);
    let out = httptool(&["import", "openapi", &spec], None, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let plugin = json::parse(&stdout(&out)).unwrap();
    let add = endpoint(&plugin, "addNote");
    assert_eq!(
        add["params"],
        httptool::json!([
            {"name": "X-Trace", "in": "header", "type": "string"},
            {"name": "text", "in": "body", "type": "string", "required": true}])
    );
    assert_eq!(
        add["output_schema"],
        httptool::json!({"type": "object", "properties": {"text": {}}})
    );
}

/// A document whose one schema is in `models.json`.
const PETS: &str = r##"{"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"},
 "servers": [{"url": "https://pets.example.com"}],
 "paths": {"/pets": {"post": {"operationId": "addPet", "requestBody": {"required": true,
   "content": {"application/json": {"schema": {"$ref": "models.json#/Pet"}}}}}}}}"##;

const MODELS: &str = r#"{"Pet": {"type": "object", "required": ["name"],
 "properties": {"name": {"type": "string"}}}}"#;

/// A `$ref` to a FIFO is refused at once: opened, it would block the import until something
/// writes to it (forever, in a pipeline nobody feeds).
#[cfg(unix)]
#[test]
fn a_fifo_named_by_a_ref_is_refused_without_waiting() {
    let dir = TempDir::new("external-fifo");
    let spec = dir.file("pets.json", PETS);
    let fifo = folder_of(&spec).join("models.json");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_httptool"))
        .args(["import", "openapi", &spec])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the import waits on the FIFO");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(status(&out), 1);
    assert!(
        stderr(&out).contains("$ref 'models.json#/Pet' could not be read: not a file"),
        "{}",
        stderr(&out)
    );
}

/// A file larger than the input limit is not read whole: the limit counts the document and
/// every file its `$ref`s name together, and reading stops once it is passed.
#[test]
fn files_named_by_refs_count_against_the_input_limit() {
    let dir = TempDir::new("external-limit");
    let spec = dir.file("pets.json", PETS);
    let models = dir.file("models.json", MODELS);
    let total = PETS.len() + MODELS.len();
    let enough = total.to_string();
    let out = httptool(
        &["import", "openapi", &spec, "--max-input-bytes", &enough],
        None,
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    // One byte short: each file is under the limit, both together are not.
    let short = (total - 1).to_string();
    let out = httptool(
        &["import", "openapi", &spec, "--max-input-bytes", &short],
        None,
        &[],
    );
    assert_eq!(status(&out), 1);
    let expected = "$ref 'models.json#/Pet' could not be read: the files read exceed the input limit (--max-input-bytes N counts every file of the import together)";
    assert!(stderr(&out).contains(expected), "{}", stderr(&out));
    // A file of 3 MB (sparse: no disk written) with a limit of 1 MB.
    let large = std::fs::File::create(&models).unwrap();
    large.set_len(3 << 20).unwrap();
    let out = httptool(
        &["import", "openapi", &spec, "--max-input-bytes", "1048576"],
        None,
        &[],
    );
    assert_eq!(status(&out), 1);
    assert!(stderr(&out).contains(expected), "{}", stderr(&out));
}

/// One file reached through symbolic links under many names (`l -> .` makes `l/x.json`,
/// `l/l/x.json`, ... the same file) is read once, under its real name: its warnings name
/// it once, and the limit counts it once.
#[cfg(unix)]
#[test]
fn a_file_reached_through_symbolic_links_is_read_once() {
    let dir = TempDir::new("external-links");
    let models = r#"{"Pet": {"type": "object", "not": {"required": ["x"]},
        "properties": {"name": {"type": "string"}}}}"#;
    let probe = dir.file("probe.json", "{}");
    let folder = folder_of(&probe);
    std::os::unix::fs::symlink(".", folder.join("l")).unwrap();
    dir.file("models.json", models);
    let mut paths = String::new();
    let mut spelling = String::from("models.json");
    for i in 0..40 {
        if i > 0 {
            paths.push(',');
        }
        paths.push_str(&format!(
            r##""/p{i}": {{"post": {{"operationId": "p{i}", "requestBody": {{"content": {{"application/json": {{"schema": {{"$ref": "{spelling}#/Pet"}}}}}}}}}}}}"##
        ));
        spelling = format!("l/{}", spelling);
    }
    let doc = format!(
        r#"{{"openapi": "3.0.3", "info": {{"title": "Links", "version": "1"}},
        "servers": [{{"url": "https://links.example.com"}}], "paths": {{{}}}}}"#,
        paths
    );
    let spec = dir.file("links.json", &doc);
    // The document and the file once, not forty times.
    let limit = (doc.len() + models.len()).to_string();
    let out = httptool(
        &["import", "openapi", &spec, "--max-input-bytes", &limit],
        None,
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(
        warnings,
        ["warning: models.json#/Pet/not: 'not' is not passed on to the model"]
    );
    assert!(err.contains("40 tools from 40 operations"), "{}", err);
}

/// A `$ref` from another file back to the document itself reads the document, not a second
/// copy of it.
#[test]
fn a_ref_back_to_the_document_reads_the_document() {
    let dir = TempDir::new("external-back");
    let doc = r##"{"openapi": "3.0.3", "info": {"title": "Back", "version": "1"},
     "servers": [{"url": "https://back.example.com"}],
     "paths": {"/a": {"$ref": "item.json"}},
     "components": {"schemas": {"A": {"type": "object", "not": {"required": ["x"]},
       "properties": {"n": {"type": "integer"}}}}}}"##;
    let spec = dir.file("back.json", doc);
    dir.file(
        "item.json",
        r##"{"post": {"operationId": "postA", "requestBody": {"content": {"application/json":
            {"schema": {"$ref": "back.json#/components/schemas/A"}}}}}}"##,
    );
    let out = httptool(&["import", "openapi", &spec], None, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let plugin = json::parse(&stdout(&out)).unwrap();
    assert_eq!(
        endpoint(&plugin, "postA")["params"],
        httptool::json!([{"name": "n", "in": "body", "type": "integer"}])
    );
    // The warning names the schema in the document, as a local `$ref` would.
    assert!(
        stderr(&out).contains("warning: /components/schemas/A/not: "),
        "{}",
        stderr(&out)
    );
}
