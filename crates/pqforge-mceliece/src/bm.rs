//! Berlekamp–Massey over GF(2^m), constant time: the error locator of a
//! syndrome of length 2t (decapsulation step of the round-4
//! specification, §2.4).
//!
//! # Algorithm
//!
//! The reference runs `C <- C + (d / b) x B` with one field inversion per
//! step. We run the inversion-free form instead (Youzhi Xu, "Implementation
//! of Berlekamp-Massey algorithm without inversion", 1991; the layout
//! follows Chou, "McBits revisited", 2017):
//!
//! ```text
//! C' = b C + d B,   B' = x (C or B),   b' = d or b
//! ```
//!
//! Invariant: if the reference holds (C_r, B_r, b_r) and we hold
//! (C, B, b) = (a C_r, a' B_r, a' b_r) for nonzero scalars a, a', then the
//! discrepancy is d = a d_r, and b C + d B = a a' b_r (C_r + (d_r / b_r) B_r):
//! the new C is again a nonzero multiple of the reference's one (b_r is
//! never 0, d = 0 leaves C_r unchanged as the reference does), and on a
//! swap B and b get the same factor a. Truncation to t + 1 coefficients is
//! linear, so it commutes with the scaling. As C_r[0] = 1 always (B_r[0]
//! is 0 after the shift), the reference's locator is C / C[0]: one
//! inversion at the end instead of 2t. Same outputs for every input, not
//! only for decodable ones.
//!
//! # Layout
//!
//! Coefficients 1..=t of C and of B are bitsliced over W 64-bit words
//! per bit plane (W = 1 for t <= 64, else 2), coefficient i + 1 in word
//! i mod W, bit i div W. C[0] (`c0`) is a scalar and B[0] = 0, so t lanes
//! suffice (t + 1 would need a third word at t = 128). The interleaving
//! makes "multiply by x" cheap: word w takes word w - 1, and word 0 takes
//! the last word shifted up by one bit. C and B of a plane sit side by
//! side, `[C | B]`, so the update `b C + d B` is one lane-wise product
//! with the masks `[b | d]` (then the two halves are added). The
//! discrepancy is the inner product of C with a window of the syndrome
//! (lane i holds s[N - i]): one lane-wise product, then the parity of
//! each plane, plus the scalar `c0 s[N]`.
//!
//! Lane-wise products use Horner's rule over the bit planes of one
//! operand ([`mul_horner`]: only m planes live) or one level of Karatsuba
//! ([`mul_karatsuba`]: fewer operations, for single 64-bit words); each
//! lane type picks the one measured faster.

use crate::ParameterSet;
use crate::gf;

/// Berlekamp–Massey, constant time. `s`: the 2t syndrome values;
/// output: the error locator, reversed (`out[i] = C[t - i]`, t + 1
/// values), exactly as the reference implementation computes it.
pub(crate) fn bm<P: ParameterSet>(out: &mut [u16], s: &[u16]) {
    match (P::M, P::T <= 64) {
        (12, true) => bm_core::<Pair<1>, 12>(P::T, out, s),
        (12, false) => bm_core::<Pair<2>, 12>(P::T, out, s),
        (_, true) => bm_core::<Pair<1>, 13>(P::T, out, s),
        (_, false) => bm_core::<Pair<2>, 13>(P::T, out, s),
    }
}

// ---------------------------------------------------------------------------
// Lane types. The algorithm below is generic over them (one or two 64-bit
// words per polynomial). The AVX2 path (`backend::avx2::bm`) has its own
// loop, which computes the discrepancy one step ahead, and shares only
// `Poly::keep`.

/// A group of bitsliced lanes of one bit plane: bitwise AND and XOR.
pub(crate) trait Lanes: Copy {
    /// Products by Horner's rule ([`mul_horner`], few live values: wide
    /// registers) rather than Karatsuba ([`mul_karatsuba`], fewer
    /// operations: 64-bit words, where spilling is cheap relative to
    /// the work).
    const HORNER: bool = false;
    /// All lanes 0.
    fn zero() -> Self;
    /// Lane-wise AND.
    fn and(self, o: Self) -> Self;
    /// Lane-wise XOR.
    fn xor(self, o: Self) -> Self;
}

