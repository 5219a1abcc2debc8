//! Decimal to `f64` for the reader: Eisel-Lemire over a mantissa of at most 19
//! digits and a power of ten, correctly rounded, as in the standard library (whose
//! version is private behind `str::parse`, which would scan the digits again).
//! Cases it cannot decide (`None`) go to `str::parse`.

use crate::pow5::{POWER_OF_FIVE_128, SMALLEST_POWER_OF_FIVE};

const MANTISSA_BITS: i32 = 52;
const MINIMUM_EXPONENT: i32 = -1023;
const INFINITE_POWER: i32 = 0x7FF;
const LARGEST_POWER_OF_TEN: i64 = 308;
const MIN_EXPONENT_ROUND_TO_EVEN: i64 = -4;
const MAX_EXPONENT_ROUND_TO_EVEN: i64 = 23;

/// `w × 10^q` correctly rounded, or `None` when the fast algorithm cannot tell
/// (then the caller parses the text). Infinity for overflow, zero for underflow.
#[inline]
pub(crate) fn lemire(q: i64, mut w: u64) -> Option<f64> {
    if w == 0 || q < SMALLEST_POWER_OF_FIVE {
        return Some(0.0);
    }
    if q > LARGEST_POWER_OF_TEN {
        return Some(f64::INFINITY);
    }
    let lz = w.leading_zeros();
    w <<= lz;
    let (lo, hi) = product_approx(q, w, MANTISSA_BITS as u32 + 3);
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        return None;
    }
    let upperbit = (hi >> 63) as i32;
    let shift = upperbit + 64 - MANTISSA_BITS - 3;
    let mut mantissa = hi >> shift;
    let mut power2 = power(q as i32) + upperbit - lz as i32 - MINIMUM_EXPONENT;
    if power2 <= 0 {
        // Subnormal: rare in JSON; leave it to the standard parser.
        return None;
    }
    if lo <= 1
        && (MIN_EXPONENT_ROUND_TO_EVEN..=MAX_EXPONENT_ROUND_TO_EVEN).contains(&q)
        && mantissa & 3 == 1
        && (mantissa << shift) == hi
    {
        mantissa &= !1;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if mantissa >= 2 << MANTISSA_BITS {
        mantissa = 1 << MANTISSA_BITS;
        power2 += 1;
    }
    mantissa &= !(1 << MANTISSA_BITS);
    if power2 >= INFINITE_POWER {
        return Some(f64::INFINITY);
    }
    Some(f64::from_bits(mantissa | (power2 as u64) << MANTISSA_BITS))
}

#[inline]
fn power(q: i32) -> i32 {
    (q.wrapping_mul(152_170 + 65536) >> 16) + 63
}

#[inline]
fn full_multiplication(a: u64, b: u64) -> (u64, u64) {
    let r = (a as u128) * (b as u128);
    (r as u64, (r >> 64) as u64)
}

#[inline]
fn product_approx(q: i64, w: u64, precision: u32) -> (u64, u64) {
    let mask = u64::MAX >> precision;
    let (hi5, lo5) = POWER_OF_FIVE_128[(q - SMALLEST_POWER_OF_FIVE) as usize];
    let (mut first_lo, mut first_hi) = full_multiplication(w, hi5);
    if first_hi & mask == mask {
        let (_, second_hi) = full_multiplication(w, lo5);
        first_lo = first_lo.wrapping_add(second_hi);
        if second_hi > first_lo {
            first_hi += 1;
        }
    }
    (first_lo, first_hi)
}

#[cfg(test)]
mod tests {
    use super::lemire;

    /// Against the standard library on mantissas and exponents that stress the
    /// rounding: halfway cases, all-nines, powers of two, both ends of the range.
    #[test]
    fn agrees_with_the_standard_parser() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut mantissas: Vec<u64> =
            vec![1, 9, 5, 25, 9_999_999_999_999_999_999, 9_007_199_254_740_993, 4_503_599_627_370_497];
        mantissas.extend((0..2000).map(|_| next() % 10_000_000_000_000_000_000));
        mantissas.extend((0..500).map(|_| next() % 100_000_000));
        let mut decided = 0;
        for &m in &mantissas {
            for q in [
                -350i64, -342, -330, -308, -300, -200, -100, -27, -22, -17, -5, -1, 0, 1, 5, 22, 23, 55, 100, 200, 290,
                308, 309,
            ] {
                let text = format!("{m}e{q}");
                let want: f64 = text.parse().unwrap();
                if let Some(got) = lemire(q, m) {
                    decided += 1;
                    assert_eq!(got.to_bits(), want.to_bits(), "{text}");
                }
            }
        }
        assert!(decided > 40_000, "decided only {decided}");
    }
}
