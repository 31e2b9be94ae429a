//! Per-backend entry points for differential tests and benchmarks (hidden
//! from the documentation; not a stable API). Every function returns `None`
//! when the backend is not usable on this CPU (or not compiled in).

use pqforge_core::ByteArray;

use crate::backend::Selected;
use crate::params::{ParameterSet, SALT_BYTES, SEED_BYTES, SS_BYTES};

/// An implementation of the HQC kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The portable reference.
    Portable,
    /// x86_64 PCLMULQDQ + AVX2.
    Avx2,
    /// x86_64 VPCLMULQDQ + AVX-512.
    Avx512,
}

impl Backend {
    /// Every backend this crate knows.
    pub const ALL: [Backend; 3] = [Backend::Portable, Backend::Avx2, Backend::Avx512];

    /// `portable`, `avx2` or `avx512`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
        }
    }

    /// Whether the backend is compiled in and this CPU supports it.
    #[must_use]
    pub fn is_available(self) -> bool {
        Selected::of(self).is_some()
    }

    /// The backend the public API uses on this CPU.
    #[must_use]
    pub fn selected() -> Backend {
        match Selected::best() {
            Selected::Portable => Backend::Portable,
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            Selected::Avx2(_) => Backend::Avx2,
            #[cfg(all(
                target_arch = "x86_64",
                not(pqforge_backend = "portable"),
                pqforge_hqc_avx512
            ))]
            Selected::Avx512(_) => Backend::Avx512,
        }
    }
}

/// Deterministic key generation from `seed_kem` on backend `b`: the
/// encoded `(ek, dk)`.
#[must_use]
pub fn keygen_derand<P: ParameterSet>(
    b: Backend,
    seed_kem: &[u8; SEED_BYTES],
) -> Option<(P::EkBytes, P::DkBytes)> {
    let sel = Selected::of(b)?;
    let mut ek = P::EkBytes::zeroed();
    let mut dk = P::DkBytes::zeroed();
    sel.keygen_into::<P>(seed_kem, ek.as_mut(), dk.as_mut());
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
    let sel = Selected::of(b)?;
    let (m, s) = m_salt.as_ref().split_at(P::K);
    let mut salt = [0u8; SALT_BYTES];
    salt.copy_from_slice(s);
    let mut ct = P::CtBytes::zeroed();
    let mut ss = [0u8; SS_BYTES];
    sel.encaps_into::<P>(ek.as_ref(), m, &salt, ct.as_mut(), &mut ss);
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
    let sel = Selected::of(b)?;
    let mut ss = [0u8; SS_BYTES];
    sel.decaps_into::<P>(dk.as_ref(), ct.as_ref(), &mut ss);
    Some(ss)
}

/// The consistency check of [`pqforge_core::Kem::prepare_dk`] (the key
/// re-derived from its `seed_kem`, compared in constant time) on backend
/// `b`.
#[must_use]
pub fn check_decaps_key<P: ParameterSet>(b: Backend, dk: &P::DkBytes) -> Option<bool> {
    Some(Selected::of(b)?.check_decaps_key::<P>(dk.as_ref()) == 0xFF)
}

/// `out = a * b mod (X^n - 1)` on backend `be`; `a`, `b`, `out` hold
/// `ceil(n/64)` words, `a` and `b` without bits at or above n.
///
/// # Panics
/// If a slice does not hold `ceil(n/64)` words.
#[must_use]
pub fn mul_mod<P: ParameterSet>(be: Backend, a: &[u64], b: &[u64], out: &mut [u64]) -> Option<()> {
    let sel = Selected::of(be)?;
    assert!(a.len() == P::WORDS && b.len() == P::WORDS && out.len() == P::WORDS);
    let (mut pa, mut pb, mut po) = (P::POLY_ZERO, P::POLY_ZERO, P::POLY_ZERO);
    pa.as_mut()[..P::WORDS].copy_from_slice(a);
    pb.as_mut()[..P::WORDS].copy_from_slice(b);
    sel.mul_mod::<P>(&mut po, &pa, &pb);
    out.copy_from_slice(&po.as_ref()[..P::WORDS]);
    Some(())
}
