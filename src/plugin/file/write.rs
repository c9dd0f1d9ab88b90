//! Writing a plugin file: `to_json`, which writes each `${NAME}` back, never its value.

use super::template::escape;
use crate::json::{Json, Map};
use crate::plugin::http_plugin::HttpPlugin;
use crate::plugin::model::{ArrayStyle, Auth, ConfigValue, Endpoint, Options, Param, ParamType};
use crate::plugin::oauth::{ClientAuth, Grant, OAuth2};
use crate::plugin::option_fields::{Value, OPTION_FIELDS};

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
            None => d.base_url_text.clone(),
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
        write_options(&mut root, &d.options);
        let endpoints: Vec<Json> = self.endpoints().map(endpoint_json).collect();
        root.insert("endpoints", endpoints);
        Json::Object(root)
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
        Auth::Basic { username, password } => {
            map.insert("username", config_json(username));
            map.insert("password", config_json(password));
        }
        Auth::Header { name, value } | Auth::Query { name, value } => {
            map.insert("name", name.as_str());
            map.insert("value", config_json(value));
        }
        Auth::OAuth2(oauth) => oauth_json(&mut map, oauth),
    }
    Json::Object(map)
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
fn write_options(map: &mut Map, options: &Options) {
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
            map.insert(field.name, value);
        }
    }
}

fn endpoint_json(endpoint: &Endpoint) -> Json {
    let mut map = Map::new();
    map.insert("name", endpoint.name());
    if let Some(title) = endpoint.title() {
        map.insert("title", title);
    }
    if !endpoint.tags().is_empty() {
        map.insert("tags", endpoint.tags().to_vec());
    }
    if !endpoint.description().is_empty() {
        map.insert("description", endpoint.description());
    }
    map.insert("method", endpoint.method().as_str());
    map.insert("path", endpoint.path());
    if let Some(encoding) = endpoint.body_encoding {
        map.insert("body_encoding", encoding.as_str());
    }
    if let Some(pointer) = endpoint.response_pointer() {
        map.insert("response_pointer", pointer);
    }
    if !endpoint.response_fields().is_empty() {
        map.insert("response_fields", endpoint.response_fields().to_vec());
    }
    if endpoint.fields_argument() {
        map.insert("fields_argument", true);
    }
    if endpoint.allow_unknown_arguments() {
        map.insert("allow_unknown_arguments", true);
    }
    if endpoint.allow_delete_body() {
        map.insert("allow_delete_body", true);
    }
    if endpoint.allow_get_body() {
        map.insert("allow_get_body", true);
    }
    if let Some(base_url) = endpoint.base_url() {
        map.insert("base_url", base_url);
    }
    if let Some(content_type) = endpoint.content_type() {
        map.insert("content_type", content_type);
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
        map.insert("annotations", declared);
    }
    if let Some(schema) = endpoint.output_schema() {
        map.insert("output_schema", schema.clone());
    }
    write_options(&mut map, &endpoint.options);
    let params: Vec<Json> = endpoint.params().iter().map(param_json).collect();
    map.insert("params", params);
    Json::Object(map)
}

fn param_json(param: &Param) -> Json {
    let mut map = Map::new();
    map.insert("name", param.name());
    if let Some(wire) = &param.wire_name {
        map.insert("wire_name", wire.as_str());
    }
    map.insert("in", param.location().as_str());
    write_type(&mut map, param.ty());
    if let Some(format) = param.format() {
        map.insert("format", format);
    }
    if !param.description().is_empty() {
        map.insert("description", param.description());
    }
    if param.required {
        map.insert("required", true);
    }
    match (&param.default_template, &param.default) {
        (Some(template), _) => {
            map.insert("default", template.as_str());
        }
        (None, Some(Json::String(text))) if param.is_hidden() => {
            map.insert("default", escape(text));
        }
        (None, Some(default)) => {
            map.insert("default", default.clone());
        }
        (None, None) => {}
    }
    if !param.enum_values().is_empty() {
        map.insert("enum", param.enum_values().to_vec());
    }
    let flags = [
        ("secret", param.secret),
        ("hidden", param.hidden),
        ("whole_body", param.whole_body),
        ("file", param.file),
    ];
    for (key, on) in flags {
        if on {
            map.insert(key, true);
        }
    }
    if let Some(key) = &param.context {
        map.insert("context", key.as_str());
    }
    if param.array_style() != ArrayStyle::Repeat {
        map.insert("array_style", param.array_style().as_str());
    }
    if let Some(schema) = param.schema() {
        map.insert("schema", schema.clone());
    }
    Json::Object(map)
}

/// `type`, and `items` or `properties`. Recursion follows the declared type, whose depth
/// the plugin's checks bound.
pub(crate) fn write_type(map: &mut Map, ty: &ParamType) {
    map.insert("type", ty.as_str());
    match ty {
        ParamType::Array(items) => {
            let mut inner = Map::new();
            write_type(&mut inner, items);
            map.insert("items", inner);
        }
        ParamType::Object(properties) if !properties.is_empty() => {
            // Collected, not inserted one by one (each insert scans the keys): linear in
            // the number of properties.
            let mut props = Vec::with_capacity(properties.len());
            for property in properties {
                let mut inner = Map::new();
                write_type(&mut inner, property.ty());
                if !property.description().is_empty() {
                    inner.insert("description", property.description());
                }
                if property.is_required() {
                    inner.insert("required", true);
                }
                props.push((property.name().to_string(), Json::Object(inner)));
            }
            map.insert("properties", props.into_iter().collect::<Map>());
        }
        _ => {}
    }
}
