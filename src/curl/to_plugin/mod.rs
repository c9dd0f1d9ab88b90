//! A [`CurlCommand`] into an [`HttpPlugin`] with one endpoint: the rules are in the module
//! docs of [`curl`](super), "Converting to a plugin".
//!
//! | file | what it turns into parameters, headers and auth |
//! | --- | --- |
//! | `mod.rs` | options, the result, the URL and path, the query, curl's options |
//! | `auth.rs` | credentials: the auth slot, secret headers and query values, variables |
//! | `headers.rs` | the headers curl sends: static, secret, or left out |
//! | `body.rs` | the body: JSON members, form fields, multipart parts |

mod auth;
mod body;
mod headers;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::time::Duration;

use super::command::{CurlCommand, Note};
use super::error::{Error, Reason};
use super::infer;
use super::sent::{decode, decode_pairs, joined_data, pairs_are_text, without_userinfo};
use crate::http::{is_credential_name, Method};
use crate::json::{Json, Map};
use crate::plugin::naming::{self, Names};
use crate::plugin::{
    Auth, BodyEncoding, ConfigValue, Endpoint, EndpointBuilder, HttpPlugin, Location, Options,
    Param, ParamBuilder, ParamType, PluginBuilder,
};
use crate::tool;
use crate::url::Url;

/// The most parameters and headers a converted command may have. Defaults to 256; change
/// it with [`ImportOptions::max_params`].
pub const DEFAULT_MAX_PARAMS: usize = 256;

/// How [`to_plugin_with`] converts a command. Every setting is off or derived by default.
///
/// # Examples
///
/// ```
/// use httptool::curl::{self, ImportOptions};
///
/// let cmd = curl::parse("curl https://api.example.com/v1/users/42/orders?limit=10")?;
/// let options = ImportOptions::new()
///     .tool_name("list_user_orders")
///     .sample_defaults(true)
///     .infer_path_params(true);
/// let import = curl::to_plugin_with(&cmd, &options)?;
/// let endpoint = import.plugin().endpoint("list_user_orders").unwrap();
/// assert_eq!(endpoint.path(), "/users/{user_id}/orders");
/// assert_eq!(endpoint.param("limit").and_then(|p| p.default()).and_then(|d| d.as_i64()), Some(10));
/// # Ok::<(), curl::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportOptions {
    tool_name: Option<String>,
    plugin_name: Option<String>,
    description: Option<String>,
    sample_defaults: bool,
    infer_path_params: bool,
    keep_secrets: bool,
    keep_browser_headers: bool,
    max_params: usize,
}

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions {
            tool_name: None,
            plugin_name: None,
            description: None,
            sample_defaults: false,
            infer_path_params: false,
            keep_secrets: false,
            keep_browser_headers: false,
            max_params: DEFAULT_MAX_PARAMS,
        }
    }
}

impl ImportOptions {
    /// The defaults.
    pub fn new() -> ImportOptions {
        ImportOptions::default()
    }

    /// The tool's name. Defaults to one derived from the method and path (`create_ticket`).
    #[must_use]
    pub fn tool_name(mut self, name: impl Into<String>) -> ImportOptions {
        self.tool_name = Some(name.into());
        self
    }

    /// The plugin's name. Defaults to one derived from the host (`api.github.com` is
    /// `github`).
    #[must_use]
    pub fn plugin_name(mut self, name: impl Into<String>) -> ImportOptions {
        self.plugin_name = Some(name.into());
        self
    }

