//! OpenAPI import: every operation of a Swagger 2.0, OpenAPI 3.0 or 3.1 document becomes one
//! endpoint of an [`HttpPlugin`], whose tool tells the model what the document says and
//! sends the request the document describes.
//!
//! The plugin is the one model: whatever the importer makes is a plugin file
//! ([`HttpPlugin::to_json`]) that reads back unchanged, so an import can be saved, reviewed
//! and edited. What the importer could not say exactly is a [`Warning`] with the JSON
//! Pointer of where in the document.
//!
//! # What becomes what
//!
//! | document | plugin |
//! | --- | --- |
//! | `servers[0]` with its variables' defaults; Swagger `schemes` (https first), `host`, `basePath` | `base_url` ([`ImportOptions::server`], [`variable`](ImportOptions::server_variable), [`base_url`](ImportOptions::base_url) choose another) |
//! | path-level or operation-level `servers` that differ (the one [`ImportOptions::server`] names, else the first; variables as above) | the endpoint's `base_url`, unless [`ImportOptions::base_url`] is given: it replaces the servers of every level |
//! | `operationId`, else method and path | the tool name, made valid (`^[a-zA-Z0-9_-]{1,64}$`), shortened with a stable hash when too long, `_2`, `_3` on a collision |
//! | `summary` and `description` | the description: the summary as a sentence, a blank line, the description (the description alone when it says the summary already: it starts with it, or its first sentence holds every word of it), capped in bytes ([`ImportOptions::max_description_bytes`]) |
//! | `summary` | the endpoint's `title` (MCP's), whitespace runs as one space, at most 80 characters |
//! | the first 2xx response's JSON schema (`content` `application/json` or `+json`; Swagger `schema` when `produces` is JSON or absent) | the endpoint's `output_schema`, descriptive only (below), `writeOnly` properties left out; none when any 2xx response has no JSON body, or the schema is over 16 KiB (a warning, without the size: it is measured only until it is over; the importer's cap, tighter than the 64 KiB of [`plugin::MAX_OUTPUT_SCHEMA_BYTES`](crate::plugin::MAX_OUTPUT_SCHEMA_BYTES)); [`ImportOptions::output_schemas`] turns them off |
//! | parameters in `path`, `query`, `header`, `cookie` (path-level merged, the operation's win) | parameters in the same place, `style`/`explode` as `array_style` |
//! | a JSON body (`application/json`, `+json`) of an object | one `body` parameter per property |
//! | any other JSON body (an array, a composition) | one `whole_body` parameter named `body` |
//! | `application/x-www-form-urlencoded`, `multipart/form-data` | `form` parameters, `format: binary` as file parts, `encoding` styles kept |
//! | `text/plain`, XML, `application/octet-stream`, other types | `body_encoding: raw` with the `content_type`: a string, or a file handle for binary |
//! | schemas | each parameter's `schema`: a component used once written in place, one that is shared or recursive a `$ref` into the plugin's `$defs` (each converted once; each tool's schema gets the entries it reaches), `allOf` merged, `nullable` as `["type", "null"]`, `readOnly` properties left out |
//! | security: `apiKey` (header, query, cookie), `http` bearer and basic, `oauth2`, `openIdConnect` | `auth` when one scheme covers every operation and every operation goes to the plugin's base URL, else secret parameters per endpoint; schemes of one requirement that put their credential in the same place (two OAuth 2.0 flows, both `Authorization: Bearer`) are one; of alternative requirements, the first the plugin can send (the others named in a warning); values are `${NAME}` variables ([`Import::variables`]) named by the host the credential goes to (below); an `oauth2` `clientCredentials` flow is `oauth2_client_credentials` auth (its `tokenUrl`, the scopes the requirements name, `${NAME_CLIENT_ID}` and `${NAME_CLIENT_SECRET}`), other flows bearer slots |
//!
//! # Credential variables
//!
//! A pasted document is trusted for nothing, so it does not name the variables a plugin
//! reads credentials from: each is `HTTPTOOL_`, the host (and port) the credential goes to,
//! `___`, and the scheme's name, upper case with `_` for every run of other characters
//! (`https://api.github.com` and scheme `token`: `HTTPTOOL_API_GITHUB_COM___TOKEN`). A document
//! titled `GitHub` cannot make its plugin read `GITHUB_TOKEN`, and endpoints on another host
//! read variables of their own. AWS signing reads `AWS_ACCESS_KEY_ID` and
//! `AWS_SECRET_ACCESS_KEY` only for hosts under `amazonaws.com`.
//!
//! # Operations that cannot be imported
//!
//! Each is left out with a warning that names it (method, path and `operationId`) and why,
//! and every other operation is imported; the import fails only when none is left (with the
//! first one's reason), or at the first with [`ImportOptions::strict`].
//!
//! # Parameter names
//!
//! The model reads parameter names; the wire keeps the document's. A name that is not valid
//! for every provider is sanitized (`page[size]` is `page_size`), with `wire_name` keeping the
//! original. When two parameters of an operation end up with the same name (a query `id`
//! and a body property `id`), the first in the order path, query, header, cookie, body keeps
//! it and the later one is `{name}_{location}` (`id_body`), then `_2`, `_3`: predictable,
//! and the wire names are untouched.
//!
//! # Output schemas describe, they do not assert
//!
//! MCP clients check a tool's `structuredContent` against its `outputSchema` (the Python SDK
//! raises when it does not validate), and a document's response schemas are often wrong about
//! the real answers: fields that can be `null` without `nullable`, `required` fields left out,
//! enums that grew a value, `additionalProperties: false` on an object that gained a field.
//! So an imported output schema keeps `properties`, `items`, descriptions, titles and
//! examples, and drops every assertion: `type` (but `"object"` at the root), `required`, `enum`,
//! `const`, bounds, `pattern`, `additionalProperties: false`, and `format`, `contentMediaType`
//! and `contentEncoding`, which validators may assert (the TypeScript SDK's client checks
//! formats, and a `date-time` without a zone or 3e9 in an `int32` is a real answer); `oneOf`
//! reads as `anyOf`. Any
//! answer validates (a root that is not an object is wrapped as `{"result": ...}` by the MCP
//! provider), and the model and client still read the shape and meaning of the answer.
//!
//! # Defaults and bodies
//!
//! A `default` in the document is what the server assumes when a value is absent: the model
//! reads it in the schema, and the executor never sends it on its own. A body that is not
//! `required` stays optional: its properties are optional parameters, and a call that gives
//! none sends no body.
//!
//! # Examples
//!
//! ```
//! use httptool::json;
//! use httptool::openapi;
//!
//! let doc = json::parse(r#"{
//!   "openapi": "3.0.3",
//!   "info": {"title": "Pet Store", "version": "1"},
//!   "servers": [{"url": "https://pets.example.com/v1"}],
//!   "paths": {"/pets/{id}": {"get": {
//!     "operationId": "getPet", "summary": "One pet",
//!     "parameters": [{"name": "id", "in": "path", "required": true,
//!                     "schema": {"type": "integer", "minimum": 1}}]
//!   }}}
//! }"#)?;
//! let import = openapi::import(&doc)?;
//! let plugin = import.plugin();
//! assert_eq!(plugin.specs()[0].name(), "getPet");
//! assert_eq!(
//!     plugin.specs()[0].parameters().to_string(),
//!     r#"{"type":"object","properties":{"id":{"type":"integer","minimum":1}},"required":["id"],"additionalProperties":false}"#
//! );
//! assert!(import.warnings().is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod assemble;
mod body;
mod convert;
mod documents;
mod error;
mod figures;
mod import;
mod operation;
mod pages;
mod parallel;
mod params;
mod path;
mod refs;
mod response;
mod schema;
mod security;
mod select;
mod server;
mod text;
mod tool_schema;
mod walk;

