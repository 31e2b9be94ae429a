//! Known-answer-test machinery.
//!
//! * [`NistDrbg`]: the AES-256-CTR DRBG of NIST's `PQCgenKAT` (`rng.c`), used
//!   by the Classic McEliece, Falcon and most round-3 KAT files.
//! * [`HqcPrng`]: HQC's SHAKE256-based KAT generator.
//! * [`standard_seeds`]: the 100 seeds of the standard `.req` for either.
//! * With `alloc`: [`rsp`] parses and writes NIST `.req`/`.rsp` files.
//!
//! These generators are for reproducing test vectors only. They are
//! deterministic by design; never use them as a source of real keys.

mod drbg;
#[cfg(feature = "alloc")]
pub mod rsp;

pub use drbg::{HqcPrng, NistDrbg};

use crate::KatRng;

/// The entropy input both KAT generators start from: bytes 0x00..=0x2F.
pub const KAT_ENTROPY: [u8; 48] = {
    let mut e = [0u8; 48];
    let mut i = 0;
    while i < 48 {
        e[i] = i as u8;
        i += 1;
    }
    e
};

/// The first `n` standard 48-byte KAT seeds of a generator (`n = 100` for
/// the standard `.req` files).
pub fn standard_seeds(kind: KatRng, out: &mut [[u8; 48]]) {
    match kind {
        KatRng::HqcShake256 => {
            let mut g = HqcPrng::new(&KAT_ENTROPY);
            for s in out {
                g.fill(s);
            }
        }
        KatRng::NistDrbg | KatRng::None => {
            let mut g = NistDrbg::new(&KAT_ENTROPY);
            for s in out {
                g.fill(s);
            }
        }
    }
}

/// A per-record KAT random source: the scheme's generator initialised with
/// one 48-byte seed.
pub enum KatSource {
    /// NIST DRBG.
    Nist(NistDrbg),
    /// HQC SHAKE256 generator.
    Hqc(HqcPrng),
}

impl KatSource {
    /// The generator of `kind`, seeded with `seed` as the KAT driver does for
    /// each record.
    #[must_use]
    pub fn new(kind: KatRng, seed: &[u8; 48]) -> Self {
        match kind {
            KatRng::HqcShake256 => KatSource::Hqc(HqcPrng::new(seed)),
            KatRng::NistDrbg | KatRng::None => KatSource::Nist(NistDrbg::new(seed)),
        }
    }
}

crate::fill_rng!(impl for KatSource, |s: &mut KatSource, dst: &mut [u8]| match s {
    KatSource::Nist(g) => g.fill(dst),
    KatSource::Hqc(g) => g.fill(dst),
});

/// Where the official test data lives: `$PQFORGE_DATA`, else `../shared`
/// beside the workspace root. Returns `None` when the directory is missing.
///
/// # Panics
/// When the data is missing and `CI=true`: a CI run must fail, not skip.
#[cfg(feature = "std")]
#[must_use]
pub fn data_dir() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("PQFORGE_DATA").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        std::path::PathBuf::from,
    );
    if dir.is_dir() {
        Some(dir)
    } else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "test data missing at {} (CI=true: failing instead of skipping)",
            dir.display()
        );
        None
    }
}
