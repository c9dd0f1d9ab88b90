//! Names from a sample: tool and plugin names from a request's method, path and host. What
//! makes any name valid and unique is [`naming`]'s, shared with the OpenAPI importer.

use super::segments::{is_id_segment, is_version_segment};
use crate::plugin::naming;

/// A parameter name every provider accepts, from a wire name (`filter[name]` is
/// `filter_name`), `param` when nothing is left: [`naming::valid_name`].
pub(crate) fn param_name(wire: &str) -> String {
    naming::valid_name(wire, "param")
}

/// `snake_case` of a word: `PhoneNumbers`, `phone-numbers` and `HTTPServer` become
/// `phone_numbers` and `http_server`; characters outside ASCII letters and digits separate
/// words.
pub(crate) fn snake_case(word: &str) -> String {
    let chars: Vec<char> = word.chars().collect();
    let mut out = String::with_capacity(word.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            out.push('_');
            continue;
        }
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).map_or(false, |n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    // Runs of `_` as one, none at either end.
    out.split('_')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

/// The singular of an English plural, by the common suffix rules (`companies`, `addresses`,
/// `boxes`, `users`); words that do not look plural are returned as they are. Only the last
/// `_`-separated part changes: `phone_numbers` becomes `phone_number`.
pub(crate) fn singular(word: &str) -> String {
    let (head, last) = match word.rfind('_') {
        Some(at) => (&word[..=at], &word[at + 1..]),
        None => ("", word),
    };
    const SAME: [&str; 8] = [
        "news", "status", "series", "species", "analysis", "alias", "canvas", "access",
    ];
    let one = if SAME.contains(&last) || last.len() <= 3 {
        last.to_string()
    } else if let Some(stem) = last.strip_suffix("ies") {
        format!("{}y", stem)
    } else if ["sses", "shes", "ches", "xes", "zzes"]
        .iter()
        .any(|s| last.ends_with(s))
    {
        last[..last.len() - 2].to_string()
    } else if last.ends_with("ss") || last.ends_with("us") || last.ends_with("is") {
        last.to_string()
    } else if let Some(stem) = last.strip_suffix('s') {
        stem.to_string()
    } else {
        last.to_string()
    };
    format!("{}{}", head, one)
}

/// File extensions dropped from the last segment before naming (`Messages.json`); a
/// segment with another dot is an RPC method name (`chat.postMessage`).
const EXTENSIONS: [&str; 24] = [
    "json", "xml", "csv", "txt", "html", "htm", "php", "asp", "aspx", "jsp", "pdf", "png", "jpg",
    "jpeg", "gif", "svg", "webp", "zip", "gz", "yaml", "yml", "md", "js", "css",
];

/// Last words that are actions rather than resources: the tool is named after the action
/// (`search`, `refund_payment`).
const ACTIONS: [&str; 34] = [
    "search",
    "query",
    "send",
    "login",
    "logout",
    "signin",
    "signup",
    "register",
    "verify",
    "validate",
    "refresh",
    "cancel",
    "approve",
    "reject",
    "publish",
    "archive",
    "restore",
    "upload",
    "download",
    "import",
    "export",
    "execute",
    "run",
    "start",
    "stop",
    "reset",
    "invite",
    "subscribe",
    "unsubscribe",
    "capture",
    "refund",
    "merge",
    "confirm",
    "complete",
];

/// A tool name from the method and the decoded path segments (those after the base URL):
/// `GET /users` is `list_users`, `GET /users/42` `get_user`, `POST /tickets`
/// `create_ticket` (`POST /hooks/42` `post_hook`), `PUT` and `PATCH` `update_...`,
/// `DELETE /users/42` `delete_user`,
/// `GET /v1/weather` `get_weather`, `POST /payments/7/refund` `refund_payment`,
/// `GET /conversations.list` `conversations_list` (RPC style), `POST
/// /models/x:generateContent` `generate_content`. `fallback` names a path with no word
/// (`GET /` is `get_<fallback>`).
pub(crate) fn tool_name(method: &str, segments: &[&str], fallback: &str) -> String {
    let trailing_id = segments
        .last()
        .map_or(false, |s| is_placeholder(s) || is_id_segment(s));
    let words: Vec<&str> = segments
        .iter()
        .copied()
        .filter(|s| {
            !s.is_empty() && !is_placeholder(s) && !is_id_segment(s) && !is_version_segment(s)
        })
        .collect();
    let method = method.to_ascii_uppercase();
    let last = match words.last() {
        Some(last) => strip_extension(last),
        None => return valid_tool_name(&format!("{}_{}", verb(&method), fallback)),
    };
    if let Some((_, action)) = last.rsplit_once(':') {
        return valid_tool_name(&snake_case(action));
    }
    if last.contains('.') {
        return valid_tool_name(&snake_case(last));
    }
    let word = snake_case(last);
    if ACTIONS.contains(&word.as_str()) {
        let previous = words.len().checked_sub(2).and_then(|i| words.get(i));
        return valid_tool_name(&match previous {
            Some(previous) => format!(
                "{}_{}",
                word,
                singular(&snake_case(strip_extension(previous)))
            ),
            None => word,
        });
    }
    let name = match method.as_str() {
        "GET" if !trailing_id && singular(&word) != word => format!("list_{}", word),
        "GET" => format!("get_{}", singular(&word)),
        "POST" if !trailing_id => format!("create_{}", singular(&word)),
        "POST" => format!("post_{}", singular(&word)),
        "DELETE" if !trailing_id => format!("delete_{}", word),
        other => format!("{}_{}", verb(other), singular(&word)),
    };
    valid_tool_name(&name)
}

fn verb(method: &str) -> String {
    match method {
        "PUT" | "PATCH" => "update".to_string(),
        other => other.to_ascii_lowercase(),
    }
}

fn is_placeholder(segment: &str) -> bool {
    segment.starts_with('{') && segment.ends_with('}')
}

fn strip_extension(word: &str) -> &str {
    match word.rsplit_once('.') {
        Some((stem, ext))
            if !stem.is_empty() && EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()) =>
        {
            stem
        }
        _ => word,
    }
}

