//! The portable backend: the reference kernels on every target (the
//! Cortex-M4 runs them): Karatsuba on `u16` coefficients down to
//! schoolbook blocks of at most 32 coefficients.

use crate::kem::Backend;

/// The portable backend.
pub(crate) struct Portable;

impl Backend for Portable {
    const NAME: &'static str = "portable";
}
