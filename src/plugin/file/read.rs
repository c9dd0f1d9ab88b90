//! Reading a plugin file: `from_json` and its variants, the fields each object accepts,
//! and the loader that turns them into a `PluginBuilder`.

use std::cell::RefCell;
use std::time::Duration;

use super::template::{expand, placeholder};
use crate::http::Method;
use crate::json::{self, Json, Map};
use crate::plugin::build::builder::{EndpointBuilder, ParamBuilder, PluginBuilder};
use crate::plugin::build::http_plugin::HttpPlugin;
use crate::plugin::build::validate::{at, index};
use crate::plugin::declare::model::MAX_TYPE_DEPTH;
use crate::plugin::declare::model::{
    AddressMode, ArrayStyle, Auth, BodyEncoding, ConfigValue, Endpoint, Location, Options, Param,
    ParamType, Property,
};
use crate::plugin::declare::oauth::{ClientAuth, OAuth2};
use crate::plugin::declare::option_fields::{Value, OPTION_FIELDS, OPTION_NAMES};
use crate::plugin::declare::sigv4::AwsSigV4;
use crate::plugin::error::{quote, Error, ErrorKind};
use crate::tool::{unknown_name_message, Confirm, ToolAnnotations};

// The fields each object of the file accepts (anything else is an error naming the closest).
// Slices, not arrays: adding a field does not change a count other edits also touch.
const PLUGIN_FIELDS: &[&str] = &[
    "name",
    "description",
    "base_url",
    "headers",
    "query",
    "auth",
    "endpoints",
    "$defs",
    "confirm",
];
const ENDPOINT_FIELDS: &[&str] = &[
    "name",
    "description",
    "method",
    "path",
    "params",
    "body_encoding",
    "response_pointer",
    "allow_unknown_arguments",
    "allow_delete_body",
    "allow_get_body",
    "base_url",
    "auth",
    "content_type",
    "title",
    "tags",
    "annotations",
    "output_schema",
    "response_fields",
    "fields_argument",
    "pagination",
    "confirm",
    "headers",
];
const ANNOTATION_FIELDS: &[&str] = &["read_only", "destructive", "idempotent", "open_world"];
const PARAM_FIELDS: &[&str] = &[
    "name",
    "wire_name",
    "in",
    "type",
    "format",
    "items",
    "properties",
    "description",
    "required",
    "default",
    "enum",
    "secret",
    "hidden",
    "context",
    "array_style",
    "whole_body",
    "file",
    "schema",
];
const ITEMS_FIELDS: &[&str] = &["type", "items", "properties"];
const PROPERTY_FIELDS: &[&str] = &["type", "items", "properties", "description", "required"];

impl HttpPlugin {
    /// Reads a plugin file (see README, "Plugins", for every field), taking each `${NAME}`
    /// from the process environment, and checks it as [`PluginBuilder::build`](crate::plugin::PluginBuilder::build) does.
    ///
    /// `${NAME}` is read in `base_url` (the plugin's and an endpoint's), the values of
    /// `headers` (the plugin's and an endpoint's) and `query`, the string fields of `auth`,
    /// and the `default` of a hidden or secret parameter; `$${` writes a literal `${` there. Elsewhere text is taken as written, so an environment value never
    /// lands in a description the model reads.
    ///
    /// # Errors
    ///
    /// An [`Error`] pointing at the field: text that is not JSON, a missing or unknown field,
    /// a field of the wrong type or with a word it does not accept
    /// (`endpoints[2].params[0].in: expected one of query, path, header, body, form, cookie;
    /// got 'matrix'`), an environment variable that is not set or is empty (named: an empty
    /// token would send `Authorization: Bearer ` and fail far from its cause), and every error of
    /// [`PluginBuilder::build`](crate::plugin::PluginBuilder::build).
    ///
    /// # Security
    ///
    /// A plugin file decides where requests go and which environment variables they carry:
    /// load only files you trust as you trust code. Reading never panics and is bounded
    /// (JSON nesting by [`json::DEFAULT_MAX_DEPTH`], parameter types by
    /// [`MAX_TYPE_DEPTH`]); no environment value is ever written into
    /// an error message, a description or `to_json`.
    ///
    /// # Examples
    ///
    /// ```
    /// use httptool::plugin::HttpPlugin;
    ///
    /// let err = HttpPlugin::from_json(r#"{"name": "w", "base_url": "https://api.example.com",
    ///     "auth": {"type": "bearer", "token": "${HTTPTOOL_DOC_UNSET_VAR}"},
    ///     "endpoints": [{"name": "get", "path": "/x"}]}"#).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "auth.token: environment variable 'HTTPTOOL_DOC_UNSET_VAR' is not set"
    /// );
    /// ```
    pub fn from_json(text: &str) -> Result<HttpPlugin, Error> {
        let lookup = |name: &str| std::env::var(name).ok();
        load(text, &lookup, "environment variable", Mode::ENVIRONMENT)
    }