/// The t lanes of one polynomial (coefficients 1..=t, interleaved over
/// `W` words as described in the module documentation).
pub(crate) trait Poly: Lanes {
    /// Words per group.
    const W: usize;
    /// Every lane equal to bit 0 of `mask`'s words (`mask` is 0 or all-ones).
    fn splat(mask: u64) -> Self;
    /// `x` in word 0, the rest 0 (source of [`Poly::shl1`]'s bit).
    fn scalar(x: u16) -> Self;
    /// Lanes of coefficients 1..=t set.
    fn keep(t: usize) -> Self;
    /// Multiplication by x: coefficient i + 1 takes coefficient i, and
    /// coefficient 1 takes bit `p` of `src`'s word 0 (see
    /// [`Poly::scalar`]); coefficient `64 W` drops out.
    fn shl1(self, src: Self, p: usize) -> Self;
    /// The words, low first (zero beyond the group).
    fn words(self) -> [u64; 2];
    /// Bit k = parity of `v[k]` (all lanes), for k < M.
    #[inline(always)]
    fn parities<const M: usize>(v: &[Self; 13]) -> u16 {
        let mut d = 0u16;
        for (k, x) in v[..M].iter().enumerate() {
            let w = x.words();
            d |= (parity(w[0] ^ w[1]) as u16) << k;
        }
        d
    }
}

/// `[C | B]` of one bit plane: the lanes of two polynomials side by side.
pub(crate) trait Both: Lanes {
    /// The lane group of one polynomial.
    type H: Poly;
    /// The C half.
    fn c(self) -> Self::H;
    /// The B half.
    fn b(self) -> Self::H;
    /// Joins the two halves.
    fn join(c: Self::H, b: Self::H) -> Self;
    /// Plane j: the C half all-ones iff bit j of `cs` is set, the B half
    /// iff bit j of `bs` is (j < M).
    fn masks<const M: usize>(cs: u16, bs: u16) -> [Self; 13];
}

impl<const N: usize> Lanes for [u64; N] {
    // Measured on x86_64 (portable build): Karatsuba for one word,
    // Horner for more (the Karatsuba temporaries no longer fit).
    const HORNER: bool = N > 1;
    #[inline(always)]
    fn zero() -> Self {
        [0; N]
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        core::array::from_fn(|w| self[w] & o[w])
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        core::array::from_fn(|w| self[w] ^ o[w])
    }
}

impl<const N: usize> Poly for [u64; N] {
    const W: usize = N;
    #[inline(always)]
    fn splat(mask: u64) -> Self {
        [mask; N]
    }
    #[inline(always)]
    fn scalar(x: u16) -> Self {
        core::array::from_fn(|w| if w == 0 { u64::from(x) } else { 0 })
    }
    #[inline(always)]
    fn keep(t: usize) -> Self {
        // Word w holds coefficients 1 + w + N k, k < 64.
        core::array::from_fn(|w| {
            let n = (t + N - 1 - w) / N;
            if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
        })
    }
    #[inline(always)]
    fn shl1(self, src: Self, p: usize) -> Self {
        core::array::from_fn(|w| {
            if w == 0 {
                (self[N - 1] << 1) | ((src[0] >> p) & 1)
            } else {
                self[w - 1]
            }
        })
    }
    #[inline(always)]
    fn words(self) -> [u64; 2] {
        core::array::from_fn(|w| if w < N { self[w] } else { 0 })
    }
}

/// Portable `[C | B]`: W words each.
#[derive(Clone, Copy)]
pub(crate) struct Pair<const W: usize>([u64; W], [u64; W]);

impl<const W: usize> Lanes for Pair<W> {
    const HORNER: bool = W > 1;
    #[inline(always)]
    fn zero() -> Self {
        Pair([0; W], [0; W])
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Pair(self.0.and(o.0), self.1.and(o.1))
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Pair(self.0.xor(o.0), self.1.xor(o.1))
    }
}

impl<const W: usize> Both for Pair<W> {
    type H = [u64; W];
    #[inline(always)]
    fn c(self) -> [u64; W] {
        self.0
    }
    #[inline(always)]
    fn b(self) -> [u64; W] {
        self.1
    }
    #[inline(always)]
    fn join(c: [u64; W], b: [u64; W]) -> Self {
        Pair(c, b)
    }
    #[inline(always)]
    fn masks<const M: usize>(cs: u16, bs: u16) -> [Self; 13] {
        let mut mk = [Self::zero(); 13];
        for (j, v) in mk[..M].iter_mut().enumerate() {
            let cm = u64::from((cs >> j) & 1).wrapping_neg();
            let bm = u64::from((bs >> j) & 1).wrapping_neg();
            *v = Pair([cm; W], [bm; W]);
        }
        // CT: opaque, so the all-0 / all-1 words cannot become branches.
        core::hint::black_box(mk)
    }
}

