//! Binary answers: images, sounds and files reach the model as the provider formats carry
//! them (MCP image, audio and resource content, Anthropic image and document blocks, OpenAI
//! Responses image and file parts), beside a summary with their size and SHA-256; above the
//! attachment cap, or where a format has no form for them, the summary alone. Never lossy
//! text.

use httptool::json;
use httptool::json::Json;
use httptool::mcp::Server;
use httptool::plugin::HttpPlugin;
use httptool::tool::{
    anthropic, gemini, mcp, openai, AttachmentKind, CallContext, ToolCall, ToolOutput, ToolRegistry,
};

use crate::support::mcp::Session;
use crate::support::Server as Api;

/// A PNG of one transparent pixel, as image tools answer.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82";

/// Every byte value, so no encoding can pass the test by accident.
fn all_bytes(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 % 256) as u8).collect()
}

/// Base64 decoding written out here, so the test does not check the crate against itself.
fn unbase64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        other => panic!("not base64: {:?}", other as char),
    };
    let mut out = Vec::new();
    let (mut buffer, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|&c| c != b'=') {
        buffer = (buffer << 6) | u32::from(value(c));
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
    }
    out
}

/// A loopback API answering each path with a fixed status, headers and body.
fn api() -> Api {
    Api::responding(|request| {
        let path = request.target.split('?').next().unwrap_or("").to_string();
        let ok = String::from("200 OK");
        let typed = |t: &str| format!("Content-Type: {}\r\n", t);
        match path.as_str() {
            "/png" => (ok, typed("image/png"), PNG.to_vec()),
            "/wav" => (ok, typed("audio/wav"), all_bytes(300)),
            "/pdf" => (
                ok,
                format!(
                    "{}Content-Disposition: attachment; filename=\"q3.pdf\"\r\n",
                    typed("application/pdf")
                ),
                b"%PDF-1.7\n\x00\x01\x02 report".to_vec(),
            ),
            "/bytes" => {
                let n: usize = request
                    .target
                    .split("n=")
                    .nth(1)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                (ok, typed("application/octet-stream"), all_bytes(n))
            }
            "/octet-text" => (
                ok,
                typed("application/octet-stream"),
                b"plain words, sent as bytes".to_vec(),
            ),
            "/untyped-jpeg" => (ok, String::new(), b"\xff\xd8\xff\xe0 jfif".to_vec()),
            "/echo" => {
                let mut body = b"\x00\x01key=".to_vec();
                body.extend_from_slice(request.header("x-api-key").unwrap_or_default().as_bytes());
                (ok, typed("application/octet-stream"), body)
            }
            "/broken-png" => (String::from("500 Oops"), typed("image/png"), PNG.to_vec()),
            _ => (String::from("404 Not Found"), String::new(), Vec::new()),
        }
    })
}

fn plugin(api: &Api, options: &str) -> HttpPlugin {
    HttpPlugin::from_json(&format!(
        r#"{{"name": "b", "base_url": "{}", {}
            "auth": {{"type": "header", "name": "X-Api-Key", "value": "k-0123456789"}},
            "endpoints": [
            {{"name": "png", "path": "/png"}},
            {{"name": "promised_png", "path": "/png",
              "output_schema": {{"type": "object", "properties": {{"id": {{"type": "string"}}}}}}}},
            {{"name": "wav", "path": "/wav"}},
            {{"name": "pdf", "path": "/pdf"}},
            {{"name": "bytes", "path": "/bytes", "params": [{{"name": "n", "in": "query", "type": "integer"}}]}},
            {{"name": "octet_text", "path": "/octet-text"}},
            {{"name": "untyped_jpeg", "path": "/untyped-jpeg"}},
            {{"name": "echo", "path": "/echo"}},
            {{"name": "broken_png", "path": "/broken-png"}}]}}"#,
        api.base(),
        options
    ))
    .unwrap()
}

fn call(plugin: &HttpPlugin, tool: &str, arguments: &str) -> ToolOutput {
    plugin
        .dry_run(tool, arguments, &CallContext::new())
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    registry.call(&ToolCall::new("c1", tool, arguments))
}

#[test]
fn an_image_is_attached_whole_beside_its_summary() {
    let api = api();
    let out = call(&plugin(&api, ""), "png", "{}");
    assert!(!out.is_error(), "{}", out.text());
    assert!(
        out.text().starts_with(&format!(
            "binary response (image/png, {} bytes, SHA-256 ",
            PNG.len()
        )),
        "{}",
        out.text()
    );
    let attached = &out.attachments()[0];
    assert_eq!(attached.kind(), AttachmentKind::Image);
    assert_eq!(attached.bytes(), PNG);
    assert_eq!(out.structured(), None);
}

