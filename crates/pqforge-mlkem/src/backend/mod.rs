//! Backends: the polynomial kernels the protocol is generic over, the K-PKE
//! strategy each one runs, and THE dispatch: one CPU check per public call.
//!
//! * `Portable` (`portable.rs`): plain Rust, every target; runs the
//!   streamed K-PKE (`crate::pke::Streamed`: the matrix never stored, about
//!   3 KB of stack on a Cortex-M4). The reference.
//! * `Armv7em` (`armv7em.rs`, 32-bit Arm with the DSP extension: the
//!   Cortex-M4): NTT, inverse NTT and reductions on two coefficients per
//!   register with the DSP instructions; the streamed K-PKE.
//! * `Avx2` (`avx2/`, x86_64): NTT, inverse NTT, base multiplication,
//!   reductions, compression, encoding and SampleNTT's rejection step in
//!   256-bit intrinsics; runs the stored K-PKE (`crate::pke::Stored`) with
//!   decapsulation's hashes in one four-lane Keccak schedule.
//!
//! Every kernel has the same contract (ranges, coefficient order, output
//! bytes) in every backend; `tests/backends.rs` checks them against each
//! other on random inputs, and runs every kernels x strategy pairing
//! ([`paths`]) against the portable one.

mod portable;

pub(crate) use portable::Portable;

#[cfg(all(
    target_arch = "arm",
    target_feature = "dsp",
    target_feature = "mclass",
    target_endian = "little"
))]
mod armv7em;

pqforge_core::x86_simd! {
    mod avx2;
}
// rustfmt does not follow `mod` items inside a macro call: these never-compiled
// twins let `cargo fmt` reach the files (see `pqforge_core::x86_simd!`).
#[cfg(any())]
mod avx2;

use core::marker::PhantomData;

use crate::hash::DecapsHashes;
use crate::params::ParameterSet;
use crate::pke::{EncNoise, Matrix, Pke, coins, sample_encrypt};
use crate::poly::{self, Poly};
use crate::{kem, sample};

/// The polynomial kernels of one instruction set, and the K-PKE strategy
/// it runs.
pub(crate) trait Backend: Sized {
    /// How K-PKE runs on these kernels: matrix stored or streamed.
    type Pke: Pke<Kernels = Self>;

