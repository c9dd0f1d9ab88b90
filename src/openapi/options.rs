//! How an import runs: the specification a document follows, the options, and their
//! defaults. Every step of the import reads these, so they sit apart from the entry points
//! in `mod.rs` that run it.

use std::fmt;
use std::sync::Arc;

use super::documents::RefResolver;

/// Which specification a document follows.
///
/// `#[non_exhaustive]`: a new OpenAPI version (3.2, read as 3.1 today) may get its own variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Version {
    /// Swagger 2.0.
    Swagger2,
    /// OpenAPI 3.0.x.
    V3_0,
    /// OpenAPI 3.1.x (and 3.2, read where it is compatible).
    V3_1,
}

/// Defaults to 1024: the bytes of a tool description the imported plugin keeps.
pub const DEFAULT_MAX_DESCRIPTION_BYTES: usize = 1024;
/// Defaults to 512: the bytes of a parameter or property description the imported plugin keeps.
pub const DEFAULT_MAX_PARAM_DESCRIPTION_BYTES: usize = 512;
/// Defaults to 24: schema levels inlined before the rest is cut with a note.
pub const DEFAULT_MAX_SCHEMA_DEPTH: usize = 24;
/// Defaults to 200,000: schema nodes one operation's parameters may expand to.
pub const DEFAULT_MAX_TOOL_NODES: usize = 200_000;
/// Defaults to 20,000,000: schema nodes a whole import may expand to.
pub const DEFAULT_MAX_TOTAL_NODES: usize = 20_000_000;

/// How to import: which server, which operations, limits, the values of `${NAME}`
/// variables, and a resolver for external `$ref`s.
///
/// # Examples
///
/// ```
/// use httptool::openapi::ImportOptions;
///
/// let options = ImportOptions::new()
///     .base_url("http://127.0.0.1:4010")
///     .include_tag("pets")
///     .include_deprecated(true);
/// # drop(options);
/// ```
#[derive(Clone, Default)]
pub struct ImportOptions {
    pub(crate) base_url: Option<String>,
    pub(crate) relative_to: Option<String>,
    pub(crate) server: usize,
    pub(crate) server_variables: Vec<(String, String)>,
    pub(crate) include_tags: Vec<String>,
    pub(crate) exclude_tags: Vec<String>,
    pub(crate) include_operations: Vec<String>,
    pub(crate) exclude_operations: Vec<String>,
    pub(crate) paths: Vec<String>,
    pub(crate) methods: Vec<String>,
    pub(crate) include_deprecated: bool,
    pub(crate) strict: bool,
    pub(crate) threads: usize,
    pub(crate) no_output_schemas: bool,
    pub(crate) max_description_bytes: Option<usize>,
    pub(crate) max_param_description_bytes: Option<usize>,
    pub(crate) max_schema_depth: Option<usize>,
    pub(crate) max_tool_nodes: Option<usize>,
    pub(crate) max_total_nodes: Option<usize>,
    pub(crate) variables: Vec<(String, String)>,
    pub(crate) name: Option<String>,
    pub(crate) resolver: Option<Arc<dyn RefResolver + Send + Sync>>,
}

impl fmt::Debug for ImportOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Variable values may be credentials: only their names are shown.
        let names: Vec<&str> = self.variables.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("ImportOptions")
            .field("base_url", &self.base_url)
            .field("server", &self.server)
            .field("include_tags", &self.include_tags)
            .field("exclude_tags", &self.exclude_tags)
            .field("include_operations", &self.include_operations)
            .field("exclude_operations", &self.exclude_operations)
            .field("paths", &self.paths)
            .field("methods", &self.methods)
            .field("include_deprecated", &self.include_deprecated)
            .field("strict", &self.strict)
            .field("threads", &self.thread_count())
            .field("variables", &names)
            .field("resolver", &self.resolver.is_some())
            .finish_non_exhaustive()
    }
}

impl ImportOptions {
    /// The threads the import may use: at least one.
    pub(crate) fn thread_count(&self) -> usize {
        self.threads.max(1)
    }

    /// The defaults: the first server, every operation that is not deprecated, no resolver.
    pub fn new() -> ImportOptions {
        ImportOptions::default()
    }

