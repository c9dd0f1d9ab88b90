//! The common shapes of a list on many pages, recognised in an operation so its tool reads
//! the pages ([`plugin::Pagination`](crate::plugin::Pagination)):
//!
//! - a success response that declares a `Link` header (RFC 8288), with a query parameter
//!   the next link can set (`page`, `cursor`, ...): `link`;
//! - a success response whose JSON object has a next-cursor field (`next_cursor`,
//!   `nextCursor`, `nextPageToken`, `next_page_token`, `next_token`, `nextToken`, `cursor`
//!   under `meta` or `pagination` or at the top), paired with a query parameter of the same
//!   role (`cursor`, `after`, `starting_after` for a cursor; `pageToken`, `page_token` for a
//!   page token; `next_token`, `nextToken` for a token), and the pairs named alike:
//!   `next_marker` and `marker` (Box), `bookmark` (Pinterest), `metadata.continue` and
//!   `continue` (Kubernetes): `cursor`.
//!
//! The list is the object's first array property (`items` of the plugin's pagination), or the
//! answer itself. Only GET operations are looked at; nothing else is guessed: a body field
//! called `next` holding a URL, page numbers and offsets are left for the plugin file to
//! declare, since the same names often mean something else (httpbin's `/links/{n}/{offset}`
//! has an `offset` that is no page).

use crate::json::{Json, Map};
use crate::plugin::{Location, Pagination};

use super::params::ParamOut;

/// What was recognised: the plugin's pagination, with the page parameter
/// named by its wire name until the parameters' final names are known.
pub(super) struct Found {
    link: bool,
    cursor: Option<String>,
    param_wire: String,
    items: Option<String>,
}

/// Cursor fields and the parameters of the same role.
const CURSOR_ROLES: &[(&[&str], &[&str])] = &[
    (
        &["next_cursor", "nextCursor", "cursor", "next"],
        &["cursor", "after", "starting_after", "page_cursor"],
    ),
    (
        &["nextPageToken", "next_page_token"],
        &["pageToken", "page_token"],
    ),
    (
        &["next_token", "nextToken"],
        &["next_token", "nextToken", "token"],
    ),
    (&["next_marker", "nextMarker"], &["marker"]),
    (&["bookmark"], &["bookmark"]),
    (&["continue"], &["continue"]),
];

/// Objects a cursor field may sit in, besides the top.
const CURSOR_HOMES: [&str; 5] = [
    "meta",
    "metadata",
    "pagination",
    "page_info",
    "response_metadata",
];

/// Query parameters a next link may set.
const LINK_PARAMS: [&str; 6] = ["page", "cursor", "after", "since", "offset", "page_token"];

/// Recognises the shapes above in a GET operation, given its query parameters.
pub(super) fn recognise(
    method: &str,
    op: &Json,
    root: &Json,
    params: &[ParamOut],
) -> Option<Found> {
    if method != "GET" {
        return None;
    }
    let query: Vec<&str> = params
        .iter()
        .filter(|p| p.location == Location::Query)
        .map(|p| p.wire.as_str())
        .collect();
    let response = success(op, root)?;
    let declares_link = response
        .get("headers")
        .and_then(Json::as_object)
        .map_or(false, |h| h.keys().any(|k| k.eq_ignore_ascii_case("link")));
    let schema = json_schema(response, root);
    let items = schema.as_ref().and_then(|s| items_pointer(s, root));
    if declares_link {
        if let Some(param) = LINK_PARAMS.iter().find(|p| query.contains(p)) {
            return Some(Found {
                link: true,
                cursor: None,
                param_wire: param.to_string(),
                items,
            });
        }
    }
    let schema = schema?;
    for (fields, roles) in CURSOR_ROLES {
        let param = match roles.iter().find(|r| query.contains(r)) {
            Some(param) => param,
            None => continue,
        };
        if let Some(pointer) = cursor_pointer(&schema, root, fields) {
            return Some(Found {
                link: false,
                cursor: Some(pointer),
                param_wire: param.to_string(),
                items,
            });
        }
    }
    None
}

impl Found {
    /// The plugin's pagination, once the parameters have their final names; `None` when the
    /// page parameter is no longer among them (it was a credential's slot).
    pub(super) fn pagination(&self, params: &[ParamOut]) -> Option<Pagination> {
        let param = params
            .iter()
            .find(|p| p.location == Location::Query && p.wire == self.param_wire)?;
        let pagination = if self.link {
            Pagination::link()
        } else {
            let cursor = self.cursor.clone().unwrap_or_default();
            Pagination::cursor(cursor, param.name.as_str())
        };
        Some(match &self.items {
            Some(items) => pagination.items(items.as_str()),
            None => pagination,
        })
    }
}

/// Follows local `$ref`s (a few hops: the importer reports cycles elsewhere).
fn resolve<'a>(mut value: &'a Json, root: &'a Json) -> &'a Json {
    for _ in 0..8 {
        let target = match value.get("$ref").and_then(Json::as_str) {
            Some(r) => r,
            None => break,
        };
        match target.strip_prefix('#').and_then(|p| root.pointer(p)) {
            Some(next) => value = next,
            None => break,
        }
    }
    value
}

