//! Parameter sets (Classic McEliece round-4 specification, §7), the sealed
//! [`ParameterSet`] trait and the [`Kem`] contract of every set.

use pqforge_core::{
    AlgInfo, CryptoRng, Error, KatRng, Kem, KeyForms, PreparedDk, PreparedEk, Scheme, Status,
};

mod sealed {
    pub trait Sealed {}
}

/// One Classic McEliece parameter set: the code parameters on top of the
/// [`Kem`] contract. Sealed: implemented by the twenty marker types of this
/// crate only.
pub trait ParameterSet: sealed::Sealed + Kem {
    /// Canonical name (`"mceliece348864"`, `"mceliece6960119pcf"`, ...).
    const NAME: &'static str;
    /// Field degree m (GF(2^m)).
    const M: usize;
    /// Code length n.
    const N: usize;
    /// Error weight t (degree of the Goppa polynomial).
    const T: usize;
    /// Semi-systematic form ("f" variants: the last 32 pivots may move
    /// within a window of 64 columns).
    const SEMI: bool;
    /// Plaintext confirmation ("pc" variants: C1 = SHAKE256(2 || e) is
    /// appended to the ciphertext; round-3 construction).
    const PC: bool;
    /// `(e, c)` pairs with `y^t = sum c * y^e` in GF(2^m)\[y\]: the
    /// polynomial defining GF((2^m)^t) for the Goppa polynomial.
    #[doc(hidden)]
    const FPOLY: &'static [(usize, u16)];

    /// Rows of the public matrix, m t.
    const MT: usize = Self::M * Self::T;
    /// Bytes per public-key row, ceil((n - mt) / 8).
    const ROW_BYTES: usize = (Self::N - Self::MT).div_ceil(8);
    /// Public-key bytes.
    const PK_BYTES: usize = Self::MT * Self::ROW_BYTES;
    /// Syndrome (C0) bytes, ceil(mt / 8).
    const SYND_BYTES: usize = Self::MT.div_ceil(8);
    /// Ciphertext bytes (C0, plus the 32-byte C1 for pc variants).
    const CT_BYTES: usize = Self::SYND_BYTES + if Self::PC { 32 } else { 0 };
    /// Benes control-bit bytes, (2m - 1) 2^(m-4).
    const COND_BYTES: usize = (2 * Self::M - 1) << (Self::M - 4);
    /// Secret-key bytes: delta (32) || c (8) || g (2t) || control bits || s (n/8).
    const SK_BYTES: usize = 40 + 2 * Self::T + Self::COND_BYTES + Self::N / 8;
    /// Shared-secret bytes.
    const SS_BYTES: usize = 32;
}

macro_rules! param_sets {
    ($( $(#[$doc:meta])* $ty:ident, $name:literal, m = $m:literal, n = $n:literal,
        t = $t:literal, semi = $semi:literal, pc = $pc:literal, cat = $cat:literal,
        fpoly = $fp:expr, pk = $pk:literal, sk = $sk:literal, ct = $ct:literal; )*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $ty;

        impl sealed::Sealed for $ty {}

        impl ParameterSet for $ty {
            const NAME: &'static str = $name;
            const M: usize = $m;
            const N: usize = $n;
            const T: usize = $t;
            const SEMI: bool = $semi;
            const PC: bool = $pc;
            const FPOLY: &'static [(usize, u16)] = $fp;
        }

        impl Kem for $ty {
            const BACKENDS: pqforge_core::cpu::Backends = crate::backend::BACKENDS;
            const INFO: AlgInfo = AlgInfo::kem($name, "Classic McEliece", $pk, $sk, $ct, 32, $cat)
                .with_status(Status::AtRisk)
                .with_kat(KatRng::NistDrbg, concat!("# kem/", $name))
                .with_revision(if $pc {
                    "round-3 plaintext confirmation (provisional)"
                } else {
                    "Classic McEliece round 4 (2022)"
                })
                .with_c_stem($name)
                .with_feature("mceliece")
                .with_key_forms(KeyForms::EXPANDED)
                .with_seeds(32, 0);

            type EkBytes = [u8; $pk];
            type DkBytes = [u8; $sk];
            type CtBytes = [u8; $ct];
            type SsBytes = [u8; 32];
            type KeygenSeed = [u8; 32];
            type EncapsSeed = [u8; 0];
            type EkState = ();
            type DkState = ();

            // The one public-key check: zero padding bits (6960119 rows).
            fn prepare_ek(ek: &[u8; $pk]) -> Result<(), Error> {
                crate::kem::check_pk_padding::<Self>(ek)
            }

            // The specification defines no private-key check (decoding
            // masks g's coefficients to m bits, as the reference does).
            fn prepare_dk(_dk: &[u8; $sk]) -> Result<(), Error> {
                Ok(())
            }

            fn keygen_derand_into(
                delta: &[u8; 32],
                ek: &mut [u8; $pk],
                dk: &mut [u8; $sk],
            ) -> ((), ()) {
                crate::backend::keygen_derand::<Self>(delta, ek, dk);
                ((), ())
            }

            // keygen_into: the default (one 32-byte draw of delta).

            // The reference's draws: 4t-byte (2t for 8192128) requests
            // until the error vector is valid; no deterministic variant.
            fn encaps_into<R: CryptoRng + ?Sized>(
                ek: PreparedEk<'_, Self>,
                rng: &mut R,
                ct: &mut [u8; $ct],
                ss: &mut [u8; 32],
            ) {
                crate::backend::encaps::<Self, R>(rng, ek.bytes(), ct, ss);
            }

            fn decaps_into(dk: PreparedDk<'_, Self>, ct: &[u8; $ct], ss: &mut [u8; 32]) {
                crate::backend::decaps::<Self>(dk.bytes(), ct, ss);
            }
        }

        const _: () = {
            assert!(<$ty as ParameterSet>::PK_BYTES == $pk);
            assert!(<$ty as ParameterSet>::SK_BYTES == $sk);
            assert!(<$ty as ParameterSet>::CT_BYTES == $ct);
            assert!(crate::keygen::layout_ok::<$ty>());
        };
    )*};
}

