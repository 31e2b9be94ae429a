//! AVX2 kernels of Goppa polynomial generation (the algorithm and the
//! matrix layout are in `genpoly`).
//!
//! * Powers of f: Kronecker substitution. Coefficient `i` of a polynomial
//!   goes to bits `32 i ..` of a long binary polynomial; the carry-less
//!   product of two such polynomials holds `sum_{i+j=k} a_i b_j` in slot
//!   `k` exactly (a product of two m-bit values has at most 2m-1 <= 25
//!   bits, and XOR does not carry), so PCLMULQDQ multiplies whole
//!   polynomials, two slots per 64-bit word, with two Karatsuba levels per
//!   block of four words (9 instead of 16 carry-less products: the
//!   instruction is the bottleneck). The slots are
//!   then reduced modulo the field polynomial (8 per register) and the
//!   polynomial modulo F (sparse: shifted XORs of 8-slot chunks, from the
//!   top). Squares (the even powers) cost one carry-less square per word.
//!   This kernel needs PCLMULQDQ as well (the `Avx2Pclmul` token); on a
//!   CPU with AVX2 alone the dispatch runs key generation with the
//!   portable kernel of this step.
//! * Row operations: 16 coefficients per register. `rk ^= t rj` is
//!   `sum_i [bit i of t] (rj x^i)`: the m rows `rj x^i` are tabulated once
//!   per pivot, the m bit masks of `t` once per row, so a 16-lane block
//!   costs m AND/XOR pairs. Back substitution uses the same identity with
//!   the roles swapped (masks from the matrix bits, `g x^i` tabulated).
//!
//! Everything is branch-free on secrets: masks come from arithmetic
//! shifts, PCLMULQDQ and the vector instructions used take the same time
//! for every operand.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_clmulepi64_si128, _mm_cvtsi32_si128, _mm_cvtsi128_si32, _mm_loadu_si128,
    _mm_setzero_si128, _mm_slli_si128, _mm_srli_si128, _mm_storeu_si128, _mm_xor_si128,
    _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_set1_epi16,
    _mm256_set1_epi32, _mm256_setzero_si256, _mm256_slli_epi16, _mm256_slli_epi32,
    _mm256_srai_epi16, _mm256_srl_epi32, _mm256_srli_epi32, _mm256_storeu_si256, _mm256_sub_epi32,
};

use super::simd::{and, ld, st as sto, wipe128, wipe256, xor};
use crate::ParameterSet;
use crate::genpoly::{MAX_STRIDE, MAX_T, get16, mulx, poly_low, set16, stride};
use crate::gf::{self, MAX_M};

/// 256-bit blocks of the widest row.
const NB: usize = MAX_STRIDE / 32;

/// Slots of the product buffer: `2 MAX_T` plus one chunk of overrun for
/// the reduction modulo F.
const NS: usize = 2 * MAX_T + 8;

/// 32-bit slots, aligned for vector access.
#[repr(C, align(32))]
struct Slots<const N: usize>([u32; N]);

/// Slots `i..i + 8`.
#[inline]
#[target_feature(enable = "avx2")]
fn ld8(s: &[u32], i: usize) -> __m256i {
    let s = &s[i..i + 8];
    // SAFETY: `s` has 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// Stores slots `i..i + 8`.
#[inline]
#[target_feature(enable = "avx2")]
fn st8(s: &mut [u32], i: usize, v: __m256i) {
    let s = &mut s[i..i + 8];
    // SAFETY: `s` has 32 writable bytes; unaligned store.
    unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), v) }
}

/// Slots `i..i + 4`.
#[inline]
#[target_feature(enable = "avx2")]
fn ld4(s: &[u32], i: usize) -> __m128i {
    let s = &s[i..i + 4];
    // SAFETY: `s` has 16 readable bytes; unaligned load.
    unsafe { _mm_loadu_si128(s.as_ptr().cast()) }
}

/// Stores slots `i..i + 4`.
#[inline]
#[target_feature(enable = "avx2")]
fn st4(s: &mut [u32], i: usize, v: __m128i) {
    let s = &mut s[i..i + 4];
    // SAFETY: `s` has 16 writable bytes; unaligned store.
    unsafe { _mm_storeu_si128(s.as_mut_ptr().cast(), v) }
}

