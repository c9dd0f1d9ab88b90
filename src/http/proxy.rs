//! Proxies: explicit settings, and the environment read the way curl reads it, only on request.
//!
//! Plain `http` requests go to the proxy in absolute form (RFC 9112 section 3.2.2). `https`
//! through a proxy needs a CONNECT tunnel, which comes with TLS.

use std::fmt;
use std::net::IpAddr;

use super::address::{in_domain, in_network};
use super::credentials::basic_auth;
use super::error::{Error, ErrorKind};
use crate::quote::MASK;
use crate::url::{find_scheme_separator, percent_decode, Host, Scheme, Url};

/// The port curl assumes for a proxy given without one.
const DEFAULT_PROXY_PORT: u16 = 1080;

/// One HTTP proxy: its address and, optionally, credentials sent to it as
/// `Proxy-Authorization: Basic ...`.
#[derive(Clone, PartialEq, Eq)]
pub struct Proxy {
    url: Url,
    authorization: Option<String>,
}

impl Proxy {
    /// A proxy from `http://[user:password@]host[:port]`, or `host[:port]` (as curl reads
    /// it: `http` is assumed, and port 1080 when none is given). User name and password are
    /// percent-decoded.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidProxy`] for another scheme (`https` and SOCKS proxies are not
    /// supported) or an address [`Url::parse`] refuses. The message never shows the
    /// credentials.
    ///
    /// ```
    /// use httptool::http::Proxy;
    /// let proxy = Proxy::new("proxy.internal:3128")?;
    /// assert_eq!(proxy.url().as_str(), "http://proxy.internal:3128/");
    /// assert_eq!(Proxy::new("http://proxy.internal")?.url().port(), Some(1080));
    /// # Ok::<(), httptool::http::Error>(())
    /// ```
    pub fn new(url: &str) -> Result<Proxy, Error> {
        let url = url.trim();
        let (scheme, rest) = match find_scheme_separator(url) {
            Some(i) => (&url[..i], &url[i + 3..]),
            None => ("http", url),
        };
        if !scheme.eq_ignore_ascii_case("http") {
            return Err(invalid("only http:// proxies are supported"));
        }
        let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let authority = &rest[..authority_end];
        let (userinfo, hostport) = match authority.rfind('@') {
            Some(at) => (Some(&authority[..at]), &authority[at + 1..]),
            None => (None, authority),
        };
        let with_port = if has_port(hostport) {
            format!("http://{hostport}/")
        } else {
            format!("http://{hostport}:{DEFAULT_PROXY_PORT}/")
        };
        let parsed = Url::parse(&with_port)
            .map_err(|e| invalid(&format!("the proxy address is not usable: {e}")))?;
        let mut proxy = Proxy {
            url: parsed,
            authorization: None,
        };
        if let Some(info) = userinfo {
            let (user, password) = info.split_once(':').unwrap_or((info, ""));
            let user = String::from_utf8_lossy(&percent_decode(user)).into_owned();
            let password = String::from_utf8_lossy(&percent_decode(password)).into_owned();
            proxy = proxy.basic_auth(&user, &password);
        }
        Ok(proxy)
    }

    /// Sends `Proxy-Authorization: Basic` credentials to the proxy (RFC 7617).
    #[must_use]
    pub fn basic_auth(mut self, user: &str, password: &str) -> Proxy {
        self.authorization = Some(basic_auth(user, password));
        self
    }

    /// The proxy's address, as `http://host:port/`.
    pub fn url(&self) -> &Url {
        &self.url
    }

    pub(crate) fn authorization(&self) -> Option<&str> {
        self.authorization.as_deref()
    }
}

impl fmt::Debug for Proxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Proxy")
            .field("url", &self.url.as_str())
            .field("authorization", &self.authorization.as_ref().map(|_| MASK))
            .finish()
    }
}

fn invalid(detail: &str) -> Error {
    Error::new(ErrorKind::InvalidProxy).with_detail(detail)
}

