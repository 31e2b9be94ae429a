//! Encapsulation and decapsulation (round-4 specification §2.4;
//! plaintext confirmation as in round 3 for the pc variants).
//!
//! Decapsulation never fails for a correctly sized ciphertext: a
//! ciphertext that does not decode to a weight-t error vector (or, for pc,
//! whose C1 does not match, or, for 6960119, whose C0 padding bits are not
//! zero) yields the rejection key SHAKE256(0 || s || C), selected in
//! constant time.
//!
//! Decryption follows the "vec" structure of the reference: the received
//! bits go through the inverse Benes network (packed, 64 per word) into
//! the order of the additive FFT, the syndrome is the transposed FFT of
//! `r_x / g(x)^2`, Berlekamp–Massey runs bitsliced over the coefficients,
//! the locator is evaluated at every field element by the FFT, and the
//! Benes network takes the roots back to support order (`fft`, `benes`).

use pqforge_core::ctgrind::declassify_val;
use pqforge_core::keccak::Shake256;
use pqforge_core::{CryptoRng, Error};

use crate::ParameterSet;
use crate::backend::Backend;
use crate::benes;
use crate::bm;
use crate::fft;
use crate::gf::{self, MAX_M, Vec64};

const _: () = assert!(MAX_M == 13);

const MAX_T: usize = 128;
const MAX_N: usize = 8192;

/// Number of padding bits in the last byte of a public-key row.
const fn row_pad_bits<P: ParameterSet>() -> usize {
    (8 - (P::N - P::MT) % 8) % 8
}

/// Checks that the unused high bits of every public-key row are zero
/// (only mceliece6960119* has such bits): the one public-key check, run
/// once by `prepare_ek`. The public key is public.
pub(crate) fn check_pk_padding<P: ParameterSet>(pk: &[u8]) -> Result<(), Error> {
    if row_pad_bits::<P>() == 0 {
        return Ok(());
    }
    let rb = P::ROW_BYTES;
    let used = (P::N - P::MT) % 8;
    let mut acc = 0u8;
    for r in 0..P::MT {
        acc |= pk[r * rb + rb - 1] >> used;
    }
    if acc == 0 {
        Ok(())
    } else {
        Err(Error::Encoding("public key padding bits are not zero"))
    }
}

/// Draws a random weight-t error vector exactly like the reference
/// (`gen_e`): repeated `fill_bytes` calls, rejection sampling.
#[inline(always)]
fn gen_e<P: ParameterSet, R: CryptoRng + ?Sized, B: Backend>(rng: &mut R, e: &mut [u8]) {
    let (m, n, t) = (P::M, P::N, P::T);
    let mut buf = [0u8; 4 * MAX_T];
    let mut ind = [0u16; MAX_T];
    // The reference draws 2t candidates (4t bytes), or exactly t (2t bytes)
    // when n = 2^m and every candidate is in range (mceliece8192128*).
    let req = if n == 1 << m { 2 * t } else { 4 * t };
    loop {
        rng.fill_bytes(&mut buf[..req]);
        let mut count = 0;
        for c in buf[..req].chunks_exact(2) {
            if count >= t {
                break;
            }
            let v = u16::from_le_bytes([c[0], c[1]]) & ((1 << m) - 1);
            // Declassified: rejection-sampling accept bit (which random
            // values are below n); rejected values are discarded.
            let below = declassify_val((u32::from(v).wrapping_sub(n as u32) >> 31) as u8);
            if below == 1 {
                ind[count] = v;
                count += 1;
            }
        }
        if count < t {
            continue;
        }
        // Repeated positions, over the full t x t square: cnt[j] counts
        // the i with ind[i] = ind[j] (x ^ y < 2^13, so bit 15 of
        // x ^ y - 1 is set iff x = y); every j matches itself, so the
        // counts add up to t iff there is no repeat. Whole rows keep the
        // inner loop aligned and vectorized, reduced once at the end.
        let mut cnt = [0u16; MAX_T];
        for &x in &ind[..t] {
            for (c, &y) in cnt[..t].iter_mut().zip(&ind[..t]) {
                *c += (x ^ y).wrapping_sub(1) >> 15;
            }
        }
        let mut total = 0u32;
        for c in &cnt[..t] {
            total += u32::from(*c);
        }
        let eq = total ^ t as u32;
        zeroize::Zeroize::zeroize(&mut cnt);
        // Declassified: the retry decision (a repeated position); the
        // sample is discarded.
        if declassify_val(eq) == 0 {
            break;
        }
    }
    B::set_bits(&mut e[..n / 8], &ind[..t]);
    zeroize::Zeroize::zeroize(&mut buf[..req]);
    zeroize::Zeroize::zeroize(&mut ind);
}

