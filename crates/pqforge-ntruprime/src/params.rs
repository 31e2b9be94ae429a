//! The six round-3 Streamlined NTRU Prime parameter sets and their sizes.
//!
//! A set is (p, q, w): the ring `Z_q[x]`/(x^p - x - 1) with p and q prime,
//! and w, the weight of the short polynomials. Every other size follows
//! from these: `Small_bytes` = ⌈p/4⌉, `Rq_bytes` / `Rounded_bytes` are the
//! lengths of the mixed-radix encodings ([`encoded_len`], checked at compile
//! time against the official key and ciphertext sizes).

use core::fmt::Debug;

use pqforge_core::ByteArray;
use zeroize::Zeroize;

/// Hash output length (the first 32 bytes of SHA-512), also the length of
/// the shared secret, of the key cache `Hash4(pk)` and of the confirmation.
pub const HASH_BYTES: usize = 32;

/// Seed of [`Kem::keygen_derand_into`](pqforge_core::Kem::keygen_derand_into)
/// (pqforge's deterministic key generation: the random words and `rho` are
/// read from SHAKE256 of this seed).
pub const KEYGEN_SEED_BYTES: usize = 32;

/// The largest p of the six sets (sizes of shared working arrays).
pub const MAX_P: usize = 1277;

/// A working array of a parameter set: `[T; N]` for a length fixed by the
/// set (p, p + 1, 2p - 1). Implemented for every array of `Copy + Default`
/// elements; wiped with [`Zeroize`].
pub trait Buf<T>: AsRef<[T]> + AsMut<[T]> + Copy + Zeroize + Send + Sync + 'static {
    /// All elements zero.
    #[must_use]
    fn zeroed() -> Self;
}

impl<T, const N: usize> Buf<T> for [T; N]
where
    T: Copy + Default + Send + Sync + 'static,
    [T; N]: Zeroize,
{
    #[inline(always)]
    fn zeroed() -> Self {
        [T::default(); N]
    }
}

/// One parameter set: its constants and the array types sized for it.
pub trait ParameterSet: Copy + Default + Debug + Send + Sync + 'static {
    /// Set name (`"sntrup761"`).
    const NAME: &'static str;
    /// The degree p (prime).
    const P: usize;
    /// The modulus q (prime).
    const Q: i32;
    /// The weight w of short polynomials.
    const W: usize;
    /// (q - 1) / 2: elements of Z_q are kept in [-Q12, Q12].
    const Q12: i32 = (Self::Q - 1) / 2;
    /// Bytes of a small polynomial (four coefficients a byte).
    const SMALL_BYTES: usize = Self::P.div_ceil(4);
    /// Bytes of an encoded element of R/q (the public key).
    const RQ_BYTES: usize;
    /// Bytes of an encoded rounded element (the ciphertext without its
    /// confirmation hash).
    const ROUNDED_BYTES: usize;
    /// Public-key bytes.
    const PK_BYTES: usize = Self::RQ_BYTES;
    /// Secret-key bytes: f, 1/g mod 3, pk, rho, Hash4(pk).
    const SK_BYTES: usize = 3 * Self::SMALL_BYTES + Self::RQ_BYTES + HASH_BYTES;
    /// Ciphertext bytes: rounded c, then the confirmation hash.
    const CT_BYTES: usize = Self::ROUNDED_BYTES + HASH_BYTES;
    /// NIST security category claimed by the submission.
    const CATEGORY: u8;

    /// Public-key storage.
    type EkBytes: ByteArray;
    /// Secret-key storage.
    type DkBytes: ByteArray;
    /// Ciphertext storage.
    type CtBytes: ByteArray;
    /// Randomness of deterministic encapsulation: the p 32-bit words of
    /// `Short_random`, little-endian (4p bytes).
    type EncapsSeed: ByteArray;
    /// p coefficients in {-1, 0, 1}.
    type Small: Buf<i8>;
    /// p coefficients of Z_q (or small values widened).
    type Fq: Buf<i16>;
    /// p + 1 coefficients (the inversion algorithms' registers).
    type Fq1: Buf<i16>;
    /// p + 1 coefficients in {-1, 0, 1} (the inversion mod 3).
    type Small1: Buf<i8>;
    /// p + 1 pairs of coefficients of Z_q, one per 32-bit word (the
    /// inversion in R/q on the Cortex-M4).
    type Pairs1: Buf<u32>;
    /// 16-bit scratch of a product: both operands padded (2 ·
    /// `poly::padded(p)`) and the Karatsuba sums (1.75 · that).
    type Scratch16: Buf<i16>;
    /// 32-bit scratch of a product: the unreduced product (2 ·
    /// `poly::padded(p)` - 1) and the Karatsuba middle products.
    type Scratch32: Buf<i32>;
    /// p random 32-bit words.
    type Words: Buf<u32>;
    /// p digits of the mixed-radix codec.
    type Digits: Buf<u16>;
}

