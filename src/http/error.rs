//! The one error type of the `http` module.

use std::error::Error as StdError;
use std::fmt;
use std::io;
use std::net::IpAddr;
use std::time::Duration;

use super::address::AddressClass;
use crate::quote::pieces;
use crate::url;

/// A configurable limit, named after its setter.
///
/// `#[non_exhaustive]`: every new limit adds a variant.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// `max_response_bytes`: bytes of the response body (after chunked decoding).
    Body,
    /// `max_head`: bytes of the response head (status line, header fields, the empty line),
    /// interim 1xx heads included.
    Head,
    /// `max_headers`: header fields in the response head, or trailer fields after a chunked body.
    Headers,
    /// `max_status_line`: bytes of the status line, without its line ending.
    StatusLine,
    /// `max_chunk_line`: bytes of one chunk-size line (size and extensions), without its ending.
    ChunkLine,
    /// `max_request_target`: bytes of the request target (the path and query, or the absolute
    /// URL through a proxy).
    RequestTarget,
    /// `max_redirects`: redirects followed in one call.
    Redirects,
}

impl Limit {
    /// The name of the setting (`"max_response_bytes"`, ...), as in [`Config`](super::Config).
    pub fn setting(self) -> &'static str {
        match self {
            Limit::Body => "max_response_bytes",
            Limit::Head => "max_head",
            Limit::Headers => "max_headers",
            Limit::StatusLine => "max_status_line",
            Limit::ChunkLine => "max_chunk_line",
            Limit::RequestTarget => "max_request_target",
            Limit::Redirects => "max_redirects",
        }
    }

    fn subject(self) -> &'static str {
        match self {
            Limit::Body => "the response body",
            Limit::Head => "the response head",
            Limit::Headers => "the number of header fields",
            Limit::StatusLine => "the status line",
            Limit::ChunkLine => "a chunk-size line",
            Limit::RequestTarget => "the request target",
            Limit::Redirects => "the number of redirects",
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Limit::Headers => "fields",
            Limit::Redirects => "redirects",
            _ => "bytes",
        }
    }
}

/// A configurable timeout, named after its setter.
///
/// `#[non_exhaustive]`: a new timeout setting adds a variant.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Timeout {
    /// `timeout_connect`: resolving the host name, and each address tried.
    Connect,
    /// `timeout_read`: each wait for response bytes.
    Read,
    /// `timeout_write`: each wait to send request bytes.
    Write,
    /// `timeout_call`: the whole call, redirects and retries included.
    Call,
}

impl Timeout {
    /// The name of the setting (`"timeout_read"`, ...), as in [`Config`](super::Config).
    pub fn setting(self) -> &'static str {
        match self {
            Timeout::Connect => "timeout_connect",
            Timeout::Read => "timeout_read",
            Timeout::Write => "timeout_write",
            Timeout::Call => "timeout_call",
        }
    }
}

/// What was wrong with a response that broke HTTP/1.1 framing or syntax (RFC 9112). The
/// connection is closed after any of these.
///
/// `#[non_exhaustive]`: new framing problems will be told apart.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Malformed {
    /// The status line is not `HTTP/1.x NNN reason`.
    StatusLine,
    /// An HTTP version other than 1.0 and 1.1.
    Version,
    /// A header line without a colon, with whitespace before it, or with a name that is not
    /// a token.
    HeaderLine,
    /// A header value holding a control character (CR, LF, NUL, ...).
    HeaderValue,
    /// A header line continued on the next line (obsolete line folding, RFC 9112 section 5.2).
    ObsFold,
    /// A `Content-Length` that is not a number.
    ContentLength,
    /// Two different `Content-Length` values.
    ConflictingContentLength,
    /// `Transfer-Encoding` and `Content-Length` together (a request smuggling vector).
    TransferEncodingWithContentLength,
    /// A transfer coding other than `chunked` alone.
    UnknownTransferCoding,
    /// A chunk-size line that is not hex digits with optional extensions.
    ChunkSize,
    /// Chunk data not followed by a line ending.
    ChunkEnd,
    /// A malformed trailer field after the last chunk.
    Trailer,
    /// The connection closed in the middle of the response head.
    TruncatedHead,
}

