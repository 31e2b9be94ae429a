//! Per-backend entry points for differential tests and benchmarks (hidden
//! from the documentation; not a stable API). Every function returns `None`
//! when the backend is not usable on this CPU (or not compiled in).

use crate::backend::Selected;
use crate::params::{ParameterSet, SALT_BYTES, SEED_BYTES};
use crate::types::{Ciphertext, DecapsKey, EncapsKey, SharedSecret};

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

/// Deterministic key generation on backend `b`.
#[must_use]
pub fn keygen_derand<P: ParameterSet>(
    b: Backend,
    seed_kem: &[u8; SEED_BYTES],
) -> Option<(EncapsKey<P>, DecapsKey<P>)> {
    Some(Selected::of(b)?.keygen_derand::<P>(seed_kem))
}

/// Deterministic encapsulation on backend `b` (`m` must be k bytes).
#[must_use]
pub fn encaps_derand<P: ParameterSet>(
    b: Backend,
    ek: &EncapsKey<P>,
    m: &[u8],
    salt: &[u8; SALT_BYTES],
) -> Option<(Ciphertext<P>, SharedSecret<P>)> {
    assert_eq!(m.len(), P::K, "message length");
    Some(Selected::of(b)?.encaps_derand::<P>(ek, m, salt))
}

/// Decapsulation on backend `b`.
#[must_use]
pub fn decaps<P: ParameterSet>(
    b: Backend,
    dk: &DecapsKey<P>,
    ct: &Ciphertext<P>,
) -> Option<SharedSecret<P>> {
    Some(Selected::of(b)?.decaps::<P>(dk, ct))
}

/// The decapsulation-key consistency check of `DecapsKey::try_from` on
/// backend `b` (`skb` must be DECAPS_KEY_BYTES long).
#[must_use]
pub fn check_decaps_key<P: ParameterSet>(b: Backend, skb: &[u8]) -> Option<bool> {
    assert_eq!(skb.len(), P::DECAPS_KEY_BYTES, "key length");
    Some(Selected::of(b)?.check_decaps_key::<P>(skb) == 0xFF)
}

/// `out = a * b mod (X^n - 1)` on backend `be`; `a`, `b`, `out` hold
/// `ceil(n/64)` words, `a` and `b` without bits at or above n.
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
