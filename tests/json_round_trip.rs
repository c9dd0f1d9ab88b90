//! Property-style round trips: random values written compact and pretty parse back to equal
//! values, and writing is stable (what is written, parsed and written again is the same text).
//!
//! The values come from a small deterministic generator (xorshift64*, no dependency), with
//! strings holding every control character, quotes, backslashes, U+2028/U+2029 and characters
//! outside the BMP (surrogate pairs when escaped), integers at the edges of `i64` and `u64`,
//! integers beyond both, doubles from random bit patterns, and nested arrays and objects.

use httptool::json::{self, Json, Map, Number};

use crate::support::rng::Rng;

/// Characters that stress the writer's escaping and the parser's unescaping.
const SPECIAL: &[char] = &[
    '"',
    '\\',
    '/',
    '\u{7f}',
    '\u{80}',
    '\u{2028}',
    '\u{2029}',
    '\u{2026}',
    '\u{feff}',
    '\u{fffd}',
    '\u{ffff}',
    '\u{10000}',
    '\u{1d11e}',
    '\u{1f600}',
    '\u{10ffff}',
    'é',
    '日',
];

fn random_char(rng: &mut Rng) -> char {
    match rng.below(6) {
        0 => char::from(rng.below(0x20) as u8), // a control character
        1 => SPECIAL[rng.below(SPECIAL.len())],
        2 => char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{fffd}'),
        _ => char::from(b' ' + rng.below(95) as u8), // printable ASCII
    }
}

fn random_string(rng: &mut Rng) -> String {
    let len = match rng.below(10) {
        0 => 0,
        1 => 20 + rng.below(60), // longer than the 8-byte fast paths
        _ => rng.below(12),
    };
    (0..len).map(|_| random_char(rng)).collect()
}

fn random_digits(rng: &mut Rng, len: usize) -> String {
    let first = char::from(b'1' + rng.below(9) as u8);
    let rest = (1..len).map(|_| char::from(b'0' + rng.below(10) as u8));
    std::iter::once(first).chain(rest).collect()
}

fn random_number(rng: &mut Rng) -> Json {
    match rng.below(10) {
        0 => Json::from([i64::MIN, i64::MAX, i64::MIN + 1, -1, 0, 1][rng.below(6)]),
        1 => Json::from([u64::MAX, u64::MAX - 1, 1 << 63, (1 << 53) + 1][rng.below(4)]),
        2 => Json::from(rng.next() as i64),
        3 => Json::from(rng.next()),
        4 => {
            // An integer beyond i64 and u64, kept as written.
            let sign = if rng.chance(2) { "-" } else { "" };
            let len = 21 + rng.below(30);
            let text = format!("{sign}{}", random_digits(rng, len));
            Json::Number(text.parse::<Number>().unwrap())
        }
        5 => {
            // Beyond f64's range, kept as written.
            let text = ["1e400", "-2.5E+999", "1e-400", "-7.25e-99999"][rng.below(4)];
            Json::Number(text.parse::<Number>().unwrap())
        }
        6 => Json::from((rng.below(2_000_001) as f64 - 1e6) / 1e3),
        _ => {
            // Any finite double, from a random bit pattern.
            let f = f64::from_bits(rng.next());
            if f.is_finite() {
                Json::from(f)
            } else {
                Json::from(-0.0)
            }
        }
    }
}

/// A random value with at most `budget` nodes below it, nested at most `depth` levels.
fn random_value(rng: &mut Rng, depth: usize, budget: &mut usize) -> Json {
    *budget = budget.saturating_sub(1);
    let containers = if depth > 0 && *budget > 0 { 2 } else { 0 };
    match rng.below(5 + containers) {
        0 => Json::Null,
        1 => Json::Bool(rng.chance(2)),
        2 => random_number(rng),
        3 | 4 => Json::String(random_string(rng)),
        5 => {
            let len = rng.below(6);
            let items = (0..len).map(|_| random_value(rng, depth - 1, budget));
            Json::Array(items.collect())
        }
        _ => {
            let mut map = Map::new();
            for _ in 0..rng.below(6) {
                let key = random_string(rng);
                let value = random_value(rng, depth - 1, budget);
                map.insert(key, value);
            }
            Json::Object(map)
        }
    }
}

fn assert_round_trip(value: &Json) {
    let compact = value.to_string();
    let parsed = json::parse(&compact).unwrap_or_else(|e| panic!("{e}: {compact}"));
    assert_eq!(&parsed, value, "compact: {compact}");
    // Stable text: key order, number forms and escapes survive exactly.
    assert_eq!(parsed.to_string(), compact);

    let pretty = value.to_pretty();
    let parsed = json::parse(&pretty).unwrap_or_else(|e| panic!("{e}: {pretty}"));
    assert_eq!(&parsed, value, "pretty: {pretty}");
    assert_eq!(parsed.to_pretty(), pretty);

    let mut appended = String::from("[");
    value.write_to(&mut appended);
    assert_eq!(appended, format!("[{compact}"));
}

