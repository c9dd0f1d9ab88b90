//! `ToolSpec`: what a model reads about a tool, and the tool-name rule.

use std::collections::HashMap;

use super::error::{Error, ErrorKind};
use super::suggest::quote;

use crate::json::{Json, Map, DEFAULT_MAX_DEPTH};

/// The longest tool name, in bytes, that every provider accepts
/// ([tool names](crate::design::endpoints#tool-names)).
pub const MAX_NAME_LEN: usize = 64;

/// Checks that `name` is a tool name every provider accepts: `^[a-zA-Z0-9_-]{1,64}$`.
///
/// OpenAI, Anthropic and Gemini each accept a superset of this pattern (Gemini also takes
/// `.` and `:`, MCP up to 128 characters), so a name that passes here works everywhere.
///
/// # Errors
///
/// [`ErrorKind::InvalidName`] when the name is empty, longer than [`MAX_NAME_LEN`] bytes, or
/// holds a character outside `a-z`, `A-Z`, `0-9`, `_` and `-`; the message says which.
///
/// # Examples
///
/// ```
/// use httptool::tool::validate_name;
///
/// assert!(validate_name("get_weather-v2").is_ok());
/// let err = validate_name("get weather").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "tool name 'get weather' holds ' ' at byte 3; use only a-z, A-Z, 0-9, '_' and '-'"
/// );
/// ```
pub fn validate_name(name: &str) -> Result<(), Error> {
    if name.is_empty() {
        return Err(Error::new(
            ErrorKind::InvalidName,
            "tool name is empty; use 1 to 64 of a-z, A-Z, 0-9, '_' and '-'",
        ));
    }
    if let Some((at, c)) = name
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    {
        return Err(Error::new(
            ErrorKind::InvalidName,
            format!(
                "tool name {} holds {} at byte {}; use only a-z, A-Z, 0-9, '_' and '-'",
                quote(name),
                quote(c.encode_utf8(&mut [0; 4])),
                at
            ),
        ));
    }
    if name.len() > MAX_NAME_LEN {
        return Err(Error::new(
            ErrorKind::InvalidName,
            format!(
                "tool name {} is {} bytes long, over the limit of {}",
                quote(name),
                name.len(),
                MAX_NAME_LEN
            ),
        ));
    }
    Ok(())
}

/// What a model reads about a tool: its name, a description and the JSON Schema of its
/// arguments.
///
/// A `ToolSpec` is valid by construction: the name passes [`validate_name`] and the
/// parameters are a JSON Schema object whose `type` is `"object"` (every provider requires an
/// object at the root), nested no deeper than [`json::DEFAULT_MAX_DEPTH`](DEFAULT_MAX_DEPTH),
/// so every renderer in [`openai`](super::openai), [`anthropic`](super::anthropic),
/// [`gemini`](super::gemini) and [`mcp`](super::mcp) can rely on that.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::ToolSpec;
///
/// let spec = ToolSpec::new(
///     "get_weather",
///     "Current weather for a city",
///     json!({
///         "type": "object",
///         "properties": { "city": { "type": "string" } },
///         "required": ["city"],
///         "additionalProperties": false
///     }),
/// )?;
/// assert_eq!(spec.name(), "get_weather");
/// # Ok::<(), httptool::tool::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    name: String,
    title: Option<String>,
    description: String,
    parameters: Json,
    annotations: ToolAnnotations,
    output_schema: Option<Json>,
}

