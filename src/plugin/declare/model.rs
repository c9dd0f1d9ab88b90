//! What a plugin declares: parameters, their types and locations, endpoints, options, values
//! that come from the environment or the call context, and auth.
//!
//! These are plain values with getters; the builders in `builder.rs` make them, and
//! [`PluginBuilder::build`](crate::plugin::PluginBuilder::build) checks them together.

use std::fmt;
use std::time::Duration;

use crate::http::Method;
use crate::json::Json;
pub use crate::plugin::declare::config_value::ConfigValue;
use crate::quote::MASK;
use crate::tool::{Confirm, ToolAnnotations};

/// The largest output schema an endpoint may declare, in bytes of compact JSON: 64 KiB, the
/// schema going to every MCP client in `tools/list`. Over it, loading the plugin is an error.
/// (The OpenAPI importer keeps only schemas of up to 16 KiB, a tighter choice of its own, and
/// drops larger ones with a warning.)
pub const MAX_OUTPUT_SCHEMA_BYTES: usize = 64 * 1024;

/// How deep parameter types may nest (an array of objects of arrays ...). Types are walked
/// recursively when a call's values are checked, so their depth is bounded here.
pub const MAX_TYPE_DEPTH: usize = 16;

/// Where a parameter's value goes in the request.
///
/// `#[non_exhaustive]`: locations grow with the plugin file (`cookie` was added; OpenAPI 3.2's
/// `querystring` may be).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Location {
    /// A query parameter: `?wire_name=value`.
    Query,
    /// A `{wire_name}` placeholder of the path, filled with one percent-encoded segment.
    Path,
    /// A request header `wire_name: value`.
    Header,
    /// A member of the JSON body (form field with a form or multipart body). On GET, HEAD,
    /// OPTIONS and DELETE it goes to the query instead. The default.
    Body,
    /// A field of an `application/x-www-form-urlencoded` (or `multipart/form-data`) body.
    Form,
    /// A cookie: every cookie parameter of a call goes into one `Cookie` header
    /// (`a=1; b=2`), each value encoded per RFC 6265 section 4.1.1.
    Cookie,
}

impl Location {
    /// Every location, in the order messages list them.
    pub const ALL: [Location; 6] = [
        Location::Query,
        Location::Path,
        Location::Header,
        Location::Body,
        Location::Form,
        Location::Cookie,
    ];

    /// The word the plugin file uses: `"query"`, `"path"`, `"header"`, `"body"`, `"form"`,
    /// `"cookie"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Location::Query => "query",
            Location::Path => "path",
            Location::Header => "header",
            Location::Body => "body",
            Location::Form => "form",
            Location::Cookie => "cookie",
        }
    }

    /// Reads a location word, ignoring ASCII case.
    pub fn parse(word: &str) -> Option<Location> {
        Location::ALL
            .iter()
            .copied()
            .find(|l| l.as_str().eq_ignore_ascii_case(word))
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The type of a parameter's value, as JSON Schema names it.
///
/// Not `#[non_exhaustive]`: JSON Schema's types are fixed (draft 2020-12, validation section
/// 6.1.1), and [`ParamType::Any`] takes every value the others do not name.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamType {
    /// Text.
    String,
    /// A whole number (`"42"` from a model reads as 42).
    Integer,
    /// Any number.
    Number,
    /// `true` or `false` (`"true"`, `"yes"`, `"1"` and their opposites read as booleans).
    Boolean,
    /// An array whose items have the inner type.
    Array(Box<ParamType>),
    /// An object; with properties, only those are accepted; without, any object is.
    Object(Vec<Property>),
    /// Any JSON value, taken as it is (no coercion): for a parameter whose
    /// [`schema`](Param::schema) says what it accepts (`oneOf` of a string and an object, say).
    Any,
}

impl ParamType {
    /// An array of `items`.
    pub fn array(items: ParamType) -> ParamType {
        ParamType::Array(Box::new(items))
    }

    /// An object with these properties (none: any object).
    pub fn object(properties: impl IntoIterator<Item = Property>) -> ParamType {
        ParamType::Object(properties.into_iter().collect())
    }

    /// The JSON Schema type name: `"string"`, `"integer"`, `"number"`, `"boolean"`, `"array"`
    /// or `"object"`; `"any"` for [`ParamType::Any`], which the model's schema leaves untyped.
    pub fn as_str(&self) -> &'static str {
        match self {
            ParamType::String => "string",
            ParamType::Integer => "integer",
            ParamType::Number => "number",
            ParamType::Boolean => "boolean",
            ParamType::Array(_) => "array",
            ParamType::Object(_) => "object",
            ParamType::Any => "any",
        }
    }

    /// The scalar type for a type word; `None` for `array`, `object` and unknown words.
    pub(crate) fn scalar(word: &str) -> Option<ParamType> {
        match word {
            "string" => Some(ParamType::String),
            "integer" => Some(ParamType::Integer),
            "number" => Some(ParamType::Number),
            "boolean" => Some(ParamType::Boolean),
            _ => None,
        }
    }

    /// Whether values of this type are JSON arrays or objects.
    pub fn is_container(&self) -> bool {
        matches!(self, ParamType::Array(_) | ParamType::Object(_))
    }

    /// The type a JSON Schema names, for a parameter declared with a `schema` and no `type`:
    /// one JSON type when the schema names one (a type list with `null` counts as its other
    /// member; `properties` alone reads as an object, `items` as an array), else
    /// [`ParamType::Any`], whose values the schema alone checks. So a model's value is coerced
    /// and checked as the schema it reads says, never as a string it was not told about.
    ///
    /// # Examples
    ///
    /// ```
    /// use httptool::json;
    /// use httptool::plugin::ParamType;
    ///
    /// let either = json!({"oneOf": [{"type": "string"}, {"type": "object"}]});
    /// assert_eq!(ParamType::from_schema(&either), ParamType::Any);
    /// let ids = json!({"type": "array", "items": {"type": ["integer", "null"]}});
    /// assert_eq!(ParamType::from_schema(&ids), ParamType::array(ParamType::Integer));
    /// ```
    pub fn from_schema(schema: &Json) -> ParamType {
        type_at(schema, 1)
    }
}

