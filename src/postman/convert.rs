//! A Postman collection into a plugin: the walk over its items, URLs, variables, bodies and
//! auth. The rules are in the [module docs](super).

use std::collections::HashMap;

use super::collect::{
    encode_segment, fits, fixed_param, json_type, shape, shorten, text_type, Params, Secrets,
};
use super::error::{Error, Reason};
use super::options::{Import, ImportOptions};
use crate::curl::infer;
use crate::http::{is_credential_name, Method};
use crate::json::{self, Json, Map};
use crate::plugin::naming::{self, Names};
use crate::plugin::{
    Auth, AwsSigV4, BodyEncoding, ConfigValue, Endpoint, HttpPlugin, Location, OAuth2, Param,
    ParamType,
};
use crate::tool;

/// Where a plugin whose base URL is a variable without a value points until its file is
/// loaded with the variable set.
const PLACEHOLDER_BASE: &str = "http://localhost";

/// The longest tag (the folders above a request, joined), in bytes.
const MAX_TAG: usize = 256;

/// The longest description taken from a request, in bytes.
const MAX_DESCRIPTION: usize = 1024;

/// Headers the client writes itself, or that only browsers and Postman add.
const LEFT_OUT_HEADERS: [&str; 8] = [
    "content-length",
    "host",
    "connection",
    "transfer-encoding",
    "keep-alive",
    "expect",
    "accept-encoding",
    "user-agent",
];

/// Auth types the plugin has no kind for.
const UNSUPPORTED_AUTH: [&str; 7] = [
    "oauth1", "hawk", "ntlm", "akamai", "edgegrid", "asap", "jwt",
];

/// A collection or folder variable.
struct Var {
    value: Option<String>,
    secret: bool,
}

/// One level of the walk: a list of items and where in it.
struct Frame<'a> {
    items: &'a [Json],
    next: usize,
    folder: Option<String>,
    auth: Option<&'a Json>,
    /// The variable names this level declared, taken off when it ends.
    declared: Vec<String>,
}

/// A request converted, before the plugin's base URL and auth are known.
struct Draft {
    name: String,
    method: Method,
    path: String,
    description: String,
    tag: Option<String>,
    base: Base,
    auth: Option<Auth>,
    params: Vec<Param>,
    encoding: Option<BodyEncoding>,
    content_type: Option<String>,
    output_schema: Option<Json>,
    /// The request's credential headers (a static API key, a cookie): the endpoint's own.
    headers: Vec<(String, ConfigValue)>,
}

/// A base URL: what the plugin in memory uses, and the `${NAME}` template of the file.
#[derive(Clone, PartialEq, Eq)]
struct Base {
    value: String,
    template: Option<String>,
    /// The variable the template reads that has no value in the collection.
    unset: Option<String>,
}

impl Base {
    fn key(&self) -> &str {
        self.template.as_deref().unwrap_or(&self.value)
    }
}

/// A value with its `{{variables}}` read.
struct Text {
    value: String,
    template: Option<String>,
    /// A variable without a value, or a dynamic one (`{{$guid}}`), is in it.
    unknown: bool,
    /// A variable with a value is in it.
    from_variable: bool,
    /// The environment variables the template reads, with what each holds.
    reads: Vec<(String, String)>,
}

struct Converter<'o> {
    options: &'o ImportOptions,
    secrets: Secrets,
    vars: HashMap<String, Vec<Var>>,
    warnings: Vec<String>,
    tool_names: Names,
    drafts: Vec<Draft>,
    plugin_name: String,
}

pub(super) fn run(doc: &Json, options: &ImportOptions) -> Result<Import, Error> {
    let root = doc
        .as_object()
        .ok_or(Reason::NotACollection("the document is not a JSON object"))?;
    let items = match root.get("item") {
        Some(Json::Array(items)) => items,
        Some(_) => return Err(invalid("item", "expected a list of items")),
        None => {
            let reason = if root.contains_key("requests") {
                "it is a v1 collection (`requests`); export it from Postman as v2.1"
            } else {
                "it has no `item` list"
            };
            return Err(Reason::NotACollection(reason).into());
        }
    };
    let info = root.get("info");
    let plugin_name = match &options.plugin_name {
        Some(name) => {
            tool::validate_name(name).map_err(|e| invalid("plugin name", &e.to_string()))?;
            name.clone()
        }
        None => {
            let title = info.and_then(|i| i.get("name")).and_then(Json::as_str);
            let name = infer::param_name(&infer::snake_case(title.unwrap_or("")));
            if name == "param" {
                "postman".to_string()
            } else {
                name.to_ascii_lowercase()
            }
        }
    };
    let mut converter = Converter {
        options,
        secrets: Secrets::new(&plugin_name, options.keep_secrets),
        vars: HashMap::new(),
        warnings: Vec::new(),
        tool_names: Names::default(),
        drafts: Vec::new(),
        plugin_name,
    };
    let mut declared = converter.declare(root.get("variable"), "variable")?;
    // An environment's values win over the collection's, as in Postman.
    if let Some(environment) = &options.environment {
        let values = environment.get("values").ok_or_else(|| {
            invalid(
                "environment",
                "expected a Postman environment with a `values` list",
            )
        })?;
        declared.extend(converter.declare(Some(values), "environment.values")?);
    }
    let mut stack = vec![Frame {
        items,
        next: 0,
        folder: None,
        auth: root.get("auth").filter(|a| !a.is_null()),
        declared,
    }];
    while let Some(frame) = stack.last_mut() {
        let index = frame.next;
        let item = match frame.items.get(index) {
            Some(item) => item,
            None => {
                if let Some(done) = stack.pop() {
                    converter.undeclare(&done.declared);
                }
                continue;
            }
        };
        frame.next += 1;
        let at = item_path(&stack);
        let map = match item.as_object() {
            Some(map) => map,
            None => return Err(invalid(&at, "expected an object")),
        };
        if map.get("disabled").and_then(Json::as_bool) == Some(true) {
            converter.warn(&at, "is disabled; skipped");
            continue;
        }
        if let Some(children) = map.get("item") {
            let children = children
                .as_array()
                .ok_or_else(|| invalid(&format!("{}.item", at), "expected a list of items"))?;
            let name = text_field(map, "name", &at)?.unwrap_or("").to_string();
            // Each level holds its whole tag and auth, taken from the level above: nothing
            // walks the stack, so 10,000 levels cost what 10 do, each. A tag stops growing
            // at `MAX_TAG` bytes.
            let parent = stack.last();
            let parent_folder = parent.and_then(|f| f.folder.clone());
            let folder = match parent_folder {
                Some(parent) if !name.is_empty() && parent.len() < MAX_TAG => {
                    Some(shorten(&format!("{} / {}", parent, name), MAX_TAG))
                }
                Some(parent) => Some(parent),
                None if name.is_empty() => None,
                None => Some(shorten(&name, MAX_TAG)),
            };
            let auth = map
                .get("auth")
                .filter(|a| !a.is_null())
                .or_else(|| parent.and_then(|f| f.auth));
            let declared = converter.declare(map.get("variable"), &format!("{}.variable", at))?;
            stack.push(Frame {
                items: children,
                next: 0,
                folder,
                auth,
                declared,
            });
            continue;
        }
        if map.get("request").is_none() {
            converter.warn(&at, "is neither a folder nor a request; skipped");
            continue;
        }
        if converter.drafts.len() >= options.max_requests {
            return Err(Reason::TooManyRequests(options.max_requests).into());
        }
        let folder = stack.last().and_then(|f| f.folder.clone());
        let inherited = stack.last().and_then(|f| f.auth);
        converter.request(map, &at, folder, inherited)?;
    }
    converter.finish(info)
}

