//! One intermediate level going back up: from the solution F', G' at
//! depth+1, the unreduced F = F'(x^2) g(-x), G = G'(x^2) f(-x) at depth
//! (RNS + NTT + CRT, or direct products at the deep levels), then the
//! Babai reduction against f, g ([`super::babai`]).

use super::babai::{self, FgNtt, Shift};
use super::descent::{fg_cache_fits, fg_cache_start};
use super::{BITLENGTH, DEPTH_INT_FG, MAX_BL_LARGE, MAX_BL_SMALL, Solver};
use crate::backend::Backend;
use crate::digits::{PLAIN_DIGITS, lift_plain};
use crate::fft;
use crate::fpr::{self, Fpr};
use crate::modp::{Col, Ntt, Prime};
use crate::zint::{self, ZView, ZViewMut};

/// Up to this n (coefficients per polynomial), [`Solver::solve_intermediate`]
/// forms F'(x^2) g(-x) by direct big-integer products rather than with
/// RNS + NTT + CRT: there the integers are long (tens to hundreds of limbs)
/// and few, so the n^2/2 products cost less than reconstructing 2n
/// integers of llen limbs from llen residues each (quadratic in llen).
pub(super) const LIFT_PLAIN_MAX_N: usize = 16;

const _: () = assert!(
    LIFT_PLAIN_MAX_N <= crate::digits::PLAIN_TERMS
        && super::descent::DESCENT_PLAIN_MAX_N <= crate::digits::PLAIN_TERMS
);

/// One prime (`t`, index `u`) of the lift F = F'(x^2) g(-x), G = G'(x^2)
/// f(-x) in RNS: `big` holds [F | G] (n integers each, residue u at limb
/// u), with F', G' in the first n/2 entries of each half; `fx` / `gx` are
/// the NTTs of f, g modulo the prime (size n = 2^logn); `tmp`: n words.
#[inline(always)]
pub(super) fn lift_one_prime<B: Backend>(
    t: &Ntt<'_, B>,
    big: &mut ZViewMut<'_>,
    u: usize,
    (fx, gx): (&[u32], &[u32]),
    tmp: &mut [u32],
    logn: u32,
) {
    let c = t.pr;
    let hn = 1usize << (logn - 1);
    let llen = big.stride;
    let (ft_big, gt_big) = big.buf.split_at_mut(2 * hn * llen);
    let (fp, gp) = tmp[..2 * hn].split_at_mut(hn);
    for v in 0..hn {
        fp[v] = ft_big[v * llen + u];
        gp[v] = gt_big[v * llen + u];
    }
    t.ntt(&mut *fp, logn - 1);
    t.ntt(&mut *gp, logn - 1);
    for v in 0..hn {
        let (ft_a, ft_b) = (fx[v << 1], fx[(v << 1) + 1]);
        let (gt_a, gt_b) = (gx[v << 1], gx[(v << 1) + 1]);
        let m_fp = c.mm(fp[v], c.r2);
        let m_gp = c.mm(gp[v], c.r2);
        let o = (v << 1) * llen + u;
        ft_big[o] = c.mm(gt_b, m_fp);
        ft_big[o + llen] = c.mm(gt_a, m_fp);
        gt_big[o] = c.mm(ft_b, m_gp);
        gt_big[o + llen] = c.mm(ft_a, m_gp);
    }
    t.intt(Col::new(ft_big, u, llen), logn);
    t.intt(Col::new(gt_big, u, llen), logn);
}

