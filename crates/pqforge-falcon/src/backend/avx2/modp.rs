//! AVX2 NTT / inverse NTT modulo the 31-bit solver primes, and their
//! twiddle tables.
//!
//! Eight values per 256-bit register. A Montgomery product needs the full
//! 62-bit products, which `_mm256_mul_epu32` forms only for the even 32-bit
//! lanes, so the odd lanes are shifted down, multiplied separately and
//! merged back. Every butterfly result is fully reduced (in [0, p)), the
//! same word as the portable [`crate::modp::montymul`] /
//! [`crate::modp::add`] / [`crate::modp::sub`] give, and the butterflies
//! are applied layer by layer with the same twiddles as the portable
//! [`crate::modp::ntt`] / [`crate::modp::intt`], so the outputs are
//! identical.
//!
//! The layers whose butterfly distance is at least 8 words use one
//! broadcast twiddle per block; the last three (distance 4, 2, 1) regroup
//! the x and y halves of several blocks into two registers with lane
//! shuffles, and the matching twiddles with a lane permutation. Strided
//! inputs are gathered into a stack buffer (at most 1024 words) and
//! scattered back. The twiddle tables themselves ([`powers`]) are built by
//! eight power chains at once.
//!
//! CT: no data-dependent branch, index or division; loop bounds depend only
//! on the public size.

use pqforge_core::cpu::Avx2;
use zeroize::Zeroize;

use crate::modp::{Col, Prime, montymul as modp_montymul, r as modp_r, rev10};

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi32, _mm256_add_epi64, _mm256_and_si256,
    _mm256_blend_epi32, _mm256_castps_si256, _mm256_castsi128_si256, _mm256_castsi256_ps,
    _mm256_loadu_si256, _mm256_mul_epu32, _mm256_permute2x128_si256, _mm256_permutevar8x32_epi32,
    _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_setr_epi32, _mm256_shuffle_ps, _mm256_slli_epi64,
    _mm256_srai_epi32, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_sub_epi32,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};

/// a * b / 2^31 mod p on eight 32-bit lanes (a, b < p; result < p).
#[inline]
#[target_feature(enable = "avx2")]
fn montymul8(a: __m256i, b: __m256i, p: __m256i, p0i: __m256i) -> __m256i {
    let m31 = _mm256_set1_epi64x(0x7FFF_FFFF);
    // Even lanes in place, odd lanes shifted down to the even positions.
    let ze = _mm256_mul_epu32(a, b);
    let zo = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
    let we = _mm256_mul_epu32(_mm256_and_si256(_mm256_mul_epu32(ze, p0i), m31), p);
    let wo = _mm256_mul_epu32(_mm256_and_si256(_mm256_mul_epu32(zo, p0i), m31), p);
    // z + w < 2^63 and (z + w) / 2^31 < 2p < 2^32.
    let de = _mm256_srli_epi64(_mm256_add_epi64(ze, we), 31);
    let d_o = _mm256_slli_epi64(_mm256_srli_epi64(_mm256_add_epi64(zo, wo), 31), 32);
    let d = _mm256_sub_epi32(_mm256_blend_epi32::<0b1010_1010>(de, d_o), p);
    _mm256_add_epi32(d, _mm256_and_si256(p, _mm256_srai_epi32(d, 31)))
}

/// a + b mod p (a, b < p < 2^31), lane-wise.
#[inline]
#[target_feature(enable = "avx2")]
fn add8(a: __m256i, b: __m256i, p: __m256i) -> __m256i {
    let d = _mm256_sub_epi32(_mm256_add_epi32(a, b), p);
    _mm256_add_epi32(d, _mm256_and_si256(p, _mm256_srai_epi32(d, 31)))
}

/// a - b mod p (a, b < p < 2^31), lane-wise.
#[inline]
#[target_feature(enable = "avx2")]
fn sub8(a: __m256i, b: __m256i, p: __m256i) -> __m256i {
    let d = _mm256_sub_epi32(a, b);
    _mm256_add_epi32(d, _mm256_and_si256(p, _mm256_srai_epi32(d, 31)))
}

#[inline]
#[target_feature(enable = "avx2")]
fn ld8(a: &[u32], i: usize) -> __m256i {
    let s = &a[i..i + 8];
    // SAFETY: `s` is 8 readable words (bounds checked above); unaligned load.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn st8(a: &mut [u32], i: usize, v: __m256i) {
    let s = &mut a[i..i + 8];
    // SAFETY: `s` is 8 writable words (bounds checked above); unaligned store.
    unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), v) }
}

