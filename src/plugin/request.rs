//! Placing checked values into an `http::Request` ([bodies](crate::design::endpoints#bodies) to
//! [headers](crate::design::endpoints#headers)): path segments,
//! query, headers, body, then the plugin's static parts and auth. The URL is written into one
//! string and parsed once. Pure, apart from the host's file resolver for file parts.

use crate::http::Request;
use crate::json::Json;
use crate::plugin::build::compile::{effective_location, BodyPlan, Compiled, PathPiece};
use crate::plugin::build::http_plugin::HttpPlugin;
use crate::plugin::call::args::Values;
use crate::plugin::call::auth;
use crate::plugin::call::multipart::{self, Part};
use crate::plugin::call::style::{self, text};
use crate::plugin::declare::model::{ArrayStyle, Auth, Location, Param};
use crate::plugin::error::quote;
use crate::tool::{CallContext, ErrorKind, ToolOutput};
use crate::url::{self, EncodeSet, SegmentProblem, Url};

/// Builds the request for one call from the checked values.
pub(crate) fn build(
    plugin: &HttpPlugin,
    compiled: &Compiled,
    values: &Values,
    context: &CallContext,
) -> Result<Request, ToolOutput> {
    let endpoint = &compiled.endpoint;
    if let Some(name) = &compiled.base_unset {
        return Err(ToolOutput::error(
            ErrorKind::MissingParameter,
            format!(
                "this tool's base URL reads the variable {}, which was not set when its plugin was loaded; nothing was sent (this is not caused by the arguments)",
                quote(name)
            ),
        ));
    }
    let mut target = String::with_capacity(compiled.prefix.len() + 96);
    target.push_str(&compiled.prefix);
    let mut scratch = String::new();
    push_path(&mut target, compiled, values, &mut scratch)?;
    let mut query = Query {
        target,
        started: false,
    };
    let placed = endpoint
        .params
        .iter()
        .zip(values)
        .zip(compiled.locations.iter().zip(&compiled.query_names));
    for ((param, value), (location, name)) in placed {
        if let (Some(value), Location::Query) = (value, location) {
            query.push_value(name, value, param.array_style, &mut scratch);
        }
    }
    push_plugin_query(plugin, compiled, &mut query, context)?;
    let url = Url::parse(&query.target).map_err(|e| {
        ToolOutput::error(
            ErrorKind::Internal,
            format!(
                "could not build the request url ({}); this is not caused by the arguments",
                e
            ),
        )
    })?;
    let body = body(plugin, compiled, values, context, &mut scratch)?;
    let mut request = Request::from_url(endpoint.method, url);
    if let Some(host) = &plugin.decl.common.host {
        // Checked when the plugin was built, so this cannot fail.
        let _ = request.set_host(host);
    }
    push_headers(
        plugin,
        compiled,
        values,
        context,
        &body,
        &mut request,
        &mut scratch,
    )?;
    if let Some(body) = body {
        request.set_body(body.bytes);
    }
    mark_secrets(plugin, compiled, &mut request);
    request.set_options(compiled.options.clone());
    Ok(request)
}

fn push_path(
    target: &mut String,
    compiled: &Compiled,
    values: &Values,
    scratch: &mut String,
) -> Result<(), ToolOutput> {
    for piece in &compiled.path {
        let i = match piece {
            PathPiece::Literal(literal) => {
                target.push_str(literal);
                continue;
            }
            PathPiece::Param(i) => *i,
        };
        let param = compiled.endpoint.params.get(i);
        let value = values.get(i).and_then(Option::as_ref);
        let (param, value) = match (param, value) {
            (Some(param), Some(value)) => (param, value),
            (Some(param), None) => return Err(empty_path_value(param)),
            (None, _) => continue,
        };
        match style::path_value_problem(value, scratch) {
            None => {}
            Some(SegmentProblem::Empty) => return Err(empty_path_value(param)),
            Some(SegmentProblem::DotSegment) => return Err(ToolOutput::error(
                ErrorKind::InvalidParameter,
                format!(
                    "parameter {} is one path segment and cannot be '.' or '..' or hold such a segment (percent-encoded, padded with spaces, or in look-alike dots); send the identifier itself",
                    quote(&param.name)
                ),
            )),
        }
        // One segment: everything but the unreserved characters is encoded, so `a/b` is
        // `a%2Fb` and `?` or `#` cannot end the path.
        url::percent_encode_into(target, text(value, scratch), EncodeSet::PathSegment);
    }
    Ok(())
}

