//! HQC key encapsulation (2025-08-22 specification, FIPS 207 draft lineage):
//! constant-time, `no_std`, no heap; `unsafe` only in the x86_64 SIMD
//! backend.
//!
//! Six parameter sets, usable side by side:
//!
//! | Type | Name | Reference revision |
//! |---|---|---|
//! | [`Hqc1`], [`Hqc3`], [`Hqc5`] | `hqc-1`, `hqc-3`, `hqc-5` | official `next-release` 161cd4f (liboqs 0.16) |
//! | [`Hqc1V5`], [`Hqc3V5`], [`Hqc5V5`] | `hqc-1-v5.0.0`, ... | official tag v5.0.0 |
//!
//! The two revisions share hashes, formats and sizes and differ only in how
//! the XOF stream is consumed while sampling fixed-weight vectors
//! ([`Revision`]); one generic code path serves both.
//!
//! ```
//! use pqforge_core::Kem;
//! use pqforge_hqc::Hqc1;
//! # use pqforge_core::kat::{HqcPrng, KatSource};
//! # let mut rng = KatSource::Hqc(HqcPrng::new(&[7u8; 48])); // any CryptoRng
//! let (ek, dk) = Hqc1::keygen(&mut rng);
//! let (ct, ss_sender) = Hqc1::encaps(&ek, &mut rng);
//! let ss_receiver = Hqc1::decaps(&dk, &ct);
//! assert_eq!(ss_sender.as_ref(), ss_receiver.as_ref());
//!
//! // Keys and ciphertexts travel as bytes; imports are checked.
//! let ek2 = <Hqc1 as Kem>::EncapsKey::try_from(ek.as_ref()).unwrap();
//! assert_eq!(ek, ek2);
//! ```
//!
//! Deterministic entry points for tests and KATs: `Hqc1::keygen_derand(&seed_kem)`
//! and `Hqc1::encaps_derand(&ek, &m, &salt)` (likewise for every set).
//!
//! Input handling: an encapsulation key with nonzero bits of `s` beyond n is
//! rejected ([`pqforge_core::Error::Encoding`]); a decapsulation key must
//! re-derive from its `seed_kem` ([`pqforge_core::Error::InvalidKey`]);
//! ciphertexts are only length-checked, and any ciphertext that does not
//! re-encrypt to exactly the same bytes (including the unused high bits of
//! `u`) decapsulates to the implicit-rejection key J(H(ek), σ, c).
//!
//! Everything lives on the stack. Each PKE stage (key generation,
//! encryption, decryption) runs in a frame of its own (compiled for the
//! selected instruction set) and holds three ring elements (7.3 KB each for
//! HQC-5) plus ~15 KB of multiplier scratch (one accumulator and the
//! Karatsuba temporaries of the half products; no double-length product is
//! stored); keys and ciphertexts are written through out-parameters below
//! the typed API. The sparse vectors are kept as position lists. Measured
//! peaks through the dynamic API (`pqforge bench`, AVX-512 backend) are
//! ~70-78 KB for HQC-5, ~25-28 KB for HQC-1.
//!
//! Backends (chosen at run time, once per call): AVX-512 with VPCLMULQDQ,
//! AVX2 with PCLMULQDQ, or portable; `--cfg pqforge_backend="portable"`
//! forces the portable one.
//!
//! Modules: [`params`] (parameter sets), `gf2x` (ring arithmetic behind a
//! backend trait), `x86` (the SIMD backends), `backend` (run-time
//! selection), `rs`/`code` (Reed-Solomon and Reed-Muller codes), `sampling`
//! (XOF and samplers), `kem` (the FO transform), [`types`].
#![no_std]

#[cfg(test)]
extern crate std;

mod backend;
mod code;
pub mod dynkem;
mod gf2x;
mod kem;
pub mod params;
mod rs;
#[cfg(feature = "rustcrypto")]
mod rustcrypto;
mod sampling;
pub mod types;
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
mod x86;

#[doc(hidden)]
pub mod testing;

#[cfg(test)]
mod intermediates;

use pqforge_core::DynKem;

pub use dynkem::HqcKem;
pub use params::{Hqc1, Hqc1V5, Hqc3, Hqc3V5, Hqc5, Hqc5V5, ParameterSet, Revision};
pub use types::{Ciphertext, DecapsKey, EncapsKey, SharedSecret};

/// `hqc-1` for the registry.
pub static HQC_1: HqcKem<Hqc1> = HqcKem::new();
/// `hqc-3` for the registry.
pub static HQC_3: HqcKem<Hqc3> = HqcKem::new();
/// `hqc-5` for the registry.
pub static HQC_5: HqcKem<Hqc5> = HqcKem::new();
/// `hqc-1-v5.0.0` for the registry.
pub static HQC_1_V5: HqcKem<Hqc1V5> = HqcKem::new();
/// `hqc-3-v5.0.0` for the registry.
pub static HQC_3_V5: HqcKem<Hqc3V5> = HqcKem::new();
/// `hqc-5-v5.0.0` for the registry.
pub static HQC_5_V5: HqcKem<Hqc5V5> = HqcKem::new();

/// All six parameter sets: hqc-1, hqc-3, hqc-5, hqc-1-v5.0.0,
/// hqc-3-v5.0.0, hqc-5-v5.0.0.
pub static ALL: [&dyn DynKem; 6] = [&HQC_1, &HQC_3, &HQC_5, &HQC_1_V5, &HQC_3_V5, &HQC_5_V5];
