//! The field-norm descent: f, g at each depth d (N(f), N(g) of the depth
//! above, 2^(logn_top - d) coefficients of MAX_BL_SMALL[d] limbs), in RNS +
//! NTT form or plain, and the cache that keeps the plain f, g of the
//! intermediate depths for the way back up.

use super::{MAX_BL_LARGE, MAX_BL_SMALL, Solver};
use crate::backend::Backend;
use crate::digits::{PLAIN_DIGITS, field_norm_plain};
use crate::modp::{Col, Ntt, Prime};
use crate::zint::{self, ZView, ZViewMut};

/// From this n (coefficients per polynomial at the input depth) down, the
/// descent computes the field norms by direct big-integer products
/// ([`field_norm_plain`]) instead of RNS + NTT + CRT (few, long integers:
/// see [`super::lift::LIFT_PLAIN_MAX_N`]).
pub(super) const DESCENT_PLAIN_MAX_N: usize = 16;

/// Size in words of the plain f, g at `depth` (2 n slen).
pub(super) fn fg_cache_size(logn_top: u32, depth: u32) -> usize {
    (2 * MAX_BL_SMALL[depth as usize]) << (logn_top - depth)
}

/// Where the plain f, g of each intermediate depth (2..logn_top-1) are
/// kept between the descent and the way back up: at the end of `tmp`, the
/// shallowest last, so that the area in use shrinks from the top while the
/// levels going back up (larger n) need more room below it.
///
/// The reference recomputes f, g from the top-level ones at every depth
/// (the whole field-norm descent again each time, dominated by its deep,
/// many-limb steps); keeping them is a few thousand words. Returns the
/// start of the depth-`depth` block, or None if the layout does not fit
/// `tlen` words (then every level recomputes, as before).
pub(super) fn fg_cache_start(logn_top: u32, tlen: usize, depth: u32) -> Option<usize> {
    if logn_top < 3 || !(2..logn_top).contains(&depth) {
        return None;
    }
    let mut end = tlen;
    for d in 2..depth {
        end = end.checked_sub(fg_cache_size(logn_top, d))?;
    }
    let start = end.checked_sub(fg_cache_size(logn_top, depth))?;
    // Room below the block: the working area of solve_intermediate before
    // the block is consumed (F, G unreduced, f, g, F', G'), and of the
    // descent step that fills it.
    let d = depth as usize;
    let n = 1usize << (logn_top - depth);
    let work = 2 * n * MAX_BL_LARGE[d] + 2 * n * MAX_BL_SMALL[d] + n * MAX_BL_SMALL[d + 1];
    let step = 2 * MAX_BL_SMALL[logn_top as usize]
        + n * MAX_BL_SMALL[d + 1]
        + 2 * n * MAX_BL_SMALL[d]
        + 5 * n;
    (work.max(step) <= start).then_some(start)
}

/// Whether every intermediate depth can keep its f, g (see
/// [`fg_cache_start`]).
pub(super) fn fg_cache_fits(logn_top: u32, tlen: usize) -> bool {
    logn_top >= 3 && (2..logn_top).all(|d| fg_cache_start(logn_top, tlen, d).is_some())
}