    /// Reads a plugin file as [`from_json`](HttpPlugin::from_json) does, but leaves a
    /// `${NAME}` whose environment variable is not set (or is empty) unresolved, so the specs
    /// and dry runs of a plugin work before its secrets are at hand.
    ///
    /// Each unresolved variable stands as the text `${NAME} (not set)` in its place (the
    /// header, query value, auth field or hidden default it was written in), which a dry run
    /// shows where it shows secrets ([`Secrets::Reveal`](crate::http::Secrets::Reveal); a
    /// masked one is `***` as any secret is). [`unset_variables`](HttpPlugin::unset_variables)
    /// names them. A real call of a tool that needs one ([`HttpTool::send`](crate::plugin::HttpTool::send),
    /// [`HttpTool::prepare`](crate::plugin::HttpTool::prepare), a registry call) fails with
    /// [`tool::ErrorKind::MissingParameter`](crate::tool::ErrorKind::MissingParameter) naming
    /// the variable, before anything is built or sent: the placeholder never leaves the
    /// process. A variable in `base_url` must still be set, since it decides where every
    /// request goes.
    ///
    /// # Errors
    ///
    /// As [`from_json`](HttpPlugin::from_json), but for the variables left unresolved.
    ///
    /// # Examples
    ///
    /// ```
    /// use httptool::plugin::HttpPlugin;
    /// use httptool::tool::{ToolCall, ToolRegistry};
    ///
    /// let plugin = HttpPlugin::from_json_deferred(r#"{"name": "w",
    ///     "base_url": "https://api.example.com",
    ///     "auth": {"type": "bearer", "token": "${HTTPTOOL_DOC_UNSET_VAR}"},
    ///     "endpoints": [{"name": "get", "path": "/x"}]}"#)?;
    /// assert_eq!(plugin.unset_variables(), ["HTTPTOOL_DOC_UNSET_VAR"]);
    /// assert_eq!(plugin.specs()[0].name(), "get"); // specs need no secret
    ///
    /// let mut registry = ToolRegistry::new();
    /// registry.add_plugin(&plugin)?;
    /// let out = registry.call(&ToolCall::new("1", "get", "{}"));
    /// assert!(out.is_error()); // a real call needs the value
    /// assert!(out.text().contains("'HTTPTOOL_DOC_UNSET_VAR'"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_json_deferred(text: &str) -> Result<HttpPlugin, Error> {
        let lookup = |name: &str| std::env::var(name).ok();
        load(
            text,
            &lookup,
            "environment variable",
            Mode {
                empty_is_unset: true,
                defer: true,
            },
        )
    }

    /// Reads a plugin file as [`from_json`](HttpPlugin::from_json) does, taking each
    /// `${NAME}` from `lookup` instead of the environment (for tests, and hosts that keep
    /// secrets elsewhere).
    ///
    /// # Errors
    ///
    /// As [`from_json`](HttpPlugin::from_json); a name `lookup` has no value for is
    /// [`ErrorKind::MissingVariable`]. An empty value from `lookup` is taken as it is.
    ///
    /// # Examples
    ///
    /// ```
    /// use httptool::plugin::HttpPlugin;
    ///
    /// let text = r#"{"name": "w", "base_url": "https://api.example.com",
    ///     "auth": {"type": "bearer", "token": "${TOKEN}"},
    ///     "endpoints": [{"name": "get", "path": "/x"}]}"#;
    /// let plugin = HttpPlugin::from_json_with(text, |name| {
    ///     (name == "TOKEN").then(|| "t-123".to_string())
    /// })?;
    /// // The file written back names the variable, never its value.
    /// assert!(plugin.to_json().to_string().contains(r#""token":"${TOKEN}""#));
    /// # Ok::<(), httptool::plugin::Error>(())
    /// ```
    pub fn from_json_with<F>(text: &str, lookup: F) -> Result<HttpPlugin, Error>
    where
        F: Fn(&str) -> Option<String>,
    {
        load(text, &lookup, "variable", Mode::LOOKUP)
    }
}

/// A `ParamBuilder` setter of a boolean field.
type FlagSetter = fn(ParamBuilder, bool) -> ParamBuilder;

/// What a loader does with a variable it has no value for.
#[derive(Clone, Copy)]
struct Mode {
    /// An empty value counts as no value (the environment: `export TOKEN=` is a mistake).
    empty_is_unset: bool,
    /// A variable with no value is left unresolved ([`HttpPlugin::from_json_deferred`])
    /// instead of being an error.
    defer: bool,
}

impl Mode {
    const ENVIRONMENT: Mode = Mode {
        empty_is_unset: true,
        defer: false,
    };
    const LOOKUP: Mode = Mode {
        empty_is_unset: false,
        defer: false,
    };
}

