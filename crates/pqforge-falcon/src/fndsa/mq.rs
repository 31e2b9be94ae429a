//! Arithmetic modulo q = 12289 for FN-DSA: values in [0, q), Montgomery
//! multiplication with R = 2^16, and the NTT whose output order (powers of
//! the primitive 2048-th root 7, bit-reversed) is the order in which the
//! putative-draft verifying key stores h. Constant time throughout.

const Q: u32 = 12289;
/// -1/q mod 2^16.
const Q0I: u32 = 12287;
/// 2^16 mod q.
const R: u32 = 4091;
/// 2^32 mod q.
const R2: u32 = 10952;

// The twiddle tables are those of the round-3 NTT (same root 7, same
// bit-reversed order, same Montgomery factor R).
use crate::vrfy::{GMB as GM, IGMB as IGM, pow_mod};

/// NI[logn] = R / 2^logn mod q: the Montgomery factor that divides by n at
/// the end of the inverse NTT (computed at compile time).
const NI: [u32; 11] = {
    let mut t = [0u32; 11];
    let mut l = 0;
    while l < 11 {
        t[l] = R * pow_mod((1u32 << l) % Q, Q - 2) % Q;
        l += 1;
    }
    t
};

#[inline(always)]
fn add(x: u32, y: u32) -> u32 {
    let d = (x + y).wrapping_sub(Q);
    d.wrapping_add(Q & (d >> 31).wrapping_neg())
}

#[inline(always)]
fn sub(x: u32, y: u32) -> u32 {
    let d = x.wrapping_sub(y);
    d.wrapping_add(Q & (d >> 31).wrapping_neg())
}

/// x * y / 2^16 mod q, for x, y < q.
#[inline(always)]
fn mmul(x: u32, y: u32) -> u32 {
    let z = x * y;
    let w = ((z.wrapping_mul(Q0I)) & 0xFFFF) * Q;
    let z = ((z + w) >> 16).wrapping_sub(Q);
    z.wrapping_add(Q & (z >> 31).wrapping_neg())
}

/// x * y mod q.
#[inline(always)]
pub(crate) fn mul(x: u32, y: u32) -> u32 {
    mmul(mmul(x, y), R2)
}

/// Signed value to [0, q) (|x| < q).
#[inline(always)]
pub(crate) fn from_signed(x: i32) -> u16 {
    let x = x as u32;
    x.wrapping_add(Q & (x >> 31).wrapping_neg()) as u16
}

/// [0, q) to (-q/2, q/2].
#[inline(always)]
pub(crate) fn center(x: u16) -> i32 {
    let x = u32::from(x);
    let m = ((Q - 1) / 2).wrapping_sub(x) >> 31;
    (x as i32) - (Q & m.wrapping_neg()) as i32
}

/// Forward NTT in place (plain values in, plain NTT values out).
pub(crate) fn ntt(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    let mut t = n;
    let mut m = 1;
    while m < n {
        let ht = t >> 1;
        for i in 0..m {
            let s = u32::from(GM[m + i]);
            let j0 = i * t;
            for j in j0..j0 + ht {
                let x1 = u32::from(a[j]);
                let x2 = mmul(u32::from(a[j + ht]), s);
                a[j] = add(x1, x2) as u16;
                a[j + ht] = sub(x1, x2) as u16;
            }
        }
        t = ht;
        m <<= 1;
    }
}

/// Inverse NTT in place.
pub(crate) fn intt(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    let mut t = 1;
    let mut m = n;
    while m > 1 {
        let hm = m >> 1;
        let dt = t << 1;
        for i in 0..hm {
            let s = u32::from(IGM[hm + i]);
            let j0 = i * dt;
            for j in j0..j0 + t {
                let u = u32::from(a[j]);
                let v = u32::from(a[j + t]);
                a[j] = add(u, v) as u16;
                a[j + t] = mmul(sub(u, v), s) as u16;
            }
        }
        t = dt;
        m = hm;
    }
    // Multiply by 1/n: mmul with R/n.
    let ni = NI[logn as usize];
    for x in &mut a[..n] {
        *x = mmul(u32::from(*x), ni) as u16;
    }
}

/// a[i] *= b[i] (NTT domain).
pub(crate) fn mul_ntt(a: &mut [u16], b: &[u16]) {
    for (x, &y) in a.iter_mut().zip(b) {
        *x = mul(u32::from(*x), u32::from(y)) as u16;
    }
}

/// a[i] /= b[i] (NTT domain); returns an all-ones mask when every b[i] is
/// nonzero. CT: fixed exponentiation chain.
pub(crate) fn div_ntt(a: &mut [u16], b: &[u16]) -> u32 {
    let mut ok = u32::MAX;
    for (x, &y) in a.iter_mut().zip(b) {
        let y = u32::from(y);
        ok &= pqforge_core::ct::nonzero_mask_u32(y);
        // y^(q-2) in the Montgomery domain: ym = y R.
        let ym = mmul(y, R2);
        let mut r = R; // 1 in Montgomery form
        let mut e = Q - 2;
        let mut b = ym;
        while e > 0 {
            if e & 1 != 0 {
                r = mmul(r, b);
            }
            b = mmul(b, b);
            e >>= 1;
        }
        // r = y^-1 R; x * y^-1 = mmul(x, r).
        *x = mmul(u32::from(*x), r) as u16;
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ntt_matches_schoolbook() {
        for logn in [2u32, 5, 9, 10] {
            let n = 1usize << logn;
            let mut a = [0u16; 1024];
            let mut b = [0u16; 1024];
            for i in 0..n {
                a[i] = ((i * 7919 + 13) % 12289) as u16;
                b[i] = ((i * i * 31 + 5) % 12289) as u16;
            }
            // Schoolbook negacyclic product.
            let mut c = [0u32; 1024];
            for i in 0..n {
                for j in 0..n {
                    let p = u32::from(a[i]) * u32::from(b[j]) % Q;
                    let k = (i + j) % n;
                    c[k] = if i + j < n {
                        (c[k] + p) % Q
                    } else {
                        (c[k] + Q - p) % Q
                    };
                }
            }
            let (mut x, mut y) = (a, b);
            ntt(&mut x[..n], logn);
            ntt(&mut y[..n], logn);
            mul_ntt(&mut x[..n], &y[..n]);
            intt(&mut x[..n], logn);
            for i in 0..n {
                assert_eq!(u32::from(x[i]), c[i], "logn {logn} i {i}");
            }
            // Division undoes multiplication.
            let mut z = a;
            ntt(&mut z[..n], logn);
            let z0 = z;
            mul_ntt(&mut z[..n], &y[..n]);
            if div_ntt(&mut z[..n], &y[..n]) == u32::MAX {
                assert_eq!(z[..n], z0[..n]);
            }
        }
    }
}
