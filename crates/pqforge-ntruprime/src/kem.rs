//! Streamlined NTRU Prime (round 3), generic over the parameter set and the
//! backend: key generation, encapsulation, decapsulation with implicit
//! rejection, and the secret-key consistency check.
//!
//! Hashes: `Hash_b(x)` = the first 32 bytes of SHA-512(b ‖ x).
//!
//! * pk = Rq_encode(h), h = g / (3f) in R/q;
//! * sk = Small_encode(f) ‖ Small_encode(1/g mod 3) ‖ pk ‖ rho ‖ Hash4(pk);
//! * ct = Rounded_encode(Round(h·r)) ‖ Hash2(Hash3(r_enc) ‖ Hash4(pk)),
//!   r_enc = Small_encode(r);
//! * ss = Hash1(Hash3(r_enc) ‖ ct), or Hash0(Hash3(rho) ‖ ct) when the
//!   re-encryption of the decrypted r differs from ct (chosen by masks).

use pqforge_core::sha2::Sha512;
use pqforge_core::{ByteArray, ct};
use zeroize::Zeroize;

use crate::arith::Modulus;
use crate::arith::{negative_mask, nonzero_mask};
use crate::encode::{Levels, decode, encode, small_decode, small_encode};
use crate::params::{Buf, HASH_BYTES, ParameterSet};
use crate::poly::{Karatsuba3, MOD3, mod_q, mul_karatsuba, r3_recip, rq_recip3};
use crate::random::Randomness;
use crate::sort::sort_u32;

/// The kernels a backend provides; every one has the portable code as its
/// default, and a SIMD backend re-compiles them for its instruction set.
pub(crate) trait Backend {
    /// Backend name (`portable`, `avx2`).
    const NAME: &'static str;

    /// `out = a · b` in R/m (m = q or 3) for `a` with |a_i| < 4000 and a
    /// small `b` (p coefficients each).
    fn mul_small<P: ParameterSet>(out: &mut [i16], a: &[i16], b: &[i8], m: Modulus) {
        mul_karatsuba::<P, Karatsuba3>(out, a, b, m);
    }

    /// `Rq_recip3`: 1/(3s) in R/q; 0 if invertible, else -1.
    fn rq_recip3<P: ParameterSet>(out: &mut [i16], s: &[i8]) -> i32 {
        rq_recip3::<P>(out, s)
    }

    /// `R3_recip`: 1/s in R/3; 0 if invertible, else -1.
    fn r3_recip<P: ParameterSet>(out: &mut [i8], s: &[i8]) -> i32 {
        r3_recip::<P>(out, s)
    }

    /// Constant-time ascending sort of words.
    fn sort(x: &mut [u32]) {
        sort_u32(x);
    }
}

/// `Hash_b(parts…)`: the first 32 bytes of SHA-512(b ‖ parts).
fn hash_prefix(out: &mut [u8; HASH_BYTES], b: u8, parts: &[&[u8]]) {
    let mut h = Sha512::new();
    h.update(&[b]);
    for p in parts {
        h.update(p);
    }
    let mut full = h.finalize();
    out.copy_from_slice(&full[..HASH_BYTES]);
    full.zeroize();
}

/// `Hash4(pk)`: the key cache stored in the secret key.
pub(crate) fn hash_pk(pk: &[u8]) -> [u8; HASH_BYTES] {
    let mut out = [0u8; HASH_BYTES];
    hash_prefix(&mut out, 4, &[pk]);
    out
}

/// `Small_random`: uniform coefficients in {-1, 0, 1} from 30 bits of each
/// word (multiply by 3, keep the top 2 bits).
fn small_from_words(out: &mut [i8], words: &[u32]) {
    for (o, &w) in out.iter_mut().zip(words) {
        *o = ((((w & 0x3fff_ffff) * 3) >> 30) as i8) - 1;
    }
}

/// `Short_fromlist`: w nonzero coefficients in {-1, 1} and p - w zeros, in
/// the order of the sorted words (low 2 bits of each: 0 or 2 for the
/// first w, 1 for the rest). Sorted in constant time.
fn short_from_words<P: ParameterSet, B: Backend>(out: &mut [i8], words: &mut [u32]) {
    for (i, x) in words.iter_mut().enumerate() {
        *x = if i < P::W { *x & !1 } else { (*x & !3) | 1 };
    }
    B::sort(words);
    for (o, &x) in out.iter_mut().zip(words.iter()) {
        *o = (x & 3) as i8 - 1;
    }
}

