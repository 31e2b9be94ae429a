//! AVX2 column sums of the solver's direct big-integer products
//! ([`crate::digits`]).
//!
//! CT: no data-dependent branch, index or division; the loop bounds and
//! the terms depend only on public indices.

use core::arch::x86_64::{
    _mm_cmpgt_epi32, _mm_loadu_si128, _mm_maskload_epi32, _mm_set1_epi32, _mm_setr_epi32,
    _mm256_add_epi64, _mm256_and_si256, _mm256_cvtepi32_epi64, _mm256_mul_epi32,
    _mm256_set1_epi64x, _mm256_srli_epi64, _mm256_sub_epi64,
};

use pqforge_core::cpu::Avx2;

use super::zint::st4;
use crate::digits::{Digits, Term};

/// One output coefficient of a column-sum product
/// ([`crate::digits::comba_coeff`]): o[t] for t < o.len() from the terms
/// (i, j, neg), a_i the signed digits of `a`, b_j the reversed digits of
/// `b`. Four digit products per instruction (`_mm256_mul_epi32`, exact 62-bit
/// signed products); each product p is biased to p + 2^62 >= 0 so that its
/// low 31 bits and its high part (p >> 31 = (p + 2^62) >> 31 - 2^31) come
/// from logical shifts; the bias is taken back per column. The last one to
/// three digits of a run go through one masked load (lanes past the run
/// read as zero: their biased product is exactly the bias). The same sums
/// as the scalar loop, so the same words.
pub(crate) fn comba_coeff(
    _: Avx2,
    o: &mut [u32],
    a: Digits<'_, i32>,
    b: Digits<'_, i32>,
    terms: &[Term],
) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { comba_coeff_avx2(o, a, b, terms) }
}

#[target_feature(enable = "avx2")]
fn comba_coeff_avx2(o: &mut [u32], a: Digits<'_, i32>, b: Digits<'_, i32>, terms: &[Term]) {
    let (ad, alen, bd, blen) = (a.d, a.len, b.d, b.len);
    let m31 = _mm256_set1_epi64x(0x7FFF_FFFF);
    let bias = _mm256_set1_epi64x(1i64 << 62);
    let mut cc = 0i64;
    for (t, ot) in o.iter_mut().enumerate() {
        let u0 = (t + 1).saturating_sub(blen);
        let u1 = (t + 1).min(alen);
        let mut lo = 0i64;
        let mut hi = 0i64;
        if u0 < u1 {
            let len = u1 - u0;
            let nv = len >> 2;
            let rem = len & 3;
            // Lanes below `rem` (public: from the indices).
            let tail = _mm_cmpgt_epi32(_mm_set1_epi32(rem as i32), _mm_setr_epi32(0, 1, 2, 3));
            // Biased products per term (masked lanes included).
            let per_term = 4 * (nv + usize::from(rem != 0)) as i64;
            let zero = _mm256_set1_epi64x(0);
            let (mut lv, mut hv) = (zero, zero);
            // Number of biased products added minus subtracted.
            let mut nb = 0i64;
            for &(i, j, neg) in terms {
                let ar = &ad[i * alen + u0..i * alen + u1];
                let bo = j * blen + (blen - 1 + u0 - t);
                let br = &bd[bo..bo + len];
                let (mut l4, mut h4) = (zero, zero);
                for q in 0..nv {
                    // SAFETY: ar, br hold `len` >= 4 q + 4 i32; unaligned.
                    let (x, y) = unsafe {
                        (
                            _mm256_cvtepi32_epi64(_mm_loadu_si128(ar[4 * q..].as_ptr().cast())),
                            _mm256_cvtepi32_epi64(_mm_loadu_si128(br[4 * q..].as_ptr().cast())),
                        )
                    };
                    let p = _mm256_add_epi64(_mm256_mul_epi32(x, y), bias);
                    l4 = _mm256_add_epi64(l4, _mm256_and_si256(p, m31));
                    h4 = _mm256_add_epi64(h4, _mm256_srli_epi64(p, 31));
                }
                if rem != 0 {
                    let (at, bt) = (&ar[4 * nv..], &br[4 * nv..]);
                    // SAFETY: the mask enables only the rem = at.len() =
                    // bt.len() lanes in bounds; masked-off lanes are not
                    // read (and yield zero).
                    let (x, y) = unsafe {
                        (
                            _mm256_cvtepi32_epi64(_mm_maskload_epi32(at.as_ptr(), tail)),
                            _mm256_cvtepi32_epi64(_mm_maskload_epi32(bt.as_ptr(), tail)),
                        )
                    };
                    let p = _mm256_add_epi64(_mm256_mul_epi32(x, y), bias);
                    l4 = _mm256_add_epi64(l4, _mm256_and_si256(p, m31));
                    h4 = _mm256_add_epi64(h4, _mm256_srli_epi64(p, 31));
                }
                if neg {
                    lv = _mm256_sub_epi64(lv, l4);
                    hv = _mm256_sub_epi64(hv, h4);
                    nb -= per_term;
                } else {
                    lv = _mm256_add_epi64(lv, l4);
                    hv = _mm256_add_epi64(hv, h4);
                    nb += per_term;
                }
            }
            let (ls, hs) = (st4(lv), st4(hv));
            for j in 0..4 {
                lo = lo.wrapping_add(ls[j] as i64);
                hi = hi.wrapping_add(hs[j] as i64);
            }
            hi = hi.wrapping_sub(nb << 31);
        }
        let z = lo + cc;
        *ot = (z as u32) & 0x7FFF_FFFF;
        cc = (z >> 31) + hi;
    }
}
