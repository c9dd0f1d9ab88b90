//! `HttpPlugin`: a checked declaration, what it runs with (transport, observer, signer, file
//! resolver), and `ToolRegistry::add_plugin`.

use std::fmt;
use std::sync::Arc;

use crate::http::{self, Client, Transport};
use crate::plugin::build::compile::Checked;
use crate::plugin::call::auth::Signer;
use crate::plugin::call::multipart::FileResolver;
use crate::plugin::call::observe::Observer;
use crate::plugin::call::token::TokenCache;
use crate::plugin::declare::model::{Auth, ConfigValue, Endpoint};
use crate::plugin::declare::oauth::TokenListener;
use crate::quote::MASK;
use crate::tool::ToolSpec;
use crate::url::Url;

/// A checked plugin declaration: a base URL, static headers and query values, auth, options
/// and endpoints, each endpoint one tool.
///
/// Made from a plugin file with [`from_json`](HttpPlugin::from_json), or in Rust with
/// [`HttpPlugin::builder`]; both check everything when the plugin is made, and neither does
/// any I/O. [`ToolRegistry::add_plugin`](crate::tool::ToolRegistry::add_plugin) adds every endpoint as a tool.
///
/// The plugin's tools send through one shared [`Client`] (one keep-alive pool), each request
/// carrying the plugin's options; [`with_transport`](HttpPlugin::with_transport) replaces it with any
/// [`Transport`]. `Clone` is cheap: the declaration and the client are shared.
///
/// `Debug` shows the declaration with every secret as `***`.
///
/// # Examples
///
/// ```
/// use httptool::plugin::HttpPlugin;
/// use httptool::tool::{CallContext, ToolRegistry};
///
/// let plugin = HttpPlugin::from_json(r#"{
///   "name": "weather",
///   "base_url": "https://api.example.com",
///   "endpoints": [{
///     "name": "getWeather", "description": "Current weather for a city",
///     "method": "GET", "path": "/v1/weather",
///     "params": [{ "name": "city", "wire_name": "q", "in": "query", "required": true }]
///   }]
/// }"#)?;
///
/// // What a call would send, without sending it.
/// let dry = plugin.dry_run("getWeather", r#"{"city":"杭州"}"#, &CallContext::new()).unwrap();
/// assert_eq!(
///     dry.request().url().as_str(),
///     "https://api.example.com/v1/weather?q=%E6%9D%AD%E5%B7%9E"
/// );
///
/// let mut registry = ToolRegistry::new();
/// registry.add_plugin(&plugin)?;
/// assert!(registry.contains("getWeather"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct HttpPlugin {
    pub(crate) decl: Arc<Checked>,
    pub(crate) runtime: Runtime,
}

/// What the tools run with: shared, cheap to clone.
#[derive(Clone)]
pub(crate) struct Runtime {
    pub transport: Arc<dyn Transport>,
    /// The plugin's own client, when it is the transport (for rendering dry runs).
    pub client: Option<Client>,
    pub observer: Option<Arc<dyn Observer>>,
    pub signer: Option<Arc<dyn Signer>>,
    pub files: Option<Arc<dyn FileResolver>>,
    /// OAuth 2.0 access tokens, shared by every clone of the plugin.
    pub tokens: Arc<TokenCache>,
    /// The Digest challenge the plugin answers, shared by every clone of the plugin.
    pub digest: Arc<crate::plugin::call::digest::DigestSession>,
    pub token_listener: Option<Arc<dyn TokenListener>>,
}

impl HttpPlugin {
    /// The plugin for a checked declaration, sending through its own client. The client
    /// keeps the defaults: the plugin's options travel with each request.
    pub(crate) fn new(decl: Checked) -> HttpPlugin {
        let client = Client::new();
        HttpPlugin {
            decl: Arc::new(decl),
            runtime: Runtime {
                transport: Arc::new(client.clone()),
                client: Some(client),
                observer: None,
                signer: None,
                files: None,
                tokens: Arc::new(TokenCache::default()),
                digest: Arc::default(),
                token_listener: None,
            },
        }
    }

    /// The plugin's name.
    pub fn name(&self) -> &str {
        &self.decl.name
    }

    /// What the plugin is for.
    pub fn description(&self) -> &str {
        &self.decl.description
    }

    /// The base URL: its origin is the only one the tools reach (redirects aside, see
    /// [`Options::redirect_hosts`](crate::plugin::Options::redirect_hosts)), its path prefixes every endpoint's path.
    pub fn base_url(&self) -> &Url {
        &self.decl.base_url
    }

    /// The static headers, in order.
    pub fn headers(&self) -> impl Iterator<Item = (&str, &ConfigValue)> {
        self.decl.headers.iter().map(|(n, v)| (n.as_str(), v))
    }

    /// The query values sent with every call, in order.
    pub fn query(&self) -> impl Iterator<Item = (&str, &ConfigValue)> {
        self.decl.query.iter().map(|(n, v)| (n.as_str(), v))
    }

    /// Which calls need the user's approval, unless an endpoint says otherwise (the plugin
    /// file's `"confirm"`).
    pub fn confirm(&self) -> &crate::tool::Confirm {
        &self.decl.confirm
    }