impl Malformed {
    fn describe(self) -> &'static str {
        match self {
            Malformed::StatusLine => "invalid status line",
            Malformed::Version => {
                "unsupported http version (only HTTP/1.0 and HTTP/1.1 are spoken)"
            }
            Malformed::HeaderLine => "invalid header line",
            Malformed::HeaderValue => "control character in a header value",
            Malformed::ObsFold => "obsolete line folding in a header field",
            Malformed::ContentLength => "invalid content-length",
            Malformed::ConflictingContentLength => "two different content-length values",
            Malformed::TransferEncodingWithContentLength => {
                "transfer-encoding together with content-length"
            }
            Malformed::UnknownTransferCoding => {
                "unsupported transfer-encoding (only chunked is supported)"
            }
            Malformed::ChunkSize => "invalid chunk-size line",
            Malformed::ChunkEnd => "chunk data not followed by a line ending",
            Malformed::Trailer => "invalid trailer field",
            Malformed::TruncatedHead => "the connection closed in the middle of the response head",
        }
    }
}

/// Why the server's certificate was refused during the TLS handshake (the `tls` feature).
///
/// `#[non_exhaustive]`: new reasons will be told apart as the TLS library reports them.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CertificateProblem {
    /// The chain does not lead to a trusted root: a self-signed certificate, or one issued
    /// by a private CA that was not added with `Config::add_root_certificates_pem`.
    UnknownIssuer,
    /// The certificate is not valid for the URL's host: no DNS name (for a name) or IP
    /// address (for an address) among its subject alternative names matches.
    HostnameMismatch,
    /// The certificate's validity period has ended.
    Expired,
    /// The certificate's validity period has not started.
    NotYetValid,
    /// Any other reason: a bad signature, an encoding error, a wrong key usage, no
    /// certificate at all. The error's source has rustls's words for it.
    Invalid,
}

impl CertificateProblem {
    fn describe(self) -> &'static str {
        match self {
            CertificateProblem::UnknownIssuer => {
                "certificate not trusted: it is self-signed or its issuer is not a trusted root (add a private ca with `Config::add_root_certificates_pem`)"
            }
            CertificateProblem::HostnameMismatch => {
                "certificate hostname mismatch: the server's certificate is not valid for the host in the url"
            }
            CertificateProblem::Expired => {
                "certificate expired: the server's certificate is past its validity period (or this machine's clock is wrong)"
            }
            CertificateProblem::NotYetValid => {
                "certificate not yet valid: the server's certificate's validity period has not started (or this machine's clock is wrong)"
            }
            CertificateProblem::Invalid => "invalid certificate",
        }
    }
}

