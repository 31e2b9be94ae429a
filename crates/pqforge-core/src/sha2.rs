//! SHA-2 (FIPS 180-4): SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224 and
//! SHA-512/256.
//!
//! Portable, no heap, no `unsafe` here (the SHA-extension path of
//! [`compress256`] and the multi-lane compressions live in
//! [`crate::sha2_multi`]). Data-independent: the work and every
//! memory index depend only on the message length, never on its bytes, so
//! secret inputs (PRF keys, seeds) may be hashed. The hashers are
//! incremental ([`Sha256Family::update`] any number of times, then
//! [`Sha256Family::finalize`]) and wipe their state on drop.
//!
//! * [`Sha224`], [`Sha256`]: the 32-bit family ([`Sha256Family`]), 64-byte
//!   blocks;
//! * [`Sha384`], [`Sha512`], [`Sha512_224`], [`Sha512_256`]: the 64-bit
//!   family ([`Sha512Family`]), 128-byte blocks. SHA-512/224 and
//!   SHA-512/256 are the SHA-512/t functions of FIPS 180-4 §5.3.6, with
//!   their own initial values (not truncated SHA-512);
//! * one-shot helpers [`sha224`], [`sha256`], [`sha384`], [`sha512`],
//!   [`sha512_224`], [`sha512_256`];
//! * the raw pieces, for code that keeps midstates or runs several lanes at
//!   once (SLH-DSA's SHA-2 sets): the compression functions [`compress256`]
//!   and [`compress512`], the round constants [`K256`] and [`K512`], the
//!   initial values (`IV224` ... `IV512_256`), and
//!   [`Sha256Family::midstate`] / [`Sha256Family::from_midstate`].
//!
//! ```
//! use pqforge_core::sha2::{Sha256, sha256};
//! let mut h = Sha256::new();
//! h.update(b"ab");
//! h.update(b"c");
//! let d = h.finalize();
//! assert_eq!(d, sha256(b"abc"));
//! assert_eq!(d[..4], [0xba, 0x78, 0x16, 0xbf]);
//! ```

use zeroize::Zeroize;

// ------------------------------------------------------------- constants

/// Block length of SHA-224 / SHA-256, in bytes.
pub const BLOCK256: usize = 64;
/// Block length of SHA-384 / SHA-512 / SHA-512/t, in bytes.
pub const BLOCK512: usize = 128;

/// The 64 round constants of SHA-224 / SHA-256 (FIPS 180-4 §4.2.2: the first
/// 32 bits of the fractional parts of the cube roots of the first 64
/// primes).
pub const K256: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// The 80 round constants of SHA-384 / SHA-512 / SHA-512/t (FIPS 180-4
/// §4.2.3: the first 64 bits of the fractional parts of the cube roots of
/// the first 80 primes).
pub const K512: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// Initial hash value of SHA-224 (FIPS 180-4 §5.3.2).
pub const IV224: [u32; 8] = [
    0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4,
];

/// Initial hash value of SHA-256 (FIPS 180-4 §5.3.3).
pub const IV256: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// Initial hash value of SHA-384 (FIPS 180-4 §5.3.4).
pub const IV384: [u64; 8] = [
    0xcbbb9d5dc1059ed8,
    0x629a292a367cd507,
    0x9159015a3070dd17,
    0x152fecd8f70e5939,
    0x67332667ffc00b31,
    0x8eb44a8768581511,
    0xdb0c2e0d64f98fa7,
    0x47b5481dbefa4fa4,
];

/// Initial hash value of SHA-512 (FIPS 180-4 §5.3.5).
pub const IV512: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

/// Initial hash value of SHA-512/224 (FIPS 180-4 §5.3.6.1).
pub const IV512_224: [u64; 8] = [
    0x8c3d37c819544da2,
    0x73e1996689dcd4d6,
    0x1dfab7ae32ff9c82,
    0x679dd514582f9fcf,
    0x0f6d2b697bd44da8,
    0x77e36f7304c48942,
    0x3f9d85a86a1d36c8,
    0x1112e6ad91d692a1,
];

