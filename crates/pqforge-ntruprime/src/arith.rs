//! Constant-time scalar arithmetic: reduction modulo q and modulo 3, and a
//! division by a public 14-bit divisor, all by multiplication (no hardware
//! division touches a value that may be secret).

/// Reduction modulo a small public modulus m (3 or q), for inputs |x| <
/// 2^26: centered results in [-(m-1)/2, (m-1)/2].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Modulus {
    m: u32,
    half: i32,
    /// ⌊2^32 / m⌋ (a 32-bit word: one 32 × 32 → 64-bit multiply).
    v: u32,
    /// A multiple of m plus `half`, above 2^26: x + off is non-negative.
    off: i32,
}

impl Modulus {
    /// The reducer for `m` (odd, 3 ≤ m < 2^14).
    pub(crate) const fn new(m: i32) -> Self {
        let mu = m as u32;
        let half = (m - 1) / 2;
        let k = (1 << 26) / m + 1;
        Self {
            m: mu,
            half,
            v: ((1u64 << 32) / mu as u64) as u32,
            off: k * m + half,
        }
    }

    /// x mod m, centered, for |x| < 2^26.
    ///
    /// u = x + off is in [0, 2^28); with v = ⌊2^32/m⌋ the quotient estimate
    /// ⌊u·v / 2^32⌋ is ⌊u/m⌋ or one less, so u - est·m is in [0, 2m): one
    /// masked subtraction finishes.
    #[inline(always)]
    pub(crate) fn freeze(self, x: i32) -> i16 {
        debug_assert!(x.unsigned_abs() < 1 << 26);
        let u = x.wrapping_add(self.off) as u32;
        let est = ((u64::from(u) * u64::from(self.v)) >> 32) as u32;
        let r = u
            .wrapping_sub(est.wrapping_mul(self.m))
            .wrapping_sub(self.m);
        let r = r.wrapping_add(self.m & ((r as i32 >> 31) as u32));
        (r as i32 - self.half) as i16
    }
}

/// Reduction modulo q (2^11 < q < 2^13) with 32-bit operations only (the
/// inversion's inner loop: 32-bit multiplies vectorize on 8 lanes where
/// 64-bit ones do not), for |x| < 2^26; centered results.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ModQ {
    q: i32,
    half: i32,
    /// ⌊2^27 / q⌋ (< 2^15).
    v: i32,
    /// A multiple of q plus `half`, above 2^26.
    off: i32,
}

impl ModQ {
    /// The reducer for `q`.
    pub(crate) const fn new(q: i32) -> Self {
        assert!(q > 1 << 11 && q < 1 << 13);
        let half = (q - 1) / 2;
        Self {
            q,
            half,
            v: (1 << 27) / q,
            off: ((1 << 26) / q + 1) * q + half,
        }
    }

    /// x mod q, centered, for |x| < 2^26.
    ///
    /// t = x + off is in [0, 2^27 + 2^14); the estimate ⌊⌊t/2^11⌋·v / 2^16⌋
    /// (a product below 2^31) is at most ⌊t/q⌋ and more than t/q - 3.5
    /// (the truncations cost t/2^27 + 2^11/q + 1 < 2.5), so t - est·q is
    /// in [0, 4q): two masked subtractions (2q, then q) finish.
    #[inline(always)]
    pub(crate) fn freeze(self, x: i32) -> i16 {
        debug_assert!(x.unsigned_abs() < 1 << 26);
        let t = x + self.off;
        let est = ((t >> 11) * self.v) >> 16;
        let mut r = t - est * self.q;
        r -= 2 * self.q;
        r += (2 * self.q) & (r >> 31);
        r -= self.q;
        r += self.q & (r >> 31);
        (r - self.half) as i16
    }
}

/// `x mod 3` centered in {-1, 0, 1}, for x in [-2, 2] (the inversion mod 3).
#[inline(always)]
pub(crate) fn f3_small(x: i8) -> i8 {
    let above = (1i8.wrapping_sub(x)) >> 7; // -1 iff x > 1
    let below = x.wrapping_add(1) >> 7; // -1 iff x < -1
    x - (3 & above) + (3 & below)
}

/// -1 if `x` is nonzero, else 0 (no branch).
#[inline(always)]
pub(crate) fn nonzero_mask(x: i32) -> i32 {
    (x | x.wrapping_neg()) >> 31
}

