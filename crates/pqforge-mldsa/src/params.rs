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
/// The largest k (rows of A) of the three sets.
pub const MAX_K: usize = 8;
/// The largest ℓ (columns of A) of the three sets.
pub const MAX_L: usize = 7;

/// A vector of polynomials sized for one parameter set (k, ℓ or k · ℓ
/// entries), so that the stack holds what the set needs and no more.
#[doc(hidden)]
pub trait PolyVec: AsRef<[[i32; N]]> + AsMut<[[i32; N]]> {
    /// All zero.
    fn zero() -> Self;
}

impl<const M: usize> PolyVec for [[i32; N]; M] {
    #[inline(always)]
    fn zero() -> Self {
        [[0; N]; M]
    }
}

/// The per-set constants of FIPS 204 Table 1.
pub trait ParameterSet {
    /// ℓ polynomials.
    #[doc(hidden)]
    type VecL: PolyVec;
    /// k polynomials.
    #[doc(hidden)]
    type VecK: PolyVec;
    /// k · ℓ polynomials (Â).
    #[doc(hidden)]
    type Mat: PolyVec;
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
    /// τ, the number of ±1 coefficients of c.
    const TAU: usize;
    /// log2 γ1.
    const GAMMA1_BITS: u32;
    /// γ2 ([`GAMMA2_88`] or [`GAMMA2_32`]).
    const GAMMA2: i32;
    /// ω, the most hint ones.
    const OMEGA: usize;
    /// Bytes of c̃ (λ / 4).
    const CTILDE: usize;
    /// γ1.
    const GAMMA1: i32 = 1 << Self::GAMMA1_BITS;
    /// β = τ η.
    const BETA: i32 = (Self::TAU as i32) * (Self::ETA as i32);
    /// Bits per packed w1 coefficient.
    const W1_BITS: u32 = if Self::GAMMA2 == GAMMA2_88 { 6 } else { 4 };
    /// Signature bytes: c̃ || z || h.
    const SIG_BYTES: usize =
        Self::CTILDE + Self::L * 32 * (Self::GAMMA1_BITS as usize + 1) + Self::OMEGA + Self::K;
    /// Public-key bytes: 32 + 320 k.
    const PK_BYTES: usize = 32 + 320 * Self::K;
    /// Expanded private-key bytes: 128 + 32 η_bits (k + ℓ) + 416 k.
    const SK_BYTES: usize =
        128 + 32 * Self::ETA_BITS as usize * (Self::K + Self::L) + 416 * Self::K;
}

macro_rules! set {
    ($(#[$doc:meta])* $ty:ident, $name:literal, k = $k:literal, l = $l:literal, eta = $eta:literal,
     bits = $bits:literal, tau = $tau:literal, g1 = $g1:literal, g2 = $g2:expr, omega = $om:literal,
     ctilde = $ct:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $ty;
        impl ParameterSet for $ty {
            type VecL = [[i32; N]; $l];
            type VecK = [[i32; N]; $k];
            type Mat = [[i32; N]; $k * $l];
            const NAME: &'static str = $name;
            const K: usize = $k;
            const L: usize = $l;
            const ETA: u32 = $eta;
            const ETA_BITS: u32 = $bits;
            const TAU: usize = $tau;
            const GAMMA1_BITS: u32 = $g1;
            const GAMMA2: i32 = $g2;
            const OMEGA: usize = $om;
            const CTILDE: usize = $ct;
        }
    };
}

set!(
    /// ML-DSA-44 (category 2).
    MlDsa44, "ml-dsa-44", k = 4, l = 4, eta = 2, bits = 3, tau = 39, g1 = 17, g2 = GAMMA2_88,
    omega = 80, ctilde = 32
);
set!(
    /// ML-DSA-65 (category 3).
    MlDsa65, "ml-dsa-65", k = 6, l = 5, eta = 4, bits = 4, tau = 49, g1 = 19, g2 = GAMMA2_32,
    omega = 55, ctilde = 48
);
set!(
    /// ML-DSA-87 (category 5).
    MlDsa87, "ml-dsa-87", k = 8, l = 7, eta = 2, bits = 3, tau = 60, g1 = 19, g2 = GAMMA2_32,
    omega = 75, ctilde = 64
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_of_fips_204() {
        assert_eq!(
            (MlDsa44::PK_BYTES, MlDsa44::SK_BYTES, MlDsa44::SIG_BYTES),
            (1312, 2560, 2420)
        );
        assert_eq!(
            (MlDsa65::PK_BYTES, MlDsa65::SK_BYTES, MlDsa65::SIG_BYTES),
            (1952, 4032, 3309)
        );
        assert_eq!(
            (MlDsa87::PK_BYTES, MlDsa87::SK_BYTES, MlDsa87::SIG_BYTES),
            (2592, 4896, 4627)
        );
        assert_eq!(
            (MlDsa44::BETA, MlDsa65::BETA, MlDsa87::BETA),
            (78, 196, 120)
        );
    }
}
