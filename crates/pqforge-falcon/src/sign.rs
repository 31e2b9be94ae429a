//! Signing (Falcon specification v1.2, Algorithms 10-15): basis B = [[g,
//! -f], [G, -F]] in FFT form, fast Fourier sampling over the LDL tree of
//! its Gram matrix, and the constant-time discrete Gaussian sampler
//! (base sampler + Bernoulli exp(-x) rejection).
//!
//! Two paths with identical outputs for the same seed: "dynamic" (the LDL
//! tree is rebuilt on the fly, 9n values of scratch) and "tree" (an
//! expanded key holding B and the normalised tree, 6n scratch).

use crate::backend::Backend;
use crate::ct_util::declassify_bool;
use crate::fft;
use crate::fpr::{self, Fpr};
use crate::ntru::NtruKey;
use crate::rng::Prng;
use crate::vrfy::is_short_half_mask;
use pqforge_core::keccak::Shake256;

/// The sampler state: PRNG, sigma_min and 1/sigma for this degree.
pub(crate) struct Sampler<B> {
    p: Prng<B>,
    sigma_min: Fpr,
    inv_sigma: Fpr,
}

/// Reversed cumulative distribution of the half-Gaussian base sampler
/// (sigma_0 = 1.8205), 72-bit values as three 24-bit words (high first);
/// specification v1.2 Table 3.1 / reference `sign.c`.
const DIST: [u32; 54] = [
    10745844, 3068844, 3741698, 5559083, 1580863, 8248194, 2260429, 13669192, 2736639, 708981,
    4421575, 10046180, 169348, 7122675, 4136815, 30538, 13063405, 7650655, 4132, 14505003, 7826148,
    417, 16768101, 11363290, 31, 8444042, 8086568, 1, 12844466, 265321, 0, 1232676, 13644283, 0,
    38047, 9111839, 0, 870, 6138264, 0, 14, 12545723, 0, 0, 3104126, 0, 0, 28824, 0, 0, 198, 0, 0,
    1,
];

/// [`DIST`] rows as 72-bit integers.
const DIST72: [u128; 18] = {
    let mut t = [0u128; 18];
    let mut i = 0;
    while i < 18 {
        t[i] = ((DIST[3 * i] as u128) << 48)
            | ((DIST[3 * i + 1] as u128) << 24)
            | (DIST[3 * i + 2] as u128);
        i += 1;
    }
    t
};

impl<B: Backend> Sampler<B> {
    fn new(b: B, rng: &mut Shake256, logn: u32) -> Self {
        Sampler {
            p: Prng::new(b, rng),
            sigma_min: fpr::SIGMA_MIN[logn as usize],
            inv_sigma: fpr::INV_SIGMA[logn as usize],
        }
    }

    /// Base sampler: z >= 0 from the half-Gaussian, 72 random bits compared
    /// against every table row (constant time).
    fn gaussian0(&mut self) -> i32 {
        let lo = self.p.next_u64();
        let hi = self.p.next_u8();
        // The 72-bit value (hi:lo); the count of table rows above it is the
        // borrow of v - row, summed. Same bits as the reference's three
        // 24-bit limbs.
        let v = u128::from(lo) | (u128::from(hi) << 64);
        let mut z = 0i32;
        for row in &DIST72 {
            z += (v.wrapping_sub(*row) >> 127) as i32;
        }
        z
    }

    /// Bernoulli with probability ccs * exp(-x), x >= 0.
    fn ber_exp(&mut self, x: Fpr, ccs: Fpr) -> bool {
        // x = s log(2) + r, 0 <= r < log(2); s saturated at 63.
        let s = (x * fpr::INV_LOG2).trunc() as i32;
        let r = x - Fpr::of(i64::from(s)) * fpr::LOG2;
        let mut sw = s as u32;
        sw ^= (sw ^ 63) & (63u32.wrapping_sub(sw) >> 31).wrapping_neg();
        let z = ((fpr::expm_p63(r, ccs) << 1).wrapping_sub(1)) >> sw;
        // Lazy comparison of a uniform 64-bit value with z, byte by byte
        // from the top. CT: the loop stops at the first differing byte;
        // like the reference, this leaks only where a random byte equals
        // the corresponding byte of z (the "continue" bit is declassified).
        let mut i = 64;
        let mut w;
        loop {
            i -= 8;
            w = self.p.next_u8().wrapping_sub(((z >> i) as u32) & 0xFF);
            if !declassify_bool(w == 0 && i > 0) {
                break;
            }
        }
        (w >> 31) != 0
    }

