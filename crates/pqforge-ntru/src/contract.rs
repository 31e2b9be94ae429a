//! The KEM contract of `pqforge-core` ([`Kem`]) for the six parameter sets:
//! their names and metadata, the key checks, the randomness draws, and the
//! operations, each handed whole to the backend dispatch
//! ([`backend::run`]: one CPU check per call).

use pqforge_core::{
    AlgInfo, CryptoRng, Error, KatRng, Kem, KeyForms, PreparedDk, PreparedEk, Status, ctgrind,
};
use zeroize::Zeroize;

use crate::backend::{self, Operation};
use crate::kem::{self, Backend};
use crate::params::{
    NtruHps2048509, NtruHps2048677, NtruHps4096821, NtruHps40961229, NtruHrss701, NtruHrss1373,
    PRF_KEY_BYTES, ParameterSet, SS_BYTES,
};
use crate::poly;

/// Implements [`Kem`] for one parameter set: its metadata, and methods
/// that delegate to the generic functions below.
macro_rules! kem_impl {
    ($ty:ident, $name:literal, $stem:literal, $header:literal, $cat:literal) => {
        impl Kem for $ty {
            const BACKENDS: pqforge_core::cpu::Backends = crate::backend::BACKENDS;
            const INFO: AlgInfo = AlgInfo::kem(
                $name,
                "NTRU",
                <$ty as ParameterSet>::ENCAPS_KEY_BYTES,
                <$ty as ParameterSet>::DECAPS_KEY_BYTES,
                <$ty as ParameterSet>::CIPHERTEXT_BYTES,
                SS_BYTES,
                $cat,
            )
            .with_status(Status::Draft)
            .with_kat(KatRng::NistDrbg, $header)
            .with_revision(REVISION)
            .with_c_stem($stem)
            .with_feature("ntru")
            .with_seeds(
                <$ty as ParameterSet>::FG_BYTES + PRF_KEY_BYTES,
                <$ty as ParameterSet>::RM_BYTES,
            )
            .with_key_forms(KeyForms::EXPANDED);

            type EkBytes = [u8; <$ty as ParameterSet>::ENCAPS_KEY_BYTES];
            type DkBytes = [u8; <$ty as ParameterSet>::DECAPS_KEY_BYTES];
            type CtBytes = [u8; <$ty as ParameterSet>::CIPHERTEXT_BYTES];
            type SsBytes = [u8; SS_BYTES];
            type KeygenSeed = [u8; <$ty as ParameterSet>::FG_BYTES + PRF_KEY_BYTES];
            type EncapsSeed = [u8; <$ty as ParameterSet>::RM_BYTES];
            type EkState = ();
            type DkState = ();

            fn prepare_ek(ek: &Self::EkBytes) -> Result<(), Error> {
                prepare_ek::<Self>(ek)
            }

            fn prepare_dk(dk: &Self::DkBytes) -> Result<(), Error> {
                prepare_dk::<Self>(dk)
            }

            fn keygen_derand_into(
                seed: &Self::KeygenSeed,
                ek: &mut Self::EkBytes,
                dk: &mut Self::DkBytes,
            ) -> ((), ()) {
                backend::run(Keygen::<Self> {
                    seed: seed.as_ref(),
                    ek,
                    dk,
                });
                ((), ())
            }

            fn keygen_into<R: CryptoRng + ?Sized>(
                rng: &mut R,
                ek: &mut Self::EkBytes,
                dk: &mut Self::DkBytes,
            ) -> ((), ()) {
                let mut seed = [0u8; <$ty as ParameterSet>::FG_BYTES + PRF_KEY_BYTES];
                keygen_random::<Self, R>(rng, &mut seed, ek, dk);
                ((), ())
            }

            fn encaps_derand_into(
                ek: PreparedEk<'_, Self>,
                seed: &Self::EncapsSeed,
                ct: &mut Self::CtBytes,
                ss: &mut Self::SsBytes,
            ) -> Result<(), Error> {
                backend::run(Encaps::<Self> {
                    ek: ek.bytes(),
                    seed: seed.as_ref(),
                    ct,
                    ss,
                });
                Ok(())
            }

            fn derive_ek(dk: &Self::DkBytes, ek: &mut Self::EkBytes) -> Result<(), Error> {
                prepare_dk::<Self>(dk)?;
                backend::run(DeriveEk::<Self> { dk, ek });
                Ok(())
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

/// The reference revision the sets reproduce.
const REVISION: &str = "NTRU round-3 reference (jschanck/ntru 6d96ed3, 2021-11-11)";

kem_impl!(
    NtruHps2048509,
    "ntru-hps-2048-509",
    "ntruhps2048509",
    "# ntruhps2048509",
    1
);
kem_impl!(
    NtruHps2048677,
    "ntru-hps-2048-677",
    "ntruhps2048677",
    "# ntruhps2048677",
    3
);
kem_impl!(
    NtruHps4096821,
    "ntru-hps-4096-821",
    "ntruhps4096821",
    "# ntruhps4096821",
    5
);
kem_impl!(
    NtruHps40961229,
    "ntru-hps-4096-1229",
    "ntruhps40961229",
    "# ntruhps40961229",
    5
);
kem_impl!(
    NtruHrss701,
    "ntru-hrss-701",
    "ntruhrss701",
    "# ntruhrss701",
    3
);
kem_impl!(
    NtruHrss1373,
    "ntru-hrss-1373",
    "ntruhrss1373",
    "# ntruhrss1373",
    5
);

/// `Kem::prepare_ek`: the bits above the n − 1 packed coefficients in the
/// last byte must be zero.
fn prepare_ek<P: ParameterSet>(ek: &[u8]) -> Result<(), Error> {
    if poly::padding_nonzero(ek, P::PACK_DEG, P::LOGQ) != 0 {
        return Err(Error::Encoding(
            "encapsulation key: nonzero padding bits in the last byte",
        ));
    }
    Ok(())
}

/// `Kem::prepare_dk`: f and f⁻¹ mod 3 must be canonical base-3 packings
/// (every byte below 3^5, the last below 3^(digits it holds)), h⁻¹ must
/// have zero padding bits, f·f⁻¹ ≡ 1 (mod (3, Φ_n)), and h⁻¹ must be f/G
/// for the G = 3g (HPS, g of fixed type) or 3(x − 1)g (HRSS, g trinary) of
/// key generation ([`kem::check_dk`]: without it a corrupted h⁻¹ gives a
/// wrong derived public key and keys that never decapsulate). Only the
/// verdicts are made public. Done once per key, not per decapsulation (the
/// h⁻¹ check inverts h⁻¹ modulo q: about the cost of `derive_ek`).
fn prepare_dk<P: ParameterSet>(dk_bytes: &P::DkBytes) -> Result<(), Error> {
    let dk = dk_bytes.as_ref();
    let tb = P::TRINARY_BYTES;
    let bad = poly::s3_noncanonical(&dk[..tb], P::PACK_DEG)
        | poly::s3_noncanonical(&dk[tb..2 * tb], P::PACK_DEG);
    // Declassified: whether the key is canonical is public.
    if ctgrind::declassify_val(bad) != 0 {
        return Err(Error::Encoding(
            "decapsulation key: a trinary polynomial is not canonically packed",
        ));
    }
    let padding = poly::padding_nonzero(&dk[2 * tb..2 * tb + P::Q_BYTES], P::PACK_DEG, P::LOGQ);
    // Declassified: whether the encoding is canonical is public.
    if ctgrind::declassify_val(padding) != 0 {
        return Err(Error::Encoding(
            "decapsulation key: nonzero padding bits after h⁻¹",
        ));
    }
    let bad = backend::run(CheckDk::<P> { dk: dk_bytes });
    // Declassified: whether the key is consistent is public.
    if ctgrind::declassify_val(bad) != 0 {
        return Err(Error::InvalidKey(
            "decapsulation key: inconsistent (f⁻¹ is not the inverse of f modulo (3, Φ_n), or h⁻¹ is not f/G for the G of key generation)",
        ));
    }
    Ok(())
}

/// `Kem::keygen_into`: draws the f, g sample seed, then the PRF key, in two
/// `fill_bytes` calls (the order of the reference implementation, which
/// the KATs depend on), generates the keys and wipes the seed.
fn keygen_random<P: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
    seed: &mut [u8],
    ek: &mut P::EkBytes,
    dk: &mut P::DkBytes,
) {
    let (fg, prf) = seed.split_at_mut(P::FG_BYTES);
    rng.fill_bytes(fg);
    rng.fill_bytes(prf);
    backend::run(Keygen::<P> { seed, ek, dk });
    seed.zeroize();
}

// ---------------------------------------------------------------------------
// The operations the dispatch runs (also used by `crate::testing`).

/// Deterministic key generation from `seed` (f, g seed ‖ PRF key).
pub(crate) struct Keygen<'a, P: ParameterSet> {
    pub(crate) seed: &'a [u8],
    pub(crate) ek: &'a mut P::EkBytes,
    pub(crate) dk: &'a mut P::DkBytes,
}

impl<P: ParameterSet> Operation for Keygen<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        let (fg, prf) = self.seed.split_at(P::FG_BYTES);
        kem::keygen::<P, B>(fg, prf, self.ek.as_mut(), self.dk.as_mut());
    }
}

