//! Keys, ciphertexts and shared secrets, with the FIPS 203 §7 input checks
//! in their `TryFrom<&[u8]>` constructors.

use core::fmt;

use pqforge_core::{Error, check_len, ct};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::dispatch;
use crate::params::{ByteArray, ParameterSet};
use crate::poly::POLY_BYTES;

/// An ML-KEM encapsulation (public) key: `ByteEncode12(t-hat) || rho`,
/// 384k + 32 bytes, known to pass the modulus check. Caches H(ek).
pub struct EncapsKey<P: ParameterSet> {
    bytes: P::EkBytes,
    h: [u8; 32],
}

/// An ML-KEM decapsulation (secret) key in the expanded FIPS 203 encoding
/// `dk_PKE || ek || H(ek) || z` (768k + 96 bytes), plus the 64-byte seed
/// d || z when the key was made from it. Wiped on drop.
pub struct DecapsKey<P: ParameterSet> {
    bytes: P::DkBytes,
    seed: [u8; 64],
    has_seed: bool,
}

/// An ML-KEM ciphertext, 32 (d_u k + d_v) bytes. Every byte string of that
/// length is a valid ciphertext.
pub struct Ciphertext<P: ParameterSet> {
    bytes: P::CtBytes,
}

/// A 32-byte shared secret. Wiped on drop; `==` compares in constant time.
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct SharedSecret([u8; 32]);

pub(crate) fn keygen_derand<P: ParameterSet>(
    d: &[u8; 32],
    z: &[u8; 32],
) -> (EncapsKey<P>, DecapsKey<P>) {
    let mut seed = [0u8; 64];
    seed[..32].copy_from_slice(d);
    seed[32..].copy_from_slice(z);
    let dk = DecapsKey::from_seed(&seed);
    seed.zeroize();
    (dk.encaps_key(), dk)
}

pub(crate) fn encaps_derand<P: ParameterSet>(
    ek: &EncapsKey<P>,
    m: &[u8; 32],
) -> (Ciphertext<P>, SharedSecret) {
    let mut c = Ciphertext::<P> {
        bytes: P::CtBytes::zeroed(),
    };
    let mut k = SharedSecret([0; 32]);
    let cb: &mut [u8] = c.bytes.as_mut();
    dispatch::encaps::<P>(ek.bytes.as_ref(), &ek.h, m, cb, &mut k.0);
    (c, k)
}

pub(crate) fn decaps<P: ParameterSet>(dk: &DecapsKey<P>, c: &Ciphertext<P>) -> SharedSecret {
    let mut k = SharedSecret([0; 32]);
    dispatch::decaps::<P>(dk.bytes.as_ref(), c.bytes.as_ref(), &mut k.0);
    k
}

// ---------------------------------------------------------------- EncapsKey

impl<P: ParameterSet> EncapsKey<P> {
    /// The encoded key.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// H(ek) = SHA3-256 of the encoding.
    #[must_use]
    pub fn hash(&self) -> &[u8; 32] {
        &self.h
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for EncapsKey<P> {
    type Error = Error;

    /// FIPS 203 §7.2: type (length) check and modulus check.
    ///
    /// # Errors
    /// [`Error::Length`] if `bytes` is not 384k + 32 bytes long;
    /// [`Error::Encoding`] if a 12-bit coefficient is >= q.
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        check_len("ML-KEM encapsulation key", P::EK_BYTES, bytes.len())?;
        if !dispatch::is_canonical_12(&bytes[..POLY_BYTES * P::K]) {
            return Err(Error::Encoding(
                "ML-KEM encapsulation key: coefficient >= q (modulus check)",
            ));
        }
        let mut b = P::EkBytes::zeroed();
        b.as_mut().copy_from_slice(bytes);
        Ok(Self {
            bytes: b,
            h: crate::hash::h(bytes),
        })
    }
}

impl<P: ParameterSet> AsRef<[u8]> for EncapsKey<P> {
    fn as_ref(&self) -> &[u8] {
        self.bytes.as_ref()
    }
}

impl<P: ParameterSet> Clone for EncapsKey<P> {
    fn clone(&self) -> Self {
        Self {
            bytes: self.bytes,
            h: self.h,
        }
    }
}

impl<P: ParameterSet> PartialEq for EncapsKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes.as_ref() == other.bytes.as_ref()
    }
}

