//! The outer code of HQC: GF(256) arithmetic and the shortened Reed-Solomon
//! code.
//!
//! GF(256) = F2\[x\]/(x^8 + x^4 + x^3 + x^2 + 1) with generator α = x. The
//! code has length n1, dimension k and designed distance 2δ + 1; the
//! generator polynomial has roots α^1 .. α^{2δ}. Codewords are systematic:
//! `parity (2δ bytes) || message (k bytes)`, byte j being the coefficient of
//! x^j.
//!
//! Every operation on secret bytes is constant time: multiplication is a
//! shift-and-mask loop, inversion a fixed exponentiation chain, decoding
//! runs a fixed number of iterations and evaluates every candidate position.
//! Tables are only indexed with public loop counters.

use core::hint::black_box;

use crate::params::{MAX_DELTA, MAX_K, MAX_N1, ParameterSet};

/// α^i for i in 0..255 (public constants).
const ALPHA_POW: [u8; 255] = {
    let mut t = [0u8; 255];
    let mut x = 1u16;
    let mut i = 0;
    while i < 255 {
        t[i] = x as u8;
        x <<= 1;
        if x & 0x100 != 0 {
            x ^= 0x11D;
        }
        i += 1;
    }
    t
};

/// α^e for any exponent (public).
#[inline]
fn alpha_pow(e: usize) -> u8 {
    ALPHA_POW[e % 255]
}

/// Operand parts whose set bits are 4 apart (see [`gf_mul`]).
const GF_HOLES: [u32; 4] = [0x11, 0x22, 0x44, 0x88];

/// Constant-time GF(256) multiplication.
///
/// The carry-less 8x8 product uses integer multiplications of "holey"
/// parts (bits 4 apart, so column sums of at most 2 never carry into the
/// same residue class); the reduction uses shifts by constants only. There
/// are no 0/1 masks the optimiser could turn back into branches.
#[inline(always)]
pub(crate) fn gf_mul(a: u8, b: u8) -> u8 {
    let (a, b) = (u32::from(a), u32::from(b));
    let mut r = 0u32;
    for k in 0..4 {
        let mut acc = 0u32;
        for i in 0..4 {
            acc ^= (a & GF_HOLES[i]) * (b & GF_HOLES[(k + 4 - i) % 4]);
        }
        r |= acc & (0x1111 << k);
    }
    // x^8 = x^4 + x^3 + x^2 + 1, applied twice (15 -> 11 -> 8 bits).
    let h = r >> 8;
    let t = h ^ (h << 2) ^ (h << 3) ^ (h << 4);
    let h2 = t >> 8;
    let t2 = h2 ^ (h2 << 2) ^ (h2 << 3) ^ (h2 << 4);
    ((r ^ t ^ t2) & 0xFF) as u8
}

/// Constant-time square.
#[inline(always)]
fn gf_sq(a: u8) -> u8 {
    gf_mul(a, a)
}

/// Constant-time inverse a^254 (maps 0 to 0).
#[inline(always)]
pub(crate) fn gf_inv(a: u8) -> u8 {
    let a2 = gf_sq(a);
    let a3 = gf_mul(a2, a);
    let a6 = gf_sq(a3);
    let a7 = gf_mul(a6, a);
    let a14 = gf_sq(a7);
    let a15 = gf_mul(a14, a);
    let a30 = gf_sq(a15);
    let a60 = gf_sq(a30);
    let a63 = gf_mul(a60, a3);
    let a126 = gf_sq(a63);
    let a127 = gf_mul(a126, a);
    gf_sq(a127)
}

/// All-ones byte if `x != 0`.
#[inline]
fn nz_mask(x: u8) -> u8 {
    pqforge_core::ct::nonzero_to_mask_u8(x)
}

/// Systematic encoding of the k-byte message `m` into `cw` (n1 bytes).
pub(crate) fn encode<P: ParameterSet>(cw: &mut [u8], m: &[u8]) {
    let t = 2 * P::DELTA;
    let g = &P::RS_GEN;
    let mut par = [0u8; 2 * MAX_DELTA];
    let par = &mut par[..t];
    for i in 0..P::K {
        let fb = m[P::K - 1 - i] ^ par[t - 1];
        for j in (1..t).rev() {
            par[j] = par[j - 1] ^ gf_mul(fb, g[j]);
        }
        par[0] = gf_mul(fb, g[0]);
    }
    cw[..t].copy_from_slice(par);
    cw[t..P::N1].copy_from_slice(&m[..P::K]);
    zeroize::Zeroize::zeroize(par);
}

