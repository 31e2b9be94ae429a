//! Berlekamp–Massey on AVX2: same outputs as [`crate::bm::bm`],
//! with the discrepancy computed one step ahead.
//!
//! # Why a separate loop
//!
//! The portable loop (and the first AVX2 version, which shared it) is a
//! chain: discrepancy product, its parities, the masks of `d`, the update
//! product, and only then the next discrepancy: two bitsliced products in
//! a row per step. Here the next discrepancy is split over the current
//! state instead of the updated one. With the inversion-free update
//! `C' = b C + d B` (see [`crate::bm`]) and `w` the syndrome window of
//! step N + 1,
//!
//! ```text
//! d_{N+1} = C' . w = b (C . w + c0 s[N+1]) + d (B . w)
//! ```
//!
//! so `C . w` and `B . w` are products of the *current* `C` and `B`. For
//! t <= 64 they share one pass with the update product (one product per
//! step instead of two); for t > 64 they are a second product that does
//! not wait for `d` (so the two overlap). The scalar products of a step
//! (`b e1`, `d e2`, and the running `C[0]`, kept one step ahead so that
//! they are independent) go through one 4-lane vector multiplier
//! ([`gf_mul4`]); the bitsliced products are written in assembly
//! ([`mul`]) to keep LLVM from spilling.
//!
//! # Layouts (bitsliced, one 256-bit register per bit plane)
//!
//! Coefficient k + 1 of C or B is lane k (`C[0]` is the scalar `c0`, `B[0]`
//! is 0), as in [`crate::bm`].
//!
//! * t <= 64 ("narrow"): one 64-bit word per polynomial, and the state
//!   is `[C, C, B, B]`. One product with the multiplier planes
//!   `[b, w, d, w]` (`b`, `d`: all-0/all-1 masks of their bits) yields
//!   `[b C, C.w, d B, B.w]`: update and look-ahead discrepancy in one
//!   pass of 4 x 64 lanes.
//! * 64 < t <= 128 ("wide"): two interleaved words per polynomial
//!   (coefficient k + 1 in word k mod 2, bit k div 2, so "times x" is a
//!   word swap and one shift), state `[C | B]`, and two products:
//!   `[C | B] x [b | d]` and `[C | B] x [w | w]`.
//!
//! The parities of the `.w` lanes come from one in-lane packing network
//! and one `movemask` (low 16 bits: the C half, high 16 bits: the B
//! half).

use core::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm_setr_epi8, _mm256_and_si256, _mm256_blend_epi16,
    _mm256_blend_epi32, _mm256_blendv_epi8, _mm256_broadcastsi128_si256, _mm256_castps_si256,
    _mm256_castsi256_ps, _mm256_cmpeq_epi64, _mm256_movemask_epi8, _mm256_mul_epu32,
    _mm256_or_si256, _mm256_permute2x128_si256, _mm256_permute4x64_epi64, _mm256_set_epi64x,
    _mm256_set1_epi8, _mm256_set1_epi16, _mm256_set1_epi64x, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_shuffle_epi32, _mm256_shuffle_ps, _mm256_slli_epi16,
    _mm256_slli_epi32, _mm256_slli_epi64, _mm256_sllv_epi64, _mm256_srl_epi64, _mm256_srli_epi16,
    _mm256_srli_epi32, _mm256_storeu_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
    _mm256_xor_si256,
};

use crate::ParameterSet;
use crate::bm::Poly;
use crate::gf;

/// [`crate::bm::bm`] on AVX2: identical output.
#[target_feature(enable = "avx2")]
pub(super) fn bm<P: ParameterSet>(out: &mut [u16], s: &[u16]) {
    // SAFETY: (all four) AVX2 is enabled in this function, which is what
    // `run` (inlined into it) requires.
    unsafe {
        match (P::M, P::T <= 64) {
            (12, true) => run::<12, false>(P::T, out, s),
            (12, false) => run::<12, true>(P::T, out, s),
            (_, true) => run::<13, false>(P::T, out, s),
            (_, false) => run::<13, true>(P::T, out, s),
        }
    }
}

