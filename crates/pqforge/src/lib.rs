#![doc = include_str!("../README.md")]
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

/// X-Wing, the ML-KEM-768 + X25519 hybrid KEM (typed API; status draft).
#[cfg(feature = "xwing")]
pub use pqforge_xwing as xwing;

/// FrodoKEM-640/976/1344 (AES or SHAKE; salted ISO and round-3 ephemeral
/// variants; typed API).
#[cfg(feature = "frodokem")]
pub use pqforge_frodokem as frodokem;

/// NTRU round 3: NTRU-HPS and NTRU-HRSS (typed API; status draft).
#[cfg(feature = "ntru")]
pub use pqforge_ntru as ntru;

/// Streamlined NTRU Prime, round 3: sntrup653 to sntrup1277 (typed API;
/// status draft).
#[cfg(feature = "ntruprime")]
pub use pqforge_ntruprime as ntruprime;

/// Falcon-512/1024, round 3 (typed API).
#[cfg(feature = "falcon")]
pub use pqforge_falcon as falcon;

/// The README's Rust examples, run as doc-tests.
#[cfg(all(doctest, feature = "rustcrypto", feature = "default-families"))]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
