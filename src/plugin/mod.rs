//! HTTP plugins: declared endpoints become tools a model can call, safely.
//!
//! A developer declares an API once, as a plugin file ([`HttpPlugin::from_json`]) or in Rust
//! ([`HttpPlugin::builder`]): a base URL, static headers and query values, auth, and the
//! endpoints with their parameters. The declaration is checked when it is built, with no I/O.
//! [`ToolRegistry::add_plugin`](crate::tool::ToolRegistry::add_plugin) then adds every
//! endpoint as an [`HttpTool`]: its spec is what the model reads, and its executor turns the
//! model's arguments into a request whose scheme, host, port and path the model cannot
//! change.
//!
//! | item | what it is |
//! | --- | --- |
//! | [`HttpPlugin`], [`PluginBuilder`] | the checked declaration, its builder, the file format |
//! | [`Endpoint`], [`EndpointBuilder`], [`Param`], [`ParamBuilder`] | endpoints and parameters |
//! | [`ParamType`], [`Property`], [`Location`], [`ArrayStyle`], [`BodyEncoding`] | what a parameter is and where it goes |
//! | [`Auth`], [`ConfigValue`], [`Signer`] | credentials, values from the environment or the call context, signing |
//! | [`OAuth2`], [`Grant`], [`ClientAuth`], [`TokenListener`] | OAuth 2.0 tokens fetched, cached and renewed by the plugin |
//! | [`Options`], [`AddressMode`] | limits, timeouts, redirect and address policies |
//! | [`HttpTool`], [`DryRun`], [`ApiResponse`] | the executor, the request without sending, the full response |
//! | [`Observer`], [`Exchange`] | a hook that sees every request and its outcome |
//! | [`FileResolver`], [`FilePart`] | file parts of multipart bodies, from the host only |
//! | [`PluginProvider`], [`JsonPluginProvider`] | plugin packages configured with properties |
//! | [`Error`], [`ErrorKind`] | what is wrong with a declaration, and where |
//!
//! # Options: one name in every layer
//!
//! Each option is defined once, in [`http`](crate::http), and named there as the plugin file
//! names it; [`Options`] sets it for a plugin or an endpoint, and one function (in
//! `build/compile.rs`) turns a plugin's options into the [`RequestOptions`](crate::http::RequestOptions)
//! every request carries (the plugin's own client keeps the defaults).
//!
//! | option | plugin file | [`Options`] | [`http::Config`](crate::http::Config) and [`RequestOptions`](crate::http::RequestOptions) |
//! | --- | --- | --- | --- |
//! | connect timeout, per address | `timeout_connect_ms` | `timeout_connect` | `timeout_connect` |
//! | each read | `timeout_read_ms` | `timeout_read` | `timeout_read` |
//! | each write | `timeout_write_ms` | `timeout_write` | `timeout_write` |
//! | the whole call | `timeout_call_ms` | `timeout_call` | `timeout_call` |
//! | response body bytes | `max_response_bytes` | `max_response_bytes` | `max_response_bytes` |
//! | redirects followed | `max_redirects` | `max_redirects` | `redirect(RedirectPolicy::...max_redirects(n))` (0: `RedirectPolicy::none()`) |
//! | hosts a redirect may reach | `redirect_hosts` | `redirect_hosts` | `redirect(RedirectPolicy::redirect_hosts(..))` (none: `same_origin()`) |
//! | special-purpose addresses | `address_policy` (`allow_all`, `strict`) | `address_policy(AddressMode)` | `address_policy(AddressPolicy)` (sent only when `strict`) |
//! | 429/503 retries | `overload_retries` | `overload_retries` | `retry(RetryPolicy::overload_retries(n))` (idempotent methods only) |
//! | text handed to the model | `max_output_bytes` | `max_output_bytes` | (tool layer: [`ToolRegistry::max_output_bytes`](crate::tool::ToolRegistry::max_output_bytes)) |
//! | schema as declared | `full_schemas` | `full_schemas` | (tool layer) |
//! | compact description bytes | `max_description_bytes` | `max_description_bytes` | (tool layer) |
//! | binary answer bytes sent to the model | `max_attachment_bytes` | `max_attachment_bytes` | (plugin layer) |
//! | events read from an event stream | `max_stream_events` | `max_stream_events` | (plugin layer) |
//! | bytes read from an event stream | `max_stream_bytes` | `max_stream_bytes` | (plugin layer) |
//! | time an event stream is read | `timeout_stream_ms` | `timeout_stream` | (plugin layer) |
//! | head, header count, status line, chunk line, request target | (none) | (none) | `max_head`, `max_headers`, `max_status_line`, `max_chunk_line`, `max_request_target` |
//! | pool, `User-Agent`, proxy, roots | (none) | (none) | `Config` only |
//!
//! The file names times in milliseconds (`_ms`); Rust takes a `Duration`.
//!
//! # Layout
//!
//! The folders are the phases a plugin goes through, each using only the ones above it:
//!
//! | folder or file | what it holds |
//! | --- | --- |
//! | `declare/` | declaring a plugin: `model` (endpoints, parameters, options, auth), `config_value`, the auth schemes with fields of their own (`oauth`, `sigv4`), `pages`, `declaration` (what a builder holds, unchecked), `option_fields` (one table of the file's option fields that reading, writing and the checks walk), `naming` (the names importers give) |
//! | `call/` | the steps of a call, each on declared types alone: `args` and `schema_check` (the model's arguments into checked values), `style`, `multipart`, `auth` (values into wire text), `token` (OAuth 2.0 tokens fetched and cached), `digest`, `result`, `fields` (`response_fields` and the `fields` argument), `stream`, `redact`, `paging`, `operation`, `observe` |
//! | `build/` | checking and compiling a declaration: `validate`, `schema` (the JSON Schema the model reads), `compile` (what every call reuses), `http_plugin` (`HttpPlugin`: the checked plugin and what it runs with), `builder` |
//! | `request.rs`, `tool.rs` | a call on a built plugin: values into an `http::Request`; `HttpTool`, the pipeline from arguments to what the model reads, and `ToolRegistry::add_plugin` |
//! | `file/` | the plugin file: `from_json` (`read`), `${NAME}` (`template`), `to_json` (`write`), on the builders |
//! | `package.rs` | plugin packages configured with properties ([`PluginProvider`]) |
//! | `error.rs` | what is wrong with a declaration, and where |
//!
//! The build phase uses the steps of a call to check defaults and prepare what calls reuse
//! (coercion, budgets, response fields), so `call/` sits below `build/`; `request.rs` and
//! `tool.rs` need the compiled plugin, so they sit above both. No file uses a file of a later
//! phase, and the files use each other without a circle (`tests/plugin_modules.rs` checks
//! both).

