//! OAuth 2.0 auth of a plugin: the client credentials grant (RFC 6749 section 4.4) and the
//! refresh token grant (section 6), declared here and run by `token.rs`.

use std::fmt;
use std::sync::Arc;

use crate::plugin::declare::config_value::ConfigValue;
use crate::quote::MASK;
use crate::tool::CallContext;

/// Which grant a plugin's OAuth 2.0 auth uses to get its access tokens.
///
/// `#[non_exhaustive]`: more grants of RFC 6749 and its extensions may be supported.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Grant {
    /// `grant_type=client_credentials` (RFC 6749 section 4.4): the client's own credentials
    /// buy the token. The file type is `oauth2_client_credentials`.
    ClientCredentials,
    /// `grant_type=refresh_token` (RFC 6749 section 6): a refresh token the application
    /// holds buys the token. The file type is `oauth2_refresh_token`.
    RefreshToken {
        /// The refresh token (a secret).
        refresh_token: ConfigValue,
    },
}

/// How the client authenticates to the token endpoint (RFC 6749 section 2.3.1).
///
/// `#[non_exhaustive]`: more client authentication methods (RFC 7523's `private_key_jwt`, RFC
/// 8705's mutual TLS) may be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum ClientAuth {
    /// `Authorization: Basic` of the form-urlencoded client id and secret
    /// (`client_secret_basic`), which every server must accept. The default.
    #[default]
    Basic,
    /// `client_id` and `client_secret` in the form body (`client_secret_post`).
    Body,
}

impl ClientAuth {
    /// The word the plugin file uses: `"basic"` or `"body"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ClientAuth::Basic => "basic",
            ClientAuth::Body => "body",
        }
    }
}

/// OAuth 2.0 auth: the plugin gets an access token from `token_url`, caches it, renews it,
/// and sends it as `Authorization: Bearer` (RFC 6750 section 2.1).
///
/// - The first call that needs a token fetches it with a form POST to the token endpoint
///   (RFC 6749 sections 4.4.2 and 6). Calls made meanwhile wait for that one fetch: there is
///   one request per cache key, however many threads call.
/// - The token is reused until less than a tenth of its lifetime (`expires_in`), and at most
///   30 s, remains; without `expires_in` it is kept [`DEFAULT_TOKEN_LIFETIME`].
/// - A 401 from the API for a cached token drops it; an idempotent call then fetches a new
///   token and is repeated once; a POST or PATCH is never sent twice: its error says the
///   token was refused, and the next call fetches a new one.
/// - A refresh token the server returns (rotation, RFC 6749 section 6 and OAuth 2.0 Security
///   BCP section 4.14) replaces the old one in memory, and the plugin's
///   [`TokenListener`] is told, so the application can store it.
/// - The token URL, client id, secret and refresh token may come from the call context
///   ([`ConfigValue::context`]); tokens are cached per distinct set of them, so tenants never
///   share a token.
///
/// # Security
///
/// The token endpoint is reached through the plugin's transport with its address policy
/// (and a client's host allowlist). It must be `https`, unless it is loopback (`127.0.0.0/8`,
/// `::1`, `localhost`) or [`allow_http`](OAuth2::allow_http) says otherwise: the request
/// carries the client secret. The client secret, refresh token and access token are `***`
/// in `Debug`, dry runs, exported curl commands, observers' records and every error message;
/// a token endpoint's error names its OAuth error code, never a secret. Redirects from the
/// token endpoint are not followed.
///
/// # Examples
///
/// ```
/// use httptool::plugin::{Auth, ClientAuth, ConfigValue, OAuth2};
///
/// let auth = Auth::from(
///     OAuth2::client_credentials("https://login.example.com/token", "my-client", "s3cret")
///         .with_scope("tickets:read")
///         .with_client_auth(ClientAuth::Body),
/// );
/// assert_eq!(auth.type_name(), "oauth2_client_credentials");
/// assert!(!format!("{:?}", auth).contains("s3cret"));
///
/// // Per tenant: everything from the call context.
/// let per_user = OAuth2::refresh_token(
///     ConfigValue::context("token_url"),
///     ConfigValue::context("client_id"),
///     ConfigValue::context("refresh_token"),
/// );
/// assert!(per_user.client_secret().is_none());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct OAuth2 {
    pub(crate) grant: Grant,
    pub(crate) token_url: ConfigValue,
    pub(crate) client_id: ConfigValue,
    pub(crate) client_secret: Option<ConfigValue>,
    pub(crate) scope: Option<String>,
    pub(crate) audience: Option<String>,
    pub(crate) client_auth: ClientAuth,
    pub(crate) allow_http: bool,
}

