//! The portable backend: the reference kernels on every target (the
//! Cortex-M4 runs them). The ring product works on coefficient pairs
//! packed in 32-bit words (low half the even coefficient): Karatsuba on
//! whole words ([`karatsuba_words`], two lanes per addition: one `UADD16`
//! or `USUB16` on the Cortex-M4) down to blocks of 20 to 32 coefficients,
//! multiplied by a product-scanning schoolbook that computes two output
//! pairs per pass ([`words_fixed`]: one `SMLADX` per two products on the
//! Cortex-M4, see `armv7em.rs`).

use pqforge_core::ct;

use crate::kem::Backend;
use crate::params::{ParameterSet, padded_len};

/// The portable backend.
pub(crate) struct Portable;

impl Backend for Portable {
    const NAME: &'static str = "portable";

    fn ring_mul<P: ParameterSet>(r: &mut [u16], a: &[u16], b: &[u16]) {
        ring_mul_pairs::<P>(r, a, b);
    }
}

/// `acc + lo(x)·hi(y) + hi(x)·lo(y)` modulo 2^32, the 16-bit halves read
/// as `i16` (the Cortex-M4's `SMLADX`; 32-bit Arm has the assembly one).
#[cfg(not(target_arch = "arm"))]
#[inline(always)]
fn smladx(acc: u32, x: u32, y: u32) -> u32 {
    let half = |w: u32| i32::from(w as u16 as i16);
    let p = (half(x) * half(y >> 16)).wrapping_add(half(x >> 16) * half(y));
    acc.wrapping_add(p as u32)
}

/// The 16-bit lanes of `x` and `y` added modulo 2^16 (the Cortex-M4's
/// `UADD16`; 32-bit Arm has the assembly one).
#[cfg(not(target_arch = "arm"))]
#[inline(always)]
fn add16(x: u32, y: u32) -> u32 {
    let lo = x.wrapping_add(y) & 0xFFFF;
    let hi = (x & 0xFFFF_0000).wrapping_add(y & 0xFFFF_0000);
    lo | hi
}

/// The 16-bit lanes of `y` subtracted from those of `x` modulo 2^16 (the
/// Cortex-M4's `USUB16`; 32-bit Arm has the assembly one).
#[cfg(not(target_arch = "arm"))]
#[inline(always)]
fn sub16(x: u32, y: u32) -> u32 {
    let lo = x.wrapping_sub(y) & 0xFFFF;
    let hi = (x & 0xFFFF_0000).wrapping_sub(y & 0xFFFF_0000);
    lo | hi
}

/// One schoolbook pass (the assembly one on 32-bit Arm): for k < n =
/// `a.len()`, with (S_k, W_k) = `sw[2(n − 1 − k)..][..2]` (read downwards)
/// and (S_−1, W_−1) = `sw[2n..2n + 2]`, the sums over k e0 =
/// smladx(a\[k\], S_k), o0 = smladx(a\[k\], W_k), e1 = smladx(a\[k\],
/// S_k−1), o1 = smladx(a\[k\], W_k−1), stored as r\[0\] = (e0, o0), r\[1\]
/// = (e1, o1) (low halves).
#[cfg(not(target_arch = "arm"))]
#[inline(always)]
fn scan2(r: &mut [u32], a: &[u32], sw: &[u32]) {
    let n = a.len();
    assert!(n >= 1 && sw.len() == 2 * n + 2 && r.len() == 2);
    let (mut e0, mut o0, mut e1, mut o1) = (0u32, 0u32, 0u32, 0u32);
    let (mut s1, mut w1) = (sw[2 * n], sw[2 * n + 1]);
    for (&x, p) in a.iter().zip(sw[..2 * n].chunks_exact(2).rev()) {
        let (s0, w0) = (p[0], p[1]);
        e0 = smladx(e0, x, s0);
        o0 = smladx(o0, x, w0);
        e1 = smladx(e1, x, s1);
        o1 = smladx(o1, x, w1);
        s1 = s0;
        w1 = w0;
    }
    r[0] = pack(e0, o0);
    r[1] = pack(e1, o1);
}

