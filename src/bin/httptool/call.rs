//! `httptool call`: one call, as a model would make it, and what the model gets back.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;

use httptool::http::Secrets;
use httptool::json::Map;
use httptool::plugin::HttpPlugin;
use httptool::tool::{
    self, Approval, ApprovalRequest, Approver, CallContext, ToolCall, ToolOutput, ToolRegistry,
};

use crate::args::Args;
use crate::context::{call_context, missing_context};
use crate::error::CliError;
use crate::files;
use crate::load::load_plugin_for;
use crate::output::{print_out, write_out};

const HELP: &str = "\
usage: httptool call PLUGIN.json [TOOL] [ARGS-JSON] [options]

Performs one call of TOOL with the arguments a model would send (a JSON object; `-` reads
it from standard input; left out, it is {}) and prints what the model would get. TOOL may
be left out when the plugin has one tool. The exit status is 1 when that is an error
result, and standard error says which kind; a 204 says `(204 No Content)` there.

  --dry-run          print the exact request instead of sending it (secrets as ***);
                     needs no ${NAME} set: one that is not shows as `${NAME} (not set)`
  --reveal-secrets   with --dry-run, print secrets as they would be sent
  --context K=V      a per-call context value (a user's token, a tenant id); repeatable
  --yes              approve a call the plugin's \"confirm\" asks about (without it the
                     question is asked on the terminal, and refused when standard input
                     is not one)
  --files DIR        let file parameters send files from under DIR (a path relative to
                     it; nothing outside it, `..` and links out refused)
  -v, --verbose      print the response's status line and headers on standard error
                     (secrets as ***)
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
    let verbose = args.flag("--verbose") | args.flag("-v");
    let files = files::files_option(&mut args, max_bytes)?;
    let yes = args.flag("--yes");
    let context = call_context(args.values("--context")?)?;
    let context = context.with_approver(if yes {
        Arc::new(Terminal::Approve) as Arc<dyn Approver>
    } else if stdin_is_terminal() {
        Arc::new(Terminal::Ask)
    } else {
        Arc::new(Terminal::Refuse)
    });
    let positionals = args.positionals()?;
    let (path, tool, arguments) = match positionals.as_slice() {
        [path] => (path, None, "{}".to_string()),
        [path, word] if is_arguments(word) => {
            (path, None, read_arguments(word, max_bytes)?)
        }
        [path, tool] => (path, Some(tool.as_str()), "{}".to_string()),
        [path, tool, arguments] => (
            path,
            Some(tool.as_str()),
            read_arguments(arguments, max_bytes)?,
        ),
        _ => {
            return Err(CliError::Usage(
                "call needs PLUGIN.json, then TOOL (unless the plugin has one tool) and, optionally, ARGS-JSON".to_string(),
            ))
        }
    };
    if reveal && !dry_run {
        return Err(CliError::Usage(
            "--reveal-secrets only goes with --dry-run".to_string(),
        ));
    }
    let plugin = load_plugin_for(path, max_bytes, !dry_run)?;
    let tool = &tool_name(&plugin, tool)?;
    check_call(&plugin, tool, &arguments, &context, files.is_some())?;
    let plugin = network.install(files::with_files(plugin, files), dry_run, false);
    if dry_run {
        note_unset(&plugin, reveal);
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
    let output = if verbose {
        verbose_call(&plugin, tool, &arguments, &context)
    } else {
        let mut registry = ToolRegistry::new();
        registry
            .add_plugin(&plugin)
            .map_err(|e| CliError::Failed(format!("{}: {}", path, e)))?;
        registry.call_with(&ToolCall::new("call_1", tool.as_str(), arguments), &context)
    };
    if output.is_error() {
        return failed(&output).map_err(|e| CliError::Failed(network.explain(e.to_string())));
    }
    note_status(&output);
    print_out(output.text())?;
    Ok(ExitCode::SUCCESS)
}

/// The terminal as the approver of a call that needs the user's approval.
enum Terminal {
    /// `--yes`: approved without asking.
    Approve,
    /// Asked on standard error, answered on standard input.
    Ask,
    /// No terminal and no `--yes`.
    Refuse,
}

impl Approver for Terminal {
    fn approve(&self, request: &ApprovalRequest) -> Approval {
        match self {
            Terminal::Approve => Approval::Approved,
            Terminal::Refuse => Approval::CannotAsk(String::from(
                "standard input is not a terminal to ask on; pass --yes to approve it",
            )),
            Terminal::Ask => {
                eprint!("{} [y/N] ", request.message());
                let _ = io::stderr().flush();
                let mut line = String::new();
                match io::stdin().read_line(&mut line) {
                    Ok(_) if matches!(line.trim(), "y" | "Y" | "yes" | "YES" | "Yes") => {
                        Approval::Approved
                    }
                    Ok(0) => Approval::Cancelled,
                    Ok(_) => Approval::Declined,
                    Err(e) => Approval::Unanswered(format!("reading the answer failed: {}", e)),
                }
            }
        }
    }
}

