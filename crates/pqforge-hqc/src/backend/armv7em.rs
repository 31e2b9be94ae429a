//! Armv7E-M (Cortex-M4) kernels of the portable backend: the 32 x 32 ->
//! 64-bit carry-less product in assembly. The Karatsuba recursion around
//! it stays in `portable.rs`; its tests (against a bit-by-bit reference)
//! run on the board through the KAT transcripts of `cargo xtask m4`, and
//! the same algorithm in Rust is tested on every host.
#![allow(unsafe_code)]

/// The portable backend's `clmul32` on 32-bit Arm (the Cortex-M4): the same 16 `umull` and
/// masks in one assembly block. In Rust, LLVM's scheduler hoists the 144
/// `umull` of its two-word Karatsuba product ahead of their XORs and spills most products to
/// the stack (about 130 instructions per 32-bit product instead of 74).
/// Registers: `a`, the four parts of `b`, one part of `a` at a time, the
/// class accumulator, the current product and the result: 12.
#[inline(always)]
pub(super) fn clmul32(a: u32, b: u32) -> u64 {
    let (lo, hi): (u32, u32);
    // SAFETY: register-only arithmetic (`and`, `umull`, `eor`, `orr`); no
    // memory access, no stack use, flags untouched. Constant time: no
    // branch, and `umull` takes one cycle on the Cortex-M4 whatever the
    // operands.
    unsafe {
        core::arch::asm!(
            // b = b0 + b1 + b2 + b3 by residue class of the bit position.
            "and {b1}, {b}, #0x22222222",
            "and {b2}, {b}, #0x44444444",
            "and {b3}, {b}, #0x88888888",
            "and {b}, {b}, #0x11111111",
            // Class 0 (bit positions = 0 mod 4): a0 b0 + a1 b3 + a2 b2 + a3 b1.
            "and {t}, {a}, #0x11111111",
            "umull {l}, {h}, {t}, {b}",
            "and {t}, {a}, #0x22222222",
            "umull {pl}, {ph}, {t}, {b3}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {t}, {a}, #0x44444444",
            "umull {pl}, {ph}, {t}, {b2}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {t}, {a}, #0x88888888",
            "umull {pl}, {ph}, {t}, {b1}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {lo}, {l}, #0x11111111",
            "and {hi}, {h}, #0x11111111",
            // Class 1: a0 b1 + a1 b0 + a2 b3 + a3 b2.
            "and {t}, {a}, #0x11111111",
            "umull {l}, {h}, {t}, {b1}",
            "and {t}, {a}, #0x22222222",
            "umull {pl}, {ph}, {t}, {b}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {t}, {a}, #0x44444444",
            "umull {pl}, {ph}, {t}, {b3}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {t}, {a}, #0x88888888",
            "umull {pl}, {ph}, {t}, {b2}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {l}, {l}, #0x22222222",
            "and {h}, {h}, #0x22222222",
            "orr {lo}, {lo}, {l}",
            "orr {hi}, {hi}, {h}",
            // Class 2: a0 b2 + a1 b1 + a2 b0 + a3 b3.
            "and {t}, {a}, #0x11111111",
            "umull {l}, {h}, {t}, {b2}",
            "and {t}, {a}, #0x22222222",
            "umull {pl}, {ph}, {t}, {b1}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {t}, {a}, #0x44444444",
            "umull {pl}, {ph}, {t}, {b}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {t}, {a}, #0x88888888",
            "umull {pl}, {ph}, {t}, {b3}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {l}, {l}, #0x44444444",
            "and {h}, {h}, #0x44444444",
            "orr {lo}, {lo}, {l}",
            "orr {hi}, {hi}, {h}",
            // Class 3: a0 b3 + a1 b2 + a2 b1 + a3 b0.
            "and {t}, {a}, #0x11111111",
            "umull {l}, {h}, {t}, {b3}",
            "and {t}, {a}, #0x22222222",
            "umull {pl}, {ph}, {t}, {b2}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {t}, {a}, #0x44444444",
            "umull {pl}, {ph}, {t}, {b1}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {t}, {a}, #0x88888888",
            "umull {pl}, {ph}, {t}, {b}",
            "eor {l}, {l}, {pl}",
            "eor {h}, {h}, {ph}",
            "and {l}, {l}, #0x88888888",
            "and {h}, {h}, #0x88888888",
            "orr {lo}, {lo}, {l}",
            "orr {hi}, {hi}, {h}",
            a = in(reg) a,
            b = inout(reg) b => _,
            b1 = out(reg) _,
            b2 = out(reg) _,
            b3 = out(reg) _,
            t = out(reg) _,
            l = out(reg) _,
            h = out(reg) _,
            pl = out(reg) _,
            ph = out(reg) _,
            lo = out(reg) lo,
            hi = out(reg) hi,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    (u64::from(hi) << 32) | u64::from(lo)
}