fn empty_path_value(param: &Param) -> ToolOutput {
    ToolOutput::error(
        ErrorKind::MissingParameter,
        format!(
            "parameter {} is a path segment and cannot be empty",
            quote(&param.name)
        ),
    )
}

/// The URL being written, and whether its query has begun.
struct Query {
    target: String,
    started: bool,
}

impl Query {
    fn separator(&mut self) {
        self.target.push(if self.started { '&' } else { '?' });
        self.started = true;
    }

    /// `name=value`, both encoded (all but the unreserved characters, a space as `%20`).
    fn push_pair(&mut self, name: &str, value: &str) {
        self.separator();
        url::percent_encode_into(&mut self.target, name, EncodeSet::QueryComponent);
        self.target.push('=');
        url::percent_encode_into(&mut self.target, value, EncodeSet::QueryComponent);
    }

    /// As `push_pair`, with the name already encoded.
    fn push_encoded_pair(&mut self, encoded_name: &str, value: &str) {
        self.separator();
        self.target.push_str(encoded_name);
        self.target.push('=');
        url::percent_encode_into(&mut self.target, value, EncodeSet::QueryComponent);
    }

    /// A value under an encoded name: arrays repeat the name, or join the encoded items with
    /// literal commas.
    fn push_value(&mut self, name: &str, value: &Json, style: ArrayStyle, scratch: &mut String) {
        let items = match value {
            Json::Array(items) => items,
            Json::Object(_) if style == ArrayStyle::Comma => return self.push_joined(name, value),
            Json::Object(_) if style != ArrayStyle::Repeat => {
                return self.push_styled(name, value, style)
            }
            _ => return self.push_encoded_pair(name, text(value, scratch)),
        };
        if items.is_empty() {
            return;
        }
        match style {
            ArrayStyle::Space | ArrayStyle::Pipe | ArrayStyle::Spread | ArrayStyle::DeepObject => {
                self.push_styled(name, value, style)
            }
            ArrayStyle::Repeat => {
                for item in items {
                    self.push_encoded_pair(name, text(item, scratch));
                }
            }
            ArrayStyle::Comma => self.push_joined(name, value),
        }
    }
}

impl Query {
    /// `name=a,b,c`: the items encoded, the commas literal (OpenAPI's `form` style without
    /// explode writes `color=blue,black,brown`, and an object `color=R,100,G,200`).
    fn push_joined(&mut self, encoded_name: &str, value: &Json) {
        self.separator();
        self.target.push_str(encoded_name);
        self.target.push('=');
        style::join(&mut self.target, value, ",", &mut |out, item| {
            url::percent_encode_into(out, item, EncodeSet::QueryComponent)
        });
    }

    /// The pairs of a styled array or object (`style.rs`); `encoded_name` is decoded back,
    /// as styles build names of their own (`filter[status]`).
    fn push_styled(&mut self, encoded_name: &str, value: &Json, style: ArrayStyle) {
        let decoded = url::percent_decode(encoded_name);
        let name = String::from_utf8_lossy(&decoded);
        style::pairs(&name, value, style, &mut |n, v| self.push_pair(n, v));
    }
}

/// The plugin's query values, then an API key in the query.
fn push_plugin_query(
    plugin: &HttpPlugin,
    compiled: &Compiled,
    query: &mut Query,
    context: &CallContext,
) -> Result<(), ToolOutput> {
    let common = &plugin.decl.common;
    if !common.query.is_empty() {
        query.separator();
        query.target.push_str(&common.query);
    }
    for (name, key) in &common.context_query {
        let value = context.get(key).ok_or_else(|| auth::missing_context(key))?;
        query.push_pair(name, value);
    }
    if let Some(auth @ Auth::Query { name, .. }) = compiled.auth(&plugin.decl) {
        let value = auth::value_for(auth, compiled.auth_value(&plugin.decl), context)?;
        query.push_pair(name, &value);
    }
    Ok(())
}

