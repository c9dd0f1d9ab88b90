//! The real OpenAPI documents in `../shared/data/openapi/` (see its SOURCES.md), for the
//! tests that import them: where they are, which there are, and how to read them.

use std::path::{Path, PathBuf};

use httptool::json::{Json, ParseOptions};
use httptool::openapi::RefResolver;

/// The documents of the folder, JSON and YAML files and DigitalOcean's folder of many files;
/// [`documents_found`] says when one is added, so that it gets its tests.
pub const DOCUMENTS: [&str; 7] = [
    "box-platform.openapi.json",
    "digitalocean",
    "discord-api.openapi.json",
    "figma-rest-api.openapi.yaml",
    "kubernetes-v1.36.swagger.json",
    "pinterest-v5.openapi.yaml",
    "spotify-web-api.fixed.openapi.yaml",
];

/// The folder of the documents.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/openapi")
}

/// The documents in the folder now, sorted: to compare with [`DOCUMENTS`].
pub fn documents_found() -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") || n.ends_with(".yaml") || n == "digitalocean")
        .collect();
    found.sort();
    found
}

/// The document at `path`, JSON or YAML by its extension.
pub fn read(path: &Path) -> Json {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e));
    match path.extension().and_then(|x| x.to_str()) {
        Some("json") => ParseOptions::new().parse(&text).unwrap(),
        _ => httptool::yaml::parse(&text).unwrap_or_else(|e| panic!("{}: {}", path.display(), e)),
    }
}

/// Reads the files beside a document split into several (DigitalOcean's), YAML, from its
/// folder only.
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
