//! Google Gemini: function declarations, `functionCall` parts and `functionResponse` parts.
//!
//! A spec's title, annotations and output schema are MCP's and are not sent: Gemini tools have no
//! such fields.
//!
//! # Schemas
//!
//! Gemini reads parameters in its own `Schema` type, a subset of the OpenAPI 3.0 schema
//! object, and refuses a request holding a field it does not know. [`schema`] rewrites JSON
//! Schema into that subset, so nothing unsupported is ever sent:
//!
//! - `type` becomes Gemini's upper-case enum (`"STRING"`, `"OBJECT"`, ...); a type list with
//!   `"null"` (`["string", "null"]`) becomes the other type with `"nullable": true`; a list of
//!   several types becomes `anyOf`, one branch a type, each branch keeping the keywords that
//!   apply to its type;
//! - `oneOf` becomes `anyOf`; a `{"type": "null"}` branch becomes `"nullable": true`, and an
//!   `anyOf` left with one branch is merged into the schema;
//! - a string `enum` or `const` becomes `"format": "enum"` with the values; an `enum` of other
//!   values (numbers, booleans) is dropped and its values listed in the description;
//! - keywords are kept only where Gemini takes them: `properties`, `required` (only names
//!   that are in `properties`), `minProperties` and `maxProperties` on objects; `items`,
//!   `minItems` and `maxItems` on arrays; `minLength`, `maxLength` and `pattern` on strings;
//!   `minimum` and `maximum` on numbers and integers; `format` only where Gemini accepts it
//!   (`date-time` and `enum` on strings, `int32`/`int64` on integers, `float`/`double` on
//!   numbers); `title`, `description`, `nullable`, `default` and `example` anywhere;
//! - a `$ref` to an entry of the root's `$defs` (or `definitions`) is replaced by the entry
//!   ([`inline_refs`]): the function declaration's `parameters`
//!   field takes Gemini's `Schema` type, which has no `$ref` (JSON Schema with references
//!   goes in the separate `parametersJsonSchema` field, which this module does not write).
//!   Compact specs write repeated subschemas once under `$defs`
//!   ([`compact_spec`](crate::tool::compact_spec)), so Gemini reads them whole;
//! - everything else is dropped: `additionalProperties`, `$schema`, `$id`, `$defs`, a `$ref`
//!   that is left (recursive, or to another document), `exclusiveMinimum`, `multipleOf`,
//!   `uniqueItems`, `allOf`, `not`, `examples`, ... (the tool still checks the values it
//!   receives).
//!
//! A tool without parameters is declared without `parameters`: Gemini refuses an object
//! schema with no properties.
//!
//! # Call ids
//!
//! Recent Gemini models put an `id` in each `functionCall`; [`calls`] keeps it and
//! [`function_response`] sends it back. When the model sends none, the call gets the id
//! [`SYNTHETIC_ID_PREFIX`] followed by its position among the function calls of the response
//! (`gemini-call-0`, `gemini-call-1`, ...): deterministic, and unique within one response
//! only. Gemini matches such responses by name and order, so [`function_response`] leaves a
//! synthesized id out.

use super::{object, optional_array, At};
use crate::json::{Json, Map, DEFAULT_MAX_DEPTH};
use crate::tool::error::Error;
use crate::tool::inline_refs;
use crate::tool::provider::openai::note_in_description;
use crate::tool::small_set::SmallSet;
use crate::tool::{ToolCall, ToolOutput, ToolSpec};

/// The start of the id given to a call that came without one; see the
/// [module documentation](self).
pub const SYNTHETIC_ID_PREFIX: &str = "gemini-call-";

