#![doc = include_str!("../README.md")]
#![no_std]

#[cfg(test)]
extern crate std;

// The modules form a chain: each one uses only the ones above it.
pub mod params;

mod poly;

mod inv;
mod sample;

mod kem;

mod backend;

mod contract;

#[doc(hidden)]
pub mod testing;

use pqforge_core::Scheme;

pub use params::{
    NtruHps2048509, NtruHps2048677, NtruHps4096821, NtruHps40961229, NtruHrss701, NtruHrss1373,
    ParameterSet,
};
pub use pqforge_core::{Ciphertext, DecapsKey, EncapsKey, Kem, SharedSecret};

/// The six parameter sets in registry order: `ntru-hps-2048-509`,
/// `ntru-hps-2048-677`, `ntru-hps-4096-821`, `ntru-hps-4096-1229`,
/// `ntru-hrss-701`, `ntru-hrss-1373`.
pub const SCHEMES: [Scheme; 6] = [
    Scheme::kem::<NtruHps2048509>(),
    Scheme::kem::<NtruHps2048677>(),
    Scheme::kem::<NtruHps4096821>(),
    Scheme::kem::<NtruHps40961229>(),
    Scheme::kem::<NtruHrss701>(),
    Scheme::kem::<NtruHrss1373>(),
];
