//! The Babai reduction steps of an intermediate level: floating-point
//! approximations of the top limbs, and F -= (k f) 2^shift, G -= (k g)
//! 2^shift with the exact product k f computed by schoolbook fused
//! products (deep levels) or RNS + NTT (shallow levels).

use super::{DEPTH_INT_FG, MAX_BL_SMALL};
use crate::backend::Backend;
use crate::fpr::{self, Fpr};
use crate::modp::{Col, Ntt, Prime};
use crate::zint::{self, ResConst, ZView, ZViewMut};

/// A power of two 2^(31 limbs + bits), bits < 31: the scale of one Babai
/// step.
#[derive(Clone, Copy)]
pub(super) struct Shift {
    pub(super) limbs: usize,
    pub(super) bits: u32,
}

/// NTT forms of f and g modulo each of the first `tlen` primes
/// (prime-major: f mod p_u at u n, g mod p_u at (tlen + u) n), from
/// [`ntt_fg_cache`].
pub(super) struct FgNtt<'a> {
    pub(super) buf: &'a [u32],
    pub(super) tlen: usize,
}

/// Converts the first n = 2^logn big integers of `f` (usually their top
/// limbs, see [`ZView::top`]) to floating point.
pub(super) fn poly_big_to_fp(d: &mut [Fpr], f: ZView<'_>, logn: u32) {
    let n = 1usize << logn;
    let flen = f.len;
    if flen == 0 {
        d[..n].fill(fpr::ZERO);
        return;
    }
    for u in 0..n {
        let fu = f.int(u);
        let neg = (fu[flen - 1] >> 30).wrapping_neg();
        let xm = neg >> 1;
        let mut cc = neg & 1;
        let mut x = fpr::ZERO;
        let mut fsc = fpr::ONE;
        for &w in fu {
            let mut w = (w ^ xm).wrapping_add(cc);
            cc = w >> 31;
            w &= 0x7FFF_FFFF;
            w = w.wrapping_sub((w << 1) & neg);
            x = x + Fpr::of(i64::from(w as i32)) * fsc;
            fsc = fsc * fpr::PTWO31;
        }
        d[u] = x;
    }
}

/// The largest n at which [`poly_sub_scaled`] runs: it serves only the
/// depths past [`DEPTH_INT_FG`] (the shallower ones use NTT products), and
/// logn_top <= 10. Sizing its coefficient buffer by this bound rather than
/// by the 256 of any intermediate level keeps 1.75 KB off the Cortex-M4
/// keygen stack (the function is called at the bottom of the solver).
const SUB_SCALED_MAX_N: usize = 1 << (MAX_BL_SMALL.len() - 2 - DEPTH_INT_FG as usize);

/// F -= (k f) * 2^sh mod X^n+1, schoolbook, over the limbs sh.limbs..
/// F.len of each coefficient of F (arithmetic modulo 2^(31 F.len), as the
/// reference's sequence of `zint_add_scaled_mul_small` calls; modular sums
/// do not depend on their order, so the words are the same).
///
/// All n products that land on one coefficient of F are summed in a single
/// pass over its limbs (one carry chain instead of n, and F is read and
/// written once; see [`Backend::zint_add_mul_fused`]). `tmp`: n (F.len -
/// sh.limbs) words, receives f * 2^sh.bits (sign-extended, truncated).
pub(super) fn poly_sub_scaled<B: Backend>(
    b: B,
    mut ff: ZViewMut<'_>,
    f: ZView<'_>,
    k: &[i32],
    sh: Shift,
    logn: u32,
    tmp: &mut [u32],
) {
    let n = 1usize << logn;
    let (fflen, flen) = (ff.len, f.len);
    let (sch, scl) = (sh.limbs, sh.bits);
    if flen == 0 || fflen <= sch {
        return;
    }
    let tl = fflen - sch;
    let ys = &mut tmp[..n * tl];
    for v in 0..n {
        let y = f.int(v);
        let ysign = (y[flen - 1] >> 30).wrapping_neg() >> 1;
        let mut tw = 0u32;
        for (t, yt) in ys[v * tl..(v + 1) * tl].iter_mut().enumerate() {
            let wy = if t < flen { y[t] } else { ysign };
            *yt = ((wy << scl) & 0x7FFF_FFFF) | tw;
            tw = wy >> (31 - scl);
        }
    }
    // Only used below DEPTH_INT_FG: n <= SUB_SCALED_MAX_N.
    // Holds ±k (secret quotients): wiped when it goes out of scope.
    let mut c = zeroize::Zeroizing::new([0i64; SUB_SCALED_MAX_N]);
    let c = &mut c[..n];
    for w in 0..n {
        // F[w] -= (k f)[w] = sum_{v <= w} k[w-v] f[v] - sum_{v > w} k[w+n-v] f[v].
        for v in 0..n {
            c[v] = if v <= w {
                -i64::from(k[w - v])
            } else {
                i64::from(k[w + n - v])
            };
        }
        b.zint_add_mul_fused(&mut ff.int_mut(w)[sch..], ys, c);
    }
}

