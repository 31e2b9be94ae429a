//! The twelve parameter sets: FrodoKEM-640/976/1344 with AES-128 or
//! SHAKE128 matrix generation, each in the salted ISO/IEC 18033-2 form
//! ([`FrodoKem640Aes`], ...) and the NIST round-3 form ([`EFrodoKem640Aes`],
//! ...). One generic implementation serves all of them through
//! [`ParameterSet`].

/// n̄ = m̄ = 8 for every set.
pub const NBAR: usize = 8;
/// Bytes of `seed_A`.
pub const SEED_A_BYTES: usize = 16;

/// How the public matrix A is expanded from `seed_A`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixGen {
    /// AES-128 in ECB mode on (row, column) blocks, keyed with `seed_A`.
    Aes128,
    /// SHAKE128 on (row ‖ `seed_A`), one call per row.
    Shake128,
}

/// A fixed-size `u16` buffer (matrices held on the stack).
pub trait U16Buf: AsRef<[u16]> + AsMut<[u16]> {
    /// All zeros.
    fn zeroed() -> Self;
}

impl<const L: usize> U16Buf for [u16; L] {
    fn zeroed() -> Self {
        [0; L]
    }
}

mod sealed {
    /// Only this crate's twelve sets implement [`super::ParameterSet`].
    pub trait Sealed {}
}

/// A FrodoKEM parameter set: everything the generic code reads (sealed).
pub trait ParameterSet:
    sealed::Sealed + Copy + Default + core::fmt::Debug + Send + Sync + 'static
{
    /// The LWE dimension n.
    const N: usize;
    /// log2 of the modulus q (15 or 16).
    const LOGQ: usize;
    /// Bits encoded per matrix entry (B = 2, 3 or 4).
    const EXTRACTED_BITS: usize;
    /// `len_sec` (the reference's `CRYPTO_BYTES`): bytes of s, μ, k, pkh
    /// and of the shared secret.
    const LEN_SEC: usize;
    /// Salted ISO variant (true) or NIST round 3 / eFrodoKEM (false).
    const SALTED: bool;
    /// Matrix generation.
    const MATRIX: MatrixGen;
    /// SHAKE256 (976, 1344) or SHAKE128 (640) for the hashes and the
    /// error sampling stream.
    const SHAKE256: bool;
    /// The error distribution's cumulative table (χ), last entry 2^15 - 1.
    const CDF: &'static [u16];

    /// Bytes of `seed_SE`: 2·len_sec salted, len_sec in round 3.
    const SEED_SE_BYTES: usize = if Self::SALTED {
        2 * Self::LEN_SEC
    } else {
        Self::LEN_SEC
    };
    /// Bytes of the salt in the ciphertext (0 in round 3).
    const SALT_BYTES: usize = if Self::SALTED { 2 * Self::LEN_SEC } else { 0 };
    /// Bytes of the packed n × n̄ matrix (`b` in the key, `c1` in the
    /// ciphertext).
    const MAT_BYTES: usize = Self::N * NBAR * Self::LOGQ / 8;
    /// Bytes of the packed n̄ × n̄ matrix `c2`.
    const C2_BYTES: usize = NBAR * NBAR * Self::LOGQ / 8;
    /// Encapsulation key: `seed_A ‖ b`.
    const EK_BYTES: usize = SEED_A_BYTES + Self::MAT_BYTES;
    /// Decapsulation key: `s ‖ ek ‖ Sᵀ ‖ pkh`.
    const DK_BYTES: usize = 2 * Self::LEN_SEC + Self::EK_BYTES + 2 * Self::N * NBAR;
    /// Ciphertext: `c1 ‖ c2 (‖ salt)`.
    const CT_BYTES: usize = Self::MAT_BYTES + Self::C2_BYTES + Self::SALT_BYTES;
    /// Key-generation randomness: `s ‖ seed_SE ‖ z`.
    const KEYGEN_SEED_BYTES: usize = Self::LEN_SEC + Self::SEED_SE_BYTES + SEED_A_BYTES;
    /// Encapsulation randomness: `μ (‖ salt)`.
    const ENCAPS_SEED_BYTES: usize = Self::LEN_SEC + Self::SALT_BYTES;

    /// An n̄ × n matrix.
    type Mat: U16Buf;
    /// Four rows of A (4 × n).
    type Rows: U16Buf;
    /// Eight rows of A (8 × n).
    type Rows8: U16Buf;
}

