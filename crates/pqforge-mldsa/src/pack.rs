//! Bit packing of FIPS 204 §7.1 (Algorithms 16-19): coefficient i takes
//! bits [i·b, (i+1)·b) of a little-endian bit string.

use crate::params::N;

/// Packs 256 values of `bits` bits each (every value < 2^bits) into
/// `out` (32 · bits bytes).
pub fn pack(v: &[u32; N], bits: u32, out: &mut [u8]) {
    debug_assert_eq!(out.len(), 32 * bits as usize);
    let mut acc = 0u64;
    let mut n = 0u32;
    let mut o = 0;
    for &x in v {
        acc |= u64::from(x) << n;
        n += bits;
        while n >= 8 {
            out[o] = acc as u8;
            o += 1;
            acc >>= 8;
            n -= 8;
        }
    }
}

/// Unpacks 256 values of `bits` bits each from `bytes` (32 · bits bytes).
pub fn unpack(bytes: &[u8], bits: u32, v: &mut [u32; N]) {
    debug_assert_eq!(bytes.len(), 32 * bits as usize);
    let mask = (1u64 << bits) - 1;
    let mut acc = 0u64;
    let mut n = 0u32;
    let mut it = bytes.iter();
    for x in v.iter_mut() {
        while n < bits {
            acc |= u64::from(*it.next().unwrap_or(&0)) << n;
            n += 8;
        }
        *x = (acc & mask) as u32;
        acc >>= bits;
        n -= bits;
    }
}

/// BitPack(w, a, b) (Algorithm 17): stores b - w_i for w_i in [-a, b].
pub fn pack_signed(w: &[i32; N], b: i32, bits: u32, out: &mut [u8]) {
    let v: [u32; N] = core::array::from_fn(|i| (b - w[i]) as u32);
    pack(&v, bits, out);
}

/// BitUnpack(·, a, b) (Algorithm 19): w_i = b - field.
pub fn unpack_signed(bytes: &[u8], b: i32, bits: u32, w: &mut [i32; N]) {
    let mut v = [0u32; N];
    unpack(bytes, bits, &mut v);
    for (w, v) in w.iter_mut().zip(v) {
        *w = b - v as i32;
    }
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