/// Where the walk is, as `item[3].item[0]`: the first and last levels of a deep one, the
/// levels between counted, so naming an item costs the same at any depth.
fn item_path(stack: &[Frame<'_>]) -> String {
    const ENDS: usize = 8;
    let step = |frame: &Frame<'_>| format!("item[{}]", frame.next.saturating_sub(1));
    if stack.len() <= 2 * ENDS {
        return stack.iter().map(step).collect::<Vec<_>>().join(".");
    }
    let head: Vec<String> = stack[..ENDS].iter().map(step).collect();
    let tail: Vec<String> = stack[stack.len() - ENDS..].iter().map(step).collect();
    format!(
        "{}.(... {} levels ...).{}",
        head.join("."),
        stack.len() - 2 * ENDS,
        tail.join(".")
    )
}

fn invalid(at: &str, reason: &str) -> Error {
    Error::from(Reason::Invalid {
        at: at.to_string(),
        reason: reason.to_string(),
    })
}

/// A string field, `None` when absent or null; another type is an error.
fn text_field<'a>(map: &'a Map, key: &str, at: &str) -> Result<Option<&'a str>, Error> {
    match map.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(s)) => Ok(Some(s)),
        Some(other) => Err(invalid(
            &format!("{}.{}", at, key),
            &format!("expected a string, got {}", other.type_name()),
        )),
    }
}

/// A scalar as text (Postman writes numbers and booleans in values too).
fn scalar_text(value: Option<&Json>) -> Option<String> {
    match value? {
        Json::String(s) => Some(s.clone()),
        Json::Number(_) | Json::Bool(_) => value.map(Json::to_string),
        _ => None,
    }
}

/// A description: a string, or `{"content": ...}`.
fn description_of(value: Option<&Json>) -> Option<&str> {
    match value? {
        Json::String(s) => Some(s.as_str()),
        Json::Object(map) => map.get("content").and_then(Json::as_str),
        _ => None,
    }
    .map(str::trim)
    .filter(|s| !s.is_empty())
}

/// The name of a variable as an environment variable: `apiKey` is `API_KEY`.
fn env_var(name: &str) -> String {
    naming::env_name(&[&infer::snake_case(name)])
}

/// A `key`/`value` list entry: `(key, value, enabled, description)`.
struct Entry {
    key: String,
    value: Option<String>,
    enabled: bool,
    description: Option<String>,
    kind: Option<String>,
}

/// A list of `{key, value, disabled}` objects.
fn entries(value: Option<&Json>, at: &str) -> Result<Vec<Entry>, Error> {
    let list = match value {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(Json::Array(list)) => list,
        Some(other) => {
            return Err(invalid(
                at,
                &format!("expected a list, got {}", other.type_name()),
            ))
        }
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, entry) in list.iter().enumerate() {
        let map = match entry.as_object() {
            Some(map) => map,
            None => return Err(invalid(&format!("{}[{}]", at, i), "expected an object")),
        };
        let key = scalar_text(map.get("key").or_else(|| map.get("id"))).unwrap_or_default();
        out.push(Entry {
            key,
            value: scalar_text(map.get("value")),
            // Collections say `disabled`, environments `enabled`.
            enabled: map.get("disabled").and_then(Json::as_bool) != Some(true)
                && map.get("enabled").and_then(Json::as_bool) != Some(false),
            description: description_of(map.get("description")).map(str::to_string),
            kind: map.get("type").and_then(Json::as_str).map(str::to_string),
        });
    }
    Ok(out)
}

