//! The constant-time binary extended GCD of the deepest solver level
//! (Pornin's optimised variant, as in the round-3 reference `keygen.c`):
//! Bezout coefficients of two odd big integers.

use crate::modp;

/// The 2x2 matrix of one outer GCD step: (a, b) <- ((a xa + b xb) / 2^31,
/// (a ya + b yb) / 2^31).
#[derive(Clone, Copy)]
struct Mat {
    xa: i64,
    xb: i64,
    ya: i64,
    yb: i64,
}

/// a = -a when ctl = 1 (two's complement over 31-bit limbs).
fn negate(a: &mut [u32], ctl: u32) {
    let mut cc = ctl;
    let m = ctl.wrapping_neg() >> 1;
    for w in a.iter_mut() {
        let aw = (*w ^ m).wrapping_add(cc);
        *w = aw & 0x7FFF_FFFF;
        cc = aw >> 31;
    }
}

/// (a, b) <- ((a xa + b xb) / 2^31, (a ya + b yb) / 2^31), made
/// nonnegative; returns bit 0: a was negated, bit 1: b was negated.
fn co_reduce(a: &mut [u32], b: &mut [u32], len: usize, mat: Mat) -> u32 {
    let Mat { xa, xb, ya, yb } = mat;
    let mut cca = 0i64;
    let mut ccb = 0i64;
    for u in 0..len {
        let wa = u64::from(a[u]);
        let wb = u64::from(b[u]);
        let za = wa
            .wrapping_mul(xa as u64)
            .wrapping_add(wb.wrapping_mul(xb as u64))
            .wrapping_add(cca as u64);
        let zb = wa
            .wrapping_mul(ya as u64)
            .wrapping_add(wb.wrapping_mul(yb as u64))
            .wrapping_add(ccb as u64);
        if u > 0 {
            a[u - 1] = (za as u32) & 0x7FFF_FFFF;
            b[u - 1] = (zb as u32) & 0x7FFF_FFFF;
        }
        cca = (za as i64) >> 31;
        ccb = (zb as i64) >> 31;
    }
    a[len - 1] = cca as u32;
    b[len - 1] = ccb as u32;
    let nega = ((cca as u64) >> 63) as u32;
    let negb = ((ccb as u64) >> 63) as u32;
    negate(&mut a[..len], nega);
    negate(&mut b[..len], negb);
    nega | (negb << 1)
}

/// (a, b) <- ((a xa + b xb) / 2^31 mod m, (a ya + b yb) / 2^31 mod m),
/// Montgomery-style (m odd, m0i = -1/m mod 2^31).
fn co_reduce_mod(a: &mut [u32], b: &mut [u32], m: &[u32], m0i: u32, mat: Mat) {
    let Mat { xa, xb, ya, yb } = mat;
    let len = m.len();
    let mut cca = 0i64;
    let mut ccb = 0i64;
    let fa = (a[0]
        .wrapping_mul(xa as u32)
        .wrapping_add(b[0].wrapping_mul(xb as u32)))
    .wrapping_mul(m0i)
        & 0x7FFF_FFFF;
    let fb = (a[0]
        .wrapping_mul(ya as u32)
        .wrapping_add(b[0].wrapping_mul(yb as u32)))
    .wrapping_mul(m0i)
        & 0x7FFF_FFFF;
    for u in 0..len {
        let wa = u64::from(a[u]);
        let wb = u64::from(b[u]);
        let mu = u64::from(m[u]);
        let za = wa
            .wrapping_mul(xa as u64)
            .wrapping_add(wb.wrapping_mul(xb as u64))
            .wrapping_add(mu.wrapping_mul(u64::from(fa)))
            .wrapping_add(cca as u64);
        let zb = wa
            .wrapping_mul(ya as u64)
            .wrapping_add(wb.wrapping_mul(yb as u64))
            .wrapping_add(mu.wrapping_mul(u64::from(fb)))
            .wrapping_add(ccb as u64);
        if u > 0 {
            a[u - 1] = (za as u32) & 0x7FFF_FFFF;
            b[u - 1] = (zb as u32) & 0x7FFF_FFFF;
        }
        cca = (za as i64) >> 31;
        ccb = (zb as i64) >> 31;
    }
    a[len - 1] = cca as u32;
    b[len - 1] = ccb as u32;
    finish_mod2(
        a,
        b,
        m,
        ((cca as u64) >> 63) as u32,
        ((ccb as u64) >> 63) as u32,
    );
}

