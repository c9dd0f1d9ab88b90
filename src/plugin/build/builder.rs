//! Builders for plugins declared in Rust: setters named after the fields of the plugin file.

use crate::http::Method;
use crate::json::Json;
use crate::plugin::build::compile;
use crate::plugin::build::http_plugin::HttpPlugin;
use crate::plugin::declare::declaration::Declaration;
use crate::plugin::declare::model::{
    ArrayStyle, Auth, BodyEncoding, ConfigValue, Endpoint, EndpointAuth, Location, Options, Param,
    ParamType,
};
use crate::plugin::error::Error;
use crate::tool::{Confirm, ToolAnnotations};

impl Param {
    /// A parameter named `name`: a string in the body (the defaults of the plugin file).
    pub fn builder(name: impl Into<String>) -> ParamBuilder {
        ParamBuilder {
            param: Param {
                name: name.into(),
                wire_name: None,
                description: String::new(),
                location: Location::Body,
                ty: ParamType::String,
                format: None,
                required: false,
                default: None,
                default_template: None,
                enum_values: Vec::new(),
                secret: false,
                hidden: false,
                context: None,
                array_style: ArrayStyle::Repeat,
                whole_body: false,
                file: false,
                schema: None,
            },
            typed: false,
        }
    }

    /// A string query parameter.
    pub fn query(name: impl Into<String>) -> ParamBuilder {
        Param::builder(name).location(Location::Query)
    }

    /// A string path parameter (always required), filling the `{name}` placeholder.
    pub fn path(name: impl Into<String>) -> ParamBuilder {
        Param::builder(name).location(Location::Path)
    }

    /// A string header parameter; give the header's name with
    /// [`wire_name`](ParamBuilder::wire_name).
    pub fn header(name: impl Into<String>) -> ParamBuilder {
        Param::builder(name).location(Location::Header)
    }

    /// A string body parameter.
    pub fn body(name: impl Into<String>) -> ParamBuilder {
        Param::builder(name).location(Location::Body)
    }

    /// A string form parameter.
    pub fn form(name: impl Into<String>) -> ParamBuilder {
        Param::builder(name).location(Location::Form)
    }
}

/// Builds a [`Param`]; each setter is named after the field of the plugin file.
///
/// An endpoint builder takes it as it is (it converts into a `Param`); the checks happen when
/// the plugin is built.
///
/// # Examples
///
/// ```
/// use httptool::plugin::{Location, Param, ParamType};
///
/// let param: Param = Param::query("city")
///     .wire_name("q")
///     .description("City name")
///     .required(true)
///     .into();
/// assert_eq!((param.wire_name(), param.location()), ("q", Location::Query));
///
/// let days: Param = Param::query("days").ty(ParamType::Integer).default(1).into();
/// assert_eq!(days.default().and_then(|d| d.as_i64()), Some(1));
/// ```
#[must_use]
#[derive(Clone, Debug)]
pub struct ParamBuilder {
    param: Param,
    /// Whether [`ty`](ParamBuilder::ty) was called: without it, a declared `schema` gives
    /// the type.
    typed: bool,
}

impl ParamBuilder {
    /// The name on the wire, when it differs from the name the model uses.
    pub fn wire_name(mut self, wire_name: impl Into<String>) -> ParamBuilder {
        self.param.wire_name = Some(wire_name.into());
        self
    }

    /// The description the model reads.
    pub fn description(mut self, description: impl Into<String>) -> ParamBuilder {
        self.param.description = description.into();
        self
    }

    /// Where the value goes. Defaults to [`Location::Body`].
    pub fn location(mut self, location: Location) -> ParamBuilder {
        self.param.location = location;
        self
    }

    /// The value's type (the file's `type`, with `items` and `properties`). Defaults to
    /// the type the [`schema`](ParamBuilder::schema) names ([`ParamType::from_schema`]) when
    /// one is given, else [`ParamType::String`].
    pub fn ty(mut self, ty: ParamType) -> ParamBuilder {
        self.param.ty = ty;
        self.typed = true;
        self
    }

    /// Whether a value must be present. Defaults to `false` (path parameters are always
    /// required).
    pub fn required(mut self, required: bool) -> ParamBuilder {
        self.param.required = required;
        self
    }

