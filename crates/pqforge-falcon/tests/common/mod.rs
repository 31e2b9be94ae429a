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

pqforge_core::fill_rng!(impl for FixedRng, |r: &mut FixedRng, dst: &mut [u8]| {
    dst.copy_from_slice(&r.0[r.1..r.1 + dst.len()]);
    r.1 += dst.len();
});
