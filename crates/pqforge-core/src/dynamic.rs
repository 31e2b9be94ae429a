//! The dynamic layer: object-safe traits over byte slices plus the metadata
//! record ([`AlgInfo`]) that the registry, the CLI and the board harness walk.

use core::marker::PhantomData;

use crate::error::check_len;
use crate::{CryptoRng, Error, Kem, Signature};

/// KEM or signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Key-encapsulation mechanism.
    Kem,
    /// Digital signature.
    Sig,
}

impl Kind {
    /// `"kem"` or `"sig"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Kem => "kem",
            Kind::Sig => "sig",
        }
    }
}

/// Standardisation status of a parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Published standard (FIPS 203/204/205, or NIST-selected with final parameters).
    Standard,
    /// Draft or pre-standard revision: the bytes may still change.
    Draft,
    /// Published cryptanalysis questions its claimed security; use for
    /// interoperability and research only.
    AtRisk,
}

impl Status {
    /// `"standard"`, `"draft"` or `"at-risk"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Standard => "standard",
            Status::Draft => "draft",
            Status::AtRisk => "at-risk",
        }
    }
}

/// Which generator the official KAT files of a parameter set were made with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KatRng {
    /// NIST PQCgenKAT AES-256-CTR DRBG ([`crate::kat::NistDrbg`]).
    NistDrbg,
    /// HQC's SHAKE256 generator ([`crate::kat::HqcPrng`]).
    HqcShake256,
    /// No `.rsp` KAT (the scheme is checked with other vector formats).
    None,
}

/// Everything the registry knows about one parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlgInfo {
    /// Canonical name, as the CLI accepts it (`"hqc-1"`, `"ml-kem-768"`).
    pub name: &'static str,
    /// Scheme family (`"HQC"`, `"ML-KEM"`).
    pub family: &'static str,
    /// KEM or signature.
    pub kind: Kind,
    /// Public-key bytes.
    pub pk_bytes: usize,
    /// Secret-key bytes.
    pub sk_bytes: usize,
    /// Ciphertext bytes (KEM; 0 for signatures).
    pub ct_bytes: usize,
    /// Maximum signature bytes (signature; 0 for KEMs).
    pub sig_bytes: usize,
    /// Shared-secret bytes (KEM; 0 for signatures).
    pub ss_bytes: usize,
    /// NIST security category (1..=5).
    pub category: u8,
    /// Standardisation status.
    pub status: Status,
    /// KAT generator of the official `.rsp` files.
    pub kat: KatRng,
    /// First line of the official `.rsp` file (e.g. `"# HQC-1"`).
    pub kat_header: &'static str,
    /// One line on the exact revision implemented.
    pub revision: &'static str,
}

/// Object-safe KEM interface over byte slices.
///
/// Output buffers must have exactly the sizes in [`DynKem::info`].
pub trait DynKem: Send + Sync {
    /// Metadata of this parameter set.
    fn info(&self) -> &'static AlgInfo;

    /// Generates a key pair into `pk` and `sk`.
    ///
    /// # Errors
    /// [`Error::Length`] if a buffer has the wrong size.
    fn keygen(&self, rng: &mut dyn CryptoRng, pk: &mut [u8], sk: &mut [u8]) -> Result<(), Error>;

    /// Encapsulates to `pk`, writing `ct` and `ss`.
    ///
    /// # Errors
    /// [`Error::Length`] for wrong sizes; the scheme's public-key checks.
    fn encaps(
        &self,
        rng: &mut dyn CryptoRng,
        pk: &[u8],
        ct: &mut [u8],
        ss: &mut [u8],
    ) -> Result<(), Error>;

    /// Decapsulates `ct` with `sk` into `ss` (implicit rejection: a
    /// correctly sized ciphertext never gives an error).
    ///
    /// # Errors
    /// [`Error::Length`] for wrong sizes; the scheme's secret-key checks.
    fn decaps(&self, sk: &[u8], ct: &[u8], ss: &mut [u8]) -> Result<(), Error>;

    /// Byte ranges of the encoded secret key that are public (an embedded
    /// public key, say). The constant-time harness poisons the rest.
    fn sk_public_ranges(&self) -> &'static [core::ops::Range<usize>] {
        &[]
    }
}

/// Object-safe signature interface over byte slices.
pub trait DynSig: Send + Sync {
    /// Metadata of this parameter set.
    fn info(&self) -> &'static AlgInfo;

    /// Generates a key pair into `pk` and `sk`.
    ///
    /// # Errors
    /// [`Error::Length`] if a buffer has the wrong size.
    fn keygen(&self, rng: &mut dyn CryptoRng, pk: &mut [u8], sk: &mut [u8]) -> Result<(), Error>;

    /// Signs `msg`, returning the signature length written to `sig`.
    ///
    /// # Errors
    /// Wrong key size or encoding, buffer too small.
    fn sign(
        &self,
        rng: &mut dyn CryptoRng,
        sk: &[u8],
        msg: &[u8],
        sig: &mut [u8],
    ) -> Result<usize, Error>;