#[cfg(target_arch = "arm")]
use super::armv7em::{add16, scan2, sub16};

/// Largest block (in coefficients) the schoolbook multiplies (the
/// Karatsuba base).
const PAIRS_MAX: usize = crate::params::KARATSUBA_BASE;

/// Words of the schoolbook's (S, W) pairs ([`words_fixed`]): H + 3 pairs
/// for H ≤ 16 words.
const SW_WORDS: usize = 2 * (PAIRS_MAX / 2 + 3);

/// The word holding coefficients `lo` (low half) and `hi`.
#[inline(always)]
fn pack(lo: u32, hi: u32) -> u32 {
    (lo & 0xFFFF) | (hi << 16)
}

/// `r = a·b mod (x^n − 1)` (exact modulo 2^16) in a frame of its own: the
/// operands packed in pairs and zero-padded to
/// [`padded_len`] coefficients, their product by [`karatsuba_words`],
/// folded. The frame is wiped on return.
#[inline(never)]
fn ring_mul_pairs<P: ParameterSet>(r: &mut [u16], a: &[u16], b: &[u16]) {
    // A constant: at opt-level "z" a run-time call would divide by 2^L.
    let w = const { padded_len(P::N) } / 2;
    let mut frame = P::PAIRS_ZERO;
    let (pa, rest) = frame.as_mut().split_at_mut(w);
    let (pb, rest) = rest.split_at_mut(w);
    let (prod, s) = rest.split_at_mut(2 * w);
    for (x, p) in [(a, &mut *pa), (b, &mut *pb)] {
        for (d, c) in p.iter_mut().zip(x.chunks(2)) {
            *d = pack(u32::from(c[0]), c.get(1).map_or(0, |&h| u32::from(h)));
        }
    }
    let mut sw = [0u32; SW_WORDS];
    karatsuba_words(prod, pa, pb, s, &mut sw);
    fold_pairs(r, prod);
    ct::wipe_secret(frame.as_mut());
    ct::wipe_secret(&mut sw);
}

/// `r[k] = c[k] + c[k + n]` (n = `r.len()`) for the coefficients c of the
/// packed product `prod`: the full product folded modulo x^n − 1. For odd
/// n (every set), with h = (n − 1)/2, c[n + 2i] is the high half of word
/// h + i and c[n + 2i + 1] the low half of word h + i + 1: one funnel and
/// one lane addition per two coefficients.
fn fold_pairs(r: &mut [u16], prod: &[u32]) {
    let n = r.len();
    let coef = |i: usize| (prod[i / 2] >> (16 * (i & 1))) as u16;
    if n.is_multiple_of(2) {
        for (k, x) in r.iter_mut().enumerate() {
            *x = coef(k).wrapping_add(coef(k + n));
        }
        return;
    }
    let h = n / 2;
    let (pairs, last) = r.split_at_mut(n - 1);
    let tops = prod[h..].windows(2).map(|w| (w[0] >> 16) | (w[1] << 16));
    for ((d, &low), top) in pairs.chunks_exact_mut(2).zip(&prod[..h]).zip(tops) {
        let w = add16(low, top);
        d[0] = w as u16;
        d[1] = (w >> 16) as u16;
    }
    last[0] = coef(n - 1).wrapping_add(coef(2 * n - 1));
}

