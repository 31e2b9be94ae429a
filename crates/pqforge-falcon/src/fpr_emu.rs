//! Integer emulation of binary64 ([`Fpr`] as raw `u64` bit patterns), for
//! targets without a constant-time double-precision FPU (Cortex-M4F has
//! single precision only). Same design as the Falcon reference `fpr.c`:
//! mantissas are handled as integers with a "sticky" low bit, every
//! data-dependent choice is a mask, and rounding is round-to-nearest-even.
//!
//! Deviations from IEEE-754, all outside what Falcon ever computes: results
//! below 2^-1022 (subnormals) are flushed to zero with the sign kept,
//! subnormal inputs are not supported, and infinities/NaNs are not
//! handled. Zero results of additions are +0 except (-0) + (-0); a zero
//! dividend gives +0 whatever the signs; `lt` orders -0 below +0; `half`
//! of the smallest normals gives +0; `floor(-0)` is -1.

use core::ops::{Add, Div, Mul, Neg, Sub};

/// A binary64 value, stored as its bit pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct Fpr(u64);

/// Hides a 0/1 condition bit from the optimiser before it becomes a mask:
/// without it LLVM turns some `bit.wrapping_neg() & x` patterns back into
/// branches or selects on secret data (seen in the valgrind harness).
#[inline(always)]
fn bb(bit: u32) -> u32 {
    pqforge_core::ct::barrier_u32(bit)
}

/// Right shift of a 64-bit word by 0..=63 with only 32-bit variable shifts
/// (constant time on 32-bit cores).
#[inline(always)]
fn ursh(mut x: u64, n: u32) -> u64 {
    x ^= (x ^ (x >> 32)) & u64::from(bb((n >> 5) & 1)).wrapping_neg();
    x >> (n & 31)
}

#[inline(always)]
fn irsh(mut x: i64, n: u32) -> i64 {
    x ^= (x ^ (x >> 32)) & i64::from(bb((n >> 5) & 1)).wrapping_neg();
    x >> (n & 31)
}

#[inline(always)]
fn ulsh(mut x: u64, n: u32) -> u64 {
    x ^= (x ^ (x << 32)) & u64::from(bb((n >> 5) & 1)).wrapping_neg();
    x << (n & 31)
}

/// Packs sign `s`, exponent `e` and mantissa `m` (either 0 or in
/// 2^54..2^55-1, lowest bit sticky) into a rounded binary64; the value is
/// (-1)^s * m * 2^e. Exponents below the normal range flush to zero.
#[inline(always)]
fn make(s: u32, e: i32, m: u64) -> Fpr {
    let mut e = e.wrapping_add(1076);
    let t = (e as u32) >> 31;
    let m = m & u64::from(bb(t)).wrapping_sub(1);
    let t = (m >> 54) as u32;
    e &= (bb(t) as i32).wrapping_neg();
    let mut x = ((u64::from(s) << 63) | (m >> 2)).wrapping_add(u64::from(e as u32) << 52);
    // Round to nearest even: the low three bits 011, 110 and 111 round up.
    let f = (m as u32) & 7;
    x = x.wrapping_add(u64::from((0xC8u32 >> f) & 1));
    Fpr(x)
}

/// Normalises `m` so that its top bit is set, adjusting `e` (leaves 0 as 0
/// with an exponent to be corrected by the caller).
#[inline(always)]
fn norm64(m: &mut u64, e: &mut i32) {
    #[cfg(target_arch = "arm")]
    {
        norm64_clz(m, e);
    }
    #[cfg(not(target_arch = "arm"))]
    norm64_steps(m, e);
}

/// [`norm64`] with Arm's `clz` (one cycle whatever the operand on the
/// Cortex-M4, no branch): the shift count in one go instead of six
/// conditional steps on 64-bit words. For `m = 0` the steps shift 63
/// times; so does this (64 clamped to 63).
// Compiled everywhere so that the host tests compare it with the steps.
#[cfg_attr(not(target_arch = "arm"), allow(dead_code))]
#[inline(always)]
fn norm64_clz(m: &mut u64, e: &mut i32) {
    let hi = (*m >> 32) as u32;
    let lo = *m as u32;
    let zh = hi.leading_zeros();
    // zh = 32 exactly when hi = 0: then add the low word's count.
    let z = zh + (lo.leading_zeros() & bb(zh >> 5).wrapping_neg());
    let z = z - (z >> 6);
    *m = ulsh(*m, z);
    // The steps add the width of each step not taken: 63 - z in all.
    *e -= z as i32;
}

