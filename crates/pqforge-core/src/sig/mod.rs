//! The signature contract ([`SignatureScheme`]), the signing options
//! ([`SignOptions`]) and the typed API generated from them.
//!
//! A parameter set implements [`SignatureScheme`] once: key generation into
//! the caller's arrays, and signing / verification on *prepared* keys
//! ([`PreparedSk`], [`PreparedVk`]) with a [`SignOptions`] (context string,
//! pre-hash, external μ, hedged or deterministic). Core checks the options
//! against the set's [`SignCaps`] first, so an option a scheme does not
//! define is refused with [`Error::Unsupported`], never ignored.

use core::fmt;
use core::ops::Range;

use zeroize::Zeroize;

pub mod mu;
mod options;
mod types;

pub use options::{
    Checked, HashAlg, MessageMode, SignCaps, SignChecked, SignOptions, VerifyChecked,
};
pub use types::{Signature, SigningKey, VerifyingKey};

use crate::bytes::{ByteArray, array_ref};
use crate::keys::prepared_view;
use crate::{AlgInfo, CryptoRng, Error};

// ---------------------------------------------------------------- contract

/// A signature scheme: the contract one parameter set implements.
///
/// **Implementors** provide the associated types and the in-place
/// operations. The types enforce the preconditions, also for direct calls:
/// options reach [`SignatureScheme::sign_into`] and
/// [`SignatureScheme::verify_prepared`] only as [`SignChecked`] /
/// [`VerifyChecked`] (checked against `INFO.sign`), the signature buffer is
/// a whole `SigBytes`, keys come as views that passed `prepare_*`.
///
/// **Users** call the provided typed functions ([`SignatureScheme::keygen`],
/// [`SignatureScheme::sign`], [`SignatureScheme::verify`], ...).
pub trait SignatureScheme: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// Name, sizes, OIDs, signing options, ... of this parameter set.
    const INFO: AlgInfo;
    /// Byte ranges of the encoded signing key that are public.
    const SK_PUBLIC: &'static [Range<usize>] = &[];
    /// The backends of the crate that implements this set, and the one its
    /// dispatch picks on this CPU (reports and benchmarks:
    /// [`crate::DynSig::backend`]). A crate that uses
    /// [`crate::backend_dispatch!`] gives the generated `BACKENDS`.
    const BACKENDS: crate::cpu::Backends;

    /// Verifying-key storage, `[u8; INFO.pk_bytes]`.
    type VkBytes: ByteArray;
    /// Signing-key storage, `[u8; INFO.sk_bytes]`.
    type SkBytes: ByteArray;
    /// Signature storage, `[u8; INFO.sig_bytes]` (the maximum length).
    type SigBytes: ByteArray;
    /// Seed of deterministic key generation.
    type KeygenSeed: ByteArray;
    /// What [`SignatureScheme::prepare_vk`] derives.
    type VkState: Clone + Default + Send + Sync + 'static;
    /// What [`SignatureScheme::prepare_sk`] derives (secret).
    type SkState: Zeroize + Default + Send + Sync + 'static;

    /// Checks a verifying key and derives its state.
    ///
    /// # Errors
    /// [`Error::Encoding`] / [`Error::InvalidKey`].
    fn prepare_vk(vk: &Self::VkBytes) -> Result<Self::VkState, Error>;

    /// Checks a signing key and derives its state.
    ///
    /// # Errors
    /// [`Error::Encoding`] / [`Error::InvalidKey`].
    fn prepare_sk(sk: &Self::SkBytes) -> Result<Self::SkState, Error>;

    /// The consistency check of a signing key that costs too much for
    /// [`SignatureScheme::prepare_sk`], which runs on every `TryFrom`: for
    /// SLH-DSA, recomputing PK.root from SK.seed and PK.seed (one key
    /// generation). Keys loaded from key files run it
    /// ([`crate::keyfile::signing_key_from_parts`]); the default has nothing
    /// to add.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] with the reason.
    fn check_sk_consistency(sk: PreparedSk<'_, Self>) -> Result<(), Error> {
        let _ = sk;
        Ok(())
    }

    /// Deterministic key generation, with the states of the new keys.
    fn keygen_derand_into(
        seed: &Self::KeygenSeed,
        vk: &mut Self::VkBytes,
        sk: &mut Self::SkBytes,
    ) -> (Self::VkState, Self::SkState);

    /// Randomised key generation (default: the seed in one `fill_bytes` call).
    fn keygen_into<R: CryptoRng + ?Sized>(
        rng: &mut R,
        vk: &mut Self::VkBytes,
        sk: &mut Self::SkBytes,
    ) -> (Self::VkState, Self::SkState) {
        let mut seed = Self::KeygenSeed::zeroed();
        rng.fill_bytes(seed.as_mut());
        let st = Self::keygen_derand_into(&seed, vk, sk);
        seed.zeroize();
        st
    }

    /// The verifying key of a signing key.
    fn verifying_key_into(sk: PreparedSk<'_, Self>, vk: &mut Self::VkBytes) -> Self::VkState;

    /// Signs `msg` into `sig`, returning the signature length (at most
    /// `INFO.sig_bytes`; variable-length signatures fill a prefix).
    ///
    /// # Errors
    /// Scheme-specific failures (for example an invalid basis).
    fn sign_into<R: CryptoRng + ?Sized>(
        sk: PreparedSk<'_, Self>,
        msg: &[u8],
        opts: &SignChecked<'_, Self>,
        rng: &mut R,
        sig: &mut Self::SigBytes,
    ) -> Result<usize, Error>;

    /// Verifies `sig` on `msg`.
    ///
    /// # Errors
    /// [`Error::Verification`] for every signature that is not accepted.
    fn verify_prepared(
        vk: PreparedVk<'_, Self>,
        msg: &[u8],
        opts: &VerifyChecked<'_, Self>,
        sig: &[u8],
    ) -> Result<(), Error>;

    /// Bytes of the NIST signed message (`crypto_sign`) of an `mlen`-byte
    /// message, at most (default: signature, then message).
    #[must_use]
    fn signed_message_bytes(mlen: usize) -> usize {
        Self::INFO.sig_bytes.saturating_add(mlen)
    }

    /// The NIST signed message of `msg` (the format of the scheme's official
    /// KAT files; default `sig || msg`), drawing randomness like
    /// `crypto_sign`, returning its length.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] if `sm` is shorter than
    /// [`SignatureScheme::signed_message_bytes`]; as
    /// [`SignatureScheme::sign_into`].
    fn sign_message_into<R: CryptoRng + ?Sized>(
        sk: PreparedSk<'_, Self>,
        msg: &[u8],
        rng: &mut R,
        sm: &mut [u8],
    ) -> Result<usize, Error> {
        need_signed_message(Self::signed_message_bytes(msg.len()), sm.len())?;
        let mut sig = Self::SigBytes::zeroed();
        let n = Self::sign_into(
            sk,
            msg,
            &SignChecked::new(&SignOptions::new())?,
            rng,
            &mut sig,
        )?;
        sm[..n].copy_from_slice(&sig.as_ref()[..n]);
        let end = n + msg.len();
        sm[n..end].copy_from_slice(msg);
        Ok(end)
    }

    /// Opens a NIST signed message: verifies it and returns the message.
    /// The default reads a fixed-length signature followed by the message.
    ///
    /// # Errors
    /// [`Error::Verification`] for every rejected input.
    fn open_into<'m>(vk: PreparedVk<'_, Self>, sm: &'m [u8]) -> Result<&'m [u8], Error> {
        let n = Self::INFO.sig_bytes;
        if sm.len() < n {
            return Err(Error::Verification);
        }
        let (sig, msg) = sm.split_at(n);
        Self::verify_prepared(vk, msg, &VerifyChecked::new(&SignOptions::new())?, sig)?;
        Ok(msg)
    }

    // ------------------------------------------------------------------
    // The typed API (provided; do not override).

    /// Generates a key pair (prepared). When the seed is a private-key form
    /// of this set, the seed is drawn with one `fill_bytes` call and kept in
    /// the signing key ([`SigningKey::seed`]).
    fn keygen<R: CryptoRng + ?Sized>(rng: &mut R) -> (VerifyingKey<Self>, SigningKey<Self>) {
        let () = sig_sizes_ok::<Self>();
        if Self::INFO.key_forms.seed {
            let mut seed = Self::KeygenSeed::zeroed();
            rng.fill_bytes(seed.as_mut());
            let keys = Self::keygen_derand(&seed);
            seed.zeroize();
            return keys;
        }
        let mut sk = SigningKey::<Self>::blank();
        (sk.vk.state, sk.state) = Self::keygen_into(rng, &mut sk.vk.bytes, &mut sk.bytes);
        (sk.vk.clone(), sk)
    }

    /// Deterministic key generation from `seed`.
    fn keygen_derand(seed: &Self::KeygenSeed) -> (VerifyingKey<Self>, SigningKey<Self>) {
        let () = sig_sizes_ok::<Self>();
        let mut sk = SigningKey::<Self>::blank();
        (sk.vk.state, sk.state) = Self::keygen_derand_into(seed, &mut sk.vk.bytes, &mut sk.bytes);
        if Self::INFO.key_forms.seed {
            sk.seed = *seed;
            sk.has_seed = true;
        }
        (sk.vk.clone(), sk)
    }

    /// Signs `msg` with the default options (pure, empty context, hedged).
    ///
    /// # Errors
    /// As [`SignatureScheme::sign_with`].
    fn sign<R: CryptoRng + ?Sized>(
        sk: &SigningKey<Self>,
        msg: &[u8],
        rng: &mut R,
    ) -> Result<Signature<Self>, Error> {
        Self::sign_with(sk, msg, &SignOptions::new(), rng)
    }

    /// Signs `msg` with `opts`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for an option the set does not define;
    /// [`Error::InvalidInput`] for an over-long context; scheme failures.
    fn sign_with<R: CryptoRng + ?Sized>(
        sk: &SigningKey<Self>,
        msg: &[u8],
        opts: &SignOptions<'_>,
        rng: &mut R,
    ) -> Result<Signature<Self>, Error> {
        let opts = SignChecked::new(opts)?;
        let mut s = Signature::<Self> {
            bytes: Self::SigBytes::zeroed(),
            len: 0,
        };
        s.len = Self::sign_into(sk.prepared(), msg, &opts, rng, &mut s.bytes)?;
        Ok(s)
    }

    /// Verifies `sig` on `msg` with the default options.
    ///
    /// # Errors
    /// [`Error::Verification`] for every signature that is not accepted.
    fn verify(vk: &VerifyingKey<Self>, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        Self::verify_with(vk, msg, &SignOptions::new(), sig)
    }

    /// Verifies `sig` on `msg` with `opts`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] / [`Error::InvalidInput`] for bad options;
    /// [`Error::Verification`] for every signature that is not accepted.
    fn verify_with(
        vk: &VerifyingKey<Self>,
        msg: &[u8],
        opts: &SignOptions<'_>,
        sig: &[u8],
    ) -> Result<(), Error> {
        Self::verify_prepared(vk.prepared(), msg, &VerifyChecked::new(opts)?, sig)
    }

    /// Opens a NIST signed message, returning the message.
    ///
    /// # Errors
    /// [`Error::Verification`] for every rejected input.
    fn open<'m>(vk: &VerifyingKey<Self>, sm: &'m [u8]) -> Result<&'m [u8], Error> {
        Self::open_into(vk.prepared(), sm)
    }

    /// Generates a key pair with the operating system's random generator
    /// (feature `getrandom`).
    ///
    /// # Panics
    /// If the operating system's generator fails.
    #[cfg(feature = "getrandom")]
    #[must_use]
    fn generate() -> (VerifyingKey<Self>, SigningKey<Self>) {
        Self::keygen(&mut rand_core::UnwrapErr(getrandom::SysRng))
    }
}

