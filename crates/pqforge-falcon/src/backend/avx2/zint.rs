//! AVX2 kernels for the NTRU solver's big integers: residues modulo
//! ranges of primes, CRT reconstruction, fused multiply-accumulate.
//!
//! Montgomery products modulo the 31-bit solver primes, four per 256-bit
//! register: each 64-bit lane holds one value in its low half (the high
//! half stays zero), and `_mm256_mul_epu32` gives the full 62-bit products.
//! Every result is fully reduced, i.e. the same word the portable
//! [`crate::modp::montymul`] returns, so the callers' outputs are
//! identical with and without AVX2.
//!
//! CT: no data-dependent branch, index or division; the loop bounds depend
//! only on public lengths.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_add_epi64, _mm256_and_si256, _mm256_loadu_si256,
    _mm256_mul_epu32, _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_srai_epi32, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_sub_epi32,
};

use pqforge_core::cpu::Avx2;

use crate::modp::{self, Prime};
use crate::zint::{ResConst, ZView, ZViewMut, add_mul_small, mul_small};

/// Per-lane constants for four primes.
#[derive(Clone, Copy)]
struct Lanes {
    p: __m256i,
    p0i: __m256i,
    r2: __m256i,
    rx: __m256i,
}

#[inline]
#[target_feature(enable = "avx2")]
fn ld4(x: &[u64; 4]) -> __m256i {
    // SAFETY: `x` is 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn st4(x: __m256i) -> [u64; 4] {
    let mut r = [0u64; 4];
    // SAFETY: `r` is 32 writable bytes; unaligned store.
    unsafe { _mm256_storeu_si256(r.as_mut_ptr().cast(), x) };
    r
}

impl Lanes {
    /// Lanes for primes `c[0..4]`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(c: &[ResConst]) -> Self {
        let f = |g: fn(&ResConst) -> u32| {
            let mut a = [0u64; 4];
            for (x, cj) in a.iter_mut().zip(c) {
                *x = u64::from(g(cj));
            }
            ld4(&a)
        };
        Lanes {
            p: f(|c| c.p),
            p0i: f(|c| c.p0i),
            r2: f(|c| c.r2),
            rx: f(|c| c.rx),
        }
    }
}

/// a * b / 2^31 mod p, lane-wise (a, b < p; result < p).
#[inline]
#[target_feature(enable = "avx2")]
fn montymul(a: __m256i, b: __m256i, p: __m256i, p0i: __m256i) -> __m256i {
    let m31 = _mm256_set1_epi64x(0x7FFF_FFFF);
    let z = _mm256_mul_epu32(a, b);
    // (z * p0i) mod 2^31 only needs the low 32 bits of z.
    let w = _mm256_mul_epu32(_mm256_and_si256(_mm256_mul_epu32(z, p0i), m31), p);
    // z + w < 2^63, and (z + w) / 2^31 < 2p: one conditional subtraction.
    let d = _mm256_sub_epi32(_mm256_srli_epi64(_mm256_add_epi64(z, w), 31), p);
    _mm256_add_epi32(d, _mm256_and_si256(p, _mm256_srai_epi32(d, 31)))
}

/// (a + b) mod p, lane-wise (a, b < p).
#[inline]
#[target_feature(enable = "avx2")]
fn add(a: __m256i, b: __m256i, p: __m256i) -> __m256i {
    let d = _mm256_sub_epi32(_mm256_add_epi32(a, b), p);
    _mm256_add_epi32(d, _mm256_and_si256(p, _mm256_srai_epi32(d, 31)))
}

/// One Horner step x <- x * 2^31 + w mod p (w < 2^31 broadcast in `wv`).
#[inline]
#[target_feature(enable = "avx2")]
fn horner(x: __m256i, wv: __m256i, l: &Lanes) -> __m256i {
    let z = montymul(x, l.r2, l.p, l.p0i);
    let t = _mm256_sub_epi32(wv, l.p);
    let t = _mm256_add_epi32(t, _mm256_and_si256(l.p, _mm256_srai_epi32(t, 31)));
    add(z, t, l.p)
}

/// (x - (rx if neg)) mod p, lane-wise; `neg` all-ones or zero.
#[inline]
#[target_feature(enable = "avx2")]
fn fix_sign(x: __m256i, neg: __m256i, l: &Lanes) -> __m256i {
    let d = _mm256_sub_epi32(x, _mm256_and_si256(l.rx, neg));
    _mm256_add_epi32(d, _mm256_and_si256(l.p, _mm256_srai_epi32(d, 31)))
}

