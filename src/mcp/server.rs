//! The session: the reader loop, the writer thread, the worker pool and the table of calls
//! in flight.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, BufRead, BufWriter, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use super::consent::{self, Approvals, Elicit, RoundTrip, Waiting};
use super::error::Error;
use super::lines::{Line, LineReader};
use super::rpc::{self, Incoming};
use crate::json::{Json, Map};
use crate::tool::{
    self, mcp as shape, Arguments, CallContext, ErrorKind, Progress, ToolCall, ToolOutput,
    ToolRegistry,
};

/// The newest protocol revision this server speaks: MCP 2026-07-28, where every request
/// carries its revision in `_meta` and no session is set up.
pub const LATEST_PROTOCOL_VERSION: &str = "2026-07-28";

/// The newest revision reached through `initialize`: MCP 2025-11-25. A client asking
/// `initialize` for a revision this server does not speak through the handshake is answered
/// with it (MCP 2025-11-25, "Lifecycle", "Version Negotiation": the server answers with a
/// version it supports, and the client disconnects if it cannot use it).
pub const LATEST_HANDSHAKE_VERSION: &str = "2025-11-25";

/// Every revision this server speaks, newest first: 2026-07-28 on each request (its
/// `_meta` names it), the others through `initialize`. `server/discover` and
/// `UnsupportedProtocolVersionError` list these.
pub const PROTOCOL_VERSIONS: [&str; 5] = [
    "2026-07-28",
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
];

/// The revisions a client reaches through `initialize`, newest first.
pub const HANDSHAKE_PROTOCOL_VERSIONS: [&str; 4] =
    ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// Tools on one page of `tools/list`; 0 puts every tool on one page. Defaults to 0: MCP
/// Inspector's CLI, mcp-use and fast-agent read the first page and never follow
/// `nextCursor`, so any page size loses tools with them once an API is larger than it (a
/// 1,123-tool Kubernetes server lost 623 at 500). The whole list of such an API is a few
/// megabytes, sent once; [`Server::page_size`] pages it for clients that follow cursors.
pub const DEFAULT_PAGE_SIZE: usize = 0;

/// How long, in milliseconds, a 2026-07-28 client may keep a `tools/list` or
/// `server/discover` answer (`ttlMs`). Defaults to 24 hours: the tools of a server never
/// change while its process runs, and a new process is a new server to its client.
pub const DEFAULT_LIST_TTL_MS: u64 = 24 * 60 * 60 * 1000;

/// Bytes of answers waiting to be written before the server stops reading new messages.
/// Defaults to 16 MiB: several whole `tools/list` answers of a very large API. A client
/// that sends requests and never reads its answers stops being read, instead of growing
/// the server without bound.
pub const DEFAULT_MAX_UNWRITTEN_BYTES: usize = 16 * 1024 * 1024;

/// The longest message, in bytes, the server reads. Defaults to 4 MiB: room for tool
/// arguments at their own limit of 1 MiB
/// ([`tool::DEFAULT_MAX_ARGUMENT_BYTES`]), escaped.
pub const DEFAULT_MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// Tool calls running at once (worker threads, started as calls arrive). Defaults to 8.
pub const DEFAULT_MAX_CONCURRENCY: usize = 8;

/// Calls accepted and not yet answered (running or waiting for a worker); one more is a
/// JSON-RPC error. Defaults to 1024.
pub const DEFAULT_MAX_CALLS_IN_FLIGHT: usize = 1024;

/// How long the end of input waits for calls in flight before the server returns. Defaults
/// to 5 s.
pub const DEFAULT_SHUTDOWN_DEADLINE: Duration = Duration::from_secs(5);

/// How long a client has to bring back the user's approval at revision 2026-07-28: the
/// `requestState` of an `InputRequiredResult` expires after it. Defaults to 10 minutes: time
/// for a person to read the question, short enough that an approval is not kept for later.
pub const DEFAULT_APPROVAL_TTL: Duration = Duration::from_secs(10 * 60);

/// How long a call waits for the client's answer to `elicitation/create` on a session.
/// Defaults to 5 minutes; no answer by then is no approval.
pub const DEFAULT_ELICITATION_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// The key that signs approvals, never shown by `Debug`.
#[derive(Clone)]
struct ApprovalKey(Arc<Vec<u8>>);

impl std::fmt::Debug for ApprovalKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(crate::quote::MASK)
    }
}

/// An MCP server over newline-delimited JSON-RPC 2.0 (MCP "Transports", "stdio"), with its
/// options.
///
/// [`serve`](Server::serve) reads messages from any `BufRead` until it ends, and writes only
/// protocol messages to the `Write`, each a whole line, flushed before the server waits
/// again. It never logs.
///
/// - Two eras on one input (MCP 2026-07-28, "Versioning", "Backward Compatibility"): a
///   request whose `_meta` holds `io.modelcontextprotocol/protocolVersion` is served
///   statelessly at that revision, 2026-07-28 (another is `UnsupportedProtocolVersionError`,
///   -32022, with the revisions supported in `data`); any other request belongs to the
///   session that `initialize` sets up.
/// - Revision 2026-07-28: `server/discover` (every revision of [`PROTOCOL_VERSIONS`], the
///   capabilities, the instructions); every result has `resultType: "complete"` and the
///   server's name and version in `_meta` (`io.modelcontextprotocol/serverInfo`);
///   `tools/list` has `ttlMs` ([`list_ttl_ms`](Server::list_ttl_ms)) and `cacheScope`
///   (`private`: a private API's tools are not for shared caches). `ping` and
///   `logging/setLevel` are gone at this revision (-32601); the server sends no
///   `notifications/message` whatever `io.modelcontextprotocol/logLevel` asks.
/// - Lifecycle of the older revisions: `initialize` (the version negotiated among
///   [`HANDSHAKE_PROTOCOL_VERSIONS`], the server name and version, the instructions,
///   `{"tools": {"listChanged": false}}`), `notifications/initialized`, `ping` (also before
///   `initialize`). Any other request before `initialize` is an error. Each session gets
///   what its revision defines: no `title`, `outputSchema` or `structuredContent` before
///   2025-06-18, no tool `annotations` before 2025-03-26.
/// - `tools/list`: every tool in the registry's order, the same on every call,
///   [`page_size`](Server::page_size) a page (by default one page: many clients never
///   follow `nextCursor`), with an opaque `nextCursor` that stays valid while the server
///   runs (the list never changes); a cursor the server did not make is error -32602.
/// - `tools/call`: run on a pool of at most [`max_concurrency`](Server::max_concurrency)
///   worker threads, so a slow API never holds up `ping`, `tools/list` or other calls;
///   answers come as calls finish, each with its id. The result is
///   [`tool::mcp::call_tool_result_for`]: text,
///   `structuredContent` for JSON, `isError` for every failure of the tool, argument errors
///   included, so the model can correct itself. An unknown tool and params of the wrong shape
///   are error -32602.
/// - `notifications/cancelled`: the call is no longer waited for and gets no answer. A call
///   already sending its request runs to its end on its worker (the HTTP client has no way
///   to abort it; the call's own timeouts bound it), and its result is dropped.
/// - JSON-RPC batches (JSON-RPC 2.0, section 6), only in a session that negotiated
///   2025-03-26 (the one revision that has them): every element is handled as its own line
///   would be, calls concurrently on the pool, and the answers are written as one array when
///   the last call is done or cancelled; a batch of notifications gets no line at all. An
///   empty batch and `initialize` inside one are -32600.
/// - A call that needs the user's approval ([approval](crate::design::endpoints#approval)):
///   at 2026-07-28 the first call answers `InputRequiredResult` (`resultType:
///   "input_required"`, the question in `inputRequests`, a signed `requestState`) and the
///   retry with the answer in `inputResponses` is sent only if it matches; in a session of
///   an older revision whose client declared form elicitation, `elicitation/create` goes to
///   the client mid-call (its answer is a response the reader hands to the waiting call);
///   a client that cannot ask gets an `isError` result. Nothing is sent without a yes.
/// - `_meta.progressToken`: `notifications/progress` when the request is sent and when its
///   response's head has arrived, before the body is read (see [`Progress`]).
/// - The end of input waits for calls in flight up to
///   [`shutdown_deadline`](Server::shutdown_deadline), then returns; calls still running are
///   left to finish on their threads, unanswered.
///
/// # Errors on the wire
///
/// | message | answer |
/// | --- | --- |
/// | not JSON, or a duplicate key | -32700, id `null` |
/// | not an object, `jsonrpc` not `"2.0"`, an id that is not a string or integer, no `method` | -32600 |
/// | a batch array, unless the session negotiated 2025-03-26; under it, an empty batch or `initialize` in a batch | -32600 |
/// | a line over [`max_line_bytes`](Server::max_line_bytes) | -32600, id `null`; the line is skipped without being held in memory |
/// | a request before `initialize` (without a 2026-07-28 `_meta`), a second `initialize`, an id already in flight (`1`, `1.0` and `1e0` are one id) | -32600 |
/// | a `_meta` revision other than 2026-07-28 | -32022, `data.supported` and `data.requested` |
/// | an unknown method | -32601 |
/// | params of the wrong shape, an unknown tool, a bad cursor | -32602 |
/// | more than [`max_calls_in_flight`](Server::max_calls_in_flight) calls | -32000 |
///
/// A duplicate id is answered with that id: the client broke the rule that ids are unique,
/// and the call already running with it still gets its own answer. Notifications are never
/// answered.
///
/// # Security
///
/// Everything read is untrusted: no message can panic the server, make it hold more than
/// `max_line_bytes` for a line, or queue more than `max_calls_in_flight` calls. A client
/// that does not read its answers is not read either once
/// [`max_unwritten_bytes`](Server::max_unwritten_bytes) wait to be written. Errors
/// quote no part of a message but its method and tool names. The per-call
/// [`context`](Server::context) reaches every call and is never written out.
///
/// # Examples
///
/// ```
/// use httptool::json::{self, Map};
/// use httptool::mcp::Server;
/// use httptool::tool::{CallContext, ToolRegistry, ToolSpec};
///
/// let mut registry = ToolRegistry::new();
/// registry.add_fn(ToolSpec::without_parameters("hello", "Says hello")?, |_: Map, _: &CallContext| "hi")?;
/// let input = concat!(
///     r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"doc","version":"1"}}}"#, "\n",
///     r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, "\n",
///     r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hello"}}"#, "\n",
/// );
/// let mut output = Vec::new();
/// Server::new().server_name("demo").serve(&registry, input.as_bytes(), &mut output)?;
///
/// let lines: Vec<json::Json> = output.split(|&b| b == b'\n')
///     .filter(|line| !line.is_empty())
///     .map(|line| json::parse_bytes(line).unwrap())
///     .collect();
/// assert_eq!(lines[0]["result"]["protocolVersion"], json::Json::from("2025-06-18"));
/// assert_eq!(lines[1]["result"]["content"][0]["text"], json::Json::from("hi"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct Server {
    page_size: usize,
    max_line_bytes: usize,
    max_concurrency: usize,
    max_calls_in_flight: usize,
    shutdown_deadline: Duration,
    max_unwritten_bytes: usize,
    list_ttl_ms: u64,
    name: String,
    version: String,
    instructions: Option<String>,
    context: CallContext,
    approval_key: Option<ApprovalKey>,
    approval_ttl: Duration,
    elicitation_timeout: Duration,
}

