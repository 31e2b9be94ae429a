//! The byte-slice interface ([`DynKem`]) of each parameter set, used by the
//! registry, the CLI and the Cortex-M4 harness.
//!
//! It works on the caller's buffers directly: keys and ciphertexts are
//! validated in place and written into the output slices, never built as
//! typed values and copied (an HQC-5 ciphertext alone is 14 KB), which keeps
//! the peak stack of every operation to the working frame of the
//! arithmetic.

use core::marker::PhantomData;
use core::ops::Range;

use pqforge_core::{AlgInfo, CryptoRng, DynKem, Error, check_len};
use zeroize::Zeroize;

use crate::backend::Selected;
use crate::params::{MAX_K, ParameterSet, SALT_BYTES, SEED_BYTES, SS_BYTES};
use crate::types::{validate_decaps_key, validate_encaps_key};

/// The [`DynKem`] of parameter set `P` (see the module documentation).
pub struct HqcKem<P>(PhantomData<fn() -> P>);

impl<P> HqcKem<P> {
    /// The adapter.
    #[must_use]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<P> Default for HqcKem<P> {
    fn default() -> Self {
        Self::new()
    }
}

/// `ss` as the fixed-size shared-secret buffer, or a length error.
fn ss_buf(ss: &mut [u8]) -> Result<&mut [u8; SS_BYTES], Error> {
    let got = ss.len();
    ss.try_into().map_err(|_| Error::Length {
        what: "shared secret buffer",
        expected: SS_BYTES,
        got,
    })
}

impl<P: ParameterSet> DynKem for HqcKem<P> {
    fn info(&self) -> &'static AlgInfo {
        const { &P::ALG_INFO }
    }

    fn keygen(&self, rng: &mut dyn CryptoRng, pk: &mut [u8], sk: &mut [u8]) -> Result<(), Error> {
        check_len("public key buffer", P::ENCAPS_KEY_BYTES, pk.len())?;
        check_len("secret key buffer", P::DECAPS_KEY_BYTES, sk.len())?;
        let mut seed = [0u8; SEED_BYTES];
        rng.fill_bytes(&mut seed);
        Selected::best().keygen_into::<P>(&seed, pk, sk);
        seed.zeroize();
        Ok(())
    }

    fn encaps(
        &self,
        rng: &mut dyn CryptoRng,
        pk: &[u8],
        ct: &mut [u8],
        ss: &mut [u8],
    ) -> Result<(), Error> {
        validate_encaps_key::<P>(pk)?;
        check_len("ciphertext buffer", P::CIPHERTEXT_BYTES, ct.len())?;
        let ss = ss_buf(ss)?;
        // Same draws, in the same order, as the typed `Kem::encaps`.
        let mut m = [0u8; MAX_K];
        let mut salt = [0u8; SALT_BYTES];
        rng.fill_bytes(&mut m[..P::K]);
        rng.fill_bytes(&mut salt);
        Selected::best().encaps_into::<P>(pk, &m[..P::K], &salt, ct, ss);
        m.zeroize();
        Ok(())
    }

    fn decaps(&self, sk: &[u8], ct: &[u8], ss: &mut [u8]) -> Result<(), Error> {
        validate_decaps_key::<P>(sk)?;
        check_len("ciphertext", P::CIPHERTEXT_BYTES, ct.len())?;
        let ss = ss_buf(ss)?;
        Selected::best().decaps_into::<P>(sk, ct, ss);
        Ok(())
    }

    fn sk_public_ranges(&self) -> &'static [Range<usize>] {
        // The decapsulation key starts with the (public) encapsulation key.
        #[allow(clippy::single_range_in_vec_init)] // one range, not a Vec
        const {
            &[0..P::ENCAPS_KEY_BYTES]
        }
    }
}
