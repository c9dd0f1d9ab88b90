//! What a curl command asks for, as [`parse`](super::parse) reads it.

use std::fmt;
use std::time::Duration;

use super::secret::{mask_cookie, mask_url, MASK};
use crate::http::is_credential_name;

/// A curl command line, read as bash and curl would read it, with nothing acted on.
///
/// Values are kept as they were given: the URL as text (with `http://` put in front of a
/// scheme-less URL, as curl does), headers in order, data and form parts with their kind,
/// and `@file` references as inert references that are never opened. Decoding the query,
/// moving `-G` data into the query and reading a JSON body are left to whoever turns the
/// command into a request. Every accessor is named after the curl option it reports.
///
/// # Turning it into the request curl would send
///
/// - **Method**: [`method`](Self::method) is already the one curl sends: `-X` if given,
///   else `HEAD` for `-I`, `PUT` for `-T`, `POST` for `-F`, `GET` for `-G`, `POST` for any
///   data, else `GET`.
/// - **Body**: the [`data`](Self::data) parts are joined in order, each one after the first
///   preceded by `&` unless it is a [`DataKind::Json`] part, which is appended as is (curl
///   7.82+). [`DataKind::UrlEncode`] parts are percent-encoded first (see its docs). With
///   `-G` ([`get`](Self::get)) and no form parts, the joined data goes to the URL's query
///   instead (after `&`, or after `?` when the URL has no query; a fragment is dropped)
///   and there is no body. [`form`](Self::form) parts make a `multipart/form-data` body.
///   Data and form parts never occur together (curl refuses it, and so does `parse`).
/// - **Headers**: curl sends `Content-Type: application/x-www-form-urlencoded` with a data
///   body (not with `-G`, which leaves no body) and a `multipart/form-data` type with form
///   parts, unless a header sets one.
///   `--json` adds `Content-Type` and `Accept` as `application/json` unless given; these
///   two are already in [`headers`](Self::headers). An explicit header wins over what
///   `-A`, `-e`, `-b`, `-u`, `--oauth2-bearer` and `--compressed` would send, and
///   [`removed_headers`](Self::removed_headers) lists the headers curl would leave out.
///
/// # Security
///
/// The command comes from outside and may hold credentials. `Debug` shows
/// passwords, tokens, cookie values, the values of credential-looking headers and query
/// parameters, and the userinfo password of the URL and proxy as `***`, and data and form
/// values only by their size.
#[derive(Clone, PartialEq, Eq)]
pub struct CurlCommand {
    pub(crate) method: String,
    pub(crate) method_explicit: bool,
    pub(crate) url: String,
    pub(crate) url_index: usize,
    /// The URLs after the first, with their argument indexes.
    pub(crate) more_urls: Vec<(String, usize)>,
    pub(crate) headers: Vec<Header>,
    pub(crate) removed_headers: Vec<String>,
    pub(crate) data: Vec<DataPart>,
    pub(crate) form: Vec<FormPart>,
    pub(crate) get: bool,
    pub(crate) head: bool,
    pub(crate) auth: Option<Auth>,
    /// `--digest`: credentials in the URL answer a Digest challenge too.
    pub(crate) digest: bool,
    pub(crate) user_agent: Option<String>,
    pub(crate) referer: Option<String>,
    pub(crate) cookies: Vec<String>,
    pub(crate) location: bool,
    pub(crate) max_redirs: Option<u32>,
    pub(crate) insecure: bool,
    pub(crate) compressed: bool,
    pub(crate) max_time: Option<Duration>,
    pub(crate) connect_timeout: Option<Duration>,
    pub(crate) proxy: Option<String>,
    pub(crate) notes: Vec<Note>,
    pub(crate) variables: Vec<String>,
}

impl CurlCommand {
    /// The method curl would send, as written when `-X` gave it (curl does not change its
    /// case), else implied by the other options.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// True when `-X`/`--request` set the method.
    pub fn method_is_explicit(&self) -> bool {
        self.method_explicit
    }

