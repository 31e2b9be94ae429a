//! Backends: the polynomial kernels the protocol code is generic over.
//!
//! `Portable` is the reference: plain Rust, every target. The AVX2 backend
//! (x86_64) implements the same trait with intrinsics; the protocol in
//! `crate::kem` is written once and instantiated per backend, and the
//! public entry points in `crate::dispatch` pick one per call.
//!
//! Every method has the same contract (ranges, coefficient order, output
//! bytes) in every backend; `tests/backends.rs` checks them against each
//! other on random inputs.

#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
pub(crate) mod avx2;

use crate::poly::{self, Poly};
use crate::{ntt, sample};

/// The polynomial kernels.
pub(crate) trait Backend {
    /// Whether decapsulation runs its independent hashes (J, the matrix and
    /// the re-encryption noise) as one four-lane Keccak schedule
    /// (`crate::batch`). Worth it only when the four-way permutation is
    /// cheaper than four single ones (AVX2).
    const BATCH_HASHES: bool = false;
    /// Forward NTT; in: |c| < q;  out: reduced (|c| <= (q-1)/2).
    fn ntt(p: &mut Poly);
    /// Inverse NTT times 2^16; in: any;  out: |c| < q.
    fn invntt_tomont(p: &mut Poly);
    /// `r = sum a_i o b_i * 2^-16`, reduced. One factor of each product
    /// reduced, the other in `[0, 4096)` (or both reduced).
    fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]);
    /// Multiplies by 2^16 (Montgomery form); out: |c| < q.
    fn tomont(p: &mut Poly) {
        poly::tomont(p);
    }
    /// Barrett-reduces every coefficient.
    fn reduce(p: &mut Poly) {
        poly::reduce(p);
    }
    /// SampleNTT's rejection step over whole 3-byte groups of `buf`.
    fn rej_uniform(out: &mut [i16], buf: &[u8]) -> usize {
        sample::rej_uniform(out, buf)
    }
    /// SamplePolyCBD_eta from `64 eta` bytes of `buf`.
    fn cbd(p: &mut Poly, buf: &[u8], eta: usize) {
        if eta == 3 {
            sample::cbd3(p, buf);
        } else {
            sample::cbd2(p, buf);
        }
    }
    /// ByteEncode12 of a reduced polynomial.
    fn to_bytes(p: &Poly, out: &mut [u8]) {
        poly::to_bytes(p, out);
    }
    /// ByteDecode12 (values in `[0, 4096)`).
    fn from_bytes(bytes: &[u8], p: &mut Poly) {
        poly::from_bytes(bytes, p);
    }
    /// Compress_d + ByteEncode_d of a reduced polynomial.
    fn compress<const D: u32>(p: &Poly, out: &mut [u8]) {
        let mut v = [0u16; poly::N];
        Self::compress_values::<D>(p, &mut v);
        poly::pack::<D>(&v, out);
    }
    /// Compress_d of every coefficient of a reduced polynomial.
    fn compress_values<const D: u32>(p: &Poly, v: &mut [u16; poly::N]) {
        poly::compress_values::<D>(p, v);
    }
    /// ByteDecode_d + Decompress_d.
    fn decompress<const D: u32>(bytes: &[u8], p: &mut Poly) {
        poly::decompress_from_bytes::<D>(bytes, p);
    }
    /// Message to polynomial (Decompress_1).
    fn from_msg(m: &[u8; 32], p: &mut Poly) {
        poly::from_msg(m, p);
    }
    /// Polynomial to message (Compress_1) of a reduced polynomial.
    fn to_msg(p: &Poly, m: &mut [u8; 32]) {
        poly::to_msg(p, m);
    }
}

/// The portable reference backend.
pub(crate) struct Portable;

impl Backend for Portable {
    fn ntt(p: &mut Poly) {
        ntt::ntt(p);
        poly::reduce(p);
    }
    fn invntt_tomont(p: &mut Poly) {
        ntt::invntt_tomont(p);
    }
    fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
        ntt::basemul_acc(r, a, b);
    }
}

/// Differential check of every AVX2 kernel against the portable one
/// (`tests/backends.rs`); hidden, not part of the API.
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
#[doc(hidden)]
pub mod check {
    use super::avx2::{Avx2, Token};
    use super::{Backend, Portable};
    use crate::poly::{N, Poly};

    /// Uniform-ish value in `[0, n)` by multiply-shift (no division, so the
    /// division scan of the release library stays clean).
    fn below(next: &mut dyn FnMut() -> u64, n: u64) -> u64 {
        ((next() >> 32) * n) >> 32
    }

    fn fill(p: &mut Poly, next: &mut dyn FnMut() -> u64, lo: i32, hi: i32) {
        let span = (hi - lo) as u64;
        for c in &mut p.c {
            *c = (lo + below(next, span) as i32) as i16;
        }
    }