// ---------------------------------------------------------------------------
// Bitsliced GF(2^m) products (planes 0..M of 13 used).

/// Lane-wise product in GF(2^M) on the lane type's preferred method.
#[inline(always)]
pub(crate) fn mul<V: Lanes, const M: usize>(a: &[V; 13], b: &[V; 13]) -> [V; 13] {
    if V::HORNER {
        mul_horner::<V, M>(a, b)
    } else {
        mul_karatsuba::<V, M>(a, b)
    }
}

/// Unreduced schoolbook product of the first `N` planes of `a` and `b`
/// (planes `0..2N-1` of the result).
#[inline(always)]
fn school<V: Lanes, const N: usize>(a: &[V], b: &[V]) -> [V; 13] {
    let mut t = [V::zero(); 13];
    for i in 0..N {
        for j in 0..N {
            t[i + j] = t[i + j].xor(a[i].and(b[j]));
        }
    }
    t
}

/// Lane-wise product in GF(2^M), reduced. One level of Karatsuba on the
/// bit planes (halves of `L = ceil(M/2)` and `H = M - L` planes): three
/// half products instead of four, 15-20% fewer operations than the
/// schoolbook M^2 ANDs.
#[inline(always)]
pub(crate) fn mul_karatsuba<V: Lanes, const M: usize>(a: &[V; 13], b: &[V; 13]) -> [V; 13] {
    let l = M.div_ceil(2);
    let h = M - l;
    let mut sa = [V::zero(); 7];
    let mut sb = [V::zero(); 7];
    sa[..l].copy_from_slice(&a[..l]);
    sb[..l].copy_from_slice(&b[..l]);
    for k in 0..h {
        sa[k] = sa[k].xor(a[l + k]);
        sb[k] = sb[k].xor(b[l + k]);
    }
    let (p0, p2) = if M == 13 {
        (school::<V, 7>(a, b), school::<V, 7>(&sa, &sb))
    } else {
        (school::<V, 6>(a, b), school::<V, 6>(&sa, &sb))
    };
    let p1 = school::<V, 6>(&a[l..], &b[l..]);
    // r = p0 + x^l (p2 - p0 - p1) + x^(2l) p1: 2M - 1 planes.
    let mut r = [V::zero(); 25];
    r[..2 * l - 1].copy_from_slice(&p0[..2 * l - 1]);
    r[2 * l..2 * l + 2 * h - 1].copy_from_slice(&p1[..2 * h - 1]);
    for k in 0..2 * l - 1 {
        let mut mid = p2[k].xor(p0[k]);
        if k < 2 * h - 1 {
            mid = mid.xor(p1[k]);
        }
        r[l + k] = r[l + k].xor(mid);
    }
    // Reduction modulo the field polynomial, top plane first.
    for i in (M..2 * M - 1).rev() {
        let v = r[i];
        for &e in gf::low_terms(M) {
            r[i - M + e] = r[i - M + e].xor(v);
        }
    }
    let mut out = [V::zero(); 13];
    out[..M].copy_from_slice(&r[..M]);
    out
}

/// Lane-wise product in GF(2^M), Horner's rule over the bit planes of
/// `b`: `r = (..((a b_{M-1}) x + a b_{M-2}) x + ..) + a b_0`, where
/// `a b_j` ANDs every plane of `a` with plane j of `b`. Multiplying by x
/// only renames planes plus a few XORs of the top plane into the low
/// terms of x^M, and only the M planes of `r` are live (no 2M - 1
/// unreduced planes), so few registers are needed (the AVX2 path,
/// `backend::avx2::bm`, runs the same scheme in assembly with the whole
/// product in registers). M^2 ANDs, about as many XORs.
#[inline(always)]
pub(crate) fn mul_horner<V: Lanes, const M: usize>(a: &[V; 13], b: &[V; 13]) -> [V; 13] {
    let mut r = [V::zero(); 13];
    for i in 0..M {
        r[i] = a[i].and(b[M - 1]);
    }
    for j in (0..M - 1).rev() {
        // r = x r: plane i <- plane i - 1, the top plane wraps to 0 and
        // is added to the other low terms of x^M.
        let top = r[M - 1];
        for i in (1..M).rev() {
            r[i] = r[i - 1];
        }
        r[0] = top;
        for &e in gf::low_terms(M) {
            if e != 0 {
                r[e] = r[e].xor(top);
            }
        }
        for i in 0..M {
            r[i] = r[i].xor(a[i].and(b[j]));
        }
    }
    r
}

