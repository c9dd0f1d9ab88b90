//! `httptool tools`: the tool specs a model reads, in a provider's format.

use std::process::ExitCode;

use httptool::json::Json;
use httptool::plugin::HttpPlugin;
use httptool::tool::{anthropic, gemini, mcp, openai, ToolRegistry, ToolSpec};

use crate::args::Args;
use crate::error::CliError;
use crate::load::load_plugin;
use crate::output::print_out;

const HELP: &str = "\
usage: httptool tools PLUGIN.json... [--format FORMAT | --list | --stats] [--full-schemas]

Prints the tools of the plugin files as a model receives them, as pretty JSON: the value of
the request's `tools` field (for mcp, the result of `tools/list`). Tool names must be unique
across the files. No ${NAME} needs to be set: specs hold no secret.

  --format FORMAT   openai (default), openai-strict, responses, anthropic, gemini, mcp
  --list            one line a tool for a person instead: name, method, path, and the
                    parameters a call must give
  --stats           print, instead of the tools, the bytes and estimated tokens (bytes / 4,
                    rounded up) of each tool in FORMAT, the total and the largest tools
  --full-schemas    the schemas as declared, every description whole, instead of the
                    compact schemas a model reads by default
  --max-input-bytes N   read at most N bytes of each file (default 64 MiB)
";

pub fn run(mut args: Args) -> Result<ExitCode, CliError> {
    if args.help() {
        print_out(&format!("{}{}", HELP, crate::catalog::HELP))?;
        return Ok(ExitCode::SUCCESS);
    }
    let max_bytes = crate::input::max_input_bytes(&mut args)?;
    let format = args
        .value("--format")?
        .unwrap_or_else(|| "openai".to_string());
    let list = args.flag("--list");
    let catalog = crate::catalog::take(&mut args)?;
    let stats = args.flag("--stats");
    let full = args.flag("--full-schemas");
    let paths = args.positionals()?;
    if paths.is_empty() {
        return Err(CliError::Usage(
            "tools needs at least one plugin file".to_string(),
        ));
    }
    let mut registry = ToolRegistry::new();
    let mut plugins = Vec::with_capacity(paths.len());
    for path in &paths {
        let mut plugin = load_plugin(path, max_bytes)?;
        if full {
            plugin = crate::schemas::full(plugin, path)?;
        }
        registry
            .add_plugin(&plugin)
            .map_err(|e| CliError::Failed(format!("{}: {}", path, e)))?;
        plugins.push(plugin);
    }
    if list {
        print_out(&list_tools(&plugins))?;
        return Ok(ExitCode::SUCCESS);
    }
    let names: Vec<&str> = plugins.iter().map(|p| p.name()).collect();
    let registry = crate::catalog::apply(&catalog, registry, &names);
    let specs = registry.specs();
    if stats {
        print_out(&crate::schemas::stats(&specs, &format)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_out(&render(&specs, &format)?.to_pretty())?;
    Ok(ExitCode::SUCCESS)
}

/// The specs in one provider's shape.
fn render(specs: &[ToolSpec], format: &str) -> Result<Json, CliError> {
    let strict = |render: fn(&ToolSpec) -> Result<Json, httptool::tool::Error>| {
        specs
            .iter()
            .map(|spec| {
                render(spec).map_err(|e| CliError::Failed(format!("{}: {}", spec.name(), e)))
            })
            .collect::<Result<Vec<Json>, CliError>>()
            .map(Json::from)
    };
    match format {
        "openai" => Ok(Json::from(specs.iter().map(openai::chat_tool).collect::<Vec<_>>())),
        "openai-strict" => strict(openai::chat_tool_strict),
        "responses" => Ok(Json::from(specs.iter().map(openai::responses_tool).collect::<Vec<_>>())),
        "anthropic" => Ok(Json::from(specs.iter().map(anthropic::tool).collect::<Vec<_>>())),
        "gemini" => Ok(Json::from(vec![gemini::tool(specs)])),
        "mcp" => Ok(mcp::list_tools_result(specs)),
        other => Err(CliError::Usage(format!(
            "unknown format '{}'; the formats are openai, openai-strict, responses, anthropic, gemini, mcp",
            other
        ))),
    }
}

/// `tools --list`: one line a tool, for a person: name, method and path, and the
/// parameters the model must give, in aligned columns.
fn list_tools(plugins: &[HttpPlugin]) -> String {
    let mut rows: Vec<(String, String, String)> = Vec::new();
    for plugin in plugins {
        for endpoint in plugin.endpoints() {
            let required: Vec<&str> = endpoint
                .params()
                .iter()
                .filter(|p| !p.is_hidden() && p.is_required() && p.default().is_none())
                .map(|p| p.name())
                .collect();
            let required = if required.is_empty() {
                "(no required parameters)".to_string()
            } else {
                format!("requires {}", required.join(", "))
            };
            let route = format!("{} {}", endpoint.method().as_str(), endpoint.path());
            rows.push((endpoint.name().to_string(), route, required));
        }
    }
    let width = |pick: fn(&(String, String, String)) -> &String| {
        rows.iter()
            .map(|r| pick(r).chars().count())
            .max()
            .unwrap_or(0)
    };
    let (name_width, route_width) = (width(|r| &r.0), width(|r| &r.1));
    rows.iter()
        .map(|(name, route, required)| {
            format!(
                "{:name_width$}  {:route_width$}  {}",
                name,
                route,
                required,
                name_width = name_width,
                route_width = route_width
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
