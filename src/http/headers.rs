//! Header fields: an ordered list of name/value pairs with case-insensitive lookup, repeated
//! names allowed, and values marked sensitive shown as `***` by `Debug`.

use std::fmt;

use super::credentials::is_credential_name;
use super::error::{Error, ErrorKind};
use crate::quote::{quote, MASK};

/// Header fields in order, names compared without regard to ASCII case.
///
/// Names must be tokens (RFC 9110 section 5.6.2) and values must hold no control character but
/// tab (RFC 9110 section 5.5): CR, LF and NUL are refused before anything is sent, so a value
/// cannot inject a header or end the head early.
///
/// A value can be marked sensitive; a field whose name looks like a credential's
/// ([`is_credential_name`]: `Authorization`, `Cookie`, `X-Api-Key`, ...) always is. `Debug`
/// shows sensitive values as `***`, and so do dry runs unless asked otherwise; redirects to
/// another origin drop them.
///
/// Header values received in a response that are not UTF-8 (obsolete `obs-text`) are kept with
/// U+FFFD in place of the bytes that do not decode.
///
/// # Examples
///
/// ```
/// use httptool::http::Headers;
/// let mut headers = Headers::new();
/// headers.append("Accept", "application/json")?;
/// headers.append_sensitive("X-Api-Key", "s3cret")?;
/// assert_eq!(headers.get("accept"), Some("application/json"));
/// assert_eq!(format!("{headers:?}"), r#"{"Accept": "application/json", "X-Api-Key": "***"}"#);
/// assert!(headers.append("X-Bad", "a\r\nInjected: 1").is_err());
/// # Ok::<(), httptool::http::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct Headers {
    /// Names and values back to back; entries point into it.
    text: String,
    entries: Vec<Entry>,
}

#[derive(Clone, Copy)]
struct Entry {
    start: usize,
    name_len: usize,
    value_len: usize,
    sensitive: bool,
}

/// RFC 9110 section 5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "."
/// / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`.
pub(crate) fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'.'
                | b'^'
                | b'_'
                | b'`'
                | b'|'
                | b'~'
        )
}

/// RFC 9110 section 5.6.2: `token = 1*tchar`. The one rule for header names, methods and
/// the curl reader's `-X` and `-H` names.
pub(crate) fn is_token(text: &str) -> bool {
    !text.is_empty() && all_tchars(text.as_bytes())
}

/// Whether every byte of `bytes` is a [`is_tchar`]. Every check of a run of bytes calls
/// this one loop, or the next, instead of a closure of its own (build cost, see
/// `design::performance`: one compiled copy instead of one per call site).
pub(crate) fn all_tchars(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| is_tchar(b))
}

/// Whether every byte of `bytes` is a [`is_value_byte`].
pub(crate) fn all_value_bytes(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| is_value_byte(b))
}

/// RFC 9110 section 5.5: a field value holds no control characters other than HTAB.
pub(crate) fn is_value_byte(b: u8) -> bool {
    b == b'\t' || (b >= 0x20 && b != 0x7f)
}

pub(crate) fn check_name(name: &str) -> Result<(), Error> {
    if !is_token(name) {
        return Err(Error::new(ErrorKind::InvalidHeaderName).with_detail(quote(name)));
    }
    Ok(())
}

fn check_value(name: &str, value: &str) -> Result<(), Error> {
    if !all_value_bytes(value.as_bytes()) {
        return Err(Error::new(ErrorKind::InvalidHeaderValue).with_detail(quote(name)));
    }
    Ok(())
}

/// Whether values of `name` are sensitive whether or not they were marked so.
pub(crate) fn always_sensitive(name: &str) -> bool {
    is_credential_name(name)
}

impl Headers {
    /// No fields.
    pub fn new() -> Headers {
        Headers::default()
    }

    pub(crate) fn with_capacity(bytes: usize, fields: usize) -> Headers {
        Headers {
            text: String::with_capacity(bytes),
            entries: Vec::with_capacity(fields),
        }
    }

