//! The JSON Schema a model reads for an endpoint
//! ([parameters](crate::design::endpoints#parameters)). Internal keywords
//! (location, wire name, secret, hidden, context) never reach it.

use std::collections::HashMap;

use crate::json::{Json, Map};
use crate::plugin::declare::model::{Endpoint, Param, ParamType};

/// `{"type": "object", "properties": {...}, "required": [...], "additionalProperties": false}`
/// with the parameters the model may set, in declaration order, and under `$defs` the
/// entries their `$ref`s reach (their own, then `defs`: see [`DefsGraph::reached`]).
pub(crate) fn endpoint_schema(endpoint: &Endpoint, plugin_defs: &Map) -> Json {
    let mut properties = Vec::with_capacity(endpoint.params.len());
    let mut required = Vec::new();
    let mut defs = Map::new();
    for param in endpoint.params.iter().filter(|p| !p.is_hidden()) {
        let mut schema = param_schema(param);
        hoist_defs(&mut schema, &mut defs);
        properties.push((param.name.clone(), schema));
        // A parameter with a default is never missing, so the model need not send it.
        if param.is_required() && param.default.is_none() {
            required.push(Json::from(param.name.as_str()));
        }
    }
    // Collected, not inserted one by one (each insert scans the keys): linear in the number
    // of parameters.
    let mut properties: Map = properties.into_iter().collect();
    if endpoint.fields_argument {
        properties.insert(
            crate::plugin::call::fields::FIELDS_ARGUMENT,
            crate::plugin::call::fields::fields_schema(),
        );
    }
    let mut schema = Map::with_capacity(4);
    schema.insert("type", "object");
    schema.insert("properties", properties);
    if !required.is_empty() {
        schema.insert("required", required);
    }
    schema.insert("additionalProperties", false);
    if defs.is_empty() {
        // The usual case (an import hoists every parameter's `$defs` to the plugin): the
        // reached entries as they are, shared, rather than inserted one by one (each insert
        // scans the keys before it).
        defs = plugin_defs.clone();
    } else {
        for (name, body) in plugin_defs.iter() {
            if !defs.contains_key(name) {
                defs.insert(name.clone(), body.clone());
            }
        }
    }
    if !defs.is_empty() {
        schema.insert("$defs", defs);
    }
    Json::Object(schema)
}

/// A plugin's `$defs` as a graph, made once per plugin: each entry's position by name, and
/// the entries each one refers to (`#/$defs/Name`), found with one walk of every entry. A
/// tool's reached entries ([`DefsGraph::reached`]) then cost a lookup each, not a scan of
/// the plugin's entries (Microsoft Graph's have 1,728, and each of its 21,807 tools reaches
/// dozens) nor a walk of their bodies.
pub(crate) struct DefsGraph<'a> {
    /// Entry names and bodies, in the plugin's order.
    entries: Vec<(&'a String, &'a Json)>,
    /// By name, the position in `entries`.
    index: HashMap<&'a str, usize>,
    /// By position, the positions of the entries its body refers to, in the order met
    /// (names that are no entry left out).
    refers: Vec<Vec<usize>>,
}

impl<'a> DefsGraph<'a> {
    /// The graph of `defs`.
    pub(crate) fn new(defs: &'a Map) -> DefsGraph<'a> {
        let entries: Vec<(&String, &Json)> = defs.iter().collect();
        let index: HashMap<&str, usize> = entries
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (name.as_str(), i))
            .collect();
        let mut names = Vec::new();
        let refers = entries
            .iter()
            .map(|(_, body)| {
                names.clear();
                referred(body, &mut names);
                names
                    .iter()
                    .filter_map(|name| index.get(name.as_str()).copied())
                    .collect()
            })
            .collect();
        DefsGraph {
            entries,
            index,
            refers,
        }
    }