/// [`norm64`] in six conditional steps (32, 16, ..., 1 bits).
#[cfg_attr(target_arch = "arm", allow(dead_code))]
#[inline(always)]
fn norm64_steps(m: &mut u64, e: &mut i32) {
    *e -= 63;
    for &sh in &[32u32, 16, 8, 4, 2, 1] {
        let top = (*m >> (64 - sh)) as u32;
        let nz = (top | top.wrapping_neg()) >> 31;
        // Shift left by sh when the top sh bits are all zero.
        *m ^= (*m ^ (*m << sh)) & u64::from(nz).wrapping_sub(1);
        *e += (nz * sh) as i32;
    }
}

impl Fpr {
    /// The value with IEEE-754 bit pattern `b`.
    #[inline(always)]
    #[must_use]
    pub const fn from_bits(b: u64) -> Self {
        Fpr(b)
    }

    /// The IEEE-754 bit pattern.
    #[inline(always)]
    #[must_use]
    pub fn to_bits(self) -> u64 {
        self.0
    }

    /// `i * 2^sc`, rounded to nearest (|i| < 2^63).
    #[must_use]
    pub fn scaled(i: i64, sc: i32) -> Self {
        let s = ((i as u64) >> 63) as u32;
        let i = (i ^ i64::from(s).wrapping_neg()).wrapping_add(i64::from(s));
        let mut m = i as u64;
        let mut e = 9 + sc;
        norm64(&mut m, &mut e);
        // Down to 2^54..2^55-1 with a sticky bit.
        m |= u64::from(((m as u32) & 0x1FF).wrapping_add(0x1FF));
        m >>= 9;
        let t = ((i | i.wrapping_neg()) as u64 >> 63) as u32;
        m &= u64::from(t).wrapping_neg();
        e &= (t as i32).wrapping_neg();
        make(s, e, m)
    }

    /// Conversion from a signed integer (|i| < 2^63), rounded to nearest.
    #[inline(always)]
    #[must_use]
    pub fn of(i: i64) -> Self {
        Self::scaled(i, 0)
    }

    /// `x / 2` (zero stays zero).
    #[inline(always)]
    #[must_use]
    pub fn half(self) -> Self {
        let mut x = self.0.wrapping_sub(1u64 << 52);
        let t = ((((x >> 52) as u32) & 0x7FF) + 1) >> 11;
        x &= u64::from(bb(t)).wrapping_sub(1);
        Fpr(x)
    }

    /// `2 x` (zero stays zero).
    #[inline(always)]
    #[must_use]
    pub fn double(self) -> Self {
        let ex = ((self.0 >> 52) as u32) & 0x7FF;
        Fpr(self.0.wrapping_add(u64::from((ex + 0x7FF) >> 11) << 52))
    }

    /// `x^2`.
    #[inline(always)]
    #[must_use]
    pub fn sqr(self) -> Self {
        self * self
    }

    /// `x / y` (y != 0).
    #[must_use]
    fn quotient(self, y: Self) -> Self {
        let (x, y) = (self.0, y.0);
        let mut xu = (x & ((1u64 << 52) - 1)) | (1u64 << 52);
        let yu = (y & ((1u64 << 52) - 1)) | (1u64 << 52);
        // Restoring division, 55 quotient bits.
        let mut q = 0u64;
        for _ in 0..55 {
            let b = (xu.wrapping_sub(yu) >> 63).wrapping_sub(1);
            xu = xu.wrapping_sub(b & yu);
            q |= b & 1;
            xu <<= 1;
            q <<= 1;
        }
        // Sticky bit from the remainder.
        q |= (xu | xu.wrapping_neg()) >> 63;
        let q2 = (q >> 1) | (q & 1);
        let w = q >> 55;
        q ^= (q ^ q2) & w.wrapping_neg();
        let ex = ((x >> 52) & 0x7FF) as i32;
        let ey = ((y >> 52) & 0x7FF) as i32;
        let mut e = ex - ey - 55 + w as i32;
        let mut s = ((x ^ y) >> 63) as u32;
        // x = 0: result +0.
        let d = ((ex + 0x7FF) >> 11) as u32;
        s &= d;
        e &= (d as i32).wrapping_neg();
        q &= u64::from(d).wrapping_neg();
        make(s, e, q)
    }

