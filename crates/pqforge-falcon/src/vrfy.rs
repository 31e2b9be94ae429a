//! Arithmetic modulo q = 12289: NTT, verification, public-key computation,
//! completion of the private key (G from f, g, F), hash-to-point and the
//! norm bound.
//!
//! Values are kept in 0..q; products use Montgomery multiplication with
//! R = 2^16. The NTT uses the primitive 2048-th root of unity g = 7 in
//! bit-reversed order; its tables are computed at compile time.

use crate::ct_util::declassify_bool;
use pqforge_core::keccak::Shake256;

const Q: u32 = 12289;
/// -1/q mod 2^16.
const Q0I: u32 = 12287;
/// 2^16 mod q.
const R: u32 = 4091;
/// 2^32 mod q.
const R2: u32 = 10952;

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
pub(crate) const fn pow_mod(mut b: u32, mut e: u32) -> u32 {
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

#[inline(always)]
fn mq_conv_small(x: i32) -> u32 {
    let y = x as u32;
    y.wrapping_add(Q & (y >> 31).wrapping_neg())
}

#[inline(always)]
fn mq_add(x: u32, y: u32) -> u32 {
    let d = x.wrapping_add(y).wrapping_sub(Q);
    d.wrapping_add(Q & (d >> 31).wrapping_neg())
}

#[inline(always)]
fn mq_sub(x: u32, y: u32) -> u32 {
    let d = x.wrapping_sub(y);
    d.wrapping_add(Q & (d >> 31).wrapping_neg())
}

#[inline(always)]
fn mq_rshift1(x: u32) -> u32 {
    (x + (Q & (x & 1).wrapping_neg())) >> 1
}

/// x * y / R mod q.
#[inline(always)]
fn mq_montymul(x: u32, y: u32) -> u32 {
    let z = x * y;
    let w = ((z.wrapping_mul(Q0I)) & 0xFFFF) * Q;
    let z = ((z + w) >> 16).wrapping_sub(Q);
    z.wrapping_add(Q & (z >> 31).wrapping_neg())
}

/// x / y mod q (y != 0; returns 0 for y = 0), via y^(q-2), constant time.
pub(crate) fn mq_div_12289(x: u32, y: u32) -> u32 {
    // Fixed addition chain for the exponent q - 2 = 12287.
    let y0 = mq_montymul(y, R2);
    let y1 = mq_montymul(y0, y0);
    let y2 = mq_montymul(y1, y0);
    let y3 = mq_montymul(y2, y1);
    let y4 = mq_montymul(y3, y3);
    let y5 = mq_montymul(y4, y4);
    let y6 = mq_montymul(y5, y5);
    let y7 = mq_montymul(y6, y6);
    let y8 = mq_montymul(y7, y7);
    let y9 = mq_montymul(y8, y2);
    let y10 = mq_montymul(y9, y8);
    let y11 = mq_montymul(y10, y10);
    let y12 = mq_montymul(y11, y11);
    let y13 = mq_montymul(y12, y9);
    let y14 = mq_montymul(y13, y13);
    let y15 = mq_montymul(y14, y14);
    let y16 = mq_montymul(y15, y10);
    let y17 = mq_montymul(y16, y16);
    let y18 = mq_montymul(y17, y0);
    mq_montymul(y18, x)
}

/// x[i] = x[i] / y[i] mod q for all i (0 where y[i] = 0), AVX2 when
/// available.
fn mq_div_all(x: &mut [u16], y: &[u16]) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::mq_avx2::try_div(x, y) {
        return;
    }
    for (a, &b) in x.iter_mut().zip(y) {
        *a = mq_div_12289(u32::from(*a), u32::from(b)) as u16;
    }
}

/// Forward NTT (values 0..q in and out), AVX2 when available.
fn mq_ntt(a: &mut [u16], logn: u32) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::mq_avx2::try_ntt(a, logn) {
        return;
    }
    mq_ntt_portable(a, logn);
}

/// Inverse NTT with 1/n scaling (values 0..q in and out), AVX2 when
/// available.
fn mq_intt(a: &mut [u16], logn: u32) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::mq_avx2::try_intt(a, logn) {
        return;
    }
    mq_intt_portable(a, logn);
}

/// Portable forward NTT (the reference for the AVX2 one).
pub(crate) fn mq_ntt_portable(a: &mut [u16], logn: u32) {
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
                let v = mq_montymul(u32::from(a[j + ht]), s);
                a[j] = mq_add(u, v) as u16;
                a[j + ht] = mq_sub(u, v) as u16;
            }
            j1 += t;
        }
        t = ht;
        m <<= 1;
    }
}

