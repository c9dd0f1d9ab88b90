//! Compact schemas: what a model reads about a tool, with everything it needs and nothing
//! else. Descriptions are plain sentences (markup for documentation pages taken out, see
//! `plain`) trimmed at a sentence boundary: a tool's to its first sentence, a parameter's to
//! its first and those that name a value. What says nothing to a model (empty keywords,
//! `title`s and descriptions that repeat the name, sentences that repeat a keyword's value,
//! examples, vendor extensions, keywords of another type) is left out. Every property, `type`, `enum`, `required`, `default`,
//! `format`, bound and `additionalProperties` is kept. Pure.

use std::borrow::Cow;
use std::collections::HashMap;

use super::defs::{factor_repeated_owned, is_schema_list, is_schema_map, is_schema_value, Factors};
use super::error::Error;
use super::single_use::inline_single_use;
use super::spec::{Depths, ToolSpec};
use crate::json::{Json, Map};

/// The longest tool description a compact schema keeps, in bytes: text past it is cut at
/// the last sentence boundary that fits (or, when the first sentence is longer, at the last
/// word boundary, with `…`). Defaults to 160 bytes: a sentence or two, which is what a model
/// needs to pick a tool. A parameter's description gets three quarters of it (120), a member
/// of an object parameter three eighths (60), and what is nested deeper none (see
/// [`compact_schema`]).
pub const DEFAULT_MAX_DESCRIPTION_BYTES: usize = 160;

/// The longest description of a schema `depth` `properties` levels down (the root is 0, a
/// tool's parameters 1), for a tool description of `max` bytes. A model picks a tool by its
/// description and fills a parameter by its own, which takes a sentence; a member of an
/// object parameter (2) takes a short one, as the parameter's says what the object is for;
/// deeper, the names, types, enums and required lists say what a model needs, and their
/// descriptions (most of a large body schema's bytes) are left out. Divided before it is
/// multiplied, so that no `max` overflows.
fn description_limit(depth: usize, max: usize) -> usize {
    match depth {
        0 => max,
        1 => max / 4 * 3,
        2 => max / 8 * 3,
        _ => 0,
    }
}

/// The `properties` depth `$defs` entries are compacted at, less one: past the levels
/// that keep descriptions (see [`description_limit`]).
const DEFS_DEPTH: usize = 2;

/// Whether `key` is a keyword that never reaches a model in a compact schema: documentation
/// for people and tools (examples, links, XML naming, OpenAPI's discriminator, comments).
/// A `match`, as every key of every schema is asked.
fn dropped(key: &str) -> bool {
    matches!(
        key,
        "example" | "examples" | "externalDocs" | "xml" | "discriminator" | "$comment" | "$schema"
    )
}

/// The type that the keyword `key` only applies to, if it is one of those: on a schema whose
/// `type` is another single type it constrains nothing (JSON Schema 2020-12, "Validation",
/// section 6: each applies to instances of its type only).
fn typed(key: &str) -> Option<&'static str> {
    match key {
        "items" | "prefixItems" | "uniqueItems" | "minItems" | "maxItems" | "contains" => {
            Some("array")
        }
        "properties"
        | "patternProperties"
        | "additionalProperties"
        | "required"
        | "minProperties"
        | "maxProperties" => Some("object"),
        "minLength" | "maxLength" | "pattern" => Some("string"),
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            Some("number")
        }
        _ => None,
    }
}

/// Cuts a description to at most `max_bytes`: markup for documentation pages is taken out (a
/// Markdown link becomes its text, `**strong**` plain words, the HTML tags `<br>`, `<p>`,
/// `<li>` and the like a space and `<b>`, `<code>`, `<a ...>` and the like nothing; code spans
/// between backticks stay as they are), a paragraph break ends a sentence (a full stop is
/// added when the text before it has none), runs of white space become one space, and text
/// past the limit is cut after the last sentence (`.`, `!` or `?` before a space, but not
/// the full stop of an abbreviation such as `e.g.`) that fits;
/// when even the first sentence does not fit, after the last whole word, ending with `…`.
/// Text within the limit is returned with its markup taken out and white space collapsed only.
///
/// # Examples
///
/// ```
/// use httptool::tool::trim_description;
///
/// let text = "Lists the issues of a repository.  Pull requests are issues too; filter them \
///             out with the `pull_request` key.";
/// assert_eq!(trim_description(text, 60), "Lists the issues of a repository.");
/// assert_eq!(trim_description("One very long sentence without an end", 20), "One very long…");
/// assert_eq!(trim_description("Short.", 200), "Short.");
/// // An abbreviation's full stop ends no sentence.
/// assert_eq!(
///     trim_description("Use a key (e.g. file_abc) from the file's address.", 30),
///     "Use a key (e.g. file_abc)…"
/// );
/// assert_eq!(
///     trim_description("Get album\n\nAn [ISO 3166-1](https://iso.org/) **code**.<br/>More.", 200),
///     "Get album. An ISO 3166-1 code. More."
/// );
/// ```
pub fn trim_description(text: &str, max_bytes: usize) -> Cow<'_, str> {
    // Only the first `max_bytes + 1` bytes of the clean text decide where it is cut (see
    // `cut`): a prefix of it that long is made, not the whole text (an operation's
    // description runs to kilobytes, and most are cut). The prefix is made a little longer,
    // as collapsing white space shortens it; when even that falls short, the whole is made.
    let (plain, whole) = super::plain::plain_prefix(text, prefix_bytes(max_bytes));
    if !whole {
        // A prefix of the clean text: white space collapsed in a prefix of the plain text is
        // a prefix of it collapsed in the whole, as the prefix ends with another character.
        let collapsed = collapse_space(&plain);
        if collapsed.len() > max_bytes {
            return Cow::Owned(cut(&collapsed, max_bytes));
        }
    }
    let collapsed = match plain {
        Cow::Borrowed(text) if whole => collapse_space(text),
        Cow::Owned(text) if whole => Cow::Owned(collapse_space(&text).into_owned()),
        _ => match super::plain::plain(text) {
            Cow::Borrowed(text) => collapse_space(text),
            Cow::Owned(text) => Cow::Owned(collapse_space(&text).into_owned()),
        },
    };
    if collapsed.len() <= max_bytes {
        return collapsed;
    }
    Cow::Owned(cut(&collapsed, max_bytes))
}

