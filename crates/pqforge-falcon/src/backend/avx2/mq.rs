//! AVX2 NTT and division modulo q = 12289, 16 signed 16-bit lanes.
//!
//! Same transform as the portable [`crate::mq::ntt`] / [`crate::mq::intt`]
//! (Cooley-Tukey forward, Gentleman-Sande inverse, bit-reversed twiddles
//! `GMB` / `IGMB`, inverse scaled by 1/n): inputs and outputs are the same
//! arrays of values in 0..q, so both backends give identical results.
//!
//! Inside, lanes hold signed values and products use signed Montgomery
//! multiplication with R = 2^16 (`mulhi`/`mullo`): for |a| < 2^15 and
//! |b| <= q/2 the result lies in (-0.75 q, 0.75 q). Forward butterflies
//! grow the bound by at most 0.75 q per layer, so a Barrett reduction
//! (to about (-q/2, q/2)) after layers 2, 5, 8 keeps every lane below
//! 2^15 (worst case about 2.3 q). The inverse reduces the sums after every
//! layer.
//!
//! Distances 16 and above are plain vector butterflies with a broadcast
//! twiddle. Distances 8, 4, 2 and 1 stay inside one register: `u` holds
//! the "b" element of each pair in both positions, `v` the "a" element,
//! and a per-lane twiddle vector (with the sign folded in) turns the
//! butterfly into one `v + mont(u, z)`.
//!
//! CT: no data-dependent branch or index (the NTT also runs on the secret
//! f, g, F in key generation).

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_and_si256, _mm256_loadu_si256, _mm256_mulhi_epi16,
    _mm256_mulhrs_epi16, _mm256_mullo_epi16, _mm256_permute4x64_epi64, _mm256_set1_epi16,
    _mm256_setr_epi8, _mm256_setr_epi16, _mm256_shuffle_epi8, _mm256_shuffle_epi32,
    _mm256_sign_epi16, _mm256_srai_epi16, _mm256_storeu_si256, _mm256_sub_epi16,
};

use pqforge_core::cpu::Avx2;

use crate::mq::{GMB, IGMB};

const Q: i16 = 12289;
/// q^-1 mod 2^16, as a signed 16-bit value.
const QINV: i16 = -12287;
/// round(2^26 / q), the Barrett constant.
const BARRETT_V: i16 = 5461;
/// R mod q (Montgomery factor for multiplying by 1).
const R_MOD_Q: i16 = 4091;

/// `x mod q` centred into -q/2..=q/2.
const fn centre(x: u16) -> i16 {
    let x = x as i32;
    (if x > (Q as i32) / 2 { x - Q as i32 } else { x }) as i16
}

/// Per-lane twiddles for the four in-register layers of one size:
/// `[layer][value or value*qinv][lane]`, layers for distances 8, 4, 2, 1.
type LaneTw<const N: usize> = [[[i16; N]; 2]; 4];

/// Forward lane twiddles: lane j of distance d uses GMB[n/(2d) + j/(2d)],
/// negated on the "b" half of its pair.
const fn fwd_lane_tw<const N: usize>() -> LaneTw<N> {
    let mut t = [[[0i16; N]; 2]; 4];
    let mut l = 0;
    while l < 4 {
        let d = 8 >> l;
        let mut j = 0;
        while j < N {
            let z = centre(GMB[N / (2 * d) + j / (2 * d)]);
            let z = if j % (2 * d) < d { z } else { -z };
            t[l][0][j] = z;
            t[l][1][j] = z.wrapping_mul(QINV);
            j += 1;
        }
        l += 1;
    }
    t
}

/// Inverse lane twiddles: R (multiply by one) on the "a" half, IGMB on the
/// "b" half.
const fn inv_lane_tw<const N: usize>() -> LaneTw<N> {
    let mut t = [[[0i16; N]; 2]; 4];
    let mut l = 0;
    while l < 4 {
        let d = 1 << l;
        let mut j = 0;
        while j < N {
            let z = if j % (2 * d) < d {
                R_MOD_Q
            } else {
                centre(IGMB[N / (2 * d) + j / (2 * d)])
            };
            t[l][0][j] = z;
            t[l][1][j] = z.wrapping_mul(QINV);
            j += 1;
        }
        l += 1;
    }
    t
}

