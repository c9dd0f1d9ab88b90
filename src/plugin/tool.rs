//! `HttpTool`: one endpoint as a [`Tool`]: arguments to request, request to transport,
//! response to output; plus the dry run and the full response for Rust callers.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::request;
use crate::http::{self, Client, Request, Response, Secrets};
use crate::json::{Json, Map};
use crate::plugin::build::compile::Compiled;
use crate::plugin::build::http_plugin::HttpPlugin;
use crate::plugin::call::args::{self, Values};
use crate::plugin::call::auth;
use crate::plugin::call::digest;
use crate::plugin::call::fields::{self, FieldPath};
use crate::plugin::call::observe::Exchange;
use crate::plugin::call::operation;
use crate::plugin::call::paging;
use crate::plugin::call::redact::Redactor;
use crate::plugin::call::result::{self, ApiResponse, Shaping};
use crate::plugin::call::stream::{self, Collector};
use crate::plugin::call::token::{Fetcher, Issued};
use crate::plugin::declare::model::{Auth, ConfigValue, Endpoint, Location};
use crate::plugin::declare::oauth::{Grant, OAuth2};
use crate::plugin::declare::pages;
use crate::plugin::error::{self, Error};
use crate::quote::MASK;
use crate::tool::{
    self, cap_text, Approval, ApprovalRequest, CallContext, ErrorKind, Operation, Tool, ToolOutput,
    ToolRegistry, ToolSpec,
};
use crate::url::Url;

/// One endpoint of a plugin as a tool: the executor of the model's calls.
///
/// A call runs the pipeline of the plugin's declaration, all of it before anything is sent:
///
/// 1. every argument must name a parameter the model may set
///    ([unknown arguments](crate::design::endpoints#unknown-arguments));
/// 2. each parameter's value is the model's argument, else the call context's (hidden
///    parameters), else the default, else, if required, an error
///    ([value order](crate::design::endpoints#value-order));
/// 3. values are read as their declared type
///    ([coercion](crate::design::endpoints#coercion)) and checked against the enum;
/// 4. values are placed ([bodies](crate::design::endpoints#bodies) and the sections after it):
///    path segments percent-encoded with dot segments
///    refused, query names and values encoded, header values checked, body parameters of
///    GET, HEAD, OPTIONS and DELETE moved to the query, a JSON, urlencoded or multipart body;
/// 5. static headers, query values and auth are added, and a [`Signer`](crate::plugin::Signer)
///    runs;
/// 6. the request goes to the plugin's transport, and the response becomes the output
///    ([results](crate::design::endpoints#results)): 2xx text as sent (JSON also parsed into
///    `structured`), 204 an empty
///    success, a binary body a one-line summary with the bytes attached, an event stream
///    its events, a declared list its pages, a `202` with a status URL what the operation
///    ended with, >= 400 `is_error` with the body, a redirect
///    not followed `is_error` saying where it pointed; transport failures each with their
///    kind and a message for the model.
///
/// Text handed to the model is capped at the endpoint's `max_output_bytes` with a marker.
///
/// # Security
///
/// A secret the call sent (auth of every type, secret headers and query values, values from
/// the call context, hidden parameters filled from it or from the environment) that the
/// server echoes back, in a body, a reason phrase, a `Location` or a file name, is `***`
/// in the output (its text and its structured data) and in what an
/// [`Observer`](crate::plugin::Observer) sees: as sent, percent-encoded and JSON-escaped, and for
/// Basic auth the base64 of `user:password` and the password alone. Values shorter than
/// [`MIN_REDACTED_SECRET_BYTES`](crate::plugin::MIN_REDACTED_SECRET_BYTES) are not looked for.
/// [`send`](HttpTool::send) returns the raw response.
///
/// The model's arguments are untrusted. The scheme, host, port and declared path cannot be
/// changed by any argument; a value that would (`..`, CR/LF in a header, the wrong type)
/// ends the call with an `is_error` output, and nothing is sent.
pub struct HttpTool {
    plugin: Arc<HttpPlugin>,
    compiled: Arc<Compiled>,
}

impl HttpTool {
    pub(crate) fn new(plugin: Arc<HttpPlugin>, compiled: Arc<Compiled>) -> HttpTool {
        HttpTool { plugin, compiled }
    }

    /// The endpoint this tool calls.
    pub fn endpoint(&self) -> &Endpoint {
        &self.compiled.endpoint
    }

    /// The plugin it belongs to.
    pub fn plugin(&self) -> &HttpPlugin {
        &self.plugin
    }

    /// The auth a call sends: the endpoint's own, else the plugin's.
    pub fn auth(&self) -> Option<&Auth> {
        self.compiled.auth(&self.plugin.decl)
    }

    /// Builds the exact request a call with `arguments` would send, signed, without sending
    /// it. With OAuth 2.0 auth no token is fetched: the request carries
    /// `Authorization: Bearer ***` where a call puts its access token.
    ///
    /// # Errors
    ///
    /// The output the model would get: an unknown, missing or invalid argument, a missing
    /// context value, a signer or file resolver failure.
    ///
    /// # Examples
    ///
    /// ```
    /// use httptool::http::Method;
    /// use httptool::json;
    /// use httptool::plugin::{Endpoint, HttpPlugin, Param};
    /// use httptool::tool::CallContext;
    ///
    /// let plugin = HttpPlugin::builder("repo", "https://api.example.com")
    ///     .endpoint(
    ///         Endpoint::patch("rename", "/repos/{id}")
    ///             .param(Param::path("id"))
    ///             .param(Param::body("name"))
    ///             .param(Param::body("private")),
    ///     )
    ///     .build()?;
    /// let tool = plugin.tool("rename")?;
    /// let arguments = json!({"id": "a/b", "name": "new"}).into_object().unwrap();
    /// let request = tool.prepare(arguments, &CallContext::new()).unwrap();
    /// assert_eq!(request.method(), Method::Patch);
    /// assert_eq!(request.url().as_str(), "https://api.example.com/repos/a%2Fb");
    /// assert_eq!(request.body(), br#"{"name":"new"}"#); // only what was given
    /// # Ok::<(), httptool::plugin::Error>(())
    /// ```
    pub fn prepare(&self, arguments: Map, context: &CallContext) -> Result<Request, ToolOutput> {
        self.check_variables()?;
        self.prepare_with_secrets(arguments, context)
            .map(|(request, _)| request)
    }

