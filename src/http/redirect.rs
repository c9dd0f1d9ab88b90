//! The redirect policy, and the pure decision of whether and where to follow a 3xx response
//! (RFC 9110 section 15.4).

use super::method::Method;
use crate::url::{Scheme, Url};

/// Redirects followed in one call. Defaults to 5.
pub const DEFAULT_MAX_REDIRECTS: u32 = 5;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Scope {
    None,
    SameOrigin,
    /// Same origin, or one of these hosts (lower-case, no brackets, no trailing dot).
    Hosts(Vec<String>),
    Any,
}

/// Which redirects a call follows.
///
/// Whatever the scope, these rules hold ([redirects](crate::design::endpoints#redirects)):
///
/// - 301, 302 and 303 are followed with `GET` and no body (a `HEAD` stays `HEAD`); 307 and 308
///   keep the method and body, so they are followed only for `GET` and `HEAD`;
/// - never from `https` to `http`;
/// - when the scheme, host or port changes, `Authorization`, `Proxy-Authorization`, `Cookie`,
///   every header marked sensitive, and query parameters marked secret are dropped;
/// - the address policy is checked again on every hop;
/// - a redirect back to a URL already visited is [`ErrorKind::RedirectLoop`], and more than
///   `max_redirects` is [`ErrorKind::LimitExceeded`] with [`Limit::Redirects`].
///
/// A redirect the policy does not follow is not an error: the 3xx response is returned as it
/// is, with [`Response::redirect_stop`] saying why and its `Location` header readable.
///
/// [`ErrorKind::RedirectLoop`]: super::ErrorKind::RedirectLoop
/// [`ErrorKind::LimitExceeded`]: super::ErrorKind::LimitExceeded
/// [`Limit::Redirects`]: super::Limit::Redirects
/// [`Response::redirect_stop`]: super::Response::redirect_stop
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedirectPolicy {
    scope: Scope,
    pub(crate) max_redirects: u32,
}

impl Default for RedirectPolicy {
    /// [`RedirectPolicy::any`] with up to [`DEFAULT_MAX_REDIRECTS`] (5) redirects.
    fn default() -> RedirectPolicy {
        RedirectPolicy::any()
    }
}

impl RedirectPolicy {
    /// Follows no redirect.
    pub fn none() -> RedirectPolicy {
        RedirectPolicy::with_scope(Scope::None)
    }

    /// Follows redirects to the same scheme, host and port only.
    pub fn same_origin() -> RedirectPolicy {
        RedirectPolicy::with_scope(Scope::SameOrigin)
    }

    /// Follows redirects to the same origin, and to these hosts (exact names or addresses,
    /// any port, `https` to `http` still refused): the plugin file's `redirect_hosts`.
    pub fn redirect_hosts<I, S>(hosts: I) -> RedirectPolicy
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let hosts = hosts.into_iter().map(|h| normalize(h.as_ref())).collect();
        RedirectPolicy::with_scope(Scope::Hosts(hosts))
    }

    /// Follows redirects to any origin. The default.
    pub fn any() -> RedirectPolicy {
        RedirectPolicy::with_scope(Scope::Any)
    }

    fn with_scope(scope: Scope) -> RedirectPolicy {
        RedirectPolicy {
            scope,
            max_redirects: DEFAULT_MAX_REDIRECTS,
        }
    }

    /// Redirects followed in one call at most. Defaults to [`DEFAULT_MAX_REDIRECTS`] (5).
    /// Exceeded: [`ErrorKind::LimitExceeded`](super::ErrorKind::LimitExceeded) with
    /// [`Limit::Redirects`](super::Limit::Redirects). With 0 every redirect is that error;
    /// [`RedirectPolicy::none`] returns the 3xx response instead.
    #[must_use]
    pub fn max_redirects(mut self, count: u32) -> RedirectPolicy {
        self.max_redirects = count;
        self
    }
}

fn normalize(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase()
}

/// Why a redirect was not followed; see [`Response::redirect_stop`](super::Response::redirect_stop).
///
/// `#[non_exhaustive]`: new reasons will be added as the policy learns new rules.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedirectStop {
    /// The policy follows no redirects.
    Disabled,
    /// The target is another origin and the policy follows same-origin redirects only.
    CrossOrigin,
    /// The target host is not one the policy lists.
    HostNotAllowed,
    /// From `https` to `http`.
    Downgrade,
    /// A 307 or 308 for a method other than `GET` or `HEAD`: following would send the body
    /// again somewhere else.
    MethodNotRedirectable,
    /// The response has no `Location` header.
    MissingLocation,
    /// The `Location` does not resolve to an `http` or `https` URL this crate accepts.
    InvalidLocation,
}

impl RedirectStop {
    /// A short explanation, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            RedirectStop::Disabled => "redirects are not followed",
            RedirectStop::CrossOrigin => "only same-origin redirects are followed",
            RedirectStop::HostNotAllowed => "the target host is not allowed for redirects",
            RedirectStop::Downgrade => "a redirect from https to http is never followed",
            RedirectStop::MethodNotRedirectable => {
                "a 307 or 308 redirect is followed only for GET and HEAD"
            }
            RedirectStop::MissingLocation => "the redirect has no Location header",
            RedirectStop::InvalidLocation => "the Location header is not a usable http(s) url",
        }
    }
}

/// What to do with a response.
#[derive(Debug)]
pub(crate) enum Decision {
    /// Not a redirect status: the response is final.
    NotRedirect,
    /// A redirect the policy does not follow.
    Stop(RedirectStop),
    /// Follow it: the next URL and method, and whether the body goes along.
    Follow {
        url: Url,
        method: Method,
        keep_body: bool,
    },
}

