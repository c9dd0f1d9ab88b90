//! What the Postman and HAR importers share: credentials turned into `${NAME}` variables,
//! and one endpoint's parameters gathered from samples, named and typed by the rules of
//! [`curl::infer`](crate::curl::infer).

use std::collections::{HashMap, HashSet};

use crate::curl::infer;
use crate::curl::Variable;
use crate::json::{Json, Map};
use crate::plugin::naming::{self, Names};
use crate::plugin::{
    ConfigValue, Location, Param, ParamBuilder, ParamType, MAX_OUTPUT_SCHEMA_BYTES,
};

/// The credentials of one import: each becomes a `${NAME}` variable of the plugin file
/// (the plugin in memory holds the value), listed once.
pub(crate) struct Secrets {
    prefix: String,
    keep: bool,
    variables: Vec<Variable>,
    listed: HashSet<String>,
    /// The variable [`secret`](Secrets::secret) named for each name and value it was given.
    named: HashMap<(String, String), String>,
    /// How many values each name was given.
    taken: HashMap<String, usize>,
    /// Every name given.
    given: HashSet<String>,
}

impl Secrets {
    /// Variables named `PREFIX_...`; with `keep`, values are written as they are.
    pub(crate) fn new(prefix: &str, keep: bool) -> Secrets {
        Secrets {
            prefix: prefix.to_string(),
            keep,
            variables: Vec::new(),
            listed: HashSet::new(),
            named: HashMap::new(),
            taken: HashMap::new(),
            given: HashSet::new(),
        }
    }

    /// Whether values are kept as they are.
    pub(crate) fn keeps(&self) -> bool {
        self.keep
    }

    /// The variables listed so far.
    pub(crate) fn into_variables(self) -> Vec<Variable> {
        self.variables
    }

    /// Lists `name` (once) with what it holds.
    pub(crate) fn list(&mut self, name: &str, purpose: &str) {
        if self.listed.insert(name.to_string()) {
            self.variables.push(Variable::new(name, purpose));
        }
    }

    /// A credential's value: a `${PREFIX_SUFFIX}` variable holding `value` in memory, or the
    /// value itself when secrets are kept or it is empty. Another value under a name already
    /// given gets a name of its own (`PREFIX_SUFFIX_2`): loaded from the file, one variable
    /// must not send one request's credential with another's (another host's key).
    pub(crate) fn secret(&mut self, suffix: &str, purpose: &str, value: &str) -> ConfigValue {
        if self.keep || value.is_empty() {
            return ConfigValue::literal(value);
        }
        let base = naming::env_name(&[&self.prefix, &infer::snake_case(suffix)]);
        let key = (base, value.to_string());
        let name = match self.named.get(&key) {
            Some(name) => name.clone(),
            None => {
                // The next free name of this base: a numbered name another base already
                // took (`KEY_2` written as such) is skipped, never shared.
                let count = self.taken.entry(key.0.clone()).or_insert(0);
                let name = loop {
                    *count += 1;
                    let name = match *count {
                        1 => key.0.clone(),
                        n => format!("{}_{}", key.0, n),
                    };
                    if !self.given.contains(&name) {
                        break name;
                    }
                };
                self.given.insert(name.clone());
                self.named.insert(key, name.clone());
                name
            }
        };
        self.list(&name, purpose);
        ConfigValue::from_template(format!("${{{}}}", name), value.to_string())
    }
}

/// A hidden parameter (the model neither sees nor sets it) whose default is `value`, its
/// `${NAME}` template written in the file; `secret` masks it in logs and dry runs (a query
/// or header value; a body field cannot be masked, and being hidden is enough there).
pub(crate) fn fixed_param(builder: ParamBuilder, value: &ConfigValue, secret: bool) -> Param {
    let mut param = builder
        .hidden(true)
        .default(value.value().unwrap_or("").to_string())
        .build();
    param.secret = secret && matches!(param.location(), Location::Query | Location::Header);
    param.default_template = value.template().map(str::to_string);
    param
}

/// One endpoint's parameters, their names unique.
#[derive(Default)]
pub(crate) struct Params {
    names: Names,
    params: Vec<Param>,
}

impl Params {
    /// A builder for `wire` in `location`: the model's name is the wire name made valid and
    /// unique, the wire name declared only when they differ.
    pub(crate) fn named(&self, location: Location, wire: &str) -> ParamBuilder {
        let name = self.names.unique(&infer::param_name(wire));
        let builder = Param::builder(name.clone()).location(location);
        if name == wire {
            builder
        } else {
            builder.wire_name(wire)
        }
    }

    /// Adds a parameter.
    pub(crate) fn push(&mut self, param: Param) {
        self.names.take(param.name());
        self.params.push(param);
    }

