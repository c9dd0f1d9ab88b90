//! Descriptions as plain sentences for a model: the markup written for a documentation page
//! (Markdown links and strong emphasis, HTML line breaks and paragraphs) taken out, paragraph
//! breaks read as sentence ends, and a check for text that only repeats words said already
//! (a summary the description says again, a title its description and name say). Pure,
//! linear in the text.
//!
//! Markup costs bytes and says nothing a model needs: the target of a link is a page a tool
//! call cannot read (often a relative one, `/documentation/...`), while its text names the
//! thing; `**Note**` reads the same as `Note`; `<br/>` is a line break. Code spans (between
//! backticks) are copied as they are, since what is in them is often a literal value.

use std::borrow::Cow;

/// The longest link text and link target looked for, in bytes: past them the brackets are
/// left as they are (and the scan stays linear: each `[` looks ahead a bounded distance).
const MAX_LINK_TEXT: usize = 200;
const MAX_LINK_TARGET: usize = 1000;

/// HTML elements read as a break between words (replaced by a space) and as formatting only
/// (left out); any other `<...>` is text, such as a `<owner>/<repo>` placeholder.
const BLOCK_TAGS: [&str; 17] = [
    "br", "p", "div", "li", "ul", "ol", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr",
    "td", "th",
];
const INLINE_TAGS: [&str; 11] = [
    "b", "i", "em", "strong", "code", "span", "a", "u", "small", "sup", "sub",
];

/// The longest HTML tag looked for, in bytes (`<a href="...">` included).
const MAX_TAG: usize = 300;

/// `text` with Markdown links as their text (`[ISO 3166-1](https://...)` as `ISO 3166-1`,
/// images as their alternative text), `**strong**` as `strong`, the HTML tags of
/// [`BLOCK_TAGS`] as a space and those of [`INLINE_TAGS`] left out, and a paragraph break
/// (a blank line) after text that does not end a sentence read as one (`Get file\n\nReturns`
/// as `Get file.\n\nReturns`). Code spans are copied as they are. White space is not
/// collapsed here.
pub(crate) fn plain(text: &str) -> Cow<'_, str> {
    let marked = text
        .as_bytes()
        .windows(2)
        .any(|w| matches!(w, [b'[', _] | [b'<', _] | [b'*', b'*'] | [b'\n', _]));
    if !marked {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    plain_into(text, 0, false, usize::MAX, &mut out);
    Cow::Owned(out)
}

/// A prefix of [`plain`]`(text)` that holds at least its first `enough` bytes when the
/// whole is longer (less when white space ends the part made), and whether it is the whole:
/// only the part of the text that is needed is read, so a description cut to 160 bytes
/// costs as much as 160 bytes of it, not the whole.
///
/// Up to the first byte where markup can start (`[`, `!`, `*`, `<` or a line break), the
/// text is its own plain form. Past it, [`plain`]'s own loop runs until `enough` bytes are
/// made: it only appends, except that a paragraph break takes the white space before it
/// off (see [`end_sentence`]), so what was made up to its last other character stays as it
/// is, and the white space at the end is left out.
pub(crate) fn plain_prefix(text: &str, enough: usize) -> (Cow<'_, str>, bool) {
    let bytes = text.as_bytes();
    let scan = bytes.len().min(enough);
    let clean = bytes
        .get(..scan)
        .unwrap_or(bytes)
        .iter()
        .position(|&b| MARKUP_STARTS[usize::from(b)]);
    let start = match clean {
        Some(start) => start,
        None if scan == bytes.len() => return (Cow::Borrowed(text), true),
        None => {
            // Markup-free up to `enough`: cut on a character boundary, at or past it.
            let mut end = scan;
            while !text.is_char_boundary(end) {
                end += 1;
            }
            let part = text.get(..end).unwrap_or(text);
            return (Cow::Borrowed(part.trim_end()), false);
        }
    };
    let before = text.get(..start).unwrap_or("");
    let in_code = before.bytes().filter(|&b| b == b'`').count() % 2 == 1;
    let mut out = String::with_capacity(bytes.len().min(enough.saturating_add(16)));
    out.push_str(before);
    let whole = plain_into(text, start, in_code, enough, &mut out);
    if !whole {
        let kept = out.trim_end().len();
        out.truncate(kept);
    }
    (Cow::Owned(out), whole)
}

