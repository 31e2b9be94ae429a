//! The six HQC parameter sets and their derived sizes.
//!
//! Every parameter set is a zero-sized marker type implementing the sealed
//! [`ParameterSet`] trait, and [`pqforge_core::Kem`] (the KEM contract,
//! implemented in `contract.rs`: names, metadata and the key, ciphertext and
//! seed encodings). The trait carries the code parameters (n, n1, n2,
//! weights, RS designed distance), the [`Revision`] of the reference
//! implementation whose XOF consumption it reproduces, the byte sizes, and
//! fixed-size array types for the ring elements (stable Rust cannot write
//! `[u64; P::PWORDS]` for a generic `P`, so each set names its arrays).

use pqforge_core::Kem;

/// Bytes of every seed (`seed_kem`, `seed_pke`, `seed_dk`, `seed_ek`, θ).
pub const SEED_BYTES: usize = 32;
/// Bytes of the ciphertext salt.
pub const SALT_BYTES: usize = 16;
/// Bytes of the shared secret.
pub const SS_BYTES: usize = 32;

/// Largest RS designed error-correction capability δ over all sets.
pub(crate) const MAX_DELTA: usize = 29;
/// Largest Reed-Solomon length n1 over all sets.
pub(crate) const MAX_N1: usize = 90;
/// Largest message length k (bytes) over all sets.
pub(crate) const MAX_K: usize = 32;
/// Largest fixed weight over all sets.
pub(crate) const MAX_WEIGHT: usize = 149;

/// A position in a ring element (an entry of a support): n < 2^16 for
/// every set (checked in `parameter_set!`), so 16 bits, which halves the
/// supports the PKE keeps on the stack.
pub(crate) type Pos = u16;

/// Which revision of the official reference implementation a parameter set
/// reproduces. Both share hashes, formats and sizes; they differ only in how
/// the XOF stream is consumed while sampling fixed-weight vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Revision {
    /// `next-release` commit 161cd4f (2026-02-10): plain sequential XOF reads,
    /// little-endian 24-bit key-generation candidates read 3 bytes at a time.
    NextRelease161cd4f,
    /// Tagged v5.0.0 (2025-08-22 specification): every XOF read is padded to
    /// a multiple of 8 bytes, key-generation candidates are big-endian and
    /// read in batches of 3·ω bytes.
    V5_0_0,
}

impl Revision {
    /// Whether XOF reads are rounded up to a multiple of 8 bytes.
    #[must_use]
    pub const fn pads_xof_reads(self) -> bool {
        matches!(self, Revision::V5_0_0)
    }

    /// Whether 24-bit key-generation candidates are big-endian.
    #[must_use]
    pub const fn big_endian_candidates(self) -> bool {
        matches!(self, Revision::V5_0_0)
    }
}

/// `ceil(bits / 64)`.
#[must_use]
pub const fn words(bits: usize) -> usize {
    bits.div_ceil(64)
}

/// `ceil(bits / 8)`.
#[must_use]
pub const fn bytes(bits: usize) -> usize {
    bits.div_ceil(8)
}

/// Ring elements are stored in a whole number of 1024-bit blocks: `ceil(n/64)`
/// words rounded up to a multiple of `POLY_ALIGN_WORDS`; the padding words
/// are always zero. Every backend's Karatsuba splits at 8-word boundaries,
/// and `gf2x::mul_mod` splits a ring element into two equal halves
/// of whole 8-word blocks (so each half product fits in one ring element).
pub(crate) const POLY_ALIGN_WORDS: usize = 16;

/// Stored words of a ring element of `bits` bits (see `POLY_ALIGN_WORDS`).
#[must_use]
pub const fn padded_words(bits: usize) -> usize {
    words(bits).div_ceil(POLY_ALIGN_WORDS) * POLY_ALIGN_WORDS
}