    /// Whether a parameter of `location` with this wire name is there (header names
    /// compared without case).
    pub(crate) fn has(&self, location: Location, wire: &str) -> bool {
        self.params.iter().any(|p| {
            p.location() == location
                && if location == Location::Header {
                    p.wire_name().eq_ignore_ascii_case(wire)
                } else {
                    p.wire_name() == wire
                }
        })
    }

    /// The parameters, in order.
    pub(crate) fn into_params(self) -> Vec<Param> {
        self.params
    }
}

/// The type of a text sample (`42` an integer, `true` a boolean, else a string).
pub(crate) fn text_type(text: &str) -> ParamType {
    infer::scalar_type(&infer::text_value(text)).unwrap_or(ParamType::String)
}

/// The type of a JSON sample, `None` when no type takes it (an array mixing types), and
/// whether it was widened to "any object" somewhere.
pub(crate) fn json_type(value: &Json) -> Option<(ParamType, bool)> {
    if value.is_null() {
        return Some((ParamType::String, false));
    }
    infer::json_type(value, 1)
}

/// The deepest an output schema describes a response (deeper is any value).
const MAX_SCHEMA_DEPTH: usize = 12;

/// The most properties an output schema lists for one object.
const MAX_SCHEMA_PROPERTIES: usize = 256;

/// The JSON Schema of a value's shape: types and property names, never a value.
/// Recursion is bounded by [`MAX_SCHEMA_DEPTH`], not by the value.
pub(crate) fn shape(value: &Json) -> Json {
    shape_at(value, 0)
}

fn shape_at(value: &Json, depth: usize) -> Json {
    let mut schema = Map::new();
    if depth >= MAX_SCHEMA_DEPTH {
        return Json::Object(schema);
    }
    match value {
        Json::Null => {}
        Json::Bool(_) => {
            schema.insert("type", "boolean");
        }
        Json::Number(n) => {
            let integer = n.is_integer() && !n.is_f64();
            schema.insert("type", if integer { "integer" } else { "number" });
        }
        Json::String(_) => {
            schema.insert("type", "string");
        }
        Json::Array(items) => {
            schema.insert("type", "array");
            if let Some(first) = items.first() {
                schema.insert("items", shape_at(first, depth + 1));
            }
        }
        Json::Object(map) => {
            schema.insert("type", "object");
            let mut properties = Map::new();
            for (key, member) in map.iter().take(MAX_SCHEMA_PROPERTIES) {
                properties.insert(key.to_string(), shape_at(member, depth + 1));
            }
            schema.insert("properties", Json::Object(properties));
        }
    }
    Json::Object(schema)
}

/// Whether an output schema is small enough for the plugin.
pub(crate) fn fits(schema: &Json) -> bool {
    schema.to_string().len() <= MAX_OUTPUT_SCHEMA_BYTES
}

/// `text` cut to at most `max` bytes, at a character boundary.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

/// A path segment percent-encoded where RFC 3986 section 3.3 allows no raw character (a
/// `%XX` already there is kept).
pub(crate) fn encode_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    let bytes = segment.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let pct = b == b'%'
            && bytes.get(i + 1).map_or(false, u8::is_ascii_hexdigit)
            && bytes.get(i + 2).map_or(false, u8::is_ascii_hexdigit);
        let allowed = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b);
        if allowed || pct {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{:02X}", b));
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_encoded_once() {
        assert_eq!(encode_segment("a b"), "a%20b");
        assert_eq!(encode_segment("a%20b"), "a%20b");
        assert_eq!(encode_segment("x:y@z"), "x:y@z");
        assert_eq!(encode_segment("é"), "%C3%A9");
    }

    #[test]
    fn literal_secrets_become_variables() {
        let mut secrets = Secrets::new("shop", false);
        let value = secrets.secret("token", "the bearer token", "t0ken");
        assert_eq!(value.template(), Some("${SHOP_TOKEN}"));
        assert_eq!(value.value(), Some("t0ken"));
        assert_eq!(secrets.into_variables()[0].name(), "SHOP_TOKEN");
    }

    #[test]
    fn each_distinct_value_has_a_variable_of_its_own() {
        let mut secrets = Secrets::new("shop", false);
        let mut name = |suffix: &str, value: &str| {
            let secret = secrets.secret(suffix, "a key", value);
            secret.template().unwrap_or("").to_string()
        };
        assert_eq!(name("key", "a"), "${SHOP_KEY}");
        assert_eq!(name("key", "b"), "${SHOP_KEY_2}");
        assert_eq!(name("key", "a"), "${SHOP_KEY}");
        // A name another suffix would give as it is is never shared.
        assert_eq!(name("key_2", "c"), "${SHOP_KEY_2_2}");
        assert_eq!(name("key", "d"), "${SHOP_KEY_3}");
    }
}
