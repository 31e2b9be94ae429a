//! Falcon-512/1024 (NIST round 3, specification v1.2): constant-time,
//! `no_std`, no heap.
//!
//! * [`Falcon512`], [`Falcon1024`] (`falcon-512`, `falcon-1024`): detached
//!   signatures `0x30+logn || nonce(40) || compressed s2` (variable length,
//!   at most 688 / 1328 bytes); [`pqforge_core::Signature::kat_sign`]
//!   produces the signed-message format of the official KAT files
//!   (`len(2) || nonce || msg || 0x20+logn || compressed s2`).
//! * [`FalconPadded512`], [`FalconPadded1024`] (`falcon-padded-512`,
//!   `falcon-padded-1024`): the same signatures zero-padded to exactly 666 /
//!   1280 bytes.
//! * [`ExpandedSigningKey512`], [`ExpandedSigningKey1024`]: precomputed LDL
//!   tree for repeated signing (same signatures as dynamic signing).
//!
//! Keys and signatures are bit-exact with the round-3 reference
//! implementation (the KAT files reproduce byte for byte). Floating point
//! is native `f64` on x86_64 and an integer emulation of binary64 elsewhere
//! (or with the crate feature `fpr-emulated`); see [`FPR_BACKEND`].
//!
//! ```
//! use pqforge_core::Signature;
//! use pqforge_falcon::Falcon512;
//! # let mut rng = pqforge_core::kat::KatSource::new(pqforge_core::KatRng::NistDrbg, &[1u8; 48]);
//! let (vk, sk) = Falcon512::keygen(&mut rng);
//! let mut sig = [0u8; Falcon512::SIG_BYTES];
//! let len = Falcon512::sign(&sk, b"msg", &mut rng, &mut sig).unwrap();
//! assert!(Falcon512::verify(&vk, b"msg", &sig[..len]).is_ok());
//! ```
//!
//! Peak stack (x86_64, release, `pqforge bench`): Falcon-512 keygen 41 KB,
//! sign 49 KB, verify 11 KB; Falcon-1024 keygen 77 KB, sign 93 KB, verify
//! 11 KB.
//!
//! With the crate feature `fndsa` (off by default): [`fndsa`], FN-DSA-512 /
//! FN-DSA-1024 in the putative 2026-07 draft format (`fn-dsa-512`,
//! `fn-dsa-1024`; registered as draft, bytes will change with FIPS 206).
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
// No heap: scratch buffers are fixed-size stack arrays by design.
#![allow(clippy::large_stack_arrays)]

#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
mod chacha_avx2;
mod codec;
mod ct_util;
mod fft;
#[cfg(all(
    target_arch = "x86_64",
    not(feature = "fpr-emulated"),
    not(pqforge_backend = "portable")
))]
mod fft_avx2;
#[cfg(feature = "fndsa")]
#[cfg_attr(docsrs, doc(cfg(feature = "fndsa")))]
pub mod fndsa;
mod fpr;
mod fpr_emu;
#[cfg(target_arch = "x86_64")]
mod fpr_native;
mod keygen;
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
mod keygen_avx2;
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
mod mq_avx2;
mod ntru;
mod ntru_check;
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
mod ntt_avx2;
mod rng;
mod scheme;
mod sign;
mod tables;
mod vrfy;
mod zint;
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
mod zint_avx2;

#[doc(hidden)]
pub mod internals;

use core::fmt;

use pqforge_core::{AlgInfo, CryptoRng, Error, KatRng, Kind, SigAlg, Signature, Status};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::fpr::Fpr;
use crate::scheme::{Format, Key, NONCE_LEN, SEED_LEN};

#[cfg(feature = "fndsa")]
pub use crate::fndsa::{
    FN_DSA_512, FN_DSA_1024, FnDsa512, FnDsa1024, FnDsaSigningKey, FnDsaVerifyingKey,
};
pub use crate::fpr::BACKEND as FPR_BACKEND;

