//! Heap-held prepared keys of the dynamic API (feature `alloc`): a key
//! checked once, with what the scheme derived from it, erased behind one
//! type per role.

use alloc::boxed::Box;
use core::fmt;

use zeroize::Zeroize;

use crate::bytes::{ByteArray, array_mut, array_ref};
use crate::dynamic::{need, sign_checked};
use crate::kem::{Kem, PreparedDk, PreparedEk};
use crate::sig::{PreparedSk, PreparedVk, SignOptions, SignatureScheme};
use crate::{AlgInfo, CryptoRng, Error};

/// A heap copy of `bytes` as `A`, with the length error naming `what`.
fn boxed<A: ByteArray>(what: &'static str, bytes: &[u8]) -> Result<Box<A>, Error> {
    A::boxed_from(bytes).ok_or(Error::Length {
        what,
        expected: A::LEN,
        got: bytes.len(),
    })
}

trait ErasedEk: Send + Sync {
    fn info(&self) -> &'static AlgInfo;
    fn bytes(&self) -> &[u8];
    fn encaps(&self, rng: &mut dyn CryptoRng, ct: &mut [u8], ss: &mut [u8]) -> Result<(), Error>;
    fn encaps_derand(&self, m: &[u8], ct: &mut [u8], ss: &mut [u8]) -> Result<(), Error>;
}

struct Ek<P: Kem> {
    bytes: Box<P::EkBytes>,
    state: P::EkState,
}

impl<P: Kem> ErasedEk for Ek<P> {
    fn info(&self) -> &'static AlgInfo {
        const { &P::INFO }
    }
    fn bytes(&self) -> &[u8] {
        self.bytes.as_ref().as_ref()
    }
    fn encaps(&self, rng: &mut dyn CryptoRng, ct: &mut [u8], ss: &mut [u8]) -> Result<(), Error> {
        let ct = array_mut::<P::CtBytes>("ciphertext buffer", ct)?;
        let ss = array_mut::<P::SsBytes>("shared secret buffer", ss)?;
        P::encaps_into(PreparedEk::new(&*self.bytes, &self.state), rng, ct, ss);
        Ok(())
    }
    fn encaps_derand(&self, m: &[u8], ct: &mut [u8], ss: &mut [u8]) -> Result<(), Error> {
        let m = array_ref::<P::EncapsSeed>("encapsulation randomness", m)?;
        let ct = array_mut::<P::CtBytes>("ciphertext buffer", ct)?;
        let ss = array_mut::<P::SsBytes>("shared secret buffer", ss)?;
        P::encaps_derand_into(PreparedEk::new(&*self.bytes, &self.state), m, ct, ss)
    }
}

pub(super) fn ek<P: Kem>(bytes: &[u8]) -> Result<PreparedEncapsKey, Error> {
    let bytes = boxed::<P::EkBytes>("encapsulation key", bytes)?;
    let state = P::prepare_ek(&bytes)?;
    Ok(PreparedEncapsKey(Box::new(Ek::<P> { bytes, state })))
}

/// An encapsulation key checked once (see [`crate::DynKem::prepare_ek`]).
pub struct PreparedEncapsKey(Box<dyn ErasedEk>);

impl PreparedEncapsKey {
    /// The parameter set.
    #[must_use]
    pub fn info(&self) -> &'static AlgInfo {
        self.0.info()
    }

    /// The encoded key.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        self.0.bytes()
    }

    /// Encapsulates to this key, writing `ct` and `ss`.
    ///
    /// # Errors
    /// [`Error::Length`] for wrong buffer sizes.
    pub fn encaps(
        &self,
        rng: &mut dyn CryptoRng,
        ct: &mut [u8],
        ss: &mut [u8],
    ) -> Result<(), Error> {
        self.0.encaps(rng, ct, ss)
    }

    /// Deterministic encapsulation with the randomness `m`.
    ///
    /// # Errors
    /// [`Error::Length`]; [`Error::Unsupported`] if the standard defines
    /// none.
    pub fn encaps_derand(&self, m: &[u8], ct: &mut [u8], ss: &mut [u8]) -> Result<(), Error> {
        self.0.encaps_derand(m, ct, ss)
    }
}

