//! A bad operation costs only itself: every operation that can be imported is, each one
//! that cannot is left out with a warning naming it (method, path, `operationId`) and why,
//! and the import fails only when none is left, or with `strict` at the first refusal.

use httptool::json::{Json, Map};
use httptool::openapi::{self, ErrorKind, ImportOptions};

/// `count` operations; those in `bad_path` have a `..` segment (the plugin refuses it),
/// those in `bad_ref` a `$ref` to nothing (the importer cannot convert them).
fn doc(count: usize, bad_path: &[usize], bad_ref: &[usize]) -> Json {
    let mut paths = Map::new();
    for i in 0..count {
        let path = if bad_path.contains(&i) {
            format!("/items{}/../up", i)
        } else {
            format!("/items{}", i)
        };
        let schema = if bad_ref.contains(&i) {
            httptool::json!({"$ref": "#/components/schemas/Gone"})
        } else {
            httptool::json!({"type": "string"})
        };
        paths.insert(
            path,
            httptool::json!({"get": {"operationId": format!("get{}", i),
                "parameters": [{"name": "q", "in": "query", "schema": schema}]}}),
        );
    }
    httptool::json!({
        "openapi": "3.0.3",
        "info": {"title": "Refusals", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": Json::Object(paths)
    })
}

#[test]
fn forty_refused_operations_leave_the_others_imported() {
    // More than the 32 refusals after which the importer once gave up.
    let bad_path: Vec<usize> = (0..100).filter(|i| i % 5 == 0).collect();
    let bad_ref: Vec<usize> = (0..100).filter(|i| i % 5 == 1).collect();
    let import = openapi::import(&doc(100, &bad_path, &bad_ref)).unwrap();
    assert_eq!(import.tools().len(), 60);
    let warnings: Vec<String> = import.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(warnings.len(), 40, "{:#?}", warnings);
    assert!(warnings.contains(&String::from(
        "/paths/~1items1/get: GET /items1 (get1) not imported: /paths/~1items1/get/parameters/0/schema/$ref: $ref '#/components/schemas/Gone' points to nothing in the document"
    )), "{:#?}", warnings);
    let refused = warnings
        .iter()
        .find(|w| w.starts_with("/paths/~1items5~1..~1up/get: "))
        .unwrap();
    assert!(
        refused.starts_with("/paths/~1items5~1..~1up/get: GET /items5/../up (get5) not imported: the plugin refused it: "),
        "{}",
        refused
    );
}

#[test]
fn strict_fails_at_the_first_refusal() {
    let d = doc(10, &[7], &[3]);
    let strict = ImportOptions::new().strict(true);
    let err = openapi::import_with(&d, &strict).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnresolvedRef);
    assert_eq!(
        err.pointer(),
        "/paths/~1items3/get/parameters/0/schema/$ref"
    );
    let d = doc(10, &[7], &[]);
    let err = openapi::import_with(&d, &strict).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Plugin);
    assert_eq!(err.pointer(), "/paths/~1items7~1..~1up/get");
}

#[test]
fn no_operation_left_is_an_error_with_the_first_reason() {
    let err = openapi::import(&doc(3, &[], &[0, 1, 2])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnresolvedRef);
    assert_eq!(
        err.pointer(),
        "/paths/~1items0/get/parameters/0/schema/$ref"
    );
    let err = openapi::import(&doc(2, &[0, 1], &[])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Plugin);
    assert!(
        err.to_string()
            .starts_with("/paths/~1items0~1..~1up/get: the plugin refused every operation; the first: endpoints[0].path: "),
        "{}",
        err
    );
}

