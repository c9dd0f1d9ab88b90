//! A plugin's request as a curl command: built by the plugin layer (a dry run), then written
//! out option by option. The rules are in the module docs of [`curl`](super), "Converting
//! back to curl".

use std::sync::Arc;

use super::error::{Error, Reason};
use super::multipart;
use super::quote::quote;
use super::secret::MASK;
use crate::http::Secrets;
use crate::json::{Json, Map};
use crate::plugin::{
    Auth, ConfigValue, DryRun, Endpoint, FilePart, FileResolver, Grant, HttpPlugin, OAuth2, Param,
    ParamType,
};
use crate::tool::{self, CallContext};

/// How [`to_curl_with`] writes a command.
///
/// # Examples
///
/// ```
/// use httptool::curl::{self, ExportOptions};
/// use httptool::plugin::{Auth, ConfigValue, Endpoint, HttpPlugin, Param};
/// use httptool::tool::CallContext;
///
/// let plugin = HttpPlugin::builder("notes", "https://api.example.com")
///     .auth(Auth::bearer(ConfigValue::context("token")))
///     .endpoint(Endpoint::get("list_notes", "/notes").param(Param::query("tag")))
///     .build()?;
/// let options = ExportOptions::new()
///     .reveal_secrets(true)
///     .context(CallContext::new().with("token", "t-123"));
/// let command = curl::to_curl_with(&plugin, "list_notes", Some(r#"{"tag":"home"}"#), &options)?;
/// assert_eq!(
///     command,
///     "curl 'https://api.example.com/notes?tag=home' -H 'User-Agent: httptool/0.1.0' \
///      -H 'Authorization: Bearer t-123'"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    reveal_secrets: bool,
    context: CallContext,
    multiline: bool,
}

impl ExportOptions {
    /// The defaults: secrets as `***`, an empty call context, one line.
    pub fn new() -> ExportOptions {
        ExportOptions::default()
    }

    /// Writes secrets (auth, secret headers and query values, context values) as they are
    /// sent. Defaults to `false`: each is `***`.
    #[must_use]
    pub fn reveal_secrets(mut self, reveal: bool) -> ExportOptions {
        self.reveal_secrets = reveal;
        self
    }

    /// The call context (a user's token, a tenant id) the request is built with. Context
    /// entries the plugin needs and this lacks become `<key>` placeholders. Defaults to
    /// empty.
    #[must_use]
    pub fn context(mut self, context: CallContext) -> ExportOptions {
        self.context = context;
        self
    }

    /// Writes each option on its own line, the lines joined with ` \` (a backslash before
    /// the newline). Defaults to `false`: one line.
    #[must_use]
    pub fn multiline(mut self, multiline: bool) -> ExportOptions {
        self.multiline = multiline;
        self
    }
}

/// The curl command for a call of `endpoint` with no arguments: defaults where the
/// parameters have them, `<name>` placeholders for required ones without (see the [module
/// docs](super)), secrets as `***`.
///
/// `endpoint` names the tool; it may be left out (`None`) when the plugin has one.
///
/// # Errors
///
/// As [`to_curl_with`].
///
/// # Examples
///
/// ```
/// use httptool::curl;
/// use httptool::plugin::{Endpoint, HttpPlugin, Param, ParamType};
///
/// let plugin = HttpPlugin::builder("weather", "https://api.example.com")
///     .header("Accept", "application/json")
///     .endpoint(
///         Endpoint::get("get_weather", "/v1/weather")
///             .param(Param::query("city").wire_name("q").required(true))
///             .param(Param::query("days").ty(ParamType::Integer).default(1)),
///     )
///     .build()?;
/// assert_eq!(
///     curl::to_curl(&plugin, "get_weather")?,
///     "curl 'https://api.example.com/v1/weather?q=<city>&days=1' \
///      -H 'User-Agent: httptool/0.1.0' -H 'Accept: application/json'"
/// );
/// assert_eq!(curl::to_curl(&plugin, None)?, curl::to_curl(&plugin, "get_weather")?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_curl<'a>(
    plugin: &HttpPlugin,
    endpoint: impl Into<Option<&'a str>>,
) -> Result<String, Error> {
    to_curl_with(plugin, endpoint, None, &ExportOptions::new())
}

