//! The catalog: a registry of many tools offered to a model as three.
//!
//! A real API has hundreds of operations; their specs, one tool each, do not fit a model's
//! context, and clients cap the number of tools. A [`Catalog`] indexes a [`ToolRegistry`]
//! once and offers it as `search_operations`, `describe_operation` and `call_operation`
//! (see [`Catalog`] for what each takes and returns). The ranker is in `rank.rs`.

mod rank;
mod search;
mod tools;

use std::fmt;
use std::sync::Arc;

use super::registry::ToolRegistry;
use super::spec::ToolSpec;

pub use self::search::{SearchHit, DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT};
pub use self::tools::{CALL_OPERATION, DESCRIBE_OPERATION, SEARCH_OPERATIONS};

/// The tool count above which [`CatalogLimits`] asks for a catalog. Defaults to 128, the cap
/// one widely used IDE agent puts on the tools it sends a model.
pub const DEFAULT_CATALOG_MAX_TOOLS: usize = 128;

/// The size of the MCP `tools/list` result, in bytes, above which [`CatalogLimits`] asks for
/// a catalog. Defaults to 128 KiB: about 32k tokens at four bytes a token, a quarter of a
/// 128k-token context.
pub const DEFAULT_CATALOG_MAX_SCHEMA_BYTES: usize = 128 * 1024;

/// When to offer a registry as a catalog rather than a tool per operation: above a tool
/// count or above a size of the tool list (`httptool serve --catalog auto`).
///
/// # Examples
///
/// ```
/// use httptool::tool::{CatalogLimits, ToolRegistry, ToolSpec};
///
/// let mut registry = ToolRegistry::new();
/// for i in 0..3 {
///     registry.add_fn(ToolSpec::without_parameters(format!("t{}", i), "")?, |_: httptool::json::Map, _: &_| "ok")?;
/// }
/// assert!(!CatalogLimits::new().wants_catalog(&registry));
/// assert!(CatalogLimits::new().max_tools(2).wants_catalog(&registry));
/// # Ok::<(), httptool::tool::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatalogLimits {
    max_tools: usize,
    max_schema_bytes: usize,
}

impl CatalogLimits {
    /// The defaults: [`DEFAULT_CATALOG_MAX_TOOLS`] and [`DEFAULT_CATALOG_MAX_SCHEMA_BYTES`].
    pub fn new() -> CatalogLimits {
        CatalogLimits {
            max_tools: DEFAULT_CATALOG_MAX_TOOLS,
            max_schema_bytes: DEFAULT_CATALOG_MAX_SCHEMA_BYTES,
        }
    }

    /// The most tools offered one per operation. Defaults to [`DEFAULT_CATALOG_MAX_TOOLS`].
    #[must_use]
    pub fn max_tools(mut self, tools: usize) -> CatalogLimits {
        self.max_tools = tools;
        self
    }

    /// The largest MCP `tools/list` result, in bytes (compact JSON), offered one tool per
    /// operation. Defaults to [`DEFAULT_CATALOG_MAX_SCHEMA_BYTES`].
    #[must_use]
    pub fn max_schema_bytes(mut self, bytes: usize) -> CatalogLimits {
        self.max_schema_bytes = bytes;
        self
    }

    /// Whether `registry` has more tools than [`max_tools`](CatalogLimits::max_tools), or a
    /// tool list larger than [`max_schema_bytes`](CatalogLimits::max_schema_bytes). The
    /// size is counted tool by tool and stops at the limit, so a huge registry costs no
    /// more than the limit to judge.
    pub fn wants_catalog(&self, registry: &ToolRegistry) -> bool {
        if registry.len() > self.max_tools {
            return true;
        }
        let mut bytes = 0usize;
        for spec in registry.iter_specs() {
            bytes = bytes.saturating_add(super::mcp::tool(spec).compact_len() + 1);
            if bytes > self.max_schema_bytes {
                return true;
            }
        }
        false
    }
}

impl Default for CatalogLimits {
    fn default() -> CatalogLimits {
        CatalogLimits::new()
    }
}

