//! The one file that opens sockets: name resolution, the address policy applied to the
//! resolved addresses, connecting, and the stream type, plain or TLS (`tls.rs`).

use std::io::{self, IoSlice, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::Duration;

use super::address::AddressPolicy;
use super::clock::Clock;
use super::error::{Error, ErrorKind, Timeout};
#[cfg(feature = "tls")]
use super::tls::{Connector, TlsStream};
use crate::url::Host;

/// A connection's byte stream; nothing outside this file names the socket type.
#[derive(Debug)]
pub(crate) enum Stream {
    Plain(TcpStream),
    /// Boxed: a TLS connection's state is large, and connections move in and out of the pool.
    #[cfg(feature = "tls")]
    Tls(Box<TlsStream>),
    /// A response held in memory, read by [`read_response`](super::read_response): reads
    /// take its bytes and then see the end of the stream; writes are dropped.
    Memory(io::Cursor<Vec<u8>>),
}

impl Stream {
    pub fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            #[cfg(feature = "tls")]
            Stream::Tls(s) => s.read(buf),
            Stream::Memory(s) => s.read(buf),
        }
    }

    pub fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write_vectored(bufs),
            #[cfg(feature = "tls")]
            Stream::Tls(s) => s.write_vectored(bufs),
            Stream::Memory(_) => Ok(bufs.iter().map(|b| b.len()).sum()),
        }
    }

    pub fn set_read_timeout(&mut self, timeout: Duration) -> io::Result<()> {
        match self {
            Stream::Plain(s) => s.set_read_timeout(Some(timeout)),
            #[cfg(feature = "tls")]
            Stream::Tls(s) => s.set_read_timeout(timeout),
            Stream::Memory(_) => Ok(()),
        }
    }

    pub fn set_write_timeout(&mut self, timeout: Duration) -> io::Result<()> {
        match self {
            Stream::Plain(s) => s.set_write_timeout(Some(timeout)),
            #[cfg(feature = "tls")]
            Stream::Tls(s) => s.set_write_timeout(timeout),
            Stream::Memory(_) => Ok(()),
        }
    }

    /// Runs the TLS handshake for `host` on a plain stream (a new connection, or a proxy's
    /// tunnel), within `timeout_connect`.
    #[cfg(feature = "tls")]
    pub fn into_tls(
        self,
        connector: &Connector,
        host: Host<'_>,
        clock: &Clock,
    ) -> Result<Stream, Error> {
        match self {
            Stream::Plain(sock) => connector
                .handshake(sock, host, clock)
                .map(|tls| Stream::Tls(Box::new(tls))),
            // Proxies are reached over plain http, so TLS is never layered twice.
            Stream::Tls(_) => {
                Err(Error::new(ErrorKind::TlsHandshake)
                    .with_detail("tls inside tls is not supported"))
            }
            Stream::Memory(_) => {
                Err(Error::new(ErrorKind::TlsHandshake)
                    .with_detail("a response in memory has no tls"))
            }
        }
    }

    /// Whether an idle connection can no longer carry a request: the server closed it (a
    /// non-blocking peek sees the end of the stream or an error) or sent bytes nobody asked
    /// for. Checked before a pooled connection is reused.
    pub fn is_stale(&mut self) -> bool {
        match self {
            #[cfg(feature = "tls")]
            Stream::Tls(s) => s.is_stale(),
            Stream::Memory(s) => s.position() < s.get_ref().len() as u64,
            Stream::Plain(s) => {
                if s.set_nonblocking(true).is_err() {
                    return true;
                }
                let mut byte = [0u8; 1];
                let idle =
                    matches!(s.peek(&mut byte), Err(e) if e.kind() == io::ErrorKind::WouldBlock);
                s.set_nonblocking(false).is_err() || !idle
            }
        }
    }
}

/// Where to connect, and what to check first.
pub(crate) struct Target<'a> {
    pub host: Host<'a>,
    pub port: u16,
    /// Checked on every address before connecting; `None` through a proxy (whose address is
    /// the caller's own setting).
    pub policy: Option<&'a AddressPolicy>,
}