/// 13 bit planes (the first M used).
type Planes = [__m256i; 13];

/// The assembly of [`mul`] for one field degree M, as one `asm!`: the M
/// Horner steps, step `s` taking plane `j = M - 1 - s` of `b`.
///
/// ```text
/// horner_asm!(a, b, r; regs [R_0 .. R_(M-1)] planes [0 .. M-1] low [l_0 .. l_(M-1)])
/// ```
///
/// `R_p`: the register holding plane p of the result after step 0;
/// `l_p`: `x` where x^M has the term x^p (p > 0), `_` elsewhere. At step
/// `s` plane p lives in `R'_p = R_((p - s) mod M)`: "times x" only
/// renames, so the register list of step s is the list of step 0
/// rotated right s times (left `j + 1` times). Step s emits, in this
/// order:
///
/// ```text
/// vpxor  R'_e, R'_e, R'_0      for every low term e > 0, descending (s > 0)
/// vmovdqa ymm14, b[j]
/// vpand  R'_p, ymm14, a[p]     for p = 0 .. M-1 (s = 0)
/// vpand  ymm15, ymm14, a[p]    for p = 0 .. M-1 (s > 0)
/// vpxor  R'_p, R'_p, ymm15
/// ```
///
/// and `r[p]` is read from the register of plane p after the last step.
/// The block starts on a 64-byte boundary (`.p2align 6`): where it falls
/// in a line otherwise follows the surrounding code, and on AMD Zen 4 one
/// such offset made `mceliece348864` decapsulation 48% slower (the NOP
/// padding costs a few instructions per product).
/// The rotations are token munchers over unary counts (`macro_rules!`
/// cannot do arithmetic); each step's text is built by its own
/// invocation inside the final `concat!`, so the expansion depth stays
/// near 2M.
macro_rules! horner_asm {
    // Entry: reverse the registers, planes and low-term marks once.
    ($a:ident, $b:ident, $r:ident; regs [$($reg:tt)*] planes [$($p:literal)*]
        low [$($lo:tt)*]) => {
        horner_asm!(@rev [$(($reg $p $lo))*] []; $a, $b, $r, [$($reg)*], [$($p)*])
    };
    (@rev [$x:tt $($xs:tt)*] [$($acc:tt)*]; $($ctx:tt)*) => {
        horner_asm!(@rev [$($xs)*] [$x $($acc)*]; $($ctx)*)
    };
    (@rev [] [$(($rreg:tt $rp:literal $rlo:tt))*]; $a:ident, $b:ident, $r:ident,
        [$($reg:tt)*], [$($p:literal)*]) => {
        horner_asm!(@walk [] [$($rp)*] [];
            $a, $b, $r, [$($reg)*], [$($p)*], [$($rreg)*], [$($rlo)*])
    };
    // One step per plane j of `b` (descending): `done` counts the steps
    // before (s), `[j ..]` has j + 1 entries.
    (@walk [$($done:tt)*] [$j:tt $($rest:tt)*] [$($acc:tt)*];
        $a:ident, $b:ident, $r:ident, $regs:tt, $planes:tt, $rregs:tt, $rlo:tt) => {
        horner_asm!(@walk [$($done)* _] [$($rest)*]
            [$($acc)* horner_asm!(@step [$($done)*] [$j $($rest)*] $j
                $regs, $planes, $rregs, $rlo),];
            $a, $b, $r, $regs, $planes, $rregs, $rlo)
    };
    // After the last step plane p is in R_((p + 1) mod M).
    (@walk $done:tt [] $acc:tt;
        $a:ident, $b:ident, $r:ident, [$reg0:tt $($reg:tt)*], $planes:tt,
        $rregs:tt, $rlo:tt) => {
        horner_asm!(@emit $acc; $a, $b, $r, [$($reg)* $reg0], $planes)
    };
    (@emit [$($acc:tt)*]; $a:ident, $b:ident, $r:ident, [$($reg:tt)*],
        [$($p:literal)*]) => {
        core::arch::asm!(
            concat!($($acc)*),
            a = in(reg) $a.as_ptr(),
            b = in(reg) $b.as_ptr(),
            $(out($reg) $r[$p],)*
            out("ymm14") _, out("ymm15") _,
            options(pure, readonly, nostack, preserves_flags)
        )
    };
    // Step 0: the first products, no reduction.
    (@step [] $cnt:tt $j:tt [$($reg:tt)*], [$($p:literal)*], $rregs:tt, $rlo:tt) => {
        concat!(
            ".p2align 6\n",
            "vmovdqa ymm14, ymmword ptr [{b} + 32*", $j, "]\n",
            $("vpand ", $reg, ", ymm14, ymmword ptr [{a} + 32*", $p, "]\n",)*
        )
    };
    // Step s > 0: rotate the registers left j + 1 times, the reversed
    // list (for the reduction, descending) left s times.
    (@step $done:tt $cnt:tt $j:tt $regs:tt, $planes:tt, $rregs:tt, $rlo:tt) => {
        horner_asm!(@rot $cnt $regs; @rrot $done $rregs; $j $planes $rlo)
    };
    (@rot [$k:tt $($ks:tt)*] [$x:tt $($xs:tt)*]; $($ctx:tt)*) => {
        horner_asm!(@rot [$($ks)*] [$($xs)* $x]; $($ctx)*)
    };
    (@rot [] $regs:tt; @rrot $done:tt $rregs:tt; $($ctx:tt)*) => {
        horner_asm!(@rrot $done $rregs; $regs $($ctx)*)
    };
    (@rrot [$k:tt $($ks:tt)*] [$x:tt $($xs:tt)*]; $($ctx:tt)*) => {
        horner_asm!(@rrot [$($ks)*] [$($xs)* $x]; $($ctx)*)
    };
    (@rrot [] [$($rreg:tt)*]; [$top:tt $($more:tt)*] $j:tt
        [$($p:literal)*] [$($rlo:tt)*]) => {
        horner_asm!(@body [$($rreg)*] [$($rlo)*] $top; [$top $($more)*] $j [$($p)*])
    };
    (@body [$($rreg:tt)*] [$($rlo:tt)*] $top:tt; [$($reg:tt)*] $j:tt
        [$($p:literal)*]) => {
        concat!(
            $(horner_asm!(@red $rlo $rreg $top),)*
            "vmovdqa ymm14, ymmword ptr [{b} + 32*", $j, "]\n",
            $(
                "vpand ymm15, ymm14, ymmword ptr [{a} + 32*", $p, "]\n",
                "vpxor ", $reg, ", ", $reg, ", ymm15\n",
            )*
        )
    };
    // The reduction: the top plane (now plane 0) into plane e.
    (@red x $reg:tt $top:tt) => {
        concat!("vpxor ", $reg, ", ", $reg, ", ", $top, "\n")
    };
    (@red _ $reg:tt $top:tt) => {
        ""
    };
}

