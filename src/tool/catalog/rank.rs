//! The catalog's ranker: BM25F over words of a few weighted fields (pure).
//!
//! Each operation is one document made of fields, each with a weight:
//!
//! | field | weight |
//! | --- | --- |
//! | name (split on `_`, `-`, `/`, `.` and camelCase) | 3.0 |
//! | summary (the title, else the description's first sentence) | 2.5 |
//! | tags | 2.0 |
//! | path template (split as names; `{placeholders}` count as parameters) | 1.5 |
//! | description | 1.0 |
//! | parameter names | 0.5 |
//!
//! Words are lower-cased, stop words ("the", "of", "me", ...) dropped, light stemming applied
//! (plural and `-ing`/`-ed` endings, a final `e`), and a short table maps common verbs onto
//! one word each (`show`, `fetch`, `read` and `retrieve` are `get`; `remove` is `delete`;
//! ...), on both sides. The score is BM25F (Robertson and Zaragoza, "The Probabilistic
//! Relevance Framework: BM25 and Beyond", 2009, section 3.6): weighted term frequencies
//! summed across fields, one length normalisation over the weighted length, k1 = 1.2,
//! b = 0.75, and the idf `ln(1 + (N - df + 0.5) / (df + 0.5))`. A query word of at least
//! three letters also matches the indexed words it is a prefix of (`repo` finds
//! `repository`), at 0.6 of their score, the best variant counting once per document.
//!
//! Cost: the index is built once, in time linear in the text indexed; a query touches only
//! the postings of its words (and of the words its prefixes match), so it is linear in the
//! index size at worst. Ties keep the registry's order, so results never change from run
//! to run.

use std::collections::{BTreeMap, HashMap, HashSet};

const WEIGHT_NAME: f64 = 3.0;
const WEIGHT_SUMMARY: f64 = 2.5;
const WEIGHT_TAGS: f64 = 2.0;
const WEIGHT_PATH: f64 = 1.5;
const WEIGHT_DESCRIPTION: f64 = 1.0;
const WEIGHT_PARAMS: f64 = 0.5;

const K1: f64 = 1.2;
const B: f64 = 0.75;
/// What a prefix match is worth against an exact one.
const PREFIX_FACTOR: f64 = 0.6;
/// The shortest query word that also matches as a prefix.
const MIN_PREFIX_LEN: usize = 3;
/// The most words one query is read for: a query is a few words, not a document.
const MAX_QUERY_WORDS: usize = 32;

/// Words that carry no meaning in a request for an operation.
const STOP_WORDS: &[&str] = &[
    "a", "about", "an", "and", "any", "are", "as", "at", "be", "by", "can", "could", "do", "does",
    "for", "from", "give", "have", "how", "i", "if", "in", "into", "is", "it", "its", "let", "me",
    "my", "of", "on", "one", "or", "our", "please", "so", "some", "that", "the", "their", "them",
    "there", "these", "this", "those", "to", "us", "using", "via", "want", "we", "what", "which",
    "who", "whose", "will", "with", "would", "you", "your",
];

/// Verbs people use for the same action, each mapped onto the word APIs use most. Applied to
/// stemmed words, on both sides.
const VERBS: &[(&str, &str)] = &[
    ("show", "get"),
    ("fetch", "get"),
    ("retriev", "get"),
    ("read", "get"),
    ("view", "get"),
    ("see", "get"),
    ("look", "get"),
    ("display", "get"),
    ("remov", "delet"),
    ("eras", "delet"),
    ("destroy", "delet"),
    ("kill", "delet"),
    ("terminat", "delet"),
    ("drop", "delet"),
    ("add", "creat"),
    ("make", "creat"),
    ("new", "creat"),
    ("modify", "updat"),
    ("chang", "updat"),
    ("edit", "updat"),
    ("find", "search"),
    ("lookup", "search"),
    ("enumerat", "list"),
];

/// What one operation is indexed by.
pub(crate) struct Fields<'a> {
    pub name: &'a str,
    pub summary: &'a str,
    pub tags: &'a [String],
    pub path: &'a str,
    pub description: &'a str,
    pub params: Vec<&'a str>,
}

/// The inverted index of every operation's words.
pub(crate) struct Index {
    /// Word to its id; ordered, so the words a prefix matches are one range.
    words: BTreeMap<String, usize>,
    /// For each word id: (document, weighted term frequency), documents ascending.
    postings: Vec<Vec<(usize, f64)>>,
    /// Each document's weighted length.
    lengths: Vec<f64>,
    average_length: f64,
}

