//! The inner code of HQC: the Reed-Muller code RM(1,7), duplicated.
//!
//! A byte becomes a 128-bit RM(1,7) codeword (message bits 0..6 select rows
//! of the generator, bit 7 the all-ones row), repeated n2/128 times.
//! Decoding sums the copies, applies a fast Walsh-Hadamard transform and
//! picks the largest magnitude (first one on ties), all without
//! data-dependent branches or indices.

use core::hint::black_box;

use crate::params::ParameterSet;

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
pub(crate) fn encode_byte(x: u8) -> (u64, u64) {
    let x = black_box(u64::from(x));
    let (mut lo, mut hi) = (0u64, 0u64);
    for (i, &(rl, rh)) in RM_ROWS.iter().enumerate() {
        let mask = black_box(((x >> i) & 1).wrapping_neg());
        lo ^= rl & mask;
        hi ^= rh & mask;
    }
    (lo, hi)
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
/// first n1·n2 bits of `word` into `cw` (n1 bytes). Inlined into the PKE
/// decryption frame, which every backend compiles for its instruction set.
#[inline(always)]
pub(crate) fn decode<P: ParameterSet>(cw: &mut [u8], word: &[u64]) {
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

/// Index of the largest |s\[j\]| (first on ties), plus 128 when that entry is
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rm_roundtrip_all_bytes() {
        for x in 0..=255u8 {
            let (lo, hi) = encode_byte(x);
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
}
