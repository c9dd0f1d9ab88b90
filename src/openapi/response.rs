//! An operation's success response as the endpoint's output schema, and its summary as the
//! endpoint's title.
//!
//! # Why the output schema asserts almost nothing
//!
//! MCP clients check `structuredContent` against `outputSchema` (the Python SDK raises when
//! it does not validate), and a document's response schemas are often wrong about the real
//! answers: fields that can be `null` without `nullable`, `required` fields left out,
//! integers sent as strings, enums that grew a value, `additionalProperties: false` on an
//! object that gained a field, `oneOf` branches that overlap. A schema that asserted any of
//! that would make a client reject answers the API really gives. So the schema keeps what
//! describes the answer (properties, items, descriptions, titles, examples) and drops every
//! assertion: `type` (except `"object"` at the root, which MCP requires), `required`, `enum`,
//! `const`, bounds, `pattern`, `additionalProperties: false`, `false` schemas; `oneOf` reads
//! as `anyOf`. What is left validates every JSON value a root object can hold, and a root
//! that is not an object schema is wrapped by the MCP provider as `{"result": ...}`.
//!
//! `format`, `contentMediaType` and `contentEncoding` go too, though JSON Schema calls them
//! annotations: validators assert them when asked to (the TypeScript SDK's client checks
//! formats), and documents get them wrong as often as the rest. Kubernetes declares 1,064
//! `date-time` responses that its answers write without a zone, ids declared `uuid` are not,
//! and `int32` fields carry 3e9; a `contentMediaType: application/json` string need not
//! parse. The model loses little: a field's name and description say what a format would.
//!
//! An output schema is only given when every 2xx response the operation declares is JSON
//! with a schema: a declared `204` (no body, so no `structuredContent`) would otherwise
//! fail a client that expects structured content from a tool with an output schema.

use super::error::{child, Warning};
use super::options::Version;
use super::refs::Refs;
use super::schema::{Converter, LooseMemo, OutputMemo};
use super::text;
use crate::http;
use crate::json::{Json, Map};

/// The largest output schema the importer keeps (compact JSON, after loosening); a larger
/// one is dropped with a warning: the schema goes into every `tools/list`, and a model pays
/// for every byte. A choice of the importer, tighter than the rule every plugin obeys
/// ([`plugin::MAX_OUTPUT_SCHEMA_BYTES`](crate::plugin::MAX_OUTPUT_SCHEMA_BYTES), the most an
/// endpoint may declare, an error when over), so that what it keeps always loads.
pub(crate) const MAX_IMPORTED_OUTPUT_SCHEMA_BYTES: usize = 16 * 1024;

// What the importer keeps, a plugin must accept.
const _: () = assert!(MAX_IMPORTED_OUTPUT_SCHEMA_BYTES <= crate::plugin::MAX_OUTPUT_SCHEMA_BYTES);

/// Titles longer than this (characters) are cut.
pub(crate) const MAX_TITLE_CHARS: usize = 80;

/// Keywords of a converted schema that describe without asserting (JSON Schema validation
/// 2020-12 section 9), kept as they are. `format` and the `content*` keywords (sections 7
/// and 8) are not among them: some validators assert them (see the module docs).
const ANNOTATIONS: [&str; 3] = ["description", "title", "examples"];

/// The endpoint title from the operation's `summary`: whitespace runs (newlines included)
/// as one space, capped at [`MAX_TITLE_CHARS`].
pub(crate) fn title(op: &Json) -> Option<String> {
    let summary = op.get("summary").and_then(Json::as_str)?;
    let words: Vec<&str> = summary.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    Some(text::cap(&words.join(" "), MAX_TITLE_CHARS))
}