    /// The value used when the model gives none (or gives `null` or `""`). It must fit the
    /// type and the enum.
    pub fn default(mut self, value: impl Into<Json>) -> ParamBuilder {
        self.param.default = Some(value.into());
        self.param.default_template = None;
        self
    }

    /// The default of a secret or hidden parameter as a [`ConfigValue`]: a literal, or a
    /// value read from `${NAME}` variables, whose template the plugin file is written with
    /// (the value never is). A context value has no default and sets none. Replaces any
    /// [`default`](ParamBuilder::default).
    pub fn default_config(mut self, value: ConfigValue) -> ParamBuilder {
        self.param.default = value.value().map(|text| Json::String(text.to_string()));
        self.param.default_template = value.template().map(str::to_string);
        self
    }

    /// The accepted values (the file's `enum`).
    pub fn enum_values<I, V>(mut self, values: I) -> ParamBuilder
    where
        I: IntoIterator<Item = V>,
        V: Into<Json>,
    {
        self.param.enum_values = values.into_iter().map(Into::into).collect();
        self
    }

    /// A secret value: hidden from the model and `***` in logs, `Debug` and dry runs. Only
    /// query and header parameters can be secret. Defaults to `false`.
    pub fn secret(mut self, secret: bool) -> ParamBuilder {
        self.param.secret = secret;
        self
    }

    /// Hidden from the model, filled from the call context or the default
    /// ([call context](crate::design::endpoints#call-context)).
    /// Defaults to `false`.
    pub fn hidden(mut self, hidden: bool) -> ParamBuilder {
        self.param.hidden = hidden;
        self
    }

    /// The [`CallContext`](crate::tool::CallContext) key a hidden or secret parameter is
    /// filled from. Defaults to the parameter's name.
    pub fn context(mut self, key: impl Into<String>) -> ParamBuilder {
        self.param.context = Some(key.into());
        self
    }

    /// JSON Schema's `format` (`int32`, `int64`, `date-time`, ...), shown to the model. On
    /// an integer parameter, `int32` and `int64` refuse values outside their range. Defaults
    /// to none.
    pub fn format(mut self, format: impl Into<String>) -> ParamBuilder {
        self.param.format = Some(format.into());
        self
    }

    /// How an array goes into a query, header or form body. Defaults to
    /// [`ArrayStyle::Repeat`].
    pub fn array_style(mut self, style: ArrayStyle) -> ParamBuilder {
        self.param.array_style = style;
        self
    }

    /// The value is the whole body (a JSON array or scalar body, for instance). Defaults to
    /// `false`.
    pub fn whole_body(mut self, whole_body: bool) -> ParamBuilder {
        self.param.whole_body = whole_body;
        self
    }

    /// A file part of a multipart body: the model's value is a handle the host's
    /// [`FileResolver`](crate::plugin::FileResolver) turns into bytes. Defaults to `false`.
    pub fn file(mut self, file: bool) -> ParamBuilder {
        self.param.file = file;
        self
    }

    /// The JSON Schema of the value as the model reads it (the file's `schema`): it replaces
    /// the schema made from the type, and calls check values against its cheap keywords.
    /// Without a [`ty`](ParamBuilder::ty), the type is the one it names
    /// ([`ParamType::from_schema`]); with one, building the plugin refuses a schema that
    /// accepts a JSON type the type does not (the model would send what the call refuses).
    pub fn schema(mut self, schema: Json) -> ParamBuilder {
        self.param.schema = Some(schema);
        self
    }

    /// The parameter (unchecked until the plugin is built).
    pub fn build(mut self) -> Param {
        if !self.typed {
            if let Some(schema) = &self.param.schema {
                self.param.ty = ParamType::from_schema(schema);
            }
        }
        self.param
    }
}

impl From<ParamBuilder> for Param {
    fn from(builder: ParamBuilder) -> Param {
        builder.build()
    }
}

