//! The six NTRU parameter sets and their derived sizes.
//!
//! Every parameter set is a zero-sized marker type implementing the sealed
//! [`ParameterSet`] trait and [`pqforge_core::Kem`] (in `contract.rs`). The
//! trait carries n, log₂ q, the variant (HPS: fixed-weight messages and
//! `g`; HRSS: i.i.d. samples and the `(x − 1)` lift), the byte sizes of the
//! round-3 reference implementation, and fixed-size array types (stable
//! Rust cannot write `[u16; P::N]` for a generic `P`, so each set names
//! its arrays).

use pqforge_core::Kem;

/// Bytes of the shared secret.
pub const SS_BYTES: usize = 32;
/// Bytes of the PRF key stored at the end of the decapsulation key (the
/// implicit-rejection key).
pub const PRF_KEY_BYTES: usize = 32;

/// Largest schoolbook block of the Karatsuba recursion.
pub const KARATSUBA_BASE: usize = 32;

/// Operand length of the ring product for degree n: n rounded up to
/// b·2^L with L the fewest halvings that bring ⌈n/2^L⌉ to at most
/// [`KARATSUBA_BASE`] and b = ⌈n/2^L⌉ rounded up to a multiple of 4, so
/// that every Karatsuba split is exact and every base block has b
/// coefficients (509 → 32·16, 677 → 24·32, 821 → 28·32, 1229 → 20·64,
/// 701 → 24·32, 1373 → 24·64).
#[must_use]
pub const fn padded_len(n: usize) -> usize {
    let mut levels = 0;
    while n.div_ceil(1 << levels) > KARATSUBA_BASE {
        levels += 1;
    }
    n.div_ceil(1 << levels).div_ceil(4) * 4 * (1 << levels)
}

/// Coefficients of the ring product's frame for degree n: the two padded
/// operands, their full product and the Karatsuba scratch.
#[must_use]
pub const fn wide_len(n: usize) -> usize {
    let m = padded_len(n);
    4 * m + karatsuba_scratch(m)
}

/// Scratch coefficients of the Karatsuba recursion for `m`-coefficient
/// operands: each level keeps its two operand sums and its middle product
/// (4·⌈m/2⌉) while recursing into the middle product.
#[must_use]
pub const fn karatsuba_scratch(m: usize) -> usize {
    if m <= KARATSUBA_BASE {
        0
    } else {
        let h = m.div_ceil(2);
        4 * h + karatsuba_scratch(h)
    }
}

/// Bytes of `count` coefficients of `bits` bits, packed little-endian.
#[must_use]
pub const fn packed_bytes(count: usize, bits: usize) -> usize {
    (count * bits).div_ceil(8)
}

mod sealed {
    pub trait Sealed {}
}

/// An NTRU parameter set (sealed: exactly the six sets of this crate).
///
/// Every set also implements [`Kem`] with 32-byte shared secrets and no
/// derived key state: its name, sizes and metadata are [`Kem::INFO`].
pub trait ParameterSet:
    sealed::Sealed + Kem<SsBytes = [u8; SS_BYTES], EkState = (), DkState = ()>
{
    /// Ring degree n (prime; Φ_n irreducible modulo 2 and 3).
    const N: usize;
    /// log₂ q.
    const LOGQ: u32;
    /// HPS (fixed-weight `m` and `g`) rather than HRSS.
    const HPS: bool;

    /// The modulus q (a power of two).
    const Q: u16 = 1 << Self::LOGQ;
    /// Weight of the fixed-weight vectors (HPS): q/8 − 2.
    const WEIGHT: usize = (1usize << Self::LOGQ) / 8 - 2;
    /// Coefficients that are packed (n − 1: the last one is implied).
    const PACK_DEG: usize = Self::N - 1;
    /// Bytes of a packed trinary polynomial (5 trits a byte).
    const TRINARY_BYTES: usize = Self::PACK_DEG.div_ceil(5);
    /// Bytes of a packed polynomial modulo q (pk, ct, h⁻¹).
    const Q_BYTES: usize = packed_bytes(Self::PACK_DEG, Self::LOGQ as usize);
    /// Bytes of uniform randomness for one i.i.d. ternary sample.
    const IID_BYTES: usize = Self::N - 1;
    /// Bytes of uniform randomness for one fixed-type sample (30 bits per
    /// coefficient).
    const FT_BYTES: usize = packed_bytes(Self::N - 1, 30);
    /// Bytes of the f, g sample seed.
    const FG_BYTES: usize = if Self::HPS {
        Self::IID_BYTES + Self::FT_BYTES
    } else {
        2 * Self::IID_BYTES
    };
    /// Bytes of the r, m sample seed (the encapsulation seed).
    const RM_BYTES: usize = Self::FG_BYTES;
    /// Encapsulation-key bytes (h packed).
    const ENCAPS_KEY_BYTES: usize = Self::Q_BYTES;
    /// Decapsulation-key bytes: `f || f⁻¹ mod 3 || h⁻¹ mod q || prf key`.
    const DECAPS_KEY_BYTES: usize = 2 * Self::TRINARY_BYTES + Self::Q_BYTES + PRF_KEY_BYTES;
    /// Ciphertext bytes.
    const CIPHERTEXT_BYTES: usize = Self::Q_BYTES;
    /// Bytes of the packed (r, m) pair that is hashed into the secret.
    const RM_PACKED_BYTES: usize = 2 * Self::TRINARY_BYTES;

    /// A ring element: n coefficients.
    type Poly: Copy + AsRef<[u16]> + AsMut<[u16]>;
    /// The zero ring element.
    const POLY_ZERO: Self::Poly;
    /// The frame of the ring product ([`wide_len`]).
    type Wide: AsRef<[u16]> + AsMut<[u16]>;
    /// Zeroed product space.
    const WIDE_ZERO: Self::Wide;
    /// The same frame as 32-bit words of two coefficients each (the
    /// portable backend's packed product, [`wide_len`] / 2 words).
    type Pairs: AsRef<[u32]> + AsMut<[u32]>;
    /// Zeroed packed product space.
    const PAIRS_ZERO: Self::Pairs;
    /// An i32 per packed coefficient (the fixed-type sort).
    type Sort: AsRef<[i32]> + AsMut<[i32]>;
    /// Zeroed sort space.
    const SORT_ZERO: Self::Sort;
}

