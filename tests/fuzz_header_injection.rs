//! Header injection from every source a header value or name can come from, fuzzed: CR, LF,
//! NUL and the other control characters but tab, at random places in random text (fixed
//! seeds, no dependencies).
//!
//! Every source refuses such a value, before anything is sent, or encodes it so it cannot
//! end a line: `Headers` (append, insert, sensitive or not) and `Request::with_header`; the
//! client's `User-Agent`; a proxy's credentials; a plugin's static headers (literal or from
//! `${NAME}`), header names, wire names and auth values; values from the call context (auth,
//! context headers, hidden header parameters); the model's header parameters; a `Signer`'s
//! headers; multipart part names, file names and media types; query names and values, and
//! path values. Every request head that is rendered holds no CR, LF or NUL inside a line.

use std::sync::Arc;

use httptool::http::{Client, Config, ErrorKind, Headers, Proxy, ProxyConfig, Request, Secrets};
use httptool::json::{Json, Map};
use httptool::plugin::{FilePart, FileResolver, HttpPlugin};
use httptool::tool::{self, CallContext};
use httptool::url::Url;

use crate::support::rng::Rng;

/// Every control character a header value may not hold (all but tab), CRLF sequences first.
fn bad_sequences() -> Vec<String> {
    let mut bad: Vec<String> = ["\r\n", "\r", "\n", "\0", "\n\r", "\r\n\r\n"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    bad.extend(
        (0u8..0x20)
            .chain([0x7f])
            .filter(|&b| b != b'\t')
            .map(|b| char::from(b).to_string()),
    );
    bad
}

/// Random text with one bad sequence somewhere in it (its start, middle or end).
fn hostile(rng: &mut Rng, bad: &str) -> String {
    const WORDS: &[&str] = &[
        "a",
        "token",
        " ",
        "\t",
        "é",
        "X-Injected: 1",
        "Set-Cookie: s=1",
        "",
    ];
    let mut s = String::new();
    let place = rng.below(3);
    if place == 0 {
        s.push_str(bad);
    }
    s.push_str(rng.pick(WORDS));
    if place == 1 {
        s.push_str(bad);
    }
    s.push_str(rng.pick(WORDS));
    if place == 2 {
        s.push_str(bad);
    }
    s
}

/// No CR, LF or NUL inside any line of the head of `rendered`.
fn assert_clean_head(rendered: &[u8], context: &str) {
    let text = String::from_utf8_lossy(rendered);
    let end = text.find("\r\n\r\n").expect("a head");
    for line in text[..end].split("\r\n") {
        assert!(
            !line.contains(['\r', '\n', '\0']),
            "{context}: {line:?} in {:?}",
            &text[..end]
        );
    }
}

#[test]
fn headers_refuse_control_characters_in_names_and_values() {
    let mut rng = Rng::new(0xc41f_0001);
    for bad in bad_sequences() {
        for _ in 0..8 {
            let value = hostile(&mut rng, &bad);
            let mut headers = Headers::new();
            assert_eq!(
                headers.append("X-Value", &value).unwrap_err().kind(),
                ErrorKind::InvalidHeaderValue
            );
            assert!(headers.append_sensitive("X-Value", &value).is_err());
            assert!(headers.insert("X-Value", &value).is_err());
            assert!(headers.insert_sensitive("X-Value", &value).is_err());
            let name = format!("X{}", hostile(&mut rng, &bad).replace(' ', ""));
            assert_eq!(
                headers.append(&name, "v").unwrap_err().kind(),
                ErrorKind::InvalidHeaderName
            );
            assert!(headers.is_empty());
            let request = Request::get("http://example.com/").unwrap();
            assert!(request.clone().with_header("X-Value", &value).is_err());
            assert!(request.with_sensitive_header("X-Value", &value).is_err());
        }
    }
}

#[test]
fn the_user_agent_and_proxy_credentials_cannot_inject() {
    let mut rng = Rng::new(0xc41f_0002);
    let request = Request::get("http://example.com/a").unwrap();
    for bad in bad_sequences() {
        let agent = hostile(&mut rng, &bad);
        let client = Client::with_config(Config::new().user_agent(Some(&agent)));
        let err = client.render(&request, Secrets::Reveal).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidHeaderValue, "{agent:?}");
        // Credentials go to the proxy base64-encoded, whatever they hold.
        let user = hostile(&mut rng, &bad);
        let proxy = Proxy::new("http://proxy.internal:3128")
            .unwrap()
            .basic_auth(&user, &hostile(&mut rng, &bad));
        let client = Client::with_config(Config::new().proxy(ProxyConfig::all(proxy)));
        let rendered = client.render(&request, Secrets::Reveal).unwrap();
        assert_clean_head(&rendered, &format!("proxy user {user:?}"));
    }
}

