//! "Did you mean ...?": the closest accepted name to one a model got wrong.
//!
//! The registry uses it for unknown tools and the plugin layer for unknown parameters, so a
//! model reads the same kind of hint in both places.

use std::fmt::Write;

/// How many accepted names [`unknown_name_message`] lists before it says how many it left out.
pub const MAX_LISTED_NAMES: usize = 20;

/// Names longer than this (in chars) get no suggestion: no accepted name is that long, and the
/// distance costs time proportional to the product of the two lengths.
const MAX_COMPARED_CHARS: usize = 128;

/// Returns the candidate closest to `target`, or `None` when none is close enough.
///
/// Closeness is the optimal-string-alignment distance (Levenshtein plus transposition of two
/// adjacent characters), ignoring ASCII case. A candidate qualifies when its distance is at
/// most a third of the longer of the two names (rounded down), so `ctiy` finds `city`
/// (distance 1) but `xy` finds nothing in `city`. On a tie the earliest candidate wins, so
/// the answer is deterministic.
///
/// # Examples
///
/// ```
/// use httptool::tool::closest;
///
/// assert_eq!(closest("get_wether", ["get_time", "get_weather"]), Some("get_weather"));
/// assert_eq!(closest("ctiy", ["city", "days"]), Some("city"));
/// assert_eq!(closest("zzz", ["city", "days"]), None);
/// ```
pub fn closest<'a, I>(target: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    // The generic loop stays this small: the work is in `Search`, compiled once rather than
    // once per iterator type (build cost, see `design::performance`).
    let mut search = Search::new(target)?;
    for candidate in candidates {
        if !search.offer(candidate) {
            break;
        }
    }
    search.best.map(|(_, name)| name)
}

/// The state of [`closest`] between candidates.
struct Search<'a> {
    target: Vec<char>,
    best: Option<(usize, &'a str)>,
    candidate_chars: Vec<char>,
    rows: Rows,
}

impl<'a> Search<'a> {
    /// `None` when `target` can have no suggestion.
    fn new(target: &str) -> Option<Search<'a>> {
        let target: Vec<char> = target.chars().map(|c| c.to_ascii_lowercase()).collect();
        if target.is_empty() || target.len() > MAX_COMPARED_CHARS {
            return None;
        }
        Some(Search {
            target,
            best: None,
            candidate_chars: Vec::new(),
            rows: Rows::default(),
        })
    }

    /// Compares one candidate; `false` when no later candidate can win (an exact match).
    fn offer(&mut self, candidate: &'a str) -> bool {
        let target = &self.target;
        let candidate_len = if candidate.is_ascii() {
            candidate.len()
        } else {
            candidate.chars().count()
        };
        let limit = target.len().max(candidate_len) / 3;
        // Only a strictly smaller distance can replace the best so far: ties keep the first.
        let limit = match self.best {
            Some((0, _)) => return false,
            Some((best_distance, _)) => limit.min(best_distance - 1),
            None => limit,
        };
        // A length difference is a lower bound of the distance: skip without computing it.
        if target.len().abs_diff(candidate_len) > limit {
            return true;
        }
        self.candidate_chars.clear();
        self.candidate_chars
            .extend(candidate.chars().map(|c| c.to_ascii_lowercase()));
        if let Some(distance) = osa_distance(target, &self.candidate_chars, limit, &mut self.rows) {
            self.best = Some((distance, candidate));
        }
        true
    }
}

/// The message for a name that is not accepted, with a suggestion and the accepted names.
///
/// `what` names the kind of thing (`"tool"`, `"parameter"`). The message quotes at most 64
/// characters of `name` with control characters escaped, and lists at most
/// [`MAX_LISTED_NAMES`] accepted names, in the order given.
///
/// # Examples
///
/// ```
/// use httptool::tool::unknown_name_message;
///
/// assert_eq!(
///     unknown_name_message("parameter", "ctiy", ["city", "days"]),
///     "unknown parameter 'ctiy'; did you mean 'city'? accepted: city, days"
/// );
/// ```
pub fn unknown_name_message<'a, I>(what: &str, name: &str, accepted: I) -> String
where
    I: IntoIterator<Item = &'a str>,
    I::IntoIter: Clone,
{
    let accepted = accepted.into_iter();
    let mut message = message_head(what, name, closest(name, accepted.clone()));
    let mut count = 0usize;
    for accepted_name in accepted {
        list_name(&mut message, count, accepted_name);
        count += 1;
    }
    end_list(&mut message, count);
    message
}

// The non-generic parts of `unknown_name_message`, compiled once (build cost, see
// `design::performance`).

fn message_head(what: &str, name: &str, suggestion: Option<&str>) -> String {
    let mut message = format!("unknown {} {}", what, quote(name));
    if let Some(suggestion) = suggestion {
        let _ = write!(message, "; did you mean {}?", quote(suggestion));
    } else {
        message.push(';');
    }
    message.push_str(" accepted: ");
    message
}

/// Adds the `index`th accepted name, if the list has room for it.
fn list_name(message: &mut String, index: usize, name: &str) {
    if index < MAX_LISTED_NAMES {
        if index > 0 {
            message.push_str(", ");
        }
        message.push_str(name);
    }
}

fn end_list(message: &mut String, count: usize) {
    if count == 0 {
        message.push_str("none");
    } else if count > MAX_LISTED_NAMES {
        let _ = write!(message, " (and {} more)", count - MAX_LISTED_NAMES);
    }
}

/// Quotes a name for an error message (the crate's one rule, `crate::quote`).
pub(crate) use crate::quote::quote;

