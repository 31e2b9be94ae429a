//! The dynamic layer, generated from the contracts: object-safe
//! [`DynKem`] / [`DynSig`] over byte slices, and the [`Scheme`] handle the
//! registry, the CLI and the Cortex-M4 harness walk.
//!
//! Two ways to call a scheme whose type is not known at compile time:
//!
//! * one-shot calls on encoded keys (`kem.decaps(dk, ct, ss)`): each call
//!   checks the key, on the stack, with no heap (the Cortex-M4 harness and
//!   the KAT transcripts use these);
//! * prepared keys (feature `alloc`): `kem.prepare_dk(dk)?` checks the key
//!   once and keeps what the scheme derives from it; every later
//!   `decaps` is the operation alone.

use core::marker::PhantomData;
use core::ops::Range;

use crate::bytes::{array_mut, array_ref};
use crate::cpu::Backends;
use crate::kem::{self, Kem, PreparedDk, PreparedEk};
use crate::keyfile::{self, PrivateKeyParts};
use crate::sig::{self, PreparedSk, PreparedVk, SignOptions, SignatureScheme};
use crate::{AlgInfo, CryptoRng, Error};

/// Object-safe KEM interface over byte slices (see the module documentation).
///
/// Every buffer must have exactly the size in [`DynKem::info`].
pub trait DynKem: Send + Sync {
    /// Metadata of this parameter set.
    fn info(&self) -> &'static AlgInfo;

    /// The backends of the crate that implements this set ([`Kem::BACKENDS`]).
    fn backends(&self) -> Backends;

    /// The backend the dispatch picks for this set on this CPU, now
    /// (`"portable"`, `"avx2"`, ...; after [`crate::cpu::disable_avx512`],
    /// never an AVX-512 one): what every figure of a benchmark ran on.
    ///
    /// ```ignore
    /// let kem = pqforge::Algorithm::find("ml-kem-768").unwrap().kem().unwrap();
    /// println!("{}: {}", kem.info().name, kem.backend()); // ml-kem-768: avx2
    /// assert!(kem.backends().is_available(kem.backend()));
    /// ```
    fn backend(&self) -> &'static str {
        self.backends().selected()
    }

    /// Generates a key pair into `ek` and `dk`.
    ///
    /// # Errors
    /// [`Error::Length`] if a buffer has the wrong size.
    fn keygen(&self, rng: &mut dyn CryptoRng, ek: &mut [u8], dk: &mut [u8]) -> Result<(), Error>;

    /// Deterministic key generation from `seed` (`info().keygen_seed_bytes`).
    ///
    /// # Errors
    /// [`Error::Length`] if the seed or a buffer has the wrong size.
    fn keygen_derand(&self, seed: &[u8], ek: &mut [u8], dk: &mut [u8]) -> Result<(), Error>;

    /// Checks `ek` and encapsulates to it, writing `ct` and `ss`.
    ///
    /// # Errors
    /// [`Error::Length`] for wrong sizes; the scheme's key checks.
    fn encaps(
        &self,
        rng: &mut dyn CryptoRng,
        ek: &[u8],
        ct: &mut [u8],
        ss: &mut [u8],
    ) -> Result<(), Error>;

    /// Deterministic encapsulation with the randomness `m`
    /// (`info().encaps_seed_bytes`).
    ///
    /// # Errors
    /// As [`DynKem::encaps`]; [`Error::Unsupported`] if the standard
    /// defines no deterministic encapsulation.
    fn encaps_derand(&self, ek: &[u8], m: &[u8], ct: &mut [u8], ss: &mut [u8])
    -> Result<(), Error>;

    /// Checks `dk` and decapsulates `ct` into `ss` (implicit rejection: a
    /// correctly sized ciphertext never gives an error).
    ///
    /// # Errors
    /// [`Error::Length`] for wrong sizes; the scheme's key checks.
    fn decaps(&self, dk: &[u8], ct: &[u8], ss: &mut [u8]) -> Result<(), Error>;

    /// Runs every check of an encapsulation key.
    ///
    /// # Errors
    /// [`Error::Length`], [`Error::Encoding`] or [`Error::InvalidKey`].
    fn check_ek(&self, ek: &[u8]) -> Result<(), Error>;

    /// Runs every check of a decapsulation key.
    ///
    /// # Errors
    /// [`Error::Length`], [`Error::Encoding`] or [`Error::InvalidKey`].
    fn check_dk(&self, dk: &[u8]) -> Result<(), Error>;

    /// Checks `ek` once, for many encapsulations.
    ///
    /// # Errors
    /// As [`DynKem::check_ek`].
    #[cfg(feature = "alloc")]
    fn prepare_ek(&self, ek: &[u8]) -> Result<PreparedEncapsKey, Error>;

    /// Checks `dk` once, for many decapsulations.
    ///
    /// # Errors
    /// As [`DynKem::check_dk`].
    #[cfg(feature = "alloc")]
    fn prepare_dk(&self, dk: &[u8]) -> Result<PreparedDecapsKey, Error>;

    /// Byte ranges of the encoded decapsulation key that are public.
    fn dk_public_ranges(&self) -> &'static [Range<usize>];

    /// Loads a private key from key-file parts (seed, expanded key, both,
    /// public key) into the expanded encoding `dk`, with every consistency
    /// check of [`crate::keyfile::decaps_key_from_parts`] (regeneration
    /// from the seed, `both` must agree, pairwise test of an expanded key).
    ///
    /// # Errors
    /// [`Error::InvalidKey`] with the reason; [`Error::Length`].
    fn import_private_key(&self, parts: &PrivateKeyParts<'_>, dk: &mut [u8]) -> Result<(), Error>;

    /// Writes the encapsulation key that `dk` embeds into `ek`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] if this set's decapsulation keys do not embed
    /// it (Classic McEliece); key and length errors.
    fn encaps_key_from_dk(&self, dk: &[u8], ek: &mut [u8]) -> Result<(), Error>;
}

