//! RustCrypto trait implementations for every parameter set (feature
//! `rustcrypto`), generated from the contracts:
//!
//! * KEMs: [`RcKem<P>`] implements [`kem::Kem`]; its encapsulation key is
//!   the typed [`EncapsKey<P>`] itself, its decapsulation key
//!   [`RcDecapsKey<P>`] (the typed key with its encapsulation key, which
//!   RustCrypto's `Decapsulator` hands out).
//! * Signatures: [`SigningKey<P>`] implements [`signature::Signer`],
//!   [`signature::RandomizedSigner`] and [`signature::Keypair`];
//!   [`VerifyingKey<P>`] implements [`signature::Verifier`];
//!   [`Signature<P>`] implements [`signature::SignatureEncoding`].
//!
//! [`signature::Signer`] (no random generator argument) signs
//! deterministically where the scheme defines deterministic signing; else,
//! with the `getrandom` feature, it signs with the operating system's
//! generator; else it returns an error. [`signature::RandomizedSigner`] is
//! hedged (or randomised) signing with the caller's generator.

use core::cmp::Ordering;
use core::fmt;
use core::marker::PhantomData;

pub use kem;
use kem::common::array::{Array, ArraySize, AssocArraySize};
use kem::common::{Generate, InvalidKey, KeyExport, KeySizeUser, TryKeyInit};
use kem::{Ciphertext, Decapsulate, Decapsulator, Encapsulate, SharedKey};
use rand_core::TryCryptoRng;
pub use signature;

use crate::kem::{Ciphertext as PqCiphertext, DecapsKey, EncapsKey, Kem};
use crate::sig::{SignOptions, Signature, SignatureScheme, SigningKey, VerifyingKey};

/// Marker type implementing [`kem::Kem`] for the pqforge parameter set `P`.
pub struct RcKem<P>(PhantomData<fn() -> P>);

impl<P> Clone for RcKem<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for RcKem<P> {}
impl<P> Default for RcKem<P> {
    fn default() -> Self {
        Self(PhantomData)
    }
}
impl<P: Kem> fmt::Debug for RcKem<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RcKem({})", P::INFO.name)
    }
}
impl<P> PartialEq for RcKem<P> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<P> Eq for RcKem<P> {}
impl<P> PartialOrd for RcKem<P> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<P> Ord for RcKem<P> {
    fn cmp(&self, _: &Self) -> Ordering {
        Ordering::Equal
    }
}

/// The `typenum` sizes RustCrypto's traits need, derived from the array
/// types of the contract (every size of every registered set is one of
/// `hybrid-array`'s sizes).
pub trait RcSizes: Kem {
    /// Encapsulation-key bytes.
    type EkSize: ArraySize;
    /// Ciphertext bytes.
    type CtSize: ArraySize;
    /// Shared-secret bytes.
    type SsSize: ArraySize;
}

impl<P> RcSizes for P
where
    P: Kem,
    P::EkBytes: AssocArraySize,
    P::CtBytes: AssocArraySize,
    P::SsBytes: AssocArraySize,
{
    type EkSize = <P::EkBytes as AssocArraySize>::Size;
    type CtSize = <P::CtBytes as AssocArraySize>::Size;
    type SsSize = <P::SsBytes as AssocArraySize>::Size;
}

impl<P: RcSizes> kem::Kem for RcKem<P> {
    type DecapsulationKey = RcDecapsKey<P>;
    type EncapsulationKey = EncapsKey<P>;
    type SharedKeySize = P::SsSize;
    type CiphertextSize = P::CtSize;
}

/// Copies `src` into an array of the same length (equal by construction:
/// the sizes come from the contract's array types).
fn to_array<N: ArraySize>(src: &[u8]) -> Array<u8, N> {
    let mut a = Array::<u8, N>::default();
    a.copy_from_slice(src);
    a
}

impl<P: RcSizes> KeySizeUser for EncapsKey<P> {
    type KeySize = P::EkSize;
}

impl<P: RcSizes> TryKeyInit for EncapsKey<P> {
    fn new(key: &kem::common::Key<Self>) -> Result<Self, InvalidKey> {
        Self::try_from(key.as_slice()).map_err(|_| InvalidKey)
    }
}

impl<P: RcSizes> KeyExport for EncapsKey<P> {
    fn to_bytes(&self) -> kem::common::Key<Self> {
        to_array(self.as_ref())
    }
}

impl<P: RcSizes> Encapsulate for EncapsKey<P> {
    type Kem = RcKem<P>;

