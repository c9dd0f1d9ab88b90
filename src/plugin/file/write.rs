//! Writing a plugin file: `to_json`, which writes each `${NAME}` back, never its value.

use super::template::escape;
use crate::json::{Json, Map};
use crate::plugin::build::http_plugin::HttpPlugin;
use crate::plugin::declare::model::{
    ArrayStyle, Auth, ConfigValue, Endpoint, EndpointAuth, Options, Param, ParamType,
};
use crate::plugin::declare::oauth::{ClientAuth, Grant, OAuth2};
use crate::plugin::declare::option_fields::{Value, OPTION_FIELDS};
use crate::plugin::declare::sigv4::AwsSigV4;
use crate::tool::Confirm;

impl HttpPlugin {
    /// The plugin file for this plugin: [`from_json`](HttpPlugin::from_json) reads it back
    /// to the same declaration. Values read from the environment are written as their
    /// `${NAME}` template, never resolved; runtime attachments (transport, observer, signer,
    /// file resolver) are not part of the file.
    pub fn to_json(&self) -> Json {
        let d = &self.decl;
        let mut root = Map::new();
        root.insert("name", d.name.as_str());
        if !d.description.is_empty() {
            root.insert("description", d.description.as_str());
        }
        let base_url = match &d.base_url_template {
            Some(template) => template.clone(),
            None => escape(&d.base_url_text),
        };
        root.insert("base_url", base_url);
        if !d.headers.is_empty() {
            root.insert("headers", config_map(&d.headers));
        }
        if !d.query.is_empty() {
            root.insert("query", config_map(&d.query));
        }
        if let Some(auth) = &d.auth {
            root.insert("auth", auth_json(auth));
        }
        if d.confirm != Confirm::Never {
            root.insert("confirm", confirm_json(&d.confirm));
        }
        write_options(&mut root, &d.options);
        let mut members = Members::new();
        let endpoints: Vec<Json> = self
            .endpoints()
            .map(|endpoint| endpoint_json(endpoint, &mut members))
            .collect();
        root.insert("endpoints", endpoints);
        if !self.decl.defs.is_empty() {
            root.insert("$defs", self.decl.defs.clone());
        }
        Json::Object(root)
    }
}

/// `"confirm"` as the file writes it: the word, or the list of tool names.
fn confirm_json(confirm: &Confirm) -> Json {
    match confirm {
        Confirm::Tools(names) => names.clone().into(),
        other => other.as_str().into(),
    }
}

/// Static headers or query pairs as the file writes them, in their order.
fn config_map(pairs: &[(String, ConfigValue)]) -> Map {
    let mut entries = Vec::with_capacity(pairs.len());
    for (name, value) in pairs {
        entries.push((name.clone(), config_json(value)));
    }
    // Collected, not inserted one by one (each insert scans the keys).
    entries.into_iter().collect()
}

fn config_json(value: &ConfigValue) -> Json {
    if let Some(key) = value.context_key() {
        let mut map = Map::with_capacity(1);
        map.insert("context", key);
        return Json::Object(map);
    }
    match value.template() {
        Some(template) => Json::from(template),
        None => Json::from(escape(value.value().unwrap_or(""))),
    }
}

fn auth_json(auth: &Auth) -> Json {
    let mut map = Map::with_capacity(3);
    map.insert("type", auth.type_name());
    match auth {
        Auth::Bearer { token } => {
            map.insert("token", config_json(token));
        }
        Auth::Basic { username, password } | Auth::Digest { username, password } => {
            map.insert("username", config_json(username));
            map.insert("password", config_json(password));
        }
        Auth::Header { name, value } | Auth::Query { name, value } => {
            map.insert("name", name.as_str());
            map.insert("value", config_json(value));
        }
        Auth::OAuth2(oauth) => oauth_json(&mut map, oauth),
        Auth::AwsSigV4(sigv4) => sigv4_json(&mut map, sigv4),
    }
    Json::Object(map)
}

fn sigv4_json(map: &mut Map, sigv4: &AwsSigV4) {
    map.insert("region", config_json(sigv4.region()));
    map.insert("service", config_json(sigv4.service()));
    map.insert("access_key_id", config_json(sigv4.access_key_id()));
    map.insert("secret_access_key", config_json(sigv4.secret_access_key()));
    if let Some(token) = sigv4.session_token() {
        map.insert("session_token", config_json(token));
    }
}