/// Lane-wise product of bitsliced GF(2^M) vectors, Horner's rule over the
/// planes of `b` (as [`crate::bm::mul_horner`]): `r = x r + a b_j` from
/// j = M - 1 down to 0, where "times x" renames the planes (the top one
/// becomes plane 0) and adds the top plane into the other low terms of
/// x^M. The M planes of `r` stay in registers (the renaming rotates which
/// register holds which plane: no moves), `b_j` in ymm14, and the planes
/// of `a` are read from memory by the ANDs: M^2 ANDs, M^2 - M XORs and
/// the reduction XORs, nothing else.
///
/// Written in assembly, generated by [`horner_asm!`] for both field
/// degrees: from intrinsics LLVM reassociates the XORs across Horner
/// steps (many more live values) and keeps the loaded planes of `a` live
/// in a second stack copy; both cost about as many extra moves as the
/// product has operations.
///
/// # Safety
/// AVX2 (every function below: only called from [`bm`]).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn mul<const M: usize>(a: &Planes, b: &Planes) -> Planes {
    let mut r = [a[0]; 13];
    // SAFETY: AVX2 per the function contract; the assembly reads M
    // 32-byte planes from each array (aligned: `__m256i` arrays), writes
    // only its output and clobbered registers, and leaves the stack and
    // flags alone.
    unsafe {
        if M == 13 {
            // x^13 = x^4 + x^3 + x + 1.
            horner_asm!(a, b, r;
                regs ["ymm0" "ymm1" "ymm2" "ymm3" "ymm4" "ymm5" "ymm6" "ymm7" "ymm8" "ymm9"
                    "ymm10" "ymm11" "ymm12"]
                planes [0 1 2 3 4 5 6 7 8 9 10 11 12]
                low [_ x _ x x _ _ _ _ _ _ _ _]);
        } else {
            // x^12 = x^3 + 1.
            horner_asm!(a, b, r;
                regs ["ymm0" "ymm1" "ymm2" "ymm3" "ymm4" "ymm5" "ymm6" "ymm7" "ymm8" "ymm9"
                    "ymm10" "ymm11"]
                planes [0 1 2 3 4 5 6 7 8 9 10 11]
                low [_ _ _ x _ _ _ _ _ _ _ _]);
        }
    }
    r
}