/// The output schema of the operation at `op_at`, or `None` (see the module docs); a
/// schema that cannot be converted or is too large is a warning.
pub(crate) fn output_schema<'a>(
    root: &'a Json,
    op: &'a Json,
    op_doc: usize,
    op_at: &str,
    refs: &Refs<'a>,
    conv: &mut Converter<'_, '_>,
) -> Option<Json> {
    let responses = op.get("responses").and_then(Json::as_object)?;
    let responses_at = child(op_at, "responses");
    let mut first: Option<(u16, &str, &Json)> = None;
    for (code, response) in responses.iter() {
        let rank = match success_rank(code) {
            Some(rank) => rank,
            None => continue,
        };
        if first.map_or(true, |(r, _, _)| rank < r) {
            first = Some((rank, code.as_str(), response));
        }
    }
    let mut chosen: Option<(Json, usize, String)> = None;
    for (code, response) in responses.iter() {
        if success_rank(code).is_none() {
            continue;
        }
        let at = child(&responses_at, code);
        let (response, doc) = match super::refs::resolve_object(response, op_doc, &at, refs) {
            Ok(found) => found,
            Err(e) => {
                conv.warnings.push(Warning::new(
                    at.as_str(),
                    format!("no output schema: {}", e.message()),
                ));
                return None;
            }
        };
        let (schema, schema_at) = json_schema(root, op, response, &at, conv.version)?;
        if first.map(|(_, c, _)| c) == Some(code.as_str()) {
            chosen = Some((schema.clone(), doc, schema_at));
        }
    }
    let (schema, doc, at) = chosen?;
    let nodes = conv.tool_nodes;
    // A response schema that is one `$ref` gives the same output schema wherever it is met.
    let memo_key = schema
        .as_object()
        .filter(|map| map.len() == 1)
        .and_then(|map| map.get("$ref"))
        .and_then(Json::as_str)
        .and_then(|reference| refs.resolve(reference, doc, &at).ok())
        .map(|target| target.key(refs));
    if let Some(memo) = memo_key.as_ref().and_then(|k| conv.output_memo.get(k)) {
        let (result, memo_nodes) = (memo.result.clone(), memo.nodes);
        if let Err(e) = conv.count(memo_nodes, &at) {
            conv.tool_nodes = nodes;
            no_output(conv, &at, e.message());
            return None;
        }
        if result.is_none() {
            too_large(conv, &at);
        }
        return result;
    }
    conv.output = true;
    let converted = conv.convert(&schema, doc, &at);
    conv.output = false;
    let converted = match converted {
        Ok(converted) => converted,
        Err(e) => {
            conv.tool_nodes = nodes;
            no_output(conv, &at, e.message());
            return None;
        }
    };
    let written = conv.tool_nodes - nodes;
    // Measured before it is loosened, and only as far as the limit: most large responses
    // are over it, and making the loose copy only to measure and drop it cost as much as
    // the conversion.
    let fits = loose_len(
        &converted,
        true,
        MAX_IMPORTED_OUTPUT_SCHEMA_BYTES,
        &mut String::new(),
    )
    .is_some();
    let result = if fits {
        Some(loosen(converted, true, &mut conv.loose_memo))
    } else {
        too_large(conv, &at);
        None
    };
    if let Some(key) = memo_key {
        conv.output_memo.insert(
            key,
            OutputMemo {
                result: result.clone(),
                nodes: written,
            },
        );
    }
    result
}

fn no_output(conv: &mut Converter<'_, '_>, at: &str, why: &str) {
    conv.warnings
        .push(Warning::new(at, format!("no output schema: {}", why)));
}

/// The warning for a response schema over the limit. It gives no size: the schema is
/// measured only until it is over.
fn too_large(conv: &mut Converter<'_, '_>, at: &str) {
    conv.warnings.push(Warning::new(
        at,
        format!(
            "no output schema: the response schema is over the limit of {} bytes",
            MAX_IMPORTED_OUTPUT_SCHEMA_BYTES
        ),
    ));
}

/// The order of a success status code: `200`..`299` by number, then `2XX` (OpenAPI 3.1
/// section 4.8.16.2: an explicit code wins over the range); `None` for anything else.
fn success_rank(code: &str) -> Option<u16> {
    if code.eq_ignore_ascii_case("2xx") {
        return Some(300);
    }
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u16 = code.parse().ok()?;
    if (200..300).contains(&n) {
        Some(n)
    } else {
        None
    }
}

/// The JSON schema of a response object and where it is; `None` when the response has no
/// JSON body with a schema.
fn json_schema(
    root: &Json,
    op: &Json,
    response: &Json,
    at: &str,
    version: Version,
) -> Option<(Json, String)> {
    if version == Version::Swagger2 {
        // Swagger 2.0: `produces` of the operation, else of the document; absent reads as
        // JSON (the common case).
        let produces = op
            .get("produces")
            .or_else(|| root.get("produces"))
            .and_then(Json::as_array);
        if let Some(list) = produces {
            if !list
                .iter()
                .filter_map(Json::as_str)
                .any(http::media::is_json)
            {
                return None;
            }
        }
        let schema = response.get("schema")?;
        return Some((schema.clone(), child(at, "schema")));
    }
    let content = response.get("content").and_then(Json::as_object)?;
    let mut best: Option<(&String, &Json)> = None;
    for (media, value) in content.iter() {
        if !http::media::is_json(media) {
            continue;
        }
        let exact = http::media::essence(media).eq_ignore_ascii_case("application/json");
        if best.is_none() || exact {
            best = Some((media, value));
        }
        if exact {
            break;
        }
    }
    let (media, value) = best?;
    let schema = value.get("schema")?;
    Some((
        schema.clone(),
        child(&child(&child(at, "content"), media), "schema"),
    ))
}

/// Whether a converted schema's root stays `"type": "object"` when loosened.
fn object_root(map: &Map) -> bool {
    match map.get("type") {
        Some(Json::String(word)) => word == "object",
        None => map.contains_key("properties"),
        _ => false,
    }
}

