//! Byte-level operations shared by every parameter set: key encoding and
//! decoding, the NIST-API randomness order, signature formats.
//!
//! Randomness (Falcon round-3 reference `nist.c`): keygen draws a 48-byte
//! seed for SHAKE256; signing draws the 40-byte nonce, then a 48-byte seed
//! for the SHAKE256 that seeds the sampler PRNG.

use pqforge_core::Error;
use pqforge_core::keccak::Shake256;
use zeroize::Zeroize;

use crate::codec::{
    MAX_FG_BITS, MAX_FG_BITS_BIG, comp_decode, comp_encode, modq_decode, modq_encode,
    trim_i8_decode, trim_i8_encode,
};
use crate::ct_util::{declassify, declassify_bool};
use crate::fpr::{self, Fpr};
use crate::rng::shake_from_seed;
use crate::vrfy::{complete_private, hash_to_point, to_ntt_monty, verify_raw};
use crate::{keygen, sign};

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

/// Which logn a public-key length belongs to.
pub(crate) const fn logn_of_pk(len: usize) -> u32 {
    if len == pk_len(9) { 9 } else { 10 }
}

/// Which logn a secret-key length belongs to.
pub(crate) const fn logn_of_sk(len: usize) -> u32 {
    if len == sk_len(9) { 9 } else { 10 }
}

/// Checks a public-key encoding (header 0x00+logn, 14-bit values < q,
/// exact length).
pub(crate) fn check_pk(pk: &[u8], logn: u32) -> Result<(), Error> {
    pqforge_core::check_len("public key", pk_len(logn), pk.len())?;
    if pk[0] != logn as u8 {
        return Err(Error::Encoding("public key header"));
    }
    let mut h = [0u16; 1024];
    modq_decode(&mut h[..1 << logn], &pk[1..]).ok_or(Error::Encoding("public key coefficient"))?;
    Ok(())
}

/// The decoded secret polynomials (G recomputed), wiped on drop.
pub(crate) struct SecretPolys<const N: usize> {
    pub(crate) f: [i8; N],
    pub(crate) g: [i8; N],
    pub(crate) ff: [i8; N],
    pub(crate) gg: [i8; N],
}

impl<const N: usize> Drop for SecretPolys<N> {
    fn drop(&mut self) {
        self.f.zeroize();
        self.g.zeroize();
        self.ff.zeroize();
        self.gg.zeroize();
    }
}

/// Decodes and completes a secret key: header 0x50+logn, f, g, F, then G
/// from f G - g F = q. CT: only the overall validity bit is declassified.
/// Not inlined, so that its scratch is off the stack while signing.
#[inline(never)]
pub(crate) fn decode_sk<const N: usize>(sk: &[u8], logn: u32) -> Result<SecretPolys<N>, Error> {
    pqforge_core::check_len("secret key", sk_len(logn), sk.len())?;
    let mut s = SecretPolys {
        f: [0; N],
        g: [0; N],
        ff: [0; N],
        gg: [0; N],
    };
    let mut ok = pqforge_core::ct::eq_mask_u32(u32::from(sk[0]), 0x50 + logn);
    let fgb = MAX_FG_BITS[logn as usize];
    let mut u = 1;
    for (dst, bits) in [
        (&mut s.f, fgb),
        (&mut s.g, fgb),
        (&mut s.ff, MAX_FG_BITS_BIG[logn as usize]),
    ] {
        let (len, valid) =
            trim_i8_decode(dst, bits, &sk[u..]).ok_or(Error::InvalidKey("secret key length"))?;
        ok &= valid;
        u += len;
    }
    // CT: whether the secret key is well formed is public.
    if !declassify_bool(ok != 0) {
        return Err(Error::InvalidKey("secret key encoding"));
    }
    let mut t = [0u16; 2048];
    let done = complete_private(&mut s.gg, &s.f, &s.g, &s.ff, logn, &mut t);
    if !done {
        return Err(Error::InvalidKey("secret key does not complete"));
    }
    let ok = crate::ntru_check::ntru_equation_mask(&s.f, &s.g, &s.ff, &s.gg, logn);
    // CT: whether the secret key is well formed is public.
    if !declassify_bool(ok == u32::MAX) {
        return Err(Error::InvalidKey("secret key fails the NTRU equation"));
    }
    Ok(s)
}

