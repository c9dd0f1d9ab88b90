//! Access tokens of OAuth 2.0 auth: fetched with a form POST (RFC 6749 sections 4.4.2 and
//! 6), cached per token URL, client and secret, shared by concurrent calls (one fetch per
//! cache key: a mutex and a condition variable per key), renewed before they expire.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::http::{self, Request, RequestOptions, Response};
use crate::json::{self, Json};
use crate::plugin::call::redact::Redactor;
use crate::plugin::declare::oauth::{
    ClientAuth, Grant, OAuth2, RotatedToken, SharedListener, DEFAULT_TOKEN_LIFETIME,
    MAX_CACHED_TOKENS, MAX_TOKEN_RENEW_MARGIN,
};
use crate::plugin::error::quote;
use crate::tool::{CallContext, ErrorKind, ToolOutput};
use crate::url::{self, Host, Scheme, Url};

/// How much of a token endpoint's own text (`error_description`, an unexpected body) a
/// message quotes, in bytes.
const MAX_QUOTED: usize = 200;

/// Every token a plugin holds, by cache key; shared by every clone of the plugin.
#[derive(Default)]
pub(crate) struct TokenCache {
    slots: Mutex<HashMap<Key, Arc<Slot>>>,
}

/// What a token is for: the grant, the token URL, the client, its secret, the refresh token
/// as first given, the scope and the audience. Holds secrets: no `Debug`.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    parts: [String; 7],
}

/// One key's token and the fetch in flight.
#[derive(Default)]
struct Slot {
    state: Mutex<State>,
    done: Condvar,
}

#[derive(Default)]
struct State {
    token: Option<Token>,
    fetching: bool,
    /// Calls waiting for the fetch in flight.
    waiting: usize,
    /// Fetches finished so far; a waiter compares it to know its fetch is over.
    fetches: u64,
    /// The failure of fetch number `.0`, handed to the calls that waited for it.
    failure: Option<(u64, ToolOutput)>,
    /// The current refresh token, once the server rotated it.
    refresh_token: Option<String>,
}

#[derive(Clone)]
struct Token {
    access: String,
    fresh_until: Instant,
    /// The number of the fetch that brought it (set when it is stored): a call that waited
    /// for that fetch uses it however short its lifetime.
    fetch: u64,
}

/// A token for one call.
pub(crate) struct Issued {
    /// The access token.
    pub access: String,
    /// Whether it came from the cache (not fetched for this call).
    pub cached: bool,
    slot: Arc<Slot>,
}

/// The values of one call's OAuth 2.0 auth, resolved from the declaration and the context.
struct Resolved<'a> {
    token_url: &'a str,
    client_id: &'a str,
    client_secret: Option<&'a str>,
    refresh_token: Option<&'a str>,
}

/// What a fetch needs from the tool: how to send, where to tell of rotations.
pub(crate) struct Fetcher<'a> {
    pub send: &'a dyn Fn(&Request, &Redactor) -> Result<Response, http::Error>,
    pub options: &'a RequestOptions,
    pub listener: Option<&'a SharedListener>,
    pub max_output_bytes: usize,
}

/// How long a token with `lifetime` is reused: until less than a tenth of it, and at most
/// [`MAX_TOKEN_RENEW_MARGIN`], remains.
pub(crate) fn reuse_for(lifetime: Duration) -> Duration {
    let margin = (lifetime / 10).min(MAX_TOKEN_RENEW_MARGIN);
    lifetime - margin
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere leaves the state consistent (every change is one assignment).
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Clears `fetching` and wakes the waiters however the fetch ends, a panic included, so no
/// call waits forever.
struct FetchGuard<'a> {
    slot: &'a Slot,
    outcome: Option<Result<Token, ToolOutput>>,
    rotated: Option<String>,
}

