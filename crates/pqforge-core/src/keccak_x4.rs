//! Four independent Keccak-f\[1600\] instances side by side, and the SHAKE
//! sponges on top of them (FIPS 202).
//!
//! Lattice schemes hash many short, independent inputs (ML-KEM's matrix
//! entries `SampleNTT(rho || j || i)`, its noise PRFs, ML-DSA's ExpandA and
//! ExpandS): running four of them at once lets the AVX2 implementation keep
//! one lane of each instance in every 256-bit register.
//!
//! Layout: lane `i` of instance `j` is word `4 * i + j` of a `[u64; 100]`,
//! which is exactly the layout of 25 `__m256i` values. The permutation is
//! chosen at run time: AVX2 when [`crate::cpu::avx2`] says so (and the build
//! does not force `--cfg pqforge_backend="portable"`), otherwise four calls of
//! the portable [`crate::keccak::keccak_f1600`]. Both are constant time.
//!
//! ```
//! use pqforge_core::keccak::shake128;
//! use pqforge_core::keccak_x4::Shake128x4;
//! let inputs: [&[u8]; 4] = [b"a", b"b", b"c", b"d"];
//! let mut x = Shake128x4::absorb_once(inputs);
//! let mut out = [[0u8; 168]; 4];
//! let [o0, o1, o2, o3] = &mut out;
//! x.squeeze_blocks([o0, o1, o2, o3]);
//! let mut one = [0u8; 168];
//! shake128(b"c", &mut one);
//! assert_eq!(out[2], one);
//! ```

use crate::ct::wipe;
use crate::keccak::{RC, keccak_f1600};

/// Number of instances.
pub const LANES: usize = 4;

/// Four Keccak-f\[1600\] permutations in the interleaved layout (portable).
pub fn keccak_f1600_x4_portable(s: &mut [u64; 100]) {
    for j in 0..LANES {
        let mut a: [u64; 25] = core::array::from_fn(|i| s[4 * i + j]);
        keccak_f1600(&mut a);
        for (i, w) in a.iter().enumerate() {
            s[4 * i + j] = *w;
        }
        wipe(&mut a);
    }
}

/// Four Keccak-f\[1600\] permutations in the interleaved layout, on the
/// fastest implementation this CPU supports.
#[inline]
pub fn keccak_f1600_x4(s: &mut [u64; 100]) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::cpu::avx512vl() && crate::cpu::avx512f() {
        avx2::permute_avx512(s);
        return;
    }
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::cpu::avx2() {
        avx2::permute(s);
        return;
    }
    keccak_f1600_x4_portable(s);
}

/// Two four-way states permuted at once: [`keccak_f1600_x4`] on `a` and on
/// `b`. With AVX-512 both run in one pass over 512-bit registers (state
/// `a` in the low halves, `b` in the high halves: eight instances for the
/// price of about four on CPUs with full-width 512-bit units); otherwise
/// one after the other.
#[inline]
pub fn keccak_f1600_x4_pair(a: &mut [u64; 100], b: &mut [u64; 100]) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if crate::cpu::avx512vl() && crate::cpu::avx512f() {
        avx512::permute_pair(a, b);
        return;
    }
    keccak_f1600_x4(a);
    keccak_f1600_x4(b);
}

/// Whether [`keccak_f1600_x4`] uses the AVX2 implementation.
#[must_use]
pub fn uses_avx2() -> bool {
    cfg!(all(
        target_arch = "x86_64",
        not(pqforge_backend = "portable")
    )) && crate::cpu::avx2()
}

