//! The one error type of the curl module: reading a command, converting it to a plugin, and
//! writing a plugin's request back as a command.

use std::fmt;

use crate::json;
use crate::plugin;
use crate::quote::pieces;
use crate::tool;

/// What went wrong and the details its message names; private so the wording and the data
/// can change without breaking callers, who match on [`ErrorKind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// [`ErrorKind::Empty`].
    Empty,
    /// [`ErrorKind::UnterminatedQuote`].
    UnterminatedQuote {
        /// Which kind of quote.
        quote: Quote,
        /// Byte offset of the opening quote.
        offset: usize,
        /// Index of the argument the quote belongs to.
        arg_index: usize,
    },
    /// [`ErrorKind::NulByte`].
    NulByte {
        /// Byte offset of the NUL byte or of the escape.
        offset: usize,
        /// Index of the argument it belongs to.
        arg_index: usize,
    },
    /// [`ErrorKind::InvalidEscape`].
    InvalidEscape {
        /// Byte offset of the backslash.
        offset: usize,
        /// Index of the argument it belongs to.
        arg_index: usize,
    },
    /// [`ErrorKind::UnsupportedShell`].
    UnsupportedShell {
        /// What was found, such as "a pipe `|`".
        found: &'static str,
        /// What to do about it.
        hint: &'static str,
        /// Byte offset where it starts.
        offset: usize,
        /// Index of the argument it belongs to.
        arg_index: usize,
    },
    /// [`ErrorKind::Variable`].
    Variable {
        /// The variable's name as written (at most 64 characters).
        name: String,
        /// Byte offset of the `$`.
        offset: usize,
        /// Index of the argument it belongs to.
        arg_index: usize,
    },
    /// [`ErrorKind::SecondCommand`].
    SecondCommand {
        /// Byte offset where the second command starts.
        offset: usize,
        /// Its line number, counting from 1.
        line: usize,
    },
    /// [`ErrorKind::NotCurl`].
    NotCurl,
    /// [`ErrorKind::InvalidUtf8`].
    InvalidUtf8 {
        /// Index of the argument.
        arg_index: usize,
    },
    /// [`ErrorKind::VariablePlace`].
    VariablePlace {
        /// The variable's name.
        name: String,
        /// Index of the argument it is in.
        arg_index: usize,
        /// Where it is, and what to write instead.
        reason: &'static str,
    },
    /// [`ErrorKind::AmbiguousOption`].
    AmbiguousOption {
        /// The option as written (shortened to 64 characters).
        option: String,
        /// Index of the argument.
        arg_index: usize,
        /// Every option that starts with it, with their `--`.
        candidates: Vec<String>,
    },
    /// [`ErrorKind::UnknownOption`].
    UnknownOption {
        /// The option as written, without any `=value` (shortened when long).
        option: String,
        /// Index of the argument.
        arg_index: usize,
        /// The known option closest to what was written (a typo's fix), if one is close.
        suggestion: Option<&'static str>,
    },
    /// [`ErrorKind::MissingValue`].
    MissingValue {
        /// The option, such as `-H/--header`.
        option: String,
        /// Index of the argument.
        arg_index: usize,
    },
    /// [`ErrorKind::UnexpectedValue`].
    UnexpectedValue {
        /// The option.
        option: String,
        /// Index of the argument.
        arg_index: usize,
    },
    /// [`ErrorKind::NotBoolean`].
    NotBoolean {
        /// The option.
        option: String,
        /// Index of the argument.
        arg_index: usize,
    },
    /// [`ErrorKind::InvalidValue`].
    InvalidValue {
        /// The option, or `URL` for a URL argument.
        option: String,
        /// Index of the argument holding the option.
        arg_index: usize,
        /// What the value should look like.
        expected: &'static str,
    },
    /// [`ErrorKind::Conflict`].
    Conflict {
        /// The later option.
        option: String,
        /// Its argument index.
        arg_index: usize,
        /// The earlier option.
        previous: String,
        /// Its argument index.
        previous_index: usize,
    },
    /// [`ErrorKind::Unsupported`].
    Unsupported {
        /// The option.
        option: String,
        /// Index of the argument.
        arg_index: usize,
        /// Why, and what to write instead.
        reason: &'static str,
    },
    /// [`ErrorKind::NoUrl`].
    NoUrl,
    /// [`ErrorKind::SeveralUrls`].
    SeveralUrls {
        /// Index of the argument holding the first URL.
        first_index: usize,
        /// Index of the argument holding the URL over the limit.
        second_index: usize,
    },
    /// [`ErrorKind::UnsupportedScheme`].
    UnsupportedScheme {
        /// The scheme, lowercased.
        scheme: String,
        /// Index of the argument holding the URL.
        arg_index: usize,
    },
    /// [`ErrorKind::InvalidUrl`].
    InvalidUrl {
        /// Index of the argument holding the URL.
        arg_index: usize,
        /// What is wrong, from [`url::Error`](crate::url::Error) (it never repeats the URL).
        reason: String,
    },
    /// [`ErrorKind::UnsupportedMethod`].
    UnsupportedMethod {
        /// The method as written (at most 32 characters).
        method: String,
    },
    /// [`ErrorKind::UnsupportedBody`].
    UnsupportedBody {
        /// Index of the argument holding the (first) data option.
        arg_index: usize,
        /// Why, and what to do instead.
        reason: String,
    },
    /// [`ErrorKind::InvalidJson`].
    InvalidJson {
        /// Index of the argument holding the (first) data option.
        arg_index: usize,
        /// The JSON error: what was expected, and the line and column in the data.
        error: json::Error,
    },
    /// [`ErrorKind::TooManyParams`].
    TooManyParams {
        /// How many the command has.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// [`ErrorKind::InvalidName`].
    InvalidName {
        /// `"tool"` or `"plugin"`.
        what: &'static str,
        /// Why, from [`tool::validate_name`].
        reason: String,
    },
    /// [`ErrorKind::Plugin`].
    Plugin(plugin::Error),
    /// [`ErrorKind::UnknownEndpoint`].
    UnknownEndpoint {
        /// The name asked for (at most 64 characters).
        name: String,
        /// The plugin's endpoint names, in order.
        available: Vec<String>,
    },
    /// [`ErrorKind::EndpointRequired`].
    EndpointRequired {
        /// The plugin's endpoint names, in order.
        available: Vec<String>,
    },
    /// [`ErrorKind::Call`].
    Call {
        /// The kind of the tool error.
        kind: tool::ErrorKind,
        /// The message.
        message: String,
    },
    /// [`ErrorKind::Request`].
    Request {
        /// Why, from [`http::Error`](crate::http::Error) (never a header value or a query).
        reason: String,
    },
    /// [`ErrorKind::Unrepresentable`].
    Unrepresentable {
        /// What it is.
        what: &'static str,
    },
}

