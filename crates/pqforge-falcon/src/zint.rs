//! Arithmetic for the NTRU solver: 31-bit small primes (Montgomery, R =
//! 2^31), NTT modulo those primes, and big integers stored as little-endian
//! arrays of 31-bit limbs (two's complement in the top limb's bit 30).
//!
//! Everything here is constant time: no branch or index depends on the
//! values, only on lengths. The algorithms follow the Falcon round-3
//! reference `keygen.c`; where the schedule differs (several primes or
//! integers side by side, AVX2 kernels in `zint_avx2` and `ntt_avx2`, fused
//! products, paired carry chains in the Bezout updates),
//! the value computed is unique (a residue, a CRT representative, a sum
//! modulo 2^(31 len)), so the keys come out identical.

use crate::tables::{PRIMES, SmallPrime};

/// The i-th solver prime.
#[inline(always)]
pub(crate) fn prime(i: usize) -> SmallPrime {
    PRIMES[i]
}

/// Bit-reversal of a 10-bit index.
#[inline(always)]
pub(crate) fn rev10(x: usize) -> usize {
    ((x as u32).reverse_bits() >> 22) as usize
}

/// x (signed, |x| < p) as a value mod p.
#[inline(always)]
pub(crate) fn modp_set(x: i32, p: u32) -> u32 {
    let w = x as u32;
    w.wrapping_add(p & (w >> 31).wrapping_neg())
}

/// Normalises x mod p into the signed range (-p/2, p/2].
#[inline(always)]
pub(crate) fn modp_norm(x: u32, p: u32) -> i32 {
    let m = (x.wrapping_sub((p + 1) >> 1) >> 31).wrapping_sub(1);
    x.wrapping_sub(p & m) as i32
}

/// -1/p mod 2^31.
pub(crate) fn modp_ninv31(p: u32) -> u32 {
    let mut y = 2u32.wrapping_sub(p);
    for _ in 0..4 {
        y = y.wrapping_mul(2u32.wrapping_sub(p.wrapping_mul(y)));
    }
    0x7FFF_FFFF & y.wrapping_neg()
}

/// R = 2^31 mod p.
#[inline(always)]
pub(crate) fn modp_r(p: u32) -> u32 {
    (1u32 << 31) - p
}

#[inline(always)]
pub(crate) fn modp_add(a: u32, b: u32, p: u32) -> u32 {
    let d = a.wrapping_add(b).wrapping_sub(p);
    d.wrapping_add(p & (d >> 31).wrapping_neg())
}

#[inline(always)]
pub(crate) fn modp_sub(a: u32, b: u32, p: u32) -> u32 {
    let d = a.wrapping_sub(b);
    d.wrapping_add(p & (d >> 31).wrapping_neg())
}

/// a * b / 2^31 mod p.
#[inline(always)]
pub(crate) fn modp_montymul(a: u32, b: u32, p: u32, p0i: u32) -> u32 {
    let z = u64::from(a) * u64::from(b);
    let w = ((z.wrapping_mul(u64::from(p0i))) & 0x7FFF_FFFF) * u64::from(p);
    let d = ((z + w) >> 31) as u32;
    let d = d.wrapping_sub(p);
    d.wrapping_add(p & (d >> 31).wrapping_neg())
}

/// 2^62 mod p (R^2 in Montgomery representation).
pub(crate) fn modp_r2(p: u32, p0i: u32) -> u32 {
    let mut z = modp_r(p);
    z = modp_add(z, z, p);
    for _ in 0..5 {
        z = modp_montymul(z, z, p, p0i);
    }
    (z + (p & (z & 1).wrapping_neg())) >> 1
}

/// 2^(31 x) mod p (Montgomery representation of 2^(31 (x-1))); x public.
pub(crate) fn modp_rx(x: u32, p: u32, p0i: u32, r2: u32) -> u32 {
    let x = x - 1;
    let mut r = r2;
    let mut z = modp_r(p);
    let mut i = 0;
    while (1u32 << i) <= x {
        if (x & (1u32 << i)) != 0 {
            z = modp_montymul(z, r, p, p0i);
        }
        r = modp_montymul(r, r, p, p0i);
        i += 1;
    }
    z
}

/// a / b mod p (b != 0), by exponentiation to p - 2. `r` = 2^31 mod p.
#[cfg(test)]
pub(crate) fn modp_div(a: u32, b: u32, p: u32, p0i: u32, r: u32) -> u32 {
    let e = p - 2;
    let mut z = r;
    for i in (0..=30).rev() {
        z = modp_montymul(z, z, p, p0i);
        let z2 = modp_montymul(z, b, p, p0i);
        z ^= (z ^ z2) & ((e >> i) & 1).wrapping_neg();
    }
    z = modp_montymul(z, 1, p, p0i);
    modp_montymul(a, z, p, p0i)
}

/// The inverse of a 2^(logn+1)-th root of unity `g` (Montgomery form in
/// and out): g^(2^(logn+1) - 1) = g * g^2 * g^4 * ... * g^(2^logn), 2 logn
/// products instead of the 62 of [`modp_div`]; the same (fully reduced)
/// value.
fn modp_inv_root(g: u32, logn: u32, p: u32, p0i: u32) -> u32 {
    let mut acc = g;
    let mut sq = g;
    for _ in 0..logn {
        sq = modp_montymul(sq, sq, p, p0i);
        acc = modp_montymul(acc, sq, p, p0i);
    }
    acc
}