/// The 24 rounds of Keccak-p\[1600\] over any lane type, fully unrolled so
/// that every lane index is a constant: `$a` is a `[L; 25]` state and `$e`
/// a scratch state of the same type; `$xor(x, y)`, `$andn(x, y)` = `!x & y`,
/// `$rol!(x, n)` and `$rc(x, u64)` are the lane operations. Each round is
/// theta, then rho-pi-chi fused per output row (the plane-per-plane
/// schedule of the Keccak team's reference code), so only the five column
/// parities, five theta offsets and one row are live at a time; two rounds
/// per iteration alternate between `$a` and `$e`. Expanded once for `u64`
/// and once for `__m256i`.
macro_rules! keccak_rounds {
    ($a:ident, $e:ident, $xor:expr, $andn:expr, $rol:ident, $rc:expr) => {{
        let x = $xor;
        let mut i = 0;
        while i < 24 {
            // round A -> E
            let c0 = x(x(x($a[0], $a[5]), x($a[10], $a[15])), $a[20]);
            let c1 = x(x(x($a[1], $a[6]), x($a[11], $a[16])), $a[21]);
            let c2 = x(x(x($a[2], $a[7]), x($a[12], $a[17])), $a[22]);
            let c3 = x(x(x($a[3], $a[8]), x($a[13], $a[18])), $a[23]);
            let c4 = x(x(x($a[4], $a[9]), x($a[14], $a[19])), $a[24]);
            let d0 = x(c4, $rol!(c1, 1));
            let d1 = x(c0, $rol!(c2, 1));
            let d2 = x(c1, $rol!(c3, 1));
            let d3 = x(c2, $rol!(c4, 1));
            let d4 = x(c3, $rol!(c0, 1));
            let b0 = x($a[0], d0);
            let b1 = $rol!(x($a[6], d1), 44);
            let b2 = $rol!(x($a[12], d2), 43);
            let b3 = $rol!(x($a[18], d3), 21);
            let b4 = $rol!(x($a[24], d4), 14);
            $e[0] = x(b0, $andn(b1, b2));
            $e[1] = x(b1, $andn(b2, b3));
            $e[2] = x(b2, $andn(b3, b4));
            $e[3] = x(b3, $andn(b4, b0));
            $e[4] = x(b4, $andn(b0, b1));
            let b0 = $rol!(x($a[3], d3), 28);
            let b1 = $rol!(x($a[9], d4), 20);
            let b2 = $rol!(x($a[10], d0), 3);
            let b3 = $rol!(x($a[16], d1), 45);
            let b4 = $rol!(x($a[22], d2), 61);
            $e[5] = x(b0, $andn(b1, b2));
            $e[6] = x(b1, $andn(b2, b3));
            $e[7] = x(b2, $andn(b3, b4));
            $e[8] = x(b3, $andn(b4, b0));
            $e[9] = x(b4, $andn(b0, b1));
            let b0 = $rol!(x($a[1], d1), 1);
            let b1 = $rol!(x($a[7], d2), 6);
            let b2 = $rol!(x($a[13], d3), 25);
            let b3 = $rol!(x($a[19], d4), 8);
            let b4 = $rol!(x($a[20], d0), 18);
            $e[10] = x(b0, $andn(b1, b2));
            $e[11] = x(b1, $andn(b2, b3));
            $e[12] = x(b2, $andn(b3, b4));
            $e[13] = x(b3, $andn(b4, b0));
            $e[14] = x(b4, $andn(b0, b1));
            let b0 = $rol!(x($a[4], d4), 27);
            let b1 = $rol!(x($a[5], d0), 36);
            let b2 = $rol!(x($a[11], d1), 10);
            let b3 = $rol!(x($a[17], d2), 15);
            let b4 = $rol!(x($a[23], d3), 56);
            $e[15] = x(b0, $andn(b1, b2));
            $e[16] = x(b1, $andn(b2, b3));
            $e[17] = x(b2, $andn(b3, b4));
            $e[18] = x(b3, $andn(b4, b0));
            $e[19] = x(b4, $andn(b0, b1));
            let b0 = $rol!(x($a[2], d2), 62);
            let b1 = $rol!(x($a[8], d3), 55);
            let b2 = $rol!(x($a[14], d4), 39);
            let b3 = $rol!(x($a[15], d0), 41);
            let b4 = $rol!(x($a[21], d1), 2);
            $e[20] = x(b0, $andn(b1, b2));
            $e[21] = x(b1, $andn(b2, b3));
            $e[22] = x(b2, $andn(b3, b4));
            $e[23] = x(b3, $andn(b4, b0));
            $e[24] = x(b4, $andn(b0, b1));
            $e[0] = $rc($e[0], RC[i]);
            // round E -> A
            let c0 = x(x(x($e[0], $e[5]), x($e[10], $e[15])), $e[20]);
            let c1 = x(x(x($e[1], $e[6]), x($e[11], $e[16])), $e[21]);
            let c2 = x(x(x($e[2], $e[7]), x($e[12], $e[17])), $e[22]);
            let c3 = x(x(x($e[3], $e[8]), x($e[13], $e[18])), $e[23]);
            let c4 = x(x(x($e[4], $e[9]), x($e[14], $e[19])), $e[24]);
            let d0 = x(c4, $rol!(c1, 1));
            let d1 = x(c0, $rol!(c2, 1));
            let d2 = x(c1, $rol!(c3, 1));
            let d3 = x(c2, $rol!(c4, 1));
            let d4 = x(c3, $rol!(c0, 1));
            let b0 = x($e[0], d0);
            let b1 = $rol!(x($e[6], d1), 44);
            let b2 = $rol!(x($e[12], d2), 43);
            let b3 = $rol!(x($e[18], d3), 21);
            let b4 = $rol!(x($e[24], d4), 14);
            $a[0] = x(b0, $andn(b1, b2));
            $a[1] = x(b1, $andn(b2, b3));
            $a[2] = x(b2, $andn(b3, b4));
            $a[3] = x(b3, $andn(b4, b0));
            $a[4] = x(b4, $andn(b0, b1));
            let b0 = $rol!(x($e[3], d3), 28);
            let b1 = $rol!(x($e[9], d4), 20);
            let b2 = $rol!(x($e[10], d0), 3);
            let b3 = $rol!(x($e[16], d1), 45);
            let b4 = $rol!(x($e[22], d2), 61);
            $a[5] = x(b0, $andn(b1, b2));
            $a[6] = x(b1, $andn(b2, b3));
            $a[7] = x(b2, $andn(b3, b4));
            $a[8] = x(b3, $andn(b4, b0));
            $a[9] = x(b4, $andn(b0, b1));
            let b0 = $rol!(x($e[1], d1), 1);
            let b1 = $rol!(x($e[7], d2), 6);
            let b2 = $rol!(x($e[13], d3), 25);
            let b3 = $rol!(x($e[19], d4), 8);
            let b4 = $rol!(x($e[20], d0), 18);
            $a[10] = x(b0, $andn(b1, b2));
            $a[11] = x(b1, $andn(b2, b3));
            $a[12] = x(b2, $andn(b3, b4));
            $a[13] = x(b3, $andn(b4, b0));
            $a[14] = x(b4, $andn(b0, b1));
            let b0 = $rol!(x($e[4], d4), 27);
            let b1 = $rol!(x($e[5], d0), 36);
            let b2 = $rol!(x($e[11], d1), 10);
            let b3 = $rol!(x($e[17], d2), 15);
            let b4 = $rol!(x($e[23], d3), 56);
            $a[15] = x(b0, $andn(b1, b2));
            $a[16] = x(b1, $andn(b2, b3));
            $a[17] = x(b2, $andn(b3, b4));
            $a[18] = x(b3, $andn(b4, b0));
            $a[19] = x(b4, $andn(b0, b1));
            let b0 = $rol!(x($e[2], d2), 62);
            let b1 = $rol!(x($e[8], d3), 55);
            let b2 = $rol!(x($e[14], d4), 39);
            let b3 = $rol!(x($e[15], d0), 41);
            let b4 = $rol!(x($e[21], d1), 2);
            $a[20] = x(b0, $andn(b1, b2));
            $a[21] = x(b1, $andn(b2, b3));
            $a[22] = x(b2, $andn(b3, b4));
            $a[23] = x(b3, $andn(b4, b0));
            $a[24] = x(b4, $andn(b0, b1));
            $a[0] = $rc($a[0], RC[i + 1]);
            i += 2;
        }
    }};
}

