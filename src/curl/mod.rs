//! curl commands to plugins and back.

mod error;
// Used by `parse`, which the next commit adds.
#[allow(dead_code)]
mod shell;

pub use error::{Error, ErrorKind, Quote};