    /// Forward NTT; in: |c| < q;  out: reduced (|c| <= (q-1)/2).
    fn ntt(p: &mut Poly);
    /// Inverse NTT times 2^16; in: |c| < 4q;  out: |c| < q (the
    /// representatives may differ between backends: callers reduce).
    fn invntt_tomont(p: &mut Poly);
    /// `r = sum a_i o b_i * 2^-16`, reduced. One factor of each product
    /// reduced, the other in `[0, 4096)` (or both reduced).
    fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]);
    /// `acc[o], acc[o+1] += (a0 + a1 X)(b0 + b1 X) * 2^-16 mod (X^2 -
    /// zeta_o)` for even `o`, unreduced: the streamed K-PKE's step (bounds
    /// as [`crate::ntt::basemul_pair`], whose result it must equal).
    #[inline(always)]
    fn basemul_pair(acc: &mut Poly, o: usize, a: (i32, i32), b: (i32, i32)) {
        crate::ntt::basemul_pair(acc, o, a, b);
    }
    /// Multiplies by 2^16 (Montgomery form); out: |c| < q.
    fn tomont(p: &mut Poly) {
        poly::tomont(p);
    }
    /// Barrett-reduces every coefficient.
    fn reduce(p: &mut Poly) {
        poly::reduce(p);
    }
    /// SampleNTT's rejection step over whole 3-byte groups of `buf`.
    fn rej_uniform(out: &mut [i16], buf: &[u8]) -> usize {
        sample::rej_uniform(out, buf)
    }
    /// SamplePolyCBD_eta from `64 eta` bytes of `buf`.
    #[inline(always)] // into the AVX2 callers: compiled for AVX2 there
    fn cbd(p: &mut Poly, buf: &[u8], eta: usize) {
        sample::cbd(p, buf, eta);
    }
    /// ByteEncode12 of a polynomial with |c| < q.
    fn to_bytes(p: &Poly, out: &mut [u8]) {
        poly::to_bytes(p, out);
    }
    /// ByteDecode12 (values in `[0, 4096)`).
    fn from_bytes(bytes: &[u8], p: &mut Poly) {
        poly::from_bytes(bytes, p);
    }
    /// FIPS 203 §7.2 modulus check: every 12-bit value of `bytes` is < q.
    fn is_canonical_12(bytes: &[u8]) -> bool {
        poly::is_canonical_12(bytes)
    }
    /// Compress_d + ByteEncode_d of a reduced polynomial.
    fn compress<const D: u32>(p: &Poly, out: &mut [u8]) {
        let mut v = [0u16; poly::N];
        Self::compress_values::<D>(p, &mut v);
        poly::pack::<D>(&v, out);
    }
    /// Compress_d of every coefficient of a reduced polynomial.
    fn compress_values<const D: u32>(p: &Poly, v: &mut [u16; poly::N]) {
        poly::compress_values::<D>(p, v);
    }
    /// ByteDecode_d + Decompress_d.
    fn decompress<const D: u32>(bytes: &[u8], p: &mut Poly) {
        poly::decompress_from_bytes::<D>(bytes, p);
    }
    /// Message to polynomial (Decompress_1).
    fn from_msg(m: &[u8; 32], p: &mut Poly) {
        poly::from_msg(m, p);
    }
    /// Polynomial to message (Compress_1) of a reduced polynomial.
    fn to_msg(p: &Poly, m: &mut [u8; 32]) {
        poly::to_msg(p, m);
    }
    /// For the stored K-PKE's decapsulation: G and J of `hashes`, then the
    /// transposed matrix from `rho` and the encryption noise from G's coins
    /// (`sample_encrypt`). Default: one after the other; AVX2 runs them as
    /// one four-lane Keccak schedule.
    fn decaps_hashes<P: ParameterSet>(
        hashes: &DecapsHashes<'_>,
        rho: &[u8; 32],
        g: &mut [u8; 64],
        kbar: &mut [u8; 32],
        at: &mut Matrix,
        noise: &mut EncNoise,
    ) {
        hashes.run(g, kbar);
        sample_encrypt::<P, Self>(rho, coins(g), at, noise);
    }
}

/// One public operation, written once and instantiable with any K-PKE
/// strategy (and so any kernels).
pub(crate) trait Op {
    /// What it returns.
    type Out;
    /// Runs it with the strategy `K`.
    fn run<K: Pke>(self) -> Self::Out;
}

/// THE dispatch: checks the CPU once, then runs the whole operation
/// instantiated for the best backend it has (inside a
/// `#[target_feature]` function on x86_64, so the path inlines).
#[inline]
pub(crate) fn run<O: Op>(op: O) -> O::Out {
    pqforge_core::x86_simd! {{
        if let Some(t) = pqforge_core::cpu::Avx2::detect() {
            return avx2::run(t, op);
        }
    }}
    #[cfg(all(
        target_arch = "arm",
        target_feature = "dsp",
        target_feature = "mclass",
        target_endian = "little"
    ))]
    return op.run::<<armv7em::Armv7em as Backend>::Pke>();
    #[allow(unreachable_code)]
    op.run::<<Portable as Backend>::Pke>()
}

/// ML-KEM.KeyGen_internal(d, z) on the best backend (the August 2023
/// draft's KeyGen if `ipd`).
pub(crate) fn keygen<P: ParameterSet>(
    d: &[u8; 32],
    z: &[u8; 32],
    ek: &mut [u8],
    dk: &mut [u8],
    ipd: bool,
) {
    run(Keygen::<P> {
        d,
        z,
        ek,
        dk,
        ipd,
        set: PhantomData,
    });
}

/// ML-KEM.Encaps_internal(ek, m) on the best backend; `h` = H(ek).
pub(crate) fn encaps<P: ParameterSet>(
    ek: &[u8],
    h: &[u8; 32],
    m: &[u8; 32],
    c: &mut [u8],
    key: &mut [u8; 32],
) {
    run(Encaps::<P> {
        ek,
        h,
        m,
        c,
        key,
        set: PhantomData,
    });
}

