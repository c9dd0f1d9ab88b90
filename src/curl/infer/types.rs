//! Value types from a sample: the JSON value a text sample stands for, and the parameter
//! type of a JSON sample.

use crate::json::{Json, Map};
use crate::plugin::{ParamType, Property, MAX_TYPE_DEPTH};
use crate::tool;

/// The most properties an inferred object type lists; a larger object is typed as any
/// object, which keeps the plugin's checks (quadratic in the properties) fast.
pub(crate) const MAX_PROPERTIES: usize = 256;

/// Digits an integer sample may have before it is kept as a string: longer numbers are ids
/// and phone numbers more often than quantities, and a model would round them as floats
/// beyond 2^53 (16 digits).
const MAX_INTEGER_DIGITS: usize = 15;

/// The JSON value a text sample (a query, form or multipart value) stands for: `true` and
/// `false` as booleans, integers written canonically (no sign but `-`, no leading zero, at
/// most 15 digits) as integers, plain decimals that write back the same (`2.5`, not `2.50`
/// or `1e3`) as numbers, anything else as a string. So a parameter typed from the sample
/// sends back exactly the text of the sample.
pub(crate) fn text_value(text: &str) -> Json {
    match text {
        "true" => return Json::Bool(true),
        "false" => return Json::Bool(false),
        _ => {}
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = match digits.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (digits, None),
    };
    let canonical_whole = !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && (whole == "0" || !whole.starts_with('0'));
    let fraction_ok = fraction.map_or(true, |f| {
        !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit())
    });
    if !canonical_whole
        || !fraction_ok
        || whole.len() + fraction.map_or(0, str::len) > MAX_INTEGER_DIGITS
    {
        return Json::from(text);
    }
    match crate::json::parse(text) {
        // Only when the number writes back as it was read (`2.50` would become `2.5`).
        Ok(value @ Json::Number(_)) if value.to_string() == text => value,
        _ => Json::from(text),
    }
}

/// The parameter type of a scalar JSON value; `None` for `null`, arrays and objects.
pub(crate) fn scalar_type(value: &Json) -> Option<ParamType> {
    match value {
        Json::Bool(_) => Some(ParamType::Boolean),
        Json::String(_) => Some(ParamType::String),
        Json::Number(n) if n.is_integer() && !n.is_f64() => Some(ParamType::Integer),
        Json::Number(_) => Some(ParamType::Number),
        _ => None,
    }
}

/// The shape of a sample value, before it becomes a [`ParamType`].
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    /// `null`, or something no type describes (arrays mixing types, nesting too deep).
    Opaque,
    Scalar(ParamType),
    /// An array; `None` while no item has been seen.
    Array(Option<Box<Shape>>),
    /// An object with its members; `None` for any object.
    Object(Option<Vec<(String, Shape)>>),
}

/// The type of a JSON sample, as declared for a parameter at type depth `depth` (1 for a
/// parameter, deeper for properties and items), and whether part of it had to be widened to
/// "any object" (a member holding `null`, an array mixing types, a property name a
/// provider refuses, more than [`MAX_PROPERTIES`] members, or nesting deeper than
/// [`MAX_TYPE_DEPTH`]).
///
/// `None` when no type accepts the sample (an array mixing types or holding `null`, outside
/// any object). The type always accepts the sample exactly, so the sample can be the
/// parameter's default. Recursion is bounded by [`MAX_TYPE_DEPTH`], not by the sample.
pub(crate) fn json_type(value: &Json, depth: usize) -> Option<(ParamType, bool)> {
    let shape = shape(value, depth);
    let mut widened = false;
    let ty = to_type(&shape, &mut widened)?;
    Some((ty, widened))
}

