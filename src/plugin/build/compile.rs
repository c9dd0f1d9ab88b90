//! What every call of an endpoint reuses, prepared once when the plugin is built: the path
//! split into pieces, where each parameter goes, encoded names, header templates, the
//! request options and the spec. Pure: no I/O, no clock, no environment.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::http::{self, AddressPolicy, Headers, RedirectPolicy, RequestOptions, RetryPolicy};
use crate::json::{Json, Map};
use crate::parallel;
use crate::plugin::build::schema;
use crate::plugin::build::validate::{
    at, check_auth, check_base_url, check_body_flags, check_content_type, check_options,
    check_param, check_static_names, check_tool_like_name, err, index, CheckedSchemas,
    EndpointNames, PluginNames,
};
use crate::plugin::call::args;
use crate::plugin::call::auth;
use crate::plugin::call::fields;
/// Where a parameter's value really goes; its home is the declaration module.
pub(crate) use crate::plugin::declare::declaration::effective_location;
use crate::plugin::declare::declaration::Declaration;
use crate::plugin::declare::model::{
    AddressMode, Auth, BodyEncoding, ConfigValue, Endpoint, EndpointAuth, Location, Options,
    ParamType, MAX_OUTPUT_SCHEMA_BYTES,
};
use crate::plugin::error::{quote, Error, ErrorKind};
use crate::tool::small_set::SmallSet;
use crate::tool::{self, ToolSpec};
use crate::url::{self, EncodeSet, Url};

/// The checked declaration and what was computed from it once: what an `HttpPlugin` holds.
pub(crate) struct Checked {
    pub name: String,
    pub description: String,
    pub base_url: Url,
    /// The base URL as written (`to_json` writes it back).
    pub base_url_text: String,
    pub base_url_template: Option<String>,
    pub headers: Vec<(String, ConfigValue)>,
    pub query: Vec<(String, ConfigValue)>,
    pub auth: Option<Auth>,
    pub options: Options,
    pub endpoints: Vec<Arc<Compiled>>,
    /// Schemas the parameters' `$ref`s name (see [`PluginBuilder::defs`]).
    ///
    /// [`PluginBuilder::defs`]: crate::plugin::PluginBuilder::defs
    pub defs: Map,
    pub common: Common,
    /// Variables the plugin file left unresolved: `(endpoint, name)`, `None` for the plugin
    /// level (every endpoint needs those).
    pub deferred: Vec<(Option<String>, String)>,
    /// Which calls need the user's approval, unless an endpoint says otherwise.
    pub confirm: crate::tool::Confirm,
}

/// The plugin-level parts of every request, prepared once.
pub(crate) struct Common {
    /// Static headers whose values are known, checked, secret ones marked sensitive.
    pub headers: Headers,
    /// Static headers filled from the context: `(name, context key)`.
    pub context_headers: Vec<(String, String)>,
    /// Query values known before the call, encoded: `a=1&b=2`.
    pub query: String,
    /// Query values filled from the context: `(name, context key)`.
    pub context_query: Vec<(String, String)>,
    /// Query names whose values are secret (from the environment, the context, or auth).
    pub secret_query: Vec<String>,
    /// The auth header or query value, when it is known before the call.
    pub auth_value: Option<String>,
    /// A static `Host` header naming another host than the base URL's (a virtual host):
    /// sent as the request's `Host`, never among the headers the model could reach.
    pub host: Option<String>,
}

/// One endpoint, checked, with what every call of it reuses.
pub(crate) struct Compiled {
    pub endpoint: Endpoint,
    /// The plugin's `$defs` entries the parameters reach: what a call's values are checked
    /// through.
    pub defs: Map,
    pub spec: ToolSpec,
    pub path: Vec<PathPiece>,
    /// `scheme://authority` and the base path without its trailing `/`.
    pub prefix: String,
    pub body: BodyPlan,
    pub options: RequestOptions,
    pub max_output_bytes: usize,
    pub max_attachment_bytes: usize,
    /// The whole call, long-running operations' polling included.
    pub timeout_call: std::time::Duration,
    /// How much of an event stream is read.
    pub stream_budget: crate::plugin::call::stream::Budget,
    /// The endpoint's `response_fields`, read.
    pub response_fields: Vec<fields::FieldPath>,
    /// Whether a hidden parameter goes to the query: its value is secret there.
    pub secret_query_params: bool,
    /// Per parameter: where its value really goes (body parameters of GET go to the query).
    pub locations: Vec<Location>,
    /// Per parameter: the wire name percent-encoded, for query parameters (else empty).
    pub query_names: Vec<String>,
    /// Per parameter: `"wire_name":`, for the members of a JSON body (else empty).
    pub json_keys: Vec<String>,
    /// The plugin's static headers and a known auth header, prepared once.
    pub headers: Headers,
    /// The same, with the `Content-Type` of this endpoint's JSON or urlencoded body.
    pub headers_with_body: Headers,
    /// The header or query value of the endpoint's own auth, when it is known before the
    /// call (the plugin's is in [`Common`]).
    pub own_auth_value: Option<String>,
    /// The variable the endpoint's base URL reads and had no value: every call is refused.
    pub base_unset: Option<String>,
    /// The Digest challenge this endpoint answers, when its auth or its base URL is its own
    /// (another realm, another server); else it shares the plugin's.
    pub digest: Option<Arc<crate::plugin::call::digest::DigestSession>>,
}

