//! The dynamic ([`DynKem`]) interface, working directly on the caller's
//! byte slices: no typed keys are built or copied by value, so the only
//! stack an operation needs is that of the KEM itself (a few KB on the
//! Cortex-M4). The input checks are those of the typed API (FIPS 203 §7):
//! the modulus check of ek in encapsulation; the hash check and the modulus
//! check of the embedded ek in decapsulation; every length. Randomness is
//! drawn exactly as by [`Kem::keygen`] and [`Kem::encaps`], so KAT
//! transcripts are the same through both APIs.

use core::marker::PhantomData;

use pqforge_core::{AlgInfo, CryptoRng, DynKem, Error, Kem, check_len, ct};
use zeroize::Zeroize;

use crate::dispatch;
use crate::params::ParameterSet;
use crate::poly::POLY_BYTES;

/// The byte-slice interface of parameter set `P` (the registry statics
/// [`crate::ML_KEM_512`], [`crate::ML_KEM_768`], [`crate::ML_KEM_1024`]).
pub struct MlKemDyn<P>(PhantomData<fn() -> P>);

impl<P> MlKemDyn<P> {
    /// The adapter.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<P> Default for MlKemDyn<P> {
    fn default() -> Self {
        Self::new()
    }
}

/// Public byte ranges of dk (the embedded ek and H(ek)), per k.
#[allow(clippy::single_range_in_vec_init)] // one range per set, on purpose
const SK_PUBLIC: [&[core::ops::Range<usize>]; 5] = [
    &[],
    &[],
    &[384 * 2..768 * 2 + 64],
    &[384 * 3..768 * 3 + 64],
    &[384 * 4..768 * 4 + 64],
];

impl<P: ParameterSet + Kem> DynKem for MlKemDyn<P> {
    fn info(&self) -> &'static AlgInfo {
        const { &<P as Kem>::INFO }
    }

    /// Draws d || z with one 64-byte `fill_bytes` call.
    fn keygen(&self, rng: &mut dyn CryptoRng, pk: &mut [u8], sk: &mut [u8]) -> Result<(), Error> {
        check_len("public key buffer", P::EK_BYTES, pk.len())?;
        check_len("secret key buffer", P::DK_BYTES, sk.len())?;
        let mut seed = [0u8; 64];
        rng.fill_bytes(&mut seed);
        let mut d = [0u8; 32];
        let mut z = [0u8; 32];
        d.copy_from_slice(&seed[..32]);
        z.copy_from_slice(&seed[32..]);
        dispatch::keygen::<P>(&d, &z, pk, sk, false);
        seed.zeroize();
        d.zeroize();
        z.zeroize();
        Ok(())
    }

    /// Checks ek, then draws m with one 32-byte `fill_bytes` call.
    fn encaps(
        &self,
        rng: &mut dyn CryptoRng,
        pk: &[u8],
        ct: &mut [u8],
        ss: &mut [u8],
    ) -> Result<(), Error> {
        check_len("ciphertext buffer", <P as ParameterSet>::CT_BYTES, ct.len())?;
        check_len("shared secret buffer", 32, ss.len())?;
        check_len("ML-KEM encapsulation key", P::EK_BYTES, pk.len())?;
        if !dispatch::is_canonical_12(&pk[..POLY_BYTES * P::K]) {
            return Err(Error::Encoding(
                "ML-KEM encapsulation key: coefficient >= q (modulus check)",
            ));
        }
        let h = crate::hash::h(pk);
        let mut m = [0u8; 32];
        rng.fill_bytes(&mut m);
        let mut key = [0u8; 32];
        dispatch::encaps::<P>(pk, &h, &m, ct, &mut key);
        ss.copy_from_slice(&key);
        m.zeroize();
        key.zeroize();
        Ok(())
    }

    fn decaps(&self, sk: &[u8], ct: &[u8], ss: &mut [u8]) -> Result<(), Error> {
        check_len("shared secret buffer", 32, ss.len())?;
        check_len("ML-KEM decapsulation key", P::DK_BYTES, sk.len())?;
        let off = POLY_BYTES * P::K;
        let ek = &sk[off..off + P::EK_BYTES];
        let h = &sk[off + P::EK_BYTES..off + P::EK_BYTES + 32];
        // Public data (ek and H(ek)); compared in constant time anyway.
        if ct::eq_mask(&crate::hash::h(ek), h) != 0xFF {
            return Err(Error::InvalidKey(
                "ML-KEM decapsulation key: H(ek) does not match (hash check)",
            ));
        }
        if !dispatch::is_canonical_12(&ek[..off]) {
            return Err(Error::Encoding(
                "ML-KEM decapsulation key: embedded ek has a coefficient >= q",
            ));
        }
        check_len("ML-KEM ciphertext", <P as ParameterSet>::CT_BYTES, ct.len())?;
        let mut key = [0u8; 32];
        dispatch::decaps::<P>(sk, ct, &mut key);
        ss.copy_from_slice(&key);
        key.zeroize();
        Ok(())
    }

    fn sk_public_ranges(&self) -> &'static [core::ops::Range<usize>] {
        SK_PUBLIC[P::K]
    }
}
