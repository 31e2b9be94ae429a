//! The portable kernels: plain Rust for every target, tuned for 32-bit
//! cores (the Cortex-M4 runs them), with the streamed K-PKE (never stores
//! the matrix). The reference the other backends are compared with.

use super::Backend;
use crate::ntt;
use crate::pke::Streamed;
use crate::poly::Poly;

/// The portable backend.
pub(crate) struct Portable;

impl Backend for Portable {
    type Pke = Streamed<Self>;

    fn ntt(p: &mut Poly) {
        ntt::ntt(p);
    }
    fn invntt_tomont(p: &mut Poly) {
        ntt::invntt_tomont(p);
    }
    fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
        ntt::basemul_acc(r, a, b);
    }
}
