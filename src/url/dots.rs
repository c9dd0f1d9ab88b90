//! Dot segments, the one place that knows them: RFC 3986's `.` and `..` as this crate's URL
//! parser and resolver remove them (`%2e` counted as a dot), and the wider question of
//! whether a value placed in one path segment could be read as a `.` or `..` segment by a
//! server, after decoding, splitting, trimming or normalising it the way some servers do.
//! The first keeps a parsed URL canonical; the second is path security, for values that
//! come from outside ([`reads_as_dot_segment`]).

use super::percent_decode;

/// How many times a value is percent-decoded at most. Servers that decode twice exist; no
/// real identifier is encoded this many times, so a value still changing after that is
/// refused rather than decoded further (which keeps the check linear in the value).
const MAX_DECODE_ROUNDS: usize = 16;

/// Whether `value`, sent as one path segment, could be read as a `.` or `..` segment (and
/// so walk up the server's path) by some server on the way. It is refused when, after
/// percent-decoding repeatedly (up to 16 times; a value still changing after that counts
/// as refused) and splitting on `/` and `\` (servers that decode `%2F` or read `\` as `/`),
/// any segment reads as `.` or `..` once:
///
/// - overlong UTF-8 forms of ASCII characters (`%c0%ae`, which RFC 3629 section 10 forbids
///   and lenient decoders accept) are read as those characters;
/// - it is cut at a `;` (a path parameter: Tomcat reads `..;x` as `..`) or a NUL (where C
///   code stops reading);
/// - it is trimmed at both ends of ASCII whitespace and control characters, Unicode
///   whitespace (`char::is_whitespace`) and the zero-width characters U+200B, U+200C,
///   U+200D, U+2060 and U+FEFF (servers that trim segments read `.. ` as `..`);
/// - the characters whose NFKC form (Unicode Standard Annex 15) holds only full stops are
///   read as that form (servers that normalise segments, IIS and some Java stacks, read
///   `．．` as `..`). These are all of them, in Unicode 14:
///
///   | character | NFKC |
///   | --- | --- |
///   | U+2024 ONE DOT LEADER `․` | `.` |
///   | U+2025 TWO DOT LEADER `‥` | `..` |
///   | U+2026 HORIZONTAL ELLIPSIS `…` | `...` |
///   | U+FE19 PRESENTATION FORM FOR VERTICAL HORIZONTAL ELLIPSIS `︙` | `...` |
///   | U+FE30 PRESENTATION FORM FOR VERTICAL TWO DOT LEADER `︰` | `..` |
///   | U+FE52 SMALL FULL STOP `﹒` | `.` |
///   | U+FF0E FULLWIDTH FULL STOP `．` | `.` |
///
///   U+3002 IDEOGRAPHIC FULL STOP `。` (and U+FF61, whose NFKC form it is) is not among them:
///   NFKC keeps it, and it is a Japanese or Chinese sentence's ordinary end. Only IDNA maps
///   it to `.`, in host names, not paths.
///
/// Names that merely contain dots pass: `...`, `.hidden`, `a..b`, `v1.2`, `report.pdf`.
///
/// # Security
///
/// This is the [path values](crate::design::endpoints#path-values) rule for values a model
/// places into a declared path: a server
/// that routes after decoding, trimming or normalising must not be walked up the tree.
/// Encoding the value as one segment (`a/b` as `a%2Fb`) is the other half.
///
/// # Examples
///
/// ```
/// use httptool::url::reads_as_dot_segment;
///
/// for refused in ["..", "%2e%2e", "..%2fadmin", ".. ", "..%20", "．．", "‥", "%2525252e"] {
///     assert!(reads_as_dot_segment(refused), "{:?}", refused);
/// }
/// for name in ["...", ".hidden", "a..b", "v1.2", "。"] {
///     assert!(!reads_as_dot_segment(name), "{:?}", name);
/// }
/// ```
pub fn reads_as_dot_segment(value: &str) -> bool {
    if has_dots(value.as_bytes()) {
        return true;
    }
    if !value.as_bytes().contains(&b'%') {
        return false;
    }
    let mut current = value.as_bytes().to_vec();
    for _ in 0..MAX_DECODE_ROUNDS {
        let decoded = percent_decode(&String::from_utf8_lossy(&current));
        if decoded == current {
            return false;
        }
        if has_dots(&decoded) {
            return true;
        }
        current = decoded;
    }
    // Still decoding after that many rounds: no identifier looks like this.
    true
}

