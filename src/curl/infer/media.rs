//! Media types a sample's `Content-Type` names.

/// Whether a media type is JSON: `application/json`, `text/json`, or any `+json` type
/// (`application/vnd.api+json`), parameters ignored.
pub(crate) fn is_json_media_type(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
}

/// Whether a media type is `application/x-www-form-urlencoded`, parameters ignored.
pub(crate) fn is_form_media_type(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .eq_ignore_ascii_case("application/x-www-form-urlencoded")
}

#[cfg(test)]
mod tests {
    use super::*;

    cases!(is_json_media_type {
        media_json: "application/json" => true;
        media_json_charset: "application/json; charset=utf-8" => true;
        media_vendor_json: "application/vnd.api+json" => true;
        media_text_json: "Text/JSON" => true;
        media_form: "application/x-www-form-urlencoded" => false;
        media_plain: "text/plain" => false;
    });
}
