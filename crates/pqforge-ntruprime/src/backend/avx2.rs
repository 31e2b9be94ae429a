//! The AVX2 backend. The product is its own ([`ntt`]): the exact integer
//! product by number-theoretic transforms modulo 7681 and 10753 (size 1536
//! = 3 · 512, 16-bit Montgomery lanes), folded, joined by the CRT and
//! reduced (modulo 3 one prime suffices); the inversions and the sort are
//! the portable kernels compiled for AVX2 (masked updates, reductions and
//! compare-exchanges on 8 to 32 lanes).
//! The protocol around the kernels (codecs, hashing) is the portable code:
//! the KEM stages keep frames of their own (`#[inline(never)]`), so they
//! are not compiled for AVX2, and only the kernels are. Integer arithmetic
//! throughout, so the results are bit-identical to the portable backend;
//! `tests/backends.rs` compares them on random inputs.
//!
//! Constant time: loop bounds and memory offsets depend only on the
//! lengths; the data only flows through multiplies, adds and shuffles.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_loadu_si256, _mm256_mulhi_epi16,
    _mm256_mullo_epi16, _mm256_set1_epi8, _mm256_set1_epi16, _mm256_setr_epi8, _mm256_shuffle_epi8,
    _mm256_sign_epi8, _mm256_storeu_si256, _mm256_sub_epi16, _mm256_xor_si256,
};

use pqforge_core::cpu::Avx2 as Token;
use pqforge_core::ct;

use crate::arith::{ModQ, Modulus, nonzero_mask, swap_mask};
use crate::kem::Backend;
use crate::params::ParameterSet;
use crate::poly::{Montgomery, fq_recip, windows};

mod ntt;

/// The AVX2 backend. Private to this module: its impl is only instantiated
/// by [`run`], which holds the token proving the CPU features.
struct Avx2;

/// Room for p + 1 entries of the largest set (at offset 1 for v) plus the
/// vector tails of the inversions (which may run 32 entries past a window
/// and read one more).
const INV_LEN: usize = 1344;

/// A 256-bit unaligned load of `x[i..]` (i + 32 bytes within `x`, checked).
#[target_feature(enable = "avx2")]
#[inline]
#[allow(clippy::cast_ptr_alignment)]
fn load<T>(x: &[T], i: usize) -> __m256i {
    assert!((i + 32 / size_of::<T>()) <= x.len());
    // SAFETY: the 32 bytes from x[i] lie within x (checked above).
    unsafe { _mm256_loadu_si256(x.as_ptr().add(i).cast::<__m256i>()) }
}

/// A 256-bit unaligned store to `x[i..]` (i + 32 bytes within `x`, checked).
#[target_feature(enable = "avx2")]
#[inline]
#[allow(clippy::cast_ptr_alignment)]
fn store<T>(x: &mut [T], i: usize, v: __m256i) {
    assert!((i + 32 / size_of::<T>()) <= x.len());
    // SAFETY: the 32 bytes from x[i] lie within x (checked above).
    unsafe { _mm256_storeu_si256(x.as_mut_ptr().add(i).cast::<__m256i>(), v) }
}

/// `v` unchanged, but opaque to the optimiser: a broadcast it cannot see
/// through. Without it LLVM turns `vpmulhw` by a broadcast 16-bit value
/// into sign extensions and 32-bit `vpmulld` on half the lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn opaque(mut v: __m256i) -> __m256i {
    // SAFETY: an empty instruction sequence on one vector register; no
    // memory, stack or flags touched.
    unsafe {
        core::arch::asm!("/* {0} */", inout(ymm_reg) v, options(pure, nomem, nostack, preserves_flags));
    }
    v
}