/// The curl command that sends exactly the request a call of `endpoint` with `arguments`
/// (the model's JSON text) would send, secrets as `***`.
///
/// # Errors
///
/// As [`to_curl_with`].
///
/// # Examples
///
/// ```
/// use httptool::curl;
/// use httptool::plugin::{Endpoint, HttpPlugin, Param, ParamType};
///
/// let plugin = HttpPlugin::builder("tickets", "https://api.example.com/v1")
///     .endpoint(
///         Endpoint::post("create_ticket", "/tickets")
///             .param(Param::body("title").required(true))
///             .param(Param::body("priority").ty(ParamType::Integer)),
///     )
///     .build()?;
/// let command = curl::to_curl_call(&plugin, None, r#"{"title": "It's on fire", "priority": 1}"#)?;
/// assert_eq!(
///     command,
///     "curl https://api.example.com/v1/tickets -H 'User-Agent: httptool/0.1.0' \
///      -H 'Content-Type: application/json' \
///      --data-binary '{\"title\":\"It'\\''s on fire\",\"priority\":1}'"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_curl_call<'a>(
    plugin: &HttpPlugin,
    endpoint: impl Into<Option<&'a str>>,
    arguments: &str,
) -> Result<String, Error> {
    to_curl_with(plugin, endpoint, Some(arguments), &ExportOptions::new())
}

/// The curl command for a call of `endpoint`, with `arguments` (the model's JSON text; with
/// `None`, defaults and `<name>` placeholders) and `options`.
///
/// The request is built by the plugin layer, as a call would build it (a dry run), and
/// written out: the method (`-X` only where curl would pick another, `-I` for HEAD), the
/// URL with its encoded query, every header in order but `Host` and `Content-Length`
/// (curl writes the same ones), `-H 'User-Agent:'` when the request has none and
/// `-H 'Content-Type:'` when a body has none (so curl adds neither), and the body with
/// `--data-binary`, byte for byte. Multipart bodies with file parts are written as
/// `--form-string` and `-F name=@HANDLE` parts (curl then picks its own boundary and reads
/// the file named by the handle). See the [module docs](super) for what differs from
/// httptool's own request.
///
/// # Errors
///
/// [`ErrorKind::EndpointRequired`](crate::curl::ErrorKind::EndpointRequired) when `endpoint` is `None` and the plugin has several,
/// [`ErrorKind::UnknownEndpoint`](crate::curl::ErrorKind::UnknownEndpoint) for a name the plugin lacks (listing the names it has),
/// [`ErrorKind::Call`](crate::curl::ErrorKind::Call) when the arguments do not make a request (the message a model would
/// read), [`ErrorKind::Request`](crate::curl::ErrorKind::Request) when the client would refuse to send it, and
/// [`ErrorKind::Unrepresentable`](crate::curl::ErrorKind::Unrepresentable) for a body holding a NUL byte.
///
/// With OAuth 2.0 auth ([`OAuth2`]) the access token is not known until a call fetches it:
/// the command has `-H 'Authorization: Bearer ***'` and starts with a `#` comment line that
/// says so and names the token URL.
///
/// # Security
///
/// Secrets are `***` unless [`ExportOptions::reveal_secrets`]; the command is quoted so
/// that a shell passes every byte to curl unchanged and runs nothing.
pub fn to_curl_with<'a>(
    plugin: &HttpPlugin,
    endpoint: impl Into<Option<&'a str>>,
    arguments: Option<&str>,
    options: &ExportOptions,
) -> Result<String, Error> {
    let endpoint = pick(plugin, endpoint.into())?;
    let command = command(plugin, endpoint, arguments, options)?;
    Ok(match endpoint.auth_or(plugin.auth()) {
        Some(Auth::OAuth2(oauth)) => format!("{}\n{}", oauth_comment(oauth), command),
        _ => command,
    })
}

