//! From the model's arguments to one checked value a parameter: unknown names, value order,
//! coercion, enums, and hidden values from the call context (`crate::design::endpoints`,
//! "Unknown arguments", "Value order", "Coercion", "Call context"). Pure: values in, values
//! or a message for the model out.

use std::fmt::Write;

use crate::json::{Json, Map, Number, ParseOptions};
use crate::plugin::call::auth;
use crate::plugin::call::schema_check;
use crate::plugin::declare::model::{Endpoint, Param, ParamType};
use crate::plugin::error::{quote, short_value as short};
use crate::tool::small_set::NameIndex;
use crate::tool::{unknown_name_message, CallContext, ErrorKind, ToolOutput};

/// The value of each parameter, by index: `None` for an absent optional one.
pub(crate) type Values = Vec<Option<Json>>;

/// Reads the arguments of one call.
///
/// # Errors
///
/// The output the model gets: an unknown (or hidden) parameter with the closest name
/// suggested, a missing required one, or a value that cannot be read as its type.
pub(crate) fn resolve(
    endpoint: &Endpoint,
    defs: &Map,
    arguments: Map,
    context: &CallContext,
) -> Result<Values, ToolOutput> {
    let params = &endpoint.params;
    let mut values: Values = Vec::with_capacity(params.len());
    values.resize_with(params.len(), || None);
    // One pass over the arguments, moving each value to its parameter's slot: the names are
    // indexed, so a call is linear in its arguments and parameters, never their product.
    let visible = NameIndex::new(
        params
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_hidden())
            .map(|(i, p)| (p.name.as_str(), i)),
    );
    for (name, value) in arguments {
        let slot = visible.position(&name).and_then(|i| values.get_mut(i));
        match slot {
            Some(slot) => *slot = Some(value),
            None if endpoint.allow_unknown_arguments => {}
            None => return Err(unknown(endpoint, &name)),
        }
    }
    for (param, slot) in params.iter().zip(values.iter_mut()) {
        *slot = if param.is_hidden() {
            hidden_value(param, context)?
        } else {
            model_value(param, defs, slot.take())?
        };
    }
    Ok(values)
}

/// An argument that names no parameter the model may set: a hidden one is refused like an
/// unknown one, so its existence is not revealed.
fn unknown(endpoint: &Endpoint, name: &str) -> ToolOutput {
    let visible = endpoint
        .params
        .iter()
        .filter(|p| !p.is_hidden())
        .map(|p| p.name.as_str());
    ToolOutput::error(
        ErrorKind::UnknownParameter,
        unknown_name_message("parameter", name, visible),
    )
}

/// `null` and `""` count as absent: they never override a default
/// ([value order](crate::design::endpoints#value-order)).
fn present(value: Option<Json>) -> Option<Json> {
    let absent = match &value {
        Some(Json::Null) => true,
        Some(Json::String(s)) => s.is_empty(),
        _ => false,
    };
    if absent {
        None
    } else {
        value
    }
}

fn model_value(param: &Param, defs: &Map, given: Option<Json>) -> Result<Option<Json>, ToolOutput> {
    let value = match present(given) {
        Some(value) => value,
        None => return default_or_missing(param),
    };
    let value = coerce(value, &param.ty).map_err(|e| invalid(e.message(&param.name)))?;
    check_format(param, &value)
        .map_err(|problem| invalid(format!("parameter {} {}", quote(&param.name), problem)))?;
    check_enum(param, &value)?;
    if let Some(schema) = &param.schema {
        schema_check::check(&value, schema, defs)
            .map_err(|problem| invalid(format!("parameter {}{}", quote(&param.name), problem)))?;
    }
    Ok(Some(value))
}

fn hidden_value(param: &Param, context: &CallContext) -> Result<Option<Json>, ToolOutput> {
    let text = match context.get(param.context_key()) {
        Some(text) if !text.is_empty() => text,
        _ if param.default.is_some() || !param.is_required() => return Ok(param.default.clone()),
        _ => return Err(auth::missing_context(param.context_key())),
    };
    // Context values are secret: the message never repeats one.
    let unusable = || {
        ToolOutput::error(
            ErrorKind::InvalidParameter,
            format!(
                "the application's call context value {} is not a valid {} for this tool; this is not caused by the arguments",
                quote(param.context_key()),
                param.ty.as_str()
            ),
        )
    };
    let value = coerce(Json::from(text), &param.ty).map_err(|_| unusable())?;
    check_format(param, &value).map_err(|_| unusable())?;
    if !param.enum_values.is_empty() && !param.enum_values.contains(&value) {
        return Err(unusable());
    }
    Ok(Some(value))
}

