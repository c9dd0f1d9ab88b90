//! Secrets a call sent, found again in what the server answered, become `***`
//! ([secrets](crate::design::endpoints#secrets)): a server may echo the key it was given in a
//! body, a reason phrase, a `Location` or a
//! file name, and none of that may reach the model or an observer. Pure.
//!
//! What counts as sent: every sensitive header value (auth of every type, secret static
//! headers, context headers, what a signer added; for `<scheme> <credentials>` values the
//! credentials alone too, and for `Basic` the decoded `user:password` and the password), every
//! secret query value, and the values of hidden parameters filled from the call context or
//! from a `${NAME}` default, or marked secret. Each is looked for as sent, percent-encoded
//! (upper- and lower-case hex, `%20` or `+` for a space) and JSON-escaped.
//!
//! Cost: one linear scan of the text per form of each secret (std's two-way search; a secret
//! that repeats itself within its length, such as `abab`, is scanned with Knuth-Morris-Pratt
//! so overlapping occurrences stay linear too). Occurrences that overlap or touch, of one
//! secret or of several, become one `***`.

use std::borrow::Cow;

use crate::http::{self, Request};
use crate::json::Json;
use crate::plugin::call::args::Values;
use crate::plugin::declare::model::Endpoint;
use crate::quote::MASK;
use crate::tool::CallContext;
use crate::url::{self, EncodeSet};

/// Secrets shorter than this many bytes are not looked for in responses: `***` in place of
/// every `7` or `id` would ruin the text, and a value that short is guessed faster than it is
/// leaked. Every longer secret a call sent is redacted wherever the server echoes it.
pub const MIN_REDACTED_SECRET_BYTES: usize = 4;

/// The secrets one call sent, in every form they are looked for.
#[derive(Clone, Default)]
pub(crate) struct Redactor {
    needles: Vec<Needle>,
}

#[derive(Clone)]
struct Needle {
    text: String,
    /// The Knuth-Morris-Pratt failure function.
    failure: Vec<usize>,
    /// Whether the needle has a period at most half its length: the only kind that can
    /// overlap itself often, so std's search restarted after each match would not be linear.
    periodic: bool,
}

impl Redactor {
    /// The secrets `request` carries, and those the call's values hold.
    pub(crate) fn for_call(
        request: &Request,
        endpoint: &Endpoint,
        values: &Values,
        context: &CallContext,
    ) -> Redactor {
        let mut redactor = Redactor::default();
        for (name, value) in request.headers().iter() {
            if request.headers().is_sensitive(name) {
                redactor.add_header_value(value);
            }
        }
        let secret = request.secret_query_params();
        if !secret.is_empty() {
            for (name, value) in request.url().query_pairs() {
                if secret.contains(&name) {
                    redactor.add(&value);
                }
            }
        }
        for (param, value) in endpoint.params.iter().zip(values) {
            let value = match value {
                Some(value) if is_secret_value(param, context) => value,
                _ => continue,
            };
            redactor.add_json(value);
        }
        redactor
    }

    /// Whether there is nothing to look for.
    pub(crate) fn is_empty(&self) -> bool {
        self.needles.is_empty()
    }

    /// A sensitive header value, and its credentials after an auth scheme (RFC 9110 section
    /// 11.4: `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`).
    pub(crate) fn add_header_value(&mut self, value: &str) {
        self.add(value);
        let (scheme, credentials) = match value.split_once(' ') {
            Some((scheme, rest)) if !scheme.is_empty() => (scheme, rest.trim()),
            _ => return,
        };
        self.add(credentials);
        if !scheme.eq_ignore_ascii_case("basic") {
            return;
        }
        // RFC 7617 section 2: base64 of `user-id ":" password`.
        let decoded = http::base64_decode(credentials).and_then(|b| String::from_utf8(b).ok());
        if let Some(decoded) = decoded {
            self.add(&decoded);
            if let Some((_, password)) = decoded.split_once(':') {
                self.add(password);
            }
        }
    }

    /// The text of every scalar in a parameter's value.
    fn add_json(&mut self, value: &Json) {
        let mut stack = vec![value];
        while let Some(value) = stack.pop() {
            match value {
                Json::String(s) => self.add(s),
                Json::Number(_) | Json::Bool(_) => self.add(&value.to_string()),
                Json::Null => {}
                Json::Array(items) => stack.extend(items),
                Json::Object(map) => stack.extend(map.values()),
            }
        }
    }

    /// One secret, in the forms a server echoes it in.
    pub(crate) fn add(&mut self, secret: &str) {
        if secret.len() < MIN_REDACTED_SECRET_BYTES {
            return;
        }
        let mut forms = vec![secret.to_string()];
        let mut encoded = String::new();
        url::percent_encode_into(&mut encoded, secret, EncodeSet::QueryComponent);
        forms.push(lower_hex(&encoded));
        forms.push(encoded);
        let mut form = String::new();
        url::percent_encode_into(&mut form, secret, EncodeSet::FormComponent);
        forms.push(lower_hex(&form));
        forms.push(form);
        let quoted = Json::from(secret).to_string();
        let escaped = quoted
            .get(1..quoted.len().saturating_sub(1))
            .unwrap_or(secret);
        forms.push(escaped.replace('/', "\\/"));
        forms.push(escaped.to_string());
        for form in forms {
            if !self.needles.iter().any(|n| n.text == form) {
                self.needles.push(Needle::new(form));
            }
        }
    }

