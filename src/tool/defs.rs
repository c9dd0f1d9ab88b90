//! Subschemas repeated within one tool's schema, written once: moved into the root's `$defs`
//! and referred to with `$ref` (JSON Schema 2020-12, Core, sections 8.2.3.1 and 8.2.4), and
//! written back in place for providers that cannot follow a `$ref`. Pure.
//!
//! An imported operation's schema repeats itself: the same address object in a billing and a
//! shipping field, the same 250-value country enum in ten filters, the same item schema in
//! every branch of a `oneOf`. Written once, the schema says the same thing in far fewer bytes.

use std::collections::{HashMap, HashSet};

use crate::json::{self, Json, Map, DEFAULT_MAX_DEPTH};

/// The smallest subschema (compact JSON bytes) worth a `$defs` entry: a smaller one stays
/// where it is however often it repeats, since a model reads it more easily in place and a
/// `$ref` to it saves little. Defaults to 80 bytes.
pub const MIN_DEF_BYTES: usize = 80;

/// The longest `$defs` name, in bytes (names come from property names, which can be long).
const MAX_NAME_BYTES: usize = 40;

/// What an inlined schema may grow to, as a multiple of the schema with its `$defs`: a
/// schema written by [`factor_repeated`] inlines to what it was, but a hand-written one
/// could nest references so each doubles the last. Past it, remaining `$ref`s stay as they
/// are.
const MAX_INLINE_GROWTH: usize = 64;

/// One distinct subschema of one schema: its compact size, the distinct subschemas directly
/// inside it (once per occurrence), how many schema objects its subtree holds, and its name
/// hint (an index in [`Interned::hints`]).
struct Node {
    size: usize,
    children: Vec<usize>,
    objects: usize,
    hint: usize,
}

/// A subschema's name hint as [`child_hint`] would make it from its parts, made into text
/// only for the few subschemas that get a `$defs` entry (see [`Interned::hint_text`]).
#[derive(Clone, Copy)]
struct Hint<'a> {
    base: HintBase<'a>,
    suffix: HintSuffix<'a>,
}

#[derive(Clone, Copy)]
enum HintBase<'a> {
    /// A property's name (or nothing, for the root).
    Name(&'a str),
    /// The hint of the subschema it is inside, by its index.
    Inside(usize),
}

#[derive(Clone, Copy)]
enum HintSuffix<'a> {
    /// A keyword's suffix (`item`, `not`), or none.
    Text(&'a str),
    /// The position in a list of schemas.
    Position(usize),
}

/// Distinct subschemas met in the schemas of one plugin's tools, kept across them: the
/// schema of a component that many tools hold (clones of one map) is keyed once, and met
/// again its subtree is only followed, not written and hashed again.
#[derive(Default)]
pub(crate) struct Factors {
    /// By key (see [`Interned::intern`]), the id of a subschema.
    ids: HashMap<String, usize>,
    /// By id, the subschema's shape.
    shapes: Vec<Shape>,
    /// By the allocation of a map that clones share, the map (held, so that the allocation
    /// stays its own) and its id.
    shared: HashMap<usize, (Map, usize)>,
    /// By id, the schema ([`Factors::schemas`]) that met it last and its node there.
    local: Vec<(usize, usize)>,
    /// Schemas interned so far.
    schemas: usize,
}

/// What a distinct subschema is, whichever schema holds it: its compact size, how many
/// schema objects its subtree holds, its levels of nesting, and the subschemas directly
/// inside it (once per occurrence).
struct Shape {
    size: usize,
    objects: usize,
    height: usize,
    children: Vec<usize>,
}

impl Factors {
    /// The id of the subschema with `key`, holding `children`, of `size` bytes; a new one
    /// when no subschema had that key.
    fn id(&mut self, key: &str, children: &[usize], size: usize) -> usize {
        // Most subschemas keyed were met before (the same component in many tools, made
        // compact anew for each: four in five on the bench document, nineteen in twenty on
        // Kubernetes'), so the key is looked up before it is copied to be kept.
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        let next = self.shapes.len();
        self.ids.insert(key.to_string(), next);
        let shapes = &self.shapes;
        let objects = 1 + children.iter().map(|&id| shapes[id].objects).sum::<usize>();
        let height = 1 + children
            .iter()
            .map(|&id| shapes[id].height)
            .max()
            .unwrap_or(0);
        self.shapes.push(Shape {
            size,
            objects,
            height,
            children: children.to_vec(),
        });
        next
    }
}

