//! ML-DSA-44/65/87 (FIPS 204, August 2024): constant-time, `no_std`, no
//! heap.
//!
//! The parameter sets [`MlDsa44`], [`MlDsa65`] and [`MlDsa87`] implement
//! core's [`SignatureScheme`](pqforge_core::SignatureScheme): pure ML-DSA
//! with a context of up to 255 bytes, HashML-DSA, external μ, hedged by
//! default and deterministic on request; private keys as the 32-byte seed
//! ξ or the FIPS 204 expanded encoding (checked against its own public
//! part on import). Verification is strict (one encoding of each signature).
//!
//! ```
//! use pqforge_core::{SignOptions, SignatureScheme, testing::TestRng};
//! use pqforge_mldsa::MlDsa65;
//!
//! let mut rng = TestRng::new(1);
//! let (vk, sk) = MlDsa65::keygen(&mut rng);
//! let opts = SignOptions::new().with_context(b"example");
//! let sig = MlDsa65::sign_with(&sk, b"message", &opts, &mut rng).unwrap();
//! assert!(MlDsa65::verify_with(&vk, b"message", &opts, sig.as_ref()).is_ok());
//! ```
//!
//! Layout: `arith` (mod-q reductions, NTT), `rounding` (Power2Round,
//! Decompose, MakeHint, UseHint, division-free), `pack`, `sample`
//! (ExpandA/S/Mask, SampleInBall), `keygen`/`sign`/`verify` (the
//! algorithms, generic over the `backend` kernels), `contract` (the
//! `SignatureScheme` impls). The `hazmat` feature exposes the FIPS 204
//! internal algorithms one by one (module `hazmat`).

#![no_std]

mod arith;
mod backend;
mod contract;
#[cfg(feature = "hazmat")]
pub mod hazmat;
mod keygen;
mod pack;
pub mod params;
mod rounding;
mod sample;
mod sign;
mod verify;

pub use backend::Which as Backend;
pub use contract::MlDsaVkState;
pub use params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};

/// The ML-DSA parameter sets, in registry order: `ml-dsa-44`, `ml-dsa-65`,
/// `ml-dsa-87`.
pub const SCHEMES: [pqforge_core::Scheme; 3] = [
    pqforge_core::Scheme::sig::<MlDsa44>(),
    pqforge_core::Scheme::sig::<MlDsa65>(),
    pqforge_core::Scheme::sig::<MlDsa87>(),
];
