//! Answers that are event streams (`text/event-stream`): read as server-sent events within a
//! count, byte and time budget, each event reported as progress, and handed to the model as
//! a JSON array that says where it stopped ([results](crate::design::endpoints#results)).
//!
//! The parser follows the WHATWG HTML Standard, "Server-sent events", section 9.2.6
//! ("Interpreting an event stream"): lines end with CRLF, LF or CR; a line starting with `:`
//! is a comment; `field: value` drops one space after the colon; `data` lines are joined
//! with LF; `event` sets the type; `id` sets the last event id (unless it holds NUL);
//! `retry` and unknown fields are ignored; an empty line dispatches the event, unless its
//! data is empty. A UTF-8 byte order mark at the start is dropped. An event whose data is
//! `[DONE]` (OpenAI's streams) ends the stream.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use crate::http::{media, BodyStream, Headers};
use crate::json::{self, Json, Map};
use crate::plugin::call::redact::Redactor;
use crate::plugin::declare::model::Options;
use crate::tool::Progress;

/// The most events read from one event stream: 1,000. Set per plugin or endpoint with
/// `max_stream_events`.
pub const DEFAULT_MAX_STREAM_EVENTS: u32 = 1000;

/// The most bytes read from one event stream: 1 MiB. Set per plugin or endpoint with
/// `max_stream_bytes`.
pub const DEFAULT_MAX_STREAM_BYTES: usize = 1024 * 1024;

/// How long one event stream is read from when its head arrives: 30 s, within the call's
/// own deadline. Set per plugin or endpoint with `timeout_stream_ms`.
pub const DEFAULT_TIMEOUT_STREAM: Duration = Duration::from_secs(30);

/// How much of an event stream is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Budget {
    pub events: usize,
    pub bytes: usize,
    pub time: Duration,
}

impl Budget {
    pub(crate) fn of(options: &Options) -> Budget {
        Budget {
            events: options
                .max_stream_events
                .unwrap_or(DEFAULT_MAX_STREAM_EVENTS) as usize,
            bytes: options.max_stream_bytes.unwrap_or(DEFAULT_MAX_STREAM_BYTES),
            time: options.timeout_stream.unwrap_or(DEFAULT_TIMEOUT_STREAM),
        }
    }
}

/// One event as dispatched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Event {
    /// The `event` field; empty when none was sent (the type is then `message`).
    pub kind: String,
    pub data: String,
    /// The last event id when the event was dispatched (empty: none).
    pub id: String,
}

/// The event-stream parser: bytes in, events out. Pure.
#[derive(Default)]
pub(crate) struct Parser {
    /// The line being read, without its ending.
    line: Vec<u8>,
    /// The last byte seen was a CR: a LF right after it belongs to the same line ending.
    after_cr: bool,
    /// Whether the first bytes (and a byte order mark among them) were looked at.
    started: bool,
    data: String,
    kind: String,
    last_id: String,
}

const BOM: &[u8] = b"\xef\xbb\xbf";

impl Parser {
    /// Reads `bytes`, calling `dispatch` with each event completed; stops (and returns
    /// `false`) as soon as `dispatch` does.
    pub(crate) fn feed(
        &mut self,
        mut bytes: &[u8],
        dispatch: &mut dyn FnMut(Event) -> bool,
    ) -> bool {
        if !self.started {
            // The byte order mark may arrive split; wait until three bytes are here.
            let have = self.line.len() + bytes.len();
            if have < BOM.len() && BOM.starts_with(&[&self.line[..], bytes].concat()) {
                self.line.extend_from_slice(bytes);
                return true;
            }
            self.started = true;
            let mut head = std::mem::take(&mut self.line);
            head.extend_from_slice(bytes);
            let rest = head.strip_prefix(BOM).unwrap_or(&head).to_vec();
            return self.feed_lines(&rest, dispatch);
        }
        if self.after_cr && bytes.first() == Some(&b'\n') {
            bytes = &bytes[1..];
        }
        self.after_cr = false;
        self.feed_lines(bytes, dispatch)
    }

