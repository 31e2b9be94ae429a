//! Key pair generation (Falcon specification v1.2, Algorithm 4 "NTRUGen",
//! as implemented by the round-3 reference): f, g from a discrete Gaussian
//! driven by SHAKE256, the Gram-Schmidt norm check, h = g/f mod q, and the
//! NTRU solver for F (G is recomputed when signing).

use crate::backend::Backend;
use crate::codec::MAX_FG_BITS;
use crate::ct_util::declassify_bool;
use crate::fft;
use crate::fpr::{self, Fpr};
use crate::ntru::solve_ntru;
use crate::rng::ShakeU64;
use crate::vrfy::compute_public;
use pqforge_core::keccak::Shake256;

/// Cumulative distribution table of the Gaussian for keygen at n = 1024
/// (sigma = 1.17 sqrt(q / 2048)), scaled to 2^63; Falcon round-3 reference
/// `keygen.c` (`gauss_1024_12289`).
pub(crate) const GAUSS_1024_12289: [u64; 27] = [
    1283868770400643928,
    6416574995475331444,
    4078260278032692663,
    2353523259288686585,
    1227179971273316331,
    575931623374121527,
    242543240509105209,
    91437049221049666,
    30799446349977173,
    9255276791179340,
    2478152334826140,
    590642893610164,
    125206034929641,
    23590435911403,
    3948334035941,
    586753615614,
    77391054539,
    9056793210,
    940121950,
    86539696,
    7062824,
    510971,
    32764,
    1862,
    94,
    4,
    0,
];

const _: () = {
    let mut k = 2;
    while k < GAUSS_1024_12289.len() {
        assert!(GAUSS_1024_12289[k] <= GAUSS_1024_12289[k - 1]);
        k += 1;
    }
};

/// Counts the table entries k >= 1 with r < table[k] (r < 2^63): the
/// inner step of [`mkgauss`], with a portable and an AVX2 implementation.
pub(crate) trait TailCount {
    /// #{k >= 1 : r < GAUSS_1024_12289[k]}.
    fn tail_count(&self, r: u64) -> u32;
}

/// The portable [`TailCount`].
pub(crate) struct PortableTail;

impl TailCount for PortableTail {
    #[inline(always)]
    fn tail_count(&self, r: u64) -> u32 {
        let mut cnt = 0u32;
        for &c in &GAUSS_1024_12289[1..] {
            cnt += (r.wrapping_sub(c) >> 63) as u32;
        }
        cnt
    }
}

/// One coefficient: the sum of 2^(10-logn) samples of the n = 1024
/// distribution (so the variance matches sigma for this n). CT.
#[inline(always)]
fn mkgauss<T: TailCount>(rng: &mut ShakeU64, logn: u32, tc: &T) -> i32 {
    let g = 1u32 << (10 - logn);
    let mut val = 0i32;
    for _ in 0..g {
        // The first word gives the sign and the "zero" decision (table
        // entry 0 is the half-probability of 0); the second word is looked
        // up in the tail.
        let mut r = rng.next_u64();
        let neg = (r >> 63) as u32;
        r &= !(1u64 << 63);
        let f = (r.wrapping_sub(GAUSS_1024_12289[0]) >> 63) as u32;
        let mut r = rng.next_u64();
        r &= !(1u64 << 63);
        // The reference takes the first k >= 1 with r >= table[k]; the
        // table is non-increasing from index 1 (checked below), so that k
        // is 1 + #{k >= 1 : r < table[k]}: a sum of borrows, no chain.
        let cnt = 1 + tc.tail_count(r);
        let mut v = cnt & (f ^ 1).wrapping_neg();
        v = (v ^ neg.wrapping_neg()).wrapping_add(neg);
        val = val.wrapping_add(v as i32);
    }
    val
}

/// A small polynomial with coefficients in [-127, 127] and odd parity of
/// the coefficient sum (so that the resultant with X^n+1 is odd), with
/// either [`TailCount`]: the body of [`Backend::gauss_poly`].
#[inline(always)]
pub(crate) fn poly_small_mkgauss<T: TailCount>(
    rng: &mut ShakeU64,
    f: &mut [i8],
    logn: u32,
    tc: &T,
) {
    let n = 1usize << logn;
    let mut mod2 = 0u32;
    let mut u = 0;
    while u < n {
        let s = mkgauss(rng, logn, tc);
        // CT: rejection-sampling decisions, declassified (as in the
        // reference, which restarts on the same conditions).
        let out_of_range = (s.wrapping_add(127) as u32) > 254;
        if declassify_bool(out_of_range) {
            continue;
        }
        let parity = (s & 1) as u32;
        if u == n - 1 {
            if declassify_bool((mod2 ^ parity) == 0) {
                continue;
            }
        } else {
            mod2 ^= parity;
        }
        f[u] = s as i8;
        u += 1;
    }
}