    /// The URL as written, with `http://` in front when it had no scheme, as curl does
    /// (`--proto-default` can change that scheme to `https`).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The index of the argument that gave the URL.
    pub fn url_index(&self) -> usize {
        self.url_index
    }

    /// The URLs after the first, as [`url`](CurlCommand::url) writes them, with the index of
    /// the argument that gave each: curl sends the same request to each in turn, and
    /// [`to_plugin`](fn@super::to_plugin) makes an endpoint of each.
    pub fn more_urls(&self) -> impl Iterator<Item = (&str, usize)> {
        self.more_urls
            .iter()
            .map(|(url, index)| (url.as_str(), *index))
    }

    /// The URL's query text as written: what follows the first `?`, up to any `#`. Raw: not
    /// split into pairs, not percent-decoded. `None` when the URL has no `?`.
    pub fn raw_query(&self) -> Option<&str> {
        let without_fragment = self.url.split('#').next().unwrap_or("");
        without_fragment
            .find('?')
            .map(|at| &without_fragment[at + 1..])
    }

    /// The `-H`/`--header` headers in order (repeats kept), then the ones `--json` implies.
    pub fn headers(&self) -> &[Header] {
        &self.headers
    }

    /// The value of the last header with this name (compared case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .rev()
            .find(|header| header.name.eq_ignore_ascii_case(name))
            .map(|header| header.value.as_str())
    }

    /// Headers given as `-H 'Name:'` (nothing after the colon): curl leaves out its own
    /// header of that name (`Accept`, `User-Agent`, `Content-Type`, ...) and sends none.
    pub fn removed_headers(&self) -> &[String] {
        &self.removed_headers
    }

    /// The `-d`, `--data-*`, `--json` and `-T` parts in order.
    pub fn data(&self) -> &[DataPart] {
        &self.data
    }

    /// The `-F`/`--form` and `--form-string` parts in order.
    pub fn form(&self) -> &[FormPart] {
        &self.form
    }

    /// True when `-G`/`--get` was given: curl puts the data in the query (see the type's
    /// docs). curl ignores it when there are form parts.
    pub fn get(&self) -> bool {
        self.get
    }

    /// The shell variables the command references (`$NAME` or `${NAME}` outside single
    /// quotes), each once, in order of first use. Each stands in the command's text as
    /// `${NAME}`, the plugin file's variable syntax: `-H "Authorization: Bearer $TOKEN"` has
    /// the header value `Bearer ${TOKEN}`. Nothing is read from the environment. Always
    /// empty for [`parse_args`](super::parse_args), whose arguments no shell has read.
    ///
    /// ```
    /// let cmd = httptool::curl::parse(r#"curl -H "Authorization: Bearer $OPENAI_API_KEY" https://api.openai.com/v1/models"#)?;
    /// assert_eq!(cmd.variables(), ["OPENAI_API_KEY"]);
    /// assert_eq!(cmd.header("authorization"), Some("Bearer ${OPENAI_API_KEY}"));
    /// # Ok::<(), httptool::curl::Error>(())
    /// ```
    pub fn variables(&self) -> &[String] {
        &self.variables
    }

    /// True when `-I`/`--head` was given.
    pub fn head(&self) -> bool {
        self.head
    }

    /// The credentials of `-u`/`--user` or `--oauth2-bearer` (the bearer token wins when
    /// both are given, as in curl).
    pub fn auth(&self) -> Option<&Auth> {
        self.auth.as_ref()
    }

    /// `-A`/`--user-agent`. Empty means curl sends no `User-Agent` header.
    pub fn user_agent(&self) -> Option<&str> {
        self.user_agent.as_deref()
    }

    /// `-e`/`--referer`, without curl's `;auto` suffix.
    pub fn referer(&self) -> Option<&str> {
        self.referer.as_deref()
    }

    /// The `-b`/`--cookie` values that are cookie data (`name=value`, possibly several
    /// separated by `;`), in order; curl joins them with `;` into one `Cookie` header.
    /// `-b` arguments without `=` name cookie files; they are not read, and leave a note.
    pub fn cookies(&self) -> &[String] {
        &self.cookies
    }

    /// `-L`/`--location`: follow redirects.
    pub fn location(&self) -> bool {
        self.location
    }

    /// `--max-redirs N`. `--max-redirs -1` (unlimited in curl) reads as `None`, with a note.
    pub fn max_redirs(&self) -> Option<u32> {
        self.max_redirs
    }

    /// `-k`/`--insecure`: curl would not verify the server's certificate.
    pub fn insecure(&self) -> bool {
        self.insecure
    }

    /// `--compressed`: curl asks for a compressed response and decompresses it.
    pub fn compressed(&self) -> bool {
        self.compressed
    }

    /// `-m`/`--max-time` (decimal seconds). `0`, which means no limit in curl, reads as
    /// `None`, with a note.
    pub fn max_time(&self) -> Option<Duration> {
        self.max_time
    }

    /// `--connect-timeout` (decimal seconds). `0`, curl's default, reads as `None`.
    pub fn connect_timeout(&self) -> Option<Duration> {
        self.connect_timeout
    }

    /// `-x`/`--proxy` as written. An empty value (no proxy) reads as `None`.
    pub fn proxy(&self) -> Option<&str> {
        self.proxy.as_deref()
    }

    /// What was ignored or approximated, in argument order.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }
}

