//! The hash functions of FIPS 203 §4.1 on the fastest single-state
//! Keccak-f\[1600\] available ([`keccak_f1600_unrolled`]: BMI1/BMI2 when the
//! CPU has them): H = SHA3-256, G = SHA3-512, J = SHAKE256 with 32-byte
//! output, and a one-lane SHAKE128/SHAKE256 reader for the rare single
//! SampleNTT/PRF call. All constant time; states are wiped on drop.

use pqforge_core::keccak_x4::keccak_f1600_unrolled;

use crate::poly::wipe;

/// A Keccak sponge of rate `RATE` bytes, already padded and permuted: ready
/// to squeeze.
pub(crate) struct Sponge<const RATE: usize> {
    s: [u64; 25],
    used: bool,
}

impl<const RATE: usize> Drop for Sponge<RATE> {
    fn drop(&mut self) {
        self.s = [0; 25];
        core::hint::black_box(&mut self.s);
    }
}

fn xor_block(s: &mut [u64; 25], block: &[u8]) {
    for (i, w) in s.iter_mut().enumerate().take(block.len() / 8) {
        let mut b = [0u8; 8];
        b.copy_from_slice(&block[8 * i..8 * i + 8]);
        *w ^= u64::from_le_bytes(b);
    }
}

impl<const RATE: usize> Sponge<RATE> {
    /// Absorbs the concatenation of `parts`, then pads with domain byte `ds`.
    pub(crate) fn absorb(parts: &[&[u8]], ds: u8) -> Self {
        let mut s = [0u64; 25];
        let mut buf = [0u8; 168];
        let mut pos = 0;
        for part in parts {
            let mut p: &[u8] = part;
            while !p.is_empty() {
                if pos == 0 && p.len() >= RATE {
                    // A whole block straight from the input.
                    xor_block(&mut s, &p[..RATE]);
                    keccak_f1600_unrolled(&mut s);
                    p = &p[RATE..];
                    continue;
                }
                let n = core::cmp::min(RATE - pos, p.len());
                buf[pos..pos + n].copy_from_slice(&p[..n]);
                pos += n;
                p = &p[n..];
                if pos == RATE {
                    xor_block(&mut s, &buf[..RATE]);
                    keccak_f1600_unrolled(&mut s);
                    pos = 0;
                }
            }
        }
        buf[pos..RATE].fill(0);
        buf[pos] ^= ds;
        buf[RATE - 1] ^= 0x80;
        xor_block(&mut s, &buf[..RATE]);
        keccak_f1600_unrolled(&mut s);
        wipe(&mut buf);
        Self { s, used: false }
    }

    /// Squeezes `out.len() <= RATE` bytes: the next output block's prefix.
    pub(crate) fn squeeze_block(&mut self, out: &mut [u8]) {
        debug_assert!(out.len() <= RATE);
        if self.used {
            keccak_f1600_unrolled(&mut self.s);
        }
        self.used = true;
        for (i, o) in out.chunks_mut(8).enumerate() {
            let w = self.s[i].to_le_bytes();
            o.copy_from_slice(&w[..o.len()]);
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