/// [`ParamType::from_schema`] at `depth`; arrays of arrays nest no deeper than
/// [`MAX_TYPE_DEPTH`], past which the type is [`ParamType::Any`].
fn type_at(schema: &Json, depth: usize) -> ParamType {
    if depth >= MAX_TYPE_DEPTH {
        return ParamType::Any;
    }
    let word = match schema.get("type") {
        Some(Json::String(word)) => Some(word.as_str()),
        Some(Json::Array(words)) => {
            let mut named = words
                .iter()
                .filter_map(Json::as_str)
                .filter(|w| *w != "null");
            match (named.next(), named.next()) {
                (Some(word), None) => Some(word),
                _ => None,
            }
        }
        _ => None,
    };
    let composed = schema.get("oneOf").is_some() || schema.get("anyOf").is_some();
    let word = match word {
        Some(word) => word,
        None if composed => return ParamType::Any,
        None if schema.get("properties").is_some() => "object",
        None if schema.get("items").is_some() => "array",
        None => return ParamType::Any,
    };
    match word {
        "array" => ParamType::array(match schema.get("items") {
            Some(items) => type_at(items, depth + 1),
            None => ParamType::Any,
        }),
        "object" => ParamType::object([]),
        other => ParamType::scalar(other).unwrap_or(ParamType::Any),
    }
}

/// One property of an object parameter: a name, a type, a description and whether it is
/// required.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    pub(crate) name: String,
    pub(crate) ty: ParamType,
    pub(crate) description: String,
    pub(crate) required: bool,
}

impl Property {
    /// An optional property.
    pub fn new(name: impl Into<String>, ty: ParamType) -> Property {
        Property {
            name: name.into(),
            ty,
            description: String::new(),
            required: false,
        }
    }

    /// Sets the description the model reads.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Property {
        self.description = description.into();
        self
    }

    /// Sets whether the property must be present.
    #[must_use]
    pub fn with_required(mut self, required: bool) -> Property {
        self.required = required;
        self
    }

    /// The property's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its type.
    pub fn ty(&self) -> &ParamType {
        &self.ty
    }

    /// Its description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Whether it must be present.
    pub fn is_required(&self) -> bool {
        self.required
    }
}

/// How an array or an object goes into a query string, a header, a cookie or a form body
/// (OpenAPI 3.1 section 4.8.12.4.2, "Style Values"). The file field is `array_style`.
///
/// `#[non_exhaustive]`: more OpenAPI styles (`matrix`, `label`) may be added; the set has grown
/// before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ArrayStyle {
    /// The name repeated for every item: `ids=1&ids=2`; an object as compact JSON text. The
    /// default.
    #[default]
    Repeat,
    /// One value, the items joined with commas: `ids=1,2` (OpenAPI `form`, `explode: false`);
    /// an object as `name=k1,v1,k2,v2`.
    Comma,
    /// Array items joined with spaces: `ids=1%202` (OpenAPI `spaceDelimited`).
    Space,
    /// Array items joined with `|`: `ids=1%7C2` (OpenAPI `pipeDelimited`).
    Pipe,
    /// An object's members as pairs of their own: `status=open&page=2` (OpenAPI `form`,
    /// `explode: true`, for an object); arrays repeat the name.
    Spread,
    /// Brackets all the way down: `filter[status]=open`, `expand[0]=customer`,
    /// `metadata[order][id]=7` (OpenAPI `deepObject`, and the form bodies of Stripe-like APIs).
    DeepObject,
}

impl ArrayStyle {
    /// Every style, in the order messages list them.
    pub const ALL: [ArrayStyle; 6] = [
        ArrayStyle::Repeat,
        ArrayStyle::Comma,
        ArrayStyle::Space,
        ArrayStyle::Pipe,
        ArrayStyle::Spread,
        ArrayStyle::DeepObject,
    ];

    /// The word the plugin file uses: `"repeat"`, `"comma"`, `"space"`, `"pipe"`, `"spread"`
    /// or `"deep_object"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ArrayStyle::Repeat => "repeat",
            ArrayStyle::Comma => "comma",
            ArrayStyle::Space => "space",
            ArrayStyle::Pipe => "pipe",
            ArrayStyle::Spread => "spread",
            ArrayStyle::DeepObject => "deep_object",
        }
    }

    /// Reads a style word.
    pub fn parse(word: &str) -> Option<ArrayStyle> {
        ArrayStyle::ALL.iter().copied().find(|s| s.as_str() == word)
    }
}

