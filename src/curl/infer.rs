//! What a sample says about an API: value types, names for tools, parameters and environment
//! variables, id-looking path segments, credential-looking values and browser noise.
//!
//! Every rule here is a guess from one sample, written down so it can be reviewed and tested:
//! each function has a table of cases in the tests below. Pure: text in, values out.

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

// ----------------------------------------------------------------- values

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

// ----------------------------------------------------------------- names

/// A parameter name every provider accepts, from a wire name: characters outside
/// `A-Z a-z 0-9 _ -` become `_` (`filter[name]` becomes `filter_name`), at most 64 bytes,
/// `param` when nothing is left.
pub(crate) fn param_name(wire: &str) -> String {
    let mapped: String = wire
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = collapse_underscores(&mapped);
    if name.is_empty() {
        "param".to_string()
    } else {
        name
    }
}

/// `name`, or `name_2`, `name_3`, ... : the first not in `taken`, at most 64 bytes.
pub(crate) fn unique(name: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == name) {
        return name.to_string();
    }
    (2..)
        .map(|n| {
            let suffix = format!("_{}", n);
            let keep = tool::MAX_NAME_LEN - suffix.len();
            format!("{}{}", &name[..name.len().min(keep)], suffix)
        })
        .find(|candidate| !taken.iter().any(|t| t == candidate))
        .unwrap_or_else(|| name.to_string())
}

/// `_` runs collapsed, `_` trimmed from both ends, cut to 64 bytes (the text is ASCII).
fn collapse_underscores(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '_' && (out.is_empty() || out.ends_with('_')) {
            continue;
        }
        out.push(c);
    }
    while out.ends_with('_') {
        out.pop();
    }
    out.truncate(tool::MAX_NAME_LEN);
    while out.ends_with('_') {
        out.pop();
    }
    out
}

/// `snake_case` of a word: `PhoneNumbers`, `phone-numbers` and `HTTPServer` become
/// `phone_numbers` and `http_server`; characters outside ASCII letters and digits separate
/// words.
pub(crate) fn snake_case(word: &str) -> String {
    let chars: Vec<char> = word.chars().collect();
    let mut out = String::with_capacity(word.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            out.push('_');
            continue;
        }
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).map_or(false, |n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    collapse_underscores(&out)
}

/// The singular of an English plural, by the common suffix rules (`companies`, `addresses`,
/// `boxes`, `users`); words that do not look plural are returned as they are. Only the last
/// `_`-separated part changes: `phone_numbers` becomes `phone_number`.
pub(crate) fn singular(word: &str) -> String {
    let (head, last) = match word.rfind('_') {
        Some(at) => (&word[..=at], &word[at + 1..]),
        None => ("", word),
    };
    const SAME: [&str; 8] = [
        "news", "status", "series", "species", "analysis", "alias", "canvas", "access",
    ];
    let one = if SAME.contains(&last) || last.len() <= 3 {
        last.to_string()
    } else if let Some(stem) = last.strip_suffix("ies") {
        format!("{}y", stem)
    } else if ["sses", "shes", "ches", "xes", "zzes"]
        .iter()
        .any(|s| last.ends_with(s))
    {
        last[..last.len() - 2].to_string()
    } else if last.ends_with("ss") || last.ends_with("us") || last.ends_with("is") {
        last.to_string()
    } else if let Some(stem) = last.strip_suffix('s') {
        stem.to_string()
    } else {
        last.to_string()
    };
    format!("{}{}", head, one)
}

/// Leading path segments that name an API version rather than a resource: `v1`, `v2beta`,
/// `v1.1`, `api`, `rest`, and dates such as Twilio's `2010-04-01`.
pub(crate) fn is_version_segment(segment: &str) -> bool {
    let lower = segment.to_ascii_lowercase();
    if lower == "api" || lower == "rest" {
        return true;
    }
    if let Some(rest) = lower.strip_prefix('v') {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let tail = &rest[digits..];
        let dotted = tail.strip_prefix('.').map_or(false, |t| {
            !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
        });
        let word = tail.bytes().all(|b| b.is_ascii_lowercase()) && tail.len() <= 6;
        return digits > 0 && (tail.is_empty() || dotted || word);
    }
    is_date(&lower)
}