    /// The entries that the endpoint's parameter schemas refer to, directly or through
    /// other entries, each once in the order met (a work list, breadth first). `seen` is
    /// scratch space the caller keeps across tools (one mark an entry).
    pub(crate) fn reached(&self, endpoint: &Endpoint, seen: &mut Vec<bool>) -> Map {
        if self.entries.is_empty() {
            return Map::new();
        }
        let mut names = Vec::new();
        for param in endpoint.params.iter().filter(|p| !p.is_hidden()) {
            if let Some(schema) = &param.schema {
                referred(schema, &mut names);
            }
        }
        if names.is_empty() {
            return Map::new();
        }
        seen.clear();
        seen.resize(self.entries.len(), false);
        let mut order: Vec<usize> = Vec::new();
        for name in &names {
            if let Some(&i) = self.index.get(name.as_str()) {
                if !seen[i] {
                    seen[i] = true;
                    order.push(i);
                }
            }
        }
        let mut next = 0;
        while let Some(&i) = order.get(next) {
            next += 1;
            for &j in &self.refers[i] {
                if !seen[j] {
                    seen[j] = true;
                    order.push(j);
                }
            }
        }
        let entries = order
            .into_iter()
            .map(|i| {
                let (name, body) = self.entries[i];
                (name.clone(), body.clone())
            })
            .collect();
        Map::from_unique_entries(entries)
    }
}

/// The `$defs` names `schema` refers to (`#/$defs/Name`, RFC 6901 escapes read), pushed onto
/// `out` in the order met; walked with an explicit stack.
pub(crate) fn referred(schema: &Json, out: &mut Vec<String>) {
    let mut stack = vec![schema];
    while let Some(value) = stack.pop() {
        match value {
            Json::Object(map) => {
                let reference = map.get("$ref").and_then(Json::as_str);
                if let Some(token) = reference.and_then(|r| r.strip_prefix("#/$defs/")) {
                    if !token.contains('/') {
                        out.push(token.replace("~1", "/").replace("~0", "~"));
                    }
                }
                stack.extend(map.values().rev());
            }
            Json::Array(items) => stack.extend(items.iter().rev()),
            _ => {}
        }
    }
}

/// Moves the `$defs` of a parameter's schema to the tool schema's root, where its
/// `#/$defs/Name` references point once the schema is a property (JSON Schema 2020-12, Core,
/// section 8.2.4). An entry the root has already is kept as it is: the parameters of one
/// import name each component once, and a hand-written plugin whose parameters give one
/// name two meanings gets the first.
fn hoist_defs(schema: &mut Json, defs: &mut Map) {
    let own = match schema
        .as_object_mut()
        .and_then(|map| map.remove("$defs"))
        .and_then(Json::into_object)
    {
        Some(own) => own,
        None => return,
    };
    if defs.is_empty() {
        *defs = own;
        return;
    }
    for (name, body) in own {
        if !defs.contains_key(&name) {
            defs.insert(name, body);
        }
    }
}

/// A declared `schema` is taken as it is, the parameter's description, enum and default
/// written over it; otherwise the schema of the type.
fn param_schema(param: &Param) -> Json {
    let mut schema = match &param.schema {
        Some(declared) => {
            let mut declared = declared.clone();
            if let (Some(map), false) = (declared.as_object_mut(), param.description.is_empty()) {
                map.insert("description", param.description.as_str());
            }
            declared
        }
        None => type_schema(&param.ty, &param.description),
    };
    if let Some(map) = schema.as_object_mut() {
        if let Some(format) = &param.format {
            map.insert("format", format.as_str());
        }
        if !param.enum_values.is_empty() {
            map.insert("enum", param.enum_values.clone());
        }
        if let Some(default) = &param.default {
            map.insert("default", default.clone());
        }
    }
    schema
}

/// The schema of a type. Recursion follows the declared type, whose depth the plugin's
/// checks bound.
fn type_schema(ty: &ParamType, description: &str) -> Json {
    let mut map = Map::with_capacity(3);
    if *ty != ParamType::Any {
        map.insert("type", ty.as_str());
    }
    if !description.is_empty() {
        map.insert("description", description);
    }
    match ty {
        ParamType::Array(items) => {
            map.insert("items", type_schema(items, ""));
        }
        ParamType::Object(properties) if !properties.is_empty() => {
            let mut props = Vec::with_capacity(properties.len());
            let mut required = Vec::new();
            for property in properties {
                let schema = type_schema(property.ty(), property.description());
                props.push((property.name().to_string(), schema));
                if property.is_required() {
                    required.push(Json::from(property.name()));
                }
            }
            map.insert("properties", props.into_iter().collect::<Map>());
            if !required.is_empty() {
                map.insert("required", required);
            }
            map.insert("additionalProperties", false);
        }
        _ => {}
    }
    Json::Object(map)
}

