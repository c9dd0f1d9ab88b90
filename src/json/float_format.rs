//! Binary to decimal: integers, and finite doubles in their shortest round-trip form.
//!
//! Numbers are formatted into byte buffers (the writer's staging area, which only ever holds
//! ASCII), eight digits at a time in the bytes of a u64 (SWAR): no digit table, no division.
//!
//! The shortest digits come from Schubfach (Raffaello Giulietti, "The Schubfach way to render
//! doubles", 2020): scale the rounding interval of the double by a 128-bit upper approximation
//! of a power of ten, then pick the shortest decimal inside the interval, the closest one when
//! several are equally short. Nearly all doubles take a shortcut with one product instead of
//! Schubfach's three ([`shortest_fast`] says why it gives the same answer, and when it does not
//! answer). Tests compare the digits with the standard library's `{:e}` (also shortest and
//! closest) and the shortcut with Schubfach, on many random bit patterns and edge cases.
//!
//! Formatting is throughput-bound (a few instructions a cycle, no data-dependent branch to
//! mispredict), so the instruction count is the measure. Per double of canada.json, counted
//! with callgrind: `format_f64` about 200 instructions, the shortcut about 70 of them, where
//! Schubfach with the previous digit writing took about 360; the whole `to_string` about 270
//! a double where it took 475.

use super::pow5::{floor_log2_pow10, pow5};

/// The size of the buffers doubles are formatted into: the longest text is 24 bytes
/// (`-1.2345678901234567e-308`), and the layouts store all seventeen digits in 8-byte words
/// (up to byte 24 for `-0.00001234...`) before the length cuts the zeros off.
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

