//! Lists on many pages: an endpoint that declares how its list continues (`Link` header,
//! cursor, page or offset) is read page by page within `max_pages` and a byte budget, against
//! loopback APIs of 1,000 pages; the result says whether more remain and how to ask for them,
//! and a next link never leads off the API.

use httptool::json;
use httptool::json::Json;
use httptool::plugin::{HttpPlugin, Pagination};
use httptool::tool::{ToolCall, ToolOutput, ToolRegistry};

use crate::support::Server as Api;

const PAGES: u64 = 1000;

fn query(target: &str, name: &str) -> Option<u64> {
    let query = target.split('?').nth(1)?;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(&format!("{}=", name)))
        .and_then(|v| v.parse().ok())
}

/// Page N (0-based) holds items 2N and 2N+1.
fn items(n: u64) -> String {
    format!("[{},{}]", 2 * n, 2 * n + 1)
}

/// `/v1/cursor?cursor=N`: `{"data": [...], "meta": {"next": N+1}}`, `null` after the last.
/// `/v1/link?page=N` (1-based): a JSON array, `Link: <...page=N+1>; rel="next"`.
/// `/v1/offset?offset=N&limit=2`, `/v1/numbered?page=N`: arrays, empty past the end.
/// `/v1/off-origin` and `/v1/off-path`: a next link that leaves.
fn api(other: String) -> Api {
    Api::responding(move |request| {
        let path = request.target.split('?').next().unwrap_or("").to_string();
        let json = String::from("Content-Type: application/json\r\n");
        let ok = String::from("200 OK");
        let host = request.header("host").unwrap_or_default();
        match path.as_str() {
            "/v1/cursor" => {
                let n = query(&request.target, "cursor").unwrap_or(0);
                let next = if n + 1 < PAGES {
                    (n + 1).to_string()
                } else {
                    String::from("null")
                };
                let body = format!(r#"{{"data":{},"meta":{{"next":{}}}}}"#, items(n), next);
                (ok, json, body.into_bytes())
            }
            "/v1/link" => {
                let n = query(&request.target, "page").unwrap_or(1);
                let mut headers = json;
                if n < PAGES {
                    headers.push_str(&format!(
                        "Link: <http://{}/v1/link?page={}>; rel=\"next\", <http://{}/v1/link?page={}>; rel=\"last\"\r\n",
                        host,
                        n + 1,
                        host,
                        PAGES
                    ));
                }
                (ok, headers, items(n - 1).into_bytes())
            }
            "/v1/numbered" => {
                let n = query(&request.target, "page").unwrap_or(1);
                let body = if n <= 3 { items(n) } else { String::from("[]") };
                (ok, json, body.into_bytes())
            }
            "/v1/offset" => {
                let at = query(&request.target, "offset").unwrap_or(0);
                let body = if at < 5 {
                    format!(
                        "[{}]",
                        (at..(at + 2).min(5))
                            .map(|i| i.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    )
                } else {
                    String::from("[]")
                };
                (ok, json, body.into_bytes())
            }
            "/v1/off-origin" => (
                ok,
                format!(
                    "{}Link: <{}/v1/off-origin?page=2>; rel=\"next\"\r\n",
                    json, other
                ),
                b"[1]".to_vec(),
            ),
            "/v1/off-path" => (
                ok,
                format!("{}Link: </admin/users?page=2>; rel=\"next\"\r\n", json),
                b"[1]".to_vec(),
            ),
            "/v1/missing" => (
                String::from("404 Not Found"),
                json,
                br#"{"error":"no"}"#.to_vec(),
            ),
            _ => (String::from("500 Oops"), String::new(), Vec::new()),
        }
    })
}

fn plugin(api: &Api, endpoints: &str) -> HttpPlugin {
    HttpPlugin::from_json(&format!(
        r#"{{"name": "p", "base_url": "{}/v1",
            "auth": {{"type": "query", "name": "api_key", "value": "k-0123456789"}},
            "endpoints": [{}]}}"#,
        api.base(),
        endpoints
    ))
    .unwrap()
}

