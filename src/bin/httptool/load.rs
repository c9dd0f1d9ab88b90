//! Loading the plugin a command works on: a plugin file, JSON or YAML, or an OpenAPI
//! document imported on the fly.

use crate::error::CliError;
use crate::{input, openapi};

/// Loads a plugin file (JSON or YAML, at most `max_bytes`, see [`input`]) for specs and
/// dry runs: `${NAME}` references are taken from the environment, and one that is not set
/// stays unresolved (`HttpPlugin::from_json_deferred`). An OpenAPI document (an object with
/// an `openapi` or `swagger` field, JSON or YAML) is imported instead.
pub fn load_plugin(path: &str, max_bytes: u64) -> Result<httptool::plugin::HttpPlugin, CliError> {
    load_plugin_for(path, max_bytes, false)
}

/// As `load_plugin`; `needs_credentials` (a real call, a server) makes a variable that is
/// not set or is empty an error, for a plugin file and a document alike.
pub fn load_plugin_for(
    path: &str,
    max_bytes: u64,
    needs_credentials: bool,
) -> Result<httptool::plugin::HttpPlugin, CliError> {
    let text = input::read_input(path, max_bytes)?;
    let yaml = input::is_yaml(path, &text);
    let text = if yaml || text.contains("\"openapi\"") || text.contains("\"swagger\"") {
        let value = input::parse_document(path, &text)?;
        if openapi::is_document(&value) {
            return openapi::plugin(
                &value,
                path,
                needs_credentials,
                max_bytes.saturating_sub(text.len() as u64),
            );
        }
        if yaml {
            value.to_string()
        } else {
            text
        }
    } else {
        text
    };
    let loaded = if needs_credentials {
        httptool::plugin::HttpPlugin::from_json(&text)
    } else {
        httptool::plugin::HttpPlugin::from_json_deferred(&text)
    };
    loaded.map_err(|e| CliError::Failed(format!("{}: {}", path, e)))
}