/// The shell comment before a command whose plugin gets OAuth 2.0 tokens: the token is not
/// known until a call fetches it.
fn oauth_comment(oauth: &OAuth2) -> String {
    let grant = match oauth.grant() {
        Grant::RefreshToken { .. } => "refresh token grant, RFC 6749 section 6",
        _ => "client credentials grant, RFC 6749 section 4.4",
    };
    // A URL from the environment or the context is the application's, maybe per tenant.
    let at = match (oauth.token_url().is_external(), oauth.token_url().value()) {
        (false, Some(url)) => url.to_string(),
        _ => String::from("the configured token url"),
    };
    format!(
        "# the access token is fetched at run time (OAuth 2.0 {}) from {}: put it in place of {}",
        grant,
        at.replace(['\r', '\n'], ""),
        MASK
    )
}

/// The command itself, without the OAuth 2.0 comment.
fn command(
    plugin: &HttpPlugin,
    endpoint: &Endpoint,
    arguments: Option<&str>,
    options: &ExportOptions,
) -> Result<String, Error> {
    let (words, placeholders) = words(plugin, endpoint, arguments, options, 0)?;
    if placeholders.list.is_empty() {
        return Ok(join(&words, options.multiline));
    }
    // Stand-ins are found again by their text, so they must be text the request does not
    // hold itself (a header may hold any digits). The request built with another family's
    // stand-ins shows its own text: pick a family none of whose text occurs there.
    let (other, _) = self::words(plugin, endpoint, arguments, options, 1)?;
    let family = (0..FAMILIES)
        .filter(|&family| family != 1)
        .find(|&family| Placeholders::new(family).is_clear_in(&other))
        .ok_or(Error::from(Reason::Unrepresentable {
            what: "the request holds the text of every placeholder stand-in",
        }))?;
    let (words, placeholders) = if family == 0 {
        (words, placeholders)
    } else {
        self::words(plugin, endpoint, arguments, options, family)?
    };
    // Stand-ins are replaced before quoting: `<` and `>` must end up quoted.
    let mut groups: Groups = Vec::with_capacity(words.len());
    for group in &words {
        let mut filled = Vec::with_capacity(group.len());
        for word in group {
            filled.push(placeholders.fill(word));
        }
        groups.push(filled);
    }
    Ok(join(&groups, options.multiline))
}

/// The words of a command, grouped by option.
type Groups = Vec<Vec<Vec<u8>>>;

/// The words of the command, grouped by option, with the stand-ins of `family` still in
/// them, and those stand-ins.
fn words(
    plugin: &HttpPlugin,
    endpoint: &Endpoint,
    arguments: Option<&str>,
    options: &ExportOptions,
    family: u32,
) -> Result<(Groups, Placeholders), Error> {
    let mut placeholders = Placeholders::new(family);
    let files = endpoint.params().iter().any(Param::is_file);
    let dry = dry_run(plugin, endpoint, arguments, options, &mut placeholders)?;
    let secrets = if options.reveal_secrets {
        Secrets::Reveal
    } else {
        Secrets::Mask
    };
    let rendered = dry.render(secrets).map_err(|e| {
        Error::from(Reason::Request {
            reason: e.to_string(),
        })
    })?;
    let request = dry.request();
    let masked_body;
    let method = request.method();
    let auth = endpoint.auth_or(plugin.auth());
    let (head, auth_options) = auth_options(
        auth,
        oauth_head(auth, Head::read(&rendered, request.host())),
        secrets,
    );
    let command = Command {
        method: method.as_str(),
        url: match secrets {
            Secrets::Reveal => request.url().as_str().to_string(),
            Secrets::Mask => dry.masked_url(),
        },
        head,
        body: match secrets {
            Secrets::Reveal => request.body(),
            Secrets::Mask => {
                masked_body = dry.masked_body();
                &masked_body
            }
        },
        files,
    };
    let mut groups = command.groups()?;
    groups.extend(auth_options);
    Ok((groups, placeholders))
}

