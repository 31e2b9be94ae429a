//! The additive FFT on AVX2 (as the portable `fft` module, same point
//! order): register `r` of an FFT array holds the portable 64-point
//! vectors `4r .. 4r + 3` (one per 64-bit lane). The butterflies of the
//! two smallest distances (one and two vectors) pair lanes of the same
//! register; they run on two registers at a time after a lane shuffle
//! ([`split`]). The bottom of the transposed FFT (the sums over the 64
//! lanes of each vector) transposes 64 x 64 bit blocks, fused with the
//! sums ([`column_sums`]).

use core::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_andnot_si256, _mm256_or_si256, _mm256_permute4x64_epi64,
    _mm256_set1_epi64x, _mm256_setr_epi64x, _mm256_sll_epi64, _mm256_srl_epi64, _mm256_srlv_epi64,
    _mm256_sub_epi64,
};

use super::gf::{Acc, V, halves, low, planes_in, prod, prod_h};
use super::radix::{radix_tr_v, radix_v, to_planes};
use super::simd::{and, join, lanes, split, wipe256, xor, zero};
use crate::fft_consts::{FftConsts, consts};
use crate::gf;

/// The twiddle rows of the FFT constants as 256-bit registers (row
/// `k` = words `4k .. 4k + 4`).
#[inline]
fn tw_rows(c: &FftConsts) -> &[__m256i] {
    let w = &c.tw.0;
    #[allow(clippy::cast_ptr_alignment)] // `Tw` is `align(32)`
    let ptr = w.as_ptr().cast::<__m256i>();
    // SAFETY: `Tw` is 32-byte aligned and holds a multiple of four words;
    // every bit pattern is a valid `__m256i`.
    unsafe { core::slice::from_raw_parts(ptr, w.len() / 4) }
}

/// `x ^= y * tw; y ^= x` on two registers of 256 points (`t`: scratch,
/// passed in so that it is not zeroed for every butterfly).
#[inline]
#[target_feature(enable = "avx2")]
fn bfly<const M: usize>(x: &mut V<M>, y: &mut V<M>, tw: &[__m256i], th: &[__m256i], t: &mut Acc) {
    prod_h::<M>(t, y, tw, th);
    for b in 0..M {
        x[b] = xor(x[b], low::<M>(t, b));
        y[b] = xor(y[b], x[b]);
    }
}

/// Transpose of [`bfly`]: `x ^= y; y ^= x * tw`.
#[inline]
#[target_feature(enable = "avx2")]
fn bfly_tr<const M: usize>(
    x: &mut V<M>,
    y: &mut V<M>,
    tw: &[__m256i],
    th: &[__m256i],
    t: &mut Acc,
) {
    for b in 0..M {
        x[b] = xor(x[b], y[b]);
    }
    prod_h::<M>(t, x, tw, th);
    for b in 0..M {
        y[b] = xor(y[b], low::<M>(t, b));
    }
}

/// The butterflies of distance one or two vectors (in-register), forward
/// or transposed, with the depth's twiddle row.
#[inline]
#[target_feature(enable = "avx2")]
fn small_depth<const M: usize, const D1: bool, const TR: bool>(d: &mut [V<M>], tw: &[__m256i]) {
    let mut t = [zero(); 2 * gf::MAX_M - 1];
    let th = halves::<M>(tw);
    for pr in d.chunks_exact_mut(2) {
        let (a, b) = pr.split_at_mut(1);
        let (a, b) = (&mut a[0], &mut b[0]);
        let mut x = [zero(); M];
        let mut y = [zero(); M];
        for i in 0..M {
            (x[i], y[i]) = split::<D1>(a[i], b[i]);
        }
        if TR {
            bfly_tr(&mut x, &mut y, tw, &th, &mut t);
        } else {
            bfly(&mut x, &mut y, tw, &th, &mut t);
        }
        for i in 0..M {
            (a[i], b[i]) = join::<D1>(x[i], y[i]);
        }
    }
    wipe256(&mut t);
}

