//! Binary to decimal: integers, and finite doubles in their shortest round-trip form.
//!
//! The shortest digits come from Schubfach (Raffaello Giulietti, "The Schubfach way to render
//! doubles", 2020): scale the rounding interval of the double by a 128-bit upper approximation
//! of a power of ten, then pick the shortest decimal inside the interval, the closest one when
//! several are equally short. A test compares the digits with the standard library's `{:e}`
//! (also shortest and closest) on many random bit patterns.

use super::pow5::{floor_log2_pow10, pow5};

/// "00" to "99", so two digits are written per division.
const DIGIT_PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Room for any u64 (20 digits) or any formatted double (at most 24 bytes).
pub(crate) const BUF_LEN: usize = 32;

/// Writes the decimal digits of `n` to the end of `buf`; returns the index of the first one.
fn digits_into(mut n: u64, buf: &mut [u8; BUF_LEN]) -> usize {
    let mut i = BUF_LEN;
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        i -= 2;
        buf[i] = DIGIT_PAIRS[pair];
        buf[i + 1] = DIGIT_PAIRS[pair + 1];
    }
    if n >= 10 {
        let pair = n as usize * 2;
        i -= 2;
        buf[i] = DIGIT_PAIRS[pair];
        buf[i + 1] = DIGIT_PAIRS[pair + 1];
    } else {
        i -= 1;
        buf[i] = b'0' + n as u8;
    }
    i
}

/// Appends ASCII bytes (digits, '-', '.', 'e') to `out`.
fn push_ascii(out: &mut String, bytes: &[u8]) {
    // The bytes are ASCII by construction, so this never takes the error branch.
    if let Ok(s) = std::str::from_utf8(bytes) {
        out.push_str(s);
    }
}

/// Appends `n` in decimal.
pub(crate) fn write_u64(out: &mut String, n: u64) {
    let mut buf = [0u8; BUF_LEN];
    let start = digits_into(n, &mut buf);
    push_ascii(out, &buf[start..]);
}

/// Appends `n` in decimal.
pub(crate) fn write_i64(out: &mut String, n: i64) {
    let mut buf = [0u8; BUF_LEN];
    let mut start = digits_into(n.unsigned_abs(), &mut buf);
    if n < 0 {
        start -= 1;
        buf[start] = b'-';
    }
    push_ascii(out, &buf[start..]);
}

/// Appends a finite `f` in its shortest round-trip form: `0.1`, `1.0`, `-0.0`, `1e300`,
/// `1.5e-7`, `123456.789`. Plain notation is used when the decimal point falls within
/// 16 digits to the left or 5 to the right of the first digit; otherwise exponent notation.
/// A whole number keeps `.0`, so the text reads back as a float.
pub(crate) fn write_f64(out: &mut String, f: f64) {
    let mut buf = [0u8; BUF_LEN];
    let len = format_f64(f, &mut buf);
    push_ascii(out, &buf[..len]);
}

/// Formats a finite `f` into `buf`, returning the length.
fn format_f64(f: f64, buf: &mut [u8; BUF_LEN]) -> usize {
    let mut len = 0;
    if f.is_sign_negative() {
        buf[0] = b'-';
        len = 1;
    }
    if f == 0.0 {
        buf[len..len + 3].copy_from_slice(b"0.0");
        return len + 3;
    }
    let (mut digits, mut exp) = shortest(f.abs());
    while digits % 10 == 0 {
        digits /= 10;
        exp += 1;
    }
    let mut tmp = [0u8; BUF_LEN];
    let start = digits_into(digits, &mut tmp);
    let d = &tmp[start..];
    let n = d.len() as i32;
    // value = 0.d1d2...dn * 10^point
    let point = n + exp;
    let mut put = |bytes: &[u8]| {
        buf[len..len + bytes.len()].copy_from_slice(bytes);
        len += bytes.len();
    };
    if 0 < point && point <= 16 {
        let p = point as usize;
        if p >= d.len() {
            put(d);
            for _ in d.len()..p {
                put(b"0");
            }
            put(b".0");
        } else {
            put(&d[..p]);
            put(b".");
            put(&d[p..]);
        }
    } else if -5 < point && point <= 0 {
        put(b"0.");
        for _ in point..0 {
            put(b"0");
        }
        put(d);
    } else {
        put(&d[..1]);
        if d.len() > 1 {
            put(b".");
            put(&d[1..]);
        }
        put(b"e");
        let e = point - 1;
        if e < 0 {
            put(b"-");
        }
        let mut ebuf = [0u8; BUF_LEN];
        let estart = digits_into(u64::from(e.unsigned_abs()), &mut ebuf);
        put(&ebuf[estart..]);
    }
    len
}