/// Twiddle tables for the NTT of size 2^logn mod p, bit-reversed order,
/// Montgomery representation: gm (forward) and igm (inverse).
pub(crate) fn modp_mkgm2(gm: &mut [u32], igm: &mut [u32], logn: u32, g: u32, p: u32, p0i: u32) {
    let n = 1usize << logn;
    let r2 = modp_r2(p, p0i);
    let mut g = modp_montymul(g, r2, p, p0i);
    for _ in logn..10 {
        g = modp_montymul(g, g, p, p0i);
    }
    let ig = modp_inv_root(g, logn, p, p0i);
    let k = 10 - logn;
    if n < 4 {
        let mut x1 = modp_r(p);
        let mut x2 = x1;
        for u in 0..n {
            let v = rev10(u << k);
            gm[v] = x1;
            igm[v] = x2;
            x1 = modp_montymul(x1, g, p, p0i);
            x2 = modp_montymul(x2, ig, p, p0i);
        }
        return;
    }
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::ntt_avx2::try_mkgm2_powers(gm, igm, logn, g, ig, p, p0i) {
        return;
    }
    // Powers g^u and ig^u by four interleaved chains (steps g^4, ig^4):
    // Montgomery products are fully reduced, so the tables are the same as
    // with one chain, only with four times less dependency latency.
    let mut x1 = [modp_r(p); 4];
    let mut x2 = [modp_r(p); 4];
    for j in 1..4 {
        x1[j] = modp_montymul(x1[j - 1], g, p, p0i);
        x2[j] = modp_montymul(x2[j - 1], ig, p, p0i);
    }
    let g2 = modp_montymul(g, g, p, p0i);
    let g4 = modp_montymul(g2, g2, p, p0i);
    let ig2 = modp_montymul(ig, ig, p, p0i);
    let ig4 = modp_montymul(ig2, ig2, p, p0i);
    for u in (0..n).step_by(4) {
        for j in 0..4 {
            let v = rev10((u + j) << k);
            gm[v] = x1[j];
            igm[v] = x2[j];
            x1[j] = modp_montymul(x1[j], g4, p, p0i);
            x2[j] = modp_montymul(x2[j], ig4, p, p0i);
        }
    }
}

/// Forward NTT of the values a[off + k*stride], k < 2^logn.
pub(crate) fn ntt_ext(
    a: &mut [u32],
    off: usize,
    stride: usize,
    gm: &[u32],
    logn: u32,
    p: u32,
    p0i: u32,
) {
    if logn == 0 {
        return;
    }
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::ntt_avx2::try_ntt_ext(a, off, stride, gm, logn, p, p0i, false) {
        return;
    }
    let n = 1usize << logn;
    let mut t = n;
    let mut m = 1;
    while m < n {
        let ht = t >> 1;
        let mut v1 = 0;
        for u in 0..m {
            let s = gm[m + u];
            let mut r1 = off + v1 * stride;
            let mut r2 = r1 + ht * stride;
            for _ in 0..ht {
                let x = a[r1];
                let y = modp_montymul(a[r2], s, p, p0i);
                a[r1] = modp_add(x, y, p);
                a[r2] = modp_sub(x, y, p);
                r1 += stride;
                r2 += stride;
            }
            v1 += t;
        }
        t = ht;
        m <<= 1;
    }
}

/// Inverse NTT of the values a[off + k*stride], k < 2^logn (with the 1/n
/// scaling).
pub(crate) fn intt_ext(
    a: &mut [u32],
    off: usize,
    stride: usize,
    igm: &[u32],
    logn: u32,
    p: u32,
    p0i: u32,
) {
    if logn == 0 {
        return;
    }
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::ntt_avx2::try_ntt_ext(a, off, stride, igm, logn, p, p0i, true) {
        return;
    }
    let n = 1usize << logn;
    let mut t = 1;
    let mut m = n;
    while m > 1 {
        let hm = m >> 1;
        let dt = t << 1;
        let mut v1 = 0;
        for u in 0..hm {
            let s = igm[hm + u];
            let mut r1 = off + v1 * stride;
            let mut r2 = r1 + t * stride;
            for _ in 0..t {
                let x = a[r1];
                let y = a[r2];
                a[r1] = modp_add(x, y, p);
                a[r2] = modp_montymul(modp_sub(x, y, p), s, p, p0i);
                r1 += stride;
                r2 += stride;
            }
            v1 += dt;
        }
        t = dt;
        m = hm;
    }
    let ni = 1u32 << (31 - logn);
    let mut r = off;
    for _ in 0..n {
        a[r] = modp_montymul(a[r], ni, p, p0i);
        r += stride;
    }
}

/// Contiguous forward NTT.
#[inline]
pub(crate) fn ntt(a: &mut [u32], gm: &[u32], logn: u32, p: u32, p0i: u32) {
    ntt_ext(a, 0, 1, gm, logn, p, p0i);
}

/// Contiguous inverse NTT.
#[inline]
pub(crate) fn intt(a: &mut [u32], igm: &[u32], logn: u32, p: u32, p0i: u32) {
    intt_ext(a, 0, 1, igm, logn, p, p0i);
}