/// Portable inverse NTT (the reference for the AVX2 one).
pub(crate) fn mq_intt_portable(a: &mut [u16], logn: u32) {
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
                a[j] = mq_add(u, v) as u16;
                a[j + t] = mq_montymul(mq_sub(u, v), s) as u16;
            }
            j1 += dt;
        }
        t = dt;
        m = hm;
    }
    let mut ni = R;
    let mut m = n;
    while m > 1 {
        ni = mq_rshift1(ni);
        m >>= 1;
    }
    for x in &mut a[..n] {
        *x = mq_montymul(u32::from(*x), ni) as u16;
    }
}

/// Converts a public key h to NTT + Montgomery form for [`verify_raw`].
pub(crate) fn to_ntt_monty(h: &mut [u16], logn: u32) {
    mq_ntt(h, logn);
    for x in &mut h[..1 << logn] {
        *x = mq_montymul(u32::from(*x), R2) as u16;
    }
}

/// Squared-norm bounds floor(beta^2), indexed by logn.
pub(crate) const L2BOUND: [u32; 11] = [
    0, 101498, 208714, 428865, 892039, 1852696, 3842630, 7959734, 16468416, 34034726, 70265242,
];

/// ||(s1, s2)||^2 <= bound, saturating on overflow (returns the
/// comparison as a bool; constant time in the values). The reference of
/// [`verify_raw`]'s streamed norm.
#[cfg(test)]
pub(crate) fn is_short(s1: &[i16], s2: &[i16], logn: u32) -> bool {
    let mut s = 0u32;
    let mut ng = 0u32;
    for (&a, &b) in s1.iter().zip(s2) {
        let a = i32::from(a);
        let b = i32::from(b);
        s = s.wrapping_add((a * a) as u32);
        ng |= s;
        s = s.wrapping_add((b * b) as u32);
        ng |= s;
    }
    s |= (ng >> 31).wrapping_neg();
    s <= L2BOUND[logn as usize]
}

/// As [`is_short`], with ||s1||^2 given as `sqn` (saturated). Returns an
/// all-ones mask when short.
pub(crate) fn is_short_half_mask(mut sqn: u32, s2: &[i16], logn: u32) -> u32 {
    let mut ng = (sqn >> 31).wrapping_neg();
    for &b in s2 {
        let b = i32::from(b);
        sqn = sqn.wrapping_add((b * b) as u32);
        ng |= sqn;
    }
    sqn |= (ng >> 31).wrapping_neg();
    !pqforge_core::ct::lt_mask_u32(L2BOUND[logn as usize], sqn)
}

/// Verification core: s1 = c0 - s2 h (mod q, centred), accept if
/// ||(s1, s2)||^2 <= bound. `h` is in NTT + Montgomery form; `tmp` holds n
/// values.
pub(crate) fn verify_raw(c0: &[u16], s2: &[i16], h: &[u16], logn: u32, tmp: &mut [u16]) -> bool {
    let n = 1usize << logn;
    let tt = &mut tmp[..n];
    for (t, &s) in tt.iter_mut().zip(s2) {
        *t = mq_conv_small(i32::from(s)) as u16;
    }
    mq_ntt(tt, logn);
    for (t, &hh) in tt.iter_mut().zip(h) {
        *t = mq_montymul(u32::from(*t), u32::from(hh)) as u16;
    }
    mq_intt(tt, logn);
    // s1 = c0 - s2 h is not stored: its squared norm is summed as it is
    // computed (saturating like `is_short`, which gives the same verdict:
    // the partial sums only grow, in either order), then s2 is added.
    let mut sqn = 0u32;
    let mut ng = 0u32;
    for u in 0..n {
        let w = mq_sub(u32::from(tt[u]), u32::from(c0[u])) as i32;
        // Centre into -(q-1)/2 .. (q-1)/2.
        let w = w - (Q & (((Q >> 1).wrapping_sub(w as u32)) >> 31).wrapping_neg()) as i32;
        let w = i32::from(w as i16);
        sqn = sqn.wrapping_add((w * w) as u32);
        ng |= sqn;
    }
    sqn |= (ng >> 31).wrapping_neg();
    is_short_half_mask(sqn, s2, logn) == u32::MAX
}

