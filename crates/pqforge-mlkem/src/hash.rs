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

/// J(parts) = SHAKE256 of the concatenation, 32 bytes (J(z || c)).
pub(crate) fn j(parts: &[&[u8]]) -> [u8; 32] {
    sponge::shake256_32(parts)
}

/// The hashes of decapsulation after K-PKE.Decrypt (FIPS 203 Algorithm 18,
/// lines 7-8): `(K', r') = G(m' || h)` and `K-bar = J(z || c)`. A backend
/// may compute them together with other Keccak work (AVX2: one four-lane
/// schedule with the re-encryption's sampling); their inputs are set here.
pub(crate) struct DecapsHashes<'a> {
    /// m', the decrypted message.
    pub(crate) m: &'a [u8; 32],
    /// H(ek), from the decapsulation key.
    pub(crate) h: &'a [u8],
    /// The implicit-rejection seed z.
    pub(crate) z: &'a [u8],
    /// The received ciphertext.
    pub(crate) c: &'a [u8],
}

impl DecapsHashes<'_> {
    /// The inputs of G: m' || h.
    pub(crate) fn g_input(&self) -> [&[u8]; 2] {
        [self.m, self.h]
    }

    /// The inputs of J: z || c.
    pub(crate) fn j_input(&self) -> [&[u8]; 2] {
        [self.z, self.c]
    }

    /// G into `g` and J into `kbar`, one after the other. Own frame: the
    /// sponge states are not kept on decapsulation's stack during the
    /// re-encryption.
    #[inline(never)]
    pub(crate) fn run(&self, g: &mut [u8; 64], kbar: &mut [u8; 32]) {
        *g = self::g(&self.g_input());
        *kbar = j(&self.j_input());
    }
}
