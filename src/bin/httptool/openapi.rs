//! `httptool import openapi`, and OpenAPI documents where `tools` and `call` take a plugin
//! file.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use httptool::json::Json;
use httptool::openapi::{self, Import, ImportOptions, RefResolver};
use httptool::plugin::HttpPlugin;

use crate::args::Args;
use crate::error::CliError;
use crate::input;
use crate::jail::{Budget, Jail};

pub const HELP: &str = "\
usage: httptool import openapi SPEC.json|SPEC.yaml [options]

Turns an OpenAPI 3.0 / 3.1 or Swagger 2.0 document into a plugin file with one tool per
operation and prints it (pretty JSON). External $refs are read from the document's folder
only (regular files, each once, all of them with the document within --max-input-bytes);
nothing is fetched. Standard error lists what was skipped or approximated (with the
JSON Pointer of where), the environment variables the plugin reads its credentials from,
and the size of the tools.

  --base-url URL          the base url, instead of the document's servers
  --server N              which of the document's servers (default 0)
  --var NAME=VALUE        a server variable's value; repeatable
  --include-tag T         only operations with this tag; repeatable
  --exclude-tag T         leave out operations with this tag; repeatable
  --include-op ID         only the operation with this operationId; repeatable
  --exclude-op ID         leave out this operationId; repeatable
  --path GLOB             only paths matching GLOB (* any run, ? one character); repeatable
  --method M              only operations of this method; repeatable
  --include-deprecated    import deprecated operations too
  --strict                the first operation that cannot be imported fails the import
                          (by default it is left out with a warning naming it and why,
                          and the import fails only when no operation is left)
  --threads N             threads to import and print with (default: one per core); the
                          output is the same for every N";

pub fn import(mut args: Args) -> Result<ExitCode, CliError> {
    let mut options = ImportOptions::new()
        .include_deprecated(args.flag("--include-deprecated"))
        .strict(args.flag("--strict"));
    // Skipping is the default; the flag is still accepted.
    let _ = args.flag("--skip-failing");
    if let Some(url) = args.value("--base-url")? {
        options = options.base_url(url);
    }
    if let Some(n) = args.value("--server")? {
        let n = n
            .parse::<usize>()
            .map_err(|_| CliError::Usage(format!("--server takes a number; got '{}'", n)))?;
        options = options.server(n);
    }
    for pair in args.values("--var")? {
        match pair.split_once('=') {
            Some((name, value)) if !name.is_empty() => {
                options = options.server_variable(name, value);
            }
            _ => return Err(CliError::Usage("--var takes NAME=VALUE".to_string())),
        }
    }
    for tag in args.values("--include-tag")? {
        options = options.include_tag(tag);
    }
    for tag in args.values("--exclude-tag")? {
        options = options.exclude_tag(tag);
    }
    for id in args.values("--include-op")? {
        options = options.include_operation(id);
    }
    for id in args.values("--exclude-op")? {
        options = options.exclude_operation(id);
    }
    for glob in args.values("--path")? {
        options = options.path(glob);
    }
    for method in args.values("--method")? {
        options = options.method(method);
    }
    let threads = match args.value("--threads")? {
        Some(n) => match n.parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                return Err(CliError::Usage(format!(
                    "--threads takes a number above 0; got '{}'",
                    n
                )))
            }
        },
        None => default_threads(),
    };
    options = options.threads(threads);
    let max_bytes = input::max_input_bytes(&mut args)?;
    let positionals = args.positionals()?;
    let path = match positionals.as_slice() {
        [path] => path,
        _ => {
            return Err(CliError::Usage(
                "import openapi needs one document: `httptool import openapi SPEC.json`"
                    .to_string(),
            ))
        }
    };
    let text = input::read_input(path, max_bytes)?;
    let document = input::parse_document(path, &text)?;
    // The files external `$ref`s name share the input limit with the document.
    let left = max_bytes.saturating_sub(text.len() as u64);
    drop(text);
    // The import frees the document once its operations are converted: the plugin, its
    // file and their printing are made in its memory rather than beside it.
    let import = openapi::import_owned(document, &resolving(options, path, left))
        .map_err(|e| import_failed(path, &e))?;
    let file = import.plugin().to_json();
    print_pretty(&file, threads)?;
    report(&import);
    // The process ends now, and its memory with it: taking apart the import, the plugin
    // file and its text (millions of small allocations for a large API) would
    // cost a tenth of the command's time for nothing. Nothing here holds a resource other
    // than memory (standard output is flushed above).
    std::mem::forget((import, file));
    Ok(ExitCode::SUCCESS)
}

/// The plugin file on standard output, pretty, and a line break: written as it is made, in
/// chunks, rather than made whole first (a large API's file is tens of megabytes: as one
/// string it was the process's largest allocation, and its growth copied it several times
/// over); the endpoints formatted on `threads` threads.
fn print_pretty(file: &Json, threads: usize) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    file.write_pretty_io_threaded(threads, &mut out)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(|e| CliError::Failed(format!("cannot write to standard output: {}", e)))
}

