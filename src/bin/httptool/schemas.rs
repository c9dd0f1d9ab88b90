//! `--full-schemas` (the schema as declared instead of the compact one) and `tools --stats`
//! (what each tool costs in a model's context).

use httptool::json::Json;
use httptool::plugin::HttpPlugin;
use httptool::tool::{anthropic, gemini, mcp, openai, ToolSize, ToolSpec};

use crate::error::CliError;

/// The plugin with `full_schemas` set: the model reads every description whole and every
/// keyword. The plugin file is written and read back with the option, each `${NAME}` taken
/// from the environment (empty when unset: listing tools needs no credential, and a server
/// checked its credentials when the plugin was loaded).
pub fn full(plugin: HttpPlugin, path: &str) -> Result<HttpPlugin, CliError> {
    let mut file = plugin.to_json();
    if let Some(map) = file.as_object_mut() {
        map.insert("full_schemas", true);
    }
    HttpPlugin::from_json_with(&file.to_string(), |name| {
        Some(std::env::var(name).unwrap_or_default())
    })
    .map_err(|e| CliError::Failed(format!("{}: {}", path, e)))
}

/// One tool in a provider's shape (Gemini's: its function declaration).
fn render_one(spec: &ToolSpec, format: &str) -> Result<Json, CliError> {
    let failed = |e: httptool::tool::Error| CliError::Failed(format!("{}: {}", spec.name(), e));
    Ok(match format {
        "openai" => openai::chat_tool(spec),
        "openai-strict" => openai::chat_tool_strict(spec).map_err(failed)?,
        "responses" => openai::responses_tool(spec),
        "anthropic" => anthropic::tool(spec),
        "gemini" => gemini::function_declaration(spec),
        "mcp" => mcp::tool(spec),
        other => {
            return Err(CliError::Usage(format!(
                "unknown format '{}'; the formats are openai, openai-strict, responses, anthropic, gemini, mcp",
                other
            )))
        }
    })
}

/// How many of the largest tools the summary names.
const LARGEST: usize = 5;

/// `NAME BYTES TOKENS` for every tool, then the total and the largest tools. Bytes are of
/// each tool's compact JSON in `format`; tokens are estimated as bytes / 4, rounded up
/// ([`ToolSize`]).
pub fn stats(specs: &[ToolSpec], format: &str) -> Result<String, CliError> {
    let mut sizes = Vec::with_capacity(specs.len());
    for spec in specs {
        sizes.push((spec.name(), ToolSize::of(&render_one(spec, format)?)));
    }
    let width = sizes
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0)
        .max(5);
    let mut out = format!("{:<width$} {:>9} {:>8}\n", "tool", "bytes", "tokens");
    for (name, size) in &sizes {
        out.push_str(&format!(
            "{:<width$} {:>9} {:>8}\n",
            name, size.bytes, size.tokens
        ));
    }
    let bytes: usize = sizes.iter().map(|(_, s)| s.bytes).sum();
    let total = ToolSize::from_bytes(bytes);
    out.push_str(&format!(
        "{:<width$} {:>9} {:>8}\n",
        format!("total ({} tools)", sizes.len()),
        total.bytes,
        total.tokens
    ));
    let mut largest: Vec<&(&str, ToolSize)> = sizes.iter().collect();
    largest.sort_by(|a, b| b.1.bytes.cmp(&a.1.bytes).then(a.0.cmp(b.0)));
    let top: Vec<String> = largest
        .iter()
        .take(LARGEST)
        .map(|(name, size)| format!("{} ({} bytes)", name, size.bytes))
        .collect();
    out.push_str(&format!("largest: {}\n", top.join(", ")));
    out.push_str("tokens are estimated as bytes / 4, rounded up");
    Ok(out)
}