impl Compiled {
    /// The auth a call sends: the endpoint's own, else the plugin's.
    pub fn auth<'a>(&'a self, plugin: &'a Checked) -> Option<&'a Auth> {
        self.endpoint.auth_or(plugin.auth.as_ref())
    }

    /// The header or query value of [`auth`](Compiled::auth), when known before the call.
    pub fn auth_value<'a>(&'a self, plugin: &'a Checked) -> Option<&'a str> {
        match &self.endpoint.auth {
            None => plugin.common.auth_value.as_deref(),
            Some(_) => self.own_auth_value.as_deref(),
        }
    }
}

/// A piece of a path template.
pub(crate) enum PathPiece {
    /// Text as written.
    Literal(String),
    /// The value of the parameter at this index, as one segment.
    Param(usize),
}

/// Where body parameters go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyPlan {
    /// No body: no body parameters, or a method whose body parameters go to the query.
    None,
    /// A JSON object of the body parameters.
    Json,
    /// `application/x-www-form-urlencoded`.
    Form,
    /// `multipart/form-data`.
    Multipart,
    /// The value of the parameter at this index is the whole JSON body.
    Whole(usize),
    /// The value of the parameter at this index is the whole body, sent as it is (text, or a
    /// file's bytes) with the endpoint's `content_type`.
    Raw(usize),
}

/// Checks `b` and prepares what every call reuses, compiling the endpoints on up to
/// `threads` threads, the calling one included ([`compile_endpoints`]): the plugin, and the
/// error when there is one, are the same for every count.
pub(crate) fn build(b: Declaration, threads: usize) -> Result<Checked, Error> {
    build_with(b, threads, false).map(|(checked, _)| checked)
}

/// [`build`], leaving out each endpoint that does not compile instead of failing: the
/// plugin of the others, and each endpoint left out as its index in `b`'s endpoints and its
/// error. Fails when a plugin-level part is wrong, or when no endpoint is left (with the
/// first endpoint's error).
pub(crate) fn build_skipping(
    b: Declaration,
    threads: usize,
) -> Result<(Checked, Vec<(usize, Error)>), Error> {
    let (checked, skipped) = build_with(b, threads, true)?;
    if checked.endpoints.is_empty() && !skipped.is_empty() {
        let mut skipped = skipped;
        return Err(skipped.swap_remove(0).1);
    }
    Ok((checked, skipped))
}

fn build_with(
    mut b: Declaration,
    threads: usize,
    skip: bool,
) -> Result<(Checked, Vec<(usize, Error)>), Error> {
    check_tool_like_name(&b.name, "name", "plugin")?;
    let base_url = check_base_url(&b.base_url)?;
    let names = check_static_names(&b.headers, &b.query)?;
    if let Some(auth) = &b.auth {
        check_auth(auth, "auth", &b.headers, &b.query)?;
    }
    check_options(&b.options, "")?;
    if b.endpoints.is_empty() {
        return Err(err(
            ErrorKind::MissingField,
            "endpoints",
            "a plugin needs at least one endpoint",
        ));
    }
    let common = common(&b);
    let prefix = base_url.as_str().trim_end_matches('/').to_string();
    // Each endpoint moves into its compiled form rather than being copied there: the
    // declaration and a copy of every endpoint (their descriptions, parameters and enums)
    // were both alive until the last one was compiled, the top of an import's heap.
    let declared = std::mem::take(&mut b.endpoints);
    let (declared, duplicate) = until_duplicate(declared);
    let defs = schema::DefsGraph::new(&b.defs);
    let plugin = PluginParts {
        declaration: &b,
        names: &names,
        common: &common,
        base_url: &base_url,
        prefix: &prefix,
        defs: &defs,
    };
    let (endpoints, skipped) = compile_endpoints(&plugin, declared, threads, skip)?;
    // It borrows the declaration's `$defs`, which the plugin takes next.
    drop(defs);
    if let Some(duplicate) = duplicate {
        return Err(duplicate);
    }
    let checked = Checked {
        name: b.name,
        description: b.description,
        base_url,
        base_url_text: b.base_url,
        base_url_template: b.base_url_template,
        headers: b.headers,
        query: b.query,
        auth: b.auth,
        options: b.options,
        endpoints,
        defs: b.defs,
        common,
        deferred: b.deferred,
        confirm: b.confirm,
    };
    Ok((checked, skipped))
}

/// The endpoints before the first whose tool name an earlier one has, and the error that
/// one is. An endpoint's name is checked before it is compiled, so the build's error is the
/// first compile error among the endpoints kept, else this one.
fn until_duplicate(mut declared: Vec<Endpoint>) -> (Vec<Endpoint>, Option<Error>) {
    // Tool name -> the first endpoint with it: duplicates found in constant time each.
    let mut tool_names: HashMap<&str, usize> = HashMap::with_capacity(declared.len());
    let mut duplicate = None;
    for (i, endpoint) in declared.iter().enumerate() {
        if let Some(&first) = tool_names.get(endpoint.name.as_str()) {
            let error = err(
                ErrorKind::DuplicateName,
                at(&index("endpoints", i), "name"),
                format!(
                    "tool name {} is already used by endpoints[{}]; tool names must be unique",
                    quote(&endpoint.name),
                    first
                ),
            );
            duplicate = Some((i, error));
            break;
        }
        tool_names.insert(&endpoint.name, i);
    }
    match duplicate {
        Some((i, error)) => {
            declared.truncate(i);
            (declared, Some(error))
        }
        None => (declared, None),
    }
}

