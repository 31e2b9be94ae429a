//! x86_64 backends: [`Avx2`] (PCLMULQDQ on XMM registers, AVX2 for the
//! bulk XORs and compares) and [`Avx512`] (VPCLMULQDQ on ZMM registers,
//! AVX-512 masks).
//!
//! Each backend has a token type ([`Avx2Token`], [`Avx512Token`]) that can
//! only be made after the CPU features were detected; the protocol entry
//! points take the token and call `#[target_feature]` functions that only
//! instantiate the generic protocol of [`crate::kem`] with the backend, so
//! the whole path is compiled for the instruction set. The backend types
//! themselves are only ever instantiated by those entry points.
//!
//! Constant time: carry-less multiplies, XORs, shuffles, compares into
//! masks and masked moves have data-independent timing; nothing branches on
//! or indexes memory with secret data.
//!
//! Valgrind 3.19 does not emulate AVX-512 (and hides it from CPUID), so
//! under the constant-time harness the [`Avx2`] backend is the one that
//! runs.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, _mm_clmulepi64_si128, _mm_loadu_si128, _mm_shuffle_epi32, _mm_slli_si128,
    _mm_srli_si128, _mm_storeu_si128, _mm_xor_si128, _mm256_and_si256, _mm256_cmpeq_epi64,
    _mm256_loadu_si256, _mm256_set1_epi64x, _mm256_setr_epi64x, _mm256_storeu_si256,
    _mm256_xor_si256,
};

use pqforge_core::cpu;

use crate::gf2x::{Backend, karatsuba_fn, xor_bits_portable};
use crate::params::{ParameterSet, SALT_BYTES, SEED_BYTES, SS_BYTES};

// ---------------------------------------------------------------------------
// AVX2 + PCLMULQDQ
// ---------------------------------------------------------------------------

/// Proof that AVX2 and PCLMULQDQ are available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Token(());

impl Avx2Token {
    /// The token, if the CPU (and OS) support AVX2 and PCLMULQDQ.
    pub(crate) fn detect() -> Option<Self> {
        (cpu::avx2() && cpu::pclmulqdq()).then_some(Self(()))
    }
}

/// The AVX2/PCLMULQDQ backend (instantiated only behind an [`Avx2Token`]).
pub(crate) struct Avx2;

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

/// Loads `N` 128-bit digits from `x` (at least 2N words).
#[target_feature(enable = "avx2,pclmulqdq")]
#[inline]
fn load_digits<const N: usize>(x: &[u64]) -> [__m128i; N] {
    assert!(x.len() >= 2 * N);
    // SAFETY: x holds at least 2N words (checked above); digit i is the
    // unaligned 16 bytes at word 2i.
    core::array::from_fn(|i| unsafe { _mm_loadu_si128(x.as_ptr().add(2 * i).cast()) })
}

/// Stores `N` 128-bit digits to `r` (at least 2N words).
#[target_feature(enable = "avx2,pclmulqdq")]
#[inline]
fn store_digits<const N: usize>(r: &mut [u64], d: [__m128i; N]) {
    assert!(r.len() >= 2 * N);
    for (i, v) in d.into_iter().enumerate() {
        // SAFETY: r holds at least 2N words (checked above).
        unsafe { _mm_storeu_si128(r.as_mut_ptr().add(2 * i).cast(), v) };
    }
}