    /// As [`prepare`](HttpTool::prepare), with the secrets the request carries. An OAuth
    /// 2.0 token is not fetched: the request carries `Authorization: Bearer ***`.
    fn prepare_with_secrets(
        &self,
        mut arguments: Map,
        context: &CallContext,
    ) -> Result<(Request, Redactor), ToolOutput> {
        // The `fields` argument shapes the answer, not the request (checked all the same).
        self.take_fields(&mut arguments)?;
        let values = args::resolve(
            &self.compiled.endpoint,
            &self.compiled.defs,
            arguments,
            context,
        )?;
        self.assemble(&values, context, None, Target::Endpoint)
    }

    /// The request for checked values, with `token` as the OAuth 2.0 access token (`***`
    /// without one), signed, and the secrets it carries.
    fn assemble(
        &self,
        values: &Values,
        context: &CallContext,
        token: Option<&str>,
        target: Target<'_>,
    ) -> Result<(Request, Redactor), ToolOutput> {
        let endpoint = &self.compiled.endpoint;
        let mut request = request::build(&self.plugin, &self.compiled, values, context)?;
        match target {
            Target::Endpoint => {}
            Target::Page(url) => self.go_to(&mut request, url),
            Target::Status(url) => {
                // RFC 9110 section 15.3.3: the status is read with GET, without the body.
                self.go_to(&mut request, url);
                request.set_method(http::Method::Get);
                request.set_body(Vec::new());
                request.headers_mut().remove("content-type");
            }
        }
        if let Some(Auth::OAuth2(_)) = self.auth() {
            // RFC 6750 section 2.1. A token holds no control character (`token.rs`).
            let bearer = format!("Bearer {}", token.unwrap_or(MASK));
            let _ = request
                .headers_mut()
                .append_sensitive("Authorization", &bearer);
        }
        if let Some(signer) = &self.plugin.runtime.signer {
            auth::sign(signer.as_ref(), &mut request, context).map_err(|e| {
                ToolOutput::error(
                    ErrorKind::ToolFailed,
                    format!(
                        "signing the request failed: {}; this is not caused by the arguments",
                        e
                    ),
                )
            })?;
        }
        if let Some(Auth::AwsSigV4(sigv4)) = self.auth() {
            // Last, so it signs what the application's signer added too.
            sigv4.sign(&mut request, self.unix_time(), context)?;
        }
        // After signing: what the signer added is a secret too.
        let mut redactor = Redactor::for_call(&request, endpoint, values, context);
        if let Some(Auth::AwsSigV4(sigv4)) = self.auth() {
            for secret in sigv4.secrets(context) {
                redactor.add(secret);
            }
        }
        if let Some(Auth::OAuth2(oauth)) = self.auth() {
            // The API has no business echoing them, but if it does, the model never sees them.
            let mut secrets: Vec<&ConfigValue> = oauth.client_secret().into_iter().collect();
            if let Grant::RefreshToken { refresh_token } = oauth.grant() {
                secrets.push(refresh_token);
            }
            for value in secrets {
                redactor.add(value.resolve(context).unwrap_or(""));
            }
        }
        Ok((request, redactor))
    }

    /// Now, as the plugin's client reads the time (its [`TimeSource`](crate::http::TimeSource)),
    /// or the machine's clock when the plugin sends through a transport of the application's.
    fn unix_time(&self) -> std::time::Duration {
        use crate::http::TimeSource;
        match &self.plugin.runtime.client {
            Some(client) => client.config().time_source.unix_time(),
            None => crate::http::RealTime.unix_time(),
        }
    }

    /// The request a call would send, ready to print with secrets masked.
    ///
    /// # Errors
    ///
    /// As [`prepare`](HttpTool::prepare).
    pub fn dry_run(&self, arguments: Map, context: &CallContext) -> Result<DryRun, ToolOutput> {
        let (request, redactor) = self.prepare_with_secrets(arguments, context)?;
        Ok(DryRun {
            request,
            client: self.plugin.runtime.client.clone(),
            redactor,
        })
    }

    /// Whether a call of this tool needs the user's approval: under the endpoint's policy,
    /// else the plugin's, or under the context's ([`CallContext::with_confirm`]).
    pub fn needs_approval(&self, context: &CallContext) -> bool {
        let endpoint = &self.compiled.endpoint;
        endpoint.needs_approval(self.plugin.confirm())
            || context.confirm().map_or(false, |confirm| {
                confirm.applies(
                    endpoint.name(),
                    Some(endpoint.method.as_str()),
                    &endpoint.annotations(),
                )
            })
    }

