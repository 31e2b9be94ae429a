//! Arithmetic in Z_q (q = 3329) and polynomials of R_q = Z_q\[X\]/(X^256 + 1):
//! Montgomery and Barrett reduction, ByteEncode/ByteDecode (FIPS 203 §4.2.1,
//! Algorithms 5 and 6), Compress/Decompress (§4.2.1, eq. 4.7 and 4.8) and
//! the message encoding.
//!
//! Representation: a coefficient is an `i16` congruent to its value mod q.
//! Functions state the range they accept and return; "reduced" means the
//! centred range `[-(q-1)/2, (q-1)/2]` that [`barrett_reduce`] returns,
//! "canonical" means `[0, q)`.
//!
//! Constant time: no branch, index or division depends on coefficient
//! values. Compress divides by q with a multiply-shift (`div_q`), never
//! with `/` (KyberSlash: at `opt-level = "z"` rustc emits a real `div` for
//! `x / 3329`).

/// The modulus q.
pub(crate) const Q: i16 = 3329;
/// Number of coefficients.
pub(crate) const N: usize = 256;
/// q^{-1} mod 2^16, as a signed value.
pub(crate) const QINV: i16 = -3327;
/// 2^32 mod q: multiplying by it in Montgomery form maps x to x * 2^16.
pub(crate) const MONT_SQ: i16 = 1353;
/// Bytes of a 12-bit encoded polynomial.
pub(crate) const POLY_BYTES: usize = 384;

/// A polynomial, or its NTT representation (bit-reversed order, FIPS 203
/// §4.3). Aligned for 256-bit vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub(crate) struct Poly {
    /// Coefficients.
    pub c: [i16; N],
}

impl Poly {
    /// The zero polynomial.
    pub(crate) const ZERO: Poly = Poly { c: [0; N] };
}

impl Default for Poly {
    fn default() -> Self {
        Self::ZERO
    }
}

/// Wipes scratch polynomials with one vectorised store sequence; the
/// `black_box` makes the stores observable, so they are not removed as dead
/// (element-wise volatile writes, `zeroize`'s default, cost ~256 stores per
/// polynomial, about 5% of an ML-KEM operation).
impl zeroize::Zeroize for Poly {
    fn zeroize(&mut self) {
        pqforge_core::ct::wipe(&mut self.c);
    }
}

/// Montgomery reduction: for |a| < q * 2^15 returns r = a * 2^{-16} mod q
/// with |r| < q.
#[inline(always)]
pub(crate) fn montgomery_reduce(a: i32) -> i16 {
    let t = (a as i16).wrapping_mul(QINV);
    ((a - i32::from(t) * i32::from(Q)) >> 16) as i16
}

/// a * b * 2^{-16} mod q, |result| < q for |a * b| < q * 2^15.
#[inline(always)]
pub(crate) fn fqmul(a: i16, b: i16) -> i16 {
    montgomery_reduce(i32::from(a) * i32::from(b))
}

/// Barrett reduction: any i16 to the centred representative in
/// `[-(q-1)/2, (q-1)/2]`.
#[inline(always)]
pub(crate) fn barrett_reduce(a: i16) -> i16 {
    const V: i32 = ((1 << 26) + (Q as i32) / 2) / (Q as i32); // 20159, compile time
    let t = ((V * i32::from(a) + (1 << 25)) >> 26) as i16;
    a.wrapping_sub(t.wrapping_mul(Q))
}

/// `(-q, q)` to canonical `[0, q)`: adds q when negative (sign mask, no
/// branch). The mask goes through a value barrier on 32-bit Arm, where
/// LLVM otherwise emits `cmp` + a predicated `addmi` on the secret sign:
/// one cycle either way on the Cortex-M4, but not the plain arithmetic
/// this code promises.
#[inline(always)]
pub(crate) fn to_canonical(a: i16) -> u16 {
    let mask = pqforge_core::ct::barrier_u32(i32::from(a >> 15) as u32) as i16;
    (a + (mask & Q)) as u16
}

/// floor(n / q) for 0 <= n < 2^23 by multiply-shift (exhaustively tested).
#[inline(always)]
pub(crate) fn div_q(n: u32) -> u32 {
    ((u64::from(n) * 2_580_335) >> 33) as u32
}

