//! The user's approval through the MCP client: elicitation (`elicitation/create`, form
//! mode) sent mid-call on a session, and at revision 2026-07-28 the multi round-trip
//! pattern, where the first `tools/call` answers `InputRequiredResult` with a signed
//! `requestState` and the retry carries the user's answer.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::hash;
use crate::json::{Json, Map};
use crate::tool::{Approval, ApprovalRequest, Approver};

/// The key of the one question in `inputRequests` and of its answer in `inputResponses`.
pub(crate) const INPUT_KEY: &str = "approval";
/// The boolean field of the form the user fills.
const FIELD: &str = "approve";
/// What a signed state starts with: its format's version.
const STATE_VERSION: &str = "a1";

/// The least bytes a configured key may have.
pub(crate) const MIN_KEY_BYTES: usize = 16;

/// A fresh random key: 32 bytes from the process's random hasher keys (the standard
/// library seeds them from the operating system), each hashed with a counter and the time.
pub(crate) fn random_key() -> Vec<u8> {
    let mut key = Vec::with_capacity(32);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    for i in 0..4u64 {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(i);
        hasher.write_u64(now);
        key.extend_from_slice(&hasher.finish().to_le_bytes());
    }
    key
}

/// What signs and checks approvals at revision 2026-07-28: the key, how long an approval
/// question stays valid, and the states already used in this process.
pub(crate) struct Approvals {
    key: Vec<u8>,
    ttl: Duration,
    counter: AtomicU64,
    nonce_key: RandomState,
    /// Nonces of approvals already used, with their expiry (seconds since the epoch).
    used: Mutex<HashMap<String, u64>>,
}

/// Why a `requestState` does not approve a call.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum StateError {
    /// Not a state this server could have made, or made for another call (other
    /// arguments, another tool) or with another key.
    Mismatch,
    /// Past its expiry.
    Expired,
    /// Already used once in this process.
    Used,
}

impl StateError {
    pub(crate) fn reason(&self) -> &'static str {
        match self {
            StateError::Mismatch => "the approval does not match this call: the tool or its arguments differ from what the user was asked about, or the state was not made by this server; nothing was sent. Call the tool again to ask the user anew",
            StateError::Expired => "the approval expired before the call came back; nothing was sent. Call the tool again to ask the user anew",
            StateError::Used => "this approval was already used once; nothing was sent. Call the tool again to ask the user anew",
        }
    }
}

impl Approvals {
    pub(crate) fn new(key: Option<&[u8]>, ttl: Duration) -> Approvals {
        Approvals {
            key: key.map_or_else(random_key, <[u8]>::to_vec),
            ttl,
            counter: AtomicU64::new(0),
            nonce_key: RandomState::new(),
            used: Mutex::new(HashMap::new()),
        }
    }

