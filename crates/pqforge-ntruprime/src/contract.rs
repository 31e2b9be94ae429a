//! The KEM contract of `pqforge-core` ([`Kem`]) for the six parameter sets:
//! names and metadata, key checks, the randomness conventions, and the
//! operations handed whole to the backend dispatch ([`backend::run`]).

use core::ops::Range;

use pqforge_core::{
    AlgInfo, ByteArray, CryptoRng, Error, KatRng, Kem, KeyForms, PreparedDk, PreparedEk, Status,
    ctgrind,
};

use crate::backend::{self, Operation};
use crate::encode::{Levels, decode, encode};
use crate::kem::{self, Backend};
use crate::params::{
    Buf, HASH_BYTES, KEYGEN_SEED_BYTES, ParameterSet, Sntrup653, Sntrup761, Sntrup857, Sntrup953,
    Sntrup1013, Sntrup1277,
};
use crate::random::{PerWord, Randomness, ShakeStream, SliceWords};

/// Implements [`Kem`] for one parameter set.
macro_rules! kem_impl {
    ($ty:ident, $name:literal, $header:literal) => {
        impl Kem for $ty {
            const BACKENDS: pqforge_core::cpu::Backends = crate::backend::BACKENDS;
            const INFO: AlgInfo = AlgInfo::kem(
                $name,
                "Streamlined NTRU Prime",
                <$ty as ParameterSet>::PK_BYTES,
                <$ty as ParameterSet>::SK_BYTES,
                <$ty as ParameterSet>::CT_BYTES,
                HASH_BYTES,
                <$ty as ParameterSet>::CATEGORY,
            )
            .with_status(Status::Draft)
            .with_kat(KatRng::NistDrbg, $header)
            .with_revision(REVISION)
            .with_c_stem($name)
            .with_feature("ntruprime")
            .with_seeds(KEYGEN_SEED_BYTES, 4 * <$ty as ParameterSet>::P)
            .with_key_forms(KeyForms::EXPANDED);
            // pk and the cache Hash4(pk) are public; f, 1/g and rho secret.
            const DK_PUBLIC: &'static [Range<usize>] = &[
                2 * <$ty as ParameterSet>::SMALL_BYTES
                    ..2 * <$ty as ParameterSet>::SMALL_BYTES + <$ty as ParameterSet>::PK_BYTES,
                <$ty as ParameterSet>::SK_BYTES - HASH_BYTES..<$ty as ParameterSet>::SK_BYTES,
            ];
            const DK_EK_OFFSET: Option<usize> = Some(2 * <$ty as ParameterSet>::SMALL_BYTES);

            type EkBytes = <$ty as ParameterSet>::EkBytes;
            type DkBytes = <$ty as ParameterSet>::DkBytes;
            type CtBytes = <$ty as ParameterSet>::CtBytes;
            type SsBytes = [u8; HASH_BYTES];
            type KeygenSeed = [u8; KEYGEN_SEED_BYTES];
            type EncapsSeed = <$ty as ParameterSet>::EncapsSeed;
            type EkState = [u8; HASH_BYTES];
            type DkState = ();

            fn prepare_ek(ek: &Self::EkBytes) -> Result<[u8; HASH_BYTES], Error> {
                prepare_ek::<Self>(ek.as_ref())
            }

            fn prepare_dk(dk: &Self::DkBytes) -> Result<(), Error> {
                prepare_dk::<Self>(dk.as_ref())
            }

            fn keygen_derand_into(
                seed: &Self::KeygenSeed,
                ek: &mut Self::EkBytes,
                dk: &mut Self::DkBytes,
            ) -> ([u8; HASH_BYTES], ()) {
                keygen::<Self, _>(&mut ShakeStream::new(seed), ek.as_mut(), dk.as_mut())
            }

            fn keygen_into<R: CryptoRng + ?Sized>(
                rng: &mut R,
                ek: &mut Self::EkBytes,
                dk: &mut Self::DkBytes,
            ) -> ([u8; HASH_BYTES], ()) {
                keygen::<Self, _>(&mut PerWord(rng), ek.as_mut(), dk.as_mut())
            }

            fn encaps_derand_into(
                ek: PreparedEk<'_, Self>,
                words: &Self::EncapsSeed,
                ct: &mut Self::CtBytes,
                ss: &mut Self::SsBytes,
            ) -> Result<(), Error> {
                encaps::<Self, _>(
                    &mut SliceWords(words.as_ref()),
                    ek.bytes().as_ref(),
                    ek.state(),
                    ct.as_mut(),
                    ss,
                );
                Ok(())
            }

            fn encaps_into<R: CryptoRng + ?Sized>(
                ek: PreparedEk<'_, Self>,
                rng: &mut R,
                ct: &mut Self::CtBytes,
                ss: &mut Self::SsBytes,
            ) {
                encaps::<Self, _>(
                    &mut PerWord(rng),
                    ek.bytes().as_ref(),
                    ek.state(),
                    ct.as_mut(),
                    ss,
                );
            }

            fn decaps_into(dk: PreparedDk<'_, Self>, ct: &Self::CtBytes, ss: &mut Self::SsBytes) {
                backend::run(Decaps::<Self> {
                    sk: dk.bytes().as_ref(),
                    ct: ct.as_ref(),
                    ss,
                    _p: core::marker::PhantomData,
                });
            }
        }
    };
}

