//! The strict RFC 8259 parser, driven by an explicit stack (no recursion on depth).

use std::str::FromStr;

use super::error::{Error, Reason};
use super::float_parse::decimal_to_f64;
use super::map::{KeyIndex, INDEX_THRESHOLD};
use super::{Json, Map, Number, DEFAULT_MAX_DEPTH};

/// How to parse: the nesting limit and what to do with duplicate keys.
///
/// # Examples
///
/// ```
/// use httptool::json::{ErrorKind, ParseOptions};
///
/// // Tool arguments from a model: a duplicate key is an error, since the caller cannot know
/// // which value the model meant.
/// let strict = ParseOptions::new().reject_duplicate_keys(true);
/// let err = strict.parse(r#"{"city": "Paris", "city": "Rome"}"#).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::DuplicateKey);
/// assert_eq!(err.to_string(), "duplicate object key at 1:19");
///
/// // A deeper limit for trusted documents.
/// let deep = "[".repeat(200) + &"]".repeat(200);
/// assert!(httptool::json::parse(&deep).is_err());
/// assert!(ParseOptions::new().max_depth(200).parse(&deep).is_ok());
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct ParseOptions {
    max_depth: usize,
    reject_duplicate_keys: bool,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            reject_duplicate_keys: false,
        }
    }
}

impl ParseOptions {
    /// The defaults: nesting limit [`DEFAULT_MAX_DEPTH`], duplicate keys allowed (last wins).
    pub fn new() -> ParseOptions {
        ParseOptions::default()
    }

    /// The deepest nesting of arrays and objects accepted: `[[1]]` has depth 2 and a scalar
    /// depth 0. Deeper input fails with [`ErrorKind::Depth`](super::ErrorKind::Depth).
    /// Defaults to [`DEFAULT_MAX_DEPTH`] (128).
    ///
    /// Nothing recurses on depth (parsing, writing, comparing, cloning, dropping), so a high
    /// limit costs only heap memory while parsing: about 24 bytes for each open array and
    /// 260 for each open object (its duplicate-key filter and the member being read).
    pub fn max_depth(mut self, depth: usize) -> ParseOptions {
        self.max_depth = depth;
        self
    }

    /// Whether a key repeated within one object is an error
    /// ([`ErrorKind::DuplicateKey`](super::ErrorKind::DuplicateKey), positioned at the second
    /// occurrence). Defaults to `false`: the last value wins, at the position of the first
    /// occurrence. RFC 8259 section 4 leaves duplicates undefined; use `true` for tool
    /// arguments from a model.
    pub fn reject_duplicate_keys(mut self, yes: bool) -> ParseOptions {
        self.reject_duplicate_keys = yes;
        self
    }

    /// Parses `text` as one JSON value, surrounded by optional whitespace.
    ///
    /// # Errors
    ///
    /// An [`Error`] at the first problem: anything RFC 8259 does not allow (including a
    /// leading byte order mark and data after the value), nesting deeper than
    /// [`max_depth`](ParseOptions::max_depth), unpaired surrogates in `\u` escapes, and
    /// duplicate keys if [`reject_duplicate_keys`](ParseOptions::reject_duplicate_keys) is on.
    ///
    /// # Security
    ///
    /// Safe on untrusted input: it never panics, never recurses on nesting, and takes linear
    /// time (duplicate-key detection included). Memory is proportional to the input (about
    /// the input size again for typical documents); limit the input size before parsing.
    pub fn parse(&self, text: &str) -> Result<Json, Error> {
        Parser::new(text, self).parse_document()
    }

    /// Parses UTF-8 bytes as [`parse`](ParseOptions::parse) does.
    ///
    /// # Errors
    ///
    /// As [`parse`](ParseOptions::parse), and [`ErrorKind::Utf8`](super::ErrorKind::Utf8)
    /// when the bytes are not valid UTF-8 (RFC 8259 section 8.1), positioned at the first
    /// invalid byte. A UTF-8 byte order mark is refused like in text.
    pub fn parse_bytes(&self, bytes: &[u8]) -> Result<Json, Error> {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.parse(text),
            Err(e) => {
                let valid = bytes.get(..e.valid_up_to()).unwrap_or_default();
                let prefix = std::str::from_utf8(valid).unwrap_or_default();
                if prefix.starts_with('\u{FEFF}') {
                    return Err(Error::new(Reason::ByteOrderMark, prefix, 0));
                }
                Err(Error::new(Reason::InvalidUtf8, prefix, prefix.len()))
            }
        }
    }
}

