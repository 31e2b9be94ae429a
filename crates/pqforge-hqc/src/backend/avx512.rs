//! The AVX-512 backend: VPCLMULQDQ on ZMM registers for the products
//! (blocks of 8 words, one 512x512-bit product per pair of vectors), AVX-512
//! compares into mask registers and masked XORs for the sparse supports.
//! One instance of [`simd_backend!`](super::simd::simd_backend).
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_alignr_epi64, _mm512_clmulepi64_epi128,
    _mm512_cmpeq_epi64_mask, _mm512_loadu_si512, _mm512_mask_xor_epi64, _mm512_set1_epi64,
    _mm512_setr_epi64, _mm512_setzero_si512, _mm512_shuffle_i64x2, _mm512_storeu_si512,
    _mm512_xor_si512,
};

use pqforge_core::cpu::Avx512Vpclmul;

super::simd::simd_backend! {
    /// The AVX-512/VPCLMULQDQ backend.
    Avx512: Avx512Vpclmul, name = "avx512",
    features = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2",
    vector(__m512i, words = 8, load = _mm512_loadu_si512, store = _mm512_storeu_si512),
    karatsuba(block = 8, small_max = 16, small = mul_small), xor_bits = xor_bits
}

/// 8x8-word (512x512-bit) product.
///
/// Each 128-bit digit A_i of `a` is broadcast and multiplied lane by lane
/// with the four digits of `b`: the low products (a_2i·b_2l) form a vector
/// aligned at word 2i, the high products at word 2i + 2 and the two middle
/// products at word 2i + 1. Terms at even word offsets are summed into V,
/// the middle terms (shifted back by one word) into W, and the result is
/// V + X^64·W; the shifts are `valignq` across the 1024-bit pair.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2")]
#[inline]
fn mul8(va: __m512i, vb: __m512i) -> (__m512i, __m512i) {
    let z = _mm512_setzero_si512();
    macro_rules! digit {
        ($imm:literal) => {{
            let ai = _mm512_shuffle_i64x2::<$imm>(va, va);
            let l = _mm512_clmulepi64_epi128::<0x00>(ai, vb);
            let h = _mm512_clmulepi64_epi128::<0x11>(ai, vb);
            let m = _mm512_xor_si512(
                _mm512_clmulepi64_epi128::<0x01>(ai, vb),
                _mm512_clmulepi64_epi128::<0x10>(ai, vb),
            );
            (l, h, m)
        }};
    }
    let (l0, h0, m0) = digit!(0x00);
    let (l1, h1, m1) = digit!(0x55);
    let (l2, h2, m2) = digit!(0xAA);
    let (l3, h3, m3) = digit!(0xFF);
    let s1 = _mm512_xor_si512(l1, h0);
    let s2 = _mm512_xor_si512(l2, h1);
    let s3 = _mm512_xor_si512(l3, h2);
    // alignr::<8 - k>(x, 0) = x << k words; alignr::<8 - k>(0, x) = the k
    // words shifted out.
    let vlo = _mm512_xor_si512(
        _mm512_xor_si512(l0, _mm512_alignr_epi64::<6>(s1, z)),
        _mm512_xor_si512(
            _mm512_alignr_epi64::<4>(s2, z),
            _mm512_alignr_epi64::<2>(s3, z),
        ),
    );
    let vhi = _mm512_xor_si512(
        _mm512_xor_si512(h3, _mm512_alignr_epi64::<6>(z, s1)),
        _mm512_xor_si512(
            _mm512_alignr_epi64::<4>(z, s2),
            _mm512_alignr_epi64::<2>(z, s3),
        ),
    );
    let wlo = _mm512_xor_si512(
        _mm512_xor_si512(m0, _mm512_alignr_epi64::<6>(m1, z)),
        _mm512_xor_si512(
            _mm512_alignr_epi64::<4>(m2, z),
            _mm512_alignr_epi64::<2>(m3, z),
        ),
    );
    let whi = _mm512_xor_si512(
        _mm512_alignr_epi64::<6>(z, m1),
        _mm512_xor_si512(
            _mm512_alignr_epi64::<4>(z, m2),
            _mm512_alignr_epi64::<2>(z, m3),
        ),
    );
    let rlo = _mm512_xor_si512(vlo, _mm512_alignr_epi64::<7>(wlo, z));
    let rhi = _mm512_xor_si512(vhi, _mm512_alignr_epi64::<7>(whi, wlo));
    (rlo, rhi)
}

/// Product of two 8- or 16-word operands (16: one Karatsuba level in
/// registers over [`mul8`]).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2")]
fn mul_small(r: &mut [u64], a: &[u64], b: &[u64]) {
    if a.len() == 8 {
        let (lo, hi) = mul8(load::<1>(a)[0], load::<1>(b)[0]);
        store::<2>(r, [lo, hi]);
        return;
    }
    assert_eq!(a.len(), 16);
    let [a0, a1] = load::<2>(a);
    let [b0, b1] = load::<2>(b);
    let (p0l, p0h) = mul8(a0, b0);
    let (p2l, p2h) = mul8(a1, b1);
    let (p1l, p1h) = mul8(_mm512_xor_si512(a0, a1), _mm512_xor_si512(b0, b1));
    let ml = _mm512_xor_si512(p1l, _mm512_xor_si512(p0l, p2l));
    let mh = _mm512_xor_si512(p1h, _mm512_xor_si512(p0h, p2h));
    store::<4>(
        r,
        [
            p0l,
            _mm512_xor_si512(p0h, ml),
            _mm512_xor_si512(p2l, mh),
            p2h,
        ],
    );
}

/// [`Kernels::xor_bits`](crate::gf2x::Kernels::xor_bits) on 8-word chunks: one compare into a mask register
/// and one masked XOR per (chunk, position).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2")]
fn xor_bits(out: &mut [u64], idx: &[u32], bit: &[u64]) {
    assert_eq!(idx.len(), bit.len());
    if !out.len().is_multiple_of(8) {
        crate::gf2x::xor_bits_portable(out, idx, bit);
        return;
    }
    let lanes = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    // Four chunks at a time: four independent accumulators share the
    // broadcasts of each position.
    let mut groups = out.chunks_exact_mut(32);
    let mut c0 = 0usize;
    for group in &mut groups {
        let widx: [__m512i; 4] = core::array::from_fn(|q| {
            _mm512_add_epi64(lanes, _mm512_set1_epi64((c0 + 8 * q) as i64))
        });
        let mut acc = load::<4>(group);
        for (&ix, &b) in idx.iter().zip(bit) {
            let vi = _mm512_set1_epi64(i64::from(ix));
            let vb = _mm512_set1_epi64(b as i64);
            for q in 0..4 {
                let hit = _mm512_cmpeq_epi64_mask(widx[q], vi);
                acc[q] = _mm512_mask_xor_epi64(acc[q], hit, acc[q], vb);
            }
        }
        store::<4>(group, acc);
        c0 += 32;
    }
    for chunk in groups.into_remainder().chunks_exact_mut(8) {
        let widx = _mm512_add_epi64(lanes, _mm512_set1_epi64(c0 as i64));
        let [mut acc] = load::<1>(chunk);
        for (&ix, &b) in idx.iter().zip(bit) {
            let hit = _mm512_cmpeq_epi64_mask(widx, _mm512_set1_epi64(i64::from(ix)));
            acc = _mm512_mask_xor_epi64(acc, hit, acc, _mm512_set1_epi64(b as i64));
        }
        store::<1>(chunk, [acc]);
        c0 += 8;
    }
}
