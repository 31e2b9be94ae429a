//! The KEM contract of `pqforge-core` ([`Kem`]) for the twelve parameter
//! sets: names and metadata, the key checks, and the operations, each
//! handed whole to the backend dispatch ([`backend::run`]: one CPU check
//! per call). The randomness draws are the core defaults: one `fill_bytes`
//! of `s ‖ seed_SE ‖ z` for key generation and one of `μ (‖ salt)` for
//! encapsulation, exactly the reference implementation's `randombytes`
//! calls.

use core::marker::PhantomData;
use core::ops::Range;

use pqforge_core::{
    AlgInfo, Error, KatRng, Kem, KeyForms, PreparedDk, PreparedEk, Status, ctgrind,
};

use crate::backend::{self, Operation};
use crate::kem::{self, Backend};
use crate::matrix::shake;
use crate::params::{
    EFrodoKem640Aes, EFrodoKem640Shake, EFrodoKem976Aes, EFrodoKem976Shake, EFrodoKem1344Aes,
    EFrodoKem1344Shake, FrodoKem640Aes, FrodoKem640Shake, FrodoKem976Aes, FrodoKem976Shake,
    FrodoKem1344Aes, FrodoKem1344Shake, NBAR, ParameterSet,
};

const REV_SALTED: &str = "microsoft/PQCrypto-LWEKE 7a4e7219 FrodoKEM/ (salted, ISO/IEC 18033-2 Amd 2; liboqs >= 0.9 FrodoKEM)";
const REV_ROUND3: &str =
    "microsoft/PQCrypto-LWEKE 7a4e7219 eFrodoKEM/ (NIST round 3 FrodoKEM, unchanged since 2019)";

/// Implements [`Kem`] for one parameter set.
macro_rules! kem_impl {
    ($ty:ident, $name:literal, $stem:literal, $header:literal, $cat:literal, $rev:expr) => {
        impl Kem for $ty {
            const BACKENDS: pqforge_core::cpu::Backends = crate::backend::BACKENDS;
            const INFO: AlgInfo = AlgInfo::kem(
                $name,
                "FrodoKEM",
                <$ty as ParameterSet>::EK_BYTES,
                <$ty as ParameterSet>::DK_BYTES,
                <$ty as ParameterSet>::CT_BYTES,
                <$ty as ParameterSet>::LEN_SEC,
                $cat,
            )
            .with_status(Status::Standard)
            .with_kat(KatRng::NistDrbg, $header)
            .with_revision($rev)
            .with_c_stem($stem)
            .with_feature("frodokem")
            .with_seeds(
                <$ty as ParameterSet>::KEYGEN_SEED_BYTES,
                <$ty as ParameterSet>::ENCAPS_SEED_BYTES,
            )
            .with_key_forms(KeyForms::EXPANDED);
            // s ‖ ek ‖ Sᵀ ‖ pkh: ek and pkh are public.
            const DK_PUBLIC: &'static [Range<usize>] = &[
                <$ty as ParameterSet>::LEN_SEC
                    ..<$ty as ParameterSet>::LEN_SEC + <$ty as ParameterSet>::EK_BYTES,
                <$ty as ParameterSet>::DK_BYTES - <$ty as ParameterSet>::LEN_SEC
                    ..<$ty as ParameterSet>::DK_BYTES,
            ];
            const DK_EK_OFFSET: Option<usize> = Some(<$ty as ParameterSet>::LEN_SEC);

            type EkBytes = [u8; <$ty as ParameterSet>::EK_BYTES];
            type DkBytes = [u8; <$ty as ParameterSet>::DK_BYTES];
            type CtBytes = [u8; <$ty as ParameterSet>::CT_BYTES];
            type SsBytes = [u8; <$ty as ParameterSet>::LEN_SEC];
            type KeygenSeed = [u8; <$ty as ParameterSet>::KEYGEN_SEED_BYTES];
            type EncapsSeed = [u8; <$ty as ParameterSet>::ENCAPS_SEED_BYTES];
            type EkState = Pkh;
            type DkState = ();

            fn prepare_ek(ek: &Self::EkBytes) -> Result<Pkh, Error> {
                // Every byte string of this length is a canonical key; its
                // hash pkh, which every encapsulation needs, is the state.
                Ok(Pkh::of::<Self>(ek))
            }

            fn prepare_dk(dk: &Self::DkBytes) -> Result<(), Error> {
                prepare_dk::<Self>(dk)
            }

            fn keygen_derand_into(
                seed: &Self::KeygenSeed,
                ek: &mut Self::EkBytes,
                dk: &mut Self::DkBytes,
            ) -> (Pkh, ()) {
                backend::run(Keygen::<Self> {
                    seed,
                    ek,
                    dk,
                    p: PhantomData,
                });
                (Pkh::from_dk::<Self>(dk), ())
            }

            fn encaps_derand_into(
                ek: PreparedEk<'_, Self>,
                m: &Self::EncapsSeed,
                ct: &mut Self::CtBytes,
                ss: &mut Self::SsBytes,
            ) -> Result<(), Error> {
                backend::run(Encaps::<Self> {
                    ek: ek.bytes(),
                    pkh: ek.state().as_slice::<Self>(),
                    m,
                    ct,
                    ss,
                    p: PhantomData,
                });
                Ok(())
            }

            fn decaps_into(dk: PreparedDk<'_, Self>, ct: &Self::CtBytes, ss: &mut Self::SsBytes) {
                backend::run(Decaps::<Self> {
                    dk: dk.bytes(),
                    ct,
                    ss,
                    p: PhantomData,
                });
            }
        }
    };
}

