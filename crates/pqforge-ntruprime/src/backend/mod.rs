//! The backends and THE dispatch: one CPU check per public call.
//!
//! * [`Portable`] (`portable.rs`): the reference kernels, every target.
//! * `pairs` (`pairs.rs`): the portable backend's kernels on packed
//!   coefficient pairs (the product's leaf, the inversion in R/q), which it
//!   uses on the Cortex-M4; `armv7em` (`armv7em.rs`): their DSP
//!   instructions there, in assembly.
//! * `avx2` (`avx2.rs`): the same kernels compiled for AVX2; x86_64 only,
//!   left out by `--cfg pqforge_backend="portable"`.
//!
//! A public call hands its whole operation (an [`Operation`]) to [`run`],
//! which asks the CPU once and runs it on the best backend.

// DSP instructions in assembly for the pair kernels on the Cortex-M4.
#[cfg(all(
    target_arch = "arm",
    target_feature = "dsp",
    target_feature = "mclass",
    target_endian = "little"
))]
mod armv7em;
mod pairs;
mod portable;

pqforge_core::x86_simd! {
    mod avx2;
    use pqforge_core::cpu::Avx2;
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
    /// x86_64 AVX2.
    Avx2 = "avx2",
        detect: Avx2::detect(),
        run: |token, op| avx2::run(token, op);
}
