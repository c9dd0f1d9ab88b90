//! The writer: compact and pretty JSON, from an explicit stack (no recursion on depth).

use std::fmt;
use std::io;

use super::float_format::{format_f64, push_ascii, BUF_LEN};
use super::scan::{
    bytes_equal, first_flagged, not_plain_ascii, skip_plain_ascii, string_ends, word, word_at,
};
use super::{Json, Map, Number};

/// Writing a value, as methods: each hands over to this file's writer.
impl Json {
    /// The value as pretty JSON: two-space indent, one element or member a line, `"key": value`,
    /// and `[]` / `{}` for empty containers (the layout of serde_json's pretty printer).
    ///
    /// # Examples
    ///
    /// ```
    /// let v = httptool::json!({"a": [1, 2], "b": {}});
    /// assert_eq!(v.to_pretty(), "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}");
    /// ```
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        write_pretty(self, &mut out);
        out
    }

    /// Writes the value as pretty JSON (exactly what [`to_pretty`](Json::to_pretty)
    /// returns) to `out`, a chunk of about 16 KiB at a time, so a large document is never
    /// held whole as text (`httptool import openapi` prints a 45 MB plugin file this way).
    /// `out` is not flushed.
    ///
    /// # Errors
    ///
    /// The first error `out` returns; nothing more is written after it.
    ///
    /// # Examples
    ///
    /// ```
    /// let v = httptool::json!({"a": [1, 2], "b": {}});
    /// let mut out: Vec<u8> = Vec::new();
    /// v.write_pretty_io(&mut out)?;
    /// assert_eq!(out, v.to_pretty().as_bytes());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_pretty_io(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write_pretty_io(self, out)
    }

    /// Appends the value as compact JSON to `out` (what `Display` and `to_string()` write).
    pub fn write_to(&self, out: &mut String) {
        write_compact(self, out);
    }

    /// The length of [`Json::write_to`]'s text, counted without keeping it (tool sizes and
    /// limits measure whole schemas this way, once per tool; YAML measures a collection used
    /// as a key before it writes it).
    #[cfg(any(feature = "tool", feature = "yaml"))]
    pub(crate) fn compact_len(&self) -> usize {
        compact_len(self)
    }

    /// [`compact_len`](Json::compact_len), counting each object shared with values measured
    /// before (by its allocation, in `sizes`) once: the caller keeps them all alive while
    /// `sizes` lives.
    #[cfg(feature = "tool")]
    pub(crate) fn compact_len_sharing(
        &self,
        sizes: &mut std::collections::HashMap<usize, usize>,
    ) -> usize {
        compact_len_sharing(self, sizes)
    }
}

impl fmt::Display for Json {
    /// Compact JSON: no whitespace, members in order, strings escaped as
    /// [`write_str`] describes, numbers as [`Number`] describes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        display(self, f)
    }
}

impl fmt::Debug for Json {
    /// Compact JSON (`{:#?}`: pretty JSON), so test failures show readable values.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            display_pretty(self, f)
        } else {
            display(self, f)
        }
    }
}

impl fmt::Debug for Map {
    /// Writes the map as compact JSON (pretty with `{:#?}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_map(self, f)
    }
}

/// Chunks of this size go to a formatter or a byte stream: small enough to stay in the
/// L1/L2 cache, large enough that the target's per-call cost does not show.
const CHUNK: usize = 16 * 1024;

/// Where a [`Sink`]'s text ends up.
enum Target<'a, 'b> {
    /// It stays in the sink's buffer, which is the caller's string (taken and given back).
    Buffer,
    /// A formatter (`Display`, `{:#?}`), fed in chunks.
    Formatter(&'a mut fmt::Formatter<'b>),
    /// A byte stream ([`Json::write_pretty_io`]), fed in chunks.
    Io(&'a mut dyn io::Write),
}

/// Where the writer's text goes: one concrete type for every destination, so the writer
/// is compiled once for each layout rather than once for each destination too (a writer
/// generic over its sink cost a copy of every function per sink type; build cost, see
/// `design::performance`).
struct Sink<'a, 'b> {
    buf: String,
    target: Target<'a, 'b>,
    /// The buffer's length at which it goes to the target: [`CHUNK`], or never for
    /// [`Target::Buffer`] (one comparison at each checkpoint either way).
    chunk: usize,
    /// Whether the target failed; once it did, nothing more is handed over.
    failed: bool,
    /// The byte stream's error, when it was one that failed.
    io_error: Option<io::Error>,
}

impl<'a, 'b> Sink<'a, 'b> {
    /// A sink with an empty buffer. The chunk grows as the value needs it: most values
    /// shown are small (a key's scalar, an error's value), and a chunk reserved up front
    /// would cost each of them 17 KB.
    fn new(target: Target<'a, 'b>) -> Sink<'a, 'b> {
        Sink::with_buffer(String::new(), target)
    }

    fn with_buffer(buf: String, target: Target<'a, 'b>) -> Sink<'a, 'b> {
        let chunk = match target {
            Target::Buffer => usize::MAX,
            _ => CHUNK,
        };
        Sink {
            buf,
            target,
            chunk,
            failed: false,
            io_error: None,
        }
    }

