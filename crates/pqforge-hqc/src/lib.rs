//! HQC key encapsulation (2025-08-22 specification, FIPS 207 draft lineage):
//! constant-time, `no_std`, no heap; `unsafe` only in the x86_64 SIMD
//! backend.
//!
//! Six parameter sets, usable side by side (status: draft, NIST categories
//! 1 / 3 / 5; no OID is assigned yet):
//!
//! | Type | Name | C stem | Reference revision |
//! |---|---|---|---|
//! | [`Hqc1`], [`Hqc3`], [`Hqc5`] | `hqc-1`, `hqc-3`, `hqc-5` | `hqc1`, ... | official `next-release` 161cd4f (liboqs 0.16) |
//! | [`Hqc1V5`], [`Hqc3V5`], [`Hqc5V5`] | `hqc-1-v5.0.0`, ... | `hqc1_v5_0_0`, ... | official tag v5.0.0 |
//!
//! The two revisions share hashes, formats and sizes and differ only in how
//! the XOF stream is consumed while sampling fixed-weight vectors
//! ([`Revision`]); one generic code path serves both.
//!
//! # Typed API
//!
//! Each set implements the KEM contract [`Kem`] of `pqforge-core`; the typed
//! keys, ciphertexts and secrets are core's [`EncapsKey`], [`DecapsKey`],
//! [`Ciphertext`] and [`SharedSecret`] (re-exported here), exact-size arrays
//! with no heap, secrets wiped on drop.
//!
//! ```
//! use pqforge_hqc::{Ciphertext, DecapsKey, EncapsKey, Hqc1, Kem};
//! // `rng`: any rand_core 0.10 `CryptoRng` (e.g. `rand::rng()`).
//! # let mut rng = pqforge_core::testing::TestRng::new(7);
//! let (ek, dk) = Hqc1::keygen(&mut rng);
//! let (ct, ss_sender) = Hqc1::encaps(&ek, &mut rng);
//! let ss_receiver = Hqc1::decaps(&dk, &ct);
//! assert_eq!(ss_sender, ss_receiver);
//!
//! // Keys and ciphertexts travel as bytes; imports are checked once.
//! let ek2 = EncapsKey::<Hqc1>::try_from(ek.as_ref()).unwrap();
//! let dk2 = DecapsKey::<Hqc1>::try_from(dk.as_ref()).unwrap();
//! let ct2 = Ciphertext::<Hqc1>::try_from(ct.as_ref()).unwrap();
//! assert_eq!(ek, ek2);
//! assert_eq!(Hqc1::decaps(&dk2, &ct2), ss_sender);
//! // The decapsulation key embeds the encapsulation key.
//! assert_eq!(dk2.encaps_key(), Some(ek));
//! ```
//!
//! Deterministic entry points (tests, known-answer tests):
//! `Hqc1::keygen_derand(&seed_kem)` (32 bytes) and
//! `Hqc1::encaps_derand(&ek, &m_salt)`, where `m_salt` is the message m
//! (k = 16 / 24 / 32 bytes for HQC-1 / 3 / 5) followed by the 16-byte salt.
//! The randomised ones draw exactly that: key generation one 32-byte
//! `seed_kem`, encapsulation m then salt (two draws), as the reference
//! implementation does, so a KAT generator reproduces the official files.
//!
//! Key forms: only the expanded encoding ([`KeyForms::EXPANDED`](pqforge_core::KeyForms::EXPANDED)); the
//! decapsulation key is `ek || seed_dk || σ || seed_kem` (its leading `ek`
//! is public). There are no options (contexts and the like are a signature
//! matter).
//!
//! # Dynamic API
//!
//! [`SCHEMES`] lists the six sets as [`pqforge_core::Scheme`]s in registry
//! order (`Scheme::kem::<Hqc1>()` is one of them): one-shot calls on byte
//! slices, and prepared keys checked once.
//!
//! # Input handling
//!
//! Checked once, when a key is imported ([`Kem::prepare_ek`] /
//! [`Kem::prepare_dk`], run by `TryFrom<&[u8]>` and the dynamic API): an
//! encapsulation key with nonzero bits of `s` beyond n is rejected
//! ([`pqforge_core::Error::Encoding`]); a decapsulation key must re-derive
//! from its `seed_kem` (a key generation, compared in constant time;
//! [`pqforge_core::Error::InvalidKey`]). Ciphertexts are only
//! length-checked, and any ciphertext that does not re-encrypt to exactly
//! the same bytes (including the unused high bits of `u`) decapsulates to
//! the implicit-rejection key J(H(ek), σ, c).
//!
//! # Memory and backends
//!
//! Everything lives on the stack. Each PKE stage (key generation,
//! encryption, decryption) runs in a frame of its own (compiled for the
//! selected instruction set) and holds three ring elements (7.3 KB each for
//! HQC-5) plus ~15 KB of multiplier scratch (one accumulator and the
//! Karatsuba temporaries of the half products; no double-length product is
//! stored); keys and ciphertexts are written straight into the caller's
//! arrays. The sparse vectors are kept as position lists. Measured peaks
//! through the dynamic API: ~41 KB for HQC-5, ~16 KB for HQC-1 (`pqforge
//! bench`, AVX-512 backend); ~42.6 KB and ~17.5 KB on the Cortex-M4
//! (portable backend, `cargo xtask m4`).
//!
//! Backends (chosen at run time, once per call, for the whole operation):
//! AVX-512 with VPCLMULQDQ, AVX2 with PCLMULQDQ, or portable;
//! `--cfg pqforge_backend="portable"` forces the portable one.
//!
//! Cargo features: `rustcrypto` (the RustCrypto `kem` traits, generated in
//! core: `pqforge_core::rustcrypto::RcKem<Hqc1>`), `ctgrind` (valgrind
//! markers for the constant-time harness).
//!
//! Modules, each using only the ones before it: [`params`] (parameter
//! sets), `gf2x` (ring arithmetic; the kernel trait the backends
//! implement), `code` (the concatenated Reed-Solomon / Reed-Muller code),
//! `sampling` (XOF and samplers), `kem` (HQC-PKE and the FO transform,
//! generic over the backend), `backend` (portable, AVX2 and AVX-512
//! backends and the one dispatch), `contract` (the [`Kem`] impls).
#![no_std]

#[cfg(test)]
extern crate std;

// The modules form a chain: each one uses only the ones above it.
pub mod params;

mod gf2x;

mod code;
mod sampling;

mod kem;

mod backend;

mod contract;

#[doc(hidden)]
pub mod testing;

#[cfg(test)]
mod intermediates;

use pqforge_core::Scheme;

pub use params::{Hqc1, Hqc1V5, Hqc3, Hqc3V5, Hqc5, Hqc5V5, ParameterSet, Revision};
pub use pqforge_core::{Ciphertext, DecapsKey, EncapsKey, Kem, SharedSecret};

/// The six parameter sets in registry order: `hqc-1`, `hqc-3`, `hqc-5`,
/// `hqc-1-v5.0.0`, `hqc-3-v5.0.0`, `hqc-5-v5.0.0`.
pub const SCHEMES: [Scheme; 6] = [
    Scheme::kem::<Hqc1>(),
    Scheme::kem::<Hqc3>(),
    Scheme::kem::<Hqc5>(),
    Scheme::kem::<Hqc1V5>(),
    Scheme::kem::<Hqc3V5>(),
    Scheme::kem::<Hqc5V5>(),
];