/// The curl options of auth that curl computes itself at run time: `--digest -u` for
/// Digest (curl answers the challenge), `--aws-sigv4 -u` for AWS Signature Version 4 (curl
/// signs, at its own time; the plugin's `Authorization` and `X-Amz-Date` are left out).
/// The user name and secret are `***` unless revealed.
fn auth_options(auth: Option<&Auth>, mut head: Head, secrets: Secrets) -> (Head, Groups) {
    let shown = |value: &ConfigValue| match (secrets, value.value()) {
        (Secrets::Reveal, Some(text)) => text.to_string(),
        _ => MASK.to_string(),
    };
    let word = |text: &str| text.as_bytes().to_vec();
    let groups = match auth {
        Some(Auth::Digest { username, password }) => vec![
            vec![word("--digest")],
            vec![
                word("-u"),
                word(&format!("{}:{}", shown(username), shown(password))),
            ],
        ],
        Some(Auth::AwsSigV4(sigv4)) => {
            head.headers.retain(|(name, _)| {
                !["authorization", "x-amz-date", "x-amz-content-sha256"]
                    .contains(&name.to_ascii_lowercase().as_str())
            });
            let plain = |value: &ConfigValue| value.value().unwrap_or(MASK).to_string();
            vec![
                vec![
                    word("--aws-sigv4"),
                    word(&format!(
                        "aws:amz:{}:{}",
                        plain(sigv4.region()),
                        plain(sigv4.service())
                    )),
                ],
                vec![
                    word("-u"),
                    word(&format!(
                        "{}:{}",
                        shown(sigv4.access_key_id()),
                        shown(sigv4.secret_access_key())
                    )),
                ],
            ]
        }
        _ => Vec::new(),
    };
    (head, groups)
}

/// The request a call sends, built by the plugin layer: with the arguments given, or
/// stand-ins for the required ones; with stand-ins for the context entries it lacks; file
/// parts named by their handles.
fn dry_run(
    plugin: &HttpPlugin,
    endpoint: &Endpoint,
    arguments: Option<&str>,
    options: &ExportOptions,
    placeholders: &mut Placeholders,
) -> Result<DryRun, Error> {
    let map = match arguments {
        Some(text) => {
            tool::parse_arguments(text, tool::DEFAULT_MAX_ARGUMENT_BYTES).map_err(|e| {
                Error::from(Reason::Call {
                    kind: e.kind(),
                    message: e.message().to_string(),
                })
            })?
        }
        None => placeholders.arguments(endpoint),
    };
    let context = placeholders.context(plugin, endpoint, &options.context);
    let mut plugin = plugin.clone();
    if endpoint.params().iter().any(Param::is_file) {
        plugin = plugin.with_file_resolver(Arc::new(FileHandles));
    }
    let tool = plugin.tool(endpoint.name()).map_err(|e| {
        Error::from(Reason::Call {
            kind: tool::ErrorKind::UnknownTool,
            message: e.message().to_string(),
        })
    })?;
    tool.dry_run(map, &context).map_err(|output| {
        Error::from(Reason::Call {
            kind: output
                .error_kind()
                .unwrap_or(tool::ErrorKind::InvalidParameter),
            message: output.text().to_string(),
        })
    })
}

