//! `httptool serve`: every tool of the plugin files, served to an MCP client on standard
//! input and output.

use std::io::{self, BufReader};
use std::process::ExitCode;

use httptool::mcp::{self, Server};
use httptool::plugin::HttpPlugin;
use httptool::tool::ToolRegistry;

use crate::args::Args;
use crate::{call_context, load_plugin_for, print_out, CliError};

const HELP: &str = "\
usage: httptool serve PLUGIN.json... [--openapi SPEC]... [--context KEY=VALUE] [--max-concurrency N]

Serves every tool of the plugin files as a Model Context Protocol server (revision
2026-07-28, no handshake; and 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 through
initialize) on standard input and output: JSON-RPC messages, one a line. Nothing else is written to standard output. It runs until
standard input ends, then waits up to 5 s for calls in flight. Tool names must be unique
across the files. Plugin files (JSON or YAML) read ${NAME} from the environment; an
OpenAPI document (JSON or YAML) is imported as `import openapi` does, and every credential
variable it names must be set.

  --openapi SPEC        an OpenAPI document to serve (also accepted as a plain argument);
                        repeatable

  --context K=V         a per-call context value every call gets (a user's token, a
                        tenant id); repeatable
  --max-concurrency N   tool calls running at once (default 8)
  --page-size N         tools on one page of tools/list (default 0: every tool on one
                        page, since many clients never ask for the next one)
  --full-schemas        the schemas as declared, every description whole, instead of
                        the compact schemas a model reads by default
  --max-input-bytes N   read at most N bytes of each plugin file (default 64 MiB)
{catalog}";

/// The end of the help, after the network options: an MCP client's configuration.
const HELP_CLIENT: &str = "\
In an MCP client's configuration (Claude Desktop's claude_desktop_config.json, an IDE
agent's mcp.json), the server is one entry of \"mcpServers\"; use absolute paths:

  {
    \"mcpServers\": {
      \"weather\": {
        \"command\": \"/usr/local/bin/httptool\",
        \"args\": [\"serve\", \"/home/me/weather.json\"],
        \"env\": { \"WEATHER_TOKEN\": \"...\" }
      }
    }
  }";

pub fn run(mut args: Args) -> Result<ExitCode, CliError> {
    if args.help() {
        print_out(&format!(
            "{}\n\n{}\n\n{}",
            HELP.replace("{catalog}", crate::catalog::HELP),
            crate::network::HELP,
            HELP_CLIENT
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let max_bytes = crate::input::max_input_bytes(&mut args)?;
    let network = crate::network::Network::from_args(&mut args)?;
    let context = call_context(args.values("--context")?)?;
    let mut server = Server::new().context(context);
    if let Some(word) = args.value("--max-concurrency")? {
        server = server.max_concurrency(count(&word, "--max-concurrency", 1)?);
    }
    if let Some(word) = args.value("--page-size")? {
        server = server.page_size(count(&word, "--page-size", 0)?);
    }
    let catalog = crate::catalog::take(&mut args)?;
    let full = args.flag("--full-schemas");
    let documents = args.values("--openapi")?;
    let mut paths = args.positionals()?;
    paths.extend(documents);
    if paths.is_empty() {
        return Err(CliError::Usage(
            "serve needs at least one plugin file or OpenAPI document".to_string(),
        ));
    }
    let mut plugins = plugins(&paths, max_bytes)?;
    if full {
        plugins = paths
            .iter()
            .zip(plugins)
            .map(|(path, plugin)| crate::schemas::full(plugin, path))
            .collect::<Result<_, _>>()?;
    }
    let plugins: Vec<HttpPlugin> = plugins
        .into_iter()
        .map(|plugin| network.install(plugin, false, true))
        .collect();
    let mut registry = ToolRegistry::new();
    for (path, plugin) in paths.iter().zip(&plugins) {
        registry
            .add_plugin(plugin)
            .map_err(|e| CliError::Failed(format!("{}: {}", path, e)))?;
    }
    let names: Vec<&str> = plugins.iter().map(HttpPlugin::name).collect();
    let registry = crate::catalog::apply(&catalog, registry, &names);
    if let Some(instructions) = mcp::plugin_instructions(&plugins) {
        server = server.instructions(instructions);
    }
    let stdin = io::stdin();
    let reader = BufReader::with_capacity(64 * 1024, stdin.lock());
    server
        .serve(&registry, reader, io::stdout())
        .map_err(|e| CliError::Failed(e.to_string()))?;
    Ok(ExitCode::SUCCESS)
}

/// The plugins to serve, one for each file named, in order: plugin files and OpenAPI
/// documents alike become plugins here. A server makes real calls, so a document's
/// credential variables must be set.
fn plugins(paths: &[String], max_bytes: u64) -> Result<Vec<HttpPlugin>, CliError> {
    paths
        .iter()
        .map(|path| load_plugin_for(path, max_bytes, true))
        .collect()
}

/// A whole number of at least `min` given to `option`.
fn count(word: &str, option: &str, min: usize) -> Result<usize, CliError> {
    match word.parse::<usize>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(CliError::Usage(format!(
            "{} takes a whole number of {} or more, got '{}'",
            option, min, word
        ))),
    }
}
