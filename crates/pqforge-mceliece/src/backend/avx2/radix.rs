//! The radix conversions of the FFT on AVX2 (as the portable `radix`
//! module) on 256-lane planes, and the conversions between coefficient
//! arrays and bit planes.

use core::arch::x86_64::{
    _mm_cvtsi32_si128, _mm256_bslli_epi128, _mm256_bsrli_epi128, _mm256_cmpeq_epi16,
    _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_packus_epi16,
    _mm256_permute4x64_epi64, _mm256_set1_epi16, _mm256_setr_epi16, _mm256_sll_epi16,
    _mm256_sll_epi64, _mm256_srl_epi64, _mm256_srli_epi16, _mm256_storeu_si256,
};

use super::gf::{V, mul_in, planes_in};
use super::simd::{and, ld_words, xor, zero};
use crate::fft_consts::consts;

/// `QM[k][q]`: the index positions `i < 256` with `(i >> k) % 4 == q`
/// (quarter q of the blocks of `4 * 2^k`), as four words.
const QM: [[[u64; 4]; 4]; 7] = {
    let mut m = [[[0u64; 4]; 4]; 7];
    let mut k = 0;
    while k < 7 {
        let mut i = 0;
        while i < 256 {
            m[k][(i >> k) % 4][i / 64] |= 1u64 << (i % 64);
            i += 1;
        }
        k += 1;
    }
    m
};

/// One Taylor step on every plane (see `radix`): with `sh = 2^k`, quarter
/// `q` of each block of `4 sh` index positions moves by `sh` (towards 0,
/// or away for the transpose) and is added. Blocks never cross a
/// 64-bit word for `k < 5`, nor a 128-bit lane for `k = 5`.
#[inline]
#[target_feature(enable = "avx2")]
fn taylor_step<const M: usize>(p: &mut V<M>, k: usize, q: usize, up: bool) {
    let mask = ld_words(&QM[k][q]);
    let cnt = _mm_cvtsi32_si128(1 << k);
    for x in p.iter_mut() {
        let t = and(*x, mask);
        let t = match (k, up) {
            (0..5, false) => _mm256_srl_epi64(t, cnt),
            (0..5, true) => _mm256_sll_epi64(t, cnt),
            (5, false) => _mm256_bsrli_epi128::<4>(t),
            (5, true) => _mm256_bslli_epi128::<4>(t),
            // k = 6: one word; the masked word is never the one that
            // wraps around.
            (_, false) => _mm256_permute4x64_epi64::<0x39>(t),
            (_, true) => _mm256_permute4x64_epi64::<0x93>(t),
        };
        *x = xor(*x, t);
    }
}

/// `radix::radix` on 256-lane planes (`2^lc` coefficients, the rest 0).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn radix_v<const M: usize>(p: &mut V<M>, lc: usize) {
    let c = consts(M);
    for l in 0..M - 6 {
        mul_in::<M>(p, &planes_in::<M>(&c.scale[l]));
        for k in (l..lc - 1).rev() {
            taylor_step(p, k, 3, false);
            taylor_step(p, k, 2, false);
        }
    }
}

/// `radix::radix_tr` on 256-lane planes.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn radix_tr_v<const M: usize>(p: &mut V<M>, lc: usize) {
    let c = consts(M);
    for l in (0..M - 6).rev() {
        for k in l..lc - 1 {
            taylor_step(p, k, 1, true);
            taylor_step(p, k, 2, true);
        }
        mul_in::<M>(p, &planes_in::<M>(&c.scale[l]));
    }
}

/// Coefficients (at most `64 W`) to planes, 32 at a time: the bytes of
/// the 16-bit values are packed, then `movemask` collects one bit of
/// each.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn to_planes<const M: usize, const W: usize>(f: &[u16]) -> [[u64; 4]; M] {
    let mut buf = [0u16; 128];
    buf[..f.len()].copy_from_slice(f);
    let mut p = [[0u64; 4]; M];
    let ff = _mm256_set1_epi16(0xFF);
    for ch in 0..2 * W {
        let s = &buf[32 * ch..32 * ch + 32];
        // SAFETY: `s` has 64 readable bytes; two unaligned loads.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(s.as_ptr().cast()),
                _mm256_loadu_si256(s[16..].as_ptr().cast()),
            )
        };
        // packus interleaves the 128-bit halves; permute restores order.
        let lo = _mm256_permute4x64_epi64::<0xD8>(_mm256_packus_epi16(and(a, ff), and(b, ff)));
        let hi = _mm256_permute4x64_epi64::<0xD8>(_mm256_packus_epi16(
            _mm256_srli_epi16::<8>(a),
            _mm256_srli_epi16::<8>(b),
        ));
        for (bit, x) in p.iter_mut().enumerate() {
            let src = if bit < 8 { lo } else { hi };
            let sh = _mm_cvtsi32_si128(7 - (bit % 8) as i32);
            let mk = _mm256_movemask_epi8(_mm256_sll_epi16(src, sh)) as u32;
            x[ch / 2] |= u64::from(mk) << (32 * (ch % 2));
        }
    }
    zeroize::Zeroize::zeroize(&mut buf);
    p
}

/// The first `out.len()` (at most `64 W`) coefficients of the planes, 16
/// at a time: each 16-bit piece of a plane is broadcast and compared
/// against the lane's bit.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn from_planes<const M: usize, const W: usize>(p: &[[u64; 4]; M], out: &mut [u16]) {
    let mut buf = [0u16; 256];
    let sel = _mm256_setr_epi16(
        1,
        2,
        4,
        8,
        16,
        32,
        64,
        128,
        256,
        512,
        1024,
        2048,
        4096,
        8192,
        16384,
        i16::MIN,
    );
    for (ch, o) in buf[..16 * W * 4].chunks_exact_mut(16).enumerate() {
        let mut acc = zero();
        for (b, x) in p.iter().enumerate() {
            let piece = (x[ch / 4] >> (16 * (ch % 4))) as u16;
            let v = _mm256_cmpeq_epi16(and(_mm256_set1_epi16(piece as i16), sel), sel);
            acc = _mm256_or_si256(acc, and(v, _mm256_set1_epi16(1 << b)));
        }
        // SAFETY: `o` has 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), acc) };
    }
    out.copy_from_slice(&buf[..out.len()]);
    zeroize::Zeroize::zeroize(&mut buf);
}