impl<P: ParameterSet> Eq for EncapsKey<P> {}

impl<P: ParameterSet> fmt::Debug for EncapsKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EncapsKey<{}>(H = ", P::NAME)?;
        for b in &self.h[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("..)")
    }
}

// ---------------------------------------------------------------- DecapsKey

impl<P: ParameterSet> DecapsKey<P> {
    /// ML-KEM.KeyGen_internal(d, z) from the 64-byte seed `d || z` (the
    /// storage format FIPS 203 §3.3 recommends). The seed is kept and can be
    /// read back with [`DecapsKey::seed`].
    #[must_use]
    pub fn from_seed(seed: &[u8; 64]) -> Self {
        Self::from_seed_variant(seed, false)
    }

    /// KeyGen of the FIPS 203 initial public draft (August 2023), which
    /// lacks the domain separator k in G(d || k). Only for checking old test
    /// vectors (C2SP CCTV intermediate and unlucky-sample files); never use
    /// it for keys.
    #[doc(hidden)]
    #[must_use]
    pub fn from_seed_ipd_draft(seed: &[u8; 64]) -> Self {
        Self::from_seed_variant(seed, true)
    }

    fn from_seed_variant(seed: &[u8; 64], ipd: bool) -> Self {
        let mut d = [0u8; 32];
        let mut z = [0u8; 32];
        d.copy_from_slice(&seed[..32]);
        z.copy_from_slice(&seed[32..]);
        let mut dk = Self {
            bytes: P::DkBytes::zeroed(),
            seed: *seed,
            has_seed: true,
        };
        let mut ek = P::EkBytes::zeroed();
        dispatch::keygen::<P>(&d, &z, ek.as_mut(), dk.bytes.as_mut(), ipd);
        d.zeroize();
        z.zeroize();
        dk
    }

    /// The seed `d || z` if this key was generated from it (not when it was
    /// decoded from the expanded encoding).
    #[must_use]
    pub fn seed(&self) -> Option<&[u8; 64]> {
        self.has_seed.then_some(&self.seed)
    }

    /// The expanded encoding (768k + 96 bytes).
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// The encapsulation key embedded in this key.
    #[must_use]
    pub fn encaps_key(&self) -> EncapsKey<P> {
        let off = POLY_BYTES * P::K;
        let mut b = P::EkBytes::zeroed();
        b.as_mut()
            .copy_from_slice(&self.bytes.as_ref()[off..off + P::EK_BYTES]);
        let mut h = [0u8; 32];
        h.copy_from_slice(&self.bytes.as_ref()[off + P::EK_BYTES..off + P::EK_BYTES + 32]);
        EncapsKey { bytes: b, h }
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for DecapsKey<P> {
    type Error = Error;

    /// The expanded encoding, with the FIPS 203 §7.3 checks: length, hash
    /// check `H(ek) == h`, and the §7.2 modulus check of the embedded ek.
    /// The secret part (dk_PKE, z) is not inspected.
    ///
    /// # Errors
    /// [`Error::Length`] if `bytes` is not 768k + 96 bytes long;
    /// [`Error::InvalidKey`] if the stored hash does not match the embedded
    /// encapsulation key; [`Error::Encoding`] if that key fails the modulus
    /// check.
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        check_len("ML-KEM decapsulation key", P::DK_BYTES, bytes.len())?;
        let off = POLY_BYTES * P::K;
        let ek = &bytes[off..off + P::EK_BYTES];
        let h = &bytes[off + P::EK_BYTES..off + P::EK_BYTES + 32];
        // Public data (ek and H(ek)); compared in constant time anyway.
        if ct::eq_mask(&crate::hash::h(ek), h) != 0xFF {
            return Err(Error::InvalidKey(
                "ML-KEM decapsulation key: H(ek) does not match (hash check)",
            ));
        }
        if !dispatch::is_canonical_12(&ek[..off]) {
            return Err(Error::Encoding(
                "ML-KEM decapsulation key: embedded ek has a coefficient >= q",
            ));
        }
        let mut b = P::DkBytes::zeroed();
        b.as_mut().copy_from_slice(bytes);
        Ok(Self {
            bytes: b,
            seed: [0; 64],
            has_seed: false,
        })
    }
}

impl<P: ParameterSet> TryFrom<&[u8; 64]> for DecapsKey<P> {
    type Error = Error;

