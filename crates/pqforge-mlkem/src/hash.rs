//! The hash functions of FIPS 203 §4.1 on core's lean sponge
//! ([`pqforge_core::sponge`]: the fastest single-state Keccak of the target,
//! bit-interleaved on 32-bit ones): H = SHA3-256, G = SHA3-512, J = SHAKE256
//! with 32-byte output, and the one-lane SHAKE128 / SHAKE256 readers of
//! SampleNTT and the PRF.

use pqforge_core::sponge;
pub(crate) use pqforge_core::sponge::{Shake128, Shake256};

/// H(s) = SHA3-256(s).
pub(crate) fn h(data: &[u8]) -> [u8; 32] {
    sponge::sha3_256(&[data])
}

/// G(parts) = SHA3-512 of the concatenation.
pub(crate) fn g(parts: &[&[u8]]) -> [u8; 64] {
    sponge::sha3_512(parts)
}

/// J(z || c) = SHAKE256(z || c, 32 bytes).
pub(crate) fn j(z: &[u8], c: &[u8]) -> [u8; 32] {
    sponge::shake256_32(&[z, c])
}
