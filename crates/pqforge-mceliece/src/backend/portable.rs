//! The portable kernels: 64-bit words, every target (the Cortex-M4 runs
//! them); the reference every other backend is compared with
//! (`tests/backends.rs`).

use super::{Backend, MAX_T};
use crate::ParameterSet;
use crate::sort::{sort_u32_le, sort_u64_le};

/// Parity of a 64-bit word, branch-free (folding: no popcount instruction
/// needed).
#[inline(always)]
pub(crate) fn parity64(mut x: u64) -> u64 {
    x ^= x >> 32;
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    x & 1
}

/// Splits every position `v` into its bit within a 64-bit word (`bit`:
/// `1 << (v mod 64)`) and its word index (`hi`: `v / 64`), without a shift
/// by a secret amount.
#[inline(always)]
pub(crate) fn split_positions(pos: &[u16], bit: &mut [u64; MAX_T], hi: &mut [u64; MAX_T]) {
    for ((b, h), &v) in bit.iter_mut().zip(hi.iter_mut()).zip(pos) {
        let mut x = 1u64;
        for k in 0..6 {
            // CT: opaque mask, or the compiler rebuilds the variable shift.
            let bk = core::hint::black_box(u64::from((v >> k) & 1).wrapping_neg());
            x ^= (x ^ (x << (1 << k))) & bk;
        }
        *b = x;
        *h = u64::from(v >> 6);
    }
}

/// The portable reference backend (64-bit words).
pub(crate) struct Portable;

impl Backend for Portable {
    #[inline(always)]
    fn xor_masked(dst: &mut [u8], src: &[u8], mask: u8) {
        // CT: opaque mask, so the compiler cannot skip the loop when it is 0.
        let m8 = core::hint::black_box(mask);
        let m = u64::from(m8) * 0x0101_0101_0101_0101;
        let len = dst.len().min(src.len());
        let (dst, src) = (&mut dst[..len], &src[..len]);
        let mut d = dst.chunks_exact_mut(8);
        let mut s = src.chunks_exact(8);
        for (x, y) in (&mut d).zip(&mut s) {
            let mut a = [0u8; 8];
            let mut b = [0u8; 8];
            a.copy_from_slice(x);
            b.copy_from_slice(y);
            let v = u64::from_le_bytes(a) ^ (u64::from_le_bytes(b) & m);
            x.copy_from_slice(&v.to_le_bytes());
        }
        for (x, y) in d.into_remainder().iter_mut().zip(s.remainder()) {
            *x ^= y & m8;
        }
    }

    #[inline(always)]
    fn xor_rows_masked(dst: &mut [u8], src: &[u8], stride: usize, masks: &[u8]) {
        let len = dst.len();
        for (b, &mk) in masks.iter().enumerate() {
            Self::xor_masked(dst, &src[b * stride..b * stride + len], mk);
        }
    }

    #[inline(always)]
    fn and_parities(rows: &[u8], rb: usize, v: &[u8], out: &mut [u8]) {
        for (r, row) in rows.chunks_exact(rb).enumerate() {
            let mut acc = 0u64;
            let mut ac = row.chunks_exact(8);
            let mut bc = v[..rb].chunks_exact(8);
            for (x, y) in (&mut ac).zip(&mut bc) {
                let mut p = [0u8; 8];
                let mut q = [0u8; 8];
                p.copy_from_slice(x);
                q.copy_from_slice(y);
                acc ^= u64::from_le_bytes(p) & u64::from_le_bytes(q);
            }
            for (x, y) in ac.remainder().iter().zip(bc.remainder()) {
                acc ^= u64::from(x & y);
            }
            out[r / 8] ^= (parity64(acc) as u8) << (r % 8);
        }
    }