/// Parity of `x` (0 or 1), branch-free: nibble parities, then their sum
/// in the top nibble of a product (no nibble sum exceeds 15 below the
/// top, so nothing carries into it).
#[inline(always)]
fn parity(x: u64) -> u64 {
    let x = x ^ (x >> 1);
    let x = x ^ (x >> 2);
    ((x & 0x1111_1111_1111_1111).wrapping_mul(0x1111_1111_1111_1111) >> 60) & 1
}

// ---------------------------------------------------------------------------

/// The algorithm for field degree `M` on the lane type `B` (which must
/// hold t lanes per polynomial).
#[inline(always)]
pub(crate) fn bm_core<B: Both, const M: usize>(t: usize, out: &mut [u16], s: &[u16]) {
    let keep = B::H::keep(t);
    let zero = B::H::zero();
    let one = B::H::scalar(1);
    // bc[p] = [C | B] of bit plane p: C = 1 (c0), B = x.
    let mut bc = [B::zero(); 13];
    bc[0] = B::join(zero, zero.shl1(one, 0));
    let mut c0 = 1u16;
    // win[p]: lane i = s[N - i] (0 before the start).
    let mut win = [zero; 13];
    let mut b = 1u16;
    let mut l = 0u16;
    let mut mk: [B; 13];
    for (nn, &sn) in s[..2 * t].iter().enumerate() {
        // d = c0 s[N] + sum_{i=1..t} C[i] s[N - i].
        let mut cp = [zero; 13];
        for p in 0..M {
            cp[p] = bc[p].c();
        }
        let prod = mul::<B::H, M>(&cp, &win);
        let d = gf::mul(M, c0, sn) ^ B::H::parities::<M>(&prod);
        // Window: every lane up by one, s[N] into lane 1.
        let sv = B::H::scalar(sn);
        for (p, w) in win[..M].iter_mut().enumerate() {
            *w = w.shl1(sv, p);
        }

        // CT: masks, no branches. Swap iff d != 0 and N >= 2L.
        let dnz = u64::from(!gf::is_zero_mask(d)) & 1;
        let nge = ((nn as u64).wrapping_sub(2 * u64::from(l)) >> 63) ^ 1;
        // CT: opaque, so the compiler cannot rebuild a branch from it.
        let swap = core::hint::black_box((dnz & nge).wrapping_neg());
        let swap16 = swap as u16;

        // C' = b C + d B: one product with the masks [b | d] per bit.
        mk = B::masks::<M>(b, d);
        let r = mul::<B, M>(&bc, &mk);

        // B' = x (C or B), C[0] = c0 entering lane 1.
        let sw = B::H::splat(swap);
        let c0s = B::H::scalar(c0 & swap16);
        for p in 0..M {
            let (cc, bb) = (bc[p].c(), bc[p].b());
            let sel = bb.xor(cc.xor(bb).and(sw));
            let nb = sel.shl1(c0s, p).and(keep);
            bc[p] = B::join(r[p].c().xor(r[p].b()), nb);
        }
        c0 = gf::mul(M, b, c0);
        l = (l & !swap16) | ((nn as u16 + 1 - l) & swap16);
        b = (b & !swap16) | (d & swap16);
    }

    // The reference's locator is C / c0 (its C[0] is 1).
    let ci = gf::inv(M, c0);
    let mut cp = [zero; 13];
    for p in 0..M {
        cp[p] = bc[p].c();
    }
    let cm = B::masks::<M>(ci, ci);
    let mut cmh = [zero; 13];
    for p in 0..M {
        cmh[p] = cm[p].c();
    }
    let cr = mul::<B::H, M>(&cp, &cmh);
    let mut words = [[0u64; 2]; 13];
    for p in 0..M {
        words[p] = cr[p].words();
    }
    unpack_locator(&words[..M], B::H::W, &mut out[..t]);
    out[t] = gf::mul(M, c0, ci);
    // Clear the secret state (the stores are kept: `black_box` may read
    // the arrays).
    zeroize::Zeroize::zeroize(words.as_flattened_mut());
    zeroize::Zeroize::zeroize(&mut c0);
    zeroize::Zeroize::zeroize(&mut b);
    bc = [B::zero(); 13];
    win = [zero; 13];
    mk = [B::zero(); 13];
    core::hint::black_box((&bc, &win, &mk));
}

