//! The HQC XOF and the vector samplers.
//!
//! * [`Xof`]: SHAKE256(seed || 0x01). Under [`Revision::V5_0_0`] every read
//!   is rounded up to a multiple of 8 bytes and the surplus discarded (the
//!   v5.0.0 reference squeezes whole 64-bit words).
//! * [`sample_uniform`]: a uniform ring element (h).
//! * [`sample_fixed_weight_rejection`]: key-generation sampler for x and y;
//!   24-bit candidates below the largest multiple of n under 2^24 are reduced
//!   modulo n (Barrett, no division) and duplicates are redrawn.
//! * [`sample_fixed_weight_shift`]: encryption sampler for r1, r2 and e;
//!   position i is `i + ((u32 · (n - i)) >> 32)`, then a backwards pass moves
//!   duplicates to i (the reference's "algorithm 5"); no rejection at all.
//!
//! The fixed-weight samplers return the support (list of positions); those
//! are secret and are turned into bits by [`xor_support`], which touches
//! every word of the output for every position. The only declassified values are the rejection sampler's
//! accept bits (below the threshold, not a duplicate): whether a public
//! number of XOF bytes gets consumed follows from them anyway.

use core::hint::black_box;

use pqforge_core::ct;
use pqforge_core::ctgrind::declassify_val;
use pqforge_core::keccak::Shake256;

use crate::gf2x::{Kernels, one_hot64};
use crate::params::{MAX_WEIGHT, ParameterSet, Pos, Revision};

/// Domain byte of the XOF.
const XOF_DOMAIN: u8 = 0x01;

/// The HQC extendable-output function on a seed.
pub(crate) struct Xof {
    sponge: Shake256,
    pad8: bool,
}

impl Xof {
    /// SHAKE256(seed || 0x01), reading like the reference of `rev`.
    pub(crate) fn new(seed: &[u8], rev: Revision) -> Self {
        let mut sponge = Shake256::new();
        sponge.absorb(seed);
        sponge.absorb(&[XOF_DOMAIN]);
        Self {
            sponge,
            pad8: rev.pads_xof_reads(),
        }
    }

    /// Next `out.len()` bytes (v5.0.0: then skips to a multiple of 8).
    pub(crate) fn get_bytes(&mut self, out: &mut [u8]) {
        self.sponge.squeeze(out);
        let rem = out.len() % 8;
        if self.pad8 && rem != 0 {
            let mut waste = [0u8; 8];
            self.sponge.squeeze(&mut waste[..8 - rem]);
            zeroize::Zeroize::zeroize(&mut waste);
        }
    }
}

/// A uniformly random ring element: N_BYTES little-endian bytes, bits at
/// and above n cleared (and the padding words).
pub(crate) fn sample_uniform<P: ParameterSet>(xof: &mut Xof, out: &mut [u64]) {
    // Squeezed in 64-byte pieces (no N_BYTES buffer on the stack); a single
    // read as far as the v5.0.0 padding is concerned.
    let mut buf = [0u8; 64];
    let mut done = 0;
    for chunk in out.chunks_mut(8) {
        let take = (P::N_BYTES - done).min(64);
        if take == 0 {
            chunk.fill(0);
            continue;
        }
        xof.sponge.squeeze(&mut buf[..take]);
        buf[take..].fill(0);
        for (i, o) in chunk.iter_mut().enumerate() {
            let mut w = [0u8; 8];
            w.copy_from_slice(&buf[8 * i..8 * i + 8]);
            *o = u64::from_le_bytes(w);
        }
        done += take;
    }
    let rem = P::N_BYTES % 8;
    if xof.pad8 && rem != 0 {
        xof.sponge.squeeze(&mut buf[..8 - rem]);
    }
    zeroize::Zeroize::zeroize(&mut buf);
    let w = P::N / 64;
    if !P::N.is_multiple_of(64) {
        out[w] &= (1u64 << (P::N % 64)) - 1;
    }
}

/// `out ^= Σ X^pos` over the positions in `support` (distinct, below
/// 64·out.len()), touching every word for every position (no
/// secret-dependent memory index or branch). The small-RAM profile goes
/// through the positions 16 at a time (192 bytes of indices and bits on
/// the stack instead of 1.8 KB, one more pass over `out` per 16).
pub(crate) fn xor_support<B: Kernels>(out: &mut [u64], support: &[Pos]) {
    const CHUNK: usize = if cfg!(feature = "small-ram") {
        16
    } else {
        MAX_WEIGHT
    };
    let mut idx = [0u32; CHUNK];
    let mut bit = [0u64; CHUNK];
    for chunk in support.chunks(CHUNK) {
        let w = chunk.len();
        for (k, &pos) in chunk.iter().enumerate() {
            let pos = u32::from(pos);
            idx[k] = pos >> 6;
            bit[k] = one_hot64(pos & 63);
        }
        B::xor_bits(out, &idx[..w], &bit[..w]);
    }
    zeroize::Zeroize::zeroize(&mut idx);
    zeroize::Zeroize::zeroize(&mut bit);
}

/// `out = Σ X^pos` over the positions in `support`.
#[cfg_attr(feature = "small-ram", allow(dead_code))]
pub(crate) fn write_support<B: Kernels>(out: &mut [u64], support: &[Pos]) {
    out.fill(0);
    xor_support::<B>(out, support);
}

