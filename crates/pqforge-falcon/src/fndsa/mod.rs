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
//!
//! # Signing options ([`SignOptions`])
//!
//! * a context string of at most 255 bytes (default empty);
//! * [`SignOptions::with_prehash`]: the scheme hashes the message with any
//!   [`HashAlg`] (SHA2-224/256/384/512, SHA2-512/224, SHA2-512/256,
//!   SHA3-224/256/384/512, SHAKE128/256) and signs with the pre-hash form
//!   of mu (`0x01`, the hash OID, the digest);
//! * [`SignOptions::with_digest`]: the message argument is the digest
//!   PH(M) under any [`HashAlg`], computed by the caller; its length must
//!   be the function's output length;
//! * [`SignOptions::with_external_mu`]: the message argument is the
//!   64-byte mu itself (no context string then: it is part of mu);
//! * [`SignOptions::deterministic`]: `rnd` is 40 zero bytes instead of 40
//!   bytes drawn from the generator (hedged signing, the default, draws
//!   exactly one 40-byte block).
//!
//! Preparing keys: [`FnDsaVkState`] keeps hpk = SHAKE256(vk, 64) and the
//! decoded NTT(h), so verification hashes and decodes nothing but the
//! signature; [`FnDsaSkState`] keeps the decoded f, g, F, the recomputed G,
//! the hedging key hsk and the hpk tail of the signing key (the tail is
//! not compared with the verifying key: the draft does not ask it).
//!
//! ```
//! use pqforge_falcon::{FnDsa512, HashAlg, SignOptions, SignatureScheme};
//! # let mut rng = pqforge_core::testing::TestRng::new(1);
//! let (vk, sk) = FnDsa512::keygen(&mut rng);
//! let opts = SignOptions::new().with_context(b"app-v1");
//! let sig = FnDsa512::sign_with(&sk, b"msg", &opts, &mut rng).unwrap();
//! assert!(FnDsa512::verify_with(&vk, b"msg", &opts, sig.as_bytes()).is_ok());
//! assert!(FnDsa512::verify(&vk, b"msg", sig.as_bytes()).is_err()); // other context
//!
//! // Pre-hash: the scheme hashes; the caller's digest verifies the same.
//! let ph = SignOptions::new().with_prehash(HashAlg::Sha3_256);
//! let sig = FnDsa512::sign_with(&sk, b"big message", &ph, &mut rng).unwrap();
//! let digest = pqforge_core::keccak::sha3_256(b"big message");
//! let dg = SignOptions::new().with_digest(HashAlg::Sha3_256);
//! assert!(FnDsa512::verify_with(&vk, &digest, &dg, sig.as_bytes()).is_ok());
//! ```

pub(crate) mod codec;
mod sign;

use core::fmt;

#[cfg(doc)]
use pqforge_core::SignOptions;
use pqforge_core::keccak::Shake256;
use pqforge_core::{
    AlgInfo, CryptoRng, Error, HashAlg, KatRng, KeyForms, PreparedSk, PreparedVk, SignCaps,
    SignChecked, SignatureScheme, Status, VerifyChecked,
};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::backend::{self, Backend};
use crate::codec::{MAX_FG_BITS, MAX_FG_BITS_BIG};
use crate::ct_util::{declassify, declassify_bool};
use crate::fpr;
use crate::mq;
use crate::ntru::NtruKey;
use crate::rng::shake_from_seed;
use crate::scheme::Aligned;
use crate::scheme::FalconSkState;

/// Length of the random input of hedged signing and of the nonce.
pub const RND_LEN: usize = 40;
/// Length of mu and of the hashed verifying key.
pub const MU_LEN: usize = 64;
/// Length of the key-generation seed.
const SEED_LEN: usize = 48;

const fn sk_fg_len(logn: u32) -> usize {
    (MAX_FG_BITS[logn as usize] as usize) << (logn - 3)
}

const fn sig_len(logn: u32) -> usize {
    if logn == 9 { 666 } else { 1280 }
}

/// The signing options FN-DSA defines (see the module documentation).
const CAPS: SignCaps = SignCaps {
    max_context: 255,
    prehash: &HashAlg::ALL,
    digest: &HashAlg::ALL,
    external_mu: true,
    deterministic: true,
};

/// The revision line of both sets.
const REVISION: &str = "FN-DSA putative draft 2026-07-22 (rust-fn-dsa 0629bb1)";

