//! `$ref` resolution: local JSON Pointers into the document, and external documents only
//! through the caller's [`RefResolver`](super::RefResolver) (never a URL).

use std::cell::RefCell;
use std::collections::HashMap;

use super::documents::{self, join, Documents};
use super::error::{At, Error, ErrorKind};
use crate::json::Json;
use crate::url;

/// A document: the root one, or one an external reference loaded.
#[derive(Clone)]
pub(crate) enum DocRef<'a> {
    Root(&'a Json),
    External(&'a Json),
}

impl DocRef<'_> {
    pub(crate) fn get(&self) -> &Json {
        match self {
            DocRef::Root(json) => json,
            DocRef::External(json) => json,
        }
    }
}

/// Where a reference leads: the document (by index, 0 the root), the document itself, and
/// the JSON Pointer in it.
pub(crate) struct Target<'a> {
    pub doc: usize,
    pub document: DocRef<'a>,
    pub pointer: String,
}

impl<'a> Target<'a> {
    /// The value the target points to. In the root document it is looked up once per
    /// pointer: a lookup walks each map's members, and a document may have thousands of
    /// components that are referred to thousands of times.
    pub(crate) fn value<'t>(&'t self, refs: &Refs<'a>) -> Option<&'t Json> {
        match &self.document {
            DocRef::Root(root) if std::ptr::eq(*root, refs.root) => {
                refs.root_pointer(&self.pointer)
            }
            document => document.get().pointer(&self.pointer),
        }
    }

    /// A key for "this schema is being expanded" (cycle detection) and caches.
    pub(crate) fn key(&self, refs: &Refs<'a>) -> String {
        self.key_after("", refs)
    }

    /// [`key`](Target::key) after `prefix`: the pointer after `#` in the root document,
    /// after `@`, the document's location and `#` in another one. The location, not the
    /// index: each thread of an import loads other documents in its own order, and their
    /// converters share a cache. Written by hand, not with `format!`: one is made for every
    /// `$ref` met.
    pub(crate) fn key_after(&self, prefix: &str, refs: &Refs<'a>) -> String {
        let location = match self.doc {
            0 => None,
            doc => Some(refs.location(doc)),
        };
        let location_len = location.as_ref().map_or(0, |l| l.len() + 1);
        let mut key = String::with_capacity(prefix.len() + location_len + 1 + self.pointer.len());
        key.push_str(prefix);
        if let Some(location) = location {
            key.push('@');
            key.push_str(&location);
        }
        key.push('#');
        key.push_str(&self.pointer);
        key
    }
}

pub(crate) struct Refs<'a> {
    root: &'a Json,
    /// The external documents, read before the import started.
    documents: &'a Documents,
    /// Pointers already looked up in the root document.
    cache: RefCell<HashMap<String, Option<&'a Json>>>,
    /// The members of large objects of the root document (`/components/schemas`), by the
    /// pointer of the object: found by name, not by a scan of thousands of members once
    /// for each component referred to.
    members: RefCell<HashMap<String, HashMap<&'a str, &'a Json>>>,
}

/// Objects with at least this many members are indexed (see [`Refs::root_pointer`]); a
/// smaller one is scanned.
const INDEXED_MEMBERS: usize = 32;