const CDF_640: [u16; 13] = [
    4643, 13363, 20579, 25843, 29227, 31145, 32103, 32525, 32689, 32745, 32762, 32766, 32767,
];
const CDF_976: [u16; 11] = [
    5638, 15915, 23689, 28571, 31116, 32217, 32613, 32731, 32760, 32766, 32767,
];
const CDF_1344: [u16; 7] = [9142, 23462, 30338, 32361, 32725, 32765, 32767];

macro_rules! set {
    ($(#[$doc:meta])* $ty:ident, $n:literal, $logq:literal, $b:literal, $sec:literal,
     $salted:literal, $gen:ident, $s256:literal, $cdf:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $ty;

        impl sealed::Sealed for $ty {}

        impl ParameterSet for $ty {
            const N: usize = $n;
            const LOGQ: usize = $logq;
            const EXTRACTED_BITS: usize = $b;
            const LEN_SEC: usize = $sec;
            const SALTED: bool = $salted;
            const MATRIX: MatrixGen = MatrixGen::$gen;
            const SHAKE256: bool = $s256;
            const CDF: &'static [u16] = &$cdf;
            type Mat = [u16; NBAR * $n];
            type Rows = [u16; 4 * $n];
            type Rows8 = [u16; 8 * $n];
        }
    };
}

set!(
    /// FrodoKEM-640-AES (salted, ISO/IEC 18033-2), NIST category 1.
    FrodoKem640Aes, 640, 15, 2, 16, true, Aes128, false, CDF_640
);
set!(
    /// FrodoKEM-640-SHAKE (salted, ISO/IEC 18033-2), NIST category 1.
    FrodoKem640Shake, 640, 15, 2, 16, true, Shake128, false, CDF_640
);
set!(
    /// FrodoKEM-976-AES (salted, ISO/IEC 18033-2), NIST category 3.
    FrodoKem976Aes, 976, 16, 3, 24, true, Aes128, true, CDF_976
);
set!(
    /// FrodoKEM-976-SHAKE (salted, ISO/IEC 18033-2), NIST category 3.
    FrodoKem976Shake, 976, 16, 3, 24, true, Shake128, true, CDF_976
);
set!(
    /// FrodoKEM-1344-AES (salted, ISO/IEC 18033-2), NIST category 5.
    FrodoKem1344Aes, 1344, 16, 4, 32, true, Aes128, true, CDF_1344
);
set!(
    /// FrodoKEM-1344-SHAKE (salted, ISO/IEC 18033-2), NIST category 5.
    FrodoKem1344Shake, 1344, 16, 4, 32, true, Shake128, true, CDF_1344
);
set!(
    /// eFrodoKEM-640-AES (NIST round 3 FrodoKEM, ephemeral use), category 1.
    EFrodoKem640Aes, 640, 15, 2, 16, false, Aes128, false, CDF_640
);
set!(
    /// eFrodoKEM-640-SHAKE (NIST round 3 FrodoKEM, ephemeral use), category 1.
    EFrodoKem640Shake, 640, 15, 2, 16, false, Shake128, false, CDF_640
);
set!(
    /// eFrodoKEM-976-AES (NIST round 3 FrodoKEM, ephemeral use), category 3.
    EFrodoKem976Aes, 976, 16, 3, 24, false, Aes128, true, CDF_976
);
set!(
    /// eFrodoKEM-976-SHAKE (NIST round 3 FrodoKEM, ephemeral use), category 3.
    EFrodoKem976Shake, 976, 16, 3, 24, false, Shake128, true, CDF_976
);
set!(
    /// eFrodoKEM-1344-AES (NIST round 3 FrodoKEM, ephemeral use), category 5.
    EFrodoKem1344Aes, 1344, 16, 4, 32, false, Aes128, true, CDF_1344
);
set!(
    /// eFrodoKEM-1344-SHAKE (NIST round 3 FrodoKEM, ephemeral use), category 5.
    EFrodoKem1344Shake, 1344, 16, 4, 32, false, Shake128, true, CDF_1344
);

#[cfg(test)]
impl FrodoKem640Aes {
    pub(crate) const CDF_FOR_TEST: &'static [u16] = &CDF_640;
}
