//! The plain declaration: what a [`PluginBuilder`](crate::plugin::PluginBuilder) (and so a plugin
//! file) holds before anything is checked. `validate.rs` checks it and `compile.rs` turns it
//! into what every call reuses; neither needs the builder, so the modules form a DAG (see
//! the module order in the [`plugin`](super) docs).

use crate::json::Map;
use crate::plugin::declare::model::{Auth, ConfigValue, Endpoint, Location, Options, Param};

/// A plugin as declared: fields as written, unchecked.
#[derive(Clone, Debug)]
pub(crate) struct Declaration {
    pub name: String,
    pub description: String,
    /// The base URL as written (with `${NAME}` expanded).
    pub base_url: String,
    /// The base URL's `${NAME}` template, when it had one (`to_json` writes it back).
    pub base_url_template: Option<String>,
    pub headers: Vec<(String, ConfigValue)>,
    pub query: Vec<(String, ConfigValue)>,
    pub auth: Option<Auth>,
    pub options: Options,
    pub endpoints: Vec<Endpoint>,
    /// Schemas the parameters' `$ref`s name (`#/$defs/Name`), by name.
    pub defs: Map,
    /// Variables a plugin file left unresolved (see `HttpPlugin::from_json_deferred`):
    /// `(endpoint, name)`, `None` for the plugin level.
    pub deferred: Vec<(Option<String>, String)>,
    /// Which calls need the user's approval, unless an endpoint says otherwise.
    pub confirm: crate::tool::Confirm,
}

impl Declaration {
    /// A plugin named `name` under `base_url`, with nothing else declared.
    pub fn new(name: String, base_url: String) -> Declaration {
        Declaration {
            name,
            description: String::new(),
            base_url,
            base_url_template: None,
            headers: Vec::new(),
            query: Vec::new(),
            auth: None,
            options: Options::default(),
            endpoints: Vec::new(),
            defs: Map::new(),
            deferred: Vec::new(),
            confirm: crate::tool::Confirm::Never,
        }
    }
}

/// Where a parameter's value really goes: body and form parameters of GET-style methods go
/// to the query ([bodies](crate::design::endpoints#bodies)).
pub(crate) fn effective_location(endpoint: &Endpoint, param: &Param) -> Location {
    match param.location {
        Location::Body | Location::Form if endpoint.body_in_query() => Location::Query,
        location => location,
    }
}