/// ML-KEM.Decaps_internal(dk, c) on the best backend.
pub(crate) fn decaps<P: ParameterSet>(dk: &[u8], c: &[u8], key: &mut [u8; 32]) {
    run(Decaps::<P> {
        dk,
        c,
        key,
        set: PhantomData,
    });
}

/// FIPS 203 §7.2 modulus check on the best backend: every 12-bit value of
/// `bytes` is < q.
pub(crate) fn is_canonical_12(bytes: &[u8]) -> bool {
    run(Modulus(bytes))
}

/// Name of the backend the public calls use on this machine.
#[must_use]
pub fn backend_name() -> &'static str {
    pqforge_core::x86_simd! {{
        if pqforge_core::cpu::Avx2::detect().is_some() {
            return "avx2";
        }
    }}
    if cfg!(all(
        target_arch = "arm",
        target_feature = "dsp",
        target_feature = "mclass",
        target_endian = "little"
    )) {
        return "armv7em";
    }
    "portable"
}

/// The backends for reports ([`pqforge_core::cpu::Backends`]; every
/// parameter set's `BACKENDS`): `portable`, `armv7em`, `avx2`, the one the
/// dispatch picks being [`backend_name`].
pub const BACKENDS: pqforge_core::cpu::Backends =
    pqforge_core::cpu::Backends::new(&["portable", "armv7em", "avx2"], backend_name, |name| {
        match name {
            "portable" => true,
            "armv7em" => cfg!(all(
                target_arch = "arm",
                target_feature = "dsp",
                target_feature = "mclass",
                target_endian = "little"
            )),
            "avx2" => pqforge_core::cpu::X86_SIMD && pqforge_core::cpu::avx2(),
            _ => false,
        }
    });

/// ML-KEM.KeyGen_internal(d, z) (the draft's if `ipd`).
pub(crate) struct Keygen<'a, P> {
    pub(crate) d: &'a [u8; 32],
    pub(crate) z: &'a [u8; 32],
    pub(crate) ek: &'a mut [u8],
    pub(crate) dk: &'a mut [u8],
    pub(crate) ipd: bool,
    pub(crate) set: PhantomData<P>,
}

impl<P: ParameterSet> Op for Keygen<'_, P> {
    type Out = ();
    #[inline(always)]
    fn run<K: Pke>(self) {
        kem::keygen::<P, K>(self.d, self.z, self.ek, self.dk, self.ipd);
    }
}

/// ML-KEM.Encaps_internal(ek, m), `h` = H(ek).
pub(crate) struct Encaps<'a, P> {
    pub(crate) ek: &'a [u8],
    pub(crate) h: &'a [u8; 32],
    pub(crate) m: &'a [u8; 32],
    pub(crate) c: &'a mut [u8],
    pub(crate) key: &'a mut [u8; 32],
    pub(crate) set: PhantomData<P>,
}

impl<P: ParameterSet> Op for Encaps<'_, P> {
    type Out = ();
    #[inline(always)]
    fn run<K: Pke>(self) {
        kem::encaps::<P, K>(self.ek, self.h, self.m, self.c, self.key);
    }
}

/// ML-KEM.Decaps_internal(dk, c).
pub(crate) struct Decaps<'a, P> {
    pub(crate) dk: &'a [u8],
    pub(crate) c: &'a [u8],
    pub(crate) key: &'a mut [u8; 32],
    pub(crate) set: PhantomData<P>,
}

impl<P: ParameterSet> Op for Decaps<'_, P> {
    type Out = ();
    #[inline(always)]
    fn run<K: Pke>(self) {
        kem::decaps::<P, K>(self.dk, self.c, self.key);
    }
}

/// The FIPS 203 §7.2 modulus check of ByteEncode12 data.
pub(crate) struct Modulus<'a>(pub(crate) &'a [u8]);

impl Op for Modulus<'_> {
    type Out = bool;
    #[inline(always)]
    fn run<K: Pke>(self) -> bool {
        K::Kernels::is_canonical_12(self.0)
    }
}

