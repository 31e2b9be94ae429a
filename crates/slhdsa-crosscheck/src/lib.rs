//! Test-only crate: `tests/crosscheck.rs` signs every deterministic (and
//! every `additionalRandomness`) case of the ACVP SLH-DSA sigGen prompts
//! with pqforge and with RustCrypto's `slh-dsa`, and requires the two
//! signatures to be byte-identical. No code here.
#![no_std]
