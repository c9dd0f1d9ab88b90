//! The call context at the command line: `--context KEY=VALUE` words, and the context value
//! a tool reads that none of them gave.

use httptool::plugin::{Auth, ConfigValue, HttpPlugin};
use httptool::tool::CallContext;

use crate::error::CliError;

/// `--context KEY=VALUE` words as a call context.
pub fn call_context(pairs: Vec<String>) -> Result<CallContext, CliError> {
    let mut context = CallContext::new();
    for pair in pairs {
        match pair.split_once('=') {
            Some((key, value)) if !key.is_empty() => {
                context.insert(key, value);
            }
            _ => {
                return Err(CliError::Usage(
                    "--context takes KEY=VALUE (the value may be empty, the key may not)"
                        .to_string(),
                ))
            }
        }
    }
    Ok(context)
}

/// The first context key a call of `tool` reads that `context` lacks: auth, static headers
/// and query values `{"context": ...}`, and required hidden parameters without a default.
pub fn missing_context(plugin: &HttpPlugin, tool: &str, context: &CallContext) -> Option<String> {
    let mut keys: Vec<&str> = Vec::new();
    let key = |value: &ConfigValue| value.context_key().map(str::to_string);
    let mut slots: Vec<Option<String>> = Vec::new();
    slots.extend(plugin.headers().map(|(_, v)| key(v)));
    slots.extend(plugin.query().map(|(_, v)| key(v)));
    let endpoint = plugin.endpoint(tool);
    match endpoint.map_or(plugin.auth(), |e| e.auth_or(plugin.auth())) {
        Some(Auth::Bearer { token }) => slots.push(key(token)),
        Some(Auth::Basic { username, password }) => {
            slots.push(key(username));
            slots.push(key(password));
        }
        Some(Auth::Header { value, .. }) | Some(Auth::Query { value, .. }) => {
            slots.push(key(value))
        }
        _ => {}
    }
    if let Some(endpoint) = endpoint {
        for param in endpoint.params() {
            if param.is_hidden() && param.is_required() && param.default().is_none() {
                keys.push(param.context_key());
            }
        }
    }
    let mut all: Vec<String> = slots.into_iter().flatten().collect();
    all.extend(keys.into_iter().map(str::to_string));
    all.into_iter()
        .find(|k| context.get(k).map_or(true, str::is_empty))
}