/// `r = a·b` (2w words: 4w coefficients, the last one zero) for w-word
/// operands (2w coefficients each): Karatsuba on halves of w/2 words (w
/// even above the base) down to blocks of at most
/// [`KARATSUBA_BASE`](crate::params::KARATSUBA_BASE) coefficients, which
/// [`base_words`] multiplies. `s` is scratch of
/// [`karatsuba_scratch(2w)`](crate::params::karatsuba_scratch) / 2 words.
fn karatsuba_words(r: &mut [u32], a: &[u32], b: &[u32], s: &mut [u32], sw: &mut [u32; SW_WORDS]) {
    let w = a.len();
    debug_assert!(b.len() == w && r.len() >= 2 * w);
    if 2 * w <= PAIRS_MAX {
        base_words(&mut r[..2 * w], a, b, sw);
        return;
    }
    assert!(w.is_multiple_of(2), "Karatsuba split on whole words");
    let h = w / 2;
    let (a0, a1) = a.split_at(h);
    let (b0, b1) = b.split_at(h);
    let (lo, hi) = r[..2 * w].split_at_mut(w);
    karatsuba_words(lo, a0, b0, s, sw);
    karatsuba_words(hi, a1, b1, s, sw);
    let (sa, rest) = s.split_at_mut(h);
    let (sb, rest) = rest.split_at_mut(h);
    let (mid, rest) = rest.split_at_mut(w);
    for (((x, y), (&u0, &u1)), (&v0, &v1)) in sa
        .iter_mut()
        .zip(sb.iter_mut())
        .zip(a0.iter().zip(a1))
        .zip(b0.iter().zip(b1))
    {
        *x = add16(u0, u1);
        *y = add16(v0, v1);
    }
    karatsuba_words(mid, sa, sb, rest, sw);
    // With r = L0 + X·L1 + X²·H0 + X³·H1 (a0·b0 = L0 + X·L1, a1·b1 = H0 +
    // X·H1, X = x^(2h)) and M = M0 + X·M1 = (a0 + a1)(b0 + b1), the middle
    // term M − a0·b0 − a1·b1 lands at X: with T = L1 − H0, the new L1 is
    // M0 − L0 + T and the new H0 is M1 − H1 − T.
    let (l0, l1) = lo.split_at_mut(h);
    let (h0, h1) = hi.split_at_mut(h);
    let (m0, m1) = mid.split_at(h);
    for ((((x0, x1), (y0, y1)), &z0), &z1) in l0
        .iter()
        .zip(l1.iter_mut())
        .zip(h0.iter_mut().zip(h1.iter()))
        .zip(m0)
        .zip(m1)
    {
        let t = sub16(*x1, *y0);
        *x1 = add16(sub16(z0, *x0), t);
        *y0 = sub16(sub16(z1, *y1), t);
    }
}

/// The schoolbook base case: [`words_fixed`] for the block sizes of
/// [`padded_len`], [`words_generic`] otherwise.
fn base_words(r: &mut [u32], a: &[u32], b: &[u32], sw: &mut [u32; SW_WORDS]) {
    match a.len() {
        10 => words_fixed::<10>(r, a, b, sw),
        12 => words_fixed::<12>(r, a, b, sw),
        14 => words_fixed::<14>(r, a, b, sw),
        16 => words_fixed::<16>(r, a, b, sw),
        _ => words_generic(r, a, b),
    }
}