/// Whether `host[:port]` names a port (an IPv6 address has colons of its own). Bytes, not
/// `str::contains`, whose `char` pattern compiles the substring searcher (build cost, see
/// `design::performance`).
fn has_port(hostport: &str) -> bool {
    let after_address = match hostport.rfind(']') {
        Some(close) => hostport.get(close..).unwrap_or_default(),
        None => hostport,
    };
    after_address.as_bytes().contains(&b':')
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum NoProxyRule {
    /// This name and the names under it.
    Domain(String),
    /// An address or network.
    Net(IpAddr, u8),
}

/// The proxies for `http` and `https` URLs, and the hosts that bypass them.
///
/// ```
/// use httptool::http::{Config, Proxy, ProxyConfig};
/// let proxies = ProxyConfig::all(Proxy::new("http://proxy.internal:3128")?)
///     .no_proxy("localhost, .internal, 10.0.0.0/8");
/// let config = Config::new().proxy(proxies);
/// # drop(config);
/// # Ok::<(), httptool::http::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProxyConfig {
    http: Option<Proxy>,
    https: Option<Proxy>,
    no_proxy_all: bool,
    no_proxy: Vec<NoProxyRule>,
}

impl ProxyConfig {
    /// No proxy. The default.
    pub fn none() -> ProxyConfig {
        ProxyConfig::default()
    }

    /// `proxy` for both `http` and `https` URLs.
    pub fn all(proxy: Proxy) -> ProxyConfig {
        ProxyConfig {
            http: Some(proxy.clone()),
            https: Some(proxy),
            ..ProxyConfig::default()
        }
    }

    /// The proxy for `http` URLs.
    #[must_use]
    pub fn http(mut self, proxy: Option<Proxy>) -> ProxyConfig {
        self.http = proxy;
        self
    }

    /// The proxy for `https` URLs, asked for a `CONNECT` tunnel to the URL's host and port
    /// (with the `tls` feature): it sees neither the request nor its headers.
    #[must_use]
    pub fn https(mut self, proxy: Option<Proxy>) -> ProxyConfig {
        self.https = proxy;
        self
    }

    /// Hosts reached without the proxy, as curl's `NO_PROXY`: a list separated by commas or
    /// spaces of `*` (every host), domain names (the name and every name under it; a leading
    /// dot is ignored), addresses and CIDR networks (`10.0.0.0/8`). Ports are ignored.
    #[must_use]
    pub fn no_proxy(mut self, list: &str) -> ProxyConfig {
        for entry in list.split([',', ' ', '\t']) {
            if entry.is_empty() {
                continue;
            }
            if entry == "*" {
                self.no_proxy_all = true;
            } else if let Some(rule) = no_proxy_rule(entry) {
                self.no_proxy.push(rule);
            }
        }
        self
    }

    /// Reads the proxies from the environment as curl does: `http_proxy` for `http` URLs
    /// (lower-case only: a CGI program gets `HTTP_PROXY` from a request's `Proxy:` header,
    /// the "httpoxy" flaw), `https_proxy` or `HTTPS_PROXY` for `https` URLs, `all_proxy` or
    /// `ALL_PROXY` for both when those are unset, and `no_proxy` or `NO_PROXY`. Empty values
    /// count as unset.
    ///
    /// Nothing in this crate reads the environment unless the caller calls this.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidProxy`] when a variable holds an unusable proxy.
    pub fn from_env() -> Result<ProxyConfig, Error> {
        ProxyConfig::from_vars(|name| std::env::var(name).ok())
    }

    /// As [`from_env`](ProxyConfig::from_env), with the variables looked up by `var`.
    ///
    /// # Errors
    ///
    /// As [`from_env`](ProxyConfig::from_env).
    ///
    /// ```
    /// use httptool::http::ProxyConfig;
    /// let vars = |name: &str| match name {
    ///     "HTTP_PROXY" => Some("http://attacker:1/".to_string()),
    ///     _ => None,
    /// };
    /// assert_eq!(ProxyConfig::from_vars(vars)?, ProxyConfig::none());
    /// # Ok::<(), httptool::http::Error>(())
    /// ```
    pub fn from_vars<F>(var: F) -> Result<ProxyConfig, Error>
    where
        F: Fn(&str) -> Option<String>,
    {
        ProxyConfig::from_lookup(&var)
    }