/// Rq_decode of a public key into `h` (any bytes decode). Inlined into the
/// backend's operation, so that the codec is compiled for its instruction
/// set (the same for [`rounded_decode`]).
#[inline(always)]
fn rq_decode<P: ParameterSet>(h: &mut [i16], pk: &[u8]) {
    let mut d = P::Digits::zeroed();
    decode(d.as_mut(), pk, const { &Levels::new(P::P, P::Q as u32) });
    for (o, &x) in h.iter_mut().zip(d.as_ref()) {
        *o = x as i16 - P::Q12 as i16;
    }
}

/// Rq_encode of `h` (coefficients in [-Q12, Q12]).
fn rq_encode<P: ParameterSet>(out: &mut [u8], h: &[i16]) {
    let mut d = P::Digits::zeroed();
    for (o, &x) in d.as_mut().iter_mut().zip(h) {
        *o = (x + P::Q12 as i16) as u16;
    }
    encode(out, d.as_mut(), const { &Levels::new(P::P, P::Q as u32) });
}

/// Rounded_encode: each coefficient (a multiple of 3 in [-Q12, Q12]) as
/// the digit (c + Q12)/3 of radix (q + 2)/3; the division by 3 of a
/// multiple of 3 is a multiplication by 10923 and a shift.
fn rounded_encode<P: ParameterSet>(out: &mut [u8], c: &[i16]) {
    let mut d = P::Digits::zeroed();
    for (o, &x) in d.as_mut().iter_mut().zip(c) {
        *o = (((i32::from(x) + P::Q12) * 10923) >> 15) as u16;
    }
    encode(
        out,
        d.as_mut(),
        const { &Levels::new(P::P, (P::Q as u32).div_ceil(3)) },
    );
    d.zeroize();
}

/// Rounded_decode: digit d ↦ 3d - Q12 (any bytes decode).
#[inline(always)]
fn rounded_decode<P: ParameterSet>(c: &mut [i16], s: &[u8]) {
    let mut d = P::Digits::zeroed();
    decode(
        d.as_mut(),
        s,
        const { &Levels::new(P::P, (P::Q as u32).div_ceil(3)) },
    );
    for (o, &x) in c.iter_mut().zip(d.as_ref()) {
        *o = (3 * i32::from(x) - P::Q12) as i16;
    }
}

/// Key generation: g (Small_random, retried until invertible mod 3), f
/// (Short_random), h = g/(3f); then `rho` (Small_bytes) and the cache.
/// Draws exactly as the reference: p words per g attempt, p words for f,
/// then one draw of `rho`.
#[inline(never)]
pub(crate) fn keygen<P: ParameterSet, B: Backend, R: Randomness>(
    src: &mut R,
    pk: &mut [u8],
    sk: &mut [u8],
) {
    let mut words = P::Words::zeroed();
    let mut g = P::Small::zeroed();
    let mut ginv = P::Small::zeroed();
    loop {
        src.words(words.as_mut());
        small_from_words(g.as_mut(), words.as_ref());
        let fail = B::r3_recip::<P>(ginv.as_mut(), g.as_ref());
        // Public: the number of attempts says nothing about the final g.
        if pqforge_core::ctgrind::declassify_val(fail) == 0 {
            break;
        }
    }
    let mut f = P::Small::zeroed();
    src.words(words.as_mut());
    short_from_words::<P, B>(f.as_mut(), words.as_mut());
    words.zeroize();

    let mut finv = P::Fq::zeroed();
    let _ = B::rq_recip3::<P>(finv.as_mut(), f.as_ref()); // f is always invertible
    let mut h = P::Fq::zeroed();
    B::mul_small::<P>(h.as_mut(), finv.as_ref(), g.as_ref(), mod_q::<P>());
    // h (the public key) is public.
    rq_encode::<P>(pk, h.as_ref());
    pqforge_core::ctgrind::declassify(pk);

    let sb = P::SMALL_BYTES;
    small_encode(&mut sk[..sb], f.as_ref());
    small_encode(&mut sk[sb..2 * sb], ginv.as_ref());
    let (pk_part, rest) = sk[2 * sb..].split_at_mut(P::PK_BYTES);
    pk_part.copy_from_slice(pk);
    let (rho, cache) = rest.split_at_mut(sb);
    src.bytes(rho);
    cache.copy_from_slice(&hash_pk(pk));

    g.zeroize();
    ginv.zeroize();
    f.zeroize();
    finv.zeroize();
    h.zeroize();
}

