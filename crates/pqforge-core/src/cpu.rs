//! Run-time CPU feature detection for `no_std` builds.
//!
//! `std::is_x86_feature_detected!` needs `std`; this module asks CPUID
//! directly (and XGETBV for the operating system's register-state support),
//! once, and caches the answer in an atomic. Every query is then one relaxed
//! load.
//!
//! A feature counts as available only if the CPU reports it *and* the OS
//! saves the registers it needs (YMM for AVX2, ZMM and opmask registers for
//! AVX-512). A feature enabled at compile time (`-C target-feature`) is
//! reported without asking the CPU.
//!
//! ```
//! if pqforge_core::cpu::avx2() {
//!     // take the AVX2 path
//! }
//! ```
//!
//! On other architectures every query returns `false`.

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
mod imp {
    use core::sync::atomic::{AtomicU32, Ordering};

    pub const AVX2: u32 = 1 << 0;
    pub const PCLMULQDQ: u32 = 1 << 1;
    pub const VPCLMULQDQ: u32 = 1 << 2;
    pub const AVX512F: u32 = 1 << 3;
    pub const AVX512BW: u32 = 1 << 4;
    pub const AVX512VL: u32 = 1 << 5;
    pub const BMI2: u32 = 1 << 6;
    pub const BMI1: u32 = 1 << 7;
    pub const SHA_NI: u32 = 1 << 8;
    pub const AES: u32 = 1 << 9;
    pub const VAES: u32 = 1 << 10;
    /// Set once the probe has run.
    const DONE: u32 = 1 << 31;

    static CACHE: AtomicU32 = AtomicU32::new(0);

    #[cfg(all(target_arch = "x86", not(miri)))]
    use core::arch::x86::{__cpuid, __cpuid_count, CpuidResult};
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    use core::arch::x86_64::{__cpuid, __cpuid_count, CpuidResult};

    #[cfg(not(miri))]
    #[allow(unsafe_code, unused_unsafe)]
    fn cpuid(leaf: u32, sub: u32) -> CpuidResult {
        // SAFETY: CPUID exists on every x86_64 CPU and on every x86 CPU Rust
        // supports (i586 and later); it only reads identification registers.
        unsafe {
            if sub == 0 {
                __cpuid(leaf)
            } else {
                __cpuid_count(leaf, sub)
            }
        }
    }

    /// XCR0, the OS-enabled register-state mask. Call only if OSXSAVE is set.
    #[cfg(not(miri))]
    #[allow(unsafe_code)]
    fn xcr0() -> u64 {
        let (lo, hi): (u32, u32);
        // SAFETY: XGETBV with ECX = 0 is valid whenever CPUID reports OSXSAVE
        // (the only caller checks it); it reads XCR0 and nothing else.
        unsafe {
            core::arch::asm!(
                "xgetbv",
                in("ecx") 0u32,
                out("eax") lo,
                out("edx") hi,
                options(nomem, nostack, preserves_flags),
            );
        }
        (u64::from(hi) << 32) | u64::from(lo)
    }

    /// Under Miri, which runs no CPUID or XGETBV: the features the build
    /// enables (`RUSTFLAGS=-Ctarget-feature=+avx2,...`), so that Miri runs
    /// the SIMD backends it emulates (scripts/miri.sh `--simd`).
    #[cfg(miri)]
    fn probe() -> u32 {
        let mut f = 0;
        for (on, bit) in [
            (cfg!(target_feature = "avx2"), AVX2),
            (cfg!(target_feature = "pclmulqdq"), PCLMULQDQ),
            (cfg!(target_feature = "vpclmulqdq"), VPCLMULQDQ),
            (cfg!(target_feature = "avx512f"), AVX512F),
            (cfg!(target_feature = "avx512bw"), AVX512BW),
            (cfg!(target_feature = "avx512vl"), AVX512VL),
            (cfg!(target_feature = "bmi2"), BMI2),
            (cfg!(target_feature = "bmi1"), BMI1),
            (cfg!(target_feature = "sha"), SHA_NI),
            (cfg!(target_feature = "aes"), AES),
            (cfg!(target_feature = "vaes"), VAES),
        ] {
            if on {
                f |= bit;
            }
        }
        f
    }