impl Default for Server {
    fn default() -> Server {
        Server {
            page_size: DEFAULT_PAGE_SIZE,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            max_concurrency: DEFAULT_MAX_CONCURRENCY,
            max_calls_in_flight: DEFAULT_MAX_CALLS_IN_FLIGHT,
            shutdown_deadline: DEFAULT_SHUTDOWN_DEADLINE,
            max_unwritten_bytes: DEFAULT_MAX_UNWRITTEN_BYTES,
            list_ttl_ms: DEFAULT_LIST_TTL_MS,
            name: String::from("httptool"),
            version: String::from(env!("CARGO_PKG_VERSION")),
            instructions: None,
            context: CallContext::new(),
            approval_key: None,
            approval_ttl: DEFAULT_APPROVAL_TTL,
            elicitation_timeout: DEFAULT_ELICITATION_TIMEOUT,
        }
    }
}

impl Server {
    /// A server with every default.
    pub fn new() -> Server {
        Server::default()
    }

    /// Tools on one page of `tools/list`; 0 puts every tool on one page. Defaults to
    /// [`DEFAULT_PAGE_SIZE`] (0: one page, which every client reads whole).
    pub fn page_size(mut self, tools: usize) -> Server {
        self.page_size = tools;
        self
    }

    /// The longest message read, in bytes; a longer line is answered with error -32600 and
    /// skipped. Defaults to [`DEFAULT_MAX_LINE_BYTES`] (4 MiB).
    pub fn max_line_bytes(mut self, bytes: usize) -> Server {
        self.max_line_bytes = bytes;
        self
    }

    /// Tool calls running at once (at least 1). Defaults to [`DEFAULT_MAX_CONCURRENCY`] (8).
    pub fn max_concurrency(mut self, calls: usize) -> Server {
        self.max_concurrency = calls.max(1);
        self
    }

    /// Calls accepted and not yet answered; one more is answered with error -32000.
    /// Defaults to [`DEFAULT_MAX_CALLS_IN_FLIGHT`] (1024).
    pub fn max_calls_in_flight(mut self, calls: usize) -> Server {
        self.max_calls_in_flight = calls.max(1);
        self
    }

    /// How long the end of input waits for calls in flight. Defaults to
    /// [`DEFAULT_SHUTDOWN_DEADLINE`] (5 s).
    pub fn shutdown_deadline(mut self, deadline: Duration) -> Server {
        self.shutdown_deadline = deadline;
        self
    }

    /// Bytes of answers waiting to be written past which the server reads no new message
    /// until the client has read some. Defaults to [`DEFAULT_MAX_UNWRITTEN_BYTES`] (16 MiB).
    pub fn max_unwritten_bytes(mut self, bytes: usize) -> Server {
        self.max_unwritten_bytes = bytes;
        self
    }

    /// `ttlMs` of `tools/list` and `server/discover` answers at revision 2026-07-28. Defaults
    /// to [`DEFAULT_LIST_TTL_MS`] (24 hours).
    pub fn list_ttl_ms(mut self, ms: u64) -> Server {
        self.list_ttl_ms = ms;
        self
    }

    /// `serverInfo.name`. Defaults to `httptool`.
    pub fn server_name(mut self, name: impl Into<String>) -> Server {
        self.name = name.into();
        self
    }

    /// `serverInfo.version`. Defaults to this crate's version.
    pub fn server_version(mut self, version: impl Into<String>) -> Server {
        self.version = version.into();
        self
    }

    /// The `instructions` of the `initialize` result, which clients may show the model
    /// ([`plugin_instructions`](super::plugin_instructions) makes them from plugins).
    /// Defaults to none.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Server {
        self.instructions = Some(instructions.into());
        self
    }

    /// The per-call values every call gets (a user's token, a tenant id: hidden parameters
    /// and `{"context": ...}` slots of plugins). Defaults to none.
    pub fn context(mut self, context: CallContext) -> Server {
        self.context = context;
        self
    }

    /// The context set with [`context`](Server::context).
    pub fn call_context(&self) -> &CallContext {
        &self.context
    }

    /// The key that signs the `requestState` of approvals at revision 2026-07-28 (HMAC-SHA256),
    /// at least 16 bytes: give every copy of a server behind one load balancer the same key,
    /// so the retry that brings the user's answer may reach any of them. Defaults to a random
    /// key for each [`Stateless`] or session (a state then comes back to the process that
    /// made it, or is refused). A shorter key is replaced by a random one.
    ///
    /// # Security
    ///
    /// Whoever holds the key can approve any call: keep it out of command lines and logs.
    pub fn approval_key(mut self, key: impl Into<Vec<u8>>) -> Server {
        let key = key.into();
        self.approval_key = if key.len() >= consent::MIN_KEY_BYTES {
            Some(ApprovalKey(Arc::new(key)))
        } else {
            None
        };
        self
    }

    /// How long an approval question stays answerable at revision 2026-07-28. Defaults to
    /// [`DEFAULT_APPROVAL_TTL`].
    pub fn approval_ttl(mut self, ttl: Duration) -> Server {
        self.approval_ttl = ttl;
        self
    }

    /// The time set with [`elicitation_timeout`](Server::elicitation_timeout).
    pub(crate) fn elicitation_wait(&self) -> Duration {
        self.elicitation_timeout
    }

    /// How long a call waits for the client's answer to `elicitation/create`. Defaults to
    /// [`DEFAULT_ELICITATION_TIMEOUT`].
    pub fn elicitation_timeout(mut self, timeout: Duration) -> Server {
        self.elicitation_timeout = timeout;
        self
    }

    /// Serves `registry` until `reader` ends; see [`Server`]. The registry is copied once
    /// (its tools are shared, not copied); [`serve_shared`](Server::serve_shared) takes one
    /// that is already shared.
    ///
    /// # Errors
    ///
    /// [`Error::Read`] when reading fails, [`Error::Write`] when writing does (the client
    /// went away); the server stops after waiting for calls in flight as at the end of
    /// input. A bad message is never an error here: it gets its JSON-RPC error.
    pub fn serve<R, W>(&self, registry: &ToolRegistry, reader: R, writer: W) -> Result<(), Error>
    where
        R: BufRead,
        W: Write + Send,
    {
        self.serve_shared(Arc::new(registry.clone()), reader, writer)
    }

    /// Serves a shared registry; as [`serve`](Server::serve).
    ///
    /// # Errors
    ///
    /// As [`serve`](Server::serve).
    pub fn serve_shared<R, W>(
        &self,
        registry: Arc<ToolRegistry>,
        reader: R,
        writer: W,
    ) -> Result<(), Error>
    where
        R: BufRead,
        W: Write + Send,
    {
        let (sender, outgoing) = mpsc::channel::<Out>();
        let backlog = Arc::new(Backlog::default());
        let out = Outgoing {
            sender,
            backlog: backlog.clone(),
        };
        thread::scope(|scope| {
            let written = scope.spawn(move || {
                let result = write_loop(writer, &outgoing, &backlog);
                if result.is_err() {
                    backlog.writer_gone();
                }
                result
            });
            let core = Arc::new(Core::new(self, registry.clone()));
            let shared = Arc::new(Shared {
                registry,
                queue: Mutex::new(Queue::default()),
                work: Condvar::new(),
                in_flight: Mutex::new(HashMap::new()),
                settled: Condvar::new(),
                waiting: Arc::new(Waiting::default()),
                elicitation_timeout: self.elicitation_timeout,
                core: core.clone(),
            });
            let mut session = Session {
                server: self,
                shared,
                out,
                version: None,
                elicitation: false,
                core,
            };
            let read = session.run(reader);
            session.shut_down();
            let wrote = match written.join() {
                Ok(result) => result,
                Err(_) => Err(io::Error::new(io::ErrorKind::Other, "the writer stopped")),
            };
            read.map_err(Error::Read)?;
            wrote.map_err(Error::Write)
        })
    }
}

