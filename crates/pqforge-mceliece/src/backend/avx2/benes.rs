//! The Benes network on AVX2 (as `benes::apply_bits`), on packed bits:
//! 256 per register, the same words in the same order as the portable
//! network (register `r` holds words `4r .. 4r + 3`).

use core::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_andnot_si256, _mm256_cvtepu32_epi64, _mm256_or_si256,
    _mm256_permute4x64_epi64, _mm256_set1_epi64x, _mm256_sll_epi64, _mm256_srl_epi64,
};

use super::simd::{and, join, ld, ld128, split, xor};

/// One layer of conditional swaps at stride `2^s` bits.
#[inline]
#[target_feature(enable = "avx2")]
fn layer(p: &mut [__m256i], cb: &[u8], s: usize) {
    if s >= 8 {
        let sr = 1usize << (s - 8);
        let mut k = 0;
        for blk in p.chunks_exact_mut(2 * sr) {
            let (lo, hi) = blk.split_at_mut(sr);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                // CT: control bits as masks.
                let d = and(xor(*x, *y), ld(cb, k));
                *x = xor(*x, d);
                *y = xor(*y, d);
                k += 32;
            }
        }
    } else if s >= 6 {
        // Word pairs inside one register: (0, 1), (2, 3) for s = 6 (their
        // control words 2r, 2r + 1), (0, 2), (1, 3) for s = 7.
        for (i, pr) in p.chunks_exact_mut(2).enumerate() {
            let c = ld(cb, 32 * i);
            let (x, y, c) = if s == 6 {
                let (x, y) = split::<true>(pr[0], pr[1]);
                (x, y, _mm256_permute4x64_epi64::<0xD8>(c))
            } else {
                let (x, y) = split::<false>(pr[0], pr[1]);
                (x, y, c)
            };
            let d = and(xor(x, y), c);
            let (x, y) = (xor(x, d), xor(y, d));
            (pr[0], pr[1]) = if s == 6 {
                join::<true>(x, y)
            } else {
                join::<false>(x, y)
            };
        }
    } else {
        const HI: [u64; 5] = [
            0xAAAA_AAAA_AAAA_AAAA,
            0xCCCC_CCCC_CCCC_CCCC,
            0xF0F0_F0F0_F0F0_F0F0,
            0xFF00_FF00_FF00_FF00,
            0xFFFF_0000_FFFF_0000,
        ];
        let st = _mm_cvtsi32_si128(1 << s);
        for (r, x) in p.iter_mut().enumerate() {
            // 32 control bits per word, spread to the positions whose bit
            // s is clear (as `benes::spread`).
            let mut m = _mm256_cvtepu32_epi64(ld128(&cb[16 * r..]));
            for j in (s..5).rev() {
                let h = _mm256_set1_epi64x(HI[j] as i64);
                let sj = _mm_cvtsi32_si128(1 << j);
                m = _mm256_or_si256(_mm256_andnot_si256(h, m), _mm256_sll_epi64(and(m, h), sj));
            }
            let d = and(xor(_mm256_srl_epi64(*x, st), *x), m);
            *x = xor(*x, xor(d, _mm256_sll_epi64(d, st)));
        }
    }
}

/// The Benes network (as `benes::apply_bits`), or its inverse.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn benes<const INV: bool>(p: &mut [__m256i], cb: &[u8], w: usize) {
    let lb = p.len() * 16; // bytes per layer: 2^w / 16
    let nl = 2 * w - 1;
    for i in 0..nl {
        let li = if INV { nl - 1 - i } else { i };
        let s = if li < w { li } else { 2 * w - 2 - li };
        layer(p, &cb[li * lb..(li + 1) * lb], s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::avx2::simd::{lanes, ld_words, zero};
    use pqforge_core::cpu::Avx2;
    use pqforge_core::testing::TestRng;
    use std::vec::Vec;

    fn check<const M: usize>(rng: &mut TestRng) {
        let nr = 1 << (M - 8);
        let nv = 4 * nr;
        let cb: Vec<u8> = (0..(2 * M - 1) << (M - 4))
            .map(|_| rng.next_u64() as u8)
            .collect();
        let bits: Vec<u64> = (0..nv).map(|_| rng.next_u64()).collect();
        for inv in [false, true] {
            let mut want = bits.clone();
            if inv {
                crate::benes::apply_bits_inv(&mut want, &cb, M);
            } else {
                crate::benes::apply_bits(&mut want, &cb, M);
            }
            // SAFETY: AVX2 was detected.
            let mut regs = [unsafe { zero() }; 32];
            let mut got = std::vec![0u64; nv];
            // SAFETY: AVX2 was detected.
            unsafe {
                for (r, x) in regs[..nr].iter_mut().enumerate() {
                    *x = ld_words(&bits[4 * r..]);
                }
                if inv {
                    benes::<true>(&mut regs[..nr], &cb, M);
                } else {
                    benes::<false>(&mut regs[..nr], &cb, M);
                }
                for (r, x) in regs[..nr].iter().enumerate() {
                    got[4 * r..4 * r + 4].copy_from_slice(&lanes(*x));
                }
            }
            assert!(got == want, "benes M={M} inv={inv}");
        }
    }

    #[test]
    fn benes_matches_portable() {
        if Avx2::detect().is_none() {
            return;
        }
        let mut rng = TestRng::new(0x0123_4567_89AB_CDEF);
        for _ in 0..3 {
            check::<13>(&mut rng);
            check::<12>(&mut rng);
        }
    }
}
