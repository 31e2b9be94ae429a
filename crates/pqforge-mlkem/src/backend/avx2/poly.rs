//! Field arithmetic and encodings on 256-bit vectors (mirrors
//! `crate::poly`): lane-wise Montgomery and Barrett reduction (exact
//! equivalents of the scalar ones), reduction and Montgomery conversion of
//! whole polynomials, ByteEncode12, the modulus check and Compress_d.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_and_si256, _mm256_andnot_si256, _mm256_blend_epi16,
    _mm256_cmpgt_epi16, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_mulhi_epi16,
    _mm256_mulhi_epu16, _mm256_mulhrs_epi16, _mm256_mullo_epi16, _mm256_or_si256,
    _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_set1_epi16, _mm256_set1_epi32,
    _mm256_setr_epi32, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi16,
    _mm256_srai_epi16, _mm256_srli_epi16, _mm256_storeu_si256, _mm256_sub_epi16,
    _mm256_testz_si256,
};

use crate::poly::{N, POLY_BYTES, Poly, Q, QINV};

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn load16(t: &[i16; 16]) -> __m256i {
    // SAFETY: 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

/// Lane-wise Montgomery product a * z * 2^-16 with zq = z * q^-1 mod 2^16;
/// bit-identical to `poly::fqmul`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn fqmul_pre(a: __m256i, z: __m256i, zq: __m256i) -> __m256i {
    let hi = _mm256_mulhi_epi16(a, z);
    let t = _mm256_mullo_epi16(a, zq);
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q)))
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn fqmul(a: __m256i, b: __m256i) -> __m256i {
    fqmul_pre(a, b, _mm256_mullo_epi16(b, _mm256_set1_epi16(QINV)))
}

/// Lane-wise Barrett reduction; bit-identical to `poly::barrett_reduce`:
/// ((v a) >> 16 + 2^9) >> 10 == (v a + 2^25) >> 26.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn barrett(a: __m256i) -> __m256i {
    let t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(20159));
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(32));
    _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
}

/// The polynomial as 16 vectors, in place (no copy: a local copy of the
/// 512 bytes is turned into `memcpy` calls by the optimiser).
#[inline]
pub(super) fn regs(p: &mut Poly) -> &mut [__m256i; 16] {
    // SAFETY: Poly is repr(C, align(32)), 512 bytes of i16 at offset 0; an
    // [__m256i; 16] has the same size, alignment 32 and no invalid bit
    // patterns, and the borrow of `p` covers the whole lifetime.
    unsafe { &mut *core::ptr::from_mut(p).cast::<[__m256i; 16]>() }
}

/// Byte shuffle that spreads 12 bytes per 128-bit lane into eight 16-bit
/// candidates (bytes 3t, 3t+1 and 3t+1, 3t+2), after the qword permute
/// that gives lane 1 the input bytes 8..24 (so its data starts at 4).
pub(super) const REJ_SPREAD: [u8; 32] = [
    0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, //
    4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15,
];

/// Byte 0-2 of each 32-bit lane of a 128-bit half, then zeros.
const PICK24: [u8; 32] = [
    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80, //
    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80,
];

/// ByteEncode12 (= `poly::to_bytes`) of a polynomial with |c| < q: adds q
/// to negative values, joins each pair to `t0 + 2^12 t1` in a 32-bit lane
/// and keeps its three low bytes; 16 coefficients (24 bytes) per step.
#[target_feature(enable = "avx2")]
pub(super) fn to_bytes(p: &Poly, out: &mut [u8]) {
    let out = &mut out[..POLY_BYTES];
    let q = _mm256_set1_epi16(Q);
    let pair = _mm256_set1_epi32(0x1000_0001);
    // SAFETY: 32-byte table, unaligned load.
    let pick = unsafe { _mm256_loadu_si256(PICK24.as_ptr().cast()) };
    // Dwords 0-2 (low half) and 4-6 (high half) hold the 24 bytes.
    let join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    // Index loop with a constant trip count: no length division.
    for i in 0..N / 16 {
        let c = &p.c[16 * i..16 * i + 16];
        // SAFETY: `c` has 16 values = 32 readable bytes; unaligned load.
        let a = unsafe { _mm256_loadu_si256(c.as_ptr().cast()) };
        let a = _mm256_add_epi16(a, _mm256_and_si256(_mm256_srai_epi16::<15>(a), q));
        let x = _mm256_madd_epi16(a, pair);
        let x = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(x, pick), join);
        let mut b = [0u8; 32];
        // SAFETY: `b` has 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(b.as_mut_ptr().cast(), x) };
        out[24 * i..24 * i + 24].copy_from_slice(&b[..24]);
    }
}