/// What went wrong, for code to match on. [`Error`]'s `Display` says it in words.
///
/// `#[non_exhaustive]`: new kinds will be added as failures are told apart more finely; match with
/// a `_` arm.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The URL was refused; the inner kind says why.
    InvalidUrl(url::ErrorKind),
    /// An HTTP method this crate does not speak.
    InvalidMethod,
    /// A header name that is not a token (RFC 9110 section 5.1).
    InvalidHeaderName,
    /// A header value holding a control character other than tab (CR, LF and NUL above all).
    InvalidHeaderValue,
    /// A header the client writes itself (`Host`, `Content-Length`, `Transfer-Encoding`) was
    /// set on the request.
    ManagedHeader,
    /// A proxy setting that cannot be used.
    InvalidProxy,
    /// The strict address policy was combined with a proxy but no host allowlist: through a
    /// proxy the addresses cannot be checked, so the host names must be.
    ProxyNeedsAllowlist,
    /// An `https` URL, and this build has no TLS (the `tls` feature). Never returned with it.
    TlsUnavailable,
    /// Certificates given to `Config::add_root_certificates_pem` that cannot be used: not
    /// PEM, no `CERTIFICATE` section, or a certificate that cannot be parsed.
    InvalidRootCertificate,
    /// The server's certificate was refused; the inner kind says why.
    Certificate(CertificateProblem),
    /// The TLS handshake failed for a reason other than the certificate: the server closed
    /// the connection or sent an alert, no protocol version or cipher suite in common, a
    /// host name that cannot be checked against a certificate.
    TlsHandshake,
    /// The proxy answered an https request's `CONNECT` with a status other than 2xx.
    TunnelRefused {
        /// The proxy's status code.
        status: u16,
    },
    /// The host name did not resolve.
    Resolve,
    /// No address of the host accepted a connection.
    Connect,
    /// The address policy refused every address of the host; the class of the first one.
    AddressRefused(AddressClass),
    /// The host is not in the address policy's host allowlist.
    HostNotAllowed,
    /// A timeout fired: which one, and its setting.
    Timeout {
        /// The timeout that fired.
        which: Timeout,
        /// Its setting.
        after: Duration,
    },
    /// A limit was exceeded: which one, its setting, and the size seen (a declared
    /// `Content-Length`, or how far reading got when the limit tripped, so at least
    /// `max + 1`).
    LimitExceeded {
        /// The limit.
        which: Limit,
        /// Its setting.
        max: u64,
        /// The size seen.
        seen: u64,
    },
    /// The response broke HTTP/1.1 syntax or framing.
    Malformed(Malformed),
    /// The connection closed (or was reset) before any byte of a response arrived.
    ConnectionClosed,
    /// The connection closed before the whole body arrived: never a truncated success. A
    /// body that ends with the connection is incomplete when the connection was reset, or,
    /// over https, closed without TLS `close_notify` (RFC 9112 section 9.8).
    IncompleteBody {
        /// The `Content-Length`, if the body had one (else it was chunked, or ended with the
        /// connection).
        expected: Option<u64>,
        /// Body bytes received.
        received: u64,
    },
    /// A redirect led back to a URL already visited in this call.
    RedirectLoop,
    /// Any other I/O error.
    Io,
}

/// An error from building or sending a request.
///
/// [`kind`](Error::kind) is stable for code; `Display` is written for a person and never holds
/// a header value, a query string or a body (URLs are shown without their query).
pub struct Error {
    inner: Box<Inner>,
}

