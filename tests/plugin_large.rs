//! A plugin of 20,000 parameters (and an object of 5,000 properties) loads, renders in every
//! provider format and calls correctly, and its duplicate names are still found.

use httptool::json::{self, Json};
use httptool::plugin::HttpPlugin;
use httptool::tool::{gemini, openai, ToolRegistry};

use crate::support::plugin::{call, plugin, Recorder};

/// How many parameters the large plugin has. Loading was quadratic (16k parameters took
/// 0.48 s in release); the benchmark `benches/plugin.rs` shows the time per parameter stays
/// flat up to 100k. This test checks that a plugin this large loads, renders and calls
/// correctly; it took about 20 s in a debug build before the fix.
const LARGE: usize = 20_000;

fn large_param(i: usize) -> String {
    if i % 2 == 0 {
        format!(
            r#"{{"name":"p{i}","wire_name":"q{i}","in":"query","type":"integer","required":{r}}}"#,
            i = i,
            r = i % 10 == 0
        )
    } else {
        format!(
            r#"{{"name":"p{i}","wire_name":"X-H{i}","in":"header","description":"header {i}"}}"#,
            i = i
        )
    }
}

fn large_plugin_text(params: &[String]) -> String {
    let properties: Vec<String> = (0..LARGE / 4)
        .map(|i| format!(r#""f{}":{{"type":"string","required":{}}}"#, i, i % 2 == 0))
        .collect();
    format!(
        r#"{{"name":"large","base_url":"https://api.example.com",
            "endpoints":[
              {{"name":"getMany","path":"/many","params":[{}]}},
              {{"name":"postObject","method":"POST","path":"/object",
                "params":[{{"name":"o","type":"object","properties":{{{}}}}}]}}]}}"#,
        params.join(","),
        properties.join(",")
    )
}

#[test]
fn a_plugin_with_20k_parameters_loads_renders_and_calls_correctly() {
    let params: Vec<String> = (0..LARGE).map(large_param).collect();
    let text = large_plugin_text(&params);
    let recorder = Recorder::new();
    let plugin = plugin(&text, &recorder);

    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let specs = registry.specs();
    assert_eq!(specs.len(), 2);
    let schema = specs[0].parameters();
    let properties = schema["properties"].as_object().unwrap();
    assert_eq!(properties.len(), LARGE);
    assert_eq!(
        properties.keys().next_back().map(String::as_str),
        Some("p19999")
    );
    assert_eq!(schema["required"].as_array().unwrap().len(), LARGE / 10);
    let object = &specs[1].parameters()["properties"]["o"];
    assert_eq!(object["properties"].as_object().unwrap().len(), LARGE / 4);
    assert_eq!(object["required"].as_array().unwrap().len(), LARGE / 8);

    // Provider formats keep every property and every required name.
    let strict = openai::chat_tool_strict(&specs[0]).unwrap();
    let strict_params = &strict["function"]["parameters"];
    assert_eq!(strict_params["required"].as_array().unwrap().len(), LARGE);
    assert_eq!(
        strict_params["properties"]["p3"]["type"],
        json::parse(r#"["string","null"]"#).unwrap()
    );
    let declaration = gemini::function_declaration(&specs[1]);
    assert_eq!(
        declaration["parameters"]["properties"]["o"]["required"]
            .as_array()
            .unwrap()
            .len(),
        LARGE / 8
    );

    // Written back and read again: the same file.
    let written = plugin.to_json().to_string();
    let again = HttpPlugin::from_json(&written).unwrap();
    assert_eq!(again.to_json().to_string(), written);

    // One call with every parameter: each lands where it is declared.
    let arguments: json::Map = (0..LARGE)
        .map(|i| {
            let value = if i % 2 == 0 {
                Json::from(i)
            } else {
                Json::from(format!("v{}", i))
            };
            (format!("p{}", i), value)
        })
        .collect();
    let out = call(&plugin, "getMany", &Json::from(arguments).to_string());
    assert!(!out.is_error(), "{}", out.text());
    let request = recorder.only();
    let query = request.url().query().unwrap_or("");
    assert!(query.starts_with("q0=0&q2=2&"), "{}", &query[..40]);
    assert!(query.ends_with("&q19998=19998"));
    assert_eq!(request.headers().get("x-h19999"), Some("v19999"));

    // A duplicate at the very end is still found, and named.
    let mut duplicated = params.clone();
    duplicated.push(large_param(0));
    let err = HttpPlugin::from_json(&large_plugin_text(&duplicated)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "endpoints[0].params[{}].name: parameter 'p0' is declared twice",
            LARGE
        )
    );
    // So is a wire name used twice in one location (header names ignore case).
    let mut clash = params;
    clash.push(String::from(
        r#"{"name":"late","wire_name":"x-h1","in":"header"}"#,
    ));
    let err = HttpPlugin::from_json(&large_plugin_text(&clash)).unwrap_err();
    assert_eq!(err.kind(), httptool::plugin::ErrorKind::DuplicateName);
    assert!(err.to_string().contains("'x-h1' is used twice"), "{}", err);
}
