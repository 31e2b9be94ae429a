//! Binary64 addition and multiplication of the integer emulation
//! ([`crate::fpr_emu`]) in Armv7E-M assembly (Cortex-M4): the same
//! algorithm, step for step, so the same bits for every input the
//! emulation supports, in about 90 and 55 instructions instead of the
//! 140 and 100 LLVM makes of the Rust (64-bit shifts by a variable count
//! and the 53 x 53-bit product are where it loses most).
//!
//! Each is one `asm!` block that LLVM inlines and allocates registers for
//! (ten, so it spills the caller's values around it rather than calling
//! a function). `fpr_emu` uses them under the same `cfg` (little-endian
//! M-profile Arm with `dsp`: Thumb-2 only encodings such as `addw`, and the
//! Cortex-M timings below); the firmware's
//! functional test compares them with the Rust on random and edge-case
//! operands (`check`, through `pqforge::transcript`), and the KAT
//! transcripts cover the rest.
//!
//! Constant time: straight-line code without branches, conditional
//! execution or memory access; the data-dependent choices are masks.
//! Every instruction used (`clz`, register shifts, `umull`, `umlal`,
//! `umaal`, `ubfx`, `sbfx`, `bfi`, `bfc`, the ALU operations) takes one
//! cycle on the Cortex-M4 whatever its operands. (On the Cortex-M3 the
//! long multiplies finish early on small operands: that is one reason
//! this needs the DSP extension, the other being `umaal`.)
#![allow(unsafe_code)]

