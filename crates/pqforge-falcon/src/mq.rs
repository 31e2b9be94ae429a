//! Arithmetic modulo q = 12289 and its NTT, shared by round-3 Falcon and
//! FN-DSA.
//!
//! Values are kept in 0..q; products use Montgomery multiplication with
//! R = 2^16. The NTT uses the primitive 2048-th root of unity g = 7 in
//! bit-reversed order (the order in which FN-DSA's verifying key stores
//! NTT(h)); its tables are computed at compile time. The functions here
//! are the portable kernels (the AVX2 backend has its own NTT and
//! division, with identical outputs): protocol code reaches them through
//! [`crate::backend::Backend`].
//!
//! CT: no branch or index on the values (the NTT also runs on the secret
//! f, g, F in key generation and key decoding).

pub(crate) const Q: u32 = 12289;
/// -1/q mod 2^16.
const Q0I: u32 = 12287;
/// 2^16 mod q.
pub(crate) const R: u32 = 4091;
/// 2^32 mod q.
pub(crate) const R2: u32 = 10952;

const fn rev10(x: usize) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < 10 {
        r = (r << 1) | ((x >> i) & 1);
        i += 1;
    }
    r
}

/// b^e mod q (compile-time tables).
const fn pow_mod(mut b: u32, mut e: u32) -> u32 {
    let mut r = 1u32;
    while e > 0 {
        if e & 1 != 0 {
            r = r * b % Q;
        }
        b = b * b % Q;
        e >>= 1;
    }
    r
}

/// GMB[u] = R * 7^rev10(u) mod q; IGMB[u] = R * 7^-rev10(u) mod q.
pub(crate) static GMB: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut u = 0;
    while u < 1024 {
        t[u] = (R * pow_mod(7, rev10(u) as u32) % Q) as u16;
        u += 1;
    }
    t
};

pub(crate) static IGMB: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut u = 0;
    while u < 1024 {
        // 7^-k = 7^(2048 - k) since 7 has order 2048.
        t[u] = (R * pow_mod(7, (2048 - rev10(u)) as u32) % Q) as u16;
        u += 1;
    }
    t
};

/// A signed value (|x| < q) as a value in 0..q.
#[inline(always)]
pub(crate) fn from_signed(x: i32) -> u32 {
    let y = x as u32;
    y.wrapping_add(Q & (y >> 31).wrapping_neg())
}

/// 0..q to the centred range (-q/2, q/2].
#[inline(always)]
pub(crate) fn center(x: u32) -> i32 {
    x.wrapping_sub(Q & (((Q >> 1).wrapping_sub(x)) >> 31).wrapping_neg()) as i32
}

#[inline(always)]
pub(crate) fn add(x: u32, y: u32) -> u32 {
    let d = x.wrapping_add(y).wrapping_sub(Q);
    d.wrapping_add(Q & (d >> 31).wrapping_neg())
}

#[inline(always)]
pub(crate) fn sub(x: u32, y: u32) -> u32 {
    let d = x.wrapping_sub(y);
    d.wrapping_add(Q & (d >> 31).wrapping_neg())
}

#[inline(always)]
fn rshift1(x: u32) -> u32 {
    (x + (Q & (x & 1).wrapping_neg())) >> 1
}

/// x * y / R mod q.
#[inline(always)]
pub(crate) fn montymul(x: u32, y: u32) -> u32 {
    let z = x * y;
    let w = ((z.wrapping_mul(Q0I)) & 0xFFFF) * Q;
    let z = ((z + w) >> 16).wrapping_sub(Q);
    z.wrapping_add(Q & (z >> 31).wrapping_neg())
}

/// x * y mod q (plain values).
#[inline(always)]
pub(crate) fn mul(x: u32, y: u32) -> u32 {
    montymul(montymul(x, y), R2)
}

/// a[i] *= b[i] mod q (plain values, e.g. two NTT forms).
pub(crate) fn mul_all(a: &mut [u16], b: &[u16]) {
    for (x, &y) in a.iter_mut().zip(b) {
        *x = mul(u32::from(*x), u32::from(y)) as u16;
    }
}

/// All-ones if no value of `a` is zero, else 0.
pub(crate) fn nonzero_mask(a: &[u16]) -> u32 {
    let mut zero = 0u32;
    for &x in a {
        zero |= pqforge_core::ct::eq_mask_u32(u32::from(x), 0);
    }
    !zero
}