/// How an endpoint's body parameters are encoded.
///
/// Not `#[non_exhaustive]`: [`BodyEncoding::Raw`] carries any other content type, so every body is
/// one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyEncoding {
    /// A JSON object (`application/json`). The default when no parameter is in `form`.
    Json,
    /// `application/x-www-form-urlencoded`. The default when a parameter is in `form`.
    Form,
    /// `multipart/form-data`, the only encoding that carries file parts.
    Multipart,
    /// The value of the endpoint's one body parameter, sent as it is with the endpoint's
    /// `content_type` (text, XML, bytes): a string, or a file handle the host's
    /// [`FileResolver`](crate::plugin::FileResolver) turns into bytes.
    Raw,
}

impl BodyEncoding {
    /// The word the plugin file uses: `"json"`, `"form"`, `"multipart"` or `"raw"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BodyEncoding::Json => "json",
            BodyEncoding::Form => "form",
            BodyEncoding::Multipart => "multipart",
            BodyEncoding::Raw => "raw",
        }
    }
}

/// How a plugin authenticates: every value is secret, added at send time, and `***` in
/// `Debug` output, dry runs and logs.
///
/// Schemes that sign each request (a timestamp and an HMAC) use a
/// [`Signer`](crate::plugin::Signer) instead.
///
/// `#[non_exhaustive]`: new schemes will be added, as OAuth 2.0 was.
///
/// # Examples
///
/// ```
/// use httptool::plugin::{Auth, ConfigValue};
///
/// let auth = Auth::bearer(ConfigValue::context("user_token"));
/// assert_eq!(format!("{:?}", auth), "Bearer { token: context:user_token }");
/// let auth = Auth::query("api_key", "s3cret");
/// assert_eq!(format!("{:?}", auth), "Query { name: \"api_key\", value: *** }");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Auth {
    /// `Authorization: Bearer <token>`.
    Bearer {
        /// The token.
        token: ConfigValue,
    },
    /// `Authorization: Basic <base64 of username:password>` (RFC 7617).
    Basic {
        /// The user name (it may not hold a `:`).
        username: ConfigValue,
        /// The password.
        password: ConfigValue,
    },
    /// An API key in a header: `<name>: <value>`.
    Header {
        /// The header name.
        name: String,
        /// The key.
        value: ConfigValue,
    },
    /// An API key in the query: `?<name>=<value>`.
    Query {
        /// The query parameter name.
        name: String,
        /// The key.
        value: ConfigValue,
    },
    /// `Authorization: Bearer <token>` with a token the plugin gets from an OAuth 2.0 token
    /// endpoint, caches and renews (see [`OAuth2`](crate::plugin::OAuth2)).
    OAuth2(crate::plugin::OAuth2),
    /// AWS Signature Version 4: each request signed with a secret access key (see
    /// [`AwsSigV4`](crate::plugin::AwsSigV4)).
    AwsSigV4(crate::plugin::AwsSigV4),
    /// HTTP Digest (RFC 7616): the first request goes without credentials; a 401 with a
    /// Digest challenge is answered once (`qop=auth`; `MD5`, `SHA-256` and their `-sess`
    /// forms), and later calls answer the same challenge at once, counting its nonce's uses.
    /// A second 401 is the answer, not a loop.
    Digest {
        /// The user name.
        username: ConfigValue,
        /// The password.
        password: ConfigValue,
    },
}

/// An endpoint's own auth, replacing the plugin's: the file's endpoint field `auth`, an
/// auth object or `"none"`.
///
/// Not `#[non_exhaustive]`: an endpoint either sends no credential or sends one of its own;
/// new schemes are new [`Auth`] variants.
///
/// # Examples
///
/// ```
/// use httptool::plugin::{Auth, Endpoint, EndpointAuth};
///
/// let health = Endpoint::get("health", "/health").no_auth().build();
/// assert_eq!(health.auth(), Some(&EndpointAuth::None));
/// let plugin_auth = Auth::bearer("t");
/// assert_eq!(health.auth_or(Some(&plugin_auth)), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
// An endpoint holds it boxed, so the size of `Auth` costs nothing where there is none.
#[allow(clippy::large_enum_variant)]
pub enum EndpointAuth {
    /// No credential at all, whatever the plugin's auth (`"auth": "none"`).
    None,
    /// This auth instead of the plugin's.
    Auth(Auth),
}

impl From<Auth> for EndpointAuth {
    fn from(auth: Auth) -> EndpointAuth {
        EndpointAuth::Auth(auth)
    }
}

impl From<crate::plugin::AwsSigV4> for Auth {
    fn from(sigv4: crate::plugin::AwsSigV4) -> Auth {
        Auth::AwsSigV4(sigv4)
    }
}

impl From<crate::plugin::OAuth2> for Auth {
    fn from(oauth: crate::plugin::OAuth2) -> Auth {
        Auth::OAuth2(oauth)
    }
}

impl Auth {
    /// A bearer token.
    pub fn bearer(token: impl Into<ConfigValue>) -> Auth {
        Auth::Bearer {
            token: token.into(),
        }
    }

    /// HTTP Digest credentials (RFC 7616).
    pub fn digest(username: impl Into<ConfigValue>, password: impl Into<ConfigValue>) -> Auth {
        Auth::Digest {
            username: username.into(),
            password: password.into(),
        }
    }

    /// HTTP Basic credentials.
    pub fn basic(username: impl Into<ConfigValue>, password: impl Into<ConfigValue>) -> Auth {
        Auth::Basic {
            username: username.into(),
            password: password.into(),
        }
    }

