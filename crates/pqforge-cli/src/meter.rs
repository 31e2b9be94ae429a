//! Measuring instruments: a counting global allocator (peak heap), stack
//! painting on a thread with a known stack (peak stack), and the TSC.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting live and peak bytes.
pub struct CountingAlloc;

// SAFETY: every call forwards to `System` with the caller's arguments; the
// counters are plain atomics and never affect the returned memory.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract of GlobalAlloc::alloc.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded contract of GlobalAlloc::dealloc.
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded contract of GlobalAlloc::alloc_zeroed.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded contract of GlobalAlloc::realloc.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
            let now = CURRENT.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
}

/// Size of the measuring thread's stack, and how much of it is painted.
const THREAD_STACK: usize = 16 << 20;
const PAINTED: usize = 8 << 20;
const PATTERN: u64 = 0x5A5A_A5A5_C3C3_3C3C;
/// Space left untouched just below the painting frame (red zone and the
/// painter's own spills).
const GUARD: usize = 1024;

#[inline(never)]
fn paint() -> usize {
    let marker = 0u8;
    let top = std::hint::black_box(&raw const marker) as usize;
    let lo = (top - PAINTED) & !7;
    let mut a = lo;
    while a < top - GUARD {
        // SAFETY: [lo, top - GUARD) lies inside this thread's stack (PAINTED
        // is half of THREAD_STACK and we are near its top) and below every
        // live frame, so nothing live is overwritten.
        unsafe { std::ptr::write_volatile(a as *mut u64, PATTERN) };
        a += 8;
    }
    top
}

#[inline(never)]
fn deepest_use(top: usize) -> usize {
    let lo = (top - PAINTED) & !7;
    let mut a = lo;
    while a < top - GUARD {
        // SAFETY: the same region `paint` wrote; reading it back is a plain
        // load of initialised stack memory of this thread.
        if unsafe { std::ptr::read_volatile(a as *const u64) } != PATTERN {
            break;
        }
        a += 8;
    }
    top - a
}

/// Runs `f` once on a fresh thread and returns its result with the peak
/// stack bytes (stack painting) and peak heap bytes (counting allocator)
/// it used.
///
/// # Panics
/// If `f` panics (propagated).
pub fn stack_and_heap<R: Send + 'static>(
    f: impl FnOnce() -> R + Send + 'static,
) -> (R, usize, usize) {
    std::thread::Builder::new()
        .stack_size(THREAD_STACK)
        .spawn(move || {
            let top = paint();
            let base = CURRENT.load(Ordering::Relaxed);
            PEAK.store(base, Ordering::Relaxed);
            let r = std::hint::black_box(f());
            let heap = PEAK.load(Ordering::Relaxed).saturating_sub(base);
            let stack = deepest_use(top);
            (r, stack, heap)
        })
        .expect("spawn measuring thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// Time-stamp counter (x86_64), `None` elsewhere.
#[inline(always)]
#[allow(clippy::unnecessary_wraps)]
pub fn cycles() -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC is available on every x86_64 CPU and has no memory effects.
        #[allow(unused_unsafe)]
        Some(unsafe { core::arch::x86_64::_rdtsc() })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}