/// Writes the key of `schema` (see [`Interned::intern`]), `children` the ids of the
/// subschemas inside in the order met; the bytes of their `#id`s.
fn write_key(schema: &Map, children: &[usize], key: &mut String) -> usize {
    let mut ids = children.iter().copied();
    let mut markers = 0;
    let mut child = |key: &mut String, value: &Json| match value {
        Json::Object(_) => markers += push_marker(key, ids.next().unwrap_or_default()),
        other => write_value(key, other),
    };
    key.push('{');
    for (i, (name, value)) in schema.iter().enumerate() {
        if i > 0 {
            key.push(',');
        }
        json::write_str(key, name);
        key.push(':');
        match value {
            Json::Object(members) if is_schema_map(name) => {
                key.push('{');
                for (j, (member, schema)) in members.iter().enumerate() {
                    if j > 0 {
                        key.push(',');
                    }
                    json::write_str(key, member);
                    key.push(':');
                    child(key, schema);
                }
                key.push('}');
            }
            Json::Array(items) if is_schema_list(name) || name == "items" => {
                key.push('[');
                for (j, schema) in items.iter().enumerate() {
                    if j > 0 {
                        key.push(',');
                    }
                    child(key, schema);
                }
                key.push(']');
            }
            _ if is_schema_value(name) => child(key, value),
            other => write_value(key, other),
        }
    }
    key.push('}');
    markers
}

/// The distinct subschemas of one schema, each occurrence's node in pre-order.
#[derive(Default)]
struct Interned<'a> {
    nodes: Vec<Node>,
    preorder: Vec<usize>,
    /// The name hint of each occurrence, in pre-order, for [`Node::hint`].
    hints: Vec<Hint<'a>>,
    /// The key being looked up (a buffer reused).
    key: String,
    /// The ids of the subschemas inside the ones being interned, innermost last: a
    /// subschema's are added after its parent's unfinished list, and taken off again, so
    /// only a new subschema's list is allocated.
    children: Vec<usize>,
    /// [`Factors::local`], taken for the walk.
    local: Vec<(usize, usize)>,
    /// [`Factors::schemas`] at this schema.
    schema: usize,
}
/// Keywords whose value is a map of names to schemas.
pub(super) fn is_schema_map(key: &str) -> bool {
    matches!(key, "properties" | "patternProperties" | "dependentSchemas")
}

/// Keywords whose value is a list of schemas.
pub(super) fn is_schema_list(key: &str) -> bool {
    matches!(key, "allOf" | "anyOf" | "oneOf" | "prefixItems")
}

/// Keywords whose value is one schema (or, for `items` in older drafts, a list).
pub(super) fn is_schema_value(key: &str) -> bool {
    matches!(
        key,
        "items"
            | "additionalProperties"
            | "not"
            | "contains"
            | "propertyNames"
            | "if"
            | "then"
            | "else"
            | "additionalItems"
            | "unevaluatedProperties"
            | "unevaluatedItems"
    )
}

/// The compact JSON length of a `$defs` name: its bytes and two quotes, as [`Namer`] makes
/// names of ASCII letters, digits, `_`, `-` and `.`, which JSON writes as they are.
fn name_len(name: &str) -> usize {
    name.len() + 2
}

impl<'a> Interned<'a> {
    /// The id of `schema` (an object) in `factors`, interning it and every subschema inside
    /// (each occurrence's node in `preorder`, each distinct one's in `nodes`); `None` when
    /// the schema holds a keyword starting with `$` (a `$ref`, `$defs`, `$id`, `$anchor`,
    /// ...): moving its subschemas could break what they point to, so such a schema is left
    /// as it is.
    ///
    /// A subschema's key is its compact JSON with each subschema inside written as `#id`:
    /// two subschemas have the same key exactly when they are the same JSON, and each key
    /// holds only its own members, so all the keys together are as long as the schema. A
    /// map shared with a clone and interned before (for this tool or an earlier one) is not
    /// keyed again: its subtree is followed through `factors`.
    ///
    /// Its name hint is `hint`, an index in [`Interned::hints`]; those of the subschemas
    /// inside extend it.
    fn intern(
        &mut self,
        factors: &mut Factors,
        schema: &'a Map,
        hint: Hint<'a>,
        depth: usize,
    ) -> Option<usize> {
        if depth > DEFAULT_MAX_DEPTH {
            return None;
        }
        let shared = schema.shared_id().filter(|_| schema.is_shared());
        if let Some(&(_, id)) = shared.and_then(|key| factors.shared.get(&key)) {
            // Its levels as they were counted when it was keyed.
            if depth + factors.shapes[id].height - 1 > DEFAULT_MAX_DEPTH {
                return None;
            }
            self.follow(&factors.shapes, schema, id, hint);
            return Some(id);
        }
        let at = self.preorder.len();
        self.preorder.push(0);
        let own = self.hints.len();
        self.hints.push(hint);
        let first_child = self.children.len();
        for (name, value) in schema.iter() {
            if name.starts_with('$') {
                return None;
            }
            match value {
                Json::Object(members) if is_schema_map(name) => {
                    for (member, inner) in members {
                        if let Json::Object(map) = inner {
                            let id = self.intern(factors, map, member_hint(member), depth + 1)?;
                            self.children.push(id);
                        }
                    }
                }
                Json::Array(items) if is_schema_list(name) || name == "items" => {
                    for (j, inner) in items.iter().enumerate() {
                        if let Json::Object(map) = inner {
                            let hint = inner_hint(own, HintSuffix::Position(j));
                            let id = self.intern(factors, map, hint, depth + 1)?;
                            self.children.push(id);
                        }
                    }
                }
                Json::Object(map) if is_schema_value(name) => {
                    let hint = inner_hint(own, value_suffix(name));
                    let id = self.intern(factors, map, hint, depth + 1)?;
                    self.children.push(id);
                }
                _ => {}
            }
        }
        let children = self.children.get(first_child..).unwrap_or_default();
        self.key.clear();
        let markers = write_key(schema, children, &mut self.key);
        let inside: usize = children.iter().map(|&id| factors.shapes[id].size).sum();
        let size = self.key.len() - markers + inside;
        let id = factors.id(&self.key, children, size);
        self.children.truncate(first_child);
        self.preorder[at] = self.node(&factors.shapes, id, own);
        if let Some(key) = shared {
            factors.shared.insert(key, (schema.clone(), id));
        }
        Some(id)
    }

