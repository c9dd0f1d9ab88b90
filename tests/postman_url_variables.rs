//! A request whose URL is one collection variable holding a whole URL, query included (as
//! Postman's own test collections write it): the query becomes parameters, never part of
//! the base URL.

use crate::support::Server;
use httptool::json;
use httptool::plugin::Location;
use httptool::postman;
use httptool::tool::{ToolCall, ToolRegistry};

#[test]
fn a_variable_holding_a_url_with_a_query_gives_query_parameters() {
    let server = Server::json("{}");
    let text = format!(
        r#"{{"info": {{"name": "Echo", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
            "variable": [{{"key": "echoUrl", "value": "{}/get?test=from_variable"}}],
            "item": [{{"name": "Echo", "request": {{"method": "GET", "url": "{{{{echoUrl}}}}"}}}}]}}"#,
        server.base()
    );
    let import = postman::import(&json::parse(&text).unwrap()).unwrap();
    let plugin = import.plugin();
    assert!(!plugin.base_url().as_str().contains('?'));
    let endpoint = plugin.endpoint("echo").unwrap();
    let test = endpoint.param("test").unwrap();
    assert_eq!(test.location(), Location::Query);
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    let out = registry.call(&ToolCall::new("1", "echo", r#"{"test": "from_variable"}"#));
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(server.requests()[0].target, "/get?test=from_variable");
}