/// How much of a description's plain text [`trim_description`] makes for a cut at
/// `max_bytes`: an eighth and 16 bytes more than the cut reads, for the white space that
/// collapsing takes out. Runs of it are rare in a prefix that long: on the six documents of
/// `../shared/data/openapi/` and the bench document, none of the 24,000 descriptions made as
/// a prefix fell short (with 8 bytes more and no eighth, five did).
fn prefix_bytes(max_bytes: usize) -> usize {
    max_bytes.saturating_add(max_bytes / 8).saturating_add(16)
}

/// `collapsed` (markup out, white space collapsed, longer than `max_bytes`) cut after the
/// last sentence that fits, else after the last word with `…`. Reads its first
/// `max_bytes + 1` bytes only.
fn cut(collapsed: &str, max_bytes: usize) -> String {
    const ELLIPSIS: &str = "…";
    let room = max_bytes.saturating_sub(ELLIPSIS.len());
    let bytes = collapsed.as_bytes();
    let head = &bytes[..bytes.len().min(max_bytes + 1)];
    // Many descriptions have no `.`, `!` or `?` before the limit (one long sentence), and
    // then no sentence ends there (see `ends_sentence`): a fold without a branch, which the
    // compiler makes several bytes a step, tells, and the walk below is skipped.
    let marked = head.iter().fold(false, |any, &b| {
        any | (b == b'.') | (b == b'!') | (b == b'?')
    });
    // The spaces that fit, from the last back: the first that ends a sentence is where the
    // text is cut; failing one, the last with room for `…`.
    let mut word = None;
    let mut before = if marked { head.len() } else { 0 };
    while let Some(space) = head[..before].iter().rposition(|&b| b == b' ') {
        if super::plain::ends_sentence(collapsed, space) {
            return collapsed[..space].to_string();
        }
        if word.is_none() && space <= room {
            word = Some(space);
        }
        before = space;
    }
    if !marked {
        word = head[..head.len().min(room + 1)]
            .iter()
            .rposition(|&b| b == b' ');
    }
    let end = match word {
        Some(w) => w,
        // One word longer than the limit: cut it on a char boundary.
        None => {
            let mut end = room.min(collapsed.len());
            while !collapsed.is_char_boundary(end) {
                end -= 1;
            }
            end
        }
    };
    let mut out = collapsed[..end].trim_end().to_string();
    if max_bytes >= ELLIPSIS.len() {
        out.push_str(ELLIPSIS);
    }
    out
}

/// The text with every run of white space as one space, and none at either end.
fn collapse_space(text: &str) -> Cow<'_, str> {
    let trimmed = text.trim();
    // Clean when every ASCII white space is a lone `' '` (most descriptions): no tab, line
    // break, form feed or carriage return, and no two spaces in a row. Folds without a
    // branch, which the compiler makes several bytes a step.
    let bytes = trimmed.as_bytes();
    let breaks = bytes.iter().fold(false, |any, &b| {
        any | (b == b'\t') | (b == b'\n') | (b == b'\x0C') | (b == b'\r')
    });
    let pairs = bytes.get(1..).unwrap_or_default();
    let doubled = bytes
        .iter()
        .zip(pairs)
        .fold(false, |any, (&a, &b)| any | ((a == b' ') & (b == b' ')));
    let clean = !breaks && !doubled;
    if clean {
        return Cow::Borrowed(trimmed);
    }
    let mut out = String::with_capacity(trimmed.len());
    for word in trimmed.split_ascii_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    Cow::Owned(out)
}