/// Finishes two modular reductions: a, b in -m..2m (nega / negb = 1: the
/// value is negative) to 0..m. The borrow chains of a and b are
/// independent, so they are interleaved in one loop to hide their latency
/// (the same words as reducing them one after the other).
fn finish_mod2(a: &mut [u32], b: &mut [u32], m: &[u32], nega: u32, negb: u32) {
    let len = m.len();
    let (a, b) = (&mut a[..len], &mut b[..len]);
    let mut ca = 0u32;
    let mut cb = 0u32;
    for u in 0..len {
        ca = a[u].wrapping_sub(m[u]).wrapping_sub(ca) >> 31;
        cb = b[u].wrapping_sub(m[u]).wrapping_sub(cb) >> 31;
    }
    let xa = nega.wrapping_neg() >> 1;
    let ya = (nega | (1 - ca)).wrapping_neg();
    let xb = negb.wrapping_neg() >> 1;
    let yb = (negb | (1 - cb)).wrapping_neg();
    ca = nega;
    cb = negb;
    for u in 0..len {
        let aw = a[u].wrapping_sub((m[u] ^ xa) & ya).wrapping_sub(ca);
        a[u] = aw & 0x7FFF_FFFF;
        ca = aw >> 31;
        let bw = b[u].wrapping_sub((m[u] ^ xb) & yb).wrapping_sub(cb);
        b[u] = bw & 0x7FFF_FFFF;
        cb = bw >> 31;
    }
}

/// Binary extended GCD (constant time, Pornin's optimised variant): for odd
/// x, y (len limbs), finds u, v with x u - y v = 1, 0 <= u <= y, 0 <= v <= x.
/// Returns false if GCD(x, y) != 1 or x, y is even. `tmp`: 4 len words.
///
/// Only u is carried through the GCD iterations (the reference updates v
/// alongside, modulo x); v is recovered at the end as (x u - 1) / y, an
/// exact division computed modulo 2^(31 len) (v < x fits in len limbs).
/// When the GCD is 1, u and v are unique, so the words are those of the
/// reference; otherwise the key is rejected and v is not used.
pub(crate) fn bezout(
    u: &mut [u32],
    v: &mut [u32],
    x: &[u32],
    y: &[u32],
    len: usize,
    tmp: &mut [u32],
) -> bool {
    if len == 0 {
        return false;
    }
    let (u1, rest) = tmp.split_at_mut(len);
    let (v1, rest) = rest.split_at_mut(len);
    let (a, rest) = rest.split_at_mut(len);
    let b = &mut rest[..len];
    let (u0, v0) = (&mut u[..len], &mut v[..len]);

    let y0i = modp::ninv31(y[0]);
    a.copy_from_slice(&x[..len]);
    b.copy_from_slice(&y[..len]);
    u0.fill(0);
    u0[0] = 1;
    u1.copy_from_slice(&y[..len]);

    // Each outer step performs 31 inner iterations; 62 len + 30 bits in
    // total suffice.
    let mut num = 62 * len as u32 + 30;
    while num >= 30 {
        // Top 33 bits of a and b (word-aligned on the larger of the two),
        // plus their low 31 bits.
        let mut c0 = u32::MAX;
        let mut c1 = u32::MAX;
        let (mut a0, mut a1, mut b0, mut b1) = (0u32, 0u32, 0u32, 0u32);
        for j in (0..len).rev() {
            let aw = a[j];
            let bw = b[j];
            a0 ^= (a0 ^ aw) & c0;
            a1 ^= (a1 ^ aw) & c1;
            b0 ^= (b0 ^ bw) & c0;
            b1 ^= (b1 ^ bw) & c1;
            c1 = c0;
            c0 &= (((aw | bw).wrapping_add(0x7FFF_FFFF)) >> 31).wrapping_sub(1);
        }
        a1 |= a0 & c1;
        a0 &= !c1;
        b1 |= b0 & c1;
        b0 &= !c1;
        let mut a_hi = (u64::from(a0) << 31).wrapping_add(u64::from(a1));
        let mut b_hi = (u64::from(b0) << 31).wrapping_add(u64::from(b1));
        let mut a_lo = a[0];
        let mut b_lo = b[0];

        let mut pa = 1i64;
        let mut pb = 0i64;
        let mut qa = 0i64;
        let mut qb = 1i64;
        for i in 0..31 {
            let rz = b_hi.wrapping_sub(a_hi);
            let rt = ((rz ^ ((a_hi ^ b_hi) & (a_hi ^ rz))) >> 63) as u32;
            let oa = (a_lo >> i) & 1;
            let ob = (b_lo >> i) & 1;
            let c_ab = oa & ob & rt;
            let c_ba = oa & ob & !rt;
            let c_a = c_ab | (oa ^ 1);

            a_lo = a_lo.wrapping_sub(b_lo & c_ab.wrapping_neg());
            a_hi = a_hi.wrapping_sub(b_hi & u64::from(c_ab).wrapping_neg());
            pa = pa.wrapping_sub(qa & i64::from(c_ab).wrapping_neg());
            pb = pb.wrapping_sub(qb & i64::from(c_ab).wrapping_neg());
            b_lo = b_lo.wrapping_sub(a_lo & c_ba.wrapping_neg());
            b_hi = b_hi.wrapping_sub(a_hi & u64::from(c_ba).wrapping_neg());
            qa = qa.wrapping_sub(pa & i64::from(c_ba).wrapping_neg());
            qb = qb.wrapping_sub(pb & i64::from(c_ba).wrapping_neg());

            a_lo = a_lo.wrapping_add(a_lo & c_a.wrapping_sub(1));
            pa = pa.wrapping_add(pa & (i64::from(c_a) - 1));
            pb = pb.wrapping_add(pb & (i64::from(c_a) - 1));
            a_hi ^= (a_hi ^ (a_hi >> 1)) & u64::from(c_a).wrapping_neg();
            b_lo = b_lo.wrapping_add(b_lo & c_a.wrapping_neg());
            qa = qa.wrapping_add(qa & i64::from(c_a).wrapping_neg());
            qb = qb.wrapping_add(qb & i64::from(c_a).wrapping_neg());
            b_hi ^= (b_hi ^ (b_hi >> 1)) & u64::from(c_a).wrapping_sub(1);
        }

        let r = co_reduce(
            a,
            b,
            len,
            Mat {
                xa: pa,
                xb: pb,
                ya: qa,
                yb: qb,
            },
        );
        pa = pa.wrapping_sub(pa.wrapping_add(pa) & i64::from(r & 1).wrapping_neg());
        pb = pb.wrapping_sub(pb.wrapping_add(pb) & i64::from(r & 1).wrapping_neg());
        qa = qa.wrapping_sub(qa.wrapping_add(qa) & i64::from(r >> 1).wrapping_neg());
        qb = qb.wrapping_sub(qb.wrapping_add(qb) & i64::from(r >> 1).wrapping_neg());
        co_reduce_mod(
            u0,
            u1,
            &y[..len],
            y0i,
            Mat {
                xa: pa,
                xb: pb,
                ya: qa,
                yb: qb,
            },
        );
        num -= 30;
    }

    // v = (x u - 1) / y: r = x u - 1 mod 2^(31 len) (low half of the
    // product), then exact division limb by limb (v_i = r_i / y_0 mod
    // 2^31, r -= v_i y 2^(31 i)).
    let r = v1;
    r.fill(0);
    for i in 0..len {
        let xi = u64::from(x[i]);
        let mut cc = 0u64;
        for j in 0..len - i {
            let z = xi * u64::from(u0[j]) + u64::from(r[i + j]) + cc;
            r[i + j] = (z as u32) & 0x7FFF_FFFF;
            cc = z >> 31;
        }
    }
    let mut cc = 1u32;
    for w in r.iter_mut() {
        let z = w.wrapping_sub(cc);
        *w = z & 0x7FFF_FFFF;
        cc = z >> 31;
    }
    // 1 / y_0 mod 2^31.
    let yinv = y0i.wrapping_neg() & 0x7FFF_FFFF;
    for i in 0..len {
        let q = r[i].wrapping_mul(yinv) & 0x7FFF_FFFF;
        v0[i] = q;
        let q = u64::from(q);
        let mut cc = 0u64;
        for j in 0..len - i {
            // r[i + j] - q y[j] - borrow, with the borrow as a nonnegative
            // word: adding 2^62 keeps the value nonnegative.
            let z = (u64::from(r[i + j]) + (1u64 << 62)) - q * u64::from(y[j]) - cc;
            r[i + j] = (z as u32) & 0x7FFF_FFFF;
            cc = (1u64 << 31) - (z >> 31);
        }
    }

    // a must be 1 (GCD), and x, y odd.
    let mut rc = a[0] ^ 1;
    for &w in &a[1..len] {
        rc |= w;
    }
    let ok = (1 - ((rc | rc.wrapping_neg()) >> 31)) & x[0] & y[0];
    crate::ct_util::declassify_bool(ok & 1 != 0)
}