fn call(plugin: &HttpPlugin, tool: &str, arguments: &str) -> ToolOutput {
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    registry.call(&ToolCall::new("c1", tool, arguments))
}

const CURSOR: &str = r#"{"name": "list", "path": "/cursor",
    "params": [{"name": "cursor", "in": "query", "type": "integer"}],
    "pagination": {"style": "cursor", "cursor": "/meta/next", "param": "cursor", "items": "/data"}}"#;

const LINK: &str = r#"{"name": "list", "path": "/link",
    "params": [{"name": "page", "in": "query", "type": "integer"}],
    "pagination": {"style": "link"}}"#;

fn item_range(from: u64, to: u64) -> Json {
    Json::Array((from..to).map(Json::from).collect())
}

#[test]
fn a_cursor_list_of_1000_pages_is_read_to_max_pages_and_says_how_to_go_on() {
    let api = api(String::new());
    let p = plugin(&api, CURSOR);
    let out = call(&p, "list", "{}");
    assert!(!out.is_error(), "{}", out.text());
    let value = out.structured().unwrap();
    assert_eq!(value["items"], item_range(0, 20));
    assert_eq!(value["pages"], json!(10));
    assert_eq!(value["more"], json!(true));
    assert_eq!(value["next"], json!({"cursor": 10}));
    assert_eq!(value["stopped"], json!("max_pages (10) were read"));
    assert_eq!(api.requests().len(), 10);
    // Every page carried the plugin's credential.
    assert!(api
        .requests()
        .iter()
        .all(|r| r.target.contains("api_key=k-0123456789")));
    // Asking as `next` says goes on where the first call stopped.
    let again = call(&p, "list", r#"{"cursor": 10}"#);
    assert_eq!(again.structured().unwrap()["items"], item_range(20, 40));
    // Secrets never reach the model.
    assert!(!out.text().contains("k-0123456789"));
}

#[test]
fn the_last_page_ends_the_list() {
    let api = api(String::new());
    let p = plugin(&api, CURSOR);
    let out = call(&p, "list", r#"{"cursor": 997}"#);
    let value = out.structured().unwrap();
    assert_eq!(value["items"], item_range(1994, 2000));
    assert_eq!(value["pages"], json!(3));
    assert_eq!(value["more"], json!(false));
    assert!(value.get("next").is_none());
}

#[test]
fn the_byte_budget_bounds_a_long_read() {
    let api = api(String::new());
    let endpoint = CURSOR.replace(
        r#""items": "/data"}"#,
        r#""items": "/data", "max_pages": 100000, "max_bytes": 2000}"#,
    );
    let out = call(&plugin(&api, &endpoint), "list", "{}");
    let value = out.structured().unwrap();
    let pages = value["pages"].as_u64().unwrap();
    // Each page body is 30 to 40 bytes: about 2,000 bytes of them, never 1,000 pages.
    assert!((40..=70).contains(&pages), "{}", pages);
    assert_eq!(value["more"], json!(true));
    assert_eq!(value["next"], json!({"cursor": pages}));
    assert_eq!(
        value["stopped"],
        json!("the pages read reached max_bytes (2000 bytes of page bodies)")
    );
    // The page over the budget was read and left for the next call.
    assert_eq!(api.requests().len() as u64, pages + 1);
}

#[test]
fn a_link_list_of_1000_pages_follows_rel_next() {
    let api = api(String::new());
    let endpoint = LINK.replace(
        r#""style": "link"}"#,
        r#""style": "link", "max_pages": 25}"#,
    );
    let out = call(&plugin(&api, &endpoint), "list", "{}");
    let value = out.structured().unwrap();
    assert_eq!(value["items"], item_range(0, 50));
    assert_eq!(value["pages"], json!(25));
    assert_eq!(value["next"], json!({"page": "26"}));
    let requests = api.requests();
    assert_eq!(requests.len(), 25);
    // The link had no credential: the plugin's was added back, once.
    assert_eq!(requests[3].target, "/v1/link?page=4&api_key=k-0123456789");
}

#[test]
fn a_next_link_off_the_origin_is_not_followed() {
    let elsewhere = Api::json("[2]");
    let api = api(elsewhere.base());
    let out = call(
        &plugin(
            &api,
            r#"{"name": "list", "path": "/off-origin", "pagination": {"style": "link"}}"#,
        ),
        "list",
        "{}",
    );
    let value = out.structured().unwrap();
    assert_eq!(value["items"], json!([1]));
    assert_eq!(value["more"], json!(true));
    assert_eq!(
        value["stopped"],
        json!(
            "the next page's link leads off this API's origin or base path, and was not followed"
        )
    );
    assert_eq!(elsewhere.requests().len(), 0);
    assert_eq!(api.requests().len(), 1);
}

#[test]
fn a_next_link_off_the_base_path_is_not_followed() {
    let api = api(String::new());
    let out = call(
        &plugin(
            &api,
            r#"{"name": "list", "path": "/off-path", "pagination": {"style": "link"}}"#,
        ),
        "list",
        "{}",
    );
    assert_eq!(out.structured().unwrap()["more"], json!(true));
    assert_eq!(api.requests().len(), 1);
}

#[test]
fn page_numbers_and_offsets_end_at_an_empty_page() {
    let api = api(String::new());
    let p = plugin(
        &api,
        r#"{"name": "numbered", "path": "/numbered",
            "params": [{"name": "page", "in": "query", "type": "integer"}],
            "pagination": {"style": "page", "param": "page"}},
           {"name": "offset", "path": "/offset",
            "params": [{"name": "offset", "in": "query", "type": "integer"}],
            "pagination": {"style": "offset", "param": "offset"}}"#,
    );
    let numbered = call(&p, "numbered", "{}");
    let value = numbered.structured().unwrap();
    assert_eq!(value["items"], json!([2, 3, 4, 5, 6, 7]));
    assert_eq!(value["pages"], json!(4));
    assert_eq!(value["more"], json!(false));
    let offset = call(&p, "offset", "{}");
    assert_eq!(
        offset.structured().unwrap()["items"],
        json!([0, 1, 2, 3, 4])
    );
}

#[test]
fn an_answer_that_is_not_a_list_is_read_as_any_answer() {
    let api = api(String::new());
    let out = call(
        &plugin(
            &api,
            r#"{"name": "list", "path": "/missing", "pagination": {"style": "link"}}"#,
        ),
        "list",
        "{}",
    );
    assert!(out.is_error());
    assert_eq!(
        out.text(),
        "the API answered 404 Not Found: {\"error\":\"no\"}"
    );
}

#[test]
fn pagination_is_a_plugin_file_field_that_round_trips() {
    let api = api(String::new());
    let p = plugin(&api, CURSOR);
    let written = p.to_json();
    assert_eq!(
        written["endpoints"][0]["pagination"],
        json!({"style": "cursor", "cursor": "/meta/next", "param": "cursor", "items": "/data"})
    );
    assert_eq!(
        HttpPlugin::from_json(&written.to_string())
            .unwrap()
            .to_json(),
        written
    );
    let endpoint = &p.tools()[0];
    assert_eq!(
        endpoint.endpoint().pagination(),
        Some(&Pagination::cursor("/meta/next", "cursor").items("/data"))
    );
    // The parameter that takes the cursor must be one the model can send.
    let undeclared = CURSOR.replace(r#""param": "cursor""#, r#""param": "after""#);
    let err = HttpPlugin::from_json(&format!(
        r#"{{"name": "p", "base_url": "https://api.example.com", "endpoints": [{}]}}"#,
        undeclared
    ))
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("'after' is not a parameter of this endpoint"),
        "{}",
        err
    );
}