static FWD_512: LaneTw<512> = fwd_lane_tw::<512>();
static FWD_1024: LaneTw<1024> = fwd_lane_tw::<1024>();
static INV_512: LaneTw<512> = inv_lane_tw::<512>();
static INV_1024: LaneTw<1024> = inv_lane_tw::<1024>();

/// Loads 16 lanes from `a[i..i + 16]`.
#[inline(always)]
fn load(a: &[u16], i: usize) -> __m256i {
    let s = &a[i..i + 16];
    // SAFETY: `s` holds exactly 16 u16 = 32 bytes; unaligned load.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// Loads 16 lanes from `a[i..i + 16]` (signed table).
#[inline(always)]
fn load_i(a: &[i16], i: usize) -> __m256i {
    let s = &a[i..i + 16];
    // SAFETY: `s` holds exactly 16 i16 = 32 bytes; unaligned load.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// Stores 16 lanes into `a[i..i + 16]`.
#[inline(always)]
fn store(a: &mut [u16], i: usize, x: __m256i) {
    let s = &mut a[i..i + 16];
    // SAFETY: `s` holds exactly 16 u16 = 32 bytes; unaligned store.
    unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), x) }
}

/// Signed Montgomery product a * b / 2^16 mod q, `bq` = b * q^-1 mod 2^16.
#[inline]
#[target_feature(enable = "avx2")]
fn mont(a: __m256i, b: __m256i, bq: __m256i) -> __m256i {
    let hi = _mm256_mulhi_epi16(a, b);
    let m = _mm256_mullo_epi16(a, bq);
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(m, _mm256_set1_epi16(Q)))
}

/// Barrett reduction to about -q/2..=q/2 (any i16 input).
#[inline]
#[target_feature(enable = "avx2")]
fn barrett(a: __m256i) -> __m256i {
    let t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(BARRETT_V));
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(1 << 5));
    _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
}

/// Full reduction to 0..q (any i16 input).
#[inline]
#[target_feature(enable = "avx2")]
fn normalize(a: __m256i) -> __m256i {
    let a = barrett(a);
    let neg = _mm256_srai_epi16::<15>(a);
    _mm256_add_epi16(a, _mm256_and_si256(neg, _mm256_set1_epi16(Q)))
}

/// The "a" (v) and "b" (u) element of each pair, both duplicated over the
/// pair, for in-register distance `8 >> l`.
#[inline]
#[target_feature(enable = "avx2")]
fn split_pairs(x: __m256i, l: usize) -> (__m256i, __m256i) {
    match l {
        0 => (
            _mm256_permute4x64_epi64::<0x44>(x),
            _mm256_permute4x64_epi64::<0xEE>(x),
        ),
        1 => (
            _mm256_shuffle_epi32::<0x44>(x),
            _mm256_shuffle_epi32::<0xEE>(x),
        ),
        2 => (
            _mm256_shuffle_epi32::<0xA0>(x),
            _mm256_shuffle_epi32::<0xF5>(x),
        ),
        _ => {
            let even = _mm256_setr_epi8(
                0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13, 0, 1, 0, 1, 4, 5, 4, 5, 8, 9,
                8, 9, 12, 13, 12, 13,
            );
            let odd = _mm256_setr_epi8(
                2, 3, 2, 3, 6, 7, 6, 7, 10, 11, 10, 11, 14, 15, 14, 15, 2, 3, 2, 3, 6, 7, 6, 7, 10,
                11, 10, 11, 14, 15, 14, 15,
            );
            (_mm256_shuffle_epi8(x, even), _mm256_shuffle_epi8(x, odd))
        }
    }
}

/// Forward NTT of `a` (values 0..q in, 0..q out), `logn` 9 or 10.
pub(crate) fn ntt(_: Avx2, a: &mut [u16], logn: u32) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { ntt_avx2(a, logn) }
}

/// Inverse NTT of `a` (values 0..q in, 0..q out), including the 1/n
/// scaling, `logn` 9 or 10.
pub(crate) fn intt(_: Avx2, a: &mut [u16], logn: u32) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { intt_avx2(a, logn) }
}

/// `x[i] = x[i] / y[i] mod q` (0 where y[i] = 0), values 0..q in and out,
/// `x.len()` a multiple of 16: y^(q-2) by the same fixed addition chain as
/// the portable [`crate::mq::div`]. CT: fixed sequence of operations.
pub(crate) fn div(_: Avx2, x: &mut [u16], y: &[u16]) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { div_avx2(x, y) }
}

