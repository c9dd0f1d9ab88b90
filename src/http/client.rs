//! The client: a call is a series of hops (redirects), each sent on a pooled or new
//! connection, retried once when the connection failed before any response byte and before
//! the server could have acted on the request.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use super::clock::Clock;
use super::config::{Config, Settings};
use super::conn::{Conn, Origin};
use super::error::{Error, ErrorKind, Limit};
#[cfg(feature = "tls")]
use super::exchange::tunnel;
use super::exchange::{exchange, Failure, Reply};
use super::headers::{always_sensitive, Headers};
use super::method::Method;
use super::net::{self, Target};
use super::pool::Pool;
use super::proxy::Proxy;
use super::redirect::{self, Decision};
use super::request::{forwarding, prepare, render, BodyStream, HeadHook, Request, Secrets};
use super::response::Response;
#[cfg(feature = "tls")]
use super::tls::Connector;
#[cfg(feature = "tls")]
use super::wire::write::write_connect;
use super::wire::write::write_head;
use super::Transport;
use crate::url::{Scheme, Url};

/// An HTTP/1.1 client: keep-alive connections pooled per origin, the limits, timeouts and
/// policies of its [`Config`], and nothing read from the environment.
///
/// Cloning is cheap and shares the pool; a `Client` is `Send + Sync` and meant to be shared
/// by every thread of a program. Requests run in parallel: the pool's lock is held only to
/// take or put back one connection.
///
/// # Security
///
/// Requests leave the machine. Check [`AddressPolicy`](super::AddressPolicy) and
/// [`RedirectPolicy`](super::RedirectPolicy) when URLs come from anything you do not control.
///
/// # Examples
///
/// ```
/// use httptool::http::{Client, Request, Transport};
/// # use std::io::{Read, Write};
/// # let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
/// # let addr = listener.local_addr()?;
/// # let server = std::thread::spawn(move || {
/// #     let (mut s, _) = listener.accept().unwrap();
/// #     let mut buf = [0u8; 1024];
/// #     let _ = s.read(&mut buf).unwrap();
/// #     s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello").unwrap();
/// # });
/// # let url = format!("http://{addr}/greeting");
/// let client = Client::new();
/// let response = client.send(&Request::get(&url)?)?;
/// assert_eq!(response.status(), 200);
/// assert_eq!(response.body(), b"hello");
/// # server.join().unwrap();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    pool: Pool,
    /// The TLS client side, built once from the config's roots.
    #[cfg(feature = "tls")]
    tls: Connector,
}

impl Default for Client {
    fn default() -> Client {
        Client::new()
    }
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("config", &self.inner.config)
            .field("idle_connections", &self.inner.pool.idle_count())
            .finish()
    }
}

impl Client {
    /// A client with the default [`Config`]: nothing is read from the environment.
    pub fn new() -> Client {
        Client::with_config(Config::default())
    }

    /// A client with `config`.
    pub fn with_config(config: Config) -> Client {
        let pool = Pool::new(
            config.max_idle_per_origin,
            config.max_idle_total,
            config.max_idle_age,
        );
        Client {
            inner: Arc::new(Inner {
                #[cfg(feature = "tls")]
                tls: Connector::new(&config.trust),
                config,
                pool,
            }),
        }
    }

    /// The client's settings.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// Idle connections in the pool now.
    pub fn idle_connections(&self) -> usize {
        self.inner.pool.idle_count()
    }

    /// The exact bytes this client would write for `request` (with its `User-Agent`, and in
    /// absolute form through an http proxy; an https request's bytes are those sent inside
    /// the TLS connection, tunnel or not), without sending anything: for dry runs and exports.
    /// With [`Secrets::Mask`], sensitive header values, proxy credentials and secret query
    /// values are `***`.
    ///
    /// The head is built and checked by the same code as a send's, with the same settings
    /// (the client's, overridden by the request's [`RequestOptions`](super::RequestOptions)),
    /// so a dry run refuses exactly what a send would refuse there.
    ///
    /// # Errors
    ///
    /// What sending would refuse before connecting: a header the client writes itself, a
    /// request target over `max_request_target` (the request's own, when its options set
    /// one).
    pub fn render(&self, request: &Request, secrets: Secrets) -> Result<Vec<u8>, Error> {
        render(request, &self.inner.config, secrets)
    }
}