/// Compares every AVX2 kernel (or, on 32-bit Arm with DSP, every Armv7E-M
/// kernel) with the portable one on one round of random inputs
/// (`tests/backends.rs` and the Cortex-M4 firmware; not part of the API).
/// `Ok(false)` when this build or CPU has neither (nothing compared).
///
/// # Errors
/// The name of the first kernel whose outputs differ.
#[doc(hidden)]
pub fn check_kernels(next: &mut dyn FnMut() -> u64) -> Result<bool, &'static str> {
    pqforge_core::x86_simd! {{
        if let Some(t) = pqforge_core::cpu::Avx2::detect() {
            return avx2::check(t, next).map(|()| true);
        }
    }}
    #[cfg(all(
        target_arch = "arm",
        target_feature = "dsp",
        target_feature = "mclass",
        target_endian = "little"
    ))]
    return armv7em::check(next).map(|()| true);
    #[allow(unreachable_code)]
    {
        let _ = next;
        Ok(false)
    }
}

/// Every kernels x K-PKE pairing the crate has, whatever the CPU picks
/// (differential tests; not part of the API).
#[doc(hidden)]
pub mod paths {
    use core::marker::PhantomData;

    use super::{Backend, Decaps, Encaps, Keygen, Op, Portable};
    use crate::params::ParameterSet;
    use crate::pke::Stored;

    /// Kernels x K-PKE strategy.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Path {
        /// Portable kernels, streamed K-PKE: the reference, and what runs
        /// without AVX2 (the Cortex-M4 included).
        Portable,
        /// Portable kernels, stored K-PKE.
        PortableStored,
        /// AVX2 kernels, stored K-PKE: what runs with AVX2.
        Avx2,
        /// AVX2 kernels, streamed K-PKE.
        Avx2Streamed,
    }

    impl Path {
        /// Every path.
        pub const ALL: [Path; 4] = [
            Path::Portable,
            Path::PortableStored,
            Path::Avx2,
            Path::Avx2Streamed,
        ];
    }

    /// Runs `op` on `path`; `None` if this build or CPU lacks it.
    fn run<O: Op>(path: Path, op: O) -> Option<O::Out> {
        match path {
            Path::Portable => Some(op.run::<<Portable as Backend>::Pke>()),
            Path::PortableStored => Some(op.run::<Stored<Portable>>()),
            Path::Avx2 | Path::Avx2Streamed => {
                pqforge_core::x86_simd! {{
                    if let Some(t) = pqforge_core::cpu::Avx2::detect() {
                        return Some(if path == Path::Avx2 {
                            super::avx2::run(t, op)
                        } else {
                            super::avx2::run_streamed(t, op)
                        });
                    }
                }}
                None
            }
        }
    }

    /// KeyGen_internal on `path`: writes ek and dk. `false` if this build
    /// or CPU lacks the path.
    pub fn keygen<P: ParameterSet>(
        path: Path,
        d: &[u8; 32],
        z: &[u8; 32],
        ek: &mut [u8],
        dk: &mut [u8],
    ) -> bool {
        let op = Keygen::<P> {
            d,
            z,
            ek,
            dk,
            ipd: false,
            set: PhantomData,
        };
        run(path, op).is_some()
    }

    /// Encaps_internal on `path` (`h` = H(ek)); `false` if unavailable.
    pub fn encaps<P: ParameterSet>(
        path: Path,
        ek: &[u8],
        h: &[u8; 32],
        m: &[u8; 32],
        c: &mut [u8],
        key: &mut [u8; 32],
    ) -> bool {
        let op = Encaps::<P> {
            ek,
            h,
            m,
            c,
            key,
            set: PhantomData,
        };
        run(path, op).is_some()
    }

    /// Decaps_internal on `path`; `false` if unavailable.
    pub fn decaps<P: ParameterSet>(path: Path, dk: &[u8], c: &[u8], key: &mut [u8; 32]) -> bool {
        let op = Decaps::<P> {
            dk,
            c,
            key,
            set: PhantomData,
        };
        run(path, op).is_some()
    }
}