    /// Sample an integer from the discrete Gaussian of centre `mu` and
    /// standard deviation 1/`isigma`.
    pub(crate) fn sample(&mut self, mu: Fpr, isigma: Fpr) -> i32 {
        let s = mu.floor() as i32;
        let r = mu - Fpr::of(i64::from(s));
        let dss = isigma.sqr().half();
        let ccs = isigma * self.sigma_min;
        loop {
            let z0 = self.gaussian0();
            let b = (self.p.next_u8() & 1) as i32;
            let z = b + ((b << 1) - 1) * z0;
            let mut x = (Fpr::of(i64::from(z)) - r).sqr() * dss;
            x = x - Fpr::of(i64::from(z0 * z0)) * fpr::INV_2SQRSIGMA0;
            // CT: rejection-sampling accept bit, declassified.
            if declassify_bool(self.ber_exp(x, ccs)) {
                return s + z;
            }
        }
    }
}

/// Size of the LDL tree for degree 2^logn.
pub(crate) const fn tree_size(logn: u32) -> usize {
    ((logn + 1) as usize) << logn
}

fn smallints_to_fpr(r: &mut [Fpr], t: &[i8]) {
    for (x, &v) in r.iter_mut().zip(t) {
        *x = Fpr::of(i64::from(v));
    }
}

/// B = [[g, -f], [G, -F]] in FFT form into b00, b01, b10, b11 (also
/// FN-DSA's basis).
pub(crate) fn basis_fft<B: Backend>(bk: B, b: &mut [Fpr], key: &NtruKey<'_>, logn: u32) {
    let n = 1usize << logn;
    let (b00, rest) = b.split_at_mut(n);
    let (b01, rest) = rest.split_at_mut(n);
    let (b10, rest) = rest.split_at_mut(n);
    let b11 = &mut rest[..n];
    smallints_to_fpr(b01, key.f);
    smallints_to_fpr(b00, key.g);
    smallints_to_fpr(b11, key.ff);
    smallints_to_fpr(b10, key.gg);
    bk.fft(b01, logn);
    bk.fft(b00, logn);
    bk.fft(b11, logn);
    bk.fft(b10, logn);
    fft::neg(b01, logn);
    fft::neg(b11, logn);
}

/// Gram matrix of B: g00 = b00 adj(b00) + b01 adj(b01), g01 = b00 adj(b10)
/// + b01 adj(b11), g11 = b10 adj(b10) + b11 adj(b11).
fn gram(g00: &mut [Fpr], g01: &mut [Fpr], g11: &mut [Fpr], gxx: &mut [Fpr], b: &[Fpr], logn: u32) {
    let n = 1usize << logn;
    let (b00, b01, b10, b11) = (&b[..n], &b[n..2 * n], &b[2 * n..3 * n], &b[3 * n..4 * n]);
    g00[..n].copy_from_slice(b00);
    fft::mulselfadj_fft(g00, logn);
    gxx[..n].copy_from_slice(b01);
    fft::mulselfadj_fft(gxx, logn);
    fft::add(g00, gxx, logn);

    g01[..n].copy_from_slice(b00);
    fft::muladj_fft(g01, b10, logn);
    gxx[..n].copy_from_slice(b01);
    fft::muladj_fft(gxx, b11, logn);
    fft::add(g01, gxx, logn);

    g11[..n].copy_from_slice(b10);
    fft::mulselfadj_fft(g11, logn);
    gxx[..n].copy_from_slice(b11);
    fft::mulselfadj_fft(gxx, logn);
    fft::add(g11, gxx, logn);
}

