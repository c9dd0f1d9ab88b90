//! The OAuth 2.1 resource server of the Streamable HTTP transport (MCP "Authorization",
//! revisions 2025-11-25 and 2026-07-28): Protected Resource Metadata (RFC 9728), bearer
//! tokens (RFC 6750) checked by token introspection (RFC 7662) with the audience bound to
//! this server's resource URI (RFC 8707), and the answers cached no longer than the token
//! lives.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::http::{basic_auth, Client, Config, Request, Transport};
use crate::json::{Json, Map};
use crate::tool::CallContext;

/// The [`CallContext`] key of the token's subject (`sub`), when the introspection names one.
pub const CONTEXT_SUBJECT: &str = "oauth_subject";
/// The [`CallContext`] key of the token's scopes, space-separated as in `scope`.
pub const CONTEXT_SCOPES: &str = "oauth_scopes";
/// The [`CallContext`] key of the OAuth client the token was issued to (`client_id`).
pub const CONTEXT_CLIENT_ID: &str = "oauth_client_id";

/// The well-known path of Protected Resource Metadata (RFC 9728 section 3):
/// `/.well-known/oauth-protected-resource`, also served with the resource's path after it.
pub const PROTECTED_RESOURCE_METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// Tokens whose introspection is remembered at once; past it the entries nearest their end
/// go first. Defaults to 10,000.
pub const DEFAULT_INTROSPECTION_CACHE_ENTRIES: usize = 10_000;
/// The longest an introspection's answer is trusted without asking again, even for a token
/// that lives longer (a revoked token is refused within this time). Defaults to 60 seconds.
pub const DEFAULT_INTROSPECTION_CACHE_TTL: Duration = Duration::from_secs(60);
/// The whole introspection request, connect to last byte. Defaults to 10 seconds.
pub const DEFAULT_INTROSPECTION_TIMEOUT: Duration = Duration::from_secs(10);

/// An OAuth 2.1 resource server for [`HttpTransport`](super::HttpTransport): who may call,
/// decided by the authorization server's token introspection. Built with the `mcp` and
/// `server` features.
///
/// What a request gets (MCP "Authorization", RFC 6750 section 3, RFC 9728 section 5.1):
///
/// | request | answer |
/// | --- | --- |
/// | `GET` [`PROTECTED_RESOURCE_METADATA_PATH`], or it followed by the resource's path | `200`, the metadata (no token needed) |
/// | no `Authorization: Bearer` | `401`, `WWW-Authenticate: Bearer resource_metadata="..."` (with `scope` when scopes are required) |
/// | a token the introspection calls inactive, or past its `exp`, before its `nbf`, or whose `aud` does not name [`resource`](OAuth::resource) (or names no audience at all) | `401`, `error="invalid_token"` |
/// | a valid token without every [`required_scope`](OAuth::required_scope) | `403`, `error="insufficient_scope"`, `scope="..."` |
/// | the introspection endpoint unreachable, slow, or answering anything but `200` with a JSON object | `503`, `Retry-After: 5`: the token is not known bad, so the client is not sent to log in again |
///
/// A valid token's caller reaches every tool call as [`CallContext`] values:
/// [`CONTEXT_SUBJECT`], [`CONTEXT_SCOPES`] and [`CONTEXT_CLIENT_ID`] (each when the
/// introspection names it), over the server's own context.
///
/// # Security
///
/// The token itself never reaches a tool or an upstream API (MCP forbids token
/// passthrough); the cache keys on its SHA-256, not the token. A valid answer is cached until
/// the earlier of the token's `exp` and [`max_cache_ttl`](OAuth::max_cache_ttl); refusals
/// are not cached. The client secret is sent only to the introspection endpoint (HTTP Basic,
/// RFC 6749 section 2.3.1) and is `***` in `Debug`.
///
/// # Examples
///
/// ```no_run
/// use std::sync::Arc;
/// use httptool::http::{HttpServer, ServerConfig};
/// use httptool::mcp::{HttpTransport, OAuth, Server};
/// use httptool::tool::ToolRegistry;
///
/// let oauth = OAuth::new("https://mcp.example.com/mcp", "https://auth.example.com/introspect")
///     .authorization_server("https://auth.example.com")
///     .client_credentials("mcp-server", "secret-from-the-environment")
///     .required_scope("tools");
/// let transport = HttpTransport::new(Server::new().stateless(Arc::new(ToolRegistry::new())))
///     .oauth(oauth);
/// transport.serve(&HttpServer::bind("127.0.0.1:8080", ServerConfig::new())?)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[must_use]
pub struct OAuth {
    resource: String,
    introspection_url: String,
    authorization_servers: Vec<String>,
    client_credentials: Option<(String, String)>,
    required_scopes: Vec<String>,
    client: Client,
    max_cache_entries: usize,
    max_cache_ttl: Duration,
    cache: Mutex<HashMap<[u8; 32], Cached>>,
}

impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth")
            .field("resource", &self.resource)
            .field("introspection_url", &self.introspection_url)
            .field("authorization_servers", &self.authorization_servers)
            .field(
                "client_credentials",
                &self
                    .client_credentials
                    .as_ref()
                    .map(|(id, _)| (id, crate::quote::MASK)),
            )
            .field("required_scopes", &self.required_scopes)
            .field("max_cache_entries", &self.max_cache_entries)
            .field("max_cache_ttl", &self.max_cache_ttl)
            .finish()
    }
}

/// A valid token's caller, as the introspection described it.
#[derive(Debug)]
pub(crate) struct Caller {
    subject: Option<String>,
    scopes: Option<String>,
    client_id: Option<String>,
}

impl Caller {
    /// `base` with this caller's values set.
    pub(crate) fn context(&self, base: &CallContext) -> CallContext {
        let mut context = base.clone();
        if let Some(subject) = &self.subject {
            context.insert(CONTEXT_SUBJECT, subject.as_str());
        }
        if let Some(scopes) = &self.scopes {
            context.insert(CONTEXT_SCOPES, scopes.as_str());
        }
        if let Some(client_id) = &self.client_id {
            context.insert(CONTEXT_CLIENT_ID, client_id.as_str());
        }
        context
    }

    fn has_scope(&self, wanted: &str) -> bool {
        self.scopes
            .as_deref()
            .map_or(false, |s| s.split(' ').any(|scope| scope == wanted))
    }
}

struct Cached {
    caller: Arc<Caller>,
    until: Instant,
}