impl FromStr for Number {
    type Err = Error;

    /// Reads one JSON number (no surrounding whitespace), held as the table on [`Number`]
    /// says.
    ///
    /// # Errors
    ///
    /// An [`Error`] when the text is not exactly one number in JSON's grammar (`+1`, `.5`,
    /// `01`, `1.`, `NaN` and `"1"` are refused).
    fn from_str(text: &str) -> Result<Number, Error> {
        parse_number_text(text)
    }
}

/// Reads exactly one JSON number (for `Number::from_str`).
pub(crate) fn parse_number_text(text: &str) -> Result<Number, Error> {
    let options = ParseOptions::new();
    let mut parser = Parser::new(text, &options);
    match parser.peek() {
        Some(b'-' | b'0'..=b'9') => {}
        _ => return Err(Error::new(Reason::ExpectedNumber, text, 0)),
    }
    let number = parser.parse_number()?;
    if parser.pos < text.len() {
        return Err(Error::new(Reason::TrailingCharacters, text, parser.pos));
    }
    Ok(number)
}

/// An open array or object.
struct Frame {
    is_object: bool,
    /// Where its elements (in `values`) or members (in `members`) start.
    start: usize,
    /// For an object: the index in `members` that receives the current member's value.
    slot: usize,
}

/// Duplicate-key detection for one open object, linear in its size whatever the keys: a
/// Bloom filter while the object is small (a hit costs a scan of at most [`INDEX_THRESHOLD`]
/// keys), a [`KeyIndex`] once it is larger.
struct KeySet {
    /// A 1024-bit Bloom filter of the keys so far (one cheap hash a key).
    bloom: [u64; 16],
    index: Option<KeyIndex>,
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    max_depth: usize,
    reject_duplicate_keys: bool,
    /// Elements of the open arrays, innermost last.
    values: Vec<Json>,
    /// Members of the open objects, innermost last.
    members: Vec<(String, Json)>,
    frames: Vec<Frame>,
    /// One per open object, innermost last.
    key_sets: Vec<KeySet>,
    /// For strings with escapes.
    scratch: String,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, options: &ParseOptions) -> Parser<'a> {
        Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            max_depth: options.max_depth,
            reject_duplicate_keys: options.reject_duplicate_keys,
            values: Vec::new(),
            members: Vec::new(),
            frames: Vec::new(),
            key_sets: Vec::new(),
            scratch: String::new(),
        }
    }

    fn error(&self, reason: Reason, offset: usize) -> Error {
        Error::new(reason, self.text, offset)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// RFC 8259 section 2: `ws = *( %x20 / %x09 / %x0A / %x0D )`.
    fn skip_whitespace(&mut self) {
        let bytes = self.bytes;
        let mut i = self.pos;
        // Pretty-printed input indents with runs of spaces: take eight at a time.
        while let Some(chunk) = bytes.get(i..i + 8) {
            if chunk != b"        " {
                break;
            }
            i += 8;
        }
        while let Some(&b) = bytes.get(i) {
            if !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                break;
            }
            i += 1;
        }
        self.pos = i;
    }

    /// `JSON-text = ws value ws`, with no byte order mark in front (RFC 8259 section 8.1).
    fn parse_document(mut self) -> Result<Json, Error> {
        if self.text.starts_with('\u{FEFF}') {
            return Err(self.error(Reason::ByteOrderMark, 0));
        }
        self.skip_whitespace();
        let value = self.parse_value_tree()?;
        self.skip_whitespace();
        if self.pos < self.bytes.len() {
            return Err(self.error(Reason::TrailingCharacters, self.pos));
        }
        Ok(value)
    }

    /// Parses one value starting at `pos` (whitespace skipped), containers included.
    fn parse_value_tree(&mut self) -> Result<Json, Error> {
        loop {
            // A scalar goes straight into its container; a container opens, and its first
            // child is next. At the top level, the value is the document.
            let top = match self.peek() {
                Some(b'[') => {
                    if self.open_array()? {
                        continue;
                    }
                    self.put(Json::Array(Vec::new()))
                }
                Some(b'{') => {
                    if self.open_object()? {
                        continue;
                    }
                    self.put(Json::Object(Map::new()))
                }
                Some(b'"') => {
                    let s = self.parse_string()?;
                    self.put(Json::String(s))
                }
                Some(b'-' | b'0'..=b'9') => {
                    let n = self.parse_number()?;
                    self.put(Json::Number(n))
                }
                Some(b't') => {
                    self.parse_literal(b"true", Reason::ExpectedTrue)?;
                    self.put(Json::Bool(true))
                }
                Some(b'f') => {
                    self.parse_literal(b"false", Reason::ExpectedFalse)?;
                    self.put(Json::Bool(false))
                }
                Some(b'n') => {
                    self.parse_literal(b"null", Reason::ExpectedNull)?;
                    self.put(Json::Null)
                }
                _ => return Err(self.error(Reason::ExpectedValue, self.pos)),
            };
            if let Some(document) = top {
                return Ok(document);
            }
            if let Some(document) = self.after_value()? {
                return Ok(document);
            }
        }
    }

    /// Hands a complete value to the innermost open container, or gives it back when there is
    /// none (it is the whole document). Inlined into each caller: faster than one shared call
    /// (measured, `design::performance`).
    #[inline(always)]
    fn put(&mut self, value: Json) -> Option<Json> {
        match self.frames.last() {
            None => Some(value),
            Some(frame) if frame.is_object => {
                if let Some(member) = self.members.get_mut(frame.slot) {
                    member.1 = value;
                }
                None
            }
            Some(_) => {
                self.values.push(value);
                None
            }
        }
    }

    /// After a value inside a container: moves to the next value (past the `,`, and past the
    /// key in an object), closing the containers that end here. Returns the document when
    /// the outermost one closes.
    fn after_value(&mut self) -> Result<Option<Json>, Error> {
        loop {
            let is_object = match self.frames.last() {
                Some(frame) => frame.is_object,
                None => return Ok(None),
            };
            self.skip_whitespace();
            let closed = match (self.peek(), is_object) {
                (Some(b','), _) => {
                    self.pos += 1;
                    self.skip_whitespace();
                    if is_object {
                        self.parse_member_key()?;
                    }
                    return Ok(None);
                }
                (Some(b']'), false) => {
                    self.pos += 1;
                    self.close_array()
                }
                (Some(b'}'), true) => {
                    self.pos += 1;
                    self.close_object()
                }
                (_, false) => return Err(self.error(Reason::ExpectedArrayCommaOrEnd, self.pos)),
                (_, true) => return Err(self.error(Reason::ExpectedObjectCommaOrEnd, self.pos)),
            };
            if let Some(document) = self.put(closed) {
                return Ok(Some(document));
            }
        }
    }

    fn check_depth(&self) -> Result<(), Error> {
        if self.frames.len() >= self.max_depth {
            return Err(self
                .error(Reason::TooDeep, self.pos)
                .with_limit(self.max_depth));
        }
        Ok(())
    }

    /// At `[`: opens the array. Returns `false` for `[]` (consumed), `true` when a first
    /// element follows (at `pos`).
    fn open_array(&mut self) -> Result<bool, Error> {
        self.check_depth()?;
        self.pos += 1;
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(false);
        }
        self.frames.push(Frame {
            is_object: false,
            start: self.values.len(),
            slot: 0,
        });
        Ok(true)
    }

    /// At `{`: opens the object and reads its first key. Returns `false` for `{}`.
    fn open_object(&mut self) -> Result<bool, Error> {
        self.check_depth()?;
        self.pos += 1;
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(false);
        }
        self.frames.push(Frame {
            is_object: true,
            start: self.members.len(),
            slot: 0,
        });
        self.key_sets.push(KeySet {
            bloom: [0; 16],
            index: None,
        });
        self.parse_member_key()?;
        Ok(true)
    }

    fn close_array(&mut self) -> Json {
        let start = self.frames.pop().map_or(0, |f| f.start);
        Json::Array(take_tail(&mut self.values, start))
    }

    fn close_object(&mut self) -> Json {
        let start = self.frames.pop().map_or(0, |f| f.start);
        self.key_sets.pop();
        Json::Object(Map::from_unique_entries(take_tail(
            &mut self.members,
            start,
        )))
    }

    /// `member = string name-separator value`: reads the key and the `:`, and sets the
    /// innermost frame's slot for the value.
    fn parse_member_key(&mut self) -> Result<(), Error> {
        if self.peek() != Some(b'"') {
            return Err(self.error(Reason::ExpectedKey, self.pos));
        }
        let key_offset = self.pos;
        let key = self.parse_string()?;
        let slot = match self.find_duplicate(&key) {
            Some(_) if self.reject_duplicate_keys => {
                return Err(self.error(Reason::DuplicateKey, key_offset));
            }
            // Last value wins, at the first occurrence's position.
            Some(existing) => existing,
            None => {
                self.members.push((key, Json::Null));
                self.members.len() - 1
            }
        };
        if let Some(frame) = self.frames.last_mut() {
            frame.slot = slot;
        }
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(self.error(Reason::ExpectedColon, self.pos));
        }
        self.pos += 1;
        self.skip_whitespace();
        Ok(())
    }

    /// The index in `members` of an earlier member of the innermost object named `key`,
    /// recording `key` (as the next member) when there is none.
    fn find_duplicate(&mut self, key: &str) -> Option<usize> {
        let start = self.frames.last().map_or(0, |f| f.start);
        let members = self.members.get(start..).unwrap_or_default();
        let set = self.key_sets.last_mut()?;
        if set.index.is_none() && members.len() >= INDEX_THRESHOLD {
            set.index = Some(KeyIndex::new(members));
        }
        if let Some(index) = &mut set.index {
            return index.find_or_insert(members, key).map(|i| start + i);
        }
        let h = quick_hash(key.as_bytes());
        let (word, bit) = (h >> 6, 1u64 << (h & 63));
        let seen = set.bloom.get_mut(word)?;
        if *seen & bit == 0 {
            *seen |= bit;
            return None;
        }
        members
            .iter()
            .position(|(k, _)| k == key)
            .map(|i| start + i)
    }

    /// At `"`: reads a string (RFC 8259 section 7).
    fn parse_string(&mut self) -> Result<String, Error> {
        let start = self.pos + 1;
        let end = skip_unescaped(self.bytes, start);
        match self.bytes.get(end) {
            Some(b'"') => {
                self.pos = end + 1;
                Ok(self.text.get(start..end).unwrap_or_default().to_owned())
            }
            Some(b'\\') => self.parse_escaped_string(start, end),
            Some(_) => Err(self.error(Reason::ControlCharacter, end)),
            None => Err(self.error(Reason::UnclosedString, end)),
        }
    }

    /// The slow path of [`parse_string`](Self::parse_string): `start` is the first content byte, `i` the first
    /// backslash.
    fn parse_escaped_string(&mut self, start: usize, mut i: usize) -> Result<String, Error> {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        out.push_str(self.text.get(start..i).unwrap_or_default());
        loop {
            match self.bytes.get(i) {
                Some(b'"') => break,
                Some(b'\\') => i = self.unescape(i, &mut out)?,
                Some(_) => return Err(self.error(Reason::ControlCharacter, i)),
                None => return Err(self.error(Reason::UnclosedString, i)),
            }
            let end = skip_unescaped(self.bytes, i);
            out.push_str(self.text.get(i..end).unwrap_or_default());
            i = end;
        }
        self.pos = i + 1;
        // A copy of exactly the string's size; the scratch buffer is kept for the next one.
        let s = out.as_str().to_owned();
        self.scratch = out;
        Ok(s)
    }

    /// At the `\` at `i`: appends the escaped character and returns the index after the
    /// escape.
    fn unescape(&self, i: usize, out: &mut String) -> Result<usize, Error> {
        let c = match self.bytes.get(i + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => return self.unescape_unicode(i, out),
            Some(_) => return Err(self.error(Reason::InvalidEscape, i)),
            None => return Err(self.error(Reason::UnclosedString, i + 1)),
        };
        out.push(c);
        Ok(i + 2)
    }

    /// At `\u` at `i`: one code point, or a UTF-16 surrogate pair written as two escapes.
    fn unescape_unicode(&self, i: usize, out: &mut String) -> Result<usize, Error> {
        let first = self.hex4(i)?;
        let (code, next) = match first {
            0xD800..=0xDBFF => {
                // A high surrogate must be followed by `\u` and a low surrogate.
                match (self.bytes.get(i + 6), self.bytes.get(i + 7)) {
                    (Some(b'\\'), Some(b'u')) => {}
                    (None, _) | (Some(b'\\'), None) => {
                        return Err(self.error(Reason::UnclosedString, self.bytes.len()))
                    }
                    _ => return Err(self.error(Reason::UnpairedSurrogate, i)),
                }
                let second = self.hex4(i + 6)?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error(Reason::UnpairedSurrogate, i));
                }
                (
                    0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00),
                    i + 12,
                )
            }
            0xDC00..=0xDFFF => return Err(self.error(Reason::UnpairedSurrogate, i)),
            _ => (first, i + 6),
        };
        match char::from_u32(code) {
            Some(c) => out.push(c),
            None => return Err(self.error(Reason::UnpairedSurrogate, i)),
        }
        Ok(next)
    }

    /// The four hex digits after the `\u` at `i`.
    fn hex4(&self, i: usize) -> Result<u32, Error> {
        let mut code = 0;
        for k in i + 2..i + 6 {
            let digit = match self.bytes.get(k) {
                Some(&b) => char::from(b).to_digit(16),
                None => return Err(self.error(Reason::UnclosedString, self.bytes.len())),
            };
            match digit {
                Some(d) => code = code * 16 + d,
                None => return Err(self.error(Reason::ShortUnicodeEscape, i)),
            }
        }
        Ok(code)
    }

    /// `true`, `false` or `null` at `pos`.
    fn parse_literal(&mut self, word: &[u8], reason: Reason) -> Result<(), Error> {
        let end = self.pos + word.len();
        if self.bytes.get(self.pos..end) == Some(word) {
            self.pos = end;
            return Ok(());
        }
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        if rest.len() < word.len() && word.starts_with(rest) {
            return Err(Error::new_eof(reason, self.text, self.pos));
        }
        Err(self.error(reason, self.pos))
    }

    /// A number at `pos` (RFC 8259 section 6):
    /// `[ minus ] int [ frac ] [ exp ]`, `int = zero / ( digit1-9 *DIGIT )`,
    /// `frac = "." 1*DIGIT`, `exp = ("e" / "E") [ "-" / "+" ] 1*DIGIT`.
    // Inlined: the result no longer makes a round trip through memory as a `Result`, which
    // number-heavy documents feel (measured, `design::performance`).
    #[inline(always)]
    fn parse_number(&mut self) -> Result<Number, Error> {
        let bytes = self.bytes;
        let start = self.pos;
        let mut i = start;
        let negative = bytes.get(i) == Some(&b'-');
        i += usize::from(negative);

        // Significant digits accumulate in `w` (exact while `digits <= 19`).
        let mut w: u64 = 0;
        let mut digits = 0usize;
        match bytes.get(i) {
            Some(b'0') => {
                i += 1;
                if let Some(b'0'..=b'9') = bytes.get(i) {
                    return Err(self.error(Reason::LeadingZero, i));
                }
            }
            Some(b'1'..=b'9') => {
                while let Some(v) = eight_digits(bytes, i) {
                    w = w.wrapping_mul(100_000_000).wrapping_add(v);
                    digits += 8;
                    i += 8;
                }
                while let Some(&d) = bytes.get(i) {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    w = w.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
                    digits += 1;
                    i += 1;
                }
            }
            _ => return Err(self.error(Reason::DigitAfterMinus, i)),
        }

        let mut is_float = false;
        let mut fraction_digits: i64 = 0;
        if bytes.get(i) == Some(&b'.') {
            is_float = true;
            i += 1;
            let fraction_start = i;
            // Once a significant digit is in, every digit is significant: eight at a time.
            while w != 0 {
                match eight_digits(bytes, i) {
                    Some(v) => {
                        w = w.wrapping_mul(100_000_000).wrapping_add(v);
                        digits += 8;
                        fraction_digits += 8;
                        i += 8;
                    }
                    None => break,
                }
            }
            while let Some(&d) = bytes.get(i) {
                if !d.is_ascii_digit() {
                    break;
                }
                // Leading zeros of a fraction ("0.001") shift the exponent but are not
                // significant digits.
                if w != 0 || d != b'0' {
                    w = w.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
                    digits += 1;
                }
                fraction_digits += 1;
                i += 1;
            }
            if i == fraction_start {
                return Err(self.error(Reason::DigitAfterPoint, i));
            }
        }

        let mut exponent: i64 = 0;
        if let Some(b'e' | b'E') = bytes.get(i) {
            is_float = true;
            i += 1;
            let negative_exponent = bytes.get(i) == Some(&b'-');
            if let Some(b'-' | b'+') = bytes.get(i) {
                i += 1;
            }
            let exponent_start = i;
            while let Some(&d) = bytes.get(i) {
                if !d.is_ascii_digit() {
                    break;
                }
                // Beyond a million the value is 0 or infinite anyway: stop growing.
                if exponent < 1_000_000 {
                    exponent = exponent * 10 + i64::from(d - b'0');
                }
                i += 1;
            }
            if i == exponent_start {
                return Err(self.error(Reason::DigitInExponent, i));
            }
            if negative_exponent {
                exponent = -exponent;
            }
        }
        self.pos = i;
        let text = self.text.get(start..i).unwrap_or_default();

        if !is_float {
            return Ok(integer(negative, w, digits, text));
        }
        let q = (exponent - fraction_digits).clamp(-1_000_000, 1_000_000) as i32;
        let magnitude = match digits {
            0..=19 => decimal_to_f64(w, q),
            _ => None,
        };
        // Whatever the fast paths cannot decide exactly, std's correctly rounded parser does
        // (the text is valid JSON, which Rust's float syntax accepts).
        let value = match magnitude {
            Some(m) if negative => -m,
            Some(m) => m,
            None => text.parse::<f64>().unwrap_or(f64::INFINITY),
        };
        // Out of f64's range (overflow, or a non-zero value that underflows to zero): keep
        // the text so nothing is lost.
        if value.is_infinite() || (value == 0.0 && digits > 0) {
            return Ok(Number::from_text(text));
        }
        Ok(Number::from_finite(value))
    }
}

