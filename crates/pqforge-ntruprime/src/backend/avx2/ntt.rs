//! The AVX2 product in R/m by number-theoretic transforms: the exact
//! integer convolution of the two operands modulo the primes 7681 and
//! 10753, joined by the CRT, then reduced modulo q (or 3).
//!
//! * Size. Both primes are 1 mod 1536 = 3 · 512, so each has a primitive
//!   1536th root of unity ω and Z_P[x]/(x^1536 - 1) splits completely.
//!   For p ≤ 768 (sntrup653, sntrup761) the product has at most 1535
//!   coefficients, so the cyclic product of length 1536 is the plain one.
//!   Longer operands (p up to 1277) are cut in two halves of h ≤ 640
//!   coefficients: a = a0 + x^h a1, b = b0 + x^h b1, and the three products
//!   a0·b0, a0·b1 + a1·b0, a1·b1 (each below 1536 coefficients) are formed
//!   in the transformed domain from four forward transforms.
//! * Radix 3. With ρ = ω^512 (a cube root of unity), x^1536 - 1 =
//!   (x^512 - 1)(x^512 - ρ)(x^512 - ρ²): block k of a transformed operand
//!   is a mod (x^512 - ρ^k) = A0 + ρ^k A1 (the operands have at most 1024
//!   coefficients, A2 = 0); the inverse is the 3-point inverse DFT of the
//!   three blocks ([`inv3`]).
//! * Radix 2. Each block is split by x^2m - c² = (x^m - c)(x^m + c) nine
//!   times (Cooley-Tukey: (lo, hi) ↦ (lo + c·hi, lo - c·hi)); block k starts
//!   at c² = ω^(512k), so no twist is needed. The first five levels pair
//!   whole 16-lane vectors; then each group of 16 vectors is transposed so
//!   that the last four levels pair vectors again, with one twiddle per lane
//!   (the transformed operands stay in that layout: the pointwise product
//!   does not care). The inverse runs the Gentleman-Sande butterflies
//!   (u, v) ↦ (u + v, (u - v)/c) in the opposite order, the factor 512 (and
//!   the 3 of the radix-3 step, and Montgomery's 2^-16 of the pointwise
//!   product) removed by one multiplication at the end.
//! * Arithmetic. 16-bit lanes: Montgomery products (`vpmullw` / `vpmulhw`,
//!   twiddles stored as (w·2^16 mod P, that · P^-1 mod 2^16)) and Barrett
//!   reductions (`vpmulhw`, `vpmulhrsw`). Bounds (|x| ≤ B·P): a Montgomery
//!   product by a constant below P/2 in magnitude is below
//!   |x|·P/2^17 + P/2 (under 0.75 P for |x| < 2^15), a Barrett reduction
//!   below 0.51 P. Forward levels add at most 0.75 P to a lane; the lo input
//!   is reduced at levels 2, 5 and 8, so no lane exceeds 2.5 P (P = 10753:
//!   26 900 < 2^15) and the outputs are below 1.25 P. The inverse reduces
//!   its sums at every level (inputs below 0.76 P: a pointwise product of
//!   two outputs is below 1.25² P²/2^16 + P/2; outputs below 0.65 P).
//! * CRT. With r1 ≡ X (mod 7681), r2 ≡ X (mod 10753), both below 0.51 P,
//!   u = (r2 - r1)·7681^-1 mod 10753 (one Montgomery product, |u| < 0.6 ·
//!   10753) gives X = r1 + 7681·u exactly: the true coefficient of the
//!   folded product has |X| ≤ 3·p·4000 < 15.4·10^6, and |r1 + 7681·u| <
//!   49.6·10^6 < 7681·10753 - 15.4·10^6, so the two agree (their difference
//!   is a multiple of 7681·10753). Then X mod m = r1 + (7681 mod m)·u mod m,
//!   one more Montgomery product modulo m and an exact centered reduction.
//!
//! The fold by x^p = x + 1 happens modulo each prime before the CRT, so
//! only p coefficients are joined. Everything is data-independent: loop
//! bounds and offsets depend on p only.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_and_si256, _mm256_cmpgt_epi16, _mm256_mulhi_epi16,
    _mm256_mulhrs_epi16, _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_setr_epi16,
    _mm256_setzero_si256, _mm256_sub_epi16,
};

use pqforge_core::ct;
use pqforge_core::transpose::transpose16;

use super::{load, opaque, store};
use crate::arith::{Modulus, div_public};
use crate::params::ParameterSet;

/// The length of one radix-2 transform.
const N: usize = 512;
/// The cyclic length: three blocks of [`N`].
const L: usize = 3 * N;
/// The longest padded operand: sntrup1277's 1277 coefficients rounded up
/// to two halves of 640.
const MAXN: usize = 1280;

/// The first prime (7681 = 5 · 1536 + 1).
const P1: u32 = 7681;
/// The second prime (10753 = 7 · 1536 + 1).
const P2: u32 = 10753;

/// A Montgomery multiplier: (w, w · P^-1 mod 2^16), so that
/// `mont(x, pair)` = x · w · 2^-16 mod P.
type Pair = [i16; 2];

