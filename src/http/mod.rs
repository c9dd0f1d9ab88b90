//! HTTP/1.1: requests, responses, the [`Transport`] trait and the [`Client`] that implements it.
//!
//! The client speaks HTTP/1.1 (RFC 9110, RFC 9112) over keep-alive connections pooled per
//! origin, writes each request in one system call, reads `Content-Length`, chunked and
//! read-to-close bodies, and skips interim 1xx responses. Every size it reads is bounded
//! (`max_*`) and every wait is bounded (`timeout_*`), with one deadline for the whole call;
//! hitting a bound is an error naming it, never a truncated success. Malformed framing
//! (conflicting `Content-Length`s, `Transfer-Encoding` with `Content-Length`, unknown transfer
//! codings, obsolete line folding) is an error and closes the connection. A pooled
//! connection is checked before every reuse: one the server closed, or with any byte already
//! waiting on it (a late second response, a HEAD response's body), is closed, never read as
//! the next call's answer.
//!
//! `https` needs the `tls` feature (rustls with the ring provider, and Mozilla's roots from
//! webpki-roots): certificates are always verified, against those roots and any added with
//! `Config::add_root_certificates_pem`; through a proxy, https goes in a `CONNECT` tunnel.
//! A refused certificate is [`ErrorKind::Certificate`], saying why. Without the feature an
//! `https` URL is [`ErrorKind::TlsUnavailable`], whose message names the feature.
//!
//! A [`Transport`] is anything that turns a [`Request`] into a [`Response`]: the layers above
//! take one, so an application can plug in its own (an async runtime's client, a test double).
//!
//! # Layout
//!
//! | file | what it holds |
//! | --- | --- |
//! | `client.rs` | [`Client`]: hops, redirects, retries, the pool |
//! | `exchange.rs` | one request and response on a connection |
//! | `conn.rs` | a connection's buffer, and the deadline |
//! | `net.rs` | the only code that opens sockets: resolve, check, connect |
//! | `tls.rs` | the only code that names rustls types: roots, handshake, the TLS stream |
//! | `pool.rs` | idle connections |
//! | `replay.rs` | [`read_response`]: the same reader over bytes in memory |
//! | `server.rs` | `HttpServer` (the `server` feature): the server side, bounded and with deadlines, for MCP over HTTP |
//! | `wire/` | message syntax, pure: response head, chunk lines, request heads (written and read) |
//! | `media.rs` | [`media`]: which media types are JSON or a form, a response's file name |
//! | `address.rs`, `redirect.rs`, `retry.rs`, `proxy.rs` | the policies, pure |
//!
//! # Examples
//!
//! ```no_run
//! use httptool::http::{Client, Request, Transport};
//!
//! let client = Client::new();
//! let request = Request::get("http://api.example.com/v1/weather?q=Hangzhou")?
//!     .with_header("Accept", "application/json")?;
//! let response = client.send(&request)?;
//! println!("{} {}", response.status(), String::from_utf8_lossy(response.body()));
//! # Ok::<(), httptool::http::Error>(())
//! ```

mod address;
mod client;
mod clock;
mod config;
mod conn;
mod credentials;
mod error;
mod exchange;
mod headers;
pub mod media;
mod method;
mod net;
mod pool;
mod proxy;
mod redirect;
mod replay;
mod request;
mod response;
mod retry;
#[cfg(feature = "server")]
mod server;
#[cfg(feature = "tls")]
mod tls;
mod wire;

use std::sync::Arc;

pub use self::address::{AddressClass, AddressPolicy};
pub use self::client::Client;
pub use self::clock::{ManualTime, RealTime, TimeSource};
#[cfg(feature = "tls")]
pub use self::config::DEFAULT_WEBPKI_ROOTS;
pub use self::config::{
    Config, RequestOptions, DEFAULT_MAX_CHUNK_LINE, DEFAULT_MAX_HEAD, DEFAULT_MAX_HEADERS,
    DEFAULT_MAX_IDLE_AGE, DEFAULT_MAX_IDLE_PER_ORIGIN, DEFAULT_MAX_IDLE_TOTAL,
    DEFAULT_MAX_REDIRECTS, DEFAULT_MAX_REQUEST_TARGET, DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_MAX_STATUS_LINE, DEFAULT_RETRY_MAX_WAIT, DEFAULT_RETRY_WAIT, DEFAULT_TIMEOUT_CALL,
    DEFAULT_TIMEOUT_CONNECT, DEFAULT_TIMEOUT_READ, DEFAULT_TIMEOUT_WRITE, DEFAULT_USER_AGENT,
};
pub(crate) use self::credentials::base64_decode;
pub use self::credentials::{basic_auth, is_credential_name};
pub use self::error::{CertificateProblem, Error, ErrorKind, Limit, Malformed, Timeout};
pub(crate) use self::headers::is_token;
pub use self::headers::Headers;
pub use self::method::{ExtensionMethod, Method, MAX_METHOD_LEN};
pub use self::proxy::{Proxy, ProxyConfig};
pub use self::redirect::{RedirectPolicy, RedirectStop};
pub use self::replay::read_response;
pub(crate) use self::request::is_host as is_host_header;
pub use self::request::{BodyStream, HeadHook, Request, Secrets};
pub use self::response::{Response, Version};
pub(crate) use self::retry::parse_retry_after;
pub use self::retry::RetryPolicy;
#[cfg(feature = "server")]
pub use self::server::{
    read_request, HttpServer, RequestError, RequestHandler, ServerConfig, ServerRequest,
    ServerResponse, StreamFn, DEFAULT_SERVER_MAX_BODY, DEFAULT_SERVER_MAX_CONNECTIONS,
    DEFAULT_SERVER_TIMEOUT_BODY, DEFAULT_SERVER_TIMEOUT_HEAD, DEFAULT_SERVER_TIMEOUT_IDLE,
    DEFAULT_SERVER_TIMEOUT_WRITE,
};

/// Sends a request and returns its final response.
///
/// [`Client`] is the implementation this crate provides. Implement it to send requests some
/// other way (an async runtime's client behind a blocking call, a recording test double); the
/// layers above `http` use only this trait. Implementations are shared between threads.
///
/// A non-2xx status is a `Response`, not an error: errors are for requests that got no
/// usable response.
pub trait Transport: Send + Sync {
    /// Sends `request`, following redirects as its policy says, and returns the response.
    ///
    /// # Errors
    ///
    /// An [`Error`] whose [`kind`](Error::kind) says what failed.
    fn send(&self, request: &Request) -> Result<Response, Error>;
}

impl<T: Transport + ?Sized> Transport for &T {
    fn send(&self, request: &Request) -> Result<Response, Error> {
        (**self).send(request)
    }
}

impl<T: Transport + ?Sized> Transport for Box<T> {
    fn send(&self, request: &Request) -> Result<Response, Error> {
        (**self).send(request)
    }
}

impl<T: Transport + ?Sized> Transport for Arc<T> {
    fn send(&self, request: &Request) -> Result<Response, Error> {
        (**self).send(request)
    }
}
