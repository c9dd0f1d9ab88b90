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

    /// The most recently used idle connection to the origin that can carry a request.
    ///
    /// Every connection is checked before it is handed out, however briefly it was idle
    /// ([retries](crate::design::endpoints#retries)): a byte already waiting on it (a late extra
    /// response, the body of a
    /// HEAD response) or a close by the server means the previous exchange is not over, and
    /// reading the next answer from it would hand one call another's bytes. Such a
    /// connection is dropped; the check costs a few system calls per reuse.
    pub fn take(&self, scheme: Scheme, host: &str, port: u16, now: Instant) -> Option<Conn> {
        loop {
            let found = {
                let mut idle = self.lock();
                // Loops rather than closure-driven searches here and in `put`: each compiled
                // its own copy of the iterator code (build cost, see `design::performance`).
                let mut pos = idle.len();
                loop {
                    pos = pos.checked_sub(1)?;
                    if idle.get(pos)?.conn.origin.is(scheme, host, port) {
                        break;
                    }
                }
                idle.remove(pos)
            };
            let mut found = found;
            let idle_for = now.saturating_duration_since(found.since);
            if idle_for < self.max_age && !found.conn.is_stale() {
                return Some(found.conn);
            }
            // Expired, closed by the server, or holding bytes nobody asked for: dropped
            // here, outside the lock.
        }
    }

    /// Keeps a connection for reuse, evicting the oldest of its origin, then the oldest of all,
    /// to stay within the limits; expired connections go too.
    pub fn put(&self, conn: Conn, now: Instant) {
        if self.max_per_origin == 0 || self.max_total == 0 {
            return;
        }
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
            let mut oldest_same = None;
            let mut same = 0;
            for (i, e) in idle.iter().enumerate() {
                if e.conn.origin == conn.origin {
                    oldest_same = oldest_same.or(Some(i));
                    same += 1;
                }
            }
            if same >= self.max_per_origin {
                if let Some(oldest) = oldest_same {
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
        // Wait until the close has reached the client's socket: a peek at the end of the
        // stream returns 0, and leaves it there for the pool's own check.
        assert_eq!(client.peek(&mut [0u8; 1]).unwrap(), 0);
        let origin = Origin {
            scheme: Scheme::Http,
            host: "127.0.0.1".to_string(),
            port: addr.port(),
        };
        pool.put(
            Conn::new(Stream::Plain(client), addr, origin),
            Instant::now(),
        );
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
            .take(Scheme::Http, "127.0.0.1", port, Instant::now())
            .is_none());
        assert_eq!(pool.idle_count(), 0);
    }

    #[test]
    fn an_open_connection_with_nothing_waiting_is_reused() {
        let pool = Pool::new(4, 4, Duration::from_secs(60));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let client = TcpStream::connect(addr).unwrap();
        let _server = listener.accept().unwrap();
        let origin = Origin {
            scheme: Scheme::Http,
            host: "127.0.0.1".to_string(),
            port: addr.port(),
        };
        let now = Instant::now();
        pool.put(Conn::new(Stream::Plain(client), addr, origin), now);
        for _ in 0..2 {
            let conn = pool.take(Scheme::Http, "127.0.0.1", addr.port(), now);
            let conn = conn.expect("the open connection was handed out");
            pool.put(conn, now);
        }
        assert_eq!(pool.idle_count(), 1);
    }

    #[test]
    fn an_idle_connection_is_kept_until_max_age_and_not_at_it() {
        let max_age = Duration::from_secs(15);
        let pool = Pool::new(4, 4, max_age);
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let origin = Origin {
            scheme: Scheme::Http,
            host: "127.0.0.1".to_string(),
            port: addr.port(),
        };
        let put_at = Instant::now();
        let mut servers = Vec::new();
        for _ in 0..2 {
            let client = TcpStream::connect(addr).unwrap();
            servers.push(listener.accept().unwrap());
            pool.put(
                Conn::new(Stream::Plain(client), addr, origin.clone()),
                put_at,
            );
        }
        let just_under = put_at + max_age - Duration::from_nanos(1);
        let kept = pool.take(Scheme::Http, "127.0.0.1", addr.port(), just_under);
        assert!(kept.is_some());
        let at_max_age = put_at + max_age;
        let expired = pool.take(Scheme::Http, "127.0.0.1", addr.port(), at_max_age);
        assert!(expired.is_none());
        assert_eq!(pool.idle_count(), 0);
    }
}
