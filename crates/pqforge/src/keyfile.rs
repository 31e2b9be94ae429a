//! Key files for every algorithm of the build (feature `pkcs8`, on by
//! default): [`PublicKey`] and [`PrivateKey`] read PEM or DER and find the
//! algorithm in the file itself; they write PEM, DER or the raw key.
//!
//! * ML-KEM (RFC 9935), ML-DSA (RFC 9881), SLH-DSA (RFC 9909): the standard
//!   forms, SubjectPublicKeyInfo (`PUBLIC KEY`) and PKCS#8 /
//!   OneAsymmetricKey (`PRIVATE KEY`). ML-KEM and ML-DSA private keys are
//!   written as `seed` by default; `expandedKey` and `both` on request; all
//!   three are read.
//! * HQC, Classic McEliece, Falcon, FN-DSA have no OID (draft or at-risk):
//!   pqforge's own form, clearly labelled `PQFORGE PUBLIC KEY` /
//!   `PQFORGE PRIVATE KEY`, a DER `SEQUENCE { algorithm UTF8String,
//!   privateKey [0] IMPLICIT OCTET STRING OPTIONAL, publicKey [1] IMPLICIT
//!   OCTET STRING OPTIONAL }` naming the algorithm by its canonical name
//!   (see [`pqforge_core::keyfile::PqforgeKey`]). Private keys carry their
//!   public key (Classic McEliece's cannot be derived from the private key).
//!
//! Every key is checked when read: lengths, encodings, the set's own key
//! checks, and the consistency checks of
//! [`pqforge_core::keyfile::decaps_key_from_parts`] /
//! [`pqforge_core::keyfile::signing_key_from_parts`] (a `both` whose
//! halves disagree, an expanded key failing its pairwise test, an SLH-DSA
//! key whose PK.root is not its own are refused with the reason).
//!
//! ```
//! # #[cfg(feature = "mlkem")] {
//! use pqforge::keyfile::{Encoding, PrivateKey, PublicKey};
//! use pqforge::Algorithm;
//!
//! let mut rng = rand::rng();
//! let alg: Algorithm = "ml-kem-768".parse().unwrap();
//! let key = PrivateKey::generate(alg, &mut rng).unwrap();
//! let pem = key.encode(Encoding::Pem, None).unwrap(); // the 64-byte seed form
//! assert!(pem.starts_with(b"-----BEGIN PRIVATE KEY-----"));
//! let back = PrivateKey::decode(&pem).unwrap();
//! assert_eq!(back.algorithm(), alg);
//! assert_eq!(back.expanded(), key.expanded());
//!
//! let pub_der = key.public_key().unwrap().encode(Encoding::Der).unwrap();
//! let public = PublicKey::decode(&pub_der).unwrap();
//! assert_eq!(public.as_bytes(), &key.expanded()[1152..1152 + 1184]);
//! # }
//! ```

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use pqforge_core::keyfile::{
    self as kf, LineEnding, ObjectIdentifier, PQFORGE_PRIVATE_LABEL, PQFORGE_PUBLIC_LABEL,
    PRIVATE_LABEL, PUBLIC_LABEL, PqforgeKey, PrivateKeyParts,
};
use pqforge_core::{CryptoRng, Error, Kind, Scheme};
use zeroize::Zeroizing;

use crate::Algorithm;

/// The private-key forms of RFC 9935 / RFC 9881 (`seed`, `expandedKey`,
/// `both`).
pub use pqforge_core::keyfile::PrivateKeyForm;

/// How a key is written (and, for [`Encoding::Raw`], read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// PEM (RFC 7468), 64-column Base64, `\n` line endings.
    Pem,
    /// DER.
    Der,
    /// The raw key bytes of the standard (no algorithm in the file).
    Raw,
}

impl Encoding {
    /// `"pem"`, `"der"` or `"raw"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pem => "pem",
            Self::Der => "der",
            Self::Raw => "raw",
        }
    }
}

/// Whether `data` looks like PEM (starts with `-----BEGIN`, after optional
/// whitespace): PEM is text, DER starts with a SEQUENCE tag byte.
fn is_pem(data: &[u8]) -> bool {
    data.iter()
        .position(|b| !b.is_ascii_whitespace())
        .is_some_and(|i| data[i..].starts_with(b"-----BEGIN"))
}

/// The DER inside `data` (PEM decoded, DER as is) and its PEM label.
fn der_of(data: &[u8]) -> Result<(Option<String>, Zeroizing<Vec<u8>>), Error> {
    if is_pem(data) {
        let (label, der) = kf::pem_decode_vec(data)?;
        Ok((Some(label.into()), der))
    } else {
        Ok((None, Zeroizing::new(data.to_vec())))
    }
}

