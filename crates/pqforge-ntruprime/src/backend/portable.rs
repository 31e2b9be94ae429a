//! The portable backend: the kernels' default bodies of
//! [`crate::kem::Backend`] (schoolbook product on 32-bit accumulators with
//! one reduction per coefficient, the masked inversions, the bitonic sort),
//! on every target.

use crate::kem::Backend;

/// The portable backend.
pub(crate) struct Portable;

impl Backend for Portable {
    const NAME: &'static str = "portable";
}
