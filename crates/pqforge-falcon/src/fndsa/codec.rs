//! FN-DSA (putative draft) encodings: the round-3 formats of
//! [`crate::codec`] with every bit field packed least significant bit
//! first ([`Lsb`]), and these differences:
//!
//! * public key: NTT(h) (the caller transforms), 14 bits per value, whose
//!   length is always a whole number of bytes;
//! * signature: every |s2| coefficient at most [`B_INF`], zero-padded to
//!   the fixed signature length (the padding must be zero).
//!
//! Decoders accept exactly one encoding per value.

use crate::codec::{self, Lsb};

pub(crate) use codec::Lsb as Order;

/// Infinity-norm bound on the coefficients of s1 and s2.
pub(crate) const B_INF: u32 = 840;

/// Packs values < 2^14 (14 bits each). `out` holds exactly 14 n / 8 bytes.
pub(crate) fn modq_encode(out: &mut [u8], x: &[u16]) {
    codec::modq_encode::<Lsb>(out, x);
}

/// Unpacks `x.len()` values from exactly 14 n / 8 bytes; `false` if the
/// length is wrong or a value is >= q. Works on public data.
pub(crate) fn modq_decode(x: &mut [u16], input: &[u8]) -> bool {
    input.len() * 8 == x.len() * 14 && codec::modq_decode::<Lsb>(x, input).is_some()
}

/// Compressed encoding of s2 into all of `out`, zero-padded. `false` if a
/// coefficient exceeds [`B_INF`] in absolute value or `out` is too short.
/// Works on public data (the accepted signature).
pub(crate) fn comp_encode(out: &mut [u8], x: &[i16]) -> bool {
    match codec::comp_encode::<Lsb>(out, x, B_INF) {
        Some(v) => {
            out[v..].fill(0);
            true
        }
        None => false,
    }
}

/// Decodes a compressed s2 occupying all of `input` (the rest must be zero
/// padding). Rejects "-0", coefficients above [`B_INF`], truncated input
/// and nonzero unused bits.
pub(crate) fn comp_decode(x: &mut [i16], input: &[u8]) -> bool {
    codec::comp_decode::<Lsb>(x, input, B_INF).is_some_and(|v| input[v..].iter().all(|&b| b == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comp_roundtrip_and_strictness() {
        let mut s = [0i16; 16];
        for (i, x) in s.iter_mut().enumerate() {
            *x = ((i as i16) * 97 - 700) % 841;
        }
        s[3] = 840;
        s[4] = -840;
        let mut buf = [0u8; 64];
        assert!(comp_encode(&mut buf, &s));
        let mut t = [0i16; 16];
        assert!(comp_decode(&mut t, &buf));
        assert_eq!(s, t);
        // Trailing garbage is rejected.
        let mut bad = buf;
        bad[63] = 1;
        assert!(!comp_decode(&mut t, &bad));
        // Out of range.
        s[0] = 841;
        assert!(!comp_encode(&mut buf, &s));
        // "-0": sign bit with a zero magnitude.
        assert!(!comp_decode(&mut t[..1], &[0x01, 0x01]));
        assert!(comp_decode(&mut t[..1], &[0x00, 0x01]));
    }

    #[test]
    fn modq_roundtrip() {
        let x: [u16; 8] = [0, 1, 12288, 4000, 5, 12000, 77, 8191];
        let mut b = [0u8; 14];
        modq_encode(&mut b, &x);
        let mut y = [0u16; 8];
        assert!(modq_decode(&mut y, &b));
        assert_eq!(x, y);
        b[0] = 0xFF;
        b[1] = 0x3F;
        assert!(!modq_decode(&mut y, &b));
    }
}
