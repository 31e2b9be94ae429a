//! The portable backend: the kernels' default bodies of
//! [`crate::kem::Backend`] (schoolbook product on 32-bit accumulators with
//! one reduction per coefficient, the masked inversion in R/q, the bitonic
//! sort), on every target, except the inversion in R/3, which runs on
//! bitsliced coefficients ([`crate::r3`]: 32 per pair of words).

use crate::kem::Backend;
use crate::params::ParameterSet;

/// The portable backend.
pub(crate) struct Portable;

impl Backend for Portable {
    const NAME: &'static str = "portable";

    fn r3_recip<P: ParameterSet>(out: &mut [i8], s: &[i8]) -> i32 {
        crate::r3::r3_recip_bits::<P>(out, s)
    }
}
