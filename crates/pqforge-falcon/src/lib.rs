#![doc = include_str!("../README.md")]
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
// No heap: scratch buffers are fixed-size stack arrays by design.
#![allow(clippy::large_stack_arrays)]

mod backend;
mod codec;
mod ct_util;
mod digits;
mod fft;
#[cfg(feature = "fndsa")]
#[cfg_attr(docsrs, doc(cfg(feature = "fndsa")))]
pub mod fndsa;
mod fpr;
mod fpr_emu;
// Binary64 addition and multiplication of the emulation in Armv7E-M
// assembly (the Cortex-M4).
#[cfg(all(
    target_arch = "arm",
    target_feature = "dsp",
    target_feature = "mclass",
    target_endian = "little"
))]
mod fpr_armv7em;
// The native binary64 backend of `Fpr` (SSE2, the x86_64 baseline): a
// floating-point representation, not a SIMD backend, so it does not
// depend on `pqforge_backend` (see `fpr`).
#[cfg(target_arch = "x86_64")]
mod fpr_native;
mod keygen;
mod modp;
mod mq;
mod ntru;
mod rng;
mod scheme;
mod scratch;
mod sign;
mod tables;
mod vrfy;
mod zint;

#[doc(hidden)]
pub mod internals;

use core::fmt;

use pqforge_core::{
    AlgInfo, CryptoRng, KatRng, KeyForms, PreparedSk, PreparedVk, Scheme, Status,
    need_signed_message,
};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::fpr::Fpr;
use crate::scheme::{Format, Key, NONCE_LEN, SEED_LEN};

#[cfg(feature = "fndsa")]
pub use crate::fndsa::{FnDsa512, FnDsa1024, FnDsaSkState, FnDsaVkState};
pub use crate::fpr::BACKEND as FPR_BACKEND;
pub use crate::scheme::{FalconSkState, FalconVkState};
pub use pqforge_core::{
    Error, HashAlg, SignChecked, SignOptions, Signature, SignatureScheme, SigningKey,
    VerifyChecked, VerifyingKey,
};

/// The round-3 Falcon parameter sets, in registry order: `falcon-512`,
/// `falcon-1024`, `falcon-padded-512`, `falcon-padded-1024`.
pub const SCHEMES: [Scheme; 4] = [
    Scheme::sig::<Falcon512>(),
    Scheme::sig::<Falcon1024>(),
    Scheme::sig::<FalconPadded512>(),
    Scheme::sig::<FalconPadded1024>(),
];

/// The FN-DSA parameter sets (feature `fndsa`), in registry order:
/// `fn-dsa-512`, `fn-dsa-1024`.
#[cfg(feature = "fndsa")]
#[cfg_attr(docsrs, doc(cfg(feature = "fndsa")))]
pub const FNDSA_SCHEMES: [Scheme; 2] = [Scheme::sig::<FnDsa512>(), Scheme::sig::<FnDsa1024>()];

/// The revision line of every round-3 set.
const REVISION: &str = "Falcon round 3 (v1.2)";

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

/// Checks an output buffer of the inherent (slice-taking) helpers.
fn need(what: &'static str, needed: usize, got: usize) -> Result<(), Error> {
    if got < needed {
        Err(Error::BufferTooSmall { what, needed, got })
    } else {
        Ok(())
    }
}

/// Length of a detached signature of format `fmt`, at most.
const fn detached_max(logn: u32, fmt: Format) -> usize {
    match fmt {
        Format::Compressed => 1 + NONCE_LEN + scheme::comp_max(logn),
        Format::Padded => scheme::padded_len(logn),
    }
}

