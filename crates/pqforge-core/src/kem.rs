//! The KEM contract ([`Kem`]) and the typed API generated from it.
//!
//! A parameter set implements [`Kem`] once, in place: key generation writes
//! into the caller's key arrays, encapsulation and decapsulation read a
//! *prepared* key ([`PreparedEk`], [`PreparedDk`]: bytes that passed every
//! input check of the standard, plus whatever the scheme derived from them
//! once, such as H(ek) for ML-KEM) and write into the caller's ciphertext and
//! shared-secret arrays. Everything else comes from core:
//!
//! * the typed API: [`EncapsKey`], [`DecapsKey`], [`Ciphertext`],
//!   [`SharedSecret`] (exact-size arrays, no heap, secrets wiped on drop) and
//!   the provided functions `P::keygen`, `P::encaps`, `P::decaps`, ...;
//! * the dynamic API ([`crate::DynKem`]) over byte slices, one-shot or with
//!   prepared keys;
//! * the RustCrypto `kem` traits (feature `rustcrypto`).
//!
//! With a scheme crate (core has none, so this is not compiled here; the
//! same calls run in the README's doc-tests and in every scheme's tests):
//!
//! ```ignore
//! use pqforge_core::Kem;
//! use pqforge_mlkem::MlKem768;
//! let (ek, dk) = MlKem768::keygen(&mut rng);          // prepared keys
//! let (ct, k1) = MlKem768::encaps(&ek, &mut rng);
//! assert_eq!(MlKem768::decaps(&dk, &ct), k1);
//! ```

use core::fmt;
use core::ops::Range;

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::bytes::{ByteArray, array_ref};
use crate::keys::{prepared_view, public_key, secret_key_common};
use crate::{AlgInfo, CryptoRng, Error, ct};