/// A Gemini function declaration: `{"name", "description", "parameters"}`, with the
/// parameters rewritten by [`schema`] and left out when the tool takes none.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{gemini, ToolSpec};
///
/// let spec = ToolSpec::new("get_weather", "Current weather", json!({
///     "type": "object",
///     "properties": { "city": { "type": "string" }, "days": { "type": ["integer", "null"] } },
///     "required": ["city"],
///     "additionalProperties": false
/// }))?;
/// assert_eq!(
///     gemini::function_declaration(&spec),
///     json!({"name": "get_weather", "description": "Current weather", "parameters": {
///         "type": "OBJECT",
///         "properties": {
///             "city": { "type": "STRING" },
///             "days": { "type": "INTEGER", "nullable": true }
///         },
///         "required": ["city"]
///     }})
/// );
/// # Ok::<(), httptool::tool::Error>(())
/// ```
pub fn function_declaration(spec: &ToolSpec) -> Json {
    let mut declaration = object([
        ("name", Json::from(spec.name())),
        ("description", Json::from(spec.description())),
    ]);
    let parameters = schema(spec.parameters());
    let has_properties = parameters
        .get("properties")
        .and_then(Json::as_object)
        .map_or(false, |properties| !properties.is_empty());
    if let (true, Some(map)) = (has_properties, declaration.as_object_mut()) {
        map.insert("parameters", parameters);
    }
    declaration
}

/// A Gemini `Tool` entry holding the declarations of `specs`: `{"functionDeclarations":
/// [...]}`, for the request's `tools` array.
pub fn tool<'a, I>(specs: I) -> Json
where
    I: IntoIterator<Item = &'a ToolSpec>,
{
    let declarations: Vec<Json> = specs.into_iter().map(function_declaration).collect();
    object([("functionDeclarations", Json::Array(declarations))])
}

/// Rewrites a JSON Schema into Gemini's OpenAPI subset; the rules are in the
/// [module documentation](self).
///
/// Never fails: what cannot be expressed is dropped. A subschema that is not an object (a
/// boolean schema) becomes `{}`; nesting deeper than
/// [`json::DEFAULT_MAX_DEPTH`](DEFAULT_MAX_DEPTH) is cut off (a [`ToolSpec`] never nests that
/// deep).
pub fn schema(json_schema: &Json) -> Json {
    if json_schema.get("$defs").is_some() || json_schema.get("definitions").is_some() {
        return convert(&inline_refs(json_schema), 1);
    }
    convert(json_schema, 1)
}

const TYPES: &[(&str, &str)] = &[
    ("string", "STRING"),
    ("number", "NUMBER"),
    ("integer", "INTEGER"),
    ("boolean", "BOOLEAN"),
    ("array", "ARRAY"),
    ("object", "OBJECT"),
    ("null", "NULL"),
];

/// The Gemini type for a JSON Schema type name, case-insensitively.
fn gemini_type(name: &str) -> Option<&'static str> {
    TYPES
        .iter()
        .find(|(json, gemini)| name.eq_ignore_ascii_case(json) || name == *gemini)
        .map(|&(_, gemini)| gemini)
}

/// A schema being converted: the output, whether it accepts `null`, and sentences to add to
/// its description.
struct Converted {
    out: Map,
    nullable: bool,
    notes: Vec<String>,
}

fn convert(node: &Json, depth: usize) -> Json {
    let source = match node.as_object() {
        Some(source) if depth <= DEFAULT_MAX_DEPTH => source,
        _ => return Json::Object(Map::new()),
    };
    let (types, nullable) = types_of(source);
    if types.len() > 1 {
        return split_types(source, &types, nullable, depth);
    }
    let kind = types.first().copied().or_else(|| infer_type(source));
    let mut node = Converted {
        out: Map::with_capacity(source.len()),
        nullable,
        notes: Vec::new(),
    };
    if let Some(kind) = kind {
        node.out.insert("type", kind);
    }
    for (key, value) in source {
        node.keyword(key, value, kind, depth);
    }
    // A `$ref` left by `inline_refs` (recursive, or past its bound) cannot be sent: say what
    // was cut.
    if let Some(reference) = source.get("$ref").and_then(Json::as_str) {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        node.notes.push(format!(
            "(another {}, as described above; not repeated here)",
            crate::quote::excerpt(name)
        ));
    }
    if kind == Some("OBJECT") {
        if let Some(required) = required_names(source, &node.out) {
            node.out.insert("required", required);
        }
    }
    if let Some(branches) = source.get("anyOf").or_else(|| source.get("oneOf")) {
        merge_any_of(branches, &mut node.out, &mut node.nullable, depth);
    }
    if node.nullable {
        node.out.insert("nullable", true);
    }
    for note in &node.notes {
        note_in_description(&mut node.out, note);
    }
    Json::Object(node.out)
}