/// What the writer thread is handed.
enum Out {
    /// A message, without its newline.
    Line(String),
    /// Flush and stop.
    Stop,
}

/// Bytes handed to the writer and not yet written: what lets the reader stop reading while
/// a client does not read its answers.
#[derive(Default)]
struct Backlog {
    state: Mutex<BacklogState>,
    drained: Condvar,
}

#[derive(Default)]
struct BacklogState {
    bytes: usize,
    /// The writer stopped after a failed write: nothing will drain any more.
    writer_gone: bool,
}

impl Backlog {
    fn add(&self, bytes: usize) {
        let mut state = lock(&self.state);
        state.bytes = state.bytes.saturating_add(bytes);
    }

    fn written(&self, bytes: usize) {
        let mut state = lock(&self.state);
        state.bytes = state.bytes.saturating_sub(bytes);
        drop(state);
        self.drained.notify_all();
    }

    fn writer_gone(&self) {
        lock(&self.state).writer_gone = true;
        self.drained.notify_all();
    }

    /// Waits until at most `max` bytes wait to be written; `false` once the writer is gone.
    fn wait_at_most(&self, max: usize) -> bool {
        let mut state = lock(&self.state);
        loop {
            if state.writer_gone {
                return false;
            }
            if state.bytes <= max {
                return true;
            }
            state = match self.drained.wait(state) {
                Ok(guard) => guard,
                Err(poisoned) => poisoned.into_inner(),
            };
        }
    }
}

/// One thread's way to the writer: its sender (a `Sender` is not `Sync` on every supported
/// Rust) and the backlog every line is counted in.
#[derive(Clone)]
struct Outgoing {
    sender: Sender<Out>,
    backlog: Arc<Backlog>,
}

impl Outgoing {
    /// Hands a message to the writer. The writer is gone only after a write failed; that
    /// error is reported at the end.
    fn line(&self, line: String) {
        let bytes = line.len() + 1;
        self.backlog.add(bytes);
        if self.sender.send(Out::Line(line)).is_err() {
            self.backlog.written(bytes);
        }
    }

    fn stop(&self) {
        let _ = self.sender.send(Out::Stop);
    }
}

/// Writes each message as one line; flushes whenever no message is waiting, so a burst of
/// answers costs one flush and none waits behind the buffer.
fn write_loop<W: Write>(writer: W, outgoing: &Receiver<Out>, backlog: &Backlog) -> io::Result<()> {
    let mut writer = BufWriter::with_capacity(64 * 1024, writer);
    loop {
        let mut message = match outgoing.recv() {
            Ok(message) => message,
            Err(_) => return writer.flush(),
        };
        loop {
            match message {
                Out::Stop => return writer.flush(),
                Out::Line(line) => {
                    writer.write_all(line.as_bytes())?;
                    writer.write_all(b"\n")?;
                    backlog.written(line.len() + 1);
                }
            }
            message = match outgoing.try_recv() {
                Ok(next) => next,
                Err(_) => break,
            };
        }
        writer.flush()?;
    }
}

/// What the reader thread and the workers share.
struct Shared {
    registry: Arc<ToolRegistry>,
    queue: Mutex<Queue>,
    /// Signalled when a job is queued or the pool closes.
    work: Condvar,
    /// Calls accepted and not yet answered or cancelled, by id.
    in_flight: Mutex<HashMap<String, Arc<CallState>>>,
    /// Signalled when a call leaves `in_flight`.
    settled: Condvar,
    /// The calls waiting for the client's answer to a request of ours.
    waiting: Arc<Waiting>,
    elicitation_timeout: Duration,
    core: Arc<Core>,
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    workers: usize,
    idle: usize,
    closing: bool,
}

struct CallState {
    cancelled: AtomicBool,
    /// The batch the call came in, which takes its answer.
    batch: Option<Arc<Batch>>,
}

struct Job {
    id: Json,
    key: String,
    call: ToolCall,
    state: Arc<CallState>,
    progress_token: Option<Json>,
    progress_messages: bool,
    context: CallContext,
    /// What the revision of the request defines of a result.
    shape: Shape,
    /// `_meta` for a 2026-07-28 result, which also gets `resultType`; `None` before.
    result_meta: Option<Json>,
    /// How the call asks for the user's approval.
    asking: Asking,
}

/// The revision whose sessions take JSON-RPC batches: MCP 2025-03-26 alone.
const BATCH_PROTOCOL_VERSION: &str = "2025-03-26";

/// The answers of one batch, written as one array when the last is in.
struct Batch {
    inner: Mutex<BatchInner>,
}

struct BatchInner {
    /// Calls not yet settled, plus one for the reader until it has read every element.
    waiting: usize,
    answers: Vec<String>,
    /// The way to the writer (kept under the lock: a `Sender` is not `Sync` on every
    /// supported Rust).
    out: Outgoing,
}

impl Batch {
    fn new(out: Outgoing) -> Batch {
        Batch {
            inner: Mutex::new(BatchInner {
                waiting: 1,
                answers: Vec::new(),
                out,
            }),
        }
    }

    /// An answer made while the batch is read (an error, `ping`, `tools/list`).
    fn add(&self, answer: String) {
        lock(&self.inner).answers.push(answer);
    }

    /// One more call whose answer will come from a worker.
    fn expect(&self) {
        lock(&self.inner).waiting += 1;
    }

    /// A call is done, with its answer or none (cancelled); the last one writes the array.
    /// JSON-RPC 2.0, section 6: when no element needs an answer, nothing is written at all.
    fn settle(&self, answer: Option<String>) {
        let mut inner = lock(&self.inner);
        if let Some(answer) = answer {
            inner.answers.push(answer);
        }
        inner.waiting = inner.waiting.saturating_sub(1);
        if inner.waiting > 0 || inner.answers.is_empty() {
            return;
        }
        let answers = std::mem::take(&mut inner.answers);
        let mut text =
            String::with_capacity(answers.iter().map(|a| a.len() + 1).sum::<usize>() + 1);
        text.push('[');
        for (i, answer) in answers.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(answer);
        }
        text.push(']');
        inner.out.line(text);
    }
}

/// A lock that a panicking holder cannot poison for the others: every critical section
/// here leaves the data consistent.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What answering needs beyond a session: the options, the tools, each tool rendered for
/// `tools/list` once, and the key of the cursors. Shared by a stdio session and the
/// stateless answers of [`Stateless`].
struct Core {
    server: Server,
    registry: Arc<ToolRegistry>,
    /// Each tool rendered for `tools/list`, for each [`Shape`], made on its first list.
    tools: Mutex<[Option<Arc<Vec<String>>>; 3]>,
    /// The key of this server's cursors: random for each server, so a client cannot make a
    /// cursor the server did not give.
    cursor_key: RandomState,
    /// `"_meta":{"io.modelcontextprotocol/serverInfo":{...}}`, for 2026-07-28 results.
    server_meta: Json,
    /// Signs and checks the approvals of revision 2026-07-28.
    approvals: Approvals,
}

impl Core {
    fn new(server: &Server, registry: Arc<ToolRegistry>) -> Core {
        Core {
            server: server.clone(),
            registry,
            tools: Mutex::new(Default::default()),
            cursor_key: RandomState::new(),
            server_meta: server_meta(server),
            approvals: Approvals::new(
                server.approval_key.as_ref().map(|k| k.0.as_slice()),
                server.approval_ttl,
            ),
        }
    }

    /// MCP 2026-07-28, "Discovery": the revisions, capabilities and identity of the server.
    fn discover(&self, id: &Json) -> String {
        let mut capabilities = Map::with_capacity(1);
        capabilities.insert("tools", Map::new());
        let mut result = Map::with_capacity(7);
        result.insert("resultType", "complete");
        result.insert(
            "supportedVersions",
            PROTOCOL_VERSIONS
                .iter()
                .map(|v| Json::from(*v))
                .collect::<Vec<_>>(),
        );
        result.insert("capabilities", capabilities);
        if let Some(instructions) = &self.server.instructions {
            result.insert("instructions", instructions.as_str());
        }
        result.insert("ttlMs", self.server.list_ttl_ms);
        result.insert("cacheScope", LIST_CACHE_SCOPE);
        result.insert("_meta", self.server_meta.clone());
        rpc::response(id, Json::Object(result))
    }

