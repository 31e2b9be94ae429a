//! Arithmetic modulo q = 8380417 and the NTT of FIPS 204 (Algorithms 41,
//! 42, 45), in the Montgomery form of the reference implementation
//! (R = 2^32).
//!
//! Coefficients are `i32`; no function branches on or indexes by a
//! coefficient value.

use crate::params::{N, Q};

/// q^-1 mod 2^32.
pub const QINV: i32 = 58_728_449;
/// 2^32 mod q, centred.
pub const MONT: i32 = -4_186_625;
/// The scale of the last inverse-NTT step: 2^64 / 256 mod q. It undoes the
/// 2^-32 of a Montgomery pointwise product and divides by 256, so that
/// `invntt_tomont(pointwise(ntt(a), ntt(b)))` is the plain product.
pub const F_INV: i32 = 41_978;
/// ζ = 1753, a primitive 512-th root of unity modulo q.
pub const ZETA: i64 = 1753;

/// a · 2^-32 mod q, in (-q, q) for |a| ≤ 2^31 · q.
#[cfg_attr(not(any(test, feature = "hazmat")), allow(dead_code))]
#[inline(always)]
#[must_use]
pub const fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    // (a - t q) >> 32 as the difference of the high words: the low words
    // of a and t q are equal, so nothing borrows. One 32 x 32 -> 64
    // multiply and a subtraction, instead of 64-bit arithmetic (which
    // 32-bit targets such as the Cortex-M4 spell out in many instructions).
    let tq_hi = ((t as i64 * Q as i64) >> 32) as i32;
    ((a >> 32) as i32).wrapping_sub(tq_hi)
}

/// [`montgomery_reduce`] with q passed in: the NTT loops pass q through
/// `black_box` once, so that LLVM multiplies by a register (one `smull`
/// on the Cortex-M4) instead of expanding the multiplication by the
/// constant into an unsigned multiply and a sign fix-up. Same result.
#[inline(always)]
pub(crate) fn mont_q(a: i64, q: i32) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    let tq_hi = ((i64::from(t) * i64::from(q)) >> 32) as i32;
    ((a >> 32) as i32).wrapping_sub(tq_hi)
}

/// a mod q in [-6283008, 6283008] for a ≤ 2^31 - 2^22 - 1 (a shift, no
/// division).
#[inline(always)]
#[must_use]
pub const fn reduce32(a: i32) -> i32 {
    let t = (a + (1 << 22)) >> 23;
    a - t * Q
}

/// Adds q to a negative `a` (branch-free): (-q, q) to [0, q).
#[inline(always)]
#[must_use]
pub const fn caddq(a: i32) -> i32 {
    a + ((a >> 31) & Q)
}

/// The 8-bit bit reversal.
const fn brv8(x: usize) -> usize {
    (x as u8).reverse_bits() as usize
}

/// ζ^brv8(i) · 2^32 mod q, centred, for i in 0..256 (entry 0 is unused):
/// the twiddle factors of both transforms, computed at compile time.
pub const ZETAS: [i32; N] = {
    let q = Q as i64;
    let mut out = [0i32; N];
    let mut i = 1;
    while i < N {
        // ζ^brv8(i) mod q by square-and-multiply.
        let mut e = brv8(i);
        let mut base = ZETA;
        let mut acc = 1i64;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc * base % q;
            }
            base = base * base % q;
            e >>= 1;
        }
        // Montgomery form, centred into (-q/2, q/2].
        let mut m = acc * (MONT as i64 + q) % q;
        if m > q / 2 {
            m -= q;
        }
        out[i] = m as i32;
        i += 1;
    }
    out
};

/// Forward NTT in place (Cooley-Tukey, output in bit-reversed order).
/// Inputs with |a_i| < q give outputs with |â_i| < 9q; no reduction is
/// made between layers.
pub fn ntt(a: &mut [i32; N]) {
    let q = core::hint::black_box(Q);
    let mut k = 0;
    let mut len = 128;
    while len > 2 {
        // Blocks of 2 len coefficients, each split into its two halves:
        // iterators instead of indices, so no bounds check per butterfly
        // (it halves the instruction count on the Cortex-M4); no
        // `chunks_exact` (its count is a division).
        let mut rest: &mut [i32] = a;
        while !rest.is_empty() {
            let (block, tail) = core::mem::take(&mut rest).split_at_mut(2 * len);
            rest = tail;
            k += 1;
            let zeta = i64::from(ZETAS[k]);
            let (lo, hi) = block.split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = mont_q(zeta * i64::from(*y), q);
                *y = *x - t;
                *x += t;
            }
        }
        len >>= 1;
    }
    // The layers of distance 2 and 1 in one pass over groups of four
    // coefficients (the same butterflies in the same order per value; a
    // loop per block of two or one butterflies costs more than its
    // arithmetic on the Cortex-M4): group g uses ζ index 64 + g, then
    // 128 + 2g and 129 + 2g.
    let bf = |x: &mut i32, y: &mut i32, z: i32| {
        let t = mont_q(i64::from(z) * i64::from(*y), q);
        *y = *x - t;
        *x += t;
    };
    for (g, c) in a.as_chunks_mut::<4>().0.iter_mut().enumerate() {
        let [x0, x1, x2, x3] = c;
        let z = ZETAS[64 + g];
        bf(x0, x2, z);
        bf(x1, x3, z);
        bf(x0, x1, ZETAS[128 + 2 * g]);
        bf(x2, x3, ZETAS[129 + 2 * g]);
    }
}

