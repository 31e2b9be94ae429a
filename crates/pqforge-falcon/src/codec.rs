//! Encodings (Falcon specification v1.2, section 3.11), for both bit
//! orders: round-3 Falcon packs every field big-endian ([`Msb`]: the
//! first value's most significant bit first), FN-DSA little-endian
//! ([`Lsb`]). Public key: 14 bits per coefficient mod q; secret key
//! polynomials: fixed-width signed integers; signature: s2 compressed
//! (sign bit, 7 low bits, the high part in unary), coefficients bounded
//! by 2047 (round 3) or 840 (FN-DSA).
//!
//! Every decoder accepts exactly one encoding per value: trailing bits must
//! be zero, "-0" and the reserved value -2^(bits-1) are rejected. Decoders
//! return the number of bytes consumed, or `None`.

/// Bits per coefficient of f and g in the secret key, indexed by logn.
pub(crate) const MAX_FG_BITS: [u32; 11] = [0, 8, 8, 8, 8, 8, 7, 7, 6, 6, 5];
/// Bits per coefficient of F (and G) in the secret key, indexed by logn.
pub(crate) const MAX_FG_BITS_BIG: [u32; 11] = [0, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8];

/// Largest |s2| coefficient of a round-3 compressed signature.
pub(crate) const ROUND3_COMP_BOUND: u32 = 2047;

/// The bit order of a packed stream. `acc` holds the `len` pending bits
/// (at its bottom for [`Msb`], where older bits sit above newer ones; all
/// of it for [`Lsb`]).
pub(crate) trait BitOrder {
    /// Appends the low `bits` bits of `v` (len + bits <= 32, v < 2^bits).
    fn put(acc: u32, len: u32, v: u32, bits: u32) -> u32;
    /// The oldest byte of `len` >= 8 pending bits, and the accumulator
    /// without it.
    fn take_byte(acc: u32, len: u32) -> (u8, u32);
    /// The last partial byte (`len` < 8 pending bits, zero-padded).
    fn last_byte(acc: u32, len: u32) -> u8;
    /// Appends the input byte `b`.
    fn feed(acc: u32, len: u32, b: u8) -> u32;
    /// The oldest `bits` of `len` >= bits pending bits, and the
    /// accumulator without them.
    fn pull(acc: u32, len: u32, bits: u32) -> (u32, u32);
    /// The 9 + k bits of a compressed coefficient: the sign bit, the seven
    /// low bits `low` of |c|, then k = |c| >> 7 in unary (k zero bits, a
    /// one bit).
    fn comp_code(sign: u32, low: u32, k: u32) -> u32;
    /// (sign bit, low seven bits) of a compressed coefficient's first byte
    /// as [`BitOrder::pull`] returns it.
    fn header(b: u32) -> (u32, u32);
}

/// Round-3 bit order: most significant bit first.
pub(crate) struct Msb;

/// FN-DSA bit order: least significant bit first.
#[cfg_attr(not(feature = "fndsa"), allow(dead_code))]
pub(crate) struct Lsb;

impl BitOrder for Msb {
    #[inline(always)]
    fn put(acc: u32, _len: u32, v: u32, bits: u32) -> u32 {
        (acc << bits) | v
    }
    #[inline(always)]
    fn take_byte(acc: u32, len: u32) -> (u8, u32) {
        ((acc >> (len - 8)) as u8, acc)
    }
    #[inline(always)]
    fn last_byte(acc: u32, len: u32) -> u8 {
        (acc << (8 - len)) as u8
    }
    #[inline(always)]
    fn feed(acc: u32, _len: u32, b: u8) -> u32 {
        (acc << 8) | u32::from(b)
    }
    #[inline(always)]
    fn pull(acc: u32, len: u32, bits: u32) -> (u32, u32) {
        ((acc >> (len - bits)) & ((1 << bits) - 1), acc)
    }
    #[inline(always)]
    fn comp_code(sign: u32, low: u32, k: u32) -> u32 {
        (((sign << 7) | low) << (k + 1)) | 1
    }
    #[inline(always)]
    fn header(b: u32) -> (u32, u32) {
        (b >> 7, b & 0x7F)
    }
}

