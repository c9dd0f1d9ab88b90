//! Every setting of the client and its default, in one place, and the per-request overrides.

use std::sync::Arc;
use std::time::Duration;

use super::address::AddressPolicy;
use super::clock::{RealTime, TimeSource, Timeouts};
use super::proxy::ProxyConfig;
use super::redirect::RedirectPolicy;
use super::retry::RetryPolicy;
#[cfg(feature = "tls")]
use super::{error::Error, tls::Trust};

/// Connecting: resolving the host name, and each address tried. Defaults to 10 seconds.
pub const DEFAULT_TIMEOUT_CONNECT: Duration = Duration::from_secs(10);
/// Each wait for response bytes. Defaults to 30 seconds.
pub const DEFAULT_TIMEOUT_READ: Duration = Duration::from_secs(30);
/// Each wait to send request bytes. Defaults to 30 seconds.
pub const DEFAULT_TIMEOUT_WRITE: Duration = Duration::from_secs(30);
/// The whole call, redirects and retries included. Defaults to 60 seconds.
pub const DEFAULT_TIMEOUT_CALL: Duration = Duration::from_secs(60);
/// Bytes of a response body. Defaults to 10 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 10 * 1024 * 1024;
/// Bytes of a response head. Defaults to 64 KiB.
pub const DEFAULT_MAX_HEAD: usize = 64 * 1024;
/// Header fields in a response head. Defaults to 100.
pub const DEFAULT_MAX_HEADERS: usize = 100;
/// Bytes of a status line. Defaults to 8 KiB.
pub const DEFAULT_MAX_STATUS_LINE: usize = 8 * 1024;
/// Bytes of a chunk-size line. Defaults to 1 KiB.
pub const DEFAULT_MAX_CHUNK_LINE: usize = 1024;
/// Bytes of a request target. Defaults to 8 KiB.
pub const DEFAULT_MAX_REQUEST_TARGET: usize = 8 * 1024;
// The policies' defaults live beside the policies (they use them), and are listed here too.
pub use super::redirect::DEFAULT_MAX_REDIRECTS;
pub use super::retry::{DEFAULT_RETRY_MAX_WAIT, DEFAULT_RETRY_WAIT};
/// Idle connections kept per origin. Defaults to 4.
pub const DEFAULT_MAX_IDLE_PER_ORIGIN: usize = 4;
/// Idle connections kept in all. Defaults to 32.
pub const DEFAULT_MAX_IDLE_TOTAL: usize = 32;
/// How long an idle connection is kept. Defaults to 15 seconds.
pub const DEFAULT_MAX_IDLE_AGE: Duration = Duration::from_secs(15);
/// The `User-Agent` sent when the request sets none. Defaults to `httptool/<version>`.
pub const DEFAULT_USER_AGENT: &str = concat!("httptool/", env!("CARGO_PKG_VERSION"));
#[cfg(feature = "tls")]
pub use super::tls::DEFAULT_WEBPKI_ROOTS;

/// The size limits of one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// `max_response_bytes`.
    pub max_body: usize,
    pub max_head: usize,
    pub max_headers: usize,
    pub max_status_line: usize,
    pub max_chunk_line: usize,
    pub max_request_target: usize,
}