    #[cfg(not(miri))]
    fn probe() -> u32 {
        let mut f = 0;
        let max_leaf = cpuid(0, 0).eax;
        let l1 = cpuid(1, 0);
        if l1.ecx & (1 << 1) != 0 {
            f |= PCLMULQDQ;
        }
        // AES-NI (XMM registers, which every x86_64 OS saves).
        if l1.ecx & (1 << 25) != 0 {
            f |= AES;
        }
        if max_leaf < 7 {
            return f;
        }
        let l7 = cpuid(7, 0);
        // BMI1/BMI2 use general-purpose registers: no OS support needed.
        if l7.ebx & (1 << 3) != 0 {
            f |= BMI1;
        }
        if l7.ebx & (1 << 8) != 0 {
            f |= BMI2;
        }
        // SHA extensions (XMM registers, which every x86_64 OS saves); their
        // users also need SSSE3 and SSE4.1 (leaf 1 ECX bits 9 and 19), which
        // every CPU with SHA has: required too, so one bit guards the path.
        if l7.ebx & (1 << 29) != 0 && l1.ecx & (1 << 9) != 0 && l1.ecx & (1 << 19) != 0 {
            f |= SHA_NI;
        }
        let osxsave = l1.ecx & (1 << 27) != 0;
        let avx = l1.ecx & (1 << 28) != 0;
        if !osxsave {
            return f;
        }
        let x = xcr0();
        let ymm_ok = x & 0b110 == 0b110; // SSE and AVX state
        let zmm_ok = ymm_ok && x & 0b1110_0000 == 0b1110_0000; // opmask, ZMM_Hi256, Hi16_ZMM
        if avx && ymm_ok {
            if l7.ebx & (1 << 5) != 0 {
                f |= AVX2;
            }
            if l7.ecx & (1 << 10) != 0 && f & PCLMULQDQ != 0 {
                f |= VPCLMULQDQ;
            }
            // VAES (AES rounds on YMM/ZMM registers; with AES-NI).
            if l7.ecx & (1 << 9) != 0 && f & AES != 0 {
                f |= VAES;
            }
            if zmm_ok && l7.ebx & (1 << 16) != 0 {
                f |= AVX512F;
                if l7.ebx & (1 << 30) != 0 {
                    f |= AVX512BW;
                }
                if l7.ebx & (1 << 31) != 0 {
                    f |= AVX512VL;
                }
            }
        }
        f
    }

    #[inline]
    pub fn features() -> u32 {
        let c = CACHE.load(Ordering::Relaxed);
        if c & DONE != 0 {
            return c;
        }
        let f = probe() | DONE;
        CACHE.store(f, Ordering::Relaxed);
        f
    }

    /// Clears the AVX-512 bits of the cached answer (probing first).
    pub fn disable_avx512() {
        features();
        CACHE.fetch_and(!(AVX512F | AVX512BW | AVX512VL), Ordering::Relaxed);
    }
}

/// From now on, report AVX-512 as absent (unless it is enabled at compile
/// time), so that every dispatch takes its AVX2 (or older) path: for
/// benchmarks and tests of those paths on AVX-512 machines
/// (`pqforge-peers --no-avx512`). Call it before any work starts: a call
/// already inside an AVX-512 path finishes there.
///
/// ```
/// pqforge_core::cpu::disable_avx512();
/// assert!(!pqforge_core::cpu::avx512f() || cfg!(target_feature = "avx512f"));
/// ```
pub fn disable_avx512() {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    imp::disable_avx512();
}

