//! The documents external `$ref`s name, read once each before anything is converted.
//!
//! Read up front, not when a reference is first met: every thread of an import, and every
//! path item, parameter, body or schema taken from another file, then borrows the same
//! documents for the whole import, and each document is asked of the resolver once, by its
//! canonical location ([`RefResolver::canonical`]), however many spellings lead to it.

use std::collections::HashMap;

use crate::json::Json;

/// Reads the documents external `$ref`s point to (`other.json#/Pet`).
///
/// The importer takes a location as written in the reference, joined to the location of
/// the document that holds it (`models/pet.json` from a reference in `models/index.json`),
/// asks for its [`canonical`](RefResolver::canonical) name, and [`resolve`](RefResolver::resolve)s
/// each name once, before it converts anything: every document any `$ref` of the documents
/// read names, whether the import needs it or not (a document that cannot be read is an
/// error only where a `$ref` the import follows names it). A reference to a URL
/// (`https://...`) is never asked for. None is installed by default, so an external
/// reference is an [`ErrorKind::UnresolvedRef`](super::ErrorKind::UnresolvedRef).
///
/// # Security
///
/// A resolver decides what the importer may read, and how much: the importer reads every
/// document it is given. The command line installs one rooted at the document's folder that
/// refuses any path outside it and anything but a regular file, and reads all the files
/// together within its input limit.
pub trait RefResolver {
    /// The document at `location` (a name [`canonical`](RefResolver::canonical) gave).
    ///
    /// # Errors
    ///
    /// A message saying why it cannot be read (it is quoted in the import's error).
    fn resolve(&self, location: &str) -> Result<Json, String>;

    /// The one name of the document at `location`, the same for every location that leads
    /// to it (a file's real path, with symbolic links and `..` taken out), so that each
    /// document is read once however many spellings reach it; `""` when it is the root
    /// document itself. Relative references in the document are joined to this name. The
    /// importer asks it before [`resolve`](RefResolver::resolve), which it then asks with
    /// the name. Defaults to `location` as given.
    ///
    /// # Errors
    ///
    /// A message saying why the document cannot be read (it is quoted in the import's
    /// error if the import needs the document).
    fn canonical(&self, location: &str) -> Result<String, String> {
        Ok(location.to_string())
    }
}

/// The external documents of an import: what each location written in a `$ref` (joined to
/// the location of the document that holds it) reads as.
pub(crate) struct Documents {
    /// Whether a resolver was installed: without one, an external reference is refused
    /// without a read.
    resolver: bool,
    /// The canonical location and content of each document read; document `i + 1`.
    read: Vec<(String, Json)>,
    /// Each location met: the document it reads as (0 the root), or why it cannot be read.
    found: HashMap<String, Result<usize, String>>,
}

impl Documents {
    /// No external document: the import of a document read without a resolver.
    pub(crate) fn none() -> Documents {
        Documents {
            resolver: false,
            read: Vec::new(),
            found: HashMap::new(),
        }
    }

    /// Every document reachable from `root` through `$ref`s to other documents, each read
    /// once. A location that cannot be read is kept with the resolver's reason, which is an
    /// error only if the import needs it (a reference in an example is not read). URLs are
    /// left for the reference's own error.
    pub(crate) fn read(root: &Json, resolver: Option<&dyn RefResolver>) -> Documents {
        let resolver = match resolver {
            Some(resolver) => resolver,
            None => return Documents::none(),
        };
        let mut documents = Documents {
            resolver: true,
            read: Vec::new(),
            found: HashMap::new(),
        };
        let mut by_canonical: HashMap<String, usize> = HashMap::new();
        // Documents in the order they were read; each is scanned once, after the ones before.
        let mut next = 0usize;
        let mut wanted: Vec<String> = Vec::new();
        loop {
            let (base, document) = match next.checked_sub(1) {
                None => ("", root),
                Some(i) => match documents.read.get(i) {
                    Some((location, json)) => (location.as_str(), json),
                    None => break,
                },
            };
            other_documents(document, base, &mut wanted);
            next += 1;
            for location in wanted.drain(..) {
                if documents.found.contains_key(&location) {
                    continue;
                }
                let outcome = match resolver.canonical(&location) {
                    Err(why) => Err(why),
                    Ok(canonical) if canonical.is_empty() => Ok(0),
                    Ok(canonical) => match by_canonical.get(&canonical) {
                        Some(&doc) => Ok(doc),
                        None => match resolver.resolve(&canonical) {
                            Err(why) => Err(why),
                            Ok(json) => {
                                documents.read.push((canonical.clone(), json));
                                let doc = documents.read.len();
                                by_canonical.insert(canonical, doc);
                                Ok(doc)
                            }
                        },
                    },
                };
                documents.found.insert(location, outcome);
            }
        }
        documents
    }