fn shape(value: &Json, depth: usize) -> Shape {
    match value {
        Json::Null => Shape::Opaque,
        Json::Array(items) => {
            if depth >= MAX_TYPE_DEPTH {
                return Shape::Opaque;
            }
            let mut merged: Option<Shape> = None;
            for item in items {
                let next = shape(item, depth + 1);
                merged = Some(match merged {
                    None => next,
                    Some(seen) => unify(seen, next),
                });
                if merged == Some(Shape::Opaque) {
                    break;
                }
            }
            Shape::Array(merged.map(Box::new))
        }
        Json::Object(map) => object_shape(map, depth),
        scalar => scalar_type(scalar).map_or(Shape::Opaque, Shape::Scalar),
    }
}

fn object_shape(map: &Map, depth: usize) -> Shape {
    let named = map.keys().all(|k| tool::validate_name(k).is_ok());
    if depth >= MAX_TYPE_DEPTH || map.len() > MAX_PROPERTIES || !named {
        return Shape::Object(None);
    }
    let members = map
        .iter()
        .map(|(k, v)| (k.clone(), shape(v, depth + 1)))
        .collect();
    Shape::Object(Some(members))
}

/// One shape that accepts what both accept, or `Opaque`.
fn unify(a: Shape, b: Shape) -> Shape {
    match (a, b) {
        (Shape::Scalar(x), Shape::Scalar(y)) => match (x, y) {
            (x, y) if x == y => Shape::Scalar(x),
            (ParamType::Integer, ParamType::Number) | (ParamType::Number, ParamType::Integer) => {
                Shape::Scalar(ParamType::Number)
            }
            _ => Shape::Opaque,
        },
        (Shape::Array(x), Shape::Array(y)) => match (x, y) {
            (None, other) | (other, None) => Shape::Array(other),
            (Some(x), Some(y)) => match unify(*x, *y) {
                Shape::Opaque => Shape::Opaque,
                items => Shape::Array(Some(Box::new(items))),
            },
        },
        (Shape::Object(Some(x)), Shape::Object(Some(y))) => merge_members(x, y),
        (Shape::Object(_), Shape::Object(_)) => Shape::Object(None),
        _ => Shape::Opaque,
    }
}

/// The members of two objects: shared names unified, the others kept (none required).
fn merge_members(mut into: Vec<(String, Shape)>, from: Vec<(String, Shape)>) -> Shape {
    for (name, shape) in from {
        match into.iter().position(|(n, _)| *n == name) {
            Some(at) => {
                let seen = std::mem::replace(&mut into[at].1, Shape::Opaque);
                into[at].1 = unify(seen, shape);
            }
            None if into.len() >= MAX_PROPERTIES => return Shape::Object(None),
            None => into.push((name, shape)),
        }
    }
    Shape::Object(Some(into))
}