    /// MCP 2025-11-25, "Lifecycle", "Initialization".
    /// The revision negotiated and the answer, or the error answer.
    fn initialize(&self, id: &Json, params: &Map) -> Result<(&'static str, String), String> {
        let requested = match params.get("protocolVersion").and_then(Json::as_str) {
            Some(requested) => requested,
            None => {
                return Err(rpc::error(
                    id,
                    rpc::INVALID_PARAMS,
                    "invalid params: initialize needs \"protocolVersion\", a string",
                ))
            }
        };
        let version = HANDSHAKE_PROTOCOL_VERSIONS
            .iter()
            .copied()
            .find(|v| *v == requested)
            .unwrap_or(LATEST_HANDSHAKE_VERSION);
        let mut tools = Map::with_capacity(1);
        tools.insert("listChanged", false);
        let mut capabilities = Map::with_capacity(1);
        capabilities.insert("tools", tools);
        let mut info = Map::with_capacity(2);
        info.insert("name", self.server.name.as_str());
        info.insert("version", self.server.version.as_str());
        let mut result = Map::with_capacity(4);
        result.insert("protocolVersion", version);
        result.insert("capabilities", capabilities);
        result.insert("serverInfo", info);
        if let Some(instructions) = &self.server.instructions {
            result.insert("instructions", instructions.as_str());
        }
        Ok((version, rpc::response(id, Json::Object(result))))
    }

    /// MCP 2025-11-25, "Tools", "Listing Tools", and "Pagination": the cursor is opaque to
    /// the client; here it names the index of the page's first tool with a tag keyed for
    /// this server, so a cursor the server did not give is refused. The order is the
    /// registry's, the same on every call (MCP 2026-07-28, "Changelog", minor change 3).
    /// `modern` adds what revision 2026-07-28 asks of every list result.
    fn list(&self, id: &Json, params: &Map, shape: Shape, modern: bool) -> String {
        let registry = &self.registry;
        let start = match params.get("cursor") {
            None | Some(Json::Null) => 0,
            Some(Json::String(cursor)) => match self.read_cursor(cursor, registry.len()) {
                Some(start) => start,
                None => {
                    return rpc::error(
                        id,
                        rpc::INVALID_PARAMS,
                        "invalid params: the cursor is not one this server gave",
                    )
                }
            },
            Some(other) => {
                return rpc::error(
                    id,
                    rpc::INVALID_PARAMS,
                    &format!(
                        "invalid params: the cursor must be a string, got {}",
                        other.type_name()
                    ),
                )
            }
        };
        let tools = {
            let mut rendered = lock(&self.tools);
            match rendered.get_mut(shape as usize) {
                Some(slot) => slot
                    .get_or_insert_with(|| {
                        Arc::new(
                            registry
                                .iter_specs()
                                .map(|spec| shape.tool(spec).to_string())
                                .collect(),
                        )
                    })
                    .clone(),
                None => return rpc::error(id, rpc::INTERNAL_ERROR, "internal error: no tool list"),
            }
        };
        let end = match self.server.page_size {
            0 => tools.len(),
            size => start.saturating_add(size).min(tools.len()),
        };
        let page = tools.get(start..end).unwrap_or(&[]);
        let mut text = rpc::response_head(id);
        text.reserve(page.iter().map(|t| t.len() + 1).sum::<usize>() + 256);
        text.push_str("{\"tools\":[");
        for (i, tool) in page.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            text.push_str(tool);
        }
        text.push(']');
        let total = tools.len();
        if end < total {
            text.push_str(",\"nextCursor\":");
            let cursor = self.make_cursor(end, total);
            crate::json::write_str(&mut text, &cursor);
        }
        if modern {
            // MCP 2026-07-28, "Caching": `ttlMs` and `cacheScope` on every list result.
            text.push_str(",\"resultType\":\"complete\",\"ttlMs\":");
            text.push_str(&self.server.list_ttl_ms.to_string());
            text.push_str(",\"cacheScope\":");
            crate::json::write_str(&mut text, LIST_CACHE_SCOPE);
            text.push_str(",\"_meta\":");
            self.server_meta.write_to(&mut text);
        }
        text.push_str("}}");
        text
    }

    /// A keyed tag of a page start: SipHash under this server's random key, so only the
    /// server can make one.
    fn cursor_tag(&self, index: usize, total: usize) -> u64 {
        let mut hasher = self.cursor_key.build_hasher();
        hasher.write_usize(index);
        hasher.write_usize(total);
        hasher.write_usize(self.server.page_size);
        hasher.finish()
    }

    /// `"{index:x}.{tag:016x}"`: where the next page starts.
    fn make_cursor(&self, index: usize, total: usize) -> String {
        format!("{:x}.{:016x}", index, self.cursor_tag(index, total))
    }

    /// The page start a cursor names, when this server made it: the cursor must be, byte
    /// for byte, the one the server gives for a start inside the list (no sign, no leading
    /// zero, no other case), tag included.
    fn read_cursor(&self, cursor: &str, total: usize) -> Option<usize> {
        let (index, _) = cursor.split_once('.')?;
        if index.is_empty() || index.len() > 16 || !index.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let index = usize::from_str_radix(index, 16).ok()?;
        if index == 0 || index >= total || self.make_cursor(index, total) != cursor {
            return None;
        }
        Some(index)
    }

    /// The call a `tools/call` request asks for, its progress token, and what it brings for
    /// approvals; or the error answer.
    fn prepare_call(&self, id: &Json, mut params: Map) -> Result<Prepared, String> {
        let invalid = |message: String| Err(rpc::error(id, rpc::INVALID_PARAMS, &message));
        // MCP 2026-07-28, "Multi Round-Trip Requests": a retry's answers and echoed state.
        let input_responses = match params.remove("inputResponses") {
            None | Some(Json::Null) => None,
            Some(responses @ Json::Object(_)) => Some(responses),
            Some(other) => {
                return invalid(format!(
                    "invalid params: inputResponses must be an object, got {}",
                    other.type_name()
                ))
            }
        };
        let request_state = match params.remove("requestState") {
            None | Some(Json::Null) => None,
            Some(state @ Json::String(_)) => state.into_string(),
            Some(other) => {
                return invalid(format!(
                    "invalid params: requestState must be a string, got {}",
                    other.type_name()
                ))
            }
        };
        let mut capabilities = None;
        // "Progress": a token is a string or an integer, unique among the requests in flight.
        let progress_token = match params.remove("_meta") {
            None | Some(Json::Null) => None,
            Some(meta) if meta.is_object() => match meta.into_object().and_then(|mut m| {
                capabilities = m.remove(META_CLIENT_CAPABILITIES);
                m.remove("progressToken")
            }) {
                None | Some(Json::Null) => None,
                Some(token @ Json::String(_)) => Some(token),
                Some(token @ Json::Number(_)) if token.as_i64().is_some() => Some(token),
                Some(other) => {
                    return invalid(format!(
                    "invalid params: _meta.progressToken must be a string or an integer, got {}",
                    other.type_name()
                ))
                }
            },
            Some(other) => {
                return invalid(format!(
                    "invalid params: _meta must be an object, got {}",
                    other.type_name()
                ))
            }
        };
        let call_id = match id {
            Json::String(text) => text.clone(),
            other => other.to_string(),
        };
        let call = match shape::call_from_params(call_id, &Json::Object(params)) {
            Ok(call) => call,
            Err(e) => return invalid(format!("invalid params: {}", e)),
        };
        let registry = &self.registry;
        if !registry.contains(call.name()) {
            // MCP 2025-11-25, "Tools", "Error Handling": an unknown tool is a protocol error.
            return invalid(format!(
                "invalid params: {}",
                tool::unknown_name_message("tool", call.name(), registry.names())
            ));
        }
        Ok(Prepared {
            call,
            progress_token,
            capabilities,
            input_responses,
            request_state,
        })
    }

    /// How a 2026-07-28 call gets the user's approval: a first call keeps the question for
    /// an `InputRequiredResult`; a retry's state is checked against this very call (tool and
    /// arguments), and its answer read. `Err` is the answer to send at once: a state that
    /// does not approve this call, nothing run.
    fn round_trip(
        &self,
        id: &Json,
        prepared: &mut Prepared,
        shape: Shape,
    ) -> Result<Arc<RoundTrip>, String> {
        let can_ask = consent::can_elicit_form(prepared.capabilities.as_ref());
        let state = match prepared.request_state.take() {
            None => {
                return Ok(Arc::new(RoundTrip {
                    answer: None,
                    can_ask,
                    asked: Mutex::new(None),
                }))
            }
            Some(state) => state,
        };
        let call = &prepared.call;
        let redeemed = match call_arguments(call) {
            Some(arguments) => self.approvals.redeem(&state, call.name(), &arguments),
            None => Err(consent::StateError::Mismatch),
        };
        match redeemed {
            Ok(()) => Ok(Arc::new(RoundTrip {
                answer: Some(consent::answer_in(prepared.input_responses.as_ref())),
                can_ask,
                asked: Mutex::new(None),
            })),
            Err(e) => {
                let output = ToolOutput::error(ErrorKind::NotApproved, e.reason());
                let mut result = shape::call_tool_result(&output);
                shape.result(&mut result, Some(self.server_meta.clone()));
                Err(rpc::response(id, result))
            }
        }
    }
}