    fn now() -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    }

    /// The tag of a state: HMAC-SHA256 over the format, the tool, the arguments (keys
    /// sorted, compact), the expiry and the nonce, each length-prefixed so no two inputs
    /// write the same bytes.
    fn tag(&self, tool: &str, arguments: &Map, expiry: u64, nonce: &str) -> [u8; 32] {
        let mut text = String::new();
        canonical(&Json::Object(arguments.clone()), &mut text);
        let mut message = Vec::with_capacity(text.len() + tool.len() + 64);
        for part in [
            STATE_VERSION.as_bytes(),
            tool.as_bytes(),
            text.as_bytes(),
            expiry.to_string().as_bytes(),
            nonce.as_bytes(),
        ] {
            message.extend_from_slice(&(part.len() as u64).to_be_bytes());
            message.extend_from_slice(part);
        }
        hash::hmac_sha256(&self.key, &message)
    }

    /// A new state for a question about calling `tool` with `arguments`:
    /// `a1.EXPIRY.NONCE.TAG` (hex).
    pub(crate) fn issue(&self, tool: &str, arguments: &Map) -> String {
        let expiry = Approvals::now().saturating_add(self.ttl.as_secs().max(1));
        let mut hasher = self.nonce_key.build_hasher();
        hasher.write_u64(self.counter.fetch_add(1, Ordering::SeqCst));
        hasher.write_u64(expiry);
        let nonce = format!("{:016x}", hasher.finish());
        let tag = self.tag(tool, arguments, expiry, &nonce);
        format!("{}.{}.{}.{}", STATE_VERSION, expiry, nonce, hash::hex(&tag))
    }

    /// Checks a state against the call it comes back with; on success it is marked used.
    pub(crate) fn redeem(
        &self,
        state: &str,
        tool: &str,
        arguments: &Map,
    ) -> Result<(), StateError> {
        let mut parts = state.split('.');
        let (version, expiry, nonce, tag) = match (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) {
            (Some(v), Some(e), Some(n), Some(t), None) => (v, e, n, t),
            _ => return Err(StateError::Mismatch),
        };
        if version != STATE_VERSION
            || expiry.is_empty()
            || expiry.len() > 20
            || !expiry.bytes().all(|b| b.is_ascii_digit())
            || nonce.len() != 16
            || !nonce.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err(StateError::Mismatch);
        }
        let expiry_secs: u64 = expiry.parse().map_err(|_| StateError::Mismatch)?;
        let expected = hash::hex(&self.tag(tool, arguments, expiry_secs, nonce));
        if !hash::constant_time_eq(expected.as_bytes(), tag.as_bytes()) {
            return Err(StateError::Mismatch);
        }
        let now = Approvals::now();
        if now >= expiry_secs {
            return Err(StateError::Expired);
        }
        let mut used = self.used.lock().unwrap_or_else(|p| p.into_inner());
        used.retain(|_, until| *until > now);
        if used.contains_key(nonce) {
            return Err(StateError::Used);
        }
        used.insert(nonce.to_string(), expiry_secs);
        Ok(())
    }
}

/// JSON text with every object's keys sorted (by their UTF-8 bytes), compact: the same
/// arguments sent in another order sign the same. Iterative, so nesting costs no stack.
pub(crate) fn canonical(value: &Json, out: &mut String) {
    enum Step<'a> {
        Value(&'a Json),
        Text(&'static str),
        Key(&'a str),
    }
    let mut stack = vec![Step::Value(value)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Text(text) => out.push_str(text),
            Step::Key(key) => {
                crate::json::write_str(out, key);
                out.push(':');
            }
            Step::Value(Json::Object(map)) => {
                let mut entries: Vec<(&String, &Json)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                out.push('{');
                stack.push(Step::Text("}"));
                for (i, (key, value)) in entries.into_iter().enumerate().rev() {
                    stack.push(Step::Value(value));
                    stack.push(Step::Key(key));
                    if i > 0 {
                        stack.push(Step::Text(","));
                    }
                }
            }
            Step::Value(Json::Array(items)) => {
                out.push('[');
                stack.push(Step::Text("]"));
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push(Step::Value(item));
                    if i > 0 {
                        stack.push(Step::Text(","));
                    }
                }
            }
            Step::Value(other) => other.write_to(out),
        }
    }
}

/// `elicitation/create` params (MCP 2025-11-25, "Elicitation", form mode): the message and a
/// one-field form, a required boolean. `with_mode` adds `"mode": "form"`, which 2025-11-25
/// introduced (2025-06-18 has only form mode, and no such field).
pub(crate) fn elicit_params(message: &str, with_mode: bool) -> Json {
    let mut field = Map::with_capacity(4);
    field.insert("type", "boolean");
    field.insert("title", "Send this request");
    field.insert(
        "description",
        "Check the request above; only you can approve it, not the model.",
    );
    field.insert("default", false);
    let mut properties = Map::with_capacity(1);
    properties.insert(FIELD, field);
    let mut schema = Map::with_capacity(3);
    schema.insert("type", "object");
    schema.insert("properties", properties);
    schema.insert("required", vec![Json::from(FIELD)]);
    let mut params = Map::with_capacity(3);
    if with_mode {
        params.insert("mode", "form");
    }
    params.insert("message", message);
    params.insert("requestedSchema", schema);
    Json::Object(params)
}