/// Configuration of a [`Client`](super::Client): limits, timeouts, policies, pool and proxy.
///
/// Built with setters named after the setting, each documented with its default; every
/// default is also a public constant (`DEFAULT_*`). Limits and timeouts, and the redirect,
/// address and retry policies, can be overridden per request with
/// [`RequestOptions`].
///
/// A timeout of a very long duration (`Duration::MAX`) means no timeout. A limit of
/// `usize::MAX` means no limit.
///
/// # Examples
///
/// ```
/// use httptool::http::{Client, Config, RedirectPolicy};
/// use std::time::Duration;
///
/// let client = Client::with_config(
///     Config::new()
///         .timeout_call(Duration::from_secs(20))
///         .max_response_bytes(1024 * 1024)
///         .redirect(RedirectPolicy::same_origin()),
/// );
/// # drop(client);
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    pub(crate) limits: Limits,
    pub(crate) timeouts: Timeouts,
    pub(crate) redirect: RedirectPolicy,
    pub(crate) address: AddressPolicy,
    pub(crate) retry: RetryPolicy,
    pub(crate) max_idle_per_origin: usize,
    pub(crate) max_idle_total: usize,
    pub(crate) max_idle_age: Duration,
    pub(crate) user_agent: Option<String>,
    pub(crate) proxy: ProxyConfig,
    #[cfg(feature = "tls")]
    pub(crate) trust: Trust,
    pub(crate) time_source: Arc<dyn TimeSource>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            limits: Limits {
                max_body: DEFAULT_MAX_RESPONSE_BYTES,
                max_head: DEFAULT_MAX_HEAD,
                max_headers: DEFAULT_MAX_HEADERS,
                max_status_line: DEFAULT_MAX_STATUS_LINE,
                max_chunk_line: DEFAULT_MAX_CHUNK_LINE,
                max_request_target: DEFAULT_MAX_REQUEST_TARGET,
            },
            timeouts: Timeouts {
                connect: DEFAULT_TIMEOUT_CONNECT,
                read: DEFAULT_TIMEOUT_READ,
                write: DEFAULT_TIMEOUT_WRITE,
                call: DEFAULT_TIMEOUT_CALL,
            },
            redirect: RedirectPolicy::default(),
            address: AddressPolicy::default(),
            retry: RetryPolicy::default(),
            max_idle_per_origin: DEFAULT_MAX_IDLE_PER_ORIGIN,
            max_idle_total: DEFAULT_MAX_IDLE_TOTAL,
            max_idle_age: DEFAULT_MAX_IDLE_AGE,
            user_agent: Some(DEFAULT_USER_AGENT.to_string()),
            proxy: ProxyConfig::default(),
            #[cfg(feature = "tls")]
            trust: Trust::default(),
            time_source: Arc::new(RealTime),
        }
    }
}

impl Config {
    /// The defaults. Reads nothing from the environment.
    pub fn new() -> Config {
        Config::default()
    }

    /// Time to resolve the host and to connect to each of its addresses (each address gets
    /// the full time, within `timeout_call`). Defaults to [`DEFAULT_TIMEOUT_CONNECT`] (10 s).
    /// Exceeded: [`ErrorKind::Timeout`](super::ErrorKind::Timeout) with
    /// [`Timeout::Connect`](super::Timeout::Connect).
    #[must_use]
    pub fn timeout_connect(mut self, timeout: Duration) -> Config {
        self.timeouts.connect = timeout;
        self
    }

    /// Longest wait for response bytes, each time the client waits. Defaults to
    /// [`DEFAULT_TIMEOUT_READ`] (30 s). Exceeded: `Timeout` with `Timeout::Read`.
    #[must_use]
    pub fn timeout_read(mut self, timeout: Duration) -> Config {
        self.timeouts.read = timeout;
        self
    }

    /// Longest wait to send request bytes, each time the client waits. Defaults to
    /// [`DEFAULT_TIMEOUT_WRITE`] (30 s). Exceeded: `Timeout` with `Timeout::Write`.
    #[must_use]
    pub fn timeout_write(mut self, timeout: Duration) -> Config {
        self.timeouts.write = timeout;
        self
    }

    /// The whole call: connecting, sending, reading, redirects and retries. It bounds every
    /// other timeout (one deadline drives every socket timeout). Defaults to
    /// [`DEFAULT_TIMEOUT_CALL`] (60 s). Exceeded: `Timeout` with `Timeout::Call`.
    #[must_use]
    pub fn timeout_call(mut self, timeout: Duration) -> Config {
        self.timeouts.call = timeout;
        self
    }

    /// Bytes of a response body (after chunked decoding). Defaults to
    /// [`DEFAULT_MAX_RESPONSE_BYTES`] (10 MiB). Exceeded:
    /// [`ErrorKind::LimitExceeded`](super::ErrorKind::LimitExceeded) with
    /// [`Limit::Body`](super::Limit::Body), never a truncated body. The plugin file's
    /// `max_response_bytes` sets it.
    #[must_use]
    pub fn max_response_bytes(mut self, bytes: usize) -> Config {
        self.limits.max_body = bytes;
        self
    }