/// A key-encapsulation mechanism: the contract one parameter set implements.
///
/// **Implementors** provide the associated types and the in-place
/// operations (`prepare_*`, `keygen_derand_into`, `encaps_derand_into` or
/// `encaps_into`, `decaps_into`); the preconditions (exact lengths, keys
/// that passed `prepare_*`) are guaranteed by the types. Randomised entry
/// points draw from `rng` in exactly the order of the scheme's reference
/// implementation, so that a KAT generator ([`crate::kat`]) reproduces the
/// official transcripts.
///
/// **Users** call the provided typed functions ([`Kem::keygen`],
/// [`Kem::encaps`], [`Kem::decaps`], ...), which must not be overridden.
pub trait Kem: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// Name, sizes, OIDs, status, ... of this parameter set.
    const INFO: AlgInfo;
    /// Byte ranges of the encoded decapsulation key that are public (an
    /// embedded encapsulation key, say); the constant-time harness poisons
    /// the rest.
    const DK_PUBLIC: &'static [Range<usize>] = &[];
    /// Offset of the encapsulation key inside the decapsulation key, if the
    /// decapsulation key embeds it.
    const DK_EK_OFFSET: Option<usize> = None;
    /// The backends of the crate that implements this set, and the one its
    /// dispatch picks on this CPU (reports and benchmarks:
    /// [`crate::DynKem::backend`]). A crate that uses
    /// [`crate::backend_dispatch!`] gives the generated `BACKENDS`.
    const BACKENDS: crate::cpu::Backends;

    /// Encapsulation-key storage, `[u8; INFO.pk_bytes]`.
    type EkBytes: ByteArray;
    /// Decapsulation-key storage, `[u8; INFO.sk_bytes]`.
    type DkBytes: ByteArray;
    /// Ciphertext storage, `[u8; INFO.ct_bytes]`.
    type CtBytes: ByteArray;
    /// Shared-secret storage, `[u8; INFO.ss_bytes]`.
    type SsBytes: ByteArray;
    /// Seed of deterministic key generation, `[u8; INFO.keygen_seed_bytes]`.
    type KeygenSeed: ByteArray;
    /// Randomness of deterministic encapsulation,
    /// `[u8; INFO.encaps_seed_bytes]` (`[u8; 0]` if the standard defines none).
    type EncapsSeed: ByteArray;
    /// What [`Kem::prepare_ek`] derives from a valid encapsulation key.
    type EkState: Clone + Default + Send + Sync + 'static;
    /// What [`Kem::prepare_dk`] derives from a valid decapsulation key
    /// (secret: wiped on drop of the typed key).
    type DkState: Zeroize + Default + Send + Sync + 'static;

    /// Checks an encapsulation key (every check the standard asks for) and
    /// derives its state.
    ///
    /// # Errors
    /// [`Error::Encoding`] / [`Error::InvalidKey`] naming the failed check.
    fn prepare_ek(ek: &Self::EkBytes) -> Result<Self::EkState, Error>;

    /// Checks a decapsulation key and derives its state.
    ///
    /// # Errors
    /// [`Error::Encoding`] / [`Error::InvalidKey`] naming the failed check.
    fn prepare_dk(dk: &Self::DkBytes) -> Result<Self::DkState, Error>;

    /// Deterministic key generation from `seed`, with the states of the
    /// generated keys (valid by construction: not re-checked).
    fn keygen_derand_into(
        seed: &Self::KeygenSeed,
        ek: &mut Self::EkBytes,
        dk: &mut Self::DkBytes,
    ) -> (Self::EkState, Self::DkState);

    /// Randomised key generation. The default draws the seed with one
    /// `fill_bytes` call and wipes it after use.
    fn keygen_into<R: CryptoRng + ?Sized>(
        rng: &mut R,
        ek: &mut Self::EkBytes,
        dk: &mut Self::DkBytes,
    ) -> (Self::EkState, Self::DkState) {
        let mut seed = Self::KeygenSeed::zeroed();
        rng.fill_bytes(seed.as_mut());
        let st = Self::keygen_derand_into(&seed, ek, dk);
        seed.zeroize();
        st
    }

    /// Deterministic encapsulation with the randomness `m`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] if the standard defines no deterministic
    /// encapsulation (the default).
    fn encaps_derand_into(
        ek: PreparedEk<'_, Self>,
        m: &Self::EncapsSeed,
        ct: &mut Self::CtBytes,
        ss: &mut Self::SsBytes,
    ) -> Result<(), Error> {
        let _ = (ek, m, ct, ss);
        Err(Error::Unsupported {
            alg: Self::INFO.name,
            what: "deterministic encapsulation",
        })
    }

    /// Randomised encapsulation. The default draws [`Kem::EncapsSeed`] with
    /// one `fill_bytes` call, runs [`Kem::encaps_derand_into`] and wipes it.
    ///
    /// # Panics
    /// With the default, if the scheme implements neither this nor
    /// [`Kem::encaps_derand_into`] (an implementation error, caught by its
    /// first test; never a silent all-zero shared secret).
    fn encaps_into<R: CryptoRng + ?Sized>(
        ek: PreparedEk<'_, Self>,
        rng: &mut R,
        ct: &mut Self::CtBytes,
        ss: &mut Self::SsBytes,
    ) {
        let mut m = Self::EncapsSeed::zeroed();
        rng.fill_bytes(m.as_mut());
        let r = Self::encaps_derand_into(ek, &m, ct, ss);
        m.zeroize();
        assert!(
            r.is_ok(),
            "{}: encaps_into needs encaps_derand_into",
            Self::INFO.name
        );
    }

    /// Decapsulation: never fails; a ciphertext that does not decrypt
    /// consistently gives the implicit-rejection secret.
    fn decaps_into(dk: PreparedDk<'_, Self>, ct: &Self::CtBytes, ss: &mut Self::SsBytes);

    /// The encapsulation key a decapsulation key determines, for sets that
    /// do not embed it ([`Self::DK_EK_OFFSET`] is `None`) but can recompute
    /// it (X-Wing: the decapsulation key is the key-generation seed). Key files derive public keys through it.
    ///
    /// # Errors
    /// [`Error::Unsupported`] by default (Classic McEliece: the public key
    /// must be kept).
    fn derive_ek(dk: &Self::DkBytes, ek: &mut Self::EkBytes) -> Result<(), Error> {
        let _ = (dk, ek);
        Err(Error::Unsupported {
            alg: Self::INFO.name,
            what: "deriving the public key from the private key (it is not embedded)",
        })
    }

    // ------------------------------------------------------------------
    // The typed API (provided; do not override).

    /// Generates a key pair (prepared). When the seed is a private-key form
    /// of this set, the seed is drawn with one `fill_bytes` call and kept in
    /// the decapsulation key ([`DecapsKey::seed`]).
    fn keygen<R: CryptoRng + ?Sized>(rng: &mut R) -> (EncapsKey<Self>, DecapsKey<Self>) {
        let () = sizes_ok::<Self>();
        if Self::INFO.key_forms.seed {
            let mut seed = Self::KeygenSeed::zeroed();
            rng.fill_bytes(seed.as_mut());
            let keys = Self::keygen_derand(&seed);
            seed.zeroize();
            return keys;
        }
        let mut ek = EncapsKey::<Self>::blank();
        let mut dk = DecapsKey::<Self>::blank();
        (ek.state, dk.state) = Self::keygen_into(rng, &mut ek.bytes, &mut dk.bytes);
        (ek, dk)
    }

    /// Deterministic key generation (test vectors; key derivation from a
    /// stored seed). The decapsulation key remembers `seed` when the seed is
    /// a private-key form of this set ([`crate::KeyForms::seed`]).
    fn keygen_derand(seed: &Self::KeygenSeed) -> (EncapsKey<Self>, DecapsKey<Self>) {
        let () = sizes_ok::<Self>();
        let mut ek = EncapsKey::<Self>::blank();
        let mut dk = DecapsKey::<Self>::blank();
        (ek.state, dk.state) = Self::keygen_derand_into(seed, &mut ek.bytes, &mut dk.bytes);
        if Self::INFO.key_forms.seed {
            dk.seed = *seed;
            dk.has_seed = true;
        }
        (ek, dk)
    }

    /// Encapsulates a fresh shared secret to `ek`.
    fn encaps<R: CryptoRng + ?Sized>(
        ek: &EncapsKey<Self>,
        rng: &mut R,
    ) -> (Ciphertext<Self>, SharedSecret<Self>) {
        let mut ct = Ciphertext::<Self>::blank();
        let mut ss = SharedSecret::<Self>::blank();
        Self::encaps_into(ek.prepared(), rng, &mut ct.bytes, &mut ss.bytes);
        (ct, ss)
    }

    /// Deterministic encapsulation with the randomness `m` (test vectors).
    ///
    /// # Errors
    /// [`Error::Unsupported`] if the standard defines none.
    fn encaps_derand(
        ek: &EncapsKey<Self>,
        m: &Self::EncapsSeed,
    ) -> Result<(Ciphertext<Self>, SharedSecret<Self>), Error> {
        let mut ct = Ciphertext::<Self>::blank();
        let mut ss = SharedSecret::<Self>::blank();
        Self::encaps_derand_into(ek.prepared(), m, &mut ct.bytes, &mut ss.bytes)?;
        Ok((ct, ss))
    }

    /// Decapsulates `ct` (implicit rejection: never fails).
    fn decaps(dk: &DecapsKey<Self>, ct: &Ciphertext<Self>) -> SharedSecret<Self> {
        let mut ss = SharedSecret::<Self>::blank();
        Self::decaps_into(dk.prepared(), &ct.bytes, &mut ss.bytes);
        ss
    }

    /// Generates a key pair with the operating system's random generator
    /// (feature `getrandom`).
    ///
    /// # Panics
    /// If the operating system's generator fails.
    #[cfg(feature = "getrandom")]
    #[must_use]
    fn generate() -> (EncapsKey<Self>, DecapsKey<Self>) {
        Self::keygen(&mut rand_core::UnwrapErr(getrandom::SysRng))
    }
}