/// The output schema the tool advertises for an endpoint's declared one (MCP's
/// `outputSchema`, which clients check every successful `structuredContent` against): the
/// declared schema, loosened where the endpoint can answer what it does not describe.
///
/// - With [`fields_argument`](Endpoint::fields_argument), the model may ask for any parts
///   of the answer, and with [`response_fields`](Endpoint::response_fields) the endpoint
///   keeps some, so what a subset can break goes ([`loosen_for_subsets`]).
/// - Any HTTP API can answer a success with no body (204, or an empty 200); the result is
///   then the empty object, so a root that may refuse `{}` becomes `{"type": "object",
///   "anyOf": [declared, empty]}` ([`admit_empty`]).
///
/// `None` when the declared schema is advertised as it is (the common case, and every
/// imported schema, which asserts nothing), so nothing is copied.
pub(crate) fn advertised_output_schema(endpoint: &Endpoint) -> Option<Json> {
    let declared = endpoint.output_schema.as_ref()?;
    if endpoint.pagination.is_some() {
        // A paged call answers with the items of every page read, not one page.
        return Some(crate::plugin::declare::pages::output_schema());
    }
    let mut schema = None;
    if endpoint.fields_argument || !endpoint.response_fields.is_empty() {
        let mut loose = declared.clone();
        loosen_for_subsets(&mut loose);
        schema = Some(loose).filter(|loose| loose != declared);
    }
    let current = schema.as_ref().unwrap_or(declared);
    if object_root(current) && !admits_empty(current) {
        schema = Some(admit_empty(current.clone()));
    }
    schema
}

/// What the object stands for in an advertised output schema when the API answered a
/// success with no body.
pub(crate) const EMPTY_ANSWER: &str =
    "The API answered with no body (204 No Content, or an empty success): the result is empty.";

/// Keywords a subset of the answer can break: members or items left out, or positions
/// shifted. `oneOf` is among them: with fewer members, two branches can match at once.
const SUBSET_ASSERTIONS: [&str; 17] = [
    "required",
    "minProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "minItems",
    "contains",
    "minContains",
    "prefixItems",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "oneOf",
];

/// Applies `visit` to `schema` and every schema below it that a value's members or items
/// are checked against (`properties`, `patternProperties`, `additionalProperties`, `items`,
/// `allOf`, `anyOf`, `oneOf`, `$defs`, `definitions`), with an explicit stack: schemas are
/// input, and their depth costs no stack. `visit` runs before the children are read, so
/// what it renames or removes is walked as it leaves it.
fn walk_schemas(schema: &mut Json, mut visit: impl FnMut(&mut Map)) {
    let mut stack: Vec<&mut Json> = vec![schema];
    while let Some(node) = stack.pop() {
        let map = match node.as_object_mut() {
            Some(map) => map,
            None => continue,
        };
        visit(map);
        for (key, value) in map.iter_mut() {
            match key.as_str() {
                "properties" | "patternProperties" | "$defs" | "definitions" => {
                    if let Some(children) = value.as_object_mut() {
                        stack.extend(children.values_mut());
                    }
                }
                "items" | "additionalProperties" | "allOf" | "anyOf" | "oneOf" => match value {
                    Json::Array(children) => stack.extend(children.iter_mut()),
                    child => stack.push(child),
                },
                _ => {}
            }
        }
    }
}

