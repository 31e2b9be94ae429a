//! RustCrypto [`kem`] trait implementations for every typed [`Kem`](crate::Kem).
//!
//! Enabled by the `rustcrypto` feature. A scheme opts in by implementing
//! [`KemSizes`] (the `typenum` sizes its keys and ciphertexts have), after
//! which [`RcKem<K>`] implements [`kem::Kem`] with [`RcEncapsKey<K>`] and
//! [`RcDecapsKey<K>`] as its key types.
//!
//! ```ignore
//! use kem::{Decapsulate, Encapsulate, Kem as _};
//! use pqforge_core::rustcrypto::RcKem;
//! use pqforge_hqc::Hqc1;
//!
//! let (dk, ek) = RcKem::<Hqc1>::generate_keypair_from_rng(&mut rng);
//! let (ct, k1) = ek.encapsulate_with_rng(&mut rng);
//! assert_eq!(dk.decapsulate(&ct), k1);
//! ```

use core::cmp::Ordering;
use core::fmt;
use core::marker::PhantomData;

pub use kem;
use kem::common::{Generate, InvalidKey, KeyExport, KeySizeUser, TryKeyInit};
use kem::{Ciphertext, Decapsulate, Decapsulator, Encapsulate, SharedKey};
use rand_core::{TryCryptoRng, TryRng};

use crate::Kem;

/// The `typenum` sizes of a parameter set, as RustCrypto's traits need them.
pub trait KemSizes: Kem + 'static {
    /// Encapsulation-key bytes (= [`Kem::PK_BYTES`]).
    type PkSize: kem::common::array::ArraySize;
    /// Ciphertext bytes (= [`Kem::CT_BYTES`]).
    type CtSize: kem::common::array::ArraySize;
    /// Shared-secret bytes (= [`Kem::SS_BYTES`]).
    type SsSize: kem::common::array::ArraySize;
}

/// Marker type implementing [`kem::Kem`] for the pqforge parameter set `K`.
pub struct RcKem<K>(PhantomData<fn() -> K>);

impl<K> Clone for RcKem<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K> Copy for RcKem<K> {}
impl<K> Default for RcKem<K> {
    fn default() -> Self {
        Self(PhantomData)
    }
}
impl<K: Kem> fmt::Debug for RcKem<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RcKem({})", K::INFO.name)
    }
}
impl<K> PartialEq for RcKem<K> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<K> Eq for RcKem<K> {}
impl<K> PartialOrd for RcKem<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<K> Ord for RcKem<K> {
    fn cmp(&self, _: &Self) -> Ordering {
        Ordering::Equal
    }
}

impl<K: KemSizes> kem::Kem for RcKem<K> {
    type DecapsulationKey = RcDecapsKey<K>;
    type EncapsulationKey = RcEncapsKey<K>;
    type SharedKeySize = K::SsSize;
    type CiphertextSize = K::CtSize;
}

/// Encapsulation key of `K` with RustCrypto's traits.
pub struct RcEncapsKey<K: Kem>(pub K::EncapsKey);

impl<K: Kem> Clone for RcEncapsKey<K> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}
impl<K: Kem> fmt::Debug for RcEncapsKey<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RcEncapsKey({})", K::INFO.name)
    }
}
impl<K: Kem> PartialEq for RcEncapsKey<K> {
    fn eq(&self, other: &Self) -> bool {
        // Public data: an ordinary comparison is fine.
        self.0.as_ref() == other.0.as_ref()
    }
}
impl<K: Kem> Eq for RcEncapsKey<K> {}

impl<K: KemSizes> KeySizeUser for RcEncapsKey<K> {
    type KeySize = K::PkSize;
}

impl<K: KemSizes> TryKeyInit for RcEncapsKey<K> {
    fn new(key: &kem::common::Key<Self>) -> Result<Self, InvalidKey> {
        K::EncapsKey::try_from(key.as_slice())
            .map(Self)
            .map_err(|_| InvalidKey)
    }
}