    fn encapsulate_with_rng<R>(&self, rng: &mut R) -> (Ciphertext<RcKem<P>>, SharedKey<RcKem<P>>)
    where
        R: kem::common::rand_core::CryptoRng + ?Sized,
    {
        let (ct, ss) = P::encaps(self, rng);
        (to_array(ct.as_ref()), to_array(ss.as_ref()))
    }
}

/// Decapsulation key of `P` with its encapsulation key, as RustCrypto's
/// `Decapsulator` wants it.
pub struct RcDecapsKey<P: Kem> {
    dk: DecapsKey<P>,
    ek: EncapsKey<P>,
}

impl<P: Kem> RcDecapsKey<P> {
    /// Wraps a key pair.
    #[must_use]
    pub fn new(dk: DecapsKey<P>, ek: EncapsKey<P>) -> Self {
        Self { dk, ek }
    }

    /// The pqforge decapsulation key.
    #[must_use]
    pub fn inner(&self) -> &DecapsKey<P> {
        &self.dk
    }
}

impl<P: Kem> fmt::Debug for RcDecapsKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RcDecapsKey<{}>(..)", P::INFO.name)
    }
}

impl<P: RcSizes> Decapsulator for RcDecapsKey<P> {
    type Kem = RcKem<P>;

    fn encapsulation_key(&self) -> &EncapsKey<P> {
        &self.ek
    }
}

impl<P: RcSizes> Decapsulate for RcDecapsKey<P> {
    fn decapsulate(&self, ct: &Ciphertext<RcKem<P>>) -> SharedKey<RcKem<P>> {
        let mut c = <P::CtBytes as crate::ByteArray>::zeroed();
        c.as_mut().copy_from_slice(ct.as_slice());
        to_array(P::decaps(&self.dk, &PqCiphertext::from_bytes(c)).as_ref())
    }
}

impl<P: RcSizes> Generate for RcDecapsKey<P> {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut r = FirstError { rng, err: None };
        let (ek, dk) = P::keygen(&mut r);
        match r.err {
            Some(e) => Err(e),
            None => Ok(Self::new(dk, ek)),
        }
    }
}

/// A fallible RNG seen as infallible: the first error is kept and reported
/// after the operation (whose output is then discarded).
struct FirstError<'a, R: TryCryptoRng + ?Sized> {
    rng: &'a mut R,
    err: Option<R::Error>,
}

impl<R: TryCryptoRng + ?Sized> FirstError<'_, R> {
    fn fill(&mut self, dst: &mut [u8]) {
        if let Err(e) = self.rng.try_fill_bytes(dst) {
            dst.fill(0);
            self.err.get_or_insert(e);
        }
    }
}

crate::fill_rng!(impl['a, R: TryCryptoRng + ?Sized] for FirstError<'a, R>, FirstError::fill);

// ---------------------------------------------------------------- signatures

impl<P: SignatureScheme> signature::SignatureEncoding for Signature<P> {
    type Repr = Signature<P>;
}

impl<P: SignatureScheme> signature::Keypair for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;

    fn verifying_key(&self) -> VerifyingKey<P> {
        SigningKey::verifying_key(self).clone()
    }
}

impl<P: SignatureScheme> signature::Verifier<Signature<P>> for VerifyingKey<P> {
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), signature::Error> {
        P::verify(self, msg, sig.as_bytes()).map_err(|_| signature::Error::new())
    }
}

impl<P: SignatureScheme> signature::RandomizedSigner<Signature<P>> for SigningKey<P> {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature<P>, signature::Error> {
        let mut r = FirstError { rng, err: None };
        let s = P::sign(self, msg, &mut r).map_err(|_| signature::Error::new())?;
        match r.err {
            Some(_) => Err(signature::Error::new()),
            None => Ok(s),
        }
    }
}

impl<P: SignatureScheme> signature::Signer<Signature<P>> for SigningKey<P> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<P>, signature::Error> {
        if P::INFO.sign.deterministic {
            let opts = SignOptions::new().deterministic();
            return P::sign_with(self, msg, &opts, &mut NoRandomness)
                .map_err(|_| signature::Error::new());
        }
        #[cfg(feature = "getrandom")]
        {
            P::sign(self, msg, &mut rand_core::UnwrapErr(getrandom::SysRng))
                .map_err(|_| signature::Error::new())
        }
        #[cfg(not(feature = "getrandom"))]
        {
            Err(signature::Error::new())
        }
    }
}

/// The generator handed to deterministic signing: it is never read (a
/// scheme that did read it would get zeros, so deterministic output stays
/// deterministic).
struct NoRandomness;

crate::fill_rng!(impl for NoRandomness, |_: &mut NoRandomness, dst: &mut [u8]| dst.fill(0));