/// A Falcon verifying (public) key: `0x00+logn || h` (14 bits per
/// coefficient). `PK` is 897 (Falcon-512) or 1793 (Falcon-1024).
#[derive(Clone, PartialEq, Eq)]
pub struct VerifyingKey<const PK: usize>([u8; PK]);

impl<const PK: usize> AsRef<[u8]> for VerifyingKey<PK> {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl<const PK: usize> fmt::Debug for VerifyingKey<PK> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VerifyingKey<{PK}>")
    }
}

impl<const PK: usize> TryFrom<&[u8]> for VerifyingKey<PK> {
    type Error = Error;
    /// Checks the length, the header byte and that every coefficient is
    /// below q with zero trailing bits.
    fn try_from(b: &[u8]) -> Result<Self, Error> {
        scheme::check_pk(b, scheme::logn_of_pk(PK))?;
        let mut k = [0u8; PK];
        k.copy_from_slice(b);
        Ok(Self(k))
    }
}

/// A Falcon signing (secret) key: `0x50+logn || f || g || F`. `SK` is 1281
/// (Falcon-512) or 2305 (Falcon-1024). Wiped on drop.
#[derive(Clone)]
pub struct SigningKey<const SK: usize>([u8; SK]);

impl<const SK: usize> AsRef<[u8]> for SigningKey<SK> {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl<const SK: usize> fmt::Debug for SigningKey<SK> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SigningKey<{SK}>(..)")
    }
}

impl<const SK: usize> Drop for SigningKey<SK> {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl<const SK: usize> ZeroizeOnDrop for SigningKey<SK> {}

impl<const SK: usize> TryFrom<&[u8]> for SigningKey<SK> {
    type Error = Error;
    /// Checks the length, the header byte, the fixed-width encodings of f,
    /// g, F, and that the key completes (f invertible mod q, |G| <= 127).
    fn try_from(b: &[u8]) -> Result<Self, Error> {
        let logn = scheme::logn_of_sk(SK);
        pqforge_core::check_len("secret key", SK, b.len())?;
        if logn == 9 {
            scheme::decode_sk::<512>(b, 9)?;
        } else {
            scheme::decode_sk::<1024>(b, 10)?;
        }
        let mut k = [0u8; SK];
        k.copy_from_slice(b);
        Ok(Self(k))
    }
}

/// An expanded signing key (basis and normalised LDL tree in FFT form),
/// for signing many messages with one key; `E` is the number of binary64
/// values (7168 for Falcon-512, 15360 for Falcon-1024; 57 / 123 KB).
/// Wiped on drop.
pub struct ExpandedSigningKey<const LOGN: u32, const E: usize> {
    data: [Fpr; E],
}

/// Expanded key for Falcon-512 / FalconPadded512.
pub type ExpandedSigningKey512 = ExpandedSigningKey<9, 7168>;
/// Expanded key for Falcon-1024 / FalconPadded1024.
pub type ExpandedSigningKey1024 = ExpandedSigningKey<10, 15360>;

impl<const LOGN: u32, const E: usize> Drop for ExpandedSigningKey<LOGN, E> {
    fn drop(&mut self) {
        self.data.zeroize();
    }
}

impl<const LOGN: u32, const E: usize> ZeroizeOnDrop for ExpandedSigningKey<LOGN, E> {}

impl<const LOGN: u32, const E: usize> fmt::Debug for ExpandedSigningKey<LOGN, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ExpandedSigningKey<{LOGN}>(..)")
    }
}

/// Checks the output buffer.
fn need(what: &'static str, needed: usize, got: usize) -> Result<(), Error> {
    if got < needed {
        Err(Error::BufferTooSmall { what, needed, got })
    } else {
        Ok(())
    }
}

