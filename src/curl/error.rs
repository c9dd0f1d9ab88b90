//! The one error type of the curl module: reading a command, converting it to a plugin, and
//! writing a plugin's request back as a command.

use std::fmt;

use crate::json;
use crate::plugin;
use crate::quote::pieces;
use crate::tool;

/// Why a curl command could not be read or converted, or a plugin's request not written as
/// a command, with where it happened.
///
/// Positions are byte offsets into the text given to [`parse`](super::parse) (for shell
/// syntax) and argument indexes (for curl options), counting the program name `curl` as
/// argument 0, the way `argv` does. Messages name options, positions, shell syntax,
/// parameters and tools, never a header value, a URL, a body or a credential.
///
/// `#[non_exhaustive]`: new variants will be added as the reader and the converters tell more
/// problems apart.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The text holds no command: only blanks and comments.
    Empty,
    /// A quote was opened and never closed.
    UnterminatedQuote {
        /// Which kind of quote.
        quote: Quote,
        /// Byte offset of the opening quote.
        offset: usize,
        /// Index of the argument the quote belongs to.
        arg_index: usize,
    },
    /// A NUL byte, written literally or produced by an escape such as `$'\0'`.
    NulByte {
        /// Byte offset of the NUL byte or of the escape.
        offset: usize,
        /// Index of the argument it belongs to.
        arg_index: usize,
    },
    /// A `\u` or `\U` escape in `$'...'` that names no Unicode scalar value.
    InvalidEscape {
        /// Byte offset of the backslash.
        offset: usize,
        /// Index of the argument it belongs to.
        arg_index: usize,
    },
    /// Shell syntax beyond one simple command: pipes, lists, redirections, substitutions,
    /// globs, brace and tilde expansion, other shells' line continuations.
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
    /// A parameter expansion other than a plain `$NAME` or `${NAME}`: a positional or
    /// special parameter (`$1`, `$$`), or one bash would compute (`${NAME:-x}`, `${#NAME}`).
    Variable {
        /// The variable's name as written (at most 64 characters).
        name: String,
        /// Byte offset of the `$`.
        offset: usize,
        /// Index of the argument it belongs to.
        arg_index: usize,
    },
    /// A second command on a later line: the newline before it was not escaped.
    SecondCommand {
        /// Byte offset where the second command starts.
        offset: usize,
        /// Its line number, counting from 1.
        line: usize,
    },
    /// The command does not start with `curl`, `curl.exe` or a path to one of them.
    NotCurl,
    /// An argument that must be text (an option, a URL, a header) is not valid UTF-8.
    InvalidUtf8 {
        /// Index of the argument.
        arg_index: usize,
    },
    /// A shell variable (`$NAME`) where a plugin file cannot hold one (the URL's host or
    /// path, the method, an option's number), or written so that it cannot be told from
    /// literal text.
    VariablePlace {
        /// The variable's name.
        name: String,
        /// Index of the argument it is in.
        arg_index: usize,
        /// Where it is, and what to write instead.
        reason: &'static str,
    },
    /// A long option abbreviated to a prefix that several options share.
    AmbiguousOption {
        /// The option as written (shortened to 64 characters).
        option: String,
        /// Index of the argument.
        arg_index: usize,
        /// Every option that starts with it, with their `--`.
        candidates: Vec<String>,
    },
    /// An option curl does not have.
    UnknownOption {
        /// The option as written, without any `=value` (shortened when long).
        option: String,
        /// Index of the argument.
        arg_index: usize,
        /// The known option closest to what was written (a typo's fix), if one is close.
        suggestion: Option<&'static str>,
    },
    /// An option that takes a value ends the command.
    MissingValue {
        /// The option, such as `-H/--header`.
        option: String,
        /// Index of the argument.
        arg_index: usize,
    },
    /// `--option=value` for an option that takes no value.
    UnexpectedValue {
        /// The option.
        option: String,
        /// Index of the argument.
        arg_index: usize,
    },
    /// `--no-option` for an option that is not a switch.
    NotBoolean {
        /// The option.
        option: String,
        /// Index of the argument.
        arg_index: usize,
    },
    /// An option's value does not have the form the option needs.
    InvalidValue {
        /// The option, or `URL` for a URL argument.
        option: String,
        /// Index of the argument holding the option.
        arg_index: usize,
        /// What the value should look like.
        expected: &'static str,
    },
    /// Two options that curl refuses to combine (`-d` with `-F`, `-I` with `-d`, ...).
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
    /// A curl option httptool does not carry out, and cannot leave out without changing
    /// the request.
    Unsupported {
        /// The option.
        option: String,
        /// Index of the argument.
        arg_index: usize,
        /// Why, and what to write instead.
        reason: &'static str,
    },
    /// The command names no URL.
    NoUrl,
    /// The command names more URLs than httptool makes endpoints of (64).
    SeveralUrls {
        /// Index of the argument holding the first URL.
        first_index: usize,
        /// Index of the argument holding the URL over the limit.
        second_index: usize,
    },
    /// The URL's scheme (written, or guessed from the host as curl does) is neither http
    /// nor https.
    UnsupportedScheme {
        /// The scheme, lowercased.
        scheme: String,
        /// Index of the argument holding the URL.
        arg_index: usize,
    },
    /// Converting: httptool's URL parser refuses the URL (whitespace, a non-ASCII host, a
    /// bad port, ...). curl refuses most of these too.
    InvalidUrl {
        /// Index of the argument holding the URL.
        arg_index: usize,
        /// What is wrong, from [`url::Error`](crate::url::Error) (it never repeats the URL).
        reason: String,
    },
    /// Converting: the method is not one httptool sends (GET, HEAD, POST, PUT, PATCH,
    /// DELETE, OPTIONS).
    UnsupportedMethod {
        /// The method as written (at most 32 characters).
        method: String,
    },
    /// Converting: the request body cannot become parameters (a plain-text or XML body, a
    /// JSON body on GET, a body from a file that is not JSON, ...).
    UnsupportedBody {
        /// Index of the argument holding the (first) data option.
        arg_index: usize,
        /// Why, and what to do instead.
        reason: String,
    },
    /// Converting: data sent as JSON is not valid JSON, or nests deeper than
    /// [`json::DEFAULT_MAX_DEPTH`].
    InvalidJson {
        /// Index of the argument holding the (first) data option.
        arg_index: usize,
        /// The JSON error: what was expected, and the line and column in the data.
        error: json::Error,
    },
    /// Converting: the command has more parameters and headers than
    /// [`ImportOptions::max_params`](super::ImportOptions::max_params) allows.
    TooManyParams {
        /// How many the command has.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// Converting: a tool or plugin name given in the options is not valid for every
    /// provider.
    InvalidName {
        /// `"tool"` or `"plugin"`.
        what: &'static str,
        /// Why, from [`tool::validate_name`].
        reason: String,
    },
    /// Converting: the plugin made from the command does not pass the plugin's own checks.
    Plugin(plugin::Error),
    /// Exporting: the plugin has no endpoint with this name.
    UnknownEndpoint {
        /// The name asked for (at most 64 characters).
        name: String,
        /// The plugin's endpoint names, in order.
        available: Vec<String>,
    },
    /// Exporting: the plugin has several endpoints and none was named.
    EndpointRequired {
        /// The plugin's endpoint names, in order.
        available: Vec<String>,
    },
    /// Exporting: the arguments (or the call context) do not make a request; the message is
    /// the one a model would read.
    Call {
        /// The kind of the tool error.
        kind: tool::ErrorKind,
        /// The message.
        message: String,
    },
    /// Exporting: the request would not be sent (a request target over the client's limit,
    /// a header the client writes itself).
    Request {
        /// Why, from [`http::Error`](crate::http::Error) (never a header value or a query).
        reason: String,
    },
    /// Exporting: the request holds something no command-line argument can carry (a NUL
    /// byte in the body, a multipart field name with `=`).
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
    /// See [`Error::Empty`].
    Empty,
    /// See [`Error::UnterminatedQuote`].
    UnterminatedQuote,
    /// See [`Error::NulByte`].
    NulByte,
    /// See [`Error::InvalidEscape`].
    InvalidEscape,
    /// See [`Error::UnsupportedShell`].
    UnsupportedShell,
    /// See [`Error::Variable`].
    Variable,
    /// See [`Error::SecondCommand`].
    SecondCommand,
    /// See [`Error::NotCurl`].
    NotCurl,
    /// See [`Error::InvalidUtf8`].
    InvalidUtf8,
    /// See [`Error::VariablePlace`].
    VariablePlace,
    /// See [`Error::AmbiguousOption`].
    AmbiguousOption,
    /// See [`Error::UnknownOption`].
    UnknownOption,
    /// See [`Error::MissingValue`].
    MissingValue,
    /// See [`Error::UnexpectedValue`].
    UnexpectedValue,
    /// See [`Error::NotBoolean`].
    NotBoolean,
    /// See [`Error::InvalidValue`].
    InvalidValue,
    /// See [`Error::Conflict`].
    Conflict,
    /// See [`Error::Unsupported`].
    Unsupported,
    /// See [`Error::NoUrl`].
    NoUrl,
    /// See [`Error::SeveralUrls`].
    SeveralUrls,
    /// See [`Error::UnsupportedScheme`].
    UnsupportedScheme,
    /// See [`Error::InvalidUrl`].
    InvalidUrl,
    /// See [`Error::UnsupportedMethod`].
    UnsupportedMethod,
    /// See [`Error::UnsupportedBody`].
    UnsupportedBody,
    /// See [`Error::InvalidJson`].
    InvalidJson,
    /// See [`Error::TooManyParams`].
    TooManyParams,
    /// See [`Error::InvalidName`].
    InvalidName,
    /// See [`Error::Plugin`].
    Plugin,
    /// See [`Error::UnknownEndpoint`].
    UnknownEndpoint,
    /// See [`Error::EndpointRequired`].
    EndpointRequired,
    /// See [`Error::Call`].
    Call,
    /// See [`Error::Request`].
    Request,
    /// See [`Error::Unrepresentable`].
    Unrepresentable,
}

