//! `$defs` entries that one `$ref` names, written in place of it, and entries no `$ref`
//! names left out. Pure.
//!
//! An OpenAPI import keeps a component that the document uses in more than one place as a
//! `$defs` entry of every tool that holds it, so that each is converted once; within one
//! tool, most of them are used once. There an entry costs its name twice and a `$ref` more
//! than the schema written where it is used, and a model reads the schema in one place
//! instead of two.

use std::collections::HashMap;

use crate::json::{Json, Map, DEFAULT_MAX_DEPTH};

use super::defs::{is_schema_list, is_schema_map, is_schema_value};

/// Keywords beside a `$ref` that say something about the place it is in, not about the
/// entry: where the entry has its own, the place's is kept.
const PLACE_ANNOTATIONS: [&str; 2] = ["description", "title"];

/// Keywords that let a `$ref` name a subschema by something other than its place under the
/// root's `$defs`: a schema holding one is left as it is.
const OTHER_NAMES: [&str; 6] = [
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$dynamicRef",
    "$recursiveRef",
    "$recursiveAnchor",
];

/// The schema with each entry of its root's `$defs` (or `definitions`) that exactly one
/// `$ref` names written in place of that `$ref` (the keywords beside it kept with the
/// entry's; a `description` or `title` beside it wins over the entry's), and each entry that
/// no `$ref` names left out; the root's `$defs` left out when no entry stays. An entry stays
/// when two or more `$ref`s name it (a recursive one among them: the `$ref` inside it and
/// the one that leads there), when a `$ref` points inside it (`#/$defs/a/properties/b`),
/// or when a keyword beside its one `$ref` says otherwise than the entry does. A schema
/// with `$id`, `$anchor` or a dynamic reference is returned as it is, and so is one nested
/// deeper than [`DEFAULT_MAX_DEPTH`] once written out. The result validates the same values.
/// Linear in the schema's size.
pub(crate) fn inline_single_use(schema: Json) -> Json {
    match inlined(&schema) {
        Some(made) => made,
        None => schema,
    }
}

/// What [`inline_single_use`] makes of `schema`, or `None` when it stays as it is.
fn inlined(schema: &Json) -> Option<Json> {
    let root = schema.as_object()?;
    if root.contains_key("$defs") && root.contains_key("definitions") {
        return None;
    }
    let (key, defs) = match (root.get("$defs"), root.get("definitions")) {
        (Some(Json::Object(defs)), _) => ("$defs", defs),
        (None, Some(Json::Object(defs))) => ("definitions", defs),
        _ => return None,
    };
    let index: HashMap<&str, usize> = defs
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    let bodies: Vec<&Json> = defs.iter().map(|(_, body)| body).collect();
    let mut uses = vec![0usize; bodies.len()];
    let mut pinned = vec![false; bodies.len()];
    // Every schema object, in no particular order: the `$ref`s counted where they are.
    let mut stack: Vec<&Map> = bodies.iter().filter_map(|body| body.as_object()).collect();
    let mut nested = false;
    stack.push(root);
    while let Some(map) = stack.pop() {
        let is_root = std::ptr::eq(map, root);
        for (k, value) in map {
            if OTHER_NAMES.contains(&k.as_str()) {
                return None;
            }
            if !is_root && (k == "$defs" || k == "definitions") {
                nested = true;
            }
            match (k.as_str(), value) {
                ("$ref", Json::String(reference)) => match target(reference, key, &index) {
                    Some(Target::Entry(i)) => {
                        uses[i] += 1;
                        // Only the first `$ref` is looked at: a second keeps the entry.
                        if uses[i] == 1 && !fits_beside(map, bodies[i]) {
                            pinned[i] = true;
                        }
                    }
                    Some(Target::Inside(i)) => pinned[i] = true,
                    None => {}
                },
                (k, Json::Object(members)) if is_schema_map(k) => {
                    stack.extend(members.iter().filter_map(|(_, m)| m.as_object()));
                }
                (k, Json::Array(items)) if is_schema_list(k) || is_schema_value(k) => {
                    stack.extend(items.iter().filter_map(Json::as_object));
                }
                (k, Json::Object(sub)) if is_schema_value(k) => stack.push(sub),
                _ => {}
            }
        }
    }
    // Entries of a `$defs` below the root hold `$ref`s this count does not see.
    if nested {
        return None;
    }
    let placed: Vec<bool> = (0..bodies.len())
        .map(|i| uses[i] == 1 && !pinned[i] && bodies[i].as_object().is_some())
        .collect();
    let kept: Vec<bool> = (0..bodies.len())
        .map(|i| !placed[i] && (uses[i] > 0 || pinned[i]))
        .collect();
    if kept.iter().all(|&k| k) {
        return None;
    }
    let writer = Writer {
        key,
        index: &index,
        bodies: &bodies,
        placed: &placed,
    };
    let mut out = Map::with_capacity(root.len());
    for (k, value) in root {
        if k == key {
            let entries: Vec<(String, Json)> = defs
                .iter()
                .zip(&kept)
                .filter(|(_, &kept)| kept)
                .map(|((name, body), _)| {
                    let mut within = Vec::new();
                    let written = writer.schema(body, 2, &mut within)?;
                    Some((name.clone(), written.unwrap_or_else(|| body.clone())))
                })
                .collect::<Option<_>>()?;
            if !entries.is_empty() {
                out.insert(key, Json::Object(Map::from_unique_entries(entries)));
            }
        } else {
            let written = writer.entry(k, value, 1, &mut Vec::new())?;
            out.insert(k.as_str(), written.unwrap_or_else(|| value.clone()));
        }
    }
    Some(Json::Object(out))
}

