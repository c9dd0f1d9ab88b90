//! The names an importer gives: tool and parameter names every provider accepts
//! (`^[a-zA-Z0-9_-]{1,64}$`), made unique, and environment variable names. The curl, HAR,
//! Postman and OpenAPI importers all name through here, so one input gives one name
//! whichever importer read it.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::hash::fnv1a;
use crate::tool::MAX_NAME_LEN;

/// A tool or parameter name from any text: every run of characters outside `[a-zA-Z0-9_-]`
/// becomes one `_`, with no `_` at either end (`filter[name]` is `filter_name`, `$top`
/// `top`), made to fit [`MAX_NAME_LEN`] by [`fit`]; `fallback` when nothing is left.
pub(crate) fn valid_name(text: &str, fallback: &str) -> String {
    let clean = sanitize(text).unwrap_or_else(|| fallback.to_string());
    fit(&clean, text, MAX_NAME_LEN)
}

/// `text` with every run of characters outside `[a-zA-Z0-9_-]` as one `_`, and no `_` at
/// either end; `None` when nothing is left.
fn sanitize(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut pending = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            if pending && !out.is_empty() {
                out.push('_');
            }
            pending = false;
            out.push(c);
        } else {
            pending = true;
        }
    }
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        None
    } else {
        Some(trimmed.to_string())
    }
}

/// `name` (ASCII, as [`valid_name`] makes it) made to fit `max` bytes: kept when it fits,
/// else its first characters, `_` and eight hex digits of a hash of `original`, so two long
/// names that share a prefix stay apart and the same input always gives the same name.
pub(crate) fn fit(name: &str, original: &str, max: usize) -> String {
    if name.len() <= max {
        return name.to_string();
    }
    let keep = max.saturating_sub(9);
    let head = name.get(..keep).unwrap_or(name).trim_end_matches('_');
    format!("{}_{:08x}", head, fnv1a(original.as_bytes()) as u32)
}

/// `name`, or `name_2`, `name_3`, ...: the first that `taken` does not hold, fitted to
/// [`MAX_NAME_LEN`]. [`Names`] does the same for many names in linear time.
pub(crate) fn unique(name: &str, taken: &dyn Fn(&str) -> bool) -> String {
    unique_from(name, 2, taken).0
}

/// As [`unique`], trying suffixes from `_{first}` on (the caller knows the ones below are
/// taken); also returns the suffix to try first next time (`first` again when `name` itself
/// was free).
fn unique_from(name: &str, first: usize, taken: &dyn Fn(&str) -> bool) -> (String, usize) {
    if !taken(name) {
        return (name.to_string(), first);
    }
    let mut n = first.max(2);
    loop {
        let suffix = format!("_{}", n);
        let head_len = MAX_NAME_LEN.saturating_sub(suffix.len()).min(name.len());
        let candidate = format!("{}{}", name.get(..head_len).unwrap_or(name), suffix);
        if !taken(&candidate) {
            return (candidate, n + 1);
        }
        n += 1;
    }
}

/// The names taken so far, found through a set, and per name asked for the suffix its last
/// collision got: 10,000 parameters (or 10,000 operations sharing one `operationId`) are
/// named in linear time, where scanning a list, or trying `_2` again each time, was
/// quadratic.
#[derive(Default)]
pub(crate) struct Names {
    taken: HashSet<String>,
    /// Behind a `RefCell` so naming needs no `&mut` (the converters name parameters from
    /// `&self` methods); only this type touches it, never across a call out.
    next: RefCell<HashMap<String, usize>>,
}

impl Names {
    /// `name`, or `name_2`, `name_3`, ...: the first not taken, as [`unique`]. The name is
    /// not marked taken: [`Names::take`] does that.
    pub(crate) fn unique(&self, name: &str) -> String {
        let first = self.next.borrow().get(name).copied().unwrap_or(2);
        let taken = &self.taken;
        let (found, suffix) = unique_from(name, first, &|n| taken.contains(n));
        // Every suffix below `suffix` was taken when tried, and names are never given back.
        self.next.borrow_mut().insert(name.to_string(), suffix);
        found
    }