    /// Interns again `schema`, whose id is `id` (met before): its nodes in pre-order, and
    /// those new to this schema with the hints they get here. The subschemas inside are
    /// met in the order [`Interned::intern`] met them, each with the next id of the shape's.
    fn follow(&mut self, shapes: &[Shape], schema: &'a Map, id: usize, hint: Hint<'a>) {
        let at = self.preorder.len();
        self.preorder.push(0);
        let own = self.hints.len();
        self.hints.push(hint);
        // The same JSON as when it was keyed: each subschema inside has the next id.
        let mut ids = shapes[id].children.iter().copied();
        for (name, value) in schema {
            match value {
                Json::Object(members) if is_schema_map(name) => {
                    for (member, inner) in members {
                        if let Json::Object(map) = inner {
                            if let Some(child) = ids.next() {
                                self.follow(shapes, map, child, member_hint(member));
                            }
                        }
                    }
                }
                Json::Array(items) if is_schema_list(name) || name == "items" => {
                    for (j, inner) in items.iter().enumerate() {
                        let map = match inner {
                            Json::Object(map) => map,
                            _ => continue,
                        };
                        let child = match ids.next() {
                            Some(child) => child,
                            None => continue,
                        };
                        let hint = inner_hint(own, HintSuffix::Position(j));
                        self.follow(shapes, map, child, hint);
                    }
                }
                Json::Object(map) if is_schema_value(name) => {
                    if let Some(child) = ids.next() {
                        let hint = inner_hint(own, value_suffix(name));
                        self.follow(shapes, map, child, hint);
                    }
                }
                _ => {}
            }
        }
        self.preorder[at] = self.node(shapes, id, own);
    }

    /// This schema's node for the subschema with id `id`, once every subschema inside it
    /// has one: made at its first occurrence, so nodes are numbered as they are completed.
    fn node(&mut self, shapes: &[Shape], id: usize, hint: usize) -> usize {
        if self.local.len() < shapes.len() {
            self.local.resize(shapes.len(), (usize::MAX, 0));
        }
        let (schema, node) = self.local[id];
        if schema == self.schema {
            return node;
        }
        let shape = &shapes[id];
        let local = &self.local;
        let children = shape.children.iter().map(|&child| local[child].1).collect();
        let node = self.nodes.len();
        self.nodes.push(Node {
            size: shape.size,
            children,
            objects: shape.objects,
            hint,
        });
        self.local[id] = (self.schema, node);
        node
    }

    /// The text of the hint at `at` in [`Interned::hints`]: its base's (made the same way
    /// for a subschema's parent) with its suffix.
    fn hint_text(&self, at: usize) -> String {
        let hint = match self.hints.get(at) {
            Some(hint) => *hint,
            None => return String::new(),
        };
        let base = match hint.base {
            HintBase::Name(name) => std::borrow::Cow::Borrowed(name),
            HintBase::Inside(outer) => std::borrow::Cow::Owned(self.hint_text(outer)),
        };
        match hint.suffix {
            HintSuffix::Text(suffix) => child_hint(&base, suffix),
            HintSuffix::Position(j) => child_hint(&base, &j.to_string()),
        }
    }
}

/// The hint of a property's schema: its name.
fn member_hint(name: &str) -> Hint<'_> {
    Hint {
        base: HintBase::Name(name),
        suffix: HintSuffix::Text(""),
    }
}

/// The hint of a subschema inside the one whose hint is at `outer`.
fn inner_hint(outer: usize, suffix: HintSuffix<'_>) -> Hint<'_> {
    Hint {
        base: HintBase::Inside(outer),
        suffix,
    }
}

/// The hint suffix of the schema under the keyword `name`: `item` for `items`.
fn value_suffix(name: &str) -> HintSuffix<'_> {
    HintSuffix::Text(if name == "items" { "item" } else { name })
}

