//! The crate-level error: any module's error, for code that handles them in one place.

use std::fmt;

use crate::{curl, http, json, openapi, plugin, tool, url};

/// An error from any layer of httptool.
///
/// Each module has its own error type with a `kind()` to match on; this enum wraps them so
/// an application can use `?` across layers and still reach the original with a `match`.
/// `Display` is the wrapped error's message, unchanged.
///
/// `#[non_exhaustive]`: a new module brings its own variant.
///
/// # Examples
///
/// ```
/// fn load(text: &str) -> Result<httptool::plugin::HttpPlugin, httptool::Error> {
///     let value = httptool::json::parse(text)?; // a json::Error
///     Ok(httptool::plugin::HttpPlugin::from_json(&value.to_string())?) // a plugin::Error
/// }
///
/// match load("{\"name\": 1") {
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
    Http(http::Error),
    /// A tool, spec, call or provider payload that is not usable.
    Tool(tool::Error),
    /// A plugin declaration that is not valid.
    Plugin(plugin::Error),
    /// A curl command that cannot be read or converted.
    Curl(curl::Error),
    /// An OpenAPI document that cannot be imported.
    OpenApi(openapi::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Json(e) => e.fmt(f),
            Error::Url(e) => e.fmt(f),
            Error::Http(e) => e.fmt(f),
            Error::Tool(e) => e.fmt(f),
            Error::Plugin(e) => e.fmt(f),
            Error::Curl(e) => e.fmt(f),
            Error::OpenApi(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            Error::Json(e) => e,
            Error::Url(e) => e,
            Error::Http(e) => e,
            Error::Tool(e) => e,
            Error::Plugin(e) => e,
            Error::Curl(e) => e,
            Error::OpenApi(e) => e,
        })
    }
}

macro_rules! from_module_error {
    ($($variant:ident($module:ident)),* $(,)?) => {
        $(
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
    Http(http),
    Tool(tool),
    Plugin(plugin),
    Curl(curl),
    OpenApi(openapi),
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
    fn every_layer_converts() {
        let url_err = url::Url::parse("http://user@example.com/").unwrap_err();
        assert!(matches!(Error::from(url_err), Error::Url(_)));
        let http_err = http::Request::get("not a url").unwrap_err();
        assert!(matches!(Error::from(http_err), Error::Http(_)));
        let tool_err = tool::validate_name("bad name").unwrap_err();
        assert!(matches!(Error::from(tool_err), Error::Tool(_)));
        let plugin_err = plugin::HttpPlugin::from_json("{}").unwrap_err();
        assert!(matches!(Error::from(plugin_err), Error::Plugin(_)));
        let curl_err = curl::parse("curl").unwrap_err();
        assert!(matches!(Error::from(curl_err), Error::Curl(_)));
    }

    #[test]
    fn errors_cross_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Error>();
    }
}
