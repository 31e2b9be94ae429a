//! Armv7E-M (Cortex-M4) DSP instructions of the pair kernels, one
//! instruction per `asm!` (LLVM schedules them): `SMLADX`, `SMUSD`,
//! `SMULBB`, `SMLABB`. The kernels around them stay in `pairs.rs`, where
//! the same algorithms run on every host with Rust twins of these
//! functions (tested there against the plain kernels; on the board
//! through the KAT transcripts of `cargo xtask m4`).
//!
//! Constant time: each is a one-cycle instruction whatever the operands;
//! none touches memory. They only set the sticky Q flag, which nothing
//! reads.
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

/// `lo(x)·lo(y) - hi(x)·hi(y)` modulo 2^32, the halves read as `i16`: one
/// `SMUSD`.
#[inline(always)]
pub(super) fn smusd(x: u32, y: u32) -> u32 {
    let r: u32;
    // SAFETY: register-only arithmetic, no memory access, no stack use
    // (`SMUSD` sets no flag but Q).
    unsafe {
        core::arch::asm!(
            "smusd {r}, {x}, {y}",
            r = lateout(reg) r,
            x = in(reg) x,
            y = in(reg) y,
            options(pure, nomem, nostack),
        );
    }
    r
}

/// `lo(x)·lo(y)`, the halves read as `i16`: one `SMULBB`.
#[inline(always)]
pub(super) fn smulbb(x: u32, y: u32) -> u32 {
    let r: u32;
    // SAFETY: register-only arithmetic, no memory access, no stack use.
    unsafe {
        core::arch::asm!(
            "smulbb {r}, {x}, {y}",
            r = lateout(reg) r,
            x = in(reg) x,
            y = in(reg) y,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    r
}

/// `acc + lo(x)·lo(y)` modulo 2^32, the halves read as `i16`: one
/// `SMLABB`.
#[inline(always)]
pub(super) fn smlabb(x: u32, y: u32, acc: u32) -> u32 {
    let r: u32;
    // SAFETY: register-only arithmetic, no memory access, no stack use
    // (`SMLABB` sets no flag but Q).
    unsafe {
        core::arch::asm!(
            "smlabb {r}, {x}, {y}, {acc}",
            r = lateout(reg) r,
            x = in(reg) x,
            y = in(reg) y,
            acc = in(reg) acc,
            options(pure, nomem, nostack),
        );
    }
    r
}