/// The butterflies of depth `l` with a distance of at least four vectors
/// (one register or more), forward or transposed.
#[inline]
#[target_feature(enable = "avx2")]
fn big_depth<const M: usize, const TR: bool>(d: &mut [V<M>], c: &FftConsts, l: usize) {
    let lf = M - 6;
    let hr = 1usize << (lf - 3 - l);
    let rows = &tw_rows(c)[c.tw_off[l] / 4..];
    let mut t = [zero(); 2 * gf::MAX_M - 1];
    // Twiddle row outer, so that its half sum is computed once.
    for qq in 0..hr {
        let tw = &rows[qq * M..];
        let th = halves::<M>(tw);
        for blk in d.chunks_exact_mut(2 * hr) {
            let (lo, hi) = blk.split_at_mut(hr);
            let (x, y) = (&mut lo[qq], &mut hi[qq]);
            if TR {
                bfly_tr(x, y, tw, &th, &mut t);
            } else {
                bfly(x, y, tw, &th, &mut t);
            }
        }
    }
    wipe256(&mut t);
}

/// `bitrev_k(x)`.
#[inline(always)]
fn bitrev(k: usize, x: usize) -> usize {
    x.reverse_bits() >> (usize::BITS as usize - k)
}

/// Evaluates the monic `f` (degree `t = f.len() - 1 <= 64 W = 2^(m-6)`) at
/// every field element: `out[r]` lane `j` is the portable vector
/// `4r + j` (`2^(m-8)` registers).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn fft_eval<const M: usize, const W: usize>(out: &mut [V<M>], f: &[u16]) {
    let lf = M - 6;
    let nr = 1usize << (lf - 2);
    let c = consts(M);
    let t = f.len() - 1;
    let mut coef = to_planes::<M, W>(&f[..f.len().min(64 * W)]);
    let mut p = planes_in::<M>(&coef);
    zeroize::Zeroize::zeroize(coef.as_flattened_mut());
    radix_v::<M>(&mut p, 6 + W.trailing_zeros() as usize);
    // Bottom: vector v is the constant at index bitrev_lf(v).
    let one = _mm256_set1_epi64x(1);
    for (r, o) in out[..nr].iter_mut().enumerate() {
        let idx = [0, 1, 2, 3].map(|j| bitrev(lf, 4 * r + j));
        let sh = _mm256_setr_epi64x(
            (idx[0] % 64) as i64,
            (idx[1] % 64) as i64,
            (idx[2] % 64) as i64,
            (idx[3] % 64) as i64,
        );
        for (b, ob) in o.iter_mut().enumerate() {
            // Lane j needs word idx_j / 64: always 0 (W = 1), or 0, 1, 0, 1
            // (W = 2: bit 6 of bitrev_7(4r + j) is bit 0 of j).
            let word = if W == 1 {
                _mm256_permute4x64_epi64::<0x00>(p[b])
            } else {
                _mm256_permute4x64_epi64::<0x44>(p[b])
            };
            *ob = _mm256_sub_epi64(zero(), and(_mm256_srlv_epi64(word, sh), one));
        }
    }
    wipe256(&mut p);
    let d = &mut out[..nr];
    let rows = tw_rows(c);
    small_depth::<M, true, false>(d, &rows[c.tw_off[lf - 1] / 4..]);
    small_depth::<M, false, false>(d, &rows[c.tw_off[lf - 2] / 4..]);
    for l in (0..lf - 2).rev() {
        big_depth::<M, false>(d, c, l);
    }
    // The leading term x^(2^lf) (when t = 2^lf), evaluated directly: the
    // Frobenius map is linear in the point.
    if t == 1 << lf {
        for (r, o) in d.iter_mut().enumerate() {
            let hs = _mm256_setr_epi64x(
                i64::from(c.xt_high[4 * r]),
                i64::from(c.xt_high[4 * r + 1]),
                i64::from(c.xt_high[4 * r + 2]),
                i64::from(c.xt_high[4 * r + 3]),
            );
            for (b, ob) in o.iter_mut().enumerate() {
                let h = and(_mm256_srl_epi64(hs, _mm_cvtsi32_si128(b as i32)), one);
                let h = _mm256_sub_epi64(zero(), h);
                *ob = xor(*ob, xor(h, _mm256_set1_epi64x(c.xt_lane[b] as i64)));
            }
        }
    }
}

