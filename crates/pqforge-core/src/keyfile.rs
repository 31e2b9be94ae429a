//! Key files (feature `pkcs8`): SubjectPublicKeyInfo (RFC 5280) and PKCS#8
//! / OneAsymmetricKey (RFC 5958) for the parameter sets with an object
//! identifier, and pqforge's own documented form for the draft and at-risk
//! sets, which have none. DER here; PEM (RFC 7468) with the `alloc`
//! feature or into caller buffers ([`pem_encode`], [`pem_decode`]).
//!
//! | sets | public key | private key |
//! |---|---|---|
//! | ML-KEM (RFC 9935), ML-DSA (RFC 9881) | SPKI, the raw FIPS 203 `ek` / FIPS 204 `pk` in the BIT STRING | PKCS#8; the privateKey OCTET STRING holds the CHOICE `seed [0] OCTET STRING` / `expandedKey OCTET STRING` / `both SEQUENCE { seed, expandedKey }` |
//! | SLH-DSA (RFC 9909) | SPKI, `PK.seed ‖ PK.root` | PKCS#8, privateKey = `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` |
//! | HQC, Classic McEliece, Falcon, FN-DSA (no OID) | [`PQFORGE_PUBLIC_LABEL`]: `SEQUENCE { algorithm UTF8String, publicKey [1] IMPLICIT OCTET STRING }` | [`PQFORGE_PRIVATE_LABEL`]: `SEQUENCE { algorithm UTF8String, privateKey [0] IMPLICIT OCTET STRING, publicKey [1] IMPLICIT OCTET STRING }` ([`PqforgeKey`]) |
//!
//! Decoding is strict: DER only, the algorithm's own OID, parameters
//! absent, exact lengths, no trailing data; the CHOICE is read by its tag,
//! never by its length. These functions check the *encoding*; whether the
//! key material is consistent (a `both` whose expanded key is not the
//! seed's, an expanded key that fails its pairwise test) is checked when
//! the key is loaded ([`crate::DynKem::import_private_key`],
//! [`crate::DynSig::import_private_key`], or the typed
//! [`decaps_key_from_parts`] / [`signing_key_from_parts`]).
//!
//! ```
//! # #[cfg(feature = "pkcs8")] {
//! use pqforge_core::AlgInfo;
//! use pqforge_core::keyfile::{self, PrivateKeyParts};
//! // Any AlgInfo with an OID and seed-form keys (ML-KEM-768's sizes here).
//! const INFO: AlgInfo = AlgInfo::kem("ml-kem-768", "ML-KEM", 1184, 2400, 1088, 32, 3)
//!     .with_oid("2.16.840.1.101.3.4.4.2")
//!     .with_key_forms(pqforge_core::KeyForms::SEED_AND_EXPANDED)
//!     .with_seeds(64, 32);
//! let seed = [7u8; 64];
//! let mut buf = [0u8; 128];
//! let der = keyfile::encode_private_key(&INFO, &PrivateKeyParts::seed(&seed), &mut buf).unwrap();
//! assert_eq!(der.len(), keyfile::private_key_der_len(&INFO, keyfile::PrivateKeyForm::Seed));
//! let back = keyfile::decode_private_key(&INFO, der).unwrap();
//! assert_eq!(back.seed, Some(&seed[..]));
//! assert!(back.expanded.is_none());
//! # }
//! ```

use crate::bytes::array_ref;
use crate::{AlgInfo, DecapsKey, Error, Kem, SignatureScheme, SigningKey, check_len};

#[cfg(feature = "pkcs8")]
pub use der_codec::*;
#[cfg(feature = "pkcs8")]
pub use pem_rfc7468::LineEnding;

/// PEM label of a SubjectPublicKeyInfo.
pub const PUBLIC_LABEL: &str = "PUBLIC KEY";
/// PEM label of a PKCS#8 / OneAsymmetricKey private key.
pub const PRIVATE_LABEL: &str = "PRIVATE KEY";
/// PEM label of pqforge's public-key form for sets without an OID.
pub const PQFORGE_PUBLIC_LABEL: &str = "PQFORGE PUBLIC KEY";
/// PEM label of pqforge's private-key form for sets without an OID.
pub const PQFORGE_PRIVATE_LABEL: &str = "PQFORGE PRIVATE KEY";

/// Which private-key encoding to write (RFC 9935 / RFC 9881 CHOICE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrivateKeyForm {
    /// `seed [0] OCTET STRING`: the key-generation seed only (the default
    /// where the set defines it: smallest, and nothing to cross-check).
    Seed,
    /// `expandedKey OCTET STRING`: the FIPS encoding of the private key
    /// (the only form of sets without seed keys).
    Expanded,
    /// `both SEQUENCE { seed, expandedKey }`.
    Both,
}

impl PrivateKeyForm {
    /// The form written when the caller does not choose: [`Self::Seed`]
    /// for sets with seed keys, otherwise [`Self::Expanded`].
    #[must_use]
    pub fn default_for(info: &AlgInfo) -> Self {
        if info.key_forms.seed {
            Self::Seed
        } else {
            Self::Expanded
        }
    }

    /// `"seed"`, `"expanded"` or `"both"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Seed => "seed",
            Self::Expanded => "expanded",
            Self::Both => "both",
        }
    }
}