/// Warnings, variables and the size summary, on standard error: gathered first and written
/// at once (standard error is unbuffered, and a large API has thousands of warnings: line by
/// line they were five system calls each). A standard error that cannot be written to is
/// not worth failing for: the plugin file is already out.
fn report(import: &Import) {
    let mut text = String::new();
    for warning in import.warnings() {
        let _ = writeln!(text, "warning: {}", warning);
    }
    for variable in import.variables() {
        let _ = writeln!(text, "environment variable {}", variable);
    }
    let tools = import.tools();
    bases(tools, &mut text);
    let total: usize = tools.iter().map(|t| t.schema_bytes).sum();
    let mut largest: Vec<&openapi::ToolFigure> = tools.iter().collect();
    largest.sort_by(|a, b| {
        b.schema_bytes
            .cmp(&a.schema_bytes)
            .then(a.name.cmp(&b.name))
    });
    let top: Vec<String> = largest
        .iter()
        .take(5)
        .map(|t| format!("{} {}", t.name, t.schema_bytes))
        .collect();
    let _ = writeln!(
        text,
        "{} tools from {} operations; {} bytes of tool schemas; largest: {}",
        tools.len(),
        import.operations_in_document(),
        total,
        top.join(", ")
    );
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Which endpoints go to which base URL, one line a base in the order first met: the
/// document's servers at every level, or the base URL given, decide where requests go.
fn bases(tools: &[openapi::ToolFigure], text: &mut String) {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut slot: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for tool in tools {
        let i = *slot.entry(tool.base_url.as_str()).or_insert_with(|| {
            groups.push((tool.base_url.as_str(), Vec::new()));
            groups.len() - 1
        });
        if let Some((_, names)) = groups.get_mut(i) {
            names.push(tool.name.as_str());
        }
    }
    if let [(base, names)] = groups.as_slice() {
        let _ = writeln!(text, "base url {}: all {} endpoints", base, names.len());
        return;
    }
    for (base, names) in &groups {
        let shown: Vec<&str> = names.iter().take(8).copied().collect();
        let more = names.len() - shown.len();
        let _ = writeln!(
            text,
            "base url {}: {} endpoints: {}{}",
            base,
            names.len(),
            shown.join(", "),
            if more > 0 {
                format!(" and {} more", more)
            } else {
                String::new()
            }
        );
    }
}

/// One import thread per core the process may use (1 where that cannot be known).
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Imports `document`, read from `path`, its external `$ref`s read from its folder within
/// `max_bytes` together.
fn run_import(
    document: &Json,
    path: &str,
    options: ImportOptions,
    max_bytes: u64,
) -> Result<Import, CliError> {
    openapi::import_with(document, &resolving(options, path, max_bytes))
        .map_err(|e| import_failed(path, &e))
}

/// `options` with external `$ref`s read from the folder of `path` within `max_bytes`.
fn resolving(options: ImportOptions, path: &str, max_bytes: u64) -> ImportOptions {
    options.resolver(Arc::new(FolderResolver::new(path, max_bytes)))
}

fn import_failed(path: &str, e: &openapi::Error) -> CliError {
    CliError::Failed(format!("{}: {}", path, e))
}

/// Whether a parsed file is an OpenAPI document rather than a plugin file.
pub fn is_document(value: &Json) -> bool {
    value.is_object() && openapi::is_document(value)
}

/// The plugin of an OpenAPI document named where a plugin file is expected: credentials
/// from the environment; `needs_credentials` (a call) makes an unset variable an error.
/// The files its external `$ref`s name are read within `max_bytes` together.
pub fn plugin(
    document: &Json,
    path: &str,
    needs_credentials: bool,
    max_bytes: u64,
) -> Result<HttpPlugin, CliError> {
    // One import: every environment variable is offered (the plugin reads only the names its
    // security schemes make), then the ones it reads are checked. Importing once to learn the
    // names and again with their values doubled the start-up time of large documents.
    let mut options = ImportOptions::new().threads(default_threads());
    for (name, value) in std::env::vars_os() {
        if let (Ok(name), Ok(value)) = (name.into_string(), value.into_string()) {
            options = options.variable(name, value);
        }
    }
    let import = run_import(document, path, options, max_bytes)?;
    if needs_credentials {
        for name in import.variables() {
            let problem = match std::env::var(name) {
                Ok(value) if value.is_empty() => "is empty",
                Ok(_) => continue,
                Err(_) => "is not set",
            };
            return Err(CliError::Failed(format!(
                "{}: environment variable '{}' {} (the document's security scheme reads it)",
                path, name, problem
            )));
        }
    }
    Ok(import.into_plugin())
}

/// External `$ref`s read from the document's folder and below, through the command line's
/// one [`Jail`]: a path that leaves it (`..`, an absolute path, a symbolic link out of it)
/// or is not a regular file is refused, and all the files together are read within the
/// input limit the document left.
struct FolderResolver {
    jail: Result<Jail, String>,
    /// The document itself, which a `$ref` may name by its file (`openapi.yaml#/...`).
    document: Option<PathBuf>,
}

impl FolderResolver {
    fn new(path: &str, max_bytes: u64) -> FolderResolver {
        let folder = match Path::new(path).parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let jail = if path == "-" {
            Err("the document was read from standard input, which has no folder".to_string())
        } else {
            Jail::new(
                &folder,
                "the document's folder",
                Budget::AllFiles(Mutex::new(max_bytes)),
            )
            .map_err(|e| format!("the document's folder cannot be read: {}", e))
        };
        FolderResolver {
            jail,
            document: Path::new(path).canonicalize().ok(),
        }
    }

    fn jail(&self) -> Result<&Jail, String> {
        self.jail.as_ref().map_err(String::clone)
    }
}

impl RefResolver for FolderResolver {
    fn canonical(&self, location: &str) -> Result<String, String> {
        let jail = self.jail()?;
        let path = jail.path(location)?;
        if self.document.as_deref() == Some(path.as_path()) {
            return Ok(String::new());
        }
        jail.relative(&path)
    }

    fn resolve(&self, location: &str) -> Result<Json, String> {
        let jail = self.jail()?;
        let path = jail.path(location)?;
        let text = input::decode(location, jail.read(&path)?).map_err(|e| e.to_string())?;
        input::parse_document(location, &text).map_err(|e| e.to_string())
    }
}
