//! Arithmetic in R = `Z[x]`/(x^p - x - 1) modulo q and modulo 3: the
//! product kernel, the reduction of a product, and the two constant-time
//! inversions of the submission (a division-free extended gcd with 2p - 1
//! iterations of masked updates, for any input).

use crate::arith::{ModQ, Modulus, f3_small, nonzero_mask, shift7, swap_mask};
use pqforge_core::ct::barrier_u32;
use zeroize::Zeroize;

use crate::params::{Buf, ParameterSet};

/// The plain product `out[0..2n-1] = a · b` of `a` (|a_i| ≤ 4000) and the
/// small `b` (n = `a.len()` = `b.len()`), accumulated in 32-bit integers
/// without reduction (|out_i| ≤ n·4000 < 2^23). Schoolbook, row by row, so
/// that the inner loop is a vector multiply-add (the unit tests' reference).
#[cfg(test)]
pub(crate) fn mul_plain(out: &mut [i32], a: &[i16], b: &[i8]) {
    let n = a.len();
    debug_assert!(b.len() == n && out.len() == 2 * n - 1);
    out.fill(0);
    for (i, &ai) in a.iter().enumerate() {
        let ai = i32::from(ai);
        for (o, &bj) in out[i..i + n].iter_mut().zip(b) {
            *o += ai * i32::from(bj);
        }
    }
}

/// Karatsuba levels of [`mul_karatsuba`]: three keep every operand sum in
/// 16 bits (8 · 3939 < 2^15 for the largest q; sums of small values ≤ 8).
pub(crate) const KARATSUBA_LEVELS: usize = 3;

/// The padded length of a product operand: p rounded up to a multiple of
/// 2^(levels + 1), so that the halves split evenly down to the leaves.
pub(crate) const fn padded(p: usize) -> usize {
    p.next_multiple_of(2 << KARATSUBA_LEVELS)
}

/// A product of two equal-length 16-bit operands into `2n - 1` 32-bit
/// coefficients (overwritten), with 16-bit and 32-bit scratch.
pub(crate) trait Multiply {
    /// `r[0..2n-1] = a · b`.
    fn mul(r: &mut [i32], a: &[i16], b: &[i16], s16: &mut [i16], s32: &mut [i32]);
}

/// The base case: schoolbook, row by row (the inner loop vectorizes).
pub(crate) struct Schoolbook;

impl Multiply for Schoolbook {
    #[inline(always)]
    fn mul(r: &mut [i32], a: &[i16], b: &[i16], _: &mut [i16], _: &mut [i32]) {
        let n = a.len();
        r[..2 * n - 1].fill(0);
        for (i, &ai) in a.iter().enumerate() {
            let ai = i32::from(ai);
            for (o, &bj) in r[i..i + n].iter_mut().zip(b) {
                *o += ai * i32::from(bj);
            }
        }
    }
}

/// One Karatsuba level over `M` (n even): a0·b0, a1·b1 and
/// (a0 + a1)(b0 + b1) - a0·b0 - a1·b1, no reduction (the sums stay in 16
/// bits, the products in 32: see [`KARATSUBA_LEVELS`]).
pub(crate) struct Karatsuba<M>(core::marker::PhantomData<M>);

impl<M: Multiply> Multiply for Karatsuba<M> {
    #[inline(always)]
    fn mul(r: &mut [i32], a: &[i16], b: &[i16], s16: &mut [i16], s32: &mut [i32]) {
        let n = a.len();
        let h = n / 2;
        debug_assert!(n.is_multiple_of(2) && b.len() == n && r.len() >= 2 * n - 1);
        let (a0, a1) = a.split_at(h);
        let (b0, b1) = b.split_at(h);
        let (sa, rest16) = s16.split_at_mut(h);
        let (sb, rest16) = rest16.split_at_mut(h);
        let (mid, rest32) = s32.split_at_mut(2 * h - 1);
        M::mul(&mut r[..2 * h - 1], a0, b0, rest16, rest32);
        r[2 * h - 1] = 0;
        M::mul(&mut r[2 * h..4 * h - 1], a1, b1, rest16, rest32);
        for ((s, &x), &y) in sa.iter_mut().zip(a0).zip(a1) {
            *s = x + y;
        }
        for ((s, &x), &y) in sb.iter_mut().zip(b0).zip(b1) {
            *s = x + y;
        }
        M::mul(mid, sa, sb, rest16, rest32);
        let (lo, hi) = r.split_at_mut(2 * h);
        for ((m, &x), &y) in mid.iter_mut().zip(&lo[..2 * h - 1]).zip(&hi[..2 * h - 1]) {
            *m -= x + y;
        }
        for (o, &m) in r[h..3 * h - 1].iter_mut().zip(mid.iter()) {
            *o += m;
        }
    }
}