/// G = F h mod q, centred, from F and a public key h in NTT + Montgomery
/// form (key generation completing a fresh key: f G - g F = q gives
/// G = g F / f = h F). Returns false if a value is outside [-127, 127].
/// `tmp` holds n values. CT: only the final validity bit is declassified.
pub(crate) fn complete_from_h(
    gg: &mut [i8],
    ff: &[i8],
    h: &[u16],
    logn: u32,
    tmp: &mut [u16],
) -> bool {
    let n = 1usize << logn;
    let tt = &mut tmp[..n];
    for (t, &x) in tt.iter_mut().zip(ff) {
        *t = mq_conv_small(i32::from(x)) as u16;
    }
    mq_ntt(tt, logn);
    for (t, &hh) in tt.iter_mut().zip(h) {
        *t = mq_montymul(u32::from(*t), u32::from(hh)) as u16;
    }
    mq_intt(tt, logn);
    let mut bad = 0u32;
    for u in 0..n {
        let w = u32::from(tt[u]);
        let w = w.wrapping_sub(Q & !((w.wrapping_sub(Q >> 1)) >> 31).wrapping_neg());
        let gi = w as i32;
        // |gi| > 127 is bad.
        bad |= pqforge_core::ct::lt_mask_u32(254, (gi + 127) as u32);
        gg[u] = gi as i8;
    }
    // CT: whether the key completes is public (it always does for a key
    // that key generation accepted).
    !declassify_bool(bad != 0)
}

/// h = g / f mod q. Returns false (keygen retries) when f is not
/// invertible. CT: the invertibility bit is declassified (rejection loop).
pub(crate) fn compute_public(
    h: &mut [u16],
    f: &[i8],
    g: &[i8],
    logn: u32,
    tmp: &mut [u16],
) -> bool {
    let n = 1usize << logn;
    let tt = &mut tmp[..n];
    for u in 0..n {
        tt[u] = mq_conv_small(i32::from(f[u])) as u16;
        h[u] = mq_conv_small(i32::from(g[u])) as u16;
    }
    mq_ntt(&mut h[..n], logn);
    mq_ntt(tt, logn);
    let mut zero = 0u32;
    for u in 0..n {
        zero |= pqforge_core::ct::eq_mask_u32(u32::from(tt[u]), 0);
    }
    mq_div_all(&mut h[..n], tt);
    // CT: keygen rejection bit (f invertible mod q), declassified.
    if declassify_bool(zero != 0) {
        return false;
    }
    mq_intt(&mut h[..n], logn);
    true
}

/// G = g F / f mod q (from f g G - g F = q, i.e. f G = g F mod q), checked
/// to lie in [-127, 127]. Returns false for keys that do not complete.
/// CT: only the final validity bit is declassified.
pub(crate) fn complete_private(
    gg: &mut [i8],
    f: &[i8],
    g: &[i8],
    ff: &[i8],
    logn: u32,
    tmp: &mut [u16],
) -> bool {
    let n = 1usize << logn;
    let (t1, rest) = tmp.split_at_mut(n);
    let t2 = &mut rest[..n];
    for u in 0..n {
        t1[u] = mq_conv_small(i32::from(g[u])) as u16;
        t2[u] = mq_conv_small(i32::from(ff[u])) as u16;
    }
    mq_ntt(t1, logn);
    mq_ntt(t2, logn);
    for u in 0..n {
        let a = mq_montymul(u32::from(t1[u]), R2);
        t1[u] = mq_montymul(a, u32::from(t2[u])) as u16;
    }
    for u in 0..n {
        t2[u] = mq_conv_small(i32::from(f[u])) as u16;
    }
    mq_ntt(t2, logn);
    let mut bad = 0u32;
    for u in 0..n {
        bad |= pqforge_core::ct::eq_mask_u32(u32::from(t2[u]), 0);
    }
    mq_div_all(t1, t2);
    mq_intt(t1, logn);
    for u in 0..n {
        let w = u32::from(t1[u]);
        let w = w.wrapping_sub(Q & !((w.wrapping_sub(Q >> 1)) >> 31).wrapping_neg());
        let gi = w as i32;
        // |gi| > 127 is bad.
        bad |= pqforge_core::ct::lt_mask_u32(254, (gi + 127) as u32);
        gg[u] = gi as i8;
    }
    // CT: whether the secret key is well formed is public.
    !declassify_bool(bad != 0)
}