kem_impl!(
    FrodoKem640Aes,
    "frodokem-640-aes",
    "frodokem640aes",
    "# FrodoKEM-640-AES",
    1,
    REV_SALTED
);
kem_impl!(
    FrodoKem640Shake,
    "frodokem-640-shake",
    "frodokem640shake",
    "# FrodoKEM-640-SHAKE",
    1,
    REV_SALTED
);
kem_impl!(
    FrodoKem976Aes,
    "frodokem-976-aes",
    "frodokem976aes",
    "# FrodoKEM-976-AES",
    3,
    REV_SALTED
);
kem_impl!(
    FrodoKem976Shake,
    "frodokem-976-shake",
    "frodokem976shake",
    "# FrodoKEM-976-SHAKE",
    3,
    REV_SALTED
);
kem_impl!(
    FrodoKem1344Aes,
    "frodokem-1344-aes",
    "frodokem1344aes",
    "# FrodoKEM-1344-AES",
    5,
    REV_SALTED
);
kem_impl!(
    FrodoKem1344Shake,
    "frodokem-1344-shake",
    "frodokem1344shake",
    "# FrodoKEM-1344-SHAKE",
    5,
    REV_SALTED
);
kem_impl!(
    EFrodoKem640Aes,
    "efrodokem-640-aes",
    "efrodokem640aes",
    "# FrodoKEM-640-AES",
    1,
    REV_ROUND3
);
kem_impl!(
    EFrodoKem640Shake,
    "efrodokem-640-shake",
    "efrodokem640shake",
    "# FrodoKEM-640-SHAKE",
    1,
    REV_ROUND3
);
kem_impl!(
    EFrodoKem976Aes,
    "efrodokem-976-aes",
    "efrodokem976aes",
    "# FrodoKEM-976-AES",
    3,
    REV_ROUND3
);
kem_impl!(
    EFrodoKem976Shake,
    "efrodokem-976-shake",
    "efrodokem976shake",
    "# FrodoKEM-976-SHAKE",
    3,
    REV_ROUND3
);
kem_impl!(
    EFrodoKem1344Aes,
    "efrodokem-1344-aes",
    "efrodokem1344aes",
    "# FrodoKEM-1344-AES",
    5,
    REV_ROUND3
);
kem_impl!(
    EFrodoKem1344Shake,
    "efrodokem-1344-shake",
    "efrodokem1344shake",
    "# FrodoKEM-1344-SHAKE",
    5,
    REV_ROUND3
);