/// What a `$ref` names among the entries of the root's `$defs`.
enum Target {
    /// The entry itself (`#/$defs/NAME`).
    Entry(usize),
    /// A place inside the entry (`#/$defs/NAME/properties/a`).
    Inside(usize),
}

/// The entry a `$ref` names, when it is one of the root's `key` (`$defs`), by its index.
fn target(reference: &str, key: &str, index: &HashMap<&str, usize>) -> Option<Target> {
    let rest = reference
        .strip_prefix("#/")?
        .strip_prefix(key)?
        .strip_prefix('/')?;
    let (token, inside) = match rest.find('/') {
        Some(at) => (&rest[..at], true),
        None => (rest, false),
    };
    // RFC 6901, section 4: `~1` is `/`, `~0` is `~`.
    let name = token.replace("~1", "/").replace("~0", "~");
    let &i = index.get(name.as_str())?;
    Some(if inside {
        Target::Inside(i)
    } else {
        Target::Entry(i)
    })
}

/// The most keywords beside a `$ref` whose entry is written in place: each is looked up in
/// the entry, so the check stays linear in the entry's size.
const MAX_BESIDE: usize = 8;

/// Whether the keywords beside a `$ref` can go into its entry `body`: at most
/// [`MAX_BESIDE`], each one the entry has not, has with the same value, or a description or
/// title of the place.
fn fits_beside(place: &Map, body: &Json) -> bool {
    let body = match body.as_object() {
        Some(body) => body,
        None => return false,
    };
    place.len() <= MAX_BESIDE + 1
        && place.iter().all(|(k, value)| {
            k == "$ref"
                || PLACE_ANNOTATIONS.contains(&k.as_str())
                || body.get(k).map_or(true, |was| was == value)
        })
}

/// Writes a schema with the entries used once in place.
struct Writer<'a> {
    key: &'a str,
    index: &'a HashMap<&'a str, usize>,
    bodies: &'a [&'a Json],
    placed: &'a [bool],
}

