//! Stack-optimised K-PKE and ML-KEM (FIPS 203 Algorithms 13-18) for small
//! devices: the strategy of pqm4's "m4fstack" Kyber, in portable Rust.
//!
//! * The public matrix is never stored: each entry `A[i][j]` is sampled
//!   (SampleNTT, Algorithm 7) straight into the base multiplication, pair of
//!   coefficients by pair of coefficients, and accumulated into one output
//!   polynomial (`matacc`).
//! * Polynomials in the NTT domain that must survive (s-hat in key
//!   generation, r-hat in encryption) are kept ByteEncode12-packed, 384
//!   bytes each; s-hat and t-hat are read straight from the key bytes.
//! * Noise is added coefficient-wise from the PRF output (no polynomial
//!   buffer), compression writes bytes as it goes, and decapsulation
//!   compares the re-encrypted ciphertext with the received one byte by
//!   byte instead of materialising it.
//!
//! Peak scratch (ML-KEM-768 encapsulation): the packed r-hat (k x 384 B),
//! one accumulator polynomial (512 B) and one Keccak sponge.
//!
//! Results are bit-identical to `crate::kem` (`tests/backends.rs`).
//! Constant time: the only branches and indices on data are those of
//! SampleNTT, which reads the public SHAKE128(rho || i || j) stream.

use pqforge_core::{ByteArray, ct, ctgrind};
use zeroize::Zeroize;

use crate::hash::{self, Shake128, Shake256};
use crate::ntt::{F_INV, ZETAS};
use crate::params::ParameterSet;
use crate::poly::{
    self, MONT_SQ, N, POLY_BYTES, Poly, Q, barrett_reduce, fqmul, montgomery_reduce, to_canonical,
    wipe,
};

/// SHAKE128 rate: one SampleNTT block.
const XOF_BLOCK: usize = 168;

/// The modulus `X^2 - zeta` of coefficient pair `p` (Montgomery form):
/// pairs `2i` and `2i + 1` use `ZETAS[64 + i]` and its negative.
const PAIR_ZETAS: [i16; N / 2] = {
    let mut z = [0i16; N / 2];
    let mut p = 0;
    while p < N / 2 {
        let v = ZETAS[64 + p / 2];
        z[p] = if p % 2 == 0 { v } else { -v };
        p += 1;
    }
    z
};

/// The 12-bit pair `(a_{2p}, a_{2p+1})` of a ByteEncode12 string.
#[inline(always)]
fn pair(bytes: &[u8; POLY_BYTES], p: usize) -> (i32, i32) {
    let (b0, b1, b2) = (
        i32::from(bytes[3 * p]),
        i32::from(bytes[3 * p + 1]),
        i32::from(bytes[3 * p + 2]),
    );
    (b0 | ((b1 & 0x0F) << 8), (b1 >> 4) | (b2 << 4))
}

/// `acc[o], acc[o+1] += (a0 + a1 X)(b0 + b1 X) * 2^-16 mod (X^2 - zeta_o)`
/// (FIPS 203 Algorithm 12), `o` even. With `a_i, b_i` in `[0, 4096)` and
/// one of them below q, each product stays below q 2^15 in magnitude; each
/// term added is below q, so k <= 4 terms fit an `i16`.
#[inline(always)]
fn mul_pair(acc: &mut Poly, o: usize, (a0, a1): (i32, i32), (b0, b1): (i32, i32)) {
    let z = i32::from(PAIR_ZETAS[o >> 1]);
    let r0 = montgomery_reduce(a0 * b0 + i32::from(montgomery_reduce(a1 * b1)) * z);
    let r1 = montgomery_reduce(a0 * b1 + a1 * b0);
    acc.c[o] = acc.c[o].wrapping_add(r0);
    acc.c[o + 1] = acc.c[o + 1].wrapping_add(r1);
}

