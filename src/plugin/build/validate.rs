//! The checks a declaration passes when the plugin is built (`PluginBuilder::build`, and so
//! `from_json`), on the plain [`Declaration`]: each failure an error naming the field. Pure: no I/O, no clock, no
//! environment.

use std::collections::HashMap;

use crate::http::{Headers, Method};
use crate::json::Json;
use crate::plugin::call::args;
use crate::plugin::call::style;
use crate::plugin::declare::declaration::{effective_location, Declaration};
use crate::plugin::declare::model::{
    ArrayStyle, Auth, BodyEncoding, ConfigValue, Endpoint, Location, Options, Param, ParamType,
    MAX_TYPE_DEPTH,
};
use crate::plugin::declare::option_fields::{Value, OPTION_FIELDS};
use crate::plugin::error::{quote, short_value as short, Error, ErrorKind};
use crate::tool;
use crate::tool::small_set::{MapLookup, SmallSet};
use crate::url::Url;

/// `parent.field`.
pub(crate) fn at(parent: &str, field: &str) -> String {
    if parent.is_empty() {
        return field.to_string();
    }
    // Built by hand, not with `format!`: a plugin's checks make one of these for each
    // endpoint and parameter, and the formatting machinery cost several times the copying.
    let mut out = String::with_capacity(parent.len() + 1 + field.len());
    out.push_str(parent);
    out.push('.');
    out.push_str(field);
    out
}

/// `parent[index]`.
pub(crate) fn index(parent: &str, i: usize) -> String {
    use std::fmt::Write;
    // As `at`: only the number goes through the formatter.
    let mut out = String::with_capacity(parent.len() + 8);
    out.push_str(parent);
    out.push('[');
    let _ = write!(out, "{}", i);
    out.push(']');
    out
}

pub(crate) fn err(kind: ErrorKind, path: impl Into<String>, message: impl Into<String>) -> Error {
    Error::new(kind, path, message)
}

/// Headers the client writes itself: declaring them is a mistake.
pub(crate) const MANAGED_HEADERS: [&str; 4] =
    ["host", "content-length", "transfer-encoding", "connection"];

pub(crate) fn check_tool_like_name(name: &str, path: &str, what: &str) -> Result<(), Error> {
    if tool::validate_name(name).is_err() {
        return Err(err(
            ErrorKind::InvalidName,
            path,
            format!(
                "{} is not a valid {} name: use 1 to {} of a-z, A-Z, 0-9, '_' and '-'",
                quote(name),
                what,
                tool::MAX_NAME_LEN
            ),
        ));
    }
    Ok(())
}

pub(crate) fn check_base_url(text: &str) -> Result<Url, Error> {
    if text.contains('?') || text.contains('#') {
        return Err(err(
            ErrorKind::InvalidBaseUrl,
            "base_url",
            "a base url cannot have a query or fragment: put query values in `query`",
        ));
    }
    Url::parse(text).map_err(|e| {
        err(
            ErrorKind::InvalidBaseUrl,
            "base_url",
            format!(
                "{}; expected an absolute http or https url with a host, such as https://api.example.com/v1",
                e
            ),
        )
    })
}

/// Checks a header name and a known value with the rules of `http::Headers`.
fn check_header(name: &str, value: Option<&str>, path: &str) -> Result<(), Error> {
    let mut scratch = Headers::new();
    if scratch.append(name, value.unwrap_or("")).is_err() {
        let valid_name = Headers::new().append(name, "").is_ok();
        let message = if valid_name {
            format!(
                "the value of header {} holds a control character (cr, lf, nul or another)",
                quote(name)
            )
        } else {
            format!(
                "{} is not a header name: use letters, digits and !#$%&'*+-.^_`|~",
                quote(name)
            )
        };
        return Err(err(ErrorKind::InvalidHeader, path, message));
    }
    if MANAGED_HEADERS.iter().any(|m| m.eq_ignore_ascii_case(name)) {
        return Err(err(
            ErrorKind::InvalidHeader,
            path,
            format!(
                "header {} is written by the client itself and cannot be declared",
                quote(name)
            ),
        ));
    }
    Ok(())
}

/// A static `Host` (a virtual host, as `curl -H 'Host: ...'` sends): a value written out,
/// `uri-host [":" port]` (RFC 9110 section 7.2), so it cannot end the header.
fn check_host(value: &ConfigValue, path: &str) -> Result<(), Error> {
    let valid = match (value.value(), value.context_key()) {
        (Some(text), None) => crate::http::is_host_header(text),
        _ => false,
    };
    if valid {
        return Ok(());
    }
    Err(err(
        ErrorKind::InvalidHeader,
        path,
        "a Host header is a host name or address with an optional port, such as \
         api.internal:8080, written out",
    ))
}

