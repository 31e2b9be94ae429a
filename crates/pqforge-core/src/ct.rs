//! Constant-time primitives.
//!
//! Masks are `0` or all-ones words. Every mask passes through
//! [`core::hint::black_box`] before it is used, so LLVM cannot prove it is
//! 0/1 and turn the select back into a branch (the pattern behind
//! RUSTSEC-2024-0344 and the HQC `x86-cmov-converter` issue). The valgrind
//! harness checks the compiled result at every shipped opt-level.

use core::hint::black_box;

/// Returns `x`, hiding its value from the optimiser (so that a 0/1 value
/// that becomes a mask is not turned back into a branch). On 32-bit Arm
/// (the Cortex-M4) an empty `asm!` on a register: [`black_box`] goes
/// through the stack there, a store and a load per call, which costs
/// Falcon's emulated floating point and HQC's scatter a tenth of their
/// time. Elsewhere [`black_box`] (what the valgrind harness checks on
/// x86_64).
#[inline(always)]
#[must_use]
pub fn barrier_u32(x: u32) -> u32 {
    #[cfg(target_arch = "arm")]
    {
        let mut x = x;
        // SAFETY: an empty instruction sequence on one register; no
        // memory, stack or flags touched.
        #[allow(unsafe_code)]
        unsafe {
            core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
        }
        x
    }
    #[cfg(not(target_arch = "arm"))]
    {
        black_box(x)
    }
}

/// `0xFF` if `a == b` (same length), else `0x00`; time depends only on the
/// lengths.
///
/// Slices of different lengths compare unequal (lengths are public).
#[must_use]
pub fn eq_mask(a: &[u8], b: &[u8]) -> u8 {
    if a.len() != b.len() {
        return 0;
    }
    let mut acc = 0u8;
    for (x, y) in a.iter().zip(b) {
        acc |= x ^ y;
    }
    nonzero_to_mask_u8(black_box(acc)) ^ 0xFF
}

/// Like [`eq_mask`] over `u64` words.
#[must_use]
pub fn eq_mask_u64(a: &[u64], b: &[u64]) -> u64 {
    if a.len() != b.len() {
        return 0;
    }
    let mut acc = 0u64;
    for (x, y) in a.iter().zip(b) {
        acc |= x ^ y;
    }
    !nonzero_mask_u64(acc)
}

/// Zeroes `v` with plain (vectorisable) stores that an optimisation barrier
/// keeps alive: the secret-wiping counterpart of `zeroize` for large
/// buffers, whose element-wise volatile stores cost several percent of a
/// lattice key generation (2-3 KB keys).
///
/// ```
/// let mut key = [0x5Au8; 2400];
/// pqforge_core::ct::wipe(&mut key);
/// assert!(key.iter().all(|&b| b == 0));
/// ```
#[inline]
pub fn wipe<T: Copy + Default>(v: &mut [T]) {
    v.fill(T::default());
    black_box(v);
}

/// Zeroes secret `v` the way that is fastest on this target: on x86_64
/// [`wipe`] (the volatile element stores of `zeroize` cost about as much as
/// a ring product there), elsewhere `zeroize` (on the Cortex-M4 the
/// barrier version measured about 5% slower per NTRU Prime decapsulation).
///
/// ```
/// let mut poly = [0x1234u16; 701];
/// pqforge_core::ct::wipe_secret(&mut poly);
/// assert!(poly.iter().all(|&c| c == 0));
/// ```
#[inline]
pub fn wipe_secret<T: Copy + Default + zeroize::DefaultIsZeroes>(v: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    wipe(v);
    #[cfg(not(target_arch = "x86_64"))]
    zeroize::Zeroize::zeroize(v);
}

/// All-ones if `x != 0`, else 0.
#[inline]
#[must_use]
pub fn nonzero_mask_u64(x: u64) -> u64 {
    let x = black_box(x);
    // (x | -x) has its top bit set iff x != 0.
    black_box(((x | x.wrapping_neg()) >> 63).wrapping_neg())
}

