//! JSON-aware truncation: a JSON value over the output cap is cut at element boundaries into
//! valid JSON, with a marker in each cut container saying what was left out. Pure.

use std::fmt::Write;

use crate::json::{write_str, Json};

/// The room kept in a container for its closing bracket and its marker: the longest marker
/// (two 20-digit counts) with its comma, and the bracket.
const RESERVE: usize = 80;

/// The marker member of a cut object.
pub const TRUNCATED_KEY: &str = "[truncated]";

/// `value` as compact JSON in at most `max_bytes`, cut at element boundaries: an array keeps
/// its first items, an object its first members, and the first element that does not fit
/// whole is itself cut when there is room, recursively. Each container that lost elements
/// ends with a marker: an array with the string `"[truncated: 17 more items, 51234 bytes]"`,
/// an object with the member `"[truncated]": "3 more members, 812 bytes"` (bytes of the
/// compact JSON left out). The result parses as JSON.
///
/// `None` when the value fits as it is, when it is a scalar (a long string is cut as text,
/// with [`cap_text`](super::cap_text)), or when `max_bytes` is too small for a container
/// with its marker (under 100 bytes).
///
/// Time is linear in the size of the value plus `max_bytes` for each level cut into; memory
/// is the result, plus one element's compact JSON at a time while counting what was left out.
///
/// # Examples
///
/// ```
/// use httptool::json::{self, Json};
/// use httptool::tool::cap_json;
///
/// let items: Vec<Json> = (0..100).map(|i| httptool::json!({"id": i, "title": "an issue title"})).collect();
/// let value = httptool::json!({"total_count": 100, "items": items});
/// let cut = cap_json(&value, 300).unwrap();
/// assert!(cut.len() <= 300);
/// let parsed = json::parse(&cut).unwrap();
/// assert_eq!(parsed["total_count"], httptool::json!(100));
/// let kept = parsed["items"].as_array().unwrap();
/// assert!(kept.last().unwrap().as_str().unwrap().starts_with("[truncated: "));
/// ```
pub fn cap_json(value: &Json, max_bytes: usize) -> Option<String> {
    if !matches!(value, Json::Array(_) | Json::Object(_)) || max_bytes < RESERVE + 20 {
        return None;
    }
    let mut out = String::new();
    if write_capped(value, &mut out, max_bytes) {
        return None;
    }
    out.clear();
    cut(value, &mut out, max_bytes);
    Some(out)
}

/// Writes `value` as compact JSON into `out`; false (with `out` holding a partial write) as
/// soon as `out` would pass `end` bytes.
fn write_capped(value: &Json, out: &mut String, end: usize) -> bool {
    if out.len() > end {
        return false;
    }
    match value {
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !write_capped(item, out, end) {
                    return false;
                }
            }
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if out.len() + key.len() > end {
                    return false;
                }
                write_str(out, key);
                out.push(':');
                if !write_capped(item, out, end) {
                    return false;
                }
            }
            out.push('}');
        }
        // Escaping only lengthens a string: one too long is not written at all.
        Json::String(s) if out.len() + s.len() + 2 > end => return false,
        scalar => scalar.write_to(out),
    }
    out.len() <= end
}

/// Writes `value` (a container that does not fit) cut to at most `end` bytes of `out`.
fn cut(value: &Json, out: &mut String, end: usize) {
    let inner_end = end.saturating_sub(RESERVE);
    match value {
        Json::Array(items) => {
            out.push('[');
            let mut kept = 0;
            for (i, item) in items.iter().enumerate() {
                let mark = out.len();
                if i > 0 {
                    out.push(',');
                }
                if write_capped(item, out, inner_end) {
                    kept = i + 1;
                    continue;
                }
                out.truncate(mark);
                if descend(item, out, inner_end, i > 0) {
                    kept = i + 1;
                }
                break;
            }
            let rest = items.get(kept..).unwrap_or(&[]);
            if !rest.is_empty() {
                if kept > 0 {
                    out.push(',');
                }
                let marker = format!(
                    "[truncated: {} more items, {} bytes]",
                    rest.len(),
                    left_out(rest.iter())
                );
                write_str(out, &marker);
            }
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            let mut kept = 0;
            for (i, (key, item)) in members.iter().enumerate() {
                let mark = out.len();
                let comma = i > 0;
                if comma {
                    out.push(',');
                }
                write_str(out, key);
                out.push(':');
                let key_end = out.len();
                if key_end <= inner_end && write_capped(item, out, inner_end) {
                    kept = i + 1;
                    continue;
                }
                // Cut into the member's value when there is room for a useful part of it.
                out.truncate(mark);
                let is_container = matches!(item, Json::Array(_) | Json::Object(_));
                if is_container && key_end + RESERVE + 20 <= inner_end {
                    if comma {
                        out.push(',');
                    }
                    write_str(out, key);
                    out.push(':');
                    cut(item, out, inner_end);
                    kept = i + 1;
                }
                break;
            }
            let left = members.len() - kept;
            if left > 0 {
                if kept > 0 {
                    out.push(',');
                }
                write_str(out, TRUNCATED_KEY);
                out.push(':');
                let rest = members.iter().skip(kept).map(|(_, v)| v);
                let mut note = String::new();
                let _ = write!(note, "{} more members, {} bytes", left, left_out(rest));
                write_str(out, &note);
            }
            out.push('}');
        }
        _ => {}
    }
}

