//! Credentials: which names hold them (one rule for headers, cookies, query, form and JSON
//! fields), and `Basic` user and password in header form (RFC 7617).

pub(crate) use crate::base64::decode as base64_decode;
use crate::base64::encode as base64;

/// Name tokens that make a name a credential's: `X-Api-Key`, `client_secret`, `sig`.
const CREDENTIAL_TOKENS: &[&str] = &[
    "auth",
    "authorization",
    "authentication",
    "token",
    "secret",
    "secrets",
    "password",
    "passwords",
    "passwd",
    "pass",
    "pwd",
    "passphrase",
    "key",
    "cookie",
    "cookies",
    "session",
    "credential",
    "credentials",
    "bearer",
    "jwt",
    "hmac",
    "sig",
    "sign",
    "signature",
    "assertion",
    "otp",
    "totp",
];

/// Credentials written as one word, which no split finds: `apikey`, `appid` (OpenWeatherMap's
/// API key), `accesstoken`, `JSESSIONID`.
const GLUED_TOKENS: &[&str] = &[
    "apikey",
    "apitoken",
    "apisecret",
    "appid",
    "appkey",
    "appsecret",
    "accesstoken",
    "accesskey",
    "authtoken",
    "authkey",
    "bearertoken",
    "clientsecret",
    "csrftoken",
    "xsrftoken",
    "idtoken",
    "oauthtoken",
    "privatekey",
    "privatetoken",
    "refreshtoken",
    "secretkey",
    "securitytoken",
    "sessionid",
    "sessiontoken",
    "sessid",
    "phpsessid",
    "jsessionid",
    "subscriptionkey",
];

/// Words beside `key` that make it a lookup key rather than a credential:
/// `Idempotency-Key`, `sort_key`, `primary_key`, `public_key`.
const KEY_QUALIFIERS: &[&str] = &[
    "idempotency",
    "sort",
    "partition",
    "primary",
    "foreign",
    "composite",
    "natural",
    "unique",
    "cache",
    "range",
    "hash",
    "object",
    "dedup",
    "deduplication",
    "routing",
    "lookup",
    "row",
    "shard",
    "group",
    "public",
    "publishable",
];

/// Words beside `token` that make it a pagination token: `pageToken`, `next_token`,
/// `ContinuationToken`, `syncToken`.
const PAGE_QUALIFIERS: &[&str] = &[
    "page",
    "next",
    "prev",
    "previous",
    "continuation",
    "continue",
    "cursor",
    "sync",
    "resume",
    "delta",
    "skip",
];

/// Words after the credential word that make the name describe a credential rather than hold
/// one: `token_type`, `oauth_signature_method`, `SignatureVersion`, `X-Signature-Timestamp`.
const DESCRIPTORS: &[&str] = &[
    "type",
    "method",
    "version",
    "alg",
    "algorithm",
    "expires",
    "expiry",
    "expiration",
    "ttl",
    "length",
    "format",
    "hint",
    "scheme",
    "mode",
    "count",
    "timestamp",
    "date",
    "time",
    "timeout",
    "name",
    "url",
    "uri",
    "endpoint",
    "enabled",
    "required",
    "policy",
];