impl Transport for Client {
    fn send(&self, request: &Request) -> Result<Response, Error> {
        let settings = Settings::new(&self.inner.config, request.options());
        let clock = Clock::start(&self.inner.config.time_source, settings.timeouts);
        self.call(request, &settings, &clock)
    }
}

/// One hop of a call: what is sent to one URL.
struct Hop<'r> {
    method: Method,
    url: Cow<'r, Url>,
    headers: Cow<'r, Headers>,
    body: &'r [u8],
    secret_query: &'r [String],
    /// The request's own `Host`, kept while the origin stays the same.
    host: Option<&'r str>,
    on_head: Option<&'r HeadHook>,
    body_stream: Option<&'r Arc<dyn BodyStream>>,
}

impl<'r> Hop<'r> {
    fn first(request: &'r Request) -> Hop<'r> {
        Hop {
            method: request.method(),
            url: Cow::Borrowed(request.url()),
            headers: Cow::Borrowed(request.headers()),
            body: request.body(),
            secret_query: request.secret_query_params(),
            host: request.host(),
            on_head: request.head_hook(),
            body_stream: request.body_stream(),
        }
    }

    /// The hop a redirect leads to (RFC 9110 section 15.4). Leaving the origin drops every
    /// credential: `Authorization`, `Proxy-Authorization`, `Cookie`, headers marked sensitive
    /// and query parameters marked secret. Dropping the body drops the headers describing it.
    fn next(self, mut url: Url, method: Method, keep_body: bool) -> Hop<'r> {
        let mut headers = self.headers;
        let same_origin = self.url.same_origin(&url);
        if !same_origin {
            headers
                .to_mut()
                .retain(|name, sensitive| !sensitive && !always_sensitive(name));
            for name in self.secret_query {
                url.remove_query_pairs(name);
            }
        }
        let body = if keep_body { self.body } else { &[] };
        if !keep_body {
            headers.to_mut().retain(|name, _| !is_content_header(name));
        }
        Hop {
            method,
            url: Cow::Owned(url),
            headers,
            body,
            secret_query: self.secret_query,
            host: if same_origin { self.host } else { None },
            on_head: self.on_head,
            body_stream: self.body_stream,
        }
    }
}

fn is_content_header(name: &str) -> bool {
    name.as_bytes()
        .get(..8)
        .map_or(false, |prefix| prefix.eq_ignore_ascii_case(b"content-"))
}

/// Records a hop about to be left for `next`; errors when that makes too many redirects or
/// comes back to a URL already visited with the same method.
fn record_redirect(
    visited: &mut Vec<(Method, Url)>,
    from: &Hop<'_>,
    next: (Method, &Url),
    max_redirects: u32,
) -> Result<(), Error> {
    visited.push((from.method, from.url.clone().into_owned()));
    if visited.len() > max_redirects as usize {
        let seen = visited.len() as u64;
        return Err(
            Error::limit(Limit::Redirects, max_redirects as usize, seen).with_url(&from.url)
        );
    }
    for (method, url) in visited.iter() {
        if *method == next.0 && url == next.1 {
            return Err(Error::new(ErrorKind::RedirectLoop).with_url(next.1));
        }
    }
    Ok(())
}

