//! The concatenated code of HQC: an outer shortened Reed-Solomon code
//! ([`rs`]) and an inner duplicated Reed-Muller RM(1,7) code ([`rm`]).
//!
//! Each RS codeword byte becomes a 128-bit RM(1,7) codeword repeated
//! n2/128 times (3 for HQC-1, 5 for HQC-3/5); byte i occupies bits
//! `[i·n2, (i+1)·n2)` of the n1·n2-bit word.

mod rm;
mod rs;

use crate::params::{MAX_K, MAX_N1, ParameterSet};

/// XORs the encoding of the k-byte message `m` into the first n1·n2 bits
/// of `out`.
pub(crate) fn encode_xor<P: ParameterSet>(out: &mut [u64], m: &[u8]) {
    let mut cw = [0u8; MAX_N1];
    rs::encode::<P>(&mut cw, m);
    let rep = P::N2 / 128;
    for (i, &c) in cw.iter().enumerate().take(P::N1) {
        let (lo, hi) = rm::encode_byte(c);
        let base = i * P::N2 / 64;
        for r in 0..rep {
            out[base + 2 * r] ^= lo;
            out[base + 2 * r + 1] ^= hi;
        }
    }
    zeroize::Zeroize::zeroize(&mut cw);
}

/// Decodes the first n1·n2 bits of `word` into the k-byte message `m`:
/// Reed-Muller then Reed-Solomon decoding. Inlined into the PKE decryption
/// frame, which every backend compiles for its instruction set.
#[inline(always)]
pub(crate) fn decode<P: ParameterSet>(m: &mut [u8], word: &[u64]) {
    let mut cw = [0u8; MAX_N1];
    rm::decode::<P>(&mut cw[..P::N1], word);
    let mut msg = [0u8; MAX_K];
    rs::decode::<P>(&mut msg[..P::K], &cw[..P::N1]);
    m[..P::K].copy_from_slice(&msg[..P::K]);
    zeroize::Zeroize::zeroize(&mut cw);
    zeroize::Zeroize::zeroize(&mut msg);
}

/// The RS codeword (n1 bytes) of `m`, for tests against the reference
/// traces.
#[cfg(test)]
pub(crate) fn rs_codeword<P: ParameterSet>(m: &[u8]) -> [u8; MAX_N1] {
    let mut cw = [0u8; MAX_N1];
    rs::encode::<P>(&mut cw, m);
    cw
}

/// The RM decoding result (n1 bytes) of `word`, for tests.
#[cfg(test)]
pub(crate) fn rm_decode_all<P: ParameterSet>(word: &[u64]) -> [u8; MAX_N1] {
    let mut cw = [0u8; MAX_N1];
    rm::decode::<P>(&mut cw[..P::N1], word);
    cw
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Hqc1, Hqc3};

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
        decode::<P>(&mut out, &w);
        assert_eq!(out[..P::K], m[..P::K]);
    }

    #[test]
    fn concatenated_roundtrip() {
        concat_roundtrip::<Hqc1>();
        concat_roundtrip::<Hqc3>();
    }
}