/// The plugin-level parts every endpoint's compile reads, checked. Every thread that
/// compiles endpoints reads them at once, so each is `Sync` (an `Auth` holds its signer as
/// a `Signer`, which is `Send + Sync`).
#[derive(Clone, Copy)]
struct PluginParts<'a> {
    declaration: &'a Declaration,
    names: &'a PluginNames,
    common: &'a Common,
    base_url: &'a Url,
    /// `base_url` without its trailing `/`.
    prefix: &'a str,
    /// The plugin's `$defs`, as a graph.
    defs: &'a schema::DefsGraph<'a>,
}

/// What the endpoints compiled in a row share, made once rather than for each: each only
/// saves work that gives the same result, so endpoints compiled with caches of their own
/// (on another thread) come out the same.
#[derive(Default)]
struct Caches {
    /// Schemas the endpoints share (one OpenAPI component in many tools) made compact.
    memo: tool::CompactMemo,
    /// Scratch space for the `$defs` entries a tool reaches (see [`schema::DefsGraph`]).
    reached: Vec<bool>,
    /// The sizes of output schemas the endpoints share, by their allocation (the endpoints
    /// hold them, so an allocation is never reused while this lives).
    output_sizes: HashMap<usize, usize>,
    /// Parameter schemas the endpoints share, checked for depth.
    schemas: CheckedSchemas,
    /// Objects the tool schemas share (the `$defs` entries they reach), checked for depth.
    depths: tool::Depths,
}

/// The fewest endpoints a thread is started for. Compiling an endpoint written by hand takes
/// 40 to 55 thousand instructions (20 to 30 µs), an imported operation 240 to 340 thousand
/// (Spotify's and Discord's documents), and starting and joining a thread about 50 µs; a
/// thread's own caches also redo what shared schemas saved (1 to 8% more compile work on
/// the real documents with two threads). With 32 endpoints a thread takes over 0.6 ms of
/// work or more, and costs under a tenth of it; a plugin needs 64 to use two threads.
const MIN_ENDPOINTS_PER_THREAD: usize = 32;

/// Compiles `declared` (the plugin's endpoints from the first) on up to `threads` threads,
/// each a contiguous chunk with its own [`Caches`], in endpoint order; the calling thread
/// compiles the first chunk, and a chunk whose thread cannot be started. The error is the
/// first endpoint's that fails, in endpoint order, as with one thread.
///
/// What crosses threads: the [`PluginParts`], read by all (`Sync`); each chunk's
/// `Endpoint`s, moved to its thread, and what it makes, `Arc<Compiled>` or an `Error`,
/// moved back (`Send`; `Compiled` is `Sync` too, being in an `Arc`). All are plain data
/// and `Arc`s ([`Json`] shares objects through one); the compiler checks it.
fn compile_endpoints(
    plugin: &PluginParts,
    declared: Vec<Endpoint>,
    threads: usize,
    skip: bool,
) -> Result<CompiledSome, Error> {
    let count = declared.len();
    let threads = threads_for(count, threads);
    let failed = AtomicUsize::new(usize::MAX);
    let failed = if skip { None } else { Some(&failed) };
    if threads == 1 {
        return compile_chunk(plugin, declared, 0, failed);
    }
    let (first, others) = chunks(declared, threads);
    let (first, others) = parallel::on_threads(
        || compile_chunk(plugin, first, 0, failed),
        others,
        |(start, chunk)| compile_chunk(plugin, chunk, start, failed),
    );
    let results = std::iter::once(first).chain(others);
    let mut endpoints = Vec::with_capacity(count);
    let mut skipped = Vec::new();
    for result in results {
        let (compiled, refused) = result?;
        endpoints.extend(compiled);
        skipped.extend(refused);
    }
    Ok((endpoints, skipped))
}

/// Endpoints compiled, and those left out (their index and error) when skipping.
type CompiledSome = (Vec<Arc<Compiled>>, Vec<(usize, Error)>);

/// The threads `endpoints` are compiled on when `threads` may be: as many as give each
/// [`MIN_ENDPOINTS_PER_THREAD`], at least one.
fn threads_for(endpoints: usize, threads: usize) -> usize {
    threads.min(endpoints / MIN_ENDPOINTS_PER_THREAD).max(1)
}

/// `declared` cut into `count` contiguous chunks of as near the same length as can be: the
/// first, and the others in order, each with the index of its first endpoint.
fn chunks(
    mut declared: Vec<Endpoint>,
    count: usize,
) -> (Vec<Endpoint>, Vec<(usize, Vec<Endpoint>)>) {
    let total = declared.len();
    let mut others = Vec::with_capacity(count.saturating_sub(1));
    for k in (1..count).rev() {
        let start = total * k / count;
        let tail = declared.split_off(start.min(declared.len()));
        others.push((start, tail));
    }
    others.reverse();
    (declared, others)
}

