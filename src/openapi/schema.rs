//! OpenAPI schemas into the JSON Schema a model reads: `allOf` merged, `nullable` as a type
//! list, OpenAPI-only keywords dropped, `readOnly` properties left out of requests and
//! `writeOnly` ones out of responses.
//!
//! Each component a `$ref` names is converted once per direction (request, response). One
//! that is recursive or used in more than one place stays a `$ref` into the schema's
//! `$defs` (JSON Schema 2020-12: `#/$defs/Name`), and [`Converter::convert`] puts under
//! `$defs` exactly the entries its schema reaches; a component used once is written in
//! place. So a schema costs the size of what it holds, not the number of paths through the
//! document's `$ref` graph.
//!
//! Nothing recurses on the input's length: a chain of `$ref`s to `$ref`s is followed in a
//! loop, a component written in place adds at most [`MAX_INLINE_HOPS`] levels before the
//! next one stays a `$ref`, and the `$defs` a schema reaches are converted from a work list.
//! Nesting within a schema stops at [`ImportOptions::max_schema_depth`] levels. The nodes
//! written are counted against a budget per tool and per import, a guard against hostile
//! input.
//!
//! [`ImportOptions::max_schema_depth`]: super::ImportOptions::max_schema_depth

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::error::{At, Error, ErrorKind, Warning};
use super::options::Version;
use super::refs::Refs;
use super::text;
use crate::json::{Json, Map};
use crate::plugin::ParamType;

/// Keywords copied as they are (JSON Schema 2020-12 validation and annotations that models
/// read).
const COPIED: [&str; 17] = [
    "format",
    "pattern",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "multipleOf",
    "minProperties",
    "maxProperties",
    "const",
    "title",
    "contentMediaType",
    "contentEncoding",
    "default",
];

/// The compact JSON bytes of a keyword's value a converted schema keeps (an `enum`, a
/// `const`, a `default`, a `pattern`): a larger one is left out with a warning, as a long
/// description is cut. A `title` is cut like a description instead.
pub(crate) const MAX_KEYWORD_BYTES: usize = 4096;

/// Keywords the model is not given, each a warning where it is met.
const NOT_PASSED_ON: [&str; 5] = [
    "not",
    "prefixItems",
    "if",
    "patternProperties",
    "dependentSchemas",
];

/// The members of a schema object that [`Converter::keywords`] reads, found in one pass
/// over it: looking up each of its forty keywords in turn scanned every member forty times,
/// the largest cost of a conversion. The first member of a name wins, as with
/// [`Map::get`].
#[derive(Default)]
struct Members<'s> {
    ty: Option<&'s Json>,
    nullable: Option<&'s Json>,
    description: Option<&'s Json>,
    /// By position in [`COPIED`].
    copied: [Option<&'s Json>; COPIED.len()],
    enumeration: Option<&'s Json>,
    exclusive_minimum: Option<&'s Json>,
    exclusive_maximum: Option<&'s Json>,
    example: Option<&'s Json>,
    examples: Option<&'s Json>,
    items: Option<&'s Json>,
    properties: Option<&'s Json>,
    required: Option<&'s Json>,
    additional_properties: Option<&'s Json>,
    one_of: Option<&'s Json>,
    any_of: Option<&'s Json>,
    /// By position in [`NOT_PASSED_ON`].
    not_passed_on: [bool; NOT_PASSED_ON.len()],
}

impl<'s> Members<'s> {
    fn of(map: &'s Map) -> Members<'s> {
        let mut members = Members::default();
        for (key, value) in map.iter() {
            let slot = match members.slot(key) {
                Some(slot) => slot,
                None => continue,
            };
            if slot.is_none() {
                *slot = Some(value);
            }
        }
        members
    }

    /// At most how many keys [`Converter::keywords`] writes from these members (exactly
    /// as many unless a value is left out, such as an empty description).
    fn output_len(&self) -> usize {
        let exclusive_bound = |bound: Option<&Json>| matches!(bound, Some(Json::Number(_)));
        let present = [
            self.ty,
            self.description,
            self.enumeration,
            self.example.or(self.examples),
            self.items,
            self.properties,
            self.required,
            self.additional_properties,
            self.one_of,
            self.any_of,
        ];
        present
            .iter()
            .chain(&self.copied)
            .filter(|m| m.is_some())
            .count()
            + usize::from(exclusive_bound(self.exclusive_minimum))
            + usize::from(exclusive_bound(self.exclusive_maximum))
    }

    /// The slot of keyword `key`, `None` for a member not read. A keyword not passed on is
    /// marked here. Chosen by length first: one jump, then at most a few comparisons.
    fn slot(&mut self, key: &str) -> Option<&mut Option<&'s Json>> {
        let copied = |word: &str| COPIED.iter().position(|k| *k == word);
        let slot = match (key.len(), key) {
            (4, "type") => &mut self.ty,
            (4, "enum") => &mut self.enumeration,
            (5, "items") => &mut self.items,
            (5, "oneOf") => &mut self.one_of,
            (5, "anyOf") => &mut self.any_of,
            (7, "example") => &mut self.example,
            (8, "nullable") => &mut self.nullable,
            (8, "examples") => &mut self.examples,
            (8, "required") => &mut self.required,
            (10, "properties") => &mut self.properties,
            (11, "description") => &mut self.description,
            (16, "exclusiveMinimum") => &mut self.exclusive_minimum,
            (16, "exclusiveMaximum") => &mut self.exclusive_maximum,
            (20, "additionalProperties") => &mut self.additional_properties,
            (2 | 3 | 11 | 16 | 17, word) => {
                if let Some(i) = NOT_PASSED_ON.iter().position(|k| *k == word) {
                    if let Some(flag) = self.not_passed_on.get_mut(i) {
                        *flag = true;
                    }
                    return None;
                }
                self.copied.get_mut(copied(word)?)?
            }
            (5..=16, word) => self.copied.get_mut(copied(word)?)?,
            _ => return None,
        };
        Some(slot)
    }
}