fn default_or_missing(param: &Param) -> Result<Option<Json>, ToolOutput> {
    match &param.default {
        Some(default) => Ok(Some(default.clone())),
        None if param.is_required() => Err(ToolOutput::error(
            ErrorKind::MissingParameter,
            format!(
                "missing required parameter {} ({}); null and \"\" count as missing",
                quote(&param.name),
                type_phrase(&param.ty)
            ),
        )),
        None => Ok(None),
    }
}

fn check_enum(param: &Param, value: &Json) -> Result<(), ToolOutput> {
    if param.enum_values.is_empty() || param.enum_values.contains(value) {
        return Ok(());
    }
    let mut accepted = String::new();
    for (i, v) in param.enum_values.iter().enumerate() {
        if i > 0 {
            accepted.push_str(", ");
        }
        accepted.push_str(&short(v));
    }
    Err(invalid(format!(
        "parameter {} must be one of {}; got {}",
        quote(&param.name),
        accepted,
        short(value)
    )))
}

fn invalid(message: String) -> ToolOutput {
    ToolOutput::error(ErrorKind::InvalidParameter, message)
}

/// What a value failed at: the path below the parameter (innermost last once reversed) and
/// the problem. Built only on failure, so a call that succeeds allocates nothing for it.
pub(crate) struct CoerceError {
    /// Segments from the innermost outwards: `[2]`, `.city`.
    segments: Vec<String>,
    problem: String,
}

impl CoerceError {
    fn new(problem: String) -> CoerceError {
        CoerceError {
            segments: Vec::new(),
            problem,
        }
    }

    fn within(mut self, segment: String) -> CoerceError {
        self.segments.push(segment);
        self
    }

    /// `parameter 'ids[2]' must be an integer; got "x"`.
    pub(crate) fn message(&self, name: &str) -> String {
        let mut path = String::from(name);
        for segment in self.segments.iter().rev() {
            path.push_str(segment);
        }
        format!("parameter {} {}", quote(&path), self.problem)
    }
}

/// Reads `value` as type `ty` ([coercion](crate::design::endpoints#coercion)): `"42"` is 42 for
/// an integer,
/// `"true"`/`"false"`/`"1"`/`"0"`/`"yes"`/`"no"` are booleans, a JSON-encoded string is an
/// array or object, a number or boolean is text for a string. Anything else is an error
/// naming the expected type, never a silent `false`, 0 or empty value.
///
/// Recursion follows the declared type, whose depth the plugin's checks bound; values are
/// not walked deeper than their type.
pub(crate) fn coerce(value: Json, ty: &ParamType) -> Result<Json, CoerceError> {
    match ty {
        ParamType::String => to_string(value),
        ParamType::Integer => to_integer(value),
        ParamType::Number => to_number(value),
        ParamType::Boolean => to_boolean(value),
        ParamType::Array(items) => to_array(value, ty, items),
        ParamType::Object(_) => to_object(value, ty),
        ParamType::Any => Ok(value),
    }
}

fn mismatch(value: &Json, ty: &ParamType) -> CoerceError {
    CoerceError::new(format!("must be {}; got {}", type_phrase(ty), short(value)))
}

fn to_string(value: Json) -> Result<Json, CoerceError> {
    match &value {
        Json::String(_) => Ok(value),
        Json::Number(n) => Ok(Json::String(n.to_string())),
        Json::Bool(b) => Ok(Json::String(b.to_string())),
        _ => Err(mismatch(&value, &ParamType::String)),
    }
}

fn to_number(value: Json) -> Result<Json, CoerceError> {
    let number = match &value {
        Json::Number(n) => Some(n.clone()),
        Json::String(s) => s.trim().parse::<Number>().ok(),
        _ => None,
    };
    number
        .map(Json::Number)
        .ok_or_else(|| mismatch(&value, &ParamType::Number))
}

