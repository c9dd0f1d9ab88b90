//! The JSON value: accessors, conversions, and the non-recursive `Clone`, `PartialEq` and `Drop`.

use std::borrow::Cow;
use std::iter::FromIterator;
use std::mem;
use std::ops::Index;
use std::str::FromStr;

use super::{Error, Map, Number};

/// The value `Index` returns for a missing key or index.
pub(crate) static NULL: Json = Json::Null;

/// A JSON value.
///
/// Build one with [`json!`](super#literals-httptooljson), `From` conversions or [`parse`](fn@super::parse); read
/// it with [`get`](Json::get), [`at`](Json::at), indexing (`value["key"][0]`, which gives
/// `Null` for anything missing), [`pointer`](Json::pointer) and the `as_*` accessors; write it
/// with `to_string()` (compact) or [`to_pretty`](Json::to_pretty).
///
/// Cloning, comparing, writing and dropping never recurse, so even a value nested 100,000
/// levels deep cannot overflow the stack. A clone shares its objects with the original until
/// either changes them (see [`Map`]), so cloning a large schema costs next to nothing. Because `Json` implements `Drop` (to flatten deep
/// values), its contents cannot be moved out with a `match` by value: use
/// [`into_string`](Json::into_string), [`into_array`](Json::into_array),
/// [`into_object`](Json::into_object) or [`take`](Json::take).
///
/// `Debug` prints the value as compact JSON (`{:#?}` as pretty JSON).
///
/// Not `#[non_exhaustive]`: RFC 8259 fixes the six kinds of JSON value, so a `match` may name them
/// all.
///
/// # Examples
///
/// ```
/// use httptool::json::{self, Json};
///
/// let v = json::parse(r#"{"user": {"name": "Ada", "langs": ["en", "fr"]}}"#).unwrap();
/// assert_eq!(v["user"]["name"].as_str(), Some("Ada"));
/// assert_eq!(v.pointer("/user/langs/1"), Some(&Json::from("fr")));
/// assert!(v["nope"][3].is_null());
/// assert_eq!(v.to_string(), r#"{"user":{"name":"Ada","langs":["en","fr"]}}"#);
/// ```
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (see [`Number`] for how it round-trips).
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, in insertion order.
    Object(Map),
}

impl Json {
    /// The value for `key` when this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.as_object().and_then(|m| m.get(key))
    }

    /// The value for `key` when this is an object that has it, to change it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        self.as_object_mut().and_then(|m| m.get_mut(key))
    }

    /// The element at `index` when this is an array that long.
    pub fn at(&self, index: usize) -> Option<&Json> {
        self.as_array().and_then(|a| a.get(index))
    }

    /// The element at `index` when this is an array that long, to change it.
    pub fn at_mut(&mut self, index: usize) -> Option<&mut Json> {
        self.as_array_mut().and_then(|a| a.get_mut(index))
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number as an `i64`, if this is a whole number in range (see [`Number::as_i64`]).
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The number as a `u64`, if this is a whole number in range (see [`Number::as_u64`]).
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// The number as an `f64`, if this is a number (see [`Number::as_f64`]).
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Json::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Json>> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The elements, if this is an array, to change them.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Json>> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The map, if this is an object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The map, if this is an object, to change it.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Json::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The string by value, if this is one.
    pub fn into_string(mut self) -> Option<String> {
        match &mut self {
            Json::String(s) => Some(mem::take(s)),
            _ => None,
        }
    }

    /// The elements by value, if this is an array.
    pub fn into_array(mut self) -> Option<Vec<Json>> {
        match &mut self {
            Json::Array(a) => Some(mem::take(a)),
            _ => None,
        }
    }

    /// The map by value, if this is an object.
    pub fn into_object(mut self) -> Option<Map> {
        match &mut self {
            Json::Object(m) => Some(mem::take(m)),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// Whether this is `true` or `false`.
    pub fn is_bool(&self) -> bool {
        matches!(self, Json::Bool(_))
    }

    /// Whether this is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Json::Number(_))
    }

    /// Whether this is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Json::String(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Json::Array(_))
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }

    /// The JSON type's name as JSON Schema spells it: `"null"`, `"boolean"`, `"number"`,
    /// `"string"`, `"array"` or `"object"` (for messages such as "expected string, got
    /// number").
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Number(_) => "number",
            Json::String(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }

    /// Takes the value out, leaving `null` in its place.
    pub fn take(&mut self) -> Json {
        mem::take(self)
    }

    /// Whether this is an array or object with something in it.
    fn is_nested(&self) -> bool {
        match self {
            Json::Array(a) => !a.is_empty(),
            Json::Object(m) => !m.is_empty(),
            _ => false,
        }
    }

    /// Moves every non-empty array or object directly inside this value onto `stack`,
    /// leaving `null` in its place. An object whose entries a clone still shares is left
    /// alone: dropping it only counts one reference less.
    fn move_nested_children(&mut self, stack: &mut Vec<Json>) {
        let children: &mut [(String, Json)] = match self {
            Json::Array(a) => {
                for child in a.iter_mut().filter(|c| c.is_nested()) {
                    stack.push(mem::take(child));
                }
                return;
            }
            Json::Object(m) => match m.unshared_entries_mut() {
                Some(entries) => entries,
                None => return,
            },
            _ => return,
        };
        for (_, child) in children.iter_mut().filter(|(_, c)| c.is_nested()) {
            stack.push(mem::take(child));
        }
    }

    /// A clone of anything but a non-empty array (an object shares its entries).
    fn clone_flat(&self) -> Json {
        match self {
            Json::Null => Json::Null,
            Json::Bool(b) => Json::Bool(*b),
            Json::Number(n) => Json::Number(n.clone()),
            Json::String(s) => Json::String(s.clone()),
            Json::Array(_) => Json::Array(Vec::new()),
            Json::Object(m) => Json::Object(m.clone()),
        }
    }
}

