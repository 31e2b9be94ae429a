//! The FIPS 204 internal algorithms, one by one, under their names in the
//! standard (feature `hazmat`), so that third-party test suites can check
//! them separately. **Not for applications**: FIPS 204 §3.6.4 forbids
//! exposing the internal functions except for testing; use the
//! [`SignatureScheme`](pqforge_core::SignatureScheme) API.
//!
//! Polynomials are `[i32; 256]`. Unless a function says otherwise, inputs
//! are coefficients with |a_i| < q and outputs are reduced to [0, q).
//! The parameter set is a type parameter (`decompose::<MlDsa65>(r)`).
//!
//! ```
//! use pqforge_mldsa::MlDsa44;
//! use pqforge_mldsa::hazmat::{decompose, ntt, ntt_inverse, use_hint};
//!
//! let (r1, r0) = decompose::<MlDsa44>(8_380_416); // r = q - 1
//! assert_eq!((r1, r0), (0, -1)); // FIPS 204 Algorithm 36's special case
//! assert_eq!(use_hint::<MlDsa44>(true, 0), 43); // UseHint(1, 0) goes down
//!
//! let mut p = [0i32; 256];
//! p[1] = 5;
//! let q = p;
//! ntt(&mut p);
//! ntt_inverse(&mut p);
//! assert_eq!(p, q);
//! ```

use core::marker::PhantomData;

use pqforge_core::Error;

use crate::arith::{self, caddq, montgomery_reduce, reduce32};
use crate::backend::{self, Poly};
use crate::params::{GAMMA2_88, MAX_K, N, ParameterSet, Q};
use crate::{keygen, pack, rounding, sample, sign, verify};

pub use crate::verify::Message;

/// 2^64 mod q: Montgomery-reducing x · 2^64 gives x · 2^32.
const R2: i64 = {
    let m = (1i64 << 32) % Q as i64;
    (m * m) % Q as i64
};

fn freeze(a: &mut Poly) {
    for x in a.iter_mut() {
        *x = caddq(reduce32(*x));
    }
}

fn check_len(what: &'static str, got: usize, needed: usize) -> Result<(), Error> {
    if got == needed {
        Ok(())
    } else {
        Err(Error::Length {
            what,
            expected: needed,
            got,
        })
    }
}

/// ML-DSA.KeyGen_internal (Algorithm 6): the public key and the expanded
/// private key of the seed ξ.
///
/// # Errors
/// [`Error::Length`] unless `pk` and `sk` have the set's lengths.
pub fn key_gen_internal<P: ParameterSet>(
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) -> Result<(), Error> {
    key_gen_internal_on::<P>(crate::Backend::selected(), xi, pk, sk).map(|_| ())
}