macro_rules! rol64 {
    ($x:expr, $n:literal) => {
        u64::rotate_left($x, $n)
    };
}

/// Keccak-f\[1600\] on one state, from the same unrolled round code as the
/// AVX2 four-way permutation: same result as
/// [`crate::keccak::keccak_f1600`]. Uses BMI1/BMI2 (three-operand `andn`
/// and `rorx`) when the CPU has them. On 32-bit targets, where 64-bit
/// rotations cost several instructions, this is the bit-interleaved
/// [`crate::keccak::keccak_f1600_32`] instead.
#[inline]
pub fn keccak_f1600_unrolled(state: &mut [u64; 25]) {
    #[cfg(target_pointer_width = "32")]
    crate::keccak::keccak_f1600_32(state);
    #[cfg(not(target_pointer_width = "32"))]
    {
        #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
        if crate::cpu::bmi1() && crate::cpu::bmi2() {
            bmi::permute(state);
            return;
        }
        permute_generic(state);
    }
}

#[cfg_attr(target_pointer_width = "32", allow(dead_code))]
#[inline(always)]
fn permute_generic(state: &mut [u64; 25]) {
    let mut a = *state;
    let mut e = [0u64; 25];
    keccak_rounds!(
        a,
        e,
        |p: u64, q: u64| p ^ q,
        |p: u64, q: u64| !p & q,
        rol64,
        |p: u64, c: u64| p ^ c
    );
    *state = a;
}

