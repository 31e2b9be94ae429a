#![doc = include_str!("../README.md")]
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
