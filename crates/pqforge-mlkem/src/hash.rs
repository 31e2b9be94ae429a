//! The hash functions of FIPS 203 §4.1 on the fastest single-state
//! Keccak-f\[1600\] available (BMI1/BMI2 when the CPU has them, the
//! bit-interleaved 32-bit permutation on 32-bit targets): H = SHA3-256,
//! G = SHA3-512, J = SHAKE256 with 32-byte output, and one-lane SHAKE128 /
//! SHAKE256 readers (SampleNTT and PRF). All constant time; states are
//! wiped on drop.

/// The permutation state and its lane access: plain 64-bit lanes and the
/// unrolled permutation (BMI1/BMI2 on x86_64) on 64-bit targets.
#[cfg(not(target_pointer_width = "32"))]
mod state {
    pub(super) type State = [u64; 25];
    pub(super) const ZERO: State = [0; 25];
    pub(super) use pqforge_core::keccak_x4::keccak_f1600_unrolled as permute;

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
    use pqforge_core::keccak::{deinterleave, interleave};

    pub(super) type State = [u32; 50];
    pub(super) const ZERO: State = [0; 50];
    pub(super) use pqforge_core::keccak::keccak_f1600_words as permute;

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
pub(crate) struct Sponge<const RATE: usize> {
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
    pub(crate) fn absorb(parts: &[&[u8]], ds: u8) -> Self {
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
    pub(crate) fn squeeze_block(&mut self, out: &mut [u8]) {
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

    /// Squeezes whole blocks (`out.len()` a multiple of `RATE`) or one
    /// final partial block.
    pub(crate) fn squeeze(&mut self, out: &mut [u8]) {
        let mut off = 0;
        while off < out.len() {
            let n = core::cmp::min(RATE, out.len() - off);
            self.squeeze_block(&mut out[off..off + n]);
            off += n;
        }
    }
}

/// SHAKE128 (rate 168).
pub(crate) type Shake128 = Sponge<168>;
/// SHAKE256 (rate 136).
pub(crate) type Shake256 = Sponge<136>;

/// H(s) = SHA3-256(s).
pub(crate) fn h(data: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    Sponge::<136>::absorb(&[data], 0x06).squeeze_block(&mut out);
    out
}

/// G(parts) = SHA3-512 of the concatenation.
pub(crate) fn g(parts: &[&[u8]]) -> [u8; 64] {
    let mut out = [0u8; 64];
    Sponge::<72>::absorb(parts, 0x06).squeeze_block(&mut out);
    out
}

/// J(z || c) = SHAKE256(z || c, 32 bytes).
pub(crate) fn j(z: &[u8], c: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    Shake256::absorb(&[z, c], 0x1F).squeeze_block(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqforge_core::keccak;

    #[test]
    fn matches_core_keccak() {
        let data: [u8; 700] = core::array::from_fn(|i| (i * 31 + 7) as u8);
        for len in [
            0usize, 1, 32, 71, 72, 73, 135, 136, 137, 167, 168, 169, 400, 700,
        ] {
            let d = &data[..len];
            assert_eq!(h(d), keccak::sha3_256(d), "H {len}");
            let (a, b) = d.split_at(len / 3);
            assert_eq!(g(&[a, b]), keccak::sha3_512(d), "G {len}");
            let mut want = [0u8; 32];
            keccak::shake256(d, &mut want);
            assert_eq!(j(a, b), want, "J {len}");
            let mut x = Shake128::absorb(&[a, b], 0x1F);
            let mut got = [0u8; 504];
            x.squeeze(&mut got);
            let mut want = [0u8; 504];
            keccak::shake128(d, &mut want);
            assert_eq!(got, want, "SHAKE128 {len}");
        }
    }
}
