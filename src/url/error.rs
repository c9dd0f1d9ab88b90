//! The one error type of the `url` module.

use std::fmt;

/// Why a URL was refused.
///
/// Stable: match on it to tell a caller what to fix. The [`Display`](fmt::Display) of [`Error`]
/// explains each one in words.
///
/// `#[non_exhaustive]`: new kinds will be added as failures are told apart more finely; match with
/// a `_` arm.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The input is empty.
    Empty,
    /// No `scheme:` at the start: a relative reference where an absolute URL is needed.
    MissingScheme,
    /// A scheme other than `http` or `https`.
    UnsupportedScheme,
    /// No `//` and host after the scheme, or an empty host.
    MissingHost,
    /// `user:password@` before the host. Credentials belong in headers.
    Userinfo,
    /// A backslash anywhere in the URL (some parsers read it as `/`, others do not).
    Backslash,
    /// A space, tab, line break or other whitespace character.
    Whitespace,
    /// A control character (U+0000 to U+001F, U+007F to U+009F).
    ControlCharacter,
    /// A character not allowed in a host name.
    InvalidHost,
    /// A non-ASCII character in the host: internationalized names must be given in their
    /// ASCII (`xn--`) form.
    NonAsciiHost,
    /// A `%` in the host: percent-encoded host names are not accepted.
    PercentInHost,
    /// A host that ends in a number but is not an IPv4 address in any form.
    InvalidIpv4,
    /// A bracketed host that is not an IPv6 address.
    InvalidIpv6,
    /// An IPv6 zone identifier (`[fe80::1%25eth0]`): not accepted.
    ZoneId,
    /// A port that is not a number.
    InvalidPort,
    /// A port of 0 or above 65535.
    PortOutOfRange,
    /// A `%` not followed by two hexadecimal digits.
    InvalidPercentEncoding,
    /// Percent-decoded bytes that are not UTF-8 where text was required.
    InvalidUtf8,
}

/// A URL that could not be parsed, resolved or decoded.
///
/// The message says what is wrong and where (a byte offset into the input) but never repeats
/// the input itself: a URL can carry a secret in its query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    offset: usize,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, offset: usize) -> Error {
        Error { kind, offset }
    }

    /// What is wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Byte offset into the input where the problem was found.
    pub fn offset(&self) -> usize {
        self.offset
    }

    fn reason(&self) -> &'static str {
        match self.kind {
            ErrorKind::Empty => "the url is empty",
            ErrorKind::MissingScheme => {
                "no scheme: expected an absolute url starting with http:// or https://"
            }
            ErrorKind::UnsupportedScheme => "unsupported scheme: only http and https are accepted",
            ErrorKind::MissingHost => "no host: expected '//' and a host name after the scheme",
            ErrorKind::Userinfo => {
                "user name or password before the host is not accepted: put credentials in headers"
            }
            ErrorKind::Backslash => "a backslash is not accepted in a url",
            ErrorKind::Whitespace => "whitespace is not accepted in a url: percent-encode it",
            ErrorKind::ControlCharacter => "a control character is not accepted in a url",
            ErrorKind::InvalidHost => "invalid host name",
            ErrorKind::NonAsciiHost => {
                "non-ascii host name: give internationalized names in their ascii (xn--) form"
            }
            ErrorKind::PercentInHost => "'%' is not accepted in a host name",
            ErrorKind::InvalidIpv4 => "the host ends in a number but is not a valid ipv4 address",
            ErrorKind::InvalidIpv6 => "invalid ipv6 address between brackets",
            ErrorKind::ZoneId => "ipv6 zone identifiers are not accepted",
            ErrorKind::InvalidPort => "the port is not a number",
            ErrorKind::PortOutOfRange => "the port must be between 1 and 65535",
            ErrorKind::InvalidPercentEncoding => "'%' must be followed by two hexadecimal digits",
            ErrorKind::InvalidUtf8 => "percent-decoded bytes are not valid utf-8",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid url: {} (at byte {})",
            self.reason(),
            self.offset
        )
    }
}

impl std::error::Error for Error {}
