//! The catalog through the public API: three tools over a registry, with `call_operation`
//! answering exactly as the tool itself (real sockets on 127.0.0.1), argument errors that
//! carry the schema, descriptions that are the tool's own schema, and tags kept from the
//! plugin file and from OpenAPI.

use httptool::json::{self, Json};
use httptool::plugin::HttpPlugin;
use httptool::tool::{
    anthropic, gemini, mcp, openai, CallContext, Catalog, CatalogLimits, ErrorKind, ToolCall,
    ToolRegistry, ToolSpec, DEFAULT_CATALOG_MAX_SCHEMA_BYTES, DEFAULT_CATALOG_MAX_TOOLS,
};

use crate::support::Server;

const TOKEN: &str = "catalog-secret-token-4711";

fn plugin(base: &str) -> HttpPlugin {
    HttpPlugin::from_json(&format!(
        r#"{{
          "name": "pets",
          "base_url": "{base}",
          "auth": {{"type": "bearer", "token": "{TOKEN}"}},
          "endpoints": [
            {{"name": "listPets", "description": "List all pets. Paged.", "path": "/pets",
              "tags": ["pets"],
              "params": [{{"name": "limit", "in": "query", "type": "integer"}}]}},
            {{"name": "showPetById", "title": "Info for a specific pet", "path": "/pets/{{petId}}",
              "tags": ["pets", "details"],
              "params": [{{"name": "petId", "in": "path", "required": true}},
                         {{"name": "tenant", "in": "query", "hidden": true}}]}},
            {{"name": "deletePet", "method": "DELETE", "description": "Removes a pet from the store",
              "path": "/pets/{{petId}}",
              "params": [{{"name": "petId", "in": "path", "type": "integer", "required": true}}]}}
          ]
        }}"#
    ))
    .unwrap()
}

fn registry(base: &str) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin(base)).unwrap();
    registry
}

fn call(tools: &ToolRegistry, name: &str, arguments: &str) -> httptool::tool::ToolOutput {
    tools.call(&ToolCall::new("c", name, arguments))
}

#[test]
fn catalog_offers_three_tools_in_every_provider_format() {
    let catalog = Catalog::new(registry("http://127.0.0.1:9"));
    let tools = catalog.registry();
    let names: Vec<&str> = tools.names().collect();
    assert_eq!(
        names,
        ["search_operations", "describe_operation", "call_operation"]
    );
    assert_eq!(catalog.operations().len(), 3);
    let specs = tools.specs();
    assert_eq!(
        mcp::list_tools_result(&specs)["tools"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        openai::chat_tool(&specs[0])["function"]["name"],
        httptool::json!("search_operations")
    );
    assert_eq!(
        anthropic::tool(&specs[1])["name"],
        httptool::json!("describe_operation")
    );
    assert!(gemini::tool(&specs).to_string().contains("call_operation"));
    // Searching and describing are local and read-only; calling is not (one DELETE).
    assert_eq!(specs[0].annotations().read_only, Some(true));
    assert_eq!(specs[0].annotations().open_world, Some(false));
    assert_eq!(specs[2].annotations().read_only, None);
    assert!(specs[0].description().contains("(3 in all)"));
}

#[test]
fn call_operation_answers_as_the_tool_itself() {
    // The server echoes the Authorization header: both answers must hide the token.
    let api = Server::responding(|request| {
        let auth = request.header("authorization").unwrap_or_default();
        (
            "200 OK".to_string(),
            "Content-Type: application/json\r\n".to_string(),
            format!(
                r#"{{"id":"7","seen":"{}","target":"{}"}}"#,
                auth, request.target
            )
            .into_bytes(),
        )
    });
    let direct = registry(&api.base());
    let catalog = Catalog::new(registry(&api.base()));
    let tools = catalog.registry();
    let context = CallContext::new().with("tenant", "acme");

    let itself = direct.call_with(
        &ToolCall::new("a", "showPetById", r#"{"petId": "a/b"}"#),
        &context,
    );
    let through = tools.call_with(
        &ToolCall::new(
            "b",
            "call_operation",
            r#"{"name": "showPetById", "arguments": {"petId": "a/b"}}"#,
        ),
        &context,
    );
    assert!(!through.is_error(), "{}", through.text());
    assert_eq!(through, itself);
    assert!(!through.text().contains(TOKEN), "{}", through.text());
    assert!(through.text().contains("***"));
    let sent = api.requests();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0].target, "/pets/a%2Fb?tenant=acme");
    assert_eq!(sent[1].target, sent[0].target);
    assert_eq!(
        sent[1].header("authorization"),
        Some(format!("Bearer {}", TOKEN))
    );

    // Arguments sent as JSON text are read by the same rules.
    let text = call(
        &tools,
        "call_operation",
        r#"{"name": "listPets", "arguments": "{\"limit\": \"2\"}"}"#,
    );
    assert!(!text.is_error(), "{}", text.text());
    assert_eq!(api.requests()[2].target, "/pets?limit=2");
}