/// `Rq_recip3` ([`crate::poly::rq_recip3`]: same steps, windows and
/// Montgomery values, so the same output) on 16 lanes: each step's swap is
/// fused into its update (one pass over f, g and one over v, r), and the
/// products are `vpmulhw` / `vpmullw`. The vector tails run past the
/// windows: entries past `w` are exact zeros and stay so, entries of f, g
/// past `l` only feed entries past `l - 1`, which later steps never read
/// (their windows do not grow), so the results are unchanged.
#[target_feature(enable = "avx2")]
fn rq_recip3_avx2<P: ParameterSet>(out: &mut [i16], s: &[i8]) -> i32 {
    let p = P::P;
    assert!(p + 2 + 32 <= INV_LEN && out.len() == p && s.len() == p);
    let md = const { ModQ::new(P::Q) };
    let mont = const { Montgomery::new(P::Q) };
    let mut f = [0i16; INV_LEN];
    let mut g = [0i16; INV_LEN];
    // v at offset 1 of one of two buffers, alternately (see below).
    let mut v_bufs = [[0i16; INV_LEN]; 2];
    let mut r = [0i16; INV_LEN];
    r[0] = fq_recip::<P>(3);
    f[0] = 1;
    f[p - 1] = -1;
    f[p] = -1;
    for i in 0..p {
        g[p - 1 - i] = i16::from(s[i]);
    }
    // Opaque (see [`opaque`]), like the broadcasts below.
    let qv = opaque(_mm256_set1_epi16(P::Q as i16));
    let mut delta: i32 = 1;
    for n in 0..2 * p - 1 {
        let (l, w) = windows(p, n);
        // v ← x·v without a pass of its own: v lives at offset 1 of a
        // buffer whose entry 0 stays zero, so entry i of the old buffer is
        // the shifted v's entry i; the update below reads the old buffer
        // and writes the other one (the buffers alternate; each one's
        // entries past the window are still zeros, the window only grows).
        let [v_even, v_odd] = &mut v_bufs;
        let (v_old, v_new) = if n % 2 == 0 {
            (v_even, v_odd)
        } else {
            (v_odd, v_even)
        };
        let g0c = md.freeze(i32::from(g[0]));
        let swap = swap_mask(delta, i32::from(g0c));
        delta ^= swap & (delta ^ -delta);
        delta += 1;
        let sw = ct::barrier_u32(swap as u32) as i16;
        let t0 = sw & (f[0] ^ g[0]);
        let (f0, g0) = (f[0] ^ t0, g[0] ^ t0);
        f[0] = f0;
        let swv = _mm256_set1_epi16(sw);
        let (f0v, g0v) = (opaque(_mm256_set1_epi16(f0)), opaque(_mm256_set1_epi16(g0)));
        let (f0p, g0p) = (
            opaque(_mm256_set1_epi16(mont.pre(f0))),
            opaque(_mm256_set1_epi16(mont.pre(g0))),
        );
        // a·b·2^-16 mod q with bp = b·q^-1 (see `Montgomery::mul_pre`).
        // The broadcasts pass `opaque` at each use: hoisted out of the
        // loop, their sign extension turns `vpmulhw` into `vpmulld`.
        let mm = |a: __m256i, b: __m256i, bp: __m256i| {
            _mm256_sub_epi16(
                _mm256_mulhi_epi16(a, opaque(b)),
                _mm256_mulhi_epi16(_mm256_mullo_epi16(a, bp), opaque(qv)),
            )
        };
        let mut i = 0;
        while i < l - 1 {
            let (x, y) = (load(&f, i + 1), load(&g, i + 1));
            let t = _mm256_and_si256(swv, _mm256_xor_si256(x, y));
            let (x, y) = (_mm256_xor_si256(x, t), _mm256_xor_si256(y, t));
            store(&mut f, i + 1, x);
            store(
                &mut g,
                i,
                _mm256_sub_epi16(mm(y, f0v, f0p), mm(x, g0v, g0p)),
            );
            i += 16;
        }
        g[l - 1] = 0;
        let mut i = 0;
        while i < w {
            let (x, y) = (load(v_old, i), load(&r, i));
            let t = _mm256_and_si256(swv, _mm256_xor_si256(x, y));
            let (x, y) = (_mm256_xor_si256(x, t), _mm256_xor_si256(y, t));
            store(v_new, i + 1, x);
            store(
                &mut r,
                i,
                _mm256_sub_epi16(mm(y, f0v, f0p), mm(x, g0v, g0p)),
            );
            i += 16;
        }
    }
    // The last step (n = 2p − 2, even) wrote the odd buffer.
    let v = &v_bufs[1][1..];
    let scale = i32::from(fq_recip::<P>(md.freeze(i32::from(f[0]))));
    for i in 0..p {
        out[i] = md.freeze(scale * i32::from(v[p - 1 - i]));
    }
    let ret = nonzero_mask(delta);
    ct::wipe(&mut f);
    ct::wipe(&mut g);
    ct::wipe(v_bufs.as_flattened_mut());
    ct::wipe(&mut r);
    ret
}

