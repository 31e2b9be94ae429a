//! The AVX2 backend. The product is the portable three-level Karatsuba
//! with its schoolbook leaves replaced by a `vpmaddwd` kernel ([`leaf`]:
//! eight outputs per register, two products per lane per instruction);
//! the inversions and the sort are the portable kernels compiled for AVX2
//! (masked updates, reductions and compare-exchanges on 8 to 32 lanes).
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
    __m256i, _mm256_add_epi8, _mm256_add_epi32, _mm256_and_si256, _mm256_loadu_si256,
    _mm256_madd_epi16, _mm256_mulhi_epi16, _mm256_mullo_epi16, _mm256_set1_epi8, _mm256_set1_epi16,
    _mm256_set1_epi32, _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_sign_epi8, _mm256_storeu_si256, _mm256_sub_epi16, _mm256_xor_si256,
};

use pqforge_core::cpu::Avx2 as Token;
use pqforge_core::ct;

use crate::arith::{ModQ, Modulus, negative_mask, nonzero_mask};
use crate::kem::Backend;
use crate::params::ParameterSet;
use crate::poly::{Karatsuba, Montgomery, Multiply, fq_recip, windows};

/// The largest leaf: sntrup1277's operands padded to 1280, over 2^3.
const MAX_LEAF: usize = 160;

/// Zero words on each side of the packed `b` pairs in [`leaf`].
const PAD: usize = 32;

/// The schoolbook leaf `r[0..2n-1] = a · b` (n even, n ≤ [`MAX_LEAF`];
/// |a_i| < 2^15, |b_i| ≤ 8, so every 32-bit lane stays far from overflow).
///
/// With Q[m] = (b[m], b[m-1]) as a pair of 16-bit lanes (zero outside
/// 0 ..= n), one `vpmaddwd` of the broadcast pair (a[i], a[i+1]) with
/// Q[k0-i .. k0-i+8] adds a[i]·b[k-i] + a[i+1]·b[k-i-1] to the outputs
/// k = k0 … k0+7. Outputs go in blocks of 32 (four accumulators), so each
/// broadcast pair, loaded from a packed array, feeds four multiply-adds;
/// for each block only the pairs that can reach it are visited (bounds
/// from k0 and n: public), the others would meet zero words of Q.
#[target_feature(enable = "avx2")]
#[allow(clippy::cast_ptr_alignment)] // unaligned loads and stores (loadu/storeu)
fn leaf(r: &mut [i32], a: &[i16], b: &[i16]) {
    let n = a.len();
    assert!(n.is_multiple_of(2) && n <= MAX_LEAF && b.len() == n && r.len() >= 2 * n - 1);
    // q[PAD + m] = Q[m] for m in -PAD .. n + 48.
    let mut q = [0u32; MAX_LEAF + 2 * PAD + 16];
    // Branch-free (vectorizes): the ends apart, then Q[m] for 0 < m < n.
    q[PAD] = u32::from(b[0] as u16);
    q[PAD + n] = u32::from(b[n - 1] as u16) << 16;
    for ((o, &lo), &hi) in q[PAD + 1..PAD + n].iter_mut().zip(&b[1..]).zip(&b[..n - 1]) {
        *o = u32::from(lo as u16) | u32::from(hi as u16) << 16;
    }
    // ap[j] = (a[2j], a[2j+1]).
    let mut ap = [0u32; MAX_LEAF / 2];
    for j in 0..n / 2 {
        ap[j] = u32::from(a[2 * j] as u16) | u32::from(a[2 * j + 1] as u16) << 16;
    }
    let mut acc = [0i32; 2 * MAX_LEAF + 32];
    let mut k0 = 0;
    while k0 < 2 * n - 1 {
        // Pair (i, i+1) reaches outputs i ..= i + n: from k0 - n on, up
        // to k0 + 31.
        let start = k0.saturating_sub(n) & !1;
        let end = n.min(k0 + 32);
        let mut s0 = _mm256_setzero_si256();
        let mut s1 = _mm256_setzero_si256();
        let mut s2 = _mm256_setzero_si256();
        let mut s3 = _mm256_setzero_si256();
        let mut i = start;
        while i < end {
            let av = _mm256_set1_epi32(ap[i / 2] as i32);
            // i ≤ k0 + 30 and i ≥ k0 - n - 1: base ≥ PAD - 30 and
            // base + 32 ≤ PAD + n + 33 < q.len().
            let base = PAD + k0 - i;
            assert!(base + 32 <= q.len());
            let p = q.as_ptr();
            // SAFETY: q holds at least base + 32 words (checked above);
            // unaligned 256-bit loads.
            let (b0, b1, b2, b3) = unsafe {
                (
                    _mm256_loadu_si256(p.add(base).cast::<__m256i>()),
                    _mm256_loadu_si256(p.add(base + 8).cast::<__m256i>()),
                    _mm256_loadu_si256(p.add(base + 16).cast::<__m256i>()),
                    _mm256_loadu_si256(p.add(base + 24).cast::<__m256i>()),
                )
            };
            s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(av, b0));
            s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(av, b1));
            s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(av, b2));
            s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(av, b3));
            i += 2;
        }
        assert!(k0 + 32 <= acc.len());
        let o = acc.as_mut_ptr();
        // SAFETY: k0 + 32 ≤ acc.len() (checked above); unaligned 256-bit
        // stores.
        unsafe {
            _mm256_storeu_si256(o.add(k0).cast::<__m256i>(), s0);
            _mm256_storeu_si256(o.add(k0 + 8).cast::<__m256i>(), s1);
            _mm256_storeu_si256(o.add(k0 + 16).cast::<__m256i>(), s2);
            _mm256_storeu_si256(o.add(k0 + 24).cast::<__m256i>(), s3);
        }
        k0 += 32;
    }
    r[..2 * n - 1].copy_from_slice(&acc[..2 * n - 1]);
    // Secret-derived: wiped before the frame is left (plain stores kept
    // alive by a barrier: volatile element stores cost more than the
    // products here).
    ct::wipe(&mut q);
    ct::wipe(&mut ap);
    ct::wipe(&mut acc);
}

/// The `vpmaddwd` leaf as a [`Multiply`] (only reached from the AVX2
/// backend, under its token).
struct Leaf;

impl Multiply for Leaf {
    #[inline(always)]
    fn mul(r: &mut [i32], a: &[i16], b: &[i16], _: &mut [i16], _: &mut [i32]) {
        // SAFETY: `Leaf` is private to this module and only used by
        // `mul_small_avx2`, which runs under `run`'s token (AVX2).
        unsafe { leaf(r, a, b) }
    }
}

/// Three Karatsuba levels over the AVX2 leaf.
type Karatsuba3Avx2 = Karatsuba<Karatsuba<Karatsuba<Leaf>>>;

/// The AVX2 backend. Private to this module: its impl is only instantiated
/// by [`run`], which holds the token proving the CPU features.
struct Avx2;

#[target_feature(enable = "avx2")]
fn mul_small_avx2<P: ParameterSet>(out: &mut [i16], a: &[i16], b: &[i8], m: Modulus) {
    crate::poly::mul_karatsuba::<P, Karatsuba3Avx2>(out, a, b, m);
}

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
        let swap = negative_mask(-delta) & nonzero_mask(i32::from(g0c));
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
        let swap = negative_mask(-delta) & nonzero_mask(i32::from(g[0]));
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
        unsafe { mul_small_avx2::<P>(out, a, b, m) }
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
