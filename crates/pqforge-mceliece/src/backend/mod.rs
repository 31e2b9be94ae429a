//! The kernels of every operation behind one trait, [`Backend`], and
//! the dispatch: one CPU check per public call (key generation,
//! encapsulation, decapsulation), which then runs the whole operation
//! instantiated for the backend it picked.
//!
//! * [`portable`]: 64-bit words, every target (the Cortex-M4 runs it);
//!   the reference.
//! * `avx2` (x86_64, unless built with `--cfg pqforge_backend="portable"`;
//!   token `Avx2`): the masked row operations of the Gaussian
//!   elimination and of the public-key product, the bit-vector helpers of
//!   the pivot decisions, the bitsliced field products generating the
//!   parity-check columns, the Goppa-polynomial kernels, the sorting
//!   networks, the error-vector scatter and the syndrome, and the whole
//!   decryption, in 256-bit registers. Key generation takes the token
//!   `Avx2Pclmul` when the CPU also has PCLMULQDQ (the powers of the
//!   Goppa polynomial by carry-less multiplication), else `Avx2` (those
//!   powers by the portable kernel).
//!
//! Every backend computes bit-identical results (`tests/backends.rs`
//! compares them).

pqforge_core::x86_simd! {
    pub(crate) mod avx2;
    use pqforge_core::cpu::{Avx2, Avx2Pclmul};
}
// rustfmt does not follow `mod` items inside a macro call: these never-compiled
// twins let `cargo fmt` reach the files (see `pqforge_core::x86_simd!`).
#[cfg(any())]
mod avx2;
pub(crate) mod portable;

pub(crate) use portable::{Portable, parity64};

use crate::ParameterSet;

/// The kernels a backend provides. Byte buffers carry little-endian words
/// (they live in the caller's public-key buffer: no alignment).
pub(crate) trait Backend {
    /// `dst ^= src & mask` bytewise (`mask` is 0 or 0xFF), over the
    /// shorter of the two lengths.
    fn xor_masked(dst: &mut [u8], src: &[u8], mask: u8);
    /// `dst ^= src_0 & masks[0] ^ src_1 & masks[1] ^ ...` bytewise, with
    /// `src_b = src[b * stride..][..dst.len()]` and every mask 0 or 0xFF
    /// (the destination stays in registers across the sources).
    fn xor_rows_masked(dst: &mut [u8], src: &[u8], stride: usize, masks: &[u8]);
    /// Inner products over GF(2): for every `rb`-byte row `r` of `rows`,
    /// flips bit `r` of `out` (LSB-first) when `row_r & v[..rb]` has odd
    /// weight. `v` is zero from byte `rb` on and has at least
    /// `rb.next_multiple_of(32)` bytes (vector loads may run past a row;
    /// the zero bytes cancel whatever they read).
    fn and_parities(rows: &[u8], rb: usize, v: &[u8], out: &mut [u8]);
    /// Writes into `e` (zeroed first) the bits at the positions `pos`
    /// (each below `8 * e.len()`, at most [`MAX_T`] of them), in constant
    /// time: no branch or address depends on a position.
    fn set_bits(e: &mut [u8], pos: &[u16]);
    /// Sorts the little-endian `u32` words of `buf` ascending (constant
    /// time; the word count is a power of two).
    fn sort_u32(buf: &mut [u8]);
    /// Sorts the little-endian `u64` words of `buf` ascending (constant
    /// time; the word count is a power of two).
    fn sort_u64(buf: &mut [u8]);
    /// Bit planes of a byte string: for `i < nb` (`nb <= 8`), bit `k` of
    /// the bit vector `planes[i * stride..]` becomes bit `i` of `bytes[k]`;
    /// the first `bytes.len().div_ceil(64)` words of each plane are
    /// overwritten (bits past the end cleared), the others untouched.
    fn byte_planes(bytes: &[u8], planes: &mut [u64], stride: usize, nb: usize);
    /// `out[i] = 0xFF` if bit `first + i` of the bit vector `bits` is set,
    /// else 0 (bits past the end of `bits` read as 0).
    fn expand_bits(bits: &[u64], first: usize, out: &mut [u8]);
    /// Bitsliced GF(2^m) products of many blocks of 64 elements, in place:
    /// `v[b * stride + q]` is plane `b` of block `q` (same layout for `l`);
    /// every block `q < n` becomes `v_q * l_q`. `stride` is a multiple of
    /// 4 and at least `n`: the blocks `n..n.next_multiple_of(4)` may be
    /// multiplied too (vector backends work four blocks at a time).
    fn vmul_planes(m: usize, v: &mut [u64], l: &[u64], stride: usize, n: usize);
    /// Niederreiter decryption (see `kem::decrypt`): writes `e` (n/8
    /// bytes), returns 0xFF on success and 0 otherwise.
    fn decrypt<P: ParameterSet>(e: &mut [u8], sk: &[u8], c0: &[u8]) -> u8;
    /// Goppa polynomial, step 1 (see `genpoly`): column `c` of the
    /// zeroed matrix `mat` (rows of `genpoly::stride::<P>()` bytes) gets
    /// the coefficients of `f^c` mod F, for `c = 0..=t`.
    fn gp_powers<P: ParameterSet>(f: &[u16], mat: &mut [u8]);
    /// Goppa polynomial, step 2: forward elimination with the reference
    /// pivot rule, pivot rows scaled to 1. Returns 0xFFFF if the matrix
    /// is singular, else 0.
    fn gp_forward<P: ParameterSet>(mat: &mut [u8]) -> u16;
    /// Goppa polynomial, step 3: back substitution on the output of
    /// [`Backend::gp_forward`] (nonsingular), `out[j] = g_j` for `j < t`.
    fn gp_back<P: ParameterSet>(mat: &[u8], out: &mut [u16]);
}