impl Drop for FetchGuard<'_> {
    fn drop(&mut self) {
        let mut state = lock(&self.slot.state);
        state.fetching = false;
        state.fetches += 1;
        let number = state.fetches;
        match self.outcome.take() {
            Some(Ok(token)) => {
                state.token = Some(Token {
                    fetch: number,
                    ..token
                });
                state.failure = None;
            }
            Some(Err(output)) => state.failure = Some((number, output)),
            None => {
                state.failure = Some((
                    number,
                    ToolOutput::error(
                        ErrorKind::Internal,
                        "getting an access token failed unexpectedly; this is not caused by the arguments",
                    ),
                ))
            }
        }
        if let Some(refresh) = self.rotated.take() {
            state.refresh_token = Some(refresh);
        }
        self.slot.done.notify_all();
    }
}

impl TokenCache {
    /// A token for a call: the cached one while it is fresh, else one fetch shared by every
    /// call that needs it meanwhile.
    pub(crate) fn token(
        &self,
        auth: &OAuth2,
        context: &CallContext,
        fetcher: &Fetcher<'_>,
    ) -> Result<Issued, ToolOutput> {
        let resolved = resolve(auth, context)?;
        check_token_url(auth, resolved.token_url)?;
        let key = key(auth, &resolved);
        let slot = self.slot(&key);
        let mut state = lock(&slot.state);
        let mut waited_for = None;
        loop {
            if let Some(token) = &state.token {
                // A token fetched while this call waited is its answer, even one that expires
                // at once (`expires_in: 0`): else each waiter would fetch in turn.
                let fetched_for_us = waited_for.map_or(false, |number| token.fetch > number);
                if fetched_for_us || Instant::now() < token.fresh_until {
                    let access = token.access.clone();
                    drop(state);
                    return Ok(Issued {
                        access,
                        cached: waited_for.is_none(),
                        slot,
                    });
                }
            }
            if let (Some(number), Some((failed, output))) = (waited_for, &state.failure) {
                if *failed > number {
                    return Err(output.clone());
                }
            }
            if !state.fetching {
                break;
            }
            waited_for = Some(state.fetches);
            state.waiting += 1;
            state = slot
                .done
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
            state.waiting -= 1;
        }
        state.fetching = true;
        let refresh = state.refresh_token.clone();
        drop(state);
        let mut guard = FetchGuard {
            slot: &slot,
            outcome: None,
            rotated: None,
        };
        let refresh = refresh.as_deref().or(resolved.refresh_token);
        let fetched = fetch(auth, &resolved, refresh, fetcher);
        let result = match fetched {
            Ok((token, rotated)) => {
                if let (Some(new), Some(_)) = (&rotated, resolved.refresh_token) {
                    if let Some(listener) = fetcher.listener {
                        listener.refresh_token_rotated(&RotatedToken {
                            token_url: resolved.token_url,
                            client_id: resolved.client_id,
                            refresh_token: new,
                            context,
                        });
                    }
                    // The host may hand the new token back in the context: same slot.
                    let alias = Resolved {
                        refresh_token: Some(new),
                        ..resolved
                    };
                    lock(&self.slots).insert(self::key(auth, &alias), slot.clone());
                }
                guard.rotated = rotated;
                guard.outcome = Some(Ok(token.clone()));
                Ok(token.access)
            }
            Err(output) => {
                guard.outcome = Some(Err(output.clone()));
                Err(output)
            }
        };
        drop(guard);
        result.map(|access| Issued {
            access,
            cached: false,
            slot,
        })
    }

    /// Drops `issued` from the cache when it is still the cached token (the API refused it),
    /// so the next call fetches a new one.
    pub(crate) fn refused(&self, issued: &Issued) {
        let mut state = lock(&issued.slot.state);
        if state
            .token
            .as_ref()
            .map_or(false, |t| t.access == issued.access)
        {
            state.token = None;
        }
    }

    /// The slot of `key`, made when there is none; past [`MAX_CACHED_TOKENS`], idle slots
    /// are dropped, those without a fresh token first.
    fn slot(&self, key: &Key) -> Arc<Slot> {
        let mut slots = lock(&self.slots);
        if let Some(slot) = slots.get(key) {
            return slot.clone();
        }
        if slots.len() >= MAX_CACHED_TOKENS {
            let now = Instant::now();
            let stale = |slot: &Arc<Slot>| {
                lock(&slot.state)
                    .token
                    .as_ref()
                    .map_or(true, |t| t.fresh_until <= now)
            };
            slots.retain(|_, slot| Arc::strong_count(slot) > 1 || !stale(slot));
            if slots.len() >= MAX_CACHED_TOKENS {
                slots.retain(|_, slot| Arc::strong_count(slot) > 1);
            }
        }
        let slot = Arc::new(Slot::default());
        slots.insert(key.clone(), slot.clone());
        slot
    }
}

