//! Scalars into values by the YAML 1.2 core schema (YAML 1.2.2 section 10.3.2).

use super::error::Reason;
use crate::json::{Json, Number};

pub(crate) enum Resolved {
    Value(Json),
    Error(Reason),
}

/// A plain scalar with no tag: null, bool, int, float or string, by the core schema's table.
pub(crate) fn resolve_plain(text: &str) -> Resolved {
    let first = match text.as_bytes().first() {
        None => return Resolved::Value(Json::Null),
        Some(&b) => b,
    };
    // Most scalars are words: one look at the first byte sends them straight to strings.
    if !matches!(
        first,
        b'0'..=b'9' | b'-' | b'+' | b'.' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'~'
    ) {
        return string(text);
    }
    match text {
        "~" | "null" | "Null" | "NULL" => return Resolved::Value(Json::Null),
        "true" | "True" | "TRUE" => return Resolved::Value(Json::Bool(true)),
        "false" | "False" | "FALSE" => return Resolved::Value(Json::Bool(false)),
        _ => {}
    }
    if let Some(value) = number(text) {
        return value;
    }
    string(text)
}

fn string(text: &str) -> Resolved {
    Resolved::Value(Json::String(text.to_owned()))
}

/// A scalar with a core schema tag (`name` is what follows `tag:yaml.org,2002:`).
pub(crate) fn resolve_tagged(name: &str, text: &str) -> Resolved {
    match name {
        "str" => string(text),
        "null" => match text {
            "" | "~" | "null" | "Null" | "NULL" => Resolved::Value(Json::Null),
            _ => Resolved::Error(Reason::TagMismatch),
        },
        "bool" => match text {
            "true" | "True" | "TRUE" => Resolved::Value(Json::Bool(true)),
            "false" | "False" | "FALSE" => Resolved::Value(Json::Bool(false)),
            _ => Resolved::Error(Reason::TagMismatch),
        },
        "int" => match integer(text) {
            Some(v) => v,
            None => Resolved::Error(Reason::TagMismatch),
        },
        "float" => match integer(text) {
            // An integer under `!!float` becomes the nearest double (a huge one keeps its
            // digits).
            Some(Resolved::Value(v)) => match v.as_f64().and_then(float_value) {
                Some(f) => Resolved::Value(f),
                None => Resolved::Value(v),
            },
            Some(other) => other,
            None => float(text).unwrap_or(Resolved::Error(Reason::TagMismatch)),
        },
        // `map` and `seq` on a scalar.
        _ => Resolved::Error(Reason::TagMismatch),
    }
}

fn number(text: &str) -> Option<Resolved> {
    integer(text).or_else(|| float(text))
}

/// `[-+]? [0-9]+`, `0o [0-7]+`, `0x [0-9a-fA-F]+`.
fn integer(text: &str) -> Option<Resolved> {
    let bytes = text.as_bytes();
    if let Some(hex) = text.strip_prefix("0x") {
        return radix(hex, 16);
    }
    if let Some(oct) = text.strip_prefix("0o") {
        return radix(oct, 8);
    }
    let (negative, digits) = match bytes.first() {
        Some(b'-') => (true, text.get(1..)?),
        Some(b'+') => (false, text.get(1..)?),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // The core schema reads `0755` as decimal 755; JSON wants no leading zeros.
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        return Some(Resolved::Value(Json::Number(Number::from(0u8))));
    }
    let mut json = String::with_capacity(trimmed.len() + 1);
    if negative {
        json.push('-');
    }
    json.push_str(trimmed);
    json.parse::<Number>()
        .ok()
        .map(|n| Resolved::Value(Json::Number(n)))
}

fn radix(digits: &str, radix: u32) -> Option<Resolved> {
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    Some(match u64::from_str_radix(digits, radix) {
        Ok(n) => Resolved::Value(Json::Number(Number::from(n))),
        Err(_) => Resolved::Error(Reason::IntegerTooLarge),
    })
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`, `[-+]? \.inf`,
/// `\.nan` (in the spellings the schema lists).
fn float(text: &str) -> Option<Resolved> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..)?),
        Some(b'+') => (false, text.get(1..)?),
        _ => (false, text),
    };
    if matches!(rest, ".inf" | ".Inf" | ".INF")
        || (rest == text && matches!(rest, ".nan" | ".NaN" | ".NAN"))
    {
        return Some(Resolved::Error(Reason::NotJsonNumber));
    }
    let bytes = rest.as_bytes();
    let mut i = 0;
    while bytes.get(i).map_or(false, u8::is_ascii_digit) {
        i += 1;
    }
    let int_digits = i;
    let mut frac_digits = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        while bytes.get(i).map_or(false, u8::is_ascii_digit) {
            i += 1;
            frac_digits += 1;
        }
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    let mantissa_end = i;
    let mut exponent = "";
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let start = i + 1;
        let mut j = start;
        if matches!(bytes.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        let digits_start = j;
        while bytes.get(j).map_or(false, u8::is_ascii_digit) {
            j += 1;
        }
        if j == digits_start {
            return None;
        }
        exponent = rest.get(start..j)?;
        i = j;
    }
    if i != bytes.len() {
        return None;
    }
    // Rewrite in JSON's grammar: `-`, digits without leading zeros, `.digits`, `e...`.
    let int_part = rest.get(..int_digits)?.trim_start_matches('0');
    let frac_part = rest.get(int_digits + 1..mantissa_end).unwrap_or("");
    let mut json = String::with_capacity(text.len() + 3);
    if negative {
        json.push('-');
    }
    json.push_str(if int_part.is_empty() { "0" } else { int_part });
    json.push('.');
    json.push_str(if frac_part.is_empty() { "0" } else { frac_part });
    if !exponent.is_empty() {
        json.push('e');
        json.push_str(exponent);
    }
    json.parse::<Number>()
        .ok()
        .map(|n| Resolved::Value(Json::Number(n)))
}

fn float_value(f: f64) -> Option<Json> {
    if f.is_finite() {
        Some(Json::Number(Number::from_finite(f)))
    } else {
        None
    }
}
