//! HAR 1.2 recordings (a browser's "Save all as HAR") to plugins.
//!
//! [`import`] reads a recording (already parsed into a [`Json`]) and returns an [`Import`]:
//! a plugin with one tool for each endpoint the web app called, the warnings, the
//! environment variables its credentials read, and how many entries were left out and why.
//! Nothing is fetched; no recorded value of a credential reaches the plugin file.
//!
//! ```
//! let text = r#"{"log": {"version": "1.2", "entries": [
//!   {"request": {"method": "GET", "url": "https://app.example.com/api/users/17?expand=team",
//!     "headers": [{"name": "Authorization", "value": "Bearer abc.def"}]},
//!    "response": {"status": 200, "content": {"mimeType": "application/json", "text": "{\"id\": 17}"}}},
//!   {"request": {"method": "GET", "url": "https://app.example.com/api/users/42?expand=team", "headers": []},
//!    "response": {"status": 200, "content": {"mimeType": "application/json", "text": "{\"id\": 42}"}}},
//!   {"request": {"method": "GET", "url": "https://app.example.com/logo.png", "headers": []},
//!    "response": {"status": 200, "content": {"mimeType": "image/png"}}}
//! ]}}"#;
//! let import = httptool::har::import(&httptool::json::parse(text)?)?;
//! let endpoint = import.plugin().endpoint("get_user").unwrap();
//! assert_eq!(endpoint.path(), "/api/users/{user_id}");
//! assert_eq!(import.skipped(), 1);
//! assert!(!import.plugin().to_json().to_string().contains("abc.def"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How a recording is read
//!
//! **Which entries.** An API call is a request whose response or request body is JSON (any
//! status), or that the page made with XHR or `fetch` (Chrome's `_resourceType`). Left out,
//! and counted: `OPTIONS` preflights, documents, scripts, styles, images, fonts and media,
//! `.json` files fetched as static assets, and calls to analytics and monitoring hosts.
//! Only the hosts asked for are kept ([`ImportOptions::host`], `host` or `host:port`);
//! without any, the host with the most API calls. With several, the plugin's base URL is the
//! origin most calls went to, and an endpoint whose calls went to another has that origin as
//! its own base URL.
//!
//! **Endpoints.** Calls are grouped by host, method and path template (the same path on
//! two hosts is two endpoints). A segment becomes a path parameter when it reads as a
//! number, a UUID, a long hex or a token mixing letters and digits (named after the
//! segment before it: `/users/42` is `/users/{user_id}`), or when
//! it varies across calls that agree on every other segment (not after a version segment
//! such as `/v1`, and at the end only after a plural word: `/users/alice` and `/users/bob`
//! are one endpoint, `/api/users` and `/api/orders` two). Trailing slashes are kept. Tools
//! are named from the method and path as the curl importer names them.
//!
//! **Parameters.** Query and body parameters are inferred across all calls of an
//! endpoint: types from every sample, an enum where at most five values recur, required
//! when present in every call. Cache-busting keys (`_`, `_t`, `cb`, `_dc`,
//! `dojo.preventCache`, a key whose value is a Unix timestamp in every call) are dropped.
//! JSON bodies give a parameter per top-level member; form bodies form parameters;
//! multipart bodies form parameters and file parameters; other bodies one raw parameter.
//!
//! **Credentials.** The `Authorization` header most calls send is the plugin's auth
//! (bearer, basic, or a header). An endpoint none of whose calls sent it has `"auth":
//! "none"` (a login, a public status call: a credential is never sent where the recording
//! shows it was not), and one whose calls sent another (a second host's token) has that
//! as its own auth, its variables named after its host. Each host's credentials go to that
//! host's endpoints only: the `Cookie` header (the last one the host was sent) and the
//! other credential-looking headers are the endpoint's own static headers (endpoint-level
//! `headers`), on the endpoints whose calls sent them; credential-looking query values and
//! body fields are hidden parameters. Each is a `${NAME}` variable, named after the host
//! when it is not the plugin's (`FILES_EXAMPLE_COM_COOKIE`), its recorded value never
//! written. Headers browsers add (`User-Agent`, `Accept-*`,
//! `Referer`, `Origin`, `sec-*`, ...) are left out; other custom headers sent with the
//! same value in every call are hidden parameters with that value.
//!
//! **Output schemas.** A recorded JSON object response gives the endpoint's output schema,
//! reduced to its shape (types and property names): no recorded value reaches the plugin.
//!
//! # Security
//!
//! The recording is untrusted: reading it takes time linear in its size, never panics,
//! stops at [`ImportOptions::max_entries`], and quotes no value in errors and warnings.

