//! Polynomials modulo q = 12289 ([`crate::mq`]): verification, public-key
//! computation, completion of the private key (G from f, g, F),
//! hash-to-point and the norm bound.

use crate::backend::Backend;
use crate::ct_util::declassify_bool;
use crate::mq::{self, Q, R2};
use pqforge_core::keccak::Shake256;

/// Converts a public key h to NTT + Montgomery form for [`verify_raw`].
pub(crate) fn to_ntt_monty<B: Backend>(b: B, h: &mut [u16], logn: u32) {
    b.mq_ntt(h, logn);
    for x in &mut h[..1 << logn] {
        *x = mq::montymul(u32::from(*x), R2) as u16;
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

/// tt = x h mod q, x small (n = 2^logn values, signed), h in NTT +
/// Montgomery form: the product of verification and completion.
#[inline(always)]
fn mul_by_h<B: Backend>(b: B, tt: &mut [u16], x: impl Iterator<Item = i32>, h: &[u16], logn: u32) {
    for (t, v) in tt.iter_mut().zip(x) {
        *t = mq::from_signed(v) as u16;
    }
    b.mq_ntt(tt, logn);
    for (t, &hh) in tt.iter_mut().zip(h) {
        *t = mq::montymul(u32::from(*t), u32::from(hh)) as u16;
    }
    b.mq_intt(tt, logn);
}

/// gg = tt centred mod q (6144 maps to -6145, as in the reference); the
/// mask is all-ones if some value is outside [-127, 127]. CT.
fn to_small(gg: &mut [i8], tt: &[u16]) -> u32 {
    let mut bad = 0u32;
    for (g, &w) in gg.iter_mut().zip(tt) {
        let w = u32::from(w);
        let w = w.wrapping_sub(Q & !((w.wrapping_sub(Q >> 1)) >> 31).wrapping_neg());
        let gi = w as i32;
        // |gi| > 127 is bad.
        bad |= pqforge_core::ct::lt_mask_u32(254, (gi + 127) as u32);
        *g = gi as i8;
    }
    bad
}

/// Verification core: s1 = c0 - s2 h (mod q, centred), accept if
/// ||(s1, s2)||^2 <= bound. `h` is in NTT + Montgomery form; `tmp` holds n
/// values.
pub(crate) fn verify_raw<B: Backend>(
    b: B,
    c0: &[u16],
    s2: &[i16],
    h: &[u16],
    logn: u32,
    tmp: &mut [u16],
) -> bool {
    let n = 1usize << logn;
    let tt = &mut tmp[..n];
    mul_by_h(b, tt, s2.iter().map(|&s| i32::from(s)), h, logn);
    // s1 = c0 - s2 h is not stored: its squared norm is summed as it is
    // computed (saturating like `is_short`, which gives the same verdict:
    // the partial sums only grow, in either order), then s2 is added.
    let mut sqn = 0u32;
    let mut ng = 0u32;
    for u in 0..n {
        let w = mq::sub(u32::from(tt[u]), u32::from(c0[u]));
        // Centre into -(q-1)/2 .. (q-1)/2.
        let w = i32::from(mq::center(w) as i16);
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
pub(crate) fn complete_from_h<B: Backend>(
    b: B,
    gg: &mut [i8],
    ff: &[i8],
    h: &[u16],
    logn: u32,
    tmp: &mut [u16],
) -> bool {
    let n = 1usize << logn;
    let tt = &mut tmp[..n];
    mul_by_h(b, tt, ff.iter().map(|&x| i32::from(x)), h, logn);
    let bad = to_small(&mut gg[..n], tt);
    // CT: whether the key completes is public (it always does for a key
    // that key generation accepted).
    !declassify_bool(bad != 0)
}

/// h = g / f mod q. Returns false (keygen retries) when f is not
/// invertible. CT: the invertibility bit is declassified (rejection loop).
pub(crate) fn compute_public<B: Backend>(
    b: B,
    h: &mut [u16],
    f: &[i8],
    g: &[i8],
    logn: u32,
    tmp: &mut [u16],
) -> bool {
    let n = 1usize << logn;
    let tt = &mut tmp[..n];
    for u in 0..n {
        tt[u] = mq::from_signed(i32::from(f[u])) as u16;
        h[u] = mq::from_signed(i32::from(g[u])) as u16;
    }
    b.mq_ntt(&mut h[..n], logn);
    b.mq_ntt(tt, logn);
    let invertible = mq::nonzero_mask(tt);
    b.mq_div(&mut h[..n], tt);
    // CT: keygen rejection bit (f invertible mod q), declassified.
    if declassify_bool(invertible != u32::MAX) {
        return false;
    }
    b.mq_intt(&mut h[..n], logn);
    true
}

/// G = g F / f mod q (from f g G - g F = q, i.e. f G = g F mod q), checked
/// to lie in [-127, 127]. Returns false for keys that do not complete.
/// CT: only the final validity bit is declassified.
pub(crate) fn complete_private<B: Backend>(
    b: B,
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
        t1[u] = mq::from_signed(i32::from(g[u])) as u16;
        t2[u] = mq::from_signed(i32::from(ff[u])) as u16;
    }
    b.mq_ntt(t1, logn);
    b.mq_ntt(t2, logn);
    mq::mul_all(t1, t2);
    for u in 0..n {
        t2[u] = mq::from_signed(i32::from(f[u])) as u16;
    }
    b.mq_ntt(t2, logn);
    let mut bad = !mq::nonzero_mask(t2);
    b.mq_div(t1, t2);
    b.mq_intt(t1, logn);
    bad |= to_small(&mut gg[..n], t1);
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
/// block by block. On 32-bit targets every block comes from `sc` (its
/// state stays bit-interleaved, so a block converts only the 17 rate
/// lanes).
pub(crate) fn hash_to_point(sc: &mut Shake256, x: &mut [u16]) {
    const RATE: usize = 136;
    if x.is_empty() {
        return;
    }
    let mut buf = [0u8; RATE];
    sc.squeeze(&mut buf);
    #[cfg(not(target_pointer_width = "32"))]
    let mut st = sc.state();
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
        #[cfg(target_pointer_width = "32")]
        sc.squeeze(&mut buf);
        #[cfg(not(target_pointer_width = "32"))]
        {
            pqforge_core::keccak_x4::keccak_f1600_unrolled(&mut st);
            for (chunk, lane) in buf.chunks_exact_mut(8).zip(st.iter()) {
                chunk.copy_from_slice(&lane.to_le_bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;

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
            // Under Miri every 10th trial (the bound stays inside the range).
            for trial in (0..60).step_by(if cfg!(miri) { 10 } else { 1 }) {
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
                    *t = mq::from_signed(i32::from(s)) as u16;
                }
                mq::ntt(&mut tt[..n], logn);
                for (t, &hh) in tt.iter_mut().zip(&h[..n]) {
                    *t = mq::montymul(u32::from(*t), u32::from(hh)) as u16;
                }
                mq::intt(&mut tt[..n], logn);
                let mut c0 = [0u16; 1024];
                for u in 0..n {
                    c0[u] = mq::add(u32::from(tt[u]), mq::from_signed(i32::from(s1[u]))) as u16;
                }
                let want = is_short(&s1[..n], &s2[..n], logn);
                let mut tmp = [0u16; 1024];
                let got = verify_raw(Portable, &c0[..n], &s2[..n], &h[..n], logn, &mut tmp);
                assert_eq!(got, want, "logn {logn} trial {trial}");
                seen[usize::from(got)] += 1;
            }
        }
        let min = if cfg!(miri) { 1 } else { 10 };
        assert!(seen[0] > min && seen[1] > min, "{seen:?}");
    }
}
