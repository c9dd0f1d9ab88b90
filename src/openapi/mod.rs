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
mod options;
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

pub use self::documents::RefResolver;
pub use self::error::{Error, ErrorKind, Warning};
pub use self::figures::ToolFigure;
pub use self::options::{
    ImportOptions, Version, DEFAULT_MAX_DESCRIPTION_BYTES, DEFAULT_MAX_PARAM_DESCRIPTION_BYTES,
    DEFAULT_MAX_SCHEMA_DEPTH, DEFAULT_MAX_TOOL_NODES, DEFAULT_MAX_TOTAL_NODES,
};
use crate::json::Json;
use crate::plugin::HttpPlugin;

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
