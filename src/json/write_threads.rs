//! A large JSON value written pretty on several threads: the elements of its largest array
//! are formatted in chunks by every thread, and written in order by the calling one.
//!
//! The bytes are those of [`Json::write_pretty_io`] for any value and thread count: each
//! piece is formatted by the one pretty writer ([`write_pretty_nested`]); only the lines
//! around the array's elements are put together here.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use super::write::{write_pretty_nested, write_str};
use super::Json;
use crate::parallel;

impl Json {
    /// Writes the value as pretty JSON to `out` (exactly what
    /// [`write_pretty_io`](Json::write_pretty_io) writes) on `threads` threads when it is an
    /// object with an array member (a large API's plugin file: its endpoints): the calling
    /// thread and `threads - 1` more format the array's elements in chunks, and the calling
    /// thread alone writes them to `out`, in order, with a few chunks in flight at most, so
    /// memory stays bounded when `out` is slow. A thread that cannot start leaves its share
    /// to the others. `out` is not flushed.
    ///
    /// Compiled with the `cli` feature (on by default), whose `import` commands write plugin
    /// files with it; builds without it leave it out (build cost: `design::performance`).
    ///
    /// # Errors
    ///
    /// The first error `out` returns; nothing more is written after it.
    ///
    /// # Examples
    ///
    /// ```
    /// let v = httptool::json!({"name": "api", "endpoints": [{"a": 1}, {"b": [2, 3]}, {}]});
    /// let mut out: Vec<u8> = Vec::new();
    /// v.write_pretty_io_threaded(4, &mut out)?;
    /// assert_eq!(out, v.to_pretty().as_bytes());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_pretty_io_threaded(
        &self,
        threads: usize,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        write_pretty_io_threaded(self, threads, out)
    }
}

/// The text a thread formats before it hands it over, about: large enough that handing a
/// chunk over (a lock, a wake-up, a system call) does not show, small enough that the
/// chunks in flight stay far below the whole text (a 45 MB plugin file made whole cost
/// more in page faults than a second thread gains; `design::performance` has the figures).
const CHUNK_BYTES: usize = 64 * 1024;

/// The largest text of a written chunk that is kept for the next ones: a few times a
/// chunk, since chunks vary around their aim and a text that has grown to the largest need
/// is not grown (and copied) again.
const MAX_SPARE_BYTES: usize = 8 * CHUNK_BYTES;

/// Chunks in flight (taken and not yet written) beyond one a thread, at most: memory stays
/// bounded when standard output is slower than the formatting.
const AHEAD: usize = 2;

/// [`Json::write_pretty_io_threaded`].
pub(crate) fn write_pretty_io_threaded(
    value: &Json,
    threads: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let map = match value {
        Json::Object(map) if threads > 1 => map,
        _ => return value.write_pretty_io(out),
    };
    let largest = map
        .values()
        .enumerate()
        .filter_map(|(i, member)| Some((i, member.as_array()?)))
        .max_by_key(|(_, elements)| elements.len());
    let (split, elements) = match largest {
        Some((split, elements)) if !elements.is_empty() => (split, elements),
        _ => return value.write_pretty_io(out),
    };
    // The object's lines up to the array's `[`, and from its `]` on.
    let mut head = String::from("{");
    let mut tail = String::new();
    for (i, (key, member)) in map.iter().enumerate() {
        if i == split {
            member_line(&mut head, i > 0, key, None);
            head.push('[');
            line_break(&mut tail, 1);
            tail.push(']');
        } else {
            let text = if i < split { &mut head } else { &mut tail };
            member_line(text, i > 0, key, Some(member));
        }
    }
    line_break(&mut tail, 0);
    tail.push('}');
    out.write_all(head.as_bytes())?;
    write_elements(elements, threads, out)?;
    out.write_all(tail.as_bytes())
}

/// Appends a member of an object at depth 0: a comma after the one before it, its line,
/// its key, and its value at depth 1 (without the value: up to the `: `).
fn member_line(out: &mut String, after_another: bool, key: &str, value: Option<&Json>) {
    if after_another {
        out.push(',');
    }
    line_break(out, 1);
    write_str(out, key);
    out.push_str(": ");
    if let Some(value) = value {
        write_pretty_nested(value, 1, out);
    }
}

/// A line break and the indentation of `depth` levels (two spaces each), as the pretty
/// writer puts them between the members of an object and the elements of an array.
fn line_break(out: &mut String, depth: usize) {
    out.push('\n');
    out.extend(std::iter::repeat(' ').take(depth * 2));
}

