//! Shared by the integration tests: a generator that replays given bytes.
#![allow(dead_code)]

/// Replays fixed bytes, to feed a signing or key-generation call exactly
/// the randomness of a vector (`TestRng` makes random inputs; this makes
/// given ones). Panics when asked for more than it holds, so it also
/// checks how much an operation draws.
pub struct FixedRng(pub Vec<u8>, pub usize);

impl FixedRng {
    /// A generator that will output `bytes`, then nothing.
    pub fn new(bytes: &[u8]) -> Self {
        Self(bytes.to_vec(), 0)
    }

    /// Whether every byte was drawn.
    pub fn exhausted(&self) -> bool {
        self.1 == self.0.len()
    }
}

impl rand_core::TryRng for FixedRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        unimplemented!()
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        unimplemented!()
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.copy_from_slice(&self.0[self.1..self.1 + dst.len()]);
        self.1 += dst.len();
        Ok(())
    }
}

impl rand_core::TryCryptoRng for FixedRng {}