fn resolve<'a>(auth: &'a OAuth2, context: &'a CallContext) -> Result<Resolved<'a>, ToolOutput> {
    let get = |value: &'a crate::plugin::declare::model::ConfigValue| {
        value.resolve(context).ok_or_else(|| {
            crate::plugin::call::auth::missing_context(value.context_key().unwrap_or(""))
        })
    };
    Ok(Resolved {
        token_url: get(&auth.token_url)?,
        client_id: get(&auth.client_id)?,
        client_secret: match &auth.client_secret {
            Some(secret) => Some(get(secret)?),
            None => None,
        },
        refresh_token: match &auth.grant {
            Grant::RefreshToken { refresh_token } => Some(get(refresh_token)?),
            Grant::ClientCredentials => None,
        },
    })
}

fn key(auth: &OAuth2, resolved: &Resolved<'_>) -> Key {
    let text = |s: Option<&str>| s.unwrap_or("").to_string();
    Key {
        parts: [
            auth.type_name().to_string(),
            resolved.token_url.to_string(),
            resolved.client_id.to_string(),
            text(resolved.client_secret),
            text(resolved.refresh_token),
            text(auth.scope.as_deref()),
            text(auth.audience.as_deref()),
        ],
    }
}

/// Whether `url` is on a loopback host: `127.0.0.0/8`, `::1` or `localhost`.
pub(crate) fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Host::Ipv4(ip) => ip.is_loopback(),
        Host::Ipv6(ip) => ip.is_loopback(),
        Host::Domain(name) => name.trim_end_matches('.') == "localhost",
    }
}

/// Why a token URL cannot be used, if it cannot: not a URL, not http(s), or http off
/// loopback without `allow_http`. The reason names the URL's origin only.
pub(crate) fn token_url_problem(text: &str, allow_http: bool) -> Option<String> {
    let url = match Url::parse(text) {
        Ok(url) => url,
        Err(e) => return Some(format!("the token url is not a url ({})", e)),
    };
    if url.scheme() == Scheme::Http && !allow_http && !is_loopback(&url) {
        return Some(format!(
            "the token url http://{} is not https and not loopback: the client secret would cross the network in clear (set allow_http to allow it)",
            url.authority()
        ));
    }
    None
}

fn check_token_url(auth: &OAuth2, text: &str) -> Result<(), ToolOutput> {
    match token_url_problem(text, auth.allow_http) {
        None => Ok(()),
        Some(problem) => Err(failure(ErrorKind::AddressRefused, problem)),
    }
}

/// The token request (RFC 6749 sections 4.4.2 and 6), and the secrets it carries.
fn token_request(
    auth: &OAuth2,
    resolved: &Resolved<'_>,
    refresh: Option<&str>,
    options: &RequestOptions,
) -> Result<(Request, Redactor), ToolOutput> {
    let mut pairs: Vec<(&str, &str)> = Vec::with_capacity(6);
    match refresh {
        Some(refresh) => {
            pairs.push(("grant_type", "refresh_token"));
            pairs.push(("refresh_token", refresh));
        }
        None => pairs.push(("grant_type", "client_credentials")),
    }
    if let Some(scope) = &auth.scope {
        pairs.push(("scope", scope));
    }
    if let Some(audience) = &auth.audience {
        pairs.push(("audience", audience));
    }
    let secret = resolved.client_secret;
    let basic = auth.client_auth == ClientAuth::Basic && secret.is_some();
    if !basic {
        // Section 2.3.1 (client_secret_post), or section 3.2.1 for a public client.
        pairs.push(("client_id", resolved.client_id));
        if let Some(secret) = secret {
            pairs.push(("client_secret", secret));
        }
    }
    let mut secrets = Redactor::default();
    secrets.add(resolved.client_secret.unwrap_or(""));
    secrets.add(refresh.unwrap_or(""));
    let url = Url::parse(resolved.token_url).map_err(|e| {
        failure(
            ErrorKind::AddressRefused,
            format_args!("the token url is not a url ({})", e),
        )
    })?;
    let mut request = Request::from_url(http::Method::Post, url);
    let headers = request.headers_mut();
    // Our own values pass the header checks.
    let _ = headers.append("Content-Type", "application/x-www-form-urlencoded");
    let _ = headers.append("Accept", "application/json");
    if basic {
        // Section 2.3.1: the id and the secret are form-urlencoded before Basic's base64.
        let value = http::basic_auth(
            &url::encode_form_component(resolved.client_id),
            &url::encode_form_component(secret.unwrap_or("")),
        );
        if headers.append_sensitive("Authorization", &value).is_err() {
            return Err(internal("the client credentials make no header value"));
        }
        secrets.add_header_value(&value);
    }
    request.set_body(url::form_urlencoded(pairs).into_bytes());
    request.set_options(options.clone());
    Ok((request, secrets))
}