/// Compiles `chunk`, the endpoints from index `start` on, in order, until one fails: its
/// error is the chunk's. `failed` is the first index known to fail, for every chunk: once
/// an endpoint before this chunk has failed, the chunk stops with what it made, since the
/// earlier chunk's error is the build's and this result is never read. Without `failed`
/// (skipping), an endpoint that fails is left out, with its index and error, and the chunk
/// goes on.
fn compile_chunk(
    plugin: &PluginParts,
    chunk: Vec<Endpoint>,
    start: usize,
    failed: Option<&AtomicUsize>,
) -> Result<CompiledSome, Error> {
    let mut caches = Caches::default();
    let mut compiled = Vec::with_capacity(chunk.len());
    let mut skipped = Vec::new();
    for (i, endpoint) in (start..).zip(chunk) {
        if failed.map_or(false, |f| f.load(Ordering::Relaxed) < start) {
            break;
        }
        match compile(plugin, endpoint, &index("endpoints", i), &mut caches) {
            Ok(endpoint) => compiled.push(Arc::new(endpoint)),
            Err(e) => match failed {
                Some(failed) => {
                    failed.fetch_min(i, Ordering::Relaxed);
                    return Err(e);
                }
                None => skipped.push((i, e)),
            },
        }
    }
    Ok((compiled, skipped))
}

/// The plugin-level request parts every call reuses.
fn common(b: &Declaration) -> Common {
    let mut common = Common {
        headers: Headers::new(),
        context_headers: Vec::new(),
        query: String::new(),
        context_query: Vec::new(),
        secret_query: Vec::new(),
        auth_value: None,
        host: None,
    };
    for (name, value) in &b.headers {
        if name.eq_ignore_ascii_case("host") {
            // Checked above: a literal `uri-host [":" port]`.
            common.host = value.value().map(str::to_string);
            continue;
        }
        match value.value() {
            // Checked above, so appending cannot fail.
            Some(text) if value.is_external() => {
                let _ = common.headers.append_sensitive(name, text);
            }
            Some(text) => {
                let _ = common.headers.append(name, text);
            }
            None => common
                .context_headers
                .push((name.clone(), value.context_key().unwrap_or("").to_string())),
        }
    }
    for (name, value) in &b.query {
        // A literal value under a credential's name (`api_key`) is as secret as one from
        // the environment; headers get the same rule from `Headers` itself.
        if value.is_external() || http::is_credential_name(name) {
            common.secret_query.push(name.clone());
        }
        match value.value() {
            Some(text) => {
                if !common.query.is_empty() {
                    common.query.push('&');
                }
                url::percent_encode_into(&mut common.query, name, EncodeSet::QueryComponent);
                common.query.push('=');
                url::percent_encode_into(&mut common.query, text, EncodeSet::QueryComponent);
            }
            None => common
                .context_query
                .push((name.clone(), value.context_key().unwrap_or("").to_string())),
        }
    }
    if let Some(auth) = &b.auth {
        if let Auth::Query { name, .. } = auth {
            common.secret_query.push(name.clone());
        }
        common.auth_value = auth::known_value(auth);
    }
    common
}

/// Same origin only, unless the plugin allows more hosts
/// ([redirects](crate::design::endpoints#redirects)).
fn redirect_policy(options: &Options) -> RedirectPolicy {
    let policy = match &options.redirect_hosts {
        Some(hosts) if !hosts.is_empty() => RedirectPolicy::redirect_hosts(hosts),
        _ => RedirectPolicy::same_origin(),
    };
    match options.max_redirects {
        Some(0) => RedirectPolicy::none(),
        Some(max) => policy.max_redirects(max),
        None => policy,
    }
}

/// The one place a plugin's options become HTTP settings: every setting travels with the
/// request, so any transport sees it, and the plugin's own client keeps the defaults (a
/// request's settings replace the client's). Overload retries are for idempotent methods
/// only: a plugin's POST is never retried.
///
/// The address policy travels only when it is strict: a request's policy replaces the
/// client's, so sending `allow_all` would undo the strict policy of a client the application
/// hands over with `with_client`. A plugin can tighten the client's policy, never loosen it.
fn request_options(options: &Options) -> RequestOptions {
    let mut request = RequestOptions::new().redirect(redirect_policy(options));
    if options.address_policy == Some(AddressMode::Strict) {
        request = request.address_policy(AddressPolicy::strict());
    }
    if let Some(t) = options.timeout_connect {
        request = request.timeout_connect(t);
    }
    if let Some(t) = options.timeout_read {
        request = request.timeout_read(t);
    }
    if let Some(t) = options.timeout_write {
        request = request.timeout_write(t);
    }
    if let Some(t) = options.timeout_call {
        request = request.timeout_call(t);
    }
    if let Some(bytes) = options.max_response_bytes {
        request = request.max_response_bytes(bytes);
    }
    if let Some(retries) = options.overload_retries {
        request = request.retry(RetryPolicy::overload_retries(retries).allow_non_idempotent(false));
    }
    request
}

