//! The two top levels, where F and G are small enough for one-limb
//! results: depth 1 (one floating-point Babai step on the rebuilt
//! integers) and depth 0 (everything modulo the first prime).

use super::lift::lift_one_prime;
use super::{MAX_BL_LARGE, MAX_BL_SMALL, Solver};
use crate::backend::Backend;
use crate::fft;
use crate::fpr::{self, Fpr};
use crate::modp::{self, Ntt, Prime};
use crate::zint::{self, ZView, ZViewMut};

use super::babai::poly_big_to_fp;

impl<B: Backend> Solver<'_, B> {
    /// Depth 1 (from depth 2), with F, G small enough for one-limb results
    /// and a single floating-point reduction. Output F, G (one word each,
    /// plain two's complement) at tmp[0..n], tmp[n..2n] (n =
    /// 2^(logn_top-1)).
    pub(super) fn solve_binary_depth1(&self, tmp: &mut [u32], ftmp: &mut [Fpr]) -> bool {
        let b = self.b;
        let logn_top = self.logn_top;
        let depth = 1usize;
        let n_top = 1usize << logn_top;
        let logn = logn_top - 1;
        let n = 1usize << logn;
        let hn = n >> 1;
        let slen = MAX_BL_SMALL[depth];
        let dlen = MAX_BL_SMALL[depth + 1];
        let llen = MAX_BL_LARGE[depth];

        // Input F', G' at tmp[0..n dlen]; residues of F', G' go after them,
        // then move to the front.
        let a = 2 * hn * dlen;
        {
            let (fdgd, rest) = tmp.split_at_mut(a);
            let (fd, gd) = fdgd.split_at(hn * dlen);
            let (ft_big, rest) = rest.split_at_mut(n * llen);
            let gt_big = &mut rest[..n * llen];
            let (fd, gd) = (ZView::packed(fd, dlen), ZView::packed(gd, dlen));
            zint::residues(b, fd, hn, ZViewMut::packed(ft_big, llen), 0);
            zint::residues(b, gd, hn, ZViewMut::packed(gt_big, llen), 0);
        }
        tmp.copy_within(a..a + 2 * n * llen, 0);

        // Layout: [Ft | Gt] (n llen each) | [ft | gt] (n slen each) |
        // scratch.
        let (big, rest) = tmp.split_at_mut(2 * n * llen);
        let (fgt, t1) = rest.split_at_mut(2 * n * slen);
        let mut big = ZViewMut::packed(big, llen);
        {
            let (ft, gt) = fgt.split_at_mut(n * slen);
            for u in 0..llen {
                let (gm, r) = t1.split_at_mut(n_top);
                let (igm, r) = r.split_at_mut(n_top);
                let (fx, r) = r.split_at_mut(n_top);
                let (gx, r) = r.split_at_mut(n_top);
                let fpgp = &mut r[..n];
                let t = Ntt::build(b, Prime::new(u), gm, igm, logn_top);
                let c = t.pr;
                for v in 0..n_top {
                    fx[v] = c.set(i32::from(self.f[v]));
                    gx[v] = c.set(i32::from(self.g[v]));
                }
                t.ntt(&mut *fx, logn_top);
                t.ntt(&mut *gx, logn_top);
                let mut e = logn_top;
                while e > logn {
                    modp::poly_rec_res(fx, e, &c);
                    modp::poly_rec_res(gx, e, &c);
                    e -= 1;
                }
                // The first n entries of the size-n_top tables are the
                // size-n tables.
                lift_one_prime(&t, &mut big, u, (&*fx, &*gx), fpgp, logn);
                if u < slen {
                    t.intt(&mut fx[..n], logn);
                    t.intt(&mut gx[..n], logn);
                    for v in 0..n {
                        ft[v * slen + u] = fx[v];
                        gt[v * slen + u] = gx[v];
                    }
                }
            }
        }
        zint::rebuild_crt(b, big.reborrow(), n << 1, true, t1);
        zint::rebuild_crt(b, ZViewMut::packed(fgt, slen), n << 1, true, t1);
        let (ft_big, gt_big) = big.buf.split_at(n * llen);
        let (ft, gt) = fgt.split_at(n * slen);

        let (rt1, rest) = ftmp.split_at_mut(n);
        let (rt2, rest) = rest.split_at_mut(n);
        let (rt3, rest) = rest.split_at_mut(n);
        let (rt4, rest) = rest.split_at_mut(n);
        let (rt5, rest) = rest.split_at_mut(n);
        let rt6 = &mut rest[..n];
        poly_big_to_fp(rt1, ZView::packed(ft_big, llen), logn);
        poly_big_to_fp(rt2, ZView::packed(gt_big, llen), logn);
        poly_big_to_fp(rt3, ZView::packed(ft, slen), logn);
        poly_big_to_fp(rt4, ZView::packed(gt, slen), logn);
        b.fft(rt1, logn);
        b.fft(rt2, logn);
        b.fft(rt3, logn);
        b.fft(rt4, logn);
        fft::add_muladj_fft(rt5, rt1, rt2, rt3, rt4, logn);
        fft::invnorm2_fft(rt6, rt3, rt4, logn);
        fft::mul_autoadj_fft(rt5, rt6, logn);
        b.ifft(rt5, logn);
        let mut bad = false;
        for z in rt5.iter_mut() {
            bad |= !z.lt(fpr::PTWO63M1) | !fpr::MTWO63M1.lt(*z);
            *z = Fpr::of(z.rint());
        }
        // CT: out-of-range quotient is a keygen rejection condition.
        if crate::ct_util::declassify_bool(bad) {
            return false;
        }
        b.fft(rt5, logn);
        fft::mul_fft(rt3, rt5, logn);
        fft::mul_fft(rt4, rt5, logn);
        fft::sub(rt1, rt3, logn);
        fft::sub(rt2, rt4, logn);
        b.ifft(rt1, logn);
        b.ifft(rt2, logn);
        for u in 0..n {
            tmp[u] = rt1[u].rint() as u32;
            tmp[n + u] = rt2[u].rint() as u32;
        }
        true
    }

    /// Top level (depth 0): F, G from the depth-1 solution, reduced with
    /// one floating-point Babai step, all modulo the first prime (the
    /// result is small). Output F, G (plain i32 as u32) at tmp[0..n],
    /// tmp[n..2n].
    pub(super) fn solve_binary_depth0(&self, tmp: &mut [u32], ftmp: &mut [Fpr]) -> bool {
        let b = self.b;
        let logn = self.logn_top;
        let (f, g) = (self.f, self.g);
        let n = 1usize << logn;
        let hn = n >> 1;
        let c = Prime::new(0);

        {
            let (fpgp, rest) = tmp.split_at_mut(n);
            let (ft, rest) = rest.split_at_mut(n);
            let (gt, rest) = rest.split_at_mut(n);
            let (gm, rest) = rest.split_at_mut(n);
            let igm = &mut rest[..n];
            let t = Ntt::build(b, c, gm, igm, logn);
            for x in fpgp.iter_mut() {
                *x = c.set(zint::one_to_plain(*x));
            }
            let (fp, gp) = fpgp.split_at_mut(hn);
            t.ntt(&mut *fp, logn - 1);
            t.ntt(&mut *gp, logn - 1);
            for u in 0..n {
                ft[u] = c.set(i32::from(f[u]));
                gt[u] = c.set(i32::from(g[u]));
            }
            t.ntt(&mut *ft, logn);
            t.ntt(&mut *gt, logn);
            // F = F'(x^2) g(-x), G = G'(x^2) f(-x) (unreduced, mod p).
            for u in (0..n).step_by(2) {
                let (ft_a, ft_b) = (ft[u], ft[u + 1]);
                let (gt_a, gt_b) = (gt[u], gt[u + 1]);
                let m_fp = c.mm(fp[u >> 1], c.r2);
                let m_gp = c.mm(gp[u >> 1], c.r2);
                ft[u] = c.mm(gt_b, m_fp);
                ft[u + 1] = c.mm(gt_a, m_fp);
                gt[u] = c.mm(ft_b, m_gp);
                gt[u + 1] = c.mm(ft_a, m_gp);
            }
            t.intt(&mut *ft, logn);
            t.intt(&mut *gt, logn);
        }
        tmp.copy_within(n..3 * n, 0);

        // Fp, Gp (n each) | t1..t5 (n each).
        let (fp, rest) = tmp.split_at_mut(n);
        let (gp, rest) = rest.split_at_mut(n);
        let (t1, rest) = rest.split_at_mut(n);
        let (t2, rest) = rest.split_at_mut(n);
        let (t3, rest) = rest.split_at_mut(n);
        let (t4, rest) = rest.split_at_mut(n);
        let t5 = &mut rest[..n];
        modp::mkgm2(b, t1, t2, logn, &c);
        let ntt = |a: &mut [u32], gm: &[u32]| b.modp_ntt(a.into(), gm, logn, &c);
        let intt = |a: &mut [u32], igm: &[u32]| b.modp_intt(a.into(), igm, logn, &c);
        ntt(fp, t1);
        ntt(gp, t1);

        // t2 = F adj(f) + G adj(g), t3 = f adj(f) + g adj(g) (mod p).
        let load_adj = |t4: &mut [u32], t5: &mut [u32], x: &[i8]| {
            t4[0] = c.set(i32::from(x[0]));
            t5[0] = t4[0];
            for u in 1..n {
                t4[u] = c.set(i32::from(x[u]));
                t5[n - u] = c.set(-i32::from(x[u]));
            }
        };
        load_adj(t4, t5, f);
        ntt(t4, t1);
        ntt(t5, t1);
        for u in 0..n {
            let w = c.mm(t5[u], c.r2);
            t2[u] = c.mm(w, fp[u]);
            t3[u] = c.mm(w, t4[u]);
        }
        load_adj(t4, t5, g);
        ntt(t4, t1);
        ntt(t5, t1);
        for u in 0..n {
            let w = c.mm(t5[u], c.r2);
            t2[u] = c.add(t2[u], c.mm(w, gp[u]));
            t3[u] = c.add(t3[u], c.mm(w, t4[u]));
        }
        modp::mkgm2(b, t1, t4, logn, &c);
        intt(t2, t4);
        intt(t3, t4);

        // k = round(t2 / t3) in floating point (t3 is self-adjoint: real
        // FFT).
        let (rt2, rest) = ftmp.split_at_mut(n);
        let rt3 = &mut rest[..n];
        for u in 0..n {
            rt3[u] = Fpr::of(i64::from(c.norm(t3[u])));
        }
        b.fft(rt3, logn);
        rt2[..hn].copy_from_slice(&rt3[..hn]);
        for u in 0..n {
            rt3[u] = Fpr::of(i64::from(c.norm(t2[u])));
        }
        b.fft(rt3, logn);
        fft::div_autoadj_fft(rt3, rt2, logn);
        b.ifft(rt3, logn);
        for u in 0..n {
            t1[u] = c.set(rt3[u].rint() as i32);
        }

        // F -= k f, G -= k g.
        modp::mkgm2(b, t2, t3, logn, &c);
        for u in 0..n {
            t4[u] = c.set(i32::from(f[u]));
            t5[u] = c.set(i32::from(g[u]));
        }
        ntt(t1, t2);
        ntt(t4, t2);
        ntt(t5, t2);
        for u in 0..n {
            let kw = c.mm(t1[u], c.r2);
            fp[u] = c.sub(fp[u], c.mm(kw, t4[u]));
            gp[u] = c.sub(gp[u], c.mm(kw, t5[u]));
        }
        intt(fp, t3);
        intt(gp, t3);
        for u in 0..n {
            fp[u] = c.norm(fp[u]) as u32;
            gp[u] = c.norm(gp[u]) as u32;
        }
        true
    }
}