/// `YYYY-MM-DD`.
fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// Whether a (decoded) path segment looks like an identifier rather than a resource name:
/// digits (`42`), a UUID, hex of 8 or more characters with a digit (`7f3c9a12`, a git
/// sha), a token of 8 or more letters and digits with at least 3 digits (`T0001ABCD`), of
/// 16 or more with a digit (`cus_NffrFeUfNV2Hib`, `AC0123...`) or in upper case, or
/// anything with `@` (an e-mail address).
pub(crate) fn is_id_segment(segment: &str) -> bool {
    if segment.is_empty() || is_version_segment(segment) {
        return false;
    }
    if segment.bytes().all(|b| b.is_ascii_digit()) || segment.contains('@') || is_uuid(segment) {
        return true;
    }
    let token = segment
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let digits = segment.bytes().filter(u8::is_ascii_digit).count();
    let hex = segment.bytes().all(|b| b.is_ascii_hexdigit());
    let upper = segment
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
    let long = segment.len() >= 16;
    token
        && ((digits > 0
            && ((hex && segment.len() >= 8) || (segment.len() >= 8 && digits >= 3) || long))
            || (upper && long))
}

/// Whether a (decoded) path segment looks like a secret token rather than an id (a
/// webhook URL's, a bot token): 20 or more of `A-Z a-z 0-9 _ - :` with at least three upper
/// and three lower case letters and a digit, as random tokens have and ids with a prefix
/// (`AC0b5c...`) do not.
pub(crate) fn is_token_segment(segment: &str) -> bool {
    let count = |f: fn(&u8) -> bool| segment.bytes().filter(f).count();
    let allowed = segment
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"_-:".contains(&b));
    allowed
        && segment.len() >= 20
        && count(u8::is_ascii_uppercase) >= 3
        && count(u8::is_ascii_lowercase) >= 3
        && count(u8::is_ascii_digit) >= 1
}

fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, len)| g.len() == len && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// File extensions dropped from the last segment before naming (`Messages.json`); a
/// segment with another dot is an RPC method name (`chat.postMessage`).
const EXTENSIONS: [&str; 24] = [
    "json", "xml", "csv", "txt", "html", "htm", "php", "asp", "aspx", "jsp", "pdf", "png", "jpg",
    "jpeg", "gif", "svg", "webp", "zip", "gz", "yaml", "yml", "md", "js", "css",
];

/// Last words that are actions rather than resources: the tool is named after the action
/// (`search`, `refund_payment`).
const ACTIONS: [&str; 34] = [
    "search",
    "query",
    "send",
    "login",
    "logout",
    "signin",
    "signup",
    "register",
    "verify",
    "validate",
    "refresh",
    "cancel",
    "approve",
    "reject",
    "publish",
    "archive",
    "restore",
    "upload",
    "download",
    "import",
    "export",
    "execute",
    "run",
    "start",
    "stop",
    "reset",
    "invite",
    "subscribe",
    "unsubscribe",
    "capture",
    "refund",
    "merge",
    "confirm",
    "complete",
];

/// A tool name from the method and the decoded path segments (those after the base URL):
/// `GET /users` is `list_users`, `GET /users/42` `get_user`, `POST /tickets`
/// `create_ticket` (`POST /hooks/42` `post_hook`), `PUT` and `PATCH` `update_...`,
/// `DELETE /users/42` `delete_user`,
/// `GET /v1/weather` `get_weather`, `POST /payments/7/refund` `refund_payment`,
/// `GET /conversations.list` `conversations_list` (RPC style), `POST
/// /models/x:generateContent` `generate_content`. `fallback` names a path with no word
/// (`GET /` is `get_<fallback>`).
pub(crate) fn tool_name(method: &str, segments: &[&str], fallback: &str) -> String {
    let trailing_id = segments
        .last()
        .map_or(false, |s| is_placeholder(s) || is_id_segment(s));
    let words: Vec<&str> = segments
        .iter()
        .copied()
        .filter(|s| {
            !s.is_empty() && !is_placeholder(s) && !is_id_segment(s) && !is_version_segment(s)
        })
        .collect();
    let method = method.to_ascii_uppercase();
    let last = match words.last() {
        Some(last) => strip_extension(last),
        None => return valid_tool_name(&format!("{}_{}", verb(&method), fallback)),
    };
    if let Some((_, action)) = last.rsplit_once(':') {
        return valid_tool_name(&snake_case(action));
    }
    if last.contains('.') {
        return valid_tool_name(&snake_case(last));
    }
    let word = snake_case(last);
    if ACTIONS.contains(&word.as_str()) {
        let previous = words.len().checked_sub(2).and_then(|i| words.get(i));
        return valid_tool_name(&match previous {
            Some(previous) => format!(
                "{}_{}",
                word,
                singular(&snake_case(strip_extension(previous)))
            ),
            None => word,
        });
    }
    let name = match method.as_str() {
        "GET" if !trailing_id && singular(&word) != word => format!("list_{}", word),
        "GET" => format!("get_{}", singular(&word)),
        "POST" if !trailing_id => format!("create_{}", singular(&word)),
        "POST" => format!("post_{}", singular(&word)),
        "DELETE" if !trailing_id => format!("delete_{}", word),
        other => format!("{}_{}", verb(other), singular(&word)),
    };
    valid_tool_name(&name)
}

