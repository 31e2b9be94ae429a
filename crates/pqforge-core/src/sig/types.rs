//! The typed keys and signatures of every signature parameter set.

use core::fmt;

use super::{PreparedSk, PreparedVk, SignatureScheme, prepare_vk};
use crate::Error;
use crate::bytes::{ByteArray, array_ref};
use crate::keys::{public_key, secret_key_common};

// ---------------------------------------------------------------- VerifyingKey

public_key!(
    /// A verifying (public) key of parameter set `P`, checked once when built.
    VerifyingKey: SignatureScheme, VkBytes, VkState, PreparedVk, prepare_vk
);

// ---------------------------------------------------------------- SigningKey

/// A signing (secret) key of parameter set `P`, checked once when built,
/// with its verifying key (and its seed, when made from one and the seed is
/// a private-key form of `P`). Wiped on drop.
pub struct SigningKey<P: SignatureScheme> {
    pub(super) bytes: P::SkBytes,
    pub(super) state: P::SkState,
    /// The key-generation seed when `has_seed` (all zero otherwise; see
    /// [`crate::DecapsKey`]).
    pub(super) seed: P::KeygenSeed,
    pub(super) has_seed: bool,
    pub(super) vk: VerifyingKey<P>,
}

impl<P: SignatureScheme> SigningKey<P> {
    pub(super) fn blank() -> Self {
        Self {
            bytes: P::SkBytes::zeroed(),
            state: P::SkState::default(),
            seed: P::KeygenSeed::zeroed(),
            has_seed: false,
            vk: VerifyingKey::blank(),
        }
    }

    /// The verifying key.
    #[must_use]
    pub fn verifying_key(&self) -> &VerifyingKey<P> {
        &self.vk
    }
}

secret_key_common!(SigningKey: SignatureScheme, SkBytes, PreparedSk, also wipes vk);

impl<P: SignatureScheme> TryFrom<&[u8]> for SigningKey<P> {
    type Error = Error;

    /// Checks the length and the encoding, and derives the verifying key.
    ///
    /// # Errors
    /// [`Error::Length`], [`Error::Encoding`] or [`Error::InvalidKey`].
    fn try_from(b: &[u8]) -> Result<Self, Error> {
        let mut k = Self::blank();
        k.bytes = *array_ref::<P::SkBytes>("signing key", b)?;
        k.state = P::prepare_sk(&k.bytes)?;
        k.vk.state = P::verifying_key_into(PreparedSk::new(&k.bytes, &k.state), &mut k.vk.bytes);
        Ok(k)
    }
}

// ---------------------------------------------------------------- Signature

/// A signature of parameter set `P` (up to `INFO.sig_bytes` bytes).
pub struct Signature<P: SignatureScheme> {
    pub(super) bytes: P::SigBytes,
    pub(super) len: usize,
}

impl<P: SignatureScheme> Signature<P> {
    /// The encoded signature.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes.as_ref()[..self.len]
    }
}

impl<P: SignatureScheme> TryFrom<&[u8]> for Signature<P> {
    type Error = Error;

    /// Checks that the length is at most the set's signature size (the
    /// encoding itself is checked by verification).
    ///
    /// # Errors
    /// [`Error::Length`].
    fn try_from(b: &[u8]) -> Result<Self, Error> {
        let mut bytes = P::SigBytes::zeroed();
        let dst = bytes.as_mut().get_mut(..b.len()).ok_or(Error::Length {
            what: "signature",
            expected: P::SigBytes::LEN,
            got: b.len(),
        })?;
        dst.copy_from_slice(b);
        Ok(Self {
            bytes,
            len: b.len(),
        })
    }
}

impl<P: SignatureScheme> AsRef<[u8]> for Signature<P> {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl<P: SignatureScheme> Clone for Signature<P> {
    fn clone(&self) -> Self {
        Self {
            bytes: self.bytes,
            len: self.len,
        }
    }
}

impl<P: SignatureScheme> PartialEq for Signature<P> {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl<P: SignatureScheme> Eq for Signature<P> {}

impl<P: SignatureScheme> fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature<{}>({} bytes)", P::INFO.name, self.len)
    }
}