fn internal(what: &str) -> ToolOutput {
    failure(ErrorKind::Internal, what)
}

/// The one message for a token that could not be had: what went wrong, and that the model's
/// arguments are not the cause (so it does not retry with other ones).
fn failure(kind: ErrorKind, what: impl fmt::Display) -> ToolOutput {
    ToolOutput::error(
        kind,
        format!(
            "could not get an access token: {}; this is not caused by the arguments",
            what
        ),
    )
}

/// Fetches a token: the token, and the new refresh token when the server rotated it.
fn fetch(
    auth: &OAuth2,
    resolved: &Resolved<'_>,
    refresh: Option<&str>,
    fetcher: &Fetcher<'_>,
) -> Result<(Token, Option<String>), ToolOutput> {
    let (request, secrets) = token_request(auth, resolved, refresh, fetcher.options)?;
    let start = Instant::now();
    let response = (fetcher.send)(&request, &secrets).map_err(|e| {
        let mut output =
            crate::plugin::call::result::transport_output(&e, fetcher.max_output_bytes);
        let text = format!(
            "could not get an access token from the token endpoint: {}",
            output.text()
        );
        output = ToolOutput::error(output.error_kind().unwrap_or(ErrorKind::Transport), text);
        output
    })?;
    read_token(&response, &secrets, start, refresh)
}

/// A token response (RFC 6749 section 5.1), or its error (section 5.2).
fn read_token(
    response: &Response,
    secrets: &Redactor,
    start: Instant,
    refresh: Option<&str>,
) -> Result<(Token, Option<String>), ToolOutput> {
    let status = response.status();
    let body = json::parse_bytes(response.body()).ok();
    if !(200..300).contains(&status) {
        return Err(endpoint_error(status, body.as_ref(), response, secrets));
    }
    let refused = |what: &str| {
        failure(
            ErrorKind::AuthFailed,
            format_args!(
                "the token endpoint's answer {} (RFC 6749 section 5.1)",
                what
            ),
        )
    };
    let body = body.ok_or_else(|| refused("is not JSON"))?;
    let access = match body.get("access_token").and_then(Json::as_str) {
        Some(token) if !token.is_empty() => token,
        _ => return Err(refused("has no access_token")),
    };
    if access.bytes().any(|b| b.is_ascii_control()) {
        return Err(refused("holds an access_token with a control character"));
    }
    if let Some(kind) = body.get("token_type").and_then(Json::as_str) {
        if !kind.eq_ignore_ascii_case("bearer") {
            return Err(refused(&format!(
                "has token_type {}, and only bearer tokens are supported (RFC 6750)",
                quote(&clean(kind, 32))
            )));
        }
    }
    let lifetime = match body.get("expires_in") {
        None | Some(Json::Null) => DEFAULT_TOKEN_LIFETIME,
        Some(value) => {
            let seconds = value
                .as_u64()
                .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()));
            match seconds {
                Some(seconds) => Duration::from_secs(seconds.min(u64::from(u32::MAX))),
                None => return Err(refused("has an expires_in that is not a number of seconds")),
            }
        }
    };
    // The lifetime counts from the request: the server started it no earlier.
    let token = Token {
        access: access.to_string(),
        fresh_until: start + reuse_for(lifetime),
        fetch: 0,
    };
    let rotated = body
        .get("refresh_token")
        .and_then(Json::as_str)
        .filter(|new| !new.is_empty() && Some(*new) != refresh && refresh.is_some())
        .map(str::to_string);
    Ok((token, rotated))
}