/// Values (defaults, examples, enums) deeper than this are left out: they are copied, and a
/// copy must not recurse without bound. Small enough that a value in the deepest schema kept
/// still fits the plugin's bound (see [`MAX_IMPORT_SCHEMA_DEPTH`]).
const MAX_VALUE_DEPTH: usize = 15;

/// The most schema levels the importer inlines, whatever
/// [`ImportOptions::max_schema_depth`](super::ImportOptions::max_schema_depth) asks. The
/// plugin refuses a schema whose JSON nests deeper than [`plugin::MAX_SCHEMA_DEPTH`]
/// (the one owner of the rule), and each level here costs up to two of those
/// (`properties` then the property, `anyOf` then the branch): the schema at level `d`
/// (from 0) is at JSON depth `1 + 2d`, its `examples` or `enum` list one deeper, and a value
/// in it up to `MAX_VALUE_DEPTH + 1` more. So `2 * levels + 1 + MAX_VALUE_DEPTH` may not
/// pass the plugin's bound (a level at the limit is cut to a note, not kept).
///
/// [`plugin::MAX_SCHEMA_DEPTH`]: crate::plugin::MAX_SCHEMA_DEPTH
pub(crate) const MAX_IMPORT_SCHEMA_DEPTH: usize =
    (crate::plugin::MAX_SCHEMA_DEPTH - 1 - MAX_VALUE_DEPTH) / 2;

// The default depth is one the importer can keep.
const _: () = assert!(super::options::DEFAULT_MAX_SCHEMA_DEPTH <= MAX_IMPORT_SCHEMA_DEPTH);

/// Examples longer than this (compact JSON) are left out: a model needs a hint, not a dump.
const MAX_EXAMPLE_BYTES: usize = 256;

/// The result of converting one `$ref`'s target in place without any cut, reused where it
/// is met again.
struct Cached {
    schema: Json,
    nodes: usize,
    height: usize,
    /// The `$defs` entries the schema refers to.
    reached: Vec<Reach>,
    /// Every warning the conversion gives, given again where it is reused: then what an
    /// operation warns does not depend on what was cached before it (by this converter or
    /// by another one sharing the cache), and the import's dedupe keeps the first.
    warnings: Vec<Warning>,
}

/// A `$defs` entry a schema refers to: its name, its cache key, and where its component is.
#[derive(Clone)]
struct Reach {
    name: String,
    key: String,
    doc: usize,
    pointer: String,
}

/// A component as it stands under `$defs`, converted once from its own root.
struct Def {
    schema: Json,
    /// The entries it refers to in turn.
    reached: Vec<Reach>,
    warnings: Vec<Warning>,
}

/// The `$ref`s converted so far, by key (see [`Target::key_after`]): shared by the
/// converters of one import's threads, as each entry is what a conversion afresh would give
/// wherever it is used.
///
/// [`Target::key_after`]: super::refs::Target::key_after
#[derive(Default)]
pub(crate) struct SchemaCache {
    entries: Mutex<HashMap<String, Arc<Cached>>>,
    defs: Mutex<HashMap<String, Arc<Def>>>,
    /// How often each local `$ref` is written in the root document, counted once.
    uses: Mutex<Option<Arc<HashMap<String, usize>>>>,
}

/// Locks a mutex of the cache. A converter that panicked left no entry half made: the map is
/// used as it is.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl SchemaCache {
    fn entries(&self) -> MutexGuard<'_, HashMap<String, Arc<Cached>>> {
        lock(&self.entries)
    }

    fn get(&self, key: &str) -> Option<Arc<Cached>> {
        self.entries().get(key).cloned()
    }

    fn def(&self, key: &str) -> Option<Arc<Def>> {
        lock(&self.defs).get(key).cloned()
    }

    /// The uses of each local `$ref` of `root`, counted on the first call (a walk over the
    /// whole document, with an explicit stack).
    fn uses(&self, root: &Json) -> Arc<HashMap<String, usize>> {
        let mut slot = lock(&self.uses);
        if let Some(uses) = slot.as_ref() {
            return uses.clone();
        }
        let mut uses: HashMap<String, usize> = HashMap::new();
        let mut stack = vec![root];
        while let Some(value) = stack.pop() {
            match value {
                Json::Object(map) => {
                    if let Some(Json::String(reference)) = map.get("$ref") {
                        if reference.starts_with('#') {
                            *uses.entry(reference.clone()).or_insert(0) += 1;
                        }
                    }
                    stack.extend(map.values());
                }
                Json::Array(items) => stack.extend(items.iter()),
                _ => {}
            }
        }
        let uses = Arc::new(uses);
        *slot = Some(uses.clone());
        uses
    }
}