    /// The tool's description, which the model reads. Defaults to the method and URL
    /// without its query.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> ImportOptions {
        self.description = Some(description.into());
        self
    }

    /// Makes the command's values the parameters' defaults (and the parameters optional).
    /// Defaults to `false`: every parameter is required and has no default, so nothing of
    /// the sample ends up in the tool's schema.
    #[must_use]
    pub fn sample_defaults(mut self, on: bool) -> ImportOptions {
        self.sample_defaults = on;
        self
    }

    /// Turns id-looking path segments into path parameters (`/users/42` becomes
    /// `/users/{user_id}`). Defaults to `false`.
    #[must_use]
    pub fn infer_path_params(mut self, on: bool) -> ImportOptions {
        self.infer_path_params = on;
        self
    }

    /// Writes credentials into the plugin as they are. Defaults to `false`: each credential
    /// becomes a `${NAME}` variable in the plugin file (the in-memory plugin still holds the
    /// value, so it works at once), and [`Import::variables`] names them.
    #[must_use]
    pub fn keep_secrets(mut self, on: bool) -> ImportOptions {
        self.keep_secrets = on;
        self
    }

    /// Keeps the headers a browser's "Copy as cURL" adds (`sec-ch-*`, `sec-fetch-*`,
    /// `priority`, `dnt`, ...). Defaults to `false`: each is left out with a note.
    #[must_use]
    pub fn keep_browser_headers(mut self, on: bool) -> ImportOptions {
        self.keep_browser_headers = on;
        self
    }

    /// The most parameters and headers the command may have ([`ErrorKind::TooManyParams`](crate::curl::ErrorKind::TooManyParams)
    /// beyond). Defaults to [`DEFAULT_MAX_PARAMS`].
    #[must_use]
    pub fn max_params(mut self, max: usize) -> ImportOptions {
        self.max_params = max;
        self
    }
}

/// The result of [`to_plugin_with`]: the plugin, the notes on what was left out or
/// approximated, the environment variables its credentials need, and the arguments that
/// reproduce the command's request.
#[derive(Debug)]
pub struct Import {
    plugin: HttpPlugin,
    notes: Vec<Note>,
    variables: Vec<Variable>,
    arguments: Map,
}

impl Import {
    /// The plugin: one endpoint, ready to add to a registry. `to_json` writes its file.
    pub fn plugin(&self) -> &HttpPlugin {
        &self.plugin
    }

    /// The plugin, by value.
    pub fn into_plugin(self) -> HttpPlugin {
        self.plugin
    }

    /// The name of the endpoint's tool.
    pub fn tool_name(&self) -> &str {
        self.plugin.endpoints().next().map_or("", Endpoint::name)
    }

    /// What was left out or approximated: the parser's notes and the conversion's, in
    /// argument order (argument 0 for notes about the whole command).
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// The environment variables the plugin file reads for its credentials, in order:
    /// set them before loading the file. Empty with [`ImportOptions::keep_secrets`].
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// The arguments whose call sends the command's request (as nearly as the notes say):
    /// the sample value of every parameter the model sets.
    pub fn sample_arguments(&self) -> &Map {
        &self.arguments
    }
}

/// An environment variable a converted plugin reads a credential from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    name: String,
    purpose: String,
}

impl Variable {
    /// A variable named `name` that holds `purpose` (the Postman and HAR importers list
    /// theirs with this type too).
    pub(crate) fn new(name: impl Into<String>, purpose: impl Into<String>) -> Variable {
        Variable {
            name: name.into(),
            purpose: purpose.into(),
        }
    }

    /// The variable's name, such as `GITHUB_TOKEN`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What it holds, such as `the bearer token of the Authorization header`.
    pub fn purpose(&self) -> &str {
        &self.purpose
    }
}

impl fmt::Display for Variable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.purpose)
    }
}

/// Converts a curl command into a plugin with one endpoint, with the default
/// [`ImportOptions`]: parameters required and without defaults, credentials as `${NAME}`
/// variables in the plugin file (the returned plugin holds their values, so it can be
/// called at once).
///
/// Use [`to_plugin_with`] for the options, the notes on what was left out, and the names of
/// the variables.
///
/// # Errors
///
/// As [`to_plugin_with`].
///
/// # Examples
///
/// ```
/// use httptool::curl;
///
/// let cmd = curl::parse(r#"curl https://api.example.com/v1/tickets \
///   -H 'Authorization: Bearer t0ken' \
///   --json '{"title": "Printer on fire", "priority": 2}'"#)?;
/// let plugin = curl::to_plugin(&cmd)?;
/// let endpoint = plugin.endpoint("create_ticket").unwrap();
/// assert_eq!(endpoint.params().len(), 2);
/// assert!(plugin.to_json().to_string().contains(r#""token":"${EXAMPLE_TOKEN}""#));
/// # Ok::<(), curl::Error>(())
/// ```
pub fn to_plugin(command: &CurlCommand) -> Result<HttpPlugin, Error> {
    to_plugin_with(command, &ImportOptions::new()).map(Import::into_plugin)
}