struct Loader<'a> {
    lookup: &'a dyn Fn(&str) -> Option<String>,
    what: &'static str,
    mode: Mode,
    /// The endpoint being read, for the variables its parameters leave unresolved.
    endpoint: RefCell<Option<String>>,
    /// Variables left unresolved: `(endpoint, name)`, the endpoint `None` at plugin level.
    deferred: RefCell<Vec<(Option<String>, String)>>,
}

fn load(
    text: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
    what: &'static str,
    mode: Mode,
) -> Result<HttpPlugin, Error> {
    let root = json::parse(text).map_err(|e| {
        Error::new(
            ErrorKind::Syntax,
            "",
            format!("the plugin file is not valid JSON: {}", e),
        )
    })?;
    let loader = Loader {
        lookup,
        what,
        mode,
        endpoint: RefCell::new(None),
        deferred: RefCell::new(Vec::new()),
    };
    loader.declaration(&root)?.build()
}

impl Loader<'_> {
    /// The plugin file read into a builder.
    fn declaration(self, root: &Json) -> Result<PluginBuilder, Error> {
        let loader = self;
        let map = fields(root, "", &[PLUGIN_FIELDS, &OPTION_NAMES])?;
        let name = required_str(map, "name", "")?;
        let base_text = required_str(map, "base_url", "")?;
        // The base URL decides where requests go: never a placeholder.
        let (base_url, base_url_template) = loader.template_with(base_text, "base_url", false)?;
        let mut builder = HttpPlugin::builder(name, base_url);
        builder.decl.base_url_template = base_url_template;
        if let Some(description) = opt_str(map, "description", "")? {
            builder = builder.description(description);
        }
        builder.decl.headers = loader.values(map, "headers", false)?;
        builder.decl.query = loader.values(map, "query", true)?;
        if let Some(auth) = map.get("auth") {
            builder.decl.auth = Some(loader.auth(auth, "auth")?);
        }
        if let Some(value) = map.get("confirm") {
            builder.decl.confirm = read_confirm(value, "confirm")?;
        }
        builder.decl.options = read_options(map, "")?;
        builder.decl.endpoints = loader.endpoints(map)?;
        match map.get("$defs") {
            Some(Json::Object(defs)) => builder.decl.defs = defs.clone(),
            Some(other) => {
                return Err(Error::new(
                    ErrorKind::InvalidField,
                    "$defs",
                    format!(
                        "expected an object of schemas by name; got {}",
                        other.type_name()
                    ),
                ))
            }
            None => {}
        }
        builder.decl.deferred = loader.deferred.into_inner();
        Ok(builder)
    }
}

// ----------------------------------------------------------------- reading fields

fn type_error(path: &str, expected: &str, got: &Json) -> Error {
    Error::new(
        ErrorKind::InvalidField,
        path,
        format!("expected {}; got {}", expected, got.type_name()),
    )
}

/// `"confirm"`: a policy word, `true` (`always`) or `false` (`never`), or a list of tool
/// names.
fn read_confirm(value: &Json, path: &str) -> Result<Confirm, Error> {
    const WORDS: &str = "never, destructive, writes, always, true, false, or a list of tool names";
    match value {
        Json::Bool(true) => Ok(Confirm::Always),
        Json::Bool(false) => Ok(Confirm::Never),
        Json::String(word) => Confirm::parse(word).ok_or_else(|| one_of(path, WORDS, word)),
        Json::Array(names) => {
            let mut list = Vec::with_capacity(names.len());
            for (i, name) in names.iter().enumerate() {
                let name = name
                    .as_str()
                    .ok_or_else(|| type_error(&index(path, i), "a tool name", name))?;
                list.push(name.to_string());
            }
            Ok(Confirm::Tools(list))
        }
        other => Err(type_error(path, WORDS, other)),
    }
}

fn one_of(path: &str, accepted: &str, got: &str) -> Error {
    Error::new(
        ErrorKind::InvalidField,
        path,
        format!("expected one of {}; got {}", accepted, quote(got)),
    )
}

/// The object at `path`, refusing fields not in `accepted` (with the closest suggested).
fn fields<'a>(value: &'a Json, path: &str, accepted: &[&[&str]]) -> Result<&'a Map, Error> {
    let map = value
        .as_object()
        .ok_or_else(|| type_error(path, "an object", value))?;
    for key in map.keys() {
        if !accepted.iter().any(|list| list.contains(&key.as_str())) {
            let all = accepted.concat();
            return Err(Error::new(
                ErrorKind::UnknownField,
                at(path, key),
                unknown_name_message("field", key, all.iter().copied()),
            ));
        }
    }
    Ok(map)
}