/// `LO[k]`: the low half of every `2^(k+1)`-bit field of a word.
const LO: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// One stage of a 64 x 64 bit transposition (per 64-bit lane), with
/// `s = 2^k`, followed by the XOR of its two outputs: rows `a`, `b` (fields
/// of `2s` bits) become `d` = the sum of the two transposed rows (each
/// field of `a` folded to `s` bits in the low half, each field of `b` in
/// the high half) and `p` = the second transposed row alone (the high
/// halves of the fields).
#[inline]
#[target_feature(enable = "avx2")]
fn fold_pair(a: __m256i, b: __m256i, k: usize) -> (__m256i, __m256i) {
    let lo = _mm256_set1_epi64x(LO[k] as i64);
    let cnt = _mm_cvtsi32_si128(1 << k);
    let ahi = _mm256_srl_epi64(a, cnt);
    let d = _mm256_or_si256(
        and(xor(a, ahi), lo),
        _mm256_andnot_si256(lo, xor(b, _mm256_sll_epi64(b, cnt))),
    );
    let p = _mm256_or_si256(and(ahi, lo), _mm256_andnot_si256(lo, b));
    (d, p)
}

/// The XOR of all rows of the transposition of `rows` (`2^j` rows whose
/// fields are `2^j` bits wide): per field, the parity of its row.
#[inline]
#[target_feature(enable = "avx2")]
fn fold_all(rows: &mut [__m256i]) -> __m256i {
    let mut n = rows.len();
    while n > 1 {
        let s = n / 2;
        for i in 0..s {
            rows[i] = fold_pair(rows[i], rows[i + s], s.trailing_zeros() as usize).0;
        }
        n = s;
    }
    rows[0]
}

/// Column sums of the transposes of four 64 x 64 bit matrices (one per
/// 64-bit lane; row `i` bit `k` becomes row `k` bit `i`): `[H, Q_0, ..,
/// Q_5]` with `H` the XOR of all 64 transposed rows and `Q_k` that of the
/// transposed rows with bit k set; bit `i` of each is a parity of the
/// original row `i`. The transposition and the sums are fused: the
/// stages only XOR rows, so the rows that are summed anyway are added as
/// soon as a stage has produced them, and the later stages run on half
/// as many rows (about 1000 lane-wise operations instead of 1700).
/// Destroys `rows`.
#[inline]
#[target_feature(enable = "avx2")]
fn column_sums(rows: &mut [__m256i; 64]) -> [__m256i; 7] {
    let mut out = [zero(); 7];
    for k in (0..6).rev() {
        let s = 1usize << k;
        for i in 0..s {
            (rows[i], rows[i + s]) = fold_pair(rows[i], rows[i + s], k);
        }
        // Q_k: the transposed rows of the upper half, summed.
        out[1 + k] = fold_all(&mut rows[s..2 * s]);
    }
    out[0] = rows[0];
    out
}

