//! A JSON number that round-trips.

use std::fmt;

use super::float_format::{
    format_f64, format_i64, format_u64, write_f64, write_i64, write_u64, BUF_LEN,
};

/// A JSON number that round-trips through parsing and writing.
///
/// How a number is held decides how it is written back:
///
/// | written as | held as | written back |
/// | --- | --- | --- |
/// | an integer that fits `i64` or `u64` (`-3`, `18446744073709551615`) | that integer | exactly as read |
/// | a fraction or exponent within `f64`'s range (`0.1`, `1e300`, `2.50`) | the correctly rounded `f64` | shortest round-trip form (`0.1`, `1e300`, `2.5`) |
/// | `-0` | the `f64` `-0.0` | `-0.0` |
/// | an integer beyond `i64`/`u64` (`123456789012345678901`) | its text | exactly as read |
/// | a number beyond `f64`'s range (`1e400`, `1e-400`) | its text | exactly as read |
///
/// So a 20-digit id passes through unchanged, while `1.000000000000000005` (inside `f64`'s
/// range, but not exactly representable) becomes the nearest double and is written `1.0`.
/// Whole floats keep `.0` (`1.0`), so they read back as floats.
///
/// Equality is by value where the value is exact: `1`, `1.0` and `1e0` are equal, `0.0` equals
/// `-0.0` (as in IEEE 754), and numbers kept as text are equal when their decimal values are
/// (`1e400`, `1E+400` and `10e399`). A number kept as text is never equal to one held as an
/// integer or a double (it lies outside their ranges, or rounds to a different double). Since
/// no `Number` is NaN, equality is an equivalence ([`Eq`]).
///
/// # Examples
///
/// ```
/// use httptool::json::{self, Number};
///
/// let v = json::parse("[12345678901234567890123, 0.1, -7, 1e400]").unwrap();
/// assert_eq!(v.to_string(), "[12345678901234567890123,0.1,-7,1e400]");
/// assert_eq!(v[0].as_u64(), None); // beyond u64: kept as text, never rounded
/// assert_eq!(v[1].as_f64(), Some(0.1));
/// assert_eq!(v[2].as_i64(), Some(-7));
/// assert_eq!(v[3].as_f64(), None); // beyond f64
/// assert_eq!(Number::from(3u8), "3.0".parse::<Number>().unwrap());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Number {
    n: N,
}

#[derive(Clone)]
enum N {
    /// A non-negative integer.
    PosInt(u64),
    /// A negative integer (never zero or positive, so integers have one form).
    NegInt(i64),
    /// A finite double.
    Float(f64),
    /// A number beyond the ranges above, exactly as written (valid JSON number grammar).
    Text(Box<str>),
}

impl Number {
    /// The number for a finite `f`; `None` for NaN and the infinities, which JSON cannot write.
    ///
    /// # Examples
    ///
    /// ```
    /// use httptool::json::Number;
    /// assert_eq!(Number::from_f64(0.1).unwrap().to_string(), "0.1");
    /// assert!(Number::from_f64(f64::NAN).is_none());
    /// ```
    pub fn from_f64(f: f64) -> Option<Number> {
        if f.is_finite() {
            Some(Number { n: N::Float(f) })
        } else {
            None
        }
    }

    pub(crate) fn from_text(text: &str) -> Number {
        Number {
            n: N::Text(text.into()),
        }
    }

    /// The value as an `i64` when it is a whole number in `i64`'s range, however it was
    /// written (`3`, `3.0` and `3e0` all give `Some(3)`); `None` otherwise (`3.5`, `1e20`).
    /// Never rounds.
    pub fn as_i64(&self) -> Option<i64> {
        match self.n {
            N::PosInt(u) => i64::try_from(u).ok(),
            N::NegInt(i) => Some(i),
            N::Float(f) => float_to_i128(f).and_then(|i| i64::try_from(i).ok()),
            N::Text(_) => None,
        }
    }

    /// The value as a `u64` when it is a whole number in `u64`'s range, however it was
    /// written; `None` otherwise (negative numbers, fractions). Never rounds.
    pub fn as_u64(&self) -> Option<u64> {
        match self.n {
            N::PosInt(u) => Some(u),
            N::NegInt(_) => None,
            N::Float(f) => float_to_i128(f).and_then(|i| u64::try_from(i).ok()),
            N::Text(_) => None,
        }
    }

