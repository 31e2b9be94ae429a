//! The three parameter sets of FIPS 203 (Table 2) and their byte sizes
//! (Table 3).

use pqforge_core::Kem;

mod sealed {
    pub trait Sealed {}
}

/// An ML-KEM parameter set (sealed: exactly [`MlKem512`], [`MlKem768`] and
/// [`MlKem1024`]): the constants of FIPS 203 Table 2. The byte arrays
/// (`EkBytes`, `DkBytes`, `CtBytes`) are those of the [`Kem`] contract each
/// set implements; the types every set shares are fixed here, so generic
/// code over `P: ParameterSet` can use them as arrays: the 32-byte shared
/// secret, the 64-byte key-generation seed d || z, the 32-byte
/// encapsulation randomness m, and the state of a prepared encapsulation
/// key, H(ek).
pub trait ParameterSet:
    sealed::Sealed
    + Kem<
        SsBytes = [u8; 32],
        KeygenSeed = [u8; 64],
        EncapsSeed = [u8; 32],
        EkState = [u8; 32],
        DkState = (),
    >
{
    /// Name as in FIPS 203.
    const NAME: &'static str;
    /// Module rank k.
    const K: usize;
    /// eta_1 (secret and keygen error distribution).
    const ETA1: usize;
    /// eta_2 (encryption error distribution).
    const ETA2: usize = 2;
    /// d_u (compression of u).
    const DU: u32;
    /// d_v (compression of v).
    const DV: u32;
    /// Encapsulation-key bytes, 384k + 32.
    const EK_BYTES: usize = 384 * Self::K + 32;
    /// Decapsulation-key bytes, 768k + 96.
    const DK_BYTES: usize = 768 * Self::K + 96;
    /// Ciphertext bytes, 32 (d_u k + d_v).
    const CT_BYTES: usize = 32 * (Self::DU as usize * Self::K + Self::DV as usize);
}

macro_rules! param_set {
    ($(#[$doc:meta])* $name:ident, $fips:literal, k = $k:literal, eta1 = $eta1:literal,
     du = $du:literal, dv = $dv:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl sealed::Sealed for $name {}

        impl ParameterSet for $name {
            const NAME: &'static str = $fips;
            const K: usize = $k;
            const ETA1: usize = $eta1;
            const DU: u32 = $du;
            const DV: u32 = $dv;
        }
    };
}

param_set!(
    /// ML-KEM-512 (FIPS 203, Table 2), security category 1.
    MlKem512, "ML-KEM-512", k = 2, eta1 = 3, du = 10, dv = 4
);
param_set!(
    /// ML-KEM-768 (FIPS 203, Table 2), security category 3.
    MlKem768, "ML-KEM-768", k = 3, eta1 = 2, du = 10, dv = 4
);
param_set!(
    /// ML-KEM-1024 (FIPS 203, Table 2), security category 5.
    MlKem1024, "ML-KEM-1024", k = 4, eta1 = 2, du = 11, dv = 5
);
