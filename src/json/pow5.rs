//! 128-bit approximations of the powers of five, shared by the float parser (Eisel-Lemire)
//! and the shortest float formatter (Schubfach).
//!
//! Entry `q` holds the top 128 bits of 5^q, shifted so the highest bit is set:
//! `5^q = (hi * 2^64 + lo + ε) * 2^(floor(q * log2 5) - 127)` with `0 <= ε < 1` (the bits below
//! are truncated). Because 10^q = 5^q * 2^q the same bits serve powers of ten. The table is
//! computed by `const fn` at compile time (no generated source to trust), using 256-bit
//! arithmetic so the truncation error of the step-by-step computation stays far below the 128
//! bits kept; a unit test recomputes every entry with exact big integers.

/// The smallest exponent in the table: any `w * 10^q` with `w < 2^64` and `q < -342` rounds to 0.
pub(crate) const MIN_EXP: i32 = -342;
/// The largest exponent in the table: the formatter needs 10^324 for the smallest subnormal.
pub(crate) const MAX_EXP: i32 = 324;

const LEN: usize = (MAX_EXP - MIN_EXP + 1) as usize;

static POW5: [(u64, u64); LEN] = build();

/// The normalized, truncated 128 bits of 5^q as `(high, low)`; `None` outside the table.
pub(crate) fn pow5(q: i32) -> Option<(u64, u64)> {
    let index = usize::try_from(q.checked_sub(MIN_EXP)?).ok()?;
    POW5.get(index).copied()
}

/// `floor(q * log2(10))`, exact for |q| <= 1233 (checked by a test over the range used).
pub(crate) fn floor_log2_pow10(q: i32) -> i32 {
    (q * 1_741_647) >> 19
}

const fn build() -> [(u64, u64); LEN] {
    let mut table = [(0u64, 0u64); LEN];
    let zero = (0 - MIN_EXP) as usize;
    let mut m = [1u64 << 63, 0, 0, 0];
    let mut i = 0;
    while zero + i < LEN {
        table[zero + i] = (m[0], m[1]);
        m = times5(m);
        i += 1;
    }
    let mut m = [1u64 << 63, 0, 0, 0];
    let mut i = 1;
    while i <= zero {
        m = div5(m);
        table[zero - i] = (m[0], m[1]);
        i += 1;
    }
    table
}

/// 5 * m, renormalized (top bit set), truncated to 256 bits. `m` is normalized.
const fn times5(m: [u64; 4]) -> [u64; 4] {
    let mut product = [0u64; 4];
    let mut carry: u128 = 0;
    let mut i = 4;
    while i > 0 {
        i -= 1;
        let p = m[i] as u128 * 5 + carry;
        product[i] = p as u64;
        carry = p >> 64;
    }
    // 5m lies in [2.5 * 2^256, 5 * 2^256): the carry is 2, 3 or 4 and takes 2 or 3 bits.
    let shift = if carry >= 4 { 3 } else { 2 };
    let top = carry as u64;
    [
        (top << (64 - shift)) | (product[0] >> shift),
        (product[0] << (64 - shift)) | (product[1] >> shift),
        (product[1] << (64 - shift)) | (product[2] >> shift),
        (product[2] << (64 - shift)) | (product[3] >> shift),
    ]
}