/// `acc += SampleNTT(rho || x || y) o b` with `b` packed (canonical):
/// the matrix entry is consumed as it is sampled and never stored.
fn matacc(acc: &mut Poly, rho: &[u8; 32], x: u8, y: u8, b: &[u8; POLY_BYTES]) {
    let mut xof = Shake128::absorb(&[rho, &[x, y]], 0x1F);
    let mut blk = [0u8; XOF_BLOCK];
    let mut ctr = 0usize;
    let mut a0 = 0i32;
    // Public loop and branches: the stream depends on rho only.
    while ctr < N {
        xof.squeeze_block(&mut blk);
        for g in blk.chunks_exact(3) {
            let (b0, b1, b2) = (i32::from(g[0]), i32::from(g[1]), i32::from(g[2]));
            for d in [b0 | ((b1 & 0x0F) << 8), (b1 >> 4) | (b2 << 4)] {
                if d < i32::from(Q) && ctr < N {
                    if ctr & 1 == 0 {
                        a0 = d;
                    } else {
                        mul_pair(acc, ctr - 1, (a0, d), pair(b, ctr >> 1));
                    }
                    ctr += 1;
                }
            }
        }
    }
}

/// `acc += a o b`, `a` packed (values in `[0, 4096)`), `b` reduced.
fn basemul_bytes_poly(acc: &mut Poly, a: &[u8; POLY_BYTES], b: &Poly) {
    for p in 0..N / 2 {
        let o = 2 * p;
        let bp = (i32::from(b.c[o]), i32::from(b.c[o + 1]));
        mul_pair(acc, o, pair(a, p), bp);
    }
}

/// `acc += a o b`, both packed; `a` canonical.
fn basemul_bytes(acc: &mut Poly, a: &[u8; POLY_BYTES], b: &[u8; POLY_BYTES]) {
    for p in 0..N / 2 {
        mul_pair(acc, 2 * p, pair(a, p), pair(b, p));
    }
}

/// The `i`-th 384-byte slot of a packed vector.
fn slot(v: &[u8], i: usize) -> &[u8; POLY_BYTES] {
    v[POLY_BYTES * i..POLY_BYTES * (i + 1)]
        .try_into()
        .unwrap_or(&[0; POLY_BYTES])
}

fn slot_mut(v: &mut [u8], i: usize) -> &mut [u8] {
    &mut v[POLY_BYTES * i..POLY_BYTES * (i + 1)]
}

/// `p += SamplePolyCBD_eta(PRF_eta(sigma, nonce))` (FIPS 203 eq. 4.3,
/// Algorithm 8), straight from the PRF output; branch-free.
fn add_noise(p: &mut Poly, sigma: &[u8; 32], nonce: u8, eta: usize) {
    let mut buf = [0u8; 192];
    let mut prf = Shake256::absorb(&[sigma, &[nonce]], 0x1F);
    prf.squeeze(&mut buf[..64 * eta]);
    if eta == 3 {
        for i in 0..64 {
            let w = &buf[3 * i..3 * i + 3];
            let t = u32::from(w[0]) | (u32::from(w[1]) << 8) | (u32::from(w[2]) << 16);
            let d = (t & 0x0024_9249) + ((t >> 1) & 0x0024_9249) + ((t >> 2) & 0x0024_9249);
            for j in 0..4 {
                let a = ((d >> (6 * j)) & 7) as i16;
                let b = ((d >> (6 * j + 3)) & 7) as i16;
                let c = &mut p.c[4 * i + j];
                *c = c.wrapping_add(a - b);
            }
        }
    } else {
        for i in 0..32 {
            let w = &buf[4 * i..4 * i + 4];
            let t = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let d = (t & 0x5555_5555) + ((t >> 1) & 0x5555_5555);
            for j in 0..8 {
                let a = ((d >> (4 * j)) & 3) as i16;
                let b = ((d >> (4 * j + 2)) & 3) as i16;
                let c = &mut p.c[8 * i + j];
                *c = c.wrapping_add(a - b);
            }
        }
    }
    wipe(&mut buf);
}