/// `R3_recip` ([`crate::poly::r3_recip`]: same steps and windows, same
/// output) on 32 byte lanes, swaps fused into the updates as in
/// [`rq_recip3_avx2`]: sign·x is `vpsignb` and the reduction of a sum in
/// [-2, 2] a `vpshufb` of a 5-entry register table (no memory lookup).
#[target_feature(enable = "avx2")]
fn r3_recip_avx2<P: ParameterSet>(out: &mut [i8], s: &[i8]) -> i32 {
    let p = P::P;
    assert!(p + 2 + 32 <= INV_LEN && out.len() == p && s.len() == p);
    let mut f = [0i8; INV_LEN];
    let mut g = [0i8; INV_LEN];
    // v at offset 1 of two alternating buffers, as in `rq_recip3_avx2`.
    let mut v_bufs = [[0i8; INV_LEN]; 2];
    let mut r = [0i8; INV_LEN];
    r[0] = 1;
    f[0] = 1;
    f[p - 1] = -1;
    f[p] = -1;
    for i in 0..p {
        g[p - 1 - i] = s[i];
    }
    // Entry x + 2 is x mod 3 (centered) for x in [-2, 2], in both halves.
    let tbl = _mm256_setr_epi8(
        1, -1, 0, 1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, -1, 0, 1, -1, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0,
    );
    let two = _mm256_set1_epi8(2);
    let mut delta: i32 = 1;
    for n in 0..2 * p - 1 {
        let (l, w) = windows(p, n);
        let [v_even, v_odd] = &mut v_bufs;
        let (v_old, v_new) = if n % 2 == 0 {
            (v_even, v_odd)
        } else {
            (v_odd, v_even)
        };
        // -g0/f0 mod 3 (f0 = ±1), before the swap (symmetric in f, g).
        let sign = (-g[0]).wrapping_mul(f[0]);
        let swap = swap_mask(delta, i32::from(g[0]));
        delta ^= swap & (delta ^ -delta);
        delta += 1;
        let sw = ct::barrier_u32(swap as u32) as i8;
        let t0 = sw & (f[0] ^ g[0]);
        f[0] ^= t0;
        let swv = _mm256_set1_epi8(sw);
        let sv = _mm256_set1_epi8(sign);
        let mut i = 0;
        while i < l - 1 {
            let (x, y) = (load(&f, i + 1), load(&g, i + 1));
            let t = _mm256_and_si256(swv, _mm256_xor_si256(x, y));
            let (x, y) = (_mm256_xor_si256(x, t), _mm256_xor_si256(y, t));
            store(&mut f, i + 1, x);
            let sum = _mm256_add_epi8(_mm256_add_epi8(y, _mm256_sign_epi8(x, sv)), two);
            store(&mut g, i, _mm256_shuffle_epi8(tbl, sum));
            i += 32;
        }
        g[l - 1] = 0;
        let mut i = 0;
        while i < w {
            let (x, y) = (load(v_old, i), load(&r, i));
            let t = _mm256_and_si256(swv, _mm256_xor_si256(x, y));
            let (x, y) = (_mm256_xor_si256(x, t), _mm256_xor_si256(y, t));
            store(v_new, i + 1, x);
            let sum = _mm256_add_epi8(_mm256_add_epi8(y, _mm256_sign_epi8(x, sv)), two);
            store(&mut r, i, _mm256_shuffle_epi8(tbl, sum));
            i += 32;
        }
    }
    // The last step (n = 2p − 2, even) wrote the odd buffer.
    let v = &v_bufs[1][1..];
    let sign = f[0];
    for i in 0..p {
        out[i] = sign * v[p - 1 - i];
    }
    let ret = nonzero_mask(delta);
    ct::wipe(&mut f);
    ct::wipe(&mut g);
    ct::wipe(v_bufs.as_flattened_mut());
    ct::wipe(&mut r);
    ret
}

impl Backend for Avx2 {
    const NAME: &'static str = "avx2";

    fn mul_small<P: ParameterSet>(out: &mut [i16], a: &[i16], b: &[i8], m: Modulus) {
        // SAFETY: `Avx2` is only used under `run`, whose token proves AVX2.
        unsafe { ntt::mul_small::<P>(out, a, b, m) }
    }

    fn rq_recip3<P: ParameterSet>(out: &mut [i16], s: &[i8]) -> i32 {
        // SAFETY: as in `mul_small`.
        unsafe { rq_recip3_avx2::<P>(out, s) }
    }

    fn r3_recip<P: ParameterSet>(out: &mut [i8], s: &[i8]) -> i32 {
        // SAFETY: as in `mul_small`.
        unsafe { r3_recip_avx2::<P>(out, s) }
    }

    fn sort(x: &mut [u32]) {
        // SAFETY: as in `mul_small`.
        unsafe { pqforge_core::sort::sort_u32_avx2(x) }
    }
}

/// `op` instantiated for this backend, compiled for AVX2.
#[target_feature(enable = "avx2")]
fn run_with_features<O: super::Operation>(op: O) -> O::Output {
    op.run::<Avx2>()
}

/// Runs `op` on the AVX2 backend; the token proves the CPU features.
pub(super) fn run<O: super::Operation>(token: Token, op: O) -> O::Output {
    let _ = token;
    // SAFETY: the token exists, so this CPU has AVX2.
    unsafe { run_with_features(op) }
}