/// `Kem::prepare_dk`: the stored `pkh` must be H(ek) of the embedded key,
/// and every entry of Sᵀ must lie in the support of χ (checked in constant
/// time; only the verdict is made public).
fn prepare_dk<P: ParameterSet>(dk: &[u8]) -> Result<(), Error> {
    let sec = P::LEN_SEC;
    let ek = &dk[sec..sec + P::EK_BYTES];
    let st_off = sec + P::EK_BYTES;
    let st = &dk[st_off..st_off + 2 * P::N * NBAR];
    let pkh = &dk[P::DK_BYTES - sec..];
    let mut h = [0u8; 32];
    shake::<P>(&[ek], &mut h[..sec]);
    if h[..sec] != *pkh {
        return Err(Error::InvalidKey(
            "decapsulation key: pkh is not the hash of the embedded public key",
        ));
    }
    // Declassified: whether the key is well formed is public.
    if ctgrind::declassify_val(kem::check_st::<P>(st)) != u32::MAX {
        return Err(Error::Encoding(
            "decapsulation key: an entry of S is outside the error distribution's support",
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The operations the dispatch runs (also used by `crate::testing`).

/// Deterministic key generation from `s ‖ seed_SE ‖ z`.
pub(crate) struct Keygen<'a, P> {
    pub(crate) seed: &'a [u8],
    pub(crate) ek: &'a mut [u8],
    pub(crate) dk: &'a mut [u8],
    pub(crate) p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for Keygen<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::keygen::<P, B>(self.seed, self.ek, self.dk);
    }
}

/// The encapsulation-key state: `pkh = SHAKE(ek)` (`len_sec` bytes), computed
/// once when the key is checked, not hashed again (up to 21.5 KB) on every
/// encapsulation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pkh([u8; 32]);

impl Pkh {
    /// The hash of `ek`.
    pub(crate) fn of<P: ParameterSet>(ek: &[u8]) -> Self {
        let mut h = [0u8; 32];
        shake::<P>(&[ek], &mut h[..P::LEN_SEC]);
        Self(h)
    }

    /// The stored hash at the end of a decapsulation key.
    pub(crate) fn from_dk<P: ParameterSet>(dk: &[u8]) -> Self {
        let mut h = [0u8; 32];
        h[..P::LEN_SEC].copy_from_slice(&dk[P::DK_BYTES - P::LEN_SEC..]);
        Self(h)
    }

    /// Its `len_sec` bytes.
    pub(crate) fn as_slice<P: ParameterSet>(&self) -> &[u8] {
        &self.0[..P::LEN_SEC]
    }
}

/// Deterministic encapsulation with `μ (‖ salt)`.
pub(crate) struct Encaps<'a, P> {
    pub(crate) ek: &'a [u8],
    /// `SHAKE(ek)`, `len_sec` bytes.
    pub(crate) pkh: &'a [u8],
    pub(crate) m: &'a [u8],
    pub(crate) ct: &'a mut [u8],
    pub(crate) ss: &'a mut [u8],
    pub(crate) p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for Encaps<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::encaps::<P, B>(self.ek, self.pkh, self.m, self.ct, self.ss);
    }
}

/// Decapsulation (implicit rejection).
pub(crate) struct Decaps<'a, P> {
    pub(crate) dk: &'a [u8],
    pub(crate) ct: &'a [u8],
    pub(crate) ss: &'a mut [u8],
    pub(crate) p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for Decaps<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::decaps::<P, B>(self.dk, self.ct, self.ss);
    }
}