/// Drops what a subset of the answer can break ([`SUBSET_ASSERTIONS`]; an `enum` or `const`
/// only when it names an array or object, which a subset no longer equals), and reads
/// `oneOf` as `anyOf`. What is left still describes every member the model may ask for, and
/// accepts every subset of a valid answer.
fn loosen_for_subsets(schema: &mut Json) {
    walk_schemas(schema, |map| {
        let one_of = map.remove("oneOf");
        let tuple =
            map.contains_key("prefixItems") || map.get("items").map_or(false, Json::is_array);
        if tuple {
            // Items shift once some are left out: the tuple's positions no longer hold.
            map.remove("items");
        }
        for key in SUBSET_ASSERTIONS {
            map.remove(key);
        }
        let container = |v: &Json| v.is_array() || v.is_object();
        if let Some(Json::Array(values)) = map.get("enum") {
            if values.iter().any(container) {
                map.remove("enum");
            }
        }
        if map.get("const").map_or(false, container) {
            map.remove("const");
        }
        if let Some(branches) = one_of {
            if map.contains_key("anyOf") {
                let mut all = map
                    .remove("allOf")
                    .and_then(Json::into_array)
                    .unwrap_or_default();
                let mut wrapper = Map::with_capacity(1);
                wrapper.insert("anyOf", branches);
                all.push(Json::Object(wrapper));
                map.insert("allOf", all);
            } else {
                map.insert("anyOf", branches);
            }
        }
    });
}

/// Whether the schema's root is an object schema (`"type": "object"`): MCP's provider wraps
/// any other root as `{"result": ...}`, whose `result` may be absent, so an empty answer
/// validates there already.
fn object_root(schema: &Json) -> bool {
    schema.get("type").and_then(Json::as_str) == Some("object")
}

/// Keywords that never refuse the empty object at a schema's root: those about members that
/// are present, about other types, and annotations.
const EMPTY_SAFE: [&str; 37] = [
    "type",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedProperties",
    "maxProperties",
    "items",
    "prefixItems",
    "unevaluatedItems",
    "contains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minContains",
    "maxContains",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "contentMediaType",
    "contentEncoding",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "title",
    "description",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
    "$id",
    "$comment",
];

/// Whether `{}` surely validates against the root of `schema` (an object schema): every
/// keyword there is one that cannot refuse it, `required` is empty and `minProperties` 0.
/// `$defs` are only reached through a `$ref`, which is not safe here. Unsure means no.
fn admits_empty(schema: &Json) -> bool {
    let map = match schema.as_object() {
        Some(map) => map,
        None => return true,
    };
    map.iter().all(|(key, value)| match key.as_str() {
        "required" => value.as_array().map_or(false, Vec::is_empty),
        "minProperties" => value.as_f64() == Some(0.0),
        "$defs" | "definitions" => true,
        word if word.starts_with("x-") => true,
        word => EMPTY_SAFE.contains(&word),
    })
}

