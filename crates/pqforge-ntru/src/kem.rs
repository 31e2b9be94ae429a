//! The NTRU KEM (round-3 reference algorithm), generic over the parameter
//! set and the backend's kernels: key generation, encapsulation, and
//! decapsulation with implicit rejection.
//!
//! * Key generation samples f, g from the seed (HPS: f i.i.d., g fixed
//!   type; HRSS: both "iid+"), stores f and f⁻¹ mod (3, Φ_n), lifts to Z_q
//!   with g ← 3g (HPS) or 3(x − 1)g (HRSS), inverts gf modulo q, and
//!   derives h⁻¹ = f·(gf)⁻¹·f mod (q, Φ_n) (stored) and h = g·(gf)⁻¹·g (the
//!   public key).
//! * Encapsulation samples r, m from the seed, k = SHA3-256(pack r ‖ pack
//!   m), c = r·h + Lift(m).
//! * Decapsulation recovers m = (c·f mod 3)·f⁻¹, r = (c − Lift(m))·h⁻¹ mod
//!   (q, Φ_n), checks the ciphertext padding, that m is a valid message
//!   (HPS: fixed type) and that r is trinary (Proposition 1 of Schanck
//!   2018: then re-encryption would reproduce c), and returns
//!   SHA3-256(pack r ‖ pack m) or, on failure, SHA3-256(prf key ‖ c),
//!   selected in constant time.

use pqforge_core::ct::{self, barrier_u32};
use pqforge_core::ctgrind;
use pqforge_core::sponge::sha3_256;

use crate::inv;
use crate::params::{PRF_KEY_BYTES, ParameterSet, SS_BYTES, padded_len};
use crate::poly::{
    self, fold, karatsuba, mod3, mod3_phi_n, modq_phi_n, rq_sum_zero_from_bytes, rq_to_s3,
    s3_from_bytes, s3_to_bytes, sq_from_bytes, sq_to_bytes, trinary_zq_to_z3, z3_to_zq,
};
use crate::sample;

/// Largest packed (r, m) pair over all sets: 2·⌈1372/5⌉ bytes.
pub(crate) const MAX_RM_PACKED: usize = 550;

/// The kernels a backend provides (portable defaults).
pub(crate) trait Backend {
    /// The backend's name (`portable`, `avx2`).
    const NAME: &'static str;

    /// The full product `r = a·b` (2m coefficients, m-coefficient
    /// operands) with scratch `s`
    /// ([`karatsuba_scratch(m)`](crate::params::karatsuba_scratch)).
    fn mul_wide(r: &mut [u16], a: &[u16], b: &[u16], s: &mut [u16]) {
        karatsuba(r, a, b, s);
    }

    /// The ring product `r = a·b mod (x^n − 1)` (n coefficients each),
    /// exact modulo 2^max(13, log₂ q): every caller needs it modulo q, or,
    /// for products of {0, 1, 2} polynomials (coefficients below 4n <
    /// 2^13), exactly, with the bits above 2^13 zero. By default
    /// [`rq_mul_wide`] on [`Backend::mul_wide`] (exact modulo 2^16).
    fn ring_mul<P: ParameterSet>(r: &mut [u16], a: &[u16], b: &[u16])
    where
        Self: Sized,
    {
        rq_mul_wide::<P, Self>(r, a, b);
    }

    /// Sorts `x` ascending in constant time ([`sample::sort_i32`]).
    fn sort_i32(x: &mut [i32]) {
        sample::sort_i32(x);
    }

    /// `r = a⁻¹ mod (2, Φ_n)` ([`inv::r2_inverse`]).
    fn r2_inverse<P: ParameterSet>(r: &mut [u16], a: &[u16])
    where
        Self: Sized,
    {
        inv::r2_inverse::<P>(r, a);
    }

    /// `r = a⁻¹ mod (3, Φ_n)` ([`inv::s3_inverse`]).
    fn s3_inverse<P: ParameterSet>(r: &mut [u16], a: &[u16])
    where
        Self: Sized,
    {
        inv::s3_inverse::<P>(r, a);
    }
}

/// `r = a·b mod (x^n − 1)` (exact modulo 2^max(13, log₂ q)): the
/// backend's [`Backend::ring_mul`].
#[inline(always)]
pub(crate) fn rq_mul<P: ParameterSet, B: Backend>(r: &mut [u16], a: &[u16], b: &[u16]) {
    B::ring_mul::<P>(r, a, b);
}