#[target_feature(enable = "avx2")]
fn ntt_avx2(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    let lane_tw: &[[&[i16]; 2]; 4] = &if logn == 10 {
        [
            [&FWD_1024[0][0][..], &FWD_1024[0][1][..]],
            [&FWD_1024[1][0][..], &FWD_1024[1][1][..]],
            [&FWD_1024[2][0][..], &FWD_1024[2][1][..]],
            [&FWD_1024[3][0][..], &FWD_1024[3][1][..]],
        ]
    } else {
        [
            [&FWD_512[0][0][..], &FWD_512[0][1][..]],
            [&FWD_512[1][0][..], &FWD_512[1][1][..]],
            [&FWD_512[2][0][..], &FWD_512[2][1][..]],
            [&FWD_512[3][0][..], &FWD_512[3][1][..]],
        ]
    };
    let a = &mut a[..n];
    let mut layer = 1u32;
    let mut m = 1usize;
    let mut d = n >> 1;
    while d >= 16 {
        let red = layer % 3 == 2;
        for i in 0..m {
            let z = centre(GMB[m + i]);
            let zv = _mm256_set1_epi16(z);
            let zq = _mm256_set1_epi16(z.wrapping_mul(QINV));
            let base = i * 2 * d;
            for j in (base..base + d).step_by(16) {
                let x = load(a, j);
                let t = mont(load(a, j + d), zv, zq);
                let mut s = _mm256_add_epi16(x, t);
                let mut r = _mm256_sub_epi16(x, t);
                if red {
                    s = barrett(s);
                    r = barrett(r);
                }
                store(a, j, s);
                store(a, j + d, r);
            }
        }
        layer += 1;
        m <<= 1;
        d >>= 1;
    }
    for (l, tw) in lane_tw.iter().enumerate() {
        let red = layer % 3 == 2;
        let last = layer == logn;
        for j in (0..n).step_by(16) {
            let (v, u) = split_pairs(load(a, j), l);
            let mut x = _mm256_add_epi16(v, mont(u, load_i(tw[0], j), load_i(tw[1], j)));
            if last {
                x = normalize(x);
            } else if red {
                x = barrett(x);
            }
            store(a, j, x);
        }
        layer += 1;
    }
}

#[target_feature(enable = "avx2")]
fn intt_avx2(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    let lane_tw: &[[&[i16]; 2]; 4] = &if logn == 10 {
        [
            [&INV_1024[0][0][..], &INV_1024[0][1][..]],
            [&INV_1024[1][0][..], &INV_1024[1][1][..]],
            [&INV_1024[2][0][..], &INV_1024[2][1][..]],
            [&INV_1024[3][0][..], &INV_1024[3][1][..]],
        ]
    } else {
        [
            [&INV_512[0][0][..], &INV_512[0][1][..]],
            [&INV_512[1][0][..], &INV_512[1][1][..]],
            [&INV_512[2][0][..], &INV_512[2][1][..]],
            [&INV_512[3][0][..], &INV_512[3][1][..]],
        ]
    };
    let a = &mut a[..n];
    // Distances 1, 2, 4, 8: "a" lanes get v + u times R (i.e. reduced),
    // "b" lanes (v - u) times the inverse twiddle.
    let pm = [
        _mm256_setr_epi16(1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1),
        _mm256_setr_epi16(1, 1, -1, -1, 1, 1, -1, -1, 1, 1, -1, -1, 1, 1, -1, -1),
        _mm256_setr_epi16(1, 1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1, -1, -1, -1, -1),
        _mm256_setr_epi16(1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1, -1),
    ];
    for (l, tw) in lane_tw.iter().enumerate() {
        for j in (0..n).step_by(16) {
            let (v, u) = split_pairs(load(a, j), 3 - l);
            let s = _mm256_add_epi16(v, _mm256_sign_epi16(u, pm[l]));
            store(a, j, mont(s, load_i(tw[0], j), load_i(tw[1], j)));
        }
    }
    let mut d = 16usize;
    while d < n {
        let hm = n / (2 * d);
        for i in 0..hm {
            let z = centre(IGMB[hm + i]);
            let zv = _mm256_set1_epi16(z);
            let zq = _mm256_set1_epi16(z.wrapping_mul(QINV));
            let base = i * 2 * d;
            for j in (base..base + d).step_by(16) {
                let x = load(a, j);
                let y = load(a, j + d);
                store(a, j, barrett(_mm256_add_epi16(x, y)));
                store(a, j + d, mont(_mm256_sub_epi16(x, y), zv, zq));
            }
        }
        d <<= 1;
    }
    // 1/n in Montgomery form: R / n mod q.
    let mut ni = R_MOD_Q as u32;
    for _ in 0..logn {
        ni = (ni + (Q as u32 & (ni & 1).wrapping_neg())) >> 1;
    }
    let ni = centre(ni as u16);
    let nv = _mm256_set1_epi16(ni);
    let nq = _mm256_set1_epi16(ni.wrapping_mul(QINV));
    for j in (0..n).step_by(16) {
        store(a, j, normalize(mont(load(a, j), nv, nq)));
    }
}

