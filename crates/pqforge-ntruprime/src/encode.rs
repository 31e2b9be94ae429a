//! Encodings: small polynomials (four 2-bit fields a byte) and the
//! mixed-radix codec of elements of R/q and of rounded elements.
//!
//! The mixed-radix codec (the submission's `Encode` / `Decode`) works on
//! levels: at each level, consecutive pairs of digits (radices m0, m1)
//! merge into one digit of radix m0·m1, and while that radix is at least
//! 2^14 its low byte is emitted and the radix divided by 256 (rounding up).
//! An odd last digit is carried to the next level unchanged; the final
//! digit is emitted byte by byte until its radix is 1. Within a level every
//! pair has the same radices except possibly the last one, so a level is
//! described by three public numbers (length, common radix, last radix) and
//! the codec runs in place on one digit array, without recursion.
//!
//! Encoding uses only multiplications and shifts. Decoding divides by the
//! public radices with [`Divisor`] (multiplications; the reciprocals by
//! shift and subtract, no hardware division), so it is also constant-time;
//! every byte string decodes (digits are reduced modulo their radix), and
//! canonical strings are those that re-encode to themselves.

use crate::arith::Divisor;
use crate::params::shrink;

/// The most levels any set needs (⌈log2 1277⌉ + 1).
const MAX_LEVELS: usize = 12;

/// One level of the codec: `len` digits, all of radix `m0` except the last
/// (`mlast`); `off` = offset of its first emitted byte; `d0`, `dlast` the
/// divisors by `m0` and `mlast` (decoding).
#[derive(Clone, Copy)]
struct Level {
    len: usize,
    m0: u32,
    mlast: u32,
    off: usize,
    d0: Divisor,
    dlast: Divisor,
}

impl Level {
    /// An unused entry.
    const EMPTY: Self = Self::new(0, 1, 1, 0);

    /// The level (`len`, `m0`, `mlast`, `off`) with its divisors.
    const fn new(len: usize, m0: u32, mlast: u32, off: usize) -> Self {
        Self {
            len,
            m0,
            mlast,
            off,
            d0: Divisor::new(m0),
            dlast: Divisor::new(mlast),
        }
    }
}

/// The levels of the codec of `p` digits of radix `m` (public), with their
/// divisors: a constant per set and radix (`const { &Levels::new(..) }`),
/// so no reciprocal is computed at run time.
#[derive(Clone, Copy)]
pub(crate) struct Levels {
    lv: [Level; MAX_LEVELS],
    /// The number of levels with more than one digit (`lv[n]` is the
    /// one-digit top).
    n: usize,
    /// The number of digits.
    p: usize,
}

impl Levels {
    /// The levels for `p` digits of radix `m`.
    pub(crate) const fn new(p: usize, m: u32) -> Self {
        let mut out = [Level::EMPTY; MAX_LEVELS];
        let (mut len, mut m0, mut mlast, mut off) = (p, m, m, 0usize);
        let mut n = 0;
        while len > 1 {
            out[n] = Level::new(len, m0, mlast, off);
            n += 1;
            let pairs = len / 2;
            let (b_ord, m_ord) = shrink(m0 * m0);
            if len % 2 == 1 {
                off += pairs * b_ord;
            } else {
                let (b_last, m_last) = shrink(m0 * mlast);
                off += (pairs - 1) * b_ord + b_last;
                mlast = m_last;
            }
            m0 = m_ord;
            len = len.div_ceil(2);
        }
        out[n] = Level::new(1, mlast, mlast, off);
        Self { lv: out, n, p }
    }
}

