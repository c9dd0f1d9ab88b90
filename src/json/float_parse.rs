//! Decimal to binary: the f64 nearest to `w * 10^q`, correctly rounded (ties to even).
//!
//! Two fast paths cover nearly every number seen in practice, and whatever they cannot decide
//! exactly goes to the standard library's parser, which is correctly rounded as well:
//!
//! 1. Clinger's fast path: when `w < 2^53` and `|q| <= 22`, both `w` and `10^|q|` are exact
//!    doubles, so one IEEE multiplication or division rounds once, correctly.
//! 2. The Eisel-Lemire algorithm (Lemire, "Number Parsing at a Gigabyte per Second", 2021):
//!    multiply the normalized `w` by a 128-bit truncation of 5^q and read the rounded mantissa
//!    off the top bits, giving up (returning `None`) when the truncation error could change
//!    the result or when the result is subnormal.

use super::pow5::{floor_log2_pow10, pow5, MIN_EXP};

/// Powers of ten that are exact doubles.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The largest exponent for which `w * 10^q` can be finite with `w >= 1`.
const MAX_FINITE_EXP: i32 = 308;

/// The f64 nearest to `w * 10^q` (not negated), or `None` when the caller must use a slower
/// exact method. Infinity and zero are returned for values clearly out of range.
pub(crate) fn decimal_to_f64(w: u64, q: i32) -> Option<f64> {
    if w == 0 || q < MIN_EXP {
        // w < 2^64 and q < -342 keeps the value below half the smallest subnormal.
        return Some(0.0);
    }
    if q > MAX_FINITE_EXP {
        return Some(f64::INFINITY);
    }
    if w <= 1 << 53 && (-22..=22).contains(&q) {
        let pow = POW10[q.unsigned_abs() as usize];
        let w = w as f64;
        return Some(if q >= 0 { w * pow } else { w / pow });
    }
    eisel_lemire(w, q)
}