    fn feed_lines(&mut self, bytes: &[u8], dispatch: &mut dyn FnMut(Event) -> bool) -> bool {
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.line.extend_from_slice(&rest[..end]);
            let mut next = end + 1;
            if rest[end] == b'\r' {
                match rest.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            rest = &rest[next..];
            let line = std::mem::take(&mut self.line);
            if let Some(event) = self.line_done(&line) {
                if !dispatch(event) {
                    return false;
                }
            }
        }
        self.line.extend_from_slice(rest);
        true
    }

    /// One whole line; the event when it is the empty line that dispatches one.
    fn line_done(&mut self, line: &[u8]) -> Option<Event> {
        if line.is_empty() {
            let kind = std::mem::take(&mut self.kind);
            if self.data.is_empty() {
                return None;
            }
            let mut data = std::mem::take(&mut self.data);
            if data.ends_with('\n') {
                data.pop();
            }
            return Some(Event {
                kind,
                data,
                id: self.last_id.clone(),
            });
        }
        if line[0] == b':' {
            return None;
        }
        let line = String::from_utf8_lossy(line);
        let (field, value) = match line.find(':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(' ').unwrap_or(value))
            }
            None => (&line[..], ""),
        };
        match field {
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
            }
            "event" => self.kind = value.to_string(),
            "id" if !value.contains('\0') => self.last_id = value.to_string(),
            _ => {}
        }
        None
    }
}

/// Why reading a stream stopped before it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    Events(usize),
    Bytes(usize),
    /// The stream's own time budget, or the call's deadline.
    Time,
    /// The connection failed: the error's message (no secret).
    Failed(String),
}

/// What was read of a stream.
#[derive(Default)]
struct State {
    accepted: bool,
    parser: Parser,
    events: Vec<Json>,
    bytes: usize,
    done: bool,
    stop: Option<Stop>,
    redactor: Redactor,
}

/// Collects an event stream as it arrives: the [`BodyStream`] a call's request carries.
pub(crate) struct Collector {
    budget: Budget,
    progress: Option<Arc<dyn Progress>>,
    state: Mutex<State>,
}

/// Where event numbers start in progress reports: after "sending" (1) and "the response
/// arrived" (2).
const FIRST_EVENT_PROGRESS: u64 = 3;

/// The most bytes of an event's data quoted in a progress message.
const PROGRESS_DATA_BYTES: usize = 200;

