//! curl commands to plugins and back.
//!
//! [`parse`] reads a curl command line the way bash and then curl would, and returns a
//! [`CurlCommand`]: what the command asks for, with nothing acted on. No file is opened, no
//! variable or environment is read, nothing is sent. [`to_plugin`](fn@to_plugin) turns the command into
//! an [`HttpPlugin`](crate::plugin::HttpPlugin) with one tool; [`to_curl`](fn@to_curl) and
//! [`to_curl_call`] turn any tool of a plugin back into the curl command that sends exactly
//! the request a call would send.
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
//! `$1`, `$$`, `${VAR:-x}` and every parameter expansion but a plain variable
//! ([`ErrorKind::Variable`], naming it), `$(...)`,
//! backticks, pipes, `;`, `&&`, `&`, redirections, `*` globs, `{a,b}` brace expansion, a
//! leading `~`, and a second command on a later line. Unquoted `?` and `[` are kept: bash
//! leaves a pattern that matches no file as written. Windows cmd `^` and PowerShell
//! `` ` `` continuations are refused with a hint to copy the bash form instead. NUL bytes
//! are refused, since no argument can hold one. `$'\xff'` makes an argument that is not
//! UTF-8: that is kept in data and form values (curl sends such bytes as they are) and is
//! an [`ErrorKind::InvalidUtf8`] anywhere else (options, URLs, headers, names, paths). A plain
//! variable, `$NAME` or `${NAME}` bare or in double quotes, is not read from the
//! environment: it stands in the argument as `${NAME}`, the plugin file's own syntax, and
//! [`CurlCommand::variables`] lists it (in single quotes it is literal, as in bash). The
//! same `${NAME}` also written literally is an [`ErrorKind::VariablePlace`].
//!
//! **curl's options.** As curl 8 reads them: short options bundled (`-sSL`) with a value
//! attached (`-XPOST`) or in the next argument; long options by name, or by a prefix of
//! exactly one name as curl reads them (`--sil` is `--silent`; an exact name always wins, and
//! a prefix several names share is an [`ErrorKind::AmbiguousOption`] listing them); `--no-NAME` for
//! switches; repeated options (the last wins for single values, lists grow); the URL
//! anywhere, or with `--url`; `--` ends the options. `--name=value` is accepted too, though
//! curl itself rejects it, with a note. A URL without a scheme gets `http://` (or the
//! `--proto-default` one, or the one curl guesses from a `ftp.`-style host); schemes other
//! than http and https are refused. Several URLs are several requests, as curl sends them
//! (the same options for each): [`to_plugin()`] makes an endpoint of each, at most 64.
//!
//! **What is kept, noted or refused.** Every option curl has is known. Those that shape the
//! request are kept (see [`CurlCommand`]). Those that only change what curl prints (`-s`,
//! `-S`, `-v`, `-i`, `-#`, `-f`, `--http1.1`, ...) are accepted silently. Every other one
//! httptool does not carry over leaves a [`Note`]: output files (`-o`, `-O`, `-D`, `-c`),
//! connection overrides (`--resolve`, `--connect-to`, `--unix-socket`, `--interface`, ...),
//! TLS files and settings (`--cacert`, `--cert`, `--key`, ...), protocol versions
//! (`--http2`, ...), retries, `-w`, and the file references below. Options whose absence
//! would change the request are refused with [`ErrorKind::Unsupported`] saying what to write
//! instead: `-K`/`--config`, `--next`, `--ntlm`/`--negotiate`/`--anyauth`,
//! `-C`, `-z`, `--request-target`, `--variable`. `--digest -u` makes the
//! plugin's auth [`Auth::Digest`](crate::plugin::Auth::Digest), and `--aws-sigv4
//! aws:amz:REGION:SERVICE -u KEY:SECRET` [`Auth::AwsSigV4`](crate::plugin::Auth::AwsSigV4)
//! (a region or service left out is read from an `SERVICE.REGION.amazonaws.com` host, as
//! curl does; an `X-Amz-Security-Token` header is the session token; other providers than
//! `aws:amz` are refused). `--url-query` (curl 7.87)
//! adds to the URL's query as curl does: `name=value`, `=value` and `value` percent-encoded
//! (the name as written), `+name=value` as written; `name@file` would read a file and is
//! refused. `-r/--range` becomes a `Range: bytes=...` header (RFC 9110 section 14.2) unless
//! `-H Range` gives one; a lone number gets curl's `-`. An
//! unknown option is an [`ErrorKind::UnknownOption`]: it may take a value, so skipping it
//! could misread everything after it.
//!
//! **Files.** Nothing is read from disk. `-d @file`, `--data-binary @file`, `--json @file`,
//! `--data-urlencode name@file` and `-T file` become [`DataSource::File`] references,
//! `-F name=@file` and `-F name=<file` become [`FormValue::File`] and
//! [`FormValue::FileContent`], each with a note; `-H @file` and `-b file` (no `=`) are left
//! out with a note.
//!
//! # Converting to a plugin
//!
//! [`to_plugin`](fn@to_plugin) (and [`to_plugin_with`], with [`ImportOptions`] and the notes) makes a
//! plugin with one endpoint that sends the command's request. Every rule is a guess from one
//! sample, so every guess is written down here, and every approximation leaves a [`Note`].
//!
//! ```
//! use httptool::curl::{self, ImportOptions};
//!
//! let cmd = curl::parse(r#"curl https://api.example.com/v1/tickets?notify=true \
//!   -H 'Authorization: Bearer t0ken' -H 'Accept: application/json' \
//!   --json '{"title": "Printer on fire", "priority": 2, "tags": ["hw"]}'"#)?;
//! let import = curl::to_plugin_with(&cmd, &ImportOptions::new())?;
//! assert_eq!(import.tool_name(), "create_ticket");
//! assert_eq!(import.plugin().base_url().as_str(), "https://api.example.com/v1");
//! assert_eq!(import.variables()[0].name(), "EXAMPLE_TOKEN"); // the file says ${EXAMPLE_TOKEN}
//! assert_eq!(
//!     import.sample_arguments().get("priority").and_then(|v| v.as_i64()),
//!     Some(2)
//! );
//! # Ok::<(), curl::Error>(())
//! ```
//!
//! **URL and names.** The plugin is named after the host (`api.github.com` is `github`);
//! its base URL is the scheme, the authority and the leading version segments of the path
//! (`v1`, `v2beta`, `api`, `rest`, dates such as `2010-04-01`), and the endpoint's path is
//! the rest, percent-encoded as the URL parser normalizes it. Credentials in the URL become
//! basic auth. With [`ImportOptions::infer_path_params`], id-looking segments (digits,
//! UUIDs, long hex, tokens mixing letters and digits, e-mail addresses) become path
//! parameters named after the segment before them (`/users/42` is `/users/{user_id}`). The
//! tool is named from the method and the last word of the path: `list_users`, `get_user`,
//! `create_ticket`, `update_user`, `delete_user`, actions such as `refund_payment` and
//! `search`, RPC-style `chat_post_message` (see `infer::tool_name`).
//!
//! **Parameters.** Query pairs (form-decoded, so `+` is a space) and `-G` data are query
//! parameters; a repeated name is one array parameter. A JSON body's members are body
//! parameters; a body that is not an object (or is an object some member of which no type
//! describes, such as an array mixing types) is one whole-body parameter `body`, and `{}`
//! an optional one. Form data are form parameters; `-F` parts are multipart parameters
//! (a file part a file parameter whose handle the application's resolver reads; a
//! `<file` part a text parameter with no sample). Types come from the sample: text values
//! that write back identically are integers (at most 15 digits, no leading zero), numbers
//! and booleans, the rest strings; JSON values are typed as they are, objects with
//! properties and arrays with items (widened to "any object" where a type cannot follow:
//! `null`, arrays mixing types, more than 256 members, nesting deeper than
//! [`MAX_TYPE_DEPTH`](crate::plugin::MAX_TYPE_DEPTH)). A `null` member becomes an optional
//! string. Names a provider refuses keep their wire name and get a valid model name
//! (`filter[name]` is `filter_name`). Parameters are required and have no default, unless
//! [`ImportOptions::sample_defaults`] makes each sample its default; an empty sample is
//! always the default, since an empty argument counts as absent.
//! [`Import::sample_arguments`] are the arguments that replay the command.
//!
//! **Body.** JSON when the `Content-Type` is JSON (`--json`, or `-H` with
//! `application/json`, `text/json` or a `+json` type; it must parse, within
//! [`json::DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH)); JSON too when the data is
//! a JSON object or array under the `application/x-www-form-urlencoded` type (curl's when
//! none is given), sent with that type (a static header, with a note); multipart parts when the type is `multipart/form-data` with a boundary (as a
//! browser copies uploads); form pairs otherwise for the urlencoded type. Other types (text,
//! XML) are [`ErrorKind::UnsupportedBody`], and so is data read from a file, except JSON,
//! which becomes the whole-body `body` parameter. Form data of a GET, HEAD or OPTIONS
//! request goes to the query as `-G` data would (with a note; curl would send a body); a
//! JSON body of a GET sets the endpoint's `allow_get_body` (as search engines' `_search`
//! reads it, with a note); a JSON or multipart body of a HEAD or OPTIONS is an error. A
//! DELETE with a body sets the endpoint's `allow_delete_body`.
//!
//! **Headers.** The `-H` headers, then those of `-A`, `-e` and `-b`, become static
//! headers (a repeated one joined with `, `). A `Host` naming another host or port than the
//! URL's (a virtual host) is kept: the plugin sends it as the request's `Host` and connects
//! to the URL's host. Left out, each with a note: a `Host` naming the URL's own,
//! `Content-Length`, `Transfer-Encoding`, `Connection`, `Keep-Alive` (the client writes
//! them), `Expect`, `Accept-Encoding` (httptool does not decompress), `Proxy-*`, a
//! multipart body's `Content-Type` (its boundary is the client's) and, unless
//! [`ImportOptions::keep_browser_headers`], what browsers add: `sec-ch-*`, `sec-fetch-*`,
//! `sec-gpc`, `priority`, `dnt`, `upgrade-insecure-requests`, `te`, Postman's
//! `postman-token`. `Origin`, `Referer`, `Accept-Language`, `Cache-Control` and `Pragma`
//! are kept (servers check the first two; the others change the answer, and the last two
//! are end-to-end, RFC 9111 section 5).
//!
//! **Credentials** never become parameters the model sees. The `Authorization` curl sends
//! (an `-H` header, else `--oauth2-bearer`, else `-u`, else the URL's user and password,
//! as curl decides) fills the plugin's auth slot: bearer, basic (a `Basic` header is
//! decoded), or a header auth keeping any other scheme's name. Then the first
//! credential-looking header (a name judged on its tokens by
//! [`http::is_credential_name`](crate::http::is_credential_name): `X-Api-Key`, `appid`,
//! `sig`, `client_secret`, but not `author`, `keyword` or `Idempotency-Key`; or a value with
//! a well-known key prefix such as `sk-`, `ghp_`, `xoxb-`, `AKIA`, a `Bearer`/`Basic` value
//! or a JSON Web Token) takes the slot if it is free, then the first such query value; later
//! ones become hidden secret parameters; a header or query name repeated with a credential
//! in one of its values keeps its first value. A query name that looks like a credential
//! only by its name and is sent with several values (`key=one&key=two`) is a list, an
//! array parameter sent whole as curl sends it (a credential is one value). Cookies are a static `Cookie` header, which
//! is always masked. A JSON member or form field that looks like a credential (the same
//! rule: `client_secret`, `password` in an OAuth token request) becomes a hidden parameter
//! whose default is the value, so the model never sees it, and dry runs and exported curl
//! show it as `***`; one that is not a string stays a parameter the model fills, with a
//! note. Each value is a `${PLUGIN_NAME}` variable in the plugin file (the
//! returned plugin holds the value, so it works at once; [`Import::variables`] names them),
//! or, with [`ImportOptions::keep_secrets`], the value itself; an empty value is written as
//! it is. A path segment that looks like a secret token (a webhook URL's) leaves a note:
//! the path is written as it is.
//!
//! **Shell variables** ([`CurlCommand::variables`]) are the user's: each becomes a
//! `${NAME}` of the plugin file under its own name (`OPENAI_API_KEY`, not a made-up
//! `OPENAI_TOKEN`), and [`Import::variables`] lists it. It is a credential where its place
//! says so (the `Authorization` header, `-u`, `--oauth2-bearer`, a credential-looking header,
//! query or body name, or a variable named like one, such as `$GITHUB_TOKEN`), in the auth
//! slot or a hidden secret parameter as above; elsewhere it is a static header, a query
//! value sent with every call (the file's `query`), or a hidden body field or form field
//! whose default is the template. Text around it stays (`Bearer ${TOKEN}`), and a `${`
//! written literally is `$${` in the file, so the file reads back unchanged. A variable in
//! the URL's path, or deeper in a JSON body than a top-level member, is an
//! [`ErrorKind::VariablePlace`]: a plugin file reads no variable there. One in the URL's scheme
//! or host (`curl "$BASE_URL/users"`) is one too, though a plugin file's `base_url` reads
//! `${NAME}`: the plugin made here needs a real base URL, and nothing here reads the
//! environment; the message says to write the URL out and put the variable in the file's
//! `base_url`. The plugin returned
//! holds the text as written, `${NAME}` and all, since nothing reads the environment here:
//! write it with `to_json` and load it with `from_json`, which does.
//!
//! **Options.** `-m` is `timeout_call`, `--connect-timeout` `timeout_connect`, `-L` with
//! `--max-redirs` `max_redirects`. `-L` itself leaves a note: a plugin follows same-origin
//! redirects only (and follows them without `-L` too). `-k`, `--compressed`, `-x` and
//! `-A ''` leave notes: httptool always verifies certificates, asks for uncompressed
//! responses, takes a proxy from the application, and always sends a `User-Agent`. Any
//! token is a method: one other than GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS
//! (`PROPFIND`, `PURGE`, `wHat`) is an [`http::Method::Extension`](crate::http::Method),
//! sent exactly as written and sending a body as POST does; one of those seven written in
//! another case is sent in upper case (with a note).
//!
//! # Converting back to curl
//!
//! [`to_curl`](fn@to_curl), [`to_curl_call`] and [`to_curl_with`] build the request with the plugin
//! layer, exactly as a call would (a dry run: arguments checked and coerced, defaults,
//! static headers, auth, context values), and write that request out; nothing is
//! recomputed from the declaration. The command names the method only where curl would
//! pick another (`-X PUT`, `-I` for HEAD), gives the URL with its encoded query (with
//! `--globoff` if it holds `[]{}`, as an IPv6 host does; no `--path-as-is`, since the URL
//! httptool builds has no dot segment for curl to remove), every header in order but `Host`
//! (unless the request sends its own, a virtual host)
//! and `Content-Length`
//! (curl writes the same ones), `User-Agent` included, and the body byte for byte with
//! `--data-binary` (`-H 'Content-Type:'` and `-H 'User-Agent:'` keep curl from adding its
//! own when the request has none; an empty POST body is `--data-binary ''`). A multipart
//! body with file parts is written as `--form-string name=value` and
//! `-F name=@HANDLE` parts: the export does not have the files' bytes, and curl reads the
//! file the handle names. Without arguments, parameters take their defaults and required
//! ones without a default are `<name>` placeholders (`<user.name>` for a property; a
//! boolean is `false` and an enum its first value); context entries the request needs and
//! the options lack are `<key>` placeholders. Secrets (auth, sensitive headers, secret
//! query values) are `***` unless [`ExportOptions::reveal_secrets`]. Every word is quoted
//! for a POSIX shell (single quotes), except words with control characters or bytes that
//! are not UTF-8, which are `$'...'` strings (bash, zsh, ksh; not dash). The command parses
//! back with [`parse`].
//!
//! # What differs from curl's own request
//!
//! The tests run the real `curl` and the converted tool against one loopback server and
//! compare what it receives. These are the differences they allow, and the only ones:
//!
//! - curl sends `Accept: */*` and `User-Agent: curl/VERSION` of its own; a converted tool
//!   sends no `Accept` (RFC 9110 section 12.5.1: the same as `*/*`) and httptool's
//!   `User-Agent`, unless the command gave either.
//! - A JSON body is written compactly (the same JSON value, not the same bytes), and a
//!   `null` member is left out unless given.
//! - Form bodies and query strings are re-encoded: the same decoded pairs, but `%20` where
//!   curl had `+` or a raw byte, `flag=` for `flag`, and the values of a repeated name
//!   together where they were interleaved.
//! - Multipart bodies have another boundary; a `-F` part's `type=`, `filename=`,
//!   `headers=` and `encoder=` are not carried over, and a file's bytes, name and type come
//!   from the application's file resolver.
//! - Characters RFC 3986 does not allow in a path or query (`|`, `"`, `{`, non-ASCII) are
//!   percent-encoded; curl sends some as written.
//! - Credentials in the query (the auth's, secret parameters') come after the other pairs.
//! - A repeated header is sent once with its values joined by `, `; the headers left out
//!   above are not sent, nor the `Accept-Encoding` of `--compressed`; `-H 'Name:'` removing
//!   `User-Agent` or a body's `Content-Type` has no effect.
//! - A POST, PUT or PATCH without a body has `Content-Length: 0` (RFC 9110 section 8.6);
//!   `curl -X POST` sends none, and `curl -d ''` sends its form type with it.
//!
//! A command from [`to_curl_call`] makes curl send the very bytes the tool sends, but
//! curl's own `Accept: */*` when the request has no `Accept`, the multipart boundary and
//! file contents of `-F` parts, and `Expect: 100-continue`, which curl adds to bodies over
//! 1 MiB (Linux refuses a single argument over 128 KiB anyway).
//!
//! # Security
//!
//! The text is untrusted. Reading it takes time linear in its length (no recursion, no
//! backtracking) and never panics; converting it takes time about linear too, and the
//! number of parameters is bounded ([`ImportOptions::max_params`]). Error messages and
//! notes name options, positions, headers and parameters, never a value. `Debug` of a
//! [`CurlCommand`] masks credentials.