/// Converts a curl command into a plugin with one endpoint (see the [module docs](super)
/// for the rules), with the notes on what was left out or approximated.
///
/// # Errors
///
/// [`ErrorKind::InvalidUrl`](crate::curl::ErrorKind::InvalidUrl), [`ErrorKind::UnsupportedMethod`](crate::curl::ErrorKind::UnsupportedMethod), [`ErrorKind::UnsupportedBody`](crate::curl::ErrorKind::UnsupportedBody) (a text
/// or XML body, a JSON body on GET, data read from a file that is not JSON),
/// [`ErrorKind::InvalidJson`](crate::curl::ErrorKind::InvalidJson) (JSON data that does not parse, or nests deeper than
/// [`json::DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH)), [`ErrorKind::TooManyParams`](crate::curl::ErrorKind::TooManyParams), [`ErrorKind::InvalidName`](crate::curl::ErrorKind::InvalidName) for a
/// name given in `options`, and [`ErrorKind::Plugin`](crate::curl::ErrorKind::Plugin) if the result fails the plugin's checks.
///
/// # Security
///
/// The command is untrusted: conversion takes time about linear in its size and never
/// panics. Credentials never become model-visible parameters, and by default the plugin
/// file names environment variables instead of holding them.
pub fn to_plugin_with(command: &CurlCommand, options: &ImportOptions) -> Result<Import, Error> {
    if command.more_urls.is_empty() {
        return Converter::new(command, options)?.run();
    }
    several_urls(command, options)
}

/// A command's request, converted: the plugin's parts and the endpoint apart, so that the
/// endpoints of several URLs make one plugin.
struct Converted {
    plugin: PluginBuilder,
    endpoint: EndpointBuilder,
    tool_name: String,
    base: String,
    notes: Vec<Note>,
    variables: Vec<Variable>,
    arguments: Map,
}

/// A command with several URLs: curl sends the same request to each in turn, so each is an
/// endpoint of one plugin, converted as a command of its own. The first URL's base is the
/// plugin's; an endpoint under another is given its own base URL. The headers, auth and
/// options are the command's, the same for every URL. Notes about the command are given
/// once; the sample arguments are the first URL's.
fn several_urls(command: &CurlCommand, options: &ImportOptions) -> Result<Import, Error> {
    let urls = std::iter::once((command.url.clone(), command.url_index))
        .chain(command.more_urls.iter().cloned());
    let mut first: Option<Converted> = None;
    let mut endpoints: Vec<EndpointBuilder> = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    let mut notes: Vec<Note> = Vec::new();
    let mut variables: Vec<Variable> = Vec::new();
    for (url, url_index) in urls {
        let mut single = command.clone();
        single.url = url;
        single.url_index = url_index;
        single.more_urls = Vec::new();
        let converted = Converter::new(&single, options)?.convert(&taken)?;
        taken.push(converted.tool_name.clone());
        for note in &converted.notes {
            if !notes.contains(note) {
                notes.push(note.clone());
            }
        }
        for variable in &converted.variables {
            if !variables.iter().any(|v| v.name == variable.name) {
                variables.push(variable.clone());
            }
        }
        match &first {
            None => first = Some(converted),
            Some(first) if converted.base == first.base => endpoints.push(converted.endpoint),
            Some(_) => endpoints.push(converted.endpoint.base_url(converted.base)),
        }
    }
    let first = match first {
        Some(first) => first,
        None => return Err(Error::from(Reason::NoUrl)),
    };
    let mut builder = first.plugin.endpoint(first.endpoint);
    for endpoint in endpoints {
        builder = builder.endpoint(endpoint);
    }
    crate::sort::by_key(&mut notes, |note| note.arg_index() as u64);
    Ok(Import {
        plugin: builder
            .build()
            .map_err(|e| Error::from(Reason::Plugin(e)))?,
        notes,
        variables,
        arguments: first.arguments,
    })
}