/// Resolves (once), filters the addresses through the policy, and connects to the first
/// allowed address that accepts, each within `timeout_connect` and the call's deadline.
pub(crate) fn connect(target: &Target<'_>, clock: &Clock) -> Result<(Stream, SocketAddr), Error> {
    let addrs = match target.host {
        Host::Ipv4(ip) => vec![SocketAddr::new(IpAddr::V4(ip), target.port)],
        Host::Ipv6(ip) => vec![SocketAddr::new(IpAddr::V6(ip), target.port)],
        Host::Domain(name) => resolve(name, target.port, clock)?,
    };
    let addrs = allowed(addrs, target)?;
    let mut last: Option<Error> = None;
    for addr in &addrs {
        let (budget, which) = clock.budget(Timeout::Connect)?;
        match TcpStream::connect_timeout(addr, budget) {
            Ok(stream) => {
                // Requests are written whole; waiting for more data (Nagle) only adds latency.
                stream
                    .set_nodelay(true)
                    .map_err(|e| Error::io(ErrorKind::Io, e))?;
                return Ok((Stream::Plain(stream), *addr));
            }
            Err(e) if is_timeout(&e) => last = Some(clock.timeout_error(which)),
            Err(e) => {
                last = Some(Error::io(ErrorKind::Connect, e).with_detail(format!(
                    "{} (addresses tried: {})",
                    target.host_port(),
                    addrs.len()
                )))
            }
        }
    }
    Err(last.unwrap_or_else(|| Error::new(ErrorKind::Resolve).with_detail(target.host_port())))
}

impl Target<'_> {
    fn host_port(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    )
}

/// Drops the addresses the policy refuses; an error naming the first refusal when none is left.
fn allowed(addrs: Vec<SocketAddr>, target: &Target<'_>) -> Result<Vec<SocketAddr>, Error> {
    let policy = match target.policy {
        Some(p) if p.is_strict() => p,
        _ => return Ok(addrs),
    };
    let mut first_refusal = None;
    let mut kept = Vec::with_capacity(addrs.len());
    for addr in addrs {
        match policy.check_ip(addr.ip()) {
            Ok(()) => kept.push(addr),
            Err(class) => {
                first_refusal.get_or_insert((class, addr.ip()));
            }
        }
    }
    match (kept.is_empty(), first_refusal) {
        (true, Some((class, ip))) => Err(Error::refused(class, ip, &target.host.to_string())),
        _ => Ok(kept),
    }
}

/// Resolves `name` on a helper thread, so the wait is bounded by `timeout_connect` and the
/// call's deadline (the system resolver has no timeout of its own to pass). A resolver that
/// hangs leaves its thread to finish on its own.
fn resolve(name: &str, port: u16, clock: &Clock) -> Result<Vec<SocketAddr>, Error> {
    let (budget, which) = clock.budget(Timeout::Connect)?;
    let unresolved = || Error::new(ErrorKind::Resolve).with_detail(format!("'{name}'"));
    let slot = Arc::new(Handoff::default());
    let owned = name.to_string();
    let sender = Arc::clone(&slot);
    let spawned = thread::Builder::new()
        .name("httptool-resolve".to_string())
        .spawn(move || {
            // The guard marks the hand-off done even if resolving unwinds, so the caller
            // sees "unresolved" at once rather than waiting out its budget.
            let done = Done(&sender);
            let result = (owned.as_str(), port)
                .to_socket_addrs()
                .map(Iterator::collect);
            done.0.lock().result = Some(result);
        });
    let result: io::Result<Vec<SocketAddr>> = match spawned {
        Ok(_) => {
            let (mut state, _) = slot
                .ready
                .wait_timeout_while(slot.lock(), budget, |state| !state.done)
                .unwrap_or_else(PoisonError::into_inner);
            match (state.done, state.result.take()) {
                (_, Some(result)) => result,
                (false, None) => return Err(clock.timeout_error(which)),
                (true, None) => return Err(unresolved()),
            }
        }
        // No thread to spare: resolve here, unbounded.
        Err(_) => (name, port).to_socket_addrs().map(Iterator::collect),
    };
    match result {
        Ok(addrs) if !addrs.is_empty() => Ok(addrs),
        Ok(_) => Err(unresolved()),
        Err(e) => Err(unresolved().with_source(e)),
    }
}

/// What the resolver thread hands back: a mutex and condition variable rather than a
/// channel, which would compile std's three channel flavours into every build for one
/// message (build cost, see `design::performance`).
#[derive(Default)]
struct Handoff {
    state: Mutex<Resolved>,
    ready: Condvar,
}

#[derive(Default)]
struct Resolved {
    result: Option<io::Result<Vec<SocketAddr>>>,
    /// Set when the thread is finished with the hand-off, with or without a result.
    done: bool,
}

impl Handoff {
    fn lock(&self) -> MutexGuard<'_, Resolved> {
        // Nothing runs under this lock that can panic, so a poisoned lock still holds a
        // whole value.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Marks a [`Handoff`] done and wakes the waiting caller when the resolver thread ends.
struct Done<'a>(&'a Handoff);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.lock().done = true;
        self.0.ready.notify_one();
    }
}