/// Compile-time check that the array types match [`AlgInfo`].
pub(crate) const fn sig_sizes_ok<P: SignatureScheme>() {
    const {
        let i = &P::INFO;
        assert!(matches!(i.kind, crate::Kind::Sig));
        assert!(P::VkBytes::LEN == i.pk_bytes);
        assert!(P::SkBytes::LEN == i.sk_bytes);
        assert!(P::SigBytes::LEN == i.sig_bytes);
        assert!(P::KeygenSeed::LEN == i.keygen_seed_bytes);
    }
}

prepared_view!(
    /// A checked verifying key: its bytes and derived state, borrowed.
    PreparedVk: SignatureScheme, VkBytes, VkState, prepare_vk, ""
);
prepared_view!(
    /// A checked signing key: its bytes and derived state, borrowed.
    PreparedSk: SignatureScheme, SkBytes, SkState, prepare_sk, " (secret)"
);

/// Checks `bytes` as a verifying key of `P`.
///
/// # Errors
/// [`Error::Length`], or the scheme's key checks.
pub fn prepare_vk<P: SignatureScheme>(bytes: &[u8]) -> Result<(&P::VkBytes, P::VkState), Error> {
    let b = array_ref::<P::VkBytes>("verifying key", bytes)?;
    Ok((b, P::prepare_vk(b)?))
}

/// Checks `bytes` as a signing key of `P`.
///
/// # Errors
/// [`Error::Length`], or the scheme's key checks.
pub fn prepare_sk<P: SignatureScheme>(bytes: &[u8]) -> Result<(&P::SkBytes, P::SkState), Error> {
    let b = array_ref::<P::SkBytes>("signing key", bytes)?;
    Ok((b, P::prepare_sk(b)?))
}

/// `got >= needed` for a signed-message buffer, else
/// [`Error::BufferTooSmall`] (public so that scheme overrides of
/// [`SignatureScheme::sign_message_into`] check the same way).
///
/// # Errors
/// [`Error::BufferTooSmall`].
pub fn need_signed_message(needed: usize, got: usize) -> Result<(), Error> {
    if got < needed {
        Err(Error::BufferTooSmall {
            what: "signed message",
            needed,
            got,
        })
    } else {
        Ok(())
    }
}