/// LDL tree of the Gram matrix whose diagonal halves are (g0, g1) after a
/// split (inner recursion). `tmp`: n values.
fn ffldl_inner(tree: &mut [Fpr], g0: &mut [Fpr], g1: &mut [Fpr], logn: u32, tmp: &mut [Fpr]) {
    let n = 1usize << logn;
    if n == 1 {
        tree[0] = g0[0];
        return;
    }
    let hn = n >> 1;
    // Decompose [[g0, g1], [adj(g1), g0]].
    fft::ldlmv_fft(tmp, tree, g0, g1, g0, logn);
    {
        let (a, b) = g1.split_at_mut(hn);
        fft::split_fft(a, b, g0, logn);
    }
    {
        let (a, b) = g0.split_at_mut(hn);
        fft::split_fft(a, b, tmp, logn);
    }
    let (t0, t1) = tree[n..].split_at_mut(tree_size(logn - 1));
    {
        let (a, b) = g1.split_at_mut(hn);
        ffldl_inner(t0, a, b, logn - 1, tmp);
    }
    let (a, b) = g0.split_at_mut(hn);
    ffldl_inner(t1, a, b, logn - 1, tmp);
}

/// LDL tree of [[g00, g01], [adj(g01), g11]]. `tmp`: 3n values.
fn ffldl(tree: &mut [Fpr], g00: &[Fpr], g01: &[Fpr], g11: &[Fpr], logn: u32, tmp: &mut [Fpr]) {
    let n = 1usize << logn;
    if n == 1 {
        tree[0] = g00[0];
        return;
    }
    let hn = n >> 1;
    let (d00, rest) = tmp.split_at_mut(n);
    let (d11, rest) = rest.split_at_mut(n);
    let t = &mut rest[..n];
    d00.copy_from_slice(&g00[..n]);
    fft::ldlmv_fft(d11, tree, g00, g01, g11, logn);
    {
        let (a, b) = t.split_at_mut(hn);
        fft::split_fft(a, b, d00, logn);
    }
    {
        let (a, b) = d00.split_at_mut(hn);
        fft::split_fft(a, b, d11, logn);
    }
    d11.copy_from_slice(t);
    let (t0, t1) = tree[n..].split_at_mut(tree_size(logn - 1));
    {
        let (a, b) = d11.split_at_mut(hn);
        ffldl_inner(t0, a, b, logn - 1, t);
    }
    let (a, b) = d00.split_at_mut(hn);
    ffldl_inner(t1, a, b, logn - 1, t);
}

/// Leaves: sigma / sqrt(leaf) replaced by its inverse scaled (1/sigma').
fn ffldl_normalize(tree: &mut [Fpr], orig_logn: u32, logn: u32) {
    let n = 1usize << logn;
    if n == 1 {
        tree[0] = tree[0].sqrt() * fpr::INV_SIGMA[orig_logn as usize];
    } else {
        let (t0, t1) = tree[n..].split_at_mut(tree_size(logn - 1));
        ffldl_normalize(t0, orig_logn, logn - 1);
        ffldl_normalize(t1, orig_logn, logn - 1);
    }
}

/// Size of an expanded key for degree 2^logn: B (4n) and the tree.
pub(crate) const fn expanded_key_size(logn: u32) -> usize {
    (4usize << logn) + tree_size(logn)
}