/// Appends `#id` to a key; its length.
fn push_marker(key: &mut String, id: usize) -> usize {
    let mut digits = [0u8; 20];
    let mut n = id;
    let mut len = 0;
    loop {
        digits[len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    key.push('#');
    for &d in digits[..len].iter().rev() {
        key.push(char::from(d));
    }
    len + 1
}

/// Appends `value` to a key as compact JSON: strings and literals directly (most of a
/// schema's scalars), and lists of them (`enum`, `required`, type lists), the rest
/// through the writer.
fn write_value(key: &mut String, value: &Json) {
    if let Json::Array(items) = value {
        if items.iter().all(is_literal) {
            key.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    key.push(',');
                }
                write_literal(key, item);
            }
            key.push(']');
            return;
        }
    }
    write_literal(key, value);
}

/// Whether `value` is a string, `true`, `false` or `null`.
fn is_literal(value: &Json) -> bool {
    matches!(value, Json::String(_) | Json::Bool(_) | Json::Null)
}

/// [`write_value`] of one value, not looking into lists.
fn write_literal(key: &mut String, value: &Json) {
    match value {
        Json::String(text) => json::write_str(key, text),
        Json::Bool(true) => key.push_str("true"),
        Json::Bool(false) => key.push_str("false"),
        Json::Null => key.push_str("null"),
        other => other.write_to(key),
    }
}

/// The name hint of a subschema inside one with `hint`: `address_item`, `address_0` (or the
/// hint itself, for an empty suffix); never longer than a name can be.
fn child_hint(hint: &str, suffix: &str) -> String {
    let mut out = String::with_capacity(MAX_NAME_BYTES + 4);
    let joint = if suffix.is_empty() { None } else { Some('_') };
    for c in hint.chars().chain(joint).chain(suffix.chars()) {
        if out.len() + c.len_utf8() > MAX_NAME_BYTES {
            break;
        }
        out.push(c);
    }
    out
}

/// `$defs` names from hints: letters, digits, `_`, `-` and `.` kept (so no JSON Pointer
/// escape is ever needed), anything else `_`, at most [`MAX_NAME_BYTES`] and a number,
/// never empty, never one already taken.
#[derive(Default)]
struct Namer {
    taken: HashSet<String>,
    /// For each name taken, the number the next one with it as its base gets.
    next: HashMap<String, usize>,
}

/// A name offered by [`Namer::propose`]: the name, its base and its number.
struct Proposal {
    name: String,
    base: String,
    number: usize,
}

impl Namer {
    fn propose(&self, hint: &str) -> Proposal {
        let mut base: String = hint
            .trim_start_matches('_')
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .take(MAX_NAME_BYTES)
            .collect();
        if base.is_empty() {
            base.push_str("def");
        }
        if !self.taken.contains(&base) {
            return Proposal {
                name: base.clone(),
                base,
                number: 1,
            };
        }
        let mut number = self.next.get(&base).copied().unwrap_or(2);
        let mut name = format!("{}_{}", base, number);
        while self.taken.contains(&name) {
            number += 1;
            name = format!("{}_{}", base, number);
        }
        Proposal { name, base, number }
    }

    fn take(&mut self, proposal: Proposal) -> String {
        self.next.insert(proposal.base, proposal.number + 1);
        self.taken.insert(proposal.name.clone());
        proposal.name
    }
}

/// The compact length of `{"$ref":"#/$defs/NAME"}`.
fn reference_len(name: &str) -> usize {
    "#/$defs/".len() + name_len(name) + "{\"$ref\":}".len()
}

/// The schema with each subschema that repeats within it, and is at least
/// [`MIN_DEF_BYTES`] long, written once under the root's `$defs` and replaced by
/// `{"$ref": "#/$defs/NAME"}` wherever it was, when that makes the schema shorter.
///
/// The outermost repeated subschemas are chosen first (a repeated object whose members
/// repeat elsewhere too is one entry, and its members get their own only if they still
/// repeat). Names come from the property where a subschema is first met (`address`,
/// `address_item` for an array's items, `address_0` for the first branch of a `oneOf`),
/// with `_2`, `_3` after a name already taken: the same schema always gives the same names.
/// Entries are in the order their subschemas are first met. A schema that already holds a
/// keyword starting with `$` (its own `$ref`s and `$defs`) is returned unchanged, and so is
/// one whose root is not an object. The result validates the same values as the schema.
/// Linear in the schema's size (one pass to find repeats, one to write), apart from a sort
/// of the distinct subschemas by size.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::factor_repeated;
///
/// let address = json!({"type": "object", "properties": {
///     "street": {"type": "string"}, "city": {"type": "string"}, "zip": {"type": "string"}},
///     "required": ["street", "city"]});
/// let schema = json!({"type": "object", "properties": {"billing": address.clone(), "shipping": address.clone()}});
/// assert_eq!(factor_repeated(&schema), json!({"type": "object", "properties": {
///     "billing": {"$ref": "#/$defs/billing"}, "shipping": {"$ref": "#/$defs/billing"}},
///     "$defs": {"billing": address}}));
/// ```
pub fn factor_repeated(schema: &Json) -> Json {
    factor(schema, &mut Factors::default()).unwrap_or_else(|| schema.clone())
}