/// Defines one parameter-set marker type and its [`ParameterSet`] impl (its
/// [`Kem`] impl is in `contract.rs`).
macro_rules! parameter_set {
    ($(#[$doc:meta])* $ty:ident, n = $n:literal, logq = $logq:literal, hps = $hps:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $ty;

        impl sealed::Sealed for $ty {}

        impl ParameterSet for $ty {
            const N: usize = $n;
            const LOGQ: u32 = $logq;
            const HPS: bool = $hps;
            type Poly = [u16; $n];
            const POLY_ZERO: Self::Poly = [0; $n];
            type Wide = [u16; wide_len($n)];
            // No heap: the ring product's frame (24 KB for n = 1373, 12 KB
            // for n = 701) lives on the stack of `kem::rq_mul` only.
            #[allow(clippy::large_stack_arrays)]
            const WIDE_ZERO: Self::Wide = [0; wide_len($n)];
            type Pairs = [u32; wide_len($n) / 2];
            #[allow(clippy::large_stack_arrays)]
            const PAIRS_ZERO: Self::Pairs = [0; wide_len($n) / 2];
            type Sort = [i32; $n - 1];
            const SORT_ZERO: Self::Sort = [0; $n - 1];
        }
    };
}

parameter_set!(
    /// NTRU-HPS-2048-509 (NIST category 1).
    NtruHps2048509, n = 509, logq = 11, hps = true
);
parameter_set!(
    /// NTRU-HPS-2048-677 (NIST category 3).
    NtruHps2048677, n = 677, logq = 11, hps = true
);
parameter_set!(
    /// NTRU-HPS-4096-821 (NIST category 5).
    NtruHps4096821, n = 821, logq = 12, hps = true
);
parameter_set!(
    /// NTRU-HPS-4096-1229 (NIST category 5; added after round 3).
    NtruHps40961229, n = 1229, logq = 12, hps = true
);
parameter_set!(
    /// NTRU-HRSS-701 (NIST category 3).
    NtruHrss701, n = 701, logq = 13, hps = false
);
parameter_set!(
    /// NTRU-HRSS-1373 (NIST category 5; added after round 3).
    NtruHrss1373, n = 1373, logq = 14, hps = false
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        fn sizes<P: ParameterSet>() -> (usize, usize) {
            (P::ENCAPS_KEY_BYTES, P::DECAPS_KEY_BYTES)
        }
        assert_eq!(sizes::<NtruHps2048509>(), (699, 935));
        assert_eq!(sizes::<NtruHps2048677>(), (930, 1234));
        assert_eq!(sizes::<NtruHps4096821>(), (1230, 1590));
        assert_eq!(sizes::<NtruHps40961229>(), (1842, 2366));
        assert_eq!(sizes::<NtruHrss701>(), (1138, 1450));
        assert_eq!(sizes::<NtruHrss1373>(), (2401, 2983));
        let padded = [509, 677, 821, 1229, 701, 1373].map(padded_len);
        assert_eq!(padded, [512, 768, 896, 1280, 768, 1536]);
    }
}