/// Hints about how a tool behaves, for clients that decide what to confirm with a person
/// (MCP's `ToolAnnotations`, revision 2025-11-25, "Tool Annotations").
///
/// Each hint is an `Option<bool>`: `None` means unknown, and is left out when rendered, so
/// the client applies the protocol's default (read-only `false`, destructive `true`,
/// idempotent `false`, open-world `true`). They are hints: a client must not trust them from
/// a server it does not trust, and nothing in this crate enforces them.
///
/// Only the [`mcp`](super::mcp) renderer sends them (as `readOnlyHint`, `destructiveHint`,
/// `idempotentHint`, `openWorldHint`); OpenAI, Anthropic and Gemini tools have no such field.
///
/// # Examples
///
/// ```
/// use httptool::tool::{ToolAnnotations, ToolSpec};
///
/// let hints = ToolAnnotations { read_only: Some(true), ..ToolAnnotations::default() };
/// let spec = ToolSpec::without_parameters("list_users", "Lists users")?.with_annotations(hints);
/// assert_eq!(spec.annotations().read_only, Some(true));
/// assert_eq!(spec.annotations().destructive, None); // unknown
/// # Ok::<(), httptool::tool::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ToolAnnotations {
    /// The tool does not change its environment (MCP `readOnlyHint`).
    pub read_only: Option<bool>,
    /// The tool may destroy or overwrite data rather than only add to it (MCP
    /// `destructiveHint`; meaningful only when the tool is not read-only).
    pub destructive: Option<bool>,
    /// Calling it again with the same arguments has no further effect (MCP
    /// `idempotentHint`; meaningful only when the tool is not read-only).
    pub idempotent: Option<bool>,
    /// The tool reaches entities outside a closed world, such as a web API (MCP
    /// `openWorldHint`).
    pub open_world: Option<bool>,
}

impl ToolAnnotations {
    /// Whether every hint is unknown.
    pub fn is_empty(&self) -> bool {
        *self == ToolAnnotations::default()
    }

    /// Each hint of `self`, or where it is unknown, the one of `base`.
    #[must_use]
    pub fn or(self, base: ToolAnnotations) -> ToolAnnotations {
        ToolAnnotations {
            read_only: self.read_only.or(base.read_only),
            destructive: self.destructive.or(base.destructive),
            idempotent: self.idempotent.or(base.idempotent),
            open_world: self.open_world.or(base.open_world),
        }
    }
}

