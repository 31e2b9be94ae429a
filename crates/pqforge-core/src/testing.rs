//! The deterministic generator of the test suites (feature `test-util`;
//! dev-dependencies only). Never a source of keys.

use rand_core::{TryCryptoRng, TryRng};

/// xorshift64* seeded with a test-chosen value: reproducible test inputs.
///
/// ```
/// use pqforge_core::testing::TestRng;
/// let mut r = TestRng::new(7);
/// let a = r.next_u64();
/// assert_eq!(TestRng::new(7).next_u64(), a);
/// ```
#[derive(Clone, Debug)]
pub struct TestRng(u64);

impl TestRng {
    /// A generator seeded with `seed` (any value; 0 is remapped).
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A value below `n` (`n > 0`; slightly biased, fine for tests).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Fills `out` with random bytes.
    pub fn fill(&mut self, out: &mut [u8]) {
        for c in out.chunks_mut(8) {
            let w = self.next_u64().to_le_bytes();
            c.copy_from_slice(&w[..c.len()]);
        }
    }

    /// An array of random bytes.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        self.fill(&mut a);
        a
    }
}

impl TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(TestRng::next_u32(self))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(TestRng::next_u64(self))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.fill(dst);
        Ok(())
    }
}

/// Test inputs only: implementing the marker lets tests pass a `TestRng`
/// where the API asks for a cryptographic generator.
impl TryCryptoRng for TestRng {}
