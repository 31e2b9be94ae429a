//! Backend selection, once per public call: AVX2 when the CPU has it (and the
//! build does not say `--cfg pqforge_backend="portable"`), else the
//! stack-optimised portable implementation (`crate::compact`).

use crate::backend::Portable;
use crate::params::ParameterSet;
use crate::{compact, kem};

#[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
use crate::backend::avx2;

/// Name of the backend the public calls use on this machine.
#[must_use]
pub fn backend_name() -> &'static str {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if avx2::Token::get().is_some() {
        return "avx2";
    }
    "portable"
}

/// FIPS 203 §7.2 modulus check: every 12-bit value of `bytes` is < q.
pub(crate) fn is_canonical_12(bytes: &[u8]) -> bool {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if let Some(t) = avx2::Token::get() {
        return avx2::check_modulus(t, bytes);
    }
    crate::poly::is_canonical_12(bytes)
}

pub(crate) fn keygen<P: ParameterSet>(
    d: &[u8; 32],
    z: &[u8; 32],
    ek: &mut [u8],
    dk: &mut [u8],
    ipd: bool,
) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if let Some(t) = avx2::Token::get() {
        return avx2::keygen::<P>(t, d, z, ek, dk, ipd);
    }
    compact::keygen::<P>(d, z, ek, dk, ipd);
}

pub(crate) fn encaps<P: ParameterSet>(
    ek: &[u8],
    h: &[u8; 32],
    m: &[u8; 32],
    c: &mut [u8],
    key: &mut [u8; 32],
) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if let Some(t) = avx2::Token::get() {
        return avx2::encaps::<P>(t, ek, h, m, c, key);
    }
    compact::encaps::<P>(ek, h, m, c, key);
}

pub(crate) fn decaps<P: ParameterSet>(dk: &[u8], c: &[u8], key: &mut [u8; 32]) {
    #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
    if let Some(t) = avx2::Token::get() {
        return avx2::decaps::<P>(t, dk, c, key);
    }
    compact::decaps::<P>(dk, c, key);
}

/// The stack-optimised portable implementation (`crate::compact`), whatever
/// the CPU (differential tests).
#[doc(hidden)]
pub mod compact_path {
    use super::{ParameterSet, compact};

    /// KeyGen_internal: writes ek and dk.
    pub fn keygen<P: ParameterSet>(d: &[u8; 32], z: &[u8; 32], ek: &mut [u8], dk: &mut [u8]) {
        compact::keygen::<P>(d, z, ek, dk, false);
    }
    /// Encaps_internal (`h` = H(ek)).
    pub fn encaps<P: ParameterSet>(
        ek: &[u8],
        h: &[u8; 32],
        m: &[u8; 32],
        c: &mut [u8],
        key: &mut [u8; 32],
    ) {
        compact::encaps::<P>(ek, h, m, c, key);
    }
    /// Decaps_internal.
    pub fn decaps<P: ParameterSet>(dk: &[u8], c: &[u8], key: &mut [u8; 32]) {
        compact::decaps::<P>(dk, c, key);
    }
}

/// The reference portable implementation (`crate::kem` on the portable
/// backend), whatever the CPU (differential tests).
#[doc(hidden)]
pub mod portable {
    use super::{ParameterSet, Portable, kem};

    /// KeyGen_internal on the portable backend: writes ek and dk.
    pub fn keygen<P: ParameterSet>(d: &[u8; 32], z: &[u8; 32], ek: &mut [u8], dk: &mut [u8]) {
        kem::keygen::<P, Portable>(d, z, ek, dk, false);
    }
    /// Encaps_internal on the portable backend (`h` = H(ek)).
    pub fn encaps<P: ParameterSet>(
        ek: &[u8],
        h: &[u8; 32],
        m: &[u8; 32],
        c: &mut [u8],
        key: &mut [u8; 32],
    ) {
        kem::encaps::<P, Portable>(ek, h, m, c, key);
    }
    /// Decaps_internal on the portable backend.
    pub fn decaps<P: ParameterSet>(dk: &[u8], c: &[u8], key: &mut [u8; 32]) {
        kem::decaps::<P, Portable>(dk, c, key);
    }
}
