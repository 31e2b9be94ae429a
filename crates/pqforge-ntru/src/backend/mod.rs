//! The backends and THE dispatch: one CPU check per public call.
//!
//! A backend implements the kernels of [`crate::kem::Backend`] (declared
//! with the generic code that calls them, so that the modules form a chain:
//! params → poly, sample, inv → kem → backend → contract).
//!
//! * [`Portable`] (`portable.rs`): the reference, every target; on 32-bit
//!   Arm its schoolbook's `SMLADX` is assembly (`armv7em.rs`).
//! * `avx2` (`avx2.rs`): the ring product's base case on 16-lane vectors,
//!   the whole operation compiled for AVX2; x86_64 only, left out by
//!   `--cfg pqforge_backend="portable"`.
//!
//! A public call hands its whole operation (an [`Operation`]: the protocol
//! written once, generic over the backend) to [`run`], which asks the CPU
//! once and runs the operation instantiated for the best backend.

#[cfg(target_arch = "arm")]
mod armv7em;
mod portable;

pqforge_core::x86_simd! {
    mod avx2;
    use pqforge_core::cpu::Avx2Pclmul;
}
// rustfmt does not follow `mod` items inside a macro call: this
// never-compiled twin lets `cargo fmt` reach the file.
#[cfg(any())]
mod avx2;

pub(crate) use portable::Portable;

use crate::kem::Backend;

pqforge_core::backend_dispatch! {
    kernels: Backend;
    portable: Portable;
    /// x86_64 AVX2 (and PCLMULQDQ).
    Avx2 = "avx2",
        detect: Avx2Pclmul::detect(),
        run: |token, op| avx2::run(token, op);
}