    /// Bytes of a response head, interim 1xx heads included. Defaults to
    /// [`DEFAULT_MAX_HEAD`] (64 KiB). Exceeded: `LimitExceeded` with `Limit::Head`.
    #[must_use]
    pub fn max_head(mut self, bytes: usize) -> Config {
        self.limits.max_head = bytes;
        self
    }

    /// Header fields in a response head (and trailer fields after a chunked body). Defaults
    /// to [`DEFAULT_MAX_HEADERS`] (100). Exceeded: `LimitExceeded` with `Limit::Headers`.
    #[must_use]
    pub fn max_headers(mut self, count: usize) -> Config {
        self.limits.max_headers = count;
        self
    }

    /// Bytes of the status line, without its line ending. Defaults to
    /// [`DEFAULT_MAX_STATUS_LINE`] (8 KiB). Exceeded: `LimitExceeded` with `Limit::StatusLine`.
    #[must_use]
    pub fn max_status_line(mut self, bytes: usize) -> Config {
        self.limits.max_status_line = bytes;
        self
    }

    /// Bytes of a chunk-size line (size and extensions), without its line ending. Defaults to
    /// [`DEFAULT_MAX_CHUNK_LINE`] (1 KiB). Exceeded: `LimitExceeded` with `Limit::ChunkLine`.
    #[must_use]
    pub fn max_chunk_line(mut self, bytes: usize) -> Config {
        self.limits.max_chunk_line = bytes;
        self
    }

    /// Bytes of the request target (path and query; the absolute URL through a proxy),
    /// checked before anything is sent. Defaults to [`DEFAULT_MAX_REQUEST_TARGET`] (8 KiB).
    /// Exceeded: `LimitExceeded` with `Limit::RequestTarget`.
    #[must_use]
    pub fn max_request_target(mut self, bytes: usize) -> Config {
        self.limits.max_request_target = bytes;
        self
    }

    /// Which redirects are followed. Defaults to [`RedirectPolicy::default`]: up to 5, any
    /// origin, never from https to http, credentials dropped when the origin changes.
    #[must_use]
    pub fn redirect(mut self, policy: RedirectPolicy) -> Config {
        self.redirect = policy;
        self
    }

    /// Which hosts and addresses may be reached. Defaults to [`AddressPolicy::allow_all`].
    #[must_use]
    pub fn address_policy(mut self, policy: AddressPolicy) -> Config {
        self.address = policy;
        self
    }

    /// Retries of 429 and 503 responses. Defaults to [`RetryPolicy::none`]. (A request that
    /// failed before any response byte is retried once when its method is idempotent,
    /// whatever this says.)
    #[must_use]
    pub fn retry(mut self, policy: RetryPolicy) -> Config {
        self.retry = policy;
        self
    }

    /// Idle connections kept per origin (scheme, host, port). 0 turns pooling off. Defaults
    /// to [`DEFAULT_MAX_IDLE_PER_ORIGIN`] (4).
    #[must_use]
    pub fn max_idle_per_origin(mut self, count: usize) -> Config {
        self.max_idle_per_origin = count;
        self
    }

    /// Idle connections kept in all; the oldest go first. Defaults to
    /// [`DEFAULT_MAX_IDLE_TOTAL`] (32).
    #[must_use]
    pub fn max_idle_total(mut self, count: usize) -> Config {
        self.max_idle_total = count;
        self
    }

    /// How long an idle connection is kept before it is closed. Defaults to
    /// [`DEFAULT_MAX_IDLE_AGE`] (15 s).
    #[must_use]
    pub fn max_idle_age(mut self, age: Duration) -> Config {
        self.max_idle_age = age;
        self
    }

    /// The `User-Agent` sent when a request sets none; `None` sends none. Defaults to
    /// [`DEFAULT_USER_AGENT`]. A value holding a control character makes every call fail with
    /// [`ErrorKind::InvalidHeaderValue`](super::ErrorKind::InvalidHeaderValue) before anything
    /// is sent.
    #[must_use]
    pub fn user_agent(mut self, agent: Option<&str>) -> Config {
        self.user_agent = agent.map(str::to_string);
        self
    }

