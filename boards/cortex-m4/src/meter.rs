//! Deterministic instruction counts and stack high-water marks on QEMU
//! `mps2-an386` or `netduinoplus2` (method: /work/shared/M4.md §4-5,
//! summarised in README.md).
//!
//! Instructions: under `-icount shift=S` QEMU's virtual clock advances
//! exactly 2^S ns per guest instruction and SysTick runs from it (the
//! processor clock: 25 MHz on mps2-an386, 168 MHz on netduinoplus2), so a
//! SysTick reading is a linear function of the instruction count. SysTick
//! is widened to 64 bits by its wrap interrupt; `init` finds S by timing a
//! loop of known length and refuses to run without `-icount`. Resolution is
//! one tick: 40 / 2^S instructions on mps2-an386 (0.625 at S = 6), 125 /
//! (21 * 2^S) on netduinoplus2 (0.093 at S = 6); both boards report the same
//! counts for the same code. These are QEMU instruction counts, not
//! Cortex-M4 cycles.
//!
//! Stack: `stack_usage` paints the stack below the caller with a pattern, runs
//! the closure with interrupts masked and reports how deep the pattern was
//! overwritten.

use core::arch::asm;
use core::ptr::{addr_of, read_volatile, write_volatile};
use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use cortex_m_rt::exception;

const SYST_CSR: *mut u32 = 0xE000_E010 as *mut u32;
const SYST_RVR: *mut u32 = 0xE000_E014 as *mut u32;
const SYST_CVR: *mut u32 = 0xE000_E018 as *mut u32;
const SCB_ICSR: *const u32 = 0xE000_ED04 as *const u32;
const ICSR_PENDSTSET: u32 = 1 << 26;
const RELOAD: u32 = 0x00FF_FFFF;

/// Nanoseconds per SysTick tick as `TICK_NS_NUM / TICK_NS_DEN`: the
/// processor clock of the board (mps2-an386: 25 MHz, 40 ns; netduinoplus2:
/// SYSCLK 168 MHz, 125/21 ns).
#[cfg(not(feature = "netduinoplus2"))]
const TICK_NS_NUM: u64 = 40;
#[cfg(not(feature = "netduinoplus2"))]
const TICK_NS_DEN: u64 = 1;
#[cfg(feature = "netduinoplus2")]
const TICK_NS_NUM: u64 = 125;
#[cfg(feature = "netduinoplus2")]
const TICK_NS_DEN: u64 = 21;

/// Completed SysTick periods of 2^24 ticks.
static WRAPS: AtomicU32 = AtomicU32::new(0);
/// The detected `-icount` shift.
static SHIFT: AtomicU32 = AtomicU32::new(0);
/// What an empty `count(|| ())` reports; subtracted from every result.
static OVERHEAD: AtomicU32 = AtomicU32::new(0);

#[exception]
fn SysTick() {
    WRAPS.store(WRAPS.load(Relaxed).wrapping_add(1), Relaxed);
}

/// Ticks of the processor clock since `init`, 64 bits wide.
#[inline(always)]
fn ticks() -> u64 {
    cortex_m::interrupt::free(|_| {
        let mut wraps = WRAPS.load(Relaxed);
        // SAFETY: SysTick and SCB registers are always mapped on Cortex-M.
        let mut cur = unsafe { read_volatile(SYST_CVR) };
        // SAFETY: as above.
        if unsafe { read_volatile(SCB_ICSR) } & ICSR_PENDSTSET != 0 {
            // Wrapped but the handler has not run: take the value of the
            // new period with the period count that belongs to it.
            // SAFETY: as above.
            cur = unsafe { read_volatile(SYST_CVR) };
            wraps = wraps.wrapping_add(1);
        }
        (u64::from(wraps) << 24) + u64::from(RELOAD - cur)
    })
}

/// Executes exactly `2 * n` instructions (`n >= 1`).
#[inline(never)]
fn spin(n: u32) {
    // SAFETY: a register-only count-down loop.
    unsafe {
        asm!("2:", "subs {0}, {0}, #1", "bne 2b", inout(reg) n => _, options(nomem, nostack));
    }
}

/// The memory just below the stack region that an overflow would reach
/// first, as (base, log2 size): mps2-an386 maps an unimplemented-device
/// window ("RESERVED 3", writes ignored) at 0x2080_0000..0x2100_0000 and an
/// alias of the statics below it, so an overflow there would not fault by
/// itself. On the STM32F405 the 64 KB below the SRAM hold system memory,
/// OTP and option bytes (QEMU maps nothing there).
#[cfg(not(feature = "netduinoplus2"))]
const GUARD: (u32, u32) = (0x2080_0000, 23);
#[cfg(feature = "netduinoplus2")]
const GUARD: (u32, u32) = (0x1FFF_0000, 16);

