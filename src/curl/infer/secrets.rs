//! Credential-looking values and the headers a browser adds that an API does not need.

/// Well-known prefixes of API keys and tokens (Stripe, OpenAI, GitHub, GitLab, Slack, AWS,
/// Google), matched case-sensitively.
const SECRET_PREFIXES: [&str; 19] = [
    "sk-",
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "rk_test_",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xapp-",
    "AKIA",
    "AIza",
    "ya29.",
];

/// Whether a value looks like a credential whatever its name: a well-known key prefix, a
/// `Bearer` or `Basic` credential, or a JSON Web Token (`eyJ...` in three dotted parts).
pub(crate) fn is_secret_value(value: &str) -> bool {
    if SECRET_PREFIXES
        .iter()
        .any(|p| value.starts_with(p) && value.len() >= p.len() + 8)
    {
        return true;
    }
    let lower = value.to_ascii_lowercase();
    if lower.starts_with("bearer ") || lower.starts_with("basic ") {
        return true;
    }
    value.starts_with("eyJ") && value.split('.').count() == 3 && value.len() >= 24
}

/// Headers a browser's "Copy as cURL" adds that an API does not need: client hints
/// (`sec-ch-*`), fetch metadata (`sec-fetch-*`), `sec-gpc`, `priority`, `dnt`,
/// `upgrade-insecure-requests`, `te`, and Postman's `postman-token`. `Cache-Control` and
/// `Pragma` are not among them: they are end-to-end (RFC 9111 section 5.2 and 5.4) and
/// change what a cache between the two answers.
pub(crate) fn is_browser_header(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    const NOISE: [&str; 6] = [
        "sec-gpc",
        "priority",
        "dnt",
        "upgrade-insecure-requests",
        "te",
        "postman-token",
    ];
    lower.starts_with("sec-ch-")
        || lower.starts_with("sec-fetch-")
        || NOISE.contains(&lower.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    cases!(is_secret_value {
        secret_openai: "sk-proj-abcdefghijkl" => true;
        secret_stripe: "sk_test_4eC39HqLyjWDarjtT1zdp7dc" => true;
        secret_github: "ghp_16C7e42F292c6912E7710c838347Ae178B4a" => true;
        secret_bearer: "Bearer abc" => true;
        secret_jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature" => true;
        secret_short_prefix_only: "sk-" => false;
        secret_plain_word: "application/json" => false;
        secret_skate: "skateboard" => false;
    });

    cases!(is_browser_header {
        browser_client_hint: "sec-ch-ua-platform" => true;
        browser_fetch: "Sec-Fetch-Mode" => true;
        browser_priority: "priority" => true;
        browser_postman: "Postman-Token" => true;
        browser_accept_is_kept: "accept" => false;
        browser_cache_control_is_kept: "Cache-Control" => false;
        browser_pragma_is_kept: "pragma" => false;
        browser_origin_is_kept: "origin" => false;
        browser_referer_is_kept: "referer" => false;
        browser_accept_language_is_kept: "accept-language" => false;
    });
}