/// Moves bit `m - 1` of every 16-bit lane to bit 15 (the first mask of a
/// descending bit walk: `srai 15`, then shift left by one per bit).
#[inline]
#[target_feature(enable = "avx2")]
fn top_align(m: usize, v: __m256i) -> __m256i {
    if m == 12 {
        _mm256_slli_epi16::<4>(v)
    } else {
        _mm256_slli_epi16::<3>(v)
    }
}

/// `v x` in every 16-bit lane.
#[inline]
#[target_feature(enable = "avx2")]
fn mulx16(m: usize, v: __m256i) -> __m256i {
    let top = _mm256_srai_epi16::<15>(top_align(m, v));
    let low = _mm256_set1_epi16(((1u32 << m) - 1) as i16);
    let p = _mm256_set1_epi16(poly_low(m) as i16);
    xor(and(_mm256_slli_epi16::<1>(v), low), and(top, p))
}

// ---------------------------------------------------------------------------
// Powers.

/// An operand of the Kronecker product, prepared for two Karatsuba
/// levels: per block of four 64-bit words (8 slots), the units (pairs of
/// words) `x0`, `x1`, `x0 + x1`, then each of them with the XOR of its
/// two words in the low half (the middle factor of the word level).
type Kop = [[__m128i; 6]; NK];

/// Blocks of four words of the widest operand.
const NK: usize = MAX_T / 8;

/// Prepares `nk` blocks of the operand in slots `op` (see [`Kop`]).
#[inline]
#[target_feature(enable = "avx2")]
fn prep(op: &[u32], nk: usize, k: &mut Kop) {
    let fold = |v: __m128i| _mm_xor_si128(v, _mm_srli_si128::<8>(v));
    for (i, e) in k[..nk].iter_mut().enumerate() {
        let x0 = ld4(op, 8 * i);
        let x1 = ld4(op, 8 * i + 4);
        let x2 = _mm_xor_si128(x0, x1);
        *e = [x0, x1, x2, fold(x0), fold(x1), fold(x2)];
    }
}

/// One unit product (two words by two words, Karatsuba: three carry-less
/// products) from its accumulated low, high and middle products: the
/// four result words as two units.
#[inline]
#[target_feature(enable = "avx2")]
fn unit_prod(l: __m128i, h: __m128i, m: __m128i) -> (__m128i, __m128i) {
    // a0 b1 + a1 b0 = (a0 + a1)(b0 + b1) + a0 b0 + a1 b1, one word up.
    let mid = _mm_xor_si128(m, _mm_xor_si128(l, h));
    (
        _mm_xor_si128(l, _mm_slli_si128::<8>(mid)),
        _mm_xor_si128(h, _mm_srli_si128::<8>(mid)),
    )
}

