//! The helpers of the integration tests, one module tree for every test file of
//! `tests/main.rs` (`use crate::support::...`). Each part is built with the features it needs;
//! a test file uses the parts it needs, so a part unused in one feature set is no warning.

#![allow(dead_code, unused_imports)]

/// A loopback HTTP/1.1 test server that does what each test tells it.
pub mod server;
pub use server::{ok, Peer, Received, Server};

/// Signals between a test and its server thread, so bytes sent "later" do not race.
pub mod steps;

/// A loopback `CONNECT` proxy for https.
pub mod connect_proxy;

/// The built `httptool` binary run as a user would, and files for it to read.
#[cfg(feature = "cli")]
pub mod cli;

/// An MCP server session through an in-memory reader and writer.
#[cfg(feature = "mcp")]
pub mod mcp;

/// The real OpenAPI documents in `../shared/data/openapi/`.
#[cfg(all(feature = "openapi", feature = "yaml"))]
pub mod openapi;

/// The generated document of the OpenAPI benchmark, shared with `benches/openapi.rs`.
#[cfg(feature = "openapi")]
#[path = "../../benches/support/openapi_document.rs"]
pub mod openapi_document;

/// A recording transport for the plugin layer, and the loopback server.
#[cfg(feature = "plugin")]
pub mod plugin;

/// The seeded generator of every test, unit and integration: the crate's `src/test_rng.rs`.
#[path = "../../src/test_rng.rs"]
pub mod rng;

/// A loopback HTTPS test server with the certificates in `tests/data`.
#[cfg(feature = "tls")]
pub mod tls;

/// The weather tool and plugin several test files describe.
pub mod weather;
