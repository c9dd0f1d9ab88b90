//! The Model Context Protocol server: any [`ToolRegistry`],
//! plugins included, served to any MCP client over newline-delimited JSON-RPC 2.0 (MCP
//! "Transports", "stdio"), on any `BufRead` and `Write`: revision 2026-07-28 (no
//! handshake: every request names its revision in `_meta`) and, through `initialize`,
//! 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05, on the same input.
//!
//! [`serve`] runs a session with every default; [`Server`] holds the options (page size,
//! message size cap, concurrency, shutdown deadline, server name and version,
//! instructions, per-call context) and documents the behaviour, message by message. The
//! shapes of tools and results come from [`tool::mcp`](crate::tool::mcp).
//!
//! | file | what it holds |
//! | --- | --- |
//! | `lines.rs` | newline-delimited reading with a cap that never holds a long line |
//! | `rpc.rs` | JSON-RPC 2.0 messages: reading one, writing answers (pure) |
//! | `server.rs` | the session: the reader loop, the writer thread, the worker pool; [`Stateless`], the same answers without a session |
//! | `consent.rs` | the user's approval through the client: `elicitation/create`, and at 2026-07-28 the signed `requestState` of `InputRequiredResult` ([approval](crate::design::endpoints#approval)) |
//! | `http.rs` | [`HttpTransport`]: Streamable HTTP over [`http::HttpServer`](crate::http::HttpServer) (features `mcp` and `server`) |
//! | `http_oauth.rs` | [`OAuth`]: the transport as an OAuth 2.1 resource server (token introspection, RFC 9728 metadata) |
//!
//! # Examples
//!
//! A plugin served on standard input and output (what `httptool serve` does):
//!
//! ```no_run
//! # // The tools come from a plugin, a layer this one does not need: built with `plugin`.
//! # #[cfg(feature = "plugin")] {
//! use httptool::plugin::HttpPlugin;
//! use httptool::tool::ToolRegistry;
//!
//! let plugin = HttpPlugin::from_json(&std::fs::read_to_string("weather.json")?)?;
//! let mut registry = ToolRegistry::new();
//! registry.add_plugin(&plugin)?;
//! let stdin = std::io::stdin();
//! httptool::mcp::serve(&registry, stdin.lock(), std::io::stdout())?;
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod consent;
mod error;
#[cfg(feature = "server")]
mod http;
#[cfg(feature = "server")]
mod http_oauth;
mod lines;
mod rpc;
mod server;

pub use self::error::Error;
#[cfg(feature = "server")]
pub use self::http::{HttpTransport, DEFAULT_HTTP_PATH, HEALTH_PATH};
#[cfg(feature = "server")]
pub use self::http_oauth::{
    OAuth, CONTEXT_CLIENT_ID, CONTEXT_SCOPES, CONTEXT_SUBJECT, DEFAULT_INTROSPECTION_CACHE_ENTRIES,
    DEFAULT_INTROSPECTION_CACHE_TTL, DEFAULT_INTROSPECTION_TIMEOUT,
    PROTECTED_RESOURCE_METADATA_PATH,
};
pub use self::server::{
    Reply, Server, Stateless, DEFAULT_APPROVAL_TTL, DEFAULT_ELICITATION_TIMEOUT,
    DEFAULT_LIST_TTL_MS, DEFAULT_MAX_CALLS_IN_FLIGHT, DEFAULT_MAX_CONCURRENCY,
    DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_UNWRITTEN_BYTES, DEFAULT_PAGE_SIZE,
    DEFAULT_SHUTDOWN_DEADLINE, HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION,
    LATEST_PROTOCOL_VERSION, PROTOCOL_VERSIONS,
};

use std::io::{BufRead, Write};

#[cfg(feature = "plugin")]
use crate::plugin::HttpPlugin;
use crate::tool::ToolRegistry;

/// Serves `registry` as an MCP server until `reader` ends, with every default of
/// [`Server`].
///
/// # Errors
///
/// As [`Server::serve`]: reading or writing failed.
///
/// # Examples
///
/// ```
/// use httptool::tool::ToolRegistry;
///
/// let input = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
/// let mut output = Vec::new();
/// httptool::mcp::serve(&ToolRegistry::new(), input.as_bytes(), &mut output)?;
/// assert_eq!(output, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
/// # Ok::<(), httptool::mcp::Error>(())
/// ```
pub fn serve<R, W>(registry: &ToolRegistry, reader: R, writer: W) -> Result<(), Error>
where
    R: BufRead,
    W: Write + Send,
{
    Server::new().serve(registry, reader, writer)
}

/// The `instructions` for a server of these plugins: one line for each plugin that has a
/// description (`weather: City weather`), or `None` when none has. Built with the `plugin`
/// feature.
///
/// # Examples
///
/// ```
/// use httptool::plugin::{Endpoint, HttpPlugin};
///
/// let plugin = HttpPlugin::builder("weather", "https://api.example.com")
///     .description("City weather")
///     .endpoint(Endpoint::get("getWeather", "/v1/weather"))
///     .build()?;
/// assert_eq!(
///     httptool::mcp::plugin_instructions(&[plugin]).as_deref(),
///     Some("Tools of these APIs:\n- weather: City weather")
/// );
/// # Ok::<(), httptool::plugin::Error>(())
/// ```
#[cfg(feature = "plugin")]
pub fn plugin_instructions(plugins: &[HttpPlugin]) -> Option<String> {
    let mut text = String::from("Tools of these APIs:");
    let mut any = false;
    for plugin in plugins {
        let description = plugin.description().trim();
        if description.is_empty() {
            continue;
        }
        any = true;
        text.push_str("\n- ");
        text.push_str(plugin.name());
        text.push_str(": ");
        text.push_str(description);
    }
    if any {
        Some(text)
    } else {
        None
    }
}