    /// Marks `name` taken.
    pub(crate) fn take(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }

    /// Whether `name` is taken.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.taken.contains(name)
    }
}

/// An environment variable name: the parts given, each in upper case with every run of
/// characters outside `A-Z 0-9` as one `_` and none at either end, joined by `_`, empty parts
/// left out (`github` and `X-Api-Key` give `GITHUB_X_API_KEY`, `-x` and `key` `X_KEY`). It
/// starts with a letter (`API_` is put first when it would not) and is never cut, so two
/// long names never become one.
pub(crate) fn env_name(parts: &[&str]) -> String {
    let mut out = String::new();
    for part in parts {
        let before = out.len();
        if before > 0 {
            out.push('_');
        }
        if !push_upper_snake(&mut out, part) {
            out.truncate(before);
        }
    }
    match out.bytes().next() {
        Some(b) if b.is_ascii_alphabetic() => out,
        _ if out.is_empty() => "API".to_string(),
        _ => format!("API_{}", out),
    }
}

/// Appends `text` in upper case, each run of characters outside `A-Z 0-9` as one `_` and
/// none at either end (so a separator the caller writes between parts is never doubled by a
/// part); whether anything was appended.
pub(crate) fn push_upper_snake(out: &mut String, text: &str) -> bool {
    let start = out.len();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_uppercase());
        } else if out.len() > start && !out.ends_with('_') {
            out.push('_');
        }
    }
    while out.len() > start && out.ends_with('_') {
        out.pop();
    }
    out.len() > start
}

#[cfg(test)]
mod tests {
    use super::*;

    cases!(valid_name {
        kept: "city" => "city";
        dash_kept: "per-page" => "per-page";
        brackets: "filter[name]" => "filter_name";
        dots: "user.email" => "user_email";
        dollar: "$top" => "top";
        spaces_and_slashes: "  a b//c " => "a_b_c";
        underscores_kept: "user__id" => "user__id";
        non_ascii: "città" => "citt";
        nothing_left: "[]" => "param";
        only_non_ascii: "日本" => "param";
        long_fitted: &"x".repeat(80) =>
            format!("{}_{:08x}", "x".repeat(55), fnv1a("x".repeat(80).as_bytes()) as u32);
    });

    fn valid_name(text: &str) -> String {
        super::valid_name(text, "param")
    }

    #[test]
    fn long_names_that_share_a_prefix_stay_apart() {
        let (a, b) = (
            format!("{}a", "p".repeat(70)),
            format!("{}b", "p".repeat(70)),
        );
        let (a, b) = (super::valid_name(&a, "p"), super::valid_name(&b, "p"));
        assert_eq!(a.len(), MAX_NAME_LEN);
        assert_ne!(a, b);
    }

    #[test]
    fn unique_names() {
        assert_eq!(unique("a", &|n| n == "a" || n == "a_2"), "a_3");
        assert_eq!(unique("b", &|n| n == "a"), "b");
        let long = "x".repeat(64);
        let named = unique(&long, &|n| n == long);
        assert_eq!(named, format!("{}_2", "x".repeat(62)));

        let mut names = Names::default();
        for _ in 0..3 {
            let name = names.unique("id");
            names.take(&name);
        }
        assert!(names.contains("id") && names.contains("id_2") && names.contains("id_3"));
        assert_eq!(names.unique("id"), "id_4");
    }

    cases!(env_name {
        env_header: &["github", "X-Api-Key"] => "GITHUB_X_API_KEY";
        env_token: &["open-ai", "token"] => "OPEN_AI_TOKEN";
        env_digit_start: &["9gag", "key"] => "API_9GAG_KEY";
        env_dash_prefix: &["-x", "key"] => "X_KEY";
        env_empty_prefix: &["", "apiKey"] => "APIKEY";
        env_nothing: &["", "!"] => "API";
    });

    #[test]
    fn env_names_are_never_cut() {
        let prefix = "p".repeat(70);
        let (a, b) = (env_name(&[&prefix, "a"]), env_name(&[&prefix, "b"]));
        assert!(a.ends_with("_A") && b.ends_with("_B"));
    }
}