    /// Verifies `sig` on `msg` under `pk`.
    ///
    /// # Errors
    /// [`Error::Verification`] (or a key error) if not accepted.
    fn verify(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<(), Error>;

    /// Buffer size [`DynSig::kat_sign`] needs for an `mlen`-byte message.
    fn kat_sm_bytes(&self, mlen: usize) -> usize;

    /// KAT signed message (see [`Signature::kat_sign`]).
    ///
    /// # Errors
    /// As [`DynSig::sign`].
    fn kat_sign(
        &self,
        rng: &mut dyn CryptoRng,
        sk: &[u8],
        msg: &[u8],
        sm: &mut [u8],
    ) -> Result<usize, Error>;

    /// Byte ranges of the encoded secret key that are public.
    fn sk_public_ranges(&self) -> &'static [core::ops::Range<usize>] {
        &[]
    }
}

/// Adapter giving every typed [`Kem`] the [`DynKem`] interface.
///
/// ```ignore
/// pub static HQC_1: KemAlg<Hqc1> = KemAlg::new(&[]);
/// ```
pub struct KemAlg<K> {
    sk_public: &'static [core::ops::Range<usize>],
    _k: PhantomData<fn() -> K>,
}

impl<K> KemAlg<K> {
    /// The adapter; `sk_public` lists the public byte ranges of the secret key.
    #[must_use]
    pub const fn new(sk_public: &'static [core::ops::Range<usize>]) -> Self {
        Self {
            sk_public,
            _k: PhantomData,
        }
    }
}

fn copy_out(what: &'static str, out: &mut [u8], src: &[u8]) -> Result<(), Error> {
    check_len(what, src.len(), out.len())?;
    out.copy_from_slice(src);
    Ok(())
}

impl<K: Kem> DynKem for KemAlg<K> {
    fn info(&self) -> &'static AlgInfo {
        const { &K::INFO }
    }

    fn keygen(&self, rng: &mut dyn CryptoRng, pk: &mut [u8], sk: &mut [u8]) -> Result<(), Error> {
        check_len("public key buffer", K::PK_BYTES, pk.len())?;
        check_len("secret key buffer", K::SK_BYTES, sk.len())?;
        let (ek, dk) = K::keygen(rng);
        copy_out("public key buffer", pk, ek.as_ref())?;
        copy_out("secret key buffer", sk, dk.as_ref())
    }

    fn encaps(
        &self,
        rng: &mut dyn CryptoRng,
        pk: &[u8],
        ct: &mut [u8],
        ss: &mut [u8],
    ) -> Result<(), Error> {
        check_len("ciphertext buffer", K::CT_BYTES, ct.len())?;
        check_len("shared secret buffer", K::SS_BYTES, ss.len())?;
        let ek = K::EncapsKey::try_from(pk)?;
        let (c, k) = K::encaps(&ek, rng);
        copy_out("ciphertext buffer", ct, c.as_ref())?;
        copy_out("shared secret buffer", ss, k.as_ref())
    }

    fn decaps(&self, sk: &[u8], ct: &[u8], ss: &mut [u8]) -> Result<(), Error> {
        check_len("shared secret buffer", K::SS_BYTES, ss.len())?;
        let dk = K::DecapsKey::try_from(sk)?;
        let c = K::Ciphertext::try_from(ct)?;
        let k = K::decaps(&dk, &c);
        copy_out("shared secret buffer", ss, k.as_ref())
    }

    fn sk_public_ranges(&self) -> &'static [core::ops::Range<usize>] {
        self.sk_public
    }
}

/// Adapter giving every typed [`Signature`] the [`DynSig`] interface.
pub struct SigAlg<S> {
    sk_public: &'static [core::ops::Range<usize>],
    _s: PhantomData<fn() -> S>,
}

impl<S> SigAlg<S> {
    /// The adapter; `sk_public` lists the public byte ranges of the secret key.
    #[must_use]
    pub const fn new(sk_public: &'static [core::ops::Range<usize>]) -> Self {
        Self {
            sk_public,
            _s: PhantomData,
        }
    }
}

impl<S: Signature> DynSig for SigAlg<S> {
    fn info(&self) -> &'static AlgInfo {
        const { &S::INFO }
    }

    fn keygen(&self, rng: &mut dyn CryptoRng, pk: &mut [u8], sk: &mut [u8]) -> Result<(), Error> {
        check_len("public key buffer", S::PK_BYTES, pk.len())?;
        check_len("secret key buffer", S::SK_BYTES, sk.len())?;
        let (vk, k) = S::keygen(rng);
        copy_out("public key buffer", pk, vk.as_ref())?;
        copy_out("secret key buffer", sk, k.as_ref())
    }

    fn sign(
        &self,
        rng: &mut dyn CryptoRng,
        sk: &[u8],
        msg: &[u8],
        sig: &mut [u8],
    ) -> Result<usize, Error> {
        let k = S::SigningKey::try_from(sk)?;
        S::sign(&k, msg, rng, sig)
    }

    fn verify(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        let vk = S::VerifyingKey::try_from(pk)?;
        S::verify(&vk, msg, sig)
    }

    fn kat_sm_bytes(&self, mlen: usize) -> usize {
        S::kat_sm_bytes(mlen)
    }

    fn kat_sign(
        &self,
        rng: &mut dyn CryptoRng,
        sk: &[u8],
        msg: &[u8],
        sm: &mut [u8],
    ) -> Result<usize, Error> {
        let k = S::SigningKey::try_from(sk)?;
        S::kat_sign(&k, msg, rng, sm)
    }

    fn sk_public_ranges(&self) -> &'static [core::ops::Range<usize>] {
        self.sk_public
    }
}