impl Endpoint {
    /// An endpoint: the tool `name`, its `method` and its `path` template (`/v1/users/{id}`,
    /// appended to the base URL's path).
    pub fn builder(
        name: impl Into<String>,
        method: Method,
        path: impl Into<String>,
    ) -> EndpointBuilder {
        EndpointBuilder {
            endpoint: Endpoint {
                name: name.into(),
                description: String::new(),
                method,
                path: path.into(),
                params: Vec::new(),
                body_encoding: None,
                response_pointer: None,
                allow_unknown_arguments: false,
                allow_delete_body: false,
                allow_get_body: false,
                options: Options::default(),
                base_url: None,
                base_url_template: None,
                base_url_unset: None,
                auth: None,
                endpoint_headers: Vec::new(),
                content_type: None,
                title: None,
                tags: Vec::new(),
                hints: ToolAnnotations::default(),
                output_schema: None,
                response_fields: Vec::new(),
                fields_argument: false,
                pagination: None,
                confirm: None,
            },
        }
    }

    /// A `GET` endpoint.
    pub fn get(name: impl Into<String>, path: impl Into<String>) -> EndpointBuilder {
        Endpoint::builder(name, Method::Get, path)
    }

    /// A `POST` endpoint.
    pub fn post(name: impl Into<String>, path: impl Into<String>) -> EndpointBuilder {
        Endpoint::builder(name, Method::Post, path)
    }

    /// A `PUT` endpoint.
    pub fn put(name: impl Into<String>, path: impl Into<String>) -> EndpointBuilder {
        Endpoint::builder(name, Method::Put, path)
    }

    /// A `PATCH` endpoint.
    pub fn patch(name: impl Into<String>, path: impl Into<String>) -> EndpointBuilder {
        Endpoint::builder(name, Method::Patch, path)
    }

    /// A `DELETE` endpoint.
    pub fn delete(name: impl Into<String>, path: impl Into<String>) -> EndpointBuilder {
        Endpoint::builder(name, Method::Delete, path)
    }
}

/// Builds an [`Endpoint`]; each setter is named after the field of the plugin file.
///
/// # Examples
///
/// ```
/// use httptool::plugin::{Endpoint, Param, ParamType};
///
/// let endpoint: Endpoint = Endpoint::post("createIssue", "/repos/{repo}/issues")
///     .description("Opens an issue")
///     .param(Param::path("repo"))
///     .param(Param::body("title").required(true))
///     .param(Param::body("labels").ty(ParamType::array(ParamType::String)))
///     .into();
/// assert_eq!(endpoint.params().len(), 3);
/// ```
#[must_use]
#[derive(Clone, Debug)]
pub struct EndpointBuilder {
    endpoint: Endpoint,
}

impl EndpointBuilder {
    /// The description the model reads. Defaults to `METHOD path`.
    pub fn description(mut self, description: impl Into<String>) -> EndpointBuilder {
        self.endpoint.description = description.into();
        self
    }

    /// Adds a parameter.
    pub fn param(mut self, param: impl Into<Param>) -> EndpointBuilder {
        self.endpoint.params.push(param.into());
        self
    }

    /// Adds parameters.
    pub fn params<I, P>(mut self, params: I) -> EndpointBuilder
    where
        I: IntoIterator<Item = P>,
        P: Into<Param>,
    {
        self.endpoint
            .params
            .extend(params.into_iter().map(Into::into));
        self
    }

    /// How body parameters are encoded. Defaults to [`BodyEncoding::Form`] when a parameter
    /// is in `form`, else [`BodyEncoding::Json`].
    pub fn body_encoding(mut self, encoding: BodyEncoding) -> EndpointBuilder {
        self.endpoint.body_encoding = Some(encoding);
        self
    }

    /// Reads the pages of the endpoint's list in one call, as `pagination` says (see
    /// [`Pagination`](crate::plugin::Pagination)). Defaults to one page, as answered.
    pub fn pagination(mut self, pagination: crate::plugin::Pagination) -> EndpointBuilder {
        self.endpoint.pagination = Some(pagination);
        self
    }

    /// Keeps only the part of a JSON response at this JSON Pointer (RFC 6901, such as
    /// `/data/items`) for the model. Defaults to the whole response.
    pub fn response_pointer(mut self, pointer: impl Into<String>) -> EndpointBuilder {
        self.endpoint.response_pointer = Some(pointer.into());
        self
    }