/// `r = a·b mod (x^n − 1)` by [`Backend::mul_wide`], in a frame of its own
/// (the zero-padded operands, the product and the Karatsuba scratch, wiped
/// on return).
#[inline(never)]
pub(crate) fn rq_mul_wide<P: ParameterSet, B: Backend>(r: &mut [u16], a: &[u16], b: &[u16]) {
    let m = const { padded_len(P::N) };
    let mut wide = P::WIDE_ZERO;
    let (pa, rest) = wide.as_mut().split_at_mut(m);
    let (pb, rest) = rest.split_at_mut(m);
    let (prod, s) = rest.split_at_mut(2 * m);
    pa[..P::N].copy_from_slice(a);
    pb[..P::N].copy_from_slice(b);
    B::mul_wide(prod, pa, pb, s);
    // The product has degree below 2n − 1: fold it modulo x^n − 1.
    fold(r, &prod[..2 * P::N]);
    ct::wipe_secret(wide.as_mut());
}

/// `r = a⁻¹` modulo (q, Φ_n) (r is an element of Z_q\[x\]/(x^n − 1) whose
/// image modulo Φ_n is the inverse): the inverse modulo 2, lifted by four
/// Newton steps r ← r·(2 − a·r) (precision 2 → 2^32 ≥ q). Returns 0 if
/// a is invertible modulo (2, Φ_n), else 1 (constant time; r is then
/// meaningless): with e = 1 − a·r, a step makes e ← e², so a·r ≡ 1
/// modulo (2, Φ_n) for the first r (read off the first product, −a·r,
/// which every step computes anyway) gives a·r ≡ 1 modulo (2^16, Φ_n) at
/// the end, and a non-invertible a has no such r.
#[inline(never)]
fn rq_inverse<P: ParameterSet, B: Backend>(r: &mut [u16], a: &[u16]) -> u32 {
    B::r2_inverse::<P>(r, a);
    let mut bufs = [P::POLY_ZERO; 3];
    let [neg_a, c, s] = &mut bufs;
    let (neg_a, c, s) = (neg_a.as_mut(), c.as_mut(), s.as_mut());
    for (x, &y) in neg_a.iter_mut().zip(a) {
        *x = y.wrapping_neg();
    }
    let mut bad = 0u16;
    for step in 0..2 {
        rq_mul::<P, B>(c, r, neg_a);
        if step == 0 {
            // −a·r mod Φ_n (c − c[n−1]) must be ≡ 1 (mod 2): odd constant
            // term, even other terms (the last is 0).
            let last = c[P::N - 1];
            bad = (c[0] ^ last ^ 1) & 1;
            for &x in &c[1..P::N - 1] {
                bad |= (x ^ last) & 1;
            }
        }
        c[0] = c[0].wrapping_add(2);
        rq_mul::<P, B>(s, c, r);
        rq_mul::<P, B>(c, s, neg_a);
        c[0] = c[0].wrapping_add(2);
        rq_mul::<P, B>(r, c, s);
    }
    for b in &mut bufs {
        ct::wipe_secret(b.as_mut());
    }
    u32::from(bad)
}

/// Lift(m) for m in {0, 1, 2} with `m[n−1] = 0`: HPS the centred lift,
/// HRSS (x − 1)·lift(m/(x − 1) mod (3, Φ_n)).
fn lift<P: ParameterSet>(r: &mut [u16], m: &[u16]) {
    let n = P::N;
    if P::HPS {
        r.copy_from_slice(m);
        z3_to_zq(r, P::Q);
        return;
    }
    // b = m/(x − 1) mod (3, Φ_n), b[n−1] = 0: shift m by a multiple k of
    // Φ_n (all ones) so that m'(1) ≡ 0, solve (x − 1)b = m' in
    // Z_3[x]/(x^n − 1) by the recurrence b[i] = b[i−1] − m'[i], starting
    // from b[0] = Σ_{i≥1} m'[i] (which makes b[n−1] = 0): that is, b[i] =
    // Σ_{j>i} m'[j] mod 3, suffix sums below 4n < 2^16 (independent
    // reductions, no chain of them).
    let mut sum = 0u32;
    for &c in m {
        sum += u32::from(c);
    }
    // k = −m(1)/n mod 3; 1/n ≡ n (mod 3) as n ≢ 0.
    let n_inv = (n % 3) as u32;
    let k = u32::from(mod3((3 - u32::from(mod3(sum))) * n_inv));
    let b = r;
    let mut suffix = 0u32;
    for i in (0..n).rev() {
        b[i] = mod3(suffix);
        suffix += u32::from(m[i]) + k;
    }
    z3_to_zq(b, P::Q);
    // r = (x − 1)·b, in place from the top (b[n−1] = 0).
    for i in (1..n).rev() {
        b[i] = b[i - 1].wrapping_sub(b[i]);
    }
    b[0] = b[0].wrapping_neg();
}