/// The user's answer in an `ElicitResult`: approved only for `accept` with the field
/// `true`.
pub(crate) fn read_answer(result: &Json) -> Approval {
    match result.get("action").and_then(Json::as_str) {
        Some("accept") => {
            match result
                .get("content")
                .and_then(|c| c.get(FIELD))
                .and_then(Json::as_bool)
            {
                Some(true) => Approval::Approved,
                _ => Approval::Declined,
            }
        }
        Some("decline") => Approval::Declined,
        Some("cancel") => Approval::Cancelled,
        _ => Approval::Unanswered(String::from(
            "the client's answer to the approval question was not an elicitation result",
        )),
    }
}

/// An approver that cannot ask: every call it is asked about is refused with `reason`.
pub(crate) struct CannotAsk(pub &'static str);

impl Approver for CannotAsk {
    fn approve(&self, _: &ApprovalRequest) -> Approval {
        Approval::CannotAsk(String::from(self.0))
    }
}

/// Why a client cannot be asked: it declared no form elicitation.
pub(crate) const NO_ELICITATION: &str =
    "this MCP client cannot ask the user for it (it declared no form elicitation capability)";

/// Whether client capabilities take form-mode elicitation: `elicitation` is present and
/// is empty (2025-06-18, or form by default) or names `form`.
pub(crate) fn can_elicit_form(capabilities: Option<&Json>) -> bool {
    match capabilities.and_then(|c| c.get("elicitation")) {
        Some(Json::Object(modes)) => modes.is_empty() || modes.contains_key("form"),
        _ => false,
    }
}

/// The multi round-trip approver of one 2026-07-28 call: approves when the retry's state
/// and answer say so, refuses on a declined answer, and otherwise keeps the question (for
/// an `InputRequiredResult`) and refuses, so nothing is sent this round.
pub(crate) struct RoundTrip {
    /// The answer the retry brought, already checked against its state; `None` on a first
    /// call.
    pub answer: Option<Approval>,
    pub can_ask: bool,
    /// The question, when one must be asked.
    pub asked: Mutex<Option<String>>,
}

impl Approver for RoundTrip {
    fn approve(&self, request: &ApprovalRequest) -> Approval {
        if let Some(answer) = &self.answer {
            return answer.clone();
        }
        if !self.can_ask {
            return Approval::CannotAsk(String::from(NO_ELICITATION));
        }
        *self.asked.lock().unwrap_or_else(|p| p.into_inner()) = Some(request.message());
        Approval::Unanswered(String::from("the question goes to the client"))
    }
}

/// The answer a 2026-07-28 retry brings under [`INPUT_KEY`], or why there is none.
pub(crate) fn answer_in(input_responses: Option<&Json>) -> Approval {
    match input_responses.and_then(|r| r.get(INPUT_KEY)) {
        Some(result) => read_answer(result),
        None => Approval::Unanswered(String::from(
            "the retry carried no answer to the approval question",
        )),
    }
}

/// `InputRequiredResult` (MCP 2026-07-28, "Multi Round-Trip Requests"): the question under
/// [`INPUT_KEY`] as an embedded `elicitation/create`, and the signed state.
pub(crate) fn input_required(message: &str, state: String, meta: Option<Json>) -> Json {
    let mut request = Map::with_capacity(2);
    request.insert("method", "elicitation/create");
    request.insert("params", elicit_params(message, true));
    let mut requests = Map::with_capacity(1);
    requests.insert(INPUT_KEY, request);
    let mut result = Map::with_capacity(4);
    result.insert("resultType", "input_required");
    result.insert("inputRequests", requests);
    result.insert("requestState", state);
    if let Some(meta) = meta {
        result.insert("_meta", meta);
    }
    Json::Object(result)
}

/// Answers to the requests this server sent its client, by request id, for the callers
/// waiting on them.
#[derive(Default)]
pub(crate) struct Waiting {
    next: AtomicU64,
    /// Makes ids no client can guess: over HTTP any client with the token may post an
    /// answer, and must not answer a question asked of another.
    id_key: RandomState,
    senders: Mutex<HashMap<String, SyncSender<Result<Json, String>>>>,
}

impl Waiting {
    /// A new request id and the receiver of its answer.
    pub(crate) fn register(&self) -> (String, mpsc::Receiver<Result<Json, String>>) {
        let n = self.next.fetch_add(1, Ordering::SeqCst);
        let mut hasher = self.id_key.build_hasher();
        hasher.write_u64(n);
        let id = format!("httptool-approval-{}-{:016x}", n, hasher.finish());
        let (sender, receiver) = mpsc::sync_channel(1);
        self.senders
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(crate::mcp::rpc::id_key(&Json::from(id.as_str())), sender);
        (id, receiver)
    }

    /// Forgets a request no longer waited for.
    pub(crate) fn forget(&self, id: &str) {
        self.senders
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&crate::mcp::rpc::id_key(&Json::from(id)));
    }

    /// Hands a response to its waiter; `false` when nobody waits for that id.
    pub(crate) fn deliver(&self, id: &Json, answer: Result<Json, String>) -> bool {
        let sender = self
            .senders
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&crate::mcp::rpc::id_key(id));
        match sender {
            Some(sender) => sender.try_send(answer).is_ok(),
            None => false,
        }
    }
}