    /// The base URL, instead of the document's servers at every level: the document's, a
    /// path item's and an operation's. Every endpoint goes to it (a mock, a sandbox, a
    /// proxy), never to a server the document names.
    #[must_use]
    pub fn base_url(mut self, url: impl Into<String>) -> ImportOptions {
        self.base_url = Some(url.into());
        self
    }

    /// The URL a relative server URL (`/api/v2`) is resolved against. Without it, a relative
    /// server is a warning and the base URL a placeholder.
    #[must_use]
    pub fn relative_to(mut self, url: impl Into<String>) -> ImportOptions {
        self.relative_to = Some(url.into());
        self
    }

    /// Which of `servers` to use, at every level (a path item's or an operation's list
    /// that has fewer uses its first). Defaults to 0.
    #[must_use]
    pub fn server(mut self, index: usize) -> ImportOptions {
        self.server = index;
        self
    }

    /// The value of a server variable (`{region}`), instead of its default, in the servers
    /// of every level.
    #[must_use]
    pub fn server_variable(
        mut self,
        name: impl Into<String>,
        value: impl Into<String>,
    ) -> ImportOptions {
        self.server_variables.push((name.into(), value.into()));
        self
    }

    /// Whether endpoints get an output schema from their success response (the default:
    /// yes). The schema describes without asserting, so that a client checking answers
    /// against it does not reject real ones the document describes wrongly; `false` leaves
    /// every output schema out.
    #[must_use]
    pub fn output_schemas(mut self, yes: bool) -> ImportOptions {
        self.no_output_schemas = !yes;
        self
    }

    /// Imports only operations with this tag (any of the tags given).
    #[must_use]
    pub fn include_tag(mut self, tag: impl Into<String>) -> ImportOptions {
        self.include_tags.push(tag.into());
        self
    }

    /// Leaves out operations with this tag.
    #[must_use]
    pub fn exclude_tag(mut self, tag: impl Into<String>) -> ImportOptions {
        self.exclude_tags.push(tag.into());
        self
    }

    /// Imports only the operations with these `operationId`s (any given).
    #[must_use]
    pub fn include_operation(mut self, id: impl Into<String>) -> ImportOptions {
        self.include_operations.push(id.into());
        self
    }

    /// Leaves out the operation with this `operationId`.
    #[must_use]
    pub fn exclude_operation(mut self, id: impl Into<String>) -> ImportOptions {
        self.exclude_operations.push(id.into());
        self
    }

    /// Imports only paths matching this pattern (any given): `*` matches any run of
    /// characters, `?` one (`/pets/*`, `*/admin/*`).
    #[must_use]
    pub fn path(mut self, pattern: impl Into<String>) -> ImportOptions {
        self.paths.push(pattern.into());
        self
    }

    /// Imports only operations of this method (any given; `get`, `POST`).
    #[must_use]
    pub fn method(mut self, method: impl Into<String>) -> ImportOptions {
        self.methods.push(method.into());
        self
    }

    /// Imports deprecated operations too. Defaults to `false` (each is a warning).
    #[must_use]
    pub fn include_deprecated(mut self, include: bool) -> ImportOptions {
        self.include_deprecated = include;
        self
    }

    /// Whether the first operation that cannot be imported fails the import. Defaults to
    /// `false`: each operation that cannot be imported (an unresolved `$ref`, schemas over
    /// budget, a parameter the plugin refuses) is left out with a warning naming it (method,
    /// path, `operationId`) and why, every other is imported, and the import fails only when
    /// no operation is left.
    #[must_use]
    pub fn strict(mut self, strict: bool) -> ImportOptions {
        self.strict = strict;
        self
    }

    /// The opposite of [`strict`](ImportOptions::strict): `true` (the default) leaves out an
    /// operation that cannot be imported, with a warning; `false` fails the import on it.
    #[must_use]
    pub fn skip_failing_operations(mut self, skip: bool) -> ImportOptions {
        self.strict = !skip;
        self
    }