/// ML-DSA.Sign_internal (Algorithm 7) on M' (`Message::Prime`) or, for
/// external μ, on μ (`Message::Mu`), with randomness `rnd` (all zero:
/// deterministic).
///
/// # Errors
/// [`Error::Length`] for a wrong key or signature length;
/// [`Error::InvalidKey`] for an expanded key that fails the import checks
/// (s1/s2 range, t0 and tr consistency).
pub fn sign_internal<P: ParameterSet>(
    sk: &[u8],
    msg: Message<'_>,
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<(), Error> {
    sign_internal_on::<P>(crate::Backend::selected(), sk, msg, rnd, sig).map(|_| ())
}

/// ML-DSA.Verify_internal (Algorithm 8): whether `sig` is a valid
/// signature of M' (or μ) under `pk`. Wrong lengths give `false`.
#[must_use]
pub fn verify_internal<P: ParameterSet>(pk: &[u8], msg: Message<'_>, sig: &[u8]) -> bool {
    backend::run(verify::Verify::<P> {
        pk,
        msg,
        sig,
        _p: PhantomData,
    })
}

/// NTT (Algorithm 41).
pub fn ntt(w: &mut [i32; N]) {
    arith::ntt(w);
    freeze(w);
}

/// NTT⁻¹ (Algorithm 42).
pub fn ntt_inverse(w: &mut [i32; N]) {
    freeze(w);
    arith::invntt_tomont(w);
    for x in w.iter_mut() {
        // invntt_tomont leaves a factor 2^32: one Montgomery reduction.
        *x = montgomery_reduce(i64::from(*x));
    }
    freeze(w);
}

/// MultiplyNTT (Algorithm 45): the coefficient-wise product in T_q.
pub fn multiply_ntt(a: &[i32; N], b: &[i32; N], c: &mut [i32; N]) {
    for i in 0..N {
        c[i] =
            montgomery_reduce(i64::from(montgomery_reduce(i64::from(a[i]) * i64::from(b[i]))) * R2);
    }
    freeze(c);
}

/// Power2Round (Algorithm 35) of r in [0, q).
#[must_use]
pub fn power2round(r: i32) -> (i32, i32) {
    rounding::power2round(r)
}

/// Decompose (Algorithm 36) of r in [0, q) for the set's γ2.
#[must_use]
pub fn decompose<P: ParameterSet>(r: i32) -> (i32, i32) {
    if P::GAMMA2 == GAMMA2_88 {
        rounding::decompose::<{ GAMMA2_88 }>(r)
    } else {
        rounding::decompose::<{ crate::params::GAMMA2_32 }>(r)
    }
}

/// HighBits (Algorithm 37).
#[must_use]
pub fn high_bits<P: ParameterSet>(r: i32) -> i32 {
    decompose::<P>(r).0
}

/// LowBits (Algorithm 38).
#[must_use]
pub fn low_bits<P: ParameterSet>(r: i32) -> i32 {
    decompose::<P>(r).1
}

/// MakeHint (Algorithm 39) for z in (-q, q), r in [0, q).
#[must_use]
pub fn make_hint<P: ParameterSet>(z: i32, r: i32) -> bool {
    if P::GAMMA2 == GAMMA2_88 {
        rounding::make_hint::<{ GAMMA2_88 }>(z, r) == 1
    } else {
        rounding::make_hint::<{ crate::params::GAMMA2_32 }>(z, r) == 1
    }
}

/// UseHint (Algorithm 40) for r in [0, q).
#[must_use]
pub fn use_hint<P: ParameterSet>(h: bool, r: i32) -> i32 {
    if P::GAMMA2 == GAMMA2_88 {
        rounding::use_hint::<{ GAMMA2_88 }>(u32::from(h), r)
    } else {
        rounding::use_hint::<{ crate::params::GAMMA2_32 }>(u32::from(h), r)
    }
}

/// RejNTTPoly (Algorithm 30) of the 34-byte seed ρ || s || r.
pub fn rej_ntt_poly(seed: &[u8; 34], a: &mut [i32; N]) {
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&seed[..32]);
    sample::rej_ntt_poly(&rho, seed[32], seed[33], a);
}

/// RejBoundedPoly (Algorithm 31) of the 66-byte seed ρ' || u16le(r), η of
/// the set; coefficients in [-η, η].
pub fn rej_bounded_poly<P: ParameterSet>(seed: &[u8; 66], a: &mut [i32; N]) {
    let mut rho_p = [0u8; 64];
    rho_p.copy_from_slice(&seed[..64]);
    sample::rej_bounded_poly(&rho_p, u16::from_le_bytes([seed[64], seed[65]]), P::ETA, a);
    pqforge_core::ct::wipe(&mut rho_p);
}

/// ExpandA (Algorithm 32): Â in row-major order, `k · ℓ` polynomials.
///
/// # Errors
/// [`Error::Length`] unless `a` holds exactly k · ℓ polynomials.
pub fn expand_a<P: ParameterSet>(rho: &[u8; 32], a: &mut [[i32; N]]) -> Result<(), Error> {
    check_len("matrix", a.len(), P::K * P::L)?;
    let mut s = [0u8; 34];
    s[..32].copy_from_slice(rho);
    for (e, p) in a.iter_mut().enumerate() {
        (s[32], s[33]) = ((e % P::L) as u8, (e / P::L) as u8);
        rej_ntt_poly(&s, p);
    }
    Ok(())
}

