//! Arrays and objects as `name=value` pairs, by [`ArrayStyle`] (OpenAPI 3.1 section
//! 4.8.12.4.2, "Style Values"), for the query, form bodies, multipart text parts and
//! cookies; and cookie values (RFC 6265 section 4.1.1). Pure.

use crate::json::Json;
use crate::plugin::declare::model::ArrayStyle;
use crate::url::{self, encode, SegmentProblem};

/// The text of a scalar: a string as it is, anything else as compact JSON.
pub(crate) fn scalar_text(value: &Json) -> String {
    match value {
        Json::String(s) => s.clone(),
        _ => value.to_string(),
    }
}

/// Calls `emit(name, value)` for every pair `value` makes under `name` with `style`.
///
/// Recursion (deep objects) follows the value, whose depth the JSON parser bounds for a
/// model's arguments ([`json::DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH)).
pub(crate) fn pairs(name: &str, value: &Json, style: ArrayStyle, emit: &mut dyn FnMut(&str, &str)) {
    match (value, style) {
        (Json::Array(items), ArrayStyle::Repeat | ArrayStyle::Spread) => {
            for item in items {
                emit(name, &scalar_text(item));
            }
        }
        // An empty array sends nothing; an empty object, an empty value.
        (Json::Array(items), ArrayStyle::Comma | ArrayStyle::Space | ArrayStyle::Pipe)
            if items.is_empty() => {}
        (
            Json::Array(_) | Json::Object(_),
            ArrayStyle::Comma | ArrayStyle::Space | ArrayStyle::Pipe,
        ) => {
            let mut out = String::new();
            join(&mut out, value, separator(style), &mut |out, item| {
                out.push_str(item)
            });
            emit(name, &out);
        }
        (Json::Object(map), ArrayStyle::Spread) => {
            for (key, member) in map.iter() {
                pairs(key, member, ArrayStyle::Repeat, emit);
            }
        }
        (Json::Array(_) | Json::Object(_), ArrayStyle::DeepObject) => deep(name, value, emit),
        _ => emit(name, &scalar_text(value)),
    }
}

/// The separator a joining style puts between items (OpenAPI 3.1 section 4.8.12.4.2): `,`
/// for `form` and `simple` without explode, ` ` for `spaceDelimited`, `|` for
/// `pipeDelimited`; `,` for the styles that do not join.
pub(crate) fn separator(style: ArrayStyle) -> &'static str {
    match style {
        ArrayStyle::Space => " ",
        ArrayStyle::Pipe => "|",
        _ => ",",
    }
}

/// Appends the items of `value` to `out`, `separator` between them, each written by
/// `push_item` (as it is, or percent-encoded while the separator stays literal): an array's
/// items, an object's keys and values in turn (`R,100,G,200`, as OpenAPI's style examples
/// write an object), or a scalar alone. Items are scalars' text, and nested containers
/// their compact JSON. The one place arrays and objects are joined, for the query, headers,
/// form bodies, multipart text parts and cookies.
pub(crate) fn join(
    out: &mut String,
    value: &Json,
    separator: &str,
    push_item: &mut dyn FnMut(&mut String, &str),
) {
    let mut first = true;
    let mut push = |out: &mut String, text: &str| {
        if !first {
            out.push_str(separator);
        }
        first = false;
        push_item(out, text);
    };
    let mut scratch = String::new();
    match value {
        Json::Array(items) => {
            for item in items {
                push(out, text(item, &mut scratch));
            }
        }
        Json::Object(map) => {
            for (key, member) in map.iter() {
                push(out, key);
                push(out, text(member, &mut scratch));
            }
        }
        scalar => push(out, text(scalar, &mut scratch)),
    }
}

/// The text of a value for a path, query, header or form, as [`scalar_text`] but without
/// allocating: a string as it is, anything else as compact JSON (`3`, `true`, `{"a":1}`),
/// written into `scratch`.
pub(in crate::plugin) fn text<'a>(value: &'a Json, scratch: &'a mut String) -> &'a str {
    match value {
        Json::String(s) => s,
        _ => {
            scratch.clear();
            value.write_to(scratch);
            scratch
        }
    }
}

