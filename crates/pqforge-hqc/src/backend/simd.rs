//! One definition of an x86_64 SIMD backend, instantiated by `avx2.rs` and
//! `avx512.rs` with their own kernels and the `pqforge_core::cpu` token that
//! proves their instruction set.
//!
//! From an instance's two kernels (the product of two small operands and
//! the sparse-support XOR, both `#[target_feature]` functions of the
//! instance), [`simd_backend!`] makes: the Karatsuba multiplier on the
//! instance's block size; the [`crate::gf2x::Kernels`] and
//! [`crate::kem::Backend`] impls, the latter with the three PKE stage
//! frames compiled for the instruction set (never inlined, so each stage
//! keeps a frame of its own); and `run(token, op)`, the dispatch's entry
//! into the backend, which runs a whole operation inside one
//! `#[target_feature]` function so that the path inlines.
//!
//! Safety: the backend type is private to its module, and the only generic
//! code the module instantiates with it is `run_with_features`, reached
//! only through `run`, which takes the token by value. Every `unsafe` call
//! of a `#[target_feature]` function in the impls therefore runs on a CPU
//! that has the features; a `const` check ties the feature list to the
//! token's.
//!
//! Constant time: carry-less multiplies, XORs, shuffles, compares into
//! masks and masked moves have data-independent timing; nothing branches on
//! or indexes memory with secret data. Valgrind 3.19 does not emulate
//! AVX-512 (and hides it from CPUID), so under the constant-time harness
//! the AVX2 instance is the one that runs.