/// The endpoint named, or the only one.
fn pick<'p>(plugin: &'p HttpPlugin, name: Option<&str>) -> Result<&'p Endpoint, Error> {
    let available = || plugin.endpoints().map(|e| e.name().to_string()).collect();
    match name {
        Some(name) => plugin.endpoint(name).ok_or_else(|| {
            Error::from(Reason::UnknownEndpoint {
                name: name.chars().take(64).collect(),
                available: available(),
            })
        }),
        None => {
            let mut endpoints = plugin.endpoints();
            match (endpoints.next(), endpoints.next()) {
                (Some(only), None) => Ok(only),
                _ => Err(Error::from(Reason::EndpointRequired {
                    available: available(),
                })),
            }
        }
    }
}

/// With OAuth 2.0 auth, the token is fetched at call time: `Authorization: Bearer ***`
/// whether secrets are revealed or not.
fn oauth_head(auth: Option<&Auth>, mut head: Head) -> Head {
    if let Some(Auth::OAuth2(_)) = auth {
        for (name, value) in &mut head.headers {
            if name.eq_ignore_ascii_case("authorization") {
                *value = format!("Bearer {}", MASK);
            }
        }
    }
    head
}

/// The header lines of a rendered request, in order, without `Host` (unless `host` is the
/// request's own, a virtual host), `Content-Length` and `Proxy-Authorization` (curl writes
/// the first two itself; the last is for a proxy).
struct Head {
    headers: Vec<(String, String)>,
    content_length: bool,
}

impl Head {
    fn read(rendered: &[u8], host: Option<&str>) -> Head {
        let end = rendered
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or(rendered.len());
        // The client writes header names and values that are text.
        let text = String::from_utf8_lossy(&rendered[..end]);
        let mut head = Head {
            headers: Vec::new(),
            content_length: false,
        };
        for line in text.split("\r\n").skip(1) {
            let (name, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match name.to_ascii_lowercase().as_str() {
                "host" if host.is_some() => {
                    head.headers.push((name.to_string(), value.to_string()))
                }
                "host" | "proxy-authorization" => {}
                "content-length" => head.content_length = true,
                _ => head.headers.push((name.to_string(), value.to_string())),
            }
        }
        head
    }

    fn has(&self, name: &str) -> bool {
        self.headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }
}

/// What the command is made of.
struct Command<'r> {
    method: &'r str,
    url: String,
    head: Head,
    body: &'r [u8],
    files: bool,
}