/// `a · b mod m` for public values below 2^32 (compile time only).
const fn mulmod(a: u64, b: u64, m: u64) -> u64 {
    let x = a * b;
    x - m * div_public(x, m)
}

/// `b^e mod m` (compile time only).
const fn powmod(b: u64, mut e: u64, m: u64) -> u64 {
    let (mut r, mut b) = (1, b);
    while e > 0 {
        if e & 1 == 1 {
            r = mulmod(r, b, m);
        }
        b = mulmod(b, b, m);
        e >>= 1;
    }
    r
}

/// m^-1 mod 2^16 for odd m (Newton's iteration, as `Montgomery::new`).
const fn inv16(m: u32) -> i16 {
    let mu = m as u16;
    let mut x = mu;
    let mut i = 0;
    while i < 4 {
        x = x.wrapping_mul(2u16.wrapping_sub(mu.wrapping_mul(x)));
        i += 1;
    }
    assert!(mu.wrapping_mul(x) == 1);
    x as i16
}

/// The Montgomery multiplier for the residue `x` (in [0, m)): its
/// centered value and that times m^-1 mod 2^16.
const fn pair(x: u64, m: u32) -> Pair {
    let w = if x > (m as u64 - 1) / 2 {
        x as i64 - m as i64
    } else {
        x as i64
    } as i16;
    [w, w.wrapping_mul(inv16(m))]
}

/// The forward twiddle exponent of a node x^2m - ω^e: ω^(e/2).
const fn fwd(e: usize) -> usize {
    e >> 1
}

/// The inverse twiddle exponent of a node x^2m - ω^e: ω^(-e/2).
const fn inv(e: usize) -> usize {
    if e == 0 { 0 } else { L - (e >> 1) }
}

/// The constants and twiddle tables of one prime.
struct Prime {
    p: i16,
    /// P^-1 mod 2^16.
    pinv: i16,
    /// round(2^26 / P), the Barrett multiplier.
    barrett: i16,
    /// Forward twiddles of the five vector levels of each block (node
    /// (s, k) at index 2^s - 1 + k): ω^(e/2) · 2^16 for the node's
    /// modulus x^2m - ω^e.
    fv: [[Pair; 31]; 3],
    /// Inverse twiddles of the vector levels: ω^(-e/2) · 2^16.
    iv: [[Pair; 31]; 3],
    /// Forward twiddles of the four lane levels, per block: for group g
    /// (vectors 16g .. 16g+16), level s and sub-node j, index
    /// 15g + 2^(s-5) - 1 + j; lane t holds node (s, (16g + t)·2^(s-5) + j).
    fl: [[[i16; 16]; 30]; 3],
    /// `fl` times P^-1 mod 2^16.
    flq: [[[i16; 16]; 30]; 3],
    /// Inverse lane twiddles.
    il: [[[i16; 16]; 30]; 3],
    /// `il` times P^-1 mod 2^16.
    ilq: [[[i16; 16]; 30]; 3],
    /// ρ = ω^512 and ρ².
    rho: Pair,
    rho2: Pair,
    /// 2^32 / 1536: undoes the pointwise 2^-16, the 512 of the inverse
    /// radix-2 levels and the 3 of the inverse radix-3 step.
    scale: Pair,
}

impl Prime {
    const fn new(p: u32) -> Self {
        let pp = p as u64;
        assert!(div_public(pp - 1, L as u64) * L as u64 == pp - 1);
        // A primitive 1536th root: g^((P-1)/1536) of order exactly 1536.
        let mut g = 2;
        let omega = loop {
            let w = powmod(g, div_public(pp - 1, L as u64), pp);
            if powmod(w, 768, pp) != 1 && powmod(w, 512, pp) != 1 {
                break w;
            }
            g += 1;
        };
        let r = mulmod(1 << 16, 1, pp);
        // pw[i] = ω^i · 2^16 mod P.
        let mut pw = [0u64; L];
        let mut i = 0;
        let mut x = r;
        while i < L {
            pw[i] = x;
            x = mulmod(x, omega, pp);
            i += 1;
        }
        let mut t = Self {
            p: p as i16,
            pinv: inv16(p),
            barrett: div_public((1 << 26) + (pp >> 1), pp) as i16,
            fv: [[[0; 2]; 31]; 3],
            iv: [[[0; 2]; 31]; 3],
            fl: [[[0; 16]; 30]; 3],
            flq: [[[0; 16]; 30]; 3],
            il: [[[0; 16]; 30]; 3],
            ilq: [[[0; 16]; 30]; 3],
            rho: pair(pw[512], p),
            rho2: pair(pw[1024], p),
            scale: pair(
                mulmod(mulmod(r, r, pp), powmod(L as u64, pp - 2, pp), pp),
                p,
            ),
        };
        let mut blk = 0;
        while blk < 3 {
            // e[2^s - 1 + k]: node (s, k) is x^(512 >> s) - ω^e; its
            // children are x^m - ω^(e/2) and x^m + ω^(e/2) = x^m - ω^(e/2 + 768).
            let mut e = [0usize; N - 1];
            e[0] = N * blk;
            let mut idx = 0;
            while idx < (N >> 1) - 1 {
                assert!(e[idx] & 1 == 0);
                let h = e[idx] >> 1;
                e[2 * idx + 1] = h;
                e[2 * idx + 2] = if h + 768 >= L { h + 768 - L } else { h + 768 };
                idx += 1;
            }
            let mut idx = 0;
            while idx < 31 {
                t.fv[blk][idx] = pair(pw[fwd(e[idx])], p);
                t.iv[blk][idx] = pair(pw[inv(e[idx])], p);
                idx += 1;
            }
            let mut g = 0;
            while g < 2 {
                let mut s = 5;
                while s < 9 {
                    let nsub = 1 << (s - 5);
                    let mut j = 0;
                    while j < nsub {
                        let li = 15 * g + nsub - 1 + j;
                        let mut lane = 0;
                        while lane < 16 {
                            let node = (1 << s) - 1 + (16 * g + lane) * nsub + j;
                            let [w, wq] = pair(pw[fwd(e[node])], p);
                            t.fl[blk][li][lane] = w;
                            t.flq[blk][li][lane] = wq;
                            let [w, wq] = pair(pw[inv(e[node])], p);
                            t.il[blk][li][lane] = w;
                            t.ilq[blk][li][lane] = wq;
                            lane += 1;
                        }
                        j += 1;
                    }
                    s += 1;
                }
                g += 1;
            }
            blk += 1;
        }
        t
    }
}

