#![doc = include_str!("../README.md")]
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
