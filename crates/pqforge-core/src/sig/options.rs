//! Signing options: what the message argument is, the context string,
//! hedged or deterministic, and what each parameter set accepts.

use core::fmt;
use core::marker::PhantomData;

use super::SignatureScheme;
use crate::{AlgInfo, Error};

// ---------------------------------------------------------------- HashAlg

/// A pre-hash function of FIPS 204 / 205 (HashML-DSA, HashSLH-DSA) and
/// FN-DSA, with its NIST OID (2.16.840.1.101.3.4.2.x).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HashAlg {
    /// SHA-224 (FIPS 180-4).
    Sha2_224,
    /// SHA-256.
    Sha2_256,
    /// SHA-384.
    Sha2_384,
    /// SHA-512.
    Sha2_512,
    /// SHA-512/224.
    Sha2_512_224,
    /// SHA-512/256.
    Sha2_512_256,
    /// SHA3-224 (FIPS 202).
    Sha3_224,
    /// SHA3-256.
    Sha3_256,
    /// SHA3-384.
    Sha3_384,
    /// SHA3-512.
    Sha3_512,
    /// SHAKE128 with 256 output bits.
    Shake128,
    /// SHAKE256 with 512 output bits.
    Shake256,
}

impl HashAlg {
    /// Every pre-hash function, in OID order of FIPS 204 Table 1 (SHA2-256 first).
    pub const ALL: [HashAlg; 12] = [
        HashAlg::Sha2_256,
        HashAlg::Sha2_384,
        HashAlg::Sha2_512,
        HashAlg::Sha2_224,
        HashAlg::Sha2_512_224,
        HashAlg::Sha2_512_256,
        HashAlg::Sha3_224,
        HashAlg::Sha3_256,
        HashAlg::Sha3_384,
        HashAlg::Sha3_512,
        HashAlg::Shake128,
        HashAlg::Shake256,
    ];

