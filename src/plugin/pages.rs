//! Lists that continue on more pages: how an endpoint declares it (`pagination` in the plugin
//! file), and reading the pages within `max_pages` and a byte budget into one result that says
//! whether more remain and how to ask for them.
//!
//! Off unless declared (or recognised by an importer). The four ways a list continues:
//!
//! - `link`: the answer's `Link` header names the next page (`rel="next"`, RFC 8288). The
//!   next URL must be on the endpoint's origin and under the plugin's base path: neither the
//!   API nor the model can steer the request elsewhere, and a link that leaves is not
//!   followed (the result says so).
//! - `cursor`: a field of the answer (`cursor`, a JSON Pointer) holds the value the parameter
//!   `param` takes for the next page; an absent, `null` or empty value ends the list.
//! - `page`: the parameter `param` is the page number (1 when the model sends none); the next
//!   page is one more; an empty page ends the list.
//! - `offset`: the parameter `param` is the offset of the first item (0 when the model sends
//!   none); the next page starts after the items read; an empty page ends the list.
//!
//! `items` (a JSON Pointer) is where each page holds its list; without it the answer must be
//! the list.

use super::error::quote;
use super::redact::Redactor;
use crate::http::Response;
use crate::json::{self, Json, Map};
use crate::url::Url;

/// The most pages read in one call unless an endpoint says otherwise: 10.
pub const DEFAULT_MAX_PAGES: u32 = 10;

/// The most bytes of page bodies read in one call unless an endpoint says otherwise: 1 MiB.
pub const DEFAULT_MAX_PAGE_BYTES: usize = 1024 * 1024;

/// How the next page is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PageStyle {
    /// The `Link` header's `rel="next"` URL.
    Link,
    /// A field of the answer (a JSON Pointer) holds the value the parameter takes next.
    Cursor {
        /// JSON Pointer of the next cursor in the answer (`/meta/next_cursor`).
        field: String,
        /// The parameter (its model-facing name) that takes it.
        param: String,
    },
    /// The parameter is the page number.
    Page {
        /// The parameter (its model-facing name).
        param: String,
    },
    /// The parameter is the offset of the first item.
    Offset {
        /// The parameter (its model-facing name).
        param: String,
    },
}

impl PageStyle {
    /// The word of the plugin file: `link`, `cursor`, `page` or `offset`.
    pub fn as_str(&self) -> &'static str {
        match self {
            PageStyle::Link => "link",
            PageStyle::Cursor { .. } => "cursor",
            PageStyle::Page { .. } => "page",
            PageStyle::Offset { .. } => "offset",
        }
    }

    /// The parameter that moves to the next page, for the styles that have one.
    pub fn param(&self) -> Option<&str> {
        match self {
            PageStyle::Link => None,
            PageStyle::Cursor { param, .. }
            | PageStyle::Page { param }
            | PageStyle::Offset { param } => Some(param),
        }
    }
}

/// How an endpoint's list continues, and how much of it one call reads.
///
/// # Examples
///
/// ```
/// use httptool::plugin::{Endpoint, HttpPlugin, Pagination, Param};
///
/// let plugin = HttpPlugin::builder("shop", "https://api.example.com")
///     .endpoint(
///         Endpoint::get("listOrders", "/orders")
///             .param(Param::query("cursor"))
///             .pagination(Pagination::cursor("/next_cursor", "cursor").items("/data").max_pages(5)),
///     )
///     .build()?;
/// assert_eq!(plugin.to_json()["endpoints"][0]["pagination"]["style"], httptool::json!("cursor"));
/// # Ok::<(), httptool::plugin::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pagination {
    pub(crate) style: PageStyle,
    pub(crate) items: Option<String>,
    pub(crate) max_pages: Option<u32>,
    pub(crate) max_bytes: Option<usize>,
}

impl Pagination {
    fn new(style: PageStyle) -> Pagination {
        Pagination {
            style,
            items: None,
            max_pages: None,
            max_bytes: None,
        }
    }

    /// Pages named by the `Link` header's `rel="next"`.
    pub fn link() -> Pagination {
        Pagination::new(PageStyle::Link)
    }

    /// The answer's `field` (a JSON Pointer) holds the value `param` takes for the next page.
    pub fn cursor(field: impl Into<String>, param: impl Into<String>) -> Pagination {
        Pagination::new(PageStyle::Cursor {
            field: field.into(),
            param: param.into(),
        })
    }

    /// `param` is the page number.
    pub fn page(param: impl Into<String>) -> Pagination {
        Pagination::new(PageStyle::Page {
            param: param.into(),
        })
    }

    /// `param` is the offset of the first item.
    pub fn offset(param: impl Into<String>) -> Pagination {
        Pagination::new(PageStyle::Offset {
            param: param.into(),
        })
    }

    /// Where each page holds its list (a JSON Pointer). Defaults to the whole answer.
    #[must_use]
    pub fn items(mut self, pointer: impl Into<String>) -> Pagination {
        self.items = Some(pointer.into());
        self
    }

    /// Pages read in one call. Defaults to [`DEFAULT_MAX_PAGES`] (10).
    #[must_use]
    pub fn max_pages(mut self, pages: u32) -> Pagination {
        self.max_pages = Some(pages);
        self
    }

    /// Bytes of page bodies read in one call; the page that would pass it is left for the
    /// next call. Defaults to [`DEFAULT_MAX_PAGE_BYTES`] (1 MiB).
    #[must_use]
    pub fn max_bytes(mut self, bytes: usize) -> Pagination {
        self.max_bytes = Some(bytes);
        self
    }

    /// How the next page is asked for.
    pub fn style(&self) -> &PageStyle {
        &self.style
    }