    fn send(&mut self, text: &str) {
        if self.failed {
            return;
        }
        let result = match &mut self.target {
            Target::Buffer => Ok(()),
            Target::Formatter(f) => f.write_str(text).map_err(|_| None),
            Target::Io(w) => w.write_all(text.as_bytes()).map_err(Some),
        };
        if let Err(e) = result {
            self.failed = true;
            self.io_error = e;
        }
    }

    /// Called after each flush of the staged bytes: a full chunk goes to the target. Every
    /// value but a lone string is followed by staged punctuation, so a chunk never grows
    /// much past [`CHUNK`] (by one string and one staging area at most).
    fn checkpoint(&mut self) {
        if self.buf.len() >= self.chunk {
            let chunk = std::mem::take(&mut self.buf);
            self.send(&chunk);
            // The same allocation serves the next chunk.
            self.buf = chunk;
            self.buf.clear();
        }
    }

    /// Takes the writer's staged ASCII bytes (a kilobyte at a time, or what there is before
    /// a string written directly). They go to a formatter or a stream directly when nothing
    /// waits in the chunk before them (a number-heavy document): one copy fewer.
    fn take_staged(&mut self, bytes: &[u8]) {
        if !self.buf.is_empty() || bytes.len() < 256 || matches!(self.target, Target::Buffer) {
            push_ascii(&mut self.buf, bytes);
            return;
        }
        // ASCII by construction, so this never takes the error branch.
        if let Ok(text) = std::str::from_utf8(bytes) {
            self.send(text);
        }
    }

    /// Hands over what is left in the chunk.
    fn finish(mut self) -> Result<(), Option<io::Error>> {
        let rest = std::mem::take(&mut self.buf);
        self.send(&rest);
        if self.failed {
            Err(self.io_error)
        } else {
            Ok(())
        }
    }
}

/// Writes `root` to `target`, pretty or compact.
fn write_to(root: Root<'_>, target: Target<'_, '_>, pretty: bool) -> Result<(), Option<io::Error>> {
    let mut sink = Sink::new(target);
    Writer::new(&mut sink, 0).write(root, pretty);
    sink.finish()
}

/// Appends `root` to `out`, pretty or compact; pretty, as it reads nested `depth` levels deep.
fn append(root: Root<'_>, out: &mut String, pretty: bool, depth: usize) {
    let mut sink = Sink::with_buffer(std::mem::take(out), Target::Buffer);
    Writer::new(&mut sink, depth).write(root, pretty);
    *out = sink.buf;
}

/// Writes `value` as compact JSON to a formatter (`Display`, and `Debug` without `#`).
pub(crate) fn display(value: &Json, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    write_to(Root::Value(value), Target::Formatter(f), false).map_err(|_| fmt::Error)
}

/// Writes `value` as pretty JSON to a formatter (`{:#?}`), in chunks.
pub(crate) fn display_pretty(value: &Json, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    write_to(Root::Value(value), Target::Formatter(f), true).map_err(|_| fmt::Error)
}

/// Writes `value` as pretty JSON to a byte stream, in chunks of about [`CHUNK`] bytes: a
/// large document is never held whole as text.
pub(crate) fn write_pretty_io(value: &Json, out: &mut dyn io::Write) -> io::Result<()> {
    // Only the byte stream fails with an error of its own; `None` cannot happen here.
    write_to(Root::Value(value), Target::Io(out), true)
        .map_err(|e| e.unwrap_or_else(|| io::Error::new(io::ErrorKind::Other, "write failed")))
}

/// `Debug` for a map: compact JSON, or pretty JSON with `{:#?}`.
pub(crate) fn debug_map(map: &Map, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let pretty = f.alternate();
    write_to(Root::Map(map), Target::Formatter(f), pretty).map_err(|_| fmt::Error)
}

/// Appends `value` as compact JSON.
pub(crate) fn write_compact(value: &Json, out: &mut String) {
    append(Root::Value(value), out, false, 0);
}

/// The length in bytes of `value` as compact JSON (exactly `value.to_string().len()`),
/// counted without writing it: strings are scanned for what [`write_str`] escapes, and only
/// numbers are written (to a scratch buffer). An explicit stack, so any depth is safe.
#[cfg(any(feature = "tool", feature = "yaml"))]
pub(crate) fn compact_len(value: &Json) -> usize {
    let mut total = 0;
    let mut scratch = String::new();
    let mut stack: Vec<&Json> = vec![value];
    while let Some(value) = stack.pop() {
        total += match value {
            Json::Null => 4,
            Json::Bool(true) => 4,
            Json::Bool(false) => 5,
            Json::Number(_) => {
                scratch.clear();
                write_compact(value, &mut scratch);
                scratch.len()
            }
            Json::String(s) => str_len(s),
            // Brackets and the commas between elements.
            Json::Array(items) => {
                stack.extend(items.iter());
                2 + items.len().saturating_sub(1)
            }
            // Braces, commas, and each member's key and colon.
            Json::Object(map) => {
                let mut own = 2 + map.len().saturating_sub(1);
                for (key, member) in map.iter() {
                    own += str_len(key) + 1;
                    stack.push(member);
                }
                own
            }
        };
    }
    total
}

/// [`compact_len`] of many values that share objects (the `$defs` entries every tool of a
/// plugin reaches): each shared object's length is counted once and then found in `sizes`,
/// by its allocation ([`Map::shared_id`]), so the values cost their own members, not the
/// shared ones again. The ids are only meaningful while the values are alive: the caller
/// keeps `sizes` no longer than them.
#[cfg(feature = "tool")]
pub(crate) fn compact_len_sharing(
    value: &Json,
    sizes: &mut std::collections::HashMap<usize, usize>,
) -> usize {
    let mut total = 0;
    let mut stack: Vec<&Json> = vec![value];
    while let Some(value) = stack.pop() {
        total += match value {
            Json::Object(map) if map.is_shared() => match map.shared_id() {
                Some(id) => *sizes.entry(id).or_insert_with(|| compact_len(value)),
                None => compact_len(value),
            },
            Json::Array(items) => {
                stack.extend(items.iter());
                2 + items.len().saturating_sub(1)
            }
            Json::Object(map) => {
                let mut own = 2 + map.len().saturating_sub(1);
                for (key, member) in map.iter() {
                    own += str_len(key) + 1;
                    stack.push(member);
                }
                own
            }
            other => compact_len(other),
        };
    }
    total
}

/// The length of `s` as [`write_str`] writes it, quotes included.
#[cfg(any(feature = "tool", feature = "yaml"))]
fn str_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut len = bytes.len() + 2;
    let mut i = 0;
    loop {
        i = skip_plain(bytes, i);
        let b = match bytes.get(i) {
            Some(&b) => b,
            None => return len,
        };
        match b {
            b'"' | b'\\' | b'\n' | b'\t' | b'\r' | 0x08 | 0x0C => len += 1,
            // `\u00XX` for one byte.
            0x00..=0x1F => len += 5,
            // U+2028 and U+2029 (E2 80 A8, E2 80 A9) become `\u2028`, `\u2029`.
            _ => {
                if let Some([0x80, 0xA8 | 0xA9]) = bytes.get(i + 1..i + 3) {
                    len += 3;
                    i += 2;
                }
            }
        }
        i += 1;
    }
}