/// RFC 9110 section 15.4: decides on one response. `location` is its `Location` header.
pub(crate) fn decide(
    policy: &RedirectPolicy,
    method: Method,
    status: u16,
    location: Option<&str>,
    current: &Url,
) -> Decision {
    let keep_body = match status {
        301..=303 => false,
        307 | 308 => true,
        _ => return Decision::NotRedirect,
    };
    if policy.scope == Scope::None {
        return Decision::Stop(RedirectStop::Disabled);
    }
    let location = match location {
        Some(l) => l,
        None => return Decision::Stop(RedirectStop::MissingLocation),
    };
    if keep_body && !matches!(method, Method::Get | Method::Head) {
        return Decision::Stop(RedirectStop::MethodNotRedirectable);
    }
    let url = match current.join(location) {
        Ok(url) => url,
        Err(_) => return Decision::Stop(RedirectStop::InvalidLocation),
    };
    if current.scheme() == Scheme::Https && url.scheme() == Scheme::Http {
        return Decision::Stop(RedirectStop::Downgrade);
    }
    if let Some(stop) = out_of_scope(&policy.scope, current, &url) {
        return Decision::Stop(stop);
    }
    let method = match (keep_body, method) {
        (true, m) | (false, m @ Method::Head) => m,
        (false, _) => Method::Get,
    };
    Decision::Follow {
        url,
        method,
        keep_body,
    }
}

fn out_of_scope(scope: &Scope, current: &Url, next: &Url) -> Option<RedirectStop> {
    if current.same_origin(next) {
        return None;
    }
    match scope {
        Scope::SameOrigin => Some(RedirectStop::CrossOrigin),
        Scope::Hosts(hosts) => {
            let host = normalize(next.host_str());
            (!hosts.contains(&host)).then_some(RedirectStop::HostNotAllowed)
        }
        Scope::Any | Scope::None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn follow(d: Decision) -> (String, Method, bool) {
        match d {
            Decision::Follow {
                url,
                method,
                keep_body,
            } => (url.to_string(), method, keep_body),
            other => panic!("not followed: {other:?}"),
        }
    }

    fn stop(d: Decision) -> RedirectStop {
        match d {
            Decision::Stop(s) => s,
            other => panic!("not stopped: {other:?}"),
        }
    }

    #[test]
    fn statuses() {
        let p = RedirectPolicy::default();
        let base = url("http://h/a/b");
        for status in [200, 300, 304, 305, 306, 309, 404] {
            assert!(matches!(
                decide(&p, Method::Get, status, Some("/x"), &base),
                Decision::NotRedirect
            ));
        }
        for status in [301, 302, 303] {
            let got = follow(decide(&p, Method::Post, status, Some("c"), &base));
            assert_eq!(got, ("http://h/a/c".to_string(), Method::Get, false));
            let got = follow(decide(&p, Method::Head, status, Some("c"), &base));
            assert_eq!(got.1, Method::Head);
        }
        for status in [307, 308] {
            let got = follow(decide(&p, Method::Get, status, Some("/c"), &base));
            assert_eq!(got, ("http://h/c".to_string(), Method::Get, true));
            for m in [Method::Post, Method::Put, Method::Patch, Method::Delete] {
                assert_eq!(
                    stop(decide(&p, m, status, Some("/c"), &base)),
                    RedirectStop::MethodNotRedirectable
                );
            }
        }
    }

    #[test]
    fn policy_scopes() {
        let base = url("https://api.example.com/v1");
        let other = Some("https://cdn.example.net/file");
        let d = |p: &RedirectPolicy, loc| decide(p, Method::Get, 302, loc, &base);
        assert_eq!(
            stop(d(&RedirectPolicy::none(), Some("/x"))),
            RedirectStop::Disabled
        );
        assert_eq!(
            stop(d(&RedirectPolicy::same_origin(), other)),
            RedirectStop::CrossOrigin
        );
        follow(d(&RedirectPolicy::same_origin(), Some("/v2")));
        assert_eq!(
            stop(d(
                &RedirectPolicy::same_origin(),
                Some("https://api.example.com:8443/")
            )),
            RedirectStop::CrossOrigin
        );
        let hosts = RedirectPolicy::redirect_hosts(["CDN.example.net."]);
        follow(d(&hosts, other));
        follow(d(&hosts, Some("/same")));
        assert_eq!(
            stop(d(&hosts, Some("https://evil.example/"))),
            RedirectStop::HostNotAllowed
        );
        follow(d(&RedirectPolicy::any(), other));
    }

    #[test]
    fn refusals() {
        let p = RedirectPolicy::any();
        let base = url("https://h/");
        let d = |loc| decide(&p, Method::Get, 301, loc, &base);
        assert_eq!(stop(d(Some("http://h/"))), RedirectStop::Downgrade);
        assert_eq!(stop(d(None)), RedirectStop::MissingLocation);
        assert_eq!(stop(d(Some("ftp://h/"))), RedirectStop::InvalidLocation);
        assert_eq!(stop(d(Some("//user@h/"))), RedirectStop::InvalidLocation);
        assert_eq!(stop(d(Some("/a b"))), RedirectStop::InvalidLocation);
        // http to https is an upgrade, followed.
        let up = decide(&p, Method::Get, 301, Some("https://h/"), &url("http://h/"));
        assert_eq!(follow(up).0, "https://h/");
    }
}