#[test]
fn call_operation_argument_errors_carry_the_schema() {
    let direct = registry("http://127.0.0.1:9");
    let catalog = Catalog::new(registry("http://127.0.0.1:9"));
    let tools = catalog.registry();
    let schema = catalog.spec("deletePet").unwrap().parameters().to_string();
    let suffix = format!(
        "\n\nThe arguments of 'deletePet' follow this JSON Schema; call again with arguments that match it:\n{}",
        schema
    );
    let cases = [
        (r#"{}"#, ErrorKind::MissingParameter),
        (r#"{"petId": 1, "pet": 2}"#, ErrorKind::UnknownParameter),
        (r#"{"petId": "seven"}"#, ErrorKind::InvalidParameter),
        (r#""[1]""#, ErrorKind::InvalidArguments),
    ];
    for (arguments, kind) in cases {
        let itself = call(&direct, "deletePet", arguments);
        let through = call(
            &tools,
            "call_operation",
            &format!(r#"{{"name": "deletePet", "arguments": {}}}"#, arguments),
        );
        assert_eq!(through.error_kind(), Some(kind), "{}", through.text());
        assert_eq!(through.text(), format!("{}{}", itself.text(), suffix));
    }
    let out = call(
        &tools,
        "call_operation",
        r#"{"name": "deletePet", "arguments": 5}"#,
    );
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidArguments));
    assert_eq!(
        out.text(),
        format!("'arguments' must be a JSON object, got number{}", suffix)
    );
}

#[test]
fn catalog_errors_of_its_own_arguments() {
    let tools = Catalog::new(registry("http://127.0.0.1:9")).registry();
    let cases = [
        ("call_operation", r#"{"name": "showPetByIdd"}"#, ErrorKind::UnknownTool,
         "unknown operation 'showPetByIdd'; did you mean 'showPetById'? find operations with search_operations"),
        ("describe_operation", r#"{"name": "zzzzzzzzzzzzzz"}"#, ErrorKind::UnknownTool,
         "unknown operation 'zzzzzzzzzzzzzz'; find operations with search_operations"),
        ("call_operation", r#"{"arguments": {}}"#, ErrorKind::MissingParameter,
         "missing parameter 'name'; it is required"),
        ("describe_operation", r#"{"name": 3}"#, ErrorKind::InvalidParameter,
         "parameter 'name' must be a string, got number"),
        ("search_operations", r#"{"query": "pets", "limt": 2}"#, ErrorKind::UnknownParameter,
         "unknown parameter 'limt'; did you mean 'limit'? accepted: query, limit"),
        ("search_operations", r#"{"query": "pets", "limit": 0}"#, ErrorKind::InvalidParameter,
         "parameter 'limit' must be a whole number from 1 to 50"),
    ];
    for (tool, arguments, kind, message) in cases {
        let out = call(&tools, tool, arguments);
        assert_eq!(out.error_kind(), Some(kind), "{}", out.text());
        assert_eq!(out.text(), message);
    }
}

#[test]
fn search_operations_returns_name_method_path_summary() {
    let tools = Catalog::new(registry("http://127.0.0.1:9")).registry();
    let out = call(&tools, "search_operations", r#"{"query": "remove a pet"}"#);
    let value = json::parse(out.text()).unwrap();
    assert_eq!(value["total_operations"], httptool::json!(3));
    assert_eq!(
        value["operations"][0],
        httptool::json!({"name": "deletePet", "method": "DELETE", "path": "/pets/{petId}",
               "summary": "Removes a pet from the store"})
    );
    assert_eq!(out.structured(), Some(&value));
    // The summary is the title, else the first sentence; `limit` may come as text.
    let out = call(
        &tools,
        "search_operations",
        r#"{"query": "all pets paged", "limit": "1"}"#,
    );
    let value = json::parse(out.text()).unwrap();
    assert_eq!(value["operations"].as_array().unwrap().len(), 1);
    assert_eq!(
        value["operations"][0]["summary"],
        httptool::json!("List all pets.")
    );
    // Tags are searched: only showPetById has "details".
    let out = call(&tools, "search_operations", r#"{"query": "details"}"#);
    let value = json::parse(out.text()).unwrap();
    assert_eq!(
        value["operations"][0]["name"],
        httptool::json!("showPetById")
    );
    assert_eq!(
        value["operations"][0]["summary"],
        httptool::json!("Info for a specific pet")
    );
    // No word to search by: the first operations, in order.
    let out = call(
        &tools,
        "search_operations",
        r#"{"query": " the ", "limit": 2}"#,
    );
    let value = json::parse(out.text()).unwrap();
    let names: Vec<&str> = value["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["listPets", "showPetById"]);
    // Nothing matches: an empty list, not an error.
    let out = call(&tools, "search_operations", r#"{"query": "invoice"}"#);
    assert!(!out.is_error());
    assert_eq!(
        json::parse(out.text()).unwrap()["operations"],
        httptool::json!([])
    );
}

#[test]
fn describe_operation_gives_the_tools_own_schema() {
    let catalog = Catalog::new(registry("http://127.0.0.1:9"));
    let out = call(
        &catalog.registry(),
        "describe_operation",
        r#"{"name": "showPetById"}"#,
    );
    let value = json::parse(out.text()).unwrap();
    let spec = catalog.spec("showPetById").unwrap();
    assert_eq!(&value["parameters"], spec.parameters());
    assert_eq!(value["method"], httptool::json!("GET"));
    assert_eq!(value["path"], httptool::json!("/pets/{petId}"));
    assert_eq!(value["tags"], httptool::json!(["pets", "details"]));
    assert_eq!(value["title"], httptool::json!("Info for a specific pet"));
    // The hidden parameter stays hidden.
    assert!(!out.text().contains("tenant"));
}

#[test]
fn catalog_keeps_the_wrapped_registrys_output_cap() {
    let api = Server::json(
        r#"{"data":"0123456789012345678901234567890123456789012345678901234567890123456789"}"#,
    );
    let inner = registry(&api.base()).max_output_bytes(60);
    let tools = Catalog::new(inner).registry();
    let out = call(&tools, "call_operation", r#"{"name": "listPets"}"#);
    assert!(out.text().len() <= 60, "{}", out.text());
    assert!(out.text().contains("[truncated: "));
}

#[test]
fn plain_tools_are_searched_without_method_or_path() {
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::new(
        "convert_currency",
        "Converts an amount between currencies",
        httptool::json!({"type": "object", "properties": {"amount": {"type": "number"}}}),
    )
    .unwrap();
    registry
        .add_fn(spec, |_: json::Map, _: &CallContext| "42")
        .unwrap();
    let catalog = Catalog::new(registry);
    let hits = catalog.search("exchange money amount to another currency", 5);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].method, None);
    assert_eq!(
        hits[0].to_json(),
        httptool::json!({"name": "convert_currency", "summary": "Converts an amount between currencies"})
    );
    let out = call(
        &catalog.registry(),
        "call_operation",
        r#"{"name": "convert_currency", "arguments": {"amount": 1}}"#,
    );
    assert_eq!(out.text(), "42");
}

#[test]
fn catalog_limits_by_tool_count_and_list_size() {
    assert_eq!(DEFAULT_CATALOG_MAX_TOOLS, 128);
    assert_eq!(DEFAULT_CATALOG_MAX_SCHEMA_BYTES, 131_072);
    let registry = registry("http://127.0.0.1:9");
    let bytes = mcp::list_tools_result(&registry.specs())["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.to_string().len() + 1)
        .sum::<usize>();
    assert!(!CatalogLimits::new().wants_catalog(&registry));
    assert!(!CatalogLimits::new().max_tools(3).wants_catalog(&registry));
    assert!(CatalogLimits::new().max_tools(2).wants_catalog(&registry));
    assert!(!CatalogLimits::new()
        .max_schema_bytes(bytes)
        .wants_catalog(&registry));
    assert!(CatalogLimits::new()
        .max_schema_bytes(bytes - 1)
        .wants_catalog(&registry));
}

#[test]
fn tags_round_trip_through_the_plugin_file_and_come_from_openapi() {
    let plugin = plugin("https://api.example.com");
    let endpoint = plugin.endpoint("showPetById").unwrap();
    assert_eq!(endpoint.tags(), ["pets", "details"]);
    let again = HttpPlugin::from_json(&plugin.to_json().to_string()).unwrap();
    assert_eq!(
        again.endpoint("showPetById").unwrap().tags(),
        ["pets", "details"]
    );
    assert_eq!(again.to_json(), plugin.to_json());
    assert!(plugin.endpoint("deletePet").unwrap().tags().is_empty());

    let err = HttpPlugin::from_json(
        r#"{"name": "p", "base_url": "https://a.example", "endpoints": [
            {"name": "t", "path": "/", "tags": ["ok", 1]}]}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains("endpoints[0].tags[1]"), "{}", err);

    let doc = json::parse(
        r#"{"openapi": "3.0.3", "info": {"title": "Store", "version": "1"},
            "servers": [{"url": "https://store.example.com"}],
            "paths": {"/orders": {"get": {"operationId": "listOrders", "tags": ["orders", " ", 7, "shop"],
                                           "responses": {"200": {"description": "ok"}}}}}}"#,
    )
    .unwrap();
    let import = httptool::openapi::import(&doc).unwrap();
    let endpoint = import.plugin().endpoint("listOrders").unwrap();
    assert_eq!(endpoint.tags(), ["orders", "shop"]);
    let _: Json = import.plugin().to_json();
}