    /// `1 / x`.
    #[inline(always)]
    #[must_use]
    pub fn inv(self) -> Self {
        Fpr(0x3FF0_0000_0000_0000).quotient(self)
    }

    /// Square root (x >= 0).
    #[must_use]
    pub fn sqrt(self) -> Self {
        let x = self.0;
        let mut xu = (x & ((1u64 << 52) - 1)) | (1u64 << 52);
        let ex = ((x >> 52) & 0x7FF) as i32;
        let mut e = ex - 1023;
        // Odd exponent: double the mantissa.
        xu = xu.wrapping_add(xu & ((e & 1) as u64).wrapping_neg());
        e >>= 1;
        xu <<= 1;
        // Bit-by-bit square root, 54 bits.
        let mut q = 0u64;
        let mut s = 0u64;
        let mut r = 1u64 << 53;
        for _ in 0..54 {
            let t = s.wrapping_add(r);
            let b = (xu.wrapping_sub(t) >> 63).wrapping_sub(1);
            s = s.wrapping_add((r << 1) & b);
            xu = xu.wrapping_sub(t & b);
            q = q.wrapping_add(r & b);
            xu <<= 1;
            r >>= 1;
        }
        q <<= 1;
        q |= (xu | xu.wrapping_neg()) >> 63;
        e -= 54;
        q &= u64::from(((ex + 0x7FF) >> 11) as u32).wrapping_neg();
        make(0, e, q)
    }

    /// `x < y`.
    #[inline(always)]
    #[must_use]
    pub fn lt(self, y: Self) -> bool {
        let sx = self.0 as i64;
        let mut sy = y.0 as i64;
        // Different signs: compare against 0 instead.
        sy &= !((sx ^ sy) >> 63);
        let cc0 = ((sx.wrapping_sub(sy) >> 63) & 1) as u32;
        let cc1 = ((sy.wrapping_sub(sx) >> 63) & 1) as u32;
        // Both negative: the order is reversed.
        let r = cc0 ^ ((cc0 ^ cc1) & ((self.0 & y.0) >> 63) as u32);
        r != 0
    }

    /// Round to nearest, ties to even (|x| < 2^63).
    #[inline(always)]
    #[must_use]
    pub fn rint(self) -> i64 {
        let x = self.0;
        let mut m = ((x << 10) | (1u64 << 62)) & ((1u64 << 63) - 1);
        let mut e = 1085 - (((x >> 52) as i32) & 0x7FF);
        // Shift of 64 or more: zero (also covers x = 0).
        m &= u64::from(bb(((e - 64) as u32) >> 31)).wrapping_neg();
        e &= 63;
        let d = ulsh(m, (63 - e) as u32);
        let dd = (d as u32) | (((d >> 32) as u32) & 0x1FFF_FFFF);
        let f = ((d >> 61) as u32) | ((dd | dd.wrapping_neg()) >> 31);
        m = ursh(m, e as u32).wrapping_add(u64::from((0xC8u32 >> f) & 1));
        let s = (x >> 63) as i64;
        ((m as i64) ^ s.wrapping_neg()).wrapping_add(s)
    }