/// Compress_d(x) = round(2^d / q * x) mod 2^d for canonical x, d <= 11.
#[inline(always)]
pub(crate) fn compress(x: u16, d: u32) -> u16 {
    // round(x 2^d / q) = floor((x 2^d + (q-1)/2) / q) because q is odd.
    (div_q((u32::from(x) << d) + 1664) & ((1 << d) - 1)) as u16
}

/// Decompress_d(y) = round(q / 2^d * y), in `[0, q)`.
#[inline(always)]
pub(crate) fn decompress(y: u16, d: u32) -> i16 {
    ((u32::from(y) * (Q as u32) + (1 << (d - 1))) >> d) as i16
}

/// Barrett-reduces every coefficient.
pub(crate) fn reduce(p: &mut Poly) {
    for c in &mut p.c {
        *c = barrett_reduce(*c);
    }
}

/// Multiplies every coefficient by 2^16 (Montgomery form), output |c| < q.
pub(crate) fn tomont(p: &mut Poly) {
    for c in &mut p.c {
        *c = fqmul(*c, MONT_SQ);
    }
}

/// `a += b` (no reduction).
pub(crate) fn add_assign(a: &mut Poly, b: &Poly) {
    for (x, y) in a.c.iter_mut().zip(&b.c) {
        *x = x.wrapping_add(*y);
    }
}

/// `a = b - a` (no reduction).
pub(crate) fn sub_from(a: &mut Poly, b: &Poly) {
    for (x, y) in a.c.iter_mut().zip(&b.c) {
        *x = y.wrapping_sub(*x);
    }
}

/// ByteEncode12 (Algorithm 5, d = 12) of a reduced polynomial (|c| < q).
pub(crate) fn to_bytes(p: &Poly, out: &mut [u8]) {
    debug_assert_eq!(out.len(), POLY_BYTES);
    // Index loops with constant trip counts: no length division (which
    // opt-level "z" would emit as a `div` instruction).
    for i in 0..N / 2 {
        let t0 = to_canonical(p.c[2 * i]);
        let t1 = to_canonical(p.c[2 * i + 1]);
        out[3 * i] = t0 as u8;
        out[3 * i + 1] = ((t0 >> 8) | (t1 << 4)) as u8;
        out[3 * i + 2] = (t1 >> 4) as u8;
    }
}

/// The two 12-bit values `(b0 | b1 << 8) & 0xFFF` and `(b1 >> 4) | b2 << 4`
/// of three bytes: the unit of ByteEncode12 strings and of SampleNTT's
/// candidates (FIPS 203 Algorithms 6 and 7).
#[inline(always)]
pub(crate) fn decode12(b0: u8, b1: u8, b2: u8) -> (u16, u16) {
    let (b0, b1, b2) = (u16::from(b0), u16::from(b1), u16::from(b2));
    (b0 | ((b1 & 0x0F) << 8), (b1 >> 4) | (b2 << 4))
}

/// ByteDecode12 without the reduction mod q: coefficients in `[0, 4096)`.
pub(crate) fn from_bytes(bytes: &[u8], p: &mut Poly) {
    debug_assert_eq!(bytes.len(), POLY_BYTES);
    for i in 0..N / 2 {
        let (d0, d1) = decode12(bytes[3 * i], bytes[3 * i + 1], bytes[3 * i + 2]);
        p.c[2 * i] = d0 as i16;
        p.c[2 * i + 1] = d1 as i16;
    }
}

/// Whether every 12-bit value of a ByteEncode12 string is < q, i.e.
/// ByteEncode12(ByteDecode12(bytes)) == bytes (FIPS 203 §7.2 modulus check).
/// Runs on public data (encapsulation keys) and returns early-free anyway.
pub(crate) fn is_canonical_12(bytes: &[u8]) -> bool {
    let mut bad = 0u16;
    let mut off = 0;
    while off + 3 <= bytes.len() {
        let b = &bytes[off..off + 3];
        let (d0, d1) = decode12(b[0], b[1], b[2]);
        off += 3;
        // Borrow bit of d - q (d < 4096): set iff d < q.
        bad |= !((d0.wrapping_sub(Q as u16) >> 15) & (d1.wrapping_sub(Q as u16) >> 15)) & 1;
    }
    bad == 0
}

