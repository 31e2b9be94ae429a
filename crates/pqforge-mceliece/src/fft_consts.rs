//! Public constants of the additive FFT (`fft`, and the AVX2 decryption),
//! computed at compile time for m = 12 and m = 13.
//!
//! The FFT's recursion (see the `fft` module) uses, at depth `l`, the
//! basis `B_l` (`m - l` elements), its last element `s_l = B_l[m-l-1]` (the
//! scaling factor of the radix conversion) and `g_i = B_l[i] / s_l` (the
//! butterfly twiddles). None of these depend on the key, so they are
//! tables here instead of being recomputed (with inversions) on every
//! call.
//!
//! Twiddle layout: the butterfly of depth `l` pairs vectors at distance
//! `half = 2^(lf-1-l)` (`lf = m - 6`) and multiplies by a twiddle that
//! depends on the position `q < half` inside the half-block. The twiddles
//! of one depth are stored as `[q / 4][plane][q % 4]` 64-bit words, so that
//! four consecutive positions form one 256-bit row per plane (the AVX2
//! path loads them directly). For `half < 4` the four columns repeat the
//! `half` twiddles (`q % half`), which is the lane pattern the AVX2 path
//! needs for its in-register butterflies.

use crate::gf::MAX_M;

/// Maximum number of butterfly depths, `m - 6`.
pub(crate) const MAX_LF: usize = MAX_M - 6;
/// Twiddle words for m = 13 (the larger field): 33 rows of 13 planes x 4.
const TW_LEN: usize = 33 * MAX_M * 4;

/// Twiddle words, 32-byte aligned (the AVX2 path reads them as 256-bit
/// rows).
#[repr(C, align(32))]
pub(crate) struct Tw(pub(crate) [u64; TW_LEN]);

/// The FFT constants of one field.
pub(crate) struct FftConsts {
    /// Butterfly twiddles, bitsliced 64-lane vectors (layout above).
    pub(crate) tw: Tw,
    /// Offset of depth `l` in `tw`.
    pub(crate) tw_off: [usize; MAX_LF],
    /// Radix-conversion scaling at depth `l`: coefficient (in-place index)
    /// `i` is multiplied by `s_l^(i >> l)`; bitsliced over `i < 2^(m-5)`
    /// (`[plane][word]`).
    pub(crate) scale: [[[u64; 4]; MAX_M]; MAX_LF],
    /// Bitsliced `sum_{i<6} bit_i(lane) B_lf[i]`: the 64 points of one
    /// vector relative to its first point.
    pub(crate) bottom_span: [u64; MAX_M],
    /// `B_lf[0..6]` as 256-lane bitsliced constants for the AVX2
    /// transposed FFT: register `g`, lane `(k W1 + h) % 4` (`W1 =
    /// 2^(m-12)` words per sum, `h < W1`) is `B_lf[k]` with `k W1 / 4 =
    /// g` (unused lanes 0). Unread where the AVX2 backend is not
    /// compiled in.
    #[allow(dead_code)]
    pub(crate) bottom_lanes: [[[u64; 4]; MAX_M]; 3],
    /// `x^(2^lf)` at the points of vector `v` is
    /// `xt_lane ^ broadcast(xt_high[v])` (the Frobenius map is linear).
    pub(crate) xt_lane: [u64; MAX_M],
    /// See `xt_lane`.
    pub(crate) xt_high: [u16; 1 << MAX_LF],
}

/// The constants for m = 12.
pub(crate) static C12: FftConsts = build(12);
/// The constants for m = 13.
pub(crate) static C13: FftConsts = build(13);

/// The constants for field degree `m` (12 or 13).
#[inline(always)]
pub(crate) fn consts(m: usize) -> &'static FftConsts {
    if m == 12 { &C12 } else { &C13 }
}

/// Field multiplication (compile time only; bit by bit).
const fn cmul(m: usize, a: u16, b: u16) -> u16 {
    let poly: u32 = if m == 12 {
        (1 << 12) | 0b1001
    } else {
        (1 << 13) | 0b1_1011
    };
    let mut r = 0u32;
    let mut i = 0;
    while i < m {
        if (b >> i) & 1 == 1 {
            r ^= (a as u32) << i;
        }
        i += 1;
    }
    let mut i = 2 * m - 2;
    while i >= m {
        if (r >> i) & 1 == 1 {
            r ^= poly << (i - m);
        }
        i -= 1;
    }
    r as u16
}

/// `a^e` (compile time only).
const fn cpow(m: usize, a: u16, mut e: usize) -> u16 {
    let mut r = 1u16;
    let mut x = a;
    while e > 0 {
        if e & 1 == 1 {
            r = cmul(m, r, x);
        }
        x = cmul(m, x, x);
        e >>= 1;
    }
    r
}

/// `1 / a` (compile time only; a != 0).
const fn cinv(m: usize, a: u16) -> u16 {
    cpow(m, a, (1 << m) - 2)
}

