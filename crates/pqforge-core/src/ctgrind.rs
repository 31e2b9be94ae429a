//! Valgrind memcheck markers for constant-time testing ("ctgrind").
//!
//! Secrets are marked *undefined*; memcheck then reports every conditional
//! jump and every memory address computed from them — exactly a
//! secret-dependent branch or table index. Values that legitimately become
//! public (public keys, ciphertexts, signatures, rejection-loop accept bits)
//! are *declassified* at explicit, commented call sites in the schemes.
//!
//! Without the `ctgrind` feature, or on targets other than x86_64 Linux,
//! every function here is an empty inline function. With it, the client
//! request is a no-op outside valgrind (four rotates of `rdi` by 128 bits in
//! total, then `xchg rbx, rbx`), so instrumented binaries still run natively.
//!
//! All helpers take `&mut`: through a shared reference the optimiser may keep
//! a register copy read before the request, which hides leaks after `poison`
//! and invents them after `declassify`.

/// `('M' << 24) | ('C' << 16)`: memcheck's request base.
#[cfg(all(feature = "ctgrind", target_arch = "x86_64", target_os = "linux"))]
mod imp {
    const MC_BASE: usize = ((b'M' as usize) << 24) | ((b'C' as usize) << 16);
    pub const MAKE_MEM_UNDEFINED: usize = MC_BASE + 1;
    pub const MAKE_MEM_DEFINED: usize = MC_BASE + 2;
    pub const RUNNING_ON_VALGRIND: usize = 0x1001;

    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn request(default: usize, req: usize, a1: usize, a2: usize) -> usize {
        let block: [usize; 6] = [req, a1, a2, 0, 0, 0];
        let mut result = default;
        // SAFETY: the four rotates restore rdi (3+13+61+51 = 128 bits) and
        // `xchg rbx, rbx` is a no-op, so natively only flags change. Valgrind
        // recognises the sequence, reads `block` through rax and answers in rdx.
        unsafe {
            core::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                inout("rdx") result,
                in("rax") block.as_ptr(),
                options(nostack),
            );
        }
        result
    }
}

/// Whether the `ctgrind` markers are compiled in.
pub const ENABLED: bool = cfg!(all(
    feature = "ctgrind",
    target_arch = "x86_64",
    target_os = "linux"
));

/// Number of valgrind layers the process runs under (0 natively, and always
/// 0 without the `ctgrind` feature).
#[must_use]
pub fn running_on_valgrind() -> usize {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64", target_os = "linux"))]
    {
        imp::request(0, imp::RUNNING_ON_VALGRIND, 0, 0)
    }
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64", target_os = "linux")))]
    {
        0
    }
}

/// Marks `bytes` secret (memcheck: undefined). Contents are unchanged.
#[inline(always)]
pub fn poison(bytes: &mut [u8]) {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64", target_os = "linux"))]
    imp::request(
        0,
        imp::MAKE_MEM_UNDEFINED,
        bytes.as_mut_ptr() as usize,
        bytes.len(),
    );
    let _ = bytes;
}

/// Marks `bytes` public (memcheck: defined): a deliberate declassification.
/// Every call site says why the value is public.
#[inline(always)]
pub fn declassify(bytes: &mut [u8]) {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64", target_os = "linux"))]
    imp::request(
        0,
        imp::MAKE_MEM_DEFINED,
        bytes.as_mut_ptr() as usize,
        bytes.len(),
    );
    let _ = bytes;
}

/// Marks a slice of words public (see [`declassify`]).
#[inline(always)]
pub fn declassify_u64(words: &mut [u64]) {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64", target_os = "linux"))]
    imp::request(
        0,
        imp::MAKE_MEM_DEFINED,
        words.as_mut_ptr() as usize,
        core::mem::size_of_val(words),
    );
    let _ = words;
}

/// Declassifies a value: returns it re-read from memory after the request.
#[inline(always)]
#[must_use]
pub fn declassify_val<T: Copy>(v: T) -> T {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64", target_os = "linux"))]
    {
        let mut x = v;
        let p = &raw mut x;
        imp::request(
            0,
            imp::MAKE_MEM_DEFINED,
            p as usize,
            core::mem::size_of::<T>(),
        );
        // SAFETY: `p` points to a live, initialised local of type T.
        #[allow(unsafe_code)]
        unsafe {
            core::ptr::read_volatile(p)
        }
    }
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64", target_os = "linux")))]
    {
        v
    }
}

/// Poisons a value: returns it re-read from memory after the request.
#[inline(always)]
#[must_use]
pub fn poison_val<T: Copy>(v: T) -> T {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64", target_os = "linux"))]
    {
        let mut x = v;
        let p = &raw mut x;
        imp::request(
            0,
            imp::MAKE_MEM_UNDEFINED,
            p as usize,
            core::mem::size_of::<T>(),
        );
        // SAFETY: `p` points to a live, initialised local of type T.
        #[allow(unsafe_code)]
        unsafe {
            core::ptr::read_volatile(p)
        }
    }
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64", target_os = "linux")))]
    {
        v
    }
}
