//! Numbers: integers exact, doubles in shortest round-trip form, numbers beyond both kept as
//! written, and the `Number` API (conversions, predicates, equality).

use httptool::json::{self, Json, Number};

use crate::support::rng::Rng;

fn num(text: &str) -> Number {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// (case, input, written, as_i64, as_u64, as_f64, is_f64, is_integer)
type Row = (
    &'static str,
    &'static str,
    &'static str,
    Option<i64>,
    Option<u64>,
    Option<f64>,
    bool,
    bool,
);

#[rustfmt::skip]
const FORMS: &[Row] = &[
    ("small", "42", "42", Some(42), Some(42), Some(42.0), false, true),
    ("negative", "-7", "-7", Some(-7), None, Some(-7.0), false, true),
    ("i64 min", "-9223372036854775808", "-9223372036854775808", Some(i64::MIN), None, Some(-9.223372036854776e18), false, true),
    ("u64 max", "18446744073709551615", "18446744073709551615", None, Some(u64::MAX), Some(1.8446744073709552e19), false, true),
    ("20-digit id", "12345678901234567890", "12345678901234567890", None, Some(12_345_678_901_234_567_890), Some(1.2345678901234567e19), false, true),
    ("beyond u64", "123456789012345678901", "123456789012345678901", None, None, Some(1.2345678901234568e20), false, true),
    ("below i64", "-9223372036854775809", "-9223372036854775809", None, None, Some(-9.223372036854776e18), false, true),
    ("fraction", "2.50", "2.5", None, None, Some(2.5), true, false),
    ("whole float", "3.0", "3.0", Some(3), Some(3), Some(3.0), true, true),
    ("exponent", "1E6", "1000000.0", Some(1_000_000), Some(1_000_000), Some(1e6), true, true),
    ("big exponent", "1e300", "1e300", None, None, Some(1e300), true, true),
    ("small fraction", "0.000001", "1e-6", None, None, Some(1e-6), true, false),
    ("minus zero", "-0", "-0.0", Some(0), Some(0), Some(-0.0), true, true),
    ("overflow", "1e400", "1e400", None, None, None, false, true),
    ("negative overflow", "-2.5E+999", "-2.5E+999", None, None, None, false, true),
    ("underflow", "1e-400", "1e-400", None, None, Some(0.0), false, false),
    ("inexact", "0.1000000000000000055511151231257827", "0.1", None, None, Some(0.1), true, false),
];

#[test]
fn each_form_is_held_and_written_back_as_documented() {
    for &(case, input, written, i, u, f, is_f64, is_integer) in FORMS {
        let n = num(input);
        assert_eq!(n.to_string(), written, "{case}");
        assert_eq!(n.as_i64(), i, "{case}");
        assert_eq!(n.as_u64(), u, "{case}");
        assert_eq!(n.as_f64().map(f64::to_bits), f.map(f64::to_bits), "{case}");
        assert_eq!(
            (n.is_i64(), n.is_u64()),
            (i.is_some(), u.is_some()),
            "{case}"
        );
        assert_eq!(n.is_f64(), is_f64, "{case}");
        assert_eq!(n.is_integer(), is_integer, "{case}");
        // In a document, the same.
        let doc = json::parse(&format!("[{input}]")).unwrap();
        assert_eq!(doc.to_string(), format!("[{written}]"), "{case}");
        assert_eq!(doc[0].as_number(), Some(&n), "{case}");
    }
}

#[test]
fn from_every_integer_type() {
    assert_eq!(Number::from(i8::MIN).to_string(), "-128");
    assert_eq!(Number::from(i16::MIN).to_string(), "-32768");
    assert_eq!(Number::from(i32::MIN).to_string(), "-2147483648");
    assert_eq!(Number::from(i64::MIN).to_string(), "-9223372036854775808");
    assert_eq!(Number::from(isize::MIN).as_i64(), Some(isize::MIN as i64));
    assert_eq!(Number::from(u8::MAX).to_string(), "255");
    assert_eq!(Number::from(u16::MAX).to_string(), "65535");
    assert_eq!(Number::from(u32::MAX).to_string(), "4294967295");
    assert_eq!(Number::from(u64::MAX).to_string(), "18446744073709551615");
    assert_eq!(Number::from(usize::MAX).as_u64(), Some(usize::MAX as u64));
    assert_eq!(Number::from(0i32), Number::from(0u8));
    assert!(Number::from(5u8).is_integer() && !Number::from(5u8).is_f64());
}

#[test]
fn from_f64() {
    assert_eq!(Number::from_f64(0.1).unwrap().to_string(), "0.1");
    assert_eq!(Number::from_f64(-0.0).unwrap().to_string(), "-0.0");
    assert_eq!(Number::from_f64(1e21).unwrap().to_string(), "1e21");
    assert_eq!(
        Number::from_f64(f64::MAX).unwrap().to_string(),
        "1.7976931348623157e308"
    );
    assert_eq!(Number::from_f64(5e-324).unwrap().to_string(), "5e-324");
    assert!(Number::from_f64(f64::NAN).is_none());
    assert!(Number::from_f64(f64::INFINITY).is_none());
    assert!(Number::from_f64(f64::NEG_INFINITY).is_none());
    assert_eq!(Json::from(f64::NAN), Json::Null);
    assert_eq!(Json::from(f32::INFINITY), Json::Null);
    assert_eq!(Json::from(0.5f32).to_string(), "0.5");
    assert_eq!(Json::from(0.1f32).to_string(), "0.10000000149011612");
}

#[test]
fn equality_is_by_value() {
    let table: &[(&str, &str, bool)] = &[
        ("1", "1.0", true),
        ("1", "1e0", true),
        ("100", "1E2", true),
        ("0", "-0", true),
        ("-0.0", "0.0", true),
        ("1", "2", false),
        ("-1", "1", false),
        ("0.1", "0.10", true),
        ("1e400", "10E399", true),
        ("1e400", "1e401", false),
        ("18446744073709551615", "18446744073709551615.0", false), // the double is 2^64
        ("9007199254740993", "9007199254740993.0", false),         // the double is 2^53
    ];
    for &(a, b, equal) in table {
        assert_eq!(num(a) == num(b), equal, "{a} == {b}");
        assert_eq!(num(b) == num(a), equal, "{b} == {a}");
    }
}

/// The significant digits and decimal exponent of a number written `d.ddde±x` or plain.
fn digits_and_exponent(text: &str) -> (String, i32) {
    let text = text.trim_start_matches('-');
    let (mantissa, exp) = text.split_once('e').unwrap_or((text, "0"));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{whole}{fraction}");
    let leading = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_matches('0').to_string();
    let exponent = exp.parse::<i32>().unwrap() + whole.len() as i32 - leading as i32 - 1;
    (digits, exponent)
}

#[test]
fn doubles_are_written_in_the_shortest_form_that_reads_back() {
    // std's `{:e}` writes the shortest digits that round-trip too: ours has as many digits and
    // the same exponent, and reads back to the same bits (a unit test next to the formatter
    // compares the digits themselves on 200,000 patterns).
    let mut rng = Rng::from_state(0xD1CE);
    for _ in 0..100_000 {
        let f = f64::from_bits(rng.next());
        if !f.is_finite() || f == 0.0 {
            continue;
        }
        let ours = Number::from_f64(f).unwrap().to_string();
        assert_eq!(
            ours.parse::<f64>().unwrap().to_bits(),
            f.to_bits(),
            "{ours}"
        );
        let (our_digits, our_exp) = digits_and_exponent(&ours);
        let (std_digits, std_exp) = digits_and_exponent(&format!("{f:e}"));
        assert_eq!(our_digits.len(), std_digits.len(), "{ours} vs {f:e}");
        assert_eq!(our_exp, std_exp, "{ours} vs {f:e}");
    }
}
