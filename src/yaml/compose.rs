//! Events into [`Json`]: anchors and aliases, merge keys, tags, the core schema, duplicate
//! keys and the nesting limit. The open collections live on an explicit stack.

use std::collections::{HashMap, HashSet};

use super::error::{Error, Reason};
use super::parser::{Event, Parser, Props, Tag};
use super::resolve::{resolve_plain, resolve_tagged, Resolved};
use super::scanner::{anchor_name_end, Style};
use crate::json::{Json, KeyFinder, Map};

/// What a node costs against the alias budget: one a node, and one more for each 64 bytes
/// of string it holds, so a copied long string counts for its size.
fn string_cost(s: &str) -> usize {
    text_cost(s.len())
}

/// What `bytes` of copied text cost against the alias budget: one node, and one more for
/// each 64 bytes (a string's value, or the JSON text a collection key becomes).
fn text_cost(bytes: usize) -> usize {
    1 + bytes / 64
}

enum Frame<'a> {
    Seq {
        items: Vec<Json>,
        anchor: Option<&'a str>,
        cost: usize,
    },
    Map {
        entries: Vec<(String, Json)>,
        /// The key read, waiting for its value (`None` while a key is expected).
        key: Option<PendingKey>,
        keys: KeyFinder,
        merges: Vec<Json>,
        anchor: Option<&'a str>,
        cost: usize,
    },
}

enum PendingKey {
    Str(String, usize),
    Merge(usize),
}

/// The limits and switches of [`ParseOptions`](super::ParseOptions) the composer applies,
/// handed over by value so the composer does not depend on the options type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub(crate) max_depth: usize,
    pub(crate) max_alias_nodes: usize,
    pub(crate) strict_tags: bool,
}

pub(crate) struct Composer<'a> {
    parser: Parser<'a>,
    limits: Limits,
    stack: Vec<Frame<'a>>,
    anchors: HashMap<&'a str, (Json, usize)>,
    /// The names that follow a `*` in the text: the anchors an alias may name. Found when
    /// the first anchor closes.
    alias_names: Option<HashSet<&'a str>>,
    alias_cost: usize,
}

