//! The walk over the document: paths, operations, their parameters, bodies and security,
//! into a plugin file, read back by the plugin layer (so whatever is imported is a plugin
//! file).

use std::collections::{HashMap, HashSet};

use super::body::{self, BodyOut};
use super::documents::Documents;
use super::error::{child, Error, ErrorKind, Warning};
use super::parallel::{self, Watch};
use super::params::{self, ParamOut, Source};
use super::refs::Refs;
use super::response;
use super::schema::{Converter, SchemaCache};
use super::security::{self, Scheme};
use super::select;
use super::server;
use super::text;
use super::tool_schema;
use super::{ImportOptions, ToolFigure, Version};
use crate::json::{Json, Map};
use crate::plugin::{self, HttpPlugin};
use crate::tool::Tool;
use crate::url::encode;

/// The HTTP methods of a path item (OpenAPI 3.1 section 4.8.9), as the plugin names them.
const METHODS: [(&str, &str); 7] = [
    ("get", "GET"),
    ("put", "PUT"),
    ("post", "POST"),
    ("delete", "DELETE"),
    ("options", "OPTIONS"),
    ("head", "HEAD"),
    ("patch", "PATCH"),
];

pub(crate) struct Outcome {
    pub plugin: HttpPlugin,
    pub version: Version,
    pub warnings: Vec<Warning>,
    pub tools: Vec<ToolFigure>,
    pub variables: Vec<String>,
    pub operations: usize,
}

/// One endpoint being made.
pub(super) struct Draft {
    pointer: String,
    /// How warnings name the operation ([`operation_label`]).
    label: String,
    name: String,
    method: &'static str,
    path: String,
    description: String,
    params: Vec<ParamOut>,
    body: BodyOut,
    base_url: Option<String>,
    security: Vec<String>,
    title: Option<String>,
    /// The operation's `tags` (OpenAPI 3.1 section 4.8.10.1), kept for catalogs.
    tags: Vec<String>,
    output_schema: Option<Json>,
    /// How its list continues on more pages, when recognised.
    pages: Option<super::pages::Found>,
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

pub(crate) fn run(root: &Json, options: &ImportOptions) -> Result<Outcome, Error> {
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
        None => text::valid_name(&title.to_ascii_lowercase(), "openapi"),
    };
    let base_url = server::base_url(root, version, options, &mut warnings)?;
    let schemes = security::schemes(root, version, &mut warnings);
    let resolver = options
        .resolver
        .as_deref()
        .map(|r| r as &dyn super::RefResolver);
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
    let (steps, operations) = walk(root, options, &refs);
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
    assign_names(&mut drafts, &mut warnings);
    let description = plugin_description(root, options);
    let (plugin, variables, drafts) = build(
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

/// Tools each thread measures at least: a thread costs its start, a tool a few microseconds.
const MIN_FIGURES_PER_THREAD: usize = 256;

/// One figure per tool, in the plugin's order. Measuring a tool's schema walks it whole, and
/// a large API's tool schemas (each with the `$defs` entries it reaches) are several times
/// the document: Microsoft Graph beta's took half a second on one thread, so the tools are
/// measured in contiguous runs on the import's threads and joined in order (the calling
/// thread measures the first run, and any whose thread could not be started).
fn figures(
    plugin: &HttpPlugin,
    drafts: &[Draft],
    base_url: &str,
    threads: usize,
) -> Vec<ToolFigure> {
    let tools = plugin.tools();
    let measure = |tools: &[crate::plugin::HttpTool], drafts: &[Draft]| -> Vec<ToolFigure> {
        tools
            .iter()
            .zip(drafts)
            .map(|(tool, draft)| {
                let spec = tool.spec();
                ToolFigure {
                    name: spec.name().to_string(),
                    method: draft.method.to_string(),
                    path: draft.path.clone(),
                    schema_bytes: response::compact_len(spec.parameters()),
                    description_bytes: spec.description().len(),
                    base_url: draft
                        .base_url
                        .clone()
                        .unwrap_or_else(|| base_url.to_string()),
                }
            })
            .collect()
    };
    let threads = threads.min(tools.len() / MIN_FIGURES_PER_THREAD).max(1);
    if threads == 1 {
        return measure(&tools, drafts);
    }
    let per = (tools.len() + threads - 1) / threads;
    let runs: Vec<(&[crate::plugin::HttpTool], &[Draft])> =
        tools.chunks(per).zip(drafts.chunks(per)).collect();
    let measure = &measure;
    let mut figures = Vec::with_capacity(tools.len());
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(runs.len());
        for (tools, drafts) in runs.iter().skip(1).copied() {
            let spawned =
                std::thread::Builder::new().spawn_scoped(scope, move || measure(tools, drafts));
            handles.push(spawned.map_err(|_| (tools, drafts)));
        }
        if let Some((tools, drafts)) = runs.first() {
            figures.extend(measure(tools, drafts));
        }
        for handle in handles {
            match handle {
                Ok(handle) => match handle.join() {
                    Ok(run) => figures.extend(run),
                    Err(payload) => std::panic::resume_unwind(payload),
                },
                Err((tools, drafts)) => figures.extend(measure(tools, drafts)),
            }
        }
    });
    figures
}

