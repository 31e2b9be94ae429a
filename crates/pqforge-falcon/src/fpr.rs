//! Floating-point layer: backend selection, constants, FFT twiddles and the
//! integer polynomial for exp(-x) used by the sampler.
//!
//! Backend, chosen at compile time: native `f64` on x86_64 (SSE2, constant
//! time), the integer emulation everywhere else or with the crate feature
//! `fpr-emulated`. Both give bit-identical results on Falcon's values.

#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
pub(crate) use crate::fpr_native::Fpr;

#[cfg(not(all(target_arch = "x86_64", not(feature = "fpr-emulated"))))]
pub(crate) use crate::fpr_emu::Fpr;

/// Name of the compiled-in backend (`"native"` or `"emulated"`).
pub const BACKEND: &str = if cfg!(all(target_arch = "x86_64", not(feature = "fpr-emulated"))) {
    "native"
} else {
    "emulated"
};

impl zeroize::DefaultIsZeroes for Fpr {}

// Constants, as binary64 bit patterns (values of the reference `fpr.h`).
/// 0.
pub(crate) const ZERO: Fpr = Fpr::from_bits(0);
/// 1.
pub(crate) const ONE: Fpr = Fpr::from_bits(0x3FF0_0000_0000_0000);
/// 2.
pub(crate) const TWO: Fpr = Fpr::from_bits(0x4000_0000_0000_0000);
/// 1/2.
pub(crate) const ONEHALF: Fpr = Fpr::from_bits(0x3FE0_0000_0000_0000);
/// q = 12289.
pub(crate) const Q: Fpr = Fpr::from_bits(4667981563525332992);
/// 1/q.
pub(crate) const INVERSE_OF_Q: Fpr = Fpr::from_bits(4545632735260551042);
/// 1 / (2 sigma_0^2), sigma_0 = 1.8205 (base sampler).
pub(crate) const INV_2SQRSIGMA0: Fpr = Fpr::from_bits(4594603506513722306);
/// log(2).
pub(crate) const LOG2: Fpr = Fpr::from_bits(4604418534313441775);
/// 1 / log(2).
pub(crate) const INV_LOG2: Fpr = Fpr::from_bits(4609176140021203710);
/// Bound on the squared norm of the Gram-Schmidt row in keygen (16822.4121).
pub(crate) const BNORM_MAX: Fpr = Fpr::from_bits(4670353323383631276);
/// 1/sqrt(2).
pub(crate) const INVSQRT2: Fpr = Fpr::from_bits(4604544271217802189);
/// 1/sqrt(8).
pub(crate) const INVSQRT8: Fpr = Fpr::from_bits(4600040671590431693);
/// 2^31.
pub(crate) const PTWO31: Fpr = Fpr::from_bits(4746794007248502784);
/// 2^31 - 1.
pub(crate) const PTWO31M1: Fpr = Fpr::from_bits(4746794007244308480);
/// -(2^31 - 1).
pub(crate) const MTWO31M1: Fpr = Fpr::from_bits(13970166044099084288);
/// 2^63 - 1 (rounds to 2^63).
pub(crate) const PTWO63M1: Fpr = Fpr::from_bits(4890909195324358656);
/// -(2^63 - 1).
pub(crate) const MTWO63M1: Fpr = Fpr::from_bits(14114281232179134464);
/// 2^63.
pub(crate) const PTWO63: Fpr = Fpr::from_bits(4890909195324358656);

/// 1/sigma for logn = 1..=10 (index 0 unused), sigma as in the Falcon
/// specification v1.2 Table 3.3.
pub(crate) const INV_SIGMA: [Fpr; 11] = [
    Fpr::from_bits(0),
    Fpr::from_bits(4574611497772390042),
    Fpr::from_bits(4574501679055810265),
    Fpr::from_bits(4574396282908341804),
    Fpr::from_bits(4574245855758572086),
    Fpr::from_bits(4574103865040221165),
    Fpr::from_bits(4573969550563515544),
    Fpr::from_bits(4573842244705920822),
    Fpr::from_bits(4573721358406441454),
    Fpr::from_bits(4573606369665796042),
    Fpr::from_bits(4573496814039276259),
];

/// sigma_min for logn = 1..=10 (index 0 unused).
pub(crate) const SIGMA_MIN: [Fpr; 11] = [
    Fpr::from_bits(0),
    Fpr::from_bits(4607707126469777035),
    Fpr::from_bits(4607777455861499430),
    Fpr::from_bits(4607846828256951418),
    Fpr::from_bits(4607949175006100261),
    Fpr::from_bits(4608049571757433526),
    Fpr::from_bits(4608148125896792003),
    Fpr::from_bits(4608244935301382692),
    Fpr::from_bits(4608340089478362016),
    Fpr::from_bits(4608433670533905013),
    Fpr::from_bits(4608525754002622308),
];

/// 2^(1 - logn): the inverse-FFT scaling for logn = 0..=10.
pub(crate) const P2_TAB: [Fpr; 11] = {
    let mut t = [Fpr::from_bits(0); 11];
    let mut i = 0;
    while i < 11 {
        t[i] = Fpr::from_bits((1024 - i as u64) << 52);
        i += 1;
    }
    t
};

/// FFT twiddle factors (see [`crate::tables::GM_BITS`]).
pub(crate) static GM: [Fpr; 2048] = {
    let mut t = [Fpr::from_bits(0); 2048];
    let mut i = 0;
    while i < 2048 {
        t[i] = Fpr::from_bits(crate::tables::GM_BITS[i]);
        i += 1;
    }
    t
};

/// High 64 bits of a 64x64 product.
#[inline(always)]
fn mulhi(a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) >> 64) as u64
}

/// `2^63 * ccs * exp(-x)`, for 0 <= x < log(2) and 0 <= ccs <= 1, as an
/// integer (rounded low).
///
/// The polynomial is the FACCT approximation (Zhao, Steinfeld, Sakzad,
/// eprint 2018/1234), coefficients scaled by 2^63 as in the Falcon reference
/// implementation; Horner evaluation in 64-bit fixed point.
pub(crate) fn expm_p63(x: Fpr, ccs: Fpr) -> u64 {
    const C: [u64; 13] = [
        0x00000004741183A3,
        0x00000036548CFC06,
        0x0000024FDCBF140A,
        0x0000171D939DE045,
        0x0000D00CF58F6F84,
        0x000680681CF796E3,
        0x002D82D8305B0FEA,
        0x011111110E066FD0,
        0x0555555555070F00,
        0x155555555581FF00,
        0x400000000002B400,
        0x7FFFFFFFFFFF4800,
        0x8000000000000000,
    ];
    let mut y = C[0];
    let z = ((x * PTWO63).trunc() as u64) << 1;
    for &c in &C[1..] {
        y = c.wrapping_sub(mulhi(z, y));
    }
    let z = ((ccs * PTWO63).trunc() as u64) << 1;
    mulhi(z, y)
}
