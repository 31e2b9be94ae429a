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
/// and (S_−1, W_−1) = `sw[2n..2n + 2]`, sums over k
/// e0 = smladx(a\[k\], S_k), o0 = smladx(a\[k\], W_k), e1 =
/// smladx(a\[k\], S_k−1), o1 = smladx(a\[k\], W_k−1) and stores the words
/// r\[0\] = (e0, o0), r\[1\] = (e1, o1) (low halves). Each step is one
/// `LDR`, one `LDRD` and four `SMLADX`; the loop runs two steps per
/// iteration, alternating the registers of (S_k, W_k) and (S_k−1, W_k−1),
/// so that nothing is moved. The output pointer waits on the stack during
/// the loop (its register holds a\[k\]): every register is in use.
///
/// # Panics
///
/// If `a` is empty, `sw.len() != 2 * a.len() + 2` or `r.len() != 2`.
#[inline(always)]
pub(super) fn scan2(r: &mut [u32], a: &[u32], sw: &[u32]) {
    let n = a.len();
    assert!(n >= 1 && sw.len() == 2 * n + 2 && r.len() == 2);
    // SAFETY: reads `a` upwards from its first word (n words) and `sw`
    // downwards by pairs from pair n − 1 (n pairs) and pair n, writes
    // r[0], r[1] (one `STRD`): all inside the slices by the assertion above;
    // `LDRD`/`STRD` need word alignment, which `&[u32]` has. One word is
    // pushed and popped (the stack is balanced on exit); the flags are
    // clobbered (`asm!` assumes so). Constant time: the trip count is n
    // (public), `SMLADX` takes one cycle whatever the operands.
    unsafe {
        core::arch::asm!(
            "push {{{x}}}",
            "ldrd {s1}, {w1}, [{psw}, #8]",
            "movs {e0}, #0",
            "movs {o0}, #0",
            "movs {e1}, #0",
            "movs {o1}, #0",
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
            "pop {{{x}}}",
            "pkhbt {s0}, {e0}, {o0}, lsl #16",
            "pkhbt {w0}, {e1}, {o1}, lsl #16",
            "strd {s0}, {w0}, [{x}]",
            n = inout(reg) n => _,
            pa = inout(reg) a.as_ptr() => _,
            psw = inout(reg) sw.as_ptr().add(2 * n - 2) => _,
            x = inout(reg) r.as_mut_ptr() => _,
            s0 = out(reg) _,
            w0 = out(reg) _,
            s1 = out(reg) _,
            w1 = out(reg) _,
            e0 = out(reg) _,
            o0 = out(reg) _,
            e1 = out(reg) _,
            o1 = out(reg) _,
        );
    }
}