/// [`factor_repeated`] on a schema it may keep (no copy when nothing repeats), with the
/// subschemas met in earlier schemas of one plugin.
pub(crate) fn factor_repeated_owned(schema: Json, factors: &mut Factors) -> Json {
    factor(&schema, factors).unwrap_or(schema)
}

/// The schema with its repeats written once, or `None` when it stays as it is.
fn factor(schema: &Json, factors: &mut Factors) -> Option<Json> {
    let root = schema.as_object()?;
    // A schema with `$defs` of its own already says each shared part once, and its
    // `$ref`s name those entries: left as it is.
    if root.contains_key("$defs") || root.contains_key("definitions") {
        return None;
    }
    let mut interned = Interned {
        local: std::mem::take(&mut factors.local),
        schema: factors.schemas,
        ..Interned::default()
    };
    factors.schemas += 1;
    let root_id = interned.intern(factors, root, member_hint(""), 1);
    factors.local = std::mem::take(&mut interned.local);
    let root_id = interned
        .preorder
        .first()
        .copied()
        .filter(|_| root_id.is_some())?;
    let nodes = &interned.nodes;
    // Every parent is larger than what it holds: in decreasing size, a subschema's uses
    // are known before it is reached (a parent written once under `$defs` uses its
    // members once, however often the parent itself is referred to).
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    crate::sort::by_key(&mut order, |&id| crate::sort::descending(nodes[id].size));
    let mut uses = vec![0usize; nodes.len()];
    uses[root_id] = 1;
    let mut names: Vec<Option<String>> = vec![None; nodes.len()];
    let mut namer = Namer::default();
    for &id in &order {
        let node = &nodes[id];
        let mut body_uses = uses[id];
        if id != root_id && uses[id] >= 2 && node.size >= MIN_DEF_BYTES {
            let proposal = namer.propose(&interned.hint_text(node.hint));
            // Its uses as `$ref`s and its entry, `"NAME":{...},`, against its copies.
            let cost =
                uses[id] * reference_len(&proposal.name) + name_len(&proposal.name) + 2 + node.size;
            if uses[id] * node.size > cost {
                names[id] = Some(namer.take(proposal));
                body_uses = 1;
            }
        }
        for &child in &node.children {
            uses[child] += body_uses;
        }
    }
    // The exact length of what would be written, smallest subschemas first: an entry's
    // own members may have become `$ref`s, so it can be shorter than the estimate above
    // assumed, and the whole must still be shorter than the schema.
    let mut written = vec![0usize; nodes.len()];
    for &id in order.iter().rev() {
        let node = &nodes[id];
        let mut size = node.size;
        for &child in &node.children {
            let as_written = match &names[child] {
                Some(name) => reference_len(name),
                None => written[child],
            };
            size = (size + as_written).saturating_sub(nodes[child].size);
        }
        written[id] = size;
    }
    let mut total = written[root_id] + ",\"$defs\":{}".len();
    let mut entries = 0;
    for (id, name) in names.iter().enumerate() {
        if let Some(name) = name {
            total += name_len(name) + 1 + written[id] + usize::from(entries > 0);
            entries += 1;
        }
    }
    if entries == 0 || total >= nodes[root_id].size {
        return None;
    }
    // Subschemas with no entry at or inside them are written as they are: a clone of the
    // source's map, which shares its entries rather than copying them. Parents are larger
    // than what they hold, so in increasing size each node's children are known first.
    let mut holds_entry = vec![false; nodes.len()];
    for &id in order.iter().rev() {
        holds_entry[id] =
            names[id].is_some() || nodes[id].children.iter().any(|&child| holds_entry[child]);
    }
    let mut writer = Writer {
        interned: &interned,
        names: &names,
        holds_entry: &holds_entry,
        cursor: 0,
        defs: Vec::with_capacity(entries),
        references: vec![None; nodes.len()],
    };
    let mut out = writer.body(root);
    let defs: Map = writer.defs.into_iter().collect();
    if let Json::Object(map) = &mut out {
        map.insert("$defs", defs);
    }
    Some(out)
}

/// Writes a schema again, following the pre-order ids of [`Interned`].
struct Writer<'a> {
    interned: &'a Interned<'a>,
    names: &'a [Option<String>],
    /// By id, whether the subschema or one inside it has a `$defs` entry.
    holds_entry: &'a [bool],
    cursor: usize,
    defs: Vec<(String, Json)>,
    /// By id, the `$ref` to its entry once the entry is written: the same map for each
    /// use (a clone shares it).
    references: Vec<Option<Json>>,
}