    /// An API key in a header.
    pub fn header(name: impl Into<String>, value: impl Into<ConfigValue>) -> Auth {
        Auth::Header {
            name: name.into(),
            value: value.into(),
        }
    }

    /// An API key in the query.
    pub fn query(name: impl Into<String>, value: impl Into<ConfigValue>) -> Auth {
        Auth::Query {
            name: name.into(),
            value: value.into(),
        }
    }

    /// The word the plugin file uses: `"bearer"`, `"basic"`, `"header"`, `"query"`,
    /// `"oauth2_client_credentials"`, `"oauth2_refresh_token"`, `"aws_sigv4"` or `"digest"`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Auth::Digest { .. } => "digest",
            Auth::AwsSigV4(_) => "aws_sigv4",
            Auth::OAuth2(oauth) => oauth.type_name(),
            Auth::Bearer { .. } => "bearer",
            Auth::Basic { .. } => "basic",
            Auth::Header { .. } => "header",
            Auth::Query { .. } => "query",
        }
    }

    /// The header this auth sets, if it sets one.
    pub fn header_name(&self) -> Option<&str> {
        match self {
            Auth::Bearer { .. }
            | Auth::Basic { .. }
            | Auth::OAuth2(_)
            | Auth::AwsSigV4(_)
            | Auth::Digest { .. } => Some("Authorization"),
            Auth::Header { name, .. } => Some(name),
            Auth::Query { .. } => None,
        }
    }
}

/// Whether special-purpose addresses may be connected to.
///
/// Not `#[non_exhaustive]`: a plugin's own client checks addresses or does not; a finer policy is a
/// [`Client`](crate::http::Client) with its own [`AddressPolicy`](crate::http::AddressPolicy),
/// given with [`HttpPlugin::with_client`](crate::plugin::HttpPlugin::with_client).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressMode {
    /// No address check of the plugin's own: its own client allows any address
    /// ([`AddressPolicy::allow_all`](crate::http::AddressPolicy::allow_all)), and a client
    /// given with [`HttpPlugin::with_client`](crate::plugin::HttpPlugin::with_client) keeps its
    /// policy. The default.
    AllowAll,
    /// Public addresses only: loopback, private, link-local, CGNAT, metadata and the other
    /// special-purpose ranges are refused ([`AddressPolicy::strict`](crate::http::AddressPolicy::strict)).
    Strict,
}

impl AddressMode {
    /// The word the plugin file uses: `"allow_all"` or `"strict"`.
    pub fn as_str(self) -> &'static str {
        match self {
            AddressMode::AllowAll => "allow_all",
            AddressMode::Strict => "strict",
        }
    }
}

/// Limits, timeouts and policies of a plugin's calls; set on the plugin, and on an endpoint
/// to override the plugin's.
///
/// Each setting left unset takes the plugin's value, and then the default (each default is
/// the public constant named in the setter).
///
/// # Examples
///
/// ```
/// use httptool::plugin::Options;
/// use std::time::Duration;
///
/// let options = Options::new()
///     .timeout_call(Duration::from_secs(20))
///     .max_response_bytes(1024 * 1024)
///     .redirect_hosts(["cdn.example.com"]);
/// # drop(options);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub(crate) timeout_connect: Option<Duration>,
    pub(crate) timeout_read: Option<Duration>,
    pub(crate) timeout_write: Option<Duration>,
    pub(crate) timeout_call: Option<Duration>,
    pub(crate) max_response_bytes: Option<usize>,
    pub(crate) max_output_bytes: Option<usize>,
    pub(crate) max_redirects: Option<u32>,
    pub(crate) redirect_hosts: Option<Vec<String>>,
    pub(crate) address_policy: Option<AddressMode>,
    pub(crate) overload_retries: Option<u32>,
    pub(crate) full_schemas: Option<bool>,
    pub(crate) max_description_bytes: Option<usize>,
    pub(crate) max_attachment_bytes: Option<usize>,
    pub(crate) max_stream_events: Option<u32>,
    pub(crate) max_stream_bytes: Option<usize>,
    pub(crate) timeout_stream: Option<Duration>,
}

impl Options {
    /// Nothing set.
    pub fn new() -> Options {
        Options::default()
    }

    /// Connecting, per address. Defaults to
    /// [`http::DEFAULT_TIMEOUT_CONNECT`](crate::http::DEFAULT_TIMEOUT_CONNECT) (10 s).
    #[must_use]
    pub fn timeout_connect(mut self, timeout: Duration) -> Options {
        self.timeout_connect = Some(timeout);
        self
    }

    /// Each wait for response bytes. Defaults to
    /// [`http::DEFAULT_TIMEOUT_READ`](crate::http::DEFAULT_TIMEOUT_READ) (30 s).
    #[must_use]
    pub fn timeout_read(mut self, timeout: Duration) -> Options {
        self.timeout_read = Some(timeout);
        self
    }

    /// Each wait to send request bytes. Defaults to
    /// [`http::DEFAULT_TIMEOUT_WRITE`](crate::http::DEFAULT_TIMEOUT_WRITE) (30 s).
    #[must_use]
    pub fn timeout_write(mut self, timeout: Duration) -> Options {
        self.timeout_write = Some(timeout);
        self
    }

    /// The whole call, redirects and retries included. Defaults to
    /// [`http::DEFAULT_TIMEOUT_CALL`](crate::http::DEFAULT_TIMEOUT_CALL) (60 s).
    #[must_use]
    pub fn timeout_call(mut self, timeout: Duration) -> Options {
        self.timeout_call = Some(timeout);
        self
    }