/// Object-safe signature interface over byte slices.
pub trait DynSig: Send + Sync {
    /// Metadata of this parameter set.
    fn info(&self) -> &'static AlgInfo;

    /// The backends of the crate that implements this set
    /// ([`SignatureScheme::BACKENDS`]).
    fn backends(&self) -> Backends;

    /// The backend the dispatch picks for this set on this CPU, now (see
    /// [`DynKem::backend`]).
    ///
    /// ```ignore
    /// let sig = pqforge::Algorithm::find("ml-dsa-65").unwrap().sig().unwrap();
    /// println!("{}: {}", sig.info().name, sig.backend()); // ml-dsa-65: avx512
    /// ```
    fn backend(&self) -> &'static str {
        self.backends().selected()
    }

    /// Generates a key pair into `vk` and `sk`.
    ///
    /// # Errors
    /// [`Error::Length`] if a buffer has the wrong size.
    fn keygen(&self, rng: &mut dyn CryptoRng, vk: &mut [u8], sk: &mut [u8]) -> Result<(), Error>;

    /// Deterministic key generation from `seed`.
    ///
    /// # Errors
    /// [`Error::Length`] if the seed or a buffer has the wrong size.
    fn keygen_derand(&self, seed: &[u8], vk: &mut [u8], sk: &mut [u8]) -> Result<(), Error>;

    /// Signs `msg` with `opts`, returning the signature length written to
    /// `sig` (at least `info().sig_bytes` long).
    ///
    /// # Errors
    /// Key errors, [`Error::BufferTooSmall`], [`Error::Unsupported`] for an
    /// option the set does not define.
    fn sign(
        &self,
        rng: &mut dyn CryptoRng,
        sk: &[u8],
        msg: &[u8],
        opts: &SignOptions<'_>,
        sig: &mut [u8],
    ) -> Result<usize, Error>;

    /// Verifies `sig` on `msg` under `vk` with `opts`.
    ///
    /// # Errors
    /// [`Error::Verification`] (or a key or option error) if not accepted.
    fn verify(
        &self,
        vk: &[u8],
        msg: &[u8],
        opts: &SignOptions<'_>,
        sig: &[u8],
    ) -> Result<(), Error>;

    /// Buffer size [`DynSig::sign_message`] needs for an `mlen`-byte message.
    fn signed_message_bytes(&self, mlen: usize) -> usize;

    /// The NIST signed message of `msg` (the official KAT format).
    ///
    /// # Errors
    /// As [`DynSig::sign`].
    fn sign_message(
        &self,
        rng: &mut dyn CryptoRng,
        sk: &[u8],
        msg: &[u8],
        sm: &mut [u8],
    ) -> Result<usize, Error>;

    /// Opens a NIST signed message, returning the message.
    ///
    /// # Errors
    /// [`Error::Verification`] for every rejected input; key errors.
    fn open<'m>(&self, vk: &[u8], sm: &'m [u8]) -> Result<&'m [u8], Error>;

    /// Runs every check of a verifying key.
    ///
    /// # Errors
    /// [`Error::Length`], [`Error::Encoding`] or [`Error::InvalidKey`].
    fn check_vk(&self, vk: &[u8]) -> Result<(), Error>;

    /// Runs every check of a signing key.
    ///
    /// # Errors
    /// [`Error::Length`], [`Error::Encoding`] or [`Error::InvalidKey`].
    fn check_sk(&self, sk: &[u8]) -> Result<(), Error>;

    /// Writes the verifying key of `sk` into `vk`.
    ///
    /// # Errors
    /// Key errors; [`Error::Length`].
    fn verifying_key(&self, sk: &[u8], vk: &mut [u8]) -> Result<(), Error>;

    /// Checks `vk` once, for many verifications.
    ///
    /// # Errors
    /// As [`DynSig::check_vk`].
    #[cfg(feature = "alloc")]
    fn prepare_vk(&self, vk: &[u8]) -> Result<PreparedVerifyingKey, Error>;

    /// Checks `sk` once, for many signatures.
    ///
    /// # Errors
    /// As [`DynSig::check_sk`].
    #[cfg(feature = "alloc")]
    fn prepare_sk(&self, sk: &[u8]) -> Result<PreparedSigningKey, Error>;

    /// Byte ranges of the encoded signing key that are public.
    fn sk_public_ranges(&self) -> &'static [Range<usize>];

    /// Loads a private key from key-file parts into the expanded encoding
    /// `sk`, with every consistency check of
    /// [`crate::keyfile::signing_key_from_parts`].
    ///
    /// # Errors
    /// [`Error::InvalidKey`] with the reason; [`Error::Length`].
    fn import_private_key(&self, parts: &PrivateKeyParts<'_>, sk: &mut [u8]) -> Result<(), Error>;
}