/// The kinds of [`Error`], for callers that match without the details.
///
/// `#[non_exhaustive]`: new kinds will be added as failures are told apart more finely; match with
/// a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text holds no command: only blanks and comments.
    Empty,
    /// A quote was opened and never closed.
    UnterminatedQuote,
    /// A NUL byte, written literally or produced by an escape such as `$'\0'`.
    NulByte,
    /// A `\u` or `\U` escape in `$'...'` that names no Unicode scalar value.
    InvalidEscape,
    /// Shell syntax beyond one simple command: pipes, lists, redirections, substitutions,
    /// globs, brace and tilde expansion, other shells' line continuations.
    UnsupportedShell,
    /// A parameter expansion other than a plain `$NAME` or `${NAME}`: a positional or
    /// special parameter (`$1`, `$$`), or one bash would compute (`${NAME:-x}`, `${#NAME}`).
    Variable,
    /// A second command on a later line: the newline before it was not escaped.
    SecondCommand,
    /// The command does not start with `curl`, `curl.exe` or a path to one of them.
    NotCurl,
    /// An argument that must be text (an option, a URL, a header) is not valid UTF-8.
    InvalidUtf8,
    /// A shell variable (`$NAME`) where a plugin file cannot hold one (the URL's host or
    /// path, the method, an option's number), or written so that it cannot be told from
    /// literal text.
    VariablePlace,
    /// A long option abbreviated to a prefix that several options share.
    AmbiguousOption,
    /// An option curl does not have.
    UnknownOption,
    /// An option that takes a value ends the command.
    MissingValue,
    /// `--option=value` for an option that takes no value.
    UnexpectedValue,
    /// `--no-option` for an option that is not a switch.
    NotBoolean,
    /// An option's value does not have the form the option needs.
    InvalidValue,
    /// Two options that curl refuses to combine (`-d` with `-F`, `-I` with `-d`, ...).
    Conflict,
    /// A curl option httptool does not carry out, and cannot leave out without changing
    /// the request.
    Unsupported,
    /// The command names no URL.
    NoUrl,
    /// The command names more URLs than httptool makes endpoints of (64).
    SeveralUrls,
    /// The URL's scheme (written, or guessed from the host as curl does) is neither http
    /// nor https.
    UnsupportedScheme,
    /// Converting: httptool's URL parser refuses the URL (whitespace, a non-ASCII host, a
    /// bad port, ...). curl refuses most of these too.
    InvalidUrl,
    /// Converting: the method is not one httptool sends (GET, HEAD, POST, PUT, PATCH,
    /// DELETE, OPTIONS).
    UnsupportedMethod,
    /// Converting: the request body cannot become parameters (a plain-text or XML body, a
    /// JSON body on GET, a body from a file that is not JSON, ...).
    UnsupportedBody,
    /// Converting: data sent as JSON is not valid JSON, or nests deeper than
    /// [`json::DEFAULT_MAX_DEPTH`].
    InvalidJson,
    /// Converting: the command has more parameters and headers than
    /// [`ImportOptions::max_params`](super::ImportOptions::max_params) allows.
    TooManyParams,
    /// Converting: a tool or plugin name given in the options is not valid for every
    /// provider.
    InvalidName,
    /// Converting: the plugin made from the command does not pass the plugin's own checks.
    Plugin,
    /// Exporting: the plugin has no endpoint with this name.
    UnknownEndpoint,
    /// Exporting: the plugin has several endpoints and none was named.
    EndpointRequired,
    /// Exporting: the arguments (or the call context) do not make a request; the message is
    /// the one a model would read.
    Call,
    /// Exporting: the request would not be sent (a request target over the client's limit,
    /// a header the client writes itself).
    Request,
    /// Exporting: the request holds something no command-line argument can carry (a NUL
    /// byte in the body, a multipart field name with `=`).
    Unrepresentable,
}

