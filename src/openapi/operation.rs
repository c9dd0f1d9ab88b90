//! One operation into a [`Draft`] of its endpoint: description, parameters (the path
//! item's and the operation's merged), path template, request body, output schema, own
//! server, security and tool name, each a step of its own, in the order their warnings
//! are given.

use std::collections::HashMap;

use super::body::{self, BodyOut};
use super::documents::Documents;
use super::error::{child, Error, Warning};
use super::options::{ImportOptions, Version};
use super::pages::{self, Found};
use super::params::{self, ParamOut, Source};
use super::path;
use super::refs::{resolve_object, Refs};
use super::response;
use super::schema::Converter;
use super::security::{self, Scheme};
use super::server;
use super::text;
use super::walk::{operation_label, Operation};
use crate::http::Method;
use crate::json::Json;
use crate::plugin::naming;

/// One endpoint being made.
pub(super) struct Draft {
    pub pointer: String,
    /// How warnings name the operation ([`operation_label`]).
    pub label: String,
    pub name: String,
    pub method: Method,
    pub path: String,
    pub description: String,
    pub params: Vec<ParamOut>,
    pub body: BodyOut,
    pub base_url: Option<String>,
    pub security: Vec<String>,
    pub title: Option<String>,
    /// The operation's `tags` (OpenAPI 3.1 section 4.8.10.1), kept for catalogs.
    pub tags: Vec<String>,
    pub output_schema: Option<Json>,
    /// How its list continues on more pages, when recognised.
    pub pages: Option<Found>,
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

/// The operation `op` converted with `conv`.
///
/// # Errors
///
/// What makes the operation impossible to import: an unresolved `$ref`, a schema over
/// budget, a server without a URL.
pub(super) fn convert<'a>(
    op: &Operation<'a>,
    env: &Env<'a, '_>,
    refs: &Refs<'a>,
    conv: &mut Converter<'_, '_>,
) -> Result<Draft, Error> {
    let description = description(op.op, env.options);
    let sources = merged_parameters(op, refs)?;
    let Parameters {
        mut params,
        swagger_body,
        form,
    } = parameters(&sources, conv)?;
    let path = path::template(op.path, &mut params, &op.op_at, conv);
    let body = request_body(op, env, refs, swagger_body, &form, conv)?;
    let body = body_for_method(op, body, conv);
    let output_schema = if env.options.no_output_schemas {
        None
    } else {
        response::output_schema(env.root, op.op, op.op_doc, &op.op_at, refs, conv)
    };
    // Written straight into the converter's list: an error here (a server without a url)
    // must leave the warnings of earlier operations where they are.
    let warnings = &mut conv.warnings;
    let own = own_server(op, env.options, warnings)?;
    let security = security::requirement(op.op, env.root, env.schemes, &op.op_at, warnings);
    let name = tool_name(op.op, op.method.as_str(), op.path, &op.op_at, warnings);
    let pages = pages::recognise(op.method.as_str(), op.op, env.root, &params);
    Ok(Draft {
        pointer: op.op_at.clone(),
        label: operation_label(op.method.as_str(), op.path, op.op),
        name,
        method: op.method,
        path,
        description,
        params,
        body,
        base_url: own.filter(|url| url != env.doc_base),
        security,
        title: response::title(op.op),
        tags: operation_tags(op.op),
        output_schema,
        pages,
    })
}

/// The tool description: the summary as a sentence and the description, `Deprecated.`
/// first when it is, capped.
fn description(op: &Json, options: &ImportOptions) -> String {
    let max = options
        .max_description_bytes
        .unwrap_or(super::options::DEFAULT_MAX_DESCRIPTION_BYTES);
    let summary = op
        .get("summary")
        .and_then(Json::as_str)
        .unwrap_or("")
        .trim();
    let details = op
        .get("description")
        .and_then(Json::as_str)
        .unwrap_or("")
        .trim();
    let mut description = text::join_summary(summary, details);
    if op.get("deprecated").and_then(Json::as_bool) == Some(true) {
        description = format!("Deprecated. {}", description)
            .trim_end()
            .to_string();
    }
    text::cap(&description, max)
}