impl<B: Backend> Solver<'_, B> {
    /// Given F', G' at depth+1 (tmp[0..], dlen limbs), computes F, G at
    /// depth (tmp[0..], slen limbs), reduced against f, g (Babai).
    ///
    /// Inlined into its one caller, [`super::solve_ntru`]: as one frame,
    /// its quotient buffer and the caller's G share stack (the frames
    /// apart would add 1.7 KB to the Cortex-M4 keygen peak).
    #[inline(always)]
    pub(super) fn solve_intermediate(&self, depth: u32, tmp: &mut [u32], ftmp: &mut [Fpr]) -> bool {
        let b = self.b;
        let logn_top = self.logn_top;
        let logn = logn_top - depth;
        let n = 1usize << logn;
        let hn = n >> 1;
        let d = depth as usize;
        let slen = MAX_BL_SMALL[d];
        let dlen = MAX_BL_SMALL[d + 1];
        let llen = MAX_BL_LARGE[d];

        // Layout: [Ft | Gt] (n llen each) | [ft | gt] (n slen each) | [Fd |
        // Gd] (hn dlen each) | scratch.
        let a = 2 * hn * dlen;
        let o_ft = 2 * n * llen;
        let o_fd = o_ft + 2 * n * slen;
        let o_t1 = o_fd + a;
        // f, g either kept from the descent (plain) or recomputed (NTT form
        // modulo the first slen primes).
        let cs = if fg_cache_fits(logn_top, tmp.len()) {
            fg_cache_start(logn_top, tmp.len(), depth)
        } else {
            None
        };
        let plain = cs.is_some();
        let tmp = if let Some(cs) = cs {
            tmp.copy_within(0..a, o_fd);
            tmp.copy_within(cs..cs + 2 * n * slen, o_ft);
            // The block is consumed; the shallower ones above it stay.
            &mut tmp[..cs + 2 * n * slen]
        } else {
            self.make_fg(&mut tmp[a..], depth, true);
            tmp.copy_within(a..a + 2 * n * slen, o_ft);
            tmp.copy_within(0..a, o_fd);
            tmp
        };

        let (big, rest) = tmp.split_at_mut(o_ft);
        let (fgt, rest) = rest.split_at_mut(2 * n * slen);
        let (fdgd, t1) = rest.split_at_mut(o_t1 - o_fd);
        let mut big = ZViewMut::packed(big, llen);
        let (fd, gd) = fdgd.split_at(hn * dlen);
        let (fd, gd) = (ZView::packed(fd, dlen), ZView::packed(gd, dlen));

        // (The scratch test always passes: fg_cache_start leaves at least
        // the consumed block, 2 n slen >= hn dlen + n slen words, above t1.)
        if plain
            && n <= LIFT_PLAIN_MAX_N
            && hn * dlen <= PLAIN_DIGITS
            && n * slen <= PLAIN_DIGITS
            && t1.len() >= hn * dlen + n * slen
        {
            // Small n, long integers: the products directly (see
            // lift_plain).
            let (ft, gt) = fgt.split_at(n * slen);
            let (ft, gt) = (ZView::packed(ft, slen), ZView::packed(gt, slen));
            let (ft_big, gt_big) = big.split_at(n);
            lift_plain(b, ft_big, fd, gt, logn, t1);
            lift_plain(b, gt_big, gd, ft, logn, t1);
        } else {
            // F', G' modulo each of the llen primes.
            {
                let (ft_big, gt_big) = big.reborrow().split_at(n);
                zint::residues(b, fd, hn, ft_big, 0);
                zint::residues(b, gd, hn, gt_big, 0);
            }

            // F = F'(x^2) g(-x), G = G'(x^2) f(-x), prime by prime. Past
            // the first slen primes, the residues of f, g come from their
            // plain form, a block of primes at a time (res: 2n integers x
            // nb primes).
            let bmax = ((t1.len() - 5 * n) >> (logn + 1)).clamp(1, 16);
            let (mut ub, mut nb) = (0, 0);
            for u in 0..llen {
                if u == slen && !plain {
                    zint::rebuild_crt(b, ZViewMut::packed(fgt, slen), 2 * n, true, t1);
                }
                let (gm, rest) = t1.split_at_mut(n);
                let (igm, rest) = rest.split_at_mut(n);
                let (fx, rest) = rest.split_at_mut(n);
                let (gx, rest) = rest.split_at_mut(n);
                let (fpgp, res) = rest.split_at_mut(n);
                let t = Ntt::build(b, Prime::new(u), gm, igm, logn);
                if u < slen && !plain {
                    let (ft, gt) = fgt.split_at_mut(n * slen);
                    for v in 0..n {
                        fx[v] = ft[v * slen + u];
                        gx[v] = gt[v * slen + u];
                    }
                    t.intt(Col::new(ft, u, slen), logn);
                    t.intt(Col::new(gt, u, slen), logn);
                } else {
                    if u >= ub + nb {
                        ub = u;
                        nb = (llen - u).min(bmax);
                        let src = ZView::packed(fgt, slen);
                        let dst = ZViewMut::packed(&mut res[..2 * n * nb], nb);
                        zint::residues(b, src, 2 * n, dst, ub);
                    }
                    let j = u - ub;
                    for v in 0..n {
                        fx[v] = res[v * nb + j];
                        gx[v] = res[(n + v) * nb + j];
                    }
                    t.ntt(&mut *fx, logn);
                    t.ntt(&mut *gx, logn);
                }
                lift_one_prime(&t, &mut big, u, (fx, gx), fpgp, logn);
            }
            // F and G are adjacent with the same stride: one pass over all
            // 2n.
            zint::rebuild_crt(b, big.reborrow(), 2 * n, true, t1);
        }

        // Babai reduction, with floating-point approximations of the top
        // limbs. The old F', G' area (and beyond) is reused as scratch.
        let (big, rest) = tmp.split_at_mut(o_ft);
        let (fgt, t1) = rest.split_at_mut(2 * n * slen);
        let big = ZViewMut::packed(big, llen);
        let (ft, gt) = fgt.split_at(n * slen);
        let (ft, gt) = (ZView::packed(ft, slen), ZView::packed(gt, slen));
        // Intermediate levels have n <= 256 (depth >= 2, or logn_top <= 2).
        // The Babai quotients depend on the secret f, g: wiped on every
        // exit (a rejected quotient returns early).
        let mut k = zeroize::Zeroizing::new([0i32; 256]);
        let k = &mut k[..n];

        let (rt1, rest) = ftmp.split_at_mut(n);
        let (rt2, rest) = rest.split_at_mut(n);
        let (rt3, rest) = rest.split_at_mut(n);
        let (rt4, rest) = rest.split_at_mut(n);
        let rt5 = &mut rest[..hn];

        let rlen = slen.min(10);
        babai::poly_big_to_fp(rt3, ft.top(rlen), logn);
        babai::poly_big_to_fp(rt4, gt.top(rlen), logn);
        let scale_fg = 31 * (slen - rlen) as i32;
        let (avg, std) = BITLENGTH[d];
        let minbl_fg = avg - 6 * std;
        let maxbl_fg = avg + 6 * std;
        b.fft(rt3, logn);
        b.fft(rt4, logn);
        fft::invnorm2_fft(rt5, rt3, rt4, logn);
        fft::adj_fft(rt3, logn);
        fft::adj_fft(rt4, logn);

        // With NTT products (shallow levels), f and g are transformed once
        // for the whole loop when the scratch allows (else once per
        // product).
        let tlen = slen + 1;
        let cached = depth <= DEPTH_INT_FG && t1.len() >= 4 * n * tlen + 4 * n + tlen;
        let (fgc, t1) = t1.split_at_mut(if cached { 2 * n * tlen } else { 0 });
        if cached {
            babai::ntt_fg_cache(b, fgc, fgt, slen, logn, t1);
        }
        let fgc = FgNtt { buf: fgc, tlen };

        let mut fglen = llen;
        let mut maxbl_big = 31 * llen as i32;
        let mut scale_k = maxbl_big - minbl_fg;
        loop {
            let rlen = fglen.min(10);
            let scale_big = 31 * (fglen - rlen) as i32;
            let (ft_big, gt_big) = big.buf.split_at(n * llen);
            let (ft_big, gt_big) = (
                ZView::new(ft_big, fglen, llen),
                ZView::new(gt_big, fglen, llen),
            );
            babai::poly_big_to_fp(rt1, ft_big.top(rlen), logn);
            babai::poly_big_to_fp(rt2, gt_big.top(rlen), logn);
            b.fft(rt1, logn);
            b.fft(rt2, logn);
            fft::mul_fft(rt1, rt3, logn);
            fft::mul_fft(rt2, rt4, logn);
            fft::add(rt2, rt1, logn);
            fft::mul_autoadj_fft(rt2, rt5, logn);
            b.ifft(rt2, logn);

            // k = round((F adj(f) + G adj(g)) / (f adj(f) + g adj(g)) *
            // 2^-dc).
            let mut dc = scale_k - scale_big + scale_fg;
            let mut pt = if dc < 0 {
                dc = -dc;
                fpr::TWO
            } else {
                fpr::ONEHALF
            };
            let mut pdc = fpr::ONE;
            while dc != 0 {
                if dc & 1 != 0 {
                    pdc = pdc * pt;
                }
                dc >>= 1;
                pt = pt.sqr();
            }
            let mut bad = false;
            for u in 0..n {
                let xv = rt2[u] * pdc;
                bad |= !fpr::MTWO31M1.lt(xv) | !xv.lt(fpr::PTWO31M1);
                k[u] = xv.rint() as i32;
            }
            // CT: out-of-range quotient is a keygen rejection condition.
            if crate::ct_util::declassify_bool(bad) {
                return false;
            }

            let sh = Shift {
                limbs: (scale_k / 31) as usize,
                bits: (scale_k % 31) as u32,
            };
            let mut fg_big = ZViewMut::new(big.buf, fglen, llen);
            if cached {
                babai::poly_sub_scaled_ntt_cached(b, fg_big, &fgc, k, sh, logn, t1);
            } else {
                let (ff, gg) = fg_big.reborrow().split_at(n);
                if depth <= DEPTH_INT_FG {
                    babai::poly_sub_scaled_ntt(b, ff, ft, k, sh, logn, t1);
                    babai::poly_sub_scaled_ntt(b, gg, gt, k, sh, logn, t1);
                } else {
                    babai::poly_sub_scaled(b, ff, ft, k, sh, logn, t1);
                    babai::poly_sub_scaled(b, gg, gt, k, sh, logn, t1);
                }
            }

            let new_maxbl = scale_k + maxbl_fg + 10;
            if new_maxbl < maxbl_big {
                maxbl_big = new_maxbl;
                if fglen as i32 * 31 >= maxbl_big + 31 {
                    fglen -= 1;
                }
            }
            if scale_k <= 0 {
                break;
            }
            scale_k = (scale_k - 25).max(0);
        }

        // Sign-extend to slen limbs, then compact to stride slen.
        if fglen < slen {
            for u in 0..2 * n {
                let row = &mut big.buf[u * llen..];
                let sw = (row[fglen - 1] >> 30).wrapping_neg() >> 1;
                row[fglen..slen].fill(sw);
            }
        }
        for u in 0..2 * n {
            tmp.copy_within(u * llen..u * llen + slen, u * slen);
        }
        true
    }
}
