//! What an import of a recording takes and gives: [`ImportOptions`] and [`Import`].

use crate::curl::Variable;
use crate::plugin::HttpPlugin;

/// The most entries a recording may hold by default: 100,000.
pub const DEFAULT_MAX_ENTRIES: usize = 100_000;

/// How [`import_with`](super::import_with) reads a recording.
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

    /// The most entries the recording may hold ([`ErrorKind::TooManyEntries`](super::ErrorKind::TooManyEntries) beyond). Defaults
    /// to [`DEFAULT_MAX_ENTRIES`].
    #[must_use]
    pub fn max_entries(mut self, max: usize) -> ImportOptions {
        self.max_entries = Some(max);
        self
    }
}

/// The result of [`import`](super::import).
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
