//! `CallContext`: per-call values from the host that the model neither sees nor sets.

use std::fmt;
use std::sync::Arc;

use super::approval::{Approver, Confirm};
use crate::quote::MASK;

/// Hears how a call is going, while it runs: an MCP server turns each report into a
/// `notifications/progress` message.
///
/// Tools report through [`CallContext::report_progress`]; the plugin layer's tools report
/// when the request goes out and when its response's head has arrived (before the body is
/// read). Called on the calling thread; keep it quick.
///
/// # Examples
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use httptool::tool::{CallContext, Progress};
///
/// struct Log(Mutex<Vec<String>>);
/// impl Progress for Log {
///     fn report(&self, done: u64, total: Option<u64>, message: &str) {
///         self.0.lock().unwrap().push(format!("{}/{:?} {}", done, total, message));
///     }
/// }
///
/// let log = Arc::new(Log(Mutex::new(Vec::new())));
/// let context = CallContext::new().with_progress(log.clone());
/// context.report_progress(1, Some(2), "sending the GET request");
/// assert_eq!(*log.0.lock().unwrap(), ["1/Some(2) sending the GET request"]);
/// ```
pub trait Progress: Send + Sync {
    /// `done` steps of `total` (when known) are complete; `message` says what happened, for
    /// a person, and holds no secret.
    fn report(&self, done: u64, total: Option<u64>, message: &str);
}

/// Values the host passes with one call and the model must neither see nor set: a user's
/// token, a tenant id ([call context](crate::design::endpoints#call-context)).
///
/// Tools read them by key; the plugin layer fills auth slots and hidden parameters from them.
/// An empty context allocates nothing, so [`ToolRegistry::call`](super::ToolRegistry::call)
/// makes one for every call for free.
///
/// # Security
///
/// Values are treated as secrets: `Debug` prints the keys with every value as `***`, and no
/// error message in this crate repeats a value. Keys are not secret. Setting a key twice
/// keeps the last value.
///
/// # Examples
///
/// ```
/// use httptool::tool::CallContext;
///
/// let context = CallContext::new()
///     .with("user_token", "s3cr3t")
///     .with("tenant", "acme");
/// assert_eq!(context.get("tenant"), Some("acme"));
/// assert_eq!(
///     format!("{:?}", context),
///     "CallContext { user_token: ***, tenant: *** }"
/// );
/// ```
#[derive(Clone, Default)]
pub struct CallContext {
    // A few entries at most in practice: a vector beats a map here and keeps insertion order
    // for `Debug`.
    values: Vec<(String, String)>,
    progress: Option<Arc<dyn Progress>>,
    approver: Option<Arc<dyn Approver>>,
    confirm: Option<Confirm>,
}

/// Contexts are equal when they hold the same values; a progress listener, an approver and
/// a confirmation policy do not count.
impl PartialEq for CallContext {
    fn eq(&self, other: &CallContext) -> bool {
        self.values == other.values
    }
}

impl Eq for CallContext {}

impl CallContext {
    /// An empty context.
    pub fn new() -> CallContext {
        CallContext {
            values: Vec::new(),
            progress: None,
            approver: None,
            confirm: None,
        }
    }

    /// Asks `approver` before a call that needs the user's approval (see [`Confirm`]).
    /// Without one such a call is refused, never sent.
    #[must_use]
    pub fn with_approver(mut self, approver: Arc<dyn Approver>) -> CallContext {
        self.approver = Some(approver);
        self
    }

    /// The approver set with [`with_approver`](CallContext::with_approver).
    pub fn approver(&self) -> Option<&Arc<dyn Approver>> {
        self.approver.as_ref()
    }

    /// Calls this policy names need the user's approval too, whatever their plugin says
    /// (`httptool serve --confirm writes`). Defaults to none: the plugins' own policies.
    #[must_use]
    pub fn with_confirm(mut self, confirm: Confirm) -> CallContext {
        self.confirm = Some(confirm);
        self
    }

    /// The policy set with [`with_confirm`](CallContext::with_confirm).
    pub fn confirm(&self) -> Option<&Confirm> {
        self.confirm.as_ref()
    }

    /// Sends the call's progress reports to `progress` (see [`Progress`]).
    #[must_use]
    pub fn with_progress(mut self, progress: Arc<dyn Progress>) -> CallContext {
        self.progress = Some(progress);
        self
    }

    /// Reports progress to the listener set with [`with_progress`](CallContext::with_progress),
    /// if there is one; otherwise does nothing.
    pub fn report_progress(&self, done: u64, total: Option<u64>, message: &str) {
        if let Some(progress) = &self.progress {
            progress.report(done, total, message);
        }
    }

    /// The listener set with [`with_progress`](CallContext::with_progress), for a report
    /// made later from another place (the HTTP client's head hook).
    pub(crate) fn progress(&self) -> Option<&Arc<dyn Progress>> {
        self.progress.as_ref()
    }

    /// Sets `key` to `value`, builder style.
    #[must_use]
    pub fn with(mut self, key: impl Into<String>, value: impl Into<String>) -> CallContext {
        self.insert(key, value);
        self
    }

    /// Sets `key` to `value` and returns the value it replaces, if any.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<String>) -> Option<String> {
        let key = key.into();
        let value = value.into();
        match self.values.iter_mut().find(|(k, _)| *k == key) {
            Some((_, old)) => Some(std::mem::replace(old, value)),
            None => {
                self.values.push((key, value));
                None
            }
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `key` is set.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Removes `key` and returns its value.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        let index = self.values.iter().position(|(k, _)| k == key)?;
        Some(self.values.remove(index).1)
    }

    /// The keys, in the order they were first set.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.values.iter().map(|(k, _)| k.as_str())
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no value is set.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Prints keys and `***` for every value.
impl fmt::Debug for CallContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Redacted;
        impl fmt::Debug for Redacted {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(MASK)
            }
        }
        let mut debug = f.debug_struct("CallContext");
        for (key, _) in &self.values {
            debug.field(key, &Redacted);
        }
        debug.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_values() {
        let context = CallContext::new().with("token", "hunter2");
        let debug = format!("{:?} {:#?}", context, context);
        assert!(!debug.contains("hunter2"), "{}", debug);
        assert_eq!(format!("{:?}", CallContext::new()), "CallContext");
    }

    #[test]
    fn insert_replaces_and_keeps_order() {
        let mut context = CallContext::new().with("a", "1").with("b", "2");
        assert_eq!(context.insert("a", "3"), Some(String::from("1")));
        assert_eq!(context.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(context.get("a"), Some("3"));
        assert_eq!(context.remove("a"), Some(String::from("3")));
        assert!(!context.contains_key("a"));
        assert_eq!(context.len(), 1);
    }
}
