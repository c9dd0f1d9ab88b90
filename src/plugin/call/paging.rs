//! Reading the pages of a declared list ([`Pagination`]): page after page within
//! `max_pages` and a byte budget, into one result that says whether more remain and how to
//! ask for them. A next link is followed only under the plugin's base URL.

use crate::http::Response;
use crate::json::{self, Json, Map};
use crate::plugin::call::redact::Redactor;
use crate::plugin::declare::pages::{
    PageStyle, Pagination, DEFAULT_MAX_PAGES, DEFAULT_MAX_PAGE_BYTES,
};
use crate::url::Url;

/// One page as fetched: the response and the secrets the call sent.
pub(crate) type Fetched = Result<(Response, Redactor), crate::tool::ToolOutput>;

/// What reading the pages ended with.
pub(crate) enum Read {
    /// The first answer is not a page of a list (an error, not JSON, no list where
    /// `items` points): the caller reads it as any answer.
    Single(Response, Redactor),
    /// The first request failed.
    Failed(crate::tool::ToolOutput),
    /// The items of the pages read, and whether (and how) more remain.
    Pages(Json),
}

/// Reads the pages of a list: `fetch` sends the call with `arguments` (and, for a `Link`
/// page, the URL to send it to); `prefix` is `scheme://authority/base-path`, which a next
/// link must stay under; `query_params` maps wire names of query parameters to the model's.
pub(crate) fn read(
    pagination: &Pagination,
    mut arguments: Map,
    prefix: &str,
    query_params: &[(String, String)],
    fetch: &mut dyn FnMut(&Map, Option<&Url>) -> Fetched,
) -> Read {
    let max_pages = pagination.max_pages.unwrap_or(DEFAULT_MAX_PAGES);
    let max_bytes = pagination.max_bytes.unwrap_or(DEFAULT_MAX_PAGE_BYTES);
    let mut items: Vec<Json> = Vec::new();
    let mut pages = 0u32;
    let mut bytes = 0usize;
    let mut next_url: Option<Url> = None;
    // `Some(why)` when reading stopped while more remained.
    let stopped: Option<String> = loop {
        let (response, redactor) = match fetch(&arguments, next_url.as_ref()) {
            Ok(fetched) => fetched,
            Err(output) if pages == 0 => return Read::Failed(output),
            Err(output) => {
                break Some(format!("page {} failed: {}", pages + 1, output.text()));
            }
        };
        let status = response.status();
        let page = if (200..300).contains(&status) {
            json::parse_bytes(response.body()).ok()
        } else {
            None
        };
        let list = page.as_ref().and_then(|page| match &pagination.items {
            Some(pointer) => page.pointer(pointer).and_then(Json::as_array),
            None => page.as_array(),
        });
        let list = match (list, pages) {
            (Some(list), _) => list,
            (None, 0) => return Read::Single(response, redactor),
            (None, _) => {
                break Some(format!(
                    "page {} answered {} without a list where the first pages had one",
                    pages + 1,
                    status
                ))
            }
        };
        let size = response.body().len();
        if pages > 0 && bytes.saturating_add(size) > max_bytes {
            break Some(format!(
                "the pages read reached max_bytes ({} bytes of page bodies)",
                max_bytes
            ));
        }
        bytes = bytes.saturating_add(size);
        pages += 1;
        let count = list.len();
        for item in list {
            let mut item = item.clone();
            redactor.json(&mut item);
            items.push(item);
        }
        // The next page, or the end of the list.
        let page = page.unwrap_or(Json::Null);
        let advanced = match &pagination.style {
            PageStyle::Link => match next_link(&response) {
                None => false,
                Some(next) => match response.url().join(&next) {
                    Ok(url) if under(&url, prefix) => {
                        next_url = Some(url);
                        true
                    }
                    _ => {
                        break Some(String::from(
                            "the next page's link leads off this API's origin or base path, and was not followed",
                        ))
                    }
                },
            },
            PageStyle::Cursor { field, param } => match page.pointer(field) {
                None | Some(Json::Null) => false,
                Some(Json::String(s)) if s.is_empty() => false,
                Some(cursor) => {
                    arguments.insert(param.as_str(), cursor.clone());
                    true
                }
            },
            PageStyle::Page { param } => {
                let current = number(arguments.get(param)).unwrap_or(1);
                arguments.insert(param.as_str(), current + 1);
                count > 0
            }
            PageStyle::Offset { param } => {
                let current = number(arguments.get(param)).unwrap_or(0);
                arguments.insert(param.as_str(), current + count as u64);
                count > 0
            }
        };
        if !advanced {
            break None;
        }
        if pages >= max_pages {
            break Some(format!("max_pages ({}) were read", max_pages));
        }
    };
    let mut result = Map::with_capacity(5);
    result.insert("items", Json::Array(items));
    result.insert("pages", pages);
    result.insert("more", stopped.is_some());
    if let Some(why) = stopped {
        if let Some(next) = next_arguments(pagination, &arguments, next_url.as_ref(), query_params)
        {
            result.insert("next", next);
        }
        result.insert("stopped", why);
    }
    Read::Pages(Json::Object(result))
}

