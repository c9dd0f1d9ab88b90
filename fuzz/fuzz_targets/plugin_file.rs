//! The plugin file loader on arbitrary text.
//!
//! Invariants: no panic; a file that loads writes back (`to_json`) to a file that loads to
//! the same file (writing is a fixed point after one round); its tool specs render in every provider's format; the
//! error for a file that does not load is one line.

#![no_main]

use httptool::plugin::HttpPlugin;
use httptool::tool::{anthropic, gemini, mcp, openai};
use libfuzzer_sys::fuzz_target;

/// Each `${NAME}` gets a value unless its name says otherwise, so both paths are reached.
fn lookup(name: &str) -> Option<String> {
    if name.contains("UNSET") {
        None
    } else {
        Some(format!("v-{name}"))
    }
}

fuzz_target!(|data: &[u8]| {
    let text = match std::str::from_utf8(data) {
        Ok(text) => text,
        Err(_) => return,
    };
    let plugin = match HttpPlugin::from_json_with(text, lookup) {
        Ok(plugin) => plugin,
        Err(e) => {
            assert!(!e.to_string().contains('\n'), "a multi-line error: {e}");
            return;
        }
    };
    let file = plugin.to_json();
    let written = file.to_string();
    let again = HttpPlugin::from_json_with(&written, lookup)
        .unwrap_or_else(|e| panic!("the written file does not load: {e}\n{written}"));
    let file_again = again.to_json();
    assert!(
        file_again == file,
        "the written file changed on reload:\n{written}\n{file_again}"
    );
    assert_eq!(plugin.specs().len(), plugin.endpoints().count());
    for spec in plugin.specs() {
        // Every provider's format renders, and what it renders is JSON that parses.
        for rendered in [
            openai::chat_tool(&spec),
            anthropic::tool(&spec),
            gemini::function_declaration(&spec),
            mcp::tool(&spec),
        ] {
            let text = rendered.to_string();
            assert!(
                httptool::json::parse(&text).is_ok(),
                "a spec renders to bad JSON: {text}"
            );
        }
        let _ = openai::chat_tool_strict(&spec);
    }
});