/// The algorithm of a standard key by its OID.
fn by_oid(oid: &ObjectIdentifier) -> Result<Algorithm, Error> {
    let s = alloc::format!("{oid}");
    Algorithm::all()
        .find(|a| a.info().oid == Some(s.as_str()))
        .ok_or(Error::KeyFormat(
            "the key's algorithm OID is not one of this build's algorithms",
        ))
}

/// The algorithm named in a pqforge-form key: its exact canonical name
/// (files are written with it, and a key file has one spelling), of a set
/// without an OID (a set with an OID is always written in its standard
/// form).
fn by_name(name: &str) -> Result<Algorithm, Error> {
    let a = Algorithm::all()
        .find(|a| a.name() == name)
        .ok_or(Error::UnknownAlgorithm)?;
    if a.info().oid.is_some() {
        return Err(Error::KeyFormat(
            "a pqforge-form key for an algorithm that has a standard form",
        ));
    }
    Ok(a)
}

fn pem_string(label: &str, der: &[u8]) -> Result<Vec<u8>, Error> {
    Ok(kf::pem_encode_string(label, der, LineEnding::LF)?.into_bytes())
}

// ------------------------------------------------------------ PublicKey

/// A public key (encapsulation or verifying key) and its algorithm,
/// checked when built.
#[derive(Clone, PartialEq, Eq)]
pub struct PublicKey {
    alg: Algorithm,
    bytes: Vec<u8>,
}

impl core::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PublicKey({}, {} bytes)", self.alg, self.bytes.len())
    }
}

impl PublicKey {
    /// The raw public key of `alg`, with every check of the set.
    ///
    /// # Errors
    /// [`Error::Length`], [`Error::Encoding`], [`Error::InvalidKey`].
    pub fn from_raw(alg: Algorithm, bytes: &[u8]) -> Result<Self, Error> {
        match alg.scheme() {
            Scheme::Kem(k) => k.check_ek(bytes)?,
            Scheme::Sig(s) => s.check_vk(bytes)?,
        }
        Ok(Self {
            alg,
            bytes: bytes.to_vec(),
        })
    }

    /// Reads a PEM or DER public key: SubjectPublicKeyInfo, or pqforge's
    /// form for sets without an OID. The algorithm comes from the file.
    ///
    /// # Errors
    /// [`Error::KeyFormat`] with the reason (not a public key, an unknown
    /// OID, trailing data, ...), and the set's key errors.
    pub fn decode(data: &[u8]) -> Result<Self, Error> {
        let (label, der) = der_of(data)?;
        match label.as_deref() {
            Some(PUBLIC_LABEL) => Self::from_spki(&der),
            Some(PQFORGE_PUBLIC_LABEL) => Self::from_pqforge(&der),
            Some(PRIVATE_LABEL | PQFORGE_PRIVATE_LABEL) => Err(Error::KeyFormat(
                "this is a private key, where a public key was expected",
            )),
            Some(_) => Err(Error::KeyFormat("PEM label is not a public key's")),
            // DER: the form its structure says; the SPKI error otherwise.
            None if kf::public_key_oid(&der).is_ok() => Self::from_spki(&der),
            None if kf::private_key_oid(&der).is_ok() => Err(Error::KeyFormat(
                "this is a private key, where a public key was expected",
            )),
            None => match kf::decode_pqforge_key(&der) {
                Ok(_) => Self::from_pqforge(&der),
                Err(_) => Self::from_spki(&der),
            },
        }
    }

    fn from_spki(der: &[u8]) -> Result<Self, Error> {
        let alg = by_oid(&kf::public_key_oid(der)?)?;
        Self::from_raw(alg, kf::decode_public_key(alg.info(), der)?)
    }

    fn from_pqforge(der: &[u8]) -> Result<Self, Error> {
        let k = kf::decode_pqforge_key(der)?;
        match (k.private_key, k.public_key) {
            (None, Some(p)) => Self::from_raw(by_name(k.algorithm)?, p),
            _ => Err(Error::KeyFormat(
                "this is a private key, where a public key was expected",
            )),
        }
    }

    /// Writes the key: PEM (`PUBLIC KEY`, or `PQFORGE PUBLIC KEY` for sets
    /// without an OID), DER, or the raw bytes.
    ///
    /// # Errors
    /// Only if encoding fails (it does not for checked keys).
    pub fn encode(&self, enc: Encoding) -> Result<Vec<u8>, Error> {
        let info = self.alg.info();
        if enc == Encoding::Raw {
            return Ok(self.bytes.clone());
        }
        let (label, der) = if info.oid.is_some() {
            (PUBLIC_LABEL, kf::encode_public_key_vec(info, &self.bytes)?)
        } else {
            let k = PqforgeKey {
                algorithm: info.name,
                private_key: None,
                public_key: Some(&self.bytes),
            };
            (
                PQFORGE_PUBLIC_LABEL,
                kf::encode_pqforge_key_vec(&k)?.to_vec(),
            )
        };
        match enc {
            Encoding::Pem => pem_string(label, &der),
            _ => Ok(der),
        }
    }

