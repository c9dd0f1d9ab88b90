//! A result over the output cap reaches Gemini as the cut text, never as the whole
//! structured value: the structured value stays whole for MCP's output schemas, and the
//! cap is what the model may read.

use httptool::json::{self, Json};
use httptool::plugin::HttpPlugin;
use httptool::tool::{gemini, ToolCall, ToolRegistry};

use crate::support::Server;

#[test]
fn a_capped_json_result_is_the_cut_json_in_the_function_response() {
    let items: Vec<String> = (0..200)
        .map(|i| format!(r#"{{"id":{},"title":"issue number {}"}}"#, i, i))
        .collect();
    let body = format!("[{}]", items.join(","));
    let api = Server::responding(move |_| {
        let headers = String::from("Content-Type: application/json\r\n");
        (String::from("200 OK"), headers, body.clone().into_bytes())
    });
    let plugin = HttpPlugin::from_json(&format!(
        r#"{{"name": "g", "base_url": "{}", "endpoints": [
            {{"name": "issues", "path": "/issues", "max_output_bytes": 1500}}]}}"#,
        api.base()
    ))
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let call = ToolCall::new("c1", "issues", "{}");
    let out = registry.call(&call);
    assert!(out.is_truncated());
    assert_eq!(
        out.structured().and_then(Json::as_array).map(Vec::len),
        Some(200)
    );
    // Regression: the function response carried the whole structured value, past the cap.
    let response = gemini::function_response(&call, &out);
    let output = &response["functionResponse"]["response"]["output"];
    assert!(
        output.to_string().len() <= 1500,
        "{}",
        output.to_string().len()
    );
    assert_eq!(output, &json::parse(out.text()).unwrap());
    let kept = output.as_array().unwrap();
    assert!(kept
        .last()
        .and_then(Json::as_str)
        .unwrap()
        .starts_with("[truncated: "));
}
