//! The three parameter sets of FIPS 203 (Table 2) and their byte sizes
//! (Table 3).

use zeroize::Zeroize;

/// A fixed-size byte array (`[u8; N]`), used for keys and ciphertexts so
/// that every size is exact and nothing lives on the heap.
pub trait ByteArray:
    AsRef<[u8]> + AsMut<[u8]> + Copy + Zeroize + Send + Sync + core::fmt::Debug + 'static
{
    /// Length in bytes.
    const LEN: usize;
    /// All zeros.
    fn zeroed() -> Self;
}

impl<const L: usize> ByteArray for [u8; L] {
    const LEN: usize = L;
    fn zeroed() -> Self {
        [0; L]
    }
}

mod sealed {
    pub trait Sealed {}
}

/// An ML-KEM parameter set (sealed: exactly [`MlKem512`], [`MlKem768`] and
/// [`MlKem1024`]).
pub trait ParameterSet:
    sealed::Sealed + Copy + Default + core::fmt::Debug + Send + Sync + 'static
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
    /// Encapsulation key storage.
    type EkBytes: ByteArray;
    /// Decapsulation key storage.
    type DkBytes: ByteArray;
    /// Ciphertext storage.
    type CtBytes: ByteArray;
}

macro_rules! param_set {
    ($(#[$doc:meta])* $name:ident, $fips:literal, k = $k:literal, eta1 = $eta1:literal,
     du = $du:literal, dv = $dv:literal, ek = $ek:literal, dk = $dk:literal, ct = $ct:literal) => {
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
            type EkBytes = [u8; $ek];
            type DkBytes = [u8; $dk];
            type CtBytes = [u8; $ct];
        }

        const _: () = {
            assert!(<$name as ParameterSet>::EK_BYTES == $ek);
            assert!(<$name as ParameterSet>::DK_BYTES == $dk);
            assert!(<$name as ParameterSet>::CT_BYTES == $ct);
        };
    };
}

param_set!(
    /// ML-KEM-512 (FIPS 203, Table 2), security category 1.
    MlKem512, "ML-KEM-512", k = 2, eta1 = 3, du = 10, dv = 4, ek = 800, dk = 1632, ct = 768
);
param_set!(
    /// ML-KEM-768 (FIPS 203, Table 2), security category 3.
    MlKem768, "ML-KEM-768", k = 3, eta1 = 2, du = 10, dv = 4, ek = 1184, dk = 2400, ct = 1088
);
param_set!(
    /// ML-KEM-1024 (FIPS 203, Table 2), security category 5.
    MlKem1024, "ML-KEM-1024", k = 4, eta1 = 2, du = 11, dv = 5, ek = 1568, dk = 3168, ct = 1568
);
