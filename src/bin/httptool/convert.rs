//! `httptool import` and `httptool export`: curl commands to plugin files and back.

use std::process::ExitCode;

use httptool::curl::{self, CurlCommand, ExportOptions, ImportOptions};
use httptool::json::Json;
use httptool::plugin::HttpPlugin;

use crate::args::Args;
use crate::context::call_context;
use crate::error::CliError;
use crate::input::{max_input_bytes, read_input, read_plugin_text};
use crate::output::print_out;

const IMPORT_HELP: &str = "\
usage: httptool import curl ['curl ...' | -] [options]
       httptool import curl [options] -- curl ARG...

Turns a curl command into a plugin file with one tool and prints it (pretty JSON). The
command is one argument, as you would paste it into a shell (continued lines, $'...' and a
`$ ` prompt are read as bash reads them), or standard input when it is left out or `-`;
after `--`, the command's words as a program receives them. Nothing the command names is
read and nothing is sent.

Standard error lists what was left out or approximated, and the environment variables the
plugin file reads its credentials from (set them before loading it).

  --name TOOL             the tool's name (default: from the method and path, as create_ticket)
  --plugin-name NAME      the plugin's name (default: from the host, as github)
  --description TEXT      the tool's description (default: the method and URL)
  --defaults              make the command's values the parameters' defaults
  --infer-path            turn id-looking path segments into parameters (/users/{user_id})
  --keep-secrets          write credentials into the file instead of ${NAME} variables
  --keep-browser-headers  keep the sec-ch-*, sec-fetch-*, priority, ... headers of browsers
  --max-input-bytes N     read at most N bytes of standard input (default 64 MiB)

`httptool import openapi --help` for OpenAPI and Swagger documents, `httptool import postman
--help` for Postman collections, `httptool import har --help` for browser recordings.";

const EXPORT_HELP: &str = "\
usage: httptool export curl PLUGIN.json [TOOL] [ARGS-JSON] [options]

