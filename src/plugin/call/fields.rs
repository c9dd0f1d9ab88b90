//! Shaped responses: the parts of a JSON response the model gets, named by field paths (the
//! endpoint's `response_fields`, and the model's own `fields` argument where the endpoint
//! allows it). Pure.

use crate::json::{Json, Map};

/// The name of the argument a model uses to ask for parts of the response.
pub(crate) const FIELDS_ARGUMENT: &str = "fields";

/// The most field paths one list may hold.
pub(crate) const MAX_FIELDS: usize = 64;

/// The longest field path, in bytes.
pub(crate) const MAX_FIELD_BYTES: usize = 512;

/// One field path as segments; `*` is every array item (or every member of an object).
pub(crate) type FieldPath = Vec<String>;

/// Reads a field path: a JSON Pointer (RFC 6901: starts with `/`, `~1` is `/`, `~0` is `~`),
/// `items/*/title` (a pointer without its leading `/`), or a dotted path (`items.*.title`,
/// when the text holds no `/`).
pub(crate) fn parse_path(text: &str) -> Result<FieldPath, String> {
    if text.is_empty() {
        return Err(String::from("a field path is empty"));
    }
    if text.len() > MAX_FIELD_BYTES {
        return Err(format!(
            "a field path is {} bytes long, over the limit of {}",
            text.len(),
            MAX_FIELD_BYTES
        ));
    }
    if let Some(pointer) = text.strip_prefix('/') {
        return Ok(pointer.split('/').map(unescape).collect());
    }
    if text.contains('/') {
        return Ok(text.split('/').map(unescape).collect());
    }
    Ok(text.split('.').map(String::from).collect())
}

/// RFC 6901 section 4: `~1` then `~0`.
fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// Reads a list of field paths, as the model or a plugin file gives them.
pub(crate) fn parse_list(value: &Json) -> Result<Vec<FieldPath>, String> {
    let list = value.as_array().ok_or_else(|| {
        format!(
            "expected an array of field paths such as [\"items/*/title\", \"total_count\"], got {}",
            value.type_name()
        )
    })?;
    if list.len() > MAX_FIELDS {
        return Err(format!(
            "{} field paths given, over the limit of {}",
            list.len(),
            MAX_FIELDS
        ));
    }
    list.iter()
        .enumerate()
        .map(|(i, item)| match item.as_str() {
            Some(text) => parse_path(text).map_err(|e| format!("item {}: {}", i, e)),
            None => Err(format!(
                "item {} is {}, not a string field path",
                i,
                item.type_name()
            )),
        })
        .collect()
}

/// The parts of `value` the paths name, in the value's own order and shape: objects keep
/// the members named, arrays the items (every one for `*`, or the one an index names).
/// `None` when no path names anything there.
///
/// Each node is visited once for each path that reaches it: time is the size of the value
/// times the number of paths at most (both bounded). Recursion follows the paths, at most
/// [`MAX_FIELD_BYTES`] / 2 segments deep.
pub(crate) fn project(value: &Json, paths: &[&[String]]) -> Option<Json> {
    if paths.iter().any(|p| p.is_empty()) {
        return Some(value.clone());
    }
    match value {
        Json::Object(members) => {
            let mut out = Map::new();
            for (key, member) in members {
                let rest: Vec<&[String]> = paths
                    .iter()
                    .filter(|p| p[0] == "*" || p[0] == *key)
                    .map(|p| &p[1..])
                    .collect();
                if rest.is_empty() {
                    continue;
                }
                if let Some(kept) = project(member, &rest) {
                    out.insert(key.clone(), kept);
                }
            }
            (!out.is_empty()).then(|| Json::Object(out))
        }
        Json::Array(items) => {
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let index = i.to_string();
                let rest: Vec<&[String]> = paths
                    .iter()
                    .filter(|p| p[0] == "*" || p[0] == index)
                    .map(|p| &p[1..])
                    .collect();
                if rest.is_empty() {
                    continue;
                }
                if let Some(kept) = project(item, &rest) {
                    out.push(kept);
                }
            }
            (!out.is_empty()).then(|| Json::Array(out))
        }
        _ => None,
    }
}

/// The JSON Schema of the `fields` argument, as the model reads it.
pub(crate) fn fields_schema() -> Json {
    let mut items = Map::with_capacity(1);
    items.insert("type", "string");
    let mut schema = Map::with_capacity(4);
    schema.insert("type", "array");
    schema.insert("items", items);
    schema.insert("maxItems", MAX_FIELDS);
    schema.insert(
        "description",
        "Only these parts of the JSON response, as paths (\"items/*/title\", \"total_count\"; * is every array item). Left out: the whole response.",
    );
    Json::Object(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn shaped(value: &Json, paths: &[&str]) -> Option<Json> {
        let parsed: Vec<FieldPath> = paths.iter().map(|p| parse_path(p).unwrap()).collect();
        let refs: Vec<&[String]> = parsed.iter().map(Vec::as_slice).collect();
        project(value, &refs)
    }

    #[test]
    fn paths_in_three_spellings() {
        assert_eq!(parse_path("/a~1b/~0c").unwrap(), ["a/b", "~c"]);
        assert_eq!(
            parse_path("items/*/title").unwrap(),
            ["items", "*", "title"]
        );
        assert_eq!(parse_path("user.login").unwrap(), ["user", "login"]);
        assert_eq!(parse_path("").unwrap_err(), "a field path is empty");
    }

    #[test]
    fn projection_keeps_order_and_shape() {
        let value = json!({"total_count": 2, "items": [
            {"id": 1, "title": "a", "user": {"login": "x", "id": 9}},
            {"id": 2, "title": "b", "user": {"login": "y", "id": 8}}
        ]});
        assert_eq!(
            shaped(
                &value,
                &["items/*/title", "total_count", "items/1/user/login"]
            ),
            Some(
                json!({"total_count": 2, "items": [{"title": "a"}, {"title": "b", "user": {"login": "y"}}]})
            )
        );
        assert_eq!(shaped(&value, &["nothing"]), None);
        assert_eq!(shaped(&value, &["/"]), None);
    }

    #[test]
    fn list_errors_name_the_item() {
        assert_eq!(
            parse_list(&json!(["a", 1])).unwrap_err(),
            "item 1 is number, not a string field path"
        );
        assert_eq!(
            parse_list(&json!("a")).unwrap_err(),
            "expected an array of field paths such as [\"items/*/title\", \"total_count\"], got string"
        );
    }
}