/// A JSON Schema as a model needs it, every property, type, enum and required flag and no
/// text meant for people: descriptions trimmed with [`trim_description`] to
/// `max_description_bytes` at the root, three quarters of it for a property (a tool's
/// parameter), three eighths for a property's property (a member of an object parameter),
/// and left out deeper (names, types, enums and required lists say the rest); a property's
/// description keeps its first sentence and the later ones that name a value (a code span,
/// a quoted literal, a digit, `true`, `false`, `null` or a default: where formats, limits and
/// the meaning of enum values are written; not one that sends the reader elsewhere, `See
/// "Pagination."`), and is left out when its words are the
/// property's name and words any name says (`The name of the repository.` for `repo`,
/// `The unique identifier of the team.` for `team_id`); and these left out: empty
/// descriptions,
/// titles and `required` lists; a `title` that repeats the property's name or the
/// description, or whose every word the name and description say already (`Album ID` for
/// `id` described as "The ID of the album."); a sentence of the description that only says
/// the schema's `default`, `minimum` or `maximum` (`Default: 20.`); `additionalProperties`
/// when `true` or `{}`; `example`, `examples`, `externalDocs`, `xml`, `discriminator`, `$comment`,
/// `$schema` and `x-` extensions; `deprecated`, `readOnly`, `writeOnly` and `nullable` when
/// `false`; `items: {}`; and keywords of another type than the schema's single `type`
/// (`uniqueItems` on a string). Enum, const and default values are copied as they are.
///
/// Recursion follows the schema's nesting; [`ToolSpec`] bounds it to
/// [`json::DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH) levels.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::compact_schema;
///
/// let full = json!({"type": "object", "properties": {
///     "state": {"type": "string", "title": "State", "enum": ["open", "closed"],
///               "uniqueItems": true, "x-order": 3, "example": "open", "default": "open",
///               "description": "Issue state. Defaults to open. Closed ones are kept 365 days. See the docs."}
/// }, "required": ["state"]});
/// assert_eq!(compact_schema(&full, 60), json!({"type": "object", "properties": {
///     "state": {"type": "string", "enum": ["open", "closed"], "default": "open",
///               "description": "Issue state. Closed ones are kept 365 days."}
/// }, "required": ["state"]}));
/// ```
pub fn compact_schema(schema: &Json, max_description_bytes: usize) -> Json {
    compact_node(schema, None, 0, max_description_bytes, &mut Memo::default())
}

/// Compact schemas already made from an object that clones share (see [`Map`]): an
/// OpenAPI import puts one component's schema in every tool that refers to it, and it is
/// made compact once, its result shared in turn. Kept across the tools of one plugin.
#[derive(Default)]
pub(crate) struct Memo {
    /// By the source's allocation, what its result depends on (the `properties` depth as
    /// far as it matters, the name where a `title` is compared to it, the length), the
    /// source itself (held, so its allocation stays its own while the memo lives) and the
    /// result.
    made: HashMap<MemoKey, (Map, Json)>,
    /// By the allocation of a compact schema that tools share (an output schema met in
    /// several operations), that schema (held, as above) and its repeats factored out.
    factored: HashMap<usize, (Json, Json)>,
    /// The subschemas of the compact schemas factored so far: the same component's compact
    /// schema is in many tools, and is keyed once.
    factors: Factors,
}

impl Memo {
    /// [`factor_repeated_owned`] of `compact`, made once for a schema that clones share: the
    /// result is a function of the value alone.
    fn factor(&mut self, compact: Json) -> Json {
        let id = match compact
            .as_object()
            .filter(|map| map.is_shared())
            .and_then(Map::shared_id)
        {
            Some(id) => id,
            None => return factor_repeated_owned(compact, &mut self.factors),
        };
        if let Some((_, factored)) = self.factored.get(&id) {
            return factored.clone();
        }
        let factored = factor_repeated_owned(compact.clone(), &mut self.factors);
        self.factored.insert(id, (compact, factored.clone()));
        factored
    }
}

type MemoKey = (usize, usize, Option<String>, usize);

/// `compact_node` of an object shared with a clone, made once per key.
fn compact_shared(
    map: &Map,
    name: Option<&str>,
    depth: usize,
    max: usize,
    memo: &mut Memo,
) -> Json {
    let id = match map.shared_id() {
        Some(id) => id,
        None => return compact_map(map, name, depth, max, memo),
    };
    // Depth matters up to 3 (`description_limit` is the same past it), the name only to a
    // title or a description (which may say nothing more than it).
    let key = (
        id,
        depth.min(3),
        name.filter(|_| map.contains_key("title") || map.contains_key("description"))
            .map(str::to_string),
        max,
    );
    if let Some((_, made)) = memo.made.get(&key) {
        return made.clone();
    }
    let made = compact_map(map, name, depth, max, memo);
    memo.made.insert(key, (map.clone(), made.clone()));
    made
}

/// `depth` counts `properties` levels: the root is 0, the tool's parameters 1; it sets the
/// length of descriptions ([`description_limit`]).
fn compact_node(
    schema: &Json,
    name: Option<&str>,
    depth: usize,
    max: usize,
    memo: &mut Memo,
) -> Json {
    match schema {
        Json::Object(map) if map.is_shared() => compact_shared(map, name, depth, max, memo),
        Json::Object(map) => compact_map(map, name, depth, max, memo),
        // `true`, `false`, or something that is not a schema: kept as it is.
        other => other.clone(),
    }
}

/// What compaction does with one entry of a schema.
enum Edit {
    /// Kept as it is.
    Keep,
    /// Left out.
    Drop,
    /// Replaced by this value.
    Put(Json),
}