/// Key generation from a 48-byte seed (the SHAKE256 input). `T` >= 8N
/// (u32 scratch), `FT` >= 3N (floating-point scratch).
pub(crate) fn keygen_from_seed<const N: usize, const T: usize, const FT: usize>(
    seed: &[u8; SEED_LEN],
    logn: u32,
    pk: &mut [u8],
    sk: &mut [u8],
) {
    let mut rng = shake_from_seed(seed);
    let mut f = [0i8; N];
    let mut g = [0i8; N];
    let mut ff = [0i8; N];
    let mut h = [0u16; N];
    let mut tmp = [0u32; T];
    let mut ftmp = [fpr::ZERO; FT];
    keygen::keygen(
        &mut rng, &mut f, &mut g, &mut ff, &mut h, logn, &mut tmp, &mut ftmp,
    );
    drop(rng);
    tmp.zeroize();
    ftmp.zeroize();

    sk[0] = 0x50 + logn as u8;
    let fgb = MAX_FG_BITS[logn as usize];
    let mut u = 1;
    u += trim_i8_encode(&mut sk[u..], &f, fgb);
    u += trim_i8_encode(&mut sk[u..], &g, fgb);
    u += trim_i8_encode(&mut sk[u..], &ff, MAX_FG_BITS_BIG[logn as usize]);
    debug_assert_eq!(u, sk.len());
    f.zeroize();
    g.zeroize();
    ff.zeroize();

    pk[0] = logn as u8;
    modq_encode(&mut pk[1..], &h);
    // CT: the public key is a public output.
    declassify(pk);
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
    Dyn(&'a SecretPolys<N>),
    /// Expanded key (basis + tree).
    Tree(&'a [Fpr]),
}

/// Signs with a given nonce and sampler seed: writes the compressed s2 into
/// `body` (at most `max` bytes; zero-padded to `max` when `pad`), returns
/// its length. Retries (with the same SHAKE256 stream, as the reference)
/// when the encoding does not fit. `T` >= 9N.
pub(crate) fn sign_core<const N: usize, const T: usize>(
    key: &Key<'_, N>,
    logn: u32,
    nonce: &[u8],
    seed: &[u8; SEED_LEN],
    msg: &[u8],
    body: &mut [u8],
    pad: bool,
) -> usize {
    let mut hm = [0u16; N];
    hash_message(nonce, msg, &mut hm);
    let mut rng = shake_from_seed(seed);
    let mut s2 = [0i16; N];
    let mut tmp = [fpr::ZERO; T];
    let len = loop {
        match key {
            Key::Dyn(s) => sign::sign_dyn(
                &mut s2, &mut rng, &s.f, &s.g, &s.ff, &s.gg, &hm, logn, &mut tmp,
            ),
            Key::Tree(ek) => sign::sign_tree(&mut s2, &mut rng, ek, &hm, logn, &mut tmp),
        }
        declassify_s2(&mut s2);
        if let Some(v) = comp_encode(body, &s2) {
            break v;
        }
    };
    tmp.zeroize();
    if pad {
        body[len..].fill(0);
    }
    len
}

/// Verification of a detached signature (header, nonce, body) in format
/// `fmt`. Every rejection is [`Error::Verification`].
pub(crate) fn verify_detached(
    pk: &[u8],
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
    let Some(used) = comp_decode(&mut s2[..n], body) else {
        return fail;
    };
    let rest_ok = match fmt {
        Format::Compressed => used == body.len(),
        Format::Padded => body[used..].iter().all(|&b| b == 0),
    };
    if !rest_ok {
        return fail;
    }
    verify_body(pk, logn, nonce, msg, &s2[..n])
}

/// The common tail: decode h, hash, check the norm.
pub(crate) fn verify_body(
    pk: &[u8],
    logn: u32,
    nonce: &[u8],
    msg: &[u8],
    s2: &[i16],
) -> Result<(), Error> {
    let n = 1usize << logn;
    if pk.len() != pk_len(logn) || pk[0] != logn as u8 {
        return Err(Error::Verification);
    }
    let mut h = [0u16; 1024];
    if modq_decode(&mut h[..n], &pk[1..]).is_none() {
        return Err(Error::Verification);
    }
    to_ntt_monty(&mut h[..n], logn);
    let mut hm = [0u16; 1024];
    hash_message(nonce, msg, &mut hm[..n]);
    let mut tmp = [0u16; 1024];
    if verify_raw(&hm[..n], s2, &h[..n], logn, &mut tmp) {
        Ok(())
    } else {
        Err(Error::Verification)
    }
}

/// Verification of a KAT signed message `sm` (2-byte length, nonce,
/// message, 0x20+logn, compressed s2); returns the message range.
pub(crate) fn open_sm(pk: &[u8], logn: u32, sm: &[u8]) -> Result<core::ops::Range<usize>, Error> {
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
    match comp_decode(&mut s2[..n], body) {
        Some(v) if v == body.len() => {}
        _ => return Err(Error::Verification),
    }
    verify_body(
        pk,
        logn,
        &sm[2..2 + NONCE_LEN],
        &sm[2 + NONCE_LEN..hdr],
        &s2[..n],
    )?;
    Ok(2 + NONCE_LEN..hdr)
}