fn check_context_key(value: &ConfigValue, path: &str) -> Result<(), Error> {
    if value.context_key() == Some("") {
        return Err(err(
            ErrorKind::InvalidField,
            path,
            "a context key cannot be empty",
        ));
    }
    Ok(())
}

/// The plugin-level names a parameter may not reuse, gathered once while they are checked,
/// so every check of a parameter against them takes constant time.
pub(crate) struct PluginNames {
    /// The static header names, lowercased (header names are case-insensitive).
    headers: SmallSet<String>,
    /// The static query names.
    query: SmallSet<String>,
}

/// The names an endpoint's parameters took so far, for duplicate checks in constant time.
pub(crate) struct EndpointNames<'a> {
    names: SmallSet<&'a str>,
    /// Where a value goes and its wire name (lowercased for headers).
    wires: SmallSet<(Location, String)>,
}

impl<'a> EndpointNames<'a> {
    pub(crate) fn new() -> EndpointNames<'a> {
        EndpointNames {
            names: SmallSet::new(),
            wires: SmallSet::new(),
        }
    }
}

/// Checks the static headers and query values; their names, for the parameters' checks.
pub(crate) fn check_static_names(
    headers: &[(String, ConfigValue)],
    query: &[(String, ConfigValue)],
) -> Result<PluginNames, Error> {
    Ok(PluginNames {
        headers: check_static_headers(headers)?,
        query: check_static_query(query)?,
    })
}

fn check_static_headers(headers: &[(String, ConfigValue)]) -> Result<SmallSet<String>, Error> {
    let mut seen = SmallSet::new();
    for (name, value) in headers {
        let path = at("headers", name);
        if name.eq_ignore_ascii_case("host") {
            check_host(value, &path)?;
        } else {
            check_header(name, value.value(), &path)?;
        }
        check_context_key(value, &path)?;
        if !seen.insert(name.to_ascii_lowercase()) {
            return Err(err(
                ErrorKind::DuplicateName,
                path,
                format!("header {} is declared twice", quote(name)),
            ));
        }
    }
    Ok(seen)
}

/// Checks an endpoint's own static headers (at `path`, the endpoint's) as the plugin's are
/// checked, less `Host` (the plugin's virtual host is one for every endpoint), and against
/// the header the endpoint's auth (its own, else `plugin_auth`) sets.
pub(crate) fn check_endpoint_headers(
    endpoint: &Endpoint,
    plugin_auth: Option<&Auth>,
    path: &str,
) -> Result<(), Error> {
    let headers = endpoint.endpoint_headers();
    let auth_header = endpoint.auth_or(plugin_auth).and_then(Auth::header_name);
    let parent = at(path, "headers");
    let mut seen = SmallSet::new();
    for (name, value) in headers {
        let field = at(&parent, name);
        if name.eq_ignore_ascii_case("host") {
            return Err(err(
                ErrorKind::InvalidHeader,
                field,
                "an endpoint cannot set Host; declare a virtual host in the plugin's headers",
            ));
        }
        check_header(name, value.value(), &field)?;
        check_context_key(value, &field)?;
        if !seen.insert(name.to_ascii_lowercase()) {
            return Err(err(
                ErrorKind::DuplicateName,
                field,
                format!("header {} is declared twice", quote(name)),
            ));
        }
        if auth_header.map_or(false, |h| h.eq_ignore_ascii_case(name)) {
            return Err(err(
                ErrorKind::InvalidHeader,
                field,
                format!(
                    "header {} is also set by `auth`; declare it in one place",
                    quote(name)
                ),
            ));
        }
    }
    Ok(())
}

fn check_static_query(query: &[(String, ConfigValue)]) -> Result<SmallSet<String>, Error> {
    let mut seen = SmallSet::new();
    for (name, value) in query {
        let path = at("query", name);
        if name.is_empty() {
            return Err(err(
                ErrorKind::InvalidName,
                "query",
                "a query name cannot be empty",
            ));
        }
        check_context_key(value, &path)?;
        if !seen.insert(name.clone()) {
            return Err(err(
                ErrorKind::DuplicateName,
                path,
                format!("query value {} is declared twice", quote(name)),
            ));
        }
    }
    Ok(seen)
}

