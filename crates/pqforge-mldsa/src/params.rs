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
