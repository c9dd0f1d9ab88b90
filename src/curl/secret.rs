//! Which names look like they hold credentials, and masking for `Debug` output.
//!
//! The masking works on the raw text with plain string operations (no decoding), because it
//! only has to hide values, not understand them: a name that is percent-encoded in an
//! unusual way is simply not recognised, and its value stays visible in `Debug` output.

/// The text that stands for a hidden value (the crate's one spelling).
pub(crate) use crate::quote::MASK;

// Which names hold credentials is the http layer's one rule (`http::is_credential_name`),
// under its own name everywhere, so what the importer hides and what the client masks agree.
use crate::http::is_credential_name;

/// `url` with the userinfo password and the values of credential-looking query
/// parameters replaced by [`MASK`].
pub(crate) fn mask_url(url: &str) -> String {
    let (before_fragment, fragment) = match url.find('#') {
        Some(at) => url.split_at(at),
        None => (url, ""),
    };
    let (before_query, query) = match before_fragment.find('?') {
        Some(at) => (&before_fragment[..at], Some(&before_fragment[at + 1..])),
        None => (before_fragment, None),
    };
    let mut out = mask_userinfo(before_query);
    if let Some(query) = query {
        out.push('?');
        out.push_str(&mask_pairs(query, '&'));
    }
    out.push_str(fragment);
    out
}

/// Hides the password in `scheme://user:password@host...`.
fn mask_userinfo(url: &str) -> String {
    let authority_start = url.find("://").map_or(0, |at| at + 3);
    let rest = &url[authority_start..];
    let authority_len = rest.find('/').unwrap_or(rest.len());
    let authority = &rest[..authority_len];
    let at = match authority.rfind('@') {
        Some(at) => at,
        None => return url.to_owned(),
    };
    let userinfo = &authority[..at];
    let colon = match userinfo.find(':') {
        Some(colon) => colon,
        None => return url.to_owned(),
    };
    let mut out = String::with_capacity(url.len());
    out.push_str(&url[..authority_start]);
    out.push_str(&userinfo[..=colon]);
    out.push_str(MASK);
    out.push_str(&rest[at..]);
    out
}

/// Hides the value of each `name=value` piece (split on `separator`) whose name looks secret.
fn mask_pairs(text: &str, separator: char) -> String {
    let pieces: Vec<String> = text
        .split(separator)
        .map(|piece| match piece.find('=') {
            Some(eq) if is_credential_name(&piece[..eq]) => format!("{}={}", &piece[..eq], MASK),
            _ => piece.to_owned(),
        })
        .collect();
    pieces.join(&separator.to_string())
}

/// Every cookie value in `name=value; name2=value2` replaced by [`MASK`]: cookies are
/// session credentials more often than not.
pub(crate) fn mask_cookie(cookie: &str) -> String {
    let pieces: Vec<String> = cookie
        .split(';')
        .map(|piece| match piece.find('=') {
            Some(eq) => format!("{}={}", &piece[..eq], MASK),
            None => piece.to_owned(),
        })
        .collect();
    pieces.join(";")
}

#[cfg(test)]
mod tests {
    use super::*;

    cases!(mask_url {
        plain_url_is_kept: "https://api.example.com/v1/items?limit=10"
            => "https://api.example.com/v1/items?limit=10";
        api_key_value_is_masked: "https://x.test/a?q=1&api_key=s3cr3t&b=2"
            => "https://x.test/a?q=1&api_key=***&b=2";
        access_token_is_masked: "http://x.test/?access_token=abc#frag"
            => "http://x.test/?access_token=***#frag";
        userinfo_password_is_masked: "https://user:pa55@x.test/path?key=v"
            => "https://user:***@x.test/path?key=***";
        userinfo_without_password_is_kept: "https://user@x.test/" => "https://user@x.test/";
        at_sign_in_path_is_not_userinfo: "https://x.test/@me:1" => "https://x.test/@me:1";
        no_scheme_userinfo_is_masked: "u:p@proxy.test:3128" => "u:***@proxy.test:3128";
        empty_query_is_kept: "http://x.test/?" => "http://x.test/?";
    });

    cases!(mask_cookie {
        every_cookie_value_is_masked: "a=1; b=2" => "a=***; b=***";
        cookie_without_value_is_kept: "flag" => "flag";
    });
}
