//! `${NAME}` templates: expanding them, writing `${` back literally, and finding the names a
//! plugin file reads.

use crate::json::{self, Json};
use crate::tool::small_set::SmallSet;

/// The `${NAME}`s a plugin file reads, in order of first use, each once.
pub(crate) fn variable_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let root = match json::parse(text) {
        Ok(root) => root,
        Err(_) => return names,
    };
    let mut texts: Vec<&str> = Vec::new();
    texts.extend(root.get("base_url").and_then(Json::as_str));
    for key in ["headers", "query", "auth"] {
        if let Some(map) = root.get(key).and_then(Json::as_object) {
            texts.extend(map.values().filter_map(Json::as_str));
        }
    }
    for endpoint in root
        .get("endpoints")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        texts.extend(endpoint.get("base_url").and_then(Json::as_str));
        if let Some(auth) = endpoint.get("auth").and_then(Json::as_object) {
            texts.extend(auth.values().filter_map(Json::as_str));
        }
        for param in endpoint
            .get("params")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            let hidden = ["hidden", "secret"]
                .iter()
                .any(|k| param.get(k).and_then(Json::as_bool) == Some(true));
            if hidden {
                texts.extend(param.get("default").and_then(Json::as_str));
            }
        }
    }
    let mut seen = SmallSet::new();
    for text in texts {
        let mut found = Vec::new();
        if expand(text, &mut |name| {
            found.push(name.to_string());
            Some(String::new())
        })
        .is_ok()
        {
            for name in found {
                if seen.insert(name.clone()) {
                    names.push(name);
                }
            }
        }
    }
    names
}

/// The text that stands for a variable left unresolved.
pub(super) fn placeholder(name: &str) -> String {
    format!("${{{}}} (not set)", name)
}

/// Expands `${NAME}` with `lookup` and `$${` to `${`; `Ok(None)` when `text` holds neither.
/// `Err(name)` for a name `lookup` has no value for; `Err("")` for a malformed template.
pub(super) fn expand(
    text: &str,
    lookup: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Option<(String, bool)>, String> {
    if !text.contains("${") {
        return Ok(None);
    }
    let mut out = String::with_capacity(text.len());
    let mut from_lookup = false;
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        if let Some(tail) = after.strip_prefix("$${") {
            out.push_str("${");
            rest = tail;
        } else if let Some(tail) = after.strip_prefix("${") {
            let end = tail.find('}').ok_or_else(String::new)?;
            let name = &tail[..end];
            let valid = name
                .chars()
                .next()
                .map_or(false, |c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(String::new());
            }
            out.push_str(&lookup(name).ok_or_else(|| name.to_string())?);
            from_lookup = true;
            rest = &tail[end + 1..];
        } else {
            out.push('$');
            rest = &after[1..];
        }
    }
    out.push_str(rest);
    Ok(Some((out, from_lookup)))
}

/// `${` written literally: `$${`, so reading the file back gives the same text.
pub(super) fn escape(text: &str) -> String {
    text.replace("${", "$${")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<String> {
        match name {
            "TOKEN" => Some(String::from("t-1")),
            "HOST" => Some(String::from("api.example.com")),
            _ => None,
        }
    }

    #[test]
    fn expand_templates() {
        let mut l = |n: &str| lookup(n);
        assert_eq!(expand("plain", &mut l), Ok(None));
        assert_eq!(
            expand("Bearer ${TOKEN}!", &mut l),
            Ok(Some((String::from("Bearer t-1!"), true)))
        );
        assert_eq!(
            expand("a $${TOKEN} $5", &mut l),
            Ok(Some((String::from("a ${TOKEN} $5"), false)))
        );
        assert_eq!(expand("${MISSING}", &mut l), Err(String::from("MISSING")));
        assert_eq!(expand("${1X}", &mut l), Err(String::new()));
        assert_eq!(expand("${OPEN", &mut l), Err(String::new()));
        assert_eq!(expand("${}", &mut l), Err(String::new()));
    }

    #[test]
    fn escape_round_trips() {
        let mut l = |n: &str| lookup(n);
        let text = "literal ${X} and $${Y}";
        let escaped = escape(text);
        assert_eq!(
            expand(&escaped, &mut l).unwrap().unwrap().0,
            text.to_string()
        );
    }

    #[test]
    fn variable_names_in_template_positions_only() {
        let text = r#"{"name": "x", "description": "${NOT_READ}", "base_url": "https://${HOST}",
            "headers": {"X-Key": "${KEY}"}, "auth": {"type": "bearer", "token": "${TOKEN}"},
            "endpoints": [{"name": "a", "path": "/", "params": [
                {"name": "t", "hidden": true, "default": "${TENANT}"},
                {"name": "v", "default": "${VISIBLE}"}]}]}"#;
        assert_eq!(variable_names(text), ["HOST", "KEY", "TOKEN", "TENANT"]);
    }
}