/// 2^53: below it every integer is exactly a double and neighbouring integers stay apart, so
/// a number written with a fraction or an exponent (held as a double) is the integer that
/// was written. From it on, `9.007199254740993e15` reads as `9007199254740992` (2^53).
const EXACT_DOUBLE_LIMIT: f64 = 9_007_199_254_740_992.0;

/// An integer that is sent as plain digits, never in exponent form:
///
/// | given | result |
/// | --- | --- |
/// | digits (`42`, `-7`, `123456789012345678901`), as a number or a string | those digits |
/// | a whole number with a fraction or exponent below 2^53 (`3.0`, `1e3`, `"1e3"`) | its digits (`3`, `1000`) |
/// | the same from 2^53 on (`1e20`, `9.007199254740993e15`, `1e400`) | an error: it may not be the integer meant; send digits |
/// | anything else (`2.5`, `"abc"`, `1e-400`) | an error: not an integer |
///
/// A fraction whose digits a double cannot hold (`3.0000000000000001`) reads as the double
/// nearest to it, here `3.0`: the JSON parser keeps such numbers as doubles.
fn to_integer(value: Json) -> Result<Json, CoerceError> {
    let number = match &value {
        Json::Number(n) => Some(n.clone()),
        Json::String(s) => s.trim().parse::<Number>().ok(),
        _ => None,
    };
    let number = match number {
        Some(n) if n.is_integer() => n,
        _ => return Err(mismatch(&value, &ParamType::Integer)),
    };
    if let Some(f) = number.as_double() {
        if f.abs() >= EXACT_DOUBLE_LIMIT {
            return Err(not_plain(
                &value,
                "from 2^53 on, a fraction or exponent may not hold the integer meant",
            ));
        }
        // Exact: whole and below 2^53. `-0.0` becomes 0.
        return Ok(Json::Number(Number::from(f as i64)));
    }
    if number.is_i64() || number.is_u64() {
        return Ok(Json::Number(number));
    }
    // Beyond i64 and u64 the number keeps its text: digits pass as written, an exponent
    // (`1e400`) would have to be expanded into as many digits.
    let text = number.to_string();
    let digits = text.strip_prefix('-').unwrap_or(&text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(Json::Number(number));
    }
    Err(not_plain(&value, "an exponent is not sent"))
}

fn not_plain(value: &Json, why: &str) -> CoerceError {
    CoerceError::new(format!(
        "must be an integer in plain digits ({}); got {}",
        why,
        short(value)
    ))
}

/// Checks an integer against the parameter's declared `format` (`int32`, `int64`); other
/// formats carry no range.
pub(crate) fn check_format(param: &Param, value: &Json) -> Result<(), String> {
    let (low, high) = match (&param.ty, param.format.as_deref()) {
        (ParamType::Integer, Some("int32")) => (i64::from(i32::MIN), i64::from(i32::MAX)),
        (ParamType::Integer, Some("int64")) => (i64::MIN, i64::MAX),
        _ => return Ok(()),
    };
    let fits = value
        .as_number()
        .and_then(Number::as_i64)
        .map_or(false, |n| (low..=high).contains(&n));
    if fits {
        Ok(())
    } else {
        Err(format!(
            "must fit {} ({} to {}); got {}",
            param.format.as_deref().unwrap_or(""),
            low,
            high,
            short(value)
        ))
    }
}

fn to_boolean(value: Json) -> Result<Json, CoerceError> {
    let b = match &value {
        Json::Bool(b) => Some(*b),
        Json::Number(n) => match n.as_i64() {
            Some(1) => Some(true),
            Some(0) => Some(false),
            _ => None,
        },
        Json::String(s) => {
            let s = s.trim();
            let any = |words: &[&str]| words.iter().any(|w| w.eq_ignore_ascii_case(s));
            if any(&["true", "1", "yes"]) {
                Some(true)
            } else if any(&["false", "0", "no"]) {
                Some(false)
            } else {
                None
            }
        }
        _ => None,
    };
    b.map(Json::Bool)
        .ok_or_else(|| mismatch(&value, &ParamType::Boolean))
}

/// A string holding JSON text of the container type is read as that JSON.
fn decode_string(value: Json, open: char) -> Json {
    let decoded = match &value {
        Json::String(s) if s.trim_start().starts_with(open) => ParseOptions::new()
            .reject_duplicate_keys(true)
            .parse(s)
            .ok(),
        _ => None,
    };
    decoded.unwrap_or(value)
}