/// `mk[j]`: each 64-bit lane all-ones iff bit j of that lane of `v` is
/// set (j < M). Filled in place: returning the array by value costs a
/// `memcpy` call per step.
#[inline(always)]
unsafe fn masks<const M: usize>(mk: &mut Planes, v: __m256i) {
    // SAFETY: AVX2 per the function contract.
    unsafe {
        for (j, x) in mk[..M].iter_mut().enumerate() {
            let bit = _mm256_set1_epi64x(1 << j);
            *x = _mm256_cmpeq_epi64(_mm256_and_si256(v, bit), bit);
        }
        // CT: opaque (kept in memory, read from there by the products),
        // so the all-0 / all-1 lanes cannot become branches.
        core::hint::black_box(&mut *mk);
    }
}

/// Parities of the planes, per 128-bit lane: bit k of the low half of the
/// result is the parity of lane 0 of `v[k]`, bit k of the high half that
/// of lane 1. `HI`: only word 1 of each lane counts (narrow layout, where
/// word 0 holds the update). The planes are packed while being
/// XOR-folded (128 -> 64 -> 32 -> 16 -> 8 bits per plane), then the byte
/// parities come from a nibble table and `movemask`; the planes enter in
/// the order that makes byte k the fold of plane k.
#[inline(always)]
unsafe fn parities<const M: usize, const HI: bool>(v: &Planes) -> (u16, u16) {
    // Slot q of the packing network ends in byte ORDER^-1(q).
    const ORDER: [usize; 16] = [0, 4, 8, 12, 2, 6, 10, 14, 1, 5, 9, 13, 3, 7, 11, 15];
    // SAFETY: AVX2 per the function contract.
    unsafe {
        let z = _mm256_setzero_si256();
        // Unused slots take any plane (their bits are masked off): with
        // a zero there LLVM can emit the register form of `vmovq`
        // (66 0F D6), which valgrind 3.19 cannot decode.
        let pl = |q: usize| if ORDER[q] < M { v[ORDER[q]] } else { v[0] };
        // 128 -> 64: q[i] = [fold(slot 2i), fold(slot 2i + 1)].
        let mut q = [z; 8];
        for (i, x) in q.iter_mut().enumerate() {
            let (a, b) = (pl(2 * i), pl(2 * i + 1));
            let h = _mm256_unpackhi_epi64(a, b);
            *x = if HI {
                h
            } else {
                _mm256_xor_si256(_mm256_unpacklo_epi64(a, b), h)
            };
        }
        // 64 -> 32: r[i] dword k = slot 4i + k.
        let mut r = [z; 4];
        for (i, x) in r.iter_mut().enumerate() {
            let (a, b) = (
                _mm256_castsi256_ps(q[2 * i]),
                _mm256_castsi256_ps(q[2 * i + 1]),
            );
            *x = _mm256_xor_si256(
                _mm256_castps_si256(_mm256_shuffle_ps::<0x88>(a, b)),
                _mm256_castps_si256(_mm256_shuffle_ps::<0xDD>(a, b)),
            );
        }
        // 32 -> 16.
        let mut s = [z; 2];
        for (i, x) in s.iter_mut().enumerate() {
            let (a, b) = (r[2 * i], r[2 * i + 1]);
            let lo = _mm256_blend_epi16::<0xAA>(a, _mm256_slli_epi32::<16>(b));
            let hi = _mm256_blend_epi16::<0xAA>(_mm256_srli_epi32::<16>(a), b);
            *x = _mm256_xor_si256(lo, hi);
        }
        // 16 -> 8.
        let lo8 = _mm256_set1_epi16(0x00FF);
        let hi8 = _mm256_set1_epi16(0xFF00u16 as i16);
        let lo = _mm256_or_si256(_mm256_and_si256(s[0], lo8), _mm256_slli_epi16::<8>(s[1]));
        let hi = _mm256_or_si256(_mm256_srli_epi16::<8>(s[0]), _mm256_and_si256(s[1], hi8));
        let x = _mm256_xor_si256(lo, hi);
        // Byte parity into the top bit: table of nibble parities.
        let tab = _mm256_broadcastsi128_si256(_mm_setr_epi8(
            0, -128, -128, 0, -128, 0, 0, -128, -128, 0, 0, -128, 0, -128, -128, 0,
        ));
        let nib = _mm256_set1_epi8(0x0F);
        let pl = _mm256_shuffle_epi8(tab, _mm256_and_si256(x, nib));
        let ph = _mm256_shuffle_epi8(tab, _mm256_and_si256(_mm256_srli_epi16::<4>(x), nib));
        let bits = _mm256_movemask_epi8(_mm256_xor_si256(pl, ph)) as u32;
        let m = (1u32 << M) - 1;
        ((bits & m) as u16, ((bits >> 16) & m) as u16)
    }
}