/// The schema made compact. An entry kept as it is is not copied until another changes,
/// and a schema none of whose entries changes is the source's map itself, shared (see
/// [`Map`]): nothing is allocated for it, and `defs` finds it again by its allocation.
fn compact_map(map: &Map, name: Option<&str>, depth: usize, max: usize, memo: &mut Memo) -> Json {
    let single_type = map.get("type").and_then(Json::as_str);
    let limit = description_limit(depth, max);
    let description = map
        .get("description")
        .and_then(Json::as_str)
        .filter(|_| limit > 0)
        .map(|d| {
            let trimmed = match restated_values(map).and_then(|values| {
                super::plain::without_restated(&trim_description(d, usize::MAX), &values)
            }) {
                Some(left) => Cow::Owned(trim_description(&left, limit).into_owned()),
                None => trim_description(d, limit),
            };
            match name {
                Some(name) if depth > 0 => property_description(trimmed, name),
                _ => trimmed,
            }
        });
    // The entries made so far, from the first that changed (those before it copied).
    let mut out: Option<Vec<(String, Json)>> = None;
    for (i, (key, value)) in map.iter().enumerate() {
        let edit = compact_entry(
            key,
            value,
            single_type,
            description.as_deref(),
            name,
            depth,
            max,
            memo,
        );
        let entries = match (edit, &mut out) {
            (Edit::Keep, None) => continue,
            (Edit::Keep, Some(entries)) => {
                entries.push((key.clone(), value.clone()));
                continue;
            }
            (edit, entries) => {
                let entries = entries.get_or_insert_with(|| copy_entries(map, i));
                (edit, entries)
            }
        };
        if let (Edit::Put(made), entries) = entries {
            entries.push((key.clone(), made));
        }
    }
    match out {
        None => Json::Object(map.clone()),
        // Keys are the source's, each once.
        Some(entries) => Json::Object(Map::from_unique_entries(entries)),
    }
}

/// The description of the property `name`, trimmed already, as a model needs it: its
/// first sentence and the later ones that name a value
/// ([`first_sentence_and_values`](super::plain::first_sentence_and_values)), or nothing
/// when that says only what the name does ([`says_only_name`](super::plain::says_only_name)).
fn property_description<'a>(trimmed: Cow<'a, str>, name: &str) -> Cow<'a, str> {
    let kept = match super::plain::first_sentence_and_values(&trimmed) {
        Some(kept) => Cow::Owned(kept),
        None => trimmed,
    };
    if super::plain::says_only_name(&kept, name) {
        Cow::Borrowed("")
    } else {
        kept
    }
}