/// The Gemini types a schema names, without `NULL` when there are others, and whether it
/// accepts `null` (a `"null"` type, or OpenAPI's `"nullable": true`).
fn types_of(source: &Map) -> (Vec<&'static str>, bool) {
    let mut types: Vec<&'static str> = Vec::new();
    match source.get("type") {
        Some(Json::String(name)) => types.extend(gemini_type(name)),
        Some(Json::Array(names)) => types.extend(
            names
                .iter()
                .filter_map(Json::as_str)
                .filter_map(gemini_type),
        ),
        _ => {}
    }
    let mut nullable = source.get("nullable") == Some(&Json::Bool(true));
    if types.contains(&"NULL") && types.len() > 1 {
        nullable = true;
        types.retain(|&t| t != "NULL");
    }
    (types, nullable)
}

impl Converted {
    /// Copies, converts or drops one keyword, for a schema of type `kind`.
    fn keyword(&mut self, key: &str, value: &Json, kind: Option<&str>, depth: usize) {
        match key {
            "enum" => convert_enum(value, kind, self),
            "const" => convert_enum(&Json::Array(vec![value.clone()]), kind, self),
            "properties" if kind == Some("OBJECT") => {
                self.out.insert(key, convert_properties(value, depth));
            }
            "items" if kind == Some("ARRAY") && value.is_object() => {
                self.out.insert(key, convert(value, depth + 1));
            }
            "format" if kind.map_or(false, |kind| format_allowed(kind, value)) => {
                self.out.insert(key, value.clone());
            }
            _ if kept_as_is(key, kind) => {
                self.out.insert(key, value.clone());
            }
            _ => {}
        }
    }
}

/// Keywords Gemini takes unchanged: anywhere, or only on the types they apply to.
fn kept_as_is(key: &str, kind: Option<&str>) -> bool {
    match key {
        "title" | "description" | "default" | "example" => true,
        "minProperties" | "maxProperties" => kind == Some("OBJECT"),
        "minItems" | "maxItems" => kind == Some("ARRAY"),
        "minLength" | "maxLength" | "pattern" => kind == Some("STRING"),
        "minimum" | "maximum" => matches!(kind, Some("NUMBER") | Some("INTEGER")),
        _ => false,
    }
}

/// A schema without `type`: an object if it has properties, an array if it has items.
fn infer_type(source: &Map) -> Option<&'static str> {
    if source.contains_key("properties") {
        Some("OBJECT")
    } else if source.contains_key("items") {
        Some("ARRAY")
    } else {
        None
    }
}

/// `{"type": ["string", "integer"], ...}` becomes `{"anyOf": [{"type": "STRING", ...},
/// {"type": "INTEGER", ...}]}`, each branch keeping what applies to its type.
fn split_types(source: &Map, types: &[&str], nullable: bool, depth: usize) -> Json {
    let mut branches = Vec::with_capacity(types.len());
    for kind in types {
        let mut branch_source = source.clone();
        branch_source.insert("type", *kind);
        for shared in ["title", "description", "default", "example", "nullable"] {
            branch_source.remove(shared);
        }
        branches.push(convert(&Json::Object(branch_source), depth + 1));
    }
    let mut out = Map::with_capacity(4);
    for shared in ["title", "description", "default", "example"] {
        if let Some(value) = source.get(shared) {
            out.insert(shared, value.clone());
        }
    }
    out.insert("anyOf", branches);
    if nullable {
        out.insert("nullable", true);
    }
    Json::Object(out)
}

fn format_allowed(kind: &str, format: &Json) -> bool {
    let format = match format.as_str() {
        Some(format) => format,
        None => return false,
    };
    match kind {
        "STRING" => format == "date-time" || format == "enum",
        "INTEGER" => format == "int32" || format == "int64",
        "NUMBER" => format == "float" || format == "double",
        _ => false,
    }
}