#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
#[allow(unsafe_code)]
mod bmi {
    /// Entry point once BMI1 and BMI2 support is known.
    pub(super) fn permute(s: &mut [u64; 25]) {
        // SAFETY: the only caller checked `cpu::bmi1()` and `cpu::bmi2()`.
        unsafe { permute_bmi(s) }
    }

    #[target_feature(enable = "bmi1,bmi2")]
    fn permute_bmi(s: &mut [u64; 25]) {
        super::permute_generic(s);
    }
}

#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
#[allow(unsafe_code)]
mod avx2 {
    use core::arch::x86_64::{
        __m256i, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi64x,
        _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256,
        _mm256_xor_si256,
    };

    use super::RC;

    /// Entry point once AVX2 support is known.
    pub(super) fn permute(s: &mut [u64; 100]) {
        debug_assert!(crate::cpu::avx2());
        // SAFETY: the only caller checked `cpu::avx2()` first.
        unsafe { permute_avx2(s) }
    }

    /// Byte shuffles rotating every 64-bit lane left by 8 and by 56 bits.
    const ROT8: [u8; 32] = [
        7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, //
        7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14,
    ];
    const ROT56: [u8; 32] = [
        1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, //
        1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
    ];

    /// Byte shuffle by a constant table (folded into `vpshufb`'s memory
    /// operand).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn shuffle(x: __m256i, table: &[u8; 32]) -> __m256i {
        // SAFETY: 32 readable bytes, unaligned load.
        let m = unsafe { _mm256_loadu_si256(table.as_ptr().cast()) };
        _mm256_shuffle_epi8(x, m)
    }

    macro_rules! rol256 {
        ($x:expr, 8) => {
            shuffle($x, &ROT8)
        };
        ($x:expr, 56) => {
            shuffle($x, &ROT56)
        };
        ($x:expr, $n:literal) => {
            _mm256_or_si256(
                _mm256_slli_epi64::<$n>($x),
                _mm256_srli_epi64::<{ 64 - $n }>($x),
            )
        };
    }

    /// The four-way permutation on 25 `__m256i` registers, expanded into
    /// each `#[target_feature]` function below (a macro, not a function:
    /// LLVM does not inline an AVX2 function into an AVX-512 one).
    macro_rules! permute_body {
        ($s:ident) => {{
            let s: &mut [u64; 100] = $s;
            let p = s.as_mut_ptr().cast::<__m256i>();
            let mut a: [__m256i; 25] = core::array::from_fn(|i| {
                // SAFETY: `s` is 800 bytes = 25 unaligned 32-byte loads, in
                // bounds; AVX2 is enabled on the enclosing function.
                unsafe { _mm256_loadu_si256(p.add(i).cast_const()) }
            });
            let mut e = a;
            keccak_rounds!(
                a,
                e,
                _mm256_xor_si256,
                _mm256_andnot_si256,
                rol256,
                |v, c: u64| _mm256_xor_si256(v, _mm256_set1_epi64x(c as i64))
            );
            for (i, v) in a.iter().enumerate() {
                // SAFETY: as for the loads above.
                unsafe { _mm256_storeu_si256(p.add(i), *v) };
            }
        }};
    }

    // Unaligned loads and stores only, so the pointer cast needs no alignment.
    #[allow(clippy::cast_ptr_alignment)]
    #[target_feature(enable = "avx2")]
    fn permute_avx2(s: &mut [u64; 100]) {
        permute_body!(s);
    }

    /// Entry point once AVX-512F and AVX-512VL support is known: the same
    /// round code on the same 256-bit registers, compiled with AVX-512VL so
    /// that every rotation is one `vprolq` and every chi term (`b0 ^ (!b1 &
    /// b2)`) and three-input xor of theta one `vpternlogq` (LLVM selects
    /// both from the generic expressions). About 1.5x faster than AVX2.
    pub(super) fn permute_avx512(s: &mut [u64; 100]) {
        debug_assert!(crate::cpu::avx512vl() && crate::cpu::avx512f());
        // SAFETY: the only caller checked `cpu::avx512f()` and
        // `cpu::avx512vl()` first (AVX-512VL implies AVX2 registers).
        unsafe { permute_avx512vl(s) }
    }

    #[allow(clippy::cast_ptr_alignment)]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    fn permute_avx512vl(s: &mut [u64; 100]) {
        permute_body!(s);
    }
}

