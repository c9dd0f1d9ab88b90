//! curl commands to plugins and back.
//!
//! [`parse`] reads a curl command line the way bash and then curl would, and returns a
//! [`CurlCommand`]: what the command asks for, with nothing acted on. No file is opened, no
//! variable or environment is read, nothing is sent.
//!
//! ```
//! let cmd = httptool::curl::parse(
//!     "curl -sS https://api.example.com/v1/tickets \\\n  -H 'Authorization: Bearer t0ken' \\\n  --json '{\"title\": \"Printer on fire\"}'",
//! )?;
//! assert_eq!(cmd.method(), "POST");
//! assert_eq!(cmd.url(), "https://api.example.com/v1/tickets");
//! assert_eq!(cmd.header("content-type"), Some("application/json"));
//! assert_eq!(cmd.data()[0].text(), Some("{\"title\": \"Printer on fire\"}"));
//! # Ok::<(), httptool::curl::Error>(())
//! ```
//!
//! # How the command line is read
//!
//! **The shell.** One simple bash command: blanks separate words; single quotes, double
//! quotes (with `\\ \" \$ \`` and backslash-newline as their only escapes), `$'...'` ANSI-C
//! strings, backslash escapes and backslash-newline continuations (also CR LF) read as in
//! bash; `#` at the start of a word begins a comment; a leading `$ ` prompt is dropped. The
//! program must be `curl`, `curl.exe` or a path ending in one of them. What bash would
//! expand or run is an error naming what was found and its byte offset, never a guess:
//! `$VAR`, `${VAR}` and `$1` outside single quotes ([`Error::Variable`], naming it), `$(...)`,
//! backticks, pipes, `;`, `&&`, `&`, redirections, `*` globs, `{a,b}` brace expansion, a
//! leading `~`, and a second command on a later line. Unquoted `?` and `[` are kept: bash
//! leaves a pattern that matches no file as written. Windows cmd `^` and PowerShell
//! `` ` `` continuations are refused with a hint to copy the bash form instead. NUL bytes
//! are refused, since no argument can hold one. `$'\xff'` makes an argument that is not
//! UTF-8: that is kept in data and form values (curl sends such bytes as they are) and is
//! an [`Error::InvalidUtf8`] anywhere else (options, URLs, headers, names, paths).
//!
//! **curl's options.** As curl 8 reads them: short options bundled (`-sSL`) with a value
//! attached (`-XPOST`) or in the next argument; long options exactly by name (curl 8.3
//! dropped prefix matching; a unique prefix earns a "did you mean"); `--no-NAME` for
//! switches; repeated options (the last wins for single values, lists grow); the URL
//! anywhere, or with `--url`; `--` ends the options. `--name=value` is accepted too, though
//! curl itself rejects it, with a note. A URL without a scheme gets `http://` (or the
//! `--proto-default` one, or the one curl guesses from a `ftp.`-style host); schemes other
//! than http and https are refused. Only one URL is allowed: one command, one endpoint.
//!
//! **What is kept, noted or refused.** Every option curl has is known. Those that shape the
//! request are kept (see [`CurlCommand`]). Those that only change what curl prints (`-s`,
//! `-S`, `-v`, `-i`, `-#`, `-f`, `--http1.1`, ...) are accepted silently. Every other one
//! httptool does not carry over leaves a [`Note`]: output files (`-o`, `-O`, `-D`, `-c`),
//! connection overrides (`--resolve`, `--connect-to`, `--unix-socket`, `--interface`, ...),
//! TLS files and settings (`--cacert`, `--cert`, `--key`, ...), protocol versions
//! (`--http2`, ...), retries, `-w`, and the file references below. Options whose absence
//! would change the request are refused with [`Error::Unsupported`] saying what to write
//! instead: `-K`/`--config`, `--next`, `--digest`/`--ntlm`/`--negotiate`/`--anyauth`,
//! `--aws-sigv4`, `-r`, `-C`, `-z`, `--request-target`, `--url-query`, `--variable`. An
//! unknown option is an [`Error::UnknownOption`]: it may take a value, so skipping it
//! could misread everything after it.
//!
//! **Files.** Nothing is read from disk. `-d @file`, `--data-binary @file`, `--json @file`,
//! `--data-urlencode name@file` and `-T file` become [`DataSource::File`] references,
//! `-F name=@file` and `-F name=<file` become [`FormValue::File`] and
//! [`FormValue::FileContent`], each with a note; `-H @file` and `-b file` (no `=`) are left
//! out with a note.
//!
//! # Security
//!
//! The text is untrusted. Reading it takes time linear in its length (no recursion, no
//! backtracking) and never panics. Error messages and notes name options, positions and
//! shell syntax, never a value. `Debug` of a [`CurlCommand`] masks credentials.

