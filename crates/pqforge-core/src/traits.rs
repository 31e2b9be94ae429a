//! The typed API: one type per parameter set, exact byte-array sizes, no heap.

use crate::{AlgInfo, CryptoRng, Error};

/// A key-encapsulation mechanism, one implementation per parameter set.
///
/// Keys and ciphertexts are fixed-size byte-array newtypes, so everything
/// lives on the stack (or wherever the caller puts it). Secret types wipe
/// themselves on drop.
///
/// The randomised entry points draw their randomness from `rng` in exactly
/// the order of the scheme's reference implementation, so that running them
/// on a KAT generator (see [`crate::kat`]) reproduces the official `.rsp`.
pub trait Kem {
    /// Name, sizes, category and status of this parameter set.
    const INFO: AlgInfo;
    /// Encapsulation (public) key length in bytes.
    const PK_BYTES: usize = Self::INFO.pk_bytes;
    /// Decapsulation (secret) key length in bytes.
    const SK_BYTES: usize = Self::INFO.sk_bytes;
    /// Ciphertext length in bytes.
    const CT_BYTES: usize = Self::INFO.ct_bytes;
    /// Shared-secret length in bytes.
    const SS_BYTES: usize = Self::INFO.ss_bytes;

    /// Encapsulation key; `TryFrom<&[u8]>` performs every input check the
    /// specification requires.
    type EncapsKey: AsRef<[u8]> + for<'a> TryFrom<&'a [u8], Error = Error> + Clone;
    /// Decapsulation key (secret; zeroized on drop).
    type DecapsKey: AsRef<[u8]> + for<'a> TryFrom<&'a [u8], Error = Error>;
    /// Ciphertext.
    type Ciphertext: AsRef<[u8]> + for<'a> TryFrom<&'a [u8], Error = Error> + Clone;
    /// Shared secret (zeroized on drop).
    type SharedSecret: AsRef<[u8]>;

    /// Generates a key pair.
    fn keygen<R: CryptoRng + ?Sized>(rng: &mut R) -> (Self::EncapsKey, Self::DecapsKey);

    /// Encapsulates a fresh shared secret to `ek`.
    fn encaps<R: CryptoRng + ?Sized>(
        ek: &Self::EncapsKey,
        rng: &mut R,
    ) -> (Self::Ciphertext, Self::SharedSecret);

    /// Decapsulates `ct`. Never fails: a ciphertext that does not decrypt
    /// consistently yields the implicit-rejection secret.
    fn decaps(dk: &Self::DecapsKey, ct: &Self::Ciphertext) -> Self::SharedSecret;
}

/// A signature scheme, one implementation per parameter set.
pub trait Signature {
    /// Name, sizes, category and status of this parameter set.
    const INFO: AlgInfo;
    /// Verifying (public) key length in bytes.
    const PK_BYTES: usize = Self::INFO.pk_bytes;
    /// Signing (secret) key length in bytes.
    const SK_BYTES: usize = Self::INFO.sk_bytes;
    /// Maximum signature length in bytes.
    const SIG_BYTES: usize = Self::INFO.sig_bytes;

    /// Verifying key; `TryFrom<&[u8]>` checks the encoding.
    type VerifyingKey: AsRef<[u8]> + for<'a> TryFrom<&'a [u8], Error = Error> + Clone;
    /// Signing key (secret; zeroized on drop).
    type SigningKey: AsRef<[u8]> + for<'a> TryFrom<&'a [u8], Error = Error>;

    /// Generates a key pair.
    fn keygen<R: CryptoRng + ?Sized>(rng: &mut R) -> (Self::VerifyingKey, Self::SigningKey);

    /// Signs `msg` into `sig`, returning the signature length.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] if `sig` is shorter than the signature;
    /// scheme-specific input errors (for example an over-long context).
    fn sign<R: CryptoRng + ?Sized>(
        sk: &Self::SigningKey,
        msg: &[u8],
        rng: &mut R,
        sig: &mut [u8],
    ) -> Result<usize, Error>;

    /// Verifies `sig` on `msg`.
    ///
    /// # Errors
    /// [`Error::Verification`] for every signature that is not accepted.
    fn verify(vk: &Self::VerifyingKey, msg: &[u8], sig: &[u8]) -> Result<(), Error>;

    /// Size of the buffer [`Signature::kat_sign`] needs for a message of
    /// `mlen` bytes (default: `SIG_BYTES + mlen`).
    #[must_use]
    fn kat_sm_bytes(mlen: usize) -> usize {
        Self::SIG_BYTES + mlen
    }

    /// The signed message `sm` as the scheme's official KAT generator prints it
    /// (default: `sig || msg`), drawing randomness like `crypto_sign`.
    ///
    /// # Errors
    /// As [`Signature::sign`].
    fn kat_sign<R: CryptoRng + ?Sized>(
        sk: &Self::SigningKey,
        msg: &[u8],
        rng: &mut R,
        sm: &mut [u8],
    ) -> Result<usize, Error> {
        let n = Self::sign(sk, msg, rng, sm)?;
        let end = n + msg.len();
        if sm.len() < end {
            return Err(Error::BufferTooSmall {
                what: "signed message",
                needed: end,
                got: sm.len(),
            });
        }
        sm[n..end].copy_from_slice(msg);
        Ok(end)
    }
}