impl<'a> Composer<'a> {
    pub(crate) fn new(text: &'a str, limits: Limits) -> Composer<'a> {
        Composer {
            parser: Parser::new(text),
            limits,
            stack: Vec::new(),
            anchors: HashMap::new(),
            alias_names: None,
            alias_cost: 0,
        }
    }

    fn error(&self, reason: Reason, at: usize) -> Error {
        self.parser.error(reason, at)
    }

    /// The documents of the stream: all of them, or stopping after the first when
    /// `first_only`, or refusing a second one when `single`.
    pub(crate) fn documents(mut self, first_only: bool, single: bool) -> Result<Vec<Json>, Error> {
        let mut docs = Vec::new();
        loop {
            let (event, at) = self.parser.next_event()?;
            match event {
                Event::StreamEnd => return Ok(docs),
                Event::DocumentStart => {
                    if single && !docs.is_empty() {
                        return Err(self.error(Reason::SeveralDocuments, at));
                    }
                    self.anchors.clear();
                    self.alias_cost = 0;
                    let doc = self.document()?;
                    docs.push(doc);
                    if first_only {
                        return Ok(docs);
                    }
                }
                _ => return Err(self.error(Reason::ExpectedDocumentStart, at)),
            }
        }
    }

    /// One document's root node, through its `DocumentEnd`.
    fn document(&mut self) -> Result<Json, Error> {
        let mut root = None;
        loop {
            let (event, at) = self.parser.next_event()?;
            let done = match event {
                Event::DocumentEnd => return Ok(root.unwrap_or(Json::Null)),
                Event::StreamEnd | Event::DocumentStart => {
                    return Err(self.error(Reason::ExpectedNode, at))
                }
                Event::Alias(name) => {
                    let (value, cost) = self.alias(name, at)?;
                    self.put(value, cost, at, false)?
                }
                Event::Scalar(text, style, props) => {
                    let is_merge = style == Style::Plain && text == "<<" && props.tag.is_none();
                    let value = self.scalar(&text, style, &props, at)?;
                    let cost = string_cost(value.as_str().unwrap_or(""));
                    self.remember(props.anchor, &value, cost, at)?;
                    self.put(value, cost, at, is_merge)?
                }
                Event::SequenceStart(props) => {
                    self.open(at, &props, false)?;
                    self.stack.push(Frame::Seq {
                        items: Vec::new(),
                        anchor: props.anchor,
                        cost: 1,
                    });
                    None
                }
                Event::MappingStart(props) => {
                    self.open(at, &props, true)?;
                    self.stack.push(Frame::Map {
                        entries: Vec::new(),
                        key: None,
                        keys: KeyFinder::default(),
                        merges: Vec::new(),
                        anchor: props.anchor,
                        cost: 1,
                    });
                    None
                }
                Event::SequenceEnd => match self.stack.pop() {
                    Some(Frame::Seq {
                        items,
                        anchor,
                        cost,
                    }) => {
                        let value = Json::Array(items);
                        self.remember(anchor, &value, cost, at)?;
                        self.put(value, cost, at, false)?
                    }
                    _ => return Err(self.error(Reason::ExpectedNode, at)),
                },
                Event::MappingEnd => match self.stack.pop() {
                    Some(Frame::Map {
                        mut entries,
                        mut keys,
                        merges,
                        anchor,
                        cost,
                        ..
                    }) => {
                        self.apply_merges(&mut entries, &mut keys, merges);
                        let value = Json::Object(Map::from_unique_entries(entries));
                        self.remember(anchor, &value, cost, at)?;
                        self.put(value, cost, at, false)?
                    }
                    _ => return Err(self.error(Reason::ExpectedNode, at)),
                },
            };
            if let Some(value) = done {
                root = Some(value);
            }
        }
    }

    /// Checks the nesting limit, and that a collection is not used as a key.
    fn open(&self, at: usize, props: &Props<'a>, mapping: bool) -> Result<(), Error> {
        if self.stack.len() >= self.limits.max_depth {
            return Err(self
                .error(Reason::TooDeep, at)
                .with_limit(self.limits.max_depth));
        }
        if let Some(Tag::Other) = props.tag.as_deref() {
            if self.limits.strict_tags {
                return Err(self.error(Reason::StrictTag, at));
            }
        }
        if let Some(Tag::Full(tag)) = props.tag.as_deref() {
            let expected = if mapping {
                "tag:yaml.org,2002:map"
            } else {
                "tag:yaml.org,2002:seq"
            };
            let core = tag.starts_with("tag:yaml.org,2002:");
            if tag != expected {
                if core && is_core_tag(tag) {
                    return Err(self.error(Reason::TagMismatch, at));
                }
                if self.limits.strict_tags {
                    return Err(self.error(Reason::StrictTag, at));
                }
            }
        }
        Ok(())
    }

    fn scalar(
        &self,
        text: &str,
        style: Style,
        props: &Props<'a>,
        at: usize,
    ) -> Result<Json, Error> {
        let resolved = match props.tag.as_deref() {
            None if style == Style::Plain => resolve_plain(text),
            None | Some(Tag::NonSpecific) => Resolved::Value(Json::String(text.to_owned())),
            Some(Tag::Other) if self.limits.strict_tags => {
                return Err(self.error(Reason::StrictTag, at))
            }
            Some(Tag::Other) if style == Style::Plain => resolve_plain(text),
            Some(Tag::Other) => Resolved::Value(Json::String(text.to_owned())),
            Some(Tag::Full(tag)) => match tag.strip_prefix("tag:yaml.org,2002:") {
                Some(name) if is_core_tag(tag) => resolve_tagged(name, text),
                _ if self.limits.strict_tags => return Err(self.error(Reason::StrictTag, at)),
                // Any other tag: the value as if the tag were absent.
                _ if style == Style::Plain => resolve_plain(text),
                _ => Resolved::Value(Json::String(text.to_owned())),
            },
        };
        match resolved {
            Resolved::Value(v) => Ok(v),
            Resolved::Error(reason) => Err(self.error(reason, at)),
        }
    }

    /// Keeps a copy of an anchored node for the aliases that name it. Only an anchor whose
    /// name follows a `*` somewhere in the text is copied (nested anchors that no alias
    /// names copied each level again, without bound), and the copy counts against the
    /// alias budget, checked here: text can name an anchor without aliasing it.
    fn remember(
        &mut self,
        anchor: Option<&'a str>,
        value: &Json,
        cost: usize,
        at: usize,
    ) -> Result<(), Error> {
        let name = match anchor {
            Some(name) => name,
            None => return Ok(()),
        };
        let text = self.parser.text();
        let aliased = self.alias_names.get_or_insert_with(|| alias_names(text));
        if !aliased.contains(name) {
            return Ok(());
        }
        // A scalar costs one node, as the reference to it would.
        let total = self.alias_cost.saturating_add(cost.saturating_sub(1));
        if total > self.limits.max_alias_nodes {
            return Err(self
                .error(Reason::AliasLimit, at)
                .with_limit(self.limits.max_alias_nodes));
        }
        self.alias_cost = total;
        self.anchors.insert(name, (value.clone(), cost));
        Ok(())
    }

    fn alias(&mut self, name: &str, at: usize) -> Result<(Json, usize), Error> {
        let (value, cost) = match self.anchors.get(name) {
            Some((v, c)) => (v, *c),
            None => return Err(self.error(Reason::UnknownAlias, at)),
        };
        let total = self.alias_cost.saturating_add(cost);
        if total > self.limits.max_alias_nodes || self.alias_cost > self.limits.max_alias_nodes {
            return Err(self
                .error(Reason::AliasLimit, at)
                .with_limit(self.limits.max_alias_nodes));
        }
        self.alias_cost = total;
        Ok((value.clone(), cost))
    }

    /// Hands a finished node to the open collection; returns it when it is the root.
    fn put(
        &mut self,
        value: Json,
        cost: usize,
        at: usize,
        is_merge: bool,
    ) -> Result<Option<Json>, Error> {
        let text = self.parser.text();
        let alias_cost = &mut self.alias_cost;
        let max_copied = self.limits.max_alias_nodes;
        match self.stack.last_mut() {
            None => Ok(Some(value)),
            Some(Frame::Seq { items, cost: c, .. }) => {
                items.push(value);
                *c = c.saturating_add(cost);
                Ok(None)
            }
            Some(Frame::Map {
                entries,
                key,
                keys,
                merges,
                cost: c,
                ..
            }) => {
                *c = c.saturating_add(cost);
                match key.take() {
                    None => {
                        if is_merge {
                            *key = Some(PendingKey::Merge(at));
                            return Ok(None);
                        }
                        // Keys that are not strings are written as the JSON text of their
                        // value (`200` -> "200", `true` -> "true", `[a, b]` -> `["a","b"]`).
                        // A collection's text is a copy, and counts against the budget
                        // aliases share, measured before it is made: a key inside a key
                        // is escaped again, so each level of such nesting about doubles
                        // the text (a kilobyte of input asked for gigabytes).
                        let k = if value.is_string() {
                            value.into_string().unwrap_or_default()
                        } else {
                            if value.is_array() || value.is_object() {
                                let cost = text_cost(value.compact_len());
                                let total = alias_cost.saturating_add(cost);
                                if total > max_copied {
                                    return Err(Error::new(Reason::KeyCopyLimit, text, at)
                                        .with_limit(max_copied));
                                }
                                *alias_cost = total;
                            }
                            value.to_string()
                        };
                        *key = Some(PendingKey::Str(k, at));
                        Ok(None)
                    }
                    Some(PendingKey::Str(k, key_at)) => {
                        if keys.find_or_insert(entries, &k).is_some() {
                            return Err(Error::new(Reason::DuplicateKey, text, key_at));
                        }
                        entries.push((k, value));
                        Ok(None)
                    }
                    Some(PendingKey::Merge(merge_at)) => {
                        let ok = match &value {
                            Json::Object(_) => true,
                            Json::Array(items) => items.iter().all(Json::is_object),
                            _ => false,
                        };
                        if !ok {
                            return Err(Error::new(Reason::BadMerge, text, merge_at));
                        }
                        merges.push(value);
                        Ok(None)
                    }
                }
            }
        }
    }

    /// The merge key (`<<`, yaml.org/type/merge): keys of the merged mappings that the
    /// mapping does not have already, the earlier mapping winning among them.
    fn apply_merges(
        &self,
        entries: &mut Vec<(String, Json)>,
        keys: &mut KeyFinder,
        merges: Vec<Json>,
    ) {
        for merge in merges {
            let sources: Vec<Map> = if merge.is_object() {
                merge.into_object().into_iter().collect()
            } else {
                merge
                    .into_array()
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(Json::into_object)
                    .collect()
            };
            for map in sources {
                for (k, v) in map {
                    if keys.find_or_insert(entries, &k).is_none() {
                        entries.push((k, v));
                    }
                }
            }
        }
    }
}

/// Every name that follows a `*` in `text`, as the scanner reads an alias's name: the
/// aliases of the text, and more (a `*` in a string or a comment).
fn alias_names(text: &str) -> HashSet<&str> {
    let mut names = HashSet::new();
    for (at, _) in text.match_indices('*') {
        let start = at + 1;
        let end = anchor_name_end(text.as_bytes(), start);
        if let Some(name) = text.get(start..end) {
            if !name.is_empty() {
                names.insert(name);
            }
        }
    }
    names
}

fn is_core_tag(tag: &str) -> bool {
    matches!(
        tag.strip_prefix("tag:yaml.org,2002:"),
        Some("str" | "int" | "float" | "bool" | "null" | "map" | "seq")
    )
}
