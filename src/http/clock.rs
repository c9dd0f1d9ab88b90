//! Time, read in one place: the [`TimeSource`] a client reads and waits with (the real one
//! by default, a [`ManualTime`] in tests), and the clock of one call built on it (its
//! deadline, and how long each wait inside it may take).
//!
//! What the source drives: the call's deadline (`timeout_call`), the wait before retrying a
//! 429 or 503 and the date a `Retry-After` is measured from, and the age of idle pooled
//! connections. What it does not: the socket's own timeouts (`timeout_connect`,
//! `timeout_read`, `timeout_write`) are timers of the operating system, which only real
//! time moves; a manual source leaves them as they are.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::error::{Error, Timeout};

/// Where a [`Client`](super::Client) reads the time and how it waits: set with
/// [`Config::time_source`](super::Config::time_source). [`RealTime`] by default;
/// [`ManualTime`] lets a test move time forward without sleeping.
///
/// # Examples
///
/// ```
/// use httptool::http::{Client, Config, ManualTime};
///
/// let time = ManualTime::new();
/// let client = Client::with_config(Config::new().time_source(time.clone()));
/// # drop(client);
/// ```
pub trait TimeSource: fmt::Debug + Send + Sync {
    /// Now, on a clock that never goes back: deadlines and ages are measured on it.
    fn now(&self) -> Instant;

    /// Now, as the time since the Unix epoch: what a `Retry-After` date is compared with.
    fn unix_time(&self) -> Duration;

    /// Waits `duration` (before retrying a 429 or 503).
    fn sleep(&self, duration: Duration);
}

/// The time of the machine: [`Instant::now`], [`SystemTime::now`] and
/// [`thread::sleep`]. The default [`TimeSource`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RealTime;

impl TimeSource for RealTime {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn unix_time(&self) -> Duration {
        // A clock set before 1970 reads as the epoch: every date is then in the future.
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
    }

    fn sleep(&self, duration: Duration) {
        thread::sleep(duration);
    }
}

/// A [`TimeSource`] that moves only when told to: [`advance`](ManualTime::advance), or a
/// [`sleep`](TimeSource::sleep), which returns at once having moved the time by its
/// duration and recorded it. For tests of deadlines, retries and pool ages that take no
/// real time. Clones share one time, so a test keeps a clone to move the client's.
///
/// # Examples
///
/// ```
/// use httptool::http::{ManualTime, TimeSource};
/// use std::time::Duration;
///
/// let time = ManualTime::at_unix_time(Duration::from_secs(1_000));
/// let start = time.now();
/// time.advance(Duration::from_secs(5));
/// time.sleep(Duration::from_secs(2));
/// assert_eq!(time.now() - start, Duration::from_secs(7));
/// assert_eq!(time.unix_time(), Duration::from_secs(1_007));
/// assert_eq!(time.sleeps(), vec![Duration::from_secs(2)]);
/// ```
#[derive(Clone, Debug)]
pub struct ManualTime {
    state: Arc<Mutex<Manual>>,
}

#[derive(Debug)]
struct Manual {
    now: Instant,
    unix_origin: Duration,
    elapsed: Duration,
    sleeps: Vec<Duration>,
}

impl Manual {
    fn advance(&mut self, by: Duration) {
        self.elapsed = self.elapsed.saturating_add(by);
        // An instant too far ahead to represent: now stays at the last one reached, so it
        // never goes back.
        if let Some(now) = self.now.checked_add(by) {
            self.now = now;
        }
    }
}

impl ManualTime {
    /// A time standing at the real time of its creation.
    pub fn new() -> ManualTime {
        ManualTime::at_unix_time(RealTime.unix_time())
    }

    /// A time standing at `since_epoch` after the Unix epoch (for `Retry-After` dates).
    pub fn at_unix_time(since_epoch: Duration) -> ManualTime {
        ManualTime {
            state: Arc::new(Mutex::new(Manual {
                now: Instant::now(),
                unix_origin: since_epoch,
                elapsed: Duration::ZERO,
                sleeps: Vec::new(),
            })),
        }
    }

    /// The state, even if a thread panicked holding it: it is only numbers.
    fn lock(&self) -> MutexGuard<'_, Manual> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Moves the time forward by `by` (saturating at the largest duration).
    pub fn advance(&self, by: Duration) {
        self.lock().advance(by);
    }

    /// How far the time has moved since it was created, sleeps included.
    pub fn elapsed(&self) -> Duration {
        self.lock().elapsed
    }

    /// Every [`sleep`](TimeSource::sleep) asked of it, in order.
    pub fn sleeps(&self) -> Vec<Duration> {
        self.lock().sleeps.clone()
    }
}

impl Default for ManualTime {
    fn default() -> ManualTime {
        ManualTime::new()
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> Instant {
        self.lock().now
    }

    fn unix_time(&self) -> Duration {
        let state = self.lock();
        state.unix_origin.saturating_add(state.elapsed)
    }

    fn sleep(&self, duration: Duration) {
        let mut state = self.lock();
        state.advance(duration);
        state.sleeps.push(duration);
    }
}

/// The timeouts of one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Timeouts {
    pub connect: Duration,
    pub read: Duration,
    pub write: Duration,
    pub call: Duration,
}