/// Writes a detached signature (header, nonce, body) into `out`.
fn detached<const N: usize, const T: usize>(
    key: &Key<'_, N>,
    logn: u32,
    nonce: &[u8; NONCE_LEN],
    seed: &[u8; SEED_LEN],
    msg: &[u8],
    fmt: Format,
    out: &mut [u8],
) -> Result<usize, Error> {
    let total = match fmt {
        Format::Compressed => 1 + NONCE_LEN + scheme::comp_max(logn),
        Format::Padded => scheme::padded_len(logn),
    };
    need("signature", total, out.len())?;
    out[0] = 0x30 + logn as u8;
    out[1..=NONCE_LEN].copy_from_slice(nonce);
    let body = &mut out[1 + NONCE_LEN..total];
    let len = scheme::sign_core::<N, T>(key, logn, nonce, seed, msg, body, fmt == Format::Padded);
    Ok(match fmt {
        Format::Compressed => 1 + NONCE_LEN + len,
        Format::Padded => total,
    })
}

/// Draws nonce then sampler seed from `rng` (reference order); the nonce
/// is public, the seed secret.
fn draw<R: CryptoRng + ?Sized>(rng: &mut R) -> ([u8; NONCE_LEN], [u8; SEED_LEN]) {
    let mut nonce = [0u8; NONCE_LEN];
    rng.fill_bytes(&mut nonce);
    // CT: the nonce is published in the signature.
    ct_util::declassify(&mut nonce);
    let mut seed = [0u8; SEED_LEN];
    rng.fill_bytes(&mut seed);
    (nonce, seed)
}

