//! HMAC (FIPS 198-1, RFC 2104) and MGF1 (RFC 8017 §B.2.1) over SHA-256 and
//! SHA-512: the PRF_msg and H_msg of SLH-DSA's SHA2 parameter sets
//! (FIPS 205 §11.2).
//!
//! Constant time in the key and the data (fixed-size blocks, no branch on
//! a value); the key blocks are wiped after use. `no_std`, no heap.
//!
//! ```
//! use pqforge_core::hmac::{HmacSha256, mgf1_sha256};
//! let mut m = HmacSha256::new(b"Jefe");
//! m.update(b"what do ya ");
//! m.update(b"want for nothing?");
//! assert_eq!(m.finalize()[..4], [0x5b, 0xdc, 0xc1, 0x46]);
//! let mut mask = [0u8; 40];
//! mgf1_sha256(&[b"seed"], &mut mask);
//! ```

use crate::ct::wipe;
use crate::sha2::{Sha256, Sha512};

/// Generates an HMAC type and an MGF1 function for one SHA-2 function.
macro_rules! hmac {
    ($(#[$doc:meta])* $name:ident, $mgf1:ident, $hash:ty, $block:expr, $out:expr) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            inner: $hash,
            outer: $hash,
        }

        impl $name {
            /// Output length in bytes.
            pub const OUTPUT_BYTES: usize = $out;

            /// A MAC keyed with `key` (a key longer than the block is
            /// hashed first, as the standard says).
            #[must_use]
            pub fn new(key: &[u8]) -> Self {
                let mut k = [0u8; $block];
                if key.len() > $block {
                    k[..$out].copy_from_slice(&<$hash>::digest(key));
                } else {
                    k[..key.len()].copy_from_slice(key);
                }
                let mut pad = [0u8; $block];
                for (p, k) in pad.iter_mut().zip(&k) {
                    *p = k ^ 0x36;
                }
                let mut inner = <$hash>::new();
                inner.update(&pad);
                for (p, k) in pad.iter_mut().zip(&k) {
                    *p = k ^ 0x5c;
                }
                let mut outer = <$hash>::new();
                outer.update(&pad);
                wipe(&mut k);
                wipe(&mut pad);
                Self { inner, outer }
            }

            /// Absorbs `data`.
            pub fn update(&mut self, data: &[u8]) {
                self.inner.update(data);
            }

            /// The tag.
            #[must_use]
            pub fn finalize(self) -> [u8; $out] {
                let Self { inner, mut outer } = self;
                let mut t = inner.finalize();
                outer.update(&t);
                wipe(&mut t);
                outer.finalize()
            }

            /// The tag of the concatenation of `parts` under `key`.
            #[must_use]
            pub fn mac(key: &[u8], parts: &[&[u8]]) -> [u8; $out] {
                let mut m = Self::new(key);
                for p in parts {
                    m.update(p);
                }
                m.finalize()
            }
        }

        #[doc = concat!("MGF1 over ", stringify!($hash), ": fills `out` with the hashes of the seed (the")]
        /// concatenation of `seed`) followed by a 4-byte big-endian counter
        /// 0, 1, ..., truncated to `out.len()` bytes.
        pub fn $mgf1(seed: &[&[u8]], out: &mut [u8]) {
            // A counted loop, not `chunks_mut` (whose count is a division).
            let mut c = 0u32;
            let mut rest: &mut [u8] = out;
            while !rest.is_empty() {
                let mut h = <$hash>::new();
                for s in seed {
                    h.update(s);
                }
                h.update(&c.to_be_bytes());
                let mut d = h.finalize();
                let n = core::cmp::min($out, rest.len());
                let (chunk, tail) = core::mem::take(&mut rest).split_at_mut(n);
                chunk.copy_from_slice(&d[..n]);
                wipe(&mut d);
                rest = tail;
                c = c.wrapping_add(1);
            }
        }
    };
}

hmac!(
    /// HMAC-SHA-256.
    HmacSha256, mgf1_sha256, Sha256, 64, 32
);
hmac!(
    /// HMAC-SHA-512.
    HmacSha512, mgf1_sha512, Sha512, 128, 64
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Hex to bytes (up to 128), without a heap: the buffer and the length.
    fn unhex(s: &str) -> ([u8; 128], usize) {
        let mut out = [0u8; 128];
        let n = s.len() / 2;
        for (i, o) in out.iter_mut().enumerate().take(n) {
            *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap_or(0);
        }
        (out, n)
    }

    fn bytes(h: &([u8; 128], usize)) -> &[u8] {
        &h.0[..h.1]
    }

    /// RFC 4231 test cases 1, 2 and 6 (the last with a 131-byte key, longer
    /// than either block).
    #[test]
    fn rfc4231() {
        let long = [0xaau8; 131];
        let cases: [(&[u8], &[u8], &str, &str); 3] = [
            (
                &[0x0b; 20],
                b"Hi There",
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
                "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde\
                 daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
            ),
            (
                b"Jefe",
                b"what do ya want for nothing?",
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
                "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554\
                 9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
            ),
            (
                &long,
                b"Test Using Larger Than Block-Size Key - Hash Key First",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
                "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352\
                 6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
            ),
        ];
        for (key, data, want256, want512) in cases {
            let (a, b) = data.split_at(data.len() / 3);
            assert_eq!(HmacSha256::mac(key, &[a, b])[..], *bytes(&unhex(want256)));
            assert_eq!(HmacSha512::mac(key, &[a, b])[..], *bytes(&unhex(want512)));
        }
    }

    /// MGF1 against values from Python's hashlib (a second implementation),
    /// with a seed split across parts and outputs that end mid-block.
    #[test]
    fn mgf1_known_values() {
        let mut a = [0u8; 40];
        mgf1_sha256(&[b"pqforge ", b"mgf1 seed"], &mut a);
        let want = unhex(
            "a9e40c3eb2016f87ed34d8739f4aabef7288213b95dd913350ace941c7b87a92\
             e096820c8fd863ee",
        );
        assert_eq!(a[..], *bytes(&want));
        let mut b = [0u8; 70];
        mgf1_sha512(&[b"pqforge mgf1 seed"], &mut b);
        let want = unhex(
            "c2fba6c4491be0f97481e8cfd72232ff752465017a16b13c35c5d4718b027777\
             1c575e8b1e355291ee83c75342003ce855f15dfef519790c1a0cc748e627cee0\
             bc8cb32b42a7",
        );
        assert_eq!(b[..], *bytes(&want));
    }
}