/// Compress_d of every coefficient of a reduced polynomial.
pub(crate) fn compress_values<const D: u32>(p: &Poly, v: &mut [u16; N]) {
    for (o, &x) in v.iter_mut().zip(&p.c) {
        *o = compress(to_canonical(x), D);
    }
}

/// ByteEncode_d (Algorithm 5) of d-bit values, `32 d` bytes, for any `D`
/// in 1..=12 (K-PKE uses 4, 5, 10 and 11; 1 is [`to_msg`], 12 is
/// [`to_bytes`]).
pub(crate) fn pack<const D: u32>(v: &[u16; N], out: &mut [u8]) {
    let d = D as usize;
    let out = &mut out[..32 * d];
    match D {
        4 => {
            for i in 0..N / 2 {
                out[i] = (v[2 * i] | (v[2 * i + 1] << 4)) as u8;
            }
        }
        5 | 10 => {
            // Groups of 40 bits: 8 values of 5 bits or 4 values of 10 bits.
            let g = 40 / d;
            for j in 0..N / g {
                let mut acc = 0u64;
                for t in 0..g {
                    acc |= u64::from(v[g * j + t]) << (d * t);
                }
                out[5 * j..5 * j + 5].copy_from_slice(&acc.to_le_bytes()[..5]);
            }
        }
        _ => {
            for j in 0..N / 8 {
                let mut acc = 0u128;
                for t in 0..8 {
                    acc |= u128::from(v[8 * j + t]) << (d * t);
                }
                out[d * j..d * j + d].copy_from_slice(&acc.to_le_bytes()[..d]);
            }
        }
    }
}

/// ByteDecode_d (Algorithm 6) into d-bit values (inverse of [`pack`]).
pub(crate) fn unpack<const D: u32>(bytes: &[u8], v: &mut [u16; N]) {
    let d = D as usize;
    let bytes = &bytes[..32 * d];
    let mask = (1u16 << D) - 1;
    match D {
        4 => {
            for i in 0..N / 2 {
                v[2 * i] = u16::from(bytes[i]) & 15;
                v[2 * i + 1] = u16::from(bytes[i]) >> 4;
            }
        }
        5 | 10 => {
            let g = 40 / d;
            for j in 0..N / g {
                let mut w = [0u8; 8];
                w[..5].copy_from_slice(&bytes[5 * j..5 * j + 5]);
                let acc = u64::from_le_bytes(w);
                for t in 0..g {
                    v[g * j + t] = (acc >> (d * t)) as u16 & mask;
                }
            }
        }
        _ => {
            for j in 0..N / 8 {
                let mut w = [0u8; 16];
                w[..d].copy_from_slice(&bytes[d * j..d * j + d]);
                let acc = u128::from_le_bytes(w);
                for t in 0..8 {
                    v[8 * j + t] = (acc >> (d * t)) as u16 & mask;
                }
            }
        }
    }
}

/// Compress_d then ByteEncode_d (Algorithm 5) of a reduced polynomial,
/// `32 d` bytes. `D` is 4, 5, 10 or 11.
#[cfg(test)]
pub(crate) fn compress_to_bytes<const D: u32>(p: &Poly, out: &mut [u8]) {
    let mut v = [0u16; N];
    compress_values::<D>(p, &mut v);
    pack::<D>(&v, out);
}

/// ByteDecode_d then Decompress_d (Algorithm 6), coefficients in `[0, q)`.
pub(crate) fn decompress_from_bytes<const D: u32>(bytes: &[u8], p: &mut Poly) {
    let mut v = [0u16; N];
    unpack::<D>(bytes, &mut v);
    for (c, &y) in p.c.iter_mut().zip(&v) {
        *c = decompress(y, D);
    }
}

/// Decompress_1(ByteDecode_1(m)) coefficient by coefficient: `f(i, 0)` or
/// `f(i, 1665)` (bit 1 becomes round(q/2)) for every i in order.
#[inline(always)]
pub(crate) fn msg_each(m: &[u8; 32], mut f: impl FnMut(usize, i16)) {
    for (i, &byte) in m.iter().enumerate() {
        for j in 0..8 {
            let bit = i16::from((byte >> j) & 1);
            // CT: mask arithmetic, no branch on the message bit.
            f(8 * i + j, (-bit) & 0x0681); // 1665
        }
    }
}