/// [`crate::zint::residues`] (src.len >= 1): sixteen primes per pass
/// (four registers, independent chains), unused lanes of the last pass
/// repeat its final prime and are not stored.
pub(crate) fn residues(_: Avx2, src: ZView<'_>, count: usize, dst: ZViewMut<'_>, u0: usize) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { residues_avx2(src, count, dst, u0) }
}

#[target_feature(enable = "avx2")]
fn residues_avx2(src: ZView<'_>, count: usize, dst: ZViewMut<'_>, u0: usize) {
    let len = src.len;
    let ZViewMut {
        buf: out,
        len: nu,
        stride: ostride,
    } = dst;
    let u1 = u0 + nu;
    let mut u = u0;
    while u < u1 {
        let k = (u1 - u).min(16);
        let mut c = [ResConst::new(u, len); 16];
        for (j, cj) in c.iter_mut().enumerate().skip(1) {
            *cj = ResConst::new(u + j.min(k - 1), len);
        }
        let l0 = Lanes::new(&c[0..4]);
        let l1 = Lanes::new(&c[4..8]);
        let l2 = Lanes::new(&c[8..12]);
        let l3 = Lanes::new(&c[12..16]);
        for v in 0..count {
            let d = src.int(v);
            let zero = _mm256_set1_epi64x(0);
            let (mut x0, mut x1, mut x2, mut x3) = (zero, zero, zero, zero);
            if k > 8 {
                for &dw in d.iter().rev() {
                    let wv = _mm256_set1_epi64x(i64::from(dw));
                    x0 = horner(x0, wv, &l0);
                    x1 = horner(x1, wv, &l1);
                    x2 = horner(x2, wv, &l2);
                    x3 = horner(x3, wv, &l3);
                }
            } else {
                for &dw in d.iter().rev() {
                    let wv = _mm256_set1_epi64x(i64::from(dw));
                    x0 = horner(x0, wv, &l0);
                    x1 = horner(x1, wv, &l1);
                }
            }
            let neg = _mm256_set1_epi32((d[len - 1] >> 30).wrapping_neg() as i32);
            let r = [
                st4(fix_sign(x0, neg, &l0)),
                st4(fix_sign(x1, neg, &l1)),
                st4(fix_sign(x2, neg, &l2)),
                st4(fix_sign(x3, neg, &l3)),
            ];
            let o = v * ostride + (u - u0);
            for j in 0..k {
                out[o + j] = r[j >> 2][j & 3] as u32;
            }
        }
        u += k;
    }
}

/// [`crate::zint::add_mul_fused`] with four limb positions per register.
/// The signed products c y are formed as unsigned ones, (c + 2^31) y =
/// c y + 2^31 y with c + 2^31 in [1, 2^32), so that `_mm256_mul_epu32`
/// applies and the split into low 31 bits and the rest needs only logical
/// shifts; the extra 2^31 y is taken back from the high part (minus y).
pub(crate) fn add_mul_fused(_: Avx2, x: &mut [u32], ys: &[u32], c: &[i64]) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { add_mul_fused_avx2(x, ys, c) }
}

#[target_feature(enable = "avx2")]
fn add_mul_fused_avx2(x: &mut [u32], ys: &[u32], c: &[i64]) {
    use core::arch::x86_64::{_mm_loadu_si128, _mm256_cvtepu32_epi64, _mm256_sub_epi64};
    let tl = x.len();
    let nv = c.len();
    let m31 = _mm256_set1_epi64x(0x7FFF_FFFF);
    let mut cc = 0i64;
    let mut t = 0;
    while t + 4 <= tl {
        let mut lo = _mm256_set1_epi64x(0);
        let mut hi = lo;
        for v in 0..nv {
            let row = &ys[v * tl + t..v * tl + t + 4];
            // SAFETY: `row` is 16 readable bytes; unaligned load.
            let y = _mm256_cvtepu32_epi64(unsafe { _mm_loadu_si128(row.as_ptr().cast()) });
            // c + 2^31 as an unsigned 32-bit multiplier (|c| < 2^31).
            let p = _mm256_mul_epu32(_mm256_set1_epi64x(c[v] + (1i64 << 31)), y);
            lo = _mm256_add_epi64(lo, _mm256_and_si256(p, m31));
            hi = _mm256_add_epi64(hi, _mm256_sub_epi64(_mm256_srli_epi64(p, 31), y));
        }
        let lo = st4(lo);
        let hi = st4(hi);
        for j in 0..4 {
            let z = i64::from(x[t + j]) + cc + lo[j] as i64;
            x[t + j] = (z as u32) & 0x7FFF_FFFF;
            cc = (z >> 31) + hi[j] as i64;
        }
        t += 4;
    }
    while t < tl {
        let mut lo = i64::from(x[t]) + cc;
        let mut hi = 0i64;
        for (v, &cv) in c.iter().enumerate() {
            let pr = cv * i64::from(ys[v * tl + t]);
            lo += pr & 0x7FFF_FFFF;
            hi += pr >> 31;
        }
        x[t] = (lo as u32) & 0x7FFF_FFFF;
        cc = (lo >> 31) + hi;
        t += 1;
    }
}

