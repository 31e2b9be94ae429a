//! Byte-level operations shared by every parameter set: key encoding and
//! decoding, the NIST-API randomness order, signature formats.
//!
//! Randomness (Falcon round-3 reference `nist.c`): keygen draws a 48-byte
//! seed for SHAKE256; signing draws the 40-byte nonce, then a 48-byte seed
//! for the SHAKE256 that seeds the sampler PRNG.

use core::fmt;

use pqforge_core::Error;
use pqforge_core::keccak::Shake256;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::backend::Backend;
use crate::codec::{
    MAX_FG_BITS, MAX_FG_BITS_BIG, Msb, ROUND3_COMP_BOUND, comp_decode, comp_encode, modq_decode,
    modq_encode, trim_i8_decode, trim_i8_encode,
};
use crate::ct_util::{declassify, declassify_bool};
use crate::fpr::{self, Fpr};
use crate::ntru::NtruKey;
use crate::rng::shake_from_seed;
use crate::vrfy::{
    complete_from_h, complete_private, compute_public, hash_to_point, to_ntt_monty, verify_raw,
};
use crate::{keygen, sign};

/// A scratch buffer on a cache-line boundary: the AVX2 kernels' 32-byte
/// loads and stores and the buffer copies then never straddle two lines
/// (otherwise the frame layout decides; measurably slower when it does
/// not align them).
#[repr(align(64))]
pub(crate) struct Aligned<T>(pub(crate) T);

/// Nonce length in bytes.
pub const NONCE_LEN: usize = 40;
/// Seed length of keygen and of the signing sampler.
pub const SEED_LEN: usize = 48;

/// Signature encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// 0x30+logn || nonce || compressed s2 (variable length).
    Compressed,
    /// 0x30+logn || nonce || compressed s2 || zeros, fixed length.
    Padded,
}

/// Public-key length for degree 2^logn.
pub(crate) const fn pk_len(logn: u32) -> usize {
    1 + (14usize << logn).div_ceil(8)
}

/// Secret-key length for degree 2^logn.
pub(crate) const fn sk_len(logn: u32) -> usize {
    1 + 2 * ((MAX_FG_BITS[logn as usize] as usize) << logn) / 8
        + ((MAX_FG_BITS_BIG[logn as usize] as usize) << logn) / 8
}

/// Maximum compressed-s2 length (NIST `CRYPTO_BYTES` - 2 - nonce - header).
pub(crate) const fn comp_max(logn: u32) -> usize {
    if logn == 9 { 690 - 43 } else { 1330 - 43 }
}

/// Padded signature length.
pub(crate) const fn padded_len(logn: u32) -> usize {
    if logn == 9 { 666 } else { 1280 }
}

/// A prepared Falcon verifying key: h in NTT + Montgomery form, what
/// [`pqforge_core::SignatureScheme::prepare_vk`] derives (decoded and
/// checked once, so verification skips the decoding and one NTT).
/// `N` = 512 or 1024.
#[derive(Clone, PartialEq, Eq)]
pub struct FalconVkState<const N: usize> {
    pub(crate) h: [u16; N],
}

impl<const N: usize> Default for FalconVkState<N> {
    fn default() -> Self {
        Self { h: [0; N] }
    }
}

impl<const N: usize> fmt::Debug for FalconVkState<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FalconVkState<{N}>")
    }
}

/// Checks a public-key encoding (header 0x00+logn, 14-bit values < q; the
/// length is the array's) and converts h for [`verify_raw`].
pub(crate) fn decode_pk<B: Backend, const N: usize>(
    b: B,
    pk: &[u8],
    logn: u32,
) -> Result<FalconVkState<N>, Error> {
    if pk[0] != logn as u8 {
        return Err(Error::Encoding("public key header"));
    }
    let mut st = FalconVkState::default();
    modq_decode::<Msb>(&mut st.h, &pk[1..]).ok_or(Error::Encoding("public key coefficient"))?;
    to_ntt_monty(b, &mut st.h, logn);
    Ok(st)
}

/// A prepared Falcon signing key: the decoded f, g, F and the recomputed
/// G (`N` coefficients each), what
/// [`pqforge_core::SignatureScheme::prepare_sk`] derives after every
/// check of the encoding, the completion and the NTRU equation. Signing
/// uses it directly. Wiped on drop.
pub struct FalconSkState<const N: usize> {
    pub(crate) f: [i8; N],
    pub(crate) g: [i8; N],
    pub(crate) ff: [i8; N],
    pub(crate) gg: [i8; N],
}