#[test]
fn urls_refuse_control_characters_and_query_pairs_encode_them() {
    let mut rng = Rng::new(0xc41f_0003);
    for bad in bad_sequences() {
        let text = hostile(&mut rng, &bad);
        for url in [
            format!("http://example.com/{text}"),
            format!("http://example.com/?q={text}"),
            format!("http://{text}.example.com/"),
        ] {
            assert!(Url::parse(&url).is_err(), "{url:?}");
        }
        let mut url = Url::parse("http://example.com/a").unwrap();
        assert!(url.set_path(&text).is_err());
        url.append_query_pair(&text, &text);
        let request = Request::from_url(httptool::http::Method::Get, url);
        assert_clean_head(&request.render(Secrets::Reveal).unwrap(), &text);
    }
}

fn plugin_file(headers: Json, auth: Json, params: Json) -> String {
    let mut endpoint = Map::new();
    endpoint.insert("name", "call");
    endpoint.insert("method", "POST");
    endpoint.insert("path", "/v1/{id}");
    endpoint.insert("body_encoding", "multipart");
    endpoint.insert("params", params);
    let mut file = Map::new();
    file.insert("name", "inject");
    file.insert("base_url", "https://api.example.com");
    file.insert("headers", headers);
    if !auth.is_null() {
        file.insert("auth", auth);
    }
    file.insert("endpoints", vec![Json::from(endpoint)]);
    Json::from(file).to_string()
}

fn object(pairs: &[(&str, Json)]) -> Json {
    let mut map = Map::new();
    for (k, v) in pairs {
        map.insert(*k, v.clone());
    }
    Json::from(map)
}

fn params() -> Json {
    Json::from(vec![
        object(&[("name", "id".into()), ("in", "path".into())]),
        object(&[
            ("name", "trace".into()),
            ("wire_name", "X-Trace".into()),
            ("in", "header".into()),
        ]),
        object(&[
            ("name", "traces".into()),
            ("wire_name", "X-Traces".into()),
            ("in", "header".into()),
            ("type", "array".into()),
            ("items", object(&[("type", "string".into())])),
            ("array_style", "comma".into()),
        ]),
        object(&[
            ("name", "user".into()),
            ("wire_name", "X-User".into()),
            ("in", "header".into()),
            ("hidden", true.into()),
        ]),
        object(&[("name", "caption".into()), ("in", "form".into())]),
        object(&[
            ("name", "doc".into()),
            ("in", "form".into()),
            ("file", true.into()),
        ]),
    ])
}

#[test]
fn plugin_declarations_refuse_control_characters_in_headers() {
    let mut rng = Rng::new(0xc41f_0004);
    let context = object(&[("context", "tenant".into())]);
    for bad in bad_sequences() {
        let value = hostile(&mut rng, &bad);
        let name = format!("X{}", hostile(&mut rng, &bad).replace(' ', ""));
        let files = [
            // A static header's value, and its name.
            plugin_file(
                object(&[("X-Static", value.clone().into())]),
                Json::Null,
                params(),
            ),
            plugin_file(object(&[(name.as_str(), "v".into())]), Json::Null, params()),
            // The same value read from the environment.
            plugin_file(
                object(&[("X-Static", "${VALUE}".into())]),
                Json::Null,
                params(),
            ),
            // Auth values and names.
            plugin_file(
                object(&[]),
                object(&[("type", "bearer".into()), ("token", value.clone().into())]),
                params(),
            ),
            plugin_file(
                object(&[]),
                object(&[
                    ("type", "header".into()),
                    ("name", "X-Key".into()),
                    ("value", value.clone().into()),
                ]),
                params(),
            ),
            plugin_file(
                object(&[]),
                object(&[
                    ("type", "header".into()),
                    ("name", name.clone().into()),
                    ("value", "v".into()),
                ]),
                params(),
            ),
            // A header parameter's wire name.
            plugin_file(
                object(&[("X-Tenant", context.clone())]),
                Json::Null,
                Json::from(vec![
                    object(&[("name", "id".into()), ("in", "path".into())]),
                    object(&[
                        ("name", "p".into()),
                        ("wire_name", name.clone().into()),
                        ("in", "header".into()),
                    ]),
                ]),
            ),
        ];
        for file in files {
            let lookup = |_: &str| Some(value.clone());
            let err = HttpPlugin::from_json_with(&file, lookup)
                .err()
                .unwrap_or_else(|| panic!("accepted {file}"));
            assert!(!err.to_string().contains(&bad), "{err}");
        }
    }
}

