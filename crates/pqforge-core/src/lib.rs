//! Shared building blocks of the pqforge post-quantum suite.
//!
//! * The contracts every parameter set implements once, in place:
//!   [`Kem`] and [`SignatureScheme`] (with [`SignOptions`]). Generated from
//!   them, here in core: the typed API ([`EncapsKey`], [`DecapsKey`],
//!   [`Ciphertext`], [`SharedSecret`], [`SigningKey`], [`VerifyingKey`],
//!   [`Signature`]: exact-size arrays, no heap), the dynamic API
//!   ([`DynKem`], [`DynSig`], [`Scheme`]) and, with the `rustcrypto`
//!   feature, the RustCrypto `kem` and `signature` traits.
//! * [`AlgInfo`]: the metadata of a parameter set (sizes, status, OIDs,
//!   key forms, C symbol stem, names).
//! * [`Error`]: the one error type of the suite.
//! * [`cpu`]: run-time CPU features and the tokens that guard
//!   `#[target_feature]` code.
//! * [`ct`], [`ctgrind`]: constant-time helpers and valgrind markers.
//! * [`keccak`], [`keccak_x4`]: Keccak-f\[1600\] (64-bit, bit-interleaved
//!   32-bit, four-way AVX2) and the FIPS 202 sponges.
//! * [`sha2`]: SHA-224/256/384/512 and SHA-512/224, SHA-512/256 (FIPS
//!   180-4), streaming and one-shot, with the raw compression functions
//!   for midstates; [`sha2_multi`]: eight SHA-256 or four SHA-512
//!   compressions at once (AVX2, AVX-512VL) and the SHA-extension
//!   compression.
//! * [`kat`]: the NIST AES-256-CTR DRBG of PQCgenKAT and the HQC SHAKE256 KAT
//!   generator; with `alloc`, the `.req`/`.rsp` parser and writer.
//!
//! ```
//! use pqforge_core::keccak::sha3_256;
//! let d = sha3_256(b"");
//! assert_eq!(d[0], 0xa7);
//! ```
//!
//! Cargo features: `alloc` (prepared keys of the dynamic API, `.rsp`
//! files), `std`, `rustcrypto`, `getrandom` (key generation from the
//! operating system's generator), `ctgrind` (valgrind markers; harness
//! builds only), `test-util` (the deterministic test generator of the
//! test suites).
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod aes;
mod bytes;
pub mod cpu;
pub mod ct;
pub mod ctgrind;
mod dynamic;
mod error;
pub mod hmac;
mod info;
pub mod kat;
pub mod keccak;
pub mod keccak_x4;
pub mod kem;
pub mod keyfile;
mod keys;
pub mod names;
#[cfg(feature = "alloc")]
mod prepared;
#[doc(hidden)]
pub mod rng;
#[cfg(feature = "rustcrypto")]
pub mod rustcrypto;
pub mod sha2;
pub mod sha2_multi;
pub mod sig;
pub mod sponge;
#[cfg(feature = "test-util")]
pub mod testing;

pub use bytes::{ByteArray, array_mut, array_ref};
pub use dynamic::{DynKem, DynSig, KemAlg, Scheme, SigAlg};
pub use error::{Error, check_len};
pub use info::{AlgInfo, KatRng, KeyForms, Kind, Status};
pub use kem::{Ciphertext, DecapsKey, EncapsKey, Kem, PreparedDk, PreparedEk, SharedSecret};
#[cfg(feature = "alloc")]
pub use prepared::{
    PreparedDecapsKey, PreparedEncapsKey, PreparedSigningKey, PreparedVerifyingKey,
};
pub use rand_core::{CryptoRng, Rng};
pub use sig::{
    Checked, HashAlg, MessageMode, PreparedSk, PreparedVk, SignCaps, SignChecked, SignOptions,
    Signature, SignatureScheme, SigningKey, VerifyChecked, VerifyingKey, need_signed_message,
};