/// Modulus check of ByteEncode12 data (= `poly::is_canonical_12`), 16
/// values per step; runs on public encapsulation keys.
#[target_feature(enable = "avx2")]
pub(super) fn is_canonical_12(bytes: &[u8]) -> bool {
    let mut pos = 0;
    let mut bad = _mm256_setzero_si256();
    let qm1 = _mm256_set1_epi16(Q - 1);
    let mask = _mm256_set1_epi16(0x0FFF);
    // SAFETY: 32-byte table, unaligned load.
    let spread = unsafe { _mm256_loadu_si256(REJ_SPREAD.as_ptr().cast()) };
    while pos + 32 <= bytes.len() {
        // SAFETY: pos + 32 <= bytes.len() (24 of the 32 bytes are used).
        let f = unsafe { _mm256_loadu_si256(bytes.as_ptr().add(pos).cast()) };
        let f = _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0x94>(f), spread);
        let f = _mm256_and_si256(
            _mm256_blend_epi16::<0xAA>(f, _mm256_srli_epi16::<4>(f)),
            mask,
        );
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi16(f, qm1));
        pos += 24;
    }
    _mm256_testz_si256(bad, bad) == 1 && crate::poly::is_canonical_12(&bytes[pos..])
}

/// d = 4, 5 (round(x 2^d / q) from one unsigned high multiplication and a
/// rounding shift) and d = 10, 11 (with a correction term from the low
/// product); other d fall back to the portable code. All formulas were
/// checked exhaustively over [0, q) (tests/backends.rs repeats it).
// Unaligned stores only, so the pointer cast needs no alignment.
#[allow(clippy::cast_ptr_alignment)]
#[target_feature(enable = "avx2")]
pub(super) fn compress_values<const D: u32>(p: &Poly, v: &mut [u16; N]) {
    if !matches!(D, 4 | 5 | 10 | 11) {
        crate::poly::compress_values::<D>(p, v);
        return;
    }
    // SAFETY: as in `regs` (shared borrow).
    let r = unsafe { &*core::ptr::from_ref(p).cast::<[__m256i; 16]>() };
    let q = _mm256_set1_epi16(Q);
    let mask = _mm256_set1_epi16(((1u32 << D) - 1) as i16);
    let vp = v.as_mut_ptr().cast::<__m256i>();
    for (i, &x) in r.iter().enumerate() {
        // Canonical representative: add q to negative lanes.
        let x = _mm256_add_epi16(x, _mm256_and_si256(_mm256_srai_epi16::<15>(x), q));
        let c = match D {
            4 => _mm256_mulhrs_epi16(
                _mm256_mulhi_epu16(x, _mm256_set1_epi16(40318u16 as i16)),
                _mm256_set1_epi16(1 << 8),
            ),
            5 => _mm256_mulhrs_epi16(
                _mm256_mulhi_epu16(x, _mm256_set1_epi16(40318u16 as i16)),
                _mm256_set1_epi16(1 << 9),
            ),
            _ => {
                // t = round(8 x v / 2^16) - borrow, then round off (d = 10: 3
                // bits, d = 11: 2 bits); v = 20159.
                let (off, sh) = if D == 10 {
                    (15, 1 << 12)
                } else {
                    (36, 1 << 13)
                };
                let v20159 = _mm256_set1_epi16(20159);
                let f1 = _mm256_mullo_epi16(x, _mm256_slli_epi16::<3>(v20159));
                let f2 = _mm256_sub_epi16(f1, _mm256_add_epi16(x, _mm256_set1_epi16(off)));
                let borrow = _mm256_srli_epi16::<15>(_mm256_andnot_si256(f1, f2));
                let f0 = _mm256_mulhi_epi16(_mm256_slli_epi16::<3>(x), v20159);
                _mm256_mulhrs_epi16(_mm256_sub_epi16(f0, borrow), _mm256_set1_epi16(sh))
            }
        };
        // SAFETY: register i of a 512-byte array (unaligned store).
        unsafe { _mm256_storeu_si256(vp.add(i), _mm256_and_si256(c, mask)) };
    }
}

/// Barrett reduction of every coefficient (= `poly::reduce`).
#[target_feature(enable = "avx2")]
pub(super) fn reduce(p: &mut Poly) {
    for v in regs(p) {
        *v = barrett(*v);
    }
}

/// Montgomery form of every coefficient (= `poly::tomont`).
#[target_feature(enable = "avx2")]
pub(super) fn tomont(p: &mut Poly) {
    let f = _mm256_set1_epi16(crate::poly::MONT_SQ);
    for v in regs(p) {
        *v = fqmul(*v, f);
    }
}