/// Writes a detached signature (header, nonce, body) into `out` (at least
/// [`detached_max`] bytes), returning its length.
fn detached<const N: usize, const T: usize>(
    key: &Key<'_, N>,
    logn: u32,
    nonce: &[u8; NONCE_LEN],
    seed: &[u8; SEED_LEN],
    msg: &[u8],
    fmt: Format,
    out: &mut [u8],
) -> usize {
    let total = detached_max(logn, fmt);
    out[0] = 0x30 + logn as u8;
    out[1..=NONCE_LEN].copy_from_slice(nonce);
    let body = &mut out[1 + NONCE_LEN..total];
    let len = backend::sign::<N, T>(key, logn, nonce, seed, msg, body);
    match fmt {
        Format::Compressed => 1 + NONCE_LEN + len,
        Format::Padded => {
            body[len..].fill(0);
            total
        }
    }
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
        $(#[$doc:meta])* $ty:ident, $name:literal, $stem:literal, $logn:literal, $n:literal,
        $pk:literal, $sk:literal, $sigbytes:literal, $cat:literal, $kat:expr, $hdr:literal,
        $fmt:expr, $ek:ty
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
            /// [`Error::BufferTooSmall`] if `sig` is shorter than
            #[doc = concat!(stringify!($sigbytes), " bytes.")]
            pub fn sign_kat_deterministic_from_seed(
                sk: &SigningKey<Self>,
                msg: &[u8],
                nonce: &[u8; NONCE_LEN],
                seed: &[u8; SEED_LEN],
                sig: &mut [u8],
            ) -> Result<usize, Error> {
                need("signature", $sigbytes, sig.len())?;
                let key = Key::Dyn(sk.prepared().state());
                Ok(detached::<$n, { 9 * $n }>(&key, $logn, nonce, seed, msg, $fmt, sig))
            }

            /// Key generation from an explicit 48-byte seed (deterministic;
            /// the same as [`SignatureScheme::keygen_derand`]).
            #[must_use]
            pub fn keygen_kat_deterministic_from_seed(
                seed: &[u8; SEED_LEN],
            ) -> (VerifyingKey<Self>, SigningKey<Self>) {
                Self::keygen_derand(seed)
            }

            /// Expands a signing key for repeated signing.
            #[must_use]
            pub fn expand(sk: &SigningKey<Self>) -> $ek {
                <$ek>::new(sk.prepared().state())
            }
        }

        impl SignatureScheme for $ty {
            const BACKENDS: pqforge_core::cpu::Backends = crate::backend::BACKENDS;
            const INFO: AlgInfo = AlgInfo::sig($name, "Falcon", $pk, $sk, $sigbytes, $cat)
                .with_status(Status::Draft)
                .with_kat($kat, $hdr)
                .with_revision(REVISION)
                .with_c_stem($stem)
                .with_feature("falcon")
                .with_key_forms(KeyForms::EXPANDED)
                .with_seeds(SEED_LEN, 0);

            type VkBytes = [u8; $pk];
            type SkBytes = [u8; $sk];
            type SigBytes = [u8; $sigbytes];
            type KeygenSeed = [u8; SEED_LEN];
            type VkState = FalconVkState<$n>;
            type SkState = FalconSkState<$n>;

            fn prepare_vk(vk: &[u8; $pk]) -> Result<FalconVkState<$n>, Error> {
                backend::decode_pk::<$n>(vk, $logn)
            }

            fn prepare_sk(sk: &[u8; $sk]) -> Result<FalconSkState<$n>, Error> {
                backend::decode_sk::<$n>(sk, $logn)
            }

            fn keygen_derand_into(
                seed: &[u8; SEED_LEN],
                vk: &mut [u8; $pk],
                sk: &mut [u8; $sk],
            ) -> (FalconVkState<$n>, FalconSkState<$n>) {
                let mut out = (FalconVkState::default(), FalconSkState::default());
                backend::keygen::<$n, { 8 * $n }, { 3 * $n }>(seed, $logn, vk, sk, &mut out.0, &mut out.1);
                out
            }

            fn verifying_key_into(sk: PreparedSk<'_, Self>, vk: &mut [u8; $pk]) -> FalconVkState<$n> {
                backend::derive_pk::<$n>(sk.state(), $logn, vk)
            }

            /// Pure message only: round 3 defines no options, so `opts` is
            /// always the default ([`SignChecked`] refused any other).
            fn sign_into<R: CryptoRng + ?Sized>(
                sk: PreparedSk<'_, Self>,
                msg: &[u8],
                _opts: &SignChecked<'_, Self>,
                rng: &mut R,
                sig: &mut [u8; $sigbytes],
            ) -> Result<usize, Error> {
                let (nonce, mut seed) = draw(rng);
                let key = Key::Dyn(sk.state());
                let len = detached::<$n, { 9 * $n }>(&key, $logn, &nonce, &seed, msg, $fmt, sig);
                seed.zeroize();
                Ok(len)
            }

            fn verify_prepared(
                vk: PreparedVk<'_, Self>,
                msg: &[u8],
                _opts: &VerifyChecked<'_, Self>,
                sig: &[u8],
            ) -> Result<(), Error> {
                backend::verify(&vk.state().h, $logn, msg, sig, $fmt)
            }

            /// The round-3 KAT signed message, at most.
            fn signed_message_bytes(mlen: usize) -> usize {
                kat_sm_max($logn, mlen)
            }

            /// The round-3 KAT signed message (`len(2) || nonce || msg ||
            /// 0x20+logn || compressed s2`, also for the padded sets).
            fn sign_message_into<R: CryptoRng + ?Sized>(
                sk: PreparedSk<'_, Self>,
                msg: &[u8],
                rng: &mut R,
                sm: &mut [u8],
            ) -> Result<usize, Error> {
                need_signed_message(kat_sm_max($logn, msg.len()), sm.len())?;
                Ok(kat_sign_impl::<$n, { 9 * $n }, R>(sk.state(), $logn, msg, rng, sm))
            }

            /// Opens a round-3 KAT signed message.
            fn open_into<'m>(vk: PreparedVk<'_, Self>, sm: &'m [u8]) -> Result<&'m [u8], Error> {
                let r = backend::open(&vk.state().h, $logn, sm)?;
                Ok(&sm[r])
            }
        }
    };
}

