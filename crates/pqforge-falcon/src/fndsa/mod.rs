//! FN-DSA, **putative draft** of 2026-07-22 (FIPS 206 unpublished): the
//! interpretation that T. Pornin's `rust-fn-dsa` / `c-fn-dsa` adopted from
//! NIST's September 2025 workshop talk. The bytes will likely change when
//! the initial public draft appears; registered with status `draft`.
//!
//! Differences from round-3 Falcon:
//! * message representative mu = SHAKE256(hpk || 0x00 || len(ctx) || ctx
//!   || msg, 64) with hpk = SHAKE256(vk, 64) (pre-hash: 0x01 and the hash
//!   OID replace 0x00; external mu is supported);
//! * hm = HashToPoint(SHAKE256(nonce || mu)) with little-endian samples;
//! * vk = `0x00+logn || NTT(h)` (bit-reversed NTT order, 14 bits per value,
//!   little-endian packing), 897 / 1793 bytes;
//! * sk = `0x50+logn || f || g || F || hpk`, little-endian packing, 1345 /
//!   2369 bytes;
//! * signatures `0x30+logn || nonce || compressed s2`, zero-padded to 666 /
//!   1280 bytes, with |s1|, |s2| coefficients at most 840;
//! * hedged signing: seed = SHAKE256(SHAKE256(enc(f) || enc(g), 40) || mu
//!   || rnd, 40); attempt k reseeds the sampler with seed || k and draws a
//!   fresh nonce from it.
//!
//! Key generation uses this crate's round-3 NTRU key generation (any
//! correct key generator is interoperable); it does not reproduce the
//! draft's reference key generator from the same seed.

pub(crate) mod codec;
mod mq;
mod sign;

use core::fmt;

use pqforge_core::keccak::Shake256;
use pqforge_core::{AlgInfo, CryptoRng, Error, KatRng, Kind, SigAlg, Signature, Status};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::codec::{MAX_FG_BITS, MAX_FG_BITS_BIG};
use crate::ct_util::{declassify, declassify_bool};
use crate::fpr;
use crate::rng::shake_from_seed;

/// Length of the random input of hedged signing and of the nonce.
pub const RND_LEN: usize = 40;
/// Length of mu and of the hashed verifying key.
pub const MU_LEN: usize = 64;

const fn vk_len(logn: u32) -> usize {
    1 + (7 << (logn - 2))
}

const fn sk_fg_len(logn: u32) -> usize {
    (MAX_FG_BITS[logn as usize] as usize) << (logn - 3)
}

const fn sig_len(logn: u32) -> usize {
    if logn == 9 { 666 } else { 1280 }
}

/// A verifying key of FN-DSA (putative draft): `0x00+logn || NTT(h)`.
#[derive(Clone, PartialEq, Eq)]
pub struct FnDsaVerifyingKey<const PK: usize>([u8; PK]);

/// A signing key of FN-DSA (putative draft): `0x50+logn || f || g || F ||
/// hpk`. Wiped on drop.
#[derive(Clone)]
pub struct FnDsaSigningKey<const SK: usize>([u8; SK]);

impl<const PK: usize> AsRef<[u8]> for FnDsaVerifyingKey<PK> {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl<const SK: usize> AsRef<[u8]> for FnDsaSigningKey<SK> {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl<const PK: usize> fmt::Debug for FnDsaVerifyingKey<PK> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FnDsaVerifyingKey<{PK}>")
    }
}

impl<const SK: usize> fmt::Debug for FnDsaSigningKey<SK> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FnDsaSigningKey<{SK}>(..)")
    }
}