/// The tables of 7681.
static T1: Prime = Prime::new(P1);
/// The tables of 10753.
static T2: Prime = Prime::new(P2);

/// The constants of the last step modulo m (q or 3): the Montgomery
/// multiplier of 7681 mod m, and the exact centered reduction.
struct Last {
    m: i16,
    /// (7681 · 2^16 mod m) as a multiplier: mont(u, c) ≡ 7681·u (mod m).
    c: Pair,
    /// round(2^15 / m) (see [`Center`]).
    v: i16,
}

impl Last {
    const fn new(m: i32) -> Self {
        let mu = m as u64;
        Self {
            m: m as i16,
            c: pair(mulmod(P1 as u64, 1 << 16, mu), m as u32),
            v: round_recip(m),
        }
    }
}

/// round(2^15 / m) (compile time only).
const fn round_recip(m: i32) -> i16 {
    div_public((1 << 15) + (m as u64 >> 1), m as u64) as i16
}

/// 7681^-1 · 2^16 mod 10753 as a multiplier.
const CRT: Pair = pair(
    mulmod(
        powmod(P1 as u64, P2 as u64 - 2, P2 as u64),
        1 << 16,
        P2 as u64,
    ),
    P2,
);

/// The broadcast constants of one prime.
#[derive(Clone, Copy)]
struct Consts {
    p: __m256i,
    pinv: __m256i,
    barrett: __m256i,
    /// 2^5: `vpmulhrsw` by it is a rounded shift right by 10.
    r32: __m256i,
}

impl Consts {
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new(t: &Prime) -> Self {
        Self {
            p: opaque(_mm256_set1_epi16(t.p)),
            pinv: opaque(_mm256_set1_epi16(t.pinv)),
            barrett: opaque(_mm256_set1_epi16(t.barrett)),
            r32: opaque(_mm256_set1_epi16(32)),
        }
    }
}

/// A broadcast Montgomery multiplier.
#[target_feature(enable = "avx2")]
#[inline]
fn splat(w: Pair) -> (__m256i, __m256i) {
    (
        opaque(_mm256_set1_epi16(w[0])),
        opaque(_mm256_set1_epi16(w[1])),
    )
}

/// x · w · 2^-16 mod P, below |x|·|w|/2^16 + P/2 (wq = w · P^-1 mod 2^16):
/// t = x·wq mod 2^16 makes x·w - t·P ≡ 0 mod 2^16, so the difference of
/// the high halves is exact.
#[target_feature(enable = "avx2")]
#[inline]
fn mont(x: __m256i, w: __m256i, wq: __m256i, p: __m256i) -> __m256i {
    _mm256_sub_epi16(
        _mm256_mulhi_epi16(x, w),
        _mm256_mulhi_epi16(_mm256_mullo_epi16(x, wq), p),
    )
}

/// x - P · round(x / P) (Barrett: ⌊x·v/2^16⌋ then a rounded shift by 10,
/// v = round(2^26/P); the estimate is within 0.51 of x/P), so below 0.51 P.
#[target_feature(enable = "avx2")]
#[inline]
fn barrett(x: __m256i, k: &Consts) -> __m256i {
    let t = _mm256_mulhrs_epi16(_mm256_mulhi_epi16(x, k.barrett), k.r32);
    _mm256_sub_epi16(x, _mm256_mullo_epi16(t, k.p))
}

/// A Montgomery multiplier in two vectors (value, value · P^-1).
type Tw = (__m256i, __m256i);