/// Sum of squares of the coefficients (saturating to 2^32-1).
fn poly_small_sqnorm(f: &[i8]) -> u32 {
    let mut s = 0u32;
    let mut ng = 0u32;
    for &x in f {
        let z = i32::from(x);
        s = s.wrapping_add((z * z) as u32);
        ng |= s;
    }
    s | (ng >> 31).wrapping_neg()
}

/// h = g / f mod q ([`compute_public`]); false if f is not invertible.
/// Not inlined: its scratch stays off the frame that is live across the
/// NTRU solver (the deepest keygen call chain, which bounds the
/// Cortex-M4 peak stack).
#[inline(never)]
fn public_key<B: Backend>(b: B, h: &mut [u16], f: &[i8], g: &[i8], logn: u32) -> bool {
    let mut t16 = [0u16; 1024];
    let ok = compute_public(b, h, f, g, logn, &mut t16);
    // NTT(f) is secret.
    zeroize::Zeroize::zeroize(&mut t16);
    ok
}

/// The outputs of key generation: f, g, F and the public h = g / f mod q
/// (plain form), n = 2^logn values each.
pub(crate) struct NewKey<'a> {
    pub(crate) f: &'a mut [i8],
    pub(crate) g: &'a mut [i8],
    pub(crate) ff: &'a mut [i8],
    pub(crate) h: &'a mut [u16],
}

/// Generates (f, g, F, h) from the seeded SHAKE256 `rng`.
/// Scratch: `tmp` >= 8n words, `ftmp` >= 3n values.
pub(crate) fn keygen<B: Backend>(
    b: B,
    rng: &mut Shake256,
    key: NewKey<'_>,
    logn: u32,
    tmp: &mut [u32],
    ftmp: &mut [Fpr],
) {
    let NewKey { f, g, ff, h } = key;
    let n = 1usize << logn;
    let mut rng = ShakeU64::new(rng);
    let rng = &mut rng;
    loop {
        b.gauss_poly(rng, &mut f[..n], logn);
        b.gauss_poly(rng, &mut g[..n], logn);

        // Coefficients must fit the secret-key encoding.
        let lim = 1i32 << (MAX_FG_BITS[logn as usize] - 1);
        let mut bad = 0u32;
        for &x in f[..n].iter().chain(&g[..n]) {
            // |x| >= lim is bad.
            bad |= pqforge_core::ct::lt_mask_u32(
                (2 * lim - 2) as u32,
                (i32::from(x) + lim - 1) as u32,
            );
        }
        // CT: keygen rejection bit.
        if declassify_bool(bad != 0) {
            continue;
        }

        // ||(g, -f)||^2 must be below 1.17^2 q.
        let normf = poly_small_sqnorm(&f[..n]);
        let normg = poly_small_sqnorm(&g[..n]);
        let norm = normf.wrapping_add(normg) | ((normf | normg) >> 31).wrapping_neg();
        // CT: keygen rejection bit.
        if declassify_bool(norm >= 16823) {
            continue;
        }

        // The orthogonalised vector (q adj(f), q adj(g)) / (f adj(f) + g
        // adj(g)) must also be short.
        {
            let (rt1, rest) = ftmp.split_at_mut(n);
            let (rt2, rest) = rest.split_at_mut(n);
            let rt3 = &mut rest[..n];
            for u in 0..n {
                rt1[u] = Fpr::of(i64::from(f[u]));
                rt2[u] = Fpr::of(i64::from(g[u]));
            }
            b.fft(rt1, logn);
            b.fft(rt2, logn);
            fft::invnorm2_fft(rt3, rt1, rt2, logn);
            fft::adj_fft(rt1, logn);
            fft::adj_fft(rt2, logn);
            fft::mulconst(rt1, fpr::Q, logn);
            fft::mulconst(rt2, fpr::Q, logn);
            fft::mul_autoadj_fft(rt1, rt3, logn);
            fft::mul_autoadj_fft(rt2, rt3, logn);
            b.ifft(rt1, logn);
            b.ifft(rt2, logn);
            let mut bnorm = fpr::ZERO;
            for u in 0..n {
                bnorm = bnorm + rt1[u].sqr();
                bnorm = bnorm + rt2[u].sqr();
            }
            // CT: keygen rejection bit.
            if declassify_bool(!bnorm.lt(fpr::BNORM_MAX)) {
                continue;
            }
        }

        if !public_key(b, h, &f[..n], &g[..n], logn) {
            continue;
        }

        let lim = (1i32 << (crate::codec::MAX_FG_BITS_BIG[logn as usize] - 1)) - 1;
        if !solve_ntru(b, &f[..n], &g[..n], ff, lim, tmp, ftmp) {
            continue;
        }
        break;
    }
}