macro_rules! falcon_set {
    (
        $(#[$doc:meta])* $ty:ident, $name:literal, $logn:literal, $n:literal,
        $pk:literal, $sk:literal, $sigbytes:literal, $cat:literal, $kat:expr, $hdr:literal,
        $fmt:expr, $ek:ty, $static:ident
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $ty;

        impl $ty {
            /// Signs with an explicit nonce and sampler seed: the
            /// deterministic path behind the KATs and cross-checks. Not for
            /// production use (reusing a seed leaks the key).
            ///
            /// # Errors
            /// Invalid secret key; output buffer too small.
            pub fn sign_kat_deterministic_from_seed(
                sk: &SigningKey<$sk>,
                msg: &[u8],
                nonce: &[u8; NONCE_LEN],
                seed: &[u8; SEED_LEN],
                sig: &mut [u8],
            ) -> Result<usize, Error> {
                let s = scheme::decode_sk::<$n>(&sk.0, $logn)?;
                detached::<$n, { 9 * $n }>(&Key::Dyn(&s), $logn, nonce, seed, msg, $fmt, sig)
            }

            /// Key generation from an explicit 48-byte seed (deterministic).
            #[must_use]
            pub fn keygen_kat_deterministic_from_seed(seed: &[u8; SEED_LEN]) -> (VerifyingKey<$pk>, SigningKey<$sk>) {
                let mut pk = [0u8; $pk];
                let mut sk = [0u8; $sk];
                scheme::keygen_from_seed::<$n, { 8 * $n }, { 3 * $n }>(seed, $logn, &mut pk, &mut sk);
                (VerifyingKey(pk), SigningKey(sk))
            }

            /// Expands a signing key for repeated signing.
            ///
            /// # Errors
            /// Invalid secret key.
            pub fn expand(sk: &SigningKey<$sk>) -> Result<$ek, Error> {
                <$ek>::new(sk)
            }
        }

        impl Signature for $ty {
            const INFO: AlgInfo = AlgInfo {
                name: $name,
                family: "Falcon",
                kind: Kind::Sig,
                pk_bytes: $pk,
                sk_bytes: $sk,
                ct_bytes: 0,
                sig_bytes: $sigbytes,
                ss_bytes: 0,
                category: $cat,
                status: Status::Draft,
                kat: $kat,
                kat_header: $hdr,
                revision: "Falcon round 3 (v1.2)",
            };
            type VerifyingKey = VerifyingKey<$pk>;
            type SigningKey = SigningKey<$sk>;

            fn keygen<R: CryptoRng + ?Sized>(rng: &mut R) -> (Self::VerifyingKey, Self::SigningKey) {
                let mut seed = [0u8; SEED_LEN];
                rng.fill_bytes(&mut seed);
                let r = Self::keygen_kat_deterministic_from_seed(&seed);
                seed.zeroize();
                r
            }

            fn sign<R: CryptoRng + ?Sized>(
                sk: &Self::SigningKey,
                msg: &[u8],
                rng: &mut R,
                sig: &mut [u8],
            ) -> Result<usize, Error> {
                let s = scheme::decode_sk::<$n>(&sk.0, $logn)?;
                let (nonce, mut seed) = draw(rng);
                let r = detached::<$n, { 9 * $n }>(&Key::Dyn(&s), $logn, &nonce, &seed, msg, $fmt, sig);
                seed.zeroize();
                r
            }

            fn verify(vk: &Self::VerifyingKey, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
                scheme::verify_detached(&vk.0, $logn, msg, sig, $fmt)
            }

            fn kat_sm_bytes(mlen: usize) -> usize {
                kat_sm_max($logn, mlen)
            }

            fn kat_sign<R: CryptoRng + ?Sized>(
                sk: &Self::SigningKey,
                msg: &[u8],
                rng: &mut R,
                sm: &mut [u8],
            ) -> Result<usize, Error> {
                kat_sign_impl::<$n, { 9 * $n }, R>(&sk.0, $logn, msg, rng, sm)
            }
        }

        /// Registry adapter.
        pub static $static: SigAlg<$ty> = SigAlg::new(&[]);
    };
}

/// Largest KAT signed message for an `mlen`-byte message: length prefix,
/// nonce, message, header byte and the longest compressed body.
fn kat_sm_max(logn: u32, mlen: usize) -> usize {
    2 + NONCE_LEN + mlen + 1 + scheme::comp_max(logn)
}

/// The KAT signed message (reference `crypto_sign`): 2-byte big-endian
/// length of (header + body), nonce, message, 0x20+logn, compressed s2.
fn kat_sign_impl<const N: usize, const T: usize, R: CryptoRng + ?Sized>(
    sk: &[u8],
    logn: u32,
    msg: &[u8],
    rng: &mut R,
    sm: &mut [u8],
) -> Result<usize, Error> {
    let s = scheme::decode_sk::<N>(sk, logn)?;
    let total_max = kat_sm_max(logn, msg.len());
    need("signed message", total_max, sm.len())?;
    let (nonce, mut seed) = draw(rng);
    sm[2..2 + NONCE_LEN].copy_from_slice(&nonce);
    let pm = 2 + NONCE_LEN;
    sm[pm..pm + msg.len()].copy_from_slice(msg);
    sm[pm + msg.len()] = 0x20 + logn as u8;
    let body = &mut sm[pm + msg.len() + 1..total_max];
    let len = scheme::sign_core::<N, T>(&Key::Dyn(&s), logn, &nonce, &seed, msg, body, false);
    seed.zeroize();
    let sl = len + 1;
    sm[0] = (sl >> 8) as u8;
    sm[1] = sl as u8;
    Ok(pm + msg.len() + sl)
}

falcon_set!(
    /// Falcon-512 (round 3), compressed detached signatures; NIST category 1.
    Falcon512, "falcon-512", 9, 512, 897, 1281, 690, 1, KatRng::NistDrbg, "# Falcon-512",
    Format::Compressed, ExpandedSigningKey512, FALCON_512
);
falcon_set!(
    /// Falcon-1024 (round 3), compressed detached signatures; NIST category 5.
    Falcon1024, "falcon-1024", 10, 1024, 1793, 2305, 1330, 5, KatRng::NistDrbg, "# Falcon-1024",
    Format::Compressed, ExpandedSigningKey1024, FALCON_1024
);
falcon_set!(
    /// Falcon-512 (round 3), signatures padded to exactly 666 bytes.
    FalconPadded512, "falcon-padded-512", 9, 512, 897, 1281, 666, 1, KatRng::None, "# Falcon-padded-512",
    Format::Padded, ExpandedSigningKey512, FALCON_PADDED_512
);
falcon_set!(
    /// Falcon-1024 (round 3), signatures padded to exactly 1280 bytes.
    FalconPadded1024, "falcon-padded-1024", 10, 1024, 1793, 2305, 1280, 5, KatRng::None, "# Falcon-padded-1024",
    Format::Padded, ExpandedSigningKey1024, FALCON_PADDED_1024
);

macro_rules! expanded_impl {
    ($logn:literal, $n:literal, $e:literal, $sk:literal) => {
        impl ExpandedSigningKey<$logn, $e> {
            /// Expands `sk` (decodes f, g, F, recomputes G, builds the tree).
            ///
            /// # Errors
            /// Invalid secret key.
            pub fn new(sk: &SigningKey<$sk>) -> Result<Self, Error> {
                let s = scheme::decode_sk::<$n>(&sk.0, $logn)?;
                let mut data = [fpr::ZERO; $e];
                let mut tmp = [fpr::ZERO; { 6 * $n }];
                sign::expand_privkey(&mut data, &s.f, &s.g, &s.ff, &s.gg, $logn, &mut tmp);
                tmp.zeroize();
                Ok(Self { data })
            }

            fn sign_with(
                &self,
                nonce: &[u8; NONCE_LEN],
                seed: &[u8; SEED_LEN],
                msg: &[u8],
                padded: bool,
                sig: &mut [u8],
            ) -> Result<usize, Error> {
                let fmt = if padded { Format::Padded } else { Format::Compressed };
                detached::<$n, { 6 * $n }>(&Key::Tree(&self.data), $logn, nonce, seed, msg, fmt, sig)
            }

            /// Signs `msg` (randomised): compressed format, or padded when
            /// `padded`; same bytes as the dynamic signer for the same
            /// randomness.
            ///
            /// # Errors
            /// Output buffer too small.
            pub fn sign<R: CryptoRng + ?Sized>(
                &self,
                msg: &[u8],
                rng: &mut R,
                padded: bool,
                sig: &mut [u8],
            ) -> Result<usize, Error> {
                let (nonce, mut seed) = draw(rng);
                let r = self.sign_with(&nonce, &seed, msg, padded, sig);
                seed.zeroize();
                r
            }

            /// Deterministic signing with explicit nonce and sampler seed
            /// (tests and KATs only).
            ///
            /// # Errors
            /// Output buffer too small.
            pub fn sign_kat_deterministic_from_seed(
                &self,
                msg: &[u8],
                nonce: &[u8; NONCE_LEN],
                seed: &[u8; SEED_LEN],
                padded: bool,
                sig: &mut [u8],
            ) -> Result<usize, Error> {
                self.sign_with(nonce, seed, msg, padded, sig)
            }
        }
    };
}

expanded_impl!(9, 512, 7168, 1281);
expanded_impl!(10, 1024, 15360, 2305);

/// Verifies a KAT-format signed message and returns the message part.
///
/// # Errors
/// [`Error::Verification`] for every rejected input.
pub fn open_signed_message<'a>(pk: &[u8], sm: &'a [u8]) -> Result<&'a [u8], Error> {
    let logn = match pk.first() {
        Some(9) => 9,
        Some(10) => 10,
        _ => return Err(Error::Verification),
    };
    let r = scheme::open_sm(pk, logn, sm)?;
    Ok(&sm[r])
}

/// Nonce length of every Falcon signature.
pub const NONCE_BYTES: usize = NONCE_LEN;
/// Length of the sampler / keygen seeds.
pub const SEED_BYTES: usize = SEED_LEN;

const _: () = {
    assert!(scheme::pk_len(9) == 897 && scheme::pk_len(10) == 1793);
    assert!(scheme::sk_len(9) == 1281 && scheme::sk_len(10) == 2305);
    assert!(sign::expanded_key_size(9) == 7168 && sign::expanded_key_size(10) == 15360);
};
