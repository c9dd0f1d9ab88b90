//! The real OpenAPI documents in `../shared/data/openapi/`, for the tests that import them.

use std::path::{Path, PathBuf};

use httptool::json::{Json, ParseOptions};
use httptool::openapi::RefResolver;

/// The folder of the documents.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/openapi")
}

/// A document, JSON or YAML by its extension.
pub fn read(path: &Path) -> Json {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e));
    match path.extension().and_then(|x| x.to_str()) {
        Some("json") => ParseOptions::new().parse(&text).unwrap(),
        _ => httptool::yaml::parse(&text).unwrap_or_else(|e| panic!("{}: {}", path.display(), e)),
    }
}

/// Reads the files beside the DigitalOcean document, YAML, from that folder only.
pub struct Folder(pub PathBuf);

impl RefResolver for Folder {
    fn resolve(&self, location: &str) -> Result<Json, String> {
        if location.contains("..") || location.starts_with('/') {
            return Err(String::from("outside the folder"));
        }
        let text = std::fs::read_to_string(self.0.join(location)).map_err(|e| e.to_string())?;
        httptool::yaml::parse(&text).map_err(|e| e.to_string())
    }
}