/// One forward level on registers: the pairs (i, i + H) of each group of
/// 2H vectors, group `grp` with twiddle `tw[grp]` (constant bounds: fully
/// unrolled); with `RED` the lo input is reduced first.
#[target_feature(enable = "avx2")]
#[inline]
fn fwd_level<const H: usize, const RED: bool, const LEN: usize>(
    r: &mut [__m256i; LEN],
    tw: &[Tw],
    k: &Consts,
) {
    for grp in 0..LEN / (2 * H) {
        let (w, wq) = tw[grp];
        for j in 0..H {
            let (i0, i1) = (2 * grp * H + j, 2 * grp * H + j + H);
            let lo = if RED { barrett(r[i0], k) } else { r[i0] };
            let hi = mont(r[i1], w, wq, k.p);
            r[i0] = _mm256_add_epi16(lo, hi);
            r[i1] = _mm256_sub_epi16(lo, hi);
        }
    }
}

/// One inverse (Gentleman-Sande) level on registers, the pairing of
/// [`fwd_level`]: (u, v) ↦ (u + v reduced, (u - v) · tw).
#[target_feature(enable = "avx2")]
#[inline]
fn inv_level<const H: usize, const LEN: usize>(r: &mut [__m256i; LEN], tw: &[Tw], k: &Consts) {
    for grp in 0..LEN / (2 * H) {
        let (w, wq) = tw[grp];
        for j in 0..H {
            let (i0, i1) = (2 * grp * H + j, 2 * grp * H + j + H);
            let (u, v) = (r[i0], r[i1]);
            r[i0] = barrett(_mm256_add_epi16(u, v), k);
            r[i1] = mont(_mm256_sub_epi16(u, v), w, wq, k.p);
        }
    }
}

/// `N` broadcast twiddles `t[from..from + N]`.
#[target_feature(enable = "avx2")]
#[inline]
fn splats<const M: usize>(t: &[Pair], from: usize) -> [Tw; M] {
    let mut out = [(_mm256_setzero_si256(), _mm256_setzero_si256()); M];
    for (o, &w) in out.iter_mut().zip(&t[from..from + M]) {
        *o = splat(w);
    }
    out
}

/// `M` lane twiddle vectors (values and their P^-1 multiples) from index
/// `from` of a lane table.
#[target_feature(enable = "avx2")]
#[inline]
fn lanes<const M: usize>(w: &[[i16; 16]; 30], wq: &[[i16; 16]; 30], from: usize) -> [Tw; M] {
    let mut out = [(_mm256_setzero_si256(), _mm256_setzero_si256()); M];
    for (i, o) in out.iter_mut().enumerate() {
        *o = (load(&w[from + i], 0), load(&wq[from + i], 0));
    }
    out
}

/// The forward transform of block `blk` (512 words) of `x`, in place;
/// inputs below 1.1 P, outputs below 1.25 P (see the module docs). Two
/// passes over memory: levels 0-2 on the 8 vectors j, j + 4, ..., j + 28
/// (pairs 16, 8, 4 vectors apart); then for each group of 16 vectors,
/// levels 3-4, the transpose and levels 5-8, all in registers.
#[target_feature(enable = "avx2")]
fn ntt(x: &mut [i16], t: &Prime, blk: usize, k: &Consts) {
    assert!(x.len() == N);
    let tv = &t.fv[blk];
    let (t0, t1, t2) = (splats::<1>(tv, 0), splats::<2>(tv, 1), splats::<4>(tv, 3));
    for j in 0..4 {
        let mut r = [_mm256_setzero_si256(); 8];
        for (m, v) in r.iter_mut().enumerate() {
            *v = load(x, (j + 4 * m) * 16);
        }
        fwd_level::<4, false, 8>(&mut r, &t0, k);
        fwd_level::<2, false, 8>(&mut r, &t1, k);
        fwd_level::<1, true, 8>(&mut r, &t2, k);
        for (m, &v) in r.iter().enumerate() {
            store(x, (j + 4 * m) * 16, v);
        }
    }
    for g in 0..2 {
        let mut r = [_mm256_setzero_si256(); 16];
        for (i, v) in r.iter_mut().enumerate() {
            *v = load(x, (16 * g + i) * 16);
        }
        fwd_level::<2, false, 16>(&mut r, &splats::<4>(tv, 7 + 4 * g), k);
        fwd_level::<1, false, 16>(&mut r, &splats::<8>(tv, 15 + 8 * g), k);
        transpose16(&mut r);
        let (w, wq) = (&t.fl[blk], &t.flq[blk]);
        fwd_level::<8, true, 16>(&mut r, &lanes::<1>(w, wq, 15 * g), k);
        fwd_level::<4, false, 16>(&mut r, &lanes::<2>(w, wq, 15 * g + 1), k);
        fwd_level::<2, false, 16>(&mut r, &lanes::<4>(w, wq, 15 * g + 3), k);
        fwd_level::<1, true, 16>(&mut r, &lanes::<8>(w, wq, 15 * g + 7), k);
        for (i, &v) in r.iter().enumerate() {
            store(x, (16 * g + i) * 16, v);
        }
    }
}

