//! Solving the NTRU equation f G - g F = q (Falcon specification v1.2,
//! Algorithm 6, in the recursive "field norm" form of the round-3 reference
//! implementation: RNS + NTT for the big resultants, a constant-time binary
//! extended GCD at the deepest level, and Babai reduction with approximate
//! floating-point quotients at each level going back up).
//!
//! Big integers are arrays of 31-bit limbs; a polynomial with `len`-limb
//! coefficients is stored coefficient-major (coefficient u at u*len). The
//! layouts of the intermediate buffers differ from the reference, and so
//! does the schedule of the exact integer work (residues over blocks of
//! primes, one CRT pass for F and G together, fused schoolbook products,
//! NTT forms of f, g kept across the Babai loop, v of the Bezout identity
//! recovered by exact division; f, g of every depth kept from a single
//! descent; at the deep levels, where the integers are few and long, field
//! norms and F'(x^2) g(-x) by direct big-integer products instead of RNS +
//! NTT + CRT). Every such step yields a unique value
//! (a residue, a CRT representative, a sum modulo 2^(31 len), the Bezout
//! coefficients), and the floating-point steps are those of the reference
//! in the same order, so the output (F, G) is identical. (The direct
//! products give the exact integers; the reference's CRT gives the same
//! ones because its MAX_BL_SMALL / MAX_BL_LARGE prime counts are chosen so
//! that those integers fit, with a margin of many standard deviations of
//! the measured bit lengths.)
//!
//! Scratch: `tmp` (u32) holds the persistent F, G at its start between
//! levels; `ftmp` (Fpr) is separate.

use crate::fft;
use crate::fpr::{self, Fpr};
use crate::zint::{
    intt, intt_ext, modp_add, modp_mkgm2, modp_montymul, modp_ninv31, modp_norm, modp_poly_rec_res,
    modp_r2, modp_rx, modp_set, modp_sub, ntt, ntt_ext, prime, zint_add_mul_fused, zint_bezout,
    zint_mod_small_signed_all, zint_mod_small_signed_rns, zint_mul_small, zint_one_to_plain,
    zint_rebuild_crt, zint_sub_scaled,
};

/// Maximum limbs of f, g at each depth (index: depth 0..=10).
const MAX_BL_SMALL: [usize; 11] = [1, 1, 2, 2, 4, 7, 14, 27, 53, 106, 209];
/// Maximum limbs of the unreduced F, G at each depth.
const MAX_BL_LARGE: [usize; 10] = [2, 2, 5, 7, 12, 21, 40, 78, 157, 308];
/// Average and standard deviation of the bit length of f, g coefficients at
/// each depth (measured by the reference authors).
const BITLENGTH: [(i32, i32); 11] = [
    (4, 0),
    (11, 1),
    (24, 1),
    (50, 1),
    (102, 1),
    (202, 2),
    (401, 4),
    (794, 5),
    (1577, 8),
    (3138, 13),
    (6308, 25),
];
/// Up to this depth, F - k f is computed with NTT; deeper, schoolbook.
const DEPTH_INT_FG: u32 = 4;

/// Per-prime constants.
#[derive(Clone, Copy)]
struct Pc {
    p: u32,
    p0i: u32,
    r2: u32,
    g: u32,
}

fn pc(i: usize) -> Pc {
    let sp = prime(i);
    let p0i = modp_ninv31(sp.p);
    Pc {
        p: sp.p,
        p0i,
        r2: modp_r2(sp.p, p0i),
        g: sp.g,
    }
}

/// One prime (index `u`, constants `c`) of the lift F = F'(x^2) g(-x),
/// G = G'(x^2) f(-x) in RNS: `ft_big` / `gt_big` (stride `llen`) hold F', G'
/// in their first n/2 entries and get F, G; `fx` / `gx` are the NTTs of f,
/// g modulo the prime (size n); `fp`, `gp` are n/2-entry scratch.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn lift_one_prime(
    ft_big: &mut [u32],
    gt_big: &mut [u32],
    llen: usize,
    u: usize,
    fx: &[u32],
    gx: &[u32],
    fp: &mut [u32],
    gp: &mut [u32],
    gm: &[u32],
    igm: &[u32],
    logn: u32,
    c: Pc,
) {
    let hn = 1usize << (logn - 1);
    for v in 0..hn {
        fp[v] = ft_big[v * llen + u];
        gp[v] = gt_big[v * llen + u];
    }
    ntt(&mut fp[..hn], gm, logn - 1, c.p, c.p0i);
    ntt(&mut gp[..hn], gm, logn - 1, c.p, c.p0i);
    for v in 0..hn {
        let (ft_a, ft_b) = (fx[v << 1], fx[(v << 1) + 1]);
        let (gt_a, gt_b) = (gx[v << 1], gx[(v << 1) + 1]);
        let m_fp = mm(fp[v], c.r2, c);
        let m_gp = mm(gp[v], c.r2, c);
        let o = (v << 1) * llen + u;
        ft_big[o] = mm(gt_b, m_fp, c);
        ft_big[o + llen] = mm(gt_a, m_fp, c);
        gt_big[o] = mm(ft_b, m_gp, c);
        gt_big[o + llen] = mm(ft_a, m_gp, c);
    }
    intt_ext(ft_big, u, llen, igm, logn, c.p, c.p0i);
    intt_ext(gt_big, u, llen, igm, logn, c.p, c.p0i);
}

#[inline(always)]
fn mm(a: u32, b: u32, c: Pc) -> u32 {
    modp_montymul(a, b, c.p, c.p0i)
}

/// One step of the field-norm descent: from f, g at depth `depth` (size
/// 2^logn, slen limbs, NTT/RNS form if `in_ntt`) to N(f), N(g) at depth+1
/// (tlen limbs, NTT/RNS form if `out_ntt`). Input at data[0..], output at
/// data[0..]. If `cache` is not empty, it receives the plain f, g at
/// `depth` (2n integers of slen limbs, f then g) once they are rebuilt.
fn make_fg_step(
    data: &mut [u32],
    cache: &mut [u32],
    logn: u32,
    depth: usize,
    in_ntt: bool,
    out_ntt: bool,
) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let slen = MAX_BL_SMALL[depth];
    let tlen = MAX_BL_SMALL[depth + 1];
    data.copy_within(0..2 * n * slen, n * tlen);
    let (out, rest) = data.split_at_mut(n * tlen);
    let (fd, gd) = out.split_at_mut(hn * tlen);
    let (fsgs, scratch) = rest.split_at_mut(2 * n * slen);
    let (fs, gs) = fsgs.split_at_mut(n * slen);

    // Residues modulo the first slen primes are already there.
    {
        let (gm, r) = scratch.split_at_mut(n);
        let (igm, r) = r.split_at_mut(n);
        let t1 = &mut r[..n];
        for u in 0..slen {
            let c = pc(u);
            modp_mkgm2(gm, igm, logn, c.g, c.p, c.p0i);
            for (src, dst) in [(&mut *fs, &mut *fd), (&mut *gs, &mut *gd)] {
                for v in 0..n {
                    t1[v] = src[v * slen + u];
                }
                if !in_ntt {
                    ntt(t1, gm, logn, c.p, c.p0i);
                }
                for v in 0..hn {
                    dst[v * tlen + u] = mm(mm(t1[v << 1], t1[(v << 1) + 1], c), c.r2, c);
                }
                if in_ntt {
                    intt_ext(src, u, slen, igm, logn, c.p, c.p0i);
                }
            }
            if !out_ntt {
                intt_ext(fd, u, tlen, igm, logn - 1, c.p, c.p0i);
                intt_ext(gd, u, tlen, igm, logn - 1, c.p, c.p0i);
            }
        }
    }

    // Plain big integers, then the residues for the extra primes, a block
    // of primes at a time (res: 2n integers x b primes, [v * b + j]).
    zint_rebuild_crt(fsgs, slen, slen, 2 * n, true, scratch);
    if !cache.is_empty() {
        cache.copy_from_slice(fsgs);
    }
    let (gm, r) = scratch.split_at_mut(n);
    let (igm, res) = r.split_at_mut(n);
    // (a shift, not a division: lengths are public, but divscan wants no div)
    let bmax = (res.len() >> (logn + 1)).clamp(1, 16);
    let mut ub = slen;
    while ub < tlen {
        let b = (tlen - ub).min(bmax);
        let res = &mut res[..2 * n * b];
        zint_mod_small_signed_rns(fsgs, slen, slen, 2 * n, res, b, ub, ub + b);
        let (rf, rg) = res.split_at_mut(n * b);
        for j in 0..b {
            let u = ub + j;
            let c = pc(u);
            modp_mkgm2(gm, igm, logn, c.g, c.p, c.p0i);
            for (src, dst) in [(&mut *rf, &mut *fd), (&mut *rg, &mut *gd)] {
                ntt_ext(src, j, b, gm, logn, c.p, c.p0i);
                for v in 0..hn {
                    let (x0, x1) = (src[(v << 1) * b + j], src[((v << 1) + 1) * b + j]);
                    dst[v * tlen + u] = mm(mm(x0, x1, c), c.r2, c);
                }
            }
            if !out_ntt {
                intt_ext(fd, u, tlen, igm, logn - 1, c.p, c.p0i);
                intt_ext(gd, u, tlen, igm, logn - 1, c.p, c.p0i);
            }
        }
        ub += b;
    }
}