impl fmt::Debug for PreparedEncapsKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PreparedEncapsKey({})", self.info().name)
    }
}

trait ErasedDk: Send + Sync {
    fn info(&self) -> &'static AlgInfo;
    fn decaps(&self, ct: &[u8], ss: &mut [u8]) -> Result<(), Error>;
}

struct Dk<P: Kem> {
    bytes: Box<P::DkBytes>,
    state: P::DkState,
}

impl<P: Kem> Drop for Dk<P> {
    fn drop(&mut self) {
        self.bytes.zeroize();
        self.state.zeroize();
    }
}

impl<P: Kem> ErasedDk for Dk<P> {
    fn info(&self) -> &'static AlgInfo {
        const { &P::INFO }
    }
    fn decaps(&self, ct: &[u8], ss: &mut [u8]) -> Result<(), Error> {
        let ct = array_ref::<P::CtBytes>("ciphertext", ct)?;
        let ss = array_mut::<P::SsBytes>("shared secret buffer", ss)?;
        P::decaps_into(PreparedDk::new(&*self.bytes, &self.state), ct, ss);
        Ok(())
    }
}

pub(super) fn dk<P: Kem>(bytes: &[u8]) -> Result<PreparedDecapsKey, Error> {
    let mut bytes = boxed::<P::DkBytes>("decapsulation key", bytes)?;
    match P::prepare_dk(&bytes) {
        Ok(state) => Ok(PreparedDecapsKey(Box::new(Dk::<P> { bytes, state }))),
        Err(e) => {
            bytes.zeroize();
            Err(e)
        }
    }
}

/// A decapsulation key checked once (see [`crate::DynKem::prepare_dk`]).
/// Wiped on drop.
pub struct PreparedDecapsKey(Box<dyn ErasedDk>);

impl PreparedDecapsKey {
    /// The parameter set.
    #[must_use]
    pub fn info(&self) -> &'static AlgInfo {
        self.0.info()
    }

    /// Decapsulates `ct` into `ss` (implicit rejection).
    ///
    /// # Errors
    /// [`Error::Length`] for wrong sizes only.
    pub fn decaps(&self, ct: &[u8], ss: &mut [u8]) -> Result<(), Error> {
        self.0.decaps(ct, ss)
    }
}

impl fmt::Debug for PreparedDecapsKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PreparedDecapsKey({})(..)", self.info().name)
    }
}

trait ErasedVk: Send + Sync {
    fn info(&self) -> &'static AlgInfo;
    fn bytes(&self) -> &[u8];
    fn verify(&self, msg: &[u8], opts: &SignOptions<'_>, sig: &[u8]) -> Result<(), Error>;
}

struct Vk<P: SignatureScheme> {
    bytes: Box<P::VkBytes>,
    state: P::VkState,
}

impl<P: SignatureScheme> ErasedVk for Vk<P> {
    fn info(&self) -> &'static AlgInfo {
        const { &P::INFO }
    }
    fn bytes(&self) -> &[u8] {
        self.bytes.as_ref().as_ref()
    }
    fn verify(&self, msg: &[u8], opts: &SignOptions<'_>, sig: &[u8]) -> Result<(), Error> {
        let opts = crate::VerifyChecked::new(opts)?;
        P::verify_prepared(PreparedVk::new(&*self.bytes, &self.state), msg, &opts, sig)
    }
}

pub(super) fn vk<P: SignatureScheme>(bytes: &[u8]) -> Result<PreparedVerifyingKey, Error> {
    let bytes = boxed::<P::VkBytes>("verifying key", bytes)?;
    let state = P::prepare_vk(&bytes)?;
    Ok(PreparedVerifyingKey(Box::new(Vk::<P> { bytes, state })))
}

/// A verifying key checked once (see [`crate::DynSig::prepare_vk`]).
pub struct PreparedVerifyingKey(Box<dyn ErasedVk>);