/// Why `value` cannot fill a path parameter, or `None` when it can: its wire text
/// ([`text`]) against the url layer's one rule ([`url::segment_problem`]). A call's path
/// values and a path parameter's default both ask here.
pub(in crate::plugin) fn path_value_problem(
    value: &Json,
    scratch: &mut String,
) -> Option<SegmentProblem> {
    url::segment_problem(text(value, scratch))
}

/// `name[key]=v` for objects and `name[0]=v` for arrays, all the way down.
fn deep(name: &str, value: &Json, emit: &mut dyn FnMut(&str, &str)) {
    match value {
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                deep(&format!("{}[{}]", name, i), item, emit);
            }
        }
        Json::Object(map) => {
            for (key, member) in map.iter() {
                deep(&format!("{}[{}]", name, key), member, emit);
            }
        }
        _ => emit(name, &scalar_text(value)),
    }
}

/// Appends `value` to a cookie header, every byte outside RFC 6265's `cookie-octet`
/// (section 4.1.1: controls, space, `"`, `,`, `;`, `\` and non-ASCII) and `%` itself
/// percent-encoded, as servers decode it.
pub(crate) fn push_cookie_value(out: &mut String, value: &str) {
    encode::encode_str_into(out, value, &encode::COOKIE_VALUE);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn all(name: &str, value: Json, style: ArrayStyle) -> Vec<(String, String)> {
        let mut out = Vec::new();
        pairs(name, &value, style, &mut |n, v| {
            out.push((n.to_string(), v.to_string()))
        });
        out
    }

    fn p(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn styles_of_arrays() {
        let ids = || json!([1, "b"]);
        assert_eq!(
            all("ids", ids(), ArrayStyle::Repeat),
            p(&[("ids", "1"), ("ids", "b")])
        );
        assert_eq!(all("ids", ids(), ArrayStyle::Comma), p(&[("ids", "1,b")]));
        assert_eq!(all("ids", ids(), ArrayStyle::Space), p(&[("ids", "1 b")]));
        assert_eq!(all("ids", ids(), ArrayStyle::Pipe), p(&[("ids", "1|b")]));
        assert_eq!(
            all("expand", ids(), ArrayStyle::DeepObject),
            p(&[("expand[0]", "1"), ("expand[1]", "b")])
        );
        assert!(all("ids", json!([]), ArrayStyle::Comma).is_empty());
    }

    #[test]
    fn styles_of_objects() {
        let filter = || json!({"status": "open", "page": 2});
        assert_eq!(
            all("filter", filter(), ArrayStyle::Repeat),
            p(&[("filter", r#"{"status":"open","page":2}"#)])
        );
        assert_eq!(
            all("filter", filter(), ArrayStyle::Comma),
            p(&[("filter", "status,open,page,2")])
        );
        assert_eq!(
            all("filter", filter(), ArrayStyle::Spread),
            p(&[("status", "open"), ("page", "2")])
        );
        assert_eq!(
            all(
                "metadata",
                json!({"order": {"id": 7}, "tags": ["a"]}),
                ArrayStyle::DeepObject
            ),
            p(&[("metadata[order][id]", "7"), ("metadata[tags][0]", "a")])
        );
    }

    #[test]
    fn join_writes_items_and_keeps_the_separator_literal() {
        let joined = |value: Json, separator: &str| {
            let mut out = String::from(">");
            join(&mut out, &value, separator, &mut |out, item| {
                out.push('<');
                out.push_str(item);
                out.push('>');
            });
            out
        };
        assert_eq!(joined(json!(["a", 1, true]), ","), "><a>,<1>,<true>");
        assert_eq!(
            joined(json!({"k": "v", "n": [1]}), "|"),
            "><k>|<v>|<n>|<[1]>"
        );
        assert_eq!(joined(json!("one"), " "), "><one>");
        assert_eq!(joined(json!([]), ","), ">");
        assert_eq!(joined(json!({}), ","), ">");
        assert_eq!(joined(json!([null, [1, 2]]), ","), "><null>,<[1,2]>");
        assert_eq!(separator(ArrayStyle::Comma), ",");
        assert_eq!(separator(ArrayStyle::Space), " ");
        assert_eq!(separator(ArrayStyle::Pipe), "|");
    }

    #[test]
    fn cookie_values_are_cookie_octets() {
        let mut out = String::new();
        push_cookie_value(&mut out, "a b;c,\"d\\%é=");
        assert_eq!(out, "a%20b%3Bc%2C%22d%5C%25%C3%A9=");
    }
}
