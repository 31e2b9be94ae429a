//! The number-theoretic transform over Z_q\[X\]/(X^256 + 1), FIPS 203 §4.3
//! (Algorithms 9, 10, 11 and 12), with Montgomery multiplication: the
//! portable kernels, tuned for 32-bit cores (two layers per pass, lazy
//! reduction, base multiplication straight from packed operands).
//!
//! Output order is the standard bit-reversed order of FIPS 203: NTT
//! coefficient pairs `(2i, 2i+1)` are the residues modulo `X^2 - zeta^{2
//! BitRev7(i) + 1}`. Every backend uses this order, so backends can be
//! compared coefficient by coefficient.

use crate::poly::{self, N, POLY_BYTES, Poly, Q, barrett_reduce, fqmul, montgomery_reduce};

/// 17^BitRev7(i) * 2^16 mod q, centred: the twiddle factors in Montgomery
/// form, computed at compile time from zeta = 17.
pub(crate) const ZETAS: [i16; 128] = {
    let mut z = [0i16; 128];
    let mut i = 0;
    while i < 128 {
        // BitRev7(i)
        let mut r = 0usize;
        let mut b = 0;
        while b < 7 {
            r |= ((i >> b) & 1) << (6 - b);
            b += 1;
        }
        let mut p: u32 = 1;
        let mut e = 0;
        while e < r {
            p = p * 17 % (Q as u32);
            e += 1;
        }
        let m = (p << 16) % (Q as u32);
        z[i] = if m > (Q as u32) / 2 {
            m as i16 - Q
        } else {
            m as i16
        };
        i += 1;
    }
    z
};

/// mont^2 / 128 mod q: the final scaling of the inverse NTT (undoes the
/// factor 128 of the transform and leaves one Montgomery factor).
pub(crate) const F_INV: i16 = 1441;

/// Forward NTT (Algorithm 9) with two layers per pass (half the loads and
/// stores of one layer at a time), then Barrett reduction.
/// in: |c| < q;  out: reduced (the unique centred representatives).
pub(crate) fn ntt(p: &mut Poly) {
    let r = &mut p.c;
    // Layer pairs (len, len/2) for len = 128, 32, 8; then the last layer.
    let mut len = 128;
    while len >= 8 {
        let h = len / 2;
        let mut start = 0;
        while start < N {
            let blk = start / (2 * len);
            let z1 = ZETAS[128 / len + blk];
            let z2 = ZETAS[256 / len + 2 * blk];
            let z3 = ZETAS[256 / len + 2 * blk + 1];
            for j in start..start + h {
                let (mut x0, mut x1, mut x2, mut x3) = (r[j], r[j + h], r[j + len], r[j + len + h]);
                let t = fqmul(z1, x2);
                x2 = x0.wrapping_sub(t);
                x0 = x0.wrapping_add(t);
                let t = fqmul(z1, x3);
                x3 = x1.wrapping_sub(t);
                x1 = x1.wrapping_add(t);
                let t = fqmul(z2, x1);
                x1 = x0.wrapping_sub(t);
                x0 = x0.wrapping_add(t);
                let t = fqmul(z3, x3);
                x3 = x2.wrapping_sub(t);
                x2 = x2.wrapping_add(t);
                r[j] = x0;
                r[j + h] = x1;
                r[j + len] = x2;
                r[j + len + h] = x3;
            }
            start += 2 * len;
        }
        len /= 4;
    }
    // len = 2, zetas 64..128, then the reduction.
    for i in 0..64 {
        let z = ZETAS[64 + i];
        for j in 4 * i..4 * i + 2 {
            let t = fqmul(z, r[j + 2]);
            r[j + 2] = barrett_reduce(r[j].wrapping_sub(t));
            r[j] = barrett_reduce(r[j].wrapping_add(t));
        }
    }
}