/// `r = a·b` (2H words) for H-word operands (H ≤ 16): product scanning on
/// packed pairs, two output words per pass. With A\[p\] = a\[p\] =
/// (a_2p, a_2p+1), W\[j\] = b\[j\] = (b_2j, b_2j+1) and S\[j\] = (b_2j−1,
/// b_2j) (zero outside b, low half first), output word t holds
/// r_2t = Σ_p smladx(A\[p\], S\[t−p\]) and r_2t+1 = Σ_p smladx(A\[p\],
/// W\[t−p\]). A pass computes words t and t + 1 over the p of either (the
/// terms outside b meet zero words), so each A\[p\] is loaded once for four
/// `SMLADX` and the S, W words of word t + 1 are those word t used one
/// step earlier (kept in registers). The bounds depend on t only (public);
/// only the low 16 bits of each sum are kept, which do not depend on
/// reading the halves as signed.
#[inline(always)]
fn words_fixed<const H: usize>(r: &mut [u32], a: &[u32], b: &[u32], sw: &mut [u32; SW_WORDS]) {
    const { assert!(2 * H <= PAIRS_MAX && H >= 2 && H.is_multiple_of(2)) };
    let a: &[u32; H] = a.try_into().expect("block size");
    let b: &[u32; H] = b.try_into().expect("block size");
    let r = &mut r[..2 * H];
    // sw[2k] = S[k − 1] and sw[2k + 1] = W[k − 1] for k < H + 3 (zero
    // where j < 0 or j > H, resp. j ≥ H): one `LDRD` loads both. The
    // buffer is the product's (wiped once at its end): only the pads are
    // zeroed here.
    sw[..2].fill(0);
    sw[2 * H + 3..2 * H + 6].fill(0);
    sw[2] = b[0] << 16;
    for j in 1..H {
        sw[2 * j + 2] = (b[j - 1] >> 16) | (b[j] << 16);
    }
    sw[2 * H + 2] = b[H - 1] >> 16;
    for (d, &x) in sw[3..].iter_mut().step_by(2).zip(b) {
        *d = x;
    }
    // Words t, t + 1 read p from lo = max(0, t − H) to hi = min(t + 1,
    // H − 1), the S, W of word t at pair k = t − p + 1 and those of word
    // t + 1 at k + 1 (pair t − lo + 2 first: zero for t ≥ H). H is even.
    for t in (0..H).step_by(2) {
        scan2(&mut r[t..t + 2], &a[..t + 2], &sw[..2 * t + 6]);
    }
    for t in (H..2 * H).step_by(2) {
        scan2(
            &mut r[t..t + 2],
            &a[t - H..],
            &sw[2 * (t - H + 2)..2 * H + 6],
        );
    }
}

/// `r = a·b` (2w words) for any w-word operands: the coefficient
/// schoolbook on the unpacked halves (block sizes outside
/// [`padded_len`]'s; tests).
fn words_generic(r: &mut [u32], a: &[u32], b: &[u32]) {
    let m = 2 * a.len();
    let coef = |x: &[u32], i: usize| (x[i / 2] >> (16 * (i & 1))) as u16;
    r.fill(0);
    for i in 0..m {
        for j in 0..m {
            let p = u32::from(coef(a, i).wrapping_mul(coef(b, j)));
            let k = i + j;
            r[k / 2] = add16(r[k / 2], p << (16 * (k & 1)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::schoolbook;
    use crate::poly::tests::rand_poly;
    use std::vec;
    use std::vec::Vec;

    fn packed(x: &[u16]) -> Vec<u32> {
        x.chunks(2)
            .map(|c| pack(u32::from(c[0]), c.get(1).map_or(0, |&h| u32::from(h))))
            .collect()
    }

    #[test]
    fn lane_ops_match_u16() {
        let mut seed = 3;
        let v = rand_poly(&mut seed, 4000);
        for c in v.chunks_exact(4) {
            let (x, y) = (
                pack(c[0].into(), c[1].into()),
                pack(c[2].into(), c[3].into()),
            );
            let add = pack(
                c[0].wrapping_add(c[2]).into(),
                c[1].wrapping_add(c[3]).into(),
            );
            let sub = pack(
                c[0].wrapping_sub(c[2]).into(),
                c[1].wrapping_sub(c[3]).into(),
            );
            assert_eq!(add16(x, y), add);
            assert_eq!(sub16(x, y), sub);
        }
    }

    #[test]
    fn word_product_matches_schoolbook() {
        let mut seed = 9u64;
        for m in [4, 20, 24, 28, 32, 40, 48, 512, 768, 896, 1280, 1536] {
            for round in 0..3 {
                let (mut a, mut b) = (rand_poly(&mut seed, m), rand_poly(&mut seed, m));
                if round == 0 {
                    a.fill(u16::MAX);
                    b.fill(0x8000);
                }
                let mut want = vec![0u16; 2 * m];
                schoolbook(&mut want, &a, &b);
                let mut got = vec![1u32; m];
                let mut s = vec![0u32; crate::params::karatsuba_scratch(m) / 2];
                let mut sw = [0u32; SW_WORDS];
                karatsuba_words(&mut got, &packed(&a), &packed(&b), &mut s, &mut sw);
                assert_eq!(got, packed(&want), "m = {m}");
            }
        }
    }
}