    /// What the user is asked about a call with `arguments`: the request it would send,
    /// secrets masked.
    ///
    /// # Errors
    ///
    /// As [`dry_run`](HttpTool::dry_run): the arguments do not make a request.
    pub fn approval_request(
        &self,
        arguments: &Map,
        context: &CallContext,
    ) -> Result<ApprovalRequest, ToolOutput> {
        let dry = self.dry_run(arguments.clone(), context)?;
        let content_type = dry.request().headers().get("content-type").unwrap_or("");
        Ok(
            ApprovalRequest::new(self.compiled.endpoint.name(), arguments.clone())
                .request(dry.request().method().as_str(), dry.masked_url())
                .body(content_type, &dry.masked_body()),
        )
    }

    /// Asks the context's approver when the call needs approval: `Err` with the output the
    /// model reads when it was not given. The request is built first: arguments that make
    /// no request are the model's to fix, and nobody is asked about a call that cannot be
    /// sent.
    fn approved(&self, arguments: &Map, context: &CallContext) -> Result<(), ToolOutput> {
        if !self.needs_approval(context) {
            return Ok(());
        }
        let request = self.approval_request(arguments, context)?;
        let answer = match context.approver() {
            Some(approver) => approver.approve(&request),
            None => {
                Approval::CannotAsk(String::from("this host has no way to ask the user for it"))
            }
        };
        match answer.refusal(self.compiled.endpoint.name()) {
            None => Ok(()),
            Some(text) => Err(ToolOutput::error(ErrorKind::NotApproved, text)),
        }
    }

    /// Sends a call and returns the whole response, whatever its status, for Rust callers
    /// ([`output`](HttpTool::output) turns it into what the model would read). A call that
    /// needs the user's approval asks the context's approver first, as a model's call does.
    ///
    /// # Security
    ///
    /// The response is as the server sent it: a secret it echoes is in it (see the
    /// type's docs); [`output`](HttpTool::output) redacts.
    ///
    /// # Errors
    ///
    /// The output the model would get when no response arrived: an argument error, or a
    /// transport failure (timeout, limit, refused address, connection error).
    pub fn send(&self, arguments: Map, context: &CallContext) -> Result<ApiResponse, ToolOutput> {
        let exchanged = self.exchange(arguments, context, None, Target::Endpoint)?;
        Ok(ApiResponse::new(exchanged.response, exchanged.redactor))
    }

    /// What the model reads for `response` (as a call would hand it over): secrets the call
    /// sent that the server echoed are `***`.
    pub fn output(&self, response: ApiResponse) -> ToolOutput {
        let (response, redactor) = response.into_parts();
        result::output(response, &self.shaping(&redactor, None))
    }

    /// Takes the model's `fields` argument out of `arguments` when the endpoint allows one:
    /// `Ok(None)` when none was sent (or `null`), an argument error when it is not a list of
    /// field paths.
    fn take_fields(&self, arguments: &mut Map) -> Result<Option<Vec<FieldPath>>, ToolOutput> {
        if !self.compiled.endpoint.fields_argument() {
            return Ok(None);
        }
        match arguments.remove(fields::FIELDS_ARGUMENT) {
            None | Some(Json::Null) => Ok(None),
            Some(value) => {
                // A model that encodes the list as a JSON string, as with other arrays.
                let value = match value.as_str().map(crate::json::parse) {
                    Some(Ok(decoded)) => decoded,
                    _ => value,
                };
                fields::parse_list(&value).map(Some).map_err(|e| {
                    ToolOutput::error(
                        ErrorKind::InvalidParameter,
                        format!("argument 'fields': {}", e),
                    )
                })
            }
        }
    }