/// The most components written in place one inside another before the next stays a
/// `$ref` (with a `$defs` entry): each costs stack, and a document may chain thousands.
pub(crate) const MAX_INLINE_HOPS: usize = 16;

/// The start of a cache key for a schema converted for a response (see
/// [`Converter::output`]).
const OUTPUT_KEY: &str = "out ";

/// What converting the schemas of one import needs and keeps.
pub(crate) struct Converter<'a, 'r> {
    pub refs: &'r Refs<'a>,
    pub version: Version,
    pub max_depth: usize,
    pub max_tool_nodes: usize,
    pub max_total_nodes: usize,
    pub max_description: usize,
    pub warnings: Vec<Warning>,
    /// Whether the schema being converted describes a response (`writeOnly` properties left
    /// out) rather than a request (`readOnly` ones left out).
    pub output: bool,
    /// Nodes written for the current tool, and for the whole import.
    pub tool_nodes: usize,
    pub total_nodes: usize,
    /// Whether a node budget was exceeded, even where the error became a warning (an output
    /// schema): where it happens depends on what was cached (see [`parallel`]).
    ///
    /// [`parallel`]: super::parallel
    pub budget_exceeded: bool,
    /// The references being expanded, innermost last (cycle detection).
    stack: Vec<String>,
    /// Cuts made so far (a component kept a `$ref` because of where it was met, depth): a
    /// reference converted without one is cached.
    cuts: usize,
    /// Components written in place around the node being converted.
    hops: usize,
    /// Whether the next node is converted in place even if it is a `$ref` to a shared
    /// component: the root of a schema, an `allOf` branch (merged).
    force_inline: bool,
    /// The `$defs` entries the schema being converted refers to, in order met.
    reached: Vec<Reach>,
    /// How often each local `$ref` is written in the root document.
    uses: Arc<HashMap<String, usize>>,
    /// The `$ref`s expanded so far, shared with the converters of the import's other
    /// threads.
    cache: &'r SchemaCache,
    /// Output schemas already made from a response schema that is one `$ref`, by the key
    /// of its target: operations of one resource answer with the same schema, and it is
    /// converted, loosened and measured once.
    pub output_memo: HashMap<String, OutputMemo>,
    /// The loose copies made for output schemas (see [`super::response`]).
    pub loose_memo: LooseMemo,
}

/// What one response schema became as an output schema, for the next operation with it.
pub(crate) struct OutputMemo {
    /// The output schema, or `None` when it was over the limit.
    pub result: Option<Json>,
    /// Schema nodes the conversion wrote (counted again against each tool's budget).
    pub nodes: usize,
}

/// The loose copies made of objects that clones share (a component's schema in the
/// responses of many operations), by allocation: the source, held so that its allocation
/// is no other's while this lives, and its copy, shared in turn. Loosening is a function of
/// the schema alone, so each is made once per converter.
pub(crate) type LooseMemo = HashMap<usize, (Map, Json)>;

impl<'a, 'r> Converter<'a, 'r> {
    pub(crate) fn new(
        refs: &'r Refs<'a>,
        version: Version,
        cache: &'r SchemaCache,
    ) -> Converter<'a, 'r> {
        Converter {
            refs,
            version,
            max_depth: 24,
            max_tool_nodes: 200_000,
            max_total_nodes: 20_000_000,
            max_description: 1024,
            warnings: Vec::new(),
            output: false,
            tool_nodes: 0,
            total_nodes: 0,
            budget_exceeded: false,
            stack: Vec::new(),
            cuts: 0,
            hops: 0,
            force_inline: false,
            reached: Vec::new(),
            uses: cache.uses(refs.root()),
            cache,
            output_memo: HashMap::new(),
            loose_memo: HashMap::new(),
        }
    }

    fn warn(&mut self, doc: usize, at: &At<'_>, message: impl Into<String>) {
        let location = self.refs.location(doc);
        let pointer = at.pointer();
        let at = if location.is_empty() {
            pointer
        } else {
            format!("{}#{}", location, pointer)
        };
        self.warnings.push(Warning::new(at, message));
    }

    pub(crate) fn count(&mut self, nodes: usize, pointer: &str) -> Result<(), Error> {
        self.count_at(nodes, &At::Pointer(pointer))
    }

    /// [`count`](Converter::count), the pointer written only for an error.
    fn count_at(&mut self, nodes: usize, at: &At<'_>) -> Result<(), Error> {
        self.tool_nodes += nodes;
        self.total_nodes += nodes;
        if self.tool_nodes > self.max_tool_nodes {
            self.budget_exceeded = true;
            return Err(Error::new(
                ErrorKind::TooLarge,
                at.pointer(),
                format!(
                    "the schemas of this operation expand to more than {} nodes once their $refs are inlined",
                    self.max_tool_nodes
                ),
            ));
        }
        if self.total_nodes > self.max_total_nodes {
            self.budget_exceeded = true;
            return Err(Error::new(
                ErrorKind::TooLarge,
                at.pointer(),
                format!(
                    "the document's schemas expand to more than {} nodes once their $refs are inlined",
                    self.max_total_nodes
                ),
            ));
        }
        Ok(())
    }