/// Signed Montgomery product of two variable vectors (|a|, |b| < q).
#[inline]
#[target_feature(enable = "avx2")]
fn mont_vv(a: __m256i, b: __m256i) -> __m256i {
    let m = _mm256_mullo_epi16(_mm256_mullo_epi16(a, b), _mm256_set1_epi16(QINV));
    _mm256_sub_epi16(
        _mm256_mulhi_epi16(a, b),
        _mm256_mulhi_epi16(m, _mm256_set1_epi16(Q)),
    )
}

#[target_feature(enable = "avx2")]
fn div_avx2(x: &mut [u16], y: &[u16]) {
    // 2^32 mod q, centred: multiplying by it enters Montgomery form.
    const R2C: i16 = 10952 - Q;
    let r2 = _mm256_set1_epi16(R2C);
    let r2q = _mm256_set1_epi16(R2C.wrapping_mul(QINV));
    for j in (0..x.len()).step_by(16) {
        let y0 = mont(load(y, j), r2, r2q);
        let y1 = mont_vv(y0, y0);
        let y2 = mont_vv(y1, y0);
        let y3 = mont_vv(y2, y1);
        let y4 = mont_vv(y3, y3);
        let y5 = mont_vv(y4, y4);
        let y6 = mont_vv(y5, y5);
        let y7 = mont_vv(y6, y6);
        let y8 = mont_vv(y7, y7);
        let y9 = mont_vv(y8, y2);
        let y10 = mont_vv(y9, y8);
        let y11 = mont_vv(y10, y10);
        let y12 = mont_vv(y11, y11);
        let y13 = mont_vv(y12, y9);
        let y14 = mont_vv(y13, y13);
        let y15 = mont_vv(y14, y14);
        let y16 = mont_vv(y15, y10);
        let y17 = mont_vv(y16, y16);
        let y18 = mont_vv(y17, y0);
        store(x, j, normalize(mont_vv(y18, load(x, j))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::arch::x86_64::_mm256_set1_epi16;

    fn lanes(x: __m256i) -> [i16; 16] {
        // SAFETY: __m256i and [i16; 16] have the same size; any bits valid.
        unsafe { core::mem::transmute(x) }
    }

    /// Barrett and Montgomery bounds over every i16 input.
    #[test]
    fn reductions_exhaustive() {
        if Avx2::detect().is_none() {
            return;
        }
        for x in i16::MIN..=i16::MAX {
            // SAFETY: the token exists (checked above).
            let (b, nz, m) = unsafe {
                let v = _mm256_set1_epi16(x);
                let z = 6144i16;
                (
                    lanes(barrett(v))[0],
                    lanes(normalize(v))[0],
                    lanes(mont(
                        v,
                        _mm256_set1_epi16(z),
                        _mm256_set1_epi16(z.wrapping_mul(QINV)),
                    ))[0],
                )
            };
            let xq = i32::from(x).rem_euclid(12289);
            assert_eq!(i32::from(b).rem_euclid(12289), xq);
            assert!(i32::from(b).abs() <= 6145, "barrett {x} -> {b}");
            assert_eq!(i32::from(nz), xq);
            assert!(i32::from(m).abs() < 9300, "mont {x} -> {m}");
            // m * 2^16 = x * z mod q.
            assert_eq!(
                (i64::from(m) * 65536).rem_euclid(12289),
                (i64::from(x) * 6144).rem_euclid(12289)
            );
        }
    }
}
