//! The two KAT generators.

use crate::aes::Aes256;
use crate::keccak::Shake256;

/// NIST `PQCgenKAT` AES-256-CTR DRBG (`rng.c`: no derivation function, no
/// personalisation string, reseed counter ignored).
///
/// `randombytes(n)` produces `ceil(n/16)` counter blocks and then updates
/// the key and counter, so the output depends on how the caller splits its
/// requests — exactly like the C original, which KATs rely on.
///
/// ```
/// use pqforge_core::kat::{NistDrbg, KAT_ENTROPY};
/// let mut g = NistDrbg::new(&KAT_ENTROPY);
/// let mut seed0 = [0u8; 48];
/// g.fill(&mut seed0);
/// assert_eq!(&seed0[..4], &[0x06, 0x15, 0x50, 0x23]);
/// ```
#[derive(Clone)]
pub struct NistDrbg {
    key: [u8; 32],
    v: [u8; 16],
}

fn increment(v: &mut [u8; 16]) {
    for b in v.iter_mut().rev() {
        let (n, carry) = b.overflowing_add(1);
        *b = n;
        if !carry {
            break;
        }
    }
}

impl NistDrbg {
    /// `randombytes_init(entropy, NULL, 256)`.
    #[must_use]
    pub fn new(entropy: &[u8; 48]) -> Self {
        let mut g = Self {
            key: [0; 32],
            v: [0; 16],
        };
        g.update(Some(entropy));
        g
    }

    fn update(&mut self, provided: Option<&[u8; 48]>) {
        let aes = Aes256::new(&self.key);
        let mut temp = [0u8; 48];
        for chunk in temp.chunks_exact_mut(16) {
            increment(&mut self.v);
            let mut block = self.v;
            aes.encrypt(&mut block);
            chunk.copy_from_slice(&block);
        }
        if let Some(p) = provided {
            for (t, x) in temp.iter_mut().zip(p) {
                *t ^= x;
            }
        }
        self.key.copy_from_slice(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
    }

    /// `randombytes(out, out.len())`.
    pub fn fill(&mut self, out: &mut [u8]) {
        let aes = Aes256::new(&self.key);
        for chunk in out.chunks_mut(16) {
            increment(&mut self.v);
            let mut block = self.v;
            aes.encrypt(&mut block);
            chunk.copy_from_slice(&block[..chunk.len()]);
        }
        self.update(None);
    }
}

/// HQC's KAT generator: `SHAKE256(seed || 0x00)`, read sequentially
/// (see `../shared/kat/hqc/PROVENANCE.md`).
///
/// ```
/// use pqforge_core::kat::{HqcPrng, KAT_ENTROPY};
/// let mut g = HqcPrng::new(&KAT_ENTROPY);
/// let mut seed0 = [0u8; 48];
/// g.fill(&mut seed0);
/// assert_eq!(&seed0[..4], &[0x9E, 0xF8, 0x77, 0xFD]);
/// ```
#[derive(Clone)]
pub struct HqcPrng {
    xof: Shake256,
}

impl HqcPrng {
    /// Domain byte appended to the seed.
    pub const DOMAIN: u8 = 0x00;

    /// Starts the generator on `seed`.
    #[must_use]
    pub fn new(seed: &[u8]) -> Self {
        let mut xof = Shake256::new();
        xof.absorb(seed);
        xof.absorb(&[Self::DOMAIN]);
        Self { xof }
    }

    /// Next `out.len()` bytes.
    pub fn fill(&mut self, out: &mut [u8]) {
        self.xof.squeeze(out);
    }
}
