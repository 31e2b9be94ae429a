//! SLH-DSA (FIPS 205): the stateless hash-based signature, all twelve
//! parameter sets. Work in progress (issue #15): the portable internal
//! algorithms (keygen, sign, verify) over the SHAKE and SHA2 hash suites.
#![no_std]

pub mod adrs;
pub mod hash;
pub mod internal;
pub mod params;
