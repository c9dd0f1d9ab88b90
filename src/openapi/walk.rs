//! The walk over the document's `paths`: each path item and operation, in document order,
//! as the steps the conversion takes (see [`Step`]), with the warnings and refusals met on
//! the way.

use super::error::{child, Error, Warning};
use super::options::ImportOptions;
use super::refs::{resolve_object, Refs};
use super::select;
use crate::http::Method;
use crate::json::{Json, Map};

/// The HTTP methods of a path item (OpenAPI 3.1 section 4.8.9).
const METHODS: [(&str, Method); 7] = [
    ("get", Method::Get),
    ("put", Method::Put),
    ("post", Method::Post),
    ("delete", Method::Delete),
    ("options", Method::Options),
    ("head", Method::Head),
    ("patch", Method::Patch),
];

/// What the walk over `paths` meets, in document order: a warning, an operation to convert,
/// or the error that ends the import there. Made on the calling thread; the operations are
/// then converted in runs (see [`parallel`](super::parallel)), each run giving the warnings of its steps in
/// order.
pub(super) enum Step<'a> {
    Warn(Warning),
    /// An operation left out: the warning that says so, and why.
    Skip(Warning, Error),
    Convert(Operation<'a>),
    Fail(Error),
}

/// An operation to convert, and where it is.
pub(super) struct Operation<'a> {
    pub path: &'a str,
    pub method: Method,
    /// The path item, resolved.
    pub item: &'a Map,
    /// The document the path item is in.
    pub item_doc: usize,
    pub item_at: String,
    pub op: &'a Json,
    /// The document the operation is in: the path item's, or the one its `$ref` leads to.
    pub op_doc: usize,
    pub op_at: String,
}

/// The path items and operations of the document as steps, and the number of operations
/// it holds (before selection). A path item that cannot be read ends the walk with its
/// error with `strict`, else a warning.
pub(super) fn walk<'a>(
    root: &'a Json,
    options: &ImportOptions,
    refs: &Refs<'a>,
) -> (Vec<Step<'a>>, usize) {
    let paths = root.get("paths").and_then(Json::as_object);
    let mut steps: Vec<Step<'a>> = Vec::new();
    let mut operations = 0usize;
    for (path, item) in paths.into_iter().flat_map(|p| p.iter()) {
        let item_at = child("/paths", path);
        let (item, item_doc) = match resolve_object(item, 0, &item_at, refs) {
            Ok(found) => found,
            Err(e) if !options.strict => {
                steps.push(Step::Skip(
                    Warning::new(
                        item_at.as_str(),
                        format!("path not imported: {}", e.message()),
                    ),
                    e,
                ));
                continue;
            }
            Err(e) => {
                steps.push(Step::Fail(e));
                break;
            }
        };
        let item = match item.as_object() {
            Some(item) => item,
            None => continue,
        };
        for (key, _) in item.iter() {
            let known = METHODS.iter().any(|(m, _)| m == key)
                || ["parameters", "servers", "summary", "description", "$ref"]
                    .contains(&key.as_str())
                || key.starts_with("x-");
            if !known {
                steps.push(Step::Warn(Warning::new(
                    child(&item_at, key),
                    format!(
                        "'{}' is not an operation this importer reads: not imported",
                        key
                    ),
                )));
            }
        }
        for (key, value) in item.iter() {
            let method = match METHODS.iter().find(|(m, _)| m == key) {
                Some((_, method)) => *method,
                None => continue,
            };
            operations += 1;
            let op_at = child(&item_at, key);
            // OpenAPI 3.1 section 4.8.9: a path item may be a `$ref`, an operation may not;
            // multi-file documents do it anyway (DigitalOcean's), and their bundlers follow
            // it, so it is followed here too.
            let (value, op_doc) = match resolve_object(value, item_doc, &op_at, refs) {
                Ok(found) => found,
                Err(e) if !options.strict => {
                    steps.push(Step::Skip(
                        Warning::new(
                            op_at.as_str(),
                            format!(
                                "{} not imported: {}",
                                operation_label(method.as_str(), path, value),
                                e.message()
                            ),
                        ),
                        e,
                    ));
                    continue;
                }
                Err(e) => {
                    steps.push(Step::Fail(e));
                    return (steps, operations);
                }
            };
            if !value.is_object() {
                steps.push(Step::Warn(Warning::new(
                    op_at,
                    "an operation that is not an object: not imported",
                )));
                continue;
            }
            if !select::selected(options, path, key, value) {
                continue;
            }
            if value.get("deprecated").and_then(Json::as_bool) == Some(true)
                && !options.include_deprecated
            {
                steps.push(Step::Warn(Warning::new(
                    op_at,
                    "deprecated: not imported (include_deprecated imports it)",
                )));
                continue;
            }
            if let Some(callbacks) = value.get("callbacks").and_then(Json::as_object) {
                for (name, _) in callbacks.iter() {
                    steps.push(Step::Warn(Warning::new(
                        child(&child(&op_at, "callbacks"), name),
                        "callbacks are requests the API sends: not imported",
                    )));
                }
            }
            steps.push(Step::Convert(Operation {
                path,
                method,
                item,
                item_doc,
                item_at: item_at.clone(),
                op: value,
                op_doc,
                op_at,
            }));
        }
    }
    (steps, operations)
}

/// How a warning names an operation: `GET /pets/{id} (getPet)`, the `operationId` when it
/// has one (capped: a document writes it).
pub(super) fn operation_label(method: &str, path: &str, op: &Json) -> String {
    match op.get("operationId").and_then(Json::as_str) {
        Some(id) if !id.trim().is_empty() => {
            format!(
                "{} {} ({})",
                method,
                super::refs::short(path),
                super::refs::short(id)
            )
        }
        _ => format!("{} {}", method, super::refs::short(path)),
    }
}
