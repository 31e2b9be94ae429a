//! The backends and THE dispatch: one CPU check per public call.
//!
//! A backend implements the ring kernels ([`crate::gf2x::Kernels`]) and the
//! PKE stage frames ([`crate::kem::Backend`]); those traits are declared
//! with the generic code that calls them, so that every module here only
//! looks down the chain (params → gf2x → code, sampling → kem → backend →
//! contract).
//!
//! * [`Portable`] (`portable.rs`): the reference, every target (the
//!   Cortex-M4 runs it).
//! * `avx2` (PCLMULQDQ on XMM registers) and `avx512` (VPCLMULQDQ on ZMM
//!   registers, AVX-512 masks): x86_64 only, both instances of the one
//!   definition in `simd.rs`; left out by `--cfg pqforge_backend="portable"`.
//!
//! A public call hands its whole operation (an [`Operation`]: the protocol
//! written once, generic over the backend) to [`run`], which asks the CPU
//! once and runs the operation instantiated for the best backend, inside a
//! `#[target_feature]` function reachable only with the token of
//! `pqforge_core::cpu` that proves the features.

#[cfg(target_arch = "arm")]
mod armv7em;
mod portable;

pqforge_core::x86_simd! {
    mod simd;
    mod avx2;
    mod avx512;
    use pqforge_core::cpu::{Avx2Pclmul, Avx512Vpclmul};
}
// rustfmt does not follow `mod` items inside a macro call: these never-compiled
// twins let `cargo fmt` reach the files (see `pqforge_core::x86_simd!`).
#[cfg(any())]
mod avx2;
#[cfg(any())]
mod avx512;
#[cfg(any())]
mod simd;

pub(crate) use portable::Portable;

use crate::kem::Backend;

pqforge_core::backend_dispatch! {
    kernels: Backend;
    portable: Portable;
    /// x86_64 PCLMULQDQ + AVX2.
    Avx2 = "avx2",
        detect: Avx2Pclmul::detect(),
        run: |token, op| avx2::run(token, op);
    /// x86_64 VPCLMULQDQ + AVX-512.
    Avx512 = "avx512",
        detect: Avx512Vpclmul::detect(),
        run: |token, op| avx512::run(token, op);
}
