//! Native binary64 (`f64`) backend of [`Fpr`], x86_64 only.
//!
//! CT: every operation maps to one SSE2 instruction whose latency does not
//! depend on the operands for the normal values Falcon handles (add, mul,
//! div, sqrt, conversions); no libm call, no branch. Rounding is the
//! default round-to-nearest-even, as in the reference "FPNATIVE" build.
//! The results are bit-identical to the integer emulation in
//! [`crate::fpr_emu`] on every value Falcon produces (no subnormals: the
//! emulation flushes those to zero).

// SSE2 intrinsics are `unsafe` to call from code without an explicit
// `#[target_feature]`; SSE2 is part of the x86_64 baseline, so every call
// below is sound. (The other module with `unsafe` is the AVX2 backend,
// `backend::avx2`.)
#![allow(unsafe_code)]

use core::arch::x86_64::{_mm_cvtsd_f64, _mm_cvtsd_si64, _mm_cvttsd_si64, _mm_set_sd, _mm_sqrt_pd};
use core::ops::{Add, Div, Mul, Neg, Sub};

/// A binary64 value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(transparent)]
pub struct Fpr(f64);

impl Fpr {
    /// The value with IEEE-754 bit pattern `b`.
    #[inline(always)]
    #[must_use]
    pub const fn from_bits(b: u64) -> Self {
        Fpr(f64::from_bits(b))
    }

    /// The IEEE-754 bit pattern.
    #[inline(always)]
    #[must_use]
    pub fn to_bits(self) -> u64 {
        self.0.to_bits()
    }

    /// The `f64` value (for the SIMD code).
    #[inline(always)]
    #[must_use]
    pub fn to_f64(self) -> f64 {
        self.0
    }

    /// Conversion from a signed integer (|i| < 2^63), rounded to nearest.
    #[inline(always)]
    #[must_use]
    pub fn of(i: i64) -> Self {
        Fpr(i as f64)
    }

    /// `x / 2`.
    #[inline(always)]
    #[must_use]
    pub fn half(self) -> Self {
        Fpr(self.0 * 0.5)
    }

    /// `2 x`.
    #[inline(always)]
    #[must_use]
    pub fn double(self) -> Self {
        Fpr(self.0 + self.0)
    }

    /// `x^2`.
    #[inline(always)]
    #[must_use]
    pub fn sqr(self) -> Self {
        Fpr(self.0 * self.0)
    }

    /// `1 / x`.
    #[inline(always)]
    #[must_use]
    pub fn inv(self) -> Self {
        Fpr(1.0 / self.0)
    }

    /// Square root (x >= 0).
    #[inline(always)]
    #[must_use]
    pub fn sqrt(self) -> Self {
        // SAFETY: SSE2 is always available on x86_64 (baseline feature).
        Fpr(unsafe { _mm_cvtsd_f64(_mm_sqrt_pd(_mm_set_sd(self.0))) })
    }

    /// `x < y` (no NaN).
    #[inline(always)]
    #[must_use]
    pub fn lt(self, y: Self) -> bool {
        self.0 < y.0
    }

    /// Round to nearest, ties to even (|x| < 2^63).
    #[inline(always)]
    #[must_use]
    pub fn rint(self) -> i64 {
        // SAFETY: SSE2 is always available on x86_64 (baseline feature).
        // cvtsd2si rounds with the MXCSR mode: nearest-even by default.
        unsafe { _mm_cvtsd_si64(_mm_set_sd(self.0)) }
    }

    /// Round toward zero (|x| < 2^63).
    #[inline(always)]
    #[must_use]
    pub fn trunc(self) -> i64 {
        // SAFETY: SSE2 is always available on x86_64 (baseline feature).
        unsafe { _mm_cvttsd_si64(_mm_set_sd(self.0)) }
    }

    /// Round toward minus infinity (|x| < 2^63).
    #[inline(always)]
    #[must_use]
    pub fn floor(self) -> i64 {
        let r = self.trunc();
        // CT: the comparison becomes a flag-to-integer move, not a branch.
        r - i64::from(self.0 < r as f64)
    }
}

impl Add for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn add(self, y: Fpr) -> Fpr {
        Fpr(self.0 + y.0)
    }
}

impl Sub for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn sub(self, y: Fpr) -> Fpr {
        Fpr(self.0 - y.0)
    }
}

impl Mul for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn mul(self, y: Fpr) -> Fpr {
        Fpr(self.0 * y.0)
    }
}

impl Neg for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn neg(self) -> Fpr {
        Fpr(-self.0)
    }
}

impl Div for Fpr {
    type Output = Fpr;
    #[inline(always)]
    fn div(self, y: Fpr) -> Fpr {
        Fpr(self.0 / y.0)
    }
}