fn verb(method: &str) -> String {
    match method {
        "PUT" | "PATCH" => "update".to_string(),
        other => other.to_ascii_lowercase(),
    }
}

fn is_placeholder(segment: &str) -> bool {
    segment.starts_with('{') && segment.ends_with('}')
}

fn strip_extension(word: &str) -> &str {
    match word.rsplit_once('.') {
        Some((stem, ext))
            if !stem.is_empty() && EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()) =>
        {
            stem
        }
        _ => word,
    }
}

/// A valid tool name made from `name` (already mostly valid): `call_api` when nothing is left.
fn valid_tool_name(name: &str) -> String {
    let name = param_name(&snake_case(name));
    if name == "param" {
        "call_api".to_string()
    } else {
        name
    }
}

/// A plugin name from the URL's host: the registrable name without its top-level domain
/// and service prefixes (`api.github.com` is `github`, `hooks.slack.com` `slack`,
/// `api.example.co.uk` `example`), the label of a one-label host, `api` for an address.
pub(crate) fn plugin_name(host: &str) -> String {
    let host = host.trim_end_matches('.');
    let address = host.starts_with('[') || host.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if address || host.is_empty() {
        return "api".to_string();
    }
    let labels: Vec<&str> = host.split('.').collect();
    if labels.len() == 1 {
        return param_name(host).to_ascii_lowercase();
    }
    const SECOND_LEVEL: [&str; 8] = ["co", "com", "org", "net", "gov", "ac", "edu", "ne"];
    let without_tld = &labels[..labels.len() - 1];
    let name = without_tld
        .iter()
        .rev()
        .find(|l| !(SECOND_LEVEL.contains(l) && without_tld.len() > 1))
        .copied()
        .unwrap_or("api");
    param_name(&name.to_ascii_lowercase())
}

/// An environment variable name: `PREFIX_SUFFIX` in upper case, with `_` for every
/// character outside `A-Z 0-9` (`github`, `X-Api-Key` give `GITHUB_X_API_KEY`); it starts
/// with a letter.
pub(crate) fn env_name(prefix: &str, suffix: &str) -> String {
    let raw = format!("{}_{}", prefix, suffix);
    let mapped: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    let name = collapse_underscores(&mapped);
    match name.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => name,
        _ => format!("API_{}", name),
    }
}

// ----------------------------------------------------------------- headers and secrets

/// Well-known prefixes of API keys and tokens (Stripe, OpenAI, GitHub, GitLab, Slack, AWS,
/// Google), matched case-sensitively.
const SECRET_PREFIXES: [&str; 19] = [
    "sk-",
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "rk_test_",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xapp-",
    "AKIA",
    "AIza",
    "ya29.",
];

/// Whether a value looks like a credential whatever its name: a well-known key prefix, a
/// `Bearer` or `Basic` credential, or a JSON Web Token (`eyJ...` in three dotted parts).
pub(crate) fn is_secret_value(value: &str) -> bool {
    if SECRET_PREFIXES
        .iter()
        .any(|p| value.starts_with(p) && value.len() >= p.len() + 8)
    {
        return true;
    }
    let lower = value.to_ascii_lowercase();
    if lower.starts_with("bearer ") || lower.starts_with("basic ") {
        return true;
    }
    value.starts_with("eyJ") && value.split('.').count() == 3 && value.len() >= 24
}