/// y^64 + y^3 + y + z (z = x, the generator of GF(2^12)).
const F64: &[(usize, u16)] = &[(3, 1), (1, 1), (0, 2)];
/// y^96 + y^10 + y^9 + y^6 + 1.
const F96: &[(usize, u16)] = &[(10, 1), (9, 1), (6, 1), (0, 1)];
/// y^119 + y^8 + 1.
const F119: &[(usize, u16)] = &[(8, 1), (0, 1)];
/// y^128 + y^7 + y^2 + y + 1.
const F128: &[(usize, u16)] = &[(7, 1), (2, 1), (1, 1), (0, 1)];

param_sets! {
    /// mceliece348864 (m = 12, n = 3488, t = 64), category 1.
    McEliece348864, "mceliece348864", m = 12, n = 3488, t = 64, semi = false, pc = false,
        cat = 1, fpoly = F64, pk = 261120, sk = 6492, ct = 96;
    /// mceliece348864f (semi-systematic key generation), category 1.
    McEliece348864f, "mceliece348864f", m = 12, n = 3488, t = 64, semi = true, pc = false,
        cat = 1, fpoly = F64, pk = 261120, sk = 6492, ct = 96;
    /// mceliece460896 (m = 13, n = 4608, t = 96), category 3.
    McEliece460896, "mceliece460896", m = 13, n = 4608, t = 96, semi = false, pc = false,
        cat = 3, fpoly = F96, pk = 524160, sk = 13608, ct = 156;
    /// mceliece460896f, category 3.
    McEliece460896f, "mceliece460896f", m = 13, n = 4608, t = 96, semi = true, pc = false,
        cat = 3, fpoly = F96, pk = 524160, sk = 13608, ct = 156;
    /// mceliece6688128 (m = 13, n = 6688, t = 128), category 5.
    McEliece6688128, "mceliece6688128", m = 13, n = 6688, t = 128, semi = false, pc = false,
        cat = 5, fpoly = F128, pk = 1044992, sk = 13932, ct = 208;
    /// mceliece6688128f, category 5.
    McEliece6688128f, "mceliece6688128f", m = 13, n = 6688, t = 128, semi = true, pc = false,
        cat = 5, fpoly = F128, pk = 1044992, sk = 13932, ct = 208;
    /// mceliece6960119 (m = 13, n = 6960, t = 119), category 5. Public-key rows
    /// and C0 have unused (padding) bits, which must be zero.
    McEliece6960119, "mceliece6960119", m = 13, n = 6960, t = 119, semi = false, pc = false,
        cat = 5, fpoly = F119, pk = 1047319, sk = 13948, ct = 194;
    /// mceliece6960119f, category 5.
    McEliece6960119f, "mceliece6960119f", m = 13, n = 6960, t = 119, semi = true, pc = false,
        cat = 5, fpoly = F119, pk = 1047319, sk = 13948, ct = 194;
    /// mceliece8192128 (m = 13, n = 8192, t = 128), category 5.
    McEliece8192128, "mceliece8192128", m = 13, n = 8192, t = 128, semi = false, pc = false,
        cat = 5, fpoly = F128, pk = 1357824, sk = 14120, ct = 208;
    /// mceliece8192128f, category 5.
    McEliece8192128f, "mceliece8192128f", m = 13, n = 8192, t = 128, semi = true, pc = false,
        cat = 5, fpoly = F128, pk = 1357824, sk = 14120, ct = 208;
    /// mceliece348864pc: plaintext confirmation (provisional), category 1.
    McEliece348864pc, "mceliece348864pc", m = 12, n = 3488, t = 64, semi = false, pc = true,
        cat = 1, fpoly = F64, pk = 261120, sk = 6492, ct = 128;
    /// mceliece348864pcf (provisional), category 1.
    McEliece348864pcf, "mceliece348864pcf", m = 12, n = 3488, t = 64, semi = true, pc = true,
        cat = 1, fpoly = F64, pk = 261120, sk = 6492, ct = 128;
    /// mceliece460896pc (provisional), category 3.
    McEliece460896pc, "mceliece460896pc", m = 13, n = 4608, t = 96, semi = false, pc = true,
        cat = 3, fpoly = F96, pk = 524160, sk = 13608, ct = 188;
    /// mceliece460896pcf (provisional), category 3.
    McEliece460896pcf, "mceliece460896pcf", m = 13, n = 4608, t = 96, semi = true, pc = true,
        cat = 3, fpoly = F96, pk = 524160, sk = 13608, ct = 188;
    /// mceliece6688128pc (provisional), category 5.
    McEliece6688128pc, "mceliece6688128pc", m = 13, n = 6688, t = 128, semi = false, pc = true,
        cat = 5, fpoly = F128, pk = 1044992, sk = 13932, ct = 240;
    /// mceliece6688128pcf (provisional), category 5.
    McEliece6688128pcf, "mceliece6688128pcf", m = 13, n = 6688, t = 128, semi = true, pc = true,
        cat = 5, fpoly = F128, pk = 1044992, sk = 13932, ct = 240;
    /// mceliece6960119pc (provisional), category 5.
    McEliece6960119pc, "mceliece6960119pc", m = 13, n = 6960, t = 119, semi = false, pc = true,
        cat = 5, fpoly = F119, pk = 1047319, sk = 13948, ct = 226;
    /// mceliece6960119pcf (provisional), category 5.
    McEliece6960119pcf, "mceliece6960119pcf", m = 13, n = 6960, t = 119, semi = true, pc = true,
        cat = 5, fpoly = F119, pk = 1047319, sk = 13948, ct = 226;
    /// mceliece8192128pc (provisional), category 5.
    McEliece8192128pc, "mceliece8192128pc", m = 13, n = 8192, t = 128, semi = false, pc = true,
        cat = 5, fpoly = F128, pk = 1357824, sk = 14120, ct = 240;
    /// mceliece8192128pcf (provisional), category 5.
    McEliece8192128pcf, "mceliece8192128pcf", m = 13, n = 8192, t = 128, semi = true, pc = true,
        cat = 5, fpoly = F128, pk = 1357824, sk = 14120, ct = 240;
}