/// One butterfly layer of distance `HT` in {1, 2, 4} (twiddle of block u:
/// tw[u]), 16 words (16 / (2 HT) blocks) per step. The x and y halves of
/// the blocks are regrouped into two registers (the regrouping is undone
/// on store), and the twiddles are permuted to the block order of the
/// lanes. Forward (CT): x + s y, x - s y; inverse (GS): x + y, s (x - y).
#[inline]
#[target_feature(enable = "avx2")]
fn layer_small<const HT: usize, const INV: bool>(
    a: &mut [u32],
    tw: &[u32],
    pv: __m256i,
    p0v: __m256i,
) {
    let nb = 8 / HT;
    let mut u = 0;
    for j in (0..a.len()).step_by(16) {
        let sv = match HT {
            4 => {
                let (s0, s1) = (tw[u] as i32, tw[u + 1] as i32);
                _mm256_setr_epi32(s0, s0, s0, s0, s1, s1, s1, s1)
            }
            2 => {
                let t = &tw[u..u + 4];
                // SAFETY: `t` is 16 readable bytes; unaligned load.
                let v = unsafe { _mm_loadu_si128(t.as_ptr().cast()) };
                let perm = _mm256_setr_epi32(0, 0, 2, 2, 1, 1, 3, 3);
                _mm256_permutevar8x32_epi32(_mm256_castsi128_si256(v), perm)
            }
            _ => {
                let perm = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
                _mm256_permutevar8x32_epi32(ld8(tw, u), perm)
            }
        };
        let va = ld8(a, j);
        let vb = ld8(a, j + 8);
        let (x, y) = match HT {
            4 => (
                _mm256_permute2x128_si256::<0x20>(va, vb),
                _mm256_permute2x128_si256::<0x31>(va, vb),
            ),
            2 => (_mm256_unpacklo_epi64(va, vb), _mm256_unpackhi_epi64(va, vb)),
            _ => {
                let fa = _mm256_castsi256_ps(va);
                let fb = _mm256_castsi256_ps(vb);
                (
                    _mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(fa, fb)),
                    _mm256_castps_si256(_mm256_shuffle_ps::<0b11_01_11_01>(fa, fb)),
                )
            }
        };
        let (x, y) = if INV {
            (add8(x, y, pv), montymul8(sub8(x, y, pv), sv, pv, p0v))
        } else {
            let t = montymul8(y, sv, pv, p0v);
            (add8(x, t, pv), sub8(x, t, pv))
        };
        let (ra, rb) = match HT {
            4 => (
                _mm256_permute2x128_si256::<0x20>(x, y),
                _mm256_permute2x128_si256::<0x31>(x, y),
            ),
            2 => (_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y)),
            _ => (_mm256_unpacklo_epi32(x, y), _mm256_unpackhi_epi32(x, y)),
        };
        st8(a, j, ra);
        st8(a, j + 8, rb);
        u += nb;
    }
}

/// Contiguous forward NTT of a[..2^logn], logn >= 4.
#[target_feature(enable = "avx2")]
fn ntt_contig(a: &mut [u32], gm: &[u32], logn: u32, p: u32, p0i: u32) {
    let n = 1usize << logn;
    let a = &mut a[..n];
    let pv = _mm256_set1_epi32(p as i32);
    let p0v = _mm256_set1_epi32(p0i as i32);
    let mut t = n;
    let mut m = 1;
    while m < n {
        let ht = t >> 1;
        if ht == 4 {
            layer_small::<4, false>(a, &gm[m..], pv, p0v);
        } else if ht == 2 {
            layer_small::<2, false>(a, &gm[m..], pv, p0v);
        } else if ht == 1 {
            layer_small::<1, false>(a, &gm[m..], pv, p0v);
        } else {
            let mut v1 = 0;
            for u in 0..m {
                let sv = _mm256_set1_epi32(gm[m + u] as i32);
                for j in (v1..v1 + ht).step_by(8) {
                    let x = ld8(a, j);
                    let y = montymul8(ld8(a, j + ht), sv, pv, p0v);
                    st8(a, j, add8(x, y, pv));
                    st8(a, j + ht, sub8(x, y, pv));
                }
                v1 += t;
            }
        }
        t = ht;
        m <<= 1;
    }
}

