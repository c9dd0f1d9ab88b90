//! `multipart/form-data` bodies (RFC 7578) and the host's [`FileResolver`] for file parts.
//! Encoding is pure; only a resolver the host installs turns a handle into bytes.

use std::fmt;

use crate::hash::Fnv1a;
use crate::tool::CallContext;
use crate::url::encode;

/// Turns the handle a model gives for a file part into the part's bytes.
///
/// A model cannot be trusted with the file system, so nothing reads a local path by default:
/// a plugin whose endpoint has a file parameter needs the host to install a resolver with
/// [`HttpPlugin::with_file_resolver`](crate::plugin::HttpPlugin::with_file_resolver). The handle is
/// whatever the host told the model to use (an upload id, a name from a list it controls);
/// the resolver decides what it may hand out, per call (`context` says for whom).
///
/// # Errors
///
/// A handle the resolver will not or cannot resolve; the model reads the error's `Display`,
/// so it should say what handles are valid and must not hold a secret.
///
/// # Examples
///
/// ```
/// use std::collections::HashMap;
/// use httptool::plugin::{FilePart, FileResolver};
/// use httptool::tool::CallContext;
///
/// /// Files the user uploaded to this session, by id.
/// struct Uploads(HashMap<String, FilePart>);
///
/// impl FileResolver for Uploads {
///     fn resolve(
///         &self,
///         handle: &str,
///         _context: &CallContext,
///     ) -> Result<FilePart, Box<dyn std::error::Error + Send + Sync>> {
///         self.0.get(handle).cloned().ok_or_else(|| "no upload has this id".into())
///     }
/// }
/// ```
pub trait FileResolver: Send + Sync {
    /// The part for `handle`.
    ///
    /// # Errors
    ///
    /// See the trait's docs.
    fn resolve(
        &self,
        handle: &str,
        context: &CallContext,
    ) -> Result<FilePart, Box<dyn std::error::Error + Send + Sync>>;
}

/// A file for a multipart body: its name, media type and bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct FilePart {
    file_name: String,
    content_type: String,
    bytes: Vec<u8>,
}

impl FilePart {
    /// A part named `file_name` of type `content_type` (such as `application/pdf`).
    pub fn new(
        file_name: impl Into<String>,
        content_type: impl Into<String>,
        bytes: impl Into<Vec<u8>>,
    ) -> FilePart {
        FilePart {
            file_name: file_name.into(),
            content_type: content_type.into(),
            bytes: bytes.into(),
        }
    }

    /// The file name sent in `Content-Disposition`.
    pub fn file_name(&self) -> &str {
        &self.file_name
    }

    /// The media type sent in `Content-Type`.
    pub fn content_type(&self) -> &str {
        &self.content_type
    }

    /// The content.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

impl fmt::Debug for FilePart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FilePart")
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .field("len", &self.bytes.len())
            .finish()
    }
}

