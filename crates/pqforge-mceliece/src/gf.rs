//! GF(2^m) arithmetic, scalar and bitsliced (m = 12 or 13).
//!
//! Field polynomials (Classic McEliece round-4 specification, §3):
//! m = 12: x^12 + x^3 + 1;  m = 13: x^13 + x^4 + x^3 + x + 1.
//!
//! Everything here is branch-free and uses no secret-dependent index.
//! Bitsliced vectors hold 64 field elements: plane `b` is the bit `b` of
//! each element, element `k` in bit `k` of every plane.

/// Maximum m of any parameter set.
pub(crate) const MAX_M: usize = 13;

/// 64 field elements, bitsliced (planes `0..m` used).
pub(crate) type Vec64 = [u64; MAX_M];

/// Exponents `e < m` with `x^m = sum x^e` in GF(2^m).
pub(crate) const fn low_terms(m: usize) -> &'static [usize] {
    if m == 12 { &[3, 0] } else { &[4, 3, 1, 0] }
}

/// Reduces a carry-less product of two m-bit values (bits `0..2m-1`).
#[inline(always)]
fn reduce(m: usize, mut t: u32) -> u16 {
    if m == 12 {
        let h = t & 0x7F_C000;
        t ^= (h >> 9) ^ (h >> 12);
        let h = t & 0x3000;
        t ^= (h >> 9) ^ (h >> 12);
    } else {
        let h = t & 0x1FF_0000;
        t ^= (h >> 9) ^ (h >> 10) ^ (h >> 12) ^ (h >> 13);
        let h = t & 0xE000;
        t ^= (h >> 9) ^ (h >> 10) ^ (h >> 12) ^ (h >> 13);
    }
    (t & ((1 << m) - 1)) as u16
}

/// Carry-less product of two values below 2^13 (BearSSL-style "integer
/// multiplication with holes": every product bit is a count of at most 13
/// terms, so no carry crosses a 4-bit hole). Integer multiplications only:
/// no mask the compiler could turn back into a branch.
#[inline(always)]
fn clmul13(a: u32, b: u32) -> u32 {
    let (a0, a1, a2, a3) = (a & 0x1111, a & 0x2222, a & 0x4444, a & 0x8888);
    let (b0, b1, b2, b3) = (b & 0x1111, b & 0x2222, b & 0x4444, b & 0x8888);
    let z0 = (a0 * b0) ^ (a1 * b3) ^ (a2 * b2) ^ (a3 * b1);
    let z1 = (a0 * b1) ^ (a1 * b0) ^ (a2 * b3) ^ (a3 * b2);
    let z2 = (a0 * b2) ^ (a1 * b1) ^ (a2 * b0) ^ (a3 * b3);
    let z3 = (a0 * b3) ^ (a1 * b2) ^ (a2 * b1) ^ (a3 * b0);
    (z0 & 0x111_1111) | (z1 & 0x222_2222) | (z2 & 0x444_4444) | (z3 & 0x888_8888)
}

/// `a * b` in GF(2^m).
#[inline(always)]
pub(crate) fn mul(m: usize, a: u16, b: u16) -> u16 {
    reduce(m, clmul13(u32::from(a), u32::from(b)))
}

/// `a^2` in GF(2^m).
#[inline(always)]
pub(crate) fn sq(m: usize, a: u16) -> u16 {
    // Spread the bits of a to the even positions.
    let mut x = u32::from(a);
    x = (x | (x << 8)) & 0x00FF_00FF;
    x = (x | (x << 4)) & 0x0F0F_0F0F;
    x = (x | (x << 2)) & 0x3333_3333;
    x = (x | (x << 1)) & 0x5555_5555;
    reduce(m, x)
}

/// `a^(2^m - 2)` (= `1/a` for `a != 0`, and 0 for 0).
#[inline(always)]
pub(crate) fn inv(m: usize, a: u16) -> u16 {
    // x = a^(2^j - 1) for j = 1 .. m-1, then one squaring.
    let mut x = a;
    for _ in 0..m - 2 {
        x = mul(m, sq(m, x), a);
    }
    sq(m, x)
}