/// Why a value cannot be sent as one path segment ([`segment_problem`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SegmentProblem {
    /// The value is empty: `/files//meta` names another resource than `/files/{id}/meta`.
    Empty,
    /// Some server could read the value as `.` or `..` ([`reads_as_dot_segment`]).
    DotSegment,
}

/// The one rule for a value placed into a path as one whole segment: not empty, and not
/// readable as a dot segment. A plugin's path values (when a call is built) and its path
/// defaults (when the plugin is built) both ask here, so a default that builds is a value
/// a call sends ([path values](crate::design::endpoints#path-values)).
pub(crate) fn segment_problem(value: &str) -> Option<SegmentProblem> {
    if value.is_empty() {
        Some(SegmentProblem::Empty)
    } else if reads_as_dot_segment(value) {
        Some(SegmentProblem::DotSegment)
    } else {
        None
    }
}

// The functions below loop rather than pass closures to `any`, `split`, `position` or
// `trim_matches`: each closure compiled its own copy of the iterator code (build cost, see
// `design::performance`).

fn has_dots(bytes: &[u8]) -> bool {
    let folded;
    let bytes = if has_byte_from(bytes, 0xc0) {
        folded = fold_overlong_ascii(bytes);
        &folded[..]
    } else {
        bytes
    };
    let mut segment_start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'/' || b == b'\\' {
            if is_dot_segment(bytes.get(segment_start..i).unwrap_or_default()) {
                return true;
            }
            segment_start = i + 1;
        }
    }
    is_dot_segment(bytes.get(segment_start..).unwrap_or_default())
}

/// Whether a byte of `bytes` is `min` or above.
fn has_byte_from(bytes: &[u8], min: u8) -> bool {
    for &b in bytes {
        if b >= min {
            return true;
        }
    }
    false
}

/// `.` or `..`, read up to a `;` or a NUL, trimmed, with the NFKC full-stop forms mapped.
fn is_dot_segment(segment: &[u8]) -> bool {
    let mut end = segment.len();
    for (i, &b) in segment.iter().enumerate() {
        if b == b';' || b == 0 {
            end = i;
            break;
        }
    }
    let segment = segment.get(..end).unwrap_or_default();
    if segment.is_ascii() {
        let trimmed = trim_ascii(segment);
        return matches!(trimmed, b"." | b"..");
    }
    let text = String::from_utf8_lossy(segment);
    let trimmed = trim_unicode(&text);
    let mut dots = 0usize;
    for c in trimmed.chars() {
        dots += match nfkc_full_stops(c) {
            Some(n) => n,
            None => return false,
        };
        if dots > 2 {
            return false;
        }
    }
    dots == 1 || dots == 2
}

/// ASCII whitespace and control characters off both ends.
fn trim_ascii(bytes: &[u8]) -> &[u8] {
    let trimmed = |b: u8| b.is_ascii_whitespace() || b.is_ascii_control();
    let mut rest = bytes;
    while let Some((&first, after)) = rest.split_first() {
        if !trimmed(first) {
            break;
        }
        rest = after;
    }
    while let Some((&last, before)) = rest.split_last() {
        if !trimmed(last) {
            break;
        }
        rest = before;
    }
    rest
}

/// [`is_trimmed`] characters off both ends.
fn trim_unicode(text: &str) -> &str {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if !is_trimmed(c) {
            break;
        }
        rest = rest.get(c.len_utf8()..).unwrap_or_default();
    }
    while let Some(c) = rest.chars().next_back() {
        if !is_trimmed(c) {
            break;
        }
        rest = rest.get(..rest.len() - c.len_utf8()).unwrap_or_default();
    }
    rest
}

/// What servers that trim segments take off: whitespace, controls, zero-width characters.
fn is_trimmed(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}'
        )
}

/// How many full stops `c` is under NFKC, for the characters whose NFKC form holds only
/// full stops (the table on [`reads_as_dot_segment`]); `None` for every other character.
fn nfkc_full_stops(c: char) -> Option<usize> {
    match c {
        '.' | '\u{2024}' | '\u{FE52}' | '\u{FF0E}' => Some(1),
        '\u{2025}' | '\u{FE30}' => Some(2),
        '\u{2026}' | '\u{FE19}' => Some(3),
        _ => None,
    }
}

