//! The AVX2 backend: the Karatsuba ring product compiled for AVX2, its
//! base case on 16-lane `u16` vectors (`vpmullw` / `vpaddw`), the whole
//! operation compiled with AVX2 enabled.
//!
//! The kernel type [`Avx2Kernels`] is private to this module and named only
//! in [`run`], which takes the [`Avx2`] token: so its kernels only ever run
//! on a CPU with AVX2.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_loadu_si256, _mm256_mullo_epi16, _mm256_set1_epi16,
    _mm256_setzero_si256, _mm256_storeu_si256,
};

use pqforge_core::cpu::Avx2;
use pqforge_core::ct;

use crate::backend::Operation;
use crate::kem::Backend;
use crate::params::KARATSUBA_BASE;

/// The AVX2 kernels (only reachable through [`run`]).
struct Avx2Kernels;

impl Backend for Avx2Kernels {
    const NAME: &'static str = "avx2";

    fn mul_wide(r: &mut [u16], a: &[u16], b: &[u16], s: &mut [u16]) {
        // SAFETY: `Avx2Kernels` is only instantiated by `run`, whose
        // `Avx2` token proves that this CPU has AVX2.
        unsafe { karatsuba(r, a, b, s) }
    }
}

crate::poly::karatsuba_fn!(
    /// The Karatsuba product compiled for AVX2, on [`base_mul`].
    #[target_feature(enable = "avx2")]
    fn karatsuba, base = base_mul
);

/// `r = a·b` (2m coefficients) for m ≤ 32: the fixed-size kernel for the
/// block sizes of [`padded_len`](crate::params::padded_len), operands
/// zero-padded to 32 coefficients otherwise.
#[target_feature(enable = "avx2")]
fn base_mul(r: &mut [u16], a: &[u16], b: &[u16]) {
    let m = a.len();
    assert!(m <= KARATSUBA_BASE && b.len() == m && r.len() >= 2 * m);
    match m {
        20 => base_fixed::<20, 3>(r, a, b),
        24 => base_fixed::<24, 3>(r, a, b),
        28 => base_fixed::<28, 4>(r, a, b),
        32 => base_fixed::<32, 4>(r, a, b),
        _ => {
            // Zero-padding both operands leaves the product unchanged.
            let (mut pa, mut pb, mut pr) = ([0u16; 32], [0u16; 32], [0u16; 64]);
            pa[..m].copy_from_slice(a);
            pb[..m].copy_from_slice(b);
            base_fixed::<32, 4>(&mut pr, &pa, &pb);
            r[..2 * m].copy_from_slice(&pr[..2 * m]);
        }
    }
}

/// `r = a·b` (2M coefficients) for M-coefficient operands, G = ⌈2M/16⌉
/// accumulators: output-stationary, the product coefficients in G
/// registers, each a\[i\] broadcast and multiplied with G 16-coefficient
/// windows of `b` zero-padded on both sides (loads only: no store is
/// reloaded).
#[target_feature(enable = "avx2")]
#[inline]
fn base_fixed<const M: usize, const G: usize>(r: &mut [u16], a: &[u16], b: &[u16]) {
    let a: &[u16; M] = a.try_into().expect("block");
    // bz[32 + j] = b[j], zero outside 0 ≤ j < M.
    let mut bz = [0u16; 96];
    bz[32..32 + M].copy_from_slice(&b[..M]);
    let mut acc: [__m256i; G] = [_mm256_setzero_si256(); G];
    for (i, &ai) in a.iter().enumerate() {
        let x = _mm256_set1_epi16(ai as i16);
        for (t, acc_t) in acc.iter_mut().enumerate() {
            let win: &[u16; 16] = bz[32 + 16 * t - i..48 + 16 * t - i]
                .try_into()
                .expect("window");
            // SAFETY: `win` is 16 readable u16 (32 bytes); unaligned loads
            // are allowed.
            let w = unsafe { _mm256_loadu_si256(win.as_ptr().cast()) };
            *acc_t = _mm256_add_epi16(*acc_t, _mm256_mullo_epi16(x, w));
        }
    }
    let mut out = [0u16; 64];
    for (t, acc_t) in acc.iter().enumerate() {
        let dst: &mut [u16; 16] = (&mut out[16 * t..16 * t + 16]).try_into().expect("group");
        // SAFETY: `dst` is 16 writable u16 (32 bytes); unaligned stores
        // are allowed.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), *acc_t) };
    }
    r[..2 * M].copy_from_slice(&out[..2 * M]);
    // Windows of a secret operand and partial products.
    ct::wipe(&mut bz);
    ct::wipe(&mut out);
}

/// `op` instantiated for this backend and compiled for AVX2.
#[target_feature(enable = "avx2")]
fn run_with_features<O: Operation>(op: O) -> O::Output {
    op.run::<Avx2Kernels>()
}

/// Runs `op` on this backend; the token proves the CPU has AVX2.
pub(super) fn run<O: Operation>(token: Avx2, op: O) -> O::Output {
    let _ = token;
    // SAFETY: the token exists, so this CPU has AVX2.
    unsafe { run_with_features(op) }
}