    /// The value as an `f64`, rounded to the nearest double if needed (a large integer, or
    /// `1e-400`, which gives `0.0`); `None` only for a number too large for `f64` (`1e400`).
    pub fn as_f64(&self) -> Option<f64> {
        match &self.n {
            N::PosInt(u) => Some(*u as f64),
            N::NegInt(i) => Some(*i as f64),
            N::Float(f) => Some(*f),
            N::Text(t) => t.parse::<f64>().ok().filter(|f| f.is_finite()),
        }
    }

    /// Whether [`as_i64`](Number::as_i64) gives a value.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether [`as_u64`](Number::as_u64) gives a value.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// Whether the number is held as an `f64`: it was written with a fraction or an exponent
    /// (within `f64`'s range), was `-0`, or was made from an `f64`.
    pub fn is_f64(&self) -> bool {
        matches!(self.n, N::Float(_))
    }

    /// Whether the value is a whole number, however it was written: `3`, `3.0`, `1e2` and
    /// `123456789012345678901` are; `3.5` and `1e-400` are not. This is JSON Schema's
    /// `integer`.
    pub fn is_integer(&self) -> bool {
        match &self.n {
            N::PosInt(_) | N::NegInt(_) => true,
            N::Float(f) => f.fract() == 0.0,
            N::Text(t) => Decimal::new(t).is_integer(),
        }
    }

    /// Formats an integer or a double into `buf` and returns the length (the writer stages
    /// the text of numbers); `None` for numbers kept as text, which
    /// [`write_to`](Number::write_to) appends directly.
    pub(crate) fn format(&self, buf: &mut [u8; BUF_LEN]) -> Option<usize> {
        match &self.n {
            N::PosInt(u) => Some(format_u64(*u, buf)),
            N::NegInt(i) => Some(format_i64(*i, buf)),
            N::Float(f) => Some(format_f64(*f, buf)),
            N::Text(_) => None,
        }
    }

    /// The double, when the number is held as one (runs of doubles take the writer's fast
    /// path); `None` for integers and numbers kept as text.
    pub(crate) fn as_double(&self) -> Option<f64> {
        match self.n {
            N::Float(f) => Some(f),
            _ => None,
        }
    }

    /// Appends the number as JSON.
    pub(crate) fn write_to(&self, out: &mut String) {
        match &self.n {
            N::PosInt(u) => write_u64(out, *u),
            N::NegInt(i) => write_i64(out, *i),
            N::Float(f) => write_f64(out, *f),
            N::Text(t) => out.push_str(t),
        }
    }
}

/// `f` as an integer when it is whole and within ±2^64 (so the conversion is exact).
fn float_to_i128(f: f64) -> Option<i128> {
    const LIMIT: f64 = 18_446_744_073_709_551_616.0; // 2^64
    if f.fract() == 0.0 && f.abs() < LIMIT {
        Some(f as i128)
    } else {
        None
    }
}

/// A number kept as text, taken apart so that equal values written differently (`1e400`,
/// `1E+400`, `10e399`, `1.0e400`) compare equal: value = ± `digits` × 10^`exponent`.
#[derive(PartialEq)]
struct Decimal {
    negative: bool,
    /// The significant digits: no leading or trailing zeros (empty for zero).
    digits: String,
    exponent: Exponent,
}

#[derive(PartialEq)]
enum Exponent {
    /// The power of ten of the last significant digit.
    Exact(i128),
    /// An exponent beyond `i128` (more than 38 digits), known only by its sign.
    Huge { negative: bool },
}

impl Decimal {
    /// Takes apart `text`, which follows JSON's number grammar (the parser checked it).
    fn new(text: &str) -> Decimal {
        let (negative, unsigned) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exp_text) = unsigned.split_once(['e', 'E']).unwrap_or((unsigned, "0"));
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all: String = whole.chars().chain(fraction.chars()).collect();
        let without_trailing = all.trim_end_matches('0');
        let trailing_zeros = all.len() - without_trailing.len();
        let digits = without_trailing.trim_start_matches('0').to_owned();
        // Each trailing zero dropped raises the power by one; each fraction digit lowers it.
        let shift = trailing_zeros as i128 - fraction.len() as i128;
        let exponent = match parse_exponent(exp_text) {
            _ if digits.is_empty() => Exponent::Exact(0),
            Ok(e) => match e.checked_add(shift) {
                Some(e) => Exponent::Exact(e),
                None => Exponent::Huge { negative: e < 0 },
            },
            Err(negative) => Exponent::Huge { negative },
        };
        Decimal {
            negative,
            digits,
            exponent,
        }
    }

    fn is_integer(&self) -> bool {
        match self.exponent {
            _ if self.digits.is_empty() => true,
            Exponent::Exact(e) => e >= 0,
            Exponent::Huge { negative } => !negative,
        }
    }
}