/// Why a curl command could not be read or converted, or a plugin's request not written as
/// a command, with where it happened.
///
/// Positions are byte offsets into the text given to [`parse`](super::parse) (for shell
/// syntax) and argument indexes (for curl options), counting the program name `curl` as
/// argument 0, the way `argv` does. Messages name options, positions, shell syntax,
/// parameters and tools, never a header value, a URL, a body or a credential. Match on
/// [`kind`](Error::kind); the message is for people.
///
/// # Examples
///
/// ```
/// use httptool::curl::{self, ErrorKind};
///
/// let err = curl::parse("curl -X").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::MissingValue);
/// assert_eq!((err.arg_index(), err.offset()), (Some(1), None));
/// assert_eq!(err.to_string(), "-X/--request at argument 1 needs a value");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub(super) reason: Reason,
}

impl From<Reason> for Error {
    fn from(reason: Reason) -> Error {
        Error { reason }
    }
}

/// The three quoting forms that can be left open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Quote {
    /// `'...'`
    Single,
    /// `"..."` (and `$"..."`)
    Double,
    /// `$'...'`
    AnsiC,
}

impl Error {
    /// The kind of error.
    pub fn kind(&self) -> ErrorKind {
        match self.reason {
            Reason::Empty => ErrorKind::Empty,
            Reason::UnterminatedQuote { .. } => ErrorKind::UnterminatedQuote,
            Reason::NulByte { .. } => ErrorKind::NulByte,
            Reason::InvalidEscape { .. } => ErrorKind::InvalidEscape,
            Reason::UnsupportedShell { .. } => ErrorKind::UnsupportedShell,
            Reason::Variable { .. } => ErrorKind::Variable,
            Reason::SecondCommand { .. } => ErrorKind::SecondCommand,
            Reason::NotCurl => ErrorKind::NotCurl,
            Reason::InvalidUtf8 { .. } => ErrorKind::InvalidUtf8,
            Reason::VariablePlace { .. } => ErrorKind::VariablePlace,
            Reason::AmbiguousOption { .. } => ErrorKind::AmbiguousOption,
            Reason::UnknownOption { .. } => ErrorKind::UnknownOption,
            Reason::MissingValue { .. } => ErrorKind::MissingValue,
            Reason::UnexpectedValue { .. } => ErrorKind::UnexpectedValue,
            Reason::NotBoolean { .. } => ErrorKind::NotBoolean,
            Reason::InvalidValue { .. } => ErrorKind::InvalidValue,
            Reason::Conflict { .. } => ErrorKind::Conflict,
            Reason::Unsupported { .. } => ErrorKind::Unsupported,
            Reason::NoUrl => ErrorKind::NoUrl,
            Reason::SeveralUrls { .. } => ErrorKind::SeveralUrls,
            Reason::UnsupportedScheme { .. } => ErrorKind::UnsupportedScheme,
            Reason::InvalidUrl { .. } => ErrorKind::InvalidUrl,
            Reason::UnsupportedMethod { .. } => ErrorKind::UnsupportedMethod,
            Reason::UnsupportedBody { .. } => ErrorKind::UnsupportedBody,
            Reason::InvalidJson { .. } => ErrorKind::InvalidJson,
            Reason::TooManyParams { .. } => ErrorKind::TooManyParams,
            Reason::InvalidName { .. } => ErrorKind::InvalidName,
            Reason::Plugin(_) => ErrorKind::Plugin,
            Reason::UnknownEndpoint { .. } => ErrorKind::UnknownEndpoint,
            Reason::EndpointRequired { .. } => ErrorKind::EndpointRequired,
            Reason::Call { .. } => ErrorKind::Call,
            Reason::Request { .. } => ErrorKind::Request,
            Reason::Unrepresentable { .. } => ErrorKind::Unrepresentable,
        }
    }