/// How long a token whose response has no `expires_in` is reused: 5 minutes (RFC 6749
/// section 5.1 leaves the default to the server; a short guess keeps a revoked token's
/// damage short, and a 401 renews it sooner).
pub const DEFAULT_TOKEN_LIFETIME: std::time::Duration = std::time::Duration::from_secs(300);

/// The most time before expiry at which a cached token is renewed: 30 s (less for tokens
/// that live under 5 minutes: a tenth of their lifetime).
pub const MAX_TOKEN_RENEW_MARGIN: std::time::Duration = std::time::Duration::from_secs(30);

/// The most token cache entries a plugin keeps (one for each tenant's token URL, client and
/// secret): 1024. Past it, entries no call is using are dropped, expired ones first.
pub const MAX_CACHED_TOKENS: usize = 1024;

impl OAuth2 {
    /// The client credentials grant (RFC 6749 section 4.4).
    pub fn client_credentials(
        token_url: impl Into<ConfigValue>,
        client_id: impl Into<ConfigValue>,
        client_secret: impl Into<ConfigValue>,
    ) -> OAuth2 {
        OAuth2::new(Grant::ClientCredentials, token_url, client_id)
            .with_client_secret(client_secret)
    }

    /// The refresh token grant (RFC 6749 section 6), for a public client (no secret; add
    /// one with [`with_client_secret`](OAuth2::with_client_secret)).
    pub fn refresh_token(
        token_url: impl Into<ConfigValue>,
        client_id: impl Into<ConfigValue>,
        refresh_token: impl Into<ConfigValue>,
    ) -> OAuth2 {
        let grant = Grant::RefreshToken {
            refresh_token: refresh_token.into(),
        };
        OAuth2::new(grant, token_url, client_id)
    }

    fn new(grant: Grant, token_url: impl Into<ConfigValue>, id: impl Into<ConfigValue>) -> OAuth2 {
        OAuth2 {
            grant,
            token_url: token_url.into(),
            client_id: id.into(),
            client_secret: None,
            scope: None,
            audience: None,
            client_auth: ClientAuth::default(),
            allow_http: false,
        }
    }

    /// Sets the client secret.
    #[must_use]
    pub fn with_client_secret(mut self, secret: impl Into<ConfigValue>) -> OAuth2 {
        self.client_secret = Some(secret.into());
        self
    }

    /// Asks for `scope` (space-separated, RFC 6749 section 3.3). Defaults to none: the
    /// server's default scope.
    #[must_use]
    pub fn with_scope(mut self, scope: impl Into<String>) -> OAuth2 {
        self.scope = Some(scope.into());
        self
    }

    /// Sends `audience` (the API the token is for, as Auth0 and others ask). Defaults to
    /// none.
    #[must_use]
    pub fn with_audience(mut self, audience: impl Into<String>) -> OAuth2 {
        self.audience = Some(audience.into());
        self
    }

    /// How the client authenticates. Defaults to [`ClientAuth::Basic`].
    #[must_use]
    pub fn with_client_auth(mut self, client_auth: ClientAuth) -> OAuth2 {
        self.client_auth = client_auth;
        self
    }

