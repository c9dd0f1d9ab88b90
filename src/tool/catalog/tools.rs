//! The catalog's three tools, sharing one index of the wrapped registry.

use std::sync::Arc;

use super::rank::{Fields, Index};
use super::search::{summary, SearchHit, DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT};
use crate::json::{Json, Map};
use crate::tool::error::ErrorKind;
use crate::tool::suggest::{closest, quote, unknown_name_message};
use crate::tool::{
    CallContext, Tool, ToolAnnotations, ToolCall, ToolOutput, ToolRegistry, ToolSpec,
};

/// The name of the catalog's search tool.
pub const SEARCH_OPERATIONS: &str = "search_operations";
/// The name of the catalog's tool that shows one operation's argument schema.
pub const DESCRIBE_OPERATION: &str = "describe_operation";
/// The name of the catalog's tool that calls one operation.
pub const CALL_OPERATION: &str = "call_operation";

/// The wrapped registry, its index, and what search results show.
pub(crate) struct Shared {
    pub registry: ToolRegistry,
    index: Index,
    summaries: Vec<String>,
    about: Option<String>,
}

impl Shared {
    pub fn new(registry: ToolRegistry, about: Option<String>) -> Shared {
        let summaries: Vec<String> = registry.iter_specs().map(summary).collect();
        let index = Index::new(registry.tools().zip(&summaries).map(|(tool, summary)| {
            let spec = tool.spec();
            let operation = tool.operation();
            let params = spec
                .parameters()
                .get("properties")
                .and_then(Json::as_object)
                .map(|properties| properties.keys().map(String::as_str).collect())
                .unwrap_or_default();
            Fields {
                name: spec.name(),
                summary: summary.as_str(),
                tags: operation.map_or(&[], |op| op.tags),
                path: operation.map_or("", |op| op.path),
                description: spec.description(),
                params,
            }
        }));
        Shared {
            registry,
            index,
            summaries,
            about,
        }
    }

    pub fn search(&self, query: &str, limit: usize) -> Vec<SearchHit> {
        let ranked = self.index.search(query, limit);
        let mut hits = Vec::with_capacity(ranked.len());
        for (position, score) in ranked {
            if let Some(hit) = self.hit(position, score) {
                hits.push(hit);
            }
        }
        hits
    }

    fn hit(&self, position: usize, score: f64) -> Option<SearchHit> {
        let tool = self.registry.tools().nth(position)?;
        let operation = tool.operation();
        Some(SearchHit {
            name: tool.spec().name().to_string(),
            method: operation.map(|op| op.method.to_string()),
            path: operation.map(|op| op.path.to_string()),
            summary: self.summaries.get(position).cloned().unwrap_or_default(),
            score,
        })
    }
}

/// The three tools over `shared`, with the wrapped registry's limits.
pub(crate) fn registry(shared: &Arc<Shared>) -> ToolRegistry {
    let (max_arguments, max_output) = shared.registry.limits();
    let mut registry = ToolRegistry::new()
        .max_argument_bytes(max_arguments)
        .max_output_bytes(max_output);
    let tools: Vec<Arc<dyn Tool>> = vec![
        Arc::new(Search::new(shared.clone())),
        Arc::new(Describe::new(shared.clone())),
        Arc::new(Call::new(shared.clone())),
    ];
    // Three fixed, distinct names: adding them to an empty registry cannot fail.
    let _ = registry.add_all(tools);
    registry
}

/// Read-only, closed-world hints: searching and describing change nothing and reach nothing.
fn local_hints() -> ToolAnnotations {
    ToolAnnotations {
        read_only: Some(true),
        destructive: Some(false),
        idempotent: Some(true),
        open_world: Some(false),
    }
}

fn spec(name: &str, description: String, parameters: Json, hints: ToolAnnotations) -> ToolSpec {
    // The schemas below are fixed and valid; `ToolSpec::new` only fails on a bad schema.
    match ToolSpec::new(name, description, parameters) {
        Ok(spec) => spec.with_annotations(hints),
        Err(_) => unreachable_spec(name),
    }
}

#[cold]
fn unreachable_spec(name: &str) -> ToolSpec {
    match ToolSpec::without_parameters(name, "") {
        Ok(spec) => spec,
        Err(_) => unreachable_spec("catalog"),
    }
}

struct Search {
    spec: ToolSpec,
    shared: Arc<Shared>,
}