/// Three Karatsuba levels over schoolbook products.
pub(crate) type Karatsuba3 = Karatsuba<Karatsuba<Karatsuba<Schoolbook>>>;

/// `out = a · b` in R/m for set `P` (|a_i| ≤ 4000, b small): operands
/// padded with zeros to [`padded`]`(p)`, [`Karatsuba3`] with no reduction,
/// then one fold and one reduction per coefficient. Scratch lives in this
/// frame and is wiped.
#[inline(always)]
pub(crate) fn mul_karatsuba<P: ParameterSet, M: Multiply>(
    out: &mut [i16],
    a: &[i16],
    b: &[i8],
    m: Modulus,
) {
    let p = P::P;
    let n = padded(p);
    let mut w16 = P::Scratch16::zeroed();
    let mut w32 = P::Scratch32::zeroed();
    let (x, rest16) = w16.as_mut().split_at_mut(n);
    let (y, rest16) = rest16.split_at_mut(n);
    x[..p].copy_from_slice(a);
    for (o, &v) in y.iter_mut().zip(b) {
        *o = i16::from(v);
    }
    let (r, rest32) = w32.as_mut().split_at_mut(2 * n - 1);
    M::mul(r, x, y, rest16, rest32);
    fold_reduce(out, &mut r[..2 * p - 1], m);
    pqforge_core::ct::wipe_secret(w16.as_mut());
    pqforge_core::ct::wipe_secret(w32.as_mut());
}

/// Folds a product of `2p - 1` coefficients into `p` using x^p = x + 1
/// (each folded coefficient lands below p, so no cascade), then reduces
/// each coefficient with `md` into `out`.
#[inline(always)]
pub(crate) fn fold_reduce(out: &mut [i16], prod: &mut [i32], md: Modulus) {
    let p = out.len();
    // x^(p+j) = x^(j+1) + x^j lands below p for every j < p - 1: no
    // cascade, so two plain (vectorizable) passes.
    let (lo, hi) = prod.split_at_mut(p);
    let hi = &hi[..p - 1];
    for (o, &t) in lo[..p - 1].iter_mut().zip(hi) {
        *o += t;
    }
    for (o, &t) in lo[1..].iter_mut().zip(hi) {
        *o += t;
    }
    for (o, &x) in out.iter_mut().zip(&lo[..p]) {
        *o = md.freeze(x);
    }
}

/// The reducer modulo q of set `P`.
pub(crate) const fn mod_q<P: ParameterSet>() -> Modulus {
    // Evaluated at compile time: no run-time reciprocal computation.
    const { Modulus::new(P::Q) }
}

/// The reducer modulo 3.
pub(crate) const MOD3: Modulus = Modulus::new(3);

/// `a^(q-2) mod q` = 1/a (0 for 0) by square-and-multiply over the public
/// exponent (constant time: the sequence of operations depends on q only).
pub(crate) fn fq_recip<P: ParameterSet>(a: i16) -> i16 {
    let md = mod_q::<P>();
    let e = (P::Q - 2) as u32;
    let mut acc: i16 = 1;
    for bit in (0..32 - e.leading_zeros()).rev() {
        acc = md.freeze(i32::from(acc) * i32::from(acc));
        if (e >> bit) & 1 == 1 {
            acc = md.freeze(i32::from(acc) * i32::from(a));
        }
    }
    acc
}

/// Montgomery products modulo q on 16-bit values (|a|, |b| < 2q,
/// q < 7900): `mul(a, b)` ≡ a·b·2^-16 (mod q), in (-q, q).
#[derive(Clone, Copy)]
pub(crate) struct Montgomery {
    q: i16,
    /// q^-1 mod 2^16.
    qinv: i16,
}

impl Montgomery {
    pub(crate) const fn new(q: i32) -> Self {
        assert!(q % 2 == 1 && q < 7900);
        // Newton's iteration for the inverse modulo 2^16 (each step doubles
        // the correct low bits; q·q ≡ 1 mod 8 starts with 3).
        let qu = q as u16;
        let mut x = qu;
        let mut i = 0;
        while i < 4 {
            x = x.wrapping_mul(2u16.wrapping_sub(qu.wrapping_mul(x)));
            i += 1;
        }
        assert!(qu.wrapping_mul(x) == 1);
        Self {
            q: q as i16,
            qinv: x as i16,
        }
    }

