//! `--catalog` for `tools` and `serve`: the plugins' tools offered as three
//! (`search_operations`, `describe_operation`, `call_operation`), always or above a size.

use httptool::tool::{
    Catalog, CatalogLimits, ToolRegistry, DEFAULT_CATALOG_MAX_SCHEMA_BYTES,
    DEFAULT_CATALOG_MAX_TOOLS,
};

use crate::args::Args;
use crate::error::CliError;

/// The help text of the catalog options, shared by `tools` and `serve`.
pub const HELP: &str =
    "  --catalog [auto]      offer the tools as three: search_operations, describe_operation
                        and call_operation; with `auto`, only above --catalog-max-tools
                        tools or a tools/list of more than --catalog-max-bytes
  --catalog-max-tools N   for --catalog auto (default 128)
  --catalog-max-bytes N   for --catalog auto: MCP tools/list bytes (default 131072)";

/// When to offer a catalog.
pub enum Mode {
    /// One tool per operation (no `--catalog`).
    Off,
    /// Always a catalog (`--catalog`).
    On,
    /// A catalog above the limits (`--catalog auto`).
    Auto(CatalogLimits),
}

/// Takes `--catalog [auto]`, `--catalog-max-tools N` and `--catalog-max-bytes N`.
pub fn take(args: &mut Args) -> Result<Mode, CliError> {
    let word = args.flag_or_value("--catalog", &["auto", "always", "never"])?;
    let tools = args.value("--catalog-max-tools")?;
    let bytes = args.value("--catalog-max-bytes")?;
    let mode = match word {
        None => Mode::Off,
        Some(None) => Mode::On,
        Some(Some(word)) => match word.as_str() {
            "always" => Mode::On,
            "never" => Mode::Off,
            "auto" => {
                let limits = CatalogLimits::new()
                    .max_tools(number(
                        tools.as_deref(),
                        "--catalog-max-tools",
                        DEFAULT_CATALOG_MAX_TOOLS,
                    )?)
                    .max_schema_bytes(number(
                        bytes.as_deref(),
                        "--catalog-max-bytes",
                        DEFAULT_CATALOG_MAX_SCHEMA_BYTES,
                    )?);
                return Ok(Mode::Auto(limits));
            }
            other => {
                return Err(CliError::Usage(format!(
                    "--catalog takes auto, always or never, got '{}'",
                    other
                )))
            }
        },
    };
    if tools.is_some() || bytes.is_some() {
        return Err(CliError::Usage(
            "--catalog-max-tools and --catalog-max-bytes go with --catalog auto".to_string(),
        ));
    }
    Ok(mode)
}

/// The registry to offer: `registry` itself, or its catalog's three tools, whose search
/// tool names the plugins.
pub fn apply(mode: &Mode, registry: ToolRegistry, plugin_names: &[&str]) -> ToolRegistry {
    let wanted = match mode {
        Mode::Off => false,
        Mode::On => true,
        Mode::Auto(limits) => limits.wants_catalog(&registry),
    };
    if !wanted {
        return registry;
    }
    let about = match plugin_names {
        [] => return Catalog::new(registry).registry(),
        [one] => format!("the {} API", one),
        many => format!("the APIs {}", many.join(", ")),
    };
    Catalog::with_about(registry, about).registry()
}

fn number(word: Option<&str>, option: &str, default: usize) -> Result<usize, CliError> {
    match word {
        None => Ok(default),
        Some(word) => word.parse::<usize>().map_err(|_| {
            CliError::Usage(format!("{} takes a whole number, got '{}'", option, word))
        }),
    }
}