/// The inverse of [`ntt`] times 512, in place (the same passes in the
/// opposite order); inputs below 0.76 P, outputs below 0.65 P.
#[target_feature(enable = "avx2")]
fn intt(x: &mut [i16], t: &Prime, blk: usize, k: &Consts) {
    assert!(x.len() == N);
    let tv = &t.iv[blk];
    for g in 0..2 {
        let mut r = [_mm256_setzero_si256(); 16];
        for (i, v) in r.iter_mut().enumerate() {
            *v = load(x, (16 * g + i) * 16);
        }
        let (w, wq) = (&t.il[blk], &t.ilq[blk]);
        inv_level::<1, 16>(&mut r, &lanes::<8>(w, wq, 15 * g + 7), k);
        inv_level::<2, 16>(&mut r, &lanes::<4>(w, wq, 15 * g + 3), k);
        inv_level::<4, 16>(&mut r, &lanes::<2>(w, wq, 15 * g + 1), k);
        inv_level::<8, 16>(&mut r, &lanes::<1>(w, wq, 15 * g), k);
        transpose16(&mut r);
        inv_level::<1, 16>(&mut r, &splats::<8>(tv, 15 + 8 * g), k);
        inv_level::<2, 16>(&mut r, &splats::<4>(tv, 7 + 4 * g), k);
        for (i, &v) in r.iter().enumerate() {
            store(x, (16 * g + i) * 16, v);
        }
    }
    let (t0, t1, t2) = (splats::<1>(tv, 0), splats::<2>(tv, 1), splats::<4>(tv, 3));
    for j in 0..4 {
        let mut r = [_mm256_setzero_si256(); 8];
        for (m, v) in r.iter_mut().enumerate() {
            *v = load(x, (j + 4 * m) * 16);
        }
        inv_level::<1, 8>(&mut r, &t2, k);
        inv_level::<2, 8>(&mut r, &t1, k);
        inv_level::<4, 8>(&mut r, &t0, k);
        for (m, &v) in r.iter().enumerate() {
            store(x, (j + 4 * m) * 16, v);
        }
    }
}

/// The three blocks of `src` (an operand of `src.len()` ≤ 1024 words, a
/// multiple of 16, |src_i| ≤ 4000) modulo x^512 - ρ^k, into `x`, then
/// transformed: block k = A0 + ρ^k A1 with A0, A1 the two halves.
#[target_feature(enable = "avx2")]
fn forward(x: &mut [i16; L], src: &[i16], t: &Prime, k: &Consts) {
    let len = src.len();
    assert!(len.is_multiple_of(16) && len <= 2 * N);
    let (r1, r1q) = splat(t.rho);
    let (r2, r2q) = splat(t.rho2);
    let mut i = 0;
    while i < N {
        // Public lengths decide which words exist.
        let a0 = if i < len {
            load(src, i)
        } else {
            _mm256_setzero_si256()
        };
        let a1 = if N + i < len {
            load(src, N + i)
        } else {
            _mm256_setzero_si256()
        };
        store(x, i, _mm256_add_epi16(a0, a1));
        store(x, N + i, _mm256_add_epi16(a0, mont(a1, r1, r1q, k.p)));
        store(x, 2 * N + i, _mm256_add_epi16(a0, mont(a1, r2, r2q, k.p)));
        i += 16;
    }
    for (blk, xb) in x.chunks_exact_mut(N).enumerate() {
        ntt(xb, t, blk, k);
    }
}

/// Inverse transforms of the three blocks of `x`, then the inverse
/// radix-3 step and the scaling: `x` becomes the cyclic product mod P
/// (below 0.65 P).
#[target_feature(enable = "avx2")]
fn inverse(x: &mut [i16; L], t: &Prime, k: &Consts) {
    for (blk, xb) in x.chunks_exact_mut(N).enumerate() {
        intt(xb, t, blk, k);
    }
    // Block j of the product is Σ_k ρ^(-jk) C_k (times 3): with ρ² =
    // -1 - ρ and t = ρ(C2 - C1), block 1 is C0 - C1 + t and block 2 is
    // C0 - C2 - t. Sums below 1.9 P.
    let (r1, r1q) = splat(t.rho);
    let (s, sq) = splat(t.scale);
    let mut i = 0;
    while i < N {
        let (c0, c1, c2) = (load(x, i), load(x, N + i), load(x, 2 * N + i));
        let tt = mont(_mm256_sub_epi16(c2, c1), r1, r1q, k.p);
        let d0 = _mm256_add_epi16(_mm256_add_epi16(c0, c1), c2);
        let d1 = _mm256_add_epi16(_mm256_sub_epi16(c0, c1), tt);
        let d2 = _mm256_sub_epi16(_mm256_sub_epi16(c0, c2), tt);
        store(x, i, mont(d0, s, sq, k.p));
        store(x, N + i, mont(d1, s, sq, k.p));
        store(x, 2 * N + i, mont(d2, s, sq, k.p));
        i += 16;
    }
}

/// x · y · 2^-16 mod P for two variable vectors.
#[target_feature(enable = "avx2")]
#[inline]
fn mont_mul(x: __m256i, y: __m256i, k: &Consts) -> __m256i {
    mont(x, y, _mm256_mullo_epi16(y, k.pinv), k.p)
}