impl ToolSpec {
    /// A spec from a name, a description for the model and the JSON Schema of the arguments.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidName`] for a name [`validate_name`] refuses;
    /// [`ErrorKind::InvalidSchema`] when `parameters` is not a JSON object with
    /// `"type": "object"`, when its `properties` is not an object or its `required` not an
    /// array of strings, or when it nests deeper than
    /// [`json::DEFAULT_MAX_DEPTH`](DEFAULT_MAX_DEPTH).
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: Json,
    ) -> Result<ToolSpec, Error> {
        ToolSpec::checked(name.into(), description.into(), parameters, None)
    }

    /// [`ToolSpec::new`] for the tools of one plugin, whose schemas share objects (the
    /// `$defs` entries many tools reach): each shared object is walked for depth once.
    pub(crate) fn new_with(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: Json,
        depths: &mut Depths,
    ) -> Result<ToolSpec, Error> {
        ToolSpec::checked(name.into(), description.into(), parameters, Some(depths))
    }

    fn checked(
        name: String,
        description: String,
        parameters: Json,
        depths: Option<&mut Depths>,
    ) -> Result<ToolSpec, Error> {
        validate_name(&name)?;
        check_parameters(&name, &parameters, depths)?;
        Ok(ToolSpec {
            name,
            title: None,
            description,
            parameters,
            annotations: ToolAnnotations::default(),
            output_schema: None,
        })
    }

    /// A spec for a tool that takes no arguments: its schema is
    /// `{"type": "object", "properties": {}, "additionalProperties": false}`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidName`] for a name [`validate_name`] refuses.
    pub fn without_parameters(
        name: impl Into<String>,
        description: impl Into<String>,
    ) -> Result<ToolSpec, Error> {
        let mut schema = Map::with_capacity(3);
        schema.insert("type", "object");
        schema.insert("properties", Map::new());
        schema.insert("additionalProperties", false);
        ToolSpec::new(name, description, Json::Object(schema))
    }

    /// Sets a human-readable title (MCP's `title`; the other providers have no such field).
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> ToolSpec {
        self.title = Some(title.into());
        self
    }

    /// Sets the behaviour hints (see [`ToolAnnotations`]).
    #[must_use]
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> ToolSpec {
        self.annotations = annotations;
        self
    }

    /// Sets the JSON Schema of the tool's structured result (MCP's `outputSchema`; the other
    /// providers have no such field). It describes the value the tool attaches with
    /// [`ToolOutput::with_structured`](super::ToolOutput::with_structured); the
    /// [`mcp`](super::mcp) renderer wraps a schema whose root is not an object, as it wraps
    /// such a value.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidSchema`] when `schema` is not a JSON object, or nests deeper than
    /// [`json::DEFAULT_MAX_DEPTH`](DEFAULT_MAX_DEPTH).
    pub fn with_output_schema(mut self, schema: Json) -> Result<ToolSpec, Error> {
        let invalid = |what: String| {
            Err(Error::new(
                ErrorKind::InvalidSchema,
                format!("tool {}: output schema {}", quote(&self.name), what),
            ))
        };
        if !schema.is_object() {
            return invalid(format!(
                "must be a JSON Schema object, got {}",
                schema.type_name()
            ));
        }
        if depth_exceeds(&schema, DEFAULT_MAX_DEPTH) {
            return invalid(format!("nests deeper than {} levels", DEFAULT_MAX_DEPTH));
        }
        self.output_schema = Some(schema);
        Ok(self)
    }

    /// The tool's name, unique in a registry.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The human-readable title, if one was set.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The description the model reads.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The JSON Schema of the arguments (an object schema).
    pub fn parameters(&self) -> &Json {
        &self.parameters
    }

    /// The behaviour hints; every one unknown unless set.
    pub fn annotations(&self) -> &ToolAnnotations {
        &self.annotations
    }

    /// The JSON Schema of the structured result, if one was set.
    pub fn output_schema(&self) -> Option<&Json> {
        self.output_schema.as_ref()
    }
}

fn check_parameters(
    name: &str,
    parameters: &Json,
    depths: Option<&mut Depths>,
) -> Result<(), Error> {
    let invalid = |what: &str| {
        Err(Error::new(
            ErrorKind::InvalidSchema,
            format!("tool '{}': parameters {}", name, what),
        ))
    };
    let schema = match parameters.as_object() {
        Some(schema) => schema,
        None => {
            return invalid(&format!(
                "must be a JSON Schema object, got {}",
                parameters.type_name()
            ))
        }
    };
    if schema.get("type").and_then(Json::as_str) != Some("object") {
        return invalid("must have \"type\": \"object\" at the root (providers require it)");
    }
    if let Some(properties) = schema.get("properties") {
        if !properties.is_object() {
            return invalid("have a \"properties\" that is not an object");
        }
    }
    if let Some(required) = schema.get("required") {
        let all_strings = required
            .as_array()
            .map_or(false, |names| names.iter().all(Json::is_string));
        if !all_strings {
            return invalid("have a \"required\" that is not an array of strings");
        }
    }
    let too_deep = match depths {
        Some(depths) => depths.exceeds(parameters, DEFAULT_MAX_DEPTH),
        None => depth_exceeds(parameters, DEFAULT_MAX_DEPTH),
    };
    if too_deep {
        return invalid(&format!("nest deeper than {} levels", DEFAULT_MAX_DEPTH));
    }
    Ok(())
}

/// Whether `value` nests arrays and objects deeper than `max` (the root container is level
/// 1). Walks with an explicit stack, so a deep value cannot overflow the call stack.
pub(crate) fn depth_exceeds(value: &Json, max: usize) -> bool {
    walk_exceeds(value, max, None)
}