/// f, g from the key-generation sample seed.
fn sample_fg<P: ParameterSet, B: Backend>(f: &mut [u16], g: &mut [u16], seed: &[u8]) {
    let (s1, s2) = seed.split_at(P::IID_BYTES);
    if P::HPS {
        sample::iid(f, s1);
        fixed_type::<P, B>(g, s2);
    } else {
        sample::iid_plus(f, s1);
        sample::iid_plus(g, s2);
    }
}

/// r, m from the encapsulation seed.
fn sample_rm<P: ParameterSet, B: Backend>(r: &mut [u16], m: &mut [u16], seed: &[u8]) {
    let (s1, s2) = seed.split_at(P::IID_BYTES);
    sample::iid(r, s1);
    if P::HPS {
        fixed_type::<P, B>(m, s2);
    } else {
        sample::iid(m, s2);
    }
}

/// A fixed-type sample, with the sort keys in a frame of their own.
#[inline(never)]
fn fixed_type<P: ParameterSet, B: Backend>(r: &mut [u16], seed: &[u8]) {
    let mut keys = P::SORT_ZERO;
    sample::fixed_type(r, seed, P::WEIGHT, keys.as_mut(), B::sort_i32);
    ct::wipe_secret(keys.as_mut());
}

/// Deterministic key generation from the f, g sample seed (`P::FG_BYTES`)
/// and the PRF key.
pub(crate) fn keygen<P: ParameterSet, B: Backend>(
    seed: &[u8],
    prf_key: &[u8],
    ek: &mut [u8],
    dk: &mut [u8],
) {
    let tb = P::TRINARY_BYTES;
    let mut f = P::POLY_ZERO;
    let mut g = P::POLY_ZERO;
    let mut t1 = P::POLY_ZERO;
    let mut t2 = P::POLY_ZERO;
    let mut t3 = P::POLY_ZERO;
    let (f, g, t1, t2, t3) = (
        f.as_mut(),
        g.as_mut(),
        t1.as_mut(),
        t2.as_mut(),
        t3.as_mut(),
    );
    sample_fg::<P, B>(f, g, seed);
    B::s3_inverse::<P>(t1, f);
    s3_to_bytes(&mut dk[..tb], f);
    s3_to_bytes(&mut dk[tb..2 * tb], t1);
    z3_to_zq(f, P::Q);
    z3_to_zq(g, P::Q);
    if P::HPS {
        for c in g.iter_mut() {
            *c = c.wrapping_mul(3);
        }
    } else {
        // g ← 3(x − 1)g (g[n−1] = 0).
        for i in (1..P::N).rev() {
            g[i] = g[i - 1].wrapping_sub(g[i]).wrapping_mul(3);
        }
        g[0] = g[0].wrapping_mul(3).wrapping_neg();
    }
    rq_mul::<P, B>(t2, g, f);
    // t1 = (gf)⁻¹ (gf is invertible modulo (2, Φ_n) for every seed the
    // reference accepts; the reference does not check it either).
    let _ = rq_inverse::<P, B>(t1, t2);
    // h⁻¹ = (gf)⁻¹·f·f mod (q, Φ_n).
    rq_mul::<P, B>(t2, t1, f);
    rq_mul::<P, B>(t3, t2, f);
    modq_phi_n(t3);
    sq_to_bytes(&mut dk[2 * tb..2 * tb + P::Q_BYTES], t3, P::LOGQ);
    // h = (gf)⁻¹·g·g.
    rq_mul::<P, B>(t2, t1, g);
    rq_mul::<P, B>(t1, t2, g);
    sq_to_bytes(ek, t1, P::LOGQ);
    // Public: the encapsulation key is the public output of key generation.
    ctgrind::declassify(ek);
    dk[2 * tb + P::Q_BYTES..].copy_from_slice(&prf_key[..PRF_KEY_BYTES]);
    for p in [f, g, t1, t2, t3] {
        ct::wipe_secret(p);
    }
}

