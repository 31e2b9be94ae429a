//! Encapsulation and decapsulation (round-4 specification §2.4;
//! plaintext confirmation as in round 3 for the pc variants).
//!
//! Decapsulation never fails for a correctly sized ciphertext: a
//! ciphertext that does not decode to a weight-t error vector (or, for pc,
//! whose C1 does not match, or, for 6960119, whose C0 padding bits are not
//! zero) yields the rejection key SHAKE256(0 || s || C), selected in
//! constant time.

use pqforge_core::ctgrind::declassify_val;
use pqforge_core::keccak::Shake256;
use pqforge_core::{CryptoRng, Error};

use crate::ParameterSet;
use crate::benes;
use crate::gf::{self, MAX_M, Vec64};

const _: () = assert!(MAX_M == 13);

const MAX_T: usize = 128;
const MAX_N: usize = 8192;

/// Number of padding bits in the last byte of a public-key row.
const fn row_pad_bits<P: ParameterSet>() -> usize {
    (8 - (P::N - P::MT) % 8) % 8
}

/// Checks that the unused high bits of every public-key row are zero
/// (only mceliece6960119* has such bits). The public key is public.
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
fn gen_e<P: ParameterSet, R: CryptoRng + ?Sized>(rng: &mut R, e: &mut [u8]) {
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
        let mut eq = 0u32;
        for i in 1..t {
            for j in 0..i {
                let d = u32::from(ind[i] ^ ind[j]);
                eq |= d.wrapping_sub(1) >> 31;
            }
        }
        // Declassified: the retry decision (a repeated position); the
        // sample is discarded.
        if declassify_val(eq) == 0 {
            break;
        }
    }
    for (i, byte) in e[..n / 8].iter_mut().enumerate() {
        let mut x = 0u8;
        for &v in &ind[..t] {
            // CT: compare the byte index without branching.
            let d = u32::from(v >> 3) ^ i as u32;
            let same = (d.wrapping_sub(1) >> 31) as u8;
            x |= (same.wrapping_neg()) & (1 << (v & 7));
        }
        *byte = x;
    }
    zeroize::Zeroize::zeroize(&mut buf);
    zeroize::Zeroize::zeroize(&mut ind);
}

/// Parity of a 64-bit word, branch-free.
#[inline(always)]
fn parity(mut x: u64) -> u64 {
    x ^= x >> 32;
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    x & 1
}

/// C0 = H e with H = [I | T] (T = the public key).
fn syndrome<P: ParameterSet>(c0: &mut [u8], pk: &[u8], e: &[u8]) {
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
    c0[..P::SYND_BYTES].fill(0);
    for r in 0..mt {
        let row = &pk[r * rb..(r + 1) * rb];
        let mut acc = 0u64;
        let mut rc = row.chunks_exact(8);
        let mut ec = et[..rb].chunks_exact(8);
        for (a, b) in (&mut rc).zip(&mut ec) {
            let mut x = [0u8; 8];
            let mut z = [0u8; 8];
            x.copy_from_slice(a);
            z.copy_from_slice(b);
            acc ^= u64::from_le_bytes(x) & u64::from_le_bytes(z);
        }
        for (a, b) in rc.remainder().iter().zip(ec.remainder()) {
            acc ^= u64::from(a & b);
        }
        let bit = parity(acc) as u8 ^ ((e[r / 8] >> (r % 8)) & 1);
        c0[r / 8] |= bit << (r % 8);
    }
    zeroize::Zeroize::zeroize(&mut et);
}

/// Encapsulation: writes `ct` (`P::CT_BYTES`) and `ss`.
pub(crate) fn encaps<P: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
    pk: &[u8],
    ct: &mut [u8],
    ss: &mut [u8; 32],
) -> Result<(), Error> {
    check_pk_padding::<P>(pk)?;
    let n = P::N;
    let mut e = [0u8; MAX_N / 8];
    gen_e::<P, R>(rng, &mut e);
    let e = &mut e[..n / 8];
    syndrome::<P>(&mut ct[..P::SYND_BYTES], pk, e);
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
    Ok(())
}

/// Syndrome of the received word `r` (n bits): `s_j = sum_i r_i L_i^j /
/// g(L_i)^2`, j < 2t, bitsliced over 64 positions at a time.
fn synd<P: ParameterSet>(out: &mut [u16], g: &[u16], l: &[u16], r: &[u8]) {
    let (m, n, t) = (P::M, P::N, P::T);
    out[..2 * t].fill(0);
    for q in 0..n.div_ceil(64) {
        let (lb, cmask) = block::<P>(l, r, q);
        let e = gf::veval(m, g, &lb);
        let mut einv = gf::vinv(m, &gf::vsq(m, &e));
        for o in &mut out[..2 * t] {
            let mut v = 0u16;
            for b in 0..m {
                v |= (parity(einv[b] & cmask) as u16) << b;
            }
            *o ^= v;
            einv = gf::vmul(m, &einv, &lb);
        }
    }
}

/// Support block `q` (bitsliced) and the 64 bits of `r` at positions
/// `64q..` (zero beyond n).
#[inline(always)]
fn block<P: ParameterSet>(l: &[u16], r: &[u8], q: usize) -> (Vec64, u64) {
    let n = P::N;
    let mut vals = [0u16; 64];
    let mut cm = 0u64;
    for k in 0..64 {
        let i = 64 * q + k;
        if i < n {
            vals[k] = l[i];
            cm |= u64::from((r[i / 8] >> (i % 8)) & 1) << k;
        }
    }
    (gf::pack(P::M, &vals), cm)
}