/// The three rows of the distance table, kept between candidates so comparing against many
/// names does not allocate for each.
#[derive(Default)]
struct Rows {
    two_back: Vec<usize>,
    previous: Vec<usize>,
    current: Vec<usize>,
}

/// Optimal string alignment distance: insertions, deletions, substitutions and transpositions
/// of adjacent characters, each costing one (a transposed pair is not edited again).
///
/// Returns `None` as soon as the distance is sure to exceed `limit`.
fn osa_distance(a: &[char], b: &[char], limit: usize, rows: &mut Rows) -> Option<usize> {
    let Rows {
        two_back,
        previous,
        current,
    } = rows;
    two_back.clear();
    two_back.resize(b.len() + 1, 0);
    previous.clear();
    previous.extend(0..=b.len());
    current.clear();
    current.resize(b.len() + 1, 0);
    let mut previous_min = 0;
    for (i, &ca) in a.iter().enumerate() {
        current[0] = i + 1;
        let mut row_min = current[0];
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            let mut best = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
            if i > 0 && j > 0 && a[i - 1] == cb && ca == b[j - 1] {
                best = best.min(two_back[j - 1] + 1);
            }
            current[j + 1] = best;
            row_min = row_min.min(best);
        }
        // Every later cell is at least the smallest of this row or the one before (a
        // transposition reaches back two rows), so stop once both exceed the limit.
        if row_min > limit && previous_min > limit {
            return None;
        }
        previous_min = row_min;
        std::mem::swap(two_back, previous);
        std::mem::swap(previous, current);
    }
    let distance = previous[b.len()];
    if distance <= limit {
        Some(distance)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        osa_distance(&a, &b, usize::MAX, &mut Rows::default()).unwrap()
    }

    macro_rules! distance_cases {
        ($($name:ident: $a:expr, $b:expr => $expected:expr;)*) => {$(
            #[test]
            fn $name() {
                assert_eq!(distance($a, $b), $expected);
                assert_eq!(distance($b, $a), $expected, "distance is symmetric");
            }
        )*};
    }

    distance_cases! {
        distance_equal: "city", "city" => 0;
        distance_empty_to_word: "", "days" => 4;
        distance_one_substitution: "get_wexther", "get_weather" => 1;
        distance_one_insertion: "get_wether", "get_weather" => 1;
        distance_transposition_counts_once: "ctiy", "city" => 1;
        distance_two_transpositions: "ab_cd", "ba_dc" => 2;
        distance_non_ascii_counts_chars: "straße", "strasse" => 2;
        distance_completely_different: "abc", "xyz" => 3;
    }

    macro_rules! closest_cases {
        ($($name:ident: $target:expr, $candidates:expr => $expected:expr;)*) => {$(
            #[test]
            fn $name() {
                let candidates: &[&str] = &$candidates;
                assert_eq!(closest($target, candidates.iter().copied()), $expected);
            }
        )*};
    }

    closest_cases! {
        closest_typo: "get_wether", ["get_time", "get_weather"] => Some("get_weather");
        closest_transposed: "ctiy", ["city", "days"] => Some("city");
        closest_case_only_difference: "GETWEATHER", ["getWeather"] => Some("getWeather");
        closest_too_far: "zzz", ["city", "days"] => None;
        closest_short_names_need_case_match: "dy", ["days"] => None;
        closest_tie_keeps_first: "cat", ["bat", "hat"] => Some("bat");
        closest_prefers_smaller_distance: "get_weathr", ["get_weathers", "get_weather"] => Some("get_weather");
        closest_non_ascii_candidate: "strase", ["straße"] => Some("straße");
        closest_no_candidates: "city", [] => None;
        closest_empty_target: "", ["a"] => None;
    }

    #[test]
    fn distance_stops_early_past_the_limit() {
        let a: Vec<char> = "abcdefgh".chars().collect();
        let b: Vec<char> = "zyxwvuts".chars().collect();
        assert_eq!(osa_distance(&a, &b, 2, &mut Rows::default()), None);
        assert_eq!(osa_distance(&a, &a, 0, &mut Rows::default()), Some(0));
        let c: Vec<char> = "abdcefgh".chars().collect();
        assert_eq!(osa_distance(&a, &c, 1, &mut Rows::default()), Some(1));
    }

    #[test]
    fn closest_skips_overlong_target() {
        let long = "a".repeat(MAX_COMPARED_CHARS + 1);
        assert_eq!(closest(&long, [long.as_str()]), None);
    }

    #[test]
    fn message_with_suggestion_and_list() {
        assert_eq!(
            unknown_name_message("parameter", "ctiy", ["city", "days"]),
            "unknown parameter 'ctiy'; did you mean 'city'? accepted: city, days"
        );
    }

    #[test]
    fn message_without_suggestion() {
        assert_eq!(
            unknown_name_message("tool", "zzz", ["get_weather"]),
            "unknown tool 'zzz'; accepted: get_weather"
        );
    }

    #[test]
    fn message_with_nothing_accepted() {
        assert_eq!(
            unknown_name_message("parameter", "x", []),
            "unknown parameter 'x'; accepted: none"
        );
    }

    #[test]
    fn message_lists_at_most_the_cap() {
        let names: Vec<String> = (0..25).map(|i| format!("tool_{:02}", i)).collect();
        let message = unknown_name_message("tool", "zzzzzzzz", names.iter().map(|s| s.as_str()));
        assert!(message.ends_with("tool_19 (and 5 more)"), "{}", message);
        assert!(!message.contains("tool_20"));
    }
}
