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

use crate::json::{Json, Map};
use crate::plugin::error::quote;

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
    pub(crate) fn check(&self, settable: &dyn Fn(&str) -> bool) -> Result<(), (String, String)> {
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
            if !settable(param) {
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

/// The advertised output schema of a paged tool: what reading the pages returns.
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

#[cfg(test)]
mod tests {
    use super::*;

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
