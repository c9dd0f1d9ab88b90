//! The crate-level error: any module's error, for code that handles them in one place.

use std::fmt;

#[cfg(feature = "curl")]
use crate::curl;
#[cfg(feature = "har")]
use crate::har;
#[cfg(feature = "http")]
use crate::http;
#[cfg(feature = "openapi")]
use crate::openapi;
#[cfg(feature = "plugin")]
use crate::plugin;
#[cfg(feature = "postman")]
use crate::postman;
#[cfg(feature = "tool")]
use crate::tool;
#[cfg(feature = "yaml")]
use crate::yaml;
use crate::{json, url};

/// An error from any layer of httptool.
///
/// Each module has its own error type with a `kind()` to match on; this enum wraps them so
/// an application can use `?` across layers and still reach the original with a `match`.
/// `Display` is the wrapped error's message, unchanged. A variant exists when its layer's
/// feature is on (`Json` and `Url` always).
///
/// `#[non_exhaustive]`: a new module brings its own variant.
///
/// # Examples
///
/// ```
/// fn load(text: &str) -> Result<httptool::url::Url, httptool::Error> {
///     let value = httptool::json::parse(text)?; // a json::Error
///     let base = value["base_url"].as_str().unwrap_or_default();
///     Ok(httptool::url::Url::parse(base)?) // a url::Error
/// }
///
/// match load("{\"base_url\": 1") {
///     Err(httptool::Error::Json(e)) => assert_eq!(e.line(), 1),
///     other => panic!("expected a JSON error, got {:?}", other),
/// }
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Text that is not the JSON expected.
    Json(json::Error),
    /// A URL that cannot be used.
    Url(url::Error),
    /// A request that could not be built, sent, or answered.
    #[cfg(feature = "http")]
    Http(http::Error),
    /// A tool, spec, call or provider payload that is not usable.
    #[cfg(feature = "tool")]
    Tool(tool::Error),
    /// A plugin declaration that is not valid.
    #[cfg(feature = "plugin")]
    Plugin(plugin::Error),
    /// A curl command that cannot be read or converted.
    #[cfg(feature = "curl")]
    Curl(curl::Error),
    /// An OpenAPI document that cannot be imported.
    #[cfg(feature = "openapi")]
    OpenApi(openapi::Error),
    /// A Postman collection that cannot be imported.
    #[cfg(feature = "postman")]
    Postman(postman::Error),
    /// A HAR recording that cannot be imported.
    #[cfg(feature = "har")]
    Har(har::Error),
    /// Text that is not the YAML expected.
    #[cfg(feature = "yaml")]
    Yaml(yaml::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Json(e) => e.fmt(f),
            Error::Url(e) => e.fmt(f),
            #[cfg(feature = "http")]
            Error::Http(e) => e.fmt(f),
            #[cfg(feature = "tool")]
            Error::Tool(e) => e.fmt(f),
            #[cfg(feature = "plugin")]
            Error::Plugin(e) => e.fmt(f),
            #[cfg(feature = "curl")]
            Error::Curl(e) => e.fmt(f),
            #[cfg(feature = "openapi")]
            Error::OpenApi(e) => e.fmt(f),
            #[cfg(feature = "postman")]
            Error::Postman(e) => e.fmt(f),
            #[cfg(feature = "har")]
            Error::Har(e) => e.fmt(f),
            #[cfg(feature = "yaml")]
            Error::Yaml(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            Error::Json(e) => e,
            Error::Url(e) => e,
            #[cfg(feature = "http")]
            Error::Http(e) => e,
            #[cfg(feature = "tool")]
            Error::Tool(e) => e,
            #[cfg(feature = "plugin")]
            Error::Plugin(e) => e,
            #[cfg(feature = "curl")]
            Error::Curl(e) => e,
            #[cfg(feature = "openapi")]
            Error::OpenApi(e) => e,
            #[cfg(feature = "postman")]
            Error::Postman(e) => e,
            #[cfg(feature = "har")]
            Error::Har(e) => e,
            #[cfg(feature = "yaml")]
            Error::Yaml(e) => e,
        })
    }
}