fn opt_str<'a>(map: &'a Map, key: &str, path: &str) -> Result<Option<&'a str>, Error> {
    match map.get(key) {
        None => Ok(None),
        Some(value) => value
            .as_str()
            .map(Some)
            .ok_or_else(|| type_error(&at(path, key), "a string", value)),
    }
}

fn required_str<'a>(map: &'a Map, key: &str, path: &str) -> Result<&'a str, Error> {
    opt_str(map, key, path)?.ok_or_else(|| {
        Error::new(
            ErrorKind::MissingField,
            path,
            format!("missing field {}", quote(key)),
        )
    })
}

fn opt_bool(map: &Map, key: &str, path: &str) -> Result<Option<bool>, Error> {
    match map.get(key) {
        None => Ok(None),
        Some(value) => value
            .as_bool()
            .map(Some)
            .ok_or_else(|| type_error(&at(path, key), "true or false", value)),
    }
}

fn opt_u64(map: &Map, key: &str, path: &str) -> Result<Option<u64>, Error> {
    match map.get(key) {
        None => Ok(None),
        Some(value) => value
            .as_u64()
            .map(Some)
            .ok_or_else(|| type_error(&at(path, key), "a whole number of 0 or more", value)),
    }
}

fn opt_u32(map: &Map, key: &str, path: &str) -> Result<Option<u32>, Error> {
    match opt_u64(map, key, path)? {
        None => Ok(None),
        Some(n) => u32::try_from(n).map(Some).map_err(|_| {
            Error::new(
                ErrorKind::InvalidField,
                at(path, key),
                format!("{} is too large", n),
            )
        }),
    }
}

fn opt_usize(map: &Map, key: &str, path: &str) -> Result<Option<usize>, Error> {
    match opt_u64(map, key, path)? {
        None => Ok(None),
        Some(n) => usize::try_from(n).map(Some).map_err(|_| {
            Error::new(
                ErrorKind::InvalidField,
                at(path, key),
                format!("{} is too large", n),
            )
        }),
    }
}

/// The options set at `path` (the top level or an endpoint), field by field of the one table.
fn read_options(map: &Map, path: &str) -> Result<Options, Error> {
    let mut options = Options::default();
    for field in OPTION_FIELDS {
        let key = field.name;
        match &field.value {
            Value::Millis(slot) => {
                if let Some(ms) = opt_u64(map, key, path)? {
                    (slot.set)(&mut options, Duration::from_millis(ms));
                }
            }
            Value::Bytes(slot, _) => {
                if let Some(bytes) = opt_usize(map, key, path)? {
                    (slot.set)(&mut options, bytes);
                }
            }
            Value::Count(slot) => {
                if let Some(count) = opt_u32(map, key, path)? {
                    (slot.set)(&mut options, count);
                }
            }
            Value::Flag(slot) => {
                if let Some(flag) = opt_bool(map, key, path)? {
                    (slot.set)(&mut options, flag);
                }
            }
            Value::Hosts(slot) => {
                if let Some(hosts) = map.get(key) {
                    (slot.set)(&mut options, host_list(hosts, &at(path, key))?);
                }
            }
            Value::Address(slot) => {
                if let Some(word) = opt_str(map, key, path)? {
                    let mode = match word {
                        "allow_all" => AddressMode::AllowAll,
                        "strict" => AddressMode::Strict,
                        other => return Err(one_of(&at(path, key), "allow_all, strict", other)),
                    };
                    (slot.set)(&mut options, mode);
                }
            }
        }
    }
    Ok(options)
}

fn host_list(hosts: &Json, field: &str) -> Result<Vec<String>, Error> {
    let list = hosts
        .as_array()
        .ok_or_else(|| type_error(field, "an array of host names", hosts))?;
    let mut out = Vec::with_capacity(list.len());
    for (i, host) in list.iter().enumerate() {
        let host = host
            .as_str()
            .ok_or_else(|| type_error(&index(field, i), "a string", host))?;
        out.push(host.to_string());
    }
    Ok(out)
}