/// What a standard error code means (RFC 6749 section 5.2).
fn meaning(code: &str) -> Option<&'static str> {
    Some(match code {
        "invalid_request" => "the token request is malformed or lacks a parameter",
        "invalid_client" => "client authentication failed: an unknown client, a wrong secret, or a client authentication method the server does not accept",
        "invalid_grant" => "the grant was refused: the refresh token is invalid, expired, revoked or issued to another client",
        "unauthorized_client" => "this client may not use this grant type",
        "unsupported_grant_type" => "the server does not support this grant type",
        "invalid_scope" => "the scope asked for is invalid, unknown, or more than the client may have",
        _ => return None,
    })
}

fn endpoint_error(
    status: u16,
    body: Option<&Json>,
    response: &Response,
    secrets: &Redactor,
) -> ToolOutput {
    let code = body.and_then(|b| b.get("error")).and_then(Json::as_str);
    let message = match code {
        Some(code) => {
            let code = clean(&secrets.text(code), 64);
            let mut message = format!(
                "the token endpoint answered HTTP {} with OAuth error {}",
                status,
                quote(&code)
            );
            if let Some(meaning) = meaning(&code) {
                message.push_str(" (");
                message.push_str(meaning);
                message.push(')');
            }
            let description = body
                .and_then(|b| b.get("error_description"))
                .and_then(Json::as_str);
            if let Some(description) = description {
                message.push_str(": ");
                message.push_str(&clean(&secrets.text(description), MAX_QUOTED));
            }
            message
        }
        None => {
            let text = String::from_utf8_lossy(response.body());
            let text = clean(&secrets.text(&text), MAX_QUOTED);
            let mut message = format!(
                "the token endpoint answered HTTP {} without an OAuth error",
                status
            );
            if !text.is_empty() {
                message.push_str(": ");
                message.push_str(&text);
            }
            message
        }
    };
    failure(ErrorKind::AuthFailed, message).with_status(status)
}