    /// Round toward minus infinity (|x| < 2^63).
    #[inline(always)]
    #[must_use]
    pub fn floor(self) -> i64 {
        let x = self.0;
        let e = ((x >> 52) as i32) & 0x7FF;
        let t = (x >> 63) as i64;
        let mut xi = (((x << 10) | (1u64 << 62)) & ((1u64 << 63) - 1)) as i64;
        xi = (xi ^ t.wrapping_neg()).wrapping_add(t);
        let cc = 1085 - e;
        xi = irsh(xi, (cc & 63) as u32);
        // Shift of 64 or more: 0 or -1 according to the sign.
        xi ^= (xi ^ t.wrapping_neg()) & i64::from((((63 - cc) as u32) >> 31) as i32).wrapping_neg();
        xi
    }

    /// Round toward zero (|x| < 2^63).
    #[inline(always)]
    #[must_use]
    pub fn trunc(self) -> i64 {
        let x = self.0;
        let e = ((x >> 52) as i32) & 0x7FF;
        let mut xu = ((x << 10) | (1u64 << 62)) & ((1u64 << 63) - 1);
        let cc = 1085 - e;
        xu = ursh(xu, (cc & 63) as u32);
        xu &= u64::from(((cc - 64) as u32) >> 31).wrapping_neg();
        let t = x >> 63;
        xu = (xu ^ t.wrapping_neg()).wrapping_add(t);
        xu as i64
    }
}

impl Add for Fpr {
    type Output = Fpr;
    #[inline]
    fn add(self, y: Fpr) -> Fpr {
        #[cfg(all(
            target_arch = "arm",
            target_feature = "dsp",
            target_feature = "mclass",
            target_endian = "little"
        ))]
        return Fpr(crate::fpr_armv7em::add(self.0, y.0));
        #[allow(unreachable_code)]
        Fpr(add_soft(self.0, y.0))
    }
}

/// Binary64 addition in Rust (what every target but the Cortex-M4 runs,
/// and what its assembly is checked against).
#[cfg_attr(
    all(
        target_arch = "arm",
        target_feature = "dsp",
        target_feature = "mclass",
        target_endian = "little"
    ),
    allow(dead_code)
)]
pub(crate) fn add_soft(x: u64, y: u64) -> u64 {
    let (mut x, mut y) = (x, y);
    // Put the larger magnitude in x; on equal magnitudes, x takes the
    // positive operand so that x + (-x) = +0.
    let mask = (1u64 << 63) - 1;
    let za = (x & mask).wrapping_sub(y & mask);
    let cs = ((za >> 63) as u32)
        | ((1u32.wrapping_sub((za.wrapping_neg() >> 63) as u32)) & ((x >> 63) as u32));
    let sw = (x ^ y) & u64::from(bb(cs)).wrapping_neg();
    x ^= sw;
    y ^= sw;

    // Mantissas scaled to 2^55..2^56-1 (0 for a zero operand).
    let mut ex = (x >> 52) as i32;
    let sx = (ex >> 11) as u32;
    ex &= 0x7FF;
    let m = u64::from(((ex + 0x7FF) >> 11) as u32) << 52;
    let mut xu = ((x & ((1u64 << 52) - 1)) | m) << 3;
    ex -= 1078;
    let mut ey = (y >> 52) as i32;
    let sy = (ey >> 11) as u32;
    ey &= 0x7FF;
    let m = u64::from(((ey + 0x7FF) >> 11) as u32) << 52;
    let mut yu = ((y & ((1u64 << 52) - 1)) | m) << 3;
    ey -= 1078;

    // Align y (sticky), clamp shifts of 60 or more to zero.
    let mut cc = ex - ey;
    yu &= u64::from(bb(((cc - 60) as u32) >> 31)).wrapping_neg();
    cc &= 63;
    let m = ulsh(1, cc as u32).wrapping_sub(1);
    yu |= (yu & m).wrapping_add(m);
    yu = ursh(yu, cc as u32);

    // Add or subtract the mantissas.
    xu = xu.wrapping_add(yu.wrapping_sub((yu << 1) & u64::from(sx ^ sy).wrapping_neg()));

    norm64(&mut xu, &mut ex);
    xu |= u64::from(((xu as u32) & 0x1FF).wrapping_add(0x1FF));
    xu >>= 9;
    ex += 9;
    make(sx, ex, xu).0
}