/// The parameter objects of the operation, resolved: the path item's, then the
/// operation's, which win per name and location. A later parameter with the same name and
/// location replaces the earlier one and takes the last place; found through an index of
/// (name, location) to slot, so 100,000 parameters stay linear.
fn merged_parameters<'a>(op: &Operation<'a>, refs: &Refs<'a>) -> Result<Vec<Source<'a>>, Error> {
    let mut slots: Vec<Option<Source<'a>>> = Vec::new();
    let mut slot_of: HashMap<(Option<String>, Option<String>), usize> = HashMap::new();
    let lists = [
        (
            op.item.get("parameters"),
            op.item_doc,
            child(&op.item_at, "parameters"),
        ),
        (
            op.op.get("parameters"),
            op.op_doc,
            child(&op.op_at, "parameters"),
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
            let (value, vdoc) = resolve_object(p, *doc, &p_at, refs)?;
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
    Ok(slots.into_iter().flatten().collect())
}

/// The operation's parameters converted: those that are parameters of the plugin, and
/// Swagger 2.0's body and form parameters, which make the request body.
struct Parameters<'a> {
    params: Vec<ParamOut>,
    /// Swagger 2.0's `in: body` parameter: its object, document and pointer.
    swagger_body: Option<(&'a Json, usize, String)>,
    /// Swagger 2.0's `in: formData` parameters, each with whether it is a file.
    form: Vec<(ParamOut, bool)>,
}

fn parameters<'a>(
    sources: &[Source<'a>],
    conv: &mut Converter<'_, '_>,
) -> Result<Parameters<'a>, Error> {
    let mut out = Parameters {
        params: Vec::new(),
        swagger_body: None,
        form: Vec::new(),
    };
    for source in sources {
        if conv.version == Version::Swagger2 {
            match source.value.get("in").and_then(Json::as_str) {
                Some("body") => {
                    out.swagger_body = Some((source.value, source.doc, source.pointer.clone()));
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
                        out.form.push((p, file));
                    }
                    continue;
                }
                _ => {}
            }
        }
        if let Some(p) = params::convert(source, conv)? {
            out.params.push(p);
        }
    }
    Ok(out)
}

/// The request body: OpenAPI 3's `requestBody`, or Swagger 2.0's body or form parameters
/// with `consumes`.
fn request_body<'a>(
    op: &Operation<'a>,
    env: &Env<'a, '_>,
    refs: &Refs<'a>,
    swagger_body: Option<(&Json, usize, String)>,
    form: &[(ParamOut, bool)],
    conv: &mut Converter<'_, '_>,
) -> Result<BodyOut, Error> {
    if conv.version == Version::Swagger2 {
        let consumes: Vec<&str> = op
            .op
            .get("consumes")
            .or_else(|| env.root.get("consumes"))
            .and_then(Json::as_array)
            .map(|l| l.iter().filter_map(Json::as_str).collect())
            .unwrap_or_default();
        return body::swagger_body(swagger_body, form, &consumes, &op.op_at, conv);
    }
    match op.op.get("requestBody") {
        Some(body) => {
            let at = child(&op.op_at, "requestBody");
            let (body, doc) = resolve_object(body, op.op_doc, &at, refs)?;
            body::request_body(body, doc, &at, conv)
        }
        None => Ok(BodyOut {
            params: Vec::new(),
            encoding: None,
            content_type: None,
        }),
    }
}

/// The body as the method can send it: on GET, HEAD and OPTIONS a whole body (an array, a
/// scalar) has no query form and is left out (Ticketmaster's GET with a body parameter),
/// and body properties go to the query string; each a warning.
fn body_for_method(op: &Operation<'_>, mut body: BodyOut, conv: &mut Converter<'_, '_>) -> BodyOut {
    if !matches!(op.method, Method::Get | Method::Head | Method::Options) {
        return body;
    }
    let method = op.method.as_str();
    if body.params.iter().any(|p| p.whole_body) {
        let at = if conv.version == Version::Swagger2 {
            op.op_at.clone()
        } else {
            child(&op.op_at, "requestBody")
        };
        conv.warnings.push(Warning::new(
            at,
            format!(
                "a {} request body that is not an object cannot be sent: left out",
                method
            ),
        ));
        body.params.clear();
        body.encoding = None;
        body.content_type = None;
    }
    if !body.params.is_empty() {
        conv.warnings.push(Warning::new(
            child(&op.op_at, "requestBody"),
            format!("a {} request body is sent in the query string", method),
        ));
    }
    body
}

/// The operation's own server: its `servers`, else its path item's.
fn own_server(
    op: &Operation<'_>,
    options: &ImportOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Option<String>, Error> {
    let own = server::own_server(
        op.op.get("servers"),
        &child(&op.op_at, "servers"),
        options,
        warnings,
    )?;
    match own {
        Some(own) => Ok(Some(own)),
        None => server::own_server(
            op.item.get("servers"),
            &child(&op.item_at, "servers"),
            options,
            warnings,
        ),
    }
}

/// The tool name an operation asks for: its `operationId` made valid, else method and path.
fn tool_name(op: &Json, method: &str, path: &str, at: &str, warnings: &mut Vec<Warning>) -> String {
    match op.get("operationId").and_then(Json::as_str) {
        Some(id) if !id.trim().is_empty() => {
            let name = naming::valid_name(id, &text::method_path_name(method, path));
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