/// The exponent digits of a number (`+12`, `-007`, `400`) as an `i128`, or `Err(negative)`
/// when there are too many digits for one.
fn parse_exponent(text: &str) -> Result<i128, bool> {
    let negative = text.starts_with('-');
    let digits = text.trim_start_matches(['+', '-']);
    let digits = digits.trim_start_matches('0');
    if digits.len() > 38 {
        return Err(negative);
    }
    // At most 38 digits: under `i128::MAX` (about 1.7e38), so no step can overflow. A loop
    // rather than `str::parse`, which compiles the standard integer parser for `i128`.
    let mut magnitude: i128 = 0;
    for digit in digits.bytes() {
        if !digit.is_ascii_digit() {
            return Err(negative);
        }
        magnitude = magnitude * 10 + i128::from(digit - b'0');
    }
    Ok(if negative { -magnitude } else { magnitude })
}

/// Equality of two numbers kept as text: by value, except that two exponents beyond `i128`
/// compare by their text.
fn text_eq(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (x, y) = (Decimal::new(a), Decimal::new(b));
    match (&x.exponent, &y.exponent) {
        (Exponent::Exact(_), Exponent::Exact(_)) => x == y,
        _ => false,
    }
}

impl Eq for N {}

impl PartialEq for N {
    fn eq(&self, other: &N) -> bool {
        match (self, other) {
            (N::PosInt(a), N::PosInt(b)) => a == b,
            (N::NegInt(a), N::NegInt(b)) => a == b,
            (N::Float(a), N::Float(b)) => a == b,
            (N::Text(a), N::Text(b)) => text_eq(a, b),
            (N::PosInt(i), N::Float(f)) | (N::Float(f), N::PosInt(i)) => {
                float_to_i128(*f) == Some(i128::from(*i))
            }
            (N::NegInt(i), N::Float(f)) | (N::Float(f), N::NegInt(i)) => {
                float_to_i128(*f) == Some(i128::from(*i))
            }
            _ => false,
        }
    }
}

impl fmt::Display for Number {
    /// Writes the number as JSON (see the table on [`Number`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_to(&mut s);
        f.write_str(&s)
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({self})")
    }
}

macro_rules! from_unsigned {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Number {
                Number { n: N::PosInt(n as u64) }
            }
        }
    )*};
}

macro_rules! from_signed {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Number {
                let n = n as i64;
                if n < 0 {
                    Number { n: N::NegInt(n) }
                } else {
                    Number { n: N::PosInt(n as u64) }
                }
            }
        }
    )*};
}

from_unsigned!(u8 u16 u32 u64 usize);
from_signed!(i8 i16 i32 i64 isize);

impl Number {
    /// The number for a parsed integer: `negative` and the magnitude `w`; `None` when it does
    /// not fit (the caller keeps the text).
    pub(crate) fn from_parts(negative: bool, w: u64) -> Option<Number> {
        if !negative {
            return Some(Number { n: N::PosInt(w) });
        }
        if w == 0 {
            return Some(Number { n: N::Float(-0.0) });
        }
        let magnitude = i128::from(w);
        i64::try_from(-magnitude)
            .ok()
            .map(|i| Number { n: N::NegInt(i) })
    }