    /// The algorithm.
    #[must_use]
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// The raw key.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
}

// ----------------------------------------------------------- PrivateKey

/// A private key (decapsulation or signing key) with its algorithm, its
/// seed when it has one, and its public key when that is known. Checked
/// when built, wiped on drop.
pub struct PrivateKey {
    alg: Algorithm,
    seed: Option<Zeroizing<Vec<u8>>>,
    expanded: Zeroizing<Vec<u8>>,
    public: Option<Vec<u8>>,
}

impl core::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PrivateKey({}, ..)", self.alg)
    }
}

impl PrivateKey {
    /// Generates a key pair of `alg`. For sets whose seed is a private-key
    /// form (ML-KEM, ML-DSA) the seed is drawn and kept, so the key is
    /// written in the seed form by default.
    ///
    /// # Errors
    /// [`Error::Rng`] if the generator fails.
    pub fn generate(alg: Algorithm, rng: &mut dyn CryptoRng) -> Result<Self, Error> {
        let info = alg.info();
        let mut public = vec![0u8; info.pk_bytes];
        let mut expanded = Zeroizing::new(vec![0u8; info.sk_bytes]);
        let mut seed = None;
        if info.key_forms.seed {
            let mut s = Zeroizing::new(vec![0u8; info.keygen_seed_bytes]);
            rng.fill_bytes(&mut s);
            match alg.scheme() {
                Scheme::Kem(k) => k.keygen_derand(&s, &mut public, &mut expanded)?,
                Scheme::Sig(g) => g.keygen_derand(&s, &mut public, &mut expanded)?,
            }
            seed = Some(s);
        } else {
            alg.scheme().keygen(rng, &mut public, &mut expanded)?;
        }
        Ok(Self {
            alg,
            seed,
            expanded,
            public: Some(public),
        })
    }

    /// Loads `parts` of `alg` with every consistency check; derives the
    /// public key where the private key gives it.
    fn from_parts(alg: Algorithm, parts: &PrivateKeyParts<'_>) -> Result<Self, Error> {
        let info = alg.info();
        let mut expanded = Zeroizing::new(vec![0u8; info.sk_bytes]);
        let mut public = vec![0u8; info.pk_bytes];
        let derived = match alg.scheme() {
            Scheme::Kem(k) => {
                k.import_private_key(parts, &mut expanded)?;
                match k.encaps_key_from_dk(&expanded, &mut public) {
                    Ok(()) => true,
                    Err(Error::Unsupported { .. }) => false,
                    Err(e) => return Err(e),
                }
            }
            Scheme::Sig(s) => {
                s.import_private_key(parts, &mut expanded)?;
                s.verifying_key(&expanded, &mut public)?;
                true
            }
        };
        // Not derivable (Classic McEliece): the stored one, which
        // `import_private_key` checked against the private key.
        let public = match (derived, parts.public_key) {
            (true, _) => Some(public),
            (false, p) => p.map(<[u8]>::to_vec),
        };
        Ok(Self {
            alg,
            seed: parts.seed.map(|s| Zeroizing::new(s.to_vec())),
            expanded,
            public,
        })
    }

    /// The raw private key of `alg`: its seed if `bytes` has the seed's
    /// length and the seed is a private-key form of the set, otherwise its
    /// expanded encoding.
    ///
    /// # Errors
    /// As [`PrivateKey::decode`].
    pub fn from_raw(alg: Algorithm, bytes: &[u8]) -> Result<Self, Error> {
        let info = alg.info();
        let parts = if info.key_forms.seed && bytes.len() == info.keygen_seed_bytes {
            PrivateKeyParts::seed(bytes)
        } else {
            PrivateKeyParts::expanded(bytes)
        };
        Self::from_parts(alg, &parts)
    }

    /// Reads a PEM or DER private key: PKCS#8 / OneAsymmetricKey (any of
    /// the forms `seed`, `expandedKey`, `both`), or pqforge's form for sets
    /// without an OID. The algorithm comes from the file.
    ///
    /// # Errors
    /// [`Error::KeyFormat`] or [`Error::InvalidKey`] with the reason; the
    /// set's key errors.
    pub fn decode(data: &[u8]) -> Result<Self, Error> {
        let (label, der) = der_of(data)?;
        match label.as_deref() {
            Some(PRIVATE_LABEL) => Self::from_pkcs8(&der),
            Some(PQFORGE_PRIVATE_LABEL) => Self::from_pqforge(&der),
            Some(PUBLIC_LABEL | PQFORGE_PUBLIC_LABEL) => Err(Error::KeyFormat(
                "this is a public key, where a private key was expected",
            )),
            Some(_) => Err(Error::KeyFormat("PEM label is not a private key's")),
            // DER: the form its structure says; the PKCS#8 error otherwise.
            None if kf::private_key_oid(&der).is_ok() => Self::from_pkcs8(&der),
            None if kf::public_key_oid(&der).is_ok() => Err(Error::KeyFormat(
                "this is a public key, where a private key was expected",
            )),
            None => match kf::decode_pqforge_key(&der) {
                Ok(_) => Self::from_pqforge(&der),
                Err(_) => Self::from_pkcs8(&der),
            },
        }
    }