/// As [`poly_sub_scaled`], computing k f with RNS + NTT. `tmp`: n (f.len
/// + 4) words.
pub(super) fn poly_sub_scaled_ntt<B: Backend>(
    b: B,
    mut ff: ZViewMut<'_>,
    f: ZView<'_>,
    k: &[i32],
    sh: Shift,
    logn: u32,
    tmp: &mut [u32],
) {
    let n = 1usize << logn;
    let flen = f.len;
    let tlen = flen + 1;
    let (gm, rest) = tmp.split_at_mut(n);
    let (igm, rest) = rest.split_at_mut(n);
    let (fk, t1) = rest.split_at_mut(n * tlen);
    for u in 0..tlen {
        let t = Ntt::build(b, Prime::new(u), gm, igm, logn);
        let c = t.pr;
        let rc = ResConst::of(&c, flen);
        for v in 0..n {
            t1[v] = c.set(k[v]);
        }
        t.ntt(&mut *t1, logn);
        zint::mod_small_signed_all(f, n, &rc, |v, x| {
            fk[v * tlen + u] = x;
        });
        t.ntt(Col::new(fk, u, tlen), logn);
        for v in 0..n {
            let x = fk[v * tlen + u];
            fk[v * tlen + u] = c.mul(t1[v], x);
        }
        t.intt(Col::new(fk, u, tlen), logn);
    }
    zint::rebuild_crt(b, ZViewMut::packed(fk, tlen), n, true, t1);
    for u in 0..n {
        let prod = &fk[u * tlen..(u + 1) * tlen];
        zint::sub_scaled(ff.int_mut(u), prod, sh.limbs, sh.bits);
    }
}

/// NTT forms of f and g (`fg`: 2n plain integers of `slen` limbs, f then
/// g) modulo each of the first slen + 1 primes, into `cache` (see
/// [`FgNtt`]). `tmp` >= 2n (slen + 2) words.
pub(super) fn ntt_fg_cache<B: Backend>(
    b: B,
    cache: &mut [u32],
    fg: &[u32],
    slen: usize,
    logn: u32,
    tmp: &mut [u32],
) {
    let n = 1usize << logn;
    let tlen = slen + 1;
    let (res, rest) = tmp.split_at_mut(2 * n * tlen);
    let (gm, rest) = rest.split_at_mut(n);
    let igm = &mut rest[..n];
    let src = ZView::packed(fg, slen);
    zint::residues(b, src, 2 * n, ZViewMut::packed(&mut *res, tlen), 0);
    for u in 0..tlen {
        let t = Ntt::build(b, Prime::new(u), gm, igm, logn);
        for h in 0..2 {
            let dst = &mut cache[(h * tlen + u) * n..(h * tlen + u + 1) * n];
            for v in 0..n {
                dst[v] = res[(h * n + v) * tlen + u];
            }
            t.ntt(dst, logn);
        }
    }
}

/// F -= (k f) 2^sh and G -= (k g) 2^sh (`fg_big`: [F | G], n integers
/// each), with the products by NTT from the transformed f, g of
/// [`ntt_fg_cache`]: per prime, one transform of k and two inverse ones.
/// The products are reconstructed with CRT over cache.tlen primes and
/// subtracted as in [`poly_sub_scaled_ntt`] (same residues, so the same
/// integers). `tmp` >= 2n tlen + 4n + tlen words.
pub(super) fn poly_sub_scaled_ntt_cached<B: Backend>(
    b: B,
    mut fg_big: ZViewMut<'_>,
    cache: &FgNtt<'_>,
    k: &[i32],
    sh: Shift,
    logn: u32,
    tmp: &mut [u32],
) {
    let n = 1usize << logn;
    let tlen = cache.tlen;
    let (prod, rest) = tmp.split_at_mut(2 * n * tlen);
    let (gm, rest) = rest.split_at_mut(n);
    let (igm, rest) = rest.split_at_mut(n);
    let (kt, rest) = rest.split_at_mut(n);
    let (x, crt) = rest.split_at_mut(n);
    for u in 0..tlen {
        let t = Ntt::build(b, Prime::new(u), gm, igm, logn);
        let c = t.pr;
        for v in 0..n {
            kt[v] = c.set(k[v]);
        }
        t.ntt(&mut *kt, logn);
        for h in 0..2 {
            let fc = &cache.buf[(h * tlen + u) * n..(h * tlen + u + 1) * n];
            for v in 0..n {
                x[v] = c.mul(kt[v], fc[v]);
            }
            t.intt(&mut *x, logn);
            for v in 0..n {
                prod[(h * n + v) * tlen + u] = x[v];
            }
        }
    }
    zint::rebuild_crt(b, ZViewMut::packed(prod, tlen), 2 * n, true, crt);
    for v in 0..2 * n {
        let p = &prod[v * tlen..(v + 1) * tlen];
        zint::sub_scaled(fg_big.int_mut(v), p, sh.limbs, sh.bits);
    }
}