impl Sub for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn sub(self, y: Fpr) -> Fpr {
        self + Fpr(y.0 ^ (1u64 << 63))
    }
}

impl Mul for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn mul(self, y: Fpr) -> Fpr {
        #[cfg(all(
            target_arch = "arm",
            target_feature = "dsp",
            target_feature = "mclass",
            target_endian = "little"
        ))]
        return Fpr(crate::fpr_armv7em::mul(self.0, y.0));
        #[allow(unreachable_code)]
        Fpr(mul_soft(self.0, y.0))
    }
}

/// Binary64 multiplication in Rust (see [`add_soft`]).
#[cfg_attr(
    all(
        target_arch = "arm",
        target_feature = "dsp",
        target_feature = "mclass",
        target_endian = "little"
    ),
    allow(dead_code)
)]
#[inline(always)]
pub(crate) fn mul_soft(x: u64, y: u64) -> u64 {
    let xu = (x & ((1u64 << 52) - 1)) | (1u64 << 52);
    let yu = (y & ((1u64 << 52) - 1)) | (1u64 << 52);
    // 53x53-bit product from 25-bit low limbs (32x32->64 multiplies only).
    let x0 = (xu as u32) & 0x01FF_FFFF;
    let x1 = (xu >> 25) as u32;
    let y0 = (yu as u32) & 0x01FF_FFFF;
    let y1 = (yu >> 25) as u32;
    let w = u64::from(x0) * u64::from(y0);
    let z0 = (w as u32) & 0x01FF_FFFF;
    let mut z1 = (w >> 25) as u32;
    let w = u64::from(x0) * u64::from(y1);
    z1 += (w as u32) & 0x01FF_FFFF;
    let mut z2 = (w >> 25) as u32;
    let w = u64::from(x1) * u64::from(y0);
    z1 += (w as u32) & 0x01FF_FFFF;
    z2 += (w >> 25) as u32;
    let mut zu = u64::from(x1) * u64::from(y1);
    z2 += z1 >> 25;
    z1 &= 0x01FF_FFFF;
    zu += u64::from(z2);
    // The 50 low bits only contribute stickiness.
    zu |= u64::from(((z0 | z1) + 0x01FF_FFFF) >> 25);
    // Bring to 2^54..2^55-1.
    let zv = (zu >> 1) | (zu & 1);
    let w = zu >> 55;
    zu ^= (zu ^ zv) & u64::from(bb(w as u32)).wrapping_neg();
    let ex = ((x >> 52) & 0x7FF) as i32;
    let ey = ((y >> 52) & 0x7FF) as i32;
    let e = ex + ey - 2100 + w as i32;
    let s = ((x ^ y) >> 63) as u32;
    // A zero operand gives a zero mantissa.
    let d = ((ex + 0x7FF) & (ey + 0x7FF)) >> 11;
    zu &= u64::from(bb(d as u32)).wrapping_neg();
    make(s, e, zu).0
}

impl Neg for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn neg(self) -> Fpr {
        Fpr(self.0 ^ (1u64 << 63))
    }
}

impl Div for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn div(self, y: Fpr) -> Fpr {
        self.quotient(y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `clz` normalisation (what the Cortex-M4 runs) against the six
    /// conditional steps (what every other target runs): zero, every
    /// single-bit value, and pseudo-random words of every length.
    #[test]
    fn norm64_clz_matches_steps() {
        let mut words = [0u64; 2 + 3 * 64];
        words[1] = u64::MAX;
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for b in 0..64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            words[2 + 3 * b] = 1 << b;
            words[3 + 3 * b] = x >> b;
            words[4 + 3 * b] = (x >> b) | 1;
        }
        for &w in &words {
            for e0 in [-1100, 0, 77] {
                let (mut m1, mut e1) = (w, e0);
                let (mut m2, mut e2) = (w, e0);
                norm64_steps(&mut m1, &mut e1);
                norm64_clz(&mut m2, &mut e2);
                assert_eq!((m1, e1), (m2, e2), "m = {w:#x}, e = {e0}");
            }
        }
    }
}