    /// The schema at `pointer` of document `doc`, converted, with the `$defs` entries it
    /// refers to (and those refer to, and so on) at its root. A `$ref` at its root is written
    /// in place.
    pub(crate) fn convert(
        &mut self,
        schema: &Json,
        doc: usize,
        pointer: &str,
    ) -> Result<Json, Error> {
        self.convert_with(schema, doc, pointer, true)
    }

    /// [`convert`](Converter::convert), a `$ref` at the root written in place only when
    /// `in_place`, else kept a `$ref` if its component is shared.
    pub(crate) fn convert_with(
        &mut self,
        schema: &Json,
        doc: usize,
        pointer: &str,
        in_place: bool,
    ) -> Result<Json, Error> {
        let outer = std::mem::take(&mut self.reached);
        let mut height = 0;
        self.force_inline = in_place;
        let result = self.node(schema, doc, &At::Pointer(pointer), 0, &mut height);
        let reached = std::mem::replace(&mut self.reached, outer);
        let mut schema = result?;
        let defs = self.defs(reached)?;
        if let (false, Some(map)) = (defs.is_empty(), schema.as_object_mut()) {
            map.insert("$defs", defs);
        }
        Ok(schema)
    }

    /// The `$defs` entries `reached` names and every entry those refer to, each once, in
    /// the order met: found with a work list, each converted on first need.
    fn defs(&mut self, reached: Vec<Reach>) -> Result<Map, Error> {
        let mut seen: HashSet<String> = HashSet::new();
        let mut queue: Vec<Reach> = Vec::new();
        for reach in reached {
            if seen.insert(reach.key.clone()) {
                queue.push(reach);
            }
        }
        let mut entries: Vec<(String, Json)> = Vec::new();
        let mut next = 0;
        while let Some(reach) = queue.get(next).cloned() {
            next += 1;
            let def = self.def(&reach)?;
            self.warnings.extend(def.warnings.iter().cloned());
            for inner in &def.reached {
                if seen.insert(inner.key.clone()) {
                    queue.push(inner.clone());
                }
            }
            entries.push((reach.name, def.schema.clone()));
        }
        // Names are unique per key (see [`def_name`]).
        Ok(Map::from_unique_entries(entries))
    }

    /// The `$defs` entry of `reach`, converted from its component's root (at depth 1: under
    /// `$defs` and its name) the first time it is needed by any converter of the import.
    fn def(&mut self, reach: &Reach) -> Result<Arc<Def>, Error> {
        if let Some(def) = self.cache.def(&reach.key) {
            return Ok(def);
        }
        let target = super::refs::Target {
            doc: reach.doc,
            document: self.refs.document(reach.doc),
            pointer: reach.pointer.clone(),
        };
        let value = match self.refs.target_value(&target) {
            Some(value) => value,
            None => {
                return Ok(Arc::new(Def {
                    schema: Json::Object(Map::new()),
                    reached: Vec::new(),
                    warnings: Vec::new(),
                }))
            }
        };
        let stack = std::mem::replace(&mut self.stack, vec![reach.key.clone()]);
        let hops = std::mem::replace(&mut self.hops, 0);
        let outer = std::mem::take(&mut self.reached);
        let warned = self.warnings.len();
        let mut height = 0;
        self.force_inline = true;
        let at = At::Pointer(&reach.pointer);
        let result = self.node(value, reach.doc, &at, 1, &mut height);
        self.stack = stack;
        self.hops = hops;
        let reached = std::mem::replace(&mut self.reached, outer);
        let warnings = self.warnings.split_off(warned.min(self.warnings.len()));
        let def = Arc::new(Def {
            schema: result?,
            reached,
            warnings,
        });
        let mut defs = lock(&self.cache.defs);
        Ok(defs.entry(reach.key.clone()).or_insert(def).clone())
    }

    /// Whether the property is left out of the schema being converted: `readOnly` in a
    /// request, `writeOnly` in a response (OpenAPI 3.1 section 4.8.24, JSON Schema
    /// validation 2020-12 section 9.4).
    fn left_out(&mut self, schema: &Json, doc: usize) -> bool {
        let (read_only, write_only) = self.flags(schema, doc);
        if self.output {
            write_only
        } else {
            read_only
        }
    }

    /// Whether `schema` (or else the target of its `$ref`) has `readOnly: true`, and
    /// `writeOnly: true`.
    fn flags(&self, schema: &Json, doc: usize) -> (bool, bool) {
        let flag = |s: &Json, keyword: &str| s.get(keyword).and_then(Json::as_bool) == Some(true);
        let direct = |s: &Json| (flag(s, "readOnly"), flag(s, "writeOnly"));
        let own = direct(schema);
        if own == (true, true) {
            return own;
        }
        let target = match schema.get("$ref").and_then(Json::as_str) {
            Some(reference) => match self.refs.resolve(reference, doc, "") {
                Ok(target) => target.value(self.refs).map_or((false, false), direct),
                Err(_) => (false, false),
            },
            None => (false, false),
        };
        (own.0 || target.0, own.1 || target.1)
    }

