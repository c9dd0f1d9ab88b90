//! Relative reference resolution, RFC 3986 section 5.2 (used for `Location` headers).

use super::dots::remove_dot_segments;
use super::error::Error;
use super::parse::scheme_len;
use super::Url;

impl Url {
    /// Resolves a reference (such as a `Location` header) against this URL, as RFC 3986
    /// section 5.2 describes. The result is checked like [`Url::parse`] checks its input.
    ///
    /// # Errors
    ///
    /// The reference resolves to something [`Url::parse`] refuses, such as another scheme.
    ///
    /// ```
    /// let base = httptool::url::Url::parse("http://a/b/c/d;p?q")?;
    /// assert_eq!(base.join("../g")?.as_str(), "http://a/b/g");
    /// assert_eq!(base.join("//g/x")?.as_str(), "http://g/x");
    /// # Ok::<(), httptool::url::Error>(())
    /// ```
    pub fn join(&self, reference: &str) -> Result<Url, Error> {
        join(self, reference)
    }
}

/// The five components of a URI reference (RFC 3986 appendix B), fragment left out.
struct Reference<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
}

/// RFC 3986 appendix B: `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`.
fn split(reference: &str) -> Reference<'_> {
    let without_fragment = match reference.find('#') {
        Some(i) => &reference[..i],
        None => reference,
    };
    let mut rest = without_fragment;
    let scheme = match scheme_len(rest) {
        // A valid scheme holds no '/' or '?', as the regex's `[^:/?#]+` requires.
        Some(len) => {
            let s = &rest[..len];
            rest = &rest[len + 1..];
            Some(s)
        }
        None => None,
    };
    let authority = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find(['/', '?']).unwrap_or(after.len());
            rest = &after[end..];
            Some(&after[..end])
        }
        None => None,
    };
    let (path, query) = match rest.find('?') {
        Some(q) => (&rest[..q], Some(&rest[q + 1..])),
        None => (rest, None),
    };
    Reference {
        scheme,
        authority,
        path,
        query,
    }
}

/// RFC 3986 section 5.2.3: merge a relative path with the base path.
fn merge(base: &Url, path: &str) -> String {
    let base_path = base.path();
    let dir = match base_path.rfind('/') {
        Some(i) => &base_path[..=i],
        None => "/",
    };
    let mut merged = String::with_capacity(dir.len() + path.len());
    merged.push_str(dir);
    merged.push_str(path);
    merged
}

/// RFC 3986 section 5.2.2, "transform references", then section 5.3 recomposition and a full
/// parse of the result, so a resolved URL passes every check a parsed one does.
pub(crate) fn join(base: &Url, reference: &str) -> Result<Url, Error> {
    let r = split(reference);
    if r.scheme.is_some() {
        return Url::parse(reference);
    }
    let mut target = String::with_capacity(base.as_str().len() + reference.len());
    target.push_str(base.scheme().as_str());
    target.push_str("://");
    if let Some(authority) = r.authority {
        target.push_str(authority);
        target.push_str(&remove_dot_segments_any(r.path));
        push_query(&mut target, r.query);
        return Url::parse(&target);
    }
    target.push_str(base.authority());
    if r.path.is_empty() {
        target.push_str(base.path());
        push_query(&mut target, r.query.or_else(|| base.query()));
    } else if r.path.starts_with('/') {
        target.push_str(&remove_dot_segments(r.path));
        push_query(&mut target, r.query);
    } else {
        target.push_str(&remove_dot_segments(&merge(base, r.path)));
        push_query(&mut target, r.query);
    }
    Url::parse(&target)
}

fn remove_dot_segments_any(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        remove_dot_segments(path)
    }
}

fn push_query(target: &mut String, query: Option<&str>) {
    if let Some(q) = query {
        target.push('?');
        target.push_str(q);
    }
}
