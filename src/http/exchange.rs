//! One request and its response on one connection: write the request, read heads (skipping
//! interim 1xx ones), read the body as its framing says, and say whether the connection can
//! carry another request.

use super::clock::Clock;
use super::config::Limits;
use super::conn::Conn;
use super::error::{Error, ErrorKind, Limit, Malformed};
use super::method::Method;
use super::request::{BodyStream, HeadHook};
use super::response::Response;
use super::wire::chunked::parse_chunk_size;
use super::wire::head::{find_head_end, parse_field_line, parse_head, FieldCount, Framing, Head};
use crate::url::Url;
use std::sync::Arc;

/// A response read off the wire.
pub(crate) struct Reply {
    pub head: Head,
    pub body: Vec<u8>,
    pub bytes_read: u64,
    /// Whether the connection may carry another request.
    pub reusable: bool,
}

impl Reply {
    /// The response handed to the caller, for a request to `url`: the one place a reply
    /// read from the wire (a connection's or recorded bytes) becomes a [`Response`].
    pub(crate) fn into_response(self, url: Url) -> Response {
        let head = self.head;
        Response::from_parts(
            head.status,
            head.reason,
            head.version,
            head.headers,
            self.body,
            url,
            self.bytes_read,
        )
    }
}

/// Why an exchange failed, and whether the request may be sent again.
pub(crate) struct Failure {
    pub error: Error,
    /// No response byte arrived, and the server cannot have acted on part of the request:
    /// nothing of it was written, or all of it was and the connection closed before any
    /// answer (a pooled connection the server closed as the request arrived). An idempotent
    /// request may then go once more on a new connection (RFC 9112 section 9.3.1). A request
    /// written in part never is: the server may have started on it, and what it answered
    /// is the result.
    pub replayable: bool,
}

/// Sends the head in `conn.wbuf` and `body`, and reads the response.
///
/// A write that fails because the server closed the connection does not end the exchange:
/// a server refusing a request (a `413` for a body too large, a `401`) often answers and
/// closes before reading the body, and that answer is the result (RFC 9112 section 9.5: a
/// client sending a body watches for an error response). The connection is then not reused.
///
/// `on_head` is told the final head's status before the body is read
/// ([`Request::on_head`](super::Request::on_head)); `stream` takes the body of a response it
/// accepts ([`Request::stream_body`](super::Request::stream_body)).
pub(crate) fn exchange(
    conn: &mut Conn,
    method: Method,
    body: &[u8],
    limits: &Limits,
    clock: &Clock,
    on_head: Option<&HeadHook>,
    stream: Option<&Arc<dyn BodyStream>>,
) -> Result<Reply, Failure> {
    let hooks = Hooks { on_head, stream };
    let start = conn.consumed;
    let sent_before = conn.sent;
    let head_bytes = std::mem::take(&mut conn.wbuf);
    let written = conn.write_all(clock, &head_bytes, body);
    conn.wbuf = head_bytes;
    if let Err(error) = written {
        if error.kind() != ErrorKind::ConnectionClosed {
            return Err(Failure {
                error,
                replayable: false,
            });
        }
        // The peer is gone, so these reads end at once: with what it sent, or nothing.
        return match read_response(conn, method, limits, clock, start, &hooks) {
            Ok(mut reply) => {
                reply.reusable = false;
                Ok(reply)
            }
            Err(_) => Err(Failure {
                error,
                replayable: conn.sent == sent_before && nothing_read(conn, start),
            }),
        };
    }
    read_response(conn, method, limits, clock, start, &hooks).map_err(|error| Failure {
        replayable: error.kind() == ErrorKind::ConnectionClosed && nothing_read(conn, start),
        error,
    })
}

/// Whether no byte of a response arrived since the exchange began at `start`.
fn nothing_read(conn: &Conn, start: u64) -> bool {
    conn.consumed == start && conn.buffered().is_empty()
}

/// What the request asked to be told of its response.
struct Hooks<'a> {
    on_head: Option<&'a HeadHook>,
    stream: Option<&'a Arc<dyn BodyStream>>,
}