/// Per-prime constants of the vector Horner reduction in [`rebuild_crt`].
struct HornerConst {
    pr: Prime,
    l: Lanes,
    /// 2^(31 * 9) mod p: a Montgomery product by it multiplies by 2^248
    /// (eight limbs).
    b8: __m256i,
    /// Lane k of `w_lo` / `w_hi`: 2^(31 (k + 1)) / 2^(31 (k + 5)) mod p,
    /// the weights 2^(31 k) / 2^(31 (k + 4)) in Montgomery form.
    w_lo: __m256i,
    w_hi: __m256i,
}

impl HornerConst {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(u: usize) -> Self {
        let pr = Prime::new(u);
        let c = ResConst::of(&pr, 1);
        let mut rx = [0u64; 9];
        // 2^31 mod p, then times 2^31 each step.
        let mut z = modp::r(pr.p);
        for r in &mut rx {
            *r = u64::from(z);
            z = pr.mm(z, pr.r2);
        }
        let l = Lanes::new(&[c; 4]);
        HornerConst {
            pr,
            l,
            b8: _mm256_set1_epi64x(rx[8] as i64),
            w_lo: ld4(&[rx[0], rx[1], rx[2], rx[3]]),
            w_hi: ld4(&[rx[4], rx[5], rx[6], rx[7]]),
        }
    }
}

/// Eight limbs (zero-padded past `x.len()`) as two registers of four, each
/// limb reduced mod p.
#[inline]
#[target_feature(enable = "avx2")]
fn load8_red(x: &[u32], hc: &HornerConst) -> (__m256i, __m256i) {
    use core::arch::x86_64::{_mm_loadu_si128, _mm256_cvtepu32_epi64};
    let mut pad = [0u32; 8];
    let src = if x.len() >= 8 {
        &x[..8]
    } else {
        pad[..x.len()].copy_from_slice(x);
        &pad[..]
    };
    // SAFETY: `src` is 32 readable bytes; unaligned loads.
    let (a, b) = unsafe {
        (
            _mm256_cvtepu32_epi64(_mm_loadu_si128(src.as_ptr().cast())),
            _mm256_cvtepu32_epi64(_mm_loadu_si128(src[4..].as_ptr().cast())),
        )
    };
    let red = |w: __m256i| {
        let t = _mm256_sub_epi32(w, hc.l.p);
        _mm256_add_epi32(t, _mm256_and_si256(hc.l.p, _mm256_srai_epi32(t, 31)))
    };
    (red(a), red(b))
}

/// Sum of the eight weighted lanes: x mod p from the two Horner
/// accumulators (lane k of `lo` has weight 2^(31 k), of `hi` 2^(31 (k+4))).
#[inline]
#[target_feature(enable = "avx2")]
fn horner_finish(lo: __m256i, hi: __m256i, hc: &HornerConst, p: u32) -> u32 {
    let a = st4(montymul(lo, hc.w_lo, hc.l.p, hc.l.p0i));
    let b = st4(montymul(hi, hc.w_hi, hc.l.p, hc.l.p0i));
    let mut s = 0u32;
    for &w in a.iter().chain(&b) {
        s = modp::add(s, w as u32, p);
    }
    s
}

