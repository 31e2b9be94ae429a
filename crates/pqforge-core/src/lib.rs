#![doc = include_str!("../README.md")]
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
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
pub mod sort;
pub mod sponge;
#[cfg(feature = "test-util")]
pub mod testing;
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
pub mod transpose;

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