/// Expanded private key: B in FFT form and the normalised LDL tree.
/// `tmp`: 7n values.
pub(crate) fn expand_privkey<B: Backend>(
    b: B,
    ek: &mut [Fpr],
    key: &NtruKey<'_>,
    logn: u32,
    tmp: &mut [Fpr],
) {
    let n = 1usize << logn;
    basis_fft(b, ek, key, logn);
    let (b, tree) = ek.split_at_mut(4 * n);
    let (g00, rest) = tmp.split_at_mut(n);
    let (g01, rest) = rest.split_at_mut(n);
    let (g11, rest) = rest.split_at_mut(n);
    let (gxx, _) = rest.split_at_mut(n);
    gram(g00, g01, g11, gxx, b, logn);
    let (gs, rest) = tmp.split_at_mut(3 * n);
    ffldl(tree, &gs[..n], &gs[n..2 * n], &gs[2 * n..3 * n], logn, rest);
    ffldl_normalize(tree, logn, logn);
}

/// Fast Fourier sampling with a precomputed tree. `tmp`: 2n values
/// (recursively halving).
fn ff_sampling_tree<B: Backend>(
    sp: &mut Sampler<B>,
    (z0, z1): (&mut [Fpr], &mut [Fpr]),
    tree: &[Fpr],
    (t0, t1): (&[Fpr], &[Fpr]),
    logn: u32,
    tmp: &mut [Fpr],
) {
    if logn == 2 {
        // Unrolled two levels (same arithmetic as the reference).
        let tree0 = &tree[4..];
        let tree1 = &tree[8..];

        let (a_re, a_im, b_re, b_im) = (t1[0], t1[2], t1[1], t1[3]);
        let w0 = (a_re + b_re).half();
        let w1 = (a_im + b_im).half();
        let (c_re, c_im) = (a_re - b_re, a_im - b_im);
        let w2 = (c_re + c_im) * fpr::INVSQRT8;
        let w3 = (c_im - c_re) * fpr::INVSQRT8;

        let (x0, x1) = (w2, w3);
        let sigma = tree1[3];
        let w2 = Fpr::of(i64::from(sp.sample(x0, sigma)));
        let w3 = Fpr::of(i64::from(sp.sample(x1, sigma)));
        let (a_re, a_im) = (x0 - w2, x1 - w3);
        let (c_re, c_im) = fft::cmul(a_re, a_im, tree1[0], tree1[1]);
        let x0 = c_re + w0;
        let x1 = c_im + w1;
        let sigma = tree1[2];
        let w0 = Fpr::of(i64::from(sp.sample(x0, sigma)));
        let w1 = Fpr::of(i64::from(sp.sample(x1, sigma)));

        let (a_re, a_im, b_re, b_im) = (w0, w1, w2, w3);
        let c_re = (b_re - b_im) * fpr::INVSQRT2;
        let c_im = (b_re + b_im) * fpr::INVSQRT2;
        let w0 = a_re + c_re;
        let w2 = a_im + c_im;
        let w1 = a_re - c_re;
        let w3 = a_im - c_im;
        z1[0] = w0;
        z1[2] = w2;
        z1[1] = w1;
        z1[3] = w3;

        let w0 = t1[0] - w0;
        let w1 = t1[1] - w1;
        let w2 = t1[2] - w2;
        let w3 = t1[3] - w3;
        let (w0, w2) = fft::cmul(w0, w2, tree[0], tree[2]);
        let (w1, w3) = fft::cmul(w1, w3, tree[1], tree[3]);
        let w0 = w0 + t0[0];
        let w1 = w1 + t0[1];
        let w2 = w2 + t0[2];
        let w3 = w3 + t0[3];

        let (a_re, a_im, b_re, b_im) = (w0, w2, w1, w3);
        let w0 = (a_re + b_re).half();
        let w1 = (a_im + b_im).half();
        let (c_re, c_im) = (a_re - b_re, a_im - b_im);
        let w2 = (c_re + c_im) * fpr::INVSQRT8;
        let w3 = (c_im - c_re) * fpr::INVSQRT8;

        let (x0, x1) = (w2, w3);
        let sigma = tree0[3];
        let y0 = Fpr::of(i64::from(sp.sample(x0, sigma)));
        let y1 = Fpr::of(i64::from(sp.sample(x1, sigma)));
        let (w2, w3) = (y0, y1);
        let (a_re, a_im) = (x0 - y0, x1 - y1);
        let (c_re, c_im) = fft::cmul(a_re, a_im, tree0[0], tree0[1]);
        let x0 = c_re + w0;
        let x1 = c_im + w1;
        let sigma = tree0[2];
        let w0 = Fpr::of(i64::from(sp.sample(x0, sigma)));
        let w1 = Fpr::of(i64::from(sp.sample(x1, sigma)));

        let (a_re, a_im, b_re, b_im) = (w0, w1, w2, w3);
        let c_re = (b_re - b_im) * fpr::INVSQRT2;
        let c_im = (b_re + b_im) * fpr::INVSQRT2;
        z0[0] = a_re + c_re;
        z0[2] = a_im + c_im;
        z0[1] = a_re - c_re;
        z0[3] = a_im - c_im;
        return;
    }
    if logn == 1 {
        let (x0, x1) = (t1[0], t1[1]);
        let sigma = tree[3];
        let y0 = Fpr::of(i64::from(sp.sample(x0, sigma)));
        let y1 = Fpr::of(i64::from(sp.sample(x1, sigma)));
        z1[0] = y0;
        z1[1] = y1;
        let (c_re, c_im) = fft::cmul(x0 - y0, x1 - y1, tree[0], tree[1]);
        let x0 = c_re + t0[0];
        let x1 = c_im + t0[1];
        let sigma = tree[2];
        z0[0] = Fpr::of(i64::from(sp.sample(x0, sigma)));
        z0[1] = Fpr::of(i64::from(sp.sample(x1, sigma)));
        return;
    }

    let n = 1usize << logn;
    let hn = n >> 1;
    let tree0 = &tree[n..n + tree_size(logn - 1)];
    let tree1 = &tree[n + tree_size(logn - 1)..];

    // z1 = sample(t1) at half size, merged.
    {
        let (a, b) = z1.split_at_mut(hn);
        fft::split_fft(a, b, t1, logn);
    }
    {
        let (tt, rest) = tmp.split_at_mut(n);
        let (ta, tb) = tt.split_at_mut(hn);
        let (za, zb) = z1.split_at(hn);
        ff_sampling_tree(sp, (ta, tb), tree1, (za, zb), logn - 1, rest);
    }
    {
        let (tt, _) = tmp.split_at_mut(n);
        let (ta, tb) = tt.split_at(hn);
        fft::merge_fft(z1, ta, tb, logn);
    }
    // tb = t0 + (t1 - z1) l10.
    {
        let tt = &mut tmp[..n];
        tt.copy_from_slice(&t1[..n]);
        fft::sub(tt, z1, logn);
        fft::mul_fft(tt, tree, logn);
        fft::add(tt, t0, logn);
        let (a, b) = z0.split_at_mut(hn);
        fft::split_fft(a, b, tt, logn);
    }
    {
        let (tt, rest) = tmp.split_at_mut(n);
        let (ta, tb) = tt.split_at_mut(hn);
        let (za, zb) = z0.split_at(hn);
        ff_sampling_tree(sp, (ta, tb), tree0, (za, zb), logn - 1, rest);
    }
    let (ta, tb) = tmp[..n].split_at(hn);
    fft::merge_fft(z0, ta, tb, logn);
}

