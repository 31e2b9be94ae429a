//! The portable backend: the trait's default kernels (`arith`, `rounding`,
//! `sample`), every target.

use super::Backend;

/// The portable kernels.
pub(crate) struct Portable;

impl Backend for Portable {
    const NAME: &'static str = "portable";
}