    /// a·b·2^-16 mod q: with t = (a·b mod 2^16)·q^-1, a·b - t·q has zero
    /// low half, so its high half is hi(a·b) - hi(t·q) exactly; the result
    /// is below |a·b|/2^16 + q/2 < 4q²/2^16 + q/2 < q in magnitude.
    #[cfg(test)]
    pub(crate) fn mul(self, a: i16, b: i16) -> i16 {
        self.mul_pre(a, self.pre(a), b)
    }

    /// `a · q^-1 mod 2^16`, the second operand of [`Self::mul_pre`].
    #[inline(always)]
    pub(crate) fn pre(self, a: i16) -> i16 {
        a.wrapping_mul(self.qinv)
    }

    /// [`Self::mul`] with `a_pre = pre(a)` computed once for many `b`
    /// (the same value: t = b·a·q^-1 mod 2^16 either way). Written as
    /// separate high and low 16-bit products, which vectorize as
    /// `vpmulhw` / `vpmullw` on 16 lanes (one 32-bit product used for both
    /// halves became `vpmulld` on 8).
    #[inline(always)]
    pub(crate) fn mul_pre(self, a: i16, a_pre: i16, b: i16) -> i16 {
        let hi = ((i32::from(a) * i32::from(b)) >> 16) as i16;
        let t = b.wrapping_mul(a_pre);
        let tq = ((i32::from(t) * i32::from(self.q)) >> 16) as i16;
        hi.wrapping_sub(tq)
    }
}

/// The public windows of divstep `n` (0-based) of the inversions of
/// degree `p`: `(l, w)`, where only f, g below `l` and v, r below `w` can
/// be nonzero when the result matters. Computed from `p` and `n` only, so
/// the loop bounds are public.
///
/// * v and r start as 0 and a constant; each step shifts v by one place
///   and mixes the pair, so after n steps both live below n + 1: step n
///   touches indices below `w = min(p + 1, n + 2)`.
/// * Bounds Df ≥ len f, Dg ≥ len g with Df - Dg = δ hold from (p + 1, p)
///   on, and every step lowers Df + Dg by exactly one (a swap needs δ > 0,
///   so Df > Dg and the new g is below Df - 1; without a swap either δ ≤ 0
///   or g0 = 0, and the new g is below Dg - 1). Before step n, Df + Dg =
///   2p + 1 - n, so max(len f, len g) ≤ (2p + 1 - n + |δ|) / 2. The final
///   δ can be 0 (s invertible, the only case whose output is used) only if
///   |δ| ≤ 2p - 1 - n, the steps left (δ grows by one per step and a swap
///   maps δ > 0 to 1 - δ), which gives `l = min(p + 1, 2p - n)`. Entries
///   beyond the bound are exact zeros, so the windows change nothing then;
///   when |δ| exceeds the steps left, the final δ is nonzero whatever the
///   (truncated) data, so the verdict stays right too.
#[inline(always)]
pub(crate) fn windows(p: usize, n: usize) -> (usize, usize) {
    ((p + 1).min(2 * p - n), (p + 1).min(n + 2))
}