/// What the walk over `paths` meets, in document order: a warning, an operation to convert,
/// or the error that ends the import there. Made on the calling thread; the operations are
/// then converted in runs (see [`parallel`]), each run giving the warnings of its steps in
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
    path: &'a str,
    method: &'static str,
    item: &'a Map,
    item_doc: usize,
    item_at: String,
    op: &'a Json,
    /// The document the operation is in: the path item's, or the one its `$ref` leads to.
    op_doc: usize,
    op_at: String,
}

/// What every operation's conversion reads besides the operation.
pub(super) struct Env<'a, 'c> {
    pub root: &'a Json,
    /// The documents external `$ref`s name.
    pub documents: &'a Documents,
    pub version: Version,
    pub schemes: &'c [Scheme],
    pub options: &'c ImportOptions,
    pub doc_base: &'c str,
}

/// The path items and operations of the document as steps, and the number of operations
/// it holds (before selection). A path item that cannot be read ends the walk with its
/// error with `strict`, else a warning.
fn walk<'a>(root: &'a Json, options: &ImportOptions, refs: &Refs<'a>) -> (Vec<Step<'a>>, usize) {
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
                                operation_label(method, path, value),
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
fn operation_label(method: &str, path: &str, op: &Json) -> String {
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

/// What converting a run of steps gave.
pub(super) struct Converted {
    pub drafts: Vec<Draft>,
    /// The warnings of the steps, in order.
    pub warnings: Vec<Warning>,
    /// The error that ended the run, if one did.
    pub error: Option<Error>,
    /// Why the first operation left out was (the import's error when none is left).
    pub skipped: Option<Error>,
}

/// Converts `steps` with one converter over `refs` and `cache`. A run among others is
/// `watched`: it stops when the others no longer need it, and reports what each operation
/// wrote.
pub(super) fn convert_steps<'a>(
    steps: &[Step<'a>],
    env: &Env<'a, '_>,
    refs: &Refs<'a>,
    cache: &SchemaCache,
    watched: Option<&Watch<'_>>,
) -> Converted {
    let options = env.options;
    let mut conv = Converter::new(refs, env.version, cache);
    conv.max_depth = options
        .max_schema_depth
        .unwrap_or(super::DEFAULT_MAX_SCHEMA_DEPTH)
        .min(super::schema::MAX_IMPORT_SCHEMA_DEPTH);
    conv.max_tool_nodes = options
        .max_tool_nodes
        .unwrap_or(super::DEFAULT_MAX_TOOL_NODES);
    conv.max_total_nodes = options
        .max_total_nodes
        .unwrap_or(super::DEFAULT_MAX_TOTAL_NODES);
    conv.max_description = options
        .max_param_description_bytes
        .unwrap_or(super::DEFAULT_MAX_PARAM_DESCRIPTION_BYTES);
    let mut drafts: Vec<Draft> = Vec::new();
    let mut error = None;
    let mut skipped: Option<Error> = None;
    for step in steps {
        let op = match step {
            Step::Warn(warning) => {
                conv.warnings.push(warning.clone());
                continue;
            }
            Step::Skip(warning, e) => {
                conv.warnings.push(warning.clone());
                skipped.get_or_insert_with(|| e.clone());
                continue;
            }
            Step::Fail(e) => {
                error = Some(e.clone());
                break;
            }
            Step::Convert(op) => op,
        };
        if watched.map_or(false, Watch::stopped) {
            break;
        }
        let before = conv.total_nodes;
        conv.tool_nodes = 0;
        let context = OpContext {
            root: env.root,
            path: op.path,
            method: op.method,
            item: op.item,
            item_doc: op.item_doc,
            item_at: &op.item_at,
            op: op.op,
            op_doc: op.op_doc,
            op_at: &op.op_at,
            schemes: env.schemes,
            options,
            refs,
            doc_base: env.doc_base,
        };
        match operation(&context, &mut conv) {
            Ok(draft) => drafts.push(draft),
            Err(e) if !options.strict => {
                conv.warnings.push(Warning::new(
                    op.op_at.as_str(),
                    format!(
                        "{} not imported: {}",
                        operation_label(op.method, op.path, op.op),
                        e
                    ),
                ));
                skipped.get_or_insert(e);
            }
            Err(e) => error = Some(e),
        }
        if let Some(watch) = watched {
            watch.converted(
                conv.total_nodes - before,
                conv.budget_exceeded,
                error.is_some(),
            );
        }
        if error.is_some() {
            break;
        }
    }
    // The converter's memo of output schemas is freed here, and `parallel::convert` frees
    // the cache, before the plugin is built (the import's peak memory).
    Converted {
        drafts,
        warnings: std::mem::take(&mut conv.warnings),
        error,
        skipped,
    }
}

/// The same warning at the same place once (a cached schema met again warns again).
fn dedupe(warnings: &mut Vec<Warning>) {
    let mut seen = std::collections::HashSet::new();
    warnings.retain(|w| seen.insert((w.pointer().to_string(), w.message().to_string())));
}

fn plugin_description(root: &Json, options: &ImportOptions) -> String {
    let max = options
        .max_description_bytes
        .unwrap_or(super::DEFAULT_MAX_DESCRIPTION_BYTES);
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

/// A path item, operation, parameter, body or response, following a `$ref` into whichever
/// document it leads (chains included, bounded), and the document it is in.
pub(super) fn resolve_object<'a>(
    value: &'a Json,
    doc: usize,
    at: &str,
    refs: &Refs<'a>,
) -> Result<(&'a Json, usize), Error> {
    let mut value = value;
    let mut doc = doc;
    for _ in 0..16 {
        let reference = match value.get("$ref").and_then(Json::as_str) {
            Some(r) => r,
            None => return Ok((value, doc)),
        };
        let target = refs.resolve(reference, doc, at)?;
        value = refs.target_value(&target).ok_or_else(|| {
            Error::new(
                ErrorKind::UnresolvedRef,
                at,
                format!("$ref '{}' points to nothing", super::refs::short(reference)),
            )
        })?;
        doc = target.doc;
    }
    Err(Error::new(
        ErrorKind::UnresolvedRef,
        at,
        "a chain of more than 16 $refs",
    ))
}

struct OpContext<'a, 'c> {
    root: &'a Json,
    path: &'c str,
    method: &'static str,
    item: &'a Map,
    item_doc: usize,
    item_at: &'c str,
    op: &'a Json,
    op_doc: usize,
    op_at: &'c str,
    schemes: &'c [Scheme],
    options: &'c ImportOptions,
    refs: &'c Refs<'a>,
    doc_base: &'c str,
}

fn operation(c: &OpContext<'_, '_>, conv: &mut Converter<'_, '_>) -> Result<Draft, Error> {
    let max = c
        .options
        .max_description_bytes
        .unwrap_or(super::DEFAULT_MAX_DESCRIPTION_BYTES);
    let summary =
        c.op.get("summary")
            .and_then(Json::as_str)
            .unwrap_or("")
            .trim();
    let details =
        c.op.get("description")
            .and_then(Json::as_str)
            .unwrap_or("")
            .trim();
    let mut description = text::join_summary(summary, details);
    if c.op.get("deprecated").and_then(Json::as_bool) == Some(true) {
        description = format!("Deprecated. {}", description)
            .trim_end()
            .to_string();
    }
    let description = text::cap(&description, max);
    // Parameters: the path item's, then the operation's, which win per name and location.
    // A later parameter with the same name and location replaces the earlier one and takes
    // the last place; found through an index of (name, location) to slot, so 100,000
    // parameters stay linear.
    let mut slots: Vec<Option<Source<'_>>> = Vec::new();
    let mut slot_of: HashMap<(Option<String>, Option<String>), usize> = HashMap::new();
    let lists = [
        (
            c.item.get("parameters"),
            c.item_doc,
            child(c.item_at, "parameters"),
        ),
        (
            c.op.get("parameters"),
            c.op_doc,
            child(c.op_at, "parameters"),
        ),
    ];
    for (list, doc, at) in lists.iter() {
        for (i, p) in list
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let p_at = child(at, &i.to_string());
            let (value, vdoc) = resolve_object(p, *doc, &p_at, c.refs)?;
            let key = |v: &Json| {
                (
                    v.get("name").and_then(Json::as_str).map(str::to_string),
                    v.get("in").and_then(Json::as_str).map(str::to_string),
                )
            };
            if let Some(old) = slot_of.insert(key(value), slots.len()) {
                if let Some(slot) = slots.get_mut(old) {
                    *slot = None;
                }
            }
            slots.push(Some(Source {
                value,
                doc: vdoc,
                pointer: p_at,
            }));
        }
    }
    let sources: Vec<Source<'_>> = slots.into_iter().flatten().collect();
    let mut params: Vec<ParamOut> = Vec::new();
    let mut swagger_body: Option<(&Json, usize, String)> = None;
    let mut form: Vec<(ParamOut, bool)> = Vec::new();
    for source in &sources {
        if conv.version == Version::Swagger2 {
            match source.value.get("in").and_then(Json::as_str) {
                Some("body") => {
                    swagger_body = Some((source.value, source.doc, source.pointer.clone()));
                    continue;
                }
                Some("formData") => {
                    let file = source.value.get("type").and_then(Json::as_str) == Some("file");
                    let mut copy = source.value.clone();
                    if let Some(map) = copy.as_object_mut() {
                        map.insert("in", "query");
                    }
                    let temp = Source {
                        value: &copy,
                        doc: source.doc,
                        pointer: source.pointer.clone(),
                    };
                    if let Some(p) = params::convert(&temp, conv)? {
                        form.push((p, file));
                    }
                    continue;
                }
                _ => {}
            }
        }
        if let Some(p) = params::convert(source, conv)? {
            params.push(p);
        }
    }
    let path = path_template(c.path, &mut params, c.op_at, conv);
    let body = if conv.version == Version::Swagger2 {
        let consumes: Vec<&str> =
            c.op.get("consumes")
                .or_else(|| c.root.get("consumes"))
                .and_then(Json::as_array)
                .map(|l| l.iter().filter_map(Json::as_str).collect())
                .unwrap_or_default();
        body::swagger_body(swagger_body, &form, &consumes, c.op_at, conv)?
    } else {
        match c.op.get("requestBody") {
            Some(body) => {
                let at = child(c.op_at, "requestBody");
                let (body, doc) = resolve_object(body, c.op_doc, &at, c.refs)?;
                body::request_body(body, doc, &at, conv)?
            }
            None => BodyOut {
                params: Vec::new(),
                encoding: None,
                content_type: None,
            },
        }
    };
    let mut body = body;
    if matches!(c.method, "GET" | "HEAD" | "OPTIONS") && body.params.iter().any(|p| p.whole_body) {
        // A whole body (an array, a scalar) has no query form: the request is sent without
        // it (Ticketmaster's GET with a body parameter).
        let at = if conv.version == Version::Swagger2 {
            c.op_at.to_string()
        } else {
            child(c.op_at, "requestBody")
        };
        conv.warnings.push(Warning::new(
            at,
            format!(
                "a {} request body that is not an object cannot be sent: left out",
                c.method
            ),
        ));
        body.params.clear();
        body.encoding = None;
        body.content_type = None;
    }
    if !body.params.is_empty() && matches!(c.method, "GET" | "HEAD" | "OPTIONS") {
        conv.warnings.push(Warning::new(
            child(c.op_at, "requestBody"),
            format!("a {} request body is sent in the query string", c.method),
        ));
    }
    let output_schema = if c.options.no_output_schemas {
        None
    } else {
        response::output_schema(c.root, c.op, c.op_doc, c.op_at, c.refs, conv)
    };
    // Written straight into the converter's list: an error here (a server without a url)
    // must leave the warnings of earlier operations where they are.
    let warnings = &mut conv.warnings;
    let own = server::own_server(
        c.op.get("servers"),
        &child(c.op_at, "servers"),
        c.options,
        warnings,
    )?;
    let own = match own {
        Some(own) => Some(own),
        None => server::own_server(
            c.item.get("servers"),
            &child(c.item_at, "servers"),
            c.options,
            warnings,
        )?,
    };
    let security = security::requirement(c.op, c.root, c.schemes, c.op_at, warnings);
    let name = tool_name(c.op, c.method, c.path, c.op_at, warnings);
    let pages = super::pages::recognise(c.method, c.op, c.root, &params);
    Ok(Draft {
        pointer: c.op_at.to_string(),
        label: operation_label(c.method, c.path, c.op),
        name,
        method: c.method,
        path,
        description,
        params,
        body,
        base_url: own.filter(|url| url != c.doc_base),
        security,
        title: response::title(c.op),
        tags: operation_tags(c.op),
        output_schema,
        pages,
    })
}

/// The operation's tags that are non-empty strings, trimmed; anything else is left out (a
/// tag only helps find the operation, so a malformed one is not worth a warning).
fn operation_tags(op: &Json) -> Vec<String> {
    let list = match op.get("tags").and_then(Json::as_array) {
        Some(list) => list,
        None => return Vec::new(),
    };
    list.iter()
        .filter_map(Json::as_str)
        .map(str::trim)
        .filter(|tag| !tag.is_empty())
        .map(|tag| text::cap(tag, MAX_TAG_CHARS))
        .collect()
}

/// The longest tag kept, in characters: tags are group names, a long one is prose.
const MAX_TAG_CHARS: usize = 64;

/// The path as a plugin path template: literal parts percent-encoded where the URL needs it,
/// placeholders checked both ways against the path parameters (a missing parameter is added
/// as a required string, an unused one dropped, each with a warning).
fn path_template(
    path: &str,
    params: &mut Vec<ParamOut>,
    at: &str,
    conv: &mut Converter<'_, '_>,
) -> String {
    let mut out = String::with_capacity(path.len() + 1);
    if !path.starts_with('/') {
        out.push('/');
    }
    // Placeholders in path order, each name once, and a set of them: a path may hold
    // thousands, and checking each against every parameter (and back) was quadratic.
    let mut names: Vec<&str> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut rest = path;
    while !rest.is_empty() {
        match (rest.find('{'), rest.find('}')) {
            (Some(o), Some(cl)) if o < cl => {
                encode_literal(&mut out, &rest[..o]);
                let name = &rest[o + 1..cl];
                out.push('{');
                out.push_str(name);
                out.push('}');
                if seen.insert(name) {
                    names.push(name);
                }
                rest = &rest[cl + 1..];
            }
            _ => {
                encode_literal(&mut out, rest);
                rest = "";
            }
        }
    }
    // One warning of each kind per operation, naming every parameter: each warning holds
    // the operation's pointer, which holds the path, so one warning a placeholder would grow
    // with the square of the path's length.
    let mut unused: Vec<String> = Vec::new();
    params.retain(|p| {
        let keep = p.location != "path" || seen.contains(p.wire.as_str());
        if !keep {
            unused.push(p.wire.clone());
        }
        keep
    });
    match unused.as_slice() {
        [] => {}
        [one] => conv.warnings.push(Warning::new(
            at,
            format!(
                "path parameter '{}' has no {{{}}} in the path: not imported",
                one, one
            ),
        )),
        many => conv.warnings.push(Warning::new(
            at,
            format!(
                "path parameters '{}' have no placeholder in the path: not imported",
                many.join("', '")
            ),
        )),
    }
    let declared: HashSet<String> = params
        .iter()
        .filter(|p| p.location == "path")
        .map(|p| p.wire.clone())
        .collect();
    let missing: Vec<&str> = names
        .into_iter()
        .filter(|name| !declared.contains(*name))
        .collect();
    match missing.as_slice() {
        [] => {}
        [one] => conv.warnings.push(Warning::new(
            at,
            format!(
                "{{{}}} in the path has no parameter: imported as a required string",
                one
            ),
        )),
        many => conv.warnings.push(Warning::new(
            at,
            format!(
                "{{{}}} in the path have no parameter: imported as required strings",
                many.join("}, {")
            ),
        )),
    }
    for name in missing {
        let mut schema = Map::new();
        schema.insert("type", "string");
        let mut p = ParamOut::new(name, "path", Json::Object(schema));
        p.required = true;
        params.push(p);
    }
    out
}

/// Characters a URL path keeps as they are: RFC 3986 section 3.3 `pchar` and `/`; the rest
/// percent-encoded (a `%` already followed by two hex digits is kept).
fn encode_literal(out: &mut String, literal: &str) {
    encode::encode_str_into(out, literal, &encode::PATH);
}

/// Tool names: `operationId` made valid, else method and path; collisions get `_2`, `_3`
/// in document order, each a warning.
fn assign_names(drafts: &mut [Draft], warnings: &mut Vec<Warning>) {
    let mut taken: HashSet<String> = HashSet::new();
    // Per asked-for name, the suffix to try first: 10,000 operations sharing one
    // operationId would otherwise each try `_2`, `_3`, ... again (quadratic).
    let mut next_suffix: HashMap<String, usize> = HashMap::new();
    for draft in drafts.iter_mut() {
        let base = std::mem::take(&mut draft.name);
        let first = next_suffix.get(&base).copied().unwrap_or(2);
        let (name, next) = text::unique_from(&base, first, &|n| taken.contains(n));
        next_suffix.insert(base.clone(), next);
        if name != base {
            warnings.push(Warning::new(
                draft.pointer.as_str(),
                format!("tool name '{}' is already taken: named '{}'", base, name),
            ));
        }
        taken.insert(name.clone());
        draft.name = name;
    }
}

/// The tool name an operation asks for: its `operationId` made valid, else method and path.
fn tool_name(op: &Json, method: &str, path: &str, at: &str, warnings: &mut Vec<Warning>) -> String {
    match op.get("operationId").and_then(Json::as_str) {
        Some(id) if !id.trim().is_empty() => {
            let name = text::valid_name(id, &text::method_path_name(method, path));
            if name != id {
                warnings.push(Warning::new(
                    child(at, "operationId"),
                    format!(
                        "operationId '{}' is not a valid tool name: named '{}'",
                        super::refs::short(id),
                        name
                    ),
                ));
            }
            name
        }
        _ => text::method_path_name(method, path),
    }
}

/// Model-facing parameter names made unique per endpoint: the first keeps the name, a later
/// one is `{name}_{location}`, then `_2`, `_3` (wire names untouched).
fn unique_params(params: &mut [ParamOut]) {
    // A set: an operation may have 100,000 parameters.
    let mut taken: HashSet<String> = HashSet::with_capacity(params.len());
    for p in params.iter_mut() {
        if taken.contains(&p.name) {
            let with_location = text::fit(
                &format!("{}_{}", p.name, p.location),
                &p.wire,
                crate::tool::MAX_NAME_LEN,
            );
            p.name = text::unique(&with_location, &|n| taken.contains(n));
        }
        taken.insert(p.name.clone());
    }
}

#[allow(clippy::too_many_arguments)]
fn build(
    name: &str,
    description: &str,
    base_url: &str,
    mut drafts: Vec<Draft>,
    schemes: &[Scheme],
    options: &ImportOptions,
    warnings: &mut Vec<Warning>,
) -> Result<(HttpPlugin, Vec<String>, Vec<Draft>), Error> {
    // One scheme for every endpoint: the plugin's `auth`; otherwise secret parameters.
    let first = drafts
        .first()
        .map(|d| d.security.clone())
        .unwrap_or_default();
    // A credential is named by the host it goes to: shared only when every endpoint goes
    // to the plugin's base URL.
    let shared = first.len() == 1
        && drafts
            .iter()
            .all(|d| d.security == first && d.base_url.is_none())
        && schemes
            .iter()
            .find(|s| s.name == first[0])
            .map_or(false, Scheme::has_auth);
    let mut variables: Vec<String> = Vec::new();
    let add_vars = |vars: Vec<String>, variables: &mut Vec<String>| {
        for v in vars {
            if !variables.contains(&v) {
                variables.push(v);
            }
        }
    };
    let mut root = Map::new();
    root.insert("name", name);
    if !description.is_empty() {
        root.insert("description", description);
    }
    root.insert("base_url", base_url);
    let mut shared_place = None;
    if shared {
        if let Some(scheme) = schemes.iter().find(|s| s.name == first[0]) {
            let scheme = scheme.for_host(base_url);
            root.insert("auth", scheme.auth());
            add_vars(scheme.variables(), &mut variables);
            shared_place = Some(scheme.place());
        }
    }
    let mut endpoints: Vec<Json> = Vec::with_capacity(drafts.len());
    // Shared and recursive components, once for the plugin.
    let mut defs = tool_schema::Hoisted::default();
    for draft in drafts.iter_mut() {
        let mut all: Vec<ParamOut> = std::mem::take(&mut draft.params);
        crate::sort::by_key(&mut all, |p| u64::from(location_rank(p.location)));
        all.append(&mut draft.body.params);
        unique_params(&mut all);
        // The credentials this endpoint sends, and where: a document parameter in the same
        // place is the credential's slot, left out (the plugin fills it).
        let host = draft.base_url.as_deref().unwrap_or(base_url);
        let own: Vec<Scheme> = if shared {
            Vec::new()
        } else {
            draft
                .security
                .iter()
                .filter_map(|n| schemes.iter().find(|s| &s.name == n))
                .map(|s| s.for_host(host))
                .collect()
        };
        let places: Vec<(&'static str, String)> = own
            .iter()
            .map(Scheme::place)
            .chain(shared_place.clone())
            .collect();
        if !places.is_empty() {
            let mut dropped: Vec<String> = Vec::new();
            all.retain(|p| {
                let key = if p.location == "header" {
                    p.wire.to_ascii_lowercase()
                } else {
                    p.wire.clone()
                };
                let taken = places.iter().any(|(l, n)| *l == p.location && *n == key);
                if taken {
                    dropped.push(format!("{} '{}'", p.location, p.wire));
                }
                !taken
            });
            if !dropped.is_empty() {
                warnings.push(Warning::new(
                    draft.pointer.as_str(),
                    format!(
                        "{} is where the security scheme's credential goes: filled from its variable, not a parameter",
                        super::refs::short(&dropped.join(", "))
                    ),
                ));
            }
        }
        for p in all.iter_mut() {
            tool_schema::hoist(&mut p.schema, &mut defs);
        }
        let mut list: Vec<Json> = all.iter_mut().map(ParamOut::take_json).collect();
        for scheme in &own {
            let base = text::valid_name(&format!("auth_{}", scheme.name), "auth");
            let pname = text::unique(&base, &|n| all.iter().any(|p| p.name == n));
            list.push(scheme.param(&pname));
            add_vars(scheme.param_variables(), &mut variables);
        }
        draft.params = all;
        // Name, title and description move into the file (the figures and warnings after
        // this read the pointer, method and path): copied, they were the import's largest
        // strings twice over at its peak.
        let has_body = draft
            .params
            .iter()
            .any(|p| matches!(p.location, "body" | "form"));
        let delete_body = draft.method == "DELETE" && has_body;
        // Room for every key at once, as for the parameters (`ParamOut::take_json`).
        let optional = [
            draft.title.is_some(),
            !draft.tags.is_empty(),
            !draft.description.is_empty(),
            draft.base_url.is_some(),
            draft.body.encoding.is_some(),
            draft.body.content_type.is_some(),
            delete_body,
            draft.output_schema.is_some(),
        ];
        let mut e = Map::with_capacity(4 + optional.iter().filter(|k| **k).count());
        e.insert("name", std::mem::take(&mut draft.name));
        if let Some(title) = draft.title.take() {
            e.insert("title", title);
        }
        if !draft.tags.is_empty() {
            e.insert("tags", std::mem::take(&mut draft.tags));
        }
        if !draft.description.is_empty() {
            e.insert("description", std::mem::take(&mut draft.description));
        }
        e.insert("method", draft.method);
        e.insert("path", draft.path.as_str());
        if let Some(url) = &draft.base_url {
            e.insert("base_url", url.as_str());
        }
        if let Some(encoding) = draft.body.encoding {
            e.insert("body_encoding", encoding);
        }
        if let Some(ct) = &draft.body.content_type {
            e.insert("content_type", ct.as_str());
        }
        if delete_body {
            e.insert("allow_delete_body", true);
        }
        e.insert("params", list);
        if let Some(schema) = draft.output_schema.take() {
            e.insert("output_schema", schema);
        }
        if let Some(pages) = draft.pages.as_ref().and_then(|f| f.to_json(&draft.params)) {
            e.insert("pagination", pages);
        }
        endpoints.push(Json::Object(e));
    }
    let lookup = |var: &str| -> Option<String> {
        Some(
            options
                .variables
                .iter()
                .rev()
                .find(|(n, _)| n == var)
                .map(|(_, v)| v.clone())
                .unwrap_or_default(),
        )
    };
    // The plugin checks each endpoint; one it refuses is left out with its message, never
    // silently, and the rest imported (with `strict`, the first refusal ends the import).
    root.insert("endpoints", Json::Array(endpoints));
    let defs = defs.into_map();
    if !defs.is_empty() {
        root.insert("$defs", defs);
    }
    let file = Json::Object(root);
    let threads = options.thread_count();
    if options.strict {
        return match plugin::load_value(&file, &lookup, "variable", threads) {
            Ok(plugin) => Ok((plugin, variables, drafts)),
            Err(e) => {
                let at = refused_index(e.path())
                    .and_then(|i| drafts.get(i))
                    .map(|d| d.pointer.clone())
                    .unwrap_or_default();
                Err(Error::new(
                    ErrorKind::Plugin,
                    at,
                    format!("the plugin refused the import: {}", e),
                ))
            }
        };
    }
    let (plugin, refused) = match plugin::load_value_skipping(&file, &lookup, "variable", threads) {
        Ok(done) => done,
        Err(e) => {
            let at = refused_index(e.path())
                .and_then(|i| drafts.get(i))
                .map(|d| d.pointer.clone())
                .unwrap_or_default();
            let message = if refused_index(e.path()).is_some() {
                format!("the plugin refused every operation; the first: {}", e)
            } else {
                format!("the plugin refused the import: {}", e)
            };
            return Err(Error::new(ErrorKind::Plugin, at, message));
        }
    };
    if refused.is_empty() {
        return Ok((plugin, variables, drafts));
    }
    let mut gone = vec![false; drafts.len()];
    for (i, error) in &refused {
        if let Some(draft) = drafts.get(*i) {
            warnings.push(Warning::new(
                draft.pointer.as_str(),
                format!(
                    "{} not imported: the plugin refused it: {}",
                    draft.label,
                    error.message()
                ),
            ));
        }
        if let Some(slot) = gone.get_mut(*i) {
            *slot = true;
        }
    }
    let mut index = 0;
    drafts.retain(|_| {
        let keep = !gone.get(index).copied().unwrap_or(false);
        index += 1;
        keep
    });
    Ok((plugin, variables, drafts))
}

/// `endpoints[3]...` of a plugin error path: 3.
fn refused_index(path: &str) -> Option<usize> {
    let rest = path.strip_prefix("endpoints[")?;
    let end = rest.find(']')?;
    rest[..end].parse().ok()
}

fn location_rank(location: &str) -> u8 {
    match location {
        "path" => 0,
        "query" => 1,
        "header" => 2,
        "cookie" => 3,
        _ => 4,
    }
}
