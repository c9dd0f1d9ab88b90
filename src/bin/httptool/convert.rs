//! `httptool import` and `httptool export`: curl commands to plugin files and back.

use std::process::ExitCode;

use crate::args::Args;
use crate::CliError;

pub fn import(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Failed("import is not written yet".to_string()))
}

pub fn export(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::Failed("export is not written yet".to_string()))
}
