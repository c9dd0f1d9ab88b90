//! A part of a converted schema made a schema of its own: a body's property becomes a
//! parameter, and takes with it the `$defs` entries it refers to (JSON Schema 2020-12,
//! Core, section 8.2.4: `#/$defs/Name` is read from the root of the schema that holds it).
//! The plugin puts every parameter's `$defs` at the root of the tool's schema. Pure, and
//! without recursion: schemas are walked with explicit stacks.

use std::collections::HashSet;

use crate::json::{Json, Map};

/// The `$defs` entry a local reference names (`#/$defs/Name`, RFC 6901 escapes read).
pub(crate) fn def_name(reference: &str) -> Option<String> {
    let token = reference.strip_prefix("#/$defs/")?;
    if token.contains('/') {
        return None;
    }
    Some(token.replace("~1", "/").replace("~0", "~"))
}

/// The `$defs` names referred to anywhere in `schema`, pushed onto `out` in the order met.
fn referred(schema: &Json, out: &mut Vec<String>) {
    let mut stack = vec![schema];
    while let Some(value) = stack.pop() {
        match value {
            Json::Object(map) => {
                if let Some(name) = map.get("$ref").and_then(Json::as_str).and_then(def_name) {
                    out.push(name);
                }
                // Reversed, so that names come out in document order.
                stack.extend(map.values().rev());
            }
            Json::Array(items) => stack.extend(items.iter().rev()),
            _ => {}
        }
    }
}

/// `schema` (a part of a schema whose root held `defs`) as a schema of its own: a `$ref` at
/// its top written in place (so that its type shows), and under its own `$defs` every entry
/// of `defs` it refers to, directly or through other entries.
pub(crate) fn with_defs(schema: Json, defs: &Map) -> Json {
    if defs.is_empty() {
        return schema;
    }
    let schema = inline_top(schema, defs);
    let mut names = Vec::new();
    referred(&schema, &mut names);
    if names.is_empty() {
        return schema;
    }
    let mut seen: HashSet<String> = HashSet::new();
    let mut entries: Vec<(String, Json)> = Vec::new();
    let mut next = 0;
    names.retain(|name| seen.insert(name.clone()));
    while let Some(name) = names.get(next).cloned() {
        next += 1;
        let body = match defs.get(&name) {
            Some(body) => body,
            None => continue,
        };
        let mut inner = Vec::new();
        referred(body, &mut inner);
        for name in inner {
            if seen.insert(name.clone()) {
                names.push(name);
            }
        }
        entries.push((name, body.clone()));
    }
    let mut schema = schema;
    if let (false, Some(map)) = (entries.is_empty(), schema.as_object_mut()) {
        map.insert("$defs", Map::from_unique_entries(entries));
    }
    schema
}

/// A schema that is a `$ref` to an entry of `defs` replaced by the entry, the keywords beside
/// the `$ref` written over it.
fn inline_top(schema: Json, defs: &Map) -> Json {
    let body = match schema
        .get("$ref")
        .and_then(Json::as_str)
        .and_then(def_name)
        .and_then(|name| defs.get(&name))
    {
        Some(Json::Object(body)) => body.clone(),
        _ => return schema,
    };
    let mut out = body;
    if let Some(map) = schema.into_object() {
        for (key, value) in map {
            if key != "$ref" {
                out.insert(key, value);
            }
        }
    }
    Json::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn a_part_takes_the_entries_it_reaches_and_no_others() {
        let defs = json!({
            "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"},
                "tag": {"$ref": "#/$defs/Tag"}}},
            "Tag": {"type": "string", "enum": ["a", "b"]},
            "Other": {"type": "integer"}});
        let defs = defs.as_object().unwrap();
        let part = with_defs(json!({"$ref": "#/$defs/Node", "description": "first"}), defs);
        assert_eq!(
            part,
            json!({"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"},
                "tag": {"$ref": "#/$defs/Tag"}}, "description": "first",
                "$defs": {"Node": defs["Node"].clone(), "Tag": defs["Tag"].clone()}})
        );
        let plain = json!({"type": "array", "items": {"type": "string"}});
        assert_eq!(with_defs(plain.clone(), defs), plain);
    }
}