/// All-ones if `x != 0`, else 0.
#[inline]
#[must_use]
pub fn nonzero_mask_u32(x: u32) -> u32 {
    let x = barrier_u32(x);
    barrier_u32(((x | x.wrapping_neg()) >> 31).wrapping_neg())
}

/// `0xFF` if `x != 0`, else 0.
#[inline]
#[must_use]
pub fn nonzero_to_mask_u8(x: u8) -> u8 {
    nonzero_mask_u32(u32::from(x)) as u8
}

/// All-ones if `a == b`, else 0.
#[inline]
#[must_use]
pub fn eq_mask_u32(a: u32, b: u32) -> u32 {
    !nonzero_mask_u32(a ^ b)
}

/// All-ones if `a < b` (unsigned), else 0.
#[inline]
#[must_use]
pub fn lt_mask_u32(a: u32, b: u32) -> u32 {
    let (a, b) = (black_box(a), black_box(b));
    // Borrow of a - b in 64-bit arithmetic.
    black_box(((u64::from(a).wrapping_sub(u64::from(b))) >> 63).wrapping_neg() as u32)
}

/// All-ones if `a < b` (unsigned), else 0.
#[inline]
#[must_use]
pub fn lt_mask_u64(a: u64, b: u64) -> u64 {
    let (a, b) = (black_box(a), black_box(b));
    // Standard borrow formula: top bit of ((!a & b) | (!(a ^ b) & (a - b))).
    let d = a.wrapping_sub(b);
    black_box((((!a & b) | (!(a ^ b) & d)) >> 63).wrapping_neg())
}

/// `out[i] = if mask == 0xFF { a[i] } else { b[i] }`, branch-free.
///
/// # Panics
/// If the three slices differ in length (lengths are public).
pub fn select(mask: u8, a: &[u8], b: &[u8], out: &mut [u8]) {
    assert!(
        a.len() == b.len() && a.len() == out.len(),
        "ct::select lengths"
    );
    let m = black_box(mask);
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = y ^ (m & (x ^ y));
    }
}

/// `dst[i] = src[i]` where `mask == 0xFF`, unchanged where `mask == 0`.
///
/// # Panics
/// If the slices differ in length.
pub fn cmov(mask: u8, dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len(), "ct::cmov lengths");
    let m = black_box(mask);
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= m & (*d ^ s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(eq_mask(b"abc", b"abc"), 0xFF);
        assert_eq!(eq_mask(b"abc", b"abd"), 0);
        assert_eq!(eq_mask(b"abc", b"ab"), 0);
        assert_eq!(eq_mask_u64(&[1, 2], &[1, 2]), u64::MAX);
        assert_eq!(eq_mask_u64(&[1, 2], &[1, 3]), 0);
        assert_eq!(nonzero_mask_u64(0), 0);
        assert_eq!(nonzero_mask_u64(1 << 63), u64::MAX);
        assert_eq!(lt_mask_u32(3, 4), u32::MAX);
        assert_eq!(lt_mask_u32(4, 4), 0);
        assert_eq!(lt_mask_u32(0, u32::MAX), u32::MAX);
        for (a, b) in [
            (0u64, 1u64),
            (u64::MAX, 0),
            (5, 5),
            (1 << 63, (1 << 63) + 1),
            (7, 1 << 63),
        ] {
            assert_eq!(lt_mask_u64(a, b) == u64::MAX, a < b, "{a} {b}");
        }
        let mut o = [0u8; 3];
        select(0xFF, b"xyz", b"abc", &mut o);
        assert_eq!(&o, b"xyz");
        select(0, b"xyz", b"abc", &mut o);
        assert_eq!(&o, b"abc");
        cmov(0xFF, &mut o, b"qqq");
        assert_eq!(&o, b"qqq");
        cmov(0, &mut o, b"rrr");
        assert_eq!(&o, b"qqq");
    }
}