    fn node(
        &mut self,
        schema: &Json,
        doc: usize,
        at: &At<'_>,
        depth: usize,
        height: &mut usize,
    ) -> Result<Json, Error> {
        *height = 1;
        let force_inline = std::mem::take(&mut self.force_inline);
        let map = match schema {
            Json::Object(map) => map,
            // JSON Schema 2020-12 section 4.3.2: `true` and `false` are schemas.
            Json::Bool(b) => {
                return Ok(if *b {
                    Json::Object(Map::new())
                } else {
                    Json::Bool(false)
                })
            }
            _ => {
                self.warn(doc, at, "a schema that is not an object: read as any value");
                return Ok(Json::Object(Map::new()));
            }
        };
        self.count_at(1, at)?;
        if let Some(reference) = map.get("$ref").and_then(Json::as_str) {
            // Deeper than the limit, a `$ref` still says all: its entry starts again at the
            // top.
            let in_place = force_inline && depth < self.max_depth;
            let shared_ok = depth < self.max_depth;
            return self.reference(map, reference, doc, at, depth, height, in_place, shared_ok);
        }
        if depth >= self.max_depth {
            self.cuts += 1;
            self.warn(
                doc,
                at,
                format!(
                    "schema nested deeper than {} levels: cut there",
                    self.max_depth
                ),
            );
            return Ok(note(format!(
                "(nested deeper than {} levels; not described further)",
                self.max_depth
            )));
        }
        let members = Members::of(map);
        let mut out = match map.get("allOf").and_then(Json::as_array) {
            Some(all) => {
                let mut out = Map::new();
                self.all_of(all, doc, at, depth, height, &mut out)?;
                out
            }
            // Room for every key at once: grown a key at a time, a schema's map was
            // reallocated for each of its first four keys.
            None => Map::with_capacity(members.output_len()),
        };
        self.keywords(&members, doc, at, depth, height, &mut out)?;
        Ok(Json::Object(out))
    }

    /// A `$ref`: its component written in place (`force`, or when it is used once in the
    /// document and not already being written around this node), else a `$ref` into
    /// `$defs`. `inline_ok` is false past the depth limit. A chain of `$ref`s to `$ref`s is
    /// followed in a loop; the keywords beside each (`description`, `title`, `default`)
    /// say more about this use, the outermost first.
    #[allow(clippy::too_many_arguments)]
    fn reference(
        &mut self,
        map: &Map,
        reference: &str,
        doc: usize,
        at: &At<'_>,
        depth: usize,
        height: &mut usize,
        force: bool,
        inline_ok: bool,
    ) -> Result<Json, Error> {
        let mut beside: Vec<(&'static str, Json)> = Vec::new();
        self.beside(map, doc, at, &mut beside);
        let ref_at = At::Member(at, "$ref");
        let mut reference = reference.to_string();
        let mut from = doc;
        let mut target = self.refs.resolve_at(&reference, from, &ref_at)?;
        let mut followed: HashSet<String> = HashSet::new();
        let value = loop {
            let value = match self.refs.target_value(&target) {
                Some(value) => value,
                None => return Ok(Json::Object(Map::new())),
            };
            let next = match value.as_object() {
                Some(next) => next,
                None => break value,
            };
            let next_ref = match next.get("$ref").and_then(Json::as_str) {
                Some(next_ref) => next_ref,
                None => break value,
            };
            if !followed.insert(target.key(self.refs)) {
                self.warn(
                    doc,
                    at,
                    "a cycle of $refs that names no schema: read as any value",
                );
                return Ok(Json::Object(Map::new()));
            }
            self.beside(next, target.doc, &At::Pointer(&target.pointer), &mut beside);
            from = target.doc;
            reference = next_ref.to_string();
            // An error names the link where it is.
            let link_at = At::Pointer(&target.pointer);
            let next_target =
                self.refs
                    .resolve_at(&reference, from, &At::Member(&link_at, "$ref"))?;
            target = next_target;
        };
        let prefix = if self.output { OUTPUT_KEY } else { "" };
        let key = target.key_after(prefix, self.refs);
        let shared = from != 0 || self.uses.get(&reference).map_or(true, |&n| n > 1);
        let on_stack = self.stack.contains(&key);
        let in_place = inline_ok && !on_stack && self.hops < MAX_INLINE_HOPS && (force || !shared);
        let mut converted = if in_place {
            self.in_place(value, &target, key, depth, height)?
        } else {
            if force || !shared || !inline_ok {
                // Kept a `$ref` because of where it was met, not for what it is.
                self.cuts += 1;
            }
            let name = def_name(&key, prefix);
            self.reached.push(Reach {
                name: name.clone(),
                key,
                doc: target.doc,
                pointer: target.pointer.clone(),
            });
            *height = 1;
            let mut map = Map::with_capacity(1 + beside.len());
            map.insert("$ref", format!("#/$defs/{}", name));
            Json::Object(map)
        };
        if let Some(out) = converted.as_object_mut() {
            for (key, value) in beside {
                out.insert(key, value);
            }
        }
        Ok(converted)
    }

    /// A copied keyword's value: a `title` cut like a description, any other value left
    /// out (a warning) when it is over [`MAX_KEYWORD_BYTES`] or nests too deep.
    fn keyword(&mut self, key: &str, value: &Json, doc: usize, at: &At<'_>) -> Option<Json> {
        if key == "title" {
            if let Some(title) = value.as_str() {
                return Some(Json::from(text::cap(title, self.max_description)));
            }
        }
        if !self.within_cap(key, value, doc, at) {
            return None;
        }
        small_value(value)
    }

    /// Whether `value` of keyword `key` is within [`MAX_KEYWORD_BYTES`]; a warning when not.
    fn within_cap(&mut self, key: &str, value: &Json, doc: usize, at: &At<'_>) -> bool {
        // Scalars other than strings are short: not measured.
        let long = match value {
            Json::String(text) => text.len() > MAX_KEYWORD_BYTES,
            Json::Array(_) | Json::Object(_) => value.compact_len() > MAX_KEYWORD_BYTES,
            _ => false,
        };
        if long {
            self.warn(
                doc,
                &At::Member(at, key),
                format!(
                    "'{}' is over {} bytes: left out of the tool schema",
                    key, MAX_KEYWORD_BYTES
                ),
            );
        }
        !long
    }

    /// The keywords beside a `$ref` that say more about this use of the referenced schema
    /// (OpenAPI 3.1 reads them; JSON Schema 2020-12 too), each kept the first time met.
    fn beside(&mut self, map: &Map, doc: usize, at: &At<'_>, out: &mut Vec<(&'static str, Json)>) {
        for key in ["description", "title", "default"] {
            if out.iter().any(|(k, _)| *k == key) {
                continue;
            }
            if let Some(value) = map.get(key) {
                let value = if key == "description" {
                    value
                        .as_str()
                        .map(|t| Json::from(text::cap(t, self.max_description)))
                } else {
                    self.keyword(key, value, doc, at)
                };
                if let Some(value) = value {
                    out.push((key, value));
                }
            }
        }
    }

