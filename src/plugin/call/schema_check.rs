//! The cheap JSON Schema keywords of a parameter's declared `schema`, checked on every call's
//! value (JSON Schema 2020-12 Validation, sections 6.1 to 6.5): `type` (a word or a list),
//! `enum`, `const`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
//! `multipleOf` is not checked, `minLength`, `maxLength` (in characters), `minItems`,
//! `maxItems`, `items`, `properties`, `required`, `additionalProperties`, and the
//! compositions `allOf`, `anyOf` and `oneOf` (which is checked as `anyOf`: a value that
//! matches two branches is accepted, the server decides).
//!
//! `pattern` and `format` are passed on to the model and not checked here: a regular
//! expression engine is not part of this crate, and formats are advisory (section 7.2).
//! A `$ref` to an entry of the root's `$defs` (`#/$defs/Name`, as imported schemas write a
//! shared or recursive component) is checked as that entry, beside the keywords next to it.
//!
//! Pure; recursion follows the value, whose depth the JSON parser bounds: a `$ref` or a
//! composition that reads no deeper into the value counts a hop, and past
//! [`MAX_HOPS`] of them in a row the rest is not checked (the server decides).

use crate::json::{Json, Map};
use crate::plugin::error::{quote, short_value as short};

/// `$ref`s and compositions followed in a row without reading deeper into the value.
const MAX_HOPS: usize = 64;

/// Checks `value` against `schema`, whose `$ref`s name entries of its own `$defs` or else
/// of the plugin's `defs`; `Err` says where (`.a[2]`) and what is wrong.
pub(crate) fn check(value: &Json, schema: &Json, defs: &Map) -> Result<(), String> {
    let mut path = String::new();
    let own = schema.get("$defs").and_then(Json::as_object);
    let defs = Defs { own, plugin: defs };
    check_at(value, schema, &mut path, &defs, 0)
}

/// Where `#/$defs/Name` is looked up: the schema's own `$defs`, then the plugin's.
struct Defs<'a> {
    own: Option<&'a Map>,
    plugin: &'a Map,
}

impl<'a> Defs<'a> {
    fn get(&self, name: &str) -> Option<&'a Json> {
        self.own
            .and_then(|own| own.get(name))
            .or_else(|| self.plugin.get(name))
    }
}

fn fail(path: &str, problem: String) -> Result<(), String> {
    Err(format!("{}{}", path, problem))
}

fn check_at(
    value: &Json,
    schema: &Json,
    path: &mut String,
    defs: &Defs<'_>,
    hops: usize,
) -> Result<(), String> {
    let map = match schema.as_object() {
        Some(map) if hops <= MAX_HOPS => map,
        _ => return Ok(()),
    };
    if let Some(reference) = map.get("$ref").and_then(Json::as_str) {
        let entry = reference
            .strip_prefix("#/$defs/")
            .map(|token| token.replace("~1", "/").replace("~0", "~"))
            .and_then(|name| defs.get(&name));
        if let Some(entry) = entry {
            check_at(value, entry, path, defs, hops + 1)?;
        }
    }
    if let Some(ty) = map.get("type") {
        if !type_matches(value, ty) {
            return fail(
                path,
                format!(" must be of type {}; got {}", type_words(ty), short(value)),
            );
        }
    }
    if let Some(Json::Array(values)) = map.get("enum") {
        if !values.contains(value) {
            let shown: Vec<String> = values.iter().take(20).map(short).collect();
            let more = if values.len() > 20 { ", ..." } else { "" };
            return fail(
                path,
                format!(
                    " must be one of {}{}; got {}",
                    shown.join(", "),
                    more,
                    short(value)
                ),
            );
        }
    }
    if let Some(constant) = map.get("const") {
        if constant != value {
            return fail(
                path,
                format!(" must be {}; got {}", short(constant), short(value)),
            );
        }
    }
    match value {
        Json::Number(n) => number_bounds(n.as_f64(), map, path)?,
        Json::String(s) => {
            let len = s.chars().count() as f64;
            bound(
                map,
                "minLength",
                |m| len >= m,
                path,
                "characters long or more",
            )?;
            bound(
                map,
                "maxLength",
                |m| len <= m,
                path,
                "characters long at most",
            )?;
        }
        Json::Array(items) => {
            let len = items.len() as f64;
            bound(map, "minItems", |m| len >= m, path, "items or more")?;
            bound(map, "maxItems", |m| len <= m, path, "items at most")?;
            if let Some(item_schema) = map.get("items") {
                for (i, item) in items.iter().enumerate() {
                    let mark = path.len();
                    path.push_str(&format!("[{}]", i));
                    check_at(item, item_schema, path, defs, 0)?;
                    path.truncate(mark);
                }
            }
        }
        Json::Object(members) => object(members, map, path, defs)?,
        _ => {}
    }
    if let Some(Json::Array(all)) = map.get("allOf") {
        for branch in all {
            check_at(value, branch, path, defs, hops + 1)?;
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Json::Array(branches)) = map.get(key) {
            let mut first_problem = None;
            let matched = branches.iter().any(|branch| {
                let mut scratch = path.clone();
                match check_at(value, branch, &mut scratch, defs, hops + 1) {
                    Ok(()) => true,
                    Err(problem) => {
                        first_problem.get_or_insert(problem);
                        false
                    }
                }
            });
            if !matched && !branches.is_empty() {
                return Err(format!(
                    "{} matches none of the {} accepted shapes (first: {})",
                    path,
                    branches.len(),
                    first_problem.unwrap_or_default().trim_start()
                ));
            }
        }
    }
    Ok(())
}