    /// How many fields (a repeated name counts each time).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no fields.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn name_of(&self, e: &Entry) -> &str {
        &self.text[e.start..e.start + e.name_len]
    }

    fn value_of(&self, e: &Entry) -> &str {
        let start = e.start + e.name_len;
        &self.text[start..start + e.value_len]
    }

    /// The first value for `name`, ignoring ASCII case.
    pub fn get(&self, name: &str) -> Option<&str> {
        // Loops here, in `is_sensitive`, `retain` and `eq` rather than closure-driven
        // searches: each compiled its own copy of the iterator code (build cost, see
        // `design::performance`).
        for e in &self.entries {
            if self.name_of(e).eq_ignore_ascii_case(name) {
                return Some(self.value_of(e));
            }
        }
        None
    }

    /// Every value for `name`, in order.
    pub fn get_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.entries
            .iter()
            .filter(move |e| self.name_of(e).eq_ignore_ascii_case(name))
            .map(move |e| self.value_of(e))
    }

    /// Whether a field named `name` is present.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The fields in order, as `(name, value)` with names as they were given.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.entries
            .iter()
            .map(move |e| (self.name_of(e), self.value_of(e)))
    }

    /// The fields in order, with whether each is sensitive.
    pub(crate) fn iter_marked(&self) -> impl Iterator<Item = (&str, &str, bool)> + '_ {
        self.entries.iter().map(move |e| {
            let name = self.name_of(e);
            (
                name,
                self.value_of(e),
                e.sensitive || always_sensitive(name),
            )
        })
    }

    /// Whether values of `name` are shown as `***`: marked so, or named like a credential
    /// ([`is_credential_name`]).
    pub fn is_sensitive(&self, name: &str) -> bool {
        if always_sensitive(name) {
            return true;
        }
        for e in &self.entries {
            if e.sensitive && self.name_of(e).eq_ignore_ascii_case(name) {
                return true;
            }
        }
        false
    }

    /// Adds a field after the others, keeping any with the same name.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidHeaderName`] when `name` is not a token,
    /// [`ErrorKind::InvalidHeaderValue`] when `value` holds a control character other than tab.
    /// The message quotes the name but never the value.
    pub fn append(&mut self, name: &str, value: &str) -> Result<(), Error> {
        self.add(name, value, false)
    }

    /// Adds a field whose value is secret (an API key): `Debug`, dry runs and logs show `***`,
    /// and it is dropped when a redirect leaves the origin.
    ///
    /// # Errors
    ///
    /// As [`append`](Headers::append).
    pub fn append_sensitive(&mut self, name: &str, value: &str) -> Result<(), Error> {
        self.add(name, value, true)
    }

    /// Sets a field, removing every other with the same name.
    ///
    /// # Errors
    ///
    /// As [`append`](Headers::append); the fields are then unchanged.
    pub fn insert(&mut self, name: &str, value: &str) -> Result<(), Error> {
        self.check(name, value)?;
        self.remove(name);
        self.push(name, value, false);
        Ok(())
    }

    /// Sets a sensitive field, removing every other with the same name.
    ///
    /// # Errors
    ///
    /// As [`append`](Headers::append); the fields are then unchanged.
    pub fn insert_sensitive(&mut self, name: &str, value: &str) -> Result<(), Error> {
        self.check(name, value)?;
        self.remove(name);
        self.push(name, value, true);
        Ok(())
    }

    /// Marks every field named `name` sensitive; returns how many there were.
    pub fn mark_sensitive(&mut self, name: &str) -> usize {
        let mut marked = 0;
        for i in 0..self.entries.len() {
            let e = self.entries[i];
            if self.name_of(&e).eq_ignore_ascii_case(name) {
                self.entries[i].sensitive = true;
                marked += 1;
            }
        }
        marked
    }

    /// Removes every field named `name`; returns how many there were.
    pub fn remove(&mut self, name: &str) -> usize {
        self.retain(|n, _| !n.eq_ignore_ascii_case(name))
    }

    /// Keeps the fields for which `keep(name, sensitive)` is true; returns how many were removed.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&str, bool) -> bool) -> usize {
        self.retain_dyn(&mut keep)
    }

    /// [`retain`](Headers::retain) through a trait object: one copy of the loop, not one per
    /// caller's closure (build cost, see `design::performance`).
    fn retain_dyn(&mut self, keep: &mut dyn FnMut(&str, bool) -> bool) -> usize {
        let before = self.entries.len();
        let mut kept = Headers::with_capacity(self.text.len(), before);
        for e in &self.entries {
            let name = self.name_of(e);
            if keep(name, e.sensitive) {
                kept.push(name, self.value_of(e), e.sensitive);
            }
        }
        let removed = before - kept.entries.len();
        if removed > 0 {
            *self = kept;
        }
        removed
    }

    fn check(&self, name: &str, value: &str) -> Result<(), Error> {
        check_name(name)?;
        check_value(name, value)
    }

    fn add(&mut self, name: &str, value: &str, sensitive: bool) -> Result<(), Error> {
        self.check(name, value)?;
        self.push(name, value, sensitive);
        Ok(())
    }

    /// Adds a field already checked (by the caller, or by the response parser).
    pub(crate) fn push(&mut self, name: &str, value: &str, sensitive: bool) {
        let start = self.text.len();
        self.text.push_str(name);
        self.text.push_str(value);
        self.entries.push(Entry {
            start,
            name_len: name.len(),
            value_len: value.len(),
            sensitive,
        });
    }
}