/// Length of the mixed-radix encoding of `p` digits of radix `m` (the
/// official `Encode`, followed level by level: each pair of digits becomes
/// one digit of radix m0·m1, emitting low bytes while that radix is at least
/// 2^14; the last digit emits bytes until its radix is 1).
#[must_use]
pub const fn encoded_len(p: usize, m: u32) -> usize {
    let (mut len, mut m0, mut mlast, mut bytes) = (p, m, m, 0usize);
    while len > 1 {
        let pairs = len / 2;
        let (b_ord, m_ord) = shrink(m0 * m0);
        if len % 2 == 1 {
            bytes += pairs * b_ord;
        } else {
            let (b_last, m_last) = shrink(m0 * mlast);
            bytes += (pairs - 1) * b_ord + b_last;
            mlast = m_last;
        }
        m0 = m_ord;
        len = len.div_ceil(2);
    }
    while mlast > 1 {
        bytes += 1;
        mlast = (mlast + 255) >> 8;
    }
    bytes
}

/// For a pair radix `m` (< 2^28): the number of low bytes emitted and the
/// radix left (below 2^14).
#[must_use]
pub(crate) const fn shrink(mut m: u32) -> (usize, u32) {
    let mut n = 0;
    while m >= 16384 {
        m = (m + 255) >> 8;
        n += 1;
    }
    (n, m)
}

macro_rules! set {
    ($(#[$doc:meta])* $ty:ident, $name:literal, p = $p:literal, q = $q:literal, w = $w:literal,
     rq = $rq:literal, rounded = $rd:literal, category = $cat:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $ty;

        impl ParameterSet for $ty {
            const NAME: &'static str = $name;
            const P: usize = $p;
            const Q: i32 = $q;
            const W: usize = $w;
            const RQ_BYTES: usize = $rq;
            const ROUNDED_BYTES: usize = $rd;
            const CATEGORY: u8 = $cat;

            type EkBytes = [u8; $rq];
            type DkBytes = [u8; 3 * ($p + 3) / 4 + $rq + HASH_BYTES];
            type CtBytes = [u8; $rd + HASH_BYTES];
            type EncapsSeed = [u8; 4 * $p];
            type Small = [i8; $p];
            type Fq = [i16; $p];
            type Fq1 = [i16; $p + 1];
            type Small1 = [i8; $p + 1];
            type Pairs1 = [u32; $p + 1];
            type Scratch16 = [i16; 4 * ($p + 15)];
            type Scratch32 = [i32; 4 * ($p + 15)];
            type Words = [u32; $p];
            type Digits = [u16; $p];
        }

        const _: () = {
            assert!(encoded_len($p, $q) == $rq);
            assert!(encoded_len($p, ($q as u32).div_ceil(3)) == $rd);
            assert!($p % 4 == 1 && $p <= MAX_P);
            assert!(3 * ($p + 3) / 4 == 3 * (($p + 3) / 4));
        };
    };
}

set!(
    /// sntrup653 (p = 653, q = 4621, w = 288).
    Sntrup653, "sntrup653", p = 653, q = 4621, w = 288, rq = 994, rounded = 865, category = 1
);
set!(
    /// sntrup761 (p = 761, q = 4591, w = 286).
    Sntrup761, "sntrup761", p = 761, q = 4591, w = 286, rq = 1158, rounded = 1007, category = 2
);
set!(
    /// sntrup857 (p = 857, q = 5167, w = 322).
    Sntrup857, "sntrup857", p = 857, q = 5167, w = 322, rq = 1322, rounded = 1152, category = 3
);
set!(
    /// sntrup953 (p = 953, q = 6343, w = 396).
    Sntrup953, "sntrup953", p = 953, q = 6343, w = 396, rq = 1505, rounded = 1317, category = 4
);
set!(
    /// sntrup1013 (p = 1013, q = 7177, w = 448).
    Sntrup1013, "sntrup1013", p = 1013, q = 7177, w = 448, rq = 1623, rounded = 1423, category = 4
);
set!(
    /// sntrup1277 (p = 1277, q = 7879, w = 492).
    Sntrup1277, "sntrup1277", p = 1277, q = 7879, w = 492, rq = 2067, rounded = 1815, category = 5
);