/// A registered parameter set, dynamically typed.
#[derive(Clone, Copy)]
pub enum Scheme {
    /// A KEM.
    Kem(&'static dyn DynKem),
    /// A signature scheme.
    Sig(&'static dyn DynSig),
}

impl Scheme {
    /// The dynamic handle of the KEM `P`.
    #[must_use]
    pub const fn kem<P: Kem>() -> Self {
        Scheme::Kem(KemAlg::<P>::DYN)
    }

    /// The dynamic handle of the signature scheme `P`.
    #[must_use]
    pub const fn sig<P: SignatureScheme>() -> Self {
        Scheme::Sig(SigAlg::<P>::DYN)
    }

    /// Name, sizes, category, status, ...
    #[must_use]
    pub fn info(&self) -> &'static AlgInfo {
        match self {
            Scheme::Kem(k) => k.info(),
            Scheme::Sig(s) => s.info(),
        }
    }

    /// The backends of the crate that implements this set.
    #[must_use]
    pub fn backends(&self) -> Backends {
        match self {
            Scheme::Kem(k) => k.backends(),
            Scheme::Sig(s) => s.backends(),
        }
    }

    /// The backend the dispatch picks for this set on this CPU
    /// ([`DynKem::backend`], [`DynSig::backend`]).
    #[must_use]
    pub fn backend(&self) -> &'static str {
        self.backends().selected()
    }

    /// Byte ranges of the encoded secret key that are public.
    #[must_use]
    pub fn sk_public_ranges(&self) -> &'static [Range<usize>] {
        match self {
            Scheme::Kem(k) => k.dk_public_ranges(),
            Scheme::Sig(s) => s.sk_public_ranges(),
        }
    }

    /// Generates a key pair (either kind).
    ///
    /// # Errors
    /// [`Error::Length`] if a buffer has the wrong size.
    pub fn keygen(
        self,
        rng: &mut dyn CryptoRng,
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> Result<(), Error> {
        match self {
            Scheme::Kem(k) => k.keygen(rng, pk, sk),
            Scheme::Sig(s) => s.keygen(rng, pk, sk),
        }
    }
}