impl Search {
    fn new(shared: Arc<Shared>) -> Search {
        let about = shared
            .about
            .as_deref()
            .map_or(String::new(), |about| format!(" of {}", about.trim()));
        let description = format!(
            "Finds operations{} ({} in all) by what you want to do, in words. Returns the best matches, each with its name, method, path and summary. Then call describe_operation for an operation's arguments, and call_operation to run it.",
            about,
            shared.registry.len()
        );
        let parameters = crate::json!({
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "What you want to do, such as \"list the open issues of a repository\""
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_SEARCH_LIMIT,
                    "description": format!("How many operations to return (default {})", DEFAULT_SEARCH_LIMIT)
                }
            },
            "required": ["query"],
            "additionalProperties": false
        });
        Search {
            spec: spec(SEARCH_OPERATIONS, description, parameters, local_hints()),
            shared,
        }
    }
}

impl Tool for Search {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call(&self, mut arguments: Map, _context: &CallContext) -> ToolOutput {
        let query = match required_string(&mut arguments, &["query", "limit"], "query") {
            Ok(query) => query,
            Err(out) => return out,
        };
        let limit = match limit_argument(arguments.get("limit")) {
            Ok(limit) => limit,
            Err(out) => return out,
        };
        let hits = if super::rank::words(&query).is_empty() {
            // Nothing to rank by: the first operations, so an empty query still shows some.
            (0..limit.min(self.shared.registry.len()))
                .filter_map(|position| self.shared.hit(position, 0.0))
                .collect()
        } else {
            self.shared.search(&query, limit)
        };
        let mut result = Map::with_capacity(2);
        result.insert(
            "operations",
            Json::Array(hits.iter().map(SearchHit::to_json).collect()),
        );
        result.insert("total_operations", self.shared.registry.len());
        ToolOutput::json(Json::Object(result))
    }
}

struct Describe {
    spec: ToolSpec,
    shared: Arc<Shared>,
}

impl Describe {
    fn new(shared: Arc<Shared>) -> Describe {
        let parameters = crate::json!({
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "description": "The operation's name, as search_operations returned it"
                }
            },
            "required": ["name"],
            "additionalProperties": false
        });
        let description = String::from(
            "Describes one operation: what it does and the JSON Schema of its arguments, to pass to call_operation.",
        );
        Describe {
            spec: spec(DESCRIBE_OPERATION, description, parameters, local_hints()),
            shared,
        }
    }
}

impl Tool for Describe {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call(&self, mut arguments: Map, _context: &CallContext) -> ToolOutput {
        let tool = match operation(&self.shared.registry, &mut arguments, &["name"]) {
            Ok((_, tool)) => tool,
            Err(out) => return out,
        };
        let spec = tool.spec();
        let mut map = Map::with_capacity(7);
        map.insert("name", spec.name());
        if let Some(title) = spec.title() {
            map.insert("title", title);
        }
        if !spec.description().is_empty() {
            map.insert("description", spec.description());
        }
        if let Some(op) = tool.operation() {
            map.insert("method", op.method);
            map.insert("path", op.path);
            if !op.tags.is_empty() {
                map.insert("tags", op.tags.to_vec());
            }
        }
        map.insert("parameters", spec.parameters().clone());
        ToolOutput::json(Json::Object(map))
    }
}

struct Call {
    spec: ToolSpec,
    shared: Arc<Shared>,
}

impl Call {
    fn new(shared: Arc<Shared>) -> Call {
        let parameters = crate::json!({
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "description": "The operation's name, as search_operations returned it"
                },
                "arguments": {
                    "type": "object",
                    "description": "The operation's arguments, as describe_operation's schema says"
                }
            },
            "required": ["name"],
            "additionalProperties": false
        });
        let description = String::from(
            "Calls one operation with its arguments and returns its result. Find the operation with search_operations and its arguments with describe_operation first.",
        );
        // Read-only only when every operation is; otherwise the client assumes the worst.
        let all_read_only = shared
            .registry
            .iter_specs()
            .all(|spec| spec.annotations().read_only == Some(true));
        let hints = ToolAnnotations {
            read_only: if all_read_only { Some(true) } else { None },
            ..ToolAnnotations::default()
        };
        Call {
            spec: spec(CALL_OPERATION, description, parameters, hints),
            shared,
        }
    }
}

impl Tool for Call {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call(&self, mut arguments: Map, context: &CallContext) -> ToolOutput {
        let (name, tool) = match operation(
            &self.shared.registry,
            &mut arguments,
            &["name", "arguments"],
        ) {
            Ok((name, tool)) => (name, tool.clone()),
            Err(out) => return out,
        };
        // The operation's arguments go through the wrapped registry as the model's own call
        // would: an object as parsed, a string (arguments encoded as JSON text) read by the
        // registry's rules, nothing as `{}`.
        let call = match arguments.remove("arguments") {
            None => ToolCall::with_object("", name.as_str(), Map::new()),
            Some(value) if value.is_null() => ToolCall::with_object("", name.as_str(), Map::new()),
            Some(value) if value.is_object() => {
                ToolCall::with_object("", name.as_str(), value.into_object().unwrap_or_default())
            }
            Some(value) if value.is_string() => {
                ToolCall::new("", name.as_str(), value.into_string().unwrap_or_default())
            }
            Some(other) => {
                let out = ToolOutput::error(
                    ErrorKind::InvalidArguments,
                    format!(
                        "'arguments' must be a JSON object, got {}",
                        other.type_name()
                    ),
                );
                return with_schema(out, tool.spec());
            }
        };
        let output = self.shared.registry.call_owned(call, context);
        match output.error_kind() {
            Some(
                ErrorKind::InvalidArguments
                | ErrorKind::UnknownParameter
                | ErrorKind::MissingParameter
                | ErrorKind::InvalidParameter,
            ) => with_schema(output, tool.spec()),
            _ => output,
        }
    }
}