    fn shaping<'a>(
        &'a self,
        redactor: &'a Redactor,
        asked: Option<&'a [FieldPath]>,
    ) -> Shaping<'a> {
        Shaping {
            pointer: self.compiled.endpoint.response_pointer(),
            fields: &self.compiled.response_fields,
            asked,
            max_output_bytes: self.compiled.max_output_bytes,
            max_attachment_bytes: self.compiled.max_attachment_bytes,
            redactor,
        }
    }

    /// Refuses a call that needs a variable the plugin file left unresolved
    /// ([`HttpPlugin::from_json_deferred`]): its placeholder must never be sent.
    fn check_variables(&self) -> Result<(), ToolOutput> {
        match self.plugin.unset_variable_for(self.compiled.endpoint.name()) {
            None => Ok(()),
            Some(name) => Err(ToolOutput::error(
                ErrorKind::MissingParameter,
                format!(
                    "this tool needs the variable '{}' of its plugin file, which was not set when the plugin was loaded; this is not caused by the arguments",
                    name
                ),
            )),
        }
    }

    /// Sends a call; `stream` takes an event-stream answer's body as it arrives.
    fn exchange(
        &self,
        mut arguments: Map,
        context: &CallContext,
        stream: Option<&Arc<Collector>>,
        target: Target<'_>,
    ) -> Result<Exchanged, ToolOutput> {
        self.check_variables()?;
        // Taken out (and checked) by `call` already; `send` shapes nothing.
        self.take_fields(&mut arguments)?;
        // Every way a call is sent passes here: `call` and `send` alike ask first.
        self.approved(&arguments, context)?;
        let values = args::resolve(
            &self.compiled.endpoint,
            &self.compiled.defs,
            arguments,
            context,
        )?;
        let oauth = match self.auth() {
            Some(Auth::OAuth2(oauth)) => oauth,
            Some(Auth::Digest { username, password }) => {
                let (request, redactor) = self.assemble(&values, context, None, target)?;
                let credentials = DigestCredentials {
                    username: auth::resolve(username, context)?,
                    password: auth::resolve(password, context)?,
                };
                return self.digest_exchange(request, redactor, &credentials, context, stream);
            }
            _ => {
                let (mut request, redactor) = self.assemble(&values, context, None, target)?;
                let response = self.send_one(&mut request, &redactor, context, stream)?;
                return Ok(Exchanged {
                    response,
                    redactor,
                    refused: None,
                });
            }
        };
        let issued = self.access_token(oauth, context)?;
        let (mut request, redactor) =
            self.assemble(&values, context, Some(&issued.access), target)?;
        let response = self.send_one(&mut request, &redactor, context, stream)?;
        if response.status() != 401 {
            return Ok(Exchanged {
                response,
                redactor,
                refused: None,
            });
        }
        // The API refused the token. A cached one may have been revoked early: drop it, and
        // for an idempotent call fetch a new one and try once more (never a POST twice).
        let tokens = &self.plugin.runtime.tokens;
        tokens.refused(&issued);
        let method = request.method();
        if !issued.cached || !method.is_idempotent() {
            let refused = if issued.cached {
                format!(
                    "the API refused the cached access token (HTTP 401); the {} request was not repeated because it is not idempotent, and the next call gets a new token",
                    method
                )
            } else {
                String::from(
                    "the API refused the access token the token endpoint had just issued (HTTP 401): check the scope and audience the plugin asks for",
                )
            };
            return Ok(Exchanged {
                response,
                redactor,
                refused: Some(refused),
            });
        }
        let issued = self.access_token(oauth, context)?;
        let (mut request, redactor) =
            self.assemble(&values, context, Some(&issued.access), target)?;
        let response = self.send_one(&mut request, &redactor, context, stream)?;
        let refused = match response.status() {
            401 => {
                tokens.refused(&issued);
                Some(String::from(
                    "the API refused the access token twice (HTTP 401), a new one included",
                ))
            }
            _ => None,
        };
        Ok(Exchanged {
            response,
            redactor,
            refused,
        })
    }

    /// A call with HTTP Digest auth (RFC 7616): the plugin's current challenge answered at
    /// once when it has one; a 401 with a Digest challenge answered once (a fresh challenge,
    /// or the same one marked `stale`); a second 401 is the answer.
    fn digest_exchange(
        &self,
        mut request: Request,
        mut redactor: Redactor,
        credentials: &DigestCredentials<'_>,
        context: &CallContext,
        stream: Option<&Arc<Collector>>,
    ) -> Result<Exchanged, ToolOutput> {
        redactor.add(credentials.password);
        let session = match &self.compiled.digest {
            Some(own) => own,
            None => &self.plugin.runtime.digest,
        };
        let mut answered = self.digest_answer(&mut request, &mut redactor, credentials, session)?;
        let mut response = self.send_one(&mut request, &redactor, context, stream)?;
        if response.status() == 401 {
            let challenge = digest::challenge(response.headers().get_all("www-authenticate"))
                .map_err(|why| {
                    ToolOutput::error(
                        ErrorKind::AuthFailed,
                        format!(
                            "the API asked for HTTP Digest credentials (HTTP 401) and {}; this is not caused by the arguments",
                            why
                        ),
                    )
                })?;
            let challenge = match challenge {
                // Answered already and refused for a reason other than a stale nonce: the
                // credentials are wrong, and asking again would loop.
                Some(challenge) if answered.is_none() || challenge.stale => challenge,
                _ => {
                    let refused = answered.map(|_| {
                        String::from("the API refused the HTTP Digest credentials (HTTP 401): check the user name and password")
                    });
                    return Ok(Exchanged {
                        response,
                        redactor,
                        refused,
                    });
                }
            };
            session.start(challenge);
            request.headers_mut().remove("authorization");
            answered = self.digest_answer(&mut request, &mut redactor, credentials, session)?;
            response = self.send_one(&mut request, &redactor, context, stream)?;
        }
        let refused = match (&answered, response.status()) {
            (Some(_), 401) => Some(String::from(
                "the API refused the HTTP Digest credentials (HTTP 401): check the user name and password",
            )),
            (Some((challenge, answer)), _) => {
                let info = response.headers().get("authentication-info").unwrap_or("");
                let method = request.method();
                let answer = answer.as_answer(credentials, method.as_str());
                match digest::server_proof(info, challenge, &answer) {
                    Some(false) => {
                        return Err(ToolOutput::error(
                            ErrorKind::AuthFailed,
                            "the API's Digest Authentication-Info does not prove it knows the password (rspauth does not match): the answer was dropped; this is not caused by the arguments",
                        ))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        Ok(Exchanged {
            response,
            redactor,
            refused,
        })
    }

    /// Adds the `Authorization` answering the plugin's current Digest challenge, if it has
    /// one, and returns what it answered with.
    fn digest_answer(
        &self,
        request: &mut Request,
        redactor: &mut Redactor,
        credentials: &DigestCredentials<'_>,
        session: &digest::DigestSession,
    ) -> Result<Option<(digest::Challenge, SentAnswer)>, ToolOutput> {
        let (challenge, count) = match session.next() {
            Some(next) => next,
            None => return Ok(None),
        };
        let sent = SentAnswer {
            uri: request.url().path_and_query().to_string(),
            count,
            cnonce: digest::cnonce(),
        };
        let value = digest::authorization(
            &challenge,
            &sent.as_answer(credentials, request.method().as_str()),
        );
        request
            .headers_mut()
            .append_sensitive("Authorization", &value)
            .map_err(|_| {
                ToolOutput::error(
                    ErrorKind::InvalidParameter,
                    "the digest user name or the server's challenge cannot go in a header (it holds a control character); this is not caused by the arguments",
                )
            })?;
        redactor.add_header_value(&value);
        Ok(Some((challenge, sent)))
    }

    /// An access token for this call: cached, or fetched through the plugin's transport
    /// (and observer) with the endpoint's options, redirects not followed.
    fn access_token(&self, oauth: &OAuth2, context: &CallContext) -> Result<Issued, ToolOutput> {
        let runtime = &self.plugin.runtime;
        let options = self
            .compiled
            .options
            .clone()
            .redirect(http::RedirectPolicy::none());
        let send = |request: &Request, secrets: &Redactor| self.transmit(request, secrets);
        let fetcher = Fetcher {
            send: &send,
            options: &options,
            listener: runtime.token_listener.as_ref(),
            max_output_bytes: self.compiled.max_output_bytes,
        };
        runtime.tokens.token(oauth, context, &fetcher)
    }

    /// Sends one request, reporting progress: when it goes out, and when the response's
    /// head arrives (through the client's head hook, before the body is read; after the
    /// exchange for a transport that never calls the hook).
    fn send_one(
        &self,
        request: &mut Request,
        redactor: &Redactor,
        context: &CallContext,
        stream: Option<&Arc<Collector>>,
    ) -> Result<Response, ToolOutput> {
        if let Some(stream) = stream {
            stream.set_redactor(redactor);
            request.stream_body(stream.clone());
        }
        // Progress messages name the method and the status only: the URL may hold secrets.
        let arrived = |status: u16| format!("the response arrived (HTTP {})", status);
        let told = Arc::new(AtomicBool::new(false));
        if let Some(progress) = context.progress() {
            context.report_progress(
                1,
                Some(2),
                &format!("sending the {} request", request.method()),
            );
            let (progress, told) = (progress.clone(), told.clone());
            // Only the first head is reported: a redirect's or retry's next head is the same
            // step for the user, and progress must increase.
            request.on_head(Arc::new(move |status| {
                if !told.swap(true, Ordering::SeqCst) {
                    progress.report(2, Some(2), &arrived(status));
                }
            }));
        }
        let sent = self.transmit(request, redactor);
        if !told.load(Ordering::SeqCst) {
            match &sent {
                Ok(response) => context.report_progress(2, Some(2), &arrived(response.status())),
                Err(_) => context.report_progress(2, Some(2), "the request failed"),
            }
        }
        // The model reads the message: it names the failure and the origin but not the path,
        // which may hold a hidden parameter's value from the call context (see
        // `crate::design::endpoints`, "Call context").
        sent.map_err(|e| {
            let e = e.with_origin_only();
            if let Some(stream) = stream.filter(|s| s.accepted()) {
                stream.failed(&e);
            }
            result::transport_output(&e, self.compiled.max_output_bytes)
        })
    }

    /// Sends through the plugin's transport, reporting to the observer when there is one.
    /// The observer's URL and error have the call's secrets as `***`.
    fn transmit(&self, request: &Request, redactor: &Redactor) -> Result<Response, http::Error> {
        let runtime = &self.plugin.runtime;
        let send = || {
            runtime
                .transport
                .send(request)
                .map_err(|e| match redactor.is_empty() {
                    true => e,
                    false => e.redact_with(|text| redactor.text(text).into_owned()),
                })
        };
        let observer = match &runtime.observer {
            Some(observer) => observer,
            None => return send(),
        };
        let start = Instant::now();
        let result = send();
        let elapsed = start.elapsed();
        let bytes_sent = render(runtime.client.as_ref(), request, Secrets::Reveal)
            .map_or(0, |bytes| bytes.len() as u64);
        let url = redactor.text(&request.redacted_url()).into_owned();
        let (status, bytes_received, error) = match &result {
            Ok(response) => (Some(response.status()), response.bytes_read(), None),
            Err(e) => (None, 0, Some(e)),
        };
        observer.observe(&Exchange {
            tool: self.compiled.endpoint.name(),
            method: request.method(),
            url: &url,
            status,
            elapsed,
            bytes_sent,
            bytes_received,
            error,
        });
        result
    }
}

fn render(
    client: Option<&Client>,
    request: &Request,
    secrets: Secrets,
) -> Result<Vec<u8>, http::Error> {
    match client {
        Some(client) => client.render(request, secrets),
        None => request.render(secrets),
    }
}

/// What one call's exchange ended with: the response, the secrets the call sent, and why
/// the API refused an OAuth 2.0 token when it did.
/// The user name and password of one call's Digest auth.
struct DigestCredentials<'a> {
    username: &'a str,
    password: &'a str,
}

/// What one Digest answer was made with besides the credentials: kept to check the
/// server's `rspauth`.
struct SentAnswer {
    uri: String,
    count: u64,
    cnonce: String,
}

impl SentAnswer {
    fn as_answer<'a>(
        &'a self,
        credentials: &DigestCredentials<'a>,
        method: &'a str,
    ) -> digest::Answer<'a> {
        digest::Answer {
            username: credentials.username,
            password: credentials.password,
            method,
            uri: &self.uri,
            count: self.count,
            cnonce: &self.cnonce,
        }
    }
}