/// Kronecker product `a b` (`nk` blocks each) into slots `0..16 nk` of
/// `out`. Product scanning over blocks: output block pair `s` sums the
/// block products with `p + q = s`, each by Karatsuba on units
/// (`x0 y0`, `x1 y1`, `(x0 + x1)(y0 + y1)`) and again on words: 9 carry-less
/// products per block pair instead of 16. Summing before recombining is
/// valid because everything is linear.
#[inline]
#[target_feature(enable = "avx2,pclmulqdq")]
fn mul_kron(a: &Kop, b: &Kop, nk: usize, out: &mut [u32]) {
    let z = _mm_setzero_si128();
    let (mut c2, mut c3) = (z, z);
    for s in 0..2 * nk {
        let mut acc = [z; 9];
        // Pairs (p, q = s - p) with p, q < nk: p ascending, q descending.
        let (p0, p1) = (s.saturating_sub(nk - 1), (s + 1).min(nk));
        let (q0, q1) = (s + 1 - p1, s + 1 - p0);
        for (x, y) in a[p0..p1].iter().zip(b[q0..q1].iter().rev()) {
            for k in 0..3 {
                let (u, v) = (x[k], y[k]);
                acc[3 * k] = _mm_xor_si128(acc[3 * k], _mm_clmulepi64_si128::<0x00>(u, v));
                acc[3 * k + 1] = _mm_xor_si128(acc[3 * k + 1], _mm_clmulepi64_si128::<0x11>(u, v));
                acc[3 * k + 2] = _mm_xor_si128(
                    acc[3 * k + 2],
                    _mm_clmulepi64_si128::<0x00>(x[3 + k], y[3 + k]),
                );
            }
        }
        let (u0l, u0h) = unit_prod(acc[0], acc[1], acc[2]);
        let (u1l, u1h) = unit_prod(acc[3], acc[4], acc[5]);
        let (u2l, u2h) = unit_prod(acc[6], acc[7], acc[8]);
        // x0 y1 + x1 y0, one unit up.
        let ml = _mm_xor_si128(u2l, _mm_xor_si128(u0l, u1l));
        let mh = _mm_xor_si128(u2h, _mm_xor_si128(u0h, u1h));
        // Units 4s.. of the block product: u0l, u0h + ml, u1l + mh, u1h;
        // the upper two carry into the next block pair.
        st4(out, 8 * s, _mm_xor_si128(u0l, c2));
        st4(out, 8 * s + 4, _mm_xor_si128(_mm_xor_si128(u0h, ml), c3));
        c2 = _mm_xor_si128(u1l, mh);
        c3 = u1h;
    }
}

/// Kronecker square of `a` (`nk` blocks) into slots `0..16 nk` of `out`:
/// word `w` squared lands at word `2 w` (the cross terms cancel).
#[inline]
#[target_feature(enable = "avx2,pclmulqdq")]
fn sq_kron(a: &Kop, nk: usize, out: &mut [u32]) {
    for (i, x) in a[..nk].iter().enumerate() {
        st4(out, 16 * i, _mm_clmulepi64_si128::<0x00>(x[0], x[0]));
        st4(out, 16 * i + 4, _mm_clmulepi64_si128::<0x11>(x[0], x[0]));
        st4(out, 16 * i + 8, _mm_clmulepi64_si128::<0x00>(x[1], x[1]));
        st4(out, 16 * i + 12, _mm_clmulepi64_si128::<0x11>(x[1], x[1]));
    }
}

/// Reduces 32-bit lanes (at most 2m - 1 bits) modulo the field
/// polynomial (same folding as `gf::reduce`).
#[inline]
#[target_feature(enable = "avx2")]
fn reduce32(m: usize, mut v: __m256i) -> __m256i {
    if m == 12 {
        for hm in [0x7F_C000, 0x3000] {
            let h = and(v, _mm256_set1_epi32(hm));
            v = xor(
                v,
                xor(_mm256_srli_epi32::<9>(h), _mm256_srli_epi32::<12>(h)),
            );
        }
        and(v, _mm256_set1_epi32(0xFFF))
    } else {
        for hm in [0x1FF_0000, 0xE000] {
            let h = and(v, _mm256_set1_epi32(hm));
            let a = xor(_mm256_srli_epi32::<9>(h), _mm256_srli_epi32::<10>(h));
            let b = xor(_mm256_srli_epi32::<12>(h), _mm256_srli_epi32::<13>(h));
            v = xor(v, xor(a, b));
        }
        and(v, _mm256_set1_epi32(0x1FFF))
    }
}

/// `c v` in every (reduced) 32-bit lane, `c` a public constant.
#[inline]
#[target_feature(enable = "avx2")]
fn mulc32(m: usize, mut v: __m256i, c: u16) -> __m256i {
    let mut r = _mm256_setzero_si256();
    let cnt = _mm_cvtsi32_si128(m as i32 - 1);
    let low = _mm256_set1_epi32((1 << m) - 1);
    let p = _mm256_set1_epi32(i32::from(poly_low(m)));
    for b in 0..m {
        if (c >> b) & 1 == 1 {
            r = xor(r, v);
        }
        let top = _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_srl_epi32(v, cnt));
        v = xor(and(_mm256_slli_epi32::<1>(v), low), and(top, p));
    }
    r
}

