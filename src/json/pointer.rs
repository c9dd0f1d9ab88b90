//! JSON Pointer (RFC 6901).

use std::borrow::Cow;

use super::Json;

impl Json {
    /// The value at a JSON Pointer (RFC 6901): `""` is the whole value, `"/a/0/b"` is member
    /// `b` of element 0 of member `a`. In a token `~1` stands for `/` and `~0` for `~`.
    /// Array indices are decimal without leading zeros (`"0"`, `"10"`; not `"01"`, `"+1"` or
    /// `"-"`). `None` when the pointer is malformed or nothing is there.
    ///
    /// # Examples
    ///
    /// ```
    /// let v = httptool::json!({"a/b": [10, {"m~n": true}]});
    /// assert_eq!(v.pointer("/a~1b/1/m~0n"), Some(&httptool::json::Json::Bool(true)));
    /// assert_eq!(v.pointer("/a~1b/0").and_then(|n| n.as_i64()), Some(10));
    /// assert_eq!(v.pointer("/a~1b/01"), None);
    /// assert_eq!(v.pointer(""), Some(&v));
    /// ```
    pub fn pointer(&self, pointer: &str) -> Option<&Json> {
        let mut current = self;
        for token in tokens(pointer)? {
            let token = token?;
            current = match current {
                Json::Object(map) => map.get(&token)?,
                Json::Array(items) => items.get(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(current)
    }

    /// The value at a JSON Pointer, to change it (see [`pointer`](Json::pointer)).
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Json> {
        let mut current = self;
        for token in tokens(pointer)? {
            let token = token?;
            current = match current {
                Json::Object(map) => map.get_mut(&token)?,
                Json::Array(items) => items.get_mut(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(current)
    }
}

/// The decoded reference tokens of `pointer`; `None` if it is neither empty nor starts with
/// `/`. Each token is `None` when it holds a `~` not followed by `0` or `1`.
///
/// RFC 6901 section 3: `json-pointer = *( "/" reference-token )`, and section 4: `~1` becomes
/// `/`, then `~0` becomes `~` (decoded in one pass, so `~01` is `~1`).
fn tokens(pointer: &str) -> Option<impl Iterator<Item = Option<Cow<'_, str>>>> {
    let rest = match pointer.strip_prefix('/') {
        Some(rest) => Some(rest),
        None if pointer.is_empty() => None,
        None => return None,
    };
    Some(rest.into_iter().flat_map(|r| r.split('/')).map(decode))
}

fn decode(token: &str) -> Option<Cow<'_, str>> {
    // A byte search: `str::contains` would compile the substring searcher into every build.
    if !token.as_bytes().contains(&b'~') {
        return Some(Cow::Borrowed(token));
    }
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('0') => out.push('~'),
            Some('1') => out.push('/'),
            _ => return None,
        }
    }
    Some(Cow::Owned(out))
}

/// RFC 6901 section 4: `array-index = %x30 / ( %x31-39 *(%x30-39) )`.
fn array_index(token: &str) -> Option<usize> {
    let bytes = token.as_bytes();
    let valid = match bytes {
        [b'0'] => true,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    if valid {
        crate::decimal::parse(bytes).and_then(|n| usize::try_from(n).ok())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::json::{parse, Json};

    #[test]
    fn rfc_6901_examples() {
        // The document and pointers of RFC 6901 section 5.
        let doc = parse(
            r#"{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4,
                "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}"#,
        )
        .unwrap();
        let table: &[(&str, &str)] = &[
            ("", ""),
            ("/foo", r#"["bar","baz"]"#),
            ("/foo/0", r#""bar""#),
            ("/", "0"),
            ("/a~1b", "1"),
            ("/c%d", "2"),
            ("/e^f", "3"),
            ("/g|h", "4"),
            ("/i\\j", "5"),
            ("/k\"l", "6"),
            ("/ ", "7"),
            ("/m~0n", "8"),
        ];
        for &(pointer, expected) in table {
            let found = doc.pointer(pointer).unwrap();
            if pointer.is_empty() {
                assert_eq!(found, &doc);
            } else {
                assert_eq!(found.to_string(), expected, "{pointer:?}");
            }
        }
    }

    #[test]
    fn misses_and_malformed_pointers() {
        let doc = parse(r#"{"a": [1, 2, {"b": null}], "~1": "tilde one"}"#).unwrap();
        let table: &[(&str, bool)] = &[
            ("a", false),
            ("/a/2/b", true),
            ("/a/3", false),
            ("/a/01", false),
            ("/a/-", false),
            ("/a/+1", false),
            ("/a/1/x", false),
            ("/missing", false),
            ("/~2", false),
            ("/~", false),
            ("/~01", true),
            ("/a/99999999999999999999999", false),
        ];
        for &(pointer, found) in table {
            assert_eq!(doc.pointer(pointer).is_some(), found, "{pointer:?}");
        }
    }

    #[test]
    fn pointer_mut_changes_the_value() {
        let mut doc = parse(r#"{"a": [1, {"b": 2}]}"#).unwrap();
        *doc.pointer_mut("/a/1/b").unwrap() = Json::from("two");
        assert_eq!(doc.to_string(), r#"{"a":[1,{"b":"two"}]}"#);
        assert!(doc.pointer_mut("/a/5").is_none());
    }
}