/// Forward NTT (Algorithm 9) with two layers per pass (half the loads and
/// stores of one layer at a time), then Barrett reduction.
/// in: |c| < q;  out: reduced. Same result as `ntt::ntt` + `poly::reduce`.
fn ntt_reduced(p: &mut Poly) {
    let r = &mut p.c;
    // Layer pairs (len, len/2) for len = 128, 32, 8; then the last layer.
    let mut len = 128;
    while len >= 8 {
        let h = len / 2;
        let mut start = 0;
        while start < N {
            let blk = start / (2 * len);
            let z1 = ZETAS[128 / len + blk];
            let z2 = ZETAS[256 / len + 2 * blk];
            let z3 = ZETAS[256 / len + 2 * blk + 1];
            for j in start..start + h {
                let (mut x0, mut x1, mut x2, mut x3) = (r[j], r[j + h], r[j + len], r[j + len + h]);
                let t = fqmul(z1, x2);
                x2 = x0.wrapping_sub(t);
                x0 = x0.wrapping_add(t);
                let t = fqmul(z1, x3);
                x3 = x1.wrapping_sub(t);
                x1 = x1.wrapping_add(t);
                let t = fqmul(z2, x1);
                x1 = x0.wrapping_sub(t);
                x0 = x0.wrapping_add(t);
                let t = fqmul(z3, x3);
                x3 = x2.wrapping_sub(t);
                x2 = x2.wrapping_add(t);
                r[j] = x0;
                r[j + h] = x1;
                r[j + len] = x2;
                r[j + len + h] = x3;
            }
            start += 2 * len;
        }
        len /= 4;
    }
    // len = 2, zetas 64..128, then the reduction.
    for i in 0..64 {
        let z = ZETAS[64 + i];
        for j in 4 * i..4 * i + 2 {
            let t = fqmul(z, r[j + 2]);
            r[j + 2] = barrett_reduce(r[j].wrapping_sub(t));
            r[j] = barrett_reduce(r[j].wrapping_add(t));
        }
    }
}

/// Layers `LEN` and `2 LEN` of the inverse NTT in one pass; `RED`
/// Barrett-reduces the sums of layer `LEN`.
#[inline(always)]
fn inv_pass<const LEN: usize, const RED: bool>(r: &mut [i16; N]) {
    for blk in 0..N / (4 * LEN) {
        // Layer LEN: zeta index 256/LEN - 1 - block; layer 2 LEN: half.
        let z1 = ZETAS[256 / LEN - 1 - 2 * blk];
        let z2 = ZETAS[256 / LEN - 2 - 2 * blk];
        let z3 = ZETAS[128 / LEN - 1 - blk];
        let g = &mut r[4 * LEN * blk..4 * LEN * (blk + 1)];
        for j in 0..LEN {
            let (mut x0, mut x1, mut x2, mut x3) =
                (g[j], g[j + LEN], g[j + 2 * LEN], g[j + 3 * LEN]);
            let t = x0;
            x0 = t.wrapping_add(x1);
            x1 = fqmul(z1, x1.wrapping_sub(t));
            let t = x2;
            x2 = t.wrapping_add(x3);
            x3 = fqmul(z2, x3.wrapping_sub(t));
            if RED {
                x0 = barrett_reduce(x0);
                x2 = barrett_reduce(x2);
            }
            let t = x0;
            x0 = t.wrapping_add(x2);
            x2 = fqmul(z3, x2.wrapping_sub(t));
            let t = x1;
            x1 = t.wrapping_add(x3);
            x3 = fqmul(z3, x3.wrapping_sub(t));
            g[j] = x0;
            g[j + LEN] = x1;
            g[j + 2 * LEN] = x2;
            g[j + 3 * LEN] = x3;
        }
    }
}

/// Inverse NTT (Algorithm 10) times 2^16 with two layers per pass and lazy
/// reduction: only the sums of layers 1 and 4 are Barrett-reduced.
/// in: |c| < 4q;  out: |c| < q (not the same representatives as
/// `ntt::invntt_tomont`; callers reduce before encoding).
fn invntt_lazy(p: &mut Poly) {
    // Bounds (all below 2^15): in < 4q. Layer 1: sums < 8q, reduced
    // (<= q/2); differences go through fqmul (< q). Layers 2-3 double:
    // < 4q. Layer 4: sums < 8q, reduced again; layers 5-7 double: < 8q.
    let r = &mut p.c;
    // Layer 1 (len 2) alone, zetas 127..64.
    for i in 0..64 {
        let z = ZETAS[127 - i];
        for j in 4 * i..4 * i + 2 {
            let t = r[j];
            r[j] = barrett_reduce(t.wrapping_add(r[j + 2]));
            r[j + 2] = fqmul(z, r[j + 2].wrapping_sub(t));
        }
    }
    // Layer pairs (len, 2 len) for len = 4, 16 (reducing), 64.
    inv_pass::<4, false>(r);
    inv_pass::<16, true>(r);
    inv_pass::<64, false>(r);
    for c in r.iter_mut() {
        *c = fqmul(*c, F_INV);
    }
}