use std::fmt;
use std::sync::Arc;

pub use self::documents::RefResolver;
pub use self::error::{Error, ErrorKind, Warning};
use crate::json::Json;
use crate::plugin::HttpPlugin;

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

    /// Schema nodes one operation may expand to ([`ErrorKind::TooLarge`] past it). Defaults
    /// to [`DEFAULT_MAX_TOOL_NODES`].
    #[must_use]
    pub fn max_tool_nodes(mut self, nodes: usize) -> ImportOptions {
        self.max_tool_nodes = Some(nodes);
        self
    }

    /// Schema nodes the whole import may expand to ([`ErrorKind::TooLarge`] past it).
    /// Defaults to [`DEFAULT_MAX_TOTAL_NODES`].
    #[must_use]
    pub fn max_total_nodes(mut self, nodes: usize) -> ImportOptions {
        self.max_total_nodes = Some(nodes);
        self
    }

    /// The value of a `${NAME}` variable the plugin reads (a credential of a security
    /// scheme), for the plugin [`Import::plugin`] holds; the plugin file keeps `${NAME}`.
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

/// The figures of one tool: its name, method, path, and the bytes of its parameters' JSON
/// Schema as the model reads it (compact JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolFigure {
    /// The tool name.
    pub name: String,
    /// The HTTP method.
    pub method: String,
    /// The path template.
    pub path: String,
    /// Bytes of the parameters' schema.
    pub schema_bytes: usize,
    /// Bytes of the description.
    pub description_bytes: usize,
    /// The base URL the tool's requests go to: the plugin's, or the endpoint's own (from
    /// path-level or operation-level `servers`, kept when no base URL option is given).
    pub base_url: String,
}