mod command;
mod error;
mod form;
// The inference rules are shared with the Postman and HAR importers: one home for a rule.
pub(crate) mod infer;
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
use error::Reason;
pub use error::{Error, ErrorKind};
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
    match shell::split(command) {
        // A script of curl commands (a document's examples, one after the other): the first
        // is read, and a note names the line of the next. Any other second command (a
        // continued line whose backslash is missing) stays an error.
        Err(Error {
            reason: Reason::SecondCommand { offset, line },
        }) if starts_curl(&command[offset..]) => {
            let words = shell::split(&command[..offset])?;
            let mut cmd = reader::read(words)?;
            cmd.notes.insert(
                0,
                Note {
                    arg_index: 0,
                    message: format!(
                        "the text holds more curl commands, the next on line {}; only the \
                         first is read: import each on its own",
                        line
                    ),
                },
            );
            Ok(cmd)
        }
        words => reader::read(words?),
    }
}

/// Whether `text` starts with the word `curl`.
fn starts_curl(text: &str) -> bool {
    match text.strip_prefix("curl") {
        Some(rest) => rest.is_empty() || rest.starts_with([' ', '\t', '\r', '\n']),
        None => false,
    }
}

/// The arguments bash would pass to the program for `command`: the words [`parse`] reads,
/// `curl` first, for running a command without a shell (`std::process::Command`).
///
/// # Errors
///
/// The shell errors of [`parse`]: quotes left open, NUL bytes, and syntax beyond one simple
/// command.
///
/// # Examples
///
/// ```
/// let words = httptool::curl::shell_words("curl -H 'A: b' $'x\\ny'")?;
/// assert_eq!(words, [&b"curl"[..], b"-H", b"A: b", b"x\ny"]);
/// # Ok::<(), httptool::curl::Error>(())
/// ```
pub fn shell_words(command: &str) -> Result<Vec<Vec<u8>>, Error> {
    let words = shell::split(command)?;
    Ok(words.into_iter().map(|word| word.bytes).collect())
}

/// Reads curl arguments that are already split, as a program receives them in `argv`:
/// `args[0]` is the program name (`curl`).
///
/// Useful when no shell is involved, such as a command line passed on after `--`. Each
/// argument is taken as is: no quote or escape is read.
///
/// # Errors
///
/// The option errors of [`parse`]; [`ErrorKind::Empty`] when `args` is empty.
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
