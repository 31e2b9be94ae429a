//! The AVX2 backend: PCLMULQDQ on XMM registers for the products (blocks
//! of 4 words, Karatsuba in registers on 128-bit digits), AVX2 compares and
//! masked XORs for the sparse supports. One instance of
//! [`simd_backend!`](super::simd::simd_backend).
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, _mm_clmulepi64_si128, _mm_loadu_si128, _mm_shuffle_epi32, _mm_slli_si128,
    _mm_srli_si128, _mm_storeu_si128, _mm_xor_si128, _mm256_and_si256, _mm256_cmpeq_epi64,
    _mm256_loadu_si256, _mm256_set1_epi64x, _mm256_setr_epi64x, _mm256_storeu_si256,
    _mm256_xor_si256,
};

use pqforge_core::cpu::Avx2Pclmul;

super::simd::simd_backend! {
    /// The AVX2/PCLMULQDQ backend.
    Avx2: Avx2Pclmul, name = "avx2", features = "avx2,pclmulqdq",
    vector(__m128i, words = 2, load = _mm_loadu_si128, store = _mm_storeu_si128),
    karatsuba(block = 4, small_max = 8, small = mul_small), xor_bits = xor_bits
}

/// 128x128 -> 256-bit carry-less product (Karatsuba, three PCLMULQDQ).
#[target_feature(enable = "avx2,pclmulqdq")]
fn clmul128(x: __m128i, y: __m128i) -> (__m128i, __m128i) {
    let lo = _mm_clmulepi64_si128::<0x00>(x, y);
    let hi = _mm_clmulepi64_si128::<0x11>(x, y);
    // x0 ^ x1 in the low lane (the high lane is ignored by imm 0x00).
    let xs = _mm_xor_si128(x, _mm_shuffle_epi32::<0x4E>(x));
    let ys = _mm_xor_si128(y, _mm_shuffle_epi32::<0x4E>(y));
    let mid = _mm_xor_si128(_mm_clmulepi64_si128::<0x00>(xs, ys), _mm_xor_si128(lo, hi));
    (
        _mm_xor_si128(lo, _mm_slli_si128::<8>(mid)),
        _mm_xor_si128(hi, _mm_srli_si128::<8>(mid)),
    )
}

/// 256x256 -> 512-bit product of two digit pairs (one Karatsuba level on
/// 128-bit digits, nine PCLMULQDQ); digits low first.
#[target_feature(enable = "avx2,pclmulqdq")]
#[inline]
fn clmul256(a: [__m128i; 2], b: [__m128i; 2]) -> [__m128i; 4] {
    let (p0l, p0h) = clmul128(a[0], b[0]);
    let (p2l, p2h) = clmul128(a[1], b[1]);
    let (p1l, p1h) = clmul128(_mm_xor_si128(a[0], a[1]), _mm_xor_si128(b[0], b[1]));
    let p1l = _mm_xor_si128(p1l, _mm_xor_si128(p0l, p2l));
    let p1h = _mm_xor_si128(p1h, _mm_xor_si128(p0h, p2h));
    [p0l, _mm_xor_si128(p0h, p1l), _mm_xor_si128(p2l, p1h), p2h]
}

/// Product of two 4- or 8-word operands (the Karatsuba base cases).
#[target_feature(enable = "avx2,pclmulqdq")]
fn mul_small(r: &mut [u64], a: &[u64], b: &[u64]) {
    if a.len() == 4 {
        let p = clmul256(load::<2>(a), load::<2>(b));
        store::<4>(r, p);
        return;
    }
    assert_eq!(a.len(), 8);
    let x: [__m128i; 4] = load::<4>(a);
    let y: [__m128i; 4] = load::<4>(b);
    let p0 = clmul256([x[0], x[1]], [y[0], y[1]]);
    let p2 = clmul256([x[2], x[3]], [y[2], y[3]]);
    let p1 = clmul256(
        [_mm_xor_si128(x[0], x[2]), _mm_xor_si128(x[1], x[3])],
        [_mm_xor_si128(y[0], y[2]), _mm_xor_si128(y[1], y[3])],
    );
    let m: [__m128i; 4] =
        core::array::from_fn(|i| _mm_xor_si128(p1[i], _mm_xor_si128(p0[i], p2[i])));
    store::<8>(
        r,
        [
            p0[0],
            p0[1],
            _mm_xor_si128(p0[2], m[0]),
            _mm_xor_si128(p0[3], m[1]),
            _mm_xor_si128(p2[0], m[2]),
            _mm_xor_si128(p2[1], m[3]),
            p2[2],
            p2[3],
        ],
    );
}

/// [`Kernels::xor_bits`](crate::gf2x::Kernels::xor_bits) on 4-word chunks: one compare and one masked XOR
/// per (chunk, position).
#[target_feature(enable = "avx2,pclmulqdq")]
fn xor_bits(out: &mut [u64], idx: &[u32], bit: &[u64]) {
    assert_eq!(idx.len(), bit.len());
    if !out.len().is_multiple_of(4) {
        crate::gf2x::xor_bits_portable(out, idx, bit);
        return;
    }
    let lanes = _mm256_setr_epi64x(0, 1, 2, 3);
    for (c, chunk) in out.chunks_exact_mut(4).enumerate() {
        let widx = _mm256_xor_si256(lanes, _mm256_set1_epi64x((4 * c) as i64));
        // SAFETY: chunk is exactly 4 words (32 bytes); unaligned access.
        let mut acc = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        for (&ix, &b) in idx.iter().zip(bit) {
            let hit = _mm256_cmpeq_epi64(widx, _mm256_set1_epi64x(i64::from(ix)));
            acc = _mm256_xor_si256(acc, _mm256_and_si256(hit, _mm256_set1_epi64x(b as i64)));
        }
        // SAFETY: as above.
        unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast(), acc) };
    }
}
