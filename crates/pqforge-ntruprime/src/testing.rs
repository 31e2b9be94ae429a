//! Entry points for tests (hidden from the documentation; not a stable
//! API): the operations on a named backend, the random-word conventions,
//! and the kernels for differential tests.

use pqforge_core::{ByteArray, CryptoRng};

pub use crate::backend::Which as Backend;
use crate::backend::run_on;
use crate::contract::{CheckSk, Decaps, Encaps, Keygen};
use crate::kem::hash_pk;
use crate::params::{HASH_BYTES, KEYGEN_SEED_BYTES, ParameterSet};
use crate::random::{PerList, PerWord, ShakeStream, SliceWords};

/// How the random lists are drawn from an rng.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// Four bytes per call (`urandom32`): the official submission KATs and
    /// what the public API does.
    PerWord,
    /// One call per list of p words (PQClean, liboqs, supercop `factored`,
    /// libgcrypt, OpenSSH since 2026).
    PerList,
}

/// Key generation from `rng` under `conv` on backend `b`.
pub fn keygen_with<P: ParameterSet, R: CryptoRng + ?Sized>(
    b: Backend,
    conv: Convention,
    rng: &mut R,
) -> Option<(P::EkBytes, P::DkBytes)> {
    let mut pk = P::EkBytes::zeroed();
    let mut sk = P::DkBytes::zeroed();
    let (pkm, skm) = (pk.as_mut(), sk.as_mut());
    let done = match conv {
        Convention::PerWord => run_on(
            b,
            Keygen::<P, _> {
                src: &mut PerWord(rng),
                pk: pkm,
                sk: skm,
                _p: core::marker::PhantomData,
            },
        ),
        Convention::PerList => run_on(
            b,
            Keygen::<P, _> {
                src: &mut PerList(rng),
                pk: pkm,
                sk: skm,
                _p: core::marker::PhantomData,
            },
        ),
    };
    done.map(|()| (pk, sk))
}

/// Encapsulation from `rng` under `conv` on backend `b` (`pk` unchecked).
pub fn encaps_with<P: ParameterSet, R: CryptoRng + ?Sized>(
    b: Backend,
    conv: Convention,
    rng: &mut R,
    pk: &P::EkBytes,
) -> Option<(P::CtBytes, [u8; HASH_BYTES])> {
    let mut ct = P::CtBytes::zeroed();
    let mut ss = [0u8; HASH_BYTES];
    let cache = hash_pk(pk.as_ref());
    let (ctm, ssm) = (ct.as_mut(), &mut ss);
    let done = match conv {
        Convention::PerWord => run_on(
            b,
            Encaps::<P, _> {
                src: &mut PerWord(rng),
                pk: pk.as_ref(),
                cache: &cache,
                ct: ctm,
                ss: ssm,
                _p: core::marker::PhantomData,
            },
        ),
        Convention::PerList => run_on(
            b,
            Encaps::<P, _> {
                src: &mut PerList(rng),
                pk: pk.as_ref(),
                cache: &cache,
                ct: ctm,
                ss: ssm,
                _p: core::marker::PhantomData,
            },
        ),
    };
    done.map(|()| (ct, ss))
}

/// Deterministic key generation (SHAKE256 stream of `seed`) on backend `b`.
#[must_use]
pub fn keygen_derand<P: ParameterSet>(
    b: Backend,
    seed: &[u8; KEYGEN_SEED_BYTES],
) -> Option<(P::EkBytes, P::DkBytes)> {
    let mut pk = P::EkBytes::zeroed();
    let mut sk = P::DkBytes::zeroed();
    run_on(
        b,
        Keygen::<P, _> {
            src: &mut ShakeStream::new(seed),
            pk: pk.as_mut(),
            sk: sk.as_mut(),
            _p: core::marker::PhantomData,
        },
    )?;
    Some((pk, sk))
}

/// Deterministic encapsulation with the 4p bytes of words on backend `b`
/// (`pk` unchecked).
#[must_use]
pub fn encaps_derand<P: ParameterSet>(
    b: Backend,
    pk: &P::EkBytes,
    words: &P::EncapsSeed,
) -> Option<(P::CtBytes, [u8; HASH_BYTES])> {
    let mut ct = P::CtBytes::zeroed();
    let mut ss = [0u8; HASH_BYTES];
    let cache = hash_pk(pk.as_ref());
    run_on(
        b,
        Encaps::<P, _> {
            src: &mut SliceWords(words.as_ref()),
            pk: pk.as_ref(),
            cache: &cache,
            ct: ct.as_mut(),
            ss: &mut ss,
            _p: core::marker::PhantomData,
        },
    )?;
    Some((ct, ss))
}