/// Contiguous inverse NTT of a[..2^logn] with the 1/n scaling, logn >= 4.
#[target_feature(enable = "avx2")]
fn intt_contig(a: &mut [u32], igm: &[u32], logn: u32, p: u32, p0i: u32) {
    let n = 1usize << logn;
    let a = &mut a[..n];
    let pv = _mm256_set1_epi32(p as i32);
    let p0v = _mm256_set1_epi32(p0i as i32);
    let mut t = 1;
    let mut m = n;
    while m > 1 {
        let hm = m >> 1;
        let dt = t << 1;
        if t == 1 {
            layer_small::<1, true>(a, &igm[hm..], pv, p0v);
        } else if t == 2 {
            layer_small::<2, true>(a, &igm[hm..], pv, p0v);
        } else if t == 4 {
            layer_small::<4, true>(a, &igm[hm..], pv, p0v);
        } else {
            let mut v1 = 0;
            for u in 0..hm {
                let sv = _mm256_set1_epi32(igm[hm + u] as i32);
                for j in (v1..v1 + t).step_by(8) {
                    let x = ld8(a, j);
                    let y = ld8(a, j + t);
                    st8(a, j, add8(x, y, pv));
                    st8(a, j + t, montymul8(sub8(x, y, pv), sv, pv, p0v));
                }
                v1 += dt;
            }
        }
        t = dt;
        m = hm;
    }
    let niv = _mm256_set1_epi32((1u32 << (31 - logn)) as i32);
    for j in (0..n).step_by(8) {
        st8(a, j, montymul8(ld8(a, j), niv, pv, p0v));
    }
}

/// The power tables of [`crate::modp::mkgm2`] for logn in 4..=10 (g, ig:
/// the root and its inverse, Montgomery form) by eight interleaved chains,
/// one per lane (steps g^8, ig^8). Montgomery products are fully reduced,
/// so every entry is the unique representative of g^u R mod p, as with the
/// scalar chains.
pub(crate) fn powers(
    _: Avx2,
    gm: &mut [u32],
    igm: &mut [u32],
    logn: u32,
    roots: (u32, u32),
    pr: &Prime,
) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { powers_avx2(gm, igm, logn, roots, pr) }
}

#[target_feature(enable = "avx2")]
fn powers_avx2(gm: &mut [u32], igm: &mut [u32], logn: u32, (g, ig): (u32, u32), pr: &Prime) {
    let (p, p0i) = (pr.p, pr.p0i);
    let n = 1usize << logn;
    let k = 10 - logn;
    let mut x1 = [0u32; 8];
    let mut x2 = [0u32; 8];
    x1[0] = modp_r(p);
    x2[0] = modp_r(p);
    for j in 1..8 {
        x1[j] = modp_montymul(x1[j - 1], g, p, p0i);
        x2[j] = modp_montymul(x2[j - 1], ig, p, p0i);
    }
    // g^8, ig^8: x^(j+8) = x^j g^8.
    let g8 = modp_montymul(x1[7], g, p, p0i);
    let ig8 = modp_montymul(x2[7], ig, p, p0i);
    let pv = _mm256_set1_epi32(p as i32);
    let p0v = _mm256_set1_epi32(p0i as i32);
    let g8v = _mm256_set1_epi32(g8 as i32);
    let ig8v = _mm256_set1_epi32(ig8 as i32);
    let mut v1 = ld8(&x1, 0);
    let mut v2 = ld8(&x2, 0);
    for u in (0..n).step_by(8) {
        st8(&mut x1, 0, v1);
        st8(&mut x2, 0, v2);
        for j in 0..8 {
            let r = rev10((u + j) << k);
            gm[r] = x1[j];
            igm[r] = x2[j];
        }
        v1 = montymul8(v1, g8v, pv, p0v);
        v2 = montymul8(v2, ig8v, pv, p0v);
    }
}

/// Forward NTT of a column (logn in 4..=10).
pub(crate) fn ntt(t: Avx2, a: Col<'_>, gm: &[u32], logn: u32, pr: &Prime) {
    transform::<false>(t, a, gm, logn, pr);
}

/// Inverse NTT of a column (logn in 4..=10), with the 1/n scaling.
pub(crate) fn intt(t: Avx2, a: Col<'_>, igm: &[u32], logn: u32, pr: &Prime) {
    transform::<true>(t, a, igm, logn, pr);
}

/// The NTT (`INV` false) or inverse NTT of a column: contiguous columns in
/// place, strided ones gathered into a stack buffer and scattered back
/// (O(n) copies against O(n log n) products).
fn transform<const INV: bool>(_: Avx2, a: Col<'_>, tw: &[u32], logn: u32, pr: &Prime) {
    let Col {
        buf: a,
        off,
        stride,
    } = a;
    let (p, p0i) = (pr.p, pr.p0i);
    let n = 1usize << logn;
    let run = |b: &mut [u32]| {
        // SAFETY: the token proves that the CPU supports AVX2.
        unsafe {
            if INV {
                intt_contig(b, tw, logn, p, p0i);
            } else {
                ntt_contig(b, tw, logn, p, p0i);
            }
        }
    };
    if stride == 1 {
        run(&mut a[off..off + n]);
        return;
    }
    let mut buf = [0u32; 1024];
    let b = &mut buf[..n];
    for (k, w) in b.iter_mut().enumerate() {
        *w = a[off + k * stride];
    }
    run(b);
    for (k, w) in b.iter().enumerate() {
        a[off + k * stride] = *w;
    }
    // The values are residues of secret polynomials.
    buf.zeroize();
}
