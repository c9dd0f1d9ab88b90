//! Postman collections (v2.0 and v2.1) imported and called against a loopback server: the
//! request each tool sends, folders as tags, variables, auth of every kind the plugin has,
//! bodies in every mode, and hostile collections that end in clear errors.

use crate::support::Server;
use httptool::json::{self, Json};
use httptool::plugin::{Auth, HttpPlugin, Location};
use httptool::postman::{self, ErrorKind, ImportOptions};
use httptool::tool::{ToolCall, ToolRegistry};

fn collection(text: &str) -> Json {
    json::parse(text).unwrap_or_else(|e| panic!("fixture: {}", e))
}

fn import(text: &str) -> postman::Import {
    postman::import(&collection(text)).unwrap_or_else(|e| panic!("import: {}", e))
}

/// A collection whose `baseUrl` variable points at the server.
fn shop(server: &Server) -> String {
    format!(
        r#"{{
  "info": {{"name": "Shop API", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
  "variable": [
    {{"key": "baseUrl", "value": "{base}/v1"}},
    {{"key": "token", "value": "t0ken-value"}},
    {{"key": "pageSize", "value": "20"}}
  ],
  "auth": {{"type": "bearer", "bearer": [{{"key": "token", "value": "{{{{token}}}}", "type": "string"}}]}},
  "item": [
    {{"name": "Orders", "item": [
      {{"name": "Admin", "item": [
        {{"name": "List orders", "request": {{"method": "GET",
          "header": [{{"key": "Accept", "value": "application/json"}}, {{"key": "X-Debug", "value": "1", "disabled": true}}],
          "url": {{"raw": "{{{{baseUrl}}}}/orders?limit={{{{pageSize}}}}&status=open",
            "host": ["{{{{baseUrl}}}}"], "path": ["orders"],
            "query": [{{"key": "limit", "value": "{{{{pageSize}}}}"}}, {{"key": "status", "value": "open"}},
                      {{"key": "debug", "value": "true", "disabled": true}}]}}}}}}
      ]}},
      {{"name": "Get order", "request": {{"method": "GET",
        "url": {{"raw": "{{{{baseUrl}}}}/orders/:id", "host": ["{{{{baseUrl}}}}"], "path": ["orders", ":id"],
          "variable": [{{"key": "id", "value": "42", "description": "The order id"}}]}}}}}},
      {{"name": "Create order", "request": {{"method": "POST",
        "header": [{{"key": "Content-Type", "value": "application/json"}}],
        "body": {{"mode": "raw", "raw": "{{\n  // the item\n  \"sku\": \"A-1\",\n  \"qty\": 2\n}}",
          "options": {{"raw": {{"language": "json"}}}}}},
        "url": "{{{{baseUrl}}}}/orders"}}}}
    ]}},
    {{"name": "Login", "request": {{"method": "POST", "auth": {{"type": "noauth"}},
      "body": {{"mode": "urlencoded", "urlencoded": [{{"key": "username", "value": "bob"}}, {{"key": "password", "value": "hunter2"}}]}},
      "url": "{{{{baseUrl}}}}/login"}}}},
    {{"name": "List orders", "request": "{{{{baseUrl}}}}/orders/archived"}}
  ]
}}"#,
        base = server.base()
    )
}

fn call(plugin: &HttpPlugin, tool: &str, arguments: &str) -> String {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    let out = registry.call(&ToolCall::new("c1", tool, arguments));
    assert!(!out.is_error(), "{}: {}", tool, out.text());
    out.text().to_string()
}

