#![doc = include_str!("../README.md")]
#![no_std]

#[cfg(test)]
extern crate std;

// The modules form a chain: each one uses only the ones above it.
pub mod params;

mod aes;
mod matrix;

mod kem;

mod backend;

mod contract;

#[doc(hidden)]
pub mod testing;

use pqforge_core::Scheme;

pub use contract::Pkh;
pub use params::{
    EFrodoKem640Aes, EFrodoKem640Shake, EFrodoKem976Aes, EFrodoKem976Shake, EFrodoKem1344Aes,
    EFrodoKem1344Shake, FrodoKem640Aes, FrodoKem640Shake, FrodoKem976Aes, FrodoKem976Shake,
    FrodoKem1344Aes, FrodoKem1344Shake, MatrixGen, ParameterSet,
};
pub use pqforge_core::{Ciphertext, DecapsKey, EncapsKey, Kem, SharedSecret};

/// The twelve parameter sets in registry order: the salted FrodoKEM
/// `frodokem-640-aes`, `-640-shake`, `-976-aes`, `-976-shake`, `-1344-aes`,
/// `-1344-shake`, then the round-3 `efrodokem-…` sets in the same order.
pub const SCHEMES: [Scheme; 12] = [
    Scheme::kem::<FrodoKem640Aes>(),
    Scheme::kem::<FrodoKem640Shake>(),
    Scheme::kem::<FrodoKem976Aes>(),
    Scheme::kem::<FrodoKem976Shake>(),
    Scheme::kem::<FrodoKem1344Aes>(),
    Scheme::kem::<FrodoKem1344Shake>(),
    Scheme::kem::<EFrodoKem640Aes>(),
    Scheme::kem::<EFrodoKem640Shake>(),
    Scheme::kem::<EFrodoKem976Aes>(),
    Scheme::kem::<EFrodoKem976Shake>(),
    Scheme::kem::<EFrodoKem1344Aes>(),
    Scheme::kem::<EFrodoKem1344Shake>(),
];