    /// Bytes of a response body; a larger one fails the call (never a cut body). Defaults
    /// to [`http::DEFAULT_MAX_RESPONSE_BYTES`](crate::http::DEFAULT_MAX_RESPONSE_BYTES) (10 MiB).
    #[must_use]
    pub fn max_response_bytes(mut self, bytes: usize) -> Options {
        self.max_response_bytes = Some(bytes);
        self
    }

    /// Bytes of text handed to the model; longer text is cut with a marker saying how much
    /// was left out. Defaults to
    /// [`tool::DEFAULT_MAX_OUTPUT_BYTES`](crate::tool::DEFAULT_MAX_OUTPUT_BYTES) (64 KiB).
    #[must_use]
    pub fn max_output_bytes(mut self, bytes: usize) -> Options {
        self.max_output_bytes = Some(bytes);
        self
    }

    /// Redirects followed in one call (0: none). Defaults to
    /// [`http::DEFAULT_MAX_REDIRECTS`](crate::http::DEFAULT_MAX_REDIRECTS) (5).
    #[must_use]
    pub fn max_redirects(mut self, count: u32) -> Options {
        self.max_redirects = Some(count);
        self
    }

    /// Hosts a redirect may lead to besides the base URL's origin (exact names or
    /// addresses; `https` to `http` is still refused). Defaults to none: same-origin
    /// redirects only.
    #[must_use]
    pub fn redirect_hosts<I, S>(mut self, hosts: I) -> Options
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.redirect_hosts = Some(hosts.into_iter().map(Into::into).collect());
        self
    }

    /// Which addresses may be connected to. Defaults to [`AddressMode::AllowAll`]. A plugin
    /// can make a client's address policy stricter, never looser.
    #[must_use]
    pub fn address_policy(mut self, mode: AddressMode) -> Options {
        self.address_policy = Some(mode);
        self
    }

    /// Retries of 429 and 503 responses, honouring `Retry-After` (at most
    /// [`http::DEFAULT_RETRY_MAX_WAIT`](crate::http::DEFAULT_RETRY_MAX_WAIT) each), for
    /// idempotent methods only: a POST or PATCH is never retried. Defaults to 0.
    #[must_use]
    pub fn overload_retries(mut self, retries: u32) -> Options {
        self.overload_retries = Some(retries);
        self
    }

    /// Whether the model reads the schema as declared, every description whole and every
    /// keyword kept. Defaults to `false`: the model reads the compact schema
    /// ([`tool::compact_spec`](crate::tool::compact_spec)), with the same parameters, types,
    /// enums and required flags and fewer bytes.
    #[must_use]
    pub fn full_schemas(mut self, full: bool) -> Options {
        self.full_schemas = Some(full);
        self
    }

    /// The longest tool description of a compact schema, in bytes (cut at a sentence
    /// boundary); a parameter's gets three quarters of it, a member of an object parameter
    /// three eighths, and what is nested deeper none
    /// ([`tool::compact_schema`](crate::tool::compact_schema)). Defaults to
    /// [`tool::DEFAULT_MAX_DESCRIPTION_BYTES`](crate::tool::DEFAULT_MAX_DESCRIPTION_BYTES)
    /// (160).
    #[must_use]
    pub fn max_description_bytes(mut self, bytes: usize) -> Options {
        self.max_description_bytes = Some(bytes);
        self
    }

    /// Bytes of a binary answer (an image, a sound, a PDF) sent to the model beside the text
    /// that describes it; a larger one is described only (media type, size, SHA-256), and
    /// the text says it was over this cap. 0 sends none. Defaults to
    /// [`DEFAULT_MAX_ATTACHMENT_BYTES`](crate::plugin::DEFAULT_MAX_ATTACHMENT_BYTES) (1 MiB).
    #[must_use]
    pub fn max_attachment_bytes(mut self, bytes: usize) -> Options {
        self.max_attachment_bytes = Some(bytes);
        self
    }

    /// Events read from a `text/event-stream` answer; the stream is closed after this many,
    /// and the result says so. Defaults to
    /// [`DEFAULT_MAX_STREAM_EVENTS`](crate::plugin::DEFAULT_MAX_STREAM_EVENTS) (1,000).
    #[must_use]
    pub fn max_stream_events(mut self, events: u32) -> Options {
        self.max_stream_events = Some(events);
        self
    }

    /// Bytes read from a `text/event-stream` answer; the stream is closed at this many, and
    /// the result says so (the events read whole are kept). Defaults to
    /// [`DEFAULT_MAX_STREAM_BYTES`](crate::plugin::DEFAULT_MAX_STREAM_BYTES) (1 MiB).
    #[must_use]
    pub fn max_stream_bytes(mut self, bytes: usize) -> Options {
        self.max_stream_bytes = Some(bytes);
        self
    }

    /// How long a `text/event-stream` answer is read, from when its head arrives (within
    /// the call's own deadline); the stream is closed then, and the result says so.
    /// Defaults to [`DEFAULT_TIMEOUT_STREAM`](crate::plugin::DEFAULT_TIMEOUT_STREAM) (30 s).
    #[must_use]
    pub fn timeout_stream(mut self, timeout: Duration) -> Options {
        self.timeout_stream = Some(timeout);
        self
    }

    /// These options, with every setting left unset taken from `base`.
    pub(crate) fn or(&self, base: &Options) -> Options {
        Options {
            timeout_connect: self.timeout_connect.or(base.timeout_connect),
            timeout_read: self.timeout_read.or(base.timeout_read),
            timeout_write: self.timeout_write.or(base.timeout_write),
            timeout_call: self.timeout_call.or(base.timeout_call),
            max_response_bytes: self.max_response_bytes.or(base.max_response_bytes),
            max_output_bytes: self.max_output_bytes.or(base.max_output_bytes),
            max_redirects: self.max_redirects.or(base.max_redirects),
            redirect_hosts: self
                .redirect_hosts
                .clone()
                .or_else(|| base.redirect_hosts.clone()),
            address_policy: self.address_policy.or(base.address_policy),
            overload_retries: self.overload_retries.or(base.overload_retries),
            full_schemas: self.full_schemas.or(base.full_schemas),
            max_description_bytes: self.max_description_bytes.or(base.max_description_bytes),
            max_attachment_bytes: self.max_attachment_bytes.or(base.max_attachment_bytes),
            max_stream_events: self.max_stream_events.or(base.max_stream_events),
            max_stream_bytes: self.max_stream_bytes.or(base.max_stream_bytes),
            timeout_stream: self.timeout_stream.or(base.timeout_stream),
        }
    }
}