/// The shared objects (see [`Map`]) the schemas of one plugin's tools were walked through
/// for depth, by allocation: the deepest level each was met at without the walk going past
/// the limit, and the object itself (held, so its allocation is not another's while this
/// lives). One met again no deeper is not walked again: the plugin's `$defs` entries are in
/// the schema of every tool that reaches them, and walking them whole for every tool was
/// most of the check.
#[derive(Default)]
pub(crate) struct Depths {
    /// The limit the walks were made against: another one starts afresh.
    max: usize,
    walked: HashMap<usize, (usize, Map)>,
}

impl Depths {
    /// [`depth_exceeds`], not walking again what an earlier walk passed.
    pub(crate) fn exceeds(&mut self, value: &Json, max: usize) -> bool {
        if self.max != max {
            self.max = max;
            self.walked.clear();
        }
        walk_exceeds(value, max, Some(self))
    }
}

/// [`depth_exceeds`], with `depths` the shared objects already walked: one met no deeper
/// than before is skipped, and the others are recorded once the whole walk has passed (a
/// walk that goes past the limit stops early, leaving objects not wholly walked).
fn walk_exceeds(value: &Json, max: usize, mut depths: Option<&mut Depths>) -> bool {
    if !is_container(value) {
        return false;
    }
    if max == 0 {
        return true;
    }
    // Only arrays and objects go on the stack, and one deeper than `max` is found as the
    // child of one at `max`: most values are strings and numbers, and pushing each one to
    // pop it again was most of the walk.
    let mut stack: Vec<(&Json, usize)> = Vec::with_capacity(32);
    let mut met: Vec<(&Map, usize)> = Vec::new();
    stack.push((value, 1));
    while let Some((value, depth)) = stack.pop() {
        let before = stack.len();
        let deeper = match value {
            Json::Array(items) => stack_containers(items.iter(), depth, max, &mut stack),
            Json::Object(members) => stack_containers(members.values(), depth, max, &mut stack),
            _ => false,
        };
        if deeper {
            return true;
        }
        if let Some(depths) = depths.as_deref_mut() {
            // The children just stacked that an earlier walk passed at their level or deeper
            // are taken off again.
            let mut i = before;
            while let Some(&(child, level)) = stack.get(i) {
                let walked = match child {
                    Json::Object(map) if map.is_shared() => {
                        let walked = map
                            .shared_id()
                            .and_then(|id| depths.walked.get(&id))
                            .map_or(false, |&(walked, _)| walked >= level);
                        if !walked {
                            met.push((map, level));
                        }
                        walked
                    }
                    _ => false,
                };
                if walked {
                    stack.swap_remove(i);
                } else {
                    i += 1;
                }
            }
        }
    }
    if let Some(depths) = depths {
        for (map, level) in met {
            if let Some(id) = map.shared_id() {
                let entry = depths.walked.entry(id).or_insert((0, Map::new()));
                if entry.0 < level {
                    *entry = (level, map.clone());
                }
            }
        }
    }
    false
}

/// Puts the arrays and objects among `children` (of a container at `depth`) on `stack`;
/// `true`, stacking nothing more, when there is one and `depth` is already `max`.
fn stack_containers<'a>(
    children: impl Iterator<Item = &'a Json>,
    depth: usize,
    max: usize,
    stack: &mut Vec<(&'a Json, usize)>,
) -> bool {
    for child in children.filter(|child| is_container(child)) {
        if depth >= max {
            return true;
        }
        stack.push((child, depth + 1));
    }
    false
}

