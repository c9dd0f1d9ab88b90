//! What an import of a collection takes and gives: [`ImportOptions`] and [`Import`].

use crate::curl::Variable;
use crate::json::Json;
use crate::plugin::HttpPlugin;

/// The most requests a collection may hold by default: 10,000 (the largest published
/// collections hold a few thousand). Change it with [`ImportOptions::max_requests`].
pub const DEFAULT_MAX_REQUESTS: usize = 10_000;

/// How [`import_with`](super::import_with) reads a collection.
///
/// # Examples
///
/// ```
/// let options = httptool::postman::ImportOptions::new()
///     .base_url("https://staging.example.com")
///     .plugin_name("shop");
/// # let _ = options;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportOptions {
    pub(crate) base_url: Option<String>,
    pub(crate) plugin_name: Option<String>,
    pub(crate) keep_secrets: bool,
    pub(crate) max_requests: usize,
    pub(crate) environment: Option<Json>,
}

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions {
            base_url: None,
            plugin_name: None,
            keep_secrets: false,
            max_requests: DEFAULT_MAX_REQUESTS,
            environment: None,
        }
    }
}

impl ImportOptions {
    /// The defaults.
    pub fn new() -> ImportOptions {
        ImportOptions::default()
    }

    /// The plugin's base URL, instead of the one the requests use most. Defaults to none.
    #[must_use]
    pub fn base_url(mut self, url: impl Into<String>) -> ImportOptions {
        self.base_url = Some(url.into());
        self
    }

    /// The plugin's name. Defaults to the collection's name in snake case.
    #[must_use]
    pub fn plugin_name(mut self, name: impl Into<String>) -> ImportOptions {
        self.plugin_name = Some(name.into());
        self
    }

    /// Writes credentials into the plugin as they are. Defaults to `false`: each is a
    /// `${NAME}` variable.
    #[must_use]
    pub fn keep_secrets(mut self, on: bool) -> ImportOptions {
        self.keep_secrets = on;
        self
    }

    /// A Postman environment (its exported file, with a `values` list): its variables are
    /// read as the collection's are, and win over them. Defaults to none.
    #[must_use]
    pub fn environment(mut self, environment: Json) -> ImportOptions {
        self.environment = Some(environment);
        self
    }

    /// The most requests the collection may hold ([`ErrorKind::TooManyRequests`](super::ErrorKind::TooManyRequests) beyond).
    /// Defaults to [`DEFAULT_MAX_REQUESTS`].
    #[must_use]
    pub fn max_requests(mut self, max: usize) -> ImportOptions {
        self.max_requests = max;
        self
    }
}

/// The result of [`import`](super::import): the plugin, warnings, and the variables it reads.
#[derive(Debug)]
pub struct Import {
    pub(crate) plugin: HttpPlugin,
    pub(crate) warnings: Vec<String>,
    pub(crate) variables: Vec<Variable>,
}

impl Import {
    /// The plugin, one tool a request; `to_json` writes its file.
    pub fn plugin(&self) -> &HttpPlugin {
        &self.plugin
    }

    /// The plugin, by value.
    pub fn into_plugin(self) -> HttpPlugin {
        self.plugin
    }

    /// What was skipped or approximated, each naming the item.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The environment variables the plugin file reads (set them before loading it).
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }
}