/// A private key's parts as found in (or to be written to) a key file,
/// borrowed: the seed and/or the expanded key, and a public key where the
/// file carries one.
#[derive(Clone, Copy, Default)]
pub struct PrivateKeyParts<'a> {
    /// The key-generation seed ([`AlgInfo::keygen_seed_bytes`]).
    pub seed: Option<&'a [u8]>,
    /// The expanded private key ([`AlgInfo::sk_bytes`]).
    pub expanded: Option<&'a [u8]>,
    /// The public key ([`AlgInfo::pk_bytes`]), if present in the file.
    pub public_key: Option<&'a [u8]>,
}

impl<'a> PrivateKeyParts<'a> {
    /// Only a seed.
    #[must_use]
    pub fn seed(seed: &'a [u8]) -> Self {
        Self {
            seed: Some(seed),
            ..Self::default()
        }
    }

    /// Only an expanded key.
    #[must_use]
    pub fn expanded(expanded: &'a [u8]) -> Self {
        Self {
            expanded: Some(expanded),
            ..Self::default()
        }
    }

    /// The form these parts make (`None` if neither part is present).
    #[must_use]
    pub fn form(&self) -> Option<PrivateKeyForm> {
        match (self.seed.is_some(), self.expanded.is_some()) {
            (true, true) => Some(PrivateKeyForm::Both),
            (true, false) => Some(PrivateKeyForm::Seed),
            (false, true) => Some(PrivateKeyForm::Expanded),
            (false, false) => None,
        }
    }
}

impl core::fmt::Debug for PrivateKeyParts<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // No secret bytes, only which parts are there.
        f.debug_struct("PrivateKeyParts")
            .field("seed", &self.seed.map(<[u8]>::len))
            .field("expanded", &self.expanded.map(<[u8]>::len))
            .field("public_key", &self.public_key.map(<[u8]>::len))
            .finish()
    }
}

// ---------------------------------------------------------- typed loaders

/// Loads a decapsulation key of `P` from key-file parts, checking that the
/// parts agree:
///
/// * `seed`: the key is regenerated from it (`P::keygen_derand`);
/// * `expandedKey`: every check of `P::prepare_dk` (for ML-KEM the FIPS 203
///   §7.3 hash check), then a pairwise test where `P`'s key embeds its
///   encapsulation key and encapsulation can be derandomized:
///   encapsulate to that key with fixed randomness, decapsulate, compare;
/// * `both`: the expanded key must be exactly the one the seed generates
///   (compared in constant time);
/// * a public key in the file must be the key's own.
///
/// # Errors
/// [`Error::InvalidKey`] with the reason, [`Error::Length`],
/// [`Error::Encoding`], [`Error::Unsupported`] (a seed for a set without
/// seed keys), [`Error::InvalidInput`] (no part).
pub fn decaps_key_from_parts<P: Kem>(parts: &PrivateKeyParts<'_>) -> Result<DecapsKey<P>, Error> {
    let key = match (parts.seed, parts.expanded) {
        (Some(seed), expanded) => {
            let seed = array_ref::<P::KeygenSeed>("private-key seed", seed)?;
            let key = DecapsKey::<P>::from_seed(seed)?;
            if let Some(e) = expanded {
                same_expanded(key.as_ref(), e)?;
            }
            key
        }
        (None, Some(e)) => {
            let key = DecapsKey::<P>::try_from(e)?;
            kem_pairwise(&key)?;
            key
        }
        (None, None) => return Err(Error::InvalidInput("no private-key part")),
    };
    if let Some(pk) = parts.public_key {
        match key.encaps_key() {
            Some(ek) if ek.as_ref() != pk => {
                return Err(Error::InvalidKey(
                    "the public key stored with the private key is not its own",
                ));
            }
            Some(_) => {}
            // Not embedded (Classic McEliece): a pairwise test against it.
            None => kem_pairwise_with(&key, pk)?,
        }
    }
    Ok(key)
}

/// Loads a signing key of `P` from key-file parts, checking that they
/// agree: a seed regenerates the key, an expanded key runs every check of
/// `P::prepare_sk` (ML-DSA recomputes t0 and tr, Falcon checks the NTRU
/// equation) and of `P::check_sk_consistency` (SLH-DSA recomputes PK.root),
/// `both` must match exactly (constant time),
/// and a public key in the file must be the key's own.
///
/// # Errors
/// As [`decaps_key_from_parts`].
pub fn signing_key_from_parts<P: SignatureScheme>(
    parts: &PrivateKeyParts<'_>,
) -> Result<SigningKey<P>, Error> {
    let key = match (parts.seed, parts.expanded) {
        (Some(seed), expanded) => {
            let seed = array_ref::<P::KeygenSeed>("private-key seed", seed)?;
            let key = SigningKey::<P>::from_seed(seed)?;
            if let Some(e) = expanded {
                same_expanded(key.as_ref(), e)?;
            }
            key
        }
        (None, Some(e)) => {
            let key = SigningKey::<P>::try_from(e)?;
            P::check_sk_consistency(key.prepared())?;
            key
        }
        (None, None) => return Err(Error::InvalidInput("no private-key part")),
    };
    if let Some(pk) = parts.public_key
        && key.verifying_key().as_ref() != pk
    {
        return Err(Error::InvalidKey(
            "the public key stored with the private key is not its own",
        ));
    }
    Ok(key)
}

/// `both`: the stored expanded key must be the seed's, compared in constant
/// time (both are secret).
fn same_expanded(from_seed: &[u8], stored: &[u8]) -> Result<(), Error> {
    check_len("expanded private key", from_seed.len(), stored.len())?;
    if crate::ct::eq_mask(from_seed, stored) == 0xFF {
        Ok(())
    } else {
        Err(Error::InvalidKey(
            "the expanded private key is not the one its seed generates (`both` form)",
        ))
    }
}

