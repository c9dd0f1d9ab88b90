//! The import from end to end: the document's version, servers and security schemes, the
//! walk over its paths ([`walk`]), the operations converted ([`parallel`]), and the plugin
//! assembled through the plugin layer's builders ([`assemble`]).

use super::assemble;
use super::documents::Documents;
use super::error::{child, Error, ErrorKind, Warning};
use super::figures::figures;
use super::figures::ToolFigure;
use super::operation::{Draft, Env};
use super::options::{ImportOptions, Version};
use super::parallel;
use super::refs::Refs;
use super::security;
use super::server;
use super::text;
use super::walk;
use crate::json::Json;
use crate::plugin::{naming, HttpPlugin};

pub(crate) struct Outcome {
    pub plugin: HttpPlugin,
    pub version: Version,
    pub warnings: Vec<Warning>,
    pub tools: Vec<ToolFigure>,
    pub variables: Vec<String>,
    pub operations: usize,
}

fn version(root: &Json, warnings: &mut Vec<Warning>) -> Result<Version, Error> {
    if let Some(v) = root.get("swagger") {
        return match v.as_str() {
            Some("2.0") => Ok(Version::Swagger2),
            _ => Err(Error::new(
                ErrorKind::UnsupportedVersion,
                "/swagger",
                format!("swagger {} is not read; 2.0 is", short_json(v)),
            )),
        };
    }
    let v = root.get("openapi").ok_or_else(|| {
        Error::new(
            ErrorKind::NotOpenApi,
            "",
            "not an openapi document: expected an object with an 'openapi' or 'swagger' field",
        )
    })?;
    let text = v.as_str().unwrap_or("");
    if text.starts_with("3.0") {
        Ok(Version::V3_0)
    } else if text.starts_with("3.1") {
        Ok(Version::V3_1)
    } else if text.starts_with("3.") {
        warnings.push(Warning::new(
            "/openapi",
            format!(
                "openapi {} is read as 3.1: constructs newer than 3.1 are not imported",
                text
            ),
        ));
        Ok(Version::V3_1)
    } else {
        Err(Error::new(
            ErrorKind::UnsupportedVersion,
            "/openapi",
            format!(
                "openapi {} is not read; 3.0, 3.1 and swagger 2.0 are",
                short_json(v)
            ),
        ))
    }
}

fn short_json(v: &Json) -> String {
    super::refs::short(&v.to_string())
}

/// What the document gives: the operations converted, and what the plugin is assembled
/// from. It borrows nothing of the document, which may be freed before the plugin is made.
struct DocumentParts {
    name: String,
    description: String,
    version: Version,
    base_url: String,
    schemes: Vec<security::Scheme>,
    drafts: Vec<Draft>,
    warnings: Vec<Warning>,
    operations: usize,
}

pub(crate) fn run(root: &Json, options: &ImportOptions) -> Result<Outcome, Error> {
    let parts = convert_operations(root, options)?;
    make_plugin(parts, options)
}

/// [`run`] on a document the import may free: it is freed once its operations are
/// converted, so the plugin is made in its memory rather than beside it.
pub(crate) fn run_owned(document: Json, options: &ImportOptions) -> Result<Outcome, Error> {
    let parts = convert_operations(&document, options)?;
    drop(document);
    make_plugin(parts, options)
}

fn convert_operations(root: &Json, options: &ImportOptions) -> Result<DocumentParts, Error> {
    if !root.is_object() {
        return Err(Error::new(
            ErrorKind::NotOpenApi,
            "",
            format!(
                "not an openapi document: expected an object; got {}",
                root.type_name()
            ),
        ));
    }
    let mut warnings = Vec::new();
    let version = version(root, &mut warnings)?;
    let title = root
        .pointer("/info/title")
        .and_then(Json::as_str)
        .unwrap_or("");
    let name = match &options.name {
        Some(name) => name.clone(),
        None => naming::valid_name(&title.to_ascii_lowercase(), "openapi"),
    };
    let base_url = server::base_url(root, version, options, &mut warnings)?;
    let schemes = security::schemes(root, version, &mut warnings);
    let resolver = options
        .resolver
        .as_deref()
        .map(|r| r as &dyn super::documents::RefResolver);
    let documents = Documents::read(root, resolver);
    let refs = Refs::new(root, &documents);
    if let Some(webhooks) = root.get("webhooks").and_then(Json::as_object) {
        for (name, _) in webhooks.iter() {
            warnings.push(Warning::new(
                child("/webhooks", name),
                "webhooks are requests the API sends, not operations to call: not imported",
            ));
        }
    }
    let (steps, operations) = walk::walk(root, options, &refs);
    let env = Env {
        root,
        documents: &documents,
        version,
        schemes: &schemes,
        options,
        doc_base: &base_url,
    };
    let converted = parallel::convert(&steps, &env, &refs);
    warnings.extend(converted.warnings);
    if let Some(e) = converted.error {
        return Err(e);
    }
    let mut drafts = converted.drafts;
    if drafts.is_empty() {
        // Every operation was left out: the first one's reason is the import's.
        if let Some(e) = converted.skipped {
            return Err(e);
        }
        return Err(Error::new(
            ErrorKind::NoOperations,
            "/paths",
            if operations == 0 {
                String::from("the document has no operations")
            } else {
                format!(
                    "none of the document's {} operations is left to import",
                    operations
                )
            },
        ));
    }
    assemble::assign_names(&mut drafts, &mut warnings);
    Ok(DocumentParts {
        description: plugin_description(root, options),
        name,
        version,
        base_url,
        schemes,
        drafts,
        warnings,
        operations,
    })
}

fn make_plugin(parts: DocumentParts, options: &ImportOptions) -> Result<Outcome, Error> {
    let DocumentParts {
        name,
        description,
        version,
        base_url,
        schemes,
        drafts,
        mut warnings,
        operations,
    } = parts;
    let (plugin, variables, drafts) = assemble::build(
        &name,
        &description,
        &base_url,
        drafts,
        &schemes,
        options,
        &mut warnings,
    )?;
    dedupe(&mut warnings);
    let tools = figures(&plugin, &drafts, &base_url, options.thread_count());
    Ok(Outcome {
        plugin,
        version,
        warnings,
        tools,
        variables,
        operations,
    })
}

/// The same warning at the same place once (a cached schema met again warns again).
fn dedupe(warnings: &mut Vec<Warning>) {
    let mut seen = std::collections::HashSet::new();
    warnings.retain(|w| seen.insert((w.pointer().to_string(), w.message().to_string())));
}

fn plugin_description(root: &Json, options: &ImportOptions) -> String {
    let max = options
        .max_description_bytes
        .unwrap_or(super::options::DEFAULT_MAX_DESCRIPTION_BYTES);
    let title = root
        .pointer("/info/title")
        .and_then(Json::as_str)
        .unwrap_or("");
    let version = root
        .pointer("/info/version")
        .and_then(Json::as_str)
        .unwrap_or("");
    let mut out = title.trim().to_string();
    if !version.is_empty() {
        out.push_str(&format!(" {}", version.trim()));
    }
    if let Some(description) = root.pointer("/info/description").and_then(Json::as_str) {
        if !description.trim().is_empty() {
            out.push_str(". ");
            out.push_str(description.trim());
        }
    }
    text::cap(&out, max)
}
