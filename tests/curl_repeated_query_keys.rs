//! A query key that reads as a credential by its name but is sent with several values
//! (`key=one&key=two`) is a list, sent whole as curl sends it; one value, or values that
//! look like secrets, stay a credential.

use crate::support::Server;
use httptool::curl::{self, Import, ImportOptions};
use httptool::plugin::{Auth, Location, ParamType};
use httptool::tool::{ToolCall, ToolRegistry};

fn import(command: &str) -> Import {
    let cmd = curl::parse(command).unwrap_or_else(|e| panic!("{}: {}", command, e));
    curl::to_plugin_with(&cmd, &ImportOptions::new())
        .unwrap_or_else(|e| panic!("{}: {}", command, e))
}

/// The request target the tool sends with the arguments replaying the command.
fn replayed(import: &Import, server: &Server) -> String {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(import.plugin()).unwrap();
    let arguments = httptool::json::Json::Object(import.sample_arguments().clone());
    let call = ToolCall::new("1", import.tool_name(), arguments.to_string());
    let out = registry.call(&call);
    assert!(!out.is_error(), "{}", out.text());
    server.requests().pop().unwrap().target
}

#[test]
fn a_credential_named_key_with_several_values_is_sent_whole() {
    let server = Server::json("{}");
    let import = import(&format!("curl '{}/?key=one&key=two'", server.base()));
    let plugin = import.plugin();
    assert!(plugin.auth().is_none());
    let key = plugin.endpoints().next().unwrap().param("key").unwrap();
    assert_eq!(key.location(), Location::Query);
    assert_eq!(key.ty(), &ParamType::array(ParamType::String));
    assert_eq!(replayed(&import, &server), "/?key=one&key=two");
}

#[test]
fn one_value_or_secret_looking_values_stay_a_credential() {
    let server = Server::json("{}");
    let import = import(&format!("curl '{}/?key=one&key=one'", server.base()));
    assert!(matches!(import.plugin().auth(), Some(Auth::Query { .. })));
    assert_eq!(import.variables().len(), 1);

    let import = self::import(&format!(
        "curl '{}/?token=sk_live_4eC39HqLyjWDarjtT1zdp7dc&token=sk_live_9fZ12AbCdEfGhIjKlMnOpQrS'",
        server.base()
    ));
    assert!(matches!(import.plugin().auth(), Some(Auth::Query { .. })));
    assert!(!import.plugin().to_json().to_string().contains("sk_live_"));
}