/// OAuth 2.0 auth: a usable token URL when it is known (https unless loopback), a secret for
/// the client credentials grant (RFC 6749 section 4.4: confidential clients only).
fn check_oauth(oauth: &crate::plugin::OAuth2, path: &str) -> Result<(), Error> {
    let named = [
        (Some(oauth.token_url()), &at(path, "token_url")),
        (Some(oauth.client_id()), &at(path, "client_id")),
        (oauth.client_secret(), &at(path, "client_secret")),
    ];
    for (value, path) in named {
        if let Some(value) = value {
            check_context_key(value, path)?;
        }
    }
    if let crate::plugin::Grant::RefreshToken { refresh_token } = oauth.grant() {
        check_context_key(refresh_token, &at(path, "refresh_token"))?;
    }
    if let Some(url) = oauth.token_url().value() {
        if let Some(problem) =
            crate::plugin::call::token::token_url_problem(url, oauth.allows_http())
        {
            return Err(err(ErrorKind::InvalidField, at(path, "token_url"), problem));
        }
    }
    if oauth.grant() == &crate::plugin::Grant::ClientCredentials && oauth.client_secret().is_none()
    {
        return Err(err(
            ErrorKind::MissingField,
            at(path, "client_secret"),
            "the client credentials grant needs a client secret (RFC 6749 section 4.4)",
        ));
    }
    Ok(())
}

/// AWS Signature Version 4: a region and a service written in the file are words (they end
/// up in the credential scope and the `Authorization` header).
fn check_sigv4(sigv4: &crate::plugin::AwsSigV4, path: &str) -> Result<(), Error> {
    let named = [
        (sigv4.region(), at(path, "region")),
        (sigv4.service(), at(path, "service")),
        (sigv4.access_key_id(), at(path, "access_key_id")),
        (sigv4.secret_access_key(), at(path, "secret_access_key")),
    ];
    for (value, field) in &named {
        check_context_key(value, field)?;
    }
    if let Some(token) = sigv4.session_token() {
        check_context_key(token, &at(path, "session_token"))?;
    }
    for (value, path) in named.iter().take(2) {
        let literal = value.value().filter(|_| value.template().is_none());
        let word = literal.map_or(true, |text| {
            !text.is_empty()
                && text
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        });
        if !word {
            return Err(err(
                ErrorKind::InvalidField,
                path,
                "must be a non-empty word of letters, digits, '-' and '_'",
            ));
        }
    }
    check_header(
        "X-Amz-Security-Token",
        sigv4.session_token().and_then(|t| t.value()),
        &at(path, "session_token"),
    )
}

/// Checks `auth`, declared at `path` (`auth`, or an endpoint's), against the plugin's static
/// headers and query values.
pub(crate) fn check_auth(
    auth: &Auth,
    path: &str,
    headers: &[(String, ConfigValue)],
    query: &[(String, ConfigValue)],
) -> Result<(), Error> {
    match auth {
        Auth::Bearer { token } => {
            check_context_key(token, &at(path, "token"))?;
            check_header("Authorization", token.value(), &at(path, "token"))?;
        }
        Auth::Basic { username, password } => {
            check_context_key(username, &at(path, "username"))?;
            check_context_key(password, &at(path, "password"))?;
            if username.value().map_or(false, |u| u.contains(':')) {
                return Err(err(
                    ErrorKind::InvalidField,
                    at(path, "username"),
                    "a basic auth user name cannot hold ':' (RFC 7617)",
                ));
            }
        }
        Auth::Header { name, value } => {
            check_context_key(value, &at(path, "value"))?;
            check_header(name, value.value(), &at(path, "name"))?;
        }
        Auth::OAuth2(oauth) => check_oauth(oauth, path)?,
        Auth::AwsSigV4(sigv4) => check_sigv4(sigv4, path)?,
        Auth::Digest { username, password } => {
            check_context_key(username, &at(path, "username"))?;
            check_context_key(password, &at(path, "password"))?;
            check_header("Authorization", username.value(), &at(path, "username"))?;
        }
        Auth::Query { name, value } => {
            check_context_key(value, &at(path, "value"))?;
            if name.is_empty() {
                return Err(err(
                    ErrorKind::InvalidName,
                    at(path, "name"),
                    "a query name cannot be empty",
                ));
            }
            if query.iter().any(|(n, _)| n == name) {
                return Err(err(
                    ErrorKind::DuplicateName,
                    at(path, "name"),
                    format!("query value {} is also declared in `query`", quote(name)),
                ));
            }
        }
    }
    if let Some(header) = auth.header_name() {
        if headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(header)) {
            return Err(err(
                ErrorKind::InvalidHeader,
                at("headers", header),
                format!(
                    "header {} is also set by `auth`; declare it in one place",
                    quote(header)
                ),
            ));
        }
    }
    Ok(())
}

