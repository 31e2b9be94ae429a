//! AVX2 backend (x86_64): NTT, inverse NTT, base multiplication,
//! reductions, ByteEncode12, Compress_d, the modulus check and SampleNTT's
//! rejection step in 256-bit intrinsics (`ntt`, `poly`, `sample`, mirroring
//! the portable modules); the remaining kernels are the portable code
//! compiled for AVX2. K-PKE runs with the matrix stored, and
//! decapsulation's hashes in one four-lane Keccak schedule (`hash`).
//!
//! The only way in is [`run`], which takes a `pqforge_core::cpu::Avx2`
//! token (made only after run-time detection succeeded) and instantiates
//! the whole operation inside a `#[target_feature(enable = "avx2")]`
//! function, so the call tree is compiled for AVX2 and inlines. The
//! [`Avx2`] type, and so every `#[target_feature]` kernel, is private to
//! this module.
//!
//! Every kernel computes the portable kernel's results (after reduction):
//! the vector Montgomery and Barrett reductions are exact lane-wise
//! equivalents of the scalar ones.
#![allow(unsafe_code)]

mod check;
mod hash;
mod ntt;
mod poly;
mod sample;

pub use check::check;

use pqforge_core::cpu;

use super::{Backend, Op};
use crate::hash::DecapsHashes;
use crate::params::ParameterSet;
use crate::pke::{EncNoise, Matrix, Pke, Stored, Streamed};
use crate::poly::{N, Poly};

/// The AVX2 kernels. Invariant: its methods run only inside
/// [`run_avx2`] (reached through a token), or in this module's checks
/// after detecting AVX2.
struct Avx2;

impl Backend for Avx2 {
    type Pke = Stored<Self>;

    #[inline]
    fn ntt(p: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { ntt::ntt(p) }
    }
    #[inline]
    fn invntt_tomont(p: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { ntt::invntt_tomont(p) }
    }
    #[inline]
    fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { ntt::basemul_acc(r, a, b) }
    }
    #[inline]
    fn reduce(p: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { poly::reduce(p) }
    }
    #[inline]
    fn tomont(p: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { poly::tomont(p) }
    }
    // Never inlined, so the kernel is not inlined either (it needs AVX2,
    // this wrapper is compiled without): inlined with the polynomial in
    // registers, its 32 back-to-back 16-bit high multiplies form one block
    // too large for valgrind to instrument ("VEX temporary storage
    // exhausted"), which would blind the constant-time harness. (On the
    // `#[target_feature]` kernel itself, `#[inline(never)]` is not honoured.)
    #[inline(never)]
    fn compress_values<const D: u32>(p: &Poly, v: &mut [u16; N]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { poly::compress_values::<D>(p, v) }
    }
    #[inline]
    fn to_bytes(p: &Poly, out: &mut [u8]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { poly::to_bytes(p, out) }
    }
    #[inline]
    fn is_canonical_12(bytes: &[u8]) -> bool {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { poly::is_canonical_12(bytes) }
    }
    #[inline]
    fn rej_uniform(out: &mut [i16], buf: &[u8]) -> usize {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { sample::rej_uniform(out, buf) }
    }
    #[inline]
    fn decaps_hashes<P: ParameterSet>(
        hashes: &DecapsHashes<'_>,
        rho: &[u8; 32],
        g: &mut [u8; 64],
        kbar: &mut [u8; 32],
        at: &mut Matrix,
        noise: &mut EncNoise,
    ) {
        hash::decaps_hashes::<P, Self>(hashes, rho, g, kbar, at, noise);
    }
}

/// Runs `op` with the AVX2 kernels and their K-PKE (matrix stored).
#[inline]
pub(super) fn run<O: Op>(t: cpu::Avx2, op: O) -> O::Out {
    run_pke::<<Avx2 as Backend>::Pke, O>(t, op)
}

/// Runs `op` with the AVX2 kernels and the streamed K-PKE (differential
/// tests).
pub(super) fn run_streamed<O: Op>(t: cpu::Avx2, op: O) -> O::Out {
    run_pke::<Streamed<Avx2>, O>(t, op)
}

#[inline]
fn run_pke<K: Pke<Kernels = Avx2>, O: Op>(_t: cpu::Avx2, op: O) -> O::Out {
    // SAFETY: the token proves AVX2 support.
    unsafe { run_avx2::<K, O>(op) }
}

/// The whole operation compiled for AVX2 (it only instantiates the generic
/// protocol, so everything below inlines into it).
#[target_feature(enable = "avx2")]
fn run_avx2<K: Pke<Kernels = Avx2>, O: Op>(op: O) -> O::Out {
    op.run::<K>()
}
