//! Randomness inside keygen and signing: SHAKE256 seeded from the caller's
//! random seed, and the ChaCha20-based PRNG that feeds the Gaussian sampler
//! (as in the Falcon round-3 reference implementation, `rng.c`).

use pqforge_core::keccak::Shake256;
use zeroize::Zeroize;

use crate::backend::Backend;

/// Bytes produced per refill: 8 interleaved ChaCha20 blocks.
pub(crate) const BUF_LEN: usize = 512;

/// The sampler PRNG: ChaCha20 (20 rounds) keyed by 48 bytes of SHAKE256
/// output plus a 64-bit block counter; 8 blocks per refill, output words
/// interleaved (block u, word v -> bytes `4u + 32v .. +4`).
/// The backend `B` runs the refills.
pub(crate) struct Prng<B> {
    buf: [u8; BUF_LEN],
    ptr: usize,
    /// Words 4..16 of the ChaCha20 input (key, then nonce words).
    key: [u32; 12],
    cc: u64,
    b: B,
}

const CW: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

#[inline(always)]
fn qround(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(12);
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(7);
}

impl<B: Backend> Prng<B> {
    /// Seeds from 56 bytes of `src` (48 key bytes, 8 counter bytes, all
    /// little-endian) and fills the buffer.
    pub(crate) fn new(b: B, src: &mut Shake256) -> Self {
        let mut tmp = [0u8; 56];
        src.squeeze(&mut tmp);
        let mut key = [0u32; 12];
        for (k, c) in key.iter_mut().zip(tmp.chunks_exact(4)) {
            *k = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        let mut c8 = [0u8; 8];
        c8.copy_from_slice(&tmp[48..56]);
        let cc = u64::from_le_bytes(c8);
        tmp.zeroize();
        let mut p = Prng {
            buf: [0; BUF_LEN],
            ptr: 0,
            key,
            cc,
            b,
        };
        p.refill();
        p
    }

    /// The next eight blocks.
    fn refill(&mut self) {
        self.b.chacha20x8(&mut self.buf, &self.key, self.cc);
        self.cc = self.cc.wrapping_add(8);
        self.ptr = 0;
    }

    /// Next 64-bit little-endian word (refilling early when fewer than 9
    /// bytes remain, as the reference does).
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        let mut u = self.ptr;
        if u >= BUF_LEN - 9 {
            self.refill();
            u = 0;
        }
        self.ptr = u + 8;
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.buf[u..u + 8]);
        u64::from_le_bytes(b)
    }

    /// Next byte.
    #[inline]
    pub(crate) fn next_u8(&mut self) -> u32 {
        let v = self.buf[self.ptr];
        self.ptr += 1;
        if self.ptr == BUF_LEN {
            self.refill();
        }
        u32::from(v)
    }
}

impl<B> Drop for Prng<B> {
    fn drop(&mut self) {
        self.buf.zeroize();
        self.key.zeroize();
        self.cc.zeroize();
    }
}

/// Eight ChaCha20 blocks for the counters `cc .. cc + 8` (words 4..16 of
/// the input in `key`, the counter XORed into words 14 and 15), output
/// words interleaved into `buf` (block u, word v at bytes `4u + 32v`): the
/// portable kernel of [`Backend::chacha20x8`].
pub(crate) fn chacha20x8(buf: &mut [u8; BUF_LEN], key: &[u32; 12], cc: u64) {
    let mut cc = cc;
    for u in 0..8 {
        let mut st = [0u32; 16];
        st[..4].copy_from_slice(&CW);
        st[4..].copy_from_slice(key);
        st[14] ^= cc as u32;
        st[15] ^= (cc >> 32) as u32;
        for _ in 0..10 {
            qround(&mut st, 0, 4, 8, 12);
            qround(&mut st, 1, 5, 9, 13);
            qround(&mut st, 2, 6, 10, 14);
            qround(&mut st, 3, 7, 11, 15);
            qround(&mut st, 0, 5, 10, 15);
            qround(&mut st, 1, 6, 11, 12);
            qround(&mut st, 2, 7, 8, 13);
            qround(&mut st, 3, 4, 9, 14);
        }
        for v in 0..4 {
            st[v] = st[v].wrapping_add(CW[v]);
        }
        for v in 4..14 {
            st[v] = st[v].wrapping_add(key[v - 4]);
        }
        st[14] = st[14].wrapping_add(key[10] ^ (cc as u32));
        st[15] = st[15].wrapping_add(key[11] ^ ((cc >> 32) as u32));
        cc = cc.wrapping_add(1);
        for (v, w) in st.iter().enumerate() {
            let o = (u << 2) + (v << 5);
            buf[o..o + 4].copy_from_slice(&w.to_le_bytes());
        }
        st.zeroize();
    }
}

/// SHAKE256 context: absorbs `seed`, ready to squeeze.
pub(crate) fn shake_from_seed(seed: &[u8]) -> Shake256 {
    let mut sc = Shake256::new();
    sc.absorb(seed);
    sc
}

/// A SHAKE256 output stream read as 64-bit words (keygen's RNG): the same
/// bytes as [`shake_u64`] on the sponge, but the blocks after the first
/// come from a copy of the state run through the unrolled permutation
/// (BMI1/BMI2 when available). The copy is wiped on drop.
pub(crate) struct ShakeU64 {
    st: [u64; 25],
    /// Next lane of `st` to return (17 lanes = the 136-byte rate).
    pos: usize,
}

impl ShakeU64 {
    /// Takes over `sc`, which must have absorbed its input and not
    /// squeezed yet (it is not usable for output afterwards).
    pub(crate) fn new(sc: &mut Shake256) -> Self {
        let mut first = [0u8; 136];
        sc.squeeze(&mut first);
        first.zeroize();
        ShakeU64 {
            st: sc.state(),
            pos: 0,
        }
    }

    /// Next 64-bit little-endian word.
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        if self.pos == 17 {
            pqforge_core::keccak_x4::keccak_f1600_unrolled(&mut self.st);
            self.pos = 0;
        }
        let w = self.st[self.pos];
        self.pos += 1;
        w
    }
}

impl Drop for ShakeU64 {
    fn drop(&mut self) {
        self.st.zeroize();
    }
}

/// 64-bit little-endian word from SHAKE256 (the reference for [`ShakeU64`]).
#[cfg(test)]
#[inline]
pub(crate) fn shake_u64(sc: &mut Shake256) -> u64 {
    let mut b = [0u8; 8];
    sc.squeeze(&mut b);
    u64::from_le_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block-wise SHAKE reader gives the same words as squeezing.
    #[test]
    fn shake_u64_matches_squeeze() {
        let mut a = shake_from_seed(b"seed");
        let mut b = shake_from_seed(b"seed");
        let mut r = ShakeU64::new(&mut b);
        for _ in 0..100 {
            assert_eq!(shake_u64(&mut a), r.next_u64());
        }
    }
}