#[test]
fn the_summary_names_the_sha256_of_the_bytes() {
    let api = api();
    // SHA-256 of `"%PDF-1.7\n\0\x01\x02 report"`, from `sha256sum`.
    let out = call(&plugin(&api, ""), "pdf", "{}");
    assert_eq!(
        out.text(),
        "binary response (application/pdf, 19 bytes, SHA-256 b6283427c17b0918ef2bf4fe23e86427a81a15de0fc687c1f608f5e20f218577, file name 'q3.pdf')"
    );
}

#[test]
fn mcp_sends_image_audio_and_resource_content_with_the_bytes() {
    let api = api();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin(&api, "")).unwrap();
    let mut session = Session::ready(Server::new(), registry);

    let image = session.call(Json::from(1), "png", json!({}));
    let content = &image["result"]["content"];
    assert_eq!(content[0]["type"], json!("text"));
    assert_eq!(content[1]["type"], json!("image"));
    assert_eq!(content[1]["mimeType"], json!("image/png"));
    assert_eq!(unbase64(content[1]["data"].as_str().unwrap()), PNG);
    assert_eq!(image["result"]["isError"], json!(false));
    assert!(image["result"].get("structuredContent").is_none());

    let audio = session.call(Json::from(2), "wav", json!({}));
    let block = &audio["result"]["content"][1];
    assert_eq!(block["type"], json!("audio"));
    assert_eq!(block["mimeType"], json!("audio/wav"));
    assert_eq!(unbase64(block["data"].as_str().unwrap()), all_bytes(300));

    let file = session.call(Json::from(3), "bytes", json!({"n": 1000}));
    let block = &file["result"]["content"][1];
    assert_eq!(block["type"], json!("resource"));
    let resource = &block["resource"];
    assert_eq!(resource["mimeType"], json!("application/octet-stream"));
    // The URI is where the bytes came from, without the query (which may hold a token).
    assert_eq!(resource["uri"], json!(api.url("/bytes")));
    assert_eq!(
        unbase64(resource["blob"].as_str().unwrap()),
        all_bytes(1000)
    );
}

#[test]
fn a_tool_with_an_output_schema_sends_an_image_with_empty_structured_content() {
    // structuredContent is whole and valid, or absent: `{}` matches the object schema, and
    // the SDKs refuse a success without it from a tool that has one.
    let api = api();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin(&api, "")).unwrap();
    let mut session = Session::ready(Server::new(), registry);
    let answer = session.call(Json::from(1), "promised_png", json!({}));
    assert_eq!(answer["result"]["isError"], json!(false));
    assert_eq!(answer["result"]["structuredContent"], json!({}));
    assert_eq!(answer["result"]["content"][1]["type"], json!("image"));
}

#[test]
fn sessions_at_2024_11_05_get_no_audio_content() {
    // AudioContent came with 2025-03-26: older clients read the summary.
    let api = api();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin(&api, "")).unwrap();
    let mut session = Session::start(Server::new(), registry);
    session.initialize("2024-11-05");
    session.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let audio = session.call(Json::from(1), "wav", json!({}));
    let content = audio["result"]["content"].as_array().unwrap();
    assert_eq!(content.len(), 1, "{}", audio);
    assert!(content[0]["text"]
        .as_str()
        .unwrap()
        .starts_with("binary response (audio/wav, 300 bytes"));
    let image = session.call(Json::from(2), "png", json!({}));
    assert_eq!(image["result"]["content"][1]["type"], json!("image"));
}

#[test]
fn anthropic_gets_image_and_document_blocks() {
    let api = api();
    let p = plugin(&api, "");
    let call_id = ToolCall::new("toolu_1", "png", "{}");
    let out = call(&p, "png", "{}");
    let block = anthropic::tool_result(&call_id, &out);
    assert_eq!(block["content"][0]["type"], json!("text"));
    let image = &block["content"][1];
    assert_eq!(image["type"], json!("image"));
    assert_eq!(image["source"]["type"], json!("base64"));
    assert_eq!(image["source"]["media_type"], json!("image/png"));
    assert_eq!(unbase64(image["source"]["data"].as_str().unwrap()), PNG);

    let pdf = anthropic::tool_result(&call_id, &call(&p, "pdf", "{}"));
    assert_eq!(pdf["content"][1]["type"], json!("document"));
    assert_eq!(
        pdf["content"][1]["source"]["media_type"],
        json!("application/pdf")
    );

    // Audio has no form in a tool_result: the text alone.
    let wav = anthropic::tool_result(&call_id, &call(&p, "wav", "{}"));
    assert!(wav["content"]
        .as_str()
        .unwrap()
        .starts_with("binary response (audio/wav"));
}