/// Pairwise consistency of an expanded decapsulation key whose encoding
/// embeds the encapsulation key (see [`kem_pairwise_with`]); sets that
/// embed none are tested only against a stored public key.
fn kem_pairwise<P: Kem>(dk: &DecapsKey<P>) -> Result<(), Error> {
    match (P::DK_EK_OFFSET, dk.encaps_key()) {
        (Some(_), Some(ek)) => kem_pairwise_with(dk, ek.as_ref()),
        _ => Ok(()),
    }
}

/// Encapsulates to `pk` with fixed, public randomness (the NIST KAT
/// generator seeded with zeros: the test draws no entropy and is the same
/// every time), decapsulates with `dk`, compares the secrets in constant
/// time. The public key is used in place (Classic McEliece's is up to
/// 1.3 MB: no copy on the stack).
fn kem_pairwise_with<P: Kem>(dk: &DecapsKey<P>, pk: &[u8]) -> Result<(), Error> {
    use crate::bytes::ByteArray;
    let (ek, state) = crate::kem::prepare_ek::<P>(pk)?;
    let mut rng = crate::kat::KatSource::new(crate::KatRng::NistDrbg, &[0u8; 48]);
    let mut ct = P::CtBytes::zeroed();
    let (mut k1, mut k2) = (P::SsBytes::zeroed(), P::SsBytes::zeroed());
    P::encaps_into(
        crate::PreparedEk::new(ek, &state),
        &mut rng,
        &mut ct,
        &mut k1,
    );
    P::decaps_into(dk.prepared(), &ct, &mut k2);
    let same = crate::ct::eq_mask(k1.as_ref(), k2.as_ref()) == 0xFF;
    crate::ct::wipe(k1.as_mut());
    crate::ct::wipe(k2.as_mut());
    if same {
        Ok(())
    } else {
        Err(Error::InvalidKey(
            "pairwise test failed: the private key does not decapsulate what its public key encapsulates",
        ))
    }
}