macro_rules! feature_fn {
    ($(#[$doc:meta])* $name:ident, $bit:ident, $tf:literal) => {
        $(#[$doc])*
        #[inline]
        #[must_use]
        pub fn $name() -> bool {
            #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
            {
                cfg!(target_feature = $tf) || imp::features() & imp::$bit != 0
            }
            #[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
            {
                false
            }
        }
    };
}

feature_fn!(
    /// AVX2 (and the OS saves YMM registers).
    avx2, AVX2, "avx2"
);
feature_fn!(
    /// BMI1 (`andn`, `blsr`, `tzcnt`, ...).
    bmi1, BMI1, "bmi1"
);
feature_fn!(
    /// BMI2 (`pdep`, `pext`, `mulx`, ...).
    bmi2, BMI2, "bmi2"
);
feature_fn!(
    /// PCLMULQDQ (carry-less multiplication on XMM registers).
    pclmulqdq, PCLMULQDQ, "pclmulqdq"
);
feature_fn!(
    /// VPCLMULQDQ (carry-less multiplication on YMM/ZMM registers; implies AVX).
    vpclmulqdq, VPCLMULQDQ, "vpclmulqdq"
);
feature_fn!(
    /// The SHA extensions (`sha256rnds2`, `sha256msg1`, `sha256msg2`, ...;
    /// CPUID leaf 7 EBX bit 29), together with SSSE3 and SSE4.1 which their
    /// users need.
    sha_ni, SHA_NI, "sha"
);
feature_fn!(
    /// AES-NI (`aesenc`, `aesenclast`, ...; CPUID leaf 1 ECX bit 25).
    aes, AES, "aes"
);
feature_fn!(
    /// VAES (AES rounds on 256/512-bit registers; CPUID leaf 7 ECX bit 9;
    /// implies AVX and AES-NI here).
    vaes, VAES, "vaes"
);
feature_fn!(
    /// AVX-512 Foundation (and the OS saves ZMM and opmask registers).
    avx512f, AVX512F, "avx512f"
);
feature_fn!(
    /// AVX-512 Byte and Word instructions.
    avx512bw, AVX512BW, "avx512bw"
);
feature_fn!(
    /// AVX-512 Vector Length extensions (AVX-512 on YMM/XMM registers).
    avx512vl, AVX512VL, "avx512vl"
);

/// A feature query of this module ([`avx2`], ...).
pub type Query = fn() -> bool;

/// Every feature this module detects, by its `target_feature` name (`sha`
/// for [`sha_ni`]), with its query: the list [`detected`] and the bench
/// headers walk.
pub const FEATURES: [(&str, Query); 11] = [
    ("avx2", avx2),
    ("bmi1", bmi1),
    ("bmi2", bmi2),
    ("pclmulqdq", pclmulqdq),
    ("vpclmulqdq", vpclmulqdq),
    ("aes", aes),
    ("vaes", vaes),
    ("sha", sha_ni),
    ("avx512f", avx512f),
    ("avx512bw", avx512bw),
    ("avx512vl", avx512vl),
];

/// The names of the [`FEATURES`] this CPU (and OS) has, in that order: what
/// the dispatches see, so without the AVX-512 ones after
/// [`disable_avx512`]. Empty on other architectures.
///
/// ```
/// let names: Vec<&str> = pqforge_core::cpu::detected().collect();
/// assert_eq!(names.contains(&"avx2"), pqforge_core::cpu::avx2());
/// ```
pub fn detected() -> impl Iterator<Item = &'static str> + Clone {
    FEATURES.into_iter().filter(|(_, on)| on()).map(|(n, _)| n)
}

/// The CPU's brand string (CPUID leaves 0x8000_0002..=0x8000_0004, up to
/// 48 bytes, surrounding spaces trimmed), held by value: no heap, no
/// static buffer. `"unknown"` where there is none (other architectures,
/// Miri, CPUs without those leaves).
///
/// ```
/// let m = pqforge_core::cpu::model();
/// assert!(!m.as_str().is_empty());
/// println!("{m}");
/// ```
#[derive(Clone, Copy)]
pub struct Model {
    bytes: [u8; 48],
    len: u8,
}

impl Model {
    /// The brand string.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match core::str::from_utf8(&self.bytes[..self.len as usize]) {
            Ok(s) if !s.is_empty() => s,
            _ => "unknown",
        }
    }
}

impl core::fmt::Display for Model {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::fmt::Debug for Model {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.as_str(), f)
    }
}