impl BitOrder for Lsb {
    #[inline(always)]
    fn put(acc: u32, len: u32, v: u32, _bits: u32) -> u32 {
        acc | (v << len)
    }
    #[inline(always)]
    fn take_byte(acc: u32, _len: u32) -> (u8, u32) {
        (acc as u8, acc >> 8)
    }
    #[inline(always)]
    fn last_byte(acc: u32, _len: u32) -> u8 {
        acc as u8
    }
    #[inline(always)]
    fn feed(acc: u32, len: u32, b: u8) -> u32 {
        acc | (u32::from(b) << len)
    }
    #[inline(always)]
    fn pull(acc: u32, _len: u32, bits: u32) -> (u32, u32) {
        (acc & ((1 << bits) - 1), acc >> bits)
    }
    #[inline(always)]
    fn comp_code(sign: u32, low: u32, k: u32) -> u32 {
        sign | (low << 1) | (1 << (8 + k))
    }
    #[inline(always)]
    fn header(b: u32) -> (u32, u32) {
        (b & 1, b >> 1)
    }
}

/// Writes bit fields into a byte buffer.
struct Writer<'a, O> {
    out: &'a mut [u8],
    pos: usize,
    acc: u32,
    len: u32,
    order: core::marker::PhantomData<O>,
}

impl<'a, O: BitOrder> Writer<'a, O> {
    fn new(out: &'a mut [u8]) -> Self {
        Writer {
            out,
            pos: 0,
            acc: 0,
            len: 0,
            order: core::marker::PhantomData,
        }
    }

    /// Appends `bits` bits of value `v` (bits + 7 <= 32); `None` if `out`
    /// is full.
    #[inline(always)]
    fn put(&mut self, v: u32, bits: u32) -> Option<()> {
        self.acc = O::put(self.acc, self.len, v, bits);
        self.len += bits;
        while self.len >= 8 {
            let (b, acc) = O::take_byte(self.acc, self.len);
            *self.out.get_mut(self.pos)? = b;
            self.acc = acc;
            self.pos += 1;
            self.len -= 8;
        }
        Some(())
    }

    /// Writes the last partial byte; returns the bytes written.
    fn finish(mut self) -> Option<usize> {
        if self.len > 0 {
            *self.out.get_mut(self.pos)? = O::last_byte(self.acc, self.len);
            self.pos += 1;
        }
        Some(self.pos)
    }
}

/// Reads bit fields from a byte buffer.
struct Reader<'a, O> {
    input: &'a [u8],
    pos: usize,
    acc: u32,
    len: u32,
    order: core::marker::PhantomData<O>,
}

impl<'a, O: BitOrder> Reader<'a, O> {
    fn new(input: &'a [u8]) -> Self {
        Reader {
            input,
            pos: 0,
            acc: 0,
            len: 0,
            order: core::marker::PhantomData,
        }
    }

    /// The next eight bits, when fewer than eight are pending (one more
    /// byte); `None` if the input ends.
    #[inline(always)]
    fn byte(&mut self) -> Option<u32> {
        self.acc = O::feed(self.acc, self.len, *self.input.get(self.pos)?);
        self.pos += 1;
        let (v, acc) = O::pull(self.acc, self.len + 8, 8);
        self.acc = acc;
        Some(v)
    }

    /// The next bit; `None` if the input ends.
    #[inline(always)]
    fn bit(&mut self) -> Option<u32> {
        if self.len == 0 {
            self.acc = O::feed(self.acc, 0, *self.input.get(self.pos)?);
            self.pos += 1;
            self.len = 8;
        }
        let (v, acc) = O::pull(self.acc, self.len, 1);
        self.acc = acc;
        self.len -= 1;
        Some(v)
    }

    /// The unused bits of the last byte read (zero in a valid encoding).
    #[inline(always)]
    fn rest(&self) -> u32 {
        O::pull(self.acc, self.len, self.len).0
    }
}

/// Encodes h (coefficients < q) on 14 bits each. `out` must hold exactly
/// ceil(14 n / 8) bytes.
pub(crate) fn modq_encode<O: BitOrder>(out: &mut [u8], x: &[u16]) {
    let mut w = Writer::<O>::new(out);
    for &c in x {
        let _ = w.put(u32::from(c), 14);
    }
    let _ = w.finish();
}

/// Decodes `x.len()` coefficients from the first ceil(14 n / 8) bytes of
/// `input`; rejects values >= q and nonzero trailing bits. Works on public
/// data (it stops at the first bad value).
pub(crate) fn modq_decode<O: BitOrder>(x: &mut [u16], input: &[u8]) -> Option<usize> {
    let n = x.len();
    let in_len = (n * 14).div_ceil(8);
    let (mut acc, mut len) = (0u32, 0u32);
    let mut u = 0;
    // A byte at a time: ceil(14 n / 8) bytes hold exactly n values.
    for &b in input.get(..in_len)? {
        acc = O::feed(acc, len, b);
        len += 8;
        if len >= 14 {
            let (w, rest) = O::pull(acc, len, 14);
            (acc, len) = (rest, len - 14);
            if w >= 12289 {
                return None;
            }
            x[u] = w as u16;
            u += 1;
        }
    }
    (O::pull(acc, len, len).0 == 0).then_some(in_len)
}