fn to_type(shape: &Shape, widened: &mut bool) -> Option<ParamType> {
    match shape {
        Shape::Opaque => None,
        Shape::Scalar(ty) => Some(ty.clone()),
        // An empty sample array says nothing of its items: strings are the likeliest.
        Shape::Array(None) => Some(ParamType::array(ParamType::String)),
        Shape::Array(Some(items)) => to_type(items, widened).map(ParamType::array),
        Shape::Object(None) => {
            *widened = true;
            Some(ParamType::object([]))
        }
        Shape::Object(Some(members)) => {
            let mut properties = Vec::with_capacity(members.len());
            for (name, shape) in members {
                match to_type(shape, widened) {
                    Some(ty) => properties.push(Property::new(name.clone(), ty)),
                    None => {
                        *widened = true;
                        return Some(ParamType::object([]));
                    }
                }
            }
            Some(ParamType::Object(properties))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    cases!(text_value {
        text_true_is_boolean: "true" => json!(true);
        text_false_is_boolean: "false" => json!(false);
        text_capital_true_is_string: "True" => json!("True");
        text_integer: "42" => json!(42);
        text_negative_integer: "-7" => json!(-7);
        text_zero: "0" => json!(0);
        text_leading_zero_is_string: "007" => json!("007");
        text_plus_sign_is_string: "+3" => json!("+3");
        text_decimal: "2.5" => json!(2.5);
        text_decimal_with_trailing_zero_is_string: "2.50" => json!("2.50");
        text_whole_float_keeps_its_point: "1.0" => json!(1.0);
        text_exponent_is_string: "1e3" => json!("1e3");
        text_long_digits_are_string: "4155552671012345" => json!("4155552671012345");
        text_fifteen_digits_are_integer: "123456789012345" => json!(123456789012345i64);
        text_empty_is_string: "" => json!("");
        text_word_is_string: "Hangzhou" => json!("Hangzhou");
        text_dot_only_is_string: "." => json!(".");
        text_trailing_dot_is_string: "3." => json!("3.");
        text_minus_only_is_string: "-" => json!("-");
    });

    fn typed(sample: &str) -> Option<(ParamType, bool)> {
        json_type(&json::parse(sample).unwrap(), 1)
    }

    fn object(properties: &[(&str, ParamType)]) -> ParamType {
        ParamType::object(properties.iter().map(|(n, t)| Property::new(*n, t.clone())))
    }

    cases!(typed {
        json_string: r#""x""# => Some((ParamType::String, false));
        json_integer: "3" => Some((ParamType::Integer, false));
        json_float: "3.5" => Some((ParamType::Number, false));
        json_whole_float_is_number: "3.0" => Some((ParamType::Number, false));
        json_big_integer: "123456789012345678901234" => Some((ParamType::Integer, false));
        json_boolean: "false" => Some((ParamType::Boolean, false));
        json_null_has_no_type: "null" => None;
        json_array_of_integers: "[1, 2]" => Some((ParamType::array(ParamType::Integer), false));
        json_integers_and_floats_are_numbers: "[1, 2.5]" => Some((ParamType::array(ParamType::Number), false));
        json_empty_array_is_strings: "[]" => Some((ParamType::array(ParamType::String), false));
        json_mixed_array_has_no_type: r#"[1, "a"]"# => None;
        json_array_with_null_has_no_type: "[1, null]" => None;
        json_nested_arrays: "[[], [1]]" => Some((ParamType::array(ParamType::array(ParamType::Integer)), false));
        json_object: r#"{"a": 1, "b": "x"}"# => Some((object(&[("a", ParamType::Integer), ("b", ParamType::String)]), false));
        json_empty_object_is_any: "{}" => Some((ParamType::object([]), false));
        json_objects_in_array_merge: r#"[{"a": 1}, {"b": true, "a": 2.5}]"#
            => Some((ParamType::array(object(&[("a", ParamType::Number), ("b", ParamType::Boolean)])), false));
        json_object_with_null_is_widened: r#"{"a": null}"# => Some((ParamType::object([]), true));
        json_object_with_mixed_array_is_widened: r#"{"a": [1, "x"]}"# => Some((ParamType::object([]), true));
        json_invalid_property_name_is_any: r#"{"a.b": 1}"# => Some((ParamType::object([]), true));
        json_objects_and_scalars_do_not_mix: r#"[{"a": 1}, 2]"# => None;
    });

    #[test]
    fn deep_nesting_stops_at_the_type_depth() {
        let deep_objects = format!("{}1{}", r#"{"a":"#.repeat(40), "}".repeat(40));
        let (ty, _) = typed(&deep_objects).unwrap();
        let mut depth = 1;
        let mut current = &ty;
        while let ParamType::Object(props) = current {
            match props.first() {
                Some(p) => {
                    current = p.ty();
                    depth += 1;
                }
                None => break,
            }
        }
        assert_eq!(depth, MAX_TYPE_DEPTH);
        let deep_arrays = format!("{}1{}", "[".repeat(40), "]".repeat(40));
        assert_eq!(typed(&deep_arrays), None);
        let wrapped = format!(r#"{{"a": {}1{}}}"#, "[".repeat(40), "]".repeat(40));
        assert_eq!(typed(&wrapped), Some((ParamType::object([]), true)));
    }

    #[test]
    fn many_members_make_any_object() {
        let members: Vec<String> = (0..=MAX_PROPERTIES)
            .map(|i| format!("\"k{}\": 1", i))
            .collect();
        let text = format!("{{{}}}", members.join(","));
        assert_eq!(typed(&text), Some((ParamType::object([]), true)));
    }
}