/// The deadline of one call and the timeouts inside it, on the client's time source.
pub(crate) struct Clock {
    time: Arc<dyn TimeSource>,
    deadline: Option<Instant>,
    timeouts: Timeouts,
}

impl Clock {
    pub fn start(time: &Arc<dyn TimeSource>, timeouts: Timeouts) -> Clock {
        Clock {
            // A timeout too large to add to now means no deadline.
            deadline: time.now().checked_add(timeouts.call),
            time: time.clone(),
            timeouts,
        }
    }

    /// This clock with its deadline moved to `timeout` from now when that comes first: a
    /// part of the call with a budget of its own (a streamed body).
    pub fn narrowed(&self, timeout: Duration) -> Clock {
        let own = self.now().checked_add(timeout);
        let deadline = match (self.deadline, own) {
            (Some(call), Some(own)) => Some(call.min(own)),
            (call, own) => call.or(own),
        };
        Clock {
            time: self.time.clone(),
            deadline,
            timeouts: self.timeouts,
        }
    }

    /// Now, on the call's time source.
    pub fn now(&self) -> Instant {
        self.time.now()
    }

    /// Now since the Unix epoch, on the call's time source.
    pub fn unix_time(&self) -> Duration {
        self.time.unix_time()
    }

    /// Waits on the call's time source.
    pub fn sleep(&self, duration: Duration) {
        self.time.sleep(duration);
    }

    fn setting(&self, which: Timeout) -> Duration {
        match which {
            Timeout::Connect => self.timeouts.connect,
            Timeout::Read => self.timeouts.read,
            Timeout::Write => self.timeouts.write,
            Timeout::Call => self.timeouts.call,
        }
    }

    /// The error for a timeout that fired.
    pub fn timeout_error(&self, which: Timeout) -> Error {
        Error::timeout(which, self.setting(which))
    }

    /// What is left of the call, if it has a deadline.
    pub fn remaining(&self) -> Option<Duration> {
        let now = self.now();
        self.deadline.map(|d| d.saturating_duration_since(now))
    }

    /// How long the next wait of kind `which` may take, and which timeout that is: its own,
    /// or the call's when less of the call is left.
    ///
    /// # Errors
    ///
    /// The call's timeout, when the deadline has passed.
    pub fn budget(&self, which: Timeout) -> Result<(Duration, Timeout), Error> {
        let own = self.setting(which);
        match self.remaining() {
            Some(left) if left.is_zero() => Err(self.timeout_error(Timeout::Call)),
            Some(left) if left < own => Ok((left, Timeout::Call)),
            _ if own.is_zero() => Err(self.timeout_error(which)),
            _ => Ok((own, which)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::ErrorKind;

    fn timeouts(call: Duration) -> Timeouts {
        Timeouts {
            connect: Duration::from_secs(10),
            read: Duration::from_secs(30),
            write: Duration::from_secs(30),
            call,
        }
    }

    #[test]
    fn the_call_deadline_runs_on_the_time_source() {
        let time = ManualTime::new();
        let source: Arc<dyn TimeSource> = Arc::new(time.clone());
        let clock = Clock::start(&source, timeouts(Duration::from_secs(60)));
        assert_eq!(
            clock.budget(Timeout::Read).unwrap(),
            (Duration::from_secs(30), Timeout::Read)
        );
        // Less of the call left than the read timeout: the wait gets what is left.
        time.advance(Duration::from_secs(45));
        assert_eq!(
            clock.budget(Timeout::Read).unwrap(),
            (Duration::from_secs(15), Timeout::Call)
        );
        // A sleep on the clock moves it too; at the deadline nothing is left.
        clock.sleep(Duration::from_secs(15));
        assert_eq!(clock.remaining(), Some(Duration::ZERO));
        let err = clock.budget(Timeout::Read).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::Timeout {
                which: Timeout::Call,
                after: Duration::from_secs(60)
            }
        );
    }

    #[test]
    fn a_call_timeout_too_large_to_add_is_no_deadline() {
        let source: Arc<dyn TimeSource> = Arc::new(ManualTime::new());
        let clock = Clock::start(&source, timeouts(Duration::MAX));
        assert_eq!(clock.remaining(), None);
        assert_eq!(
            clock.budget(Timeout::Connect).unwrap(),
            (Duration::from_secs(10), Timeout::Connect)
        );
    }

    #[test]
    fn manual_time_moves_only_when_told_and_saturates() {
        let time = ManualTime::at_unix_time(Duration::from_secs(5));
        let start = time.now();
        assert_eq!(time.now(), start);
        time.advance(Duration::from_secs(1));
        assert_eq!(time.now() - start, Duration::from_secs(1));
        assert_eq!(time.unix_time(), Duration::from_secs(6));
        time.advance(Duration::MAX);
        assert_eq!(time.elapsed(), Duration::MAX);
        assert_eq!(time.unix_time(), Duration::MAX);
        // An instant too far ahead to represent: now stays at the last one, never going back.
        assert_eq!(time.now() - start, Duration::from_secs(1));
        assert!(time.sleeps().is_empty());
    }
}