/// Noise polynomial in the NTT domain, packed (canonical) into `out`.
fn noise_ntt_packed(out: &mut [u8], sigma: &[u8; 32], nonce: u8, eta: usize, tmp: &mut Poly) {
    tmp.zeroize();
    add_noise(tmp, sigma, nonce, eta);
    ntt_reduced(tmp);
    poly::to_bytes(tmp, out);
}

/// Where compressed ciphertext bytes go: written out, or compared with the
/// received ciphertext (decapsulation's re-encryption).
trait Sink {
    fn put(&mut self, i: usize, b: u8);
}

struct Write<'a>(&'a mut [u8]);

impl Sink for Write<'_> {
    #[inline(always)]
    fn put(&mut self, i: usize, b: u8) {
        self.0[i] = b;
    }
}

/// OR of the differences with `c`; zero iff every byte matched.
struct Compare<'a> {
    c: &'a [u8],
    diff: u8,
}

impl Sink for Compare<'_> {
    #[inline(always)]
    fn put(&mut self, i: usize, b: u8) {
        // CT: accumulated, never branched on.
        self.diff |= self.c[i] ^ b;
    }
}

/// Compress_D then ByteEncode_D (Algorithm 5) of a reduced polynomial into
/// the sink at byte offset `off` (`32 D` bytes), 8 bits at a time.
fn compress_emit<const D: u32, S: Sink>(p: &Poly, sink: &mut S, off: usize) {
    let mut acc = 0u32;
    let mut bits = 0u32;
    let mut o = off;
    for &x in &p.c {
        acc |= u32::from(poly::compress(to_canonical(x), D)) << bits;
        bits += D;
        // Public: the bit count depends on D only.
        while bits >= 8 {
            sink.put(o, acc as u8);
            o += 1;
            acc >>= 8;
            bits -= 8;
        }
    }
}

/// K-PKE.Encrypt(ek, m, r) (Algorithm 14) into the sink. `ek` has passed
/// the modulus check and is exactly `EK_BYTES` long.
#[inline(never)] // own frame: not stacked on the caller's
fn encrypt<P: ParameterSet, S: Sink>(ek: &[u8], m: &[u8; 32], coins: &[u8; 32], sink: &mut S) {
    let k = P::K;
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&ek[POLY_BYTES * k..POLY_BYTES * k + 32]);
    let mut acc = Poly::ZERO;
    // r-hat, packed (nonces 0..k, eta1), in an ek-sized array: 384 k bytes
    // plus 32 unused.
    let mut rh_store = P::EkBytes::zeroed();
    let rh: &mut [u8] = rh_store.as_mut();
    for j in 0..k {
        noise_ntt_packed(slot_mut(rh, j), coins, j as u8, P::ETA1, &mut acc);
    }
    let du_bytes = 32 * P::DU as usize;
    // u_i = NTT^-1(sum_j A^T[i][j] o r_j) + e1_i, A^T[i][j] = SampleNTT(rho || i || j).
    for i in 0..k {
        acc.zeroize();
        for j in 0..k {
            matacc(&mut acc, &rho, i as u8, j as u8, slot(rh, j));
        }
        invntt_lazy(&mut acc);
        add_noise(&mut acc, coins, (k + i) as u8, P::ETA2);
        poly::reduce(&mut acc);
        if P::DU == 10 {
            compress_emit::<10, S>(&acc, sink, du_bytes * i);
        } else {
            compress_emit::<11, S>(&acc, sink, du_bytes * i);
        }
    }
    // v = NTT^-1(t-hat^T o r-hat) + e2 + Decompress_1(m).
    acc.zeroize();
    for j in 0..k {
        basemul_bytes(&mut acc, slot(ek, j), slot(rh, j));
    }
    invntt_lazy(&mut acc);
    add_noise(&mut acc, coins, (2 * k) as u8, P::ETA2);
    for (i, &byte) in m.iter().enumerate() {
        for j in 0..8 {
            // CT: mask arithmetic, no branch on the message bit.
            let bit = i16::from((byte >> j) & 1);
            let c = &mut acc.c[8 * i + j];
            *c = c.wrapping_add((-bit) & 0x0681); // round(q/2) = 1665
        }
    }
    poly::reduce(&mut acc);
    if P::DV == 4 {
        compress_emit::<4, S>(&acc, sink, du_bytes * k);
    } else {
        compress_emit::<5, S>(&acc, sink, du_bytes * k);
    }
    acc.zeroize();
    wipe(rh);
}