/// Headers a browser's "Copy as cURL" adds that an API does not need: client hints
/// (`sec-ch-*`), fetch metadata (`sec-fetch-*`), `sec-gpc`, `priority`, `dnt`,
/// `upgrade-insecure-requests`, `te`, and Postman's `postman-token`. `Cache-Control` and
/// `Pragma` are not among them: they are end-to-end (RFC 9111 section 5.2 and 5.4) and
/// change what a cache between the two answers.
pub(crate) fn is_browser_header(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    const NOISE: [&str; 6] = [
        "sec-gpc",
        "priority",
        "dnt",
        "upgrade-insecure-requests",
        "te",
        "postman-token",
    ];
    lower.starts_with("sec-ch-")
        || lower.starts_with("sec-fetch-")
        || NOISE.contains(&lower.as_str())
}

/// Whether a media type is JSON: `application/json`, `text/json`, or any `+json` type
/// (`application/vnd.api+json`), parameters ignored.
pub(crate) fn is_json_media_type(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
}

/// Whether a media type is `application/x-www-form-urlencoded`, parameters ignored.
pub(crate) fn is_form_media_type(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .eq_ignore_ascii_case("application/x-www-form-urlencoded")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    macro_rules! cases {
        ($function:ident { $($name:ident: $($input:expr),+ => $expected:expr;)* }) => {
            $(
                #[test]
                fn $name() {
                    assert_eq!($function($($input),+), $expected);
                }
            )*
        };
    }

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

    cases!(param_name {
        name_kept: "city" => "city";
        name_with_dash_kept: "per-page" => "per-page";
        name_brackets: "filter[name]" => "filter_name";
        name_dots: "user.email" => "user_email";
        name_dollar: "$top" => "top";
        name_non_ascii: "città" => "citt";
        name_nothing_left: "[]" => "param";
        name_long_cut: &"a".repeat(80) => "a".repeat(64);
    });

    #[test]
    fn unique_names() {
        let taken = vec!["id".to_string(), "id_2".to_string()];
        assert_eq!(unique("id", &taken), "id_3");
        assert_eq!(unique("name", &taken), "name");
        assert_eq!(unique(&"x".repeat(64), &["x".repeat(64)]).len(), 64);
    }

    cases!(snake_case {
        snake_camel: "PhoneNumbers" => "phone_numbers";
        snake_lower_camel: "postMessage" => "post_message";
        snake_acronym: "HTTPServer" => "http_server";
        snake_kebab: "phone-numbers" => "phone_numbers";
        snake_dots: "chat.postMessage" => "chat_post_message";
        snake_digits: "oauth2Token" => "oauth2_token";
        snake_already: "chat_completions" => "chat_completions";
    });

    cases!(singular {
        singular_users: "users" => "user";
        singular_companies: "companies" => "company";
        singular_addresses: "addresses" => "address";
        singular_boxes: "boxes" => "box";
        singular_matches: "matches" => "match";
        singular_status: "status" => "status";
        singular_news: "news" => "news";
        singular_short: "gas" => "gas";
        singular_not_plural: "weather" => "weather";
        singular_last_part_only: "phone_numbers" => "phone_number";
        singular_class: "class" => "class";
    });

    cases!(is_version_segment {
        version_v1: "v1" => true;
        version_v2beta: "v2beta" => true;
        version_dotted: "v1.1" => true;
        version_api: "api" => true;
        version_date: "2010-04-01" => true;
        version_word_is_not: "users" => false;
        version_v_alone_is_not: "v" => false;
        version_video_is_not: "videos" => false;
    });

    cases!(is_id_segment {
        id_digits: "42" => true;
        id_uuid: "123e4567-e89b-12d3-a456-426614174000" => true;
        id_hex: "7f3c9a12" => true;
        id_sha: "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3" => true;
        id_stripe: "cus_NffrFeUfNV2Hib" => true;
        id_slack_team: "T00000000" => true;
        id_email: "ann@example.com" => true;
        id_word_is_not: "orders" => false;
        id_oauth2_is_not: "oauth2" => false;
        id_base64url_is_not: "base64url" => false;
        id_version_is_not: "v1" => false;
        id_short_hex_is_not: "beef" => false;
        id_name_is_not: "hello-world" => false;
        id_upper_token: "XXXXXXXXXXXXXXXXXXXXXXXX" => true;
        id_long_word_is_not: "internationalization" => false;
        id_camel_word_is_not: "getUserPreferences" => false;
    });

    cases!(is_token_segment {
        token_webhook: "aB3dE5fG7hJ9kL1mN3pQ5rS7" => true;
        token_bot: "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11" => true;
        token_docs_placeholder_is_not: "XXXXXXXXXXXXXXXXXXXXXXXX" => false;
        token_twilio_sid_is_not: "AC0123456789abcdef0123456789abcdef" => false;
        token_uuid_is_not: "123e4567-e89b-12d3-a456-426614174000" => false;
        token_short_is_not: "T00000000" => false;
        token_camel_word_is_not: "getUserPreferencesForAccount" => false;
    });

    fn named(method: &str, path: &str) -> String {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        tool_name(method, &segments, "example")
    }

    cases!(named {
        tool_list: "GET", "/users" => "list_users";
        tool_get_item: "GET", "/users/42" => "get_user";
        tool_get_singular: "GET", "/v1/weather" => "get_weather";
        tool_create: "POST", "/v1/tickets" => "create_ticket";
        tool_update: "PATCH", "/users/42" => "update_user";
        tool_replace: "PUT", "/users/{user_id}" => "update_user";
        tool_delete_item: "DELETE", "/users/42" => "delete_user";
        tool_nested: "GET", "/users/42/orders/7f3c9a12" => "get_order";
        tool_nested_list: "GET", "/users/42/orders" => "list_orders";
        tool_action: "POST", "/payments/7/refund" => "refund_payment";
        tool_search: "GET", "/search" => "search";
        tool_rpc: "GET", "/conversations.list" => "conversations_list";
        tool_rpc_post: "POST", "/api/chat.postMessage" => "chat_post_message";
        tool_custom_method: "POST", "/v1beta/models/gemini-pro:generateContent" => "generate_content";
        tool_extension: "POST", "/2010-04-01/Accounts/AC0123456789abcdef/Messages.json" => "create_message";
        tool_file_extension: "GET", "/files/report.pdf" => "get_report";
        tool_root: "GET", "/" => "get_example";
        tool_post_root: "POST", "/" => "post_example";
        tool_head: "HEAD", "/files/9" => "head_file";
        tool_chat: "POST", "/v1/chat/completions" => "create_completion";
        tool_post_to_item: "POST", "/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX" => "post_service";
    });

    cases!(plugin_name {
        host_api_prefix: "api.github.com" => "github";
        host_hooks: "hooks.slack.com" => "slack";
        host_co_uk: "api.example.co.uk" => "example";
        host_single_label: "localhost" => "localhost";
        host_ipv4: "127.0.0.1" => "api";
        host_ipv6: "[::1]" => "api";
        host_dash: "my-service.example.com" => "example";
        host_plain: "example.com" => "example";
    });

    cases!(env_name {
        env_header: "github", "X-Api-Key" => "GITHUB_X_API_KEY";
        env_token: "open-ai", "token" => "OPEN_AI_TOKEN";
        env_digit_start: "9gag", "key" => "API_9GAG_KEY";
    });

    cases!(is_secret_value {
        secret_openai: "sk-proj-abcdefghijkl" => true;
        secret_stripe: "sk_test_4eC39HqLyjWDarjtT1zdp7dc" => true;
        secret_github: "ghp_16C7e42F292c6912E7710c838347Ae178B4a" => true;
        secret_bearer: "Bearer abc" => true;
        secret_jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature" => true;
        secret_short_prefix_only: "sk-" => false;
        secret_plain_word: "application/json" => false;
        secret_skate: "skateboard" => false;
    });

    cases!(is_browser_header {
        browser_client_hint: "sec-ch-ua-platform" => true;
        browser_fetch: "Sec-Fetch-Mode" => true;
        browser_priority: "priority" => true;
        browser_postman: "Postman-Token" => true;
        browser_accept_is_kept: "accept" => false;
        browser_cache_control_is_kept: "Cache-Control" => false;
        browser_pragma_is_kept: "pragma" => false;
        browser_origin_is_kept: "origin" => false;
        browser_referer_is_kept: "referer" => false;
        browser_accept_language_is_kept: "accept-language" => false;
    });

    cases!(is_json_media_type {
        media_json: "application/json" => true;
        media_json_charset: "application/json; charset=utf-8" => true;
        media_vendor_json: "application/vnd.api+json" => true;
        media_text_json: "Text/JSON" => true;
        media_form: "application/x-www-form-urlencoded" => false;
        media_plain: "text/plain" => false;
    });
}
