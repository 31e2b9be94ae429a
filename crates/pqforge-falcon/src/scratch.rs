//! The signing scratch: `T` binary64 values (9n for signing with a decoded
//! key: 36 KB for n = 512, 72 KB for n = 1024).
//!
//! By default it is a local of the signing call, on the stack. With the
//! crate feature `static-scratch` it is one static buffer per degree
//! instead (what pqm4's Falcon does on the Cortex-M4), so that signing
//! needs about 13 KB of stack (Falcon-512; FN-DSA-512 15 KB, measured on
//! the Cortex-M4) and the buffer is counted as static RAM: for
//! microcontrollers whose stack cannot hold 45 KB. One signing per degree
//! at a time uses the static buffer; a concurrent or reentrant one (another
//! thread, an interrupt handler that signs) gets a stack buffer as without
//! the feature: the same result, but the stack the feature saves is needed
//! again then, so do not sign from an interrupt on a small stack. The
//! buffer is wiped after every use either way. The buffer of a degree that
//! is never signed with is not linked in. Needs atomic swap (not on
//! `thumbv6m`, the Cortex-M0).

use zeroize::Zeroize;

use crate::fpr::{self, Fpr};
use crate::scheme::Aligned;

/// Runs `f` on a zeroed-on-exit scratch of `T` values (see the module
/// documentation for where it lives).
#[inline(always)]
pub(crate) fn with<const T: usize, R>(f: impl FnOnce(&mut [Fpr]) -> R) -> R {
    #[cfg(feature = "static-scratch")]
    if let Some(mut g) = slot::take::<T>() {
        return f(g.buf());
    }
    on_stack::<T, R>(f)
}

/// [`with`] on a stack buffer. With `static-scratch`, in a frame of its
/// own: inlined, its 36 KB would be reserved (and counted as stack) even
/// when the static buffer is used.
#[cfg_attr(feature = "static-scratch", inline(never))]
#[cfg_attr(not(feature = "static-scratch"), inline(always))]
fn on_stack<const T: usize, R>(f: impl FnOnce(&mut [Fpr]) -> R) -> R {
    let mut tmp = Aligned([fpr::ZERO; T]);
    let r = f(&mut tmp.0);
    tmp.0.zeroize();
    r
}

#[cfg(feature = "static-scratch")]
#[allow(unsafe_code)]
mod slot {
    use core::cell::UnsafeCell;
    use core::sync::atomic::{AtomicBool, Ordering};

    use zeroize::Zeroize;

    use crate::fpr::{self, Fpr};
    use crate::scheme::Aligned;

    /// A static buffer of `L` values and the flag that hands it out.
    pub(super) struct Slot<const L: usize> {
        busy: AtomicBool,
        buf: UnsafeCell<Aligned<[Fpr; L]>>,
    }

    // SAFETY: the buffer is only reached through a `Guard`, and at most one
    // `Guard` per slot exists at a time: `take` creates one only after
    // swapping `busy` from false to true, and only the guard's drop sets it
    // back to false.
    unsafe impl<const L: usize> Sync for Slot<L> {}

    /// 9 n values for n = 512 and n = 1024.
    static S512: Slot<4608> = Slot::new();
    static S1024: Slot<9216> = Slot::new();

    impl<const L: usize> Slot<L> {
        const fn new() -> Self {
            Self {
                busy: AtomicBool::new(false),
                buf: UnsafeCell::new(Aligned([fpr::ZERO; L])),
            }
        }

        fn take(&'static self, len: usize) -> Option<Guard> {
            if self.busy.swap(true, Ordering::Acquire) {
                return None;
            }
            // SAFETY: `busy` was false and is now set by us: no other
            // reference to the buffer exists until our guard drops (see
            // the `Sync` impl).
            let buf = unsafe { &mut (*self.buf.get()).0 };
            Some(Guard {
                busy: &self.busy,
                buf: &mut buf[..len],
            })
        }
    }

    /// Exclusive use of a static buffer; wipes it and releases it on drop.
    pub(super) struct Guard {
        busy: &'static AtomicBool,
        buf: &'static mut [Fpr],
    }

    impl Guard {
        pub(super) fn buf(&mut self) -> &mut [Fpr] {
            self.buf
        }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            self.buf.zeroize();
            self.busy.store(false, Ordering::Release);
        }
    }

    /// The static buffer for `T` values, if free.
    pub(super) fn take<const T: usize>() -> Option<Guard> {
        if T <= 4608 {
            S512.take(T)
        } else if T <= 9216 {
            S1024.take(T)
        } else {
            None
        }
    }
}

#[cfg(all(test, feature = "static-scratch"))]
mod tests {
    use super::*;

    #[test]
    fn static_buffer_is_exclusive_and_wiped() {
        let outer = with::<4608, _>(|a| {
            a[0] = fpr::ONE;
            let p = a.as_ptr();
            // Reentrant use: a different (stack) buffer, zeroed.
            let inner = with::<4608, _>(|b| (b.as_ptr() != p, b[0] == fpr::ZERO));
            (p as usize, inner)
        });
        assert_eq!(outer.1, (true, true));
        // Released and wiped: the next use gets the same static buffer, zero.
        with::<4608, _>(|a| {
            assert_eq!(a.as_ptr() as usize, outer.0);
            assert!(a.iter().all(|x| *x == fpr::ZERO));
        });
    }
}