/// Reads the final response (interim 1xx ones skipped) and its body.
fn read_response(
    conn: &mut Conn,
    method: Method,
    limits: &Limits,
    clock: &Clock,
    start: u64,
    hooks: &Hooks<'_>,
) -> Result<Reply, Error> {
    let mut head_total = 0;
    let head = loop {
        let (head, len) = read_head(conn, limits, clock, head_total)?;
        head_total += len;
        // RFC 9110 section 15.2: interim responses precede the final one; 101 ends HTTP/1.1
        // on the connection, so it is final here.
        if (100..200).contains(&head.status) && head.status != 101 {
            continue;
        }
        break head;
    };
    let framing = head.framing(method == Method::Head)?;
    if let Some(hook) = hooks.on_head {
        hook(head.status);
    }
    if let Some(stream) = hooks
        .stream
        .filter(|s| s.accepts(head.status, &head.headers))
    {
        let narrowed;
        let clock = match stream.timeout() {
            Some(timeout) => {
                narrowed = clock.narrowed(timeout);
                &narrowed
            }
            None => clock,
        };
        let whole = stream_body(conn, framing, limits, clock, stream.as_ref())?;
        return Ok(Reply {
            reusable: whole
                && head.persists()
                && framing != Framing::Close
                && conn.buffered().is_empty(),
            head,
            body: Vec::new(),
            bytes_read: conn.consumed - start,
        });
    }
    let body = read_body(conn, framing, limits, clock)?;
    // Bytes already here after the response (a HEAD response's body, a second response
    // nobody asked for) mean the exchange is not over: the connection is not reused. Bytes
    // that arrive later are found by the pool's check before reuse.
    let reusable = head.persists()
        && head.status != 101
        && framing != Framing::Close
        && conn.buffered().is_empty();
    Ok(Reply {
        head,
        body,
        bytes_read: conn.consumed - start,
        reusable,
    })
}

/// Sends the `CONNECT` head in `conn.wbuf` and reads the head of the proxy's final answer
/// (interim 1xx skipped) under the same limits as any response; returns its status. A 2xx
/// has no body (RFC 9110 section 9.3.6): the tunnel starts right after the head. The body of
/// a refusal is not read, since the connection is dropped.
#[cfg(feature = "tls")]
pub(crate) fn tunnel(conn: &mut Conn, limits: &Limits, clock: &Clock) -> Result<u16, Error> {
    let head_bytes = std::mem::take(&mut conn.wbuf);
    let written = conn.write_all(clock, &head_bytes, &[]);
    conn.wbuf = head_bytes;
    written?;
    let mut used = 0;
    loop {
        let (head, len) = read_head(conn, limits, clock, used)?;
        used += len;
        if !(100..200).contains(&head.status) {
            return Ok(head.status);
        }
    }
}

/// Reads one head; `used` is what earlier interim heads took of `max_head`.
fn read_head(
    conn: &mut Conn,
    limits: &Limits,
    clock: &Clock,
    used: usize,
) -> Result<(Head, usize), Error> {
    let budget = limits.max_head.saturating_sub(used);
    let over = |seen: usize| Error::limit(Limit::Head, limits.max_head, (used + seen) as u64);
    // Each byte is looked at once however the head trickles in: both searches resume where
    // they stopped.
    let mut scanned = 0;
    let mut status_line_ended = false;
    loop {
        let data = conn.buffered();
        if let Some(end) = find_head_end(data, scanned) {
            if end > budget {
                return Err(over(end));
            }
            let head = parse_head(&data[..end], limits)?;
            conn.consume(end);
            return Ok((head, end));
        }
        let had = data.len();
        if had > budget {
            return Err(over(had));
        }
        status_line_ended = status_line_ended || data[scanned..].contains(&b'\n');
        if !status_line_ended && had > limits.max_status_line.saturating_add(1) {
            return Err(Error::limit(
                Limit::StatusLine,
                limits.max_status_line,
                had as u64,
            ));
        }
        scanned = had.saturating_sub(2);
        let got = conn.fill(clock, budget.saturating_add(1));
        if closed(&got) {
            if had > 0 {
                return Err(Error::malformed(Malformed::TruncatedHead));
            }
            return Err(got
                .err()
                .unwrap_or_else(|| Error::new(ErrorKind::ConnectionClosed)));
        }
        got?;
    }
}