/// `{"type": "object", "anyOf": [declared, {"type": "object", "maxProperties": 0}]}`: the
/// declared schema or the empty answer. What must stay at the root (`$defs` and
/// `definitions`, where `#/$defs/...` references point; `$schema`, `$id`) moves there, and so
/// do the title and description a reader looks for first.
fn admit_empty(declared: Json) -> Json {
    let mut inner = match declared.into_object() {
        Some(map) => map,
        None => return Json::Object(Map::new()),
    };
    let mut root = Map::with_capacity(8);
    for key in ["$schema", "$id"] {
        if let Some(value) = inner.remove(key) {
            root.insert(key, value);
        }
    }
    root.insert("type", "object");
    for key in ["title", "description"] {
        if let Some(value) = inner.remove(key) {
            root.insert(key, value);
        }
    }
    let mut empty = Map::with_capacity(3);
    empty.insert("type", "object");
    empty.insert("maxProperties", 0);
    empty.insert("description", EMPTY_ANSWER);
    let defs: Vec<(&str, Json)> = ["$defs", "definitions"]
        .iter()
        .filter_map(|key| inner.remove(key).map(|value| (*key, value)))
        .collect();
    root.insert("anyOf", vec![Json::Object(inner), Json::Object(empty)]);
    for (key, value) in defs {
        root.insert(key, value);
    }
    Json::Object(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn reached_defs_are_each_entry_once_breadth_first_from_the_parameters() {
        let defs = json!({
            "A": {"type": "object", "properties": {"c": {"$ref": "#/$defs/C"}}},
            "B": {"type": "array", "items": {"$ref": "#/$defs/A"}},
            "C": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}, "d": {"$ref": "#/$defs/D~1x"}}},
            "D/x": {"type": "string"},
            "E": {"type": "string"}
        });
        let defs = defs.as_object().cloned().unwrap_or_default();
        let graph = DefsGraph::new(&defs);
        let endpoint = crate::plugin::Endpoint::post("e", "/e")
            .param(crate::plugin::Param::body("b").schema(json!({"$ref": "#/$defs/B"})))
            .param(crate::plugin::Param::body("m").schema(json!({"$ref": "#/$defs/Missing"})))
            .param(crate::plugin::Param::body("a").schema(json!({"$ref": "#/$defs/A"})))
            .build();
        let mut seen = Vec::new();
        let reached = graph.reached(&endpoint, &mut seen);
        assert_eq!(reached.keys().collect::<Vec<_>>(), ["B", "A", "C", "D/x"]);
        // The scratch space is reused: a second tool starts afresh.
        let plain = crate::plugin::Endpoint::get("p", "/p")
            .param(crate::plugin::Param::query("q").schema(json!({"$ref": "#/$defs/E"})))
            .build();
        let reached = graph.reached(&plain, &mut seen);
        assert_eq!(reached.keys().collect::<Vec<_>>(), ["E"]);
    }

    fn loosened(schema: Json) -> Json {
        let mut schema = schema;
        loosen_for_subsets(&mut schema);
        schema
    }

    #[test]
    fn subsets_loosen_every_level_and_keep_what_describes() {
        let schema = json!({"type": "object", "required": ["required"], "minProperties": 1,
            "properties": {
                "required": {"type": "string", "description": "a member named like the keyword"},
                "pair": {"type": "array", "prefixItems": [{"type": "string"}], "items": false, "minItems": 2},
                "kind": {"oneOf": [{"required": ["a"]}, {"required": ["b"]}], "anyOf": [{}]},
                "shape": {"enum": [{"a": 1}, "x"], "const": [1]},
                "word": {"enum": ["x", "y"], "const": "x"}},
            "$defs": {"Item": {"type": "object", "required": ["id"], "not": {"required": ["x"]}}},
            "items": [{"if": {}, "then": {}, "else": {}}]});
        assert_eq!(
            loosened(schema),
            json!({"type": "object",
                "properties": {
                    "required": {"type": "string", "description": "a member named like the keyword"},
                    "pair": {"type": "array"},
                    "kind": {"anyOf": [{}], "allOf": [{"anyOf": [{}, {}]}]},
                    "shape": {},
                    "word": {"enum": ["x", "y"], "const": "x"}},
                "$defs": {"Item": {"type": "object"}}})
        );
    }

    #[test]
    fn only_roots_that_may_refuse_the_empty_object_are_wrapped() {
        for admits in [
            json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 1}},
                   "additionalProperties": false, "required": [], "x-note": 1}),
            json!({"type": "object", "minProperties": 0, "$defs": {"A": {"required": ["a"]}}}),
        ] {
            assert!(admits_empty(&admits), "{}", admits);
        }
        for refuses in [
            json!({"type": "object", "required": ["a"]}),
            json!({"type": "object", "minProperties": 1}),
            json!({"type": "object", "$ref": "#/$defs/A"}),
            json!({"type": "object", "allOf": [{}]}),
            json!({"type": "object", "unknownKeyword": 1}),
        ] {
            assert!(!admits_empty(&refuses), "{}", refuses);
        }
        let wrapped = admit_empty(json!({"$schema": "s", "type": "object", "title": "T",
            "required": ["a"], "$defs": {"A": {}}}));
        assert_eq!(
            wrapped,
            json!({"$schema": "s", "type": "object", "title": "T",
                   "anyOf": [{"type": "object", "required": ["a"]},
                             {"type": "object", "maxProperties": 0, "description": EMPTY_ANSWER}],
                   "$defs": {"A": {}}})
        );
    }
}
