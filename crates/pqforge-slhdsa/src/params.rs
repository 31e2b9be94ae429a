//! The twelve parameter sets (FIPS 205 §11, Table 2).

use crate::hash::{HashSuite, Sha2Cat1, Sha2Cat35, Shake};

/// One SLH-DSA parameter set.
pub trait ParameterSet {
    /// Name, e.g. `slh-dsa-shake-128f`.
    const NAME: &'static str;
    /// Security parameter: bytes per hash value.
    const N: usize;
    /// Total hypertree height.
    const H: usize;
    /// Hypertree layers.
    const D: usize;
    /// Height of one XMSS tree, h / d.
    const HP: usize;
    /// FORS tree height.
    const A: usize;
    /// FORS trees.
    const K: usize;
    /// Digest bytes of H_msg.
    const M: usize;
    /// The hash suite.
    type Hash: HashSuite;
    /// Scratch for the bottom-up tree computation: max(a, h') + 2 nodes of
    /// n bytes (sized per set, so that the Cortex-M4 stack holds no more
    /// than the set needs).
    type TreeStack: TreeStack;
    /// WOTS+ message chains: 2n (lg w = 4).
    const LEN1: usize = 2 * Self::N;
    /// WOTS+ chains: len1 + 3.
    const LEN: usize = Self::LEN1 + 3;
    /// Public key bytes.
    const PK_BYTES: usize = 2 * Self::N;
    /// Secret key bytes.
    const SK_BYTES: usize = 4 * Self::N;
    /// Signature bytes: (1 + k (1 + a) + h + d len) n.
    const SIG_BYTES: usize =
        (1 + Self::K * (1 + Self::A) + Self::H + Self::D * Self::LEN) * Self::N;
}

/// A zeroed byte buffer of a fixed size.
pub trait TreeStack: AsMut<[u8]> {
    /// All zeros.
    fn zeroed() -> Self;
}

impl<const L: usize> TreeStack for [u8; L] {
    fn zeroed() -> Self {
        [0; L]
    }
}

/// The larger of two sizes (for array lengths).
const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

macro_rules! set {
    ($ty:ident, $name:literal, $hash:ty, $n:expr, $h:expr, $d:expr, $a:expr, $k:expr, $m:expr) => {
        #[doc = concat!("`", $name, "`.")]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $ty;
        impl ParameterSet for $ty {
            const NAME: &'static str = $name;
            const N: usize = $n;
            const H: usize = $h;
            const D: usize = $d;
            const HP: usize = $h / $d;
            const A: usize = $a;
            const K: usize = $k;
            const M: usize = $m;
            type Hash = $hash;
            type TreeStack = [u8; (max($a, $h / $d) + 2) * $n];
        }
    };
}

set!(
    SlhDsaSha2_128s,
    "slh-dsa-sha2-128s",
    Sha2Cat1,
    16,
    63,
    7,
    12,
    14,
    30
);
set!(
    SlhDsaSha2_128f,
    "slh-dsa-sha2-128f",
    Sha2Cat1,
    16,
    66,
    22,
    6,
    33,
    34
);
set!(
    SlhDsaSha2_192s,
    "slh-dsa-sha2-192s",
    Sha2Cat35,
    24,
    63,
    7,
    14,
    17,
    39
);
set!(
    SlhDsaSha2_192f,
    "slh-dsa-sha2-192f",
    Sha2Cat35,
    24,
    66,
    22,
    8,
    33,
    42
);
set!(
    SlhDsaSha2_256s,
    "slh-dsa-sha2-256s",
    Sha2Cat35,
    32,
    64,
    8,
    14,
    22,
    47
);
set!(
    SlhDsaSha2_256f,
    "slh-dsa-sha2-256f",
    Sha2Cat35,
    32,
    68,
    17,
    9,
    35,
    49
);
set!(
    SlhDsaShake128s,
    "slh-dsa-shake-128s",
    Shake,
    16,
    63,
    7,
    12,
    14,
    30
);
set!(
    SlhDsaShake128f,
    "slh-dsa-shake-128f",
    Shake,
    16,
    66,
    22,
    6,
    33,
    34
);
set!(
    SlhDsaShake192s,
    "slh-dsa-shake-192s",
    Shake,
    24,
    63,
    7,
    14,
    17,
    39
);
set!(
    SlhDsaShake192f,
    "slh-dsa-shake-192f",
    Shake,
    24,
    66,
    22,
    8,
    33,
    42
);
set!(
    SlhDsaShake256s,
    "slh-dsa-shake-256s",
    Shake,
    32,
    64,
    8,
    14,
    22,
    47
);
set!(
    SlhDsaShake256f,
    "slh-dsa-shake-256f",
    Shake,
    32,
    68,
    17,
    9,
    35,
    49
);
