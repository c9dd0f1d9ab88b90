//! URLs for HTTP: parsing of absolute `http` and `https` URLs, percent-encoding, query strings
//! and relative reference resolution.
//!
//! [`Url::parse`] accepts what a careful client should send and refuses, with an
//! [`ErrorKind`] naming the problem, everything that lets two parsers disagree about where a
//! request goes:
//!
//! - userinfo (`https://user:pass@host/`): credentials belong in headers;
//! - backslashes, whitespace and control characters anywhere;
//! - `%` or non-ASCII characters in the host (give internationalized names as `xn--`);
//! - IPv6 zone identifiers, ports that are not numbers or not in 1..=65535;
//! - a `%` not followed by two hex digits.
//!
//! Hosts written in legacy numeric forms (`127.1`, `0x7f.0.0.1`, `0177.0.0.1`, `2130706433`)
//! are read as the IPv4 address they denote, as browsers and the system resolver do (WHATWG
//! URL section 3.5), and normalized to dotted decimal. A host that ends in a number but is not
//! an address (`foo.123`, `1.2.3.256`) is refused. So a numeric host is never handed to a
//! resolver as a name, and an address policy sees the address that will be connected to.
//!
//! The parsed URL is normalized: scheme and host lower-case, a default port dropped, an empty
//! path made `/`, dot segments removed (RFC 3986 section 6.2.2.3, `%2e` counted as a dot),
//! characters RFC 3986 does not allow in a path or query percent-encoded, and the fragment
//! dropped (it never goes on the wire).
//!
//! # Examples
//!
//! ```
//! use httptool::url::{Host, Url};
//!
//! let mut url = Url::parse("HTTP://Example.COM:80/a/./b/../c?x=1#top")?;
//! assert_eq!(url.as_str(), "http://example.com/a/c?x=1");
//! assert_eq!(url.host(), Host::Domain("example.com"));
//!
//! url.append_query_pair("q", "rust & http");
//! assert_eq!(url.path_and_query(), "/a/c?x=1&q=rust%20%26%20http");
//!
//! let next = url.join("../d?y=2")?;
//! assert_eq!(next.as_str(), "http://example.com/d?y=2");
//!
//! let legacy = Url::parse("http://0x7f.1:8080/")?;
//! assert_eq!(legacy.as_str(), "http://127.0.0.1:8080/");
//! # Ok::<(), httptool::url::Error>(())
//! ```

mod dots;
pub(crate) mod encode;
mod error;
mod host;
mod parse;
mod query;
mod resolve;

use std::fmt;

pub use self::dots::reads_as_dot_segment;
pub(crate) use self::dots::{segment_problem, SegmentProblem};
pub(crate) use self::encode::{encode_bytes_into, UNRESERVED};
pub use self::encode::{
    encode_form_component, encode_path_segment, encode_query_component, form_decode,
    form_urlencoded, percent_decode, percent_decode_utf8, percent_encode, percent_encode_into,
    EncodeSet,
};
pub use self::error::{Error, ErrorKind};
pub use self::host::Host;
pub(crate) use self::parse::find_scheme_separator;
pub use self::query::QueryPairs;

use self::host::HostRepr;

/// The two schemes this crate speaks.
///
/// Not `#[non_exhaustive]`: [`Url`] parses `http` and `https` only, so another scheme would be
/// another type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// `http`, port 80 by default.
    Http,
    /// `https`, port 443 by default.
    Https,
}

impl Scheme {
    /// `"http"` or `"https"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    /// 80 or 443.
    pub fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An absolute `http` or `https` URL, parsed, checked and normalized.
///
/// It is kept as one string (`scheme://host[:port]/path[?query]`) with the positions of its
/// parts, so the request target and the `Host` header are slices, not copies.
///
/// `Display` and `Debug` show the whole URL, query included; use [`Url::without_query`] or
/// [`Url::redacted`] where a query may hold a secret.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Url {
    text: String,
    scheme: Scheme,
    host: HostRepr,
    host_start: usize,
    host_end: usize,
    /// The port when it is not the scheme's default.
    port: Option<u16>,
    path_start: usize,
    /// Index of the `?`.
    query_start: Option<usize>,
}

impl Url {
    /// The whole URL.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// `http` or `https`.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The host: a domain name or an address.
    pub fn host(&self) -> Host<'_> {
        match self.host {
            HostRepr::Domain => Host::Domain(self.host_str()),
            HostRepr::Ipv4(a) => Host::Ipv4(a),
            HostRepr::Ipv6(a) => Host::Ipv6(a),
        }
    }

    /// The host as written in the URL: lower-case, IPv6 between brackets.
    pub fn host_str(&self) -> &str {
        &self.text[self.host_start..self.host_end]
    }

    /// The port, when it is not the scheme's default.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The port, or the scheme's default.
    pub fn port_or_default(&self) -> u16 {
        self.port.unwrap_or_else(|| self.scheme.default_port())
    }

    /// `host[:port]`, the value of the `Host` header (RFC 9112 section 3.2).
    pub fn authority(&self) -> &str {
        &self.text[self.host_start..self.path_start]
    }

    /// The path, starting with `/`, percent-encoded.
    pub fn path(&self) -> &str {
        let end = self.query_start.unwrap_or(self.text.len());
        &self.text[self.path_start..end]
    }

    /// The query without its `?`, percent-encoded; `None` when there is no `?`.
    pub fn query(&self) -> Option<&str> {
        self.query_start.map(|q| &self.text[q + 1..])
    }

    /// Path and query: the origin-form request target (RFC 9112 section 3.2.1).
    pub fn path_and_query(&self) -> &str {
        &self.text[self.path_start..]
    }

    /// The URL without its query, safe to show in messages when the query may hold a secret.
    pub fn without_query(&self) -> &str {
        &self.text[..self.query_start.unwrap_or(self.text.len())]
    }

    /// Whether both URLs have the same scheme, host and port (RFC 6454 origin).
    pub fn same_origin(&self, other: &Url) -> bool {
        self.scheme == other.scheme
            && self.host_str() == other.host_str()
            && self.port_or_default() == other.port_or_default()
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Url({:?})", self.text)
    }
}

impl AsRef<str> for Url {
    fn as_ref(&self) -> &str {
        &self.text
    }
}