/// A prepared FN-DSA verifying key: hpk = SHAKE256(vk, 64) and the decoded
/// NTT(h) (`N` = 512 or 1024), what [`SignatureScheme::prepare_vk`]
/// derives.
#[derive(Clone, PartialEq, Eq)]
pub struct FnDsaVkState<const N: usize> {
    pub(crate) hpk: [u8; MU_LEN],
    pub(crate) h: [u16; N],
}

impl<const N: usize> Default for FnDsaVkState<N> {
    fn default() -> Self {
        Self {
            hpk: [0; MU_LEN],
            h: [0; N],
        }
    }
}

impl<const N: usize> fmt::Debug for FnDsaVkState<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FnDsaVkState<{N}>")
    }
}

/// A prepared FN-DSA signing key: the decoded f, g, F, the recomputed G,
/// the hedging key hsk = SHAKE256(enc(f) || enc(g), 40) and the hpk tail
/// of the key, what [`SignatureScheme::prepare_sk`] derives after every
/// check. Wiped on drop.
pub struct FnDsaSkState<const N: usize> {
    /// f, g, F and the recomputed G (the round-3 state).
    pub(crate) key: FalconSkState<N>,
    pub(crate) hsk: [u8; 40],
    pub(crate) hpk: [u8; MU_LEN],
}

impl<const N: usize> Default for FnDsaSkState<N> {
    fn default() -> Self {
        Self {
            key: FalconSkState::default(),
            hsk: [0; 40],
            hpk: [0; MU_LEN],
        }
    }
}

impl<const N: usize> FnDsaSkState<N> {
    /// The four polynomials.
    fn key(&self) -> NtruKey<'_> {
        self.key.key()
    }
}

impl<const N: usize> Zeroize for FnDsaSkState<N> {
    fn zeroize(&mut self) {
        self.key.zeroize();
        self.hsk.zeroize();
        self.hpk.zeroize();
    }
}

impl<const N: usize> Drop for FnDsaSkState<N> {
    fn drop(&mut self) {
        self.hsk.zeroize();
        self.hpk.zeroize();
    }
}

impl<const N: usize> ZeroizeOnDrop for FnDsaSkState<N> {}

impl<const N: usize> fmt::Debug for FnDsaSkState<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FnDsaSkState<{N}>(..)")
    }
}

/// Checks a verifying key (header 0x00+logn, every value < q; the length
/// is the array's) and derives its state.
fn decode_vk<const N: usize>(vk: &[u8], logn: u32) -> Result<FnDsaVkState<N>, Error> {
    if vk[0] != logn as u8 {
        return Err(Error::Encoding("public key header"));
    }
    let mut st = FnDsaVkState::<N>::default();
    if !codec::modq_decode(&mut st.h, &vk[1..]) {
        return Err(Error::Encoding("public key coefficient"));
    }
    st.hpk = hash_vk(vk);
    Ok(st)
}

/// Decodes a secret key and recomputes G = g F / f mod q (checked small).
/// CT: only the overall validity bit is declassified.
#[inline(never)]
pub(crate) fn decode_sk<B: Backend, const N: usize>(
    b: B,
    sk: &[u8],
    logn: u32,
) -> Result<FnDsaSkState<N>, Error> {
    let n = N;
    let fg_len = sk_fg_len(logn);
    pqforge_core::check_len("secret key", 1 + 2 * fg_len + n + 64, sk.len())?;
    let mut s = FnDsaSkState::<N>::default();
    let mut ok = pqforge_core::ct::eq_mask_u32(u32::from(sk[0]), 0x50 + logn);
    let bits = MAX_FG_BITS[logn as usize];
    for (dst, bits, at) in [
        (&mut s.key.f, bits, 1),
        (&mut s.key.g, bits, 1 + fg_len),
        (
            &mut s.key.ff,
            MAX_FG_BITS_BIG[logn as usize],
            1 + 2 * fg_len,
        ),
    ] {
        let (_, valid) = crate::codec::trim_i8_decode::<codec::Order>(dst, bits, &sk[at..])
            .ok_or(Error::InvalidKey("secret key length"))?;
        ok &= valid;
    }
    let mut sh = Shake256::new();
    sh.absorb(&sk[1..=2 * fg_len]);
    sh.squeeze(&mut s.hsk);
    s.hpk.copy_from_slice(&sk[sk.len() - 64..]);

    // h = g / f, G = h F (NTT domain).
    let mut t0 = [0u16; N];
    let mut t1 = [0u16; N];
    for i in 0..n {
        t0[i] = mq::from_signed(i32::from(s.key.g[i])) as u16;
        t1[i] = mq::from_signed(i32::from(s.key.f[i])) as u16;
    }
    b.mq_ntt(&mut t0, logn);
    b.mq_ntt(&mut t1, logn);
    ok &= mq::nonzero_mask(&t1);
    b.mq_div(&mut t0, &t1);
    for i in 0..n {
        t1[i] = mq::from_signed(i32::from(s.key.ff[i])) as u16;
    }
    b.mq_ntt(&mut t1, logn);
    mq::mul_all(&mut t1, &t0);
    b.mq_intt(&mut t1, logn);
    ok &= small_mask(&mut s.key.gg, &t1);
    t0.zeroize();
    t1.zeroize();
    ok &= crate::ntru::check::ntru_equation_mask::<B, N>(b, &s.key(), logn);
    // CT: whether the secret key is well formed is public.
    if !declassify_bool(ok == u32::MAX) {
        return Err(Error::InvalidKey(
            "secret key encoding, completion or NTRU equation",
        ));
    }
    Ok(s)
}