impl<const N: usize> Default for FalconSkState<N> {
    fn default() -> Self {
        Self {
            f: [0; N],
            g: [0; N],
            ff: [0; N],
            gg: [0; N],
        }
    }
}

impl<const N: usize> FalconSkState<N> {
    /// The four polynomials.
    pub(crate) fn key(&self) -> NtruKey<'_> {
        NtruKey {
            f: &self.f,
            g: &self.g,
            ff: &self.ff,
            gg: &self.gg,
        }
    }
}

impl<const N: usize> Zeroize for FalconSkState<N> {
    fn zeroize(&mut self) {
        self.f.zeroize();
        self.g.zeroize();
        self.ff.zeroize();
        self.gg.zeroize();
    }
}

impl<const N: usize> Drop for FalconSkState<N> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl<const N: usize> ZeroizeOnDrop for FalconSkState<N> {}

impl<const N: usize> fmt::Debug for FalconSkState<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FalconSkState<{N}>(..)")
    }
}

/// Decodes and completes a secret key: header 0x50+logn, f, g, F, then G
/// from f G - g F = q. CT: only the overall validity bit is declassified.
/// Not inlined, so that its scratch is off the stack while signing.
#[inline(never)]
pub(crate) fn decode_sk<B: Backend, const N: usize>(
    b: B,
    sk: &[u8],
    logn: u32,
) -> Result<FalconSkState<N>, Error> {
    pqforge_core::check_len("secret key", sk_len(logn), sk.len())?;
    let mut s = FalconSkState::<N>::default();
    let mut ok = pqforge_core::ct::eq_mask_u32(u32::from(sk[0]), 0x50 + logn);
    let fgb = MAX_FG_BITS[logn as usize];
    let mut u = 1;
    for (dst, bits) in [
        (&mut s.f, fgb),
        (&mut s.g, fgb),
        (&mut s.ff, MAX_FG_BITS_BIG[logn as usize]),
    ] {
        let (len, valid) = trim_i8_decode::<Msb>(dst, bits, &sk[u..])
            .ok_or(Error::InvalidKey("secret key length"))?;
        ok &= valid;
        u += len;
    }
    // CT: whether the secret key is well formed is public.
    if !declassify_bool(ok != 0) {
        return Err(Error::InvalidKey("secret key encoding"));
    }
    if !complete_gg::<B, N>(b, &mut s, logn) {
        return Err(Error::InvalidKey("secret key does not complete"));
    }
    let ok = crate::ntru::check::ntru_equation_mask::<B, N>(b, &s.key(), logn);
    // CT: whether the secret key is well formed is public.
    if !declassify_bool(ok == u32::MAX) {
        return Err(Error::InvalidKey("secret key fails the NTRU equation"));
    }
    Ok(s)
}

/// G from (f, g, F) (`complete_private`) into `s`, with its 2n-value
/// scratch in a frame of its own (not held during the NTRU-equation check
/// that follows: signing's stack peak on small devices).
#[inline(never)]
fn complete_gg<B: Backend, const N: usize>(b: B, s: &mut FalconSkState<N>, logn: u32) -> bool {
    // Scratch: G mod q and NTT(f) (secret), wiped on every exit.
    let mut t = zeroize::Zeroizing::new([[0u16; N]; 2]);
    complete_private(b, &mut s.gg, &s.f, &s.g, &s.ff, logn, t.as_flattened_mut())
}

/// Key generation from a 48-byte seed (the SHAKE256 input): writes the
/// encoded keys and returns their prepared states. `T` >= 8N (u32
/// scratch), `FT` >= 3N (floating-point scratch).
pub(crate) fn keygen<B: Backend, const N: usize, const T: usize, const FT: usize>(
    b: B,
    seed: &[u8; SEED_LEN],
    logn: u32,
    pk: &mut [u8],
    sk: &mut [u8],
    vst: &mut FalconVkState<N>,
    st: &mut FalconSkState<N>,
) {
    // The states are written in place (out-parameters): returned by value,
    // a 6 KB (Falcon-1024) copy stayed in the dispatch frame.
    keygen_from_seed::<B, N, T, FT>(b, seed, logn, pk, sk, st, vst);
    complete_generated(b, st, vst, logn);
}