/// One parameter of an endpoint: what the model sees (name, description, type, whether it is
/// required, default, enum) and where the value goes (location, wire name, array style).
///
/// Made with [`Param::builder`] or the shortcuts [`Param::query`], [`Param::path`],
/// [`Param::header`], [`Param::body`] and [`Param::form`]; see
/// [`ParamBuilder`](crate::plugin::ParamBuilder).
#[derive(Clone, PartialEq)]
pub struct Param {
    pub(crate) name: String,
    pub(crate) wire_name: Option<String>,
    pub(crate) description: String,
    pub(crate) location: Location,
    pub(crate) ty: ParamType,
    /// JSON Schema's `format`; `int32` and `int64` bound an integer parameter's values.
    pub(crate) format: Option<String>,
    pub(crate) required: bool,
    pub(crate) default: Option<Json>,
    pub(crate) default_template: Option<String>,
    pub(crate) enum_values: Vec<Json>,
    pub(crate) secret: bool,
    pub(crate) hidden: bool,
    pub(crate) context: Option<String>,
    pub(crate) array_style: ArrayStyle,
    pub(crate) whole_body: bool,
    pub(crate) file: bool,
    pub(crate) schema: Option<Json>,
}

impl Param {
    /// The name the model uses.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name on the wire (query name, header name, body member, `{placeholder}`):
    /// the declared wire name, or the name.
    pub fn wire_name(&self) -> &str {
        self.wire_name.as_deref().unwrap_or(&self.name)
    }

    /// Whether a wire name different from the name was declared.
    pub fn has_wire_name(&self) -> bool {
        self.wire_name.is_some()
    }

    /// The description the model reads.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Where the value goes.
    pub fn location(&self) -> Location {
        self.location
    }

    /// The value's type.
    pub fn ty(&self) -> &ParamType {
        &self.ty
    }

    /// JSON Schema's `format`, when declared. On an integer parameter, `int32` and `int64`
    /// make a value outside that range an argument error.
    pub fn format(&self) -> Option<&str> {
        self.format.as_deref()
    }

    /// Whether a value must be present (from the model, the context or the default). Path
    /// parameters always are.
    pub fn is_required(&self) -> bool {
        self.required || self.location == Location::Path
    }

    /// The value used when none is given.
    pub fn default(&self) -> Option<&Json> {
        self.default.as_ref()
    }

    /// The accepted values; empty for any value of the type.
    pub fn enum_values(&self) -> &[Json] {
        &self.enum_values
    }

    /// Whether the value is secret: never in the model's schema, and `***` in logs, `Debug`
    /// and dry runs. Only query and header parameters can be secret.
    pub fn is_secret(&self) -> bool {
        self.secret
    }

    /// Whether the model never sees the parameter: it is filled from the call context or
    /// its default. Secret parameters are hidden too.
    pub fn is_hidden(&self) -> bool {
        self.hidden || self.secret
    }

    /// The [`CallContext`](crate::tool::CallContext) key a hidden parameter is filled from: the declared one, or the
    /// name.
    pub fn context_key(&self) -> &str {
        self.context.as_deref().unwrap_or(&self.name)
    }

    /// How an array value goes into a query, header or form body.
    pub fn array_style(&self) -> ArrayStyle {
        self.array_style
    }

    /// Whether the value is the whole request body (an array or scalar body).
    pub fn is_whole_body(&self) -> bool {
        self.whole_body
    }

    /// Whether the value is a handle for a file part of a multipart body, turned into bytes
    /// by the host's [`FileResolver`](crate::plugin::FileResolver).
    pub fn is_file(&self) -> bool {
        self.file
    }

    /// The JSON Schema of the value as the model reads it, when one was declared: it
    /// replaces the schema made from the type, and every call's value is checked against its
    /// cheap keywords (see [`HttpPlugin::from_json`](crate::plugin::HttpPlugin::from_json), field
    /// `schema`).
    pub fn schema(&self) -> Option<&Json> {
        self.schema.as_ref()
    }
}