impl Writer<'_> {
    /// The subschema at the cursor: a `$ref` when it has a `$defs` entry (writing the entry
    /// the first time), else itself.
    fn schema(&mut self, map: &Map) -> Json {
        let id = self
            .interned
            .preorder
            .get(self.cursor)
            .copied()
            .unwrap_or(0);
        let name = match self.names.get(id).and_then(Option::as_ref) {
            Some(name) => name,
            None if self.holds_entry.get(id) == Some(&false) => {
                self.cursor += self.interned.nodes[id].objects;
                return Json::Object(map.clone());
            }
            None => return self.body(map),
        };
        if let Some(Some(reference)) = self.references.get(id) {
            self.cursor += self.interned.nodes[id].objects;
            return reference.clone();
        }
        let reference =
            crate::tool::provider::object([("$ref", Json::from(format!("#/$defs/{}", name)))]);
        if let Some(slot) = self.references.get_mut(id) {
            *slot = Some(reference.clone());
        }
        // The entry's place is taken before its body is written, so entries keep the order
        // their subschemas are first met in, outer before inner.
        let slot = self.defs.len();
        self.defs.push((name.clone(), Json::Null));
        let node = &self.interned.nodes[id];
        let body = if node.children.iter().any(|&child| self.holds_entry[child]) {
            self.body(map)
        } else {
            // Nothing inside it is a `$ref`: the source's map, shared.
            self.cursor += node.objects;
            Json::Object(map.clone())
        };
        if let Some(entry) = self.defs.get_mut(slot) {
            entry.1 = body;
        }
        reference
    }

    /// The subschema at the cursor with its own members written by [`Writer::schema`].
    fn body(&mut self, map: &Map) -> Json {
        self.cursor += 1;
        // Keys are the source's, each once; room for the root's `$defs`.
        let mut out = Vec::with_capacity(map.len() + 1);
        for (key, value) in map {
            let written = match value {
                Json::Object(members) if is_schema_map(key) => {
                    Json::Object(Map::from_unique_entries(
                        members
                            .iter()
                            .map(|(name, schema)| (name.clone(), self.value(schema)))
                            .collect(),
                    ))
                }
                Json::Array(items) if is_schema_list(key) || key == "items" => {
                    Json::Array(items.iter().map(|schema| self.value(schema)).collect())
                }
                _ if is_schema_value(key) => self.value(value),
                other => other.clone(),
            };
            out.push((key.clone(), written));
        }
        Json::Object(Map::from_unique_entries(out))
    }

    fn value(&mut self, value: &Json) -> Json {
        match value {
            Json::Object(map) => self.schema(map),
            other => other.clone(),
        }
    }
}

/// The schema with every `$ref` to an entry of its root's `$defs` (or `definitions`)
/// replaced by that entry, itself inlined, and the root's `$defs` left out: for a provider
/// that cannot follow a `$ref`. Keywords beside a `$ref` are kept and win over the entry's.
/// A `$ref` to anything else, one inside its own entry (a recursive schema), and any left
/// once the schema has grown 64 times over stay as they are, with the root's `$defs` kept
/// for them. Undoes [`factor_repeated`].
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{factor_repeated, inline_refs};
///
/// let id = json!({"type": "string", "pattern": "^[0-9]+$", "description": "A numeric id, as text."});
/// let schema = json!({"type": "object", "properties": {"a": id.clone(), "b": id.clone(), "c": {"type": "array", "items": id}}});
/// assert_eq!(inline_refs(&factor_repeated(&schema)), schema);
/// ```
pub fn inline_refs(schema: &Json) -> Json {
    let root = match schema.as_object() {
        Some(root) => root,
        None => return schema.clone(),
    };
    let (key, defs) = match (root.get("$defs"), root.get("definitions")) {
        (Some(Json::Object(defs)), _) => ("$defs", defs),
        (None, Some(Json::Object(defs))) => ("definitions", defs),
        _ => return schema.clone(),
    };
    let size = schema.compact_len();
    let mut inliner = Inliner {
        key,
        defs: defs
            .iter()
            .map(|(name, body)| (name.as_str(), (body, body.compact_len())))
            .collect(),
        stack: Vec::new(),
        budget: size.saturating_mul(MAX_INLINE_GROWTH),
        kept: false,
    };
    let mut out = Map::with_capacity(root.len());
    for (name, value) in root {
        if name != key {
            out.insert(name.as_str(), inliner.inline(value, 1));
        }
    }
    if inliner.kept {
        out.insert(key, Json::Object(defs.clone()));
    }
    Json::Object(out)
}

struct Inliner<'a> {
    key: &'a str,
    /// Each entry with its compact size.
    defs: HashMap<&'a str, (&'a Json, usize)>,
    stack: Vec<&'a str>,
    budget: usize,
    /// Whether a `$ref` to an entry was left in place.
    kept: bool,
}

impl<'a> Inliner<'a> {
    /// The entry a `$ref` names, when it is `#/$defs/NAME` (or `#/definitions/NAME`).
    fn target(&self, reference: &str) -> Option<(&'a str, &'a Json, usize)> {
        let token = reference
            .strip_prefix("#/")?
            .strip_prefix(self.key)?
            .strip_prefix('/')?;
        // RFC 6901, section 4: `~1` is `/`, `~0` is `~`.
        let name = token.replace("~1", "/").replace("~0", "~");
        let (&name, &(body, size)) = self.defs.get_key_value(name.as_str())?;
        Some((name, body, size))
    }

