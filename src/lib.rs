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

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod error;
// Used by every layer above json; a build of json alone has no message that quotes.
#[allow(dead_code)]
mod quote;

pub use error::Error;

pub mod curl;
pub mod http;
pub mod json;
pub mod mcp;
pub mod openapi;
pub mod plugin;
pub mod tool;
pub mod url;
pub mod yaml;

// The README's examples run as doc tests, so the README cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