    /// The component `value` (the target of a `$ref`, whose key is `key`) converted in
    /// place, from the cache when it was converted without a cut and fits here.
    fn in_place(
        &mut self,
        value: &Json,
        target: &super::refs::Target<'_>,
        key: String,
        depth: usize,
        height: &mut usize,
    ) -> Result<Json, Error> {
        if let Some(cached) = self.cache.get(&key) {
            if depth + cached.height <= self.max_depth {
                self.count_at(cached.nodes, &At::Pointer(&target.pointer))?;
                *height = cached.height;
                self.warnings.extend(cached.warnings.iter().cloned());
                self.reached.extend(cached.reached.iter().cloned());
                return Ok(cached.schema.clone());
            }
        }
        let (cuts, nodes) = (self.cuts, self.tool_nodes);
        let (warned, reached) = (self.warnings.len(), self.reached.len());
        self.stack.push(key.clone());
        self.hops += 1;
        let target_at = At::Pointer(&target.pointer);
        let result = self.node(value, target.doc, &target_at, depth, height);
        self.stack.pop();
        self.hops -= 1;
        let schema = result?;
        if self.cuts == cuts {
            let cached = Arc::new(Cached {
                schema: schema.clone(),
                nodes: self.tool_nodes - nodes,
                height: *height,
                reached: self.reached.get(reached..).unwrap_or_default().to_vec(),
                warnings: self.warnings.get(warned..).unwrap_or_default().to_vec(),
            });
            self.cache.entries().insert(key, cached);
        }
        Ok(schema)
    }

    /// `allOf` merged into one schema (properties and `required` united, the first value of
    /// any other keyword kept); branches that cannot be merged (two different types) stay an
    /// `allOf`.
    fn all_of(
        &mut self,
        branches: &[Json],
        doc: usize,
        at: &At<'_>,
        depth: usize,
        height: &mut usize,
        out: &mut Map,
    ) -> Result<(), Error> {
        let all_at = At::Member(at, "allOf");
        let mut converted = Vec::with_capacity(branches.len());
        for (i, branch) in branches.iter().enumerate() {
            let mut h = 0;
            // Merged, so written in place even when shared.
            self.force_inline = true;
            converted.push(self.node(branch, doc, &At::Element(&all_at, i), depth, &mut h)?);
            *height = (*height).max(h);
        }
        let mut rest = Vec::new();
        let mut united = United::default();
        for branch in converted {
            if !merge(out, branch.clone(), &mut united) {
                rest.push(branch);
            }
        }
        united.finish(out);
        if !rest.is_empty() {
            out.insert("allOf", rest);
        }
        Ok(())
    }