struct Converter<'a> {
    cmd: &'a CurlCommand,
    options: &'a ImportOptions,
    method: Method,
    url: Url,
    env_prefix: String,
    notes: Vec<Note>,
    variables: Vec<Variable>,
    /// The names in `variables`, and the command's own shell variables: a command may hold
    /// thousands, and each value was checked against every one (quadratic).
    listed: HashSet<String>,
    shell_names: HashSet<&'a str>,
    params: Vec<Param>,
    /// The names of `params`, taken.
    names: Names,
    /// The sample arguments, in order; their names are unique (they are parameters'), so
    /// they are collected into a map once at the end rather than inserted one by one.
    arguments: Vec<(String, Json)>,
    headers: Vec<(String, ConfigValue)>,
    /// Where each header name (lowercase) is in `headers`: 10,000 `-H` options would scan
    /// the list once each (quadratic).
    header_at: HashMap<String, usize>,
    /// Each static header's text as given, by its place in `headers`, and whether it was
    /// repeated: a repeated header's value is made once from its joined text, after all
    /// are read (making it at each repeat was quadratic).
    header_text: HashMap<usize, (String, bool)>,
    /// The argument index of the last `-H` of each header name (lowercase).
    last_header: HashMap<String, usize>,
    auth: Option<Auth>,
    /// The data goes to the query: `-G`, or form data of a GET.
    data_in_query: bool,
    /// The data is empty (`-d ''`): no parameters, but curl's form type.
    empty_data: bool,
    /// Query values sent with every call (those that hold a shell variable).
    static_query: Vec<(String, ConfigValue)>,
    /// An error found where returning it at once was not possible; `run` returns it.
    failed: Option<Error>,
}