/// Maximum error weight t of any parameter set.
pub(crate) const MAX_T: usize = 128;

/// Key generation (see `keygen::keygen_derand`) on the best backend.
pub(crate) fn keygen_derand<P: ParameterSet>(delta: &[u8; 32], pk: &mut [u8], sk: &mut [u8]) {
    pqforge_core::x86_simd! {{
        if let Some(t) = Avx2Pclmul::detect() {
            return avx2::keygen_derand_pclmul::<P>(t, delta, pk, sk);
        }
        if let Some(t) = Avx2::detect() {
            return avx2::keygen_derand::<P>(t, delta, pk, sk);
        }
    }}
    crate::keygen::keygen_derand::<P, Portable>(delta, pk, sk);
}

/// Encapsulation (see `kem::encaps`; `pk` passed `prepare_ek`) on the
/// best backend.
pub(crate) fn encaps<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
    rng: &mut R,
    pk: &[u8],
    ct: &mut [u8],
    ss: &mut [u8; 32],
) {
    pqforge_core::x86_simd! {{
        if let Some(t) = Avx2::detect() {
            return avx2::encaps::<P, R>(t, rng, pk, ct, ss);
        }
    }}
    crate::kem::encaps::<P, R, Portable>(rng, pk, ct, ss);
}

/// Decapsulation (see `kem::decaps_with`) on the best backend.
pub(crate) fn decaps<P: ParameterSet>(sk: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
    pqforge_core::x86_simd! {{
        if let Some(t) = Avx2::detect() {
            return avx2::decaps::<P>(t, sk, ct, ss);
        }
    }}
    crate::kem::decaps_with::<P, Portable>(sk, ct, ss);
}

/// The backends for reports ([`pqforge_core::cpu::Backends`]; every
/// parameter set's `BACKENDS`): the names of [`testing::available`], the
/// one the dispatch picks being the last available (`avx2-pclmul`: key
/// generation with PCLMULQDQ, encapsulation and decapsulation on `avx2`).
pub(crate) const BACKENDS: pqforge_core::cpu::Backends = pqforge_core::cpu::Backends::new(
    &["portable", "avx2", "avx2-pclmul"],
    || testing::available().last().copied().unwrap_or("portable"),
    |name| testing::available().contains(&name),
);

/// Backend names for the differential tests.
#[doc(hidden)]
pub mod testing {
    use super::{Backend, Portable};
    use crate::ParameterSet;
    pqforge_core::x86_simd! {
        use super::avx2;
        use pqforge_core::cpu::{Avx2, Avx2Pclmul};
    }

