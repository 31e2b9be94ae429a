//! The number-theoretic transform over Z_q[X]/(X^256 + 1), FIPS 203 §4.3
//! (Algorithms 9, 10, 11 and 12), with Montgomery multiplication.
//!
//! Output order is the standard bit-reversed order of FIPS 203: NTT
//! coefficient pairs `(2i, 2i+1)` are the residues modulo `X^2 - zeta^{2
//! BitRev7(i) + 1}`. Every backend uses this order, so backends can be
//! compared coefficient by coefficient.

use crate::poly::{N, Poly, Q, barrett_reduce, fqmul, montgomery_reduce};

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

/// Forward NTT (Algorithm 9), in place.
/// in: |c| < q;  out: |c| < 8q (not reduced; callers Barrett-reduce).
pub(crate) fn ntt(p: &mut Poly) {
    let r = &mut p.c;
    let mut k = 1;
    let mut len = 128;
    while len >= 2 {
        let mut start = 0;
        while start < N {
            let zeta = ZETAS[k];
            k += 1;
            for j in start..start + len {
                let t = fqmul(zeta, r[j + len]);
                r[j + len] = r[j].wrapping_sub(t);
                r[j] = r[j].wrapping_add(t);
            }
            start += 2 * len;
        }
        len >>= 1;
    }
}

/// Inverse NTT (Algorithm 10) times the Montgomery factor 2^16, in place.
/// in: |c| < 2^15 (any);  out: |c| < q.
pub(crate) fn invntt_tomont(p: &mut Poly) {
    let r = &mut p.c;
    let mut k = 127;
    let mut len = 2;
    while len <= 128 {
        let mut start = 0;
        while start < N {
            let zeta = ZETAS[k];
            k -= 1;
            for j in start..start + len {
                let t = r[j];
                r[j] = barrett_reduce(t.wrapping_add(r[j + len]));
                r[j + len] = r[j + len].wrapping_sub(t);
                r[j + len] = fqmul(zeta, r[j + len]);
            }
            start += 2 * len;
        }
        len <<= 1;
    }
    for c in r.iter_mut() {
        *c = fqmul(*c, F_INV);
    }
}

#[cfg(test)]
/// Product of two degree-1 residues modulo X^2 - zeta (Algorithm 12),
/// times 2^{-16}.
#[inline(always)]
fn basemul(a: [i16; 2], b: [i16; 2], zeta: i16) -> [i16; 2] {
    let r0 = fqmul(fqmul(a[1], b[1]), zeta).wrapping_add(fqmul(a[0], b[0]));
    let r1 = fqmul(a[0], b[1]).wrapping_add(fqmul(a[1], b[0]));
    [r0, r1]
}

/// r = sum_i a_i o b_i in the NTT domain (Algorithm 11 accumulated), times
/// 2^{-16}, then Barrett-reduced.
/// in: |a_i|, |b_i| < 2^12 (or one factor reduced);  out: reduced.
pub(crate) fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
    debug_assert_eq!(a.len(), b.len());
    // Accumulate in i32 with one Montgomery reduction per output.
    let mut acc = [0i32; N];
    for (ap, bp) in a.iter().zip(b) {
        for i in 0..64 {
            let zeta = i32::from(ZETAS[64 + i]);
            for (s, z) in [(0usize, zeta), (2, -zeta)] {
                let o = 4 * i + s;
                let (a0, a1) = (i32::from(ap.c[o]), i32::from(ap.c[o + 1]));
                let (b0, b1) = (i32::from(bp.c[o]), i32::from(bp.c[o + 1]));
                // a1 b1 zeta needs its own reduction to stay in range.
                let t = i32::from(montgomery_reduce(a1 * b1)) * z;
                acc[o] += a0 * b0 + t;
                acc[o + 1] += a0 * b1 + a1 * b0;
            }
        }
    }
    for (c, x) in r.c.iter_mut().zip(acc) {
        *c = barrett_reduce(montgomery_reduce(x));
    }
}

/// Single-pair reference multiplication (tests and documentation).
#[cfg(test)]
pub(crate) fn basemul_ref(r: &mut Poly, a: &Poly, b: &Poly) {
    for i in 0..64 {
        let z = ZETAS[64 + i];
        let x = basemul(
            [a.c[4 * i], a.c[4 * i + 1]],
            [b.c[4 * i], b.c[4 * i + 1]],
            z,
        );
        let y = basemul(
            [a.c[4 * i + 2], a.c[4 * i + 3]],
            [b.c[4 * i + 2], b.c[4 * i + 3]],
            -z,
        );
        r.c[4 * i..4 * i + 4].copy_from_slice(&[x[0], x[1], y[0], y[1]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::reduce;

    fn modq(x: i64) -> i64 {
        x.rem_euclid(3329)
    }

    #[test]
    fn zetas_known_values() {
        // 2^16 mod q = 2285 -> -1044; the reference table starts the same way.
        assert_eq!(ZETAS[0], -1044);
        assert_eq!(ZETAS[1], -758);
        assert_eq!(ZETAS[127], 1628);
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
        reduce(&mut ah);
        ntt(&mut bh);
        reduce(&mut bh);
        let mut r = Poly::ZERO;
        basemul_acc(
            &mut r,
            core::slice::from_ref(&ah),
            core::slice::from_ref(&bh),
        );
        let mut r2 = Poly::ZERO;
        basemul_ref(&mut r2, &ah, &bh);
        for i in 0..256 {
            assert_eq!(modq(r.c[i].into()), modq(r2.c[i].into()));
        }
        invntt_tomont(&mut r);
        for i in 0..256 {
            assert_eq!(modq(r.c[i].into()), modq(want[i]), "coefficient {i}");
        }
        // NTT then inverse is the identity times 2^16 * 2^-16... = identity.
        let mut c = a;
        ntt(&mut c);
        reduce(&mut c);
        invntt_tomont(&mut c);
        for i in 0..256 {
            // invntt_tomont multiplies by 2^16
            assert_eq!(modq(c.c[i].into()), modq(i64::from(a.c[i]) * 65536));
        }
    }
}
