//! The concatenated code of HQC: an outer shortened Reed-Solomon code
//! ([`crate::rs`]) and an inner duplicated Reed-Muller RM(1,7) code.
//!
//! Each RS codeword byte becomes a 128-bit RM(1,7) codeword repeated
//! n2/128 times (3 for HQC-1, 5 for HQC-3/5); byte i occupies bits
//! `[i·n2, (i+1)·n2)` of the n1·n2-bit word. RM decoding sums the copies,
//! applies a fast Walsh-Hadamard transform and picks the largest magnitude
//! (first one on ties), all without data-dependent branches or indices.

use core::hint::black_box;

use crate::gf2x::Backend;
use crate::params::{MAX_K, MAX_N1, ParameterSet};

/// Rows of the RM(1,7) generator for message bits 0..6 as (low, high)
/// 64-bit halves; bit 7 selects the all-ones row.
const RM_ROWS: [(u64, u64); 8] = [
    (0xAAAA_AAAA_AAAA_AAAA, 0xAAAA_AAAA_AAAA_AAAA),
    (0xCCCC_CCCC_CCCC_CCCC, 0xCCCC_CCCC_CCCC_CCCC),
    (0xF0F0_F0F0_F0F0_F0F0, 0xF0F0_F0F0_F0F0_F0F0),
    (0xFF00_FF00_FF00_FF00, 0xFF00_FF00_FF00_FF00),
    (0xFFFF_0000_FFFF_0000, 0xFFFF_0000_FFFF_0000),
    (0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_0000_0000),
    (0, u64::MAX),
    (u64::MAX, u64::MAX),
];

/// RM(1,7) codeword of one byte, as two 64-bit words.
#[inline]
fn rm_encode_byte(x: u8) -> (u64, u64) {
    let x = black_box(u64::from(x));
    let (mut lo, mut hi) = (0u64, 0u64);
    for (i, &(rl, rh)) in RM_ROWS.iter().enumerate() {
        let mask = black_box(((x >> i) & 1).wrapping_neg());
        lo ^= rl & mask;
        hi ^= rh & mask;
    }
    (lo, hi)
}

/// XORs the encoding of the k-byte message `m` into the first n1·n2 bits
/// of `out`.
pub(crate) fn encode_xor<P: ParameterSet>(out: &mut [u64], m: &[u8]) {
    let mut cw = [0u8; MAX_N1];
    crate::rs::encode::<P>(&mut cw, m);
    let rep = P::N2 / 128;
    for (i, &c) in cw.iter().enumerate().take(P::N1) {
        let (lo, hi) = rm_encode_byte(c);
        let base = i * P::N2 / 64;
        for r in 0..rep {
            out[base + 2 * r] ^= lo;
            out[base + 2 * r + 1] ^= hi;
        }
    }
    zeroize::Zeroize::zeroize(&mut cw);
}

/// Fast Walsh-Hadamard transform of 128 values in the constant-geometry
/// form: every one of the seven stages maps pairs (2j, 2j + 1) to (j, 64 + j)
/// (sum, difference), which after seven stages is the natural order. The
/// identical stages vectorise well.
#[inline(always)]
fn hadamard(s: &mut [i16; 128]) {
    for _ in 0..7 {
        let mut t = [0i16; 128];
        for j in 0..64 {
            let (a, b) = (s[2 * j], s[2 * j + 1]);
            t[j] = a + b;
            t[64 + j] = a - b;
        }
        *s = t;
    }
}

/// Sums the `rep` copies of a 128-bit RM codeword bit by bit.
#[inline(always)]
fn expand(s: &mut [i16; 128], words: &[u64], rep: usize) {
    *s = [0; 128];
    for r in 0..rep {
        for half in 0..2 {
            let w = words[2 * r + half];
            for j in 0..64 {
                s[64 * half + j] += ((w >> j) & 1) as i16;
            }
        }
    }
}

/// Reed-Muller decoding of the n1 duplicated RM(1,7) codewords in the
/// first n1·n2 bits of `word` into `cw` (n1 bytes). Inlined into each
/// backend's `#[target_feature]` wrapper (see `Backend::decode`).
#[inline(always)]
pub(crate) fn rm_decode_generic<P: ParameterSet>(cw: &mut [u8], word: &[u64]) {
    let rep = P::N2 / 128;
    let mut s = [0i16; 128];
    for i in 0..P::N1 {
        let base = i * P::N2 / 64;
        expand(&mut s, &word[base..base + 2 * rep], rep);
        hadamard(&mut s);
        s[0] -= 64 * rep as i16;
        cw[i] = find_peak(&s);
    }
    zeroize::Zeroize::zeroize(&mut s);
}