impl Command<'_> {
    /// The words, grouped by option: the first group is `curl`, the method and the URL.
    fn groups(&self) -> Result<Vec<Vec<Vec<u8>>>, Error> {
        let word = |text: &str| text.as_bytes().to_vec();
        let form = if self.files { self.form_parts()? } else { None };
        let has_body = form.is_some() || self.head.content_length || !self.body.is_empty();
        let implied = if has_body { "POST" } else { "GET" };
        let mut first = vec![word("curl")];
        if self.method == "HEAD" {
            first.push(word("-I"));
        } else if self.method != implied {
            first.push(word("-X"));
            first.push(word(self.method));
        }
        if self.url.contains(['[', ']', '{', '}']) {
            first.push(word("--globoff"));
        }
        first.push(word(&self.url));
        let mut groups = vec![first];
        for (name, value) in &self.head.headers {
            if form.is_some() && name.eq_ignore_ascii_case("content-type") {
                continue; // curl writes its own, with its boundary
            }
            let header = if value.is_empty() {
                format!("{};", name)
            } else {
                format!("{}: {}", name, value)
            };
            groups.push(vec![word("-H"), word(&header)]);
        }
        if !self.head.has("user-agent") {
            groups.push(vec![word("-H"), word("User-Agent:")]);
        }
        match form {
            Some(parts) => groups.extend(parts),
            None if has_body => {
                if !self.head.has("content-type") {
                    groups.push(vec![word("-H"), word("Content-Type:")]);
                }
                groups.push(self.data()?);
            }
            None => {}
        }
        Ok(groups)
    }

    /// `--data-binary BODY`, or `--data-raw` for a body starting with `@`, which
    /// `--data-binary` would read as a file name (JSON, urlencoded and multipart bodies never
    /// do, but a signer may set any body).
    fn data(&self) -> Result<Vec<Vec<u8>>, Error> {
        if self.body.contains(&0) {
            return Err(Error::from(Reason::Unrepresentable {
                what: "the body holds a NUL byte, which no command-line argument can",
            }));
        }
        let option = if self.body.first() == Some(&b'@') {
            "--data-raw"
        } else {
            "--data-binary"
        };
        Ok(vec![option.as_bytes().to_vec(), self.body.to_vec()])
    }

    /// The multipart body as `--form-string name=value` and `-F name=@handle` parts, or
    /// `None` when the body is not multipart.
    fn form_parts(&self) -> Result<Option<Vec<Vec<Vec<u8>>>>, Error> {
        let boundary = self
            .head
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
            .and_then(|(_, v)| multipart::boundary(v));
        let boundary = match boundary {
            Some(boundary) => boundary,
            None => return Ok(None),
        };
        let parts =
            multipart::parse(self.body, boundary).ok_or(Error::from(Reason::Unrepresentable {
                what: "the multipart body does not read back into its parts",
            }))?;
        let mut groups = Vec::with_capacity(parts.len());
        for part in parts {
            if part.name.contains(['=', '"', '\r', '\n']) {
                return Err(Error::from(Reason::Unrepresentable {
                    what: "a multipart field name holds `=`, a quote or a line break, which -F \
                           cannot write",
                }));
            }
            if part.content.contains(&0) {
                return Err(Error::from(Reason::Unrepresentable {
                    what: "a multipart field holds a NUL byte, which no command-line argument \
                           can",
                }));
            }
            let mut value = part.name.clone().into_bytes();
            value.push(b'=');
            match part.filename {
                Some(handle) => {
                    value.push(b'@');
                    value.extend_from_slice(form_quoted(&handle).as_bytes());
                    groups.push(vec![b"-F".to_vec(), value]);
                }
                None => {
                    value.extend_from_slice(&part.content);
                    groups.push(vec![b"--form-string".to_vec(), value]);
                }
            }
        }
        Ok(Some(groups))
    }
}

/// A file name for `-F name=@file`: as it is, or between double quotes (with `\"` and `\\`)
/// when it holds a character `-F` reads specially.
fn form_quoted(name: &str) -> String {
    if !name.contains([';', ',', '"', '\\']) && !name.starts_with(' ') && !name.ends_with(' ') {
        return name.to_string();
    }
    let escaped = name.replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"{}\"", escaped)
}

/// The groups quoted and joined: one line, or a line a group.
fn join(groups: &[Vec<Vec<u8>>], multiline: bool) -> String {
    let between_groups = if multiline { " \\\n  " } else { " " };
    let mut command = String::new();
    for (index, group) in groups.iter().enumerate() {
        if index > 0 {
            command.push_str(between_groups);
        }
        for (position, word) in group.iter().enumerate() {
            if position > 0 {
                command.push(' ');
            }
            command.push_str(&quote(word));
        }
    }
    command
}

/// A file resolver for exports: each handle becomes an empty part named after the handle,
/// which the command then attaches with `-F name=@handle`.
struct FileHandles;

impl FileResolver for FileHandles {
    fn resolve(
        &self,
        handle: &str,
        _context: &CallContext,
    ) -> Result<FilePart, Box<dyn std::error::Error + Send + Sync>> {
        Ok(FilePart::new(
            handle,
            "application/octet-stream",
            Vec::new(),
        ))
    }
}