/// Why a call answered without a session, before revision 2026-07-28, cannot ask: the
/// answer is one JSON response, with no room for a request to the client.
const HTTP_CANNOT_ASK: &str = "this server cannot ask the user through this client at its protocol revision (a call needing approval over HTTP needs revision 2026-07-28, or an event stream)";

/// What a `tools/call` request holds, read.
struct Prepared {
    call: ToolCall,
    progress_token: Option<Json>,
    /// `_meta` `io.modelcontextprotocol/clientCapabilities` (revision 2026-07-28).
    capabilities: Option<Json>,
    /// A 2026-07-28 retry's `inputResponses` and `requestState`.
    input_responses: Option<Json>,
    request_state: Option<String>,
}

/// The arguments of a call as an object (they arrive parsed over MCP).
fn call_arguments(call: &ToolCall) -> Option<Map> {
    match call.arguments() {
        Arguments::Object(map) => Some(map.clone()),
        Arguments::Text(text) => crate::json::parse(text).ok()?.into_object(),
    }
}

/// How a call asks for the user's approval when it needs it.
enum Asking {
    /// Revision 2026-07-28: the multi round-trip pattern.
    RoundTrip(Arc<RoundTrip>),
    /// `elicitation/create` on the session (`with_mode`: 2025-11-25's `"mode": "form"`).
    Elicit { with_mode: bool },
    /// The approver the context has; refused with this reason when it has none.
    Context(&'static str),
}

/// MCP answered one message at a time, without a session: what a transport on which every
/// message stands alone calls (MCP Streamable HTTP, where any copy of a server may get any
/// request). Made by [`Server::stateless`]; cheap to clone and shared between threads.
///
/// A request whose `_meta` names revision 2026-07-28 is answered at that revision, as on
/// stdio. Any other is answered at the revision the transport says the client negotiated
/// (Streamable HTTP carries it in the `MCP-Protocol-Version` header): `initialize` is
/// answered (no session is kept; the client's later requests name their revision
/// themselves), `ping`, `tools/list` and `tools/call` at that revision. A call runs on the
/// calling thread; its progress notifications come back with its answer
/// ([`Reply::notifications`]). Notifications and responses get no answer;
/// `notifications/cancelled` cancels nothing (a transport without sessions cancels by closing
/// the request's stream). Batches are refused (-32600).
///
/// `tools/list` cursors are keyed for this process: behind a load balancer, keep the
/// default [`page_size`](Server::page_size) of 0 (one page), so no cursor crosses copies.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use httptool::json;
/// use httptool::mcp::Server;
/// use httptool::tool::ToolRegistry;
///
/// let stateless = Server::new().stateless(Arc::new(ToolRegistry::new()));
/// let message = json::parse(r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#)?;
/// let reply = stateless.answer(message, "2025-03-26");
/// assert!(reply.text().unwrap().contains("\"supportedVersions\""));
/// assert_eq!(reply.error_code(), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Stateless {
    core: Arc<Core>,
}

impl std::fmt::Debug for Stateless {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stateless")
            .field("server", &self.core.server)
            .field("tools", &self.core.registry.len())
            .finish()
    }
}

/// The answer to one message of [`Stateless::answer`].
#[derive(Clone, Debug, Default)]
pub struct Reply {
    text: Option<String>,
    notifications: Vec<String>,
}

impl Reply {
    /// The JSON-RPC response, as one line of JSON; `None` for a notification or a response.
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// The response, owned.
    pub fn into_text(self) -> Option<String> {
        self.text
    }

    /// The notifications sent while the request ran (`notifications/progress`), in order,
    /// each one line of JSON.
    pub fn notifications(&self) -> &[String] {
        &self.notifications
    }

    /// The JSON-RPC error code when the response is an error (a tool's failure is a result
    /// with `isError`, not an error).
    pub fn error_code(&self) -> Option<i64> {
        error_code(self.text.as_deref()?)
    }
}

/// The code of an error response written by [`rpc`]: `"error":{"code":` after the id, where
/// a result would have `"result":`. Neither can sit inside a string (its quote would be
/// escaped), and the top level's key comes before anything a result holds.
fn error_code(answer: &str) -> Option<i64> {
    const ERROR: &str = ",\"error\":{\"code\":";
    let at = answer.find(ERROR)?;
    if answer
        .find(",\"result\":")
        .map_or(false, |result| result < at)
    {
        return None;
    }
    let digits = &answer[at + ERROR.len()..];
    let end = digits
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
        .map_or(digits.len(), |(i, _)| i);
    digits[..end].parse().ok()
}

impl Server {
    /// These options and `registry`, to answer messages without a session; see
    /// [`Stateless`].
    pub fn stateless(&self, registry: Arc<ToolRegistry>) -> Stateless {
        Stateless {
            core: Arc::new(Core::new(self, registry)),
        }
    }
}

impl Stateless {
    /// The options answers are made with.
    pub fn server(&self) -> &Server {
        &self.core.server
    }

    /// The tools served.
    pub fn registry(&self) -> &Arc<ToolRegistry> {
        &self.core.registry
    }

    /// Answers one message (already parsed: parse it strictly, duplicate keys refused, as
    /// [`json::ParseOptions::reject_duplicate_keys`](crate::json::ParseOptions::reject_duplicate_keys)
    /// does). `revision` is the revision of a request that does not name 2026-07-28 in its
    /// `_meta`: one of [`HANDSHAKE_PROTOCOL_VERSIONS`] (another is answered -32022).
    pub fn answer(&self, message: Json, revision: &str) -> Reply {
        self.answer_with(message, revision, None)
    }

    /// As [`answer`](Stateless::answer), with `context` for this request's call instead of
    /// the server's [`context`](Server::context) (the caller's identity, say).
    pub fn answer_with(
        &self,
        message: Json,
        revision: &str,
        context: Option<CallContext>,
    ) -> Reply {
        self.answer_live(message, revision, context, None)
    }

    /// As [`answer_with`](Stateless::answer_with), with each notification handed to `live`
    /// as it is made (an event stream's writer) instead of kept in the [`Reply`].
    pub(crate) fn answer_live(
        &self,
        message: Json,
        revision: &str,
        context: Option<CallContext>,
        live: Option<Sink>,
    ) -> Reply {
        match rpc::message(message) {
            Incoming::Invalid(text) => Reply {
                text: Some(text),
                notifications: Vec::new(),
            },
            Incoming::Request { id, method, params } => {
                self.request(&id, &method, params, revision, context, live)
            }
            Incoming::Notification { .. } | Incoming::Response { .. } | Incoming::Batch(_) => {
                Reply::default()
            }
        }
    }

    fn request(
        &self,
        id: &Json,
        method: &str,
        params: Option<Json>,
        revision: &str,
        context: Option<CallContext>,
        live: Option<Sink>,
    ) -> Reply {
        let text = |text: String| Reply {
            text: Some(text),
            notifications: Vec::new(),
        };
        let params = match params {
            None | Some(Json::Null) => Map::new(),
            Some(value) if value.is_object() => value.into_object().unwrap_or_default(),
            Some(other) => {
                return text(rpc::error(
                    id,
                    rpc::INVALID_PARAMS,
                    &format!(
                        "invalid params: {} takes an object, got {}",
                        method,
                        other.type_name()
                    ),
                ))
            }
        };
        let core = &self.core;
        if method != "initialize" {
            match modern_version(&params) {
                Ok(true) => {
                    return match method {
                        "server/discover" => text(core.discover(id)),
                        "tools/list" => text(core.list(id, &params, Shape::Full, true)),
                        "tools/call" => {
                            self.call(id, params, LATEST_PROTOCOL_VERSION, context, live)
                        }
                        other => text(rpc::error(
                            id,
                            rpc::METHOD_NOT_FOUND,
                            &format!(
                                "method not found: {}; at revision 2026-07-28 this server offers server/discover, tools/list and tools/call",
                                tool::quote(other)
                            ),
                        )),
                    }
                }
                Ok(false) => {}
                Err((code, message, data)) => {
                    return text(rpc::error_with(id, code, &message, data))
                }
            }
        }
        match method {
            "ping" => return text(rpc::response(id, Json::Object(Map::new()))),
            "initialize" => {
                return text(match core.initialize(id, &params) {
                    Ok((_, answer)) | Err(answer) => answer,
                })
            }
            _ => {}
        }
        let version = match HANDSHAKE_PROTOCOL_VERSIONS
            .iter()
            .copied()
            .find(|v| *v == revision)
        {
            Some(version) => version,
            None => {
                let mut data = Map::with_capacity(2);
                data.insert(
                    "supported",
                    PROTOCOL_VERSIONS
                        .iter()
                        .map(|v| Json::from(*v))
                        .collect::<Vec<_>>(),
                );
                data.insert("requested", revision);
                return text(rpc::error_with(
                    id,
                    rpc::UNSUPPORTED_PROTOCOL_VERSION,
                    &format!(
                        "unsupported protocol version: {}; this server speaks 2026-07-28 on each request, and {} through initialize",
                        tool::quote(revision),
                        HANDSHAKE_PROTOCOL_VERSIONS.join(", ")
                    ),
                    Some(Json::Object(data)),
                ));
            }
        };
        match method {
            "tools/list" => text(core.list(id, &params, Shape::of(version), false)),
            "tools/call" => self.call(id, params, version, context, live),
            other => text(rpc::error(
                id,
                rpc::METHOD_NOT_FOUND,
                &format!(
                    "method not found: {}; this server offers initialize, ping, tools/list and tools/call",
                    tool::quote(other)
                ),
            )),
        }
    }

