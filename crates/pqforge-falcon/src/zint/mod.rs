//! Big integers for the NTRU solver: little-endian arrays of 31-bit limbs
//! (two's complement in the top limb's bit 30 when signed), usually many
//! of the same length side by side ([`ZView`]: integer v at `v * stride`).
//!
//! Here: small-operand arithmetic, residues modulo the solver primes (one
//! integer, several integers, a range of primes), CRT reconstruction, the
//! fused multiply-accumulate of the Babai reduction and the shifted
//! subtraction; [`bezout`] has the extended GCD of the deepest level.
//!
//! Everything here is constant time: no branch or index depends on the
//! values, only on lengths. The algorithms follow the Falcon round-3
//! reference `keygen.c`; where the schedule differs (several primes or
//! integers side by side, AVX2 kernels, fused products, paired carry
//! chains in the Bezout updates), the value computed is unique (a residue,
//! a CRT representative, a sum modulo 2^(31 len)), so the keys come out
//! identical.

mod bezout;

pub(crate) use bezout::bezout;

use crate::backend::Backend;
use crate::modp::{self, Prime};

/// `len`-limb big integers at a fixed stride: integer v is
/// `buf[v * stride .. v * stride + len]`.
#[derive(Clone, Copy)]
pub(crate) struct ZView<'a> {
    pub(crate) buf: &'a [u32],
    pub(crate) len: usize,
    pub(crate) stride: usize,
}

/// The mutable [`ZView`].
pub(crate) struct ZViewMut<'a> {
    pub(crate) buf: &'a mut [u32],
    pub(crate) len: usize,
    pub(crate) stride: usize,
}

impl<'a> ZView<'a> {
    /// Integers of `len` limbs at stride `stride`.
    #[inline(always)]
    pub(crate) fn new(buf: &'a [u32], len: usize, stride: usize) -> Self {
        ZView { buf, len, stride }
    }

    /// Integers of `len` limbs one after the other (stride `len`).
    #[inline(always)]
    pub(crate) fn packed(buf: &'a [u32], len: usize) -> Self {
        Self::new(buf, len, len)
    }

    /// Integer v.
    #[inline(always)]
    pub(crate) fn int(&self, v: usize) -> &'a [u32] {
        &self.buf[v * self.stride..v * self.stride + self.len]
    }

    /// The top `k` limbs of every integer (k <= len).
    #[inline(always)]
    pub(crate) fn top(self, k: usize) -> ZView<'a> {
        ZView::new(&self.buf[self.len - k..], k, self.stride)
    }
}

impl<'a> ZViewMut<'a> {
    /// Integers of `len` limbs at stride `stride`.
    #[inline(always)]
    pub(crate) fn new(buf: &'a mut [u32], len: usize, stride: usize) -> Self {
        ZViewMut { buf, len, stride }
    }

    /// Integers of `len` limbs one after the other (stride `len`).
    #[inline(always)]
    pub(crate) fn packed(buf: &'a mut [u32], len: usize) -> Self {
        Self::new(buf, len, len)
    }

    /// A shorter-lived copy of the view.
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> ZViewMut<'_> {
        ZViewMut::new(self.buf, self.len, self.stride)
    }

    /// Integer v.
    #[inline(always)]
    pub(crate) fn int_mut(&mut self, v: usize) -> &mut [u32] {
        &mut self.buf[v * self.stride..v * self.stride + self.len]
    }

    /// The first `count` integers and the ones after them.
    #[inline(always)]
    pub(crate) fn split_at(self, count: usize) -> (ZViewMut<'a>, ZViewMut<'a>) {
        let (a, b) = self.buf.split_at_mut(count * self.stride);
        (
            ZViewMut::new(a, self.len, self.stride),
            ZViewMut::new(b, self.len, self.stride),
        )
    }
}

/// a -= b when ctl = 1 (a unchanged when ctl = 0), over a.len() limbs;
/// returns the borrow.
pub(crate) fn sub(a: &mut [u32], b: &[u32], ctl: u32) -> u32 {
    let mut cc = 0u32;
    // CT: black_box stops LLVM from specialising the loop on ctl.
    let m = core::hint::black_box(ctl.wrapping_neg());
    for (aw, &bw) in a.iter_mut().zip(b) {
        let w = aw.wrapping_sub(bw).wrapping_sub(cc);
        cc = w >> 31;
        *aw ^= ((w & 0x7FFF_FFFF) ^ *aw) & m;
    }
    cc
}