/// G = x centred mod q (x in 0..q) into `gg`; all-ones if every value is
/// in [-127, 127].
fn small_mask(gg: &mut [i8], x: &[u16]) -> u32 {
    let mut ok = u32::MAX;
    for (g, &w) in gg.iter_mut().zip(x) {
        let c = mq::center(u32::from(w));
        // |G[i]| <= 127.
        ok &= !(((127 - c) | (127 + c)) >> 31) as u32;
        *g = c as i8;
    }
    ok
}

/// Key generation from a 48-byte seed: writes the encoded keys and
/// returns their prepared states. `T` >= 8N, `FT` >= 3N.
pub(crate) fn keygen<B: Backend, const N: usize, const T: usize, const FT: usize>(
    b: B,
    seed: &[u8; SEED_LEN],
    logn: u32,
    vk: &mut [u8],
    sk: &mut [u8],
    vst: &mut FnDsaVkState<N>,
    st: &mut FnDsaSkState<N>,
) {
    // States written in place (see `crate::scheme::keygen`).
    keygen_from_seed::<B, N, T, FT>(b, seed, logn, vk, sk, st, vst);
    complete_generated(b, st, vst, logn, sk);
}

/// The key generation proper (SHAKE256-driven round-3 NTRU key
/// generation): f, g, F into `st`, NTT(h) and hpk into `vst`, the encoded
/// keys into `vk` and `sk`.
#[inline(never)]
fn keygen_from_seed<B: Backend, const N: usize, const T: usize, const FT: usize>(
    b: B,
    seed: &[u8; SEED_LEN],
    logn: u32,
    vk: &mut [u8],
    sk: &mut [u8],
    st: &mut FnDsaSkState<N>,
    vst: &mut FnDsaVkState<N>,
) {
    let mut rng = shake_from_seed(seed);
    let mut tmp = Aligned([0u32; T]);
    let tmp = &mut tmp.0;
    let mut ftmp = Aligned([fpr::ZERO; FT]);
    let ftmp = &mut ftmp.0;
    let key = crate::keygen::NewKey {
        f: &mut st.key.f,
        g: &mut st.key.g,
        ff: &mut st.key.ff,
        h: &mut vst.h,
    };
    crate::keygen::keygen(b, &mut rng, key, logn, tmp, ftmp);
    drop(rng);
    tmp.zeroize();
    ftmp.zeroize();
    b.mq_ntt(&mut vst.h, logn);
    public_key_out(vst, logn, vk);
    sk[0] = 0x50 + logn as u8;
    let bits = MAX_FG_BITS[logn as usize];
    let mut u = 1;
    let big = MAX_FG_BITS_BIG[logn as usize];
    for (x, bits) in [(&st.key.f, bits), (&st.key.g, bits), (&st.key.ff, big)] {
        u += crate::codec::trim_i8_encode::<codec::Order>(&mut sk[u..], x, bits);
    }
    sk[u..].copy_from_slice(&vst.hpk);
}

/// Encodes NTT(h) into `vk` and hashes it into `vst.hpk`.
fn public_key_out<const N: usize>(vst: &mut FnDsaVkState<N>, logn: u32, vk: &mut [u8]) {
    // CT: the verifying key is a public output.
    vst.h = pqforge_core::ctgrind::declassify_val(vst.h);
    vk[0] = logn as u8;
    codec::modq_encode(&mut vk[1..], &vst.h);
    declassify(vk);
    vst.hpk = hash_vk(vk);
}