/// Appends `value` as pretty JSON (two-space indent).
pub(crate) fn write_pretty(value: &Json, out: &mut String) {
    append(Root::Value(value), out, true, 0);
}

/// Appends `value` as pretty JSON as it reads nested `depth` levels deep in a larger pretty
/// document: every line after its first indented `depth` levels more.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) fn write_pretty_nested(value: &Json, depth: usize, out: &mut String) {
    append(Root::Value(value), out, true, depth);
}

enum Root<'a> {
    Value(&'a Json),
    Map(&'a Map),
}

/// An open array or object: the children not yet written.
enum Frame<'a> {
    Array(std::slice::Iter<'a, Json>),
    Object(std::slice::Iter<'a, (String, Json)>),
}

/// Whether `elements` is not empty and holds only doubles.
fn is_doubles(elements: &[Json]) -> bool {
    !elements.is_empty() && elements.iter().all(|e| as_double(e).is_some())
}

/// The double a value holds, if it is a number held as one.
fn as_double(value: &Json) -> Option<f64> {
    match value {
        Json::Number(n) => n.as_double(),
        _ => None,
    }
}

/// Stages the byte `b` at `at` (the caller made room); returns the new length.
#[inline]
fn stage_byte(stage: &mut [u8; STAGE], at: usize, b: u8) -> usize {
    match stage.get_mut(at) {
        Some(slot) => {
            *slot = b;
            at + 1
        }
        None => at,
    }
}

/// Stages the byte `before` and then `f` at `at` (the caller made room); returns the new
/// length.
#[inline]
fn stage_double(stage: &mut [u8; STAGE], at: usize, before: u8, f: f64) -> usize {
    let at = stage_byte(stage, at, before);
    match slot(stage, at) {
        Some(slot) => at + format_f64(f, slot),
        None => at,
    }
}

/// The `BUF_LEN` bytes of `stage` from `at`, where a double is formatted.
fn slot(stage: &mut [u8; STAGE], at: usize) -> Option<&mut [u8; BUF_LEN]> {
    stage
        .get_mut(at..at + BUF_LEN)
        .and_then(|slot| <&mut [u8; BUF_LEN]>::try_from(slot).ok())
}

/// Size of the staging area for ASCII output.
const STAGE: usize = 1024;

/// Keys up to this length go through the staging area when they are plain ASCII.
const SHORT_STRING: usize = 64;

/// Writes JSON text to a sink.
///
/// Punctuation, numbers, and keys that are short plain ASCII (nearly all keys) are formatted
/// straight into a staging array of bytes, which moves to the `String` when it fills up or
/// before a string that is written directly (string values, and other keys). Safe Rust
/// cannot append bytes to a `String` without a UTF-8 check; this way one check covers a
/// kilobyte of output instead of each number and key paying a call and a check of its own.
struct Writer<'s, 't, 'f> {
    sink: &'s mut Sink<'t, 'f>,
    stage: [u8; STAGE],
    staged: usize,
    /// The levels of the pretty document around the value written (0 for a whole
    /// document): each line break indents by them too.
    outer_depth: usize,
}

impl<'s, 't, 'f> Writer<'s, 't, 'f> {
    fn new(sink: &'s mut Sink<'t, 'f>, outer_depth: usize) -> Writer<'s, 't, 'f> {
        Writer {
            sink,
            stage: [0; STAGE],
            staged: 0,
            outer_depth,
        }
    }

    /// Moves the staged bytes to the sink's string.
    #[inline]
    fn flush(&mut self) {
        // The check is inline; the move is not.
        if self.staged > 0 {
            self.move_staged();
        }
    }

    #[inline(never)]
    fn move_staged(&mut self) {
        self.sink
            .take_staged(self.stage.get(..self.staged).unwrap_or_default());
        self.staged = 0;
        self.sink.checkpoint();
    }

    /// The staged length, after flushing if `n` more bytes (at most `STAGE`) would not fit.
    #[inline]
    fn room(&mut self, n: usize) -> usize {
        if self.staged + n > STAGE {
            self.flush();
        }
        self.staged
    }

    /// Stages ASCII punctuation.
    #[inline]
    fn ascii(&mut self, text: &'static str) {
        let at = self.room(text.len());
        if let Some(dst) = self.stage.get_mut(at..at + text.len()) {
            dst.copy_from_slice(text.as_bytes());
            self.staged = at + text.len();
        }
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        let at = self.room(1);
        self.staged = stage_byte(&mut self.stage, at, b);
    }

    /// Writes the key `s` quoted and escaped, then the punctuation `after`: staged when it is
    /// short plain ASCII (no escapes), straight to the string otherwise.
    #[inline]
    fn key_text(&mut self, s: &str, after: &'static str) {
        if s.len() > SHORT_STRING || !self.stage_plain(s.as_bytes()) {
            self.flush();
            write_str(&mut self.sink.buf, s);
        }
        self.ascii(after);
    }

    /// Writes a string value: straight to the string in compact output, where values are
    /// often long or not ASCII (twitter.json) and staging only adds a pass over their bytes
    /// (staging short ASCII values too made twitter.json slower to write: `design::performance`).
    /// Pretty output stages short plain ASCII values as it does keys: there each value has
    /// a line of indentation staged before it, and moving that on its own before every
    /// string cost more than the pass (with the indentation copy in `newline`, the 45 MB
    /// plugin file of the OpenAPI benchmark: 310 M -> 233 M instructions to write).
    #[inline]
    fn string_value<const PRETTY: bool>(&mut self, s: &str) {
        if PRETTY && s.len() <= SHORT_STRING && self.stage_plain(s.as_bytes()) {
            return;
        }
        self.flush();
        write_str(&mut self.sink.buf, s);
    }

    /// Stages `bytes` in quotes if they are plain ASCII (no `"`, `\\`, control character or
    /// byte above 0x7F), checking and copying eight bytes at a time (SWAR) in one pass, the
    /// last few bytes as one word padded with spaces; whether they were. `bytes` are at most
    /// `SHORT_STRING` long.
    fn stage_plain(&mut self, bytes: &[u8]) -> bool {
        // Room for the quotes and a whole word from the last bytes on (spaces past the end
        // are staged and then left behind, or overwritten by the closing quote).
        let start = self.room(bytes.len() + 2 + 8);
        let mut at = start + 1;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let x = word(chunk);
            if not_plain_ascii(x) != 0 {
                return false;
            }
            self.stage_word(at, x);
            at += 8;
        }
        let tail = chunks.remainder();
        if !tail.is_empty() {
            // One word rather than a test and a store per byte (a key averages a few bytes
            // past its last whole word); spaces are plain.
            let mut padded = [b' '; 8];
            for (dst, &b) in padded.iter_mut().zip(tail) {
                *dst = b;
            }
            let x = u64::from_le_bytes(padded);
            if not_plain_ascii(x) != 0 {
                return false;
            }
            self.stage_word(at, x);
            at += tail.len();
        }
        // Committed only now: a string that was not plain left nothing staged.
        stage_byte(&mut self.stage, start, b'"');
        self.staged = stage_byte(&mut self.stage, at, b'"');
        true
    }

    /// Stores the eight bytes of `x` at `at` (the caller made room).
    #[inline]
    fn stage_word(&mut self, at: usize, x: u64) {
        if let Some(dst) = self.stage.get_mut(at..at + 8) {
            dst.copy_from_slice(&x.to_le_bytes());
        }
    }

    /// Numbers are formatted into the staging area; numbers kept as text (beyond the ranges
    /// of integers and doubles) go straight to the string.
    fn number(&mut self, n: &Number) {
        let at = self.room(BUF_LEN);
        match slot(&mut self.stage, at).and_then(|slot| n.format(slot)) {
            Some(len) => self.staged = at + len,
            None => {
                self.flush();
                n.write_to(&mut self.sink.buf);
            }
        }
    }

    /// Stages the run of doubles and arrays of doubles at the front of `elements` (compact
    /// output), the first after the byte `first`, the others after a comma, and leaves the
    /// iterator at the first element that is neither; whether there was any. Such runs
    /// (canada.json's coordinates: rings of `[x,y]` pairs) are most of a numeric document,
    /// and here they skip the stack and the per-value dispatch, and share one UTF-8 check.
    fn doubles(&mut self, elements: &mut std::slice::Iter<'_, Json>, first: u8) -> bool {
        let start = elements.len();
        let mut before = first;
        // The staged length stays in a register through the run.
        let mut at = self.staged;
        while let Some(next) = elements.as_slice().first() {
            match next {
                Json::Number(n) => match n.as_double() {
                    Some(f) => {
                        at = self.room_for(at, 1);
                        at = stage_double(&mut self.stage, at, before, f);
                    }
                    None => break,
                },
                Json::Array(inner) => match inner.as_slice() {
                    // Pairs (coordinates) first: one check for room, no inner loop.
                    [Json::Number(x), Json::Number(y)] => match (x.as_double(), y.as_double()) {
                        (Some(x), Some(y)) => {
                            at = self.room_for(at, 2);
                            at = stage_byte(&mut self.stage, at, before);
                            at = stage_double(&mut self.stage, at, b'[', x);
                            at = stage_double(&mut self.stage, at, b',', y);
                            at = stage_byte(&mut self.stage, at, b']');
                        }
                        _ => break,
                    },
                    inner if is_doubles(inner) => {
                        at = self.room_for(at, 1);
                        at = stage_byte(&mut self.stage, at, before);
                        let mut sep = b'[';
                        for f in inner.iter().filter_map(as_double) {
                            at = self.room_for(at, 1);
                            at = stage_double(&mut self.stage, at, sep, f);
                            sep = b',';
                        }
                        at = stage_byte(&mut self.stage, at, b']');
                    }
                    _ => break,
                },
                _ => break,
            }
            elements.next();
            before = b',';
        }
        self.staged = at;
        elements.len() != start
    }

    /// [`doubles`](Writer::doubles), when the next element is a double or starts with one:
    /// the check is inline, so other arrays (of integers, strings, objects) pay no call.
    #[inline]
    fn doubles_ahead(&mut self, elements: &mut std::slice::Iter<'_, Json>, first: u8) -> bool {
        let ahead = match elements.as_slice().first() {
            Some(Json::Number(n)) => n.as_double().is_some(),
            Some(Json::Array(inner)) => inner.first().and_then(as_double).is_some(),
            _ => false,
        };
        ahead && self.doubles(elements, first)
    }

    /// The staged length after making room at `at` for `doubles` doubles, each with a byte
    /// before it, and two more bytes.
    #[inline]
    fn room_for(&mut self, at: usize, doubles: usize) -> usize {
        if at + 2 + doubles * (1 + BUF_LEN) <= STAGE {
            return at;
        }
        self.staged = at;
        self.flush();
        self.staged
    }

    fn scalar<const PRETTY: bool>(&mut self, value: &Json) {
        match value {
            Json::Null => self.ascii("null"),
            Json::Bool(true) => self.ascii("true"),
            Json::Bool(false) => self.ascii("false"),
            Json::Number(n) => self.number(n),
            Json::String(s) => self.string_value::<PRETTY>(s),
            // Containers are opened by the caller; an empty one never reaches here.
            Json::Array(_) => self.ascii("[]"),
            Json::Object(_) => self.ascii("{}"),
        }
    }

    /// Writes `root`, pretty or compact.
    fn write(self, root: Root<'_>, pretty: bool) {
        if pretty {
            self.write_tree::<true>(root);
        } else {
            self.write_tree::<false>(root);
        }
    }

    fn write_tree<const PRETTY: bool>(mut self, root: Root<'_>) {
        let mut stack: Vec<Frame<'_>> = Vec::new();
        let mut value = match root {
            Root::Value(v) => v,
            Root::Map(m) => match self.open_object::<PRETTY>(m.entries(), &mut stack) {
                Some(first) => first,
                // `{}`, staged: it must reach the sink like any other end.
                None => {
                    self.flush();
                    return;
                }
            },
        };
        loop {
            let first_child = match value {
                Json::Array(a) => self.open_array::<PRETTY>(a, &mut stack),
                Json::Object(m) => self.open_object::<PRETTY>(m.entries(), &mut stack),
                scalar => {
                    self.scalar::<PRETTY>(scalar);
                    None
                }
            };
            if let Some(child) = first_child {
                value = child;
                continue;
            }
            // The value is complete: move to the next sibling, closing finished containers.
            value = loop {
                let depth = stack.len();
                match stack.last_mut() {
                    None => {
                        self.flush();
                        return;
                    }
                    Some(Frame::Array(children)) => match children.next() {
                        Some(next) => {
                            self.byte(b',');
                            self.newline::<PRETTY>(depth);
                            break next;
                        }
                        None => {
                            stack.pop();
                            self.newline::<PRETTY>(depth - 1);
                            self.byte(b']');
                        }
                    },
                    Some(Frame::Object(members)) => match members.next() {
                        Some((key, next)) => {
                            self.byte(b',');
                            self.newline::<PRETTY>(depth);
                            self.key::<PRETTY>(key);
                            break next;
                        }
                        None => {
                            stack.pop();
                            self.newline::<PRETTY>(depth - 1);
                            self.byte(b'}');
                        }
                    },
                }
            };
        }
    }

    /// Writes `[` and returns the first element, or writes `[]`. In compact output, the
    /// doubles at the front are written here, and the array closed if nothing else follows.
    fn open_array<'a, const PRETTY: bool>(
        &mut self,
        elements: &'a [Json],
        stack: &mut Vec<Frame<'a>>,
    ) -> Option<&'a Json> {
        let mut rest = elements.iter();
        if !PRETTY && self.doubles_ahead(&mut rest, b'[') {
            let next = rest.next();
            self.byte(if next.is_some() { b',' } else { b']' });
            if next.is_some() {
                stack.push(Frame::Array(rest));
            }
            return next;
        }
        match rest.next() {
            None => {
                self.ascii("[]");
                None
            }
            Some(first) => {
                self.byte(b'[');
                stack.push(Frame::Array(rest));
                self.newline::<PRETTY>(stack.len());
                Some(first)
            }
        }
    }

    /// Writes `{` and the first key and returns its value, or writes `{}`.
    fn open_object<'a, const PRETTY: bool>(
        &mut self,
        members: &'a [(String, Json)],
        stack: &mut Vec<Frame<'a>>,
    ) -> Option<&'a Json> {
        match members.split_first() {
            None => {
                self.ascii("{}");
                None
            }
            Some(((key, first), rest)) => {
                self.byte(b'{');
                stack.push(Frame::Object(rest.iter()));
                self.newline::<PRETTY>(stack.len());
                self.key::<PRETTY>(key);
                Some(first)
            }
        }
    }

    #[inline]
    fn key<const PRETTY: bool>(&mut self, key: &str) {
        self.key_text(key, if PRETTY { ": " } else { ":" });
    }

    /// In pretty mode, a line break and two spaces per level.
    #[inline]
    fn newline<const PRETTY: bool>(&mut self, depth: usize) {
        const SPACES: &str = "                                                                ";
        if !PRETTY {
            return;
        }
        self.byte(b'\n');
        let mut n = (self.outer_depth + depth) * 2;
        while n > 0 {
            let step = n.min(SPACES.len());
            // All of SPACES is copied and `step` bytes of it kept: a copy of a fixed size
            // is a few stores, one of `step` bytes a call (one per line of output).
            let at = self.room(SPACES.len());
            if let Some(dst) = self.stage.get_mut(at..at + SPACES.len()) {
                dst.copy_from_slice(SPACES.as_bytes());
                self.staged = at + step;
            }
            n -= step;
        }
    }
}

