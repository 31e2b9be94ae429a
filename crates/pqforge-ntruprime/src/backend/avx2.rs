//! The AVX2 backend. The product is the portable three-level Karatsuba
//! with its schoolbook leaves replaced by a `vpmaddwd` kernel ([`leaf`]:
//! eight outputs per register, two products per lane per instruction);
//! the inversions and the sort are the portable kernels compiled for AVX2
//! (masked updates, reductions and compare-exchanges on 8 to 32 lanes).
//! The protocol around the kernels (codecs, hashing) is the portable code:
//! the KEM stages keep frames of their own (`#[inline(never)]`), so they
//! are not compiled for AVX2, and only the kernels are. Integer arithmetic
//! throughout, so the results are bit-identical to the portable backend;
//! `tests/backends.rs` compares them on random inputs.
//!
//! Constant time: loop bounds and memory offsets depend only on the
//! lengths; the data only flows through multiplies, adds and shuffles.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_set1_epi32,
    _mm256_setzero_si256, _mm256_storeu_si256,
};

use pqforge_core::cpu::Avx2 as Token;
use zeroize::Zeroize;

use crate::arith::Modulus;
use crate::kem::Backend;
use crate::params::ParameterSet;
use crate::poly::{Karatsuba, Multiply};

/// The largest leaf: sntrup1277's operands padded to 1280, over 2^3.
const MAX_LEAF: usize = 160;

/// The schoolbook leaf `r[0..2n-1] = a · b` (n even, n ≤ [`MAX_LEAF`];
/// |a_i| < 2^15, |b_i| ≤ 8, so every 32-bit lane stays far from overflow).
///
/// With Q[m] = (b[m], b[m-1]) as a pair of 16-bit lanes (zero outside),
/// one `vpmaddwd` of the broadcast pair (a[i], a[i+1]) with Q[k0-i ..
/// k0-i+8] adds a[i]·b[k-i] + a[i+1]·b[k-i-1] to the outputs k = k0 …
/// k0+7. For each block of eight outputs only the pairs that can reach it
/// are visited (bounds from k0 and n: public).
#[target_feature(enable = "avx2")]
#[allow(clippy::cast_ptr_alignment)] // unaligned loads and stores (loadu/storeu)
fn leaf(r: &mut [i32], a: &[i16], b: &[i16]) {
    let n = a.len();
    assert!(n.is_multiple_of(2) && n <= MAX_LEAF && b.len() == n && r.len() >= 2 * n - 1);
    // q[8 + m] = Q[m] for m in -8 .. n + 16.
    let mut q = [0u32; MAX_LEAF + 24];
    for m in 0..=n {
        let lo = if m < n { b[m] } else { 0 };
        let hi = if m >= 1 { b[m - 1] } else { 0 };
        q[8 + m] = u32::from(lo as u16) | u32::from(hi as u16) << 16;
    }
    let mut acc = [0i32; 2 * MAX_LEAF + 8];
    for k0 in (0..2 * n - 1).step_by(8) {
        let start = k0.saturating_sub(n) & !1;
        let end = n.min(k0 + 8);
        let mut s = _mm256_setzero_si256();
        for i in (start..end).step_by(2) {
            let pair = u32::from(a[i] as u16) | u32::from(a[i + 1] as u16) << 16;
            let av = _mm256_set1_epi32(pair as i32);
            // k0 - i ≥ -6 (i ≤ k0 + 6) and ≤ n + 1 (i ≥ k0 - n - 1), so the
            // eight words read lie in q[2 .. n + 17].
            let idx = 8 + k0 - i;
            assert!(idx + 8 <= q.len());
            // SAFETY: q holds at least idx + 8 words (checked above); an
            // unaligned 256-bit load.
            let bv = unsafe { _mm256_loadu_si256(q.as_ptr().add(idx).cast::<__m256i>()) };
            s = _mm256_add_epi32(s, _mm256_madd_epi16(av, bv));
        }
        // SAFETY: k0 + 8 ≤ 2n + 6 < acc.len(); an unaligned 256-bit store.
        unsafe { _mm256_storeu_si256(acc.as_mut_ptr().add(k0).cast::<__m256i>(), s) };
    }
    r[..2 * n - 1].copy_from_slice(&acc[..2 * n - 1]);
    // Secret-derived: wiped before the frame is left.
    q.zeroize();
    acc.zeroize();
}

/// The `vpmaddwd` leaf as a [`Multiply`] (only reached from the AVX2
/// backend, under its token).
struct Leaf;

impl Multiply for Leaf {
    #[inline(always)]
    fn mul(r: &mut [i32], a: &[i16], b: &[i16], _: &mut [i16], _: &mut [i32]) {
        // SAFETY: `Leaf` is private to this module and only used by
        // `mul_small_avx2`, which runs under `run`'s token (AVX2).
        unsafe { leaf(r, a, b) }
    }
}

/// Three Karatsuba levels over the AVX2 leaf.
type Karatsuba3Avx2 = Karatsuba<Karatsuba<Karatsuba<Leaf>>>;

/// The AVX2 backend. Private to this module: its impl is only instantiated
/// by [`run`], which holds the token proving the CPU features.
struct Avx2;

#[target_feature(enable = "avx2")]
fn mul_small_avx2<P: ParameterSet>(out: &mut [i16], a: &[i16], b: &[i8], m: Modulus) {
    crate::poly::mul_karatsuba::<P, Karatsuba3Avx2>(out, a, b, m);
}

#[target_feature(enable = "avx2")]
fn rq_recip3_avx2<P: ParameterSet>(out: &mut [i16], s: &[i8]) -> i32 {
    crate::poly::rq_recip3::<P>(out, s)
}

#[target_feature(enable = "avx2")]
fn r3_recip_avx2<P: ParameterSet>(out: &mut [i8], s: &[i8]) -> i32 {
    crate::poly::r3_recip::<P>(out, s)
}

#[target_feature(enable = "avx2")]
fn sort_avx2(x: &mut [u32]) {
    crate::sort::sort_u32(x);
}

impl Backend for Avx2 {
    const NAME: &'static str = "avx2";

    fn mul_small<P: ParameterSet>(out: &mut [i16], a: &[i16], b: &[i8], m: Modulus) {
        // SAFETY: `Avx2` is only used under `run`, whose token proves AVX2.
        unsafe { mul_small_avx2::<P>(out, a, b, m) }
    }

    fn rq_recip3<P: ParameterSet>(out: &mut [i16], s: &[i8]) -> i32 {
        // SAFETY: as in `mul_small`.
        unsafe { rq_recip3_avx2::<P>(out, s) }
    }

    fn r3_recip<P: ParameterSet>(out: &mut [i8], s: &[i8]) -> i32 {
        // SAFETY: as in `mul_small`.
        unsafe { r3_recip_avx2::<P>(out, s) }
    }

    fn sort(x: &mut [u32]) {
        // SAFETY: as in `mul_small`.
        unsafe { sort_avx2(x) }
    }
}

/// `op` instantiated for this backend, compiled for AVX2.
#[target_feature(enable = "avx2")]
fn run_with_features<O: super::Operation>(op: O) -> O::Output {
    op.run::<Avx2>()
}

/// Runs `op` on the AVX2 backend; the token proves the CPU features.
pub(super) fn run<O: super::Operation>(token: Token, op: O) -> O::Output {
    let _ = token;
    // SAFETY: the token exists, so this CPU has AVX2.
    unsafe { run_with_features(op) }
}
