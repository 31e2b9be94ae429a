//! K-PKE (FIPS 203 §5, Algorithms 13-15): the lattice part of ML-KEM, behind
//! one trait with two strategies. The FO transform (`crate::kem`) is
//! written once over [`Pke`]; a backend picks the strategy
//! (`Backend::Pke`):
//!
//! * [`Stored`]: the matrix A-hat and the noise are sampled in full (four
//!   Keccak lanes at a time), then multiplied polynomial-vector-wise. What
//!   makes the AVX2 backend fast.
//! * [`Streamed`]: pqm4's "m4fstack" strategy; the matrix is never stored,
//!   NTT-domain secrets stay packed, noise is added as it is sampled. What
//!   gives the Cortex-M4 its 2.4-3.7 KB stacks.
//!
//! Both are generic over the polynomial kernels ([`Backend`]) and give
//! bit-identical results (`tests/backends.rs` runs every pairing).
//!
//! The ciphertext leaves K-PKE.Encrypt through a [`Sink`]: written out
//! ([`Write`], encapsulation) or compared with the received ciphertext
//! ([`Compare`], decapsulation's re-encryption). The streamed strategy
//! emits it byte by byte, so decapsulation never holds a second ciphertext;
//! the stored one writes it whole.

mod stored;
mod streamed;

pub(crate) use stored::{EncNoise, Matrix, Stored, sample_encrypt};
pub(crate) use streamed::Streamed;

use pqforge_core::{ByteArray, ct};

use crate::backend::Backend;
use crate::hash::DecapsHashes;
use crate::params::ParameterSet;
use pqforge_core::ct::wipe;

/// A K-PKE implementation (FIPS 203 §5) over the kernels `Kernels`.
///
/// Byte layouts (FIPS 203): ek = ByteEncode12(t-hat) || rho (384k + 32);
/// dk_PKE = ByteEncode12(s-hat) (384k); c = ByteEncode_du(Compress_du(u))
/// || ByteEncode_dv(Compress_dv(v)). Slices have exactly these lengths.
pub(crate) trait Pke {
    /// The polynomial kernels.
    type Kernels: Backend;

    /// K-PKE.KeyGen (Algorithm 13) after G: from the public seed `rho` and
    /// the noise seed `sigma`, writes ByteEncode12(t-hat) into `t_out` and
    /// ByteEncode12(s-hat) into `s_out` (384k bytes each).
    fn keygen<P: ParameterSet>(
        rho: &[u8; 32],
        sigma: &[u8; 32],
        t_out: &mut [u8],
        s_out: &mut [u8],
    );

    /// K-PKE.Encrypt(ek, m, r) (Algorithm 14) into `out`. `ek` has passed
    /// the modulus check.
    fn encrypt<P: ParameterSet, S: Sink>(ek: &[u8], m: &[u8; 32], r: &[u8; 32], out: &mut S);

    /// K-PKE.Decrypt(dk_PKE, c) (Algorithm 15).
    fn decrypt<P: ParameterSet>(dk_pke: &[u8], c: &[u8], m: &mut [u8; 32]);

    /// Decapsulation after K-PKE.Decrypt (Algorithm 18, lines 7-9): the
    /// hashes `(K', r') = G(m' || h)` into `g` and `K-bar = J(z || c)` into
    /// `kbar`, then K-PKE.Encrypt(ek, m', r') into `out`. Strategies may
    /// schedule the hashes with their own sampling (AVX2: four Keccak lanes).
    fn reencrypt<P: ParameterSet, S: Sink>(
        ek: &[u8],
        hashes: &DecapsHashes<'_>,
        g: &mut [u8; 64],
        kbar: &mut [u8; 32],
        out: &mut S,
    ) {
        hashes.run(g, kbar);
        Self::encrypt::<P, S>(ek, hashes.m, coins(g), out);
    }
}

/// eta of PRF stream `i` of K-PKE.Encrypt: r (eta1), then e1 and e2 (eta2).
pub(crate) fn enc_eta<P: ParameterSet>(i: usize) -> usize {
    if i < P::K { P::ETA1 } else { P::ETA2 }
}

/// The encryption coins r of a G output `K || r`.
#[inline(always)]
pub(crate) fn coins(g: &[u8; 64]) -> &[u8; 32] {
    &g.as_chunks::<32>().0[1]
}

/// Where the ciphertext bytes of K-PKE.Encrypt go.
pub(crate) trait Sink {
    /// Byte `i` of the ciphertext.
    fn put(&mut self, i: usize, b: u8);
    /// The whole ciphertext (`T`: its byte array), written by `f` into the
    /// slice it is given.
    fn whole<T: ByteArray>(&mut self, f: impl FnOnce(&mut [u8]));
}

/// Writes the ciphertext (encapsulation).
pub(crate) struct Write<'a>(pub(crate) &'a mut [u8]);

impl Sink for Write<'_> {
    #[inline(always)]
    fn put(&mut self, i: usize, b: u8) {
        self.0[i] = b;
    }

    #[inline(always)]
    fn whole<T: ByteArray>(&mut self, f: impl FnOnce(&mut [u8])) {
        f(self.0);
    }
}

/// Compares the ciphertext with a received one (decapsulation's
/// re-encryption): byte by byte as it is produced ([`Sink::put`], nothing
/// held), or after materialising it ([`Sink::whole`]).
pub(crate) struct Compare<'a> {
    c: &'a [u8],
    /// OR of the differences; zero iff every byte matched.
    diff: u8,
}

impl<'a> Compare<'a> {
    pub(crate) fn new(c: &'a [u8]) -> Self {
        Self { c, diff: 0 }
    }

    /// 0xFF if every byte matched, else 0.
    pub(crate) fn eq_mask(&self) -> u8 {
        // CT: the difference is turned into a mask, never branched on.
        ct::nonzero_to_mask_u8(core::hint::black_box(self.diff)) ^ 0xFF
    }
}

impl Sink for Compare<'_> {
    #[inline(always)]
    fn put(&mut self, i: usize, b: u8) {
        // CT: accumulated, never branched on.
        self.diff |= self.c[i] ^ b;
    }

    #[inline(always)]
    fn whole<T: ByteArray>(&mut self, f: impl FnOnce(&mut [u8])) {
        let mut c2 = T::zeroed();
        f(c2.as_mut());
        // CT: full-length comparison, accumulated, never branched on.
        for (x, y) in self.c.iter().zip(c2.as_ref()) {
            self.diff |= x ^ y;
        }
        // The re-encryption depends on the secret m': wiped.
        wipe(c2.as_mut());
    }
}