/// Initial hash value of SHA-512/256 (FIPS 180-4 §5.3.6.2).
pub const IV512_256: [u64; 8] = [
    0x22312194fc2bf72c,
    0x9f555fa3c84c64c2,
    0x2393b86b6f53b151,
    0x963877195940eabd,
    0x96283ee2a88effe3,
    0xbe5e1e2553863992,
    0x2b0199fc2c85b8aa,
    0x0eb72ddc81c52ca2,
];

// ---------------------------------------------------- compression functions

/// One round of either family, in place: the roles of the eight working
/// variables rotate from call to call instead of the values moving, so a
/// run of eight calls leaves every variable back in its own role.
/// `$kw` is K\[t\] + W\[t\]; `$s0`, `$s1` are Σ0 and Σ1 of the family.
/// Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), with b ^ c carried in `$bc`
/// from the previous round (whose a ^ b it is, the roles having moved on
/// by one): two operations instead of four.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $bc:ident,
     $kw:expr, $s0:ident, $s1:ident) => {
        let t1 = $h
            .wrapping_add($s1($e))
            .wrapping_add($g ^ ($e & ($f ^ $g))) // Ch(e, f, g)
            .wrapping_add($kw);
        let ab = $a ^ $b;
        let t2 = $s0($a).wrapping_add($b ^ (ab & $bc)); // Maj(a, b, c)
        $bc = ab;
        $d = $d.wrapping_add(t1);
        $h = t1.wrapping_add(t2);
    };
}

/// Eight rounds on the working variables `a`..`h` (which end in their
/// own roles again), with round constants `$k[$t..$t + 8]` and message
/// words from `$wm!($w, i, σ0, σ1)` for i in `$t..$t + 8`: `w_load!` in
/// the first 16 rounds, `w_expand!` after them.
#[rustfmt::skip]
macro_rules! eight_rounds {
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident $bc:ident;
     $k:ident, $wm:ident!($w:ident, $t:expr); $s0:ident, $s1:ident, $ss0:ident, $ss1:ident) => {
        let t = $t;
        round!($a, $b, $c, $d, $e, $f, $g, $h, $bc, $k[t].wrapping_add($wm!($w, t, $ss0, $ss1)), $s0, $s1);
        round!($h, $a, $b, $c, $d, $e, $f, $g, $bc, $k[t + 1].wrapping_add($wm!($w, t + 1, $ss0, $ss1)), $s0, $s1);
        round!($g, $h, $a, $b, $c, $d, $e, $f, $bc, $k[t + 2].wrapping_add($wm!($w, t + 2, $ss0, $ss1)), $s0, $s1);
        round!($f, $g, $h, $a, $b, $c, $d, $e, $bc, $k[t + 3].wrapping_add($wm!($w, t + 3, $ss0, $ss1)), $s0, $s1);
        round!($e, $f, $g, $h, $a, $b, $c, $d, $bc, $k[t + 4].wrapping_add($wm!($w, t + 4, $ss0, $ss1)), $s0, $s1);
        round!($d, $e, $f, $g, $h, $a, $b, $c, $bc, $k[t + 5].wrapping_add($wm!($w, t + 5, $ss0, $ss1)), $s0, $s1);
        round!($c, $d, $e, $f, $g, $h, $a, $b, $bc, $k[t + 6].wrapping_add($wm!($w, t + 6, $ss0, $ss1)), $s0, $s1);
        round!($b, $c, $d, $e, $f, $g, $h, $a, $bc, $k[t + 7].wrapping_add($wm!($w, t + 7, $ss0, $ss1)), $s0, $s1);
    };
}

/// W\[t\] for t < 16 (`$i` = t): the block's word.
macro_rules! w_load {
    ($w:ident, $i:expr, $ss0:ident, $ss1:ident) => {
        $w[$i]
    };
}