mod convert;

use std::fmt;

use crate::json::Json;
use crate::plugin::{self, HttpPlugin};

pub use crate::curl::Variable;

/// The most entries a recording may hold by default: 100,000.
pub const DEFAULT_MAX_ENTRIES: usize = 100_000;

/// How [`import_with`] reads a recording.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    pub(crate) hosts: Vec<String>,
    pub(crate) plugin_name: Option<String>,
    pub(crate) max_entries: Option<usize>,
}

impl ImportOptions {
    /// The defaults: the host with the most API calls, the plugin named after it.
    pub fn new() -> ImportOptions {
        ImportOptions::default()
    }

    /// Keeps the calls to `host` (any port) or `host:port`; repeatable. Defaults to the
    /// host with the most API calls.
    #[must_use]
    pub fn host(mut self, host: impl Into<String>) -> ImportOptions {
        self.hosts.push(host.into());
        self
    }

    /// The plugin's name. Defaults to one derived from the host (`app.example.com` is
    /// `example`).
    #[must_use]
    pub fn plugin_name(mut self, name: impl Into<String>) -> ImportOptions {
        self.plugin_name = Some(name.into());
        self
    }

    /// The most entries the recording may hold ([`ErrorKind::TooManyEntries`] beyond). Defaults
    /// to [`DEFAULT_MAX_ENTRIES`].
    #[must_use]
    pub fn max_entries(mut self, max: usize) -> ImportOptions {
        self.max_entries = Some(max);
        self
    }
}

/// The result of [`import`].
#[derive(Debug)]
pub struct Import {
    pub(crate) plugin: HttpPlugin,
    pub(crate) warnings: Vec<String>,
    pub(crate) variables: Vec<Variable>,
    pub(crate) skipped: Vec<(String, usize)>,
}

impl Import {
    /// The plugin: one tool an endpoint.
    pub fn plugin(&self) -> &HttpPlugin {
        &self.plugin
    }

    /// The plugin, by value.
    pub fn into_plugin(self) -> HttpPlugin {
        self.plugin
    }

    /// What was approximated, each naming the entry (`log.entries[17]`) or endpoint.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The environment variables the plugin file reads its credentials from.
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// How many entries were left out in all.
    pub fn skipped(&self) -> usize {
        self.skipped.iter().map(|(_, n)| n).sum()
    }

    /// The entries left out, by reason (`image`, `preflight`, `other host`, ...), in order of
    /// first appearance.
    pub fn skipped_by_reason(&self) -> &[(String, usize)] {
        &self.skipped
    }
}

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
    /// More entries than [`ImportOptions::max_entries`].
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

/// Imports a HAR recording with the default [`ImportOptions`].
///
/// # Errors
///
/// As [`import_with`].
pub fn import(har: &Json) -> Result<Import, Error> {
    import_with(har, &ImportOptions::new())
}

/// Imports a HAR 1.2 recording: one tool an endpoint the web app called. See the
/// [module docs](self) for the rules.
///
/// # Errors
///
/// [`ErrorKind::NotAHar`], [`ErrorKind::Invalid`] naming the entry and field
/// ([`Error::at`]), [`ErrorKind::TooManyEntries`], [`ErrorKind::NoApiCalls`], and
/// [`ErrorKind::Plugin`].
///
/// # Security
///
/// The recording is untrusted: time linear in its size, no panic, no value quoted in an
/// error; recorded credentials become `${NAME}` variables and never reach the plugin file.
pub fn import_with(har: &Json, options: &ImportOptions) -> Result<Import, Error> {
    convert::run(har, options)
}