    /// Keeps only these parts of a JSON response for the model: field paths such as
    /// `/total_count`, `items/*/title` or `user.login` (`*` is every array item). Defaults to
    /// the whole response.
    pub fn response_fields<I, S>(mut self, paths: I) -> EndpointBuilder
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.endpoint.response_fields = paths.into_iter().map(Into::into).collect();
        self
    }

    /// Lets the model send a `fields` argument, an array of field paths, to get only those
    /// parts of the JSON response (after `response_fields`); the schema it reads documents
    /// it. Defaults to `false`.
    pub fn fields_argument(mut self, allow: bool) -> EndpointBuilder {
        self.endpoint.fields_argument = allow;
        self
    }

    /// Ignores arguments the endpoint does not declare instead of refusing them. Defaults to
    /// `false`.
    pub fn allow_unknown_arguments(mut self, allow: bool) -> EndpointBuilder {
        self.endpoint.allow_unknown_arguments = allow;
        self
    }

    /// Sends a DELETE's body parameters as a JSON body instead of in the query. Defaults to
    /// `false`; `true` on another method is a [`Conflict`](crate::plugin::ErrorKind::Conflict) when
    /// the plugin is built.
    pub fn allow_delete_body(mut self, allow: bool) -> EndpointBuilder {
        self.endpoint.allow_delete_body = allow;
        self
    }

    /// Sends a GET's body parameters as a body instead of in the query, for the APIs that
    /// read one (Elasticsearch's and OpenSearch's `_search`). Defaults to `false`; `true` on
    /// another method is a [`Conflict`](crate::plugin::ErrorKind::Conflict) when the plugin is built.
    pub fn allow_get_body(mut self, allow: bool) -> EndpointBuilder {
        self.endpoint.allow_get_body = allow;
        self
    }

    /// A human-readable title (MCP's `title`). Defaults to none.
    pub fn title(mut self, title: impl Into<String>) -> EndpointBuilder {
        self.endpoint.title = Some(title.into());
        self
    }

    /// Adds a word that groups this endpoint with others (OpenAPI `tags`); see
    /// [`Endpoint::tags`]. Defaults to none.
    pub fn tag(mut self, tag: impl Into<String>) -> EndpointBuilder {
        self.endpoint.tags.push(tag.into());
        self
    }

    /// Which calls of this endpoint need the user's approval, whatever the plugin's
    /// [`confirm`](PluginBuilder::confirm) says (`Confirm::Never` exempts it). Defaults to
    /// the plugin's.
    pub fn confirm(mut self, confirm: Confirm) -> EndpointBuilder {
        self.endpoint.confirm = Some(confirm);
        self
    }

    /// Behaviour hints; those left unknown come from the method (see
    /// [`method_annotations`](crate::plugin::method_annotations)).
    pub fn annotations(mut self, annotations: ToolAnnotations) -> EndpointBuilder {
        self.endpoint.hints = annotations;
        self
    }

    /// The JSON Schema of the JSON the model gets (MCP's `outputSchema`): an object, at most
    /// [`MAX_OUTPUT_SCHEMA_BYTES`](crate::plugin::MAX_OUTPUT_SCHEMA_BYTES) as compact JSON (checked
    /// when the plugin is built). Defaults to none.
    pub fn output_schema(mut self, schema: Json) -> EndpointBuilder {
        self.endpoint.output_schema = Some(schema);
        self
    }

    /// Limits, timeouts and policies for this endpoint, over the plugin's.
    pub fn options(mut self, options: Options) -> EndpointBuilder {
        self.endpoint.options = options;
        self
    }

    /// The endpoint's own base URL (an OpenAPI operation with its own `servers`), used
    /// instead of the plugin's. Defaults to the plugin's.
    pub fn base_url(mut self, base_url: impl Into<String>) -> EndpointBuilder {
        self.endpoint.base_url = Some(base_url.into());
        self
    }

    /// The endpoint's own auth, sent instead of the plugin's (a token call with basic auth
    /// in a plugin whose other endpoints send a bearer token). Defaults to the plugin's.
    pub fn auth(mut self, auth: impl Into<Auth>) -> EndpointBuilder {
        self.endpoint.auth = Some(Box::new(EndpointAuth::Auth(auth.into())));
        self
    }

    /// Sends no credential on this endpoint, whatever the plugin's auth (a health check, a
    /// login). The file's `"auth": "none"`.
    pub fn no_auth(mut self) -> EndpointBuilder {
        self.endpoint.auth = Some(Box::new(EndpointAuth::None));
        self
    }

    /// A static header sent with every call of this endpoint (the file's endpoint-level
    /// `headers`): it replaces the plugin's header of the same name (names are
    /// case-insensitive), so a cookie or an API key goes only to the endpoints of the host
    /// it belongs to. A value from the environment or the context is secret, and the checks
    /// of the plugin's headers apply (a header name, no control character, no header the
    /// client writes, no `Host`, not the header `auth` sets). Defaults to none.
    pub fn endpoint_header(
        mut self,
        name: impl Into<String>,
        value: impl Into<ConfigValue>,
    ) -> EndpointBuilder {
        self.endpoint
            .endpoint_headers
            .push((name.into(), value.into()));
        self
    }

    /// The endpoint's base URL as a plugin file writes it, reading `${NAME}`, with
    /// `value`, what it stands for (`to_json` writes the template back), and the variable
    /// it reads that has no value yet, if any (every call is refused until the file is
    /// loaded with it set).
    pub(crate) fn base_url_template(
        mut self,
        value: impl Into<String>,
        template: Option<String>,
        unset: Option<String>,
    ) -> EndpointBuilder {
        self.endpoint.base_url = Some(value.into());
        self.endpoint.base_url_template = template;
        self.endpoint.base_url_unset = unset;
        self
    }

    /// The `Content-Type` of a raw body ([`BodyEncoding::Raw`]), such as `text/plain` or
    /// `application/octet-stream`.
    pub fn content_type(mut self, content_type: impl Into<String>) -> EndpointBuilder {
        self.endpoint.content_type = Some(content_type.into());
        self
    }

    /// The endpoint (unchecked until the plugin is built).
    pub fn build(mut self) -> Endpoint {
        // Parameters are added one by one, so the list has room for up to twice as many
        // (four at least): a plugin keeps its endpoints for its lifetime, and an imported
        // API has thousands.
        self.endpoint.params.shrink_to_fit();
        self.endpoint
    }
}