/// Encodes small signed integers on `bits` bits each (two's complement).
/// Values must lie in [-(2^(bits-1) - 1), 2^(bits-1) - 1] (guaranteed by
/// keygen); `out` must be long enough. Returns the bytes written. CT: no
/// data-dependent branch.
pub(crate) fn trim_i8_encode<O: BitOrder>(out: &mut [u8], x: &[i8], bits: u32) -> usize {
    let mask = (1u32 << bits) - 1;
    let mut w = Writer::<O>::new(out);
    for &c in x {
        let _ = w.put(u32::from(c as u8) & mask, bits);
    }
    w.finish().unwrap_or(0)
}

/// Decodes `x.len()` signed integers of `bits` bits. Returns the bytes
/// consumed and a validity mask (0xFFFFFFFF when the reserved value
/// -2^(bits-1) never occurs and the trailing bits are zero), `None` if
/// `input` is too short. CT: the secret data never drives a branch; the
/// caller declassifies the validity bit (a malformed key is a public
/// fact).
pub(crate) fn trim_i8_decode<O: BitOrder>(
    x: &mut [i8],
    bits: u32,
    input: &[u8],
) -> Option<(usize, u32)> {
    let n = x.len();
    let in_len = (n * bits as usize).div_ceil(8);
    let mask2 = 1u32 << (bits - 1);
    let (mut acc, mut len) = (0u32, 0u32);
    let mut bad = 0u32;
    let mut u = 0;
    // A byte at a time.
    for &b in input.get(..in_len)? {
        acc = O::feed(acc, len, b);
        len += 8;
        while len >= bits && u < n {
            let (mut w, rest) = O::pull(acc, len, bits);
            (acc, len) = (rest, len - bits);
            w |= (w & mask2).wrapping_neg();
            // w == -mask2 (the reserved value): bad.
            bad |= pqforge_core::ct::eq_mask_u32(w, mask2.wrapping_neg());
            x[u] = w as i32 as i8;
            u += 1;
        }
    }
    bad |= pqforge_core::ct::nonzero_mask_u32(O::pull(acc, len, len).0);
    Some((in_len, !bad))
}

/// Compressed encoding of s2 (sign bit, 7 low bits of |c|, |c| >> 7 in
/// unary). Returns the length, or `None` if a coefficient is outside
/// [-bound, bound] or `out` is too short. Works on public data (the final
/// signature).
pub(crate) fn comp_encode<O: BitOrder>(out: &mut [u8], x: &[i16], bound: u32) -> Option<usize> {
    if x.iter().any(|&c| u32::from(c.unsigned_abs()) > bound) {
        return None;
    }
    let mut w = Writer::<O>::new(out);
    for &c in x {
        let t = u32::from(c.unsigned_abs());
        // At most 9 + 15 bits (t <= 2047).
        w.put(
            O::comp_code(u32::from(c < 0), t & 127, t >> 7),
            9 + (t >> 7),
        )?;
    }
    w.finish()
}

/// Whether [`comp_encode`] of `x` with `bound` fits `cap` bytes, in
/// constant time: every |c| <= bound (bound < 2^15) and the 9 + (|c| >> 7)
/// bits per coefficient fill at most `cap` bytes. Signing asks this before
/// declassifying a candidate s2: a candidate that does not fit is discarded
/// while still secret (the encoder itself branches on the values).
pub(crate) fn comp_fits(x: &[i16], bound: u32, cap: usize) -> bool {
    let mut bits = 0u64;
    let mut over = 0u32;
    for &c in x {
        let v = i32::from(c);
        let m = v >> 31;
        let t = ((v ^ m) - m) as u32;
        // Bit 31 is set iff t > bound (both below 2^16).
        over |= bound.wrapping_sub(t);
        bits += u64::from(9 + (t >> 7));
    }
    // Bit 63 is set iff bits > 8 cap (no secret comparison).
    let room = (cap as u64 * 8).wrapping_sub(bits);
    let bad = (over >> 31) | (room >> 63) as u32;
    crate::ct_util::declassify_bool(bad == 0)
}