/// The CPU's brand string (see [`Model`]).
#[must_use]
pub fn model() -> Model {
    let mut bytes = [0u8; 48];
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        // SAFETY: CPUID exists on every x86_64 CPU; it only reads
        // identification registers.
        #[allow(unsafe_code, unused_unsafe)]
        let cpuid = |leaf: u32| unsafe { core::arch::x86_64::__cpuid(leaf) };
        if cpuid(0x8000_0000).eax >= 0x8000_0004 {
            for (i, leaf) in (0x8000_0002u32..=0x8000_0004).enumerate() {
                let r = cpuid(leaf);
                for (j, w) in [r.eax, r.ebx, r.ecx, r.edx].into_iter().enumerate() {
                    bytes[16 * i + 4 * j..][..4].copy_from_slice(&w.to_le_bytes());
                }
            }
        }
    }
    // The string is NUL-padded (or NUL-terminated), often space-padded in
    // front; keep printable ASCII only, so that `as_str` is valid UTF-8.
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(48);
    let valid = bytes[..end].iter().all(|b| (0x20..0x7f).contains(b));
    let (mut lo, mut hi) = (0, if valid { end } else { 0 });
    while lo < hi && bytes[lo] == b' ' {
        lo += 1;
    }
    while hi > lo && bytes[hi - 1] == b' ' {
        hi -= 1;
    }
    bytes.copy_within(lo..hi, 0);
    Model {
        bytes,
        len: (hi - lo) as u8,
    }
}

/// One line for benchmark reports: the CPU model and the [`detected`]
/// features, `cpu: <model>; features: avx2 bmi1 ...` (`features: none`
/// without any). `pqforge bench`, the no-argument table and the peers bench
/// print it above their figures.
///
/// ```
/// let line = pqforge_core::cpu::Summary.to_string();
/// assert!(line.starts_with("cpu: "));
/// assert!(line.contains("; features: "));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Summary;

impl core::fmt::Display for Summary {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "cpu: {}; features:", model())?;
        let mut any = false;
        for n in detected() {
            write!(f, " {n}")?;
            any = true;
        }
        if !any {
            f.write_str(" none")?;
        }
        Ok(())
    }
}

/// The backends of a scheme crate, for reports and their tests: every
/// backend it has, which ones this CPU runs, and the one its dispatch picks.
/// Each parameter set names its crate's as [`crate::Kem::BACKENDS`] /
/// [`crate::SignatureScheme::BACKENDS`]; the dynamic API reports it
/// ([`crate::DynKem::backend`], [`crate::DynSig::backend`]). A crate that
/// uses [`crate::backend_dispatch!`] gets one generated (`BACKENDS`).
///
/// ```
/// use pqforge_core::cpu::Backends;
/// const B: Backends = Backends::new(
///     &["portable", "avx2"],
///     || if pqforge_core::cpu::avx2() { "avx2" } else { "portable" },
///     |name| name == "portable" || (name == "avx2" && pqforge_core::cpu::avx2()),
/// );
/// assert!(B.names().contains(&B.selected()));
/// assert!(B.is_available(B.selected()));
/// ```
#[derive(Clone, Copy)]
pub struct Backends {
    names: &'static [&'static str],
    selected: fn() -> &'static str,
    is_available: fn(&str) -> bool,
}

impl Backends {
    /// `names`: every backend of the crate, compiled in or not, from the
    /// slowest (the portable one) to the fastest; `selected`: the one the
    /// dispatch picks on this CPU (asked at each call, so that
    /// [`disable_avx512`] shows); `is_available`: whether a named backend
    /// is compiled in and this CPU supports it.
    #[must_use]
    pub const fn new(
        names: &'static [&'static str],
        selected: fn() -> &'static str,
        is_available: fn(&str) -> bool,
    ) -> Self {
        Self {
            names,
            selected,
            is_available,
        }
    }

    /// Every backend of the crate, the slowest (portable) first.
    #[must_use]
    pub fn names(&self) -> &'static [&'static str] {
        self.names
    }

    /// The backend the public API runs on, on this CPU, now.
    #[must_use]
    pub fn selected(&self) -> &'static str {
        (self.selected)()
    }

    /// Whether the backend `name` is compiled in and this CPU supports it.
    #[must_use]
    pub fn is_available(&self, name: &str) -> bool {
        (self.is_available)(name)
    }
}