impl fmt::Debug for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Param");
        s.field("name", &self.name)
            .field("wire_name", &self.wire_name())
            .field("location", &self.location)
            .field("type", &self.ty)
            .field("required", &self.is_required());
        match (
            &self.default,
            self.secret || self.default_template.is_some(),
        ) {
            (Some(_), true) => s.field("default", &MASK),
            (Some(value), false) => s.field("default", value),
            (None, _) => s.field("default", &None::<()>),
        };
        s.field("secret", &self.secret)
            .field("hidden", &self.is_hidden())
            .finish_non_exhaustive()
    }
}

/// One endpoint: a tool name and description, a method and path template, its parameters
/// and options.
///
/// Made with [`Endpoint::builder`]; see [`EndpointBuilder`](crate::plugin::EndpointBuilder).
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) params: Vec<Param>,
    pub(crate) body_encoding: Option<BodyEncoding>,
    pub(crate) response_pointer: Option<String>,
    pub(crate) allow_unknown_arguments: bool,
    pub(crate) allow_delete_body: bool,
    pub(crate) allow_get_body: bool,
    pub(crate) options: Options,
    pub(crate) base_url: Option<String>,
    /// The endpoint's base URL as the file writes it, when it reads `${NAME}`.
    pub(crate) base_url_template: Option<String>,
    /// The variable of the endpoint's base URL that had no value when the file was read
    /// (`from_json_deferred`, an import): every call is refused, naming it.
    pub(crate) base_url_unset: Option<String>,
    /// The endpoint's own auth, replacing the plugin's (boxed: most endpoints have none,
    /// and an imported API has thousands of endpoints).
    pub(crate) auth: Option<Box<EndpointAuth>>,
    /// The endpoint's own static headers, sent over the plugin's (a cookie or an API key
    /// of one host in a plugin that reaches several).
    pub(crate) endpoint_headers: Vec<(String, ConfigValue)>,
    pub(crate) content_type: Option<String>,
    pub(crate) title: Option<String>,
    /// Words that group endpoints (OpenAPI `tags`), for finding them in a catalog.
    pub(crate) tags: Vec<String>,
    /// The hints as declared; [`Endpoint::annotations`] fills the rest from the method.
    pub(crate) hints: ToolAnnotations,
    pub(crate) output_schema: Option<Json>,
    pub(crate) response_fields: Vec<String>,
    pub(crate) fields_argument: bool,
    pub(crate) pagination: Option<crate::plugin::declare::pages::Pagination>,
    /// Which calls of this endpoint need the user's approval; `None`: the plugin's policy.
    pub(crate) confirm: Option<Confirm>,
}

impl Endpoint {
    /// How the endpoint's list continues on more pages, if declared.
    pub fn pagination(&self) -> Option<&crate::plugin::declare::pages::Pagination> {
        self.pagination.as_ref()
    }

    /// The tool name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The description the model reads.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The HTTP method.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The path template, such as `/v1/users/{id}`, appended to the base URL's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The parameters, in declaration order.
    pub fn params(&self) -> &[Param] {
        &self.params
    }

    /// The parameter named `name`.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// How body parameters are encoded: as declared, or `Form` when a parameter is in
    /// `form`, else `Json`.
    pub fn body_encoding(&self) -> BodyEncoding {
        self.body_encoding.unwrap_or_else(|| {
            if self.params.iter().any(|p| p.location == Location::Form) {
                BodyEncoding::Form
            } else {
                BodyEncoding::Json
            }
        })
    }

    /// The JSON Pointer (RFC 6901) of the part of a JSON response handed to the model.
    pub fn response_pointer(&self) -> Option<&str> {
        self.response_pointer.as_deref()
    }

    /// The field paths (JSON Pointers, `items/*/title`, or dotted paths) of the parts of a
    /// JSON response the model gets, after [`response_pointer`](Endpoint::response_pointer);
    /// empty for the whole response.
    pub fn response_fields(&self) -> &[String] {
        &self.response_fields
    }

    /// Whether the model may send a `fields` argument (an array of field paths) to get only
    /// those parts of the JSON response.
    pub fn fields_argument(&self) -> bool {
        self.fields_argument
    }

    /// Whether arguments the endpoint does not declare are ignored instead of refused.
    pub fn allow_unknown_arguments(&self) -> bool {
        self.allow_unknown_arguments
    }

    /// Whether a DELETE sends its body parameters as a JSON body instead of in the query.
    pub fn allow_delete_body(&self) -> bool {
        self.allow_delete_body
    }

    /// Whether a GET sends its body parameters as a body (JSON, or a form) instead of in the
    /// query, for the APIs that read one (a search engine's `_search`). RFC 9110 section
    /// 9.3.1 gives a GET body no meaning, so only an endpoint that says so sends one.
    pub fn allow_get_body(&self) -> bool {
        self.allow_get_body
    }

    /// The endpoint's own base URL, when it differs from the plugin's (an OpenAPI operation
    /// with its own `servers`). The model cannot change it either.
    pub fn base_url(&self) -> Option<&str> {
        self.base_url.as_deref()
    }

    /// The endpoint's base URL as its plugin file writes it, `${NAME}` included, when it
    /// reads a variable.
    pub fn base_url_template(&self) -> Option<&str> {
        self.base_url_template.as_deref()
    }

    /// The endpoint's own auth, when it replaces the plugin's (a login call with basic
    /// auth where the others send a bearer token, a health check with none).
    pub fn auth(&self) -> Option<&EndpointAuth> {
        self.auth.as_deref()
    }