/// Fast Fourier sampling, computing the LDL tree on the fly (the Gram
/// matrix g00, g01, g11 is consumed). Target (t0, t1) is replaced by the
/// sample. `tmp`: 4n values.
fn ff_sampling_dyn<B: Backend>(
    sp: &mut Sampler<B>,
    (t0, t1): (&mut [Fpr], &mut [Fpr]),
    (g00, g01, g11): (&mut [Fpr], &mut [Fpr], &mut [Fpr]),
    logn: u32,
    tmp: &mut [Fpr],
) {
    if logn == 0 {
        let leaf = g00[0].sqrt() * sp.inv_sigma;
        t0[0] = Fpr::of(i64::from(sp.sample(t0[0], leaf)));
        t1[0] = Fpr::of(i64::from(sp.sample(t1[0], leaf)));
        return;
    }
    if logn == 1 {
        // The general case below with n = 2, unrolled: split and merge are
        // identities there, so only the LDL step, the four samples and
        // t0 += (t1 - z1) l10 remain (same operations, same order).
        fft::ldl_fft(g00, g01, g11, 1);
        let isig = sp.inv_sigma;
        let leaf = g11[0].sqrt() * isig;
        let z1_re = Fpr::of(i64::from(sp.sample(t1[0], leaf)));
        let z1_im = Fpr::of(i64::from(sp.sample(t1[1], leaf)));
        let (d_re, d_im) = fft::cmul(g01[0], g01[1], t1[0] - z1_re, t1[1] - z1_im);
        t1[0] = z1_re;
        t1[1] = z1_im;
        let x_re = t0[0] + d_re;
        let x_im = t0[1] + d_im;
        let leaf = g00[0].sqrt() * isig;
        t0[0] = Fpr::of(i64::from(sp.sample(x_re, leaf)));
        t0[1] = Fpr::of(i64::from(sp.sample(x_im, leaf)));
        return;
    }
    let n = 1usize << logn;
    let hn = n >> 1;

    // LDL: g01 <- l10, g11 <- d11; split the diagonal into the two
    // half-size Gram matrices: (g00 split, ...) in g00 and (d11 split) in
    // g11, and their off-diagonal halves gathered in g01.
    fft::ldl_fft(g00, g01, g11, logn);
    {
        let (ta, tb) = tmp[..n].split_at_mut(hn);
        fft::split_fft(ta, tb, g00, logn);
    }
    g00[..n].copy_from_slice(&tmp[..n]);
    {
        let (ta, tb) = tmp[..n].split_at_mut(hn);
        fft::split_fft(ta, tb, g11, logn);
    }
    g11[..n].copy_from_slice(&tmp[..n]);
    tmp[..n].copy_from_slice(&g01[..n]);
    g01[..hn].copy_from_slice(&g00[..hn]);
    g01[hn..n].copy_from_slice(&g11[..hn]);

    // tmp: [l10 (n) | z1 (n) | recursion scratch / merge buffer].
    {
        let (l10, rest) = tmp.split_at_mut(n);
        let (z1, rest) = rest.split_at_mut(n);
        {
            let (a, b) = z1.split_at_mut(hn);
            fft::split_fft(a, b, t1, logn);
        }
        {
            let (za, zb) = z1.split_at_mut(hn);
            let (g11a, g11b) = g11.split_at_mut(hn);
            ff_sampling_dyn(sp, (za, zb), (g11a, g11b, &mut g01[hn..n]), logn - 1, rest);
        }
        {
            let (za, zb) = z1.split_at(hn);
            fft::merge_fft(&mut rest[..n], za, zb, logn);
        }
        // t0 += (t1 - z1) l10; t1 <- z1.
        z1.copy_from_slice(&t1[..n]);
        fft::sub(z1, &rest[..n], logn);
        t1[..n].copy_from_slice(&rest[..n]);
        fft::mul_fft(l10, z1, logn);
        fft::add(t0, l10, logn);
    }

    // z0 in tmp[..n], recursion scratch right after it.
    let (z0, rest) = tmp.split_at_mut(n);
    {
        let (a, b) = z0.split_at_mut(hn);
        fft::split_fft(a, b, t0, logn);
    }
    {
        let (z0a, z0b) = z0.split_at_mut(hn);
        let (g00a, g00b) = g00.split_at_mut(hn);
        ff_sampling_dyn(sp, (z0a, z0b), (g00a, g00b, &mut g01[..hn]), logn - 1, rest);
    }
    let (z0a, z0b) = z0.split_at(hn);
    fft::merge_fft(t0, z0a, z0b, logn);
}

