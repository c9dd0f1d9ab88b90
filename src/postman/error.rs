//! Why a collection could not be imported.

use std::fmt;

use crate::plugin;

/// What went wrong and the details its message names; private so the wording and the data
/// can change without breaking callers, who match on [`ErrorKind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// [`ErrorKind::NotACollection`], and why.
    NotACollection(&'static str),
    /// [`ErrorKind::Invalid`]: where, such as `item[3].request.url`, and what is wrong.
    Invalid { at: String, reason: String },
    /// [`ErrorKind::TooManyRequests`], with the limit.
    TooManyRequests(usize),
    /// [`ErrorKind::NoRequests`].
    NoRequests,
    /// [`ErrorKind::Plugin`].
    Plugin(plugin::Error),
}

/// The kinds of [`Error`], for callers that match without the details.
///
/// `#[non_exhaustive]`: more cases will be told apart; match with a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The document is not a Postman collection (no `item` list, or a v1 collection).
    NotACollection,
    /// A field has the wrong type or a value httptool cannot use; [`Error::at`] names it.
    Invalid,
    /// More requests than [`ImportOptions::max_requests`](super::ImportOptions::max_requests).
    TooManyRequests,
    /// The collection has no request to import.
    NoRequests,
    /// The plugin made from the collection fails the plugin's checks; the plugin error is
    /// the [`source`](std::error::Error::source).
    Plugin,
}

/// Why a collection could not be imported, and where.
///
/// Messages name the item and field (`item[3].item[0].request.url`) and never quote a value
/// of the collection. Match on [`kind`](Error::kind); the message is for people.
///
/// # Examples
///
/// ```
/// use httptool::postman::{self, ErrorKind};
///
/// let collection = httptool::json::parse(r#"{"item": [{"name": "a", "request": {"url": 5}}]}"#)?;
/// let err = postman::import(&collection).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Invalid);
/// assert_eq!(err.at(), Some("item[0].request.url"));
/// assert_eq!(err.to_string(), "item[0].request.url: expected a string or an object, got number");
/// # Ok::<(), httptool::json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    reason: Reason,
}

impl From<Reason> for Error {
    fn from(reason: Reason) -> Error {
        Error { reason }
    }
}

impl Error {
    /// The kind of error.
    pub fn kind(&self) -> ErrorKind {
        match self.reason {
            Reason::NotACollection(_) => ErrorKind::NotACollection,
            Reason::Invalid { .. } => ErrorKind::Invalid,
            Reason::TooManyRequests(_) => ErrorKind::TooManyRequests,
            Reason::NoRequests => ErrorKind::NoRequests,
            Reason::Plugin(_) => ErrorKind::Plugin,
        }
    }

    /// Where in the collection the field at fault is, such as `item[3].request.url`, for
    /// [`ErrorKind::Invalid`]; `plugin name` or `base URL` when an option is at fault.
    pub fn at(&self) -> Option<&str> {
        match &self.reason {
            Reason::Invalid { at, .. } => Some(at),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.reason {
            Reason::NotACollection(reason) => {
                write!(f, "not a Postman collection v2.0 or v2.1: {}", reason)
            }
            Reason::Invalid { at, reason } => write!(f, "{}: {}", at, reason),
            Reason::TooManyRequests(max) => write!(
                f,
                "the collection holds more than {} requests; raise the limit to import it",
                max
            ),
            Reason::NoRequests => write!(f, "the collection holds no request to import"),
            Reason::Plugin(err) => write!(f, "the plugin made from the collection: {}", err),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.reason {
            Reason::Plugin(err) => Some(err),
            _ => None,
        }
    }
}