impl Client {
    fn call(
        &self,
        request: &Request,
        settings: &Settings<'_>,
        clock: &Clock,
    ) -> Result<Response, Error> {
        let mut hop = Hop::first(request);
        let mut visited: Vec<(Method, Url)> = Vec::new();
        let mut retries = 0;
        loop {
            let response = self
                .send_hop(&hop, settings, clock)
                .map_err(|e| e.with_url(&hop.url))?;
            if let Some(wait) = retry_wait(settings, &hop, &response, retries, clock) {
                clock.sleep(wait);
                retries += 1;
                continue;
            }
            let location = response.header("location");
            let (url, method, keep_body) = match redirect::decide(
                settings.redirect,
                hop.method,
                response.status(),
                location,
                &hop.url,
            ) {
                Decision::NotRedirect => return Ok(response),
                Decision::Stop(stop) => return Ok(response.with_redirect_stop(stop)),
                Decision::Follow {
                    url,
                    method,
                    keep_body,
                } => (url, method, keep_body),
            };
            let max = settings.redirect.max_redirects;
            record_redirect(&mut visited, &hop, (method, &url), max)?;
            hop = hop.next(url, method, keep_body);
        }
    }

    /// Sends one hop: checks, then a pooled or new connection, and one more try on a fresh
    /// connection when an idempotent request's connection failed in a way that says the
    /// server did not act on it (see [`Failure::replayable`]).
    fn send_hop(
        &self,
        hop: &Hop<'_>,
        settings: &Settings<'_>,
        clock: &Clock,
    ) -> Result<Response, Error> {
        let url: &Url = &hop.url;
        if cfg!(not(feature = "tls")) && url.scheme() == Scheme::Https {
            return Err(Error::new(ErrorKind::TlsUnavailable));
        }
        let proxy = self.inner.config.proxy.for_url(url);
        check_policy(settings, url, proxy.is_some())?;
        let forward = forwarding(url, proxy);
        let head = prepare(
            hop.method,
            url,
            hop.host,
            &hop.headers,
            hop.body.len(),
            &self.inner.config,
            &settings.limits,
            forward,
        )?;
        let reuse_ok = !wants_close(&hop.headers);
        let mut retried = false;
        loop {
            // After a failure the pool is not asked again: the retry gets a new connection.
            let mut conn = self.connection(url, proxy, settings, clock, !retried)?;
            conn.wbuf.clear();
            write_head(&mut conn.wbuf, &head, false);
            let sent = exchange(
                &mut conn,
                hop.method,
                hop.body,
                &settings.limits,
                clock,
                hop.on_head,
                hop.body_stream,
            );
            match sent {
                Ok(reply) => return Ok(self.finish(conn, reply, url, reuse_ok, clock)),
                Err(Failure {
                    replayable: true, ..
                }) if hop.method.is_idempotent() && !retried => retried = true,
                Err(failure) => return Err(failure.error),
            }
        }
    }

    fn finish(
        &self,
        conn: Conn,
        reply: Reply,
        url: &Url,
        reuse_ok: bool,
        clock: &Clock,
    ) -> Response {
        if reply.reusable && reuse_ok {
            self.inner.pool.put(conn, clock.now());
        }
        reply.into_response(url.clone())
    }

    /// A pooled connection to the origin (or the proxy) whose address the policy still
    /// accepts (when `pooled` allows one), or a new one. The pool checks every connection
    /// before handing it out: one with bytes waiting, or closed by the server, is dropped.
    ///
    /// The pool's key is the origin the connection speaks HTTP with: an http proxy's own
    /// address (it forwards to any origin), but an https URL's origin, tunnel or not (a
    /// tunnel leads to one origin only).
    fn connection(
        &self,
        url: &Url,
        proxy: Option<&Proxy>,
        settings: &Settings<'_>,
        clock: &Clock,
        pooled: bool,
    ) -> Result<Conn, Error> {
        let (peer_url, policy) = match proxy {
            Some(p) => (p.url(), None),
            None => (url, Some(settings.address)),
        };
        let key = if url.scheme() == Scheme::Https {
            url
        } else {
            peer_url
        };
        if pooled {
            if let Some(conn) = self.inner.pool.take(
                key.scheme(),
                key.host_str(),
                key.port_or_default(),
                clock.now(),
            ) {
                if policy.map_or(true, |p| p.check_ip(conn.peer.ip()).is_ok()) {
                    return Ok(conn);
                }
            }
        }
        let (host, port) = (peer_url.host(), peer_url.port_or_default());
        let (stream, peer) = net::connect(&Target { host, port, policy }, clock)?;
        let origin = Origin {
            scheme: key.scheme(),
            host: key.host_str().to_string(),
            port: key.port_or_default(),
        };
        let conn = Conn::new(stream, peer, origin);
        if url.scheme() == Scheme::Https {
            return self.secure(conn, url, proxy, settings, clock);
        }
        Ok(conn)
    }