/// `x + y` on binary64 bit patterns, bit-identical to the `Add` of
/// [`crate::fpr_emu::Fpr`].
#[inline(always)]
pub(crate) fn add(x: u64, y: u64) -> u64 {
    let (mut xl, mut xh) = (x as u32, (x >> 32) as u32);
    let (mut yl, mut yh) = (y as u32, (y >> 32) as u32);
    // SAFETY: register-only arithmetic: no memory access, no stack use;
    // every written register is an operand. Flags are clobbered (no
    // `preserves_flags`).
    unsafe {
        core::arch::asm!(
            // Swap so that |x| >= |y|; on equal magnitudes x gets the
            // positive one. Compare (hi << 1, lo) (the sign dropped) with
            // an initial borrow when x is negative: a borrow out means
            // swap.
            "lsls {t0}, {xh}, #1",
            "subs {t1}, {xh}, {xh}, asr #31",
            "sbcs {t1}, {xl}, {yl}",
            "sbcs {t1}, {t0}, {yh}, lsl #1",
            "sbc {t0}, {t0}, {t0}",
            "eor {t1}, {xl}, {yl}",
            "and {t1}, {t1}, {t0}",
            "eor {xl}, {xl}, {t1}",
            "eor {yl}, {yl}, {t1}",
            "eor {t1}, {xh}, {yh}",
            "and {t1}, {t1}, {t0}",
            "eor {xh}, {xh}, {t1}",
            "eor {yh}, {yh}, {t1}",
            // s: bit 31 = sign of x (of the result), bit 0 = signs differ.
            "eor {t0}, {xh}, {yh}",
            "and {s}, {xh}, #0x80000000",
            "orr {s}, {s}, {t0}, lsr #31",
            // x: exponent in ex, mantissa with its implicit bit (none for
            // a zero exponent), times 8.
            "ubfx {ex}, {xh}, #20, #11",
            "addw {t0}, {ex}, #2047",
            "lsrs {t0}, {t0}, #11",
            "bfi {xh}, {t0}, #20, #12",
            "lsls {xh}, {xh}, #3",
            "orr {xh}, {xh}, {xl}, lsr #29",
            "lsls {xl}, {xl}, #3",
            // y the same; t1 = ex - ey (>= 0).
            "ubfx {t1}, {yh}, #20, #11",
            "addw {t0}, {t1}, #2047",
            "lsrs {t0}, {t0}, #11",
            "bfi {yh}, {t0}, #20, #12",
            "lsls {yh}, {yh}, #3",
            "orr {yh}, {yh}, {yl}, lsr #29",
            "lsls {yl}, {yl}, #3",
            "subs {t1}, {ex}, {t1}",
            // A shift of 60 or more: y = 0.
            "subs {t0}, {t1}, #60",
            "and {yl}, {yl}, {t0}, asr #31",
            "and {yh}, {yh}, {t0}, asr #31",
            // y >>= t1 (mod 64), the dropped bits ORed into t2: first by
            // 32 when bit 5 is set (t0 = -1)...
            "sbfx {t0}, {t1}, #5, #1",
            "and {t2}, {yl}, {t0}",
            "bic {yl}, {yl}, {t0}",
            "and {t0}, {yh}, {t0}",
            "orr {yl}, {yl}, {t0}",
            "eor {yh}, {yh}, {t0}",
            // ... then by t1 mod 32 (register shifts by 32 give 0).
            "and {t1}, {t1}, #31",
            "rsb {t0}, {t1}, #32",
            "lsl {t3}, {yl}, {t0}",
            "orr {t2}, {t2}, {t3}",
            "lsr {yl}, {yl}, {t1}",
            "lsl {t3}, {yh}, {t0}",
            "orr {yl}, {yl}, {t3}",
            "lsr {yh}, {yh}, {t1}",
            // Sticky: bit 0 of y |= (dropped bits != 0).
            "rsb {t0}, {t2}, #0",
            "orr {t0}, {t0}, {t2}",
            "orr {yl}, {yl}, {t0}, lsr #31",
            // x += y, or x -= y when the signs differ (y negated as
            // (y ^ m) - m with m = 0 or -1).
            "and {t0}, {s}, #1",
            "rsb {t0}, {t0}, #0",
            "eor {yl}, {yl}, {t0}",
            "eor {yh}, {yh}, {t0}",
            "subs {yl}, {yl}, {t0}",
            "sbc {yh}, {yh}, {t0}",
            "adds {xl}, {xl}, {yl}",
            "adc {xh}, {xh}, {yh}",
            // Normalise: z = leading zeros of the 64-bit x (64 -> 63),
            // x <<= z, exponent ex + 7 - z.
            "clz {t0}, {xh}",
            "clz {t1}, {xl}",
            "sbfx {t2}, {t0}, #5, #1",
            "and {t1}, {t1}, {t2}",
            "add {t0}, {t0}, {t1}",
            "sub {t0}, {t0}, {t0}, lsr #6",
            "sub {ex}, {ex}, {t0}",
            "add {ex}, {ex}, #7",
            // By 32 when bit 5 of z is set (then xh = 0)...
            "sbfx {t2}, {t0}, #5, #1",
            "and {t1}, {xl}, {t2}",
            "orr {xh}, {xh}, {t1}",
            "bic {xl}, {xl}, {t2}",
            // ... then by z mod 32.
            "and {t0}, {t0}, #31",
            "rsb {t1}, {t0}, #32",
            "lsl {xh}, {xh}, {t0}",
            "lsr {t2}, {xl}, {t1}",
            "orr {xh}, {xh}, {t2}",
            "lsl {xl}, {xl}, {t0}",
            // Exponent below range: mantissa 0; mantissa 0: exponent 0.
            "bic {xh}, {xh}, {ex}, asr #31",
            "bic {xl}, {xl}, {ex}, asr #31",
            "and {ex}, {ex}, {xh}, asr #31",
            // Round to nearest even, 64 -> 53 bits. The low 7 bits of x
            // are zero (the sum had at most 57 bits), bit 10 is the
            // rounding bit R, bits 9..7 the sticky bits, bit 11 the last
            // kept bit L. t0 = R:sticky:L at bits 31..27, zeros below:
            // adding 0b01111 << 27 carries iff R and (sticky or L).
            "lsls {t0}, {xl}, #21",
            "lsrs {t1}, {xl}, #11",
            "bfi {t0}, {t1}, #27, #1",
            "and {t2}, {s}, #0x80000000",
            "add {t2}, {t2}, {ex}, lsl #20",
            "adds {t0}, {t0}, #0x78000000",
            "adcs {xl}, {t1}, {xh}, lsl #21",
            "adc {xh}, {t2}, {xh}, lsr #11",
            xl = inout(reg) xl,
            xh = inout(reg) xh,
            yl = inout(reg) yl,
            yh = inout(reg) yh,
            ex = out(reg) _,
            s = out(reg) _,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    let _ = (yl, yh);
    (u64::from(xh) << 32) | u64::from(xl)
}

/// `x * y` on binary64 bit patterns, bit-identical to the `Mul` of
/// [`crate::fpr_emu::Fpr`].
#[inline(always)]
pub(crate) fn mul(x: u64, y: u64) -> u64 {
    let (mut xl, mut xh) = (x as u32, (x >> 32) as u32);
    let (mut yl, mut yh) = (y as u32, (y >> 32) as u32);
    // SAFETY: as in `add`.
    unsafe {
        core::arch::asm!(
            // s: bit 31 = sign of the product, bit 0 = both exponents
            // non-zero (else the product is a signed zero); e = ex + ey.
            "eor {s}, {xh}, {yh}",
            "ubfx {e}, {xh}, #20, #11",
            "ubfx {z0}, {yh}, #20, #11",
            "addw {z1}, {e}, #2047",
            "addw {z2}, {z0}, #2047",
            "and {z1}, {z1}, {z2}",
            "add {e}, {e}, {z0}",
            "and {s}, {s}, #0x80000000",
            "orr {s}, {s}, {z1}, lsr #11",
            // Mantissas with the implicit bit (53 bits).
            "bfc {xh}, #20, #12",
            "orr {xh}, {xh}, #0x100000",
            "bfc {yh}, #20, #12",
            "orr {yh}, {yh}, #0x100000",
            // P = z3:z2:z1:z0 = x * y (106 bits).
            "umull {z0}, {z1}, {xl}, {yl}",
            "movs {z2}, #0",
            "umlal {z1}, {z2}, {xl}, {yh}",
            "movs {z3}, #0",
            "umlal {z1}, {z3}, {xh}, {yl}",
            "umaal {z2}, {z3}, {xh}, {yh}",
            // w = bit 105; P <<= 1 - w (z0 only feeds the sticky bit and
            // its top bit moves into z1); e += w.
            "ubfx {xl}, {z3}, #9, #1",
            "add {e}, {e}, {xl}",
            "eor {xh}, {xl}, #1",
            "add {xl}, {xl}, #31",
            "lsl {z3}, {z3}, {xh}",
            "lsr {yl}, {z2}, {xl}",
            "orr {z3}, {z3}, {yl}",
            "lsl {z2}, {z2}, {xh}",
            "lsr {yl}, {z1}, {xl}",
            "orr {z2}, {z2}, {yl}",
            "lsl {z1}, {z1}, {xh}",
            "lsr {yl}, {z0}, {xl}",
            "orr {z1}, {z1}, {yl}",
            // Mantissa = P >> 53: xl low word, xh high word. Rounding bit
            // R = bit 52 (z1 bit 20), last kept bit L = bit 53 (z1 bit
            // 21), sticky = bits 0..51 non-zero: round up = R & (L | sticky).
            "lsrs {xl}, {z1}, #21",
            "orr {xl}, {xl}, {z2}, lsl #11",
            "lsrs {xh}, {z2}, #21",
            "orr {xh}, {xh}, {z3}, lsl #11",
            "orr {z0}, {z0}, {z1}, lsl #12",
            "rsb {yl}, {z0}, #0",
            "orr {z0}, {z0}, {yl}",
            "ubfx {yl}, {z1}, #21, #1",
            "orr {yl}, {yl}, {z0}, lsr #31",
            "ubfx {yh}, {z1}, #20, #1",
            "and {yh}, {yh}, {yl}",
            // Biased exponent e - 1024 (+1 from the implicit bit when
            // added below). Valid iff both operands non-zero and e >= 0;
            // otherwise a signed zero.
            "sub {e}, {e}, #1024",
            "and {z0}, {s}, #1",
            "rsb {z0}, {z0}, #0",
            "bic {z0}, {z0}, {e}, asr #31",
            "and {xl}, {xl}, {z0}",
            "and {xh}, {xh}, {z0}",
            "and {yh}, {yh}, {z0}",
            "and {e}, {e}, {z0}",
            "and {s}, {s}, #0x80000000",
            "add {s}, {s}, {e}, lsl #20",
            "adds {xl}, {xl}, {yh}",
            "adc {xh}, {xh}, {s}",
            xl = inout(reg) xl,
            xh = inout(reg) xh,
            yl = inout(reg) yl,
            yh = inout(reg) yh,
            e = out(reg) _,
            s = out(reg) _,
            z0 = out(reg) _,
            z1 = out(reg) _,
            z2 = out(reg) _,
            z3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    let _ = (yl, yh);
    (u64::from(xh) << 32) | u64::from(xl)
}

/// `v mod`-like reduction into `[0, n)` by multiply-shift (no division:
/// the division scan covers this code too).
fn below(v: u64, n: u64) -> u64 {
    ((v >> 32) * n) >> 32
}

/// An operand for [`check`]: random sign and mantissa, an exponent drawn
/// near `base` (Falcon's values), at the extremes, or zero.
fn operand(next: &mut dyn FnMut() -> u64, base: u64) -> u64 {
    let r = next();
    let sign = r & (1 << 63);
    let mant = next() & ((1 << 52) - 1);
    let exp = match r & 15 {
        0 => 0,                     // zero (mantissa ignored below)
        1 => 1 + below(r << 8, 70), // tiny: results may flush to zero
        2 => (r >> 8) & 0x7FF,
        _ => (base + ((r >> 8) & 127)).wrapping_sub(64) & 0x7FF,
    };
    let mant = if exp == 0 { 0 } else { mant };
    sign | (exp << 52) | mant
}

/// A normal value near 1 (exponent `1023 + de`), random sign, mantissa
/// `m` (52 bits).
fn near_one(next: &mut dyn FnMut() -> u64, de: u64, m: u64) -> u64 {
    (next() & (1 << 63)) | ((1023 + de - 64) << 52) | (m & ((1 << 52) - 1))
}

/// Compares the assembly with the Rust emulation on one round of operand
/// pairs: unrelated values (zeros, tiny and huge exponents included),
/// near and exact cancellation, every alignment shift, and mantissas
/// built so that a single sticky bit, at every position, decides the
/// rounding (the random pairs almost never isolate one).
///
/// # Errors
/// `"fpr add"` or `"fpr mul"` on the first difference.
pub(crate) fn check(next: &mut dyn FnMut() -> u64) -> Result<(), &'static str> {
    use crate::fpr_emu::{add_soft, mul_soft};
    for i in 0..256u64 {
        let x = operand(next, 1023);
        let y = operand(next, 1023);
        let k = below(next(), 52);
        let (x, y) = match i & 7 {
            // y = +-x with a few low mantissa bits changed.
            1 => (x, (x ^ (y & (1 << 63))) ^ (y & 0xFF)),
            // The same mantissa, exponent shifted by 0..=63.
            2 => (x, x.wrapping_sub((i & 63) << 52) ^ (y & (1 << 63))),
            // +-0.
            3 => (x, y & (1 << 63)),
            // Products (1 + a 2^-52)(1 + b 2^-52), a = 2^50 or 2^51 plus
            // one bit k, b in 1..=3: the low bits of the product are a b,
            // so rounding bit, last bit and one sticky bit are set
            // deliberately.
            4 => {
                let a = (1 << (50 + ((i >> 3) & 1))) | (1 << k);
                let b = 1 + below(next(), 3);
                (near_one(next, 64, a), near_one(next, 64, b))
            }
            // Sums x + y with y's mantissa a single bit k above the implicit
            // one, shifted out by cc = 1..=63 places: one sticky bit.
            5 => {
                let (cc, m) = (1 + below(next(), 63), next());
                (near_one(next, 64, m), near_one(next, 64 - cc, 1 << k))
            }
            // Sparse mantissas (two bits each).
            6 => {
                let b = |n: &mut dyn FnMut() -> u64| (1 << below(n(), 52)) | (1 << below(n(), 52));
                let (bx, by) = (b(next), b(next));
                (
                    near_one(next, 64, bx),
                    near_one(next, 64 - ((i >> 3) & 31), by),
                )
            }
            _ => (x, y),
        };
        for (a, b) in [(x, y), (y, x)] {
            if add(a, b) != add_soft(a, b) {
                return Err("fpr add");
            }
            if mul(a, b) != mul_soft(a, b) {
                return Err("fpr mul");
            }
        }
    }
    Ok(())
}