    /// The proxies. Defaults to none; [`ProxyConfig::from_env`] reads them from the
    /// environment the way curl does, when the caller asks.
    #[must_use]
    pub fn proxy(mut self, proxy: ProxyConfig) -> Config {
        self.proxy = proxy;
        self
    }

    /// Trusts the certificates in `pem` as roots for https, besides Mozilla's (see
    /// [`webpki_roots`](Config::webpki_roots)): a company CA, or a development server's
    /// self-signed certificate. Every `BEGIN CERTIFICATE` section is added; other sections
    /// (a private key given by mistake) are skipped. May be called more than once. Defaults
    /// to no added roots; the platform's certificate store is never read.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidRootCertificate`](super::ErrorKind::InvalidRootCertificate) when
    /// `pem` is not valid PEM, holds no certificate, or holds one that cannot be parsed; then
    /// nothing of it is added. The message never quotes the input.
    ///
    /// # Security
    ///
    /// A root vouches for every host name: add only a CA you would trust with all your https
    /// traffic, or a self-signed certificate for the one server it belongs to.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use httptool::http::{Client, Config};
    ///
    /// let pem = std::fs::read("/etc/ssl/company-ca.pem")?;
    /// let client = Client::with_config(
    ///     Config::new()
    ///         .add_root_certificates_pem(&pem)?
    ///         .webpki_roots(false), // internal services only: trust the company CA alone
    /// );
    /// # drop(client);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "tls")]
    pub fn add_root_certificates_pem(mut self, pem: &[u8]) -> Result<Config, Error> {
        self.trust.add_pem(pem)?;
        Ok(self)
    }

    /// Whether https trusts Mozilla's root certificates, as shipped in webpki-roots. With
    /// `false`, only the roots added with
    /// [`add_root_certificates_pem`](Config::add_root_certificates_pem) are trusted (none
    /// added: every https request fails with
    /// [`CertificateProblem::UnknownIssuer`](super::CertificateProblem::UnknownIssuer)).
    /// Defaults to [`DEFAULT_WEBPKI_ROOTS`] (`true`).
    ///
    /// There is no setting that turns certificate verification off: trust a test server by
    /// adding its certificate as a root instead.
    #[cfg(feature = "tls")]
    #[must_use]
    pub fn webpki_roots(mut self, enabled: bool) -> Config {
        self.trust.set_webpki_roots(enabled);
        self
    }

    /// Where the client reads the time and how it waits: the call's deadline
    /// (`timeout_call`), the wait before a retry and the date `Retry-After` is measured
    /// from, and the age of idle connections (`max_idle_age`). The socket's own timeouts
    /// are the operating system's timers and always run in real time. Defaults to
    /// [`RealTime`]; a [`ManualTime`](super::ManualTime) makes those waits take no real time
    /// in tests.
    #[must_use]
    pub fn time_source(mut self, source: impl TimeSource + 'static) -> Config {
        self.time_source = Arc::new(source);
        self
    }
}

/// Per-request overrides of the client's [`Config`]: each setting left unset takes the
/// client's value.
///
/// ```
/// use httptool::http::{Request, RequestOptions, RedirectPolicy};
/// use std::time::Duration;
///
/// let request = Request::get("http://127.0.0.1:9/slow")?.with_options(
///     RequestOptions::new()
///         .timeout_read(Duration::from_millis(300))
///         .max_response_bytes(4096)
///         .redirect(RedirectPolicy::none()),
/// );
/// # drop(request);
/// # Ok::<(), httptool::http::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestOptions {
    timeout_connect: Option<Duration>,
    timeout_read: Option<Duration>,
    timeout_write: Option<Duration>,
    timeout_call: Option<Duration>,
    max_response_bytes: Option<usize>,
    max_head: Option<usize>,
    max_headers: Option<usize>,
    max_status_line: Option<usize>,
    max_chunk_line: Option<usize>,
    max_request_target: Option<usize>,
    redirect: Option<RedirectPolicy>,
    address: Option<AddressPolicy>,
    retry: Option<RetryPolicy>,
}

impl RequestOptions {
    /// Nothing overridden.
    pub fn new() -> RequestOptions {
        RequestOptions::default()
    }

