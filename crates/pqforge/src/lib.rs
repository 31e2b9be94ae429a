//! # pqforge
//!
//! Pure-Rust post-quantum cryptography behind one API. Every parameter set is
//! available two ways:
//!
//! * **typed** (exact byte-array sizes, no heap, `no_std`): the scheme
//!   crates' types, re-exported here as [`hqc`] (and more families as they
//!   land), implementing [`Kem`] or [`Signature`];
//! * **dynamic**: [`Algorithm`] parsed from the canonical name, giving a
//!   [`Scheme`] whose [`DynKem`] / [`DynSig`] work on byte slices.
//!
//! ```
//! # #[cfg(feature = "hqc")] {
//! use pqforge::{Algorithm, Scheme};
//!
//! let alg: Algorithm = "hqc-1".parse().unwrap();
//! let Scheme::Kem(kem) = alg.scheme() else { unreachable!() };
//! let info = kem.info();
//! let (mut pk, mut sk) = (vec![0u8; info.pk_bytes], vec![0u8; info.sk_bytes]);
//! let (mut ct, mut ss1, mut ss2) = (vec![0u8; info.ct_bytes], [0u8; 32], [0u8; 32]);
//! let mut rng = pqforge::kat::KatSource::new(info.kat, &[7u8; 48]); // use a real CSPRNG in practice
//! kem.keygen(&mut rng, &mut pk, &mut sk).unwrap();
//! kem.encaps(&mut rng, &pk, &mut ct, &mut ss1).unwrap();
//! kem.decaps(&sk, &ct, &mut ss2).unwrap();
//! assert_eq!(ss1, ss2);
//! # }
//! ```
//!
//! Cargo features: one per scheme family (all on by default), `std` (KAT
//! writer, self-test), `fndsa` (FN-DSA-512/1024 in the putative 2026-07
//! draft format, status draft; not default), `rustcrypto` (RustCrypto `kem` traits), `ctgrind`
//! (valgrind markers for the constant-time harness; never in production
//! builds).
#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "std")]
pub mod katgen;
mod registry;
#[cfg(feature = "std")]
pub mod selftest;
pub mod transcript;

pub use pqforge_core::{
    AlgInfo, CryptoRng, DynKem, DynSig, Error, KatRng, Kem, KemAlg, Kind, Rng, SigAlg, Signature,
    Status, ct, ctgrind, kat, keccak,
};
pub use registry::{Algorithm, ParseAlgorithmError, Scheme};

/// RustCrypto `kem` trait implementations for the typed KEMs (feature
/// `rustcrypto`): `RcKem<pqforge::hqc::Hqc1>` implements `kem::Kem`.
#[cfg(feature = "rustcrypto")]
pub use pqforge_core::rustcrypto;

/// HQC-1/3/5 (typed API).
#[cfg(feature = "hqc")]
pub use pqforge_hqc as hqc;

/// ML-KEM-512/768/1024 (typed API).
#[cfg(feature = "mlkem")]
pub use pqforge_mlkem as mlkem;

/// Classic McEliece, all round-4 sets plus pc/pcf (typed API; status at-risk).
#[cfg(feature = "mceliece")]
pub use pqforge_mceliece as mceliece;

/// Falcon-512/1024, round 3 (typed API).
#[cfg(feature = "falcon")]
pub use pqforge_falcon as falcon;