/// The dynamic handles of the twenty sets, in registry order: the ten
/// round-4 sets, then the ten `pc` / `pcf` sets.
pub const SCHEMES: [Scheme; 20] = [
    Scheme::kem::<McEliece348864>(),
    Scheme::kem::<McEliece348864f>(),
    Scheme::kem::<McEliece460896>(),
    Scheme::kem::<McEliece460896f>(),
    Scheme::kem::<McEliece6688128>(),
    Scheme::kem::<McEliece6688128f>(),
    Scheme::kem::<McEliece6960119>(),
    Scheme::kem::<McEliece6960119f>(),
    Scheme::kem::<McEliece8192128>(),
    Scheme::kem::<McEliece8192128f>(),
    Scheme::kem::<McEliece348864pc>(),
    Scheme::kem::<McEliece348864pcf>(),
    Scheme::kem::<McEliece460896pc>(),
    Scheme::kem::<McEliece460896pcf>(),
    Scheme::kem::<McEliece6688128pc>(),
    Scheme::kem::<McEliece6688128pcf>(),
    Scheme::kem::<McEliece6960119pc>(),
    Scheme::kem::<McEliece6960119pcf>(),
    Scheme::kem::<McEliece8192128pc>(),
    Scheme::kem::<McEliece8192128pcf>(),
];
