//! The AVX2 backend (x86_64): FIPS 205's independent hashes eight at a
//! time.
//!
//! * `hash`: F, PRF, H and T_l on eight lanes over core's multi-lane
//!   primitives (SHA-256 ×8, SHA-512 ×4 twice, Keccak ×4 twice or once on
//!   512-bit registers), each message one fixed-size padded block after the
//!   PK.seed chaining value (SHA2) or one SHAKE256 block.
//! * `tree`: XMSS and FORS trees, the WOTS+ chains of signing and
//!   verification, and FORS verification, on those lanes.
//!
//! The kernels are `#[target_feature(enable = "avx2")]` functions. The
//! only way in is [`run`], which takes a `pqforge_core::cpu::Avx2` token
//! (made only by run-time detection) and runs the whole operation inside
//! one `#[target_feature(enable = "avx2")]` function on the private
//! [`Avx2`] kernels. That is the only safety condition: the code itself
//! has no other `unsafe`.
#![allow(unsafe_code)]

mod hash;
mod tree;

use pqforge_core::cpu;

use super::{Backend, Operation};
use crate::adrs::Adrs;
use crate::params::ParameterSet;

/// The AVX2 kernels. Invariant: its methods run only inside [`run_avx2`]
/// (reached through a token).
pub(crate) struct Avx2;

impl Backend for Avx2 {
    const NAME: &'static str = "avx2";

    fn xmss_root<P: ParameterSet>(hs: &P::Hash, sk_seed: &[u8], adrs: &mut Adrs, root: &mut [u8]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { tree::xmss_root::<P>(hs, sk_seed, adrs, root) }
    }

    fn xmss_sign<P: ParameterSet>(
        hs: &P::Hash,
        m: &[u8],
        sk_seed: &[u8],
        idx: u32,
        adrs: &mut Adrs,
        sig: &mut [u8],
        root: &mut [u8],
    ) -> bool {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { tree::xmss_sign::<P>(hs, m, sk_seed, idx, adrs, sig, root) };
        true
    }

    fn xmss_pk_from_sig<P: ParameterSet>(
        hs: &P::Hash,
        idx: u32,
        sig: &[u8],
        m: &[u8],
        adrs: &mut Adrs,
        root: &mut [u8],
    ) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { tree::xmss_pk_from_sig::<P>(hs, idx, sig, m, adrs, root) }
    }

    fn fors_sign<P: ParameterSet>(
        hs: &P::Hash,
        md: &[u8],
        sk_seed: &[u8],
        adrs: &mut Adrs,
        sig: &mut [u8],
        pk: &mut [u8],
    ) -> bool {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { tree::fors_sign::<P>(hs, md, sk_seed, adrs, sig, pk) };
        true
    }

    fn fors_pk_from_sig<P: ParameterSet>(
        hs: &P::Hash,
        sig: &[u8],
        md: &[u8],
        adrs: &mut Adrs,
        pk: &mut [u8],
    ) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { tree::fors_pk_from_sig::<P>(hs, sig, md, adrs, pk) }
    }
}

/// Runs `op` on the AVX2 kernels; the token proves AVX2 was detected.
pub(crate) fn run<O: Operation>(_token: cpu::Avx2, op: O) -> O::Output {
    // SAFETY: the token exists only when the CPU supports AVX2.
    unsafe { run_avx2(op) }
}

/// The whole operation compiled for AVX2.
#[target_feature(enable = "avx2")]
fn run_avx2<O: Operation>(op: O) -> O::Output {
    op.run::<Avx2>()
}
