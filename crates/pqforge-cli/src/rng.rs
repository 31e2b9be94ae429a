//! The CLI's random source: ChaCha20 seeded from the operating system.

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

/// A fresh OS-seeded ChaCha20 generator.
pub fn os_seeded() -> ChaCha20Rng {
    let mut seed = [0u8; 32];
    if getrandom::fill(&mut seed).is_err() {
        eprintln!("pqforge: the operating system's random source failed");
        std::process::exit(2);
    }
    let rng = ChaCha20Rng::from_seed(seed);
    zeroize::Zeroize::zeroize(&mut seed);
    rng
}