/// Whether a header, cookie, query, form or JSON field called `name` holds a credential:
/// `Authorization`, `Cookie`, `X-Api-Key`, `apiKey`, `appid`, `sig`, `X-Hub-Signature-256`,
/// `access_token`, `client_secret`, `password`, `JSESSIONID`...
///
/// The name is split into tokens, on `-`, `_`, `.`, spaces and any other punctuation, on case
/// changes (`apiKey`, `APIKey`) and between letters and digits, and compared without regard to
/// case. It is a credential's when a token is a credential word (`auth`, `authorization`,
/// `token`, `secret`, `password`, `pass`, `pwd`, `key`, `cookie`, `session`, `credential`,
/// `bearer`, `jwt`, `hmac`, `sig`, `sign`, `signature`, `assertion`, `otp`, ...) or one of the
/// glued forms APIs use (`apikey`, `appid`, `accesstoken`, `sessionid`, ...), and that word is
/// not qualified away:
///
/// - `key` beside `idempotency`, `sort`, `partition`, `primary`, `cache`, `public`, ... is a
///   lookup key (`Idempotency-Key`, `primary_key`, `public_key`);
/// - `token` beside `page`, `next`, `continuation`, `cursor`, `sync`, ... is a pagination
///   token (`pageToken`, `next_page_token`, `ContinuationToken`);
/// - a descriptor after the last credential word (`type`, `method`, `version`, `expires`,
///   `timestamp`, `name`, ...) describes the credential (`token_type`,
///   `oauth_signature_method`, `SignatureVersion`).
///
/// Words that merely contain a credential word are not credentials: `author`, `authority`,
/// `keyword`, `monkey`, `max_tokens`. Anti-forgery tokens (`X-CSRF-Token`, `csrftoken`,
/// `authenticity_token`) are: they are tied to a session. Key ids (`access_key_id`,
/// `AWSAccessKeyId`) are too, erring on the side of hiding.
///
/// [`Headers`](super::Headers) treats every such header as sensitive (`***` in `Debug` and
/// dry runs, dropped when a redirect changes origin), plugins mark such literal query values
/// secret, and the curl importer turns such headers, query values and body fields into
/// secrets rather than parameters a model sees.
///
/// # Examples
///
/// ```
/// use httptool::http::is_credential_name;
///
/// assert!(is_credential_name("X-API-Key"));
/// assert!(is_credential_name("Authorization"));
/// assert!(is_credential_name("appid"));
/// assert!(is_credential_name("clientSecret"));
/// assert!(!is_credential_name("author"));
/// assert!(!is_credential_name("Idempotency-Key"));
/// assert!(!is_credential_name("pageToken"));
/// assert!(!is_credential_name("Content-Type"));
/// ```
pub fn is_credential_name(name: &str) -> bool {
    let tokens = tokens(name);
    // Loops, not closures given to any, rposition and skip: each compiled its own copy of the
    // iterator code (build cost, see `design::performance`).
    let mut last_credential = None;
    for (i, t) in tokens.iter().enumerate() {
        let t = t.as_str();
        let neutral = (t == "key" && any_of(&tokens, KEY_QUALIFIERS))
            || (t == "token" && any_of(&tokens, PAGE_QUALIFIERS));
        if !neutral && (CREDENTIAL_TOKENS.contains(&t) || GLUED_TOKENS.contains(&t)) {
            last_credential = Some(i);
        }
    }
    match last_credential {
        Some(i) => !any_of(tokens.get(i + 1..).unwrap_or_default(), DESCRIPTORS),
        None => false,
    }
}

/// Whether one of `tokens` is one of `words`.
fn any_of(tokens: &[String], words: &[&str]) -> bool {
    for t in tokens {
        if words.contains(&t.as_str()) {
            return true;
        }
    }
    false
}

/// The lower-case tokens of a name: split on anything but letters and digits, before an
/// upper-case letter that follows a lower-case one (`apiKey`) or starts a word after an
/// acronym (`APIKey`), and between letters and digits (`Sha256`).
fn tokens(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut tokens = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                tokens.push(std::mem::take(&mut current));
            }
            continue;
        }
        let previous = i.checked_sub(1).and_then(|p| chars.get(p)).copied();
        let next = chars.get(i + 1).copied();
        let boundary = match previous {
            Some(p) if p.is_alphanumeric() => {
                (p.is_lowercase() && c.is_uppercase())
                    || (p.is_uppercase()
                        && c.is_uppercase()
                        && next.map_or(false, char::is_lowercase))
                    || (p.is_numeric() != c.is_numeric())
            }
            _ => false,
        };
        if boundary && !current.is_empty() {
            tokens.push(std::mem::take(&mut current));
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    tokens
}

