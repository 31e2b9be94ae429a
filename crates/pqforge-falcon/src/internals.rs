//! Internals exposed for the differential tests of the floating-point
//! backends. Not part of the stable API.

/// The integer emulation of binary64 (always compiled).
pub use crate::fpr_emu::Fpr as EmuFpr;
/// The native binary64 backend (x86_64 only).
#[cfg(target_arch = "x86_64")]
pub use crate::fpr_native::Fpr as NativeFpr;