impl core::fmt::Debug for Scheme {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.info().name)
    }
}

/// The [`DynKem`] of the KEM `P` ([`KemAlg::DYN`], or [`Scheme::kem`]).
pub struct KemAlg<P>(PhantomData<fn() -> P>);

impl<P: Kem> KemAlg<P> {
    /// The dynamic interface of `P`.
    pub const DYN: &'static dyn DynKem = &KemAlg::<P>(PhantomData);
}

/// The [`DynSig`] of the signature scheme `P` ([`SigAlg::DYN`], or
/// [`Scheme::sig`]).
pub struct SigAlg<P>(PhantomData<fn() -> P>);

impl<P: SignatureScheme> SigAlg<P> {
    /// The dynamic interface of `P`.
    pub const DYN: &'static dyn DynSig = &SigAlg::<P>(PhantomData);
}

impl<P: Kem> DynKem for KemAlg<P> {
    fn info(&self) -> &'static AlgInfo {
        kem::sizes_ok::<P>();
        const { &P::INFO }
    }

    fn backends(&self) -> Backends {
        P::BACKENDS
    }

    fn keygen(&self, rng: &mut dyn CryptoRng, ek: &mut [u8], dk: &mut [u8]) -> Result<(), Error> {
        let ek = array_mut::<P::EkBytes>("encapsulation key buffer", ek)?;
        let dk = array_mut::<P::DkBytes>("decapsulation key buffer", dk)?;
        let _ = P::keygen_into(rng, ek, dk);
        Ok(())
    }

    fn keygen_derand(&self, seed: &[u8], ek: &mut [u8], dk: &mut [u8]) -> Result<(), Error> {
        let seed = array_ref::<P::KeygenSeed>("key-generation seed", seed)?;
        let ek = array_mut::<P::EkBytes>("encapsulation key buffer", ek)?;
        let dk = array_mut::<P::DkBytes>("decapsulation key buffer", dk)?;
        let _ = P::keygen_derand_into(seed, ek, dk);
        Ok(())
    }

    fn encaps(
        &self,
        rng: &mut dyn CryptoRng,
        ek: &[u8],
        ct: &mut [u8],
        ss: &mut [u8],
    ) -> Result<(), Error> {
        let ek = array_ref::<P::EkBytes>("encapsulation key", ek)?;
        // The state stays where `prepare_ek` put it (no second copy on the stack).
        let state = P::prepare_ek(ek);
        let state = state.as_ref().map_err(|e| *e)?;
        let ct = array_mut::<P::CtBytes>("ciphertext buffer", ct)?;
        let ss = array_mut::<P::SsBytes>("shared secret buffer", ss)?;
        P::encaps_into(PreparedEk::new(ek, state), rng, ct, ss);
        Ok(())
    }

    fn encaps_derand(
        &self,
        ek: &[u8],
        m: &[u8],
        ct: &mut [u8],
        ss: &mut [u8],
    ) -> Result<(), Error> {
        let ek = array_ref::<P::EkBytes>("encapsulation key", ek)?;
        let state = P::prepare_ek(ek);
        let state = state.as_ref().map_err(|e| *e)?;
        let m = array_ref::<P::EncapsSeed>("encapsulation randomness", m)?;
        let ct = array_mut::<P::CtBytes>("ciphertext buffer", ct)?;
        let ss = array_mut::<P::SsBytes>("shared secret buffer", ss)?;
        P::encaps_derand_into(PreparedEk::new(ek, state), m, ct, ss)
    }

    fn decaps(&self, dk: &[u8], ct: &[u8], ss: &mut [u8]) -> Result<(), Error> {
        let dk = array_ref::<P::DkBytes>("decapsulation key", dk)?;
        let mut state = P::prepare_dk(dk);
        let r = state.as_ref().map_err(|e| *e).and_then(|st| {
            let ct = array_ref::<P::CtBytes>("ciphertext", ct)?;
            let ss = array_mut::<P::SsBytes>("shared secret buffer", ss)?;
            P::decaps_into(PreparedDk::new(dk, st), ct, ss);
            Ok(())
        });
        if let Ok(st) = state.as_mut() {
            zeroize::Zeroize::zeroize(st);
        }
        r
    }

    fn check_ek(&self, ek: &[u8]) -> Result<(), Error> {
        kem::prepare_ek::<P>(ek).map(|_| ())
    }

    fn check_dk(&self, dk: &[u8]) -> Result<(), Error> {
        kem::prepare_dk::<P>(dk).map(|(_, mut s)| zeroize::Zeroize::zeroize(&mut s))
    }

    #[cfg(feature = "alloc")]
    fn prepare_ek(&self, ek: &[u8]) -> Result<PreparedEncapsKey, Error> {
        prepared::ek::<P>(ek)
    }

    #[cfg(feature = "alloc")]
    fn prepare_dk(&self, dk: &[u8]) -> Result<PreparedDecapsKey, Error> {
        prepared::dk::<P>(dk)
    }

    fn dk_public_ranges(&self) -> &'static [Range<usize>] {
        P::DK_PUBLIC
    }

    fn import_private_key(&self, parts: &PrivateKeyParts<'_>, dk: &mut [u8]) -> Result<(), Error> {
        let out = array_mut::<P::DkBytes>("decapsulation key buffer", dk)?;
        let key = keyfile::decaps_key_from_parts::<P>(parts)?;
        *out = *key.as_bytes();
        Ok(())
    }

    fn encaps_key_from_dk(&self, dk: &[u8], ek: &mut [u8]) -> Result<(), Error> {
        let out = array_mut::<P::EkBytes>("encapsulation key buffer", ek)?;
        let Some(off) = P::DK_EK_OFFSET else {
            return P::derive_ek(array_ref::<P::DkBytes>("decapsulation key", dk)?, out);
        };
        let (dk, mut state) = kem::prepare_dk::<P>(dk)?;
        zeroize::Zeroize::zeroize(&mut state);
        let ek_bytes = &dk.as_ref()[off..off + out.as_ref().len()];
        // The embedded key must itself be a valid encapsulation key.
        kem::prepare_ek::<P>(ek_bytes)?;
        out.as_mut().copy_from_slice(ek_bytes);
        Ok(())
    }
}