/// Folds the product `c` (2p - 1 coefficients, then zeros mod P; below
/// 0.65 P each) by x^p = x + 1 into `f` (p16 = p rounded up to 16 words,
/// below 0.51 P): f_i = c_i + c_(i+p) + c_(i+p-1), the last term absent
/// for i = 0.
#[target_feature(enable = "avx2")]
fn fold(f: &mut [i16], c: &[i16], p: usize, k: &Consts) {
    // All lanes but the first.
    let not0 = _mm256_setr_epi16(
        0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    );
    let mut i = 0;
    while i < p {
        let mut t = load(c, i + p - 1);
        if i == 0 {
            t = _mm256_and_si256(t, not0);
        }
        let s = _mm256_add_epi16(_mm256_add_epi16(load(c, i), load(c, i + p)), t);
        store(f, i, barrett(s, k));
        i += 16;
    }
}

/// The product mod P of one prime, folded into `f`: one chunk (p ≤ 768).
#[target_feature(enable = "avx2")]
fn product1(f: &mut [i16], a: &[i16], b: &[i16], p: usize, t: &Prime) {
    let k = Consts::new(t);
    let mut x = [0i16; L];
    let mut y = [0i16; L];
    forward(&mut x, a, t, &k);
    forward(&mut y, b, t, &k);
    let mut i = 0;
    while i < L {
        let v = mont_mul(load(&x, i), load(&y, i), &k);
        store(&mut x, i, v);
        i += 16;
    }
    inverse(&mut x, t, &k);
    fold(f, &x, p, &k);
    ct::wipe(&mut x);
    ct::wipe(&mut y);
}

/// The product mod P of one prime, folded into `f`: two chunks of `h`
/// words (a = a0 + x^h a1, the same for b).
#[target_feature(enable = "avx2")]
fn product2<const C: usize>(f: &mut [i16], a: &[i16], b: &[i16], p: usize, h: usize, t: &Prime) {
    assert!(a.len() == 2 * h && b.len() == 2 * h && 4 * h <= C);
    let k = Consts::new(t);
    let mut x0 = [0i16; L];
    let mut x1 = [0i16; L];
    let mut y0 = [0i16; L];
    let mut y1 = [0i16; L];
    forward(&mut x0, &a[..h], t, &k);
    forward(&mut x1, &a[h..], t, &k);
    forward(&mut y0, &b[..h], t, &k);
    forward(&mut y1, &b[h..], t, &k);
    // x0 ← a0·b0, x1 ← a0·b1 + a1·b0 (reduced: the sum of two products
    // is below 1.5 P), y0 ← a1·b1.
    let mut i = 0;
    while i < L {
        let (u0, u1, v0, v1) = (load(&x0, i), load(&x1, i), load(&y0, i), load(&y1, i));
        store(&mut x0, i, mont_mul(u0, v0, &k));
        let mid = _mm256_add_epi16(mont_mul(u0, v1, &k), mont_mul(u1, v0, &k));
        store(&mut x1, i, barrett(mid, &k));
        store(&mut y0, i, mont_mul(u1, v1, &k));
        i += 16;
    }
    inverse(&mut x0, t, &k);
    inverse(&mut x1, t, &k);
    inverse(&mut y0, t, &k);
    // c = x0 + x^h x1 + x^2h y0, each part 2h words long (the rest of
    // each block is zero mod P); at most two parts overlap (below 1.3 P).
    let mut c = [0i16; C];
    let mut i = 0;
    while i < 4 * h {
        let mut s = _mm256_setzero_si256();
        if i < 2 * h {
            s = load(&x0, i);
        }
        if i >= h && i < 3 * h {
            s = _mm256_add_epi16(s, load(&x1, i - h));
        }
        if i >= 2 * h {
            s = _mm256_add_epi16(s, load(&y0, i - 2 * h));
        }
        store(&mut c, i, barrett(s, &k));
        i += 16;
    }
    fold(f, &c[..4 * h], p, &k);
    ct::wipe(&mut x0);
    ct::wipe(&mut x1);
    ct::wipe(&mut y0);
    ct::wipe(&mut y1);
    ct::wipe(&mut c);
}

/// The product mod the prime of `t`, folded into `f` (below 0.51 P): one
/// chunk for p ≤ 768, else two halves (p = `P::P`, a constant: each
/// instantiation holds one of the two frames only).
#[target_feature(enable = "avx2")]
fn product<P: ParameterSet, const C: usize>(f: &mut [i16], a: &[i16], b: &[i16], t: &Prime) {
    let p = P::P;
    if p <= 768 {
        let p16 = (p + 15) & !15;
        product1(f, &a[..p16], &b[..p16], p, t);
    } else {
        let h = ((p + 31) & !31) / 2;
        product2::<C>(f, &a[..2 * h], &b[..2 * h], p, h, t);
    }
}

/// The constants of an exact centered reduction modulo m (a multiple of
/// m subtracted from |y| < 2^15): m, v = round(2^15/m) (from
/// [`round_recip`], at compile time), (m-1)/2, -(m-1)/2.
struct Center {
    m: __m256i,
    v: __m256i,
    half: __m256i,
    nhalf: __m256i,
}

impl Center {
    #[target_feature(enable = "avx2")]
    #[inline]
    fn new(m: i16, v: i16) -> Self {
        Self {
            m: opaque(_mm256_set1_epi16(m)),
            v: opaque(_mm256_set1_epi16(v)),
            half: opaque(_mm256_set1_epi16((m - 1) / 2)),
            nhalf: opaque(_mm256_set1_epi16(-(m - 1) / 2)),
        }
    }