#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
#[allow(unsafe_code)]
mod avx512 {
    use core::arch::x86_64::{
        __m512i, _mm256_loadu_si256, _mm256_storeu_si256, _mm512_andnot_si512,
        _mm512_castsi256_si512, _mm512_castsi512_si256, _mm512_extracti64x4_epi64,
        _mm512_inserti64x4, _mm512_rol_epi64, _mm512_set1_epi64, _mm512_xor_si512,
    };

    use super::RC;

    /// Entry point once AVX-512F and AVX-512VL support is known.
    pub(super) fn permute_pair(a: &mut [u64; 100], b: &mut [u64; 100]) {
        debug_assert!(crate::cpu::avx512vl() && crate::cpu::avx512f());
        // SAFETY: the only caller checked `cpu::avx512f()` and
        // `cpu::avx512vl()` first.
        unsafe { permute_pair_avx512(a, b) }
    }

    macro_rules! rol512 {
        ($x:expr, $n:literal) => {
            _mm512_rol_epi64::<$n>($x)
        };
    }

    // Unaligned loads and stores only, so the pointer casts need no alignment.
    #[allow(clippy::cast_ptr_alignment)]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    fn permute_pair_avx512(sa: &mut [u64; 100], sb: &mut [u64; 100]) {
        let pa = sa.as_mut_ptr().cast::<core::arch::x86_64::__m256i>();
        let pb = sb.as_mut_ptr().cast::<core::arch::x86_64::__m256i>();
        let mut a: [__m512i; 25] = core::array::from_fn(|i| {
            // SAFETY: each state is 800 bytes = 25 unaligned 32-byte loads,
            // in bounds; AVX-512F is enabled on this function.
            unsafe {
                let lo = _mm256_loadu_si256(pa.add(i).cast_const());
                let hi = _mm256_loadu_si256(pb.add(i).cast_const());
                _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
            }
        });
        let mut e = a;
        keccak_rounds!(
            a,
            e,
            _mm512_xor_si512,
            _mm512_andnot_si512,
            rol512,
            |v, c: u64| _mm512_xor_si512(v, _mm512_set1_epi64(c as i64))
        );
        for (i, v) in a.iter().enumerate() {
            // SAFETY: as for the loads above.
            unsafe {
                _mm256_storeu_si256(pa.add(i), _mm512_castsi512_si256(*v));
                _mm256_storeu_si256(pb.add(i), _mm512_extracti64x4_epi64::<1>(*v));
            }
        }
    }
}