/// Cuts into `item` (a container) when there is room for a useful part of it; false when
/// nothing was written. `comma`: a comma goes first.
fn descend(item: &Json, out: &mut String, end: usize, comma: bool) -> bool {
    let is_container = matches!(item, Json::Array(_) | Json::Object(_));
    let needed = out.len() + usize::from(comma) + RESERVE + 20;
    if !is_container || needed > end {
        return false;
    }
    if comma {
        out.push(',');
    }
    cut(item, out, end);
    true
}

/// Bytes of the compact JSON of `values`, commas between them included. Each value's text is
/// made and dropped in turn.
fn left_out<'a>(values: impl Iterator<Item = &'a Json>) -> usize {
    let mut total = 0;
    let mut count: usize = 0;
    for value in values {
        total += value.to_string().len();
        count += 1;
    }
    total + count.saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{self, Map};
    use crate::test_rng::Rng;

    fn issues(n: usize) -> Json {
        let items: Vec<Json> = (0..n)
            .map(|i| {
                crate::json!({"id": i, "title": format!("issue number {}", i),
                              "labels": ["bug", "p1"], "user": {"login": "octocat", "id": 1}})
            })
            .collect();
        crate::json!({"total_count": n, "incomplete_results": false, "items": items})
    }

    #[test]
    fn fits_or_scalar_is_none() {
        assert_eq!(cap_json(&issues(2), 10_000), None);
        assert_eq!(cap_json(&Json::from("x".repeat(1000)), 200), None);
        assert_eq!(cap_json(&issues(100), 50), None);
    }

    #[test]
    fn every_cap_gives_valid_json_within_the_cap() {
        let value = issues(60);
        let whole = value.to_string().len();
        for max in (100..whole).step_by(37) {
            let cut = cap_json(&value, max).unwrap();
            assert!(cut.len() <= max, "max {} got {}", max, cut.len());
            let parsed = json::parse(&cut).unwrap_or_else(|e| panic!("{} at {}: {}", e, max, cut));
            assert!(parsed.is_object());
        }
    }

    #[test]
    fn arrays_keep_their_first_items_and_count_the_rest() {
        let value = issues(50);
        let cut = json::parse(&cap_json(&value, 2000).unwrap()).unwrap();
        assert_eq!(cut["total_count"], crate::json!(50));
        let items = cut["items"].as_array().unwrap_or_else(|| panic!("{}", cut));
        let kept = items.len() - 1;
        assert!(kept >= 5, "{}", kept);
        assert_eq!(items[0], value["items"][0]);
        let marker = items[kept].as_str().unwrap_or_else(|| panic!("{}", cut));
        let rest: Vec<Json> = value["items"].as_array().unwrap()[kept..].to_vec();
        let bytes = Json::from(rest.clone()).to_string().len() - 2;
        assert_eq!(
            marker,
            format!("[truncated: {} more items, {} bytes]", rest.len(), bytes)
        );
    }

    #[test]
    fn objects_keep_their_first_members() {
        let mut map = Map::new();
        for i in 0..100 {
            map.insert(format!("key{}", i), "v".repeat(20));
        }
        let cut = json::parse(&cap_json(&Json::Object(map), 500).unwrap()).unwrap();
        let members = cut.as_object().unwrap();
        assert_eq!(members.keys().next().map(String::as_str), Some("key0"));
        let note = members.get(TRUNCATED_KEY).and_then(Json::as_str).unwrap();
        assert!(note.ends_with(" bytes"), "{}", note);
        assert!(note.starts_with(&format!("{} more members, ", 100 - (members.len() - 1))));
    }

    /// A value of random shape whose strings and keys need escaping (`"`, `\\`, controls,
    /// non-ASCII), from the seeded test generator.
    fn random_value(rng: &mut Rng, depth: usize) -> Json {
        let pick = rng.next() % if depth > 4 { 3 } else { 6 };
        let text = |n: u64| -> String {
            ["a", "\"", "\\", "\n", "é", "\u{1}", "word "]
                .iter()
                .cycle()
                .skip((n % 7) as usize)
                .take((n % 23) as usize)
                .copied()
                .collect()
        };
        match pick {
            0 => Json::from(rng.next() as i64),
            1 => Json::from(text(rng.next())),
            2 => Json::Null,
            3 | 4 => {
                let n = rng.next() % 12;
                Json::from(
                    (0..n)
                        .map(|_| random_value(rng, depth + 1))
                        .collect::<Vec<_>>(),
                )
            }
            _ => {
                let n = rng.next() % 12;
                let mut map = Map::new();
                for i in 0..n {
                    let key = format!("{}{}", text(rng.next()), i);
                    map.insert(key, random_value(rng, depth + 1));
                }
                Json::Object(map)
            }
        }
    }

    #[test]
    fn random_values_cut_to_valid_json_within_every_cap() {
        let mut rng = Rng::new(1);
        for _ in 0..150 {
            let value = random_value(&mut rng, 0);
            let whole = value.to_string().len();
            for cap in [100, 101, 150, 257, 600, 2048] {
                match cap_json(&value, cap) {
                    Some(cut) => {
                        assert!(cut.len() <= cap, "{} > {}: {}", cut.len(), cap, cut);
                        json::parse(&cut).unwrap_or_else(|e| panic!("{}: {}", e, cut));
                    }
                    None => assert!(whole <= cap || !(value.is_array() || value.is_object())),
                }
            }
        }
    }

    #[test]
    fn deep_nesting_is_cut_without_overflow() {
        let mut value = Json::from(vec![Json::from("x".repeat(50)); 40]);
        for _ in 0..120 {
            value = Json::from(vec![value]);
        }
        for max in [100, 1000, 5000] {
            if let Some(cut) = cap_json(&value, max) {
                assert!(cut.len() <= max);
                assert!(json::parse(&cut).is_ok());
            }
        }
    }
}