/// Target t = (hm, 0) B^-1 in FFT form: t0 = hm b11 / q, t1 = -hm b01 / q.
fn target<B: Backend>(
    b: B,
    t0: &mut [Fpr],
    t1: &mut [Fpr],
    hm: &[u16],
    b01: &[Fpr],
    b11: &[Fpr],
    logn: u32,
) {
    let n = 1usize << logn;
    for u in 0..n {
        t0[u] = Fpr::of(i64::from(hm[u]));
    }
    b.fft(t0, logn);
    t1[..n].copy_from_slice(&t0[..n]);
    fft::mul_fft(t1, b01, logn);
    fft::mulconst(t1, -fpr::INVERSE_OF_Q, logn);
    fft::mul_fft(t0, b11, logn);
    fft::mulconst(t0, fpr::INVERSE_OF_Q, logn);
}

/// From the sample z (in t0, t1) and the basis, s = (hm, 0) - z B: writes
/// s2 and returns whether ||(s1, s2)|| is short (declassified accept bit).
/// `t`: [t0 | t1 | tx | ty], n values each (tx, ty scratch).
fn finish<B: Backend>(
    bk: B,
    s2: &mut [i16],
    t: &mut [Fpr],
    b: &[Fpr],
    hm: &[u16],
    logn: u32,
) -> bool {
    let n = 1usize << logn;
    let (t0, rest) = t.split_at_mut(n);
    let (t1, rest) = rest.split_at_mut(n);
    let (tx, rest) = rest.split_at_mut(n);
    let ty = &mut rest[..n];
    let (b00, b01, b10, b11) = (&b[..n], &b[n..2 * n], &b[2 * n..3 * n], &b[3 * n..4 * n]);
    tx[..n].copy_from_slice(&t0[..n]);
    ty[..n].copy_from_slice(&t1[..n]);
    fft::mul_fft(tx, b00, logn);
    fft::mul_fft(ty, b10, logn);
    fft::add(tx, ty, logn);
    ty[..n].copy_from_slice(&t0[..n]);
    fft::mul_fft(ty, b01, logn);
    t0[..n].copy_from_slice(&tx[..n]);
    fft::mul_fft(t1, b11, logn);
    fft::add(t1, ty, logn);
    bk.ifft(t0, logn);
    bk.ifft(t1, logn);

    let mut sqn = 0u32;
    let mut ng = 0u32;
    for u in 0..n {
        let z = i32::from(hm[u]).wrapping_sub(t0[u].rint() as i32);
        sqn = sqn.wrapping_add(z.wrapping_mul(z) as u32);
        ng |= sqn;
    }
    sqn |= (ng >> 31).wrapping_neg();
    // s2 is written in place: the caller only uses it after acceptance.
    for u in 0..n {
        s2[u] = (t1[u].rint() as i32).wrapping_neg() as i16;
    }
    // CT: rejection-loop accept bit (signature short enough).
    declassify_bool(is_short_half_mask(sqn, &s2[..n], logn) != 0)
}