    /// Turns a new connection into TLS to `url`'s host: through a `CONNECT` tunnel when
    /// `proxy` is set.
    #[cfg(feature = "tls")]
    fn secure(
        &self,
        mut conn: Conn,
        url: &Url,
        proxy: Option<&Proxy>,
        settings: &Settings<'_>,
        clock: &Clock,
    ) -> Result<Conn, Error> {
        if let Some(proxy) = proxy {
            self.open_tunnel(&mut conn, url, proxy, settings, clock)?;
        }
        conn.into_tls(&self.inner.tls, url.host(), clock)
    }

    #[cfg(not(feature = "tls"))]
    fn secure(
        &self,
        _conn: Conn,
        _url: &Url,
        _proxy: Option<&Proxy>,
        _settings: &Settings<'_>,
        _clock: &Clock,
    ) -> Result<Conn, Error> {
        Err(Error::new(ErrorKind::TlsUnavailable))
    }

    /// Asks the proxy for a tunnel to `url`'s host and port (RFC 9110 section 9.3.6): the
    /// proxy learns the host and port, never the request.
    #[cfg(feature = "tls")]
    fn open_tunnel(
        &self,
        conn: &mut Conn,
        url: &Url,
        proxy: &Proxy,
        settings: &Settings<'_>,
        clock: &Clock,
    ) -> Result<(), Error> {
        let authority = format!("{}:{}", url.host_str(), url.port_or_default());
        let agent = self.inner.config.user_agent.as_deref();
        conn.wbuf.clear();
        write_connect(&mut conn.wbuf, &authority, agent, proxy.authorization());
        match tunnel(conn, &settings.limits, clock)? {
            200..=299 => Ok(()),
            status => Err(Error::new(ErrorKind::TunnelRefused { status }).with_detail(authority)),
        }
    }
}

/// The host allowlist, and what can be checked through a proxy.
fn check_policy(settings: &Settings<'_>, url: &Url, proxied: bool) -> Result<(), Error> {
    let policy = settings.address;
    if !policy.host_allowed(url) {
        return Err(
            Error::new(ErrorKind::HostNotAllowed).with_detail(format!("'{}'", url.host_str()))
        );
    }
    if !proxied {
        return Ok(());
    }
    if policy.is_strict() && !policy.has_host_allowlist() {
        return Err(Error::new(ErrorKind::ProxyNeedsAllowlist));
    }
    // An address written in the URL can still be checked.
    match url.host().ip().map(|ip| (ip, policy.check_ip(ip))) {
        Some((ip, Err(class))) => Err(Error::refused(class, ip, url.host_str())),
        _ => Ok(()),
    }
}

/// `Connection: close` on the request: the connection is not kept.
fn wants_close(headers: &Headers) -> bool {
    // Loops, not closures given to `any`: each compiled its own copy of the iterator code
    // (build cost, see `design::performance`).
    for value in headers.get_all("connection") {
        for option in value.split(',') {
            if option.trim().eq_ignore_ascii_case("close") {
                return true;
            }
        }
    }
    false
}

/// How long to wait before retrying a 429 or 503, when the retry policy says to and the wait
/// ends before the call's deadline.
fn retry_wait(
    settings: &Settings<'_>,
    hop: &Hop<'_>,
    response: &Response,
    retries: u32,
    clock: &Clock,
) -> Option<Duration> {
    if !matches!(response.status(), 429 | 503) {
        return None;
    }
    let now = clock.unix_time().as_secs();
    let wait = settings.retry.wait_for(
        hop.method,
        response.status(),
        response.header("retry-after"),
        retries,
        now,
    )?;
    match clock.remaining() {
        Some(left) if wait >= left => None,
        _ => Some(wait),
    }
}