    pub(crate) fn from_finite(f: f64) -> Number {
        Number { n: N::Float(f) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(text: &str) -> Number {
        text.parse().unwrap()
    }

    #[test]
    fn holds_and_writes_back() {
        let table: &[(&str, &str, &str)] = &[
            ("i64", "-3", "-3"),
            ("i64 min", "-9223372036854775808", "-9223372036854775808"),
            (
                "below i64 min",
                "-9223372036854775809",
                "-9223372036854775809",
            ),
            ("u64 max", "18446744073709551615", "18446744073709551615"),
            (
                "above u64 max",
                "18446744073709551616",
                "18446744073709551616",
            ),
            (
                "20-digit id",
                "12345678901234567890",
                "12345678901234567890",
            ),
            ("fraction", "2.50", "2.5"),
            ("exponent", "1E300", "1e300"),
            ("whole float", "1.0", "1.0"),
            ("minus zero", "-0", "-0.0"),
            ("minus zero float", "-0.0", "-0.0"),
            ("overflow", "1e400", "1e400"),
            ("negative overflow", "-1.5E+400", "-1.5E+400"),
            ("underflow", "1e-400", "1e-400"),
            ("zero underflow stays zero", "0e-400", "0.0"),
            ("inexact", "1.000000000000000005", "1.0"),
            ("subnormal", "5e-324", "5e-324"),
        ];
        for &(name, text, written) in table {
            assert_eq!(num(text).to_string(), written, "{name}");
        }
    }

    #[test]
    fn conversions() {
        assert_eq!(num("3").as_i64(), Some(3));
        assert_eq!(num("3.0").as_i64(), Some(3));
        assert_eq!(num("3e0").as_u64(), Some(3));
        assert_eq!(num("3.5").as_i64(), None);
        assert_eq!(num("-1").as_u64(), None);
        assert_eq!(num("18446744073709551615").as_i64(), None);
        assert_eq!(num("1e20").as_u64(), None);
        assert_eq!(num("1e400").as_f64(), None);
        assert_eq!(num("1e-400").as_f64(), Some(0.0));
        assert_eq!(
            num("123456789012345678901").as_f64(),
            Some(1.2345678901234568e20)
        );
        assert!(num("1.5").is_f64() && !num("1").is_f64());
        assert!(num("1").is_i64() && num("1").is_u64() && !num("-1").is_u64());
    }

    #[test]
    fn is_integer() {
        let table: &[(&str, bool)] = &[
            ("3", true),
            ("3.0", true),
            ("1e2", true),
            ("3.5", false),
            ("123456789012345678901", true),
            ("1e400", true),
            ("1.5e400", true),
            ("1e-400", false),
            ("1.50e1", true),
            ("1.55e1", false),
            ("1.5e99999999999999999999", true),
            ("1.5e-99999999999999999999", false),
        ];
        for &(text, whole) in table {
            assert_eq!(num(text).is_integer(), whole, "{text}");
        }
    }

    #[test]
    fn equality_by_value() {
        assert_eq!(num("1"), num("1.0"));
        assert_eq!(num("1.0"), num("1e0"));
        assert_eq!(num("-0.0"), num("0"));
        assert_ne!(num("1"), num("1.5"));
        assert_ne!(num("-1"), num("1"));
        assert_eq!(Number::from(-5i8), num("-5"));
        assert_eq!(Number::from(7usize), num("7"));
    }

    #[test]
    fn numbers_kept_as_text_compare_by_value() {
        let table: &[(&str, &str, bool)] = &[
            ("1e400", "1e400", true),
            ("1e400", "1E400", true),
            ("1e400", "1E+400", true),
            ("1e400", "10e399", true),
            ("1e400", "1.0e400", true),
            ("1e400", "0.1e401", true),
            ("1e400", "1e401", false),
            ("1e400", "-1e400", false),
            ("1e400", "2e400", false),
            ("-1.5e-400", "-15e-401", true),
            ("-1.5e-400", "-1.50e-400", true),
            ("123456789012345678901", "1.23456789012345678901e20", true),
            ("123456789012345678901", "123456789012345678902", false),
            (
                "1e99999999999999999999999999999999999999999",
                "1e99999999999999999999999999999999999999999",
                true,
            ),
            (
                "1e99999999999999999999999999999999999999999",
                "10e99999999999999999999999999999999999999998",
                false,
            ),
        ];
        for &(a, b, equal) in table {
            assert_eq!(text_eq(a, b), equal, "{a} == {b}");
            assert_eq!(text_eq(b, a), equal, "{b} == {a}");
        }
        assert_eq!(num("1e400"), num("10E399"));
        assert_ne!(num("18446744073709551616"), Number::from(u64::MAX));
    }

    #[test]
    fn from_str_refuses_what_json_refuses() {
        for text in [
            "", "+1", ".5", "01", "1.", "1e", "-", "NaN", "1 ", " 1", "0x10", "\"1\"",
        ] {
            assert!(text.parse::<Number>().is_err(), "{text:?}");
        }
        assert_eq!(
            "true".parse::<Number>().unwrap_err().to_string(),
            "expected a number at 1:1"
        );
        assert_eq!(
            "1 ".parse::<Number>().unwrap_err().to_string(),
            "expected end of input after the value at 1:2"
        );
    }

    #[test]
    fn from_f64_refuses_non_finite() {
        assert!(Number::from_f64(f64::INFINITY).is_none());
        assert!(Number::from_f64(f64::NEG_INFINITY).is_none());
        assert_eq!(Number::from_f64(-0.0).unwrap().to_string(), "-0.0");
    }
}