    /// The index of the argument at fault (`curl` itself is argument 0), when there is one.
    ///
    /// For [`ErrorKind::Conflict`] and [`ErrorKind::SeveralUrls`] this is the later argument.
    pub fn arg_index(&self) -> Option<usize> {
        match self.reason {
            Reason::UnterminatedQuote { arg_index, .. }
            | Reason::NulByte { arg_index, .. }
            | Reason::InvalidEscape { arg_index, .. }
            | Reason::UnsupportedShell { arg_index, .. }
            | Reason::Variable { arg_index, .. }
            | Reason::InvalidUtf8 { arg_index }
            | Reason::VariablePlace { arg_index, .. }
            | Reason::AmbiguousOption { arg_index, .. }
            | Reason::UnknownOption { arg_index, .. }
            | Reason::MissingValue { arg_index, .. }
            | Reason::UnexpectedValue { arg_index, .. }
            | Reason::NotBoolean { arg_index, .. }
            | Reason::InvalidValue { arg_index, .. }
            | Reason::Conflict { arg_index, .. }
            | Reason::Unsupported { arg_index, .. }
            | Reason::UnsupportedScheme { arg_index, .. }
            | Reason::InvalidUrl { arg_index, .. }
            | Reason::UnsupportedBody { arg_index, .. }
            | Reason::InvalidJson { arg_index, .. } => Some(arg_index),
            Reason::SeveralUrls { second_index, .. } => Some(second_index),
            _ => None,
        }
    }

    /// The byte offset in the parsed text, for errors found while reading shell syntax.
    pub fn offset(&self) -> Option<usize> {
        match self.reason {
            Reason::UnterminatedQuote { offset, .. }
            | Reason::NulByte { offset, .. }
            | Reason::InvalidEscape { offset, .. }
            | Reason::UnsupportedShell { offset, .. }
            | Reason::Variable { offset, .. }
            | Reason::SecondCommand { offset, .. } => Some(offset),
            _ => None,
        }
    }
}

impl Quote {
    /// The quote's name in messages.
    fn name(self) -> &'static str {
        match self {
            Quote::Single => "single quote",
            Quote::Double => "double quote",
            Quote::AnsiC => "$'...' string",
        }
    }
}