    fn call(
        &self,
        id: &Json,
        params: Map,
        version: &'static str,
        context: Option<CallContext>,
        live: Option<Sink>,
    ) -> Reply {
        let core = &self.core;
        let text = |answer: String| Reply {
            text: Some(answer),
            notifications: Vec::new(),
        };
        let mut prepared = match core.prepare_call(id, params) {
            Ok(prepared) => prepared,
            Err(answer) => return text(answer),
        };
        let mut context = context.unwrap_or_else(|| core.server.context.clone());
        let mut trip = None;
        if version == LATEST_PROTOCOL_VERSION {
            match core.round_trip(id, &mut prepared, Shape::of(version)) {
                Ok(round_trip) => {
                    context = context.with_approver(round_trip.clone());
                    trip = Some(round_trip);
                }
                Err(answer) => return text(answer),
            }
        } else if context.approver().is_none() {
            context = context.with_approver(Arc::new(consent::CannotAsk(HTTP_CANNOT_ASK)));
        }
        let (call, token) = (prepared.call, prepared.progress_token);
        let progress = token.map(|token| {
            Arc::new(CollectedProgress {
                token,
                messages: version != "2024-11-05",
                lines: Mutex::new((Vec::new(), None)),
                live,
            })
        });
        if let Some(progress) = &progress {
            context = context.with_progress(progress.clone());
        }
        let meta = if version == LATEST_PROTOCOL_VERSION {
            Some(core.server_meta.clone())
        } else {
            None
        };
        let answer = call_answer(
            &core.registry,
            id,
            call,
            &context,
            Shape::of(version),
            meta,
            trip.as_deref().map(|t| (t, &core.approvals)),
        );
        drop(context);
        let notifications = match progress {
            Some(progress) => std::mem::take(&mut lock(&progress.lines).0),
            None => Vec::new(),
        };
        Reply {
            text: Some(answer),
            notifications,
        }
    }
}

struct Session<'a> {
    server: &'a Server,
    shared: Arc<Shared>,
    out: Outgoing,
    /// The revision negotiated through `initialize`, once it was answered.
    version: Option<&'static str>,
    /// Whether the client said at `initialize` that it takes form elicitation.
    elicitation: bool,
    /// The options, the tools and what is made of them once.
    core: Arc<Core>,
}

