//! The Armv7E-M kernels (Cortex-M4, M7, M33 with the DSP extension): the
//! NTT, the inverse NTT, the reductions and the base multiplication on two
//! coefficients per 32-bit register, with the DSP instructions (16 x 16-bit
//! signed products `smul<x><y>`/`smla<x><y>`/`smuadx`, the two-lane
//! `sadd16`/`ssub16` and the half-word packs `pkhbt`/`pkhtb`), each one a
//! one-instruction `asm!` that LLVM schedules and allocates like any other
//! operation. Everything else (sampling, compression, encoding) is the
//! portable code; the K-PKE is the streamed one (the matrix never stored).
//!
//! Every kernel returns exactly what the portable one returns (the same
//! Montgomery and Barrett formulas, lane by lane), which [`check`] verifies
//! on random inputs; the Cortex-M4 firmware runs it (`cargo xtask m4 test`)
//! before the KAT transcripts.
//!
//! Constant time: no branch and no memory index depends on a coefficient;
//! the DSP multiplies and the two-lane additions take one cycle on the
//! Cortex-M4 whatever their operands.
//!
//! Compiled for little-endian M-profile Arm with the DSP extension
//! (`target_feature`s `dsp` and `mclass`: Cortex-M4, M7, M33, ...; the
//! A/R-profile cores that also have `dsp` are left out: ARM-state code,
//! other timings, big-endian variants): on `thumbv7em-*` targets with a
//! nightly compiler or `RUSTC_BOOTSTRAP=1` (as the firmware is built);
//! stable compilers keep Arm target features out of `cfg` and get the
//! portable kernels.
#![allow(unsafe_code)]

use super::{Backend, Portable};
use crate::ntt::{F_INV, PAIR_ZETAS, ZETAS};
use crate::pke::Streamed;
use crate::poly::{N, Poly, Q, QINV};

/// The Armv7E-M backend.
pub(crate) struct Armv7em;