    /// `text` with every secret as `***`; borrowed when none is in it.
    pub(crate) fn text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for needle in &self.needles {
            needle.find_all(text, &mut ranges);
        }
        if ranges.is_empty() {
            return Cow::Borrowed(text);
        }
        // Matches of UTF-8 needles in UTF-8 text start and end on char boundaries, so the
        // result is UTF-8.
        let masked = mask(text.as_bytes(), ranges);
        Cow::Owned(
            String::from_utf8(masked)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        )
    }

    /// As [`text`](Redactor::text), for bytes that need not be UTF-8 (a rendered request).
    pub(crate) fn bytes<'a>(&self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for needle in &self.needles {
            needle.find_all_kmp(bytes, &mut ranges);
        }
        if ranges.is_empty() {
            return Cow::Borrowed(bytes);
        }
        Cow::Owned(mask(bytes, ranges))
    }

    /// As [`text`](Redactor::text), in place.
    pub(crate) fn string(&self, text: &mut String) {
        if let Cow::Owned(redacted) = self.text(text) {
            *text = redacted;
        }
    }

    /// Every string in `value`, object keys included, redacted; the structure is kept (two
    /// keys that become the same text keep the last value, as a parser would).
    pub(crate) fn json(&self, value: &mut Json) {
        if self.needles.is_empty() {
            return;
        }
        let mut stack = vec![value];
        while let Some(value) = stack.pop() {
            match value {
                Json::String(s) => self.string(s),
                Json::Array(items) => stack.extend(items.iter_mut()),
                Json::Object(map) => {
                    if map.keys().any(|k| matches!(self.text(k), Cow::Owned(_))) {
                        *map = std::mem::take(map)
                            .into_iter()
                            .map(|(k, v)| (self.text(&k).into_owned(), v))
                            .collect();
                    }
                    stack.extend(map.values_mut());
                }
                Json::Null | Json::Bool(_) | Json::Number(_) => {}
            }
        }
    }
}

/// `bytes` with each range as `***`; overlapping or touching ranges become one mask.
fn mask(bytes: &[u8], mut ranges: Vec<(usize, usize)>) -> Vec<u8> {
    ranges.sort_unstable();
    let mut out = Vec::with_capacity(bytes.len());
    let mut copied = 0;
    let mut ranges = ranges.into_iter().peekable();
    while let Some((start, mut end)) = ranges.next() {
        while let Some(&(next_start, next_end)) = ranges.peek() {
            if next_start > end {
                break;
            }
            end = end.max(next_end);
            ranges.next();
        }
        out.extend_from_slice(bytes.get(copied..start).unwrap_or(b""));
        out.extend_from_slice(MASK.as_bytes());
        copied = end;
    }
    out.extend_from_slice(bytes.get(copied..).unwrap_or(b""));
    out
}

/// Appends `(start, start + len)`, merged with the last range when they overlap.
fn push_range(ranges: &mut Vec<(usize, usize)>, start: usize, len: usize) {
    match ranges.last_mut() {
        Some(last) if last.1 >= start && last.0 <= start => last.1 = last.1.max(start + len),
        _ => ranges.push((start, start + len)),
    }
}

/// Whether a parameter's value is a secret: a secret parameter, or a hidden one filled from
/// the call context or from a default read from the environment. A hidden parameter with a
/// literal default (an API version, say) is not.
fn is_secret_value(param: &crate::plugin::declare::model::Param, context: &CallContext) -> bool {
    if param.is_secret() || (param.is_hidden() && param.default_template.is_some()) {
        return true;
    }
    param.is_hidden()
        && context
            .get(param.context_key())
            .map_or(false, |v| !v.is_empty())
}