/// K-PKE.Decrypt(dk_pke, c) (Algorithm 15).
#[inline(never)] // own frame, released before re-encryption
fn decrypt<P: ParameterSet>(dk_pke: &[u8], c: &[u8], m: &mut [u8; 32]) {
    let k = P::K;
    let du_bytes = 32 * P::DU as usize;
    let mut w = Poly::ZERO;
    let mut u = Poly::ZERO;
    for i in 0..k {
        let ci = &c[du_bytes * i..du_bytes * (i + 1)];
        if P::DU == 10 {
            poly::decompress_from_bytes::<10>(ci, &mut u);
        } else {
            poly::decompress_from_bytes::<11>(ci, &mut u);
        }
        ntt_reduced(&mut u);
        basemul_bytes_poly(&mut w, slot(dk_pke, i), &u);
    }
    invntt_lazy(&mut w);
    let c2 = &c[du_bytes * k..];
    if P::DV == 4 {
        poly::decompress_from_bytes::<4>(c2, &mut u);
    } else {
        poly::decompress_from_bytes::<5>(c2, &mut u);
    }
    poly::sub_from(&mut w, &u); // w = v - s^T u
    poly::reduce(&mut w);
    poly::to_msg(&w, m);
    w.zeroize();
    u.zeroize();
}

/// ML-KEM.KeyGen_internal(d, z) (Algorithms 16 and 13) into `ek` and `dk`
/// (exact lengths). `ipd` drops the k byte from G(d || k) (August 2023
/// draft).
pub(crate) fn keygen<P: ParameterSet>(
    d: &[u8; 32],
    z: &[u8; 32],
    ek: &mut [u8],
    dk: &mut [u8],
    ipd: bool,
) {
    let k = P::K;
    let ek = &mut ek[..P::EK_BYTES];
    let dk = &mut dk[..P::DK_BYTES];
    let k_byte = [k as u8];
    let mut g = hash::g(&[d, if ipd { &[] } else { &k_byte }]);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&g[..32]);
    let mut sigma = [0u8; 32];
    sigma.copy_from_slice(&g[32..]);
    g.zeroize();
    // Public: rho is the seed of the public matrix and is part of ek.
    ctgrind::declassify(&mut rho);

    let mut acc = Poly::ZERO;
    // s-hat straight into dk (nonces 0..k).
    for j in 0..k {
        noise_ntt_packed(slot_mut(dk, j), &sigma, j as u8, P::ETA1, &mut acc);
    }
    let mut e = Poly::ZERO;
    for i in 0..k {
        // t_i = sum_j A[i][j] o s_j + e_i, A[i][j] = SampleNTT(rho || j || i).
        acc.zeroize();
        for j in 0..k {
            matacc(&mut acc, &rho, j as u8, i as u8, slot(dk, j));
        }
        e.zeroize();
        add_noise(&mut e, &sigma, (k + i) as u8, P::ETA1);
        ntt_reduced(&mut e);
        for (t, &x) in acc.c.iter_mut().zip(&e.c) {
            *t = barrett_reduce(fqmul(*t, MONT_SQ).wrapping_add(x));
        }
        poly::to_bytes(&acc, slot_mut(ek, i));
    }
    sigma.zeroize();
    acc.zeroize();
    e.zeroize();
    ek[POLY_BYTES * k..].copy_from_slice(&rho);
    // Public: the encapsulation key is the public output of key generation.
    ctgrind::declassify(ek);
    let (_, rest) = dk.split_at_mut(POLY_BYTES * k);
    let (dk_ek, rest) = rest.split_at_mut(P::EK_BYTES);
    dk_ek.copy_from_slice(ek);
    let (dk_h, dk_z) = rest.split_at_mut(32);
    dk_h.copy_from_slice(&hash::h(ek));
    dk_z.copy_from_slice(z);
}