/// The key generation proper: f, g, F into `st`, h into `vst`, the
/// encoded keys into `pk` and `sk`.
#[inline(never)]
fn keygen_from_seed<B: Backend, const N: usize, const T: usize, const FT: usize>(
    b: B,
    seed: &[u8; SEED_LEN],
    logn: u32,
    pk: &mut [u8],
    sk: &mut [u8],
    st: &mut FalconSkState<N>,
    vst: &mut FalconVkState<N>,
) {
    let mut rng = shake_from_seed(seed);
    let mut tmp = Aligned([0u32; T]);
    let tmp = &mut tmp.0;
    let mut ftmp = Aligned([fpr::ZERO; FT]);
    let ftmp = &mut ftmp.0;
    let key = keygen::NewKey {
        f: &mut st.f,
        g: &mut st.g,
        ff: &mut st.ff,
        h: &mut vst.h,
    };
    keygen::keygen(b, &mut rng, key, logn, tmp, ftmp);
    drop(rng);
    tmp.zeroize();
    ftmp.zeroize();

    sk[0] = 0x50 + logn as u8;
    let fgb = MAX_FG_BITS[logn as usize];
    let mut u = 1;
    u += trim_i8_encode::<Msb>(&mut sk[u..], &st.f, fgb);
    u += trim_i8_encode::<Msb>(&mut sk[u..], &st.g, fgb);
    u += trim_i8_encode::<Msb>(&mut sk[u..], &st.ff, MAX_FG_BITS_BIG[logn as usize]);
    debug_assert_eq!(u, sk.len());

    public_key_out(b, vst, logn, pk);
}

/// Encodes h (plain form) into `pk` and converts it to the prepared form.
fn public_key_out<B: Backend, const N: usize>(
    b: B,
    vst: &mut FalconVkState<N>,
    logn: u32,
    pk: &mut [u8],
) {
    // CT: the public key is a public output.
    vst.h = pqforge_core::ctgrind::declassify_val(vst.h);
    pk[0] = logn as u8;
    modq_encode::<Msb>(&mut pk[1..], &vst.h);
    declassify(pk);
    to_ntt_monty(b, &mut vst.h, logn);
}

/// G of a freshly generated key (key generation outputs f, g, F): G = F h
/// with the prepared h. Not inlined, so that its scratch is off the stack
/// during key generation.
#[inline(never)]
fn complete_generated<B: Backend, const N: usize>(
    b: B,
    st: &mut FalconSkState<N>,
    vst: &FalconVkState<N>,
    logn: u32,
) {
    let mut t = [0u16; N];
    let done = complete_from_h(b, &mut st.gg, &st.ff, &vst.h, logn, &mut t);
    debug_assert!(done, "a generated key completes");
    t.zeroize();
}

/// The public key of a prepared signing key: h = g / f mod q, encoded
/// into `pk` (`0x00+logn || h`), with its prepared state.
#[inline(never)]
pub(crate) fn derive_pk<B: Backend, const N: usize>(
    b: B,
    st: &FalconSkState<N>,
    logn: u32,
    pk: &mut [u8],
) -> FalconVkState<N> {
    let mut vst = FalconVkState::<N>::default();
    let mut t = [0u16; N];
    // f is invertible mod q: prepare_sk checked that the key completes.
    let inv = compute_public(b, &mut vst.h, &st.f, &st.g, logn, &mut t);
    debug_assert!(inv, "a prepared key has f invertible");
    t.zeroize();
    public_key_out(b, &mut vst, logn, pk);
    vst
}

/// hm = HashToPoint(SHAKE256(nonce || msg)).
pub(crate) fn hash_message(nonce: &[u8], msg: &[u8], hm: &mut [u16]) {
    let mut sc = Shake256::new();
    sc.absorb(nonce);
    sc.absorb(msg);
    hash_to_point(&mut sc, hm);
}

/// Declassifies the accepted s2 (it becomes the public signature).
fn declassify_s2(s2: &mut [i16]) {
    for x in s2.iter_mut() {
        *x = pqforge_core::ctgrind::declassify_val(*x);
    }
}