/// Whether a read result means the peer went away.
fn closed(result: &Result<usize, Error>) -> bool {
    match result {
        Ok(n) => *n == 0,
        Err(e) => e.kind() == ErrorKind::ConnectionClosed,
    }
}

/// The body being read: `data[..filled]` holds it; `data[filled..]` is zeroed room for the
/// next direct read. Room grows with what has arrived, never with what a header declares.
struct BodyBuf {
    data: Vec<u8>,
    filled: usize,
    /// The least room a direct read gets.
    step: usize,
}

impl BodyBuf {
    fn new(capacity: usize, step: usize) -> BodyBuf {
        BodyBuf {
            data: Vec::with_capacity(capacity),
            filled: 0,
            step,
        }
    }

    fn extend(&mut self, bytes: &[u8]) {
        if self.filled == self.data.len() {
            self.data.extend_from_slice(bytes);
            self.filled += bytes.len();
            return;
        }
        self.data.truncate(self.filled);
        self.data.extend_from_slice(bytes);
        self.filled = self.data.len();
    }

    /// Zeroed room for up to `want` bytes.
    fn room(&mut self, want: usize) -> &mut [u8] {
        let room = self.data.len() - self.filled;
        if room == 0 {
            let grow = want.min(self.step.max(self.filled)).max(1);
            self.data.resize(self.filled + grow, 0);
        }
        let end = self.data.len().min(self.filled.saturating_add(want));
        &mut self.data[self.filled..end]
    }

    fn finish(mut self) -> Vec<u8> {
        self.data.truncate(self.filled);
        self.data
    }
}

/// A single direct read may take this much room for a body of declared length; a longer body
/// gets more room as it arrives.
const LENGTH_STEP: usize = 1 << 20;
/// The first room for bodies of unknown length.
const OPEN_STEP: usize = 16 * 1024;

fn read_body(
    conn: &mut Conn,
    framing: Framing,
    limits: &Limits,
    clock: &Clock,
) -> Result<Vec<u8>, Error> {
    match framing {
        Framing::None => Ok(Vec::new()),
        Framing::Length(n) => read_length(conn, n, limits.max_body, clock),
        Framing::Chunked => read_chunked(conn, limits, clock),
        Framing::Close => read_to_close(conn, limits.max_body, clock),
    }
}

/// Hands a body to `stream` as it arrives, under the framing's rules (the chunk-size line
/// and trailer limits apply; the body limit does not: the stream stops the read itself).
/// Returns whether the body was read to its end (`false`: the stream stopped it).
fn stream_body(
    conn: &mut Conn,
    framing: Framing,
    limits: &Limits,
    clock: &Clock,
    stream: &dyn BodyStream,
) -> Result<bool, Error> {
    match framing {
        Framing::None => Ok(true),
        Framing::Length(n) => stream_exact(conn, n, 0, clock, stream),
        Framing::Close => loop {
            if conn.buffered().is_empty() {
                let got = conn.fill(clock, OPEN_STEP)?;
                if got == 0 {
                    return Ok(true);
                }
            }
            let n = conn.buffered().len();
            let more = stream.write(conn.buffered());
            conn.consume(n);
            if !more {
                return Ok(false);
            }
        },
        Framing::Chunked => {
            let mut received = 0u64;
            loop {
                let (len, total) = buffer_line(
                    conn,
                    clock,
                    limits.max_chunk_line,
                    Limit::ChunkLine,
                    received as usize,
                )?;
                let size = parse_chunk_size(&conn.buffered()[..len])?;
                conn.consume(total);
                if size == 0 {
                    read_trailers(conn, limits, clock, received as usize)?;
                    return Ok(true);
                }
                if !stream_exact(conn, size, received, clock, stream)? {
                    return Ok(false);
                }
                received = received.saturating_add(size);
                let (_, total) = buffer_line(conn, clock, 0, Limit::ChunkLine, received as usize)
                    .map_err(|e| match e.kind() {
                    ErrorKind::LimitExceeded { .. } => Error::malformed(Malformed::ChunkEnd),
                    _ => e,
                })?;
                conn.consume(total);
            }
        }
    }
}