/// Four Keccak-f\[1600\] permutations in the interleaved layout on
/// bit-interleaved lanes (see [`crate::keccak::interleave`]): the 32-bit
/// permutation without converting every lane in and out.
#[cfg(any(test, target_pointer_width = "32"))]
fn keccak_f1600_x4_words(s: &mut [u64; 100]) {
    for j in 0..LANES {
        let mut a: [u32; 50] =
            core::array::from_fn(|w| (s[4 * (w / 2) + j] >> (32 * (w % 2))) as u32);
        crate::keccak::keccak_f1600_words(&mut a);
        for i in 0..25 {
            s[4 * i + j] = (u64::from(a[2 * i + 1]) << 32) | u64::from(a[2 * i]);
        }
        wipe(&mut a);
    }
}

/// The state form of [`SpongeX4`]: on 32-bit targets its lanes stay
/// bit-interleaved between permutations and are converted only as bytes go
/// in or out; elsewhere plain lanes.
#[cfg(target_pointer_width = "32")]
mod x4form {
    pub(super) use super::keccak_f1600_x4_words as permute;
    pub(super) use crate::keccak::{deinterleave as lane_out, interleave as lane_in};

    /// Both states, one after the other.
    pub(super) fn permute_pair(a: &mut [u64; 100], b: &mut [u64; 100]) {
        permute(a);
        permute(b);
    }
}
#[cfg(not(target_pointer_width = "32"))]
mod x4form {
    pub(super) use super::keccak_f1600_x4 as permute;
    pub(super) use super::keccak_f1600_x4_pair as permute_pair;

    #[inline(always)]
    pub(super) fn lane_in(x: u64) -> u64 {
        x
    }

    #[inline(always)]
    pub(super) fn lane_out(x: u64) -> u64 {
        x
    }
}

/// Four SHAKE-style sponges of rate `RATE` bytes and domain byte `DS`, run in
/// lock step on inputs of equal length. The state is wiped on drop.
#[derive(Clone)]
pub struct SpongeX4<const RATE: usize, const DS: u8> {
    s: [u64; 100],
    /// Whether the state must be permuted before its next output block:
    /// its current block was squeezed, or absorption left the final
    /// permutation pending.
    used: bool,
}

/// Four SHAKE128 instances.
pub type Shake128x4 = SpongeX4<168, 0x1F>;
/// Four SHAKE256 instances.
pub type Shake256x4 = SpongeX4<136, 0x1F>;

impl<const RATE: usize, const DS: u8> Drop for SpongeX4<RATE, DS> {
    fn drop(&mut self) {
        wipe(&mut self.s);
    }
}

impl<const RATE: usize, const DS: u8> SpongeX4<RATE, DS> {
    /// Absorbs one complete message per instance and pads; the sponges are
    /// then ready to squeeze.
    ///
    /// # Panics
    /// If the four inputs differ in length.
    #[must_use]
    pub fn absorb_once(inputs: [&[u8]; LANES]) -> Self {
        let len = inputs[0].len();
        assert!(
            inputs.iter().all(|m| m.len() == len),
            "SpongeX4::absorb_once: inputs of different lengths"
        );
        let mut s = [0u64; 100];
        let mut off = 0;
        while len - off >= RATE {
            for (j, m) in inputs.iter().enumerate() {
                let blk = &m[off..off + RATE];
                for i in 0..RATE / 8 {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(&blk[8 * i..8 * i + 8]);
                    s[4 * i + j] ^= x4form::lane_in(u64::from_le_bytes(b));
                }
            }
            x4form::permute(&mut s);
            off += RATE;
        }
        // Last (partial) block with padding, assembled per lane then added
        // as whole words.
        let rest = len - off;
        let mut blk = [0u8; 200];
        for (j, m) in inputs.iter().enumerate() {
            blk[..RATE].fill(0);
            blk[..rest].copy_from_slice(&m[off..]);
            blk[rest] ^= DS;
            blk[RATE - 1] ^= 0x80;
            for i in 0..RATE / 8 {
                let mut b = [0u8; 8];
                b.copy_from_slice(&blk[8 * i..8 * i + 8]);
                s[4 * i + j] ^= x4form::lane_in(u64::from_le_bytes(b));
            }
        }
        wipe(&mut blk);
        // The final permutation is left to the first squeeze (`used`), so
        // that [`SpongeX4::squeeze_blocks_pair`] runs it paired too.
        Self { s, used: true }
    }