/// Index of the largest |s[j]| (first on ties), plus 128 when that entry is
/// non-negative.
#[inline]
fn find_peak(s: &[i16; 128]) -> u8 {
    let mut best_abs = 0i32;
    let mut best_val = 0i32;
    let mut best_pos = 0i32;
    for (j, &v) in s.iter().enumerate() {
        let v = i32::from(v);
        let sign = v >> 31;
        let abs = (v ^ sign) - sign;
        // mask = -1 iff best_abs < abs
        let mask = black_box((best_abs - abs) >> 31);
        best_abs ^= mask & (best_abs ^ abs);
        best_val ^= mask & (best_val ^ v);
        best_pos ^= mask & (best_pos ^ j as i32);
    }
    // +128 iff best_val >= 0
    let nonneg = !(best_val >> 31);
    (best_pos | (nonneg & 128)) as u8
}

/// Decodes the first n1·n2 bits of `word` into the k-byte message `m`
/// (on backend `B`, see `Backend::decode`).
pub(crate) fn decode<P: ParameterSet, B: Backend>(m: &mut [u8], word: &[u64]) {
    B::decode::<P>(m, word);
}

/// Reed-Muller then Reed-Solomon decoding; inlined into each backend's
/// `#[target_feature]` wrapper.
#[inline(always)]
pub(crate) fn decode_generic<P: ParameterSet>(m: &mut [u8], word: &[u64]) {
    let mut cw = [0u8; MAX_N1];
    rm_decode_generic::<P>(&mut cw[..P::N1], word);
    let mut msg = [0u8; MAX_K];
    crate::rs::decode::<P>(&mut msg[..P::K], &cw[..P::N1]);
    m[..P::K].copy_from_slice(&msg[..P::K]);
    zeroize::Zeroize::zeroize(&mut cw);
    zeroize::Zeroize::zeroize(&mut msg);
}

/// The RS codeword (n1 bytes) of `m`, for tests against the reference
/// traces.
#[cfg(test)]
pub(crate) fn rs_codeword<P: ParameterSet>(m: &[u8]) -> [u8; MAX_N1] {
    let mut cw = [0u8; MAX_N1];
    crate::rs::encode::<P>(&mut cw, m);
    cw
}

/// The RM decoding result (n1 bytes) of `word`, for tests.
#[cfg(test)]
pub(crate) fn rm_decode_all<P: ParameterSet>(word: &[u64]) -> [u8; MAX_N1] {
    let mut cw = [0u8; MAX_N1];
    rm_decode_generic::<P>(&mut cw[..P::N1], word);
    cw
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Hqc1, Hqc3};

    #[test]
    fn rm_roundtrip_all_bytes() {
        for x in 0..=255u8 {
            let (lo, hi) = rm_encode_byte(x);
            let mut s = [0i16; 128];
            for (k, sk) in s.iter_mut().enumerate() {
                let w = if k < 64 { lo } else { hi };
                *sk = 3 * ((w >> (k % 64)) & 1) as i16;
            }
            hadamard(&mut s);
            s[0] -= 64 * 3;
            assert_eq!(find_peak(&s), x);
        }
    }

    fn concat_roundtrip<P: ParameterSet>() {
        let mut m = [0u8; MAX_K];
        for (i, x) in m.iter_mut().enumerate() {
            *x = (i as u8).wrapping_mul(91) ^ 0x5A;
        }
        let mut w = [0u64; 1024];
        encode_xor::<P>(&mut w, &m[..P::K]);
        // Flip a scattered set of bits: well within the decoding radius.
        for i in (0..P::N1 * P::N2).step_by(97) {
            w[i / 64] ^= 1 << (i % 64);
        }
        let mut out = [0u8; MAX_K];
        decode::<P, crate::gf2x::Portable>(&mut out, &w);
        assert_eq!(out[..P::K], m[..P::K]);
    }

    #[test]
    fn concatenated_roundtrip() {
        concat_roundtrip::<Hqc1>();
        concat_roundtrip::<Hqc3>();
    }
}