impl Default for Json {
    /// `null`.
    fn default() -> Json {
        Json::Null
    }
}

impl Drop for Json {
    /// Drops nested arrays and objects from an explicit stack, so depth cannot overflow the
    /// call stack.
    ///
    /// An object shared with a clone (see [`Map`]) is not taken apart: its last owner does
    /// that. (Two threads dropping the last two owners at once may both see it shared; the
    /// entries are then dropped by the standard drop of their `Vec`, one level, each value
    /// taking its own subtree apart again, so the stack stays bounded.)
    fn drop(&mut self) {
        let nested = match self {
            Json::Array(a) => a.iter().any(Json::is_nested),
            Json::Object(m) => m.values().any(Json::is_nested),
            _ => false,
        };
        if !nested {
            return;
        }
        let mut stack = Vec::new();
        self.move_nested_children(&mut stack);
        while let Some(mut value) = stack.pop() {
            value.move_nested_children(&mut stack);
            // `value` now holds only flat children; dropping it recurses no further.
        }
    }
}

/// An array being cloned: the source elements left to visit and the copy so far.
struct CloneFrame<'a> {
    source: std::slice::Iter<'a, Json>,
    copy: Vec<Json>,
}

impl Clone for Json {
    /// A copy. An object is shared with the copy (see [`Map`]: one reference more, whatever
    /// it holds); arrays are copied element by element with an explicit stack (no recursion
    /// on depth), the objects in them shared in turn.
    fn clone(&self) -> Json {
        let top = match self {
            Json::Array(a) if !a.is_empty() => CloneFrame {
                source: a.iter(),
                copy: Vec::with_capacity(a.len()),
            },
            _ => return self.clone_flat(),
        };
        let mut stack = vec![top];
        loop {
            let frame = match stack.last_mut() {
                Some(frame) => frame,
                None => return Json::Null, // unreachable: the loop returns on the last pop
            };
            match frame.source.next() {
                Some(Json::Array(a)) if !a.is_empty() => stack.push(CloneFrame {
                    source: a.iter(),
                    copy: Vec::with_capacity(a.len()),
                }),
                Some(child) => frame.copy.push(child.clone_flat()),
                None => {
                    let done = match stack.pop() {
                        Some(frame) => Json::Array(frame.copy),
                        None => return Json::Null,
                    };
                    match stack.last_mut() {
                        Some(parent) => parent.copy.push(done),
                        None => return done,
                    }
                }
            }
        }
    }
}

