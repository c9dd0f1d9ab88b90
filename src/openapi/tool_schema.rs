//! Converted schemas made parameters' schemas: a body's property becomes a parameter, and the
//! `$defs` entries a converted schema carries become the plugin's `$defs`, written once for
//! the whole plugin (JSON Schema 2020-12, Core, section 8.2.4: `#/$defs/Name` is read from
//! the root; the plugin gives each tool's schema the entries its parameters reach). Pure.

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

/// A property of a converted schema (whose root held `defs`) as a parameter's schema: a
/// `$ref` at its top with its type shown ([`inline_top`]), and `carrier`'s entries, the
/// first time, under its `$defs`. The importer moves every parameter's `$defs` to the
/// plugin's (see [`hoist`]), where any parameter's references find them.
pub(crate) fn carry(schema: Json, defs: &Map, carrier: &mut Option<Map>) -> Json {
    if defs.is_empty() {
        return schema;
    }
    let mut schema = inline_top(schema, defs);
    if let Some(map) = schema.as_object_mut() {
        if let Some(entries) = carrier.take() {
            map.insert("$defs", entries);
        }
    }
    schema
}

/// The plugin's `$defs`, gathered from the schemas of its parameters: each name once (the
/// first), which is one component, converted once, for a whole import.
#[derive(Default)]
pub(crate) struct Hoisted {
    names: HashSet<String>,
    entries: Vec<(String, Json)>,
}

/// Moves the `$defs` of `schema` into `into`.
pub(crate) fn hoist(schema: &mut Json, into: &mut Hoisted) {
    let own = match schema
        .as_object_mut()
        .and_then(|map| map.remove("$defs"))
        .and_then(Json::into_object)
    {
        Some(own) => own,
        None => return,
    };
    for (name, body) in own {
        if into.names.insert(name.clone()) {
            into.entries.push((name, body));
        }
    }
}

impl Hoisted {
    /// The entries gathered, as the plugin's `$defs` ([`PluginBuilder::defs`](crate::plugin::PluginBuilder::defs)).
    pub(crate) fn into_map(self) -> Map {
        Map::from_unique_entries(self.entries)
    }
}

/// A schema that is a `$ref` to an entry of `defs`, with its type shown: the entry written
/// over it when the entry is a leaf (no `properties`, `items` or composition: an enum, a
/// string with a pattern), else the entry's `type` beside the `$ref` (so the value is coerced
/// as the type says, and a large shared object is written once, under `$defs`).
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
    let leaf = ![
        "properties",
        "items",
        "anyOf",
        "oneOf",
        "allOf",
        "additionalProperties",
    ]
    .iter()
    .any(|key| body.contains_key(key));
    let mut schema = match schema.into_object() {
        Some(map) => map,
        None => return Json::Object(body),
    };
    if !leaf {
        if let (Some(ty), false) = (body.get("type"), schema.contains_key("type")) {
            schema.insert("type", ty.clone());
        }
        return Json::Object(schema);
    }
    let mut out = body;
    for (key, value) in schema {
        if key != "$ref" {
            out.insert(key, value);
        }
    }
    Json::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn a_property_shows_its_type_and_the_first_carries_the_entries() {
        let defs = json!({"Tag": {"type": "string", "enum": ["a", "b"]}});
        let defs = defs.as_object().unwrap();
        let mut carrier = Some(defs.clone());
        let first = carry(
            json!({"$ref": "#/$defs/Tag", "description": "d"}),
            defs,
            &mut carrier,
        );
        assert_eq!(
            first,
            json!({"type": "string", "enum": ["a", "b"], "description": "d",
                   "$defs": {"Tag": defs["Tag"].clone()}})
        );
        let second = carry(
            json!({"type": "array", "items": {"$ref": "#/$defs/Tag"}}),
            defs,
            &mut carrier,
        );
        assert_eq!(
            second,
            json!({"type": "array", "items": {"$ref": "#/$defs/Tag"}})
        );
        let mut hoisted = Hoisted::default();
        let mut first = first;
        hoist(&mut first, &mut hoisted);
        assert!(first.get("$defs").is_none());
        assert_eq!(
            Json::Object(hoisted.into_map()),
            json!({"Tag": defs["Tag"].clone()})
        );
    }
}