/// G, hsk and hpk of a freshly generated key (as decoding computes them:
/// G = F h with the NTT(h) of the verifying key). Not inlined, so that its
/// scratch is off the stack during key generation.
#[inline(never)]
fn complete_generated<B: Backend, const N: usize>(
    b: B,
    st: &mut FnDsaSkState<N>,
    vst: &FnDsaVkState<N>,
    logn: u32,
    sk: &[u8],
) {
    let mut t = [0u16; N];
    for i in 0..N {
        t[i] = mq::from_signed(i32::from(st.key.ff[i])) as u16;
    }
    b.mq_ntt(&mut t, logn);
    mq::mul_all(&mut t, &vst.h);
    b.mq_intt(&mut t, logn);
    let ok = small_mask(&mut st.key.gg, &t);
    t.zeroize();
    debug_assert!(declassify_bool(ok == u32::MAX), "a generated key completes");
    let fg_len = sk_fg_len(logn);
    let mut sh = Shake256::new();
    sh.absorb(&sk[1..=2 * fg_len]);
    sh.squeeze(&mut st.hsk);
    st.hpk = vst.hpk;
}

/// The verifying key of a prepared signing key: NTT(h) = NTT(g) / NTT(f),
/// encoded into `vk`, with its state.
#[inline(never)]
pub(crate) fn derive_vk<B: Backend, const N: usize>(
    b: B,
    st: &FnDsaSkState<N>,
    logn: u32,
    vk: &mut [u8],
) -> FnDsaVkState<N> {
    let mut vst = FnDsaVkState::<N>::default();
    let mut t = [0u16; N];
    for i in 0..N {
        vst.h[i] = mq::from_signed(i32::from(st.key.g[i])) as u16;
        t[i] = mq::from_signed(i32::from(st.key.f[i])) as u16;
    }
    b.mq_ntt(&mut vst.h, logn);
    b.mq_ntt(&mut t, logn);
    // f is invertible mod q: prepare_sk checked it.
    debug_assert_eq!(
        mq::nonzero_mask(&t),
        u32::MAX,
        "a prepared key has f invertible"
    );
    b.mq_div(&mut vst.h, &t);
    t.zeroize();
    public_key_out(&mut vst, logn, vk);
    vst
}

fn hash_vk(vk: &[u8]) -> [u8; 64] {
    let mut sh = Shake256::new();
    sh.absorb(vk);
    let mut r = [0u8; 64];
    sh.squeeze(&mut r);
    r
}