/// m *= x (unsigned); returns the carry word.
pub(crate) fn mul_small(m: &mut [u32], x: u32) -> u32 {
    let mut cc = 0u32;
    for w in m.iter_mut() {
        let z = u64::from(*w) * u64::from(x) + u64::from(cc);
        *w = (z as u32) & 0x7FFF_FFFF;
        cc = (z >> 31) as u32;
    }
    cc
}

/// d mod p, d unsigned (`p0i`, `r2`: the constants of [`Prime`]).
pub(crate) fn mod_small_unsigned(d: &[u32], p: u32, p0i: u32, r2: u32) -> u32 {
    let mut x = 0u32;
    for &dw in d.iter().rev() {
        x = modp::montymul(x, r2, p, p0i);
        let mut w = dw.wrapping_sub(p);
        w = w.wrapping_add(p & (w >> 31).wrapping_neg());
        x = modp::add(x, w, p);
    }
    x
}

/// Per-prime constants of the residue kernels: p, -1/p mod 2^31, 2^62 mod
/// p (R^2) and 2^(31 len) mod p (the correction for a negative len-limb
/// integer).
#[derive(Clone, Copy)]
pub(crate) struct ResConst {
    pub(crate) p: u32,
    pub(crate) p0i: u32,
    pub(crate) r2: u32,
    pub(crate) rx: u32,
}

impl ResConst {
    /// Constants of `pr` for `len`-limb integers (`len` >= 1).
    pub(crate) fn of(pr: &Prime, len: usize) -> Self {
        ResConst {
            p: pr.p,
            p0i: pr.p0i,
            r2: pr.r2,
            rx: pr.rx(len),
        }
    }

    /// Constants of prime `u` for `len`-limb integers (`len` >= 1).
    pub(crate) fn new(u: usize, len: usize) -> Self {
        Self::of(&Prime::new(u), len)
    }

    /// Montgomery product.
    #[inline(always)]
    fn mm(&self, a: u32, b: u32) -> u32 {
        modp::montymul(a, b, self.p, self.p0i)
    }
}

/// d mod p, d signed (`c.rx` for d.len() limbs).
pub(crate) fn mod_small_signed(d: &[u32], c: &ResConst) -> u32 {
    if d.is_empty() {
        return 0;
    }
    let z = mod_small_unsigned(d, c.p, c.p0i, c.r2);
    modp::sub(z, c.rx & (d[d.len() - 1] >> 30).wrapping_neg(), c.p)
}

/// `put(v, src_v mod p)` for the first `count` signed integers of `src`
/// (`c` for `src.len` limbs): as [`mod_small_signed`] on each, four Horner
/// chains side by side (instruction-level parallelism; same operations,
/// same values).
pub(crate) fn mod_small_signed_all(
    src: ZView<'_>,
    count: usize,
    c: &ResConst,
    mut put: impl FnMut(usize, u32),
) {
    let (len, p) = (src.len, c.p);
    let mut v = 0;
    while v + 4 <= count && len > 0 {
        let mut xq = [0u32; 4];
        for w in (0..len).rev() {
            for (j, q) in xq.iter_mut().enumerate() {
                let dw = src.buf[(v + j) * src.stride + w];
                *q = c.mm(*q, c.r2);
                let mut t = dw.wrapping_sub(p);
                t = t.wrapping_add(p & (t >> 31).wrapping_neg());
                *q = modp::add(*q, t, p);
            }
        }
        for (j, &q) in xq.iter().enumerate() {
            let top = src.buf[(v + j) * src.stride + len - 1];
            put(v + j, modp::sub(q, c.rx & (top >> 30).wrapping_neg(), p));
        }
        v += 4;
    }
    while v < count {
        put(v, mod_small_signed(src.int(v), c));
        v += 1;
    }
}

/// Residues of the first `count` signed integers of `src` modulo the
/// primes `u0 .. u0 + dst.len`: `dst` integer v, word j, receives src_v
/// mod p_(u0 + j). The value is the one [`mod_small_signed`] returns
/// (residues are unique, so any schedule, and either backend, gives the
/// same words).
pub(crate) fn residues<B: Backend>(
    b: B,
    src: ZView<'_>,
    count: usize,
    mut dst: ZViewMut<'_>,
    u0: usize,
) {
    if src.len == 0 {
        for v in 0..count {
            dst.int_mut(v).fill(0);
        }
        return;
    }
    b.zint_residues(src, count, dst, u0);
}

