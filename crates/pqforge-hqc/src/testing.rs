//! Per-backend entry points for differential tests and benchmarks (hidden
//! from the documentation; not a stable API). Every function returns `None`
//! when the backend is not usable on this CPU (or not compiled in). The
//! operations are the ones the public API hands to the dispatch, run on the
//! named backend instead of the best one.

use pqforge_core::ByteArray;

pub use crate::backend::Which as Backend;
use crate::backend::{Operation, run_on};
use crate::contract::{CheckDk, Decaps, Encaps, Keygen};
use crate::gf2x;
use crate::kem;
use crate::params::{ParameterSet, SALT_BYTES, SEED_BYTES, SS_BYTES};

/// Deterministic key generation from `seed_kem` on backend `b`: the
/// encoded `(ek, dk)`.
#[must_use]
pub fn keygen_derand<P: ParameterSet>(
    b: Backend,
    seed_kem: &[u8; SEED_BYTES],
) -> Option<(P::EkBytes, P::DkBytes)> {
    let mut ek = P::EkBytes::zeroed();
    let mut dk = P::DkBytes::zeroed();
    let op = Keygen::<P> {
        seed: seed_kem,
        ek: &mut ek,
        dk: &mut dk,
    };
    run_on(b, op)?;
    Some((ek, dk))
}

/// Deterministic encapsulation with the randomness `m || salt` under the
/// encoded `ek` on backend `b`: the encoded ciphertext and the shared
/// secret. `ek` is not checked.
#[must_use]
pub fn encaps_derand<P: ParameterSet>(
    b: Backend,
    ek: &P::EkBytes,
    m_salt: &P::EncapsSeed,
) -> Option<(P::CtBytes, [u8; SS_BYTES])> {
    let (m, s) = m_salt.as_ref().split_at(P::K);
    let mut salt = [0u8; SALT_BYTES];
    salt.copy_from_slice(s);
    let mut ct = P::CtBytes::zeroed();
    let mut ss = [0u8; SS_BYTES];
    let op = Encaps::<P> {
        ek,
        m,
        salt: &salt,
        ct: &mut ct,
        ss: &mut ss,
    };
    run_on(b, op)?;
    Some((ct, ss))
}

/// Decapsulation of the encoded `ct` under the encoded `dk` on backend `b`
/// (`dk` is not checked: see [`check_decaps_key`]).
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

/// The consistency check of [`pqforge_core::Kem::prepare_dk`] (the key
/// re-derived from its `seed_kem`, compared in constant time) on backend
/// `b`.
#[must_use]
pub fn check_decaps_key<P: ParameterSet>(b: Backend, dk: &P::DkBytes) -> Option<bool> {
    Some(run_on(b, CheckDk::<P> { dk })? == 0xFF)
}

/// `out = a * b mod (X^n - 1)` on backend `be`; `a`, `b`, `out` hold
/// `ceil(n/64)` words, `a` and `b` without bits at or above n.
///
/// # Panics
/// If a slice does not hold `ceil(n/64)` words.
#[must_use]
pub fn mul_mod<P: ParameterSet>(be: Backend, a: &[u64], b: &[u64], out: &mut [u64]) -> Option<()> {
    assert!(a.len() == P::WORDS && b.len() == P::WORDS && out.len() == P::WORDS);
    let (mut pa, mut pb, mut po) = (P::POLY_ZERO, P::POLY_ZERO, P::POLY_ZERO);
    pa.as_mut()[..P::WORDS].copy_from_slice(a);
    pb.as_mut()[..P::WORDS].copy_from_slice(b);
    run_on(
        be,
        MulMod::<P> {
            out: &mut po,
            a: &pa,
            b: &pb,
        },
    )?;
    out.copy_from_slice(&po.as_ref()[..P::WORDS]);
    Some(())
}

/// `out = a * b mod (X^n - 1)` on padded ring elements.
struct MulMod<'a, P: ParameterSet> {
    out: &'a mut P::Poly,
    a: &'a P::Poly,
    b: &'a P::Poly,
}

impl<P: ParameterSet> Operation for MulMod<'_, P> {
    type Output = ();

    fn run<B: kem::Backend>(self) {
        let mut scratch = P::SCRATCH_ZERO;
        gf2x::mul_mod::<B>(
            self.out.as_mut(),
            self.a.as_ref(),
            self.b.as_ref(),
            P::N,
            scratch.as_mut(),
        );
    }
}