/// `SYN_POW[j][i] = α^((i+1)·j)` (public constants), so that the syndrome
/// loop runs over contiguous rows and vectorises.
static SYN_POW: [[u8; 2 * MAX_DELTA]; MAX_N1] = {
    let mut t = [[0u8; 2 * MAX_DELTA]; MAX_N1];
    let mut j = 0;
    while j < MAX_N1 {
        let mut i = 0;
        while i < 2 * MAX_DELTA {
            t[j][i] = ALPHA_POW[((i + 1) * j) % 255];
            i += 1;
        }
        j += 1;
    }
    t
};

/// Syndromes S_1..S_{2δ}: `s[i-1] = cw(α^i)`.
#[inline(always)]
fn syndromes<P: ParameterSet>(s: &mut [u8], cw: &[u8]) {
    let t = 2 * P::DELTA;
    let mut acc = [0u8; 2 * MAX_DELTA];
    for (j, &c) in cw.iter().enumerate().take(P::N1) {
        let row = &SYN_POW[j];
        for i in 0..2 * MAX_DELTA {
            acc[i] ^= gf_mul(c, row[i]);
        }
    }
    s[..t].copy_from_slice(&acc[..t]);
    zeroize::Zeroize::zeroize(&mut acc);
}

/// Constant-time Berlekamp-Massey: the error-locator polynomial σ (δ + 1
/// coefficients, σ_0 = 1) of the syndrome sequence.
#[inline(always)]
fn berlekamp_massey<P: ParameterSet>(sigma: &mut [u8; MAX_DELTA + 1], s: &[u8]) {
    let d_max = P::DELTA;
    *sigma = [0; MAX_DELTA + 1];
    sigma[0] = 1;
    // prev = x^m * B(x), the shifted copy of the last locator before a
    // length change.
    let mut prev = [0u8; MAX_DELTA + 1];
    prev[1] = 1;
    let mut old = [0u8; MAX_DELTA + 1];
    let mut len = 0u32; // current LFSR length L (secret)
    let mut b = 1u8; // discrepancy at the last length change (secret)
    for n in 0..2 * d_max {
        // Discrepancy d = S_{n+1} + sum_{i=1..} σ_i S_{n+1-i}; σ_i = 0 for i > L.
        let mut d = s[n];
        for i in 1..=n.min(d_max) {
            d ^= gf_mul(sigma[i], s[n - i]);
        }
        let coef = gf_mul(d, gf_inv(b));
        old[..=d_max].copy_from_slice(&sigma[..=d_max]);
        for i in 0..=d_max {
            sigma[i] ^= gf_mul(coef, prev[i]);
        }
        // Length change iff d != 0 and 2L <= n.
        let grow = u32::from(nz_mask(d)) & pqforge_core::ct::lt_mask_u32(2 * len, n as u32 + 1);
        let grow = black_box(grow);
        let g8 = grow as u8;
        // prev <- x * (grow ? old : prev)
        for i in (1..=d_max).rev() {
            prev[i] = prev[i - 1] ^ (g8 & (prev[i - 1] ^ old[i - 1]));
        }
        prev[0] = 0;
        len ^= grow & (len ^ (n as u32 + 1).wrapping_sub(len));
        b ^= g8 & (b ^ d);
    }
    zeroize::Zeroize::zeroize(&mut prev);
    zeroize::Zeroize::zeroize(&mut old);
}