/// One signing attempt with the dynamic tree. `tmp`: 9n values.
fn do_sign_dyn<B: Backend>(
    bk: B,
    sp: &mut Sampler<B>,
    s2: &mut [i16],
    key: &NtruKey<'_>,
    hm: &[u16],
    logn: u32,
    tmp: &mut [Fpr],
) -> bool {
    let n = 1usize << logn;
    basis_fft(bk, tmp, key, logn);
    {
        // Gram matrix in place of the basis: g00 in b00, g01 in b01, g11 in
        // b10; b01 kept in t0 (at 4n), then the target at 3n..5n.
        let (b, rest) = tmp.split_at_mut(4 * n);
        let (t0, rest) = rest.split_at_mut(n);
        let t1 = &mut rest[..n];
        let (b00, r) = b.split_at_mut(n);
        let (b01, r) = r.split_at_mut(n);
        let (b10, b11) = r.split_at_mut(n);
        t0.copy_from_slice(b01);
        fft::mulselfadj_fft(t0, logn);
        t1.copy_from_slice(b00);
        fft::muladj_fft(t1, b10, logn);
        fft::mulselfadj_fft(b00, logn);
        fft::add(b00, t0, logn);
        t0.copy_from_slice(b01);
        fft::muladj_fft(b01, b11, logn);
        fft::add(b01, t1, logn);
        fft::mulselfadj_fft(b10, logn);
        t1.copy_from_slice(b11);
        fft::mulselfadj_fft(t1, logn);
        fft::add(b10, t1, logn);
    }
    {
        // Target from the saved b01 (at 4n) and b11 (at 3n), into 5n..7n,
        // then moved to 3n..5n.
        let (lo, hi) = tmp.split_at_mut(4 * n);
        let b11 = &lo[3 * n..4 * n];
        let (b01, rest) = hi.split_at_mut(n);
        let (t0, rest) = rest.split_at_mut(n);
        let t1 = &mut rest[..n];
        target(bk, t0, t1, hm, b01, b11, logn);
    }
    tmp.copy_within(5 * n..7 * n, 3 * n);
    {
        let (g, rest) = tmp.split_at_mut(3 * n);
        let (g00, r) = g.split_at_mut(n);
        let (g01, g11) = r.split_at_mut(n);
        let (t0, rest) = rest.split_at_mut(n);
        let (t1, rest) = rest.split_at_mut(n);
        ff_sampling_dyn(sp, (t0, t1), (g00, g01, g11), logn, rest);
    }
    // Recompute the basis; the sample moves to 4n..6n.
    tmp.copy_within(3 * n..5 * n, 4 * n);
    basis_fft(bk, tmp, key, logn);
    let (b, t) = tmp.split_at_mut(4 * n);
    finish(bk, s2, t, b, hm, logn)
}