    /// Allows a token URL that is plain `http` on a host that is not loopback (the secret
    /// then crosses the network in clear). Defaults to `false`.
    #[must_use]
    pub fn allow_http(mut self, allow: bool) -> OAuth2 {
        self.allow_http = allow;
        self
    }

    /// The grant.
    pub fn grant(&self) -> &Grant {
        &self.grant
    }

    /// The token endpoint's URL.
    pub fn token_url(&self) -> &ConfigValue {
        &self.token_url
    }

    /// The client id.
    pub fn client_id(&self) -> &ConfigValue {
        &self.client_id
    }

    /// The client secret, if there is one.
    pub fn client_secret(&self) -> Option<&ConfigValue> {
        self.client_secret.as_ref()
    }

    /// The scope asked for.
    pub fn scope(&self) -> Option<&str> {
        self.scope.as_deref()
    }

    /// The audience sent.
    pub fn audience(&self) -> Option<&str> {
        self.audience.as_deref()
    }

    /// How the client authenticates.
    pub fn client_auth(&self) -> ClientAuth {
        self.client_auth
    }

    /// Whether a plain `http` token URL off loopback is allowed.
    pub fn allows_http(&self) -> bool {
        self.allow_http
    }

    /// The word the plugin file uses for this auth's type.
    pub(crate) fn type_name(&self) -> &'static str {
        match self.grant {
            Grant::ClientCredentials => "oauth2_client_credentials",
            Grant::RefreshToken { .. } => "oauth2_refresh_token",
        }
    }

    /// Every value of the declaration, for the context keys it needs.
    pub(crate) fn values(&self) -> Vec<&ConfigValue> {
        let mut values = vec![&self.token_url, &self.client_id];
        values.extend(self.client_secret.as_ref());
        if let Grant::RefreshToken { refresh_token } = &self.grant {
            values.push(refresh_token);
        }
        values
    }
}

/// Never shows a secret: literal values print as `***` ([`ConfigValue`]'s `Debug`).
impl fmt::Debug for OAuth2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("OAuth2");
        s.field("grant", &self.type_name())
            .field("token_url", &self.token_url)
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret);
        if let Grant::RefreshToken { refresh_token } = &self.grant {
            s.field("refresh_token", refresh_token);
        }
        s.field("scope", &self.scope)
            .field("audience", &self.audience)
            .field("client_auth", &self.client_auth)
            .field("allow_http", &self.allow_http)
            .finish()
    }
}

/// A refresh token the token endpoint replaced (rotation), as the plugin's
/// [`TokenListener`] hears of it.
///
/// `Debug` shows the refresh token as `***`.
pub struct RotatedToken<'a> {
    /// The token endpoint that issued it.
    pub token_url: &'a str,
    /// The client it was issued to.
    pub client_id: &'a str,
    /// The new refresh token: the old one will no longer work.
    pub refresh_token: &'a str,
    /// The context of the call that got it (which user's token it is).
    pub context: &'a CallContext,
}

impl fmt::Debug for RotatedToken<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RotatedToken")
            .field("token_url", &self.token_url)
            .field("client_id", &self.client_id)
            .field("refresh_token", &MASK)
            .field("context", self.context)
            .finish()
    }
}

/// Hears of refresh tokens the token endpoint rotated, so the application can store the new
/// one (the plugin already uses it for its next fetches).
///
/// Called on the calling thread while other calls for the same token wait: keep it quick.
/// Install one with [`HttpPlugin::with_token_listener`](crate::plugin::HttpPlugin::with_token_listener);
/// any `Fn(&RotatedToken)` is one.
pub trait TokenListener: Send + Sync {
    /// The server replaced the refresh token.
    fn refresh_token_rotated(&self, rotated: &RotatedToken<'_>);
}

impl<F> TokenListener for F
where
    F: Fn(&RotatedToken<'_>) + Send + Sync,
{
    fn refresh_token_rotated(&self, rotated: &RotatedToken<'_>) {
        self(rotated)
    }
}

/// A listener, shared.
pub(crate) type SharedListener = Arc<dyn TokenListener>;