#[test]
fn a_query_request_is_sent_as_recorded() {
    let server = Server::json(r#"{"orders": []}"#);
    let import = import(&shop(&server));
    call(import.plugin(), "list_orders", r#"{"status": "open"}"#);
    let sent = &server.requests()[0];
    assert_eq!(sent.method, "GET");
    assert_eq!(sent.target, "/v1/orders?limit=20&status=open");
    assert_eq!(
        sent.header("authorization").as_deref(),
        Some("Bearer t0ken-value")
    );
    assert_eq!(sent.header("accept").as_deref(), Some("application/json"));
    assert_eq!(sent.header("x-debug"), None);
}

#[test]
fn path_variables_become_path_parameters() {
    let server = Server::json("{}");
    let import = import(&shop(&server));
    let endpoint = import.plugin().endpoint("get_order").unwrap();
    assert_eq!(endpoint.path(), "/orders/{id}");
    let id = endpoint.param("id").unwrap();
    assert_eq!(id.location(), Location::Path);
    assert_eq!(id.description(), "The order id");
    call(import.plugin(), "get_order", r#"{"id": 42}"#);
    assert_eq!(server.requests()[0].target, "/v1/orders/42");
}

#[test]
fn a_raw_json_body_with_comments_gives_body_parameters() {
    let server = Server::json("{}");
    let import = import(&shop(&server));
    call(
        import.plugin(),
        "create_order",
        r#"{"sku": "B-2", "qty": 3}"#,
    );
    let sent = &server.requests()[0];
    assert_eq!(sent.method, "POST");
    let body = json::parse_bytes(&sent.body).unwrap();
    assert_eq!(body, json::parse(r#"{"sku": "B-2", "qty": 3}"#).unwrap());
    assert!(sent
        .header("content-type")
        .unwrap()
        .starts_with("application/json"));
}

#[test]
fn a_form_body_hides_its_credentials() {
    let server = Server::json("{}");
    let import = import(&shop(&server));
    let endpoint = import.plugin().endpoint("login").unwrap();
    let spec = endpoint.params().iter().filter(|p| !p.is_hidden()).count();
    assert_eq!(spec, 1, "only username is the model's");
    call(import.plugin(), "login", r#"{"username": "ann"}"#);
    let sent = &server.requests()[0];
    assert_eq!(
        String::from_utf8_lossy(&sent.body),
        "username=ann&password=hunter2"
    );
    let file = import.plugin().to_json().to_string();
    assert!(!file.contains("hunter2"), "{}", file);
    assert!(!file.contains("t0ken-value"), "{}", file);
}

#[test]
fn folders_are_tags_and_names_are_unique() {
    let server = Server::json("{}");
    let import = import(&shop(&server));
    let plugin = import.plugin();
    let names: Vec<&str> = plugin.endpoints().map(|e| e.name()).collect();
    assert_eq!(
        names,
        [
            "list_orders",
            "get_order",
            "create_order",
            "login",
            "list_orders_2"
        ]
    );
    let tags = plugin.endpoint("list_orders").unwrap().tags();
    assert_eq!(tags, ["Orders / Admin"]);
    assert!(plugin.endpoint("login").unwrap().tags().is_empty());
    assert_eq!(plugin.base_url().as_str(), format!("{}/v1", server.base()));
}

#[test]
fn the_file_reads_back_with_its_variables_set() {
    let server = Server::json("{}");
    let import = import(&shop(&server));
    let text = import.plugin().to_json().to_string();
    let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    assert!(names.contains(&"TOKEN"), "{:?}", names);
    let loaded = HttpPlugin::from_json_with(&text, |name| match name {
        "TOKEN" => Some("from-env".to_string()),
        "SHOP_API_PASSWORD" => Some("pw".to_string()),
        _ => None,
    })
    .unwrap();
    call(&loaded, "list_orders", r#"{"status": "x"}"#);
    assert_eq!(
        server.requests()[0].header("authorization").as_deref(),
        Some("Bearer from-env")
    );
}

#[test]
fn disabled_query_keys_are_optional() {
    let server = Server::json("{}");
    let import = import(&shop(&server));
    let endpoint = import.plugin().endpoint("list_orders").unwrap();
    assert!(endpoint.param("status").unwrap().is_required());
    assert!(!endpoint.param("debug").unwrap().is_required());
    assert_eq!(
        endpoint
            .param("limit")
            .unwrap()
            .default()
            .and_then(Json::as_i64),
        Some(20)
    );
}

fn single(auth: &str, base: &str) -> String {
    format!(
        r#"{{"info": {{"name": "a"}}, "auth": {auth},
            "item": [{{"name": "Ping", "request": {{"method": "GET", "url": "{base}/ping"}}}}]}}"#
    )
}

#[test]
fn auth_kinds_map_to_the_plugins() {
    let base = "https://api.example.com";
    let cases = [
        (
            r#"{"type": "basic", "basic": [{"key": "username", "value": "u"}, {"key": "password", "value": "p"}]}"#,
            "basic",
        ),
        (
            r#"{"type": "digest", "digest": [{"key": "username", "value": "u"}, {"key": "password", "value": "p"}]}"#,
            "digest",
        ),
        (
            r#"{"type": "apikey", "apikey": [{"key": "key", "value": "X-Key"}, {"key": "value", "value": "k"}, {"key": "in", "value": "header"}]}"#,
            "header",
        ),
        (
            r#"{"type": "apikey", "apikey": [{"key": "key", "value": "api_key"}, {"key": "value", "value": "k"}, {"key": "in", "value": "query"}]}"#,
            "query",
        ),
        (
            r#"{"type": "awsv4", "awsv4": [{"key": "accessKey", "value": "AK"}, {"key": "secretKey", "value": "SK"}, {"key": "region", "value": "us-east-1"}, {"key": "service", "value": "s3"}]}"#,
            "aws_sigv4",
        ),
        (
            r#"{"type": "oauth2", "oauth2": [{"key": "grant_type", "value": "client_credentials"}, {"key": "accessTokenUrl", "value": "https://auth.example.com/token"}, {"key": "clientId", "value": "id"}, {"key": "clientSecret", "value": "cs"}]}"#,
            "oauth2_client_credentials",
        ),
        // v2.0 writes the attributes as an object.
        (r#"{"type": "bearer", "bearer": {"token": "t"}}"#, "bearer"),
    ];
    for (auth, kind) in cases {
        let import = import(&single(auth, base));
        let got = import.plugin().auth().map(Auth::type_name);
        assert_eq!(got, Some(kind), "{}", auth);
        let file = import.plugin().to_json().to_string();
        for secret in ["\"p\"", "\"k\"", "\"SK\"", "\"cs\"", "\"t\""] {
            assert!(!file.contains(secret), "{} in {}", secret, file);
        }
    }
}

#[test]
fn unsupported_auth_is_a_warning_naming_the_request() {
    let import = import(&single(
        r#"{"type": "hawk", "hawk": [{"key": "authId", "value": "x"}]}"#,
        "https://api.example.com",
    ));
    assert!(import.plugin().auth().is_none());
    assert!(
        import
            .warnings()
            .iter()
            .any(|w| w.contains("hawk") && w.contains("Ping")),
        "{:?}",
        import.warnings()
    );
}

#[test]
fn a_base_url_variable_without_a_value_is_read_from_the_environment() {
    let text = r#"{"info": {"name": "a"}, "item": [
        {"name": "Ping", "request": {"method": "GET", "url": "{{host}}/ping"}}]}"#;
    let import = import(text);
    let file = import.plugin().to_json().to_string();
    assert!(file.contains(r#""base_url":"${HOST}""#), "{}", file);
    let server = Server::json("{}");
    let loaded =
        HttpPlugin::from_json_with(&file, |name| (name == "HOST").then(|| server.base())).unwrap();
    call(&loaded, "ping", "{}");
    assert_eq!(server.requests()[0].target, "/ping");
}

#[test]
fn multipart_graphql_and_websocket_items() {
    let text = r#"{"info": {"name": "a"}, "item": [
        {"name": "Upload", "request": {"method": "POST", "url": "https://x.test/files",
          "body": {"mode": "formdata", "formdata": [
            {"key": "file", "type": "file", "src": "/tmp/a.png"}, {"key": "note", "value": "hi", "type": "text"}]}}},
        {"name": "Query", "request": {"method": "POST", "url": "https://x.test/graphql",
          "body": {"mode": "graphql", "graphql": {"query": "{ me { id } }", "variables": "{\"a\": 1}"}}}},
        {"name": "Socket", "request": {"method": "GET", "url": "wss://x.test/socket"}},
        {"name": "Off", "disabled": true, "request": "https://x.test/off"}
    ]}"#;
    let import = import(text);
    let plugin = import.plugin();
    let upload = plugin.endpoint("upload").unwrap();
    assert!(upload.param("file").unwrap().is_file());
    assert_eq!(upload.param("note").unwrap().location(), Location::Form);
    let query = plugin.endpoint("query").unwrap();
    assert_eq!(
        query
            .param("query")
            .unwrap()
            .default()
            .and_then(Json::as_str),
        Some("{ me { id } }")
    );
    assert!(query.param("variables").is_some());
    assert_eq!(plugin.endpoints().count(), 2);
    assert_eq!(import.warnings().len(), 2, "{:?}", import.warnings());
}

// ------------------------------------------------------------- hostile collections

fn error(text: &str) -> postman::Error {
    match postman::import(&collection(text)) {
        Ok(_) => panic!("imported: {}", text),
        Err(err) => err,
    }
}

#[test]
fn wrong_types_are_errors_naming_the_field() {
    let cases = [
        (r#"[]"#, ErrorKind::NotACollection, "not a JSON object"),
        (
            r#"{"requests": []}"#,
            ErrorKind::NotACollection,
            "v1 collection",
        ),
        (
            r#"{"item": 3}"#,
            ErrorKind::Invalid,
            "item: expected a list",
        ),
        (
            r#"{"item": [7]}"#,
            ErrorKind::Invalid,
            "item[0]: expected an object",
        ),
        (
            r#"{"item": [{"name": "a", "request": {"url": 5}}]}"#,
            ErrorKind::Invalid,
            "item[0].request.url: expected a string or an object, got number",
        ),
        (
            r#"{"item": [{"item": [{"request": {"url": "x.test", "method": "G T"}}]}]}"#,
            ErrorKind::Invalid,
            "item[0].item[0].request.method: not an HTTP method",
        ),
        (
            r#"{"item": [{"request": {"url": {"raw": "x.test", "query": {"a": 1}}}}]}"#,
            ErrorKind::Invalid,
            "item[0].request.url.query: expected a list, got object",
        ),
        (r#"{"item": []}"#, ErrorKind::NoRequests, "no request"),
    ];
    for (text, kind, message) in cases {
        let err = error(text);
        assert_eq!(err.kind(), kind, "{}: {}", text, err);
        assert!(err.to_string().contains(message), "{}: {}", text, err);
        // Only a field at fault has a place, and the message starts with it.
        assert_eq!(err.at().is_some(), kind == ErrorKind::Invalid, "{}", err);
        if let Some(at) = err.at() {
            assert!(err.to_string().starts_with(&format!("{}: ", at)), "{}", err);
        }
    }
}

#[test]
fn deep_folders_cost_no_stack() {
    let depth = 20_000;
    let mut text = String::from(r#"{"item": ["#);
    for _ in 0..depth {
        text.push_str(r#"{"name": "f", "item": ["#);
    }
    text.push_str(r#"{"name": "Leaf", "request": "https://x.test/leaf"}"#);
    for _ in 0..depth {
        text.push_str("]}");
    }
    text.push_str("]}");
    let value = json::ParseOptions::new()
        .max_depth(2 * depth + 10)
        .parse(&text)
        .unwrap();
    let import = postman::import(&value).unwrap();
    assert_eq!(import.plugin().endpoints().count(), 1);
}

#[test]
fn too_many_requests_is_an_error() {
    let mut text = String::from(r#"{"item": ["#);
    for i in 0..11 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(r#"{"name": "r", "request": "https://x.test/r"}"#);
    }
    text.push_str("]}");
    let options = ImportOptions::new().max_requests(10);
    let err = postman::import_with(&collection(&text), &options).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooManyRequests);
    assert_eq!(
        err.to_string(),
        "the collection holds more than 10 requests; raise the limit to import it"
    );
    let options = ImportOptions::new().max_requests(11);
    assert!(postman::import_with(&collection(&text), &options).is_ok());
}

#[test]
fn secrets_never_reach_errors_or_warnings() {
    let text = r#"{"item": [{"name": "a", "request": {"method": "GET",
        "url": "https://user:s3cr3t-pw@x.test/a?api_key=sk_live_abcdefghijkl",
        "header": [{"key": "Authorization", "value": "Bearer eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl"}]}}]}"#;
    let import = import(text);
    let file = import.plugin().to_json().to_string();
    for secret in ["s3cr3t-pw", "sk_live_abcdefghijkl", "eyJhbGciOi"] {
        assert!(!file.contains(secret), "{} in {}", secret, file);
        assert!(!import.warnings().iter().any(|w| w.contains(secret)));
    }
}

#[test]
fn a_saved_example_answer_gives_the_output_schema_without_its_values() {
    let text = r#"{"info": {"name": "a"}, "item": [
        {"name": "Me", "request": {"method": "GET", "url": "https://x.test/me"},
         "response": [{"name": "ok", "code": 200, "body": "{\"id\": 7, \"email\": \"ann@x.test\", \"tags\": [\"a\"]}"}]}]}"#;
    let import = import(text);
    let schema = import
        .plugin()
        .endpoint("me")
        .unwrap()
        .output_schema()
        .unwrap()
        .to_string();
    assert_eq!(
        schema,
        r#"{"type":"object","properties":{"id":{"type":"integer"},"email":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}}}"#
    );
    assert!(!import.plugin().to_json().to_string().contains("ann@x.test"));
}

#[test]
fn an_environment_gives_the_variables_their_values() {
    let server = Server::json("{}");
    let text = r#"{"info": {"name": "a"}, "variable": [{"key": "host", "value": "http://unused.test"}],
        "item": [{"name": "Ping", "request": {"method": "GET", "url": "{{host}}/ping?v={{version}}"}}]}"#;
    let environment = collection(&format!(
        r#"{{"name": "dev", "values": [{{"key": "host", "value": "{}", "enabled": true}},
            {{"key": "version", "value": "3", "enabled": true}}, {{"key": "off", "value": "x", "enabled": false}}]}}"#,
        server.base()
    ));
    let options = ImportOptions::new().environment(environment);
    let import = postman::import_with(&collection(text), &options).unwrap();
    assert_eq!(
        import.plugin().base_url().as_str(),
        format!("{}/", server.base())
    );
    call(import.plugin(), "ping", "{}");
    assert_eq!(server.requests()[0].target, "/ping?v=3");
}
