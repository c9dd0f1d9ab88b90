//! A HAR recording into a plugin: which entries are API calls, endpoints by method and path
//! template, parameters inferred across the calls of each. The rules are in the
//! [module docs](super).

use std::collections::{HashMap, HashSet};

use super::error::{Error, Reason};
use super::options::{Import, ImportOptions, DEFAULT_MAX_ENTRIES};
use crate::curl::infer;
use crate::http::{base64_decode, is_credential_name, Method};
use crate::json::{self, Json, Map};
use crate::plugin::naming::Names;
use crate::plugin::{
    Auth, BodyEncoding, ConfigValue, Endpoint, EndpointAuth, HttpPlugin, Location, ParamType,
};
use crate::postman::collect::{
    encode_segment, fits, fixed_param, json_type, shape, text_type, Params, Secrets,
};
use crate::tool;
use crate::url::Url;

/// Stands for a path segment that is a parameter, in a template.
const PARAM: &str = "\u{0}";

/// Resource types (Chrome's `_resourceType`) that are never API calls.
const ASSET_TYPES: [&str; 9] = [
    "document",
    "script",
    "stylesheet",
    "image",
    "font",
    "media",
    "manifest",
    "texttrack",
    "websocket",
];

/// Hosts of analytics, advertising and monitoring services (a suffix match).
const ANALYTICS_HOSTS: [&str; 16] = [
    "google-analytics.com",
    "googletagmanager.com",
    "doubleclick.net",
    "googlesyndication.com",
    "segment.io",
    "segment.com",
    "mixpanel.com",
    "hotjar.com",
    "hotjar.io",
    "sentry.io",
    "clarity.ms",
    "amplitude.com",
    "fullstory.com",
    "nr-data.net",
    "newrelic.com",
    "facebook.net",
];

/// Query keys that only defeat caches.
const CACHE_BUSTERS: [&str; 6] = ["_", "_t", "cb", "_dc", "dojo.preventCache", "nocache"];

/// Request headers a browser or the client writes, never part of an API's contract.
const BROWSER_HEADERS: [&str; 22] = [
    "accept",
    "accept-language",
    "accept-encoding",
    "user-agent",
    "referer",
    "origin",
    "host",
    "connection",
    "content-length",
    "content-type",
    "cache-control",
    "pragma",
    "if-none-match",
    "if-modified-since",
    "dnt",
    "priority",
    "te",
    "upgrade-insecure-requests",
    "keep-alive",
    "cookie",
    "authorization",
    "purpose",
];

/// How many recorded answers of an endpoint are read to find a JSON object for its output
/// schema.
const MAX_ANSWERS_READ: usize = 8;

/// One recorded API call.
struct Call<'a> {
    index: usize,
    method: Method,
    origin: String,
    host: String,
    port: u16,
    /// Path segments as recorded (percent-encoded), after the leading `/`.
    segments: Vec<String>,
    query: Vec<(String, String)>,
    headers: Vec<(String, &'a str)>,
    body: Option<Body<'a>>,
    /// The recorded JSON answer's `content`, read only when its endpoint needs an output
    /// schema (one answer an endpoint, not every one recorded).
    response: Option<&'a Json>,
}

struct Body<'a> {
    mime: String,
    text: Option<String>,
    params: Vec<BodyParam<'a>>,
}

struct BodyParam<'a> {
    name: &'a str,
    value: &'a str,
    file: bool,
}

/// The entries left out, by reason.
#[derive(Default)]
struct Skipped {
    counts: Vec<(String, usize)>,
}

impl Skipped {
    fn add(&mut self, reason: &str) {
        match self.counts.iter_mut().find(|(r, _)| r == reason) {
            Some((_, n)) => *n += 1,
            None => self.counts.push((reason.to_string(), 1)),
        }
    }

    fn total(&self) -> usize {
        self.counts.iter().map(|(_, n)| n).sum()
    }
}

fn invalid(at: String, reason: &str) -> Error {
    Error::from(Reason::Invalid {
        at,
        reason: reason.to_string(),
    })
}

fn text(value: Option<&Json>) -> Option<&str> {
    value.and_then(Json::as_str)
}

/// `[{name, value}]` pairs.
fn pairs<'a>(value: Option<&'a Json>, at: &str) -> Result<Vec<(&'a str, &'a str)>, Error> {
    let list = match value {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(Json::Array(list)) => list,
        Some(_) => return Err(invalid(at.to_string(), "expected a list")),
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, pair) in list.iter().enumerate() {
        let name = text(pair.get("name"));
        let value = text(pair.get("value")).unwrap_or("");
        match name {
            Some(name) => out.push((name, value)),
            None => {
                return Err(invalid(
                    format!("{}[{}]", at, i),
                    "expected an object with a string name",
                ))
            }
        }
    }
    Ok(out)
}

