//! Per-backend entry points for differential tests and benchmarks (hidden
//! from the documentation; not a stable API). Every function returns `None`
//! when the backend is not usable on this CPU (or not compiled in).

use core::marker::PhantomData;

pub use crate::backend::Which as Backend;
use crate::backend::{Operation, run_on};
use crate::contract::{Decaps, Encaps, Keygen};
use crate::kem::{self, MatrixA};
use crate::params::{MatrixGen, ParameterSet};

/// Deterministic key generation (`seed` = `s ‖ seed_SE ‖ z`) on backend
/// `b` into `ek`, `dk` (exact lengths).
///
/// # Panics
/// If a length is wrong.
pub fn keygen_derand<P: ParameterSet>(
    b: Backend,
    seed: &[u8],
    ek: &mut [u8],
    dk: &mut [u8],
) -> Option<()> {
    assert_eq!(seed.len(), P::KEYGEN_SEED_BYTES);
    assert_eq!(ek.len(), P::EK_BYTES);
    assert_eq!(dk.len(), P::DK_BYTES);
    run_on(
        b,
        Keygen::<P> {
            seed,
            ek,
            dk,
            p: PhantomData,
        },
    )
}

/// Deterministic encapsulation (`m` = `μ (‖ salt)`) on backend `b`.
///
/// # Panics
/// If a length is wrong.
pub fn encaps_derand<P: ParameterSet>(
    b: Backend,
    ek: &[u8],
    m: &[u8],
    ct: &mut [u8],
    ss: &mut [u8],
) -> Option<()> {
    assert_eq!(ek.len(), P::EK_BYTES);
    assert_eq!(m.len(), P::ENCAPS_SEED_BYTES);
    assert_eq!(ct.len(), P::CT_BYTES);
    assert_eq!(ss.len(), P::LEN_SEC);
    run_on(
        b,
        Encaps::<P> {
            ek,
            pkh: crate::contract::Pkh::of::<P>(ek).as_slice::<P>(),
            m,
            ct,
            ss,
            p: PhantomData,
        },
    )
}

/// Decapsulation on backend `b` (`dk` not checked).
///
/// # Panics
/// If a length is wrong.
pub fn decaps<P: ParameterSet>(b: Backend, dk: &[u8], ct: &[u8], ss: &mut [u8]) -> Option<()> {
    assert_eq!(dk.len(), P::DK_BYTES);
    assert_eq!(ct.len(), P::CT_BYTES);
    assert_eq!(ss.len(), P::LEN_SEC);
    run_on(
        b,
        Decaps::<P> {
            dk,
            ct,
            ss,
            p: PhantomData,
        },
    )
}

/// Which kernel [`kernel`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel<'a> {
    /// Rows r0.. of A from `seed_A` with the set's generator into `out`
    /// (a multiple of 4·n words).
    Rows {
        /// `seed_A`.
        seed_a: &'a [u8; 16],
        /// First row.
        r0: usize,
    },
    /// `out[0..32]` = the 4 × 8 product of four rows `a` with the n̄ × n `st`
    /// (transposed).
    MulAs {
        /// 4·n words.
        a: &'a [u16],
        /// 8·n words.
        st: &'a [u16],
    },
    /// `out` (8·n words, the accumulator) += S'[.., r0..r0+4] · a.
    MulSa {
        /// 4·n words.
        a: &'a [u16],
        /// 8·n words.
        s: &'a [u16],
        /// First row of A in `a`.
        r0: usize,
    },
}

struct KernelOp<'a, P> {
    k: Kernel<'a>,
    out: &'a mut [u16],
    p: PhantomData<P>,
}

impl<P: ParameterSet> Operation for KernelOp<'_, P> {
    type Output = ();

    fn run<B: kem::Backend>(self) {
        match self.k {
            Kernel::Rows { seed_a, r0 } => {
                let a = MatrixA::new::<P>(seed_a);
                match (&a.key, P::MATRIX) {
                    (Some(key), MatrixGen::Aes128) => B::rows_aes::<P>(key, r0, self.out),
                    _ => B::rows_shake::<P>(&a.seed, r0, self.out),
                }
            }
            Kernel::MulAs { a, st } => {
                let mut o = [0u16; 32];
                B::mul_as::<P>(a, st, &mut o);
                self.out[..32].copy_from_slice(&o);
            }
            Kernel::MulSa { a, s, r0 } => B::mul_sa::<P>(a, s, r0, self.out),
        }
    }
}

/// Runs one kernel of set `P` on backend `b` (see [`Kernel`]).
///
/// # Panics
/// If a buffer is too short for the kernel.
pub fn kernel<P: ParameterSet>(b: Backend, k: Kernel<'_>, out: &mut [u16]) -> Option<()> {
    run_on(
        b,
        KernelOp::<P> {
            k,
            out,
            p: PhantomData,
        },
    )
}