#[cfg(feature = "pkcs8")]
mod der_codec {
    use der::asn1::{OctetStringRef, Utf8StringRef};
    use der::{
        Decode, Encode, Header, Length, Reader, SliceReader, SliceWriter, Tag, TagNumber, Writer,
    };
    use pem_rfc7468::LineEnding;
    use pkcs8::PrivateKeyInfoRef;
    use spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};

    use super::{PrivateKeyForm, PrivateKeyParts};
    use crate::{AlgInfo, Error, check_len};

    /// An ASN.1 object identifier (as [`public_key_oid`] and
    /// [`private_key_oid`] return it; `Display` prints the dotted form).
    pub use der::asn1::ObjectIdentifier;

    // ---------------------------------------------------------------- helpers

    /// The set's OID, or `Unsupported` for sets without one.
    fn oid_of(info: &AlgInfo) -> Result<ObjectIdentifier, Error> {
        let s = info.oid.ok_or(Error::Unsupported {
            alg: info.name,
            what: "standard key files (no OID is assigned: use the pqforge form)",
        })?;
        ObjectIdentifier::new(s).map_err(|_| Error::KeyFormat("malformed OID in the registry"))
    }

    /// A DER error as a one-line reason.
    fn der_err(e: &der::Error) -> Error {
        use der::ErrorKind as K;
        Error::KeyFormat(match e.kind() {
            K::TrailingData { .. } => "trailing data after the DER structure",
            K::Incomplete { .. } => "truncated DER",
            K::Noncanonical { .. } => "not DER (a non-canonical encoding)",
            K::TagUnexpected { .. } | K::TagUnknown { .. } => "unexpected ASN.1 tag",
            K::Length { .. } | K::Overlength | K::Overflow => "malformed DER length",
            K::OidMalformed => "malformed OBJECT IDENTIFIER",
            K::Value { .. } => "invalid ASN.1 value",
            _ => "malformed DER",
        })
    }

    /// Checks the AlgorithmIdentifier: this set's OID, parameters absent.
    fn check_algorithm(info: &AlgInfo, alg: &AlgorithmIdentifierRef<'_>) -> Result<(), Error> {
        if alg.oid != oid_of(info)? {
            return Err(Error::KeyFormat(
                "the key's algorithm OID is not the expected algorithm's",
            ));
        }
        if alg.parameters.is_some() {
            return Err(Error::KeyFormat(
                "algorithm parameters present (they must be absent)",
            ));
        }
        Ok(())
    }

    /// Bytes of a TLV with `len` value bytes.
    fn tlv_len(len: usize) -> usize {
        // Tag byte, then the length: short form below 128, else 0x80 | n and
        // n big-endian bytes.
        let n = match len {
            0..=0x7F => 0,
            0x80..=0xFF => 1,
            0x100..=0xFFFF => 2,
            0x1_0000..=0xFF_FFFF => 3,
            _ => 4,
        };
        1 + 1 + n + len
    }

    /// Writes a header for `len` value bytes.
    fn header(w: &mut SliceWriter<'_>, tag: Tag, len: usize) -> der::Result<()> {
        Header::new(tag, Length::try_from(len)?).encode(w)
    }

    /// Writes one TLV whose value is `value`.
    fn tlv(w: &mut SliceWriter<'_>, tag: Tag, value: &[u8]) -> der::Result<()> {
        header(w, tag, value.len())?;
        w.write(value)
    }

    const SEED_TAG: Tag = Tag::ContextSpecific {
        constructed: false,
        number: TagNumber(0),
    };

    /// The DER of `AlgorithmIdentifier { oid }` (parameters absent): its length.
    fn alg_id_len(oid: &ObjectIdentifier) -> usize {
        tlv_len(tlv_len(oid.as_bytes().len()))
    }

    fn write_alg_id(w: &mut SliceWriter<'_>, oid: &ObjectIdentifier) -> der::Result<()> {
        header(w, Tag::Sequence, tlv_len(oid.as_bytes().len()))?;
        tlv(w, Tag::ObjectIdentifier, oid.as_bytes())
    }

    fn too_small(what: &'static str, needed: usize, got: usize) -> Error {
        Error::BufferTooSmall { what, needed, got }
    }

    // ------------------------------------------------------------ public keys

    /// The algorithm OID of a DER SubjectPublicKeyInfo (to find its set).
    ///
    /// # Errors
    /// [`Error::KeyFormat`] if `der` is not a SubjectPublicKeyInfo.
    pub fn public_key_oid(der: &[u8]) -> Result<ObjectIdentifier, Error> {
        let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(|e| der_err(&e))?;
        Ok(spki.algorithm.oid)
    }

    /// The raw public key of `info`'s set inside a DER SubjectPublicKeyInfo.
    ///
    /// # Errors
    /// [`Error::KeyFormat`] (not DER, another algorithm, parameters present,
    /// unused bits, trailing data), [`Error::Length`],
    /// [`Error::Unsupported`] for sets without an OID.
    pub fn decode_public_key<'a>(info: &AlgInfo, der: &'a [u8]) -> Result<&'a [u8], Error> {
        let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(|e| der_err(&e))?;
        public_from_spki(info, &spki)
    }

    /// The raw public key of an already parsed SubjectPublicKeyInfo (see
    /// [`decode_public_key`]; for the RustCrypto `spki` traits).
    ///
    /// # Errors
    /// As [`decode_public_key`].
    pub fn public_from_spki<'a>(
        info: &AlgInfo,
        spki: &SubjectPublicKeyInfoRef<'a>,
    ) -> Result<&'a [u8], Error> {
        check_algorithm(info, &spki.algorithm)?;
        let key = spki
            .subject_public_key
            .as_bytes()
            .ok_or(Error::KeyFormat("public key BIT STRING has unused bits"))?;
        check_len("public key", info.pk_bytes, key.len())?;
        Ok(key)
    }

    /// Bytes of the DER SubjectPublicKeyInfo of `info`'s set.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for sets without an OID.
    pub fn public_key_der_len(info: &AlgInfo) -> Result<usize, Error> {
        let oid = oid_of(info)?;
        Ok(tlv_len(alg_id_len(&oid) + tlv_len(1 + info.pk_bytes)))
    }

    /// Encodes `pk` as a DER SubjectPublicKeyInfo into `out`; returns the
    /// bytes written ([`public_key_der_len`] of them).
    ///
    /// # Errors
    /// [`Error::Length`], [`Error::BufferTooSmall`], [`Error::Unsupported`]
    /// for sets without an OID.
    pub fn encode_public_key<'o>(
        info: &AlgInfo,
        pk: &[u8],
        out: &'o mut [u8],
    ) -> Result<&'o [u8], Error> {
        check_len("public key", info.pk_bytes, pk.len())?;
        let oid = oid_of(info)?;
        let total = public_key_der_len(info)?;
        let got = out.len();
        let out = out
            .get_mut(..total)
            .ok_or(too_small("SubjectPublicKeyInfo", total, got))?;
        let mut w = SliceWriter::new(out);
        let r: der::Result<()> = (|| {
            header(
                &mut w,
                Tag::Sequence,
                alg_id_len(&oid) + tlv_len(1 + pk.len()),
            )?;
            write_alg_id(&mut w, &oid)?;
            header(&mut w, Tag::BitString, 1 + pk.len())?;
            w.write_byte(0)?; // no unused bits
            w.write(pk)
        })();
        r.map_err(|e| der_err(&e))?;
        w.finish().map_err(|e| der_err(&e))
    }

    // ----------------------------------------------------------- private keys

    /// The algorithm OID of a DER PKCS#8 private key (to find its set).
    ///
    /// # Errors
    /// [`Error::KeyFormat`] if `der` is not a PKCS#8 PrivateKeyInfo.
    pub fn private_key_oid(der: &[u8]) -> Result<ObjectIdentifier, Error> {
        let pki = PrivateKeyInfoRef::from_der(der).map_err(|e| der_err(&e))?;
        Ok(pki.algorithm.oid)
    }

    /// The parts of a DER PKCS#8 / OneAsymmetricKey private key of `info`'s
    /// set: for sets with seed keys the CHOICE `seed` / `expandedKey` / `both`
    /// (read by tag), otherwise the raw expanded key; the optional public key
    /// of a version-2 key.
    ///
    /// # Errors
    /// [`Error::KeyFormat`] (not DER, another algorithm, parameters present,
    /// an unknown CHOICE, trailing data), [`Error::Length`] for a part of the
    /// wrong length, [`Error::Unsupported`] for sets without an OID.
    pub fn decode_private_key<'a>(
        info: &AlgInfo,
        der: &'a [u8],
    ) -> Result<PrivateKeyParts<'a>, Error> {
        let pki = PrivateKeyInfoRef::from_der(der).map_err(|e| der_err(&e))?;
        parts_from_pkcs8(info, &pki)
    }

    /// The parts of an already parsed PKCS#8 structure (see
    /// [`decode_private_key`]; for the RustCrypto `pkcs8` traits).
    ///
    /// # Errors
    /// As [`decode_private_key`].
    pub fn parts_from_pkcs8<'a>(
        info: &AlgInfo,
        pki: &PrivateKeyInfoRef<'a>,
    ) -> Result<PrivateKeyParts<'a>, Error> {
        check_algorithm(info, &pki.algorithm)?;
        let mut parts = PrivateKeyParts {
            public_key: match pki.public_key {
                Some(b) => {
                    let pk = b
                        .as_bytes()
                        .ok_or(Error::KeyFormat("public key BIT STRING has unused bits"))?;
                    check_len(
                        "public key in the private key file",
                        info.pk_bytes,
                        pk.len(),
                    )?;
                    Some(pk)
                }
                None => None,
            },
            ..PrivateKeyParts::default()
        };
        let inner: &'a [u8] = pki.private_key.as_bytes();
        if !info.key_forms.seed {
            // RFC 9909 (and every set without seed keys): the raw key.
            check_len("private key", info.sk_bytes, inner.len())?;
            parts.expanded = Some(inner);
            return Ok(parts);
        }
        let mut r = SliceReader::new(inner).map_err(|e| der_err(&e))?;
        let h = Header::decode(&mut r).map_err(|e| der_err(&e))?;
        let body = r.read_slice(h.length()).map_err(|e| der_err(&e))?;
        if !r.is_finished() {
            return Err(Error::KeyFormat(
                "trailing data after the private-key CHOICE",
            ));
        }
        match h.tag() {
            SEED_TAG => parts.seed = Some(body),
            Tag::OctetString => parts.expanded = Some(body),
            Tag::Sequence => {
                let mut r = SliceReader::new(body).map_err(|e| der_err(&e))?;
                let seed = <&OctetStringRef>::decode(&mut r).map_err(|e| der_err(&e))?;
                let exp = <&OctetStringRef>::decode(&mut r).map_err(|e| der_err(&e))?;
                if !r.is_finished() {
                    return Err(Error::KeyFormat("trailing data in the `both` SEQUENCE"));
                }
                parts.seed = Some(seed.as_bytes());
                parts.expanded = Some(exp.as_bytes());
            }
            _ => {
                return Err(Error::KeyFormat(
                    "the private key is none of the CHOICE seed [0], expandedKey, both",
                ));
            }
        }
        if let Some(s) = parts.seed {
            check_len("private-key seed", info.keygen_seed_bytes, s.len())?;
        }
        if let Some(e) = parts.expanded {
            check_len("expanded private key", info.sk_bytes, e.len())?;
        }
        Ok(parts)
    }

    /// Length of the privateKey OCTET STRING's content for `form`.
    fn inner_len(info: &AlgInfo, form: PrivateKeyForm) -> usize {
        if !info.key_forms.seed {
            return info.sk_bytes;
        }
        let (s, e) = (info.keygen_seed_bytes, info.sk_bytes);
        match form {
            PrivateKeyForm::Seed => tlv_len(s),
            PrivateKeyForm::Expanded => tlv_len(e),
            PrivateKeyForm::Both => tlv_len(tlv_len(s) + tlv_len(e)),
        }
    }

    /// Bytes of the DER PKCS#8 private key of `info`'s set in `form` (0 for
    /// sets without an OID). Sets without seed keys have one form; `form` is
    /// then ignored.
    #[must_use]
    pub fn private_key_der_len(info: &AlgInfo, form: PrivateKeyForm) -> usize {
        let Ok(oid) = oid_of(info) else { return 0 };
        tlv_len(3 + alg_id_len(&oid) + tlv_len(inner_len(info, form)))
    }

    /// Encodes `parts` as a DER PKCS#8 (version 1, no public key, no
    /// attributes, as RFC 9935 / 9881 / 9909 write them) into `out`; the form
    /// is that of the parts present ([`PrivateKeyParts::form`]). Returns the
    /// bytes written.
    ///
    /// # Errors
    /// [`Error::InvalidInput`] for no parts or a seed where the set defines no
    /// seed keys, [`Error::Length`], [`Error::BufferTooSmall`],
    /// [`Error::Unsupported`] for sets without an OID.
    pub fn encode_private_key<'o>(
        info: &AlgInfo,
        parts: &PrivateKeyParts<'_>,
        out: &'o mut [u8],
    ) -> Result<&'o [u8], Error> {
        let oid = oid_of(info)?;
        let form = parts
            .form()
            .ok_or(Error::InvalidInput("no private-key part to encode"))?;
        if parts.seed.is_some() && !info.key_forms.seed {
            return Err(Error::InvalidInput(
                "this set defines no seed-form private keys",
            ));
        }
        if let Some(s) = parts.seed {
            check_len("private-key seed", info.keygen_seed_bytes, s.len())?;
        }
        if let Some(e) = parts.expanded {
            check_len("expanded private key", info.sk_bytes, e.len())?;
        }
        let total = private_key_der_len(info, form);
        let got = out.len();
        let out = out
            .get_mut(..total)
            .ok_or(too_small("PKCS#8 private key", total, got))?;
        let mut w = SliceWriter::new(out);
        let inner = inner_len(info, form);
        let r: der::Result<()> = (|| {
            header(&mut w, Tag::Sequence, 3 + alg_id_len(&oid) + tlv_len(inner))?;
            tlv(&mut w, Tag::Integer, &[0])?; // version v1
            write_alg_id(&mut w, &oid)?;
            header(&mut w, Tag::OctetString, inner)?;
            match (info.key_forms.seed, parts.seed, parts.expanded) {
                (false, _, Some(e)) => w.write(e)?,
                (true, Some(s), None) => tlv(&mut w, SEED_TAG, s)?,
                (true, None, Some(e)) => tlv(&mut w, Tag::OctetString, e)?,
                (true, Some(s), Some(e)) => {
                    header(&mut w, Tag::Sequence, tlv_len(s.len()) + tlv_len(e.len()))?;
                    tlv(&mut w, Tag::OctetString, s)?;
                    tlv(&mut w, Tag::OctetString, e)?;
                }
                _ => unreachable!("form checked above"),
            }
            Ok(())
        })();
        r.map_err(|e| der_err(&e))?;
        w.finish().map_err(|e| der_err(&e))
    }

    // ------------------------------------------------- pqforge form (no OID)

    /// A key in pqforge's own form (for sets without an OID): the
    /// algorithm's canonical name, the private key (a private-key file) and
    /// the public key (always in a public-key file; beside the private key
    /// where the private key does not embed it, e.g. Classic McEliece).
    ///
    /// ```text
    /// PqforgeKey ::= SEQUENCE {
    ///     algorithm   UTF8String,                        -- "hqc-1", ...
    ///     privateKey  [0] IMPLICIT OCTET STRING OPTIONAL,
    ///     publicKey   [1] IMPLICIT OCTET STRING OPTIONAL } -- at least one
    /// ```
    ///
    /// The tags keep the two kinds of file apart whatever their lengths.
    #[derive(Clone, Copy)]
    pub struct PqforgeKey<'a> {
        /// The canonical algorithm name (`"hqc-1"`).
        pub algorithm: &'a str,
        /// The raw (expanded) private key, in a private-key file.
        pub private_key: Option<&'a [u8]>,
        /// The raw public key.
        pub public_key: Option<&'a [u8]>,
    }

    impl core::fmt::Debug for PqforgeKey<'_> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            // Lengths only: the private key is secret.
            f.debug_struct("PqforgeKey")
                .field("algorithm", &self.algorithm)
                .field("private_key", &self.private_key.map(<[u8]>::len))
                .field("public_key", &self.public_key.map(<[u8]>::len))
                .finish()
        }
    }

    const PRIVATE_TAG: Tag = Tag::ContextSpecific {
        constructed: false,
        number: TagNumber(0),
    };
    const PUBLIC_TAG: Tag = Tag::ContextSpecific {
        constructed: false,
        number: TagNumber(1),
    };

    /// Decodes pqforge's form ([`PqforgeKey`], DER). Lengths are checked
    /// once the algorithm is known (by the caller, who resolves the name).
    ///
    /// # Errors
    /// [`Error::KeyFormat`] if `der` is not that structure.
    pub fn decode_pqforge_key(der: &[u8]) -> Result<PqforgeKey<'_>, Error> {
        let mut r = SliceReader::new(der).map_err(|e| der_err(&e))?;
        let h = Header::decode(&mut r).map_err(|e| der_err(&e))?;
        if h.tag() != Tag::Sequence {
            return Err(Error::KeyFormat("a pqforge key is a SEQUENCE"));
        }
        let body = r.read_slice(h.length()).map_err(|e| der_err(&e))?;
        if !r.is_finished() {
            return Err(Error::KeyFormat("trailing data after the DER structure"));
        }
        let mut r = SliceReader::new(body).map_err(|e| der_err(&e))?;
        let name = Utf8StringRef::decode(&mut r).map_err(|e| der_err(&e))?;
        let mut k = PqforgeKey {
            algorithm: name.as_str(),
            private_key: None,
            public_key: None,
        };
        let mut last = None;
        while !r.is_finished() {
            let h = Header::decode(&mut r).map_err(|e| der_err(&e))?;
            let v = r.read_slice(h.length()).map_err(|e| der_err(&e))?;
            match h.tag() {
                PRIVATE_TAG if last.is_none() => k.private_key = Some(v),
                PUBLIC_TAG if last != Some(PUBLIC_TAG) => k.public_key = Some(v),
                _ => {
                    return Err(Error::KeyFormat(
                        "a pqforge key has privateKey [0] then publicKey [1], each at most once",
                    ));
                }
            }
            last = Some(h.tag());
        }
        if last.is_none() {
            return Err(Error::KeyFormat("a pqforge key without a key"));
        }
        Ok(k)
    }

    /// Bytes of the SEQUENCE body of pqforge's form.
    fn pqforge_body_len(k: &PqforgeKey<'_>) -> usize {
        tlv_len(k.algorithm.len())
            + k.private_key.map_or(0, |p| tlv_len(p.len()))
            + k.public_key.map_or(0, |p| tlv_len(p.len()))
    }

    /// Bytes of [`encode_pqforge_key`]'s output.
    #[must_use]
    pub fn pqforge_key_der_len(k: &PqforgeKey<'_>) -> usize {
        tlv_len(pqforge_body_len(k))
    }

    /// Encodes pqforge's form (see [`decode_pqforge_key`]) into `out`.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`]; [`Error::InvalidInput`] for no key.
    pub fn encode_pqforge_key<'o>(
        k: &PqforgeKey<'_>,
        out: &'o mut [u8],
    ) -> Result<&'o [u8], Error> {
        if k.private_key.is_none() && k.public_key.is_none() {
            return Err(Error::InvalidInput(
                "a pqforge key needs a private or a public key",
            ));
        }
        let total = pqforge_key_der_len(k);
        let got = out.len();
        let out = out
            .get_mut(..total)
            .ok_or(too_small("pqforge key", total, got))?;
        let mut w = SliceWriter::new(out);
        let r: der::Result<()> = (|| {
            header(&mut w, Tag::Sequence, pqforge_body_len(k))?;
            tlv(&mut w, Tag::Utf8String, k.algorithm.as_bytes())?;
            if let Some(p) = k.private_key {
                tlv(&mut w, PRIVATE_TAG, p)?;
            }
            if let Some(p) = k.public_key {
                tlv(&mut w, PUBLIC_TAG, p)?;
            }
            Ok(())
        })();
        r.map_err(|e| der_err(&e))?;
        w.finish().map_err(|e| der_err(&e))
    }

    // -------------------------------------------------------------------- PEM

    /// Bytes of the PEM encoding of `der_len` DER bytes under `label`.
    ///
    /// # Errors
    /// [`Error::KeyFormat`] if the length overflows.
    pub fn pem_len(label: &str, der_len: usize, line_ending: LineEnding) -> Result<usize, Error> {
        pem_rfc7468::encapsulated_len(label, line_ending, der_len)
            .map_err(|_| Error::KeyFormat("PEM length overflow"))
    }

    /// PEM-encodes `der` under `label` (64-column lines, RFC 7468) into `out`.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`], [`Error::KeyFormat`].
    pub fn pem_encode<'o>(
        label: &str,
        der: &[u8],
        line_ending: LineEnding,
        out: &'o mut [u8],
    ) -> Result<&'o str, Error> {
        let need = pem_len(label, der.len(), line_ending)?;
        if out.len() < need {
            return Err(too_small("PEM", need, out.len()));
        }
        pem_rfc7468::encode(label, line_ending, der, out)
            .map_err(|_| Error::KeyFormat("PEM encoding failed"))
    }

    /// Decodes one PEM document (RFC 7468, strict: no headers, 64-column
    /// Base64) into `buf`: its label and DER bytes.
    ///
    /// # Errors
    /// [`Error::KeyFormat`] for malformed PEM or a too small `buf`.
    pub fn pem_decode<'i, 'o>(
        pem: &'i [u8],
        buf: &'o mut [u8],
    ) -> Result<(&'i str, &'o [u8]), Error> {
        pem_rfc7468::decode(pem, buf).map_err(|e| Error::KeyFormat(pem_reason(e)))
    }

    /// The label of a PEM document without decoding it.
    ///
    /// # Errors
    /// [`Error::KeyFormat`] for malformed PEM.
    pub fn pem_label(pem: &[u8]) -> Result<&str, Error> {
        pem_rfc7468::decode_label(pem).map_err(|e| Error::KeyFormat(pem_reason(e)))
    }

    fn pem_reason(e: pem_rfc7468::Error) -> &'static str {
        use pem_rfc7468::Error as E;
        match e {
            E::Base64(_) => "PEM: invalid Base64",
            E::Label | E::PreEncapsulationBoundary | E::PostEncapsulationBoundary => {
                "PEM: malformed BEGIN/END line"
            }
            E::HeaderDisallowed => "PEM: headers are not allowed (RFC 7468)",
            E::Length => "PEM: buffer too small",
            _ => "malformed PEM",
        }
    }

    // ------------------------------------------------- RustCrypto key traits

    /// `DecodePublicKey` / `DecodePrivateKey` (and, with `alloc`,
    /// `EncodePublicKey` / `EncodePrivateKey`) of the RustCrypto `spki` and
    /// `pkcs8` crates on the typed keys of every set with an OID; the private
    /// keys go through [`super::decaps_key_from_parts`] /
    /// [`super::signing_key_from_parts`], so every consistency check runs.
    /// Encoding writes the seed form when the key has its seed, otherwise the
    /// expanded form.
    mod traits {
        use pkcs8::{KeyError, PrivateKeyInfoRef};
        use spki::SubjectPublicKeyInfoRef;

        use super::{parts_from_pkcs8, public_from_spki};
        use crate::{DecapsKey, EncapsKey, Error, Kem, SignatureScheme, SigningKey, VerifyingKey};

        fn spki_err(e: Error) -> spki::Error {
            match e {
                Error::Unsupported { .. } => spki::Error::AlgorithmParametersMissing,
                _ => spki::Error::KeyMalformed,
            }
        }

        fn pkcs8_err(e: Error) -> pkcs8::Error {
            match e {
                Error::Length { expected, got, .. } if got < expected => {
                    pkcs8::Error::KeyMalformed(KeyError::TooShort)
                }
                Error::Length { .. } => pkcs8::Error::KeyMalformed(KeyError::TooLong),
                _ => pkcs8::Error::KeyMalformed(KeyError::Invalid),
            }
        }

        macro_rules! public_traits {
            ($key:ident: $tr:ident) => {
                impl<P: $tr> TryFrom<SubjectPublicKeyInfoRef<'_>> for $key<P> {
                    type Error = spki::Error;

                    /// The key of a SubjectPublicKeyInfo (this set's OID,
                    /// parameters absent, exact length, every check of the set).
                    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> Result<Self, spki::Error> {
                        let raw = public_from_spki(&P::INFO, &spki).map_err(spki_err)?;
                        $key::try_from(raw).map_err(spki_err)
                    }
                }

                #[cfg(feature = "alloc")]
                impl<P: $tr> spki::EncodePublicKey for $key<P> {
                    fn to_public_key_der(&self) -> spki::Result<der::Document> {
                        let der = super::encode_public_key_vec(&P::INFO, self.as_ref())
                            .map_err(spki_err)?;
                        Ok(der::Document::try_from(der)?)
                    }
                }
            };
        }

        macro_rules! private_traits {
            ($key:ident: $tr:ident, $load:ident) => {
                impl<P: $tr> TryFrom<PrivateKeyInfoRef<'_>> for $key<P> {
                    type Error = pkcs8::Error;

                    /// The key of a PKCS#8 structure, with every consistency
                    /// check of [`super::super::decaps_key_from_parts`] /
                    /// [`super::super::signing_key_from_parts`].
                    fn try_from(pki: PrivateKeyInfoRef<'_>) -> Result<Self, pkcs8::Error> {
                        let parts = parts_from_pkcs8(&P::INFO, &pki).map_err(pkcs8_err)?;
                        super::super::$load::<P>(&parts).map_err(pkcs8_err)
                    }
                }

                #[cfg(feature = "alloc")]
                impl<P: $tr> pkcs8::EncodePrivateKey for $key<P> {
                    fn to_pkcs8_der(&self) -> pkcs8::Result<der::SecretDocument> {
                        let parts = match self.seed() {
                            Some(seed) => super::super::PrivateKeyParts::seed(seed.as_ref()),
                            None => super::super::PrivateKeyParts::expanded(self.as_ref()),
                        };
                        let der =
                            super::encode_private_key_vec(&P::INFO, &parts).map_err(pkcs8_err)?;
                        Ok(der::SecretDocument::try_from(der.as_slice())?)
                    }
                }
            };
        }

        public_traits!(EncapsKey: Kem);
        public_traits!(VerifyingKey: SignatureScheme);
        private_traits!(DecapsKey: Kem, decaps_key_from_parts);
        private_traits!(SigningKey: SignatureScheme, signing_key_from_parts);
    }

    // ------------------------------------------------------- heap conveniences

    /// [`encode_public_key`] into a new vector.
    ///
    /// # Errors
    /// As [`encode_public_key`].
    #[cfg(feature = "alloc")]
    pub fn encode_public_key_vec(info: &AlgInfo, pk: &[u8]) -> Result<alloc::vec::Vec<u8>, Error> {
        let mut v = alloc::vec![0u8; public_key_der_len(info)?];
        let n = encode_public_key(info, pk, &mut v)?.len();
        v.truncate(n);
        Ok(v)
    }

    /// [`encode_private_key`] into a new vector, wiped on drop.
    ///
    /// # Errors
    /// As [`encode_private_key`].
    #[cfg(feature = "alloc")]
    pub fn encode_private_key_vec(
        info: &AlgInfo,
        parts: &PrivateKeyParts<'_>,
    ) -> Result<zeroize::Zeroizing<alloc::vec::Vec<u8>>, Error> {
        let form = parts
            .form()
            .ok_or(Error::InvalidInput("no private-key part to encode"))?;
        let mut v = zeroize::Zeroizing::new(alloc::vec![0u8; private_key_der_len(info, form)]);
        let n = encode_private_key(info, parts, &mut v)?.len();
        v.truncate(n);
        Ok(v)
    }

    /// [`encode_pqforge_key`] into a new vector, wiped on drop (it may hold a
    /// private key).
    ///
    /// # Errors
    /// As [`encode_pqforge_key`].
    #[cfg(feature = "alloc")]
    pub fn encode_pqforge_key_vec(
        k: &PqforgeKey<'_>,
    ) -> Result<zeroize::Zeroizing<alloc::vec::Vec<u8>>, Error> {
        let mut v = zeroize::Zeroizing::new(alloc::vec![0u8; pqforge_key_der_len(k)]);
        let n = encode_pqforge_key(k, &mut v)?.len();
        v.truncate(n);
        Ok(v)
    }

    /// PEM-encodes `der` under `label` (64-column lines) into a new string.
    ///
    /// # Errors
    /// [`Error::KeyFormat`].
    #[cfg(feature = "alloc")]
    pub fn pem_encode_string(
        label: &str,
        der: &[u8],
        line_ending: LineEnding,
    ) -> Result<alloc::string::String, Error> {
        pem_rfc7468::encode_string(label, line_ending, der)
            .map_err(|_| Error::KeyFormat("PEM encoding failed"))
    }

    /// Decodes one PEM document into its label and a new vector (wiped on
    /// drop: it may be a private key).
    ///
    /// # Errors
    /// [`Error::KeyFormat`] for malformed PEM.
    #[cfg(feature = "alloc")]
    pub fn pem_decode_vec(
        pem: &[u8],
    ) -> Result<(&str, zeroize::Zeroizing<alloc::vec::Vec<u8>>), Error> {
        // Decoded into one buffer of the exact size, wiped on drop on every
        // path (no reallocation leaves a copy behind).
        let reason = |e| Error::KeyFormat(pem_reason(e));
        let mut d = pem_rfc7468::Decoder::new(pem).map_err(reason)?;
        let label = d.type_label();
        let mut v = zeroize::Zeroizing::new(alloc::vec![0u8; d.remaining_len()]);
        let n = d.decode(&mut v).map_err(reason)?.len();
        if !d.is_finished() {
            return Err(Error::KeyFormat("malformed PEM"));
        }
        v.truncate(n);
        Ok((label, v))
    }
}