/// Decodes a compressed s2 from a prefix of `input`; returns the bytes
/// consumed. Rejects "-0", coefficients above `bound`, input exhausted
/// mid-coefficient, and nonzero unused bits in the last byte read.
pub(crate) fn comp_decode<O: BitOrder>(x: &mut [i16], input: &[u8], bound: u32) -> Option<usize> {
    let mut r = Reader::<O>::new(input);
    for c in x.iter_mut() {
        // (Fewer than eight bits are pending between coefficients.)
        let (s, mut m) = O::header(r.byte()?);
        while r.bit()? == 0 {
            m += 128;
            if m > bound {
                return None;
            }
        }
        if s != 0 && m == 0 {
            return None;
        }
        *c = if s != 0 { -(m as i16) } else { m as i16 };
    }
    (r.rest() == 0).then_some(r.pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `comp_fits` says yes exactly when `comp_encode` succeeds: random
    /// vectors of growing magnitude against every capacity around the
    /// encoded length, and the bound's edges.
    #[test]
    fn comp_fits_matches_the_encoder() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut buf = [0u8; 2048];
        // Under Miri one round per spread.
        for round in 0..if cfg!(miri) { 12 } else { 200u32 } {
            let spread = 1 + (round % 12) * 200;
            let x: [i16; 64] = core::array::from_fn(|_| {
                let v = (next() % (2 * u64::from(spread) + 1)) as i32 - spread as i32;
                v as i16
            });
            for bound in [2047u32, 840, 100] {
                let full = comp_encode::<Msb>(&mut buf, &x, bound);
                for cap in [0usize, 1, 64, 72, 80, 90, 100, 128, 200, 400, 2048] {
                    let enc = comp_encode::<Msb>(&mut buf[..cap], &x, bound).is_some();
                    assert_eq!(
                        comp_fits(&x, bound, cap),
                        enc,
                        "round {round} bound {bound} cap {cap}"
                    );
                    if let Some(n) = full {
                        assert_eq!(enc, n <= cap);
                    }
                }
            }
        }
        assert!(comp_fits(&[2047, -2047], 2047, 8));
        assert!(!comp_fits(&[2048], 2047, 8));
        assert!(!comp_fits(&[i16::MIN], 2047, 4096));
        assert!(!comp_fits(&[i16::MAX], 2047, 4096));
        assert!(comp_fits(&[], 2047, 0));
    }

    /// Round-3 compressed encoding: known bytes, strictness.
    #[test]
    fn comp_round3() {
        // 3: 0 0000011 1; -130: 1 0000010 01 -> 00000011 11000001 001(00000).
        let mut b = [0u8; 4];
        assert_eq!(comp_encode::<Msb>(&mut b, &[3, -130], 2047), Some(3));
        assert_eq!(b[..3], [0x03, 0xC1, 0x20]);
        let mut x = [0i16; 2];
        assert_eq!(comp_decode::<Msb>(&mut x, &b, 2047), Some(3));
        assert_eq!(x, [3, -130]);
        // "-0" and nonzero trailing bits.
        assert_eq!(comp_decode::<Msb>(&mut x[..1], &[0x80, 0x80], 2047), None);
        assert_eq!(
            comp_decode::<Msb>(&mut x[..1], &[0x00, 0x80], 2047),
            Some(2)
        );
        assert_eq!(comp_decode::<Msb>(&mut x, &[0x03, 0xC1, 0x21], 2047), None);
    }

    /// Both bit orders round-trip every field.
    #[test]
    fn roundtrips() {
        fn check<O: BitOrder>() {
            let h: [u16; 8] = [0, 1, 12288, 4000, 5, 12000, 77, 8191];
            let mut b = [0u8; 14];
            modq_encode::<O>(&mut b, &h);
            let mut y = [0u16; 8];
            assert_eq!(modq_decode::<O>(&mut y, &b), Some(14));
            assert_eq!(h, y);
            let f: [i8; 8] = [-15, 15, 0, -1, 7, -8, 3, 1];
            let mut b = [0u8; 5];
            assert_eq!(trim_i8_encode::<O>(&mut b, &f, 5), 5);
            let mut g = [0i8; 8];
            assert_eq!(trim_i8_decode::<O>(&mut g, 5, &b), Some((5, u32::MAX)));
            assert_eq!(f, g);
            let s: [i16; 5] = [0, -1, 840, -700, 129];
            let mut b = [0u8; 16];
            let len = comp_encode::<O>(&mut b, &s, 840).expect("fits");
            let mut t = [0i16; 5];
            assert_eq!(comp_decode::<O>(&mut t, &b[..len], 840), Some(len));
            assert_eq!(s, t);
            assert_eq!(comp_encode::<O>(&mut b, &[841], 840), None);
        }
        check::<Msb>();
        check::<Lsb>();
    }
}
