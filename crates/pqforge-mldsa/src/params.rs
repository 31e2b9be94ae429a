//! The constants of FIPS 204 (Table 1) shared by every parameter set.

/// The modulus q = 2^23 - 2^13 + 1.
pub const Q: i32 = 8_380_417;
/// Coefficients per polynomial.
pub const N: usize = 256;
/// Bits dropped from t by Power2Round.
pub const D: u32 = 13;
/// γ2 of ML-DSA-44: (q - 1) / 88.
pub const GAMMA2_88: i32 = (Q - 1) / 88;
/// γ2 of ML-DSA-65 and ML-DSA-87: (q - 1) / 32.
pub const GAMMA2_32: i32 = (Q - 1) / 32;

/// The per-set constants of FIPS 204 Table 1 that key generation needs
/// (work in progress: signing adds τ, γ1, γ2, ω, λ).
pub trait ParameterSet {
    /// Name in the registry.
    const NAME: &'static str;
    /// Rows of A (k).
    const K: usize;
    /// Columns of A (ℓ).
    const L: usize;
    /// η, the bound of s1 and s2.
    const ETA: u32;
    /// Bits per packed s coefficient (bitlen(2η)).
    const ETA_BITS: u32;
    /// Public-key bytes: 32 + 320 k.
    const PK_BYTES: usize = 32 + 320 * Self::K;
    /// Expanded private-key bytes: 128 + 32 η_bits (k + ℓ) + 416 k.
    const SK_BYTES: usize =
        128 + 32 * Self::ETA_BITS as usize * (Self::K + Self::L) + 416 * Self::K;
}

macro_rules! set {
    ($(#[$doc:meta])* $ty:ident, $name:literal, k = $k:literal, l = $l:literal, eta = $eta:literal, bits = $bits:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $ty;
        impl ParameterSet for $ty {
            const NAME: &'static str = $name;
            const K: usize = $k;
            const L: usize = $l;
            const ETA: u32 = $eta;
            const ETA_BITS: u32 = $bits;
        }
    };
}

set!(
    /// ML-DSA-44 (category 2).
    MlDsa44, "ml-dsa-44", k = 4, l = 4, eta = 2, bits = 3
);
set!(
    /// ML-DSA-65 (category 3).
    MlDsa65, "ml-dsa-65", k = 6, l = 5, eta = 4, bits = 4
);
set!(
    /// ML-DSA-87 (category 5).
    MlDsa87, "ml-dsa-87", k = 8, l = 7, eta = 2, bits = 3
);