/// Asks through `elicitation/create` sent to the client, and waits for its answer.
pub(crate) struct Elicit {
    /// Sends one line to the client.
    pub send: Mutex<Box<dyn FnMut(String) + Send>>,
    pub waiting: Arc<Waiting>,
    pub timeout: Duration,
    pub with_mode: bool,
}

impl Approver for Elicit {
    fn approve(&self, request: &ApprovalRequest) -> Approval {
        let (id, answer) = self.waiting.register();
        let line = crate::mcp::rpc::request(
            &Json::from(id.as_str()),
            "elicitation/create",
            elicit_params(&request.message(), self.with_mode),
        );
        (self.send.lock().unwrap_or_else(|p| p.into_inner()))(line);
        let got = answer.recv_timeout(self.timeout);
        self.waiting.forget(&id);
        match got {
            Ok(Ok(result)) => read_answer(&result),
            // A client without elicitation answers so (the Python SDK: "Elicitation not
            // supported").
            Ok(Err(error)) => Approval::CannotAsk(format!(
                "this MCP client cannot ask the user for it (it answered the approval question with an error: {})",
                error
            )),
            Err(_) => Approval::Unanswered(format!(
                "no answer came within {} s",
                self.timeout.as_secs()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn args(text: &str) -> Map {
        json::parse(text).unwrap().into_object().unwrap()
    }

    #[test]
    fn canonical_sorts_keys_at_every_level() {
        let mut out = String::new();
        canonical(
            &json::parse(r#"{"b":[{"z":1,"a":"x"}],"a":null}"#).unwrap(),
            &mut out,
        );
        assert_eq!(out, r#"{"a":null,"b":[{"a":"x","z":1}]}"#);
    }

    #[test]
    fn a_state_approves_its_own_call_once() {
        let approvals = Approvals::new(Some(b"0123456789abcdef"), Duration::from_secs(60));
        let state = approvals.issue("drop", &args(r#"{"id":"a","n":1}"#));
        assert_eq!(
            approvals.redeem(&state, "drop", &args(r#"{"id":"b","n":1}"#)),
            Err(StateError::Mismatch)
        );
        assert_eq!(
            approvals.redeem(&state, "other", &args(r#"{"id":"a","n":1}"#)),
            Err(StateError::Mismatch)
        );
        // The same arguments in another order are the same call.
        assert_eq!(
            approvals.redeem(&state, "drop", &args(r#"{"n":1,"id":"a"}"#)),
            Ok(())
        );
        assert_eq!(
            approvals.redeem(&state, "drop", &args(r#"{"id":"a","n":1}"#)),
            Err(StateError::Used)
        );
        let other = Approvals::new(Some(b"another key here"), Duration::from_secs(60));
        let theirs = other.issue("drop", &args("{}"));
        assert_eq!(
            approvals.redeem(&theirs, "drop", &args("{}")),
            Err(StateError::Mismatch)
        );
        assert_eq!(
            approvals.redeem("a1.1.2.3", "drop", &args("{}")),
            Err(StateError::Mismatch)
        );
    }
}