/// All-ones if `a == 0`, else 0 (16-bit mask).
#[inline(always)]
pub(crate) fn is_zero_mask(a: u16) -> u16 {
    let t = u32::from(a).wrapping_sub(1) >> 31;
    (t as u16).wrapping_neg()
}

/// Reverses the low `m` bits of `a`.
#[inline(always)]
pub(crate) fn bitrev(m: usize, a: u16) -> u16 {
    a.reverse_bits() >> (16 - m)
}

/// Multiplication in GF((2^m)^t) = GF(2^m)[y]/F(y) (keygen, minimal
/// polynomial). `fpoly` lists `(e, c)` with `y^t = sum c y^e`.
///
/// The product `a b` is computed bitsliced over the coefficient index:
/// lane `i + j` accumulates `a_i b_j` for all j at once (unreduced planes,
/// one field reduction at the end), then F is applied on scalars.
pub(crate) fn poly_mulmod(m: usize, out: &mut [u16], a: &[u16], b: &[u16], fpoly: &[(usize, u16)]) {
    const PW: usize = 4; // 256 lanes >= 2t - 1
    let t = a.len();
    let nw = (2 * t - 1).div_ceil(64);
    // bs = b, moved up one lane per term.
    let mut bs = [[0u64; PW]; MAX_M];
    for (k, &x) in b.iter().enumerate() {
        for (bit, p) in bs[..m].iter_mut().enumerate() {
            p[k / 64] |= u64::from((x >> bit) & 1) << (k % 64);
        }
    }
    let mut acc = [[0u64; PW]; 2 * MAX_M - 1];
    for &ai in a {
        for j in 0..m {
            // CT: mask from a bit of a_i.
            let mj = u64::from((ai >> j) & 1).wrapping_neg();
            for p in 0..m {
                for w in 0..nw {
                    acc[p + j][w] ^= bs[p][w] & mj;
                }
            }
        }
        for p in &mut bs[..m] {
            for w in (1..nw).rev() {
                p[w] = (p[w] << 1) | (p[w - 1] >> 63);
            }
            p[0] <<= 1;
        }
    }
    for i in (m..2 * m - 1).rev() {
        for &e in low_terms(m) {
            for w in 0..nw {
                acc[i - m + e][w] ^= acc[i][w];
            }
        }
    }
    let mut prod = [0u16; 2 * 128 - 1];
    let prod = &mut prod[..2 * t - 1];
    for (k, x) in prod.iter_mut().enumerate() {
        let mut v = 0u16;
        for (bit, p) in acc[..m].iter().enumerate() {
            v |= (((p[k / 64] >> (k % 64)) & 1) as u16) << bit;
        }
        *x = v;
    }
    for i in (t..2 * t - 1).rev() {
        let v = prod[i];
        for &(e, c) in fpoly {
            prod[i - t + e] ^= if c == 1 { v } else { mul(m, v, c) };
        }
    }
    out.copy_from_slice(&prod[..t]);
    zeroize::Zeroize::zeroize(prod);
    zeroize::Zeroize::zeroize(bs.as_flattened_mut());
    zeroize::Zeroize::zeroize(acc.as_flattened_mut());
}

// ---------------------------------------------------------------------------
// Bitsliced arithmetic: 64 elements at a time.

/// Reduces a bitsliced carry-less product (planes `0..2M-1`).
#[inline(always)]
fn vreduce(m: usize, t: &mut [u64; 2 * MAX_M - 1]) -> Vec64 {
    for i in (m..2 * m - 1).rev() {
        let v = t[i];
        for &e in low_terms(m) {
            t[i - m + e] ^= v;
        }
    }
    let mut out = [0u64; MAX_M];
    out[..m].copy_from_slice(&t[..m]);
    out
}

/// Bitsliced `a * b`.
#[inline(always)]
pub(crate) fn vmul(m: usize, a: &Vec64, b: &Vec64) -> Vec64 {
    let mut t = [0u64; 2 * MAX_M - 1];
    for i in 0..m {
        for j in 0..m {
            t[i + j] ^= a[i] & b[j];
        }
    }
    vreduce(m, &mut t)
}