impl Converter<'_> {
    fn warn(&mut self, at: &str, message: &str) {
        self.warnings.push(format!("{} {}", at, message));
    }

    /// Declares a level's variables; returns their names.
    fn declare(&mut self, list: Option<&Json>, at: &str) -> Result<Vec<String>, Error> {
        let mut declared = Vec::new();
        for entry in entries(list, at)? {
            if entry.key.is_empty() || !entry.enabled {
                continue;
            }
            let secret = entry.kind.as_deref() == Some("secret")
                || is_credential_name(&entry.key)
                || entry.value.as_deref().map_or(false, infer::is_secret_value);
            let value = entry.value.filter(|v| !v.is_empty());
            self.vars
                .entry(entry.key.clone())
                .or_default()
                .push(Var { value, secret });
            declared.push(entry.key);
        }
        Ok(declared)
    }

    fn undeclare(&mut self, names: &[String]) {
        for name in names {
            if let Some(values) = self.vars.get_mut(name) {
                values.pop();
            }
        }
    }

    fn var(&self, name: &str) -> Option<&Var> {
        self.vars.get(name).and_then(|values| values.last())
    }

    /// The value of a variable that is written in where it stands: it has a value and is
    /// not a credential.
    fn plain_value(&self, name: &str) -> Option<String> {
        let var = self.var(name)?;
        if var.secret && !self.secrets.keeps() {
            return None;
        }
        var.value.clone()
    }

    /// `text` with its `{{variables}}` read: written in, or `${NAME}` (every one of them
    /// when `secret`).
    fn expand(&mut self, text: &str, secret: bool, purpose: &str) -> Text {
        let mut value = String::with_capacity(text.len());
        let mut template = String::with_capacity(text.len());
        let mut templated = false;
        let mut unknown = false;
        let mut from_variable = false;
        let mut reads = Vec::new();
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            let after = &rest[start + 2..];
            let end = match after.find("}}") {
                Some(end) => end,
                None => break,
            };
            let literal = &rest[..start];
            value.push_str(literal);
            template.push_str(&literal.replace("${", "$${"));
            let name = after[..end].trim();
            rest = &after[end + 2..];
            if name.starts_with('$') {
                unknown = true;
                continue;
            }
            let keep = self.secrets.keeps();
            match self.var(name) {
                Some(var) if var.value.is_some() && (keep || !(secret || var.secret)) => {
                    let written = var.value.clone().unwrap_or_default();
                    value.push_str(&written);
                    template.push_str(&written.replace("${", "$${"));
                    from_variable = true;
                }
                found => {
                    let known = found.and_then(|v| v.value.clone());
                    unknown |= known.is_none();
                    from_variable |= known.is_some();
                    value.push_str(known.as_deref().unwrap_or(""));
                    let env = env_var(name);
                    template.push_str(&format!("${{{}}}", env));
                    templated = true;
                    reads.push((env, purpose.to_string()));
                }
            }
        }
        value.push_str(rest);
        template.push_str(&rest.replace("${", "$${"));
        Text {
            value,
            template: if templated { Some(template) } else { None },
            unknown,
            from_variable,
            reads,
        }
    }

    /// The value a [`Text`] stands for in the plugin; the variables it reads are listed.
    fn config(&mut self, read: &Text) -> ConfigValue {
        for (name, purpose) in &read.reads {
            self.secrets.list(name, purpose);
        }
        match &read.template {
            Some(template) => ConfigValue::from_template(template.clone(), read.value.clone()),
            None => ConfigValue::literal(read.value.clone()),
        }
    }

    /// [`expand`](Self::expand) and [`config`](Self::config) in one.
    fn expand_config(&mut self, text: &str, secret: bool, purpose: &str) -> ConfigValue {
        let read = self.expand(text, secret, purpose);
        self.config(&read)
    }

    /// A credential: its variables as `${NAME}`, or the whole literal value one.
    fn secret(&mut self, text: &str, suffix: &str, purpose: &str) -> ConfigValue {
        let read = self.expand(text, true, purpose);
        if read.template.is_some() {
            return self.config(&read);
        }
        self.secrets.secret(suffix, purpose, &read.value)
    }

    /// One request into a draft endpoint.
    fn request(
        &mut self,
        item: &Map,
        at: &str,
        folder: Option<String>,
        inherited: Option<&Json>,
    ) -> Result<(), Error> {
        let item_name = text_field(item, "name", at)?.unwrap_or("").to_string();
        let request_at = format!("{}.request", at);
        let owned;
        let request = match item.get("request") {
            Some(Json::String(url)) => {
                let mut map = Map::new();
                map.insert("url", url.as_str());
                owned = map;
                &owned
            }
            Some(Json::Object(map)) => map,
            _ => return Err(invalid(&request_at, "expected an object or a URL")),
        };
        if let Some(kind) = request.get("type").and_then(Json::as_str) {
            if kind != "http" {
                self.warn(at, "is not an HTTP request (WebSocket, gRPC, ...); skipped");
                return Ok(());
            }
        }
        let method_text = text_field(request, "method", &request_at)?.unwrap_or("GET");
        let method: Method = method_text
            .parse()
            .map_err(|_| invalid(&format!("{}.method", request_at), "not an HTTP method"))?;
        let mut params = Params::default();
        let url_at = format!("{}.url", request_at);
        let (address, query, path_vars) = match request.get("url") {
            Some(url) => self.url_parts(url, &url_at)?,
            None => return Err(invalid(&url_at, "missing")),
        };
        let lower = address.to_ascii_lowercase();
        if lower.starts_with("ws://") || lower.starts_with("wss://") {
            self.warn(at, "is a WebSocket request; skipped");
            return Ok(());
        }
        let (base, rest, query) = self.split_address(&address, query);
        let path = self.path(&rest, &path_vars, &mut params);
        self.query(query, &mut params);
        let body_at = format!("{}.body", request_at);
        let body = request.get("body").filter(|b| !b.is_null());
        let headers =
            self.header_entries(request.get("header"), &format!("{}.header", request_at))?;
        let header_type = headers
            .iter()
            .find(|e| e.enabled && e.key.eq_ignore_ascii_case("content-type"))
            .and_then(|e| e.value.clone());
        let (encoding, content_type) = match body {
            Some(body) if !matches!(method, Method::Head | Method::Options) => {
                self.body(body, &body_at, header_type, &mut params)?
            }
            Some(_) => {
                self.warn(at, "has a body on HEAD or OPTIONS; the body is left out");
                (None, None)
            }
            None => (None, None),
        };
        let credentials = self.headers(headers, &mut params, at);
        let auth_json = request.get("auth").filter(|a| !a.is_null()).or(inherited);
        let auth = match auth_json {
            Some(auth) => self.auth(auth, &format!("{}.auth", request_at), &item_name)?,
            None => None,
        };
        let name = self.tool_name(&item_name, method, &path);
        let description = description_of(request.get("description"))
            .or_else(|| description_of(item.get("description")))
            .map(|d| shorten(d, MAX_DESCRIPTION));
        let description = match description {
            Some(description) => description,
            None if item_name.trim().is_empty() => format!("{} {}", method, path),
            None => format!("{} ({} {})", item_name.trim(), method, path),
        };
        // A saved example's JSON object answer gives the output schema: its shape only.
        let output_schema = item
            .get("response")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|r| r.get("body").and_then(Json::as_str))
            .filter_map(|body| json::parse(body).ok())
            .find(Json::is_object)
            .map(|value| shape(&value))
            .filter(fits);
        self.drafts.push(Draft {
            name,
            method,
            path,
            description,
            tag: folder,
            base,
            auth,
            params: params.into_params(),
            encoding,
            content_type,
            output_schema,
            headers: credentials,
        });
        Ok(())
    }

    fn tool_name(&mut self, item_name: &str, method: Method, path: &str) -> String {
        let from_name = infer::snake_case(item_name);
        let name = if from_name.is_empty() {
            let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
            infer::tool_name(method.as_str(), &segments, &self.plugin_name)
        } else {
            infer::valid_tool_name(&from_name)
        };
        let name = self.tool_names.unique(&name);
        self.tool_names.take(&name);
        name
    }

    /// The URL's address (before the query), its query entries and its path variables.
    #[allow(clippy::type_complexity)]
    fn url_parts(
        &mut self,
        url: &Json,
        at: &str,
    ) -> Result<(String, Vec<Entry>, Vec<Entry>), Error> {
        let map = match url {
            Json::String(raw) => {
                let (address, query) = split_raw(raw);
                return Ok((address.to_string(), raw_query(query), Vec::new()));
            }
            Json::Object(map) => map,
            other => {
                return Err(invalid(
                    at,
                    &format!("expected a string or an object, got {}", other.type_name()),
                ))
            }
        };
        let raw = text_field(map, "raw", at)?.unwrap_or("");
        let (raw_address, raw_query_text) = split_raw(raw);
        let address = if map.contains_key("host") || map.contains_key("path") {
            let mut address = String::new();
            if let Some(protocol) = text_field(map, "protocol", at)? {
                address.push_str(protocol.trim_end_matches("://").trim_end_matches(':'));
                address.push_str("://");
            }
            address.push_str(&joined(map.get("host"), ".", &format!("{}.host", at))?);
            if let Some(port) = scalar_text(map.get("port")) {
                address.push(':');
                address.push_str(&port);
            }
            let path = joined(map.get("path"), "/", &format!("{}.path", at))?;
            if !path.is_empty() && !path.starts_with('/') {
                address.push('/');
            }
            address.push_str(&path);
            address
        } else {
            raw_address.to_string()
        };
        let query = if map.contains_key("query") {
            entries(map.get("query"), &format!("{}.query", at))?
        } else {
            raw_query(raw_query_text)
        };
        let variables = entries(map.get("variable"), &format!("{}.variable", at))?;
        Ok((address, query, variables))
    }

    /// The base URL, the path after it, and the query entries: `query`, after those of a
    /// variable holding a whole URL with its query (`{{url}}` holding
    /// `https://api.example.com/get?test=1`, which a base URL cannot hold).
    fn split_address(
        &mut self,
        address: &str,
        mut query: Vec<Entry>,
    ) -> (Base, String, Vec<Entry>) {
        let address = address.trim();
        if let Some(after) = address.strip_prefix("{{") {
            if let Some(end) = after.find("}}") {
                let name = after[..end].trim().to_string();
                let rest = &after[end + 2..];
                if let Some(mut value) = self.plain_value(&name) {
                    let (without, own_query) = split_raw(&value);
                    if without.len() < value.len() {
                        let mut entries = raw_query(own_query);
                        entries.append(&mut query);
                        query = entries;
                        value = without.to_string();
                    }
                    if rest.is_empty() && value.contains("://") {
                        // The whole URL is the variable: its path is the endpoint's, so a
                        // call goes to `/get`, not `/get/`.
                        let (base, path) = self.split_literal(value.trim());
                        return (base, path, query);
                    }
                    if !rest.starts_with('/') && !rest.is_empty() {
                        // `{{host}}.example.com/...`: the variable is part of the host.
                        let written = format!("{}{}", value, rest);
                        let (base, path) = self.split_literal(&written);
                        return (base, path, query);
                    }
                    // `{{baseUrl}}` holding `https://api.example.com/v1`: all of it is
                    // the base URL.
                    let value = value.trim().trim_end_matches('/');
                    let value = if value.contains("://") {
                        value.to_string()
                    } else {
                        format!("http://{}", value)
                    };
                    let base = Base {
                        value,
                        template: None,
                        unset: None,
                    };
                    return (base, rest.to_string(), query);
                }
                if rest.starts_with('/') || rest.is_empty() {
                    let env = env_var(&name);
                    self.secrets.list(&env, "the base URL");
                    let message = format!(
                        "the base URL is the variable {} (no value in the collection): \
                         set ${{{}}} before loading the plugin file",
                        name, env
                    );
                    if !self.warnings.contains(&message) {
                        self.warnings.push(message);
                    }
                    let base = Base {
                        value: PLACEHOLDER_BASE.to_string(),
                        template: Some(format!("${{{}}}", env)),
                        unset: Some(env),
                    };
                    return (base, rest.to_string(), query);
                }
            }
        }
        let (base, path) = self.split_literal(address);
        (base, path, query)
    }

    /// A URL written out (its host may still hold variables) split into base and path.
    fn split_literal(&mut self, address: &str) -> (Base, String) {
        let (scheme, rest) = match address.find("://") {
            Some(at) => (&address[..at], &address[at + 3..]),
            None => ("http", address),
        };
        let (authority, path) = match rest.find('/') {
            Some(at) => (&rest[..at], &rest[at..]),
            None => (rest, ""),
        };
        // Credentials in the URL are not carried over: a plugin's base URL holds none, and
        // the collection's auth says how to authenticate.
        let authority = match authority.rfind('@') {
            Some(at) => {
                let message = "a URL holds a user name or password, which is left out: give \
                               the request basic auth instead";
                if !self.warnings.iter().any(|w| w == message) {
                    self.warnings.push(message.to_string());
                }
                &authority[at + 1..]
            }
            None => authority,
        };
        let read = self.expand(authority, false, "the API's host");
        let scheme = scheme.to_ascii_lowercase();
        let base = match &read.template {
            Some(template) => {
                let template = format!("{}://{}", scheme, template);
                self.config(&read);
                Base {
                    value: PLACEHOLDER_BASE.to_string(),
                    template: Some(template),
                    unset: read.reads.first().map(|(name, _)| name.clone()),
                }
            }
            None => Base {
                value: format!("{}://{}", scheme, read.value),
                template: None,
                unset: None,
            },
        };
        (base, path.to_string())
    }

    /// The path template: `:id`, `{id}` and `{{id}}` without a value become path
    /// parameters.
    fn path(&mut self, rest: &str, vars: &[Entry], params: &mut Params) -> String {
        if rest.is_empty() || rest == "/" {
            return "/".to_string();
        }
        let mut out = String::with_capacity(rest.len() + 8);
        for segment in rest.trim_start_matches('/').split('/') {
            out.push('/');
            let whole = segment
                .strip_prefix(':')
                .filter(|s| !s.is_empty())
                .or_else(|| {
                    segment
                        .strip_prefix('{')
                        .and_then(|s| s.strip_suffix('}'))
                        .filter(|s| !s.is_empty() && !s.contains(['{', '}']))
                });
            if let Some(name) = whole {
                let name = self.path_param(name, vars, params);
                out.push('{');
                out.push_str(&name);
                out.push('}');
                continue;
            }
            let mut piece = segment;
            while let Some(start) = piece.find("{{") {
                let after = &piece[start + 2..];
                let end = match after.find("}}") {
                    Some(end) => end,
                    None => break,
                };
                out.push_str(&encode_segment(&piece[..start]));
                let name = after[..end].trim();
                match self.plain_value(name) {
                    Some(value) if !name.starts_with('$') => out.push_str(&encode_segment(&value)),
                    _ => {
                        let name = self.path_param(name.trim_start_matches('$'), vars, params);
                        out.push('{');
                        out.push_str(&name);
                        out.push('}');
                    }
                }
                piece = &after[end + 2..];
            }
            out.push_str(&encode_segment(piece));
        }
        out
    }

    fn path_param(&mut self, wire: &str, vars: &[Entry], params: &mut Params) -> String {
        let name = params
            .named(Location::Path, wire)
            .build()
            .name()
            .to_string();
        let var = vars.iter().find(|v| v.key == wire);
        let sample = var.and_then(|v| v.value.as_deref()).unwrap_or("");
        let ty = if sample.is_empty() || sample.contains("{{") {
            ParamType::String
        } else {
            text_type(sample)
        };
        let mut builder = Param::path(name.clone()).ty(ty).required(true);
        if let Some(description) = var.and_then(|v| v.description.as_deref()) {
            builder = builder.description(shorten(description, MAX_DESCRIPTION));
        }
        params.push(builder.build());
        name
    }

    /// Query entries, grouped by key: visible parameters, or hidden secrets.
    fn query(&mut self, entries: Vec<Entry>, params: &mut Params) {
        self.fields(entries, Location::Query, params, false);
    }

    /// Key/value entries of a query, a form or a multipart body into parameters.
    fn fields(
        &mut self,
        entries: Vec<Entry>,
        location: Location,
        params: &mut Params,
        multipart: bool,
    ) {
        let mut order: Vec<String> = Vec::new();
        let mut groups: HashMap<String, Vec<Entry>> = HashMap::new();
        for entry in entries {
            if entry.key.is_empty() {
                continue;
            }
            if !groups.contains_key(&entry.key) {
                order.push(entry.key.clone());
            }
            groups.entry(entry.key.clone()).or_default().push(entry);
        }
        for key in order {
            let group = groups.remove(&key).unwrap_or_default();
            self.field(&key, group, location, params, multipart);
        }
    }

    fn field(
        &mut self,
        key: &str,
        group: Vec<Entry>,
        location: Location,
        params: &mut Params,
        multipart: bool,
    ) {
        let required = group.iter().any(|e| e.enabled);
        let description = group.iter().find_map(|e| e.description.clone());
        let mut builder = params.named(location, key);
        if let Some(description) = &description {
            builder = builder.description(shorten(description, MAX_DESCRIPTION));
        }
        if multipart && group.iter().any(|e| e.kind.as_deref() == Some("file")) {
            params.push(builder.file(true).required(required).build());
            return;
        }
        let values: Vec<String> = group.iter().filter_map(|e| e.value.clone()).collect();
        let secret = is_credential_name(key)
            || values
                .iter()
                .any(|v| infer::is_secret_value(v) || self.names_secret_variable(v));
        let purpose = format!("the {} {} value", key, location.as_str());
        if secret {
            let first = values.first().cloned().unwrap_or_default();
            let value = self.secret(&first, key, &purpose);
            params.push(fixed_param(builder, &value, true));
            return;
        }
        if values.len() > 1 {
            let types: Vec<ParamType> = values.iter().map(|v| text_type(v)).collect();
            let item = if types.iter().all(|t| *t == types[0]) {
                types[0].clone()
            } else {
                ParamType::String
            };
            params.push(
                builder
                    .ty(ParamType::array(item))
                    .required(required)
                    .build(),
            );
            return;
        }
        let value = values.into_iter().next().unwrap_or_default();
        let read = self.expand(&value, false, &purpose);
        if read.template.is_some() && !read.unknown {
            // A variable the user sets: sent with every call, not the model's.
            let value = self.config(&read);
            params.push(fixed_param(builder, &value, false));
            return;
        }
        if read.unknown {
            params.push(builder.required(required).build());
            return;
        }
        let ty = text_type(&read.value);
        if read.from_variable || read.value.is_empty() {
            let default = infer::text_value(&read.value);
            params.push(builder.ty(ty).default(default).build());
            return;
        }
        params.push(builder.ty(ty).required(required).build());
    }

    /// Whether `text` names a variable that is a credential.
    fn names_secret_variable(&self, text: &str) -> bool {
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            let after = &rest[start + 2..];
            let end = match after.find("}}") {
                Some(end) => end,
                None => return false,
            };
            let name = after[..end].trim();
            if is_credential_name(name) || self.var(name).map_or(false, |v| v.secret) {
                return true;
            }
            rest = &after[end + 2..];
        }
        false
    }

    fn header_entries(&self, value: Option<&Json>, at: &str) -> Result<Vec<Entry>, Error> {
        match value {
            // v2.0 may write the headers as one text, a header a line.
            Some(Json::String(text)) => Ok(text
                .lines()
                .filter_map(|line| line.split_once(':'))
                .map(|(k, v)| Entry {
                    key: k.trim().to_string(),
                    value: Some(v.trim().to_string()),
                    enabled: true,
                    description: None,
                    kind: None,
                })
                .collect()),
            other => entries(other, at),
        }
    }

    /// The request's headers: credentials as the endpoint's own static headers (returned),
    /// the others hidden parameters with their values as defaults.
    fn headers(
        &mut self,
        headers: Vec<Entry>,
        params: &mut Params,
        at: &str,
    ) -> Vec<(String, ConfigValue)> {
        let mut credentials: Vec<(String, ConfigValue)> = Vec::new();
        for entry in headers {
            if !entry.enabled || entry.key.is_empty() {
                continue;
            }
            let lower = entry.key.to_ascii_lowercase();
            if lower == "content-type"
                || LEFT_OUT_HEADERS.contains(&lower.as_str())
                || infer::is_browser_header(&lower)
                || params.has(Location::Header, &entry.key)
                || credentials
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case(&entry.key))
            {
                continue;
            }
            if !crate::http::is_token(&entry.key) {
                self.warn(at, "has a header whose name is not a token; it is left out");
                continue;
            }
            let value = entry.value.unwrap_or_default();
            let builder = params.named(Location::Header, &entry.key);
            let purpose = format!("the value of the {} header", entry.key);
            let secret = is_credential_name(&entry.key)
                || infer::is_secret_value(&value)
                || self.names_secret_variable(&value);
            if secret {
                let config = self.secret(&value, &entry.key, &purpose);
                credentials.push((entry.key, config));
                continue;
            }
            let config = {
                let read = self.expand(&value, false, &purpose);
                if read.unknown && read.template.is_none() {
                    let message = format!(
                        "header {} holds a dynamic variable; the model fills it",
                        entry.key
                    );
                    self.warn(at, &message);
                    params.push(builder.required(true).build());
                    continue;
                }
                self.config(&read)
            };
            params.push(fixed_param(builder, &config, false));
        }
        credentials
    }

    /// The body: parameters, and the encoding and content type when they are not JSON's.
    fn body(
        &mut self,
        body: &Json,
        at: &str,
        header_type: Option<String>,
        params: &mut Params,
    ) -> Result<(Option<BodyEncoding>, Option<String>), Error> {
        let map = match body.as_object() {
            Some(map) => map,
            None => return Err(invalid(at, "expected an object")),
        };
        if map.get("disabled").and_then(Json::as_bool) == Some(true) {
            return Ok((None, None));
        }
        let mode = text_field(map, "mode", at)?.unwrap_or("raw");
        match mode {
            "raw" => {
                let raw = text_field(map, "raw", at)?.unwrap_or("");
                if raw.trim().is_empty() {
                    return Ok((None, None));
                }
                let language = map
                    .get("options")
                    .and_then(|o| o.get("raw"))
                    .and_then(|r| r.get("language"))
                    .and_then(Json::as_str);
                let declared_json = language == Some("json")
                    || header_type
                        .as_deref()
                        .map_or(false, |t| t.to_ascii_lowercase().contains("json"));
                let looks_json = matches!(raw.trim_start().as_bytes().first(), Some(b'{' | b'['));
                if declared_json || (language.is_none() && header_type.is_none() && looks_json) {
                    let text = self.json_text(raw);
                    match json::parse(&text) {
                        Ok(value) => {
                            self.json_body(value, params, at);
                            return Ok((None, None));
                        }
                        Err(err) => {
                            let message = format!(
                                "raw is not JSON ({}); the body is one text parameter",
                                err
                            );
                            self.warn(at, &message);
                        }
                    }
                }
                let content_type = header_type.unwrap_or_else(|| {
                    match language {
                        Some("xml") => "application/xml",
                        Some("html") => "text/html",
                        Some("javascript") => "application/javascript",
                        Some("json") => "application/json",
                        _ => "text/plain",
                    }
                    .to_string()
                });
                let param = params.named(Location::Body, "body").required(true).build();
                params.push(param);
                Ok((Some(BodyEncoding::Raw), Some(content_type)))
            }
            "urlencoded" => {
                let list = entries(map.get("urlencoded"), &format!("{}.urlencoded", at))?;
                self.fields(list, Location::Form, params, false);
                Ok((Some(BodyEncoding::Form), None))
            }
            "formdata" => {
                let list = entries(map.get("formdata"), &format!("{}.formdata", at))?;
                self.fields(list, Location::Form, params, true);
                Ok((Some(BodyEncoding::Multipart), None))
            }
            "file" => {
                let param = params
                    .named(Location::Body, "body")
                    .file(true)
                    .required(true)
                    .build();
                params.push(param);
                let content_type =
                    header_type.unwrap_or_else(|| "application/octet-stream".to_string());
                Ok((Some(BodyEncoding::Raw), Some(content_type)))
            }
            "graphql" => {
                let graphql = map.get("graphql").and_then(Json::as_object);
                let query = graphql.and_then(|g| g.get("query")).and_then(Json::as_str);
                let mut builder = params.named(Location::Body, "query");
                builder = match query {
                    Some(query) if !query.is_empty() => builder.default(query),
                    _ => builder.required(true),
                };
                params.push(builder.build());
                let variables = graphql
                    .and_then(|g| g.get("variables"))
                    .and_then(Json::as_str)
                    .filter(|v| !v.trim().is_empty())
                    .and_then(|v| json::parse(&self.json_text(v)).ok());
                let ty = match &variables {
                    Some(value @ Json::Object(_)) => {
                        json_type(value).map_or(ParamType::object([]), |(t, _)| t)
                    }
                    _ => ParamType::object([]),
                };
                let builder = params.named(Location::Body, "variables").ty(ty);
                params.push(builder.required(variables.is_some()).build());
                Ok((None, None))
            }
            other => {
                let message = format!(
                    "has the body mode `{}`, which is not read",
                    shorten(other, 32)
                );
                self.warn(at, &message);
                Ok((None, None))
            }
        }
    }

    /// Raw JSON text as Postman sends it: comments stripped, and a `{{variable}}` outside
    /// strings written in (a number or boolean with a value) or `null`.
    fn json_text(&self, raw: &str) -> String {
        let bytes = raw.as_bytes();
        let mut out = String::with_capacity(raw.len());
        let mut i = 0;
        let mut in_string = false;
        let mut start = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if in_string {
                if b == b'\\' {
                    i += 2;
                    continue;
                }
                if b == b'"' {
                    in_string = false;
                }
                i += 1;
                continue;
            }
            let next = bytes.get(i + 1).copied();
            let skip_to = match (b, next) {
                (b'"', _) => {
                    in_string = true;
                    None
                }
                (b'/', Some(b'/')) => Some(raw[i..].find('\n').map_or(raw.len(), |n| i + n)),
                (b'/', Some(b'*')) => {
                    Some(raw[i + 2..].find("*/").map_or(raw.len(), |n| i + n + 4))
                }
                (b'{', Some(b'{')) => {
                    let end = raw[i..].find("}}").map(|n| i + n + 2);
                    if let Some(end) = end {
                        out.push_str(&raw[start..i]);
                        let name = raw[i + 2..end - 2].trim();
                        let value = self
                            .plain_value(name)
                            .map(|v| infer::text_value(&v))
                            .filter(|v| !v.is_string());
                        match value {
                            Some(value) => out.push_str(&value.to_string()),
                            None => out.push_str("null"),
                        }
                        start = end;
                        i = end;
                        continue;
                    }
                    None
                }
                _ => None,
            };
            if let Some(end) = skip_to {
                out.push_str(&raw[start..i]);
                start = end;
                i = end;
                continue;
            }
            i += 1;
        }
        if start < raw.len() {
            out.push_str(&raw[start..]);
        }
        out
    }

    /// A JSON body: a parameter per member of an object, else one whole-body parameter.
    fn json_body(&mut self, value: Json, params: &mut Params, at: &str) {
        let typed = value.as_object().map_or(false, |map| {
            !map.is_empty()
                && map
                    .iter()
                    .all(|(k, v)| !k.is_empty() && json_type(v).is_some())
        });
        if !typed {
            let ty = match &value {
                Json::Object(_) => ParamType::object([]),
                other => json_type(other).map_or(ParamType::object([]), |(t, _)| t),
            };
            let empty = value.as_object().map_or(false, Map::is_empty);
            let builder = params.named(Location::Body, "body").whole_body(true).ty(ty);
            let param = if empty {
                builder.default(value).build()
            } else {
                builder.required(true).build()
            };
            params.push(param);
            return;
        }
        let map = value.into_object().unwrap_or_default();
        for (key, member) in map {
            let builder = params.named(Location::Body, &key);
            if let Json::String(text) = &member {
                let secret = is_credential_name(&key)
                    || infer::is_secret_value(text)
                    || self.names_secret_variable(text);
                let purpose = format!("the {} body field", key);
                if secret && !text.is_empty() {
                    let value = self.secret(text, &key, &purpose);
                    params.push(fixed_param(builder, &value, true));
                    continue;
                }
                if text.contains("{{") {
                    let read = self.expand(text, false, &purpose);
                    if read.unknown {
                        params.push(builder.required(true).build());
                    } else if read.template.is_some() {
                        let value = self.config(&read);
                        params.push(fixed_param(builder, &value, false));
                    } else {
                        params.push(builder.default(read.value).build());
                    }
                    continue;
                }
            }
            if member.is_null() {
                params.push(builder.build());
                continue;
            }
            if let Some((ty, widened)) = json_type(&member) {
                if widened {
                    let message = format!(
                        "body member `{}` is typed as any object (too deep, or mixed types)",
                        key
                    );
                    self.warn(at, &message);
                }
                params.push(builder.ty(ty).required(true).build());
            }
        }
    }

    /// A Postman auth object into the plugin's auth.
    fn auth(&mut self, auth: &Json, at: &str, request: &str) -> Result<Option<Auth>, Error> {
        let map = match auth.as_object() {
            Some(map) => map,
            None => return Err(invalid(at, "expected an object")),
        };
        let kind = text_field(map, "type", at)?.unwrap_or("noauth");
        let attrs = auth_attributes(map.get(kind));
        let get = |key: &str| -> String {
            attrs
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let auth = match kind {
            "noauth" => return Ok(None),
            "bearer" => Auth::bearer(self.secret(&get("token"), "token", "the bearer token")),
            "basic" | "digest" => {
                let user = self.secret(&get("username"), "username", "the user name");
                let password = self.secret(&get("password"), "password", "the password");
                if kind == "basic" {
                    Auth::basic(user, password)
                } else {
                    Auth::digest(user, password)
                }
            }
            "apikey" => {
                let name = get("key");
                let name = if name.is_empty() {
                    "X-Api-Key".to_string()
                } else {
                    name
                };
                let value = self.secret(&get("value"), &name, "the API key");
                if get("in") == "query" {
                    Auth::query(name, value)
                } else {
                    Auth::header(name, value)
                }
            }
            "awsv4" => {
                let region = self.expand_config(&get("region"), false, "the AWS region");
                let service = self.expand_config(&get("service"), false, "the AWS service");
                let key = self.secret(&get("accessKey"), "access_key_id", "the AWS access key id");
                let secret = self.secret(
                    &get("secretKey"),
                    "secret_access_key",
                    "the AWS secret access key",
                );
                let mut sigv4 = AwsSigV4::new(region, service, key, secret);
                let token = get("sessionToken");
                if !token.is_empty() {
                    let token = self.secret(&token, "session_token", "the AWS session token");
                    sigv4 = sigv4.with_session_token(token);
                }
                Auth::from(sigv4)
            }
            "oauth2" => {
                let grant = get("grant_type");
                if grant == "client_credentials" {
                    let url = self.expand_config(&get("accessTokenUrl"), false, "the token URL");
                    let id = self.secret(&get("clientId"), "client_id", "the OAuth client id");
                    let secret = self.secret(
                        &get("clientSecret"),
                        "client_secret",
                        "the OAuth client secret",
                    );
                    let mut oauth = OAuth2::client_credentials(url, id, secret);
                    let scope = get("scope");
                    if !scope.is_empty() {
                        oauth = oauth.with_scope(scope);
                    }
                    Auth::from(oauth)
                } else {
                    let token = get("accessToken");
                    let message = format!(
                        "(request {}) uses the OAuth 2.0 {} grant, which httptool does not \
                         run; its access token is a bearer token",
                        shorten(request, 64),
                        if grant.is_empty() {
                            "authorization code"
                        } else {
                            "other"
                        }
                    );
                    self.warn(at, &message);
                    Auth::bearer(self.secret(&token, "access_token", "the OAuth access token"))
                }
            }
            other => {
                let known = UNSUPPORTED_AUTH.contains(&other);
                let message = format!(
                    "(request {}) uses {} auth, which the plugin has no kind for; it is left out",
                    shorten(request, 64),
                    if known { other } else { "an unknown" }
                );
                self.warn(at, &message);
                return Ok(None);
            }
        };
        Ok(Some(auth))
    }

    /// The plugin: the base URL and auth most requests use.
    fn finish(mut self, info: Option<&Json>) -> Result<Import, Error> {
        if self.drafts.is_empty() {
            return Err(Reason::NoRequests.into());
        }
        let base = most_common(self.drafts.iter().map(|d| &d.base))
            .cloned()
            .unwrap_or(Base {
                value: PLACEHOLDER_BASE.to_string(),
                template: None,
                unset: None,
            });
        // The auth most requests use; a request without one (a login, a health check)
        // does not outvote them, since sending a credential it does not need is harmless.
        let auth = most_common(self.drafts.iter().filter_map(|d| d.auth.as_ref())).cloned();
        let base = match &self.options.base_url {
            Some(url) => Base {
                value: url.clone(),
                template: None,
                unset: None,
            },
            None => base,
        };
        let description = description_of(info.and_then(|i| i.get("description")))
            .map(|d| shorten(d, MAX_DESCRIPTION))
            .unwrap_or_default();
        let mut builder = HttpPlugin::builder(self.plugin_name.clone(), base.value.clone())
            .description(description);
        builder.decl.base_url_template = base.template.clone();
        if let Some(auth) = auth.clone() {
            builder = builder.auth(auth);
        }
        let drafts = std::mem::take(&mut self.drafts);
        for draft in drafts {
            // A request whose auth differs from the plugin's sends its own, or none.
            let own_auth = if draft.auth == auth {
                None
            } else {
                Some(draft.auth.clone())
            };
            let sent_auth = own_auth.clone().unwrap_or_else(|| auth.clone());
            let auth_header = sent_auth
                .as_ref()
                .and_then(Auth::header_name)
                .map(str::to_ascii_lowercase);
            let params: Vec<Param> = draft
                .params
                .into_iter()
                .filter(|p| {
                    p.location() != Location::Header
                        || auth_header.as_deref() != Some(&p.wire_name().to_ascii_lowercase())
                })
                .collect();
            let has_body = params
                .iter()
                .any(|p| matches!(p.location(), Location::Body | Location::Form));
            let mut endpoint = Endpoint::builder(draft.name, draft.method, draft.path)
                .description(draft.description)
                .params(params)
                .allow_get_body(draft.method == Method::Get && has_body)
                .allow_delete_body(draft.method == Method::Delete && has_body);
            if let Some(schema) = draft.output_schema {
                endpoint = endpoint.output_schema(schema);
            }
            if let Some(tag) = draft.tag {
                endpoint = endpoint.tag(tag);
            }
            if let Some(encoding) = draft.encoding {
                if has_body {
                    endpoint = endpoint.body_encoding(encoding);
                }
            }
            if let Some(content_type) = draft.content_type {
                endpoint = endpoint.content_type(content_type);
            }
            for (name, value) in draft.headers {
                // The auth's own header is the auth's to send.
                if auth_header.as_deref() != Some(&name.to_ascii_lowercase()) {
                    endpoint = endpoint.endpoint_header(name, value);
                }
            }
            match own_auth {
                Some(Some(own)) => endpoint = endpoint.auth(own),
                Some(None) => endpoint = endpoint.no_auth(),
                None => {}
            }
            if draft.base.key() != base.key() && self.options.base_url.is_none() {
                // Its own host (`{{authUrl}}` beside `{{apiUrl}}`); one whose variable has
                // no value refuses its calls until the file is loaded with it set.
                endpoint = endpoint.base_url_template(
                    draft.base.value,
                    draft.base.template,
                    draft.base.unset,
                );
            }
            builder = builder.endpoint(endpoint);
        }
        let plugin = builder
            .build()
            .map_err(|e| Error::from(Reason::Plugin(e)))?;
        Ok(Import {
            plugin,
            warnings: self.warnings,
            variables: self.secrets.into_variables(),
        })
    }
}