fn number_bounds(n: Option<f64>, map: &Map, path: &str) -> Result<(), String> {
    let n = match n {
        Some(n) => n,
        None => return Ok(()),
    };
    bound(map, "minimum", |m| n >= m, path, "or more")?;
    bound(map, "maximum", |m| n <= m, path, "or less")?;
    bound(
        map,
        "exclusiveMinimum",
        |m| n > m,
        path,
        "exclusive, or more",
    )?;
    bound(
        map,
        "exclusiveMaximum",
        |m| n < m,
        path,
        "exclusive, or less",
    )
}

/// A numeric keyword: `ok(limit)` must hold.
fn bound(
    map: &Map,
    key: &str,
    ok: impl Fn(f64) -> bool,
    path: &str,
    words: &str,
) -> Result<(), String> {
    match map.get(key).and_then(Json::as_f64) {
        Some(limit) if !ok(limit) => out_of_bound(limit, key, path, words),
        _ => Ok(()),
    }
}

/// The failure of [`bound`], outside it so the message is compiled once, not once per
/// test closure (build cost, see `design::performance`).
fn out_of_bound(limit: f64, key: &str, path: &str, words: &str) -> Result<(), String> {
    fail(
        path,
        format!(" must be {} {} ({})", trim(limit), words, key),
    )
}

fn trim(n: f64) -> String {
    Json::from(n).to_string().trim_end_matches(".0").to_string()
}

fn object(members: &Map, map: &Map, path: &mut String, defs: &Defs<'_>) -> Result<(), String> {
    let properties = map.get("properties").and_then(Json::as_object);
    if let Some(Json::Array(required)) = map.get("required") {
        for name in required.iter().filter_map(Json::as_str) {
            let given = members.get(name).map_or(false, |v| !v.is_null());
            if !given {
                return fail(path, format!(" lacks required property {}", quote(name)));
            }
        }
    }
    for (key, member) in members.iter() {
        let mark = path.len();
        path.push('.');
        path.push_str(key);
        match properties.and_then(|p| p.get(key)) {
            Some(property) => check_at(member, property, path, defs, 0)?,
            None => match map.get("additionalProperties") {
                Some(Json::Bool(false)) => {
                    let accepted: Vec<&str> = properties
                        .map(|p| p.keys().map(|k| k.as_str()).collect())
                        .unwrap_or_default();
                    path.truncate(mark);
                    return fail(
                        path,
                        format!(
                            " has an unknown property {}; accepted: {}",
                            quote(key),
                            accepted.join(", ")
                        ),
                    );
                }
                Some(extra @ Json::Object(_)) => check_at(member, extra, path, defs, 0)?,
                _ => {}
            },
        }
        path.truncate(mark);
    }
    Ok(())
}