/// Transpose of [`fft_eval`] with the linear bottom: returns
/// `sum_x w_x x^j` for `j < 2^(m-5)`, bitsliced (`W2 = 2^(m-11)` words of
/// each plane; `W1 = W2 / 2`). Destroys `w`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn fft_tr<const M: usize, const W1: usize, const W2: usize>(
    w: &mut [V<M>],
) -> [[u64; 4]; M] {
    let lf = M - 6;
    let nr = 1usize << (lf - 2);
    let c = consts(M);
    let d = &mut w[..nr];
    for l in 0..lf - 2 {
        big_depth::<M, true>(d, c, l);
    }
    let rows = tw_rows(c);
    small_depth::<M, false, true>(d, &rows[c.tw_off[lf - 2] / 4..]);
    small_depth::<M, true, true>(d, &rows[c.tw_off[lf - 1] / 4..]);

    // Bottom: per vector v, h0 = sum of the 64 lanes (-> index
    // bitrev_lf(v)) and h1 = sum_l span_l w_l = sum_k bottom[k] Q_k (->
    // index 2^lf + bitrev_lf(v)), with Q_k the sum of the lanes with bit
    // k set. Matrices (plane b, block h) with rows i = vectors
    // bitrev_lf(64 h + i), columns = lanes; four per transposition.
    let mut p = [[0u64; 4]; M];
    // Q_k, laid out for the products with `bottom_lanes`.
    let mut q = [[[0u64; 4]; M]; 3];
    let mut rows = [zero(); 64];
    let groups = (M * W1).div_ceil(4);
    for g in 0..groups {
        if W1 == 1 {
            // Planes 4g..4g+3, v = bitrev_6(i): a 4 x 4 word transposition
            // of register r gives the rows of vectors 4r .. 4r+3.
            for (r, dr) in d.iter().enumerate() {
                let (a0, a1) = split::<true>(dr[4 * g], dr[4 * g + 1]);
                let (a2, a3) = split::<true>(dr[4 * g + 2], dr[4 * g + 3]);
                let (r0, r2) = split::<false>(a0, a2);
                let (r1, r3) = split::<false>(a1, a3);
                for (j, x) in [r0, r1, r2, r3].into_iter().enumerate() {
                    rows[bitrev(lf, 4 * r + j)] = x;
                }
            }
        } else {
            // Planes b = 2g, 2g + 1 (blocks 0 and 1 each): row i of block h
            // is vector v = bitrev_7(i) + h (v even for h = 0), and
            // lanes (b, 0), (b, 1), (b+1, 0), (b+1, 1) come from lanes
            // v, v+1 of two planes of register v / 4.
            let b = 2 * g;
            for (r, dr) in d.iter().enumerate() {
                let x = dr[b];
                let y = if b + 1 < M { dr[b + 1] } else { zero() };
                let (lo, hi) = split::<false>(x, y);
                rows[bitrev(lf, 4 * r)] = lo;
                rows[bitrev(lf, 4 * r + 2)] = hi;
            }
        }
        let mut sums = column_sums(&mut rows).map(|x| lanes(x));
        for j in 0..4 {
            let (b, h) = ((4 * g + j) / W1, (4 * g + j) % W1);
            if b >= M {
                continue;
            }
            p[b][h] = sums[0][j];
            for k in 0..6 {
                q[k * W1 / 4][b][(k * W1) % 4 + h] = sums[1 + k][j];
            }
        }
        zeroize::Zeroize::zeroize(sums.as_flattened_mut());
    }
    wipe256(&mut rows);
    // h1 = sum_k bottom[k] Q_k, over the 2^lf vectors at once: four sums
    // per 256-lane product, then the lanes folded.
    let mut h1 = [zero(); M];
    for (qg, cg) in q.iter().zip(&c.bottom_lanes).take((6 * W1).div_ceil(4)) {
        let (qv, cv) = (planes_in::<M>(qg), planes_in::<M>(cg));
        let mut t = [zero(); 2 * gf::MAX_M - 1];
        prod::<M>(&mut t, &qv, &cv);
        for (j, x) in h1.iter_mut().enumerate() {
            *x = xor(*x, low::<M>(&t, j));
        }
        wipe256(&mut t);
    }
    for (pb, hb) in p.iter_mut().zip(&h1) {
        let l = lanes(*hb);
        if W1 == 1 {
            pb[1] = l[0] ^ l[1] ^ l[2] ^ l[3];
        } else {
            pb[2] = l[0] ^ l[2];
            pb[3] = l[1] ^ l[3];
        }
    }
    zeroize::Zeroize::zeroize(q.as_flattened_mut().as_flattened_mut());
    wipe256(&mut h1);
    let mut v = planes_in::<M>(&p);
    radix_tr_v::<M>(&mut v, 6 + W2.trailing_zeros() as usize);
    for (pb, vb) in p.iter_mut().zip(&v) {
        *pb = lanes(*vb);
    }
    wipe256(&mut v);
    p
}

#[cfg(test)]
mod tests {
    use super::super::radix::from_planes;
    use super::*;
    use crate::gf::Vec64;
    use crate::radix;
    use pqforge_core::cpu::Avx2;
    use pqforge_core::testing::TestRng;
    use std::vec::Vec;

    /// Registers of a full FFT array (8192 points).
    const NR_MAX: usize = 32;