impl PartialEq for Json {
    /// Equal by content: objects with the same members in any order, numbers by value where
    /// exact (see [`Number`]). Compared with an explicit stack (no recursion on depth).
    fn eq(&self, other: &Json) -> bool {
        let mut pending: Vec<(&Json, &Json)> = Vec::new();
        let (mut a, mut b) = (self, other);
        loop {
            let same = match (a, b) {
                (Json::Null, Json::Null) => true,
                (Json::Bool(x), Json::Bool(y)) => x == y,
                (Json::Number(x), Json::Number(y)) => x == y,
                (Json::String(x), Json::String(y)) => x == y,
                (Json::Array(x), Json::Array(y)) => {
                    pending.extend(x.iter().zip(y.iter()));
                    x.len() == y.len()
                }
                (Json::Object(x), Json::Object(y)) => x.eq_pairs(y, &mut pending),
                _ => false,
            };
            if !same {
                return false;
            }
            match pending.pop() {
                Some((x, y)) => {
                    a = x;
                    b = y;
                }
                None => return true,
            }
        }
    }
}

/// Equality is an equivalence: no [`Number`] is NaN.
impl Eq for Json {}

impl FromStr for Json {
    type Err = Error;

    /// Parses with the default options, as [`parse`](fn@super::parse).
    fn from_str(text: &str) -> Result<Json, Error> {
        super::parse(text)
    }
}

impl Index<&str> for Json {
    type Output = Json;

    /// The member `key` of an object; `null` for a missing key or a value that is not an
    /// object (never panics).
    fn index(&self, key: &str) -> &Json {
        self.get(key).unwrap_or(&NULL)
    }
}

impl Index<usize> for Json {
    type Output = Json;

    /// The element at `index` of an array; `null` when out of range or not an array (never
    /// panics).
    fn index(&self, index: usize) -> &Json {
        self.at(index).unwrap_or(&NULL)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

macro_rules! from_integer {
    ($($t:ty)*) => {$(
        impl From<$t> for Json {
            fn from(n: $t) -> Json {
                Json::Number(Number::from(n))
            }
        }
    )*};
}

from_integer!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

impl From<f64> for Json {
    /// A number; NaN and the infinities, which JSON cannot write, become `null`.
    fn from(f: f64) -> Json {
        Number::from_f64(f).map_or(Json::Null, Json::Number)
    }
}

impl From<f32> for Json {
    /// The `f64` with the same value (so `0.1f32` is `0.10000000149011612`); NaN and the
    /// infinities become `null`.
    fn from(f: f32) -> Json {
        Json::from(f64::from(f))
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::String(s.to_owned())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::String(s)
    }
}

impl From<&String> for Json {
    fn from(s: &String) -> Json {
        Json::String(s.clone())
    }
}

impl From<Cow<'_, str>> for Json {
    fn from(s: Cow<'_, str>) -> Json {
        Json::String(s.into_owned())
    }
}

impl From<Number> for Json {
    fn from(n: Number) -> Json {
        Json::Number(n)
    }
}

impl From<Map> for Json {
    fn from(m: Map) -> Json {
        Json::Object(m)
    }
}

impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(v: Vec<T>) -> Json {
        Json::Array(v.into_iter().map(Into::into).collect())
    }
}

impl<T: Clone + Into<Json>> From<&[T]> for Json {
    fn from(v: &[T]) -> Json {
        Json::Array(v.iter().cloned().map(Into::into).collect())
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    /// The value, or `null` for `None`.
    fn from(v: Option<T>) -> Json {
        v.map_or(Json::Null, Into::into)
    }
}

impl From<()> for Json {
    /// `null`.
    fn from(_: ()) -> Json {
        Json::Null
    }
}

impl<T: Into<Json>> FromIterator<T> for Json {
    /// An array of the items.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Json {
        Json::Array(iter.into_iter().map(Into::into).collect())
    }
}
