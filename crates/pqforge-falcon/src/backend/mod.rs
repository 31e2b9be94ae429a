//! Backends: the kernels the protocol code is generic over, and THE
//! dispatch (one CPU check per public call).
//!
//! [`Portable`] is the reference: plain Rust, every target (the Cortex-M4
//! runs it). The AVX2 backend (x86_64, [`pqforge_core::cpu::Avx2`] token)
//! implements the same trait with intrinsics, module by module: `fft`,
//! `mq` (NTT mod q), `modp` (NTT mod the solver primes), `zint` (big
//! integers), `digits` (column-sum products), `rng` (ChaCha20 refill),
//! `keygen` (Gaussian sampler). A backend value is a zero-sized token
//! passed down the protocol; the AVX2 one exists only if the CPU has AVX2,
//! which is what makes its `#[target_feature]` kernels sound to call.
//!
//! Every kernel has the same contract (ranges, orders, output words) in
//! every backend: outputs are bit-identical. `tests/backends.rs` checks
//! the kernels against each other on random inputs.
//!
//! The dispatch: each public operation (key generation, key preparation,
//! signing with a decoded or an expanded key, verification, and the FN-DSA
//! counterparts) is one function here that detects the CPU once and runs
//! the whole operation instantiated for that backend.

use crate::digits::{Digit, Digits, Term};
use crate::fpr::Fpr;
use crate::modp::{Col, Prime};
use crate::rng::{BUF_LEN, ShakeU64};
use crate::zint::{ZView, ZViewMut};

mod portable;

pub(crate) use portable::Portable;

/// The kernels.
pub(crate) trait Backend: Copy {
    /// The signed digits of [`Backend::comba_coeff`] (see
    /// [`Backend::with_digits`]).
    type Digit: Digit;

    /// FFT over R[X]/(X^n+1) in place, bit-identical to
    /// [`crate::fft::fft`].
    fn fft(self, f: &mut [Fpr], logn: u32);
    /// Inverse FFT in place, bit-identical to [`crate::fft::ifft`].
    fn ifft(self, f: &mut [Fpr], logn: u32);

    /// NTT modulo q (values 0..q in and out), [`crate::mq::ntt`].
    fn mq_ntt(self, a: &mut [u16], logn: u32);
    /// Inverse NTT modulo q with the 1/n scaling, [`crate::mq::intt`].
    fn mq_intt(self, a: &mut [u16], logn: u32);
    /// x[i] /= y[i] mod q (0 where y[i] = 0), [`crate::mq::div_all`].
    fn mq_div(self, x: &mut [u16], y: &[u16]);

    /// Eight ChaCha20 blocks of the sampler PRNG,
    /// [`crate::rng::chacha20x8`].
    fn chacha20x8(self, buf: &mut [u8; BUF_LEN], key: &[u32; 12], cc: u64);

    /// Key generation's small Gaussian polynomial,
    /// [`crate::keygen::poly_small_mkgauss`].
    fn gauss_poly(self, rng: &mut ShakeU64, f: &mut [i8], logn: u32);