/// Four products in GF(2^M) at once (`a[k] b[k]`), on 64-bit vector
/// lanes: the carry-less product by integer multiplication with holes
/// (as `gf::mul`: operands split into the bit classes mod 4, so no
/// partial sum of at most 4 terms carries into the next bit of its
/// class; `vpmuludq` does four lanes at a time), then the reduction.
#[inline(always)]
unsafe fn gf_mul4<const M: usize>(a: [u16; 4], b: [u16; 4]) -> [u16; 4] {
    // SAFETY: AVX2 per the function contract; the store goes to a local
    // array of 32 bytes.
    unsafe {
        let set = |v: [u16; 4]| {
            _mm256_set_epi64x(
                i64::from(v[3]),
                i64::from(v[2]),
                i64::from(v[1]),
                i64::from(v[0]),
            )
        };
        let (x, y) = (set(a), set(b));
        let cls = |v: __m256i, i: usize| _mm256_and_si256(v, _mm256_set1_epi64x(0x1111 << i));
        let xs = [cls(x, 0), cls(x, 1), cls(x, 2), cls(x, 3)];
        let ys = [cls(y, 0), cls(y, 1), cls(y, 2), cls(y, 3)];
        let mut r = _mm256_setzero_si256();
        for k in 0..4 {
            let mut z = _mm256_mul_epu32(xs[0], ys[k]);
            for i in 1..4 {
                z = _mm256_xor_si256(z, _mm256_mul_epu32(xs[i], ys[(k + 4 - i) % 4]));
            }
            r = _mm256_or_si256(r, _mm256_and_si256(z, _mm256_set1_epi64x(0x111_1111 << k)));
        }
        // Reduction, as `gf::reduce`: two folds of the high bits.
        let fold = |r: __m256i, hm: i64| {
            let h = _mm256_and_si256(r, _mm256_set1_epi64x(hm));
            let mut f = r;
            let shifts: &[i32] = if M == 12 { &[9, 12] } else { &[9, 10, 12, 13] };
            for &sh in shifts {
                f = _mm256_xor_si256(f, _mm256_srl_epi64(h, _mm_cvtsi32_si128(sh)));
            }
            f
        };
        let r = if M == 12 {
            fold(fold(r, 0x7F_C000), 0x3000)
        } else {
            fold(fold(r, 0x1FF_0000), 0xE000)
        };
        let r = _mm256_and_si256(r, _mm256_set1_epi64x((1 << M) - 1));
        let mut o = [0u64; 4];
        _mm256_storeu_si256(o.as_mut_ptr().cast(), r);
        [o[0] as u16, o[1] as u16, o[2] as u16, o[3] as u16]
    }
}