/// Appends elements `first..` of an array at depth 1 (so the elements at depth 2), each
/// after its comma and line break, as they read in the whole array.
fn format_elements(elements: &[Json], first: usize, out: &mut String) {
    for (i, element) in elements.iter().enumerate() {
        if first + i > 0 {
            out.push(',');
        }
        line_break(out, 2);
        write_pretty_nested(element, 2, out);
    }
}

/// What the threads share: the elements, who formats which, and what waits to be written.
struct Work<'a> {
    elements: &'a [Json],
    threads: usize,
    state: Mutex<State>,
    /// Signalled when a chunk is formatted or written, or the work stops.
    changed: Condvar,
}

struct State {
    /// The first element no thread has taken yet.
    next: usize,
    /// Chunks formatted and not yet written, by their first element: their end and text.
    formatted: BTreeMap<usize, (usize, String)>,
    /// Chunks taken and not yet written (formatted or not).
    in_flight: usize,
    /// Texts of written chunks, emptied, for the next chunks (their memory is reused).
    spare: Vec<String>,
    /// Elements formatted and their bytes so far, for the size of the next chunk.
    elements_done: usize,
    bytes_done: usize,
    /// Set when writing failed or a thread stopped: no more chunks are taken.
    stopped: bool,
}

/// A chunk taken: elements `start..end`, and the text it is formatted into.
struct Chunk {
    start: usize,
    end: usize,
    text: String,
}

impl<'a> Work<'a> {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A thread holding the lock only moves values in and out: a poisoned state is whole.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'g>(&self, state: MutexGuard<'g, State>) -> MutexGuard<'g, State> {
        self.changed
            .wait(state)
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The next chunk to format, if there is one and room for it in flight. Its size
    /// aims at [`CHUNK_BYTES`] by the elements formatted so far, no more elements than
    /// those (an estimate from a few small elements at the start made chunks of megabytes),
    /// and at most an even share of what is left, so the threads finish together.
    fn take(&self, state: &mut State) -> Option<Chunk> {
        let left = self.elements.len() - state.next;
        if state.stopped || left == 0 || state.in_flight >= self.threads + AHEAD {
            return None;
        }
        let by_size = match state.bytes_done {
            0 => 1,
            bytes => CHUNK_BYTES.saturating_mul(state.elements_done) / bytes,
        };
        let count = by_size
            .min(state.elements_done)
            .min(left / self.threads)
            .max(1);
        let start = state.next;
        state.next += count;
        state.in_flight += 1;
        Some(Chunk {
            start,
            end: state.next,
            // Room for most chunks from the start: a text grown by doubling from empty
            // is copied about its own size over (measured: 70 M instructions for the
            // benchmark's file when each chunk started empty).
            text: state
                .spare
                .pop()
                .unwrap_or_else(|| String::with_capacity(2 * CHUNK_BYTES)),
        })
    }

    /// Formats `chunk` (without the lock) and hands it to the writing thread.
    fn format(&self, mut chunk: Chunk) {
        let elements = self
            .elements
            .get(chunk.start..chunk.end)
            .unwrap_or_default();
        format_elements(elements, chunk.start, &mut chunk.text);
        let mut state = self.lock();
        state.elements_done += elements.len();
        state.bytes_done += chunk.text.len();
        state.formatted.insert(chunk.start, (chunk.end, chunk.text));
        drop(state);
        self.changed.notify_all();
    }

    /// A helping thread: formats chunks until none is left or the work stopped.
    fn help(&self) {
        let _stop_on_panic = StopOnPanic(self);
        loop {
            let mut state = self.lock();
            let chunk = loop {
                if state.stopped || state.next == self.elements.len() {
                    return;
                }
                match self.take(&mut state) {
                    Some(chunk) => break chunk,
                    None => state = self.wait(state),
                }
            };
            drop(state);
            self.format(chunk);
        }
    }

    /// The calling thread: writes the chunks in order, and formats chunks while the next
    /// one to write is not ready.
    fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut written = 0;
        let mut state = self.lock();
        while written < self.elements.len() {
            if let Some((end, mut text)) = state.formatted.remove(&written) {
                drop(state);
                if let Err(e) = out.write_all(text.as_bytes()) {
                    self.stop();
                    return Err(e);
                }
                written = end;
                text.clear();
                state = self.lock();
                state.in_flight -= 1;
                // A text grown far past a chunk (by a large element) is not kept.
                if text.capacity() <= MAX_SPARE_BYTES {
                    state.spare.push(text);
                }
                self.changed.notify_all();
                continue;
            }
            if let Some(chunk) = self.take(&mut state) {
                drop(state);
                self.format(chunk);
                state = self.lock();
                continue;
            }
            if state.stopped {
                // A helping thread panicked with a chunk taken; the panic is raised when
                // the threads are joined.
                return Err(io::Error::new(
                    io::ErrorKind::Other,
                    "a thread formatting the output stopped",
                ));
            }
            state = self.wait(state);
        }
        Ok(())
    }

    /// Stops the work: no more chunks are taken, and waiting threads wake up to see it.
    fn stop(&self) {
        self.lock().stopped = true;
        self.changed.notify_all();
    }
}

