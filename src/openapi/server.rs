//! Base URLs: OpenAPI 3 `servers` (section 4.8.5, with variables, section 4.8.6) and
//! Swagger 2.0 `schemes`, `host` and `basePath`.

use super::error::{child, Error, ErrorKind, Warning};
use super::options::{ImportOptions, Version};
use crate::json::Json;

/// The base URL used when the document names none and no option gives one: a reserved name
/// that never resolves (RFC 6761 section 6.4), so nothing is sent anywhere by mistake.
pub(crate) const PLACEHOLDER: &str = "https://api.example.invalid";

/// The document's base URL.
pub(crate) fn base_url(
    root: &Json,
    version: Version,
    options: &ImportOptions,
    warnings: &mut Vec<Warning>,
) -> Result<String, Error> {
    if let Some(url) = &options.base_url {
        return Ok(url.trim_end_matches('/').to_string());
    }
    if version == Version::Swagger2 {
        return Ok(swagger(root, warnings));
    }
    let servers = root.get("servers").and_then(Json::as_array);
    let servers = match servers {
        Some(list) if !list.is_empty() => list,
        _ => {
            // OpenAPI 3 section 4.8.1: no servers means a server at "/".
            return Ok(relative("/", "/servers", options, warnings));
        }
    };
    let server = servers.get(options.server).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidDocument,
            "/servers",
            format!(
                "server {} was asked for, and the document has {} (0 to {})",
                options.server,
                servers.len(),
                servers.len() - 1
            ),
        )
    })?;
    let at = child("/servers", &options.server.to_string());
    let url = expand(server, &at, options, warnings)?;
    Ok(relative(&url, &at, options, warnings))
}

/// The URL of a path item's or operation's `servers`, if it has any: the one
/// [`ImportOptions::server`] names, else the first, with the server variables the options
/// give. `None` when [`ImportOptions::base_url`] is given: it replaces the servers of every
/// level.
pub(crate) fn own_server(
    servers: Option<&Json>,
    at: &str,
    options: &ImportOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Option<String>, Error> {
    if options.base_url.is_some() {
        return Ok(None);
    }
    let list = match servers.and_then(Json::as_array) {
        Some(list) if !list.is_empty() => list,
        _ => return Ok(None),
    };
    let index = if options.server < list.len() {
        options.server
    } else {
        0
    };
    let first = match list.get(index) {
        Some(first) => first,
        None => return Ok(None),
    };
    let at = child(at, &index.to_string());
    let url = expand(first, &at, options, warnings)?;
    Ok(Some(relative(&url, &at, options, warnings)))
}

/// A server's URL with each `{variable}` replaced by the option's value or the default.
fn expand(
    server: &Json,
    at: &str,
    options: &ImportOptions,
    warnings: &mut Vec<Warning>,
) -> Result<String, Error> {
    let template = server.get("url").and_then(Json::as_str).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidDocument,
            at,
            "a server needs a 'url' string",
        )
    })?;
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidDocument,
                child(at, "url"),
                "unbalanced '{' in the server url",
            )
        })?;
        let name = &after[..close];
        let variable = server.get("variables").and_then(|v| v.get(name));
        let given = options
            .server_variables
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str());
        let value = match given {
            Some(value) => {
                let allowed = variable
                    .and_then(|v| v.get("enum"))
                    .and_then(Json::as_array);
                if let Some(allowed) = allowed {
                    if !allowed.iter().any(|a| a.as_str() == Some(value)) {
                        warnings.push(Warning::new(
                            child(&child(at, "variables"), name),
                            format!(
                                "server variable '{}' is given a value outside its enum",
                                name
                            ),
                        ));
                    }
                }
                value.to_string()
            }
            None => variable
                .and_then(|v| v.get("default"))
                .and_then(Json::as_str)
                .map(str::to_string)
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::InvalidDocument,
                        child(at, "url"),
                        format!("server variable '{}' has no default; give its value", name),
                    )
                })?,
        };
        out.push_str(&value);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out.trim_end_matches('/').to_string())
}

/// An absolute URL as it is; a relative one resolved against the option, or the
/// placeholder with a warning.
fn relative(url: &str, at: &str, options: &ImportOptions, warnings: &mut Vec<Warning>) -> String {
    // Prose where a URL belongs ("Your API URL"): no base at all, so the placeholder.
    if url.chars().any(char::is_whitespace) {
        warnings.push(Warning::new(
            at,
            format!(
                "the server url '{}' is not a url: the base url is {} until one is given (base_url)",
                super::refs::short(url),
                PLACEHOLDER
            ),
        ));
        return PLACEHOLDER.to_string();
    }
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return url.to_string();
    }
    let path = if url.starts_with('/') || url.is_empty() {
        url.to_string()
    } else {
        format!("/{}", url)
    };
    match &options.relative_to {
        Some(base) => format!("{}{}", origin(base), path.trim_end_matches('/')),
        None => {
            warnings.push(Warning::new(
                at,
                format!(
                    "the server url '{}' is relative: the base url is {} until one is given (base_url or relative_to)",
                    url, PLACEHOLDER
                ),
            ));
            format!("{}{}", PLACEHOLDER, path.trim_end_matches('/'))
        }
    }
}

/// `scheme://authority` of a URL.
fn origin(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => &url[..after_scheme + i],
        None => url,
    }
}

/// Swagger 2.0 section "Swagger Object": `schemes` (https first when offered), `host`,
/// `basePath`.
fn swagger(root: &Json, warnings: &mut Vec<Warning>) -> String {
    let schemes: Vec<&str> = root
        .get("schemes")
        .and_then(Json::as_array)
        .map(|l| l.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    let scheme = if schemes.is_empty() || schemes.contains(&"https") {
        "https"
    } else if schemes.contains(&"http") {
        "http"
    } else {
        warnings.push(Warning::new(
            "/schemes",
            "no http or https scheme: https is used",
        ));
        "https"
    };
    let base_path = root.get("basePath").and_then(Json::as_str).unwrap_or("");
    let base_path = base_path.trim_end_matches('/');
    match root.get("host").and_then(Json::as_str) {
        Some(host) if !host.is_empty() => format!("{}://{}{}", scheme, host, base_path),
        _ => {
            warnings.push(Warning::new(
                "/host",
                format!(
                    "the document names no host: the base url is {} until one is given (base_url)",
                    PLACEHOLDER
                ),
            ));
            format!("{}{}", PLACEHOLDER, base_path)
        }
    }
}
