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
//! `compile.rs`) turns a plugin's options into the [`RequestOptions`](crate::http::RequestOptions)
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
//! | file | what it holds |
//! | --- | --- |
//! | `model.rs`, `config_value.rs`, `oauth.rs` | the declaration types: endpoints, parameters, options, auth, values from the environment or the context |
//! | `declaration.rs` | the plain declaration the builder fills in, unchecked |
//! | `validate.rs`, `compile.rs` | the checks when a plugin is built, and what every call reuses |
//! | `http_plugin.rs` | `HttpPlugin`: the checked declaration and what it runs with |
//! | `builder.rs` | the builders, named after the plugin file's fields |
//! | `option_fields.rs` | the plugin file's option fields: one table that reading, writing and the checks walk |
//! | `file/read.rs`, `file/template.rs`, `file/write.rs` | the plugin file: `from_json`, `${NAME}`, `to_json` |
//! | `schema.rs` | the JSON Schema the model reads |
//! | `args.rs` | value order, coercion and unknown names (pure) |
//! | `request.rs`, `multipart.rs`, `auth.rs` | values into a request (pure) |
//! | `result.rs` | a response into what the model reads (pure) |
//! | `shape.rs` | `response_fields` and the `fields` argument: parts of a JSON response (pure) |
//! | `redact.rs` | secrets the call sent, echoed back, as `***` (pure) |
//! | `token.rs` | OAuth 2.0: the token cache and fetch |
//! | `tool.rs` | `HttpTool`: the pipeline, the transport, the observer; `HttpPlugin::tools`, `ToolRegistry::add_plugin` |
//! | `provider.rs` | plugin packages configured with properties |
//! | `naming.rs` | the names importers give: valid, unique, environment variables (pure) |
//!
//! The files use each other without a circle. From the bottom, each uses only files above it
//! in this list (and the pure helpers `error`, `shape`, `style`, `schema_check`, `observe`,
//! `multipart`, `naming`, which use nothing of the plugin but `error` and `model`):
//!
//! 1. `config_value`, then `oauth`, then `model` (the declaration types);
//! 2. `auth`, `args`, `schema`, `redact`, `result`, `token` (pure steps of a call);
//! 3. `declaration` (what the builder fills in);
//! 4. `validate` (checks a `Declaration`), then `compile` (checks and prepares it, producing
//!    what `HttpPlugin` holds);
//! 5. `http_plugin` (the checked plugin), then `builder` (fills in a `Declaration`;
//!    `build` compiles it into an `HttpPlugin`);
//! 6. `request`, then `tool` (a call, and the tools made from a plugin);
//! 7. `file` (`read` fills in a builder, `write` reads a plugin back out, both on `template`),
//!    then `provider`.

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

mod args;
mod auth;
mod builder;
mod compile;
mod config_value;
mod declaration;
mod digest;
mod error;
mod file;
mod http_plugin;
mod model;
mod multipart;
pub(crate) mod naming;
mod oauth;
mod observe;
mod operation;
mod option_fields;
mod pages;
mod paging;
mod provider;
mod redact;
mod request;
mod result;
mod schema;
mod schema_check;
mod shape;
mod sigv4;
mod stream;
mod style;
mod token;
mod tool;
mod validate;
pub(crate) use self::validate::MANAGED_HEADERS;

pub use self::auth::Signer;
pub(crate) use self::builder::Refused;
pub use self::builder::{EndpointBuilder, ParamBuilder, PluginBuilder};
pub use self::error::{Error, ErrorKind};
pub use self::http_plugin::HttpPlugin;
pub use self::model::MAX_TYPE_DEPTH;
pub use self::model::{
    method_annotations, AddressMode, ArrayStyle, Auth, BodyEncoding, ConfigValue, Endpoint,
    EndpointAuth, Location, Options, Param, ParamType, Property, MAX_OUTPUT_SCHEMA_BYTES,
};
pub use self::multipart::{FilePart, FileResolver};
pub use self::oauth::{
    ClientAuth, Grant, OAuth2, RotatedToken, TokenListener, DEFAULT_TOKEN_LIFETIME,
    MAX_CACHED_TOKENS, MAX_TOKEN_RENEW_MARGIN,
};
pub use self::observe::{Exchange, Observer};
pub use self::pages::{PageStyle, Pagination, DEFAULT_MAX_PAGES, DEFAULT_MAX_PAGE_BYTES};
pub use self::provider::{JsonPluginProvider, PluginProvider};
pub use self::redact::MIN_REDACTED_SECRET_BYTES;
pub use self::result::{ApiResponse, DEFAULT_MAX_ATTACHMENT_BYTES};
pub use self::sigv4::AwsSigV4;
pub use self::stream::{
    DEFAULT_MAX_STREAM_BYTES, DEFAULT_MAX_STREAM_EVENTS, DEFAULT_TIMEOUT_STREAM,
};
pub(crate) use self::token::token_url_problem;
pub use self::tool::{DryRun, HttpTool};
pub use self::validate::MAX_SCHEMA_DEPTH;