impl Session<'_> {
    fn send(&self, line: String) {
        self.out.line(line);
    }

    fn run<R: BufRead>(&mut self, reader: R) -> io::Result<()> {
        let mut lines = LineReader::new(reader, self.server.max_line_bytes);
        let mut buf = Vec::new();
        loop {
            // A client that does not read its answers is not read either.
            if !self
                .out
                .backlog
                .wait_at_most(self.server.max_unwritten_bytes)
            {
                return Ok(());
            }
            match lines.next_line(&mut buf)? {
                Line::Eof => return Ok(()),
                Line::TooLong { seen } => self.send(rpc::error(
                    &Json::Null,
                    rpc::INVALID_REQUEST,
                    &format!(
                        "invalid request: the message is {} bytes, over the limit of {}",
                        seen, self.server.max_line_bytes
                    ),
                )),
                Line::Message if buf.iter().all(u8::is_ascii_whitespace) => {}
                Line::Message => self.handle(&buf),
            }
        }
    }

    fn handle(&mut self, line: &[u8]) {
        match rpc::read(line) {
            Incoming::Invalid(answer) => self.send(answer),
            Incoming::Response { id, answer } => {
                self.shared.waiting.deliver(&id, answer);
            }
            Incoming::Batch(elements) => self.batch(elements),
            Incoming::Notification { method, params } => self.notification(&method, params),
            Incoming::Request { id, method, params } => {
                if let Some(answer) = self.request(&id, &method, params, None) {
                    self.send(answer);
                }
            }
        }
    }

    /// A JSON-RPC batch (JSON-RPC 2.0, section 6), taken only under MCP 2025-03-26: its
    /// "Base Protocol", "Batching", says implementations "MUST support receiving JSON-RPC
    /// batches", and 2025-06-18 removed them ("Changelog": "Remove support for JSON-RPC
    /// batching"). Every element is handled as a line of its own would be, calls
    /// concurrently on the pool; the answers go out together as one array once the last call
    /// is done (section 6: "after all of the batch Request objects have been processed"), in
    /// the order they were made, which section 6 leaves free.
    fn batch(&mut self, elements: Vec<Json>) {
        if self.version != Some(BATCH_PROTOCOL_VERSION) {
            return self.send(rpc::error(
                &Json::Null,
                rpc::INVALID_REQUEST,
                "invalid request: batches (JSON arrays of messages) are accepted only under protocol revision 2025-03-26; send one message a line",
            ));
        }
        // Section 6: an empty array is one Invalid Request, not an empty array.
        if elements.is_empty() {
            return self.send(rpc::error(
                &Json::Null,
                rpc::INVALID_REQUEST,
                "invalid request: the batch is empty; a batch holds at least one message",
            ));
        }
        let batch = Arc::new(Batch::new(self.out.clone()));
        for element in elements {
            let answer = match rpc::message(element) {
                Incoming::Invalid(answer) => Some(answer),
                Incoming::Response { id, answer } => {
                    self.shared.waiting.deliver(&id, answer);
                    None
                }
                Incoming::Batch(_) => None,
                Incoming::Notification { method, params } => {
                    self.notification(&method, params);
                    None
                }
                // MCP 2025-03-26, "Lifecycle", "Initialization": "The initialization request
                // MUST NOT be part of a JSON-RPC batch".
                Incoming::Request { id, method, .. } if method == "initialize" => Some(rpc::error(
                    &id,
                    rpc::INVALID_REQUEST,
                    "invalid request: initialize must not be part of a batch",
                )),
                Incoming::Request { id, method, params } => {
                    self.request(&id, &method, params, Some(&batch))
                }
            };
            if let Some(answer) = answer {
                batch.add(answer);
            }
        }
        // The reader's own hold: the array can go out once every element is read.
        batch.settle(None);
    }

    fn notification(&mut self, method: &str, params: Option<Json>) {
        // Unknown notifications are ignored, as JSON-RPC requires of every notification.
        if method == "notifications/cancelled" {
            let id = params.as_ref().and_then(|p| p.get("requestId"));
            if let Some(id) = id {
                self.cancel(id);
            }
        }
    }

    /// MCP 2025-11-25, "Cancellation": the receiver stops processing and sends no response.
    fn cancel(&self, id: &Json) {
        let mut in_flight = lock(&self.shared.in_flight);
        if let Some(state) = in_flight.remove(&rpc::id_key(id)) {
            state.cancelled.store(true, Ordering::SeqCst);
            // Its batch no longer waits for it either.
            if let Some(batch) = &state.batch {
                batch.settle(None);
            }
        }
        drop(in_flight);
        self.shared.settled.notify_all();
    }

    /// The answer to a request, or `None` when a worker will send it.
    /// `batch` is where a call's answer goes when the request is part of one.
    fn request(
        &mut self,
        id: &Json,
        method: &str,
        params: Option<Json>,
        batch: Option<&Arc<Batch>>,
    ) -> Option<String> {
        let params = match params {
            None | Some(Json::Null) => Map::new(),
            Some(value) if value.is_object() => value.into_object().unwrap_or_default(),
            Some(other) => {
                return Some(rpc::error(
                    id,
                    rpc::INVALID_PARAMS,
                    &format!(
                        "invalid params: {} takes an object, got {}",
                        method,
                        other.type_name()
                    ),
                ))
            }
        };
        if method != "initialize" {
            match modern_version(&params) {
                Ok(true) => return self.modern(id, method, params, batch),
                Ok(false) => {}
                Err((code, message, data)) => {
                    return Some(rpc::error_with(id, code, &message, data))
                }
            }
        }
        match method {
            "ping" => return Some(rpc::response(id, Json::Object(Map::new()))),
            "initialize" => return Some(self.initialize(id, &params)),
            _ => {}
        }
        let version = match self.version {
            Some(version) => version,
            None => {
                return Some(rpc::error(
                    id,
                    rpc::INVALID_REQUEST,
                    "invalid request: the session is not initialized; send initialize first, or name revision 2026-07-28 in _meta \"io.modelcontextprotocol/protocolVersion\"",
                ))
            }
        };
        let shape = Shape::of(version);
        match method {
            "tools/list" => Some(self.core.list(id, &params, shape, false)),
            "tools/call" => self.call(id, params, version, batch),
            other => Some(rpc::error(
                id,
                rpc::METHOD_NOT_FOUND,
                &format!(
                    "method not found: {}; this server offers initialize, ping, tools/list and tools/call",
                    tool::quote(other)
                ),
            )),
        }
    }

    /// A request of revision 2026-07-28: no session, its revision and the client's
    /// capabilities in `_meta` ("Versioning", "Protocol Version Negotiation"). `ping` and
    /// `logging/setLevel` are gone at this revision ("Changelog", major change 5).
    fn modern(
        &mut self,
        id: &Json,
        method: &str,
        params: Map,
        batch: Option<&Arc<Batch>>,
    ) -> Option<String> {
        match method {
            "server/discover" => Some(self.core.discover(id)),
            "tools/list" => Some(self.core.list(id, &params, Shape::Full, true)),
            "tools/call" => self.call(id, params, LATEST_PROTOCOL_VERSION, batch),
            other => Some(rpc::error(
                id,
                rpc::METHOD_NOT_FOUND,
                &format!(
                    "method not found: {}; at revision 2026-07-28 this server offers server/discover, tools/list and tools/call",
                    tool::quote(other)
                ),
            )),
        }
    }

    /// MCP 2025-11-25, "Lifecycle", "Initialization".
    fn initialize(&mut self, id: &Json, params: &Map) -> String {
        if self.version.is_some() {
            return rpc::error(
                id,
                rpc::INVALID_REQUEST,
                "invalid request: the session is already initialized",
            );
        }
        match self.core.initialize(id, params) {
            Ok((version, answer)) => {
                self.version = Some(version);
                self.elicitation = consent::can_elicit_form(params.get("capabilities"));
                answer
            }
            Err(answer) => answer,
        }
    }

    /// MCP 2025-11-25, "Tools", "Calling Tools".
    fn call(
        &mut self,
        id: &Json,
        params: Map,
        version: &'static str,
        batch: Option<&Arc<Batch>>,
    ) -> Option<String> {
        let mut prepared = match self.core.prepare_call(id, params) {
            Ok(prepared) => prepared,
            Err(answer) => return Some(answer),
        };
        let asking = if version == LATEST_PROTOCOL_VERSION {
            match self.core.round_trip(id, &mut prepared, Shape::of(version)) {
                Ok(round_trip) => Asking::RoundTrip(round_trip),
                Err(answer) => return Some(answer),
            }
        } else if self.elicitation {
            Asking::Elicit {
                with_mode: version == "2025-11-25",
            }
        } else {
            Asking::Context(consent::NO_ELICITATION)
        };
        let (call, progress_token) = (prepared.call, prepared.progress_token);
        let key = rpc::id_key(id);
        let state = Arc::new(CallState {
            cancelled: AtomicBool::new(false),
            batch: batch.cloned(),
        });
        {
            let mut in_flight = lock(&self.shared.in_flight);
            if in_flight.contains_key(&key) {
                return Some(rpc::error(
                    id,
                    rpc::INVALID_REQUEST,
                    "invalid request: a call with this id is still in flight; ids must be unique",
                ));
            }
            if in_flight.len() >= self.server.max_calls_in_flight {
                return Some(rpc::error(
                    id,
                    rpc::SERVER_BUSY,
                    &format!(
                        "server busy: {} calls are in flight, the most this server takes; wait for answers",
                        in_flight.len()
                    ),
                ));
            }
            if let Some(batch) = batch {
                // Counted before anything (a worker, a cancellation) can settle it.
                batch.expect();
            }
            in_flight.insert(key.clone(), state.clone());
        }
        let job = Job {
            id: id.clone(),
            key,
            call,
            state,
            progress_token,
            // `message` in progress notifications is new in 2025-03-26.
            progress_messages: version != "2024-11-05",
            context: self.server.context.clone(),
            shape: Shape::of(version),
            result_meta: if version == LATEST_PROTOCOL_VERSION {
                Some(self.core.server_meta.clone())
            } else {
                None
            },
            asking,
        };
        self.submit(job)
    }

    /// Queues a job, starting a worker when none is idle and the pool is not full.
    fn submit(&self, job: Job) -> Option<String> {
        let mut queue = lock(&self.shared.queue);
        queue.jobs.push_back(job);
        if queue.idle == 0 && queue.workers < self.server.max_concurrency {
            let shared = self.shared.clone();
            let out = self.out.clone();
            let started = thread::Builder::new()
                .name(String::from("httptool-mcp-call"))
                .spawn(move || work(&shared, &out));
            match started {
                Ok(_) => queue.workers += 1,
                Err(_) if queue.workers == 0 => {
                    // No worker at all: answer now rather than never.
                    let job = queue.jobs.pop_back()?;
                    drop(queue);
                    lock(&self.shared.in_flight).remove(&job.key);
                    let answer = rpc::error(
                        &job.id,
                        rpc::INTERNAL_ERROR,
                        "internal error: the server could not start a thread for the call",
                    );
                    return match &job.state.batch {
                        Some(batch) => {
                            batch.settle(Some(answer));
                            None
                        }
                        None => Some(answer),
                    };
                }
                // The workers there are will take it.
                Err(_) => {}
            }
        }
        drop(queue);
        self.shared.work.notify_one();
        None
    }

    /// Waits for calls in flight up to the deadline, closes the pool and stops the writer.
    fn shut_down(&mut self) {
        let deadline = Instant::now() + self.server.shutdown_deadline;
        let mut in_flight = lock(&self.shared.in_flight);
        while !in_flight.is_empty() {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            in_flight = match self.shared.settled.wait_timeout(in_flight, deadline - now) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        // Calls still in flight are not answered: mark them so their workers stay quiet.
        for (_, state) in in_flight.drain() {
            state.cancelled.store(true, Ordering::SeqCst);
        }
        drop(in_flight);
        let mut queue = lock(&self.shared.queue);
        queue.closing = true;
        queue.jobs.clear();
        drop(queue);
        self.shared.work.notify_all();
        self.out.stop();
    }
}

/// A worker: takes jobs until the pool closes.
fn work(shared: &Shared, out: &Outgoing) {
    loop {
        let job = {
            let mut queue = lock(&shared.queue);
            loop {
                if let Some(job) = queue.jobs.pop_front() {
                    break job;
                }
                if queue.closing {
                    queue.workers -= 1;
                    return;
                }
                queue.idle += 1;
                queue = match shared.work.wait(queue) {
                    Ok(guard) => guard,
                    Err(poisoned) => poisoned.into_inner(),
                };
                queue.idle -= 1;
            }
        };
        run(shared, out, job);
    }
}

fn run(shared: &Shared, out: &Outgoing, job: Job) {
    if job.state.cancelled.load(Ordering::SeqCst) {
        return;
    }
    let mut context = job.context;
    let mut trip = None;
    match job.asking {
        Asking::RoundTrip(round_trip) => {
            context = context.with_approver(round_trip.clone());
            trip = Some(round_trip);
        }
        Asking::Elicit { with_mode } => {
            let out = out.clone();
            context = context.with_approver(Arc::new(Elicit {
                send: Mutex::new(Box::new(move |line| out.line(line))),
                waiting: shared.waiting.clone(),
                timeout: shared.elicitation_timeout,
                with_mode,
            }));
        }
        Asking::Context(reason) => {
            if context.approver().is_none() {
                context = context.with_approver(Arc::new(consent::CannotAsk(reason)));
            }
        }
    }
    if let Some(token) = job.progress_token {
        context = context.with_progress(Arc::new(CallProgress {
            token,
            state: job.state.clone(),
            messages: job.progress_messages,
            out: Mutex::new((out.clone(), None)),
        }));
    }
    let line = call_answer(
        &shared.registry,
        &job.id,
        job.call,
        &context,
        job.shape,
        job.result_meta,
        trip.as_deref().map(|t| (t, &shared.core.approvals)),
    );
    // Answer only while the call is still waited for; the check and the send happen under
    // the lock that cancellation takes, so a cancelled call is never answered.
    let mut in_flight = lock(&shared.in_flight);
    if !job.state.cancelled.load(Ordering::SeqCst) {
        let ours = in_flight
            .get(&job.key)
            .map_or(false, |state| Arc::ptr_eq(state, &job.state));
        if ours {
            in_flight.remove(&job.key);
        }
        // A call in a batch is settled exactly once: here, or by the cancellation that set
        // the flag under this same lock. Under it too, so the array goes out before shutdown
        // (which waits on this lock) stops the writer.
        match &job.state.batch {
            Some(batch) => batch.settle(Some(line)),
            None => out.line(line),
        }
    }
    drop(in_flight);
    shared.settled.notify_all();
}

