//! Armv7E-M (Cortex-M4) kernels of the portable backend: `UADD16` and
//! `USUB16` (two 16-bit lanes added or subtracted modulo 2^16), each one
//! instruction in assembly that LLVM schedules, and the schoolbook's inner
//! loop (`scan2`: `SMLADX`, two 16 × 16-bit products of exchanged halves
//! added to a 32-bit sum, with the operands streamed by `LDR`/`LDRD`). The
//! algorithms around them stay in `portable.rs`, where the same code runs
//! on every host with the Rust twins of these functions (tested there
//! against the schoolbook; on the board through the KAT transcripts of
//! `cargo xtask m4`).
#![allow(unsafe_code)]

/// The two 16-bit lanes of `x` and `y` added modulo 2^16: one `UADD16`.
#[inline(always)]
pub(super) fn add16(x: u32, y: u32) -> u32 {
    let r: u32;
    // SAFETY: register-only arithmetic, no memory access, no stack use;
    // `UADD16` sets the GE flags (not preserved: `asm!` assumes the flags
    // clobbered). Constant time: one cycle whatever the operands.
    unsafe {
        core::arch::asm!(
            "uadd16 {r}, {x}, {y}",
            r = lateout(reg) r,
            x = in(reg) x,
            y = in(reg) y,
            options(pure, nomem, nostack),
        );
    }
    r
}

/// The two 16-bit lanes of `y` subtracted from those of `x` modulo 2^16:
/// one `USUB16`.
#[inline(always)]
pub(super) fn sub16(x: u32, y: u32) -> u32 {
    let r: u32;
    // SAFETY: as for `add16` (`USUB16`, the same flags).
    unsafe {
        core::arch::asm!(
            "usub16 {r}, {x}, {y}",
            r = lateout(reg) r,
            x = in(reg) x,
            y = in(reg) y,
            options(pure, nomem, nostack),
        );
    }
    r
}

/// One pass of the schoolbook of `portable.rs` (`scan2` there is the Rust
/// twin, tested against the schoolbook on every host): for k < n =
/// `a.len()`, with (S_k, W_k) = `sw[2(n − 1 − k)..][..2]` (read downwards)
/// and (S_−1, W_−1) = (`s1`, `w1`), returns the sums over k of
/// smladx(a\[k\], S_k), smladx(a\[k\], W_k), smladx(a\[k\], S_k−1),
/// smladx(a\[k\], W_k−1). Each step is one `LDR`, one `LDRD` and four
/// `SMLADX`; the loop runs two steps per iteration, alternating the
/// registers of (S_k, W_k) and (S_k−1, W_k−1), so that nothing is moved.
///
/// # Panics
///
/// If `a` is empty or `sw.len() != 2 * a.len()`.
#[inline(always)]
pub(super) fn scan2(a: &[u32], sw: &[u32], s1: u32, w1: u32) -> [u32; 4] {
    let n = a.len();
    assert!(n >= 1 && sw.len() == 2 * n);
    let (mut e0, mut o0, mut e1, mut o1) = (0u32, 0u32, 0u32, 0u32);
    // SAFETY: reads only: `a` upwards from its first word (n words) and
    // `sw` downwards by pairs from its last pair (n pairs), both inside the
    // slices by the assertion above; `LDRD` needs word alignment, which
    // `&[u32]` has. Registers only otherwise, no stack; the flags are
    // clobbered (`asm!` assumes so). Constant time: the trip count is n
    // (public), `SMLADX` takes one cycle whatever the operands.
    unsafe {
        core::arch::asm!(
            "lsrs {n}, {n}, #1",
            "bcc 2f",
            // n odd: one step, then (S_k, W_k) become (S_k−1, W_k−1).
            "ldr {x}, [{pa}], #4",
            "ldrd {s0}, {w0}, [{psw}], #-8",
            "smladx {e0}, {x}, {s0}, {e0}",
            "smladx {o0}, {x}, {w0}, {o0}",
            "smladx {e1}, {x}, {s1}, {e1}",
            "smladx {o1}, {x}, {w1}, {o1}",
            "mov {s1}, {s0}",
            "mov {w1}, {w0}",
            "2:",
            "cmp {n}, #0",
            "beq 4f",
            "3:",
            "ldr {x}, [{pa}], #4",
            "ldrd {s0}, {w0}, [{psw}], #-8",
            "smladx {e0}, {x}, {s0}, {e0}",
            "smladx {o0}, {x}, {w0}, {o0}",
            "smladx {e1}, {x}, {s1}, {e1}",
            "smladx {o1}, {x}, {w1}, {o1}",
            "ldr {x}, [{pa}], #4",
            "ldrd {s1}, {w1}, [{psw}], #-8",
            "smladx {e0}, {x}, {s1}, {e0}",
            "smladx {o0}, {x}, {w1}, {o0}",
            "smladx {e1}, {x}, {s0}, {e1}",
            "smladx {o1}, {x}, {w0}, {o1}",
            "subs {n}, {n}, #1",
            "bne 3b",
            "4:",
            n = inout(reg) n => _,
            pa = inout(reg) a.as_ptr() => _,
            psw = inout(reg) sw.as_ptr().add(2 * n - 2) => _,
            x = out(reg) _,
            s0 = out(reg) _,
            w0 = out(reg) _,
            s1 = inout(reg) s1 => _,
            w1 = inout(reg) w1 => _,
            e0 = inout(reg) e0,
            o0 = inout(reg) o0,
            e1 = inout(reg) e1,
            o1 = inout(reg) o1,
            options(readonly, nostack, pure),
        );
    }
    [e0, o0, e1, o1]
}