impl Collector {
    pub(crate) fn new(budget: Budget, progress: Option<Arc<dyn Progress>>) -> Collector {
        Collector {
            budget,
            progress,
            state: Mutex::new(State::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The secrets of the request about to go out: `***` in events and progress messages.
    pub(crate) fn set_redactor(&self, redactor: &Redactor) {
        self.lock().redactor = redactor.clone();
    }

    /// Whether a response's body was taken as an event stream.
    pub(crate) fn accepted(&self) -> bool {
        self.lock().accepted
    }

    /// Records why the read ended when the transport failed while streaming.
    pub(crate) fn failed(&self, err: &crate::http::Error) {
        let mut state = self.lock();
        if state.stop.is_some() || state.done {
            return;
        }
        state.stop = Some(match err.kind() {
            crate::http::ErrorKind::Timeout { .. } => Stop::Time,
            _ => Stop::Failed(err.to_string()),
        });
    }

    /// The events read, and why the read stopped early (`None`: the stream ended, or sent
    /// `[DONE]`).
    pub(crate) fn finish(&self) -> (Vec<Json>, Option<Stop>) {
        let mut state = self.lock();
        let events = std::mem::take(&mut state.events);
        (events, state.stop.clone())
    }

    fn report(&self, number: usize, event: &Json, redactor: &Redactor) {
        let progress = match &self.progress {
            Some(progress) => progress,
            None => return,
        };
        let mut message = format!("event {}: {}", number, event);
        if message.len() > PROGRESS_DATA_BYTES {
            let mut end = PROGRESS_DATA_BYTES;
            while !message.is_char_boundary(end) {
                end -= 1;
            }
            message.truncate(end);
            message.push_str("...");
        }
        redactor.string(&mut message);
        progress.report(FIRST_EVENT_PROGRESS + number as u64 - 1, None, &message);
    }
}

/// An event as the model reads it: `{"event"?, "id"?, "data"}`, `data` parsed when it is
/// JSON; secrets the call sent `***` inside.
fn event_json(event: Event, redactor: &Redactor) -> Json {
    let mut map = Map::with_capacity(3);
    if !event.kind.is_empty() {
        map.insert("event", event.kind);
    }
    if !event.id.is_empty() {
        map.insert("id", event.id);
    }
    let mut data = match json::parse(&event.data) {
        Ok(value) => value,
        Err(_) => Json::String(event.data),
    };
    redactor.json(&mut data);
    map.insert("data", data);
    let mut value = Json::Object(map);
    redactor.json(&mut value);
    value
}

impl BodyStream for Collector {
    fn accepts(&self, status: u16, headers: &Headers) -> bool {
        let stream = (200..300).contains(&status)
            && headers.get("content-type").map_or(false, |t| {
                media::essence(t).eq_ignore_ascii_case("text/event-stream")
            });
        if stream {
            self.lock().accepted = true;
        }
        stream
    }

    fn timeout(&self) -> Option<Duration> {
        Some(self.budget.time)
    }

    fn write(&self, bytes: &[u8]) -> bool {
        let mut guard = self.lock();
        let state = &mut *guard;
        let room = self.budget.bytes.saturating_sub(state.bytes);
        let over = bytes.len() > room;
        let bytes = &bytes[..bytes.len().min(room)];
        state.bytes += bytes.len();
        let budget = self.budget;
        let redactor = state.redactor.clone();
        let mut reached = None;
        let mut done = false;
        let mut fresh = Vec::new();
        let events = &mut state.events;
        let more = state.parser.feed(bytes, &mut |event| {
            if event.data == "[DONE]" {
                done = true;
                return false;
            }
            if events.len() >= budget.events {
                reached = Some(Stop::Events(budget.events));
                return false;
            }
            let value = event_json(event, &redactor);
            fresh.push(value.clone());
            events.push(value);
            true
        });
        let total = state.events.len();
        if done {
            state.done = true;
        } else if let Some(stop) = reached {
            state.stop = Some(stop);
        } else if over {
            state.stop = Some(Stop::Bytes(budget.bytes));
        }
        drop(guard);
        let first = total - fresh.len() + 1;
        for (i, event) in fresh.iter().enumerate() {
            self.report(first + i, event, &redactor);
        }
        more && !done && !over
    }
}

/// The note the model reads when the stream was not read to its end.
pub(crate) fn stop_note(stop: &Stop, budget: &Budget) -> String {
    let why = match stop {
        Stop::Events(n) => format!(
            "the stream was closed after {} events (max_stream_events); more events may have followed",
            n
        ),
        Stop::Bytes(n) => format!(
            "the stream was closed after {} bytes (max_stream_bytes); the event being read then is left out, and more may have followed",
            n
        ),
        Stop::Time => format!(
            "the stream was closed when its time ran out ({} ms, timeout_stream_ms, or the call's deadline); more events may have followed",
            budget.time.as_millis()
        ),
        Stop::Failed(error) => format!(
            "the stream broke off before its end ({}); more events may have followed",
            error
        ),
    };
    format!("[{}]", why)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(chunks: &[&[u8]]) -> Vec<Event> {
        let mut parser = Parser::default();
        let mut events = Vec::new();
        for chunk in chunks {
            parser.feed(chunk, &mut |e| {
                events.push(e);
                true
            });
        }
        events
    }

    fn event(kind: &str, data: &str, id: &str) -> Event {
        Event {
            kind: kind.into(),
            data: data.into(),
            id: id.into(),
        }
    }

    macro_rules! sse_cases {
        ($($name:ident: [$($chunk:expr),*] => [$($kind:expr, $data:expr, $id:expr);*];)*) => {$(
            #[test]
            fn $name() {
                let chunks: Vec<&[u8]> = vec![$($chunk.as_bytes()),*];
                let want: Vec<Event> = vec![$(event($kind, $data, $id)),*];
                assert_eq!(parse(&chunks), want);
            }
        )*};
    }

    sse_cases! {
        sse_lf: ["data: a\n\n"] => ["", "a", ""];
        sse_crlf: ["data: a\r\n\r\n"] => ["", "a", ""];
        sse_cr: ["data: a\r\rdata: b\r\r"] => ["", "a", ""; "", "b", ""];
        sse_crlf_split_between_chunks: ["data: a\r", "\n\r", "\n"] => ["", "a", ""];
        sse_data_lines_joined: ["data: a\ndata:b\ndata\n\n"] => ["", "a\nb\n", ""];
        sse_one_space_dropped: ["data:  two\n\n"] => ["", " two", ""];
        sse_comments_ignored: [": keep-alive\n\ndata: x\n\n"] => ["", "x", ""];
        sse_event_and_id: ["event: delta\nid: 7\ndata: {}\n\n"] => ["delta", "{}", "7"];
        sse_id_persists_type_does_not: ["event: a\nid: 1\ndata: x\n\ndata: y\n\n"] => ["a", "x", "1"; "", "y", "1"];
        sse_id_with_nul_ignored: ["id: a\0b\ndata: x\n\n"] => ["", "x", ""];
        sse_empty_data_not_dispatched: ["event: ping\n\n"] => [];
        sse_no_final_blank_line_not_dispatched: ["data: x\n"] => [];
        sse_bom_dropped: ["\u{feff}data: x\n\n"] => ["", "x", ""];
        // A `data` line with no value makes the data buffer "\n": an event with empty data.
        sse_field_without_colon: ["data\n\n"] => ["", "", ""];
        sse_unknown_field_and_retry_ignored: ["retry: 10\nfoo: bar\ndata: x\n\n"] => ["", "x", ""];
        sse_byte_by_byte: ["d", "a", "t", "a", ":", " ", "é", "\n", "\n"] => ["", "é", ""];
    }

    #[test]
    fn sse_bom_split_bytes() {
        // The three bytes of the mark in three writes.
        let events = parse(&[b"\xef", b"\xbb", b"\xbfdata: x\n\n"]);
        assert_eq!(events, vec![event("", "x", "")]);
    }

    #[test]
    fn collector_stops_at_done_and_at_budgets() {
        let budget = Budget {
            events: 2,
            bytes: 1000,
            time: Duration::from_secs(5),
        };
        let c = Collector::new(budget, None);
        assert!(!c.write(b"data: {\"a\":1}\n\ndata: [DONE]\n\ndata: x\n\n"));
        let (events, stop) = c.finish();
        assert_eq!(events, vec![json::parse(r#"{"data":{"a":1}}"#).unwrap()]);
        assert_eq!(stop, None);

        let c = Collector::new(budget, None);
        assert!(!c.write(b"data: 1\n\ndata: 2\n\ndata: 3\n\n"));
        let (events, stop) = c.finish();
        assert_eq!(events.len(), 2);
        assert_eq!(stop, Some(Stop::Events(2)));

        let small = Budget {
            bytes: 12,
            ..budget
        };
        let c = Collector::new(small, None);
        assert!(!c.write(b"data: 1\n\ndata: 22\n\n"));
        let (events, stop) = c.finish();
        assert_eq!(events, vec![json::parse(r#"{"data":1}"#).unwrap()]);
        assert_eq!(stop, Some(Stop::Bytes(12)));
    }
}
