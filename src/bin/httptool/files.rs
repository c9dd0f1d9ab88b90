//! `--files DIR`: the one folder a call's file parameters may send files from.

use std::path::Path;
use std::sync::Arc;

use httptool::plugin::{FilePart, FileResolver, HttpPlugin};
use httptool::tool::CallContext;

use crate::args::Args;
use crate::error::CliError;
use crate::jail::{Budget, Jail};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_by_extension() {
        assert_eq!(content_type("report.PDF"), "application/pdf");
        assert_eq!(content_type("noext"), "application/octet-stream");
    }
}
