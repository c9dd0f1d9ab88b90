//! `httptool`: the command line of the httptool library.
//!
//! It prints the tool specs a model reads, performs calls the way a model would, converts
//! curl commands to plugins and back, serves plugins to MCP clients, and runs a
//! self-contained demo. It is the only part of
//! the project that reads files, the environment and standard input, and writes to standard
//! output.
//!
//! Exit status: 0 on success; 1 when the call's result is an error (the message says why) or
//! the work failed (a plugin file that does not load, for instance); 2 for a command line
//! that cannot be read.

use std::process::ExitCode;

mod args;
mod call;
mod catalog;
mod collections;
mod context;
mod convert;
mod demo;
mod error;
mod files;
mod input;
mod jail;
mod load;
mod network;
mod openapi;
mod output;
mod schemas;
mod serve;
mod tools;

use args::Args;
use error::CliError;
use output::print_out;

const USAGE: &str = "\
httptool: turn HTTP/REST APIs into tools a language model can call

usage: httptool <command> [options]

commands:
  demo                                  an embedded API, declared, described and called, end to end
  tools PLUGIN.json... [--format F]     print the tool specs a model reads (or SPEC.json)
  call PLUGIN.json TOOL [ARGS-JSON]     perform a call and print what the model would get
  import curl ['curl ...']              turn a curl command (or stdin) into a plugin file
  import openapi SPEC.json              turn an OpenAPI or Swagger document into a plugin file
  import postman COLLECTION.json        turn a Postman collection (v2.0, v2.1) into a plugin file
  import har RECORDING.har [--host H]   turn a browser's HAR recording into a plugin file
  export curl PLUGIN.json [TOOL] [ARGS] print the curl command a call would amount to
  serve PLUGIN.json...                  serve the tools to an MCP client on stdin and stdout
  serve PLUGIN.json... --http PORT      the same over MCP's Streamable HTTP (loopback by default)

Plugin files and documents may be JSON or YAML (by extension, or YAML unless the text
starts with '{' or '['); each input is read up to 64 MiB (--max-input-bytes N changes it).
`call` and `serve` read proxies from http_proxy, HTTPS_PROXY and NO_PROXY and take
--ca-file, --proxy and --timeout (see `httptool call --help`).
Run `httptool <command> --help` (or `httptool help <command>`) for a command's options.
`httptool --version` prints the version, and whether https is built in.";

fn main() -> ExitCode {
    let words = match args::from_env() {
        Ok(words) => words,
        Err(err) => return report(&err),
    };
    match run(words) {
        Ok(code) => code,
        Err(err) => report(&err),
    }
}

fn report(err: &CliError) -> ExitCode {
    eprintln!("httptool: {}", err);
    if let CliError::Usage(_) = err {
        eprintln!("Run `httptool --help` for usage.");
    }
    err.exit_code()
}

/// Dispatches to the command named by the first word.
fn run(words: Vec<String>) -> Result<ExitCode, CliError> {
    let mut words = words.into_iter();
    let command = match words.next() {
        Some(command) => command,
        None => return Err(CliError::Usage("a command is needed".to_string())),
    };
    let mut rest: Vec<String> = words.collect();
    if command == "help" && !rest.is_empty() {
        // `httptool help call` is `httptool call --help`.
        rest.push("--help".to_string());
        return run(rest);
    }
    let args = Args::new(rest.clone()).named(&command);
    match command.as_str() {
        "-h" | "--help" | "help" => {
            print_out(USAGE)?;
            Ok(ExitCode::SUCCESS)
        }
        "-V" | "--version" => {
            print_out(&network::version())?;
            Ok(ExitCode::SUCCESS)
        }
        "demo" => demo::run(args),
        "tools" => tools::run(args),
        "call" => call::run(args),
        "import" => convert::import(args),
        "export" => convert::export(args),
        "serve" => serve::run(args),
        other => Err(CliError::Usage(format!(
            "unknown command '{}'; the commands are demo, tools, call, import, export, serve",
            other
        ))),
    }
}