impl<'a> Converter<'a> {
    fn new(cmd: &'a CurlCommand, options: &'a ImportOptions) -> Result<Converter<'a>, Error> {
        let method = method(cmd)?;
        check_url_variables(cmd)?;
        let url = parse_url(cmd)?;
        let plugin_name = match &options.plugin_name {
            Some(name) => {
                tool::validate_name(name).map_err(|e| {
                    Error::from(Reason::InvalidName {
                        what: "plugin",
                        reason: e.to_string(),
                    })
                })?;
                name.clone()
            }
            None => infer::plugin_name(url.host_str()),
        };
        Ok(Converter {
            cmd,
            options,
            method,
            url,
            env_prefix: plugin_name,
            notes: Vec::new(),
            variables: Vec::new(),
            listed: HashSet::new(),
            shell_names: cmd.variables().iter().map(String::as_str).collect(),
            params: Vec::new(),
            names: Names::default(),
            arguments: Vec::new(),
            headers: Vec::new(),
            header_at: HashMap::new(),
            header_text: HashMap::new(),
            last_header: cmd
                .headers()
                .iter()
                .map(|h| (h.name().to_ascii_lowercase(), h.arg_index()))
                .collect(),
            auth: None,
            data_in_query: cmd.get() && cmd.form().is_empty(),
            empty_data: false,
            static_query: Vec::new(),
            failed: None,
        })
    }

    fn run(self) -> Result<Import, Error> {
        let converted = self.convert(&[])?;
        let plugin = converted
            .plugin
            .endpoint(converted.endpoint)
            .build()
            .map_err(|e| Error::from(Reason::Plugin(e)))?;
        Ok(Import {
            plugin,
            notes: converted.notes,
            variables: converted.variables,
            arguments: converted.arguments,
        })
    }

    /// The command's request as an endpoint and the plugin parts around it; the tool named
    /// apart from `taken` (the endpoints of the URLs before this one).
    fn convert(mut self, taken: &[String]) -> Result<Converted, Error> {
        if self.method.as_str() != self.cmd.method() {
            let message = format!(
                "curl sends the method as written; httptool sends `{}`",
                self.method
            );
            self.note(0, message);
        }
        let body = self.body()?;
        self.check_param_count(&body)?;
        let (base, path) = self.split_path();
        self.credentials();
        self.headers(&body);
        self.query()?;
        let multipart = body.is_multipart();
        self.body_params(body)?;
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        let (plugin, endpoint, tool_name) = self.build(base.clone(), path, multipart, taken)?;
        let mut notes = self.cmd.notes().to_vec();
        notes.extend(self.notes);
        crate::sort::by_key(&mut notes, |note| note.arg_index() as u64);
        Ok(Converted {
            plugin,
            endpoint,
            tool_name,
            base,
            notes,
            variables: self.variables,
            arguments: self.arguments.into_iter().collect(),
        })
    }

    /// The plugin of what was gathered (static headers, auth, options) and its endpoint,
    /// apart, with the tool's name.
    fn build(
        &mut self,
        base: String,
        path: String,
        multipart: bool,
        taken: &[String],
    ) -> Result<(PluginBuilder, EndpointBuilder, String), Error> {
        let options = self.options_from_command();
        let tool_name = naming::unique(&self.tool_name(&path)?, &|n| taken.iter().any(|t| t == n));
        let description = match &self.options.description {
            Some(description) => description.clone(),
            None => format!("{} {}{}", self.method, base, path),
        };
        let delete_body = self.method == Method::Delete && self.has_body_params();
        let get_body = self.method == Method::Get && self.has_body_params() && !self.data_in_query;
        let mut endpoint = Endpoint::builder(tool_name.clone(), self.method, path)
            .description(description.clone())
            .params(std::mem::take(&mut self.params))
            .allow_delete_body(delete_body)
            .allow_get_body(get_body);
        if multipart {
            endpoint = endpoint.body_encoding(BodyEncoding::Multipart);
        }
        let mut builder = HttpPlugin::builder(self.env_prefix.clone(), base)
            .description(description)
            .options(options);
        for (name, value) in std::mem::take(&mut self.headers) {
            builder = builder.header(name, value);
        }
        for (name, value) in std::mem::take(&mut self.static_query) {
            builder = builder.query(name, value);
        }
        if let Some(auth) = self.auth.take() {
            builder = builder.auth(auth);
        }
        Ok((builder, endpoint, tool_name))
    }

    fn note(&mut self, arg_index: usize, message: String) {
        self.notes.push(Note { arg_index, message });
    }

    fn has_body_params(&self) -> bool {
        self.params
            .iter()
            .any(|p| matches!(p.location(), Location::Body | Location::Form))
    }

    // ------------------------------------------------------------- parameters

    /// A parameter builder for a wire name: the model's name is the wire name made valid
    /// and unique; a wire name is declared only when they differ.
    fn named(&self, location: Location, wire: &str) -> ParamBuilder {
        let name = self.names.unique(&infer::param_name(wire));
        let builder = Param::builder(name.clone()).location(location);
        if name == wire {
            builder
        } else {
            builder.wire_name(wire)
        }
    }

    fn push_param(&mut self, param: Param, sample: Option<Json>) {
        if let Some(sample) = sample {
            if !param.is_hidden() {
                self.arguments.push((param.name().to_string(), sample));
            }
        }
        self.names.take(param.name());
        self.params.push(param);
    }

    /// A visible parameter for a sampled value: required without a default, or optional
    /// with the sample as its default. An empty sample is always the default, since an
    /// empty argument counts as absent.
    fn sampled(&mut self, builder: ParamBuilder, sample: Json) {
        let empty = matches!(&sample, Json::String(s) if s.is_empty());
        let param = if self.options.sample_defaults || empty {
            builder.default(sample.clone())
        } else {
            builder.required(true)
        };
        self.push_param(param.build(), Some(sample));
    }

    /// One query parameter for a name and its values: a scalar, or an array for a repeated
    /// name.
    fn query_param(&mut self, wire: &str, values: &[String]) {
        let (ty, sample) = typed_values(values);
        let builder = self.named(Location::Query, wire).ty(ty);
        self.sampled(builder, sample);
    }

    // ------------------------------------------------------------- URL and path

    /// The base URL (scheme, authority and leading version segments such as `/v1`) and the
    /// endpoint's path template, with path parameters when asked.
    fn split_path(&mut self) -> (String, String) {
        let encoded: Vec<String> = self
            .url
            .path()
            .trim_start_matches('/')
            .split('/')
            .map(str::to_string)
            .collect();
        let decoded: Vec<String> = encoded.iter().map(|s| decode(s)).collect();
        let versions = decoded
            .iter()
            .take_while(|s| infer::is_version_segment(s))
            .count();
        // Keep at least one segment in the endpoint's path.
        let versions = versions.min(encoded.len().saturating_sub(1));
        let mut base = format!("{}://{}", self.url.scheme(), self.url.authority());
        for segment in &encoded[..versions] {
            base.push('/');
            base.push_str(segment);
        }
        let mut path = String::new();
        let mut previous_word: Option<String> = None;
        for (segment, text) in encoded[versions..].iter().zip(&decoded[versions..]) {
            if infer::is_token_segment(text) {
                let message = "a path segment looks like a secret token (a webhook URL's, \
                               say); the plugin file holds the path as written";
                self.note(self.cmd.url_index(), message.to_string());
            }
            path.push('/');
            if self.options.infer_path_params && infer::is_id_segment(text) {
                let name = self.path_param(previous_word.as_deref(), text);
                path.push('{');
                path.push_str(&name);
                path.push('}');
            } else {
                path.push_str(segment);
                if !text.is_empty() {
                    previous_word = Some(text.clone());
                }
            }
        }
        (base, path)
    }

    /// A path parameter for an id segment after `previous` (`users` gives `user_id`).
    fn path_param(&mut self, previous: Option<&str>, sample: &str) -> String {
        let stem = previous
            .map(|word| infer::singular(&infer::snake_case(word)))
            .filter(|word| !word.is_empty());
        let name = match stem {
            Some(stem) => infer::param_name(&format!("{}_id", stem)),
            None => "id".to_string(),
        };
        let name = self.names.unique(&name);
        let value = infer::text_value(sample);
        let ty = infer::scalar_type(&value).unwrap_or(ParamType::String);
        let mut param = Param::path(name.clone()).ty(ty);
        if self.options.sample_defaults {
            param = param.default(value.clone());
        }
        self.push_param(param.build(), Some(value));
        name
    }

    fn tool_name(&self, path: &str) -> Result<String, Error> {
        if let Some(name) = &self.options.tool_name {
            tool::validate_name(name).map_err(|e| {
                Error::from(Reason::InvalidName {
                    what: "tool",
                    reason: e.to_string(),
                })
            })?;
            return Ok(name.clone());
        }
        let segments: Vec<String> = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| {
                if s.starts_with('{') {
                    s.to_string()
                } else {
                    decode(s)
                }
            })
            .collect();
        let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
        Ok(infer::tool_name(
            self.method.as_str(),
            &segments,
            &infer::snake_case(&self.env_prefix),
        ))
    }

    // ------------------------------------------------------------- query

    /// The URL's query pairs and, with `-G`, the data.
    fn query_pairs(&self) -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = self.url.query_pairs().collect();
        if self.data_in_query {
            pairs.extend(decode_pairs(&joined_data(self.cmd)));
        }
        pairs
    }

    /// Query pairs: visible parameters, or secrets.
    fn query(&mut self) -> Result<(), Error> {
        if self.data_in_query {
            if let Some(part) = self.cmd.data().iter().find(|p| p.file().is_some()) {
                return Err(Error::from(Reason::UnsupportedBody {
                    arg_index: part.arg_index(),
                    reason: "with -G curl would read query pairs from a file, which httptool \
                             does not read; write the pairs out"
                        .to_string(),
                }));
            }
        }
        let text = pairs_are_text(self.url.query().unwrap_or("").as_bytes())
            && (!self.data_in_query || pairs_are_text(&joined_data(self.cmd)));
        if !text {
            self.note(self.cmd.url_index(), body::NOT_TEXT.to_string());
        }
        let mut pairs = self.query_pairs();
        if pairs.iter().any(|(name, _)| name.is_empty()) {
            pairs.retain(|(name, _)| !name.is_empty());
            let message = "a query pair without a name is left out";
            self.note(self.cmd.url_index(), message.to_string());
        }
        // A name is secret when any of its values looks so (a shell variable's name
        // included), or when the name does and it holds one value: a credential is one
        // value, so a name-only match sent with several (`key=one&key=two`) is a list, sent
        // whole as curl sends it rather than cut to its first value.
        let mut secret_names: HashSet<String> = HashSet::new();
        let mut listed: HashMap<&str, (&str, bool)> = HashMap::new();
        for (name, value) in &pairs {
            if infer::is_secret_value(value) || self.has_secret_variable(value) {
                secret_names.insert(name.clone());
            } else if is_credential_name(name) {
                let seen = listed.entry(name).or_insert((value, false));
                seen.1 |= seen.0 != value.as_str();
            }
        }
        for (name, (_, several)) in listed {
            if !several {
                secret_names.insert(name.to_string());
            }
        }
        let (secret, visible): (Vec<_>, Vec<_>) = pairs
            .into_iter()
            .partition(|(name, _)| secret_names.contains(name));
        // A value from a shell variable is the user's, not the model's: sent with every call.
        let (fixed, visible): (Vec<_>, Vec<_>) = visible
            .into_iter()
            .partition(|(_, value)| self.has_variable(value));
        for (name, value) in fixed {
            if self.static_query.iter().any(|(n, _)| *n == name) {
                let message = format!(
                    "query parameter `{}` is repeated; only its first value is kept",
                    name
                );
                self.note(self.cmd.url_index(), message);
                continue;
            }
            let purpose = format!("the {} query parameter", name);
            let value = self.shell_template(&value, &purpose);
            self.static_query.push((name, value));
        }
        for (name, values) in group(visible) {
            self.query_param(&name, &values);
        }
        // After the parameters, where the plugin puts its own query credentials.
        for (name, value) in secret {
            self.secret_query(&name, &value);
        }
        Ok(())
    }

    // ------------------------------------------------------------- options

    fn options_from_command(&mut self) -> Options {
        let cmd = self.cmd;
        let mut options = Options::new();
        if cmd.location() {
            let message = "-L: the tool follows redirects to the same origin only; list other \
                           hosts in the plugin's redirect_hosts";
            self.note(0, message.to_string());
            if let Some(max) = cmd.max_redirs() {
                options = options.max_redirects(max);
            }
        }
        if let Some(timeout) = cmd.max_time() {
            options = options.timeout_call(timeout.max(Duration::from_millis(1)));
        }
        if let Some(timeout) = cmd.connect_timeout() {
            options = options.timeout_connect(timeout.max(Duration::from_millis(1)));
        }
        let flags = [
            (
                cmd.insecure(),
                "-k/--insecure is not carried over: httptool always verifies certificates",
            ),
            (
                cmd.compressed(),
                "--compressed is not carried over: httptool asks for uncompressed responses",
            ),
            (
                cmd.proxy().is_some(),
                "-x/--proxy is not carried over: a proxy is the application's client setting",
            ),
            (
                cmd.user_agent() == Some(""),
                "-A '' removes curl's User-Agent; httptool sends its own",
            ),
        ];
        for (on, message) in flags {
            if on {
                self.note(0, message.to_string());
            }
        }
        options
    }
}