    /// Overrides [`Config::timeout_connect`].
    #[must_use]
    pub fn timeout_connect(mut self, timeout: Duration) -> RequestOptions {
        self.timeout_connect = Some(timeout);
        self
    }

    /// Overrides [`Config::timeout_read`].
    #[must_use]
    pub fn timeout_read(mut self, timeout: Duration) -> RequestOptions {
        self.timeout_read = Some(timeout);
        self
    }

    /// Overrides [`Config::timeout_write`].
    #[must_use]
    pub fn timeout_write(mut self, timeout: Duration) -> RequestOptions {
        self.timeout_write = Some(timeout);
        self
    }

    /// Overrides [`Config::timeout_call`].
    #[must_use]
    pub fn timeout_call(mut self, timeout: Duration) -> RequestOptions {
        self.timeout_call = Some(timeout);
        self
    }

    /// Overrides [`Config::max_response_bytes`].
    #[must_use]
    pub fn max_response_bytes(mut self, bytes: usize) -> RequestOptions {
        self.max_response_bytes = Some(bytes);
        self
    }

    /// Overrides [`Config::max_head`].
    #[must_use]
    pub fn max_head(mut self, bytes: usize) -> RequestOptions {
        self.max_head = Some(bytes);
        self
    }

    /// Overrides [`Config::max_headers`].
    #[must_use]
    pub fn max_headers(mut self, count: usize) -> RequestOptions {
        self.max_headers = Some(count);
        self
    }

    /// Overrides [`Config::max_status_line`].
    #[must_use]
    pub fn max_status_line(mut self, bytes: usize) -> RequestOptions {
        self.max_status_line = Some(bytes);
        self
    }

    /// Overrides [`Config::max_chunk_line`].
    #[must_use]
    pub fn max_chunk_line(mut self, bytes: usize) -> RequestOptions {
        self.max_chunk_line = Some(bytes);
        self
    }

    /// Overrides [`Config::max_request_target`].
    #[must_use]
    pub fn max_request_target(mut self, bytes: usize) -> RequestOptions {
        self.max_request_target = Some(bytes);
        self
    }

    /// Overrides [`Config::redirect`].
    #[must_use]
    pub fn redirect(mut self, policy: RedirectPolicy) -> RequestOptions {
        self.redirect = Some(policy);
        self
    }

    /// Overrides [`Config::address_policy`]: the request's policy replaces the client's.
    #[must_use]
    pub fn address_policy(mut self, policy: AddressPolicy) -> RequestOptions {
        self.address = Some(policy);
        self
    }

    /// Overrides [`Config::retry`].
    #[must_use]
    pub fn retry(mut self, policy: RetryPolicy) -> RequestOptions {
        self.retry = Some(policy);
        self
    }
}

/// The settings one call runs with: the client's, overridden by the request's.
pub(crate) struct Settings<'a> {
    pub limits: Limits,
    pub timeouts: Timeouts,
    pub redirect: &'a RedirectPolicy,
    pub address: &'a AddressPolicy,
    pub retry: &'a RetryPolicy,
}

impl<'a> Settings<'a> {
    pub fn new(config: &'a Config, options: &'a RequestOptions) -> Settings<'a> {
        let (l, t, o) = (&config.limits, &config.timeouts, options);
        Settings {
            limits: Limits {
                max_body: o.max_response_bytes.unwrap_or(l.max_body),
                max_head: o.max_head.unwrap_or(l.max_head),
                max_headers: o.max_headers.unwrap_or(l.max_headers),
                max_status_line: o.max_status_line.unwrap_or(l.max_status_line),
                max_chunk_line: o.max_chunk_line.unwrap_or(l.max_chunk_line),
                max_request_target: o.max_request_target.unwrap_or(l.max_request_target),
            },
            timeouts: Timeouts {
                connect: o.timeout_connect.unwrap_or(t.connect),
                read: o.timeout_read.unwrap_or(t.read),
                write: o.timeout_write.unwrap_or(t.write),
                call: o.timeout_call.unwrap_or(t.call),
            },
            redirect: o.redirect.as_ref().unwrap_or(&config.redirect),
            address: o.address.as_ref().unwrap_or(&config.address),
            retry: o.retry.as_ref().unwrap_or(&config.retry),
        }
    }
}
