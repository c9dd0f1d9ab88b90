//! The command line's one error: a command line that cannot be read, or work that failed,
//! each with its exit status.

use std::fmt;
use std::process::ExitCode;

/// Why a command did not succeed.
#[derive(Debug)]
pub enum CliError {
    /// The command line cannot be read: exit status 2.
    Usage(String),
    /// The work failed, or the call's result is an error: exit status 1.
    Failed(String),
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Usage(_) => ExitCode::from(2),
            CliError::Failed(_) => ExitCode::from(1),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) | CliError::Failed(message) => f.write_str(message),
        }
    }
}