/// Deterministic encapsulation under the packed public key `ek` with the
/// r, m sample seed (`P::RM_BYTES`).
pub(crate) fn encaps<P: ParameterSet, B: Backend>(
    ek: &[u8],
    seed: &[u8],
    ct: &mut [u8],
    ss: &mut [u8; SS_BYTES],
) {
    let tb = P::TRINARY_BYTES;
    let mut r = P::POLY_ZERO;
    let mut m = P::POLY_ZERO;
    let mut h = P::POLY_ZERO;
    let mut c = P::POLY_ZERO;
    let (r, m, h, c) = (r.as_mut(), m.as_mut(), h.as_mut(), c.as_mut());
    sample_rm::<P, B>(r, m, seed);
    let mut rm = [0u8; MAX_RM_PACKED];
    s3_to_bytes(&mut rm[..tb], r);
    s3_to_bytes(&mut rm[tb..2 * tb], m);
    *ss = sha3_256(&[&rm[..2 * tb]]);
    ct::wipe_secret(&mut rm);
    z3_to_zq(r, P::Q);
    rq_sum_zero_from_bytes(h, ek, P::LOGQ);
    rq_mul::<P, B>(c, r, h);
    // h is no longer needed: Lift(m) goes there.
    lift::<P>(h, m);
    for (x, &y) in c.iter_mut().zip(h.iter()) {
        *x = x.wrapping_add(y);
    }
    sq_to_bytes(ct, c, P::LOGQ);
    // Public: the ciphertext is the public output of encapsulation.
    ctgrind::declassify(ct);
    for p in [r, m, h, c] {
        ct::wipe_secret(p);
    }
}

/// 1 if r (read modulo q) is not trinary ({0, 1, q − 1}) or its last
/// coefficient is nonzero, else 0 (constant time).
fn check_r<P: ParameterSet>(r: &[u16]) -> u32 {
    let mask = P::Q - 1;
    let mut t = 0u16;
    for &c in &r[..P::N - 1] {
        // u = c + 1 mod q is in {0, 1, 2} exactly for c in {q − 1, 0, 1}.
        let u = c.wrapping_add(1) & mask;
        t |= (u >> 2) | (u & (u >> 1) & 1);
    }
    t |= r[P::N - 1] & mask;
    (u32::from(t).wrapping_neg() >> 31) & 1
}

/// 1 if m (in {0, 1, 2}) is not of fixed type (weight/2 ones and weight/2
/// twos), else 0 (constant time; HPS only).
fn check_m<P: ParameterSet>(m: &[u16]) -> u32 {
    let mut ones = 0u32;
    let mut twos = 0u32;
    for &c in m {
        ones += u32::from(c & 1);
        twos += u32::from((c >> 1) & 1);
    }
    let t = (ones ^ twos) | (twos ^ (P::WEIGHT as u32 / 2));
    (t.wrapping_neg() >> 31) & 1
}

