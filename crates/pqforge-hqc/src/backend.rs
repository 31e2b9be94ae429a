//! Run-time backend selection, once per public call.
//!
//! On x86_64 (unless built with `--cfg pqforge_backend="portable"`) the
//! AVX-512/VPCLMULQDQ backend is used when the CPU has it, else the
//! AVX2/PCLMULQDQ backend, else the portable one.

use crate::gf2x::Portable;
use crate::kem;
use crate::params::{MAX_K, ParameterSet, SALT_BYTES, SEED_BYTES, SS_BYTES};
use crate::types::{Ciphertext, DecapsKey, EncapsKey, SharedSecret};
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

    /// Deterministic key generation.
    pub(crate) fn keygen_derand<P: ParameterSet>(
        self,
        seed_kem: &[u8; SEED_BYTES],
    ) -> (EncapsKey<P>, DecapsKey<P>) {
        let mut ek = EncapsKey::<P> { bytes: P::PK_ZERO };
        let mut dk = DecapsKey::<P> { bytes: P::SK_ZERO };
        self.keygen_into::<P>(seed_kem, ek.bytes.as_mut(), dk.bytes.as_mut());
        (ek, dk)
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

    /// Deterministic encapsulation.
    pub(crate) fn encaps_derand<P: ParameterSet>(
        self,
        ek: &EncapsKey<P>,
        m: &[u8],
        salt: &[u8; SALT_BYTES],
    ) -> (Ciphertext<P>, SharedSecret<P>) {
        let mut ct = Ciphertext::<P> { bytes: P::CT_ZERO };
        let mut k = SharedSecret::new([0u8; SS_BYTES]);
        self.encaps_into::<P>(ek.bytes.as_ref(), m, salt, ct.bytes.as_mut(), &mut k.bytes);
        (ct, k)
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

    /// Decapsulation.
    pub(crate) fn decaps<P: ParameterSet>(
        self,
        dk: &DecapsKey<P>,
        ct: &Ciphertext<P>,
    ) -> SharedSecret<P> {
        let mut k = SharedSecret::new([0u8; SS_BYTES]);
        self.decaps_into::<P>(dk.bytes.as_ref(), ct.bytes.as_ref(), &mut k.bytes);
        k
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

/// Deterministic key generation on the best backend.
pub(crate) fn keygen_derand<P: ParameterSet>(
    seed_kem: &[u8; SEED_BYTES],
) -> (EncapsKey<P>, DecapsKey<P>) {
    Selected::best().keygen_derand::<P>(seed_kem)
}

/// Deterministic encapsulation on the best backend.
pub(crate) fn encaps_derand<P: ParameterSet>(
    ek: &EncapsKey<P>,
    m: &[u8],
    salt: &[u8; SALT_BYTES],
) -> (Ciphertext<P>, SharedSecret<P>) {
    Selected::best().encaps_derand::<P>(ek, m, salt)
}

/// Decapsulation on the best backend.
pub(crate) fn decaps<P: ParameterSet>(dk: &DecapsKey<P>, ct: &Ciphertext<P>) -> SharedSecret<P> {
    Selected::best().decaps::<P>(dk, ct)
}

/// Decapsulation-key consistency check on the best backend.
pub(crate) fn check_decaps_key<P: ParameterSet>(skb: &[u8]) -> u8 {
    Selected::best().check_decaps_key::<P>(skb)
}

/// Randomised key generation: draws seed_kem (32 bytes).
pub(crate) fn keygen<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
    rng: &mut R,
) -> (EncapsKey<P>, DecapsKey<P>) {
    let mut seed = [0u8; SEED_BYTES];
    rng.fill_bytes(&mut seed);
    let mut ek = EncapsKey::<P> { bytes: P::PK_ZERO };
    let mut dk = DecapsKey::<P> { bytes: P::SK_ZERO };
    Selected::best().keygen_into::<P>(&seed, ek.bytes.as_mut(), dk.bytes.as_mut());
    zeroize::Zeroize::zeroize(&mut seed);
    (ek, dk)
}

/// Randomised encapsulation: draws m (k bytes) then salt (16 bytes).
pub(crate) fn encaps<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
    ek: &EncapsKey<P>,
    rng: &mut R,
) -> (Ciphertext<P>, SharedSecret<P>) {
    let mut m = [0u8; MAX_K];
    let mut salt = [0u8; SALT_BYTES];
    rng.fill_bytes(&mut m[..P::K]);
    rng.fill_bytes(&mut salt);
    let mut ct = Ciphertext::<P> { bytes: P::CT_ZERO };
    let mut k = SharedSecret::new([0u8; SS_BYTES]);
    Selected::best().encaps_into::<P>(
        ek.bytes.as_ref(),
        &m[..P::K],
        &salt,
        ct.bytes.as_mut(),
        &mut k.bytes,
    );
    zeroize::Zeroize::zeroize(&mut m);
    (ct, k)
}