struct Inner {
    kind: ErrorKind,
    /// The URL of the request, without its query.
    url: Option<String>,
    /// Extra words for the message; never secret.
    detail: Option<String>,
    source: Option<Box<dyn StdError + Send + Sync>>,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind) -> Error {
        Error {
            inner: Box::new(Inner {
                kind,
                url: None,
                detail: None,
                source: None,
            }),
        }
    }

    pub(crate) fn with_url(mut self, url: &url::Url) -> Error {
        if self.inner.url.is_none() {
            self.inner.url = Some(url.without_query().to_string());
        }
        self
    }

    /// The same error, its message naming the request's origin (`https://host:port/`) but
    /// not its path, for a reader who must not see the path.
    pub(crate) fn with_origin_only(mut self) -> Error {
        if let Some(url) = &mut self.inner.url {
            let authority = url::find_scheme_separator(url).map_or(0, |i| i + 3);
            if let Some(slash) = url[authority..].find('/') {
                url.truncate(authority + slash + 1);
            }
        }
        self
    }

    /// The same error with `redact` applied to the URL and the detail its message quotes:
    /// the plugin layer replaces the secrets a call sent (a hidden value in the path).
    pub(crate) fn redact_with(mut self, redact: impl Fn(&str) -> String) -> Error {
        if let Some(url) = &mut self.inner.url {
            *url = redact(url);
        }
        if let Some(detail) = &mut self.inner.detail {
            *detail = redact(detail);
        }
        self
    }

    pub(crate) fn with_detail(mut self, detail: impl Into<String>) -> Error {
        self.inner.detail = Some(detail.into());
        self
    }

    pub(crate) fn with_source(mut self, source: impl StdError + Send + Sync + 'static) -> Error {
        self.inner.source = Some(Box::new(source));
        self
    }

    pub(crate) fn io(kind: ErrorKind, err: io::Error) -> Error {
        Error::new(kind).with_source(err)
    }

    pub(crate) fn timeout(which: Timeout, after: Duration) -> Error {
        Error::new(ErrorKind::Timeout { which, after })
    }

    pub(crate) fn limit(which: Limit, max: usize, seen: u64) -> Error {
        let max = u64::try_from(max).unwrap_or(u64::MAX);
        Error::new(ErrorKind::LimitExceeded { which, max, seen })
    }

    pub(crate) fn malformed(what: Malformed) -> Error {
        Error::new(ErrorKind::Malformed(what))
    }

    pub(crate) fn refused(class: AddressClass, addr: IpAddr, host: &str) -> Error {
        Error::new(ErrorKind::AddressRefused(class))
            .with_detail(format!("address {addr} of host '{host}'"))
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The URL of the request that failed, without its query, when there was one.
    pub fn url(&self) -> Option<&str> {
        self.inner.url.as_deref()
    }

    /// Whether a timeout fired.
    pub fn is_timeout(&self) -> bool {
        matches!(self.inner.kind, ErrorKind::Timeout { .. })
    }

    fn detail(&self) -> &str {
        self.inner.detail.as_deref().unwrap_or("")
    }

    /// Writes ` (url)` when the error has a URL.
    fn write_at(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.inner.url {
            Some(url) => pieces(f, &[" (", url, ")"]),
            None => Ok(()),
        }
    }
}

/// What follows the words of a kind in its message: the URL (` (url)`), then the source
/// (`: source`), each when the error has one.
#[derive(Clone, Copy)]
struct Tail {
    at: bool,
    source: bool,
}

