//! The AVX2 backend (x86_64): every kernel of key generation and
//! encapsulation, and the whole decryption, in 256-bit registers.
//!
//! The submodules mirror the portable modules they accelerate:
//! [`gf`](mod@gf) (bitsliced field arithmetic), [`fft`](mod@fft),
//! [`radix`](mod@radix), [`benes`](mod@benes), [`bm`](mod@bm)
//! (Berlekamp–Massey), [`genpoly`](mod@genpoly) (the Goppa polynomial),
//! [`sort`](mod@sort), [`keygen`](mod@keygen) (the row operations of the
//! eliminations), [`encaps`](mod@encaps) (the error vector and the
//! syndrome) and [`decrypt`](mod@decrypt); [`simd`](mod@simd) holds the
//! helpers they share.
//!
//! The only way in is an entry point below, which takes a CPU token of
//! `pqforge_core::cpu` (made only by run-time detection) and runs the
//! whole operation inside a `#[target_feature]` function, instantiated
//! with [`Avx2Kernels`]: the call tree down to the `#[inline(never)]`
//! phases is compiled for AVX2 and the kernels inline there (inside
//! those phases they are calls). `Avx2Kernels` is private to this
//! module, so no other code can instantiate the protocol with it.

#![allow(unsafe_code)]

mod benes;
mod bm;
mod decrypt;
mod encaps;
mod fft;
mod genpoly;
mod gf;
mod keygen;
mod radix;
mod simd;
mod sort;

use pqforge_core::CryptoRng;
use pqforge_core::cpu::{Avx2, Avx2Pclmul};

use super::Backend;
use crate::ParameterSet;

/// The AVX2 kernels; `PCLMUL`: the powers of the Goppa polynomial by
/// carry-less multiplication (else by the portable kernel).
///
/// Invariant: instantiated only inside the `#[target_feature]` entry
/// points below (`enable = "avx2"`, plus `"pclmulqdq"` when `PCLMUL`),
/// which are reached only with the matching token.
struct Avx2Kernels<const PCLMUL: bool>;

impl<const PCLMUL: bool> Backend for Avx2Kernels<PCLMUL> {
    #[inline(always)]
    fn xor_masked(dst: &mut [u8], src: &[u8], mask: u8) {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { keygen::xor_masked(dst, src, mask) }
    }
    #[inline(always)]
    fn xor_rows_masked(dst: &mut [u8], src: &[u8], stride: usize, masks: &[u8]) {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { keygen::xor_rows_masked(dst, src, stride, masks) }
    }
    #[inline(always)]
    fn and_parities(rows: &[u8], rb: usize, v: &[u8], out: &mut [u8]) {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { encaps::and_parities(rows, rb, v, out) }
    }
    #[inline(always)]
    fn set_bits(e: &mut [u8], pos: &[u16]) {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { encaps::set_bits(e, pos) }
    }
    #[inline]
    fn sort_u32(buf: &mut [u8]) {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { sort::sort::<sort::U32x8>(buf) }
    }
    #[inline(always)]
    fn sort_u64(buf: &mut [u8]) {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { sort::sort::<sort::U64x4>(buf) }
    }
    #[inline(always)]
    fn byte_planes(bytes: &[u8], planes: &mut [u64], stride: usize, nb: usize) {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { keygen::byte_planes(bytes, planes, stride, nb) }
    }
    #[inline(always)]
    fn expand_bits(bits: &[u64], first: usize, out: &mut [u8]) {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { keygen::expand_bits(bits, first, out) }
    }
    #[inline(always)]
    fn vmul_planes(m: usize, v: &mut [u64], l: &[u64], stride: usize, n: usize) {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe {
            if m == 12 {
                gf::vmul_planes::<12>(v, l, stride, n);
            } else {
                gf::vmul_planes::<13>(v, l, stride, n);
            }
        }
    }
    #[inline(always)]
    fn decrypt<P: ParameterSet>(e: &mut [u8], sk: &[u8], c0: &[u8]) -> u8 {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { decrypt::decrypt::<P>(e, sk, c0) }
    }
    #[inline(always)]
    fn gp_powers<P: ParameterSet>(f: &[u16], mat: &mut [u8]) {
        if PCLMUL {
            // SAFETY: AVX2 and PCLMULQDQ, by the invariant of
            // `Avx2Kernels` (`PCLMUL` is set).
            unsafe { genpoly::powers::<P>(f, mat) }
        } else {
            crate::genpoly::powers_portable::<P>(f, mat);
        }
    }
    #[inline(always)]
    fn gp_forward<P: ParameterSet>(mat: &mut [u8]) -> u16 {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { genpoly::forward::<P>(mat) }
    }
    #[inline(always)]
    fn gp_back<P: ParameterSet>(mat: &[u8], out: &mut [u16]) {
        // SAFETY: AVX2, by the invariant of `Avx2Kernels`.
        unsafe { genpoly::back::<P>(mat, out) }
    }
}

