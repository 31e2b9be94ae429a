//! Encodings (Falcon specification v1.2, section 3.11): public key (14 bits
//! per coefficient mod q), secret key polynomials (fixed-width signed
//! integers), compressed signature s2.
//!
//! Every decoder accepts exactly one encoding per value: trailing bits must
//! be zero, "-0" and the reserved value -2^(bits-1) are rejected. Decoders
//! return the number of bytes consumed, or `None`.

/// Bits per coefficient of f and g in the secret key, indexed by logn.
pub(crate) const MAX_FG_BITS: [u32; 11] = [0, 8, 8, 8, 8, 8, 7, 7, 6, 6, 5];
/// Bits per coefficient of F (and G) in the secret key, indexed by logn.
pub(crate) const MAX_FG_BITS_BIG: [u32; 11] = [0, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8];

/// Encodes h (coefficients < q) on 14 bits each, big-endian bit order.
/// `out` must hold exactly ceil(14 n / 8) bytes.
pub(crate) fn modq_encode(out: &mut [u8], x: &[u16]) {
    let mut acc = 0u32;
    let mut acc_len = 0;
    let mut v = 0;
    for &c in x {
        acc = (acc << 14) | u32::from(c);
        acc_len += 14;
        while acc_len >= 8 {
            acc_len -= 8;
            out[v] = (acc >> acc_len) as u8;
            v += 1;
        }
    }
    if acc_len > 0 {
        out[v] = (acc << (8 - acc_len)) as u8;
    }
}

/// Decodes `x.len()` coefficients from exactly ceil(14 n / 8) bytes of
/// `input`; rejects values >= q and nonzero trailing bits.
pub(crate) fn modq_decode(x: &mut [u16], input: &[u8]) -> Option<usize> {
    let n = x.len();
    let in_len = (n * 14).div_ceil(8);
    if input.len() < in_len {
        return None;
    }
    let mut acc = 0u32;
    let mut acc_len = 0;
    let mut u = 0;
    let mut v = 0;
    while u < n {
        acc = (acc << 8) | u32::from(input[v]);
        v += 1;
        acc_len += 8;
        if acc_len >= 14 {
            acc_len -= 14;
            let w = (acc >> acc_len) & 0x3FFF;
            if w >= 12289 {
                return None;
            }
            x[u] = w as u16;
            u += 1;
        }
    }
    if acc & ((1u32 << acc_len) - 1) != 0 {
        return None;
    }
    Some(in_len)
}

/// Encodes small signed integers on `bits` bits each (two's complement,
/// big-endian bit order). Values must lie in [-(2^(bits-1) - 1), 2^(bits-1) - 1]
/// (guaranteed by keygen). CT: no data-dependent branch.
pub(crate) fn trim_i8_encode(out: &mut [u8], x: &[i8], bits: u32) -> usize {
    let mask = (1u32 << bits) - 1;
    let mut acc = 0u32;
    let mut acc_len = 0;
    let mut v = 0;
    for &c in x {
        acc = (acc << bits) | (u32::from(c as u8) & mask);
        acc_len += bits;
        while acc_len >= 8 {
            acc_len -= 8;
            out[v] = (acc >> acc_len) as u8;
            v += 1;
        }
    }
    if acc_len > 0 {
        out[v] = (acc << (8 - acc_len)) as u8;
        v += 1;
    }
    v
}

/// Decodes `x.len()` signed integers of `bits` bits. Returns the bytes
/// consumed and a validity mask (0xFFFFFFFF when the reserved value
/// -2^(bits-1) never occurs and the trailing bits are zero).
/// CT: the secret data never drives a branch; the caller declassifies the
/// validity bit (a malformed key is a public fact).
pub(crate) fn trim_i8_decode(x: &mut [i8], bits: u32, input: &[u8]) -> Option<(usize, u32)> {
    let n = x.len();
    let in_len = (n * bits as usize).div_ceil(8);
    if input.len() < in_len {
        return None;
    }
    let mask1 = (1u32 << bits) - 1;
    let mask2 = 1u32 << (bits - 1);
    let mut acc = 0u32;
    let mut acc_len = 0;
    let mut bad = 0u32;
    let mut u = 0;
    let mut v = 0;
    while u < n {
        acc = (acc << 8) | u32::from(input[v]);
        v += 1;
        acc_len += 8;
        while acc_len >= bits && u < n {
            acc_len -= bits;
            let mut w = (acc >> acc_len) & mask1;
            w |= (w & mask2).wrapping_neg();
            // w == -mask2 (the reserved value): bad.
            bad |= pqforge_core::ct::eq_mask_u32(w, mask2.wrapping_neg());
            x[u] = w as i32 as i8;
            u += 1;
        }
    }
    bad |= pqforge_core::ct::nonzero_mask_u32(acc & ((1u32 << acc_len) - 1));
    Some((in_len, !bad))
}

/// Compressed encoding of s2 (sign bit, 7 low bits, unary high part).
/// Returns the length, or `None` if a coefficient is outside [-2047, 2047]
/// or `out` is too short. Works on public data (the final signature).
pub(crate) fn comp_encode(out: &mut [u8], x: &[i16]) -> Option<usize> {
    if x.iter().any(|&c| !(-2047..=2047).contains(&c)) {
        return None;
    }
    let mut acc = 0u32;
    let mut acc_len = 0u32;
    let mut v = 0;
    for &c in x {
        acc <<= 1;
        let mut t = i32::from(c);
        if t < 0 {
            t = -t;
            acc |= 1;
        }
        let mut w = t as u32;
        acc <<= 7;
        acc |= w & 127;
        w >>= 7;
        acc_len += 8;
        acc <<= w + 1;
        acc |= 1;
        acc_len += w + 1;
        while acc_len >= 8 {
            acc_len -= 8;
            *out.get_mut(v)? = (acc >> acc_len) as u8;
            v += 1;
        }
    }
    if acc_len > 0 {
        *out.get_mut(v)? = (acc << (8 - acc_len)) as u8;
        v += 1;
    }
    Some(v)
}

/// Decodes a compressed s2 from a prefix of `input`; returns the bytes
/// consumed. Rejects "-0", coefficients above 2047, input exhausted
/// mid-coefficient, and nonzero unused bits in the last byte read.
pub(crate) fn comp_decode(x: &mut [i16], input: &[u8]) -> Option<usize> {
    let mut acc = 0u32;
    let mut acc_len = 0u32;
    let mut v = 0;
    for c in x.iter_mut() {
        acc = (acc << 8) | u32::from(*input.get(v)?);
        v += 1;
        let b = acc >> acc_len;
        let s = b & 128;
        let mut m = b & 127;
        loop {
            if acc_len == 0 {
                acc = (acc << 8) | u32::from(*input.get(v)?);
                v += 1;
                acc_len = 8;
            }
            acc_len -= 1;
            if (acc >> acc_len) & 1 != 0 {
                break;
            }
            m += 128;
            if m > 2047 {
                return None;
            }
        }
        if s != 0 && m == 0 {
            return None;
        }
        *c = if s != 0 { -(m as i16) } else { m as i16 };
    }
    if acc & ((1u32 << acc_len) - 1) != 0 {
        return None;
    }
    Some(v)
}