/// The method, as an httptool method.
fn method(cmd: &CurlCommand) -> Result<Method, Error> {
    cmd.method().parse::<Method>().map_err(|_| {
        Error::from(Reason::UnsupportedMethod {
            method: cmd.method().chars().take(32).collect(),
        })
    })
}

/// A shell variable in the URL's scheme, host or path (its userinfo and query may hold
/// them) is an error: a plugin file reads none there.
fn check_url_variables(cmd: &CurlCommand) -> Result<(), Error> {
    let text = without_userinfo(cmd.url());
    let before_query = text.split(['?', '#']).next().unwrap_or("");
    let found = cmd.variables().iter().find_map(|name| {
        before_query
            .find(&format!("${{{}}}", name))
            .map(|at| (name, at))
    });
    let (name, at) = match found {
        Some(found) => found,
        None => return Ok(()),
    };
    // A plugin file reads `${NAME}` in its base_url, but the plugin made here must have its
    // base URL now, and nothing in this module reads the environment (the plugin file does,
    // when loaded): the URL's start is written out, and the file edited after.
    let reason = if at < authority_end(before_query) {
        "it is in the URL's scheme or host, and the plugin made here needs a real base URL \
         (nothing here reads the environment): write the URL out, then write the variable \
         in the plugin file's base_url, which reads it"
    } else {
        "it is in the URL's path, which a plugin file holds as written; write the URL out (a \
         query value may be a variable)"
    };
    Err(Error::from(Reason::VariablePlace {
        name: name.clone(),
        arg_index: cmd.url_index(),
        reason,
    }))
}