#[test]
fn openai_responses_get_image_and_file_parts_and_chat_the_text() {
    let api = api();
    let p = plugin(&api, "");
    let call_id = ToolCall::new("call_1", "png", "{}");
    let out = call(&p, "png", "{}");
    let item = openai::responses_result(&call_id, &out);
    assert_eq!(item["output"][0]["type"], json!("input_text"));
    assert_eq!(item["output"][1]["type"], json!("input_image"));
    let url = item["output"][1]["image_url"].as_str().unwrap();
    let data = url.strip_prefix("data:image/png;base64,").unwrap();
    assert_eq!(unbase64(data), PNG);

    let pdf = openai::responses_result(&call_id, &call(&p, "pdf", "{}"));
    assert_eq!(pdf["output"][1]["type"], json!("input_file"));
    assert_eq!(pdf["output"][1]["filename"], json!("q3.pdf"));
    assert!(pdf["output"][1]["file_data"]
        .as_str()
        .unwrap()
        .starts_with("data:application/pdf;base64,"));

    // Chat Completions and Gemini have no form for it in a tool result: the summary.
    assert_eq!(
        openai::chat_result(&call_id, &out)["content"],
        json!(out.text())
    );
    let gemini = gemini::function_response(&call_id, &out);
    assert_eq!(
        gemini["functionResponse"]["response"]["output"],
        json!(out.text())
    );
}

#[test]
fn the_attachment_cap_is_tested_on_both_sides() {
    let api = api();
    let p = plugin(&api, r#""max_attachment_bytes": 100,"#);
    let at = call(&p, "bytes", r#"{"n": 100}"#);
    assert_eq!(at.attachments().len(), 1);
    assert_eq!(at.attachments()[0].bytes(), &all_bytes(100)[..]);
    let over = call(&p, "bytes", r#"{"n": 101}"#);
    assert!(!over.is_error());
    assert!(over.attachments().is_empty());
    assert!(
        over.text().ends_with(
            "; the content is not shown: it is larger than the endpoint's max_attachment_bytes (100 bytes)"
        ),
        "{}",
        over.text()
    );
    // 0 sends none.
    let none = call(&plugin(&api, r#""max_attachment_bytes": 0,"#), "png", "{}");
    assert!(none.attachments().is_empty());
}

#[test]
fn octet_stream_holding_utf8_text_is_text() {
    let api = api();
    let out = call(&plugin(&api, ""), "octet_text", "{}");
    assert_eq!(out.text(), "plain words, sent as bytes");
    assert!(out.attachments().is_empty());
}

#[test]
fn a_body_without_a_type_is_named_by_its_first_bytes() {
    let api = api();
    let out = call(&plugin(&api, ""), "untyped_jpeg", "{}");
    assert!(
        out.text()
            .starts_with("binary response (image/jpeg, 9 bytes"),
        "{}",
        out.text()
    );
    assert_eq!(out.attachments()[0].media_type(), "image/jpeg");
}

#[test]
fn bytes_that_echo_a_secret_are_described_not_attached() {
    let api = api();
    let out = call(&plugin(&api, ""), "echo", "{}");
    assert!(out.attachments().is_empty());
    assert!(
        out.text()
            .ends_with("; the content is not shown: it holds a secret the call sent"),
        "{}",
        out.text()
    );
    assert!(!out.text().contains("k-0123456789"));
}

#[test]
fn an_error_answer_with_an_image_is_an_error_with_its_summary() {
    let api = api();
    let out = call(&plugin(&api, ""), "broken_png", "{}");
    assert!(out.is_error());
    assert!(out.attachments().is_empty());
    assert!(
        out.text()
            .starts_with("the API answered 500 Oops: binary response (image/png, "),
        "{}",
        out.text()
    );
    assert!(out.text().ends_with("; the content is not shown"));
    assert_eq!(
        mcp::call_tool_result(&out)["content"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn the_caps_are_plugin_file_fields_that_round_trip() {
    let text = r#"{"name": "p", "base_url": "https://api.example.com",
        "max_attachment_bytes": 2048, "max_stream_events": 50,
        "endpoints": [{"name": "e", "path": "/e", "max_stream_bytes": 4096,
                       "timeout_stream_ms": 1500}]}"#;
    let plugin = HttpPlugin::from_json(text).unwrap();
    let written = plugin.to_json();
    assert_eq!(written["max_attachment_bytes"], json!(2048));
    assert_eq!(written["max_stream_events"], json!(50));
    assert_eq!(written["endpoints"][0]["max_stream_bytes"], json!(4096));
    assert_eq!(written["endpoints"][0]["timeout_stream_ms"], json!(1500));
    let again = HttpPlugin::from_json(&written.to_string()).unwrap();
    assert_eq!(again.to_json(), written);
    let zero = r#"{"name": "p", "base_url": "https://api.example.com", "max_stream_bytes": 0,
        "endpoints": [{"name": "e", "path": "/e"}]}"#;
    let err = HttpPlugin::from_json(zero).unwrap_err();
    assert!(
        err.to_string()
            .contains("the stream budget must be at least 1 byte"),
        "{}",
        err
    );
}