/// One field of a multipart body.
pub(crate) enum Part<'a> {
    /// A text field.
    Text(std::borrow::Cow<'a, str>, String),
    /// A file field.
    File(&'a str, FilePart),
}

/// Encodes the parts; returns the boundary and the body.
///
/// The boundary is derived from the content (so a dry run and the call agree) and checked
/// not to occur in any part.
pub(crate) fn encode(parts: &[Part<'_>]) -> (String, Vec<u8>) {
    let boundary = boundary_for(parts);
    let mut body = Vec::new();
    for part in parts {
        body.extend_from_slice(b"--");
        body.extend_from_slice(boundary.as_bytes());
        body.extend_from_slice(b"\r\nContent-Disposition: form-data; name=\"");
        match part {
            Part::Text(name, value) => {
                push_quoted(&mut body, name);
                body.extend_from_slice(b"\"\r\n\r\n");
                body.extend_from_slice(value.as_bytes());
            }
            Part::File(name, file) => {
                push_quoted(&mut body, name);
                body.extend_from_slice(b"\"; filename=\"");
                push_quoted(&mut body, &file.file_name);
                body.extend_from_slice(b"\"\r\nContent-Type: ");
                body.extend_from_slice(media_type(&file.content_type).as_bytes());
                body.extend_from_slice(b"\r\n\r\n");
                body.extend_from_slice(&file.bytes);
            }
        }
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"--");
    body.extend_from_slice(boundary.as_bytes());
    body.extend_from_slice(b"--\r\n");
    (boundary, body)
}

/// A media type safe to write in a header, or `application/octet-stream`.
fn media_type(content_type: &str) -> &str {
    let safe = !content_type.is_empty() && content_type.bytes().all(|b| (0x20..0x7f).contains(&b));
    if safe {
        content_type
    } else {
        "application/octet-stream"
    }
}

/// Names and file names between quotes, as browsers encode them (WHATWG HTML, "multipart/form-data
/// encoding algorithm"): `"` as `%22`, CR as `%0D`, LF as `%0A`; and, beyond what browsers do,
/// every other control character but tab (NUL above all) as `%XX`, since a part header is a
/// header field (RFC 7578 section 4.2, RFC 9110 section 5.5).
fn push_quoted(out: &mut Vec<u8>, text: &str) {
    encode::encode_bytes_into(out, text.as_bytes(), &encode::QUOTED_NAME);
}

fn boundary_for(parts: &[Part<'_>]) -> String {
    // A hash of the content: deterministic, and a new salt when the boundary is found.
    let mut hash = Fnv1a::new();
    for part in parts {
        match part {
            Part::Text(name, value) => {
                hash.update(name.as_bytes());
                hash.update(value.as_bytes());
            }
            Part::File(name, file) => {
                hash.update(name.as_bytes());
                hash.update(&file.bytes);
            }
        }
    }
    pick_boundary(hash.finish(), parts)
}

/// `httptool-<16 hex digits>` from `hash`, salted until it occurs in no part.
fn pick_boundary(hash: u64, parts: &[Part<'_>]) -> String {
    let mut salt = 0u64;
    loop {
        let boundary = format!(
            "httptool-{:016x}",
            hash ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        );
        if !parts.iter().any(|p| contains(p, boundary.as_bytes())) {
            return boundary;
        }
        salt += 1;
    }
}

fn contains(part: &Part<'_>, needle: &[u8]) -> bool {
    let hay: &[u8] = match part {
        Part::Text(_, value) => value.as_bytes(),
        Part::File(_, file) => &file.bytes,
    };
    hay.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_text_and_file_parts() {
        let parts = [
            Part::Text("title".into(), String::from("Q3 \"report\"")),
            Part::File(
                "doc",
                FilePart::new("a\"b.txt", "text/plain", b"hello".to_vec()),
            ),
        ];
        let (boundary, body) = encode(&parts);
        let expected = format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nQ3 \"report\"\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a%22b.txt\"\r\n\
             Content-Type: text/plain\r\n\r\nhello\r\n--{b}--\r\n",
            b = boundary
        );
        assert_eq!(String::from_utf8(body).unwrap(), expected);
    }

    #[test]
    fn boundary_never_occurs_in_content() {
        let unsalted = pick_boundary(42, &[]);
        assert_eq!(unsalted, format!("httptool-{:016x}", 42));
        // Content that holds the first candidate forces another one.
        let tricky = [Part::Text("a".into(), format!("x{}y", unsalted))];
        let picked = pick_boundary(42, &tricky);
        assert_ne!(picked, unsalted);
        assert!(!contains(&tricky[0], picked.as_bytes()));
    }

    #[test]
    fn control_characters_in_part_names_are_escaped() {
        // Regression: a NUL (or another control character) in a file name the host's
        // resolver returned went into the part's header as it was.
        let parts = [Part::File(
            "doc\0",
            FilePart::new("a\0b\r\n\u{1b}\u{7f}\t\"c", "text/plain", b"x".to_vec()),
        )];
        let (_, body) = encode(&parts);
        let text = String::from_utf8(body).unwrap();
        assert!(
            text.contains("name=\"doc%00\"; filename=\"a%00b%0D%0A%1B%7F\t%22c\"\r\n"),
            "{text:?}"
        );
        let head_end = text.find("\r\n\r\n").unwrap();
        assert!(!text[..head_end].contains(['\0', '\u{1b}', '\u{7f}']));
    }

    #[test]
    fn unsafe_media_type_falls_back() {
        assert_eq!(media_type("text/plain\r\nX: 1"), "application/octet-stream");
        assert_eq!(media_type(""), "application/octet-stream");
        assert_eq!(media_type("image/png"), "image/png");
    }
}
