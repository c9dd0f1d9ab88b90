//! Why a recording could not be imported.

use std::fmt;

use crate::plugin;

/// What went wrong and the details its message names; private so the wording and the data
/// can change without breaking callers, who match on [`ErrorKind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// [`ErrorKind::NotAHar`], and why.
    NotAHar(&'static str),
    /// [`ErrorKind::Invalid`]: where, such as `log.entries[17].request.url`, and what is wrong.
    Invalid { at: String, reason: String },
    /// [`ErrorKind::TooManyEntries`], with the limit.
    TooManyEntries(usize),
    /// [`ErrorKind::NoApiCalls`], with how many entries were left out.
    NoApiCalls(usize),
    /// [`ErrorKind::Plugin`].
    Plugin(plugin::Error),
}

/// The kinds of [`Error`], for callers that match without the details.
///
/// `#[non_exhaustive]`: more cases will be told apart; match with a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The document is not a HAR recording (no `log.entries` list).
    NotAHar,
    /// An entry has a field of the wrong type; [`Error::at`] names it.
    Invalid,
    /// More entries than [`ImportOptions::max_entries`](super::ImportOptions::max_entries).
    TooManyEntries,
    /// No entry is an API call to the hosts asked for; the message counts the entries left
    /// out.
    NoApiCalls,
    /// The plugin made from the recording fails the plugin's checks; the plugin error is the
    /// [`source`](std::error::Error::source).
    Plugin,
}

/// Why a recording could not be imported, and where.
///
/// Messages name the entry and field (`log.entries[17].request.url`) and never quote a
/// recorded value. Match on [`kind`](Error::kind); the message is for people.
///
/// # Examples
///
/// ```
/// use httptool::har::{self, ErrorKind};
///
/// let recording = httptool::json::parse(r#"{"log": {"entries": [{"request": 1}]}}"#)?;
/// let err = har::import(&recording).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Invalid);
/// assert_eq!(err.at(), Some("log.entries[0].request"));
/// assert_eq!(err.to_string(), "log.entries[0].request: expected an object");
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
            Reason::NotAHar(_) => ErrorKind::NotAHar,
            Reason::Invalid { .. } => ErrorKind::Invalid,
            Reason::TooManyEntries(_) => ErrorKind::TooManyEntries,
            Reason::NoApiCalls(_) => ErrorKind::NoApiCalls,
            Reason::Plugin(_) => ErrorKind::Plugin,
        }
    }

    /// Where in the recording the field at fault is, such as `log.entries[17].request.url`,
    /// for [`ErrorKind::Invalid`]; `plugin name` when the option given is at fault.
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
            Reason::NotAHar(reason) => write!(f, "not a HAR 1.2 recording: {}", reason),
            Reason::Invalid { at, reason } => write!(f, "{}: {}", at, reason),
            Reason::TooManyEntries(max) => write!(
                f,
                "the recording holds more than {} entries; raise the limit to import it",
                max
            ),
            Reason::NoApiCalls(skipped) => write!(
                f,
                "the recording holds no API call to import ({} entries left out: documents, \
                 assets, preflights, other hosts)",
                skipped
            ),
            Reason::Plugin(err) => write!(f, "the plugin made from the recording: {}", err),
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