/// ExpandS (Algorithm 33): s1 (ℓ polynomials) and s2 (k).
///
/// # Errors
/// [`Error::Length`] unless `s1` has ℓ and `s2` k polynomials.
pub fn expand_s<P: ParameterSet>(
    rho_p: &[u8; 64],
    s1: &mut [[i32; N]],
    s2: &mut [[i32; N]],
) -> Result<(), Error> {
    check_len("s1", s1.len(), P::L)?;
    check_len("s2", s2.len(), P::K)?;
    for (r, p) in s1.iter_mut().chain(s2.iter_mut()).enumerate() {
        sample::rej_bounded_poly(rho_p, r as u16, P::ETA, p);
    }
    Ok(())
}

/// ExpandMask (Algorithm 34): y (ℓ polynomials, coefficients in
/// (-γ1, γ1]) for ρ'' and the counter κ.
///
/// # Errors
/// [`Error::Length`] unless `y` has ℓ polynomials.
pub fn expand_mask<P: ParameterSet>(
    rho2: &[u8; 64],
    kappa: u16,
    y: &mut [[i32; N]],
) -> Result<(), Error> {
    check_len("y", y.len(), P::L)?;
    for (r, p) in y.iter_mut().enumerate() {
        sample::expand_mask_poly(rho2, kappa.wrapping_add(r as u16), P::GAMMA1_BITS, p);
    }
    Ok(())
}

/// SampleInBall (Algorithm 29): c with τ coefficients ±1 from the whole
/// c̃ (the set's λ/4 bytes).
///
/// # Errors
/// [`Error::Length`] unless `ctilde` has λ/4 bytes.
pub fn sample_in_ball<P: ParameterSet>(ctilde: &[u8], c: &mut [i32; N]) -> Result<(), Error> {
    check_len("c tilde", ctilde.len(), P::CTILDE)?;
    sample::sample_in_ball(ctilde, P::TAU, c);
    Ok(())
}

fn bitlen(x: u32) -> u32 {
    32 - x.leading_zeros()
}

/// SimpleBitPack (Algorithm 16) of w with coefficients in [0, b]: 32 ·
/// bitlen(b) bytes.
///
/// # Errors
/// [`Error::Length`] for a wrong `out` length;
/// [`Error::InvalidInput`] for a coefficient outside [0, b] or b = 0.
pub fn simple_bit_pack(w: &[i32; N], b: u32, out: &mut [u8]) -> Result<(), Error> {
    bit_pack(w, 0, b as i32, out)
}

/// BitPack (Algorithm 17) of w with coefficients in [-a, b]: 32 ·
/// bitlen(a + b) bytes.
///
/// # Errors
/// As [`simple_bit_pack`].
pub fn bit_pack(w: &[i32; N], a: i32, b: i32, out: &mut [u8]) -> Result<(), Error> {
    let bits = bitlen((a + b) as u32);
    if bits == 0 || bits > 32 || w.iter().any(|&x| x < -a || x > b) {
        return Err(Error::InvalidInput(
            "coefficient outside [-a, b] (or a + b = 0)",
        ));
    }
    check_len("packed polynomial", out.len(), 32 * bits as usize)?;
    pack::pack_signed(w, b, bits, out);
    Ok(())
}

/// SimpleBitUnpack (Algorithm 18): the inverse of [`simple_bit_pack`]
/// (fields are not range-checked, as in the standard).
///
/// # Errors
/// [`Error::Length`] for a wrong input length.
pub fn simple_bit_unpack(v: &[u8], b: u32, w: &mut [i32; N]) -> Result<(), Error> {
    bit_unpack(v, 0, b as i32, w)
}

/// BitUnpack (Algorithm 19): w_i = b - field.
///
/// # Errors
/// [`Error::Length`] for a wrong input length.
pub fn bit_unpack(v: &[u8], a: i32, b: i32, w: &mut [i32; N]) -> Result<(), Error> {
    let bits = bitlen((a + b) as u32);
    if bits == 0 || bits > 32 {
        return Err(Error::InvalidInput("a + b = 0"));
    }
    check_len("packed polynomial", v.len(), 32 * bits as usize)?;
    pack::unpack_signed(v, b, bits, w);
    Ok(())
}