/// Appends `s` as a quoted, escaped JSON string (for code that writes JSON fragments fast).
///
/// RFC 8259 section 7: `"` and `\` are escaped, and so are the control characters U+0000 to
/// U+001F, as `\b \f \n \r \t` where a short form exists and `\u00XX` (lowercase hex)
/// otherwise. U+2028 and U+2029 are written `\u2028` and `\u2029` so the output can also be
/// embedded in JavaScript source safely. `/` is not escaped (URLs stay readable), and every
/// other character is written as UTF-8, unescaped.
///
/// # Examples
///
/// ```
/// let mut out = String::from("{\"q\":");
/// httptool::json::write_str(&mut out, "a \"b\"\n/é");
/// out.push('}');
/// assert_eq!(out, "{\"q\":\"a \\\"b\\\"\\n/é\"}");
/// ```
pub fn write_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut run_start = 0;
    let mut i = 0;
    loop {
        i = skip_plain(bytes, i);
        let b = match bytes.get(i) {
            Some(&b) => b,
            None => break,
        };
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\t' => "\\t",
            b'\r' => "\\r",
            0x08 => "\\b",
            0x0C => "\\f",
            0x00..=0x1F => "",
            // 0xE2: U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            _ => match bytes.get(i + 1..i + 3) {
                Some([0x80, 0xA8]) => "\\u2028",
                Some([0x80, 0xA9]) => "\\u2029",
                _ => {
                    i += 1;
                    continue;
                }
            },
        };
        out.push_str(s.get(run_start..i).unwrap_or_default());
        if escape.is_empty() {
            push_control_escape(out, b);
            i += 1;
        } else {
            out.push_str(escape);
            i += if b == 0xE2 { 3 } else { 1 };
        }
        run_start = i;
    }
    out.push_str(s.get(run_start..).unwrap_or_default());
    out.push('"');
}