fn oauth_json(map: &mut Map, oauth: &OAuth2) {
    map.insert("token_url", config_json(oauth.token_url()));
    map.insert("client_id", config_json(oauth.client_id()));
    if let Some(secret) = oauth.client_secret() {
        map.insert("client_secret", config_json(secret));
    }
    if let Grant::RefreshToken { refresh_token } = oauth.grant() {
        map.insert("refresh_token", config_json(refresh_token));
    }
    if let Some(scope) = oauth.scope() {
        map.insert("scope", scope);
    }
    if let Some(audience) = oauth.audience() {
        map.insert("audience", audience);
    }
    if oauth.client_auth() != ClientAuth::default() {
        map.insert("client_auth", oauth.client_auth().as_str());
    }
    if oauth.allows_http() {
        map.insert("allow_http", true);
    }
}

/// The options that are set, field by field of the one table the reader walks too.
fn write_options(map: &mut impl Extend<(&'static str, Json)>, options: &Options) {
    for field in OPTION_FIELDS {
        let value = match &field.value {
            Value::Millis(slot) => (slot.get)(options)
                .map(|d| Json::from(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))),
            Value::Bytes(slot, _) => (slot.get)(options).map(Json::from),
            Value::Count(slot) => (slot.get)(options).map(Json::from),
            Value::Flag(slot) => (slot.get)(options).map(Json::from),
            Value::Hosts(slot) => (slot.get)(options).map(Json::from),
            Value::Address(slot) => (slot.get)(options).map(|mode| Json::from(mode.as_str())),
        };
        if let Some(value) = value {
            map.extend([(field.name, value)]);
        }
    }
}