const AT: Tail = Tail {
    at: true,
    source: false,
};
const AT_SOURCE: Tail = Tail {
    at: true,
    source: true,
};
const NOTHING: Tail = Tail {
    at: false,
    source: false,
};

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let detail = self.detail();
        let tail = match self.inner.kind {
            ErrorKind::InvalidUrl(_) => match &self.inner.source {
                Some(source) => return write!(f, "{source}"),
                None => return f.write_str("invalid url"),
            },
            ErrorKind::InvalidMethod => {
                f.write_str("invalid http method: a method is a token of at most 32 letters, digits and !#$%&'*+-.^_`|~")?;
                NOTHING
            }
            ErrorKind::InvalidHeaderName => {
                pieces(
                    f,
                    &[
                        "invalid header name ",
                        detail,
                        ": a name is one or more of the letters, digits and !#$%&'*+-.^_`|~",
                    ],
                )?;
                NOTHING
            }
            ErrorKind::InvalidHeaderValue => {
                pieces(f, &["invalid value for header ", detail, ": it holds a control character (cr, lf, nul or another; only tab is allowed)"])?;
                NOTHING
            }
            ErrorKind::ManagedHeader => {
                pieces(f, &["header ", detail, " is written by the client from the url and body: remove it from the request"])?;
                AT
            }
            ErrorKind::InvalidProxy => {
                pieces(f, &["invalid proxy setting: ", detail])?;
                NOTHING
            }
            ErrorKind::ProxyNeedsAllowlist => {
                f.write_str(
                    "the strict address policy needs a host allowlist when a proxy is used",
                )?;
                self.write_at(f)?;
                f.write_str(
                    ": the proxy resolves names, so their addresses cannot be checked here",
                )?;
                NOTHING
            }
            ErrorKind::TlsUnavailable => {
                f.write_str(TLS_UNAVAILABLE)?;
                AT
            }
            ErrorKind::InvalidRootCertificate => {
                pieces(f, &["invalid root certificate: ", detail])?;
                Tail {
                    at: false,
                    source: true,
                }
            }
            ErrorKind::Certificate(problem) => {
                f.write_str(problem.describe())?;
                AT_SOURCE
            }
            ErrorKind::TlsHandshake => {
                match self.inner.detail {
                    Some(_) => pieces(f, &["tls handshake failed: ", detail])?,
                    None => f.write_str("tls handshake failed")?,
                }
                AT_SOURCE
            }
            ErrorKind::TunnelRefused { status: 407 } => {
                pieces(f, &["the proxy refused to open a tunnel to ", detail, " with status 407: it wants credentials, or refused those given (set them in the proxy url or with `Proxy::basic_auth`)"])?;
                AT
            }
            ErrorKind::TunnelRefused { status } => {
                write!(
                    f,
                    "the proxy refused to open a tunnel to {detail} with status {status}"
                )?;
                AT
            }
            ErrorKind::Resolve => {
                pieces(f, &["could not resolve host ", detail])?;
                AT_SOURCE
            }
            ErrorKind::Connect => {
                pieces(f, &["could not connect to ", detail])?;
                AT_SOURCE
            }
            ErrorKind::AddressRefused(class) => {
                pieces(
                    f,
                    &[
                        detail,
                        " is ",
                        class.describe(),
                        " and the address policy refuses it",
                    ],
                )?;
                AT
            }
            ErrorKind::HostNotAllowed => {
                pieces(
                    f,
                    &[
                        "host ",
                        detail,
                        " is not in the address policy's host allowlist",
                    ],
                )?;
                AT
            }
            ErrorKind::Timeout { which, after } => {
                let what = match which {
                    Timeout::Connect => "connecting",
                    Timeout::Read => "waiting for the response",
                    Timeout::Write => "sending the request",
                    Timeout::Call => "the call",
                };
                write!(f, "{what} timed out after {after:?} ({})", which.setting())?;
                AT
            }
            ErrorKind::LimitExceeded { which, max, seen } => {
                write!(
                    f,
                    "{} exceeds {} of {max} {unit}: {seen} {unit} seen",
                    which.subject(),
                    which.setting(),
                    unit = which.unit()
                )?;
                AT
            }
            ErrorKind::Malformed(what) => {
                pieces(f, &["malformed response: ", what.describe()])?;
                AT
            }
            ErrorKind::ConnectionClosed => {
                f.write_str("the connection closed before a response arrived")?;
                AT_SOURCE
            }
            ErrorKind::IncompleteBody { expected, received } => {
                match expected {
                    Some(n) => write!(f, "the connection closed after {received} of {n} body bytes")?,
                    None if self.inner.detail.is_some() => write!(
                        f,
                        "the connection ended uncleanly ({detail}) after {received} body bytes of a body that ends with the connection: it may be cut short"
                    )?,
                    None => write!(
                        f,
                        "the connection closed before the last chunk, after {received} body bytes"
                    )?,
                }
                AT
            }
            ErrorKind::RedirectLoop => {
                f.write_str("redirect loop: a redirect led back to a url already visited")?;
                AT
            }
            ErrorKind::Io => {
                f.write_str("i/o error")?;
                AT_SOURCE
            }
        };
        if tail.at {
            self.write_at(f)?;
        }
        match &self.inner.source {
            Some(source) if tail.source => write!(f, ": {source}"),
            _ => Ok(()),
        }
    }
}

const TLS_UNAVAILABLE: &str =
    "https needs tls, and httptool was built without its `tls` feature: enable the `tls` feature";

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("url", &self.inner.url)
            .field("message", &self.to_string())
            .finish()
    }
}

impl StdError for Error {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match &self.inner.source {
            Some(s) => Some(&**s as &(dyn StdError + 'static)),
            None => None,
        }
    }
}

impl From<url::Error> for Error {
    fn from(err: url::Error) -> Error {
        Error::new(ErrorKind::InvalidUrl(err.kind())).with_source(err)
    }
}