/// `%2F` as `%2f`: servers that decode and re-encode pick either case.
fn lower_hex(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len());
    let mut after_percent = 0;
    for c in encoded.chars() {
        if c == '%' {
            after_percent = 2;
            out.push(c);
        } else if after_percent > 0 {
            after_percent -= 1;
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

impl Needle {
    fn new(text: String) -> Needle {
        let failure = failure_function(text.as_bytes());
        let period = text.len() - failure.last().copied().unwrap_or(0);
        let periodic = period * 2 <= text.len();
        Needle {
            text,
            failure,
            periodic,
        }
    }

    /// Appends the range of every occurrence in `haystack`, overlapping ones included, in
    /// order; consecutive overlapping ones as one range.
    fn find_all(&self, haystack: &str, ranges: &mut Vec<(usize, usize)>) {
        if self.periodic {
            return self.find_all_kmp(haystack.as_bytes(), ranges);
        }
        // Two occurrences of a needle with no period at most half its length start more than
        // half its length apart, so restarting after each start stays linear.
        let mut from = 0;
        while let Some(at) = haystack.get(from..).and_then(|rest| rest.find(&self.text)) {
            push_range(ranges, from + at, self.text.len());
            from += at + 1;
            while !haystack.is_char_boundary(from) {
                from += 1;
            }
        }
    }

    /// As [`find_all`](Needle::find_all), with Knuth-Morris-Pratt: one pass, any bytes.
    fn find_all_kmp(&self, haystack: &[u8], ranges: &mut Vec<(usize, usize)>) {
        let needle = self.text.as_bytes();
        let len = needle.len();
        let mut matched = 0;
        for (i, &b) in haystack.iter().enumerate() {
            while matched > 0 && needle.get(matched) != Some(&b) {
                matched = self.failure.get(matched - 1).copied().unwrap_or(0);
            }
            if needle.get(matched) == Some(&b) {
                matched += 1;
            }
            if matched == len {
                push_range(ranges, i + 1 - len, len);
                matched = self.failure.get(matched - 1).copied().unwrap_or(0);
            }
        }
    }
}

/// Knuth-Morris-Pratt: `failure[i]` is the length of the longest proper prefix of
/// `needle[..=i]` that is also its suffix.
fn failure_function(needle: &[u8]) -> Vec<usize> {
    let mut failure = vec![0; needle.len()];
    let mut k = 0;
    for i in 1..needle.len() {
        while k > 0 && needle.get(i) != needle.get(k) {
            k = failure.get(k - 1).copied().unwrap_or(0);
        }
        if needle.get(i) == needle.get(k) {
            k += 1;
        }
        if let Some(slot) = failure.get_mut(i) {
            *slot = k;
        }
    }
    failure
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redactor(secrets: &[&str]) -> Redactor {
        let mut redactor = Redactor::default();
        for secret in secrets {
            redactor.add(secret);
        }
        redactor
    }

    macro_rules! cases {
        ($($name:ident: $secrets:expr, $text:expr => $want:expr;)*) => {$(
            #[test]
            fn $name() {
                assert_eq!(redactor(&$secrets).text($text), $want);
            }
        )*};
    }

    cases! {
        redact_as_sent: ["s3cret"], "key s3cret!" => "key ***!";
        redact_every_occurrence: ["s3cret"], "s3cret,s3cret" => "***,***";
        redact_percent_encoded: ["a b/c+d"], "a%20b%2Fc%2Bd a%20b%2fc%2bd a+b%2Fc%2Bd" => "*** *** ***";
        redact_json_escaped: ["x\"y/zz"], r#"{"k":"x\"y\/zz","j":"x\"y/zz"}"# => r#"{"k":"***","j":"***"}"#;
        redact_overlapping_self: ["abab"], "xababab-abab" => "x***-***";
        redact_overlapping_pair: ["token-1234", "1234-more"], "token-1234-more" => "***";
        redact_contained: ["Bearer tok3n", "tok3n"], "Bearer tok3n and tok3n" => "*** and ***";
        redact_touching: ["aaaa"], "aaaaaaaaa" => "***";
        redact_utf8: ["clé-secrète"], "→clé-secrète←" => "→***←";
        redact_short_secret_is_not_searched: ["abc"], "abc abc" => "abc abc";
        redact_no_match_borrows: ["s3cret"], "nothing here" => "nothing here";
    }

    #[test]
    fn redact_bytes_that_are_not_utf8() {
        let r = redactor(&["s3cret"]);
        assert_eq!(&r.bytes(b"\xff s3cret \xfe")[..], b"\xff *** \xfe");
        assert_eq!(&r.bytes(b"\xff plain")[..], b"\xff plain");
    }

    #[test]
    fn redact_basic_header_value_yields_the_parts() {
        let mut r = Redactor::default();
        r.add_header_value(&http::basic_auth("Aladdin", "open sesame"));
        let text = "QWxhZGRpbjpvcGVuIHNlc2FtZQ== Aladdin:open sesame / open sesame / Aladdin";
        assert_eq!(r.text(text), "*** *** / *** / Aladdin");
    }

    #[test]
    fn redact_json_keys_and_strings_and_keeps_structure() {
        let r = redactor(&["s3cret"]);
        let mut value = crate::json::parse(r#"{"s3cret":{"a":["x s3cret y",1]},"n":2}"#).unwrap();
        r.json(&mut value);
        assert_eq!(value.to_string(), r#"{"***":{"a":["x *** y",1]},"n":2}"#);
    }

    #[test]
    fn redact_periodic_needle_is_linear_on_a_long_run() {
        // 1 MiB of `a` against a needle of 64 `a`s: KMP, one pass.
        let r = redactor(&[&"a".repeat(64)]);
        let text = "a".repeat(1 << 20);
        assert_eq!(r.text(&text), "***");
    }
}
