//! HTTP/1.1 message syntax (RFC 9112): pure code over bytes, no sockets.
//!
//! - [`head`]: finding, parsing and framing the response head;
//! - [`chunked`]: the chunk-size line;
//! - [`write`](mod@write): the request head.

pub(crate) mod chunked;
pub(crate) mod head;
pub(crate) mod write;
