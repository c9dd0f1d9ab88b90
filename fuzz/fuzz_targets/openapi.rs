//! The OpenAPI importer on arbitrary documents, read as JSON or else as YAML.
//!
//! Invariants: no panic; the error for a document that does not import is one line; an
//! imported plugin writes (`to_json`) to a file that loads (`from_json`) back to the same
//! file, with one tool figure per endpoint; every tool's spec renders in every provider's
//! format as JSON that parses.

#![no_main]

use httptool::plugin::HttpPlugin;
use httptool::tool::{anthropic, gemini, mcp, openai};
use httptool::{json, openapi, yaml};
use libfuzzer_sys::fuzz_target;

/// Every `${NAME}` an imported plugin names gets a value, so loading it checks the file only.
fn lookup(_: &str) -> Option<String> {
    Some("value".to_string())
}

fuzz_target!(|data: &[u8]| {
    let document = match json::parse_bytes(data) {
        Ok(document) => document,
        Err(_) => match yaml::parse_bytes(data) {
            Ok(document) => document,
            Err(_) => return,
        },
    };
    let _ = openapi::is_document(&document);
    let import = match openapi::import(&document) {
        Ok(import) => import,
        Err(e) => {
            let message = e.to_string();
            assert!(!message.contains('\n'), "a multi-line error: {message}");
            return;
        }
    };
    for warning in import.warnings() {
        let _ = warning.to_string();
    }
    let tools = import.tools().len();
    let plugin = import.into_plugin();
    assert_eq!(tools, plugin.endpoints().count(), "one figure per tool");
    let file = plugin.to_json();
    let written = file.to_string();
    let again = HttpPlugin::from_json_with(&written, lookup)
        .unwrap_or_else(|e| panic!("the imported plugin's file does not load: {e}\n{written}"));
    assert!(
        again.to_json() == file,
        "the imported plugin's file changed on reload:\n{written}"
    );
    for spec in plugin.specs() {
        for rendered in [
            openai::chat_tool(&spec),
            anthropic::tool(&spec),
            gemini::function_declaration(&spec),
            mcp::tool(&spec),
        ] {
            let text = rendered.to_string();
            assert!(
                json::parse(&text).is_ok(),
                "a spec renders to bad JSON: {text}"
            );
        }
        let _ = openai::chat_tool_strict(&spec);
    }
});
