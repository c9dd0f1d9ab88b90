//! HTTP methods (RFC 9110 section 9).

use std::fmt;
use std::str::FromStr;

use super::error::{Error, ErrorKind};

/// The request methods this client speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// `GET`: safe, idempotent.
    Get,
    /// `HEAD`: safe, idempotent; the response has no body.
    Head,
    /// `POST`: neither safe nor idempotent, never retried by itself.
    Post,
    /// `PUT`: idempotent.
    Put,
    /// `PATCH` (RFC 5789): not idempotent, never retried by itself.
    Patch,
    /// `DELETE`: idempotent.
    Delete,
    /// `OPTIONS`: safe, idempotent.
    Options,
}

impl Method {
    /// The method as written on the wire: `"GET"`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
        }
    }

    /// RFC 9110 section 9.2.2: sending it twice has the effect of sending it once, so a
    /// request that failed before any response may be retried.
    pub fn is_idempotent(self) -> bool {
        !matches!(self, Method::Post | Method::Patch)
    }

    /// RFC 9110 section 9.2.1: read-only.
    pub fn is_safe(self) -> bool {
        matches!(self, Method::Get | Method::Head | Method::Options)
    }

    /// RFC 9110 section 8.6: methods whose request content has a defined meaning, so a
    /// `Content-Length: 0` is sent even without a body.
    pub(crate) fn expects_body(self) -> bool {
        matches!(self, Method::Post | Method::Put | Method::Patch)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Method {
    type Err = Error;

    /// Reads a method name, ignoring ASCII case (RFC 9110 makes methods case-sensitive, but
    /// no two of these seven differ only in case, and plugin files are written by hand).
    ///
    /// ```
    /// use httptool::http::Method;
    /// assert_eq!("patch".parse::<Method>().unwrap(), Method::Patch);
    /// assert!("TRACE".parse::<Method>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Method, Error> {
        const ALL: [Method; 7] = [
            Method::Get,
            Method::Head,
            Method::Post,
            Method::Put,
            Method::Patch,
            Method::Delete,
            Method::Options,
        ];
        ALL.iter()
            .copied()
            .find(|m| m.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| Error::new(ErrorKind::InvalidMethod))
    }
}
