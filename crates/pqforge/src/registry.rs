//! The registry: every parameter set this build contains.

use core::fmt;
use core::str::FromStr;

use pqforge_core::{AlgInfo, DynKem, DynSig};

/// A registered parameter set, dynamically typed.
#[derive(Clone, Copy)]
pub enum Scheme {
    /// A KEM.
    Kem(&'static dyn DynKem),
    /// A signature scheme.
    Sig(&'static dyn DynSig),
}

impl Scheme {
    /// Name, sizes, category, status.
    #[must_use]
    pub fn info(&self) -> &'static AlgInfo {
        match self {
            Scheme::Kem(k) => k.info(),
            Scheme::Sig(s) => s.info(),
        }
    }

    /// Byte ranges of the encoded secret key that are public.
    #[must_use]
    pub fn sk_public_ranges(&self) -> &'static [core::ops::Range<usize>] {
        match self {
            Scheme::Kem(k) => k.sk_public_ranges(),
            Scheme::Sig(s) => s.sk_public_ranges(),
        }
    }
}

impl fmt::Debug for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().name)
    }
}

macro_rules! algorithms {
    ($( $(#[$doc:meta])* $variant:ident, $feat:literal, $scheme:expr; )*) => {
        /// Every parameter set of this build, by canonical name.
        ///
        /// Parse with [`str::parse`] (case-insensitive); [`Algorithm::ALL`]
        /// lists them in registry order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Algorithm {
            $( $(#[$doc])* #[cfg(feature = $feat)] $variant, )*
        }

        impl Algorithm {
            /// All parameter sets in this build, in registry order.
            pub const ALL: &'static [Algorithm] = &[
                $( #[cfg(feature = $feat)] Algorithm::$variant, )*
            ];

            /// The dynamic implementation.
            #[must_use]
            pub fn scheme(self) -> Scheme {
                match self {
                    $( #[cfg(feature = $feat)] Algorithm::$variant => $scheme, )*
                }
            }
        }
    };
}

algorithms! {
    /// HQC-1, reference `next-release` 161cd4f.
    Hqc1, "hqc", Scheme::Kem(&pqforge_hqc::HQC_1);
    /// HQC-3, reference `next-release` 161cd4f.
    Hqc3, "hqc", Scheme::Kem(&pqforge_hqc::HQC_3);
    /// HQC-5, reference `next-release` 161cd4f.
    Hqc5, "hqc", Scheme::Kem(&pqforge_hqc::HQC_5);
    /// HQC-1, tagged reference v5.0.0.
    Hqc1V5, "hqc", Scheme::Kem(&pqforge_hqc::HQC_1_V5);
    /// HQC-3, tagged reference v5.0.0.
    Hqc3V5, "hqc", Scheme::Kem(&pqforge_hqc::HQC_3_V5);
    /// HQC-5, tagged reference v5.0.0.
    Hqc5V5, "hqc", Scheme::Kem(&pqforge_hqc::HQC_5_V5);
    /// ML-KEM-512 (FIPS 203).
    MlKem512, "mlkem", Scheme::Kem(&pqforge_mlkem::ML_KEM_512);
    /// ML-KEM-768 (FIPS 203).
    MlKem768, "mlkem", Scheme::Kem(&pqforge_mlkem::ML_KEM_768);
    /// ML-KEM-1024 (FIPS 203).
    MlKem1024, "mlkem", Scheme::Kem(&pqforge_mlkem::ML_KEM_1024);
    /// Classic McEliece mceliece348864 (round 4; at risk).
    McEliece348864, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE348864);
    /// Classic McEliece mceliece348864f (round 4; at risk).
    McEliece348864f, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE348864F);
    /// Classic McEliece mceliece460896 (round 4; at risk).
    McEliece460896, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE460896);
    /// Classic McEliece mceliece460896f (round 4; at risk).
    McEliece460896f, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE460896F);
    /// Classic McEliece mceliece6688128 (round 4; at risk).
    McEliece6688128, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE6688128);
    /// Classic McEliece mceliece6688128f (round 4; at risk).
    McEliece6688128f, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE6688128F);
    /// Classic McEliece mceliece6960119 (round 4; at risk).
    McEliece6960119, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE6960119);
    /// Classic McEliece mceliece6960119f (round 4; at risk).
    McEliece6960119f, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE6960119F);
    /// Classic McEliece mceliece8192128 (round 4; at risk).
    McEliece8192128, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE8192128);
    /// Classic McEliece mceliece8192128f (round 4; at risk).
    McEliece8192128f, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE8192128F);
    /// Classic McEliece mceliece348864pc (plaintext confirmation, provisional; at risk).
    McEliece348864Pc, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE348864PC);
    /// Classic McEliece mceliece348864pcf (plaintext confirmation, provisional; at risk).
    McEliece348864Pcf, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE348864PCF);
    /// Classic McEliece mceliece460896pc (plaintext confirmation, provisional; at risk).
    McEliece460896Pc, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE460896PC);
    /// Classic McEliece mceliece460896pcf (plaintext confirmation, provisional; at risk).
    McEliece460896Pcf, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE460896PCF);
    /// Classic McEliece mceliece6688128pc (plaintext confirmation, provisional; at risk).
    McEliece6688128Pc, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE6688128PC);
    /// Classic McEliece mceliece6688128pcf (plaintext confirmation, provisional; at risk).
    McEliece6688128Pcf, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE6688128PCF);
    /// Classic McEliece mceliece6960119pc (plaintext confirmation, provisional; at risk).
    McEliece6960119Pc, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE6960119PC);
    /// Classic McEliece mceliece6960119pcf (plaintext confirmation, provisional; at risk).
    McEliece6960119Pcf, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE6960119PCF);
    /// Classic McEliece mceliece8192128pc (plaintext confirmation, provisional; at risk).
    McEliece8192128Pc, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE8192128PC);
    /// Classic McEliece mceliece8192128pcf (plaintext confirmation, provisional; at risk).
    McEliece8192128Pcf, "mceliece", Scheme::Kem(&pqforge_mceliece::MCELIECE8192128PCF);
    /// Falcon-512, round 3 (v1.2), compressed signatures.
    Falcon512, "falcon", Scheme::Sig(&pqforge_falcon::FALCON_512);
    /// Falcon-1024, round 3 (v1.2), compressed signatures.
    Falcon1024, "falcon", Scheme::Sig(&pqforge_falcon::FALCON_1024);
    /// Falcon-512, round 3 (v1.2), signatures padded to 666 bytes.
    FalconPadded512, "falcon", Scheme::Sig(&pqforge_falcon::FALCON_PADDED_512);
    /// Falcon-1024, round 3 (v1.2), signatures padded to 1280 bytes.
    FalconPadded1024, "falcon", Scheme::Sig(&pqforge_falcon::FALCON_PADDED_1024);
    /// FN-DSA-512, putative 2026-07 draft (status draft).
    FnDsa512, "fndsa", Scheme::Sig(&pqforge_falcon::FN_DSA_512);
    /// FN-DSA-1024, putative 2026-07 draft (status draft).
    FnDsa1024, "fndsa", Scheme::Sig(&pqforge_falcon::FN_DSA_1024);
}

impl Algorithm {
    /// Canonical name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.scheme().info().name
    }

    /// Metadata.
    #[must_use]
    pub fn info(self) -> &'static AlgInfo {
        self.scheme().info()
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name matched no parameter set of this build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseAlgorithmError;

impl fmt::Display for ParseAlgorithmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown algorithm (see `pqforge list`)")
    }
}

impl core::error::Error for ParseAlgorithmError {}

impl FromStr for Algorithm {
    type Err = ParseAlgorithmError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name().eq_ignore_ascii_case(s.trim()))
            .ok_or(ParseAlgorithmError)
    }
}