/// Decapsulation of `ct` under the decapsulation key `dk` (implicit
/// rejection).
pub(crate) fn decaps<P: ParameterSet, B: Backend>(dk: &[u8], ct: &[u8], ss: &mut [u8; SS_BYTES]) {
    let tb = P::TRINARY_BYTES;
    let mut c = P::POLY_ZERO;
    let mut f = P::POLY_ZERO;
    let mut t1 = P::POLY_ZERO;
    let mut t2 = P::POLY_ZERO;
    let (c, f, t1, t2) = (c.as_mut(), f.as_mut(), t1.as_mut(), t2.as_mut());
    rq_sum_zero_from_bytes(c, ct, P::LOGQ);
    s3_from_bytes(f, &dk[..tb]);
    z3_to_zq(f, P::Q);
    // m = (c·f mod (3, Φ_n))·f⁻¹ mod (3, Φ_n).
    rq_mul::<P, B>(t1, c, f);
    rq_to_s3(f, t1, P::LOGQ);
    s3_from_bytes(t1, &dk[tb..2 * tb]);
    // The product of two {0, 1, 2} polynomials is exact: its coefficients
    // are below 4n < 2^13 (the precision of every backend's product).
    rq_mul::<P, B>(t2, f, t1);
    mod3_phi_n(t2);
    let m = t2;
    let mut rm = [0u8; MAX_RM_PACKED];
    s3_to_bytes(&mut rm[tb..2 * tb], m);
    let mut fail = poly::padding_nonzero(ct, P::PACK_DEG, P::LOGQ);
    if P::HPS {
        fail |= check_m::<P>(m);
    }
    // b = c − Lift(m); r = b·h⁻¹ mod (q, Φ_n).
    lift::<P>(t1, m);
    for (x, &y) in c.iter_mut().zip(t1.iter()) {
        *x = x.wrapping_sub(y);
    }
    sq_from_bytes(f, &dk[2 * tb..2 * tb + P::Q_BYTES], P::LOGQ);
    rq_mul::<P, B>(t1, c, f);
    modq_phi_n(t1);
    let r = t1;
    fail |= check_r::<P>(r);
    trinary_zq_to_z3(r, P::LOGQ);
    s3_to_bytes(&mut rm[..tb], r);
    let mut good = sha3_256(&[&rm[..2 * tb]]);
    let prf = &dk[2 * tb + P::Q_BYTES..];
    let mut reject = sha3_256(&[prf, ct]);
    // 0xFF on failure.
    let mask = (barrier_u32(fail) as u8).wrapping_neg();
    ct::cmov(mask, &mut good, &reject);
    *ss = good;
    ct::wipe_secret(&mut good);
    ct::wipe_secret(&mut reject);
    ct::wipe_secret(&mut rm);
    for p in [c, f, r, m] {
        ct::wipe_secret(p);
    }
}