/// Berlekamp–Massey, constant time (reference structure). Output: the
/// error locator, reversed (`out[i] = C[t - i]`).
fn bm<P: ParameterSet>(out: &mut [u16], s: &[u16]) {
    let (m, t) = (P::M, P::T);
    let mut c = [0u16; MAX_T + 1];
    let mut bb = [0u16; MAX_T + 1];
    let mut tt = [0u16; MAX_T + 1];
    let mut b = 1u16;
    let mut l = 0u16;
    bb[1] = 1;
    c[0] = 1;
    for nn in 0..2 * t {
        let mut d = 0u16;
        for i in 0..=nn.min(t) {
            d ^= gf::mul(m, c[i], s[nn - i]);
        }
        // CT: masks, no branches.
        let mne = ((u32::from(d).wrapping_sub(1) >> 31) as u16).wrapping_sub(1);
        let mne = core::hint::black_box(mne);
        let mle = (((nn as u32).wrapping_sub(2 * u32::from(l)) >> 31) as u16).wrapping_sub(1) & mne;
        let mle = core::hint::black_box(mle);
        tt[..=t].copy_from_slice(&c[..=t]);
        let f = gf::mul(m, gf::inv(m, b), d);
        for i in 0..=t {
            c[i] ^= gf::mul(m, f, bb[i]) & mne;
        }
        l = (l & !mle) | ((nn as u16 + 1 - l) & mle);
        for i in 0..=t {
            bb[i] = (bb[i] & !mle) | (tt[i] & mle);
        }
        b = (b & !mle) | (d & mle);
        for i in (1..=t).rev() {
            bb[i] = bb[i - 1];
        }
        bb[0] = 0;
    }
    for i in 0..=t {
        out[i] = c[t - i];
    }
}

/// Niederreiter decryption. Writes `e` (n/8 bytes); returns 0xFF if e has
/// weight t and reproduces the syndrome, else 0.
fn decrypt<P: ParameterSet>(e: &mut [u8], sk: &[u8], c0: &[u8]) -> u8 {
    let (m, n, t) = (P::M, P::N, P::T);
    let nn = 1usize << m;
    let mut g = [0u16; MAX_T + 1];
    for (k, x) in g[..t].iter_mut().enumerate() {
        *x = u16::from_le_bytes([sk[40 + 2 * k], sk[41 + 2 * k]]) & ((1 << m) - 1);
    }
    g[t] = 1;
    let g = &g[..=t];
    // Support: the Benes network applied to (bitrev(x))_x.
    let mut l = [0u16; 1 << MAX_M];
    for (x, v) in l[..nn].iter_mut().enumerate() {
        *v = gf::bitrev(m, x as u16);
    }
    benes::apply(&mut l[..nn], &sk[40 + 2 * t..40 + 2 * t + P::COND_BYTES], m);
    let l = &l[..n];

    let mut r = [0u8; MAX_N / 8];
    r[..P::SYND_BYTES].copy_from_slice(&c0[..P::SYND_BYTES]);
    let mut s = [0u16; 2 * MAX_T];
    synd::<P>(&mut s, g, l, &r[..n / 8]);
    let mut loc = [0u16; MAX_T + 1];
    bm::<P>(&mut loc, &s[..2 * t]);

    // Roots of the locator: e_i = 1 iff loc(L_i) = 0.
    e[..n / 8].fill(0);
    let mut w = 0u32;
    for q in 0..n.div_ceil(64) {
        let (lb, _) = block::<P>(l, &r, q);
        let v = gf::veval(m, &loc[..=t], &lb);
        let mut nz = 0u64;
        for p in &v[..m] {
            nz |= p;
        }
        let mut z = !nz;
        let valid = n - 64 * q;
        if valid < 64 {
            z &= (1u64 << valid) - 1;
        }
        w += z.count_ones();
        let zb = z.to_le_bytes();
        let lim = (n / 8 - 8 * q).min(8);
        e[8 * q..8 * q + lim].copy_from_slice(&zb[..lim]);
    }
    let mut s2 = [0u16; 2 * MAX_T];
    synd::<P>(&mut s2, g, l, &e[..n / 8]);
    let mut check = (w ^ t as u32) as u16;
    for (a, b) in s[..2 * t].iter().zip(&s2[..2 * t]) {
        check |= a ^ b;
    }
    zeroize::Zeroize::zeroize(&mut s);
    zeroize::Zeroize::zeroize(&mut s2);
    zeroize::Zeroize::zeroize(&mut loc);
    zeroize::Zeroize::zeroize(&mut r);
    // 0xFF iff check == 0.
    ((u32::from(check).wrapping_sub(1) >> 31) as u8).wrapping_neg()
}

/// Decapsulation; `ct` must have `P::CT_BYTES` bytes.
pub(crate) fn decaps<P: ParameterSet>(sk: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
    let n = P::N;
    let mut e = [0u8; MAX_N / 8];
    let mut ok = decrypt::<P>(&mut e, sk, ct);
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