impl fmt::Debug for CurlCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cookies: Vec<String> = self.cookies.iter().map(|c| mask_cookie(c)).collect();
        f.debug_struct("CurlCommand")
            .field("method", &self.method)
            .field("method_explicit", &self.method_explicit)
            .field("url", &mask_url(&self.url))
            .field("headers", &self.headers)
            .field("removed_headers", &self.removed_headers)
            .field("data", &self.data)
            .field("form", &self.form)
            .field("get", &self.get)
            .field("head", &self.head)
            .field("auth", &self.auth)
            .field("user_agent", &self.user_agent)
            .field("referer", &self.referer)
            .field("cookies", &cookies)
            .field("location", &self.location)
            .field("max_redirs", &self.max_redirs)
            .field("insecure", &self.insecure)
            .field("compressed", &self.compressed)
            .field("max_time", &self.max_time)
            .field("connect_timeout", &self.connect_timeout)
            .field("proxy", &self.proxy.as_deref().map(mask_url))
            .field("notes", &self.notes)
            .field("variables", &self.variables)
            .finish()
    }
}

/// One `-H`/`--header` header (or one `--json` implies).
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    pub(crate) name: String,
    pub(crate) value: String,
    pub(crate) arg_index: usize,
}

impl Header {
    /// The name as written (a token, checked).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value, without the blanks around it. Empty for `-H 'Name;'`, which makes curl
    /// send the header with no value.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The index of the argument holding the option that gave the header.
    pub fn arg_index(&self) -> usize {
        self.arg_index
    }
}

impl fmt::Debug for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = if is_credential_name(&self.name) {
            MASK
        } else {
            &self.value
        };
        f.debug_struct("Header")
            .field("name", &self.name)
            .field("value", &value)
            .field("arg_index", &self.arg_index)
            .finish()
    }
}

/// Which option gave a data part; it decides how curl treats the part.
///
/// `#[non_exhaustive]`: curl adds data options now and then.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DataKind {
    /// `-d`/`--data`: sent as given; a file's CR and LF bytes are stripped when read.
    Data,
    /// `--data-ascii`: the same as `-d`.
    Ascii,
    /// `--data-binary`: sent as given, a file's bytes unchanged.
    Binary,
    /// `--data-raw`: sent as given; a leading `@` is data, not a file.
    Raw,
    /// `--data-urlencode`: the content (inline or from a file) is percent-encoded the way
    /// curl does it (every byte but `A-Z a-z 0-9 - . _ ~` as `%XX`, then `%20` written as
    /// `+`), and sent after `name=` when [`DataPart::name`] is set.
    UrlEncode,
    /// `--json`: sent as given, appended to the previous part without `&`.
    Json,
    /// `-T`/`--upload-file`: the whole body, from a file, with method `PUT`.
    Upload,
}

