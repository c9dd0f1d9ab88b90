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
mod error;
mod options;

use crate::json::Json;

pub use error::{Error, ErrorKind};
pub use options::{Import, ImportOptions, DEFAULT_MAX_ENTRIES};

pub use crate::curl::Variable;

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