//! # Examples
//!
//! ```
//! use httptool::plugin::HttpPlugin;
//! use httptool::tool::{ToolCall, ToolRegistry};
//! # use std::io::{Read, Write};
//! # let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
//! # let port = listener.local_addr()?.port();
//! # let server = std::thread::spawn(move || {
//! #     let (mut s, _) = listener.accept().unwrap();
//! #     let mut buf = [0u8; 1024];
//! #     let _ = s.read(&mut buf).unwrap();
//! #     let body = r#"{"temp_c":21.5}"#;
//! #     write!(s, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}", body.len(), body).unwrap();
//! # });
//!
//! let plugin = HttpPlugin::from_json(&format!(r#"{{
//!   "name": "weather",
//!   "base_url": "http://127.0.0.1:{port}",
//!   "headers": {{ "Accept": "application/json" }},
//!   "endpoints": [{{
//!     "name": "getWeather",
//!     "description": "Current weather for a city",
//!     "method": "GET",
//!     "path": "/v1/weather",
//!     "params": [
//!       {{ "name": "city", "wire_name": "q", "in": "query", "required": true }},
//!       {{ "name": "days", "in": "query", "type": "integer", "default": 1 }}
//!     ]
//!   }}]
//! }}"#))?;
//!
//! let mut registry = ToolRegistry::new();
//! registry.add_plugin(&plugin)?;
//! let out = registry.call(&ToolCall::new("call_1", "getWeather", r#"{"city":"Hangzhou"}"#));
//! assert!(!out.is_error());
//! assert_eq!(out.text(), r#"{"temp_c":21.5}"#);
//! assert_eq!(out.structured().and_then(|v| v["temp_c"].as_f64()), Some(21.5));
//! # server.join().unwrap();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod call;
mod declare;
mod error;
mod file;
mod package;
mod request;
mod tool;

pub(crate) use self::build::validate::MANAGED_HEADERS;
pub(crate) use self::declare::naming;

pub(crate) use self::build::builder::Refused;
pub use self::build::builder::{EndpointBuilder, ParamBuilder, PluginBuilder};
pub use self::build::http_plugin::HttpPlugin;
pub use self::build::validate::MAX_SCHEMA_DEPTH;
pub use self::call::auth::Signer;
pub use self::call::multipart::{FilePart, FileResolver};
pub use self::call::observe::{Exchange, Observer};
pub use self::call::redact::MIN_REDACTED_SECRET_BYTES;
pub use self::call::result::{ApiResponse, DEFAULT_MAX_ATTACHMENT_BYTES};
pub use self::call::stream::{
    DEFAULT_MAX_STREAM_BYTES, DEFAULT_MAX_STREAM_EVENTS, DEFAULT_TIMEOUT_STREAM,
};
pub(crate) use self::call::token::token_url_problem;
pub use self::declare::model::MAX_TYPE_DEPTH;
pub use self::declare::model::{
    method_annotations, AddressMode, ArrayStyle, Auth, BodyEncoding, ConfigValue, Endpoint,
    EndpointAuth, Location, Options, Param, ParamType, Property, MAX_OUTPUT_SCHEMA_BYTES,
};
pub use self::declare::oauth::{
    ClientAuth, Grant, OAuth2, RotatedToken, TokenListener, DEFAULT_TOKEN_LIFETIME,
    MAX_CACHED_TOKENS, MAX_TOKEN_RENEW_MARGIN,
};
pub use self::declare::pages::{PageStyle, Pagination, DEFAULT_MAX_PAGES, DEFAULT_MAX_PAGE_BYTES};
pub use self::declare::sigv4::AwsSigV4;
pub use self::error::{Error, ErrorKind};
pub use self::package::{JsonPluginProvider, PluginProvider};
pub use self::tool::{DryRun, HttpTool};