mod command;
mod error;
mod form;
mod infer;
mod multipart;
mod options;
mod quote;
mod reader;
mod secret;
mod sent;
mod shell;
mod to_curl;
mod to_plugin;

pub use command::{
    Auth, CurlCommand, DataKind, DataPart, DataSource, FormPart, FormValue, Header, Note,
};
pub use error::{Error, ErrorKind, Quote};
pub use to_curl::{to_curl, to_curl_call, to_curl_with, ExportOptions};
pub use to_plugin::{
    to_plugin, to_plugin_with, Import, ImportOptions, Variable, DEFAULT_MAX_PARAMS,
};

/// Reads a curl command line as bash and curl would, without acting on it.
///
/// `command` is what one would paste into a terminal: `curl` (or `curl.exe`, or a path to
/// either) and its arguments, possibly over several lines joined by backslashes, possibly
/// after a `$ ` prompt. See the [module docs](self) for what is read and how.
///
/// # Errors
///
/// Shell syntax beyond one simple command, quotes left open, NUL bytes, a program other than
/// curl, an unknown option, an option httptool cannot leave out, a value of the wrong form,
/// options curl refuses to combine, no URL or more than one, and a scheme other than http
/// or https: each is an [`Error`] with its byte offset or argument index.
///
/// # Security
///
/// `command` may come from anywhere. Nothing it names is opened, expanded, resolved or
/// run; the time taken is linear in its length.
///
/// # Examples
///
/// ```
/// use httptool::curl::{self, Auth, ErrorKind};
///
/// let cmd = curl::parse("curl -u api_key: https://api.example.com/v1/charges -d amount=2000")?;
/// assert_eq!(cmd.method(), "POST");
/// assert!(matches!(cmd.auth(), Some(Auth::Basic { user, .. }) if user == "api_key"));
///
/// let err = curl::parse("curl https://example.com | jq .").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::UnsupportedShell);
/// assert_eq!(err.offset(), Some(25));
/// # Ok::<(), curl::Error>(())
/// ```
pub fn parse(command: &str) -> Result<CurlCommand, Error> {
    let words = shell::split(command)?;
    reader::read(words)
}

/// Reads curl arguments that are already split, as a program receives them in `argv`:
/// `args[0]` is the program name (`curl`).
///
/// Useful when no shell is involved, such as a command line passed on after `--`. Each
/// argument is taken as is: no quote or escape is read.
///
/// # Errors
///
/// The option errors of [`parse`]; [`Error::Empty`] when `args` is empty.
///
/// # Examples
///
/// ```
/// let cmd = httptool::curl::parse_args(&["curl", "-XPUT", "example.com/a b"])?;
/// assert_eq!(cmd.method(), "PUT");
/// assert_eq!(cmd.url(), "http://example.com/a b");
/// # Ok::<(), httptool::curl::Error>(())
/// ```
pub fn parse_args<S: AsRef<[u8]>>(args: &[S]) -> Result<CurlCommand, Error> {
    reader::read_args(args)
}
