//! What the provider modules share: reading payloads with errors that say where they went
//! wrong.

pub mod anthropic;
pub mod gemini;
pub mod mcp;
pub mod openai;

use super::error::{Error, ErrorKind};
use crate::json::{Json, Map};

/// Where a payload is being read, for error messages: the provider and a JSON Pointer.
#[derive(Clone)]
pub(crate) struct At<'a> {
    what: &'a str,
    pointer: String,
}

impl<'a> At<'a> {
    /// The root of a payload; `what` names it ("openai chat response").
    pub(crate) fn root(what: &'a str) -> At<'a> {
        At {
            what,
            pointer: String::new(),
        }
    }

    /// The member `key` below this place.
    pub(crate) fn key(&self, key: &str) -> At<'a> {
        At {
            what: self.what,
            pointer: pointer_join(&self.pointer, key),
        }
    }

    /// The element `index` below this place.
    pub(crate) fn index(&self, index: usize) -> At<'a> {
        At {
            what: self.what,
            pointer: format!("{}/{}", self.pointer, index),
        }
    }

    /// An error at this place: `expected` is what should have been there.
    pub(crate) fn error(&self, expected: &str, got: Option<&Json>) -> Error {
        let place = if self.pointer.is_empty() {
            String::from("the root")
        } else {
            self.pointer.clone()
        };
        let got = match got {
            Some(value) => value.type_name(),
            None => "nothing",
        };
        Error::new(
            ErrorKind::MalformedPayload,
            format!(
                "{}: expected {} at {}, got {}",
                self.what, expected, place, got
            ),
        )
    }

    /// The object at this place.
    pub(crate) fn object<'v>(&self, value: &'v Json) -> Result<&'v Map, Error> {
        value
            .as_object()
            .ok_or_else(|| self.error("an object", Some(value)))
    }

    /// The array at this place.
    pub(crate) fn array<'v>(&self, value: &'v Json) -> Result<&'v [Json], Error> {
        value
            .as_array()
            .map(|items| items.as_slice())
            .ok_or_else(|| self.error("an array", Some(value)))
    }

    /// The string member `key` of `object`.
    pub(crate) fn str_member<'v>(&self, object: &'v Map, key: &str) -> Result<&'v str, Error> {
        let value = object.get(key);
        value
            .and_then(Json::as_str)
            .ok_or_else(|| self.key(key).error("a string", value))
    }
}

/// `pointer` followed by the reference token `token`.
pub(crate) fn pointer_join(pointer: &str, token: &str) -> String {
    let mut joined = String::with_capacity(pointer.len() + token.len() + 1);
    joined.push_str(pointer);
    joined.push('/');
    // RFC 6901, section 3: `~` is written `~0` and `/` is written `~1`.
    for c in token.chars() {
        match c {
            '~' => joined.push_str("~0"),
            '/' => joined.push_str("~1"),
            c => joined.push(c),
        }
    }
    joined
}

/// The array member `key` of `object`: absent or `null` reads as empty.
pub(crate) fn optional_array<'v>(
    at: &At<'_>,
    object: &'v Map,
    key: &str,
) -> Result<&'v [Json], Error> {
    match object.get(key) {
        None | Some(Json::Null) => Ok(&[]),
        Some(value) => at.key(key).array(value),
    }
}

/// An object with the given members, in order.
pub(crate) fn object<const N: usize>(members: [(&str, Json); N]) -> Json {
    let mut map = Map::with_capacity(N);
    for (key, value) in members {
        map.insert(key, value);
    }
    Json::Object(map)
}

/// The image types the Anthropic and OpenAI APIs read in a tool result (both document
/// JPEG, PNG, GIF and WebP); another image goes to the model as the output's text.
pub(crate) fn is_model_image(attachment: &crate::tool::Attachment) -> bool {
    matches!(
        attachment.essence().as_str(),
        "image/jpeg" | "image/png" | "image/gif" | "image/webp"
    )
}

/// Whether an attachment is a PDF, the file type both the Anthropic (`document` block) and
/// OpenAI (`input_file`) APIs read in a tool result.
pub(crate) fn is_pdf(attachment: &crate::tool::Attachment) -> bool {
    attachment.essence() == "application/pdf"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_tokens_are_escaped() {
        assert_eq!(pointer_join("", "a/b~c"), "/a~1b~0c");
        assert_eq!(pointer_join("/x", "0"), "/x/0");
    }
}