fn to_array(value: Json, ty: &ParamType, items: &ParamType) -> Result<Json, CoerceError> {
    let mut value = decode_string(value, '[');
    if !value.is_array() {
        return Err(mismatch(&value, ty));
    }
    // Items are coerced in place: no second vector.
    for (i, element) in value.as_array_mut().into_iter().flatten().enumerate() {
        let coerced = if element.is_null() {
            Err(mismatch(element, items))
        } else {
            coerce(element.take(), items)
        };
        *element = coerced.map_err(|e| e.within(format!("[{}]", i)))?;
    }
    Ok(value)
}

fn to_object(value: Json, ty: &ParamType) -> Result<Json, CoerceError> {
    let value = decode_string(value, '{');
    if !value.is_object() {
        return Err(mismatch(&value, ty));
    }
    let properties = match ty {
        ParamType::Object(properties) if !properties.is_empty() => properties,
        _ => return Ok(value),
    };
    let map = value.into_object().unwrap_or_default();
    let names = || properties.iter().map(|p| p.name());
    // Each member moves to its property's slot in one pass (no `remove` a property, which
    // would shift the rest): linear in the members and properties.
    let index = NameIndex::new(names().zip(0..));
    let mut slots: Vec<Option<Json>> = Vec::with_capacity(properties.len());
    slots.resize_with(properties.len(), || None);
    for (key, member) in map {
        match index.position(&key).and_then(|i| slots.get_mut(i)) {
            Some(slot) => *slot = Some(member),
            None => {
                return Err(CoerceError::new(format!(
                    "has an {}",
                    unknown_name_message("property", &key, names())
                )))
            }
        }
    }
    let mut out = Vec::with_capacity(properties.len());
    for (property, slot) in properties.iter().zip(slots) {
        match present(slot) {
            Some(v) => {
                let v = coerce(v, property.ty())
                    .map_err(|e| e.within(format!(".{}", property.name())))?;
                out.push((property.name().to_string(), v));
            }
            None if property.is_required() => {
                return Err(CoerceError::new(format!(
                    "lacks required property {} ({})",
                    quote(property.name()),
                    type_phrase(property.ty())
                )))
            }
            None => {}
        }
    }
    // Collected (property names are unique): linear, where inserting one by one scans.
    Ok(Json::Object(out.into_iter().collect()))
}

/// `a string`, `an integer`, `an array of strings`, `an object`.
pub(crate) fn type_phrase(ty: &ParamType) -> String {
    match ty {
        ParamType::String => String::from("a string"),
        ParamType::Integer => String::from("an integer"),
        ParamType::Number => String::from("a number"),
        ParamType::Boolean => String::from("a boolean"),
        ParamType::Array(items) => format!("an array of {}", plural(items)),
        ParamType::Object(properties) if properties.is_empty() => String::from("an object"),
        ParamType::Any => String::from("any JSON value"),
        ParamType::Object(properties) => {
            let mut phrase = String::from("an object with properties ");
            for (i, p) in properties.iter().enumerate() {
                if i > 0 {
                    phrase.push_str(", ");
                }
                let _ = write!(phrase, "{}", p.name());
            }
            phrase
        }
    }
}

