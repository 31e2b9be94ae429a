//! FN-DSA (putative draft) encodings: every bit field is packed least
//! significant bit first (unlike round-3 Falcon, which packs big-endian).
//!
//! * public key: 14 bits per value mod q (four values in seven bytes);
//! * secret key: f, g, F as fixed-width two's-complement integers;
//! * signature: s2 in the compressed format (sign bit, 7 low bits of the
//!   absolute value, then the high part in unary terminated by a 1 bit),
//!   every coefficient at most [`B_INF`] in absolute value, zero-padded.
//!
//! Decoders accept exactly one encoding per value.

/// Infinity-norm bound on the coefficients of s1 and s2.
pub(crate) const B_INF: u32 = 840;

/// Packs values < 2^14 (14 bits each, LSB first). `out` holds exactly
/// 14 n / 8 bytes.
pub(crate) fn modq_encode(out: &mut [u8], x: &[u16]) {
    let mut acc = 0u32;
    let mut acc_len = 0;
    let mut v = 0;
    for &c in x {
        acc |= u32::from(c) << acc_len;
        acc_len += 14;
        while acc_len >= 8 {
            out[v] = acc as u8;
            v += 1;
            acc >>= 8;
            acc_len -= 8;
        }
    }
}

/// Unpacks `x.len()` values from exactly 14 n / 8 bytes; `false` if the
/// length is wrong or a value is >= q. Work on public data.
pub(crate) fn modq_decode(x: &mut [u16], input: &[u8]) -> bool {
    if input.len() * 8 != x.len() * 14 {
        return false;
    }
    let mut acc = 0u32;
    let mut acc_len = 0;
    let mut u = 0;
    let mut ok = true;
    for &b in input {
        acc |= u32::from(b) << acc_len;
        acc_len += 8;
        if acc_len >= 14 {
            let w = acc & 0x3FFF;
            acc >>= 14;
            acc_len -= 14;
            ok &= w < 12289;
            x[u] = w as u16;
            u += 1;
        }
    }
    ok
}

/// Packs small signed integers on `bits` bits each (LSB first); values
/// must fit (keygen guarantees it). CT: no data-dependent branch.
pub(crate) fn trim_i8_encode(out: &mut [u8], x: &[i8], bits: u32) -> usize {
    let mask = (1u32 << bits) - 1;
    let mut acc = 0u32;
    let mut acc_len = 0;
    let mut v = 0;
    for &c in x {
        acc |= (u32::from(c as u8) & mask) << acc_len;
        acc_len += bits;
        while acc_len >= 8 {
            out[v] = acc as u8;
            v += 1;
            acc >>= 8;
            acc_len -= 8;
        }
    }
    v
}

/// Unpacks `x.len()` signed `bits`-bit integers from the first
/// `x.len() * bits / 8` bytes of `input` (which must be long enough).
/// Returns the bytes consumed and a mask (all ones when the reserved value
/// -2^(bits-1) never occurs). CT: no branch on the values.
pub(crate) fn trim_i8_decode(x: &mut [i8], bits: u32, input: &[u8]) -> (usize, u32) {
    let len = x.len() * bits as usize / 8;
    let mask1 = (1u32 << bits) - 1;
    let mask2 = 1u32 << (bits - 1);
    let mut acc = 0u32;
    let mut acc_len = 0;
    let mut bad = 0u32;
    let mut u = 0;
    for &b in &input[..len] {
        acc |= u32::from(b) << acc_len;
        acc_len += 8;
        while acc_len >= bits {
            let mut w = acc & mask1;
            acc >>= bits;
            acc_len -= bits;
            w |= (w & mask2).wrapping_neg();
            bad |= pqforge_core::ct::eq_mask_u32(w, mask2.wrapping_neg());
            x[u] = w as i32 as i8;
            u += 1;
        }
    }
    (len, !bad)
}

/// Compressed encoding of s2 into all of `out`, zero-padded. `false` if a
/// coefficient exceeds [`B_INF`] in absolute value or `out` is too short.
/// Works on public data (the accepted signature).
pub(crate) fn comp_encode(out: &mut [u8], x: &[i16]) -> bool {
    let mut acc = 0u32;
    let mut acc_len = 0u32;
    let mut v = 0;
    for &c in x {
        let w = u32::from(c.unsigned_abs());
        if w > B_INF {
            return false;
        }
        let sign = u32::from(c < 0);
        acc |= (sign | ((w & 0x7F) << 1)) << acc_len;
        acc_len += 8;
        let wh = w >> 7;
        acc |= 1 << (acc_len + wh);
        acc_len += wh + 1;
        while acc_len >= 8 {
            let Some(o) = out.get_mut(v) else {
                return false;
            };
            *o = acc as u8;
            v += 1;
            acc >>= 8;
            acc_len -= 8;
        }
    }
    if acc_len > 0 {
        let Some(o) = out.get_mut(v) else {
            return false;
        };
        *o = acc as u8;
        v += 1;
    }
    out[v..].fill(0);
    true
}

/// Decodes a compressed s2 occupying all of `input` (the rest must be zero
/// padding). Rejects "-0", coefficients above [`B_INF`], truncated input
/// and nonzero unused bits.
pub(crate) fn comp_decode(x: &mut [i16], input: &[u8]) -> bool {
    let mut acc = 0u32;
    let mut acc_len = 0u32;
    let mut v = 0;
    for c in x.iter_mut() {
        let Some(&b) = input.get(v) else {
            return false;
        };
        v += 1;
        acc |= u32::from(b) << acc_len;
        let sign = acc & 1;
        let mut m = (acc >> 1) & 0x7F;
        acc >>= 8;
        // acc now holds acc_len pending bits; the unary part needs a 1 bit.
        if acc == 0 {
            let Some(&b) = input.get(v) else {
                return false;
            };
            v += 1;
            acc |= u32::from(b) << acc_len;
            acc_len += 8;
            if acc == 0 {
                return false;
            }
        }
        let tz = acc.trailing_zeros();
        m += tz << 7;
        if m > B_INF {
            return false;
        }
        acc >>= tz + 1;
        acc_len -= tz + 1;
        if sign == 1 && m == 0 {
            return false;
        }
        *c = if sign == 1 { -(m as i16) } else { m as i16 };
    }
    acc == 0 && input[v..].iter().all(|&b| b == 0)
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