    /// The FIPS 202 (Keccak) functions: SHA3-224/256/384/512, SHAKE128,
    /// SHAKE256.
    pub const KECCAK: &'static [HashAlg] = &[
        HashAlg::Sha3_224,
        HashAlg::Sha3_256,
        HashAlg::Sha3_384,
        HashAlg::Sha3_512,
        HashAlg::Shake128,
        HashAlg::Shake256,
    ];

    /// The FIPS 180-4 functions: SHA2-224/256/384/512, SHA2-512/224,
    /// SHA2-512/256.
    pub const SHA2: &'static [HashAlg] = &[
        HashAlg::Sha2_224,
        HashAlg::Sha2_256,
        HashAlg::Sha2_384,
        HashAlg::Sha2_512,
        HashAlg::Sha2_512_224,
        HashAlg::Sha2_512_256,
    ];

    /// The name ACVP uses (`"SHA2-256"`, `"SHA3-512"`, `"SHAKE-128"`, ...).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            HashAlg::Sha2_224 => "SHA2-224",
            HashAlg::Sha2_256 => "SHA2-256",
            HashAlg::Sha2_384 => "SHA2-384",
            HashAlg::Sha2_512 => "SHA2-512",
            HashAlg::Sha2_512_224 => "SHA2-512/224",
            HashAlg::Sha2_512_256 => "SHA2-512/256",
            HashAlg::Sha3_224 => "SHA3-224",
            HashAlg::Sha3_256 => "SHA3-256",
            HashAlg::Sha3_384 => "SHA3-384",
            HashAlg::Sha3_512 => "SHA3-512",
            HashAlg::Shake128 => "SHAKE-128",
            HashAlg::Shake256 => "SHAKE-256",
        }
    }

    /// Last arc of the OID 2.16.840.1.101.3.4.2.x.
    const fn arc(self) -> u8 {
        match self {
            HashAlg::Sha2_256 => 1,
            HashAlg::Sha2_384 => 2,
            HashAlg::Sha2_512 => 3,
            HashAlg::Sha2_224 => 4,
            HashAlg::Sha2_512_224 => 5,
            HashAlg::Sha2_512_256 => 6,
            HashAlg::Sha3_224 => 7,
            HashAlg::Sha3_256 => 8,
            HashAlg::Sha3_384 => 9,
            HashAlg::Sha3_512 => 10,
            HashAlg::Shake128 => 11,
            HashAlg::Shake256 => 12,
        }
    }

    /// The DER encoding of the OID (tag, length and value; 11 bytes), as
    /// it enters the pre-hash message representative.
    #[must_use]
    pub const fn oid_der(self) -> [u8; 11] {
        [
            0x06,
            0x09,
            0x60,
            0x86,
            0x48,
            0x01,
            0x65,
            0x03,
            0x04,
            0x02,
            self.arc(),
        ]
    }

    /// Digest bytes (SHAKE128: 32, SHAKE256: 64, as FIPS 204 fixes them).
    #[must_use]
    pub const fn output_bytes(self) -> usize {
        match self {
            HashAlg::Sha2_224 | HashAlg::Sha2_512_224 | HashAlg::Sha3_224 => 28,
            HashAlg::Sha2_256 | HashAlg::Sha2_512_256 | HashAlg::Sha3_256 | HashAlg::Shake128 => 32,
            HashAlg::Sha2_384 | HashAlg::Sha3_384 => 48,
            HashAlg::Sha2_512 | HashAlg::Sha3_512 | HashAlg::Shake256 => 64,
        }
    }

    /// Hashes `msg` into `out` (at least [`HashAlg::output_bytes`] long),
    /// returning the digest length. Every function is computed: SHA-2 with
    /// [`crate::sha2`], SHA-3 and SHAKE with [`crate::keccak`].
    ///
    /// ```
    /// use pqforge_core::HashAlg;
    /// let mut d = [0u8; 64];
    /// let n = HashAlg::Sha2_512_256.digest(b"abc", &mut d).unwrap();
    /// assert_eq!((n, d[0], d[31]), (32, 0x53, 0x23));
    /// ```
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] if `out` is shorter than the digest.
    pub fn digest(self, msg: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        use crate::keccak::Sponge;
        use crate::sha2;
        fn run<const R: usize, const D: u8>(msg: &[u8], out: &mut [u8]) {
            let mut s = Sponge::<R, D>::new();
            s.absorb(msg);
            s.squeeze(out);
        }
        let n = self.output_bytes();
        let got = out.len();
        let out = out.get_mut(..n).ok_or(Error::BufferTooSmall {
            what: "digest",
            needed: n,
            got,
        })?;
        match self {
            HashAlg::Sha2_224 => out.copy_from_slice(&sha2::sha224(msg)),
            HashAlg::Sha2_256 => out.copy_from_slice(&sha2::sha256(msg)),
            HashAlg::Sha2_384 => out.copy_from_slice(&sha2::sha384(msg)),
            HashAlg::Sha2_512 => out.copy_from_slice(&sha2::sha512(msg)),
            HashAlg::Sha2_512_224 => out.copy_from_slice(&sha2::sha512_224(msg)),
            HashAlg::Sha2_512_256 => out.copy_from_slice(&sha2::sha512_256(msg)),
            HashAlg::Sha3_224 => run::<144, 0x06>(msg, out),
            HashAlg::Sha3_256 => run::<136, 0x06>(msg, out),
            HashAlg::Sha3_384 => run::<104, 0x06>(msg, out),
            HashAlg::Sha3_512 => run::<72, 0x06>(msg, out),
            HashAlg::Shake128 => run::<168, 0x1F>(msg, out),
            HashAlg::Shake256 => run::<136, 0x1F>(msg, out),
        }
        Ok(n)
    }
}

// ---------------------------------------------------------------- options

/// What the `msg` argument of signing and verification is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MessageMode {
    /// The message itself (pure ML-DSA / SLH-DSA / FN-DSA, or plain Falcon).
    #[default]
    Pure,
    /// The message, to be pre-hashed by the scheme with this function
    /// (HashML-DSA, HashSLH-DSA).
    PreHash(HashAlg),
    /// The digest of the message under this function, computed by the caller.
    Digest(HashAlg),
    /// The message representative μ, computed by the caller (FIPS 204
    /// external μ).
    ExternalMu,
}