/// The portable kernel of [`residues`] (`src.len` >= 1): several primes
/// run side by side on one integer, which keeps the Horner chains
/// independent even when there are only one or two integers (the deep
/// levels of the solver, where the integers have hundreds of limbs).
pub(crate) fn residues_portable(src: ZView<'_>, count: usize, dst: ZViewMut<'_>, u0: usize) {
    let len = src.len;
    let ZViewMut {
        buf: out,
        len: nu,
        stride: ostride,
    } = dst;
    let u1 = u0 + nu;
    let mut u = u0;
    while u < u1 {
        // Four primes per pass (the last pass repeats its final prime in
        // the unused slots; those results are not stored).
        let k = (u1 - u).min(4);
        let mut c = [ResConst::new(u, len); 4];
        for (j, cj) in c.iter_mut().enumerate().skip(1) {
            *cj = ResConst::new(u + j.min(k - 1), len);
        }
        for v in 0..count {
            let d = src.int(v);
            let mut x = [0u32; 4];
            for &dw in d.iter().rev() {
                for (xj, cj) in x.iter_mut().zip(&c) {
                    let p = cj.p;
                    let z = cj.mm(*xj, cj.r2);
                    let mut t = dw.wrapping_sub(p);
                    t = t.wrapping_add(p & (t >> 31).wrapping_neg());
                    *xj = modp::add(z, t, p);
                }
            }
            let neg = (d[len - 1] >> 30).wrapping_neg();
            let o = v * ostride + (u - u0);
            for j in 0..k {
                out[o + j] = modp::sub(x[j], c[j].rx & neg, c[j].p);
            }
        }
        u += k;
    }
}

/// x[..y.len()] += y * s; x[y.len()] receives the carry.
pub(crate) fn add_mul_small(x: &mut [u32], y: &[u32], s: u32) {
    let len = y.len();
    let mut cc = 0u32;
    for u in 0..len {
        let z = u64::from(y[u]) * u64::from(s) + u64::from(x[u]) + u64::from(cc);
        x[u] = (z as u32) & 0x7FFF_FFFF;
        cc = (z >> 31) as u32;
    }
    x[len] = cc;
}

/// Normalises x (unsigned, < p, p.len() limbs) into the signed range:
/// x -= p when x > p/2.
pub(crate) fn norm_zero(x: &mut [u32], p: &[u32]) {
    let len = p.len();
    // Compare x with p/2 from the top limb down.
    let mut r = 0u32;
    let mut bb = 0u32;
    for u in (0..len).rev() {
        let wx = x[u];
        let wp = (p[u] >> 1) | (bb << 30);
        bb = p[u] & 1;
        let cc = wp.wrapping_sub(wx);
        let cc = (cc.wrapping_neg() >> 31) | (cc >> 31).wrapping_neg();
        // CT: black_box keeps LLVM from turning the "first nonzero
        // difference" selection into a branch.
        r |= cc & (core::hint::black_box(r) & 1).wrapping_sub(1);
    }
    sub(&mut x[..len], p, r >> 31);
}

/// CRT reconstruction of the first `count` integers of `xx`, each given
/// by its residues modulo the first `xx.len` primes (in place), then, if
/// `signed`, normalised into the signed range. `tmp` receives the product
/// of the primes (`xx.len` words).
pub(crate) fn rebuild_crt<B: Backend>(
    b: B,
    mut xx: ZViewMut<'_>,
    count: usize,
    signed: bool,
    tmp: &mut [u32],
) {
    b.zint_rebuild_crt(xx.reborrow(), count, tmp);
    if signed {
        let len = xx.len;
        for v in 0..count {
            norm_zero(xx.int_mut(v), &tmp[..len]);
        }
    }
}