    fn keywords(
        &mut self,
        members: &Members<'_>,
        doc: usize,
        at: &At<'_>,
        depth: usize,
        height: &mut usize,
        out: &mut Map,
    ) -> Result<(), Error> {
        let mut child_height = 0;
        // type, with OpenAPI 3.0's `nullable` as a type list (JSON Schema has no `nullable`).
        let nullable =
            self.version != Version::V3_1 && members.nullable.and_then(Json::as_bool) == Some(true);
        match members.ty {
            Some(Json::String(word)) if word == "file" => {
                // Swagger 2.0 `type: file` (formData): the bytes of an upload.
                out.insert("type", "string");
                out.insert("format", "binary");
            }
            Some(Json::String(word)) if nullable => {
                out.insert("type", vec![Json::from(word.as_str()), Json::from("null")]);
            }
            Some(ty @ (Json::String(_) | Json::Array(_))) => {
                out.insert("type", ty.clone());
            }
            _ => {}
        }
        if let Some(description) = members.description.and_then(Json::as_str) {
            if !description.trim().is_empty() && !out.contains_key("description") {
                out.insert("description", text::cap(description, self.max_description));
            }
        }
        for (key, &value) in COPIED.iter().zip(&members.copied) {
            let value = match value {
                Some(value) if !out.contains_key(key) => value,
                _ => continue,
            };
            if let Some(value) = self.keyword(key, value, doc, at) {
                out.insert(*key, value);
            }
        }
        let enumeration = match members.enumeration {
            Some(values) if self.within_cap("enum", values, doc, at) => Some(values),
            _ => None,
        };
        if let Some(Json::Array(values)) = enumeration {
            let mut values: Vec<Json> = values.iter().filter_map(small_value).collect();
            if nullable && !values.contains(&Json::Null) {
                values.push(Json::Null);
            }
            out.insert("enum", values);
        }
        // Swagger 2.0 and OpenAPI 3.0 write exclusive bounds as booleans beside
        // `minimum`/`maximum`; JSON Schema 2020-12 (section 6.2.3) as the bound itself.
        for (flag, bound, value) in [
            ("exclusiveMinimum", "minimum", members.exclusive_minimum),
            ("exclusiveMaximum", "maximum", members.exclusive_maximum),
        ] {
            match value {
                Some(Json::Bool(true)) => {
                    if let Some(limit) = out.remove(bound) {
                        out.insert(flag, limit);
                    }
                }
                Some(limit @ Json::Number(_)) => {
                    out.insert(flag, limit.clone());
                }
                _ => {}
            }
        }
        let example = match members.example {
            Some(example) => Some(example),
            None => members
                .examples
                .and_then(Json::as_array)
                .and_then(|e| e.first()),
        };
        if let Some(example) = example.and_then(small_value) {
            if example.compact_len() <= MAX_EXAMPLE_BYTES {
                out.insert("examples", vec![example]);
            }
        }
        if let Some(items) = members.items {
            let mut h = 0;
            let converted = self.node(items, doc, &At::Member(at, "items"), depth + 1, &mut h)?;
            child_height = child_height.max(h);
            out.insert("items", converted);
        }
        if let Some(properties) = members.properties.and_then(Json::as_object) {
            let required = members.required;
            self.properties(properties, required, doc, at, depth, &mut child_height, out)?;
        } else if let Some(required) = members.required.and_then(Json::as_array) {
            if !out.contains_key("required") {
                out.insert("required", required.clone());
            }
        }
        match members.additional_properties {
            Some(Json::Bool(b)) => {
                out.insert("additionalProperties", *b);
            }
            Some(extra @ Json::Object(_)) => {
                let mut h = 0;
                let extra_at = At::Member(at, "additionalProperties");
                let converted = self.node(extra, doc, &extra_at, depth + 1, &mut h)?;
                child_height = child_height.max(h);
                out.insert("additionalProperties", converted);
            }
            _ => {}
        }
        for (key, branches) in [("oneOf", members.one_of), ("anyOf", members.any_of)] {
            if let Some(branches) = branches.and_then(Json::as_array) {
                let branches_at = At::Member(at, key);
                let mut converted = Vec::with_capacity(branches.len());
                for (i, branch) in branches.iter().enumerate() {
                    let mut h = 0;
                    let branch_at = At::Element(&branches_at, i);
                    converted.push(self.node(branch, doc, &branch_at, depth + 1, &mut h)?);
                    child_height = child_height.max(h);
                }
                if nullable {
                    let mut null = Map::new();
                    null.insert("type", "null");
                    converted.push(Json::Object(null));
                }
                out.insert(key, converted);
            }
        }
        for (key, &present) in NOT_PASSED_ON.iter().zip(&members.not_passed_on) {
            if present {
                self.warn(
                    doc,
                    &At::Member(at, key),
                    format!("'{}' is not passed on to the model", key),
                );
            }
        }
        *height = (*height).max(child_height + 1);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn properties(
        &mut self,
        properties: &Map,
        required_here: Option<&Json>,
        doc: usize,
        at: &At<'_>,
        depth: usize,
        child_height: &mut usize,
        out: &mut Map,
    ) -> Result<(), Error> {
        let properties_at = At::Member(at, "properties");
        let mut converted = Vec::with_capacity(properties.len());
        // Sets, not lists: an object may declare 100,000 properties and require them all.
        let mut left_out: HashSet<&str> = HashSet::new();
        for (name, property) in properties.iter() {
            if self.left_out(property, doc) {
                left_out.insert(name);
                continue;
            }
            let mut h = 0;
            let property_at = At::Member(&properties_at, name);
            let schema = self.node(property, doc, &property_at, depth + 1, &mut h)?;
            *child_height = (*child_height).max(h);
            converted.push((name.clone(), schema));
        }
        let mut props: Map = match out.remove("properties").and_then(Json::into_object) {
            Some(existing) => existing,
            None => Map::new(),
        };
        // `extend` finds repeated names through an index: linear, where an `insert` a
        // property would be quadratic.
        props.extend(converted);
        let mut required: Vec<Json> = out
            .remove("required")
            .and_then(Json::into_array)
            .unwrap_or_default();
        let mut listed: HashSet<String> = required
            .iter()
            .filter_map(Json::as_str)
            .map(str::to_string)
            .collect();
        for name in required_here.and_then(Json::as_array).into_iter().flatten() {
            if let Some(name) = name.as_str() {
                if !left_out.contains(name) && listed.insert(name.to_string()) {
                    required.push(Json::from(name));
                }
            }
        }
        out.insert("properties", props);
        if !required.is_empty() {
            out.insert("required", required);
        }
        Ok(())
    }
}

/// The `$defs` name of the component with cache key `key` (after `prefix`): its last
/// pointer token when that is a plain word of a root component (`#/components/schemas/Pet`
/// is `Pet`), else that word made plain and a hash of the key, so that a name is the same
/// whichever thread or operation met it first, and two keys never share one.
fn def_name(key: &str, prefix: &str) -> String {
    let key = key.strip_prefix(prefix).unwrap_or(key);
    let token = key.rsplit('/').next().unwrap_or(key);
    let plain: String = token
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let component = ["#/components/schemas/", "#/definitions/"]
        .iter()
        .any(|start| key.strip_prefix(start) == Some(token));
    if component && plain == token && !plain.is_empty() {
        return plain;
    }
    format!(
        "{}_{:08x}",
        plain,
        crate::hash::fnv1a(key.as_bytes()) as u32
    )
}

/// `{"description": text}`: a schema that accepts anything and says why.
fn note(text: String) -> Json {
    let mut map = Map::new();
    map.insert("description", text);
    Json::Object(map)
}

/// The `properties` and `required` of `allOf` branches united, gathered over all the
/// branches and written into the schema once: merging them branch by branch rescanned
/// what earlier branches gave, quadratic in a document with 10,000 branches.
#[derive(Default)]
struct United {
    /// The schema's own properties (taken from it at the first branch that has some), then
    /// the branches', in order; `extend` keeps the first position and last value of a name.
    properties: Option<(Map, Vec<(String, Json)>)>,
    /// The names required, in order, and the string ones as a set.
    required: Option<(Vec<Json>, HashSet<String>)>,
}

impl United {
    fn properties(&mut self, out: &mut Map) -> &mut Vec<(String, Json)> {
        // The key moves to the end of `out`, as each branch's properties did.
        let own = out.remove("properties");
        out.insert("properties", Json::Null);
        &mut self
            .properties
            .get_or_insert_with(|| {
                let own = own.and_then(Json::into_object).unwrap_or_default();
                (own, Vec::new())
            })
            .1
    }