/// Stand-in values for what the export is not given: each is a value of the right type
/// (`httptool-placeholder-00-000001`, or a 15-digit number starting `918273645`), replaced by
/// `<name>` in the finished command. A family (the `00`, the `918273645`) is picked whose
/// text the request does not hold itself.
struct Placeholders {
    /// What every string stand-in of the family starts with.
    string_prefix: String,
    /// The first 9 digits of every number stand-in of the family: a `9`, then no other `9`,
    /// so that no stand-in can be found starting inside text that is not one (see
    /// [`Placeholders::is_clear_in`]).
    number_prefix: i64,
    /// `(stand-in, shown as)`.
    list: Vec<(String, String)>,
}

/// How many families of stand-ins [`to_curl_with`] tries (some are skipped: see
/// [`Placeholders::new`]).
const FAMILIES: u32 = 32;

impl Placeholders {
    /// The stand-ins of `family`.
    fn new(family: u32) -> Placeholders {
        Placeholders {
            string_prefix: format!("httptool-placeholder-{:02}-", family),
            number_prefix: 918_273_645 + 10 * i64::from(family),
            list: Vec::new(),
        }
    }

    /// Whether no word holds the text every stand-in of this family starts with. When so, a
    /// word of the same request built with these stand-ins holds them only where they were
    /// put: a string stand-in starts with `h` and has no other `httptool` in it, a number
    /// stand-in starts with `9` and has no other `9` in its first 9 digits, so a match cannot
    /// begin inside the request's own text without that text holding the prefix. A family
    /// whose number prefix holds a second `9` is never clear.
    fn is_clear_in(&self, words: &Groups) -> bool {
        let number = self.number_prefix.to_string();
        if number[1..].contains('9') {
            return false;
        }
        let found = |word: &[u8], prefix: &[u8]| word.windows(prefix.len()).any(|w| w == prefix);
        words.iter().flatten().all(|word| {
            !found(word, self.string_prefix.as_bytes()) && !found(word, number.as_bytes())
        })
    }

    fn string(&mut self, shown: &str) -> String {
        let standin = format!("{}{:06}", self.string_prefix, self.list.len());
        self.list.push((standin.clone(), format!("<{}>", shown)));
        standin
    }

    fn number(&mut self, shown: &str) -> Json {
        // 15 digits, within the integers a JSON number carries exactly (below 2^53).
        let standin = self.number_prefix * 1_000_000 + self.list.len() as i64;
        self.list
            .push((standin.to_string(), format!("<{}>", shown)));
        Json::from(standin)
    }

    /// A value of type `ty`: a stand-in, the first enum value, `false` for booleans; an
    /// object with every property. Recursion follows the declared type, which the plugin's
    /// checks bound.
    fn value(&mut self, ty: &ParamType, enum_values: &[Json], shown: &str) -> Json {
        if let Some(first) = enum_values.first() {
            return first.clone();
        }
        match ty {
            ParamType::String | ParamType::Any => Json::from(self.string(shown)),
            ParamType::Integer | ParamType::Number => self.number(shown),
            ParamType::Boolean => Json::Bool(false),
            ParamType::Array(items) => Json::Array(vec![self.value(items, &[], shown)]),
            ParamType::Object(properties) => {
                let mut map = Map::new();
                for property in properties {
                    let shown = format!("{}.{}", shown, property.name());
                    let value = self.value(property.ty(), &[], &shown);
                    map.insert(property.name(), value);
                }
                Json::Object(map)
            }
        }
    }

    /// Arguments for the required parameters without a default.
    fn arguments(&mut self, endpoint: &Endpoint) -> Map {
        let mut map = Map::new();
        for param in endpoint.params() {
            if param.is_hidden() || !param.is_required() || param.default().is_some() {
                continue;
            }
            let value = self.value(param.ty(), param.enum_values(), param.name());
            map.insert(param.name(), value);
        }
        map
    }

