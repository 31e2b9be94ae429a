//! Differential check of every AVX2 kernel against the portable one on
//! random inputs (`tests/backends.rs`, through `backend::check_kernels`).

use pqforge_core::cpu;

use super::Avx2;
use crate::backend::{Backend, Portable};
use crate::poly::{N, POLY_BYTES, Poly, is_canonical_12, reduce};

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

/// Runs one round of random inputs through the AVX2 and the portable
/// kernels (the token proves AVX2 support, which the invariant on [`Avx2`]
/// asks for).
///
/// # Errors
/// The name of the first kernel whose outputs differ.
pub fn check(_t: cpu::Avx2, next: &mut dyn FnMut() -> u64) -> Result<(), &'static str> {
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
    // Inverse NTT: reduced and |c| < 4q inputs; outputs |c| < q, equal
    // after reduction (the representatives may differ).
    for (lo, hi) in [(-1664, 1665), (-4 * q + 1, 4 * q)] {
        fill(&mut a, next, lo, hi);
        let (mut x, mut y) = (a, a);
        Portable::invntt_tomont(&mut x);
        Avx2::invntt_tomont(&mut y);
        if x.c.iter().chain(&y.c).any(|c| c.abs() >= q as i16) {
            return Err("invntt_tomont (range)");
        }
        reduce(&mut x);
        reduce(&mut y);
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
    let (mut x, mut y) = ([0u8; POLY_BYTES], [0u8; POLY_BYTES]);
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
    let good = is_canonical_12(&ek);
    if !good || Avx2::is_canonical_12(&ek) != good {
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
    if is_canonical_12(&ek) || Avx2::is_canonical_12(&ek) {
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
    Ok(())
}