/// ML-KEM.Encaps_internal(ek, m) (Algorithm 17); `h` = H(ek); exact
/// lengths, `ek` modulus-checked.
pub(crate) fn encaps<P: ParameterSet>(
    ek: &[u8],
    h: &[u8; 32],
    m: &[u8; 32],
    c: &mut [u8],
    key: &mut [u8; 32],
) {
    let ek = &ek[..P::EK_BYTES];
    let c = &mut c[..P::CT_BYTES];
    // (K, r) = G(m || H(ek))
    let mut g = hash::g(&[m, h]);
    let mut r = [0u8; 32];
    r.copy_from_slice(&g[32..]);
    key.copy_from_slice(&g[..32]);
    encrypt::<P, _>(ek, m, &r, &mut Write(c));
    // Public: the ciphertext is the public output of encapsulation.
    ctgrind::declassify(c);
    g.zeroize();
    r.zeroize();
}

/// ML-KEM.Decaps_internal(dk, c) (Algorithm 18): implicit rejection with a
/// full-length constant-time comparison and a constant-time select.
pub(crate) fn decaps<P: ParameterSet>(dk: &[u8], c: &[u8], key: &mut [u8; 32]) {
    let k = P::K;
    let dk = &dk[..P::DK_BYTES];
    let c = &c[..P::CT_BYTES];
    let (dk_pke, rest) = dk.split_at(POLY_BYTES * k);
    let (ek, rest) = rest.split_at(P::EK_BYTES);
    let (h, z) = rest.split_at(32);

    let mut m = [0u8; 32];
    decrypt::<P>(dk_pke, c, &mut m);
    // (K', r') = G(m' || h), K-bar = J(z || c)
    let mut g = hash::g(&[&m, h]);
    let mut r = [0u8; 32];
    r.copy_from_slice(&g[32..]);
    let mut kbar = hash::j(z, c);
    let mut cmp = Compare { c, diff: 0 };
    encrypt::<P, _>(ek, &m, &r, &mut cmp);
    // CT: the difference is turned into a mask, never branched on.
    let eq = ct::nonzero_to_mask_u8(core::hint::black_box(cmp.diff)) ^ 0xFF;
    ct::select(eq, &g[..32], &kbar, key);
    m.zeroize();
    g.zeroize();
    r.zeroize();
    kbar.zeroize();
}

#[cfg(test)]
mod tests {
    use pqforge_core::testing::TestRng;

    use super::*;
    use crate::ntt;

    /// A value in `[-m, m]`.
    fn centred(rng: &mut TestRng, m: usize) -> i16 {
        (rng.below(2 * m + 1) as i32 - m as i32) as i16
    }

    #[test]
    fn transforms_match_reference() {
        let mut rng = TestRng::new(7);
        for round in 0..200 {
            // Forward: |c| < q.
            let mut a = Poly::ZERO;
            for c in &mut a.c {
                *c = centred(&mut rng, 3328);
            }
            let mut want = a;
            ntt::ntt(&mut want);
            poly::reduce(&mut want);
            ntt_reduced(&mut a);
            assert_eq!(a, want);
            // Inverse: |c| < 4q, including the extremes (worst-case growth).
            for c in &mut a.c {
                *c = match round % 4 {
                    0 => 13_315,
                    1 => -13_315,
                    2 => centred(&mut rng, 13_315),
                    _ => {
                        if rng.next_u32() & 1 == 0 {
                            13_315
                        } else {
                            -13_315
                        }
                    }
                };
            }
            let mut want = a;
            ntt::invntt_tomont(&mut want);
            poly::reduce(&mut want);
            invntt_lazy(&mut a);
            assert!(a.c.iter().all(|c| c.abs() < 3329));
            poly::reduce(&mut a);
            assert_eq!(a, want);
        }
    }
}
