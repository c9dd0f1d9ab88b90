//! Auth at send time: the header or query value of an [`Auth`], per-call context slots, and
//! the [`Signer`] trait for schemes that sign each request.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::http::{self, Request};
pub(crate) use crate::plugin::declare::config_value::{missing_context, resolve};
use crate::plugin::declare::model::Auth;
use crate::tool::{CallContext, ErrorKind, ToolOutput};

/// Signs each request just before it is sent, for schemes that a static credential cannot
/// express: a timestamp and an HMAC of it, a signature over the method and path, a nonce.
///
/// The signer gets the finished request (URL, headers, body) and the call's context, and
/// adds what the scheme needs. What it adds is a credential: every header field and query
/// pair it adds is marked secret afterwards, whether or not the signer marked it
/// ([`Request::mark_query_secret`], [`Headers::append_sensitive`](crate::http::Headers::append_sensitive)),
/// so logs, dry runs and `Debug` show `***` and a redirect that leaves the origin drops it.
/// A signer runs for dry runs too, so a dry run shows the exact request.
///
/// Install one with [`HttpPlugin::with_signer`](crate::plugin::HttpPlugin::with_signer).
///
/// # Errors
///
/// A signer that cannot sign returns an error; the call fails with
/// [`ErrorKind::ToolFailed`] and a message that includes the error's `Display`, so it must
/// not hold a secret.
///
/// # Examples
///
/// A chat-bot webhook in the style of DingTalk's: `timestamp` and `sign` query parameters,
/// where `sign` is the Base64 of an HMAC-SHA256 of `"{timestamp}\n{secret}"` keyed with the
/// secret. This crate has no cryptography, so the example takes the MAC function from the
/// application (`hmac_sha256_base64` here is a stand-in; use a real HMAC).
///
/// ```
/// use std::sync::Arc;
/// use std::time::{SystemTime, UNIX_EPOCH};
/// use httptool::http::Request;
/// use httptool::plugin::{Endpoint, HttpPlugin, Param, Signer};
/// use httptool::tool::CallContext;
///
/// struct WebhookSigner {
///     secret: String,
///     mac: fn(key: &[u8], message: &[u8]) -> String, // Base64 of HMAC-SHA256
/// }
///
/// impl Signer for WebhookSigner {
///     fn sign(
///         &self,
///         request: &mut Request,
///         _context: &CallContext,
///     ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
///         let millis = SystemTime::now().duration_since(UNIX_EPOCH)?.as_millis();
///         let timestamp = millis.to_string();
///         let to_sign = format!("{}\n{}", timestamp, self.secret);
///         let sign = (self.mac)(self.secret.as_bytes(), to_sign.as_bytes());
///         request.url_mut().append_query_pair("timestamp", &timestamp);
///         request.url_mut().append_query_pair("sign", &sign);
///         request.mark_query_secret("sign");
///         Ok(())
///     }
/// }
///
/// // A stand-in so the example runs; it is not a MAC.
/// fn hmac_sha256_base64(key: &[u8], message: &[u8]) -> String {
///     let sum = key.iter().chain(message).fold(0u64, |h, &b| h.rotate_left(5) ^ u64::from(b));
///     format!("{:016x}", sum)
/// }
///
/// let plugin = HttpPlugin::builder("bot", "https://oapi.example.com")
///     .endpoint(
///         Endpoint::post("sendMessage", "/robot/send")
///             .param(Param::body("text").required(true)),
///     )
///     .build()?
///     .with_signer(Arc::new(WebhookSigner {
///         secret: String::from("SEC-example"),
///         mac: hmac_sha256_base64,
///     }));
///
/// let dry = plugin.dry_run("sendMessage", r#"{"text":"hi"}"#, &CallContext::new()).unwrap();
/// let shown = dry.to_string();
/// assert!(shown.starts_with("POST /robot/send?timestamp="));
/// assert!(shown.contains("&sign=*** HTTP/1.1\r\n"));
/// # Ok::<(), httptool::plugin::Error>(())
/// ```
pub trait Signer: Send + Sync {
    /// Adds the signature to `request`.
    ///
    /// # Errors
    ///
    /// When the request cannot be signed; see the trait's docs.
    fn sign(
        &self,
        request: &mut Request,
        context: &CallContext,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>>;
}

impl<F> Signer for F
where
    F: Fn(&mut Request, &CallContext) -> Result<(), Box<dyn std::error::Error + Send + Sync>>
        + Send
        + Sync,
{
    fn sign(
        &self,
        request: &mut Request,
        context: &CallContext,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        self(request, context)
    }
}

/// Runs `signer` on `request`, then marks every header field and query pair it added secret
/// ([redirects](crate::design::endpoints#redirects) and
/// [secrets](crate::design::endpoints#secrets): an injected credential is masked wherever
/// the request is shown, and dropped when a redirect leaves the origin).
pub(crate) fn sign(
    signer: &dyn Signer,
    request: &mut Request,
    context: &CallContext,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let fields: HashSet<(String, String)> = request
        .headers()
        .iter()
        .map(|(name, value)| (name.to_ascii_lowercase(), value.to_string()))
        .collect();
    let pairs: HashSet<(String, String)> = request.url().query_pairs().collect();
    signer.sign(request, context)?;
    let added_fields: Vec<String> = request
        .headers()
        .iter()
        .filter(|(name, value)| !fields.contains(&(name.to_ascii_lowercase(), value.to_string())))
        .map(|(name, _)| name.to_string())
        .collect();
    for name in added_fields {
        request.headers_mut().mark_sensitive(&name);
    }
    let added_pairs: Vec<String> = request
        .url()
        .query_pairs()
        .filter(|pair| !pairs.contains(pair))
        .map(|(name, _)| name)
        .collect();
    for name in added_pairs {
        request.mark_query_secret(&name);
    }
    Ok(())
}

/// The header or query value of `auth` when every part of it is known before the call, so
/// calls reuse it.
pub(crate) fn known_value(auth: &Auth) -> Option<String> {
    match auth {
        Auth::Bearer { token } => token.value().map(bearer),
        Auth::Basic { username, password } => {
            Some(http::basic_auth(username.value()?, password.value()?))
        }
        Auth::Header { value, .. } | Auth::Query { value, .. } => value.value().map(str::to_string),
        // Fetched at call time (`token.rs`); signed at call time (`sigv4.rs`); answering a
        // challenge (`digest.rs`).
        Auth::OAuth2(_) | Auth::AwsSigV4(_) | Auth::Digest { .. } => None,
    }
}

fn bearer(token: &str) -> String {
    format!("Bearer {}", token)
}

/// The value of the auth header or query parameter for one call.
pub(crate) fn value_for<'a>(
    auth: &'a Auth,
    known: Option<&'a str>,
    context: &'a CallContext,
) -> Result<Cow<'a, str>, ToolOutput> {
    if let Some(known) = known {
        return Ok(Cow::Borrowed(known));
    }
    Ok(match auth {
        Auth::Bearer { token } => Cow::Owned(bearer(resolve(token, context)?)),
        Auth::Basic { username, password } => {
            let user = resolve(username, context)?;
            if user.contains(':') {
                return Err(ToolOutput::error(
                    ErrorKind::InvalidParameter,
                    "the application's call context holds a basic auth user name with ':', which RFC 7617 forbids; this is not caused by the arguments",
                ));
            }
            Cow::Owned(http::basic_auth(user, resolve(password, context)?))
        }
        Auth::Header { value, .. } | Auth::Query { value, .. } => {
            Cow::Borrowed(resolve(value, context)?)
        }
        // The tool adds the token it got, or the signature (`HttpTool`), never the request
        // builder.
        Auth::OAuth2(_) | Auth::AwsSigV4(_) | Auth::Digest { .. } => return Err(ToolOutput::error(
            ErrorKind::Internal,
            "an oauth2 token, an aws_sigv4 signature or a digest answer cannot be built into the request; this is not caused by the arguments",
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::ConfigValue;

    #[test]
    fn what_a_signer_adds_is_secret_even_unmarked() {
        // Regression: a signer that added its signature with `append` (not
        // `append_sensitive`) and did not mark its query pair had both shown in dry runs and
        // `Debug`, and kept across a redirect to another origin.
        let signer = |request: &mut Request, _: &CallContext| {
            request.headers_mut().append("X-Signature", "sig-value")?;
            request.url_mut().append_query_pair("sig", "q-value");
            Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
        };
        let mut request = Request::get("https://api.example.com/x?page=2")
            .unwrap()
            .with_header("Accept", "application/json")
            .unwrap();
        sign(&signer, &mut request, &CallContext::new()).unwrap();
        assert!(request.headers().is_sensitive("x-signature"));
        assert!(!request.headers().is_sensitive("accept"));
        assert_eq!(request.secret_query_params(), ["sig"]);
        let shown = String::from_utf8(request.render(http::Secrets::Mask).unwrap()).unwrap();
        assert!(
            shown.starts_with("GET /x?page=2&sig=*** HTTP/1.1\r\n"),
            "{shown}"
        );
        assert!(shown.contains("X-Signature: ***\r\n"), "{shown}");
        assert!(!format!("{request:?}").contains("value"));
    }

    #[test]
    fn known_values() {
        assert_eq!(known_value(&Auth::bearer("t")).as_deref(), Some("Bearer t"));
        assert_eq!(known_value(&Auth::bearer(ConfigValue::context("k"))), None);
        assert_eq!(known_value(&Auth::query("key", "v")).as_deref(), Some("v"));
    }

    #[test]
    fn context_values_resolve_per_call() {
        let auth = Auth::basic(ConfigValue::context("user"), "pw");
        let context = CallContext::new().with("user", "ann");
        assert_eq!(
            value_for(&auth, None, &context).unwrap(),
            http::basic_auth("ann", "pw")
        );
        let missing = value_for(&auth, None, &CallContext::new()).unwrap_err();
        assert_eq!(missing.error_kind(), Some(ErrorKind::MissingParameter));
        let colon = CallContext::new().with("user", "a:b");
        let err = value_for(&auth, None, &colon).unwrap_err();
        assert_eq!(err.error_kind(), Some(ErrorKind::InvalidParameter));
    }
}