/// 1/(3·s) in R/q for a small `s` (`Rq_recip3`): into `out`; returns 0 if
/// s is invertible, -1 otherwise. Every step of the 2p - 1 iterations runs
/// with masks only.
#[inline(always)]
pub(crate) fn rq_recip3<P: ParameterSet>(out: &mut [i16], s: &[i8]) -> i32 {
    let p = P::P;
    let md = const { ModQ::new(P::Q) };
    let mont = const { Montgomery::new(P::Q) };
    let mut f = P::Fq1::zeroed();
    let mut g = P::Fq1::zeroed();
    let mut v = P::Fq1::zeroed();
    let mut r = P::Fq1::zeroed();
    let (f, g, v, r) = (f.as_mut(), g.as_mut(), v.as_mut(), r.as_mut());
    r[0] = fq_recip::<P>(3);
    // f = x^p - x - 1, reversed; g = s reversed.
    f[0] = 1;
    f[p - 1] = -1;
    f[p] = -1;
    for i in 0..p {
        g[p - 1 - i] = i16::from(s[i]);
    }
    let mut delta: i32 = 1;
    for n in 0..2 * p - 1 {
        // Public windows (see [`windows`]): f, g below `l`, v, r below `w`.
        let (l, w) = windows(p, n);
        v.copy_within(0..w - 1, 1);
        v[0] = 0;
        // Entries are kept in (-2q, 2q): test the canonical g[0].
        let g0c = md.freeze(i32::from(g[0]));
        let swap = swap_mask(delta, i32::from(g0c));
        delta ^= swap & (delta ^ -delta);
        delta += 1;
        let sw = barrier_u32(swap as u32) as i16;
        for (a, b) in f[..l].iter_mut().zip(g[..l].iter_mut()) {
            let t = sw & (*a ^ *b);
            *a ^= t;
            *b ^= t;
        }
        for (a, b) in v[..w].iter_mut().zip(r[..w].iter_mut()) {
            let t = sw & (*a ^ *b);
            *a ^= t;
            *b ^= t;
        }
        let (f0, g0) = (f[0], g[0]);
        let (f0p, g0p) = (mont.pre(f0), mont.pre(g0));
        // g ← (f0·g - g0·f) / x and r ← f0·r - g0·v, both pairs scaled by
        // 2^-16 (Montgomery products; the scaling is common to a pair, so
        // it cancels in v / f0 at the end). The constant term of g cancels.
        for i in 0..l - 1 {
            g[i] = mont.mul_pre(f0, f0p, g[i + 1]) - mont.mul_pre(g0, g0p, f[i + 1]);
        }
        g[l - 1] = 0;
        for (ri, &vi) in r[..w].iter_mut().zip(v[..w].iter()) {
            *ri = mont.mul_pre(f0, f0p, *ri) - mont.mul_pre(g0, g0p, vi);
        }
    }
    let scale = i32::from(fq_recip::<P>(md.freeze(i32::from(f[0]))));
    for i in 0..p {
        out[i] = md.freeze(scale * i32::from(v[p - 1 - i]));
    }
    let ret = nonzero_mask(delta);
    f.zeroize();
    g.zeroize();
    v.zeroize();
    r.zeroize();
    ret
}

/// 1/s in R/3 for a small `s` (`R3_recip`): into `out`; returns 0 if s is
/// invertible mod 3, -1 otherwise (then `out` is meaningless). Masked
/// updates only, 2p - 1 iterations.
#[inline(always)]
pub(crate) fn r3_recip<P: ParameterSet>(out: &mut [i8], s: &[i8]) -> i32 {
    let p = P::P;
    let mut f = P::Small1::zeroed();
    let mut g = P::Small1::zeroed();
    let mut v = P::Small1::zeroed();
    let mut r = P::Small1::zeroed();
    let (f, g, v, r) = (f.as_mut(), g.as_mut(), v.as_mut(), r.as_mut());
    r[0] = 1;
    f[0] = 1;
    f[p - 1] = -1;
    f[p] = -1;
    for i in 0..p {
        g[p - 1 - i] = s[i];
    }
    let mut delta: i32 = 1;
    // The shift count of f3_small's masks, opaque to the optimiser.
    let seven = shift7();
    for n in 0..2 * p - 1 {
        // Public windows (see [`windows`]): f, g below `l`, v, r below `w`.
        let (l, w) = windows(p, n);
        v.copy_within(0..w - 1, 1);
        v[0] = 0;
        // -g0/f0 mod 3 (f0 = ±1), before the swap (symmetric in f, g).
        let sign = (-g[0]).wrapping_mul(f[0]);
        let swap = swap_mask(delta, i32::from(g[0]));
        delta ^= swap & (delta ^ -delta);
        delta += 1;
        let sw = barrier_u32(swap as u32) as i8;
        for (a, b) in f[..l].iter_mut().zip(g[..l].iter_mut()) {
            let t = sw & (*a ^ *b);
            *a ^= t;
            *b ^= t;
        }
        for (a, b) in v[..w].iter_mut().zip(r[..w].iter_mut()) {
            let t = sw & (*a ^ *b);
            *a ^= t;
            *b ^= t;
        }
        // sign · x for sign in {-1, 0, 1} with byte masks (no 8-bit
        // multiply): negate where sign = -1, clear where sign = 0.
        // The masks pass a value barrier: without it LLVM turns the
        // masked negation back into a branch on the secret sign (valgrind
        // flagged it).
        let neg = barrier_u32((sign >> 7) as u32) as i8;
        let nz = barrier_u32(((sign | sign.wrapping_neg()) >> 7) as u32) as i8;
        let times = |x: i8| ((x ^ neg).wrapping_sub(neg)) & nz;
        for i in 0..l - 1 {
            g[i] = f3_small(g[i + 1] + times(f[i + 1]), seven);
        }
        g[l - 1] = 0;
        for (ri, &vi) in r[..w].iter_mut().zip(v[..w].iter()) {
            *ri = f3_small(*ri + times(vi), seven);
        }
    }
    let sign = f[0];
    for i in 0..p {
        out[i] = sign * v[p - 1 - i];
    }
    let ret = nonzero_mask(delta);
    f.zeroize();
    g.zeroize();
    v.zeroize();
    r.zeroize();
    ret
}