/// Stops the work when a helping thread panics, so that no thread waits for its chunk.
struct StopOnPanic<'w, 'a>(&'w Work<'a>);

impl Drop for StopOnPanic<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

/// Writes the elements of an array at depth 1 (each after its comma and line break) to
/// `out`, formatted on `threads` threads, the calling one included.
fn write_elements(elements: &[Json], threads: usize, out: &mut dyn Write) -> io::Result<()> {
    let work = Work {
        elements,
        threads,
        state: Mutex::new(State {
            next: 0,
            formatted: BTreeMap::new(),
            in_flight: 0,
            spare: Vec::new(),
            elements_done: 0,
            bytes_done: 0,
            stopped: false,
        }),
        changed: Condvar::new(),
    };
    // No more threads than elements; a thread that cannot start leaves its share to the
    // others.
    let helpers = threads.min(elements.len()).saturating_sub(1);
    let write = || {
        let result = work.write(out);
        // Helping threads that still wait for room see the end.
        work.stop();
        result
    };
    parallel::on_threads(write, vec![(); helpers], |()| work.help()).0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A byte stream that takes `limit` bytes and then fails, and counts the writes tried
    /// after its failure.
    struct Failing {
        taken: Vec<u8>,
        limit: usize,
        failed: bool,
        writes_after_failure: usize,
    }

    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.failed {
                self.writes_after_failure += 1;
            }
            let room = self.limit - self.taken.len();
            if room == 0 {
                self.failed = true;
                return Err(io::Error::new(io::ErrorKind::Other, "full"));
            }
            let n = buf.len().min(room);
            self.taken.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn written(value: &Json, threads: usize) -> String {
        let mut out = Vec::new();
        write_pretty_io_threaded(value, threads, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn element(i: usize) -> Json {
        let long = "x".repeat(i * 37 % 3000);
        crate::json!({"name": format!("e{}", i), "nested": {"a": [i, [], {}], "b": {"c": [long]}}})
    }

    #[test]
    fn every_thread_count_writes_the_bytes_of_the_whole() {
        let many: Vec<Json> = (0..3000).map(element).collect();
        let values = [
            crate::json!(null),
            crate::json!([1, 2, 3]),
            crate::json!({}),
            crate::json!({"a": [], "b": {}}),
            crate::json!({"only": [1]}),
            crate::json!({"e\"p\u{1}": [{"x": []}, {}], "after": {"k": [1, 2]}, "z": []}),
            crate::json!({"first": "x", "small": [1, 2], "large": many.clone(), "last": {"y": [3]}}),
            crate::json!({"before": {"n": 1}, "endpoints": many}),
        ];
        for value in &values {
            let whole = value.to_pretty();
            for threads in [1, 2, 3, 8] {
                assert!(
                    written(value, threads) == whole,
                    "{} threads: {}",
                    threads,
                    whole.get(..200).unwrap_or(&whole)
                );
            }
        }
    }

    #[test]
    fn nothing_is_written_after_a_write_error() {
        let value = crate::json!({"endpoints": (0..2000).map(element).collect::<Vec<_>>()});
        let whole = value.to_pretty();
        for limit in [0, 1, 5000, 300_000, whole.len() / 2, whole.len() - 1] {
            for threads in [1, 2, 3] {
                let mut out = Failing {
                    taken: Vec::new(),
                    limit,
                    failed: false,
                    writes_after_failure: 0,
                };
                let result = write_pretty_io_threaded(&value, threads, &mut out);
                assert_eq!(result.map_err(|e| e.to_string()), Err("full".to_string()));
                assert_eq!(out.writes_after_failure, 0, "{} threads", threads);
                assert!(
                    out.taken == whole.as_bytes()[..limit],
                    "{} threads",
                    threads
                );
            }
        }
    }
}