fn plural(ty: &ParamType) -> String {
    match ty {
        ParamType::String => String::from("strings"),
        ParamType::Integer => String::from("integers"),
        ParamType::Number => String::from("numbers"),
        ParamType::Boolean => String::from("booleans"),
        ParamType::Array(_) => String::from("arrays"),
        ParamType::Object(_) => String::from("objects"),
        ParamType::Any => String::from("values"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::plugin::Property;

    macro_rules! coerce_ok {
        ($($name:ident: $value:expr, $ty:expr => $expected:expr;)*) => {$(
            #[test]
            fn $name() {
                assert_eq!(coerce($value, &$ty).ok(), Some($expected));
            }
        )*};
    }

    coerce_ok! {
        string_from_string: json!("x"), ParamType::String => json!("x");
        string_from_number: json!(42), ParamType::String => json!("42");
        string_from_bool: json!(true), ParamType::String => json!("true");
        integer_from_number: json!(42), ParamType::Integer => json!(42);
        integer_from_string: json!("42"), ParamType::Integer => json!(42);
        integer_from_padded_string: json!(" -7 "), ParamType::Integer => json!(-7);
        integer_from_whole_float: json!(3.0), ParamType::Integer => json!(3);
        integer_from_big_text: json!("123456789012345678901"), ParamType::Integer => crate::json::parse("123456789012345678901").unwrap();
        number_from_string: json!("2.5"), ParamType::Number => json!(2.5);
        number_from_exponent: json!("1e3"), ParamType::Number => json!(1000.0);
        bool_true: json!("true"), ParamType::Boolean => json!(true);
        bool_yes: json!("YES"), ParamType::Boolean => json!(true);
        bool_one: json!("1"), ParamType::Boolean => json!(true);
        bool_no: json!("no"), ParamType::Boolean => json!(false);
        bool_zero_number: json!(0), ParamType::Boolean => json!(false);
        array_from_array: json!([1, "2"]), ParamType::array(ParamType::Integer) => json!([1, 2]);
        array_from_json_string: json!("[\"a\",\"b\"]"), ParamType::array(ParamType::String) => json!(["a", "b"]);
        object_from_json_string: json!("{\"a\":1}"), ParamType::object([]) => json!({"a": 1});
        object_properties_coerced: json!({"n": "5"}), ParamType::object([Property::new("n", ParamType::Integer)]) => json!({"n": 5});
    }

    macro_rules! coerce_err {
        ($($name:ident: $value:expr, $ty:expr => $message:expr;)*) => {$(
            #[test]
            fn $name() {
                let err = coerce($value, &$ty).err().expect("an error");
                assert_eq!(err.message("p"), $message);
            }
        )*};
    }

    coerce_err! {
        integer_from_word: json!("abc"), ParamType::Integer => "parameter 'p' must be an integer; got \"abc\"";
        integer_from_fraction: json!(2.5), ParamType::Integer => "parameter 'p' must be an integer; got 2.5";
        number_from_word: json!("x"), ParamType::Number => "parameter 'p' must be a number; got \"x\"";
        bool_from_word: json!("maybe"), ParamType::Boolean => "parameter 'p' must be a boolean; got \"maybe\"";
        bool_from_two: json!(2), ParamType::Boolean => "parameter 'p' must be a boolean; got 2";
        string_from_array: json!([1]), ParamType::String => "parameter 'p' must be a string; got an array";
        string_from_object: json!({}), ParamType::String => "parameter 'p' must be a string; got an object";
        array_from_plain_string: json!("a,b"), ParamType::array(ParamType::String) => "parameter 'p' must be an array of strings; got \"a,b\"";
        array_from_broken_json: json!("[1,"), ParamType::array(ParamType::Integer) => "parameter 'p' must be an array of integers; got \"[1,\"";
        array_item_wrong: json!([1, "x"]), ParamType::array(ParamType::Integer) => "parameter 'p[1]' must be an integer; got \"x\"";
        array_item_null: json!([null]), ParamType::array(ParamType::String) => "parameter 'p[0]' must be a string; got null";
        object_from_number: json!(1), ParamType::object([]) => "parameter 'p' must be an object; got 1";
        object_unknown_property: json!({"ctiy": "x"}), ParamType::object([Property::new("city", ParamType::String)]) => "parameter 'p' has an unknown property 'ctiy'; did you mean 'city'? accepted: city";
        object_missing_property: json!({}), ParamType::object([Property::new("city", ParamType::String).with_required(true)]) => "parameter 'p' lacks required property 'city' (a string)";
        object_nested_path: json!({"a": {"b": "x"}}), ParamType::object([Property::new("a", ParamType::object([Property::new("b", ParamType::Integer)]))]) => "parameter 'p.a.b' must be an integer; got \"x\"";
        long_value_cut: json!("x".repeat(100)), ParamType::Integer => format!("parameter 'p' must be an integer; got \"{}...", "x".repeat(63));
        control_characters_in_values_are_escaped: json!("a\u{85}b\u{7f}c\u{9b}\n"), ParamType::Integer => "parameter 'p' must be an integer; got \"a\\u{85}b\\u{7f}c\\u{9b}\\n\"";
    }
}