    fn required(&mut self, out: &mut Map) -> &mut (Vec<Json>, HashSet<String>) {
        let own = out.remove("required");
        out.insert("required", Json::Null);
        self.required.get_or_insert_with(|| {
            let own = own.and_then(Json::into_array).unwrap_or_default();
            let set = own
                .iter()
                .filter_map(Json::as_str)
                .map(str::to_string)
                .collect();
            (own, set)
        })
    }

    /// Puts the united lists in the places `merge` kept for them.
    fn finish(self, out: &mut Map) {
        if let Some((mut own, more)) = self.properties {
            own.extend(more);
            out.insert("properties", own);
        }
        if let Some((list, _)) = self.required {
            out.insert("required", list);
        }
    }
}

/// Merges `branch` into `out` for `allOf`: `false` when the two disagree on `type`. The
/// branch's `properties` and `required` go to `united` (see [`United::finish`]).
fn merge(out: &mut Map, branch: Json, united: &mut United) -> bool {
    let branch = match branch.into_object() {
        // A branch that stayed a `$ref` (recursive) is kept as a branch.
        Some(map) if !map.contains_key("$ref") => map,
        _ => return false,
    };
    if let (Some(a), Some(b)) = (out.get("type"), branch.get("type")) {
        if a != b {
            return false;
        }
    }
    for (key, value) in branch.iter() {
        match key.as_str() {
            "properties" => {
                let props = united.properties(out);
                if let Some(more) = value.as_object() {
                    props.extend(more.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
            }
            "required" => {
                let (required, set) = united.required(out);
                for name in value.as_array().into_iter().flatten() {
                    let new = match name.as_str() {
                        Some(text) => set.insert(text.to_string()),
                        None => !required.contains(name),
                    };
                    if new {
                        required.push(name.clone());
                    }
                }
            }
            _ => {
                if !out.contains_key(key) {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
    }
    true
}

/// A copy of `value` when it nests no deeper than [`MAX_VALUE_DEPTH`] (checked without
/// recursion), else `None`.
pub(crate) fn small_value(value: &Json) -> Option<Json> {
    // Most values are scalars (every member of an enum): no stack to make for them.
    if !matches!(value, Json::Array(_) | Json::Object(_)) {
        return Some(value.clone());
    }
    let mut stack = vec![(value, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        if depth > MAX_VALUE_DEPTH {
            return None;
        }
        match v {
            Json::Array(items) => stack.extend(items.iter().map(|i| (i, depth + 1))),
            Json::Object(map) => stack.extend(map.values().map(|i| (i, depth + 1))),
            _ => {}
        }
    }
    Some(value.clone())
}

/// The plugin type of a converted schema, for coercion: the plugin's one rule
/// ([`ParamType::from_schema`]), which a plugin file's parameter without a `type` follows too.
pub(crate) fn param_type(schema: &Json) -> ParamType {
    ParamType::from_schema(schema)
}