/// W\[t\] for t ≥ 16 (`$i` = t mod 16), computed in place over W\[t-16\]
/// (`w[i]` holds W\[t\] for t ≡ i mod 16): W\[t\] = σ1(W\[t-2\]) +
/// W\[t-7\] + σ0(W\[t-15\]) + W\[t-16\].
macro_rules! w_expand {
    ($w:ident, $i:expr, $ss0:ident, $ss1:ident) => {{
        let i = $i;
        $w[i] = $w[i]
            .wrapping_add($ss1($w[(i + 14) & 15]))
            .wrapping_add($w[(i + 9) & 15])
            .wrapping_add($ss0($w[(i + 1) & 15]));
        $w[i]
    }};
}

#[inline(always)]
const fn big_s0_256(x: u32) -> u32 {
    // ROTR 2, 13, 22 nested as ROTR 2 (x ^ ROTR 11 (x ^ ROTR 9 x)): on Arm
    // each inner rotation is the shifted operand of an `eor` and the outer
    // one that of the caller's `add`, two instructions instead of three.
    // The same value everywhere.
    (x ^ (x ^ x.rotate_right(9)).rotate_right(11)).rotate_right(2)
}
#[inline(always)]
const fn big_s1_256(x: u32) -> u32 {
    // ROTR 6, 11, 25, nested as in `big_s0_256`.
    (x ^ (x ^ x.rotate_right(14)).rotate_right(5)).rotate_right(6)
}
#[inline(always)]
const fn small_s0_256(x: u32) -> u32 {
    x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
}
#[inline(always)]
const fn small_s1_256(x: u32) -> u32 {
    x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
}
#[inline(always)]
const fn big_s0_512(x: u64) -> u64 {
    x.rotate_right(28) ^ x.rotate_right(34) ^ x.rotate_right(39)
}
#[inline(always)]
const fn big_s1_512(x: u64) -> u64 {
    x.rotate_right(14) ^ x.rotate_right(18) ^ x.rotate_right(41)
}
#[inline(always)]
const fn small_s0_512(x: u64) -> u64 {
    x.rotate_right(1) ^ x.rotate_right(8) ^ (x >> 7)
}
#[inline(always)]
const fn small_s1_512(x: u64) -> u64 {
    x.rotate_right(19) ^ x.rotate_right(61) ^ (x >> 6)
}

/// The rounds shared by both compression functions, 16 at a time: each
/// group takes its 16 round constants `k` as a `[_; 16]` and the schedule
/// words from the 16-word ring `w`, so every index is a constant.
#[rustfmt::skip]
macro_rules! compress_body {
    ($state:ident, $w:ident, $kk:ident; $s0:ident, $s1:ident; $ss0:ident, $ss1:ident) => {
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *$state;
        let mut bc = b ^ c;
        let (first, rest) = $kk.as_chunks::<16>().0.split_at(1);
        let k = &first[0];
        eight_rounds!(a b c d e f g h bc; k, w_load!($w, 0); $s0, $s1, $ss0, $ss1);
        eight_rounds!(a b c d e f g h bc; k, w_load!($w, 8); $s0, $s1, $ss0, $ss1);
        for k in rest {
            eight_rounds!(a b c d e f g h bc; k, w_expand!($w, 0); $s0, $s1, $ss0, $ss1);
            eight_rounds!(a b c d e f g h bc; k, w_expand!($w, 8); $s0, $s1, $ss0, $ss1);
        }
        for (s, x) in $state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *s = s.wrapping_add(x);
        }
    };
}

