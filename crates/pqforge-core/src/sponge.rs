//! A lean one-shot Keccak sponge for the hot paths of every scheme: absorb
//! the concatenation of some byte strings once, then squeeze. It runs on
//! the fastest single-state Keccak-f\[1600\] of the target (the unrolled
//! permutation, with BMI1/BMI2 when the CPU has them, on 64-bit targets; the
//! bit-interleaved 32-bit permutation on 32-bit targets such as the
//! Cortex-M4, converting lanes only as bytes go in or out) and keeps no
//! block buffer (it runs on 4 KB stacks). Constant time; wiped on drop.
//!
//! ```
//! use pqforge_core::sponge::Shake256;
//! let mut x = Shake256::absorb(&[b"ab", b"c"], 0x1F);
//! let mut a = [0u8; 40];
//! x.squeeze(&mut a);
//! let mut b = [0u8; 40];
//! pqforge_core::keccak::shake256(b"abc", &mut b);
//! assert_eq!(a, b);
//! ```

/// The permutation state and its lane access: plain 64-bit lanes and the
/// unrolled permutation (BMI1/BMI2 on x86_64) on 64-bit targets.
#[cfg(not(target_pointer_width = "32"))]
mod state {
    pub(super) type State = [u64; 25];
    pub(super) const ZERO: State = [0; 25];
    pub(super) use crate::keccak_x4::keccak_f1600_unrolled as permute;

    #[inline(always)]
    pub(super) fn xor_lane(s: &mut State, i: usize, x: u64) {
        s[i] ^= x;
    }

    #[inline(always)]
    pub(super) fn lane(s: &State, i: usize) -> u64 {
        s[i]
    }
}

/// 32-bit targets: 50 bit-interleaved words, permuted in place by the
/// 32-bit Keccak; lanes are converted only as bytes go in or out.
#[cfg(target_pointer_width = "32")]
mod state {
    use crate::keccak::{deinterleave, interleave};

    pub(super) type State = [u32; 50];
    pub(super) const ZERO: State = [0; 50];
    pub(super) use crate::keccak::keccak_f1600_words as permute;

    #[inline(always)]
    pub(super) fn xor_lane(s: &mut State, i: usize, x: u64) {
        let v = interleave(x);
        s[2 * i] ^= v as u32;
        s[2 * i + 1] ^= (v >> 32) as u32;
    }

    #[inline(always)]
    pub(super) fn lane(s: &State, i: usize) -> u64 {
        deinterleave((u64::from(s[2 * i + 1]) << 32) | u64::from(s[2 * i]))
    }
}

use state::{State, ZERO, lane, permute, xor_lane};

/// A Keccak sponge of rate `RATE` bytes, already padded and permuted: ready
/// to squeeze.
pub struct Sponge<const RATE: usize> {
    s: State,
    used: bool,
}

impl<const RATE: usize> Drop for Sponge<RATE> {
    fn drop(&mut self) {
        self.s = ZERO;
        core::hint::black_box(&mut self.s);
    }
}

impl<const RATE: usize> Sponge<RATE> {
    /// Absorbs the concatenation of `parts`, then pads with domain byte `ds`.
    /// Whole lanes go straight into the state; stray bytes collect in one
    /// pending lane (no block buffer: this runs on 4 KB stacks).
    #[must_use]
    pub fn absorb(parts: &[&[u8]], ds: u8) -> Self {
        let mut s = ZERO;
        let mut pos = 0;
        let mut pending = 0u64;
        for part in parts {
            let mut p: &[u8] = part;
            while !p.is_empty() {
                if pos == 0 && p.len() >= RATE {
                    // A whole block straight from the input.
                    for (i, w) in p[..RATE].chunks_exact(8).enumerate() {
                        let mut b = [0u8; 8];
                        b.copy_from_slice(w);
                        xor_lane(&mut s, i, u64::from_le_bytes(b));
                    }
                    permute(&mut s);
                    p = &p[RATE..];
                    continue;
                }
                if pos % 8 == 0 && p.len() >= 8 {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(&p[..8]);
                    xor_lane(&mut s, pos / 8, u64::from_le_bytes(b));
                    pos += 8;
                    p = &p[8..];
                } else {
                    pending |= u64::from(p[0]) << (8 * (pos % 8));
                    pos += 1;
                    p = &p[1..];
                    if pos % 8 == 0 {
                        xor_lane(&mut s, pos / 8 - 1, pending);
                        pending = 0;
                    }
                }
                if pos == RATE {
                    permute(&mut s);
                    pos = 0;
                }
            }
        }
        pending |= u64::from(ds) << (8 * (pos % 8));
        xor_lane(&mut s, pos / 8, pending);
        xor_lane(&mut s, RATE / 8 - 1, 0x80 << 56);
        permute(&mut s);
        Self { s, used: false }
    }