/// Compile-time check that a parameter set's array types have the sizes its
/// [`AlgInfo`] states (evaluated once per set, where the set is used).
pub(crate) const fn sizes_ok<P: Kem>() {
    const {
        let i = &P::INFO;
        assert!(matches!(i.kind, crate::Kind::Kem));
        assert!(P::EkBytes::LEN == i.pk_bytes);
        assert!(P::DkBytes::LEN == i.sk_bytes);
        assert!(P::CtBytes::LEN == i.ct_bytes);
        assert!(P::SsBytes::LEN == i.ss_bytes);
        assert!(P::KeygenSeed::LEN == i.keygen_seed_bytes);
        assert!(P::EncapsSeed::LEN == i.encaps_seed_bytes);
    }
}

prepared_view!(
    /// A checked encapsulation key: its bytes and derived state, borrowed.
    PreparedEk: Kem, EkBytes, EkState, prepare_ek, ""
);
prepared_view!(
    /// A checked decapsulation key: its bytes and derived state, borrowed.
    PreparedDk: Kem, DkBytes, DkState, prepare_dk, " (secret)"
);

impl<'a, P: Kem> PreparedEk<'a, P> {
    /// The view of an encapsulation key and its derived state, for KEMs
    /// composed of others (X-Wing runs ML-KEM-768 on the key it holds).
    /// `state` must be what [`Kem::prepare_ek`] (or key generation)
    /// returned for these `bytes`: the checks are skipped, and with
    /// anything else the operations give wrong results (never undefined
    /// behaviour). Not for applications: parse keys with `TryFrom`.
    #[doc(hidden)]
    #[must_use]
    pub fn from_parts(bytes: &'a P::EkBytes, state: &'a P::EkState) -> Self {
        Self::new(bytes, state)
    }
}