/// Decompress_1(ByteDecode_1(m)).
pub(crate) fn from_msg(m: &[u8; 32], p: &mut Poly) {
    msg_each(m, |i, v| p.c[i] = v);
}

/// ByteEncode_1(Compress_1(p)) of a reduced polynomial.
pub(crate) fn to_msg(p: &Poly, m: &mut [u8; 32]) {
    for (i, byte) in m.iter_mut().enumerate() {
        let mut b = 0u8;
        for j in 0..8 {
            b |= (compress(to_canonical(p.c[8 * i + j]), 1) as u8) << j;
        }
        *byte = b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_div(num: u64, den: u64) -> u64 {
        // round half up; exact integer arithmetic (test only)
        (2 * num + den) / (2 * den)
    }

    #[test]
    fn div_q_exhaustive() {
        // Under Miri a stride through the domain and its last value.
        let step = if cfg!(miri) { 8191 } else { 1 };
        for n in (0..(1u32 << 23)).step_by(step).chain([(1 << 23) - 1]) {
            assert_eq!(div_q(n), n / 3329, "{n}");
        }
    }

    #[test]
    fn compress_matches_definition() {
        for d in [1u32, 4, 5, 10, 11] {
            for x in 0..3329u16 {
                let want = round_div(u64::from(x) << d, 3329) % (1 << d);
                assert_eq!(u64::from(compress(x, d)), want, "d={d} x={x}");
            }
            for y in 0..(1u16 << d) {
                let want = round_div(u64::from(y) * 3329, 1 << d);
                assert_eq!(decompress(y, d) as u64, want, "d={d} y={y}");
            }
        }
    }

    #[test]
    fn reductions() {
        for a in i16::MIN..=i16::MAX {
            let r = barrett_reduce(a);
            assert!(r.abs() <= 1664);
            assert_eq!((i32::from(a) - i32::from(r)).rem_euclid(3329), 0);
        }
        for a in [-(3329 * 32768 - 1), -1, 0, 1, 12345678, 3329 * 32767] {
            let r = montgomery_reduce(a);
            assert!(r.abs() < Q);
            assert_eq!((i64::from(r) * 65536 - i64::from(a)).rem_euclid(3329), 0);
        }
    }

    fn roundtrip<const D: u32>(p: &Poly) {
        let mut c = [0u8; 352];
        compress_to_bytes::<D>(p, &mut c[..32 * D as usize]);
        let mut r = Poly::ZERO;
        decompress_from_bytes::<D>(&c[..32 * D as usize], &mut r);
        let mut c2 = [0u8; 352];
        compress_to_bytes::<D>(&r, &mut c2[..32 * D as usize]);
        assert_eq!(c, c2, "d = {D}");
        // Bit order: value i occupies bits [d i, d (i + 1)) of the string.
        let mut v = [0u16; N];
        compress_values::<D>(p, &mut v);
        for (i, &x) in v.iter().enumerate() {
            let mut got = 0u16;
            for b in 0..D as usize {
                let bit = D as usize * i + b;
                got |= u16::from((c[bit / 8] >> (bit % 8)) & 1) << b;
            }
            assert_eq!(got, x, "d = {D}, value {i}");
        }
    }

    #[test]
    fn encodings_roundtrip() {
        let mut p = Poly::ZERO;
        for (i, c) in p.c.iter_mut().enumerate() {
            *c = ((i * 1237) % 3329) as i16 - 1664;
        }
        let mut b = [0u8; POLY_BYTES];
        to_bytes(&p, &mut b);
        assert!(is_canonical_12(&b));
        let mut r = Poly::ZERO;
        from_bytes(&b, &mut r);
        for (x, y) in p.c.iter().zip(&r.c) {
            assert_eq!(i32::from(*x).rem_euclid(3329), i32::from(*y));
        }
        b[3 * 77 + 2] = 0xFF;
        assert!(!is_canonical_12(&b));
        let mut m = [0u8; 32];
        for (i, x) in m.iter_mut().enumerate() {
            *x = (i * 37 + 5) as u8;
        }
        from_msg(&m, &mut r);
        let mut m2 = [0u8; 32];
        to_msg(&r, &mut m2);
        assert_eq!(m, m2);
        roundtrip::<4>(&p);
        roundtrip::<5>(&p);
        roundtrip::<10>(&p);
        roundtrip::<11>(&p);
    }
}
