//! ML-KEM-512/768/1024 (FIPS 203, August 2024): constant-time, `no_std`, no
//! heap.
//!
//! * Parameter sets: [`MlKem512`], [`MlKem768`], [`MlKem1024`] (security
//!   categories 1, 3, 5). Each implements [`pqforge_core::Kem`] once; the
//!   typed API (`P::keygen`, `P::encaps`, `P::decaps`, the deterministic
//!   `P::keygen_derand(&seed)` = ML-KEM.KeyGen_internal and
//!   `P::encaps_derand(&ek, &m)` = ML-KEM.Encaps_internal) and the key types
//!   [`EncapsKey`], [`DecapsKey`], [`Ciphertext`], [`SharedSecret`]
//!   (exact-size arrays; secrets wiped on drop) come from core.
//! * Dynamic API: [`SCHEMES`] (registry order 512, 768, 1024), or
//!   `pqforge_core::KemAlg::<MlKem768>::DYN`, over byte slices.
//! * Key forms (RFC 9935): the 64-byte seed `d || z` and the expanded
//!   decapsulation key `dk_PKE || ek || H(ek) || z` (768k + 96 bytes). A
//!   [`DecapsKey`] made by `keygen`/`keygen_derand` keeps its seed
//!   ([`DecapsKey::seed`]); [`DecapsKey::from_seed`] rebuilds the key from
//!   it. OIDs 2.16.840.1.101.3.4.4.1 / .2 / .3.
//! * Options: none. ML-KEM defines no variants; every ciphertext of the
//!   right length is accepted (implicit rejection).
//!
//! Randomness: `keygen` draws d || z with ONE 64-byte `fill_bytes` call and
//! `encaps` draws m with one 32-byte call — the order and sizes of
//! pq-crystals' `crypto_kem_keypair`/`crypto_kem_enc`, so a NIST-DRBG KAT
//! driver reproduces their `PQCgenKAT_kem` transcripts (`tests/kat.rs`
//! checks record 0 of all three sets against the digests liboqs publishes).
//!
//! Input checks (FIPS 203 §7), run once when a key is built or prepared
//! ([`EncapsKey::try_from`], [`DecapsKey::try_from`], `prepare_ek`,
//! `prepare_dk` of the dynamic API): every length; for ek the modulus check
//! `ByteEncode12(ByteDecode12(ek)) == ek` ([`pqforge_core::Error::Encoding`]);
//! for dk the hash check `H(ek) == h` ([`pqforge_core::Error::InvalidKey`])
//! and the modulus check of the embedded ek. Decapsulation itself never
//! fails: a ciphertext that does not re-encrypt identically yields the
//! implicit-rejection key `J(z || c)`, chosen in constant time. A prepared
//! encapsulation key carries H(ek), so encapsulation does not rehash it.
//!
//! Backends: the FO transform and the hashing are written once, over a
//! K-PKE strategy the backend picks. AVX2 on x86_64 (detected at run time,
//! once per call; [`backend_name`]) expands and stores the matrix and runs
//! decapsulation's hashes on four Keccak lanes; elsewhere, or with
//! `--cfg pqforge_backend="portable"`, the portable kernels never store
//! the matrix (pqm4's "m4fstack" strategy: about 3.5 KB of stack for
//! ML-KEM-768 on a Cortex-M4, the dynamic API included). On 32-bit targets
//! Keccak runs bit-interleaved on 32-bit words.
//!
//! The `hazmat` feature exposes the FIPS 203 internal algorithms one by
//! one (module `hazmat`), for third-party test suites.
//!
//! ```
//! use pqforge_core::Kem;
//! use pqforge_mlkem::{Ciphertext, DecapsKey, EncapsKey, MlKem768};
//!
//! // Key generation from a 64-byte seed d || z (`MlKem768::keygen(&mut rng)`
//! // draws it from a cryptographic generator).
//! let seed = [7u8; 64];
//! let (ek, dk) = MlKem768::keygen_derand(&seed);
//! assert_eq!(dk.seed(), Some(&seed));
//!
//! // The sender checks the received key (FIPS 203 §7.2) and encapsulates
//! // (`MlKem768::encaps(&ek, &mut rng)` draws m; here m is explicit).
//! let ek = EncapsKey::<MlKem768>::try_from(ek.as_ref())?;
//! let (ct, k1) = MlKem768::encaps_derand(&ek, &[1u8; 32])?;
//!
//! // The receiver decapsulates.
//! let ct = Ciphertext::<MlKem768>::try_from(ct.as_ref())?;
//! assert_eq!(MlKem768::decaps(&dk, &ct), k1);
//!
//! // Both private-key forms: the expanded encoding (checked, §7.3) and the seed.
//! let dk2 = DecapsKey::<MlKem768>::try_from(dk.as_ref())?;
//! assert_eq!(MlKem768::decaps(&dk2, &ct), k1);
//! let dk3 = DecapsKey::<MlKem768>::from_seed(&seed)?;
//! assert_eq!(dk3.as_bytes(), dk.as_bytes());
//!
//! // The same through the dynamic API, on byte slices.
//! let kem = pqforge_core::KemAlg::<MlKem768>::DYN;
//! let mut ss = [0u8; 32];
//! kem.decaps(dk.as_ref(), ct.as_ref(), &mut ss)?;
//! assert_eq!(&ss, k1.as_bytes());
//! # Ok::<(), pqforge_core::Error>(())
//! ```
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[doc(hidden)]
pub mod backend;
mod contract;
mod hash;
#[cfg(feature = "hazmat")]
pub mod hazmat;
mod kem;
mod ntt;
mod params;
mod pke;
mod poly;
mod sample;

pub use backend::backend_name;
#[doc(hidden)]
pub use contract::keygen_ipd_draft;
pub use params::{MlKem512, MlKem768, MlKem1024, ParameterSet};
pub use pqforge_core::{Ciphertext, DecapsKey, EncapsKey, SharedSecret};

use pqforge_core::Scheme;

/// The three parameter sets for the registry, in its order: ML-KEM-512,
/// ML-KEM-768, ML-KEM-1024.
pub const SCHEMES: [Scheme; 3] = [
    Scheme::kem::<MlKem512>(),
    Scheme::kem::<MlKem768>(),
    Scheme::kem::<MlKem1024>(),
];