/// The SHA-256 compression function (FIPS 180-4 §6.2.2 steps 1-4): absorbs
/// one 64-byte block into the chaining value `state` (shared by SHA-224
/// and SHA-256; only the initial value differs).
///
/// Starting from [`IV256`] and feeding the padded message block by block
/// gives SHA-256; stopping early gives a midstate to continue from.
///
/// Uses the SHA extensions when the CPU has them ([`crate::cpu::sha_ni`];
/// not in builds with `--cfg pqforge_backend="portable"`), otherwise
/// [`compress256_portable`]. Both are constant time.
///
/// ```
/// use pqforge_core::sha2::{IV256, compress256, compress256_portable};
/// let block = [0x5a; 64];
/// let (mut x, mut y) = (IV256, IV256);
/// compress256(&mut x, &block);
/// compress256_portable(&mut y, &block);
/// assert_eq!(x, y);
/// ```
#[inline]
pub fn compress256(state: &mut [u32; 8], block: &[u8; 64]) {
    if !crate::sha2_multi::compress256_accel(state, block) {
        compress256_portable(state, block);
    }
}

/// The portable SHA-256 compression function: the reference for
/// [`compress256`] (same result on every input).
pub fn compress256_portable(state: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = [0u32; 16];
    for (wt, c) in w.iter_mut().zip(block.as_chunks::<4>().0) {
        *wt = u32::from_be_bytes(*c);
    }
    compress_body!(state, w, K256; big_s0_256, big_s1_256; small_s0_256, small_s1_256);
}

/// The SHA-512 compression function (FIPS 180-4 §6.4.2 steps 1-4): absorbs
/// one 128-byte block into the chaining value `state` (shared by SHA-384,
/// SHA-512 and SHA-512/t; only the initial value differs).
pub fn compress512(state: &mut [u64; 8], block: &[u8; 128]) {
    let mut w = [0u64; 16];
    for (wt, c) in w.iter_mut().zip(block.as_chunks::<8>().0) {
        *wt = u64::from_be_bytes(*c);
    }
    compress_body!(state, w, K512; big_s0_512, big_s1_512; small_s0_512, small_s1_512);
}

// ------------------------------------------------------- streaming hashers