impl<const SK: usize> Drop for FnDsaSigningKey<SK> {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl<const SK: usize> ZeroizeOnDrop for FnDsaSigningKey<SK> {}

const fn logn_of_vk(len: usize) -> u32 {
    if len == vk_len(9) { 9 } else { 10 }
}

const fn logn_of_sk(len: usize) -> u32 {
    if len == vk_len(9) + 448 { 9 } else { 10 }
}

impl<const PK: usize> TryFrom<&[u8]> for FnDsaVerifyingKey<PK> {
    type Error = Error;
    /// Checks the length, the header byte and that every value is < q.
    fn try_from(b: &[u8]) -> Result<Self, Error> {
        let logn = logn_of_vk(PK);
        pqforge_core::check_len("public key", PK, b.len())?;
        if b.first() != Some(&(logn as u8)) {
            return Err(Error::Encoding("public key header"));
        }
        let mut h = [0u16; 1024];
        if !codec::modq_decode(&mut h[..1 << logn], &b[1..]) {
            return Err(Error::Encoding("public key coefficient"));
        }
        let mut k = [0u8; PK];
        k.copy_from_slice(b);
        Ok(Self(k))
    }
}

impl<const SK: usize> TryFrom<&[u8]> for FnDsaSigningKey<SK> {
    type Error = Error;
    /// Checks the length, header, the fixed-width encodings of f, g, F and
    /// that the key completes (f invertible mod q, |G| <= 127). The hpk tail
    /// is not checked against the verifying key (the draft does not ask it).
    fn try_from(b: &[u8]) -> Result<Self, Error> {
        pqforge_core::check_len("secret key", SK, b.len())?;
        if logn_of_sk(SK) == 9 {
            decode_sk::<512>(b, 9)?;
        } else {
            decode_sk::<1024>(b, 10)?;
        }
        let mut k = [0u8; SK];
        k.copy_from_slice(b);
        Ok(Self(k))
    }
}

/// Decoded secret key (G recomputed), wiped on drop.
struct DecodedSk<const N: usize> {
    f: [i8; N],
    g: [i8; N],
    ff: [i8; N],
    gg: [i8; N],
    /// SHAKE256(enc(f) || enc(g), 40): the hedging key.
    hsk: [u8; 40],
    /// SHAKE256(vk, 64), copied from the key.
    hpk: [u8; 64],
}

impl<const N: usize> Drop for DecodedSk<N> {
    fn drop(&mut self) {
        self.f.zeroize();
        self.g.zeroize();
        self.ff.zeroize();
        self.gg.zeroize();
        self.hsk.zeroize();
    }
}

/// Decodes a secret key and recomputes G = g F / f mod q (checked small).
/// CT: only the overall validity bit is declassified.
#[inline(never)]
fn decode_sk<const N: usize>(sk: &[u8], logn: u32) -> Result<DecodedSk<N>, Error> {
    let n = N;
    let fg_len = sk_fg_len(logn);
    pqforge_core::check_len("secret key", 1 + 2 * fg_len + n + 64, sk.len())?;
    let mut s = DecodedSk {
        f: [0; N],
        g: [0; N],
        ff: [0; N],
        gg: [0; N],
        hsk: [0; 40],
        hpk: [0; 64],
    };
    let mut ok = pqforge_core::ct::eq_mask_u32(u32::from(sk[0]), 0x50 + logn);
    let bits = MAX_FG_BITS[logn as usize];
    let (_, v1) = codec::trim_i8_decode(&mut s.f, bits, &sk[1..]);
    let (_, v2) = codec::trim_i8_decode(&mut s.g, bits, &sk[1 + fg_len..]);
    let (_, v3) = codec::trim_i8_decode(
        &mut s.ff,
        MAX_FG_BITS_BIG[logn as usize],
        &sk[1 + 2 * fg_len..],
    );
    ok &= v1 & v2 & v3;
    let mut sh = Shake256::new();
    sh.absorb(&sk[1..=2 * fg_len]);
    sh.squeeze(&mut s.hsk);
    s.hpk.copy_from_slice(&sk[sk.len() - 64..]);

    // h = g / f, G = h F (NTT domain).
    let mut t0 = [0u16; N];
    let mut t1 = [0u16; N];
    for i in 0..n {
        t0[i] = mq::from_signed(i32::from(s.g[i]));
        t1[i] = mq::from_signed(i32::from(s.f[i]));
    }
    mq::ntt(&mut t0, logn);
    mq::ntt(&mut t1, logn);
    ok &= mq::div_ntt(&mut t0, &t1);
    for i in 0..n {
        t1[i] = mq::from_signed(i32::from(s.ff[i]));
    }
    mq::ntt(&mut t1, logn);
    mq::mul_ntt(&mut t1, &t0);
    mq::intt(&mut t1, logn);
    for i in 0..n {
        let c = mq::center(t1[i]);
        // |G[i]| <= 127.
        ok &= !(((127 - c) | (127 + c)) >> 31) as u32;
        s.gg[i] = c as i8;
    }
    t0.zeroize();
    t1.zeroize();
    ok &= crate::ntru_check::ntru_equation_mask(&s.f, &s.g, &s.ff, &s.gg, logn);
    // CT: whether the secret key is well formed is public.
    if !declassify_bool(ok == u32::MAX) {
        return Err(Error::InvalidKey(
            "secret key encoding, completion or NTRU equation",
        ));
    }
    Ok(s)
}

/// Computes mu for a raw message (`prehash = None`) or a pre-hashed one
/// (`Some((der_oid, hash))`); the context must be at most 255 bytes.
fn mu_of(
    hpk: &[u8; 64],
    ctx: &[u8],
    prehash: Option<(&[u8], &[u8])>,
    msg: &[u8],
) -> Result<[u8; 64], Error> {
    let Ok(clen) = u8::try_from(ctx.len()) else {
        return Err(Error::InvalidInput("context longer than 255 bytes"));
    };
    let mut sh = Shake256::new();
    sh.absorb(hpk);
    match prehash {
        None => {
            sh.absorb(&[0, clen]);
            sh.absorb(ctx);
            sh.absorb(msg);
        }
        Some((oid, hash)) => {
            sh.absorb(&[1, clen]);
            sh.absorb(ctx);
            sh.absorb(oid);
            sh.absorb(hash);
        }
    }
    let mut mu = [0u8; 64];
    sh.squeeze(&mut mu);
    Ok(mu)
}

fn hash_vk(vk: &[u8]) -> [u8; 64] {
    let mut sh = Shake256::new();
    sh.absorb(vk);
    let mut r = [0u8; 64];
    sh.squeeze(&mut r);
    r
}

/// Verification against mu. Every rejection is [`Error::Verification`].
fn verify_mu_impl<const N: usize>(
    vk: &[u8],
    logn: u32,
    mu: &[u8; 64],
    sig: &[u8],
) -> Result<(), Error> {
    let fail = Err(Error::Verification);
    if vk.len() != vk_len(logn) || vk[0] != logn as u8 {
        return fail;
    }
    if sig.len() != sig_len(logn) || sig[0] != 0x30 + logn as u8 {
        return fail;
    }
    let mut h = [0u16; N];
    if !codec::modq_decode(&mut h, &vk[1..]) {
        return fail;
    }
    let mut s2 = [0i16; N];
    if !codec::comp_decode(&mut s2, &sig[41..]) {
        return fail;
    }
    let mut norm2 = 0u32;
    let mut t2 = [0u16; N];
    for i in 0..N {
        let x = i32::from(s2[i]);
        norm2 += (x * x) as u32;
        t2[i] = mq::from_signed(x);
    }
    let mut hm = [0u16; N];
    sign::hash_to_point(&sig[1..41], mu, &mut hm);
    mq::ntt(&mut t2, logn);
    mq::mul_ntt(&mut t2, &h);
    mq::intt(&mut t2, logn);
    let mut norm1 = 0u32;
    let mut sat = 0u32;
    for i in 0..N {
        // s1 = hm - s2 h, centred.
        let y = mq::center(mq::from_signed(i32::from(hm[i]) - i32::from(t2[i])));
        norm1 = norm1.wrapping_add((y * y) as u32);
        sat |= norm1;
        sat |= (codec::B_INF as i32 - y) as u32;
        sat |= (codec::B_INF as i32 + y) as u32;
    }
    norm1 |= (sat >> 31).wrapping_neg();
    if norm1 < norm2.wrapping_neg() && norm1 + norm2 <= sign::SQBETA[logn as usize] {
        Ok(())
    } else {
        fail
    }
}

/// Hedged seed derivation.
fn derive_seed(hsk: &[u8; 40], mu: &[u8; 64], rnd: &[u8; RND_LEN]) -> [u8; 40] {
    let mut sh = Shake256::new();
    sh.absorb(hsk);
    sh.absorb(mu);
    sh.absorb(rnd);
    let mut seed = [0u8; 40];
    sh.squeeze(&mut seed);
    seed
}

macro_rules! fndsa_set {
    (
        $(#[$doc:meta])* $ty:ident, $name:literal, $logn:literal, $n:literal,
        $pk:literal, $sk:literal, $sig:literal, $cat:literal, $static:ident, $range:expr
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $ty;

        impl $ty {
            /// Key generation from an explicit 48-byte seed (deterministic;
            /// SHAKE256-driven round-3 NTRU key generation).
            #[must_use]
            pub fn keygen_from_seed(seed: &[u8; 48]) -> (FnDsaVerifyingKey<$pk>, FnDsaSigningKey<$sk>) {
                let mut rng = shake_from_seed(seed);
                let mut f = [0i8; $n];
                let mut g = [0i8; $n];
                let mut ff = [0i8; $n];
                let mut h = [0u16; $n];
                let mut tmp = [0u32; 8 * $n];
                let mut ftmp = [fpr::ZERO; 3 * $n];
                crate::keygen::keygen(&mut rng, &mut f, &mut g, &mut ff, &mut h, $logn, &mut tmp, &mut ftmp);
                drop(rng);
                tmp.zeroize();
                ftmp.zeroize();
                let mut vk = [0u8; $pk];
                vk[0] = $logn;
                mq::ntt(&mut h, $logn);
                codec::modq_encode(&mut vk[1..], &h);
                // CT: the verifying key is a public output.
                declassify(&mut vk);
                let mut sk = [0u8; $sk];
                sk[0] = 0x50 + $logn;
                let bits = MAX_FG_BITS[$logn];
                let mut u = 1;
                u += codec::trim_i8_encode(&mut sk[u..], &f, bits);
                u += codec::trim_i8_encode(&mut sk[u..], &g, bits);
                u += codec::trim_i8_encode(&mut sk[u..], &ff, MAX_FG_BITS_BIG[$logn]);
                sk[u..].copy_from_slice(&hash_vk(&vk));
                f.zeroize();
                g.zeroize();
                ff.zeroize();
                (FnDsaVerifyingKey(vk), FnDsaSigningKey(sk))
            }

            /// mu for a raw message under context `ctx` (at most 255 bytes).
            ///
            /// # Errors
            /// Context longer than 255 bytes.
            pub fn compute_mu(vk: &FnDsaVerifyingKey<$pk>, ctx: &[u8], msg: &[u8]) -> Result<[u8; MU_LEN], Error> {
                mu_of(&hash_vk(&vk.0), ctx, None, msg)
            }

            /// mu for a pre-hashed message: `oid` is the DER encoding of the
            /// hash function's OID (`06 09 60 86 48 01 65 03 04 02 xx`),
            /// `hash` its output.
            ///
            /// # Errors
            /// Context longer than 255 bytes.
            pub fn compute_mu_prehashed(
                vk: &FnDsaVerifyingKey<$pk>,
                ctx: &[u8],
                oid: &[u8],
                hash: &[u8],
            ) -> Result<[u8; MU_LEN], Error> {
                mu_of(&hash_vk(&vk.0), ctx, Some((oid, hash)), &[])
            }

            /// Signs `mu` (external-mu mode) with the 40 bytes `rnd` as the
            /// caller's randomness (hedged: the signature stays safe if
            /// `rnd` repeats; all zero gives deterministic signing).
            ///
            /// # Errors
            /// Invalid secret key; output buffer too small.
            pub fn sign_mu_with_rnd(
                sk: &FnDsaSigningKey<$sk>,
                mu: &[u8; MU_LEN],
                rnd: &[u8; RND_LEN],
                sig: &mut [u8],
            ) -> Result<usize, Error> {
                let s = decode_sk::<$n>(&sk.0, $logn)?;
                let mut seed = derive_seed(&s.hsk, mu, rnd);
                let r = Self::sign_decoded(&s, &seed, mu, sig);
                seed.zeroize();
                r
            }

            /// The hedged seed SHAKE256(hsk || mu || rnd, 40) (for tests).
            ///
            /// # Errors
            /// Invalid secret key.
            #[doc(hidden)]
            pub fn derived_seed(sk: &FnDsaSigningKey<$sk>, mu: &[u8; MU_LEN], rnd: &[u8; RND_LEN]) -> Result<[u8; 40], Error> {
                let s = decode_sk::<$n>(&sk.0, $logn)?;
                Ok(derive_seed(&s.hsk, mu, rnd))
            }

            fn sign_decoded(s: &DecodedSk<$n>, seed: &[u8; 40], mu: &[u8; 64], sig: &mut [u8]) -> Result<usize, Error> {
                if sig.len() < $sig {
                    return Err(Error::BufferTooSmall { what: "signature", needed: $sig, got: sig.len() });
                }
                let key = sign::Secret { f: &s.f, g: &s.g, ff: &s.ff, gg: &s.gg };
                if sign::sign_with_seed::<$n, { 9 * $n }>(&key, $logn, seed, mu, &mut sig[..$sig]) {
                    Ok($sig)
                } else {
                    Err(Error::InvalidKey("signing failed: secret key is not a valid basis"))
                }
            }

            /// Signs `mu` drawing 40 bytes from `rng`.
            ///
            /// # Errors
            /// Invalid secret key; output buffer too small.
            pub fn sign_mu<R: CryptoRng + ?Sized>(
                sk: &FnDsaSigningKey<$sk>,
                mu: &[u8; MU_LEN],
                rng: &mut R,
                sig: &mut [u8],
            ) -> Result<usize, Error> {
                let mut rnd = [0u8; RND_LEN];
                rng.fill_bytes(&mut rnd);
                let r = Self::sign_mu_with_rnd(sk, mu, &rnd, sig);
                rnd.zeroize();
                r
            }

            /// Signs `msg` under the context string `ctx`.
            ///
            /// # Errors
            /// Context longer than 255 bytes; invalid secret key; output
            /// buffer too small.
            pub fn sign_with_context<R: CryptoRng + ?Sized>(
                sk: &FnDsaSigningKey<$sk>,
                ctx: &[u8],
                msg: &[u8],
                rng: &mut R,
                sig: &mut [u8],
            ) -> Result<usize, Error> {
                let mut hpk = [0u8; 64];
                hpk.copy_from_slice(&sk.0[$sk - 64..]);
                let mu = mu_of(&hpk, ctx, None, msg)?;
                Self::sign_mu(sk, &mu, rng, sig)
            }

            /// Verifies `sig` on `mu` (external-mu mode).
            ///
            /// # Errors
            /// [`Error::Verification`] for every rejected signature.
            pub fn verify_mu(vk: &FnDsaVerifyingKey<$pk>, mu: &[u8; MU_LEN], sig: &[u8]) -> Result<(), Error> {
                verify_mu_impl::<$n>(&vk.0, $logn, mu, sig)
            }

            /// Verifies `sig` on `msg` under the context string `ctx`.
            ///
            /// # Errors
            /// [`Error::InvalidInput`] for a context longer than 255 bytes,
            /// [`Error::Verification`] for every rejected signature.
            pub fn verify_with_context(vk: &FnDsaVerifyingKey<$pk>, ctx: &[u8], msg: &[u8], sig: &[u8]) -> Result<(), Error> {
                let mu = Self::compute_mu(vk, ctx, msg)?;
                Self::verify_mu(vk, &mu, sig)
            }
        }

        impl Signature for $ty {
            const INFO: AlgInfo = AlgInfo {
                name: $name,
                family: "FN-DSA",
                kind: Kind::Sig,
                pk_bytes: $pk,
                sk_bytes: $sk,
                ct_bytes: 0,
                sig_bytes: $sig,
                ss_bytes: 0,
                category: $cat,
                status: Status::Draft,
                kat: KatRng::None,
                kat_header: "",
                revision: "FN-DSA putative draft 2026-07-22 (rust-fn-dsa 0629bb1)",
            };
            type VerifyingKey = FnDsaVerifyingKey<$pk>;
            type SigningKey = FnDsaSigningKey<$sk>;

            fn keygen<R: CryptoRng + ?Sized>(rng: &mut R) -> (Self::VerifyingKey, Self::SigningKey) {
                let mut seed = [0u8; 48];
                rng.fill_bytes(&mut seed);
                let r = Self::keygen_from_seed(&seed);
                seed.zeroize();
                r
            }

            /// Signs with the empty context.
            fn sign<R: CryptoRng + ?Sized>(
                sk: &Self::SigningKey,
                msg: &[u8],
                rng: &mut R,
                sig: &mut [u8],
            ) -> Result<usize, Error> {
                Self::sign_with_context(sk, b"", msg, rng, sig)
            }

            /// Verifies with the empty context.
            fn verify(vk: &Self::VerifyingKey, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
                Self::verify_with_context(vk, b"", msg, sig)
            }
        }

        /// Registry adapter (the hpk tail of the secret key is public).
        pub static $static: SigAlg<$ty> = SigAlg::new(&[$range]);
    };
}

fndsa_set!(
    /// FN-DSA-512 (putative 2026-07 draft); NIST category 1.
    FnDsa512, "fn-dsa-512", 9, 512, 897, 1345, 666, 1, FN_DSA_512, 1281..1345
);
fndsa_set!(
    /// FN-DSA-1024 (putative 2026-07 draft); NIST category 5.
    FnDsa1024, "fn-dsa-1024", 10, 1024, 1793, 2369, 1280, 5, FN_DSA_1024, 2305..2369
);
