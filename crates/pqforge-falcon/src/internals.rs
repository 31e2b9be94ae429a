//! Internals exposed for the differential tests (binary64 backends, AVX2
//! against portable kernels) and the fuzz targets. Not part of the stable
//! API.

/// The integer emulation of binary64 (always compiled).
pub use crate::fpr_emu::Fpr as EmuFpr;
/// The native binary64 backend (x86_64 only).
#[cfg(target_arch = "x86_64")]
pub use crate::fpr_native::Fpr as NativeFpr;

/// Round-3 compressed encoding of s2: decodes a prefix of `input`, returns
/// the bytes consumed (for the fuzz targets).
#[must_use]
pub fn comp_decode(x: &mut [i16], input: &[u8]) -> Option<usize> {
    crate::codec::comp_decode::<crate::codec::Msb>(x, input, crate::codec::ROUND3_COMP_BOUND)
}

/// Round-3 compressed encoding of s2; `None` if a value is out of range or
/// `out` is too short (for the fuzz targets).
#[must_use]
pub fn comp_encode(out: &mut [u8], x: &[i16]) -> Option<usize> {
    crate::codec::comp_encode::<crate::codec::Msb>(out, x, crate::codec::ROUND3_COMP_BOUND)
}

/// Round-3 public-key body (14 bits per value, big-endian packing): decodes
/// `x.len()` values (for the fuzz targets).
#[must_use]
pub fn modq_decode(x: &mut [u16], input: &[u8]) -> Option<usize> {
    crate::codec::modq_decode::<crate::codec::Msb>(x, input)
}

/// Round-3 public-key body encoder; `out` is exactly 14 n / 8 bytes.
pub fn modq_encode(out: &mut [u8], x: &[u16]) {
    crate::codec::modq_encode::<crate::codec::Msb>(out, x);
}

pqforge_core::x86_simd! {
    /// Differential checks of the AVX2 backend against the portable one
    /// (`tests/backends.rs`): every kernel on random inputs, whole
    /// operations from given seeds.
    pub mod backends {
        pub use crate::backend::check::{kernels, operations};
    }
}

/// Compares the accelerated kernels this build and CPU run with the
/// portable ones on one round of random inputs: the AVX2 backend on
/// x86_64, the binary64 assembly on the Cortex-M4 (`pqforge`'s functional
/// test runs it). `Ok(false)` when there is none (nothing compared).
///
/// # Errors
/// The name of the first kernel whose outputs differ.
pub fn check_kernels(next: &mut dyn FnMut() -> u64) -> Result<bool, &'static str> {
    pqforge_core::x86_simd! {{
        return crate::backend::check::kernels(next);
    }}
    #[cfg(all(
        target_arch = "arm",
        target_feature = "dsp",
        target_feature = "mclass",
        target_endian = "little"
    ))]
    return crate::fpr_armv7em::check(next).map(|()| true);
    #[allow(unreachable_code)]
    {
        let _ = next;
        Ok(false)
    }
}

/// FN-DSA (putative draft) codecs for the fuzz targets.
#[cfg(feature = "fndsa")]
pub mod fndsa {
    /// Decodes a padded compressed s2 occupying all of `input`.
    #[must_use]
    pub fn comp_decode(x: &mut [i16], input: &[u8]) -> bool {
        crate::fndsa::codec::comp_decode(x, input)
    }

    /// Encodes s2 into all of `out` (zero padding).
    #[must_use]
    pub fn comp_encode(out: &mut [u8], x: &[i16]) -> bool {
        crate::fndsa::codec::comp_encode(out, x)
    }

    /// Decodes a verifying-key body (14-bit little-endian packing).
    #[must_use]
    pub fn modq_decode(x: &mut [u16], input: &[u8]) -> bool {
        crate::fndsa::codec::modq_decode(x, input)
    }

    /// Encodes a verifying-key body.
    pub fn modq_encode(out: &mut [u8], x: &[u16]) {
        crate::fndsa::codec::modq_encode(out, x);
    }
}