/// What the check of one request's token decided.
pub(crate) enum Verdict {
    /// The token is good: this is who calls.
    Valid(Arc<Caller>),
    /// No token was sent.
    Missing,
    /// The token is not good for this server; why, for `error_description`.
    Invalid(&'static str),
    /// Good, without every required scope.
    InsufficientScope,
    /// The introspection could not answer; why, in words that name no host or address (the
    /// caller reads them).
    Unavailable(String),
}

impl OAuth {
    /// Protects the resource `resource` (this server's canonical URI, what clients send as
    /// RFC 8707's `resource` and tokens must name in `aud`: `https://mcp.example.com/mcp`),
    /// asking `introspection_url` (RFC 7662) about each token. No authorization server is
    /// listed, no client credentials sent, no scope required until set.
    pub fn new(resource: impl Into<String>, introspection_url: impl Into<String>) -> OAuth {
        let client = Client::with_config(
            Config::new()
                .timeout_call(DEFAULT_INTROSPECTION_TIMEOUT)
                .max_response_bytes(64 * 1024),
        );
        OAuth {
            resource: resource.into(),
            introspection_url: introspection_url.into(),
            authorization_servers: Vec::new(),
            client_credentials: None,
            required_scopes: Vec::new(),
            client,
            max_cache_entries: DEFAULT_INTROSPECTION_CACHE_ENTRIES,
            max_cache_ttl: DEFAULT_INTROSPECTION_CACHE_TTL,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// An authorization server's issuer URL, listed in the metadata's
    /// `authorization_servers` for clients to log in with. Repeatable. Defaults to none.
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> OAuth {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// The client id and secret this server authenticates to the introspection endpoint
    /// with (HTTP Basic, RFC 7662 section 2.1). Defaults to none (no `Authorization` sent).
    pub fn client_credentials(
        mut self,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> OAuth {
        self.client_credentials = Some((client_id.into(), client_secret.into()));
        self
    }

    /// A scope every token must hold; listed in the metadata's `scopes_supported` and in
    /// the challenges. Repeatable. Defaults to none.
    pub fn required_scope(mut self, scope: impl Into<String>) -> OAuth {
        self.required_scopes.push(scope.into());
        self
    }

    /// The client that asks the introspection endpoint. Defaults to a [`Client`] with a
    /// whole-call timeout of [`DEFAULT_INTROSPECTION_TIMEOUT`] and answers of 64 KiB at
    /// most.
    pub fn client(mut self, client: Client) -> OAuth {
        self.client = client;
        self
    }

    /// Tokens remembered at once. Defaults to [`DEFAULT_INTROSPECTION_CACHE_ENTRIES`].
    pub fn max_cache_entries(mut self, entries: usize) -> OAuth {
        self.max_cache_entries = entries;
        self
    }

    /// The longest an answer is trusted (0: ask for every request). Defaults to
    /// [`DEFAULT_INTROSPECTION_CACHE_TTL`] (60 s).
    pub fn max_cache_ttl(mut self, ttl: Duration) -> OAuth {
        self.max_cache_ttl = ttl;
        self
    }

    /// The resource URI tokens must name in `aud`.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// Where the Protected Resource Metadata is (RFC 9728 section 3.1): the resource's
    /// origin, [`PROTECTED_RESOURCE_METADATA_PATH`], then the resource's path.
    ///
    /// ```
    /// use httptool::mcp::OAuth;
    ///
    /// let oauth = OAuth::new("https://mcp.example.com/mcp", "https://as.example.com/introspect");
    /// assert_eq!(
    ///     oauth.metadata_url(),
    ///     "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    /// );
    /// ```
    pub fn metadata_url(&self) -> String {
        let (origin, path) = split_resource(&self.resource);
        format!(
            "{}{}{}",
            origin,
            PROTECTED_RESOURCE_METADATA_PATH,
            path.trim_end_matches('/')
        )
    }

    /// The Protected Resource Metadata document (RFC 9728 section 2).
    pub fn metadata(&self) -> Json {
        let mut doc = Map::new();
        doc.insert("resource", Json::from(self.resource.as_str()));
        doc.insert(
            "authorization_servers",
            Json::Array(
                self.authorization_servers
                    .iter()
                    .map(|s| Json::from(s.as_str()))
                    .collect(),
            ),
        );
        if !self.required_scopes.is_empty() {
            doc.insert(
                "scopes_supported",
                Json::Array(
                    self.required_scopes
                        .iter()
                        .map(|s| Json::from(s.as_str()))
                        .collect(),
                ),
            );
        }
        doc.insert(
            "bearer_methods_supported",
            Json::Array(vec![Json::from("header")]),
        );
        Json::Object(doc)
    }

    /// Whether `path` is one the metadata is served at: the well-known path alone, or
    /// followed by the resource's path or by `endpoint`.
    pub(crate) fn is_metadata_path(&self, path: &str, endpoint: &str) -> bool {
        match path.strip_prefix(PROTECTED_RESOURCE_METADATA_PATH) {
            Some("") => true,
            Some(rest) => {
                let (_, resource_path) = split_resource(&self.resource);
                rest == resource_path.trim_end_matches('/') || rest == endpoint
            }
            None => false,
        }
    }

    /// The `WWW-Authenticate` value of a refusal (RFC 6750 section 3, RFC 9728 section 5.1).
    pub(crate) fn challenge(&self, error: Option<(&str, &str)>) -> String {
        let mut value = String::from("Bearer");
        let mut sep = " ";
        if let Some((code, description)) = error {
            value.push_str(&format!(
                "{}error=\"{}\", error_description=\"{}\"",
                sep, code, description
            ));
            sep = ", ";
        }
        if !self.required_scopes.is_empty() {
            value.push_str(&format!(
                "{}scope=\"{}\"",
                sep,
                self.required_scopes.join(" ")
            ));
            sep = ", ";
        }
        value.push_str(&format!(
            "{}resource_metadata=\"{}\"",
            sep,
            self.metadata_url()
        ));
        value
    }

    /// Checks the bearer token of a request (`None`: none was sent).
    pub(crate) fn check(&self, token: Option<&str>) -> Verdict {
        let token = match token {
            Some(token) if !token.is_empty() => token,
            _ => return Verdict::Missing,
        };
        let key = crate::hash::sha256(token.as_bytes());
        let now = Instant::now();
        let cached = lock(&self.cache)
            .get(&key)
            .filter(|entry| entry.until > now)
            .map(|entry| entry.caller.clone());
        let caller = match cached {
            Some(caller) => caller,
            None => match self.introspect(token) {
                Ok((caller, lifetime)) => {
                    let caller = Arc::new(caller);
                    self.remember(key, &caller, lifetime);
                    caller
                }
                Err(verdict) => return verdict,
            },
        };
        if self.required_scopes.iter().all(|s| caller.has_scope(s)) {
            Verdict::Valid(caller)
        } else {
            Verdict::InsufficientScope
        }
    }

    fn remember(&self, key: [u8; 32], caller: &Arc<Caller>, lifetime: Option<Duration>) {
        let ttl = lifetime.map_or(self.max_cache_ttl, |l| l.min(self.max_cache_ttl));
        if ttl.is_zero() || self.max_cache_entries == 0 {
            return;
        }
        let now = Instant::now();
        let mut cache = lock(&self.cache);
        if cache.len() >= self.max_cache_entries {
            cache.retain(|_, entry| entry.until > now);
        }
        while cache.len() >= self.max_cache_entries {
            let soonest = cache
                .iter()
                .min_by_key(|(_, entry)| entry.until)
                .map(|(key, _)| *key);
            match soonest {
                Some(soonest) => cache.remove(&soonest),
                None => break,
            };
        }
        cache.insert(
            key,
            Cached {
                caller: caller.clone(),
                until: now + ttl,
            },
        );
    }

    /// RFC 7662 section 2: the token, form-encoded, to the introspection endpoint; the
    /// caller and how long the token has left, or the verdict that ends the request.
    fn introspect(&self, token: &str) -> Result<(Caller, Option<Duration>), Verdict> {
        let unavailable = |why: String| Verdict::Unavailable(why);
        let mut request = Request::post(&self.introspection_url)
            .map_err(|_| unavailable("the introspection URL is not usable".to_string()))?;
        let headers = request.headers_mut();
        let mut appended = headers
            .append("Content-Type", "application/x-www-form-urlencoded")
            .and_then(|_| headers.append("Accept", "application/json"));
        if let Some((id, secret)) = &self.client_credentials {
            // RFC 6749 section 2.3.1: each form-encoded before Basic joins them.
            let value = basic_auth(
                &crate::url::encode_form_component(id),
                &crate::url::encode_form_component(secret),
            );
            appended = appended.and_then(|_| headers.append_sensitive("Authorization", &value));
        }
        appended.map_err(|_| {
            unavailable("the introspection request cannot carry these credentials".to_string())
        })?;
        request.set_body(crate::url::form_urlencoded([
            ("token", token),
            ("token_type_hint", "access_token"),
        ]));
        let response = self
            .client
            .send(&request)
            // The error's text names hosts and addresses behind this server: not for the caller.
            .map_err(|e| unavailable(format!("token introspection failed ({:?})", e.kind())))?;
        if response.status() != 200 {
            return Err(unavailable(format!(
                "token introspection answered {}",
                response.status()
            )));
        }
        let answer = crate::json::parse_bytes(response.body())
            .map_err(|_| unavailable("token introspection did not answer with JSON".to_string()))?;
        if !answer.is_object() {
            return Err(unavailable(
                "token introspection did not answer with a JSON object".to_string(),
            ));
        }
        judge(&answer, &self.resource, unix_now())
    }
}

/// RFC 7662 section 2.2 read for this resource: active, within `nbf`..`exp`, and for this
/// audience (RFC 8707; MCP "Token Audience Binding and Validation").
/// `now` is seconds since the epoch with their fraction, so a cached answer ends by `exp`,
/// not up to a second after it.
fn judge(answer: &Json, resource: &str, now: f64) -> Result<(Caller, Option<Duration>), Verdict> {
    if answer.get("active").and_then(Json::as_bool) != Some(true) {
        return Err(Verdict::Invalid("the token is not active"));
    }
    let lifetime = match answer.get("exp").and_then(Json::as_f64) {
        Some(exp) if exp <= now => return Err(Verdict::Invalid("the token has expired")),
        // Whole milliseconds rounded down, at most a year: a cache never needs more, and no
        // float can overflow.
        Some(exp) => Some(Duration::from_millis(
            ((exp - now) * 1000.0).min(31_536_000_000.0) as u64,
        )),
        None => None,
    };
    if let Some(nbf) = answer.get("nbf").and_then(Json::as_f64) {
        if nbf > now {
            return Err(Verdict::Invalid("the token is not valid yet"));
        }
    }
    let names_us = |aud: &Json| aud.as_str().map_or(false, |a| same_resource(a, resource));
    let for_us = match answer.get("aud") {
        Some(Json::Array(list)) => list.iter().any(names_us),
        Some(aud) => names_us(aud),
        None => false,
    };
    if !for_us {
        return Err(Verdict::Invalid(
            "the token was not issued for this resource",
        ));
    }
    let text = |key: &str| answer.get(key).and_then(Json::as_str).map(str::to_string);
    Ok((
        Caller {
            subject: text("sub"),
            scopes: text("scope"),
            client_id: text("client_id"),
        },
        lifetime,
    ))
}

/// Resource URIs compared as RFC 3986 section 6.2.2 lets a plain comparison: scheme and host
/// without regard to case, a trailing slash ignored.
fn same_resource(a: &str, b: &str) -> bool {
    let a = a.trim_end_matches('/');
    let b = b.trim_end_matches('/');
    let (origin_a, path_a) = split_resource(a);
    let (origin_b, path_b) = split_resource(b);
    origin_a.eq_ignore_ascii_case(origin_b) && path_a == path_b
}

/// `https://host:port` and the path (query left out) of a resource URI.
fn split_resource(resource: &str) -> (&str, &str) {
    let authority = resource.find("://").map_or(0, |i| i + 3);
    let end = resource[authority..]
        .find(['/', '?', '#'])
        .map_or(resource.len(), |i| authority + i);
    let path = &resource[end..];
    let path = path.split(['?', '#']).next().unwrap_or("");
    (&resource[..end], path)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    const US: &str = "https://mcp.example.com/mcp";

    fn verdict(answer: &str) -> Result<Option<Duration>, &'static str> {
        match judge(&json::parse(answer).unwrap(), US, 1_000.5) {
            Ok((_, lifetime)) => Ok(lifetime),
            Err(Verdict::Invalid(why)) => Err(why),
            Err(_) => Err("other"),
        }
    }

    #[test]
    fn introspection_answers_are_judged() {
        let aud = r#""aud":"https://mcp.example.com/mcp""#;
        assert_eq!(verdict(&format!(r#"{{"active":true,{}}}"#, aud)), Ok(None));
        assert_eq!(
            verdict(&format!(r#"{{"active":true,"exp":1060,{}}}"#, aud)),
            Ok(Some(Duration::from_millis(59_500)))
        );
        assert_eq!(
            verdict(&format!(r#"{{"active":false,{}}}"#, aud)),
            Err("the token is not active")
        );
        assert_eq!(
            verdict(&format!(r#"{{"active":"true",{}}}"#, aud)),
            Err("the token is not active")
        );
        assert_eq!(
            verdict(&format!(r#"{{"active":true,"exp":1000,{}}}"#, aud)),
            Err("the token has expired")
        );
        assert_eq!(
            verdict(&format!(r#"{{"active":true,"nbf":1001,{}}}"#, aud)),
            Err("the token is not valid yet")
        );
        assert_eq!(
            verdict(r#"{"active":true}"#),
            Err("the token was not issued for this resource")
        );
        assert_eq!(
            verdict(r#"{"active":true,"aud":"https://other.example.com/mcp"}"#),
            Err("the token was not issued for this resource")
        );
        assert_eq!(
            verdict(r#"{"active":true,"aud":["a","HTTPS://MCP.example.com/mcp/"]}"#),
            Ok(None)
        );
        assert_eq!(
            verdict(r#"{"active":true,"aud":"https://mcp.example.com/MCP"}"#),
            Err("the token was not issued for this resource")
        );
    }

    #[test]
    fn metadata_urls_follow_rfc_9728() {
        let at = |resource: &str| OAuth::new(resource, "http://as/introspect").metadata_url();
        assert_eq!(
            at("https://mcp.example.com"),
            "https://mcp.example.com/.well-known/oauth-protected-resource"
        );
        assert_eq!(
            at("https://mcp.example.com/"),
            "https://mcp.example.com/.well-known/oauth-protected-resource"
        );
        assert_eq!(
            at("http://127.0.0.1:8080/tools/mcp"),
            "http://127.0.0.1:8080/.well-known/oauth-protected-resource/tools/mcp"
        );
        let oauth = OAuth::new("https://h/a/mcp", "http://as/introspect");
        assert!(oauth.is_metadata_path(PROTECTED_RESOURCE_METADATA_PATH, "/mcp"));
        assert!(oauth.is_metadata_path("/.well-known/oauth-protected-resource/a/mcp", "/mcp"));
        assert!(oauth.is_metadata_path("/.well-known/oauth-protected-resource/mcp", "/mcp"));
        assert!(!oauth.is_metadata_path("/.well-known/oauth-protected-resource/x", "/mcp"));
    }

    #[test]
    fn challenges_name_the_metadata_and_the_scopes() {
        let oauth = OAuth::new("https://h/mcp", "http://as/introspect");
        assert_eq!(
            oauth.challenge(None),
            "Bearer resource_metadata=\"https://h/.well-known/oauth-protected-resource/mcp\""
        );
        let oauth = oauth.required_scope("tools").required_scope("read");
        assert_eq!(
            oauth.challenge(Some(("invalid_token", "the token has expired"))),
            "Bearer error=\"invalid_token\", error_description=\"the token has expired\", scope=\"tools read\", resource_metadata=\"https://h/.well-known/oauth-protected-resource/mcp\""
        );
    }
}