impl From<EndpointBuilder> for Endpoint {
    fn from(builder: EndpointBuilder) -> Endpoint {
        builder.build()
    }
}

/// Builds an [`HttpPlugin`]; each setter is named after the field of the plugin file, and
/// [`build`](PluginBuilder::build) checks everything.
///
/// # Examples
///
/// ```
/// use httptool::plugin::{Auth, ConfigValue, Endpoint, HttpPlugin, Param, ParamType};
///
/// let plugin = HttpPlugin::builder("weather", "https://api.example.com")
///     .description("City weather")
///     .header("Accept", "application/json")
///     .auth(Auth::bearer(ConfigValue::context("weather_token")))
///     .endpoint(
///         Endpoint::get("getWeather", "/v1/weather")
///             .description("Current weather for a city")
///             .param(Param::query("city").wire_name("q").required(true))
///             .param(Param::query("days").ty(ParamType::Integer).default(1)),
///     )
///     .build()?;
/// assert_eq!(plugin.specs()[0].name(), "getWeather");
/// # Ok::<(), httptool::plugin::Error>(())
/// ```
#[must_use]
#[derive(Clone, Debug)]
pub struct PluginBuilder {
    /// What is declared so far, unchecked.
    pub(crate) decl: Declaration,
}

impl HttpPlugin {
    /// A plugin named `name` whose endpoints live under `base_url` (absolute `http` or
    /// `https`, with a host; its path prefixes every endpoint's path).
    pub fn builder(name: impl Into<String>, base_url: impl Into<String>) -> PluginBuilder {
        PluginBuilder {
            decl: Declaration::new(name.into(), base_url.into()),
        }
    }
}

impl PluginBuilder {
    /// Schemas that parameter schemas refer to as `#/$defs/Name` (JSON Schema 2020-12): a
    /// component many parameters share, or a recursive one, written once (the OpenAPI
    /// importer writes shared and recursive components so). Each tool's schema gets, under
    /// its own `$defs`, the entries its parameters reach, and a call's values are checked
    /// through them. The plugin file's `$defs`.
    pub fn defs(mut self, defs: crate::json::Map) -> PluginBuilder {
        self.decl.defs = defs;
        self
    }