/// C0 = H e with H = [I | T] (T = the public key).
fn syndrome<P: ParameterSet, B: Backend>(c0: &mut [u8], pk: &[u8], e: &[u8]) {
    let (mt, n) = (P::MT, P::N);
    let rb = P::ROW_BYTES;
    // e restricted to columns mt..n, re-aligned to bit 0 (rb bytes).
    let mut et = [0u8; MAX_N / 8];
    let shift = mt % 8;
    for (y, out) in et[..rb].iter_mut().enumerate() {
        let q = mt / 8 + y;
        let lo = e.get(q).copied().unwrap_or(0);
        let hi = e.get(q + 1).copied().unwrap_or(0);
        *out = if shift == 0 {
            lo
        } else {
            (lo >> shift) | (hi << (8 - shift))
        };
    }
    if (n - mt) % 8 != 0 {
        et[rb - 1] &= (1u8 << ((n - mt) % 8)) - 1;
    }
    // The identity part: C0 starts as the first mt bits of e.
    c0[..P::SYND_BYTES].copy_from_slice(&e[..P::SYND_BYTES]);
    if mt % 8 != 0 {
        c0[P::SYND_BYTES - 1] &= (1u8 << (mt % 8)) - 1;
    }
    B::and_parities(&pk[..mt * rb], rb, &et, c0);
    // Only the first rb bytes were written.
    zeroize::Zeroize::zeroize(&mut et[..rb]);
}

/// Encapsulation: writes `ct` (`P::CT_BYTES`) and `ss`; `pk` passed
/// [`check_pk_padding`]. Inlined, so that the AVX2 entry point compiles it
/// (and `gen_e`) for AVX2; its frame is small (~2.5 KB).
#[inline]
pub(crate) fn encaps<P: ParameterSet, R: CryptoRng + ?Sized, B: Backend>(
    rng: &mut R,
    pk: &[u8],
    ct: &mut [u8],
    ss: &mut [u8; 32],
) {
    let n = P::N;
    let mut e = [0u8; MAX_N / 8];
    gen_e::<P, R, B>(rng, &mut e);
    let e = &mut e[..n / 8];
    syndrome::<P, B>(&mut ct[..P::SYND_BYTES], pk, e);
    if P::PC {
        let mut h = Shake256::new();
        h.absorb(&[2]);
        h.absorb(e);
        h.squeeze(&mut ct[P::SYND_BYTES..P::SYND_BYTES + 32]);
    }
    // Public output.
    pqforge_core::ctgrind::declassify(ct);
    let mut h = Shake256::new();
    h.absorb(&[1]);
    h.absorb(e);
    h.absorb(&ct[..P::CT_BYTES]);
    h.squeeze(ss);
    zeroize::Zeroize::zeroize(e);
}

/// `1 / g(x)^2` at every field element (bitsliced, `fft` order), by one
/// additive FFT and a batch inversion (g is irreducible of degree t > 1,
/// so it has no roots). `scratch` holds the prefix products.
fn ginv2<P: ParameterSet>(g: &[u16], out: &mut [Vec64], scratch: &mut [Vec64]) {
    let m = P::M;
    let nv = (1usize << m) / 64;
    fft::eval_all(m, g, out);
    for v in &mut out[..nv] {
        *v = gf::vsq(m, v);
    }
    // Montgomery's trick: prefix products, one inversion, back-substitution.
    scratch[0] = out[0];
    for i in 1..nv {
        scratch[i] = gf::vmul(m, &scratch[i - 1], &out[i]);
    }
    let mut inv = gf::vinv(m, &scratch[nv - 1]);
    for i in (1..nv).rev() {
        let ai = out[i];
        out[i] = gf::vmul(m, &inv, &scratch[i - 1]);
        inv = gf::vmul(m, &inv, &ai);
    }
    out[0] = inv;
}

/// Syndrome `s_j = sum_i b_i L_i^j / g(L_i)^2` (j < 2^(m-5)) of the bits
/// `b_i` (packed LSB-first, support order, `2^m` bits, zero beyond n):
/// the inverse Benes network moves them to the FFT's (bit-reversed field)
/// order, then the transposed FFT sums. `bits` is destroyed; `w` is
/// scratch.
fn syndrome_of<P: ParameterSet>(
    out: &mut [u16],
    bits: &mut [u64],
    cb: &[u8],
    gi: &[Vec64],
    w: &mut [Vec64],
) {
    let m = P::M;
    let nv = (1usize << m) / 64;
    benes::apply_bits_inv(&mut bits[..nv], cb, m);
    for ((wv, gv), &mk) in w[..nv].iter_mut().zip(gi).zip(&bits[..nv]) {
        for (p, q) in wv[..m].iter_mut().zip(&gv[..m]) {
            *p = q & mk;
        }
    }
    fft::syndrome_all(m, w, out);
}