fn push_control_escape(out: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push_str("\\u00");
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 0xF)]));
}

/// Whether the byte needs a look when writing a string: `"`, `\`, a control character, or
/// 0xE2 (which may start U+2028 or U+2029).
const fn needs_look(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20 || b == 0xE2
}

const LOOK: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = needs_look(i as u8);
        i += 1;
    }
    table
};

/// The index of the first byte at or after `i` that needs a look (or `bytes.len()`).
/// Plain ASCII sixteen bytes at a time; from the first word that is not, the exact test.
fn skip_plain(bytes: &[u8], mut i: usize) -> usize {
    // Short strings (most keys and names) go straight to the exact test: the two-word
    // steps would not pay for their setup.
    if bytes.len() >= i + 32 {
        i = skip_plain_ascii(bytes, i);
    }
    while let Some(x) = word_at(bytes, i) {
        let look = string_ends(x) | bytes_equal(x, 0xE2);
        if look != 0 {
            return first_flagged(i, look);
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if LOOK[usize::from(b)] {
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
    #[cfg(feature = "tool")]
    fn compact_len_sharing_counts_each_shared_object_once_and_the_same_length() {
        let entry = crate::json!({"type": "object", "properties": {"a\"b": {"type": "string"}}, "n": [1.5, null, true]});
        let first = crate::json!({"type": "object", "$defs": {"E": entry.clone()}});
        let second = crate::json!({"items": [entry.clone(), {"x": entry}], "k": "\u{2028}"});
        let mut sizes = std::collections::HashMap::new();
        for value in [&first, &second, &first] {
            assert_eq!(
                compact_len_sharing(value, &mut sizes),
                value.to_string().len()
            );
        }
        // One entry: the shared object, found again by its allocation.
        assert_eq!(sizes.len(), 1);
    }

    #[cfg(any(feature = "tool", feature = "yaml"))]
    #[test]
    fn compact_len_is_the_written_length() {
        let values = [
            crate::json!(null),
            crate::json!({}),
            crate::json!([]),
            crate::json!({"a\"b\\c": ["\n\t\r\u{8}\u{c}\u{1}\u{1f}", "\u{2028}x\u{2029}\u{2027}é€𝄞", true, false, null],
                "n": [0, -1, 1.5, 1e300, -2.5e-7, 12345678901234567890u64], "": {"": [[], {}, [{}]]}}),
            crate::json!("\u{e2}\u{80}"),
            crate::json!([
                "a long plain string of more than eight bytes with a \" in it",
                3.0
            ]),
        ];
        for value in &values {
            assert_eq!(compact_len(value), value.to_string().len(), "{}", value);
        }
    }

    fn quoted(s: &str) -> String {
        let mut out = String::new();
        write_str(&mut out, s);
        out
    }

    #[test]
    fn string_escapes() {
        let table: &[(&str, &str, &str)] = &[
            ("plain", "abc", r#""abc""#),
            ("quote", "a\"b", r#""a\"b""#),
            ("backslash", "a\\b", r#""a\\b""#),
            ("slash kept", "a/b", r#""a/b""#),
            ("short forms", "\n\t\r\u{8}\u{c}", r#""\n\t\r\b\f""#),
            (
                "other controls",
                "\u{0}\u{1f}\u{1}",
                r#""\u0000\u001f\u0001""#,
            ),
            ("delete kept", "\u{7f}", "\"\u{7f}\""),
            (
                "line separator",
                "a\u{2028}b\u{2029}",
                r#""a\u2028b\u2029""#,
            ),
            (
                "other E2 characters kept",
                "\u{2026}\u{20ac}",
                "\"\u{2026}\u{20ac}\"",
            ),
            ("unicode kept", "日本語 😀", "\"日本語 😀\""),
            (
                "long plain",
                "abcdefghijklmnopqrstuvwxyz",
                "\"abcdefghijklmnopqrstuvwxyz\"",
            ),
            (
                "escape after a long run",
                "abcdefghij\"",
                r#""abcdefghij\"""#,
            ),
            ("E2 at the end", "abc\u{2028}", r#""abc\u2028""#),
        ];
        for &(name, input, expected) in table {
            assert_eq!(quoted(input), expected, "{name}");
        }
    }

    #[test]
    fn runs_of_doubles() {
        // Runs of doubles and arrays of doubles take their own path in compact output;
        // around them, everything else takes the general one.
        let table: &[(&str, &str)] = &[
            ("flat", "[1.5,-2.5,0.0]"),
            ("pairs", "[[1.5,2.5],[3.5,4.5],[5.5,6.5]]"),
            ("rings", "[[[1.5,2.5],[3.5,4.5]],[[5.5,6.5]]]"),
            ("one pair", "[[1.5,2.5]]"),
            ("pairs then a double", "[[1.5,2.5],3.5,[4.5]]"),
            ("double then pairs", "[0.5,[1.5,2.5],[3.5]]"),
            ("integers", "[1,2,[3,4]]"),
            ("integer in a pair", "[[1.5,2],[3.5,4.5]]"),
            ("integer first", "[[1,2.5],[3.5,4.5]]"),
            ("after an integer", "[1,2.5,[3.5]]"),
            ("empty arrays", "[[],[1.5],[],[[]],[2.5,[]]]"),
            ("with objects", "[{\"a\":[1.5,2.5]},[1.5],{\"b\":0.5}]"),
            ("strings and nulls", "[1.5,\"x\",[2.5],null,[3.5,true]]"),
            ("deep", "[[[[[1.5]]]],[[[2.5,3.5]]]]"),
            ("exponents", "[[1e300,-1.5e-7],[1e-7,1e16]]"),
        ];
        for &(name, text) in table {
            let value = crate::json::parse(text).unwrap();
            assert_eq!(value.to_string(), text, "{name}");
            let mut out = String::new();
            write_compact(&value, &mut out);
            assert_eq!(out, text, "{name}");
        }
    }

    #[test]
    fn staged_and_direct_strings_agree() {
        // Keys that are short plain ASCII are staged; other keys and all values go straight
        // to the string. Both must give write_str's text, next to numbers.
        let mut cases: Vec<String> = Vec::new();
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 200] {
            let plain: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            cases.push(plain.clone());
            for special in ["\"", "\\", "\n", "\u{1}", "\u{7f}", "é", "\u{2028}", "日"] {
                for at in [0, len / 2, len] {
                    let mut s = plain.clone();
                    s.insert_str(at, special);
                    cases.push(s);
                }
            }
        }
        for s in &cases {
            let value = crate::json!([s.clone(), 1, {s.clone(): 2.5, "k": s.clone()}, 3]);
            let q = quoted(s);
            assert_eq!(
                value.to_string(),
                format!("[{q},1,{{{q}:2.5,\"k\":{q}}},3]")
            );
            assert_eq!(crate::json::parse(&value.to_string()).unwrap(), value);
        }
        // All of them in one array: many times the staging area, flushed at every length.
        let all = Json::Array(cases.iter().map(|s| Json::from(s.as_str())).collect());
        let expected: Vec<String> = cases.iter().map(|s| quoted(s)).collect();
        assert_eq!(all.to_string(), format!("[{}]", expected.join(",")));
    }

    #[test]
    fn long_runs_of_doubles_cross_the_staging_area() {
        // Thousands of staged bytes: every flush point falls somewhere in the run.
        for len in [1, 2, 17, 18, 19, 20, 21, 22, 23, 24, 500, 2000] {
            let pairs: Vec<Json> = (0..len)
                .map(|i| {
                    let x = -65.613_616_999_999_98 + f64::from(i) * 1e-9;
                    Json::Array(vec![Json::from(x), Json::from(f64::from(i) + 0.25)])
                })
                .collect();
            let doubles: Vec<Json> = (0..len).map(|i| Json::from(f64::from(i) / 3.0)).collect();
            for value in [Json::Array(pairs), Json::Array(doubles)] {
                let text = value.to_string();
                assert_eq!(crate::json::parse(&text).unwrap(), value, "{len}");
                let expected = match &value {
                    Json::Array(items) => items.iter().map(Json::to_pretty).collect::<Vec<_>>(),
                    _ => unreachable!(),
                };
                let general: String = expected
                    .iter()
                    .map(|t| t.replace(['\n', ' '], ""))
                    .collect::<Vec<_>>()
                    .join(",");
                assert_eq!(text, format!("[{general}]"), "{len}");
            }
        }
    }

    /// `inner` nested `depth` levels deep, in objects and arrays by turns, each with
    /// members or elements before and after it.
    fn nest(inner: Json, depth: usize) -> Json {
        let mut value = inner;
        for level in 0..depth {
            value = if level % 2 == 0 {
                crate::json!({"before": [1, {}], "k\"ey\u{2028}": value, "after": "x"})
            } else {
                crate::json!([null, value, [], {"a": []}])
            };
        }
        value
    }

    #[test]
    fn write_pretty_nested_is_the_slice_of_the_whole_document() {
        let long_key = "k".repeat(100);
        let values = [
            crate::json!(null),
            crate::json!(2.5),
            crate::json!("a \"quoted\" é\n"),
            crate::json!([]),
            crate::json!({}),
            crate::json!([[]]),
            crate::json!({"": {}}),
            crate::json!({"a": [1, [2, [3, {}]], {"b": {"c": [true, false]}}], "d": "e"}),
            crate::json!({long_key.clone(): [1.5, -2.5e-7, 12345678901234567890u64], "\u{1}": "x"}),
            crate::json!([{"name": "t", "params": [{"in": "query", "schema": {"enum": ["a", "b"]}}]}]),
        ];
        // A string's text does not depend on its depth: where the marker stands in a
        // document, every value's text stands in the same document holding it instead.
        let marker = Json::from("\u{1}marker");
        let marker_text = marker.to_pretty();
        // Depth 600: more indentation on a line than the writer's staging area holds.
        for depth in [0, 1, 2, 3, 4, 7, 33, 600] {
            let around = nest(marker.clone(), depth).to_pretty();
            let (before, after) = around
                .split_once(&marker_text)
                .unwrap_or_else(|| panic!("no marker at depth {depth}"));
            for value in &values {
                let whole = nest(value.clone(), depth).to_pretty();
                let mut piece = String::from(before);
                write_pretty_nested(value, depth, &mut piece);
                piece.push_str(after);
                assert!(piece == whole, "depth {depth}: {value}");
            }
        }
        // Depth 0 is to_pretty, appended after what the string held.
        let mut out = String::from("x");
        write_pretty_nested(&values[7], 0, &mut out);
        assert_eq!(out, format!("x{}", values[7].to_pretty()));
    }

    #[test]
    fn every_byte_position_of_a_special_is_found() {
        for len in 0..24 {
            for pos in 0..len {
                let mut s: Vec<u8> = vec![b'a'; len];
                s[pos] = b'"';
                let s = String::from_utf8(s).unwrap();
                assert_eq!(quoted(&s), format!("\"{}\"", s.replace('"', "\\\"")));
            }
        }
    }
}