fn context_header_refused(key: &str) -> ToolOutput {
    ToolOutput::error(
        ErrorKind::InvalidParameter,
        format!(
            "the application's call context value {} cannot go in a header (it holds a control character); this is not caused by the arguments",
            quote(key)
        ),
    )
}

/// Static headers and auth (prepared once when both are known), the body's `Content-Type`,
/// then header parameters (which cannot shadow either: checked when the plugin was built).
fn push_headers(
    plugin: &HttpPlugin,
    compiled: &Compiled,
    values: &Values,
    context: &CallContext,
    body: &Option<Body>,
    request: &mut Request,
    scratch: &mut String,
) -> Result<(), ToolOutput> {
    let template = match body {
        Some(Body {
            content_type: None, ..
        }) => &compiled.headers_with_body,
        _ => &compiled.headers,
    };
    if !template.is_empty() {
        *request.headers_mut() = template.clone();
    }
    let common = &plugin.decl.common;
    for (name, key) in &common.context_headers {
        let value = context.get(key).ok_or_else(|| auth::missing_context(key))?;
        request
            .headers_mut()
            .append_sensitive(name, value)
            .map_err(|_| context_header_refused(key))?;
    }
    push_endpoint_headers(&compiled.endpoint, context, request)?;
    if let (Some(auth), None) = (
        compiled.auth(&plugin.decl),
        compiled.auth_value(&plugin.decl),
    ) {
        // An OAuth 2.0 token is added by the tool, once it has one.
        let header = match auth {
            Auth::OAuth2(_) | Auth::AwsSigV4(_) | Auth::Digest { .. } => None,
            _ => auth.header_name(),
        };
        if let Some(name) = header {
            let value = auth::value_for(auth, None, context)?;
            request
                .headers_mut()
                .append_sensitive(name, &value)
                .map_err(|_| context_header_refused(auth_context_key(auth)))?;
        }
    }
    if let Some(Body {
        content_type: Some(content_type),
        ..
    }) = body
    {
        // A declared Content-Type (a static header, say from a curl command) is kept.
        if !request.headers().contains("content-type") {
            // Our own value: it passes the header checks.
            let _ = request.headers_mut().append("Content-Type", content_type);
        }
    }
    let endpoint = &compiled.endpoint;
    for (param, value) in endpoint.params.iter().zip(values) {
        let value = match value {
            Some(value) if param.location == Location::Header => value,
            _ => continue,
        };
        push_header_param(request, param, value, scratch)?;
    }
    push_cookies(endpoint, values, request)
}

/// The endpoint's own static headers, each replacing the plugin's of the same name; a value
/// from the environment or the context is sensitive, as the plugin's are.
fn push_endpoint_headers(
    endpoint: &crate::plugin::declare::model::Endpoint,
    context: &CallContext,
    request: &mut Request,
) -> Result<(), ToolOutput> {
    for (name, value) in endpoint.endpoint_headers() {
        let headers = request.headers_mut();
        // Checked when the plugin was built, so inserting a known value cannot fail.
        match (value.value(), value.context_key()) {
            (Some(text), _) if value.is_external() => {
                let _ = headers.insert_sensitive(name, text);
            }
            (Some(text), _) => {
                let _ = headers.insert(name, text);
            }
            (None, key) => {
                let key = key.unwrap_or("");
                let text = context.get(key).ok_or_else(|| auth::missing_context(key))?;
                headers
                    .insert_sensitive(name, text)
                    .map_err(|_| context_header_refused(key))?;
            }
        }
    }
    Ok(())
}

/// Every cookie parameter given, in one `Cookie` header (RFC 6265 section 5.4: `a=1; b=2`),
/// marked sensitive when a hidden or secret value is in it.
fn push_cookies(
    endpoint: &crate::plugin::declare::model::Endpoint,
    values: &Values,
    request: &mut Request,
) -> Result<(), ToolOutput> {
    let mut cookie = String::new();
    let mut sensitive = false;
    for (param, value) in endpoint.params.iter().zip(values) {
        let value = match value {
            Some(value) if param.location == Location::Cookie => value,
            _ => continue,
        };
        sensitive |= param.is_hidden();
        style::pairs(param.wire_name(), value, param.array_style, &mut |n, v| {
            if !cookie.is_empty() {
                cookie.push_str("; ");
            }
            cookie.push_str(n);
            cookie.push('=');
            style::push_cookie_value(&mut cookie, v);
        });
    }
    if cookie.is_empty() {
        return Ok(());
    }
    let headers = request.headers_mut();
    // Names are checked tokens and values cookie-octets, so appending cannot fail.
    let _ = if sensitive {
        headers.append_sensitive("Cookie", &cookie)
    } else {
        headers.append("Cookie", &cookie)
    };
    Ok(())
}