macro_rules! from_module_error {
    ($($(#[$cfg:meta])* $variant:ident($module:ident)),* $(,)?) => {
        $(
            $(#[$cfg])*
            impl From<$module::Error> for Error {
                fn from(e: $module::Error) -> Error {
                    Error::$variant(e)
                }
            }
        )*
    };
}

from_module_error!(
    Json(json),
    Url(url),
    #[cfg(feature = "http")]
    Http(http),
    #[cfg(feature = "tool")]
    Tool(tool),
    #[cfg(feature = "plugin")]
    Plugin(plugin),
    #[cfg(feature = "curl")]
    Curl(curl),
    #[cfg(feature = "openapi")]
    OpenApi(openapi),
    #[cfg(feature = "postman")]
    Postman(postman),
    #[cfg(feature = "har")]
    Har(har),
    #[cfg(feature = "yaml")]
    Yaml(yaml),
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn display_and_source_are_the_wrapped_error() {
        let inner = json::parse("[1,").unwrap_err();
        let message = inner.to_string();
        let err = Error::from(inner);
        assert_eq!(err.to_string(), message);
        assert_eq!(err.source().map(|s| s.to_string()), Some(message));
    }

    #[test]
    fn url_converts() {
        let url_err = url::Url::parse("http://user@example.com/").unwrap_err();
        assert!(matches!(Error::from(url_err), Error::Url(_)));
    }

    #[cfg(feature = "http")]
    #[test]
    fn http_converts() {
        let http_err = http::Request::get("not a url").unwrap_err();
        assert!(matches!(Error::from(http_err), Error::Http(_)));
    }

    #[cfg(feature = "tool")]
    #[test]
    fn tool_converts() {
        let tool_err = tool::validate_name("bad name").unwrap_err();
        assert!(matches!(Error::from(tool_err), Error::Tool(_)));
    }

    #[cfg(feature = "plugin")]
    #[test]
    fn plugin_converts() {
        let plugin_err = plugin::HttpPlugin::from_json("{}").unwrap_err();
        assert!(matches!(Error::from(plugin_err), Error::Plugin(_)));
    }

    #[cfg(feature = "curl")]
    #[test]
    fn curl_converts() {
        let curl_err = curl::parse("curl").unwrap_err();
        assert!(matches!(Error::from(curl_err), Error::Curl(_)));
    }

    #[cfg(feature = "openapi")]
    #[test]
    fn openapi_converts() {
        let openapi_err = openapi::import(&json::Json::Null).unwrap_err();
        assert!(matches!(Error::from(openapi_err), Error::OpenApi(_)));
    }

    #[cfg(feature = "yaml")]
    #[test]
    fn yaml_error_is_wrapped() {
        // It was the one module error `?` could not turn into the crate's.
        let yaml_err = yaml::parse("a: [1").unwrap_err();
        let message = yaml_err.to_string();
        let err = Error::from(yaml_err);
        assert!(matches!(err, Error::Yaml(_)));
        assert_eq!(err.to_string(), message);
    }

    #[cfg(feature = "postman")]
    #[test]
    fn postman_error_is_wrapped() {
        let postman_err = postman::import(&json::Json::Null).unwrap_err();
        let message = postman_err.to_string();
        let err = Error::from(postman_err);
        assert!(matches!(err, Error::Postman(_)));
        assert_eq!(err.to_string(), message);
    }

    #[cfg(feature = "har")]
    #[test]
    fn har_error_is_wrapped() {
        let har_err = har::import(&json::Json::Null).unwrap_err();
        let message = har_err.to_string();
        let err = Error::from(har_err);
        assert!(matches!(err, Error::Har(_)));
        assert_eq!(err.to_string(), message);
    }

    #[test]
    fn errors_cross_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Error>();
    }
}
