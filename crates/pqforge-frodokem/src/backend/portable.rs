//! The portable backend: the reference kernels (bitsliced AES, one SHAKE128
//! per row, the vectorisable products of `matrix`), on every target.

use crate::kem::Backend;
use crate::params::ParameterSet;

/// The portable backend.
pub(crate) struct Portable;

impl Backend for Portable {
    const NAME: &'static str = "portable";
    const ROWS: usize = 4;
    type RowBuf<P: ParameterSet> = P::Rows;
}