/// Inverse NTT in place (Gentleman-Sande), then the scale by [`F_INV`]:
/// for inputs with |â_i| < q the outputs satisfy |a_i| < q and carry one
/// factor 2^32 (see [`F_INV`]).
pub fn invntt_tomont(a: &mut [i32; N]) {
    let q = core::hint::black_box(Q);
    // The layers of distance 1 and 2 in one pass over groups of four (as
    // in `ntt`): group g uses -ζ indices 255 - 2g and 254 - 2g, then
    // 127 - g.
    let bf = |x: &mut i32, y: &mut i32, z: i32| {
        let t = *x;
        *x = t + *y;
        *y = mont_q(-i64::from(z) * i64::from(t - *y), q);
    };
    for (g, c) in a.as_chunks_mut::<4>().0.iter_mut().enumerate() {
        let [x0, x1, x2, x3] = c;
        bf(x0, x1, ZETAS[255 - 2 * g]);
        bf(x2, x3, ZETAS[254 - 2 * g]);
        let z = ZETAS[127 - g];
        bf(x0, x2, z);
        bf(x1, x3, z);
    }
    let mut k = N / 4;
    let mut len = 4;
    while len < N {
        // As in `ntt`: halves of each block, no index arithmetic.
        let mut rest: &mut [i32] = a;
        while !rest.is_empty() {
            let (block, tail) = core::mem::take(&mut rest).split_at_mut(2 * len);
            rest = tail;
            k -= 1;
            let zeta = -i64::from(ZETAS[k]);
            let (lo, hi) = block.split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = *x;
                *x = t + *y;
                *y = mont_q(zeta * i64::from(t - *y), q);
            }
        }
        len <<= 1;
    }
    for c in a.iter_mut() {
        *c = mont_q(i64::from(F_INV) * i64::from(*c), q);
    }
}

/// c = a ∘ b · 2^-32 coefficient-wise (the NTT-domain product).
pub fn pointwise_montgomery(c: &mut [i32; N], a: &[i32; N], b: &[i32; N]) {
    let q = core::hint::black_box(Q);
    for ((c, &a), &b) in c.iter_mut().zip(a).zip(b) {
        *c = mont_q(i64::from(a) * i64::from(b), q);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqforge_core::testing::TestRng;

    fn modq(x: i64) -> i32 {
        x.rem_euclid(i64::from(Q)) as i32
    }

    #[test]
    fn constants() {
        let q = i64::from(Q);
        assert_eq!(i64::from(Q).wrapping_mul(i64::from(QINV)) & 0xFFFF_FFFF, 1);
        assert_eq!(modq(i64::from(MONT)), modq(1 << 32));
        // f = 2^64 / 256 mod q.
        assert_eq!(
            modq(i64::from(F_INV) * 256),
            modq((1i64 << 32) % q * ((1i64 << 32) % q))
        );
        // ζ has order 512 and ζ^256 = -1.
        let mut z = 1i64;
        for _ in 0..256 {
            z = z * ZETA % q;
        }
        assert_eq!(z, q - 1);
        assert_eq!(ZETAS[1], 25847, "the reference's first twiddle");
    }

    #[test]
    fn reductions() {
        let mut rng = TestRng::new(1);
        for _ in 0..if cfg!(miri) { 1000 } else { 100_000 } {
            let a = (rng.next_u64() as i64) >> 3; // |a| < 2^60 ≤ 2^31 q
            // Strictly inside the documented range |a| ≤ 2^31 q.
            let lim = ((1i64 << 31) - 1) * i64::from(Q);
            let a = a.clamp(-lim, lim);
            let r = montgomery_reduce(a);
            assert!(r.abs() < Q);
            assert_eq!(modq(i64::from(r) << 32), modq(a));
            // The 64-bit formula, and the loops' form: the same value.
            let t = (a as i32).wrapping_mul(QINV);
            assert_eq!(r, ((a - i64::from(t) * i64::from(Q)) >> 32) as i32);
            assert_eq!(mont_q(a, Q), r);
            let b = (rng.next_u32() as i32) >> 1;
            let b = b.min(i32::MAX - (1 << 22));
            let r = reduce32(b);
            assert!(r.abs() <= 6_283_008);
            assert_eq!(modq(i64::from(r)), modq(i64::from(b)));
            let c = reduce32(b) % Q;
            assert_eq!(caddq(c), modq(i64::from(c)));
        }
    }

    /// NTT, pointwise product and inverse NTT give the negacyclic product
    /// of the schoolbook definition.
    #[test]
    fn ntt_product_is_negacyclic_product() {
        let mut rng = TestRng::new(2);
        for _ in 0..if cfg!(miri) { 1 } else { 20 } {
            let mut a = [0i32; N];
            let mut b = [0i32; N];
            for i in 0..N {
                a[i] = (rng.next_u32() % Q as u32) as i32 - Q / 2;
                b[i] = (rng.next_u32() % Q as u32) as i32 - Q / 2;
            }
            let mut want = [0i64; N];
            for i in 0..N {
                for j in 0..N {
                    let p = i64::from(a[i]) * i64::from(b[j]) % i64::from(Q);
                    if i + j < N {
                        want[i + j] += p;
                    } else {
                        want[i + j - N] -= p;
                    }
                }
            }
            let (mut ah, mut bh, mut c) = (a, b, [0i32; N]);
            ntt(&mut ah);
            ntt(&mut bh);
            for x in ah.iter_mut().chain(bh.iter_mut()) {
                *x = reduce32(*x);
            }
            pointwise_montgomery(&mut c, &ah, &bh);
            invntt_tomont(&mut c);
            for i in 0..N {
                assert!(c[i].abs() < Q);
                assert_eq!(modq(i64::from(c[i])), modq(want[i]), "coefficient {i}");
            }
        }
    }
}