/// n⁻¹ modulo 2^16 (n odd), by Newton's iteration x ← x·(2 − n·x).
const fn inverse_mod_2_16(n: usize) -> u16 {
    let n = n as u16;
    let mut x = n; // correct to 3 bits: n·n ≡ 1 (mod 8)
    let mut i = 0;
    while i < 4 {
        x = x.wrapping_mul(2u16.wrapping_sub(n.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// The public key a decapsulation key determines: h is the inverse of the
/// stored h⁻¹ modulo (q, Φ_n), made a multiple of x − 1 (h(1) ≡ 0 mod q,
/// as key generation's h = g·(gf)⁻¹·g is, g(1) being 0) by adding
/// −h(1)/n·Φ_n; the n − 1 packed coefficients are then those key
/// generation wrote.
pub(crate) fn derive_ek<P: ParameterSet, B: Backend>(dk: &[u8], ek: &mut [u8]) {
    let tb = P::TRINARY_BYTES;
    let mut hinv = P::POLY_ZERO;
    let mut h = P::POLY_ZERO;
    let (hinv, h) = (hinv.as_mut(), h.as_mut());
    sq_from_bytes(hinv, &dk[2 * tb..2 * tb + P::Q_BYTES], P::LOGQ);
    // Invertible: the key passed `check_dk`.
    let _ = rq_inverse::<P, B>(h, hinv);
    modq_phi_n(h);
    let mut sum = 0u16;
    for &c in h.iter() {
        sum = sum.wrapping_add(c);
    }
    let c = sum.wrapping_neg().wrapping_mul(inverse_mod_2_16(P::N));
    for x in h.iter_mut() {
        *x = x.wrapping_add(c);
    }
    sq_to_bytes(ek, h, P::LOGQ);
    // Public: the encapsulation key a decapsulation key determines.
    ctgrind::declassify(ek);
    ct::wipe_secret(hinv);
    ct::wipe_secret(h);
}

/// 1 unless the stored h⁻¹ is one key generation can produce with the
/// stored f, else 0 (constant time): h = (h⁻¹)⁻¹ mod (q, Φ_n) (as
/// [`derive_ek`] computes it) must satisfy h·h⁻¹ ≡ 1 and h·f ≡ G (mod (q,
/// Φ_n)) with G = 3g, g trinary of fixed type (HPS), or G = 3(x − 1)g, g
/// trinary (HRSS), g\[n−1\] = 0 — the g of key generation (h⁻¹ = f/G,
/// h = G/f). Then the derived public key is the one that decapsulates.
fn check_hinv<P: ParameterSet, B: Backend>(dk: &[u8], f: &[u16]) -> u32 {
    let tb = P::TRINARY_BYTES;
    let mask = P::Q - 1;
    let mut bufs = [P::POLY_ZERO; 3];
    let [hinv, h, t] = &mut bufs;
    let (hinv, h, t) = (hinv.as_mut(), h.as_mut(), t.as_mut());
    sq_from_bytes(hinv, &dk[2 * tb..2 * tb + P::Q_BYTES], P::LOGQ);
    // h·h⁻¹ ≡ 1 (mod (q, Φ_n)): h⁻¹ is invertible and h its inverse (the
    // lift's own check modulo (2, Φ_n), no product of its own).
    let mut bad = rq_inverse::<P, B>(h, hinv);
    modq_phi_n(h);
    // u = h·f/3 mod (q, Φ_n), with u[n−1] = 0 (3 is a unit modulo q).
    hinv.copy_from_slice(f);
    z3_to_zq(hinv, P::Q);
    rq_mul::<P, B>(t, h, hinv);
    modq_phi_n(t);
    let inv3 = inverse_mod_2_16(3);
    for c in t.iter_mut() {
        *c = c.wrapping_mul(inv3);
    }
    if !P::HPS {
        // g = u/(x − 1) mod (q, Φ_n) with g[n−1] = 0 (x − 1 is a unit:
        // Φ_n(1) = n is odd): (x − 1)g = u + k·Φ_n in Z_q[x]/(x^n − 1)
        // with k = −u(1)/n, solved by g[0] = −u'[0], g[i] = g[i−1] − u'[i]
        // (u' = u + k), which ends on g[n−1] = 0.
        let mut sum = 0u16;
        for &c in t.iter() {
            sum = sum.wrapping_add(c);
        }
        let k = sum.wrapping_neg().wrapping_mul(inverse_mod_2_16(P::N));
        let mut prev = 0u16;
        for c in t.iter_mut() {
            prev = prev.wrapping_sub(c.wrapping_add(k));
            *c = prev;
        }
    }
    // g trinary ({0, 1, q − 1}) with g[n−1] = 0.
    bad |= check_r::<P>(t);
    if P::HPS {
        // Fixed type: weight/2 coefficients 1 and weight/2 coefficients −1.
        let (mut ones, mut negs) = (0u32, 0u32);
        for &c in t.iter() {
            let v = c & mask;
            ones += u32::from(v ^ 1).wrapping_sub(1) >> 31;
            negs += u32::from(v ^ mask).wrapping_sub(1) >> 31;
        }
        let half = P::WEIGHT as u32 / 2;
        bad |= (ones ^ half) | (negs ^ half);
    }
    for b in &mut bufs {
        ct::wipe_secret(b.as_mut());
    }
    (bad.wrapping_neg() >> 31) & 1
}

/// Consistency of a decapsulation key: 0 if f·f⁻¹ ≡ 1 (mod (3, Φ_n)) for
/// the stored f and f⁻¹ and the stored h⁻¹ passes [`check_hinv`], else 1
/// (constant time: one verdict for both checks).
pub(crate) fn check_dk<P: ParameterSet, B: Backend>(dk: &[u8]) -> u32 {
    let tb = P::TRINARY_BYTES;
    let mut f = P::POLY_ZERO;
    let mut finv = P::POLY_ZERO;
    let mut prod = P::POLY_ZERO;
    let (f, finv, prod) = (f.as_mut(), finv.as_mut(), prod.as_mut());
    s3_from_bytes(f, &dk[..tb]);
    s3_from_bytes(finv, &dk[tb..2 * tb]);
    rq_mul::<P, B>(prod, f, finv);
    mod3_phi_n(prod);
    let mut t = u32::from(prod[0] ^ 1);
    for &c in &prod[1..] {
        t |= u32::from(c);
    }
    t |= check_hinv::<P, B>(dk, f);
    for p in [f, finv, prod] {
        ct::wipe_secret(p);
    }
    (t.wrapping_neg() >> 31) & 1
}
