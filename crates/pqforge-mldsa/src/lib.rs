//! ML-DSA-44/65/87 (FIPS 204, August 2024): constant-time, `no_std`, no heap.
//!
//! **Work in progress** (issue #14): this crate holds the arithmetic of
//! FIPS 204 so far, the modulus q = 8380417 and its NTT ([`arith`]) and the
//! rounding functions Power2Round, Decompose, MakeHint and UseHint
//! ([`rounding`]), each tested against its definition in the standard, bit
//! packing ([`pack`]), the key-generation samplers ([`sample`]) and
//! KeyGen_internal ([`keygen`]), checked against the ACVP keyGen vectors.
//! Signing, verification, the encodings' checks and the `SignatureScheme`
//! contract follow.

#![no_std]

pub mod arith;
pub mod keygen;
pub mod pack;
pub mod params;
pub mod rounding;
pub mod sample;
pub mod verify;
