//! Names from a sample: parameter, tool, plugin and environment variable names.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use super::segments::{is_id_segment, is_version_segment};
use crate::tool;

/// A parameter name every provider accepts, from a wire name: characters outside
/// `A-Z a-z 0-9 _ -` become `_` (`filter[name]` becomes `filter_name`), at most 64 bytes,
/// `param` when nothing is left.
pub(crate) fn param_name(wire: &str) -> String {
    let mapped: String = wire
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = collapse_underscores(&mapped);
    if name.is_empty() {
        "param".to_string()
    } else {
        name
    }
}

/// `name`, or `name_2`, `name_3`, ... : the first not in `taken`, at most 64 bytes.
pub(crate) fn unique(name: &str, taken: &[String]) -> String {
    unique_from(name, 2, &|n| taken.iter().any(|t| t == n)).0
}

/// As [`unique`], trying suffixes from `_{first}` on (the caller knows those below are
/// taken), and returning the suffix of the name given (`first` when `name` was free).
fn unique_from(name: &str, first: usize, taken: &dyn Fn(&str) -> bool) -> (String, usize) {
    if !taken(name) {
        return (name.to_string(), first);
    }
    (first.max(2)..)
        .map(|n| {
            let suffix = format!("_{}", n);
            let keep = tool::MAX_NAME_LEN - suffix.len();
            (format!("{}{}", &name[..name.len().min(keep)], suffix), n)
        })
        .find(|(candidate, _)| !taken(candidate))
        .unwrap_or_else(|| (name.to_string(), first))
}

/// The parameter names taken so far, found through a set, and per name asked for the
/// suffix its last collision got: a command with 10,000 parameters (or 10,000 of one
/// name) is named in linear time, where scanning a list was quadratic.
#[derive(Default)]
pub(crate) struct Names {
    taken: HashSet<String>,
    /// Behind a `RefCell` so naming needs no `&mut` (the converter names parameters from
    /// `&self` methods); only this type touches it, never across a call out.
    next: RefCell<HashMap<String, usize>>,
}

impl Names {
    /// `name`, or `name_2`, `name_3`, ...: the first not taken, as [`unique`].
    pub(crate) fn unique(&self, name: &str) -> String {
        let first = self.next.borrow().get(name).copied().unwrap_or(2);
        let taken = &self.taken;
        let (found, suffix) = unique_from(name, first, &|n| taken.contains(n));
        // Every suffix below `suffix` was taken when tried, and names are never given back.
        self.next.borrow_mut().insert(name.to_string(), suffix);
        found
    }

    /// Marks `name` taken.
    pub(crate) fn take(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }
}

/// `_` runs collapsed, `_` trimmed from both ends, cut to 64 bytes (the text is ASCII).
fn collapse_underscores(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '_' && (out.is_empty() || out.ends_with('_')) {
            continue;
        }
        out.push(c);
    }
    while out.ends_with('_') {
        out.pop();
    }
    out.truncate(tool::MAX_NAME_LEN);
    while out.ends_with('_') {
        out.pop();
    }
    out
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
    collapse_underscores(&out)
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
    let name = param_name(&snake_case(name));
    if name == "param" {
        "call_api".to_string()
    } else {
        name
    }
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

/// An environment variable name: `PREFIX_SUFFIX` in upper case, with `_` for every
/// character outside `A-Z 0-9` (`github`, `X-Api-Key` give `GITHUB_X_API_KEY`); it starts
/// with a letter.
pub(crate) fn env_name(prefix: &str, suffix: &str) -> String {
    let raw = format!("{}_{}", prefix, suffix);
    let mapped: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    let name = collapse_underscores(&mapped);
    match name.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => name,
        _ => format!("API_{}", name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    cases!(param_name {
        name_kept: "city" => "city";
        name_with_dash_kept: "per-page" => "per-page";
        name_brackets: "filter[name]" => "filter_name";
        name_dots: "user.email" => "user_email";
        name_dollar: "$top" => "top";
        name_non_ascii: "città" => "citt";
        name_nothing_left: "[]" => "param";
        name_long_cut: &"a".repeat(80) => "a".repeat(64);
    });

    #[test]
    fn unique_names() {
        let taken = vec!["id".to_string(), "id_2".to_string()];
        assert_eq!(unique("id", &taken), "id_3");
        assert_eq!(unique("name", &taken), "name");
        assert_eq!(unique(&"x".repeat(64), &["x".repeat(64)]).len(), 64);
    }

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

    cases!(env_name {
        env_header: "github", "X-Api-Key" => "GITHUB_X_API_KEY";
        env_token: "open-ai", "token" => "OPEN_AI_TOKEN";
        env_digit_start: "9gag", "key" => "API_9GAG_KEY";
    });
}