    /// [`SpongeX4::squeeze_blocks`] on two sponges at once (`out[..4]` from
    /// `x`, `out[4..]` from `y`, all of one length): their permutations run
    /// as one [`keccak_f1600_x4_pair`] (eight instances in 512-bit
    /// registers with AVX-512). The two must be at the same point: both
    /// fresh from [`SpongeX4::absorb_once`], or squeezed alike since.
    ///
    /// # Panics
    /// If the outputs differ in length or are not a multiple of `RATE`, or
    /// if only one of the two sponges has been squeezed.
    pub fn squeeze_blocks_pair(x: &mut Self, y: &mut Self, out: [&mut [u8]; 2 * LANES]) {
        let len = out[0].len();
        assert!(
            out.iter().all(|o| o.len() == len),
            "SpongeX4::squeeze_blocks_pair: outputs of different lengths"
        );
        assert_eq!(
            x.used, y.used,
            "SpongeX4::squeeze_blocks_pair: sponges out of step"
        );
        let mut out = out;
        let mut off = 0;
        while off < len {
            assert!(
                off + RATE <= len,
                "SpongeX4::squeeze_blocks_pair: length not a multiple of the rate"
            );
            if x.used {
                x4form::permute_pair(&mut x.s, &mut y.s);
            }
            for (j, o) in out.iter_mut().enumerate() {
                let st = if j < LANES { &x.s } else { &y.s };
                let blk = &mut o[off..off + RATE];
                for i in 0..RATE / 8 {
                    blk[8 * i..8 * i + 8]
                        .copy_from_slice(&x4form::lane_out(st[4 * i + j % LANES]).to_le_bytes());
                }
            }
            x.used = true;
            y.used = true;
            off += RATE;
        }
    }

    /// Squeezes whole blocks: each output gets `out[j].len() / RATE` blocks.
    ///
    /// # Panics
    /// If the outputs differ in length or are not a multiple of `RATE`.
    pub fn squeeze_blocks(&mut self, out: [&mut [u8]; LANES]) {
        let len = out[0].len();
        assert!(
            out.iter().all(|o| o.len() == len),
            "SpongeX4::squeeze_blocks: outputs of different lengths"
        );
        let mut out = out;
        let mut off = 0;
        // No `len % RATE`: at opt-level "z" that is a `div` instruction.
        while off < len {
            assert!(
                off + RATE <= len,
                "SpongeX4::squeeze_blocks: length not a multiple of the rate"
            );
            if self.used {
                x4form::permute(&mut self.s);
            }
            for (j, o) in out.iter_mut().enumerate() {
                let blk = &mut o[off..off + RATE];
                for i in 0..RATE / 8 {
                    blk[8 * i..8 * i + 8]
                        .copy_from_slice(&x4form::lane_out(self.s[4 * i + j]).to_le_bytes());
                }
            }
            self.used = true;
            off += RATE;
        }
    }
}

/// Four SHAKE128 sponges absorbing `inputs` (equal lengths).
///
/// # Panics
/// If the inputs differ in length.
#[must_use]
pub fn shake128x4_absorb(inputs: [&[u8]; LANES]) -> Shake128x4 {
    Shake128x4::absorb_once(inputs)
}

/// Squeezes whole 168-byte blocks from four SHAKE128 sponges.
///
/// # Panics
/// If the outputs differ in length or are not a multiple of 168 bytes.
pub fn shake128x4_squeeze(state: &mut Shake128x4, out: [&mut [u8]; LANES]) {
    state.squeeze_blocks(out);
}

/// Four SHAKE256 sponges absorbing `inputs` (equal lengths).
///
/// # Panics
/// If the inputs differ in length.
#[must_use]
pub fn shake256x4_absorb(inputs: [&[u8]; LANES]) -> Shake256x4 {
    Shake256x4::absorb_once(inputs)
}

