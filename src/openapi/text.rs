//! Descriptions capped and joined, and a tool's name from its method and path (the naming
//! rules themselves are the plugin layer's, shared with the other importers).

use crate::plugin::naming;

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

/// `GET /users/{id}/posts` as `get_users_id_posts`.
pub(crate) fn method_path_name(method: &str, path: &str) -> String {
    let mut raw = method.to_ascii_lowercase();
    raw.push(' ');
    raw.push_str(path);
    naming::valid_name(&raw, &method.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_method_and_path() {
        assert_eq!(
            method_path_name("GET", "/users/{id}/posts"),
            "get_users_id_posts"
        );
        assert_eq!(method_path_name("GET", "/"), "get");
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
