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

/// One public operation, written once, generic over the backend it runs on.
pub(crate) trait Operation {
    /// What the operation returns.
    type Output;

    /// Runs the operation on backend `B`.
    fn run<B: Backend>(self) -> Self::Output;
}

/// Runs `op` on the fastest backend this CPU supports (AVX2 with VAES,
/// else AVX2 with AES-NI, else AES-NI, else portable).
pub(crate) fn run<O: Operation>(op: O) -> O::Output {
    pqforge_core::x86_simd! {{
        if let Some(token) = Avx2Vaes::detect() {
            return x86::run_avx2_vaes(token, op);
        }
        if let (Some(avx2), Some(aes)) = (Avx2::detect(), Aesni::detect()) {
            return x86::run_avx2(avx2, aes, op);
        }
        if let Some(aes) = Aesni::detect() {
            return x86::run_aesni(aes, op);
        }
    }}
    if pqforge_core::cpu::X86_SIMD {
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
    /// x86_64 AES-NI (portable products).
    Aesni,
    /// x86_64 AVX2 products with AES-NI.
    Avx2,
    /// x86_64 AVX2 products with VAES.
    Avx2Vaes,
}

impl Which {
    /// Every backend this crate knows.
    pub const ALL: [Which; 4] = [Which::Portable, Which::Aesni, Which::Avx2, Which::Avx2Vaes];

    /// `portable`, `aesni`, `avx2` or `avx2-vaes`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Which::Portable => "portable",
            Which::Aesni => "aesni",
            Which::Avx2 => "avx2",
            Which::Avx2Vaes => "avx2-vaes",
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
        if which == Which::Avx2Vaes {
            return Avx2Vaes::detect().map(|t| x86::run_avx2_vaes(t, op));
        }
        if which == Which::Avx2 {
            if let (Some(avx2), Some(aes)) = (Avx2::detect(), Aesni::detect()) {
                return Some(x86::run_avx2(avx2, aes, op));
            }
            return None;
        }
        if which == Which::Aesni {
            return Aesni::detect().map(|aes| x86::run_aesni(aes, op));
        }
    }}
    None
}