/// Runs a call and makes its answer: the result as the revision (`shape`) defines it, with
/// `meta` (2026-07-28) added. With `round_trip`, a call whose approver kept a question is
/// answered `InputRequiredResult` instead, its state signed for this tool and these
/// arguments (nothing was sent).
fn call_answer(
    registry: &ToolRegistry,
    id: &Json,
    call: ToolCall,
    context: &CallContext,
    shape: Shape,
    meta: Option<Json>,
    round_trip: Option<(&RoundTrip, &Approvals)>,
) -> String {
    let name = String::from(call.name());
    let arguments = match round_trip {
        Some(_) => call_arguments(&call),
        None => None,
    };
    let output = registry.call_owned(call, context);
    if let (Some((trip, approvals)), Some(arguments)) = (round_trip, arguments) {
        let asked = lock(&trip.asked).take();
        if let Some(message) = asked {
            let state = approvals.issue(&name, &arguments);
            return rpc::response(id, consent::input_required(&message, state, meta));
        }
    }
    let mut result = match registry.get(&name) {
        Some(tool) => shape::call_tool_result_for(tool.spec(), &output),
        None => shape::call_tool_result(&output),
    };
    shape.result(&mut result, meta);
    rpc::response(id, result)
}

/// Turns a call's progress reports into `notifications/progress` (MCP 2025-11-25,
/// "Progress"): `progress` increases with every notification, and none is sent once the
/// call is cancelled.
struct CallProgress {
    token: Json,
    state: Arc<CallState>,
    messages: bool,
    /// The way to the writer (a `Sender` is not `Sync` on every supported Rust) and the
    /// last progress sent.
    out: Mutex<(Outgoing, Option<u64>)>,
}

impl Progress for CallProgress {
    fn report(&self, done: u64, total: Option<u64>, message: &str) {
        if self.state.cancelled.load(Ordering::SeqCst) {
            return;
        }
        let mut out = lock(&self.out);
        if out.1.map_or(false, |last| done <= last) {
            return;
        }
        out.1 = Some(done);
        out.0.line(progress_notification(
            &self.token,
            done,
            total,
            message,
            self.messages,
        ));
    }
}

/// `notifications/progress` for `token`; `message` only where the revision has it
/// (`messages`).
fn progress_notification(
    token: &Json,
    done: u64,
    total: Option<u64>,
    message: &str,
    messages: bool,
) -> String {
    let mut params = Map::with_capacity(4);
    params.insert("progressToken", token.clone());
    params.insert("progress", done);
    if let Some(total) = total {
        params.insert("total", total);
    }
    if messages && !message.is_empty() {
        params.insert("message", message);
    }
    rpc::notification("notifications/progress", Json::Object(params))
}

/// Progress of a call answered without a session: its notifications, kept until the answer
/// goes out with them.
struct CollectedProgress {
    token: Json,
    messages: bool,
    lines: Mutex<(Vec<String>, Option<u64>)>,
    /// Where each notification goes at once, when not kept.
    live: Option<Sink>,
}

/// Takes each message of an event stream as it is made.
pub(crate) type Sink = Arc<dyn Fn(String) + Send + Sync>;

impl Progress for CollectedProgress {
    fn report(&self, done: u64, total: Option<u64>, message: &str) {
        let mut lines = lock(&self.lines);
        if lines.1.map_or(false, |last| done <= last) {
            return;
        }
        lines.1 = Some(done);
        let line = progress_notification(&self.token, done, total, message, self.messages);
        match &self.live {
            Some(live) => live(line),
            None => lines.0.push(line),
        }
    }
}

/// `cacheScope` of list results at revision 2026-07-28: `private`, since the tools of a
/// private API describe it, and a shared cache must not hand them to other users.
const LIST_CACHE_SCOPE: &str = "private";

/// `{"io.modelcontextprotocol/serverInfo": {"name", "version"}}`: the `_meta` of every
/// 2026-07-28 result.
fn server_meta(server: &Server) -> Json {
    let mut info = Map::with_capacity(2);
    info.insert("name", server.name.as_str());
    info.insert("version", server.version.as_str());
    let mut meta = Map::with_capacity(1);
    meta.insert("io.modelcontextprotocol/serverInfo", info);
    Json::Object(meta)
}

/// The `_meta` keys of a 2026-07-28 request.
const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// The levels of `io.modelcontextprotocol/logLevel` (RFC 5424's, as MCP "Logging" lists).
const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// What an error answer is made of: code, message and `data`.
type Refusal = (i64, String, Option<Json>);

/// Whether a request is of revision 2026-07-28: `true` when its `_meta` names that
/// revision, `false` when it names none (a request of a session set up by `initialize`).
/// A revision this server does not speak per request is `UnsupportedProtocolVersionError`
/// with the revisions it does ("Versioning", "Protocol Version Negotiation"); `_meta`
/// fields of the wrong type are invalid params. The server never logs, so a log level asks
/// for nothing; no `notifications/message` is ever sent.
fn modern_version(params: &Map) -> Result<bool, Refusal> {
    let meta = match params.get("_meta") {
        Some(Json::Object(meta)) => meta,
        _ => return Ok(false),
    };
    let requested = match meta.get(META_PROTOCOL_VERSION) {
        None => return Ok(false),
        Some(Json::String(requested)) => requested.as_str(),
        Some(other) => {
            return Err((
                rpc::INVALID_PARAMS,
                format!(
                    "invalid params: _meta {:?} must be a string, got {}",
                    META_PROTOCOL_VERSION,
                    other.type_name()
                ),
                None,
            ))
        }
    };
    if requested != LATEST_PROTOCOL_VERSION {
        let mut data = Map::with_capacity(2);
        data.insert(
            "supported",
            PROTOCOL_VERSIONS
                .iter()
                .map(|v| Json::from(*v))
                .collect::<Vec<_>>(),
        );
        data.insert("requested", requested);
        return Err((
            rpc::UNSUPPORTED_PROTOCOL_VERSION,
            format!(
                "unsupported protocol version: {}; this server speaks 2026-07-28 on each request, and {} through initialize",
                tool::quote(requested),
                HANDSHAKE_PROTOCOL_VERSIONS.join(", ")
            ),
            Some(Json::Object(data)),
        ));
    }
    for key in [META_CLIENT_CAPABILITIES, META_CLIENT_INFO] {
        match meta.get(key) {
            None | Some(Json::Object(_)) => {}
            Some(other) => {
                return Err((
                    rpc::INVALID_PARAMS,
                    format!(
                        "invalid params: _meta {:?} must be an object, got {}",
                        key,
                        other.type_name()
                    ),
                    None,
                ))
            }
        }
    }
    match meta.get(META_LOG_LEVEL) {
        None => {}
        Some(Json::String(level)) if LOG_LEVELS.contains(&level.as_str()) => {}
        Some(_) => {
            return Err((
                rpc::INVALID_PARAMS,
                format!(
                    "invalid params: _meta {:?} must be one of {}",
                    META_LOG_LEVEL,
                    LOG_LEVELS.join(", ")
                ),
                None,
            ))
        }
    }
    Ok(true)
}

/// What a revision defines of tools and results, so each client gets only what its
/// revision knows: `title`, `outputSchema` and `structuredContent` came with 2025-06-18,
/// tool `annotations` with 2025-03-26.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// 2025-06-18 and later: everything.
    Full = 0,
    /// 2025-03-26: annotations, no titles, output schemas or structured content.
    Annotations = 1,
    /// 2024-11-05: name, description and input schema; text results.
    Plain = 2,
}

impl Shape {
    fn of(version: &str) -> Shape {
        match version {
            "2024-11-05" => Shape::Plain,
            "2025-03-26" => Shape::Annotations,
            _ => Shape::Full,
        }
    }

    /// A tool of `tools/list` as this revision defines it.
    fn tool(self, spec: &tool::ToolSpec) -> Json {
        let mut tool = shape::tool(spec);
        if self != Shape::Full {
            if let Json::Object(map) = &mut tool {
                map.remove("title");
                map.remove("outputSchema");
                if self == Shape::Plain {
                    map.remove("annotations");
                }
            }
        }
        tool
    }

    /// A `tools/call` result as this revision defines it; `meta` (2026-07-28) adds
    /// `resultType` and the server's identity.
    fn result(self, result: &mut Json, meta: Option<Json>) {
        if let Json::Object(map) = result {
            if self != Shape::Full {
                map.remove("structuredContent");
            }
            if self == Shape::Plain {
                // AudioContent came with 2025-03-26; the text block says what the sound was.
                if let Some(Json::Array(blocks)) = map.get_mut("content") {
                    blocks.retain(|b| b.get("type").and_then(Json::as_str) != Some("audio"));
                }
            }
            if let Some(meta) = meta {
                map.insert("resultType", "complete");
                map.insert("_meta", meta);
            }
        }
    }
}