/// The shortest `(digits, exponent)` with `digits * 10^exponent` rounding to `f`, the closest
/// to `f` among equally short candidates. `f` must be finite and positive.
pub(crate) fn shortest(f: f64) -> (u64, i32) {
    let bits = f.to_bits();
    let fraction = bits & ((1 << 52) - 1);
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let (c, q) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    };
    // Whole numbers below 2^53 are their own shortest form.
    if biased != 0 && (-52..=0).contains(&q) && c.trailing_zeros() >= q.unsigned_abs() {
        return (c >> q.unsigned_abs(), 0);
    }

    // The rounding interval [cbl, cbr] around cb, in units of 2^(q-2).
    let even = c & 1 == 0;
    let closer_below = fraction == 0 && biased > 1;
    let cb = 4 * c;
    let cbl = cb - 2 + u64::from(closer_below);
    let cbr = cb + 2;

    // k = floor(log10(2^q)), or floor(log10(3/4 * 2^q)) when the lower bound is closer.
    let k = (q * 1_262_611 - if closer_below { 524_031 } else { 0 }) >> 22;
    let h = q + floor_log2_pow10(-k) + 1;
    // 10^-k rounded up: the truncated table entry plus one unit.
    let (hi, lo) = pow5(-k).unwrap_or((u64::MAX, u64::MAX));
    let (lo, carry) = lo.overflowing_add(1);
    let g = (hi + u64::from(carry), lo);

    let vbl = round_to_odd(g, cbl << h);
    let vb = round_to_odd(g, cb << h);
    let vbr = round_to_odd(g, cbr << h);
    let lower = vbl + u64::from(!even);
    let upper = vbr - u64::from(!even);

    // One digit fewer, if an endpoint of that coarser grid lies in the interval.
    let s = vb / 4;
    if s >= 10 {
        let sp = s / 10;
        let up_inside = lower <= 40 * sp;
        let wp_inside = 40 * sp + 40 <= upper;
        if up_inside != wp_inside {
            return (sp + u64::from(wp_inside), k + 1);
        }
    }
    let u_inside = lower <= 4 * s;
    let w_inside = 4 * s + 4 <= upper;
    if u_inside != w_inside {
        return (s + u64::from(w_inside), k);
    }
    // Both or neither neighbour is inside: take the closer one, ties to even.
    let mid = 4 * s + 2;
    let round_up = vb > mid || (vb == mid && s & 1 == 1);
    (s + u64::from(round_up), k)
}

