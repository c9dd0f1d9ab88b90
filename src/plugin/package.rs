//! Plugin packages: something that has a name, takes string properties, checks them, and
//! produces a plugin.

use std::collections::HashMap;

use crate::plugin::build::http_plugin::HttpPlugin;
use crate::plugin::error::{quote, Error, ErrorKind};

/// A plugin package: a named piece of code or data that a host configures with string
/// properties (an API key, a region, a webhook secret) and that then produces an
/// [`HttpPlugin`].
///
/// The host calls [`configure`](PluginProvider::configure), then
/// [`check`](PluginProvider::check) to report what is missing before anything runs, then
/// [`plugin`](PluginProvider::plugin). None of them does I/O.
///
/// # Examples
///
/// ```
/// use std::collections::HashMap;
/// use httptool::plugin::{Auth, Endpoint, Error, HttpPlugin, Param, PluginProvider};
///
/// #[derive(Default)]
/// struct Weather {
///     api_key: Option<String>,
/// }
///
/// impl PluginProvider for Weather {
///     fn name(&self) -> &str {
///         "weather"
///     }
///     fn properties(&self) -> Vec<&str> {
///         vec!["api_key"]
///     }
///     fn configure(&mut self, properties: &HashMap<String, String>) -> Result<(), Error> {
///         self.api_key = properties.get("api_key").cloned();
///         Ok(())
///     }
///     fn check(&self) -> Result<(), Error> {
///         self.plugin().map(drop)
///     }
///     fn plugin(&self) -> Result<HttpPlugin, Error> {
///         let key = self.api_key.as_deref().ok_or_else(|| Error::provider("api_key"))?;
///         HttpPlugin::builder("weather", "https://api.example.com")
///             .auth(Auth::query("key", key))
///             .endpoint(Endpoint::get("getWeather", "/v1/weather").param(Param::query("city")))
///             .build()
///     }
/// }
///
/// let mut provider = Weather::default();
/// assert_eq!(
///     provider.check().unwrap_err().to_string(),
///     "provider needs the property 'api_key'"
/// );
/// let properties: HashMap<String, String> =
///     [("api_key".to_string(), "k-123".to_string())].into_iter().collect();
/// provider.configure(&properties)?;
/// assert_eq!(provider.plugin()?.name(), "weather");
/// # Ok::<(), Error>(())
/// ```
pub trait PluginProvider: Send + Sync {
    /// The package's name.
    fn name(&self) -> &str;

    /// The names of the properties it reads, for help and configuration screens.
    fn properties(&self) -> Vec<&str>;

    /// Takes the properties (replacing earlier ones).
    ///
    /// # Errors
    ///
    /// A property whose value the provider refuses.
    fn configure(&mut self, properties: &HashMap<String, String>) -> Result<(), Error>;

    /// Checks that the properties are complete and valid, without producing the plugin.
    ///
    /// # Errors
    ///
    /// What is missing or wrong.
    fn check(&self) -> Result<(), Error>;

    /// The plugin.
    ///
    /// # Errors
    ///
    /// As [`check`](PluginProvider::check), and any error of the plugin's declaration.
    fn plugin(&self) -> Result<HttpPlugin, Error>;
}

impl Error {
    /// The error of a provider missing the property `name` ([`ErrorKind::Provider`]).
    pub fn provider(name: &str) -> Error {
        Error::new(
            ErrorKind::Provider,
            "",
            format!("provider needs the property {}", quote(name)),
        )
    }
}

/// A plugin package that is a plugin file: its `${NAME}`s are filled from the properties
/// (not the environment).
///
/// # Examples
///
/// ```
/// use std::collections::HashMap;
/// use httptool::plugin::{JsonPluginProvider, PluginProvider};
///
/// let mut provider = JsonPluginProvider::new(r#"{
///   "name": "weather", "base_url": "https://api.example.com",
///   "auth": {"type": "query", "name": "key", "value": "${API_KEY}"},
///   "endpoints": [{"name": "getWeather", "path": "/v1/weather"}]
/// }"#);
/// assert_eq!(provider.name(), "weather");
/// assert_eq!(provider.properties(), ["API_KEY"]);
/// assert!(provider.check().is_err());
/// let properties: HashMap<String, String> =
///     [("API_KEY".to_string(), "k-123".to_string())].into_iter().collect();
/// provider.configure(&properties)?;
/// provider.check()?;
/// assert_eq!(provider.plugin()?.name(), "weather");
/// # Ok::<(), httptool::plugin::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct JsonPluginProvider {
    name: String,
    text: String,
    names: Vec<String>,
    properties: HashMap<String, String>,
}

impl JsonPluginProvider {
    /// A provider for the plugin file `text`. Its name is the file's `name` (empty when the
    /// file has none); its properties are the `${NAME}`s the file uses.
    pub fn new(text: impl Into<String>) -> JsonPluginProvider {
        let text = text.into();
        let name = crate::json::parse(&text)
            .ok()
            .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(str::to_string))
            .unwrap_or_default();
        let names = crate::plugin::file::variable_names(&text);
        JsonPluginProvider {
            name,
            text,
            names,
            properties: HashMap::new(),
        }
    }
}

impl PluginProvider for JsonPluginProvider {
    fn name(&self) -> &str {
        &self.name
    }

    fn properties(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }

    fn configure(&mut self, properties: &HashMap<String, String>) -> Result<(), Error> {
        self.properties = properties.clone();
        Ok(())
    }

    fn check(&self) -> Result<(), Error> {
        self.plugin().map(drop)
    }

    fn plugin(&self) -> Result<HttpPlugin, Error> {
        HttpPlugin::from_json_with(&self.text, |name| self.properties.get(name).cloned())
    }
}