/// Checks `opts`, then signs into `sig`.
pub(crate) fn sign_checked<P: SignatureScheme>(
    sk: PreparedSk<'_, P>,
    rng: &mut dyn CryptoRng,
    msg: &[u8],
    opts: &SignOptions<'_>,
    sig: &mut [u8],
) -> Result<usize, Error> {
    let opts = crate::SignChecked::new(opts)?;
    need("signature", P::INFO.sig_bytes, sig.len())?;
    let sig = array_mut::<P::SigBytes>("signature buffer", &mut sig[..P::INFO.sig_bytes])?;
    P::sign_into(sk, msg, &opts, rng, sig)
}

/// `got >= needed`, else [`Error::BufferTooSmall`].
pub(crate) fn need(what: &'static str, needed: usize, got: usize) -> Result<(), Error> {
    if got < needed {
        Err(Error::BufferTooSmall { what, needed, got })
    } else {
        Ok(())
    }
}

impl<P: SignatureScheme> DynSig for SigAlg<P> {
    fn info(&self) -> &'static AlgInfo {
        sig::sig_sizes_ok::<P>();
        const { &P::INFO }
    }

    fn backends(&self) -> Backends {
        P::BACKENDS
    }

    fn keygen(&self, rng: &mut dyn CryptoRng, vk: &mut [u8], sk: &mut [u8]) -> Result<(), Error> {
        let vk = array_mut::<P::VkBytes>("verifying key buffer", vk)?;
        let sk = array_mut::<P::SkBytes>("signing key buffer", sk)?;
        let _ = P::keygen_into(rng, vk, sk);
        Ok(())
    }

    fn keygen_derand(&self, seed: &[u8], vk: &mut [u8], sk: &mut [u8]) -> Result<(), Error> {
        let seed = array_ref::<P::KeygenSeed>("key-generation seed", seed)?;
        let vk = array_mut::<P::VkBytes>("verifying key buffer", vk)?;
        let sk = array_mut::<P::SkBytes>("signing key buffer", sk)?;
        let _ = P::keygen_derand_into(seed, vk, sk);
        Ok(())
    }

    fn sign(
        &self,
        rng: &mut dyn CryptoRng,
        sk: &[u8],
        msg: &[u8],
        opts: &SignOptions<'_>,
        sig: &mut [u8],
    ) -> Result<usize, Error> {
        let sk = array_ref::<P::SkBytes>("signing key", sk)?;
        let mut state = P::prepare_sk(sk);
        let r = state
            .as_ref()
            .map_err(|e| *e)
            .and_then(|st| sign_checked(PreparedSk::<P>::new(sk, st), rng, msg, opts, sig));
        if let Ok(st) = state.as_mut() {
            zeroize::Zeroize::zeroize(st);
        }
        r
    }

    fn verify(
        &self,
        vk: &[u8],
        msg: &[u8],
        opts: &SignOptions<'_>,
        sig: &[u8],
    ) -> Result<(), Error> {
        let opts = crate::VerifyChecked::new(opts)?;
        let vk = array_ref::<P::VkBytes>("verifying key", vk)?;
        let state = P::prepare_vk(vk);
        let state = state.as_ref().map_err(|e| *e)?;
        P::verify_prepared(PreparedVk::new(vk, state), msg, &opts, sig)
    }

    fn signed_message_bytes(&self, mlen: usize) -> usize {
        P::signed_message_bytes(mlen)
    }

    fn sign_message(
        &self,
        rng: &mut dyn CryptoRng,
        sk: &[u8],
        msg: &[u8],
        sm: &mut [u8],
    ) -> Result<usize, Error> {
        let sk = array_ref::<P::SkBytes>("signing key", sk)?;
        let mut state = P::prepare_sk(sk);
        let r = state.as_ref().map_err(|e| *e).and_then(|st| {
            need(
                "signed message",
                P::signed_message_bytes(msg.len()),
                sm.len(),
            )?;
            P::sign_message_into(PreparedSk::new(sk, st), msg, rng, sm)
        });
        if let Ok(st) = state.as_mut() {
            zeroize::Zeroize::zeroize(st);
        }
        r
    }

    fn open<'m>(&self, vk: &[u8], sm: &'m [u8]) -> Result<&'m [u8], Error> {
        let vk = array_ref::<P::VkBytes>("verifying key", vk)?;
        let state = P::prepare_vk(vk);
        let state = state.as_ref().map_err(|e| *e)?;
        P::open_into(PreparedVk::new(vk, state), sm)
    }

    fn check_vk(&self, vk: &[u8]) -> Result<(), Error> {
        sig::prepare_vk::<P>(vk).map(|_| ())
    }

    fn check_sk(&self, sk: &[u8]) -> Result<(), Error> {
        sig::prepare_sk::<P>(sk).map(|(_, mut s)| zeroize::Zeroize::zeroize(&mut s))
    }

    fn verifying_key(&self, sk: &[u8], vk: &mut [u8]) -> Result<(), Error> {
        let (sk, mut state) = sig::prepare_sk::<P>(sk)?;
        let r = array_mut::<P::VkBytes>("verifying key buffer", vk).map(|vk| {
            let _ = P::verifying_key_into(PreparedSk::new(sk, &state), vk);
        });
        zeroize::Zeroize::zeroize(&mut state);
        r
    }

    #[cfg(feature = "alloc")]
    fn prepare_vk(&self, vk: &[u8]) -> Result<PreparedVerifyingKey, Error> {
        prepared::vk::<P>(vk)
    }

    #[cfg(feature = "alloc")]
    fn prepare_sk(&self, sk: &[u8]) -> Result<PreparedSigningKey, Error> {
        prepared::sk::<P>(sk)
    }

    fn sk_public_ranges(&self) -> &'static [Range<usize>] {
        P::SK_PUBLIC
    }

    fn import_private_key(&self, parts: &PrivateKeyParts<'_>, sk: &mut [u8]) -> Result<(), Error> {
        let out = array_mut::<P::SkBytes>("signing key buffer", sk)?;
        let key = keyfile::signing_key_from_parts::<P>(parts)?;
        *out = *key.as_bytes();
        Ok(())
    }
}

#[cfg(feature = "alloc")]
use crate::prepared::{
    self, PreparedDecapsKey, PreparedEncapsKey, PreparedSigningKey, PreparedVerifyingKey,
};