/// Layers `LEN` and `2 LEN` of the inverse NTT in one pass; `RED`
/// Barrett-reduces the sums of layer `LEN`.
#[inline(always)]
fn inv_pass<const LEN: usize, const RED: bool>(r: &mut [i16; N]) {
    for blk in 0..N / (4 * LEN) {
        // Layer LEN: zeta index 256/LEN - 1 - block; layer 2 LEN: half.
        let z1 = ZETAS[256 / LEN - 1 - 2 * blk];
        let z2 = ZETAS[256 / LEN - 2 - 2 * blk];
        let z3 = ZETAS[128 / LEN - 1 - blk];
        let g = &mut r[4 * LEN * blk..4 * LEN * (blk + 1)];
        for j in 0..LEN {
            let (mut x0, mut x1, mut x2, mut x3) =
                (g[j], g[j + LEN], g[j + 2 * LEN], g[j + 3 * LEN]);
            let t = x0;
            x0 = t.wrapping_add(x1);
            x1 = fqmul(z1, x1.wrapping_sub(t));
            let t = x2;
            x2 = t.wrapping_add(x3);
            x3 = fqmul(z2, x3.wrapping_sub(t));
            if RED {
                x0 = barrett_reduce(x0);
                x2 = barrett_reduce(x2);
            }
            let t = x0;
            x0 = t.wrapping_add(x2);
            x2 = fqmul(z3, x2.wrapping_sub(t));
            let t = x1;
            x1 = t.wrapping_add(x3);
            x3 = fqmul(z3, x3.wrapping_sub(t));
            g[j] = x0;
            g[j + LEN] = x1;
            g[j + 2 * LEN] = x2;
            g[j + 3 * LEN] = x3;
        }
    }
}

/// Inverse NTT (Algorithm 10) times 2^16 with two layers per pass and lazy
/// reduction: only the sums of layers 1 and 4 are Barrett-reduced.
/// in: |c| < 4q;  out: |c| < q (representatives other than the AVX2
/// backend's: callers reduce before encoding).
pub(crate) fn invntt_tomont(p: &mut Poly) {
    // Bounds (all below 2^15): in < 4q. Layer 1: sums < 8q, reduced
    // (<= q/2); differences go through fqmul (< q). Layers 2-3 double:
    // < 4q. Layer 4: sums < 8q, reduced again; layers 5-7 double: < 8q.
    let r = &mut p.c;
    // Layer 1 (len 2) alone, zetas 127..64.
    for i in 0..64 {
        let z = ZETAS[127 - i];
        for j in 4 * i..4 * i + 2 {
            let t = r[j];
            r[j] = barrett_reduce(t.wrapping_add(r[j + 2]));
            r[j + 2] = fqmul(z, r[j + 2].wrapping_sub(t));
        }
    }
    // Layer pairs (len, 2 len) for len = 4, 16 (reducing), 64.
    inv_pass::<4, false>(r);
    inv_pass::<16, true>(r);
    inv_pass::<64, false>(r);
    for c in r.iter_mut() {
        *c = fqmul(*c, F_INV);
    }
}

/// The modulus `X^2 - zeta` of coefficient pair `p` (Montgomery form):
/// pairs `2i` and `2i + 1` use `ZETAS[64 + i]` and its negative.
pub(crate) const PAIR_ZETAS: [i16; N / 2] = {
    let mut z = [0i16; N / 2];
    let mut p = 0;
    while p < N / 2 {
        let v = ZETAS[64 + p / 2];
        z[p] = if p % 2 == 0 { v } else { -v };
        p += 1;
    }
    z
};

/// An operand of the base multiplication, read one coefficient pair
/// `(a_{2p}, a_{2p+1})` at a time: a polynomial, or its ByteEncode12
/// packing (never unpacked: the stack-optimised K-PKE keeps NTT-domain
/// vectors packed).
pub(crate) trait NttPairs {
    /// Pair `p < 128`.
    fn pair(&self, p: usize) -> (i32, i32);
}

impl NttPairs for Poly {
    #[inline(always)]
    fn pair(&self, p: usize) -> (i32, i32) {
        (i32::from(self.c[2 * p]), i32::from(self.c[2 * p + 1]))
    }
}

impl NttPairs for [u8; POLY_BYTES] {
    #[inline(always)]
    fn pair(&self, p: usize) -> (i32, i32) {
        let (d0, d1) = poly::decode12(self[3 * p], self[3 * p + 1], self[3 * p + 2]);
        (i32::from(d0), i32::from(d1))
    }
}