/// The arguments that ask for the rest: the page parameter's next value, or the declared
/// query parameters of the next link; `None` when the next link holds others.
fn next_arguments(
    pagination: &Pagination,
    arguments: &Map,
    next_url: Option<&Url>,
    query_params: &[(String, String)],
) -> Option<Json> {
    let mut next = Map::new();
    match (&pagination.style, next_url) {
        (PageStyle::Link, Some(url)) => {
            for (wire, value) in url.query_pairs() {
                let (_, name) = query_params.iter().find(|(w, _)| *w == wire)?;
                next.insert(name.as_str(), value);
            }
        }
        (PageStyle::Link, None) => return None,
        (style, _) => {
            let param = style.param()?;
            next.insert(param, arguments.get(param)?.clone());
        }
    }
    Some(Json::Object(next))
}

fn number(value: Option<&Json>) -> Option<u64> {
    match value? {
        Json::String(s) => s.trim().parse().ok(),
        other => other.as_u64(),
    }
}

/// Whether `url` is under `prefix` (`scheme://authority/base`): same origin, and its path
/// the base path or below it.
fn under(url: &Url, prefix: &str) -> bool {
    let text = url.as_str();
    match text.strip_prefix(prefix) {
        Some(rest) => rest.is_empty() || rest.starts_with(['/', '?', '#']),
        None => false,
    }
}

/// The target of the `Link` header's `rel="next"` (RFC 8288 section 3), among every `Link`
/// field and every link in each.
fn next_link(response: &Response) -> Option<String> {
    for field in response.headers().get_all("link") {
        for link in split_links(field) {
            let link = link.trim();
            let (target, params) = match (link.find('<'), link.find('>')) {
                (Some(0), Some(end)) => (&link[1..end], &link[end + 1..]),
                _ => continue,
            };
            let next = params.split(';').any(|param| {
                let (name, value) = match param.split_once('=') {
                    Some(pair) => pair,
                    None => return false,
                };
                name.trim().eq_ignore_ascii_case("rel")
                    && value
                        .trim()
                        .trim_matches('"')
                        .split_ascii_whitespace()
                        .any(|rel| rel.eq_ignore_ascii_case("next"))
            });
            if next {
                return Some(target.to_string());
            }
        }
    }
    None
}

/// The links of one `Link` field: split at commas outside `<...>` and quoted strings.
fn split_links(field: &str) -> Vec<&str> {
    let mut links = Vec::new();
    let (mut start, mut in_target, mut in_quote) = (0, false, false);
    for (i, c) in field.char_indices() {
        match c {
            '<' if !in_quote => in_target = true,
            '>' if !in_quote => in_target = false,
            '"' if !in_target => in_quote = !in_quote,
            ',' if !in_target && !in_quote => {
                links.push(&field[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    links.push(&field[start..]);
    links
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_links_are_found_among_others() {
        let url = Url::parse("https://api.example.com/items").unwrap();
        let mut headers = crate::http::Headers::new();
        headers
            .append(
                "Link",
                "<https://api.example.com/items?page=1>; rel=\"prev first\", <https://api.example.com/items?a=1,2&page=3>; title=\"x, y\"; rel=\"next\"",
            )
            .unwrap();
        let response = Response::new(200, url).with_headers(headers);
        assert_eq!(
            next_link(&response).as_deref(),
            Some("https://api.example.com/items?a=1,2&page=3")
        );
    }

    #[test]
    fn links_stay_under_the_prefix() {
        let prefix = "https://api.example.com/v1";
        let ok = |u: &str| under(&Url::parse(u).unwrap(), prefix);
        assert!(ok("https://api.example.com/v1/items?page=2"));
        assert!(ok("https://api.example.com/v1?page=2"));
        assert!(!ok("https://api.example.com/v10/items"));
        assert!(!ok("https://api.example.com/v2/items"));
        assert!(!ok("https://evil.example.com/v1/items"));
        assert!(!ok("http://api.example.com/v1/items"));
        assert!(!ok("https://api.example.com:8443/v1/items"));
    }
}