/// NTT representation of f(x) of degree < 2^logn to that of N(f)(x^2) =
/// f(x) f(-x) of half size (in place, first half).
pub(crate) fn modp_poly_rec_res(f: &mut [u32], logn: u32, p: u32, p0i: u32, r2: u32) {
    let hn = 1usize << (logn - 1);
    for u in 0..hn {
        let w0 = f[u << 1];
        let w1 = f[(u << 1) + 1];
        f[u] = modp_montymul(modp_montymul(w0, w1, p, p0i), r2, p, p0i);
    }
}

/// a -= b when ctl = 1 (a unchanged when ctl = 0); returns the borrow.
pub(crate) fn zint_sub(a: &mut [u32], b: &[u32], len: usize, ctl: u32) -> u32 {
    let mut cc = 0u32;
    // CT: black_box stops LLVM from specialising the loop on ctl.
    let m = core::hint::black_box(ctl.wrapping_neg());
    for u in 0..len {
        let aw = a[u];
        let w = aw.wrapping_sub(b[u]).wrapping_sub(cc);
        cc = w >> 31;
        a[u] = aw ^ (((w & 0x7FFF_FFFF) ^ aw) & m);
    }
    cc
}

/// m *= x (unsigned); returns the carry word.
pub(crate) fn zint_mul_small(m: &mut [u32], x: u32) -> u32 {
    let mut cc = 0u32;
    for w in m.iter_mut() {
        let z = u64::from(*w) * u64::from(x) + u64::from(cc);
        *w = (z as u32) & 0x7FFF_FFFF;
        cc = (z >> 31) as u32;
    }
    cc
}

/// d mod p, d unsigned.
pub(crate) fn zint_mod_small_unsigned(d: &[u32], p: u32, p0i: u32, r2: u32) -> u32 {
    let mut x = 0u32;
    for &dw in d.iter().rev() {
        x = modp_montymul(x, r2, p, p0i);
        let mut w = dw.wrapping_sub(p);
        w = w.wrapping_add(p & (w >> 31).wrapping_neg());
        x = modp_add(x, w, p);
    }
    x
}

/// d mod p, d signed; `rx` = 2^(31 len) mod p.
pub(crate) fn zint_mod_small_signed(d: &[u32], p: u32, p0i: u32, r2: u32, rx: u32) -> u32 {
    if d.is_empty() {
        return 0;
    }
    let z = zint_mod_small_unsigned(d, p, p0i, r2);
    modp_sub(z, rx & (d[d.len() - 1] >> 30).wrapping_neg(), p)
}

/// `put(v, d_v mod p)` for the `count` signed integers
/// d_v = src[v * stride .. v * stride + len]: as [`zint_mod_small_signed`]
/// on each, four Horner chains side by side (instruction-level
/// parallelism; same operations, same values).
#[allow(clippy::too_many_arguments)]
pub(crate) fn zint_mod_small_signed_all(
    src: &[u32],
    stride: usize,
    len: usize,
    count: usize,
    p: u32,
    p0i: u32,
    r2: u32,
    rx: u32,
    mut put: impl FnMut(usize, u32),
) {
    let mut v = 0;
    while v + 4 <= count && len > 0 {
        let mut xq = [0u32; 4];
        for w in (0..len).rev() {
            for (j, q) in xq.iter_mut().enumerate() {
                let dw = src[(v + j) * stride + w];
                *q = modp_montymul(*q, r2, p, p0i);
                let mut t = dw.wrapping_sub(p);
                t = t.wrapping_add(p & (t >> 31).wrapping_neg());
                *q = modp_add(*q, t, p);
            }
        }
        for (j, &q) in xq.iter().enumerate() {
            let top = src[(v + j) * stride + len - 1];
            put(v + j, modp_sub(q, rx & (top >> 30).wrapping_neg(), p));
        }
        v += 4;
    }
    while v < count {
        put(
            v,
            zint_mod_small_signed(&src[v * stride..v * stride + len], p, p0i, r2, rx),
        );
        v += 1;
    }
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
    /// Constants of prime `u` for `len`-limb integers (`len` >= 1).
    pub(crate) fn new(u: usize, len: usize) -> Self {
        let p = prime(u).p;
        let p0i = modp_ninv31(p);
        let r2 = modp_r2(p, p0i);
        let rx = modp_rx(len as u32, p, p0i, r2);
        ResConst { p, p0i, r2, rx }
    }
}

/// Residues of `count` signed big integers modulo a range of primes:
/// `dst[v * dstride + (u - u0)] = src_v mod p_u` for `u0 <= u < u1`, where
/// `src_v = src[v * sstride .. v * sstride + len]`. The value is the one
/// [`zint_mod_small_signed`] returns (residues are unique, so any schedule
/// gives the same words); here several primes run side by side on one
/// integer, which keeps the Horner chains independent even when there are
/// only one or two integers (the deep levels of the solver, where the
/// integers have hundreds of limbs).
#[allow(clippy::too_many_arguments)]
pub(crate) fn zint_mod_small_signed_rns(
    src: &[u32],
    sstride: usize,
    len: usize,
    count: usize,
    dst: &mut [u32],
    dstride: usize,
    u0: usize,
    u1: usize,
) {
    if len == 0 {
        for v in 0..count {
            dst[v * dstride..v * dstride + (u1 - u0)].fill(0);
        }
        return;
    }
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::zint_avx2::try_mod_small_signed_rns(src, sstride, len, count, dst, dstride, u0, u1) {
        return;
    }
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
            let d = &src[v * sstride..v * sstride + len];
            let mut x = [0u32; 4];
            for &dw in d.iter().rev() {
                for (xj, cj) in x.iter_mut().zip(&c) {
                    let z = modp_montymul(*xj, cj.r2, cj.p, cj.p0i);
                    let mut t = dw.wrapping_sub(cj.p);
                    t = t.wrapping_add(cj.p & (t >> 31).wrapping_neg());
                    *xj = modp_add(z, t, cj.p);
                }
            }
            let neg = (d[len - 1] >> 30).wrapping_neg();
            let o = v * dstride + (u - u0);
            for j in 0..k {
                dst[o + j] = modp_sub(x[j], c[j].rx & neg, c[j].p);
            }
        }
        u += k;
    }
}