/// `x mod n` for `x < 2^24` by multiply-shift (no division instruction).
#[inline]
fn barrett<P: ParameterSet>(x: u32) -> u32 {
    let n = P::N as u32;
    let q = ((u64::from(x) * P::BARRETT_MU) >> 32) as u32;
    let r = x - q * n;
    // One conditional subtraction, as a mask.
    r - (n & !ct::lt_mask_u32(r, n))
}

/// Key-generation sampler (x, y): `support.len()` distinct positions in
/// `[0, n)`.
pub(crate) fn sample_fixed_weight_rejection<P: ParameterSet>(xof: &mut Xof, support: &mut [Pos]) {
    let weight = support.len();
    let big_endian = P::REVISION.big_endian_candidates();
    // v5.0.0 refills a 3·ω-byte buffer (padded read, leftovers of the last
    // buffer are dropped); 161cd4f reads exactly 3 bytes per candidate, so
    // the next vector starts right after the last candidate.
    let batch = if P::REVISION.pads_xof_reads() {
        3 * weight
    } else {
        3
    };
    let mut buf = [0u8; 3 * MAX_WEIGHT];
    let mut j = batch;
    let mut i = 0;
    while i < weight {
        if j == batch {
            xof.get_bytes(&mut buf[..batch]);
            j = 0;
        }
        let (b0, b1, b2) = (
            u32::from(buf[j]),
            u32::from(buf[j + 1]),
            u32::from(buf[j + 2]),
        );
        j += 3;
        let cand = if big_endian {
            (b0 << 16) | (b1 << 8) | b2
        } else {
            b0 | (b1 << 8) | (b2 << 16)
        };
        // Declassified: the accept bit of rejection sampling (the candidate
        // itself stays secret).
        let below = declassify_val(ct::lt_mask_u32(cand, P::REJECTION_THRESHOLD));
        if below == 0 {
            continue;
        }
        let pos = barrett::<P>(cand);
        let mut dup = 0u32;
        for &s in &support[..i] {
            dup |= ct::eq_mask_u32(u32::from(s), pos);
        }
        // pos < n < 2^16 (checked for every set in `params`).
        support[i] = pos as Pos;
        // Declassified: whether the candidate is a duplicate (accept bit of
        // the rejection loop); the positions stay secret.
        if declassify_val(black_box(dup)) == 0 {
            i += 1;
        }
    }
    zeroize::Zeroize::zeroize(&mut buf);
}

/// Encryption sampler (r1, r2, e): `support.len()` distinct positions in
/// `[0, n)` from exactly `4·support.len()` XOF bytes.
pub(crate) fn sample_fixed_weight_shift<P: ParameterSet>(xof: &mut Xof, support: &mut [Pos]) {
    let weight = support.len();
    let mut buf = [0u8; 4 * MAX_WEIGHT];
    xof.get_bytes(&mut buf[..4 * weight]);
    for i in 0..weight {
        let r = u32::from_le_bytes([buf[4 * i], buf[4 * i + 1], buf[4 * i + 2], buf[4 * i + 3]]);
        // Below n < 2^16 (checked for every set in `params`).
        support[i] = (i as u32 + ((u64::from(r) * (P::N - i) as u64) >> 32) as u32) as Pos;
    }
    // Backwards pass: a position equal to a later one becomes i (which no
    // later position can hold, since position j >= j > i).
    for i in (0..weight.saturating_sub(1)).rev() {
        let mut found = 0u32;
        for j in i + 1..weight {
            found |= ct::eq_mask_u32(u32::from(support[j]), u32::from(support[i]));
        }
        support[i] ^= (found & (u32::from(support[i]) ^ i as u32)) as Pos;
    }
    zeroize::Zeroize::zeroize(&mut buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gf2x::Bitwise;
    use crate::params::{Hqc1, Hqc5V5};

    fn weight(v: &[u64]) -> u32 {
        v.iter().map(|w| w.count_ones()).sum()
    }

    #[test]
    fn weights_are_exact() {
        for seed in 0..if cfg!(miri) { 1 } else { 20u8 } {
            let mut v = [0u64; 904];
            let mut sup = [0 as Pos; MAX_WEIGHT];
            let mut x = Xof::new(&[seed; 32], Revision::NextRelease161cd4f);
            sample_fixed_weight_rejection::<Hqc1>(&mut x, &mut sup[..66]);
            write_support::<Bitwise>(&mut v[..280], &sup[..66]);
            assert_eq!(weight(&v[..280]), 66);
            sample_fixed_weight_shift::<Hqc1>(&mut x, &mut sup[..75]);
            write_support::<Bitwise>(&mut v[..280], &sup[..75]);
            assert_eq!(weight(&v[..280]), 75);
            let mut x = Xof::new(&[seed; 32], Revision::V5_0_0);
            sample_fixed_weight_rejection::<Hqc5V5>(&mut x, &mut sup[..131]);
            write_support::<Bitwise>(&mut v, &sup[..131]);
            assert_eq!(weight(&v), 131);
            sample_fixed_weight_shift::<Hqc5V5>(&mut x, &mut sup[..149]);
            write_support::<Bitwise>(&mut v, &sup[..149]);
            assert_eq!(weight(&v), 149);
        }
    }

    #[test]
    fn one_hot_is_shift() {
        for s in 0..64 {
            assert_eq!(one_hot64(s), 1u64 << s);
        }
    }

    #[test]
    fn barrett_is_mod() {
        for x in (0..Hqc1::REJECTION_THRESHOLD).step_by(9973) {
            assert_eq!(barrett::<Hqc1>(x), x % 17669);
        }
        assert_eq!(barrett::<Hqc1>(Hqc1::REJECTION_THRESHOLD - 1), 17668);
    }
}