/// Decodes the n1-byte word `cw` and writes its k message bytes to `m`.
///
/// Up to δ byte errors are corrected (Berlekamp-Massey, then Chien search
/// and Forney's formula on the message positions). Beyond δ errors the output
/// is some k-byte string; the KEM's re-encryption check rejects it.
#[inline(always)]
pub(crate) fn decode<P: ParameterSet>(m: &mut [u8], cw: &[u8]) {
    let t = 2 * P::DELTA;
    let mut s = [0u8; 2 * MAX_DELTA];
    syndromes::<P>(&mut s[..t], cw);
    let mut sigma = [0u8; MAX_DELTA + 1];
    berlekamp_massey::<P>(&mut sigma, &s[..t]);
    let sigma_d = &sigma[..=P::DELTA];
    // Error evaluator Ω = S·σ mod x^δ (deg Ω < number of errors <= δ).
    let mut omega = [0u8; MAX_DELTA];
    for i in 0..P::DELTA {
        let mut acc = 0u8;
        for j in 0..=i {
            acc ^= gf_mul(sigma[j], s[i - j]);
        }
        omega[i] = acc;
    }
    // Formal derivative σ'(x) = σ_1 + σ_3 x^2 + σ_5 x^4 + ...
    let mut dsigma = [0u8; MAX_DELTA + 1];
    for i in (1..=P::DELTA).step_by(2) {
        dsigma[i - 1] = sigma[i];
    }
    // Chien search and Forney on the k message positions, all positions
    // at once (Horner over the coefficients, vectorisable across
    // positions). X_j^{-1} = α^{-j}.
    let mut xinv = [0u8; MAX_K];
    for i in 0..P::K {
        xinv[i] = alpha_pow(255 - ((P::N1 - P::K + i) % 255));
    }
    let mut ys = [0u8; MAX_K];
    let mut num = [0u8; MAX_K];
    let mut den = [0u8; MAX_K];
    for d in (0..=P::DELTA).rev() {
        for i in 0..MAX_K {
            ys[i] = gf_mul(ys[i], xinv[i]) ^ sigma_d[d];
        }
    }
    for d in (0..P::DELTA).rev() {
        for i in 0..MAX_K {
            num[i] = gf_mul(num[i], xinv[i]) ^ omega[d];
            den[i] = gf_mul(den[i], xinv[i]) ^ dsigma[d];
        }
    }
    for i in 0..P::K {
        let j = P::N1 - P::K + i;
        let is_root = !nz_mask(ys[i]);
        let e = gf_mul(num[i], gf_inv(den[i]));
        m[i] = cw[j] ^ (black_box(is_root) & e);
    }
    zeroize::Zeroize::zeroize(&mut s);
    zeroize::Zeroize::zeroize(&mut sigma);
    zeroize::Zeroize::zeroize(&mut omega);
    zeroize::Zeroize::zeroize(&mut dsigma);
}

/// Compile-time check that the scratch arrays fit every parameter set.
const _: () = assert!(MAX_N1 >= 90 && MAX_K >= 32);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Hqc1, Hqc5};

    #[test]
    fn field() {
        for a in 1..=255u8 {
            assert_eq!(gf_mul(a, gf_inv(a)), 1, "{a}");
        }
        assert_eq!(gf_inv(0), 0);
        assert_eq!(gf_mul(0x80, 2), 0x1D);
    }

    fn roundtrip<P: ParameterSet>(errors: usize) {
        let mut m = [0u8; MAX_K];
        for (i, x) in m.iter_mut().enumerate() {
            *x = (i as u8).wrapping_mul(37).wrapping_add(11);
        }
        let mut cw = [0u8; MAX_N1];
        encode::<P>(&mut cw, &m[..P::K]);
        let mut s = [0u8; 2 * MAX_DELTA];
        syndromes::<P>(&mut s[..2 * P::DELTA], &cw);
        assert!(s.iter().all(|&x| x == 0));
        for e in 0..errors {
            let pos = (e * 7 + 3) % P::N1;
            cw[pos] ^= (e as u8).wrapping_mul(29) | 1;
        }
        let mut out = [0u8; MAX_K];
        decode::<P>(&mut out[..P::K], &cw);
        assert_eq!(out[..P::K], m[..P::K], "{errors} errors");
    }

    #[test]
    fn corrects_up_to_delta() {
        if cfg!(miri) {
            // No errors and the most the code corrects.
            roundtrip::<Hqc1>(0);
            roundtrip::<Hqc1>(Hqc1::DELTA);
            return;
        }
        for e in 0..=Hqc1::DELTA {
            roundtrip::<Hqc1>(e);
        }
        for e in [0, 1, 10, Hqc5::DELTA] {
            roundtrip::<Hqc5>(e);
        }
    }
}
