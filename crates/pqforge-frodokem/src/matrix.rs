//! Matrix arithmetic mod q (in wrapping 16-bit words; entries are reduced
//! mod q only when packed), the error sampler, packing and the message
//! encoding. Portable code written so that it vectorises: the SIMD
//! backends compile the same kernels for their instruction set.

use pqforge_core::sponge::{Shake128, Shake256};
use zeroize::Zeroize;

use crate::params::{NBAR, ParameterSet};

/// SHAKE128 or SHAKE256 (per parameter set) of the concatenation of
/// `parts`, into `out`.
pub(crate) fn shake<P: ParameterSet>(parts: &[&[u8]], out: &mut [u8]) {
    if P::SHAKE256 {
        Shake256::absorb(parts, 0x1F).squeeze(out);
    } else {
        Shake128::absorb(parts, 0x1F).squeeze(out);
    }
}

enum Xof {
    S128(Shake128),
    S256(Shake256),
}

/// The error sampling stream SHAKE(domain ‖ seed_SE), read as
/// little-endian 16-bit words (secret: wiped on drop).
pub(crate) struct SampleStream {
    xof: Xof,
    buf: [u8; 168],
    pos: usize,
    rate: usize,
}

impl Drop for SampleStream {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

impl SampleStream {
    /// The stream for `domain ‖ seed` with the set's SHAKE.
    pub(crate) fn new<P: ParameterSet>(domain: u8, seed: &[u8]) -> Self {
        let d = [domain];
        let (xof, rate) = if P::SHAKE256 {
            (Xof::S256(Shake256::absorb(&[&d, seed], 0x1F)), 136)
        } else {
            (Xof::S128(Shake128::absorb(&[&d, seed], 0x1F)), 168)
        };
        Self {
            xof,
            buf: [0; 168],
            pos: rate,
            rate,
        }
    }

    /// The next `out.len()` words of the stream.
    pub(crate) fn fill(&mut self, out: &mut [u16]) {
        let mut off = 0;
        while off < out.len() {
            if self.pos == self.rate {
                match &mut self.xof {
                    Xof::S128(x) => x.squeeze_block(&mut self.buf[..168]),
                    Xof::S256(x) => x.squeeze_block(&mut self.buf[..136]),
                }
                self.pos = 0;
            }
            let take = core::cmp::min((self.rate - self.pos) / 2, out.len() - off);
            let src = &self.buf[self.pos..self.pos + 2 * take];
            for (i, o) in out[off..off + take].iter_mut().enumerate() {
                *o = u16::from_le_bytes([src[2 * i], src[2 * i + 1]]);
            }
            self.pos += 2 * take;
            off += take;
        }
    }