/// The bases `B_0 .. B_lf` (row l: `m - l` elements).
const fn bases(m: usize) -> [[u16; MAX_M]; MAX_LF + 1] {
    let mut b = [[0u16; MAX_M]; MAX_LF + 1];
    let mut i = 0;
    while i < m {
        b[0][i] = 1 << (m - 1 - i);
        i += 1;
    }
    let mut l = 0;
    while l < m - 6 {
        let k = m - l;
        let inv = cinv(m, b[l][k - 1]);
        let mut i = 0;
        while i < k - 1 {
            let g = cmul(m, b[l][i], inv);
            b[l + 1][i] = cmul(m, g, g) ^ g;
            i += 1;
        }
        l += 1;
    }
    b
}

/// Bitsliced 64-lane vector whose lane `x` is `sum_{i<6} bit_i(x) v[i] ^ c`.
const fn span64(m: usize, v: &[u16; MAX_M], c: u16) -> [u64; MAX_M] {
    let mut out = [0u64; MAX_M];
    let mut lane = 0;
    while lane < 64 {
        let mut x = c;
        let mut i = 0;
        while i < 6 {
            if (lane >> i) & 1 == 1 {
                x ^= v[i];
            }
            i += 1;
        }
        let mut b = 0;
        while b < m {
            out[b] |= (((x >> b) & 1) as u64) << lane;
            b += 1;
        }
        lane += 1;
    }
    out
}

const fn build(m: usize) -> FftConsts {
    let lf = m - 6;
    let bs = bases(m);
    let mut tw = [0u64; TW_LEN];
    let mut tw_off = [0usize; MAX_LF];
    let mut scale = [[[0u64; 4]; MAX_M]; MAX_LF];
    let mut off = 0;
    let mut l = 0;
    while l < lf {
        let k = m - l;
        let s = bs[l][k - 1];
        let inv = cinv(m, s);
        let mut g = [0u16; MAX_M];
        let mut i = 0;
        while i < k - 1 {
            g[i] = cmul(m, bs[l][i], inv);
            i += 1;
        }
        let half = 1usize << (lf - 1 - l);
        let nq = if half >= 4 { half / 4 } else { 1 };
        tw_off[l] = off;
        let mut qq = 0;
        while qq < nq {
            let mut j = 0;
            while j < 4 {
                let q = (4 * qq + j) % half;
                // High part of the twiddle: the bits of q select g_6...
                let mut hi = 0u16;
                let mut i = 6;
                while i < k - 1 {
                    if (q >> (i - 6)) & 1 == 1 {
                        hi ^= g[i];
                    }
                    i += 1;
                }
                let v = span64(m, &g, hi);
                let mut b = 0;
                while b < m {
                    tw[off + (qq * m + b) * 4 + j] = v[b];
                    b += 1;
                }
                j += 1;
            }
            qq += 1;
        }
        off += nq * m * 4;
        // Scaling: lane i gets s^(i >> l), i < 2^(m-5).
        let mut i = 0;
        while i < 1 << (m - 5) {
            let x = cpow(m, s, i >> l);
            let mut b = 0;
            while b < m {
                scale[l][b][i / 64] |= (((x >> b) & 1) as u64) << (i % 64);
                b += 1;
            }
            i += 1;
        }
        l += 1;
    }
    let mut bottom = [0u16; 6];
    let mut i = 0;
    while i < 6 {
        bottom[i] = bs[lf][i];
        i += 1;
    }
    let mut bottom_lanes = [[[0u64; 4]; MAX_M]; 3];
    let w1 = 1 << (m - 12);
    let mut k = 0;
    while k < 6 {
        let mut h = 0;
        while h < w1 {
            let g = k * w1 / 4;
            let lane = (k * w1) % 4 + h;
            let mut b = 0;
            while b < m {
                bottom_lanes[g][b][lane] = (((bottom[k] >> b) & 1) as u64).wrapping_neg();
                b += 1;
            }
            h += 1;
        }
        k += 1;
    }
    // x^(2^lf) is linear: its value at sum_i bit_i(idx) B_0[i] is
    // sum_i bit_i(idx) B_0[i]^(2^lf).
    let mut fb = [0u16; MAX_M];
    let mut i = 0;
    while i < m {
        fb[i] = cpow(m, bs[0][i], 1 << lf);
        i += 1;
    }
    let xt_lane = span64(m, &fb, 0);
    let mut xt_high = [0u16; 1 << MAX_LF];
    let mut v = 0;
    while v < 1 << lf {
        let mut x = 0u16;
        let mut i = 0;
        while i < lf {
            if (v >> i) & 1 == 1 {
                x ^= fb[6 + i];
            }
            i += 1;
        }
        xt_high[v] = x;
        v += 1;
    }
    FftConsts {
        tw: Tw(tw),
        tw_off,
        scale,
        bottom_span: span64(m, &bs[lf], 0),
        bottom_lanes,
        xt_lane,
        xt_high,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gf;

    #[test]
    fn const_field_ops_match_runtime() {
        for m in [12usize, 13] {
            for a in (1u16..1 << m).step_by(97) {
                for b in (0u16..1 << m).step_by(89) {
                    assert_eq!(cmul(m, a, b), gf::mul(m, a, b));
                }
                assert_eq!(cinv(m, a), gf::inv(m, a));
            }
        }
    }
}
