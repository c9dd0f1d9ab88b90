//! The observability hook: every request a plugin's tool sends, and how it went.

use std::time::Duration;

use crate::http::{self, Method};

/// One request a tool sent and its outcome, as an [`Observer`] sees it. Every secret the
/// call sent (secret query values, auth, hidden values from the call context in the path) is
/// `***` in `url` and in `error`'s message; header values and bodies are not included.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Exchange<'a> {
    /// The tool (endpoint) name.
    pub tool: &'a str,
    /// The method.
    pub method: Method,
    /// The URL, secrets as `***`.
    pub url: &'a str,
    /// The final response's status, when one arrived.
    pub status: Option<u16>,
    /// From handing the request to the transport to its response or error.
    pub elapsed: Duration,
    /// Bytes of the request as written on the wire (head and body).
    pub bytes_sent: u64,
    /// Bytes read for the response (heads and body with framing; 0 from transports that do
    /// not read a socket).
    pub bytes_received: u64,
    /// The transport's error, when there was no response. Its `Display` holds no secret:
    /// a secret the call sent is `***` in the URL and detail it quotes.
    pub error: Option<&'a http::Error>,
}

/// Sees every request a plugin's tools send, with its status, time taken and sizes: for
/// logs, metrics and traces. Called on the calling thread after each exchange; keep it
/// quick.
///
/// Any `Fn(&Exchange)` closure that is `Send + Sync` is an observer.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use httptool::plugin::{Endpoint, Exchange, HttpPlugin};
///
/// let plugin = HttpPlugin::builder("weather", "http://127.0.0.1:9")
///     .endpoint(Endpoint::get("getWeather", "/v1/weather"))
///     .build()?
///     .with_observer(Arc::new(|e: &Exchange<'_>| {
///         eprintln!(
///             "{} {} {} -> {:?} in {:?} ({} bytes out, {} in)",
///             e.tool, e.method, e.url, e.status, e.elapsed, e.bytes_sent, e.bytes_received
///         );
///     }));
/// # drop(plugin);
/// # Ok::<(), httptool::plugin::Error>(())
/// ```
pub trait Observer: Send + Sync {
    /// Called once for every request sent.
    fn observe(&self, exchange: &Exchange<'_>);
}

impl<F> Observer for F
where
    F: Fn(&Exchange<'_>) + Send + Sync,
{
    fn observe(&self, exchange: &Exchange<'_>) {
        self(exchange)
    }
}
