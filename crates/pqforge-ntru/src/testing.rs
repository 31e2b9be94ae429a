//! Per-backend entry points for differential tests and benchmarks (hidden
//! from the documentation; not a stable API). Every function returns `None`
//! when the backend is not usable on this CPU (or not compiled in).

use pqforge_core::ByteArray;

pub use crate::backend::Which as Backend;
use crate::backend::{Operation, run_on};
use crate::contract::{Decaps, Encaps, Keygen};
use crate::kem;
use crate::params::{ParameterSet, SS_BYTES};

/// Deterministic key generation from `seed` (f, g seed ‖ PRF key) on
/// backend `b`: the encoded `(ek, dk)`.
#[must_use]
pub fn keygen_derand<P: ParameterSet>(
    b: Backend,
    seed: &P::KeygenSeed,
) -> Option<(P::EkBytes, P::DkBytes)> {
    let mut ek = P::EkBytes::zeroed();
    let mut dk = P::DkBytes::zeroed();
    let op = Keygen::<P> {
        seed: seed.as_ref(),
        ek: &mut ek,
        dk: &mut dk,
    };
    run_on(b, op)?;
    Some((ek, dk))
}

/// Deterministic encapsulation on backend `b` (`ek` is not checked).
#[must_use]
pub fn encaps_derand<P: ParameterSet>(
    b: Backend,
    ek: &P::EkBytes,
    seed: &P::EncapsSeed,
) -> Option<(P::CtBytes, [u8; SS_BYTES])> {
    let mut ct = P::CtBytes::zeroed();
    let mut ss = [0u8; SS_BYTES];
    let op = Encaps::<P> {
        ek,
        seed: seed.as_ref(),
        ct: &mut ct,
        ss: &mut ss,
    };
    run_on(b, op)?;
    Some((ct, ss))
}

/// Decapsulation on backend `b` (`dk` is not checked).
#[must_use]
pub fn decaps<P: ParameterSet>(
    b: Backend,
    dk: &P::DkBytes,
    ct: &P::CtBytes,
) -> Option<[u8; SS_BYTES]> {
    let mut ss = [0u8; SS_BYTES];
    run_on(
        b,
        Decaps::<P> {
            dk,
            ct,
            ss: &mut ss,
        },
    )?;
    Some(ss)
}

/// The ring product `a·b mod (x^n − 1)` (n coefficients each) on backend
/// `b`, exact modulo 2^max(13, log₂ q) (the portable backend: modulo 2^16;
/// the AVX2 Toom-4 product reduces modulo 2^13).
#[must_use]
pub fn ring_mul<P: ParameterSet>(b: Backend, x: &P::Poly, y: &P::Poly) -> Option<P::Poly> {
    struct Mul<'a, P: ParameterSet> {
        x: &'a P::Poly,
        y: &'a P::Poly,
    }
    impl<P: ParameterSet> Operation for Mul<'_, P> {
        type Output = P::Poly;
        fn run<B: kem::Backend>(self) -> P::Poly {
            let mut r = P::POLY_ZERO;
            kem::rq_mul::<P, B>(r.as_mut(), self.x.as_ref(), self.y.as_ref());
            r
        }
    }
    run_on(b, Mul::<P> { x, y })
}