/// Options of one signing or verification call.
///
/// The default is what the standards recommend: the pure message, an empty
/// context, hedged randomness.
///
/// ```
/// use pqforge_core::{HashAlg, SignOptions};
/// let opts = SignOptions::new().with_context(b"app-v1").with_prehash(HashAlg::Sha3_256);
/// assert_eq!(opts.context(), b"app-v1");
/// assert!(!opts.is_deterministic());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SignOptions<'a> {
    context: &'a [u8],
    message: MessageMode,
    deterministic: bool,
}

impl<'a> SignOptions<'a> {
    /// Pure message, empty context, hedged.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            context: &[],
            message: MessageMode::Pure,
            deterministic: false,
        }
    }

    /// With a context string (at most 255 bytes in every standard that
    /// defines one).
    #[must_use]
    pub const fn with_context(mut self, context: &'a [u8]) -> Self {
        self.context = context;
        self
    }

    /// The scheme pre-hashes the message with `h`.
    #[must_use]
    pub const fn with_prehash(mut self, h: HashAlg) -> Self {
        self.message = MessageMode::PreHash(h);
        self
    }

    /// The message argument is the caller's digest under `h`.
    #[must_use]
    pub const fn with_digest(mut self, h: HashAlg) -> Self {
        self.message = MessageMode::Digest(h);
        self
    }

    /// The message argument is μ.
    #[must_use]
    pub const fn with_external_mu(mut self) -> Self {
        self.message = MessageMode::ExternalMu;
        self
    }

    /// Deterministic signing (no fresh randomness; the default is hedged).
    #[must_use]
    pub const fn deterministic(mut self) -> Self {
        self.deterministic = true;
        self
    }

    /// The context string.
    #[must_use]
    pub const fn context(&self) -> &'a [u8] {
        self.context
    }

    /// What the message argument is.
    #[must_use]
    pub const fn message(&self) -> MessageMode {
        self.message
    }

    /// Whether signing is deterministic.
    #[must_use]
    pub const fn is_deterministic(&self) -> bool {
        self.deterministic
    }

    /// Checks the options against what parameter set `info` defines
    /// (`signing`: whether the deterministic flag matters).
    ///
    /// # Errors
    /// [`Error::Unsupported`] for an option the set does not define;
    /// [`Error::InvalidInput`] for an over-long context.
    pub fn check(&self, info: &AlgInfo, signing: bool) -> Result<(), Error> {
        let caps = &info.sign;
        let unsupported = |what| {
            Err(Error::Unsupported {
                alg: info.name,
                what,
            })
        };
        if !self.context.is_empty() {
            if caps.max_context == 0 {
                return unsupported("context strings");
            }
            if self.context.len() > caps.max_context {
                return Err(Error::InvalidInput(
                    "context string longer than this set allows (SignCaps::max_context)",
                ));
            }
        }
        match self.message {
            MessageMode::PreHash(h) if !caps.prehash.contains(&h) => {
                return unsupported(if caps.prehash.is_empty() {
                    "pre-hash signing"
                } else {
                    "this pre-hash function"
                });
            }
            MessageMode::Digest(h) if !caps.digest.contains(&h) => {
                return unsupported(if caps.digest.is_empty() {
                    "pre-hashed digests"
                } else {
                    "digests of this hash function"
                });
            }
            MessageMode::ExternalMu if !caps.external_mu => return unsupported("external mu"),
            MessageMode::ExternalMu if !self.context.is_empty() => {
                return Err(Error::InvalidInput(
                    "a context string with external mu (the context is part of mu)",
                ));
            }
            _ => {}
        }
        if signing && self.deterministic && !caps.deterministic {
            return unsupported("deterministic signing");
        }
        Ok(())
    }
}

/// The [`SignOptions`] a signature parameter set defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SignCaps {
    /// Longest context string (0: contexts are not defined).
    pub max_context: usize,
    /// Pre-hash functions the scheme applies itself ([`MessageMode::PreHash`]).
    pub prehash: &'static [HashAlg],
    /// Pre-hash functions whose digest the caller may pass ([`MessageMode::Digest`]).
    pub digest: &'static [HashAlg],
    /// Whether μ may be passed ([`MessageMode::ExternalMu`]).
    pub external_mu: bool,
    /// Whether deterministic signing is defined.
    pub deterministic: bool,
}