/// Moves the items of `stack` from `start` on into a vector of exactly their number, in one
/// copy (collecting a `drain` moves them one by one, which showed in profiles).
fn take_tail<T>(stack: &mut Vec<T>, start: usize) -> Vec<T> {
    if start == 0 {
        // `split_off(0)` hands over the whole buffer, spare capacity included, on some
        // versions of std: copy instead, and keep the buffer for the next container.
        let mut all = Vec::with_capacity(stack.len());
        all.append(stack);
        return all;
    }
    stack.split_off(start.min(stack.len()))
}

/// An integer written without fraction or exponent: exact when it fits, its text otherwise.
fn integer(negative: bool, w: u64, digits: usize, text: &str) -> Number {
    let exact = match digits {
        0..=19 => Some(w),
        // 20 digits may still fit u64.
        20 => crate::decimal::parse(text.trim_start_matches('-').as_bytes()),
        _ => None,
    };
    exact
        .and_then(|w| Number::from_parts(negative, w))
        .unwrap_or_else(|| Number::from_text(text))
}

/// The value of the eight ASCII digits at `i`, if the eight bytes there are all digits.
/// One 64-bit word does the work of eight steps (Lemire, "Number Parsing at a Gigabyte per
/// Second", section 8): check the bytes, then merge digit pairs, quads and octets.
fn eight_digits(bytes: &[u8], i: usize) -> Option<u64> {
    let chunk = bytes.get(i..i + 8)?;
    let x = load_u64(chunk);
    // Every byte is 0x30..=0x39: its high nibble is 3, and adding 6 does not carry into it.
    let all_digits = (x & 0xF0F0_F0F0_F0F0_F0F0)
        | ((x.wrapping_add(0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4);
    if all_digits != 0x3333_3333_3333_3333 {
        return None;
    }
    let x = x - 0x3030_3030_3030_3030;
    // The first digit is in the lowest byte: each step multiplies the earlier (lower) lane.
    let x = (x * 10 + (x >> 8)) & 0x00FF_00FF_00FF_00FF;
    let x = (x * 100 + (x >> 16)) & 0x0000_FFFF_0000_FFFF;
    Some((x * 10_000 + (x >> 32)) & 0xFFFF_FFFF)
}

/// A cheap 10-bit hash for the Bloom filter (length, first and last eight bytes). Not
/// collision resistant, which is why large objects switch to a [`KeyIndex`].
fn quick_hash(key: &[u8]) -> usize {
    let (head, tail) = match (key.get(..8), key.get(key.len().saturating_sub(8)..)) {
        (Some(head), Some(tail)) => (load_u64(head), load_u64(tail)),
        // Shorter than eight bytes: the whole key, zero-padded.
        _ => {
            let mut word = [0u8; 8];
            for (dst, &b) in word.iter_mut().zip(key) {
                *dst = b;
            }
            let whole = u64::from_le_bytes(word);
            (whole, whole)
        }
    };
    let h = (head ^ tail.rotate_left(29) ^ key.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 54) as usize
}

/// The first eight bytes of `bytes` (at least eight long) as a little-endian u64.
fn load_u64(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    if let Some(src) = bytes.get(..8) {
        word.copy_from_slice(src);
    }
    u64::from_le_bytes(word)
}

/// The index of the first byte at or after `i` that ends a run of plain string content:
/// `"`, `\`, a control character, or the end. Eight bytes at a time while none does.
fn skip_unescaped(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let special = has_zero(x ^ (ONES * u64::from(b'"')))
            | has_zero(x ^ (ONES * u64::from(b'\\')))
            | (x.wrapping_sub(ONES * 0x20) & !x & HIGHS);
        if special != 0 {
            // The lowest flagged byte is the first special one (flags above a true hit may
            // be spurious, never below it).
            return i + (special.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            return i;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_digits_at_once() {
        let table: &[(&str, &[u8], Option<u64>)] = &[
            ("all digits", b"12345678", Some(12_345_678)),
            ("leading zeros", b"00000001", Some(1)),
            ("nines", b"99999999", Some(99_999_999)),
            ("zeros", b"00000000", Some(0)),
            ("longer input", b"123456789", Some(12_345_678)),
            ("short input", b"1234567", None),
            ("point inside", b"1234.678", None),
            ("colon (0x3A)", b"1234567:", None),
            ("slash (0x2F)", b"/2345678", None),
            ("high byte", b"1234567\xFA", None),
            ("letter", b"1234e678", None),
        ];
        for &(name, bytes, value) in table {
            assert_eq!(eight_digits(bytes, 0), value, "{name}");
        }
        assert_eq!(eight_digits(b"x12345678", 1), Some(12_345_678));
    }

    #[test]
    fn quick_hash_reads_short_and_long_keys() {
        assert_eq!(quick_hash(b""), quick_hash(b""));
        assert!(quick_hash(b"abcdefghijkl") < 1024);
        assert_ne!(quick_hash(b"a"), quick_hash(b"b"));
        assert_ne!(quick_hash(b"abcdefgh1"), quick_hash(b"abcdefgh12"));
    }
}