/// `text` on one line, control characters as spaces, at most `max` bytes (on a char
/// boundary), with `...` when cut.
fn clean(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max + 3));
    for c in text.trim().chars() {
        if out.len() + c.len_utf8() > max {
            out.push_str("...");
            break;
        }
        out.push(if c.is_control() { ' ' } else { c });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_renewed_at_a_tenth_of_their_life_and_at_most_30_s_early() {
        let s = Duration::from_secs;
        assert_eq!(reuse_for(s(100)), s(90));
        assert_eq!(reuse_for(s(3600)), s(3570));
        assert_eq!(reuse_for(s(300)), s(270));
        assert_eq!(reuse_for(s(0)), s(0));
        assert_eq!(reuse_for(s(1)), Duration::from_millis(900));
    }

    #[test]
    fn token_urls_must_be_https_unless_loopback_or_allowed() {
        assert_eq!(
            token_url_problem("https://login.example.com/token", false),
            None
        );
        assert_eq!(
            token_url_problem("http://127.0.0.1:8080/token", false),
            None
        );
        assert_eq!(token_url_problem("http://[::1]/token", false), None);
        assert_eq!(token_url_problem("http://localhost/token", false), None);
        assert_eq!(token_url_problem("http://login.example.com/t", true), None);
        assert_eq!(
            token_url_problem("http://login.example.com/t?x=1", false).unwrap(),
            "the token url http://login.example.com is not https and not loopback: the client secret would cross the network in clear (set allow_http to allow it)"
        );
        assert!(token_url_problem("not a url", false).is_some());
    }

    #[test]
    fn client_secret_basic_form_encodes_id_and_secret_first() {
        // RFC 6749 section 2.3.1: `a b:c` and `p&q=r+s` are form-urlencoded, then joined.
        let auth = OAuth2::client_credentials("https://a.example/token", "a b:c", "p&q=r+s");
        let resolved = Resolved {
            token_url: "https://a.example/token",
            client_id: "a b:c",
            client_secret: Some("p&q=r+s"),
            refresh_token: None,
        };
        let (request, _) = token_request(&auth, &resolved, None, &RequestOptions::new()).unwrap();
        assert_eq!(
            request.headers().get("authorization"),
            Some(http::basic_auth("a+b%3Ac", "p%26q%3Dr%2Bs").as_str())
        );
        assert_eq!(request.body(), b"grant_type=client_credentials");
    }

    /// Four calls at once for one key: the first fetches, the other three wait (the test
    /// sees them waiting before the token endpoint answers), and all get its outcome.
    fn four_calls_during_one_fetch(
        status: u16,
        body: &'static str,
    ) -> (usize, Vec<Result<Issued, ToolOutput>>) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::mpsc;
        let auth = OAuth2::client_credentials("http://127.0.0.1:9/token", "id", "secret");
        let cache = TokenCache::default();
        let (go, gate) = mpsc::channel::<()>();
        let gate = Mutex::new(gate);
        let fetches = AtomicUsize::new(0);
        let send = |request: &Request, _: &Redactor| {
            fetches.fetch_add(1, Ordering::SeqCst);
            let _ = lock(&gate).recv();
            Ok(Response::new(status, request.url().clone()).with_body(body.as_bytes().to_vec()))
        };
        let options = RequestOptions::new();
        let results = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        let fetcher = Fetcher {
                            send: &send,
                            options: &options,
                            listener: None,
                            max_output_bytes: 1024,
                        };
                        cache.token(&auth, &CallContext::new(), &fetcher)
                    })
                })
                .collect();
            // A guard, not a timing: a broken cache fails the asserts below instead of
            // hanging the test.
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                let slot = lock(&cache.slots).values().next().cloned();
                let ready = slot.map_or(false, |slot| {
                    let state = lock(&slot.state);
                    state.fetching && state.waiting == 3
                });
                if ready {
                    break;
                }
                std::thread::yield_now();
            }
            go.send(()).unwrap();
            drop(go);
            threads
                .into_iter()
                .map(|t| t.join().unwrap())
                .collect::<Vec<_>>()
        });
        (fetches.load(Ordering::SeqCst), results)
    }

    #[test]
    fn calls_during_a_fetch_wait_for_it_and_share_its_token() {
        let (fetches, results) =
            four_calls_during_one_fetch(200, r#"{"access_token":"tok","token_type":"bearer"}"#);
        assert_eq!(fetches, 1);
        for result in results {
            let issued = result.ok().unwrap();
            assert_eq!((issued.access.as_str(), issued.cached), ("tok", false));
        }
    }

    #[test]
    fn calls_during_a_failed_fetch_share_its_error() {
        let (fetches, results) = four_calls_during_one_fetch(401, r#"{"error":"invalid_client"}"#);
        assert_eq!(fetches, 1);
        for result in results {
            let output = result.err().unwrap();
            assert_eq!(output.error_kind(), Some(ErrorKind::AuthFailed));
            assert!(
                output.text().contains("'invalid_client'"),
                "{}",
                output.text()
            );
        }
    }

    #[test]
    fn the_cache_keeps_at_most_max_cached_tokens_idle_slots() {
        let cache = TokenCache::default();
        let key = |n: usize| Key {
            parts: [0, 1, 2, 3, 4, 5, 6].map(|i| format!("{}-{}", i, n)),
        };
        let busy = cache.slot(&key(0));
        for n in 1..=MAX_CACHED_TOKENS + 10 {
            drop(cache.slot(&key(n)));
        }
        let slots = lock(&cache.slots);
        assert!(slots.len() <= MAX_CACHED_TOKENS, "{}", slots.len());
        // A slot a call holds is never dropped.
        assert!(Arc::ptr_eq(slots.get(&key(0)).unwrap(), &busy));
    }

    #[test]
    fn clean_cuts_on_a_char_boundary_and_flattens_lines() {
        assert_eq!(clean("a\r\nb", 10), "a  b");
        assert_eq!(clean("ééé", 4), "éé...");
    }
}