    /// Whether a resolver was installed.
    pub(crate) fn has_resolver(&self) -> bool {
        self.resolver
    }

    /// What `location` (joined to its document's) reads as: the document, or why it cannot
    /// be read; `None` for a location no scan met.
    pub(crate) fn find(&self, location: &str) -> Option<&Result<usize, String>> {
        self.found.get(location)
    }

    /// The canonical location of document `doc` (`""` for the root).
    pub(crate) fn location(&self, doc: usize) -> &str {
        doc.checked_sub(1)
            .and_then(|i| self.read.get(i))
            .map_or("", |(location, _)| location.as_str())
    }

    /// Document `doc` if it is an external one.
    pub(crate) fn get(&self, doc: usize) -> Option<&Json> {
        doc.checked_sub(1)
            .and_then(|i| self.read.get(i))
            .map(|(_, json)| json)
    }
}

/// The locations of the other documents `document` refers to, joined to `base` (its own
/// location): an explicit stack, so that nesting costs no recursion.
fn other_documents(document: &Json, base: &str, out: &mut Vec<String>) {
    let mut stack: Vec<&Json> = vec![document];
    while let Some(value) = stack.pop() {
        match value {
            Json::Object(map) => {
                for (key, member) in map.iter() {
                    match (key.as_str(), member.as_str()) {
                        ("$ref", Some(reference)) => {
                            let location = reference.split('#').next().unwrap_or("");
                            if !location.is_empty() && !is_url(location) {
                                out.push(join(base, location));
                            }
                        }
                        _ => stack.push(member),
                    }
                }
            }
            Json::Array(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
}

/// Whether a reference's location is a URL (`https://...`, `//host/...`), which is never
/// read.
pub(crate) fn is_url(location: &str) -> bool {
    let lower = location.to_ascii_lowercase();
    lower.contains("://") || lower.starts_with("//")
}

/// `location` relative to the folder of `base` (`models/a.json` + `b.json` is
/// `models/b.json`), with `.` and `..` segments folded where they can be.
pub(super) fn join(base: &str, location: &str) -> String {
    let mut segments: Vec<&str> = Vec::new();
    if !location.starts_with('/') {
        if let Some(i) = base.rfind('/') {
            segments.extend(base[..i].split('/'));
        }
    }
    for segment in location.split('/') {
        match segment {
            "." | "" => {}
            ".." => {
                if segments.last().map_or(true, |s| *s == "..") {
                    segments.push("..");
                } else {
                    segments.pop();
                }
            }
            other => segments.push(other),
        }
    }
    segments.join("/")
}

#[cfg(test)]
mod tests {
    use super::join;

    #[test]
    fn joins_relative_locations() {
        assert_eq!(join("", "a.json"), "a.json");
        assert_eq!(join("models/index.json", "pet.json"), "models/pet.json");
        assert_eq!(join("models/index.json", "../common.json"), "common.json");
        assert_eq!(join("", "../outside.json"), "../outside.json");
        assert_eq!(join("a/b.json", "./c/../d.json"), "a/d.json");
    }
}