/// The bytes of `loosen(schema, at_root)` as compact JSON, counted without making it (the
/// same walk, keyword for keyword); `None` as soon as they are known to be over `limit`, so
/// a schema far over it is not measured to its end. `scratch` holds a property name as it
/// is written.
fn loose_len(schema: &Json, at_root: bool, limit: usize, scratch: &mut String) -> Option<usize> {
    let map = match schema.as_object() {
        Some(map) => map,
        None => return Some("{}".len()).filter(|&len| len <= limit),
    };
    // Each member's key, colon and value; braces and commas are added at the end.
    let mut members = 0usize;
    let mut len = 0;
    if at_root && object_root(map) {
        members += 1;
        len += "\"type\":\"object\"".len();
    }
    // `oneOf` and `anyOf` both become `anyOf`: the later replaces the earlier, so with
    // both present the first one's bytes are not certain to count, and it is measured whole.
    let mut any_of: Option<usize> = None;
    let both = map.contains_key("oneOf") && map.contains_key("anyOf");
    for (key, value) in map.iter() {
        // The bytes this schema is certain to have so far (an `anyOf` may still be
        // replaced), and what a member's value may take before the schema is over `limit`.
        let certain = len - any_of.unwrap_or(0) + "{}".len() + members;
        let room = limit.checked_sub(certain + key.len() + "\"\":".len());
        let value_len = match key.as_str() {
            "properties" => {
                let mut inner = "{}".len();
                if let Some(props) = value.as_object() {
                    inner += props.len().saturating_sub(1);
                    for (name, schema) in props.iter() {
                        scratch.clear();
                        crate::json::write_str(scratch, name);
                        inner += scratch.len() + 1;
                        let left = room?.checked_sub(inner)?;
                        inner += loose_len(schema, false, left, scratch)?;
                    }
                }
                inner
            }
            "$defs" => {
                let mut inner = "{}".len();
                if let Some(defs) = value.as_object() {
                    inner += defs.len().saturating_sub(1);
                    for (name, schema) in defs.iter() {
                        scratch.clear();
                        crate::json::write_str(scratch, name);
                        inner += scratch.len() + 1;
                        let left = room?.checked_sub(inner)?;
                        inner += loose_len(schema, false, left, scratch)?;
                    }
                }
                inner
            }
            "$ref" => value.compact_len(),
            "items" => loose_len(value, false, room?, scratch)?,
            "additionalProperties" if value.is_object() => loose_len(value, false, room?, scratch)?,
            "oneOf" | "anyOf" | "allOf" => {
                let branches = match value.as_array() {
                    Some(list) => list,
                    None => continue,
                };
                let room = if both && key != "allOf" {
                    usize::MAX
                } else {
                    room?
                };
                let mut inner = "[]".len() + branches.len().saturating_sub(1);
                for branch in branches {
                    let left = room.checked_sub(inner)?;
                    inner += loose_len(branch, false, left, scratch)?;
                }
                if key != "allOf" {
                    if let Some(earlier) = any_of.replace(inner) {
                        len = len - earlier + inner;
                        continue;
                    }
                }
                inner
            }
            // Mostly descriptions: written into the scratch buffer, not counted by
            // `compact_len`, which makes a stack for each value.
            word if ANNOTATIONS.contains(&word) => match value {
                Json::String(text) => {
                    scratch.clear();
                    crate::json::write_str(scratch, text);
                    scratch.len()
                }
                other => other.compact_len(),
            },
            _ => continue,
        };
        // The keys here are ASCII words that need no escape.
        members += 1;
        len += key.len() + "\"\":".len() + value_len;
    }
    Some(len + "{}".len() + members.saturating_sub(1)).filter(|&len| len <= limit)
}

/// A converted schema without its assertions (see the module docs). The converter's output
/// nests no deeper than its depth bound, so the recursion is bounded.
fn loosen(schema: Json, at_root: bool, memo: &mut LooseMemo) -> Json {
    // `false` accepts nothing; anything else here is already a schema accepting all.
    let map = match schema.into_object() {
        Some(map) => map,
        None => return Json::Object(Map::new()),
    };
    let id = match map.shared_id() {
        Some(id) if !at_root && map.is_shared() => id,
        _ => return loosen_map(map, at_root, memo),
    };
    if let Some((_, loose)) = memo.get(&id) {
        return loose.clone();
    }
    let loose = loosen_map(map.clone(), false, memo);
    memo.insert(id, (map, loose.clone()));
    loose
}