fn is_container(value: &Json) -> bool {
    matches!(value, Json::Array(_) | Json::Object(_))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    macro_rules! name_cases {
        ($($name:ident: $input:expr => $ok:expr;)*) => {$(
            #[test]
            fn $name() {
                let result = validate_name($input);
                assert_eq!(result.is_ok(), $ok, "{:?}", result);
                if let Err(err) = result {
                    assert_eq!(err.kind(), ErrorKind::InvalidName);
                }
            }
        )*};
    }

    name_cases! {
        name_simple: "get_weather" => true;
        name_dash_and_digits: "get-weather-2" => true;
        name_one_char: "a" => true;
        name_at_limit: &"a".repeat(64) => true;
        name_over_limit: &"a".repeat(65) => false;
        name_empty: "" => false;
        name_space: "get weather" => false;
        name_dot: "weather.get" => false;
        name_colon: "weather:get" => false;
        name_non_ascii: "météo" => false;
        name_newline: "a\nb" => false;
    }

    #[test]
    fn name_messages() {
        let message = |name: &str| validate_name(name).unwrap_err().to_string();
        assert_eq!(
            message(""),
            "tool name is empty; use 1 to 64 of a-z, A-Z, 0-9, '_' and '-'"
        );
        assert_eq!(
            message(&"a".repeat(65)),
            format!(
                "tool name '{}...' is 65 bytes long, over the limit of 64",
                "a".repeat(64)
            )
        );
        assert_eq!(
            message("a\nb"),
            "tool name 'a\\nb' holds '\\n' at byte 1; use only a-z, A-Z, 0-9, '_' and '-'"
        );
    }

    #[test]
    fn spec_requires_object_root() {
        let err = ToolSpec::new("t", "", json!({"type": "string"})).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidSchema);
        assert_eq!(
            err.to_string(),
            "tool 't': parameters must have \"type\": \"object\" at the root (providers require it)"
        );
        let err = ToolSpec::new("t", "", json!([1])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool 't': parameters must be a JSON Schema object, got array"
        );
    }

    #[test]
    fn spec_checks_properties_and_required() {
        let err = ToolSpec::new("t", "", json!({"type": "object", "properties": []})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool 't': parameters have a \"properties\" that is not an object"
        );
        let err = ToolSpec::new("t", "", json!({"type": "object", "required": [1]})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool 't': parameters have a \"required\" that is not an array of strings"
        );
    }

    fn nested(levels: usize) -> Json {
        // `levels` objects in total: the root plus `levels - 1` nested under "p".
        let mut value = json!({"type": "object"});
        for _ in 1..levels {
            value = json!({"type": "object", "p": value});
        }
        value
    }

    #[test]
    fn a_shared_object_is_walked_again_only_deeper_than_before() {
        let inner = json!({"a": {"b": {}}});
        let shallow = json!({"x": inner.clone()});
        let deep = json!({"y": {"z": inner.clone()}});
        let mut depths = Depths::default();
        assert!(!depths.exceeds(&shallow, 4));
        assert_eq!(depths.walked.len(), 1, "the shared object is recorded");
        assert!(!depths.exceeds(&shallow, 4), "met again as deep: passes");
        assert!(
            depths.exceeds(&deep, 4),
            "one level deeper: walked, too deep"
        );
        assert!(!depths.exceeds(&deep, 5));
        assert!(depths.exceeds(&shallow, 3), "another limit starts afresh");
        for max in 0..7 {
            for value in [&shallow, &deep] {
                let mut fresh = Depths::default();
                assert_eq!(fresh.exceeds(value, max), depth_exceeds(value, max));
            }
        }
    }

    #[test]
    fn a_walk_that_fails_records_nothing() {
        let inner = json!({"a": {}});
        let too_deep = json!({"x": inner.clone(), "y": [[[[[]]]]]});
        let mut depths = Depths::default();
        assert!(depths.exceeds(&too_deep, 4));
        assert!(depths.walked.is_empty());
        assert!(!depths.exceeds(&json!({"x": inner}), 4));
    }

    #[test]
    fn spec_depth_limit_on_both_sides() {
        assert!(ToolSpec::new("t", "", nested(DEFAULT_MAX_DEPTH)).is_ok());
        let err = ToolSpec::new("t", "", nested(DEFAULT_MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidSchema);
        assert_eq!(
            err.to_string(),
            "tool 't': parameters nest deeper than 128 levels"
        );
    }

    /// An object schema whose `p` holds `levels - 1` arrays, one in the other, with a
    /// string and a number in the innermost: `levels` containers in all.
    fn nested_arrays(levels: usize) -> Json {
        let mut value = json!(["deepest", 1]);
        for _ in 2..levels {
            value = json!([value, "beside"]);
        }
        json!({"type": "object", "p": value})
    }

    #[test]
    fn spec_depth_counts_arrays_and_objects_not_the_values_in_them() {
        // The scalars in the innermost array sit one level below the limit's last container:
        // they do not count, a container there does.
        assert!(ToolSpec::new("t", "", nested_arrays(DEFAULT_MAX_DEPTH)).is_ok());
        let err = ToolSpec::new("t", "", nested_arrays(DEFAULT_MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool 't': parameters nest deeper than 128 levels"
        );
        let spec = ToolSpec::without_parameters("t", "").unwrap();
        let at_limit = nested_arrays(DEFAULT_MAX_DEPTH);
        let spec = spec.with_output_schema(at_limit.clone()).unwrap();
        assert_eq!(spec.output_schema(), Some(&at_limit));
        let err = spec
            .with_output_schema(nested_arrays(DEFAULT_MAX_DEPTH + 1))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool 't': output schema nests deeper than 128 levels"
        );
    }

    #[test]
    fn depth_of_a_scalar_an_empty_container_and_a_zero_limit() {
        assert!(!depth_exceeds(&json!("text"), 0));
        assert!(depth_exceeds(&json!({}), 0));
        assert!(!depth_exceeds(&json!({}), 1));
        assert!(!depth_exceeds(&json!({"a": [], "b": 1}), 2));
        assert!(depth_exceeds(&json!({"a": [], "b": 1}), 1));
        assert!(depth_exceeds(&json!([1, [2, [3]]]), 2));
        assert!(!depth_exceeds(&json!([1, [2, [3]]]), 3));
    }

    #[test]
    fn spec_without_parameters_is_an_empty_closed_object() {
        let spec = ToolSpec::without_parameters("ping", "Checks liveness").unwrap();
        assert_eq!(
            spec.parameters(),
            &json!({"type": "object", "properties": {}, "additionalProperties": false})
        );
        assert_eq!(spec.title(), None);
        assert_eq!(spec.annotations(), &ToolAnnotations::default());
        assert_eq!(spec.output_schema(), None);
        assert_eq!(spec.with_title("Ping").title(), Some("Ping"));
    }

    #[test]
    fn output_schema_must_be_an_object_of_bounded_depth() {
        let spec = ToolSpec::without_parameters("t", "").unwrap();
        let err = spec.clone().with_output_schema(json!(true)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidSchema);
        assert_eq!(
            err.to_string(),
            "tool 't': output schema must be a JSON Schema object, got boolean"
        );
        let err = spec
            .clone()
            .with_output_schema(nested(DEFAULT_MAX_DEPTH + 1))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "tool 't': output schema nests deeper than 128 levels"
        );
        let schema = json!({"type": "array"});
        let spec = spec.with_output_schema(schema.clone()).unwrap();
        assert_eq!(spec.output_schema(), Some(&schema));
    }

    #[test]
    fn annotations_fill_unknown_hints_from_a_base() {
        let declared = ToolAnnotations {
            destructive: Some(false),
            ..ToolAnnotations::default()
        };
        let base = ToolAnnotations {
            read_only: Some(false),
            destructive: Some(true),
            idempotent: None,
            open_world: Some(true),
        };
        let merged = declared.or(base);
        assert_eq!(merged.read_only, Some(false));
        assert_eq!(merged.destructive, Some(false));
        assert_eq!(merged.idempotent, None);
        assert!(!merged.is_empty());
        assert!(ToolAnnotations::default().is_empty());
    }
}
