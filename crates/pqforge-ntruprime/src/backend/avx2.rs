//! The AVX2 backend: the same kernels compiled for AVX2 (the product's
//! row updates become 8-lane multiply-adds, the inversions' masked
//! updates and reductions 8- to 32-lane operations, the sort's
//! compare-exchanges `vpminud`/`vpmaxud`). Results are bit-identical to
//! the portable backend (the same integer code); `tests/backends.rs`
//! compares them on random inputs.
#![allow(unsafe_code)]

use pqforge_core::cpu::Avx2 as Token;

use crate::arith::Modulus;
use crate::kem::Backend;
use crate::params::ParameterSet;

/// The AVX2 backend. Private to this module: its impl is only instantiated
/// by [`run`], which holds the token proving the CPU features.
struct Avx2;

#[target_feature(enable = "avx2")]
fn mul_small_avx2<P: ParameterSet>(out: &mut [i16], a: &[i16], b: &[i8], m: Modulus) {
    crate::poly::mul_karatsuba::<P, crate::poly::Karatsuba3>(out, a, b, m);
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