/// Generates one streaming family: the struct, its methods and trait impls.
macro_rules! family {
    (
        $(#[$doc:meta])*
        $name:ident, $word:ty, $block:expr, $compress:ident, $len_bytes:expr,
        iv: { $($out:literal => $iv:ident),+ }
    ) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name<const OUT: usize> {
            state: [$word; 8],
            buf: [u8; $block],
            /// Bytes waiting in `buf` (always less than a block).
            buffered: usize,
            /// Message bytes absorbed so far (a `u64` count: FIPS 180-4
            /// allows longer messages, but no caller has 2^64 bytes).
            len: u64,
        }

        impl<const OUT: usize> $name<OUT> {
            /// The initial value for this output length (a compile-time
            /// error for any other length).
            const IV: [$word; 8] = match OUT {
                $($out => $iv,)+
                _ => panic!("no SHA-2 function with this output length"),
            };

            /// Digest length in bytes.
            pub const OUTPUT_BYTES: usize = OUT;
            /// Block length in bytes.
            pub const BLOCK_BYTES: usize = $block;

            /// A fresh hasher (the function's initial value, nothing
            /// absorbed).
            #[must_use]
            pub const fn new() -> Self {
                Self::from_midstate(Self::IV, 0)
            }

            /// Continues from a chaining value `state` reached after
            /// absorbing `blocks` whole blocks (as returned by
            /// [`Self::midstate`], or computed with the raw compression
            /// function from this function's initial value). The block
            /// count enters the final length field.
            #[must_use]
            pub const fn from_midstate(state: [$word; 8], blocks: u64) -> Self {
                Self {
                    state,
                    buf: [0; $block],
                    buffered: 0,
                    len: blocks.wrapping_mul($block as u64),
                }
            }

            /// The chaining value and the number of whole blocks absorbed,
            /// if the bytes absorbed so far fill whole blocks (`None` while
            /// a partial block is buffered). [`Self::from_midstate`]
            /// continues from it.
            #[must_use]
            pub fn midstate(&self) -> Option<([$word; 8], u64)> {
                (self.buffered == 0).then_some((self.state, self.len / $block as u64))
            }

            /// Absorbs `data`.
            pub fn update(&mut self, mut data: &[u8]) {
                self.len = self.len.wrapping_add(data.len() as u64);
                if self.buffered > 0 {
                    let n = core::cmp::min($block - self.buffered, data.len());
                    let (head, rest) = data.split_at(n);
                    self.buf[self.buffered..self.buffered + n].copy_from_slice(head);
                    self.buffered += n;
                    data = rest;
                    if self.buffered < $block {
                        return;
                    }
                    $compress(&mut self.state, &self.buf);
                    self.buffered = 0;
                }
                let (blocks, tail) = data.as_chunks::<$block>();
                for b in blocks {
                    $compress(&mut self.state, b);
                }
                self.buf[..tail.len()].copy_from_slice(tail);
                self.buffered = tail.len();
            }

            /// Pads, absorbs the last block(s) and writes the digest (the
            /// leftmost `OUT` bytes of the big-endian chaining value).
            pub fn finalize_into(mut self, out: &mut [u8; OUT]) {
                let bits = u128::from(self.len) << 3;
                let mut n = self.buffered;
                self.buf[n] = 0x80;
                n += 1;
                if n > $block - $len_bytes {
                    self.buf[n..].fill(0);
                    $compress(&mut self.state, &self.buf);
                    n = 0;
                }
                self.buf[n..$block - $len_bytes].fill(0);
                self.buf[$block - $len_bytes..]
                    .copy_from_slice(&bits.to_be_bytes()[16 - $len_bytes..]);
                $compress(&mut self.state, &self.buf);
                for (o, s) in out.chunks_mut(core::mem::size_of::<$word>()).zip(self.state) {
                    o.copy_from_slice(&s.to_be_bytes()[..o.len()]);
                }
            }

            /// Pads and returns the digest.
            #[must_use]
            pub fn finalize(self) -> [u8; OUT] {
                let mut out = [0u8; OUT];
                self.finalize_into(&mut out);
                out
            }

            /// The digest of `data` in one call.
            #[must_use]
            pub fn digest(data: &[u8]) -> [u8; OUT] {
                let mut h = Self::new();
                h.update(data);
                h.finalize()
            }
        }

        impl<const OUT: usize> Default for $name<OUT> {
            fn default() -> Self {
                Self::new()
            }
        }

        impl<const OUT: usize> Drop for $name<OUT> {
            fn drop(&mut self) {
                self.state.zeroize();
                self.buf.zeroize();
            }
        }

        impl<const OUT: usize> core::fmt::Debug for $name<OUT> {
            /// Names the function only (the state may derive from secrets).
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("output_bytes", &OUT)
                    .finish_non_exhaustive()
            }
        }
    };
}

family! {
    /// The SHA-256 family (32-bit words, 64-byte blocks, 64-bit length
    /// field) with an `OUT`-byte digest: [`Sha224`] (`OUT` = 28) or
    /// [`Sha256`] (32). Other lengths do not compile. The state is wiped on
    /// drop.
    ///
    /// ```compile_fail
    /// let h = pqforge_core::sha2::Sha256Family::<20>::new(); // no SHA-160
    /// ```
    Sha256Family, u32, BLOCK256, compress256, 8,
    iv: { 28 => IV224, 32 => IV256 }
}

family! {
    /// The SHA-512 family (64-bit words, 128-byte blocks, 128-bit length
    /// field) with an `OUT`-byte digest: [`Sha512_224`] (`OUT` = 28),
    /// [`Sha512_256`] (32), [`Sha384`] (48) or [`Sha512`] (64). Other
    /// lengths do not compile. The state is wiped on drop.
    Sha512Family, u64, BLOCK512, compress512, 16,
    iv: { 28 => IV512_224, 32 => IV512_256, 48 => IV384, 64 => IV512 }
}