/// Encodes the digits `r` (each below the radix of `lvs`, `r.len()` its
/// digit count) into `out` (exactly the encoding's length). `r` is used as
/// scratch.
pub(crate) fn encode(out: &mut [u8], r: &mut [u16], lvs: &Levels) {
    assert_eq!(r.len(), lvs.p);
    let (lv, n) = (&lvs.lv, lvs.n);
    let mut pos = 0;
    for l in &lv[..n] {
        let pairs = l.len / 2;
        for k in 0..pairs {
            let m1 = if 2 * k + 2 == l.len { l.mlast } else { l.m0 };
            let mut x = u32::from(r[2 * k]) + u32::from(r[2 * k + 1]) * l.m0;
            let mut mm = m1 * l.m0;
            while mm >= 16384 {
                out[pos] = x as u8;
                pos += 1;
                x >>= 8;
                mm = (mm + 255) >> 8;
            }
            r[k] = x as u16;
        }
        if l.len % 2 == 1 {
            r[pairs] = r[l.len - 1];
        }
    }
    let top = lv[n];
    let mut x = r[0];
    let mut mm = top.mlast;
    while mm > 1 {
        out[pos] = x as u8;
        pos += 1;
        x >>= 8;
        mm = (mm + 255) >> 8;
    }
    debug_assert_eq!(pos, out.len());
}

/// Decodes `s` (exactly the encoding's length) into `r.len()` digits, each
/// below the radix of `lvs` (any input decodes). Inlined, so that each
/// backend compiles it for its instruction set.
#[inline(always)]
pub(crate) fn decode(r: &mut [u16], s: &[u8], lvs: &Levels) {
    assert_eq!(r.len(), lvs.p);
    let (lv, n) = (&lvs.lv, lvs.n);
    let top = lv[n];
    let rest = &s[top.off..];
    r[0] = if top.mlast == 1 {
        0
    } else if top.mlast <= 256 {
        top.dlast.divmod(u32::from(rest[0])).1 as u16
    } else {
        let x = u32::from(rest[0]) | u32::from(rest[1]) << 8;
        top.dlast.divmod(x).1 as u16
    };
    for l in lv[..n].iter().rev() {
        let pairs = l.len / 2;
        if l.len % 2 == 1 {
            r[l.len - 1] = r[pairs];
        }
        let (b_ord, _) = shrink(l.m0 * l.m0);
        // Two reciprocals per level (public radices), precomputed.
        let (d0, dlast) = (l.d0, l.dlast);
        // The last pair has radices (m0, mlast) when the length is even.
        let mut ordinary = pairs;
        if l.len % 2 == 0 {
            ordinary -= 1;
            let k = pairs - 1;
            let (nb, _) = shrink(l.m0 * l.mlast);
            decode_pair(r, k, &s[l.off + k * b_ord..][..nb], d0, dlast);
        }
        debug_assert!(b_ord <= 2, "radices below 2^14 merge into at most 2 bytes");
        // The ordinary pairs, with their byte count fixed per level (the
        // byte loop unrolled for each count).
        match b_ord {
            0 => decode_pairs::<0>(r, ordinary, &s[l.off..], d0),
            1 => decode_pairs::<1>(r, ordinary, &s[l.off..], d0),
            _ => decode_pairs::<2>(r, ordinary, &s[l.off..], d0),
        }
    }
}

/// Digits 2k and 2k + 1 from digit k and the pair's bytes `b` (most
/// significant last): x = r\[k\]·256^|b| + b, divided by the radices.
#[inline(always)]
fn decode_pair(r: &mut [u16], k: usize, b: &[u8], d0: Divisor, d1: Divisor) {
    let mut x = u32::from(r[k]);
    for &byte in b.iter().rev() {
        x = (x << 8) | u32::from(byte);
    }
    let (q, r0) = d0.divmod(x);
    // Only a non-canonical input can give a quotient ≥ m1.
    let r1 = d1.divmod(q).1;
    r[2 * k] = r0 as u16;
    r[2 * k + 1] = r1 as u16;
}

/// [`decode_pair`] for pairs k = count − 1, …, 0 of radices (m0, m0), NB
/// bytes each, downwards (digit k is read before a pair overwrites it):
/// eight pairs at a time (all eight digits read, then divided lane by
/// lane: the loops vectorize where the caller is compiled for a SIMD
/// backend), the lowest count mod 8 one by one.
#[inline(always)]
fn decode_pairs<const NB: usize>(r: &mut [u16], count: usize, s: &[u8], d0: Divisor) {
    let mut k = count;
    while k >= 8 {
        k -= 8;
        let mut x = [0u32; 8];
        for (i, xi) in x.iter_mut().enumerate() {
            *xi = u32::from(r[k + i]);
            for j in (0..NB).rev() {
                *xi = (*xi << 8) | u32::from(s[(k + i) * NB + j]);
            }
        }
        let mut out = [0u16; 16];
        for (i, &xi) in x.iter().enumerate() {
            let (q, r0) = d0.divmod(xi);
            out[2 * i] = r0 as u16;
            out[2 * i + 1] = d0.divmod(q).1 as u16;
        }
        r[2 * k..2 * k + 16].copy_from_slice(&out);
    }
    for k in (0..k).rev() {
        let b: &[u8; NB] = s[k * NB..k * NB + NB].try_into().expect("NB bytes");
        decode_pair(r, k, b, d0, d0);
    }
}

