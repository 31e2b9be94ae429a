#![doc = include_str!("../README.md")]
#![no_std]

#[cfg(test)]
extern crate std;

// The modules form a chain: each one uses only the ones above it.
pub mod params;

mod arith;
mod encode;
mod poly;
mod r3;
mod random;
mod sort;

mod kem;

mod backend;

mod contract;

#[doc(hidden)]
pub mod testing;

use pqforge_core::Scheme;

pub use params::{
    ParameterSet, Sntrup653, Sntrup761, Sntrup857, Sntrup953, Sntrup1013, Sntrup1277,
};
pub use pqforge_core::{Ciphertext, DecapsKey, EncapsKey, Kem, SharedSecret};

/// The six parameter sets in registry order: `sntrup653`, `sntrup761`,
/// `sntrup857`, `sntrup953`, `sntrup1013`, `sntrup1277`.
pub const SCHEMES: [Scheme; 6] = [
    Scheme::kem::<Sntrup653>(),
    Scheme::kem::<Sntrup761>(),
    Scheme::kem::<Sntrup857>(),
    Scheme::kem::<Sntrup953>(),
    Scheme::kem::<Sntrup1013>(),
    Scheme::kem::<Sntrup1277>(),
];