/// `Hide`: encrypts the short `r` under `pk` into `ct` (rounded c, then the
/// confirmation Hash2(Hash3(r_enc) ‖ cache)) and returns Hash3(r_enc) in
/// `hr`.
fn hide<P: ParameterSet, B: Backend>(
    ct: &mut [u8],
    hr: &mut [u8; HASH_BYTES],
    r: &[i8],
    pk: &[u8],
    cache: &[u8],
) {
    let mut r_enc = [0u8; 320];
    let r_enc = &mut r_enc[..P::SMALL_BYTES];
    small_encode(r_enc, r);
    hash_prefix(hr, 3, &[r_enc]);
    r_enc.zeroize();

    let mut h = P::Fq::zeroed();
    rq_decode::<P>(h.as_mut(), pk);
    let mut c = P::Fq::zeroed();
    B::mul_small::<P>(c.as_mut(), h.as_ref(), r, mod_q::<P>());
    // Round: c - (c mod 3), centered.
    for x in c.as_mut() {
        *x -= MOD3.freeze(i32::from(*x));
    }
    let (c_part, confirm) = ct.split_at_mut(P::ROUNDED_BYTES);
    rounded_encode::<P>(c_part, c.as_ref());
    let mut out = [0u8; HASH_BYTES];
    hash_prefix(&mut out, 2, &[hr, cache]);
    confirm.copy_from_slice(&out);
    // In decapsulation the confirmation comes from the decrypted r: secret
    // until the comparison.
    out.zeroize();
    c.zeroize();
}

/// Encapsulation: r = Short_random (one list of p words), `Hide`, and
/// ss = Hash1(Hash3(r_enc) ‖ ct). `cache` = Hash4(pk).
#[inline(never)]
pub(crate) fn encaps<P: ParameterSet, B: Backend, R: Randomness>(
    src: &mut R,
    pk: &[u8],
    cache: &[u8; HASH_BYTES],
    ct: &mut [u8],
    ss: &mut [u8; HASH_BYTES],
) {
    let mut words = P::Words::zeroed();
    src.words(words.as_mut());
    let mut r = P::Small::zeroed();
    short_from_words::<P, B>(r.as_mut(), words.as_mut());
    words.zeroize();
    let mut hr = [0u8; HASH_BYTES];
    hide::<P, B>(ct, &mut hr, r.as_ref(), pk, cache);
    // The ciphertext is public (as ML-KEM declassifies c).
    pqforge_core::ctgrind::declassify(ct);
    hash_prefix(ss, 1, &[&hr, ct]);
    hr.zeroize();
    r.zeroize();
}

/// `Decrypt`: r from the rounded ciphertext c with f and v = 1/g mod 3;
/// when the weight of the candidate is not w, the fixed r = (1,…,1,0,…,0)
/// (w ones) is used instead, selected by masks.
fn decrypt<P: ParameterSet, B: Backend>(r: &mut [i8], c_bytes: &[u8], f: &[i8], v: &[i8]) {
    let mut c = P::Fq::zeroed();
    rounded_decode::<P>(c.as_mut(), c_bytes);
    let mut cf = P::Fq::zeroed();
    B::mul_small::<P>(cf.as_mut(), c.as_ref(), f, mod_q::<P>());
    // e = (3·c·f mod q) mod 3.
    let md = mod_q::<P>();
    for x in cf.as_mut() {
        *x = MOD3.freeze(i32::from(md.freeze(3 * i32::from(*x))));
    }
    let mut ev = P::Fq::zeroed();
    B::mul_small::<P>(ev.as_mut(), cf.as_ref(), v, MOD3);
    let mut weight = 0i32;
    for &x in ev.as_ref() {
        weight += i32::from(x & 1);
    }
    // Through a value barrier: LLVM must not turn the masked selection
    // below back into a branch on the (secret) weight test.
    let mask = ct::barrier_u32(nonzero_mask(weight - P::W as i32) as u32) as i8;
    for (i, (o, &x)) in r.iter_mut().zip(ev.as_ref()).enumerate() {
        let x = x as i8;
        *o = if i < P::W {
            ((x ^ 1) & !mask) ^ 1
        } else {
            x & !mask
        };
    }
    cf.zeroize();
    ev.zeroize();
}