/// Where a data part's bytes come from.
///
/// Not `#[non_exhaustive]`: curl's data syntax has these two sources, the bytes written or `@file`.
#[derive(Clone, PartialEq, Eq)]
pub enum DataSource {
    /// The bytes written on the command line. They may be any bytes but NUL (`$'\xff'`
    /// makes a byte that is not UTF-8, and curl sends it as it is).
    Inline(Vec<u8>),
    /// `@path` (or `-T path`): curl would read the file (`-` for standard input). The path
    /// is kept as an inert reference; nothing opens it.
    File(String),
}

impl fmt::Debug for DataSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataSource::Inline(bytes) => write!(f, "Inline(<{} bytes>)", bytes.len()),
            DataSource::File(path) => f.debug_tuple("File").field(path).finish(),
        }
    }
}

/// One data option: `-d`, `--data-raw`, `--data-binary`, `--data-ascii`,
/// `--data-urlencode`, `--json` or `-T`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataPart {
    pub(crate) kind: DataKind,
    pub(crate) name: Option<String>,
    pub(crate) source: DataSource,
    pub(crate) arg_index: usize,
}

impl DataPart {
    /// Which option gave the part.
    pub fn kind(&self) -> DataKind {
        self.kind
    }

    /// For `--data-urlencode name=content` and `name@file`: the name, sent as written
    /// (curl expects it already encoded). `None` for every other form and kind.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Where the bytes come from.
    pub fn source(&self) -> &DataSource {
        &self.source
    }

    /// The inline bytes, or `None` for a file reference.
    pub fn inline(&self) -> Option<&[u8]> {
        match &self.source {
            DataSource::Inline(bytes) => Some(bytes),
            DataSource::File(_) => None,
        }
    }

    /// The inline bytes when they are UTF-8 text.
    pub fn text(&self) -> Option<&str> {
        self.inline()
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
    }

    /// The file path of an `@file` reference, or `None` for inline data.
    pub fn file(&self) -> Option<&str> {
        match &self.source {
            DataSource::File(path) => Some(path),
            DataSource::Inline(_) => None,
        }
    }

    /// The index of the argument holding the option.
    pub fn arg_index(&self) -> usize {
        self.arg_index
    }
}

/// The content of a form part.
///
/// Not `#[non_exhaustive]`: curl's `-F` syntax has these three forms: `value`, `@file` and `<file`.
#[derive(Clone, PartialEq, Eq)]
pub enum FormValue {
    /// A text field's value (`name=value`, `name="quoted"`, or `--form-string`). Any bytes
    /// but NUL.
    Text(Vec<u8>),
    /// `name=@path`: curl would attach the file as an upload. Inert: nothing opens it.
    File(String),
    /// `name=<path`: curl would send the file's content as a text field. Inert.
    FileContent(String),
}

impl fmt::Debug for FormValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormValue::Text(bytes) => write!(f, "Text(<{} bytes>)", bytes.len()),
            FormValue::File(path) => f.debug_tuple("File").field(path).finish(),
            FormValue::FileContent(path) => f.debug_tuple("FileContent").field(path).finish(),
        }
    }
}

/// One `-F`/`--form` or `--form-string` part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormPart {
    pub(crate) name: String,
    pub(crate) value: FormValue,
    pub(crate) content_type: Option<String>,
    pub(crate) filename: Option<String>,
    pub(crate) headers: Vec<String>,
    pub(crate) encoder: Option<String>,
    pub(crate) arg_index: usize,
}

impl FormPart {
    /// The field name (empty for `-F =value`, which curl sends without a name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value, or the file it would come from.
    pub fn value(&self) -> &FormValue {
        &self.value
    }