impl<'a, P: Kem> PreparedDk<'a, P> {
    /// As [`PreparedEk::from_parts`], for a decapsulation key and what
    /// [`Kem::prepare_dk`] (or key generation) returned for it.
    #[doc(hidden)]
    #[must_use]
    pub fn from_parts(bytes: &'a P::DkBytes, state: &'a P::DkState) -> Self {
        Self::new(bytes, state)
    }
}

/// Checks `bytes` as an encapsulation key of `P`: length, then
/// [`Kem::prepare_ek`].
///
/// # Errors
/// [`Error::Length`], or the scheme's key checks.
pub fn prepare_ek<P: Kem>(bytes: &[u8]) -> Result<(&P::EkBytes, P::EkState), Error> {
    let b = array_ref::<P::EkBytes>("encapsulation key", bytes)?;
    Ok((b, P::prepare_ek(b)?))
}

/// Checks `bytes` as a decapsulation key of `P`: length, then
/// [`Kem::prepare_dk`].
///
/// # Errors
/// [`Error::Length`], or the scheme's key checks.
pub fn prepare_dk<P: Kem>(bytes: &[u8]) -> Result<(&P::DkBytes, P::DkState), Error> {
    let b = array_ref::<P::DkBytes>("decapsulation key", bytes)?;
    Ok((b, P::prepare_dk(b)?))
}

// ---------------------------------------------------------------- EncapsKey

public_key!(
    /// An encapsulation (public) key of parameter set `P`, checked once when it
    /// was built (`TryFrom<&[u8]>` runs every input check of the standard).
    EncapsKey: Kem, EkBytes, EkState, PreparedEk, prepare_ek
);

// ---------------------------------------------------------------- DecapsKey

/// A decapsulation (secret) key of parameter set `P` in its expanded
/// encoding, checked once when it was built, plus the key-generation seed
/// when it was made from one and the seed is a private-key form of `P`.
/// Wiped on drop.
pub struct DecapsKey<P: Kem> {
    bytes: P::DkBytes,
    state: P::DkState,
    /// The key-generation seed when `has_seed` (all zero otherwise): a
    /// plain array, not an `Option`, so that no byte of it is left
    /// unwritten by the wipe.
    seed: P::KeygenSeed,
    has_seed: bool,
}

impl<P: Kem> DecapsKey<P> {
    /// An all-zero key with a default state, filled in place by key
    /// generation (so no copy of the secret is left behind by a move).
    fn blank() -> Self {
        Self {
            bytes: P::DkBytes::zeroed(),
            state: P::DkState::default(),
            seed: P::KeygenSeed::zeroed(),
            has_seed: false,
        }
    }

