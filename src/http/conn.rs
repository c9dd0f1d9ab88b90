//! A connection: its stream, a read buffer, and reads and writes bounded by one deadline.
//!
//! Every wait on the socket gets the smaller of its own timeout (`timeout_read`,
//! `timeout_write`) and what is left of the call (`timeout_call`), so one deadline drives
//! every socket timeout. The socket option is only set again when that value changes.

use std::io::{self, IoSlice};
use std::net::SocketAddr;
use std::time::Duration;

use super::clock::Clock;
use super::error::{Error, ErrorKind, Timeout};
use super::net::Stream;
use crate::url::Scheme;

/// The read buffer a connection starts with; it grows for large heads, up to `max_head`.
const INITIAL_BUFFER: usize = 32 * 1024;

/// The origin a connection leads to: the pool's key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    pub scheme: Scheme,
    pub host: String,
    pub port: u16,
}

impl Origin {
    pub fn is(&self, scheme: Scheme, host: &str, port: u16) -> bool {
        self.scheme == scheme && self.port == port && self.host == host
    }
}

/// A connection and its buffers.
pub(crate) struct Conn {
    stream: Stream,
    /// The address connected to, checked again when a pooled connection is reused.
    pub peer: SocketAddr,
    pub origin: Origin,
    /// Bytes read from the stream and not yet consumed are `buf[start..end]`.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    read_timeout: Option<Duration>,
    write_timeout: Option<Duration>,
    /// Reused for each request head.
    pub wbuf: Vec<u8>,
    /// Bytes consumed from the stream, for `Response::bytes_read`.
    pub consumed: u64,
    /// Bytes the stream took from `write_all`: whether a failed write sent part of a request.
    pub sent: u64,
}

/// Maps an I/O error: timeouts to the timeout that fired; the peer going away to
/// `ConnectionClosed` (which callers turn into a truncation error once bytes have arrived).
fn io_error(e: io::Error, clock: &Clock, which: Timeout) -> Error {
    match e.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => clock.timeout_error(which),
        io::ErrorKind::ConnectionReset
        | io::ErrorKind::ConnectionAborted
        | io::ErrorKind::BrokenPipe
        | io::ErrorKind::UnexpectedEof => Error::io(ErrorKind::ConnectionClosed, e),
        _ => Error::io(ErrorKind::Io, e),
    }
}

impl Conn {
    pub fn new(stream: Stream, peer: SocketAddr, origin: Origin) -> Conn {
        Conn {
            stream,
            peer,
            origin,
            buf: vec![0; INITIAL_BUFFER],
            start: 0,
            end: 0,
            read_timeout: None,
            write_timeout: None,
            wbuf: Vec::with_capacity(1024),
            consumed: 0,
            sent: 0,
        }
    }

    /// Whether an idle connection can no longer carry a request: bytes nobody asked for are
    /// buffered, or the socket says the server closed it or sent more.
    pub fn is_stale(&mut self) -> bool {
        self.end > self.start || self.stream.is_stale()
    }

    /// The same connection, now speaking TLS to `host`. Nothing may be buffered: bytes that
    /// arrived before the handshake (after a proxy's answer to `CONNECT`) are refused.
    #[cfg(feature = "tls")]
    pub fn into_tls(
        self,
        connector: &super::tls::Connector,
        host: crate::url::Host<'_>,
        clock: &Clock,
    ) -> Result<Conn, Error> {
        if self.end > self.start {
            return Err(Error::new(ErrorKind::TlsHandshake)
                .with_detail("the proxy sent bytes after its answer to CONNECT"));
        }
        let stream = self.stream.into_tls(connector, host, clock)?;
        Ok(Conn::new(stream, self.peer, self.origin))
    }

    /// Bytes read and not yet consumed.
    pub fn buffered(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// The read buffer's size.
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    pub fn consume(&mut self, n: usize) {
        let n = n.min(self.end - self.start);
        self.start += n;
        self.consumed += n as u64;
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        }
    }

    /// Sets the socket's read timeout for the next wait; returns which timeout it is.
    fn arm_read(&mut self, clock: &Clock) -> Result<Timeout, Error> {
        let (budget, which) = clock.budget(Timeout::Read)?;
        if self.read_timeout != Some(budget) {
            self.stream
                .set_read_timeout(budget)
                .map_err(|e| Error::io(ErrorKind::Io, e))?;
            self.read_timeout = Some(budget);
        }
        Ok(which)
    }

    fn arm_write(&mut self, clock: &Clock) -> Result<Timeout, Error> {
        let (budget, which) = clock.budget(Timeout::Write)?;
        if self.write_timeout != Some(budget) {
            self.stream
                .set_write_timeout(budget)
                .map_err(|e| Error::io(ErrorKind::Io, e))?;
            self.write_timeout = Some(budget);
        }
        Ok(which)
    }

    /// Reads more into the buffer, growing it up to `max_buffer` bytes when it is full.
    /// Returns how many bytes arrived: 0 when the peer closed the connection, or when the
    /// buffer is full at `max_buffer` (callers check their limits first).
    pub fn fill(&mut self, clock: &Clock, max_buffer: usize) -> Result<usize, Error> {
        if self.end == self.buf.len() {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            } else if self.buf.len() < max_buffer {
                let grown = (self.buf.len() * 2).min(max_buffer);
                self.buf.resize(grown, 0);
            } else {
                return Ok(0);
            }
        }
        loop {
            let which = self.arm_read(clock)?;
            match self.stream.read(&mut self.buf[self.end..]) {
                Ok(n) => {
                    self.end += n;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io_error(e, clock, which)),
            }
        }
    }

    /// Reads straight into `dst`, bypassing the buffer (which must be empty): large bodies
    /// are copied once, by the kernel. Returns 0 when the peer closed the connection.
    pub fn read_direct(&mut self, clock: &Clock, dst: &mut [u8]) -> Result<usize, Error> {
        debug_assert_eq!(self.start, self.end);
        loop {
            let which = self.arm_read(clock)?;
            match self.stream.read(dst) {
                Ok(n) => {
                    self.consumed += n as u64;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io_error(e, clock, which)),
            }
        }
    }

    /// Writes `head` then `body`, in one system call when the kernel takes them whole.
    pub fn write_all(
        &mut self,
        clock: &Clock,
        mut head: &[u8],
        mut body: &[u8],
    ) -> Result<(), Error> {
        while !head.is_empty() || !body.is_empty() {
            let which = self.arm_write(clock)?;
            let written = match self
                .stream
                .write_vectored(&[IoSlice::new(head), IoSlice::new(body)])
            {
                Ok(0) => return Err(Error::new(ErrorKind::ConnectionClosed)),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io_error(e, clock, which)),
            };
            self.sent += written as u64;
            if written < head.len() {
                head = &head[written..];
            } else {
                body = &body[written - head.len()..];
                head = &[];
            }
        }
        Ok(())
    }
}