/// The three quoting forms that can be left open.
///
/// Not `#[non_exhaustive]`: bash has these three quotes that can be left open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quote {
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
        match self {
            Error::Empty => ErrorKind::Empty,
            Error::UnterminatedQuote { .. } => ErrorKind::UnterminatedQuote,
            Error::NulByte { .. } => ErrorKind::NulByte,
            Error::InvalidEscape { .. } => ErrorKind::InvalidEscape,
            Error::UnsupportedShell { .. } => ErrorKind::UnsupportedShell,
            Error::Variable { .. } => ErrorKind::Variable,
            Error::SecondCommand { .. } => ErrorKind::SecondCommand,
            Error::NotCurl => ErrorKind::NotCurl,
            Error::InvalidUtf8 { .. } => ErrorKind::InvalidUtf8,
            Error::VariablePlace { .. } => ErrorKind::VariablePlace,
            Error::AmbiguousOption { .. } => ErrorKind::AmbiguousOption,
            Error::UnknownOption { .. } => ErrorKind::UnknownOption,
            Error::MissingValue { .. } => ErrorKind::MissingValue,
            Error::UnexpectedValue { .. } => ErrorKind::UnexpectedValue,
            Error::NotBoolean { .. } => ErrorKind::NotBoolean,
            Error::InvalidValue { .. } => ErrorKind::InvalidValue,
            Error::Conflict { .. } => ErrorKind::Conflict,
            Error::Unsupported { .. } => ErrorKind::Unsupported,
            Error::NoUrl => ErrorKind::NoUrl,
            Error::SeveralUrls { .. } => ErrorKind::SeveralUrls,
            Error::UnsupportedScheme { .. } => ErrorKind::UnsupportedScheme,
            Error::InvalidUrl { .. } => ErrorKind::InvalidUrl,
            Error::UnsupportedMethod { .. } => ErrorKind::UnsupportedMethod,
            Error::UnsupportedBody { .. } => ErrorKind::UnsupportedBody,
            Error::InvalidJson { .. } => ErrorKind::InvalidJson,
            Error::TooManyParams { .. } => ErrorKind::TooManyParams,
            Error::InvalidName { .. } => ErrorKind::InvalidName,
            Error::Plugin(_) => ErrorKind::Plugin,
            Error::UnknownEndpoint { .. } => ErrorKind::UnknownEndpoint,
            Error::EndpointRequired { .. } => ErrorKind::EndpointRequired,
            Error::Call { .. } => ErrorKind::Call,
            Error::Request { .. } => ErrorKind::Request,
            Error::Unrepresentable { .. } => ErrorKind::Unrepresentable,
        }
    }

    /// The index of the argument at fault (`curl` itself is argument 0), when there is one.
    ///
    /// For [`Error::Conflict`] and [`Error::SeveralUrls`] this is the later argument.
    pub fn arg_index(&self) -> Option<usize> {
        match *self {
            Error::UnterminatedQuote { arg_index, .. }
            | Error::NulByte { arg_index, .. }
            | Error::InvalidEscape { arg_index, .. }
            | Error::UnsupportedShell { arg_index, .. }
            | Error::Variable { arg_index, .. }
            | Error::InvalidUtf8 { arg_index }
            | Error::VariablePlace { arg_index, .. }
            | Error::AmbiguousOption { arg_index, .. }
            | Error::UnknownOption { arg_index, .. }
            | Error::MissingValue { arg_index, .. }
            | Error::UnexpectedValue { arg_index, .. }
            | Error::NotBoolean { arg_index, .. }
            | Error::InvalidValue { arg_index, .. }
            | Error::Conflict { arg_index, .. }
            | Error::Unsupported { arg_index, .. }
            | Error::UnsupportedScheme { arg_index, .. }
            | Error::InvalidUrl { arg_index, .. }
            | Error::UnsupportedBody { arg_index, .. }
            | Error::InvalidJson { arg_index, .. } => Some(arg_index),
            Error::SeveralUrls { second_index, .. } => Some(second_index),
            _ => None,
        }
    }

    /// The byte offset in the parsed text, for errors found while reading shell syntax.
    pub fn offset(&self) -> Option<usize> {
        match *self {
            Error::UnterminatedQuote { offset, .. }
            | Error::NulByte { offset, .. }
            | Error::InvalidEscape { offset, .. }
            | Error::UnsupportedShell { offset, .. }
            | Error::Variable { offset, .. }
            | Error::SecondCommand { offset, .. } => Some(offset),
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

impl fmt::Display for Quote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Writes `head`, ` at byte OFFSET (argument INDEX)`, then `tail`: where a shell-syntax error
/// is. The shared shapes keep `Display` from compiling a `write!` per arm (issue 17).
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
        match self {
            Error::Empty => f.write_str(
                "the command is empty; give a curl command such as `curl https://example.com`",
            ),
            Error::UnterminatedQuote {
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
            Error::NulByte { offset, arg_index } => at_byte(
                f,
                &["a NUL byte"],
                *offset,
                *arg_index,
                &[": a command-line argument cannot hold one"],
            ),
            Error::InvalidEscape { offset, arg_index } => at_byte(
                f,
                &["invalid escape"],
                *offset,
                *arg_index,
                &[": \\u and \\U must name a unicode scalar value"],
            ),
            Error::UnsupportedShell {
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
            Error::Variable {
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
            Error::VariablePlace {
                name,
                arg_index,
                reason,
            } => write!(
                f,
                "shell variable ${} (argument {}) cannot be carried over: {}",
                name, arg_index, reason
            ),
            Error::AmbiguousOption {
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
            Error::SecondCommand { offset, line } => write!(
                f,
                "a second command starts on line {} (byte {}); httptool reads one curl \
                 command: end each continued line with a backslash",
                line, offset
            ),
            Error::NotCurl => f.write_str(
                "the command does not start with `curl` (or a path to curl or curl.exe)",
            ),
            Error::InvalidUtf8 { arg_index } => write!(
                f,
                "argument {} is not valid UTF-8; only data and form values may hold other bytes",
                arg_index
            ),
            Error::UnknownOption {
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
            Error::MissingValue { option, arg_index } => {
                option_at(f, "", option, *arg_index, &[" needs a value"])
            }
            Error::UnexpectedValue { option, arg_index } => option_at(
                f,
                "",
                option,
                *arg_index,
                &[" takes no value; remove the `=...`"],
            ),
            Error::NotBoolean { option, arg_index } => option_at(
                f,
                "",
                option,
                *arg_index,
                &[" is not a switch and cannot be turned off with --no-"],
            ),
            Error::InvalidValue {
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
            Error::Conflict {
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
            Error::Unsupported {
                option,
                arg_index,
                reason,
            } => option_at(f, "", option, *arg_index, &[" is not supported: ", reason]),
            Error::NoUrl => f.write_str("the command has no URL; add the URL to request"),
            Error::SeveralUrls {
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
            Error::UnsupportedScheme { scheme, arg_index } => write!(
                f,
                "unsupported URL scheme `{}` at argument {}: httptool sends http and https only",
                scheme, arg_index
            ),
            Error::InvalidUrl { arg_index, reason } => write!(
                f,
                "the URL at argument {} cannot be used: {}",
                arg_index, reason
            ),
            Error::UnsupportedMethod { method } => pieces(
                f,
                &[
                    "method `",
                    method,
                    "` is not supported: a plugin endpoint's method is a token of at most 32 \
                     characters",
                ],
            ),
            Error::UnsupportedBody { arg_index, reason } => write!(
                f,
                "the request body (argument {}) cannot become parameters: {}",
                arg_index, reason
            ),
            Error::InvalidJson { arg_index, error } => write!(
                f,
                "the data at argument {} is sent as JSON but is not valid JSON ({}); fix the \
                 data, or send it with another Content-Type",
                arg_index, error
            ),
            Error::TooManyParams { count, max } => write!(
                f,
                "the command has {} parameters and headers, over the limit of {}; raise \
                 ImportOptions::max_params or trim the command",
                count, max
            ),
            Error::InvalidName { what, reason } => {
                pieces(f, &["the ", what, " name given cannot be used: ", reason])
            }
            Error::Plugin(err) => write!(
                f,
                "the plugin made from the command does not pass the plugin checks: {}",
                err
            ),
            Error::UnknownEndpoint { name, available } => f.write_str(&tool::unknown_name_message(
                "tool",
                name,
                available.iter().map(String::as_str),
            )),
            Error::EndpointRequired { available } => write!(
                f,
                "the plugin has {} tools; name the one to export: {}",
                available.len(),
                available.join(", ")
            ),
            Error::Call { kind, message } => pieces(
                f,
                &["the call cannot be built (", kind.as_str(), "): ", message],
            ),
            Error::Request { reason } => pieces(f, &["the request would not be sent: ", reason]),
            Error::Unrepresentable { what } => pieces(
                f,
                &["the request cannot be written as a curl command: ", what],
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Plugin(err) => Some(err),
            Error::InvalidJson { error, .. } => Some(error),
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
            Err(err) => Error::Plugin(err),
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
        let body = Error::UnsupportedBody {
            arg_index: 4,
            reason: String::new(),
        };
        assert_eq!((body.arg_index(), body.offset()), (Some(4), None));
        let count = Error::TooManyParams { count: 3, max: 2 };
        assert_eq!((count.arg_index(), count.offset()), (None, None));
    }
}
