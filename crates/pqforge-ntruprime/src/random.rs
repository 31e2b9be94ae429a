//! Sources of the random words and bytes the KEM consumes, so that one
//! generic key generation / encapsulation serves every convention:
//!
//! * [`PerWord`]: an rng read four bytes per call (`urandom32` of the
//!   submission's reference code): the official KAT transcripts;
//! * [`PerList`]: an rng read once per list (p words in one 4p-byte call),
//!   the convention of PQClean, liboqs, supercop `factored`, libgcrypt and
//!   OpenSSH since 2026 (its transcripts differ; tests only);
//! * [`ShakeStream`]: SHAKE256 of a 32-byte seed (pqforge's deterministic
//!   key generation);
//! * [`SliceWords`]: caller-given little-endian words (deterministic
//!   encapsulation).
//!
//! Words are little-endian, as `urandom32` assembles them.

use pqforge_core::CryptoRng;
use pqforge_core::keccak::Shake256;
use zeroize::Zeroize;

use crate::params::MAX_P;

/// Where random words and bytes come from.
pub(crate) trait Randomness {
    /// Fills one list of random words (one `Small_random` / `Short_random`
    /// draw).
    fn words(&mut self, out: &mut [u32]);
    /// Fills random bytes (`rho`), one draw.
    fn bytes(&mut self, out: &mut [u8]);
}

/// An rng read four bytes per word (the official KATs).
pub(crate) struct PerWord<'a, R: CryptoRng + ?Sized>(pub(crate) &'a mut R);

impl<R: CryptoRng + ?Sized> Randomness for PerWord<'_, R> {
    fn words(&mut self, out: &mut [u32]) {
        let mut b = [0u8; 4];
        for w in out {
            self.0.fill_bytes(&mut b);
            *w = u32::from_le_bytes(b);
        }
        b.zeroize();
    }

    fn bytes(&mut self, out: &mut [u8]) {
        self.0.fill_bytes(out);
    }
}

/// An rng read once per list of words (PQClean / liboqs convention).
pub(crate) struct PerList<'a, R: CryptoRng + ?Sized>(pub(crate) &'a mut R);

impl<R: CryptoRng + ?Sized> Randomness for PerList<'_, R> {
    #[inline(never)]
    fn words(&mut self, out: &mut [u32]) {
        let mut b = [0u8; 4 * MAX_P];
        let b = &mut b[..4 * out.len()];
        self.0.fill_bytes(b);
        for (w, c) in out.iter_mut().zip(b.chunks_exact(4)) {
            *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        b.zeroize();
    }

    fn bytes(&mut self, out: &mut [u8]) {
        self.0.fill_bytes(out);
    }
}

/// SHAKE256(seed) read as a stream: words four bytes each, little-endian,
/// and bytes, in the order they are asked for.
pub(crate) struct ShakeStream(Shake256);

impl ShakeStream {
    pub(crate) fn new(seed: &[u8]) -> Self {
        let mut s = Shake256::new();
        s.absorb(seed);
        Self(s)
    }
}

impl Randomness for ShakeStream {
    fn words(&mut self, out: &mut [u32]) {
        let mut b = [0u8; 4];
        for w in out {
            self.0.squeeze(&mut b);
            *w = u32::from_le_bytes(b);
        }
        b.zeroize();
    }

    fn bytes(&mut self, out: &mut [u8]) {
        self.0.squeeze(out);
    }
}

/// Caller-given words: 4 bytes each, little-endian, consumed in order
/// (deterministic encapsulation takes exactly one list).
pub(crate) struct SliceWords<'a>(pub(crate) &'a [u8]);

impl Randomness for SliceWords<'_> {
    fn words(&mut self, out: &mut [u32]) {
        let (head, tail) = self.0.split_at(4 * out.len());
        for (w, c) in out.iter_mut().zip(head.chunks_exact(4)) {
            *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        self.0 = tail;
    }

    fn bytes(&mut self, out: &mut [u8]) {
        let (head, tail) = self.0.split_at(out.len());
        out.copy_from_slice(head);
        self.0 = tail;
    }
}
