//! ML-DSA-44/65/87 (FIPS 204, August 2024): constant-time, `no_std`, no heap.
//!
//! **Work in progress** (issue #14, portable only): the arithmetic mod
//! q = 8380417 and its NTT ([`arith`]), Power2Round / Decompose / MakeHint /
//! UseHint ([`rounding`], tested against the standard for every r in
//! [0, q)), bit packing ([`pack`]), the samplers ([`sample`]),
//! KeyGen_internal ([`keygen`]), Sign_internal ([`sign`]) and a strict
//! Verify_internal ([`verify`]), checked against the ACVP keyGen, sigGen
//! and sigVer vectors (internal interface, external μ, pure ML-DSA).
//! HashML-DSA, the key checks, the `SignatureScheme` contract, AVX2 and the
//! valgrind/M4 integration follow.

#![no_std]

pub mod arith;
mod contract;
pub mod keygen;
pub mod pack;
pub mod params;
pub mod rounding;
pub mod sample;
pub mod sign;
pub mod verify;

pub use contract::MlDsaVkState;
pub use params::{MlDsa44, MlDsa65, MlDsa87};

/// The ML-DSA parameter sets, in registry order: `ml-dsa-44`, `ml-dsa-65`,
/// `ml-dsa-87`.
pub const SCHEMES: [pqforge_core::Scheme; 3] = [
    pqforge_core::Scheme::sig::<MlDsa44>(),
    pqforge_core::Scheme::sig::<MlDsa65>(),
    pqforge_core::Scheme::sig::<MlDsa87>(),
];