/// Bitsliced `a^2` (squaring is linear in characteristic 2).
#[inline(always)]
pub(crate) fn vsq(m: usize, a: &Vec64) -> Vec64 {
    let mut t = [0u64; 2 * MAX_M - 1];
    for i in 0..m {
        t[2 * i] = a[i];
    }
    vreduce(m, &mut t)
}

/// Bitsliced `a^(2^m - 2)` (inverse; 0 stays 0).
#[inline(always)]
pub(crate) fn vinv(m: usize, a: &Vec64) -> Vec64 {
    let mut x = *a;
    for _ in 0..m - 2 {
        x = vmul(m, &vsq(m, &x), a);
    }
    vsq(m, &x)
}

/// Every lane equal to `c`.
#[inline(always)]
pub(crate) fn broadcast(m: usize, c: u16) -> Vec64 {
    let mut v = [0u64; MAX_M];
    for (b, p) in v.iter_mut().enumerate().take(m) {
        *p = u64::from((c >> b) & 1).wrapping_neg();
    }
    v
}

/// Bitsliced evaluation of `f` (coefficients `f[0..]`, low first) at 64 points.
#[inline(always)]
pub(crate) fn veval(m: usize, f: &[u16], x: &Vec64) -> Vec64 {
    let mut r = broadcast(m, f[f.len() - 1]);
    for &c in f[..f.len() - 1].iter().rev() {
        r = vmul(m, &r, x);
        let cb = broadcast(m, c);
        for b in 0..m {
            r[b] ^= cb[b];
        }
    }
    r
}

/// Packs 64 elements into bitsliced form.
#[inline]
pub(crate) fn pack(m: usize, vals: &[u16; 64]) -> Vec64 {
    let mut v = [0u64; MAX_M];
    for (k, &x) in vals.iter().enumerate() {
        for (b, p) in v.iter_mut().enumerate().take(m) {
            *p |= u64::from((x >> b) & 1) << k;
        }
    }
    v
}

/// Unpacks a bitsliced vector into 64 elements.
#[cfg(test)]
pub(crate) fn unpack(m: usize, v: &Vec64) -> [u16; 64] {
    let mut out = [0u16; 64];
    for (k, o) in out.iter_mut().enumerate() {
        let mut x = 0u16;
        for (b, p) in v.iter().enumerate().take(m) {
            x |= (((p >> k) & 1) as u16) << b;
        }
        *o = x;
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Independent shift-and-add field multiplication (tests only).
    pub(crate) fn slow_mul(m: usize, a: u16, b: u16) -> u16 {
        let poly: u32 = if m == 12 {
            (1 << 12) | 0b1001
        } else {
            (1 << 13) | 0b11011
        };
        let mut r = 0u32;
        for i in 0..m {
            if (b >> i) & 1 == 1 {
                r ^= u32::from(a) << i;
            }
        }
        for i in (m..2 * m).rev() {
            if (r >> i) & 1 == 1 {
                r ^= poly << (i - m);
            }
        }
        r as u16
    }

    #[test]
    fn scalar_and_bitsliced_agree() {
        let mut rng = pqforge_core::testing::TestRng::new(0x1234_5678);
        let mut next = || rng.next_u32();
        for _ in 0..2000 {
            let a = (next() & 0xFFF) as u16;
            let b = (next() & 0xFFF) as u16;
            assert_eq!(mul(12, a, b), slow_mul(12, a, b));
            assert_eq!(sq(12, a), slow_mul(12, a, a));
            let a = (next() & 0x1FFF) as u16;
            let b = (next() & 0x1FFF) as u16;
            assert_eq!(mul(13, a, b), slow_mul(13, a, b));
            if a != 0 {
                assert_eq!(mul(13, a, inv(13, a)), 1);
            }
        }
        let mut xa = [0u16; 64];
        let mut xb = [0u16; 64];
        for k in 0..64 {
            xa[k] = (next() & 0x1FFF) as u16;
            xb[k] = (next() & 0x1FFF) as u16;
        }
        xa[3] = 0;
        let p = unpack(13, &vmul(13, &pack(13, &xa), &pack(13, &xb)));
        let q = unpack(13, &vinv(13, &pack(13, &xa)));
        for k in 0..64 {
            assert_eq!(p[k], mul(13, xa[k], xb[k]));
            assert_eq!(q[k], inv(13, xa[k]));
        }
    }
}