/// Signature shared by the one-instruction DSP wrappers below.
macro_rules! dsp {
    ($(#[$m:meta])* $name:ident, $insn:literal) => {
        $(#[$m])*
        #[inline(always)]
        fn $name(a: u32, b: u32) -> u32 {
            let r: u32;
            // SAFETY: one register-only DSP instruction: no memory access,
            // no stack use. (It may set the Q or GE flags, which no code
            // reads: `preserves_flags` is not claimed.)
            unsafe {
                core::arch::asm!(
                    concat!($insn, " {r}, {a}, {b}"),
                    r = lateout(reg) r,
                    a = in(reg) a,
                    b = in(reg) b,
                    options(pure, nomem, nostack),
                );
            }
            r
        }
    };
    ($(#[$m:meta])* $name:ident, $insn:literal, acc) => {
        $(#[$m])*
        #[inline(always)]
        fn $name(a: u32, b: u32, c: u32) -> u32 {
            let r: u32;
            // SAFETY: as above.
            unsafe {
                core::arch::asm!(
                    concat!($insn, " {r}, {a}, {b}, {c}"),
                    r = lateout(reg) r,
                    a = in(reg) a,
                    b = in(reg) b,
                    c = in(reg) c,
                    options(pure, nomem, nostack),
                );
            }
            r
        }
    };
}

dsp!(
    /// `lo(a) * lo(b)` (signed 16 x 16 -> 32).
    smulbb, "smulbb"
);
dsp!(
    /// `lo(a) * hi(b)`.
    smulbt, "smulbt"
);
dsp!(
    /// `hi(a) * lo(b)`.
    smultb, "smultb"
);
dsp!(
    /// `hi(a) * hi(b)`.
    smultt, "smultt"
);
dsp!(
    /// `lo(a) * hi(b) + hi(a) * lo(b)`.
    smuadx, "smuadx"
);
dsp!(
    /// Two-lane 16-bit addition (each lane wraps).
    sadd16, "sadd16"
);
dsp!(
    /// Two-lane 16-bit subtraction `a - b` (each lane wraps).
    ssub16, "ssub16"
);
dsp!(
    /// `lo(a) * lo(b) + c`.
    smlabb, "smlabb", acc
);
dsp!(
    /// `hi(a) * lo(b) + c`.
    smlatb, "smlatb", acc
);

/// `hi(a) : hi(b)`: the high half of `a` above the high half of `b`.
#[inline(always)]
fn pkhtb(a: u32, b: u32) -> u32 {
    let r: u32;
    // SAFETY: one register-only instruction, no memory, no stack, no flags.
    unsafe {
        core::arch::asm!(
            "pkhtb {r}, {a}, {b}, asr #16",
            r = lateout(reg) r,
            a = in(reg) a,
            b = in(reg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    r
}

/// `lo(b) : lo(a)`: the low half of `b` above the low half of `a`.
#[inline(always)]
fn pkhbt(a: u32, b: u32) -> u32 {
    let r: u32;
    // SAFETY: as for `pkhtb`.
    unsafe {
        core::arch::asm!(
            "pkhbt {r}, {a}, {b}, lsl #16",
            r = lateout(reg) r,
            a = in(reg) a,
            b = in(reg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    r
}

/// `-q` (low half) and `q^-1 mod 2^16` (high half): the Montgomery constants.
const QK: u32 = ((QINV as u16 as u32) << 16) | ((-Q) as u16 as u32);
/// Barrett's 20159 = round(2^26 / q) (low half) and q (high half).
const BQ: u32 = ((Q as u16 as u32) << 16) | 20159;

/// Montgomery reduction of the 32-bit `p` (|p| < q 2^15), in the high
/// half of the result: `hi = (p - t q) / 2^16` with `t = lo(p) q^-1 mod
/// 2^16`, bit for bit [`crate::poly::montgomery_reduce`] (the low half is
/// zero).
#[inline(always)]
fn mont_hi(p: u32) -> u32 {
    smlabb(smulbt(p, QK), QK, p)
}

/// The two lanes of `x` times the zeta in the low half of `z`, each
/// Montgomery-reduced: `fqmul` on both lanes.
#[inline(always)]
fn fqmul2(x: u32, z: u32) -> u32 {
    pkhtb(mont_hi(smultb(x, z)), mont_hi(smulbb(x, z)))
}

/// Cooley-Tukey butterflies on both lanes: `(a + z b, a - z b)`.
#[inline(always)]
fn ct(a: u32, b: u32, z: u32) -> (u32, u32) {
    let t = fqmul2(b, z);
    (sadd16(a, t), ssub16(a, t))
}

/// Gentleman-Sande butterflies on both lanes: `(a + b, z (b - a))`.
#[inline(always)]
fn gs(a: u32, b: u32, z: u32) -> (u32, u32) {
    (sadd16(a, b), fqmul2(ssub16(b, a), z))
}

/// [`crate::poly::barrett_reduce`] on both lanes.
#[inline(always)]
fn barrett2(a: u32) -> u32 {
    const ROUND: u32 = 1 << 25;
    let t0 = (smlabb(a, BQ, ROUND) as i32) >> 26;
    let t1 = (smlatb(a, BQ, ROUND) as i32) >> 26;
    // t q fits 16 bits (|t| <= 10).
    let tq = pkhbt(smulbt(t0 as u32, BQ), smulbt(t1 as u32, BQ));
    ssub16(a, tq)
}

/// A zeta (Montgomery form) in the low half of a register.
#[inline(always)]
fn zeta(i: usize) -> u32 {
    u32::from(ZETAS[i] as u16)
}

/// The coefficients as 128 words, word `w` = `c[2w]` (low half) and
/// `c[2w + 1]` (high half).
#[inline(always)]
fn words(p: &mut Poly) -> &mut [u32; N / 2] {
    // SAFETY: `Poly` is `repr(C, align(32))` around `[i16; 256]`: 512
    // bytes, aligned for `u32`, and every bit pattern is valid for both
    // types; the borrow of `p` is moved into the result, so nothing else
    // aliases it.
    unsafe { &mut *p.c.as_mut_ptr().cast::<[u32; N / 2]>() }
}

/// Layers `LEN` and `LEN / 2` (in coefficients) of the forward NTT in one
/// pass, on blocks of `LEN` words.
#[inline(always)]
fn fwd_pass<const LEN: usize>(r: &mut [u32; N / 2]) {
    let (h, l) = (LEN / 4, LEN / 2); // in words
    for (blk, g) in r.chunks_exact_mut(LEN).enumerate() {
        let z1 = zeta(128 / LEN + blk);
        let z2 = zeta(256 / LEN + 2 * blk);
        let z3 = zeta(256 / LEN + 2 * blk + 1);
        for j in 0..h {
            let (x0, x2) = ct(g[j], g[j + l], z1);
            let (x1, x3) = ct(g[j + h], g[j + l + h], z1);
            let (x0, x1) = ct(x0, x1, z2);
            let (x2, x3) = ct(x2, x3, z3);
            g[j] = x0;
            g[j + h] = x1;
            g[j + l] = x2;
            g[j + l + h] = x3;
        }
    }
}

/// Forward NTT: the portable transform ([`crate::ntt::ntt`]) two
/// coefficients at a time: layers (128, 64) and (32, 16) two per pass,
/// the last three (8, 4, 2) and the reduction in one pass over 8 words.
fn ntt(p: &mut Poly) {
    let r = words(p);
    fwd_pass::<128>(r);
    fwd_pass::<32>(r);
    for (blk, g) in r.chunks_exact_mut(8).enumerate() {
        let z = zeta(16 + blk);
        let (w0, w4) = ct(g[0], g[4], z);
        let (w1, w5) = ct(g[1], g[5], z);
        let (w2, w6) = ct(g[2], g[6], z);
        let (w3, w7) = ct(g[3], g[7], z);
        ntt_tail(&mut g[..4], [w0, w1, w2, w3], 2 * blk);
        ntt_tail(&mut g[4..], [w4, w5, w6, w7], 2 * blk + 1);
    }
}

/// Layers 4 and 2 (zetas `32 + k`, `64 + 2k`, `64 + 2k + 1`) of the
/// forward NTT on four words, then the reduction, into `g`.
#[inline(always)]
fn ntt_tail(g: &mut [u32], [a, b, c, d]: [u32; 4], k: usize) {
    let z = zeta(32 + k);
    let (a, c) = ct(a, c, z);
    let (b, d) = ct(b, d, z);
    let (a, b) = ct(a, b, zeta(64 + 2 * k));
    let (c, d) = ct(c, d, zeta(64 + 2 * k + 1));
    g[0] = barrett2(a);
    g[1] = barrett2(b);
    g[2] = barrett2(c);
    g[3] = barrett2(d);
}

/// Layers `LEN` and `2 LEN` of the inverse NTT in one pass (the portable
/// `inv_pass`); `RED` Barrett-reduces the sums of layer `LEN`, `SCALE`
/// multiplies the outputs by `F_INV` (the last pass).
#[inline(always)]
fn inv_pass<const LEN: usize, const RED: bool, const SCALE: bool>(r: &mut [u32; N / 2]) {
    let l = LEN / 2; // in words
    for (blk, g) in r.chunks_exact_mut(2 * LEN).enumerate() {
        let z1 = zeta(256 / LEN - 1 - 2 * blk);
        let z2 = zeta(256 / LEN - 2 - 2 * blk);
        let z3 = zeta(128 / LEN - 1 - blk);
        for j in 0..l {
            let (mut x0, x1) = gs(g[j], g[j + l], z1);
            let (mut x2, x3) = gs(g[j + 2 * l], g[j + 3 * l], z2);
            if RED {
                x0 = barrett2(x0);
                x2 = barrett2(x2);
            }
            let (mut x0, mut x2) = gs(x0, x2, z3);
            let (mut x1, mut x3) = gs(x1, x3, z3);
            if SCALE {
                let f = u32::from(F_INV as u16);
                (x0, x1, x2, x3) = (fqmul2(x0, f), fqmul2(x1, f), fqmul2(x2, f), fqmul2(x3, f));
            }
            g[j] = x0;
            g[j + l] = x1;
            g[j + 2 * l] = x2;
            g[j + 3 * l] = x3;
        }
    }
}

/// Layers 2 (zetas `127 - 2k`, `126 - 2k`; sums reduced) and 4 (zeta
/// `63 - k`) of the inverse NTT on four words.
#[inline(always)]
fn inv_head(g: &[u32], k: usize) -> [u32; 4] {
    let (a, b) = gs(g[0], g[1], zeta(127 - 2 * k));
    let (c, d) = gs(g[2], g[3], zeta(126 - 2 * k));
    let (a, c) = gs(barrett2(a), barrett2(c), zeta(63 - k));
    let (b, d) = gs(b, d, zeta(63 - k));
    [a, b, c, d]
}

/// Inverse NTT times 2^16: the portable transform
/// ([`crate::ntt::invntt_tomont`]) two coefficients at a time, with the
/// same reductions (so the same output): layers 2, 4 and 8 in one pass
/// over 8 words, (16, 32) and (64, 128) two per pass, the final scaling
/// folded into the last pass.
fn invntt_tomont(p: &mut Poly) {
    let r = words(p);
    for (blk, g) in r.chunks_exact_mut(8).enumerate() {
        let [w0, w1, w2, w3] = inv_head(&g[..4], 2 * blk);
        let [w4, w5, w6, w7] = inv_head(&g[4..], 2 * blk + 1);
        // Layer 8: zeta 31 - blk.
        let z = zeta(31 - blk);
        (g[0], g[4]) = gs(w0, w4, z);
        (g[1], g[5]) = gs(w1, w5, z);
        (g[2], g[6]) = gs(w2, w6, z);
        (g[3], g[7]) = gs(w3, w7, z);
    }
    inv_pass::<16, true, false>(r);
    inv_pass::<64, false, true>(r);
}

/// [`crate::ntt::basemul_pair`] with the DSP products: `a` and `b` packed
/// into one register each, `a1 b1` and `a0 b1 + a1 b0` (`smuadx`) each one
/// instruction, the two results added to the accumulator word as a pair.
#[inline(always)]
fn basemul_pair(acc: &mut Poly, o: usize, (a0, a1): (i32, i32), (b0, b1): (i32, i32)) {
    let a = pkhbt(a0 as u32, a1 as u32);
    let b = pkhbt(b0 as u32, b1 as u32);
    let z = u32::from(PAIR_ZETAS[o >> 1] as u16);
    // r0 = mont(a0 b0 + mont(a1 b1) z), r1 = mont(a0 b1 + a1 b0).
    let m = mont_hi(smultt(a, b));
    let r0 = mont_hi(smlatb(m, z, smulbb(a, b)));
    let r1 = mont_hi(smuadx(a, b));
    let w = &mut words(acc)[(o >> 1) & (N / 2 - 1)];
    *w = sadd16(*w, pkhtb(r1, r0));
}

impl Backend for Armv7em {
    type Pke = Streamed<Self>;

    fn ntt(p: &mut Poly) {
        ntt(p);
    }
    fn invntt_tomont(p: &mut Poly) {
        invntt_tomont(p);
    }
    fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
        *r = Poly::ZERO;
        for (x, y) in a.iter().zip(b) {
            crate::ntt::basemul_add_by(r, x, y, basemul_pair);
        }
        Self::reduce(r);
    }
    #[inline(always)]
    fn basemul_pair(acc: &mut Poly, o: usize, a: (i32, i32), b: (i32, i32)) {
        basemul_pair(acc, o, a, b);
    }
    fn reduce(p: &mut Poly) {
        for w in words(p).iter_mut() {
            *w = barrett2(*w);
        }
    }
    fn tomont(p: &mut Poly) {
        let m = u32::from(crate::poly::MONT_SQ as u16);
        for w in words(p).iter_mut() {
            *w = fqmul2(*w, m);
        }
    }
}

/// Compares the Armv7E-M kernels with the portable ones on one round of
/// random inputs (`backend::check_kernels`, which the Cortex-M4 firmware
/// runs): outputs must be identical.
///
/// # Errors
/// The name of the first kernel whose outputs differ.
pub(crate) fn check(next: &mut dyn FnMut() -> u64) -> Result<(), &'static str> {
    let mut fill = |p: &mut Poly, lo: i32, hi: i32| {
        let span = (hi - lo) as u64;
        for c in &mut p.c {
            *c = (lo + (((next() >> 32) * span) >> 32) as i32) as i16;
        }
    };
    let q = i32::from(Q);
    let mut a = Poly::ZERO;
    macro_rules! same {
        ($name:literal, $f:ident, $lo:expr, $hi:expr) => {
            fill(&mut a, $lo, $hi);
            let (mut x, mut y) = (a, a);
            Portable::$f(&mut x);
            Armv7em::$f(&mut y);
            if x != y {
                return Err($name);
            }
        };
    }
    same!("ntt", ntt, -q + 1, q);
    same!("invntt_tomont", invntt_tomont, -4 * q + 1, 4 * q);
    same!("invntt_tomont (reduced input)", invntt_tomont, -1664, 1665);
    same!("reduce", reduce, -32768, 32768);
    same!("tomont", tomont, -32768, 32768);
    // basemul_acc: one factor in [0, 4096), the other reduced; 1..=4 terms,
    // both orders (the pair step of the streamed K-PKE underneath).
    let mut va = [Poly::ZERO; 4];
    let mut vb = [Poly::ZERO; 4];
    for (x, y) in va.iter_mut().zip(vb.iter_mut()) {
        fill(x, 0, 4096);
        fill(y, -1664, 1665);
    }
    for k in 1..=4 {
        for (a, b) in [(&va[..k], &vb[..k]), (&vb[..k], &va[..k])] {
            let (mut x, mut y) = (Poly::ZERO, Poly::ZERO);
            Portable::basemul_acc(&mut x, a, b);
            Armv7em::basemul_acc(&mut y, a, b);
            if x != y {
                return Err("basemul_acc");
            }
        }
    }
    Ok(())
}