fn auth_context_key(auth: &Auth) -> &str {
    let value = match auth {
        Auth::Bearer { token } => token,
        Auth::Basic { password, .. } | Auth::Digest { password, .. } => password,
        Auth::Header { value, .. } | Auth::Query { value, .. } => value,
        Auth::OAuth2(_) | Auth::AwsSigV4(_) => return "",
    };
    value.context_key().unwrap_or("")
}

/// A header parameter: arrays repeat the field, or join items with commas. Values of hidden
/// parameters come from the host and are marked sensitive.
fn push_header_param(
    request: &mut Request,
    param: &Param,
    value: &Json,
    scratch: &mut String,
) -> Result<(), ToolOutput> {
    let refused = || {
        if param.is_hidden() {
            context_header_refused(param.context_key())
        } else {
            ToolOutput::error(
                ErrorKind::InvalidParameter,
                format!(
                    "parameter {} goes in a header and cannot hold a line break, NUL or other control character; send it on one line",
                    quote(&param.name)
                ),
            )
        }
    };
    let name = param.wire_name();
    if name.eq_ignore_ascii_case("content-type") {
        // A declared Content-Type parameter replaces the one the body would get.
        request.headers_mut().remove(name);
    }
    let append = |request: &mut Request, text: &str| {
        let headers = request.headers_mut();
        let result = if param.is_hidden() {
            headers.append_sensitive(name, text)
        } else {
            headers.append(name, text)
        };
        result.map_err(|_| refused())
    };
    match (value, param.array_style) {
        (Json::Array(items), ArrayStyle::Repeat) => {
            for item in items {
                append(request, text(item, scratch))?;
            }
            Ok(())
        }
        // RFC 9110 section 5.3: a list field's members joined with commas.
        (Json::Array(_) | Json::Object(_), ArrayStyle::Comma) => {
            let mut joined = String::new();
            style::join(&mut joined, value, ",", &mut |out, item| out.push_str(item));
            append(request, &joined)
        }
        _ => append(request, text(value, scratch)),
    }
}

/// The parameters that go in the body, with their values.
fn body_values<'a>(
    compiled: &'a Compiled,
    values: &'a Values,
) -> impl Iterator<Item = (&'a Param, &'a Json)> + 'a {
    compiled
        .endpoint
        .params
        .iter()
        .zip(values)
        .filter_map(|(param, value)| match (param.location, value) {
            (Location::Body | Location::Form, Some(value)) => Some((param, value)),
            _ => None,
        })
}

/// A body, and its `Content-Type` when the endpoint's header template does not hold it
/// (multipart, whose boundary changes with the content).
struct Body {
    bytes: Vec<u8>,
    content_type: Option<String>,
}

/// The body for the values given: none when no body value was given
/// ([bodies](crate::design::endpoints#bodies)).
fn body(
    plugin: &HttpPlugin,
    compiled: &Compiled,
    values: &Values,
    context: &CallContext,
    scratch: &mut String,
) -> Result<Option<Body>, ToolOutput> {
    let bytes = match compiled.body {
        BodyPlan::None => None,
        BodyPlan::Whole(i) => values
            .get(i)
            .and_then(Option::as_ref)
            .map(|value| value.to_string().into_bytes()),
        BodyPlan::Json => json_body(compiled, values).map(String::into_bytes),
        BodyPlan::Raw(i) => match (compiled.endpoint.params.get(i), values.get(i)) {
            (Some(param), Some(Some(value))) if param.file => Some(
                resolve_file(plugin, param, value, context)?
                    .bytes()
                    .to_vec(),
            ),
            (Some(_), Some(Some(value))) => Some(text(value, scratch).as_bytes().to_vec()),
            _ => None,
        },
        BodyPlan::Form => form_body(compiled, values).map(String::into_bytes),
        BodyPlan::Multipart => {
            let parts = multipart_parts(plugin, compiled, values, context)?;
            if parts.is_empty() {
                return Ok(None);
            }
            let (boundary, bytes) = multipart::encode(&parts);
            return Ok(Some(Body {
                bytes,
                content_type: Some(format!("multipart/form-data; boundary={}", boundary)),
            }));
        }
    };
    Ok(bytes.map(|bytes| Body {
        bytes,
        content_type: None,
    }))
}

