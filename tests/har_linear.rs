//! Importing a recording costs time linear in its size: eight times the entries take about
//! eight times as long, with a bound generous enough for a loaded machine and far below what
//! a quadratic step would take (sixty-four times).

use std::time::{Duration, Instant};

use httptool::har::{self, ImportOptions};
use httptool::json;

const HOSTS: [&str; 3] = [
    "https://app.example.com",
    "https://api.example.com",
    "https://files.example.net",
];

/// A recording of `entries` calls: ids, UUID-like and varying words in paths, query keys,
/// JSON bodies and answers, credentials and browser headers, several hosts, some assets.
fn recording(entries: usize) -> String {
    let mut text = String::from(r#"{"log": {"version": "1.2", "entries": ["#);
    for i in 0..entries {
        if i > 0 {
            text.push(',');
        }
        let host = HOSTS[(i / 6) % HOSTS.len()];
        let (method, path) = match i % 6 {
            0 => ("GET", format!("/api/users/{}", 1000 + i)),
            1 => ("GET", format!("/api/teams/{}/members", i * 7)),
            2 => ("POST", format!("/api/projects/{}/tasks", i)),
            3 => ("PUT", format!("/api/orders/{:032x}", i * 2_654_435_761)),
            4 => ("GET", format!("/api/items/word{}", i % 50)),
            _ => ("GET", format!("/static/img{}.png", i)),
        };
        let (resource, mime) = if i % 6 == 5 {
            ("image", "image/png")
        } else {
            ("xhr", "application/json")
        };
        let body = if method == "GET" {
            String::new()
        } else {
            format!(
                r#", "postData": {{"mimeType": "application/json", "text": "{{\"title\": \"t{i}\", \"count\": {i}, \"tags\": [\"a\", \"b\"], \"done\": false}}"}}"#
            )
        };
        text.push_str(&format!(
            r#"{{"_resourceType": "{resource}", "startedDateTime": "2024-01-01T00:00:00Z", "time": 3.5,
              "request": {{"method": "{method}", "url": "{host}{path}?page={page}&limit=20&_={stamp}",
                "headers": [{{"name": "Accept", "value": "application/json"}},
                  {{"name": "User-Agent", "value": "Mozilla/5.0"}},
                  {{"name": "Cookie", "value": "session=s{session}"}},
                  {{"name": "Authorization", "value": "Bearer tok-{session}-0123456789abcdef"}},
                  {{"name": "X-Api-Key", "value": "key-{session}-fedcba9876543210"}},
                  {{"name": "X-Client", "value": "web"}}]{body}}},
              "response": {{"status": 200, "headers": [{{"name": "content-type", "value": "{mime}"}}],
                "content": {{"mimeType": "{mime}", "text": "{{\"id\": {i}, \"items\": [{{\"name\": \"n{i}\", \"value\": {i}}}], \"next\": null}}"}}}},
              "timings": {{"send": 0, "wait": 2.5, "receive": 1}}}}"#,
            page = i % 9,
            stamp = 1_700_000_000_000u64 + i as u64,
            session = i % 3,
        ));
    }
    text.push_str("]}}");
    text
}

/// The fastest of three imports of the recording (parsing included), and the tools made.
fn time_import(text: &str) -> (Duration, usize) {
    let options = HOSTS
        .iter()
        .fold(ImportOptions::new(), |o, h| o.host(&h["https://".len()..]));
    let mut best = Duration::MAX;
    let mut tools = 0;
    for _ in 0..3 {
        let start = Instant::now();
        let document = json::parse(text).unwrap();
        let import = har::import_with(&document, &options).unwrap();
        best = best.min(start.elapsed());
        tools = import.plugin().endpoints().count();
    }
    (best, tools)
}

#[test]
fn eight_times_the_entries_take_about_eight_times_as_long() {
    let small = recording(300);
    let large = recording(2400);
    assert!(large.len() > 7 * small.len());
    let (small_time, small_tools) = time_import(&small);
    let (large_time, large_tools) = time_import(&large);
    // The same endpoints, only more calls of each: grouping does not multiply them.
    assert_eq!(small_tools, large_tools);
    assert_eq!(small_tools, 15, "5 endpoints on each of 3 hosts");
    // Linear is eight times; quadratic would be sixty-four. Small inputs are noisy, so the
    // small one is given at least a millisecond.
    let bound = small_time.max(Duration::from_millis(1)) * 24;
    assert!(
        large_time < bound,
        "{:?} for 8x the entries against {:?} for 1x",
        large_time,
        small_time
    );
}
