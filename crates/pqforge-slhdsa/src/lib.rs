//! SLH-DSA (FIPS 205, August 2024): the stateless hash-based signature,
//! all twelve parameter sets, constant-time, `no_std`, no heap.
//!
//! The parameter sets ([`SlhDsaSha2_128s`] ... [`SlhDsaShake256f`])
//! implement core's [`SignatureScheme`](pqforge_core::SignatureScheme):
//! pure SLH-DSA with a context of up to 255 bytes, HashSLH-DSA with every
//! pre-hash FIPS 205 allows (or the caller's digest), hedged by default
//! and deterministic on request (opt_rand = PK.seed). Private keys are the
//! 4n-byte SK.seed || SK.prf || PK.seed || PK.root; key generation takes
//! the 3n-byte seed SK.seed || SK.prf || PK.seed. Verification is strict
//! on lengths.
//!
//! ```
//! use pqforge_core::{HashAlg, SignOptions, SignatureScheme, testing::TestRng};
//! use pqforge_slhdsa::SlhDsaShake128f;
//!
//! let mut rng = TestRng::new(1);
//! let (vk, sk) = SlhDsaShake128f::keygen(&mut rng);
//! let opts = SignOptions::new().with_context(b"example");
//! let sig = SlhDsaShake128f::sign_with(&sk, b"message", &opts, &mut rng).unwrap();
//! assert!(SlhDsaShake128f::verify_with(&vk, b"message", &opts, sig.as_ref()).is_ok());
//!
//! // HashSLH-DSA over SHA2-256, deterministic.
//! let opts = SignOptions::new().with_prehash(HashAlg::Sha2_256).deterministic();
//! let a = SlhDsaShake128f::sign_with(&sk, b"firmware", &opts, &mut rng).unwrap();
//! let b = SlhDsaShake128f::sign_with(&sk, b"firmware", &opts, &mut rng).unwrap();
//! assert_eq!(a.as_ref(), b.as_ref());
//! ```
//!
//! Layout: `params` (the sets), `adrs` (the 32-byte address and its
//! 22-byte compressed form), `hash` (the SHAKE and SHA2 suites with the
//! per-key PK.seed state), `internal` (WOTS+, XMSS, hypertree, FORS and
//! slh_keygen/sign/verify_internal), `contract` (the `SignatureScheme`
//! impls: M′ for pure and pre-hash signing), `backend` (the one dispatch
//! per public call: portable, or on x86_64 the AVX2 backend that batches
//! independent hashes eight at a time). The `hazmat` feature exposes the
//! internal interface (FIPS 205 §9) for test suites, also on a chosen
//! [`Backend`].
#![no_std]

mod adrs;
mod backend;
mod contract;
mod hash;
#[cfg(feature = "hazmat")]
pub mod hazmat;
mod internal;
pub mod params;

pub use backend::Which as Backend;
pub use params::{
    ParameterSet, SlhDsaSha2_128f, SlhDsaSha2_128s, SlhDsaSha2_192f, SlhDsaSha2_192s,
    SlhDsaSha2_256f, SlhDsaSha2_256s, SlhDsaShake128f, SlhDsaShake128s, SlhDsaShake192f,
    SlhDsaShake192s, SlhDsaShake256f, SlhDsaShake256s,
};

/// The SLH-DSA parameter sets, in registry order: the SHA2 sets
/// (128s, 128f, 192s, 192f, 256s, 256f), then the SHAKE sets.
pub const SCHEMES: [pqforge_core::Scheme; 12] = [
    pqforge_core::Scheme::sig::<SlhDsaSha2_128s>(),
    pqforge_core::Scheme::sig::<SlhDsaSha2_128f>(),
    pqforge_core::Scheme::sig::<SlhDsaSha2_192s>(),
    pqforge_core::Scheme::sig::<SlhDsaSha2_192f>(),
    pqforge_core::Scheme::sig::<SlhDsaSha2_256s>(),
    pqforge_core::Scheme::sig::<SlhDsaSha2_256f>(),
    pqforge_core::Scheme::sig::<SlhDsaShake128s>(),
    pqforge_core::Scheme::sig::<SlhDsaShake128f>(),
    pqforge_core::Scheme::sig::<SlhDsaShake192s>(),
    pqforge_core::Scheme::sig::<SlhDsaShake192f>(),
    pqforge_core::Scheme::sig::<SlhDsaShake256s>(),
    pqforge_core::Scheme::sig::<SlhDsaShake256f>(),
];