/// The result of an import: the plugin, what was approximated, the tools' sizes, and the
/// variables the plugin reads.
#[derive(Clone, Debug)]
pub struct Import {
    plugin: HttpPlugin,
    version: Version,
    warnings: Vec<Warning>,
    tools: Vec<ToolFigure>,
    variables: Vec<String>,
    operations: usize,
}

impl Import {
    /// The plugin: one endpoint per imported operation.
    pub fn plugin(&self) -> &HttpPlugin {
        &self.plugin
    }

    /// The plugin, owned.
    pub fn into_plugin(self) -> HttpPlugin {
        self.plugin
    }

    /// The specification the document follows.
    pub fn version(&self) -> Version {
        self.version
    }

    /// What was skipped or approximated, in document order.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// One figure per tool, in the plugin's order.
    pub fn tools(&self) -> &[ToolFigure] {
        &self.tools
    }

    /// The `${NAME}` variables the plugin reads (credentials), each once.
    pub fn variables(&self) -> &[String] {
        &self.variables
    }

    /// The operations the document holds (before selection).
    pub fn operations_in_document(&self) -> usize {
        self.operations
    }
}

/// Imports an OpenAPI (3.0, 3.1) or Swagger 2.0 document with the default options.
///
/// # Errors
///
/// An [`Error`] with the JSON Pointer of the place: not an OpenAPI document, a version not
/// read, an unresolved or remote `$ref`, schemas past the budget, or no operation to import.
///
/// # Security
///
/// A document is data: nothing in it is fetched or executed, external references are
/// refused unless a resolver is installed, and every expansion is bounded. The plugin it
/// makes sends requests where the document says: review the base URL before calling.
pub fn import(document: &Json) -> Result<Import, Error> {
    import_with(document, &ImportOptions::new())
}

/// Imports a document with `options`.
///
/// # Errors
///
/// As [`import`](fn@import).
pub fn import_with(document: &Json, options: &ImportOptions) -> Result<Import, Error> {
    import::run(document, options).map(Import::of)
}

/// [`import_with`] on a document the import takes: it frees the document as soon as its
/// operations are converted, so that a large API's plugin is made in the document's memory
/// instead of beside it (the same plugin, warnings and figures).
///
/// # Errors
///
/// As [`import`](fn@import).
pub fn import_owned(document: Json, options: &ImportOptions) -> Result<Import, Error> {
    import::run_owned(document, options).map(Import::of)
}

impl Import {
    fn of(result: import::Outcome) -> Import {
        Import {
            plugin: result.plugin,
            version: result.version,
            warnings: result.warnings,
            tools: result.tools,
            variables: result.variables,
            operations: result.operations,
        }
    }
}

/// Whether `document` looks like an OpenAPI or Swagger document: an object with an
/// `openapi` or `swagger` field (what the command line uses to tell one from a plugin file).
pub fn is_document(document: &Json) -> bool {
    document.get("openapi").is_some() || document.get("swagger").is_some()
}
