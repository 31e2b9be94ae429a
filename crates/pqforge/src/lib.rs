//! # pqforge
//!
//! Pure-Rust post-quantum cryptography behind one contract. Every parameter
//! set is available three ways:
//!
//! * **typed** (exact byte-array sizes, no heap, `no_std`): the scheme
//!   crates' parameter-set types, re-exported here as [`hqc`], [`mlkem`],
//!   [`mceliece`], [`falcon`], implementing [`Kem`] or [`SignatureScheme`];
//! * **dynamic**: an [`Algorithm`] parsed from any spelling of its name,
//!   whose [`DynKem`] / [`DynSig`] work on byte slices, one-shot or with
//!   keys checked once ([`DynKem::prepare_dk`], feature `std`);
//! * **RustCrypto traits** (feature `rustcrypto`): [`rustcrypto::RcKem`]
//!   for every KEM, `signature::{Signer, Verifier, ...}` for every
//!   signature scheme.
//!
//! Any KEM by name, with prepared keys:
//!
//! ```
//! # #[cfg(all(feature = "hqc", feature = "mlkem"))] {
//! use pqforge::Algorithm;
//!
//! let mut rng = rand::rng(); // any rand_core 0.10 CryptoRng
//! for name in ["ML-KEM-768", "hqc-1"] {
//!     let kem = name.parse::<Algorithm>().unwrap().kem().unwrap();
//!     let i = kem.info();
//!     let (mut ek, mut dk) = (vec![0u8; i.pk_bytes], vec![0u8; i.sk_bytes]);
//!     kem.keygen(&mut rng, &mut ek, &mut dk).unwrap();
//!     let ek = kem.prepare_ek(&ek).unwrap(); // every input check, once
//!     let dk = kem.prepare_dk(&dk).unwrap();
//!     let (mut ct, mut k1, mut k2) = (vec![0u8; i.ct_bytes], vec![0u8; i.ss_bytes], vec![0u8; i.ss_bytes]);
//!     ek.encaps(&mut rng, &mut ct, &mut k1).unwrap();
//!     dk.decaps(&ct, &mut k2).unwrap();
//!     assert_eq!(k1, k2);
//! }
//! # }
//! ```
//!
//! Cargo features: one per scheme family (`hqc`, `mlkem`, `mceliece`,
//! `falcon` on by default; `fndsa` for the FN-DSA draft), `std` (KAT
//! writer, self-test, prepared keys of the dynamic API), `rustcrypto`,
//! `getrandom` (`P::generate()` from the operating system's generator),
//! `ctgrind` (valgrind markers for the constant-time harness; never in
//! production builds).
#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "std")]
extern crate alloc;

#[cfg(feature = "std")]
pub mod katgen;
#[cfg(feature = "pkcs8")]
pub mod keyfile;
mod registry;
#[cfg(feature = "std")]
pub mod selftest;
pub mod transcript;

pub use pqforge_core::fill_rng;
pub use pqforge_core::{
    AlgInfo, ByteArray, Ciphertext, CryptoRng, DecapsKey, DynKem, DynSig, EncapsKey, Error,
    HashAlg, KatRng, Kem, KeyForms, Kind, MessageMode, Rng, Scheme, SharedSecret, SignCaps,
    SignOptions, Signature, SignatureScheme, SigningKey, Status, VerifyingKey, cpu, ct, ctgrind,
    kat, keccak, names, sha2,
};
#[cfg(feature = "std")]
pub use pqforge_core::{
    PreparedDecapsKey, PreparedEncapsKey, PreparedSigningKey, PreparedVerifyingKey,
};
pub use registry::{ALL_FAMILY_FEATURES, Algorithm, FAMILIES, Family, ParseAlgorithmError};

/// RustCrypto `kem` and `signature` trait implementations (feature
/// `rustcrypto`): `RcKem<pqforge::mlkem::MlKem768>` implements `kem::Kem`.
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

/// ML-DSA-44/65/87, FIPS 204 (typed API).
#[cfg(feature = "mldsa")]
pub use pqforge_mldsa as mldsa;

/// SLH-DSA, FIPS 205: the six SHA2 and six SHAKE sets (typed API).
#[cfg(feature = "slhdsa")]
pub use pqforge_slhdsa as slhdsa;

/// Falcon-512/1024, round 3 (typed API).
#[cfg(feature = "falcon")]
pub use pqforge_falcon as falcon;

/// The README's Rust examples, run as doc-tests.
#[cfg(all(doctest, feature = "rustcrypto", feature = "default-families"))]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