/// m / 5, renormalized (top bit set), truncated to 256 bits. `m` is normalized.
const fn div5(m: [u64; 4]) -> [u64; 4] {
    // One extra limb of quotient keeps the bits that renormalizing shifts in.
    let mut q = [0u64; 5];
    let mut rem: u128 = 0;
    let mut i = 0;
    while i < 5 {
        let limb = if i < 4 { m[i] } else { 0 };
        let cur = (rem << 64) | limb as u128;
        q[i] = (cur / 5) as u64;
        rem = cur % 5;
        i += 1;
    }
    // m / 5 lies in [2^255 / 5, 2^256 / 5): two or three leading zero bits.
    let lz = q[0].leading_zeros();
    [
        (q[0] << lz) | (q[1] >> (64 - lz)),
        (q[1] << lz) | (q[2] >> (64 - lz)),
        (q[2] << lz) | (q[3] >> (64 - lz)),
        (q[3] << lz) | (q[4] >> (64 - lz)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Little-endian base-2^32 big unsigned integers, just enough for the check.
    fn mul_small(n: &mut Vec<u32>, k: u32) {
        let mut carry = 0u64;
        for limb in n.iter_mut() {
            let v = u64::from(*limb) * u64::from(k) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            n.push(carry as u32);
        }
    }

    fn bit_len(n: &[u32]) -> usize {
        match n.iter().rposition(|&l| l != 0) {
            Some(i) => i * 32 + 32 - n[i].leading_zeros() as usize,
            None => 0,
        }
    }

    fn bit(n: &[u32], i: usize) -> bool {
        n.get(i / 32).map_or(false, |l| (l >> (i % 32)) & 1 == 1)
    }

    /// The 128 bits of `n` starting at its top bit.
    fn top128(n: &[u32]) -> u128 {
        let len = bit_len(n);
        (0..128).fold(0u128, |acc, i| {
            let pos = len as isize - 1 - i;
            acc << 1 | u128::from(pos >= 0 && bit(n, pos as usize))
        })
    }

    fn ge(a: &[u32], b: &[u32]) -> bool {
        let n = a.len().max(b.len());
        for i in (0..n).rev() {
            let (x, y) = (
                a.get(i).copied().unwrap_or(0),
                b.get(i).copied().unwrap_or(0),
            );
            if x != y {
                return x > y;
            }
        }
        true
    }

    fn sub(a: &mut [u32], b: &[u32]) {
        let mut borrow = 0i64;
        for (i, limb) in a.iter_mut().enumerate() {
            let v = i64::from(*limb) - i64::from(b.get(i).copied().unwrap_or(0)) - borrow;
            borrow = i64::from(v < 0);
            *limb = (v + (borrow << 32)) as u32;
        }
    }

    #[test]
    fn table_matches_exact_powers_of_five() {
        let mut power = vec![1u32];
        for q in 0..=MAX_EXP {
            let (hi, lo) = pow5(q).unwrap();
            assert_eq!(
                top128(&power),
                u128::from(hi) << 64 | u128::from(lo),
                "5^{q}"
            );
            mul_small(&mut power, 5);
        }
    }

    #[test]
    fn table_matches_exact_reciprocals_of_powers_of_five() {
        // floor(2^(127 + L) / 5^n) where 5^n has L bits: exactly 128 bits, the normalized value.
        let mut power = vec![1u32];
        for n in 1..=-MIN_EXP {
            mul_small(&mut power, 5);
            let len = bit_len(&power);
            let mut rem: Vec<u32> = vec![0; power.len() + 1];
            let mut quotient = 0u128;
            for i in 0..(128 + len) {
                // rem = rem * 2 + next dividend bit (the dividend is 1 followed by zeros)
                let mut carry = u32::from(i == 0);
                for limb in rem.iter_mut() {
                    let v = (u64::from(*limb) << 1) | u64::from(carry);
                    *limb = v as u32;
                    carry = (v >> 32) as u32;
                }
                let take = ge(&rem, &power);
                if take {
                    sub(&mut rem, &power);
                }
                if i >= len {
                    quotient = quotient << 1 | u128::from(take);
                }
            }
            let (hi, lo) = pow5(-n).unwrap();
            assert_eq!(quotient, u128::from(hi) << 64 | u128::from(lo), "5^-{n}");
        }
    }

    #[test]
    fn floor_log2_pow10_is_exact_over_the_table() {
        for q in MIN_EXP..=MAX_EXP {
            let exact = (f64::from(q) * std::f64::consts::LOG2_10).floor() as i32;
            assert_eq!(floor_log2_pow10(q), exact, "q = {q}");
        }
    }

    #[test]
    fn out_of_range_exponents_have_no_entry() {
        assert_eq!(pow5(MIN_EXP - 1), None);
        assert_eq!(pow5(MAX_EXP + 1), None);
        assert!(pow5(MIN_EXP).is_some() && pow5(MAX_EXP).is_some());
    }
}
