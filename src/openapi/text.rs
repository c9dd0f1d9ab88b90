//! Names and descriptions: tool and parameter names valid for every provider
//! (`^[a-zA-Z0-9_-]{1,64}$`), shortened with a stable hash, and capped descriptions.

use crate::tool::MAX_NAME_LEN;

/// `text` cut to at most `max` bytes on a character boundary, with `...` when cut. Bytes,
/// as every size in the crate (`ImportOptions::max_description_bytes`).
pub(crate) fn cap(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.len() <= max {
        return text.to_string();
    }
    let mut cut = max.saturating_sub(3);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}...", text[..cut].trim_end())
}

/// How much of a description is read for its first sentence, in bytes: a sentence longer
/// than this is read to here.
const FIRST_SENTENCE_BYTES: usize = 400;

/// An operation's `summary` and `description` as one text, as sentences: the summary with a
/// full stop when it ends no sentence, a blank line, then the description. One of them alone
/// when the other is empty; the description alone when it says the summary already (starts
/// with it, or its first sentence holds every word of it: `Get component` and `Get metadata
/// on a component by key.`), since the endpoint's `title` keeps the summary whole.
pub(crate) fn join_summary(summary: &str, details: &str) -> String {
    let (summary, details) = (summary.trim(), details.trim());
    if summary.is_empty() {
        return details.to_string();
    }
    if details.is_empty() {
        return summary.to_string();
    }
    // The first sentence as a model reads it: markup out and white space collapsed, so
    // that a paragraph break ends it (`Lists teams.\n\nFor more` is two sentences).
    let clean = crate::tool::trim_description(details, FIRST_SENTENCE_BYTES);
    let first_sentence = crate::tool::plain::first_sentence_end(&clean)
        .map_or(&*clean, |end| clean.get(..end).unwrap_or(&clean));
    if details.starts_with(summary)
        || crate::tool::plain::says_nothing_new(summary, &[first_sentence])
    {
        return details.to_string();
    }
    let stop = if summary.ends_with(['.', '!', '?', ':'].as_ref()) {
        ""
    } else {
        "."
    };
    format!("{}{}\n\n{}", summary, stop, details)
}

/// `name` with every character outside `[a-zA-Z0-9_-]` as `_` (runs of them as one), and no
/// `_` at either end; `None` when nothing is left.
pub(crate) fn sanitize(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    let mut pending = false;
    for c in name.chars() {
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

/// FNV-1a, 32 bits: a short hash that is the same on every machine and every run.
pub(crate) fn stable_hash(text: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in text.as_bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// `name` made to fit `max` characters: kept when it fits, else its first characters, `_`
/// and eight hex digits of the hash of `original` (so two long names that share a prefix stay
/// apart, and the same document always gives the same name).
pub(crate) fn fit(name: &str, original: &str, max: usize) -> String {
    if name.len() <= max {
        return name.to_string();
    }
    let keep = max.saturating_sub(9);
    // `name` is ASCII (sanitized), so byte positions are character positions.
    let head = name.get(..keep).unwrap_or(name).trim_end_matches('_');
    format!("{}_{:08x}", head, stable_hash(original))
}

/// A tool or parameter name: sanitized and fitted to [`MAX_NAME_LEN`]; `fallback` when
/// nothing valid is left.
pub(crate) fn valid_name(name: &str, fallback: &str) -> String {
    let clean = sanitize(name).unwrap_or_else(|| fallback.to_string());
    fit(&clean, name, MAX_NAME_LEN)
}

/// `name`, or `name_2`, `name_3`, ... : the first that `taken` does not hold, fitted to
/// [`MAX_NAME_LEN`].
pub(crate) fn unique(name: &str, taken: &dyn Fn(&str) -> bool) -> String {
    unique_from(name, 2, taken).0
}

/// As [`unique`], trying suffixes from `_{first}` on (the caller knows the ones below are
/// taken); also returns the suffix to try first next time (`first` again when `name` itself
/// was free), so a caller naming many colliding things does not start over at `_2`.
pub(crate) fn unique_from(
    name: &str,
    first: usize,
    taken: &dyn Fn(&str) -> bool,
) -> (String, usize) {
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

/// `GET /users/{id}/posts` as `get_users_id_posts`.
pub(crate) fn method_path_name(method: &str, path: &str) -> String {
    let mut raw = method.to_ascii_lowercase();
    raw.push(' ');
    raw.push_str(path);
    valid_name(&raw, &method.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(sanitize("pets.list").as_deref(), Some("pets_list"));
        assert_eq!(sanitize("  a b//c ").as_deref(), Some("a_b_c"));
        assert_eq!(sanitize("日本"), None);
        assert_eq!(
            method_path_name("GET", "/users/{id}/posts"),
            "get_users_id_posts"
        );
        let long = "x".repeat(80);
        let fitted = valid_name(&long, "op");
        assert_eq!(fitted.len(), 64);
        assert_eq!(
            fitted,
            format!("{}_{:08x}", "x".repeat(55), stable_hash(&long))
        );
        assert_eq!(unique("a", &|n| n == "a" || n == "a_2"), "a_3");
    }

    #[test]
    fn summary_and_description_join_as_sentences() {
        assert_eq!(
            join_summary("Get oEmbed data", "Returns oEmbed data for a file."),
            "Get oEmbed data.\n\nReturns oEmbed data for a file."
        );
        assert_eq!(
            join_summary("Pets!", "All of them."),
            "Pets!\n\nAll of them."
        );
        assert_eq!(join_summary(" List pets ", ""), "List pets");
        assert_eq!(join_summary("", "All pets."), "All pets.");
        // A description that says the summary again stands alone.
        assert_eq!(
            join_summary("List pets", "List pets. Paged."),
            "List pets. Paged."
        );
        assert_eq!(join_summary("List pets", "list pets"), "list pets");
        assert_eq!(
            join_summary(
                "Get component",
                "Get metadata on a component by key. Any key."
            ),
            "Get metadata on a component by key. Any key."
        );
        // A paragraph break ends the first sentence: words after it do not count either.
        assert_eq!(
            join_summary("Get membership", "Members count.\n\nGet it."),
            "Get membership.\n\nMembers count.\n\nGet it."
        );
        // Words past the first sentence do not count.
        assert_eq!(
            join_summary("Get team", "Returns it. The team too."),
            "Get team.\n\nReturns it. The team too."
        );
    }

    #[test]
    fn caps() {
        assert_eq!(cap("short", 10), "short");
        assert_eq!(cap("0123456789abc", 10), "0123456...");
        // Bytes, not characters: `é` is two bytes, `€` three; a cut never splits one.
        assert_eq!(cap("ééééééééééé", 5), "é...");
        assert_eq!(cap("ééé", 6), "ééé");
        assert_eq!(cap("ab€cd", 6), "ab...");
        assert_eq!(cap("0123456789", 10), "0123456789");
    }
}
