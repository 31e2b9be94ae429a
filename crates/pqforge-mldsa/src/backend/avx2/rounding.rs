//! Power2Round, Decompose, MakeHint, UseHint, the infinity-norm check and
//! the coefficient reductions on whole polynomials, 8 lanes at a time
//! (mirrors `crate::rounding` and `crate::arith`).
//!
//! Branch-free and division-free: Decompose's ⌊t / (2γ2 / 128)⌉ is the
//! portable multiply-and-shift, done with `_mm256_mulhi_epu16` on t < 2^16
//! (⌊(⌊t c / 2^16⌋ + 2^(s-1)) / 2^s⌋ = ⌊(t c + 2^(s+15)) / 2^(s+16)⌋),
//! and the products r1 · 2γ2 are shifts (and a 16-bit multiply for
//! γ2 = (q - 1)/88). Every function gives, lane for lane, the portable
//! function's result.

use core::arch::x86_64::{
    __m256i, _mm256_abs_epi32, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_cmpeq_epi32, _mm256_cmpgt_epi32, _mm256_mulhi_epu16, _mm256_mullo_epi16,
    _mm256_or_si256, _mm256_set1_epi32, _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srai_epi32,
    _mm256_sub_epi32, _mm256_testz_si256, _mm256_xor_si256,
};

use super::Poly;
use super::ntt::{load8, store8};
use crate::params::{D, GAMMA2_32, Q};

/// The polynomial as 32 rows of 8 coefficients.
#[inline]
fn rows(a: &Poly) -> &[[i32; 8]] {
    a.as_chunks::<8>().0
}

#[inline]
fn rows_mut(a: &mut Poly) -> &mut [[i32; 8]] {
    a.as_chunks_mut::<8>().0
}

/// x >> 31 & Q (q where x < 0).
#[inline]
#[target_feature(enable = "avx2")]
fn q_if_negative(x: __m256i) -> __m256i {
    _mm256_and_si256(_mm256_srai_epi32::<31>(x), _mm256_set1_epi32(Q))
}

/// Lane-wise `rounding::decompose::<G2>` of r in [0, q).
#[inline]
#[target_feature(enable = "avx2")]
fn decompose_v<const G2: i32>(r: __m256i) -> (__m256i, __m256i) {
    // t = ⌈r / 128⌉ < 2^16 (its upper 16 bits are zero, as are those of
    // the 16-bit constants below, so `mulhi_epu16` multiplies whole lanes).
    let t = _mm256_srai_epi32::<7>(_mm256_add_epi32(r, _mm256_set1_epi32(127)));
    let r1 = if G2 == GAMMA2_32 {
        // (t · 1025 + 2^21) >> 22, mod 16.
        let h = _mm256_mulhi_epu16(t, _mm256_set1_epi32(1025));
        let r1 = _mm256_srai_epi32::<6>(_mm256_add_epi32(h, _mm256_set1_epi32(1 << 5)));
        _mm256_and_si256(r1, _mm256_set1_epi32(15))
    } else {
        // (t · 11275 + 2^23) >> 24; 44 wraps to 0.
        let h = _mm256_mulhi_epu16(t, _mm256_set1_epi32(11_275));
        let r1 = _mm256_srai_epi32::<8>(_mm256_add_epi32(h, _mm256_set1_epi32(1 << 7)));
        let big = _mm256_cmpgt_epi32(r1, _mm256_set1_epi32(43));
        _mm256_andnot_si256(big, r1)
    };
    // r1 · 2γ2: 2γ2 = 1023 · 2^9 or 93 · 2^11 (r1 ≤ 43: a 16-bit product).
    let m = if G2 == GAMMA2_32 {
        _mm256_sub_epi32(_mm256_slli_epi32::<19>(r1), _mm256_slli_epi32::<9>(r1))
    } else {
        _mm256_slli_epi32::<11>(_mm256_mullo_epi16(r1, _mm256_set1_epi32(93)))
    };
    let r0 = _mm256_sub_epi32(r, m);
    // r0 > (q - 1)/2: subtract q (the r1 = 0 wrap).
    let wrap = _mm256_sub_epi32(_mm256_set1_epi32((Q - 1) / 2), r0);
    (r1, _mm256_sub_epi32(r0, q_if_negative(wrap)))
}