    fn from_pkcs8(der: &[u8]) -> Result<Self, Error> {
        let alg = by_oid(&kf::private_key_oid(der)?)?;
        let parts = kf::decode_private_key(alg.info(), der)?;
        Self::from_parts(alg, &parts)
    }

    fn from_pqforge(der: &[u8]) -> Result<Self, Error> {
        let k = kf::decode_pqforge_key(der)?;
        let Some(key) = k.private_key else {
            return Err(Error::KeyFormat(
                "this is a public key, where a private key was expected",
            ));
        };
        let alg = by_name(k.algorithm)?;
        let info = alg.info();
        pqforge_core::check_len("private key", info.sk_bytes, key.len())?;
        if let Some(p) = k.public_key {
            pqforge_core::check_len("public key", info.pk_bytes, p.len())?;
        }
        let parts = PrivateKeyParts {
            seed: None,
            expanded: Some(key),
            public_key: k.public_key,
        };
        Self::from_parts(alg, &parts)
    }

    /// Writes the key in `form` (default: the seed where the key has one,
    /// otherwise the expanded key): PEM (`PRIVATE KEY`, or `PQFORGE
    /// PRIVATE KEY` with the public key for sets without an OID), DER, or
    /// the raw seed / expanded key.
    ///
    /// # Errors
    /// [`Error::InvalidInput`] for `Seed` / `Both` when the key has no
    /// seed, or `Both` in the raw encoding.
    pub fn encode(
        &self,
        enc: Encoding,
        form: Option<PrivateKeyForm>,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        let info = self.alg.info();
        let form = form.unwrap_or(if self.seed.is_some() {
            PrivateKeyForm::Seed
        } else {
            PrivateKeyForm::Expanded
        });
        let seed = match form {
            PrivateKeyForm::Expanded => None,
            _ => Some(self.seed().ok_or(Error::InvalidInput(
                "this private key has no seed (it was loaded without one, or its set defines none)",
            ))?),
        };
        let expanded = (form != PrivateKeyForm::Seed).then_some(&self.expanded[..]);
        if enc == Encoding::Raw {
            return match (seed, expanded) {
                (Some(s), None) => Ok(Zeroizing::new(s.to_vec())),
                (None, Some(e)) => Ok(Zeroizing::new(e.to_vec())),
                _ => Err(Error::InvalidInput(
                    "a raw key file holds one form, not both",
                )),
            };
        }
        let (label, der) = if info.oid.is_some() {
            let parts = PrivateKeyParts {
                seed,
                expanded,
                public_key: None,
            };
            (PRIVATE_LABEL, kf::encode_private_key_vec(info, &parts)?)
        } else {
            let k = PqforgeKey {
                algorithm: info.name,
                private_key: Some(&self.expanded),
                public_key: self.public.as_deref(),
            };
            (PQFORGE_PRIVATE_LABEL, kf::encode_pqforge_key_vec(&k)?)
        };
        match enc {
            Encoding::Pem => Ok(Zeroizing::new(pem_string(label, &der)?)),
            _ => Ok(der),
        }
    }

    /// The public key.
    ///
    /// # Errors
    /// [`Error::Unsupported`] when it is not known: a Classic McEliece key
    /// loaded from a raw file (its private key does not contain it).
    pub fn public_key(&self) -> Result<PublicKey, Error> {
        let p = self.public.as_ref().ok_or(Error::Unsupported {
            alg: self.alg.name(),
            what: "deriving the public key from a raw private key (keep the public key file)",
        })?;
        Ok(PublicKey {
            alg: self.alg,
            bytes: p.clone(),
        })
    }

    /// The algorithm.
    #[must_use]
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// The expanded private key (secret).
    #[must_use]
    pub fn expanded(&self) -> &[u8] {
        &self.expanded
    }

    /// The key-generation seed, if the key has one (secret).
    #[must_use]
    pub fn seed(&self) -> Option<&[u8]> {
        self.seed.as_deref().map(|s| &s[..])
    }

    /// KEM or signature.
    #[must_use]
    pub fn kind(&self) -> Kind {
        self.alg.kind()
    }
}