/// Whether two strings are equal (usable in `const` items).
pub(crate) const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Defines a SIMD backend in the calling module (see the module docs):
///
/// ```text
/// simd_backend! {
///     /// docs
///     Avx2: Avx2Pclmul, name = "avx2", features = "avx2,pclmulqdq",
///     vector(__m128i, words = 2, load = _mm_loadu_si128, store = _mm_storeu_si128),
///     karatsuba(block = 4, small_max = 8, small = mul_small), xor_bits = xor_bits
/// }
/// ```
///
/// `vector` names the register type the kernels load and store (with
/// `load::<N>` / `store::<N>`, defined here) and its unaligned load and
/// store intrinsics; `small(r, a, b)` multiplies operands of one or two
/// blocks (at most `small_max` words); `xor_bits` is a
/// [`crate::gf2x::Kernels::xor_bits`].
macro_rules! simd_backend {
    (
        $(#[$doc:meta])*
        $backend:ident: $token:ty, name = $name:literal, features = $features:literal,
        vector($vec:ty, words = $words:literal, load = $load:ident, store = $store:ident),
        karatsuba(block = $block:literal, small_max = $small_max:literal, small = $small:ident),
        xor_bits = $xor_bits:ident
    ) => {
        $(#[$doc])*
        struct $backend;

        // The token stands for exactly the features this backend is compiled for.
        const _: () = assert!($crate::backend::simd::same(<$token>::FEATURES, $features));

        /// Loads `N` vectors from `x` (at least `N` vectors' worth of
        /// words; unaligned).
        #[target_feature(enable = $features)]
        #[inline]
        fn load<const N: usize>(x: &[u64]) -> [$vec; N] {
            assert!(x.len() >= $words * N);
            // SAFETY: x holds at least N vectors (checked above); vector i
            // is the unaligned load at word i·words.
            core::array::from_fn(|i| unsafe { $load(x.as_ptr().add($words * i).cast()) })
        }

        /// Stores `N` vectors to `r` (at least `N` vectors' worth of words;
        /// unaligned).
        #[target_feature(enable = $features)]
        #[inline]
        fn store<const N: usize>(r: &mut [u64], v: [$vec; N]) {
            assert!(r.len() >= $words * N);
            for (i, x) in v.into_iter().enumerate() {
                // SAFETY: r holds at least N vectors (checked above).
                unsafe { $store(r.as_mut_ptr().add($words * i).cast(), x) };
            }
        }

        $crate::gf2x::karatsuba_fn!(
            /// Karatsuba on this backend's blocks.
            #[target_feature(enable = $features)]
            karatsuba,
            $block,
            $small_max,
            $small
        );

        impl $crate::gf2x::Kernels for $backend {
            const NAME: &'static str = $name;

            fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64], scratch: &mut [u64]) {
                // SAFETY: this backend only runs under `run`, whose token
                // proves the features (see `backend::simd`).
                unsafe { karatsuba(r, a, b, scratch) }
            }

            fn xor_bits(out: &mut [u64], idx: &[u32], bit: &[u64]) {
                // SAFETY: as in `mul_wide`.
                unsafe { $xor_bits(out, idx, bit) }
            }
        }

        /// `kem::pke_keygen` compiled for this backend, in a frame of its own.
        #[target_feature(enable = $features)]
        #[inline(never)]
        fn pke_keygen_frame<P: $crate::params::ParameterSet, S: $crate::kem::Sink>(
            sink: &mut S,
            seed_dk: &[u8],
            seed_ek: &[u8],
        ) {
            $crate::kem::pke_keygen::<P, $backend, S>(sink, seed_dk, seed_ek);
        }

        /// `kem::pke_encrypt` compiled for this backend, in a frame of its own.
        #[target_feature(enable = $features)]
        #[inline(never)]
        fn pke_encrypt_frame<P: $crate::params::ParameterSet, S: $crate::kem::Sink>(
            sink: &mut S,
            ek: &[u8],
            m: &[u8],
            theta: &[u8],
        ) {
            $crate::kem::pke_encrypt::<P, $backend, S>(sink, ek, m, theta);
        }

        /// `kem::pke_decrypt` compiled for this backend, in a frame of its own.
        #[target_feature(enable = $features)]
        #[inline(never)]
        fn pke_decrypt_frame<P: $crate::params::ParameterSet>(
            m: &mut [u8],
            seed_dk: &[u8],
            c_pke: &[u8],
        ) {
            $crate::kem::pke_decrypt::<P, $backend>(m, seed_dk, c_pke);
        }

        impl $crate::kem::Backend for $backend {
            fn pke_keygen<P: $crate::params::ParameterSet, S: $crate::kem::Sink>(
                sink: &mut S,
                seed_dk: &[u8],
                seed_ek: &[u8],
            ) {
                // SAFETY: as in `mul_wide`.
                unsafe { pke_keygen_frame::<P, S>(sink, seed_dk, seed_ek) }
            }

            fn pke_encrypt<P: $crate::params::ParameterSet, S: $crate::kem::Sink>(
                sink: &mut S,
                ek: &[u8],
                m: &[u8],
                theta: &[u8],
            ) {
                // SAFETY: as in `mul_wide`.
                unsafe { pke_encrypt_frame::<P, S>(sink, ek, m, theta) }
            }

            fn pke_decrypt<P: $crate::params::ParameterSet>(
                m: &mut [u8],
                seed_dk: &[u8],
                c_pke: &[u8],
            ) {
                // SAFETY: as in `mul_wide`.
                unsafe { pke_decrypt_frame::<P>(m, seed_dk, c_pke) }
            }
        }

        /// `op` instantiated for this backend and compiled for its
        /// instruction set.
        #[target_feature(enable = $features)]
        fn run_with_features<O: $crate::backend::Operation>(op: O) -> O::Output {
            op.run::<$backend>()
        }

        /// Runs `op` on this backend; the token proves the CPU features.
        pub(super) fn run<O: $crate::backend::Operation>(token: $token, op: O) -> O::Output {
            let _ = token;
            // SAFETY: the token exists, so this CPU has every feature of the
            // list (checked against the token's above).
            unsafe { run_with_features(op) }
        }
    };
}

pub(crate) use simd_backend;