/// The first sentence of a trimmed description, or two when the first is a label such as
/// `Deprecated.` (see [`lead_end`](super::plain::lead_end)).
fn first_sentence(trimmed: Cow<'_, str>) -> Cow<'_, str> {
    match super::plain::lead_end(&trimmed) {
        Some(end) => Cow::Owned(trimmed[..end].to_string()),
        None => trimmed,
    }
}

/// The first `n` entries of `map`, copied, with room for all of them.
fn copy_entries(map: &Map, n: usize) -> Vec<(String, Json)> {
    let mut entries = Vec::with_capacity(map.len());
    entries.extend(map.iter().take(n).map(|(k, v)| (k.clone(), v.clone())));
    entries
}

/// What [`compact_map`] does with the entry `key: value` of a schema whose single type is
/// `single_type` and whose description, trimmed, is `description`.
#[allow(clippy::too_many_arguments)]
fn compact_entry(
    key: &str,
    value: &Json,
    single_type: Option<&str>,
    description: Option<&str>,
    name: Option<&str>,
    depth: usize,
    max: usize,
    memo: &mut Memo,
) -> Edit {
    if dropped(key) || key.starts_with("x-") {
        return Edit::Drop;
    }
    if let (Some(ty), Some(of)) = (single_type, typed(key)) {
        if !(of == ty || (of == "number" && ty == "integer")) {
            return Edit::Drop;
        }
    }
    match key {
        "description" => match (description, value.as_str()) {
            (Some(""), _) => Edit::Drop,
            (Some(text), Some(was)) if text == was => Edit::Keep,
            (Some(text), _) => Edit::Put(Json::from(text)),
            // Not a string: kept as it is.
            (None, None) => Edit::Keep,
            // A description past the depth that keeps one.
            (None, Some(_)) => Edit::Drop,
        },
        "title" => {
            let repeats = value.as_str().map_or(false, |title| {
                title.trim().is_empty()
                    || is_code_name(title)
                    || name.map_or(false, |n| same_words(n, title))
                    || description.map_or(false, |d| same_words(d, title))
                    || description.map_or(false, |d| {
                        super::plain::says_nothing_new(title, &[name.unwrap_or(""), d])
                    })
            });
            if repeats {
                Edit::Drop
            } else {
                Edit::Keep
            }
        }
        "deprecated" | "readOnly" | "writeOnly" | "nullable" if value == &Json::Bool(false) => {
            Edit::Drop
        }
        "required" if value.as_array().map_or(false, Vec::is_empty) => Edit::Drop,
        // What an absent `additionalProperties` means already (JSON Schema 2020-12,
        // Core, section 10.3.2.3: omitting it is the same as an empty schema).
        "additionalProperties"
            if value == &Json::Bool(true) || value.as_object().map_or(false, Map::is_empty) =>
        {
            Edit::Drop
        }
        "items" if value.as_object().map_or(false, Map::is_empty) => Edit::Drop,
        // Entries under `$defs` are used at any depth (an OpenAPI import writes shared and
        // recursive components there): compacted as the deepest level is, names, types,
        // enums and required lists without descriptions (a description beside a `$ref`
        // is compacted where it is).
        "$defs" | "definitions" => match value {
            Json::Object(members) => compact_members(members, depth.max(DEFS_DEPTH), max, memo),
            _ => Edit::Keep,
        },
        // Maps of names to schemas.
        _ if is_schema_map(key) => match value {
            Json::Object(members) => compact_members(members, depth, max, memo),
            _ => Edit::Keep,
        },
        // Lists of schemas.
        _ if is_schema_list(key) => match value {
            Json::Array(items) => compact_items(items, name, depth, max, memo),
            _ => Edit::Keep,
        },
        // One schema (or, for `items` in old drafts, a list of them).
        _ if is_schema_value(key) => match value {
            Json::Array(items) => compact_items(items, None, depth, max, memo),
            other => {
                let made = compact_node(other, None, depth, max, memo);
                if same(other, &made) {
                    Edit::Keep
                } else {
                    Edit::Put(made)
                }
            }
        },
        _ => Edit::Keep,
    }
}

/// Whether `made`, what [`compact_node`] made of `source`, is `source` itself: the same
/// map, shared, or a value that is not a schema (copied as it is).
fn same(source: &Json, made: &Json) -> bool {
    match (source, made) {
        (Json::Object(source), Json::Object(made)) => {
            made.shares_with(source) || (source.is_empty() && made.is_empty())
        }
        (Json::Object(_), _) => false,
        _ => true,
    }
}

/// The members of a map of names to schemas (`properties`), each made compact one level
/// deeper; kept as they are when none changes.
fn compact_members(members: &Map, depth: usize, max: usize, memo: &mut Memo) -> Edit {
    let mut out: Option<Vec<(String, Json)>> = None;
    for (i, (key, value)) in members.iter().enumerate() {
        let made = compact_node(value, Some(key), depth + 1, max, memo);
        match &mut out {
            None if same(value, &made) => {}
            None => {
                let mut entries = copy_entries(members, i);
                entries.push((key.clone(), made));
                out = Some(entries);
            }
            Some(entries) => entries.push((key.clone(), made)),
        }
    }
    match out {
        None => Edit::Keep,
        // Keys are the source's, each once.
        Some(entries) => Edit::Put(Json::Object(Map::from_unique_entries(entries))),
    }
}

/// A list of schemas (`anyOf`), each made compact; kept as it is when none changes.
fn compact_items(
    items: &[Json],
    name: Option<&str>,
    depth: usize,
    max: usize,
    memo: &mut Memo,
) -> Edit {
    let mut out: Option<Vec<Json>> = None;
    for (i, item) in items.iter().enumerate() {
        let made = compact_node(item, name, depth, max, memo);
        match &mut out {
            None if same(item, &made) => {}
            None => {
                let mut list = Vec::with_capacity(items.len());
                list.extend(items.iter().take(i).cloned());
                list.push(made);
                out = Some(list);
            }
            Some(list) => list.push(made),
        }
    }
    match out {
        None => Edit::Keep,
        Some(list) => Edit::Put(Json::Array(list)),
    }
}

/// The schema's `default`, `minimum` and `maximum` as text (a string as it is), for leaving
/// out a sentence of its description that only says one of them; `None` when it has none.
fn restated_values(map: &Map) -> Option<Vec<(&'static str, String)>> {
    let mut values = Vec::new();
    for key in ["default", "minimum", "maximum"] {
        match map.get(key) {
            Some(Json::String(text)) => values.push((key, text.clone())),
            Some(value @ (Json::Number(_) | Json::Bool(_))) => {
                values.push((key, value.to_string()))
            }
            _ => {}
        }
    }
    if values.is_empty() {
        None
    } else {
        Some(values)
    }
}

/// Whether a title is a name from a program (`range_query_specs`, `StatusCheckConfiguration`,
/// `billing-details`): what a code generator calls the type, words run together for a
/// compiler, not a label written for a reader. One plain word (`Address`) is not.
fn is_code_name(title: &str) -> bool {
    let mut joined = false;
    let mut previous: Option<char> = None;
    let mut chars = title.chars().peekable();
    while let Some(c) = chars.next() {
        let after_letter = previous.map_or(false, |p| p.is_ascii_alphanumeric());
        match c {
            // Between two letters or digits only: `Note...` or `-x` is not a name.
            '_' | '-' | '.' => {
                let before_letter = chars.peek().map_or(false, char::is_ascii_alphanumeric);
                if !(after_letter && before_letter) {
                    return false;
                }
                joined = true;
            }
            c if c.is_ascii_uppercase() => {
                joined |= previous.map_or(false, |p| p.is_ascii_lowercase() || p.is_ascii_digit())
            }
            c if c.is_ascii_alphanumeric() => {}
            _ => return false,
        }
        previous = Some(c);
    }
    joined
}

/// Whether two texts are the same words, ignoring case, spacing and punctuation
/// (`"Repository Id"` and `repository_id`).
fn same_words(a: &str, b: &str) -> bool {
    let letters = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    letters(a) == letters(b)
}

/// The spec with its description trimmed by [`trim_description`] to its first sentence (two
/// when the first is a one-word label such as `Deprecated.`): what a model needs to pick the
/// tool, whose name and schema say the rest; none when the spec has a title and the sentence
/// says only the name's words. Its parameters made
/// compact by [`compact_schema`] and then [`factor_repeated`](super::factor_repeated) (a subschema repeated within
/// them written once under `$defs`), a root `$defs` entry that one `$ref` names written in
/// its place, and its output schema made compact the same way; name, title and hints as they
/// were.
///
/// # Errors
///
/// None in practice: the compact schema keeps the root's `type`, `properties` and
/// `required`, which is all [`ToolSpec::new`] checks. The `Result` carries its error should
/// that ever change.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{compact_spec, ToolSpec};
///
/// let spec = ToolSpec::new("list_issues", "Lists issues. Paginated, 30 a page by default.",
///     json!({"type": "object", "properties": {"q": {"type": "string", "examples": ["bug"]}}}))?;
/// let compact = compact_spec(&spec, 20)?;
/// assert_eq!(compact.description(), "Lists issues.");
/// assert_eq!(compact.parameters(), &json!({"type": "object", "properties": {"q": {"type": "string"}}}));
/// # Ok::<(), httptool::tool::Error>(())
/// ```
pub fn compact_spec(spec: &ToolSpec, max_description_bytes: usize) -> Result<ToolSpec, Error> {
    compact_spec_with(
        spec,
        max_description_bytes,
        &mut Memo::default(),
        &mut Depths::default(),
    )
}

/// [`compact_spec`] with the schemas already made compact, and the shared ones already
/// checked for depth, for other tools of one plugin.
pub(crate) fn compact_spec_with(
    spec: &ToolSpec,
    max_description_bytes: usize,
    memo: &mut Memo,
    depths: &mut Depths,
) -> Result<ToolSpec, Error> {
    let description = first_sentence(trim_description(spec.description(), max_description_bytes));
    // A model picks a tool by its name and description both: one that only says the name
    // again (`Get a repository public key.` for `get-repo-public-key`) tells it nothing. A
    // person and a catalog search read the title then, so it goes only beside a title.
    let description =
        if spec.title().is_some() && super::plain::says_only_name(&description, spec.name()) {
            Cow::Borrowed("")
        } else {
            description
        };
    let parameters = compact_node(spec.parameters(), None, 0, max_description_bytes, memo);
    let parameters = inline_single_use(factor_repeated_owned(parameters, &mut memo.factors));
    let mut compact =
        ToolSpec::new_with(spec.name(), description.into_owned(), parameters, depths)?
            .with_annotations(*spec.annotations());
    if let Some(title) = spec.title() {
        compact = compact.with_title(title);
    }
    if let Some(schema) = spec.output_schema() {
        let schema = compact_node(schema, None, 0, max_description_bytes, memo);
        compact = compact.with_output_schema(inline_single_use(memo.factor(schema)))?;
    }
    Ok(compact)
}

/// What a tool costs in a model's context: the bytes of its rendering (compact JSON, UTF-8)
/// and an estimate of its tokens.
///
/// The estimate is the bytes divided by 4, rounded up: the rule of thumb for English and JSON
/// with the tokenizers of the large providers (the 828 KB of 805 tools users report as about
/// 207k tokens is that ratio). Real counts differ by tokenizer, between about 3 and 5 bytes a
/// token on JSON Schema; no tokenizer is shipped here.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{mcp, ToolSize, ToolSpec};
///
/// let spec = ToolSpec::without_parameters("ping", "Checks liveness")?;
/// let size = ToolSize::of(&mcp::tool(&spec));
/// assert_eq!(size.bytes, mcp::tool(&spec).to_string().len());
/// assert_eq!(size.tokens, (size.bytes + 3) / 4);
/// # Ok::<(), httptool::tool::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolSize {
    /// Bytes of the compact JSON.
    pub bytes: usize,
    /// Estimated tokens: `bytes / 4`, rounded up.
    pub tokens: usize,
}

