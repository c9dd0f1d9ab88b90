//! Architecture: the layers, what each one owns, and how a call goes through them.
//!
//! httptool turns HTTP APIs into tools a language model calls. A developer declares an API
//! once (a base URL, static headers, auth, endpoints with their parameters); the crate makes
//! from each endpoint a [`ToolSpec`](crate::tool::ToolSpec) the model reads and an
//! [`HttpTool`](crate::plugin::HttpTool) that executes the model's calls. curl commands and
//! OpenAPI documents become such declarations in one call, and a declaration becomes a curl
//! command again. The command-line program and the MCP server offer the same to programs
//! that are not written in Rust.
//!
//! It is written for agents that run offline, in constrained or vendored builds, or under a
//! review that reads every line linked in: the default build has no dependencies, the crate
//! forbids `unsafe` code, and nothing happens that a caller did not ask for.
//!
//! # Layers
//!
//! One module a layer. A module uses only the modules below it in this table, never one
//! above, so each layer can be read, tested and fuzzed with only what is under it:
//!
//! | layer | holds | uses |
//! | --- | --- | --- |
//! | the `httptool` binary (`src/bin/httptool/`) | the command line: `demo`, `tools`, `call`, `import`, `export`, `serve` | everything |
//! | [`mcp`](crate::mcp) | the Model Context Protocol server over any `BufRead` and `Write` | `tool`, `plugin`, `json` |
//! | [`curl`](crate::curl), [`openapi`](crate::openapi), `postman`, `har` | importers and the exporter: text in, [`HttpPlugin`](crate::plugin::HttpPlugin) out, and back to curl (Postman collections and HAR recordings share the curl importer's inference rules) | `plugin` and below |
//! | [`plugin`](crate::plugin) | declared endpoints: the declaration and its checks, the argument pipeline, [`HttpTool`](crate::plugin::HttpTool) | `tool`, `http`, `url`, `json` |
//! | [`tool`](crate::tool) | [`ToolSpec`](crate::tool::ToolSpec), [`ToolCall`](crate::tool::ToolCall), [`ToolOutput`](crate::tool::ToolOutput), the [`Tool`](crate::tool::Tool) trait, [`ToolRegistry`](crate::tool::ToolRegistry), the provider formats | `json` |
//! | [`http`](crate::http) | [`Request`](crate::http::Request), [`Response`](crate::http::Response), [`Headers`](crate::http::Headers), [`Method`](crate::http::Method), the [`Transport`](crate::http::Transport) trait, [`Client`](crate::http::Client) (TCP, pool, TLS) | `url` |
//! | [`url`](crate::url) | [`Url`](crate::url::Url) parsing, percent-encoding sets ([`EncodeSet`](crate::url::EncodeSet)), query strings | nothing |
//! | [`yaml`](crate::yaml) | YAML 1.2 documents into [`Json`](crate::json::Json) (OpenAPI documents, plugin files) | `json` |
//! | [`json`](mod@crate::json) | the [`Json`](crate::json::Json) value, its parser and writer | nothing |
//!
//! Two meeting points are worth knowing:
//!
//! - [`tool`](crate::tool) does not depend on [`http`](crate::http): a tool may be a plain
//!   Rust function ([`FnTool`](crate::tool::FnTool)). [`plugin`](crate::plugin) is where
//!   HTTP and tools meet, and that is why
//!   [`ToolRegistry::add_plugin`](crate::tool::ToolRegistry::add_plugin) is defined in the
//!   plugin layer, not beside the registry.
//! - The importers produce plugin files, read back by the plugin layer: whatever
//!   [`openapi::import`](crate::openapi::import) or [`curl::to_plugin`](crate::curl::to_plugin)
//!   makes is a declaration that [`HttpPlugin::to_json`](crate::plugin::HttpPlugin::to_json)
//!   can save for review, and that loads back the same.
//!
//! Each module's own page has a table of its files. Inside a layer the same rule holds on a
//! smaller scale: pure code (parsers, encoders, the argument pipeline, the policies) takes
//! bytes or values and returns values, and never touches a socket, the clock or the
//! environment, so it is tested with tables and fuzzed directly.
//!
//! # What touches the outside world
//!
//! - **Sockets**: only [`http`](crate::http) opens them, in one place (resolving a name,
//!   checking the addresses against the [`AddressPolicy`](crate::http::AddressPolicy),
//!   connecting to one of them). One file of the same module names rustls types, only with
//!   the `tls` feature, and none of them appears in the public API.
//! - **The environment**: read only where a caller asks for it: `${NAME}` in a plugin file
//!   loaded with [`HttpPlugin::from_json`](crate::plugin::HttpPlugin::from_json) (and its
//!   deferred form), and proxies with [`ProxyConfig::from_env`](crate::http::ProxyConfig::from_env).
//!   A [`Client::new`](crate::http::Client::new) reads no variable.
//! - **Files and standard input/output**: only the binary. The library reads no file: a
//!   multipart file part gets its bytes from the host's
//!   [`FileResolver`](crate::plugin::FileResolver), an external `$ref` from the host's
//!   [`RefResolver`](crate::openapi::RefResolver), and [`mcp::serve`](crate::mcp::serve) takes
//!   any reader and writer.
//! - **Declaring a plugin does no I/O**: every check of the declaration happens when it is
//!   built, every network check when a call is made.
//!
//! # A call, from the model to the answer
//!
//! 1. The provider's message is read into a [`ToolCall`](crate::tool::ToolCall) by the
//!    provider module ([`tool::openai`](crate::tool::openai),
//!    [`tool::anthropic`](crate::tool::anthropic), [`tool::gemini`](crate::tool::gemini),
//!    [`tool::mcp`](crate::tool::mcp)), or by the MCP server's `tools/call`.
//! 2. [`ToolRegistry::call`](crate::tool::ToolRegistry::call) (or
//!    [`call_with`](crate::tool::ToolRegistry::call_with), with a
//!    [`CallContext`](crate::tool::CallContext)) finds the tool by name, parses the arguments
//!    strictly under a size cap, and hands them to the [`Tool`](crate::tool::Tool). Whatever
//!    happens, it returns a [`ToolOutput`](crate::tool::ToolOutput); it never panics.
//! 3. For an [`HttpTool`](crate::plugin::HttpTool), the plugin layer runs the pipeline the
//!    [`endpoints`](super::endpoints) page describes: names, value order, coercion, placing
//!    every value into a [`Request`](crate::http::Request), auth and signing. All of it runs
//!    before anything is sent; [`HttpTool::dry_run`](crate::plugin::HttpTool::dry_run) stops
//!    here and shows the request.
//! 4. The request goes to the plugin's [`Transport`](crate::http::Transport): by default a
//!    [`Client`](crate::http::Client) built from the plugin's options. The client follows
//!    redirects under its [`RedirectPolicy`](crate::http::RedirectPolicy), reuses pooled
//!    connections, retries only what the [retry rule](super::endpoints#retries) allows, and
//!    bounds every read and wait.
//! 5. The [`Response`](crate::http::Response) becomes what the model reads: text, parsed
//!    JSON, or an error with a stable [`ErrorKind`](crate::tool::ErrorKind), with secrets the
//!    server echoed replaced by `***` and the text capped. Rust callers can have the whole
//!    response instead ([`HttpTool::send`](crate::plugin::HttpTool::send) and
//!    [`ApiResponse`](crate::plugin::ApiResponse)).
//! 6. The provider module writes the output back in the provider's shape.
//!
//! # Entry points
//!
//! Checks and benchmarks outside the crate call these by name, so they stay as they are:
//! [`json::parse`](crate::json::parse), [`json::parse_bytes`](crate::json::parse_bytes),
//! `Display` and [`Json::to_pretty`](crate::json::Json::to_pretty);
//! [`Client::new`](crate::http::Client::new), [`Request::get`](crate::http::Request::get),
//! [`Request::new`](crate::http::Request::new), [`Transport::send`](crate::http::Transport::send),
//! [`Response::status`](crate::http::Response::status), [`Response::body`](crate::http::Response::body),
//! [`Response::into_body`](crate::http::Response::into_body);
//! [`HttpPlugin::from_json`](crate::plugin::HttpPlugin::from_json),
//! [`ToolRegistry::new`](crate::tool::ToolRegistry::new),
//! [`ToolRegistry::add_plugin`](crate::tool::ToolRegistry::add_plugin),
//! [`ToolRegistry::specs`](crate::tool::ToolRegistry::specs),
//! [`ToolRegistry::call`](crate::tool::ToolRegistry::call), [`ToolCall::new`](crate::tool::ToolCall::new),
//! [`ToolOutput::text`](crate::tool::ToolOutput::text),
//! [`ToolOutput::is_error`](crate::tool::ToolOutput::is_error);
//! [`curl::parse`](crate::curl::parse), [`curl::to_plugin`](crate::curl::to_plugin),
//! [`curl::to_curl`](crate::curl::to_curl), [`openapi::import`](crate::openapi::import),
//! [`openapi::import_with`](crate::openapi::import_with),
//! [`Import::plugin`](crate::openapi::Import::plugin),
//! [`Import::warnings`](crate::openapi::Import::warnings), [`yaml::parse`](crate::yaml::parse),
//! [`mcp::serve`](crate::mcp::serve). The binary's subcommands `import openapi`, `tools`,
//! `call` (exit status 1 for an error result) and `serve` (MCP on standard input and output)
//! are used the same way.
//!
//! # Errors
//!
//! One error type a module ([`json::Error`](crate::json::Error),
//! [`http::Error`](crate::http::Error), [`plugin::Error`](crate::plugin::Error), ...), each
//! with a `kind()` to match on where the module has several kinds, positions where the input
//! is text (line, column and byte offset for JSON and YAML, the argument for curl, a JSON
//! Pointer for OpenAPI), and `Display` messages in lower case that say what to do and never
//! hold a secret. [`Error`](crate::Error) wraps them all for code that handles errors in one
//! place. Whether each public enum is `#[non_exhaustive]` is said, with the reason, in its
//! own documentation.
//!
//! # Threads
//!
//! Types that cross threads are `Send + Sync`: one [`Client`](crate::http::Client) (and its
//! pool) and one [`ToolRegistry`](crate::tool::ToolRegistry) are shared by many threads
//! without a lock around each call, and [`Tool`](crate::tool::Tool) and
//! [`Transport`](crate::http::Transport) require it.
//!
//! # Features
//!
//! The default build has no dependencies: JSON, YAML, URLs and HTTP/1.1 are the crate's own.
//! The `tls` feature adds rustls (with the ring provider) and webpki-roots, and nothing else;
//! without it an `https` URL is [`ErrorKind::TlsUnavailable`](crate::http::ErrorKind::TlsUnavailable).
//! A feature changes what is compiled, never how the rest behaves. The default build and
//! its tests compile with Rust 1.63.