/// A xorshift64 stream for the tests (any nonzero seed).
#[cfg(test)]
pub(crate) fn xorshift(mut st: u64) -> impl FnMut() -> u64 {
    move || {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        st
    }
}

/// Test input number `t` of the inversions (p small coefficients): dense,
/// sparse, low-degree and structured inputs in turn (the latter often not
/// invertible).
#[cfg(test)]
pub(crate) fn inversion_input(
    p: usize,
    t: usize,
    next: &mut impl FnMut() -> u64,
) -> std::vec::Vec<i8> {
    match t % 4 {
        0 => (0..p).map(|_| (next() % 3) as i8 - 1).collect(),
        1 => (0..p)
            .map(|_| {
                if next().is_multiple_of(16) {
                    (next() % 2) as i8 * 2 - 1
                } else {
                    0
                }
            })
            .collect(),
        2 => (0..p)
            .map(|i| if i < 1 + t { (next() % 3) as i8 - 1 } else { 0 })
            .collect(),
        _ => (0..p).map(|i| [1, -1, 0][(i * (t + 1)) % 3]).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Sntrup653;

    /// Naive product in R/m by the definition (reference for the kernels).
    fn naive(a: &[i16], b: &[i8], m: i32) -> std::vec::Vec<i32> {
        let p = a.len();
        let mut prod = std::vec![0i64; 2 * p - 1];
        for i in 0..p {
            for j in 0..p {
                prod[i + j] += i64::from(a[i]) * i64::from(b[j]);
            }
        }
        for i in (p..2 * p - 1).rev() {
            let t = prod[i];
            prod[i - p] += t;
            prod[i - p + 1] += t;
        }
        let h = i64::from((m - 1) / 2);
        prod[..p]
            .iter()
            .map(|&x| ((x + h).rem_euclid(i64::from(m)) - h) as i32)
            .collect()
    }

    /// The inversion in R/3 without windows (every step over all p + 1
    /// entries), in plain integers: (verdict, 1/s when invertible).
    fn r3_recip_full(s: &[i8]) -> (i32, std::vec::Vec<i8>) {
        let p = s.len();
        let m3 = |x: i32| (x + 1).rem_euclid(3) - 1;
        let (mut f, mut g) = (std::vec![0i32; p + 1], std::vec![0i32; p + 1]);
        let (mut v, mut r) = (std::vec![0i32; p + 1], std::vec![0i32; p + 1]);
        r[0] = 1;
        f[0] = 1;
        f[p - 1] = -1;
        f[p] = -1;
        for i in 0..p {
            g[p - 1 - i] = i32::from(s[i]);
        }
        let mut delta = 1i32;
        for _ in 0..2 * p - 1 {
            v.copy_within(0..p, 1);
            v[0] = 0;
            let sign = m3(-g[0] * f[0]);
            if delta > 0 && g[0] != 0 {
                core::mem::swap(&mut f, &mut g);
                core::mem::swap(&mut v, &mut r);
                delta = -delta;
            }
            delta += 1;
            for i in 0..p {
                g[i] = m3(g[i + 1] + sign * f[i + 1]);
            }
            g[p] = 0;
            for i in 0..=p {
                r[i] = m3(r[i] + sign * v[i]);
            }
        }
        let out = (0..p).map(|i| (f[0] * v[p - 1 - i]) as i8).collect();
        (i32::from(delta != 0), out)
    }

    #[test]
    #[cfg_attr(miri, ignore = "many inversions of degree 653: too slow under Miri")]
    fn windowed_r3_recip_matches_full() {
        type P = Sntrup653;
        let p = 653;
        let mut next = xorshift(7);
        let mut inv = std::vec![0i8; p];
        let (mut ok, mut bad) = (0, 0);
        for t in 0..40 {
            let s = inversion_input(p, t, &mut next);
            let (want_fail, want) = r3_recip_full(&s);
            let got_fail = r3_recip::<P>(&mut inv, &s);
            assert_eq!(got_fail != 0, want_fail != 0, "verdict, input {t}");
            if want_fail == 0 {
                assert_eq!(inv, want, "inverse, input {t}");
                ok += 1;
            } else {
                bad += 1;
            }
        }
        assert!(ok > 0 && bad > 0, "both verdicts exercised ({ok}, {bad})");
    }

    #[test]
    fn montgomery_products() {
        for q in [4591i32, 4621, 5167, 6343, 7177, 7879] {
            let m = Montgomery::new(q);
            let r_inv = (1..q).find(|&x| (x * 65536) % q == 1).expect("inverse");
            let step = if cfg!(miri) { 997 } else { 37 };
            for a in (-2 * q + 1..2 * q).step_by(step) {
                for b in [-2 * q + 1, -q, -1, 0, 1, q - 1, 2 * q - 1, a / 3] {
                    let got = i32::from(m.mul(a as i16, b as i16));
                    assert!(got.abs() < q, "q={q} a={a} b={b}");
                    let want = (i64::from(a) * i64::from(b) % i64::from(q) * i64::from(r_inv))
                        .rem_euclid(i64::from(q));
                    assert_eq!(i64::from(got).rem_euclid(i64::from(q)), want);
                }
            }
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "two inversions of degree 653: too slow under Miri")]
    fn product_and_inverses() {
        type P = Sntrup653;
        let p = 653;
        let mut s = 99u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let md = mod_q::<P>();
        let a: std::vec::Vec<i16> = (0..p).map(|_| md.freeze((next() % 4621) as i32)).collect();
        let b: std::vec::Vec<i8> = (0..p).map(|_| (next() % 3) as i8 - 1).collect();
        let mut prod = std::vec![0i32; 2 * p - 1];
        mul_plain(&mut prod, &a, &b);
        let mut out = std::vec![0i16; p];
        fold_reduce(&mut out, &mut prod, md);
        let want = naive(&a, &b, 4621);
        assert!(out.iter().zip(&want).all(|(&x, &y)| i32::from(x) == y));
        // Karatsuba, including the extreme operands.
        let mut out2 = std::vec![0i16; p];
        mul_karatsuba::<P, Karatsuba3>(&mut out2, &a, &b, md);
        assert_eq!(out2, out);
        let top = std::vec![2310i16; p];
        let ones = std::vec![1i8; p];
        mul_karatsuba::<P, Karatsuba3>(&mut out2, &top, &ones, md);
        let want = naive(&top, &ones, 4621);
        assert!(out2.iter().zip(&want).all(|(&x, &y)| i32::from(x) == y));
        let neg = std::vec![-2310i16; p];
        let mones = std::vec![-1i8; p];
        mul_karatsuba::<P, Karatsuba3>(&mut out2, &neg, &mones, md);
        assert!(out2.iter().zip(&want).all(|(&x, &y)| i32::from(x) == y));

        // 1/(3b) · b · 3 = 1 in R/q.
        let mut inv = std::vec![0i16; p];
        assert_eq!(rq_recip3::<P>(&mut inv, &b), 0);
        let mut prod = std::vec![0i32; 2 * p - 1];
        mul_plain(&mut prod, &inv, &b);
        fold_reduce(&mut out, &mut prod, md);
        for (i, &x) in out.iter().enumerate() {
            let y = md.freeze(3 * i32::from(x));
            assert_eq!(y, i16::from(i == 0), "coefficient {i}");
        }
        // 1/b mod 3, when b is invertible.
        let mut inv3 = std::vec![0i8; p];
        if r3_recip::<P>(&mut inv3, &b) == 0 {
            let inv16: std::vec::Vec<i16> = inv3.iter().map(|&x| i16::from(x)).collect();
            mul_plain(&mut prod, &inv16, &b);
            fold_reduce(&mut out, &mut prod, MOD3);
            for (i, &x) in out.iter().enumerate() {
                assert_eq!(x, i16::from(i == 0), "coefficient {i}");
            }
        }
        // Zero is not invertible.
        let z = std::vec![0i8; p];
        assert_eq!(r3_recip::<P>(&mut inv3, &z), -1);
        assert_eq!(fq_recip::<P>(2), md.freeze(2311));
    }
}