#[cfg(feature = "cli")]
#[test]
fn the_command_line_skips_by_default_and_stops_with_strict() {
    use crate::support::cli::{httptool, status, stderr, TempDir};
    let dir = TempDir::new("openapi-refused-operations");
    let path = dir.file("doc.json", &doc(4, &[2], &[1]).to_string());
    let out = httptool(&["import", "openapi", &path], None, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("warning: /paths/~1items1/get: GET /items1 (get1) not imported: "),
        "{}",
        err
    );
    assert!(
        err.contains(
            "warning: /paths/~1items2~1..~1up/get: GET /items2/../up (get2) not imported: the plugin refused it: "
        ),
        "{}",
        err
    );
    assert!(err.contains("2 tools from 4 operations"), "{}", err);
    let out = httptool(&["import", "openapi", &path, "--strict"], None, &[]);
    assert_eq!(status(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("/paths/~1items1/get/parameters/0/schema/$ref: $ref '#/components/schemas/Gone' points to nothing"),
        "{}",
        stderr(&out)
    );
}

/// Found in the APIs-guru directory: what a document may say that the plugin once refused,
/// each costing the whole document (its only operations).
#[test]
fn regression_azure_and_apisetu_operations_import() {
    // Azure's metrics API declares `Content-Length` as a header parameter; azsadmin uses
    // `{location}` twice in one path; apisetu's server url is "Your API URL".
    let d = httptool::json::parse(
        r#"{"openapi": "3.0.3", "info": {"title": "Azure-like", "version": "1"},
        "servers": [{"url": "Your API URL"}],
        "paths": {
          "/metrics": {"post": {"operationId": "post",
            "parameters": [{"name": "Content-Length", "in": "header", "required": true,
                            "schema": {"type": "integer"}}]}},
          "/System.{location}/fabric/{location}/ops": {"get": {"operationId": "ops",
            "parameters": [{"name": "location", "in": "path", "required": true,
                            "schema": {"type": "string"}}]}}}}"#,
    )
    .unwrap();
    let import = openapi::import(&d).unwrap();
    assert_eq!(import.tools().len(), 2);
    let warnings: Vec<String> = import.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        [
            "/servers/0: the server url 'Your API URL' is not a url: the base url is https://api.example.invalid until one is given (base_url)",
            "/paths/~1metrics/post/parameters/0: header parameter 'Content-Length' is not imported: the client writes it",
        ]
    );
    let dry = import
        .plugin()
        .dry_run(
            "ops",
            r#"{"location": "west"}"#,
            &httptool::tool::CallContext::new(),
        )
        .unwrap();
    assert_eq!(
        dry.request().url().as_str(),
        "https://api.example.invalid/System.west/fabric/west/ops"
    );
}

/// Found in the APIs-guru directory: an apiKey header name with spaces (rapidapi's
/// `ADVICEment API Key`) refused the whole plugin, and a Swagger body parameter on a GET
/// (Ticketmaster's) refused the operation.
#[test]
fn regression_a_bad_key_name_and_a_body_on_get_cost_only_themselves() {
    let d = httptool::json::parse(
        r#"{"swagger": "2.0", "info": {"title": "T", "version": "1"},
        "host": "api.example.com",
        "securityDefinitions": {"key": {"type": "apiKey", "in": "header", "name": "My API Key"}},
        "security": [{"key": []}],
        "paths": {"/offers": {"get": {"operationId": "offers",
          "parameters": [{"name": "ids", "in": "body", "schema": {"type": "array", "items": {"type": "string"}}},
                         {"name": "q", "in": "query", "type": "string"}]}}}}"#,
    )
    .unwrap();
    let import = openapi::import(&d).unwrap();
    let warnings: Vec<String> = import.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        [
            "/securityDefinitions/key: apiKey header 'My API Key' is not a header name: not imported",
            "/paths/~1offers/get: a GET request body that is not an object cannot be sent: left out",
            "/security: no security requirement uses only schemes that can be filled: the operation is imported without credentials",
        ]
    );
    let params = import.plugin().to_json()["endpoints"][0]["params"].clone();
    assert_eq!(
        params,
        httptool::json::parse(r#"[{"name": "q", "in": "query", "type": "string"}]"#).unwrap()
    );
}