    /// Which calls need the user's approval before they are sent (see [`Confirm`]); an
    /// endpoint's own [`confirm`](EndpointBuilder::confirm) wins over it. Defaults to
    /// [`Confirm::Never`].
    pub fn confirm(mut self, confirm: Confirm) -> PluginBuilder {
        self.decl.confirm = confirm;
        self
    }

    /// What the plugin is for.
    pub fn description(mut self, description: impl Into<String>) -> PluginBuilder {
        self.decl.description = description.into();
        self
    }

    /// A header sent with every call. A value from the environment or the context is
    /// secret.
    pub fn header(
        mut self,
        name: impl Into<String>,
        value: impl Into<ConfigValue>,
    ) -> PluginBuilder {
        self.decl.headers.push((name.into(), value.into()));
        self
    }

    /// A query value sent with every call (the file's `query`). A value from the environment
    /// or the context is secret.
    pub fn query(
        mut self,
        name: impl Into<String>,
        value: impl Into<ConfigValue>,
    ) -> PluginBuilder {
        self.decl.query.push((name.into(), value.into()));
        self
    }

    /// How the plugin authenticates.
    pub fn auth(mut self, auth: Auth) -> PluginBuilder {
        self.decl.auth = Some(auth);
        self
    }

    /// Limits, timeouts and policies for every endpoint (each endpoint can override them).
    pub fn options(mut self, options: Options) -> PluginBuilder {
        self.decl.options = options;
        self
    }

    /// Adds an endpoint.
    pub fn endpoint(mut self, endpoint: impl Into<Endpoint>) -> PluginBuilder {
        self.decl.endpoints.push(endpoint.into());
        self
    }

    /// Checks the declaration and makes the plugin. No I/O happens: every network check is
    /// made at call time.
    ///
    /// # Errors
    ///
    /// An [`Error`] naming the field: a base URL that is not `http`/`https` with a host, a
    /// path whose `{name}` placeholders and path parameters do not match, a name some
    /// provider refuses or that appears twice, a default or enum value that does not fit the
    /// type, a header parameter that would shadow a static or auth header, a header name that
    /// is not a token, settings that cannot go together.
    pub fn build(self) -> Result<HttpPlugin, Error> {
        self.build_on(1)
    }

    /// [`build`](Self::build), compiling the endpoints on up to `threads` threads when
    /// there are enough of them to gain: the plugin, or the error, is the same.
    pub(crate) fn build_on(self, threads: usize) -> Result<HttpPlugin, Error> {
        compile::build(self.decl, threads).map(HttpPlugin::new)
    }
}

/// What [`PluginBuilder::build_each`] refused whole.
#[derive(Clone, Debug)]
pub(crate) enum Refused {
    /// A part of the plugin itself (its name, base URL, headers, auth, options).
    Plugin(Error),
    /// Every endpoint: the first one's error (the endpoint at index 0).
    EveryEndpoint(Error),
}

impl PluginBuilder {
    /// [`build`](Self::build), leaving out each endpoint that does not compile instead of
    /// failing (an importer's, where one bad operation costs only itself): the plugin of the
    /// others, and each endpoint left out as its index, in the order the endpoints were
    /// added, and its error, in index order. Compiles on up to `threads` threads, as
    /// [`build_on`](Self::build_on).
    ///
    /// # Errors
    ///
    /// [`Refused::Plugin`] when a part of the plugin itself is wrong, and
    /// [`Refused::EveryEndpoint`] when no endpoint is left.
    pub(crate) fn build_each(
        mut self,
        threads: usize,
    ) -> Result<(HttpPlugin, Vec<(usize, Error)>), Refused> {
        // The plugin without its endpoints (cheap: `$defs` is shared, not copied) tells a
        // plugin-level error from the first endpoint's: its parts are checked before any
        // endpoint, so it fails with the same error when they are wrong.
        let endpoints = std::mem::take(&mut self.decl.endpoints);
        let shell = self.decl.clone();
        self.decl.endpoints = endpoints;
        match compile::build_skipping(self.decl, threads) {
            Ok((checked, refused)) => Ok((HttpPlugin::new(checked), refused)),
            Err(e) => match compile::build(shell, 1) {
                Err(plugin) if plugin == e => Err(Refused::Plugin(e)),
                _ => Err(Refused::EveryEndpoint(e)),
            },
        }
    }
}