    #[inline(always)]
    fn set_bits(e: &mut [u8], pos: &[u16]) {
        let mut bit = [0u64; MAX_T];
        let mut hi = [0u64; MAX_T];
        split_positions(pos, &mut bit, &mut hi);
        // CT: opaque word indices: the compiler cannot tell that `h ^ j`
        // below is small, so it cannot turn the mask into a compare and a
        // branch.
        let hi = core::hint::black_box(&mut hi);
        let t = pos.len();
        for (j, chunk) in e.chunks_mut(8).enumerate() {
            let mut x = 0u64;
            for (&b, &h) in bit[..t].iter().zip(&hi[..t]) {
                // CT: all-ones iff h == j (h ^ j < 2^32), by the sign of
                // h ^ j - 1.
                let same = (((h ^ j as u64).wrapping_sub(1)) as i64 >> 63) as u64;
                x |= same & b;
            }
            chunk.copy_from_slice(&x.to_le_bytes()[..chunk.len()]);
        }
        zeroize::Zeroize::zeroize(&mut bit);
        zeroize::Zeroize::zeroize(hi);
    }

    #[inline]
    fn sort_u32(buf: &mut [u8]) {
        sort_u32_le(buf);
    }

    #[inline]
    fn sort_u64(buf: &mut [u8]) {
        sort_u64_le(buf);
    }

    #[inline]
    fn byte_planes(bytes: &[u8], planes: &mut [u64], stride: usize, nb: usize) {
        let nw = bytes.len().div_ceil(64);
        for i in 0..nb {
            planes[i * stride..i * stride + nw].fill(0);
        }
        for (g, chunk) in bytes.chunks(8).enumerate() {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            // 8 x 8 bit transpose: byte i of x becomes bit i of every
            // input byte.
            let mut x = u64::from_le_bytes(b);
            zeroize::Zeroize::zeroize(&mut b);
            let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
            x ^= t ^ (t << 7);
            let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
            x ^= t ^ (t << 14);
            let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
            x ^= t ^ (t << 28);
            let (q, s) = (g / 8, 8 * (g % 8));
            for i in 0..nb {
                planes[i * stride + q] |= ((x >> (8 * i)) & 0xFF) << s;
            }
        }
    }

    #[inline]
    fn expand_bits(bits: &[u64], first: usize, out: &mut [u8]) {
        for (i, o) in out.iter_mut().enumerate() {
            let k = first + i;
            let w = bits.get(k / 64).copied().unwrap_or(0);
            *o = (((w >> (k % 64)) & 1) as u8).wrapping_neg();
        }
    }

    #[inline]
    fn vmul_planes(m: usize, v: &mut [u64], l: &[u64], stride: usize, n: usize) {
        for q in 0..n {
            let mut a = [0u64; crate::gf::MAX_M];
            let mut b = [0u64; crate::gf::MAX_M];
            for k in 0..m {
                a[k] = v[k * stride + q];
                b[k] = l[k * stride + q];
            }
            let mut c = crate::gf::vmul(m, &a, &b);
            for k in 0..m {
                v[k * stride + q] = c[k];
            }
            zeroize::Zeroize::zeroize(&mut a);
            zeroize::Zeroize::zeroize(&mut b);
            zeroize::Zeroize::zeroize(&mut c);
        }
    }

    #[inline]
    fn decrypt<P: ParameterSet>(e: &mut [u8], sk: &[u8], c0: &[u8]) -> u8 {
        crate::kem::decrypt::<P>(e, sk, c0)
    }

    #[inline]
    fn gp_powers<P: ParameterSet>(f: &[u16], mat: &mut [u8]) {
        crate::genpoly::powers_portable::<P>(f, mat);
    }

    #[inline]
    fn gp_forward<P: ParameterSet>(mat: &mut [u8]) -> u16 {
        crate::genpoly::forward_portable::<P>(mat)
    }

    #[inline]
    fn gp_back<P: ParameterSet>(mat: &[u8], out: &mut [u16]) {
        crate::genpoly::back_portable::<P>(mat, out);
    }
}
