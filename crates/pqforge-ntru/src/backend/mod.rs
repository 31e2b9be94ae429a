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
    use pqforge_core::cpu::Avx2;
}
// rustfmt does not follow `mod` items inside a macro call: this
// never-compiled twin lets `cargo fmt` reach the file.
#[cfg(any())]
mod avx2;

pub(crate) use portable::Portable;

use crate::kem::Backend;

/// One public operation, written once, generic over the backend it runs on.
pub(crate) trait Operation {
    /// What the operation returns.
    type Output;

    /// Runs the operation on backend `B`.
    fn run<B: Backend>(self) -> Self::Output;
}

/// Runs `op` on the fastest backend this CPU supports: the one CPU check
/// of a public call.
pub(crate) fn run<O: Operation>(op: O) -> O::Output {
    pqforge_core::x86_simd! {{
        if let Some(token) = Avx2::detect() {
            return avx2::run(token, op);
        }
    }}
    if pqforge_core::cpu::X86_SIMD {
        // This frame stays live under the SIMD entry above: keep the
        // portable path's locals out of it.
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
    /// x86_64 AVX2.
    Avx2,
}

impl Which {
    /// Every backend this crate knows.
    pub const ALL: [Which; 2] = [Which::Portable, Which::Avx2];

    /// `portable` or `avx2`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Which::Portable => "portable",
            Which::Avx2 => "avx2",
        }
    }

    /// Whether the backend is compiled in and this CPU supports it.
    #[must_use]
    pub fn is_available(self) -> bool {
        run_on(self, Name).is_some()
    }

    /// The backend the dispatch picks on this CPU.
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
        if which == Which::Avx2 {
            return Avx2::detect().map(|token| avx2::run(token, op));
        }
    }}
    None
}