    /// The backends this build and CPU can run, portable first:
    /// `"portable"`, `"avx2"` (the powers of the Goppa polynomial by the
    /// portable kernel) and `"avx2-pclmul"` (by PCLMULQDQ; the one the
    /// dispatch picks when the CPU has both).
    #[must_use]
    pub fn available() -> &'static [&'static str] {
        pqforge_core::x86_simd! {{
            if Avx2Pclmul::detect().is_some() {
                return &["portable", "avx2", "avx2-pclmul"];
            }
            if Avx2::detect().is_some() {
                return &["portable", "avx2"];
            }
        }}
        &["portable"]
    }

    /// Key generation on the named backend; `false` if it is not
    /// available here. `pk` and `sk` must have the exact sizes.
    pub fn keygen_derand<P: ParameterSet>(
        backend: &str,
        delta: &[u8; 32],
        pk: &mut [u8],
        sk: &mut [u8],
    ) -> bool {
        if pk.len() != P::PK_BYTES || sk.len() != P::SK_BYTES {
            return false;
        }
        if backend == "portable" {
            crate::keygen::keygen_derand::<P, Portable>(delta, pk, sk);
            return true;
        }
        pqforge_core::x86_simd! {{
            if let (Some(t), "avx2-pclmul") = (Avx2Pclmul::detect(), backend) {
                avx2::keygen_derand_pclmul::<P>(t, delta, pk, sk);
                return true;
            }
            if let (Some(t), "avx2") = (Avx2::detect(), backend) {
                avx2::keygen_derand::<P>(t, delta, pk, sk);
                return true;
            }
        }}
        false
    }

    /// Encapsulation on the named backend (`None` if unavailable), after
    /// the checks of the contract (lengths, `prepare_ek`). Both AVX2
    /// backends encapsulate alike.
    ///
    /// # Errors
    /// [`pqforge_core::Error::Length`] for wrong sizes, the public-key check.
    pub fn encaps<P: ParameterSet, R: pqforge_core::CryptoRng + ?Sized>(
        backend: &str,
        rng: &mut R,
        pk: &[u8],
        ct: &mut [u8],
        ss: &mut [u8; 32],
    ) -> Option<Result<(), pqforge_core::Error>> {
        let checks = pqforge_core::kem::prepare_ek::<P>(pk).and(pqforge_core::check_len(
            "ciphertext buffer",
            P::CT_BYTES,
            ct.len(),
        ));
        if let Err(e) = checks {
            return Some(Err(e));
        }
        if backend == "portable" {
            crate::kem::encaps::<P, R, Portable>(rng, pk, ct, ss);
            return Some(Ok(()));
        }
        pqforge_core::x86_simd! {{
            if let (Some(t), true) = (Avx2::detect(), available().contains(&backend)) {
                avx2::encaps::<P, R>(t, rng, pk, ct, ss);
                return Some(Ok(()));
            }
        }}
        None
    }

    /// Decapsulation on the named backend (`None` if unavailable).
    ///
    /// # Errors
    /// [`pqforge_core::Error::Length`] for wrong sizes.
    pub fn decaps<P: ParameterSet>(
        backend: &str,
        sk: &[u8],
        ct: &[u8],
        ss: &mut [u8; 32],
    ) -> Option<Result<(), pqforge_core::Error>> {
        let lens = pqforge_core::check_len("secret key", P::SK_BYTES, sk.len())
            .and(pqforge_core::check_len("ciphertext", P::CT_BYTES, ct.len()));
        if let Err(e) = lens {
            return Some(Err(e));
        }
        if backend == "portable" {
            crate::kem::decaps_with::<P, Portable>(sk, ct, ss);
            return Some(Ok(()));
        }
        pqforge_core::x86_simd! {{
            if let (Some(t), true) = (Avx2::detect(), available().contains(&backend)) {
                avx2::decaps::<P>(t, sk, ct, ss);
                return Some(Ok(()));
            }
        }}
        None
    }

    /// Sorts little-endian `u32` words on the named backend (`false` if
    /// unavailable or the word count is not a power of two).
    pub fn sort_u32(backend: &str, buf: &mut [u8]) -> bool {
        sort(backend, buf, 4)
    }

    /// Sorts little-endian `u64` words on the named backend.
    pub fn sort_u64(backend: &str, buf: &mut [u8]) -> bool {
        sort(backend, buf, 8)
    }

    fn sort(backend: &str, buf: &mut [u8], w: usize) -> bool {
        if !buf.len().is_multiple_of(w) || !(buf.len() / w).is_power_of_two() {
            return false;
        }
        match (backend, w) {
            ("portable", 4) => Portable::sort_u32(buf),
            ("portable", _) => Portable::sort_u64(buf),
            _ => {
                pqforge_core::x86_simd! {{
                    if let (Some(t), true) = (Avx2::detect(), available().contains(&backend)) {
                        avx2::sort(t, buf, w);
                        return true;
                    }
                }}
                return false;
            }
        }
        true
    }
}
