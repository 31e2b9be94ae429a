//! The generator behind the speed and stack runs.
//!
//! SplitMix64 (Steele, Lea, Flood 2014): a few instructions per 8 bytes, so
//! the counts measure the scheme, not the random source (pqm4 likewise uses a
//! cheap `randombytes` on boards). Deterministic from its seed and **not
//! cryptographically secure**; the functional test and the transcripts use
//! the KAT generators instead.

use core::convert::Infallible;

use rand_core::{TryCryptoRng, TryRng};

/// SplitMix64 stream.
pub struct BenchRng(u64);

impl BenchRng {
    /// Stream number `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x7066_6d34_2d68_6172)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl TryRng for BenchRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next() as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

// Only for benchmarks: the trait is required by the scheme API.
impl TryCryptoRng for BenchRng {}