/// The bytes where markup can start (`[`, `!`, `*`, `<` and a line break), by value: one
/// load a byte where [`plain_prefix`] looks for the first.
const MARKUP_STARTS: [bool; 256] = {
    let mut starts = [false; 256];
    starts[b'[' as usize] = true;
    starts[b'!' as usize] = true;
    starts[b'*' as usize] = true;
    starts[b'<' as usize] = true;
    starts[b'\n' as usize] = true;
    starts
};

/// [`plain`]'s loop over `text` from byte `from` (a character boundary, where code spans
/// opened before it leave `in_code`), appending to `out` until the text ends (`true`) or
/// `out` holds `enough` bytes (`false`).
fn plain_into(text: &str, from: usize, mut in_code: bool, enough: usize, out: &mut String) -> bool {
    let bytes = text.as_bytes();
    // Where a link's `](target)` starts and where it ends: skipped when reached.
    let mut link_tail: Option<(usize, usize)> = None;
    let mut i = from;
    while i < bytes.len() {
        if out.len() >= enough {
            return false;
        }
        if let Some((from, to)) = link_tail {
            if i == from {
                i = to;
                link_tail = None;
                continue;
            }
        }
        let b = bytes[i];
        if b == b'`' {
            in_code = !in_code;
        } else if !in_code {
            if b == b'[' || (b == b'!' && bytes.get(i + 1) == Some(&b'[')) {
                let open = if b == b'!' { i + 1 } else { i };
                if let Some(tail) = link_at(bytes, open) {
                    link_tail = Some(tail);
                    i = open + 1;
                    continue;
                }
            } else if b == b'*' && bytes.get(i + 1) == Some(&b'*') && is_emphasis(bytes, i) {
                i += 2;
                continue;
            } else if b == b'<' {
                if let Some((end, block)) = tag_at(bytes, i) {
                    if block {
                        out.push(' ');
                    }
                    i = end;
                    continue;
                }
            } else if b == b'\n' {
                if let Some(end) = paragraph_break(bytes, i) {
                    end_sentence(out);
                    out.push_str("\n\n");
                    i = end;
                    continue;
                }
            }
        }
        // Copy the whole character: `i` is on a character boundary here, since every byte
        // matched above is ASCII.
        let len = utf8_len(b);
        out.push_str(text.get(i..i + len).unwrap_or(""));
        i += len;
    }
    true
}