    /// The encapsulation key embedded in this key, if `P`'s decapsulation
    /// keys embed it.
    #[must_use]
    pub fn encaps_key(&self) -> Option<EncapsKey<P>> {
        let off = P::DK_EK_OFFSET?;
        let b = self.bytes.as_ref().get(off..off + P::EkBytes::LEN)?;
        EncapsKey::try_from(b).ok()
    }
}

secret_key_common!(DecapsKey: Kem, DkBytes, PreparedDk);

impl<P: Kem> TryFrom<&[u8]> for DecapsKey<P> {
    type Error = Error;

    /// Checks the length and runs every check the standard asks for.
    ///
    /// # Errors
    /// [`Error::Length`], [`Error::Encoding`] or [`Error::InvalidKey`].
    fn try_from(b: &[u8]) -> Result<Self, Error> {
        let (bytes, state) = prepare_dk::<P>(b)?;
        Ok(Self {
            bytes: *bytes,
            state,
            seed: P::KeygenSeed::zeroed(),
            has_seed: false,
        })
    }
}

// ---------------------------------------------------------------- Ciphertext

/// A ciphertext of parameter set `P`. Any byte string of the right length is
/// a ciphertext (decapsulation rejects invalid ones implicitly).
pub struct Ciphertext<P: Kem> {
    bytes: P::CtBytes,
}

impl<P: Kem> Ciphertext<P> {
    fn blank() -> Self {
        Self {
            bytes: P::CtBytes::zeroed(),
        }
    }

    /// The encoded ciphertext.
    #[must_use]
    pub fn as_bytes(&self) -> &P::CtBytes {
        &self.bytes
    }

    /// Wraps an encoded ciphertext.
    #[must_use]
    pub fn from_bytes(bytes: P::CtBytes) -> Self {
        Self { bytes }
    }
}

impl<P: Kem> TryFrom<&[u8]> for Ciphertext<P> {
    type Error = Error;

    /// Checks the length (the only check a ciphertext gets).
    ///
    /// # Errors
    /// [`Error::Length`].
    fn try_from(b: &[u8]) -> Result<Self, Error> {
        Ok(Self {
            bytes: *array_ref::<P::CtBytes>("ciphertext", b)?,
        })
    }
}

impl<P: Kem> AsRef<[u8]> for Ciphertext<P> {
    fn as_ref(&self) -> &[u8] {
        self.bytes.as_ref()
    }
}

impl<P: Kem> Clone for Ciphertext<P> {
    fn clone(&self) -> Self {
        Self { bytes: self.bytes }
    }
}

impl<P: Kem> PartialEq for Ciphertext<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes.as_ref() == other.bytes.as_ref()
    }
}

impl<P: Kem> Eq for Ciphertext<P> {}

impl<P: Kem> fmt::Debug for Ciphertext<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ciphertext<{}>({} bytes)", P::INFO.name, P::CtBytes::LEN)
    }
}

// ---------------------------------------------------------------- SharedSecret

/// A shared secret of parameter set `P`. Wiped on drop; `==` compares in
/// constant time.
pub struct SharedSecret<P: Kem> {
    bytes: P::SsBytes,
}

impl<P: Kem> SharedSecret<P> {
    fn blank() -> Self {
        Self {
            bytes: P::SsBytes::zeroed(),
        }
    }

    /// The secret bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &P::SsBytes {
        &self.bytes
    }
}

impl<P: Kem> AsRef<[u8]> for SharedSecret<P> {
    fn as_ref(&self) -> &[u8] {
        self.bytes.as_ref()
    }
}

impl<P: Kem> Zeroize for SharedSecret<P> {
    fn zeroize(&mut self) {
        self.bytes.zeroize();
    }
}

impl<P: Kem> Drop for SharedSecret<P> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl<P: Kem> ZeroizeOnDrop for SharedSecret<P> {}

impl<P: Kem> PartialEq for SharedSecret<P> {
    fn eq(&self, other: &Self) -> bool {
        ct::eq_mask(self.bytes.as_ref(), other.bytes.as_ref()) == 0xFF
    }
}

impl<P: Kem> Eq for SharedSecret<P> {}

impl<P: Kem> fmt::Debug for SharedSecret<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SharedSecret<{}>(..)", P::INFO.name)
    }
}
