//! The behaviour decided for every endpoint: what a plugin's tool does with the model's
//! arguments, what it sends, and what the model reads back.
//!
//! The two designs this crate learned from (a Java plugin module with plugins, methods and
//! tool parameters, and a Java REST API card with parameter locations and mappers) disagree
//! in places; each section below is the decision taken, and the code that carries it out
//! names the section. [`HttpTool`](crate::plugin::HttpTool) runs these steps in order, all
//! of them before anything is sent.
//!
//! # The plugin file
//!
//! A plugin is a JSON document read by [`HttpPlugin::from_json`](crate::plugin::HttpPlugin::from_json)
//! and written back by [`HttpPlugin::to_json`](crate::plugin::HttpPlugin::to_json), or the
//! same declaration built in Rust with [`HttpPlugin::builder`](crate::plugin::HttpPlugin::builder).
//! Its field names are a wire format people write by hand, so they stay as they are. This
//! example loads, and its spec is what the model reads:
//!
//! ```
//! use httptool::plugin::HttpPlugin;
//!
//! let plugin = HttpPlugin::from_json_deferred(r#"{
//!   "name": "weather",
//!   "description": "City weather",
//!   "base_url": "https://api.example.com",
//!   "headers": { "Accept": "application/json" },
//!   "auth": { "type": "bearer", "token": "${WEATHER_TOKEN}" },
//!   "endpoints": [
//!     {
//!       "name": "getWeather",
//!       "description": "Current weather for a city",
//!       "method": "GET",
//!       "path": "/v1/weather",
//!       "params": [
//!         { "name": "city", "wire_name": "q", "in": "query", "type": "string",
//!           "description": "City name or postal code", "required": true },
//!         { "name": "days", "in": "query", "type": "integer", "default": 1 }
//!       ]
//!     }
//!   ]
//! }"#)?;
//! let spec = &plugin.specs()[0];
//! assert_eq!(spec.name(), "getWeather");
//! // The wire name `q`, the location and the auth stay out of what the model reads.
//! assert_eq!(
//!     spec.parameters().to_string(),
//!     r#"{"type":"object","properties":{"city":{"type":"string","description":"City name or postal code"},"days":{"type":"integer","default":1}},"required":["city"],"additionalProperties":false}"#
//! );
//! # Ok::<(), httptool::plugin::Error>(())
//! ```
//!
//! An endpoint may carry its own `auth`, replacing the plugin's: an auth object of the same
//! kinds, or `"none"` for an endpoint that sends no credential (a health check, a login).
//! Collections mix them (bearer on most requests, basic on the token call), and so do the
//! plugins imported from them. An endpoint may also carry its own `base_url` (an OpenAPI
//! operation's `servers`, a collection's `{{authUrl}}`), which reads `${NAME}` as the
//! plugin's does: it is checked as the plugin's is once it has a value, and an endpoint whose
//! variable has none ([`from_json_deferred`](crate::plugin::HttpPlugin::from_json_deferred))
//! refuses every call and dry run, naming the variable, before anything is built or sent.
//! And it may carry its own static `headers`, sent with its calls only and replacing the
//! plugin's header of the same name: a recording or collection that reaches several hosts
//! keeps each host's cookie or API key on that host's endpoints. They are checked as the
//! plugin's headers are and are secret on the same terms.
//! None of these is anything the model reads or sets. All are written back by `to_json` (the
//! variable, never its value) and followed by the exported curl command.
//!
//! The README's "Plugins" section lists every field. Declaring a plugin does no I/O: the
//! checks below marked "when the plugin is built" run in `from_json` and in the builder, and
//! every network check runs when a call is made.
//!
//! # Parameters
//!
//! A [`Param`](crate::plugin::Param) has a model-facing name and a wire name (which may
//! differ), a description, a [`Location`](crate::plugin::Location) (`query`, `path`,
//! `header`, `body`, `form`, `cookie`; read ignoring case, `body` when left out, an unknown
//! word an error), a [`ParamType`](crate::plugin::ParamType) (`string`, `integer`, `number`,
//! `boolean`, `array` with its items, `object` with optional properties, or any value under
//! a declared schema), whether it is required, a default, and an optional enum. The
//! endpoint's parameters render to the JSON Schema of its [`ToolSpec`](crate::tool::ToolSpec),
//! with `required` and `additionalProperties: false`. Keywords that are for the crate only
//! (the location, the wire name, `secret`, `hidden`) never reach the model's schema.
//!
//! # Reading the arguments
//!
//! The arguments text is parsed as JSON strictly
//! ([`parse_arguments`](crate::tool::parse_arguments)): a duplicate key is an error, since
//! the caller cannot know which value the model meant, and the text is capped (see
//! [limits](#limits)). The MCP server reads each whole message strictly too, since the
//! arguments sit inside it. JSON read elsewhere (plugin files, responses) keeps the last of
//! two duplicate keys, as most JSON readers do.
//!
//! # Value order
//!
//! A parameter's value is the model's argument, else (for a hidden parameter) the call
//! context's, else the parameter's default, else, if it is required, an error. A `null` or
//! an empty string from the model counts as absent: it does not override a default. An
//! absent optional parameter is left out of the request: never sent as `null` or as an empty
//! header, so a PATCH body holds only what was given.
//!
//! # Coercion
//!
//! Models send `"42"` for 42, so values are read as their declared type: `"42"` is 42 for an
//! integer, `"true"`/`"false"`/`"1"`/`"0"`/`"yes"`/`"no"` are booleans, a JSON-encoded
//! string is an array or an object, and a number or a boolean is text for a string. A value
//! that cannot be read as its type is an error naming the parameter and the type expected,
//! never a silent `false`, 0 or empty map. An integer is sent as plain digits or refused,
//! never in exponent form or rounded. Enum values are checked after coercion.
//!
//! # Unknown arguments
//!
//! An argument that names no parameter the model may set is an error that suggests the
//! closest name and lists the accepted ones (the message comes from
//! [`unknown_name_message`](crate::tool::unknown_name_message): "unknown parameter 'ctiy';
//! did you mean 'city'? ..."). An endpoint may opt out with
//! [`allow_unknown_arguments`](crate::plugin::Endpoint::allow_unknown_arguments). An argument
//! for a hidden parameter is refused the same way, so its existence is not revealed.
//!
//! # Bodies
//!
//! Body parameters of GET, HEAD, OPTIONS and DELETE go to the query string, so nothing the
//! model gave is dropped ([`Endpoint::body_in_query`](crate::plugin::Endpoint::body_in_query)).
//! An endpoint may opt in to a body on DELETE
//! ([`allow_delete_body`](crate::plugin::Endpoint::allow_delete_body)) and on GET
//! ([`allow_get_body`](crate::plugin::Endpoint::allow_get_body)) for the APIs that read one,
//! as search engines' `_search` does. POST, PUT, PATCH and extension methods send a body when
//! a body value was given, encoded as the [`BodyEncoding`](crate::plugin::BodyEncoding) says:
//! a JSON object by default, `application/x-www-form-urlencoded` when a parameter is in
//! `form`, `multipart/form-data` where the endpoint says so, or a raw body (text, XML,
//! bytes) from the endpoint's one body parameter with its content type. A body parameter may
//! stand for the whole body (an array or a scalar body). A multipart file part gets its bytes
//! only from the [`FileResolver`](crate::plugin::FileResolver) the host installs (the model's
//! value is a handle the resolver understands): nothing reads a local path by default.
//!
//! # Path values
//!
//! A path value is percent-encoded as one segment, everything but the unreserved characters
//! ([`encode_path_segment`](crate::url::encode_path_segment), so `a/b` becomes `a%2Fb`, as
//! APIs that take a path-like id expect). A value that is empty, or that is `.` or `..` once
//! percent-decoded (repeatedly), split on `/` or `\`, trimmed, and with look-alike dots read
//! as dots (`..`, `../admin`, `%2e%2e`, `..%2f..%2fadmin`, `.. `, `．．`), is refused
//! ([`reads_as_dot_segment`](crate::url::reads_as_dot_segment)): some servers decode `%2F`
//! or normalize before routing. The model cannot change the scheme, host, port or the
//! declared path. When the plugin is built, every `{name}` in a path must have a path
//! parameter and every path parameter its `{name}`.
//!
//! # Query strings and forms
//!
//! Query names and values are percent-encoded, everything but the unreserved characters, a
//! space as `%20` ([`encode_query_component`](crate::url::encode_query_component)), so a
//! value cannot add pairs. Arrays and objects go in as the parameter's
//! [`ArrayStyle`](crate::plugin::ArrayStyle) says: the key repeated by default, or joined
//! with commas (OpenAPI `explode: false`), spaces or pipes, spread into pairs, or in
//! brackets (`deepObject`). Form bodies use the `application/x-www-form-urlencoded`
//! serializer ([`form_urlencoded`](crate::url::form_urlencoded)). Cookie parameters go into
//! one `Cookie` header.
//!
//! # Headers
//!
//! Header names must be tokens and values may hold no CR, LF or NUL, whoever supplies them
//! (the model, the call context, the plugin file, a signer); [`Headers`](crate::http::Headers)
//! refuses anything else. When the plugin is built, a header parameter may not shadow a
//! static header or the auth header of the plugin, so the model cannot replace credentials.
//!
//! # Results
//!
//! Any 2xx is a success: the body goes to the model as text, as sent, and JSON is also parsed
//! into [`ToolOutput::structured`](crate::tool::ToolOutput::structured); an empty body (204)
//! is an empty success. Text over the output cap is cut with a marker saying what was left
//! out; the structured value is never cut, so it is whole and valid against the tool's
//! output schema, or left out where nothing requires it
//! ([`ToolOutput::is_truncated`](crate::tool::ToolOutput::is_truncated)). A status of 400 or more is an error output that keeps the body
//! (capped), so the model can correct its call. Transport failures, timeouts, limits and
//! argument errors are error outputs too, each with one message written for the model (what
//! failed, and how to call correctly) and a stable [`ErrorKind`](crate::tool::ErrorKind) for
//! code. Rust callers get the whole response (status, reason, final URL, headers, body,
//! parsed data) from [`HttpTool::send`](crate::plugin::HttpTool::send) as an
//! [`ApiResponse`](crate::plugin::ApiResponse), and the request a call would send, built
//! without sending it, from [`HttpTool::dry_run`](crate::plugin::HttpTool::dry_run) as a
//! [`DryRun`](crate::plugin::DryRun).
//!
//! ## Binary answers
//!
//! A body is binary by its media type (`image/*`, `audio/*`, `application/pdf`, anything not
//! text), and by its content when the type is missing or says nothing
//! (`application/octet-stream`): bytes that are not UTF-8, or hold control bytes text never
//! holds; such a body's first bytes name it when they are a PNG, JPEG, GIF, WebP or PDF. It
//! is never turned into lossy text. The model reads a one-line summary (media type, size,
//! SHA-256, file name), and a success carries the bytes as an
//! [`Attachment`](crate::tool::Attachment) up to `max_attachment_bytes` (1 MiB by default;
//! above it the summary says the cap was passed, never a silent drop). Each provider format
//! sends it in the form it documents for tool results: MCP `ImageContent`, `AudioContent`
//! (2025-03-26 and later) and an embedded resource for other types; Anthropic `image` and
//! `document` (PDF) blocks; OpenAI Responses `input_image` and `input_file` (PDF) parts. Where
//! a format has none (Chat Completions, Gemini, another type) the summary is the result. An
//! answer that holds a secret the call sent is described, never attached: its bytes cannot
//! be masked without breaking them. An error status keeps the summary only.
//!
//! ## Event streams
//!
//! A 2xx `text/event-stream` answer is read as server-sent events as they arrive (the WHATWG
//! parsing rules: `data` lines joined, `event`, `id`, comments, CRLF, LF or CR), within a
//! count, byte and time budget (`max_stream_events`, 1,000; `max_stream_bytes`, 1 MiB;
//! `timeout_stream_ms`, 30 s from the head, within the call's deadline); an event whose data
//! is `[DONE]` ends it. The result is a JSON array of `{"event"?, "id"?, "data"}`, `data`
//! parsed where it is JSON; each event is also a progress report (an MCP progress
//! notification when the call has a token). A read stopped by a budget, or by a connection
//! that broke off, keeps the events read whole and ends the text with a note saying which
//! budget stopped it and that more may have followed: never a silent cut. The body is not
//! kept whole, so `max_response_bytes` does not apply to it; the stream budget does.
//!
//! ## Pages
//!
//! An endpoint may declare how its list continues ([`Pagination`](crate::plugin::Pagination):
//! a `Link` header's `rel="next"`, a cursor field and the parameter that takes it, page or
//! offset numbers); the OpenAPI importer declares the common shapes it recognises. Off
//! otherwise. One call then reads up to `max_pages` pages and `max_bytes` of page bodies, and
//! answers `{"items", "pages", "more", "next"?, "stopped"?}`: the items of every page read,
//! whether more remain, the arguments that ask for them and why reading stopped. A next link
//! is followed only when it stays on the endpoint's origin and under the plugin's base path,
//! so neither the API nor the model can steer the request elsewhere; the plugin's query
//! values and credentials go with every page. A first answer that is no list is read as any
//! answer.
//!
//! ## Long-running operations
//!
//! A `202 Accepted` whose `Operation-Location` or `Location` is on the request's origin is
//! asked again with GET (no body, the same credentials) after each `Retry-After` (1 s without
//! one, at most 60 s), until the answer is something else, or a `200` whose `status` no longer
//! says running; that answer is the result. The call's deadline (`timeout_call_ms`) bounds
//! the whole: when it would pass, the model reads that the operation is still running, the
//! status it last saw and the URL to ask again with.
//!
//! # Retries
//!
//! The client retries by itself only idempotent methods (GET, HEAD, OPTIONS, PUT, DELETE),
//! and only when the connection failed before any response byte and before the server could
//! have acted on the request (a pooled connection found closed). A request whose body was
//! written in part is never sent again, and a response the server already sent is read and is
//! the answer; POST and PATCH never retry by themselves. An opt-in
//! [`RetryPolicy`](crate::http::RetryPolicy) retries 429 and 503, honouring `Retry-After`,
//! with a cap on the wait. A pooled connection is reused only when nothing is waiting on it:
//! a byte already there means the previous exchange is not over, and the connection is
//! closed, never read as the next answer.
//!
//! # Limits
//!
//! Every limit is configurable and is a public constant documented "Defaults to ...":
//! connecting 10 s an address ([`DEFAULT_TIMEOUT_CONNECT`](crate::http::DEFAULT_TIMEOUT_CONNECT)),
//! each read and write 30 s ([`DEFAULT_TIMEOUT_READ`](crate::http::DEFAULT_TIMEOUT_READ),
//! [`DEFAULT_TIMEOUT_WRITE`](crate::http::DEFAULT_TIMEOUT_WRITE)), the whole call 60 s
//! ([`DEFAULT_TIMEOUT_CALL`](crate::http::DEFAULT_TIMEOUT_CALL); one deadline drives every
//! socket timeout); a response body 10 MiB ([`DEFAULT_MAX_RESPONSE_BYTES`](crate::http::DEFAULT_MAX_RESPONSE_BYTES),
//! an error, not a silent cut); a response head 64 KiB
//! ([`DEFAULT_MAX_HEAD`](crate::http::DEFAULT_MAX_HEAD)), 100 headers
//! ([`DEFAULT_MAX_HEADERS`](crate::http::DEFAULT_MAX_HEADERS)), a status line 8 KiB
//! ([`DEFAULT_MAX_STATUS_LINE`](crate::http::DEFAULT_MAX_STATUS_LINE)); a chunk-size line
//! 1 KiB ([`DEFAULT_MAX_CHUNK_LINE`](crate::http::DEFAULT_MAX_CHUNK_LINE)); a request target
//! 8 KiB ([`DEFAULT_MAX_REQUEST_TARGET`](crate::http::DEFAULT_MAX_REQUEST_TARGET)); tool
//! arguments 1 MiB ([`DEFAULT_MAX_ARGUMENT_BYTES`](crate::tool::DEFAULT_MAX_ARGUMENT_BYTES));
//! JSON nesting 128 levels ([`json::DEFAULT_MAX_DEPTH`](crate::json::DEFAULT_MAX_DEPTH)). Text
//! handed to a model is capped at 64 KiB
//! ([`DEFAULT_MAX_OUTPUT_BYTES`](crate::tool::DEFAULT_MAX_OUTPUT_BYTES)) with a marker that
//! says how much was left out ([`cap_text`](crate::tool::cap_text)). Malformed framing (two
//! `Content-Length`s, `Transfer-Encoding` with `Content-Length`, an unknown transfer coding,
//! obs-fold) is an error and closes the connection. A limit that is hit is an error naming
//! the limit ([`Limit`](crate::http::Limit)).
//!
//! # Redirects
//!
//! The general [`Client`](crate::http::Client) follows up to 5 redirects
//! ([`DEFAULT_MAX_REDIRECTS`](crate::http::DEFAULT_MAX_REDIRECTS)): 301, 302 and 303 as GET
//! (a HEAD stays HEAD), 307 and 308 only for GET and HEAD; never from `https` to `http`;
//! dropping `Authorization`, `Cookie` and every injected credential on any change of
//! scheme, host or port; checking the address policy again on every hop. The rules are
//! [`RedirectPolicy`](crate::http::RedirectPolicy)'s. Tools built from a plugin follow
//! same-origin redirects only, unless the plugin allows more hosts
//! ([`Options::redirect_hosts`](crate::plugin::Options::redirect_hosts)); a redirect that is
//! not followed ends the call with an error output saying where it pointed.
//!
//! # Addresses
//!
//! A plugin may restrict hosts, and may refuse loopback, private, link-local, CGNAT and
//! metadata addresses (the IANA special-purpose ranges, IPv4, IPv6 and IPv4-embedded forms;
//! [`AddressMode::Strict`](crate::plugin::AddressMode::Strict), which is
//! [`AddressPolicy::strict`](crate::http::AddressPolicy::strict)). The policy is checked on
//! the addresses a name resolved to, once, and the connection goes to one of those, so a DNS
//! answer cannot change between the check and the use. Hosts in legacy numeric forms
//! (`127.1`, `0x7f.0.0.1`, `2130706433`) are read as the address they denote, or refused,
//! never passed to the resolver as names ([`Url::parse`](crate::url::Url::parse)). URLs with
//! userinfo, backslashes, control characters or non-ASCII hosts are refused. The environment
//! (proxies) is read only when the caller asks for it.
//!
//! # Secrets
//!
//! Header and query values marked secret, and auth of every type, are never parameters the
//! model sees: they are added when the request is made, and appear as `***` in logs, `Debug`
//! output, error messages, dry runs and exported curl unless the caller asks for them
//! ([`Secrets`](crate::http::Secrets)). A plugin file may say `${NAME}` and take the value
//! from the environment when it is loaded; a missing variable is an error when a call needs
//! it (specs and dry runs need no secret). A secret the call sent that comes back in the
//! answer (an echoing body, a reason phrase, a `Location`) is `***` in everything handed to
//! the model and to observers ([`MIN_REDACTED_SECRET_BYTES`](crate::plugin::MIN_REDACTED_SECRET_BYTES)
//! says which are too short to look for). Credential-looking names are judged on their name
//! tokens, not on substrings (`author` is not `auth`), in every location, body fields
//! included ([`is_credential_name`](crate::http::is_credential_name)).
//!
//! # Tool names
//!
//! A tool name is unique in a registry (adding a duplicate is an error, not an overwrite) and
//! valid for every provider: `^[a-zA-Z0-9_-]{1,64}$`
//! ([`validate_name`](crate::tool::validate_name), [`MAX_NAME_LEN`](crate::tool::MAX_NAME_LEN)).
//!
//! # Call context
//!
//! An agent serving many users passes, with each call, values the model must neither see nor
//! set (a user's token, a tenant id) in a [`CallContext`](crate::tool::CallContext). They
//! fill auth slots ([`ConfigValue::context`](crate::plugin::ConfigValue::context)) and
//! parameters marked `"hidden": true`, which are left out of the model's schema and filled
//! from the context or their default. An argument the model sends for a hidden parameter is
//! refused like an unknown one, and a transport error's message names the origin but not
//! the path, which may hold such a value.
//!
//! # Approval
//!
//! A call that deletes, pays, sends or overwrites can be held until the user says yes: the
//! model never sees or fills the answer (a `confirm: true` argument would be the model
//! approving itself). Which calls is a policy, [`Confirm`](crate::tool::Confirm), declared
//! once:
//!
//! | `"confirm"` | the calls that need approval |
//! | --- | --- |
//! | `"never"` (the default) | none: nothing changes for a plugin that says nothing |
//! | `"destructive"` | `DELETE`, and tools annotated destructive (`PUT` and `PATCH` are, unless their `annotations` say otherwise) |
//! | `"writes"` | every method that is not safe: all but `GET`, `HEAD`, `OPTIONS`, `TRACE` |
//! | `"always"` or `true` | every call |
//! | `["name", ...]` | the tools named |
//!
//! The plugin's `"confirm"` holds for every endpoint; an endpoint's own (a word, `true` or
//! `false`) wins over it, so one harmless `POST /search` can be exempt under `"writes"`. A
//! host adds a policy for everything it serves with
//! [`CallContext::with_confirm`](crate::tool::CallContext::with_confirm) (`httptool serve
//! --confirm`); a call needs approval when either names it.
//!
//! Such a call is built first (arguments that make no request are the model's to fix, and
//! nobody is asked about a call that cannot be sent), then the context's
//! [`Approver`](crate::tool::Approver) is asked with an
//! [`ApprovalRequest`](crate::tool::ApprovalRequest): the tool, the method, the URL with
//! every secret as `***`, the model's arguments and the start of the body. In its
//! [`message`](crate::tool::ApprovalRequest::message) every value from the model or the API
//! is a quoted JSON string with line breaks, bidirectional and invisible characters
//! escaped, so an argument cannot write a line that reads as the server's own words. Only
//! [`Approval::Approved`](crate::tool::Approval::Approved) sends; a decline, a dismissal, a
//! timeout, an error, or no approver at all is an `is_error` result of kind
//! [`NotApproved`](crate::tool::ErrorKind::NotApproved) that says nothing was sent. Both ways
//! a tool sends ([`Tool::call`](crate::tool::Tool::call) and
//! [`HttpTool::send`](crate::plugin::HttpTool::send)) ask.
//!
//! Who asks:
//!
//! - `httptool call`: the terminal when standard input is one, `--yes` approves, and with
//!   neither the call is refused.
//! - An MCP session (stdio) at 2025-06-18 or later whose client declared form elicitation:
//!   `elicitation/create` sent mid-call with a one-field form (a required boolean); only
//!   `accept` with the box ticked approves. The call waits up to
//!   [`Server::elicitation_timeout`](crate::mcp::Server::elicitation_timeout).
//! - Streamable HTTP before 2026-07-28, for a client that takes an event stream: the POST is
//!   answered with `text/event-stream` once the call has something to send (the question,
//!   or progress), and the client's answer arrives as a POST of its own, handed to the call
//!   waiting in this process (its request id is unguessable, so no other client can answer
//!   it).
//! - Revision 2026-07-28 (stdio and HTTP): the multi round-trip pattern. The first call is
//!   answered with an `InputRequiredResult` holding the question and a `requestState`:
//!   `a1.EXPIRY.NONCE.TAG`, where the tag is HMAC-SHA256 under the server's key of the
//!   tool's name, its arguments (keys sorted), the expiry and the nonce. The retry is
//!   approved only when the state's tag is right for this very tool and these arguments, it
//!   has not expired ([`Server::approval_ttl`](crate::mcp::Server::approval_ttl)), and its
//!   answer accepts; other arguments, another tool, a forged or expired state are refused
//!   with nothing sent. The state is signed, not stored, so any copy of a server that has
//!   the same key ([`Server::approval_key`](crate::mcp::Server::approval_key), `serve
//!   --confirm-key-env`) takes the retry. Each process also remembers the nonces it has
//!   redeemed until they expire, so a state is used once per process; across copies, a
//!   client replaying an approved state within its expiry could send the same approved
//!   call once more on each other copy (bounded by the short expiry; stopping it would
//!   need storage the copies share).
//! - A client that cannot ask (no form elicitation declared, or an error in answer to the
//!   question): refused, saying the call needs the user's approval and this client cannot
//!   ask. Never sent silently.
