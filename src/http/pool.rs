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
    ///
    /// Asking the socket whether the server closed it costs three system calls, a large
    /// share of a small request over loopback. A connection idle for less than `trust_for`
    /// is taken without asking: callers pass a non-zero `trust_for` only for requests they
    /// retry on a fresh connection when the reused one fails before any response byte.
    pub fn take(&self, scheme: Scheme, host: &str, port: u16, trust_for: Duration) -> Option<Conn> {
        loop {
            let now = Instant::now();
            let found = {
                let mut idle = self.lock();
                let pos = idle
                    .iter()
                    .rposition(|e| e.conn.origin.is(scheme, host, port))?;
                idle.remove(pos)
            };
            let mut found = found;
            let idle_for = now.saturating_duration_since(found.since);
            if idle_for < self.max_age && !found.conn.is_stale(idle_for >= trust_for) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::conn::Origin;
    use crate::http::net::Stream;
    use std::net::{TcpListener, TcpStream};

    /// A pooled connection whose server side has already closed it.
    fn closed_by_server(pool: &Pool) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let client = TcpStream::connect(addr).unwrap();
        drop(listener.accept().unwrap());
        // Let the close reach the client's socket.
        std::thread::sleep(Duration::from_millis(20));
        let origin = Origin {
            scheme: Scheme::Http,
            host: "127.0.0.1".to_string(),
            port: addr.port(),
        };
        pool.put(Conn::new(Stream::Plain(client), addr, origin));
    }

    #[test]
    fn a_closed_connection_is_found_out_when_probed() {
        let pool = Pool::new(4, 4, Duration::from_secs(60));
        closed_by_server(&pool);
        let port = match pool.lock().first() {
            Some(idle) => idle.conn.origin.port,
            None => panic!("the connection was not pooled"),
        };
        assert!(pool
            .take(Scheme::Http, "127.0.0.1", port, Duration::ZERO)
            .is_none());
        assert_eq!(pool.idle_count(), 0);
    }

    #[test]
    fn a_recently_used_connection_is_trusted_without_a_probe() {
        let pool = Pool::new(4, 4, Duration::from_secs(60));
        closed_by_server(&pool);
        let port = match pool.lock().first() {
            Some(idle) => idle.conn.origin.port,
            None => panic!("the connection was not pooled"),
        };
        // Handed out unchecked: the caller retries an idempotent request if it fails.
        assert!(pool
            .take(Scheme::Http, "127.0.0.1", port, Duration::from_secs(1))
            .is_some());
    }
}
