//! An operation's path as the plugin's path template, checked against its path parameters.

use std::collections::HashSet;

use super::error::Warning;
use super::params::ParamOut;
use super::schema::Converter;
use crate::json::{Json, Map};
use crate::plugin::Location;
use crate::url::encode;

/// The path as a plugin path template: literal parts percent-encoded where the URL needs it,
/// placeholders checked both ways against the path parameters (a missing parameter is added
/// as a required string, an unused one dropped, each with a warning).
pub(super) fn template(
    path: &str,
    params: &mut Vec<ParamOut>,
    at: &str,
    conv: &mut Converter<'_, '_>,
) -> String {
    let mut out = String::with_capacity(path.len() + 1);
    if !path.starts_with('/') {
        out.push('/');
    }
    // Placeholders in path order, each name once, and a set of them: a path may hold
    // thousands, and checking each against every parameter (and back) was quadratic.
    let mut names: Vec<&str> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut rest = path;
    while !rest.is_empty() {
        match (rest.find('{'), rest.find('}')) {
            (Some(o), Some(cl)) if o < cl => {
                encode_literal(&mut out, &rest[..o]);
                let name = &rest[o + 1..cl];
                out.push('{');
                out.push_str(name);
                out.push('}');
                if seen.insert(name) {
                    names.push(name);
                }
                rest = &rest[cl + 1..];
            }
            _ => {
                encode_literal(&mut out, rest);
                rest = "";
            }
        }
    }
    // One warning of each kind per operation, naming every parameter: each warning holds
    // the operation's pointer, which holds the path, so one warning a placeholder would grow
    // with the square of the path's length.
    let mut unused: Vec<String> = Vec::new();
    params.retain(|p| {
        let keep = p.location != Location::Path || seen.contains(p.wire.as_str());
        if !keep {
            unused.push(p.wire.clone());
        }
        keep
    });
    match unused.as_slice() {
        [] => {}
        [one] => conv.warnings.push(Warning::new(
            at,
            format!(
                "path parameter '{}' has no {{{}}} in the path: not imported",
                one, one
            ),
        )),
        many => conv.warnings.push(Warning::new(
            at,
            format!(
                "path parameters '{}' have no placeholder in the path: not imported",
                many.join("', '")
            ),
        )),
    }
    let declared: HashSet<String> = params
        .iter()
        .filter(|p| p.location == Location::Path)
        .map(|p| p.wire.clone())
        .collect();
    let missing: Vec<&str> = names
        .into_iter()
        .filter(|name| !declared.contains(*name))
        .collect();
    match missing.as_slice() {
        [] => {}
        [one] => conv.warnings.push(Warning::new(
            at,
            format!(
                "{{{}}} in the path has no parameter: imported as a required string",
                one
            ),
        )),
        many => conv.warnings.push(Warning::new(
            at,
            format!(
                "{{{}}} in the path have no parameter: imported as required strings",
                many.join("}, {")
            ),
        )),
    }
    for name in missing {
        let mut schema = Map::new();
        schema.insert("type", "string");
        let mut p = ParamOut::new(name, Location::Path, Json::Object(schema));
        p.required = true;
        params.push(p);
    }
    out
}

/// Characters a URL path keeps as they are: RFC 3986 section 3.3 `pchar` and `/`; the rest
/// percent-encoded (a `%` already followed by two hex digits is kept).
fn encode_literal(out: &mut String, literal: &str) {
    encode::encode_str_into(out, literal, &encode::PATH);
}
