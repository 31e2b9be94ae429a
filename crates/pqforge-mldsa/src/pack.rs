//! Bit packing of FIPS 204 §7.1 (Algorithms 16-19): coefficient i takes
//! bits [i·b, (i+1)·b) of a little-endian bit string.

use crate::params::N;

/// Packs 256 values of `bits` bits each (every value < 2^bits) into
/// `out` (32 · bits bytes).
#[cfg(test)]
pub fn pack(v: &[u32; N], bits: u32, out: &mut [u8]) {
    pack_with(|i| v[i], bits, out);
}

/// [`pack`] of non-negative `i32` values (w1, t1): no `u32` copy.
pub fn pack_i32(v: &[i32; N], bits: u32, out: &mut [u8]) {
    pack_with(|i| v[i] as u32, bits, out);
}

/// [`pack`] of the values `get(0)`, ..., `get(255)`: the packers read
/// their input through a closure so that callers transforming values on
/// the way (BitPack's b - w_i) need no 1 KB temporary (the Cortex-M4's
/// stack).
#[inline(always)]
pub(crate) fn pack_with(get: impl Fn(usize) -> u32, bits: u32, out: &mut [u8]) {
    debug_assert_eq!(out.len(), 32 * bits as usize);
    match bits {
        3 => pack_c::<3>(get, out),
        4 => pack_c::<4>(get, out),
        6 => pack_c::<6>(get, out),
        10 => pack_c::<10>(get, out),
        13 => pack_c::<13>(get, out),
        18 => pack_c::<18>(get, out),
        20 => pack_c::<20>(get, out),
        _ => pack_any(get, bits, out),
    }
}

/// Unpacks 256 values of `bits` bits each from `bytes` (32 · bits bytes).
#[cfg(test)]
pub fn unpack(bytes: &[u8], bits: u32, v: &mut [u32; N]) {
    unpack_with(bytes, bits, |i, x| v[i] = x);
}

/// [`unpack`] handing value i to `set(i, value)` (see [`pack_with`]).
#[inline(always)]
pub(crate) fn unpack_with(bytes: &[u8], bits: u32, set: impl FnMut(usize, u32)) {
    debug_assert_eq!(bytes.len(), 32 * bits as usize);
    match bits {
        3 => unpack_c::<3>(bytes, set),
        4 => unpack_c::<4>(bytes, set),
        6 => unpack_c::<6>(bytes, set),
        10 => unpack_c::<10>(bytes, set),
        13 => unpack_c::<13>(bytes, set),
        18 => unpack_c::<18>(bytes, set),
        20 => unpack_c::<20>(bytes, set),
        _ => unpack_any(bytes, bits, set),
    }
}

/// Coefficients per group of whole bytes for width `B` (the group fits a
/// u128).
const fn group(b: usize) -> usize {
    if b <= 16 { 8 } else { 4 }
}

/// [`pack`] for one width: groups of 8 (or 4) values, B bytes (or B / 2),
/// straight-line (no data-dependent branch).
#[inline(always)]
fn pack_c<const B: usize>(get: impl Fn(usize) -> u32, out: &mut [u8]) {
    let g = group(B);
    let gb = B * g / 8;
    // Index loops with constant strides: `chunks_exact` + `zip` compute
    // their lengths with a division, which the division scan cannot tell
    // from a secret one once opt-level z outlines it.
    // A slice of known length (32 B bytes): no length arithmetic left.
    let Some(out) = out.get_mut(..32 * B) else {
        return;
    };
    for k in 0..N / g {
        let o = &mut out[gb * k..gb * (k + 1)];
        let mut acc = 0u128;
        for j in 0..g {
            acc |= u128::from(get(g * k + j)) << (j * B);
        }
        o.copy_from_slice(&acc.to_le_bytes()[..gb]);
    }
}

/// [`unpack`] for one width.
#[inline(always)]
fn unpack_c<const B: usize>(bytes: &[u8], mut set: impl FnMut(usize, u32)) {
    let g = group(B);
    let gb = B * g / 8;
    let mask = (1u128 << B) - 1;
    let Some(bytes) = bytes.get(..32 * B) else {
        return;
    };
    for k in 0..N / g {
        let i = &bytes[gb * k..gb * (k + 1)];
        let mut b = [0u8; 16];
        b[..gb].copy_from_slice(i);
        let acc = u128::from_le_bytes(b);
        for j in 0..g {
            set(g * k + j, ((acc >> (j * B)) & mask) as u32);
        }
    }
}

/// [`pack`] for any width up to 32 bits.
fn pack_any(get: impl Fn(usize) -> u32, bits: u32, out: &mut [u8]) {
    let mut acc = 0u64;
    let mut n = 0u32;
    let mut o = 0;
    for i in 0..N {
        acc |= u64::from(get(i)) << n;
        n += bits;
        while n >= 8 {
            out[o] = acc as u8;
            o += 1;
            acc >>= 8;
            n -= 8;
        }
    }
}

/// [`unpack`] for any width up to 32 bits.
fn unpack_any(bytes: &[u8], bits: u32, mut set: impl FnMut(usize, u32)) {
    let mask = (1u64 << bits) - 1;
    let mut acc = 0u64;
    let mut n = 0u32;
    let mut it = bytes.iter();
    for i in 0..N {
        while n < bits {
            acc |= u64::from(*it.next().unwrap_or(&0)) << n;
            n += 8;
        }
        set(i, (acc & mask) as u32);
        acc >>= bits;
        n -= bits;
    }
}

/// BitPack(w, a, b) (Algorithm 17): stores b - w_i for w_i in [-a, b].
pub fn pack_signed(w: &[i32; N], b: i32, bits: u32, out: &mut [u8]) {
    pack_with(|i| (b - w[i]) as u32, bits, out);
}

/// BitUnpack(·, a, b) (Algorithm 19): w_i = b - field.
pub fn unpack_signed(bytes: &[u8], b: i32, bits: u32, w: &mut [i32; N]) {
    unpack_with(bytes, bits, |i, x| w[i] = b - x as i32);
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqforge_core::testing::TestRng;

    #[test]
    fn roundtrip_every_width() {
        let mut rng = TestRng::new(9);
        for bits in [3, 4, 6, 10, 13, 18, 20] {
            let v: [u32; N] = core::array::from_fn(|_| rng.next_u32() & ((1 << bits) - 1));
            let mut buf = [0u8; 32 * 20];
            let bytes = &mut buf[..32 * bits as usize];
            pack(&v, bits, bytes);
            let mut back = [0u32; N];
            unpack(bytes, bits, &mut back);
            assert_eq!(v, back, "{bits} bits");
            // The fixed-width code equals the bit-serial reference.
            let mut other = [0u8; 32 * 20];
            pack_any(|i| v[i], bits, &mut other[..32 * bits as usize]);
            assert_eq!(&other[..32 * bits as usize], &buf[..32 * bits as usize]);
            unpack_any(&other[..32 * bits as usize], bits, |i, x| back[i] = x);
            assert_eq!(v, back, "{bits} bits, reference");
        }
        // Bit order: the first value sits in the low bits of byte 0.
        let mut v = [0u32; N];
        v[0] = 0x3FF;
        v[1] = 1;
        let mut bytes = [0u8; 320];
        pack(&v, 10, &mut bytes);
        assert_eq!(&bytes[..3], &[0xFF, 0x07, 0x00]);
    }
}