    /// y mod m in [-(m-1)/2, (m-1)/2] for |y| < 2^15: t = round(y·v/2^15)
    /// is within 1 of y/m (|v - 2^15/m| ≤ 1/2), so y - t·m is in (-m, m);
    /// one masked correction on each side.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn reduce(&self, y: __m256i) -> __m256i {
        let r = _mm256_sub_epi16(
            y,
            _mm256_mullo_epi16(_mm256_mulhrs_epi16(y, self.v), self.m),
        );
        let r = _mm256_sub_epi16(
            r,
            _mm256_and_si256(_mm256_cmpgt_epi16(r, self.half), self.m),
        );
        _mm256_add_epi16(
            r,
            _mm256_and_si256(_mm256_cmpgt_epi16(self.nhalf, r), self.m),
        )
    }
}

/// `out = a · b` in R/m for set `P` (m = q or 3; |a_i| < 4000, b small):
/// modulo q, the product modulo 7681 and 10753, each folded, then joined
/// (see the module docs). Modulo 3, a is reduced mod 3 first (a·b mod 3
/// is unchanged); then the folded coefficients are below 3p ≤ 3831 <
/// 7681/2, so one prime gives them exactly.
///
/// # Panics
/// If m is neither q nor 3, or a length is not p.
#[target_feature(enable = "avx2")]
pub(super) fn mul_small<P: ParameterSet>(out: &mut [i16], a: &[i16], b: &[i8], m: Modulus) {
    // Working arrays sized for the set (p rounded up to 32; compile-time
    // choice): M words per operand, C = 2M for the two-halves product.
    let p = P::P;
    if p <= 768 {
        mul_small_in::<P, 768, 1536>(out, a, b, m);
    } else if p <= 864 {
        mul_small_in::<P, 864, 1728>(out, a, b, m);
    } else if p <= 960 {
        mul_small_in::<P, 960, 1920>(out, a, b, m);
    } else if p <= 1024 {
        mul_small_in::<P, 1024, 2048>(out, a, b, m);
    } else {
        mul_small_in::<P, MAXN, { 2 * MAXN }>(out, a, b, m);
    }
}