impl Loader<'_> {
    /// Expands a template position: the text, and the template when a variable was read.
    fn template(&self, text: &str, path: &str) -> Result<(String, Option<String>), Error> {
        self.template_with(text, path, self.mode.defer)
    }

    /// As `template`; `defer` says whether a variable with no value may stay unresolved.
    fn template_with(
        &self,
        text: &str,
        path: &str,
        defer: bool,
    ) -> Result<(String, Option<String>), Error> {
        let mut empty = None;
        let mut lookup = |name: &str| match (self.lookup)(name) {
            Some(value) if !(value.is_empty() && self.mode.empty_is_unset) => Some(value),
            found => {
                if defer {
                    let endpoint = self.endpoint.borrow().clone();
                    self.deferred
                        .borrow_mut()
                        .push((endpoint, name.to_string()));
                    return Some(placeholder(name));
                }
                if found.is_some() {
                    empty = Some(name.to_string());
                }
                None
            }
        };
        let expanded = expand(text, &mut lookup);
        match expanded {
            Ok(None) => Ok((text.to_string(), None)),
            Ok(Some((value, false))) => Ok((value, None)),
            Ok(Some((value, true))) => Ok((value, Some(text.to_string()))),
            Err(name) if name.is_empty() => Err(Error::new(
                ErrorKind::InvalidTemplate,
                path,
                "'${' starts a variable: write ${NAME} (letters, digits and '_'), or $${ for a literal '${'",
            )),
            Err(name) => {
                let state = if empty.as_deref() == Some(name.as_str()) {
                    "is empty"
                } else {
                    "is not set"
                };
                Err(Error::new(
                    ErrorKind::MissingVariable,
                    path,
                    format!("{} {} {}", self.what, quote(&name), state),
                ))
            }
        }
    }

    /// A string (templates expanded), or `{"context": "key"}`; numbers and booleans as text
    /// where `scalars` allows.
    fn config_value(&self, value: &Json, path: &str, scalars: bool) -> Result<ConfigValue, Error> {
        match value {
            Json::String(text) => {
                let (value, template) = self.template(text, path)?;
                Ok(match template {
                    Some(template) => ConfigValue::from_template(template, value),
                    None => ConfigValue::literal(value),
                })
            }
            Json::Number(_) | Json::Bool(_) if scalars => {
                Ok(ConfigValue::literal(value.to_string()))
            }
            Json::Object(_) => {
                let map = fields(value, path, &[&["context"]])?;
                let key = required_str(map, "context", path)?;
                Ok(ConfigValue::context(key))
            }
            _ => Err(type_error(
                path,
                "a string or {\"context\": \"key\"}",
                value,
            )),
        }
    }

    fn values(
        &self,
        map: &Map,
        key: &str,
        scalars: bool,
    ) -> Result<Vec<(String, ConfigValue)>, Error> {
        self.values_at(map, key, "", scalars)
    }

    /// The object at `key` of `map`, which is at `parent` in the file, as named values.
    fn values_at(
        &self,
        map: &Map,
        key: &str,
        parent: &str,
        scalars: bool,
    ) -> Result<Vec<(String, ConfigValue)>, Error> {
        let value = match map.get(key) {
            Some(value) => value,
            None => return Ok(Vec::new()),
        };
        let path = at(parent, key);
        let object = value
            .as_object()
            .ok_or_else(|| type_error(&path, "an object", value))?;
        let mut out = Vec::with_capacity(object.len());
        for (name, value) in object {
            out.push((
                name.clone(),
                self.config_value(value, &at(&path, name), scalars)?,
            ));
        }
        Ok(out)
    }

    fn auth(&self, value: &Json, path: &str) -> Result<Auth, Error> {
        let map = value
            .as_object()
            .ok_or_else(|| type_error(path, "an object", value))?;
        let kind = required_str(map, "type", path)?;
        let field = |key: &str| -> Result<ConfigValue, Error> {
            let value = map.get(key).ok_or_else(|| {
                Error::new(
                    ErrorKind::MissingField,
                    path,
                    format!("missing field {}", quote(key)),
                )
            })?;
            self.config_value(value, &at(path, key), false)
        };
        match kind {
            "bearer" => {
                fields(value, path, &[&["type", "token"]])?;
                Ok(Auth::Bearer {
                    token: field("token")?,
                })
            }
            "basic" => {
                fields(value, path, &[&["type", "username", "password"]])?;
                Ok(Auth::Basic {
                    username: field("username")?,
                    password: field("password")?,
                })
            }
            "digest" => {
                fields(value, path, &[&["type", "username", "password"]])?;
                Ok(Auth::Digest {
                    username: field("username")?,
                    password: field("password")?,
                })
            }
            "header" | "query" => {
                fields(value, path, &[&["type", "name", "value"]])?;
                let name = required_str(map, "name", path)?.to_string();
                let value = field("value")?;
                Ok(if kind == "header" {
                    Auth::Header { name, value }
                } else {
                    Auth::Query { name, value }
                })
            }
            "oauth2_client_credentials" | "oauth2_refresh_token" => self.oauth(value, kind, path),
            "aws_sigv4" => {
                fields(
                    value,
                    path,
                    &[&[
                        "type",
                        "region",
                        "service",
                        "access_key_id",
                        "secret_access_key",
                        "session_token",
                    ]],
                )?;
                let mut sigv4 = AwsSigV4::new(
                    field("region")?,
                    field("service")?,
                    field("access_key_id")?,
                    field("secret_access_key")?,
                );
                if map.contains_key("session_token") {
                    sigv4 = sigv4.with_session_token(field("session_token")?);
                }
                Ok(Auth::AwsSigV4(sigv4))
            }
            other => Err(one_of(
                &at(path, "type"),
                "bearer, basic, header, query, oauth2_client_credentials, oauth2_refresh_token, aws_sigv4, digest",
                other,
            )),
        }
    }

    /// `{"type": "oauth2_client_credentials" | "oauth2_refresh_token", "token_url",
    /// "client_id", "client_secret", "refresh_token", "scope", "audience", "client_auth",
    /// "allow_http"}`.
    fn oauth(&self, value: &Json, kind: &str, path: &str) -> Result<Auth, Error> {
        let refresh = kind == "oauth2_refresh_token";
        let mut accepted = vec![
            "type",
            "token_url",
            "client_id",
            "client_secret",
            "scope",
            "audience",
            "client_auth",
            "allow_http",
        ];
        if refresh {
            accepted.push("refresh_token");
        }
        let map = fields(value, path, &[&accepted])?;
        let field = |key: &str| -> Result<Option<ConfigValue>, Error> {
            map.get(key)
                .map(|value| self.config_value(value, &at(path, key), false))
                .transpose()
        };
        let required = |key: &str| -> Result<ConfigValue, Error> {
            field(key)?.ok_or_else(|| {
                Error::new(
                    ErrorKind::MissingField,
                    path,
                    format!("missing field {}", quote(key)),
                )
            })
        };
        let token_url = required("token_url")?;
        let client_id = required("client_id")?;
        let mut oauth = if refresh {
            OAuth2::refresh_token(token_url, client_id, required("refresh_token")?)
        } else {
            OAuth2::client_credentials(token_url, client_id, required("client_secret")?)
        };
        if let (true, Some(secret)) = (refresh, field("client_secret")?) {
            oauth = oauth.with_client_secret(secret);
        }
        if let Some(scope) = opt_str(map, "scope", path)? {
            oauth = oauth.with_scope(scope);
        }
        if let Some(audience) = opt_str(map, "audience", path)? {
            oauth = oauth.with_audience(audience);
        }
        match opt_str(map, "client_auth", path)? {
            None | Some("basic") => {}
            Some("body") => oauth = oauth.with_client_auth(ClientAuth::Body),
            Some(other) => return Err(one_of(&at(path, "client_auth"), "basic, body", other)),
        }
        if let Some(allow) = opt_bool(map, "allow_http", path)? {
            oauth = oauth.allow_http(allow);
        }
        Ok(Auth::OAuth2(oauth))
    }

    fn endpoints(&self, map: &Map) -> Result<Vec<Endpoint>, Error> {
        let value = map
            .get("endpoints")
            .ok_or_else(|| Error::new(ErrorKind::MissingField, "", "missing field 'endpoints'"))?;
        let list = value
            .as_array()
            .ok_or_else(|| type_error("endpoints", "an array", value))?;
        let mut endpoints = Vec::with_capacity(list.len());
        for (i, e) in list.iter().enumerate() {
            endpoints.push(self.endpoint(e, &index("endpoints", i))?);
        }
        Ok(endpoints)
    }

    fn endpoint(&self, value: &Json, path: &str) -> Result<Endpoint, Error> {
        let map = fields(value, path, &[ENDPOINT_FIELDS, &OPTION_NAMES])?;
        let name = required_str(map, "name", path)?;
        *self.endpoint.borrow_mut() = Some(name.to_string());
        let method = match opt_str(map, "method", path)? {
            None => Method::Get,
            Some(word) => word.parse::<Method>().map_err(|_| {
                one_of(
                    &at(path, "method"),
                    "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, or another token of at most 32 characters",
                    word,
                )
            })?,
        };
        let template = required_str(map, "path", path)?;
        let mut builder = Endpoint::builder(name, method, template);
        if let Some(description) = opt_str(map, "description", path)? {
            builder = builder.description(description);
        }
        if let Some(title) = opt_str(map, "title", path)? {
            builder = builder.title(title);
        }
        if let Some(tags) = map.get("tags") {
            let field = at(path, "tags");
            let list = tags
                .as_array()
                .ok_or_else(|| type_error(&field, "an array of strings", tags))?;
            for (i, tag) in list.iter().enumerate() {
                let tag = tag
                    .as_str()
                    .ok_or_else(|| type_error(&index(&field, i), "a string", tag))?;
                builder = builder.tag(tag);
            }
        }
        if let Some(value) = map.get("confirm") {
            builder = builder.confirm(read_confirm(value, &at(path, "confirm"))?);
        }
        if let Some(value) = map.get("annotations") {
            builder = builder.annotations(read_annotations(value, &at(path, "annotations"))?);
        }
        if let Some(schema) = map.get("output_schema") {
            if !schema.is_object() {
                let field = at(path, "output_schema");
                return Err(type_error(&field, "a JSON Schema object", schema));
            }
            builder = builder.output_schema(schema.clone());
        }
        if let Some(word) = opt_str(map, "body_encoding", path)? {
            let encoding = match word {
                "json" => BodyEncoding::Json,
                "form" => BodyEncoding::Form,
                "multipart" => BodyEncoding::Multipart,
                "raw" => BodyEncoding::Raw,
                other => {
                    return Err(one_of(
                        &at(path, "body_encoding"),
                        "json, form, multipart, raw",
                        other,
                    ))
                }
            };
            builder = builder.body_encoding(encoding);
        }
        if let Some(pointer) = opt_str(map, "response_pointer", path)? {
            builder = builder.response_pointer(pointer);
        }
        if let Some(value) = map.get("pagination") {
            let pagination =
                crate::plugin::Pagination::from_json(value).map_err(|(key, why)| {
                    let field = at(path, "pagination");
                    let field = if key.is_empty() {
                        field
                    } else {
                        at(&field, &key)
                    };
                    Error::new(ErrorKind::InvalidField, &field, why)
                })?;
            builder = builder.pagination(pagination);
        }
        if let Some(list) = map.get("response_fields") {
            let field = at(path, "response_fields");
            let items = list
                .as_array()
                .ok_or_else(|| type_error(&field, "an array of field paths", list))?;
            let mut paths = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let text = item
                    .as_str()
                    .ok_or_else(|| type_error(&index(&field, i), "a field path", item))?;
                paths.push(text.to_string());
            }
            builder = builder.response_fields(paths);
        }
        if let Some(allow) = opt_bool(map, "fields_argument", path)? {
            builder = builder.fields_argument(allow);
        }
        if let Some(text) = opt_str(map, "base_url", path)? {
            builder = self.endpoint_base_url(builder, text, &at(path, "base_url"))?;
        }
        if let Some(auth) = map.get("auth") {
            let field = at(path, "auth");
            builder = match auth {
                Json::String(word) if word == "none" => builder.no_auth(),
                Json::String(word) => return Err(one_of(&field, "an auth object, none", word)),
                _ => builder.auth(self.auth(auth, &field)?),
            };
        }
        for (name, value) in self.values_at(map, "headers", path, false)? {
            builder = builder.endpoint_header(name, value);
        }
        if let Some(content_type) = opt_str(map, "content_type", path)? {
            builder = builder.content_type(content_type);
        }
        if let Some(allow) = opt_bool(map, "allow_unknown_arguments", path)? {
            builder = builder.allow_unknown_arguments(allow);
        }
        if let Some(allow) = opt_bool(map, "allow_delete_body", path)? {
            builder = builder.allow_delete_body(allow);
        }
        if let Some(allow) = opt_bool(map, "allow_get_body", path)? {
            builder = builder.allow_get_body(allow);
        }
        builder = builder.options(read_options(map, path)?);
        if let Some(params) = map.get("params") {
            let field = at(path, "params");
            let list = params
                .as_array()
                .ok_or_else(|| type_error(&field, "an array", params))?;
            for (j, param) in list.iter().enumerate() {
                builder = builder.param(self.param(param, &index(&field, j))?);
            }
        }
        Ok(builder.build())
    }

    fn param(&self, value: &Json, path: &str) -> Result<Param, Error> {
        let map = fields(value, path, &[PARAM_FIELDS])?;
        let name = required_str(map, "name", path)?;
        let mut builder = Param::builder(name);
        if let Some(word) = opt_str(map, "in", path)? {
            let location = Location::parse(word).ok_or_else(|| {
                one_of(
                    &at(path, "in"),
                    "query, path, header, body, form, cookie",
                    word,
                )
            })?;
            builder = builder.location(location);
        }
        if let Some(wire) = opt_str(map, "wire_name", path)? {
            builder = builder.wire_name(wire);
        }
        if let Some(description) = opt_str(map, "description", path)? {
            builder = builder.description(description);
        }
        // Without a `type`, a declared `schema` gives it (the builder reads it from there):
        // the model's value is checked as the schema it reads says.
        if map.contains_key("type") || !map.contains_key("schema") {
            builder = builder.ty(read_type(map, path, 1)?);
        }
        if let Some(format) = opt_str(map, "format", path)? {
            builder = builder.format(format);
        }
        let flags: [(&str, FlagSetter); 5] = [
            ("required", ParamBuilder::required),
            ("secret", ParamBuilder::secret),
            ("hidden", ParamBuilder::hidden),
            ("whole_body", ParamBuilder::whole_body),
            ("file", ParamBuilder::file),
        ];
        for (key, set) in flags {
            if let Some(flag) = opt_bool(map, key, path)? {
                builder = set(builder, flag);
            }
        }
        if let Some(key) = opt_str(map, "context", path)? {
            builder = builder.context(key);
        }
        if let Some(word) = opt_str(map, "array_style", path)? {
            let style = ArrayStyle::parse(word).ok_or_else(|| {
                one_of(
                    &at(path, "array_style"),
                    "repeat, comma, space, pipe, spread, deep_object",
                    word,
                )
            })?;
            builder = builder.array_style(style);
        }
        if let Some(schema) = map.get("schema") {
            if !schema.is_object() {
                return Err(type_error(
                    &at(path, "schema"),
                    "an object (a JSON Schema)",
                    schema,
                ));
            }
            builder = builder.schema(schema.clone());
        }
        if let Some(values) = map.get("enum") {
            let list = values
                .as_array()
                .ok_or_else(|| type_error(&at(path, "enum"), "an array", values))?;
            builder = builder.enum_values(list.iter().cloned());
        }
        let mut param = builder.build();
        if let Some(default) = map.get("default") {
            self.default(&mut param, default, &at(path, "default"))?;
        }
        Ok(param)
    }

    /// An endpoint's `base_url`: `${NAME}` read as in the plugin's. A variable left
    /// unresolved (`from_json_deferred`) leaves the endpoint's calls refused, naming it,
    /// rather than the plugin unreadable.
    fn endpoint_base_url(
        &self,
        builder: EndpointBuilder,
        text: &str,
        path: &str,
    ) -> Result<EndpointBuilder, Error> {
        let before = self.deferred.borrow().len();
        let (value, template) = self.template(text, path)?;
        let unset = self
            .deferred
            .borrow()
            .get(before)
            .map(|(_, name)| name.clone());
        Ok(builder.base_url_template(value, template, unset))
    }

    /// A default; for a hidden or secret parameter, a string default is a template position.
    fn default(&self, param: &mut Param, default: &Json, path: &str) -> Result<(), Error> {
        match default.as_str() {
            Some(text) if param.is_hidden() => {
                let (value, template) = self.template(text, path)?;
                param.default = Some(Json::String(value));
                param.default_template = template;
            }
            _ => param.default = Some(default.clone()),
        }
        Ok(())
    }
}

