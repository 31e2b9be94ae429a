//! Run-time backend selection, once per public call.
//!
//! On x86_64 (unless built with `--cfg pqforge_backend="portable"`) the
//! AVX-512/VPCLMULQDQ backend is used when the CPU has it, else the
//! AVX2/PCLMULQDQ backend, else the portable one.

use crate::gf2x::Portable;
use crate::kem;
use crate::params::{ParameterSet, SALT_BYTES, SEED_BYTES, SS_BYTES};
#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
use crate::x86::Avx2Token;
#[cfg(all(
    target_arch = "x86_64",
    not(pqforge_backend = "portable"),
    pqforge_hqc_avx512
))]
use crate::x86::Avx512Token;

/// A backend that is usable on this CPU.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Selected {
    /// The portable reference.
    Portable,
    /// PCLMULQDQ + AVX2.
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    Avx2(Avx2Token),
    /// VPCLMULQDQ + AVX-512.
    #[cfg(all(
        target_arch = "x86_64",
        not(pqforge_backend = "portable"),
        pqforge_hqc_avx512
    ))]
    Avx512(Avx512Token),
}

impl Selected {
    /// The fastest backend this CPU supports.
    pub(crate) fn best() -> Self {
        #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
        {
            #[cfg(pqforge_hqc_avx512)]
            if let Some(t) = Avx512Token::detect() {
                return Self::Avx512(t);
            }
            if let Some(t) = Avx2Token::detect() {
                return Self::Avx2(t);
            }
        }
        Self::Portable
    }

    /// The backend named by `b`, if this CPU supports it.
    pub(crate) fn of(b: crate::testing::Backend) -> Option<Self> {
        use crate::testing::Backend as B;
        match b {
            B::Portable => Some(Self::Portable),
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            B::Avx2 => Avx2Token::detect().map(Self::Avx2),
            #[cfg(all(
                target_arch = "x86_64",
                not(pqforge_backend = "portable"),
                pqforge_hqc_avx512
            ))]
            B::Avx512 => Avx512Token::detect().map(Self::Avx512),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// Deterministic key generation into the encoded `ek` and `dk`
    /// (`ENCAPS_KEY_BYTES` / `DECAPS_KEY_BYTES`).
    pub(crate) fn keygen_into<P: ParameterSet>(
        self,
        seed_kem: &[u8; SEED_BYTES],
        ek: &mut [u8],
        dk: &mut [u8],
    ) {
        match self {
            Self::Portable => kem::keygen_into::<P, Portable>(seed_kem, ek, dk),
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            Self::Avx2(t) => t.keygen_into::<P>(seed_kem, ek, dk),
            #[cfg(all(
                target_arch = "x86_64",
                not(pqforge_backend = "portable"),
                pqforge_hqc_avx512
            ))]
            Self::Avx512(t) => t.keygen_into::<P>(seed_kem, ek, dk),
        }
    }

    /// Deterministic encapsulation under the encoded `ek` into the encoded
    /// `ct` and the shared secret `k`.
    pub(crate) fn encaps_into<P: ParameterSet>(
        self,
        ek: &[u8],
        m: &[u8],
        salt: &[u8; SALT_BYTES],
        ct: &mut [u8],
        k: &mut [u8; SS_BYTES],
    ) {
        match self {
            Self::Portable => kem::encaps_into::<P, Portable>(ek, m, salt, ct, k),
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            Self::Avx2(t) => t.encaps_into::<P>(ek, m, salt, ct, k),
            #[cfg(all(
                target_arch = "x86_64",
                not(pqforge_backend = "portable"),
                pqforge_hqc_avx512
            ))]
            Self::Avx512(t) => t.encaps_into::<P>(ek, m, salt, ct, k),
        }
    }

    /// Decapsulation of the encoded `ct` under the encoded, validated `dk`
    /// into `k`.
    pub(crate) fn decaps_into<P: ParameterSet>(self, dk: &[u8], ct: &[u8], k: &mut [u8; SS_BYTES]) {
        match self {
            Self::Portable => kem::decaps::<P, Portable>(dk, ct, k),
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            Self::Avx2(t) => t.decaps::<P>(dk, ct, k),
            #[cfg(all(
                target_arch = "x86_64",
                not(pqforge_backend = "portable"),
                pqforge_hqc_avx512
            ))]
            Self::Avx512(t) => t.decaps::<P>(dk, ct, k),
        }
    }

    /// Decapsulation-key consistency (all-ones iff consistent).
    pub(crate) fn check_decaps_key<P: ParameterSet>(self, skb: &[u8]) -> u8 {
        match self {
            Self::Portable => kem::check_decaps_key::<P, Portable>(skb),
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            Self::Avx2(t) => t.check_decaps_key::<P>(skb),
            #[cfg(all(
                target_arch = "x86_64",
                not(pqforge_backend = "portable"),
                pqforge_hqc_avx512
            ))]
            Self::Avx512(t) => t.check_decaps_key::<P>(skb),
        }
    }

    /// `out = a * b mod (X^n - 1)`.
    pub(crate) fn mul_mod<P: ParameterSet>(self, out: &mut P::Poly, a: &P::Poly, b: &P::Poly) {
        match self {
            Self::Portable => {
                let mut scratch = P::SCRATCH_ZERO;
                crate::gf2x::mul_mod::<Portable>(
                    out.as_mut(),
                    a.as_ref(),
                    b.as_ref(),
                    P::N,
                    scratch.as_mut(),
                );
            }
            #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
            Self::Avx2(t) => t.mul_mod::<P>(out, a, b),
            #[cfg(all(
                target_arch = "x86_64",
                not(pqforge_backend = "portable"),
                pqforge_hqc_avx512
            ))]
            Self::Avx512(t) => t.mul_mod::<P>(out, a, b),
        }
    }
}
