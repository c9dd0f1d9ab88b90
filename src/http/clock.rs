//! The clock of one call: its deadline, and how long each wait inside it may take.

use std::time::{Duration, Instant};

use super::error::{Error, Timeout};

/// The timeouts of one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Timeouts {
    pub connect: Duration,
    pub read: Duration,
    pub write: Duration,
    pub call: Duration,
}

/// The deadline of one call and the timeouts inside it.
pub(crate) struct Clock {
    deadline: Option<Instant>,
    timeouts: Timeouts,
}

impl Clock {
    pub fn start(timeouts: Timeouts) -> Clock {
        Clock {
            // A timeout too large to add to now means no deadline.
            deadline: Instant::now().checked_add(timeouts.call),
            timeouts,
        }
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
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
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