/// Each 64-bit lane of `x` (a public shift count below 64) shifted right
/// by `p`.
#[inline(always)]
unsafe fn srl(x: __m256i, p: usize) -> __m256i {
    // SAFETY: AVX2 per the function contract.
    unsafe { _mm256_srl_epi64(x, _mm_cvtsi32_si128(p as i32)) }
}

/// The algorithm; `WIDE`: the layout for 64 < t <= 128, else t <= 64
/// (module documentation).
#[inline(always)]
unsafe fn run<const M: usize, const WIDE: bool>(t: usize, out: &mut [u16], s: &[u16]) {
    // SAFETY: AVX2 per the function contract; the stores go to local
    // arrays of the right size.
    unsafe {
        let z = _mm256_setzero_si256();
        let s = &s[..2 * t];
        // Lanes of coefficients 1..=t (only the B lanes use it; nothing
        // to clear when t fills the lanes: the shift drops lane t).
        let lanes = if WIDE { 128 } else { 64 };
        let keep = if WIDE {
            let k = <[u64; 2] as Poly>::keep(t);
            _mm256_set_epi64x(k[1] as i64, k[0] as i64, k[1] as i64, k[0] as i64)
        } else {
            let k = <[u64; 1] as Poly>::keep(t)[0] as i64;
            _mm256_set1_epi64x(k)
        };
        // Where a shifted-in bit lands: word 0 of each polynomial (wide),
        // or the window words / the B words (narrow).
        let win_bit = if WIDE {
            _mm256_set_epi64x(0, 1, 0, 1)
        } else {
            _mm256_set_epi64x(1, 0, 1, 0)
        };
        let b_bit = if WIDE {
            _mm256_set_epi64x(0, 1, 0, 0)
        } else {
            _mm256_set_epi64x(1, 1, 0, 0)
        };
        // Wide "times x": after the word swap, word 0 of each half
        // shifts by one.
        let sh_wide = _mm256_set_epi64x(0, 1, 0, 1);

        // State: C = 1 (c0), B = x (coefficient 1 = lane 0 of plane 0).
        let mut y = [z; 13];
        y[0] = b_bit;
        // c0 = C[0] now, c0n = C[0] after this step (= b c0).
        let mut c0 = 1u16;
        let mut c0n = 1u16;
        let mut b = 1u16;
        let mut l = 0u16;
        // d_0 = C . w_0 = c0 s[0].
        let mut d = s[0];
        // Window planes: lane k = s[N - k] after shifting in s[N] (the
        // window of step N + 1), in the lanes the products use it from.
        let mut win = [z; 13];
        let mut mk: Planes = [z; 13];

        for (nn, &sn) in s.iter().enumerate() {
            // Shift s[N] into the window.
            let sv = _mm256_set1_epi64x(i64::from(sn));
            for (p, w) in win[..M].iter_mut().enumerate() {
                let bit = _mm256_and_si256(srl(sv, p), win_bit);
                let up = if WIDE {
                    _mm256_sllv_epi64(_mm256_shuffle_epi32::<0x4E>(*w), sh_wide)
                } else {
                    _mm256_slli_epi64::<1>(*w)
                };
                *w = _mm256_or_si256(up, bit);
            }

            // The products: update [b C, d B] and look-ahead [C.w, B.w].
            let (upd, e1, e2);
            if WIDE {
                let dw = mul::<M>(&y, &win);
                (e1, e2) = parities::<M, false>(&dw);
                let v = _mm256_set_epi64x(d.into(), d.into(), b.into(), b.into());
                masks::<M>(&mut mk, v);
                upd = mul::<M>(&y, &mk);
            } else {
                let v = _mm256_set_epi64x(0, d.into(), 0, b.into());
                masks::<M>(&mut mk, v);
                for j in 0..M {
                    mk[j] = _mm256_or_si256(mk[j], win[j]);
                }
                upd = mul::<M>(&y, &mk);
                (e1, e2) = parities::<M, true>(&upd);
            }

            // CT: masks, no branches. Swap iff d != 0 and N >= 2L.
            let dnz = u64::from(!gf::is_zero_mask(d)) & 1;
            let nge = ((nn as u64).wrapping_sub(2 * u64::from(l)) >> 63) ^ 1;
            // CT: opaque, so the compiler cannot rebuild a branch from it.
            let swap = core::hint::black_box((dnz & nge).wrapping_neg());
            let swap16 = swap as u16;

            // b' (the next b) is known now, before the products finish.
            let bn = (b & !swap16) | (d & swap16);
            // Next discrepancy: b (C.w + c0 s[N + 1]) + d (B.w), where
            // b c0 s[N + 1] = c0' s[N + 1] and c0' (the next C[0]) was
            // computed one step ahead. The four field products of the
            // step (the fourth is c0'' = b' c0', again one step ahead) go
            // through one vector multiplier.
            let snext = s.get(nn + 1).copied().unwrap_or(0);
            let pr = gf_mul4::<M>([b, d, bn, c0n], [e1, e2, c0n, snext]);
            let dn = pr[0] ^ pr[1] ^ pr[3];

            // New state: C' = b C + d B, B' = x (C or B) truncated, with
            // C[0] = c0 entering coefficient 1 on a swap.
            let swm = _mm256_set1_epi64x(swap as i64);
            let c0v = _mm256_set1_epi64x(i64::from(c0 & swap16));
            for p in 0..M {
                let yv = y[p];
                let other = _mm256_permute2x128_si256::<0x01>(yv, yv);
                // High lane: C on a swap, else B (`swm` is all-0 or all-1).
                let sel = _mm256_blendv_epi8(yv, other, swm);
                let bit = _mm256_and_si256(srl(c0v, p), b_bit);
                let up = if WIDE {
                    _mm256_sllv_epi64(_mm256_shuffle_epi32::<0x4E>(sel), sh_wide)
                } else {
                    _mm256_slli_epi64::<1>(sel)
                };
                let mut nb = _mm256_or_si256(up, bit);
                if t != lanes {
                    nb = _mm256_and_si256(nb, keep);
                }
                let u = upd[p];
                let cx = _mm256_xor_si256(u, _mm256_permute2x128_si256::<0x01>(u, u));
                let nyv = _mm256_blend_epi32::<0xF0>(cx, nb);
                y[p] = if WIDE {
                    nyv
                } else {
                    // [C', junk, B', B'] -> [C', C', B', B'].
                    _mm256_permute4x64_epi64::<0b10_10_00_00>(nyv)
                };
            }
            c0 = c0n;
            c0n = pr[2];
            l = (l & !swap16) | ((nn as u16 + 1 - l) & swap16);
            b = bn;
            d = dn;
        }

        // The reference's locator is C / c0 (its C[0] is 1).
        let ci = gf::inv(M, c0);
        masks::<M>(&mut mk, _mm256_set1_epi64x(i64::from(ci)));
        let cr = mul::<M>(&y, &mk);
        let mut words = [[0u64; 4]; 13];
        for p in 0..M {
            _mm256_storeu_si256(words[p].as_mut_ptr().cast(), cr[p]);
        }
        crate::bm::unpack_locator(&words[..M], if WIDE { 2 } else { 1 }, &mut out[..t]);
        out[t] = gf::mul(M, c0, ci);
        // Clear the secret state (the stores are kept: `black_box` may
        // read the arrays).
        zeroize::Zeroize::zeroize(words.as_flattened_mut());
        zeroize::Zeroize::zeroize(&mut c0);
        zeroize::Zeroize::zeroize(&mut c0n);
        zeroize::Zeroize::zeroize(&mut b);
        zeroize::Zeroize::zeroize(&mut d);
        y = [z; 13];
        win = [z; 13];
        mk = [z; 13];
        core::hint::black_box((&y, &win, &mk));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bm::tests::{check, time};
    use crate::{McEliece348864, McEliece460896, McEliece6960119, McEliece8192128};
    use pqforge_core::cpu::Avx2;

    /// Safe wrapper for the shared tests.
    fn avx2<P: ParameterSet>(out: &mut [u16], s: &[u16]) {
        assert!(Avx2::detect().is_some());
        // SAFETY: AVX2 support checked just above.
        unsafe { bm::<P>(out, s) }
    }

    #[test]
    fn bm_matches_reference() {
        if Avx2::detect().is_none() {
            return;
        }
        check::<McEliece348864>(avx2::<McEliece348864>, 5, 40);
        check::<McEliece460896>(avx2::<McEliece460896>, 6, 24);
        check::<McEliece6960119>(avx2::<McEliece6960119>, 7, 24);
        check::<McEliece8192128>(avx2::<McEliece8192128>, 8, 24);
    }

    #[test]
    #[ignore = "timing"]
    fn bm_timing() {
        if Avx2::detect().is_none() {
            return;
        }
        time::<McEliece348864>("avx2", avx2::<McEliece348864>);
        time::<McEliece460896>("avx2", avx2::<McEliece460896>);
        time::<McEliece6960119>("avx2", avx2::<McEliece6960119>);
        time::<McEliece8192128>("avx2", avx2::<McEliece8192128>);
    }

    /// See `crate::bm::tests::bm_ctgrind`.
    #[test]
    #[ignore = "run under valgrind"]
    #[cfg(feature = "ctgrind")]
    fn bm_ctgrind() {
        use crate::bm::tests::ctgrind_run;
        if Avx2::detect().is_none() {
            return;
        }
        ctgrind_run::<McEliece348864>(avx2::<McEliece348864>);
        ctgrind_run::<McEliece6960119>(avx2::<McEliece6960119>);
        ctgrind_run::<McEliece8192128>(avx2::<McEliece8192128>);
    }

    #[test]
    fn parities_match_scalar() {
        if Avx2::detect().is_none() {
            return;
        }
        let mut rng = pqforge_core::testing::TestRng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200 {
            let mut v = [[0u64; 4]; 13];
            for p in v.iter_mut().flatten() {
                *p = rng.next_u64();
            }
            let par = |x: u64| (x.count_ones() & 1) as u16;
            let mut want = [0u16; 4];
            for (k, x) in v.iter().enumerate() {
                want[0] |= par(x[0] ^ x[1]) << k;
                want[1] |= par(x[2] ^ x[3]) << k;
                want[2] |= par(x[1]) << k;
                want[3] |= par(x[3]) << k;
            }
            // SAFETY: AVX2 checked above.
            let got = unsafe { par13(&v) };
            assert_eq!(got, want);
        }
    }

    #[target_feature(enable = "avx2")]
    fn par13(v: &[[u64; 4]; 13]) -> [u16; 4] {
        let x: Planes = core::array::from_fn(|k| {
            _mm256_set_epi64x(
                v[k][3] as i64,
                v[k][2] as i64,
                v[k][1] as i64,
                v[k][0] as i64,
            )
        });
        // SAFETY: AVX2 enabled here.
        let (a, b) = unsafe { parities::<13, false>(&x) };
        // SAFETY: AVX2 enabled here.
        let (c, d) = unsafe { parities::<13, true>(&x) };
        [a, b, c, d]
    }
}