/// Writes `head`, ` at byte OFFSET (argument INDEX)`, then `tail`: where a shell-syntax error
/// is. The shared shapes keep `Display` from compiling a `write!` per arm (build cost, see
/// `design::performance`).
fn at_byte(
    f: &mut fmt::Formatter<'_>,
    head: &[&str],
    offset: usize,
    arg_index: usize,
    tail: &[&str],
) -> fmt::Result {
    pieces(f, head)?;
    write!(f, " at byte {} (argument {})", offset, arg_index)?;
    pieces(f, tail)
}

/// Writes `head`, `OPTION at argument INDEX`, then `tail`: which option an error is about.
fn option_at(
    f: &mut fmt::Formatter<'_>,
    head: &str,
    option: &str,
    arg_index: usize,
    tail: &[&str],
) -> fmt::Result {
    pieces(f, &[head, option])?;
    write!(f, " at argument {}", arg_index)?;
    pieces(f, tail)
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.reason {
            Reason::Empty => f.write_str(
                "the command is empty; give a curl command such as `curl https://example.com`",
            ),
            Reason::UnterminatedQuote {
                quote,
                offset,
                arg_index,
            } => at_byte(
                f,
                &["unterminated ", quote.name(), " opened"],
                *offset,
                *arg_index,
                &["; close it"],
            ),
            Reason::NulByte { offset, arg_index } => at_byte(
                f,
                &["a NUL byte"],
                *offset,
                *arg_index,
                &[": a command-line argument cannot hold one"],
            ),
            Reason::InvalidEscape { offset, arg_index } => at_byte(
                f,
                &["invalid escape"],
                *offset,
                *arg_index,
                &[": \\u and \\U must name a unicode scalar value"],
            ),
            Reason::UnsupportedShell {
                found,
                hint,
                offset,
                arg_index,
            } => at_byte(
                f,
                &["unsupported shell syntax"],
                *offset,
                *arg_index,
                &[": ", found, "; ", hint],
            ),
            Reason::Variable {
                name,
                offset,
                arg_index,
            } => at_byte(
                f,
                &["shell expansion $", name],
                *offset,
                *arg_index,
                &[
                    " is not read: only plain $NAME and ${NAME} variables are; write its value \
                   instead, or single-quote it to send it as written",
                ],
            ),
            Reason::VariablePlace {
                name,
                arg_index,
                reason,
            } => write!(
                f,
                "shell variable ${} (argument {}) cannot be carried over: {}",
                name, arg_index, reason
            ),
            Reason::AmbiguousOption {
                option,
                arg_index,
                candidates,
            } => write!(
                f,
                "ambiguous option {} (argument {}): it may be {}; write more of its name",
                option,
                arg_index,
                candidates.join(", ")
            ),
            Reason::SecondCommand { offset, line } => write!(
                f,
                "a second command starts on line {} (byte {}); httptool reads one curl \
                 command: end each continued line with a backslash",
                line, offset
            ),
            Reason::NotCurl => f.write_str(
                "the command does not start with `curl` (or a path to curl or curl.exe)",
            ),
            Reason::InvalidUtf8 { arg_index } => write!(
                f,
                "argument {} is not valid UTF-8; only data and form values may hold other bytes",
                arg_index
            ),
            Reason::UnknownOption {
                option,
                arg_index,
                suggestion,
            } => match suggestion {
                Some(name) => option_at(
                    f,
                    "unknown curl option ",
                    option,
                    *arg_index,
                    &["; did you mean --", name, "?"],
                ),
                None => option_at(f, "unknown curl option ", option, *arg_index, &[]),
            },
            Reason::MissingValue { option, arg_index } => {
                option_at(f, "", option, *arg_index, &[" needs a value"])
            }
            Reason::UnexpectedValue { option, arg_index } => option_at(
                f,
                "",
                option,
                *arg_index,
                &[" takes no value; remove the `=...`"],
            ),
            Reason::NotBoolean { option, arg_index } => option_at(
                f,
                "",
                option,
                *arg_index,
                &[" is not a switch and cannot be turned off with --no-"],
            ),
            Reason::InvalidValue {
                option,
                arg_index,
                expected,
            } => option_at(
                f,
                "invalid value for ",
                option,
                *arg_index,
                &[": expected ", expected],
            ),
            Reason::Conflict {
                option,
                arg_index,
                previous,
                previous_index,
            } => {
                option_at(f, "", option, *arg_index, &[" cannot be combined with "])?;
                option_at(
                    f,
                    "",
                    previous,
                    *previous_index,
                    &[": curl sends one kind of request body or method per command"],
                )
            }
            Reason::Unsupported {
                option,
                arg_index,
                reason,
            } => option_at(f, "", option, *arg_index, &[" is not supported: ", reason]),
            Reason::NoUrl => f.write_str("the command has no URL; add the URL to request"),
            Reason::SeveralUrls {
                first_index,
                second_index,
            } => write!(
                f,
                "too many URLs (arguments {} to {}): httptool makes an endpoint of each of \
                 at most {}; split the command",
                first_index,
                second_index,
                crate::curl::reader::MAX_URLS
            ),
            Reason::UnsupportedScheme { scheme, arg_index } => write!(
                f,
                "unsupported URL scheme `{}` at argument {}: httptool sends http and https only",
                scheme, arg_index
            ),
            Reason::InvalidUrl { arg_index, reason } => write!(
                f,
                "the URL at argument {} cannot be used: {}",
                arg_index, reason
            ),
            Reason::UnsupportedMethod { method } => pieces(
                f,
                &[
                    "method `",
                    method,
                    "` is not supported: a plugin endpoint's method is a token of at most 32 \
                     characters",
                ],
            ),
            Reason::UnsupportedBody { arg_index, reason } => write!(
                f,
                "the request body (argument {}) cannot become parameters: {}",
                arg_index, reason
            ),
            Reason::InvalidJson { arg_index, error } => write!(
                f,
                "the data at argument {} is sent as JSON but is not valid JSON ({}); fix the \
                 data, or send it with another Content-Type",
                arg_index, error
            ),
            Reason::TooManyParams { count, max } => write!(
                f,
                "the command has {} parameters and headers, over the limit of {}; raise \
                 ImportOptions::max_params or trim the command",
                count, max
            ),
            Reason::InvalidName { what, reason } => {
                pieces(f, &["the ", what, " name given cannot be used: ", reason])
            }
            Reason::Plugin(err) => write!(
                f,
                "the plugin made from the command does not pass the plugin checks: {}",
                err
            ),
            Reason::UnknownEndpoint { name, available } => f.write_str(
                &tool::unknown_name_message("tool", name, available.iter().map(String::as_str)),
            ),
            Reason::EndpointRequired { available } => write!(
                f,
                "the plugin has {} tools; name the one to export: {}",
                available.len(),
                available.join(", ")
            ),
            Reason::Call { kind, message } => pieces(
                f,
                &["the call cannot be built (", kind.as_str(), "): ", message],
            ),
            Reason::Request { reason } => pieces(f, &["the request would not be sent: ", reason]),
            Reason::Unrepresentable { what } => pieces(
                f,
                &["the request cannot be written as a curl command: ", what],
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.reason {
            Reason::Plugin(err) => Some(err),
            Reason::InvalidJson { error, .. } => Some(error),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plugin checks refuse nothing the converter makes (the conversion tests say so),
    /// so this message is checked here.
    #[test]
    fn plugin_error_message() {
        let err = match crate::plugin::HttpPlugin::builder("p", "ftp://x").build() {
            Ok(_) => panic!("an ftp base url was accepted"),
            Err(err) => Error::from(Reason::Plugin(err)),
        };
        assert_eq!(err.kind(), ErrorKind::Plugin);
        assert_eq!(err.arg_index(), None);
        assert!(std::error::Error::source(&err).is_some());
        assert!(
            err.to_string().starts_with(
                "the plugin made from the command does not pass the plugin checks: base_url: "
            ),
            "{}",
            err
        );
    }

    #[test]
    fn conversion_errors_have_no_position_but_their_argument() {
        let body = Error::from(Reason::UnsupportedBody {
            arg_index: 4,
            reason: String::new(),
        });
        assert_eq!((body.arg_index(), body.offset()), (Some(4), None));
        let count = Error::from(Reason::TooManyParams { count: 3, max: 2 });
        assert_eq!((count.arg_index(), count.offset()), (None, None));
    }
}