/// `(a0 + a1 X)(b0 + b1 X) * 2^-16 mod (X^2 - zeta)` for `z` = zeta in
/// Montgomery form (FIPS 203 Algorithm 12): `|z| < q`, and the bounds of
/// [`basemul_pair`] on the operands; outputs `|r_i| < q`.
#[inline(always)]
pub(crate) fn basemul_zeta(z: i32, (a0, a1): (i32, i32), (b0, b1): (i32, i32)) -> (i16, i16) {
    let r0 = montgomery_reduce(a0 * b0 + i32::from(montgomery_reduce(a1 * b1)) * z);
    let r1 = montgomery_reduce(a0 * b1 + a1 * b0);
    (r0, r1)
}

/// `acc[o], acc[o+1] += (a0 + a1 X)(b0 + b1 X) * 2^-16 mod (X^2 - zeta_o)`
/// (FIPS 203 Algorithm 12), `o` even. With `a_i, b_i` in `[0, 4096)` and
/// one of them below q (or one factor reduced), each product stays below
/// q 2^15 in magnitude and each term added is below q, so k <= 4 terms
/// fit an `i16`.
#[inline(always)]
pub(crate) fn basemul_pair(acc: &mut Poly, o: usize, a: (i32, i32), b: (i32, i32)) {
    let (r0, r1) = basemul_zeta(i32::from(PAIR_ZETAS[o >> 1]), a, b);
    acc.c[o] = acc.c[o].wrapping_add(r0);
    acc.c[o + 1] = acc.c[o + 1].wrapping_add(r1);
}

/// `acc += a o b * 2^-16` (Algorithm 11), unreduced (see [`basemul_pair`]).
#[inline(always)]
pub(crate) fn basemul_add<A: NttPairs + ?Sized, B: NttPairs + ?Sized>(
    acc: &mut Poly,
    a: &A,
    b: &B,
) {
    basemul_add_by(acc, a, b, basemul_pair);
}

/// [`basemul_add`] with the pair step `pair` (a backend's
/// `basemul_pair`, same contract as [`basemul_pair`]).
#[inline(always)]
pub(crate) fn basemul_add_by<A: NttPairs + ?Sized, B: NttPairs + ?Sized>(
    acc: &mut Poly,
    a: &A,
    b: &B,
    pair: impl Fn(&mut Poly, usize, (i32, i32), (i32, i32)),
) {
    for p in 0..N / 2 {
        pair(acc, 2 * p, a.pair(p), b.pair(p));
    }
}

/// r = sum_i a_i o b_i in the NTT domain (Algorithm 11 accumulated), times
/// 2^{-16}, then Barrett-reduced. in: see [`basemul_pair`];  out: reduced.
pub(crate) fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
    debug_assert_eq!(a.len(), b.len());
    *r = Poly::ZERO;
    for (x, y) in a.iter().zip(b) {
        basemul_add(r, x, y);
    }
    poly::reduce(r);
}

#[cfg(test)]
mod tests {
    use pqforge_core::testing::TestRng;

    use super::*;
    use crate::poly::reduce;

    fn modq(x: i64) -> i64 {
        x.rem_euclid(3329)
    }

    /// FIPS 203 Algorithm 9 as written (Montgomery twiddles), unreduced.
    fn ntt_textbook(p: &mut Poly) {
        let r = &mut p.c;
        let mut k = 1;
        let mut len = 128;
        while len >= 2 {
            for start in (0..N).step_by(2 * len) {
                let zeta = ZETAS[k];
                k += 1;
                for j in start..start + len {
                    let t = fqmul(zeta, r[j + len]);
                    r[j + len] = r[j].wrapping_sub(t);
                    r[j] = r[j].wrapping_add(t);
                }
            }
            len >>= 1;
        }
    }

