//! Idle keep-alive connections, per origin, bounded in number and age.
//!
//! The lock is held only to take or put one connection; closing sockets and checking whether a
//! pooled connection is still open happen outside it.

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::conn::Conn;
use crate::url::Scheme;

struct Idle {
    conn: Conn,
    since: Instant,
}

pub(crate) struct Pool {
    idle: Mutex<Vec<Idle>>,
    max_per_origin: usize,
    max_total: usize,
    max_age: Duration,
}

impl Pool {
    pub fn new(max_per_origin: usize, max_total: usize, max_age: Duration) -> Pool {
        Pool {
            idle: Mutex::new(Vec::new()),
            max_per_origin,
            max_total,
            max_age,
        }
    }

    /// The list, even if a thread panicked while holding it: it is a cache of sockets, and
    /// every entry in it is a whole connection.
    fn lock(&self) -> MutexGuard<'_, Vec<Idle>> {
        self.idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The most recently used idle connection to the origin that is still open.
    pub fn take(&self, scheme: Scheme, host: &str, port: u16) -> Option<Conn> {
        loop {
            let now = Instant::now();
            let found = {
                let mut idle = self.lock();
                let pos = idle
                    .iter()
                    .rposition(|e| e.conn.origin.is(scheme, host, port))?;
                idle.remove(pos)
            };
            if now.saturating_duration_since(found.since) < self.max_age && !found.conn.is_stale() {
                return Some(found.conn);
            }
            // Expired or closed by the server: dropped here, outside the lock.
        }
    }

    /// Keeps a connection for reuse, evicting the oldest of its origin, then the oldest of all,
    /// to stay within the limits; expired connections go too.
    pub fn put(&self, conn: Conn) {
        if self.max_per_origin == 0 || self.max_total == 0 {
            return;
        }
        let now = Instant::now();
        let mut evicted = Vec::new();
        {
            let mut idle = self.lock();
            let max_age = self.max_age;
            let mut i = 0;
            while i < idle.len() {
                if now.saturating_duration_since(idle[i].since) >= max_age {
                    evicted.push(idle.remove(i));
                } else {
                    i += 1;
                }
            }
            let same = |e: &Idle| e.conn.origin == conn.origin;
            if idle.iter().filter(|e| same(e)).count() >= self.max_per_origin {
                if let Some(oldest) = idle.iter().position(same) {
                    evicted.push(idle.remove(oldest));
                }
            }
            if idle.len() >= self.max_total {
                evicted.push(idle.remove(0));
            }
            idle.push(Idle { conn, since: now });
        }
        drop(evicted);
    }

    /// How many idle connections there are (for tests and `Debug`).
    pub fn idle_count(&self) -> usize {
        self.lock().len()
    }
}