    /// Where each page holds its list, if declared.
    pub fn items_pointer(&self) -> Option<&str> {
        self.items.as_deref()
    }

    /// The plugin file's object: `{"style", "cursor"?, "param"?, "items"?, "max_pages"?,
    /// "max_bytes"?}`.
    pub(crate) fn to_json(&self) -> Json {
        let mut map = Map::new();
        map.insert("style", self.style.as_str());
        if let PageStyle::Cursor { field, .. } = &self.style {
            map.insert("cursor", field.as_str());
        }
        if let Some(param) = self.style.param() {
            map.insert("param", param);
        }
        if let Some(items) = &self.items {
            map.insert("items", items.as_str());
        }
        if let Some(pages) = self.max_pages {
            map.insert("max_pages", pages);
        }
        if let Some(bytes) = self.max_bytes {
            map.insert("max_bytes", bytes);
        }
        Json::Object(map)
    }

    /// Reads the plugin file's object; `Err` is the field's name and what is wrong.
    pub(crate) fn from_json(value: &Json) -> Result<Pagination, (String, String)> {
        const FIELDS: [&str; 6] = [
            "style",
            "cursor",
            "param",
            "items",
            "max_pages",
            "max_bytes",
        ];
        let map = value
            .as_object()
            .ok_or_else(|| (String::new(), String::from("expected an object")))?;
        if let Some(key) = map.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err((
                key.to_string(),
                format!("unknown field; accepted: {}", FIELDS.join(", ")),
            ));
        }
        let text = |key: &str| -> Result<Option<String>, (String, String)> {
            match map.get(key) {
                None => Ok(None),
                Some(Json::String(s)) => Ok(Some(s.clone())),
                Some(other) => Err((
                    key.to_string(),
                    format!("expected a string; got {}", other.type_name()),
                )),
            }
        };
        let needed = |key: &str| -> Result<String, (String, String)> {
            text(key)?.ok_or_else(|| (key.to_string(), String::from("missing for this style")))
        };
        let style = match text("style")?.as_deref() {
            Some("link") => PageStyle::Link,
            Some("cursor") => PageStyle::Cursor {
                field: needed("cursor")?,
                param: needed("param")?,
            },
            Some("page") => PageStyle::Page {
                param: needed("param")?,
            },
            Some("offset") => PageStyle::Offset {
                param: needed("param")?,
            },
            Some(other) => {
                return Err((
                    String::from("style"),
                    format!(
                        "expected one of link, cursor, page, offset; got {}",
                        quote(other)
                    ),
                ))
            }
            None => return Err((String::from("style"), String::from("missing"))),
        };
        let count = |key: &str| -> Result<Option<u64>, (String, String)> {
            match map.get(key) {
                None => Ok(None),
                Some(v) => v.as_u64().filter(|n| *n > 0).map(Some).ok_or_else(|| {
                    (
                        key.to_string(),
                        String::from("expected a whole number of 1 or more"),
                    )
                }),
            }
        };
        let mut pagination = Pagination::new(style);
        pagination.items = text("items")?;
        pagination.max_pages = count("max_pages")?.map(|n| n.min(u64::from(u32::MAX)) as u32);
        pagination.max_bytes =
            count("max_bytes")?.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        Ok(pagination)
    }
}

impl Pagination {
    /// Checks the declaration against its endpoint: the page parameter is one of its
    /// parameters the model may set, and the pointers are JSON Pointers. `Err` is the field
    /// and what is wrong.
    pub(crate) fn check(&self, endpoint: &super::Endpoint) -> Result<(), (String, String)> {
        let pointers = [
            ("items", self.items.as_deref()),
            (
                "cursor",
                match &self.style {
                    PageStyle::Cursor { field, .. } => Some(field.as_str()),
                    _ => None,
                },
            ),
        ];
        for (key, pointer) in pointers {
            if let Some(pointer) = pointer {
                if !pointer.is_empty() && !pointer.starts_with('/') {
                    return Err((
                        key.to_string(),
                        String::from("a json pointer is empty or starts with '/' (RFC 6901), such as /data/items"),
                    ));
                }
            }
        }
        if let Some(param) = self.style.param() {
            let declared = endpoint
                .params
                .iter()
                .find(|p| p.name() == param && !p.is_hidden());
            if declared.is_none() {
                return Err((
                    String::from("param"),
                    format!(
                        "{} is not a parameter of this endpoint the model may set; declare it, so the model can ask for the pages after those read",
                        quote(param)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The advertised output schema of a paged tool: what [`read`] returns.
pub(crate) fn output_schema() -> Json {
    crate::json!({
        "type": "object",
        "properties": {
            "items": {"type": "array", "description": "The items of every page read, in order."},
            "pages": {"type": "integer", "description": "How many pages were read."},
            "more": {"type": "boolean", "description": "Whether the list continues past what was read."},
            "next": {"type": "object", "description": "The arguments that ask for the rest (with the others as they were)."},
            "stopped": {"type": "string", "description": "Why reading stopped while more remained."}
        }
    })
}

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

    #[test]
    fn the_plugin_file_object_round_trips() {
        for p in [
            Pagination::link(),
            Pagination::cursor("/next", "cursor")
                .items("/data")
                .max_pages(3),
            Pagination::page("page").max_bytes(1000),
            Pagination::offset("offset").items("/results"),
        ] {
            assert_eq!(Pagination::from_json(&p.to_json()), Ok(p.clone()));
        }
        let bad = crate::json!({"style": "cursor", "param": "c"});
        assert_eq!(
            Pagination::from_json(&bad).unwrap_err(),
            (
                String::from("cursor"),
                String::from("missing for this style")
            )
        );
    }
}
