//! The curl importer and exporter on arbitrary command lines.
//!
//! Invariants: no panic; `parse` agrees with `parse_args` on the words `shell_words` gives
//! (same method and URL, both refuse or both accept, but for a shell variable's literal
//! twin, which only `parse` can see, and a script of commands, whose first `parse` reads);
//! each endpoint of a converted plugin (one per URL) exports back to a curl command
//! (`to_curl`, unless it refuses a part no argument can carry, `Unrepresentable`) that
//! parses, with the same method, and converts again when it holds no `<name>` placeholder;
//! the converted plugin's file (`to_json`) loads back to the same file. Secrets are `***`
//! wherever their text stands in an export, the URL included (a secret equal to a path is
//! masked there too), so the masked command only has to parse: the one that converts again
//! is the export with its secrets revealed.

#![no_main]

use httptool::curl;
use httptool::plugin::HttpPlugin;
use libfuzzer_sys::fuzz_target;

/// Every `${NAME}` a converted plugin names gets a value, so loading it checks the file only.
fn lookup(_: &str) -> Option<String> {
    Some("value".to_string())
}

fuzz_target!(|data: &[u8]| {
    let text = match std::str::from_utf8(data) {
        Ok(text) => text,
        Err(_) => return,
    };
    let parsed = curl::parse(text);
    let words = curl::shell_words(text);
    if let Ok(words) = words {
        let from_words = curl::parse_args(&words);
        match (&parsed, &from_words) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.method(), b.method(), "parse and parse_args disagree");
                assert_eq!(a.url(), b.url(), "parse and parse_args disagree");
            }
            (Err(_), Err(_)) => {}
            // Only the shell knows which `${NAME}` came from a variable: a literal twin of
            // one is refused by `parse`, while `parse_args` reads plain text.
            (Err(e), Ok(_)) if e.kind() == curl::ErrorKind::VariablePlace => {}
            (a, b) => panic!(
                "parse and parse_args disagree: {:?} / {:?}",
                a.is_ok(),
                b.is_ok()
            ),
        }
    } else if let Err(e) = words {
        // A script of curl commands is read to its first: `parse` accepts what the words of
        // one command cannot hold.
        assert!(
            parsed.is_err() || e.kind() == curl::ErrorKind::SecondCommand,
            "parse accepts what shell_words refuses"
        );
    }
    let command = match parsed {
        Ok(command) => command,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let plugin = match curl::to_plugin(&command) {
        Ok(plugin) => plugin,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    assert!(
        plugin.endpoints().next().is_some(),
        "a converted plugin has an endpoint"
    );

    let file = plugin.to_json();
    let reloaded = HttpPlugin::from_json_with(&file.to_string(), lookup)
        .unwrap_or_else(|e| panic!("the converted plugin's file does not load: {e}\n{file}"));
    assert!(
        reloaded.to_json() == file,
        "the converted plugin's file changed on reload"
    );

    // A command with several URLs gives an endpoint for each; every one exports on its own.
    for endpoint in plugin.endpoints() {
        let name = endpoint.name();
        let method = endpoint.method();
        let exported = match curl::to_curl(&plugin, name) {
            Ok(exported) => exported,
            // A documented refusal of the exporter: what no command-line argument can carry
            // (a multipart field name with `"` or `=`, which curl's -F reads but cannot write
            // back).
            Err(e) if e.kind() == curl::ErrorKind::Unrepresentable => continue,
            Err(e) => panic!("a converted plugin does not export {name}: {e}\n{file}"),
        };
        let again = curl::parse(&exported)
            .unwrap_or_else(|e| panic!("the exported command does not parse: {e}\n{exported}"));
        assert_eq!(
            again.method(),
            method.as_str(),
            "the method changed: {exported}"
        );
        // Without arguments, values are `<name>` placeholders (not valid JSON in a JSON body),
        // so only a command without them must convert again. Masking may have cut into the
        // URL (a secret whose text is also the path), so the revealed export is the one
        // converted.
        let reveal = curl::ExportOptions::new().reveal_secrets(true);
        let revealed = match curl::to_curl_with(&plugin, name, None, &reveal) {
            Ok(revealed) => revealed,
            Err(e) if e.kind() == curl::ErrorKind::Unrepresentable => continue,
            Err(e) => panic!("the export with secrets revealed fails: {e}\n{exported}"),
        };
        if !revealed.contains('<') {
            let again = curl::parse(&revealed)
                .unwrap_or_else(|e| panic!("the revealed export does not parse: {e}\n{revealed}"));
            let plugin_again = curl::to_plugin(&again).unwrap_or_else(|e| {
                panic!("the exported command does not convert: {e}\n{revealed}")
            });
            let method_again = plugin_again.endpoints().next().map(|e| e.method());
            assert_eq!(method_again, Some(method), "the method changed: {exported}");
        }
    }
});