/// Largest KAT signed message for an `mlen`-byte message: length prefix,
/// nonce, message, header byte and the longest compressed body.
fn kat_sm_max(logn: u32, mlen: usize) -> usize {
    (2 + NONCE_LEN + 1 + scheme::comp_max(logn)).saturating_add(mlen)
}

/// The KAT signed message (reference `crypto_sign`): 2-byte big-endian
/// length of (header + body), nonce, message, 0x20+logn, compressed s2.
/// `sm` has at least [`kat_sm_max`] bytes.
fn kat_sign_impl<const N: usize, const T: usize, R: CryptoRng + ?Sized>(
    s: &FalconSkState<N>,
    logn: u32,
    msg: &[u8],
    rng: &mut R,
    sm: &mut [u8],
) -> usize {
    let total_max = kat_sm_max(logn, msg.len());
    let (nonce, mut seed) = draw(rng);
    sm[2..2 + NONCE_LEN].copy_from_slice(&nonce);
    let pm = 2 + NONCE_LEN;
    sm[pm..pm + msg.len()].copy_from_slice(msg);
    sm[pm + msg.len()] = 0x20 + logn as u8;
    let body = &mut sm[pm + msg.len() + 1..total_max];
    let len = backend::sign::<N, T>(&Key::Dyn(s), logn, &nonce, &seed, msg, body);
    seed.zeroize();
    let sl = len + 1;
    sm[0] = (sl >> 8) as u8;
    sm[1] = sl as u8;
    pm + msg.len() + sl
}

falcon_set!(
    /// Falcon-512 (round 3), compressed detached signatures; NIST category 1.
    Falcon512, "falcon-512", "falcon512", 9, 512, 897, 1281, 690, 1, KatRng::NistDrbg,
    "# Falcon-512", Format::Compressed, ExpandedSigningKey512
);
falcon_set!(
    /// Falcon-1024 (round 3), compressed detached signatures; NIST category 5.
    Falcon1024, "falcon-1024", "falcon1024", 10, 1024, 1793, 2305, 1330, 5, KatRng::NistDrbg,
    "# Falcon-1024", Format::Compressed, ExpandedSigningKey1024
);
falcon_set!(
    /// Falcon-512 (round 3), signatures padded to exactly 666 bytes.
    FalconPadded512, "falcon-padded-512", "falconpadded512", 9, 512, 897, 1281, 666, 1,
    KatRng::None, "# Falcon-padded-512", Format::Padded, ExpandedSigningKey512
);
falcon_set!(
    /// Falcon-1024 (round 3), signatures padded to exactly 1280 bytes.
    FalconPadded1024, "falcon-padded-1024", "falconpadded1024", 10, 1024, 1793, 2305, 1280, 5,
    KatRng::None, "# Falcon-padded-1024", Format::Padded, ExpandedSigningKey1024
);

macro_rules! expanded_impl {
    ($logn:literal, $n:literal, $e:literal) => {
        impl ExpandedSigningKey<$logn, $e> {
            /// Expands a prepared signing key (builds the basis and the
            /// tree from the decoded f, g, F, G); `SigningKey::prepared().state()`
            /// gives one, or use the sets' `expand`.
            #[must_use]
            pub fn new(sk: &FalconSkState<$n>) -> Self {
                let mut data = [fpr::ZERO; $e];
                let mut tmp = [fpr::ZERO; { 6 * $n }];
                backend::expand(&mut data, &sk.key(), $logn, &mut tmp);
                tmp.zeroize();
                Self { data }
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
                need("signature", detached_max($logn, fmt), sig.len())?;
                let key = Key::Tree(&self.data);
                Ok(detached::<$n, { 6 * $n }>(&key, $logn, nonce, seed, msg, fmt, sig))
            }

            /// Signs `msg` (randomised, drawing like
            /// [`SignatureScheme::sign`]): compressed format, or padded when
            /// `padded`; same bytes as the decoded key for the same
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

expanded_impl!(9, 512, 7168);
expanded_impl!(10, 1024, 15360);

/// Nonce length of every Falcon signature.
pub const NONCE_BYTES: usize = NONCE_LEN;
/// Length of the sampler / keygen seeds.
pub const SEED_BYTES: usize = SEED_LEN;

const _: () = {
    assert!(scheme::pk_len(9) == 897 && scheme::pk_len(10) == 1793);
    assert!(scheme::sk_len(9) == 1281 && scheme::sk_len(10) == 2305);
    // Detached signatures: at most 688 / 1328 bytes (the 690 / 1330 of
    // `sig_bytes` are NIST's CRYPTO_BYTES, with the 2-byte length).
    assert!(detached_max(9, Format::Compressed) == 688);
    assert!(detached_max(10, Format::Compressed) == 1328);
    assert!(sign::expanded_key_size(9) == 7168 && sign::expanded_key_size(10) == 15360);
};
