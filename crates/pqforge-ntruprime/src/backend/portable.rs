//! The portable backend: the kernels' default bodies of
//! [`crate::kem::Backend`] (three Karatsuba levels over a schoolbook on
//! 32-bit accumulators with one reduction per coefficient, the masked
//! inversion in R/q, the bitonic sort), on every target, except:
//!
//! * the inversion in R/3 runs on bitsliced coefficients ([`crate::r3`]:
//!   32 per pair of words);
//! * on the Cortex-M4 the product's Karatsuba leaves and the inversion in
//!   R/q work on coefficient pairs packed in 32-bit words with the DSP
//!   instructions (`pairs.rs`); other hosts keep the plain kernels, which
//!   vectorize, and test the pair kernels against them.

use crate::kem::Backend;
use crate::params::ParameterSet;

/// The portable backend.
pub(crate) struct Portable;

impl Backend for Portable {
    const NAME: &'static str = "portable";

    #[cfg(all(
        target_arch = "arm",
        target_feature = "dsp",
        target_feature = "mclass",
        target_endian = "little"
    ))]
    fn mul_small<P: ParameterSet>(out: &mut [i16], a: &[i16], b: &[i8], m: crate::arith::Modulus) {
        crate::poly::mul_karatsuba::<P, super::pairs::Karatsuba3Pairs>(out, a, b, m);
    }

    #[cfg(all(
        target_arch = "arm",
        target_feature = "dsp",
        target_feature = "mclass",
        target_endian = "little"
    ))]
    fn rq_recip3<P: ParameterSet>(out: &mut [i16], s: &[i8]) -> i32 {
        super::pairs::rq_recip3_pairs::<P>(out, s)
    }

    fn r3_recip<P: ParameterSet>(out: &mut [i8], s: &[i8]) -> i32 {
        crate::r3::r3_recip_bits::<P>(out, s)
    }
}