pub(super) fn run(har: &Json, options: &ImportOptions) -> Result<Import, Error> {
    let entries = match har.get("log").and_then(|log| log.get("entries")) {
        Some(Json::Array(entries)) => entries,
        Some(_) => return Err(invalid("log.entries".to_string(), "expected a list")),
        None => return Err(Reason::NotAHar("it has no `log.entries` list").into()),
    };
    let max = options.max_entries.unwrap_or(DEFAULT_MAX_ENTRIES);
    if entries.len() > max {
        return Err(Reason::TooManyEntries(max).into());
    }
    let mut skipped = Skipped::default();
    let mut warnings = Vec::new();
    let mut calls = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        match read_entry(entry, index)? {
            Ok(call) => calls.push(call),
            Err(reason) => skipped.add(reason),
        }
    }
    let calls = choose_hosts(calls, options, &mut skipped);
    if calls.is_empty() {
        return Err(Reason::NoApiCalls(skipped.total()).into());
    }
    let host = calls.first().map(|c| c.host.clone()).unwrap_or_default();
    let plugin_name = match &options.plugin_name {
        Some(name) => {
            tool::validate_name(name)
                .map_err(|e| invalid("plugin name".to_string(), &e.to_string()))?;
            name.clone()
        }
        None => infer::plugin_name(&host),
    };
    let mut builder = Builder {
        secrets: Secrets::new(&plugin_name, false),
        warnings: &mut warnings,
        plugin_name: plugin_name.clone(),
        tool_names: Names::default(),
        scope: String::new(),
    };
    let plugin = builder.plugin(&calls)?;
    let variables = builder.secrets.into_variables();
    Ok(Import {
        plugin,
        warnings,
        variables,
        skipped: skipped.counts,
    })
}

/// One entry: an API call, or the reason it is left out.
fn read_entry(entry: &Json, index: usize) -> Result<Result<Call<'_>, &'static str>, Error> {
    let at = format!("log.entries[{}]", index);
    let request = match entry.get("request") {
        Some(request @ Json::Object(_)) => request,
        _ => return Err(invalid(format!("{}.request", at), "expected an object")),
    };
    let method_text = text(request.get("method")).unwrap_or("GET");
    let method: Method = match method_text.parse() {
        Ok(method) => method,
        Err(_) => {
            return Err(invalid(
                format!("{}.request.method", at),
                "not an HTTP method",
            ))
        }
    };
    if method == Method::Options {
        return Ok(Err("preflight"));
    }
    let url_text = match text(request.get("url")) {
        Some(url) => url,
        None => return Err(invalid(format!("{}.request.url", at), "expected a string")),
    };
    let url = match Url::parse(url_text) {
        Ok(url) => url,
        Err(_) => return Ok(Err("not an http(s) URL httptool accepts")),
    };
    let resource = text(entry.get("_resourceType")).unwrap_or("");
    if ASSET_TYPES.contains(&resource) {
        return Ok(Err(asset_reason(resource)));
    }
    let host = url.host_str().to_ascii_lowercase();
    if ANALYTICS_HOSTS
        .iter()
        .any(|a| host == *a || host.ends_with(&format!(".{}", a)))
    {
        return Ok(Err("analytics"));
    }
    let headers = pairs(request.get("headers"), &format!("{}.request.headers", at))?;
    let body = read_body(request.get("postData"), &at)?;
    let response = entry.get("response");
    let content = response.and_then(|r| r.get("content"));
    let response_mime = text(content.and_then(|c| c.get("mimeType")))
        .unwrap_or("")
        .to_ascii_lowercase();
    let xhr = resource == "xhr" || resource == "fetch";
    let json_response = is_json(&response_mime);
    let json_request = body.as_ref().map_or(false, |b| is_json(&b.mime));
    // Translations, manifests and configuration the page fetches (with XHR too) are
    // files, not calls.
    let static_json = url.path().to_ascii_lowercase().ends_with(".json") && method == Method::Get;
    if static_json && !json_request {
        return Ok(Err("static .json file"));
    }
    if !(xhr || json_response || json_request) {
        return Ok(Err(mime_reason(&response_mime)));
    }
    let response = if json_response { content } else { None };
    let path = url.path();
    let segments = path
        .strip_prefix('/')
        .unwrap_or(path)
        .split('/')
        .map(str::to_string)
        .collect();
    let query = url
        .query_pairs()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Ok(Ok(Call {
        index,
        method,
        origin: format!("{}://{}", url.scheme().as_str(), url.authority()),
        host,
        port: url.port_or_default(),
        segments,
        query,
        headers: headers
            .into_iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), v))
            .collect(),
        body,
        response,
    }))
}

fn asset_reason(resource: &str) -> &'static str {
    match resource {
        "document" => "document",
        "script" => "script",
        "stylesheet" => "style",
        "image" => "image",
        "font" => "font",
        _ => "other asset",
    }
}

fn mime_reason(mime: &str) -> &'static str {
    if mime.starts_with("text/html") {
        "document"
    } else if mime.contains("javascript") {
        "script"
    } else if mime.starts_with("text/css") {
        "style"
    } else if mime.starts_with("image/") {
        "image"
    } else if mime.starts_with("font/") || mime.contains("font") {
        "font"
    } else {
        "not an API call"
    }
}