Prints the curl command that sends exactly the request a call of TOOL would send (TOOL may
be left out when the plugin has one tool). ARGS-JSON is the call's arguments, a JSON object
(`-` reads it from standard input); without it, parameters take their defaults and required
ones without a default are <name> placeholders. Secrets are *** unless --reveal-secrets, and
the plugin's ${NAME} variables need not be set then.

  --reveal-secrets   print secrets as they would be sent
  --context K=V      a per-call context value (a user's token, a tenant id); repeatable
  --multiline        one option a line, the lines joined with backslashes
  --max-input-bytes N  read at most N bytes of the plugin file and of standard input
                     (default 64 MiB)";

pub fn import(mut args: Args) -> Result<ExitCode, CliError> {
    if args.peek_openapi() {
        if args.help() {
            print_out(crate::openapi::HELP)?;
            return Ok(ExitCode::SUCCESS);
        }
        return crate::openapi::import(args.skip_first());
    }
    for (format, help, run) in crate::collections::FORMATS {
        if args.peek_format(format) {
            if args.help() {
                print_out(help)?;
                return Ok(ExitCode::SUCCESS);
            }
            return run(args.skip_first());
        }
    }
    if args.help() {
        print_out(IMPORT_HELP)?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = import_options(&mut args)?;
    let max_bytes = max_input_bytes(&mut args)?;
    let mut positionals = args.positionals()?.into_iter();
    match positionals.next().as_deref() {
        Some("curl") => {}
        Some(other) => {
            return Err(CliError::Usage(format!(
                "unknown import format '{}'; the formats are curl, openapi, postman, har",
                other
            )))
        }
        None => {
            return Err(CliError::Usage(
                "import needs a format: `httptool import curl 'curl ...'`".to_string(),
            ))
        }
    }
    let command = read_command(positionals.collect(), max_bytes)?;
    let import =
        curl::to_plugin_with(&command, &options).map_err(|e| CliError::Failed(e.to_string()))?;
    print_out(&import.plugin().to_json().to_pretty())?;
    for note in import.notes() {
        eprintln!("note: {}", note);
    }
    for variable in import.variables() {
        eprintln!("environment variable {}", variable);
    }
    let arguments = Json::Object(import.sample_arguments().clone());
    let mut summary = format!(
        "tool {}; arguments replaying the command: {}",
        import.tool_name(),
        arguments
    );
    let unsampled = unsampled(&import);
    if !unsampled.is_empty() {
        summary.push_str("; no sample for: ");
        summary.push_str(&unsampled.join(", "));
    }
    eprintln!("{}", summary);
    Ok(ExitCode::SUCCESS)
}

pub fn export(mut args: Args) -> Result<ExitCode, CliError> {
    if args.help() {
        print_out(EXPORT_HELP)?;
        return Ok(ExitCode::SUCCESS);
    }
    let max_bytes = max_input_bytes(&mut args)?;
    let reveal = args.flag("--reveal-secrets");
    let multiline = args.flag("--multiline");
    let context = call_context(args.values("--context")?)?;
    let mut positionals = args.positionals()?;
    let format = if positionals.is_empty() {
        None
    } else {
        Some(positionals.remove(0))
    };
    match format.as_deref() {
        Some("curl") => {}
        Some(other) => {
            return Err(CliError::Usage(format!(
                "unknown export format '{}'; the format is curl",
                other
            )))
        }
        None => {
            return Err(CliError::Usage(
                "export needs a format: `httptool export curl PLUGIN.json TOOL`".to_string(),
            ))
        }
    }
    let (path, tool, arguments) = match positionals.as_slice() {
        [path] => (path, None, None),
        [path, tool] if tool.starts_with('{') || tool == "-" => (path, None, Some(tool)),
        [path, tool] => (path, Some(tool), None),
        [path, tool, arguments] => (path, Some(tool), Some(arguments)),
        _ => {
            return Err(CliError::Usage(
                "export curl needs PLUGIN.json and, optionally, TOOL and ARGS-JSON".to_string(),
            ))
        }
    };
    let plugin = load_for_export(path, reveal, max_bytes)?;
    let arguments = match arguments {
        Some(word) => Some(read_word_or_stdin(word, max_bytes)?),
        None => None,
    };
    let options = ExportOptions::new()
        .reveal_secrets(reveal)
        .context(context)
        .multiline(multiline);
    let command = curl::to_curl_with(
        &plugin,
        tool.map(String::as_str),
        arguments.as_deref(),
        &options,
    )
    .map_err(|e| CliError::Failed(e.to_string()))?;
    print_out(&command)?;
    Ok(ExitCode::SUCCESS)
}

/// The required parameters the model sets that the command gives no value for (a body
/// read from a file, for one).
fn unsampled(import: &curl::Import) -> Vec<String> {
    // The sample arguments are the first URL's tool's (a command with several URLs has a
    // tool for each).
    let endpoints = import.plugin().endpoints().take(1);
    let params = endpoints.flat_map(|e| e.params().iter());
    params
        .filter(|p| !p.is_hidden() && p.is_required() && p.default().is_none())
        .filter(|p| import.sample_arguments().get(p.name()).is_none())
        .map(|p| p.name().to_string())
        .collect()
}

fn import_options(args: &mut Args) -> Result<ImportOptions, CliError> {
    let mut options = ImportOptions::new()
        .sample_defaults(args.flag("--defaults"))
        .infer_path_params(args.flag("--infer-path"))
        .keep_secrets(args.flag("--keep-secrets"))
        .keep_browser_headers(args.flag("--keep-browser-headers"));
    if let Some(name) = args.value("--name")? {
        options = options.tool_name(name);
    }
    if let Some(name) = args.value("--plugin-name")? {
        options = options.plugin_name(name);
    }
    if let Some(description) = args.value("--description")? {
        options = options.description(description);
    }
    Ok(options)
}

/// The command: one text argument, standard input, or the words after `--`.
fn read_command(positionals: Vec<String>, max_bytes: u64) -> Result<CurlCommand, CliError> {
    let parsed = match positionals.as_slice() {
        [] => curl::parse(&read_input("-", max_bytes)?),
        [one] if one == "-" => curl::parse(&read_input("-", max_bytes)?),
        [one] => curl::parse(one),
        words => curl::parse_args(words),
    };
    parsed.map_err(|e| CliError::Failed(format!("the curl command cannot be read: {}", e)))
}

fn read_word_or_stdin(word: &str, max_bytes: u64) -> Result<String, CliError> {
    if word == "-" {
        read_input("-", max_bytes)
    } else {
        Ok(word.to_string())
    }
}

/// Loads a plugin file. Its `${NAME}`s come from the environment; when secrets stay masked
/// a variable that is not set stands for itself, since its value is never shown.
fn load_for_export(path: &str, reveal: bool, max_bytes: u64) -> Result<HttpPlugin, CliError> {
    let text = read_plugin_text(path, max_bytes)?;
    let loaded = if reveal {
        HttpPlugin::from_json(&text)
    } else {
        HttpPlugin::from_json_with(&text, |name| {
            Some(std::env::var(name).unwrap_or_else(|_| format!("<{}>", name)))
        })
    };
    loaded.map_err(|e| CliError::Failed(format!("{}: {}", path, e)))
}