/// The operation's `200` response (or its first 2xx).
fn success<'a>(op: &'a Json, root: &'a Json) -> Option<&'a Json> {
    let responses = op.get("responses")?.as_object()?;
    let response = responses.get("200").or_else(|| {
        responses
            .iter()
            .find(|(code, _)| code.starts_with('2'))
            .map(|(_, r)| r)
    })?;
    Some(resolve(response, root))
}

/// The JSON schema of a response: OpenAPI 3's `content` (a JSON media type) or Swagger 2's
/// `schema`.
fn json_schema(response: &Json, root: &Json) -> Option<Json> {
    if let Some(schema) = response.get("schema") {
        return Some(resolve(schema, root).clone());
    }
    let content = response.get("content")?.as_object()?;
    let (_, media) = content
        .iter()
        .find(|(t, _)| crate::http::media::is_json(t))?;
    Some(resolve(media.get("schema")?, root).clone())
}

fn properties<'a>(schema: &'a Json, root: &'a Json) -> Option<&'a Map> {
    resolve(schema, root).get("properties")?.as_object()
}

/// `/name` of the first array property, or `None` when the answer is the array (or has none).
fn items_pointer(schema: &Json, root: &Json) -> Option<String> {
    let properties = properties(schema, root)?;
    properties.iter().find_map(|(name, value)| {
        let value = resolve(value, root);
        (value.get("type").and_then(Json::as_str) == Some("array"))
            .then(|| format!("/{}", escape(name)))
    })
}

/// The pointer of a cursor field named one of `fields`, at the top or in a home object.
fn cursor_pointer(schema: &Json, root: &Json, fields: &[&str]) -> Option<String> {
    let top = properties(schema, root)?;
    let is_cursor = |value: &Json| {
        let value = resolve(value, root);
        matches!(
            value.get("type").and_then(Json::as_str),
            Some("string") | Some("integer") | None
        ) && value.get("properties").is_none()
    };
    for field in fields {
        // `next` and `cursor` alone are too common at the top (a URL, a state): only in a
        // home object.
        if matches!(*field, "next" | "cursor" | "continue") {
            continue;
        }
        if let Some(value) = top.get(field) {
            if is_cursor(value) {
                return Some(format!("/{}", escape(field)));
            }
        }
    }
    for home in CURSOR_HOMES {
        let inner = match top.get(home).and_then(|h| properties(h, root)) {
            Some(inner) => inner,
            None => continue,
        };
        for field in fields {
            if let Some(value) = inner.get(field) {
                if is_cursor(value) {
                    return Some(format!("/{}/{}", home, escape(field)));
                }
            }
        }
    }
    None
}

/// RFC 6901: `~` as `~0`, `/` as `~1`.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn params(names: &[&str]) -> Vec<ParamOut> {
        names
            .iter()
            .map(|n| ParamOut::new(n, Location::Query, json!({"type": "string"})))
            .collect()
    }

    #[test]
    fn a_next_cursor_field_pairs_with_a_cursor_parameter() {
        let op = json!({"responses": {"200": {"content": {"application/json": {"schema": {
            "type": "object",
            "properties": {"data": {"type": "array"}, "next_cursor": {"type": "string"}}}}}}}});
        let found = recognise("GET", &op, &Json::Null, &params(&["cursor", "limit"])).unwrap();
        assert_eq!(
            found
                .pagination(&params(&["cursor", "limit"]))
                .map(|p| p.to_json()),
            Some(
                json!({"style": "cursor", "cursor": "/next_cursor", "param": "cursor", "items": "/data"})
            )
        );
        // Without a parameter of the same role, nothing.
        assert!(recognise("GET", &op, &Json::Null, &params(&["pageToken"])).is_none());
        assert!(recognise("POST", &op, &Json::Null, &params(&["cursor"])).is_none());
    }

    #[test]
    fn a_page_token_through_refs() {
        let root = json!({"components": {"schemas": {"List": {"type": "object", "properties": {
            "files": {"type": "array"}, "nextPageToken": {"type": "string"}}}}}});
        let op = json!({"responses": {"200": {"content": {"application/json": {"schema":
            {"$ref": "#/components/schemas/List"}}}}}});
        let found = recognise("GET", &op, &root, &params(&["pageToken"])).unwrap();
        assert_eq!(
            found
                .pagination(&params(&["pageToken"]))
                .map(|p| p.to_json())
                .unwrap()["cursor"],
            json!("/nextPageToken")
        );
    }

    #[test]
    fn a_link_header_with_a_page_parameter() {
        let op = json!({"responses": {"200": {"headers": {"Link": {"schema": {"type": "string"}}},
            "content": {"application/json": {"schema": {"type": "array"}}}}}});
        let found = recognise("GET", &op, &Json::Null, &params(&["page", "per_page"])).unwrap();
        assert_eq!(
            found.pagination(&params(&["page"])).map(|p| p.to_json()),
            Some(json!({"style": "link"}))
        );
        // A Link header with no parameter a link could set: not a list on pages.
        assert!(recognise("GET", &op, &Json::Null, &params(&["q"])).is_none());
    }

    #[test]
    fn a_top_level_next_url_is_not_a_cursor() {
        let op = json!({"responses": {"200": {"content": {"application/json": {"schema": {
            "type": "object", "properties": {"results": {"type": "array"}, "next": {"type": "string"}}}}}}}});
        assert!(recognise("GET", &op, &Json::Null, &params(&["cursor"])).is_none());
    }
}
