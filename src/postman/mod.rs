//! Postman collections (v2.0 and v2.1) to plugins.
//!
//! [`import`] reads a collection (already parsed into a [`Json`]) and returns an
//! [`Import`]: an [`HttpPlugin`](crate::plugin::HttpPlugin) with one tool for each request, the warnings on what was
//! left out or approximated, and the environment variables its credentials read. Nothing
//! is fetched, no file is read, no pre-request script is run.
//!
//! ```
//! let text = r#"{
//!   "info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
//!   "variable": [{"key": "baseUrl", "value": "https://api.example.com/v1"}],
//!   "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}"}]},
//!   "item": [{"name": "Orders", "item": [
//!     {"name": "Get order", "request": {"method": "GET", "url": "{{baseUrl}}/orders/:id"}}
//!   ]}]
//! }"#;
//! let import = httptool::postman::import(&httptool::json::parse(text)?)?;
//! let plugin = import.plugin();
//! assert_eq!(plugin.base_url().as_str(), "https://api.example.com/v1");
//! let endpoint = plugin.endpoint("get_order").unwrap();
//! assert_eq!(endpoint.path(), "/orders/{id}");
//! assert_eq!(import.variables()[0].name(), "TOKEN"); // the file says ${TOKEN}
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How a collection is read
//!
//! **Items.** Folders are walked in order, without recursion (a collection nested 10,000
//! folders deep costs what its bytes cost); each request is one endpoint whose tool is
//! named from the request's name (`Get order` is `get_order`), made unique
//! (`get_order_2`), or from the method and path when the name gives nothing. The folders
//! above a request, joined with ` / `, are its tag. An item with `"disabled": true`, a
//! WebSocket or gRPC request, or an item that is neither a folder nor a request is skipped
//! with a warning.
//!
//! **Variables.** `{{name}}` is looked up in the folders' and the collection's `variable`
//! lists, the innermost first, and in an environment ([`ImportOptions::environment`]),
//! which wins over the collection's. A variable with a value is written in where it stands, unless
//! it is a credential (its name or value says so, or its type is `secret`); a credential,
//! and a variable without a value, becomes `${NAME}` (the name in upper snake case,
//! `apiKey` is `API_KEY`), read from the environment when the plugin file is loaded, and
//! listed in [`Import::variables`]. Dynamic variables (`{{$guid}}`, `{{$timestamp}}`) leave
//! the value to the model, with a warning.
//!
//! **URL.** The base URL is what a leading `{{variable}}` holds (`{{baseUrl}}`, as
//! collections write it), else the scheme and host (`http` when none is written, as
//! Postman does). Requests whose base differs from the most common one get their own
//! endpoint base URL (`{{authUrl}}` beside `{{apiUrl}}`). A base URL whose variable has no
//! value is `${NAME}` in the file (a warning says so): the plugin in memory points at
//! `http://localhost` until it is loaded from its file, and an endpoint whose own base is
//! such a variable refuses its calls, naming it, until then. Path segments `:id`, `{{id}}` (a variable without a value) and `{id}`
//! become path parameters; other variables in the path are written in.
//!
//! **Parameters.** Query keys become query parameters, required when enabled, optional when
//! disabled in the collection; a repeated key is an array. Values are samples that give the
//! type (`20` an integer); a value from a variable is the parameter's default. Headers are
//! the request's own: one that looks like a credential (an API key, a `Cookie`, a token, a
//! value from a secret variable) is the endpoint's own static header (endpoint-level
//! `headers`), a `${NAME}` variable, so it goes with that request only and never to
//! another request's host; each distinct literal value has a variable of its own
//! (`APP_X_API_KEY`, `APP_X_API_KEY_2`). Any other header is a hidden parameter whose
//! default is its value (the model does not see it). `Content-Type` of a body the plugin
//! encodes, `Content-Length`, `Host` and the headers browsers and Postman add are left out. Bodies: `raw` JSON (comments `//` and `/* */` stripped, as Postman does) gives
//! a body parameter per top-level member, typed as the curl importer types them, or one
//! whole-body parameter; other `raw` text one raw body parameter with its content type;
//! `urlencoded` form parameters; `formdata` multipart parameters (file parts are file
//! parameters); `graphql` a JSON body with `query` (its default the collection's query) and
//! `variables`; `file` a raw body. A credential-looking field is hidden, its value a
//! variable. A GET or DELETE with a body keeps it.
//!
//! **Auth.** The request's own auth, else its folders', else the collection's: `bearer`,
//! `basic`, `digest`, `apikey` (header or query), `awsv4` (AWS SigV4) and `oauth2` (the
//! client credentials grant; another grant with an access token is a bearer token) map to
//! the plugin's auth kinds; every value is a variable. `noauth` is no auth; `oauth1`,
//! `hawk`, `ntlm`, `akamai`, `edgegrid`, `asap` and `jwt` are left out with a warning
//! naming the request. The plugin's auth is the one most requests use; a request whose
//! auth differs carries its own as the endpoint's `auth` (a folder's basic auth, an API key
//! of its own), and one with none (`noauth`, or a kind left out) carries `"auth": "none"`,
//! so each request is sent with the credential it was sent with in Postman, and no other.
//!
//! # Security
//!
//! The collection is untrusted: reading it takes time linear in its size, recurses on
//! nothing, never panics, and stops at [`ImportOptions::max_requests`]. Error messages and
//! warnings name items (`item[3].item[0].request.url`) and never quote a value.

pub(crate) mod collect;
mod convert;
mod error;
mod options;

use crate::json::Json;

pub use error::{Error, ErrorKind};
pub use options::{Import, ImportOptions, DEFAULT_MAX_REQUESTS};

pub use crate::curl::Variable;

/// Imports a Postman collection (v2.0 or v2.1) with the default [`ImportOptions`].
///
/// # Errors
///
/// As [`import_with`].
pub fn import(collection: &Json) -> Result<Import, Error> {
    import_with(collection, &ImportOptions::new())
}

/// Imports a Postman collection (v2.0 or v2.1): one tool a request. See the
/// [module docs](self) for the rules.
///
/// # Errors
///
/// [`ErrorKind::NotACollection`], [`ErrorKind::Invalid`] naming the field
/// ([`Error::at`]), [`ErrorKind::TooManyRequests`], [`ErrorKind::NoRequests`], and
/// [`ErrorKind::Plugin`] when the result fails the plugin's checks.
///
/// # Security
///
/// The collection is untrusted: time linear in its size, no recursion, no panic; no value
/// of it is quoted in an error, and credentials become `${NAME}` variables.
pub fn import_with(collection: &Json, options: &ImportOptions) -> Result<Import, Error> {
    convert::run(collection, options)
}