fn type_matches(value: &Json, ty: &Json) -> bool {
    match ty {
        Json::String(word) => one_type(value, word),
        Json::Array(words) => words
            .iter()
            .filter_map(Json::as_str)
            .any(|w| one_type(value, w)),
        _ => true,
    }
}

fn one_type(value: &Json, word: &str) -> bool {
    match (word, value) {
        ("string", Json::String(_)) | ("boolean", Json::Bool(_)) | ("null", Json::Null) => true,
        ("number", Json::Number(_)) | ("array", Json::Array(_)) | ("object", Json::Object(_)) => {
            true
        }
        ("integer", Json::Number(n)) => n.is_integer(),
        _ => false,
    }
}

fn type_words(ty: &Json) -> String {
    match ty {
        Json::Array(words) => {
            let words: Vec<&str> = words.iter().filter_map(Json::as_str).collect();
            words.join(" or ")
        }
        other => other.as_str().unwrap_or("?").to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn values_in_messages_escape_del_and_c1_controls() {
        // Regression: this copy of "a value for a message" cut at 40 characters and left DEL
        // and NEL (U+0085, a line break to some loggers) as they were, where the argument
        // pipeline's copy escaped them; both use the plugin's one `short_value` now.
        let err = check(
            &json!("a\u{7f}\u{85}b"),
            &json!({"type": "integer"}),
            &Map::new(),
        )
        .unwrap_err();
        assert_eq!(err, " must be of type integer; got \"a\\u{7f}\\u{85}b\"");
    }

    macro_rules! schema_cases {
        ($($name:ident: $value:expr, $schema:expr => $expected:expr;)*) => {$(
            #[test]
            fn $name() {
                let got = check(&$value, &$schema, &Map::new());
                let expected: Result<(), &str> = $expected;
                assert_eq!(got.as_ref().map(|_| ()).map_err(String::as_str), expected);
            }
        )*};
    }

    schema_cases! {
        type_ok: json!("a"), json!({"type": "string"}) => Ok(());
        type_list_null: json!(null), json!({"type": ["string", "null"]}) => Ok(());
        type_wrong: json!(1), json!({"type": "string"}) => Err(" must be of type string; got 1");
        integer_fraction: json!(1.5), json!({"type": "integer"}) => Err(" must be of type integer; got 1.5");
        enum_wrong: json!("c"), json!({"enum": ["a", "b"]}) => Err(" must be one of \"a\", \"b\"; got \"c\"");
        const_wrong: json!("c"), json!({"const": "a"}) => Err(" must be \"a\"; got \"c\"");
        minimum: json!(0), json!({"minimum": 1}) => Err(" must be 1 or more (minimum)");
        maximum_ok: json!(100), json!({"maximum": 100}) => Ok(());
        exclusive_maximum: json!(100), json!({"exclusiveMaximum": 100}) => Err(" must be 100 exclusive, or less (exclusiveMaximum)");
        max_length: json!("héllo"), json!({"maxLength": 4}) => Err(" must be 4 characters long at most (maxLength)");
        min_items: json!([]), json!({"minItems": 1}) => Err(" must be 1 items or more (minItems)");
        nested_item: json!({"a": [1, "x"]}), json!({"properties": {"a": {"items": {"type": "integer"}}}}) => Err(".a[1] must be of type integer; got \"x\"");
        required_missing: json!({}), json!({"required": ["id"]}) => Err(" lacks required property 'id'");
        additional_refused: json!({"b": 1}), json!({"properties": {"a": {}}, "additionalProperties": false}) => Err(" has an unknown property 'b'; accepted: a");
        additional_schema: json!({"b": "x"}), json!({"additionalProperties": {"type": "integer"}}) => Err(".b must be of type integer; got \"x\"");
        any_of_ok: json!(""), json!({"anyOf": [{"type": "object"}, {"enum": [""]}]}) => Ok(());
        one_of_none: json!(true), json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}) => Err(" matches none of the 2 accepted shapes (first: must be of type string; got true)");
        all_of: json!(5), json!({"allOf": [{"minimum": 1}, {"maximum": 3}]}) => Err(" must be 3 or less (maximum)");
        pattern_unchecked: json!("x"), json!({"pattern": "^[0-9]+$", "format": "uuid"}) => Ok(());
    }
}