/// The number of decimal digits of `n` (1 for 0).
fn digit_count(n: u64) -> usize {
    // log10(2) ~ 1233 / 4096 gives the count or one less.
    let bits = 64 - n.leading_zeros() as usize;
    let guess = (bits * 1233) >> 12;
    let count = guess + usize::from(n >= POW10[guess]);
    count.max(1)
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
///
/// The digits are always written as seventeen (the first one, then sixteen as two 8-byte
/// words), padded with zeros on the right; the length returned cuts the zeros that are not
/// wanted. Where the text goes depends only on the position of the decimal point, so real
/// data, whose digit counts vary from one number to the next, takes no branch that could be
/// mispredicted on the common plain layout.
pub(crate) fn format_f64(f: f64, buf: &mut [u8; BUF_LEN]) -> usize {
    const E16: u64 = 10_000_000_000_000_000;
    buf[0] = b'-';
    let pos = usize::from(f.is_sign_negative());
    // The digits left-aligned to seventeen (in [10^16, 10^17)) and the decimal point's
    // position: value = 0.d1d2...d17 * 10^point.
    let (aligned, point) = match shortest_fast(f.abs()) {
        // 16 or 17 digits: at most one multiplication by ten, chosen without a branch.
        Some((digits, exp)) => {
            let short = digits < E16;
            let aligned = if short { digits * 10 } else { digits };
            (aligned, exp + 17 - i32::from(short))
        }
        None if f == 0.0 => {
            buf[pos..pos + 3].copy_from_slice(b"0.0");
            return pos + 3;
        }
        None => {
            let (digits, exp) = shortest_exact(f.abs());
            let count = digit_count(digits);
            (digits * POW10[17 - count], exp + count as i32)
        }
    };
    let d = Digits17::new(aligned);
    if 0 < point && point <= 16 {
        return pos + d.write_plain(buf, pos, point as usize);
    }
    if -5 < point && point <= 0 {
        // "0." and up to four zeros, then the digits.
        let zeros = point.unsigned_abs() as usize;
        buf[pos..pos + 8].copy_from_slice(b"0.000000");
        d.write_from(buf, pos + 2 + zeros);
        return pos + 2 + zeros + d.significant;
    }
    // d1[.d2...dn]e[-]x
    d.write_from(buf, pos + 1);
    buf[pos] = b'0' + d.first;
    buf[pos + 1] = b'.';
    let mut end = pos + d.significant + usize::from(d.significant > 1);
    buf[end] = b'e';
    buf[end + 1] = b'-';
    let e = point - 1;
    end += 1 + usize::from(e < 0);
    let e = e.unsigned_abs();
    if e >= 100 {
        buf[end] = b'0' + (e / 100) as u8;
        end += 1;
    }
    if e >= 10 {
        buf[end] = b'0' + (e / 10 % 10) as u8;
        end += 1;
    }
    buf[end] = b'0' + (e % 10) as u8;
    end + 1
}

/// The digits of a shortest significand, left-aligned to seventeen: the first digit, then
/// two words of eight digits as ASCII (the first of them in the lowest byte, so that
/// `to_le_bytes` gives them in writing order), zeros on the right.
struct Digits17 {
    first: u8,
    high: u64,
    low: u64,
    /// The number of digits up to the last one that is not zero (1 to 17).
    significant: usize,
}

impl Digits17 {
    /// `aligned` must be in `[10^16, 10^17)`.
    fn new(aligned: u64) -> Digits17 {
        const E8: u64 = 100_000_000;
        const E16: u64 = E8 * E8;
        // The first digit and four groups of four, by reciprocal multiplications that do not
        // wait on one another: in the writer, where each double's text waits for the length
        // of the one before, this shorter dependency chain beats splitting 16 into 8 into 4
        // (which takes a few instructions fewer).
        const E4: u64 = 10_000;
        let first = aligned / E16;
        let to_5 = aligned / (E8 * E4);
        let to_9 = aligned / E8;
        let to_13 = aligned / E4;
        let high = four_digit_pairs((to_5 - first * E4) | (to_9 - to_5 * E4) << 32);
        let low = four_digit_pairs((to_13 - to_9 * E4) | (aligned - to_13 * E4) << 32);
        // A byte holds a digit's value, so the zero digits at the end are zero bytes at the
        // top: count them instead of dividing by ten in a loop.
        let trailing = (u128::from(high) | u128::from(low) << 64).leading_zeros() / 8;
        Digits17 {
            first: first as u8,
            high: high | ASCII_ZEROS,
            low: low | ASCII_ZEROS,
            significant: 17 - trailing as usize,
        }
    }

    /// Writes the seventeen digits at `at` (18 bytes of room needed).
    fn write_from(&self, buf: &mut [u8; BUF_LEN], at: usize) {
        buf[at] = b'0' + self.first;
        buf[at + 1..at + 9].copy_from_slice(&self.high.to_le_bytes());
        buf[at + 9..at + 17].copy_from_slice(&self.low.to_le_bytes());
    }

    /// Writes the digits with a decimal point after the first `point` (1 to 16) at `at`,
    /// and `.0` when no digit after the point is significant. Returns the length.
    fn write_plain(&self, buf: &mut [u8; BUF_LEN], at: usize, point: usize) -> usize {
        buf[at] = b'0' + self.first;
        if point <= 8 {
            // The point goes into the high word: the bytes above it move up one, which
            // pushes its last digit out of the top, into the next byte. The low word follows.
            let with_point = insert_point(self.high, point - 1);
            buf[at + 1..at + 9].copy_from_slice(&with_point.to_le_bytes());
            buf[at + 9] = (self.high >> 56) as u8;
            buf[at + 10..at + 18].copy_from_slice(&self.low.to_le_bytes());
        } else {
            // The same in the low word, after the high one.
            let with_point = insert_point(self.low, point - 9);
            buf[at + 1..at + 9].copy_from_slice(&self.high.to_le_bytes());
            buf[at + 9..at + 17].copy_from_slice(&with_point.to_le_bytes());
            buf[at + 17] = (self.low >> 56) as u8;
        }
        // Past the point come the significant digits, or one zero.
        self.significant.max(point + 1) + 1
    }
}

/// `word` (eight bytes, the first lowest) with `.` put in after the first `before` (0 to 7)
/// bytes and the rest moved up one byte, the last one falling out.
#[inline]
fn insert_point(word: u64, before: usize) -> u64 {
    // The mask of the bytes below the point, from a table: cheaper than building it with
    // variable shifts (whose count must go through one register on x86).
    const BELOW: [u64; 8] = {
        let mut table = [0u64; 8];
        let mut i = 1;
        while i < 8 {
            table[i] = (1 << (8 * i)) - 1;
            i += 1;
        }
        table
    };
    let mask = BELOW[before & 7];
    let below = word & mask;
    // (mask + 1) is the lowest byte above the mask: one times '.' puts the point there.
    below | ((mask + 1) * u64::from(b'.')) | (word ^ below) << 8
}

/// The byte `b'0'` in each of eight lanes.
const ASCII_ZEROS: u64 = u64::from_le_bytes([b'0'; 8]);

/// The eight decimal digits of two numbers below 10^4 held in the 32-bit lanes of `x` (the
/// first in the low lane) as byte values 0 to 9, the most significant in the lowest byte:
/// computed in parallel lanes of one register (SWAR), two multiplications a step instead of a
/// division per digit.
fn four_digit_pairs(x: u64) -> u64 {
    // Each step splits every lane t into t / d (kept in the lane's low half) and t % d (moved
    // to its high half): t << half - (t / d) * (d << half - 1), one multiplication for both.
    // Each lane t < 10^4 into t / 100 and t % 100, in 16-bit lanes: t / 100 = t * 5243 >> 19
    // (exact for t < 10^4; 9999 * 5243 < 2^32 stays inside the lane).
    let hundreds = ((x * 5243) >> 19) & 0x0000_007F_0000_007F;
    let x = (x << 16).wrapping_sub(hundreds * ((100 << 16) - 1));
    // Each lane t < 100 into t / 10 and t % 10, in 8-bit lanes: t / 10 = t * 103 >> 10
    // (exact for t < 100; 99 * 103 < 2^16).
    let tens = ((x * 103) >> 10) & 0x000F_000F_000F_000F;
    (x << 8).wrapping_sub(tens * ((10 << 8) - 1))
}

/// Formats `n` in decimal into `buf` from `at` and returns the end (`at + 28 <= BUF_LEN`:
/// the 8-byte stores may write past the digits). Eight digits at a time, by SWAR.
fn put_u64(n: u64, buf: &mut [u8; BUF_LEN], at: usize) -> usize {
    const E8: u64 = 100_000_000;
    if n < E8 {
        return put_head(n as u32, buf, at);
    }
    let (high, low) = (n / E8, (n % E8) as u32);
    let end = if high < E8 {
        put_head(high as u32, buf, at)
    } else {
        let end = put_head((high / E8) as u32, buf, at);
        put_word(buf, end, eight_digits((high % E8) as u32));
        end + 8
    };
    put_word(buf, end, eight_digits(low));
    end + 8
}

/// Formats `v < 10^8` without leading zeros (`0` for zero) at `at`; returns the end.
fn put_head(v: u32, buf: &mut [u8; BUF_LEN], at: usize) -> usize {
    let digits = eight_digit_values(v);
    // The leading zeros are the zero bytes at the bottom; keep at least one digit.
    let zeros = (digits.trailing_zeros() / 8).min(7);
    put_word(buf, at, (digits | ASCII_ZEROS) >> (8 * zeros));
    at + 8 - zeros as usize
}

/// Stores eight bytes at `at`, the lowest first.
fn put_word(buf: &mut [u8; BUF_LEN], at: usize, word: u64) {
    if let Some(dst) = buf.get_mut(at..at + 8) {
        dst.copy_from_slice(&word.to_le_bytes());
    }
}

/// The eight decimal digits of `v < 10^8` as ASCII, the first in the lowest byte.
fn eight_digits(v: u32) -> u64 {
    eight_digit_values(v) | ASCII_ZEROS
}

/// The eight decimal digits of `v < 10^8` as byte values 0 to 9, the first in the lowest byte.
fn eight_digit_values(v: u32) -> u64 {
    // Two 4-digit halves in 32-bit lanes, the first in the low lane: v << 32 minus
    // (v / 10^4) * (10^4 << 32 - 1), one multiplication (as in `four_digit_pairs`).
    let v = u64::from(v);
    four_digit_pairs((v << 32).wrapping_sub((v / 10_000) * ((10_000 << 32) - 1)))
}

/// Formats `n` in decimal into `buf` and returns the length.
pub(crate) fn format_u64(n: u64, buf: &mut [u8; BUF_LEN]) -> usize {
    put_u64(n, buf, 0)
}

/// Formats `n` in decimal into `buf` and returns the length.
pub(crate) fn format_i64(n: i64, buf: &mut [u8; BUF_LEN]) -> usize {
    buf[0] = b'-';
    put_u64(n.unsigned_abs(), buf, usize::from(n < 0))
}

/// Appends `n` in decimal.
pub(crate) fn write_u64(out: &mut String, n: u64) {
    let mut buf = [0u8; BUF_LEN];
    let len = format_u64(n, &mut buf);
    push_ascii(out, &buf[..len]);
}

/// Appends `n` in decimal.
pub(crate) fn write_i64(out: &mut String, n: i64) {
    let mut buf = [0u8; BUF_LEN];
    let len = format_i64(n, &mut buf);
    push_ascii(out, &buf[..len]);
}

/// Appends a finite `f` in its shortest round-trip form (see [`format_f64`]).
pub(crate) fn write_f64(out: &mut String, f: f64) {
    let mut buf = [0u8; BUF_LEN];
    let len = format_f64(f, &mut buf);
    push_ascii(out, &buf[..len]);
}

/// The shortest `(digits, exponent)` with `digits * 10^exponent` rounding to `f`, the closest
/// to `f` among equally short candidates (`digits` may end in zeros). `f` must be finite and
/// positive. The formatter calls the two paths itself.
#[cfg(test)]
fn shortest(f: f64) -> (u64, i32) {
    match shortest_fast(f) {
        Some(found) => found,
        None => shortest_exact(f),
    }
}

/// [`shortest_exact`]'s answer for nearly all doubles, or `None` where this cannot decide.
/// For a normal double the digits are 16 or 17 (in `[10^15, 10^17)`; a test checks it).
///
/// Schubfach ([`shortest_exact`]) decides with three products, of the value and of both ends
/// of its rounding interval, each rounded so that every comparison it makes is exact. Here
/// one product does for nearly all doubles. With `k = floor(log10(2^q))` for `f = c * 2^q`,
/// the decimals `10^k` apart always have one inside the interval (its half width `w`, in
/// units of `10^k`, is at least 1/2), and the question is whether one `10^(k+1)` apart does.
/// In units of `10^(k+1)`, the product gives `y = f / 10^(k+1)` with 64 fraction bits, and a
/// shift of the same power of ten gives `w / 10`; both are low by a few units of the last
/// bit at most. Then:
///
/// - the largest multiple of `10^(k+1)` below the upper end is `floor(y + w/10)`; it is inside
///   when the fraction cut off is below the interval's width `2w/10`;
/// - otherwise the answer is the multiple of `10^k` nearest to `f`: `10y` rounded.
///
/// Each comparison is decided only when the values compared are further apart than the
/// error; a tie or an end of the interval hit exactly (among whole numbers beyond 2^53 and
/// some binary fractions, about 1 in 1000 random bit patterns) is left to Schubfach, as are
/// powers of two (whose interval is lopsided) and subnormals.
#[inline]
fn shortest_fast(f: f64) -> Option<(u64, i32)> {
    let bits = f.to_bits();
    let fraction = bits & ((1 << 52) - 1);
    let biased = ((bits >> 52) & 0x7FF) as i32;
    if biased == 0 || fraction == 0 {
        return None;
    }
    let c = fraction | 1 << 52;
    let q = biased - 1075;
    let k = (q * 1_262_611) >> 22;
    // g: 10^-(k+1), truncated to 128 bits; with the shift s the product below is y * 2^69.
    // -3 <= s <= 1 (a test checks every exponent), so the shifts below stay in 0..64.
    let s = q + floor_log2_pow10(-(k + 1)) + 1;
    let (g_hi, g_lo) = pow5(-(k + 1)).unwrap_or((0, 0));
    let cp = c << (s + 5);
    // floor(g * cp / 2^64) = y * 2^69 < 2^123: y's whole part, and the top 64 bits of its
    // fraction (units of 2^-64 from here on).
    let y = u128::from(g_hi) * u128::from(cp) + ((u128::from(g_lo) * u128::from(cp)) >> 64);
    let whole = (y >> 69) as u64;
    let fraction = (y >> 5) as u64;
    // The half width w / 10 = g * 2^(s-1) / 2^128, leaving out the low word of g; below 1/2,
    // so twice it fits too.
    let half_width = g_hi >> (1 - s);

    // The errors: g is below 10^-(k+1) by less than a unit of its last bit, and with the
    // floors the fraction is low by less than 1.04 units, the half width by less than 2
    // (leaving out g's low word). So the upper end is low by less than 3.04, the width by
    // less than 4, and ten times the fraction by less than 10.4: decisions closer than
    // MARGIN are left to Schubfach.
    const MARGIN: u64 = 16;
    let (cut, carry) = fraction.overflowing_add(half_width);
    let tens = whole + u64::from(carry);
    let shorter_by = cut.wrapping_sub(2 * half_width);
    let clear_of_ends = cut.wrapping_sub(MARGIN) <= u64::MAX - 2 * MARGIN;
    let clear_of_lower = shorter_by.wrapping_add(MARGIN) >= 2 * MARGIN;
    let shorter = cut < 2 * half_width;
    // 10y rounded: ten times the fraction gives the last digit and what is left of it.
    let ten = u128::from(fraction) * 10;
    let (digit, rest) = ((ten >> 64) as u64, ten as u64);
    let near_half = rest.wrapping_sub(1 << 63).wrapping_add(MARGIN) < 2 * MARGIN;
    // `&` and `|`, not `&&` and `||`: no branch on which case it is, only on the rare
    // fallback. Without a shorter candidate, the nearest must not be a close call.
    if !(clear_of_ends & clear_of_lower & (shorter | !near_half)) {
        return None;
    }
    // The digits at the scale 10^k either way (the shorter candidate gets a zero that the
    // digit writer drops), chosen without a branch: which wins is as good as random.
    let nearest = whole * 10 + digit + (rest >> 63);
    Some((if shorter { tens * 10 } else { nearest }, k))
}

/// Schubfach: the shortest `(digits, exponent)` with `digits * 10^exponent` rounding to `f`,
/// the closest to `f` among equally short candidates. `f` must be finite and positive.
#[cold]
#[inline(never)]
pub(crate) fn shortest_exact(f: f64) -> (u64, i32) {
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

    use crate::test_rng::Rng;

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
        let mut rng = Rng::from_state(0xDEAD_BEEF_CAFE_F00D);
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

    const E15: u64 = 1_000_000_000_000_000;

    /// Digits without trailing zeros, and their exponent.
    fn normal((mut digits, mut exp): (u64, i32)) -> (u64, i32) {
        while digits % 10 == 0 {
            digits /= 10;
            exp += 1;
        }
        (digits, exp)
    }

    #[test]
    fn one_product_path_shifts_stay_small() {
        // s for every exponent of a normal double: the one-product path shifts by s + 5,
        // s + 4 and 60 - s, which must all be in 0..64, and looks up 10^-(k+1).
        for biased in 1..2047 {
            let q = biased - 1075;
            let k = (q * 1_262_611) >> 22;
            let s = q + floor_log2_pow10(-(k + 1)) + 1;
            assert!((-3..=1).contains(&s), "q = {q}: s = {s}");
            // k = floor(log10(2^q)), which the shortcut's argument needs.
            let exact = (f64::from(q) * std::f64::consts::LOG10_2).floor() as i32;
            assert_eq!(k, exact, "q = {q}");
            assert!(pow5(-(k + 1)).is_some(), "q = {q}");
        }
    }

    #[test]
    fn one_product_path_agrees_with_schubfach() {
        let mut rng = Rng::from_state(0x0123_4567_89AB_CDEF);
        let mut undecided = 0;
        let total = 1_000_000;
        for i in 0..total {
            // Random bit patterns, and every fourth a short decimal (ends of intervals and
            // ties are more likely there).
            let f = if i % 4 == 0 {
                let digits = rng.next() % 100_000_000;
                let exp = (rng.next() % 600) as i32 - 300;
                format!("{digits}e{exp}").parse().unwrap()
            } else {
                f64::from_bits(rng.next() & 0x7FFF_FFFF_FFFF_FFFF)
            };
            if !f.is_finite() || f == 0.0 {
                continue;
            }
            match shortest_fast(f) {
                Some(found) => {
                    assert!((E15..E15 * 100).contains(&found.0), "{f:e}");
                    assert_eq!(normal(found), normal(shortest_exact(f)), "{f:e}");
                }
                None => undecided += 1,
            }
        }
        // Subnormals (1 in 2048 bit patterns), powers of two, and the close calls: exact
        // ties and ends of intervals, among whole numbers beyond 2^53 and binary fractions.
        assert!(undecided < total / 500, "{undecided} undecided");
    }

    #[test]
    fn one_product_path_edge_cases() {
        let mut cases = vec![f64::MAX, f64::MIN_POSITIVE, 1.0, 0.5, 2.0, 3.0, 0.1, 0.3];
        for e in -1074..=1023 {
            let p = 2f64.powi(e);
            cases.extend([p * 1.5, p * 1.25, p * 1.75]);
        }
        for e in -307..=308 {
            let p: f64 = format!("1e{e}").parse().unwrap();
            for m in [1.0, 2.0, 5.0, 9.5, 1.5, 7.25] {
                cases.push(p * m);
            }
        }
        for n in 1..100_000u64 {
            cases.push(n as f64 / 1000.0);
            cases.push(n as f64 * 1e15);
        }
        for f in cases {
            let bits = f.to_bits();
            for g in [
                f,
                f64::from_bits(bits + 1),
                f64::from_bits(bits.saturating_sub(1)),
            ] {
                if !(g.is_finite() && g > 0.0) {
                    continue;
                }
                if let Some(found) = shortest_fast(g) {
                    assert_eq!(normal(found), normal(shortest_exact(g)), "{g:e}");
                }
                assert_eq!(normal(shortest(g)), normal(shortest_exact(g)), "{g:e}");
            }
        }
    }

    /// The text for `f` built naively from Schubfach's digits, by the rules of `format_f64`.
    fn naive_text(f: f64) -> String {
        let sign = if f.is_sign_negative() { "-" } else { "" };
        if f == 0.0 {
            return format!("{sign}0.0");
        }
        let (digits, exp) = normal(shortest_exact(f.abs()));
        let digits = digits.to_string();
        let point = digits.len() as i32 + exp;
        let body = if 0 < point && point <= 16 {
            let p = point as usize;
            if p >= digits.len() {
                format!("{digits}{}.0", "0".repeat(p - digits.len()))
            } else {
                format!("{}.{}", &digits[..p], &digits[p..])
            }
        } else if -5 < point && point <= 0 {
            format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
        } else if digits.len() == 1 {
            format!("{digits}e{}", point - 1)
        } else {
            format!("{}.{}e{}", &digits[..1], &digits[1..], point - 1)
        };
        format!("{sign}{body}")
    }

    #[test]
    fn layout_matches_the_rules_at_every_length_and_point() {
        let mut rng = Rng::from_state(0xFACE_B00C);
        for i in 0..200_000 {
            // Every digit count (1 to 17) at every decimal exponent around the plain range,
            // and random bit patterns.
            let f = if i % 2 == 0 {
                let len = 1 + (i / 2) % 17;
                let digits = rng.next() % 10u64.pow(len as u32);
                let exp = (rng.next() % 50) as i32 - 25;
                format!("{digits}e{exp}").parse().unwrap()
            } else {
                f64::from_bits(rng.next())
            };
            if f.is_finite() {
                assert_eq!(fmt(f), naive_text(f), "{f:e}");
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
        // Every digit count, at random.
        let mut rng = Rng::from_state(0x1234_5678);
        for i in 0..100_000 {
            let n = rng.next() >> (i % 64);
            let mut buf = [0u8; BUF_LEN];
            let len = format_u64(n, &mut buf);
            assert_eq!(&buf[..len], n.to_string().as_bytes());
            let m = n as i64;
            let len = format_i64(m, &mut buf);
            assert_eq!(&buf[..len], m.to_string().as_bytes());
        }
    }
}