/// An argument error with the operation's schema after it, so the model can correct the
/// call in one step. Kind, status and structured result are kept.
fn with_schema(output: ToolOutput, spec: &ToolSpec) -> ToolOutput {
    let kind = output.error_kind().unwrap_or(ErrorKind::InvalidArguments);
    let status = output.status();
    let structured = output.structured().cloned();
    let text = format!(
        "{}\n\nThe arguments of {} follow this JSON Schema; call again with arguments that match it:\n{}",
        output.text(),
        quote(spec.name()),
        spec.parameters()
    );
    let mut out = ToolOutput::error(kind, text);
    if let Some(status) = status {
        out = out.with_status(status);
    }
    if let Some(value) = structured {
        out = out.with_structured(value);
    }
    out
}

fn unknown_operation(registry: &ToolRegistry, name: &str) -> ToolOutput {
    let message = match closest(name, registry.names()) {
        Some(near) => format!(
            "unknown operation {}; did you mean {}? find operations with search_operations",
            quote(name),
            quote(near)
        ),
        None => format!(
            "unknown operation {}; find operations with search_operations",
            quote(name)
        ),
    };
    ToolOutput::error(ErrorKind::UnknownTool, message)
}

/// The preamble of every catalog tool: refuses an argument it does not take (`accepted`),
/// then takes its one required string argument, `key`.
fn required_string(
    arguments: &mut Map,
    accepted: &[&str],
    key: &str,
) -> Result<String, ToolOutput> {
    only(arguments, accepted)?;
    string_argument(arguments, key)
}

/// The operation the `name` argument names (after [`required_string`]'s checks), with that
/// name; an unknown one is an error suggesting the closest.
fn operation<'r>(
    registry: &'r ToolRegistry,
    arguments: &mut Map,
    accepted: &[&str],
) -> Result<(String, &'r Arc<dyn Tool>), ToolOutput> {
    let name = required_string(arguments, accepted, "name")?;
    match registry.get(&name) {
        Some(tool) => Ok((name, tool)),
        None => Err(unknown_operation(registry, &name)),
    }
}

/// Refuses an argument the tool does not take, naming those it does.
fn only(arguments: &Map, accepted: &[&str]) -> Result<(), ToolOutput> {
    match arguments
        .keys()
        .find(|key| !accepted.contains(&key.as_str()))
    {
        Some(unknown) => Err(ToolOutput::error(
            ErrorKind::UnknownParameter,
            unknown_name_message("parameter", unknown, accepted.iter().copied()),
        )),
        None => Ok(()),
    }
}

fn string_argument(arguments: &mut Map, key: &str) -> Result<String, ToolOutput> {
    match arguments.remove(key) {
        Some(value) if value.is_string() => Ok(value.into_string().unwrap_or_default()),
        None | Some(Json::Null) => Err(ToolOutput::error(
            ErrorKind::MissingParameter,
            format!("missing parameter {}; it is required", quote(key)),
        )),
        Some(other) => Err(ToolOutput::error(
            ErrorKind::InvalidParameter,
            format!(
                "parameter {} must be a string, got {}",
                quote(key),
                other.type_name()
            ),
        )),
    }
}

/// `limit`: a whole number from 1, as a number or a numeric string
/// ([coercion](crate::design::endpoints#coercion)); above
/// [`MAX_SEARCH_LIMIT`] it is that.
fn limit_argument(value: Option<&Json>) -> Result<usize, ToolOutput> {
    let number = match value {
        None | Some(Json::Null) => return Ok(DEFAULT_SEARCH_LIMIT),
        Some(Json::String(text)) => text.trim().parse::<u64>().ok(),
        Some(other) => other.as_u64(),
    };
    match number {
        Some(n) if n >= 1 => Ok((n.min(MAX_SEARCH_LIMIT as u64)) as usize),
        _ => Err(ToolOutput::error(
            ErrorKind::InvalidParameter,
            format!(
                "parameter 'limit' must be a whole number from 1 to {}",
                MAX_SEARCH_LIMIT
            ),
        )),
    }
}