/// HashToPoint (specification Algorithm 3): 16-bit big-endian samples from
/// SHAKE256, rejecting values >= 5q, reduced mod q. Variable time: the
/// input (nonce and message) is public.
///
/// `sc` must have absorbed its input and not squeezed yet: the first
/// output block comes from `sc`, the following ones from a copy of its
/// state run through the unrolled permutation (BMI1/BMI2 when available),
/// block by block.
pub(crate) fn hash_to_point(sc: &mut Shake256, x: &mut [u16]) {
    const RATE: usize = 136;
    if x.is_empty() {
        return;
    }
    let mut buf = [0u8; RATE];
    sc.squeeze(&mut buf);
    let mut st = *sc.state();
    let mut u = 0;
    loop {
        for pair in buf.chunks_exact(2) {
            let w = (u32::from(pair[0]) << 8) | u32::from(pair[1]);
            if w < 5 * Q {
                x[u] = (w % Q) as u16;
                u += 1;
                if u == x.len() {
                    return;
                }
            }
        }
        pqforge_core::keccak_x4::keccak_f1600_unrolled(&mut st);
        for (chunk, lane) in buf.chunks_exact_mut(8).zip(st.iter()) {
            chunk.copy_from_slice(&lane.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Squared norm exactly at floor(beta^2) is accepted, one above is not.
    #[test]
    fn norm_bound_is_inclusive() {
        for logn in [9u32, 10] {
            let n = 1usize << logn;
            let bound = L2BOUND[logn as usize];
            // Spread the bound over s1 and s2 with values of at most 2047.
            let mut s1 = [0i16; 1024];
            let mut s2 = [0i16; 1024];
            let mut rem = bound;
            for i in 0..2 * n {
                let mut c = 0i32;
                while ((c + 1) * (c + 1)) as u32 <= rem && c < 2047 {
                    c += 1;
                }
                rem -= (c * c) as u32;
                if i % 2 == 0 {
                    s1[i / 2] = c as i16;
                } else {
                    s2[i / 2] = c as i16;
                }
            }
            assert_eq!(rem, 0);
            assert!(is_short(&s1[..n], &s2[..n], logn));
            let sq1: u32 = s1[..n]
                .iter()
                .map(|&x| (i32::from(x) * i32::from(x)) as u32)
                .sum();
            assert_eq!(is_short_half_mask(sq1, &s2[..n], logn), u32::MAX);
            // One more: bump a zero coefficient to 1.
            let z = s2[..n].iter().position(|&x| x == 0).expect("a zero");
            s2[z] = 1;
            assert!(!is_short(&s1[..n], &s2[..n], logn));
            assert_eq!(is_short_half_mask(sq1, &s2[..n], logn), 0);
            // Saturation: huge values never wrap around to "short".
            let big = [2047i16; 1024];
            assert!(!is_short(&big[..n], &big[..n], logn));
            assert_eq!(is_short_half_mask(u32::MAX, &s2[..n], logn), 0);
        }
    }

    /// The streamed norm of `verify_raw` gives the verdict of `is_short`
    /// on the stored s1, on inputs around the bound: c0 = s2 h + s1 for
    /// known small s1, s2 and a random h.
    #[test]
    fn verify_raw_matches_is_short() {
        let mut r = pqforge_core::testing::TestRng::new(0x5EED);
        let mut seen = [0usize; 2];
        for logn in [9u32, 10] {
            let n = 1usize << logn;
            for trial in 0..60 {
                let mut h = [0u16; 1024];
                for x in &mut h[..n] {
                    *x = r.below(Q as usize) as u16;
                }
                // Coefficients uniform in [-a, a], a around the bound.
                let a = 250 + trial * 2;
                let mut s1 = [0i16; 1024];
                let mut s2 = [0i16; 1024];
                for x in s1[..n].iter_mut().chain(&mut s2[..n]) {
                    *x = (r.below(2 * a + 1) as i32 - a as i32) as i16;
                }
                let mut tt = [0u16; 1024];
                for (t, &s) in tt.iter_mut().zip(&s2[..n]) {
                    *t = mq_conv_small(i32::from(s)) as u16;
                }
                mq_ntt(&mut tt[..n], logn);
                for (t, &hh) in tt.iter_mut().zip(&h[..n]) {
                    *t = mq_montymul(u32::from(*t), u32::from(hh)) as u16;
                }
                mq_intt(&mut tt[..n], logn);
                let mut c0 = [0u16; 1024];
                for u in 0..n {
                    c0[u] = mq_add(u32::from(tt[u]), mq_conv_small(i32::from(s1[u]))) as u16;
                }
                let want = is_short(&s1[..n], &s2[..n], logn);
                let mut tmp = [0u16; 1024];
                let got = verify_raw(&c0[..n], &s2[..n], &h[..n], logn, &mut tmp);
                assert_eq!(got, want, "logn {logn} trial {trial}");
                seen[usize::from(got)] += 1;
            }
        }
        assert!(seen[0] > 10 && seen[1] > 10, "{seen:?}");
    }

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
}
