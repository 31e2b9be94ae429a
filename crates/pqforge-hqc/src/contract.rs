//! The KEM contract of `pqforge-core` ([`Kem`]) for the six parameter sets:
//! their names and metadata, the key checks, the randomness draws, and the
//! operations, each handed whole to the backend dispatch
//! ([`backend::run`]: one CPU check per call).

use core::ops::Range;

use pqforge_core::{
    AlgInfo, CryptoRng, Error, KatRng, Kem, KeyForms, PreparedDk, PreparedEk, Status, ctgrind,
};
use zeroize::Zeroize;

use crate::backend::{self, Operation};
use crate::kem::{self, Backend};
use crate::params::{
    Hqc1, Hqc1V5, Hqc3, Hqc3V5, Hqc5, Hqc5V5, MAX_K, ParameterSet, SALT_BYTES, SEED_BYTES, SS_BYTES,
};

/// Implements [`Kem`] for one parameter set: its metadata, and methods
/// that delegate to the generic functions below.
macro_rules! kem_impl {
    ($ty:ident, $name:literal, $stem:literal, $header:literal, $cat:literal, $revline:expr) => {
        impl Kem for $ty {
            const BACKENDS: pqforge_core::cpu::Backends = crate::backend::BACKENDS;
            const INFO: AlgInfo = AlgInfo::kem(
                $name,
                "HQC",
                <$ty as ParameterSet>::ENCAPS_KEY_BYTES,
                <$ty as ParameterSet>::DECAPS_KEY_BYTES,
                <$ty as ParameterSet>::CIPHERTEXT_BYTES,
                SS_BYTES,
                $cat,
            )
            .with_status(Status::Draft)
            .with_kat(KatRng::HqcShake256, $header)
            .with_revision($revline)
            .with_c_stem($stem)
            .with_feature("hqc")
            .with_seeds(SEED_BYTES, <$ty as ParameterSet>::K + SALT_BYTES)
            .with_key_forms(KeyForms::EXPANDED);
            // The decapsulation key starts with the (public) encapsulation key.
            #[allow(clippy::single_range_in_vec_init)] // one range, not a Vec
            const DK_PUBLIC: &'static [Range<usize>] =
                &[0..<$ty as ParameterSet>::ENCAPS_KEY_BYTES];
            const DK_EK_OFFSET: Option<usize> = Some(0);

            type EkBytes = [u8; <$ty as ParameterSet>::ENCAPS_KEY_BYTES];
            type DkBytes = [u8; <$ty as ParameterSet>::DECAPS_KEY_BYTES];
            type CtBytes = [u8; <$ty as ParameterSet>::CIPHERTEXT_BYTES];
            type SsBytes = [u8; SS_BYTES];
            type KeygenSeed = [u8; SEED_BYTES];
            type EncapsSeed = [u8; <$ty as ParameterSet>::K + SALT_BYTES];
            type EkState = ();
            type DkState = ();

            fn prepare_ek(ek: &Self::EkBytes) -> Result<(), Error> {
                check_s_padding::<Self>(ek)
            }

            fn prepare_dk(dk: &Self::DkBytes) -> Result<(), Error> {
                prepare_dk::<Self>(dk)
            }

            fn keygen_derand_into(
                seed: &Self::KeygenSeed,
                ek: &mut Self::EkBytes,
                dk: &mut Self::DkBytes,
            ) -> ((), ()) {
                backend::run(Keygen::<Self> { seed, ek, dk });
                ((), ())
            }

            fn encaps_derand_into(
                ek: PreparedEk<'_, Self>,
                m_salt: &Self::EncapsSeed,
                ct: &mut Self::CtBytes,
                ss: &mut Self::SsBytes,
            ) -> Result<(), Error> {
                encaps_derand::<Self>(ek.bytes(), m_salt, ct, ss);
                Ok(())
            }

            fn encaps_into<R: CryptoRng + ?Sized>(
                ek: PreparedEk<'_, Self>,
                rng: &mut R,
                ct: &mut Self::CtBytes,
                ss: &mut Self::SsBytes,
            ) {
                encaps_random::<Self, R>(ek.bytes(), rng, ct, ss);
            }

            fn decaps_into(dk: PreparedDk<'_, Self>, ct: &Self::CtBytes, ss: &mut Self::SsBytes) {
                backend::run(Decaps::<Self> {
                    dk: dk.bytes(),
                    ct,
                    ss,
                });
            }
        }
    };
}

const REV_NEXT: &str = "official reference next-release 161cd4f (2026-02-10), as in liboqs 0.16";
const REV_V5: &str = "official reference v5.0.0 (2025-08-22 specification)";

kem_impl!(Hqc1, "hqc-1", "hqc1", "# HQC-1", 1, REV_NEXT);
kem_impl!(Hqc3, "hqc-3", "hqc3", "# HQC-3", 3, REV_NEXT);
kem_impl!(Hqc5, "hqc-5", "hqc5", "# HQC-5", 5, REV_NEXT);
kem_impl!(Hqc1V5, "hqc-1-v5.0.0", "hqc1_v5_0_0", "# HQC-1", 1, REV_V5);
kem_impl!(Hqc3V5, "hqc-3-v5.0.0", "hqc3_v5_0_0", "# HQC-3", 3, REV_V5);
kem_impl!(Hqc5V5, "hqc-5-v5.0.0", "hqc5_v5_0_0", "# HQC-5", 5, REV_V5);