    /// [`from_vars`](ProxyConfig::from_vars) through a trait object: one compiled copy
    /// whatever the caller's lookup, and plain calls where each closure given to `or_else`
    /// compiled its own (build cost, see `design::performance`).
    fn from_lookup(var: &dyn Fn(&str) -> Option<String>) -> Result<ProxyConfig, Error> {
        let all = first_set(var, &["all_proxy", "ALL_PROXY"]);
        let http = first_set(var, &["http_proxy"]).or(all.clone());
        let https = first_set(var, &["https_proxy", "HTTPS_PROXY"]).or(all);
        let no_proxy = first_set(var, &["no_proxy", "NO_PROXY"]).unwrap_or_default();
        Ok(ProxyConfig::none()
            .http(proxy_from(http)?)
            .https(proxy_from(https)?)
            .no_proxy(&no_proxy))
    }

    /// The proxy a request to `url` goes through, if any.
    pub fn for_url(&self, url: &Url) -> Option<&Proxy> {
        let proxy = match url.scheme() {
            Scheme::Http => self.http.as_ref()?,
            Scheme::Https => self.https.as_ref()?,
        };
        if self.bypasses(url.host()) {
            return None;
        }
        Some(proxy)
    }

    fn bypasses(&self, host: Host<'_>) -> bool {
        if self.no_proxy_all {
            return true;
        }
        // A loop, not a closure given to `any`, which compiled its own copy of the iterator
        // code (build cost, see `design::performance`).
        for rule in &self.no_proxy {
            let bypassed = match (rule, host) {
                (NoProxyRule::Domain(name), Host::Domain(d)) => in_domain(d, name),
                (NoProxyRule::Net(net, len), host) => {
                    host.ip().map_or(false, |ip| in_network(ip, *net, *len))
                }
                _ => false,
            };
            if bypassed {
                return true;
            }
        }
        false
    }
}

/// The value of the first of the variables `names` that is set and not blank.
fn first_set(var: &dyn Fn(&str) -> Option<String>, names: &[&str]) -> Option<String> {
    for name in names {
        if let Some(value) = var(name) {
            if !value.trim().is_empty() {
                return Some(value);
            }
        }
    }
    None
}

/// The proxy a variable's value names, if it is set.
fn proxy_from(value: Option<String>) -> Result<Option<Proxy>, Error> {
    match value {
        Some(url) => Proxy::new(&url).map(Some),
        None => Ok(None),
    }
}