/// Small_encode: coefficients in {-1, 0, 1} as 2-bit fields (value + 1),
/// four a byte, the last byte holding the one remaining coefficient (p ≡ 1
/// mod 4).
///
/// Indexes by shifts, not `chunks(4)`: at opt-level "z" the chunk count
/// (`usize::div_ceil`) stays an out-of-line `udiv` on the Cortex-M4.
pub(crate) fn small_encode(out: &mut [u8], f: &[i8]) {
    let n = f.len();
    for (i, o) in out.iter_mut().enumerate() {
        let base = i << 2;
        if base >= n {
            break;
        }
        let k = (n - base).min(4);
        let mut x = 0u8;
        for (j, &v) in f[base..base + k].iter().enumerate() {
            x |= ((v + 1) as u8) << (2 * j);
        }
        *o = x;
    }
}

/// Small_decode: the inverse of [`small_encode`] on canonical input; a
/// field 3 decodes to 2 and bits past the last coefficient are ignored, as
/// in the reference. Returns 0 if the input was canonical (no field 3, no
/// stray bits), else nonzero: computed without branches (secret keys).
///
/// Indexes by shifts, as [`small_encode`].
pub(crate) fn small_decode(f: &mut [i8], s: &[u8]) -> u8 {
    let mut bad = 0u8;
    let len = f.len();
    for (i, &b) in s.iter().enumerate() {
        let base = i << 2;
        if base >= len {
            break;
        }
        let n = (len - base).min(4);
        for (j, v) in f[base..base + n].iter_mut().enumerate() {
            let x = (b >> (2 * j)) & 3;
            bad |= x & (x >> 1); // field 3
            *v = x as i8 - 1;
        }
        if n < 4 {
            bad |= b >> (2 * n);
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::encoded_len;

    fn lcg(s: &mut u64) -> u32 {
        *s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*s >> 33) as u32
    }

    #[test]
    fn codec_round_trip() {
        let mut seed = 1u64;
        for (p, m) in [
            (761usize, 4591u32),
            (761, 1531),
            (653, 4621),
            (1277, 7879),
            (1277, 2627),
            (1, 4591),
            (2, 300),
            (3, 7),
            (5, 4591),
        ] {
            let len = encoded_len(p, m);
            let mut r = std::vec![0u16; p];
            for v in &mut r {
                *v = (lcg(&mut seed) % m) as u16;
            }
            let mut out = std::vec![0u8; len];
            let mut work = r.clone();
            let lvs = Levels::new(p, m);
            encode(&mut out, &mut work, &lvs);
            let mut back = std::vec![0u16; p];
            decode(&mut back, &out, &lvs);
            assert_eq!(back, r, "p={p} m={m}");
            // Arbitrary bytes decode into range.
            for b in &mut out {
                *b = lcg(&mut seed) as u8;
            }
            decode(&mut back, &out, &lvs);
            assert!(back.iter().all(|&d| u32::from(d) < m));
        }
    }

    #[test]
    fn small_round_trip() {
        let f: std::vec::Vec<i8> = (0..761).map(|i| (i % 3) as i8 - 1).collect();
        let mut s = [0u8; 191];
        small_encode(&mut s, &f);
        let mut g = [0i8; 761];
        assert_eq!(small_decode(&mut g, &s), 0);
        assert_eq!(&g[..], &f[..]);
        s[3] |= 0xC0;
        assert_ne!(small_decode(&mut g, &s), 0);
        s[3] &= 0x3F;
        s[190] |= 0x10;
        assert_ne!(small_decode(&mut g, &s), 0);
    }
}