/// Reduces the product in `sl` (`16 nk` slots, unreduced) to `a b mod F`
/// in slots `0..t`: every slot modulo the field polynomial, then the
/// slots from t down folded by `y^t = sum c y^e`, eight at a time from the
/// top (a chunk at `t + 8u` only feeds positions below `t + 8u`, since
/// every `e + 8 <= t`, so it is complete when its turn comes).
#[inline]
#[target_feature(enable = "avx2")]
fn reduce_prod<P: ParameterSet>(sl: &mut [u32; NS], nk: usize) {
    let (m, t) = (P::M, P::T);
    for k in 0..2 * nk {
        let v = ld8(sl, 8 * k);
        st8(sl, 8 * k, reduce32(m, v));
    }
    for u in (0..(t - 1).div_ceil(8)).rev() {
        let v = ld8(sl, t + 8 * u);
        for &(e, c) in P::FPOLY {
            let w = if c == 1 { v } else { mulc32(m, v, c) };
            let d = 8 * u + e;
            let x = xor(ld8(sl, d), w);
            st8(sl, d, x);
        }
    }
}

/// Step 1 of `genpoly` (see `Backend::gp_powers`), with PCLMULQDQ:
/// `f^(2k) = (f^k)^2` (column `k` read back), `f^(2k+1) = f^(2k) f`.
#[target_feature(enable = "avx2,pclmulqdq")]
pub(super) fn powers<P: ParameterSet>(f: &[u16], mat: &mut [u8]) {
    let t = P::T;
    let st = stride::<P>();
    let nk = t.div_ceil(8);
    let z = _mm_setzero_si128();
    let (mut fk, mut ak) = ([[z; 6]; NK], [[z; 6]; NK]);
    // The current operand (slots from t on stay zero).
    let mut op = Slots([0u32; MAX_T]);
    let mut sl = Slots([0u32; NS]);
    set16(mat, 0, 1);
    for (r, &x) in f[..t].iter().enumerate() {
        op.0[r] = u32::from(x);
        set16(&mut mat[r * st..], 1, x);
    }
    prep(&op.0, nk, &mut fk);
    for c in 2..=t {
        if c % 2 == 0 {
            for (r, o) in op.0[..t].iter_mut().enumerate() {
                *o = u32::from(get16(&mat[r * st..], c / 2));
            }
            prep(&op.0, nk, &mut ak);
            sq_kron(&ak, nk, &mut sl.0);
        } else {
            // ak = f^(c-1), prepared below in the previous round.
            mul_kron(&ak, &fk, nk, &mut sl.0);
        }
        reduce_prod::<P>(&mut sl.0, nk);
        for (r, &x) in sl.0[..t].iter().enumerate() {
            set16(&mut mat[r * st..], c, x as u16);
        }
        if c % 2 == 0 && c < t {
            // The next (odd) power multiplies this one by f.
            op.0[..t].copy_from_slice(&sl.0[..t]);
            prep(&op.0, nk, &mut ak);
        }
    }
    wipe128(fk.as_flattened_mut());
    wipe128(ak.as_flattened_mut());
    zeroize::Zeroize::zeroize(&mut op.0);
    zeroize::Zeroize::zeroize(&mut sl.0);
}

// ---------------------------------------------------------------------------
// Elimination.

