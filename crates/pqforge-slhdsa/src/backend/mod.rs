//! Backends: the kernels slh_keygen/sign/verify_internal are generic over,
//! and THE dispatch: one CPU check per public call.
//!
//! * [`Portable`] (`portable.rs`): plain Rust, every target (the Cortex-M4
//!   included), one hash at a time, recursive trees in small frames: the
//!   functions of `internal`.
//! * `Avx2` (`avx2/`, x86_64): the same algorithms with independent hashes
//!   batched eight at a time (core's `compress256_x8`, `compress512_x4`,
//!   and the four-lane Keccak run as eight lanes by
//!   `keccak_f1600_x4_pair`; each picks AVX-512 or SHA-NI inside when the
//!   CPU has them): WOTS+ leaves eight key pairs at a time, tree levels,
//!   FORS leaves and nodes, the chains of a WOTS+ signature and of its
//!   verification.
//!
//! Every kernel has one contract in every backend (the same bytes out);
//! `tests/backends.rs` checks whole operations against portable.

mod portable;

pub(crate) use portable::Portable;

pqforge_core::x86_simd! {
    mod avx2;
}
// rustfmt does not follow `mod` items inside a macro call: this
// never-compiled twin lets `cargo fmt` reach the files.
#[cfg(any())]
mod avx2;

use crate::adrs::Adrs;
use crate::internal;
use crate::params::ParameterSet;

/// The kernels of one instruction set. The defaults are the portable ones
/// (`internal`'s one-hash-at-a-time functions).
pub(crate) trait Backend {
    /// `portable` or `avx2`.
    const NAME: &'static str;

    /// The root of the XMSS tree in `adrs` (layer and tree set): n bytes.
    fn xmss_root<P: ParameterSet>(hs: &P::Hash, sk_seed: &[u8], adrs: &mut Adrs, root: &mut [u8]) {
        internal::xmss_node::<P>(hs, sk_seed, 0, P::HP as u32, adrs, root);
    }

    /// xmss_sign (Algorithm 10) of the n-byte `m` with leaf `idx` into
    /// `sig` ((len + h') · n bytes). Returns whether it also wrote the
    /// tree's root into `root` (n bytes); if not, the caller computes it
    /// with [`Backend::xmss_pk_from_sig`].
    fn xmss_sign<P: ParameterSet>(
        hs: &P::Hash,
        m: &[u8],
        sk_seed: &[u8],
        idx: u32,
        adrs: &mut Adrs,
        sig: &mut [u8],
        root: &mut [u8],
    ) -> bool {
        let _ = root;
        internal::xmss_sign::<P>(hs, m, sk_seed, idx, adrs, sig);
        false
    }

    /// xmss_pkFromSig (Algorithm 11): the root (n bytes) from leaf `idx`'s
    /// signature `sig` of `m`.
    fn xmss_pk_from_sig<P: ParameterSet>(
        hs: &P::Hash,
        idx: u32,
        sig: &[u8],
        m: &[u8],
        adrs: &mut Adrs,
        root: &mut [u8],
    ) {
        internal::xmss_pk_from_sig::<P>(hs, idx, sig, m, adrs, root);
    }

    /// fors_sign (Algorithm 16) of `md` into `sig` (k (1 + a) n bytes),
    /// `adrs` of type FORS_TREE with its key pair set. Returns whether it
    /// also wrote pk_FORS into `pk` (n bytes); if not, the caller computes
    /// it with [`Backend::fors_pk_from_sig`].
    fn fors_sign<P: ParameterSet>(
        hs: &P::Hash,
        md: &[u8],
        sk_seed: &[u8],
        adrs: &mut Adrs,
        sig: &mut [u8],
        pk: &mut [u8],
    ) -> bool {
        let _ = pk;
        internal::fors_sign::<P>(hs, md, sk_seed, adrs, sig);
        false
    }

    /// fors_pkFromSig (Algorithm 17): pk_FORS (n bytes).
    fn fors_pk_from_sig<P: ParameterSet>(
        hs: &P::Hash,
        sig: &[u8],
        md: &[u8],
        adrs: &mut Adrs,
        pk: &mut [u8],
    ) {
        internal::fors_pk_from_sig::<P>(hs, sig, md, adrs, pk);
    }
}

pqforge_core::backend_dispatch! {
    kernels: Backend;
    portable: Portable;
    /// x86_64 AVX2: hashes batched eight at a time (core's multi-lane
    /// SHA-2 and Keccak, which use AVX-512 or SHA-NI inside when present).
    Avx2 = "avx2",
        detect: pqforge_core::cpu::Avx2::detect(),
        run: |token, op| avx2::run(token, op);
}