/// [`mul_small`] with operand and result arrays of `M` words (and `C` =
/// 2M for the sum of the half products).
#[target_feature(enable = "avx2")]
fn mul_small_in<P: ParameterSet, const M: usize, const C: usize>(
    out: &mut [i16],
    a: &[i16],
    b: &[i8],
    m: Modulus,
) {
    let p = P::P;
    let p16 = (p + 15) & !15;
    let h2 = (p + 31) & !31;
    assert!(out.len() == p && a.len() == p && b.len() == p && p16 <= M && h2 <= M && C == 2 * M);
    let mut pa = [0i16; M];
    let mut pb = [0i16; M];
    pa[..p].copy_from_slice(a);
    for (o, &v) in pb.iter_mut().zip(b) {
        *o = i16::from(v);
    }
    let mut f1 = [0i16; M];
    // The modulus is public.
    if m.value() == 3 {
        let m3 = Center::new(3, const { round_recip(3) });
        let mut i = 0;
        while i < p16 {
            let v = m3.reduce(load(&pa, i));
            store(&mut pa, i, v);
            i += 16;
        }
        product::<P, C>(&mut f1, &pa, &pb, &T1);
        // Exact: the centered residue mod 7681 is the coefficient.
        let c1 = Center::new(P1 as i16, const { round_recip(P1 as i32) });
        let mut i = 0;
        while i < p16 {
            let v = m3.reduce(c1.reduce(load(&f1, i)));
            store(&mut f1, i, v);
            i += 16;
        }
    } else {
        assert!(m.value() == P::Q);
        let last = const { &Last::new(P::Q) };
        let mut f2 = [0i16; M];
        product::<P, C>(&mut f1, &pa, &pb, &T1);
        product::<P, C>(&mut f2, &pa, &pb, &T2);
        // CRT, then mod q (into f1).
        let p2 = opaque(_mm256_set1_epi16(P2 as i16));
        let (cw, cq) = splat(CRT);
        let mq = Center::new(last.m, last.v);
        let (lw, lq) = splat(last.c);
        let mut i = 0;
        while i < p16 {
            let (r1, r2) = (load(&f1, i), load(&f2, i));
            let u = mont(_mm256_sub_epi16(r2, r1), cw, cq, p2);
            let y = _mm256_add_epi16(r1, mont(u, lw, lq, mq.m));
            store(&mut f1, i, mq.reduce(y));
            i += 16;
        }
        ct::wipe(&mut f2);
    }
    out.copy_from_slice(&f1[..p]);
    ct::wipe(&mut pa);
    ct::wipe(&mut pb);
    ct::wipe(&mut f1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Sntrup653, Sntrup761, Sntrup857, Sntrup953, Sntrup1013, Sntrup1277};
    use std::vec::Vec;

    fn avx2() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
    }

    /// xorshift64.
    fn rng(mut s: u64) -> impl FnMut() -> u64 {
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    #[test]
    fn transpose_is_a_transpose() {
        if !avx2() {
            return;
        }
        let m: Vec<i16> = (0..256).map(|i| i as i16).collect();
        let mut r = [[0i16; 16]; 16];
        // SAFETY: AVX2 is present (checked above).
        unsafe {
            let mut v = [_mm256_setzero_si256(); 16];
            for (i, x) in v.iter_mut().enumerate() {
                *x = load(&m, 16 * i);
            }
            transpose16(&mut v);
            for (i, x) in v.iter().enumerate() {
                store(&mut r[i], 0, *x);
            }
        }
        for (i, row) in r.iter().enumerate() {
            for (j, &x) in row.iter().enumerate() {
                assert_eq!(x, m[16 * j + i], "({i}, {j})");
            }
        }
    }

    /// intt(ntt(x)) = 512·x mod P for every block and both primes, on
    /// inputs at the documented bound.
    #[test]
    fn ntt_round_trip() {
        if !avx2() {
            return;
        }
        let mut next = rng(5);
        for t in [&T1, &T2] {
            let pp = i32::from(t.p);
            for blk in 0..3 {
                for round in 0..4 {
                    let x: Vec<i16> = (0..N)
                        .map(|_| match round {
                            0 => (11 * pp / 10) as i16,
                            1 => (-11 * pp / 10) as i16,
                            _ => ((next() % (2 * pp as u64)) as i32 - pp) as i16,
                        })
                        .collect();
                    let mut y = x.clone();
                    // SAFETY: AVX2 is present (checked above).
                    unsafe {
                        let k = Consts::new(t);
                        ntt(&mut y, t, blk, &k);
                        assert!(y.iter().all(|&v| i32::from(v).abs() < 5 * pp / 4));
                        // Scale to inverse-input size (Montgomery by 1).
                        let one = pair(1, pp as u32);
                        let (w, wq) = splat(one);
                        let mut i = 0;
                        while i < N {
                            let v = mont(load(&y, i), w, wq, k.p);
                            store(&mut y, i, v);
                            i += 16;
                        }
                        intt(&mut y, t, blk, &k);
                    }
                    for (i, (&a, &b)) in x.iter().zip(&y).enumerate() {
                        // y = 512·x·2^-16 mod P.
                        let want = (i64::from(a) * 512 * i64::from(pow_r_inv(pp)))
                            .rem_euclid(i64::from(pp));
                        assert_eq!(
                            i64::from(b).rem_euclid(i64::from(pp)),
                            want,
                            "P={pp} blk={blk} i={i}"
                        );
                    }
                }
            }
        }
    }

    /// 2^-16 mod P.
    fn pow_r_inv(p: i32) -> i32 {
        (1..p)
            .find(|&x| (i64::from(x) * 65536) % i64::from(p) == 1)
            .expect("inverse")
    }

    /// The product by the definition, in 64-bit integers, folded and
    /// reduced mod m (centered).
    fn reference(a: &[i16], b: &[i8], m: i32) -> Vec<i16> {
        let n = a.len();
        let mut prod = std::vec![0i64; 2 * n - 1];
        for (i, &x) in a.iter().enumerate() {
            for (j, &y) in b.iter().enumerate() {
                prod[i + j] += i64::from(x) * i64::from(y);
            }
        }
        for i in (n..2 * n - 1).rev() {
            let t = prod[i];
            prod[i - n] += t;
            prod[i - n + 1] += t;
        }
        let h = i64::from((m - 1) / 2);
        prod[..n]
            .iter()
            .map(|&x| ((x + h).rem_euclid(i64::from(m)) - h) as i16)
            .collect()
    }

    fn product<P: ParameterSet>(seed: u64) {
        let mut next = rng(seed);
        let p = P::P;
        let h = (P::Q - 1) / 2;
        for round in 0..6 {
            // Extremes first: |a_i| = (q-1)/2 against all-±1 b, and the
            // contract's bound 3999 (beyond every q/2).
            let a: Vec<i16> = (0..p)
                .map(|_| match round {
                    0 => h as i16,
                    1 => -h as i16,
                    2 => 3999,
                    3 => -3999,
                    _ => ((next() % P::Q as u64) as i32 - h) as i16,
                })
                .collect();
            let b: Vec<i8> = (0..p)
                .map(|_| match round {
                    0 | 2 => 1,
                    1 | 3 => -1,
                    _ => (next() % 3) as i8 - 1,
                })
                .collect();
            for m in [P::Q, 3] {
                let md = if m == 3 {
                    crate::poly::MOD3
                } else {
                    crate::poly::mod_q::<P>()
                };
                let mut out = std::vec![0i16; p];
                // SAFETY: AVX2 is present (checked by the caller).
                unsafe { mul_small::<P>(&mut out, &a, &b, md) };
                assert_eq!(out, reference(&a, &b, m), "{} m={m} round {round}", P::NAME);
            }
        }
    }

    #[test]
    fn product_matches_definition_all_sets() {
        if !avx2() {
            return;
        }
        product::<Sntrup653>(1);
        product::<Sntrup761>(2);
        product::<Sntrup857>(3);
        product::<Sntrup953>(4);
        product::<Sntrup1013>(5);
        product::<Sntrup1277>(6);
    }
}
