//! The MCP server's error type: what ends a session (the messages themselves never do).

use std::fmt;
use std::io;

/// What ended [`serve`](super::serve) with an error: reading the input or writing the
/// output failed. Bad messages never end a session; each gets its JSON-RPC error.
///
/// `#[non_exhaustive]`: new ways for a session to end may be told apart.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Reading the client's messages failed.
    Read(io::Error),
    /// Writing to the client failed (it went away, say).
    Write(io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(e) => write!(f, "reading the client's messages failed: {}", e),
            Error::Write(e) => write!(f, "writing to the client failed: {}", e),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Read(e) | Error::Write(e) => Some(e),
        }
    }
}