/// Deterministic encapsulation with the r, m sample seed.
pub(crate) struct Encaps<'a, P: ParameterSet> {
    pub(crate) ek: &'a P::EkBytes,
    pub(crate) seed: &'a [u8],
    pub(crate) ct: &'a mut P::CtBytes,
    pub(crate) ss: &'a mut [u8; SS_BYTES],
}

impl<P: ParameterSet> Operation for Encaps<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::encaps::<P, B>(self.ek.as_ref(), self.seed, self.ct.as_mut(), self.ss);
    }
}

/// Decapsulation of `ct` under `dk` into `ss`.
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

/// The public key a decapsulation key determines.
pub(crate) struct DeriveEk<'a, P: ParameterSet> {
    pub(crate) dk: &'a P::DkBytes,
    pub(crate) ek: &'a mut P::EkBytes,
}

impl<P: ParameterSet> Operation for DeriveEk<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::derive_ek::<P, B>(self.dk.as_ref(), self.ek.as_mut());
    }
}

/// The decapsulation-key consistency check: 0 iff f·f⁻¹ ≡ 1 (mod (3, Φ_n))
/// and h⁻¹ is consistent with f ([`kem::check_dk`]).
pub(crate) struct CheckDk<'a, P: ParameterSet> {
    pub(crate) dk: &'a P::DkBytes,
}

impl<P: ParameterSet> Operation for CheckDk<'_, P> {
    type Output = u32;

    #[inline(always)]
    fn run<B: Backend>(self) -> u32 {
        kem::check_dk::<P, B>(self.dk.as_ref())
    }
}