/// f, g at depth `depth` (from the top-level small f, g), into data[0..]:
/// f then g, MAX_BL_SMALL[depth] limbs each, RNS + NTT form if `out_ntt`.
fn make_fg(data: &mut [u32], f: &[i8], g: &[i8], logn: u32, depth: u32, out_ntt: bool) {
    let n = 1usize << logn;
    let c0 = pc(0);
    for u in 0..n {
        data[u] = modp_set(i32::from(f[u]), c0.p);
        data[n + u] = modp_set(i32::from(g[u]), c0.p);
    }
    if depth == 0 && out_ntt {
        let (fg, rest) = data.split_at_mut(2 * n);
        let (gm, rest) = rest.split_at_mut(n);
        let igm = &mut rest[..n];
        modp_mkgm2(gm, igm, logn, c0.g, c0.p, c0.p0i);
        let (ft, gt) = fg.split_at_mut(n);
        ntt(ft, gm, logn, c0.p, c0.p0i);
        ntt(gt, gm, logn, c0.p, c0.p0i);
        return;
    }
    if depth == 0 {
        return;
    }
    if depth == 1 {
        make_fg_step(data, &mut [], logn, 0, false, out_ntt);
        return;
    }
    make_fg_step(data, &mut [], logn, 0, false, true);
    for d in 1..depth - 1 {
        make_fg_step(data, &mut [], logn - d, d as usize, true, true);
    }
    make_fg_step(
        data,
        &mut [],
        logn - depth + 1,
        depth as usize - 1,
        true,
        out_ntt,
    );
}