/// Step 2 of `genpoly` (see `Backend::gp_forward` and
/// `genpoly::forward_portable`, which this mirrors 16 lanes at a time).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn forward<P: ParameterSet>(mat: &mut [u8]) -> u16 {
    let (m, t) = (P::M, P::T);
    let st = stride::<P>();
    let nb = st / 32;
    let z = _mm256_setzero_si256();
    // x[b][k]: block b of (pivot row) x^(m-1-k) (descending, like the
    // mask walk).
    let mut x = [[z; MAX_M]; NB];
    let mut mk = [z; MAX_M];
    let mut fail = 0u16;
    for j in 0..t {
        let b0 = j / 16;
        let (top, rest) = mat[..t * st].split_at_mut((j + 1) * st);
        let rj = &mut top[j * st..];
        // 1. Reference pivot rule: add the next row while the pivot is 0.
        let mut cur = get16(rj, j);
        for rk in rest.chunks_exact(st) {
            // CT: opaque, or LLVM may unswitch the loop on the mask.
            let mask = core::hint::black_box(gf::is_zero_mask(cur));
            let mv = _mm256_set1_epi16(mask as i16);
            for o in (32 * b0..32 * nb).step_by(32) {
                sto(rj, o, xor(ld(rj, o), and(ld(rk, o), mv)));
            }
            cur ^= get16(rk, j) & mask;
        }
        fail |= gf::is_zero_mask(cur);
        // 2. Scale to a unit pivot (inv(0) = 0 when singular: the result
        // is discarded), then tabulate rj x^i.
        let mut s = gf::inv(m, cur);
        let mut cs = [z; MAX_M];
        for c in cs[..m].iter_mut().rev() {
            *c = _mm256_set1_epi16(s as i16);
            s = mulx(m, s);
        }
        for b in b0..nb {
            let xb = &mut x[b];
            let mut u = top_align(m, ld(rj, 32 * b));
            let mut acc = z;
            for &c in &cs[..m] {
                acc = xor(acc, and(_mm256_srai_epi16::<15>(u), c));
                u = _mm256_slli_epi16::<1>(u);
            }
            sto(rj, 32 * b, acc);
            for k in (0..m).rev() {
                xb[k] = acc;
                acc = mulx16(m, acc);
            }
        }
        // 3. Clear column j below: rk ^= rk[j] rj.
        for rk in rest.chunks_exact_mut(st) {
            let tk = get16(rk, j);
            let mut u = top_align(m, _mm256_set1_epi16(tk as i16));
            for w in &mut mk[..m] {
                *w = _mm256_srai_epi16::<15>(u);
                u = _mm256_slli_epi16::<1>(u);
            }
            for b in b0..nb {
                let xb = &x[b];
                let mut acc = ld(rk, 32 * b);
                for (&a, &c) in mk[..m].iter().zip(&xb[..m]) {
                    acc = xor(acc, and(a, c));
                }
                sto(rk, 32 * b, acc);
            }
        }
        wipe256(&mut cs);
    }
    wipe256(x.as_flattened_mut());
    wipe256(&mut mk);
    fail
}

/// Step 3 of `genpoly` (see `Backend::gp_back` and
/// `genpoly::back_portable`).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn back<P: ParameterSet>(mat: &[u8], out: &mut [u16]) {
    let (m, t) = (P::M, P::T);
    let st = stride::<P>();
    let nb = st / 32;
    // gx[b][k]: lanes 16 b.. of (g_c x^(m-1-k))_c, lanes c > j known
    // (lane t: g_t = 1), the others zero.
    let mut gx = [[[0u16; 16]; MAX_M]; NB];
    let put = |gx: &mut [[[u16; 16]; MAX_M]; NB], c: usize, mut v: u16| {
        for p in gx[c / 16][..m].iter_mut().rev() {
            p[c % 16] = v;
            v = mulx(m, v);
        }
    };
    put(&mut gx, t, 1);
    for j in (0..t).rev() {
        let row = &mat[j * st..(j + 1) * st];
        let mut acc = _mm256_setzero_si256();
        for b in (j + 1) / 16..nb {
            let gb = &gx[b];
            let mut u = top_align(m, ld(row, 32 * b));
            for g in &gb[..m] {
                // SAFETY: `g` has 32 readable bytes; unaligned load.
                let gv = unsafe { _mm256_loadu_si256(g.as_ptr().cast()) };
                acc = xor(acc, and(_mm256_srai_epi16::<15>(u), gv));
                u = _mm256_slli_epi16::<1>(u);
            }
        }
        let mut h = _mm_xor_si128(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        h = _mm_xor_si128(h, _mm_srli_si128::<8>(h));
        h = _mm_xor_si128(h, _mm_srli_si128::<4>(h));
        h = _mm_xor_si128(h, _mm_srli_si128::<2>(h));
        let g = _mm_cvtsi128_si32(h) as u16;
        out[j] = g;
        put(&mut gx, j, g);
    }
    zeroize::Zeroize::zeroize(gx.as_flattened_mut().as_flattened_mut());
}