/// `out[i] = C_r[t - i]` for `i < t = out.len()`, from the bit planes of
/// the scaled locator (`words[bit]`, lane `j` in bit `j / w` of word
/// `j % w`: the interleaved lane order of the step loop).
pub(crate) fn unpack_locator(words: &[impl AsRef<[u64]>], w: usize, out: &mut [u16]) {
    let t = out.len();
    for (i, o) in out.iter_mut().enumerate() {
        // Lane t - 1 - i holds C_r[t - i].
        let j = t - 1 - i;
        let mut x = 0u16;
        for (bit, wd) in words.iter().enumerate() {
            x |= (((wd.as_ref()[j % w] >> (j / w)) & 1) as u16) << bit;
        }
        *o = x;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::gf::tests::slow_mul;
    use crate::{McEliece348864, McEliece460896, McEliece6960119, McEliece8192128};
    use alloc::vec;
    use alloc::vec::Vec;
    use pqforge_core::testing::TestRng;

    fn slow_inv(m: usize, a: u16) -> u16 {
        (1..1u16 << m)
            .find(|&x| slow_mul(m, a, x) == 1)
            .unwrap_or(0)
    }

    /// Textbook Berlekamp–Massey with branches (the reference's algorithm:
    /// C truncated to t + 1 coefficients, B = x * (previous B or C)).
    fn ref_bm(m: usize, t: usize, s: &[u16]) -> Vec<u16> {
        let mut c = vec![0u16; t + 1];
        let mut bp = vec![0u16; t + 1];
        c[0] = 1;
        bp[1] = 1;
        let (mut l, mut b) = (0usize, 1u16);
        for n in 0..2 * t {
            let mut d = 0u16;
            for i in 0..=n.min(t) {
                d ^= slow_mul(m, c[i], s[n - i]);
            }
            if d != 0 {
                let old = c.clone();
                let f = slow_mul(m, slow_inv(m, b), d);
                for i in 0..=t {
                    c[i] ^= slow_mul(m, f, bp[i]);
                }
                if n >= 2 * l {
                    l = n + 1 - l;
                    bp = old;
                    b = d;
                }
            }
            bp.rotate_right(1);
            bp[0] = 0;
        }
        c.reverse();
        c
    }

    /// A random element of GF(2^m).
    fn elem(rng: &mut TestRng, m: usize) -> u16 {
        (rng.next_u64() & ((1 << m) - 1)) as u16
    }

    /// Syndrome `s_j = sum_k y_k x_k^j` of `w` errors (distinct nonzero
    /// locators `x_k`, nonzero values `y_k`).
    fn err_syndrome(m: usize, t: usize, w: usize, rng: &mut TestRng) -> (Vec<u16>, Vec<u16>) {
        let mut xs: Vec<u16> = Vec::new();
        while xs.len() < w {
            let x = elem(rng, m);
            if x != 0 && !xs.contains(&x) {
                xs.push(x);
            }
        }
        let mut s = vec![0u16; 2 * t];
        for &x in &xs {
            let mut y = 0;
            while y == 0 {
                y = elem(rng, m);
            }
            let mut p = y;
            for sj in &mut s {
                *sj ^= p;
                p = slow_mul(m, p, x);
            }
        }
        (s, xs)
    }

    /// Compares `f` with the textbook algorithm on `cases` syndromes.
    pub(crate) fn check<P: ParameterSet>(f: fn(&mut [u16], &[u16]), seed: u64, cases: usize) {
        let (m, t) = (P::M, P::T);
        let mut rng = TestRng::new(seed);
        for case in 0..cases {
            let (s, xs) = match case % 4 {
                0 => (
                    (0..2 * t).map(|_| elem(&mut rng, m)).collect::<Vec<_>>(),
                    Vec::new(),
                ),
                1 => err_syndrome(m, t, t, &mut rng),
                2 => {
                    let w = (rng.next_u64() % (t as u64 + 1)) as usize;
                    err_syndrome(m, t, w, &mut rng)
                }
                _ => {
                    // Sparse: mostly zero syndromes (d = 0 paths).
                    let mut s = vec![0u16; 2 * t];
                    for _ in 0..(case / 4) % 5 {
                        let i = (rng.next_u64() % (2 * t as u64)) as usize;
                        s[i] = elem(&mut rng, m);
                    }
                    (s, Vec::new())
                }
            };
            let want = ref_bm(m, t, &s);
            // Sanity of the reference: sum_i out[i] x^i vanishes at every x_k.
            for &x in &xs {
                let mut acc = 0u16;
                for &cf in want.iter().rev() {
                    acc = slow_mul(m, acc, x) ^ cf;
                }
                assert_eq!(acc, 0);
            }
            let mut got = vec![0u16; t + 1];
            f(&mut got, &s);
            assert_eq!(got, want, "{} case {case}", P::NAME);
        }
    }

    #[test]
    fn bm_matches_reference() {
        if cfg!(miri) {
            // One random syndrome, the smallest set.
            check::<McEliece348864>(bm::<McEliece348864>, 1, 1);
            return;
        }
        check::<McEliece348864>(bm::<McEliece348864>, 1, 40);
        check::<McEliece460896>(bm::<McEliece460896>, 2, 24);
        check::<McEliece6960119>(bm::<McEliece6960119>, 3, 24);
        check::<McEliece8192128>(bm::<McEliece8192128>, 4, 24);
    }

    /// Prints the best time per call of `f`.
    pub(crate) fn time<P: ParameterSet>(label: &str, f: fn(&mut [u16], &[u16])) {
        let mut rng = TestRng::new(99);
        let (s, _) = err_syndrome(P::M, P::T, P::T, &mut rng);
        let mut out = vec![0u16; P::T + 1];
        // Best of many short batches: robust against a shared machine.
        let iters = 10;
        let mut best = f64::MAX;
        for _ in 0..400 {
            let start = std::time::Instant::now();
            for _ in 0..iters {
                f(core::hint::black_box(&mut out), core::hint::black_box(&s));
            }
            best = best.min(start.elapsed().as_nanos() as f64 / f64::from(iters));
        }
        std::println!("bm {label} m={} t={}: {best:.0} ns/call", P::M, P::T);
    }

    #[test]
    #[ignore = "timing"]
    fn bm_timing() {
        time::<McEliece348864>("portable", bm::<McEliece348864>);
        time::<McEliece460896>("portable", bm::<McEliece460896>);
        time::<McEliece6960119>("portable", bm::<McEliece6960119>);
        time::<McEliece8192128>("portable", bm::<McEliece8192128>);
    }

    /// Runs `f` on a syndrome marked undefined for valgrind (see
    /// [`bm_ctgrind`]): every secret-dependent branch or address is
    /// reported.
    #[cfg(feature = "ctgrind")]
    pub(crate) fn ctgrind_run<P: ParameterSet>(f: fn(&mut [u16], &[u16])) {
        let mut rng = TestRng::new(7);
        let (mut s, _) = err_syndrome(P::M, P::T, P::T, &mut rng);
        let mut bytes: Vec<u8> = s.iter().flat_map(|x| x.to_le_bytes()).collect();
        pqforge_core::ctgrind::poison(&mut bytes);
        for (x, b) in s.iter_mut().zip(bytes.chunks_exact(2)) {
            *x = u16::from_le_bytes([b[0], b[1]]);
        }
        let mut out = vec![0u16; P::T + 1];
        f(&mut out, &s);
        let mut ob: Vec<u8> = out.iter().flat_map(|x| x.to_le_bytes()).collect();
        pqforge_core::ctgrind::declassify(&mut ob);
        core::hint::black_box(&ob);
    }

    /// Constant-time check of both variants: run the test binary under
    /// valgrind (`--features ctgrind`; the AVX2 one is in
    /// `backend::avx2::bm`).
    #[test]
    #[ignore = "run under valgrind"]
    #[cfg(feature = "ctgrind")]
    fn bm_ctgrind() {
        ctgrind_run::<McEliece348864>(bm::<McEliece348864>);
        ctgrind_run::<McEliece8192128>(bm::<McEliece8192128>);
    }
}