/// Where a call's request goes: the endpoint, the next page of its list, or the status of
/// the operation it started.
#[derive(Clone, Copy)]
enum Target<'a> {
    Endpoint,
    Page(&'a Url),
    Status(&'a Url),
}

struct Exchanged {
    response: Response,
    redactor: Redactor,
    refused: Option<String>,
}

impl HttpTool {
    /// The time the plugin's client reads and waits with.
    fn time(&self) -> Arc<dyn crate::http::TimeSource> {
        match &self.plugin.runtime.client {
            Some(client) => client.config().time_source.clone(),
            None => Arc::new(crate::http::RealTime),
        }
    }

    /// Asks how a long-running operation is going at `url` until it is done (see
    /// [`operation`]), within the call's deadline from `started`. Past it, the model gets
    /// the status and the URL to ask again with.
    fn poll(
        &self,
        mut exchanged: Exchanged,
        mut url: Url,
        arguments: Map,
        context: &CallContext,
        started: std::time::Instant,
    ) -> Result<Exchanged, ToolOutput> {
        let time = self.time();
        let deadline = started + self.compiled.timeout_call;
        let mut asked = 0u64;
        loop {
            let now_unix = time.unix_time().as_secs();
            let wait = operation::wait(&exchanged.response, now_unix);
            let now = time.now();
            if now + wait >= deadline {
                return Err(self.pending(&exchanged, &url, now.duration_since(started)));
            }
            asked += 1;
            context.report_progress(
                2 + asked,
                None,
                &format!(
                    "the operation is running (HTTP {}); asking again in {} ms",
                    exchanged.response.status(),
                    wait.as_millis()
                ),
            );
            time.sleep(wait);
            let next = self.exchange(arguments.clone(), context, None, Target::Status(&url))?;
            if let Some(moved) = operation::status_url(&next.response) {
                url = moved;
            }
            exchanged = next;
            if !operation::still_running(&exchanged.response) {
                return Ok(exchanged);
            }
        }
    }

    /// What the model reads when the operation is still running at the call's deadline.
    fn pending(&self, exchanged: &Exchanged, url: &Url, waited: std::time::Duration) -> ToolOutput {
        let shown = exchanged.redactor.text(url.as_str()).into_owned();
        let status = exchanged.response.status();
        let mut text = format!(
            "the operation is still running after {} ms (HTTP {}, the call's deadline came first); its status is at {}: call again later to see how it ended, or ask there",
            waited.as_millis(),
            status,
            shown
        );
        cap_text(&mut text, self.compiled.max_output_bytes);
        ToolOutput::success(text).with_status(status)
    }

    /// Points a request built for the first page at the next page's URL (already checked to
    /// be under the plugin's base URL). The plugin's own query values and a query credential
    /// the link left out are added back; the model's parameters are the link's.
    fn go_to(&self, request: &mut Request, url: &Url) {
        let declared: Vec<&str> = self
            .compiled
            .endpoint
            .params
            .iter()
            .map(|p| p.wire_name())
            .collect();
        let mut next = url.clone();
        let kept: Vec<(String, String)> = request
            .url()
            .query_pairs()
            .filter(|(name, _)| !declared.contains(&name.as_str()))
            .filter(|(name, _)| !url.query_pairs().any(|(n, _)| n == *name))
            .collect();
        for (name, value) in kept {
            next.append_query_pair(&name, &value);
        }
        *request.url_mut() = next;
    }

    /// A call of a paged endpoint: the pages read into one result (see [`pages`]).
    fn paged(
        &self,
        pagination: &pages::Pagination,
        arguments: Map,
        context: &CallContext,
        asked: Option<&[FieldPath]>,
    ) -> ToolOutput {
        let endpoint = &self.compiled.endpoint;
        let query_params: Vec<(String, String)> = endpoint
            .params
            .iter()
            .zip(&self.compiled.locations)
            .filter(|(_, location)| **location == Location::Query)
            .map(|(p, _)| (p.wire_name().to_string(), p.name().to_string()))
            .collect();
        let mut fetch = |arguments: &Map, url: Option<&Url>| -> paging::Fetched {
            let target = match url {
                Some(url) => Target::Page(url),
                None => Target::Endpoint,
            };
            let exchanged = self.exchange(arguments.clone(), context, None, target)?;
            Ok((exchanged.response, exchanged.redactor))
        };
        match paging::read(
            pagination,
            arguments,
            &self.compiled.prefix,
            &query_params,
            &mut fetch,
        ) {
            paging::Read::Single(response, redactor) => {
                result::output(response, &self.shaping(&redactor, asked))
            }
            paging::Read::Failed(output) => output,
            paging::Read::Pages(value) => self.json_output(value, None, 200),
        }
    }

    /// A success holding `value`, its text capped as JSON is (cut at element boundaries),
    /// `note` after it; the structured value whole, unless the tool's output schema refuses
    /// it.
    fn json_output(&self, value: Json, note: Option<String>, status: u16) -> ToolOutput {
        let max = self.compiled.max_output_bytes;
        let room = max.saturating_sub(note.as_ref().map_or(0, |n| n.len() + 1));
        let mut text = value.to_string();
        let mut cut = false;
        if text.len() > room {
            if let Some(json_cut) = tool::cap_json(&value, room) {
                text = json_cut;
                cut = true;
            }
        }
        cut |= cap_text(&mut text, room) > 0;
        if let Some(note) = note {
            text.push('\n');
            text.push_str(&note);
        }
        let mut output = ToolOutput::success(text).with_status(status);
        if cut {
            output = output.truncated();
        }
        let fits = match self.compiled.spec.output_schema() {
            Some(schema) => {
                crate::plugin::call::schema_check::check(&value, schema, &self.compiled.defs)
                    .is_ok()
            }
            None => true,
        };
        if fits {
            output = output.with_structured(value);
        }
        output
    }

    /// What the model reads for an event-stream answer: the events read as a JSON array,
    /// and a note when the read stopped before the stream's end. The array is the structured
    /// value, unless the tool's output schema (which describes a JSON answer) refuses it.
    fn stream_output(&self, collector: &Collector, status: u16) -> ToolOutput {
        let (events, stop) = collector.finish();
        let note = stop.map(|stop| stream::stop_note(&stop, &self.compiled.stream_budget));
        self.json_output(Json::Array(events), note, status)
    }
}

impl Tool for HttpTool {
    fn spec(&self) -> &ToolSpec {
        &self.compiled.spec
    }

    fn call(&self, mut arguments: Map, context: &CallContext) -> ToolOutput {
        let asked = match self.take_fields(&mut arguments) {
            Ok(asked) => asked,
            Err(output) => return output,
        };
        if let Some(pagination) = self.compiled.endpoint.pagination() {
            return self.paged(pagination, arguments, context, asked.as_deref());
        }
        let collector = Arc::new(Collector::new(
            self.compiled.stream_budget,
            context.progress().cloned(),
        ));
        let started = self.time().now();
        let kept = arguments.clone();
        let exchanged = self.exchange(arguments, context, Some(&collector), Target::Endpoint);
        if collector.accepted() {
            let status = exchanged.as_ref().map_or(200, |e| e.response.status());
            return self.stream_output(&collector, status);
        }
        let mut exchanged = match exchanged {
            Ok(exchanged) => exchanged,
            Err(output) => return output,
        };
        if let Some(url) = operation::status_url(&exchanged.response) {
            exchanged = match self.poll(exchanged, url, kept, context, started) {
                Ok(exchanged) => exchanged,
                Err(output) => return output,
            };
        }
        let status = exchanged.response.status();
        let shaping = self.shaping(&exchanged.redactor, asked.as_deref());
        let output = result::output(exchanged.response, &shaping);
        match exchanged.refused {
            Some(refused) => {
                let mut text = format!("{}; {}", refused, output.text());
                cap_text(&mut text, self.compiled.max_output_bytes);
                ToolOutput::error(ErrorKind::HttpStatus, text).with_status(status)
            }
            None => output,
        }
    }

    fn operation(&self) -> Option<Operation<'_>> {
        let endpoint = &self.compiled.endpoint;
        Some(Operation {
            method: endpoint.method.as_str(),
            path: endpoint.path(),
            tags: endpoint.tags(),
        })
    }
}