/// A valid tool name made from `name` (already mostly valid): `call_api` when nothing is left.
pub(crate) fn valid_tool_name(name: &str) -> String {
    naming::valid_name(&snake_case(name), "call_api")
}

/// A plugin name from the URL's host: the registrable name without its top-level domain
/// and service prefixes (`api.github.com` is `github`, `hooks.slack.com` `slack`,
/// `api.example.co.uk` `example`), the label of a one-label host, `api` for an address.
pub(crate) fn plugin_name(host: &str) -> String {
    let host = host.trim_end_matches('.');
    let address = host.starts_with('[') || host.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if address || host.is_empty() {
        return "api".to_string();
    }
    let labels: Vec<&str> = host.split('.').collect();
    if labels.len() == 1 {
        return param_name(host).to_ascii_lowercase();
    }
    const SECOND_LEVEL: [&str; 8] = ["co", "com", "org", "net", "gov", "ac", "edu", "ne"];
    let without_tld = &labels[..labels.len() - 1];
    let name = without_tld
        .iter()
        .rev()
        .find(|l| !(SECOND_LEVEL.contains(l) && without_tld.len() > 1))
        .copied()
        .unwrap_or("api");
    param_name(&name.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    cases!(snake_case {
        snake_camel: "PhoneNumbers" => "phone_numbers";
        snake_lower_camel: "postMessage" => "post_message";
        snake_acronym: "HTTPServer" => "http_server";
        snake_kebab: "phone-numbers" => "phone_numbers";
        snake_dots: "chat.postMessage" => "chat_post_message";
        snake_digits: "oauth2Token" => "oauth2_token";
        snake_already: "chat_completions" => "chat_completions";
    });

    cases!(singular {
        singular_users: "users" => "user";
        singular_companies: "companies" => "company";
        singular_addresses: "addresses" => "address";
        singular_boxes: "boxes" => "box";
        singular_matches: "matches" => "match";
        singular_status: "status" => "status";
        singular_news: "news" => "news";
        singular_short: "gas" => "gas";
        singular_not_plural: "weather" => "weather";
        singular_last_part_only: "phone_numbers" => "phone_number";
        singular_class: "class" => "class";
    });

    fn named(method: &str, path: &str) -> String {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        tool_name(method, &segments, "example")
    }

    cases!(named {
        tool_list: "GET", "/users" => "list_users";
        tool_get_item: "GET", "/users/42" => "get_user";
        tool_get_singular: "GET", "/v1/weather" => "get_weather";
        tool_create: "POST", "/v1/tickets" => "create_ticket";
        tool_update: "PATCH", "/users/42" => "update_user";
        tool_replace: "PUT", "/users/{user_id}" => "update_user";
        tool_delete_item: "DELETE", "/users/42" => "delete_user";
        tool_nested: "GET", "/users/42/orders/7f3c9a12" => "get_order";
        tool_nested_list: "GET", "/users/42/orders" => "list_orders";
        tool_action: "POST", "/payments/7/refund" => "refund_payment";
        tool_search: "GET", "/search" => "search";
        tool_rpc: "GET", "/conversations.list" => "conversations_list";
        tool_rpc_post: "POST", "/api/chat.postMessage" => "chat_post_message";
        tool_custom_method: "POST", "/v1beta/models/gemini-pro:generateContent" => "generate_content";
        tool_extension: "POST", "/2010-04-01/Accounts/AC0123456789abcdef/Messages.json" => "create_message";
        tool_file_extension: "GET", "/files/report.pdf" => "get_report";
        tool_root: "GET", "/" => "get_example";
        tool_post_root: "POST", "/" => "post_example";
        tool_head: "HEAD", "/files/9" => "head_file";
        tool_chat: "POST", "/v1/chat/completions" => "create_completion";
        tool_post_to_item: "POST", "/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX" => "post_service";
    });

    cases!(plugin_name {
        host_api_prefix: "api.github.com" => "github";
        host_hooks: "hooks.slack.com" => "slack";
        host_co_uk: "api.example.co.uk" => "example";
        host_single_label: "localhost" => "localhost";
        host_ipv4: "127.0.0.1" => "api";
        host_ipv6: "[::1]" => "api";
        host_dash: "my-service.example.com" => "example";
        host_plain: "example.com" => "example";
    });
}