impl PreparedVerifyingKey {
    /// The parameter set.
    #[must_use]
    pub fn info(&self) -> &'static AlgInfo {
        self.0.info()
    }

    /// The encoded key.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        self.0.bytes()
    }

    /// Verifies `sig` on `msg` with `opts`.
    ///
    /// # Errors
    /// [`Error::Verification`], or an option error.
    pub fn verify(&self, msg: &[u8], opts: &SignOptions<'_>, sig: &[u8]) -> Result<(), Error> {
        self.0.verify(msg, opts, sig)
    }
}

impl fmt::Debug for PreparedVerifyingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PreparedVerifyingKey({})", self.info().name)
    }
}

trait ErasedSk: Send + Sync {
    fn info(&self) -> &'static AlgInfo;
    fn sign(
        &self,
        rng: &mut dyn CryptoRng,
        msg: &[u8],
        opts: &SignOptions<'_>,
        sig: &mut [u8],
    ) -> Result<usize, Error>;
    fn sign_message(
        &self,
        rng: &mut dyn CryptoRng,
        msg: &[u8],
        sm: &mut [u8],
    ) -> Result<usize, Error>;
}

struct Sk<P: SignatureScheme> {
    bytes: Box<P::SkBytes>,
    state: P::SkState,
}

impl<P: SignatureScheme> Drop for Sk<P> {
    fn drop(&mut self) {
        self.bytes.zeroize();
        self.state.zeroize();
    }
}

impl<P: SignatureScheme> ErasedSk for Sk<P> {
    fn info(&self) -> &'static AlgInfo {
        const { &P::INFO }
    }
    fn sign(
        &self,
        rng: &mut dyn CryptoRng,
        msg: &[u8],
        opts: &SignOptions<'_>,
        sig: &mut [u8],
    ) -> Result<usize, Error> {
        sign_checked(
            PreparedSk::<P>::new(&*self.bytes, &self.state),
            rng,
            msg,
            opts,
            sig,
        )
    }
    fn sign_message(
        &self,
        rng: &mut dyn CryptoRng,
        msg: &[u8],
        sm: &mut [u8],
    ) -> Result<usize, Error> {
        need(
            "signed message",
            P::signed_message_bytes(msg.len()),
            sm.len(),
        )?;
        P::sign_message_into(PreparedSk::new(&*self.bytes, &self.state), msg, rng, sm)
    }
}

pub(super) fn sk<P: SignatureScheme>(bytes: &[u8]) -> Result<PreparedSigningKey, Error> {
    let mut bytes = boxed::<P::SkBytes>("signing key", bytes)?;
    match P::prepare_sk(&bytes) {
        Ok(state) => Ok(PreparedSigningKey(Box::new(Sk::<P> { bytes, state }))),
        Err(e) => {
            bytes.zeroize();
            Err(e)
        }
    }
}

/// A signing key checked once (see [`crate::DynSig::prepare_sk`]).
/// Wiped on drop.
pub struct PreparedSigningKey(Box<dyn ErasedSk>);

impl PreparedSigningKey {
    /// The parameter set.
    #[must_use]
    pub fn info(&self) -> &'static AlgInfo {
        self.0.info()
    }

    /// Signs `msg` with `opts` into `sig`, returning the length.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`], option errors, scheme failures.
    pub fn sign(
        &self,
        rng: &mut dyn CryptoRng,
        msg: &[u8],
        opts: &SignOptions<'_>,
        sig: &mut [u8],
    ) -> Result<usize, Error> {
        self.0.sign(rng, msg, opts, sig)
    }

    /// The NIST signed message of `msg`.
    ///
    /// # Errors
    /// As [`PreparedSigningKey::sign`].
    pub fn sign_message(
        &self,
        rng: &mut dyn CryptoRng,
        msg: &[u8],
        sm: &mut [u8],
    ) -> Result<usize, Error> {
        self.0.sign_message(rng, msg, sm)
    }
}

impl fmt::Debug for PreparedSigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PreparedSigningKey({})(..)", self.info().name)
    }
}