/// x[..u] mod p for four integers side by side (eight independent vector
/// chains), x_j = `xx[bases[j] ..][.. u]`, u >= 1: Horner's rule on blocks
/// of eight limbs, lane k of the two accumulators collecting the limbs
/// 8 m + k (resp. 8 m + 4 + k).
#[inline]
#[target_feature(enable = "avx2")]
fn mod_unsigned_x4(xx: &[u32], bases: [usize; 4], u: usize, hc: &HornerConst) -> [u32; 4] {
    let l = &hc.l;
    let zero = _mm256_set1_epi64x(0);
    let mut acc = [(zero, zero); 4];
    let nb = u.div_ceil(8);
    for blk in (0..nb).rev() {
        let lo = blk * 8;
        let hi = (lo + 8).min(u);
        for (a, &b) in acc.iter_mut().zip(&bases) {
            let (w0, w1) = load8_red(&xx[b + lo..b + hi], hc);
            a.0 = add(montymul(a.0, hc.b8, l.p, l.p0i), w0, l.p);
            a.1 = add(montymul(a.1, hc.b8, l.p, l.p0i), w1, l.p);
        }
    }
    let mut r = [0u32; 4];
    let pp = st4(l.p)[0] as u32;
    for (rj, a) in r.iter_mut().zip(&acc) {
        *rj = horner_finish(a.0, a.1, hc, pp);
    }
    r
}

/// x[..u] mod p for one integer (two vector chains).
#[inline]
#[target_feature(enable = "avx2")]
fn mod_unsigned_x1(x: &[u32], hc: &HornerConst) -> u32 {
    let l = &hc.l;
    let u = x.len();
    let zero = _mm256_set1_epi64x(0);
    let (mut a0, mut a1) = (zero, zero);
    for blk in (0..u.div_ceil(8)).rev() {
        let lo = blk * 8;
        let (w0, w1) = load8_red(&x[lo..(lo + 8).min(u)], hc);
        a0 = add(montymul(a0, hc.b8, l.p, l.p0i), w0, l.p);
        a1 = add(montymul(a1, hc.b8, l.p, l.p0i), w1, l.p);
    }
    horner_finish(a0, a1, hc, st4(l.p)[0] as u32)
}

/// [`crate::zint::rebuild_crt_portable`]: the same Garner steps (x +=
/// p_0..p_{u-1} * ((x_u - x mod p_u) / (p_0..p_{u-1}) mod p_u)), with x mod
/// p_u by the vector Horner reduction above. The residue is unique, so the
/// integers are the same.
pub(crate) fn rebuild_crt(_: Avx2, xx: ZViewMut<'_>, count: usize, tmp: &mut [u32]) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { rebuild_crt_avx2(xx, count, tmp) }
}

#[target_feature(enable = "avx2")]
fn rebuild_crt_avx2(xx: ZViewMut<'_>, num: usize, tmp: &mut [u32]) {
    let ZViewMut {
        buf: xx,
        len: xlen,
        stride: xstride,
    } = xx;
    tmp[0] = Prime::new(0).p;
    for u in 1..xlen {
        let hc = HornerConst::new(u);
        let (p, s, p0i) = (hc.pr.p, hc.pr.s, hc.pr.p0i);
        let mut v = 0;
        while v + 4 <= num {
            let bases = [
                v * xstride,
                (v + 1) * xstride,
                (v + 2) * xstride,
                (v + 3) * xstride,
            ];
            let xq = mod_unsigned_x4(xx, bases, u, &hc);
            let mut xr = [0u32; 4];
            for j in 0..4 {
                let xp = xx[bases[j] + u];
                xr[j] = modp::montymul(s, modp::sub(xp, xq[j], p), p, p0i);
            }
            // x += tmp * xr on the four integers, carries side by side.
            let mut cc = [0u32; 4];
            for (w, &tw) in tmp[..u].iter().enumerate() {
                for j in 0..4 {
                    let o = bases[j] + w;
                    let z = u64::from(tw) * u64::from(xr[j]) + u64::from(xx[o]) + u64::from(cc[j]);
                    xx[o] = (z as u32) & 0x7FFF_FFFF;
                    cc[j] = (z >> 31) as u32;
                }
            }
            for j in 0..4 {
                xx[bases[j] + u] = cc[j];
            }
            v += 4;
        }
        while v < num {
            let x = &mut xx[v * xstride..];
            let xp = x[u];
            let xq = mod_unsigned_x1(&x[..u], &hc);
            let xr = modp::montymul(s, modp::sub(xp, xq, p), p, p0i);
            add_mul_small(x, &tmp[..u], xr);
            v += 1;
        }
        tmp[u] = mul_small(&mut tmp[..u], p);
    }
}
