//! `httptool import postman` and `httptool import har`: what teams already have (a Postman
//! collection, a browser recording) into a plugin file.

use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

use httptool::curl::Variable;
use httptool::json::{self, Json};
use httptool::{har, postman};

use crate::args::Args;
use crate::error::CliError;
use crate::input;
use crate::output::print_out;

/// A format `import` reads here: its word, its help, and the command.
type Format = (
    &'static str,
    &'static str,
    fn(Args) -> Result<ExitCode, CliError>,
);

/// The formats of this file.
pub const FORMATS: [Format; 2] = [
    ("postman", POSTMAN_HELP, postman_import),
    ("har", HAR_HELP, har_import),
];

const POSTMAN_HELP: &str = "\
usage: httptool import postman COLLECTION.json [options]

Turns a Postman collection (v2.0 or v2.1, as Postman exports it) into a plugin file with one
tool per request and prints it (pretty JSON). Folders become tags; {{variables}} with a value
are written in, and credentials and variables without a value become ${NAME} environment
variables; auth of the collection, its folders and requests maps to the plugin's auth.
Nothing is fetched and no script is run. Standard error lists what was skipped or
approximated (naming the item) and the environment variables the plugin file reads.

  --environment FILE      a Postman environment whose values the {{variables}} take
  --base-url URL          the plugin's base URL, instead of the one most requests use
  --plugin-name NAME      the plugin's name (default: the collection's name)
  --keep-secrets          write credentials into the file instead of ${NAME} variables
  --max-requests N        the most requests the collection may hold (default 10000)
  --max-input-bytes N     read at most N bytes of the file (default 64 MiB)";

const HAR_HELP: &str = "\
usage: httptool import har RECORDING.har [--host HOST]... [options]

Turns a browser's HAR 1.2 recording (DevTools, Network, \"Save all as HAR\") into a plugin
file with one tool per endpoint the page called, and prints it (pretty JSON). API calls
(JSON requests or responses, XHR and fetch) are grouped by method and path template; ids in
paths become parameters; query and body parameters are inferred from every call. The
Authorization header, cookies and other credentials become ${NAME} environment variables:
no recorded secret is written. Documents, scripts, styles, images, fonts, preflights and
analytics calls are left out and counted on standard error.

  --host HOST             keep calls to HOST or HOST:PORT; repeatable (default: the host
                          with the most API calls)
  --plugin-name NAME      the plugin's name (default: from the host)
  --max-entries N         the most entries the recording may hold (default 100000)
  --max-input-bytes N     read at most N bytes of the file (default 64 MiB)";

/// How deep a collection may nest: folders in folders, and the JSON of its bodies.
const MAX_DEPTH: usize = 512;

fn postman_import(mut args: Args) -> Result<ExitCode, CliError> {
    let mut options = postman::ImportOptions::new().keep_secrets(args.flag("--keep-secrets"));
    if let Some(url) = args.value("--base-url")? {
        options = options.base_url(url);
    }
    if let Some(name) = args.value("--plugin-name")? {
        options = options.plugin_name(name);
    }
    if let Some(max) = count(&mut args, "--max-requests")? {
        options = options.max_requests(max);
    }
    let environment = args.value("--environment")?;
    let max_bytes = input::max_input_bytes(&mut args)?;
    if let Some(environment) = environment {
        options = options.environment(read_json(&environment, max_bytes)?);
    }
    let path = one_path(args, "import postman needs one collection file")?;
    let document = read_json(&path, max_bytes)?;
    let import = postman::import_with(&document, &options)
        .map_err(|e| CliError::Failed(format!("{}: {}", path, e)))?;
    let file = import.plugin().to_json();
    print_out(&file.to_pretty())?;
    report(
        import.warnings(),
        import.variables(),
        import.plugin().endpoints().count(),
    );
    // As for a recording: the process ends now, and its memory with it.
    std::mem::forget((document, import, file));
    Ok(ExitCode::SUCCESS)
}

fn har_import(mut args: Args) -> Result<ExitCode, CliError> {
    let mut options = har::ImportOptions::new();
    for host in args.values("--host")? {
        options = options.host(host);
    }
    if let Some(name) = args.value("--plugin-name")? {
        options = options.plugin_name(name);
    }
    if let Some(max) = count(&mut args, "--max-entries")? {
        options = options.max_entries(max);
    }
    let max_bytes = input::max_input_bytes(&mut args)?;
    let path = one_path(
        args,
        "import har needs one recording: `httptool import har FILE.har`",
    )?;
    let document = read_json(&path, max_bytes)?;
    let import = har::import_with(&document, &options)
        .map_err(|e| CliError::Failed(format!("{}: {}", path, e)))?;
    let file = import.plugin().to_json();
    print_out(&file.to_pretty())?;
    let mut warnings = import.warnings().to_vec();
    if import.skipped() > 0 {
        let reasons: Vec<String> = import
            .skipped_by_reason()
            .iter()
            .map(|(reason, n)| format!("{} {}", n, reason))
            .collect();
        warnings.push(format!(
            "{} entries left out: {}",
            import.skipped(),
            reasons.join(", ")
        ));
    }
    report(
        &warnings,
        import.variables(),
        import.plugin().endpoints().count(),
    );
    // The process ends now, and its memory with it: taking the recording's tree apart (a
    // 50 MB recording is millions of small allocations) cost a quarter of the command's
    // time for nothing. Nothing here holds a resource other than memory (standard output
    // was written above).
    std::mem::forget((document, import, file));
    Ok(ExitCode::SUCCESS)
}

/// A number option above 0.
pub fn count(args: &mut Args, option: &str) -> Result<Option<usize>, CliError> {
    match args.value(option)? {
        None => Ok(None),
        Some(text) => match text.parse::<usize>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => Err(CliError::Usage(format!(
                "{} takes a number above 0",
                option
            ))),
        },
    }
}

/// The one positional argument.
pub fn one_path(args: Args, usage: &str) -> Result<String, CliError> {
    let positionals = args.positionals()?;
    match <[String; 1]>::try_from(positionals) {
        Ok([path]) => Ok(path),
        Err(_) => Err(CliError::Usage(usage.to_string())),
    }
}

/// A JSON file, capped in size and depth.
pub fn read_json(path: &str, max_bytes: u64) -> Result<Json, CliError> {
    let text = input::read_input(path, max_bytes)?;
    json::ParseOptions::new()
        .max_depth(MAX_DEPTH)
        .parse(&text)
        .map_err(|e| CliError::Failed(format!("{}: {}", path, e)))
}

/// Warnings, variables and a count on standard error.
pub fn report(warnings: &[String], variables: &[Variable], tools: usize) {
    let mut text = String::new();
    for warning in warnings {
        let _ = writeln!(text, "warning: {}", warning);
    }
    for variable in variables {
        let _ = writeln!(text, "environment variable {}", variable);
    }
    let _ = writeln!(text, "{} tools", tools);
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