/// `Kem::prepare_ek`: the bits of `s` at and above n must be zero (`ek`
/// is the encoded encapsulation key, or the start of a decapsulation key).
fn check_s_padding<P: ParameterSet>(ek: &[u8]) -> Result<(), Error> {
    let rem = P::N % 8;
    if rem != 0 && ek[P::ENCAPS_KEY_BYTES - 1] >> rem != 0 {
        return Err(Error::Encoding(
            "encapsulation key: nonzero bits of s beyond n",
        ));
    }
    Ok(())
}

/// `Kem::prepare_dk`: the embedded encapsulation key as in `prepare_ek`,
/// then consistency: every byte of `ek || seed_dk || σ` is re-derived from
/// the trailing `seed_kem` and compared in constant time (only the verdict
/// is made public). Done once per key, not per decapsulation.
fn prepare_dk<P: ParameterSet>(dk: &P::DkBytes) -> Result<(), Error> {
    check_s_padding::<P>(&dk.as_ref()[..P::ENCAPS_KEY_BYTES])?;
    let ok = backend::run(CheckDk::<P> { dk });
    // Declassified: whether the key is consistent is public.
    if ctgrind::declassify_val(ok) == 0xFF {
        Ok(())
    } else {
        Err(Error::InvalidKey(
            "decapsulation key does not match its seed_kem",
        ))
    }
}

/// `Kem::encaps_derand_into`: deterministic encapsulation under the checked
/// `ek` with the randomness `m || salt` (k + 16 bytes).
fn encaps_derand<P: ParameterSet>(
    ek: &P::EkBytes,
    m_salt: &P::EncapsSeed,
    ct: &mut P::CtBytes,
    ss: &mut [u8; SS_BYTES],
) {
    let (m, s) = m_salt.as_ref().split_at(P::K);
    // The salt is public: a copy on the stack costs nothing.
    let mut salt = [0u8; SALT_BYTES];
    salt.copy_from_slice(s);
    backend::run(Encaps::<P> {
        ek,
        m,
        salt: &salt,
        ct,
        ss,
    });
}

/// `Kem::encaps_into`: draws m (k bytes), then salt (16 bytes), in two
/// `fill_bytes` calls (the order of the reference implementation, which the
/// KATs depend on), encapsulates, and wipes m.
fn encaps_random<P: ParameterSet, R: CryptoRng + ?Sized>(
    ek: &P::EkBytes,
    rng: &mut R,
    ct: &mut P::CtBytes,
    ss: &mut [u8; SS_BYTES],
) {
    let mut m = [0u8; MAX_K];
    let mut salt = [0u8; SALT_BYTES];
    rng.fill_bytes(&mut m[..P::K]);
    rng.fill_bytes(&mut salt);
    backend::run(Encaps::<P> {
        ek,
        m: &m[..P::K],
        salt: &salt,
        ct,
        ss,
    });
    m.zeroize();
}

// ---------------------------------------------------------------------------
// The operations the dispatch runs (also used by `crate::testing`).

/// Deterministic key generation from `seed` into `ek` and `dk`.
pub(crate) struct Keygen<'a, P: ParameterSet> {
    pub(crate) seed: &'a [u8; SEED_BYTES],
    pub(crate) ek: &'a mut P::EkBytes,
    pub(crate) dk: &'a mut P::DkBytes,
}

impl<P: ParameterSet> Operation for Keygen<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::keygen_into::<P, B>(self.seed, self.ek.as_mut(), self.dk.as_mut());
    }
}

/// Deterministic encapsulation of `m` with `salt` under `ek` into `ct`
/// and `ss`.
pub(crate) struct Encaps<'a, P: ParameterSet> {
    pub(crate) ek: &'a P::EkBytes,
    pub(crate) m: &'a [u8],
    pub(crate) salt: &'a [u8; SALT_BYTES],
    pub(crate) ct: &'a mut P::CtBytes,
    pub(crate) ss: &'a mut [u8; SS_BYTES],
}

impl<P: ParameterSet> Operation for Encaps<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::encaps_into::<P, B>(
            self.ek.as_ref(),
            self.m,
            self.salt,
            self.ct.as_mut(),
            self.ss,
        );
    }
}

/// Decapsulation of `ct` under the (checked) `dk` into `ss`.
pub(crate) struct Decaps<'a, P: ParameterSet> {
    pub(crate) dk: &'a P::DkBytes,
    pub(crate) ct: &'a P::CtBytes,
    pub(crate) ss: &'a mut [u8; SS_BYTES],
}

impl<P: ParameterSet> Operation for Decaps<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::decaps::<P, B>(self.dk.as_ref(), self.ct.as_ref(), self.ss);
    }
}

/// The decapsulation-key consistency check: all-ones iff `dk` is what key
/// generation makes from its `seed_kem`.
pub(crate) struct CheckDk<'a, P: ParameterSet> {
    pub(crate) dk: &'a P::DkBytes,
}

impl<P: ParameterSet> Operation for CheckDk<'_, P> {
    type Output = u8;

    #[inline(always)]
    fn run<B: Backend>(self) -> u8 {
        kem::check_decaps_key::<P, B>(self.dk.as_ref())
    }
}