/// The most common of `values` (the first of those tied).
fn most_common<'a, T: PartialEq + 'a>(values: impl Iterator<Item = &'a T>) -> Option<&'a T> {
    let mut counts: Vec<(&T, usize)> = Vec::new();
    for value in values {
        match counts.iter_mut().find(|(v, _)| *v == value) {
            Some((_, n)) => *n += 1,
            None => counts.push((value, 1)),
        }
    }
    let mut best: Option<(&T, usize)> = None;
    for (value, n) in counts {
        if best.map_or(true, |(_, m)| n > m) {
            best = Some((value, n));
        }
    }
    best.map(|(v, _)| v)
}

/// An auth type's attributes: v2.1 lists `{key, value}`, v2.0 an object.
fn auth_attributes(value: Option<&Json>) -> Vec<(String, String)> {
    match value {
        Some(Json::Array(list)) => list
            .iter()
            .filter_map(|e| {
                let key = e.get("key").and_then(Json::as_str)?;
                Some((
                    key.to_string(),
                    scalar_text(e.get("value")).unwrap_or_default(),
                ))
            })
            .collect(),
        Some(Json::Object(map)) => map
            .iter()
            .filter_map(|(k, v)| Some((k.to_string(), scalar_text(Some(v))?)))
            .collect(),
        _ => Vec::new(),
    }
}

/// A host or path: a string, or a list of strings (or `{value}` objects) joined.
fn joined(value: Option<&Json>, separator: &str, at: &str) -> Result<String, Error> {
    match value {
        None | Some(Json::Null) => Ok(String::new()),
        Some(Json::String(s)) => Ok(s.clone()),
        Some(Json::Array(parts)) => {
            let mut out = Vec::with_capacity(parts.len());
            for (i, part) in parts.iter().enumerate() {
                match part {
                    Json::String(s) => out.push(s.clone()),
                    Json::Object(map) => {
                        out.push(scalar_text(map.get("value")).unwrap_or_default())
                    }
                    _ => match scalar_text(Some(part)) {
                        Some(text) => out.push(text),
                        None => {
                            return Err(invalid(&format!("{}[{}]", at, i), "expected a string"))
                        }
                    },
                }
            }
            Ok(out.join(separator))
        }
        Some(other) => Err(invalid(
            at,
            &format!("expected a string or a list, got {}", other.type_name()),
        )),
    }
}

/// A raw URL split into its address and its query (the fragment dropped).
fn split_raw(raw: &str) -> (&str, &str) {
    let raw = raw.split('#').next().unwrap_or("");
    match raw.split_once('?') {
        Some((address, query)) => (address, query),
        None => (raw, ""),
    }
}

/// Query entries of a raw query string.
fn raw_query(query: &str) -> Vec<Entry> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            Entry {
                key: decode(key),
                value: Some(decode(value)),
                enabled: true,
                description: None,
                kind: None,
            }
        })
        .collect()
}

fn decode(text: &str) -> String {
    String::from_utf8_lossy(&crate::url::form_decode(text)).into_owned()
}