impl Index {
    /// Indexes the documents, in order: a document's position is its id.
    pub fn new<'a, I>(documents: I) -> Index
    where
        I: IntoIterator<Item = Fields<'a>>,
    {
        let mut index = Index {
            words: BTreeMap::new(),
            postings: Vec::new(),
            lengths: Vec::new(),
            average_length: 0.0,
        };
        for fields in documents {
            index.add(&fields);
        }
        let total: f64 = index.lengths.iter().sum();
        index.average_length = if index.lengths.is_empty() {
            0.0
        } else {
            total / index.lengths.len() as f64
        };
        index
    }

    fn add(&mut self, fields: &Fields<'_>) {
        let doc = self.lengths.len();
        let mut counts: HashMap<String, f64> = HashMap::new();
        let mut length = 0.0;
        let mut count = |text: &str, weight: f64| {
            for word in words(text) {
                *counts.entry(word).or_insert(0.0) += weight;
                length += weight;
            }
        };
        count(fields.name, WEIGHT_NAME);
        count(fields.summary, WEIGHT_SUMMARY);
        for tag in fields.tags {
            count(tag, WEIGHT_TAGS);
        }
        count(fields.path, WEIGHT_PATH);
        count(fields.description, WEIGHT_DESCRIPTION);
        for param in &fields.params {
            count(param, WEIGHT_PARAMS);
        }
        // Sorted so the postings are built in the same order on every run.
        let mut counts: Vec<(String, f64)> = counts.into_iter().collect();
        counts.sort_by(|a, b| a.0.cmp(&b.0));
        for (word, tf) in counts {
            let next = self.postings.len();
            let id = *self.words.entry(word).or_insert(next);
            if id == next {
                self.postings.push(Vec::new());
            }
            if let Some(list) = self.postings.get_mut(id) {
                list.push((doc, tf));
            }
        }
        self.lengths.push(length);
    }

    /// The documents that match `query`, best first, with their scores; ties in document
    /// order. At most `limit`.
    pub fn search(&self, query: &str, limit: usize) -> Vec<(usize, f64)> {
        // The first distinct words, found with a set and no further than the cut: a query
        // of a million words costs its splitting, not a scan of the words before each one.
        let mut terms: Vec<String> = Vec::with_capacity(MAX_QUERY_WORDS);
        let mut seen: HashSet<String> = HashSet::new();
        for word in words(query) {
            if terms.len() == MAX_QUERY_WORDS {
                break;
            }
            if seen.insert(word.clone()) {
                terms.push(word);
            }
        }
        let mut scores: HashMap<usize, f64> = HashMap::new();
        for term in &terms {
            for (doc, score) in self.term_scores(term) {
                *scores.entry(doc).or_insert(0.0) += score;
            }
        }
        let mut ranked: Vec<(usize, f64)> = scores.into_iter().filter(|s| s.1 > 0.0).collect();
        // Best first, ties in document order: by document, then stably by score. Every score
        // kept is above zero, and positive floats order as their bits do.
        crate::sort::by_key(&mut ranked, |s| s.0 as u64);
        crate::sort::by_key(&mut ranked, |s| u64::MAX - s.1.to_bits());
        ranked.truncate(limit);
        ranked
    }

    /// One query word's score in each document it matches: exactly, or as a prefix of an
    /// indexed word at [`PREFIX_FACTOR`], the best variant once per document.
    fn term_scores(&self, term: &str) -> HashMap<usize, f64> {
        let mut best: HashMap<usize, f64> = HashMap::new();
        let mut take = |id: usize, factor: f64| {
            let list = match self.postings.get(id) {
                Some(list) => list,
                None => return,
            };
            let idf = self.idf(list.len());
            for &(doc, tf) in list {
                let score = factor * idf * self.saturate(doc, tf);
                let slot = best.entry(doc).or_insert(0.0);
                if score > *slot {
                    *slot = score;
                }
            }
        };
        if let Some(&id) = self.words.get(term) {
            take(id, 1.0);
        }
        if term.chars().count() >= MIN_PREFIX_LEN {
            let after = self
                .words
                .range::<str, _>((std::ops::Bound::Excluded(term), std::ops::Bound::Unbounded));
            for (word, &id) in after {
                if !word.starts_with(term) {
                    break;
                }
                take(id, PREFIX_FACTOR);
            }
        }
        best
    }

    fn idf(&self, df: usize) -> f64 {
        let n = self.lengths.len() as f64;
        let df = df as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// BM25's saturation of a weighted term frequency, normalised by the document's length.
    fn saturate(&self, doc: usize, tf: f64) -> f64 {
        let length = self.lengths.get(doc).copied().unwrap_or(0.0);
        let norm = if self.average_length > 0.0 {
            1.0 - B + B * length / self.average_length
        } else {
            1.0
        };
        tf * (K1 + 1.0) / (tf + K1 * norm)
    }
}

/// The indexed words of `text`: split into words, lower-cased, stop words dropped, stemmed,
/// verbs mapped.
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for raw in split(text) {
        let lower = raw.to_lowercase();
        if STOP_WORDS.contains(&lower.as_str()) {
            continue;
        }
        let stemmed = stem(&lower);
        let word = VERBS
            .iter()
            .find(|(from, _)| *from == stemmed)
            .map_or(stemmed, |(_, to)| (*to).to_string());
        out.push(word);
    }
    out
}

