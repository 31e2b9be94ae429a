//! Constant-time scalar arithmetic: reduction modulo q and modulo 3, and a
//! division by a public 14-bit divisor, all by multiplication. No hardware
//! division anywhere: the reciprocals of the public moduli and radices come
//! from [`div_public`] (shift and subtract), so the division scans
//! (`scripts/divscan.sh`, `cargo xtask m4 divscan`) find none in this crate.

/// ⌊n / d⌋ for public `n` and `d` (1 ≤ d < 2^32) by binary long division
/// (shift and subtract, no division instruction at any opt-level or on
/// any target: LLVM keeps a `div` for `/` at opt-level "z", and the
/// Cortex-M4 has `udiv`). Only for public values: the loop branches on
/// the operands.
#[inline]
pub(crate) const fn div_public(n: u64, d: u64) -> u64 {
    debug_assert!(d >= 1 && d < 1 << 32);
    let mut q = 0u64;
    let mut r = 0u64;
    let mut i = 64;
    while i > 0 {
        i -= 1;
        r = (r << 1) | ((n >> i) & 1);
        if r >= d {
            r -= d;
            q |= 1 << i;
        }
    }
    q
}

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
        assert!(m >= 3 && m < 1 << 14 && m & 1 == 1);
        let mu = m as u32;
        let half = (m - 1) >> 1;
        let k = div_public(1 << 26, mu as u64) as i32 + 1;
        Self {
            m: mu,
            half,
            v: div_public(1 << 32, mu as u64) as u32,
            off: k * m + half,
        }
    }

    /// The modulus m (read by the AVX2 product only, which other targets
    /// and the forced-portable build leave out).
    #[cfg_attr(
        any(not(target_arch = "x86_64"), pqforge_backend = "portable"),
        allow(dead_code)
    )]
    #[inline(always)]
    pub(crate) const fn value(self) -> i32 {
        self.m as i32
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
        let half = (q - 1) >> 1;
        Self {
            q,
            half,
            v: div_public(1 << 27, q as u64) as i32,
            off: (div_public(1 << 26, q as u64) as i32 + 1) * q + half,
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
///
/// `seven` must be 7, passed through a value barrier by the caller
/// ([`shift7`], once per loop): the masks are arithmetic shifts by that
/// opaque count, so LLVM cannot prove they are 0 or -1 and turn the masked
/// corrections back into selects or branches. A barrier on each mask would
/// do the same but costs a stack round trip per element on x86_64
/// (`black_box`) and stops the loop from vectorizing; the opaque shift
/// count is loop-invariant and vectorizes (a shift by a register count).
#[inline(always)]
pub(crate) fn f3_small(x: i8, seven: u32) -> i8 {
    let above = (1i8.wrapping_sub(x)).wrapping_shr(seven); // -1 iff x > 1
    let below = x.wrapping_add(1).wrapping_shr(seven); // -1 iff x < -1
    x - (3 & above) + (3 & below)
}

/// The shift count 7 through a value barrier (see [`f3_small`]).
#[inline(always)]
pub(crate) fn shift7() -> u32 {
    pqforge_core::ct::barrier_u32(7)
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

/// The divstep's swap: -1 iff δ > 0 and `g0` ≠ 0, else 0. Both masks pass
/// a value barrier, so that the compiler cannot know they are 0 or -1:
/// otherwise it may turn their AND into a select, which the Cortex-M4
/// build compiled as a predicated instruction (`it ne; asrne`) on the
/// secret g0.
#[inline(always)]
pub(crate) fn swap_mask(delta: i32, g0: i32) -> i32 {
    let pos = pqforge_core::ct::barrier_u32(negative_mask(-delta) as u32) as i32;
    let nz = pqforge_core::ct::barrier_u32(nonzero_mask(g0) as u32) as i32;
    pos & nz
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
    /// The divisor `m` (public: the radix of a codec digit). The
    /// reciprocal comes from [`div_public`], not from a hardware division.
    #[inline]
    pub(crate) const fn new(m: u32) -> Self {
        debug_assert!(m >= 1 && m < 16384);
        Self {
            m,
            v: div_public(1 << 31, m as u64),
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
            assert_eq!(
                i32::from(f3_small(x, shift7())),
                (i32::from(x) + 1).rem_euclid(3) - 1
            );
        }
    }

    #[test]
    fn div_public_matches() {
        for d in [
            1u64,
            2,
            3,
            7,
            255,
            256,
            4591,
            7879,
            16383,
            u64::from(u32::MAX),
        ] {
            for n in [0u64, 1, 1 << 26, 1 << 27, 1 << 31, 1 << 32, u64::MAX] {
                assert_eq!(div_public(n, d), n / d, "n={n} d={d}");
            }
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