    fn inline(&mut self, value: &'a Json, depth: usize) -> Json {
        let map = match value {
            Json::Object(map) if depth <= DEFAULT_MAX_DEPTH => map,
            Json::Array(items) if depth <= DEFAULT_MAX_DEPTH => {
                return Json::Array(items.iter().map(|v| self.inline(v, depth + 1)).collect())
            }
            other => return other.clone(),
        };
        let target = map
            .get("$ref")
            .and_then(Json::as_str)
            .and_then(|r| self.target(r));
        if let Some((name, body, cost)) = target {
            if !self.stack.contains(&name) && cost <= self.budget {
                self.budget -= cost;
                self.stack.push(name);
                // Each entry a level deeper: a chain of entries that refer to the next ends
                // at the depth limit, not in the stack.
                let inlined = self.inline(body, depth + 1);
                self.stack.pop();
                let mut inlined = match inlined.into_object() {
                    Some(inlined) => inlined,
                    // A boolean entry (`true`, `false`): nothing to put keywords beside.
                    None => return body.clone(),
                };
                for (key, value) in map {
                    if key != "$ref" {
                        inlined.insert(key.as_str(), self.inline(value, depth + 1));
                    }
                }
                return Json::Object(inlined);
            }
            self.kept = true;
        }
        Json::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), self.inline(value, depth + 1)))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn long_enum() -> Json {
        json!({"type": "string", "enum": ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]})
    }

    #[test]
    fn interned_sizes_are_compact_json_lengths() {
        let schema = json!({"type": "object", "properties": {"a\"b": {"type": "array",
            "items": [{}, {"enum": [1.5, "é", null]}]}, "c": {"anyOf": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}]}},
            "required": ["c"], "additionalProperties": false});
        let mut interned = Interned::default();
        let mut factors = Factors::default();
        let id = interned
            .intern(
                &mut factors,
                schema.as_object().unwrap(),
                member_hint(""),
                1,
            )
            .unwrap();
        let root = interned.preorder[0];
        assert_eq!(interned.nodes[root].size, schema.to_string().len());
        assert_eq!(interned.nodes[root].objects, interned.preorder.len());
        assert_eq!(factors.shapes[id].size, schema.to_string().len());
    }

    #[test]
    fn small_or_single_subschemas_stay_in_place() {
        let small = json!({"type": "string", "format": "date"});
        let schema = json!({"type": "object", "properties": {"a": small.clone(), "b": small, "c": long_enum()}});
        assert_eq!(factor_repeated(&schema), schema);
    }

    #[test]
    fn the_outermost_repeat_is_one_entry_and_inner_repeats_get_their_own() {
        let item = json!({"type": "object", "properties": {"code": long_enum(), "n": {"type": "integer"}}});
        let schema = json!({"type": "object", "properties": {
            "x": {"type": "array", "items": item.clone()},
            "y": {"type": "array", "items": item.clone()},
            "v": {"type": "array", "items": item, "maxItems": 3},
            "z": long_enum(),
            "w": long_enum()
        }});
        let factored = factor_repeated(&schema);
        assert_eq!(
            factored,
            json!({"type": "object", "properties": {
                "x": {"$ref": "#/$defs/x"},
                "y": {"$ref": "#/$defs/x"},
                "v": {"type": "array", "items": {"$ref": "#/$defs/x_item"}, "maxItems": 3},
                "z": {"$ref": "#/$defs/code"},
                "w": {"$ref": "#/$defs/code"}
            }, "$defs": {
                "x": {"type": "array", "items": {"$ref": "#/$defs/x_item"}},
                "x_item": {"type": "object", "properties": {
                    "code": {"$ref": "#/$defs/code"}, "n": {"type": "integer"}}},
                "code": long_enum()
            }})
        );
        assert!(factored.to_string().len() < schema.to_string().len());
        assert_eq!(inline_refs(&factored), schema);
    }

    #[test]
    fn subschemas_without_an_entry_are_shared_with_the_source() {
        let plain = json!({"type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string"}}});
        let schema = json!({"type": "object", "properties": {
            "a": long_enum(), "b": long_enum(), "c": plain.clone(),
            "d": {"type": "array", "items": long_enum()}}});
        let factored = factor_repeated(&schema);
        assert_eq!(
            factored,
            json!({"type": "object", "properties": {
                "a": {"$ref": "#/$defs/a"}, "b": {"$ref": "#/$defs/a"}, "c": plain,
                "d": {"type": "array", "items": {"$ref": "#/$defs/a"}}},
                "$defs": {"a": long_enum()}})
        );
        let object = |value: &Json, pointer: &str| {
            value
                .pointer(pointer)
                .and_then(Json::as_object)
                .cloned()
                .unwrap()
        };
        // Nothing inside `c` moved: the result holds the source's map, not a copy of it.
        assert!(object(&factored, "/properties/c").shares_with(&object(&schema, "/properties/c")));
        // `d` holds a `$ref` now: written anew.
        assert!(!object(&factored, "/properties/d").shares_with(&object(&schema, "/properties/d")));
        // The uses of one entry are one `$ref` map, shared.
        assert!(object(&factored, "/properties/a").shares_with(&object(&factored, "/properties/b")));
        // An entry with no `$ref` inside is the map it was met as first.
        assert!(object(&factored, "/$defs/a").shares_with(&object(&schema, "/properties/a")));
        assert_eq!(inline_refs(&factored), schema);
    }

    #[test]
    fn subschemas_kept_across_schemas_give_what_each_schema_alone_gives() {
        // Clones share one map, as a component's compact schema does across tools.
        let item = json!({"type": "object", "properties": {"code": long_enum(), "n": {"type": "integer"}}});
        let a = json!({"type": "object", "properties": {"x": item.clone(), "y": item.clone()}});
        let b = json!({"type": "object", "properties": {
            "p": {"type": "array", "items": item.clone()}, "q": item.clone(),
            "r": long_enum(), "s": {"anyOf": [item.clone(), long_enum()]}}});
        // The same map at the depth bound, its members past it: left alone, as it is by
        // itself (its root is at level 128, the root of `deep` at 1).
        let mut deep = json!({"type": "object", "properties": {"a": item.clone(), "b": item}});
        for _ in 0..DEFAULT_MAX_DEPTH - 2 {
            deep = json!({"type": "object", "properties": {"d": deep}});
        }
        let mut factors = Factors::default();
        for schema in [&a, &b, &deep, &a, &b] {
            let alone = factor(schema, &mut Factors::default());
            assert_eq!(factor(schema, &mut factors), alone, "{}", schema);
        }
        assert!(factor(&b, &mut Factors::default()).is_some());
        assert!(factor(&deep, &mut Factors::default()).is_none());
    }

    #[test]
    fn names_say_where_a_subschema_is_first_met() {
        let other = json!({"type": "string", "enum": ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]});
        let schema = json!({"type": "object", "properties": {
            "pets": {"type": "array", "items": {"anyOf": [{"type": "integer"}, long_enum()]}},
            "q": {"not": other.clone()},
            "r": {"type": "object", "properties": {"s": long_enum(), "t": other}}
        }});
        assert_eq!(def_names(&schema), ["pets_item_1", "q_not"]);
    }

    /// The `$defs` names [`factor_repeated`] gives `schema`, whose entries inline back to it.
    fn def_names(schema: &Json) -> Vec<String> {
        let factored = factor_repeated(schema);
        assert_eq!(&inline_refs(&factored), schema);
        factored["$defs"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    }

    #[test]
    fn name_lengths_are_compact_json_lengths() {
        let mut namer = Namer::default();
        let long = "ä".repeat(30);
        for hint in [
            "address",
            "é x/y~z\"\\\u{1}",
            "",
            "__",
            &long,
            "address",
            "address",
        ] {
            let name = namer.take(namer.propose(hint));
            assert_eq!(
                name_len(&name),
                Json::from(name.as_str()).to_string().len(),
                "{:?}",
                name
            );
            let reference = json!({"$ref": format!("#/$defs/{}", name)});
            assert_eq!(
                reference_len(&name),
                reference.to_string().len(),
                "{:?}",
                name
            );
        }
    }

    #[test]
    fn taken_names_get_a_number() {
        let other = json!({"type": "string", "enum": ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]});
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"v": long_enum()}},
            "b": {"type": "object", "properties": {"v": other.clone()}},
            "c": {"type": "object", "properties": {"v": long_enum(), "w": other}}
        }});
        assert_eq!(def_names(&schema), ["v", "v_2"]);
    }

    #[test]
    fn a_schema_with_its_own_refs_is_left_alone() {
        let schema = json!({"type": "object", "properties": {"a": long_enum(), "b": long_enum(),
            "c": {"$ref": "#/properties/a"}}});
        assert_eq!(factor_repeated(&schema), schema);
    }

    #[test]
    fn recursive_and_foreign_refs_stay_with_their_defs() {
        let schema = json!({"type": "object", "properties": {
            "node": {"$ref": "#/$defs/node"}, "other": {"$ref": "https://example.com/s.json"}},
            "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}});
        assert_eq!(
            inline_refs(&schema),
            json!({"type": "object", "properties": {
                "node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}},
                "other": {"$ref": "https://example.com/s.json"}},
                "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}})
        );
    }

    #[test]
    fn inlining_a_reference_bomb_stops_at_its_budget() {
        // Each entry refers to the one before it twice: fully inlined, 2^30 copies.
        let mut defs = Map::new();
        defs.insert("d0", json!({"type": "string"}));
        for i in 1..30 {
            let before = format!("#/$defs/d{}", i - 1);
            defs.insert(
                format!("d{}", i),
                json!({"type": "array", "prefixItems": [{"$ref": before.clone()}, {"$ref": before}]}),
            );
        }
        let schema =
            json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d29"}}, "$defs": defs});
        let size = schema.to_string().len();
        let inlined = inline_refs(&schema);
        assert!(inlined.to_string().len() <= size * (MAX_INLINE_GROWTH + 2));
        assert!(
            inlined.get("$defs").is_some(),
            "refs left in place keep their targets"
        );
    }
}
