//! `httptool import postman` and `httptool import har`: the plugin file on standard output,
//! warnings, variables and counts on standard error, input limits, and clear errors.

use crate::support::cli::{httptool, status, stderr, stdout, TempDir};
use httptool::plugin::HttpPlugin;

const COLLECTION: &str = r#"{"info": {"name": "Shop"},
  "variable": [{"key": "baseUrl", "value": "https://api.example.com/v1"}],
  "auth": {"type": "apikey", "apikey": [{"key": "key", "value": "X-Api-Key"}, {"key": "value", "value": "k-123456"}]},
  "item": [{"name": "List orders", "request": {"method": "GET", "url": "{{baseUrl}}/orders?limit=10"}},
           {"name": "Sign", "request": {"method": "GET", "auth": {"type": "oauth1"}, "url": "{{baseUrl}}/sign"}}]}"#;

const RECORDING: &str = r#"{"log": {"entries": [
  {"_resourceType": "xhr", "request": {"method": "GET", "url": "https://app.example.com/api/users/5",
    "headers": [{"name": "Authorization", "value": "Bearer rec0rded-t0ken"}]},
   "response": {"status": 200, "content": {"mimeType": "application/json", "text": "{\"id\": 5}"}}},
  {"_resourceType": "image", "request": {"method": "GET", "url": "https://app.example.com/a.png", "headers": []},
   "response": {"status": 200, "content": {"mimeType": "image/png"}}}]}}"#;

#[test]
fn import_postman_prints_the_plugin_and_reports() {
    let dir = TempDir::new("import-postman");
    let path = dir.file("shop.postman_collection.json", COLLECTION);
    let out = httptool(&["import", "postman", &path], None, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let file = stdout(&out);
    assert!(!file.contains("k-123456"), "{}", file);
    let plugin = HttpPlugin::from_json_with(&file, |_| Some("v".to_string())).unwrap();
    assert_eq!(plugin.endpoints().count(), 2);
    let err = stderr(&out);
    assert!(
        err.contains("environment variable SHOP_X_API_KEY"),
        "{}",
        err
    );
    assert!(
        err.contains("warning: item[1]") && err.contains("oauth1"),
        "{}",
        err
    );
    assert!(err.contains("2 tools"), "{}", err);
}

#[test]
fn import_har_prints_the_plugin_and_counts_what_is_left_out() {
    let dir = TempDir::new("import-har");
    let path = dir.file("app.har", RECORDING);
    let out = httptool(
        &["import", "har", &path, "--host", "app.example.com"],
        None,
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let file = stdout(&out);
    assert!(!file.contains("rec0rded-t0ken"), "{}", file);
    assert!(file.contains("/api/users/{user_id}"), "{}", file);
    let err = stderr(&out);
    assert!(err.contains("1 entries left out: 1 image"), "{}", err);
    assert!(
        err.contains("environment variable EXAMPLE_TOKEN"),
        "{}",
        err
    );
}

#[test]
fn inputs_are_capped_and_errors_are_clear() {
    let dir = TempDir::new("import-limits");
    let path = dir.file("shop.json", COLLECTION);
    let out = httptool(
        &["import", "postman", &path, "--max-input-bytes", "100"],
        None,
        &[],
    );
    assert_eq!(status(&out), 1);
    assert!(
        stderr(&out).contains("larger than the input limit of 100 bytes"),
        "{}",
        stderr(&out)
    );
    let bad = dir.file("bad.json", r#"{"item": [{"request": {"url": 5}}]}"#);
    let out = httptool(&["import", "postman", &bad], None, &[]);
    assert_eq!(status(&out), 1);
    assert!(
        stderr(&out).contains("item[0].request.url: expected a string or an object"),
        "{}",
        stderr(&out)
    );
    let out = httptool(&["import", "har", &path], None, &[]);
    assert_eq!(status(&out), 1);
    assert!(
        stderr(&out).contains("not a HAR 1.2 recording"),
        "{}",
        stderr(&out)
    );
    let out = httptool(&["import", "har"], None, &[]);
    assert_eq!(status(&out), 2);
    let out = httptool(&["import", "postman", "--help"], None, &[]);
    assert_eq!(status(&out), 0);
    assert!(stdout(&out).starts_with("usage: httptool import postman"));
}