/// SHA-224 (FIPS 180-4): 28-byte digests.
pub type Sha224 = Sha256Family<28>;
/// SHA-256 (FIPS 180-4): 32-byte digests.
pub type Sha256 = Sha256Family<32>;
/// SHA-384 (FIPS 180-4): 48-byte digests.
pub type Sha384 = Sha512Family<48>;
/// SHA-512 (FIPS 180-4): 64-byte digests.
pub type Sha512 = Sha512Family<64>;
/// SHA-512/224 (FIPS 180-4 §5.3.6, its own initial value): 28-byte digests.
pub type Sha512_224 = Sha512Family<28>;
/// SHA-512/256 (FIPS 180-4 §5.3.6, its own initial value): 32-byte digests.
pub type Sha512_256 = Sha512Family<32>;

/// SHA-224 of `data`.
#[must_use]
pub fn sha224(data: &[u8]) -> [u8; 28] {
    Sha224::digest(data)
}

/// SHA-256 of `data`.
#[must_use]
pub fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data)
}

/// SHA-384 of `data`.
#[must_use]
pub fn sha384(data: &[u8]) -> [u8; 48] {
    Sha384::digest(data)
}

/// SHA-512 of `data`.
#[must_use]
pub fn sha512(data: &[u8]) -> [u8; 64] {
    Sha512::digest(data)
}

/// SHA-512/224 of `data`.
#[must_use]
pub fn sha512_224(data: &[u8]) -> [u8; 28] {
    Sha512_224::digest(data)
}