impl fmt::Debug for HttpTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpTool")
            .field("plugin", &self.plugin.name())
            .field("endpoint", &self.compiled.endpoint)
            .finish()
    }
}

/// The request a call would send, built without sending it: for `--dry-run`, logs and
/// exports.
///
/// `Display` writes the exact bytes the plugin's client would write (request line, `Host`,
/// `User-Agent`, headers, `Content-Length`, body), with sensitive header values, secret
/// query values and every other secret the call carries (a credential in a body field, a
/// hidden value from the call context in the path) as `***`; a body that is not UTF-8 is
/// shown lossily.
pub struct DryRun {
    request: Request,
    client: Option<Client>,
    redactor: Redactor,
}

impl DryRun {
    /// The request, as it would be sent.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The request, by value (to send it yourself).
    pub fn into_request(self) -> Request {
        self.request
    }

    /// The exact bytes the plugin's client (or, with a custom transport, a default
    /// [`Client`]) would write; [`Secrets::Reveal`] shows the secrets, [`Secrets::Mask`]
    /// writes each as `***` wherever it is (so `Content-Length` may not match the body
    /// shown).
    ///
    /// # Errors
    ///
    /// What sending would refuse before connecting, such as a request target over the
    /// client's `max_request_target`.
    pub fn render(&self, secrets: Secrets) -> Result<Vec<u8>, http::Error> {
        let bytes = render(self.client.as_ref(), &self.request, secrets)?;
        Ok(match secrets {
            Secrets::Reveal => bytes,
            Secrets::Mask => self.masked(&bytes),
        })
    }