/// HintBitPack (Algorithm 20): the ω + k bytes of the set.
///
/// # Errors
/// [`Error::Length`] for wrong lengths; [`Error::InvalidInput`]
/// for more than ω ones.
pub fn hint_bit_pack<P: ParameterSet>(h: &[[bool; N]], y: &mut [u8]) -> Result<(), Error> {
    check_len("hint rows", h.len(), P::K)?;
    check_len("hint encoding", y.len(), P::OMEGA + P::K)?;
    y.fill(0);
    let mut idx = 0;
    for (i, row) in h.iter().enumerate() {
        for (c, _) in row.iter().enumerate().filter(|(_, b)| **b) {
            if idx == P::OMEGA {
                return Err(Error::InvalidInput("more than omega hint ones"));
            }
            y[idx] = c as u8;
            idx += 1;
        }
        y[P::OMEGA + i] = idx as u8;
    }
    Ok(())
}

/// HintBitUnpack (Algorithm 21): `false` (⊥) unless `y` is the one valid
/// encoding.
///
/// # Errors
/// [`Error::Length`] for wrong lengths.
pub fn hint_bit_unpack<P: ParameterSet>(y: &[u8], h: &mut [[bool; N]]) -> Result<bool, Error> {
    check_len("hint rows", h.len(), P::K)?;
    check_len("hint encoding", y.len(), P::OMEGA + P::K)?;
    if !verify::hint_is_canonical::<P>(y) {
        return Ok(false);
    }
    let mut row = [0i32; N];
    for (i, out) in h.iter_mut().enumerate() {
        verify::hint_row::<P>(y, i, &mut row);
        *out = core::array::from_fn(|c| row[c] != 0);
    }
    Ok(true)
}

/// [`key_gen_internal`] on backend `which` (differential tests): `None` if
/// that backend is not compiled in or this CPU lacks it.
///
/// # Errors
/// As [`key_gen_internal`].
pub fn key_gen_internal_on<P: ParameterSet>(
    which: crate::Backend,
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) -> Result<Option<()>, Error> {
    check_len("public key", pk.len(), P::PK_BYTES)?;
    check_len("private key", sk.len(), P::SK_BYTES)?;
    Ok(backend::run_on(
        which,
        keygen::Keygen::<P> {
            xi,
            pk,
            sk,
            _p: PhantomData,
        },
    ))
}

/// [`sign_internal`] on backend `which` (differential tests): `None` if
/// that backend is not available.
///
/// # Errors
/// As [`sign_internal`].
pub fn sign_internal_on<P: ParameterSet>(
    which: crate::Backend,
    sk: &[u8],
    msg: Message<'_>,
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<Option<()>, Error> {
    check_len("private key", sk.len(), P::SK_BYTES)?;
    check_len("signature", sig.len(), P::SIG_BYTES)?;
    let mut pk = [0u8; 32 + 320 * MAX_K];
    match backend::run_on(
        which,
        keygen::CheckSk::<P> {
            sk,
            pk: &mut pk[..P::PK_BYTES],
            _p: PhantomData,
        },
    ) {
        None => return Ok(None),
        Some(false) => {
            return Err(Error::InvalidKey(
                "ML-DSA expanded private key fails the FIPS 204 checks",
            ));
        }
        Some(true) => {}
    }
    Ok(backend::run_on(
        which,
        sign::Sign::<P> {
            sk,
            msg,
            rnd,
            sig,
            _p: PhantomData,
        },
    ))
}

/// [`verify_internal`] on backend `which` (differential tests): `None` if
/// that backend is not available.
#[must_use]
pub fn verify_internal_on<P: ParameterSet>(
    which: crate::Backend,
    pk: &[u8],
    msg: Message<'_>,
    sig: &[u8],
) -> Option<bool> {
    backend::run_on(
        which,
        verify::Verify::<P> {
            pk,
            msg,
            sig,
            _p: PhantomData,
        },
    )
}