/// The members of one object of the file, gathered before the object is made: made key by
/// key, an endpoint's or a parameter's map was reallocated for each of its first four keys
/// and then every few more. One list serves every object (`to_json` writes thousands).
type Members = Vec<(&'static str, Json)>;

/// The object of `members` (emptied), with room for exactly them. Each key is written once
/// (the file's keys and the option fields' differ).
fn object(members: &mut Members) -> Json {
    let entries: Vec<(String, Json)> = members
        .drain(..)
        .map(|(key, value)| (key.to_string(), value))
        .collect();
    debug_assert!(
        entries
            .iter()
            .enumerate()
            .all(|(i, (key, _))| entries.iter().skip(i + 1).all(|(other, _)| other != key)),
        "a key written twice"
    );
    Json::Object(Map::from_unique_entries(entries))
}

fn endpoint_json(endpoint: &Endpoint, members: &mut Members) -> Json {
    let params: Vec<Json> = endpoint
        .params()
        .iter()
        .map(|param| param_json(param, members))
        .collect();
    members.push(("name", endpoint.name().into()));
    if let Some(title) = endpoint.title() {
        members.push(("title", title.into()));
    }
    if !endpoint.tags().is_empty() {
        members.push(("tags", endpoint.tags().to_vec().into()));
    }
    if !endpoint.description().is_empty() {
        members.push(("description", endpoint.description().into()));
    }
    members.push(("method", endpoint.method().as_str().into()));
    members.push(("path", endpoint.path().into()));
    if let Some(encoding) = endpoint.body_encoding {
        members.push(("body_encoding", encoding.as_str().into()));
    }
    if let Some(pointer) = endpoint.response_pointer() {
        members.push(("response_pointer", pointer.into()));
    }
    if let Some(pagination) = endpoint.pagination() {
        members.push(("pagination", pagination.to_json()));
    }
    if !endpoint.response_fields().is_empty() {
        members.push((
            "response_fields",
            endpoint.response_fields().to_vec().into(),
        ));
    }
    let flags = [
        ("fields_argument", endpoint.fields_argument()),
        (
            "allow_unknown_arguments",
            endpoint.allow_unknown_arguments(),
        ),
        ("allow_delete_body", endpoint.allow_delete_body()),
        ("allow_get_body", endpoint.allow_get_body()),
    ];
    for (key, on) in flags {
        if on {
            members.push((key, true.into()));
        }
    }
    if let Some(base_url) = endpoint.base_url() {
        let written = match endpoint.base_url_template() {
            Some(template) => template.to_string(),
            None => escape(base_url),
        };
        members.push(("base_url", written.into()));
    }
    match endpoint.auth() {
        Some(EndpointAuth::None) => members.push(("auth", "none".into())),
        Some(EndpointAuth::Auth(auth)) => members.push(("auth", auth_json(auth))),
        None => {}
    }
    if !endpoint.endpoint_headers().is_empty() {
        members.push((
            "headers",
            Json::Object(config_map(endpoint.endpoint_headers())),
        ));
    }
    if let Some(content_type) = endpoint.content_type() {
        members.push(("content_type", content_type.into()));
    }
    let hints = endpoint.declared_annotations();
    if !hints.is_empty() {
        let mut declared = Map::with_capacity(4);
        let named = [
            ("read_only", hints.read_only),
            ("destructive", hints.destructive),
            ("idempotent", hints.idempotent),
            ("open_world", hints.open_world),
        ];
        for (key, hint) in named {
            if let Some(hint) = hint {
                declared.insert(key, hint);
            }
        }
        members.push(("annotations", declared.into()));
    }
    if let Some(confirm) = endpoint.confirm() {
        members.push(("confirm", confirm_json(confirm)));
    }
    if let Some(schema) = endpoint.output_schema() {
        members.push(("output_schema", schema.clone()));
    }
    write_options(members, &endpoint.options);
    members.push(("params", params.into()));
    object(members)
}

fn param_json(param: &Param, members: &mut Members) -> Json {
    members.push(("name", param.name().into()));
    if let Some(wire) = &param.wire_name {
        members.push(("wire_name", wire.as_str().into()));
    }
    members.push(("in", param.location().as_str().into()));
    write_type(members, param.ty());
    if let Some(format) = param.format() {
        members.push(("format", format.into()));
    }
    if !param.description().is_empty() {
        members.push(("description", param.description().into()));
    }
    if param.required {
        members.push(("required", true.into()));
    }
    match (&param.default_template, &param.default) {
        (Some(template), _) => {
            members.push(("default", template.as_str().into()));
        }
        (None, Some(Json::String(text))) if param.is_hidden() => {
            members.push(("default", escape(text).into()));
        }
        (None, Some(default)) => {
            members.push(("default", default.clone()));
        }
        (None, None) => {}
    }
    if !param.enum_values().is_empty() {
        members.push(("enum", param.enum_values().to_vec().into()));
    }
    let flags = [
        ("secret", param.secret),
        ("hidden", param.hidden),
        ("whole_body", param.whole_body),
        ("file", param.file),
    ];
    for (key, on) in flags {
        if on {
            members.push((key, true.into()));
        }
    }
    if let Some(key) = &param.context {
        members.push(("context", key.as_str().into()));
    }
    if param.array_style() != ArrayStyle::Repeat {
        members.push(("array_style", param.array_style().as_str().into()));
    }
    if let Some(schema) = param.schema() {
        members.push(("schema", schema.clone()));
    }
    object(members)
}

/// `type`, and `items` or `properties`. Recursion follows the declared type, whose depth
/// the plugin's checks bound.
pub(crate) fn write_type(out: &mut impl Extend<(&'static str, Json)>, ty: &ParamType) {
    let shape = match ty {
        ParamType::Array(items) => {
            let mut inner = Map::with_capacity(type_keys(items));
            write_type(&mut inner, items);
            Some(("items", Json::Object(inner)))
        }
        ParamType::Object(properties) if !properties.is_empty() => {
            // Collected, not inserted one by one (each insert scans the keys): linear in
            // the number of properties.
            let mut props = Vec::with_capacity(properties.len());
            for property in properties {
                let described = !property.description().is_empty();
                let keys = type_keys(property.ty())
                    + usize::from(described)
                    + usize::from(property.is_required());
                let mut inner = Map::with_capacity(keys);
                write_type(&mut inner, property.ty());
                if described {
                    inner.insert("description", property.description());
                }
                if property.is_required() {
                    inner.insert("required", true);
                }
                props.push((property.name().to_string(), Json::Object(inner)));
            }
            Some(("properties", Json::Object(props.into_iter().collect())))
        }
        _ => None,
    };
    out.extend(std::iter::once(("type", Json::from(ty.as_str()))).chain(shape));
}

/// How many keys [`write_type`] writes for `ty`: `type`, and `items` for an array or
/// `properties` for an object that declares some.
pub(crate) fn type_keys(ty: &ParamType) -> usize {
    match ty {
        ParamType::Array(_) => 2,
        ParamType::Object(properties) if !properties.is_empty() => 2,
        _ => 1,
    }
}