/// Hands the next `n` bytes of the body to `stream`; `received` is what came before them.
/// Returns `false` when the stream stopped the read.
fn stream_exact(
    conn: &mut Conn,
    n: u64,
    received: u64,
    clock: &Clock,
    stream: &dyn BodyStream,
) -> Result<bool, Error> {
    let mut left = n;
    while left > 0 {
        if conn.buffered().is_empty() {
            let got = conn
                .fill(clock, OPEN_STEP)
                .map_err(|e| incomplete(e, Some(received + n), (received + n - left) as usize))?;
            if got == 0 {
                return Err(incomplete(
                    Error::new(ErrorKind::ConnectionClosed),
                    Some(received + n),
                    (received + n - left) as usize,
                ));
            }
        }
        let take = conn
            .buffered()
            .len()
            .min(usize::try_from(left).unwrap_or(usize::MAX));
        let more = stream.write(&conn.buffered()[..take]);
        conn.consume(take);
        left -= take as u64;
        if !more {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Moves up to `want` buffered bytes into the body; returns how many.
fn take_buffered(conn: &mut Conn, body: &mut BodyBuf, want: usize) -> usize {
    let take = want.min(conn.buffered().len());
    body.extend(&conn.buffered()[..take]);
    conn.consume(take);
    take
}

/// Reads up to `want` bytes straight into the body; 0 when the connection closed.
fn read_into(
    conn: &mut Conn,
    body: &mut BodyBuf,
    want: usize,
    clock: &Clock,
) -> Result<usize, Error> {
    let got = conn.read_direct(clock, body.room(want))?;
    body.filled += got;
    Ok(got)
}

fn incomplete(e: Error, expected: Option<u64>, received: usize) -> Error {
    if e.kind() == ErrorKind::ConnectionClosed {
        return Error::new(ErrorKind::IncompleteBody {
            expected,
            received: received as u64,
        });
    }
    e
}

/// RFC 9112 section 6.3, rule 6: exactly `Content-Length` bytes.
fn read_length(conn: &mut Conn, n: u64, max_body: usize, clock: &Clock) -> Result<Vec<u8>, Error> {
    let len = match usize::try_from(n) {
        Ok(len) if len <= max_body => len,
        _ => return Err(Error::limit(Limit::Body, max_body, n)),
    };
    let mut body = BodyBuf::new(len.min(LENGTH_STEP), LENGTH_STEP);
    take_buffered(conn, &mut body, len);
    while body.filled < len {
        let received = body.filled;
        let got = read_into(conn, &mut body, len - received, clock)
            .map_err(|e| incomplete(e, Some(n), received))?;
        if got == 0 {
            return Err(incomplete(
                Error::new(ErrorKind::ConnectionClosed),
                Some(n),
                received,
            ));
        }
    }
    Ok(body.finish())
}

/// RFC 9112 section 6.3, rule 8: a response without framing ends when the server closes the
/// connection (HTTP/1.0 servers do this).
fn read_to_close(conn: &mut Conn, max_body: usize, clock: &Clock) -> Result<Vec<u8>, Error> {
    let mut body = BodyBuf::new(0, OPEN_STEP);
    loop {
        if take_buffered(conn, &mut body, usize::MAX) == 0 {
            let want = max_body.saturating_sub(body.filled).saturating_add(1);
            let received = body.filled;
            let got = read_into(conn, &mut body, want, clock).map_err(|e| unclean(e, received))?;
            if got == 0 {
                return Ok(body.finish());
            }
        }
        if body.filled > max_body {
            return Err(Error::limit(Limit::Body, max_body, body.filled as u64));
        }
    }
}

/// RFC 9112 section 9.8: only a clean close ends such a body. A reset, or a TLS connection
/// closed without `close_notify` (which an attacker can forge), may have cut it short.
fn unclean(e: Error, received: usize) -> Error {
    if e.kind() != ErrorKind::ConnectionClosed {
        return e;
    }
    Error::new(ErrorKind::IncompleteBody {
        expected: None,
        received: received as u64,
    })
    .with_detail("a reset, or tls without close_notify")
}

/// Makes sure a whole line is buffered; returns the length of the line without its ending,
/// and with it. The line may be `max` bytes long at most.
fn buffer_line(
    conn: &mut Conn,
    clock: &Clock,
    max: usize,
    limit: Limit,
    received: usize,
) -> Result<(usize, usize), Error> {
    // Resumes the search where it stopped, so a line trickling in is scanned once.
    let mut scanned = 0;
    loop {
        let data = conn.buffered();
        if let Some(nl) = super::wire::find_byte(&data[scanned..], b'\n').map(|i| scanned + i) {
            let len = if nl > 0 && data[nl - 1] == b'\r' {
                nl - 1
            } else {
                nl
            };
            if len > max {
                return Err(Error::limit(limit, max, len as u64));
            }
            return Ok((len, nl + 1));
        }
        if data.len() > max.saturating_add(1) {
            return Err(Error::limit(limit, max, data.len() as u64));
        }
        scanned = data.len();
        let max_buffer = conn.capacity().max(max.saturating_add(2));
        let got = conn
            .fill(clock, max_buffer)
            .map_err(|e| incomplete(e, None, received))?;
        if got == 0 {
            return Err(incomplete(
                Error::new(ErrorKind::ConnectionClosed),
                None,
                received,
            ));
        }
    }
}

/// RFC 9112 section 7.1: `chunked-body = *chunk last-chunk trailer-section CRLF`.
fn read_chunked(conn: &mut Conn, limits: &Limits, clock: &Clock) -> Result<Vec<u8>, Error> {
    let mut body = BodyBuf::new(0, OPEN_STEP);
    loop {
        let (len, total) = buffer_line(
            conn,
            clock,
            limits.max_chunk_line,
            Limit::ChunkLine,
            body.filled,
        )?;
        let size = parse_chunk_size(&conn.buffered()[..len])?;
        conn.consume(total);
        if size == 0 {
            read_trailers(conn, limits, clock, body.filled)?;
            return Ok(body.finish());
        }
        let seen = (body.filled as u64).saturating_add(size);
        if seen > limits.max_body as u64 {
            return Err(Error::limit(Limit::Body, limits.max_body, seen));
        }
        // The check above bounds `size` by `max_body`, a usize.
        read_chunk_data(conn, &mut body, size as usize, clock)?;
        let (len, total) =
            buffer_line(conn, clock, 0, Limit::ChunkLine, body.filled).map_err(|e| {
                match e.kind() {
                    ErrorKind::LimitExceeded { .. } => Error::malformed(Malformed::ChunkEnd),
                    _ => e,
                }
            })?;
        debug_assert_eq!(len, 0);
        conn.consume(total);
    }
}

/// Reads `size` bytes of chunk data: from the buffer, and straight into the body when the
/// rest is larger than the buffer.
fn read_chunk_data(
    conn: &mut Conn,
    body: &mut BodyBuf,
    size: usize,
    clock: &Clock,
) -> Result<(), Error> {
    let mut left = size - take_buffered(conn, body, size);
    while left > 0 {
        let received = body.filled;
        let got = if left >= conn.capacity() {
            read_into(conn, body, left, clock)
        } else {
            conn.fill(clock, conn.capacity()).map(|n| {
                if n == 0 {
                    0
                } else {
                    take_buffered(conn, body, left)
                }
            })
        };
        match got {
            Ok(0) => {
                return Err(incomplete(
                    Error::new(ErrorKind::ConnectionClosed),
                    None,
                    received,
                ))
            }
            Ok(n) => left -= n,
            Err(e) => return Err(incomplete(e, None, received)),
        }
    }
    Ok(())
}

/// RFC 9112 section 7.1.2: trailer fields, checked and dropped. They count against
/// `max_head` and `max_headers`.
fn read_trailers(
    conn: &mut Conn,
    limits: &Limits,
    clock: &Clock,
    received: usize,
) -> Result<(), Error> {
    let mut bytes = 0usize;
    let mut fields = FieldCount::new(limits.max_headers);
    loop {
        let room = limits.max_head.saturating_sub(bytes);
        let (len, total) = buffer_line(conn, clock, room, Limit::Head, received)?;
        if len == 0 {
            conn.consume(total);
            return Ok(());
        }
        fields.add()?;
        parse_field_line(&conn.buffered()[..len], Malformed::Trailer)?;
        bytes += total;
        conn.consume(total);
    }
}
