//! Shared building blocks of the pqforge post-quantum suite.
//!
//! * [`Kem`] and [`Signature`]: the typed API every parameter set implements,
//!   with exact byte-array sizes as associated constants (no heap).
//! * [`DynKem`] and [`DynSig`]: object-safe versions over byte slices, with the
//!   [`AlgInfo`] record the registry, the CLI and the Cortex-M4 harness walk.
//!   Every typed scheme gets them for free through [`KemAlg`] / [`SigAlg`].
//! * [`Error`]: the one error type of the suite.
//! * [`ct`]: constant-time masks, comparison and selection.
//! * [`ctgrind`]: valgrind poison/declassify markers (no-ops unless the
//!   `ctgrind` feature is on).
//! * [`keccak`]: Keccak-f\[1600\], SHA3-256/512 and SHAKE128/256.
//! * [`kat`]: the NIST AES-256-CTR DRBG of PQCgenKAT and the HQC SHAKE256 KAT
//!   generator; with `alloc`, the `.req`/`.rsp` parser and writer.
//!
//! ```
//! use pqforge_core::keccak::sha3_256;
//! let d = sha3_256(b"");
//! assert_eq!(d[0], 0xa7);
//! ```
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod aes;
pub mod cpu;
pub mod ct;
pub mod ctgrind;
mod dynamic;
mod error;
pub mod kat;
pub mod keccak;
pub mod keccak_x4;
#[cfg(feature = "rustcrypto")]
pub mod rustcrypto;
mod traits;

pub use dynamic::{AlgInfo, DynKem, DynSig, KatRng, KemAlg, Kind, SigAlg, Status};
pub use error::{Error, check_len};
pub use rand_core::{CryptoRng, Rng};
pub use traits::{Kem, Signature};