/// The portable kernel of [`rebuild_crt`] (without the signed
/// normalisation): Garner steps x += p_0..p_{u-1} ((x_u - x mod p_u) /
/// (p_0..p_{u-1}) mod p_u). Inlined into the wrapper (one frame on the
/// Cortex-M4 keygen stack).
#[inline(always)]
pub(crate) fn rebuild_crt_portable(xx: ZViewMut<'_>, count: usize, tmp: &mut [u32]) {
    let ZViewMut {
        buf: xx,
        len: xlen,
        stride: xstride,
    } = xx;
    tmp[0] = Prime::new(0).p;
    for u in 1..xlen {
        let pr = Prime::new(u);
        let (p, s) = (pr.p, pr.s);
        // Four integers at a time: their residues are independent chains,
        // computed side by side for instruction-level parallelism (same
        // operations as one at a time).
        debug_assert!(xstride >= xlen);
        let mut v = 0;
        while v + 4 <= count {
            let mut xq = [0u32; 4];
            for w in (0..u).rev() {
                for (j, q) in xq.iter_mut().enumerate() {
                    let dw = xx[(v + j) * xstride + w];
                    *q = pr.mm(*q, pr.r2);
                    let mut t = dw.wrapping_sub(p);
                    t = t.wrapping_add(p & (t >> 31).wrapping_neg());
                    *q = modp::add(*q, t, p);
                }
            }
            let mut xr = [0u32; 4];
            for j in 0..4 {
                let xp = xx[(v + j) * xstride + u];
                xr[j] = pr.mm(s, modp::sub(xp, xq[j], p));
            }
            // add_mul_small on the four integers, carries side by side.
            let mut cc = [0u32; 4];
            for (w, &tw) in tmp[..u].iter().enumerate() {
                for j in 0..4 {
                    let o = (v + j) * xstride + w;
                    let z = u64::from(tw) * u64::from(xr[j]) + u64::from(xx[o]) + u64::from(cc[j]);
                    xx[o] = (z as u32) & 0x7FFF_FFFF;
                    cc[j] = (z >> 31) as u32;
                }
            }
            for j in 0..4 {
                xx[(v + j) * xstride + u] = cc[j];
            }
            v += 4;
        }
        while v < count {
            let x = &mut xx[v * xstride..];
            let xp = x[u];
            let xq = mod_small_unsigned(&x[..u], p, pr.p0i, pr.r2);
            let xr = pr.mm(s, modp::sub(xp, xq, p));
            add_mul_small(x, &tmp[..u], xr);
            v += 1;
        }
        tmp[u] = mul_small(&mut tmp[..u], p);
    }
}

/// x += sum_v c[v] * y_v modulo 2^(31 x.len()), where y_v is the
/// `x.len()`-limb integer `ys[v * x.len() ..][.. x.len()]` (31-bit limbs;
/// the caller has already shifted and sign-extended it) and |c[v]| < 2^31:
/// the portable kernel of [`Backend::zint_add_mul_fused`].
///
/// The products of one limb position are summed before the carry moves on:
/// each 62-bit signed product is split into its low 31 bits and the rest,
/// and both parts are summed in i64 (at most `c.len()` * 2^31 in absolute
/// value, no overflow for fewer than 2^31 terms). Modular sums do not
/// depend on their order, so the result is the same as adding the c[v]
/// y_v one at a time (the reference's `zint_add_scaled_mul_small`).
pub(crate) fn add_mul_fused(x: &mut [u32], ys: &[u32], c: &[i64]) {
    let tl = x.len();
    let mut cc = 0i64;
    for (t, xt) in x.iter_mut().enumerate() {
        let mut lo = i64::from(*xt) + cc;
        let mut hi = 0i64;
        for (v, &cv) in c.iter().enumerate() {
            let pr = cv * i64::from(ys[v * tl + t]);
            lo += pr & 0x7FFF_FFFF;
            hi += pr >> 31;
        }
        *xt = (lo as u32) & 0x7FFF_FFFF;
        cc = (lo >> 31) + hi;
    }
}

/// x -= y * 2^(31 sch + scl) over x[..xlen] (y signed, sign-extended).
pub(crate) fn sub_scaled(x: &mut [u32], y: &[u32], sch: usize, scl: u32) {
    let ylen = y.len();
    if ylen == 0 {
        return;
    }
    let ysign = (y[ylen - 1] >> 30).wrapping_neg() >> 1;
    let mut tw = 0u32;
    let mut cc = 0u32;
    for u in sch..x.len() {
        let v = u - sch;
        let wy = if v < ylen { y[v] } else { ysign };
        let wys = ((wy << scl) & 0x7FFF_FFFF) | tw;
        tw = wy >> (31 - scl);
        let w = x[u].wrapping_sub(wys).wrapping_sub(cc);
        x[u] = w & 0x7FFF_FFFF;
        cc = w >> 31;
    }
}

/// One-limb signed big integer to a plain i32.
#[inline(always)]
pub(crate) fn one_to_plain(x: u32) -> i32 {
    (x | ((x & 0x4000_0000) << 1)) as i32
}

#[cfg(test)]
pub(crate) mod tests {
    use pqforge_core::testing::TestRng;

    use super::*;