/// The top 64 bits of `g * cp / 2^64`, with the lowest bit set when bits were dropped (so the
/// result can be compared exactly with interval bounds).
fn round_to_odd(g: (u64, u64), cp: u64) -> u64 {
    let x = ((u128::from(g.1) * u128::from(cp)) >> 64) as u64;
    let y = u128::from(g.0) * u128::from(cp);
    let (z, carry) = (y as u64).overflowing_add(x);
    let y1 = ((y >> 64) as u64) + u64::from(carry);
    // g overestimates 10^-k by under one unit, which adds less than one unit to z: a fraction
    // of 0 or 1 means the exact product was a whole number.
    y1 | u64::from(z > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    fn fmt(f: f64) -> String {
        let mut s = String::new();
        write_f64(&mut s, f);
        s
    }

    /// std's `{:e}` gives the shortest, closest digits too: compare digits and exponent.
    fn check_shortest(f: f64) {
        let (digits, exp) = shortest(f);
        let mut d = digits;
        let mut e = exp;
        while d % 10 == 0 {
            d /= 10;
            e += 1;
        }
        let ours = d.to_string();
        let theirs = format!("{f:e}");
        let (mantissa, texp) = theirs.split_once('e').unwrap();
        let tdigits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        let texp: i32 = texp.parse().unwrap();
        let ours_sci_exp = e + ours.len() as i32 - 1;
        if ours != tdigits && ours.len() == tdigits.len() && ours_sci_exp == texp {
            // Two candidates equally close to f: std rounds the tie up, Schubfach to even.
            // Accept only a true tie: f's exact expansion ends in the digit 5 between them.
            let (a, b) = if ours < tdigits {
                (&ours, &tdigits)
            } else {
                (&tdigits, &ours)
            };
            let exact = format!("{f:.60e}");
            let exact: String = exact.split('e').next().unwrap().replace('.', "");
            let exact = exact.trim_end_matches('0');
            assert_eq!(
                b.parse::<u64>().unwrap() - a.parse::<u64>().unwrap(),
                1,
                "{f:e}"
            );
            assert_eq!(exact, format!("{a}5"), "not a tie: {f:e}");
            return;
        }
        assert_eq!(
            (ours.as_str(), ours_sci_exp),
            (tdigits.as_str(), texp),
            "{f:e}"
        );
    }

    #[test]
    fn shortest_matches_std_on_random_bit_patterns() {
        let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
        for _ in 0..200_000 {
            let f = f64::from_bits(rng.next() & 0x7FFF_FFFF_FFFF_FFFF);
            if f.is_finite() && f != 0.0 {
                check_shortest(f);
                assert_eq!(fmt(f).parse::<f64>().unwrap(), f);
            }
        }
    }

    #[test]
    fn shortest_matches_std_on_edge_cases() {
        let mut cases = vec![
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::EPSILON,
            5e-324,
            1e-323,
            f64::from_bits(0x000F_FFFF_FFFF_FFFF), // the largest subnormal
            0.1,
            0.3,
            1.0 / 3.0,
            9007199254740993.0,
            123456789012345680000.0,
        ];
        // Powers of two (the closer lower bound), powers of ten, and their neighbours.
        for e in -1074..=1023 {
            cases.push(2f64.powi(e));
        }
        for e in -323..=308 {
            cases.push(format!("1e{e}").parse().unwrap());
        }
        for bits in 1..2000u64 {
            cases.push(f64::from_bits(bits));
            cases.push(f64::from_bits(0x7FEF_FFFF_FFFF_FFFF - bits));
        }
        for f in cases {
            let bits = f.to_bits();
            for g in [
                f,
                f64::from_bits(bits + 1),
                f64::from_bits(bits.saturating_sub(1)),
            ] {
                if g.is_finite() && g > 0.0 {
                    check_shortest(g);
                }
            }
        }
    }

    #[test]
    fn layout() {
        let table: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
            (1e300, "1e300"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (0.00001, "0.00001"),
            (0.000001, "1e-6"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e16"),
            (123456.789, "123456.789"),
            (-65.613_616_999_999_98, "-65.61361699999998"),
            (f64::MAX, "1.7976931348623157e308"),
            (5e-324, "5e-324"),
            (9007199254740992.0, "9007199254740992.0"),
            (1.2345678901234568e20, "1.2345678901234568e20"),
        ];
        for &(f, text) in table {
            assert_eq!(fmt(f), text, "{f:e}");
        }
    }

    #[test]
    fn integers() {
        for &n in &[0u64, 9, 10, 99, 100, 12345, u64::MAX] {
            let mut s = String::new();
            write_u64(&mut s, n);
            assert_eq!(s, n.to_string());
        }
        for &n in &[0i64, -1, -10, 42, i64::MIN, i64::MAX] {
            let mut s = String::new();
            write_i64(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }
}