/// String values stay an enum; `null` makes the schema nullable; other values are listed in
/// the description, since Gemini enums hold strings only.
fn convert_enum(values: &Json, kind: Option<&str>, node: &mut Converted) {
    let values = match values.as_array() {
        Some(values) => values,
        None => return,
    };
    let mut listed = Vec::with_capacity(values.len());
    for value in values {
        if value.is_null() {
            node.nullable = true;
        } else {
            listed.push(value.clone());
        }
    }
    if listed.is_empty() {
        return;
    }
    if listed.iter().all(Json::is_string) && matches!(kind, None | Some("STRING")) {
        node.out.insert("type", "STRING");
        node.out.insert("format", "enum");
        node.out.insert("enum", listed);
    } else {
        let mut note = String::from("Allowed values: ");
        for (index, value) in listed.iter().enumerate() {
            if index > 0 {
                note.push_str(", ");
            }
            note.push_str(&value.to_string());
        }
        note.push('.');
        node.notes.push(note);
    }
}

fn convert_properties(properties: &Json, depth: usize) -> Json {
    let properties = match properties.as_object() {
        Some(properties) => properties,
        None => return Json::Object(Map::new()),
    };
    // The names are a map's keys, so unique: the converted entries make a map as they are,
    // in linear time however many properties.
    let mut converted = Vec::with_capacity(properties.len());
    for (name, property) in properties {
        converted.push((name.clone(), convert(property, depth + 2)));
    }
    Json::Object(Map::from_unique_entries(converted))
}

/// `required`, keeping only names that are in the converted `properties` (Gemini refuses
/// others); `None` when none is left.
fn required_names(source: &Map, out: &Map) -> Option<Json> {
    let properties: SmallSet<&str> = out
        .get("properties")
        .and_then(Json::as_object)?
        .keys()
        .map(String::as_str)
        .collect();
    let names: Vec<Json> = source
        .get("required")
        .and_then(Json::as_array)?
        .iter()
        .filter(|name| name.as_str().map_or(false, |n| properties.contains(n)))
        .cloned()
        .collect();
    if names.is_empty() {
        None
    } else {
        Some(Json::Array(names))
    }
}

/// Converts `anyOf` (or `oneOf`) branches: a `null` branch makes the schema nullable, and a
/// single remaining branch is merged into the schema (its own keys win only where the schema
/// has none).
fn merge_any_of(branches: &Json, out: &mut Map, nullable: &mut bool, depth: usize) {
    let branches = match branches.as_array() {
        Some(branches) => branches,
        None => return,
    };
    let mut converted = Vec::with_capacity(branches.len());
    for branch in branches {
        let branch = convert(branch, depth + 2);
        if branch.get("type").and_then(Json::as_str) == Some("NULL") {
            *nullable = true;
        } else {
            converted.push(branch);
        }
    }
    if converted.len() == 1 && !out.contains_key("type") {
        if let Some(single) = converted.pop().and_then(Json::into_object) {
            for (key, value) in single {
                if !out.contains_key(&key) {
                    out.insert(key, value);
                }
            }
        }
    } else if !converted.is_empty() {
        out.insert("anyOf", converted);
    }
}

/// Reads the `functionCall` parts of a Gemini answer, in order.
///
/// Takes the whole response (`{"candidates": [{"content": {"parts": [...]}}]}`, reading the
/// first candidate), one candidate, one `content`, or a `parts` array. Parts without a
/// `functionCall` (text, thoughts) are passed over. `args` is an object, so calls carry it
/// parsed; a call without `args` has none. Ids: see the [module documentation](self).
///
/// # Errors
///
/// [`ErrorKind::MalformedPayload`](crate::tool::ErrorKind::MalformedPayload) naming the JSON
/// Pointer of what was missing or of the wrong type.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::gemini;
///
/// let response = json::parse(r#"{"candidates": [{"content": {"role": "model", "parts": [
///     {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}
/// ]}}]}"#)?;
/// let calls = gemini::calls(&response)?;
/// assert_eq!(calls[0].id(), "gemini-call-0");
/// assert_eq!(calls[0].arguments_text(), r#"{"city":"Paris"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn calls(response: &Json) -> Result<Vec<ToolCall>, Error> {
    let at = At::root("gemini response");
    let (parts, at) = find_parts(response, at)?;
    let mut calls = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        let part_at = at.index(index);
        let part = part_at.object(part)?;
        let call = match part.get("functionCall") {
            Some(call) => call,
            None => continue,
        };
        let call_at = part_at.key("functionCall");
        let call = call_at.object(call)?;
        let name = call_at.str_member(call, "name")?;
        let arguments = match call.get("args") {
            None | Some(Json::Null) => Map::new(),
            Some(Json::Object(args)) => args.clone(),
            Some(other) => return Err(call_at.key("args").error("an object", Some(other))),
        };
        let id = match call.get("id") {
            None | Some(Json::Null) => format!("{}{}", SYNTHETIC_ID_PREFIX, calls.len()),
            Some(Json::String(id)) => id.clone(),
            Some(other) => return Err(call_at.key("id").error("a string", Some(other))),
        };
        calls.push(ToolCall::with_object(id, name, arguments));
    }
    Ok(calls)
}