    /// The text value, when it is one and is UTF-8.
    pub fn text(&self) -> Option<&str> {
        match &self.value {
            FormValue::Text(bytes) => std::str::from_utf8(bytes).ok(),
            _ => None,
        }
    }

    /// The path of a file reference (`@path` or `<path`).
    pub fn file(&self) -> Option<&str> {
        match &self.value {
            FormValue::File(path) | FormValue::FileContent(path) => Some(path),
            FormValue::Text(_) => None,
        }
    }

    /// `;type=`: the part's content type as written (parameters such as `;charset=`
    /// included). curl guesses one for files without it.
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// `;filename=`: the file name sent in `Content-Disposition`. curl uses the file's
    /// own name for `@path` parts without it.
    pub fn filename(&self) -> Option<&str> {
        self.filename.as_deref()
    }

    /// `;headers=`: extra header lines for this part, in order.
    pub fn headers(&self) -> &[String] {
        &self.headers
    }

    /// `;encoder=`: the `Content-Transfer-Encoding` curl applies (`base64`, ...).
    pub fn encoder(&self) -> Option<&str> {
        self.encoder.as_deref()
    }

    /// The index of the argument holding the option.
    pub fn arg_index(&self) -> usize {
        self.arg_index
    }
}

/// Credentials the command sends.
///
/// `#[non_exhaustive]`: more of curl's authentication options may be read.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Auth {
    /// `-u user:password`: HTTP basic authentication.
    Basic {
        /// The user name (may be empty, as in `-u :password`).
        user: String,
        /// The password; `None` for `-u user`, where curl would ask for it on the terminal.
        password: Option<String>,
    },
    /// `--digest -u user:password`: HTTP Digest authentication (RFC 7616).
    Digest {
        /// The user name.
        user: String,
        /// The password; `None` for `-u user`.
        password: Option<String>,
    },
    /// `--oauth2-bearer token`: `Authorization: Bearer token`.
    Bearer {
        /// The token.
        token: String,
    },
    /// `--aws-sigv4 aws:amz:REGION:SERVICE -u KEY:SECRET`: each request signed with AWS
    /// Signature Version 4.
    AwsSigV4 {
        /// The access key id (`-u`'s user).
        access_key_id: String,
        /// The secret access key (`-u`'s password).
        secret_access_key: String,
        /// The region, when the option gives it (else read from the host).
        region: Option<String>,
        /// The service, when the option gives it (else read from the host).
        service: Option<String>,
    },
}

impl fmt::Debug for Auth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Auth::Basic { user, password } => f
                .debug_struct("Basic")
                .field("user", user)
                .field("password", &password.as_ref().map(|_| MASK))
                .finish(),
            Auth::Digest { user, password } => f
                .debug_struct("Digest")
                .field("user", user)
                .field("password", &password.as_ref().map(|_| MASK))
                .finish(),
            Auth::Bearer { .. } => f.debug_struct("Bearer").field("token", &MASK).finish(),
            Auth::AwsSigV4 {
                access_key_id,
                region,
                service,
                ..
            } => f
                .debug_struct("AwsSigV4")
                .field("access_key_id", access_key_id)
                .field("secret_access_key", &MASK)
                .field("region", region)
                .field("service", service)
                .finish(),
        }
    }
}

/// Something the command asks for that httptool leaves out or approximates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub(crate) arg_index: usize,
    pub(crate) message: String,
}

impl Note {
    /// The index of the argument the note is about; 0 (the program's own index) for a note
    /// about the whole command, such as one a conversion leaves.
    pub fn arg_index(&self) -> usize {
        self.arg_index
    }

    /// What was left out or approximated, and why (names the option, never its value).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Note {
    /// `argument N: message`, or the message alone for a note about the whole command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.arg_index == 0 {
            return f.write_str(&self.message);
        }
        write!(f, "argument {}: {}", self.arg_index, self.message)
    }
}