/// One signing attempt with an expanded key. `tmp`: 6n values.
fn do_sign_tree<B: Backend>(
    bk: B,
    sp: &mut Sampler<B>,
    s2: &mut [i16],
    ek: &[Fpr],
    hm: &[u16],
    logn: u32,
    tmp: &mut [Fpr],
) -> bool {
    let n = 1usize << logn;
    let (b, tree) = ek.split_at(4 * n);
    {
        let (t0, rest) = tmp.split_at_mut(n);
        let (t1, rest) = rest.split_at_mut(n);
        let (tx, rest) = rest.split_at_mut(n);
        let (ty, rest) = rest.split_at_mut(n);
        target(bk, t0, t1, hm, &b[n..2 * n], &b[3 * n..4 * n], logn);
        ff_sampling_tree(sp, (tx, ty), tree, (t0, t1), logn, rest);
        t0.copy_from_slice(tx);
        t1.copy_from_slice(ty);
    }
    finish(bk, s2, tmp, b, hm, logn)
}

/// Signs the hashed message `hm` with (f, g, F, G): a fresh sampler PRNG is
/// seeded from `rng` for each attempt until the signature is short.
/// `tmp`: 9n values.
pub(crate) fn sign_dyn<B: Backend>(
    b: B,
    s2: &mut [i16],
    rng: &mut Shake256,
    key: &NtruKey<'_>,
    hm: &[u16],
    logn: u32,
    tmp: &mut [Fpr],
) {
    loop {
        let mut sp = Sampler::new(b, rng, logn);
        if do_sign_dyn(b, &mut sp, s2, key, hm, logn, tmp) {
            break;
        }
    }
}

/// As [`sign_dyn`], with an expanded key (same output for the same seed).
/// `tmp`: 6n values.
pub(crate) fn sign_tree<B: Backend>(
    b: B,
    s2: &mut [i16],
    rng: &mut Shake256,
    ek: &[Fpr],
    hm: &[u16],
    logn: u32,
    tmp: &mut [Fpr],
) {
    loop {
        let mut sp = Sampler::new(b, rng, logn);
        if do_sign_tree(b, &mut sp, s2, ek, hm, logn, tmp) {
            break;
        }
    }
}