impl<'a> Writer<'a> {
    /// `value` as a schema at `depth`, `within` the entries being written in place around
    /// it: `Some(None)` when nothing in it changes (the source is kept, shared), `None` when
    /// it would nest past the depth limit or an entry would hold itself.
    fn schema(
        &self,
        value: &'a Json,
        depth: usize,
        within: &mut Vec<usize>,
    ) -> Option<Option<Json>> {
        let map = match value {
            Json::Object(map) => map,
            _ => return Some(None),
        };
        if depth > DEFAULT_MAX_DEPTH {
            return None;
        }
        let placed = map
            .get("$ref")
            .and_then(Json::as_str)
            .and_then(|r| target(r, self.key, self.index))
            .and_then(|t| match t {
                Target::Entry(i) if self.placed[i] => Some(i),
                _ => None,
            });
        let i = match placed {
            Some(i) => i,
            None => return written_map(map, |k, v| self.entry(k, v, depth, within)),
        };
        // An entry used once that leads back to itself is on a cycle no `$ref` outside
        // enters (it would be used twice otherwise), so never reached: a guard only.
        if within.contains(&i) {
            return None;
        }
        within.push(i);
        let written = self.schema(self.bodies[i], depth, within);
        within.pop();
        let body = written?.unwrap_or_else(|| self.bodies[i].clone());
        if map.len() == 1 {
            return Some(Some(body));
        }
        let mut out = body.into_object()?;
        for (k, v) in map {
            if k == "$ref" {
                continue;
            }
            let v = self
                .entry(k, v, depth, within)?
                .unwrap_or_else(|| v.clone());
            match out.get(k) {
                Some(was) if was == &v => {}
                Some(_) if !PLACE_ANNOTATIONS.contains(&k.as_str()) => return None,
                _ => {
                    out.insert(k.as_str(), v);
                }
            }
        }
        Some(Some(Json::Object(out)))
    }

    /// The value of the keyword `k` of a schema at `depth`, written; `Some(None)` when it
    /// does not change.
    fn entry(
        &self,
        k: &str,
        value: &'a Json,
        depth: usize,
        within: &mut Vec<usize>,
    ) -> Option<Option<Json>> {
        match value {
            Json::Object(members) if is_schema_map(k) => {
                written_map(members, |_, member| self.schema(member, depth + 1, within))
            }
            Json::Array(items) if is_schema_list(k) || is_schema_value(k) => {
                let mut out: Option<Vec<Json>> = None;
                for (n, item) in items.iter().enumerate() {
                    match (self.schema(item, depth + 1, within)?, &mut out) {
                        (None, None) => {}
                        (None, Some(out)) => out.push(item.clone()),
                        (Some(made), out) => {
                            out.get_or_insert_with(|| items[..n].to_vec()).push(made);
                        }
                    }
                }
                Some(out.map(Json::Array))
            }
            Json::Object(_) if is_schema_value(k) => self.schema(value, depth + 1, within),
            _ => Some(None),
        }
    }
}

/// `map` with each value as `write` makes it (`None` for one that stays), sharing the source
/// when none changes (`Some(None)`); `None` when `write` gives up.
fn written_map<'a>(
    map: &'a Map,
    mut write: impl FnMut(&'a str, &'a Json) -> Option<Option<Json>>,
) -> Option<Option<Json>> {
    let mut out: Option<Vec<(String, Json)>> = None;
    for (n, (k, v)) in map.iter().enumerate() {
        match (write(k, v)?, &mut out) {
            (None, None) => {}
            (None, Some(out)) => out.push((k.clone(), v.clone())),
            (Some(made), out) => {
                let out = out.get_or_insert_with(|| {
                    let mut copied = Vec::with_capacity(map.len());
                    copied.extend(map.iter().take(n).map(|(k, v)| (k.clone(), v.clone())));
                    copied
                });
                out.push((k.clone(), made));
            }
        }
    }
    // Keys are the source's, each once.
    Some(out.map(|out| Json::Object(Map::from_unique_entries(out))))
}
