//! Which operations to import: tags, operationIds, path patterns and methods.

use super::options::ImportOptions;
use crate::json::Json;

/// Whether the options select this operation.
pub(crate) fn selected(options: &ImportOptions, path: &str, method: &str, op: &Json) -> bool {
    let tags: Vec<&str> = op
        .get("tags")
        .and_then(Json::as_array)
        .map(|l| l.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    let id = op.get("operationId").and_then(Json::as_str);
    if !options.include_tags.is_empty()
        && !options
            .include_tags
            .iter()
            .any(|t| tags.contains(&t.as_str()))
    {
        return false;
    }
    if options
        .exclude_tags
        .iter()
        .any(|t| tags.contains(&t.as_str()))
    {
        return false;
    }
    if !options.include_operations.is_empty()
        && !options
            .include_operations
            .iter()
            .any(|o| Some(o.as_str()) == id)
    {
        return false;
    }
    if options
        .exclude_operations
        .iter()
        .any(|o| Some(o.as_str()) == id)
    {
        return false;
    }
    if !options.paths.is_empty() && !options.paths.iter().any(|p| glob(p, path)) {
        return false;
    }
    if !options.methods.is_empty()
        && !options
            .methods
            .iter()
            .any(|m| m.eq_ignore_ascii_case(method))
    {
        return false;
    }
    true
}

/// `*` matches any run of characters (`/` included), `?` one character; the rest literally.
/// Iterative with one backtrack point, so it is linear in practice and never recursive.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if c == '?' || Some(&c) == t.get(ti) => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi.min(p.len())..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn globs() {
        assert!(glob("/pets/*", "/pets/{id}"));
        assert!(glob("*", "/a/b"));
        assert!(glob("/p?ts", "/pets"));
        assert!(!glob("/pets/*", "/users/1"));
        assert!(glob("*/admin/*", "/v1/admin/users"));
        assert!(!glob("/a", "/ab"));
    }
}
