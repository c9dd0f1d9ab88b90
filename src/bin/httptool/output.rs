//! Standard output, written by every command the same way: whole, flushed, and a failure to
//! write an error rather than a panic.

use std::io::Write;

use crate::error::CliError;

/// Writes `text` and a newline to standard output.
pub fn print_out(text: &str) -> Result<(), CliError> {
    write_out(text.as_bytes())?;
    write_out(b"\n")
}

/// Writes bytes to standard output as they are (a request body need not be UTF-8).
pub fn write_out(bytes: &[u8]) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| CliError::Failed(format!("cannot write to standard output: {}", e)))
}