/// Decapsulation with implicit rejection (constant time throughout).
#[inline(never)]
pub(crate) fn decaps<P: ParameterSet, B: Backend>(sk: &[u8], ct: &[u8], ss: &mut [u8; HASH_BYTES]) {
    let sb = P::SMALL_BYTES;
    let mut f = P::Small::zeroed();
    let mut v = P::Small::zeroed();
    let _ = small_decode(f.as_mut(), &sk[..sb]);
    let _ = small_decode(v.as_mut(), &sk[sb..2 * sb]);
    let pk = &sk[2 * sb..2 * sb + P::PK_BYTES];
    let rho = &sk[2 * sb + P::PK_BYTES..3 * sb + P::PK_BYTES];
    let cache = &sk[3 * sb + P::PK_BYTES..];

    let mut r = P::Small::zeroed();
    decrypt::<P, B>(r.as_mut(), &ct[..P::ROUNDED_BYTES], f.as_ref(), v.as_ref());
    f.zeroize();
    v.zeroize();

    let mut cnew = P::CtBytes::zeroed();
    let mut hr = [0u8; HASH_BYTES];
    hide::<P, B>(cnew.as_mut(), &mut hr, r.as_ref(), pk, cache);
    r.zeroize();
    // 0xFF iff the re-encryption matches.
    let ok = ct::eq_mask(ct, cnew.as_ref());
    let mut hrho = [0u8; HASH_BYTES];
    hash_prefix(&mut hrho, 3, &[rho]);
    let mut chosen = [0u8; HASH_BYTES];
    ct::select(ok, &hr, &hrho, &mut chosen);
    hash_prefix(ss, ok & 1, &[&chosen, ct]);
    hr.zeroize();
    hrho.zeroize();
    chosen.zeroize();
    cnew.zeroize();
}

/// The secret-key check: canonical small encodings of f and v, f of weight
/// w, and the key pair consistent: 3·h·f ≡ g in R/q with g small, and
/// g·v ≡ 1 in R/3. All-ones (`0xFF`) iff every check passes; computed
/// without secret-dependent branches (only the verdict is public).
#[inline(never)]
pub(crate) fn check_sk<P: ParameterSet, B: Backend>(sk: &[u8]) -> u8 {
    let sb = P::SMALL_BYTES;
    let mut f = P::Small::zeroed();
    let mut v = P::Small::zeroed();
    let mut bad = u32::from(small_decode(f.as_mut(), &sk[..sb]));
    bad |= u32::from(small_decode(v.as_mut(), &sk[sb..2 * sb]));
    let mut weight = 0i32;
    for &x in f.as_ref() {
        weight += i32::from(x & 1);
    }
    bad |= nonzero_mask(weight - P::W as i32) as u32;

    let mut h = P::Fq::zeroed();
    rq_decode::<P>(h.as_mut(), &sk[2 * sb..2 * sb + P::PK_BYTES]);
    let mut g = P::Fq::zeroed();
    let md = mod_q::<P>();
    B::mul_small::<P>(g.as_mut(), h.as_ref(), f.as_ref(), md);
    let mut gs = P::Small::zeroed();
    // The sign bit of `range` is set iff some |g_i| > 1 (plain ORs of the
    // values: a mask per coefficient became a branch at opt-level "s"/"z").
    let mut range = 0i32;
    for (o, x) in gs.as_mut().iter_mut().zip(g.as_mut()) {
        *x = md.freeze(3 * i32::from(*x));
        let y = i32::from(*x);
        range |= (1 - y) | (y + 1);
        *o = *x as i8;
    }
    bad |= negative_mask(range) as u32;
    // g · v ≡ 1 (mod 3).
    let mut gv = P::Fq::zeroed();
    let mut g16 = P::Fq::zeroed();
    for (o, &x) in g16.as_mut().iter_mut().zip(gs.as_ref()) {
        *o = i16::from(x);
    }
    B::mul_small::<P>(gv.as_mut(), g16.as_ref(), v.as_ref(), MOD3);
    let mut diff = 0i32;
    for (i, &x) in gv.as_ref().iter().enumerate() {
        diff |= i32::from(x) - i32::from(i == 0);
    }
    bad |= nonzero_mask(diff) as u32;
    f.zeroize();
    v.zeroize();
    g.zeroize();
    gs.zeroize();
    g16.zeroize();
    gv.zeroize();
    (nonzero_mask(bad as i32) as u8) ^ 0xFF
}
