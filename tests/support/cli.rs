//! Running the built `httptool` binary as a user would, and files for it to read.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use httptool::json::{self, Json};

/// The variables the binary reads its network settings from: cleared for every run, so the
/// machine's own proxy or CA settings cannot steer a test (tests set them on purpose in `env`).
pub const NETWORK_VARIABLES: [&str; 9] = [
    "http_proxy",
    "HTTP_PROXY",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
    "no_proxy",
    "NO_PROXY",
    "HTTPTOOL_CA_FILE",
];

/// Runs the binary with `args`, `stdin` (closed at once when `None`) and extra environment.
pub fn httptool(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_httptool"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for name in NETWORK_VARIABLES {
        command.env_remove(name);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().expect("run httptool");
    {
        let mut input = child.stdin.take().expect("stdin");
        if let Some(text) = stdin {
            input.write_all(text.as_bytes()).expect("write stdin");
        }
    }
    child.wait_with_output().expect("httptool output")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 stderr")
}

pub fn status(output: &Output) -> i32 {
    output.status.code().unwrap_or(-1)
}

/// The lines that open an MCP session: `initialize` (id 1, protocol 2025-06-18), then
/// `notifications/initialized`.
pub const MCP_OPENING: [&str; 2] = [
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
];

/// The stdin of `httptool serve` for one MCP session: the opening, then `messages` (one
/// JSON-RPC message each), one a line; the end of input ends the session.
pub fn mcp_session(messages: &[&str]) -> String {
    let mut input = String::new();
    for line in MCP_OPENING.iter().chain(messages) {
        input.push_str(line);
        input.push('\n');
    }
    input
}

/// The JSON-RPC messages `httptool serve` wrote, one a line of stdout, sorted by id
/// (answers to concurrent calls come in any order).
pub fn mcp_answers(output: &Output) -> Vec<Json> {
    let mut answers: Vec<Json> = stdout(output)
        .lines()
        .map(|line| json::parse(line).expect("a JSON-RPC message a line"))
        .collect();
    answers.sort_by_key(|a| a["id"].as_i64());
    answers
}

/// A directory of one test's own, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(test: &str) -> TempDir {
        let name = format!("httptool-cli-{}-{}", std::process::id(), test);
        let dir = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    /// Writes a file and returns its path as text.
    pub fn file(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write the file");
        path.to_string_lossy().into_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