impl SignCaps {
    /// Nothing beyond the pure message and hedged/randomised signing (round-3
    /// Falcon; every KEM).
    pub const NONE: Self = Self {
        max_context: 0,
        prehash: &[],
        digest: &[],
        external_mu: false,
        deterministic: false,
    };
}

// ------------------------------------------------------- checked options

/// [`SignOptions`] checked against the [`SignCaps`] of parameter set `P`,
/// for signing (`SIGN = true`, [`SignChecked`]) or for verification
/// ([`VerifyChecked`], where the deterministic flag does not matter).
///
/// This is what a scheme's [`SignatureScheme::sign_into`] and
/// [`SignatureScheme::verify_prepared`] receive. Only [`Checked::new`]
/// makes one, so even a direct call of those contract methods cannot carry
/// an option the set does not define: it is refused before it reaches the
/// scheme, never silently ignored.
pub struct Checked<'a, P: ?Sized, const SIGN: bool> {
    opts: SignOptions<'a>,
    set: PhantomData<fn() -> P>,
}

/// Options checked for signing with `P` ([`Checked`]).
pub type SignChecked<'a, P> = Checked<'a, P, true>;
/// Options checked for verifying with `P` ([`Checked`]).
pub type VerifyChecked<'a, P> = Checked<'a, P, false>;

impl<'a, P: SignatureScheme, const SIGN: bool> Checked<'a, P, SIGN> {
    /// Checks `opts` against `P`'s [`SignCaps`].
    ///
    /// # Errors
    /// As [`SignOptions::check`].
    pub fn new(opts: &SignOptions<'a>) -> Result<Self, Error> {
        opts.check(&P::INFO, SIGN)?;
        Ok(Self {
            opts: *opts,
            set: PhantomData,
        })
    }

    /// The checked options.
    #[must_use]
    pub const fn options(&self) -> &SignOptions<'a> {
        &self.opts
    }
}

impl<'a, P: ?Sized, const SIGN: bool> core::ops::Deref for Checked<'a, P, SIGN> {
    type Target = SignOptions<'a>;
    fn deref(&self) -> &SignOptions<'a> {
        &self.opts
    }
}

impl<P: ?Sized, const SIGN: bool> Clone for Checked<'_, P, SIGN> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: ?Sized, const SIGN: bool> Copy for Checked<'_, P, SIGN> {}

impl<P: ?Sized, const SIGN: bool> fmt::Debug for Checked<'_, P, SIGN> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple(if SIGN { "SignChecked" } else { "VerifyChecked" })
            .field(&self.opts)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::HashAlg;
    use crate::Error;

    /// Every function is computed: the digest of "abc" starts as in FIPS
    /// 180-4 / FIPS 202, and a short buffer is refused.
    #[test]
    fn digest_every_hash_alg() {
        let first_bytes: [(HashAlg, [u8; 2]); 12] = [
            (HashAlg::Sha2_256, [0xba, 0x78]),
            (HashAlg::Sha2_384, [0xcb, 0x00]),
            (HashAlg::Sha2_512, [0xdd, 0xaf]),
            (HashAlg::Sha2_224, [0x23, 0x09]),
            (HashAlg::Sha2_512_224, [0x46, 0x34]),
            (HashAlg::Sha2_512_256, [0x53, 0x04]),
            (HashAlg::Sha3_224, [0xe6, 0x42]),
            (HashAlg::Sha3_256, [0x3a, 0x98]),
            (HashAlg::Sha3_384, [0xec, 0x01]),
            (HashAlg::Sha3_512, [0xb7, 0x51]),
            (HashAlg::Shake128, [0x58, 0x81]),
            (HashAlg::Shake256, [0x48, 0x33]),
        ];
        for (i, (h, first)) in first_bytes.into_iter().enumerate() {
            assert_eq!(h, HashAlg::ALL[i]);
            let mut out = [0u8; 65];
            let n = h.digest(b"abc", &mut out).expect("computed");
            assert_eq!(n, h.output_bytes());
            assert_eq!(out[..2], first, "{}", h.name());
            assert!(out[n..].iter().all(|&b| b == 0), "{}", h.name());
            assert!(matches!(
                h.digest(b"abc", &mut out[..n - 1]),
                Err(Error::BufferTooSmall { .. })
            ));
        }
    }
}