/// Power2Round of every coefficient in [0, q): a = a1 · 2^13 + a0 with a0
/// in (-2^12, 2^12], equal to `rounding::power2round`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn power2round(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
    for ((x, h), l) in rows(a).iter().zip(rows_mut(a1)).zip(rows_mut(a0)) {
        let x = load8(x);
        let r1 = _mm256_add_epi32(x, _mm256_set1_epi32((1 << (D - 1)) - 1));
        let r1 = _mm256_srai_epi32::<{ D as i32 }>(r1);
        store8(h, r1);
        store8(
            l,
            _mm256_sub_epi32(x, _mm256_slli_epi32::<{ D as i32 }>(r1)),
        );
    }
}

/// Decompose of every coefficient in [0, q) for γ2 = `G2` (`GAMMA2_88` or
/// `GAMMA2_32`), equal to `rounding::decompose::<G2>`: a1 in [0, m), a0 in
/// (-γ2, γ2], or a1 = 0 and a0 in [-γ2, 0) where a - a0 = q - 1.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn decompose<const G2: i32>(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
    for ((x, h), l) in rows(a).iter().zip(rows_mut(a1)).zip(rows_mut(a0)) {
        let (r1, r0) = decompose_v::<G2>(load8(x));
        store8(h, r1);
        store8(l, r0);
    }
}

/// MakeHint of every coefficient: h_i = 1 if adding z_i in (-q, q) to r_i
/// in [0, q) changes HighBits, else 0 (equal to `rounding::make_hint`).
/// Returns the number of ones.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn make_hint<const G2: i32>(z: &Poly, r: &Poly, h: &mut Poly) -> u32 {
    let one = _mm256_set1_epi32(1);
    let mut count = _mm256_setzero_si256();
    for ((zv, rv), hv) in rows(z).iter().zip(rows(r)).zip(rows_mut(h)) {
        let r = load8(rv);
        // s = r + z mod q in [0, q).
        let s = _mm256_add_epi32(r, load8(zv));
        let s = _mm256_add_epi32(s, q_if_negative(s));
        let s = _mm256_sub_epi32(
            s,
            q_if_negative(_mm256_sub_epi32(_mm256_set1_epi32(Q - 1), s)),
        );
        let d = _mm256_xor_si256(decompose_v::<G2>(r).0, decompose_v::<G2>(s).0);
        let bit = _mm256_andnot_si256(_mm256_cmpeq_epi32(d, _mm256_setzero_si256()), one);
        count = _mm256_add_epi32(count, bit);
        store8(hv, bit);
    }
    let mut lanes = [0i32; 8];
    store8(&mut lanes, count);
    lanes.iter().sum::<i32>() as u32
}

/// UseHint of every coefficient a_i in [0, q) with hint h_i (0, or anything
/// else meaning 1), in place, equal to `rounding::use_hint`: HighBits(a_i), moved one
/// step (mod m) up if h_i ≠ 0 and r0 > 0, down if h_i ≠ 0 and r0 ≤ 0
/// (r0 = 0 goes down).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn use_hint<const G2: i32>(a: &mut Poly, h: &Poly) {
    let zero = _mm256_setzero_si256();
    for (av, hv) in rows_mut(a).iter_mut().zip(rows(h)) {
        let (r1, r0) = decompose_v::<G2>(load8(av));
        // +1 where r0 > 0 (a signed compare: r0 = 0 is not up), else -1;
        // 0 where the hint is 0.
        let up = _mm256_cmpgt_epi32(r0, zero);
        let step = _mm256_sub_epi32(
            _mm256_and_si256(up, _mm256_set1_epi32(2)),
            _mm256_set1_epi32(1),
        );
        let no_hint = _mm256_cmpeq_epi32(load8(hv), zero);
        let v = _mm256_add_epi32(r1, _mm256_andnot_si256(no_hint, step));
        let v = if G2 == GAMMA2_32 {
            // m = 16: -1 → 15, 16 → 0.
            _mm256_and_si256(v, _mm256_set1_epi32(15))
        } else {
            // m = 44: -1 → 43, then 44 → 0.
            let v = _mm256_add_epi32(
                v,
                _mm256_and_si256(_mm256_srai_epi32::<31>(v), _mm256_set1_epi32(44)),
            );
            _mm256_andnot_si256(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(43)), v)
        };
        store8(av, v);
    }
}