    /// `rendered` with every secret as `***` where the call's values stand: the request
    /// target, header values and the body. The method, the version and header names are the
    /// plugin's, never a secret, so a secret that spells part of one (`ation:` in
    /// `Authorization: `) cannot garble the head.
    fn masked(&self, rendered: &[u8]) -> Vec<u8> {
        let head_end = rendered
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map_or(rendered.len(), |i| i + 4);
        let (head, body) = rendered.split_at(head_end);
        let mut out = Vec::with_capacity(rendered.len());
        for (i, line) in head.split_inclusive(|&b| b == b'\n').enumerate() {
            let split = if i == 0 {
                // `METHOD SP target SP version`: only the target.
                line.iter().position(|&b| b == b' ').map(|start| {
                    let end = line.iter().rposition(|&b| b == b' ').unwrap_or(start);
                    (start + 1, end.max(start + 1))
                })
            } else {
                // `Name: value\r\n`: only the value.
                let end = line.len()
                    - line
                        .iter()
                        .rev()
                        .take_while(|b| b.is_ascii_whitespace())
                        .count();
                line.iter()
                    .position(|&b| b == b':')
                    .map(|colon| (colon + 1, end.max(colon + 1)))
            };
            match split {
                Some((start, end)) => {
                    out.extend_from_slice(&line[..start]);
                    out.extend_from_slice(&self.redactor.bytes(&line[start..end]));
                    out.extend_from_slice(&line[end..]);
                }
                None => out.extend_from_slice(line),
            }
        }
        out.extend_from_slice(&self.redactor.bytes(body));
        out
    }

    /// The URL with every secret as `***`.
    pub(crate) fn masked_url(&self) -> String {
        let url = self.request.redacted_url();
        // The origin is the plugin's, never a secret of the call: only what follows it is
        // searched, so a secret that spells part of it (Basic credentials of user `http` and
        // no password are `http:`) cannot garble the scheme or the host.
        let path_start = url
            .find("://")
            .and_then(|i| url[i + 3..].find('/').map(|j| i + 3 + j))
            .unwrap_or(url.len());
        let (origin, rest) = url.split_at(path_start);
        format!("{}{}", origin, self.redactor.text(rest))
    }

