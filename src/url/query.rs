//! Query strings: reading pairs, appending them, removing them, and masking secret values.
//!
//! Names and values are appended with [`EncodeSet::QueryComponent`] (a space as `%20`) and read
//! back with form decoding (`+` as a space too), which reads both conventions.

use super::encode::{form_decode, percent_encode_into, EncodeSet};
use super::Url;
use crate::quote::MASK;

/// Iterator over the decoded `(name, value)` pairs of a query, from [`Url::query_pairs`].
///
/// Empty pieces (`a=1&&b=2`) are skipped; a piece without `=` has an empty value. Bytes that
/// do not decode to UTF-8 are replaced with U+FFFD.
#[derive(Clone, Debug)]
pub struct QueryPairs<'a> {
    rest: Option<&'a str>,
}

impl Iterator for QueryPairs<'_> {
    type Item = (String, String);

    fn next(&mut self) -> Option<(String, String)> {
        loop {
            let rest = self.rest?;
            let (piece, tail) = match rest.find('&') {
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            self.rest = tail;
            if piece.is_empty() {
                continue;
            }
            let (name, value) = split_pair(piece);
            return Some((decode_lossy(name), decode_lossy(value)));
        }
    }
}

fn split_pair(piece: &str) -> (&str, &str) {
    match piece.find('=') {
        Some(i) => (&piece[..i], &piece[i + 1..]),
        None => (piece, ""),
    }
}

fn decode_lossy(s: &str) -> String {
    String::from_utf8_lossy(&form_decode(s)).into_owned()
}

impl Url {
    /// The decoded `(name, value)` pairs of the query, in order.
    ///
    /// ```
    /// let url = httptool::url::Url::parse("http://h/?q=a%20b&x=1+2&flag")?;
    /// let pairs: Vec<_> = url.query_pairs().collect();
    /// assert_eq!(pairs[0], ("q".to_string(), "a b".to_string()));
    /// assert_eq!(pairs[1], ("x".to_string(), "1 2".to_string()));
    /// assert_eq!(pairs[2], ("flag".to_string(), String::new()));
    /// # Ok::<(), httptool::url::Error>(())
    /// ```
    pub fn query_pairs(&self) -> QueryPairs<'_> {
        QueryPairs { rest: self.query() }
    }

    /// Appends `name=value` to the query, both encoded with [`EncodeSet::QueryComponent`]
    /// (everything but the unreserved characters, a space as `%20`): the query-string builder.
    ///
    /// ```
    /// let mut url = httptool::url::Url::parse("https://api.example.com/search")?;
    /// url.append_query_pair("q", "a&b c");
    /// url.append_query_pair("page", "2");
    /// assert_eq!(url.as_str(), "https://api.example.com/search?q=a%26b%20c&page=2");
    /// # Ok::<(), httptool::url::Error>(())
    /// ```
    pub fn append_query_pair(&mut self, name: &str, value: &str) {
        match self.query_start {
            None => {
                self.query_start = Some(self.text.len());
                self.text.push('?');
            }
            Some(q) if q + 1 == self.text.len() => {}
            Some(_) => self.text.push('&'),
        }
        percent_encode_into(&mut self.text, name, EncodeSet::QueryComponent);
        self.text.push('=');
        percent_encode_into(&mut self.text, value, EncodeSet::QueryComponent);
    }

    /// Removes every pair whose decoded name is `name`; returns how many were removed. The
    /// other pieces of the query are kept as they were written; an emptied query is removed.
    pub fn remove_query_pairs(&mut self, name: &str) -> usize {
        let q = match self.query_start {
            Some(q) => q,
            None => return 0,
        };
        let mut kept = String::new();
        let mut removed = 0;
        for piece in self.text[q + 1..].split('&') {
            if !piece.is_empty() && decode_lossy(split_pair(piece).0) == name {
                removed += 1;
                continue;
            }
            if !kept.is_empty() {
                kept.push('&');
            }
            kept.push_str(piece);
        }
        if removed == 0 {
            return 0;
        }
        self.text.truncate(q);
        if kept.is_empty() {
            self.query_start = None;
        } else {
            self.text.push('?');
            self.text.push_str(&kept);
        }
        removed
    }

    /// The whole URL with the value of every query pair whose decoded name is in
    /// `secret_names` replaced by `***`: for logs, dry runs and `Debug` output.
    ///
    /// ```
    /// let url = httptool::url::Url::parse("https://h/p?q=x&api_key=s3cret")?;
    /// assert_eq!(url.redacted(&["api_key"]), "https://h/p?q=x&api_key=***");
    /// # Ok::<(), httptool::url::Error>(())
    /// ```
    pub fn redacted<S: AsRef<str>>(&self, secret_names: &[S]) -> String {
        let q = match self.query_start {
            Some(q) if !secret_names.is_empty() => q,
            _ => return self.text.clone(),
        };
        let mut out = String::with_capacity(self.text.len());
        out.push_str(&self.text[..=q]);
        for (i, piece) in self.text[q + 1..].split('&').enumerate() {
            if i > 0 {
                out.push('&');
            }
            let name = split_pair(piece).0;
            let decoded = decode_lossy(name);
            if !piece.is_empty() && secret_names.iter().any(|s| s.as_ref() == decoded) {
                out.push_str(name);
                out.push('=');
                out.push_str(MASK);
            } else {
                out.push_str(piece);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::Url;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn append_to_empty_query() {
        let mut u = url("http://h/p?");
        u.append_query_pair("a", "1");
        assert_eq!(u.as_str(), "http://h/p?a=1");
        assert_eq!(u.query(), Some("a=1"));
    }

    #[test]
    fn remove_pairs() {
        let mut u = url("http://h/p?a=1&key=x&b=2&k%65y=y");
        assert_eq!(u.remove_query_pairs("key"), 2);
        assert_eq!(u.as_str(), "http://h/p?a=1&b=2");
        let mut u = url("http://h/p?key=x");
        assert_eq!(u.remove_query_pairs("key"), 1);
        assert_eq!(u.as_str(), "http://h/p");
        assert_eq!(u.query(), None);
        assert_eq!(u.remove_query_pairs("key"), 0);
    }

    #[test]
    fn redact_matches_decoded_names_and_keeps_others() {
        let u = url("http://h/p?api%5Fkey=1&x=2&api_key&&token=3");
        assert_eq!(
            u.redacted(&["api_key", "token"]),
            "http://h/p?api%5Fkey=***&x=2&api_key=***&&token=***"
        );
        let none: [&str; 0] = [];
        assert_eq!(u.redacted(&none), u.as_str());
    }
}
