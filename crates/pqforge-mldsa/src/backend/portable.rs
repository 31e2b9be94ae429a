//! The portable backend: the trait's default kernels (`arith`, `rounding`,
//! `sample`), every target.

use super::{Backend, Poly};

/// The portable kernels.
pub(crate) struct Portable;

impl Backend for Portable {
    const NAME: &'static str = "portable";
    type MaskBuf = [Poly; 0];
    const MASK_BUF: [Poly; 0] = [];
}
