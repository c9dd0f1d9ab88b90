//! HTTP/1.1 message syntax (RFC 9112): pure code over bytes, no sockets.
//!
//! - [`head`]: finding, parsing and framing the response head;
//! - [`chunked`]: the chunk-size line;
//! - [`write`](mod@write): the request head;
//! - [`request`]: the request head a server reads.

pub(crate) mod chunked;
pub(crate) mod head;
pub(crate) mod request;
pub(crate) mod write;

/// The position of the first `byte` in `bytes`. The one search for a line ending or a colon
/// (build cost, see `design::performance`: compiled once, not once per call site).
pub(crate) fn find_byte(bytes: &[u8], byte: u8) -> Option<usize> {
    for (i, &b) in bytes.iter().enumerate() {
        if b == byte {
            return Some(i);
        }
    }
    None
}