/// x[..len] += y[..len] * s; x[len] receives the carry.
pub(crate) fn zint_add_mul_small(x: &mut [u32], y: &[u32], len: usize, s: u32) {
    let mut cc = 0u32;
    for u in 0..len {
        let z = u64::from(y[u]) * u64::from(s) + u64::from(x[u]) + u64::from(cc);
        x[u] = (z as u32) & 0x7FFF_FFFF;
        cc = (z >> 31) as u32;
    }
    x[len] = cc;
}

/// Normalises x (unsigned, < p) into the signed range: x -= p when x > p/2.
pub(crate) fn zint_norm_zero(x: &mut [u32], p: &[u32], len: usize) {
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
    zint_sub(x, p, len, r >> 31);
}

/// CRT reconstruction of `num` big integers stored with stride `xstride`,
/// each given by its residues modulo the first `xlen` primes (in place).
/// `tmp` receives the product of the primes (`xlen` words).
pub(crate) fn zint_rebuild_crt(
    xx: &mut [u32],
    xlen: usize,
    xstride: usize,
    num: usize,
    normalize_signed: bool,
    tmp: &mut [u32],
) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    let done = crate::zint_avx2::try_rebuild_crt(xx, xlen, xstride, num, tmp);
    #[cfg(not(all(target_arch = "x86_64", not(pqforge_backend = "portable"))))]
    let done = false;
    if !done {
        rebuild_crt_portable(xx, xlen, xstride, num, tmp);
    }
    if normalize_signed {
        for v in 0..num {
            zint_norm_zero(&mut xx[v * xstride..], tmp, xlen);
        }
    }
}