fn is_json(mime: &str) -> bool {
    let essence = mime
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
}

fn read_body<'a>(post: Option<&'a Json>, at: &str) -> Result<Option<Body<'a>>, Error> {
    let post = match post {
        Some(post @ Json::Object(_)) => post,
        _ => return Ok(None),
    };
    let mime = text(post.get("mimeType"))
        .unwrap_or("")
        .to_ascii_lowercase();
    let mut params = Vec::new();
    if let Some(Json::Array(list)) = post.get("params") {
        for (i, param) in list.iter().enumerate() {
            let name = match text(param.get("name")) {
                Some(name) => name,
                None => {
                    return Err(invalid(
                        format!("{}.request.postData.params[{}]", at, i),
                        "expected an object with a string name",
                    ))
                }
            };
            params.push(BodyParam {
                name,
                value: text(param.get("value")).unwrap_or(""),
                file: param.get("fileName").map_or(false, |f| !f.is_null()),
            });
        }
    }
    let body_text = text(post.get("text")).map(str::to_string);
    if body_text.as_deref().map_or(true, str::is_empty) && params.is_empty() {
        return Ok(None);
    }
    Ok(Some(Body {
        mime,
        text: body_text,
        params,
    }))
}

/// A JSON response's value (base64 text decoded), when it is an object.
fn response_json(content: &Json) -> Option<Json> {
    let raw = text(content.get("text"))?;
    let decoded;
    let body = if text(content.get("encoding")) == Some("base64") {
        decoded = String::from_utf8(base64_decode(raw)?).ok()?;
        decoded.as_str()
    } else {
        raw
    };
    json::parse(body).ok().filter(Json::is_object)
}

/// The calls to the hosts asked for, or to the host with the most calls.
fn choose_hosts<'a>(
    calls: Vec<Call<'a>>,
    options: &ImportOptions,
    skipped: &mut Skipped,
) -> Vec<Call<'a>> {
    let wanted: Vec<(String, Option<u16>)> = if options.hosts.is_empty() {
        let mut counts: HashMap<&str, usize> = HashMap::new();
        let mut order: Vec<&str> = Vec::new();
        for call in &calls {
            let n = counts.entry(&call.host).or_insert(0);
            if *n == 0 {
                order.push(&call.host);
            }
            *n += 1;
        }
        let mut best: Option<(&str, usize)> = None;
        for host in order {
            let n = counts.get(host).copied().unwrap_or(0);
            if best.map_or(true, |(_, m)| n > m) {
                best = Some((host, n));
            }
        }
        best.map(|(h, _)| vec![(h.to_string(), None)])
            .unwrap_or_default()
    } else {
        options
            .hosts
            .iter()
            .map(|h| {
                let h = h.to_ascii_lowercase();
                match h.rsplit_once(':') {
                    Some((host, port)) if !host.ends_with(']') || h.starts_with('[') => {
                        match port.parse::<u16>() {
                            Ok(port) if !host.contains(':') || host.starts_with('[') => {
                                (host.to_string(), Some(port))
                            }
                            _ => (h.clone(), None),
                        }
                    }
                    _ => (h.clone(), None),
                }
            })
            .collect()
    };
    let mut kept = Vec::with_capacity(calls.len());
    for call in calls {
        let wanted_host = wanted
            .iter()
            .any(|(host, port)| *host == call.host && port.map_or(true, |p| p == call.port));
        if wanted_host {
            kept.push(call);
        } else {
            skipped.add("other host");
        }
    }
    kept
}

struct Builder<'w> {
    secrets: Secrets,
    warnings: &'w mut Vec<String>,
    plugin_name: String,
    tool_names: Names,
    /// Put before the names of the variables of the endpoint being built: empty on the
    /// plugin's host, the host's name on another (see [`scope_of`]).
    scope: String,
}

/// The calls of one endpoint, by their index in the list of calls.
/// The plugin's auth as the endpoints compare theirs with it: the header it goes in, and the
/// value most calls sent there.
#[derive(Clone, Copy)]
struct PluginAuth<'a> {
    header: Option<&'a str>,
    sent: Option<&'a str>,
}

struct Group {
    method: Method,
    template: Vec<String>,
    calls: Vec<usize>,
}