    /// Runs one round of random inputs through both backends. `Ok(false)`
    /// when the CPU has no AVX2 (nothing compared).
    ///
    /// # Errors
    /// The name of the first kernel whose outputs differ.
    pub fn round(next: &mut dyn FnMut() -> u64) -> Result<bool, &'static str> {
        if Token::get().is_none() {
            return Ok(false);
        }
        let q = 3329;
        let mut a = Poly::ZERO;
        // NTT: |c| < q.
        fill(&mut a, next, -q + 1, q);
        let (mut x, mut y) = (a, a);
        Portable::ntt(&mut x);
        Avx2::ntt(&mut y);
        if x != y {
            return Err("ntt");
        }
        // Inverse NTT: in-contract (reduced) and any i16.
        for (lo, hi) in [(-1664, 1665), (-32768, 32768)] {
            fill(&mut a, next, lo, hi);
            let (mut x, mut y) = (a, a);
            Portable::invntt_tomont(&mut x);
            Avx2::invntt_tomont(&mut y);
            if x != y {
                return Err("invntt_tomont");
            }
        }
        // reduce / tomont on any i16.
        fill(&mut a, next, -32768, 32768);
        let (mut x, mut y) = (a, a);
        Portable::reduce(&mut x);
        Avx2::reduce(&mut y);
        if x != y {
            return Err("reduce");
        }
        let (mut x, mut y) = (a, a);
        Portable::tomont(&mut x);
        Avx2::tomont(&mut y);
        if x != y {
            return Err("tomont");
        }
        // basemul_acc: one factor in [0, 4096), the other reduced; 1..=4 terms.
        let mut va = [Poly::ZERO; 4];
        let mut vb = [Poly::ZERO; 4];
        for (p, r) in va.iter_mut().zip(vb.iter_mut()) {
            fill(p, next, 0, 4096);
            fill(r, next, -1664, 1665);
        }
        for k in 1..=4 {
            let (mut x, mut y) = (Poly::ZERO, Poly::ZERO);
            Portable::basemul_acc(&mut x, &va[..k], &vb[..k]);
            Avx2::basemul_acc(&mut y, &va[..k], &vb[..k]);
            if x != y {
                return Err("basemul_acc");
            }
            Portable::basemul_acc(&mut x, &vb[..k], &va[..k]);
            Avx2::basemul_acc(&mut y, &vb[..k], &va[..k]);
            if x != y {
                return Err("basemul_acc (swapped)");
            }
        }
        // ByteEncode12 of |c| < q.
        fill(&mut a, next, -q + 1, q);
        let (mut x, mut y) = (
            [0u8; crate::poly::POLY_BYTES],
            [0u8; crate::poly::POLY_BYTES],
        );
        Portable::to_bytes(&a, &mut x);
        Avx2::to_bytes(&a, &mut y);
        if x != y {
            return Err("to_bytes");
        }
        // Compress_d: every value of [0, q), canonical and centred.
        for centred in [false, true] {
            for base in (0..3329).step_by(256) {
                for (i, c) in a.c.iter_mut().enumerate() {
                    let v = core::cmp::min(base + i as i16, 3328);
                    *c = if centred && v > 1664 { v - 3329 } else { v };
                }
                macro_rules! cmp_d {
                    ($($d:literal),*) => {$(
                        let (mut x, mut y) = ([0u16; N], [0u16; N]);
                        Portable::compress_values::<$d>(&a, &mut x);
                        Avx2::compress_values::<$d>(&a, &mut y);
                        if x != y {
                            return Err(concat!("compress_values::<", $d, ">"));
                        }
                    )*};
                }
                cmp_d!(1, 4, 5, 10, 11);
            }
        }
        // Modulus check: random 12-bit strings with and without a value >= q.
        let mut ek = [0u8; 3 * 384];
        for b in &mut ek {
            *b = (next() >> 17) as u8;
        }
        for i in 0..384 {
            // Make every value < q, then plant one >= q at a random place.
            ek[3 * i + 1] &= 0x7F;
            ek[3 * i + 2] &= 0x7F;
            ek[3 * i + 1] &= 0xF7;
        }
        let good = crate::poly::is_canonical_12(&ek);
        if !good || super::avx2::check_modulus(Token::get().ok_or("token")?, &ek) != good {
            return Err("is_canonical_12 (valid)");
        }
        let pos = below(next, 768) as usize;
        let v = 3329 + below(next, 767) as u16;
        let o = 3 * (pos >> 1);
        if pos & 1 == 0 {
            ek[o] = v as u8;
            ek[o + 1] = (ek[o + 1] & 0xF0) | (v >> 8) as u8;
        } else {
            ek[o + 1] = (ek[o + 1] & 0x0F) | ((v as u8 & 0x0F) << 4);
            ek[o + 2] = (v >> 4) as u8;
        }
        if crate::poly::is_canonical_12(&ek)
            || super::avx2::check_modulus(Token::get().ok_or("token")?, &ek)
        {
            return Err("is_canonical_12 (invalid)");
        }
        // rej_uniform: random buffers (public data), several output sizes.
        let mut buf = [0u8; 504];
        for b in buf.chunks_mut(8) {
            let w = next().to_le_bytes();
            b.copy_from_slice(&w[..b.len()]);
        }
        // Bias some candidates to >= q so rejections happen often.
        for i in (0..504).step_by(7) {
            buf[i] |= 0xF0;
            buf[i + 2] |= 0xF0;
        }
        for (len, blen) in [(N, 504), (N, 168), (17, 504), (40, 504), (0, 504), (N, 24)] {
            let mut o1 = [0i16; N];
            let mut o2 = [0i16; N];
            let n1 = Portable::rej_uniform(&mut o1[..len], &buf[..blen]);
            let n2 = Avx2::rej_uniform(&mut o2[..len], &buf[..blen]);
            if n1 != n2 || o1[..n1] != o2[..n2] {
                return Err("rej_uniform");
            }
        }
        Ok(true)
    }
}
