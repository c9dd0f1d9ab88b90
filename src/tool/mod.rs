//! Tools: specs, calls, outputs, the [`Tool`] trait, the [`ToolRegistry`] and the provider
//! formats.
//!
//! A tool is anything a model can call: a plain Rust function, or (in the plugin layer) an
//! HTTP endpoint. The registry is where an agent keeps its tools and dispatches the model's
//! calls; it never panics and always hands back an output the model can read.
//!
//! | item | what it is |
//! | --- | --- |
//! | [`ToolSpec`], [`ToolAnnotations`] | name, title, description, JSON Schema of the arguments, behaviour hints, output schema |
//! | [`ToolCall`] | a call the model asked for: id, tool name, arguments |
//! | [`ToolOutput`] | text for the model, an error kind, structured JSON, HTTP status |
//! | [`CallContext`], [`Progress`] | per-call values from the host that the model never sees; a progress listener |
//! | [`Tool`], [`FnTool`] | the trait, and closures as tools |
//! | [`ToolRegistry`] | the table of tools and the dispatcher |
//! | [`Catalog`], [`CatalogLimits`], [`Operation`] | a registry offered as three tools: search, describe, call |
//! | [`openai`], [`anthropic`], [`gemini`], [`mcp`] | each provider's tool, call and result shapes |
//! | [`compact_spec`], [`compact_schema`], [`trim_description`], [`ToolSize`] | compact schemas for a model's context, and what a tool costs in it |
//! | [`factor_repeated`], [`inline_refs`] | subschemas repeated within a tool written once under `$defs`, and back in place |
//! | [`validate_name`], [`closest`], [`unknown_name_message`], [`cap_text`], [`cap_json`], [`parse_arguments`] | rules shared with the plugin layer |
//!
//! # Examples
//!
//! One tool, a model's call in OpenAI's shape, and the answer in the same shape:
//!
//! ```
//! use httptool::json;
//! use httptool::json::Map;
//! use httptool::tool::{openai, CallContext, ToolRegistry, ToolSpec};
//!
//! let mut registry = ToolRegistry::new();
//! let spec = ToolSpec::new(
//!     "get_weather",
//!     "Current weather for a city",
//!     json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
//! )?;
//! registry.add_fn(spec, |args: Map, _: &CallContext| {
//!     format!("sunny in {}", args.get("city").and_then(|c| c.as_str()).unwrap_or("?"))
//! })?;
//!
//! // The `tools` array of the request.
//! let tools: Vec<json::Json> = registry.iter_specs().map(openai::chat_tool).collect();
//! assert_eq!(tools.len(), 1);
//!
//! // The model answers with a call; run it and write the tool message back.
//! let response = json::parse(r#"{"choices": [{"message": {"role": "assistant",
//!     "tool_calls": [{"id": "call_1", "type": "function",
//!         "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]}"#)?;
//! for call in openai::chat_calls(&response)? {
//!     let output = registry.call(&call);
//!     let message = openai::chat_result(&call, &output);
//!     assert_eq!(message["content"], json!("sunny in Paris"));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod approval;
mod attachment;
mod call;
mod catalog;
mod compact;
mod context;
mod defs;
mod error;
mod output;
pub(crate) mod plain;
mod provider;
mod registry;
mod single_use;
pub(crate) mod small_set;
mod spec;
mod suggest;
mod truncate;

pub use approval::{Approval, ApprovalRequest, Approver, Confirm};
pub use attachment::{Attachment, AttachmentKind};
pub use call::{parse_arguments, Arguments, ToolCall, DEFAULT_MAX_ARGUMENT_BYTES};
pub use catalog::{
    Catalog, CatalogLimits, SearchHit, CALL_OPERATION, DEFAULT_CATALOG_MAX_SCHEMA_BYTES,
    DEFAULT_CATALOG_MAX_TOOLS, DEFAULT_SEARCH_LIMIT, DESCRIBE_OPERATION, MAX_SEARCH_LIMIT,
    SEARCH_OPERATIONS,
};
pub use compact::{
    compact_schema, compact_spec, trim_description, ToolSize, DEFAULT_MAX_DESCRIPTION_BYTES,
};
pub(crate) use compact::{compact_spec_with, Memo as CompactMemo};
pub use context::{CallContext, Progress};
pub use defs::{factor_repeated, inline_refs, MIN_DEF_BYTES};
pub use error::{Error, ErrorKind};
pub use output::{cap_text, ToolOutput, DEFAULT_MAX_OUTPUT_BYTES};
pub use provider::{anthropic, gemini, mcp, openai};
pub use registry::{FnTool, Operation, Tool, ToolRegistry};
pub(crate) use spec::Depths;
pub use spec::{validate_name, ToolAnnotations, ToolSpec, MAX_NAME_LEN};
pub(crate) use suggest::quote;
pub use suggest::{closest, unknown_name_message, MAX_LISTED_NAMES};
pub use truncate::{cap_json, TRUNCATED_KEY};