/// Karatsuba temporaries for `n`-word operands split down to `block`-word
/// pieces: each level keeps its middle product (2h words) while recursing.
const fn karatsuba_scratch_for(mut n: usize, block: usize) -> usize {
    let mut total = 0;
    while n > block {
        let h = (n / block).div_ceil(2) * block;
        total += 2 * h;
        n = h;
    }
    total
}

/// Scratch words any backend's Karatsuba needs for `n`-word operands (`n` a
/// multiple of `POLY_ALIGN_WORDS`; blocks of 4 and 8 words are in use).
#[must_use]
pub const fn karatsuba_scratch(n: usize) -> usize {
    let a = karatsuba_scratch_for(n, 4);
    let b = karatsuba_scratch_for(n, 8);
    if a > b { a } else { b }
}

/// Scratch words of `gf2x::mul_mod` for `n`-word (padded)
/// operands: one `n`-word accumulator plus the Karatsuba temporaries of the
/// `n/2`-word half products (the half products themselves live in the
/// accumulator and the output).
#[must_use]
pub const fn mul_scratch(n: usize) -> usize {
    n + karatsuba_scratch(n / 2)
}

/// Scratch words of `gf2x::mul_mod_support` (the small-RAM profile): those
/// of `mul_mod` plus the `n/2`-word half operand written from the support.
#[must_use]
pub const fn mul_scratch_support(n: usize) -> usize {
    mul_scratch(n) + n / 2
}

/// Scratch words of the ring product this build uses: [`mul_scratch`], or
/// [`mul_scratch_support`] with the `small-ram` feature.
#[must_use]
pub const fn scratch_words(n: usize) -> usize {
    if cfg!(feature = "small-ram") {
        mul_scratch_support(n)
    } else {
        mul_scratch(n)
    }
}

/// GF(256) multiplication modulo x^8 + x^4 + x^3 + x^2 + 1, for tables built
/// at compile time on public constants only.
const fn gf_mul_const(mut a: u8, b: u8) -> u8 {
    let mut r = 0u8;
    let mut i = 0;
    while i < 8 {
        if (b >> i) & 1 == 1 {
            r ^= a;
        }
        let hi = a >> 7;
        a <<= 1;
        if hi == 1 {
            a ^= 0x1D;
        }
        i += 1;
    }
    r
}

/// Coefficients of the RS generator polynomial Π_{i=1..2δ} (x + α^i), low
/// degree first; entry `2δ` is the leading 1.
#[must_use]
pub const fn rs_generator(delta: usize) -> [u8; 2 * MAX_DELTA + 1] {
    let mut g = [0u8; 2 * MAX_DELTA + 1];
    g[0] = 1;
    let mut a = 1u8;
    let mut i = 0;
    while i < 2 * delta {
        a = gf_mul_const(a, 2);
        // g <- (x + a) * g, degree i -> i + 1
        let mut j = i + 1;
        while j > 0 {
            g[j] = g[j - 1] ^ gf_mul_const(a, g[j]);
            j -= 1;
        }
        g[0] = gf_mul_const(a, g[0]);
        i += 1;
    }
    g
}

mod sealed {
    pub trait Sealed {}
}