/// [`loosen`] of an object.
fn loosen_map(map: Map, at_root: bool, memo: &mut LooseMemo) -> Json {
    let mut out = Map::new();
    if at_root && object_root(&map) {
        out.insert("type", "object");
    }
    for (key, value) in map.into_iter() {
        match key.as_str() {
            "properties" => {
                // Collected, not inserted one by one (each `insert` scans the keys).
                let props: Map = value
                    .into_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, schema)| (name, loosen(schema, false, memo)))
                    .collect();
                out.insert("properties", props);
            }
            "$defs" => {
                let defs: Map = value
                    .into_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, schema)| (name, loosen(schema, false, memo)))
                    .collect();
                out.insert("$defs", defs);
            }
            "$ref" => {
                out.insert("$ref", value);
            }
            "items" => {
                out.insert("items", loosen(value, false, memo));
            }
            "additionalProperties" if value.is_object() => {
                out.insert("additionalProperties", loosen(value, false, memo));
            }
            "oneOf" | "anyOf" | "allOf" => {
                let branches: Vec<Json> = match value.into_array() {
                    Some(list) => list.into_iter().map(|b| loosen(b, false, memo)).collect(),
                    None => continue,
                };
                // `oneOf` fails when two branches match, which loose documents make common.
                let word = if key == "allOf" { "allOf" } else { "anyOf" };
                out.insert(word, branches);
            }
            word if ANNOTATIONS.contains(&word) => {
                out.insert(key, value);
            }
            _ => {}
        }
    }
    Json::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_codes_rank_explicit_before_the_range() {
        assert_eq!(success_rank("200"), Some(200));
        assert_eq!(success_rank("299"), Some(299));
        assert_eq!(success_rank("2XX"), Some(300));
        assert_eq!(success_rank("300"), None);
        assert_eq!(success_rank("default"), None);
        assert_eq!(success_rank("+20"), None);
    }

    #[test]
    fn an_object_clones_share_is_loosened_once_and_its_copy_shared() {
        let shared = crate::json!({"type": "object", "required": ["a"], "minProperties": 1,
            "properties": {"a": {"type": "string", "description": "x", "maxLength": 3}}});
        let schema = crate::json!({"type": "object", "properties": {"p": shared.clone(),
            "q": {"type": "array", "items": shared.clone()}}});
        let mut memo = LooseMemo::new();
        let loose = loosen(schema.clone(), true, &mut memo);
        // The same as the schema without sharing (parsed afresh) gives.
        let unshared = crate::json::parse(&schema.to_string()).unwrap();
        assert_eq!(loose, loosen(unshared, true, &mut LooseMemo::new()));
        let p = loose["properties"]["p"].as_object().unwrap();
        let q = loose["properties"]["q"]["items"].as_object().unwrap();
        assert!(p.shares_with(q), "one copy for both");
        assert_eq!(
            loose["properties"]["p"]["properties"]["a"],
            crate::json!({"description": "x"})
        );
    }

    #[test]
    fn loose_len_is_the_length_of_the_loosened_schema() {
        let schemas = [
            crate::json!({"type": "object", "properties": {"a\"b\u{2028}": {"type": "string",
                "description": "x\ny", "enum": ["a"]}, "n": {"type": "integer", "minimum": 1,
                "examples": [3]}}, "required": ["n"], "additionalProperties": false}),
            crate::json!({"properties": {"p": {"items": {"format": "date"}},
                "q": {"additionalProperties": {"title": "t"}}, "r": {"items": false}},
                "description": "d"}),
            crate::json!({"type": ["object", "null"], "oneOf": [{"type": "string"}, {}],
                "anyOf": [{"title": "a"}], "allOf": [{"properties": 3}], "x-other": 1}),
            crate::json!({"type": "array", "items": {"type": "object", "properties": {}},
                "anyOf": "not a list", "contentMediaType": "text/csv"}),
            // A long `anyOf` replaced by a short `oneOf`, and limits met deep inside.
            crate::json!({"description": "top", "anyOf": [{"description": "a long text in the branch that is replaced"},
                {"title": "t"}], "oneOf": [{}], "properties": {"a": {"properties": {"b": {
                "description": "deep", "items": {"format": "uuid"}}}}, "c": {"title": "c"}},
                "allOf": [{"items": {"description": "yy"}}, {"additionalProperties": {"title": "z"}}]}),
            crate::json!(false),
            crate::json!({}),
        ];
        for schema in schemas {
            for at_root in [true, false] {
                let loose = loosen(schema.clone(), at_root, &mut LooseMemo::new());
                let len = loose.to_string().len();
                assert_eq!(
                    loose_len(&schema, at_root, usize::MAX, &mut String::new()),
                    Some(len),
                    "{} -> {}",
                    schema,
                    loose
                );
                // Under a limit: the length when it fits, else `None`, at every limit.
                for limit in 0..len + 3 {
                    assert_eq!(
                        loose_len(&schema, at_root, limit, &mut String::new()),
                        Some(len).filter(|&len| len <= limit),
                        "{} under {}",
                        schema,
                        limit
                    );
                }
            }
        }
    }
}
