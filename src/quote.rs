//! Quoting a name or value for a message: one rule for the errors of every layer, so a
//! model's or a file's odd input can neither make a message huge nor break the line it is
//! logged on.

/// What stands for a hidden value (a secret, a credential's header or query value) in every
/// layer's messages, logs, dry runs and `Debug` output: one spelling, so a reader or a test
/// looking for it finds every place.
pub(crate) const MASK: &str = "***";

/// The most characters of a text a message shows; the rest becomes `...`.
pub(crate) const MAX_QUOTED_CHARS: usize = 64;

/// `text` between single quotes: at most [`MAX_QUOTED_CHARS`] characters, then `...`, and
/// every control character (C0, DEL, C1) escaped as Rust writes it (`\n`, `\u{85}`).
pub(crate) fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len().min(MAX_QUOTED_CHARS) + 5);
    quoted.push('\'');
    push_excerpt(&mut quoted, text);
    quoted.push('\'');
    quoted
}

/// `text` as [`quote`] shows it, without the quotes: for text that carries its own (compact
/// JSON, where a string is already in double quotes) or sits between backticks.
pub(crate) fn excerpt(text: &str) -> String {
    let mut shown = String::with_capacity(text.len().min(MAX_QUOTED_CHARS) + 3);
    push_excerpt(&mut shown, text);
    shown
}

fn push_excerpt(out: &mut String, text: &str) {
    for (index, c) in text.chars().enumerate() {
        if index == MAX_QUOTED_CHARS {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
}

/// `text` with every control character escaped as [`quote`] escapes it, whole: for a path or
/// a JSON Pointer built from keys a file or document wrote, so that none can break the line
/// a message is logged on.
pub(crate) fn escape_controls(text: String) -> String {
    if !text.chars().any(char::is_control) {
        return text;
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            escaped.extend(c.escape_default());
        } else {
            escaped.push(c);
        }
    }
    escaped
}

/// Writes `parts` one after the other into a message. The long `Display` impls (`http::Error`,
/// `curl::Error`) are built from pieces rather than a `write!` each: one small loop instead of
/// an argument list per arm keeps them from being the largest functions their layer compiles
/// (build cost, see `design::performance`).
pub(crate) fn pieces(f: &mut std::fmt::Formatter<'_>, parts: &[&str]) -> std::fmt::Result {
    for part in parts {
        f.write_str(part)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes_control_characters_and_caps_length() {
        assert_eq!(quote("a\nb"), "'a\\nb'");
        assert_eq!(quote("\u{7f}\u{85}\t\0"), "'\\u{7f}\\u{85}\\t\\u{0}'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("it's"), "'it's'");
        assert_eq!(quote(&"é".repeat(64)), format!("'{}'", "é".repeat(64)));
        assert_eq!(quote(&"é".repeat(65)), format!("'{}...'", "é".repeat(64)));
    }

    #[test]
    fn excerpt_is_quote_without_the_quotes() {
        for text in ["a\r\nb", "\"json\"", &"x".repeat(100)] {
            assert_eq!(format!("'{}'", excerpt(text)), quote(text));
        }
    }
}