/// Where the scheme and authority of a URL (or of text curl reads as one, `host/path`
/// without a scheme) end: at the first `/` after them.
fn authority_end(url: &str) -> usize {
    let start = url.find("://").map_or(0, |at| at + 3);
    url[start..].find('/').map_or(url.len(), |at| start + at)
}

/// The URL without credentials, parsed by httptool's parser.
fn parse_url(cmd: &CurlCommand) -> Result<Url, Error> {
    let text = without_userinfo(cmd.url());
    Url::parse(&text).map_err(|e| {
        Error::from(Reason::InvalidUrl {
            arg_index: cmd.url_index(),
            reason: e.to_string(),
        })
    })
}

/// How many distinct names there are.
fn distinct(names: impl Iterator<Item = String>) -> usize {
    let mut seen = std::collections::HashSet::new();
    names.filter(|n| seen.insert(n.clone())).count()
}

/// Pairs grouped by name, in order of first appearance.
fn group(pairs: Vec<(String, String)>) -> Vec<(String, Vec<String>)> {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (name, value) in pairs {
        match index.get(&name) {
            Some(&at) => groups[at].1.push(value),
            None => {
                index.insert(name.clone(), groups.len());
                groups.push((name, vec![value]));
            }
        }
    }
    groups
}

/// The type and sample of text values: one value typed as [`infer::text_value`] says; a
/// repeated name an array of the type all its values share (else strings).
fn typed_values(values: &[String]) -> (ParamType, Json) {
    let mut typed = Vec::with_capacity(values.len());
    let mut types = Vec::with_capacity(values.len());
    for value in values {
        let value = infer::text_value(value);
        types.push(infer::scalar_type(&value).unwrap_or(ParamType::String));
        typed.push(value);
    }
    let first = types.first().cloned().unwrap_or(ParamType::String);
    if let [one] = typed.as_slice() {
        return (first, one.clone());
    }
    let numeric = |t: &ParamType| matches!(t, ParamType::Integer | ParamType::Number);
    let item = if types.iter().all(|t| *t == first) {
        first
    } else if types.iter().all(numeric) {
        ParamType::Number
    } else {
        let mut strings = Vec::with_capacity(values.len());
        for value in values {
            strings.push(Json::from(value.as_str()));
        }
        return (ParamType::array(ParamType::String), Json::Array(strings));
    };
    (ParamType::array(item), Json::Array(typed))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn repeated_values_share_a_type() {
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            typed_values(&strings(&["1", "2"])),
            (ParamType::array(ParamType::Integer), crate::json!([1, 2]))
        );
        assert_eq!(
            typed_values(&strings(&["1", "2.5"])),
            (ParamType::array(ParamType::Number), crate::json!([1, 2.5]))
        );
        assert_eq!(
            typed_values(&strings(&["1", "x"])),
            (
                ParamType::array(ParamType::String),
                crate::json!(["1", "x"])
            )
        );
        assert_eq!(
            typed_values(&strings(&["true"])),
            (ParamType::Boolean, crate::json!(true))
        );
    }
}
