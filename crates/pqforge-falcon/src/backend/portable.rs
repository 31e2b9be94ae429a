//! The portable backend: plain Rust on every target (the Cortex-M4 runs
//! it). Its kernels are the reference bodies in the math modules (`fft`,
//! `mq`, `modp`, `zint`, `digits`, `rng`, `keygen`); every other backend
//! is checked against them.

use zeroize::Zeroize;

use super::Backend;
use crate::digits::{self, Digits, Term};
use crate::fpr::Fpr;
use crate::keygen::{self, PortableTail};
use crate::modp::{self, Col, Prime};
use crate::rng::{self, BUF_LEN, ShakeU64};
use crate::zint::{self, ZView, ZViewMut};
use crate::{fft, mq};

/// The portable backend (no CPU requirement, so anyone may make one).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Portable;

impl Backend for Portable {
    /// Digits in free words of the caller's scratch (see
    /// [`Backend::with_digits`]).
    type Digit = u32;

    #[inline]
    fn fft(self, f: &mut [Fpr], logn: u32) {
        fft::fft(f, logn);
    }

    #[inline]
    fn ifft(self, f: &mut [Fpr], logn: u32) {
        fft::ifft(f, logn);
    }

    #[inline]
    fn mq_ntt(self, a: &mut [u16], logn: u32) {
        mq::ntt(a, logn);
    }

    #[inline]
    fn mq_intt(self, a: &mut [u16], logn: u32) {
        mq::intt(a, logn);
    }

    #[inline]
    fn mq_div(self, x: &mut [u16], y: &[u16]) {
        mq::div_all(x, y);
    }

    #[inline]
    fn chacha20x8(self, buf: &mut [u8; BUF_LEN], key: &[u32; 12], cc: u64) {
        rng::chacha20x8(buf, key, cc);
    }

    #[inline]
    fn gauss_poly(self, rng: &mut ShakeU64, f: &mut [i8], logn: u32) {
        keygen::poly_small_mkgauss(rng, f, logn, &PortableTail);
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
        modp::powers(gm, igm, logn, roots, pr);
    }

    #[inline]
    fn modp_ntt(self, a: Col<'_>, gm: &[u32], logn: u32, pr: &Prime) {
        modp::ntt(a, gm, logn, pr);
    }

    #[inline]
    fn modp_intt(self, a: Col<'_>, igm: &[u32], logn: u32, pr: &Prime) {
        modp::intt(a, igm, logn, pr);
    }

    #[inline]
    fn zint_residues(self, src: ZView<'_>, count: usize, dst: ZViewMut<'_>, u0: usize) {
        zint::residues_portable(src, count, dst, u0);
    }

    #[inline]
    fn zint_rebuild_crt(self, xx: ZViewMut<'_>, count: usize, tmp: &mut [u32]) {
        zint::rebuild_crt_portable(xx, count, tmp);
    }

    #[inline]
    fn zint_add_mul_fused(self, x: &mut [u32], ys: &[u32], c: &[i64]) {
        zint::add_mul_fused(x, ys, c);
    }

    /// Free words of `scratch`: no stack buffers (on the Cortex-M4 the
    /// digits would otherwise add 1.75 KB to the deepest keygen frame).
    #[inline]
    fn with_digits(
        self,
        scratch: &mut [u32],
        na: usize,
        nb: usize,
        f: impl FnOnce(&mut [u32], &mut [u32]),
    ) {
        let (x, rest) = scratch.split_at_mut(na);
        let y = &mut rest[..nb];
        f(&mut *x, &mut *y);
        x.zeroize();
        y.zeroize();
    }

    #[inline]
    fn comba_coeff(self, o: &mut [u32], a: Digits<'_, u32>, b: Digits<'_, u32>, terms: &[Term]) {
        digits::comba_coeff(o, a, b, terms);
    }
}
