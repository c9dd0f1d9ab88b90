//! `httptool call`: one call, as a model would make it, and what the model gets back.

use std::process::ExitCode;

use httptool::http::Secrets;
use httptool::tool::{ToolCall, ToolOutput, ToolRegistry};

use crate::args::Args;
use crate::{call_context, load_plugin_for, print_out, write_out, CliError};

const HELP: &str = "\
usage: httptool call PLUGIN.json TOOL [ARGS-JSON] [options]

Performs one call of TOOL with the arguments a model would send (a JSON object; `-` reads
it from standard input; left out, it is {}) and prints what the model would get. The exit
status is 1 when that is an error result, and standard error says which kind.

  --dry-run          print the exact request instead of sending it (secrets as ***)
  --reveal-secrets   with --dry-run, print secrets as they would be sent
  --context K=V      a per-call context value (a user's token, a tenant id); repeatable
  --max-input-bytes N  read at most N bytes of the plugin file and of standard input
                     (default 64 MiB)";

pub fn run(mut args: Args) -> Result<ExitCode, CliError> {
    if args.help() {
        print_out(&format!("{}\n\n{}", HELP, crate::network::HELP))?;
        return Ok(ExitCode::SUCCESS);
    }
    let max_bytes = crate::input::max_input_bytes(&mut args)?;
    let network = crate::network::Network::from_args(&mut args)?;
    let dry_run = args.flag("--dry-run");
    let reveal = args.flag("--reveal-secrets");
    let context = call_context(args.values("--context")?)?;
    let positionals = args.positionals()?;
    let (path, tool, arguments) = match positionals.as_slice() {
        [path, tool] => (path, tool, "{}".to_string()),
        [path, tool, arguments] => (path, tool, read_arguments(arguments, max_bytes)?),
        _ => {
            return Err(CliError::Usage(
                "call needs PLUGIN.json TOOL and, optionally, ARGS-JSON".to_string(),
            ))
        }
    };
    if reveal && !dry_run {
        return Err(CliError::Usage(
            "--reveal-secrets only goes with --dry-run".to_string(),
        ));
    }
    let plugin = network.install(load_plugin_for(path, max_bytes, !dry_run)?, dry_run, false);
    if dry_run {
        return match plugin.dry_run(tool, &arguments, &context) {
            Ok(request) => {
                let secrets = if reveal {
                    Secrets::Reveal
                } else {
                    Secrets::Mask
                };
                let bytes = request.render(secrets).map_err(|e| {
                    CliError::Failed(format!("the request would not be sent: {}", e))
                })?;
                write_out(&bytes)?;
                if !bytes.ends_with(b"\n") {
                    write_out(b"\n")?;
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(output) => failed(&output),
        };
    }
    let mut registry = ToolRegistry::new();
    registry
        .add_plugin(&plugin)
        .map_err(|e| CliError::Failed(format!("{}: {}", path, e)))?;
    let output = registry.call_with(&ToolCall::new("call_1", tool.as_str(), arguments), &context);
    if output.is_error() {
        return failed(&output).map_err(|e| CliError::Failed(network.explain(e.to_string())));
    }
    print_out(output.text())?;
    Ok(ExitCode::SUCCESS)
}

/// Prints an error result as the model would read it, and says on stderr what kind it is.
fn failed(output: &ToolOutput) -> Result<ExitCode, CliError> {
    print_out(output.text())?;
    let kind = output.error_kind().map_or("error", |kind| kind.as_str());
    let message = match output.status() {
        Some(status) => format!("the call failed: {} (HTTP status {})", kind, status),
        None => format!("the call failed: {}", kind),
    };
    Err(CliError::Failed(message))
}

/// The arguments text: as given, or standard input for `-`.
fn read_arguments(word: &str, max_bytes: u64) -> Result<String, CliError> {
    if word != "-" {
        return Ok(word.to_string());
    }
    crate::input::read_input("-", max_bytes)
}