    /// Squeezes `out.len() <= RATE` bytes: the next output block's prefix.
    pub fn squeeze_block(&mut self, out: &mut [u8]) {
        debug_assert!(out.len() <= RATE);
        if self.used {
            permute(&mut self.s);
        }
        self.used = true;
        // Whole lanes as fixed 8-byte stores (no `memcpy` call per lane),
        // then the tail of a partial lane.
        let full = out.len() / 8;
        let mut chunks = out.chunks_exact_mut(8);
        for (i, o) in (&mut chunks).enumerate() {
            o.copy_from_slice(&lane(&self.s, i).to_le_bytes());
        }
        let tail = chunks.into_remainder();
        if !tail.is_empty() {
            let w = lane(&self.s, full).to_le_bytes();
            for (o, b) in tail.iter_mut().zip(w) {
                *o = b;
            }
        }
    }

    /// The output stream from the next block on, as little-endian 64-bit
    /// lanes (endless; the state is permuted after every `RATE / 8`
    /// lanes): for consumers that work on words (noise sampling), with no
    /// byte buffer. A later [`Self::squeeze_block`] starts a new block.
    ///
    /// ```
    /// use pqforge_core::sponge::Shake256;
    /// let mut a = [0u8; 200];
    /// pqforge_core::keccak::shake256(b"abc", &mut a);
    /// let mut x = Shake256::absorb(&[b"abc"], 0x1F);
    /// for (l, w) in x.lanes().zip(a.chunks_exact(8)) {
    ///     assert_eq!(l.to_le_bytes(), w);
    /// }
    /// ```
    pub fn lanes(&mut self) -> Lanes<'_, RATE> {
        if self.used {
            permute(&mut self.s);
        }
        self.used = true;
        Lanes { s: self, i: 0 }
    }

    /// Squeezes whole blocks (`out.len()` a multiple of `RATE`) or one
    /// final partial block.
    pub fn squeeze(&mut self, out: &mut [u8]) {
        let mut off = 0;
        while off < out.len() {
            let n = core::cmp::min(RATE, out.len() - off);
            self.squeeze_block(&mut out[off..off + n]);
            off += n;
        }
    }
}

/// The output lanes of a [`Sponge`] (see [`Sponge::lanes`]).
pub struct Lanes<'a, const RATE: usize> {
    s: &'a mut Sponge<RATE>,
    i: usize,
}

impl<const RATE: usize> Iterator for Lanes<'_, RATE> {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.i == RATE / 8 {
            permute(&mut self.s.s);
            self.i = 0;
        }
        let v = lane(&self.s.s, self.i);
        self.i += 1;
        Some(v)
    }
}

/// SHAKE128 (rate 168).
pub type Shake128 = Sponge<168>;
/// SHAKE256 (rate 136).
pub type Shake256 = Sponge<136>;

/// SHA3-256 of the concatenation of `parts`.
#[must_use]
pub fn sha3_256(parts: &[&[u8]]) -> [u8; 32] {
    let mut out = [0u8; 32];
    Sponge::<136>::absorb(parts, 0x06).squeeze_block(&mut out);
    out
}

/// SHA3-512 of the concatenation of `parts`.
#[must_use]
pub fn sha3_512(parts: &[&[u8]]) -> [u8; 64] {
    let mut out = [0u8; 64];
    Sponge::<72>::absorb(parts, 0x06).squeeze_block(&mut out);
    out
}

/// SHAKE256 of the concatenation of `parts`, 32 output bytes.
#[must_use]
pub fn shake256_32(parts: &[&[u8]]) -> [u8; 32] {
    let mut out = [0u8; 32];
    Shake256::absorb(parts, 0x1F).squeeze_block(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keccak;

    #[test]
    fn matches_core_keccak() {
        let data: [u8; 700] = core::array::from_fn(|i| (i * 31 + 7) as u8);
        for len in [
            0usize, 1, 32, 71, 72, 73, 135, 136, 137, 167, 168, 169, 400, 700,
        ] {
            let d = &data[..len];
            let (a, b) = d.split_at(len / 3);
            assert_eq!(sha3_256(&[a, b]), keccak::sha3_256(d), "SHA3-256 {len}");
            assert_eq!(sha3_512(&[a, b]), keccak::sha3_512(d), "SHA3-512 {len}");
            let mut want = [0u8; 32];
            keccak::shake256(d, &mut want);
            assert_eq!(shake256_32(&[a, b]), want, "SHAKE256 {len}");
            let mut x = Shake128::absorb(&[a, b], 0x1F);
            let mut got = [0u8; 504];
            x.squeeze(&mut got);
            let mut want = [0u8; 504];
            keccak::shake128(d, &mut want);
            assert_eq!(got, want, "SHAKE128 {len}");
        }
    }
}