    /// The next `out.len()` words, sampled from χ.
    pub(crate) fn sample<P: ParameterSet>(&mut self, out: &mut [u16]) {
        self.fill(out);
        sample(out, P::CDF);
    }
}

/// Samples from χ in place: each word's top 15 bits are compared with
/// every table entry but the last (no early exit), its low bit is the
/// sign.
#[inline]
pub(crate) fn sample(x: &mut [u16], cdf: &[u16]) {
    let table = &cdf[..cdf.len() - 1];
    for v in x {
        let prnd = *v >> 1;
        let sign = *v & 1;
        let mut s = 0u16;
        // CT: every entry is compared (no early exit); the comparison is the
        // borrow bit of a 16-bit subtraction, the sign applied arithmetically.
        for &c in table {
            // 1 iff c < prnd (both below 2^15).
            s = s.wrapping_add(c.wrapping_sub(prnd) >> 15);
        }
        *v = (sign.wrapping_neg() ^ s).wrapping_add(sign);
    }
}

/// Packs 8 entries (their low `logq` bits, most significant bit first)
/// into `logq` bytes.
#[inline]
pub(crate) fn pack8(v: &[u16], logq: usize, out: &mut [u8]) {
    if logq == 16 {
        // Indexed, not `chunks_exact_mut(2).zip(v)`: that iterator's length
        // computation is an out-of-line division on the Cortex-M4 at
        // opt-level z (`cargo xtask m4 divscan`).
        for i in 0..8 {
            out[2 * i..2 * i + 2].copy_from_slice(&v[i].to_be_bytes());
        }
    } else {
        let mask = (1u128 << logq) - 1;
        let mut acc = 0u128;
        for &x in &v[..8] {
            acc = (acc << logq) | (u128::from(x) & mask);
        }
        let bytes = acc.to_be_bytes();
        out[..logq].copy_from_slice(&bytes[16 - logq..]);
    }
}

/// Unpacks 8 entries from `logq` bytes (inverse of [`pack8`]).
#[inline]
pub(crate) fn unpack8(b: &[u8], logq: usize, v: &mut [u16]) {
    if logq == 16 {
        for (k, x) in v[..8].iter_mut().enumerate() {
            *x = u16::from_be_bytes([b[2 * k], b[2 * k + 1]]);
        }
    } else {
        let mut bytes = [0u8; 16];
        bytes[16 - logq..].copy_from_slice(&b[..logq]);
        let acc = u128::from_be_bytes(bytes);
        let mask = (1u128 << logq) - 1;
        for (k, x) in v[..8].iter_mut().enumerate() {
            *x = ((acc >> (logq * (7 - k))) & mask) as u16;
        }
    }
}

/// Encodes μ (n̄·n̄·B bits) into an n̄ × n̄ matrix: B bits per entry, shifted
/// to the top of log q.
pub(crate) fn encode<P: ParameterSet>(mu: &[u8], out: &mut [u16; 64]) {
    let b = P::EXTRACTED_BITS;
    let mask = (1u64 << b) - 1;
    for w in 0..8 {
        let mut t = 0u64;
        for j in 0..b {
            t |= u64::from(mu[w * b + j]) << (8 * j);
        }
        for o in &mut out[8 * w..8 * w + 8] {
            *o = ((t & mask) << (P::LOGQ - b)) as u16;
            t >>= b;
        }
        t.zeroize();
    }
}

/// Decodes an n̄ × n̄ matrix into μ: each entry rounded to its top B bits.
pub(crate) fn decode<P: ParameterSet>(m: &[u16; 64], mu: &mut [u8]) {
    let b = P::EXTRACTED_BITS;
    let maskq = ((1u32 << P::LOGQ) - 1) as u16;
    let maskb = (1u16 << b) - 1;
    let shift = P::LOGQ - b;
    for w in 0..8 {
        let mut t = 0u64;
        for (j, &x) in m[8 * w..8 * w + 8].iter().enumerate() {
            // CT: rounding by addition and shift; no division, no branch.
            let r = ((u32::from(x & maskq) + (1 << (shift - 1))) >> shift) as u16 & maskb;
            t |= u64::from(r) << (b * j);
        }
        for j in 0..b {
            mu[w * b + j] = (t >> (8 * j)) as u8;
        }
        t.zeroize();
    }
}

/// `out[r·8 + k] = Σ_j a[r·n + j] · st[k·n + j]` for the four rows of `a`
/// and the eight rows of `st` (A·S with S stored transposed; also Bp·S).
#[inline(always)]
pub(crate) fn mul_as<P: ParameterSet>(a: &[u16], st: &[u16], out: &mut [u16; 32]) {
    let n = P::N;
    for r in (0..4).step_by(2) {
        let a0 = &a[r * n..(r + 1) * n];
        let a1 = &a[(r + 1) * n..(r + 2) * n];
        for k in (0..NBAR).step_by(2) {
            let s0 = &st[k * n..(k + 1) * n];
            let s1 = &st[(k + 1) * n..(k + 2) * n];
            let mut acc = [[0u16; 16]; 4];
            // n / 16 is a constant shift (n is a multiple of 16).
            for c in 0..n / 16 {
                let (x0, x1) = (&a0[16 * c..16 * c + 16], &a1[16 * c..16 * c + 16]);
                let (y0, y1) = (&s0[16 * c..16 * c + 16], &s1[16 * c..16 * c + 16]);
                for l in 0..16 {
                    acc[0][l] = acc[0][l].wrapping_add(x0[l].wrapping_mul(y0[l]));
                    acc[1][l] = acc[1][l].wrapping_add(x0[l].wrapping_mul(y1[l]));
                    acc[2][l] = acc[2][l].wrapping_add(x1[l].wrapping_mul(y0[l]));
                    acc[3][l] = acc[3][l].wrapping_add(x1[l].wrapping_mul(y1[l]));
                }
            }
            let sum = |v: &[u16; 16]| v.iter().fold(0u16, |s, &x| s.wrapping_add(x));
            out[r * 8 + k] = sum(&acc[0]);
            out[r * 8 + k + 1] = sum(&acc[1]);
            out[(r + 1) * 8 + k] = sum(&acc[2]);
            out[(r + 1) * 8 + k + 1] = sum(&acc[3]);
            acc.zeroize();
        }
    }
}

/// `acc[i·n + c] += Σ_{t<4} s[i·n + r0 + t] · a[t·n + c]` (S'·A for rows
/// r0..r0+4 of A).
#[inline(always)]
pub(crate) fn mul_sa<P: ParameterSet>(a: &[u16], s: &[u16], r0: usize, acc: &mut [u16]) {
    let n = P::N;
    let (a0, rest) = a.split_at(n);
    let (a1, rest) = rest.split_at(n);
    let (a2, a3) = rest.split_at(n);
    // An index loop, not `chunks_exact_mut(n)` (a `div` at opt-level "z").
    for i in 0..NBAR {
        let row = &mut acc[i * n..(i + 1) * n];
        let c = &s[i * n + r0..i * n + r0 + 4];
        let (c0, c1, c2, c3) = (c[0], c[1], c[2], c[3]);
        for ((((o, &x0), &x1), &x2), &x3) in row.iter_mut().zip(a0).zip(a1).zip(a2).zip(&a3[..n]) {
            *o = o
                .wrapping_add(c0.wrapping_mul(x0))
                .wrapping_add(c1.wrapping_mul(x1))
                .wrapping_add(c2.wrapping_mul(x2))
                .wrapping_add(c3.wrapping_mul(x3));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_roundtrip() {
        for logq in [15usize, 16] {
            let v: [u16; 8] =
                core::array::from_fn(|i| (0x1234 * (i as u16 + 3)) & ((1u32 << logq) - 1) as u16);
            let mut b = [0u8; 16];
            pack8(&v, logq, &mut b);
            let mut w = [0u16; 8];
            unpack8(&b, logq, &mut w);
            assert_eq!(v, w);
        }
    }

    #[test]
    fn sampler_range() {
        let cdf = crate::params::FrodoKem640Aes::CDF_FOR_TEST;
        let mut x: [u16; 4] = [0, 1, 0xFFFE, 0xFFFF];
        sample(&mut x, cdf);
        assert_eq!(x, [0, 0, 12, 12u16.wrapping_neg()]);
    }
}