/// x / y mod q (y != 0; returns 0 for y = 0), via y^(q-2), constant time.
pub(crate) fn div(x: u32, y: u32) -> u32 {
    // Fixed addition chain for the exponent q - 2 = 12287.
    let y0 = montymul(y, R2);
    let y1 = montymul(y0, y0);
    let y2 = montymul(y1, y0);
    let y3 = montymul(y2, y1);
    let y4 = montymul(y3, y3);
    let y5 = montymul(y4, y4);
    let y6 = montymul(y5, y5);
    let y7 = montymul(y6, y6);
    let y8 = montymul(y7, y7);
    let y9 = montymul(y8, y2);
    let y10 = montymul(y9, y8);
    let y11 = montymul(y10, y10);
    let y12 = montymul(y11, y11);
    let y13 = montymul(y12, y9);
    let y14 = montymul(y13, y13);
    let y15 = montymul(y14, y14);
    let y16 = montymul(y15, y10);
    let y17 = montymul(y16, y16);
    let y18 = montymul(y17, y0);
    montymul(y18, x)
}

/// x[i] = x[i] / y[i] mod q for all i (0 where y[i] = 0); the portable
/// kernel of [`crate::backend::Backend::mq_div`].
pub(crate) fn div_all(x: &mut [u16], y: &[u16]) {
    for (a, &b) in x.iter_mut().zip(y) {
        *a = div(u32::from(*a), u32::from(b)) as u16;
    }
}

/// Forward NTT (values 0..q in and out); the portable kernel of
/// [`crate::backend::Backend::mq_ntt`].
pub(crate) fn ntt(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    let mut t = n;
    let mut m = 1;
    while m < n {
        let ht = t >> 1;
        let mut j1 = 0;
        for i in 0..m {
            let s = u32::from(GMB[m + i]);
            for j in j1..j1 + ht {
                let u = u32::from(a[j]);
                let v = montymul(u32::from(a[j + ht]), s);
                a[j] = add(u, v) as u16;
                a[j + ht] = sub(u, v) as u16;
            }
            j1 += t;
        }
        t = ht;
        m <<= 1;
    }
}

/// Inverse NTT with 1/n scaling (values 0..q in and out); the portable
/// kernel of [`crate::backend::Backend::mq_intt`].
pub(crate) fn intt(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    let mut t = 1;
    let mut m = n;
    while m > 1 {
        let hm = m >> 1;
        let dt = t << 1;
        let mut j1 = 0;
        for i in 0..hm {
            let s = u32::from(IGMB[hm + i]);
            for j in j1..j1 + t {
                let u = u32::from(a[j]);
                let v = u32::from(a[j + t]);
                a[j] = add(u, v) as u16;
                a[j + t] = montymul(sub(u, v), s) as u16;
            }
            j1 += dt;
        }
        t = dt;
        m = hm;
    }
    let mut ni = R;
    let mut m = n;
    while m > 1 {
        ni = rshift1(ni);
        m >>= 1;
    }
    for x in &mut a[..n] {
        *x = montymul(u32::from(*x), ni) as u16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compile-time NTT tables match the reference values at a few
    /// positions (GMb[1], GMb[2], iGMb[1]).
    #[test]
    fn ntt_tables() {
        assert_eq!(GMB[0], 4091);
        assert_eq!(GMB[1], 7888);
        assert_eq!(GMB[2], 11060);
        assert_eq!(IGMB[1], 4401);
        assert_eq!(GMB[1023], 9949);
        assert_eq!(IGMB[1023], 8230);
    }

    /// NTT products against schoolbook negacyclic products; division
    /// undoes multiplication.
    #[test]
    fn ntt_matches_schoolbook() {
        let sizes: &[u32] = if cfg!(miri) {
            &[2, 5, 9]
        } else {
            &[2, 5, 9, 10]
        };
        for &logn in sizes {
            let n = 1usize << logn;
            let mut a = [0u16; 1024];
            let mut b = [0u16; 1024];
            for i in 0..n {
                a[i] = ((i * 7919 + 13) % 12289) as u16;
                b[i] = ((i * i * 31 + 5) % 12289) as u16;
            }
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
            mul_all(&mut x[..n], &y[..n]);
            intt(&mut x[..n], logn);
            for i in 0..n {
                assert_eq!(u32::from(x[i]), c[i], "logn {logn} i {i}");
            }
            let mut z = a;
            ntt(&mut z[..n], logn);
            let z0 = z;
            mul_all(&mut z[..n], &y[..n]);
            if nonzero_mask(&y[..n]) == u32::MAX {
                div_all(&mut z[..n], &y[..n]);
                assert_eq!(z[..n], z0[..n]);
            }
        }
    }

    /// Centring: (-q/2, q/2], the inverse of [`from_signed`].
    #[test]
    fn center_range() {
        for x in 0..Q {
            let c = center(x);
            assert!((-6144..=6144).contains(&c), "{x}");
            assert_eq!(from_signed(c), x);
        }
    }
}