    /// How many threads the import may use, the calling one included. Defaults to 1: the
    /// library starts no thread unless asked (the command line asks for one per core).
    ///
    /// The result does not depend on it: the same plugin, byte for byte, and the same
    /// warnings in the same order. More threads are used only where a document has enough
    /// operations to gain from them (32 a thread), and a thread that cannot be started (a
    /// platform without threads) leaves its share to the calling one. `0` reads as 1.
    ///
    /// The documents external `$ref`s name are read before any thread starts, each once
    /// (see [`RefResolver::canonical`]), and shared by the threads. Where a node budget
    /// ([`max_tool_nodes`](ImportOptions::max_tool_nodes),
    /// [`max_total_nodes`](ImportOptions::max_total_nodes)) is exceeded, the operations are
    /// converted again on the calling thread alone (where it runs out depends on the order
    /// of the work), so a document over budget costs up to twice the work.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> ImportOptions {
        self.threads = threads;
        self
    }

    /// Bytes of a tool description the imported plugin keeps: a longer one is cut on a
    /// character boundary and ends in `...`. Defaults to [`DEFAULT_MAX_DESCRIPTION_BYTES`].
    ///
    /// Bytes, as every size in the crate: the plugin's
    /// [`Options::max_description_bytes`](crate::plugin::Options::max_description_bytes) then
    /// cuts what the model reads in a compact schema to fewer (160 by default).
    #[must_use]
    pub fn max_description_bytes(mut self, bytes: usize) -> ImportOptions {
        self.max_description_bytes = Some(bytes);
        self
    }

    /// Bytes of a parameter or property description the imported plugin keeps (cut as
    /// [`max_description_bytes`](ImportOptions::max_description_bytes) cuts). Defaults to
    /// [`DEFAULT_MAX_PARAM_DESCRIPTION_BYTES`].
    #[must_use]
    pub fn max_param_description_bytes(mut self, bytes: usize) -> ImportOptions {
        self.max_param_description_bytes = Some(bytes);
        self
    }

    /// Schema levels inlined; deeper ones are cut with a note and a warning. Defaults to
    /// [`DEFAULT_MAX_SCHEMA_DEPTH`], which is also the most kept: the plugin bounds schema
    /// nesting at [`plugin::MAX_SCHEMA_DEPTH`](crate::plugin::MAX_SCHEMA_DEPTH) JSON levels, and
    /// each schema level takes two of them, leaving room for examples 15 levels deep.
    #[must_use]
    pub fn max_schema_depth(mut self, levels: usize) -> ImportOptions {
        self.max_schema_depth = Some(levels);
        self
    }

    /// Schema nodes one operation may expand to ([`ErrorKind::TooLarge`](super::ErrorKind::TooLarge) past it). Defaults
    /// to [`DEFAULT_MAX_TOOL_NODES`].
    #[must_use]
    pub fn max_tool_nodes(mut self, nodes: usize) -> ImportOptions {
        self.max_tool_nodes = Some(nodes);
        self
    }

    /// Schema nodes the whole import may expand to ([`ErrorKind::TooLarge`](super::ErrorKind::TooLarge) past it).
    /// Defaults to [`DEFAULT_MAX_TOTAL_NODES`].
    #[must_use]
    pub fn max_total_nodes(mut self, nodes: usize) -> ImportOptions {
        self.max_total_nodes = Some(nodes);
        self
    }

    /// The value of a `${NAME}` variable the plugin reads (a credential of a security
    /// scheme), for the plugin [`Import::plugin`](super::Import::plugin) holds; the plugin file keeps `${NAME}`.
    /// A variable without a value is empty in that plugin.
    #[must_use]
    pub fn variable(mut self, name: impl Into<String>, value: impl Into<String>) -> ImportOptions {
        self.variables.push((name.into(), value.into()));
        self
    }

    /// The plugin's name, instead of one made from `info.title`.
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> ImportOptions {
        self.name = Some(name.into());
        self
    }

    /// The resolver for external `$ref`s. Defaults to none: an external reference is an
    /// error.
    #[must_use]
    pub fn resolver(mut self, resolver: Arc<dyn RefResolver + Send + Sync>) -> ImportOptions {
        self.resolver = Some(resolver);
        self
    }
}