    /// The endpoint's own static headers, in order: sent with every call of this endpoint,
    /// each replacing a plugin header of the same name (names are case-insensitive). The
    /// file's endpoint-level `headers`.
    pub fn endpoint_headers(&self) -> &[(String, ConfigValue)] {
        &self.endpoint_headers
    }

    /// The auth a call of this endpoint sends: its own, else `plugin`'s.
    pub fn auth_or<'a>(&'a self, plugin: Option<&'a Auth>) -> Option<&'a Auth> {
        match self.auth.as_deref() {
            Some(EndpointAuth::None) => None,
            Some(EndpointAuth::Auth(auth)) => Some(auth),
            None => plugin,
        }
    }

    /// The `Content-Type` of a raw body ([`BodyEncoding::Raw`]).
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// The human-readable title (MCP's `title`), if one was declared.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The words that group this endpoint with others (OpenAPI `tags`), in declaration
    /// order; empty unless declared. The model's schema never shows them: the
    /// [`Catalog`](crate::tool::Catalog) ranks operations by them.
    pub fn tags(&self) -> &[String] {
        &self.tags
    }

    /// The behaviour hints of the tool: those declared, and for the others the method's
    /// ([`method_annotations`]).
    pub fn annotations(&self) -> ToolAnnotations {
        self.hints.or(method_annotations(self.method))
    }

    /// Which calls of this endpoint need the user's approval, when the endpoint says
    /// (`None`: the plugin's [`confirm`](crate::plugin::HttpPlugin::confirm) decides).
    pub fn confirm(&self) -> Option<&Confirm> {
        self.confirm.as_ref()
    }

    /// Whether a call of this endpoint needs the user's approval under its own policy, or
    /// else under `plugin` (the plugin's): see [`Confirm::applies`].
    pub fn needs_approval(&self, plugin: &Confirm) -> bool {
        self.confirm.as_ref().unwrap_or(plugin).applies(
            &self.name,
            Some(self.method.as_str()),
            &self.annotations(),
        )
    }

    /// The hints as declared, without the method's.
    pub fn declared_annotations(&self) -> ToolAnnotations {
        self.hints
    }

    /// The JSON Schema of the structured result (the JSON the model gets, after
    /// [`response_pointer`](Endpoint::response_pointer)), if one was declared, as declared.
    /// The tool's [`ToolSpec::output_schema`](crate::tool::ToolSpec::output_schema) is this
    /// schema loosened where the endpoint can answer what it does not describe: without what
    /// a subset breaks when [`fields_argument`](Endpoint::fields_argument) is on or
    /// [`response_fields`](Endpoint::response_fields) are declared, and
    /// admitting the empty object `{}` (an answer with no body) when its root could refuse it.
    pub fn output_schema(&self) -> Option<&Json> {
        self.output_schema.as_ref()
    }

    /// Whether body parameters go to the query: GET unless
    /// [`allow_get_body`](Endpoint::allow_get_body), HEAD, OPTIONS, and DELETE unless
    /// [`allow_delete_body`](Endpoint::allow_delete_body)
    /// ([bodies](crate::design::endpoints#bodies)).
    pub fn body_in_query(&self) -> bool {
        match self.method {
            Method::Get => !self.allow_get_body,
            Method::Head | Method::Options => true,
            Method::Delete => !self.allow_delete_body,
            // An extension method sends its body parameters as POST does (WebDAV's
            // PROPFIND and REPORT take a body).
            Method::Post | Method::Put | Method::Patch | Method::Extension(_) => false,
        }
    }
}

/// The behaviour hints an HTTP method implies (RFC 9110, section 9.2), for the hints an
/// endpoint does not declare.
///
/// | method | read-only | destructive | idempotent | open-world |
/// | --- | --- | --- | --- | --- |
/// | GET, HEAD, OPTIONS | yes | unknown | yes | yes |
/// | PUT, DELETE | no | yes | yes | yes |
/// | PATCH | no | yes | unknown | yes |
/// | POST | no | unknown | no | yes |
/// | any other (`PROPFIND`, `PURGE`) | no | unknown | unknown | yes |
///
/// Read-only tools leave `destructive` unknown: MCP reads it only when a tool is not
/// read-only. PUT and PATCH count as destructive because they replace or change what is
/// there rather than only adding to it; a POST may create or may act (send a message, cancel
/// an order), so its destructiveness is left unknown and the client assumes the worst.
/// PATCH is not idempotent by definition (RFC 5789), so it stays unknown. Every HTTP tool
/// reaches a world outside the agent: open-world.
///
/// # Examples
///
/// ```
/// use httptool::http::Method;
/// use httptool::plugin::method_annotations;
///
/// let hints = method_annotations(Method::Delete);
/// assert_eq!((hints.read_only, hints.destructive, hints.idempotent), (Some(false), Some(true), Some(true)));
/// ```
pub fn method_annotations(method: Method) -> ToolAnnotations {
    let (read_only, destructive, idempotent) = match method {
        Method::Get | Method::Head | Method::Options => (true, None, Some(true)),
        Method::Put | Method::Delete => (false, Some(true), Some(true)),
        Method::Patch => (false, Some(true), None),
        Method::Post => (false, None, Some(false)),
        // Nothing is known of another method: only that it reaches out.
        Method::Extension(_) => (false, None, None),
    };
    ToolAnnotations {
        read_only: Some(read_only),
        destructive,
        idempotent,
        open_world: Some(true),
    }
}