/// `bytes` with every overlong UTF-8 form of an ASCII character (2, 3 or 4 bytes, which RFC
/// 3629 section 10 forbids and lenient decoders still accept) replaced by that character.
fn fold_overlong_ascii(bytes: &[u8]) -> Vec<u8> {
    let continuation = |b: &u8| matches!(b, 0x80..=0xbf);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let (ascii, len) = match bytes[i..] {
            [0xc0 | 0xc1, c, ..] if continuation(&c) => (((b & 1) << 6) | (c & 0x3f), 2),
            [0xe0, h @ (0x80 | 0x81), c, ..] if continuation(&c) => {
                (((h & 1) << 6) | (c & 0x3f), 3)
            }
            [0xf0, 0x80, h @ (0x80 | 0x81), c, ..] if continuation(&c) => {
                (((h & 1) << 6) | (c & 0x3f), 4)
            }
            _ => (b, 1),
        };
        out.push(ascii);
        i += len;
    }
    out
}

/// Strips one leading dot, written `.` or `%2e` (any case).
fn strip_dot(segment: &str) -> Option<&str> {
    if let Some(rest) = segment.strip_prefix('.') {
        return Some(rest);
    }
    let head = segment.get(..3)?;
    head.eq_ignore_ascii_case("%2e").then(|| &segment[3..])
}

fn is_dot(segment: &str) -> bool {
    strip_dot(segment) == Some("")
}

fn is_dot_dot(segment: &str) -> bool {
    strip_dot(segment).map_or(false, is_dot)
}

pub(crate) fn has_dot_segment(path: &str) -> bool {
    for segment in path.split('/') {
        if is_dot(segment) || is_dot_dot(segment) {
            return true;
        }
    }
    false
}