impl core::fmt::Debug for Backends {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Backends")
            .field("names", &self.names)
            .field("selected", &self.selected())
            .finish_non_exhaustive()
    }
}

/// Zero-sized proofs that the CPU has a set of features: the only way to
/// reach a backend's `#[target_feature]` code.
///
/// A token is made only by its `detect()` (which asks the CPU), so a
/// function that takes one as an argument may call `#[target_feature]`
/// functions needing those features: its `// SAFETY:` comment is "the
/// token exists". Tokens convert to weaker ones ([`Avx512Vpclmul::avx2`],
/// ...). On other architectures `detect()` returns `None`.
macro_rules! tokens {
    ($( $(#[$doc:meta])* $name:ident: $($feat:ident),+ => $tf:literal; )*) => {$(
        $(#[$doc])*
        #[doc = concat!("\n\nEnables `#[target_feature(enable = \"", $tf, "\")]`.")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(());

        impl $name {
            /// The token, if this CPU (and OS) supports every feature.
            #[inline]
            #[must_use]
            pub fn detect() -> Option<Self> {
                if $( $feat() )&&+ { Some(Self(())) } else { None }
            }

            /// The `target_feature` list the token stands for.
            pub const FEATURES: &'static str = $tf;
        }
    )*};
}

tokens! {
    /// AVX2.
    Avx2: avx2 => "avx2";
    /// AVX2 and PCLMULQDQ (128-bit carry-less products).
    Avx2Pclmul: avx2, pclmulqdq => "avx2,pclmulqdq";
    /// AVX2 and VPCLMULQDQ on 256-bit registers (no AVX-512 needed).
    Avx2Vpclmul: avx2, pclmulqdq, vpclmulqdq => "avx2,pclmulqdq,vpclmulqdq";
    /// AVX-512 Foundation, Byte and Word, and Vector Length extensions
    /// (512-bit integer lanes, opmask registers), with AVX2.
    Avx512: avx512f, avx512bw, avx512vl, avx2 => "avx512f,avx512bw,avx512vl,avx2";
    /// AVX-512 (F, BW, VL) with VPCLMULQDQ.
    Avx512Vpclmul: avx512f, avx512bw, avx512vl, vpclmulqdq, pclmulqdq, avx2
        => "avx512f,avx512bw,avx512vl,vpclmulqdq,pclmulqdq,avx2";
    /// BMI1 and BMI2.
    Bmi2: bmi1, bmi2 => "bmi1,bmi2";
    /// AES-NI (with SSE2, which every x86_64 CPU has).
    Aesni: aes => "aes,sse2";
    /// AVX2, AES-NI and VAES (two AES blocks per YMM instruction).
    Avx2Vaes: avx2, aes, vaes => "avx2,aes,vaes";
}

impl Avx2Vaes {
    /// The AVX2 part.
    #[must_use]
    pub const fn avx2(self) -> Avx2 {
        Avx2(())
    }

    /// The AES-NI part.
    #[must_use]
    pub const fn aesni(self) -> Aesni {
        Aesni(())
    }
}

impl Avx2Pclmul {
    /// The AVX2 part.
    #[must_use]
    pub const fn avx2(self) -> Avx2 {
        Avx2(())
    }
}

impl Avx2Vpclmul {
    /// The AVX2 + PCLMULQDQ part.
    #[must_use]
    pub const fn avx2_pclmul(self) -> Avx2Pclmul {
        Avx2Pclmul(())
    }
}

impl Avx512 {
    /// The AVX2 part.
    #[must_use]
    pub const fn avx2(self) -> Avx2 {
        Avx2(())
    }
}

impl Avx512Vpclmul {
    /// The AVX-512 (F, BW, VL) part.
    #[must_use]
    pub const fn avx512(self) -> Avx512 {
        Avx512(())
    }

    /// The AVX2 + PCLMULQDQ part.
    #[must_use]
    pub const fn avx2_pclmul(self) -> Avx2Pclmul {
        Avx2Pclmul(())
    }

    /// The AVX2 + VPCLMULQDQ part.
    #[must_use]
    pub const fn avx2_vpclmul(self) -> Avx2Vpclmul {
        Avx2Vpclmul(())
    }

    /// The AVX2 part.
    #[must_use]
    pub const fn avx2(self) -> Avx2 {
        Avx2(())
    }
}

/// Compiles the items (or `{ block }` statements) inside only where the x86_64 SIMD
/// backends exist: on x86_64, unless the build says
/// `--cfg pqforge_backend="portable"`. The one place that condition is
/// written.
///
/// ```
/// pqforge_core::x86_simd! {
///     fn fast() -> u32 { 2 }
/// }
///
/// fn pick() -> u32 {
///     pqforge_core::x86_simd! {
///         {
///             if pqforge_core::cpu::Avx2::detect().is_some() {
///                 return fast();
///             }
///         }
///     }
///     1
/// }
/// assert!(pick() >= 1);
/// ```
///
/// rustfmt does not descend into macro calls: a module declared inside
/// (`x86_simd! { mod avx2; }`) also gets a never-compiled twin
/// `#[cfg(any())] mod avx2;` so that `cargo fmt` formats its files.
#[macro_export]
macro_rules! x86_simd {
    ($($tt:tt)*) => {
        $crate::__x86_simd_each! { $($tt)* }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __x86_simd_each {
    () => {};
    ({ $($block:tt)* } $($rest:tt)*) => {
        #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
        { $($block)* }
        $crate::__x86_simd_each! { $($rest)* }
    };
    ($item:item $($rest:tt)*) => {
        #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
        $item
        $crate::__x86_simd_each! { $($rest)* }
    };
}

/// THE dispatch of a scheme crate, written once: one CPU check per public
/// call. Generates, in the calling module:
///
/// * `trait Operation` (`pub(crate)`): one public operation, written once,
///   generic over the kernels trait `B` it runs on (`fn run<B>(self)`);
/// * `fn run(op)` (`pub(crate)`): runs `op` on the last listed SIMD
///   backend whose `detect` expression gives `Some(token)` (list them from
///   the slowest to the fastest), else on the portable one — out of line when SIMD
///   backends are compiled in, so that the portable path's locals stay out
///   of the frame that lives under the SIMD entries;
/// * `enum Which` (`pub`): the backends by name (`Portable` first, then the
///   listed ones in order) with `ALL` (an array), `name()`, `is_available()` and
///   `selected()`, for differential tests and benchmarks;
/// * `fn run_on(which, op)` (`pub(crate)`): `op` on one given backend, if it
///   is compiled in and this CPU supports it;
/// * `const BACKENDS` (`pub`): the same as a [`Backends`], which the
///   crate's parameter sets give as their `BACKENDS` (what the dynamic API
///   and the benchmarks report).
///
/// Each SIMD backend names its `detect` expression (an `Option` of the
/// `cpu` tokens that prove its features) and how to run an operation with
/// those tokens; both only compile where [`x86_simd!`] does. The kernels
/// trait must have `const NAME: &'static str`.
///
/// ```
/// mod backend {
///     pub(crate) trait Kernels {
///         const NAME: &'static str;
///         fn double(x: u32) -> u32 {
///             2 * x
///         }
///     }
///     pub(crate) struct Portable;
///     impl Kernels for Portable {
///         const NAME: &'static str = "portable";
///     }
///     pqforge_core::x86_simd! {
///         mod avx2 {
///             pub(crate) struct Avx2Kernels;
///             impl super::Kernels for Avx2Kernels {
///                 const NAME: &'static str = "avx2";
///             }
///             pub(crate) fn run<O: super::Operation>(
///                 _token: pqforge_core::cpu::Avx2,
///                 op: O,
///             ) -> O::Output {
///                 op.run::<Avx2Kernels>()
///             }
///         }
///     }
///     pqforge_core::backend_dispatch! {
///         kernels: Kernels;
///         portable: Portable;
///         /// x86_64 AVX2.
///         Avx2 = "avx2",
///             detect: pqforge_core::cpu::Avx2::detect(),
///             run: |token, op| avx2::run(token, op);
///     }
///
///     pub(crate) struct Double(pub u32);
///     impl Operation for Double {
///         type Output = u32;
///         fn run<B: Kernels>(self) -> u32 {
///             B::double(self.0)
///         }
///     }
/// }
/// assert_eq!(backend::run(backend::Double(21)), 42);
/// assert_eq!(backend::Which::ALL[0].name(), "portable");
/// assert_eq!(backend::run_on(backend::Which::Portable, backend::Double(1)), Some(2));
/// assert_eq!(backend::BACKENDS.names(), ["portable", "avx2"]);
/// assert_eq!(backend::BACKENDS.selected(), backend::Which::selected().name());
/// assert!(backend::BACKENDS.is_available(backend::BACKENDS.selected()));
/// ```
#[macro_export]
macro_rules! backend_dispatch {
    (
        kernels: $kernels:path;
        portable: $portable:ty;
        $(
            $(#[$vdoc:meta])*
            $variant:ident = $name:literal,
                detect: $detect:expr,
                run: |$tok:pat_param, $op:ident| $call:expr;
        )*
    ) => {
        /// One public operation, written once, generic over the backend it
        /// runs on.
        pub(crate) trait Operation {
            /// What the operation returns.
            type Output;

            /// Runs the operation on backend `B`.
            fn run<B: $kernels>(self) -> Self::Output;
        }

        /// Runs `op` on the fastest backend this CPU supports: the one CPU
        /// check of a public call.
        pub(crate) fn run<O: Operation>(op: O) -> O::Output {
            $crate::x86_simd! {{
                $crate::backend_dispatch!(@try op; $( ($tok, $op, $detect, $call) )*);
            }}
            if $crate::cpu::X86_SIMD {
                // This frame stays live under the SIMD entries above: keep
                // the portable path's locals out of it.
                run_portable(op)
            } else {
                op.run::<$portable>()
            }
        }

        /// `op` on the portable backend, out of line (see [`run`]).
        #[inline(never)]
        fn run_portable<O: Operation>(op: O) -> O::Output {
            op.run::<$portable>()
        }

        /// A backend, by name (differential tests and benchmarks).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Which {
            /// The portable reference, every target.
            Portable,
            $( $(#[$vdoc])* $variant, )*
        }

        impl Which {
            /// Every backend this crate knows, from the slowest to the
            /// fastest (the dispatch picks the last available one).
            pub const ALL: [Which; [Which::Portable $(, Which::$variant)*].len()] =
                [Which::Portable $(, Which::$variant)*];

            /// The backend's name (`portable`, ...), as its kernels report it.
            #[must_use]
            pub fn name(self) -> &'static str {
                match self {
                    Which::Portable => "portable",
                    $( Which::$variant => $name, )*
                }
            }

            /// Whether the backend is compiled in and this CPU supports it.
            #[must_use]
            pub fn is_available(self) -> bool {
                run_on(self, Name).is_some()
            }

            /// The backend the dispatch picks on this CPU (the one the
            /// public API runs on).
            #[must_use]
            pub fn selected() -> Which {
                let name = run(Name);
                Which::ALL
                    .into_iter()
                    .find(|w| w.name() == name)
                    .unwrap_or(Which::Portable)
            }
        }

        /// This crate's backends for reports ([`$crate::cpu::Backends`]):
        /// [`Which::ALL`]'s names, [`Which::selected`], [`Which::is_available`].
        pub const BACKENDS: $crate::cpu::Backends = $crate::cpu::Backends::new(
            &["portable" $(, $name)*],
            || Which::selected().name(),
            |name| Which::ALL.into_iter().any(|w| w.name() == name && w.is_available()),
        );

        /// The name of the backend an operation runs on.
        struct Name;

        impl Operation for Name {
            type Output = &'static str;

            fn run<B: $kernels>(self) -> &'static str {
                B::NAME
            }
        }

        /// Runs `op` on backend `which`, if it is compiled in and this CPU
        /// supports it (differential tests and benchmarks).
        #[allow(dead_code, reason = "used by the tests and benchmarks of some crates only")]
        pub(crate) fn run_on<O: Operation>(which: Which, op: O) -> Option<O::Output> {
            if which == Which::Portable {
                return Some(op.run::<$portable>());
            }
            $crate::x86_simd! {{
                $(
                    if which == Which::$variant {
                        return ($detect).map(|$tok| {
                            let $op = op;
                            $call
                        });
                    }
                )*
            }}
            None
        }
    };
    // The `if let` of each listed backend, the last listed (fastest) first.
    (@try $o:ident; ) => {};
    (@try $o:ident; ($tok:pat_param, $op:ident, $detect:expr, $call:expr) $($rest:tt)*) => {
        $crate::backend_dispatch!(@try $o; $($rest)*);
        if let Some($tok) = $detect {
            let $op = $o;
            return $call;
        }
    };
}

/// Whether the x86_64 SIMD backends are compiled in (see [`x86_simd!`]).
pub const X86_SIMD: bool = cfg!(all(
    target_arch = "x86_64",
    not(pqforge_backend = "portable")
));

#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod tests {
    use std::format;
    use std::string::ToString;
    use std::vec::Vec;

    /// The brand string is there, and is the `model name` Linux reports
    /// (which the kernel reads from the same CPUID leaves).
    #[test]
    #[cfg_attr(miri, ignore = "no CPUID under Miri")]
    fn model_is_the_brand_string() {
        let m = super::model();
        assert!(!m.as_str().is_empty());
        assert_ne!(m.as_str(), "unknown");
        assert_eq!(m.as_str(), m.as_str().trim());
        if let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") {
            let linux = info
                .lines()
                .find_map(|l| l.strip_prefix("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim());
            if let Some(linux) = linux {
                assert_eq!(m.as_str(), linux);
            }
        }
    }

    /// The report line names the model and exactly the detected features.
    #[test]
    fn summary_names_the_model_and_the_features() {
        let line = super::Summary.to_string();
        let (cpu, features) = line.split_once("; features: ").expect("two parts");
        assert_eq!(cpu, format!("cpu: {}", super::model()));
        let listed: Vec<&str> = features.split(' ').collect();
        for (name, on) in super::FEATURES {
            assert_eq!(listed.contains(&name), on(), "{name} in `{line}`");
        }
        assert_eq!(
            listed.contains(&"avx2"),
            std::is_x86_feature_detected!("avx2")
        );
    }

    #[test]
    fn agrees_with_std() {
        assert_eq!(super::avx2(), std::is_x86_feature_detected!("avx2"));
        assert_eq!(super::bmi1(), std::is_x86_feature_detected!("bmi1"));
        assert_eq!(super::bmi2(), std::is_x86_feature_detected!("bmi2"));
        assert_eq!(
            super::pclmulqdq(),
            std::is_x86_feature_detected!("pclmulqdq")
        );
        assert_eq!(
            super::vpclmulqdq(),
            std::is_x86_feature_detected!("vpclmulqdq")
        );
        assert_eq!(super::aes(), std::is_x86_feature_detected!("aes"));
        assert_eq!(
            super::vaes(),
            std::is_x86_feature_detected!("vaes")
                && std::is_x86_feature_detected!("aes")
                && std::is_x86_feature_detected!("avx")
        );
        assert_eq!(super::avx512f(), std::is_x86_feature_detected!("avx512f"));
        assert_eq!(super::avx512bw(), std::is_x86_feature_detected!("avx512bw"));
        assert_eq!(super::avx512vl(), std::is_x86_feature_detected!("avx512vl"));
        assert_eq!(
            super::sha_ni(),
            std::is_x86_feature_detected!("sha")
                && std::is_x86_feature_detected!("ssse3")
                && std::is_x86_feature_detected!("sse4.1")
        );
        assert_eq!(
            super::Avx512::detect().is_some(),
            std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx2")
        );
    }
}