/// The length of the UTF-8 sequence that starts with `b`.
fn utf8_len(b: u8) -> usize {
    match b {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// For a `[` at `open` that starts a Markdown link `[text](target)` (CommonMark 0.31,
/// section 6.3, inline links: no `[`, `]` or line break in the text, no white space in the
/// target), where its `](target)` starts and ends. A target holding a bracket or a
/// parenthesis is not read as one (the text stays as written), so that each look-ahead stops
/// at the next bracket and the scan stays linear.
fn link_at(bytes: &[u8], open: usize) -> Option<(usize, usize)> {
    let text_end = (open + 1..bytes.len().min(open + 1 + MAX_LINK_TEXT))
        .find(|&j| matches!(bytes[j], b']' | b'[' | b'\n'))?;
    if bytes[text_end] != b']' || text_end == open + 1 || bytes.get(text_end + 1) != Some(&b'(') {
        return None;
    }
    let target = text_end + 2;
    let close = (target..bytes.len().min(target + MAX_LINK_TARGET)).find(|&j| {
        matches!(bytes[j], b')' | b'(' | b'[' | b']') || bytes[j].is_ascii_whitespace()
    })?;
    if bytes[close] != b')' {
        return None;
    }
    Some((text_end, close + 1))
}

/// Whether the `**` at `i` opens or closes strong emphasis (CommonMark 0.31, section 6.2,
/// flanking runs): text on one side, no word character on the other (so `2**32` stays).
fn is_emphasis(bytes: &[u8], i: usize) -> bool {
    let before = if i == 0 { None } else { bytes.get(i - 1) };
    let after = bytes.get(i + 2);
    let word = |b: Option<&u8>| b.map_or(false, |b| b.is_ascii_alphanumeric());
    let space = |b: Option<&u8>| b.map_or(true, |b| b.is_ascii_whitespace());
    let opens = !space(after) && !word(before);
    let closes = !space(before) && !word(after);
    opens || closes
}

/// For a `<` at `i` that starts an HTML tag of [`BLOCK_TAGS`] or [`INLINE_TAGS`] (`<br>`,
/// `<br/>`, `</p>`, `<a href="...">`), where it ends and whether it is a block tag.
fn tag_at(bytes: &[u8], i: usize) -> Option<(usize, bool)> {
    let mut j = i + 1;
    if bytes.get(j) == Some(&b'/') {
        j += 1;
    }
    let name_start = j;
    while j < bytes.len() && bytes[j].is_ascii_alphanumeric() {
        j += 1;
    }
    let name = std::str::from_utf8(bytes.get(name_start..j)?).ok()?;
    let name = name.to_ascii_lowercase();
    let block = if BLOCK_TAGS.contains(&name.as_str()) {
        true
    } else if INLINE_TAGS.contains(&name.as_str()) {
        false
    } else {
        return None;
    };
    match bytes.get(j) {
        Some(b'>') => Some((j + 1, block)),
        Some(b'/') | Some(b' ') => {
            let end =
                (j..bytes.len().min(i + MAX_TAG)).find(|&k| matches!(bytes[k], b'>' | b'<'))?;
            if bytes[end] == b'>' {
                Some((end + 1, block))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// For a line break at `i`, the end of the paragraph break it starts (a line holding only
/// white space follows it), or `None`.
fn paragraph_break(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    let mut lines = 1;
    while j < bytes.len() && bytes[j].is_ascii_whitespace() {
        if bytes[j] == b'\n' {
            lines += 1;
        }
        j += 1;
    }
    if lines >= 2 {
        Some(j)
    } else {
        None
    }
}

/// Ends the text so far with a full stop unless it ends a sentence or a clause already (or
/// is empty): a heading or a summary before a paragraph break is a sentence of its own.
fn end_sentence(out: &mut String) {
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    match out.chars().last() {
        None => {}
        Some('.' | '!' | '?' | ':' | ';' | ',') => {}
        Some(_) => out.push('.'),
    }
}

/// `text` (white space collapsed) without the sentences that only say what a keyword of its
/// schema says (`Default: 20.`, `Defaults to 30.`, `Maximum: 50.`, `The default value is
/// true.`), or `None` when it has none. `values` are the schema's `default`, `minimum` and
/// `maximum` as text, under those names; a sentence that says more (`Default: 0 (the first
/// item).`) stays.
pub(crate) fn without_restated(text: &str, values: &[(&str, String)]) -> Option<String> {
    let mut kept: Vec<&str> = Vec::new();
    let mut dropped = false;
    for sentence in sentences(text) {
        if restates(sentence, values) {
            dropped = true;
        } else {
            kept.push(sentence);
        }
    }
    if dropped {
        Some(kept.join(" "))
    } else {
        None
    }
}

/// Abbreviations whose full stop ends no sentence, in lower case: "(e.g. a file key)" goes on.
/// Only those that cannot end one are listed (`etc.` often does); initials such as `U.S.`
/// and `a.k.a.` are abbreviations too (see [`is_initialism`]).
const ABBREVIATIONS: [&str; 14] = [
    "e.g.", "i.e.", "eg.", "ie.", "vs.", "cf.", "viz.", "approx.", "incl.", "excl.", "esp.",
    "resp.", "mr.", "dr.",
];

/// Whether the space at byte `space` of `text` ends a sentence: it follows a `.`, `!` or `?`
/// (and at most two closing quotes or brackets after it: `see "Pages." Then`), and the word
/// before a `.` is not one of [`ABBREVIATIONS`] nor initials (an opening bracket or quote
/// before the word aside). So a decimal (`1.5`), a version (`v2.1`), a host or a URL
/// (`api.github.com`) ends nothing, as no space follows their dots. The one rule for a
/// sentence's end: trimming a description, a tool's summary, and the checks for sentences
/// that only repeat what is said already use it.
#[inline]
pub(crate) fn ends_sentence(text: &str, space: usize) -> bool {
    let bytes = text.as_bytes();
    if bytes.get(space) != Some(&b' ') || space == 0 {
        return false;
    }
    let mut stop = space - 1;
    for _ in 0..2 {
        match closer_before(bytes, stop + 1) {
            Some(len) if stop >= len => stop -= len,
            _ => break,
        }
    }
    match bytes[stop] {
        b'!' | b'?' => true,
        b'.' => !after_abbreviation(bytes, stop + 1),
        _ => false,
    }
}

/// The length of the closing quote or bracket (`"`, `'`, `)`, `]`, or the right quotation
/// marks U+201D and U+2019) that ends `bytes[..end]`, if one does.
#[inline]
fn closer_before(bytes: &[u8], end: usize) -> Option<usize> {
    let head = &bytes[..end];
    match head.last()? {
        b'"' | b'\'' | b')' | b']' => Some(1),
        0x9D | 0x99
            if head.ends_with("\u{201d}".as_bytes()) || head.ends_with("\u{2019}".as_bytes()) =>
        {
            Some(3)
        }
        _ => None,
    }
}

/// Whether the word before the full stop at `space - 1` is one of [`ABBREVIATIONS`] or
/// initials. Out of line: every byte of a text is asked [`ends_sentence`], few reach this.
#[inline(never)]
fn after_abbreviation(bytes: &[u8], space: usize) -> bool {
    // A word longer than this, brackets included, is no abbreviation: the look back is short.
    const LONGEST: usize = 8;
    let from = space.saturating_sub(LONGEST + 1);
    let start = match bytes[from..space].iter().rposition(|&b| b == b' ') {
        Some(at) => from + at + 1,
        None if from == 0 => 0,
        None => return false,
    };
    let word = &bytes[start..space];
    let word = match word
        .iter()
        .position(|b| !matches!(b, b'(' | b'[' | b'"' | b'\''))
    {
        Some(at) => &word[at..],
        None => word,
    };
    is_initialism(word)
        || ABBREVIATIONS
            .iter()
            .any(|a| word.eq_ignore_ascii_case(a.as_bytes()))
}

/// Whether `word` is two or more letters each followed by a full stop: `U.S.`, `a.k.a.`.
fn is_initialism(word: &[u8]) -> bool {
    word.len() >= 4
        && word.len() % 2 == 0
        && word
            .chunks(2)
            .all(|pair| pair[0].is_ascii_alphabetic() && pair[1] == b'.')
}

/// The end of the first sentence of `text` (white space collapsed): the byte after its
/// `.`, `!` or `?` (see [`ends_sentence`]), or `None` when the whole text is one sentence.
pub(crate) fn first_sentence_end(text: &str) -> Option<usize> {
    (0..text.len()).find(|&at| ends_sentence(text, at))
}

/// The sentences of a text whose white space is collapsed: each up to a `.`, `!` or `?`
/// followed by a space (the same boundary the trimming cuts at, [`ends_sentence`]), the last
/// to the end.
fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let at = i;
            i += 1;
            if ends_sentence(text, at) {
                let sentence = text.get(start..at);
                start = at + 1;
                return sentence;
            }
        }
        if start < bytes.len() {
            let last = text.get(start..);
            start = bytes.len();
            return last;
        }
        None
    })
}

/// `text` (white space collapsed) with its first sentence (two when the first is a label,
/// see [`lead_end`]) and, of the others, only those that name a value (see
/// [`names_value`]: ``Either `asc` or `desc`.``, `Must not have more than 100.`, `The
/// default value is false.`, `It should conform to RFC1035.`), where formats, limits,
/// defaults and the meaning of enum values are written. `None` when
/// every sentence stays. A parameter's first sentence says what it is; the sentences after
/// it without a value are mostly advice a call does not need (`The name is not case
/// sensitive.`, `See the Connect documentation for details.`).
pub(crate) fn first_sentence_and_values(text: &str) -> Option<String> {
    let mut kept: Vec<&str> = Vec::new();
    let mut dropped = false;
    let mut label = false;
    for (n, sentence) in sentences(text).enumerate() {
        if n == 0 {
            label = is_label(sentence);
        }
        if n == 0 || (n == 1 && label) || (names_value(sentence) && !points_elsewhere(sentence)) {
            kept.push(sentence);
        } else {
            dropped = true;
        }
    }
    if dropped {
        Some(kept.join(" "))
    } else {
        None
    }
}

/// The end of what says what a tool or parameter is, in `text` (white space collapsed):
/// its first sentence, or its first two when the first is a label of one word
/// (`Deprecated. Lists teams.`); `None` when that is the whole text.
pub(crate) fn lead_end(text: &str) -> Option<usize> {
    let first = first_sentence_end(text)?;
    if !is_label(&text[..first]) {
        return Some(first);
    }
    (first + 1..text.len()).find(|&at| ends_sentence(text, at))
}

/// Whether a sentence is a label of one word, such as `Deprecated.`, which says nothing of
/// what follows it.
fn is_label(sentence: &str) -> bool {
    !sentence.trim().contains(' ')
}

/// Whether `sentence` names a value: it holds a code span, a quoted literal, a digit, one
/// of the literals `true`, `false` and `null`, or says what a default is.
fn names_value(sentence: &str) -> bool {
    sentence.contains(['`', '"', '\u{201c}'].as_ref())
        || sentence.bytes().any(|b| b.is_ascii_digit())
        || raw_words(sentence).any(|word| {
            ["true", "false", "null", "default", "defaults"]
                .iter()
                .any(|value| word.eq_ignore_ascii_case(value))
        })
}

/// Whether `sentence` sends the reader elsewhere (`For more information, see "Using
/// pagination in the REST API."`, `See the guide to learn more.`): a model calling the tool
/// cannot follow it, and the title it quotes names no value.
fn points_elsewhere(sentence: &str) -> bool {
    const LEADS: [&str; 9] = [
        "see ",
        "for more ",
        "for details",
        "for further ",
        "more information",
        "more details",
        "learn more",
        "read more",
        "refer to ",
    ];
    let head = sentence
        .trim_start()
        .get(..20)
        .unwrap_or(sentence.trim_start());
    let lower = head.to_ascii_lowercase();
    LEADS.iter().any(|lead| lower.starts_with(lead))
        || sentence.to_ascii_lowercase().contains("to learn more")
}

/// Words any parameter's name says, whatever it names: `The unique identifier of the team.`
/// tells a model nothing `team_id` does not.
const NAMING_WORDS: &str = "name id ids identifier identifies identified unique number";

/// Whether `description` says nothing the parameter's `name` does not (see
/// [`says_nothing_new`]): every word of it but function words is a word of the name (split
/// at `_`, `-` and where lower case turns upper: `pull_number`, `pageToken`), one with an
/// ending (`repo` says `repository`), or one of [`NAMING_WORDS`]: `The name of the
/// repository.` for `repo`, `The organization name.` for `org`.
pub(crate) fn says_only_name(description: &str, name: &str) -> bool {
    let mut words = String::with_capacity(name.len() + 8);
    let mut lower = false;
    for c in name.chars() {
        if c.is_uppercase() && lower {
            words.push(' ');
        }
        lower = c.is_lowercase() || c.is_ascii_digit();
        words.push(c);
    }
    says_nothing_new(description, &[&words, NAMING_WORDS])
}

/// Whether `sentence` is `[The] KEYWORD [value] [:|is|to|s to] VALUE.` for one of `values`.
fn restates(sentence: &str, values: &[(&str, String)]) -> bool {
    let lower = sentence.trim_end_matches('.').to_lowercase();
    let rest = lower.strip_prefix("the ").unwrap_or(&lower);
    values.iter().any(|(keyword, value)| {
        let names: &[&str] = match *keyword {
            "default" => &["defaults", "default"],
            "minimum" => &["minimum", "min"],
            "maximum" => &["maximum", "max"],
            _ => &[],
        };
        names.iter().any(|name| {
            let after = match rest.strip_prefix(name) {
                Some(after) => after,
                None => return false,
            };
            let after = after.strip_prefix(" value").unwrap_or(after);
            let after = after.trim_start_matches(&[':', ' '][..]);
            let after = ["is ", "to ", "of "]
                .iter()
                .find_map(|w| after.strip_prefix(w))
                .unwrap_or(after);
            let said = after
                .trim()
                .trim_matches(|c: char| c == '`' || c == '"' || c == '\'');
            !said.is_empty() && said == value.to_lowercase()
        })
    })
}

/// Words that say nothing on their own, ignored when comparing what two texts say.
const FUNCTION_WORDS: [&str; 22] = [
    "a", "an", "the", "of", "in", "on", "for", "to", "by", "with", "from", "and", "or", "at", "as",
    "is", "its", "this", "that", "all", "be", "are",
];

/// The most words compared (of the repeating text and of each text that may say them): the
/// check is for short texts (a summary, a title), and bounded so that it stays linear.
const MAX_WORDS: usize = 16;
const MAX_SAYING_WORDS: usize = 96;

/// Whether every word of `words` (but [`FUNCTION_WORDS`]) is in one of `texts` already, so
/// `words` tells a reader of `texts` nothing new: `Get component` is said by `Get metadata on
/// a component by key.`. Words are runs of letters and digits, compared ignoring case; one
/// may be the other with an ending (`list` and `lists`, `current` and `currently`) when the
/// shorter has three letters or more. `false` when `words` has no word or more than
/// [`MAX_WORDS`]; only the first [`MAX_SAYING_WORDS`] of each text are read.
pub(crate) fn says_nothing_new(words: &str, texts: &[&str]) -> bool {
    let mut wanted: Vec<String> = Vec::new();
    for (n, word) in word_list(words).enumerate() {
        if n >= MAX_WORDS {
            return false;
        }
        if !FUNCTION_WORDS.contains(&word.as_str()) {
            wanted.push(word);
        }
    }
    if wanted.is_empty() {
        return false;
    }
    // One pass over the texts' words, each lowered into one buffer (an import asks this of
    // every operation's long description).
    let mut said = vec![false; wanted.len()];
    let mut left = wanted.len();
    let mut lower = String::new();
    for text in texts {
        for raw in raw_words(text).take(MAX_SAYING_WORDS) {
            lowercase_into(raw, &mut lower);
            for (word, said) in wanted.iter().zip(said.iter_mut()) {
                if !*said && same_stem(&lower, word) {
                    *said = true;
                    left -= 1;
                }
            }
            if left == 0 {
                return true;
            }
        }
    }
    false
}

/// The words of `text` as they are written.
fn raw_words(text: &str) -> impl Iterator<Item = &str> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// `word` in lower case into `out`, as `str::to_lowercase` makes it.
fn lowercase_into(word: &str, out: &mut String) {
    out.clear();
    if word.is_ascii() {
        out.push_str(word);
        out.make_ascii_lowercase();
    } else {
        out.push_str(&word.to_lowercase());
    }
}

/// The words of `text`, lower case.
fn word_list(text: &str) -> impl Iterator<Item = String> + '_ {
    raw_words(text).map(str::to_lowercase)
}

/// `a` and `b` are the same word, or one is the other with an ending and the shorter has
/// three characters or more.
fn same_stem(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    // The prefix first: characters are counted only for a word that starts the other
    // (every word of a long description is compared with each word of a summary).
    long.starts_with(short) && (short.len() == long.len() || short.chars().count() >= 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! plain_cases {
        ($($name:ident: $text:expr => $want:expr;)*) => {$(
            #[test]
            fn $name() {
                assert_eq!(plain($text), $want);
            }
        )*};
    }

    plain_cases! {
        plain_untouched: "Lists pets, 2**32 at most." => "Lists pets, 2**32 at most.";
        plain_link_text: "An [ISO 3166-1 code](https://en.wikipedia.org/wiki/ISO_3166-1)." => "An ISO 3166-1 code.";
        plain_relative_link: "The [Spotify ID](/documentation/ids) of it." => "The Spotify ID of it.";
        plain_image: "See ![a diagram](img.png) here." => "See a diagram here.";
        plain_not_a_link: "Use [x] or [y] (both) and [z](no close" => "Use [x] or [y] (both) and [z](no close";
        plain_nested_brackets: "[a]([b](c))" => "[a](b)";
        plain_strong: "**Note**: only **admins.** Then" => "Note: only admins. Then";
        plain_html: "One.<br/>Two<br />three <b>bold</b> <owner>/<repo>" => "One. Two three bold <owner>/<repo>";
        plain_link_tag: "<a href=\"https://x\">docs</a>" => "docs";
        plain_code_kept: "Send `[a](b)` or `**` as is" => "Send `[a](b)` or `**` as is";
        plain_paragraph: "Get file\n\nReturns it.\n \nDone" => "Get file.\n\nReturns it.\n\nDone";
        plain_line_break: "a list:\n- one\n- two" => "a list:\n- one\n- two";
        plain_multibyte: "Größe [Äpfel](x) ü" => "Größe Äpfel ü";
    }

    #[test]
    fn plain_prefix_is_a_prefix_of_the_plain_text() {
        let pieces = [
            "word", "é", " ", "  ", "\n", "\n\n", "\n \n", ". ", "[", "]", "(", ")", "[a](b)",
            "![i](p)", "**", "*", "!", "`", "<br>", "<b>", "<x>", "<",
        ];
        let mut rng = crate::test_rng::Rng::new(26);
        let (mut parts, mut wholes) = (0, 0);
        for _ in 0..3000 {
            let len = rng.below(60);
            let text: String = (0..len).map(|_| rng.pick(&pieces)).collect();
            let all = plain(&text);
            for enough in [0, 1, 7, 20, 50, 100, 1000] {
                let (prefix, whole) = plain_prefix(&text, enough);
                if whole {
                    wholes += 1;
                    assert_eq!(prefix, all, "{:?}", text);
                } else {
                    parts += 1;
                    assert!(all.starts_with(&*prefix), "{:?} at {}", text, enough);
                    assert_eq!(prefix.trim_end(), prefix, "{:?} at {}", text, enough);
                }
            }
        }
        assert!(
            parts > 1000 && wholes > 1000,
            "{} parts, {} wholes",
            parts,
            wholes
        );
    }

    #[test]
    fn restated_values() {
        let values = [
            ("default", "20".to_string()),
            ("minimum", "1".to_string()),
            ("maximum", "50".to_string()),
        ];
        assert_eq!(
            without_restated(
                "The maximum number of items. Default: 20. Minimum: 1. Maximum: 50.",
                &values
            )
            .as_deref(),
            Some("The maximum number of items.")
        );
        assert_eq!(
            without_restated("How many. Defaults to `20`. Max is 50.", &values).as_deref(),
            Some("How many.")
        );
        // Another value, or more than the value, stays.
        assert_eq!(
            without_restated("Default: 30. Max 50 a page.", &values),
            None
        );
        assert_eq!(without_restated("Default: 20 (one page).", &values), None);
        let yes = [("default", "true".to_string())];
        assert_eq!(
            without_restated("Whether to. The default value is True.", &yes).as_deref(),
            Some("Whether to.")
        );
        assert_eq!(
            without_restated("Default: true.", &yes).as_deref(),
            Some("")
        );
    }

    #[test]
    fn nothing_new() {
        assert!(says_nothing_new(
            "Get component",
            &["Get metadata on a component by key."]
        ));
        assert!(says_nothing_new("List pets", &["Lists all the pets."]));
        assert!(says_nothing_new(
            "Spotify Album ID",
            &["id", "The Spotify ID of the album."]
        ));
        assert!(!says_nothing_new(
            "Get current user",
            &["Returns the user information for the currently authenticated user."]
        ));
        assert!(!says_nothing_new("in", &["in"]), "no word of its own");
        assert!(!says_nothing_new("", &["x"]));
        assert!(
            !says_nothing_new("Delete file", &["Deleted"]),
            "file is new"
        );
    }

    #[test]
    fn nothing_new_reads_case_words_across_texts_and_bounds() {
        assert!(says_nothing_new("ÄRGER Name", &["name", "Ärger und mehr"]));
        assert!(says_nothing_new("PETS list", &["LIST", "all PETS"]));
        let filler = vec!["word"; MAX_SAYING_WORDS].join(" ");
        assert!(
            !says_nothing_new("late", &[&format!("{} late", filler)]),
            "only the first words of a text are read"
        );
        assert!(says_nothing_new("late", &[&filler, "late"]), "per text");
        let long = vec!["word"; MAX_WORDS + 1].join(" ");
        assert!(!says_nothing_new(&long, &["word"]), "too many words");
    }

    macro_rules! first_sentence_cases {
        ($($name:ident: $text:expr => $want:expr;)*) => {$(
            #[test]
            fn $name() {
                let text: &str = $text;
                let end = first_sentence_end(text).unwrap_or(text.len());
                assert_eq!(&text[..end], $want);
            }
        )*};
    }

    first_sentence_cases! {
        first_sentence_plain: "Lists pets. Paged." => "Lists pets.";
        first_sentence_not_at_eg: "Use a key (e.g. abc) here. More." => "Use a key (e.g. abc) here.";
        first_sentence_not_at_ie: "The owner, i.e. the account. More." => "The owner, i.e. the account.";
        first_sentence_not_at_version: "Works with v2.1 and 3.0.3 only. More." => "Works with v2.1 and 3.0.3 only.";
        first_sentence_not_at_decimal: "A rate of 0.5 per call. More." => "A rate of 0.5 per call.";
        first_sentence_not_at_url: "See https://docs.example.com/a.b for it. More." => "See https://docs.example.com/a.b for it.";
        first_sentence_not_at_host: "Calls api.github.com once. More." => "Calls api.github.com once.";
        first_sentence_not_at_initials: "Only in the U.S. and a.k.a. here. More." => "Only in the U.S. and a.k.a. here.";
        first_sentence_not_at_approx: "Takes approx. ten seconds. More." => "Takes approx. ten seconds.";
        first_sentence_after_a_quote: "See \"Rate limits.\" Then more." => "See \"Rate limits.\"";
        first_sentence_after_a_bracket: "Pick one (any will do.) Then more." => "Pick one (any will do.)";
        first_sentence_after_curly_quotes: "See \u{201c}Pages.\u{201d} Then more." => "See \u{201c}Pages.\u{201d}";
        first_sentence_at_etc: "Files, links, etc. Then more." => "Files, links, etc.";
        first_sentence_whole: "One sentence only" => "One sentence only";
    }

    #[test]
    fn a_label_sentence_leads_with_the_next() {
        fn lead(text: &str) -> &str {
            &text[..lead_end(text).unwrap_or(text.len())]
        }
        assert_eq!(
            lead("Deprecated. Lists teams. More."),
            "Deprecated. Lists teams."
        );
        assert_eq!(lead("Lists teams. More."), "Lists teams.");
        assert_eq!(lead("Deprecated."), "Deprecated.");
        assert_eq!(lead("Deprecated. Lists teams."), "Deprecated. Lists teams.");
    }

    #[test]
    fn later_sentences_stay_when_they_name_a_value() {
        let cases = [
            (
                "The account owner. The name is not case sensitive.",
                Some("The account owner."),
            ),
            (
                "The direction. Either `asc` or `desc`. See the guide.",
                Some("The direction. Either `asc` or `desc`."),
            ),
            (
                "Page size. At most 100. Use it.",
                Some("Page size. At most 100."),
            ),
            ("A path. The default value is \"/\".", None),
            (
                "Partial results. The default value is false. Read more.",
                Some("Partial results. The default value is false."),
            ),
            (
                "Deprecated. The line. Old advice.",
                Some("Deprecated. The line."),
            ),
            ("One sentence.", None),
            ("", None),
            // Pointers elsewhere go, even when they quote a title or hold a digit.
            (
                "Results per page (max 100). For more information, see \"Using pagination.\"",
                Some("Results per page (max 100)."),
            ),
            (
                "The ref. See \"Git References\" in the Git documentation. Refer to RFC 3986.",
                Some("The ref."),
            ),
            (
                "A draft. Read \"Draft Pull Requests\" to learn more. Seen `x` first.",
                Some("A draft. Seen `x` first."),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(
                first_sentence_and_values(text).as_deref(),
                want,
                "{:?}",
                text
            );
        }
    }

    #[test]
    fn descriptions_that_only_say_the_name() {
        let cases = [
            ("The name of the repository.", "repo", true),
            ("The organization name.", "org", true),
            ("The unique identifier of the team.", "team_id", true),
            (
                "The number that identifies the issue.",
                "issue_number",
                true,
            ),
            ("Page token.", "pageToken", true),
            ("City", "city", true),
            // A word the name does not say stays.
            ("The account owner of the repository.", "owner", false),
            ("The Spotify ID of the album.", "album_id", false),
            (
                "The number of results per page (max 100).",
                "per_page",
                false,
            ),
            ("The name of the variable.", "name", false),
            ("", "name", false),
        ];
        for (description, name, only) in cases {
            assert_eq!(
                says_only_name(description, name),
                only,
                "{:?} for {}",
                description,
                name
            );
        }
    }

    #[test]
    fn sentence_ends_skip_abbreviations() {
        let text = "Pick one (e.g. a team). Then i.e. more, vs. less! Cf. the end? E.g. done.";
        let ends: Vec<usize> = (0..text.len())
            .filter(|&at| ends_sentence(text, at))
            .collect();
        let words: Vec<&str> = ends.iter().map(|&at| &text[..at]).collect();
        assert_eq!(
            words,
            [
                "Pick one (e.g. a team).",
                "Pick one (e.g. a team). Then i.e. more, vs. less!",
                "Pick one (e.g. a team). Then i.e. more, vs. less! Cf. the end?",
            ]
        );
        assert_eq!(first_sentence_end("E.g. this. That."), Some(10));
        assert_eq!(first_sentence_end("One sentence."), None);
        assert_eq!(first_sentence_end(""), None);
        assert!(!ends_sentence(". x", 0));
        assert!(!ends_sentence("e.g. x", 4));
        assert!(ends_sentence("averyverylongwordhere. Next", 22));
        assert!(ends_sentence("a (((((e.g. x", 11));
        let collected: Vec<&str> = sentences("See e.g. below. Default: 3.").collect();
        assert_eq!(collected, ["See e.g. below.", "Default: 3."]);
    }
}