/// Where the signature body goes and how long it may be.
pub(crate) enum Key<'a, const N: usize> {
    /// Decoded (f, g, F, G): dynamic signing.
    Dyn(&'a FalconSkState<N>),
    /// Expanded key (basis + tree).
    Tree(&'a [Fpr]),
}

/// Signs with a given nonce and sampler seed: writes the compressed s2 into
/// `body` (at most `body.len()` bytes), returns its length. Retries (with
/// the same SHAKE256 stream, as the reference) when the encoding does not
/// fit. `T` >= 9N.
pub(crate) fn sign_core<B: Backend, const N: usize, const T: usize>(
    b: B,
    key: &Key<'_, N>,
    logn: u32,
    nonce: &[u8; NONCE_LEN],
    seed: &[u8; SEED_LEN],
    msg: &[u8],
    body: &mut [u8],
) -> usize {
    let mut hm = [0u16; N];
    hash_message(nonce, msg, &mut hm);
    let mut rng = shake_from_seed(seed);
    let mut s2 = [0i16; N];
    let len = crate::scratch::with::<T, _>(|tmp| {
        loop {
            match key {
                Key::Dyn(s) => sign::sign_dyn(b, &mut s2, &mut rng, &s.key(), &hm, logn, tmp),
                Key::Tree(ek) => sign::sign_tree(b, &mut s2, &mut rng, ek, &hm, logn, tmp),
            }
            // CT: whether the candidate's encoding fits is public (a retry);
            // only an accepted s2 is declassified, then encoded.
            if crate::codec::comp_fits(&s2, ROUND3_COMP_BOUND, body.len()) {
                declassify_s2(&mut s2);
                let v = comp_encode::<Msb>(body, &s2, ROUND3_COMP_BOUND);
                debug_assert!(v.is_some(), "comp_fits promised an encoding");
                if let Some(v) = v {
                    break v;
                }
            }
        }
    });
    s2.zeroize();
    len
}

/// Verification of a detached signature (header, nonce, body) in format
/// `fmt` under the prepared public key `h` (NTT + Montgomery form). Every
/// rejection is [`Error::Verification`]. Inlined into the dispatch (one
/// frame for the decoded s2 and the caller's state, as before the
/// backends).
#[inline(always)]
pub(crate) fn verify_detached<B: Backend>(
    b: B,
    h: &[u16],
    logn: u32,
    msg: &[u8],
    sig: &[u8],
    fmt: Format,
) -> Result<(), Error> {
    let n = 1usize << logn;
    let fail = Err(Error::Verification);
    match fmt {
        Format::Compressed => {
            if sig.len() < 2 + NONCE_LEN {
                return fail;
            }
        }
        Format::Padded => {
            if sig.len() != padded_len(logn) {
                return fail;
            }
        }
    }
    if sig[0] != 0x30 + logn as u8 {
        return fail;
    }
    let nonce = &sig[1..=NONCE_LEN];
    let body = &sig[1 + NONCE_LEN..];
    let mut s2 = [0i16; 1024];
    let Some(used) = comp_decode::<Msb>(&mut s2[..n], body, ROUND3_COMP_BOUND) else {
        return fail;
    };
    let rest_ok = match fmt {
        Format::Compressed => used == body.len(),
        Format::Padded => body[used..].iter().all(|&b| b == 0),
    };
    if !rest_ok {
        return fail;
    }
    verify_body(b, h, logn, nonce, msg, &s2[..n])
}

/// The common tail: hash, check the norm (`h` prepared).
fn verify_body<B: Backend>(
    b: B,
    h: &[u16],
    logn: u32,
    nonce: &[u8],
    msg: &[u8],
    s2: &[i16],
) -> Result<(), Error> {
    let n = 1usize << logn;
    let mut hm = [0u16; 1024];
    hash_message(nonce, msg, &mut hm[..n]);
    let mut tmp = [0u16; 1024];
    if verify_raw(b, &hm[..n], s2, h, logn, &mut tmp) {
        Ok(())
    } else {
        Err(Error::Verification)
    }
}

/// Verification of a KAT signed message `sm` (2-byte length, nonce,
/// message, 0x20+logn, compressed s2); returns the message range.
/// Inlined as [`verify_detached`].
#[inline(always)]
pub(crate) fn open_sm<B: Backend>(
    b: B,
    h: &[u16],
    logn: u32,
    sm: &[u8],
) -> Result<core::ops::Range<usize>, Error> {
    let n = 1usize << logn;
    if sm.len() < 3 + NONCE_LEN {
        return Err(Error::Verification);
    }
    let sl = (usize::from(sm[0]) << 8) | usize::from(sm[1]);
    if sl < 2 || sl > sm.len() - NONCE_LEN - 2 {
        return Err(Error::Verification);
    }
    let body_len = sl - 1;
    let mlen = sm.len() - NONCE_LEN - 3 - body_len;
    let hdr = 2 + NONCE_LEN + mlen;
    if sm[hdr] != 0x20 + logn as u8 {
        return Err(Error::Verification);
    }
    let mut s2 = [0i16; 1024];
    let body = &sm[hdr + 1..];
    match comp_decode::<Msb>(&mut s2[..n], body, ROUND3_COMP_BOUND) {
        Some(v) if v == body.len() => {}
        _ => return Err(Error::Verification),
    }
    let (nonce, msg) = (&sm[2..2 + NONCE_LEN], &sm[2 + NONCE_LEN..hdr]);
    verify_body(b, h, logn, nonce, msg, &s2[..n])?;
    Ok(2 + NONCE_LEN..hdr)
}