/// RFC 3986 section 5.2.4, on a path that starts with `/`: `.` segments go, `..` removes the
/// segment before it, and a path that ends in a dot segment keeps its trailing `/`.
pub(crate) fn remove_dot_segments(path: &str) -> String {
    let mut segments: Vec<&str> = Vec::new();
    let mut parts = path.strip_prefix('/').unwrap_or(path).split('/').peekable();
    while let Some(seg) = parts.next() {
        let last = parts.peek().is_none();
        if is_dot(seg) || is_dot_dot(seg) {
            if is_dot_dot(seg) {
                segments.pop();
            }
            if last {
                segments.push("");
            }
            continue;
        }
        segments.push(seg);
    }
    let mut out = String::with_capacity(path.len());
    for seg in &segments {
        out.push('/');
        out.push_str(seg);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_problem_is_empty_or_dots_or_none() {
        assert_eq!(segment_problem(""), Some(SegmentProblem::Empty));
        for dots in [".", "..", "%2e%2E", "a/../b", "..;x"] {
            assert_eq!(
                segment_problem(dots),
                Some(SegmentProblem::DotSegment),
                "{}",
                dots
            );
        }
        for name in ["...", "a..b", " ", "%2e%2e%2e"] {
            assert_eq!(segment_problem(name), None, "{}", name);
        }
    }

    #[test]
    fn dot_segments() {
        let cases = [
            ("/a/b/c/./../../g", "/a/g"),
            ("/mid/content=5/../6", "/mid/6"),
            ("/a/b/..", "/a/"),
            ("/a/b/.", "/a/b/"),
            ("/..", "/"),
            ("/../..", "/"),
            ("/a/%2e%2E/b", "/b"),
            ("/a/.%2e/b", "/b"),
            ("/a/%2e/b", "/a/b"),
            ("/a/..b/c", "/a/..b/c"),
            ("/a//b", "/a//b"),
        ];
        for (input, want) in cases {
            assert_eq!(remove_dot_segments(input), want, "{input}");
        }
    }

    #[test]
    fn dot_dot_detection() {
        for yes in ["..", ".%2e", "%2e.", "%2E%2e"] {
            assert!(is_dot_dot(yes), "{yes}");
        }
        for no in ["...", ".e", "e.", "%2e", "%2f.", "..%2e", "ee"] {
            assert!(!is_dot_dot(no), "{no}");
        }
    }

    macro_rules! dot_cases {
        ($($name:ident: $value:expr => $refused:expr;)*) => {$(
            #[test]
            fn $name() {
                assert_eq!(reads_as_dot_segment($value), $refused, "{:?}", $value);
            }
        )*};
    }

    dot_cases! {
        dots_two: ".." => true;
        dots_one: "." => true;
        dots_parent_then_name: "../admin" => true;
        dots_encoded: "%2e%2e" => true;
        dots_encoded_upper: "%2E%2E" => true;
        dots_mixed: ".%2e" => true;
        dots_encoded_slashes: "..%2f..%2fadmin" => true;
        dots_backslash: "..\\admin" => true;
        dots_encoded_backslash: "..%5cadmin" => true;
        dots_double_encoded: "%252e%252e" => true;
        dots_four_times_encoded: "%2525252e" => true;
        dots_inside: "a/../b" => true;
        dots_trailing: "a/." => true;
        dots_overlong_utf8: "%c0%ae%c0%ae" => true;
        dots_overlong_utf8_upper: "%C0%AE." => true;
        dots_overlong_three_bytes: "%e0%80%ae%e0%80%ae" => true;
        dots_overlong_four_bytes: "%f0%80%80%ae." => true;
        dots_overlong_slash: "..%c0%afadmin" => true;
        dots_overlong_backslash: "..%c1%9cadmin" => true;
        dots_double_encoded_overlong: "%25c0%25ae%25c0%25ae" => true;
        dots_path_parameter: "..;jsessionid=1" => true;
        dots_encoded_path_parameter: "..%3Bx" => true;
        dots_path_parameter_after_slash: "a/..;/b" => true;
        dots_nul: "..%00" => true;
        dots_trailing_space: ".. " => true;
        dots_trailing_tab: "..\t" => true;
        dots_leading_space: " .." => true;
        dots_encoded_space: "..%20" => true;
        dots_encoded_tab_after_slash: "a/..%09/b" => true;
        dots_space_before_parameter: ".. ;x" => true;
        dots_no_break_space: "..\u{a0}" => true;
        dots_ideographic_space: "\u{3000}.." => true;
        dots_zero_width_space: "..\u{200b}" => true;
        dots_byte_order_mark: "\u{feff}." => true;
        dots_fullwidth_two: "\u{ff0e}\u{ff0e}" => true;
        dots_fullwidth_one: "\u{ff0e}" => true;
        dots_fullwidth_and_ascii: "\u{ff0e}." => true;
        dots_fullwidth_encoded: "%EF%BC%8E%EF%BC%8E" => true;
        dots_one_dot_leader_pair: "\u{2024}\u{2024}" => true;
        dots_two_dot_leader: "\u{2025}" => true;
        dots_vertical_two_dot_leader: "\u{fe30}" => true;
        dots_small_full_stop: "\u{fe52}." => true;
        dots_two_dot_leader_then_admin: "\u{2025}/admin" => true;
        dots_encoded_too_many_times: "%25252525252525252525252525252525252e" => true;
        dots_three_is_a_name: "..." => false;
        dots_ellipsis_is_three: "\u{2026}" => false;
        dots_vertical_ellipsis_is_three: "\u{fe19}" => false;
        dots_two_dot_leader_and_dot_is_three: "\u{2025}." => false;
        dots_ideographic_full_stop_is_a_name: "\u{3002}\u{3002}" => false;
        dots_halfwidth_ideographic_full_stop_is_a_name: "\u{ff61}" => false;
        dots_hidden_file: ".hidden" => false;
        dots_between_letters: "a..b" => false;
        dots_version: "v1.2" => false;
        dots_spaced_inside: ". ." => false;
        dots_parameter_of_a_name: "a;.." => false;
        dots_lone_parameter: ";x" => false;
        dots_valid_utf8_is_a_name: "%c3%a9" => false;
        dots_overlong_letter_is_a_name: "%c1%81%c1%81" => false;
        dots_in_a_name: "v1.2..3" => false;
        dots_plain_name: "report.pdf" => false;
        dots_slash_name: "a/b" => false;
        dots_percent_text: "100%" => false;
        dots_only_spaces: "  " => false;
    }
}