impl<B: Backend> Solver<'_, B> {
    /// One step of the field-norm descent: from f, g at depth `depth` (size
    /// 2^logn, slen limbs, NTT/RNS form if `in_ntt`) to N(f), N(g) at
    /// depth+1 (tlen limbs, NTT/RNS form if `out_ntt`). Input at data[0..],
    /// output at data[0..]. If `cache` is not empty, it receives the plain
    /// f, g at `depth` (2n integers of slen limbs, f then g) once they are
    /// rebuilt.
    fn make_fg_step(
        &self,
        data: &mut [u32],
        cache: &mut [u32],
        logn: u32,
        depth: usize,
        (in_ntt, out_ntt): (bool, bool),
    ) {
        let b = self.b;
        let n = 1usize << logn;
        let hn = n >> 1;
        let slen = MAX_BL_SMALL[depth];
        let tlen = MAX_BL_SMALL[depth + 1];
        data.copy_within(0..2 * n * slen, n * tlen);
        let (out, rest) = data.split_at_mut(n * tlen);
        let (fd, gd) = out.split_at_mut(hn * tlen);
        let (fsgs, scratch) = rest.split_at_mut(2 * n * slen);

        // Residues modulo the first slen primes are already there.
        {
            let (fs, gs) = fsgs.split_at_mut(n * slen);
            let (gm, r) = scratch.split_at_mut(n);
            let (igm, r) = r.split_at_mut(n);
            let t1 = &mut r[..n];
            for u in 0..slen {
                let t = Ntt::build(b, Prime::new(u), gm, igm, logn);
                for (src, dst) in [(&mut *fs, &mut *fd), (&mut *gs, &mut *gd)] {
                    for v in 0..n {
                        t1[v] = src[v * slen + u];
                    }
                    if !in_ntt {
                        t.ntt(&mut *t1, logn);
                    }
                    for v in 0..hn {
                        dst[v * tlen + u] = t.pr.mul(t1[v << 1], t1[(v << 1) + 1]);
                    }
                    if in_ntt {
                        t.intt(Col::new(src, u, slen), logn);
                    }
                }
                if !out_ntt {
                    t.intt(Col::new(fd, u, tlen), logn - 1);
                    t.intt(Col::new(gd, u, tlen), logn - 1);
                }
            }
        }

        // Plain big integers, then the residues for the extra primes, a
        // block of primes at a time (res: 2n integers x nb primes,
        // [v * nb + j]).
        zint::rebuild_crt(b, ZViewMut::packed(fsgs, slen), 2 * n, true, scratch);
        if !cache.is_empty() {
            cache.copy_from_slice(fsgs);
        }
        let (gm, r) = scratch.split_at_mut(n);
        let (igm, res) = r.split_at_mut(n);
        // (a shift, not a division: lengths are public, but divscan wants
        // no div)
        let bmax = (res.len() >> (logn + 1)).clamp(1, 16);
        let mut ub = slen;
        while ub < tlen {
            let nb = (tlen - ub).min(bmax);
            let res = &mut res[..2 * n * nb];
            let src = ZView::packed(fsgs, slen);
            zint::residues(b, src, 2 * n, ZViewMut::packed(res, nb), ub);
            let (rf, rg) = res.split_at_mut(n * nb);
            for j in 0..nb {
                let u = ub + j;
                let t = Ntt::build(b, Prime::new(u), gm, igm, logn);
                for (src, dst) in [(&mut *rf, &mut *fd), (&mut *rg, &mut *gd)] {
                    t.ntt(Col::new(src, j, nb), logn);
                    for v in 0..hn {
                        let (x0, x1) = (src[(v << 1) * nb + j], src[((v << 1) + 1) * nb + j]);
                        dst[v * tlen + u] = t.pr.mul(x0, x1);
                    }
                }
                if !out_ntt {
                    t.intt(Col::new(fd, u, tlen), logn - 1);
                    t.intt(Col::new(gd, u, tlen), logn - 1);
                }
            }
            ub += nb;
        }
    }

    /// f, g at `depth` (from the top-level small f, g), into data[0..]: f
    /// then g, MAX_BL_SMALL[depth] limbs each, RNS + NTT form if `out_ntt`.
    pub(super) fn make_fg(&self, data: &mut [u32], depth: u32, out_ntt: bool) {
        let logn = self.logn_top;
        let n = 1usize << logn;
        let c0 = Prime::new(0);
        for u in 0..n {
            data[u] = c0.set(i32::from(self.f[u]));
            data[n + u] = c0.set(i32::from(self.g[u]));
        }
        if depth == 0 && out_ntt {
            let (fg, rest) = data.split_at_mut(2 * n);
            let (gm, rest) = rest.split_at_mut(n);
            let igm = &mut rest[..n];
            let t = Ntt::build(self.b, c0, gm, igm, logn);
            let (ft, gt) = fg.split_at_mut(n);
            t.ntt(ft, logn);
            t.ntt(gt, logn);
            return;
        }
        if depth == 0 {
            return;
        }
        if depth == 1 {
            self.make_fg_step(data, &mut [], logn, 0, (false, out_ntt));
            return;
        }
        self.make_fg_step(data, &mut [], logn, 0, (false, true));
        for d in 1..depth - 1 {
            self.make_fg_step(data, &mut [], logn - d, d as usize, (true, true));
        }
        self.make_fg_step(
            data,
            &mut [],
            logn - depth + 1,
            depth as usize - 1,
            (true, out_ntt),
        );
    }

    /// As [`Self::make_fg`] at depth logn_top, into tmp[off..], also saving
    /// the plain f, g of each intermediate depth at [`fg_cache_start`]
    /// (caller checked [`fg_cache_fits`]). Returns true if the output is
    /// plain (integers), false if it is the residues modulo the first
    /// MAX_BL_SMALL[logn_top] primes (not in NTT form).
    pub(super) fn make_fg_deepest_cached(&self, tmp: &mut [u32], off: usize) -> bool {
        let logn_top = self.logn_top;
        let n = 1usize << logn_top;
        let tlen = tmp.len();
        let c0 = Prime::new(0);
        {
            let data = &mut tmp[off..];
            for u in 0..n {
                data[u] = c0.set(i32::from(self.f[u]));
                data[n + u] = c0.set(i32::from(self.g[u]));
            }
        }
        // First depth (>= 2) of the direct descent, logn_top if none.
        // Each plain step also needs 2 nd slen words of digit scratch past
        // its output (room the keygen's 8n-word tmp always has; were it
        // missing, the RNS path would give the same integers).
        let fits = |d: u32| {
            let nd = 1usize << (logn_top - d);
            let (slen, dlen) = (MAX_BL_SMALL[d as usize], MAX_BL_SMALL[d as usize + 1]);
            fg_cache_start(logn_top, tlen, d)
                .is_some_and(|cs| cs >= off + 4 * nd * slen + nd * dlen)
        };
        let d0 = (2..logn_top)
            .find(|&d| {
                let nd = 1usize << (logn_top - d);
                nd <= DESCENT_PLAIN_MAX_N
                    && nd * MAX_BL_SMALL[d as usize] <= PLAIN_DIGITS
                    && (d..logn_top).all(fits)
            })
            .unwrap_or(logn_top);
        for d in 0..d0 {
            // The last RNS step leaves plain residues (for the CRT below,
            // or for the caller at the deepest level).
            let out_ntt = d + 1 < d0;
            if d < 2 {
                let data = &mut tmp[off..];
                self.make_fg_step(data, &mut [], logn_top - d, d as usize, (d > 0, out_ntt));
                continue;
            }
            let Some(cs) = fg_cache_start(logn_top, tlen, d) else {
                return false;
            };
            let (work, rest) = tmp.split_at_mut(cs);
            let cache = &mut rest[..fg_cache_size(logn_top, d)];
            let data = &mut work[off..];
            self.make_fg_step(data, cache, logn_top - d, d as usize, (true, out_ntt));
        }
        if d0 == logn_top {
            return false;
        }
        {
            let nd = 1usize << (logn_top - d0);
            let slen = MAX_BL_SMALL[d0 as usize];
            let (x, scratch) = tmp[off..].split_at_mut(2 * nd * slen);
            zint::rebuild_crt(self.b, ZViewMut::packed(x, slen), 2 * nd, true, scratch);
        }
        for d in d0..logn_top {
            let nd = 1usize << (logn_top - d);
            let slen = MAX_BL_SMALL[d as usize];
            let dlen = MAX_BL_SMALL[d as usize + 1];
            let Some(cs) = fg_cache_start(logn_top, tlen, d) else {
                return false;
            };
            let (work, rest) = tmp.split_at_mut(cs);
            let data = &mut work[off..];
            rest[..2 * nd * slen].copy_from_slice(&data[..2 * nd * slen]);
            let (src, rest) = data.split_at_mut(2 * nd * slen);
            let (dst, scratch) = rest.split_at_mut(nd * dlen);
            let (dst, src) = (ZViewMut::packed(dst, dlen), ZView::packed(src, slen));
            field_norm_plain(self.b, dst, src, logn_top - d, 2, scratch);
            data.copy_within(2 * nd * slen..2 * nd * slen + nd * dlen, 0);
        }
        true
    }
}