/// Makes [`GUARD`] a no-access MPU region (the default memory map stays in
/// force elsewhere), so that a stack overflow faults: the HardFault handler
/// reports it.
pub fn stack_guard() {
    const MPU_CTRL: *mut u32 = 0xE000_ED94 as *mut u32;
    const MPU_RNR: *mut u32 = 0xE000_ED98 as *mut u32;
    const MPU_RBAR: *mut u32 = 0xE000_ED9C as *mut u32;
    const MPU_RASR: *mut u32 = 0xE000_EDA0 as *mut u32;
    let (base, log2) = GUARD;
    // SAFETY: MPU registers of the Cortex-M4 (ARMv7-M B3.5); region 0 is
    // not used otherwise. RASR: XN, AP = 0b000 (no access), SIZE = log2 - 1,
    // enabled. CTRL: PRIVDEFENA (default map elsewhere) | ENABLE.
    unsafe {
        write_volatile(MPU_RNR, 0);
        write_volatile(MPU_RBAR, base);
        write_volatile(MPU_RASR, (1 << 28) | ((log2 - 1) << 1) | 1);
        write_volatile(MPU_CTRL, 0b101);
        asm!("dsb", "isb", options(nomem, nostack, preserves_flags));
    }
}

/// Starts SysTick and calibrates. Returns the `-icount` shift.
///
/// # Errors
/// QEMU was started without `-icount shift=N` (timers would follow host time).
pub fn init() -> Result<u32, &'static str> {
    // SAFETY: programming SysTick, which nothing else uses.
    unsafe {
        write_volatile(SYST_CSR, 0);
        write_volatile(SYST_RVR, RELOAD);
        write_volatile(SYST_CVR, 0);
        // Processor clock, interrupt on wrap, enable.
        write_volatile(SYST_CSR, 0b111);
        // Before its first reload the counter reads 0; wait for it.
        let mut guard = 0u32;
        while read_volatile(SYST_CVR) == 0 {
            guard += 1;
            if guard > 1_000_000 {
                return Err("SysTick does not run");
            }
        }
    }
    // 2^21 instructions take 2^(21+S) ns = 2^(21+S) * DEN / NUM ticks.
    let t0 = ticks();
    spin(1 << 20);
    let d = ticks() - t0;
    let s = (0..=10u32)
        .find(|&s| {
            let expect = (1u64 << (21 + s)) * TICK_NS_DEN / TICK_NS_NUM;
            d.abs_diff(expect) * 1000 < expect
        })
        .ok_or("start QEMU with -icount shift=N (N = 0..10)")?;
    SHIFT.store(s, Relaxed);
    OVERHEAD.store(0, Relaxed);
    let ((), o) = count(|| ());
    OVERHEAD.store(o as u32, Relaxed);
    Ok(s)
}

fn ticks_to_insns(t: u64) -> u64 {
    let s = SHIFT.load(Relaxed);
    let den = TICK_NS_DEN << s;
    (t * TICK_NS_NUM + den / 2) / den
}

/// Runs `f`; returns its result and the guest instructions it executed.
#[inline(never)]
pub fn count<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let t0 = ticks();
    let r = f();
    let t1 = ticks();
    let n = ticks_to_insns(t1 - t0);
    (r, n.saturating_sub(u64::from(OVERHEAD.load(Relaxed))))
}

unsafe extern "C" {
    /// Lowest stack address (memory-*.x).
    pub static _stack_end: u32;
}

const PAINT: u32 = 0x5A17_C0DE;

/// Runs `f`; returns its result and the bytes of stack it used below the
/// caller's frame. Interrupts are masked meanwhile, so exception frames are
/// not counted; do not call [`count`] inside.
#[inline(never)]
pub fn stack_usage<R>(f: impl FnOnce() -> R) -> (R, usize) {
    cortex_m::interrupt::free(|_| {
        let sp: usize;
        // SAFETY: reads the stack pointer.
        unsafe { asm!("mov {}, sp", out(reg) sp, options(nomem, nostack)) };
        let top = sp & !3;
        let floor = addr_of!(_stack_end) as usize;
        let mut p = floor;
        while p < top {
            // SAFETY: [floor, top) is the unused part of the stack region.
            unsafe { write_volatile(p as *mut u32, PAINT) };
            p += 4;
        }
        let r = f();
        let mut low = floor;
        // SAFETY: as above; reads only.
        while low < top && unsafe { read_volatile(low as *const u32) } == PAINT {
            low += 4;
        }
        (r, top - low)
    })
}