/// Splits on anything that is not a letter or digit, and inside words at camelCase
/// boundaries (`listPetsByOwner`: list, Pets, By, Owner; `HTTPServer`: HTTP, Server;
/// `CoreV1beta1Pod`: Core, V1beta1, Pod).
fn split(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for part in text.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<(usize, char)> = part.char_indices().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (at, c) = chars[i];
            let prev = chars[i - 1].1;
            let next_lower = chars.get(i + 1).map_or(false, |&(_, n)| n.is_lowercase());
            let boundary = ((prev.is_lowercase() || prev.is_ascii_digit()) && c.is_uppercase())
                || (prev.is_uppercase() && c.is_uppercase() && next_lower);
            if boundary {
                if let Some(word) = part.get(start..at) {
                    out.push(word);
                }
                start = at;
            }
        }
        if let Some(word) = part.get(start..) {
            if !word.is_empty() {
                out.push(word);
            }
        }
    }
    out
}

/// Light suffix stripping, so that plurals and verb forms meet: `repositories` and
/// `repository` are `repository`; `created`, `creating` and `create` are `creat`.
fn stem(word: &str) -> String {
    let ascii = word.is_ascii();
    if !ascii || word.len() < 4 {
        return word.to_string();
    }
    let mut w = word.to_string();
    if let Some(base) = w.strip_suffix("ies") {
        w = format!("{}y", base);
    } else if w.ends_with("sses")
        || w.ends_with("shes")
        || w.ends_with("ches")
        || w.ends_with("xes")
    {
        w.truncate(w.len() - 2);
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w.truncate(w.len() - 1);
    }
    for suffix in ["ing", "ed"] {
        if w.len() >= suffix.len() + 3 && w.ends_with(suffix) {
            w.truncate(w.len() - suffix.len());
            break;
        }
    }
    if w.len() > 3 && w.ends_with('e') {
        w.truncate(w.len() - 1);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! word_cases {
        ($($name:ident: $text:expr => $expected:expr;)*) => {$(
            #[test]
            fn $name() {
                assert_eq!(words($text), $expected as Vec<&str>);
            }
        )*};
    }

    word_cases! {
        words_camel_case: "listPetsByOwner" => vec!["list", "pet", "owner"];
        words_acronym: "readHTTPServer" => vec!["get", "http", "server"];
        words_version_kept_whole: "readCoreV1beta1NamespacedPod" => vec!["get", "cor", "v1beta1", "namespac", "pod"];
        words_snake_and_slash: "repos/list-for_user" => vec!["repo", "list", "user"];
        words_plural_y: "repositories" => vec!["repository"];
        words_verb_forms_meet: "create created creating" => vec!["creat", "creat", "creat"];
        words_stop_words: "show me the pods of my cluster" => vec!["get", "pod", "cluster"];
        words_status_kept: "status statuses" => vec!["status", "status"];
        words_non_ascii_kept: "Grüße" => vec!["grüße"];
        words_empty: "  /{}-- " => vec![];
    }

    fn doc<'a>(name: &'a str, summary: &'a str) -> Fields<'a> {
        Fields {
            name,
            summary,
            tags: &[],
            path: "",
            description: "",
            params: Vec::new(),
        }
    }

    #[test]
    fn best_match_first_and_ties_in_order() {
        let index = Index::new(vec![
            doc("listPets", "List pets"),
            doc("getPet", "Get a pet"),
            doc("deletePet", "Delete a pet"),
            doc("listOwners", "List owners"),
        ]);
        let hits = index.search("remove a pet", 10);
        assert_eq!(hits.first().map(|h| h.0), Some(2));
        // "pet" alone: the two single-word-summary documents tie on length; order decides.
        let hits: Vec<usize> = index.search("pets", 10).iter().map(|h| h.0).collect();
        assert_eq!(hits.len(), 3);
        assert!(!hits.contains(&3));
        assert!(index.search("zebra", 10).is_empty());
        assert!(index.search("", 10).is_empty());
    }

    #[test]
    fn prefix_matches_count_less_than_exact() {
        let index = Index::new(vec![
            doc("getRepository", "Get a repository"),
            doc("getRepo", "Get a repo"),
        ]);
        let hits = index.search("repo", 10);
        assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), vec![1, 0]);
        assert!(hits[0].1 > hits[1].1);
    }

    #[test]
    fn limit_is_kept() {
        let index = Index::new((0..20).map(|_| doc("same", "same")));
        let hits = index.search("same", 5);
        assert_eq!(
            hits.iter().map(|h| h.0).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 4]
        );
    }
}