impl fmt::Debug for Headers {
    /// A map of names to values, sensitive values as `***`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        for (name, value, sensitive) in self.iter_marked() {
            map.entry(&name, &if sensitive { MASK } else { value });
        }
        map.finish()
    }
}

impl PartialEq for Headers {
    /// Same fields in the same order (names compared as written); sensitivity is ignored.
    fn eq(&self, other: &Headers) -> bool {
        if self.len() != other.len() {
            return false;
        }
        let mut others = other.entries.iter();
        for e in &self.entries {
            let same = others.next().map_or(false, |o| {
                self.name_of(e) == other.name_of(o) && self.value_of(e) == other.value_of(o)
            });
            if !same {
                return false;
            }
        }
        true
    }
}

impl Eq for Headers {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert!(is_token("POST"));
        assert!(is_token("X-Custom_1.2"));
        assert!(is_token("!#$%&'*+-.^_`|~"));
        assert!(!is_token(""));
        assert!(!is_token("X Y"));
        assert!(!is_token("X:Y"));
        assert!(!is_token("é"));
        assert!(!is_token("a\"b"));
    }

    #[test]
    fn order_case_and_repeats() {
        let mut h = Headers::new();
        h.append("Accept", "a").unwrap();
        h.append("X-Many", "1").unwrap();
        h.append("x-many", "2").unwrap();
        assert_eq!(h.get("X-MANY"), Some("1"));
        assert_eq!(h.get_all("x-many").collect::<Vec<_>>(), ["1", "2"]);
        assert_eq!(h.len(), 3);
        h.insert("X-MANY", "3").unwrap();
        assert_eq!(
            h.iter().collect::<Vec<_>>(),
            [("Accept", "a"), ("X-MANY", "3")]
        );
        assert_eq!(h.remove("accept"), 1);
        assert_eq!(h.remove("accept"), 0);
        assert_eq!(h.len(), 1);
    }

    #[test]
    fn names_must_be_tokens() {
        let mut h = Headers::new();
        for bad in ["", "a b", "a:b", "a\r\nb", "a\0", "caf\u{e9}", "(x)", "a/b"] {
            let err = h.append(bad, "v").unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidHeaderName, "{bad:?}");
        }
        for good in ["X-Api-Key", "!#$%&'*+-.^_`|~09az"] {
            h.append(good, "v").unwrap();
        }
    }

    #[test]
    fn values_refuse_controls_but_tab() {
        let mut h = Headers::new();
        for bad in [
            "a\rb",
            "a\nb",
            "a\0b",
            "\u{7f}",
            "\u{1b}[0m",
            "x\r\nSet-Cookie: a=b",
        ] {
            let err = h.append("X", bad).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidHeaderValue, "{bad:?}");
            assert!(!err.to_string().contains(bad));
        }
        h.append("X", "a\tb c \u{e9}").unwrap();
        h.append("X", "").unwrap();
        assert_eq!(h.len(), 2);
    }

    #[test]
    fn insert_failure_leaves_fields_alone() {
        let mut h = Headers::new();
        h.append("X", "1").unwrap();
        assert!(h.insert("X", "\n").is_err());
        assert_eq!(h.get("x"), Some("1"));
    }

    #[test]
    fn sensitive_values_are_masked() {
        let mut h = Headers::new();
        h.append("Authorization", "Bearer t").unwrap();
        h.append("cookie", "s=1").unwrap();
        h.append("X-Key", "k").unwrap();
        h.append("Accept", "*/*").unwrap();
        assert_eq!(h.mark_sensitive("x-key"), 1);
        let shown = format!("{h:?}");
        assert_eq!(
            shown,
            r#"{"Authorization": "***", "cookie": "***", "X-Key": "***", "Accept": "*/*"}"#
        );
        assert!(h.is_sensitive("AUTHORIZATION"));
        assert!(h.is_sensitive("x-key"));
        assert!(!h.is_sensitive("accept"));
        // Marks survive removal of other fields.
        h.remove("accept");
        assert!(h.is_sensitive("x-key"));
    }

    #[test]
    fn long_names_are_cut_in_messages() {
        let name = "a b".repeat(100);
        let msg = Headers::new().append(&name, "v").unwrap_err().to_string();
        assert!(msg.len() < 200, "{msg}");
        assert!(msg.contains("..."));
    }
}