impl Builder<'_> {
    fn plugin(&mut self, calls: &[Call<'_>]) -> Result<HttpPlugin, Error> {
        let origin = most_common(calls.iter().map(|c| c.origin.as_str()))
            .unwrap_or("")
            .to_string();
        let all: Vec<&Call<'_>> = calls.iter().collect();
        let auth = self.auth(&all, "");
        let auth_header = auth
            .as_ref()
            .and_then(Auth::header_name)
            .map(str::to_ascii_lowercase);
        // The credential the plugin's auth was read from, to tell an endpoint that sends
        // another (another host's token) or none (a login) from one that sends it.
        let auth_sent = auth_header
            .as_deref()
            .and_then(|name| most_common(calls.iter().filter_map(|c| header(c, name))))
            .map(str::to_string);
        let mut builder = HttpPlugin::builder(self.plugin_name.clone(), origin.clone());
        builder = builder.description(format!("Recorded calls to {}", origin));
        if let Some(auth) = auth {
            builder = builder.auth(auth);
        }
        let cookies = last_cookies(calls);
        for group in group_calls(calls) {
            let plugin_auth = PluginAuth {
                header: auth_header.as_deref(),
                sent: auth_sent.as_deref(),
            };
            let endpoint = self.endpoint(&group, calls, plugin_auth, &origin, &cookies)?;
            builder = builder.endpoint(endpoint);
        }
        builder.build().map_err(|e| Error::from(Reason::Plugin(e)))
    }

    /// The `Authorization` most calls send, else the first credential-looking header; its
    /// variables named with `scope` before their names (`""` for the plugin's).
    fn auth(&mut self, calls: &[&Call<'_>], scope: &str) -> Option<Auth> {
        let named = |suffix: &str| format!("{}{}", scope, suffix);
        if let Some(value) = most_common(calls.iter().filter_map(|c| header(c, "authorization"))) {
            let (scheme, credential) = value.split_once(' ').unwrap_or(("", value));
            let credential = credential.trim();
            if scheme.eq_ignore_ascii_case("bearer") {
                let token = self
                    .secrets
                    .secret(&named("token"), "the bearer token", credential);
                return Some(Auth::bearer(token));
            }
            if scheme.eq_ignore_ascii_case("basic") {
                let decoded = base64_decode(credential).and_then(|b| String::from_utf8(b).ok());
                if let Some((user, password)) = decoded.as_deref().and_then(|d| d.split_once(':')) {
                    let user = self
                        .secrets
                        .secret(&named("username"), "the basic auth user", user);
                    let password = self.secrets.secret(
                        &named("password"),
                        "the basic auth password",
                        password,
                    );
                    return Some(Auth::basic(user, password));
                }
            }
            let purpose = "the credential of the Authorization header";
            let secret = self
                .secrets
                .secret(&named("authorization"), purpose, credential);
            let value = match (scheme.is_empty(), secret.template()) {
                (false, Some(template)) => ConfigValue::from_template(
                    format!("{} {}", scheme.replace("${", "$${"), template),
                    value.to_string(),
                ),
                _ => ConfigValue::literal(value),
            };
            return Some(Auth::header("Authorization", value));
        }
        let (name, value) = calls.iter().find_map(|c| {
            c.headers
                .iter()
                .find(|(n, v)| is_secret_header(n, v))
                .map(|(n, v)| (n.clone(), *v))
        })?;
        let purpose = format!("the value of the {} header", name);
        let secret = self.secrets.secret(&named(&name), &purpose, value);
        Some(Auth::header(name, secret))
    }

    fn endpoint(
        &mut self,
        group: &Group,
        calls: &[Call<'_>],
        plugin_auth: PluginAuth<'_>,
        origin: &str,
        cookies: &HashMap<&str, &str>,
    ) -> Result<Endpoint, Error> {
        let samples: Vec<&Call<'_>> = group.calls.iter().filter_map(|&i| calls.get(i)).collect();
        let own_origin = most_common(samples.iter().map(|c| c.origin.as_str())).unwrap_or(origin);
        // The variables of another host's credentials are named after it: loaded from the
        // file, each host gets its own value, never the plugin's host's.
        self.scope = if own_origin == origin {
            String::new()
        } else {
            scope_of(own_origin)
        };
        let own_auth = self.endpoint_auth(&samples, plugin_auth, own_origin);
        let auth_header = match &own_auth {
            Some(EndpointAuth::Auth(auth)) => auth.header_name().map(str::to_ascii_lowercase),
            _ => plugin_auth.header.map(str::to_string),
        };
        let auth_header = auth_header.as_deref();
        let mut params = Params::default();
        let path = self.path(group, &samples, &mut params);
        self.query(&samples, &mut params);
        let (encoding, content_type) = self.body(&samples, &mut params);
        let credentials = self.headers(&samples, &mut params, auth_header);
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let decoded: Vec<String> = segments
            .iter()
            .map(|s| {
                if s.starts_with('{') {
                    s.to_string()
                } else {
                    decode(s)
                }
            })
            .collect();
        let words: Vec<&str> = decoded.iter().map(String::as_str).collect();
        let name = infer::tool_name(group.method.as_str(), &words, &self.plugin_name);
        let name = self.tool_names.unique(&name);
        self.tool_names.take(&name);
        let params = params.into_params();
        let has_body = params
            .iter()
            .any(|p| matches!(p.location(), Location::Body | Location::Form));
        let mut endpoint = Endpoint::builder(name, group.method, path.clone())
            .description(format!(
                "{} {} (recorded {} time{})",
                group.method,
                path,
                samples.len(),
                if samples.len() == 1 { "" } else { "s" }
            ))
            .params(params)
            .allow_get_body(group.method == Method::Get && has_body)
            .allow_delete_body(group.method == Method::Delete && has_body);
        if let Some(encoding) = encoding {
            endpoint = endpoint.body_encoding(encoding);
        }
        if let Some(content_type) = content_type {
            endpoint = endpoint.content_type(content_type);
        }
        let answer = samples
            .iter()
            .filter_map(|c| c.response)
            .take(MAX_ANSWERS_READ)
            .find_map(response_json);
        if let Some(schema) = answer.as_ref().map(shape) {
            if fits(&schema) {
                endpoint = endpoint.output_schema(schema);
            }
        }
        if own_origin != origin {
            endpoint = endpoint.base_url(own_origin.to_string());
        }
        match own_auth {
            Some(EndpointAuth::Auth(auth)) => endpoint = endpoint.auth(auth),
            Some(EndpointAuth::None) => endpoint = endpoint.no_auth(),
            None => {}
        }
        // The host's session cookie, on the endpoints whose calls sent one.
        let sent_cookie = samples
            .iter()
            .any(|c| header(c, "cookie").map_or(false, |v| !v.is_empty()));
        if let Some(cookie) = cookies.get(own_origin).filter(|_| sent_cookie) {
            let name = format!("{}cookie", self.scope);
            let value = self
                .secrets
                .secret(&name, "the Cookie header the browser sent", cookie);
            endpoint = endpoint.endpoint_header("Cookie", value);
        }
        for (name, value) in credentials {
            endpoint = endpoint.endpoint_header(name, value);
        }
        Ok(endpoint.build())
    }

    /// An endpoint's own auth, as its calls were recorded: none when none of them sent the
    /// plugin's credential header (a login, another host's public files), its own when they
    /// sent another credential (another host's token, named after the host), else the
    /// plugin's. A credential is never sent where the recording shows it was not.
    fn endpoint_auth(
        &mut self,
        samples: &[&Call<'_>],
        plugin_auth: PluginAuth<'_>,
        origin: &str,
    ) -> Option<EndpointAuth> {
        let header_name = plugin_auth.header?;
        let sent = most_common(samples.iter().filter_map(|c| header(c, header_name)));
        match sent {
            None => Some(EndpointAuth::None),
            Some(value) if Some(value) == plugin_auth.sent => None,
            Some(_) => {
                let scope = scope_of(origin);
                self.auth(samples, &scope).map(EndpointAuth::Auth)
            }
        }
    }

    /// The path template; parameter segments named after the segment before them.
    fn path(&mut self, group: &Group, samples: &[&Call<'_>], params: &mut Params) -> String {
        let mut path = String::new();
        for (p, segment) in group.template.iter().enumerate() {
            path.push('/');
            if segment != PARAM {
                path.push_str(&encode_segment(segment));
                continue;
            }
            let previous = p
                .checked_sub(1)
                .and_then(|q| group.template.get(q))
                .filter(|s| *s != PARAM && !s.is_empty())
                .map(|s| infer::singular(&infer::snake_case(&decode(s))))
                .filter(|s| !s.is_empty());
            let wire = match previous {
                Some(stem) => format!("{}_id", stem),
                None => "id".to_string(),
            };
            let builder = params.named(Location::Path, &wire);
            let name = builder.clone().build().name().to_string();
            let values: Vec<String> = samples
                .iter()
                .filter_map(|c| c.segments.get(p))
                .map(|s| decode(s))
                .collect();
            let ty = unify(values.iter().map(|v| text_type(v)));
            let param = crate::plugin::Param::path(name.clone())
                .ty(ty)
                .required(true)
                .build();
            params.push(param);
            path.push('{');
            path.push_str(&name);
            path.push('}');
        }
        if path.is_empty() {
            path.push('/');
        }
        path
    }

    fn query(&mut self, samples: &[&Call<'_>], params: &mut Params) {
        let lists: Vec<Vec<(&str, &str)>> = samples
            .iter()
            .map(|c| {
                c.query
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect()
            })
            .collect();
        self.fields(&lists, Location::Query, params);
    }

    /// Key/value samples of every call into parameters of `location`.
    fn fields(&mut self, lists: &[Vec<(&str, &str)>], location: Location, params: &mut Params) {
        let mut order: Vec<&str> = Vec::new();
        let mut values: HashMap<&str, (usize, bool, Vec<&str>)> = HashMap::new();
        for list in lists {
            let mut seen: HashSet<&str> = HashSet::new();
            for (key, value) in list {
                if key.is_empty() {
                    continue;
                }
                let entry = values.entry(key).or_insert_with(|| {
                    order.push(key);
                    (0, false, Vec::new())
                });
                if seen.insert(key) {
                    entry.0 += 1;
                } else {
                    entry.1 = true;
                }
                entry.2.push(value);
            }
        }
        for key in order {
            let (present, repeated, samples) = match values.remove(key) {
                Some(found) => found,
                None => continue,
            };
            if location == Location::Query && is_cache_buster(key, &samples, present, lists.len()) {
                continue;
            }
            let builder = params.named(location, key);
            if is_credential_name(key) || samples.iter().any(|v| infer::is_secret_value(v)) {
                let purpose = format!("the {} {} value", key, location.as_str());
                let first = samples.first().copied().unwrap_or("");
                let name = format!("{}{}", self.scope, key);
                let value = self.secrets.secret(&name, &purpose, first);
                params.push(fixed_param(builder, &value, true));
                continue;
            }
            let ty = unify(samples.iter().map(|v| text_type(v)));
            let mut builder = builder.required(present == lists.len());
            if ty == ParamType::String {
                let mut distinct: Vec<&str> = Vec::new();
                for value in &samples {
                    if !distinct.contains(value) {
                        distinct.push(value);
                    }
                    if distinct.len() > 5 {
                        break;
                    }
                }
                let short = distinct.iter().all(|v| !v.is_empty() && v.len() <= 64);
                if distinct.len() <= 5 && distinct.len() < samples.len() && short {
                    builder = builder.enum_values(distinct.iter().map(|v| Json::from(*v)));
                }
            }
            let ty = if repeated { ParamType::array(ty) } else { ty };
            params.push(builder.ty(ty).build());
        }
    }

    /// The body of the calls that have one: parameters, and the encoding and content type.
    fn body(
        &mut self,
        samples: &[&Call<'_>],
        params: &mut Params,
    ) -> (Option<BodyEncoding>, Option<String>) {
        let bodies: Vec<(&Call<'_>, &Body<'_>)> = samples
            .iter()
            .filter_map(|c| c.body.as_ref().map(|b| (*c, b)))
            .collect();
        let first = match bodies.first() {
            Some((_, body)) => body,
            None => return (None, None),
        };
        let mime = first.mime.clone();
        if is_json(&mime) {
            let mut values: Vec<Json> = Vec::with_capacity(bodies.len());
            for (call, body) in &bodies {
                match body.text.as_deref().map(json::parse) {
                    Some(Ok(value)) => values.push(value),
                    Some(Err(err)) => self.warnings.push(format!(
                        "log.entries[{}]: the JSON request body does not parse ({}); it is \
                         not a sample",
                        call.index, err
                    )),
                    None => {}
                }
            }
            self.json_body(&values, params);
            return (None, None);
        }
        let essence = mime.split(';').next().unwrap_or("").trim().to_string();
        if essence == "application/x-www-form-urlencoded" {
            let lists: Vec<Vec<(&str, &str)>> = bodies
                .iter()
                .map(|(_, b)| b.params.iter().map(|p| (p.name, p.value)).collect())
                .collect();
            let lists = if lists.iter().all(Vec::is_empty) {
                let decoded: Vec<Vec<(String, String)>> = bodies
                    .iter()
                    .map(|(_, b)| form_pairs(b.text.as_deref().unwrap_or("")))
                    .collect();
                let borrowed: Vec<Vec<(&str, &str)>> = decoded
                    .iter()
                    .map(|l| l.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect())
                    .collect();
                self.fields(&borrowed, Location::Form, params);
                return (Some(BodyEncoding::Form), None);
            } else {
                lists
            };
            self.fields(&lists, Location::Form, params);
            return (Some(BodyEncoding::Form), None);
        }
        if essence == "multipart/form-data" {
            let mut files: Vec<&str> = Vec::new();
            let lists: Vec<Vec<(&str, &str)>> = bodies
                .iter()
                .map(|(_, b)| {
                    b.params
                        .iter()
                        .filter(|p| {
                            if p.file && !files.contains(&p.name) {
                                files.push(p.name);
                            }
                            !p.file
                        })
                        .map(|p| (p.name, p.value))
                        .collect()
                })
                .collect();
            self.fields(&lists, Location::Form, params);
            for name in files {
                let param = params.named(Location::Form, name).file(true).required(true);
                params.push(param.build());
            }
            return (Some(BodyEncoding::Multipart), None);
        }
        let param = params.named(Location::Body, "body").required(true).build();
        params.push(param);
        let content_type = if essence.is_empty() {
            "application/octet-stream".to_string()
        } else {
            essence
        };
        (Some(BodyEncoding::Raw), Some(content_type))
    }

    /// JSON bodies: a parameter per member seen in any object body, else one whole body.
    fn json_body(&mut self, values: &[Json], params: &mut Params) {
        let objects: Vec<&Map> = values.iter().filter_map(Json::as_object).collect();
        let typed = !objects.is_empty()
            && objects.len() == values.len()
            && objects.iter().all(|m| {
                m.iter()
                    .all(|(k, v)| !k.is_empty() && json_type(v).is_some())
            });
        if !typed {
            let ty = values
                .first()
                .and_then(|v| match v {
                    Json::Object(_) => None,
                    other => json_type(other).map(|(t, _)| t),
                })
                .unwrap_or_else(|| ParamType::object([]));
            let builder = params.named(Location::Body, "body").whole_body(true).ty(ty);
            params.push(builder.required(!values.is_empty()).build());
            return;
        }
        let mut order: Vec<&str> = Vec::new();
        let mut members: HashMap<&str, (usize, Option<&Json>)> = HashMap::new();
        for object in &objects {
            for (key, value) in object.iter() {
                let entry = members.entry(key).or_insert_with(|| {
                    order.push(key);
                    (0, None)
                });
                entry.0 += 1;
                if entry.1.is_none() && !value.is_null() {
                    entry.1 = Some(value);
                }
            }
        }
        for key in order {
            let (present, sample) = members.get(key).copied().unwrap_or((0, None));
            let builder = params.named(Location::Body, key);
            if let Some(Json::String(text)) = sample {
                if !text.is_empty() && (is_credential_name(key) || infer::is_secret_value(text)) {
                    let purpose = format!("the {} body field", key);
                    let name = format!("{}{}", self.scope, key);
                    let value = self.secrets.secret(&name, &purpose, text);
                    params.push(fixed_param(builder, &value, true));
                    continue;
                }
            }
            let ty = sample
                .and_then(json_type)
                .map_or(ParamType::String, |(t, _)| t);
            let required = present == objects.len() && sample.is_some();
            params.push(builder.ty(ty).required(required).build());
        }
    }

    /// Credential-looking headers as the endpoint's own static headers, each a `${NAME}`
    /// variable (returned), and custom headers sent with one value in every call as hidden
    /// parameters with that value.
    fn headers(
        &mut self,
        samples: &[&Call<'_>],
        params: &mut Params,
        auth_header: Option<&str>,
    ) -> Vec<(String, ConfigValue)> {
        let mut credentials: Vec<(String, ConfigValue)> = Vec::new();
        let first = match samples.first() {
            Some(first) => first,
            None => return credentials,
        };
        for (name, value) in &first.headers {
            let lower = name.as_str();
            if lower.starts_with(':')
                || lower.starts_with("sec-")
                || BROWSER_HEADERS.contains(&lower)
                || infer::is_browser_header(lower)
                || auth_header == Some(lower)
                || !crate::http::is_token(lower)
                || params.has(Location::Header, lower)
                || credentials.iter().any(|(n, _)| n == lower)
            {
                continue;
            }
            if is_secret_header(lower, value) {
                let purpose = format!("the value of the {} header", lower);
                let name = format!("{}{}", self.scope, lower);
                credentials.push((
                    lower.to_string(),
                    self.secrets.secret(&name, &purpose, value),
                ));
                continue;
            }
            let same = samples.iter().all(|c| header(c, lower) == Some(*value));
            if same {
                let builder = params.named(Location::Header, lower);
                params.push(fixed_param(builder, &ConfigValue::literal(*value), false));
            }
        }
        credentials
    }
}

/// The prefix of the variables of a host's own credentials: `files_example_com_`.
fn scope_of(origin: &str) -> String {
    let host = origin.split("://").nth(1).unwrap_or(origin);
    format!("{}_", infer::snake_case(host))
}

/// The last `Cookie` each origin was sent (a session's cookies change as it goes: the last
/// is the one still valid).
fn last_cookies<'c>(calls: &'c [Call<'_>]) -> HashMap<&'c str, &'c str> {
    let mut cookies = HashMap::new();
    for call in calls {
        if let Some(cookie) = header(call, "cookie").filter(|v| !v.is_empty()) {
            cookies.insert(call.origin.as_str(), cookie);
        }
    }
    cookies
}

fn header<'c>(call: &'c Call<'_>, name: &str) -> Option<&'c str> {
    call.headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| *v)
}

fn is_secret_header(name: &str, value: &str) -> bool {
    name != "cookie"
        && name != "authorization"
        && (is_credential_name(name) || infer::is_secret_value(value))
}

/// Whether a query key only defeats caches: a known name, or a Unix timestamp (seconds or
/// milliseconds) in every call.
fn is_cache_buster(key: &str, values: &[&str], present: usize, calls: usize) -> bool {
    if CACHE_BUSTERS.contains(&key) {
        return true;
    }
    present == calls
        && !values.is_empty()
        && values.iter().all(|v| {
            let digits = v.len() == 10 || v.len() == 13;
            let first = v.as_bytes().first().copied();
            digits && v.bytes().all(|b| b.is_ascii_digit()) && first == Some(b'1')
        })
}

/// The widest type of the samples: one type, integers and numbers as numbers, else string.
fn unify(types: impl Iterator<Item = ParamType>) -> ParamType {
    let mut found: Option<ParamType> = None;
    for ty in types {
        found = Some(match found {
            None => ty,
            Some(t) if t == ty => t,
            Some(ParamType::Integer | ParamType::Number)
                if matches!(ty, ParamType::Integer | ParamType::Number) =>
            {
                ParamType::Number
            }
            Some(_) => return ParamType::String,
        });
    }
    found.unwrap_or(ParamType::String)
}

/// What calls of one endpoint share: the method, the origin (the same path on two hosts is
/// two endpoints) and the path template.
type GroupKey = (Method, String, Vec<String>);

/// Calls grouped into endpoints: by method, origin and path with id-looking segments as
/// parameters, then segments that vary across groups agreeing on all others.
fn group_calls(calls: &[Call<'_>]) -> Vec<Group> {
    let mut order: Vec<GroupKey> = Vec::new();
    let mut groups: HashMap<GroupKey, Vec<usize>> = HashMap::new();
    for (i, call) in calls.iter().enumerate() {
        let template: Vec<String> = call
            .segments
            .iter()
            .map(|s| {
                if infer::is_id_segment(&decode(s)) {
                    PARAM.to_string()
                } else {
                    s.clone()
                }
            })
            .collect();
        let key = (call.method, call.origin.clone(), template);
        groups
            .entry(key.clone())
            .or_insert_with(|| {
                order.push(key);
                Vec::new()
            })
            .push(i);
    }
    let longest = order.iter().map(|(_, _, t)| t.len()).max().unwrap_or(0);
    for p in 0..longest {
        // Groups that agree on every segment but `p`, by that signature.
        let mut by_signature: HashMap<GroupKey, Vec<usize>> = HashMap::new();
        for (at, (method, origin, template)) in order.iter().enumerate() {
            if may_vary(template, p) {
                let mut signature = template.clone();
                signature[p] = PARAM.to_string();
                by_signature
                    .entry((*method, origin.clone(), signature))
                    .or_default()
                    .push(at);
            }
        }
        let mut renamed: HashMap<usize, GroupKey> = HashMap::new();
        for (signature, members) in by_signature {
            if members.len() >= 2 {
                for at in members {
                    renamed.insert(at, signature.clone());
                }
            }
        }
        if renamed.is_empty() {
            continue;
        }
        let mut next_order = Vec::with_capacity(order.len());
        let mut next_groups: HashMap<GroupKey, Vec<usize>> = HashMap::new();
        for (at, key) in order.into_iter().enumerate() {
            let calls_of = groups.remove(&key).unwrap_or_default();
            let target = renamed.remove(&at).unwrap_or(key);
            let entry = next_groups.entry(target.clone()).or_insert_with(|| {
                next_order.push(target);
                Vec::new()
            });
            entry.extend(calls_of);
        }
        order = next_order;
        groups = next_groups;
    }
    order
        .into_iter()
        .map(|key| {
            let mut calls_of = groups.remove(&key).unwrap_or_default();
            calls_of.sort_unstable();
            Group {
                method: key.0,
                template: key.2,
                calls: calls_of,
            }
        })
        .collect()
}

/// Whether segment `p` of a template may become a parameter by varying: a literal after a
/// literal that is not a version segment; the last one only after a plural word.
fn may_vary(template: &[String], p: usize) -> bool {
    let segment = match template.get(p) {
        Some(s) if s != PARAM && !s.is_empty() => s,
        _ => return false,
    };
    let _ = segment;
    let previous = match p.checked_sub(1).and_then(|q| template.get(q)) {
        Some(s) if s != PARAM && !s.is_empty() => decode(s),
        _ => return false,
    };
    if infer::is_version_segment(&previous) {
        return false;
    }
    if p + 1 == template.len() {
        let word = infer::snake_case(&previous);
        return !word.is_empty() && infer::singular(&word) != word;
    }
    true
}

/// The most common of `values` (the first of those tied).
fn most_common<'a>(values: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    for value in values {
        let n = counts.entry(value).or_insert(0);
        if *n == 0 {
            order.push(value);
        }
        *n += 1;
    }
    let mut best: Option<(&str, usize)> = None;
    for value in order {
        let n = counts.get(value).copied().unwrap_or(0);
        if best.map_or(true, |(_, m)| n > m) {
            best = Some((value, n));
        }
    }
    best.map(|(v, _)| v)
}

fn decode(text: &str) -> String {
    String::from_utf8_lossy(&crate::url::percent_decode(text)).into_owned()
}

fn form_pairs(text: &str) -> Vec<(String, String)> {
    text.split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let decode =
                |t: &str| String::from_utf8_lossy(&crate::url::form_decode(t)).into_owned();
            (decode(k), decode(v))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_unify_to_the_widest() {
        use ParamType::*;
        assert_eq!(unify([Integer, Integer].into_iter()), Integer);
        assert_eq!(unify([Integer, Number].into_iter()), Number);
        assert_eq!(unify([Integer, Boolean].into_iter()), String);
    }

    #[test]
    fn timestamps_are_cache_busters() {
        assert!(is_cache_buster(
            "ts",
            &["1700000000123", "1700000000999"],
            2,
            2
        ));
        assert!(is_cache_buster("_", &["x"], 1, 2));
        assert!(!is_cache_buster("page", &["2", "3"], 2, 2));
    }

    #[test]
    fn only_words_after_plurals_vary_at_the_end() {
        let t = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(may_vary(&t(&["users", "alice"]), 1));
        assert!(!may_vary(&t(&["api", "users"]), 1));
        assert!(!may_vary(&t(&["v1", "users"]), 1));
        assert!(may_vary(&t(&["repos", "rust", "issues"]), 1));
        assert!(!may_vary(&t(&["users"]), 0));
    }
}