/// -1 if `x` is negative, else 0.
#[inline(always)]
pub(crate) fn negative_mask(x: i32) -> i32 {
    x >> 31
}

/// Division by a public divisor `m` (1 ≤ m < 2^14) of any 32-bit `x`:
/// (x / m, x mod m) by two multiply-and-shift steps with ⌊2^31/m⌋ and one
/// masked correction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divisor {
    m: u32,
    v: u64,
}

impl Divisor {
    /// The divisor `m` (public: the radix of a codec digit).
    #[inline(always)]
    pub(crate) fn new(m: u32) -> Self {
        debug_assert!((1..16384).contains(&m));
        // A public value divided by a public value.
        Self {
            m,
            v: u64::from((1u32 << 31) / m),
        }
    }

    /// (⌊x / m⌋, x mod m). Each step leaves a remainder below
    /// m·(x/2^31 + 1): below 3m after the first, 2m after the second.
    #[inline(always)]
    pub(crate) fn divmod(self, x: u32) -> (u32, u32) {
        let mut x = x;
        let q1 = ((u64::from(x) * self.v) >> 31) as u32;
        x = x.wrapping_sub(q1.wrapping_mul(self.m));
        let q2 = ((u64::from(x) * self.v) >> 31) as u32;
        x = x.wrapping_sub(q2.wrapping_mul(self.m));
        let mut q = q1.wrapping_add(q2).wrapping_add(1);
        x = x.wrapping_sub(self.m);
        let mask = ((x as i32) >> 31) as u32;
        x = x.wrapping_add(mask & self.m);
        q = q.wrapping_add(mask);
        (q, x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freeze_matches_rem_euclid() {
        for m in [3, 4591, 4621, 5167, 6343, 7177, 7879] {
            let md = Modulus::new(m);
            let half = (m - 1) / 2;
            let mut x: i32 = -(1 << 26) + 1;
            let step = if cfg!(miri) { 999_983 } else { 997 };
            while x < 1 << 26 {
                let want = (x + half).rem_euclid(m) - half;
                assert_eq!(i32::from(md.freeze(x)), want, "m={m} x={x}");
                x += step;
            }
            for x in -100..100 {
                let want = (x + half).rem_euclid(m) - half;
                assert_eq!(i32::from(md.freeze(x)), want);
            }
        }
    }

    #[test]
    fn modq_matches_rem_euclid() {
        for q in [4591, 4621, 5167, 6343, 7177, 7879] {
            let md = ModQ::new(q);
            let half = (q - 1) / 2;
            let step = if cfg!(miri) { 999_983 } else { 331 };
            let mut x: i32 = -(1 << 26) + 1;
            while x < 1 << 26 {
                for y in [x, x + 1, x + q - 1] {
                    if y < 1 << 26 {
                        let want = (y + half).rem_euclid(q) - half;
                        assert_eq!(i32::from(md.freeze(y)), want, "q={q} x={y}");
                    }
                }
                x += step;
            }
            for y in [(1 << 26) - 1, -(1 << 26) + 1, 0, 1, -1] {
                assert_eq!(i32::from(md.freeze(y)), (y + half).rem_euclid(q) - half);
            }
        }
    }

    #[test]
    fn f3_small_all() {
        for x in -2i8..=2 {
            assert_eq!(i32::from(f3_small(x)), (i32::from(x) + 1).rem_euclid(3) - 1);
        }
    }

    #[test]
    fn divmod_matches() {
        let xs = [
            0u32,
            1,
            2,
            255,
            65535,
            1 << 30,
            u32::MAX,
            u32::MAX - 1,
            123_456_789,
        ];
        for m in [1u32, 2, 3, 255, 256, 1531, 4591, 7879, 16383] {
            let d = Divisor::new(m);
            for &x in &xs {
                assert_eq!(d.divmod(x), (x / m, x % m), "m={m} x={x}");
            }
            let mut x = 7u32;
            for _ in 0..if cfg!(miri) { 50 } else { 20000 } {
                x = x.wrapping_mul(2_654_435_761).wrapping_add(12345);
                assert_eq!(d.divmod(x), (x / m, x % m), "m={m} x={x}");
            }
        }
    }
}