/// SHA-512/256 of `data`.
#[must_use]
pub fn sha512_256(data: &[u8]) -> [u8; 32] {
    Sha512_256::digest(data)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;

    const M448: &[u8] = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    const M896: &[u8] = b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
            .collect()
    }

    /// The six functions through one signature: (name, one-shot digest).
    type Oneshot = fn(&[u8]) -> Vec<u8>;
    const ALL: [(&str, Oneshot); 6] = [
        ("SHA-224", |m| sha224(m).to_vec()),
        ("SHA-256", |m| sha256(m).to_vec()),
        ("SHA-384", |m| sha384(m).to_vec()),
        ("SHA-512", |m| sha512(m).to_vec()),
        ("SHA-512/224", |m| sha512_224(m).to_vec()),
        ("SHA-512/256", |m| sha512_256(m).to_vec()),
    ];

    /// The FIPS 180-4 examples (NIST CSRC "Examples with Intermediate
    /// Values") and the other classic vectors: "abc", the 448-bit and
    /// 896-bit messages, the empty message, one million 'a'. Digests in
    /// the order of [`ALL`].
    #[rustfmt::skip]
    const VECTORS: [(&[u8], [&str; 6]); 4] = [
        (b"abc", [
            "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa",
            "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
        ]),
        (b"", [
            "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b",
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
            "6ed0dd02806fa89e25de060c19d3ac86cabb87d6a0ddd05c333b84f4",
            "c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a",
        ]),
        (M448, [
            "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b",
            "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445",
            "e5302d6d54bb242275d1e7622d68df6eb02dedd13f564c13dbda2174",
            "bde8e1f9f19bb9fd3406c90ec6bc47bd36d8ada9f11880dbc8a22a7078b6a461",
        ]),
        (M896, [
            "c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
            "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
            "23fec5bb94d60b23308192640b0c453335d664734fe40e7268674af9",
            "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a",
        ]),
    ];

    #[rustfmt::skip]
    const MILLION_A: [&str; 6] = [
        "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67",
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
        "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985",
        "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
        "37ab331d76f0d36de422bd0edeb22a28accd487b7a8453ae965dd287",
        "9a59a052930187a97038cae692f30708aa6491923ef5194394dc68d56c74fb21",
    ];

    #[test]
    fn fips180_examples() {
        for (msg, want) in VECTORS {
            for ((name, f), w) in ALL.iter().zip(want) {
                assert_eq!(f(msg), hex(w), "{name} of {:?}", std::str::from_utf8(msg));
            }
        }
    }

    /// One million 'a', fed 1000 bytes at a time (and the one-shot helper
    /// on the whole buffer for SHA-256 and SHA-512).
    #[test]
    #[cfg_attr(miri, ignore = "a million bytes: too slow under Miri")]
    fn million_a() {
        let chunk = [b'a'; 1000];
        let mut h224 = Sha224::new();
        let mut h256 = Sha256::new();
        let mut h384 = Sha384::new();
        let mut h512 = Sha512::new();
        let mut h512_224 = Sha512_224::new();
        let mut h512_256 = Sha512_256::new();
        for _ in 0..1000 {
            h224.update(&chunk);
            h256.update(&chunk);
            h384.update(&chunk);
            h512.update(&chunk);
            h512_224.update(&chunk);
            h512_256.update(&chunk);
        }
        let got: [Vec<u8>; 6] = [
            h224.finalize().to_vec(),
            h256.finalize().to_vec(),
            h384.finalize().to_vec(),
            h512.finalize().to_vec(),
            h512_224.finalize().to_vec(),
            h512_256.finalize().to_vec(),
        ];
        for ((g, w), (name, _)) in got.iter().zip(MILLION_A).zip(ALL) {
            assert_eq!(*g, hex(w), "{name} of a million 'a'");
        }
        let whole = std::vec![b'a'; 1_000_000];
        assert_eq!(sha256(&whole).to_vec(), hex(MILLION_A[1]));
        assert_eq!(sha512(&whole).to_vec(), hex(MILLION_A[3]));
    }

    /// splitmix64: a small deterministic generator for the random tests.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e3779b97f4a7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Feeds `msg` to `update` in random pieces (empty ones included).
    fn split(rng: &mut Rng, msg: &[u8], mut update: impl FnMut(&[u8])) {
        let mut rest = msg;
        while !rest.is_empty() {
            let n = match rng.below(4) {
                0 => 0,
                1 => rng.below(8),
                2 => rng.below(200),
                _ => rng.below(rest.len() + 1),
            }
            .min(rest.len());
            let (a, b) = rest.split_at(n);
            update(a);
            rest = b;
        }
        if rng.below(2) == 0 {
            update(&[]);
        }
    }

    /// Streaming digest of `msg` in random pieces with `H`, as a `Vec`.
    macro_rules! ours {
        ($ty:ty, $rng:expr, $msg:expr) => {{
            let mut h = <$ty>::new();
            split($rng, $msg, |c| h.update(c));
            h.finalize().to_vec()
        }};
    }

    /// Against RustCrypto's `sha2`: lengths 0..1000 (all of 0..300 and
    /// random ones up to 1000, so every padding case of both block sizes
    /// is met), each fed in random pieces, for all six functions; the
    /// one-shot helpers and [`crate::HashAlg::digest`] too.
    #[test]
    fn differential_vs_rustcrypto() {
        use ::sha2::Digest;
        let mut rng = Rng(0x5ba2_2024);
        // Under Miri every length up to two SHA-512 blocks with a stride.
        let step = if cfg!(miri) { 37 } else { 1 };
        let mut lens: Vec<usize> = (0..300).step_by(step).collect();
        lens.extend((0..300 / step).map(|_| rng.below(1000)));
        for len in lens {
            let msg: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            let want: [Vec<u8>; 6] = [
                ::sha2::Sha224::digest(&msg).to_vec(),
                ::sha2::Sha256::digest(&msg).to_vec(),
                ::sha2::Sha384::digest(&msg).to_vec(),
                ::sha2::Sha512::digest(&msg).to_vec(),
                ::sha2::Sha512_224::digest(&msg).to_vec(),
                ::sha2::Sha512_256::digest(&msg).to_vec(),
            ];
            let got: [Vec<u8>; 6] = [
                ours!(Sha224, &mut rng, &msg),
                ours!(Sha256, &mut rng, &msg),
                ours!(Sha384, &mut rng, &msg),
                ours!(Sha512, &mut rng, &msg),
                ours!(Sha512_224, &mut rng, &msg),
                ours!(Sha512_256, &mut rng, &msg),
            ];
            for (((g, w), (name, f)), i) in got.iter().zip(&want).zip(ALL).zip(0..) {
                assert_eq!(g, w, "{name}, {len} bytes, streamed");
                assert_eq!(&f(&msg), w, "{name}, {len} bytes, one-shot");
                let h = crate::HashAlg::SHA2[i];
                let mut out = [0u8; 64];
                let n = h.digest(&msg, &mut out).expect("digest");
                assert_eq!(&out[..n], &w[..], "HashAlg::{h:?}, {len} bytes");
            }
        }
    }

    /// FIPS 180-4 §5.3.6: the SHA-512/t initial value is SHA-512, started
    /// from IV512 with every word XORed with 0xa5a5a5a5a5a5a5a5, of the
    /// string "SHA-512/t".
    #[test]
    fn sha512_t_iv_generation() {
        fn gen_iv(name: &[u8]) -> [u64; 8] {
            let mut h = Sha512::from_midstate(IV512.map(|w| w ^ 0xa5a5_a5a5_a5a5_a5a5), 0);
            h.update(name);
            let d = h.finalize();
            let mut iv = [0u64; 8];
            for (w, c) in iv.iter_mut().zip(d.as_chunks::<8>().0) {
                *w = u64::from_be_bytes(*c);
            }
            iv
        }
        assert_eq!(gen_iv(b"SHA-512/224"), IV512_224);
        assert_eq!(gen_iv(b"SHA-512/256"), IV512_256);
    }

    /// Midstates: the raw compression function from the IV, the hasher's
    /// [`Sha256Family::midstate`], and continuing with
    /// [`Sha256Family::from_midstate`] give the plain digest.
    #[test]
    fn midstates() {
        fn finish<const N: usize>(st: [u64; 8], rest: &[u8]) -> [u8; N] {
            let mut h = Sha512Family::<N>::from_midstate(st, 2);
            h.update(rest);
            let mut out = [0u8; N];
            h.finalize_into(&mut out);
            out
        }
        let msg: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        // SHA-256: one block by hand, then continue.
        let mut st = IV256;
        compress256(&mut st, msg[..64].try_into().expect("64"));
        let mut h = Sha256::new();
        h.update(&msg[..64]);
        assert_eq!(h.midstate(), Some((st, 1)));
        h.update(&msg[64..65]);
        assert_eq!(h.midstate(), None);
        let mut c = Sha256::from_midstate(st, 1);
        c.update(&msg[64..]);
        assert_eq!(c.finalize(), sha256(&msg));
        // SHA-224 shares the compression function, not the IV.
        let mut st = IV224;
        compress256(&mut st, msg[..64].try_into().expect("64"));
        compress256(&mut st, msg[64..128].try_into().expect("64"));
        let mut c = Sha224::from_midstate(st, 2);
        c.update(&msg[128..]);
        assert_eq!(c.finalize(), sha224(&msg));
        // SHA-512 family: two blocks by hand.
        for (iv, out) in [
            (IV384, sha384(&msg).to_vec()),
            (IV512, sha512(&msg).to_vec()),
            (IV512_224, sha512_224(&msg).to_vec()),
            (IV512_256, sha512_256(&msg).to_vec()),
        ] {
            let mut st = iv;
            compress512(&mut st, msg[..128].try_into().expect("128"));
            compress512(&mut st, msg[128..256].try_into().expect("128"));
            let rest = &msg[256..];
            let got = match out.len() {
                28 => finish::<28>(st, rest).to_vec(),
                32 => finish::<32>(st, rest).to_vec(),
                48 => finish::<48>(st, rest).to_vec(),
                _ => finish::<64>(st, rest).to_vec(),
            };
            assert_eq!(got, out);
        }
    }
}