/// Product of two 4- or 8-word operands (the Karatsuba base cases).
#[target_feature(enable = "avx2,pclmulqdq")]
fn mul_small_avx2(r: &mut [u64], a: &[u64], b: &[u64]) {
    if a.len() == 4 {
        let p = clmul256(load_digits::<2>(a), load_digits::<2>(b));
        store_digits::<4>(r, p);
        return;
    }
    assert_eq!(a.len(), 8);
    let x: [__m128i; 4] = load_digits::<4>(a);
    let y: [__m128i; 4] = load_digits::<4>(b);
    let p0 = clmul256([x[0], x[1]], [y[0], y[1]]);
    let p2 = clmul256([x[2], x[3]], [y[2], y[3]]);
    let p1 = clmul256(
        [_mm_xor_si128(x[0], x[2]), _mm_xor_si128(x[1], x[3])],
        [_mm_xor_si128(y[0], y[2]), _mm_xor_si128(y[1], y[3])],
    );
    let m: [__m128i; 4] =
        core::array::from_fn(|i| _mm_xor_si128(p1[i], _mm_xor_si128(p0[i], p2[i])));
    store_digits::<8>(
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

karatsuba_fn!(
    /// Karatsuba on 4-word blocks for the AVX2 backend.
    #[target_feature(enable = "avx2,pclmulqdq")]
    karatsuba_avx2,
    4,
    8,
    mul_small_avx2
);

/// [`Backend::xor_bits`] on 4-word chunks: one compare and one masked XOR
/// per (chunk, position).
#[target_feature(enable = "avx2,pclmulqdq")]
fn xor_bits_avx2(out: &mut [u64], idx: &[u32], bit: &[u64]) {
    assert_eq!(idx.len(), bit.len());
    if !out.len().is_multiple_of(4) {
        xor_bits_portable(out, idx, bit);
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

/// [`Backend::decode`] compiled for this backend's instruction set.
#[target_feature(enable = "avx2,pclmulqdq")]
fn decode_avx2<P: ParameterSet>(m: &mut [u8], word: &[u64]) {
    crate::code::decode_generic::<P>(m, word);
}

/// `#[target_feature]` copies of the HQC-PKE stages for one backend, each
/// kept out of line so that every stage has a frame of its own (the stage
/// bodies are inlined into them and compiled for the instruction set).
macro_rules! stage_fns {
    ($b:ty, $features:literal) => {
        #[target_feature(enable = $features)]
        #[inline(never)]
        fn pke_keygen_tf<P: ParameterSet, S: crate::kem::Sink>(
            sink: &mut S,
            seed_dk: &[u8],
            seed_ek: &[u8],
        ) {
            crate::kem::pke_keygen::<P, $b, S>(sink, seed_dk, seed_ek);
        }

        #[target_feature(enable = $features)]
        #[inline(never)]
        fn pke_encrypt_tf<P: ParameterSet, S: crate::kem::Sink>(
            sink: &mut S,
            ek: &[u8],
            m: &[u8],
            theta: &[u8],
        ) {
            crate::kem::pke_encrypt::<P, $b, S>(sink, ek, m, theta);
        }

        #[target_feature(enable = $features)]
        #[inline(never)]
        fn pke_decrypt_tf<P: ParameterSet>(m: &mut [u8], seed_dk: &[u8], c_pke: &[u8]) {
            crate::kem::pke_decrypt::<P, $b>(m, seed_dk, c_pke);
        }
    };
}

stage_fns!(Avx2, "avx2,pclmulqdq");

impl Backend for Avx2 {
    const NAME: &'static str = "avx2";

    fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64], scratch: &mut [u64]) {
        debug_assert!(Avx2Token::detect().is_some());
        // SAFETY: `Avx2` is only instantiated by the entry points below,
        // which run only with an `Avx2Token`: AVX2 and PCLMULQDQ were
        // detected.
        unsafe { karatsuba_avx2(r, a, b, scratch) }
    }

    fn xor_bits(out: &mut [u64], idx: &[u32], bit: &[u64]) {
        debug_assert!(Avx2Token::detect().is_some());
        // SAFETY: as in `mul_wide`.
        unsafe { xor_bits_avx2(out, idx, bit) }
    }

    fn decode<P: ParameterSet>(m: &mut [u8], word: &[u64]) {
        // SAFETY: as in `mul_wide`.
        unsafe { decode_avx2::<P>(m, word) }
    }

    fn pke_keygen<P: ParameterSet, S: crate::kem::Sink>(
        sink: &mut S,
        seed_dk: &[u8],
        seed_ek: &[u8],
    ) {
        // SAFETY: as in `mul_wide`.
        unsafe { pke_keygen_tf::<P, S>(sink, seed_dk, seed_ek) }
    }

    fn pke_encrypt<P: ParameterSet, S: crate::kem::Sink>(
        sink: &mut S,
        ek: &[u8],
        m: &[u8],
        theta: &[u8],
    ) {
        // SAFETY: as in `mul_wide`.
        unsafe { pke_encrypt_tf::<P, S>(sink, ek, m, theta) }
    }

    fn pke_decrypt<P: ParameterSet>(m: &mut [u8], seed_dk: &[u8], c_pke: &[u8]) {
        // SAFETY: as in `mul_wide`.
        unsafe { pke_decrypt_tf::<P>(m, seed_dk, c_pke) }
    }
}

// ---------------------------------------------------------------------------
// Protocol entry points
// ---------------------------------------------------------------------------

/// For a token type, a backend type and its feature list: `#[target_feature]`
/// functions that instantiate the generic protocol with the backend, and
/// safe token methods that call them.
macro_rules! entry_points {
    ($token:ident, $b:ty, $m:ident, $features:literal) => {
        mod $m {
            #[allow(clippy::wildcard_imports)]
            #[allow(clippy::wildcard_imports)]
            use super::*;
            use crate::params::{ParameterSet, SALT_BYTES, SEED_BYTES, SS_BYTES};

            #[target_feature(enable = $features)]
            pub(super) fn keygen_into<P: ParameterSet>(
                seed_kem: &[u8; SEED_BYTES],
                ek: &mut [u8],
                dk: &mut [u8],
            ) {
                crate::kem::keygen_into::<P, $b>(seed_kem, ek, dk);
            }

            #[target_feature(enable = $features)]
            pub(super) fn encaps_into<P: ParameterSet>(
                ek: &[u8],
                m: &[u8],
                salt: &[u8; SALT_BYTES],
                ct: &mut [u8],
                k: &mut [u8; SS_BYTES],
            ) {
                crate::kem::encaps_into::<P, $b>(ek, m, salt, ct, k);
            }

            #[target_feature(enable = $features)]
            pub(super) fn decaps<P: ParameterSet>(dk: &[u8], ct: &[u8], k: &mut [u8; SS_BYTES]) {
                crate::kem::decaps::<P, $b>(dk, ct, k);
            }

            #[target_feature(enable = $features)]
            pub(super) fn check_decaps_key<P: ParameterSet>(skb: &[u8]) -> u8 {
                crate::kem::check_decaps_key::<P, $b>(skb)
            }

            #[target_feature(enable = $features)]
            pub(super) fn mul_mod<P: ParameterSet>(out: &mut P::Poly, a: &P::Poly, b: &P::Poly) {
                let mut scratch = P::SCRATCH_ZERO;
                crate::gf2x::mul_mod::<$b>(
                    out.as_mut(),
                    a.as_ref(),
                    b.as_ref(),
                    P::N,
                    scratch.as_mut(),
                );
            }
        }

        // SAFETY (all methods): a token exists only if `detect` found every
        // feature of the target_feature list on this CPU.
        impl $token {
            pub(crate) fn keygen_into<P: ParameterSet>(
                self,
                seed_kem: &[u8; SEED_BYTES],
                ek: &mut [u8],
                dk: &mut [u8],
            ) {
                // SAFETY: see above (the token proves the features).
                unsafe { $m::keygen_into::<P>(seed_kem, ek, dk) }
            }

            pub(crate) fn encaps_into<P: ParameterSet>(
                self,
                ek: &[u8],
                m: &[u8],
                salt: &[u8; SALT_BYTES],
                ct: &mut [u8],
                k: &mut [u8; SS_BYTES],
            ) {
                // SAFETY: see above (the token proves the features).
                unsafe { $m::encaps_into::<P>(ek, m, salt, ct, k) }
            }

            pub(crate) fn decaps<P: ParameterSet>(
                self,
                dk: &[u8],
                ct: &[u8],
                k: &mut [u8; SS_BYTES],
            ) {
                // SAFETY: see above (the token proves the features).
                unsafe { $m::decaps::<P>(dk, ct, k) }
            }

            pub(crate) fn check_decaps_key<P: ParameterSet>(self, skb: &[u8]) -> u8 {
                // SAFETY: see above (the token proves the features).
                unsafe { $m::check_decaps_key::<P>(skb) }
            }

            pub(crate) fn mul_mod<P: ParameterSet>(
                self,
                out: &mut P::Poly,
                a: &P::Poly,
                b: &P::Poly,
            ) {
                // SAFETY: see above (the token proves the features).
                unsafe { $m::mul_mod::<P>(out, a, b) }
            }
        }
    };
}

entry_points!(Avx2Token, Avx2, avx2_entry, "avx2,pclmulqdq");

// ---------------------------------------------------------------------------
// AVX-512 + VPCLMULQDQ (needs Rust 1.89 intrinsics, see build.rs)
// ---------------------------------------------------------------------------

#[cfg(pqforge_hqc_avx512)]
pub(crate) use avx512::Avx512Token;

/// The AVX-512 backend (compiled only where the compiler has the
/// intrinsics: build.rs sets `pqforge_hqc_avx512` for Rust >= 1.89, so the
/// MSRV lint does not apply here).
#[cfg(pqforge_hqc_avx512)]
#[allow(clippy::incompatible_msrv)]
mod avx512 {
    use core::arch::x86_64::{
        __m512i, _mm512_add_epi64, _mm512_alignr_epi64, _mm512_clmulepi64_epi128,
        _mm512_cmpeq_epi64_mask, _mm512_loadu_si512, _mm512_mask_xor_epi64, _mm512_set1_epi64,
        _mm512_setr_epi64, _mm512_setzero_si512, _mm512_shuffle_i64x2, _mm512_storeu_si512,
        _mm512_xor_si512,
    };

    #[allow(clippy::wildcard_imports)]
    use super::*;

    /// Proof that AVX-512 F/BW/VL and VPCLMULQDQ are available.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Avx512Token(());

    impl Avx512Token {
        /// The token, if the CPU (and OS) support AVX-512 F/BW/VL, VPCLMULQDQ,
        /// PCLMULQDQ and AVX2.
        pub(crate) fn detect() -> Option<Self> {
            (cpu::avx512f()
                && cpu::avx512bw()
                && cpu::avx512vl()
                && cpu::vpclmulqdq()
                && cpu::pclmulqdq()
                && cpu::avx2())
            .then_some(Self(()))
        }
    }

    /// The AVX-512/VPCLMULQDQ backend (instantiated only behind an
    /// [`Avx512Token`]).
    pub(crate) struct Avx512;

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

    /// Loads `N` 512-bit vectors from `x` (at least 8N words).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2")]
    #[inline]
    fn load512<const N: usize>(x: &[u64]) -> [__m512i; N] {
        assert!(x.len() >= 8 * N);
        // SAFETY: x holds at least 8N words (checked above); unaligned loads.
        core::array::from_fn(|i| unsafe { _mm512_loadu_si512(x.as_ptr().add(8 * i).cast()) })
    }

    /// Stores `N` 512-bit vectors to `r` (at least 8N words).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2")]
    #[inline]
    fn store512<const N: usize>(r: &mut [u64], v: [__m512i; N]) {
        assert!(r.len() >= 8 * N);
        for (i, x) in v.into_iter().enumerate() {
            // SAFETY: r holds at least 8N words (checked above).
            unsafe { _mm512_storeu_si512(r.as_mut_ptr().add(8 * i).cast(), x) };
        }
    }

    /// Product of two 8- or 16-word operands (16: one Karatsuba level in
    /// registers over [`mul8`]).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2")]
    fn mul_small_avx512(r: &mut [u64], a: &[u64], b: &[u64]) {
        if a.len() == 8 {
            let (lo, hi) = mul8(load512::<1>(a)[0], load512::<1>(b)[0]);
            store512::<2>(r, [lo, hi]);
            return;
        }
        assert_eq!(a.len(), 16);
        let [a0, a1] = load512::<2>(a);
        let [b0, b1] = load512::<2>(b);
        let (p0l, p0h) = mul8(a0, b0);
        let (p2l, p2h) = mul8(a1, b1);
        let (p1l, p1h) = mul8(_mm512_xor_si512(a0, a1), _mm512_xor_si512(b0, b1));
        let ml = _mm512_xor_si512(p1l, _mm512_xor_si512(p0l, p2l));
        let mh = _mm512_xor_si512(p1h, _mm512_xor_si512(p0h, p2h));
        store512::<4>(
            r,
            [
                p0l,
                _mm512_xor_si512(p0h, ml),
                _mm512_xor_si512(p2l, mh),
                p2h,
            ],
        );
    }

    karatsuba_fn!(
        /// Karatsuba on 8-word blocks for the AVX-512 backend.
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2")]
        karatsuba_avx512,
        8,
        16,
        mul_small_avx512
    );

    /// [`Backend::xor_bits`] on 8-word chunks: one compare into a mask register
    /// and one masked XOR per (chunk, position).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2")]
    fn xor_bits_avx512(out: &mut [u64], idx: &[u32], bit: &[u64]) {
        assert_eq!(idx.len(), bit.len());
        if !out.len().is_multiple_of(8) {
            xor_bits_portable(out, idx, bit);
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
            let mut acc = load512::<4>(group);
            for (&ix, &b) in idx.iter().zip(bit) {
                let vi = _mm512_set1_epi64(i64::from(ix));
                let vb = _mm512_set1_epi64(b as i64);
                for q in 0..4 {
                    let hit = _mm512_cmpeq_epi64_mask(widx[q], vi);
                    acc[q] = _mm512_mask_xor_epi64(acc[q], hit, acc[q], vb);
                }
            }
            store512::<4>(group, acc);
            c0 += 32;
        }
        for chunk in groups.into_remainder().chunks_exact_mut(8) {
            let widx = _mm512_add_epi64(lanes, _mm512_set1_epi64(c0 as i64));
            let [mut acc] = load512::<1>(chunk);
            for (&ix, &b) in idx.iter().zip(bit) {
                let hit = _mm512_cmpeq_epi64_mask(widx, _mm512_set1_epi64(i64::from(ix)));
                acc = _mm512_mask_xor_epi64(acc, hit, acc, _mm512_set1_epi64(b as i64));
            }
            store512::<1>(chunk, [acc]);
            c0 += 8;
        }
    }

    /// [`Backend::decode`] compiled for this backend's instruction set.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2")]
    fn decode_avx512<P: ParameterSet>(m: &mut [u8], word: &[u64]) {
        crate::code::decode_generic::<P>(m, word);
    }

    stage_fns!(
        Avx512,
        "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2"
    );

    impl Backend for Avx512 {
        const NAME: &'static str = "avx512";

        fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64], scratch: &mut [u64]) {
            debug_assert!(Avx512Token::detect().is_some());
            // SAFETY: `Avx512` is only instantiated by the entry points below,
            // which run only with an `Avx512Token`: every feature named in the
            // target_feature list was detected.
            unsafe { karatsuba_avx512(r, a, b, scratch) }
        }

        fn xor_bits(out: &mut [u64], idx: &[u32], bit: &[u64]) {
            debug_assert!(Avx512Token::detect().is_some());
            // SAFETY: as in `mul_wide`.
            unsafe { xor_bits_avx512(out, idx, bit) }
        }

        fn decode<P: ParameterSet>(m: &mut [u8], word: &[u64]) {
            // SAFETY: as in `mul_wide`.
            unsafe { decode_avx512::<P>(m, word) }
        }

        fn pke_keygen<P: ParameterSet, S: crate::kem::Sink>(
            sink: &mut S,
            seed_dk: &[u8],
            seed_ek: &[u8],
        ) {
            // SAFETY: as in `mul_wide`.
            unsafe { pke_keygen_tf::<P, S>(sink, seed_dk, seed_ek) }
        }

        fn pke_encrypt<P: ParameterSet, S: crate::kem::Sink>(
            sink: &mut S,
            ek: &[u8],
            m: &[u8],
            theta: &[u8],
        ) {
            // SAFETY: as in `mul_wide`.
            unsafe { pke_encrypt_tf::<P, S>(sink, ek, m, theta) }
        }

        fn pke_decrypt<P: ParameterSet>(m: &mut [u8], seed_dk: &[u8], c_pke: &[u8]) {
            // SAFETY: as in `mul_wide`.
            unsafe { pke_decrypt_tf::<P>(m, seed_dk, c_pke) }
        }
    }

    entry_points!(
        Avx512Token,
        Avx512,
        avx512_entry,
        "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2"
    );
}