    /// `given`, plus stand-ins for the context entries the request needs and `given` lacks.
    fn context(
        &mut self,
        plugin: &HttpPlugin,
        endpoint: &Endpoint,
        given: &CallContext,
    ) -> CallContext {
        let mut context = given.clone();
        let mut keys: Vec<String> = Vec::new();
        if let Some(auth) = endpoint.auth_or(plugin.auth()) {
            keys.extend(
                auth_values(auth)
                    .iter()
                    .filter_map(|v| v.context_key())
                    .map(str::to_string),
            );
        }
        let own = endpoint
            .endpoint_headers()
            .iter()
            .map(|(n, v)| (n.as_str(), v));
        let statics = plugin.headers().chain(plugin.query()).chain(own);
        keys.extend(
            statics
                .filter_map(|(_, v)| v.context_key())
                .map(str::to_string),
        );
        for key in keys {
            if !context.contains_key(&key) {
                let standin = self.string(&key);
                context.insert(key, standin);
            }
        }
        for param in endpoint.params() {
            let needed = param.is_hidden() && param.is_required() && param.default().is_none();
            if needed && !context.contains_key(param.context_key()) {
                let value = self.value(param.ty(), param.enum_values(), param.context_key());
                let text = match value.as_str() {
                    Some(text) => text.to_string(),
                    None => value.to_string(),
                };
                context.insert(param.context_key(), text);
            }
        }
        context
    }

    /// `word` with every stand-in replaced by what it shows.
    fn fill(&self, word: &[u8]) -> Vec<u8> {
        let mut out = word.to_vec();
        // Longest first, so no stand-in is replaced inside a longer one.
        let mut list: Vec<&(String, String)> = self.list.iter().collect();
        crate::sort::by_key(&mut list, |(standin, _)| {
            crate::sort::descending(standin.len())
        });
        for (standin, shown) in list {
            out = replace_all(&out, standin.as_bytes(), shown.as_bytes());
        }
        out
    }
}

/// `hay` with every `from` replaced by `to`.
fn replace_all(hay: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    if from.is_empty() {
        return hay.to_vec();
    }
    let mut out = Vec::with_capacity(hay.len());
    let mut rest = hay;
    while let Some(at) = rest.windows(from.len()).position(|w| w == from) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(to);
        rest = &rest[at + from.len()..];
    }
    out.extend_from_slice(rest);
    out
}

fn auth_values(auth: &Auth) -> Vec<&ConfigValue> {
    match auth {
        Auth::Bearer { token } => vec![token],
        Auth::Basic { username, password } | Auth::Digest { username, password } => {
            vec![username, password]
        }
        Auth::Header { value, .. } | Auth::Query { value, .. } => vec![value],
        Auth::OAuth2(oauth) => oauth.values(),
        Auth::AwsSigV4(sigv4) => sigv4.values(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_lines_without_what_curl_writes() {
        let head = Head::read(
            b"POST /x HTTP/1.1\r\nHost: h\r\nUser-Agent: u\r\nX-Empty: \r\nContent-Length: 2\r\n\r\n{}",
            None,
        );
        assert_eq!(
            head.headers,
            vec![
                ("User-Agent".to_string(), "u".to_string()),
                ("X-Empty".to_string(), String::new())
            ]
        );
        assert!(head.content_length);
    }

    #[test]
    fn file_names_are_quoted_for_form() {
        assert_eq!(form_quoted("cat.jpg"), "cat.jpg");
        assert_eq!(form_quoted("a;b.jpg"), "\"a;b.jpg\"");
        assert_eq!(form_quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
    }

    #[test]
    fn placeholders_fill_longest_first() {
        let mut placeholders = Placeholders::new(0);
        let standins: Vec<String> = (0..12)
            .map(|i| placeholders.string(&format!("p{}", i)))
            .collect();
        let text = standins.join(" ");
        let expected: Vec<String> = (0..12).map(|i| format!("<p{}>", i)).collect();
        assert_eq!(
            placeholders.fill(text.as_bytes()),
            expected.join(" ").into_bytes()
        );
        assert_eq!(replace_all(b"aXbXX", b"X", b"yy"), b"ayybyyyy");
    }
}