impl ToolSize {
    /// The size of one rendered tool (or any JSON).
    pub fn of(rendered: &Json) -> ToolSize {
        ToolSize::from_bytes(rendered.compact_len())
    }

    /// The size of this many bytes.
    pub fn from_bytes(bytes: usize) -> ToolSize {
        ToolSize {
            bytes,
            tokens: bytes / 4 + usize::from(bytes % 4 != 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    macro_rules! trim_cases {
        ($($name:ident: $text:expr, $max:expr => $want:expr;)*) => {$(
            #[test]
            fn $name() {
                let got = trim_description($text, $max);
                assert_eq!(got, $want);
                assert!(got.len() <= $max, "within the limit");
            }
        )*};
    }

    trim_cases! {
        trim_fits: "Lists pets.", 200 => "Lists pets.";
        trim_collapses_space: "  Lists\n pets.\t", 200 => "Lists pets.";
        trim_paragraph_ends_a_sentence: "Get file\n\nReturns it whole.", 10 => "Get file.";
        trim_markup_left_out: "The **[Spotify ID](/docs/ids)** of it.<br/>More.", 22 => "The Spotify ID of it.";
        trim_keeps_whole_sentences: "One. Two. Three is longer.", 10 => "One. Two.";
        trim_question_and_bang: "Why? Because! Then more text.", 14 => "Why? Because!";
        trim_word_boundary_with_ellipsis: "abc defgh ijklmnop", 12 => "abc defgh…";
        trim_one_long_word: "abcdefghijkl", 8 => "abcde…";
        trim_multibyte_word: "ééééééé", 8 => "éé…";
        trim_zero: "abc def", 0 => "";
        trim_empty: "", 5 => "";
        trim_no_sentence_inside_dotted_names: "See io.k8s.api for this field and more", 20 => "See io.k8s.api…";
    }

    #[test]
    fn collapse_space_borrows_only_text_with_lone_spaces() {
        // Every string of up to four of these bytes, against joining the words.
        let parts = ["a", " ", "\t", "\n", "\u{b}", "é", "\u{a0}"];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| parts.iter().map(move |p| format!("{}{}", t, p)))
                .collect();
            texts.extend(longer);
        }
        for text in &texts {
            let trimmed = text.trim();
            let words: Vec<&str> = trimmed.split_ascii_whitespace().collect();
            let got = collapse_space(text);
            assert_eq!(got, words.join(" "), "{:?}", text);
            assert_eq!(
                matches!(got, Cow::Borrowed(_)),
                got == trimmed,
                "{:?}",
                text
            );
        }
    }

    #[test]
    fn trim_never_exceeds_the_limit() {
        let text = "Wörds, and more wörds. Ünd a sentence! ".repeat(20);
        for max in 0..200 {
            assert!(trim_description(&text, max).len() <= max, "max {}", max);
        }
    }

    /// `trim_description` as its docs say it, from the whole text made clean: the
    /// reference for the one that makes only the prefix it needs.
    fn trim_whole(text: &str, max: usize) -> String {
        let clean = collapse_space(&super::super::plain::plain(text)).into_owned();
        if clean.len() <= max {
            return clean;
        }
        let spaces = (0..=max).filter(|&i| clean.as_bytes()[i] == b' ');
        let ends = spaces
            .clone()
            .filter(|&i| super::super::plain::ends_sentence(&clean, i));
        if let Some(end) = ends.max() {
            return clean[..end].to_string();
        }
        let room = max.saturating_sub('…'.len_utf8());
        let end = match spaces.filter(|&i| i <= room).max() {
            Some(end) => end,
            None => (0..=room)
                .rev()
                .find(|&i| clean.is_char_boundary(i))
                .unwrap_or(0),
        };
        let mut out = clean[..end].trim_end().to_string();
        if max >= '…'.len_utf8() {
            out.push('…');
        }
        out
    }

    /// The limits the trimming is checked at: the tool, parameter and member limits, the
    /// smallest, and some between.
    const LIMITS: [usize; 14] = [0, 1, 2, 3, 4, 5, 9, 20, 40, 60, 90, 120, 160, 400];

    /// Checks `trim_description(text, max)` against [`trim_whole`] at every limit; how many
    /// of them made only a prefix of the text.
    fn check_trim_against_whole(text: &str) -> usize {
        let mut prefixes = 0;
        for max in LIMITS {
            if !super::super::plain::plain_prefix(text, prefix_bytes(max)).1 {
                prefixes += 1;
            }
            assert_eq!(
                trim_description(text, max),
                trim_whole(text, max),
                "{:?} at {}",
                text,
                max
            );
        }
        prefixes
    }

    #[test]
    fn trim_reads_a_prefix_and_cuts_as_the_whole_text_would_on_generated_texts() {
        // Markup, every kind of white space (runs of it shorten the prefix past the slack),
        // sentence ends, abbreviations and characters of several bytes, in any order.
        let pieces = [
            "word",
            "Wörd",
            "é",
            "日本",
            "x",
            " ",
            "  ",
            "   \t  ",
            "\t",
            "\n",
            "\n\n",
            "\n \n",
            "\r\n",
            "\u{a0}",
            "\u{3000}",
            "\u{b}",
            "\u{c}",
            ".",
            ". ",
            "! ",
            "? ",
            "e.g. ",
            "(i.e. ",
            "[",
            "]",
            "(",
            ")",
            "[a link](https://x.org/y)",
            "![img](a.png)",
            "**",
            "**bold**",
            "*",
            "!",
            "`",
            "`co de`",
            "<br>",
            "<br/>",
            "</p>",
            "<b>",
            "<a href=\"x\">",
            "<owner>",
            "<",
            "                                        ",
        ];
        let mut rng = crate::test_rng::Rng::new(11);
        let (mut prefixes, mut texts) = (0, 0);
        for _ in 0..4000 {
            let len = rng.below(120);
            let text: String = (0..len).map(|_| rng.pick(&pieces)).collect();
            prefixes += check_trim_against_whole(&text);
            texts += 1;
        }
        // Most texts are longer than the prefix a small limit needs.
        assert!(
            prefixes > texts * LIMITS.len() / 4,
            "{} of {}",
            prefixes,
            texts
        );
    }

    #[test]
    #[ignore = "needs ../shared/data/openapi: see tests/README.md"]
    fn trim_reads_a_prefix_and_cuts_as_the_whole_text_would_on_real_descriptions() {
        fn texts<'a>(value: &'a Json, out: &mut Vec<&'a str>) {
            match value {
                Json::Object(map) => {
                    for (key, value) in map {
                        match (key.as_str(), value) {
                            ("description" | "summary" | "title", Json::String(text)) => {
                                out.push(text)
                            }
                            _ => texts(value, out),
                        }
                    }
                }
                Json::Array(items) => items.iter().for_each(|item| texts(item, out)),
                _ => {}
            }
        }
        let folder =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/openapi");
        let mut documents = Vec::new();
        for name in [
            "kubernetes-v1.36.swagger.json",
            "box-platform.openapi.json",
            "discord-api.openapi.json",
        ] {
            let text = std::fs::read_to_string(folder.join(name)).unwrap();
            documents.push(json::parse(&text).unwrap());
        }
        #[cfg(feature = "yaml")]
        for name in [
            "spotify-web-api.fixed.openapi.yaml",
            "figma-rest-api.openapi.yaml",
            "pinterest-v5.openapi.yaml",
        ] {
            let text = std::fs::read_to_string(folder.join(name)).unwrap();
            documents.push(crate::yaml::parse(&text).unwrap());
        }
        let mut found = Vec::new();
        for document in &documents {
            texts(document, &mut found);
        }
        found.sort_unstable();
        found.dedup();
        let prefixes: usize = found
            .iter()
            .map(|text| check_trim_against_whole(text))
            .sum();
        // Six documents hold over 10,000 texts; the three JSON ones alone (a build without
        // `yaml`), over 8,000.
        let least = if cfg!(feature = "yaml") {
            10_000
        } else {
            8_000
        };
        assert!(found.len() > least, "{} descriptions", found.len());
        assert!(prefixes > least, "{} made as a prefix", prefixes);
    }