/// Finds the `parts` array in a response, a candidate, a content or the array itself.
///
/// A response without candidates (a blocked prompt), a candidate without content (a blocked
/// answer) and a content without parts hold no calls: they give an empty array.
fn find_parts<'v, 'a>(value: &'v Json, at: At<'a>) -> Result<(&'v [Json], At<'a>), Error> {
    let map = match value {
        Json::Array(parts) => return Ok((parts.as_slice(), at)),
        Json::Object(map) => map,
        other => return Err(at.error("a response object or a parts array", Some(other))),
    };
    if map.contains_key("parts") {
        let parts = optional_array(&at, map, "parts")?;
        return Ok((parts, at.key("parts")));
    }
    if let Some(content) = map.get("content") {
        let content_at = at.key("content");
        return find_parts_in(content, content_at);
    }
    if map.contains_key("candidates") {
        let candidates = optional_array(&at, map, "candidates")?;
        let candidate_at = at.key("candidates").index(0);
        let candidate = match candidates.first() {
            Some(candidate) => candidate_at.object(candidate)?,
            None => return Ok((&[], candidate_at)),
        };
        return match candidate.get("content") {
            None | Some(Json::Null) => Ok((&[], candidate_at)),
            Some(content) => find_parts_in(content, candidate_at.key("content")),
        };
    }
    Err(at.error("\"candidates\", \"content\" or \"parts\"", Some(value)))
}

/// The `parts` of a `content` object (absent parts: none).
fn find_parts_in<'v, 'a>(content: &'v Json, at: At<'a>) -> Result<(&'v [Json], At<'a>), Error> {
    let content = at.object(content)?;
    let parts = optional_array(&at, content, "parts")?;
    Ok((parts, at.key("parts")))
}

/// The `functionResponse` part that answers a call:
/// `{"functionResponse": {"id", "name", "response": {"output": ...}}}`, or
/// `{"error": text}` in `response` when the call failed.
///
/// `output` is the structured result when the tool attached one and its text was not cut,
/// else the text: a cut text ([`ToolOutput::is_truncated`]) is what the cap lets the model
/// read (the whole structured value is not), as JSON when it is JSON cut at element
/// boundaries, else as a string. `id` is written only when the model sent one (see the
/// [module documentation](self)). Attachments are left to the text, which says what they
/// are.
pub fn function_response(call: &ToolCall, output: &ToolOutput) -> Json {
    let response = if output.is_error() {
        object([("error", Json::from(output.text()))])
    } else {
        let value = match output.structured() {
            Some(structured) if !output.is_truncated() => structured.clone(),
            Some(_) => {
                crate::json::parse(output.text()).unwrap_or_else(|_| Json::from(output.text()))
            }
            None => Json::from(output.text()),
        };
        object([("output", value)])
    };
    let mut function_response = Map::with_capacity(3);
    if !call.id().starts_with(SYNTHETIC_ID_PREFIX) {
        function_response.insert("id", call.id());
    }
    function_response.insert("name", call.name());
    function_response.insert("response", response);
    object([("functionResponse", Json::Object(function_response))])
}

/// The content that answers every call of one model turn:
/// `{"role": "user", "parts": [functionResponse, ...]}`, parts in the order given.
pub fn results_content<'a, I>(results: I) -> Json
where
    I: IntoIterator<Item = (&'a ToolCall, &'a ToolOutput)>,
{
    let parts: Vec<Json> = results
        .into_iter()
        .map(|(call, output)| function_response(call, output))
        .collect();
    object([("role", Json::from("user")), ("parts", Json::Array(parts))])
}