#[test]
fn random_values_round_trip_compact_and_pretty() {
    let mut rng = Rng::from_state(0x5EED_1234_ABCD_0001);
    for _ in 0..10_000 {
        let mut budget = 60;
        let value = random_value(&mut rng, 6, &mut budget);
        assert_round_trip(&value);
        assert_eq!(value.clone(), value);
    }
}

#[test]
fn every_control_character_and_special_character_round_trips() {
    let mut all: String = (0u8..0x20).map(char::from).collect();
    all.extend(SPECIAL);
    let value = httptool::json!({ all.clone(): [all.clone(), {"k": all}] });
    assert_round_trip(&value);
    // No raw control character reaches the output.
    assert!(!value.to_string().chars().any(|c| c < ' '));
}

/// Writes `s` as a JSON string literal with escapes chosen at random: raw where allowed,
/// short forms, `\u` escapes (surrogate pairs above the BMP, in either hex case).
fn randomly_escaped(rng: &mut Rng, s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        let must_escape = c < ' ' || c == '"' || c == '\\';
        match rng.below(3) {
            0 if !must_escape => out.push(c),
            1 if matches!(c, '"' | '\\' | '/' | '\u{8}' | '\u{c}' | '\n' | '\r' | '\t') => {
                out.push('\\');
                out.push(match c {
                    '\u{8}' => 'b',
                    '\u{c}' => 'f',
                    '\n' => 'n',
                    '\r' => 'r',
                    '\t' => 't',
                    other => other,
                });
            }
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    if rng.chance(2) {
                        out.push_str(&format!("\\u{unit:04X}"));
                    } else {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
            }
        }
    }
    out.push('"');
    out
}

#[test]
fn strings_written_with_any_escapes_parse_to_the_same_text() {
    let mut rng = Rng::from_state(77);
    for _ in 0..3_000 {
        let s = random_string(&mut rng);
        let literal = randomly_escaped(&mut rng, &s);
        let parsed = json::parse(&literal).unwrap_or_else(|e| panic!("{e}: {literal}"));
        assert_eq!(parsed.as_str(), Some(s.as_str()), "{literal}");
    }
}

#[test]
fn integer_extremes_are_exact() {
    let table: &[(&str, Json)] = &[
        ("-9223372036854775808", Json::from(i64::MIN)),
        ("9223372036854775807", Json::from(i64::MAX)),
        ("18446744073709551615", Json::from(u64::MAX)),
        ("0", Json::from(0u8)),
    ];
    for (text, value) in table {
        let parsed = json::parse(text).unwrap();
        assert_eq!(&parsed, value, "{text}");
        assert_eq!(parsed.to_string(), *text);
    }
    assert_eq!(
        json::parse("-9223372036854775808").unwrap().as_i64(),
        Some(i64::MIN)
    );
    assert_eq!(
        json::parse("18446744073709551615").unwrap().as_u64(),
        Some(u64::MAX)
    );
}

#[test]
fn random_doubles_round_trip_bit_for_bit() {
    let mut rng = Rng::from_state(0xF10A7);
    for _ in 0..20_000 {
        let f = f64::from_bits(rng.next());
        if !f.is_finite() {
            continue;
        }
        let text = Json::from(f).to_string();
        let back = json::parse(&text).unwrap().as_f64().unwrap();
        assert_eq!(back.to_bits(), f.to_bits(), "{text}");
    }
}

/// `write_str` as RFC 8259 and the crate's docs define it, a character at a time.
fn escaped_char_by_char(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if c < ' ' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn plain_ascii_runs_are_written_exactly_around_any_character() {
    // The writer skips plain ASCII sixteen bytes at a time and everything else eight at a
    // time, and pretty output stages short plain strings a word at a time: put each kind of
    // character at every offset of runs of every such length, alone and in pairs.
    let specials = [
        "\"", "\\", "\n", "\u{0}", "\u{1f}", "\u{7f}", "é", "\u{2028}", "\u{2029}", "\u{2026}",
        "日", "😀",
    ];
    for len in [0, 1, 6, 7, 8, 15, 16, 17, 31, 32, 33, 47, 63, 100] {
        let plain: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        for special in specials {
            for at in 0..=len {
                let mut s = plain.clone();
                s.insert_str(at, special);
                for second in [special, "\"", "é"] {
                    let mut s = s.clone();
                    s.push_str(&plain[..at.min(9)]);
                    s.push_str(second);
                    let mut out = String::new();
                    json::write_str(&mut out, &s);
                    assert_eq!(out, escaped_char_by_char(&s), "{:?}", s);
                    assert_eq!(Json::from(s.as_str()).to_pretty(), out);
                    assert_eq!(json::parse(&out).unwrap(), Json::from(s.as_str()));
                }
            }
        }
    }
}