/// Size in words of the plain f, g at `depth` (2 n slen).
fn fg_cache_size(logn_top: u32, depth: u32) -> usize {
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
fn fg_cache_start(logn_top: u32, tlen: usize, depth: u32) -> Option<usize> {
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
fn fg_cache_fits(logn_top: u32, tlen: usize) -> bool {
    logn_top >= 3 && (2..logn_top).all(|d| fg_cache_start(logn_top, tlen, d).is_some())
}

/// From this n (coefficients per polynomial at the input depth) down, the
/// descent computes the field norms by direct big-integer products
/// ([`field_norm_plain`]) instead of RNS + NTT + CRT (few, long integers:
/// see [`LIFT_PLAIN_MAX_N`]).
const DESCENT_PLAIN_MAX_N: usize = 16;

/// As [`make_fg`] at depth logn_top, into tmp[off..], also saving the
/// plain f, g of each intermediate depth at [`fg_cache_start`] (caller
/// checked [`fg_cache_fits`]). Returns true if the output is plain
/// (integers), false if it is the residues modulo the first
/// MAX_BL_SMALL[logn_top] primes (not in NTT form).
fn make_fg_deepest_cached(tmp: &mut [u32], off: usize, f: &[i8], g: &[i8], logn_top: u32) -> bool {
    let n = 1usize << logn_top;
    let tlen = tmp.len();
    let c0 = pc(0);
    {
        let data = &mut tmp[off..];
        for u in 0..n {
            data[u] = modp_set(i32::from(f[u]), c0.p);
            data[n + u] = modp_set(i32::from(g[u]), c0.p);
        }
    }
    // First depth (>= 2) of the direct descent, logn_top if none.
    // Each plain step also needs 2 nd slen words of digit scratch past its
    // output (room the keygen's 8n-word tmp always has; were it missing,
    // the RNS path would give the same integers).
    let fits = |d: u32| {
        let nd = 1usize << (logn_top - d);
        let (slen, dlen) = (MAX_BL_SMALL[d as usize], MAX_BL_SMALL[d as usize + 1]);
        fg_cache_start(logn_top, tlen, d).is_some_and(|cs| cs >= off + 4 * nd * slen + nd * dlen)
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
        // The last RNS step leaves plain residues (for the CRT below, or
        // for the caller at the deepest level).
        let out_ntt = d + 1 < d0;
        if d < 2 {
            make_fg_step(
                &mut tmp[off..],
                &mut [],
                logn_top - d,
                d as usize,
                d > 0,
                out_ntt,
            );
            continue;
        }
        let Some(cs) = fg_cache_start(logn_top, tlen, d) else {
            return false;
        };
        let (work, rest) = tmp.split_at_mut(cs);
        let cache = &mut rest[..fg_cache_size(logn_top, d)];
        make_fg_step(
            &mut work[off..],
            cache,
            logn_top - d,
            d as usize,
            true,
            out_ntt,
        );
    }
    if d0 == logn_top {
        return false;
    }
    {
        let nd = 1usize << (logn_top - d0);
        let slen = MAX_BL_SMALL[d0 as usize];
        let (x, scratch) = tmp[off..].split_at_mut(2 * nd * slen);
        zint_rebuild_crt(x, slen, slen, 2 * nd, true, scratch);
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
        field_norm_plain(dst, dlen, src, slen, logn_top - d, 2, scratch);
        data.copy_within(2 * nd * slen..2 * nd * slen + nd * dlen, 0);
    }
    true
}

/// Deepest level (constant polynomials): Res(f), Res(g), then F, G from
/// the extended GCD, times q. Output F, G (len limbs each) at tmp[0..].
fn solve_deepest(logn_top: u32, f: &[i8], g: &[i8], tmp: &mut [u32]) -> bool {
    let len = MAX_BL_SMALL[logn_top as usize];
    let plain = if fg_cache_fits(logn_top, tmp.len()) {
        make_fg_deepest_cached(tmp, 2 * len, f, g, logn_top)
    } else {
        make_fg(&mut tmp[2 * len..], f, g, logn_top, logn_top, false);
        false
    };
    let (fgp, rest) = tmp.split_at_mut(2 * len);
    let (fpgp, t1) = rest.split_at_mut(2 * len);
    if !plain {
        // (Resultants are positive: no signed normalisation.)
        zint_rebuild_crt(fpgp, len, len, 2, false, t1);
    }
    let (ffp, ggp) = fgp.split_at_mut(len);
    let (fp, gp) = fpgp.split_at(len);
    // f G - g F = 1 (u = G, v = F).
    if !zint_bezout(ggp, ffp, fp, gp, len, t1) {
        return false;
    }
    let c1 = zint_mul_small(ffp, 12289);
    let c2 = zint_mul_small(ggp, 12289);
    // CT: overflow of F, G is a keygen rejection condition.
    !crate::ct_util::declassify_bool((c1 | c2) != 0)
}

/// Converts big integers (the top `flen` limbs given, coefficient u at
/// f[u*fstride..]) to floating point.
fn poly_big_to_fp(d: &mut [Fpr], f: &[u32], flen: usize, fstride: usize, logn: u32) {
    let n = 1usize << logn;
    if flen == 0 {
        d[..n].fill(fpr::ZERO);
        return;
    }
    for u in 0..n {
        let fu = &f[u * fstride..u * fstride + flen];
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

/// F -= (k f) * 2^(31 sch + scl) mod X^n+1, schoolbook, over the limbs
/// sch..fflen of each coefficient of F (arithmetic modulo 2^(31 fflen), as
/// the reference's sequence of `zint_add_scaled_mul_small` calls; modular
/// sums do not depend on their order, so the words are the same).
///
/// All n products that land on one coefficient of F are summed in a single
/// pass over its limbs (one carry chain instead of n, and F is read and
/// written once; see [`crate::zint::zint_add_mul_fused`]). `tmp`: n
/// (fflen - sch) words, receives f * 2^scl (sign-extended, truncated).
#[allow(clippy::too_many_arguments)]
fn poly_sub_scaled(
    ff: &mut [u32],
    fflen: usize,
    ffstride: usize,
    f: &[u32],
    flen: usize,
    fstride: usize,
    k: &[i32],
    sch: usize,
    scl: u32,
    logn: u32,
    tmp: &mut [u32],
) {
    let n = 1usize << logn;
    if flen == 0 || fflen <= sch {
        return;
    }
    let tl = fflen - sch;
    let ys = &mut tmp[..n * tl];
    for v in 0..n {
        let y = &f[v * fstride..v * fstride + flen];
        let ysign = (y[flen - 1] >> 30).wrapping_neg() >> 1;
        let mut tw = 0u32;
        for (t, yt) in ys[v * tl..(v + 1) * tl].iter_mut().enumerate() {
            let wy = if t < flen { y[t] } else { ysign };
            *yt = ((wy << scl) & 0x7FFF_FFFF) | tw;
            tw = wy >> (31 - scl);
        }
    }
    // Only used below DEPTH_INT_FG: n <= SUB_SCALED_MAX_N.
    let mut c = [0i64; SUB_SCALED_MAX_N];
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
        zint_add_mul_fused(&mut ff[w * ffstride + sch..w * ffstride + fflen], ys, c);
    }
}

/// As [`poly_sub_scaled`], computing k f with RNS + NTT. `tmp`: n (flen+4).
#[allow(clippy::too_many_arguments)]
fn poly_sub_scaled_ntt(
    ff: &mut [u32],
    fflen: usize,
    ffstride: usize,
    f: &[u32],
    flen: usize,
    fstride: usize,
    k: &[i32],
    sch: usize,
    scl: u32,
    logn: u32,
    tmp: &mut [u32],
) {
    let n = 1usize << logn;
    let tlen = flen + 1;
    let (gm, rest) = tmp.split_at_mut(n);
    let (igm, rest) = rest.split_at_mut(n);
    let (fk, t1) = rest.split_at_mut(n * tlen);
    for u in 0..tlen {
        let c = pc(u);
        let rx = modp_rx(flen as u32, c.p, c.p0i, c.r2);
        modp_mkgm2(gm, igm, logn, c.g, c.p, c.p0i);
        for v in 0..n {
            t1[v] = modp_set(k[v], c.p);
        }
        ntt(t1, gm, logn, c.p, c.p0i);
        zint_mod_small_signed_all(f, fstride, flen, n, c.p, c.p0i, c.r2, rx, |v, x| {
            fk[v * tlen + u] = x;
        });
        ntt_ext(fk, u, tlen, gm, logn, c.p, c.p0i);
        for v in 0..n {
            let x = fk[v * tlen + u];
            fk[v * tlen + u] = mm(mm(t1[v], x, c), c.r2, c);
        }
        intt_ext(fk, u, tlen, igm, logn, c.p, c.p0i);
    }
    zint_rebuild_crt(fk, tlen, tlen, n, true, t1);
    for u in 0..n {
        zint_sub_scaled(
            &mut ff[u * ffstride..u * ffstride + fflen],
            &fk[u * tlen..(u + 1) * tlen],
            sch,
            scl,
        );
    }
}

/// NTT forms of f and g (`fg`: 2n plain integers of `slen` limbs, f then
/// g) modulo each of the first slen + 1 primes, into `cache` (prime-major:
/// f mod p_u at u * n, g mod p_u at (tlen + u) * n). `tmp` >= 2n (slen + 2)
/// words.
fn ntt_fg_cache(cache: &mut [u32], fg: &[u32], slen: usize, logn: u32, tmp: &mut [u32]) {
    let n = 1usize << logn;
    let tlen = slen + 1;
    let (res, rest) = tmp.split_at_mut(2 * n * tlen);
    let (gm, rest) = rest.split_at_mut(n);
    let igm = &mut rest[..n];
    zint_mod_small_signed_rns(fg, slen, slen, 2 * n, res, tlen, 0, tlen);
    for u in 0..tlen {
        let c = pc(u);
        modp_mkgm2(gm, igm, logn, c.g, c.p, c.p0i);
        for h in 0..2 {
            let dst = &mut cache[(h * tlen + u) * n..(h * tlen + u + 1) * n];
            for v in 0..n {
                dst[v] = res[(h * n + v) * tlen + u];
            }
            ntt(dst, gm, logn, c.p, c.p0i);
        }
    }
}

/// F -= (k f) 2^(31 sch + scl) and G -= (k g) 2^(31 sch + scl) (`f_big`,
/// `g_big`: n integers each, stride `llen`, `fglen` limbs used), with the
/// products by NTT from the transformed f, g of [`ntt_fg_cache`]: per
/// prime, one transform of k and two inverse ones. The products are
/// reconstructed with CRT over slen + 1 primes and subtracted as in
/// [`poly_sub_scaled_ntt`] (same residues, so the same integers). `tmp` >=
/// 2n tlen + 4n + tlen words.
#[allow(clippy::too_many_arguments)]
fn poly_sub_scaled_ntt_cached(
    f_big: &mut [u32],
    g_big: &mut [u32],
    fglen: usize,
    llen: usize,
    cache: &[u32],
    tlen: usize,
    k: &[i32],
    sch: usize,
    scl: u32,
    logn: u32,
    tmp: &mut [u32],
) {
    let n = 1usize << logn;
    let (prod, rest) = tmp.split_at_mut(2 * n * tlen);
    let (gm, rest) = rest.split_at_mut(n);
    let (igm, rest) = rest.split_at_mut(n);
    let (kt, rest) = rest.split_at_mut(n);
    let (x, crt) = rest.split_at_mut(n);
    for u in 0..tlen {
        let c = pc(u);
        modp_mkgm2(gm, igm, logn, c.g, c.p, c.p0i);
        for v in 0..n {
            kt[v] = modp_set(k[v], c.p);
        }
        ntt(kt, gm, logn, c.p, c.p0i);
        for h in 0..2 {
            let fc = &cache[(h * tlen + u) * n..(h * tlen + u + 1) * n];
            for v in 0..n {
                x[v] = mm(mm(kt[v], fc[v], c), c.r2, c);
            }
            intt(x, igm, logn, c.p, c.p0i);
            for v in 0..n {
                prod[(h * n + v) * tlen + u] = x[v];
            }
        }
    }
    zint_rebuild_crt(prod, tlen, tlen, 2 * n, true, crt);
    for v in 0..2 * n {
        let (xb, o) = if v < n {
            (&mut *f_big, v)
        } else {
            (&mut *g_big, v - n)
        };
        zint_sub_scaled(
            &mut xb[o * llen..o * llen + fglen],
            &prod[v * tlen..(v + 1) * tlen],
            sch,
            scl,
        );
    }
}

/// Up to this n (coefficients per polynomial), [`solve_intermediate`]
/// forms F'(x^2) g(-x) by direct big-integer products rather than with
/// RNS + NTT + CRT: there the integers are long (tens to hundreds of limbs)
/// and few, so the n^2/2 products cost less than reconstructing 2n
/// integers of llen limbs from llen residues each (quadratic in llen).
const LIFT_PLAIN_MAX_N: usize = 16;

/// Room for the signed digits of each operand of [`comba_sum`].
///
/// The plain paths need at most 224 digits per operand for logn <= 10 (hn
/// dlen and n slen with n <= 16, e.g. 16 x 14 at logn 10, depth 6): with
/// 224 the size tests that select them pass exactly where they did with
/// 512, so the same code runs (and were one to fail, the RNS path gives
/// the same integers), while the two digit buffers on the stack of
/// [`lift_plain`] and [`field_norm_plain`] cost 1.75 KB instead of 4 KB
/// (they sit on the deepest keygen call chain, which bounds the Cortex-M4
/// peak stack).
const PLAIN_DIGITS: usize = 224;

/// The most terms one output coefficient of [`comba_sum`] may have: n/2
/// for [`lift_plain`], n for [`field_norm_plain`].
const PLAIN_TERMS: usize = 32;

const _: () = assert!(LIFT_PLAIN_MAX_N <= PLAIN_TERMS && DESCENT_PLAIN_MAX_N <= PLAIN_TERMS);

/// A signed digit of [`comba_sum`]: an `i32`, or its two's-complement bit
/// pattern in a `u32` word of the solver's scratch. On the x86 AVX2 build
/// the digits live in `i32` stack buffers (the AVX2 kernel reads them);
/// elsewhere (Cortex-M4 in particular) they go in free words of `tmp`, which
/// keeps 1.75 KB of buffers off the deepest keygen call chain.
trait Digit: Copy {
    /// The digit of value `z`.
    fn of(z: i32) -> Self;
    /// Its value.
    fn val(self) -> i64;
    /// One output coefficient with the AVX2 kernel, if this digit type
    /// and the CPU allow it (see [`comba_coeff_portable`]).
    fn try_avx2(
        o: &mut [u32],
        ad: &[Self],
        alen: usize,
        bd: &[Self],
        blen: usize,
        terms: &[(usize, usize, bool)],
    ) -> bool;
}

/// Whether [`lift_plain`] and [`field_norm_plain`] keep their digits in
/// the caller's scratch words (`u32`) rather than in `i32` stack buffers
/// (see [`Digit`]). Both give the same digits, hence the same output.
const DIGITS_IN_SCRATCH: bool = !cfg!(all(
    target_arch = "x86_64",
    not(pqforge_backend = "portable")
));

/// Runs `$call` with the digit buffers `$ad` (`$na` digits) and `$bd`
/// (`$nb`): words of `$scratch` when [`DIGITS_IN_SCRATCH`], else `i32`
/// stack arrays; both zeroized afterwards.
macro_rules! with_digits {
    ($scratch:expr, $na:expr, $nb:expr, |$ad:ident, $bd:ident| $call:expr) => {{
        let (na, nb) = ($na, $nb);
        if DIGITS_IN_SCRATCH {
            let (x, rest) = $scratch.split_at_mut(na);
            let y = &mut rest[..nb];
            {
                let ($ad, $bd) = (&mut *x, &mut *y);
                $call;
            }
            zeroize::Zeroize::zeroize(x);
            zeroize::Zeroize::zeroize(y);
        } else {
            let mut x = [0i32; PLAIN_DIGITS];
            let mut y = [0i32; PLAIN_DIGITS];
            {
                let ($ad, $bd) = (&mut x[..na], &mut y[..nb]);
                $call;
            }
            zeroize::Zeroize::zeroize(&mut x[..]);
            zeroize::Zeroize::zeroize(&mut y[..]);
        }
    }};
}

impl Digit for i32 {
    #[inline(always)]
    fn of(z: i32) -> Self {
        z
    }
    #[inline(always)]
    fn val(self) -> i64 {
        i64::from(self)
    }
    #[inline(always)]
    fn try_avx2(
        o: &mut [u32],
        ad: &[Self],
        alen: usize,
        bd: &[Self],
        blen: usize,
        terms: &[(usize, usize, bool)],
    ) -> bool {
        #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
        return crate::zint_avx2::try_comba_coeff(o, ad, alen, bd, blen, terms);
        #[cfg(not(all(target_arch = "x86_64", not(pqforge_backend = "portable"))))]
        {
            let _ = (o, ad, alen, bd, blen, terms);
            false
        }
    }
}

impl Digit for u32 {
    #[inline(always)]
    fn of(z: i32) -> Self {
        z as u32
    }
    #[inline(always)]
    fn val(self) -> i64 {
        i64::from(self as i32)
    }
    #[inline(always)]
    fn try_avx2(
        _o: &mut [u32],
        _ad: &[Self],
        _alen: usize,
        _bd: &[Self],
        _blen: usize,
        _terms: &[(usize, usize, bool)],
    ) -> bool {
        false
    }
}

/// The signed digits of `count` integers of `len` limbs: the top limb's
/// bit 30 is the sign (31-bit two's complement), the others are plain
/// 31-bit words. With `rev`, the limbs of each integer are reversed.
fn signed_digits<D: Digit>(d: &mut [D], x: &[u32], len: usize, count: usize, rev: bool) {
    for v in 0..count {
        for t in 0..len {
            let w = x[v * len + t];
            let z = if t == len - 1 {
                ((w << 1) as i32) >> 1
            } else {
                w as i32
            };
            d[v * len + if rev { len - 1 - t } else { t }] = D::of(z);
        }
    }
}

/// out[k] = sum over the terms (i, j, neg) of `terms(k)` of (-1)^neg a_i
/// b_j, exactly modulo 2^(31 olen), for k < `nout`; a_i has the signed
/// digits ad[i alen..][..alen], b_j the reversed ones bd[j blen..][..blen]
/// (see [`signed_digits`]). `terms` writes the list into its buffer and
/// returns its length.
///
/// Each output limb is a column sum (Comba) of 31-bit x 31-bit signed
/// digit products, kept as a low part (31 bits of each product) and a high
/// part, both in i64, so that one carry per limb suffices. The terms and
/// their signs depend only on indices (public). CT.
#[allow(clippy::too_many_arguments)]
fn comba_sum<D: Digit>(
    out: &mut [u32],
    olen: usize,
    nout: usize,
    ad: &[D],
    alen: usize,
    bd: &[D],
    blen: usize,
    terms: impl Fn(usize, &mut [(usize, usize, bool)]) -> usize,
) {
    let mut tb = [(0usize, 0usize, false); PLAIN_TERMS];
    for k in 0..nout {
        let nt = terms(k, &mut tb);
        let o = &mut out[k * olen..(k + 1) * olen];
        if D::try_avx2(o, ad, alen, bd, blen, &tb[..nt]) {
            continue;
        }
        comba_coeff_portable(o, ad, alen, bd, blen, &tb[..nt]);
    }
}

/// One output coefficient of [`comba_sum`] (portable body): o[t] for t
/// < o.len() from the given terms.
fn comba_coeff_portable<D: Digit>(
    o: &mut [u32],
    ad: &[D],
    alen: usize,
    bd: &[D],
    blen: usize,
    terms: &[(usize, usize, bool)],
) {
    let mut cc = 0i64;
    for (t, ot) in o.iter_mut().enumerate() {
        // Digits a_u b_v with u + v = t: u in [t - blen + 1, t] within
        // [0, alen).
        let u0 = (t + 1).saturating_sub(blen);
        let u1 = (t + 1).min(alen);
        let mut lo = 0i64;
        let mut hi = 0i64;
        if u0 < u1 {
            for &(i, j, neg) in terms {
                let ar = &ad[i * alen + u0..i * alen + u1];
                // b_v, v = t - u, reversed: index blen - 1 - v.
                let bo = j * blen + (blen - 1 + u0 - t);
                let br = &bd[bo..bo + (u1 - u0)];
                let (mut l, mut h) = (0i64, 0i64);
                for (&x, &y) in ar.iter().zip(br) {
                    let p = x.val() * y.val();
                    l += p & 0x7FFF_FFFF;
                    h += p >> 31;
                }
                if neg {
                    lo -= l;
                    hi -= h;
                } else {
                    lo += l;
                    hi += h;
                }
            }
        }
        let z = lo + cc;
        *ot = (z as u32) & 0x7FFF_FFFF;
        cc = (z >> 31) + hi;
    }
}

/// out = a(x^2) b(-x) mod x^n + 1 (n = 2^logn), exactly, modulo 2^(31
/// olen) per coefficient (the bound MAX_BL_LARGE makes it exact: it is
/// the integer the reference rebuilds from its olen residues). `a`: n/2
/// signed integers of `alen` limbs; `b`: n of `blen` limbs; `out`: n of
/// `olen` limbs. Caller: hn alen, n blen <= PLAIN_DIGITS; `scratch`: hn
/// alen + n blen free words (digits, unless [`DIGITS_IN_SCRATCH`] is off).
///
/// Coefficient k is the sum, over j = k mod 2 (i = (k - j) / 2 mod n/2),
/// of (-1)^j a_i b_j, negated when 2 i + j wraps past n.
///
/// Never inlined: its digit buffers must not join the frame of the caller,
/// which stays live across the other deep calls of the solver.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn lift_plain(
    out: &mut [u32],
    olen: usize,
    a: &[u32],
    alen: usize,
    b: &[u32],
    blen: usize,
    logn: u32,
    scratch: &mut [u32],
) {
    let n = 1usize << logn;
    with_digits!(scratch, (n >> 1) * alen, n * blen, |ad, bd| {
        lift_plain_with(out, olen, a, alen, b, blen, logn, ad, bd);
    });
}

/// [`lift_plain`] with the given digit buffers (n/2 alen and n blen).
#[allow(clippy::too_many_arguments)]
fn lift_plain_with<D: Digit>(
    out: &mut [u32],
    olen: usize,
    a: &[u32],
    alen: usize,
    b: &[u32],
    blen: usize,
    logn: u32,
    ad: &mut [D],
    bd: &mut [D],
) {
    let n = 1usize << logn;
    signed_digits(ad, a, alen, n >> 1, false);
    signed_digits(bd, b, blen, n, true);
    comba_sum(out, olen, n, ad, alen, bd, blen, |k, tb| {
        let mut nt = 0;
        for j in ((k & 1)..n).step_by(2) {
            // 2 i + j = k (mod n).
            let wrap = j > k;
            tb[nt] = (((k + n - j) & (n - 1)) >> 1, j, (j & 1 == 1) != wrap);
            nt += 1;
        }
        nt
    });
}

/// The field norm N(x)(y) = x(sqrt y) x(-sqrt y) = xe(y)^2 - y xo(y)^2
/// (xe, xo: even and odd coefficients) of the `count` polynomials of n =
/// 2^logn signed `slen`-limb coefficients at src (one after the other),
/// exactly, into dst (n/2 coefficients of `tlen` limbs each per
/// polynomial; MAX_BL_SMALL makes it exact, the integers the reference
/// rebuilds from its tlen residues). Caller: n slen <= PLAIN_DIGITS;
/// `scratch`: 2 n slen free words (see [`lift_plain`]).
///
/// Never inlined, for the same reason as [`lift_plain`].
#[inline(never)]
fn field_norm_plain(
    dst: &mut [u32],
    tlen: usize,
    src: &[u32],
    slen: usize,
    logn: u32,
    count: usize,
    scratch: &mut [u32],
) {
    let ns = slen << logn;
    with_digits!(scratch, ns, ns, |ad, bd| {
        field_norm_plain_with(dst, tlen, src, slen, logn, count, ad, bd);
    });
}

/// [`field_norm_plain`] with the given digit buffers (n slen each).
#[allow(clippy::too_many_arguments)]
fn field_norm_plain_with<D: Digit>(
    dst: &mut [u32],
    tlen: usize,
    src: &[u32],
    slen: usize,
    logn: u32,
    count: usize,
    ad: &mut [D],
    bd: &mut [D],
) {
    let n = 1usize << logn;
    let m = n >> 1;
    for c in 0..count {
        let x = &src[c * n * slen..(c + 1) * n * slen];
        signed_digits(ad, x, slen, n, false);
        signed_digits(bd, x, slen, n, true);
        comba_sum(
            &mut dst[c * m * tlen..(c + 1) * m * tlen],
            tlen,
            m,
            ad,
            slen,
            bd,
            slen,
            |k, tb| {
                let mut nt = 0;
                for i in 0..m {
                    // xe_i xe_j, i + j = k (mod m): + unless it wraps.
                    let j = (k + m - i) & (m - 1);
                    tb[nt] = (2 * i, 2 * j, i + j != k);
                    // y xo_i xo_j, i + j + 1 = k (mod m): - unless it wraps.
                    let j = (k + 2 * m - 1 - i) & (m - 1);
                    tb[nt + 1] = (2 * i + 1, 2 * j + 1, i + j + 1 == k);
                    nt += 2;
                }
                nt
            },
        );
    }
}

/// Given F', G' at depth+1 (tmp[0..], dlen limbs), computes F, G at depth
/// (tmp[0..], slen limbs), reduced against f, g (Babai).
fn solve_intermediate(
    logn_top: u32,
    f: &[i8],
    g: &[i8],
    depth: u32,
    tmp: &mut [u32],
    ftmp: &mut [Fpr],
) -> bool {
    let logn = logn_top - depth;
    let n = 1usize << logn;
    let hn = n >> 1;
    let d = depth as usize;
    let slen = MAX_BL_SMALL[d];
    let dlen = MAX_BL_SMALL[d + 1];
    let llen = MAX_BL_LARGE[d];

    // Layout: [Ft | Gt] (n llen each) | [ft | gt] (n slen each) | [Fd | Gd]
    // (hn dlen each) | scratch.
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
        make_fg(&mut tmp[a..], f, g, logn_top, depth, true);
        tmp.copy_within(a..a + 2 * n * slen, o_ft);
        tmp.copy_within(0..a, o_fd);
        tmp
    };

    let (big, rest) = tmp.split_at_mut(o_ft);
    let (fgt, rest) = rest.split_at_mut(2 * n * slen);
    let (fdgd, t1) = rest.split_at_mut(o_t1 - o_fd);
    let (ft_big, gt_big) = big.split_at_mut(n * llen);
    let (fd, gd) = fdgd.split_at(hn * dlen);

    // (The scratch test always passes: fg_cache_start leaves at least the
    // consumed block, 2 n slen >= hn dlen + n slen words, above t1.)
    if plain
        && n <= LIFT_PLAIN_MAX_N
        && hn * dlen <= PLAIN_DIGITS
        && n * slen <= PLAIN_DIGITS
        && t1.len() >= hn * dlen + n * slen
    {
        // Small n, long integers: the products directly (see lift_plain).
        let (ft, gt) = fgt.split_at(n * slen);
        lift_plain(ft_big, llen, fd, dlen, gt, slen, logn, t1);
        lift_plain(gt_big, llen, gd, dlen, ft, slen, logn, t1);
    } else {
        // F', G' modulo each of the llen primes.
        zint_mod_small_signed_rns(fd, dlen, dlen, hn, ft_big, llen, 0, llen);
        zint_mod_small_signed_rns(gd, dlen, dlen, hn, gt_big, llen, 0, llen);

        // F = F'(x^2) g(-x), G = G'(x^2) f(-x), prime by prime. Past the
        // first slen primes, the residues of f, g come from their plain form,
        // a block of primes at a time (res: 2n integers x b primes).
        let bmax = ((t1.len() - 5 * n) >> (logn + 1)).clamp(1, 16);
        let (mut ub, mut b) = (0, 0);
        for u in 0..llen {
            let c = pc(u);
            if u == slen && !plain {
                zint_rebuild_crt(fgt, slen, slen, 2 * n, true, t1);
            }
            let (gm, rest) = t1.split_at_mut(n);
            let (igm, rest) = rest.split_at_mut(n);
            let (fx, rest) = rest.split_at_mut(n);
            let (gx, rest) = rest.split_at_mut(n);
            let (fp, rest) = rest.split_at_mut(hn);
            let (gp, res) = rest.split_at_mut(hn);
            modp_mkgm2(gm, igm, logn, c.g, c.p, c.p0i);
            if u < slen && !plain {
                let (ft, gt) = fgt.split_at_mut(n * slen);
                for v in 0..n {
                    fx[v] = ft[v * slen + u];
                    gx[v] = gt[v * slen + u];
                }
                intt_ext(ft, u, slen, igm, logn, c.p, c.p0i);
                intt_ext(gt, u, slen, igm, logn, c.p, c.p0i);
            } else {
                if u >= ub + b {
                    ub = u;
                    b = (llen - u).min(bmax);
                    zint_mod_small_signed_rns(
                        fgt,
                        slen,
                        slen,
                        2 * n,
                        &mut res[..2 * n * b],
                        b,
                        ub,
                        ub + b,
                    );
                }
                let j = u - ub;
                for v in 0..n {
                    fx[v] = res[v * b + j];
                    gx[v] = res[(n + v) * b + j];
                }
                ntt(fx, gm, logn, c.p, c.p0i);
                ntt(gx, gm, logn, c.p, c.p0i);
            }
            lift_one_prime(ft_big, gt_big, llen, u, fx, gx, fp, gp, gm, igm, logn, c);
        }
        // F and G are adjacent with the same stride: one pass over all 2n.
        zint_rebuild_crt(big, llen, llen, 2 * n, true, t1);
    }

    // Babai reduction, with floating-point approximations of the top limbs.
    // The old F', G' area (and beyond) is reused as scratch.
    let (big, rest) = tmp.split_at_mut(o_ft);
    let (fgt, t1) = rest.split_at_mut(2 * n * slen);
    let (ft_big, gt_big) = big.split_at_mut(n * llen);
    let (ft, gt) = fgt.split_at(n * slen);
    // Intermediate levels have n <= 256 (depth >= 2, or logn_top <= 2).
    let mut k = [0i32; 256];
    let k = &mut k[..n];

    let (rt1, rest) = ftmp.split_at_mut(n);
    let (rt2, rest) = rest.split_at_mut(n);
    let (rt3, rest) = rest.split_at_mut(n);
    let (rt4, rest) = rest.split_at_mut(n);
    let rt5 = &mut rest[..hn];

    let rlen = slen.min(10);
    poly_big_to_fp(rt3, &ft[slen - rlen..], rlen, slen, logn);
    poly_big_to_fp(rt4, &gt[slen - rlen..], rlen, slen, logn);
    let scale_fg = 31 * (slen - rlen) as i32;
    let (avg, std) = BITLENGTH[d];
    let minbl_fg = avg - 6 * std;
    let maxbl_fg = avg + 6 * std;
    fft::fft(rt3, logn);
    fft::fft(rt4, logn);
    fft::invnorm2_fft(rt5, rt3, rt4, logn);
    fft::adj_fft(rt3, logn);
    fft::adj_fft(rt4, logn);

    // With NTT products (shallow levels), f and g are transformed once for
    // the whole loop when the scratch allows (else once per product).
    let tlen = slen + 1;
    let cached = depth <= DEPTH_INT_FG && t1.len() >= 4 * n * tlen + 4 * n + tlen;
    let (fgc, t1) = t1.split_at_mut(if cached { 2 * n * tlen } else { 0 });
    if cached {
        ntt_fg_cache(fgc, fgt, slen, logn, t1);
    }

    let mut fglen = llen;
    let mut maxbl_big = 31 * llen as i32;
    let mut scale_k = maxbl_big - minbl_fg;
    loop {
        let rlen = fglen.min(10);
        let scale_big = 31 * (fglen - rlen) as i32;
        poly_big_to_fp(rt1, &ft_big[fglen - rlen..], rlen, llen, logn);
        poly_big_to_fp(rt2, &gt_big[fglen - rlen..], rlen, llen, logn);
        fft::fft(rt1, logn);
        fft::fft(rt2, logn);
        fft::mul_fft(rt1, rt3, logn);
        fft::mul_fft(rt2, rt4, logn);
        fft::add(rt2, rt1, logn);
        fft::mul_autoadj_fft(rt2, rt5, logn);
        fft::ifft(rt2, logn);

        // k = round((F adj(f) + G adj(g)) / (f adj(f) + g adj(g)) * 2^-dc).
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

        let sch = (scale_k / 31) as usize;
        let scl = (scale_k % 31) as u32;
        if cached {
            poly_sub_scaled_ntt_cached(
                ft_big, gt_big, fglen, llen, fgc, tlen, k, sch, scl, logn, t1,
            );
        } else if depth <= DEPTH_INT_FG {
            poly_sub_scaled_ntt(ft_big, fglen, llen, ft, slen, slen, k, sch, scl, logn, t1);
            poly_sub_scaled_ntt(gt_big, fglen, llen, gt, slen, slen, k, sch, scl, logn, t1);
        } else {
            poly_sub_scaled(ft_big, fglen, llen, ft, slen, slen, k, sch, scl, logn, t1);
            poly_sub_scaled(gt_big, fglen, llen, gt, slen, slen, k, sch, scl, logn, t1);
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
        for u in 0..n {
            for x in [&mut *ft_big, &mut *gt_big] {
                let row = &mut x[u * llen..];
                let sw = (row[fglen - 1] >> 30).wrapping_neg() >> 1;
                row[fglen..slen].fill(sw);
            }
        }
    }
    for u in 0..2 * n {
        tmp.copy_within(u * llen..u * llen + slen, u * slen);
    }
    true
}

/// Depth 1 (from depth 2), with F, G small enough for one-limb results and
/// a single floating-point reduction. Output F, G (one word each, plain
/// two's complement) at tmp[0..n], tmp[n..2n] (n = 2^(logn_top-1)).
fn solve_binary_depth1(
    logn_top: u32,
    f: &[i8],
    g: &[i8],
    tmp: &mut [u32],
    ftmp: &mut [Fpr],
) -> bool {
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
        zint_mod_small_signed_rns(fd, dlen, dlen, hn, ft_big, llen, 0, llen);
        zint_mod_small_signed_rns(gd, dlen, dlen, hn, gt_big, llen, 0, llen);
    }
    tmp.copy_within(a..a + 2 * n * llen, 0);

    // Layout: [Ft | Gt] (n llen each) | [ft | gt] (n slen each) | scratch.
    let (big, rest) = tmp.split_at_mut(2 * n * llen);
    let (fgt, t1) = rest.split_at_mut(2 * n * slen);
    let (ft_big, gt_big) = big.split_at_mut(n * llen);
    let (ft, gt) = fgt.split_at_mut(n * slen);
    for u in 0..llen {
        let c = pc(u);
        let (gm, r) = t1.split_at_mut(n_top);
        let (igm, r) = r.split_at_mut(n_top);
        let (fx, r) = r.split_at_mut(n_top);
        let (gx, r) = r.split_at_mut(n_top);
        let (fp, r) = r.split_at_mut(hn);
        let gp = &mut r[..hn];
        modp_mkgm2(gm, igm, logn_top, c.g, c.p, c.p0i);
        for v in 0..n_top {
            fx[v] = modp_set(i32::from(f[v]), c.p);
            gx[v] = modp_set(i32::from(g[v]), c.p);
        }
        ntt(fx, gm, logn_top, c.p, c.p0i);
        ntt(gx, gm, logn_top, c.p, c.p0i);
        let mut e = logn_top;
        while e > logn {
            modp_poly_rec_res(fx, e, c.p, c.p0i, c.r2);
            modp_poly_rec_res(gx, e, c.p, c.p0i, c.r2);
            e -= 1;
        }
        // The first n entries of the size-n_top tables are the size-n tables.
        lift_one_prime(ft_big, gt_big, llen, u, fx, gx, fp, gp, gm, igm, logn, c);
        if u < slen {
            intt(&mut fx[..n], igm, logn, c.p, c.p0i);
            intt(&mut gx[..n], igm, logn, c.p, c.p0i);
            for v in 0..n {
                ft[v * slen + u] = fx[v];
                gt[v * slen + u] = gx[v];
            }
        }
    }
    zint_rebuild_crt(big, llen, llen, n << 1, true, t1);
    zint_rebuild_crt(fgt, slen, slen, n << 1, true, t1);
    let (ft_big, gt_big) = big.split_at(n * llen);
    let (ft, gt) = fgt.split_at(n * slen);

    let (rt1, rest) = ftmp.split_at_mut(n);
    let (rt2, rest) = rest.split_at_mut(n);
    let (rt3, rest) = rest.split_at_mut(n);
    let (rt4, rest) = rest.split_at_mut(n);
    let (rt5, rest) = rest.split_at_mut(n);
    let rt6 = &mut rest[..n];
    poly_big_to_fp(rt1, ft_big, llen, llen, logn);
    poly_big_to_fp(rt2, gt_big, llen, llen, logn);
    poly_big_to_fp(rt3, ft, slen, slen, logn);
    poly_big_to_fp(rt4, gt, slen, slen, logn);
    fft::fft(rt1, logn);
    fft::fft(rt2, logn);
    fft::fft(rt3, logn);
    fft::fft(rt4, logn);
    fft::add_muladj_fft(rt5, rt1, rt2, rt3, rt4, logn);
    fft::invnorm2_fft(rt6, rt3, rt4, logn);
    fft::mul_autoadj_fft(rt5, rt6, logn);
    fft::ifft(rt5, logn);
    let mut bad = false;
    for z in rt5.iter_mut() {
        bad |= !z.lt(fpr::PTWO63M1) | !fpr::MTWO63M1.lt(*z);
        *z = Fpr::of(z.rint());
    }
    // CT: out-of-range quotient is a keygen rejection condition.
    if crate::ct_util::declassify_bool(bad) {
        return false;
    }
    fft::fft(rt5, logn);
    fft::mul_fft(rt3, rt5, logn);
    fft::mul_fft(rt4, rt5, logn);
    fft::sub(rt1, rt3, logn);
    fft::sub(rt2, rt4, logn);
    fft::ifft(rt1, logn);
    fft::ifft(rt2, logn);
    for u in 0..n {
        tmp[u] = rt1[u].rint() as u32;
        tmp[n + u] = rt2[u].rint() as u32;
    }
    true
}

/// Top level (depth 0): F, G from the depth-1 solution, reduced with one
/// floating-point Babai step, all modulo the first prime (the result is
/// small). Output F, G (plain i32 as u32) at tmp[0..n], tmp[n..2n].
fn solve_binary_depth0(logn: u32, f: &[i8], g: &[i8], tmp: &mut [u32], ftmp: &mut [Fpr]) -> bool {
    let n = 1usize << logn;
    let hn = n >> 1;
    let c = pc(0);
    let (p, p0i, r2) = (c.p, c.p0i, c.r2);

    {
        let (fpgp, rest) = tmp.split_at_mut(n);
        let (ft, rest) = rest.split_at_mut(n);
        let (gt, rest) = rest.split_at_mut(n);
        let (gm, rest) = rest.split_at_mut(n);
        let igm = &mut rest[..n];
        modp_mkgm2(gm, igm, logn, c.g, p, p0i);
        for x in fpgp.iter_mut() {
            *x = modp_set(zint_one_to_plain(*x), p);
        }
        let (fp, gp) = fpgp.split_at_mut(hn);
        ntt(fp, gm, logn - 1, p, p0i);
        ntt(gp, gm, logn - 1, p, p0i);
        for u in 0..n {
            ft[u] = modp_set(i32::from(f[u]), p);
            gt[u] = modp_set(i32::from(g[u]), p);
        }
        ntt(ft, gm, logn, p, p0i);
        ntt(gt, gm, logn, p, p0i);
        // F = F'(x^2) g(-x), G = G'(x^2) f(-x) (unreduced, mod p).
        for u in (0..n).step_by(2) {
            let (ft_a, ft_b) = (ft[u], ft[u + 1]);
            let (gt_a, gt_b) = (gt[u], gt[u + 1]);
            let m_fp = mm(fp[u >> 1], r2, c);
            let m_gp = mm(gp[u >> 1], r2, c);
            ft[u] = mm(gt_b, m_fp, c);
            ft[u + 1] = mm(gt_a, m_fp, c);
            gt[u] = mm(ft_b, m_gp, c);
            gt[u + 1] = mm(ft_a, m_gp, c);
        }
        intt(ft, igm, logn, p, p0i);
        intt(gt, igm, logn, p, p0i);
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
    modp_mkgm2(t1, t2, logn, c.g, p, p0i);
    ntt(fp, t1, logn, p, p0i);
    ntt(gp, t1, logn, p, p0i);

    // t2 = F adj(f) + G adj(g), t3 = f adj(f) + g adj(g) (mod p).
    let load_adj = |t4: &mut [u32], t5: &mut [u32], x: &[i8]| {
        t4[0] = modp_set(i32::from(x[0]), p);
        t5[0] = t4[0];
        for u in 1..n {
            t4[u] = modp_set(i32::from(x[u]), p);
            t5[n - u] = modp_set(-i32::from(x[u]), p);
        }
    };
    load_adj(t4, t5, f);
    ntt(t4, t1, logn, p, p0i);
    ntt(t5, t1, logn, p, p0i);
    for u in 0..n {
        let w = mm(t5[u], r2, c);
        t2[u] = mm(w, fp[u], c);
        t3[u] = mm(w, t4[u], c);
    }
    load_adj(t4, t5, g);
    ntt(t4, t1, logn, p, p0i);
    ntt(t5, t1, logn, p, p0i);
    for u in 0..n {
        let w = mm(t5[u], r2, c);
        t2[u] = modp_add(t2[u], mm(w, gp[u], c), p);
        t3[u] = modp_add(t3[u], mm(w, t4[u], c), p);
    }
    modp_mkgm2(t1, t4, logn, c.g, p, p0i);
    intt(t2, t4, logn, p, p0i);
    intt(t3, t4, logn, p, p0i);

    // k = round(t2 / t3) in floating point (t3 is self-adjoint: real FFT).
    let (rt2, rest) = ftmp.split_at_mut(n);
    let rt3 = &mut rest[..n];
    for u in 0..n {
        rt3[u] = Fpr::of(i64::from(modp_norm(t3[u], p)));
    }
    fft::fft(rt3, logn);
    rt2[..hn].copy_from_slice(&rt3[..hn]);
    for u in 0..n {
        rt3[u] = Fpr::of(i64::from(modp_norm(t2[u], p)));
    }
    fft::fft(rt3, logn);
    fft::div_autoadj_fft(rt3, rt2, logn);
    fft::ifft(rt3, logn);
    for u in 0..n {
        t1[u] = modp_set(rt3[u].rint() as i32, p);
    }

    // F -= k f, G -= k g.
    modp_mkgm2(t2, t3, logn, c.g, p, p0i);
    for u in 0..n {
        t4[u] = modp_set(i32::from(f[u]), p);
        t5[u] = modp_set(i32::from(g[u]), p);
    }
    ntt(t1, t2, logn, p, p0i);
    ntt(t4, t2, logn, p, p0i);
    ntt(t5, t2, logn, p, p0i);
    for u in 0..n {
        let kw = mm(t1[u], r2, c);
        fp[u] = modp_sub(fp[u], mm(kw, t4[u], c), p);
        gp[u] = modp_sub(gp[u], mm(kw, t5[u], c), p);
    }
    intt(fp, t3, logn, p, p0i);
    intt(gp, t3, logn, p, p0i);
    for u in 0..n {
        fp[u] = modp_norm(fp[u], p) as u32;
        gp[u] = modp_norm(gp[u], p) as u32;
    }
    true
}

/// Solves f G - g F = q for F (and G, internally), with |F|, |G| <= lim.
/// Returns false (keygen retries) on any failure.
/// Scratch: `tmp` >= 8n words, `ftmp` >= 3n values.
pub(crate) fn solve_ntru(
    logn: u32,
    ff_out: &mut [i8],
    f: &[i8],
    g: &[i8],
    lim: i32,
    tmp: &mut [u32],
    ftmp: &mut [Fpr],
) -> bool {
    let n = 1usize << logn;
    if !solve_deepest(logn, f, g, tmp) {
        return false;
    }
    if logn <= 2 {
        for depth in (0..logn).rev() {
            if !solve_intermediate(logn, f, g, depth, tmp, ftmp) {
                return false;
            }
        }
    } else {
        for depth in (2..logn).rev() {
            if !solve_intermediate(logn, f, g, depth, tmp, ftmp) {
                return false;
            }
        }
        if !solve_binary_depth1(logn, f, g, tmp, ftmp) {
            return false;
        }
        if !solve_binary_depth0(logn, f, g, tmp, ftmp) {
            return false;
        }
    }

    // F, G to small integers, bounded by lim.
    let mut gg = [0i8; 1024];
    let mut bad = 0u32;
    for u in 0..n {
        let zf = zint_one_to_plain(tmp[u]);
        let zg = zint_one_to_plain(tmp[n + u]);
        bad |= pqforge_core::ct::lt_mask_u32(2 * lim as u32, zf.wrapping_add(lim) as u32);
        bad |= pqforge_core::ct::lt_mask_u32(2 * lim as u32, zg.wrapping_add(lim) as u32);
        ff_out[u] = zf as i8;
        gg[u] = zg as i8;
    }

    // Check f G - g F = q modulo the first prime.
    let c = pc(0);
    let (gt, rest) = tmp.split_at_mut(n);
    let (ft, rest) = rest.split_at_mut(n);
    let (gtt, rest) = rest.split_at_mut(n);
    let (fft_, rest) = rest.split_at_mut(n);
    let (gm, rest) = rest.split_at_mut(n);
    let igm = &mut rest[..n];
    modp_mkgm2(gm, igm, logn, c.g, c.p, c.p0i);
    for u in 0..n {
        gt[u] = modp_set(i32::from(gg[u]), c.p);
        ft[u] = modp_set(i32::from(f[u]), c.p);
        gtt[u] = modp_set(i32::from(g[u]), c.p);
        fft_[u] = modp_set(i32::from(ff_out[u]), c.p);
    }
    ntt(ft, gm, logn, c.p, c.p0i);
    ntt(gtt, gm, logn, c.p, c.p0i);
    ntt(fft_, gm, logn, c.p, c.p0i);
    ntt(gt, gm, logn, c.p, c.p0i);
    let r = mm(12289, 1, c);
    for u in 0..n {
        let z = modp_sub(mm(ft[u], gt[u], c), mm(gtt[u], fft_[u], c), c.p);
        bad |= !pqforge_core::ct::eq_mask_u32(z, r);
    }
    zeroize::Zeroize::zeroize(&mut gg);
    // CT: keygen rejection bit.
    !crate::ct_util::declassify_bool(bad != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dispatched Comba coefficient (AVX2 when available) equals the
    /// portable one, including at extreme digits.
    #[test]
    fn comba_dispatch_matches_portable() {
        let mut r = pqforge_core::testing::TestRng::new(0x243F_6A88_85A3_08D3);
        for (alen, blen, olen) in [
            (1usize, 1usize, 2usize),
            (3, 7, 9),
            (13, 6, 20),
            (53, 27, 78),
        ] {
            let mut a = [0u32; 4 * 53];
            let mut b = [0u32; 4 * 53];
            for x in a.iter_mut().chain(b.iter_mut()) {
                *x = r.next_u32() & 0x7FFF_FFFF;
            }
            // Extreme digits: all ones (-1 at the top), and the most
            // negative top limb.
            a[..alen].fill(0x7FFF_FFFF);
            b[blen - 1] = 0x4000_0000;
            let (mut ad, mut bd) = ([0i32; PLAIN_DIGITS], [0i32; PLAIN_DIGITS]);
            signed_digits(&mut ad, &a, alen, 4, false);
            signed_digits(&mut bd, &b, blen, 4, true);
            let terms = [
                (0usize, 0usize, false),
                (1, 3, true),
                (3, 1, false),
                (2, 2, true),
            ];
            for nt in 1..=terms.len() {
                let mut want = [0u32; 78];
                comba_coeff_portable(&mut want[..olen], &ad, alen, &bd, blen, &terms[..nt]);
                let mut got = [0u32; 78];
                comba_sum(&mut got[..olen], olen, 1, &ad, alen, &bd, blen, |_, tb| {
                    tb[..nt].copy_from_slice(&terms[..nt]);
                    nt
                });
                assert_eq!(got, want, "alen {alen} blen {blen} nt {nt}");
            }
        }
    }

    /// field_norm_plain on n = 2: N(a + b x) = a^2 + b^2, checked against
    /// limb-by-limb products.
    #[test]
    fn field_norm_plain_n2() {
        let a = [0x1234_5678u32, 0x0765_4321, 0x3FFF_FFFF];
        let b = [0x7FFF_FFFFu32, 0x0000_0001, 0x7FFF_FFFF]; // negative
        let mut src = [0u32; 6];
        src[..3].copy_from_slice(&a);
        src[3..].copy_from_slice(&b);
        let mut dst = [0u32; 7];
        field_norm_plain(&mut dst, 7, &src, 3, 1, 1, &mut [0u32; 12]);
        // Reference: signed values in i128 (3 limbs = 93 bits: squares
        // overflow i128, so compare modulo 2^124 on the low 4 limbs).
        let val = |x: &[u32]| {
            let mut v = i128::from(((x[2] << 1) as i32) >> 1);
            v = (v << 31) + i128::from(x[1]);
            (v << 31) + i128::from(x[0])
        };
        let (va, vb) = (val(&a), val(&b));
        let s = va.wrapping_mul(va).wrapping_add(vb.wrapping_mul(vb));
        for (t, &w) in dst[..4].iter().enumerate() {
            assert_eq!(w, ((s >> (31 * t)) as u32) & 0x7FFF_FFFF, "limb {t}");
        }
    }
}