const REVISION: &str = "NIST round 3 (2020-10-07), Streamlined NTRU Prime; KATs of the submission package (urandom32: four bytes per randombytes call)";

kem_impl!(Sntrup653, "sntrup653", "# kem/sntrup653");
kem_impl!(Sntrup761, "sntrup761", "# kem/sntrup761");
kem_impl!(Sntrup857, "sntrup857", "# kem/sntrup857");
kem_impl!(Sntrup953, "sntrup953", "# kem/sntrup953");
kem_impl!(Sntrup1013, "sntrup1013", "# kem/sntrup1013");
kem_impl!(Sntrup1277, "sntrup1277", "# kem/sntrup1277");

/// `Kem::prepare_ek`: every byte string decodes to some element of R/q;
/// only the canonical encoding (the one `Rq_encode` produces, so the
/// string re-encodes to itself) is accepted. Returns the cache Hash4(pk).
/// The public key is public: no constant-time requirement.
pub(crate) fn prepare_ek<P: ParameterSet>(pk: &[u8]) -> Result<[u8; HASH_BYTES], Error> {
    check_pk::<P>(pk)?;
    Ok(kem::hash_pk(pk))
}

/// Decode then re-encode `pk`, which must give the same bytes.
#[inline(never)]
fn check_pk<P: ParameterSet>(pk: &[u8]) -> Result<(), Error> {
    let mut d = P::Digits::zeroed();
    decode(d.as_mut(), pk, const { &Levels::new(P::P, P::Q as u32) });
    let mut again = P::EkBytes::zeroed();
    encode(
        again.as_mut(),
        d.as_mut(),
        const { &Levels::new(P::P, P::Q as u32) },
    );
    if again.as_ref() == pk {
        Ok(())
    } else {
        Err(Error::Encoding("public key: non-canonical R/q encoding"))
    }
}

/// `Kem::prepare_dk`: the embedded public key as in `prepare_ek`; the
/// cache must be Hash4 of it; then f and 1/g mod 3 must be canonical, f of
/// weight w, and consistent with pk (3·h·f small and its product with 1/g
/// equal to 1 mod 3), checked in constant time with only the verdict made
/// public.
fn prepare_dk<P: ParameterSet>(sk: &[u8]) -> Result<(), Error> {
    let sb = P::SMALL_BYTES;
    let pk = &sk[2 * sb..2 * sb + P::PK_BYTES];
    check_pk::<P>(pk)?;
    if kem::hash_pk(pk) != sk[P::SK_BYTES - HASH_BYTES..] {
        return Err(Error::InvalidKey(
            "secret key: cached Hash4(pk) does not match the embedded public key",
        ));
    }
    let ok = backend::run(CheckSk::<P> {
        sk,
        _p: core::marker::PhantomData,
    });
    if ctgrind::declassify_val(ok) == 0xFF {
        Ok(())
    } else {
        Err(Error::InvalidKey(
            "secret key: f, 1/g mod 3 and the public key are not a consistent key pair",
        ))
    }
}