#[cfg(test)]
mod tests {
    use pqforge_core::testing::TestRng;

    use super::*;
    use crate::zint::tests::words;
    use crate::zint::{add_mul_small, sub};

    /// Bezout: x u - y v = 1 with 0 <= u <= y, 0 <= v <= x.
    #[test]
    fn bezout_solves() {
        let mut rng = TestRng::new(0x5555_0000_1111_2222);
        let mut found = 0;
        for len in [1usize, 2, 5, 12] {
            for _ in 0..20 {
                let mut x = [0u32; 12];
                let mut y = [0u32; 12];
                words(&mut rng, &mut x[..len]);
                words(&mut rng, &mut y[..len]);
                x[0] |= 1;
                y[0] |= 1;
                let (mut u, mut v, mut t) = ([0u32; 12], [0u32; 12], [0u32; 48]);
                if !bezout(&mut u, &mut v, &x, &y, len, &mut t) {
                    continue;
                }
                found += 1;
                // x u and y v (2 len limbs each) must differ by exactly 1.
                let mul = |a: &[u32], b: &[u32]| {
                    let mut r = [0u32; 25];
                    for i in 0..len {
                        add_mul_small(&mut r[i..], &b[..len], a[i]);
                    }
                    r
                };
                let mut xu = mul(&x, &u);
                let yv = mul(&y, &v);
                let mut one = [0u32; 25];
                one[0] = 1;
                sub(&mut xu[..=2 * len], &one, 1);
                assert_eq!(xu[..=2 * len], yv[..=2 * len], "len {len}");
            }
        }
        assert!(found > 10);
    }
}