fn compile(
    plugin: &PluginParts,
    owned: Endpoint,
    path: &str,
    caches: &mut Caches,
) -> Result<Compiled, Error> {
    let PluginParts {
        declaration: b,
        names,
        common,
        base_url,
        prefix,
        defs: _,
    } = *plugin;
    let endpoint = &owned;
    check_tool_like_name(&endpoint.name, &at(path, "name"), "tool")?;
    check_options(&endpoint.options, path)?;
    check_content_type(endpoint, path)?;
    check_body_flags(endpoint, path)?;
    if !endpoint.endpoint_headers.is_empty() {
        crate::plugin::build::validate::check_endpoint_headers(endpoint, b.auth.as_ref(), path)?;
    }
    if let Some(pagination) = &endpoint.pagination {
        let settable = |name: &str| {
            endpoint
                .params
                .iter()
                .any(|p| p.name() == name && !p.is_hidden())
        };
        pagination.check(&settable).map_err(|(key, why)| {
            err(
                ErrorKind::InvalidField,
                at(&at(path, "pagination"), &key),
                why,
            )
        })?;
    }
    if let Some(pointer) = &endpoint.response_pointer {
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return Err(err(
                ErrorKind::InvalidField,
                at(path, "response_pointer"),
                "a json pointer is empty or starts with '/' (RFC 6901), such as /data/items",
            ));
        }
    }
    let response_fields = endpoint
        .response_fields
        .iter()
        .enumerate()
        .map(|(j, text)| {
            fields::parse_path(text).map_err(|e| {
                err(
                    ErrorKind::InvalidField,
                    index(&at(path, "response_fields"), j),
                    e,
                )
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    if endpoint.fields_argument
        && endpoint
            .params
            .iter()
            .any(|p| p.name == fields::FIELDS_ARGUMENT)
    {
        return Err(err(
            ErrorKind::InvalidField,
            at(path, "fields_argument"),
            "a parameter is already named 'fields'; rename it (its wire_name can stay) to let the model choose the response's fields",
        ));
    }
    let mut seen = EndpointNames::new();
    let params_at = at(path, "params");
    for (j, param) in endpoint.params.iter().enumerate() {
        let field = index(&params_at, j);
        check_param(
            b,
            names,
            endpoint,
            param,
            &mut seen,
            &mut caches.schemas,
            &field,
        )?;
    }
    if let Some(EndpointAuth::Auth(auth)) = endpoint.auth.as_deref() {
        check_auth(auth, &at(path, "auth"), &b.headers, &b.query)?;
    }
    // An endpoint's own base URL (OpenAPI operation `servers`, a collection's `{{authUrl}}`)
    // replaces the plugin's. One whose variable had no value is checked when it has one: its
    // calls are refused until then, and its path is checked under the plugin's base.
    let own_base;
    let (base_url, prefix) = match &endpoint.base_url {
        Some(_) if endpoint.base_url_unset.is_some() => (base_url, prefix),
        Some(text) => {
            let url = check_base_url(text)
                .map_err(|e| err(e.kind(), at(path, "base_url"), e.message().to_string()))?;
            let own_prefix = url.as_str().trim_end_matches('/').to_string();
            own_base = (url, own_prefix);
            (&own_base.0, own_base.1.as_str())
        }
        None => (base_url, prefix),
    };
    let pieces = parse_path(endpoint, path, base_url, prefix)?;
    let body = body_plan(endpoint);
    let options = endpoint.options.or(&b.options);
    let defs = plugin.defs.reached(endpoint, &mut caches.reached);
    let spec = tool_spec(endpoint, &defs, path, caches)?;
    // The model reads the compact schema unless the full one is asked for; the checks
    // above ran on the schema as declared.
    let spec = match options.full_schemas {
        Some(true) => spec,
        _ => tool::compact_spec_with(
            &spec,
            options
                .max_description_bytes
                .unwrap_or(tool::DEFAULT_MAX_DESCRIPTION_BYTES),
            &mut caches.memo,
            &mut caches.depths,
        )
        .map_err(|e| err(ErrorKind::InvalidField, at(path, "params"), e.to_string()))?,
    };
    let secret_query_params = endpoint
        .params
        .iter()
        .any(|p| p.is_hidden() && effective_location(endpoint, p) == Location::Query);
    let locations: Vec<Location> = endpoint
        .params
        .iter()
        .map(|p| effective_location(endpoint, p))
        .collect();
    let query_names = endpoint
        .params
        .iter()
        .zip(&locations)
        .map(|(p, &l)| match l {
            Location::Query => url::percent_encode(p.wire_name(), EncodeSet::QueryComponent),
            _ => String::new(),
        })
        .collect();
    let json_keys = endpoint
        .params
        .iter()
        .map(|p| match (p.location, body) {
            (Location::Body, BodyPlan::Json) => {
                let mut key = String::new();
                crate::json::write_str(&mut key, p.wire_name());
                key.push(':');
                key
            }
            _ => String::new(),
        })
        .collect();
    let own_auth_value = match endpoint.auth.as_deref() {
        Some(EndpointAuth::Auth(auth)) => auth::known_value(auth),
        _ => None,
    };
    let (auth, auth_value) = match &endpoint.auth {
        None => (b.auth.as_ref(), common.auth_value.as_deref()),
        Some(_) => (endpoint.auth_or(None), own_auth_value.as_deref()),
    };
    let (headers, headers_with_body) = header_templates(
        common,
        auth,
        auth_value,
        body,
        endpoint.content_type.as_deref(),
    );
    let own_digest = matches!(auth, Some(Auth::Digest { .. }))
        && (endpoint.auth.is_some() || endpoint.base_url.is_some());
    let base_unset = endpoint.base_url_unset.clone();
    Ok(Compiled {
        headers,
        headers_with_body,
        endpoint: with_plain_integers(owned),
        defs,
        spec,
        path: pieces,
        prefix: prefix.to_string(),
        body,
        options: request_options(&options),
        max_output_bytes: options
            .max_output_bytes
            .unwrap_or(tool::DEFAULT_MAX_OUTPUT_BYTES),
        max_attachment_bytes: options
            .max_attachment_bytes
            .unwrap_or(crate::plugin::DEFAULT_MAX_ATTACHMENT_BYTES),
        stream_budget: crate::plugin::call::stream::Budget::of(&options),
        timeout_call: options
            .timeout_call
            .unwrap_or(crate::http::DEFAULT_TIMEOUT_CALL),
        response_fields,
        secret_query_params,
        locations,
        query_names,
        json_keys,
        own_auth_value,
        base_unset,
        digest: if own_digest {
            Some(Arc::default())
        } else {
            None
        },
    })
}

/// The endpoint with the defaults and enum values of integer parameters as plain integers
/// (`3.0` is sent as `3`); the checks above accepted only values this cannot fail for.
fn with_plain_integers(mut endpoint: Endpoint) -> Endpoint {
    for param in &mut endpoint.params {
        if param.ty != ParamType::Integer {
            continue;
        }
        let ty = param.ty.clone();
        let plain = |value: &mut Json| {
            if let Ok(integer) = args::coerce(value.clone(), &ty) {
                *value = integer;
            }
        };
        if let Some(default) = &mut param.default {
            plain(default);
        }
        param.enum_values.iter_mut().for_each(plain);
    }
    endpoint
}

/// Static headers, then a known auth header (sensitive), then the body's `Content-Type`
/// unless a static header declares one.
fn header_templates(
    common: &Common,
    auth: Option<&Auth>,
    auth_value: Option<&str>,
    body: BodyPlan,
    content_type: Option<&str>,
) -> (Headers, Headers) {
    let mut headers = common.headers.clone();
    if let (Some(auth), Some(value)) = (auth, auth_value) {
        if let Some(name) = auth.header_name() {
            // Checked with the auth, so appending cannot fail.
            let _ = headers.append_sensitive(name, value);
        }
    }
    let mut with_body = headers.clone();
    let content_type = match body {
        // A JSON media type of the endpoint's own (`application/merge-patch+json`) is kept.
        BodyPlan::Json | BodyPlan::Whole(_) => Some(content_type.unwrap_or("application/json")),
        BodyPlan::Form => Some("application/x-www-form-urlencoded"),
        BodyPlan::Raw(_) => Some(content_type.unwrap_or("application/octet-stream")),
        BodyPlan::None | BodyPlan::Multipart => None,
    };
    if let Some(content_type) = content_type {
        if !with_body.contains("content-type") {
            let _ = with_body.append("Content-Type", content_type);
        }
    }
    (headers, with_body)
}

fn tool_spec(
    endpoint: &Endpoint,
    defs: &Map,
    path: &str,
    caches: &mut Caches,
) -> Result<ToolSpec, Error> {
    let description = if endpoint.description.is_empty() {
        format!("{} {}", endpoint.method, endpoint.path)
    } else {
        endpoint.description.clone()
    };
    let mut spec = ToolSpec::new_with(
        endpoint.name.clone(),
        description,
        schema::endpoint_schema(endpoint, defs),
        &mut caches.depths,
    )
    .map_err(|e| err(ErrorKind::InvalidField, at(path, "params"), e.to_string()))?
    .with_annotations(endpoint.annotations());
    if let Some(title) = &endpoint.title {
        spec = spec.with_title(title.clone());
    }
    if let Some(schema) = &endpoint.output_schema {
        let field = at(path, "output_schema");
        let shared = schema
            .as_object()
            .filter(|map| map.is_shared())
            .and_then(Map::shared_id);
        let size = match shared {
            Some(id) => *caches
                .output_sizes
                .entry(id)
                .or_insert_with(|| schema.compact_len()),
            None => schema.compact_len(),
        };
        if size > MAX_OUTPUT_SCHEMA_BYTES {
            return Err(err(
                ErrorKind::InvalidField,
                field,
                format!(
                    "the output schema is {} bytes, over the limit of {}",
                    size, MAX_OUTPUT_SCHEMA_BYTES
                ),
            ));
        }
        // What the tool advertises admits every answer the endpoint gives: an empty one,
        // and the parts a `fields` argument asks for.
        let advertised = schema::advertised_output_schema(endpoint);
        spec = spec
            .with_output_schema(advertised.unwrap_or_else(|| schema.clone()))
            .map_err(|e| err(ErrorKind::InvalidField, field, e.message().to_string()))?;
    }
    Ok(spec)
}

/// Splits the path template into literal pieces and placeholders, and checks both ways that
/// placeholders and path parameters match ([path values](crate::design::endpoints#path-values)).
fn parse_path(
    endpoint: &Endpoint,
    path: &str,
    base_url: &Url,
    prefix: &str,
) -> Result<Vec<PathPiece>, Error> {
    let field = at(path, "path");
    let template = &endpoint.path;
    if !template.starts_with('/') {
        return Err(err(
            ErrorKind::InvalidPath,
            field,
            "a path starts with '/', such as /v1/users/{id}",
        ));
    }
    // `${NAME}` is read in base_url, headers, query, auth and hidden defaults only: a path
    // is fixed text and placeholders, so say so rather than ask for a parameter `NAME`.
    if template.contains("${") {
        return Err(err(
            ErrorKind::InvalidPath,
            field,
            "variables (${NAME}) are not expanded in a path; put the value in base_url (which reads ${NAME}), or declare a path parameter {name} with \"hidden\": true and \"default\": \"${NAME}\"",
        ));
    }
    let mut pieces = Vec::new();
    let mut names: SmallSet<&str> = SmallSet::new();
    // Wire name -> the first path parameter with it, so each placeholder is found in
    // constant time.
    let mut path_params: HashMap<&str, usize> = HashMap::new();
    for (i, param) in endpoint.params.iter().enumerate() {
        if param.location == Location::Path {
            path_params.entry(param.wire_name()).or_insert(i);
        }
    }
    let mut rest = template.as_str();
    let mut sample = String::from(prefix);
    while !rest.is_empty() {
        let open = rest.find('{');
        let close = rest.find('}');
        match (open, close) {
            (None, None) => {
                pieces.push(PathPiece::Literal(rest.to_string()));
                sample.push_str(rest);
                rest = "";
            }
            (Some(o), Some(c)) if o < c => {
                if o > 0 {
                    pieces.push(PathPiece::Literal(rest[..o].to_string()));
                    sample.push_str(&rest[..o]);
                }
                let name = &rest[o + 1..c];
                if name.is_empty() || name.contains('{') {
                    return Err(err(
                        ErrorKind::InvalidPath,
                        field,
                        "a placeholder is a name between braces, such as {id}",
                    ));
                }
                // A placeholder may appear twice (Azure's `/System.{location}/.../{location}`):
                // the one value fills both.
                let i = path_params.get(name).copied().ok_or_else(|| {
                        err(
                            ErrorKind::InvalidPath,
                            field.clone(),
                            format!(
                                "placeholder {{{}}} has no path parameter; declare one with \"in\": \"path\"",
                                name
                            ),
                        )
                    })?;
                if !names.contains(name) {
                    names.insert(name);
                }
                pieces.push(PathPiece::Param(i));
                sample.push('x');
                rest = &rest[c + 1..];
            }
            _ => {
                return Err(err(
                    ErrorKind::InvalidPath,
                    field,
                    "unbalanced braces: a placeholder is a name between braces, such as {id}",
                ))
            }
        }
    }
    check_sample_path(&sample, base_url, &field)?;
    for (j, param) in endpoint.params.iter().enumerate() {
        if param.location == Location::Path && !names.contains(param.wire_name()) {
            return Err(err(
                ErrorKind::InvalidPath,
                index(&at(path, "params"), j),
                format!(
                    "path parameter {} has no {{{}}} placeholder in the path",
                    quote(&param.name),
                    param.wire_name()
                ),
            ));
        }
    }
    Ok(pieces)
}

/// The literal parts of a path must survive URL parsing unchanged: no characters that need
/// encoding, no dot segments, no query or fragment.
fn check_sample_path(sample: &str, base_url: &Url, field: &str) -> Result<(), Error> {
    let invalid = || {
        err(
            ErrorKind::InvalidPath,
            field,
            "the path must be a plain url path: no '?', '#', spaces, '.' or '..' segments, or characters that need percent-encoding",
        )
    };
    if sample.contains('?') || sample.contains('#') {
        return Err(invalid());
    }
    let parsed = Url::parse(sample).map_err(|_| invalid())?;
    if parsed.as_str() != sample && parsed.as_str() != format!("{}/", sample) {
        return Err(invalid());
    }
    if !parsed.same_origin(base_url) {
        return Err(invalid());
    }
    Ok(())
}

fn body_plan(endpoint: &Endpoint) -> BodyPlan {
    if endpoint.body_in_query() {
        return BodyPlan::None;
    }
    let mut body_params = endpoint
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.location, Location::Body | Location::Form));
    let first = match body_params.next() {
        Some(first) => first,
        None => return BodyPlan::None,
    };
    if endpoint.body_encoding() == BodyEncoding::Raw {
        return BodyPlan::Raw(first.0);
    }
    if first.1.whole_body {
        return BodyPlan::Whole(first.0);
    }
    match endpoint.body_encoding() {
        BodyEncoding::Json | BodyEncoding::Raw => BodyPlan::Json,
        BodyEncoding::Form => BodyPlan::Form,
        BodyEncoding::Multipart => BodyPlan::Multipart,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::HttpPlugin;

    #[test]
    fn threads_are_started_for_enough_endpoints_each() {
        for (endpoints, threads, used) in [
            (1, 2, 1),
            (31, 2, 1),
            (63, 2, 1),
            (64, 2, 2),
            (64, 3, 2),
            (95, 3, 2),
            (96, 3, 3),
            (10_000, 2, 2),
            (10_000, 1, 1),
            (10_000, 0, 1),
        ] {
            assert_eq!(
                threads_for(endpoints, threads),
                used,
                "{} {}",
                endpoints,
                threads
            );
        }
    }

    /// `count` endpoints `e0`, `e1`, ..., the one at `bad_path` with a path that does not
    /// start with `/` and the one at `duplicate` named as the first.
    fn endpoints(count: usize, bad_path: &[usize], duplicate: Option<usize>) -> Vec<Endpoint> {
        (0..count)
            .map(|i| {
                let name = match duplicate {
                    Some(d) if d == i => String::from("e0"),
                    _ => format!("e{}", i),
                };
                let path = if bad_path.contains(&i) {
                    format!("items/{}", i)
                } else {
                    format!("/items/{}/{{id}}", i)
                };
                Endpoint::get(name, path)
                    .param(crate::plugin::Param::path("id"))
                    .build()
            })
            .collect()
    }

    #[test]
    fn chunks_are_contiguous_in_order_and_even() {
        let (first, others) = chunks(endpoints(10, &[], None), 3);
        let starts: Vec<usize> = others.iter().map(|(start, _)| *start).collect();
        assert_eq!(starts, [3, 6]);
        let names_of = |chunk: Vec<Endpoint>| chunk.into_iter().map(|e| e.name).collect();
        let mut names: Vec<Vec<String>> = vec![names_of(first)];
        names.extend(others.into_iter().map(|(_, chunk)| names_of(chunk)));
        assert_eq!(
            names,
            [
                vec!["e0", "e1", "e2"],
                vec!["e3", "e4", "e5"],
                vec!["e6", "e7", "e8", "e9"]
            ]
        );
    }

    /// The plugin of `endpoints` built on `threads` threads: its file, or its error.
    fn built(endpoints: Vec<Endpoint>, threads: usize) -> Result<Json, Error> {
        let mut builder = HttpPlugin::builder("p", "https://api.example.com");
        for endpoint in endpoints {
            builder = builder.endpoint(endpoint);
        }
        builder.build_on(threads).map(|plugin| plugin.to_json())
    }

    /// The first failing endpoint's error in endpoint order, a duplicate name counted before
    /// its endpoint is compiled, whichever chunk finds its error first.
    #[test]
    fn the_error_is_the_first_endpoints_on_every_thread_count() {
        let cases: [(&[usize], Option<usize>, &str); 6] = [
            (&[], Some(150), "endpoints[150].name"),
            (&[170], Some(150), "endpoints[150].name"),
            (&[150], Some(150), "endpoints[150].name"),
            (&[100], Some(150), "endpoints[100].path"),
            (&[20, 180], None, "endpoints[20].path"),
            (&[199], None, "endpoints[199].path"),
        ];
        for (bad_path, duplicate, expected) in cases {
            let one = built(endpoints(200, bad_path, duplicate), 1).unwrap_err();
            assert_eq!(one.path(), expected);
            for threads in [2, 3, 4, 7] {
                let more = built(endpoints(200, bad_path, duplicate), threads).unwrap_err();
                assert!(more == one, "{} threads: {} against {}", threads, more, one);
            }
        }
    }

    #[test]
    fn the_plugin_is_the_same_on_every_thread_count() {
        let one = built(endpoints(200, &[], None), 1).unwrap();
        for threads in [2, 3, 4, 7] {
            assert!(built(endpoints(200, &[], None), threads).unwrap() == one);
        }
    }

    #[test]
    fn plugin_options_never_loosen_the_clients_address_policy() {
        // Regression: every request carried `allow_all`, which replaced the strict policy of
        // a client given with `with_client`.
        let same_origin = RequestOptions::new().redirect(RedirectPolicy::same_origin());
        assert_eq!(request_options(&Options::new()), same_origin);
        let allow_all = Options::new().address_policy(AddressMode::AllowAll);
        assert_eq!(request_options(&allow_all), same_origin);
        let strict = Options::new().address_policy(AddressMode::Strict);
        assert_eq!(
            request_options(&strict),
            same_origin.address_policy(AddressPolicy::strict())
        );
    }

    #[test]
    fn redirect_policy_from_options() {
        assert_eq!(
            redirect_policy(&Options::new()),
            RedirectPolicy::same_origin()
        );
        assert_eq!(
            redirect_policy(&Options::new().max_redirects(0)),
            RedirectPolicy::none()
        );
        assert_eq!(
            redirect_policy(
                &Options::new()
                    .redirect_hosts(["cdn.example.com"])
                    .max_redirects(2)
            ),
            RedirectPolicy::redirect_hosts(["cdn.example.com"]).max_redirects(2)
        );
    }
}