    /// Registers to portable vectors (vector `4r + j` = lane j of r).
    fn to_vec64<const M: usize>(d: &[V<M>]) -> Vec<Vec64> {
        let mut out = Vec::new();
        for r in d {
            // SAFETY: test-only; AVX2 was detected by the caller.
            let l: Vec<[u64; 4]> = r.iter().map(|x| unsafe { lanes(*x) }).collect();
            for j in 0..4 {
                let mut v = [0u64; gf::MAX_M];
                for b in 0..M {
                    v[b] = l[b][j];
                }
                out.push(v);
            }
        }
        out
    }

    #[target_feature(enable = "avx2")]
    fn from_vec64<const M: usize>(w: &[Vec64], d: &mut [V<M>]) {
        for (r, x) in d.iter_mut().enumerate() {
            for b in 0..M {
                x[b] = _mm256_setr_epi64x(
                    w[4 * r][b] as i64,
                    w[4 * r + 1][b] as i64,
                    w[4 * r + 2][b] as i64,
                    w[4 * r + 3][b] as i64,
                );
            }
        }
    }

    /// The FFT, its transpose and the radix conversions against the
    /// portable modules.
    fn check<const M: usize, const W1: usize, const W2: usize>(rng: &mut TestRng, t: usize) {
        let nr = 1 << (M - 8);
        let nv = 4 * nr;
        let mut f: Vec<u16> = (0..=t)
            .map(|_| (rng.next_u64() as u16) & ((1 << M) - 1))
            .collect();
        f[t] = 1;
        let mut want = [[0u64; gf::MAX_M]; crate::fft::NV];
        crate::fft::eval_all(M, &f, &mut want);
        // SAFETY: AVX2 was detected.
        let mut d = [[unsafe { zero() }; M]; NR_MAX];
        // SAFETY: AVX2 was detected.
        unsafe { fft_eval::<M, W1>(&mut d[..nr], &f) };
        let gotv = to_vec64(&d[..nr]);
        for v in 0..nv {
            if gotv[v] != want[v] {
                std::eprintln!("v={v} got={:x?} want={:x?}", &gotv[v][..2], &want[v][..2]);
            }
        }
        assert!(gotv == want[..nv], "eval M={M} t={t}");

        let mut w = [[0u64; gf::MAX_M]; crate::fft::NV];
        for v in &mut w[..nv] {
            for p in &mut v[..M] {
                *p = rng.next_u64();
            }
        }
        // SAFETY: AVX2 was detected.
        unsafe { from_vec64::<M>(&w[..nv], &mut d[..nr]) };
        let mut want = [0u16; 256];
        crate::fft::syndrome_all(M, &mut w, &mut want[..1 << (M - 5)]);
        // SAFETY: AVX2 was detected.
        let p = unsafe { fft_tr::<M, W1, W2>(&mut d[..nr]) };
        let mut pw = [[0u64; W2]; M];
        for (a, b) in pw.iter_mut().zip(&p) {
            a.copy_from_slice(&b[..W2]);
        }
        let mut got = [0u16; 256];
        radix::from_planes::<M, W2>(&pw, &mut got[..1 << (M - 5)]);
        assert!(got == want, "tr M={M}");
        let mut got2 = [0u16; 256];
        // SAFETY: AVX2 was detected.
        unsafe { from_planes::<M, W2>(&p, &mut got2[..1 << (M - 5)]) };
        assert!(got2 == want, "from_planes M={M}");
        // SAFETY: AVX2 was detected.
        let q2 = unsafe { to_planes::<M, W1>(&f[..f.len().min(64 * W1)]) };
        let q1 = radix::to_planes::<M, W1>(&f[..f.len().min(64 * W1)]);
        for (a, b) in q1.iter().zip(&q2) {
            assert!(
                a[..] == b[..W1] && b[W1..].iter().all(|&x| x == 0),
                "to_planes M={M}"
            );
        }
    }

    #[test]
    fn fft_matches_portable() {
        if Avx2::detect().is_none() {
            return;
        }
        let mut rng = TestRng::new(0x0123_4567_89AB_CDEF);
        for _ in 0..3 {
            check::<13, 2, 4>(&mut rng, 96);
            check::<12, 1, 2>(&mut rng, 64);
            check::<13, 2, 4>(&mut rng, 119);
            check::<13, 2, 4>(&mut rng, 128);
        }
    }
}