/// `{"wire":value,...}` of the values given: never a `null` for an absent optional
/// ([value order](crate::design::endpoints#value-order)).
fn json_body(compiled: &Compiled, values: &Values) -> Option<String> {
    let mut body = String::with_capacity(128);
    let members = values.iter().zip(&compiled.json_keys);
    for (value, key) in members {
        let value = match value {
            Some(value) if !key.is_empty() => value,
            _ => continue,
        };
        body.push(if body.is_empty() { '{' } else { ',' });
        body.push_str(key);
        value.write_to(&mut body);
    }
    if body.is_empty() {
        return None;
    }
    body.push('}');
    Some(body)
}

/// `application/x-www-form-urlencoded` (WHATWG URL section 5.2): arrays repeat the name or
/// join with commas.
fn form_body(compiled: &Compiled, values: &Values) -> Option<String> {
    let mut body = String::new();
    for (param, value) in body_values(compiled, values) {
        style::pairs(param.wire_name(), value, param.array_style, &mut |n, v| {
            url::encode::push_form_pair(&mut body, n, v)
        });
    }
    if body.is_empty() {
        None
    } else {
        Some(body)
    }
}

fn multipart_parts<'a>(
    plugin: &HttpPlugin,
    compiled: &'a Compiled,
    values: &'a Values,
    context: &CallContext,
) -> Result<Vec<Part<'a>>, ToolOutput> {
    let mut parts = Vec::new();
    for (param, value) in body_values(compiled, values) {
        let name = param.wire_name();
        if !param.file {
            style::pairs(name, value, param.array_style, &mut |n, v| {
                parts.push(Part::Text(n.to_string().into(), v.to_string()))
            });
            continue;
        }
        parts.push(Part::File(
            name,
            resolve_file(plugin, param, value, context)?,
        ));
    }
    Ok(parts)
}

/// The bytes of a file parameter, from the host's resolver.
fn resolve_file(
    plugin: &HttpPlugin,
    param: &Param,
    value: &Json,
    context: &CallContext,
) -> Result<multipart::FilePart, ToolOutput> {
    {
        let handle = value.as_str().unwrap_or("");
        let resolver = plugin.runtime.files.as_ref().ok_or_else(|| {
            ToolOutput::error(
                ErrorKind::ToolFailed,
                format!(
                    "parameter {} is a file, and this application installed no file resolver, so files cannot be sent; this is not caused by the arguments",
                    quote(&param.name)
                ),
            )
        })?;
        let file = resolver.resolve(handle, context).map_err(|e| {
            ToolOutput::error(
                ErrorKind::InvalidParameter,
                format!(
                    "parameter {}: file {} could not be resolved: {}",
                    quote(&param.name),
                    quote(handle),
                    e
                ),
            )
        })?;
        Ok(file)
    }
}

/// Query values that are secret: `***` in `Display`, `Debug`, dry runs and logs, and dropped
/// when a redirect leaves the origin.
fn mark_secrets(plugin: &HttpPlugin, compiled: &Compiled, request: &mut Request) {
    for name in &plugin.decl.common.secret_query {
        request.mark_query_secret(name);
    }
    if let Some(Auth::Query { name, .. }) = compiled.auth(&plugin.decl) {
        request.mark_query_secret(name);
    }
    if compiled.secret_query_params {
        let endpoint = &compiled.endpoint;
        for param in &endpoint.params {
            if param.is_hidden() && effective_location(endpoint, param) == Location::Query {
                request.mark_query_secret(param.wire_name());
            }
        }
    }
}