/// Checks the options at `parent` (the top level or an endpoint), field by field of
/// [`OPTION_FIELDS`].
pub(crate) fn check_options(options: &Options, parent: &str) -> Result<(), Error> {
    for field in OPTION_FIELDS {
        let path = || at(parent, field.name);
        match &field.value {
            Value::Millis(slot) => {
                if (slot.get)(options).map_or(false, |t| t.as_millis() == 0) {
                    return Err(err(
                        ErrorKind::InvalidField,
                        path(),
                        "a timeout must be at least 1 ms",
                    ));
                }
            }
            Value::Bytes(slot, refuse_zero) => {
                if let (Some(message), Some(0)) = (refuse_zero, (slot.get)(options)) {
                    return Err(err(ErrorKind::InvalidField, path(), *message));
                }
            }
            Value::Hosts(slot) => {
                for (i, host) in (slot.get)(options).iter().flatten().enumerate() {
                    if host.is_empty() || host.bytes().any(|b| b <= b' ' || b == b'/' || b == b'@')
                    {
                        return Err(err(
                            ErrorKind::InvalidField,
                            index(&path(), i),
                            format!("{} is not a host name or address", quote(host)),
                        ));
                    }
                }
            }
            // Any value the file can hold is a valid count, flag or address mode.
            Value::Count(_) | Value::Flag(_) | Value::Address(_) => {}
        }
    }
    Ok(())
}

/// Checks one parameter of `endpoint`; `seen` holds the names of the parameters before it
/// and takes this one's.
pub(crate) fn check_param<'a>(
    b: &Declaration,
    plugin: &PluginNames,
    endpoint: &Endpoint,
    param: &'a Param,
    seen: &mut EndpointNames<'a>,
    schemas: &mut CheckedSchemas,
    path: &str,
) -> Result<(), Error> {
    if tool::validate_name(&param.name).is_err() {
        return Err(err(
            ErrorKind::InvalidName,
            at(path, "name"),
            format!(
                "{} is not a valid parameter name: use 1 to {} of a-z, A-Z, 0-9, '_' and '-'",
                quote(&param.name),
                tool::MAX_NAME_LEN
            ),
        ));
    }
    if !seen.names.insert(&param.name) {
        return Err(err(
            ErrorKind::DuplicateName,
            at(path, "name"),
            format!("parameter {} is declared twice", quote(&param.name)),
        ));
    }
    check_wire_name(b, plugin, endpoint, param, seen, path)?;
    check_type(&param.ty, path)?;
    check_flags(endpoint, param, schemas, path)?;
    for (k, value) in param.enum_values.iter().enumerate() {
        if let Err(problem) = fits(value, &param.ty).and_then(|()| args::check_format(param, value))
        {
            return Err(err(
                ErrorKind::InvalidDefault,
                index(&at(path, "enum"), k),
                format!("enum value {}", problem),
            ));
        }
    }
    if let Some(default) = &param.default {
        check_default(param, default, &at(path, "default"))?;
    }
    Ok(())
}