    /// The body with every secret as `***`.
    pub(crate) fn masked_body(&self) -> Vec<u8> {
        self.redactor.bytes(self.request.body()).into_owned()
    }
}

impl fmt::Display for DryRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.render(Secrets::Mask) {
            Ok(bytes) => f.write_str(&String::from_utf8_lossy(&bytes)),
            Err(e) => write!(f, "{} (it would not be sent: {})", self.request, e),
        }
    }
}

impl fmt::Debug for DryRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DryRun")
            .field("request", &self.request)
            .finish()
    }
}

/// Making the tools: here rather than beside `HttpPlugin`, so `http_plugin.rs` needs nothing
/// above it.
impl HttpPlugin {
    /// The tools, one for each endpoint, in order; they share this plugin's transport.
    pub fn tools(&self) -> Vec<HttpTool> {
        let shared = Arc::new(self.clone());
        self.decl
            .endpoints
            .iter()
            .map(|c| HttpTool::new(shared.clone(), c.clone()))
            .collect()
    }

    /// The tool for the endpoint named `name`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnknownTool`] when no endpoint has that name; the message lists the
    /// names there are.
    pub fn tool(&self, name: &str) -> Result<HttpTool, Error> {
        match self.decl.endpoints.iter().find(|c| c.endpoint.name == name) {
            Some(c) => Ok(HttpTool::new(Arc::new(self.clone()), c.clone())),
            None => Err(Error::new(
                error::ErrorKind::UnknownTool,
                "",
                tool::unknown_name_message(
                    "tool",
                    name,
                    self.decl.endpoints.iter().map(|c| c.endpoint.name.as_str()),
                ),
            )),
        }
    }

    /// Builds the exact request a call of tool `name` with `arguments` (the model's JSON
    /// text) would send, and sends nothing: for `--dry-run` and logs. The request is signed
    /// and its file parts resolved, as a call would.
    ///
    /// # Errors
    ///
    /// The output the model would get instead: an unknown tool, arguments that are not a JSON
    /// object (or over [`tool::DEFAULT_MAX_ARGUMENT_BYTES`]), or any argument error.
    pub fn dry_run(
        &self,
        name: &str,
        arguments: &str,
        context: &CallContext,
    ) -> Result<DryRun, ToolOutput> {
        let tool = self.tool(name).map_err(|err| {
            ToolOutput::error(tool::ErrorKind::UnknownTool, err.message().to_string())
        })?;
        let arguments = tool::parse_arguments(arguments, tool::DEFAULT_MAX_ARGUMENT_BYTES)?;
        tool.dry_run(arguments, context)
    }
}

impl ToolRegistry {
    /// Adds every endpoint of `plugin` as a tool: all of them, or none when a name is taken.
    /// The tools share the plugin's transport (one keep-alive pool).
    ///
    /// # Errors
    ///
    /// [`tool::ErrorKind::DuplicateName`] when a tool with one of the names is already
    /// registered; the registry is left unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use httptool::plugin::{Endpoint, HttpPlugin, Param};
    /// use httptool::tool::ToolRegistry;
    ///
    /// let plugin = HttpPlugin::builder("weather", "https://api.example.com")
    ///     .endpoint(Endpoint::get("getWeather", "/v1/weather").param(Param::query("city")))
    ///     .build()?;
    /// let mut registry = ToolRegistry::new();
    /// registry.add_plugin(&plugin)?;
    /// assert!(registry.add_plugin(&plugin).is_err()); // the names are taken
    /// assert_eq!(registry.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_plugin(&mut self, plugin: &HttpPlugin) -> Result<(), tool::Error> {
        self.add_all(
            plugin
                .tools()
                .into_iter()
                .map(|t| Arc::new(t) as Arc<dyn Tool>),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::{AddressPolicy, Config};
    use crate::plugin::Endpoint;
    use std::net::TcpListener;

    #[test]
    fn transport_errors_never_show_hidden_path_values() {
        // Regression: a transport error's message ended with the request's URL, whose path
        // held the value of a hidden parameter from the call context.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let plugin = HttpPlugin::builder("p", format!("http://127.0.0.1:{port}"))
            .endpoint(
                Endpoint::get("get", "/tenants/{tenant}/items")
                    .param(crate::plugin::Param::path("tenant").hidden(true)),
            )
            .build()
            .unwrap();
        let context = CallContext::new().with("tenant", "tenant-s3cret");
        let out = plugin.tool("get").unwrap().call(Map::new(), &context);
        assert_eq!(out.error_kind(), Some(ErrorKind::Transport), "{out:?}");
        assert!(
            out.text().starts_with(
                "could not get a response from the API: could not connect to 127.0.0.1:"
            ),
            "{}",
            out.text()
        );
        assert!(!out.text().contains("s3cret"), "{}", out.text());
    }

    #[test]
    fn a_strict_client_given_to_a_plugin_stays_strict() {
        // Regression: the plugin's requests carried `allow_all`, which replaced the policy
        // of the client, so a loopback address was reached.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let client = Client::with_config(Config::new().address_policy(AddressPolicy::strict()));
        let plugin = HttpPlugin::builder("p", format!("http://127.0.0.1:{port}"))
            .endpoint(Endpoint::get("get", "/x"))
            .build()
            .unwrap()
            .with_client(client);
        let tool = plugin.tool("get").unwrap();
        let out = tool.call(Map::new(), &CallContext::new());
        assert_eq!(out.error_kind(), Some(ErrorKind::AddressRefused), "{out:?}");
        // Nothing reached the server.
        assert!(listener.accept().is_err());
    }
}