    /// The auth scheme, when the plugin has one.
    pub fn auth(&self) -> Option<&Auth> {
        self.decl.auth.as_ref()
    }

    /// The endpoints, in order.
    pub fn endpoints(&self) -> impl Iterator<Item = &Endpoint> {
        self.decl.endpoints.iter().map(|c| &c.endpoint)
    }

    /// The endpoint whose tool is named `name`.
    pub fn endpoint(&self, name: &str) -> Option<&Endpoint> {
        self.endpoints().find(|e| e.name() == name)
    }

    /// What the model reads: one spec for each endpoint, in order.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.decl.endpoints.iter().map(|c| c.spec.clone()).collect()
    }

    /// Sends the plugin's requests through `transport` instead of its own client (an
    /// application's HTTP stack, a recording test double).
    ///
    /// The request options (timeouts, limits, redirect and address policies) travel with
    /// each request in [`Request::options`](crate::http::Request::options); a transport
    /// should honour them.
    #[must_use]
    pub fn with_transport(mut self, transport: Arc<dyn Transport>) -> HttpPlugin {
        self.runtime.transport = transport;
        self.runtime.client = None;
        self
    }

    /// Sends through `client` (its pool and settings; the plugin's options still apply to
    /// each request). The client's address policy stays in force unless the plugin asks for
    /// [`AddressMode::Strict`](crate::plugin::AddressMode::Strict).
    #[must_use]
    pub fn with_client(mut self, client: Client) -> HttpPlugin {
        self.runtime.transport = Arc::new(client.clone());
        self.runtime.client = Some(client);
        self
    }

    /// Reports every request sent and its outcome to `observer` (see [`Observer`]).
    #[must_use]
    pub fn with_observer(mut self, observer: Arc<dyn Observer>) -> HttpPlugin {
        self.runtime.observer = Some(observer);
        self
    }

    /// Signs every request with `signer` just before it is sent (see [`Signer`]).
    #[must_use]
    pub fn with_signer(mut self, signer: Arc<dyn Signer>) -> HttpPlugin {
        self.runtime.signer = Some(signer);
        self
    }

    /// Turns the model's handles for file parts into bytes (see [`FileResolver`]). Without
    /// one, a call that has a file part fails: nothing reads a local path by default.
    #[must_use]
    pub fn with_file_resolver(mut self, resolver: Arc<dyn FileResolver>) -> HttpPlugin {
        self.runtime.files = Some(resolver);
        self
    }

    /// Tells `listener` of every refresh token the token endpoint rotates (OAuth 2.0 auth
    /// with the refresh token grant), so the application can store the new one.
    #[must_use]
    pub fn with_token_listener(mut self, listener: Arc<dyn TokenListener>) -> HttpPlugin {
        self.runtime.token_listener = Some(listener);
        self
    }

    /// The `${NAME}` variables a plugin file read with
    /// [`from_json_deferred`](HttpPlugin::from_json_deferred) left unresolved, each once, in
    /// order of first use; empty for a plugin that can make every call.
    pub fn unset_variables(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for (_, name) in &self.decl.deferred {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        names
    }

    /// The first variable left unresolved that a call of `endpoint` needs.
    pub(crate) fn unset_variable_for(&self, endpoint: &str) -> Option<&str> {
        self.decl
            .deferred
            .iter()
            .find(|(e, _)| e.as_deref().map_or(true, |e| e == endpoint))
            .map(|(_, name)| name.as_str())
    }

    /// The transport the tools send through.
    pub fn transport(&self) -> &Arc<dyn Transport> {
        &self.runtime.transport
    }
}

impl fmt::Debug for HttpPlugin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.decl;
        let headers: Vec<(&str, &str)> = d
            .headers
            .iter()
            .map(|(name, value)| (name.as_str(), shown_header(name, value)))
            .collect();
        let query: Vec<(&str, &str)> = d
            .query
            .iter()
            .map(|(name, value)| (name.as_str(), shown_value(value)))
            .collect();
        f.debug_struct("HttpPlugin")
            .field("name", &d.name)
            .field("base_url", &d.base_url.as_str())
            .field("headers", &headers)
            .field("query", &query)
            .field("auth", &d.auth)
            .field("options", &d.options)
            .field("endpoints", &self.endpoints().collect::<Vec<_>>())
            .field("custom_transport", &self.runtime.client.is_none())
            .field("observer", &self.runtime.observer.is_some())
            .field("signer", &self.runtime.signer.is_some())
            .field("file_resolver", &self.runtime.files.is_some())
            .field("token_listener", &self.runtime.token_listener.is_some())
            .finish()
    }
}

/// A static header's value as `Debug` shows it: literal values of ordinary headers as they
/// are, everything else `***`. A credential's header is the http layer's one rule
/// ([`http::is_credential_name`]), as the client masks it on the wire.
fn shown_header<'a>(name: &str, value: &'a ConfigValue) -> &'a str {
    if http::is_credential_name(name) {
        MASK
    } else {
        shown_value(value)
    }
}

fn shown_value(value: &ConfigValue) -> &str {
    if value.is_external() {
        MASK
    } else {
        value.value().unwrap_or(MASK)
    }
}