    /// Same as [`DecapsKey::from_seed`].
    ///
    /// # Errors
    /// Never; the signature matches the other constructors.
    fn try_from(seed: &[u8; 64]) -> Result<Self, Error> {
        Ok(Self::from_seed(seed))
    }
}

impl<P: ParameterSet> AsRef<[u8]> for DecapsKey<P> {
    fn as_ref(&self) -> &[u8] {
        self.bytes.as_ref()
    }
}

impl<P: ParameterSet> Drop for DecapsKey<P> {
    fn drop(&mut self) {
        // One vectorised memset behind an optimisation barrier
        // (`poly::wipe`): element-wise volatile stores of 2-3 KB cost
        // several percent of a key generation.
        crate::poly::wipe(self.bytes.as_mut());
        self.seed.zeroize();
        self.has_seed = false;
    }
}

impl<P: ParameterSet> ZeroizeOnDrop for DecapsKey<P> {}

impl<P: ParameterSet> fmt::Debug for DecapsKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DecapsKey<{}>(..)", P::NAME)
    }
}

// ---------------------------------------------------------------- Ciphertext

impl<P: ParameterSet> Ciphertext<P> {
    /// The encoded ciphertext.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for Ciphertext<P> {
    type Error = Error;

    /// FIPS 203 §7.3 ciphertext type check (length only: every string of
    /// the right length is a ciphertext).
    ///
    /// # Errors
    /// [`Error::Length`] if `bytes` is not 32 (d_u k + d_v) bytes long.
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        check_len("ML-KEM ciphertext", P::CT_BYTES, bytes.len())?;
        let mut b = P::CtBytes::zeroed();
        b.as_mut().copy_from_slice(bytes);
        Ok(Self { bytes: b })
    }
}

impl<P: ParameterSet> AsRef<[u8]> for Ciphertext<P> {
    fn as_ref(&self) -> &[u8] {
        self.bytes.as_ref()
    }
}

impl<P: ParameterSet> Clone for Ciphertext<P> {
    fn clone(&self) -> Self {
        Self { bytes: self.bytes }
    }
}

impl<P: ParameterSet> PartialEq for Ciphertext<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes.as_ref() == other.bytes.as_ref()
    }
}

impl<P: ParameterSet> Eq for Ciphertext<P> {}

impl<P: ParameterSet> fmt::Debug for Ciphertext<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ciphertext<{}>({} bytes)", P::NAME, P::CT_BYTES)
    }
}

// ---------------------------------------------------------------- SharedSecret

impl SharedSecret {
    /// The 32 bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl AsRef<[u8]> for SharedSecret {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl TryFrom<&[u8]> for SharedSecret {
    type Error = Error;

    /// # Errors
    /// [`Error::Length`] unless `bytes` is 32 bytes long.
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        check_len("ML-KEM shared secret", 32, bytes.len())?;
        let mut k = [0u8; 32];
        k.copy_from_slice(bytes);
        Ok(Self(k))
    }
}

impl PartialEq for SharedSecret {
    fn eq(&self, other: &Self) -> bool {
        ct::eq_mask(&self.0, &other.0) == 0xFF
    }
}

impl Eq for SharedSecret {}

impl fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SharedSecret(..)")
    }
}
