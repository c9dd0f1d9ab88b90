//! How every command reads what the user points it at: a file or standard input (`-`),
//! capped in size, UTF-8 with an optional byte order mark, JSON or YAML.
//!
//! One place, so every command has the same cap and the same rules: a plugin file (`tools`,
//! `call`, `export curl`), a document (`import openapi`), arguments or a curl command on
//! standard input.

use std::io::Read;

use httptool::json::{self, Json};
use httptool::yaml;

use crate::args::Args;
use crate::error::CliError;

/// The most bytes a command reads from one file or from standard input: 64 MiB, enough for
/// the largest published OpenAPI documents (Kubernetes' is about 4 MB, Stripe's 7 MB) and
/// far from what a machine cannot hold. `--max-input-bytes N` changes it; reading stops one
/// byte past the cap, so `/dev/zero` or an endless pipe cannot grow the process.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// The option that changes the cap, as the error messages name it.
pub const MAX_INPUT_OPTION: &str = "--max-input-bytes";

/// Takes `--max-input-bytes N` from the command's words, or the default.
pub fn max_input_bytes(args: &mut Args) -> Result<u64, CliError> {
    match args.value(MAX_INPUT_OPTION)? {
        None => Ok(DEFAULT_MAX_INPUT_BYTES),
        Some(text) => match text.parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(CliError::Usage(format!(
                "{} takes a number of bytes above 0",
                MAX_INPUT_OPTION
            ))),
        },
    }
}

/// The text of `path` (`-` for standard input), at most `max_bytes` bytes, as UTF-8 with a
/// leading byte order mark removed.
pub fn read_input(path: &str, max_bytes: u64) -> Result<String, CliError> {
    let (name, bytes) = if path == "-" {
        let stdin = std::io::stdin();
        let lock = stdin.lock();
        ("standard input".to_string(), read_capped(lock, max_bytes))
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| CliError::Failed(format!("cannot read {}: {}", path, e)))?;
        // Room for the whole file at once: grown by doubling instead, a 50 MB file was
        // copied and faulted in several times over.
        let size = file.metadata().map_or(0, |m| m.len()).min(max_bytes);
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
        let read = file
            .take(max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)
            .map(|_| bytes);
        (path.to_string(), read)
    };
    let bytes = bytes.map_err(|e| CliError::Failed(format!("cannot read {}: {}", name, e)))?;
    if bytes.len() as u64 > max_bytes {
        return Err(CliError::Failed(format!(
            "{} is larger than the input limit of {} bytes; raise it with {} N",
            name, max_bytes, MAX_INPUT_OPTION
        )));
    }
    decode(&name, bytes)
}

/// `bytes` as UTF-8 text with a leading byte order mark removed; `name` says whose, for
/// the error.
pub fn decode(name: &str, bytes: Vec<u8>) -> Result<String, CliError> {
    let mut text = String::from_utf8(bytes).map_err(|e| {
        CliError::Failed(format!(
            "{} is not UTF-8 (invalid byte at offset {})",
            name,
            e.utf8_error().valid_up_to()
        ))
    })?;
    if text.starts_with('\u{FEFF}') {
        text.drain(..3);
    }
    Ok(text)
}

/// Reads at most `max_bytes + 1` bytes, so a longer input shows without being read whole.
pub fn read_capped(reader: impl Read, max_bytes: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Whether `path` and `text` are YAML rather than JSON: by the extension (`.yaml`, `.yml`;
/// `.json` is JSON), else by sniffing (JSON text starts with `{` or `[`; anything else is
/// read as YAML, of which JSON is a subset anyway).
pub fn is_yaml(path: &str, text: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        return true;
    }
    if lower.ends_with(".json") {
        return false;
    }
    !matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['))
}

/// `text` as a value, YAML or JSON as [`is_yaml`] decides. Documents nest deeper than tool
/// arguments (a Kubernetes schema, say), so the depth limit is [`MAX_DOCUMENT_DEPTH`].
pub fn parse_document(path: &str, text: &str) -> Result<Json, CliError> {
    let name = if path == "-" { "standard input" } else { path };
    if is_yaml(path, text) {
        yaml::ParseOptions::new()
            .max_depth(MAX_DOCUMENT_DEPTH)
            .parse(text)
            .map_err(|e| CliError::Failed(format!("{}: {}", name, e)))
    } else {
        json::ParseOptions::new()
            .max_depth(MAX_DOCUMENT_DEPTH)
            .parse(text)
            .map_err(|e| CliError::Failed(format!("{}: {}", name, e)))
    }
}

/// How deep a plugin file or an OpenAPI document may nest.
pub const MAX_DOCUMENT_DEPTH: usize = 512;

/// A plugin file's JSON text: a JSON file as it is (so the loader's positions point into
/// it), a YAML file as the compact JSON of its value.
pub fn read_plugin_text(path: &str, max_bytes: u64) -> Result<String, CliError> {
    let text = read_input(path, max_bytes)?;
    if is_yaml(path, &text) {
        Ok(parse_document(path, &text)?.to_string())
    } else {
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_by_extension_or_by_first_character() {
        assert!(is_yaml("a.yaml", "{}"));
        assert!(is_yaml("a.YML", "{}"));
        assert!(!is_yaml("a.json", "a: 1"));
        assert!(!is_yaml("plugin", "  \n{\"a\": 1}"));
        assert!(!is_yaml("-", "[1]"));
        assert!(is_yaml("-", "name: x"));
        assert!(is_yaml("plugin", "# comment\n{}"));
    }
}
