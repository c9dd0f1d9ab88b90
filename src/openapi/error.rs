//! What can make an import fail, and what an import approximated: both with the JSON Pointer
//! (RFC 6901) of the place in the document.

use std::fmt;

/// Why an OpenAPI document could not be imported.
///
/// `#[non_exhaustive]`: new kinds will be added as failures are told apart more finely; match with
/// a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The value is not an object with an `openapi` or `swagger` field.
    NotOpenApi,
    /// A version this importer does not read (`openapi: 4.0`, `swagger: 1.2`).
    UnsupportedVersion,
    /// A field of the wrong type where the document cannot be read without it.
    InvalidDocument,
    /// A `$ref` whose target does not exist, or an external one no resolver could read.
    UnresolvedRef,
    /// A `$ref` to a URL: never fetched.
    RemoteRef,
    /// Schemas that expand past the import's budget (refs fanning out exponentially).
    TooLarge,
    /// The document has no operation left to import (after selection).
    NoOperations,
    /// The plugin made from the document was refused by the plugin checks (a bug of the
    /// importer, or a construct it does not know: the message says which).
    Plugin,
}

/// An import failure: what, and where in the document (a JSON Pointer, `""` for the root).
///
/// `Display` is `pointer: message` (`/paths/~1pets/get: ...`), the message lowercase and
/// specific.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    pointer: String,
    message: String,
}

impl Error {
    pub(crate) fn new(
        kind: ErrorKind,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Error {
        Error {
            kind,
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The JSON Pointer of where in the document.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// The message, without the pointer.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(f, &self.pointer, &self.message)
    }
}

impl std::error::Error for Error {}

/// `pointer: message` on one line: a document's keys (a media type, a property name) are in
/// the pointer and may be quoted in the message, and a control character in one is escaped
/// rather than allowed to break the line (the pointer itself stays as RFC 6901 writes it).
fn display(f: &mut fmt::Formatter<'_>, pointer: &str, message: &str) -> fmt::Result {
    use crate::quote::escape_controls;
    if !pointer.is_empty() {
        f.write_str(&escape_controls(pointer.to_string()))?;
        f.write_str(": ")?;
    }
    f.write_str(&escape_controls(message.to_string()))
}

/// Something the import skipped or approximated, with the JSON Pointer of where.
///
/// `Display` is `pointer: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pointer: String,
    message: String,
}

impl Warning {
    pub(crate) fn new(pointer: impl Into<String>, message: impl Into<String>) -> Warning {
        Warning {
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// The JSON Pointer of where in the document.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// What was skipped or approximated.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(f, &self.pointer, &self.message)
    }
}

/// `parent/token`, the token escaped per RFC 6901 section 3 (`~` as `~0`, `/` as `~1`).
pub(crate) fn child(parent: &str, token: &str) -> String {
    let mut out = String::with_capacity(parent.len() + token.len() + 1);
    out.push_str(parent);
    push_token(&mut out, token);
    out
}

/// `/token` at the end of `out`, the token escaped as [`child`] does.
fn push_token(out: &mut String, token: &str) {
    out.push('/');
    // Most names need no escape: copied whole, not a character at a time.
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        out.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            _ => out.push(c),
        }
    }
}

/// Where a value is in its document, written out as a JSON Pointer only when a warning or
/// an error needs it: the schema converter meets every node of every schema, and writing
/// each one's pointer cost an allocation and a copy of the whole path, for the few that
/// are ever read.
#[derive(Clone, Copy)]
pub(crate) enum At<'p> {
    /// A pointer already written.
    Pointer(&'p str),
    /// Member `name` (unescaped) of the value at the parent.
    Member(&'p At<'p>, &'p str),
    /// Element `index` of the array at the parent.
    Element(&'p At<'p>, usize),
}

impl At<'_> {
    /// The JSON Pointer, each member name escaped as [`child`] does.
    pub(crate) fn pointer(&self) -> String {
        // Innermost first, from a loop: the chain is as long as the schema is deep.
        let mut steps: Vec<&At<'_>> = Vec::new();
        let mut at = self;
        let base = loop {
            match at {
                At::Pointer(pointer) => break *pointer,
                At::Member(parent, _) | At::Element(parent, _) => {
                    steps.push(at);
                    at = parent;
                }
            }
        };
        let mut out = base.to_string();
        for step in steps.iter().rev() {
            match step {
                At::Member(_, name) => push_token(&mut out, name),
                At::Element(_, index) => push_token(&mut out, &index.to_string()),
                At::Pointer(_) => {}
            }
        }
        out
    }
}