/// Niederreiter decryption. Writes `e` (n/8 bytes); returns 0xFF if e has
/// weight t and reproduces the syndrome, else 0.
///
/// Scratch: two `2^m`-point bitsliced arrays (13 KB each for m = 13).
/// Never inlined: the backend dispatcher would otherwise hold this frame
/// while it runs the AVX2 decryption (whose own frame is ~35 KB).
#[inline(never)]
pub(crate) fn decrypt<P: ParameterSet>(e: &mut [u8], sk: &[u8], c0: &[u8]) -> u8 {
    let (m, n, t) = (P::M, P::N, P::T);
    let nv = (1usize << m) / 64;
    let nc = 1usize << (m - 5);
    let mut g = [0u16; MAX_T + 1];
    for (k, x) in g[..t].iter_mut().enumerate() {
        *x = u16::from_le_bytes([sk[40 + 2 * k], sk[41 + 2 * k]]) & ((1 << m) - 1);
    }
    g[t] = 1;
    let cb = &sk[40 + 2 * t..40 + 2 * t + P::COND_BYTES];
    let mut gi = [[0u64; MAX_M]; fft::NV];
    let mut w = [[0u64; MAX_M]; fft::NV];
    ginv2::<P>(&g[..=t], &mut gi, &mut w);

    // r = C0 || 0 (every bit of the C0 bytes, as the reference).
    let mut bits = [0u64; fft::NV];
    for (i, &c) in c0[..P::SYND_BYTES].iter().enumerate() {
        bits[i / 8] |= u64::from(c) << (8 * (i % 8));
    }
    let mut s = [0u16; fft::MAXC];
    syndrome_of::<P>(&mut s[..nc], &mut bits, cb, &gi, &mut w);
    let mut loc = [0u16; MAX_T + 1];
    bm::bm::<P>(&mut loc, &s[..2 * t]);

    // Roots of the locator at every field element, then to support order:
    // e_i = 1 iff loc(L_i) = 0.
    fft::eval_all(m, &loc[..=t], &mut w);
    for (b, v) in bits[..nv].iter_mut().zip(&w[..nv]) {
        let mut nz = 0u64;
        for p in &v[..m] {
            nz |= p;
        }
        *b = !nz;
    }
    benes::apply_bits(&mut bits[..nv], cb, m);
    // Only positions below n are code positions (n is a multiple of 8).
    for (k, b) in bits[..nv].iter_mut().enumerate() {
        let valid = n.saturating_sub(64 * k).min(64);
        *b &= if valid == 64 {
            u64::MAX
        } else {
            (1u64 << valid) - 1
        };
    }
    let mut wt = 0u32;
    for (i, x) in e[..n / 8].iter_mut().enumerate() {
        *x = (bits[i / 8] >> (8 * (i % 8))) as u8;
    }
    for b in &bits[..nv] {
        wt += b.count_ones();
    }
    let mut s2 = [0u16; fft::MAXC];
    syndrome_of::<P>(&mut s2[..nc], &mut bits, cb, &gi, &mut w);
    let mut check = (wt ^ t as u32) as u16;
    for (a, b) in s[..2 * t].iter().zip(&s2[..2 * t]) {
        check |= a ^ b;
    }
    zeroize::Zeroize::zeroize(&mut s);
    zeroize::Zeroize::zeroize(&mut s2);
    zeroize::Zeroize::zeroize(&mut loc);
    zeroize::Zeroize::zeroize(&mut bits);
    zeroize::Zeroize::zeroize(gi.as_flattened_mut());
    zeroize::Zeroize::zeroize(w.as_flattened_mut());
    zeroize::Zeroize::zeroize(&mut g);
    // 0xFF iff check == 0.
    ((u32::from(check).wrapping_sub(1) >> 31) as u8).wrapping_neg()
}

/// Decapsulation with the decoder of backend `B`; `ct` must have
/// `P::CT_BYTES` bytes.
#[inline(always)]
pub(crate) fn decaps_with<P: ParameterSet, B: Backend>(sk: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
    let n = P::N;
    let mut e = [0u8; MAX_N / 8];
    let mut ok = B::decrypt::<P>(&mut e, sk, ct);
    let e = &mut e[..n / 8];
    // 6960119: the unused high bits of C0 must be zero.
    if P::MT % 8 != 0 {
        let pad = ct[P::SYND_BYTES - 1] >> (P::MT % 8);
        ok &= ((u32::from(pad).wrapping_sub(1) >> 31) as u8).wrapping_neg();
    }
    if P::PC {
        let mut conf = [0u8; 32];
        let mut h = Shake256::new();
        h.absorb(&[2]);
        h.absorb(e);
        h.squeeze(&mut conf);
        let mut diff = 0u8;
        for (a, b) in conf.iter().zip(&ct[P::SYND_BYTES..P::SYND_BYTES + 32]) {
            diff |= a ^ b;
        }
        ok &= ((u32::from(diff).wrapping_sub(1) >> 31) as u8).wrapping_neg();
    }
    let s = &sk[P::SK_BYTES - n / 8..P::SK_BYTES];
    let ok = core::hint::black_box(ok);
    // CT: select e (valid) or s (reject) with a mask.
    for (x, &sv) in e.iter_mut().zip(s) {
        *x = sv ^ ((*x ^ sv) & ok);
    }
    let mut h = Shake256::new();
    h.absorb(&[ok & 1]);
    h.absorb(e);
    h.absorb(&ct[..P::CT_BYTES]);
    h.squeeze(ss);
    zeroize::Zeroize::zeroize(e);
}