/// An HQC parameter set (sealed: exactly the six sets of this crate).
///
/// Every set also implements [`Kem`] (with a 32-byte `seed_kem` as key
/// generation seed, 32-byte shared secrets and no derived key state): its
/// name, sizes and metadata are [`Kem::INFO`].
pub trait ParameterSet:
    sealed::Sealed
    + Kem<KeygenSeed = [u8; SEED_BYTES], SsBytes = [u8; SS_BYTES], EkState = (), DkState = ()>
{
    /// Reference revision whose XOF consumption is reproduced.
    const REVISION: Revision;
    /// Length n of the ring F2\[X\]/(X^n - 1).
    const N: usize;
    /// Reed-Solomon code length n1 (bytes).
    const N1: usize;
    /// Duplicated Reed-Muller code length n2 (bits).
    const N2: usize;
    /// Weight ω of the secret vectors x, y.
    const OMEGA: usize;
    /// Weight ω_r of r1, r2.
    const OMEGA_R: usize;
    /// Weight ω_e of e.
    const OMEGA_E: usize;
    /// Error-correction capability δ of the Reed-Solomon code.
    const DELTA: usize;
    /// Message (and σ) length k in bytes.
    const K: usize;

    /// 64-bit words holding the n coefficients of a ring element.
    const WORDS: usize = words(Self::N);
    /// Stored words of a ring element (`WORDS` rounded up to whole blocks).
    const PWORDS: usize = padded_words(Self::N);
    /// Bytes of an encoded ring element (`s`, `u`).
    const N_BYTES: usize = bytes(Self::N);
    /// Bits of the concatenated code n1·n2.
    const N1N2: usize = Self::N1 * Self::N2;
    /// Bytes of `v`.
    const V_BYTES: usize = bytes(Self::N1N2);
    /// Encapsulation-key bytes: `seed_ek || s`.
    const ENCAPS_KEY_BYTES: usize = SEED_BYTES + Self::N_BYTES;
    /// Decapsulation-key bytes: `ek || seed_dk || σ || seed_kem`.
    const DECAPS_KEY_BYTES: usize = Self::ENCAPS_KEY_BYTES + SEED_BYTES + Self::K + SEED_BYTES;
    /// Ciphertext bytes: `u || v || salt`.
    const CIPHERTEXT_BYTES: usize = Self::N_BYTES + Self::V_BYTES + SALT_BYTES;
    /// Rejection threshold of the key-generation sampler: the largest
    /// multiple of n not above 2^24.
    const REJECTION_THRESHOLD: u32 = ((1u32 << 24) / Self::N as u32) * Self::N as u32;
    /// Barrett constant ⌊2^32 / n⌋.
    const BARRETT_MU: u64 = (1u64 << 32) / Self::N as u64;
    /// RS generator polynomial (see [`rs_generator`]).
    const RS_GEN: [u8; 2 * MAX_DELTA + 1] = rs_generator(Self::DELTA);

    /// A ring element as `PWORDS` little-endian 64-bit words (the words
    /// from `WORDS` on, and the bits at and above n, are zero).
    type Poly: Copy + AsRef<[u64]> + AsMut<[u64]>;
    /// The zero ring element.
    const POLY_ZERO: Self::Poly;
    /// Scratch space of the multiplier ([`scratch_words`]: one
    /// accumulator plus the Karatsuba temporaries, plus a half operand in
    /// the small-RAM profile).
    type Scratch: AsRef<[u64]> + AsMut<[u64]>;
    /// Zeroed scratch.
    const SCRATCH_ZERO: Self::Scratch;
    /// A support (list of positions) of the largest weight of the set
    /// (max of ω, ω_r, ω_e).
    type Support: Copy + AsRef<[Pos]> + AsMut<[Pos]>;
    /// The zero support.
    const SUPPORT_ZERO: Self::Support;
}

/// The largest of three weights.
const fn max_weight(a: usize, b: usize, c: usize) -> usize {
    let m = if a > b { a } else { b };
    if m > c { m } else { c }
}

