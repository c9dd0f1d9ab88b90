//! httptool turns HTTP/REST APIs into tools a language model can call.
//!
//! An agent developer declares an API once (a base URL, static headers, and endpoints with
//! their parameters); httptool turns each endpoint into a tool specification the model reads
//! (name, description, JSON Schema) and an executor that takes the model's call, builds a
//! request the model cannot steer elsewhere, sends it, and returns a result the model can act
//! on, errors included.
//!
//! The default build has no dependencies: the JSON parser and writer, URL handling and the
//! HTTP/1.1 client are the crate's own, and the crate forbids `unsafe` code.
//!
//! # Layers
//!
//! Each module uses only the modules listed below it:
//!
//! | module | what it holds |
//! | --- | --- |
//! | [`mcp`] | the Model Context Protocol server over stdio |
//! | [`curl`], [`openapi`] | curl commands to plugins and back; OpenAPI documents to plugins |
//! | [`plugin`] | declared HTTP endpoints become tools |
//! | [`tool`] | tool specs, calls, outputs, the registry and provider formats |
//! | [`http`] | requests, responses and the HTTP/1.1 client |
//! | [`url`] | URL parsing, percent-encoding and query strings |
//! | [`json`](mod@json) | the JSON value, parser and writer |
//!
//! Each module has its own error type; [`Error`] wraps them all for code that handles errors
//! in one place.
//!
//! # Design
//!
//! The [`design`] pages explain the crate to the people who read its code:
//! [the layers](design::architecture), [the behaviour of every endpoint](design::endpoints),
//! [the security model](design::security) and [the performance notes](design::performance).

#![forbid(unsafe_code)]
#![deny(missing_docs)]
// A lower layer keeps crate-internal helpers that only the layers above it call (a base64
// decoder in http for plugin and curl, a quoting helper in tool for plugin and mcp); a build
// without those layers leaves them unused. Use only grows as features are added, so the full
// build, which clippy checks with warnings denied, is where dead code is caught.
#![cfg_attr(
    not(all(
        feature = "curl",
        feature = "openapi",
        feature = "mcp",
        feature = "yaml"
    )),
    allow(dead_code, unused_imports, rustdoc::broken_intra_doc_links)
)]

// A table of test cases for a pure function, one `#[test]` a row:
// `cases!(f { name: input, ... => expected; })` asserts `f(input, ...) == expected`.
#[cfg(test)]
#[allow(unused_macros)] // a build of some features leaves out every layer that uses it
macro_rules! cases {
    ($function:ident { $($name:ident: $($input:expr),+ => $expected:expr;)* }) => {
        $(
            #[test]
            fn $name() {
                assert_eq!($function($($input),+), $expected);
            }
        )*
    };
}

// Numbers in URLs and HTTP fields; a build of json alone reads none.
#[allow(dead_code)]
mod decimal;
// Basic credentials (http) and the bytes of attachments (tool).
#[cfg(any(feature = "http", feature = "tool"))]
mod base64;
mod error;
// Work split on scoped threads (compiling plugins, importing, the pretty writer).
#[cfg(feature = "plugin")]
mod parallel;
// SHA-256, HMAC and Digest's MD5 for the auth schemes that sign requests, and FNV-1a for
// names and boundaries derived from content; below `http`.
#[cfg(any(feature = "http", feature = "mcp"))]
#[cfg_attr(not(feature = "http"), allow(dead_code))]
mod hash;
#[cfg(test)]
mod test_rng;
// Used by every layer above json; a build of json alone has no message that quotes.
#[allow(dead_code)]
mod quote;
// Every caller is in `tool` or a layer that turns it on (plugin, curl, openapi).
#[cfg(feature = "tool")]
mod sort;

pub use error::Error;

// Each layer above json and url is a cargo feature of the same name that turns on the layers
// it uses (Cargo.toml, README "Features"); a feature only decides what is compiled.
#[cfg(feature = "curl")]
pub mod curl;
// The design pages describe and link every layer (the server and the threaded writer too),
// so they are built with the whole crate: `cli` implies every feature but `tls`.
#[cfg(feature = "cli")]
pub mod design;
#[cfg(feature = "har")]
pub mod har;
#[cfg(feature = "http")]
pub mod http;
pub mod json;
#[cfg(feature = "mcp")]
pub mod mcp;
#[cfg(feature = "openapi")]
pub mod openapi;
#[cfg(feature = "plugin")]
pub mod plugin;
#[cfg(feature = "postman")]
pub mod postman;
#[cfg(feature = "tool")]
pub mod tool;
pub mod url;
#[cfg(feature = "yaml")]
pub mod yaml;

// The README's examples run as doc tests, so the README cannot drift from the API. They use
// every layer, so they run when the default features are on.
#[cfg(all(doctest, feature = "cli"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