/// A registry offered to a model as three tools instead of one per operation.
///
/// [`Catalog::new`] indexes the registry once; [`registry`](Catalog::registry) gives the
/// three tools as a [`ToolRegistry`] of their own, so the MCP server, the provider formats
/// and the command line serve a catalog exactly as any registry:
///
/// - `search_operations` takes `query` (words) and an optional `limit` (default
///   [`DEFAULT_SEARCH_LIMIT`], at most [`MAX_SEARCH_LIMIT`]) and returns
///   `{"operations": [{"name", "method", "path", "summary"}, ...], "total_operations": N}`,
///   best match first. A query with no word to search by lists the first operations in
///   registry order. The ranker is BM25F over the words of each tool's name, summary, tags,
///   path, description and parameter names, with light stemming and prefix matches (see
///   [`search`](Catalog::search)).
/// - `describe_operation` takes `name` and returns `{"name", "title", "description",
///   "method", "path", "tags", "parameters"}`, where `parameters` is the tool's own argument
///   schema, unchanged.
/// - `call_operation` takes `name` and `arguments` (an object, or a JSON string holding one)
///   and calls the tool through the wrapped registry: the same validation, errors, secrets,
///   context values and result as calling the tool itself. An argument error (unknown,
///   missing or invalid parameter, arguments that are not an object) also carries the
///   operation's schema, so the model can correct the call in one step; an unknown
///   operation's error suggests the closest name and `search_operations`.
///
/// The wrapped registry's limits (argument and output bytes) are the catalog's.
///
/// # Security
///
/// `call_operation` reaches only tools of the wrapped registry, through its dispatcher: a
/// catalog adds no way to call anything else, and every check of the tool runs as usual.
/// Searches and descriptions show only what the tools' specs show a model anyway, plus the
/// method and path template.
///
/// # Examples
///
/// ```
/// # // The tools come from a plugin, a layer above this one: run with the `plugin` feature.
/// # #[cfg(feature = "plugin")] {
/// use httptool::json;
/// use httptool::plugin::{Endpoint, HttpPlugin, Param};
/// use httptool::tool::{Catalog, ToolCall, ToolRegistry};
///
/// let plugin = HttpPlugin::builder("pets", "https://pets.example.com")
///     .endpoint(Endpoint::get("listPets", "/pets").description("List all pets"))
///     .endpoint(
///         Endpoint::get("showPetById", "/pets/{petId}")
///             .description("Info for a specific pet")
///             .param(Param::path("petId").required(true)),
///     )
///     .build()?;
/// let mut registry = ToolRegistry::new();
/// registry.add_plugin(&plugin)?;
///
/// let catalog = Catalog::new(registry);
/// let tools = catalog.registry();
/// assert_eq!(tools.names().collect::<Vec<_>>(), ["search_operations", "describe_operation", "call_operation"]);
///
/// let found = tools.call(&ToolCall::new("1", "search_operations", r#"{"query": "details of one pet by id", "limit": 1}"#));
/// assert_eq!(
///     found.text(),
///     r#"{"operations":[{"name":"showPetById","method":"GET","path":"/pets/{petId}","summary":"Info for a specific pet"}],"total_operations":2}"#
/// );
///
/// // A missing argument: the error carries the schema.
/// let out = tools.call(&ToolCall::new("2", "call_operation", r#"{"name": "showPetById", "arguments": {}}"#));
/// assert!(out.is_error());
/// assert!(out.text().contains(r#""required":["petId"]"#));
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Catalog {
    shared: Arc<tools::Shared>,
}

impl Catalog {
    /// Indexes every tool of `registry`, in its order. The cost is linear in the text of the
    /// specs and is paid once.
    pub fn new(registry: ToolRegistry) -> Catalog {
        Catalog {
            shared: Arc::new(tools::Shared::new(registry, None)),
        }
    }

    /// As [`new`](Catalog::new), with a line about the APIs (their names and what they are
    /// for) that `search_operations`'s description shows the model.
    pub fn with_about(registry: ToolRegistry, about: impl Into<String>) -> Catalog {
        Catalog {
            shared: Arc::new(tools::Shared::new(registry, Some(about.into()))),
        }
    }

    /// The three tools, as a registry with the wrapped registry's limits. Cheap: every copy
    /// shares the one index.
    pub fn registry(&self) -> ToolRegistry {
        tools::registry(&self.shared)
    }

    /// The wrapped registry, one tool per operation.
    pub fn operations(&self) -> &ToolRegistry {
        &self.shared.registry
    }

    /// The operations that best match `query`, best first, at most `limit`; what
    /// `search_operations` returns, for Rust callers. Ties keep the registry's order.
    ///
    /// # Examples
    ///
    /// ```
    /// use httptool::tool::{Catalog, ToolRegistry, ToolSpec};
    ///
    /// let mut registry = ToolRegistry::new();
    /// registry.add_fn(ToolSpec::without_parameters("list_invoices", "Lists invoices")?, |_: httptool::json::Map, _: &_| "[]")?;
    /// registry.add_fn(ToolSpec::without_parameters("delete_invoice", "Deletes an invoice")?, |_: httptool::json::Map, _: &_| "ok")?;
    /// let catalog = Catalog::new(registry);
    /// let hits = catalog.search("remove an invoice", 5);
    /// assert_eq!(hits[0].name, "delete_invoice");
    /// assert_eq!(hits[0].summary, "Deletes an invoice");
    /// # Ok::<(), httptool::tool::Error>(())
    /// ```
    pub fn search(&self, query: &str, limit: usize) -> Vec<SearchHit> {
        self.shared.search(query, limit)
    }

    /// The spec of the operation named `name`, as its own tool's.
    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.shared.registry.get(name).map(|tool| tool.spec())
    }
}

impl fmt::Debug for Catalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Catalog")
            .field("operations", &self.shared.registry.len())
            .finish_non_exhaustive()
    }
}
