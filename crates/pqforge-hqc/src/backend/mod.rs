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

/// One public operation, written once, generic over the backend it runs on.
pub(crate) trait Operation {
    /// What the operation returns.
    type Output;

    /// Runs the operation on backend `B`.
    fn run<B: Backend>(self) -> Self::Output;
}

/// Runs `op` on the fastest backend this CPU supports (AVX-512 with
/// VPCLMULQDQ, else AVX2 with PCLMULQDQ, else portable): the one CPU check
/// of a public call.
pub(crate) fn run<O: Operation>(op: O) -> O::Output {
    pqforge_core::x86_simd! {{
        if let Some(token) = Avx512Vpclmul::detect() {
            return avx512::run(token, op);
        }
        if let Some(token) = Avx2Pclmul::detect() {
            return avx2::run(token, op);
        }
    }}
    if pqforge_core::cpu::X86_SIMD {
        // This frame stays live under the SIMD entries above (the operation
        // is passed by reference): keep the portable path's locals out of it.
        run_portable(op)
    } else {
        op.run::<Portable>()
    }
}

/// `op` on the portable backend, out of line (see [`run`]).
#[inline(never)]
fn run_portable<O: Operation>(op: O) -> O::Output {
    op.run::<Portable>()
}

/// A backend, by name (differential tests and benchmarks: `crate::testing`
/// re-exports it as `Backend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Which {
    /// The portable reference.
    Portable,
    /// x86_64 PCLMULQDQ + AVX2.
    Avx2,
    /// x86_64 VPCLMULQDQ + AVX-512.
    Avx512,
}

impl Which {
    /// Every backend this crate knows.
    pub const ALL: [Which; 3] = [Which::Portable, Which::Avx2, Which::Avx512];

    /// `portable`, `avx2` or `avx512`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Which::Portable => "portable",
            Which::Avx2 => "avx2",
            Which::Avx512 => "avx512",
        }
    }

    /// Whether the backend is compiled in and this CPU supports it.
    #[must_use]
    pub fn is_available(self) -> bool {
        run_on(self, Name).is_some()
    }

    /// The backend the dispatch picks on this CPU (the one the public API
    /// runs on).
    #[must_use]
    pub fn selected() -> Which {
        let name = run(Name);
        Which::ALL
            .into_iter()
            .find(|w| w.name() == name)
            .unwrap_or(Which::Portable)
    }
}

/// The name of the backend an operation runs on.
struct Name;

impl Operation for Name {
    type Output = &'static str;

    fn run<B: Backend>(self) -> &'static str {
        B::NAME
    }
}

/// Runs `op` on backend `which`, if it is compiled in and this CPU supports
/// it (differential tests and benchmarks).
pub(crate) fn run_on<O: Operation>(which: Which, op: O) -> Option<O::Output> {
    if which == Which::Portable {
        return Some(op.run::<Portable>());
    }
    pqforge_core::x86_simd! {{
        if which == Which::Avx512 {
            return Avx512Vpclmul::detect().map(|token| avx512::run(token, op));
        }
        if which == Which::Avx2 {
            return Avx2Pclmul::detect().map(|token| avx2::run(token, op));
        }
    }}
    None
}