/// A resolver that hands out whatever name and type the handle asks for.
struct Echo;

impl FileResolver for Echo {
    fn resolve(
        &self,
        handle: &str,
        _: &CallContext,
    ) -> Result<FilePart, Box<dyn std::error::Error + Send + Sync>> {
        Ok(FilePart::new(handle, handle, b"bytes".to_vec()))
    }
}

fn call_plugin() -> HttpPlugin {
    let file = plugin_file(
        object(&[("X-Tenant", object(&[("context", "tenant".into())]))]),
        object(&[
            ("type", "bearer".into()),
            ("token", object(&[("context", "token".into())])),
        ]),
        params(),
    );
    HttpPlugin::from_json(&file)
        .unwrap()
        .with_file_resolver(Arc::new(Echo))
}

fn good_context() -> CallContext {
    CallContext::new()
        .with("token", "t")
        .with("tenant", "acme")
        .with("user", "ann")
}

#[test]
fn call_context_values_cannot_inject() {
    let plugin = call_plugin();
    let tool = plugin.tool("call").unwrap();
    let mut rng = Rng::new(0xc41f_0005);
    for bad in bad_sequences() {
        for key in ["token", "tenant", "user"] {
            let mut context = good_context();
            context.insert(key, hostile(&mut rng, &bad));
            let mut arguments = Map::new();
            arguments.insert("id", "1");
            let out = tool.prepare(arguments, &context).unwrap_err();
            assert_eq!(
                out.error_kind(),
                Some(tool::ErrorKind::InvalidParameter),
                "{key}: {}",
                out.text()
            );
            assert!(out.text().contains(&format!("'{key}'")), "{}", out.text());
        }
    }
}

#[test]
fn model_arguments_cannot_inject() {
    let plugin = call_plugin();
    let tool = plugin.tool("call").unwrap();
    let mut rng = Rng::new(0xc41f_0006);
    for bad in bad_sequences() {
        let value = hostile(&mut rng, &bad);
        // Header parameters are refused.
        for (name, arg) in [
            ("trace", Json::from(value.clone())),
            (
                "traces",
                Json::from(vec![Json::from("ok"), Json::from(value.clone())]),
            ),
        ] {
            let mut arguments = Map::new();
            arguments.insert("id", "1");
            arguments.insert(name, arg);
            let out = tool.prepare(arguments, &good_context()).unwrap_err();
            assert_eq!(out.error_kind(), Some(tool::ErrorKind::InvalidParameter));
            assert!(!out.text().contains(&bad), "{}", out.text());
        }
        // Path values, form values and file names are encoded.
        let mut arguments = Map::new();
        arguments.insert("id", format!("x{value}"));
        arguments.insert("caption", value.clone());
        arguments.insert("doc", format!("file{value}"));
        if let Ok(request) = tool.prepare(arguments, &good_context()) {
            let rendered = request.render(Secrets::Reveal).unwrap();
            assert_clean_head(&rendered, &value);
            let text = String::from_utf8_lossy(&rendered).into_owned();
            let disposition = text
                .lines()
                .find(|l| l.contains("filename="))
                .expect("a file part");
            assert!(!disposition.contains(['\r', '\0']), "{disposition:?}");
            let media = text
                .split("\r\n")
                .filter(|l| l.starts_with("Content-Type: "))
                .last()
                .unwrap();
            assert_eq!(media, "Content-Type: application/octet-stream", "{value:?}");
        }
    }
}

#[test]
fn a_signer_cannot_inject() {
    let mut rng = Rng::new(0xc41f_0007);
    for bad in bad_sequences() {
        let value = hostile(&mut rng, &bad);
        let signer = move |request: &mut Request, _: &CallContext| {
            request.headers_mut().append("X-Signature", &value)?;
            Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
        };
        let plugin = call_plugin().with_signer(Arc::new(signer));
        let mut arguments = Map::new();
        arguments.insert("id", "1");
        let out = plugin
            .tool("call")
            .unwrap()
            .prepare(arguments, &good_context())
            .unwrap_err();
        assert_eq!(out.error_kind(), Some(tool::ErrorKind::ToolFailed));
        assert!(!out.text().contains(&bad));
    }
}