/// Copies `src` into a fixed-size array (sizes are equal by construction:
/// [`KemSizes`] matches [`Kem`]'s constants, checked in debug builds).
fn to_array<N: kem::common::array::ArraySize>(src: &[u8]) -> kem::common::array::Array<u8, N> {
    let mut a = kem::common::array::Array::<u8, N>::default();
    debug_assert_eq!(a.len(), src.len(), "KemSizes disagrees with Kem sizes");
    let n = a.len().min(src.len());
    a[..n].copy_from_slice(&src[..n]);
    a
}

impl<K: KemSizes> KeyExport for RcEncapsKey<K> {
    fn to_bytes(&self) -> kem::common::Key<Self> {
        to_array(self.0.as_ref())
    }
}

impl<K: KemSizes> Encapsulate for RcEncapsKey<K> {
    type Kem = RcKem<K>;

    fn encapsulate_with_rng<R>(&self, rng: &mut R) -> (Ciphertext<RcKem<K>>, SharedKey<RcKem<K>>)
    where
        R: kem::common::rand_core::CryptoRng + ?Sized,
    {
        let (ct, ss) = K::encaps(&self.0, &mut InfallibleRng(rng));
        (to_array(ct.as_ref()), to_array(ss.as_ref()))
    }
}

/// Decapsulation key of `K` (with its encapsulation key) with RustCrypto's traits.
pub struct RcDecapsKey<K: Kem> {
    dk: K::DecapsKey,
    ek: RcEncapsKey<K>,
}

impl<K: Kem> RcDecapsKey<K> {
    /// Wraps a key pair.
    pub fn new(dk: K::DecapsKey, ek: K::EncapsKey) -> Self {
        Self {
            dk,
            ek: RcEncapsKey(ek),
        }
    }

    /// The pqforge decapsulation key.
    pub fn inner(&self) -> &K::DecapsKey {
        &self.dk
    }
}

impl<K: KemSizes> Decapsulator for RcDecapsKey<K> {
    type Kem = RcKem<K>;

    fn encapsulation_key(&self) -> &RcEncapsKey<K> {
        &self.ek
    }
}

impl<K: KemSizes> Decapsulate for RcDecapsKey<K> {
    fn decapsulate(&self, ct: &Ciphertext<RcKem<K>>) -> SharedKey<RcKem<K>> {
        // The ciphertext type only checks the length, which the array type
        // already guarantees (KemSizes::CtSize == Kem::CT_BYTES).
        match K::Ciphertext::try_from(ct.as_slice()) {
            Ok(c) => to_array(K::decaps(&self.dk, &c).as_ref()),
            Err(_) => unreachable!("ciphertext array has the parameter set's length"),
        }
    }
}

impl<K: KemSizes> Generate for RcDecapsKey<K> {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut r = FirstError { rng, err: None };
        let (ek, dk) = K::keygen(&mut r);
        match r.err {
            Some(e) => Err(e),
            None => Ok(Self::new(dk, ek)),
        }
    }
}

/// Adapts a RustCrypto `CryptoRng` (possibly unsized) to the bound pqforge's
/// typed API takes.
struct InfallibleRng<'a, R: ?Sized>(&'a mut R);

impl<R: kem::common::rand_core::CryptoRng + ?Sized> TryRng for InfallibleRng<'_, R> {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.0.next_u32())
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.0.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.0.fill_bytes(dst);
        Ok(())
    }
}
impl<R: kem::common::rand_core::CryptoRng + ?Sized> TryCryptoRng for InfallibleRng<'_, R> {}

/// A fallible RNG seen as infallible: the first error is kept and reported
/// after the operation (whose output is then discarded).
struct FirstError<'a, R: TryCryptoRng + ?Sized> {
    rng: &'a mut R,
    err: Option<R::Error>,
}

impl<R: TryCryptoRng + ?Sized> TryRng for FirstError<'_, R> {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        if let Err(e) = self.rng.try_fill_bytes(dst) {
            dst.fill(0);
            self.err.get_or_insert(e);
        }
        Ok(())
    }
}
impl<R: TryCryptoRng + ?Sized> TryCryptoRng for FirstError<'_, R> {}