fn eisel_lemire(w: u64, q: i32) -> Option<f64> {
    let (t_hi, t_lo) = pow5(q)?;
    let lz = w.leading_zeros();
    let w = w << lz;

    // P = w * T as 192 bits p2:p1:p0. The true product lies in [P, P + w), since T is 5^q
    // truncated by less than one unit.
    let low = u128::from(w) * u128::from(t_lo);
    let high = u128::from(w) * u128::from(t_hi);
    let p0 = low as u64;
    let (p1, carry) = (high as u64).overflowing_add((low >> 64) as u64);
    let p2 = ((high >> 64) as u64) + u64::from(carry);

    // P >= 2^190, so p2's top bit is bit 63 or 62. Keep 54 bits: 53 of mantissa and the
    // rounding bit; the bits below them decide ties.
    let upper = (p2 >> 63) as u32;
    let shift = 9 + upper;
    let below_mask = (1u64 << shift) - 1;
    let below = p2 & below_mask;
    if below == below_mask && p1 == u64::MAX && p0.checked_add(w).is_none() {
        // The error could carry into the kept bits.
        return None;
    }
    let kept = p2 >> shift;
    let round_bit = kept & 1;
    let mut mantissa = kept >> 1;
    let rest_is_zero = below == 0 && p1 == 0 && p0 == 0;
    // The table is exact for 0 <= q <= 55 (5^55 < 2^128); elsewhere the true product is
    // strictly above P, so bits that look like an exact tie are really just above it.
    let exact = (0..=55).contains(&q);
    let round_up = round_bit == 1 && (!rest_is_zero || !exact || mantissa & 1 == 1);
    mantissa += u64::from(round_up);

    // value = P * 2^(q + floor(q log2 5) - 127 - lz) and P = 1.xxx * 2^(190 + upper), so the
    // binary exponent is 63 + upper + floor(q log2 10) - lz.
    let mut exponent = 63 + upper as i32 + floor_log2_pow10(q) - lz as i32;
    if mantissa == 1 << 53 {
        mantissa = 1 << 52;
        exponent += 1;
    }
    let biased = exponent + 1023;
    if biased <= 0 || biased >= 0x7FF {
        // Subnormal or overflowing: rare enough to leave to the slow exact path.
        return None;
    }
    let bits = (biased as u64) << 52 | (mantissa & ((1 << 52) - 1));
    Some(f64::from_bits(bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_rng::Rng;

    fn check(w: u64, q: i32) {
        let text = format!("{w}e{q}");
        let expected: f64 = text.parse().unwrap();
        if let Some(got) = decimal_to_f64(w, q) {
            assert_eq!(got.to_bits(), expected.to_bits(), "{text}");
        }
    }

    #[test]
    fn fast_paths_agree_with_std_on_random_decimals() {
        let mut rng = Rng::from_state(0x9E37_79B9_7F4A_7C15);
        for _ in 0..100_000 {
            let digits = 1 + rng.next() % 19;
            let w = rng.next() % 10u64.pow(digits as u32);
            let q = (rng.next() % 700) as i32 - 350;
            check(w, q);
        }
    }

    /// The exact decimal expansion of `f` as (digits, exponent of the last digit).
    fn exact_decimal(f: f64) -> (Vec<u8>, i32) {
        let text = format!("{f:.800e}");
        let (mantissa, exp) = text.split_once('e').unwrap();
        let digits: Vec<u8> = mantissa
            .bytes()
            .filter(u8::is_ascii_digit)
            .map(|b| b - b'0')
            .collect();
        let exp = exp.parse::<i32>().unwrap() - (digits.len() as i32 - 1);
        (digits, exp)
    }

    /// The exact midpoint of two positive doubles as decimal digits and exponent.
    fn midpoint(a: f64, b: f64) -> (Vec<u8>, i32) {
        let (mut da, ea) = exact_decimal(a);
        let (mut db, eb) = exact_decimal(b);
        let e = ea.min(eb);
        da.extend(std::iter::repeat(0).take((ea - e) as usize));
        db.extend(std::iter::repeat(0).take((eb - e) as usize));
        let n = da.len().max(db.len()) + 1;
        let pad = |d: Vec<u8>| -> Vec<u8> {
            let mut v = vec![0; n - d.len()];
            v.extend(d);
            v
        };
        let (da, db) = (pad(da), pad(db));
        // sum, then times 5 and one more decimal place: (a + b) / 2 = (a + b) * 5 / 10
        let mut sum = vec![0u32; n];
        let mut carry = 0;
        for i in (0..n).rev() {
            let v = u32::from(da[i]) + u32::from(db[i]) + carry;
            sum[i] = v % 10;
            carry = v / 10;
        }
        let mut out = vec![0u8; n + 1];
        let mut carry = 0;
        for i in (0..n).rev() {
            let v = sum[i] * 5 + carry;
            out[i + 1] = (v % 10) as u8;
            carry = v / 10;
        }
        out[0] = carry as u8;
        let first = out.iter().position(|&d| d != 0).unwrap();
        (out[first..].to_vec(), e - 1)
    }

    #[test]
    fn fast_paths_agree_with_std_near_halfway_points() {
        // Decimals within a unit of the 19th digit of the midpoint between two doubles
        // stress the rounding decision.
        let mut rng = Rng::from_state(12345);
        for _ in 0..3_000 {
            let f = f64::from_bits(rng.next() % 0x7FE0_0000_0000_0000 + (1 << 52));
            let next = f64::from_bits(f.to_bits() + 1);
            let (digits, exp) = midpoint(f, next);
            let keep = digits.len().min(19);
            let w = digits[..keep]
                .iter()
                .fold(0u64, |acc, &d| acc * 10 + u64::from(d));
            let q = exp + (digits.len() - keep) as i32;
            check(w, q);
            check(w + 1, q);
            check(w - 1, q);
            if digits.len() <= 19 {
                // An exact tie: ties go to even.
                check(w, q);
            }
        }
    }

    #[test]
    fn known_values() {
        assert_eq!(decimal_to_f64(1, 300), Some(1e300));
        assert_eq!(decimal_to_f64(1, -1), Some(0.1));
        assert_eq!(
            decimal_to_f64(65_613_616_999_999_977, -15),
            Some(65.613_616_999_999_98)
        );
        assert_eq!(decimal_to_f64(0, 999), Some(0.0));
        assert_eq!(decimal_to_f64(1, 309), Some(f64::INFINITY));
        assert_eq!(decimal_to_f64(u64::MAX, -343), Some(0.0));
        assert_eq!(
            decimal_to_f64(9_007_199_254_740_993, 0),
            Some(9_007_199_254_740_992.0)
        );
        check(17_976_931_348_623_157, 292);
        check(22_250_738_585_072_014, -324);
    }
}