/// Decapsulation on backend `b` (`sk` unchecked).
#[must_use]
pub fn decaps<P: ParameterSet>(
    b: Backend,
    sk: &P::DkBytes,
    ct: &P::CtBytes,
) -> Option<[u8; HASH_BYTES]> {
    let mut ss = [0u8; HASH_BYTES];
    run_on(
        b,
        Decaps::<P> {
            sk: sk.as_ref(),
            ct: ct.as_ref(),
            ss: &mut ss,
            _p: core::marker::PhantomData,
        },
    )?;
    Some(ss)
}

/// The secret-key consistency verdict (`0xFF` = consistent) on backend `b`.
#[must_use]
pub fn check_sk<P: ParameterSet>(b: Backend, sk: &P::DkBytes) -> Option<u8> {
    run_on(
        b,
        CheckSk::<P> {
            sk: sk.as_ref(),
            _p: core::marker::PhantomData,
        },
    )
}

/// The product kernel of set `P` on backend `b`: `out = a · s` in R/m
/// (m = 3 or P's q), |a_i| < 4000, s small, p coefficients each.
///
/// `None` if the backend is not available, or if `m` is neither 3 nor P's
/// q (the only moduli the kernel is used with; any other `m`, 0 included,
/// is refused rather than panicking).
///
/// # Panics
/// If a length is not p.
pub fn mul_small<P: ParameterSet>(
    b: Backend,
    m: i32,
    out: &mut [i16],
    a: &[i16],
    s: &[i8],
) -> Option<()> {
    assert!(out.len() == P::P && a.len() == P::P && s.len() == P::P);
    let m = match m {
        3 => crate::poly::MOD3,
        _ if m == P::Q => crate::poly::mod_q::<P>(),
        _ => return None,
    };
    run_on(
        b,
        MulSmall::<P> {
            m,
            out,
            a,
            s,
            _p: core::marker::PhantomData,
        },
    )
}

/// The product kernel as an operation (see [`mul_small`]).
struct MulSmall<'a, P> {
    m: crate::arith::Modulus,
    out: &'a mut [i16],
    a: &'a [i16],
    s: &'a [i8],
    _p: core::marker::PhantomData<P>,
}

impl<P: ParameterSet> crate::backend::Operation for MulSmall<'_, P> {
    type Output = ();

    fn run<B: crate::kem::Backend>(self) {
        B::mul_small::<P>(self.out, self.a, self.s, self.m);
    }
}

/// The constant-time sort on backend `b` (ascending).
pub fn sort(b: Backend, x: &mut [u32]) -> Option<()> {
    run_on(b, SortOp(x))
}

/// The sort as an operation (see [`sort`]).
struct SortOp<'a>(&'a mut [u32]);

impl crate::backend::Operation for SortOp<'_> {
    type Output = ();

    fn run<B: crate::kem::Backend>(self) {
        B::sort(self.0);
    }
}

/// The inversions on backend `b`: `R3_recip` (1/s mod 3 into `out3`) and
/// `Rq_recip3` (1/(3s) mod q into `outq`); their return values (0 when
/// invertible, -1 otherwise).
///
/// # Panics
/// If a length is not p.
pub fn recips<P: ParameterSet>(
    b: Backend,
    out3: &mut [i8],
    outq: &mut [i16],
    s: &[i8],
) -> Option<(i32, i32)> {
    assert!(out3.len() == P::P && outq.len() == P::P && s.len() == P::P);
    run_on(
        b,
        Recips::<P> {
            out3,
            outq,
            s,
            _p: core::marker::PhantomData,
        },
    )
}

/// The inversions as an operation (see [`recips`]).
struct Recips<'a, P> {
    out3: &'a mut [i8],
    outq: &'a mut [i16],
    s: &'a [i8],
    _p: core::marker::PhantomData<P>,
}

impl<P: ParameterSet> crate::backend::Operation for Recips<'_, P> {
    type Output = (i32, i32);

    fn run<B: crate::kem::Backend>(self) -> (i32, i32) {
        (
            B::r3_recip::<P>(self.out3, self.s),
            B::rq_recip3::<P>(self.outq, self.s),
        )
    }
}