fn no_proxy_rule(entry: &str) -> Option<NoProxyRule> {
    if let Some((ip, len)) = entry.split_once('/') {
        let ip: IpAddr = ip
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse()
            .ok()?;
        // As `str::parse` reads a `u8`: one optional `+`, then digits.
        let len = crate::decimal::parse(len.strip_prefix('+').unwrap_or(len).as_bytes())?;
        return Some(NoProxyRule::Net(ip, u8::try_from(len).ok()?));
    }
    let bare = entry.trim_start_matches('[');
    if let Some(close) = bare.find(']') {
        return Some(NoProxyRule::Net(bare[..close].parse().ok()?, 128));
    }
    if let Ok(ip) = entry.parse::<IpAddr>() {
        let len = if ip.is_ipv4() { 32 } else { 128 };
        return Some(NoProxyRule::Net(ip, len));
    }
    let mut host = entry.split(':').next().unwrap_or(entry);
    // `trim_start_matches("*.")` without the substring searcher it compiles (build cost, see
    // `design::performance`).
    while let Some(rest) = host.strip_prefix("*.") {
        host = rest;
    }
    let host = host.trim_start_matches('.');
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Some(NoProxyRule::Net(ip, 32));
    }
    (!host.is_empty()).then_some(NoProxyRule::Domain(host))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn proxy_urls() {
        let p = Proxy::new("http://user:p%40ss@proxy:3128").unwrap();
        assert_eq!(p.url().as_str(), "http://proxy:3128/");
        assert_eq!(p.authorization(), Some("Basic dXNlcjpwQHNz"));
        assert_eq!(
            format!("{p:?}"),
            r#"Proxy { url: "http://proxy:3128/", authorization: Some("***") }"#
        );
        assert_eq!(
            Proxy::new("[::1]").unwrap().url().as_str(),
            "http://[::1]:1080/"
        );
        assert_eq!(
            Proxy::new("[::1]:8080").unwrap().url().as_str(),
            "http://[::1]:8080/"
        );
        assert_eq!(Proxy::new("HTTP://p:80").unwrap().url().port(), None);
        for bad in [
            "socks5://p:1080",
            "https://p",
            "http://p:99999",
            "http://",
            "http://user@",
        ] {
            let err = Proxy::new(bad).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidProxy, "{bad}");
        }
        let msg = Proxy::new("http://user:s3cret@p:bad")
            .unwrap_err()
            .to_string();
        assert!(!msg.contains("s3cret"), "{msg}");
    }

    #[test]
    fn environment_like_curl() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        let c = ProxyConfig::from_vars(env(&[("HTTP_PROXY", "http://evil:1")])).unwrap();
        assert_eq!(c.for_url(&url("http://a/")), None);
        let c = ProxyConfig::from_vars(env(&[("http_proxy", "p1:1"), ("HTTPS_PROXY", "p2:2")]))
            .unwrap();
        assert_eq!(
            c.for_url(&url("http://a/")).unwrap().url().as_str(),
            "http://p1:1/"
        );
        assert_eq!(
            c.for_url(&url("https://a/")).unwrap().url().as_str(),
            "http://p2:2/"
        );
        let c = ProxyConfig::from_vars(env(&[("ALL_PROXY", "p3:3"), ("http_proxy", "")])).unwrap();
        assert_eq!(
            c.for_url(&url("http://a/")).unwrap().url().as_str(),
            "http://p3:3/"
        );
        let c =
            ProxyConfig::from_vars(env(&[("http_proxy", "p:1"), ("NO_PROXY", "a.com")])).unwrap();
        assert_eq!(c.for_url(&url("http://x.a.com/")), None);
        let c = ProxyConfig::from_vars(env(&[
            ("http_proxy", "p:1"),
            ("no_proxy", "b.com"),
            ("NO_PROXY", "a.com"),
        ]))
        .unwrap();
        assert!(c.for_url(&url("http://a.com/")).is_some());
        assert!(ProxyConfig::from_vars(env(&[("http_proxy", "socks5://p")])).is_err());
    }

    #[test]
    fn no_proxy_rules() {
        let c = ProxyConfig::all(Proxy::new("p:1").unwrap()).no_proxy(
            "localhost, .Internal.,*.corp, 10.0.0.0/8 ::1,[fd00::1],192.168.1.1, host:8080",
        );
        let through = |s: &str| c.for_url(&url(s)).is_some();
        assert!(!through("http://localhost/"));
        assert!(!through("http://internal/"));
        assert!(!through("http://a.b.internal/"));
        assert!(through("http://notinternal/"));
        assert!(!through("http://x.corp/"));
        assert!(!through("http://10.2.3.4/"));
        assert!(through("http://11.2.3.4/"));
        assert!(!through("http://[::1]/"));
        assert!(!through("http://[fd00::1]/"));
        assert!(!through("http://192.168.1.1/"));
        assert!(through("http://192.168.1.2/"));
        assert!(!through("http://host/"));
        assert!(through("http://example.com/"));
        let all = ProxyConfig::all(Proxy::new("p:1").unwrap()).no_proxy("*");
        assert!(all.for_url(&url("http://example.com/")).is_none());
    }

    #[test]
    fn no_proxy_network_lengths_and_wildcards() {
        let net = |len: u8| Some(NoProxyRule::Net("10.0.0.0".parse().unwrap(), len));
        assert_eq!(no_proxy_rule("10.0.0.0/8"), net(8));
        assert_eq!(no_proxy_rule("10.0.0.0/+8"), net(8));
        assert_eq!(no_proxy_rule("10.0.0.0/008"), net(8));
        assert_eq!(no_proxy_rule("10.0.0.0/255"), net(255));
        for refused in [
            "10.0.0.0/256",
            "10.0.0.0/",
            "10.0.0.0/+",
            "10.0.0.0/++8",
            "10.0.0.0/-8",
            "10.0.0.0/ 8",
        ] {
            assert_eq!(no_proxy_rule(refused), None, "{refused}");
        }
        let domain = Some(NoProxyRule::Domain("corp".to_string()));
        assert_eq!(no_proxy_rule("*.*.corp"), domain);
        assert_eq!(no_proxy_rule("*..corp."), domain);
        assert_eq!(no_proxy_rule("*.*."), None);
    }
}
