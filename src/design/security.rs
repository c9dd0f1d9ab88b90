//! The security model: who controls which input, where in the code each rule is kept, and
//! the bug classes with the tests that show the crate is not open to them.
//!
//! httptool stands between a language model and HTTP APIs, and both sides can be hostile:
//! the model's arguments (and anyone who can put text in its context), the server's answers
//! (and anyone on the path to an `http` URL), and the files and commands that declare the
//! tools. The host application is the only party trusted with everything.
//!
//! # Where each rule is kept
//!
//! - **The request goes where it was declared.** The plugin layer owns the origin and the
//!   path template; arguments only fill parameters ([`endpoints`](super::endpoints#path-values),
//!   [query strings](super::endpoints#query-strings-and-forms), [hidden values](super::endpoints#call-context)).
//!   [`Url::parse`](crate::url::Url::parse) refuses every URL two parsers could read
//!   differently, and [`reads_as_dot_segment`](crate::url::reads_as_dot_segment) is the one
//!   rule for dot segments in path values.
//! - **The address connected to is the address checked.** [`AddressPolicy`](crate::http::AddressPolicy)
//!   is applied by the client to the addresses a name resolved to, on every hop of a
//!   redirect and again on every reuse of a pooled connection
//!   ([addresses](super::endpoints#addresses)).
//! - **Credentials stay with their origin.** [`RedirectPolicy`](crate::http::RedirectPolicy)
//!   drops them when the origin changes ([redirects](super::endpoints#redirects)).
//! - **Framing is exact or refused.** The response reader refuses ambiguous framing, and a
//!   pooled connection with anything left on it is closed
//!   ([limits](super::endpoints#limits), [retries](super::endpoints#retries)).
//!   [`read_response`](crate::http::read_response) is the same reader over bytes, for
//!   fuzzing and replay.
//! - **Headers are one line.** [`Headers`](crate::http::Headers) refuses names that are not
//!   tokens and values with CR, LF or NUL, whoever adds them ([headers](super::endpoints#headers)).
//! - **Every read is bounded, and no input costs more than its size.** Each limit is a
//!   constant with its error ([`Limit`](crate::http::Limit)); the JSON parser, writer,
//!   comparison and drop use explicit stacks, so nesting cannot exhaust the stack.
//! - **Secrets are not shown.** Masking in `Debug`, `Display`, dry runs and exports
//!   ([`Secrets`](crate::http::Secrets)), redaction of secrets echoed by the server, and one
//!   rule for credential-looking names ([`is_credential_name`](crate::http::is_credential_name);
//!   [secrets](super::endpoints#secrets)).
//! - **Imports run nothing.** [`curl::parse`](crate::curl::parse) reads a command as bash and
//!   curl would and acts on none of it; [`openapi::import`](crate::openapi::import) follows
//!   external `$ref`s only through the host's [`RefResolver`](crate::openapi::RefResolver).
//!   Both produce a plugin to review. A document cannot choose which of the user's secrets
//!   is sent: an imported credential variable is `HTTPTOOL_`, the host it goes to, `___` and
//!   the scheme's name (`HTTPTOOL_API_GITHUB_COM___TOKEN`), never a name the document spells.
//!
//! The rest of this page is the project's `SECURITY.md`, included here as it is, so the two
//! cannot drift apart. Test names in it are files of the repository's `tests/` folder
//! (`tests/FILE.rs::test_name`), which the published crate does not carry.
//!
#![doc = include_str!("../../SECURITY.md")]