/// Whether some |a_i| ≥ `bound` (for `bound` ≥ 1 and a_i ≠ i32::MIN),
/// looking at every coefficient (no early exit, one test at the end).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[must_use]
pub(crate) unsafe fn chknorm(a: &Poly, bound: i32) -> bool {
    let lim = _mm256_set1_epi32(bound.wrapping_sub(1));
    let mut acc = _mm256_setzero_si256();
    for x in rows(a) {
        let big = _mm256_cmpgt_epi32(_mm256_abs_epi32(load8(x)), lim);
        acc = _mm256_or_si256(acc, big);
    }
    _mm256_testz_si256(acc, acc) == 0
}

/// `arith::caddq` of every coefficient: (-q, q) to [0, q).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn caddq(a: &mut Poly) {
    for x in rows_mut(a) {
        let v = load8(x);
        store8(x, _mm256_add_epi32(v, q_if_negative(v)));
    }
}

/// `arith::reduce32` of every coefficient a ≤ 2^31 - 2^22 - 1: the result is
/// congruent to a, in [-6283008, 6283008] (q · t as shifts:
/// q = 2^23 - 2^13 + 1).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn reduce32(a: &mut Poly) {
    for x in rows_mut(a) {
        let v = load8(x);
        let t = _mm256_srai_epi32::<23>(_mm256_add_epi32(v, _mm256_set1_epi32(1 << 22)));
        let tq = _mm256_add_epi32(
            _mm256_sub_epi32(_mm256_slli_epi32::<23>(t), _mm256_slli_epi32::<13>(t)),
            t,
        );
        store8(x, _mm256_sub_epi32(v, tq));
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use pqforge_core::testing::TestRng;

    use super::super::testutil::{avx2_or_skip, in_range, poly_in};
    use super::*;
    use crate::arith;
    use crate::params::{GAMMA2_88, N};
    use crate::rounding as portable;

    /// Every r in [0, q) as polynomials of 256 consecutive values (the last
    /// one padded with q - 1).
    fn every_r() -> impl Iterator<Item = Poly> {
        // Under Miri (scripts/miri.sh --simd) every 1021st block and the
        // last one.
        let stride = if cfg!(miri) { 1021 } else { 1 };
        let last = (Q - 1) / N as i32 * N as i32;
        (0..Q)
            .step_by(N * stride)
            .chain(cfg!(miri).then_some(last))
            .map(|base| core::array::from_fn(|i| (base + i as i32).min(Q - 1)))
    }

    /// Decompose (and Power2Round) for every r in [0, q), both γ2.
    #[test]
    fn avx2_decompose_matches_portable_for_every_r() {
        if !avx2_or_skip("avx2_decompose_matches_portable_for_every_r") {
            return;
        }
        let (mut a1, mut a0) = ([0; N], [0; N]);
        for r in every_r() {
            // SAFETY: AVX2 detected above.
            unsafe { power2round(&r, &mut a1, &mut a0) };
            for i in 0..N {
                assert_eq!(
                    (a1[i], a0[i]),
                    portable::power2round(r[i]),
                    "power2round({})",
                    r[i]
                );
            }
            // SAFETY: AVX2 detected above.
            unsafe { decompose::<GAMMA2_88>(&r, &mut a1, &mut a0) };
            for i in 0..N {
                let want = portable::decompose::<GAMMA2_88>(r[i]);
                assert_eq!((a1[i], a0[i]), want, "decompose::<88>({})", r[i]);
            }
            // SAFETY: AVX2 detected above.
            unsafe { decompose::<GAMMA2_32>(&r, &mut a1, &mut a0) };
            for i in 0..N {
                let want = portable::decompose::<GAMMA2_32>(r[i]);
                assert_eq!((a1[i], a0[i]), want, "decompose::<32>({})", r[i]);
            }
        }
    }

    fn use_hint_case<const G2: i32>(r: &Poly, h: &Poly) {
        let mut got = *r;
        // SAFETY: the callers checked for AVX2.
        unsafe { use_hint::<G2>(&mut got, h) };
        for i in 0..N {
            let want = portable::use_hint::<G2>(h[i] as u32, r[i]);
            assert_eq!(got[i], want, "use_hint::<{G2}>(h = {}, r = {})", h[i], r[i]);
        }
    }

    /// UseHint for every r in [0, q), both γ2, hint 0 and 1 (and mixed):
    /// the regression for the UseHint(1, r0 = 0) bug class (r0 = 0 must
    /// go down, so "r0 > 0" has to be a strict signed compare).
    #[test]
    fn avx2_use_hint_matches_portable_for_every_r() {
        if !avx2_or_skip("avx2_use_hint_matches_portable_for_every_r") {
            return;
        }
        let mut rng = TestRng::new(0x5553_4548);
        let (zeros, ones) = ([0; N], [1; N]);
        for r in every_r() {
            let mixed = poly_in(&mut rng, 0, 1);
            for h in [&zeros, &ones, &mixed] {
                use_hint_case::<GAMMA2_88>(&r, h);
                use_hint_case::<GAMMA2_32>(&r, h);
            }
        }
        // The r0 = 0 values themselves (r = 2γ2 · r1, r1 > 0): down.
        for (g2, m) in [(GAMMA2_88, 44), (GAMMA2_32, 16)] {
            let r: Poly = core::array::from_fn(|i| 2 * g2 * (1 + i as i32 % (m - 1)));
            let mut got = r;
            // SAFETY: AVX2 detected above.
            unsafe {
                if g2 == GAMMA2_88 {
                    use_hint::<GAMMA2_88>(&mut got, &ones);
                } else {
                    use_hint::<GAMMA2_32>(&mut got, &ones);
                }
            }
            for i in 0..N {
                assert_eq!(
                    got[i],
                    r[i] / (2 * g2) - 1,
                    "UseHint(1, {}) must go down",
                    r[i]
                );
            }
        }
    }

    fn make_hint_case<const G2: i32>(z: &Poly, r: &Poly) {
        let mut h = [7; N];
        // SAFETY: the callers checked for AVX2.
        let n = unsafe { make_hint::<G2>(z, r, &mut h) };
        let mut ones = 0;
        for i in 0..N {
            let want = portable::make_hint::<G2>(z[i], r[i]);
            assert_eq!(
                h[i] as u32, want,
                "make_hint::<{G2}>(z = {}, r = {})",
                z[i], r[i]
            );
            ones += want;
        }
        assert_eq!(n, ones, "count of ones");
    }

    /// MakeHint for every r in [0, q), both γ2, against z at the edges of
    /// the HighBits boundaries (0, ±1, ±γ2, ±(γ2 ± 1), ±(q - 1)) and random
    /// z in (-q, q).
    #[test]
    fn avx2_make_hint_matches_portable_for_every_r() {
        if !avx2_or_skip("avx2_make_hint_matches_portable_for_every_r") {
            return;
        }
        let mut rng = TestRng::new(0x4d48_494e);
        for r in every_r() {
            let zr = poly_in(&mut rng, -Q + 1, Q - 1);
            for g2 in [GAMMA2_88, GAMMA2_32] {
                let mut zs = std::vec![zr];
                for z in [0, 1, g2 - 1, g2, g2 + 1, 2 * g2, Q - 1] {
                    zs.push([z; N]);
                    zs.push([-z; N]);
                }
                for z in &zs {
                    if g2 == GAMMA2_88 {
                        make_hint_case::<GAMMA2_88>(z, &r);
                    } else {
                        make_hint_case::<GAMMA2_32>(z, &r);
                    }
                }
            }
        }
    }

    /// chknorm at and around the bound, at every coefficient position, for
    /// the bounds ML-DSA uses (γ1 - β, γ2 - β, γ2, ...) and small ones.
    #[test]
    fn avx2_chknorm_boundaries() {
        if !avx2_or_skip("avx2_chknorm_boundaries") {
            return;
        }
        let mut rng = TestRng::new(0x4e4f_524d);
        let bounds = [
            1,
            2,
            (1 << 17) - 78,
            (1 << 19) - 196,
            (1 << 19) - 120,
            GAMMA2_88 - 78,
            GAMMA2_32 - 196,
            GAMMA2_32 - 120,
            GAMMA2_88,
            GAMMA2_32,
            (Q - 1) / 2,
            (Q - 1) / 2 + 1,
        ];
        for bound in bounds {
            let below = bound - 1;
            for pos in 0..N {
                // Background strictly inside the bound.
                let mut a = poly_in(&mut rng, -below, below);
                // SAFETY: AVX2 detected above.
                assert!(!unsafe { chknorm(&a, bound) }, "bound {bound}: all below");
                for v in [
                    below,
                    -below,
                    bound,
                    -bound,
                    bound + 1,
                    -bound - 1,
                    0,
                    (Q - 1) / 2,
                    -(Q - 1) / 2,
                ] {
                    a[pos] = v;
                    // SAFETY: AVX2 detected above.
                    let got = unsafe { chknorm(&a, bound) };
                    assert_eq!(got, v.abs() >= bound, "bound {bound}, a[{pos}] = {v}");
                }
            }
        }
        // Random reduced polynomials against the definition.
        for _ in 0..if cfg!(miri) { 100 } else { 10_000 } {
            let a = poly_in(&mut rng, -(Q - 1) / 2, (Q - 1) / 2);
            let bound = in_range(&mut rng, 1, (Q - 1) / 2 + 1);
            // SAFETY: AVX2 detected above.
            let got = unsafe { chknorm(&a, bound) };
            assert_eq!(got, a.iter().any(|x| x.abs() >= bound));
        }
    }

    #[test]
    fn avx2_caddq_reduce32_match_portable() {
        const TOP: i32 = i32::MAX - (1 << 22);
        if !avx2_or_skip("avx2_caddq_reduce32_match_portable") {
            return;
        }
        let mut rng = TestRng::new(0x5245_4443);
        let mut inputs: std::vec::Vec<Poly> = (0..if cfg!(miri) { 4 } else { 2000 })
            .map(|_| poly_in(&mut rng, i32::MIN, TOP))
            .collect();
        let edges = [
            i32::MIN,
            i32::MIN + 1,
            TOP,
            TOP - 1,
            -1,
            0,
            1,
            Q,
            -Q,
            Q - 1,
            1 << 22,
            (1 << 22) - 1,
            -(1 << 22),
            -(1 << 22) - 1,
        ];
        inputs.push(core::array::from_fn(|i| edges[i % edges.len()]));
        for a in inputs {
            let mut got = a;
            // SAFETY: AVX2 detected above.
            unsafe { reduce32(&mut got) };
            for i in 0..N {
                assert_eq!(got[i], arith::reduce32(a[i]), "reduce32({})", a[i]);
            }
        }
        let edges = [-Q + 1, -1, 0, 1, Q - 1];
        let mut inputs: std::vec::Vec<Poly> = (0..if cfg!(miri) { 4 } else { 2000 })
            .map(|_| poly_in(&mut rng, -Q + 1, Q - 1))
            .collect();
        inputs.push(core::array::from_fn(|i| edges[i % edges.len()]));
        for a in inputs {
            let mut got = a;
            // SAFETY: AVX2 detected above.
            unsafe { caddq(&mut got) };
            for i in 0..N {
                assert_eq!(got[i], arith::caddq(a[i]), "caddq({})", a[i]);
            }
        }
    }
}