    /// Random 31-bit words.
    pub(crate) fn words(r: &mut TestRng, out: &mut [u32]) {
        for x in out {
            *x = r.next_u32() & 0x7FFF_FFFF;
        }
    }

    /// The four-way residues equal the one-at-a-time ones.
    #[test]
    fn mod_small_signed_all_matches() {
        let mut src = [0u32; 7 * 5];
        words(&mut TestRng::new(0x9E37_79B9_7F4A_7C15), &mut src);
        for len in 1..=5usize {
            let c = ResConst::new(3, len);
            let mut out = [0u32; 7];
            mod_small_signed_all(ZView::new(&src, len, 5), 7, &c, |v, x| out[v] = x);
            for v in 0..7 {
                assert_eq!(out[v], mod_small_signed(&src[v * 5..v * 5 + len], &c));
            }
        }
    }

    /// Residues over a prime range equal the one-prime-at-a-time ones
    /// (portable kernel; `tests/backends.rs` compares AVX2 with it).
    #[test]
    fn residues_match_one_at_a_time() {
        let mut rng = TestRng::new(0x1234_5678_9ABC_DEF1);
        let mut src = [0u32; 3 * 40];
        words(&mut rng, &mut src);
        for (len, u0, u1) in [
            (1usize, 0usize, 3usize),
            (7, 2, 21),
            (40, 5, 40),
            (13, 0, 17),
        ] {
            let mut dst = [0u32; 3 * 40];
            let w = u1 - u0;
            residues_portable(
                ZView::new(&src, len, 40),
                3,
                ZViewMut::new(&mut dst, w, w),
                u0,
            );
            for v in 0..3 {
                for u in u0..u1 {
                    let c = ResConst::new(u, len);
                    let d = &src[v * 40..v * 40 + len];
                    assert_eq!(dst[v * w + u - u0], mod_small_signed(d, &c));
                }
            }
        }
    }

    /// Fused multiply-accumulate equals one product at a time.
    #[test]
    fn add_mul_fused_matches() {
        let mut rng = TestRng::new(0x0F0F_1234_5555_AAAA);
        for (nv, tl) in [(1usize, 1usize), (2, 9), (5, 16), (32, 23)] {
            let mut ys = [0u32; 32 * 23];
            words(&mut rng, &mut ys[..nv * tl]);
            let mut x = [0u32; 23];
            words(&mut rng, &mut x[..tl]);
            let mut c = [0i64; 32];
            let mut cw = [0u32; 32];
            words(&mut rng, &mut cw);
            // Coefficients spread over -(2^31 - 1) ..= 2^31 - 1.
            for (cv, &w) in c.iter_mut().zip(&cw) {
                *cv = 2 * i64::from(w) - (1i64 << 31) + 1;
            }
            c[0] = (1i64 << 31) - 1;
            if nv > 1 {
                c[1] = -(1i64 << 31) + 1;
            }
            let mut want = x;
            for v in 0..nv {
                // x += c y, one product, 31-bit limbs, modulo 2^(31 tl).
                let mut cc = 0i64;
                for t in 0..tl {
                    let z = c[v] * i64::from(ys[v * tl + t]) + i64::from(want[t]) + cc;
                    want[t] = (z as u32) & 0x7FFF_FFFF;
                    cc = z >> 31;
                }
            }
            add_mul_fused(&mut x[..tl], &ys[..nv * tl], &c[..nv]);
            assert_eq!(x[..tl], want[..tl], "nv {nv} tl {tl}");
        }
    }

    /// CRT reconstruction gives back integers whose residues are the
    /// inputs.
    #[test]
    fn rebuild_crt_inverts_residues() {
        let mut rng = TestRng::new(0xDEAD_BEEF_0123_4567);
        for (xlen, num) in [(1usize, 3usize), (2, 4), (9, 5), (30, 8), (17, 2)] {
            let mut a = [0u32; 8 * 31];
            words(&mut rng, &mut a);
            for v in 0..num {
                for u in 0..xlen {
                    a[v * 31 + u] %= Prime::new(u).p;
                }
            }
            let mut b = a;
            let mut t = [0u32; 31];
            rebuild_crt(
                crate::backend::Portable,
                ZViewMut::new(&mut b, xlen, 31),
                num,
                true,
                &mut t,
            );
            for v in 0..num {
                for u in 0..xlen {
                    let c = ResConst::new(u, xlen);
                    assert_eq!(
                        mod_small_signed(&b[v * 31..v * 31 + xlen], &c),
                        a[v * 31 + u]
                    );
                }
            }
        }
    }
}