impl<'a> Refs<'a> {
    pub(crate) fn new(root: &'a Json, documents: &'a Documents) -> Refs<'a> {
        Refs {
            root,
            documents,
            cache: RefCell::new(HashMap::new()),
            members: RefCell::new(HashMap::new()),
        }
    }

    /// The location of document `doc`, for messages (`""` for the root).
    /// The root document.
    pub(crate) fn root(&self) -> &'a Json {
        self.root
    }

    pub(crate) fn location(&self, doc: usize) -> String {
        self.documents.location(doc).to_string()
    }

    /// The document at index `doc`.
    pub(crate) fn document(&self, doc: usize) -> DocRef<'a> {
        match self.documents.get(doc) {
            Some(json) => DocRef::External(json),
            None => DocRef::Root(self.root),
        }
    }

    /// The value `target` points to, for as long as the documents live (a path item,
    /// parameter or body in another document is borrowed as the root's are).
    pub(crate) fn target_value(&self, target: &Target<'a>) -> Option<&'a Json> {
        match target.document {
            DocRef::Root(_) => self.root_pointer(&target.pointer),
            DocRef::External(json) => json.pointer(&target.pointer),
        }
    }

    /// Looks up a pointer in the root document, once.
    pub(crate) fn root_pointer(&self, pointer: &str) -> Option<&'a Json> {
        if let Some(found) = self.cache.borrow().get(pointer) {
            return *found;
        }
        let found = self.look_up(pointer);
        self.cache.borrow_mut().insert(pointer.to_string(), found);
        found
    }

    /// `pointer` in the root document, a member of a large object through its index.
    fn look_up(&self, pointer: &str) -> Option<&'a Json> {
        let root: &'a Json = self.root;
        let (parent, token) = match pointer.rsplit_once('/') {
            // A token with `~` is escaped (RFC 6901 section 4): left to `Json::pointer`.
            Some((parent, token)) if !parent.is_empty() && !token.contains('~') => (parent, token),
            _ => return root.pointer(pointer),
        };
        let map = match root.pointer(parent) {
            Some(Json::Object(map)) if map.len() >= INDEXED_MEMBERS => map,
            _ => return root.pointer(pointer),
        };
        let mut indexes = self.members.borrow_mut();
        let index = indexes.entry(parent.to_string()).or_insert_with(|| {
            let mut index = HashMap::with_capacity(map.len());
            for (name, value) in map.iter() {
                // The first member of a name, as `Map::get` finds it.
                index.entry(name.as_str()).or_insert(value);
            }
            index
        });
        index.get(token).copied()
    }

    /// Resolves `reference`, written in document `from`; `at` is where, for errors.
    pub(crate) fn resolve(
        &self,
        reference: &str,
        from: usize,
        at: &str,
    ) -> Result<Target<'a>, Error> {
        self.resolve_at(reference, from, &At::Pointer(at))
    }

    /// [`resolve`](Refs::resolve), the pointer of where written only for an error.
    pub(crate) fn resolve_at(
        &self,
        reference: &str,
        from: usize,
        at: &At<'_>,
    ) -> Result<Target<'a>, Error> {
        let (location, fragment) = match reference.find('#') {
            Some(i) => (&reference[..i], &reference[i + 1..]),
            None => (reference, ""),
        };
        // RFC 6901 section 6: a pointer in a URI fragment is percent-encoded.
        let pointer = if fragment.contains('%') {
            String::from_utf8_lossy(&url::percent_decode(fragment)).into_owned()
        } else {
            fragment.to_string()
        };
        let missing = || {
            Error::new(
                ErrorKind::UnresolvedRef,
                at.pointer(),
                format!(
                    "$ref '{}' points to nothing in the document",
                    short(reference)
                ),
            )
        };
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return Err(Error::new(
                ErrorKind::UnresolvedRef,
                at.pointer(),
                format!(
                    "$ref '{}' is not a json pointer (anchors are not supported)",
                    short(reference)
                ),
            ));
        }
        let doc = if location.is_empty() {
            from
        } else {
            self.load(location, from, at, reference)?
        };
        let document = self.document(doc);
        let found = if doc == 0 {
            self.root_pointer(&pointer).is_some()
        } else {
            document.get().pointer(&pointer).is_some()
        };
        if !found {
            return Err(missing());
        }
        Ok(Target {
            doc,
            document,
            pointer,
        })
    }

    fn load(
        &self,
        location: &str,
        from: usize,
        at: &At<'_>,
        reference: &str,
    ) -> Result<usize, Error> {
        if documents::is_url(location) {
            return Err(Error::new(
                ErrorKind::RemoteRef,
                at.pointer(),
                format!(
                    "$ref '{}' points to a url; urls are never fetched (save the document and give a resolver)",
                    short(reference)
                ),
            ));
        }
        if !self.documents.has_resolver() {
            return Err(Error::new(
                ErrorKind::UnresolvedRef,
                at.pointer(),
                format!(
                    "$ref '{}' points to another document, and no resolver for external references was installed",
                    short(reference)
                ),
            ));
        }
        let joined = join(&self.location(from), location);
        let why = match self.documents.find(&joined) {
            Some(Ok(doc)) => return Ok(*doc),
            Some(Err(why)) => why.as_str(),
            // Every `$ref` of every document read was met before the import started.
            None => "it was not among the documents read",
        };
        Err(Error::new(
            ErrorKind::UnresolvedRef,
            at.pointer(),
            format!("$ref '{}' could not be read: {}", short(reference), why),
        ))
    }
}

/// A reference for a message: cut and escaped by the crate's one quoting rule.
pub(crate) fn short(text: &str) -> String {
    crate::quote::excerpt(text)
}

/// A path item, operation, parameter, body or response, following a `$ref` into whichever
/// document it leads (chains included, bounded), and the document it is in.
pub(super) fn resolve_object<'a>(
    value: &'a Json,
    doc: usize,
    at: &str,
    refs: &Refs<'a>,
) -> Result<(&'a Json, usize), Error> {
    let mut value = value;
    let mut doc = doc;
    for _ in 0..16 {
        let reference = match value.get("$ref").and_then(Json::as_str) {
            Some(r) => r,
            None => return Ok((value, doc)),
        };
        let target = refs.resolve(reference, doc, at)?;
        value = refs.target_value(&target).ok_or_else(|| {
            Error::new(
                ErrorKind::UnresolvedRef,
                at,
                format!("$ref '{}' points to nothing", short(reference)),
            )
        })?;
        doc = target.doc;
    }
    Err(Error::new(
        ErrorKind::UnresolvedRef,
        at,
        "a chain of more than 16 $refs",
    ))
}