/// Verification against mu under the prepared NTT(h). Every rejection is
/// [`Error::Verification`].
pub(crate) fn verify_mu<B: Backend, const N: usize>(
    b: B,
    h: &[u16; N],
    logn: u32,
    mu: &[u8; 64],
    sig: &[u8],
) -> Result<(), Error> {
    let fail = Err(Error::Verification);
    if sig.len() != sig_len(logn) || sig[0] != 0x30 + logn as u8 {
        return fail;
    }
    let mut t2 = [0u16; N];
    // s2 is only needed for its norm and t2: scoped, so that its stack
    // slot is free again for hm.
    let norm2 = {
        let mut s2 = [0i16; N];
        if !codec::comp_decode(&mut s2, &sig[41..]) {
            return fail;
        }
        let mut norm2 = 0u32;
        for i in 0..N {
            let x = i32::from(s2[i]);
            norm2 += (x * x) as u32;
            t2[i] = mq::from_signed(x) as u16;
        }
        norm2
    };
    let mut hm = [0u16; N];
    sign::hash_to_point(&sig[1..41], mu, &mut hm);
    b.mq_ntt(&mut t2, logn);
    mq::mul_all(&mut t2, h);
    b.mq_intt(&mut t2, logn);
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

/// Signs `mu` with the caller's `rnd` into `sig` (exactly the signature
/// length).
pub(crate) fn sign_mu<B: Backend, const N: usize, const T: usize>(
    b: B,
    st: &FnDsaSkState<N>,
    logn: u32,
    mu: &[u8; MU_LEN],
    rnd: &[u8; RND_LEN],
    sig: &mut [u8],
) -> Result<usize, Error> {
    let mut seed = derive_seed(&st.hsk, mu, rnd);
    let ok = sign::sign_with_seed::<B, N, T>(b, &st.key(), logn, &seed, mu, sig);
    seed.zeroize();
    if ok {
        Ok(sig.len())
    } else {
        Err(Error::InvalidKey(
            "signing failed: secret key is not a valid basis",
        ))
    }
}

macro_rules! fndsa_set {
    (
        $(#[$doc:meta])* $ty:ident, $name:literal, $stem:literal, $logn:literal, $n:literal,
        $pk:literal, $sk:literal, $sig:literal, $cat:literal, $range:expr
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $ty;

        impl SignatureScheme for $ty {
            const BACKENDS: pqforge_core::cpu::Backends = crate::backend::BACKENDS;
            const INFO: AlgInfo = AlgInfo::sig($name, "FN-DSA", $pk, $sk, $sig, $cat)
                .with_status(Status::Draft)
                .with_kat(KatRng::None, "")
                .with_revision(REVISION)
                .with_c_stem($stem)
                .with_feature("fndsa")
                .with_key_forms(KeyForms::EXPANDED)
                .with_seeds(SEED_LEN, 0)
                .with_sign_caps(CAPS);
            /// The hpk tail of the signing key is public.
            const SK_PUBLIC: &'static [core::ops::Range<usize>] = &[$range];

            type VkBytes = [u8; $pk];
            type SkBytes = [u8; $sk];
            type SigBytes = [u8; $sig];
            type KeygenSeed = [u8; SEED_LEN];
            type VkState = FnDsaVkState<$n>;
            type SkState = FnDsaSkState<$n>;

            fn prepare_vk(vk: &[u8; $pk]) -> Result<FnDsaVkState<$n>, Error> {
                decode_vk::<$n>(vk, $logn)
            }

            fn prepare_sk(sk: &[u8; $sk]) -> Result<FnDsaSkState<$n>, Error> {
                backend::fndsa_decode_sk::<$n>(sk, $logn)
            }

            fn keygen_derand_into(
                seed: &[u8; SEED_LEN],
                vk: &mut [u8; $pk],
                sk: &mut [u8; $sk],
            ) -> (FnDsaVkState<$n>, FnDsaSkState<$n>) {
                let mut out = (FnDsaVkState::default(), FnDsaSkState::default());
                backend::fndsa_keygen::<$n, { 8 * $n }, { 3 * $n }>(seed, $logn, vk, sk, &mut out.0, &mut out.1);
                out
            }

            fn verifying_key_into(sk: PreparedSk<'_, Self>, vk: &mut [u8; $pk]) -> FnDsaVkState<$n> {
                backend::fndsa_derive_vk::<$n>(sk.state(), $logn, vk)
            }

            /// Computes mu (pure, pre-hash, digest or external), draws
            /// `rnd` (40 bytes; none when deterministic) and signs.
            fn sign_into<R: CryptoRng + ?Sized>(
                sk: PreparedSk<'_, Self>,
                msg: &[u8],
                opts: &SignChecked<'_, Self>,
                rng: &mut R,
                sig: &mut [u8; $sig],
            ) -> Result<usize, Error> {
                let st = sk.state();
                let mu = pqforge_core::sig::mu::mu(&st.hpk, opts, msg)?;
                let mut rnd = [0u8; RND_LEN];
                if !opts.is_deterministic() {
                    rng.fill_bytes(&mut rnd);
                }
                let r = backend::fndsa_sign::<$n, { 9 * $n }>(st, $logn, &mu, &rnd, sig);
                rnd.zeroize();
                r
            }

            fn verify_prepared(
                vk: PreparedVk<'_, Self>,
                msg: &[u8],
                opts: &VerifyChecked<'_, Self>,
                sig: &[u8],
            ) -> Result<(), Error> {
                let st = vk.state();
                let mu = pqforge_core::sig::mu::mu(&st.hpk, opts, msg)?;
                backend::fndsa_verify::<$n>(&st.h, $logn, &mu, sig)
            }
        }
    };
}

fndsa_set!(
    /// FN-DSA-512 (putative 2026-07 draft); NIST category 1.
    FnDsa512, "fn-dsa-512", "fndsa512", 9, 512, 897, 1345, 666, 1, 1281..1345
);
fndsa_set!(
    /// FN-DSA-1024 (putative 2026-07 draft); NIST category 5.
    FnDsa1024, "fn-dsa-1024", "fndsa1024", 10, 1024, 1793, 2369, 1280, 5, 2305..2369
);
