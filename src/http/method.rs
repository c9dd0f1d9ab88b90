//! HTTP methods (RFC 9110 section 9).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use super::error::{Error, ErrorKind};
use super::headers::is_token;

/// The longest extension method accepted, in bytes. The longest registered method
/// (`UPDATEREDIRECTREF`, RFC 4437) has 17.
pub const MAX_METHOD_LEN: usize = 32;

/// The request methods this client speaks: the seven of RFC 9110 and RFC 5789 with their
/// rules, and any other token ([`Method::Extension`]).
///
/// Not `#[non_exhaustive]`: [`Method::Extension`] holds every other method, so no variant is ever
/// needed for a new one.
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
    /// Any other method (`PROPFIND`, `PURGE`, `QUERY`), sent exactly as written: methods are
    /// case-sensitive (RFC 9110 section 9.1). Nothing is assumed about it: it is neither
    /// safe nor idempotent here, so it is never retried by itself.
    Extension(ExtensionMethod),
}

/// A method name other than the seven [`Method`] names: an RFC 9110 token of at most
/// [`MAX_METHOD_LEN`] bytes, as written.
#[derive(Clone, Copy)]
pub struct ExtensionMethod {
    bytes: [u8; MAX_METHOD_LEN],
    len: u8,
}

impl ExtensionMethod {
    /// The name, as written.
    pub fn as_str(&self) -> &str {
        // Only token bytes (ASCII) are ever stored.
        std::str::from_utf8(self.bytes.get(..usize::from(self.len)).unwrap_or(&[])).unwrap_or("")
    }
}

impl PartialEq for ExtensionMethod {
    fn eq(&self, other: &ExtensionMethod) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for ExtensionMethod {}

impl Hash for ExtensionMethod {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for ExtensionMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl Method {
    /// The method as written on the wire: `"GET"`, ..., or the extension's own name.
    pub fn as_str(&self) -> &str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
            Method::Extension(name) => name.as_str(),
        }
    }

    /// RFC 9110 section 9.2.2: sending it twice has the effect of sending it once, so a
    /// request that failed before any response may be retried. An extension method is not
    /// known to be.
    pub fn is_idempotent(self) -> bool {
        !matches!(self, Method::Post | Method::Patch | Method::Extension(_))
    }

    /// RFC 9110 section 9.2.1: read-only. An extension method is not known to be.
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

    /// Reads a method name: one of the seven ignoring ASCII case (no two of them differ only
    /// in case, and plugin files are written by hand: `patch` is PATCH), else any token
    /// (RFC 9110 section 9.1: `method = token`) of at most [`MAX_METHOD_LEN`] bytes as an
    /// [`Method::Extension`], kept exactly as written.
    ///
    /// ```
    /// use httptool::http::Method;
    /// assert_eq!("patch".parse::<Method>().unwrap(), Method::Patch);
    /// assert_eq!("PROPFIND".parse::<Method>().unwrap().as_str(), "PROPFIND");
    /// assert_eq!("wHat".parse::<Method>().unwrap().as_str(), "wHat");
    /// assert!("GET /".parse::<Method>().is_err());
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
        // A loop, not a closure given to `find`, which compiled its own copy of the
        // iterator code (build cost, see `design::performance`).
        for known in ALL.iter() {
            if known.as_str().eq_ignore_ascii_case(s) {
                return Ok(*known);
            }
        }
        // RFC 9110 section 9.1: `method = token`.
        if s.len() > MAX_METHOD_LEN || !is_token(s) {
            return Err(Error::new(ErrorKind::InvalidMethod));
        }
        let mut bytes = [0; MAX_METHOD_LEN];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        Ok(Method::Extension(ExtensionMethod {
            bytes,
            // At most MAX_METHOD_LEN, checked above.
            len: s.len() as u8,
        }))
    }
}
