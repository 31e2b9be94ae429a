//! The AVX2 backend (x86_64): [`Backend`] for the core token
//! [`pqforge_core::cpu::Avx2`], and the `#[target_feature]` entry points of
//! the public operations.
//!
//! Submodules mirror the portable modules they accelerate: [`fft`] (FFT on
//! native `f64`; with the `fpr-emulated` feature the portable FFT runs),
//! [`mq`] (NTT and division mod q), [`modp`] (NTT and power tables mod the
//! solver primes), [`zint`] (residues, CRT, fused products), [`digits`]
//! (column sums), [`rng`] (ChaCha20 refill), [`keygen`] (Gaussian
//! sampler). Their `#[target_feature]` functions are private to this
//! module tree; the functions they export take the token, whose existence
//! proves that the CPU supports AVX2.
//!
//! Every kernel gives the same output words as its portable counterpart
//! (see each module); sizes a kernel does not cover go to
//! [`Portable`].
#![allow(unsafe_code)]

use pqforge_core::cpu::Avx2;
use zeroize::Zeroize;

use super::{Backend, Portable};
use crate::digits::{Digits, PLAIN_DIGITS, Term};
use crate::fpr::Fpr;
use crate::modp::{Col, Prime};
use crate::rng::{BUF_LEN, ShakeU64};
use crate::zint::{ZView, ZViewMut};

mod digits;
#[cfg(not(feature = "fpr-emulated"))]
pub(crate) mod fft;
mod keygen;
pub(crate) mod modp;
pub(crate) mod mq;
mod rng;
mod zint;

impl Backend for Avx2 {
    type Digit = i32;

    #[inline]
    fn fft(self, f: &mut [Fpr], logn: u32) {
        #[cfg(not(feature = "fpr-emulated"))]
        if logn >= 4 {
            return fft::fft(self, f, logn);
        }
        Portable.fft(f, logn);
    }

    #[inline]
    fn ifft(self, f: &mut [Fpr], logn: u32) {
        #[cfg(not(feature = "fpr-emulated"))]
        if logn >= 4 {
            return fft::ifft(self, f, logn);
        }
        Portable.ifft(f, logn);
    }

    #[inline]
    fn mq_ntt(self, a: &mut [u16], logn: u32) {
        if logn == 9 || logn == 10 {
            return mq::ntt(self, a, logn);
        }
        Portable.mq_ntt(a, logn);
    }

    #[inline]
    fn mq_intt(self, a: &mut [u16], logn: u32) {
        if logn == 9 || logn == 10 {
            return mq::intt(self, a, logn);
        }
        Portable.mq_intt(a, logn);
    }

    #[inline]
    fn mq_div(self, x: &mut [u16], y: &[u16]) {
        if x.len().is_multiple_of(16) && x.len() == y.len() {
            return mq::div(self, x, y);
        }
        Portable.mq_div(x, y);
    }

    #[inline]
    fn chacha20x8(self, buf: &mut [u8; BUF_LEN], key: &[u32; 12], cc: u64) {
        rng::chacha20x8(self, buf, key, cc);
    }

    #[inline]
    fn gauss_poly(self, rng: &mut ShakeU64, f: &mut [i8], logn: u32) {
        keygen::gauss_poly(self, rng, f, logn);
    }

    #[inline]
    fn modp_powers(
        self,
        gm: &mut [u32],
        igm: &mut [u32],
        logn: u32,
        roots: (u32, u32),
        pr: &Prime,
    ) {
        if (4..=10).contains(&logn) {
            return modp::powers(self, gm, igm, logn, roots, pr);
        }
        Portable.modp_powers(gm, igm, logn, roots, pr);
    }

    #[inline]
    fn modp_ntt(self, a: Col<'_>, gm: &[u32], logn: u32, pr: &Prime) {
        if (4..=10).contains(&logn) {
            return modp::ntt(self, a, gm, logn, pr);
        }
        Portable.modp_ntt(a, gm, logn, pr);
    }

    #[inline]
    fn modp_intt(self, a: Col<'_>, igm: &[u32], logn: u32, pr: &Prime) {
        if (4..=10).contains(&logn) {
            return modp::intt(self, a, igm, logn, pr);
        }
        Portable.modp_intt(a, igm, logn, pr);
    }

    #[inline]
    fn zint_residues(self, src: ZView<'_>, count: usize, dst: ZViewMut<'_>, u0: usize) {
        zint::residues(self, src, count, dst, u0);
    }

    #[inline]
    fn zint_rebuild_crt(self, xx: ZViewMut<'_>, count: usize, tmp: &mut [u32]) {
        zint::rebuild_crt(self, xx, count, tmp);
    }

    #[inline]
    fn zint_add_mul_fused(self, x: &mut [u32], ys: &[u32], c: &[i64]) {
        zint::add_mul_fused(self, x, ys, c);
    }

    /// `i32` stack buffers (the AVX2 column sums read `i32` digits).
    #[inline]
    fn with_digits(
        self,
        _scratch: &mut [u32],
        na: usize,
        nb: usize,
        f: impl FnOnce(&mut [i32], &mut [i32]),
    ) {
        let mut x = [0i32; PLAIN_DIGITS];
        let mut y = [0i32; PLAIN_DIGITS];
        f(&mut x[..na], &mut y[..nb]);
        x.zeroize();
        y.zeroize();
    }

    #[inline]
    fn comba_coeff(self, o: &mut [u32], a: Digits<'_, i32>, b: Digits<'_, i32>, terms: &[Term]) {
        digits::comba_coeff(self, o, a, b, terms);
    }
}

/// Generates, for each public operation (see `for_each_operation!`), an
/// entry point that takes the token and runs the operation instantiated
/// for [`Avx2`]: the kernels are reached through the token, each inside
/// its own `#[target_feature]` function.
///
/// The protocol itself is not wrapped in a `#[target_feature(enable =
/// "avx2")]` function: measured, that gains no time here (the hot loops
/// are the kernels, already AVX2, and the binary64 sampler, which AVX2
/// does not speed up), while the larger frames LLVM builds when it
/// inlines the protocol into such a wrapper doubled the x86_64 stack of
/// FN-DSA signing (84 KB instead of 43 KB for FN-DSA-512).
macro_rules! avx2_entries {
    ($(
        $(#[$attr:meta])*
        fn $name:ident<$($c:ident),*>($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty
            = $($path:ident)::+;
    )*) => {
        $(
            $(#[$attr])*
            // Out of line: inlined into the dispatch, this instantiation and
            // the portable one would share (and add up) one frame.
            #[inline(never)]
            pub(crate) fn $name<$(const $c: usize),*>(t: Avx2, $($arg: $ty),*) -> $ret {
                $($path)::+::<Avx2, $($c),*>(t, $($arg),*)
            }
        )*
    };
}

/// The AVX2 entry points of the public operations (called by the dispatch
/// in [`super`] with a detected token).
pub(super) mod entries {
    use super::Avx2;

    for_each_operation!(avx2_entries);
}