fn check_wire_name(
    b: &Declaration,
    plugin: &PluginNames,
    endpoint: &Endpoint,
    param: &Param,
    seen: &mut EndpointNames<'_>,
    path: &str,
) -> Result<(), Error> {
    let wire = param.wire_name();
    // The field errors are at, made only for an error (this runs for every parameter).
    let field_name = if param.wire_name.is_some() {
        "wire_name"
    } else {
        "name"
    };
    let field = || at(path, field_name);
    if wire.is_empty() {
        return Err(err(
            ErrorKind::InvalidName,
            field(),
            "a wire name cannot be empty",
        ));
    }
    let location = effective_location(endpoint, param);
    let key = if location == Location::Header {
        wire.to_ascii_lowercase()
    } else {
        wire.to_string()
    };
    if !seen.wires.insert((location, key)) {
        return Err(err(
            ErrorKind::DuplicateName,
            field(),
            format!(
                "wire name {} is used twice in the {}",
                quote(wire),
                location
            ),
        ));
    }
    match location {
        Location::Header => check_header_param(b, plugin, endpoint, wire, &field()),
        // RFC 6265 section 4.1.1: a cookie-name is a token.
        Location::Cookie => check_header(wire, None, &field()).map_err(|_| {
            err(
                ErrorKind::InvalidName,
                field(),
                format!(
                    "{} is not a cookie name: use letters, digits and !#$%&'*+-.^_`|~",
                    quote(wire)
                ),
            )
        }),
        Location::Query => {
            let auth_query = match endpoint.auth_or(b.auth.as_ref()) {
                Some(Auth::Query { name, .. }) => name == wire,
                _ => false,
            };
            if auth_query || plugin.query.contains(wire) {
                return Err(err(
                    ErrorKind::DuplicateName,
                    field(),
                    format!(
                        "query name {} is also sent by the plugin (`query` or `auth`)",
                        quote(wire)
                    ),
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A header parameter may not shadow a static or auth header, so the model cannot replace
/// credentials ([headers](crate::design::endpoints#headers)).
fn check_header_param(
    b: &Declaration,
    plugin: &PluginNames,
    endpoint: &Endpoint,
    wire: &str,
    field: &str,
) -> Result<(), Error> {
    check_header(wire, None, field)?;
    if plugin.headers.contains(wire.to_ascii_lowercase().as_str()) {
        return Err(err(
            ErrorKind::InvalidHeader,
            field,
            format!(
                "header parameter {} would shadow the plugin's static header",
                quote(wire)
            ),
        ));
    }
    if endpoint
        .endpoint_headers()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(wire))
    {
        return Err(err(
            ErrorKind::InvalidHeader,
            field,
            format!(
                "header parameter {} would shadow the endpoint's static header",
                quote(wire)
            ),
        ));
    }
    let auth_header = endpoint
        .auth_or(b.auth.as_ref())
        .and_then(Auth::header_name);
    if auth_header.map_or(false, |h| h.eq_ignore_ascii_case(wire)) {
        return Err(err(
            ErrorKind::InvalidHeader,
            field,
            format!(
                "header parameter {} would shadow the plugin's auth header",
                quote(wire)
            ),
        ));
    }
    Ok(())
}

/// Type depth and property names, with an explicit stack; errors are at the parameter's
/// `type` (`param_path` is the parameter's: the field's is made only for an error).
fn check_type(ty: &ParamType, param_path: &str) -> Result<(), Error> {
    let path = || at(param_path, "type");
    let mut stack = vec![(ty, 1usize)];
    while let Some((ty, depth)) = stack.pop() {
        if depth > MAX_TYPE_DEPTH {
            return Err(err(
                ErrorKind::InvalidField,
                path(),
                format!("types nest deeper than {} levels", MAX_TYPE_DEPTH),
            ));
        }
        match ty {
            ParamType::Array(items) => stack.push((items, depth + 1)),
            ParamType::Object(properties) => {
                let mut seen = SmallSet::new();
                for property in properties {
                    if tool::validate_name(&property.name).is_err() {
                        return Err(err(
                            ErrorKind::InvalidName,
                            path(),
                            format!(
                                "{} is not a valid property name: use 1 to {} of a-z, A-Z, 0-9, '_' and '-'",
                                quote(&property.name),
                                tool::MAX_NAME_LEN
                            ),
                        ));
                    }
                    if !seen.insert(property.name.as_str()) {
                        return Err(err(
                            ErrorKind::DuplicateName,
                            path(),
                            format!("property {} is declared twice", quote(&property.name)),
                        ));
                    }
                    stack.push((&property.ty, depth + 1));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn conflict(path: &str, field: &str, message: &str) -> Result<(), Error> {
    Err(err(ErrorKind::Conflict, at(path, field), message))
}

fn check_flags(
    endpoint: &Endpoint,
    param: &Param,
    schemas: &mut CheckedSchemas,
    path: &str,
) -> Result<(), Error> {
    if param.secret
        && !matches!(
            param.location,
            Location::Query | Location::Header | Location::Cookie
        )
    {
        return conflict(
            path,
            "secret",
            "only query, header and cookie parameters can be secret (a body or path value cannot be masked)",
        );
    }
    if param.context.is_some() && !param.is_hidden() {
        return conflict(
            path,
            "context",
            "a context key applies to hidden or secret parameters only",
        );
    }
    if param.context.as_deref() == Some("") {
        return conflict(path, "context", "a context key cannot be empty");
    }
    check_style(param, path)?;
    if let Some(schema) = &param.schema {
        check_schema_depth(schema, schemas, path)?;
        check_schema_type(param, schema, path)?;
    }
    if param.whole_body {
        check_whole_body(endpoint, param, path)?;
    }
    if endpoint.body_encoding() == BodyEncoding::Raw {
        check_raw_body(endpoint, param, path)?;
    }
    if param.file {
        let encoding = endpoint.body_encoding();
        let files = matches!(encoding, BodyEncoding::Multipart | BodyEncoding::Raw);
        if !files || !matches!(param.location, Location::Body | Location::Form) {
            return conflict(
                path,
                "file",
                "a file part needs `\"in\": \"form\"` (or body) and the endpoint's `\"body_encoding\": \"multipart\"` (or raw)",
            );
        }
        if param.ty != ParamType::String {
            return conflict(
                path,
                "file",
                "a file parameter is a string: the handle the host's file resolver reads",
            );
        }
        if endpoint.body_in_query() {
            return conflict(
                path,
                "file",
                "a file part needs a method with a body (POST, PUT or PATCH)",
            );
        }
    }
    if param.location == Location::Form && endpoint.body_encoding() == BodyEncoding::Json {
        return conflict(
            path,
            "in",
            "form parameters need the endpoint's body_encoding to be form or multipart",
        );
    }
    Ok(())
}

/// The type and the `schema` agree: every JSON type the schema names at its top (its `type`,
/// or the types of all its `anyOf` or `oneOf` branches) is one the type takes, so no value
/// the model reads as valid is refused by the call's coercion. `null` counts as absent.
fn check_schema_type(param: &Param, schema: &Json, path: &str) -> Result<(), Error> {
    if param.ty == ParamType::Any {
        return Ok(());
    }
    let mut words = Vec::new();
    if !schema_types(schema, &mut words) {
        return Ok(());
    }
    let takes = |word: &str| match (&param.ty, word) {
        (_, "null") => true,
        (ParamType::Number, "integer") => true,
        (ty, word) => ty.as_str() == word,
    };
    match words.iter().find(|w| !takes(w)) {
        None => Ok(()),
        Some(word) => conflict(
            path,
            "schema",
            &format!(
                "the schema accepts {} values, which the parameter's type '{}' refuses; leave 'type' out to take it from the schema, or write \"type\": \"any\"",
                word,
                param.ty.as_str()
            ),
        ),
    }
}

/// The JSON types `schema` names at its top, pushed onto `words`: its `type` (a word or a
/// list), else those of every `anyOf` and `oneOf` branch; false when they are not all known.
/// Branches are read one level down, not recursively.
fn schema_types<'a>(schema: &'a Json, words: &mut Vec<&'a str>) -> bool {
    fn named<'a>(schema: &'a Json, words: &mut Vec<&'a str>) -> bool {
        match schema.get("type") {
            Some(Json::String(word)) => words.push(word),
            Some(Json::Array(list)) => words.extend(list.iter().filter_map(Json::as_str)),
            _ => return false,
        }
        true
    }
    if named(schema, words) {
        return true;
    }
    let mut found = false;
    for key in ["anyOf", "oneOf"] {
        if let Some(Json::Array(branches)) = schema.get(key) {
            for branch in branches {
                if !named(branch, words) {
                    return false;
                }
            }
            found = true;
        }
    }
    found
}

/// Which styles fit which types and locations (OpenAPI 3.1 section 4.8.12.4.2): a header
/// joins with commas or repeats; spreading needs an object; the others an array or object.
fn check_style(param: &Param, path: &str) -> Result<(), Error> {
    let style = param.array_style;
    if style == ArrayStyle::Repeat || param.ty == ParamType::Any {
        return Ok(());
    }
    if param.location == Location::Header && style != ArrayStyle::Comma {
        return conflict(
            path,
            "array_style",
            "a header parameter's array_style is repeat or comma",
        );
    }
    let fits = match (&param.ty, style) {
        (ParamType::Object(_), _) => true,
        (ParamType::Array(_), ArrayStyle::Spread) => false,
        (ParamType::Array(_), _) => true,
        _ => false,
    };
    if fits {
        return Ok(());
    }
    let message = match style {
        ArrayStyle::Spread => "array_style spread applies to object parameters only",
        _ => "array_style applies to array and object parameters only",
    };
    conflict(path, "array_style", message)
}

/// How deep a declared `schema` may nest: calls check values against it recursively.
pub const MAX_SCHEMA_DEPTH: usize = 64;

/// The objects of parameter schemas that two or more values share, with the deepest level
/// each was found within [`MAX_SCHEMA_DEPTH`] at, by their allocation: an imported plugin
/// has one component's schema in the parameters of many endpoints, and it is walked again
/// only where it sits deeper. The keys are addresses, only meaningful while the schemas
/// live: one is made for each plugin's checks (its endpoints keep the schemas until then).
#[derive(Default)]
pub(crate) struct CheckedSchemas {
    levels: HashMap<usize, usize>,
}

impl CheckedSchemas {
    /// Whether `value` at `level` needs walking: not a shared object already walked as deep
    /// (a check that fails fails the plugin, so one that was started has passed or will).
    fn walk(&mut self, value: &Json, level: usize) -> bool {
        let id = match value {
            Json::Object(map) if map.is_shared() => map.shared_id(),
            _ => None,
        };
        let id = match id {
            Some(id) => id,
            None => return true,
        };
        match self.levels.get(&id) {
            Some(&walked) if walked >= level => false,
            _ => {
                self.levels.insert(id, level);
                true
            }
        }
    }
}

/// The parameter's `schema` nests no deeper than [`MAX_SCHEMA_DEPTH`] (`param_path` is
/// the parameter's: the field's is made only for an error).
fn check_schema_depth(
    schema: &Json,
    schemas: &mut CheckedSchemas,
    param_path: &str,
) -> Result<(), Error> {
    let too_deep = || {
        Err(err(
            ErrorKind::InvalidField,
            at(param_path, "schema"),
            format!("the schema nests deeper than {} levels", MAX_SCHEMA_DEPTH),
        ))
    };
    // Any value deeper than the limit is refused, a string as much as an object. Only arrays
    // and objects go on the stack: most values are strings and numbers, and pushing each
    // one to pop it again was most of the walk.
    if !schemas.walk(schema, 1) {
        return Ok(());
    }
    let mut stack = vec![(schema, 1usize)];
    while let Some((value, depth)) = stack.pop() {
        // The iterators live in locals: Rust 1.63 drops a temporary made in a match arm
        // at the end of the arm.
        let (mut elements, mut members);
        let children: &mut dyn Iterator<Item = &Json> = match value {
            Json::Array(items) => {
                elements = items.iter();
                &mut elements
            }
            Json::Object(map) => {
                members = map.values();
                &mut members
            }
            _ => continue,
        };
        for child in children {
            if depth >= MAX_SCHEMA_DEPTH {
                return too_deep();
            }
            if matches!(child, Json::Array(_) | Json::Object(_)) && schemas.walk(child, depth + 1) {
                stack.push((child, depth + 1));
            }
        }
    }
    Ok(())
}

/// A raw body is the endpoint's one body parameter, a string (text, or a file handle), on a
/// method with a body.
fn check_raw_body(endpoint: &Endpoint, param: &Param, path: &str) -> Result<(), Error> {
    if !matches!(param.location, Location::Body | Location::Form) {
        return Ok(());
    }
    if endpoint.body_in_query() {
        return conflict(
            path,
            "in",
            "a raw body needs a method with a body (POST, PUT, PATCH, DELETE with allow_delete_body, or GET with allow_get_body)",
        );
    }
    if !matches!(param.ty, ParamType::String) {
        return conflict(
            path,
            "type",
            "a raw body parameter is a string (the text, or a file handle with \"file\": true)",
        );
    }
    if has_other_body_param(endpoint, param) {
        return conflict(
            path,
            "in",
            "a raw body is the endpoint's only body (or form) parameter",
        );
    }
    Ok(())
}

/// Whether a body or form parameter other than `param` shares its endpoint: a raw or
/// whole-body parameter must be the only one.
fn has_other_body_param(endpoint: &Endpoint, param: &Param) -> bool {
    endpoint
        .params
        .iter()
        .any(|p| !std::ptr::eq(p, param) && matches!(p.location, Location::Body | Location::Form))
}

/// `allow_get_body` and `allow_delete_body` each say something about one method only; set on
/// another, they would be silently ignored, so they are refused as the other fields that
/// mean nothing where they are (a `file` without a multipart body, an `array_style` on a
/// string) are.
pub(crate) fn check_body_flags(endpoint: &Endpoint, path: &str) -> Result<(), Error> {
    if endpoint.allow_get_body && endpoint.method != Method::Get {
        return conflict(
            path,
            "allow_get_body",
            "allow_get_body applies to GET endpoints only",
        );
    }
    if endpoint.allow_delete_body && endpoint.method != Method::Delete {
        return conflict(
            path,
            "allow_delete_body",
            "allow_delete_body applies to DELETE endpoints only",
        );
    }
    Ok(())
}

/// An endpoint's own `Content-Type` is one header value.
pub(crate) fn check_content_type(endpoint: &Endpoint, path: &str) -> Result<(), Error> {
    match &endpoint.content_type {
        Some(content_type) => check_header(
            "Content-Type",
            Some(content_type),
            &at(path, "content_type"),
        ),
        None => Ok(()),
    }
}

fn check_whole_body(endpoint: &Endpoint, param: &Param, path: &str) -> Result<(), Error> {
    if param.location != Location::Body || endpoint.body_in_query() {
        return conflict(
            path,
            "whole_body",
            "a whole-body parameter is in `body` on a method with a body (POST, PUT, PATCH, DELETE with allow_delete_body, or GET with allow_get_body)",
        );
    }
    if endpoint.body_encoding() != BodyEncoding::Json {
        return conflict(
            path,
            "whole_body",
            "a whole-body parameter is sent as JSON: body_encoding must be json",
        );
    }
    if has_other_body_param(endpoint, param) {
        return conflict(
            path,
            "whole_body",
            "a whole-body parameter must be the endpoint's only body parameter",
        );
    }
    Ok(())
}

fn check_default(param: &Param, default: &Json, path: &str) -> Result<(), Error> {
    // A secret default (say from the environment) is never repeated in a message.
    let shown = |problem: String| {
        if param.secret || param.default_template.is_some() {
            String::from("default does not fit the parameter's type or enum")
        } else {
            format!("default {}", problem)
        }
    };
    if let Err(problem) = fits(default, &param.ty) {
        return Err(err(ErrorKind::InvalidDefault, path, shown(problem)));
    }
    if let Err(problem) = args::check_format(param, default) {
        return Err(err(ErrorKind::InvalidDefault, path, shown(problem)));
    }
    if !param.enum_values.is_empty() && !param.enum_values.contains(default) {
        return Err(err(
            ErrorKind::InvalidDefault,
            path,
            shown(String::from("is not one of the enum values")),
        ));
    }
    if param.location == Location::Path {
        // The rule a call's path value meets, on the text the call would send.
        if style::path_value_problem(default, &mut String::new()).is_some() {
            return Err(err(
                ErrorKind::InvalidDefault,
                path,
                "a path default cannot be empty or hold a '.' or '..' segment",
            ));
        }
    }
    Ok(())
}

/// Whether `value` is exactly of type `ty` (no coercion: declarations are written by people
/// who can write the type). Recursion follows the declared type, bounded by
/// [`MAX_TYPE_DEPTH`].
pub(crate) fn fits(value: &Json, ty: &ParamType) -> Result<(), String> {
    let ok = match (ty, value) {
        (ParamType::String, Json::String(_)) | (ParamType::Boolean, Json::Bool(_)) => true,
        (ParamType::Number, Json::Number(_)) => true,
        // The rule a model's integer meets: sent as plain digits (`1e20` is refused).
        (ParamType::Integer, Json::Number(_)) => args::coerce(value.clone(), ty).is_ok(),
        (ParamType::Any, _) => true,
        (ParamType::Array(items), Json::Array(values)) => {
            for value in values {
                fits(value, items)?;
            }
            true
        }
        (ParamType::Object(properties), Json::Object(map)) => {
            // Built once, so a large object is checked in linear time, not keys x properties.
            let members = MapLookup::new(map);
            for property in properties {
                match members.get(&property.name) {
                    Some(v) => fits(v, &property.ty)?,
                    None if property.required => {
                        return Err(format!("lacks required property {}", quote(&property.name)))
                    }
                    None => {}
                }
            }
            let names: SmallSet<&str> = properties.iter().map(|p| p.name.as_str()).collect();
            properties.is_empty() || map.keys().all(|k| names.contains(k.as_str()))
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{} is not of type {}", short(value), ty.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::plugin::Property;

    #[test]
    fn fits_checks_types_exactly() {
        assert!(fits(&json!("a"), &ParamType::String).is_ok());
        assert!(fits(&json!(1), &ParamType::String).is_err());
        assert!(fits(&json!(2.0), &ParamType::Integer).is_ok());
        assert!(fits(&json!(2.5), &ParamType::Integer).is_err());
        assert!(fits(&json!([1, 2]), &ParamType::array(ParamType::Integer)).is_ok());
        assert_eq!(
            fits(&json!([1, "x"]), &ParamType::array(ParamType::Integer)).unwrap_err(),
            "\"x\" is not of type integer"
        );
        let obj = ParamType::object([Property::new("a", ParamType::Boolean).with_required(true)]);
        assert!(fits(&json!({"a": true}), &obj).is_ok());
        assert_eq!(
            fits(&json!({}), &obj).unwrap_err(),
            "lacks required property 'a'"
        );
        assert!(fits(&json!({"a": true, "b": 1}), &obj).is_err());
        assert!(fits(&json!({"b": 1}), &ParamType::object([])).is_ok());
    }
}