/// Key generation from `src`; returns the states of the new keys.
pub(crate) fn keygen<P: ParameterSet, R: Randomness>(
    src: &mut R,
    pk: &mut [u8],
    sk: &mut [u8],
) -> ([u8; HASH_BYTES], ()) {
    backend::run(Keygen::<P, R> {
        src,
        pk,
        sk,
        _p: core::marker::PhantomData,
    });
    let mut cache = [0u8; HASH_BYTES];
    cache.copy_from_slice(&sk[P::SK_BYTES - HASH_BYTES..]);
    (cache, ())
}

/// Encapsulation with words from `src` under `pk` (checked; `cache` =
/// Hash4(pk)).
pub(crate) fn encaps<P: ParameterSet, R: Randomness>(
    src: &mut R,
    pk: &[u8],
    cache: &[u8; HASH_BYTES],
    ct: &mut [u8],
    ss: &mut [u8; HASH_BYTES],
) {
    backend::run(Encaps::<P, R> {
        src,
        pk,
        cache,
        ct,
        ss,
        _p: core::marker::PhantomData,
    });
}

// ---------------------------------------------------------------------------
// The operations the dispatch runs (also used by `crate::testing`).

/// Key generation into `pk`, `sk`.
pub(crate) struct Keygen<'a, P, R> {
    pub(crate) src: &'a mut R,
    pub(crate) pk: &'a mut [u8],
    pub(crate) sk: &'a mut [u8],
    pub(crate) _p: core::marker::PhantomData<P>,
}

impl<P: ParameterSet, R: Randomness> Operation for Keygen<'_, P, R> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::keygen::<P, B, R>(self.src, self.pk, self.sk);
    }
}

/// Encapsulation into `ct`, `ss`.
pub(crate) struct Encaps<'a, P, R> {
    pub(crate) src: &'a mut R,
    pub(crate) pk: &'a [u8],
    pub(crate) cache: &'a [u8; HASH_BYTES],
    pub(crate) ct: &'a mut [u8],
    pub(crate) ss: &'a mut [u8; HASH_BYTES],
    pub(crate) _p: core::marker::PhantomData<P>,
}

impl<P: ParameterSet, R: Randomness> Operation for Encaps<'_, P, R> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::encaps::<P, B, R>(self.src, self.pk, self.cache, self.ct, self.ss);
    }
}

/// Decapsulation of `ct` under `sk` into `ss`.
pub(crate) struct Decaps<'a, P> {
    pub(crate) sk: &'a [u8],
    pub(crate) ct: &'a [u8],
    pub(crate) ss: &'a mut [u8; HASH_BYTES],
    pub(crate) _p: core::marker::PhantomData<P>,
}

impl<P: ParameterSet> Operation for Decaps<'_, P> {
    type Output = ();

    #[inline(always)]
    fn run<B: Backend>(self) {
        kem::decaps::<P, B>(self.sk, self.ct, self.ss);
    }
}

/// The secret-key consistency check: `0xFF` iff consistent.
pub(crate) struct CheckSk<'a, P> {
    pub(crate) sk: &'a [u8],
    pub(crate) _p: core::marker::PhantomData<P>,
}

impl<P: ParameterSet> Operation for CheckSk<'_, P> {
    type Output = u8;

    #[inline(always)]
    fn run<B: Backend>(self) -> u8 {
        kem::check_sk::<P, B>(self.sk)
    }
}