    #[test]
    fn compact_keeps_types_enums_required_and_every_property() {
        let full = json!({"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "integer", "enum": [1, 2], "x-go": "int"},
                  "minItems": 1, "title": "A"},
            "b": {"type": "object", "properties": {"c": {"type": "boolean", "default": false}},
                  "required": ["c"], "additionalProperties": false, "nullable": false},
            "d": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}],
                  "deprecated": true, "title": "Something else"}
        }, "required": ["a"], "additionalProperties": false});
        let compact = compact_schema(&full, 200);
        assert_eq!(
            compact,
            json!({"type": "object", "properties": {
                "a": {"type": "array", "items": {"type": "integer", "enum": [1, 2]}, "minItems": 1},
                "b": {"type": "object", "properties": {"c": {"type": "boolean", "default": false}},
                      "required": ["c"], "additionalProperties": false},
                "d": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}],
                      "deprecated": true, "title": "Something else"}
            }, "required": ["a"], "additionalProperties": false})
        );
    }

    #[test]
    fn compact_drops_keywords_of_another_type_only() {
        let full = json!({"type": "string", "uniqueItems": true, "minimum": 1, "maxLength": 9});
        assert_eq!(
            compact_schema(&full, 200),
            json!({"type": "string", "maxLength": 9})
        );
        // An integer takes the number keywords; a type list keeps everything.
        let full = json!({"type": "integer", "minimum": 1});
        assert_eq!(compact_schema(&full, 200), full);
        let full = json!({"type": ["string", "array"], "items": {"type": "string"}});
        assert_eq!(compact_schema(&full, 200), full);
    }

    #[test]
    fn compact_leaves_values_alone() {
        // Enum, const and default values are data, not schemas: a member named `title` or
        // `example` inside them stays.
        let full = json!({"type": "object", "default": {"title": "x", "example": 1},
                          "enum": [{"x-a": 1}], "const": {"description": "   "}});
        assert_eq!(compact_schema(&full, 200), full);
    }

    #[test]
    fn compact_shares_what_it_leaves_unchanged() {
        let lean = json!({"type": "object", "properties": {"n": {"type": "integer"}},
                          "required": ["n"]});
        let full = json!({"type": "object", "properties": {
            "lean": lean.clone(),
            "noisy": {"type": "string", "example": "x"},
            "list": {"type": "array", "items": lean.clone()},
            "either": {"anyOf": [lean.clone(), {"type": "null"}]}
        }});
        let compact = compact_schema(&full, 200);
        assert_eq!(
            compact,
            json!({"type": "object", "properties": {
                "lean": lean.clone(), "noisy": {"type": "string"},
                "list": {"type": "array", "items": lean.clone()}, "either": {"anyOf": [lean.clone(), {"type": "null"}]}
            }})
        );
        // Whether the objects at `pointer` are one map.
        let shared =
            |a: &Json, b: &Json, pointer: &str| match (a.pointer(pointer), b.pointer(pointer)) {
                (Some(Json::Object(a)), Some(Json::Object(b))) => a.shares_with(b),
                _ => false,
            };
        // Nothing in these changed: the result holds the source's maps, not copies.
        for pointer in ["/properties/lean", "/properties/list", "/properties/either"] {
            assert!(shared(&compact, &full, pointer), "{}", pointer);
        }
        // The example left out: written anew, and so is what holds it.
        assert!(!shared(&compact, &full, "/properties/noisy"));
        assert!(!shared(&compact, &full, "/properties"));
        assert!(shared(&compact_schema(&lean, 200), &lean, ""));
    }

    #[test]
    fn tokens_round_up() {
        assert_eq!(ToolSize::from_bytes(0).tokens, 0);
        assert_eq!(ToolSize::from_bytes(1).tokens, 1);
        assert_eq!(ToolSize::from_bytes(8).tokens, 2);
        assert_eq!(ToolSize::from_bytes(9).tokens, 3);
    }
}
