//! What a search gives the model: a hit, its one-line summary, and how many hits one search
//! returns. The catalog and its three tools both use these.

use crate::json::{Json, Map};
use crate::tool::spec::ToolSpec;

/// The operations `search_operations` returns when the model gives no `limit`. Defaults to
/// 10.
pub const DEFAULT_SEARCH_LIMIT: usize = 10;

/// The most operations one `search_operations` call returns, whatever `limit` the model
/// asks for: 50.
pub const MAX_SEARCH_LIMIT: usize = 50;

/// The longest one-line summary a search result carries, in characters.
const MAX_SUMMARY_CHARS: usize = 120;

/// One operation `search_operations` found: what the model reads about it.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchHit {
    /// The tool name, to pass to `describe_operation` and `call_operation`.
    pub name: String,
    /// The HTTP method, for an HTTP operation.
    pub method: Option<String>,
    /// The path template, for an HTTP operation.
    pub path: Option<String>,
    /// One line: the tool's title, else the first sentence of its description.
    pub summary: String,
    /// The ranker's score: higher is better; only the order means anything.
    pub score: f64,
}

impl SearchHit {
    /// The hit as the model reads it: `name`, `method`, `path` (those two left out for a
    /// tool that is not an HTTP operation) and `summary`.
    pub fn to_json(&self) -> Json {
        let mut map = Map::with_capacity(4);
        map.insert("name", self.name.as_str());
        if let Some(method) = &self.method {
            map.insert("method", method.as_str());
        }
        if let Some(path) = &self.path {
            map.insert("path", path.as_str());
        }
        map.insert("summary", self.summary.as_str());
        Json::Object(map)
    }
}

/// The one-line summary of a spec: its title, else its description up to the end of the
/// first sentence or line, capped at [`MAX_SUMMARY_CHARS`].
pub(super) fn summary(spec: &ToolSpec) -> String {
    if let Some(title) = spec.title() {
        if !title.trim().is_empty() {
            return cap_chars(title.trim(), MAX_SUMMARY_CHARS);
        }
    }
    let text = spec.description().trim();
    let line = text.lines().next().unwrap_or("");
    let sentence = match crate::tool::plain::first_sentence_end(line) {
        Some(end) => line.get(..end).unwrap_or(line),
        None => line,
    };
    cap_chars(sentence.trim(), MAX_SUMMARY_CHARS)
}

fn cap_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((end, _)) => {
            let keep = text.get(..end).unwrap_or("");
            let mut out: String = keep
                .char_indices()
                .nth(max.saturating_sub(3))
                .and_then(|(at, _)| keep.get(..at))
                .unwrap_or(keep)
                .trim_end()
                .to_string();
            out.push_str("...");
            out
        }
    }
}