/// Portable body of [`zint_rebuild_crt`] (without the signed
/// normalisation).
fn rebuild_crt_portable(xx: &mut [u32], xlen: usize, xstride: usize, num: usize, tmp: &mut [u32]) {
    tmp[0] = prime(0).p;
    for u in 1..xlen {
        let pr = prime(u);
        let (p, s) = (pr.p, pr.s);
        let p0i = modp_ninv31(p);
        let r2 = modp_r2(p, p0i);
        // Four integers at a time: their residues are independent chains,
        // computed side by side for instruction-level parallelism (same
        // operations as one at a time).
        debug_assert!(xstride >= xlen);
        let mut v = 0;
        while v + 4 <= num {
            let mut xq = [0u32; 4];
            for w in (0..u).rev() {
                for (j, q) in xq.iter_mut().enumerate() {
                    let dw = xx[(v + j) * xstride + w];
                    *q = modp_montymul(*q, r2, p, p0i);
                    let mut t = dw.wrapping_sub(p);
                    t = t.wrapping_add(p & (t >> 31).wrapping_neg());
                    *q = modp_add(*q, t, p);
                }
            }
            let mut xr = [0u32; 4];
            for j in 0..4 {
                let xp = xx[(v + j) * xstride + u];
                xr[j] = modp_montymul(s, modp_sub(xp, xq[j], p), p, p0i);
            }
            // zint_add_mul_small on the four integers, carries side by side.
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
        while v < num {
            let x = &mut xx[v * xstride..];
            let xp = x[u];
            let xq = zint_mod_small_unsigned(&x[..u], p, p0i, r2);
            let xr = modp_montymul(s, modp_sub(xp, xq, p), p, p0i);
            zint_add_mul_small(x, tmp, u, xr);
            v += 1;
        }
        tmp[u] = zint_mul_small(&mut tmp[..u], p);
    }
}

/// a = -a when ctl = 1 (two's complement over 31-bit limbs).
fn zint_negate(a: &mut [u32], ctl: u32) {
    let mut cc = ctl;
    let m = ctl.wrapping_neg() >> 1;
    for w in a.iter_mut() {
        let aw = (*w ^ m).wrapping_add(cc);
        *w = aw & 0x7FFF_FFFF;
        cc = aw >> 31;
    }
}

/// (a, b) <- ((a xa + b xb) / 2^31, (a ya + b yb) / 2^31), made
/// nonnegative; returns bit 0: a was negated, bit 1: b was negated.
fn zint_co_reduce(
    a: &mut [u32],
    b: &mut [u32],
    len: usize,
    xa: i64,
    xb: i64,
    ya: i64,
    yb: i64,
) -> u32 {
    let mut cca = 0i64;
    let mut ccb = 0i64;
    for u in 0..len {
        let wa = u64::from(a[u]);
        let wb = u64::from(b[u]);
        let za = wa
            .wrapping_mul(xa as u64)
            .wrapping_add(wb.wrapping_mul(xb as u64))
            .wrapping_add(cca as u64);
        let zb = wa
            .wrapping_mul(ya as u64)
            .wrapping_add(wb.wrapping_mul(yb as u64))
            .wrapping_add(ccb as u64);
        if u > 0 {
            a[u - 1] = (za as u32) & 0x7FFF_FFFF;
            b[u - 1] = (zb as u32) & 0x7FFF_FFFF;
        }
        cca = (za as i64) >> 31;
        ccb = (zb as i64) >> 31;
    }
    a[len - 1] = cca as u32;
    b[len - 1] = ccb as u32;
    let nega = ((cca as u64) >> 63) as u32;
    let negb = ((ccb as u64) >> 63) as u32;
    zint_negate(&mut a[..len], nega);
    zint_negate(&mut b[..len], negb);
    nega | (negb << 1)
}

/// (a, b) <- ((a xa + b xb) / 2^31 mod m, (a ya + b yb) / 2^31 mod m),
/// Montgomery-style (m odd, m0i = -1/m mod 2^31).
#[allow(clippy::too_many_arguments)]
fn zint_co_reduce_mod(
    a: &mut [u32],
    b: &mut [u32],
    m: &[u32],
    len: usize,
    m0i: u32,
    xa: i64,
    xb: i64,
    ya: i64,
    yb: i64,
) {
    let mut cca = 0i64;
    let mut ccb = 0i64;
    let fa = (a[0]
        .wrapping_mul(xa as u32)
        .wrapping_add(b[0].wrapping_mul(xb as u32)))
    .wrapping_mul(m0i)
        & 0x7FFF_FFFF;
    let fb = (a[0]
        .wrapping_mul(ya as u32)
        .wrapping_add(b[0].wrapping_mul(yb as u32)))
    .wrapping_mul(m0i)
        & 0x7FFF_FFFF;
    for u in 0..len {
        let wa = u64::from(a[u]);
        let wb = u64::from(b[u]);
        let mu = u64::from(m[u]);
        let za = wa
            .wrapping_mul(xa as u64)
            .wrapping_add(wb.wrapping_mul(xb as u64))
            .wrapping_add(mu.wrapping_mul(u64::from(fa)))
            .wrapping_add(cca as u64);
        let zb = wa
            .wrapping_mul(ya as u64)
            .wrapping_add(wb.wrapping_mul(yb as u64))
            .wrapping_add(mu.wrapping_mul(u64::from(fb)))
            .wrapping_add(ccb as u64);
        if u > 0 {
            a[u - 1] = (za as u32) & 0x7FFF_FFFF;
            b[u - 1] = (zb as u32) & 0x7FFF_FFFF;
        }
        cca = (za as i64) >> 31;
        ccb = (zb as i64) >> 31;
    }
    a[len - 1] = cca as u32;
    b[len - 1] = ccb as u32;
    zint_finish_mod2(
        a,
        b,
        len,
        m,
        ((cca as u64) >> 63) as u32,
        ((ccb as u64) >> 63) as u32,
    );
}

/// Finishes two modular reductions: a, b in -m..2m (nega / negb = 1: the
/// value is negative) to 0..m. The borrow chains of a and b are
/// independent, so they are interleaved in one loop to hide their latency
/// (the same words as reducing them one after the other).
fn zint_finish_mod2(a: &mut [u32], b: &mut [u32], len: usize, m: &[u32], nega: u32, negb: u32) {
    let (a, b, m) = (&mut a[..len], &mut b[..len], &m[..len]);
    let mut ca = 0u32;
    let mut cb = 0u32;
    for u in 0..len {
        ca = a[u].wrapping_sub(m[u]).wrapping_sub(ca) >> 31;
        cb = b[u].wrapping_sub(m[u]).wrapping_sub(cb) >> 31;
    }
    let xa = nega.wrapping_neg() >> 1;
    let ya = (nega | (1 - ca)).wrapping_neg();
    let xb = negb.wrapping_neg() >> 1;
    let yb = (negb | (1 - cb)).wrapping_neg();
    ca = nega;
    cb = negb;
    for u in 0..len {
        let aw = a[u].wrapping_sub((m[u] ^ xa) & ya).wrapping_sub(ca);
        a[u] = aw & 0x7FFF_FFFF;
        ca = aw >> 31;
        let bw = b[u].wrapping_sub((m[u] ^ xb) & yb).wrapping_sub(cb);
        b[u] = bw & 0x7FFF_FFFF;
        cb = bw >> 31;
    }
}

/// Binary extended GCD (constant time, Pornin's optimised variant): for odd
/// x, y (len limbs), finds u, v with x u - y v = 1, 0 <= u <= y, 0 <= v <= x.
/// Returns false if GCD(x, y) != 1 or x, y is even. `tmp`: 4 len words.
///
/// Only u is carried through the GCD iterations (the reference updates v
/// alongside, modulo x); v is recovered at the end as (x u - 1) / y, an
/// exact division computed modulo 2^(31 len) (v < x fits in len limbs).
/// When the GCD is 1, u and v are unique, so the words are those of the
/// reference; otherwise the key is rejected and v is not used.
pub(crate) fn zint_bezout(
    u: &mut [u32],
    v: &mut [u32],
    x: &[u32],
    y: &[u32],
    len: usize,
    tmp: &mut [u32],
) -> bool {
    if len == 0 {
        return false;
    }
    let (u1, rest) = tmp.split_at_mut(len);
    let (v1, rest) = rest.split_at_mut(len);
    let (a, rest) = rest.split_at_mut(len);
    let b = &mut rest[..len];
    let (u0, v0) = (&mut u[..len], &mut v[..len]);

    let y0i = modp_ninv31(y[0]);
    a.copy_from_slice(&x[..len]);
    b.copy_from_slice(&y[..len]);
    u0.fill(0);
    u0[0] = 1;
    u1.copy_from_slice(&y[..len]);

    // Each outer step performs 31 inner iterations; 62 len + 30 bits in
    // total suffice.
    let mut num = 62 * len as u32 + 30;
    while num >= 30 {
        // Top 33 bits of a and b (word-aligned on the larger of the two),
        // plus their low 31 bits.
        let mut c0 = u32::MAX;
        let mut c1 = u32::MAX;
        let (mut a0, mut a1, mut b0, mut b1) = (0u32, 0u32, 0u32, 0u32);
        for j in (0..len).rev() {
            let aw = a[j];
            let bw = b[j];
            a0 ^= (a0 ^ aw) & c0;
            a1 ^= (a1 ^ aw) & c1;
            b0 ^= (b0 ^ bw) & c0;
            b1 ^= (b1 ^ bw) & c1;
            c1 = c0;
            c0 &= (((aw | bw).wrapping_add(0x7FFF_FFFF)) >> 31).wrapping_sub(1);
        }
        a1 |= a0 & c1;
        a0 &= !c1;
        b1 |= b0 & c1;
        b0 &= !c1;
        let mut a_hi = (u64::from(a0) << 31).wrapping_add(u64::from(a1));
        let mut b_hi = (u64::from(b0) << 31).wrapping_add(u64::from(b1));
        let mut a_lo = a[0];
        let mut b_lo = b[0];

        let mut pa = 1i64;
        let mut pb = 0i64;
        let mut qa = 0i64;
        let mut qb = 1i64;
        for i in 0..31 {
            let rz = b_hi.wrapping_sub(a_hi);
            let rt = ((rz ^ ((a_hi ^ b_hi) & (a_hi ^ rz))) >> 63) as u32;
            let oa = (a_lo >> i) & 1;
            let ob = (b_lo >> i) & 1;
            let c_ab = oa & ob & rt;
            let c_ba = oa & ob & !rt;
            let c_a = c_ab | (oa ^ 1);

            a_lo = a_lo.wrapping_sub(b_lo & c_ab.wrapping_neg());
            a_hi = a_hi.wrapping_sub(b_hi & u64::from(c_ab).wrapping_neg());
            pa = pa.wrapping_sub(qa & i64::from(c_ab).wrapping_neg());
            pb = pb.wrapping_sub(qb & i64::from(c_ab).wrapping_neg());
            b_lo = b_lo.wrapping_sub(a_lo & c_ba.wrapping_neg());
            b_hi = b_hi.wrapping_sub(a_hi & u64::from(c_ba).wrapping_neg());
            qa = qa.wrapping_sub(pa & i64::from(c_ba).wrapping_neg());
            qb = qb.wrapping_sub(pb & i64::from(c_ba).wrapping_neg());

            a_lo = a_lo.wrapping_add(a_lo & c_a.wrapping_sub(1));
            pa = pa.wrapping_add(pa & (i64::from(c_a) - 1));
            pb = pb.wrapping_add(pb & (i64::from(c_a) - 1));
            a_hi ^= (a_hi ^ (a_hi >> 1)) & u64::from(c_a).wrapping_neg();
            b_lo = b_lo.wrapping_add(b_lo & c_a.wrapping_neg());
            qa = qa.wrapping_add(qa & i64::from(c_a).wrapping_neg());
            qb = qb.wrapping_add(qb & i64::from(c_a).wrapping_neg());
            b_hi ^= (b_hi ^ (b_hi >> 1)) & u64::from(c_a).wrapping_sub(1);
        }

        let r = zint_co_reduce(a, b, len, pa, pb, qa, qb);
        pa = pa.wrapping_sub(pa.wrapping_add(pa) & i64::from(r & 1).wrapping_neg());
        pb = pb.wrapping_sub(pb.wrapping_add(pb) & i64::from(r & 1).wrapping_neg());
        qa = qa.wrapping_sub(qa.wrapping_add(qa) & i64::from(r >> 1).wrapping_neg());
        qb = qb.wrapping_sub(qb.wrapping_add(qb) & i64::from(r >> 1).wrapping_neg());
        zint_co_reduce_mod(u0, u1, y, len, y0i, pa, pb, qa, qb);
        num -= 30;
    }

    // v = (x u - 1) / y: r = x u - 1 mod 2^(31 len) (low half of the
    // product), then exact division limb by limb (v_i = r_i / y_0 mod
    // 2^31, r -= v_i y 2^(31 i)).
    let r = v1;
    r.fill(0);
    for i in 0..len {
        let xi = u64::from(x[i]);
        let mut cc = 0u64;
        for j in 0..len - i {
            let z = xi * u64::from(u0[j]) + u64::from(r[i + j]) + cc;
            r[i + j] = (z as u32) & 0x7FFF_FFFF;
            cc = z >> 31;
        }
    }
    let mut cc = 1u32;
    for w in r.iter_mut() {
        let z = w.wrapping_sub(cc);
        *w = z & 0x7FFF_FFFF;
        cc = z >> 31;
    }
    // 1 / y_0 mod 2^31.
    let yinv = y0i.wrapping_neg() & 0x7FFF_FFFF;
    for i in 0..len {
        let q = r[i].wrapping_mul(yinv) & 0x7FFF_FFFF;
        v0[i] = q;
        let q = u64::from(q);
        let mut cc = 0u64;
        for j in 0..len - i {
            // r[i + j] - q y[j] - borrow, with the borrow as a nonnegative
            // word: adding 2^62 keeps the value nonnegative.
            let z = (u64::from(r[i + j]) + (1u64 << 62)) - q * u64::from(y[j]) - cc;
            r[i + j] = (z as u32) & 0x7FFF_FFFF;
            cc = (1u64 << 31) - (z >> 31);
        }
    }

    // a must be 1 (GCD), and x, y odd.
    let mut rc = a[0] ^ 1;
    for &w in &a[1..len] {
        rc |= w;
    }
    let ok = (1 - ((rc | rc.wrapping_neg()) >> 31)) & x[0] & y[0];
    crate::ct_util::declassify_bool(ok & 1 != 0)
}

/// x += sum_v c[v] * y_v modulo 2^(31 x.len()), where y_v is the
/// `x.len()`-limb integer `ys[v * x.len() ..][.. x.len()]` (31-bit limbs;
/// the caller has already shifted and sign-extended it) and |c[v]| < 2^31.
///
/// The products of one limb position are summed before the carry moves on:
/// each 62-bit signed product is split into its low 31 bits and the rest,
/// and both parts are summed in i64 (at most `c.len()` * 2^31 in absolute
/// value, no overflow for fewer than 2^31 terms). Modular sums do not
/// depend on their order, so the result is the same as adding the c[v]
/// y_v one at a time (the reference's `zint_add_scaled_mul_small`).
pub(crate) fn zint_add_mul_fused(x: &mut [u32], ys: &[u32], c: &[i64]) {
    let tl = x.len();
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::zint_avx2::try_add_mul_fused(x, ys, c) {
        return;
    }
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
pub(crate) fn zint_sub_scaled(x: &mut [u32], y: &[u32], sch: usize, scl: u32) {
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
pub(crate) fn zint_one_to_plain(x: u32) -> i32 {
    (x | ((x & 0x4000_0000) << 1)) as i32
}

#[cfg(test)]
mod tests {
    use pqforge_core::testing::TestRng;

    use super::*;

    /// NTT products against schoolbook negacyclic products mod p, for
    /// every logn, contiguous and strided: checks the twiddle tables
    /// (`modp_mkgm2`) and both transforms on whichever code path this CPU
    /// takes (AVX2 for logn >= 4 on x86_64, scalar otherwise; run with
    /// `--cfg pqforge_backend="portable"` for the scalar one).
    #[test]
    fn ntt_products_match_schoolbook() {
        let mut r = TestRng::new(0x0123_4567_89AB_CDEF);
        for pi in [0usize, 7, 100] {
            let SmallPrime { p, g, .. } = prime(pi);
            let p0i = modp_ninv31(p);
            let r2 = modp_r2(p, p0i);
            for logn in 1..=10u32 {
                let n = 1usize << logn;
                let mut gm = [0u32; 1024];
                let mut igm = [0u32; 1024];
                modp_mkgm2(&mut gm, &mut igm, logn, g, p, p0i);
                let a: [u32; 1024] = core::array::from_fn(|_| (r.next_u64() % u64::from(p)) as u32);
                let b: [u32; 1024] = core::array::from_fn(|_| (r.next_u64() % u64::from(p)) as u32);
                // Schoolbook a * b mod (x^n + 1, p).
                let mut want = [0u64; 1024];
                for i in 0..n {
                    for j in 0..n {
                        let t = u64::from(a[i]) * u64::from(b[j]) % u64::from(p);
                        let k = (i + j) % n;
                        want[k] = if i + j < n {
                            (want[k] + t) % u64::from(p)
                        } else {
                            (want[k] + u64::from(p) - t) % u64::from(p)
                        };
                    }
                }
                for stride in [1usize, 3] {
                    let off = stride - 1;
                    let mut x = [0u32; 3 * 1024];
                    let mut y = [0u32; 3 * 1024];
                    for i in 0..n {
                        // a in Montgomery form, so that one Montgomery
                        // product below gives the plain a * b.
                        x[off + i * stride] = modp_montymul(a[i], r2, p, p0i);
                        y[off + i * stride] = b[i];
                    }
                    ntt_ext(&mut x, off, stride, &gm, logn, p, p0i);
                    ntt_ext(&mut y, off, stride, &gm, logn, p, p0i);
                    for i in 0..n {
                        let k = off + i * stride;
                        x[k] = modp_montymul(x[k], y[k], p, p0i);
                    }
                    intt_ext(&mut x, off, stride, &igm, logn, p, p0i);
                    for i in 0..n {
                        assert_eq!(
                            u64::from(x[off + i * stride]),
                            want[i],
                            "prime {pi}, logn {logn}, stride {stride}, coefficient {i}"
                        );
                    }
                }
            }
        }
    }

    /// The four-way residues equal the one-at-a-time ones.
    #[test]
    fn mod_small_signed_all_matches() {
        let mut src = [0u32; 7 * 5];
        words(&mut TestRng::new(0x9E37_79B9_7F4A_7C15), &mut src);
        let c = prime(3);
        let p0i = modp_ninv31(c.p);
        let r2 = modp_r2(c.p, p0i);
        for len in 1..=5usize {
            let rx = modp_rx(len as u32, c.p, p0i, r2);
            let mut out = [0u32; 7];
            zint_mod_small_signed_all(&src, 5, len, 7, c.p, p0i, r2, rx, |v, x| out[v] = x);
            for v in 0..7 {
                let d = &src[v * 5..v * 5 + len];
                assert_eq!(out[v], zint_mod_small_signed(d, c.p, p0i, r2, rx));
            }
        }
    }

    /// The root inverse used for the twiddle tables equals the generic
    /// division for every prime and degree.
    #[test]
    fn inv_root_matches_div() {
        for i in 0..crate::tables::PRIMES.len() {
            let c = prime(i);
            let p0i = modp_ninv31(c.p);
            let r2 = modp_r2(c.p, p0i);
            let mut g = modp_montymul(c.g, r2, c.p, p0i);
            for logn in (0..=10u32).rev() {
                assert_eq!(
                    modp_inv_root(g, logn, c.p, p0i),
                    modp_div(r2, g, c.p, p0i, modp_r(c.p)),
                    "prime {i} logn {logn}"
                );
                g = modp_montymul(g, g, c.p, p0i);
            }
        }
    }

    /// Random 31-bit words.
    fn words(r: &mut TestRng, out: &mut [u32]) {
        for x in out {
            *x = r.next_u32() & 0x7FFF_FFFF;
        }
    }

    /// Residues over a prime range equal the one-prime-at-a-time ones
    /// (dispatched: AVX2 when available).
    #[test]
    fn mod_small_signed_rns_matches() {
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
            zint_mod_small_signed_rns(&src, 40, len, 3, &mut dst, w, u0, u1);
            for v in 0..3 {
                for u in u0..u1 {
                    let c = ResConst::new(u, len);
                    let d = &src[v * 40..v * 40 + len];
                    assert_eq!(
                        dst[v * w + u - u0],
                        zint_mod_small_signed(d, c.p, c.p0i, c.r2, c.rx)
                    );
                }
            }
        }
    }

    /// Fused multiply-accumulate (dispatched) equals one product at a time.
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
            zint_add_mul_fused(&mut x[..tl], &ys[..nv * tl], &c[..nv]);
            assert_eq!(x[..tl], want[..tl], "nv {nv} tl {tl}");
        }
    }

    /// CRT reconstruction (dispatched) equals the portable one.
    #[test]
    fn rebuild_crt_matches_portable() {
        let mut rng = TestRng::new(0xDEAD_BEEF_0123_4567);
        for (xlen, num) in [(1usize, 3usize), (2, 4), (9, 5), (30, 8), (17, 2)] {
            let mut a = [0u32; 8 * 31];
            words(&mut rng, &mut a);
            // Residues must be below their primes.
            for v in 0..num {
                for u in 0..xlen {
                    a[v * 31 + u] %= prime(u).p;
                }
            }
            let mut b = a;
            let mut t1 = [0u32; 31];
            let mut t2 = [0u32; 31];
            zint_rebuild_crt(&mut a, xlen, 31, num, true, &mut t1);
            rebuild_crt_portable(&mut b, xlen, 31, num, &mut t2);
            for v in 0..num {
                zint_norm_zero(&mut b[v * 31..], &t2, xlen);
            }
            assert_eq!(a, b, "xlen {xlen} num {num}");
        }
    }

    /// Bezout: x u - y v = 1 with 0 <= u <= y, 0 <= v <= x.
    #[test]
    fn bezout_solves() {
        let mut rng = TestRng::new(0x5555_0000_1111_2222);
        let mut found = 0;
        for len in [1usize, 2, 5, 12] {
            for _ in 0..20 {
                let mut x = [0u32; 12];
                let mut y = [0u32; 12];
                words(&mut rng, &mut x[..len]);
                words(&mut rng, &mut y[..len]);
                x[0] |= 1;
                y[0] |= 1;
                let (mut u, mut v, mut t) = ([0u32; 12], [0u32; 12], [0u32; 48]);
                if !zint_bezout(&mut u, &mut v, &x, &y, len, &mut t) {
                    continue;
                }
                found += 1;
                // x u and y v (2 len limbs each) must differ by exactly 1.
                let mul = |a: &[u32], b: &[u32]| {
                    let mut r = [0u32; 25];
                    for i in 0..len {
                        zint_add_mul_small(&mut r[i..], &b[..len], len, a[i]);
                    }
                    r
                };
                let mut xu = mul(&x, &u);
                let yv = mul(&y, &v);
                let mut one = [0u32; 25];
                one[0] = 1;
                zint_sub(&mut xu, &one, 2 * len + 1, 1);
                assert_eq!(xu[..=2 * len], yv[..=2 * len], "len {len}");
            }
        }
        assert!(found > 10);
    }
}