    /// The power tables of the NTT modulo a solver prime, n >= 4
    /// ([`crate::modp::powers`]).
    fn modp_powers(self, gm: &mut [u32], igm: &mut [u32], logn: u32, roots: (u32, u32), pr: &Prime);
    /// NTT modulo a solver prime, [`crate::modp::ntt`] (logn >= 1).
    fn modp_ntt(self, a: Col<'_>, gm: &[u32], logn: u32, pr: &Prime);
    /// Inverse NTT modulo a solver prime, [`crate::modp::intt`] (logn >=
    /// 1).
    fn modp_intt(self, a: Col<'_>, igm: &[u32], logn: u32, pr: &Prime);

    /// Residues of big integers modulo a range of primes,
    /// [`crate::zint::residues_portable`] (src.len >= 1).
    fn zint_residues(self, src: ZView<'_>, count: usize, dst: ZViewMut<'_>, u0: usize);
    /// CRT reconstruction, [`crate::zint::rebuild_crt_portable`].
    fn zint_rebuild_crt(self, xx: ZViewMut<'_>, count: usize, tmp: &mut [u32]);
    /// Fused multiply-accumulate, [`crate::zint::add_mul_fused`].
    fn zint_add_mul_fused(self, x: &mut [u32], ys: &[u32], c: &[i64]);

    /// Runs `f` with two digit buffers of `na` and `nb` digits (at most
    /// [`crate::digits::PLAIN_DIGITS`] each), wiped afterwards: free words
    /// of `scratch` (na + nb of them) in the portable backend, stack
    /// buffers in the AVX2 one.
    fn with_digits(
        self,
        scratch: &mut [u32],
        na: usize,
        nb: usize,
        f: impl FnOnce(&mut [Self::Digit], &mut [Self::Digit]),
    );
    /// One output coefficient of a column-sum product,
    /// [`crate::digits::comba_coeff`].
    fn comba_coeff(
        self,
        o: &mut [u32],
        a: Digits<'_, Self::Digit>,
        b: Digits<'_, Self::Digit>,
        terms: &[Term],
    );
}

/// Calls `$m!` with the list of public operations: name, const generics,
/// arguments, return type and the generic protocol function (whose first
/// generic parameter is the backend, first argument the backend value).
/// Written once, expanded twice: the dispatch functions below and the
/// AVX2 entry points (`avx2::entries`).
macro_rules! for_each_operation {
    ($m:ident) => {
        $m! {
            /// Key generation (round 3).
            fn keygen<N, T, FT>(
                seed: &[u8; crate::scheme::SEED_LEN],
                logn: u32,
                pk: &mut [u8],
                sk: &mut [u8],
                vst: &mut crate::scheme::FalconVkState<N>,
                st: &mut crate::scheme::FalconSkState<N>,
            ) -> ()
                = crate::scheme::keygen;
            /// Public-key decoding (round 3).
            fn decode_pk<N>(pk: &[u8], logn: u32)
                -> Result<crate::scheme::FalconVkState<N>, pqforge_core::Error>
                = crate::scheme::decode_pk;
            /// Secret-key decoding and checks (round 3).
            fn decode_sk<N>(sk: &[u8], logn: u32)
                -> Result<crate::scheme::FalconSkState<N>, pqforge_core::Error>
                = crate::scheme::decode_sk;
            /// The public key of a prepared signing key (round 3).
            fn derive_pk<N>(st: &crate::scheme::FalconSkState<N>, logn: u32, pk: &mut [u8])
                -> crate::scheme::FalconVkState<N>
                = crate::scheme::derive_pk;
            /// Signing with a decoded or an expanded key (round 3).
            fn sign<N, T>(
                key: &crate::scheme::Key<'_, N>,
                logn: u32,
                nonce: &[u8; crate::scheme::NONCE_LEN],
                seed: &[u8; crate::scheme::SEED_LEN],
                msg: &[u8],
                body: &mut [u8],
            ) -> usize
                = crate::scheme::sign_core;
            /// Expanding a signing key (basis and LDL tree).
            fn expand<>(
                ek: &mut [crate::fpr::Fpr],
                key: &crate::ntru::NtruKey<'_>,
                logn: u32,
                tmp: &mut [crate::fpr::Fpr],
            )
                -> ()
                = crate::sign::expand_privkey;
            /// Verification of a detached signature (round 3).
            fn verify<>(
                h: &[u16],
                logn: u32,
                msg: &[u8],
                sig: &[u8],
                fmt: crate::scheme::Format,
            ) -> Result<(), pqforge_core::Error>
                = crate::scheme::verify_detached;
            /// Verification of a NIST signed message (round 3).
            fn open<>(h: &[u16], logn: u32, sm: &[u8])
                -> Result<core::ops::Range<usize>, pqforge_core::Error>
                = crate::scheme::open_sm;
            /// FN-DSA key generation.
            #[cfg(feature = "fndsa")]
            fn fndsa_keygen<N, T, FT>(
                seed: &[u8; 48],
                logn: u32,
                vk: &mut [u8],
                sk: &mut [u8],
                vst: &mut crate::fndsa::FnDsaVkState<N>,
                st: &mut crate::fndsa::FnDsaSkState<N>,
            ) -> ()
                = crate::fndsa::keygen;
            /// FN-DSA secret-key decoding and checks.
            #[cfg(feature = "fndsa")]
            fn fndsa_decode_sk<N>(sk: &[u8], logn: u32)
                -> Result<crate::fndsa::FnDsaSkState<N>, pqforge_core::Error>
                = crate::fndsa::decode_sk;
            /// The FN-DSA verifying key of a prepared signing key.
            #[cfg(feature = "fndsa")]
            fn fndsa_derive_vk<N>(st: &crate::fndsa::FnDsaSkState<N>, logn: u32, vk: &mut [u8])
                -> crate::fndsa::FnDsaVkState<N>
                = crate::fndsa::derive_vk;
            /// FN-DSA signing of mu.
            #[cfg(feature = "fndsa")]
            fn fndsa_sign<N, T>(
                st: &crate::fndsa::FnDsaSkState<N>,
                logn: u32,
                mu: &[u8; 64],
                rnd: &[u8; 40],
                sig: &mut [u8],
            ) -> Result<usize, pqforge_core::Error>
                = crate::fndsa::sign_mu;
            /// FN-DSA verification against mu.
            #[cfg(feature = "fndsa")]
            fn fndsa_verify<N>(h: &[u16; N], logn: u32, mu: &[u8; 64], sig: &[u8])
                -> Result<(), pqforge_core::Error>
                = crate::fndsa::verify_mu;
        }
    };
}

pqforge_core::x86_simd! {
    mod avx2;
    pub(crate) mod check;
}
// rustfmt does not follow `mod` items inside a macro call: these never-compiled
// twins let `cargo fmt` reach the files (see `pqforge_core::x86_simd!`).
#[cfg(any())]
mod avx2;
#[cfg(any())]
mod check;

/// The dispatch functions: the CPU check, then the operation instantiated
/// for that backend. Also `forced_portable::*`: the same operations with the
/// portable backend forced (differential tests).
macro_rules! dispatch {
    ($(
        $(#[$attr:meta])*
        fn $name:ident<$($c:ident),*>($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty
            = $($path:ident)::+;
    )*) => {
        $(
            $(#[$attr])*
            #[inline(always)]
            pub(crate) fn $name<$(const $c: usize),*>($($arg: $ty),*) -> $ret {
                pqforge_core::x86_simd! {{
                    if let Some(t) = pqforge_core::cpu::Avx2::detect() {
                        return avx2::entries::$name::<$($c),*>(t, $($arg),*);
                    }
                    // Out of line where an AVX2 path exists (see the AVX2
                    // entries); inlined on targets with the portable path only.
                    return forced_portable::$name::<$($c),*>($($arg),*);
                }}
                #[allow(unreachable_code)]
                $($path)::+::<Portable, $($c),*>(Portable, $($arg),*)
            }
        )*

        /// The operations with the portable backend forced.
        #[allow(dead_code)]
        pub(crate) mod forced_portable {
            use super::*;
            $(
                $(#[$attr])*
                #[inline(never)]
                pub(crate) fn $name<$(const $c: usize),*>($($arg: $ty),*) -> $ret {
                    $($path)::+::<Portable, $($c),*>(Portable, $($arg),*)
                }
            )*
        }
    };
}

for_each_operation!(dispatch);

/// The backend the dispatch functions above pick on this CPU.
fn selected() -> &'static str {
    pqforge_core::x86_simd! {{
        if pqforge_core::cpu::Avx2::detect().is_some() {
            return "avx2";
        }
    }}
    "portable"
}

/// The backends for reports ([`pqforge_core::cpu::Backends`]; every
/// Falcon and FN-DSA parameter set's `BACKENDS`): `portable` and `avx2`.
pub(crate) const BACKENDS: pqforge_core::cpu::Backends =
    pqforge_core::cpu::Backends::new(&["portable", "avx2"], selected, |name| {
        name == "portable" || (name == "avx2" && selected() == "avx2")
    });