/// Whether standard input is a terminal: on Linux, where `/proc/self/fd/0` points (a
/// pseudo-terminal or a console); elsewhere never, so `--yes` is needed.
fn stdin_is_terminal() -> bool {
    match std::fs::read_link("/proc/self/fd/0") {
        Ok(target) => {
            let target = target.to_string_lossy();
            target.starts_with("/dev/pts/")
                || target.starts_with("/dev/tty")
                || target == "/dev/console"
        }
        Err(_) => false,
    }
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

/// The tool a call names: the word given, or the plugin's only tool when none is.
fn tool_name(plugin: &HttpPlugin, given: Option<&str>) -> Result<String, CliError> {
    if let Some(name) = given {
        return Ok(name.to_string());
    }
    let names: Vec<&str> = plugin.endpoints().map(|e| e.name()).collect();
    match names.as_slice() {
        [one] => Ok(one.to_string()),
        _ => Err(CliError::Usage(format!(
            "plugin '{}' has {} tools; name the one to call: {}",
            plugin.name(),
            names.len(),
            names.join(", ")
        ))),
    }
}

/// Whether a call's word is its arguments rather than a tool name: a JSON object or `-`.
fn is_arguments(word: &str) -> bool {
    word == "-" || word.trim_start().starts_with('{')
}

/// Checks, before a call, what only the person at the command line can give: a context
/// value the tool reads (`--context KEY=VALUE`) and a folder for its files (`--files DIR`).
fn check_call(
    plugin: &HttpPlugin,
    tool: &str,
    arguments: &str,
    context: &CallContext,
    files: bool,
) -> Result<(), CliError> {
    let endpoint = match plugin.endpoint(tool) {
        Some(endpoint) => endpoint,
        // The call itself says the tool is unknown, with the closest name.
        None => return Ok(()),
    };
    if let Some(key) = missing_context(plugin, tool, context) {
        return Err(CliError::Usage(format!(
            "tool '{}' needs the call context value '{}', which no --context gave; pass --context {}=VALUE",
            tool, key, key
        )));
    }
    if files {
        return Ok(());
    }
    let given: Map = httptool::json::parse(arguments)
        .ok()
        .and_then(|v| v.into_object())
        .unwrap_or_default();
    for param in endpoint.params() {
        if param.is_file() && given.get(param.name()).is_some() {
            return Err(CliError::Usage(format!(
                "parameter '{}' of tool '{}' is a file, and httptool reads no file unless told where: pass --files DIR to send files from under DIR",
                param.name(),
                tool
            )));
        }
    }
    Ok(())
}

/// A call as `-v` makes it: the response's status line and headers on standard error
/// (secrets as `***`), then what the model would get, as a registry call gives it.
fn verbose_call(
    plugin: &HttpPlugin,
    tool: &str,
    arguments: &str,
    context: &CallContext,
) -> ToolOutput {
    let http_tool = match plugin.tool(tool) {
        Ok(http_tool) => http_tool,
        Err(err) => {
            return ToolOutput::error(tool::ErrorKind::UnknownTool, err.message().to_string())
        }
    };
    let arguments = match tool::parse_arguments(arguments, tool::DEFAULT_MAX_ARGUMENT_BYTES) {
        Ok(arguments) => arguments,
        Err(err) => return err.into(),
    };
    match http_tool.send(arguments, context) {
        Ok(response) => {
            eprintln!("{}", response.head_text());
            http_tool.output(response)
        }
        Err(output) => output,
    }
}

/// For a dry run: says on standard error which variables the request holds a placeholder
/// for, since a masked secret shows as `***` and would not say so.
fn note_unset(plugin: &HttpPlugin, reveal: bool) {
    let shown = if reveal {
        ""
    } else {
        " (shown with --reveal-secrets)"
    };
    for name in plugin.unset_variables() {
        eprintln!(
            "httptool: ${{{0}}} is not set; the request holds `${{{0}}} (not set)` in its place{1}; a real call needs it",
            name, shown
        );
    }
}

/// Says on standard error that a success had no content, since nothing is printed for it.
fn note_status(output: &ToolOutput) {
    if output.status() == Some(204) {
        eprintln!("(204 No Content)");
    }
}
