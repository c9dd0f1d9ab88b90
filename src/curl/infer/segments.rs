//! What a (decoded) path segment looks like: an API version, an identifier or a secret token.

/// Leading path segments that name an API version rather than a resource: `v1`, `v2beta`,
/// `v1.1`, `api`, `rest`, and dates such as Twilio's `2010-04-01`.
pub(crate) fn is_version_segment(segment: &str) -> bool {
    let lower = segment.to_ascii_lowercase();
    if lower == "api" || lower == "rest" {
        return true;
    }
    if let Some(rest) = lower.strip_prefix('v') {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let tail = &rest[digits..];
        let dotted = tail.strip_prefix('.').map_or(false, |t| {
            !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
        });
        let word = tail.bytes().all(|b| b.is_ascii_lowercase()) && tail.len() <= 6;
        return digits > 0 && (tail.is_empty() || dotted || word);
    }
    is_date(&lower)
}

/// `YYYY-MM-DD`.
fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// Whether a (decoded) path segment looks like an identifier rather than a resource name:
/// digits (`42`), a UUID, hex of 8 or more characters with a digit (`7f3c9a12`, a git
/// sha), a token of 8 or more letters and digits with at least 3 digits (`T0001ABCD`), of
/// 16 or more with a digit (`cus_NffrFeUfNV2Hib`, `AC0123...`) or in upper case, or
/// anything with `@` (an e-mail address).
pub(crate) fn is_id_segment(segment: &str) -> bool {
    if segment.is_empty() || is_version_segment(segment) {
        return false;
    }
    if segment.bytes().all(|b| b.is_ascii_digit()) || segment.contains('@') || is_uuid(segment) {
        return true;
    }
    let token = segment
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let digits = segment.bytes().filter(u8::is_ascii_digit).count();
    let hex = segment.bytes().all(|b| b.is_ascii_hexdigit());
    let upper = segment
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
    let long = segment.len() >= 16;
    token
        && ((digits > 0
            && ((hex && segment.len() >= 8) || (segment.len() >= 8 && digits >= 3) || long))
            || (upper && long))
}

/// Whether a (decoded) path segment looks like a secret token rather than an id (a
/// webhook URL's, a bot token): 20 or more of `A-Z a-z 0-9 _ - :` with at least three upper
/// and three lower case letters and a digit, as random tokens have and ids with a prefix
/// (`AC0b5c...`) do not.
pub(crate) fn is_token_segment(segment: &str) -> bool {
    let count = |f: fn(&u8) -> bool| segment.bytes().filter(f).count();
    let allowed = segment
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"_-:".contains(&b));
    allowed
        && segment.len() >= 20
        && count(u8::is_ascii_uppercase) >= 3
        && count(u8::is_ascii_lowercase) >= 3
        && count(u8::is_ascii_digit) >= 1
}

fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, len)| g.len() == len && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    cases!(is_version_segment {
        version_v1: "v1" => true;
        version_v2beta: "v2beta" => true;
        version_dotted: "v1.1" => true;
        version_api: "api" => true;
        version_date: "2010-04-01" => true;
        version_word_is_not: "users" => false;
        version_v_alone_is_not: "v" => false;
        version_video_is_not: "videos" => false;
    });

    cases!(is_id_segment {
        id_digits: "42" => true;
        id_uuid: "123e4567-e89b-12d3-a456-426614174000" => true;
        id_hex: "7f3c9a12" => true;
        id_sha: "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3" => true;
        id_stripe: "cus_NffrFeUfNV2Hib" => true;
        id_slack_team: "T00000000" => true;
        id_email: "ann@example.com" => true;
        id_word_is_not: "orders" => false;
        id_oauth2_is_not: "oauth2" => false;
        id_base64url_is_not: "base64url" => false;
        id_version_is_not: "v1" => false;
        id_short_hex_is_not: "beef" => false;
        id_name_is_not: "hello-world" => false;
        id_upper_token: "XXXXXXXXXXXXXXXXXXXXXXXX" => true;
        id_long_word_is_not: "internationalization" => false;
        id_camel_word_is_not: "getUserPreferences" => false;
    });

    cases!(is_token_segment {
        token_webhook: "aB3dE5fG7hJ9kL1mN3pQ5rS7" => true;
        token_bot: "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11" => true;
        token_docs_placeholder_is_not: "XXXXXXXXXXXXXXXXXXXXXXXX" => false;
        token_twilio_sid_is_not: "AC0123456789abcdef0123456789abcdef" => false;
        token_uuid_is_not: "123e4567-e89b-12d3-a456-426614174000" => false;
        token_short_is_not: "T00000000" => false;
        token_camel_word_is_not: "getUserPreferencesForAccount" => false;
    });
}