/// `{"read_only": true, ...}`: each hint optional, unknown when left out.
fn read_annotations(value: &Json, path: &str) -> Result<ToolAnnotations, Error> {
    let map = fields(value, path, &[ANNOTATION_FIELDS])?;
    Ok(ToolAnnotations {
        read_only: opt_bool(map, "read_only", path)?,
        destructive: opt_bool(map, "destructive", path)?,
        idempotent: opt_bool(map, "idempotent", path)?,
        open_world: opt_bool(map, "open_world", path)?,
    })
}

/// `type` with `items` and `properties`; recursion bounded by [`MAX_TYPE_DEPTH`].
fn read_type(map: &Map, path: &str, depth: usize) -> Result<ParamType, Error> {
    if depth > MAX_TYPE_DEPTH {
        return Err(Error::new(
            ErrorKind::InvalidField,
            path,
            format!("types nest deeper than {} levels", MAX_TYPE_DEPTH),
        ));
    }
    let word = opt_str(map, "type", path)?.unwrap_or("string");
    let lower = word.to_ascii_lowercase();
    if let Some(scalar) = ParamType::scalar(&lower) {
        return Ok(scalar);
    }
    if lower == "any" {
        return Ok(ParamType::Any);
    }
    match lower.as_str() {
        "array" => {
            let field = at(path, "items");
            let items = map.get("items").ok_or_else(|| {
                Error::new(
                    ErrorKind::MissingField,
                    path,
                    "missing field 'items' (an array needs the type of its items, such as {\"type\": \"string\"})",
                )
            })?;
            let items_map = fields(items, &field, &[ITEMS_FIELDS])?;
            Ok(ParamType::array(read_type(items_map, &field, depth + 1)?))
        }
        "object" => {
            let field = at(path, "properties");
            let properties = match map.get("properties") {
                None => return Ok(ParamType::object([])),
                Some(p) => p
                    .as_object()
                    .ok_or_else(|| type_error(&field, "an object of properties", p))?,
            };
            let mut out = Vec::with_capacity(properties.len());
            for (name, value) in properties {
                let ppath = at(&field, name);
                let pmap = fields(value, &ppath, &[PROPERTY_FIELDS])?;
                let mut property = Property::new(name.clone(), read_type(pmap, &ppath, depth + 1)?);
                if let Some(description) = opt_str(pmap, "description", &ppath)? {
                    property = property.with_description(description);
                }
                if let Some(required) = opt_bool(pmap, "required", &ppath)? {
                    property = property.with_required(required);
                }
                out.push(property);
            }
            Ok(ParamType::Object(out))
        }
        _ => Err(one_of(
            &at(path, "type"),
            "string, integer, number, boolean, array, object, any",
            word,
        )),
    }
}
