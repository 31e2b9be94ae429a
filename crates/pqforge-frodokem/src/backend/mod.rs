//! The backends and THE dispatch: one CPU check per public call.
//!
//! A backend implements the kernels of [`crate::kem::Backend`] (A's row
//! generation and the two matrix products; that trait sits with the
//! generic code that calls it).
//!
//! * [`Portable`] (`portable.rs`): the reference, every target; AES-128 in
//!   constant-time bitsliced software.
//! * `x86` (x86_64 only; left out by `--cfg pqforge_backend="portable"`):
//!   `Aesni` (the portable products compiled for SSE2, AES-NI for A) and
//!   `Avx2` (the products compiled for AVX2, AES-NI for A, four-lane
//!   Keccak for the SHAKE rows) and `Avx2Vaes` (`Avx2` with VAES for A).
//!
//! A public call hands its whole operation (an [`Operation`]) to [`run`],
//! which asks the CPU once and runs the operation instantiated for the best
//! backend inside a `#[target_feature]` function reachable only with the
//! tokens of `pqforge_core::cpu` that prove the features.

mod portable;

pqforge_core::x86_simd! {
    mod x86;
    use pqforge_core::cpu::{Aesni, Avx2, Avx2Vaes};
}
// rustfmt does not follow `mod` items inside a macro call: this
// never-compiled twin lets `cargo fmt` reach the file.
#[cfg(any())]
mod x86;

pub(crate) use portable::Portable;

use crate::kem::Backend;

pqforge_core::backend_dispatch! {
    kernels: Backend;
    portable: Portable;
    /// x86_64 AES-NI (portable products).
    Aesni = "aesni",
        detect: Aesni::detect(),
        run: |aes, op| x86::run_aesni(aes, op);
    /// x86_64 AVX2 products with AES-NI.
    Avx2 = "avx2",
        detect: Avx2::detect().zip(Aesni::detect()),
        run: |(avx2, aes), op| x86::run_avx2(avx2, aes, op);
    /// x86_64 AVX2 products with VAES.
    Avx2Vaes = "avx2-vaes",
        detect: Avx2Vaes::detect(),
        run: |token, op| x86::run_avx2_vaes(token, op);
}
