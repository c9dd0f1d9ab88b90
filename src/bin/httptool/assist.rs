//! What makes `call` and `tools` easy to meet: the closest option to a mistyped one, the
//! tool of a one-tool plugin, the folder `--files DIR` serves, the context values a tool
//! needs, `-v`, and `tools --list`.
//!
//! Kept apart from the commands so each of them only calls in here.

use std::path::Path;
use std::sync::Arc;

use httptool::json::Map;
use httptool::plugin::{Auth, ConfigValue, FilePart, FileResolver, HttpPlugin};
use httptool::tool::{self, CallContext, ToolOutput};

use crate::args::Args;
use crate::jail::{Budget, Jail};
use crate::CliError;

/// The message for an option no command took: the closest known one (by edit distance,
/// [`tool::closest`]) and where the command's options are listed.
pub fn unknown_option(unknown: &str, known: &[String], command: &str) -> String {
    let name = unknown.split('=').next().unwrap_or(unknown);
    let mut message = format!("unknown option '{}'", unknown);
    if let Some(close) = tool::closest(name, known.iter().map(String::as_str)) {
        message.push_str(&format!("; did you mean '{}'?", close));
    }
    if command.is_empty() {
        message.push_str(" (put `--` before a positional argument that starts with '-')");
    } else {
        message.push_str(&format!(
            " (run `httptool {} --help` for its options)",
            command
        ));
    }
    message
}

/// The tool a call names: the word given, or the plugin's only tool when none is.
pub fn tool_name(plugin: &HttpPlugin, given: Option<&str>) -> Result<String, CliError> {
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
pub fn is_arguments(word: &str) -> bool {
    word == "-" || word.trim_start().starts_with('{')
}

/// Checks, before a call, what only the person at the command line can give: a context
/// value the tool reads (`--context KEY=VALUE`) and a folder for its files (`--files DIR`).
pub fn check_call(
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

/// The first context key a call of `tool` reads that `context` lacks: auth, static headers
/// and query values `{"context": ...}`, and required hidden parameters without a default.
fn missing_context(plugin: &HttpPlugin, tool: &str, context: &CallContext) -> Option<String> {
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

/// Takes `--files DIR`: a resolver that serves the files under DIR, if given.
pub fn files_option(args: &mut Args, max_bytes: u64) -> Result<Option<FilesUnder>, CliError> {
    match args.value("--files")? {
        None => Ok(None),
        Some(dir) => FilesUnder::new(Path::new(&dir), max_bytes).map(Some),
    }
}

/// Serves a call's file parts from the files under one folder (`--files DIR`): a handle is
/// a path relative to it, read through the command line's one [`Jail`], each file at most
/// `--max-input-bytes`.
pub struct FilesUnder {
    jail: Jail,
}

impl FilesUnder {
    /// The folder `dir`, which must exist.
    pub fn new(dir: &Path, max_bytes: u64) -> Result<FilesUnder, CliError> {
        Jail::new(
            dir,
            "the folder named with --files",
            Budget::EachFile(max_bytes),
        )
        .map(|jail| FilesUnder { jail })
        .map_err(|e| CliError::Failed(format!("--files {}: {}", dir.display(), e)))
    }
}

impl FileResolver for FilesUnder {
    fn resolve(
        &self,
        handle: &str,
        _context: &CallContext,
    ) -> Result<FilePart, Box<dyn std::error::Error + Send + Sync>> {
        let path = self.jail.path(handle)?;
        let bytes = self.jail.read(&path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(FilePart::new(name.clone(), content_type(&name), bytes))
    }
}

/// The media type of a file by its extension, for the common ones; else bytes.
fn content_type(name: &str) -> &'static str {
    let extension = name.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
    match extension.as_str() {
        "txt" => "text/plain",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "json" => "application/json",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "zip" => "application/zip",
        _ => "application/octet-stream",
    }
}

/// A plugin with the resolver of `--files DIR`, if given.
pub fn with_files(plugin: HttpPlugin, files: Option<FilesUnder>) -> HttpPlugin {
    match files {
        Some(files) => plugin.with_file_resolver(Arc::new(files)),
        None => plugin,
    }
}

/// A call as `-v` makes it: the response's status line and headers on standard error
/// (secrets as `***`), then what the model would get, as a registry call gives it.
pub fn verbose_call(
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
pub fn note_unset(plugin: &HttpPlugin, reveal: bool) {
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
pub fn note_status(output: &ToolOutput) {
    if output.status() == Some(204) {
        eprintln!("(204 No Content)");
    }
}

/// `tools --list`: one line a tool, for a person: name, method and path, and the
/// parameters the model must give, in aligned columns.
pub fn list(plugins: &[HttpPlugin]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_option_and_where_to_look() {
        let known = ["--dry-run".to_string(), "--context".to_string()];
        assert_eq!(
            unknown_option("--contxt=a=1", &known, "call"),
            "unknown option '--contxt=a=1'; did you mean '--context'? (run `httptool call --help` for its options)"
        );
        assert_eq!(
            unknown_option("--zzz", &known, "call"),
            "unknown option '--zzz' (run `httptool call --help` for its options)"
        );
    }

    #[test]
    fn content_types_by_extension() {
        assert_eq!(content_type("report.PDF"), "application/pdf");
        assert_eq!(content_type("noext"), "application/octet-stream");
    }
}
