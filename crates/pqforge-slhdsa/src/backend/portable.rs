//! The portable backend: the trait's default kernels (`internal`'s
//! one-hash-at-a-time WOTS+, XMSS and FORS), every target.

use super::Backend;

/// The portable kernels.
pub(crate) struct Portable;

impl Backend for Portable {
    const NAME: &'static str = "portable";
}
