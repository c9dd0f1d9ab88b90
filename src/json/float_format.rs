//! Binary to decimal: integers, and finite doubles in their shortest round-trip form.
//!
//! Integers are appended to a `String` left to right, two digits at a time from a table of
//! text. Doubles are formatted into a byte buffer (the writer's staging area), which only
//! ever holds ASCII.
//!
//! The shortest digits come from Schubfach (Raffaello Giulietti, "The Schubfach way to render
//! doubles", 2020): scale the rounding interval of the double by a 128-bit upper approximation
//! of a power of ten, then pick the shortest decimal inside the interval, the closest one when
//! several are equally short. A test compares the digits with the standard library's `{:e}`
//! (also shortest and closest) on many random bit patterns.

use super::pow5::{floor_log2_pow10, pow5};

/// The size of the buffers doubles are formatted into: the longest is 24 bytes
/// (`-1.2345678901234567e-308`), and the layout of whole doubles writes up to 16 zeros past
/// the digits before it cuts them to length.
pub(crate) const BUF_LEN: usize = 40;

/// Powers of ten that fit u64.
const POW10: [u64; 20] = {
    let mut table = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// `(d / 10^k, d % 10^k)` for `d < 2^57` (every shortest-digits value: at most 17 digits)
/// and `k <= 17`, by multiplying with a rounded-up reciprocal: a hardware division costs
/// several times more on common CPUs.
///
/// With `S = 57 + bits(10^k)` and `M = 2^S / 10^k + e` (rounded up, so `0 < e <= 1`),
/// `d * M / 2^S = d / 10^k + d * e / 2^S`, and the error term is below
/// `2^57 / 2^S = 2^-bits(10^k) < 10^-k`. The fraction of `d / 10^k` is at most `1 - 10^-k`,
/// so the error never reaches the next integer and the floor is exact (a test checks the
/// boundaries).
fn div_pow10(d: u64, k: usize) -> (u64, u64) {
    let (m, shift) = RECIPROCALS[k];
    let q = ((u128::from(d) * u128::from(m)) >> shift) as u64;
    (q, d - q * POW10[k])
}

/// `(ceil(2^S / 10^k), S)` for `k` in 0..=17, `S = 57 + bits(10^k)`.
const RECIPROCALS: [(u64, u32); 18] = {
    let mut table = [(0u64, 0u32); 18];
    let mut k = 0;
    while k < 18 {
        let p = POW10[k];
        let shift = 57 + (64 - p.leading_zeros());
        table[k] = (((1u128 << shift) / p as u128) as u64 + 1, shift);
        k += 1;
    }
    table
};

/// The number of decimal digits of `n` (1 for 0).
fn digit_count(n: u64) -> usize {
    // log10(2) ~ 1233 / 4096 gives the count or one less.
    let bits = 64 - n.leading_zeros() as usize;
    let guess = (bits * 1233) >> 12;
    let count = guess + usize::from(n >= POW10[guess]);
    count.max(1)
}

/// "00", "01", ..., "99": writing two digits at a time halves the divisions. As text, so
/// pairs can go to a `String` without a UTF-8 check.
const PAIRS_STR: &str = "\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// [`PAIRS_STR`] as bytes, for formatting into buffers.
const PAIRS: &[u8] = PAIRS_STR.as_bytes();

/// Writes the two digits of `v < 100` at `pos`.
#[inline]
fn put2(buf: &mut [u8; BUF_LEN], pos: usize, v: u32) {
    let i = v as usize * 2;
    if let (Some(dst), Some(src)) = (buf.get_mut(pos..pos + 2), PAIRS.get(i..i + 2)) {
        dst.copy_from_slice(src);
    }
}

/// Writes the eight digits of `v < 10^8` at `pos`.
#[inline]
fn put8(buf: &mut [u8; BUF_LEN], pos: usize, v: u32) {
    let (high, low) = (v / 10_000, v % 10_000);
    put2(buf, pos, high / 100);
    put2(buf, pos + 2, high % 100);
    put2(buf, pos + 4, low / 100);
    put2(buf, pos + 6, low % 100);
}

/// Writes the lowest `count` decimal digits of `n` at `pos` (with leading zeros if `n` is
/// shorter), from the right: eight digits a step while that many are left (one 64-bit
/// division), then two at a time in 32-bit arithmetic. Returns the end position.
fn put_digits(buf: &mut [u8; BUF_LEN], pos: usize, n: u64, count: usize) -> usize {
    const E8: u64 = 100_000_000;
    let end = pos + count;
    let (mut n, mut at) = (n, end);
    while at >= pos + 8 {
        at -= 8;
        put8(buf, at, (n % E8) as u32);
        n /= E8;
    }
    // Fewer than eight digits are left, so the rest of `n` fits in 32 bits.
    let mut v = (n % E8) as u32;
    while at >= pos + 2 {
        at -= 2;
        put2(buf, at, v % 100);
        v /= 100;
    }
    if at > pos {
        if let Some(digit) = buf.get_mut(pos) {
            *digit = b'0' + (v % 10) as u8;
        }
    }
    end
}

/// Appends ASCII bytes (digits, '-', '.', 'e') to `out`.
pub(crate) fn push_ascii(out: &mut String, bytes: &[u8]) {
    if bytes.len() <= 16 {
        // A few bytes (punctuation after a number) go faster one by one than through a
        // UTF-8 check and a copy call.
        out.extend(bytes.iter().map(|&b| char::from(b)));
        return;
    }
    // The bytes are ASCII by construction, so this never takes the error branch.
    if let Ok(s) = std::str::from_utf8(bytes) {
        out.push_str(s);
    }
}

/// Formats a finite `f` into `buf` in its shortest round-trip form, returning the length:
/// `0.1`, `1.0`, `-0.0`, `1e300`, `1.5e-7`, `123456.789`. Plain notation is used when the
/// decimal point falls within 16 digits to the left or 5 to the right of the first digit;
/// otherwise exponent notation. A whole number keeps `.0`, so the text reads back as a float.
pub(crate) fn format_f64(f: f64, buf: &mut [u8; BUF_LEN]) -> usize {
    buf[0] = b'-';
    let pos = usize::from(f.is_sign_negative());
    if f == 0.0 {
        buf[pos..pos + 3].copy_from_slice(b"0.0");
        return pos + 3;
    }
    let (mut digits, mut exp) = shortest(f.abs());
    while digits % 10 == 0 {
        digits /= 10;
        exp += 1;
    }
    let n = digit_count(digits);
    // value = 0.d1d2...dn * 10^point, with n <= 17
    let point = n as i32 + exp;
    if 0 < point && point <= 16 {
        let p = point as usize;
        if p >= n {
            // Whole: the digits, zeros up to the point, ".0".
            let end = put_digits(buf, pos, digits, n);
            buf[end..end + 16].copy_from_slice(&[b'0'; 16]);
            buf[pos + p..pos + p + 2].copy_from_slice(b".0");
            return pos + p + 2;
        }
        let (whole, fraction) = div_pow10(digits, n - p);
        let end = put_digits(buf, pos, whole, p);
        buf[end] = b'.';
        return put_digits(buf, end + 1, fraction, n - p);
    }
    if -5 < point && point <= 0 {
        // "0." and up to four zeros, then the digits.
        buf[pos..pos + 8].copy_from_slice(b"0.000000");
        return put_digits(buf, pos + 2 + point.unsigned_abs() as usize, digits, n);
    }
    // d1[.d2...dn]e[-]x
    let (first, rest) = div_pow10(digits, n - 1);
    buf[pos] = b'0' + first as u8;
    let mut end = pos + 1;
    if n > 1 {
        buf[end] = b'.';
        end = put_digits(buf, end + 1, rest, n - 1);
    }
    buf[end] = b'e';
    buf[end + 1] = b'-';
    let e = point - 1;
    end += 1 + usize::from(e < 0);
    let e = u64::from(e.unsigned_abs());
    put_digits(buf, end, e, digit_count(e))
}

/// Appends `n` in decimal, left to right, two digits at a time straight from the table:
/// no buffer to copy out of, and no UTF-8 check (integers between keys and strings).
pub(crate) fn write_u64(out: &mut String, n: u64) {
    const E8: u64 = 100_000_000;
    if n < E8 {
        push_head(out, n as u32);
        return;
    }
    let (high, low) = (n / E8, (n % E8) as u32);
    if high < E8 {
        push_head(out, high as u32);
    } else {
        push_head(out, (high / E8) as u32);
        push8(out, (high % E8) as u32);
    }
    push8(out, low);
}

/// Appends the two digits of `v < 100`.
#[inline]
fn push_pair(out: &mut String, v: u32) {
    let i = v as usize * 2;
    out.push_str(PAIRS_STR.get(i..i + 2).unwrap_or_default());
}

/// Appends the digit `v < 10`.
#[inline]
fn push_digit(out: &mut String, v: u32) {
    out.push(char::from(b'0' + (v % 10) as u8));
}

/// Appends `v < 10^8` without leading zeros (`0` for zero).
fn push_head(out: &mut String, v: u32) {
    match v {
        0..=9 => push_digit(out, v),
        10..=99 => push_pair(out, v),
        100..=999 => {
            push_digit(out, v / 100);
            push_pair(out, v % 100);
        }
        1_000..=9_999 => {
            push_pair(out, v / 100);
            push_pair(out, v % 100);
        }
        10_000..=99_999 => {
            push_digit(out, v / 10_000);
            push_four(out, v % 10_000);
        }
        100_000..=999_999 => {
            push_pair(out, v / 10_000);
            push_four(out, v % 10_000);
        }
        1_000_000..=9_999_999 => {
            push_digit(out, v / 1_000_000);
            push_pair(out, v / 10_000 % 100);
            push_four(out, v % 10_000);
        }
        _ => push8(out, v),
    }
}

/// Appends exactly four digits of `v < 10^4`.
#[inline]
fn push_four(out: &mut String, v: u32) {
    push_pair(out, v / 100);
    push_pair(out, v % 100);
}

/// Appends exactly eight digits of `v < 10^8`.
fn push8(out: &mut String, v: u32) {
    push_four(out, v / 10_000);
    push_four(out, v % 10_000);
}

/// Appends `n` in decimal (see [`write_u64`]).
pub(crate) fn write_i64(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    write_u64(out, n.unsigned_abs());
}

/// Appends a finite `f` in its shortest round-trip form (see [`format_f64`]).
pub(crate) fn write_f64(out: &mut String, f: f64) {
    let mut buf = [0u8; BUF_LEN];
    let len = format_f64(f, &mut buf);
    push_ascii(out, &buf[..len]);
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

    // One digit fewer, if an endpoint of that coarser grid lies in the interval; otherwise
    // the one of s and s + 1 inside, or the closer if both are (ties to even). Both answers
    // are computed and one is selected without branching: which one wins is as good as
    // random, and a mispredicted branch costs more than the arithmetic.
    let s = vb / 4;
    let sp = s / 10;
    let up_inside = lower <= 40 * sp;
    let wp_inside = 40 * sp + 40 <= upper;
    let shorter = s >= 10 && up_inside != wp_inside;
    let u_inside = lower <= 4 * s;
    let w_inside = 4 * s + 4 <= upper;
    let mid = 4 * s + 2;
    let closer_up = vb > mid || (vb == mid && s & 1 == 1);
    let up = (u_inside != w_inside && w_inside) || (u_inside == w_inside && closer_up);
    let long = s + u64::from(up);
    let short = sp + u64::from(wp_inside);
    let pick_short = u64::from(shorter).wrapping_neg();
    (
        (short & pick_short) | (long & !pick_short),
        k + i32::from(shorter),
    )
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
    fn reciprocal_division_is_exact() {
        let mut rng = Rng(42);
        for k in 0..18 {
            let p = 10u64.pow(k as u32);
            let limit = 1u64 << 57;
            // Around every multiple boundary near the top of the range, and at random.
            let mut cases: Vec<u64> = (0..2000).map(|_| rng.next() % limit).collect();
            for m in [1, 2, 3, limit / p - 1, limit / p] {
                let base = m.saturating_mul(p);
                cases.extend(
                    [base.saturating_sub(1), base, base + 1]
                        .iter()
                        .filter(|&&d| d < limit),
                );
            }
            cases.push(limit - 1);
            for d in cases {
                assert_eq!(div_pow10(d, k), (d / p, d % p), "{d} / 10^{k}");
            }
        }
    }

    #[test]
    fn integers() {
        let mut cases = vec![0u64, 9, 10, 99, 100, 12345, u64::MAX];
        cases.extend((0..20).map(|e| 10u64.pow(e)));
        cases.extend((1..20).map(|e| 10u64.pow(e) - 1));
        for n in cases {
            let mut s = String::new();
            write_u64(&mut s, n);
            assert_eq!(s, n.to_string());
        }
        for n in [
            0i64,
            -1,
            -10,
            42,
            i64::MIN,
            i64::MAX,
            -100_000_000,
            123_456_789,
        ] {
            let mut s = String::new();
            write_i64(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }
}