/// Squeezes whole 136-byte blocks from four SHAKE256 sponges.
///
/// # Panics
/// If the outputs differ in length or are not a multiple of 136 bytes.
pub fn shake256x4_squeeze(state: &mut Shake256x4, out: [&mut [u8]; LANES]) {
    state.squeeze_blocks(out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keccak::{shake128, shake256};

    #[test]
    fn permutation_matches_single() {
        let mut s: [u64; 100] =
            core::array::from_fn(|i| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut t = s;
        keccak_f1600_x4(&mut s);
        keccak_f1600_x4_portable(&mut t);
        assert_eq!(s, t);
        for j in 0..LANES {
            let mut a: [u64; 25] =
                core::array::from_fn(|i| ((4 * i + j) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            keccak_f1600(&mut a);
            for i in 0..25 {
                assert_eq!(a[i], t[4 * i + j]);
            }
        }
    }

    #[test]
    fn words_permutation_matches() {
        use crate::keccak::{deinterleave, interleave};
        let mut s: [u64; 100] =
            core::array::from_fn(|i| (i as u64 + 5).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut t = s.map(interleave);
        keccak_f1600_x4_portable(&mut s);
        keccak_f1600_x4_words(&mut t);
        assert_eq!(s, t.map(deinterleave));
    }

    #[test]
    fn unrolled_matches_reference() {
        let mut a: [u64; 25] = core::array::from_fn(|i| (i as u64) << 7 | 3);
        let mut b = a;
        for _ in 0..3 {
            crate::keccak::keccak_f1600_64(&mut a);
            keccak_f1600_unrolled(&mut b);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn shake_matches_single() {
        let data: [u8; 400] = core::array::from_fn(|i| (i * 13 + 1) as u8);
        for len in [0usize, 1, 33, 34, 135, 136, 167, 168, 169, 300] {
            let ins: [&[u8]; 4] = core::array::from_fn(|j| &data[j..j + len]);
            let mut x = Shake128x4::absorb_once(ins);
            let mut o = [[0u8; 336]; 4];
            let [a, b, c, d] = &mut o;
            shake128x4_squeeze(&mut x, [a, b, c, d]);
            for j in 0..4 {
                let mut want = [0u8; 336];
                shake128(ins[j], &mut want);
                assert_eq!(o[j], want, "shake128 len {len} lane {j}");
            }
            let mut y = shake256x4_absorb(ins);
            let mut o = [[0u8; 272]; 4];
            let [a, b, c, d] = &mut o;
            y.squeeze_blocks([a, b, c, d]);
            for j in 0..4 {
                let mut want = [0u8; 272];
                shake256(ins[j], &mut want);
                assert_eq!(o[j], want, "shake256 len {len} lane {j}");
            }
        }
    }

    #[test]
    fn pair_squeeze_matches_single() {
        let data: [u8; 400] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        for len in [0usize, 34, 168, 200] {
            let ins: [&[u8]; 8] = core::array::from_fn(|j| &data[j..j + len]);
            let mut x = Shake128x4::absorb_once([ins[0], ins[1], ins[2], ins[3]]);
            let mut y = Shake128x4::absorb_once([ins[4], ins[5], ins[6], ins[7]]);
            let mut o = [[0u8; 504]; 8];
            let [o0, o1, o2, o3, o4, o5, o6, o7] = &mut o;
            // One block, then two: the pending and the squeezed states.
            let [p0, p1, p2, p3, p4, p5, p6, p7] =
                [o0, o1, o2, o3, o4, o5, o6, o7].map(|b| b.split_at_mut(168));
            Shake128x4::squeeze_blocks_pair(
                &mut x,
                &mut y,
                [p0.0, p1.0, p2.0, p3.0, p4.0, p5.0, p6.0, p7.0],
            );
            Shake128x4::squeeze_blocks_pair(
                &mut x,
                &mut y,
                [p0.1, p1.1, p2.1, p3.1, p4.1, p5.1, p6.1, p7.1],
            );
            for j in 0..8 {
                let mut want = [0u8; 504];
                shake128(ins[j], &mut want);
                assert_eq!(o[j], want, "pair shake128 len {len} lane {j}");
            }
        }
    }
}