    /// FIPS 203 Algorithm 10 as written, times 2^16.
    fn invntt_textbook(p: &mut Poly) {
        let r = &mut p.c;
        let mut k = 127;
        let mut len = 2;
        while len <= 128 {
            for start in (0..N).step_by(2 * len) {
                let zeta = ZETAS[k];
                k -= 1;
                for j in start..start + len {
                    let t = r[j];
                    r[j] = barrett_reduce(t.wrapping_add(r[j + len]));
                    r[j + len] = fqmul(zeta, r[j + len].wrapping_sub(t));
                }
            }
            len <<= 1;
        }
        for c in r.iter_mut() {
            *c = fqmul(*c, F_INV);
        }
    }

    #[test]
    fn zetas_known_values() {
        // 2^16 mod q = 2285 -> -1044; the reference table starts the same way.
        assert_eq!(ZETAS[0], -1044);
        assert_eq!(ZETAS[1], -758);
        assert_eq!(ZETAS[127], 1628);
    }

    /// A value in `[-m, m]`.
    fn centred(rng: &mut TestRng, m: usize) -> i16 {
        (rng.below(2 * m + 1) as i32 - m as i32) as i16
    }

    #[test]
    fn transforms_match_textbook() {
        let mut rng = TestRng::new(7);
        // Under Miri one round of each inverse-input pattern.
        let rounds = if cfg!(miri) { 4 } else { 200 };
        for round in 0..rounds {
            // Forward: |c| < q.
            let mut a = Poly::ZERO;
            for c in &mut a.c {
                *c = centred(&mut rng, 3328);
            }
            let mut want = a;
            ntt_textbook(&mut want);
            reduce(&mut want);
            ntt(&mut a);
            assert_eq!(a, want);
            // Inverse: |c| < 4q, including the extremes (worst-case growth).
            for c in &mut a.c {
                *c = match round % 4 {
                    0 => 13_315,
                    1 => -13_315,
                    2 => centred(&mut rng, 13_315),
                    _ => {
                        if rng.next_u32() & 1 == 0 {
                            13_315
                        } else {
                            -13_315
                        }
                    }
                };
            }
            let mut want = a;
            invntt_textbook(&mut want);
            reduce(&mut want);
            invntt_tomont(&mut a);
            assert!(a.c.iter().all(|c| c.abs() < 3329));
            reduce(&mut a);
            assert_eq!(a, want);
        }
    }

    /// Schoolbook product in Z_q[X]/(X^256+1).
    fn schoolbook(a: &Poly, b: &Poly) -> [i64; 256] {
        let mut r = [0i64; 256];
        for i in 0..256 {
            for j in 0..256 {
                let p = i64::from(a.c[i]) * i64::from(b.c[j]);
                if i + j < 256 {
                    r[i + j] += p;
                } else {
                    r[i + j - 256] -= p;
                }
            }
        }
        r
    }

    #[test]
    fn ntt_multiplication_matches_schoolbook() {
        let mut a = Poly::ZERO;
        let mut b = Poly::ZERO;
        for i in 0..256 {
            a.c[i] = ((i * 7919 + 13) % 3329) as i16 - 1664;
            b.c[i] = ((i * i * 31 + 5) % 5) as i16 - 2;
        }
        let want = schoolbook(&a, &b);
        let (mut ah, mut bh) = (a, b);
        ntt(&mut ah);
        ntt(&mut bh);
        let mut r = Poly::ZERO;
        basemul_acc(
            &mut r,
            core::slice::from_ref(&ah),
            core::slice::from_ref(&bh),
        );
        // The packed operand gives the same products.
        let mut packed = [0u8; POLY_BYTES];
        poly::to_bytes(&ah, &mut packed);
        let mut r2 = Poly::ZERO;
        basemul_add(&mut r2, &packed, &bh);
        reduce(&mut r2);
        assert_eq!(r, r2);
        invntt_tomont(&mut r);
        for i in 0..256 {
            assert_eq!(modq(r.c[i].into()), modq(want[i]), "coefficient {i}");
        }
        // NTT then inverse is the identity times 2^16.
        let mut c = a;
        ntt(&mut c);
        invntt_tomont(&mut c);
        for i in 0..256 {
            assert_eq!(modq(c.c[i].into()), modq(i64::from(a.c[i]) * 65536));
        }
    }
}
