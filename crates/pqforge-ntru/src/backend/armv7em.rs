//! Armv7E-M (Cortex-M4) kernels of the portable backend: the DSP
//! instruction `SMLADX` (two 16 × 16-bit products of exchanged halves added
//! to a 32-bit sum) in assembly; the product-scanning schoolbook around it
//! stays in `portable.rs`, where the same algorithm runs on every host with
//! the Rust [`smladx`](super::portable) (tested there against the
//! schoolbook; on the board through the KAT transcripts of `cargo xtask m4`).
#![allow(unsafe_code)]

/// `acc + lo(x)·hi(y) + hi(x)·lo(y)` modulo 2^32, the halves read as `i16`:
/// one `SMLADX`.
#[inline(always)]
pub(super) fn smladx(acc: u32, x: u32, y: u32) -> u32 {
    let r: u32;
    // SAFETY: register-only arithmetic, no memory access, no stack use.
    // `SMLADX` wraps modulo 2^32 (it only sets the sticky Q flag, which
    // nothing here reads). Constant time: a one-cycle instruction whatever
    // the operands.
    unsafe {
        core::arch::asm!(
            "smladx {r}, {x}, {y}, {acc}",
            r = lateout(reg) r,
            x = in(reg) x,
            y = in(reg) y,
            acc = in(reg) acc,
            options(pure, nomem, nostack),
        );
    }
    r
}