/// Key generation on AVX2 with PCLMULQDQ.
pub(crate) fn keygen_derand_pclmul<P: ParameterSet>(
    _: Avx2Pclmul,
    delta: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) {
    // SAFETY: the token proves AVX2 and PCLMULQDQ support.
    unsafe { keygen_avx2_pclmul::<P>(delta, pk, sk) }
}

#[target_feature(enable = "avx2,pclmulqdq")]
fn keygen_avx2_pclmul<P: ParameterSet>(delta: &[u8; 32], pk: &mut [u8], sk: &mut [u8]) {
    crate::keygen::keygen_derand::<P, Avx2Kernels<true>>(delta, pk, sk);
}

/// Key generation on AVX2 without PCLMULQDQ (the powers of the Goppa
/// polynomial by the portable kernel).
pub(crate) fn keygen_derand<P: ParameterSet>(
    _: Avx2,
    delta: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) {
    // SAFETY: the token proves AVX2 support.
    unsafe { keygen_avx2::<P>(delta, pk, sk) }
}

#[target_feature(enable = "avx2")]
fn keygen_avx2<P: ParameterSet>(delta: &[u8; 32], pk: &mut [u8], sk: &mut [u8]) {
    crate::keygen::keygen_derand::<P, Avx2Kernels<false>>(delta, pk, sk);
}

/// Encapsulation on AVX2.
pub(crate) fn encaps<P: ParameterSet, R: CryptoRng + ?Sized>(
    _: Avx2,
    rng: &mut R,
    pk: &[u8],
    ct: &mut [u8],
    ss: &mut [u8; 32],
) {
    // SAFETY: the token proves AVX2 support.
    unsafe { encaps_avx2::<P, R>(rng, pk, ct, ss) }
}

#[target_feature(enable = "avx2")]
fn encaps_avx2<P: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
    pk: &[u8],
    ct: &mut [u8],
    ss: &mut [u8; 32],
) {
    crate::kem::encaps::<P, R, Avx2Kernels<false>>(rng, pk, ct, ss);
}

/// Decapsulation on AVX2 (the decoder of [`decrypt`]; hashing and the
/// constant-time selection are `kem::decaps_with`).
pub(crate) fn decaps<P: ParameterSet>(_: Avx2, sk: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
    // SAFETY: the token proves AVX2 support.
    unsafe { decaps_avx2::<P>(sk, ct, ss) }
}

#[target_feature(enable = "avx2")]
fn decaps_avx2<P: ParameterSet>(sk: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
    crate::kem::decaps_with::<P, Avx2Kernels<false>>(sk, ct, ss);
}

/// Sorts `w`-byte words (4 or 8; a power-of-two count) on AVX2 (the
/// differential tests).
pub(crate) fn sort(_: Avx2, buf: &mut [u8], w: usize) {
    // SAFETY: the token proves AVX2 support.
    unsafe {
        if w == 4 {
            sort::sort::<sort::U32x8>(buf);
        } else {
            sort::sort::<sort::U64x4>(buf);
        }
    }
}

/// The Goppa polynomial (`genpoly::genpoly`) on AVX2, with PCLMULQDQ if
/// `pclmul` (the unit tests of `genpoly`).
#[cfg(test)]
pub(crate) fn genpoly<P: ParameterSet>(
    _: Avx2,
    pclmul: Option<Avx2Pclmul>,
    f: &[u16],
    out: &mut [u16],
    scratch: &mut [u8],
) -> bool {
    #[target_feature(enable = "avx2")]
    fn plain<P: ParameterSet>(f: &[u16], out: &mut [u16], scratch: &mut [u8]) -> bool {
        crate::genpoly::genpoly::<P, Avx2Kernels<false>>(f, out, scratch)
    }
    #[target_feature(enable = "avx2,pclmulqdq")]
    fn clmul<P: ParameterSet>(f: &[u16], out: &mut [u16], scratch: &mut [u8]) -> bool {
        crate::genpoly::genpoly::<P, Avx2Kernels<true>>(f, out, scratch)
    }
    // SAFETY: the tokens prove AVX2 (and PCLMULQDQ for `clmul`).
    unsafe {
        if pclmul.is_some() {
            clmul::<P>(f, out, scratch)
        } else {
            plain::<P>(f, out, scratch)
        }
    }
}