/// Defines one parameter-set marker type and its [`ParameterSet`] impl (its
/// [`Kem`] impl is in `contract.rs`).
macro_rules! parameter_set {
    (
        $(#[$doc:meta])*
        $ty:ident, $rev:expr,
        n = $n:literal, n1 = $n1:literal, n2 = $n2:literal, omega = $w:literal,
        omega_r = $wr:literal, omega_e = $we:literal, delta = $d:literal, k = $k:literal
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $ty;

        impl sealed::Sealed for $ty {}

        // Positions (`Pos`) are 16-bit.
        const _: () = assert!($n <= 1 << 16);

        impl ParameterSet for $ty {
            const REVISION: Revision = $rev;
            const N: usize = $n;
            const N1: usize = $n1;
            const N2: usize = $n2;
            const OMEGA: usize = $w;
            const OMEGA_R: usize = $wr;
            const OMEGA_E: usize = $we;
            const DELTA: usize = $d;
            const K: usize = $k;
            type Poly = [u64; padded_words($n)];
            const POLY_ZERO: Self::Poly = [0; padded_words($n)];
            type Scratch = [u64; scratch_words(padded_words($n))];
            // No heap: the multiplier scratch (about 15 KB for HQC-5) lives
            // on the caller's stack.
            #[allow(clippy::large_stack_arrays)]
            const SCRATCH_ZERO: Self::Scratch = [0; scratch_words(padded_words($n))];
            type Support = [Pos; max_weight($w, $wr, $we)];
            const SUPPORT_ZERO: Self::Support = [0; max_weight($w, $wr, $we)];
        }
    };
}

parameter_set!(
    /// HQC-1 (NIST category 1), official reference `next-release` 161cd4f.
    Hqc1, Revision::NextRelease161cd4f,
    n = 17669, n1 = 46, n2 = 384, omega = 66, omega_r = 75, omega_e = 75, delta = 15, k = 16
);
parameter_set!(
    /// HQC-3 (NIST category 3), official reference `next-release` 161cd4f.
    Hqc3, Revision::NextRelease161cd4f,
    n = 35851, n1 = 56, n2 = 640, omega = 100, omega_r = 114, omega_e = 114, delta = 16, k = 24
);
parameter_set!(
    /// HQC-5 (NIST category 5), official reference `next-release` 161cd4f.
    Hqc5, Revision::NextRelease161cd4f,
    n = 57637, n1 = 90, n2 = 640, omega = 131, omega_r = 149, omega_e = 149, delta = 29, k = 32
);
parameter_set!(
    /// HQC-1 (NIST category 1), official reference v5.0.0.
    Hqc1V5, Revision::V5_0_0,
    n = 17669, n1 = 46, n2 = 384, omega = 66, omega_r = 75, omega_e = 75, delta = 15, k = 16
);
parameter_set!(
    /// HQC-3 (NIST category 3), official reference v5.0.0.
    Hqc3V5, Revision::V5_0_0,
    n = 35851, n1 = 56, n2 = 640, omega = 100, omega_r = 114, omega_e = 114, delta = 16, k = 24
);
parameter_set!(
    /// HQC-5 (NIST category 5), official reference v5.0.0.
    Hqc5V5, Revision::V5_0_0,
    n = 57637, n1 = 90, n2 = 640, omega = 131, omega_r = 149, omega_e = 149, delta = 29, k = 32
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(
            (
                Hqc1::ENCAPS_KEY_BYTES,
                Hqc1::DECAPS_KEY_BYTES,
                Hqc1::CIPHERTEXT_BYTES
            ),
            (2241, 2321, 4433)
        );
        assert_eq!(
            (
                Hqc3::ENCAPS_KEY_BYTES,
                Hqc3::DECAPS_KEY_BYTES,
                Hqc3::CIPHERTEXT_BYTES
            ),
            (4514, 4602, 8978)
        );
        assert_eq!(
            (
                Hqc5::ENCAPS_KEY_BYTES,
                Hqc5::DECAPS_KEY_BYTES,
                Hqc5::CIPHERTEXT_BYTES
            ),
            (7237, 7333, 14421)
        );
        assert_eq!(Hqc1::INFO.pk_bytes, Hqc1::ENCAPS_KEY_BYTES);
        assert_eq!(Hqc5V5::INFO.sk_bytes, Hqc5V5::DECAPS_KEY_BYTES);
        assert_eq!(Hqc3::INFO.ct_bytes, Hqc3::CIPHERTEXT_BYTES);
        assert_eq!(Hqc1::REJECTION_THRESHOLD, 16_767_881);
        // Every n1 - k equals 2δ.
        assert_eq!(Hqc1::N1 - Hqc1::K, 2 * Hqc1::DELTA);
        assert_eq!(Hqc3::N1 - Hqc3::K, 2 * Hqc3::DELTA);
        assert_eq!(Hqc5::N1 - Hqc5::K, 2 * Hqc5::DELTA);
    }
}