/// The value of an `Authorization` (or `Proxy-Authorization`) header carrying `username`
/// and `password` in the `Basic` scheme: `Basic base64(user-id ":" password)`, RFC 7617
/// section 2.
///
/// # Security
///
/// The result holds the password, merely encoded: send it in a sensitive header (see
/// [`Headers::append_sensitive`](super::Headers::append_sensitive)) and over https.
///
/// # Examples
///
/// ```
/// assert_eq!(
///     httptool::http::basic_auth("Aladdin", "open sesame"),
///     "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="
/// );
/// ```
pub fn basic_auth(username: &str, password: &str) -> String {
    let mut credentials = Vec::with_capacity(username.len() + password.len() + 1);
    credentials.extend_from_slice(username.as_bytes());
    credentials.push(b':');
    credentials.extend_from_slice(password.as_bytes());
    format!("Basic {}", base64(&credentials))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_auth_keeps_colons_and_utf8_in_the_password() {
        assert_eq!(basic_auth("user", "pa:ss"), "Basic dXNlcjpwYTpzcw==");
        assert_eq!(basic_auth("test", "123£"), "Basic dGVzdDoxMjPCow==");
    }

    #[test]
    fn tokens_split_on_punctuation_case_and_digits() {
        let cases: [(&str, &[&str]); 6] = [
            ("X-API-Key", &["x", "api", "key"]),
            ("apiKey", &["api", "key"]),
            ("APIKey", &["api", "key"]),
            ("next_page.token id", &["next", "page", "token", "id"]),
            ("X-Hub-Signature-256", &["x", "hub", "signature", "256"]),
            ("$skiptoken", &["skiptoken"]),
        ];
        for (name, want) in cases {
            assert_eq!(tokens(name), want, "{}", name);
        }
    }

    macro_rules! credential_names {
        ($($test:ident: $name:expr => $expected:expr;)*) => {$(
            #[test]
            fn $test() {
                assert_eq!(is_credential_name($name), $expected, "{}", $name);
            }
        )*};
    }

    // Names are judged on their tokens, not on substrings (substrings once hid `author`).
    // Each row is a name from a real API's documentation.
    credential_names! {
        credential_authorization: "Authorization" => true;
        credential_proxy_authorization: "Proxy-Authorization" => true;
        credential_cookie: "Cookie" => true;
        credential_set_cookie: "set-cookie" => true;
        credential_x_api_key: "X-API-Key" => true;
        credential_x_apikey_glued: "X-APIKEY" => true;
        credential_api_key: "api_key" => true;
        credential_api_key_camel: "apiKey" => true;
        credential_api_key_acronym: "APIKey" => true;
        credential_apikey: "apikey" => true;
        credential_google_key: "key" => true;
        credential_openweathermap_appid: "appid" => true;
        credential_edamam_app_key: "app_key" => true;
        credential_azure_sas_sig: "sig" => true;
        credential_aws_signature: "X-Amz-Signature" => true;
        credential_aws_security_token: "X-Amz-Security-Token" => true;
        credential_aws_credential: "X-Amz-Credential" => true;
        credential_aws_v2_access_key_id: "AWSAccessKeyId" => true;
        credential_oauth_access_token: "access_token" => true;
        credential_access_token_camel: "accessToken" => true;
        credential_refresh_token: "refresh_token" => true;
        credential_id_token: "id_token" => true;
        credential_client_secret: "client_secret" => true;
        credential_client_secret_camel: "clientSecret" => true;
        credential_client_assertion: "client_assertion" => true;
        credential_password: "password" => true;
        credential_passwd: "passwd" => true;
        credential_pass: "pass" => true;
        credential_pwd: "pwd" => true;
        credential_jwt: "jwt" => true;
        credential_x_jwt: "X-Jwt" => true;
        credential_x_hmac: "X-Hmac" => true;
        credential_shopify_hmac: "X-Shopify-Hmac-Sha256" => true;
        credential_github_signature: "X-Hub-Signature-256" => true;
        credential_slack_signature: "X-Slack-Signature" => true;
        credential_stripe_signature: "Stripe-Signature" => true;
        credential_dingtalk_sign: "sign" => true;
        credential_oauth1_signature: "oauth_signature" => true;
        credential_oauth1_consumer_key: "oauth_consumer_key" => true;
        credential_azure_subscription_key: "Ocp-Apim-Subscription-Key" => true;
        credential_openstack_auth_token: "X-Auth-Token" => true;
        credential_gitlab_private_token: "PRIVATE-TOKEN" => true;
        credential_vault_token: "X-Vault-Token" => true;
        credential_rapidapi_key: "X-RapidAPI-Key" => true;
        credential_goog_api_key: "x-goog-api-key" => true;
        credential_django_session: "sessionid" => true;
        credential_java_session: "JSESSIONID" => true;
        credential_php_session: "PHPSESSID" => true;
        credential_session_id: "session_id" => true;
        credential_csrf_header: "X-CSRF-Token" => true;
        credential_django_csrf: "csrftoken" => true;
        credential_rails_authenticity_token: "authenticity_token" => true;
        credential_secret_key: "secret_key" => true;
        credential_bare_token: "token" => true;
        credential_bare_auth: "auth" => true;

        not_content_type: "Content-Type" => false;
        not_accept: "Accept" => false;
        not_user_agent: "User-Agent" => false;
        not_keep_alive: "Keep-Alive" => false;
        not_query: "q" => false;
        not_open_library_author: "author" => false;
        not_authors: "authors" => false;
        not_authority: "authority" => false;
        not_www_authenticate: "WWW-Authenticate" => false;
        not_keyword: "keyword" => false;
        not_keywords: "keywords" => false;
        not_monkey: "monkey" => false;
        not_stripe_idempotency_key: "Idempotency-Key" => false;
        not_x_idempotency_key: "X-Idempotency-Key" => false;
        not_request_id: "X-Request-Id" => false;
        not_correlation_id: "X-Correlation-ID" => false;
        not_google_page_token: "pageToken" => false;
        not_google_next_page_token: "nextPageToken" => false;
        not_places_next_page_token: "next_page_token" => false;
        not_s3_continuation_token: "continuation-token" => false;
        not_continuation_token: "continuation_token" => false;
        not_s3_next_continuation_token: "NextContinuationToken" => false;
        not_aws_next_token: "NextToken" => false;
        not_twitter_next_token: "next_token" => false;
        not_calendar_sync_token: "syncToken" => false;
        not_cursor: "cursor" => false;
        not_graph_skiptoken: "$skiptoken" => false;
        not_graph_deltatoken: "$deltatoken" => false;
        not_openai_max_tokens: "max_tokens" => false;
        not_openai_max_output_tokens: "max_output_tokens" => false;
        not_oauth_token_type_hint: "token_type_hint" => false;
        not_oauth_token_type: "token_type" => false;
        not_oauth_grant_type: "grant_type" => false;
        not_oauth_client_id: "client_id" => false;
        not_oauth_state: "state" => false;
        not_oauth_redirect_uri: "redirect_uri" => false;
        not_oauth1_signature_method: "oauth_signature_method" => false;
        not_oauth1_nonce: "oauth_nonce" => false;
        not_oauth1_timestamp: "oauth_timestamp" => false;
        not_aws_signature_version: "SignatureVersion" => false;
        not_discord_signature_timestamp: "X-Signature-Timestamp" => false;
        not_aws_date: "X-Amz-Date" => false;
        not_aws_content_sha256: "X-Amz-Content-Sha256" => false;
        not_dynamodb_sort_key: "sort_key" => false;
        not_partition_key: "partitionKey" => false;
        not_primary_key: "primary_key" => false;
        not_public_key: "public_key" => false;
        not_azure_api_version: "api-version" => false;
        not_api_version_header: "X-Api-Version" => false;
        not_username: "username" => false;
        not_email: "email" => false;
        not_passenger_count: "passenger_count" => false;
        not_bypass_cache: "bypass_cache" => false;
        not_if_none_match: "If-None-Match" => false;
        not_rate_limit: "X-RateLimit-Remaining" => false;
    }
}
